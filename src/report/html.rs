//! `report.html`: an analysis as one self-contained HTML5 page (inline CSS, hand-written SVG
//! and a few lines of inline script that sort the leaderboards; no external resource): the
//! corpus summary with skip reasons, then one part per unit of the errors (expected points,
//! expected match points), each with its difficulty chart per rule family, its error classes,
//! its error by decision kind and its leaderboard of every ranked player. Errors in different
//! units are never drawn on one axis or ranked in one table.
//!
//! The page is a pure function of its inputs (no date, no randomness) and every number is
//! written with fixed decimals, so the same analysis gives the same bytes. Every chart is an
//! `<svg>` with a stable id (`round-chart-UNIT-ROUNDS`, `error-classes-UNIT`,
//! `kind-chart-UNIT`; UNIT is `points` or `match-points`), a `<title>` and a `<desc>`; an
//! analysis without games still gives a valid page with empty charts.

use super::page::STYLE;
use super::svg::{
    axes, axes_between, axis_title, escape, finite, fixed, nice_axis, no_data, no_data_between,
    plot_background, px, svg_open, x_value_axis, y_axis, Scale, LEFT, RIGHT,
};
use crate::aggregate::{Aggregates, PartKey, Parts, Tally, KINDS};
use crate::corpus::Summary;
use crate::ranking::{best_players, Leaderboard, Ranked};
use crate::rate::Unit;
use crate::rate::{Class, Thresholds, UnitThresholds};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Colors of the seat series, by order of appearance.
const SEAT_COLORS: [&str; 6] = [
    "#1f6fb4", "#2e9d4a", "#8a5cc2", "#8c564b", "#149fb0", "#6b6b6b",
];
/// Color of the best players' series.
pub(super) const BEST_COLOR: &str = "#d1362f";
/// Colors of the decision classes: fine, doubtful, error, blunder.
pub(super) const CLASS_COLORS: [&str; 4] = ["#4f9d5b", "#d9b53c", "#e58a2e", "#c9403a"];
/// Names of the decision classes.
pub(super) const CLASS_NAMES: [&str; 4] = ["fine", "doubtful", "error", "blunder"];

/// Everything the report is made from.
pub struct ReportInput<'a> {
    /// The statistics, one part per unit.
    pub aggregates: &'a Parts,
    /// The leaderboards, one per unit that has games ([`crate::ranking::leaderboards`]).
    pub boards: &'a [Leaderboard<'a>],
    /// Games read and skipped.
    pub summary: &'a Summary,
    /// What rated the decisions.
    pub oracle: &'a str,
    /// The class thresholds of each unit.
    pub thresholds: UnitThresholds,
    /// Least games for a leaderboard.
    pub min_games: u64,
}

