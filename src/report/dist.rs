//! The output of `dicelens dist`: a sheet's final-score distribution, `P(final >= x)` for every
//! total `x` (the largest probability over strategies, one strategy per `x`; docs/methods.md
//! section 3), as a summary with a table, as CSV, and as a self-contained SVG chart.
//!
//! Every output is a pure function of the distribution and the heading: numbers are written
//! with fixed decimals, so the same sheet gives the same bytes.

use super::svg::{
    axes, axis_title, escape, fixed, nice_axis, plot_background, px, svg_open, y_axis, Scale,
    CHART_STYLE, LEFT, RIGHT,
};
use crate::solve::distribution::FinalDist;
use std::fmt::Write;

/// The probability thresholds of the summary's targets.
const TARGETS: [f64; 4] = [0.9, 0.5, 0.1, 0.01];

/// Most rows of the summary's table.
const MAX_ROWS: i64 = 40;

/// Steps of the summary's table, in points (the least that keeps it within [`MAX_ROWS`]).
const STEPS: [i64; 10] = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500];

/// `total,p_at_least`, one row per total from the greatest with `P = 1` through the greatest
/// with `P > 0`, nine decimals.
pub fn csv(d: &FinalDist) -> String {
    let mut out = String::from("total,p_at_least\n");
    for (total, p) in d.rows() {
        let _ = writeln!(out, "{total},{p:.9}");
    }
    out
}

/// The least step of [`STEPS`] that lists the totals `lo..=hi` in at most [`MAX_ROWS`] rows.
fn table_step(lo: i64, hi: i64) -> i64 {
    STEPS
        .into_iter()
        .find(|&s| multiples(lo, hi, s).count() as i64 <= MAX_ROWS)
        .unwrap_or(STEPS[STEPS.len() - 1])
}

/// The multiples of `step` (positive) in `lo..=hi`.
fn multiples(lo: i64, hi: i64, step: i64) -> impl Iterator<Item = i64> {
    let first = lo + (step - lo.rem_euclid(step)) % step;
    (first..=hi).step_by(step.max(1) as usize)
}

/// The summary for people: the range, the mean, the targets and a table of `P(final >= x)`.
pub fn summary(d: &FinalDist, heading: &str) -> String {
    let (lo, hi) = (d.first() + 1, d.last());
    let mut out = String::new();
    let _ = writeln!(out, "{heading}");
    if lo > hi {
        let _ = writeln!(
            out,
            "every box is filled: the final score is {} (P(final >= x) = 1 up to it, 0 beyond)",
            d.points
        );
        return out;
    }
    let _ = writeln!(
        out,
        "P(final >= x): the largest probability, over strategies, of finishing with at least x points"
    );
    let _ = writeln!(out, "least total with P < 1: {lo}");
    let _ = writeln!(out, "greatest total with P > 0: {hi}");
    let _ = writeln!(
        out,
        "mean, sum over x of P: {:.4} (above the optimal expected score: each x has its own \
         best strategy; docs/methods.md section 3)",
        d.mean()
    );
    for p in TARGETS {
        let _ = writeln!(out, "largest total with P >= {p}: {}", d.target(p));
    }
    let step = table_step(lo, hi);
    let s = if step == 1 { "" } else { "s" };
    let _ = writeln!(
        out,
        "{:>6}  {:>13}  (every {step} point{s})",
        "x", "P(final >= x)"
    );
    for total in multiples(lo, hi, step) {
        let _ = writeln!(out, "{total:>6}  {:>13.6}", d.at_least(total));
    }
    out
}

/// Top of the chart's plot area (room for the visible title above it).
const PLOT_TOP: f64 = 48.0;
/// Bottom of the chart's plot area (the x axis).
const PLOT_BOTTOM: f64 = 340.0;

/// Color of the distribution's line.
const LINE_COLOR: &str = "#1f6fb4";

/// Least width of the chart's x axis, in points.
const MIN_SPAN: i64 = 10;

