//! `report.html` renders in headless Chromium (Debian's `chromium` package) with its charts:
//! `analyze` of simulated corpora writes the page, Chromium takes a screenshot of it and dumps
//! its DOM, and the tests check the PNG and the SVG charts in the DOM: one part per unit, one
//! bar per class of the unit in the legend's colours, one line per seat, every ranked player
//! on a sortable leaderboard.
//!
//! Chromium is required, not optional: without `/usr/bin/chromium` the tests fail and say how
//! to install it (`.ci/run` installs it). The screenshots and the pages are kept in
//! `target/tmp/report_html/` for a look.

use crate::browser::{chromium, keep, png_size, require_chromium, svg_element, WINDOW};
use crate::common::{run_ok, simulate_two_seat};
use std::path::Path;

/// Analyses `corpora` (with `extra` flags) into `out`; returns stdout.
fn analyze(corpora: &[&Path], out: &Path, extra: &[&str]) -> String {
    let mut args: Vec<&str> = vec!["analyze"];
    args.extend(corpora.iter().map(|c| c.to_str().expect("a UTF-8 path")));
    args.extend(["--out", out.to_str().expect("a UTF-8 path")]);
    args.extend(extra);
    run_ok(&args, 2)
}

/// Renders `page` in Chromium: keeps a screenshot as `target/tmp/report_html/NAME.png`
/// (checked to be a real, non-blank PNG of the window) and returns the DOM.
fn render(page: &Path, name: &str) -> String {
    let png_path = page.with_extension("png");
    chromium(page, &[format!("--screenshot={}", png_path.display())]);
    let png = std::fs::read(&png_path)
        .unwrap_or_else(|e| panic!("chromium wrote no screenshot {}: {e}", png_path.display()));
    assert_eq!(png_size(&png), WINDOW, "screenshot size");
    assert!(
        png.len() > 20_000,
        "the screenshot is suspiciously small ({} bytes): a blank page?",
        png.len()
    );
    let kept = keep("report_html", &format!("{name}.png"), &png);
    println!("screenshot: {}", kept.display());
    let html = std::fs::read(page).expect("the page");
    keep("report_html", &format!("{name}.html"), &html);
    String::from_utf8(chromium(page, &["--dump-dom".to_string()])).expect("the DOM is UTF-8")
}

/// The value of attribute `name` in the first tag of `element`.
fn attribute<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let tag = &element[..element.find('>')?];
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&tag[start..start + tag[start..].find('"')?])
}

/// The `<tr>` rows of the body of the table with id `id` in a DOM.
fn table_rows<'a>(dom: &'a str, id: &str) -> Vec<&'a str> {
    let start = dom
        .find(&format!("<table id=\"{id}\""))
        .unwrap_or_else(|| panic!("no table {id}"));
    let end = start + dom[start..].find("</table>").expect("a closed table");
    let body = &dom[start..end];
    let body = &body[body.find("<tbody>").expect("a tbody")..];
    body.split("<tr").skip(1).collect()
}

