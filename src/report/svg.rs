//! The SVG toolkit every chart of every report is drawn with: the plot geometry, axes with
//! nice ticks, linear scales, the chart's opening tag with its title and description, and the
//! chart style sheet. Numbers are written with fixed decimals and never NaN, so a chart is a
//! pure function of its data.

use std::fmt::Write;

/// Width of every chart's view box (the charts scale to the page width).
pub const WIDTH: f64 = 960.0;
/// Left edge of the plot area (room for the y ticks and the y-axis title).
pub const LEFT: f64 = 76.0;
/// Right edge of the plot area.
pub const RIGHT: f64 = WIDTH - 20.0;

/// Style rules of the SVG charts: part of [`STYLE`], and embedded in a standalone chart file.
macro_rules! chart_style {
    () => {
        "\
svg.chart { display: block; width: 100%; height: auto; margin: 6px 0; }
svg.chart text { font-family: system-ui, \"DejaVu Sans\", \"Liberation Sans\", sans-serif; font-size: 13px;
  fill: #333a48; }
svg.chart .axis { stroke: #5b6475; stroke-width: 1; fill: none; }
svg.chart .grid { stroke: #e3e6eb; stroke-width: 1; fill: none; }
svg.chart .plot-bg { fill: #fbfbfc; }
svg.chart text.axis-title { font-size: 13.5px; font-weight: 600; }
svg.chart text.value { font-size: 12px; }
svg.chart text.no-data { font-size: 16px; fill: #7a8293; }
"
    };
}

/// Style rules of the SVG charts (for a chart written as its own file).
pub const CHART_STYLE: &str = chart_style!();

/// Text escaped for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A finite number (0 for NaN and infinities), so no chart coordinate is ever NaN.
pub fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// `x` with `decimals` fixed decimals, `0` for a non-finite value.
pub fn fixed(x: f64, decimals: usize) -> String {
    format!("{:.*}", decimals, finite(x))
}

/// A chart coordinate (one decimal).
pub fn px(x: f64) -> String {
    fixed(x, 1)
}

/// A nice axis for values in `0..=max`: the axis top and the tick step (steps of 1, 2, 2.5 or 5
/// times a power of ten, about five ticks; whole numbers only if `integer`).
pub fn nice_axis(max: f64, integer: bool) -> (f64, f64) {
    if !(max.is_finite() && max > 0.0) {
        return if integer { (5.0, 1.0) } else { (1.0, 0.2) };
    }
    let raw = max / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let multiples: &[f64] = if integer && magnitude < 10.0 {
        &[1.0, 2.0, 5.0, 10.0]
    } else {
        &[1.0, 2.0, 2.5, 5.0, 10.0]
    };
    let mut step = multiples
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    if integer {
        step = step.max(1.0).round();
    }
    ((max / step).ceil() * step, step)
}

/// Decimals needed to write multiples of `step` exactly (at most 6).
pub fn step_decimals(step: f64) -> usize {
    (0..6)
        .find(|&d| {
            let scaled = step * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(6)
}

/// A linear map from the data interval `d0..d1` to the pixel interval `p0..p1`.
#[derive(Clone, Copy)]
pub struct Scale {
    /// The data value drawn at `p0`.
    pub d0: f64,
    /// The data value drawn at `p1`.
    pub d1: f64,
    /// The pixel of `d0`.
    pub p0: f64,
    /// The pixel of `d1`.
    pub p1: f64,
}

impl Scale {
    /// `n` slots (1..=n, each centred on its number) across pixels `p0..p1`.
    pub fn slots(n: f64, p0: f64, p1: f64) -> Scale {
        Scale {
            d0: 0.5,
            d1: n + 0.5,
            p0,
            p1,
        }
    }

    /// Values from 0 to `top` across pixels `p0..p1`.
    pub fn from_zero(top: f64, p0: f64, p1: f64) -> Scale {
        Scale {
            d0: 0.0,
            d1: top,
            p0,
            p1,
        }
    }

    /// The pixel of a data value (always finite).
    pub fn at(&self, v: f64) -> f64 {
        let span = self.d1 - self.d0;
        let t = if span.is_finite() && span > 0.0 {
            (finite(v) - self.d0) / span
        } else {
            0.0
        };
        finite(self.p0 + t * (self.p1 - self.p0))
    }
}

/// Opens a chart: `<svg>` with id, class, size, `<title>`, `<desc>` and the ARIA labels.
pub fn svg_open(out: &mut String, id: &str, height: f64, title: &str, desc: &str) {
    let _ = writeln!(
        out,
        "<svg id=\"{id}\" class=\"chart {id}\" xmlns=\"http://www.w3.org/2000/svg\" \
         viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" \
         aria-labelledby=\"{id}-title {id}-desc\">",
        px(WIDTH),
        px(height),
        px(WIDTH),
        px(height)
    );
    let _ = writeln!(out, "<title id=\"{id}-title\">{}</title>", escape(title));
    let _ = writeln!(out, "<desc id=\"{id}-desc\">{}</desc>", escape(desc));
}

/// Horizontal grid lines, y ticks and their labels for a value axis `0..=top` by `step`.
pub fn y_axis(out: &mut String, y: Scale, top: f64, step: f64, title: &str) {
    y_axis_from(out, y, 0.0, top, step, title);
}

/// Horizontal grid lines, y ticks and their labels for a value axis `bottom..=top` by `step`
/// (`bottom` a multiple of `step`).
pub fn y_axis_from(out: &mut String, y: Scale, bottom: f64, top: f64, step: f64, title: &str) {
    // Large values are labelled in thousands or millions (the title says so), so that the
    // labels stay short; the title is moved left of the longest label.
    let (divisor, in_units) = label_scale(bottom.abs().max(top.abs()), step);
    let decimals = step_decimals(step / divisor);
    let title = match in_units {
        Some(units) => format!("{title}, in {units}"),
        None => title.to_string(),
    };
    let ticks = ((top - bottom) / step).round().max(0.0) as usize;
    let labels: Vec<(f64, String)> = (0..=ticks)
        .map(|i| {
            let v = bottom + step * i as f64;
            (v, fixed(v / divisor, decimals))
        })
        .collect();
    out.push_str("<g class=\"y-axis\">\n");
    for (v, label) in &labels {
        let py = px(y.at(*v));
        let _ = writeln!(
            out,
            "<path class=\"grid\" d=\"M{} {py}H{}\"/><text x=\"{}\" y=\"{py}\" dy=\"4\" \
             text-anchor=\"end\">{label}</text>",
            px(LEFT),
            px(RIGHT),
            px(LEFT - 8.0),
        );
    }
    let longest = labels.iter().map(|(_, l)| l.len()).max().unwrap_or(0);
    let x = fixed(title_x(longest), 0);
    let mid = px((y.p0 + y.p1) / 2.0);
    let _ = writeln!(
        out,
        "<text class=\"axis-title\" x=\"{x}\" y=\"{mid}\" text-anchor=\"middle\" \
         transform=\"rotate(-90 {x} {mid})\">{}</text>",
        escape(&title)
    );
    out.push_str("</g>\n");
}

/// Width of a character of a tick label (13px digits), with some room.
const LABEL_CHAR_WIDTH: f64 = 8.0;

/// Where the y axis's title (turned upright, about 18px wide) is centred when its longest tick
/// label has `chars` characters: at x 18, or left of the label when it is longer.
fn title_x(chars: usize) -> f64 {
    let label_left = LEFT - 8.0 - LABEL_CHAR_WIDTH * chars as f64;
    (label_left - 10.0).clamp(9.0, 18.0).floor()
}

/// How a value axis reaching `most` (its largest magnitude) by `step` is labelled: the divisor
/// of its values and the units it names. As they stand below 10,000 or when the labels have at
/// most five characters, else in the thousands, millions or billions whose labels are
/// shortest.
fn label_scale(most: f64, step: f64) -> (f64, Option<&'static str>) {
    let length = |divisor: f64| {
        // A step below a thousandth of the unit needs more decimals than a label has room
        // for (and `step_decimals` would take it for 0).
        if step / divisor < 1e-3 {
            return usize::MAX;
        }
        let digits = format!("{:.0}", (most / divisor).floor()).len();
        match step_decimals(step / divisor) {
            0 => digits,
            d => digits + 1 + d,
        }
    };
    let scales = [
        (1.0, None),
        (1_000.0, Some("thousands")),
        (1_000_000.0, Some("millions")),
        (1_000_000_000.0, Some("billions")),
    ];
    if most < 10_000.0 || length(1.0) <= 5 {
        return scales[0];
    }
    scales
        .into_iter()
        .skip(1)
        .min_by_key(|&(divisor, _)| length(divisor))
        .unwrap_or(scales[0])
}

/// The axis lines of a plot area.
pub fn axes(out: &mut String, top: f64, bottom: f64) {
    axes_between(out, LEFT, RIGHT, top, bottom);
}

/// The axis lines of a plot area from `left` to `right` (a chart laid out otherwise).
pub fn axes_between(out: &mut String, left: f64, right: f64, top: f64, bottom: f64) {
    let _ = writeln!(
        out,
        "<path class=\"axis\" d=\"M{l} {t}V{b}H{r}\"/>",
        l = px(left),
        t = px(top),
        b = px(bottom),
        r = px(right)
    );
}

/// An axis title centred at (`x`, `y`): the x axis's, below its labels.
pub fn axis_title(out: &mut String, x: f64, y: f64, title: &str) {
    let _ = writeln!(
        out,
        "<text class=\"axis-title\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        px(x),
        px(y),
        escape(title)
    );
}

/// The plot area's background.
pub fn plot_background(out: &mut String, top: f64, bottom: f64) {
    plot_background_between(out, LEFT, RIGHT, top, bottom);
}

/// The background of a plot area from `left` to `right` (a chart laid out otherwise).
pub fn plot_background_between(out: &mut String, left: f64, right: f64, top: f64, bottom: f64) {
    let _ = writeln!(
        out,
        "<rect class=\"plot-bg\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
        px(left),
        px(top),
        px(right - left),
        px(bottom - top)
    );
}

/// Vertical grid lines and x tick labels (under `bottom`) of a horizontal value axis
/// `0..=x_top` by `step` (horizontal bar charts).
pub fn x_value_axis(out: &mut String, x: Scale, x_top: f64, step: f64, top: f64, bottom: f64) {
    let decimals = step_decimals(step);
    let ticks = (x_top / step).round() as usize;
    for i in 0..=ticks {
        let v = step * i as f64;
        let tx = px(x.at(v));
        let _ = writeln!(
            out,
            "<path class=\"grid\" d=\"M{tx} {}V{}\"/><text x=\"{tx}\" y=\"{}\" \
             text-anchor=\"middle\">{}</text>",
            px(top),
            px(bottom),
            px(bottom + 20.0),
            fixed(v, decimals)
        );
    }
}

/// "No data" written across an empty plot area.
pub fn no_data(out: &mut String, top: f64, bottom: f64, text: &str) {
    no_data_between(out, LEFT, RIGHT, top, bottom, text);
}

/// "No data" written across an empty plot area from `left` to `right`.
pub fn no_data_between(out: &mut String, left: f64, right: f64, top: f64, bottom: f64, text: &str) {
    let _ = writeln!(
        out,
        "<text class=\"no-data\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        px((left + right) / 2.0),
        px((top + bottom) / 2.0),
        escape(text)
    );
}

/// One entry of a chart's legend: the class of its group, its color, its text.
pub struct LegendItem<'a> {
    /// Class name of the legend entry (`player`, `population`...).
    pub class: &'a str,
    /// Swatch color.
    pub color: &'a str,
    /// Text.
    pub label: &'a str,
}

/// Width the legend gives one entry (swatch, gap, text at about 7.3 pixels a character).
fn legend_width(item: &LegendItem) -> f64 {
    38.0 + 7.3 * item.label.chars().count() as f64
}

/// The rows a legend of `items` takes from `LEFT` to `RIGHT`.
pub fn legend_rows(items: &[LegendItem]) -> usize {
    let mut rows = 1;
    let mut x = LEFT;
    for item in items {
        let w = legend_width(item);
        if x > LEFT && x + w > RIGHT {
            rows += 1;
            x = LEFT;
        }
        x += w;
    }
    rows
}

/// A legend of square swatches from `LEFT`, its first row centred on `y`, rows 22 pixels
/// apart (see [`legend_rows`]).
pub fn legend(out: &mut String, items: &[LegendItem], y: f64) {
    out.push_str("<g class=\"legend\">\n");
    let (mut x, mut y) = (LEFT, y);
    for item in items {
        let w = legend_width(item);
        if x > LEFT && x + w > RIGHT {
            x = LEFT;
            y += 22.0;
        }
        let _ = writeln!(
            out,
            "<g class=\"legend-item {}\"><rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" \
             fill=\"{}\"/><text x=\"{}\" y=\"{}\" dy=\"4\">{}</text></g>",
            item.class,
            px(x),
            px(y - 7.0),
            item.color,
            px(x + 20.0),
            px(y),
            escape(item.label)
        );
        x += w;
    }
    out.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tick labels stay short: large values are labelled in thousands or millions, and the
    /// title is left of the longest label.
    #[test]
    fn y_labels_are_short_and_clear_of_the_title() {
        assert_eq!(label_scale(9_999.0, 1.0), (1.0, None));
        assert_eq!(label_scale(0.25, 0.05), (1.0, None));
        assert_eq!(label_scale(0.004, 0.0001), (1.0, None));
        assert_eq!(label_scale(125_000.0, 500.0), (1_000.0, Some("thousands")));
        assert_eq!(
            label_scale(2_400_000.0, 200_000.0),
            (1_000_000.0, Some("millions"))
        );
        let mut out = String::new();
        let y = Scale {
            d0: 124_000.0,
            d1: 125_000.0,
            p0: 250.0,
            p1: 20.0,
        };
        y_axis_from(&mut out, y, 124_000.0, 125_000.0, 500.0, "dice (count)");
        assert!(out.contains(">124.5</text>"), "{out}");
        assert!(out.contains(">dice (count), in thousands</text>"), "{out}");
        assert_eq!(title_x(5), 18.0);
        assert!(title_x(6) < 18.0);
        assert!(title_x(6) + 9.0 <= LEFT - 8.0 - 6.0 * LABEL_CHAR_WIDTH);
    }
}
