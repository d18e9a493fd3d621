//! `report.html`: an analysis as one self-contained HTML5 page (inline CSS and hand-written
//! SVG, no script, no external resource): the corpus summary with skip reasons, the per-round
//! difficulty chart, the error distribution, the error by decision kind and the leaderboard.
//!
//! The page is a pure function of its inputs (no date, no randomness) and every number is
//! written with fixed decimals, so the same analysis gives the same bytes. Every chart is an
//! `<svg>` with a stable id (`round-chart`, `error-distribution`, `kind-chart`), a `<title>`
//! and a `<desc>`; an analysis without games still gives a valid page with empty charts.

use super::svg::{
    axes, axes_between, axis_title, escape, finite, fixed, nice_axis, no_data, no_data_between,
    plot_background, px, step_decimals, svg_open, y_axis, Scale, LEFT, RIGHT,
};
use super::{Ranked, Unit};
use crate::aggregate::{Aggregates, Tally, KINDS};
use crate::corpus::Summary;
use crate::rate::Class;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Colors of the per-seat-count series, by order of appearance.
const SEAT_COLORS: [&str; 6] = [
    "#1f6fb4", "#2e9d4a", "#8a5cc2", "#8c564b", "#149fb0", "#6b6b6b",
];
/// Color of the best players' series.
const BEST_COLOR: &str = "#d1362f";
/// Colors of the decision classes: fine, doubtful, error, blunder.
const CLASS_COLORS: [&str; 4] = ["#4f9d5b", "#d9b53c", "#e58a2e", "#c9403a"];
/// Names of the decision classes.
const CLASS_NAMES: [&str; 4] = ["fine", "doubtful", "error", "blunder"];

/// Buckets of the error distribution: label, exclusive upper bound in micro-points, and the
/// decision class (with the default thresholds) whose color the bar gets. Each bucket holds
/// its lower bound, as the classes do (an error of exactly 1 point is an error, not doubtful).
const BUCKETS: [(&str, u64, usize); 7] = [
    ("0", 1, 0),
    ("0 \u{2013} 0.001", 1_000, 0),
    ("0.001 \u{2013} 0.01", 10_000, 0),
    ("0.01 \u{2013} 0.1", 100_000, 1),
    ("0.1 \u{2013} 1", 1_000_000, 1),
    ("1 \u{2013} 5", 5_000_000, 2),
    ("5 and more", u64::MAX, 3),
];

