//! Presentation of `dicelens dice` (the fairness of the dice a corpus shows): a text table for
//! the terminal, CSV and JSON (one row or object per group), and a self-contained HTML page
//! with, per group, the face counts against their 95% interval under fair dice and the sums of
//! five fresh dice against their exact distribution.

use super::dist::probability_text;
use super::page::STYLE;
use super::svg::{
    axes, axis_title, escape, fixed, legend, legend_rows, nice_axis, plot_background, px, svg_open,
    y_axis_from, LegendItem, Scale, LEFT, RIGHT,
};
use crate::fairness::{
    expected_sums, Adjust, CountTest, GroupBy, GroupFairness, Verdict, MAX_FRESH, MIN_EXPECTED,
};
use crate::store::games::csv_field;
use std::fmt::Write;

/// Groups drawn on the HTML page (the table lists them all).
pub(crate) const CHARTED_GROUPS: usize = 40;

/// Normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The fresh dice of the rolls charted in the sum chart, and the least number of fresh dice
/// the JSON lists sum tests up to: five.
const SUM_CHART_DICE: usize = 5;

/// The most fresh dice any roll of `group` brought, at least [`SUM_CHART_DICE`] (six in a
/// corpus of six-dice games): the sum chart shows the rolls of that many fresh dice.
fn most_fresh_dice(group: &GroupFairness) -> usize {
    (SUM_CHART_DICE..=MAX_FRESH)
        .rev()
        .find(|&n| group.counts.sums[n - 1].iter().any(|&c| c > 0))
        .unwrap_or(SUM_CHART_DICE)
}

/// A number of dice in words (`five`, `six`).
fn dice_word(n: usize) -> &'static str {
    ["no", "one", "two", "three", "four", "five", "six"]
        .get(n)
        .copied()
        .unwrap_or("many")
}

/// Colours of the charts: observed, expected, interval (band, whiskers), outside the interval.
const OBSERVED: &str = "#1f6fb4";
const EXPECTED: &str = "#333a48";
const INTERVAL: &str = "#d5dbe4";
const WHISKER: &str = "#4a5263";
const OUTSIDE: &str = "#c9403a";

/// Everything a `dice` report shows: the groups tested and how.
pub struct DiceReport<'a> {
    /// The groups, in name order, tested and corrected.
    pub groups: &'a [GroupFairness],
    /// How games were grouped.
    pub by: GroupBy,
    /// The correction for the number of groups.
    pub adjust: Adjust,
    /// The level of the verdict.
    pub level: f64,
    /// Games used (read and replayed).
    pub games_used: u64,
}

/// A p-value written for people: as every small probability is written
/// ([`probability_text`]: 4 decimals, scientific below 0.001), `<1e-300` below what a double
/// holds.
pub(crate) fn p_text(p: f64) -> String {
    if p < 1e-300 {
        "<1e-300".into()
    } else {
        probability_text(p, 4)
    }
}

/// `p = X`, or `p < 1e-300` for a p-value too small to write.
fn p_is(p: f64) -> String {
    if p < 1e-300 {
        "p < 1e-300".into()
    } else {
        format!("p = {}", p_text(p))
    }
}

/// The plain-language verdict on a group: "consistent with fair dice (p = ...)" or "unlikely
/// under fair dice: p = ...".
pub(crate) fn sentence(group: &GroupFairness, adjust: Adjust) -> String {
    match group.verdict {
        Verdict::Fair => format!(
            "consistent with fair dice ({}, adjusted by {} for the groups)",
            p_is(group.p_adjusted),
            adjust.name()
        ),
        Verdict::Unfair => format!(
            "unlikely under fair dice: {} (adjusted by {} for the groups; {})",
            p_is(group.p_adjusted),
            adjust.name(),
            strongest_test(group)
        ),
    }
}

