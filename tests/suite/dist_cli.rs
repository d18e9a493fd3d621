//! `dicelens dist`: the CSV, the summary and the SVG chart of a sheet's final-score
//! distribution, checked against values computed here and against each other, and its errors.
//!
//! Every test of `dist` lives in this binary: the yahtzee distribution table is built once, by
//! the first `dist` run, in this binary's table directory (see [`ready`]).

use crate::common::{run, run_ok, text};
use std::sync::OnceLock;

/// Rayon threads of each run.
const THREADS: usize = 2;

use crate::common::CHANCE_ONLY;

/// The empty yahtzee sheet.
const EMPTY: [&str; 4] = ["--rules", "yahtzee", "--filled", "-"];

/// Yahtzee's optimal expected final score from the empty sheet.
const OPTIMAL_EXPECTED: f64 = 254.5877;

/// Builds the distribution table once (the first `dist` run builds it), so that parallel tests
/// do not each start a build of their own.
fn ready() {
    static READY: OnceLock<()> = OnceLock::new();
    READY.get_or_init(|| {
        run_ok(
            &["dist", "--csv", "--rules", "yahtzee", "--filled", "-"],
            THREADS,
        );
    });
}

/// Stdout of a successful `dicelens dist` with these flags.
fn dist(args: &[&str]) -> String {
    ready();
    let mut all = vec!["dist"];
    all.extend_from_slice(args);
    run_ok(&all, THREADS)
}

/// The `--csv` rows of a sheet: `(total, P(final >= total))`, after checking the header, the
/// digits (nine decimals, or eight significant digits below 0.001) and that the third column
/// is `1 - P`.
fn csv(sheet: &[&str]) -> Vec<(i64, f64)> {
    let mut args = sheet.to_vec();
    args.push("--csv");
    let out = dist(&args);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("total,p_at_least,p_below"), "{out}");
    lines
        .enumerate()
        .map(|(row, line)| {
            let cols: Vec<&str> = line.split(',').collect();
            assert_eq!(cols.len(), 3, "three columns: {line}");
            let (p, below): (f64, f64) = (cols[1].parse().unwrap(), cols[2].parse().unwrap());
            let digits = match cols[1].split_once('e') {
                Some((m, _)) => m.len() - 2,
                None => cols[1].split_once('.').map_or(0, |(_, d)| d.len()),
            };
            assert_eq!(digits, if p >= 1e-3 { 9 } else { 7 }, "digits: {line}");
            assert!(
                (p + below - 1.0).abs() <= 1e-6 * below + 1e-9,
                "1 - P: {line}"
            );
            // 1 - P is 0 on the first row (P = 1 exactly), positive after it.
            assert_eq!(below > 0.0, row > 0, "1 - P: {line}");
            (cols[0].parse().expect("a total"), p)
        })
        .collect()
}

/// The invariants of every distribution: whole totals one apart, `P = 1` exactly at the first
/// row only, non-increasing, positive to the last row.
fn check_shape(rows: &[(i64, f64)]) {
    assert!(!rows.is_empty());
    assert_eq!(rows[0].1, 1.0, "the first row has P = 1: {:?}", rows[0]);
    for pair in rows.windows(2) {
        let ((t0, p0), (t1, p1)) = (pair[0], pair[1]);
        assert_eq!(t1, t0 + 1, "consecutive totals");
        assert!(p1 <= p0, "non-increasing at {t1}: {p0} then {p1}");
        // P below 1 after the first row (printed as 1 when 1 - P is below 5e-10).
        assert!(
            p1 <= 1.0 && p1 > 0.0,
            "0 < P <= 1 after the first row: {t1} {p1}"
        );
    }
}

/// `sum over x >= 1 of P(final >= x)`: `P = 1` up to the first row, then the rows.
fn mean(rows: &[(i64, f64)]) -> f64 {
    rows[0].0 as f64 + rows[1..].iter().map(|r| r.1).sum::<f64>()
}

/// The largest total with `P >= p`.
fn target(rows: &[(i64, f64)], p: f64) -> i64 {
    rows.iter()
        .filter(|r| r.1 >= p)
        .map(|r| r.0)
        .max()
        .expect("a row with P = 1")
}

/// The value after `prefix` on the summary line starting with it.
fn summary_value<'a>(summary: &'a str, prefix: &str) -> &'a str {
    summary
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no line '{prefix}' in:\n{summary}"))
        .split_whitespace()
        .next()
        .expect("a value")
}