/// The whole report: one HTML5 document. `board` is the leaderboard (players with at least
/// `min_games` games, ranked), of which the first `top` are listed and the best tenth (at
/// least one player) make the "best players" series of the round chart; `oracle` names what
/// rated the decisions, `unit` what its errors are in.
pub fn report_html(
    aggregates: &Aggregates,
    board: &[Ranked],
    summary: &Summary,
    oracle: &str,
    unit: Unit,
    min_games: u64,
    top: usize,
) -> String {
    let best = best_players(board);
    let mut out = String::with_capacity(64 * 1024);
    out.push_str(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>dicelens analysis report</title>\n<style>\n",
    );
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n<main>\n");
    header(&mut out, aggregates, oracle);
    corpus_section(&mut out, aggregates, summary);
    if aggregates.games == 0 {
        out.push_str(
            "<p class=\"empty\" id=\"nothing\">No games were rated: there is nothing to show. \
             The charts below are empty.</p>\n",
        );
    }

    out.push_str("<section id=\"rounds\">\n<h2>Difficulty by round</h2>\n");
    let _ = writeln!(
        out,
        "<p class=\"note\">Mean error per decision ({} lost against optimal play) at each \
         turn of the game, one line per number of seats: the turns of a round are placed side \
         by side within it, in seat order. The red dashed line is the best players' mean error \
         per decision in each round.</p>",
        unit.name()
    );
    out.push_str(&round_chart(aggregates, &best, unit));
    let _ = writeln!(out, "<p class=\"note\">{}</p>", best_caption(board, &best));
    out.push_str("</section>\n");

    out.push_str("<section id=\"distribution\">\n<h2>Error distribution</h2>\n");
    let _ = writeln!(
        out,
        "<p class=\"note\">Decisions by error ({}), in buckets growing tenfold; the colors are \
         the decision classes (fine, doubtful, error, blunder). An error of 0 has its own bar; \
         every other bucket holds its lower bound but not its upper one. Errors are recorded to \
         three significant digits.</p>",
        unit.name()
    );
    out.push_str(&distribution_chart(aggregates, unit));
    out.push_str("</section>\n");

    out.push_str("<section id=\"kinds\">\n<h2>Error by decision kind</h2>\n");
    out.push_str(&kind_chart(aggregates, unit));
    kind_table(&mut out, aggregates);
    out.push_str("</section>\n");

    leaderboard_section(&mut out, board, &best, min_games, top, unit);
    let _ = writeln!(
        out,
        "<footer>Written by dicelens {}. Errors and luck are in {} under the oracle named \
         above.</footer>",
        env!("CARGO_PKG_VERSION"),
        unit.name()
    );
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// Inline style sheet.
pub(super) const STYLE: &str = concat!(
    "\
:root { color-scheme: light; }
body { margin: 0; background: #f4f5f7; color: #1d2330;
  font: 15px/1.45 system-ui, -apple-system, \"Segoe UI\", \"DejaVu Sans\", \"Liberation Sans\", sans-serif; }
main { max-width: 1080px; margin: 0 auto; padding: 24px 28px 40px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 0 0 8px; }
header p { margin: 2px 0; color: #4a5263; }
section { background: #fff; border: 1px solid #dde1e7; border-radius: 8px; padding: 16px 20px;
  margin: 18px 0; }
.note { color: #4a5263; font-size: 13.5px; margin: 6px 0; }
.empty { background: #fff6e0; border: 1px solid #e8cf8a; border-radius: 8px; padding: 12px 16px;
  font-weight: 600; }
dl.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr));
  gap: 8px 18px; margin: 8px 0 14px; }
dl.facts div { border-left: 3px solid #1f6fb4; padding-left: 10px; }
dl.facts dt { font-size: 12.5px; color: #5b6475; }
dl.facts dd { margin: 0; font-size: 18px; font-weight: 600; font-variant-numeric: tabular-nums; }
table { border-collapse: collapse; width: 100%; font-size: 14px; margin: 8px 0; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { padding: 4px 10px; border-bottom: 1px solid #e6e9ee; text-align: left; }
th { background: #eef1f5; font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody tr:nth-child(even) { background: #f9fafb; }
tr.best td { background: #fdeceb; }
",
    chart_style!(),
    "\
footer { color: #6b7385; font-size: 13px; margin-top: 12px; }
"
);

/// Share `part / whole` in percent, one decimal (0 when `whole` is 0).
fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "0.0".into()
    } else {
        fixed(part as f64 * 100.0 / whole as f64, 1)
    }
}

/// The best players: the top tenth of the leaderboard, at least one player (none if empty).
fn best_players<'a, 'b>(board: &'b [Ranked<'a>]) -> Vec<&'b Ranked<'a>> {
    let n = (board.len() / 10).max(1).min(board.len());
    board.iter().take(n).collect()
}

/// The sentence under the round chart naming the best players.
fn best_caption(board: &[Ranked], best: &[&Ranked]) -> String {
    if best.is_empty() {
        return "No player is on the leaderboard, so there is no best-players line.".into();
    }
    let names: Vec<String> = best.iter().take(8).map(|r| escape(r.name)).collect();
    let more = if best.len() > 8 {
        format!(" and {} more", best.len() - 8)
    } else {
        String::new()
    };
    format!(
        "Best players: the top {} of the {} on the leaderboard ({}{more}).",
        best.len(),
        board.len(),
        names.join(", ")
    )
}

/// The page header: title, version, oracle, rule sets.
fn header(out: &mut String, aggregates: &Aggregates, oracle: &str) {
    out.push_str("<header>\n<h1>dicelens analysis report</h1>\n");
    let _ = writeln!(
        out,
        "<p>dicelens {} &middot; oracle: {}</p>",
        env!("CARGO_PKG_VERSION"),
        escape(oracle)
    );
    let _ = writeln!(out, "<p>Rule sets: {}</p>", rule_sets(aggregates));
    out.push_str("</header>\n");
}

/// The rule sets with their games, or "none".
fn rule_sets(aggregates: &Aggregates) -> String {
    if aggregates.rule_sets.is_empty() {
        return "none".into();
    }
    aggregates
        .rule_sets
        .iter()
        .map(|(rules, games)| {
            let s = if *games == 1 { "" } else { "s" };
            format!("{} ({games} game{s})", escape(rules))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The corpus: counts, and the skipped games by reason.
fn corpus_section(out: &mut String, aggregates: &Aggregates, summary: &Summary) {
    out.push_str("<section id=\"corpus\">\n<h2>Corpus</h2>\n<dl class=\"facts\">\n");
    let facts = [
        ("games read", summary.games_read.to_string()),
        ("games rated", aggregates.games.to_string()),
        ("games skipped", summary.skipped_count().to_string()),
        ("decisions rated", aggregates.all.decisions.to_string()),
        ("not forced", aggregates.all.unforced.to_string()),
        ("players", aggregates.players.len().to_string()),
        (
            "error per decision",
            fixed(aggregates.all.error_per_decision(), 6),
        ),
        (
            "error per game (per player)",
            fixed(error_per_player_game(aggregates), 4),
        ),
    ];
    for (name, value) in facts {
        let _ = writeln!(out, "<div><dt>{name}</dt><dd>{value}</dd></div>");
    }
    out.push_str("</dl>\n");
    if !summary.files_skipped.is_empty() {
        out.push_str("<p class=\"note\">Files skipped:</p>\n<ul>\n");
        for why in &summary.files_skipped {
            let _ = writeln!(out, "<li>{}</li>", escape(why));
        }
        out.push_str("</ul>\n");
    }
    if summary.skipped.is_empty() {
        out.push_str("<p class=\"note\">No game was skipped.</p>\n");
    } else {
        out.push_str(
            "<table id=\"skipped\">\n<caption>Games skipped, by reason</caption>\n<thead><tr>\
             <th>reason</th><th class=\"num\">games</th><th>first at</th><th>game</th>\
             <th>detail</th></tr></thead>\n<tbody>\n",
        );
        for (reason, places) in &summary.skipped {
            let (at, game, detail) = match places.first() {
                Some(l) => (
                    format!("{}:{}", escape(&l.file), l.line),
                    escape(l.game_id.as_deref().unwrap_or("")),
                    escape(&l.detail),
                ),
                None => Default::default(),
            };
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td class=\"num\">{}</td><td>{at}</td><td>{game}</td>\
                 <td>{detail}</td></tr>",
                escape(&reason.to_string()),
                places.len()
            );
        }
        out.push_str("</tbody>\n</table>\n");
    }
    out.push_str("</section>\n");
}

/// Total error over player-games (each seat of each game counts once).
fn error_per_player_game(aggregates: &Aggregates) -> f64 {
    let player_games: u64 = aggregates.players.values().map(|p| p.games).sum();
    if player_games == 0 {
        0.0
    } else {
        aggregates.all.total_error() / player_games as f64
    }
}

/// One line of the round chart.
struct Series {
    /// Class names after `series` (`seats seats-2`, `best`).
    class: String,
    /// Legend text.
    label: String,
    /// Stroke color.
    color: &'static str,
    /// Dashed line.
    dashed: bool,
    /// Points: x in rounds, mean error per decision, tooltip.
    points: Vec<(f64, f64, String)>,
}

/// The series of the round chart (one per seat count present, then the best players) and the
/// last round of any.
fn round_series(aggregates: &Aggregates, best: &[&Ranked]) -> (Vec<Series>, u32) {
    let mut by_seats: BTreeMap<u32, Vec<(u32, &Tally)>> = BTreeMap::new();
    for (key, tally) in &aggregates.turns {
        if tally.decisions > 0 {
            by_seats
                .entry(u32::from(key.seats).max(1))
                .or_default()
                .push((u32::from(key.turn).max(1), tally));
        }
    }
    let mut last_round = 0;
    let mut series = Vec::new();
    for (i, (seats, turns)) in by_seats.into_iter().enumerate() {
        let noun = if seats == 1 { "seat" } else { "seats" };
        let mut points = Vec::new();
        for (turn, tally) in turns {
            let round = (turn - 1) / seats + 1;
            let seat = (turn - 1) % seats + 1;
            last_round = last_round.max(round);
            let x = f64::from(round) - 0.5 + (f64::from(seat) - 0.5) / f64::from(seats);
            let e = tally.error_per_decision();
            let tip = format!(
                "{seats} {noun}, turn {turn} (round {round}, seat {seat}): {} per decision, \
                 {} decisions",
                fixed(e, 4),
                tally.decisions
            );
            points.push((x, e, tip));
        }
        series.push(Series {
            class: format!("seats seats-{seats}"),
            label: format!("all players, {seats} {noun} (by turn)"),
            color: SEAT_COLORS[i % SEAT_COLORS.len()],
            dashed: false,
            points,
        });
    }
    let mut rounds: BTreeMap<u16, Tally> = BTreeMap::new();
    for r in best {
        for (round, tally) in &r.stats.rounds {
            if rounds.entry(*round).or_default().merge(tally).is_err() {
                // Sums too large for their counters (only made-up aggregates have them): no
                // series of the best players.
                return (series, last_round);
            }
        }
    }
    let points: Vec<(f64, f64, String)> = rounds
        .iter()
        .filter(|(round, t)| **round > 0 && t.decisions > 0)
        .map(|(round, t)| {
            last_round = last_round.max(u32::from(*round));
            let e = t.error_per_decision();
            let tip = format!(
                "best players, round {round}: {} per decision, {} decisions",
                fixed(e, 4),
                t.decisions
            );
            (f64::from(*round), e, tip)
        })
        .collect();
    if !points.is_empty() {
        let s = if best.len() == 1 { "" } else { "s" };
        series.push(Series {
            class: "best".into(),
            label: format!("best {} player{s} (by round)", best.len()),
            color: BEST_COLOR,
            dashed: true,
            points,
        });
    }
    (series, last_round)
}

/// The per-round difficulty chart (`#round-chart`).
fn round_chart(aggregates: &Aggregates, best: &[&Ranked], unit: Unit) -> String {
    let (series, last_round) = round_series(aggregates, best);
    let rounds = if last_round == 0 { 13 } else { last_round };
    let (top, bottom) = (24.0, 330.0);
    let legend_rows = series.len().div_ceil(3).max(1);
    let height = bottom + 62.0 + 24.0 * legend_rows as f64;
    let max = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| finite(p.1)))
        .fold(0.0, f64::max);
    let (y_top, step) = nice_axis(max, false);
    let x = Scale::slots(f64::from(rounds), LEFT, RIGHT);
    let y = Scale::from_zero(y_top, bottom, top);
    let mut out = String::new();
    let desc = if series.is_empty() {
        "No decisions were rated.".to_string()
    } else {
        let names: Vec<&str> = series.iter().map(|s| s.label.as_str()).collect();
        format!(
            "Mean error per decision by round, rounds 1 to {rounds}; lines: {}.",
            names.join("; ")
        )
    };
    svg_open(
        &mut out,
        "round-chart",
        height,
        "Mean error per decision by round of the game",
        &desc,
    );
    plot_background(&mut out, top, bottom);
    y_axis(
        &mut out,
        y,
        y_top,
        step,
        &format!("mean error per decision ({})", unit.short()),
    );
    out.push_str("<g class=\"x-axis\">\n");
    let every = rounds.div_ceil(20).max(1);
    for round in (1..=rounds).filter(|r| (r - 1) % every == 0) {
        let _ = writeln!(
            out,
            "<path class=\"axis\" d=\"M{x} {b}v5\"/><text x=\"{x}\" y=\"{}\" \
             text-anchor=\"middle\">{round}</text>",
            px(bottom + 20.0),
            x = px(x.at(f64::from(round))),
            b = px(bottom)
        );
    }
    axis_title(
        &mut out,
        (LEFT + RIGHT) / 2.0,
        bottom + 42.0,
        "round of the game",
    );
    out.push_str("</g>\n");
    axes(&mut out, top, bottom);
    if series.is_empty() {
        no_data(&mut out, top, bottom, "no decisions rated");
    }
    for s in &series {
        let points: Vec<String> = s
            .points
            .iter()
            .map(|p| format!("{},{}", px(x.at(p.0)), px(y.at(p.1))))
            .collect();
        let dash = if s.dashed {
            " stroke-dasharray=\"7 5\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<g class=\"series-group {}\">\n<polyline class=\"series {}\" points=\"{}\" \
             fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\" stroke-linejoin=\"round\"{dash}>\
             <title>{}</title></polyline>",
            s.class,
            s.class,
            points.join(" "),
            s.color,
            escape(&s.label)
        );
        for p in &s.points {
            let _ = writeln!(
                out,
                "<circle class=\"point\" cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\">\
                 <title>{}</title></circle>",
                px(x.at(p.0)),
                px(y.at(p.1)),
                s.color,
                escape(&p.2)
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("<g class=\"legend\">\n");
    for (i, s) in series.iter().enumerate() {
        let lx = LEFT + 10.0 + 290.0 * (i % 3) as f64;
        let ly = bottom + 70.0 + 24.0 * (i / 3) as f64;
        let dash = if s.dashed {
            " stroke-dasharray=\"7 5\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<path d=\"M{} {y}h30\" stroke=\"{}\" stroke-width=\"3\"{dash}/>\
             <text x=\"{}\" y=\"{y}\" dy=\"4\">{}</text>",
            px(lx),
            s.color,
            px(lx + 38.0),
            escape(&s.label),
            y = px(ly)
        );
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// Counts of decisions per bucket of [`BUCKETS`].
fn bucket_counts(aggregates: &Aggregates) -> [u64; 7] {
    let mut counts = [0u64; 7];
    for (&micro, &n) in &aggregates.histogram.counts {
        let i = BUCKETS
            .iter()
            .position(|b| micro < b.1)
            .unwrap_or(BUCKETS.len() - 1);
        counts[i] += n;
    }
    counts
}

/// The error distribution histogram (`#error-distribution`).
fn distribution_chart(aggregates: &Aggregates, unit: Unit) -> String {
    let counts = bucket_counts(aggregates);
    let total: u64 = counts.iter().sum();
    let max = counts.iter().copied().max().unwrap_or(0);
    let (top, bottom) = (34.0, 320.0);
    let height = bottom + 56.0;
    let (y_top, step) = nice_axis(max as f64, true);
    let y = Scale::from_zero(y_top, bottom, top);
    let band = (RIGHT - LEFT) / BUCKETS.len() as f64;
    let mut out = String::new();
    let desc = if total == 0 {
        "No decisions were rated.".to_string()
    } else {
        let parts: Vec<String> = BUCKETS
            .iter()
            .zip(counts)
            .map(|(b, n)| format!("{}: {n}", b.0))
            .collect();
        format!(
            "Decisions by error in {}, {total} in all; {}.",
            unit.name(),
            parts.join("; ")
        )
    };
    svg_open(
        &mut out,
        "error-distribution",
        height,
        "Distribution of decision errors",
        &desc,
    );
    plot_background(&mut out, top, bottom);
    y_axis(&mut out, y, y_top, step, "decisions");
    axes(&mut out, top, bottom);
    for (i, (bucket, n)) in BUCKETS.iter().zip(counts).enumerate() {
        let cx = LEFT + band * (i as f64 + 0.5);
        let bar_top = if n > 0 {
            y.at(n as f64).min(bottom - 1.0)
        } else {
            bottom
        };
        let _ = writeln!(
            out,
            "<rect class=\"bar {}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">\
             <title>error {}: {n} decisions ({}%)</title></rect>",
            CLASS_NAMES[bucket.2],
            px(cx - band * 0.36),
            px(bar_top),
            px(band * 0.72),
            px(bottom - bar_top),
            CLASS_COLORS[bucket.2],
            bucket.0,
            percent(n, total)
        );
        let _ = writeln!(
            out,
            "<text class=\"value\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{n} ({}%)</text>",
            px(cx),
            px(bar_top - 6.0),
            percent(n, total)
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            px(cx),
            px(bottom + 20.0),
            bucket.0
        );
    }
    axis_title(
        &mut out,
        (LEFT + RIGHT) / 2.0,
        bottom + 44.0,
        &format!("error of a decision ({})", unit.name()),
    );
    if total == 0 {
        no_data(&mut out, top, bottom, "no decisions rated");
    }
    out.push_str("</svg>\n");
    out
}

/// Error per decision by decision kind, as horizontal bars (`#kind-chart`).
fn kind_chart(aggregates: &Aggregates, unit: Unit) -> String {
    let label_width = 150.0;
    let (left, right) = (LEFT + label_width, RIGHT - 90.0);
    let (top, row) = (14.0, 42.0);
    let bottom = top + row * KINDS.len() as f64;
    let height = bottom + 58.0;
    let max = aggregates
        .kinds
        .iter()
        .map(|t| finite(t.error_per_decision()))
        .fold(0.0, f64::max);
    let (x_top, step) = nice_axis(max, false);
    let decimals = step_decimals(step);
    let x = Scale::from_zero(x_top, left, right);
    let mut out = String::new();
    let desc = if aggregates.all.decisions == 0 {
        "No decisions were rated.".to_string()
    } else {
        let parts: Vec<String> = KINDS
            .iter()
            .zip(&aggregates.kinds)
            .map(|(k, t)| format!("{k}: {}", fixed(t.error_per_decision(), 4)))
            .collect();
        format!("Mean error per decision by kind; {}.", parts.join("; "))
    };
    svg_open(
        &mut out,
        "kind-chart",
        height,
        "Mean error per decision by decision kind",
        &desc,
    );
    let _ = writeln!(
        out,
        "<rect class=\"plot-bg\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
        px(left),
        px(top),
        px(right - left),
        px(bottom - top)
    );
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
    axes_between(&mut out, left, right, top, bottom);
    for (i, (kind, t)) in KINDS.iter().zip(&aggregates.kinds).enumerate() {
        let cy = top + row * (i as f64 + 0.5);
        let e = t.error_per_decision();
        let w = x.at(e) - left;
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" dy=\"4\" text-anchor=\"end\">{kind}</text>\
             <rect class=\"bar kind-{i}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
             fill=\"{}\"><title>{kind}: {} per decision, {} decisions</title></rect>\
             <text class=\"value\" x=\"{}\" y=\"{}\" dy=\"4\">{}</text>",
            px(left - 10.0),
            px(cy),
            px(left),
            px(cy - row * 0.3),
            px(w.max(0.0)),
            px(row * 0.6),
            SEAT_COLORS[0],
            fixed(e, 4),
            t.decisions,
            px(left + w.max(0.0) + 6.0),
            px(cy),
            fixed(e, 4)
        );
    }
    axis_title(
        &mut out,
        (left + right) / 2.0,
        bottom + 44.0,
        &format!("mean error per decision ({})", unit.short()),
    );
    if aggregates.all.decisions == 0 {
        no_data_between(&mut out, left, right, top, bottom, "no decisions rated");
    }
    out.push_str("</svg>\n");
    out
}

/// The table of decisions, errors and classes by decision kind.
fn kind_table(out: &mut String, aggregates: &Aggregates) {
    out.push_str(
        "<table id=\"kind-table\">\n<thead><tr><th>decision kind</th>\
         <th class=\"num\">decisions</th><th class=\"num\">not forced</th>\
         <th class=\"num\">total error</th><th class=\"num\">error/decision</th>\
         <th class=\"num\">doubtful</th><th class=\"num\">errors</th>\
         <th class=\"num\">blunders</th></tr></thead>\n<tbody>\n",
    );
    let rows = KINDS
        .iter()
        .zip(&aggregates.kinds)
        .chain(std::iter::once((&"all", &aggregates.all)));
    for (kind, t) in rows {
        let _ = writeln!(
            out,
            "<tr><td>{kind}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            t.decisions,
            t.unforced,
            fixed(t.total_error(), 4),
            fixed(t.error_per_decision(), 6),
            t.classes[Class::Doubtful],
            t.classes[Class::Error],
            t.classes[Class::Blunder]
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// The leaderboard table (the first `top` players).
fn leaderboard_section(
    out: &mut String,
    board: &[Ranked],
    best: &[&Ranked],
    min_games: u64,
    top: usize,
    unit: Unit,
) {
    out.push_str("<section id=\"leaderboard\">\n<h2>Leaderboard</h2>\n");
    let shown = board.len().min(top);
    let s = if min_games == 1 { "" } else { "s" };
    let _ = writeln!(
        out,
        "<p class=\"note\">{} players with at least {min_games} game{s}, ranked by error per \
         game ({} lost per game against optimal play); the first {shown} shown. The 95% \
         confidence interval is by game. Highlighted: the best players of the round chart.</p>",
        board.len(),
        unit.name()
    );
    out.push_str(
        "<table id=\"leaderboard-table\">\n<thead><tr><th class=\"num\">rank</th>\
         <th>player</th><th class=\"num\">games</th><th class=\"num\">error/game</th>\
         <th class=\"num\">95% CI</th><th class=\"num\">error/decision</th>\
         <th class=\"num\">doubtful</th><th class=\"num\">errors</th>\
         <th class=\"num\">blunders</th></tr></thead>\n<tbody>\n",
    );
    if shown == 0 {
        let _ = writeln!(
            out,
            "<tr><td colspan=\"9\">No player has at least {min_games} game{s}.</td></tr>"
        );
    }
    for r in board.iter().take(top) {
        let p = r.stats;
        let (lo, hi) = p.error_per_game_ci();
        let class = if best.iter().any(|b| b.rank == r.rank) {
            " class=\"best\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<tr{class}><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">[{}, {}]</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            r.rank,
            escape(r.name),
            p.games,
            fixed(p.error_per_game(), 4),
            fixed(lo, 4),
            fixed(hi, 4),
            fixed(p.all.error_per_decision(), 6),
            p.all.classes[Class::Doubtful],
            p.all.classes[Class::Error],
            p.all.classes[Class::Blunder]
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aggregate::{PlayerStats, SeatsTurn};
    use crate::report::leaderboard;

    /// A tally of `decisions` decisions with `error` points of error in all.
    fn tally(decisions: u64, error: f64) -> Tally {
        Tally {
            decisions,
            unforced: decisions,
            error_nano: (error * 1e9) as i128,
            luck_nano: 0,
            classes: crate::aggregate::ClassCounts([decisions, 0, 0, 0]),
        }
    }

    /// Aggregates with one- and two-seat turns, two players and a spread histogram.
    fn sample() -> Aggregates {
        let mut a = Aggregates {
            games: 3,
            all: tally(90, 30.0),
            kinds: [tally(30, 12.0), tally(30, 9.0), tally(30, 9.0)],
            ..Default::default()
        };
        for turn in 1..=13 {
            a.turns.insert(
                SeatsTurn { seats: 1, turn },
                tally(3, f64::from(turn) * 0.1),
            );
        }
        for turn in 1..=26 {
            a.turns.insert(
                SeatsTurn { seats: 2, turn },
                tally(2, f64::from(turn) * 0.05),
            );
        }
        a.rule_sets.insert("yahtzee".into(), 3);
        for (name, games, error) in [("<b>&\"x\"", 2, 20.0), ("sim01", 3, 1.0)] {
            let mut p = PlayerStats {
                games,
                all: tally(40, error),
                ..Default::default()
            };
            for round in 1..=13 {
                p.rounds.insert(round, tally(3, error / 13.0));
            }
            a.players.insert(name.into(), p);
        }
        for (micro, n) in [
            (0, 50),
            (500, 10),
            (5_000, 10),
            (2_000_000, 15),
            (9_000_000, 5),
        ] {
            a.histogram.counts.insert(micro, n);
        }
        a
    }

    /// Every number in the chart attributes (coordinates, sizes) parses as a finite number.
    fn assert_finite_coordinates(html: &str) {
        assert!(!html.contains("NaN"), "NaN in the page");
        for attr in [
            " x=\"",
            " y=\"",
            " cx=\"",
            " cy=\"",
            " width=\"",
            " height=\"",
        ] {
            for part in html.split(attr).skip(1) {
                let value = part.split('"').next().unwrap_or_default();
                let v: f64 = value
                    .parse()
                    .unwrap_or_else(|_| panic!("{attr}{value}\" is not a number"));
                assert!(v.is_finite(), "{attr}{value}");
            }
        }
        for part in html.split(" points=\"").skip(1) {
            let value = part.split('"').next().unwrap_or_default();
            for n in value.split([' ', ',']).filter(|n| !n.is_empty()) {
                assert!(n.parse::<f64>().is_ok_and(f64::is_finite), "point {n}");
            }
        }
    }

    /// The page of `a` in points, with no skipped game.
    fn page(a: &Aggregates, board: &[Ranked], oracle: &str, min_games: u64, top: usize) -> String {
        report_html(
            a,
            board,
            &Summary::default(),
            oracle,
            Unit::Points,
            min_games,
            top,
        )
    }

    #[test]
    fn player_names_are_escaped() {
        let a = sample();
        let board = leaderboard(&a, 1);
        let html = page(&a, &board, "oracle <o>", 1, 10);
        assert!(html.contains("&lt;b&gt;&amp;&quot;x&quot;"), "escaped name");
        assert!(!html.contains("<b>&\"x\""), "raw name in the page");
        assert!(html.contains("oracle &lt;o&gt;"));
        assert_eq!(escape("a'b"), "a&#39;b");
    }

    #[test]
    fn empty_aggregates_give_a_valid_page() {
        let a = Aggregates::default();
        let board = leaderboard(&a, 5);
        let html = page(&a, &board, "solitaire", 5, 20);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.trim_end().ends_with("</html>"));
        assert!(html.contains("nothing to show"));
        for id in ["round-chart", "error-distribution", "kind-chart"] {
            assert!(html.contains(&format!("<svg id=\"{id}\"")), "{id}");
        }
        assert_eq!(html.matches("<svg").count(), html.matches("</svg>").count());
        assert_finite_coordinates(&html);
        assert!(html.contains("No player has at least 5 games."));
    }

    #[test]
    fn one_series_per_seat_count_and_one_for_the_best() {
        let a = sample();
        let board = leaderboard(&a, 1);
        let html = page(&a, &board, "solitaire", 1, 10);
        assert_eq!(html.matches("<polyline class=\"series seats ").count(), 2);
        assert!(html.contains("class=\"series seats seats-1\""));
        assert!(html.contains("class=\"series seats seats-2\""));
        assert_eq!(html.matches("<polyline class=\"series best\"").count(), 1);
        // 13 + 26 turns and 13 rounds of the best player.
        assert_eq!(
            html.matches("<circle class=\"point\"").count(),
            13 + 26 + 13
        );
        assert_finite_coordinates(&html);

        let mut two = sample();
        two.turns.retain(|k, _| k.seats == 2);
        let html = page(&two, &board, "solitaire", 1, 10);
        assert_eq!(html.matches("<polyline class=\"series seats ").count(), 1);
    }

    #[test]
    fn histogram_buckets_hold_their_lower_bound() {
        let mut a = Aggregates::default();
        for (micro, n) in [
            (0, 1),
            (1, 2),
            (999, 3),
            (1_000, 4),
            (1_000_000, 5),
            (5_000_000, 6),
        ] {
            a.histogram.counts.insert(micro, n);
        }
        a.histogram.counts.insert(u64::MAX, 7);
        assert_eq!(bucket_counts(&a), [1, 5, 4, 0, 0, 5, 13]);
    }

    #[test]
    fn best_players_are_a_tenth_at_least_one() {
        let a = sample();
        let board = leaderboard(&a, 1);
        assert_eq!(best_players(&board).len(), 1);
        assert_eq!(best_players(&board)[0].name, "sim01");
        assert!(best_players(&[]).is_empty());
    }

    #[test]
    fn axes_are_nice_and_finite() {
        assert_eq!(nice_axis(0.0, false), (1.0, 0.2));
        assert_eq!(nice_axis(f64::NAN, true), (5.0, 1.0));
        assert_eq!(nice_axis(11022.0, true), (12500.0, 2500.0));
        assert_eq!(nice_axis(3.0, true), (3.0, 1.0));
        let (top, step) = nice_axis(0.62, false);
        assert!((top - 0.8).abs() < 1e-12 && (step - 0.2).abs() < 1e-12);
        let (top, step) = nice_axis(1.1, false);
        assert!((top - 1.25).abs() < 1e-12 && (step - 0.25).abs() < 1e-12);
        assert_eq!(step_decimals(0.25), 2);
        assert_eq!(step_decimals(2000.0), 0);
        assert_eq!(fixed(f64::INFINITY, 2), "0.00");
    }

    #[test]
    fn the_page_is_deterministic() {
        let a = sample();
        let board = leaderboard(&a, 1);
        let one = page(&a, &board, "solitaire", 1, 10);
        let two = page(&a, &board, "solitaire", 1, 10);
        assert_eq!(one, two);
    }
}
