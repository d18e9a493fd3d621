//! One player's report (`dicelens player`): the overview with the player's percentile among
//! players, errors by round and by decision kind, the worst decisions, and the monthly trend;
//! as text, as JSON, and as a self-contained HTML page with hand-written SVG charts
//! (`player-rounds`, `player-trend`). Every output is a pure function of its inputs.

use super::html::STYLE;
use super::rows::DecisionRow;
use super::svg::{
    axes, axis_title, escape, finite, fixed, nice_axis, no_data, plot_background, px, svg_open,
    y_axis, Scale, LEFT, RIGHT,
};
use super::Unit;
use crate::aggregate::{Aggregates, PlayerStats, Tally, KINDS};
use crate::rate::Class;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Decisions listed among the worst.
pub const WORST: usize = 10;

/// Everything the player report shows.
pub struct PlayerReport<'a> {
    /// The player's name.
    pub name: &'a str,
    /// The player's statistics.
    pub stats: &'a PlayerStats,
    /// Other players in the aggregates.
    pub others: usize,
    /// Other players with a higher error per game.
    pub higher: usize,
    /// What rated the decisions.
    pub oracle: String,
    /// Where the numbers come from (log files, or an `aggregates.json`).
    pub source: String,
    /// The worst decisions, worst first; `None` when made from aggregates.
    pub worst: Option<Vec<DecisionRow<'static>>>,
    /// What the errors are in.
    pub unit: Unit,
}

/// Why the worst decisions are missing from a report made from aggregates.
const NO_WORST: &str = "not available: this report was made from aggregates (--from), which \
                        keep no single decision; run `dicelens player NAME FILES...` on the logs";

impl<'a> PlayerReport<'a> {
    /// The report of `name` (which must be in `aggregates`).
    pub fn new(
        aggregates: &'a Aggregates,
        name: &'a str,
        stats: &'a PlayerStats,
        oracle: String,
        source: String,
        worst: Option<Vec<DecisionRow<'static>>>,
        unit: Unit,
    ) -> PlayerReport<'a> {
        let mine = stats.error_per_game();
        let others = aggregates.players.len().saturating_sub(1);
        let higher = aggregates
            .players
            .iter()
            .filter(|(n, p)| n.as_str() != name && p.error_per_game() > mine)
            .count();
        PlayerReport {
            name,
            stats,
            others,
            higher,
            oracle,
            source,
            worst,
            unit,
        }
    }

    /// Percentile among players: the share (percent) of the other players with a higher
    /// error per game (100 when there is no other player).
    pub fn percentile(&self) -> f64 {
        if self.others == 0 {
            100.0
        } else {
            self.higher as f64 * 100.0 / self.others as f64
        }
    }
}

/// Games and error (nano-points) per month (`YYYY.MM`, the first seven characters of the date).
pub fn months(stats: &PlayerStats) -> BTreeMap<String, (u64, i128)> {
    let mut out: BTreeMap<String, (u64, i128)> = BTreeMap::new();
    for (day, (games, error)) in &stats.days {
        let month = day.get(..7).unwrap_or(day);
        let m = out.entry(month.to_string()).or_default();
        m.0 += games;
        m.1 += error;
    }
    out
}

/// Error per game of a month.
fn month_rate(games: u64, error_nano: i128) -> f64 {
    if games == 0 {
        0.0
    } else {
        error_nano as f64 / 1e9 / games as f64
    }
}

/// Luck per game.
fn luck_per_game(p: &PlayerStats) -> f64 {
    if p.games == 0 {
        0.0
    } else {
        p.all.total_luck() / p.games as f64
    }
}