#[test]
fn chance_alone_runs_from_five_to_thirty_points() {
    let rows = csv(&CHANCE_ONLY);
    check_shape(&rows);
    // Chance scores 5 to 30: P(final >= 205) = 1, and nothing reaches 231.
    let (first, last) = (rows[0].0, rows[rows.len() - 1].0);
    assert!((205..230).contains(&first), "first total {first}");
    assert_eq!(last, 230, "the greatest total is five sixes");
    // 230 needs five sixes: keeping sixes, each die shows one within three rolls.
    let five_sixes = (1.0 - (5.0f64 / 6.0).powi(3)).powi(5);
    assert!((five_sixes - 0.013272).abs() < 1e-6);
    let p230 = rows[rows.len() - 1].1;
    assert!(
        (p230 - five_sixes).abs() < 1e-4,
        "P(>= 230) = {p230}, expected {five_sixes}"
    );
    // At least 229 is five sixes or four sixes and a five: more likely, below certainty.
    let p229 = rows[rows.len() - 2].1;
    assert!(p229 > 2.0 * p230 && p229 < 0.1, "P(>= 229) = {p229}");
}

#[test]
fn empty_sheet_distribution_is_a_survival_function_above_the_optimal_mean() {
    let rows = csv(&EMPTY);
    check_shape(&rows);
    assert!(rows.len() > 300, "{} rows", rows.len());
    let m = mean(&rows);
    assert!(
        m >= OPTIMAL_EXPECTED,
        "mean of the maximal probabilities {m}"
    );
    assert!(m < OPTIMAL_EXPECTED + 30.0, "mean {m}");
    // The median of optimal play (about 250) is within the 50% target's reach.
    assert!((240..=270).contains(&target(&rows, 0.5)));
}

#[test]
fn summary_agrees_with_the_csv() {
    for sheet in [&EMPTY[..], &CHANCE_ONLY[..]] {
        let rows = csv(sheet);
        let summary = dist(sheet);
        let mut lines = summary.lines();
        let heading = lines.next().expect("a heading");
        assert!(heading.starts_with("yahtzee: filled "), "{heading}");
        let least: i64 = summary_value(&summary, "least total with P < 1: ")
            .parse()
            .unwrap();
        assert_eq!(least, rows[0].0 + 1);
        let greatest: i64 = summary_value(&summary, "greatest total with P > 0: ")
            .parse()
            .unwrap();
        assert_eq!(greatest, rows[rows.len() - 1].0);
        let printed_mean: f64 = summary_value(&summary, "mean, sum over x of P: ")
            .parse()
            .unwrap();
        assert!(
            (printed_mean - mean(&rows)).abs() < 1e-3,
            "{printed_mean} vs {}",
            mean(&rows)
        );
        for (p, label) in [(0.9, "0.9"), (0.5, "0.5"), (0.1, "0.1"), (0.01, "0.01")] {
            let printed: i64 =
                summary_value(&summary, &format!("largest total with P >= {label}: "))
                    .parse()
                    .unwrap();
            assert_eq!(printed, target(&rows, p), "target {label}");
        }
        // The table: totals strictly inside the range, P as in the CSV.
        let table: Vec<(i64, &str)> = summary
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("x  P(final >= x)"))
            .skip(1)
            .map(|l| {
                let mut cols = l.split_whitespace();
                (cols.next().unwrap().parse().unwrap(), cols.next().unwrap())
            })
            .collect();
        assert!(
            table.len() >= 5 && table.len() <= 40,
            "{} table rows",
            table.len()
        );
        for (total, p) in table {
            let row = rows
                .iter()
                .find(|r| r.0 == total)
                .expect("a total of the CSV");
            assert!(total > rows[0].0, "{total} has P < 1");
            // Six decimals from 0.001 up, five significant digits below.
            let printed: f64 = p.parse().unwrap();
            if row.1 >= 1e-3 {
                assert_eq!(p, format!("{:.6}", row.1), "P at {total}");
            } else {
                assert!(p.contains('e'), "P at {total}: {p}");
                assert!(
                    (printed / row.1 - 1.0).abs() <= 5e-5,
                    "P at {total}: {p} vs {}",
                    row.1
                );
            }
        }
    }
}

#[test]
fn state_notation_gives_the_same_distribution_as_the_flags() {
    let by_flags = csv(&[
        "--filled",
        "2,4,5,6,3K,SS,LS,Y0,C",
        "--upper",
        "51",
        "--points",
        "170",
    ]);
    let by_state = csv(&["--state", "2456TMDY0S,51,170"]);
    check_shape(&by_flags);
    assert_eq!(by_flags, by_state);
}

#[test]
fn complete_sheet_has_its_points_for_sure() {
    let sheet = [
        "--filled",
        "1,2,3,4,5,6,3K,4K,FH,SS,LS,Y0,C",
        "--upper",
        "70",
        "--points",
        "225",
    ];
    assert_eq!(csv(&sheet), vec![(225, 1.0)]);
    let summary = dist(&sheet);
    assert!(summary.contains("the final score is 225"), "{summary}");
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("complete.svg");
    let mut args = sheet.to_vec();
    args.extend(["--svg", svg.to_str().unwrap()]);
    dist(&args);
    check_svg(&std::fs::read_to_string(&svg).unwrap());
}