#[test]
fn report_html_renders_in_headless_chromium_with_its_charts() {
    require_chromium();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let corpus = dir.path().join("x.ygn");
    let out = dir.path().join("analysis");
    let args = simulate_two_seat(12, 200, 7, corpus.to_str().expect("a UTF-8 path"));
    run_ok(&args.iter().map(String::as_str).collect::<Vec<_>>(), 2);
    analyze(&[&corpus], &out, &["--min-games", "5"]);
    let page = out.join("report.html");
    let html = std::fs::read_to_string(&page).expect("analyze writes report.html");
    assert!(html.starts_with("<!DOCTYPE html>"));
    for external in [
        "<script src",
        "<link",
        "src=\"http",
        "href=\"http",
        "@import",
    ] {
        assert!(
            !html.contains(external),
            "report.html is not self-contained: {external}"
        );
    }
    let dom = render(&page, "two-player");

    // Two-player games under the default oracle: one part, in match points.
    assert!(dom.contains("id=\"part-match-points-13\""));
    assert!(!dom.contains("id=\"part-points-13\""), "no part in points");
    let rounds = svg_element(&dom, "round-chart-match-points-13");
    assert!(rounds.contains("<title"), "round chart without a title");
    assert!(rounds.contains("<path"), "round chart without axes");
    for seat in [1, 2] {
        assert_eq!(
            rounds
                .matches(&format!(
                    "<polyline class=\"series seat seats-2 seat-{seat}\""
                ))
                .count(),
            1,
            "one line for seat {seat}"
        );
    }
    assert!(
        rounds.contains("<polyline class=\"series best\""),
        "line of the best players"
    );
    assert_eq!(
        rounds.matches("<circle class=\"point\"").count(),
        3 * 13,
        "13 rounds for each seat and for the best players"
    );

    // One bar per match-point class, each in the colour its legend entry shows.
    let classes = svg_element(&dom, "error-classes-match-points-13");
    assert_eq!(classes.matches("<rect class=\"bar ").count(), 4);
    for (class, range) in [
        ("fine", "below 0.001"),
        ("doubtful", "0.001 to 0.01"),
        ("error", "0.01 to 0.05"),
        ("blunder", "0.05 and more"),
    ] {
        let bar_at = classes
            .find(&format!("<rect class=\"bar {class}\""))
            .unwrap_or_else(|| panic!("no bar for {class}"));
        let fill = attribute(&classes[bar_at..], "fill").expect("a bar with a fill");
        let legend_at = dom
            .find(&format!("<li class=\"legend-{class}\""))
            .unwrap_or_else(|| panic!("no legend entry for {class}"));
        let legend = &dom[legend_at..legend_at + dom[legend_at..].find("</li>").expect("li")];
        assert!(
            legend.contains(&format!("background: {fill}")),
            "{class}: the bar's fill {fill} is not the legend's colour: {legend}"
        );
        assert!(legend.contains(range), "{class}: {legend}");
    }
    let kinds = svg_element(&dom, "kind-chart-match-points-13");
    assert_eq!(kinds.matches("<rect class=\"bar ").count(), 3);

    // Every ranked player, linked to their page, sortable headers naming the unit.
    let rows = table_rows(&dom, "leaderboard-table-match-points-13");
    assert_eq!(rows.len(), 12, "every ranked player");
    assert!(rows.iter().all(|r| r.contains("<a href=\"players/")));
    assert!(dom.contains("error/game<br>(match points)"));
    assert!(dom.contains("class=\"num sortable\""));
}

#[test]
fn a_mixed_corpus_gives_a_leaderboard_per_unit() {
    require_chromium();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (solo, duo) = (dir.path().join("solo.ygn"), dir.path().join("duo.ygn"));
    run_ok(
        &[
            "simulate",
            "--seats",
            "1",
            "--players",
            "5",
            "--games",
            "60",
            "--seed",
            "3",
            "--out",
            solo.to_str().expect("a UTF-8 path"),
        ],
        2,
    );
    let args = simulate_two_seat(6, 60, 4, duo.to_str().expect("a UTF-8 path"));
    run_ok(&args.iter().map(String::as_str).collect::<Vec<_>>(), 2);
    let out = dir.path().join("analysis");
    let stdout = analyze(&[&solo, &duo], &out, &["--min-games", "3"]);
    assert!(
        stdout.contains("leaderboard of one-player games of yahtzee, errors in expected points"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "leaderboard of games of several players of yahtzee, errors in expected match points"
        ),
        "{stdout}"
    );
    let dom = render(&out.join("report.html"), "mixed");
    let points = table_rows(&dom, "leaderboard-table-points-13");
    let match_points = table_rows(&dom, "leaderboard-table-match-points-13");
    assert_eq!(points.len(), 5, "the five one-player simulated players");
    assert_eq!(
        match_points.len(),
        6,
        "the six two-player simulated players"
    );
    // Each leaderboard's headers name its own unit.
    let header = |id: &str| {
        let at = dom.find(&format!("<table id=\"{id}\"")).expect("the table");
        dom[at..at + dom[at..].find("</thead>").expect("a thead")].to_string()
    };
    assert!(header("leaderboard-table-points-13").contains("error/game<br>(points)"));
    assert!(header("leaderboard-table-match-points-13").contains("error/game<br>(match points)"));
    for chart in ["round-chart-points-13", "round-chart-match-points-13"] {
        assert!(svg_element(&dom, chart).contains("<polyline"), "{chart}");
    }
    // The points part's classes are those of points.
    let classes = svg_element(&dom, "error-classes-points-13");
    assert!(classes.contains("blunder (5 and more)"), "{classes}");
}