/// The report as text.
pub fn text(r: &PlayerReport) -> String {
    let p = r.stats;
    let mut out = String::new();
    let _ = writeln!(out, "player {}; oracle: {}", r.name, r.oracle);
    let _ = writeln!(out, "source: {}", r.source);
    let (lo, hi) = p.error_per_game_ci();
    out.push_str("\noverview\n");
    let rows = [
        ("games", p.games.to_string()),
        ("decisions", p.all.decisions.to_string()),
        ("not forced", p.all.unforced.to_string()),
        ("total error", format!("{:.6}", p.all.total_error())),
        (
            "error per game",
            format!("{:.4} (95% CI [{lo:.4}, {hi:.4}])", p.error_per_game()),
        ),
        (
            "error per decision",
            format!("{:.6}", p.all.error_per_decision()),
        ),
        (
            "decisions by class",
            format!(
                "fine {}, doubtful {}, errors {}, blunders {}",
                p.all.classes[Class::Fine],
                p.all.classes[Class::Doubtful],
                p.all.classes[Class::Error],
                p.all.classes[Class::Blunder]
            ),
        ),
        (
            "luck",
            format!(
                "{:.4} ({:.4} per game)",
                p.all.total_luck(),
                luck_per_game(p)
            ),
        ),
        (
            "percentile",
            format!(
                "{:.1} (error per game higher for {} of the {} other players)",
                r.percentile(),
                r.higher,
                r.others
            ),
        ),
    ];
    for (k, v) in rows {
        let _ = writeln!(out, "  {k:<20} {v}");
    }
    out.push_str("\nerrors by round\n");
    let _ = writeln!(
        out,
        "  {:>5} {:>9} {:>12} {:>10}",
        "round", "decisions", "total error", "err/dec"
    );
    for (round, t) in &p.rounds {
        let _ = writeln!(
            out,
            "  {round:>5} {:>9} {:>12.4} {:>10.6}",
            t.decisions,
            t.total_error(),
            t.error_per_decision()
        );
    }
    out.push_str("\nerrors by decision kind\n");
    let _ = writeln!(
        out,
        "  {:<18} {:>9} {:>12} {:>10}",
        "kind", "decisions", "total error", "err/dec"
    );
    for (kind, t) in KINDS.iter().zip(&p.kinds) {
        let _ = writeln!(
            out,
            "  {kind:<18} {:>9} {:>12.4} {:>10.6}",
            t.decisions,
            t.total_error(),
            t.error_per_decision()
        );
    }
    out.push_str("\nworst decisions\n");
    match &r.worst {
        None => {
            let _ = writeln!(out, "  {NO_WORST}");
        }
        Some(worst) if worst.is_empty() => out.push_str("  none\n"),
        Some(worst) => {
            let _ = writeln!(
                out,
                "  {:<14} {:>5} {:>4} {:<34} {:>5} {:>6}  {:<5} {:<10} {:>9}  {:<10} {:>9} {:>8}",
                "game",
                "round",
                "roll",
                "filled",
                "upper",
                "points",
                "dice",
                "choice",
                "value",
                "best",
                "value",
                "loss"
            );
            for w in worst {
                let _ = writeln!(
                    out,
                    "  {:<14} {:>5} {:>4} {:<34} {:>5} {:>6}  {:<5} {:<10} {:>9.4}  {:<10} {:>9.4} {:>8.4}",
                    w.game,
                    w.round,
                    w.roll,
                    w.filled(),
                    w.upper_total(),
                    w.points(),
                    w.dice.to_string(),
                    w.choice.to_string(),
                    w.value,
                    w.best.to_string(),
                    w.best_value,
                    w.loss
                );
            }
        }
    }
    let months = months(p);
    if !months.is_empty() {
        out.push_str("\ntrend by month\n");
        let _ = writeln!(out, "  {:<7} {:>6} {:>10}", "month", "games", "err/game");
        for (month, (games, error)) in &months {
            let _ = writeln!(
                out,
                "  {month:<7} {games:>6} {:>10.4}",
                month_rate(*games, *error)
            );
        }
    }
    out
}

/// A tally as JSON.
fn tally_json(t: &Tally) -> serde_json::Value {
    serde_json::json!({
        "decisions": t.decisions,
        "unforced": t.unforced,
        "total_error": t.total_error(),
        "error_per_decision": t.error_per_decision(),
    })
}

