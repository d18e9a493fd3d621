//! `report.html` renders in headless Chromium (Debian's `chromium` package) with its charts:
//! `analyze` of a simulated corpus writes the page, Chromium takes a screenshot of it and
//! dumps its DOM, and the test checks the PNG and the SVG charts in the DOM.
//!
//! Chromium is required, not optional: without `/usr/bin/chromium` the test fails and says how
//! to install it (`.ci/run` installs it). The screenshot and the page are kept in
//! `target/tmp/report_html/` for a look.

use crate::browser::{chromium, dicelens, keep, png_size, require_chromium, svg_element, WINDOW};

#[test]
fn report_html_renders_in_headless_chromium_with_its_charts() {
    require_chromium();
    let tables = tempfile::tempdir().expect("a temporary table directory");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let corpus = dir.path().join("x.ygn");
    let out = dir.path().join("analysis");
    let (c, o) = (
        corpus.to_str().expect("a UTF-8 path"),
        out.to_str().expect("a UTF-8 path"),
    );
    dicelens(
        tables.path(),
        &[
            "simulate",
            "--seats",
            "2",
            "--players",
            "8",
            "--games",
            "200",
            "--out",
            c,
        ],
    );
    dicelens(
        tables.path(),
        &[
            "analyze",
            c,
            "--oracle",
            "e",
            "--min-games",
            "5",
            "--out",
            o,
        ],
    );
    let page = out.join("report.html");
    let html = std::fs::read_to_string(&page).expect("analyze writes report.html");
    assert!(html.starts_with("<!DOCTYPE html>"));
    for external in ["<script", "<link", "src=\"http", "href=\"http", "@import"] {
        assert!(
            !html.contains(external),
            "report.html is not self-contained: {external}"
        );
    }

    // The screenshot: a real PNG of the window, with something drawn on it.
    let png_path = dir.path().join("report.png");
    chromium(&page, &[format!("--screenshot={}", png_path.display())]);
    let png = std::fs::read(&png_path)
        .unwrap_or_else(|e| panic!("chromium wrote no screenshot {}: {e}", png_path.display()));
    assert_eq!(png_size(&png), WINDOW, "screenshot size");
    assert!(
        png.len() > 20_000,
        "the screenshot is suspiciously small ({} bytes): a blank page?",
        png.len()
    );
    let kept = keep("report_html", "report.png", &png);
    keep("report_html", "report.html", html.as_bytes());
    println!("screenshot: {}", kept.display());

    // The DOM as Chromium parsed it: the three charts with their marks.
    let dom =
        String::from_utf8(chromium(&page, &["--dump-dom".to_string()])).expect("the DOM is UTF-8");
    let rounds = svg_element(&dom, "round-chart");
    assert!(rounds.contains("<title"), "round chart without a title");
    assert!(rounds.contains("<path"), "round chart without axes");
    assert_eq!(
        rounds.matches("<polyline class=\"series seats ").count(),
        1,
        "one line for the two-seat games"
    );
    assert!(rounds.contains("<polyline class=\"series seats seats-2\""));
    assert!(
        rounds.contains("<polyline class=\"series best\""),
        "line of the best players"
    );
    assert_eq!(
        rounds.matches("<circle class=\"point\"").count(),
        26 + 13,
        "26 turns of two-seat games and 13 rounds of the best players"
    );
    let distribution = svg_element(&dom, "error-distribution");
    assert!(distribution.contains("<title"));
    assert!(distribution.contains("<path"));
    assert_eq!(distribution.matches("<rect class=\"bar ").count(), 7);
    let kinds = svg_element(&dom, "kind-chart");
    assert!(kinds.contains("<title"));
    assert!(kinds.contains("<path"));
    assert_eq!(kinds.matches("<rect class=\"bar ").count(), 3);
    assert!(dom.contains("<table id=\"leaderboard-table\""));
    assert!(dom.contains("<td>sim01</td>"), "sim01 on the leaderboard");
}
