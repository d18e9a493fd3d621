//! The output of `dicelens dist`: a sheet's final-score distribution, `P(final >= x)` for every
//! total `x` (the largest probability over strategies, one strategy per `x`; docs/methods.md
//! section 3), as a summary with a table, as CSV, and as a self-contained SVG chart.
//!
//! Every output is a pure function of the distribution and the heading: numbers are written
//! with fixed decimals (probabilities below 0.001 in scientific notation with fixed
//! significant digits, `probability_text`), so the same sheet gives the same bytes.

use super::svg::{
    axes, axis_title, escape, fixed, nice_axis, plot_background, px, svg_open, y_axis, Scale,
    CHART_STYLE, LEFT, RIGHT,
};
use crate::solve::distribution::FinalDist;
use std::fmt::Write;

/// The probability thresholds of the summary's targets.
const TARGETS: [f64; 4] = [0.9, 0.5, 0.1, 0.01];

/// The thresholds of the summary's targets in the tail (marked on the logarithmic chart).
const TAIL_TARGETS: [(f64, &str); 3] = [(1e-4, "1e-4"), (1e-8, "1e-8"), (1e-12, "1e-12")];

/// Probabilities from this up are written with fixed decimals, smaller ones in scientific
/// notation.
const FIXED_FROM: f64 = 1e-3;

/// A probability for people and files: `decimals` decimals from 0.001 up, scientific notation
/// with `decimals - 2` decimals below (`1.0092e-5` for six), `0` for zero.
pub(crate) fn probability_text(p: f64, decimals: usize) -> String {
    if p >= FIXED_FROM || p <= 0.0 || !p.is_finite() {
        fixed(p, decimals)
    } else {
        format!("{:.*e}", decimals.saturating_sub(2), p)
    }
}

/// Most rows of the summary's table.
const MAX_ROWS: i64 = 40;

/// Steps of the summary's table, in points (the least that keeps it within [`MAX_ROWS`]).
const STEPS: [i64; 10] = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500];