/// The report as JSON (the same content as the text).
pub fn json(r: &PlayerReport) -> serde_json::Value {
    let p = r.stats;
    let (lo, hi) = p.error_per_game_ci();
    let rounds: Vec<serde_json::Value> = p
        .rounds
        .iter()
        .map(|(round, t)| {
            let mut v = tally_json(t);
            v["round"] = serde_json::json!(round);
            v
        })
        .collect();
    let kinds: Vec<serde_json::Value> = KINDS
        .iter()
        .zip(&p.kinds)
        .map(|(kind, t)| {
            let mut v = tally_json(t);
            v["kind"] = serde_json::json!(kind);
            v
        })
        .collect();
    let worst = r.worst.as_ref().map(|worst| {
        worst
            .iter()
            .map(|w| {
                serde_json::json!({
                    "game": w.game, "round": w.round, "roll": w.roll,
                    "filled": w.filled(), "upper_total": w.upper_total(), "points": w.points(),
                    "dice": w.dice.to_string(), "choice": w.choice.to_string(),
                    "value": w.value, "best": w.best.to_string(), "best_value": w.best_value,
                    "loss": w.loss,
                })
            })
            .collect::<Vec<_>>()
    });
    let trend: Vec<serde_json::Value> = months(p)
        .iter()
        .map(|(month, (games, error))| {
            serde_json::json!({
                "month": month, "games": games,
                "total_error": *error as f64 / 1e9,
                "error_per_game": month_rate(*games, *error),
            })
        })
        .collect();
    serde_json::json!({
        "player": r.name,
        "oracle": r.oracle,
        "unit": r.unit.name(),
        "source": r.source,
        "overview": {
            "games": p.games,
            "decisions": p.all.decisions,
            "unforced": p.all.unforced,
            "total_error": p.all.total_error(),
            "error_per_game": p.error_per_game(),
            "ci95": [lo, hi],
            "error_per_decision": p.all.error_per_decision(),
            "fine": p.all.classes[Class::Fine],
            "doubtful": p.all.classes[Class::Doubtful],
            "errors": p.all.classes[Class::Error],
            "blunders": p.all.classes[Class::Blunder],
            "luck": p.all.total_luck(),
            "luck_per_game": luck_per_game(p),
            "percentile": r.percentile(),
            "other_players": r.others,
            "other_players_with_higher_error": r.higher,
        },
        "rounds": rounds,
        "kinds": kinds,
        "worst": worst,
        "worst_note": if r.worst.is_none() { Some(NO_WORST) } else { None },
        "trend": trend,
    })
}

/// A file name for the player's page: letters, digits, `-` and `_` kept, anything else `_`.
pub fn file_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty() {
        "player.html".into()
    } else {
        format!("{safe}.html")
    }
}