/// The whole report: one HTML5 document.
pub fn report_html(input: &ReportInput) -> String {
    let aggregates = input.aggregates;
    let mut out = String::with_capacity(64 * 1024);
    out.push_str(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>dicelens analysis report</title>\n<style>\n",
    );
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n<main>\n");
    header(&mut out, aggregates, input.oracle);
    corpus_section(&mut out, aggregates, input.summary);
    if aggregates.games() == 0 {
        out.push_str(
            "<p class=\"empty\" id=\"nothing\">No games were rated: there is nothing to show. \
             The charts below are empty.</p>\n",
        );
    }
    if input.boards.len() > 1 {
        let _ = writeln!(
            out,
            "<p class=\"note\" id=\"units\">This corpus has {} parts below, each with its own \
             charts and leaderboard: errors in expected points and in expected match points, \
             and errors of games of different lengths (13 rounds, 15 rounds), are never added \
             or compared.</p>",
            input.boards.len()
        );
    }
    if input.boards.is_empty() {
        // An empty analysis: the charts of points, empty.
        let empty = Aggregates::default();
        let board = Leaderboard {
            key: PartKey {
                unit: Unit::Points,
                rounds: 13,
            },
            unit: Unit::Points,
            part: &empty,
            games: "games".into(),
            ranked: Vec::new(),
            most_games: 0,
            screened: Vec::new(),
        };
        unit_part(&mut out, &board, input, &BTreeMap::new());
    }
    let pages = super::player::player_pages(input.boards);
    for board in input.boards {
        unit_part(&mut out, board, input, &pages);
    }
    let _ = writeln!(
        out,
        "<footer>Written by dicelens {}. Each part's errors and luck are in its own unit \
         under the oracle named above.</footer>",
        env!("CARGO_PKG_VERSION"),
    );
    out.push_str(SORT_SCRIPT);
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// One part of the report (one unit, one length of game): its title, the round chart, the
/// error classes, the kinds and the leaderboard.
fn unit_part(
    out: &mut String,
    board: &Leaderboard,
    input: &ReportInput,
    pages: &BTreeMap<(PartKey, String), String>,
) {
    let (unit, part) = (board.unit, board.part);
    let id = board.key.id();
    let best = best_players(&board.ranked);
    let thresholds = input.thresholds.of(unit);
    let _ = writeln!(
        out,
        "<h2 class=\"unit-title\" id=\"part-{id}\">{} in {}<small>{} games of {} rounds, {} \
         decisions, {} players; every error below is in {}{}</small></h2>",
        capitalized(&board.games),
        unit.name(),
        part.games,
        board.key.rounds,
        part.all.decisions,
        part.players.len(),
        unit.name(),
        unit_explained(unit)
    );

    let _ = writeln!(
        out,
        "<section id=\"rounds-{id}\" class=\"rounds\">\n<h2>Difficulty by round</h2>\n\
         <p class=\"note\">Mean error per decision ({}) in each round of the game, one line \
         per seat (seat 1 moves first in every round); the red dashed line is the best \
         players' mean error per decision in each round.</p>",
        unit.name()
    );
    out.push_str(&round_chart(part, board.key.rounds, &best, unit, &id));
    let _ = writeln!(
        out,
        "<p class=\"note\">{}</p>",
        best_caption(&board.ranked, &best)
    );
    out.push_str("</section>\n");

    let _ = writeln!(
        out,
        "<section id=\"classes-{id}\" class=\"distribution\">\n<h2>Decisions by class</h2>\n\
         <p class=\"note\">Every decision is classed by its error in {}: the bars count the \
         decisions of each class; the legend gives each class's range.</p>",
        unit.name()
    );
    out.push_str(&class_chart(part, unit, thresholds, &id));
    class_legend(out, unit, thresholds, part);
    out.push_str("</section>\n");

    let _ = writeln!(
        out,
        "<section id=\"kinds-{id}\" class=\"kinds\">\n<h2>Error by decision kind</h2>"
    );
    out.push_str(&kind_chart(part, unit, &id));
    kind_table(out, part, unit, &id);
    out.push_str("</section>\n");

    leaderboard_section(out, board, &best, input.min_games, &id, pages);
    super::screening::report_section(out, board.key, &board.screened, pages);
}

/// `text` with its first letter in upper case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// What an error in `unit` means, after the unit's name.
fn unit_explained(unit: Unit) -> &'static str {
    match unit {
        Unit::MatchPoints => {
            " (the expected share of the match won: 1 for a win, 1/2 for a draw; an error \
             of 0.01 is one percent of winning chances given away)"
        }
        _ => " (points of final score given away against optimal play)",
    }
}

/// Share `part / whole` in percent, one decimal (0 when `whole` is 0).
fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "0.0".into()
    } else {
        fixed(part as f64 * 100.0 / whole as f64, 1)
    }
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
fn header(out: &mut String, aggregates: &Parts, oracle: &str) {
    out.push_str("<header>\n<h1>dicelens analysis report</h1>\n");
    let _ = writeln!(
        out,
        "<p>dicelens {} &middot; oracle: {}</p>",
        env!("CARGO_PKG_VERSION"),
        escape(oracle)
    );
    let _ = writeln!(
        out,
        "<p>Rule sets: {}</p>",
        rule_sets(&aggregates.rule_sets())
    );
    out.push_str("</header>\n");
}