/// The test with the smallest p-value, named with its figures.
fn strongest_test(group: &GroupFairness) -> String {
    let candidates = [
        (
            group.faces.p_value,
            format!("face counts: chi-square {}", fixed(group.faces.chi2, 1)),
        ),
        (
            group.sums.p_value,
            format!(
                "sums of the rolls: chi-square {}",
                fixed(group.sums.chi2, 1)
            ),
        ),
        (
            group.five_of_a_kind.p_value,
            format!(
                "five of a kind: {} rolls against {} expected",
                group.five_of_a_kind.observed,
                fixed(group.five_of_a_kind.expected, 1)
            ),
        ),
        (
            group.serial.p_value,
            format!(
                "repeated faces: {} dice against {} expected",
                group.serial.observed,
                fixed(group.serial.expected, 1)
            ),
        ),
    ];
    candidates
        .into_iter()
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, text)| text)
        .unwrap_or_default()
}

/// The text table of the report, then one verdict sentence per group.
pub fn text(report: &DiceReport) -> String {
    let mut out = format!(
        "Fairness of the freshly rolled dice, by {} ({} games; level {}, correction {})\n",
        report.by,
        report.games_used,
        fixed(report.level, 4),
        report.adjust
    );
    let width = report
        .groups
        .iter()
        .map(|g| g.group.chars().count())
        .max()
        .unwrap_or(5)
        .clamp(5, 40);
    let _ = writeln!(
        out,
        "{:<width$}  {:>9} {:>11}  {:>9} {:>8}  {:>8}  {:>16}  {:>8}  {:>8} {:>10}  verdict",
        "group",
        "games",
        "fresh dice",
        "face chi2",
        "face p",
        "sums p",
        "5-kind obs/exp",
        "serial p",
        "p",
        "p adjusted",
    );
    for g in report.groups {
        let _ = writeln!(
            out,
            "{:<width$}  {:>9} {:>11}  {:>9} {:>8}  {:>8}  {:>16}  {:>8}  {:>8} {:>10}  {}",
            g.group,
            g.counts.games,
            g.counts.fresh_dice(),
            fixed(g.faces.chi2, 2),
            p_text(g.faces.p_value),
            p_text(g.sums.p_value),
            format!(
                "{}/{}",
                g.five_of_a_kind.observed,
                fixed(g.five_of_a_kind.expected, 1)
            ),
            p_text(g.serial.p_value),
            p_text(g.p_value),
            p_text(g.p_adjusted),
            g.verdict.name(),
        );
    }
    out.push('\n');
    for g in report.groups {
        let _ = writeln!(out, "{}: {}", g.group, sentence(g, report.adjust));
    }
    out
}

/// The CSV columns, one row per group.
pub(crate) const CSV_COLUMNS: &str =
    "group,games,rolls,fresh_dice,ones,twos,threes,fours,fives,sixes,\
chi2,df,p_faces,sums_chi2,sums_df,p_sums,five_of_a_kind,five_of_a_kind_expected,p_five_of_a_kind,\
serial_dice,serial_repeats,serial_repeats_expected,p_serial,tests,p_value,p_adjusted,adjust,level,\
verdict";

/// The report as CSV: a header (`CSV_COLUMNS`) and one row per group.
pub fn csv(report: &DiceReport) -> String {
    let mut out = String::from(CSV_COLUMNS);
    out.push('\n');
    for g in report.groups {
        let c = &g.counts;
        let faces: Vec<String> = c.faces.iter().map(u64::to_string).collect();
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv_field(&g.group),
            c.games,
            c.rolls,
            c.fresh_dice(),
            faces.join(","),
            fixed(g.faces.chi2, 6),
            g.faces.df,
            g.faces.p_value,
            fixed(g.sums.chi2, 6),
            g.sums.df,
            g.sums.p_value,
            g.five_of_a_kind.observed,
            fixed(g.five_of_a_kind.expected, 6),
            g.five_of_a_kind.p_value,
            c.serial_dice,
            g.serial.observed,
            fixed(g.serial.expected, 6),
            g.serial.p_value,
            g.tests,
            g.p_value,
            g.p_adjusted,
            report.adjust,
            report.level,
            g.verdict.name(),
        );
    }
    out
}