/// The player's page: one self-contained HTML5 document.
pub fn html(r: &PlayerReport) -> String {
    let p = r.stats;
    let mut out = String::with_capacity(32 * 1024);
    let title = format!("dicelens player report: {}", escape(r.name));
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n"
    );
    let _ = writeln!(
        out,
        "<header>\n<h1>{title}</h1>\n<p>dicelens {} &middot; oracle: {}</p>\n<p>{}</p>\n</header>",
        env!("CARGO_PKG_VERSION"),
        escape(&r.oracle),
        escape(&r.source)
    );
    let (lo, hi) = p.error_per_game_ci();
    out.push_str("<section id=\"overview\">\n<h2>Overview</h2>\n<dl class=\"facts\">\n");
    let facts = [
        ("games", p.games.to_string()),
        ("decisions", p.all.decisions.to_string()),
        ("not forced", p.all.unforced.to_string()),
        ("error per game", fixed(p.error_per_game(), 4)),
        (
            "95% CI",
            format!("{} \u{2013} {}", fixed(lo, 4), fixed(hi, 4)),
        ),
        ("error per decision", fixed(p.all.error_per_decision(), 6)),
        ("doubtful", p.all.classes[Class::Doubtful].to_string()),
        ("errors", p.all.classes[Class::Error].to_string()),
        ("blunders", p.all.classes[Class::Blunder].to_string()),
        ("luck per game", fixed(luck_per_game(p), 4)),
        ("percentile", fixed(r.percentile(), 1)),
    ];
    for (k, v) in facts {
        let _ = writeln!(out, "<div><dt>{k}</dt><dd>{v}</dd></div>");
    }
    out.push_str("</dl>\n");
    let _ = writeln!(
        out,
        "<p class=\"note\">Percentile: the error per game is higher for {} of the {} other \
         players.</p>\n</section>",
        r.higher, r.others
    );

    out.push_str("<section id=\"rounds\">\n<h2>Error by round</h2>\n");
    out.push_str(&rounds_chart(p, r.unit));
    out.push_str(
        "<table>\n<thead><tr><th class=\"num\">round</th><th class=\"num\">decisions</th>\
         <th class=\"num\">total error</th><th class=\"num\">error per decision</th></tr>\
         </thead>\n<tbody>\n",
    );
    for (round, t) in &p.rounds {
        tally_row(&mut out, &round.to_string(), t);
    }
    out.push_str("</tbody>\n</table>\n</section>\n");

    out.push_str(
        "<section id=\"kinds\">\n<h2>Error by decision kind</h2>\n<table>\n<thead><tr>\
                  <th>kind</th><th class=\"num\">decisions</th><th class=\"num\">total error</th>\
                  <th class=\"num\">error per decision</th></tr></thead>\n<tbody>\n",
    );
    for (kind, t) in KINDS.iter().zip(&p.kinds) {
        tally_row(&mut out, kind, t);
    }
    out.push_str("</tbody>\n</table>\n</section>\n");

    out.push_str("<section id=\"worst\">\n<h2>Worst decisions</h2>\n");
    match &r.worst {
        None => {
            let _ = writeln!(out, "<p class=\"empty\">{}</p>", escape(NO_WORST));
        }
        Some(worst) if worst.is_empty() => out.push_str("<p class=\"note\">None.</p>\n"),
        Some(worst) => {
            out.push_str(
                "<table>\n<thead><tr><th>game</th><th class=\"num\">round</th>\
                 <th class=\"num\">roll</th><th>filled</th><th class=\"num\">upper</th>\
                 <th class=\"num\">points</th><th>dice</th><th>choice</th>\
                 <th class=\"num\">value</th><th>best</th><th class=\"num\">value</th>\
                 <th class=\"num\">loss</th></tr></thead>\n<tbody>\n",
            );
            for w in worst {
                let _ = writeln!(
                    out,
                    "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                     <td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td>\
                     <td>{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td>\
                     <td class=\"num\">{}</td></tr>",
                    escape(&w.game),
                    w.round,
                    w.roll,
                    escape(&w.filled()),
                    w.upper_total(),
                    w.points(),
                    escape(&w.dice.to_string()),
                    escape(&w.choice.to_string()),
                    fixed(w.value, 4),
                    escape(&w.best.to_string()),
                    fixed(w.best_value, 4),
                    fixed(w.loss, 4)
                );
            }
            out.push_str("</tbody>\n</table>\n");
        }
    }
    out.push_str("</section>\n");

    out.push_str("<section id=\"trend\">\n<h2>Trend by month</h2>\n");
    out.push_str(&trend_chart(p, r.unit));
    out.push_str("</section>\n");
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// One table row: label, decisions, total error, error per decision.
fn tally_row(out: &mut String, label: &str, t: &Tally) {
    let _ = writeln!(
        out,
        "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
         <td class=\"num\">{}</td></tr>",
        escape(label),
        t.decisions,
        fixed(t.total_error(), 4),
        fixed(t.error_per_decision(), 6)
    );
}

/// Plot area of both charts.
const TOP: f64 = 24.0;
const BOTTOM: f64 = 300.0;

/// An x axis with `labels` at their positions, and its title.
fn x_axis(out: &mut String, labels: &[(f64, String)], title: &str) {
    out.push_str("<g class=\"x-axis\">\n");
    let every = labels.len().div_ceil(16).max(1);
    for (x, label) in labels.iter().step_by(every) {
        let _ = writeln!(
            out,
            "<path class=\"axis\" d=\"M{x} {b}v5\"/><text x=\"{x}\" y=\"{}\" \
             text-anchor=\"middle\">{}</text>",
            px(BOTTOM + 20.0),
            escape(label),
            x = px(*x),
            b = px(BOTTOM)
        );
    }
    axis_title(out, (LEFT + RIGHT) / 2.0, BOTTOM + 42.0, title);
    out.push_str("</g>\n");
}