/// The chart as a self-contained SVG document: `P(final >= x)` as a step line against the
/// total `x`, from the greatest total with `P = 1` to one past the greatest with `P > 0`
/// (widened to `MIN_SPAN` points around them when they are closer).
pub fn svg_chart(d: &FinalDist, heading: &str) -> String {
    let (first, last) = (d.first(), d.last());
    let pad = (MIN_SPAN - (last + 1 - first)).max(0);
    let (start, end) = (first - pad / 2, last + 1 + (pad + 1) / 2);
    let x = Scale {
        d0: start as f64,
        d1: end as f64,
        p0: LEFT,
        p1: RIGHT,
    };
    let y = Scale::from_zero(1.0, PLOT_BOTTOM, PLOT_TOP);
    let title = format!("P(final score \u{2265} x), best strategy for each x \u{2014} {heading}");
    let desc = format!(
        "Largest probability of finishing with at least x points, for x from {first} (P = 1) \
         to {last} (P = {}), 0 beyond; P \u{2265} 0.5 up to {}; mean of the probabilities {}.",
        fixed(d.at_least(last), 6),
        d.target(0.5),
        fixed(d.mean(), 4)
    );
    let mut out = String::new();
    svg_open(&mut out, "dist-chart", PLOT_BOTTOM + 56.0, &title, &desc);
    let _ = writeln!(out, "<style>\n{CHART_STYLE}</style>");
    let _ = writeln!(
        out,
        "<text class=\"axis-title\" x=\"{}\" y=\"26\" text-anchor=\"middle\">{}</text>",
        px((LEFT + RIGHT) / 2.0),
        escape(&title)
    );
    plot_background(&mut out, PLOT_TOP, PLOT_BOTTOM);
    y_axis(&mut out, y, 1.0, 0.2, "P(final score \u{2265} x)");
    x_axis(&mut out, x, start, end);
    axes(&mut out, PLOT_TOP, PLOT_BOTTOM);
    // P(final >= x) for a real x is P at the next whole total: the line drops at each total.
    let mut path = format!("M{} {}", px(x.at(start as f64)), px(y.at(1.0)));
    let mut height = 1.0;
    for total in start + 1..=end {
        let p = d.at_least(total);
        if p != height {
            let _ = write!(path, "V{}", px(y.at(p)));
            height = p;
        }
        let _ = write!(path, "H{}", px(x.at(total as f64)));
    }
    let _ = writeln!(
        out,
        "<path class=\"dist\" d=\"{path}\" fill=\"none\" stroke=\"{LINE_COLOR}\" \
         stroke-width=\"2.5\" stroke-linejoin=\"round\"><title>{}</title></path>",
        escape(&desc)
    );
    for p in TARGETS {
        let total = d.target(p);
        let _ = writeln!(
            out,
            "<circle class=\"target\" cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{LINE_COLOR}\">\
             <title>largest total with P \u{2265} {p}: {total} (P = {})</title></circle>",
            px(x.at(total as f64)),
            px(y.at(d.at_least(total))),
            fixed(d.at_least(total), 6)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Ticks, labels and title of the chart's x axis (whole totals, about five ticks).
fn x_axis(out: &mut String, x: Scale, start: i64, end: i64) {
    let step = (nice_axis((end - start) as f64, true).1 as i64).max(1);
    out.push_str("<g class=\"x-axis\">\n");
    for total in multiples(start, end, step) {
        let _ = writeln!(
            out,
            "<path class=\"axis\" d=\"M{x} {b}v5\"/><text x=\"{x}\" y=\"{}\" \
             text-anchor=\"middle\">{total}</text>",
            px(PLOT_BOTTOM + 20.0),
            x = px(x.at(total as f64)),
            b = px(PLOT_BOTTOM)
        );
    }
    axis_title(
        out,
        (LEFT + RIGHT) / 2.0,
        PLOT_BOTTOM + 42.0,
        "final score x (points)",
    );
    out.push_str("</g>\n");
}