/// A count test as JSON.
fn count_json(test: &CountTest) -> serde_json::Value {
    serde_json::json!({
        "observed": test.observed,
        "expected": test.expected,
        "z": test.z,
        "p_value": test.p_value,
    })
}

/// The report as JSON: an array of one object per group (fields in docs/dice.md).
pub fn json(report: &DiceReport) -> String {
    let groups: Vec<serde_json::Value> = report
        .groups
        .iter()
        .map(|g| {
            let c = &g.counts;
            let by_dice: Vec<serde_json::Value> = g
                .sums_by_dice
                .iter()
                .take(most_fresh_dice(g))
                .enumerate()
                .map(|(i, t)| {
                    let rolls: u64 = c.sums[i].iter().sum();
                    serde_json::json!({
                        "dice": i + 1, "rolls": rolls, "chi2": t.chi2, "df": t.df,
                        "p_value": t.p_value,
                    })
                })
                .collect();
            let mut serial = count_json(&g.serial);
            serial["dice"] = c.serial_dice.into();
            serde_json::json!({
                "group": g.group,
                "games": c.games,
                "rolls": c.rolls,
                "fresh_dice": c.fresh_dice(),
                "faces": c.faces,
                "expected_per_face": c.fresh_dice() as f64 / 6.0,
                "chi2": g.faces.chi2,
                "df": g.faces.df,
                "p_faces": g.faces.p_value,
                "sums": {
                    "chi2": g.sums.chi2, "df": g.sums.df, "p_value": g.sums.p_value,
                    "by_dice": by_dice,
                },
                "five_of_a_kind": count_json(&g.five_of_a_kind),
                "serial": serial,
                "tests": g.tests,
                "p_value": g.p_value,
                "p_adjusted": g.p_adjusted,
                "adjust": report.adjust.name(),
                "level": report.level,
                "verdict": g.verdict.name(),
                "sentence": sentence(g, report.adjust),
            })
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&groups).unwrap_or_else(|_| "[]".into());
    text.push('\n');
    text
}

/// Style rules of the dice page, after the reports' common [`STYLE`].
const DICE_STYLE: &str = "\
td.unfair, p.unfair { color: #b0302a; font-weight: 600; }
td.fair, p.fair { color: #2f7a3d; }
.group h3 { margin: 4px 0 2px; font-size: 17px; }
.group h4 { margin: 14px 0 0; font-size: 15px; }
table.groups { font-size: 13px; }
table.groups th, table.groups td { padding: 4px 5px; }
table.groups th { white-space: normal; vertical-align: bottom; }
table.groups td:first-child { overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; max-width: 100%; }
.group p.verdict { margin: 2px 0 6px; }
svg.chart .band { fill: #d5dbe4; }
svg.chart .expected { stroke: #333a48; stroke-width: 2; fill: none; }
svg.chart .whisker { stroke: #4a5263; stroke-width: 1.5; fill: none; }
";

/// The HTML page: what is tested, the table of every group, and the charts of the first
/// `CHARTED_GROUPS` groups.
pub fn page(report: &DiceReport) -> String {
    let mut out = String::with_capacity(32 * 1024 + report.groups.len() * 24 * 1024);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Dice fairness &middot; dicelens</title>\n<style>\n{STYLE}{DICE_STYLE}</style>\n\
         </head>\n<body>\n<main>\n<header>\n<h1>Are the dice fair?</h1>\n\
         <p>{} games, grouped by {}: {} group{}, {} flagged unfair at level {} ({} correction).</p>\n\
         </header>\n",
        report.games_used,
        escape(report.by.name()),
        report.groups.len(),
        if report.groups.len() == 1 { "" } else { "s" },
        report
            .groups
            .iter()
            .filter(|g| g.verdict == Verdict::Unfair)
            .count(),
        fixed(report.level, 4),
        escape(adjust_name(report.adjust)),
    );
    explanation(&mut out, report);
    table(&mut out, report);
    for (index, group) in report.groups.iter().take(CHARTED_GROUPS).enumerate() {
        group_section(&mut out, index, group, report.adjust);
    }
    if report.groups.len() > CHARTED_GROUPS {
        let _ = writeln!(
            out,
            "<p class=\"note\">Charts are drawn for the first {CHARTED_GROUPS} groups; the \
             table above and dice.csv list all {}.</p>",
            report.groups.len()
        );
    }
    let _ = writeln!(
        out,
        "<footer>dicelens {} &middot; <code>dicelens dice --by {} --out DIR</code></footer>",
        env!("CARGO_PKG_VERSION"),
        escape(report.by.name())
    );
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// The correction's name in words.
fn adjust_name(adjust: Adjust) -> &'static str {
    match adjust {
        Adjust::Holm => "Holm",
        Adjust::BenjaminiHochberg => "Benjamini-Hochberg",
    }
}

/// What is counted and tested, the level and the correction.
fn explanation(out: &mut String, report: &DiceReport) {
    let _ = write!(
        out,
        "<section>\n<h2>What is tested</h2>\n\
         <p>Only <strong>freshly rolled dice</strong> count: each roll minus the dice kept \
         before it, so what players choose to keep cannot bias the counts. For each group four \
         tests compare them with fair, independent dice:</p>\n<ul>\n\
         <li><strong>faces</strong>: the count of each face against 1/6 of the fresh dice \
         (Pearson chi-square, 5 degrees of freedom);</li>\n\
         <li><strong>sums</strong>: the sum of each roll of n fresh dice (n = 1 to 5) against \
         its exact distribution, adjacent sums pooled until each cell expects at least {} \
         rolls (chi-square, degrees of freedom added over n);</li>\n\
         <li><strong>five of a kind</strong>: rolls showing five of a kind against their exact \
         expectation given the dice kept before each roll (two-sided);</li>\n\
         <li><strong>repeated faces</strong>: fresh dice showing a face of the same player's \
         previous roll in the game, against the exact expectation s/6 per die (s = distinct \
         faces of that roll; two-sided normal test).</li>\n</ul>\n\
         <p>A group's p-value is its smallest test p-value times the number of tests \
         (Bonferroni). Across the groups it is adjusted by {} (column <em>p adjusted</em>); \
         a group is <strong>unfair</strong> when the adjusted p-value is below {}. Fair dice \
         tested as a single group are flagged by chance at most {}% of the time: a flag is a \
         reason to look closer, not a proof.</p>\n</section>\n",
        fixed(MIN_EXPECTED, 0),
        escape(adjust_name(report.adjust)),
        fixed(report.level, 4),
        fixed(report.level * 100.0, 1),
    );
}

/// The table of every group: the verdict first, then each test's figures.
fn table(out: &mut String, report: &DiceReport) {
    out.push_str(
        "<section>\n<h2>Groups</h2>\n<div class=\"table-wrap\">\n<table class=\"groups\">\n\
         <thead><tr><th>group</th><th>verdict</th><th class=\"num\">p adjusted</th>\
         <th class=\"num\">p (Bonferroni over the tests)</th><th class=\"num\">games (count)\
         </th><th class=\"num\">fresh dice (count)</th><th class=\"num\">face chi-square \
         (5 df)</th><th class=\"num\">p faces</th><th class=\"num\">p sums</th>\
         <th class=\"num\">five of a kind (rolls: observed / expected)</th>\
         <th class=\"num\">p five of a kind</th><th class=\"num\">repeated faces (dice: \
         observed / expected)</th><th class=\"num\">p repeated</th></tr></thead>\n<tbody>\n",
    );
    for g in report.groups {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"{}\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{} / {}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{} / {}</td><td class=\"num\">{}</td></tr>",
            escape(&g.group),
            g.verdict.name(),
            g.verdict.name(),
            p_text(g.p_adjusted),
            p_text(g.p_value),
            g.counts.games,
            g.counts.fresh_dice(),
            fixed(g.faces.chi2, 2),
            p_text(g.faces.p_value),
            p_text(g.sums.p_value),
            g.five_of_a_kind.observed,
            fixed(g.five_of_a_kind.expected, 1),
            p_text(g.five_of_a_kind.p_value),
            g.serial.observed,
            fixed(g.serial.expected, 1),
            p_text(g.serial.p_value),
        );
    }
    out.push_str("</tbody>\n</table>\n</div>\n</section>\n");
}

/// A group's section: its verdict and its two charts.
fn group_section(out: &mut String, index: usize, group: &GroupFairness, adjust: Adjust) {
    let _ = write!(
        out,
        "<section class=\"group\" id=\"group-{index}\">\n<h3>{}</h3>\n\
         <p class=\"verdict {}\">{}</p>\n",
        escape(&group.group),
        group.verdict.name(),
        escape(&sentence(group, adjust))
    );
    out.push_str("<h4>Face counts of the fresh dice</h4>\n");
    face_chart(out, index, group);
    let most = most_fresh_dice(group);
    let n = &group.sums_by_dice[most - 1];
    let _ = writeln!(
        out,
        "<h4>Sums of the rolls of {word} fresh dice</h4>\n<p class=\"note\">Rolls of 1 to {} \
         fresh dice are tested too (chi-square {} with {} degrees of freedom over all {word}, \
         p = {}); {word} fresh dice alone: chi-square {} with {} degrees of freedom, p = {}.</p>",
        most - 1,
        fixed(group.sums.chi2, 2),
        group.sums.df,
        p_text(group.sums.p_value),
        fixed(n.chi2, 2),
        n.df,
        p_text(n.p_value),
        word = dice_word(most)
    );
    sum_chart(out, index, group);
    out.push_str("</section>\n");
}

/// The legend of a chart at `y`: what the observed marks are, the expected line, the interval
/// (`interval` says how it is drawn) and the colour of counts outside it.
fn chart_legend(out: &mut String, y: f64, observed: &str, interval: (&str, &str)) {
    legend(out, &legend_items(observed, interval), y);
}

/// The entries of [`chart_legend`].
fn legend_items<'a>(observed: &'a str, interval: (&'a str, &'a str)) -> [LegendItem<'a>; 4] {
    [
        LegendItem {
            class: "key-observed",
            color: OBSERVED,
            label: observed,
        },
        LegendItem {
            class: "key-expected",
            color: EXPECTED,
            label: "expected under fair dice",
        },
        LegendItem {
            class: "key-interval",
            color: interval.1,
            label: interval.0,
        },
        LegendItem {
            class: "key-outside",
            color: OUTSIDE,
            label: "observed outside the interval",
        },
    ]
}

/// Top and bottom of the plot area of both charts.
const PLOT_TOP: f64 = 20.0;
const PLOT_BOTTOM: f64 = 250.0;
/// Where the legend of both charts starts (below the x labels and axis title).
const LEGEND_Y: f64 = PLOT_BOTTOM + 62.0;

/// The height of a chart whose legend is of `observed` and `interval`.
fn chart_height(observed: &str, interval: (&str, &str)) -> f64 {
    LEGEND_Y + 22.0 * legend_rows(&legend_items(observed, interval)) as f64 + 4.0
}

/// A value axis covering `low..=high` (not from zero): bottom, top and step.
fn zoomed_axis(low: f64, high: f64) -> (f64, f64, f64) {
    let span = (high - low).max(1.0);
    let (_, step) = nice_axis(span, true);
    let bottom = ((low - span * 0.08) / step).floor() * step;
    let top = ((high + span * 0.08) / step).ceil() * step;
    (bottom.max(0.0), top, step)
}

/// The face chart: per face, the 95% interval of the count under fair dice (band), the
/// expected count (line) and the observed count (bar from the expected count, and a dot).
fn face_chart(out: &mut String, index: usize, group: &GroupFairness) {
    let id = format!("faces-{index}");
    let n = group.counts.fresh_dice() as f64;
    let expected = n / 6.0;
    let half = Z95 * (n * (1.0 / 6.0) * (5.0 / 6.0)).sqrt();
    let observed: Vec<f64> = group.counts.faces.iter().map(|&c| c as f64).collect();
    let low = observed.iter().copied().fold(expected - half, f64::min);
    let high = observed.iter().copied().fold(expected + half, f64::max);
    let (bottom, top, step) = zoomed_axis(low, high);
    let (observed_key, interval_key) = (
        "observed count (bar from the expected)",
        ("95% interval under fair dice (band)", INTERVAL),
    );
    let height = chart_height(observed_key, interval_key);
    svg_open(
        out,
        &id,
        height,
        &format!("Face counts of the fresh dice, {}", group.group),
        &format!(
            "Fresh dice showing each face (count) against {} expected per face under fair dice \
             and its 95% interval ({} to {}).",
            fixed(expected, 1),
            fixed(expected - half, 1),
            fixed(expected + half, 1)
        ),
    );
    plot_background(out, PLOT_TOP, PLOT_BOTTOM);
    let y = Scale {
        d0: bottom,
        d1: top,
        p0: PLOT_BOTTOM,
        p1: PLOT_TOP,
    };
    y_axis_from(
        out,
        y,
        bottom,
        top,
        step,
        "fresh dice (count, axis not from 0)",
    );
    let x = Scale::slots(6.0, LEFT, RIGHT);
    let slot = (RIGHT - LEFT) / 6.0;
    for (face, &count) in observed.iter().enumerate() {
        let cx = x.at(face as f64 + 1.0);
        let band_w = slot * 0.62;
        let _ = writeln!(
            out,
            "<rect class=\"band\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
            px(cx - band_w / 2.0),
            px(y.at(expected + half)),
            px(band_w),
            px((y.at(expected - half) - y.at(expected + half)).max(1.0))
        );
        let outside = (count - expected).abs() > half;
        let color = if outside { OUTSIDE } else { OBSERVED };
        let (y0, y1) = (y.at(expected), y.at(count));
        let bar_w = slot * 0.22;
        let _ = writeln!(
            out,
            "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{color}\">\
             <title>face {}: {} fresh dice, {} expected ({:+.2}%)</title></rect>",
            px(cx - bar_w / 2.0),
            px(y0.min(y1)),
            px(bar_w),
            px((y0 - y1).abs().max(1.0)),
            face + 1,
            count,
            fixed(expected, 1),
            if expected > 0.0 {
                (count / expected - 1.0) * 100.0
            } else {
                0.0
            }
        );
        let _ = writeln!(
            out,
            "<path class=\"expected\" d=\"M{} {}H{}\"/><circle cx=\"{}\" cy=\"{}\" r=\"4.5\" \
             fill=\"{color}\"/>",
            px(cx - band_w / 2.0),
            px(y0),
            px(cx + band_w / 2.0),
            px(cx),
            px(y1)
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            px(cx),
            px(PLOT_BOTTOM + 20.0),
            face + 1
        );
    }
    axes(out, PLOT_TOP, PLOT_BOTTOM);
    axis_title(out, (LEFT + RIGHT) / 2.0, PLOT_BOTTOM + 40.0, "face");
    chart_legend(out, LEGEND_Y, observed_key, interval_key);
    out.push_str("</svg>\n");
}

/// The sum chart: for the rolls of five fresh dice, rolls by sum (bars) against the exact
/// expectation (line) with its 95% interval (whiskers).
fn sum_chart(out: &mut String, index: usize, group: &GroupFairness) {
    let id = format!("sums-{index}");
    let n = most_fresh_dice(group);
    let word = dice_word(n);
    let observed = &group.counts.sums[n - 1][n..=6 * n];
    let rolls: u64 = observed.iter().sum();
    let expected = &expected_sums(n, rolls)[n..=6 * n];
    let p_cell: Vec<f64> = expected
        .iter()
        .map(|e| if rolls > 0 { e / rolls as f64 } else { 0.0 })
        .collect();
    let half: Vec<f64> = p_cell
        .iter()
        .map(|p| Z95 * (rolls as f64 * p * (1.0 - p)).sqrt())
        .collect();
    let high = observed
        .iter()
        .map(|&o| o as f64)
        .chain(expected.iter().zip(&half).map(|(e, h)| e + h))
        .fold(0.0, f64::max);
    let (top, step) = nice_axis(high, true);
    let (observed_key, interval_key) = (
        "observed rolls",
        ("95% interval under fair dice (whiskers)", WHISKER),
    );
    let height = chart_height(observed_key, interval_key);
    let test = &group.sums_by_dice[n - 1];
    svg_open(
        out,
        &id,
        height,
        &format!("Sums of {word} fresh dice, {}", group.group),
        &format!(
            "Rolls of {word} fresh dice by the sum of the dice (count), {rolls} rolls, against \
             the exact expectation under fair dice and its 95% interval; chi-square {} with {} \
             degrees of freedom, p = {}.",
            fixed(test.chi2, 2),
            test.df,
            p_text(test.p_value)
        ),
    );
    plot_background(out, PLOT_TOP, PLOT_BOTTOM);
    let y = Scale::from_zero(top, PLOT_BOTTOM, PLOT_TOP);
    y_axis_from(out, y, 0.0, top, step, "rolls (count)");
    let cells = observed.len() as f64;
    let x = Scale::slots(cells, LEFT, RIGHT);
    let slot = (RIGHT - LEFT) / cells;
    let mut line = String::new();
    for (i, (&o, &e)) in observed.iter().zip(expected).enumerate() {
        let cx = x.at(i as f64 + 1.0);
        let sum = n + i;
        let outside = (o as f64 - e).abs() > half[i];
        let color = if outside { OUTSIDE } else { OBSERVED };
        let _ = writeln!(
            out,
            "<rect class=\"sum-bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
             fill=\"{color}\" fill-opacity=\"0.8\"><title>sum {sum}: {o} rolls, {} expected \
             (95% interval {} to {})</title></rect>",
            px(cx - slot * 0.35),
            px(y.at(o as f64)),
            px(slot * 0.7),
            px(y.at(0.0) - y.at(o as f64)),
            fixed(e, 1),
            fixed(e - half[i], 1),
            fixed(e + half[i], 1)
        );
        let _ = writeln!(
            out,
            "<path class=\"whisker\" d=\"M{x} {}V{}M{} {}H{}M{} {}H{}\"/>",
            px(y.at((e - half[i]).max(0.0))),
            px(y.at(e + half[i])),
            px(cx - 4.0),
            px(y.at((e - half[i]).max(0.0))),
            px(cx + 4.0),
            px(cx - 4.0),
            px(y.at(e + half[i])),
            px(cx + 4.0),
            x = px(cx),
        );
        let _ = write!(
            line,
            "{}{} {}",
            if i == 0 { "M" } else { "L" },
            px(cx),
            px(y.at(e))
        );
        if sum.is_multiple_of(5) || i == 0 {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{sum}</text>",
                px(cx),
                px(PLOT_BOTTOM + 20.0)
            );
        }
    }
    let _ = writeln!(out, "<path class=\"expected\" d=\"{line}\"/>");
    axes(out, PLOT_TOP, PLOT_BOTTOM);
    axis_title(
        out,
        (LEFT + RIGHT) / 2.0,
        PLOT_BOTTOM + 40.0,
        &format!("sum of the {word} fresh dice (pips)"),
    );
    chart_legend(out, LEGEND_Y, observed_key, interval_key);
    out.push_str("</svg>\n");
}