/// Bars of the error per decision by round (`#player-rounds`).
fn rounds_chart(p: &PlayerStats, unit: Unit) -> String {
    let rounds: Vec<(u16, f64, u64)> = p
        .rounds
        .iter()
        .filter(|(_, t)| t.decisions > 0)
        .map(|(r, t)| (*r, finite(t.error_per_decision()), t.decisions))
        .collect();
    let last = rounds.iter().map(|r| r.0).max().unwrap_or(13).max(1);
    let max = rounds.iter().map(|r| r.1).fold(0.0, f64::max);
    let (y_top, step) = nice_axis(max, false);
    let x = Scale::slots(f64::from(last), LEFT, RIGHT);
    let y = Scale::from_zero(y_top, BOTTOM, TOP);
    let mut out = String::new();
    svg_open(
        &mut out,
        "player-rounds",
        BOTTOM + 56.0,
        "Mean error per decision by round",
        &format!("The player's mean error per decision in each round, rounds 1 to {last}."),
    );
    plot_background(&mut out, TOP, BOTTOM);
    let title = format!("mean error per decision ({})", unit.short());
    y_axis(&mut out, y, y_top, step, &title);
    let labels: Vec<(f64, String)> = (1..=last)
        .map(|r| (x.at(f64::from(r)), r.to_string()))
        .collect();
    x_axis(&mut out, &labels, "round");
    let width = (x.at(1.0) - x.at(0.0)) * 0.7;
    out.push_str("<g class=\"bars\">\n");
    for (round, e, decisions) in &rounds {
        let top = y.at(*e);
        let _ = writeln!(
            out,
            "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#1f6fb4\">\
             <title>round {round}: {} per decision, {decisions} decisions</title></rect>",
            px(x.at(f64::from(*round)) - width / 2.0),
            px(top),
            px(width),
            px(BOTTOM - top),
            fixed(*e, 4)
        );
    }
    out.push_str("</g>\n");
    axes(&mut out, TOP, BOTTOM);
    if rounds.is_empty() {
        no_data(&mut out, TOP, BOTTOM, "no decisions rated");
    }
    out.push_str("</svg>\n");
    out
}

/// The line of the error per game by month (`#player-trend`).
fn trend_chart(p: &PlayerStats, unit: Unit) -> String {
    let months: Vec<(String, u64, f64)> = months(p)
        .into_iter()
        .map(|(m, (g, e))| (m, g, finite(month_rate(g, e))))
        .collect();
    let max = months.iter().map(|m| m.2).fold(0.0, f64::max);
    let (y_top, step) = nice_axis(max, false);
    let x = Scale::slots(months.len().max(1) as f64, LEFT, RIGHT);
    let y = Scale::from_zero(y_top, BOTTOM, TOP);
    let mut out = String::new();
    let desc = if months.is_empty() {
        "The logs have no dates: there is no trend to show.".to_string()
    } else {
        format!(
            "The player's error per game in each month with games, {} months.",
            months.len()
        )
    };
    svg_open(
        &mut out,
        "player-trend",
        BOTTOM + 56.0,
        "Error per game by month",
        &desc,
    );
    plot_background(&mut out, TOP, BOTTOM);
    let title = format!("error per game ({})", unit.short());
    y_axis(&mut out, y, y_top, step, &title);
    let labels: Vec<(f64, String)> = months
        .iter()
        .enumerate()
        .map(|(i, m)| (x.at(i as f64 + 1.0), m.0.clone()))
        .collect();
    x_axis(&mut out, &labels, "month");
    axes(&mut out, TOP, BOTTOM);
    if months.is_empty() {
        no_data(&mut out, TOP, BOTTOM, "no dates in the logs");
    } else {
        let points: Vec<String> = labels
            .iter()
            .zip(&months)
            .map(|((px_x, _), m)| format!("{},{}", px(*px_x), px(y.at(m.2))))
            .collect();
        let _ = writeln!(
            out,
            "<polyline class=\"series\" points=\"{}\" fill=\"none\" stroke=\"#1f6fb4\" \
             stroke-width=\"2.5\"/>",
            points.join(" ")
        );
        for ((px_x, _), (month, games, e)) in labels.iter().zip(&months) {
            let _ = writeln!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"#1f6fb4\"><title>{}: {} per game, \
                 {games} games</title></circle>",
                px(*px_x),
                px(y.at(*e)),
                escape(month),
                fixed(*e, 4)
            );
        }
    }
    out.push_str("</svg>\n");
    out
}