/// A chart: one `<svg>` element with balanced tags, the step line and both axis titles.
fn check_svg(svg: &str) {
    assert!(svg.starts_with("<svg "), "{}", &svg[..svg.len().min(80)]);
    assert!(svg.ends_with("</svg>\n"));
    assert!(svg.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains("<path class=\"dist\" d=\"M"));
    assert!(svg.contains(">final score x (points)</text>"));
    assert!(svg.contains(">P(final score \u{2265} x)</text>"));
    assert!(svg.contains("<title id=\"dist-chart-title\">"));
    let mut open: Vec<&str> = Vec::new();
    for tag in svg.split('<').skip(1) {
        let tag = &tag[..tag.find('>').expect("a closed tag")];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop(), Some(name), "closing </{name}>");
        } else if !tag.ends_with('/') {
            open.push(tag.split_whitespace().next().expect("a tag name"));
        }
    }
    assert!(open.is_empty(), "unclosed {open:?}");
    for (i, _) in svg.match_indices('&') {
        let entity = &svg[i..svg[i..].find(';').map_or(svg.len(), |j| i + j + 1)];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].contains(&entity),
            "{entity}"
        );
    }
}

#[test]
fn svg_chart_is_well_formed_and_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let mut charts = Vec::new();
    for (i, mode) in [None, Some("--csv")].into_iter().enumerate() {
        let path = dir.path().join(format!("chart{i}.svg"));
        let mut args = CHANCE_ONLY.to_vec();
        args.extend(["--svg", path.to_str().unwrap()]);
        args.extend(mode);
        let stdout = dist(&args);
        // The chart comes with the usual output.
        let mut plain = CHANCE_ONLY.to_vec();
        plain.extend(mode);
        assert_eq!(stdout, dist(&plain));
        charts.push(std::fs::read(&path).unwrap());
    }
    assert_eq!(charts[0], charts[1], "the same sheet gives the same chart");
    let svg = String::from_utf8(charts.swap_remove(0)).unwrap();
    check_svg(&svg);
    assert!(
        svg.contains(">230</text>"),
        "an x tick at the greatest total"
    );
    let empty = dir.path().join("empty.svg");
    let mut args = EMPTY.to_vec();
    args.extend(["--svg", empty.to_str().unwrap()]);
    dist(&args);
    let empty = std::fs::read_to_string(&empty).unwrap();
    check_svg(&empty);
    assert_ne!(empty, svg);
    // The tail on a logarithmic scale: its own nested chart, from the median to the greatest
    // total of the CSV, with decades labelled down past 1e-12.
    let rows = csv(&EMPTY);
    let greatest = rows[rows.len() - 1].0;
    assert!(rows[rows.len() - 1].1 > 0.0 && rows[rows.len() - 1].1 < 1e-12);
    assert!(empty.contains("<svg id=\"dist-tail\""));
    assert!(empty.contains("<title id=\"dist-tail-title\">"));
    assert!(empty.contains(&format!(
        "the median {} to the greatest reachable total {greatest} (P = ",
        target(&rows, 0.5)
    )));
    for decade in ["1", "1e-4", "1e-8", "1e-12"] {
        assert!(
            empty.contains(&format!("text-anchor=\"end\">{decade}</text>")),
            "decade {decade}"
        );
    }
    assert_eq!(empty.matches("<svg ").count(), 2);
}

/// Runs `dist` with bad input: exit code `code`, nothing on stdout, one line on stderr that
/// contains `needle`.
fn fails(args: &[&str], code: i32, needle: &str) {
    let mut all = vec!["dist"];
    all.extend_from_slice(args);
    let out = run(&all, THREADS);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert!(
        out.stdout.is_empty(),
        "{args:?}: stdout {}",
        text(&out.stdout)
    );
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
}

#[test]
fn points_the_sheet_cannot_hold_are_usage_errors_naming_the_bounds() {
    // Chance holds at most 30; with 50 in the Yahtzee box a further five of a kind in Chance
    // adds 100.
    fails(
        &["--filled", "C", "--points", "31"],
        2,
        "--points: 31 points is more than the filled boxes can hold: with these boxes the sheet \
         holds 0 to 30 points, bonuses included",
    );
    fails(
        &["--filled", "C,Y50", "--points", "181"],
        2,
        "50 to 180 points",
    );
}

#[test]
fn bad_sheets_are_usage_errors_naming_the_flag() {
    fails(&["--filled", "1,2", "--upper", "999"], 2, "--upper");
    fails(&["--filled", "1,ZZ"], 2, "--filled");
    fails(&["--rules", "parcheesi"], 2, "--rules");
    fails(
        &["--filled", "1", "--upper", "3", "--points", "2"],
        2,
        "--points",
    );
    fails(
        &["--state", "2456TMDY0S,51,170", "--filled", "1"],
        2,
        "--state",
    );
}

#[test]
fn unwritable_svg_is_a_failure_naming_the_file() {
    ready();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-dir").join("chart.svg");
    let mut args = CHANCE_ONLY.to_vec();
    args.extend(["--svg", path.to_str().unwrap()]);
    fails(&args, 1, "chart.svg");
}