/// `total,p_at_least,p_below`, one row per total from the greatest with `P = 1` through the
/// greatest with `P > 0`: `P` with nine decimals (eight significant digits below 0.001), and
/// `1 - P` in scientific notation with seven significant digits (it keeps the digits `P` loses
/// near 1).
pub fn csv(d: &FinalDist) -> String {
    let mut out = String::from("total,p_at_least,p_below\n");
    for (total, p) in d.rows() {
        let _ = writeln!(
            out,
            "{total},{},{:.6e}",
            probability_text(p, 9),
            d.complement_at(total)
        );
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
    for (p, label) in TAIL_TARGETS {
        let _ = writeln!(out, "largest total with P >= {label}: {}", d.target(p));
    }
    let step = table_step(lo, hi);
    let s = if step == 1 { "" } else { "s" };
    let _ = writeln!(
        out,
        "{:>6}  {:>13}  (every {step} point{s})",
        "x", "P(final >= x)"
    );
    for total in multiples(lo, hi, step) {
        let _ = writeln!(
            out,
            "{total:>6}  {:>13}",
            probability_text(d.at_least(total), 6)
        );
    }
    out
}

/// Top of the chart's plot area (room for the visible title above it).
const PLOT_TOP: f64 = 48.0;
/// Bottom of the chart's plot area (the x axis).
const PLOT_BOTTOM: f64 = 340.0;
/// Height of each chart (plot area, axis labels and titles).
const CHART_HEIGHT: f64 = PLOT_BOTTOM + 56.0;

/// Color of the distribution's line.
const LINE_COLOR: &str = "#1f6fb4";

/// Least width of the chart's x axis, in points.
const MIN_SPAN: i64 = 10;

/// The linear chart runs to the largest total with at least this probability (the tail beyond
/// is flat at this scale; the logarithmic chart shows it).
const LINEAR_FLOOR: f64 = 1e-4;

/// Most decade labels on the logarithmic axis.
const MAX_DECADE_LABELS: i64 = 12;

/// The charts as one self-contained SVG document: `P(final >= x)` as a step line against the
/// total `x` on a linear scale (`dist-chart`), from the greatest total with `P = 1` to the
/// largest with `P >= 1e-4` (widened to `MIN_SPAN` points around them when they are closer),
/// and below it the tail on a logarithmic scale (`dist-tail`, `tail_chart`).
pub fn svg_chart(d: &FinalDist, heading: &str) -> String {
    let (first, last) = (d.first(), d.last());
    let shown = d.target(LINEAR_FLOOR).max(first);
    let pad = (MIN_SPAN - (shown + 1 - first)).max(0);
    let (start, end) = (first - pad / 2, shown + 1 + (pad + 1) / 2);
    let x = Scale {
        d0: start as f64,
        d1: end as f64,
        p0: LEFT,
        p1: RIGHT,
    };
    let y = Scale::from_zero(1.0, PLOT_BOTTOM, PLOT_TOP);
    let title = format!("P(final score \u{2265} x), best strategy for each x \u{2014} {heading}");
    let beyond = if shown < last {
        format!(
            " (P = {} at {shown}; the logarithmic chart below follows the tail to {last})",
            probability_text(d.at_least(shown), 6)
        )
    } else {
        format!(" (P = {}), 0 beyond", probability_text(d.at_least(last), 6))
    };
    let desc = format!(
        "Largest probability of finishing with at least x points, for x from {first} (P = 1) \
         to {shown}{beyond}; P \u{2265} 0.5 up to {}; mean of the probabilities {}.",
        d.target(0.5),
        fixed(d.mean(), 4)
    );
    let mut out = String::new();
    svg_open(&mut out, "dist-chart", 2.0 * CHART_HEIGHT, &title, &desc);
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
    tail_chart(&mut out, d, heading, CHART_HEIGHT);
    out.push_str("</svg>\n");
    out
}

/// The tail on a logarithmic scale, as an `<svg>` (`dist-tail`) nested at height `top` of the
/// document: `log10 P(final >= x)` from the median (the largest total with `P >= 0.5`) to the
/// greatest total with `P > 0`, decades labelled from 1 down to the least probability shown,
/// the tail targets marked.
pub(crate) fn tail_chart(out: &mut String, d: &FinalDist, heading: &str, top: f64) {
    let (median, last) = (d.target(0.5), d.last());
    let pad = (MIN_SPAN - (last + 1 - median)).max(0);
    let (start, end) = (median - pad / 2, last + 1 + (pad + 1) / 2);
    let least = (median..=last)
        .map(|t| d.at_least(t))
        .filter(|&p| p > 0.0)
        .fold(1.0, f64::min);
    let decades = (-least.log10()).ceil().max(1.0) as i64;
    let label_step = [1, 2, 3, 4, 5, 10, 20]
        .into_iter()
        .find(|s| decades.div_euclid(*s) <= MAX_DECADE_LABELS)
        .unwrap_or(50);
    let bottom_decade = -(decades + (label_step - decades % label_step) % label_step);
    let x = Scale {
        d0: start as f64,
        d1: end as f64,
        p0: LEFT,
        p1: RIGHT,
    };
    let y = Scale {
        d0: bottom_decade as f64,
        d1: 0.0,
        p0: PLOT_BOTTOM,
        p1: PLOT_TOP,
    };
    let title =
        format!("The tail: P(final score \u{2265} x) on a logarithmic scale \u{2014} {heading}");
    let desc = format!(
        "log10 of the largest probability of finishing with at least x points, for x from the \
         median {median} to the greatest reachable total {last} (P = {}), 0 beyond; one grid \
         line per decade; dots mark the largest totals with P \u{2265} 1e-4, 1e-8 and 1e-12.",
        probability_text(d.at_least(last), 6)
    );
    let _ = writeln!(
        out,
        "<svg id=\"dist-tail\" class=\"dist-tail\" x=\"0\" y=\"{}\" width=\"{}\" \
         height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" \
         aria-labelledby=\"dist-tail-title dist-tail-desc\">",
        px(top),
        px(RIGHT + 20.0),
        px(CHART_HEIGHT),
        px(RIGHT + 20.0),
        px(CHART_HEIGHT)
    );
    let _ = writeln!(
        out,
        "<title id=\"dist-tail-title\">{}</title>",
        escape(&title)
    );
    let _ = writeln!(out, "<desc id=\"dist-tail-desc\">{}</desc>", escape(&desc));
    // The visible title leaves the sheet to the chart above (a long heading would not fit).
    let _ = writeln!(
        out,
        "<text class=\"axis-title\" x=\"{}\" y=\"26\" text-anchor=\"middle\">The tail: \
         P(final score \u{2265} x) on a logarithmic scale, from the median {median} to the \
         greatest reachable total {last}</text>",
        px((LEFT + RIGHT) / 2.0)
    );
    plot_background(out, PLOT_TOP, PLOT_BOTTOM);
    out.push_str("<g class=\"y-axis\">\n");
    for decade in bottom_decade..=0 {
        let py = px(y.at(decade as f64));
        let _ = writeln!(
            out,
            "<path class=\"grid\" d=\"M{} {py}H{}\"/>",
            px(LEFT),
            px(RIGHT)
        );
        if decade % label_step == 0 {
            let label = if decade == 0 {
                "1".to_string()
            } else {
                format!("1e{decade}")
            };
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{py}\" dy=\"4\" text-anchor=\"end\">{label}</text>",
                px(LEFT - 8.0)
            );
        }
    }
    let mid = px((PLOT_TOP + PLOT_BOTTOM) / 2.0);
    let _ = writeln!(
        out,
        "<text class=\"axis-title\" x=\"18\" y=\"{mid}\" text-anchor=\"middle\" \
         transform=\"rotate(-90 18 {mid})\">P(final score \u{2265} x), log scale</text>"
    );
    out.push_str("</g>\n");
    x_axis(out, x, start, end);
    axes(out, PLOT_TOP, PLOT_BOTTOM);
    let level = |p: f64| px(y.at(p.log10().max(bottom_decade as f64)));
    let mut path = format!("M{} {}", px(x.at(start as f64)), level(d.at_least(start)));
    let mut height = d.at_least(start);
    for total in start + 1..=end {
        let p = d.at_least(total);
        if p != height {
            let _ = write!(path, "V{}", level(p));
            height = p;
        }
        let _ = write!(path, "H{}", px(x.at(total as f64)));
    }
    let _ = writeln!(
        out,
        "<path class=\"dist-tail-line\" d=\"{path}\" fill=\"none\" stroke=\"{LINE_COLOR}\" \
         stroke-width=\"2\" stroke-linejoin=\"round\"><title>{}</title></path>",
        escape(&desc)
    );
    for (p, label) in TAIL_TARGETS {
        let total = d.target(p);
        if total < median || d.at_least(total) < p {
            continue;
        }
        let _ = writeln!(
            out,
            "<circle class=\"target\" cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{LINE_COLOR}\">\
             <title>largest total with P \u{2265} {label}: {total} (P = {})</title></circle>",
            px(x.at(total as f64)),
            level(d.at_least(total)),
            probability_text(d.at_least(total), 6)
        );
    }
    out.push_str("</svg>\n");
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