/// The rule sets with their games, or "none".
fn rule_sets(games: &BTreeMap<String, u64>) -> String {
    if games.is_empty() {
        return "none".into();
    }
    games
        .iter()
        .map(|(rules, games)| {
            let s = if *games == 1 { "" } else { "s" };
            format!("{} ({games} game{s})", escape(rules))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The corpus: counts, and the skipped games by reason.
fn corpus_section(out: &mut String, aggregates: &Parts, summary: &Summary) {
    out.push_str("<section id=\"corpus\">\n<h2>Corpus</h2>\n<dl class=\"facts\">\n");
    let mut facts: Vec<(String, String)> = [
        ("games read", summary.games_read),
        ("games rated", aggregates.games()),
        ("games skipped", summary.skipped_count()),
        ("decisions rated", aggregates.decisions()),
    ]
    .into_iter()
    .map(|(name, n)| (name.to_string(), n.to_string()))
    .collect();
    for (key, part) in aggregates.parts() {
        let name = format!(
            "error per game, per player ({}, {} rounds)",
            key.unit.short(),
            key.rounds
        );
        facts.push((name, fixed(error_per_player_game(part), 4)));
    }
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
    /// Class names after `series` (`seat seats-2 seat-1`, `best`).
    class: String,
    /// Legend text.
    label: String,
    /// Stroke color.
    color: &'static str,
    /// Dashed line.
    dashed: bool,
    /// Points: round, mean error per decision, tooltip.
    points: Vec<(f64, f64, String)>,
}

/// The label of the line of `seat` (1-based) in games of `seats` players.
fn seat_label(seats: u16, seat: u16) -> String {
    match seats {
        0 | 1 => "all players".into(),
        2 => match seat {
            1 => "seat 1 (moves first)".into(),
            _ => "seat 2 (moves second)".into(),
        },
        _ => format!("{seats} players, seat {seat}"),
    }
}

/// The series of the round chart of games of `rounds` rounds: one per seat of each seat
/// count, then the best players'.
fn round_series(aggregates: &Aggregates, rounds: u16, best: &[&Ranked]) -> Vec<Series> {
    let mut by_seat: BTreeMap<(u16, u16), Vec<(u16, &Tally)>> = BTreeMap::new();
    for (key, tally) in aggregates.turns.range(..) {
        if key.rounds == rounds && tally.decisions > 0 {
            by_seat
                .entry((key.seats.max(1), key.seat()))
                .or_default()
                .push((key.round(), tally));
        }
    }
    let mut series = Vec::new();
    for (i, ((seats, seat), turns)) in by_seat.into_iter().enumerate() {
        let label = seat_label(seats, seat);
        let points = turns
            .into_iter()
            .map(|(round, tally)| {
                let e = tally.error_per_decision();
                let tip = format!(
                    "{label}, round {round}: {} per decision, {} decisions",
                    fixed(e, 4),
                    tally.decisions
                );
                (f64::from(round), e, tip)
            })
            .collect();
        series.push(Series {
            class: format!("seat seats-{seats} seat-{seat}"),
            label,
            color: SEAT_COLORS[i % SEAT_COLORS.len()],
            dashed: false,
            points,
        });
    }
    let mut by_round: BTreeMap<u16, Tally> = BTreeMap::new();
    for r in best {
        for (round, tally) in r.stats.rounds.range(1..=rounds) {
            if by_round.entry(*round).or_default().merge(tally).is_err() {
                // Sums too large for their counters (only made-up aggregates have them): no
                // series of the best players.
                return series;
            }
        }
    }
    let points: Vec<(f64, f64, String)> = by_round
        .iter()
        .filter(|(_, t)| t.decisions > 0)
        .map(|(round, t)| {
            let e = t.error_per_decision();
            let tip = format!(
                "best players, round {round}: {} per decision, {} decisions",
                fixed(e, 4),
                t.decisions
            );
            (f64::from(*round), e, tip)
        })
        .collect();
    if !points.is_empty() && !series.is_empty() {
        let label = match best.len() {
            1 => "best player".to_string(),
            n => format!("best {n} players"),
        };
        series.push(Series {
            class: "best".into(),
            label,
            color: BEST_COLOR,
            dashed: true,
            points,
        });
    }
    series
}

/// The difficulty chart of a part's games of `rounds` rounds (`#round-chart-UNIT-ROUNDS`; `id`
/// is the part's, `UNIT-ROUNDS`).
fn round_chart(
    aggregates: &Aggregates,
    rounds: u16,
    best: &[&Ranked],
    unit: Unit,
    id: &str,
) -> String {
    let series = round_series(aggregates, rounds, best);
    let last = if rounds == 0 {
        series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0 as u32))
            .max()
            .unwrap_or(13)
    } else {
        u32::from(rounds)
    };
    let (top, bottom) = (24.0, 330.0);
    let legend_rows = series.len().div_ceil(3).max(1);
    let height = bottom + 62.0 + 24.0 * legend_rows as f64;
    let max = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| finite(p.1)))
        .fold(0.0, f64::max);
    let (y_top, step) = nice_axis(max, false);
    let x = Scale::slots(f64::from(last), LEFT, RIGHT);
    let y = Scale::from_zero(y_top, bottom, top);
    let mut out = String::new();
    let desc = if series.is_empty() {
        "No decisions were rated.".to_string()
    } else {
        let names: Vec<&str> = series.iter().map(|s| s.label.as_str()).collect();
        format!(
            "Mean error per decision in {} by round, rounds 1 to {last}; lines: {}.",
            unit.name(),
            names.join("; ")
        )
    };
    svg_open(
        &mut out,
        &format!("round-chart-{id}"),
        height,
        &format!("Mean error per decision by round ({})", unit.short()),
        &desc,
    );
    plot_background(&mut out, top, bottom);
    y_axis(
        &mut out,
        y,
        y_top,
        step,
        &format!("error per decision ({})", unit.short()),
    );
    out.push_str("<g class=\"x-axis\">\n");
    let every = last.div_ceil(20).max(1);
    for round in (1..=last).filter(|r| (r - 1) % every == 0) {
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

/// The range of class `i` (0 fine .. 3 blunder) under `t`, in words.
fn class_range(i: usize, t: Thresholds) -> String {
    let n = |x: f64| format!("{x}");
    match i {
        0 => format!("below {}", n(t.doubtful)),
        1 => format!("{} to {}", n(t.doubtful), n(t.error)),
        2 => format!("{} to {}", n(t.error), n(t.blunder)),
        _ => format!("{} and more", n(t.blunder)),
    }
}

/// Decisions by class, one bar per class in its color (`#error-classes-UNIT`).
fn class_chart(part: &Aggregates, unit: Unit, thresholds: Thresholds, id: &str) -> String {
    let counts = part.all.classes.0;
    let total: u64 = counts.iter().sum();
    let max = counts.iter().copied().max().unwrap_or(0);
    let (top, bottom) = (34.0, 320.0);
    let height = bottom + 56.0;
    let (y_top, step) = nice_axis(max as f64, true);
    let y = Scale::from_zero(y_top, bottom, top);
    let band = (RIGHT - LEFT) / counts.len() as f64;
    let mut out = String::new();
    let desc = if total == 0 {
        "No decisions were rated.".to_string()
    } else {
        let parts: Vec<String> = CLASS_NAMES
            .iter()
            .zip(counts)
            .enumerate()
            .map(|(i, (name, n))| format!("{name} ({}): {n}", class_range(i, thresholds)))
            .collect();
        format!(
            "Decisions by class of their error in {}, {total} in all; {}.",
            unit.name(),
            parts.join("; ")
        )
    };
    svg_open(
        &mut out,
        &format!("error-classes-{id}"),
        height,
        &format!("Decisions by class of error ({})", unit.short()),
        &desc,
    );
    plot_background(&mut out, top, bottom);
    y_axis(&mut out, y, y_top, step, "decisions");
    axes(&mut out, top, bottom);
    for (i, n) in counts.into_iter().enumerate() {
        let cx = LEFT + band * (i as f64 + 0.5);
        let bar_top = if n > 0 {
            y.at(n as f64).min(bottom - 1.0)
        } else {
            bottom
        };
        let _ = writeln!(
            out,
            "<rect class=\"bar {}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">\
             <title>{}, error {} {}: {n} decisions ({}%)</title></rect>",
            CLASS_NAMES[i],
            px(cx - band * 0.36),
            px(bar_top),
            px(band * 0.72),
            px(bottom - bar_top),
            CLASS_COLORS[i],
            CLASS_NAMES[i],
            class_range(i, thresholds),
            unit.short(),
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
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{} ({})</text>",
            px(cx),
            px(bottom + 20.0),
            CLASS_NAMES[i],
            class_range(i, thresholds)
        );
    }
    axis_title(
        &mut out,
        (LEFT + RIGHT) / 2.0,
        bottom + 44.0,
        &format!("class of the decision, by its error ({})", unit.short()),
    );
    if total == 0 {
        no_data(&mut out, top, bottom, "no decisions rated");
    }
    out.push_str("</svg>\n");
    out
}

/// The legend of the class chart: each class's color, name and range, and how many fine
/// decisions were the best move.
fn class_legend(out: &mut String, unit: Unit, thresholds: Thresholds, part: &Aggregates) {
    out.push_str("<ul class=\"legend class-legend\">\n");
    for (i, name) in CLASS_NAMES.iter().enumerate() {
        let _ = writeln!(
            out,
            "<li class=\"legend-{name}\"><span class=\"swatch\" style=\"background: {}\">\
             </span>{name}: error {} {}</li>",
            CLASS_COLORS[i],
            class_range(i, thresholds),
            unit.short()
        );
    }
    out.push_str("</ul>\n");
    let best = part.histogram.counts.get(&0).copied().unwrap_or(0);
    let _ = writeln!(
        out,
        "<p class=\"note\">Of the {} fine decisions, {best} were the best move (error 0). \
         The thresholds are those of summary.json.</p>",
        part.all.classes[Class::Fine]
    );
}

/// Error per decision by decision kind, as horizontal bars (`#kind-chart-UNIT`).
fn kind_chart(aggregates: &Aggregates, unit: Unit, id: &str) -> String {
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
        format!(
            "Mean error per decision in {} by kind; {}.",
            unit.name(),
            parts.join("; ")
        )
    };
    svg_open(
        &mut out,
        &format!("kind-chart-{id}"),
        height,
        &format!(
            "Mean error per decision by decision kind ({})",
            unit.short()
        ),
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
    x_value_axis(&mut out, x, x_top, step, top, bottom);
    axes_between(&mut out, left, right, top, bottom);
    for (i, (kind, t)) in KINDS.iter().zip(&aggregates.kinds).enumerate() {
        let cy = top + row * (i as f64 + 0.5);
        let e = t.error_per_decision();
        let w = x.at(e) - left;
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" dy=\"4\" text-anchor=\"end\">{kind}</text>\
             <rect class=\"bar kind-{i}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
             fill=\"{}\"><title>{kind}: {} {} per decision, {} decisions</title></rect>\
             <text class=\"value\" x=\"{}\" y=\"{}\" dy=\"4\">{}</text>",
            px(left - 10.0),
            px(cy),
            px(left),
            px(cy - row * 0.3),
            px(w.max(0.0)),
            px(row * 0.6),
            SEAT_COLORS[0],
            fixed(e, 4),
            unit.short(),
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
fn kind_table(out: &mut String, aggregates: &Aggregates, unit: Unit, id: &str) {
    let u = unit.short();
    let _ = writeln!(
        out,
        "<table id=\"kind-table-{id}\" class=\"kinds\">\n<thead><tr><th>decision kind</th>\
         <th class=\"num\">decisions</th><th class=\"num\">not forced</th>\
         <th class=\"num\">total error<br>({u})</th><th class=\"num\">error/decision<br>({u})</th>\
         <th class=\"num\">doubtful</th><th class=\"num\">errors</th>\
         <th class=\"num\">blunders</th></tr></thead>\n<tbody>"
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

/// A sortable header cell: `num` for a numeric column.
fn sortable(label: &str, num: bool) -> String {
    let class = if num { "num sortable" } else { "sortable" };
    format!(
        "<th class=\"{class}\" data-type=\"{}\">{label}</th>",
        if num { "num" } else { "text" }
    )
}

/// The leaderboard table of one part: every ranked player, each linked to their page (`pages`);
/// sortable by any column.
fn leaderboard_section(
    out: &mut String,
    board: &Leaderboard,
    best: &[&Ranked],
    min_games: u64,
    id: &str,
    pages: &BTreeMap<(PartKey, String), String>,
) {
    let unit = board.unit;
    let ranked = &board.ranked;
    let s = if min_games == 1 { "" } else { "s" };
    let _ = writeln!(
        out,
        "<section id=\"leaderboard-{id}\" class=\"leaderboard\">\n<h2>Leaderboard ({})</h2>\n\
         <p class=\"note\">All {} players of these {} with at least {min_games} game{s}, \
         ranked by error per game ({} lost per game against optimal play). The 95% \
         confidence interval is by game. Accuracy (0 to 100) is the mean of the player's \
         games', and the rating a label by error per non-forced decision (docs/methods.md). \
         Highlighted: the best players of the round chart. \
         Click a column's header to sort by it; a name opens the player's page.</p>",
        unit.short(),
        ranked.len(),
        escape(&board.games),
        unit.name()
    );
    let u = unit.short();
    let _ = writeln!(
        out,
        "<div class=\"board-wrap\">\n<table id=\"leaderboard-table-{id}\" class=\"board\">\n\
         <thead><tr>{}{}{}{}<th class=\"num\">95% CI<br>(of error/game)</th>{}{}{}{}{}{}</tr>\
         </thead>\n<tbody>",
        sortable("rank", true),
        sortable("player", false),
        sortable("games", true),
        sortable(&format!("error/game<br>({u})"), true),
        sortable(&format!("error/decision<br>({u})"), true),
        sortable("accuracy", true),
        sortable("rating", false),
        sortable("doubtful", true),
        sortable("errors", true),
        sortable("blunders", true),
    );
    if ranked.is_empty() {
        let hint = super::text::min_games_hint(board, min_games)
            .map(|h| format!(": {}", escape(&h)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "<tr><td colspan=\"11\">No player has at least {min_games} game{s}{hint}.</td></tr>"
        );
    }
    for r in ranked {
        let p = r.stats;
        let (lo, hi) = p.error_per_game_ci();
        let (accuracy, label) = super::accuracy_and_label(p, unit);
        let class = if best.iter().any(|b| b.rank == r.rank) {
            " class=\"best\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<tr{class}><td class=\"num\">{}</td><td>{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">[{}, {}]</td>\
             <td class=\"num\">{}</td><td class=\"num\">{accuracy}</td><td>{label}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            r.rank,
            match pages.get(&(board.key, r.name.to_string())) {
                Some(page) => format!("<a href=\"{}\">{}</a>", escape(page), escape(r.name)),
                None => escape(r.name),
            },
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
    out.push_str("</tbody>\n</table>\n</div>\n</section>\n");
}

/// Sorts a table of class `board` by the column whose sortable header is clicked (numbers by
/// value, text by locale; a second click reverses). No library: the page stays one file.
const SORT_SCRIPT: &str = "<script>
for (const table of document.querySelectorAll('table.board')) {
  const heads = table.tHead.rows[0].cells;
  for (const th of heads) {
    if (!th.classList.contains('sortable')) continue;
    th.addEventListener('click', () => {
      const col = th.cellIndex, num = th.dataset.type === 'num';
      const up = th.getAttribute('aria-sort') !== 'ascending';
      for (const h of heads) h.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
      const body = table.tBodies[0];
      const rows = Array.from(body.rows);
      const key = r => num ? parseFloat(r.cells[col].textContent) : r.cells[col].textContent;
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        const c = num ? x - y : String(x).localeCompare(String(y));
        return up ? c : -c;
      });
      for (const r of rows) body.appendChild(r);
    });
  }
}
</script>
";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aggregate::{ClassCounts, PlayerStats, SeatsTurn};
    use crate::ranking::leaderboards;

    /// A tally of `decisions` decisions with `error` points of error in all.
    fn tally(decisions: u64, error: f64) -> Tally {
        Tally {
            decisions,
            unforced: decisions,
            error_nano: (error * 1e9) as i128,
            luck_nano: 0,
            classes: ClassCounts([decisions, 0, 0, 0]),
            agreed: 0,
        }
    }

    /// One part with the turns of `seats`-player games of `rounds` rounds, two players and
    /// classes spread over the four classes.
    fn part(seats: u16, rounds: u16) -> Aggregates {
        let mut a = Aggregates {
            games: 3,
            all: Tally {
                classes: ClassCounts([60, 15, 10, 5]),
                ..tally(90, 30.0)
            },
            kinds: [tally(30, 12.0), tally(30, 9.0), tally(30, 9.0)],
            ..Default::default()
        };
        for turn in 1..=rounds * seats {
            a.turns.insert(
                SeatsTurn {
                    rounds,
                    seats,
                    turn,
                },
                tally(3, f64::from(turn) * 0.1),
            );
        }
        let rules = if rounds == 15 { "yatzy" } else { "yahtzee" };
        a.rule_sets.insert(rules.into(), 3);
        for (name, games, error) in [("<b>&\"x\"", 2, 20.0), ("sim01", 3, 1.0)] {
            let mut p = PlayerStats {
                games,
                all: tally(40, error),
                ..Default::default()
            };
            for round in 1..=rounds {
                p.rounds.insert(round, tally(3, error / 13.0));
            }
            a.players.insert(name.into(), p);
        }
        a.histogram.counts.insert(0, 50);
        a
    }

    /// The key of a part.
    fn key(unit: Unit, rounds: u16) -> PartKey {
        PartKey { unit, rounds }
    }

    /// An analysis of these parts.
    fn parts(list: Vec<(PartKey, Aggregates)>) -> Parts {
        Parts(list.into_iter().collect())
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

    /// The page of `a`, with no skipped game.
    fn page(a: &Parts, oracle: &str, min_games: u64) -> String {
        let boards = leaderboards(a, min_games);
        report_html(&ReportInput {
            aggregates: a,
            boards: &boards,
            summary: &Summary::default(),
            oracle,
            thresholds: UnitThresholds::DEFAULT,
            min_games,
        })
    }

    /// Points only, games of 13 rounds.
    fn points(part: Aggregates) -> Parts {
        parts(vec![(key(Unit::Points, 13), part)])
    }

    #[test]
    fn player_names_are_escaped_and_linked() {
        let html = page(&points(part(1, 13)), "oracle <o>", 1);
        assert!(html.contains("&lt;b&gt;&amp;&quot;x&quot;"), "escaped name");
        assert!(!html.contains("<b>&\"x\""), "raw name in the page");
        assert!(html.contains("oracle &lt;o&gt;"));
        assert!(html.contains("<a href=\"players/sim01.html\">sim01</a>"));
        assert_eq!(escape("a'b"), "a&#39;b");
    }

    #[test]
    fn empty_aggregates_give_a_valid_page() {
        let html = page(&Parts::default(), "solitaire", 5);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.trim_end().ends_with("</html>"));
        assert!(html.contains("nothing to show"));
        for id in [
            "round-chart-points-13",
            "error-classes-points-13",
            "kind-chart-points-13",
        ] {
            assert!(html.contains(&format!("<svg id=\"{id}\"")), "{id}");
        }
        assert_eq!(html.matches("<svg").count(), html.matches("</svg>").count());
        assert_finite_coordinates(&html);
        assert!(html.contains("No player has at least 5 games."));
    }

    #[test]
    fn one_line_per_seat_and_one_for_the_best() {
        let html = page(&points(part(2, 13)), "solitaire", 1);
        assert_eq!(html.matches("<polyline class=\"series seat ").count(), 2);
        assert!(html.contains("class=\"series seat seats-2 seat-1\""));
        assert!(html.contains("class=\"series seat seats-2 seat-2\""));
        assert_eq!(html.matches("<polyline class=\"series best\"").count(), 1);
        // 13 rounds for each seat and for the best player.
        assert_eq!(html.matches("<circle class=\"point\"").count(), 3 * 13);
        assert_finite_coordinates(&html);
    }

    #[test]
    fn rule_families_of_different_lengths_get_a_chart_each() {
        let both = parts(vec![
            (key(Unit::Points, 13), part(1, 13)),
            (key(Unit::Points, 15), part(1, 15)),
        ]);
        let html = page(&both, "solitaire", 1);
        assert!(html.contains("<svg id=\"round-chart-points-13\""));
        assert!(html.contains("<svg id=\"round-chart-points-15\""));
        assert!(html.contains("One-player games of yatzy in expected points"));
        assert!(html.contains("<table id=\"leaderboard-table-points-13\""));
        assert!(html.contains("<table id=\"leaderboard-table-points-15\""));
        // The 15-round chart has rounds 1 to 15, the 13-round one 1 to 13.
        let chart = |id: &str| {
            let start = html.find(&format!("<svg id=\"{id}\"")).unwrap();
            html[start..start + html[start..].find("</svg>").unwrap()].to_string()
        };
        assert_eq!(
            chart("round-chart-points-15")
                .matches("<circle class=\"point\"")
                .count(),
            30
        );
        assert_eq!(
            chart("round-chart-points-13")
                .matches("<circle class=\"point\"")
                .count(),
            26
        );
    }

    #[test]
    fn each_unit_gets_its_own_part_headed_with_its_unit() {
        let both = parts(vec![
            (key(Unit::Points, 13), part(1, 13)),
            (key(Unit::MatchPoints, 13), part(2, 13)),
        ]);
        let html = page(&both, "default", 1);
        assert!(html.contains("id=\"units\""), "the two-unit note");
        for id in ["points-13", "match-points-13"] {
            for chart in ["error-classes", "kind-chart"] {
                assert!(
                    html.contains(&format!("<svg id=\"{chart}-{id}\"")),
                    "{chart}-{id}"
                );
            }
            assert!(html.contains(&format!("<table id=\"leaderboard-table-{id}\"")));
        }
        assert!(html.contains("One-player games of yahtzee in expected points"));
        assert!(html.contains("Games of several players of yahtzee in expected match points"));
        assert!(html.contains("error/game<br>(match points)"));
        assert!(html.contains("error/game<br>(points)"));
    }

    #[test]
    fn class_bars_follow_the_classes_of_the_unit() {
        let both = parts(vec![
            (key(Unit::Points, 13), part(1, 13)),
            (key(Unit::MatchPoints, 13), part(2, 13)),
        ]);
        let html = page(&both, "default", 1);
        let chart = |id: &str| {
            let start = html
                .find(&format!("<svg id=\"error-classes-{id}\""))
                .unwrap();
            let end = start + html[start..].find("</svg>").unwrap();
            html[start..end].to_string()
        };
        for (id, t) in [
            ("points-13", Thresholds::POINTS),
            ("match-points-13", Thresholds::MATCH_POINTS),
        ] {
            let svg = chart(id);
            assert_eq!(svg.matches("<rect class=\"bar ").count(), 4, "{id}");
            for (i, name) in CLASS_NAMES.iter().enumerate() {
                assert!(
                    svg.contains(&format!("<rect class=\"bar {name}\"")),
                    "{id}: bar {name}"
                );
                assert!(svg.contains(&format!("fill=\"{}\"", CLASS_COLORS[i])));
            }
            assert!(svg.contains(&format!("{}: 15", "doubtful")) || svg.contains("15 decisions"));
            assert!(
                svg.contains(&format!("blunder ({} and more)", t.blunder)),
                "{id}"
            );
        }
    }

    #[test]
    fn best_players_are_a_tenth_at_least_one() {
        let a = part(1, 13);
        let board = crate::ranking::leaderboard(&a, 1);
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
        assert_eq!(super::super::svg::step_decimals(0.25), 2);
        assert_eq!(super::super::svg::step_decimals(2000.0), 0);
        assert_eq!(fixed(f64::INFINITY, 2), "0.00");
    }

    #[test]
    fn the_page_is_deterministic() {
        let a = points(part(2, 13));
        assert_eq!(page(&a, "solitaire", 1), page(&a, "solitaire", 1));
    }
}
