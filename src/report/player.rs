//! One player's report (`dicelens player`, and `players/` of an analysis): the overview with
//! the player's percentile among players, errors by round and by decision kind beside all
//! players' and the best players', the worst decisions (linked to their game pages in an
//! analysis), and the monthly trend with game counts and intervals; as text, as JSON, and as a
//! self-contained HTML page with hand-written SVG charts (`player-rounds`, `player-kinds`,
//! `player-trend`). Every output is a pure function of its inputs.

use super::page::STYLE;
use super::svg::{
    axes, axes_between, axis_title, escape, finite, fixed, legend, legend_rows, nice_axis, no_data,
    plot_background, plot_background_between, px, svg_open, x_value_axis, y_axis, LegendItem,
    Scale, LEFT, RIGHT,
};
use crate::aggregate::{mean_ci_small, Aggregates, PartKey, PlayerStats, Tally, KINDS};
use crate::ranking::{best_players, Leaderboard, Ranked};
use crate::rate::Class;
use crate::rate::Unit;
use crate::rows::DecisionRow;
use crate::screening::Screened;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// Color of the player's bars and points.
const PLAYER_COLOR: &str = "#1f6fb4";
/// Color of all players' bars.
const POPULATION_COLOR: &str = "#9aa3b2";
/// Color of the best players' bars (as in the analysis report).
const BEST_COLOR: &str = "#d1362f";
/// Color of the trend's intervals.
const INTERVAL_COLOR: &str = "#8fb6de";

/// Why the worst decisions are missing from a report made from an analysis's aggregates.
pub(crate) const NO_WORST_FROM: &str = "not available: this report was made from aggregates \
                                 (--from), which keep no single decision; run `dicelens player \
                                 NAME FILES...` on the logs";

/// Why the worst decisions are missing from a page of a merged analysis.
pub(crate) const NO_WORST_MERGED: &str = "not available: this page belongs to a merged analysis, \
                                   whose aggregates keep no single decision; `dicelens analyze` \
                                   of the logs lists them, each linked to its game";

/// Style rules of the player page beyond the report's.
const PAGE_STYLE: &str = "\
.wide { overflow-x: auto; }
#worst-table { font-size: 13.5px; }
#worst-table th { white-space: normal; vertical-align: bottom; }
#worst-table td { white-space: nowrap; }
#worst-table td.filled { white-space: normal; min-width: 9em; }
";

/// What luck is, said once wherever it is shown.
const LUCK_MEANING: &str = "luck: the value after each roll minus the value expected before \
                            it, summed over the player's rolls; positive when the rolls were \
                            better than expected";

/// A group of players a player is compared with: its errors by round and by decision kind.
pub struct Reference {
    /// Legend text (`all 12 players`, `best 2 players`).
    pub label: String,
    /// By round (1-based).
    pub rounds: BTreeMap<u16, Tally>,
    /// By decision kind.
    pub kinds: [Tally; 3],
}

/// Tallies summed by round; a round whose sums overflow their counters (only made-up
/// aggregates have them) is left out.
fn sum_by_round<'t>(tallies: impl Iterator<Item = (u16, &'t Tally)>) -> BTreeMap<u16, Tally> {
    let mut rounds: BTreeMap<u16, Tally> = BTreeMap::new();
    let mut overflowed = BTreeSet::new();
    for (round, t) in tallies {
        if rounds.entry(round).or_default().merge(t).is_err() {
            overflowed.insert(round);
        }
    }
    for round in overflowed {
        rounds.remove(&round);
    }
    rounds
}

/// `s` when `n` is not 1.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl Reference {
    /// Every player of `aggregates` (every decision rated).
    pub fn population(aggregates: &Aggregates) -> Reference {
        let players = aggregates.players.len();
        Reference {
            label: format!("all {players} player{}", plural(players)),
            rounds: sum_by_round(aggregates.turns.iter().map(|(k, t)| (k.round(), t))),
            kinds: aggregates.kinds.clone(),
        }
    }

    /// The best players of a leaderboard ([`crate::ranking::best_players`]); `None` when it is empty.
    pub fn best(board: &[Ranked]) -> Option<Reference> {
        let best = best_players(board);
        if best.is_empty() {
            return None;
        }
        let mut kinds: [Tally; 3] = Default::default();
        for r in &best {
            for (mine, theirs) in kinds.iter_mut().zip(&r.stats.kinds) {
                if mine.merge(theirs).is_err() {
                    return None;
                }
            }
        }
        let rounds = sum_by_round(
            best.iter()
                .flat_map(|r| r.stats.rounds.iter().map(|(round, t)| (*round, t))),
        );
        Some(Reference {
            label: format!("best {} player{}", best.len(), plural(best.len())),
            rounds,
            kinds,
        })
    }
}

/// What every player page of one analysis shares: the players it compares each player with,
/// the oracle, where the numbers come from, their unit.
pub struct Population {
    /// All players.
    pub all: Reference,
    /// The best players of the leaderboard, if it has any.
    pub best: Option<Reference>,
    /// Their names, best first.
    pub(crate) best_names: Vec<String>,
    /// Players on the leaderboard.
    pub ranked: usize,
    /// Least games for the leaderboard.
    pub min_games: u64,
    /// Every player's error per game, ascending (for percentiles).
    rates: Vec<f64>,
    /// What rated the decisions.
    pub oracle: String,
    /// Where the numbers come from (log files, an `aggregates.json`).
    pub source: String,
    /// What the errors and luck are in.
    pub unit: Unit,
}

impl Population {
    /// The population of `aggregates`, whose leaderboard is `board` (players with at least
    /// `min_games` games).
    pub fn new(
        aggregates: &Aggregates,
        board: &[Ranked],
        min_games: u64,
        oracle: String,
        source: String,
        unit: Unit,
    ) -> Population {
        let mut rates: Vec<f64> = aggregates
            .players
            .values()
            .map(PlayerStats::error_per_game)
            .collect();
        rates.sort_by(f64::total_cmp);
        Population {
            all: Reference::population(aggregates),
            best: Reference::best(board),
            best_names: best_players(board)
                .iter()
                .map(|r| r.name.to_string())
                .collect(),
            ranked: board.len(),
            min_games,
            rates,
            oracle,
            source,
            unit,
        }
    }

    /// Players whose error per game is higher than `rate`.
    fn higher_than(&self, rate: f64) -> usize {
        let not_higher = self
            .rates
            .partition_point(|r| r.total_cmp(&rate) != Ordering::Greater);
        self.rates.len() - not_higher
    }
}

/// Everything the player report shows.
pub struct PlayerReport<'a> {
    /// The player's name.
    pub name: &'a str,
    /// The player's statistics.
    pub stats: &'a PlayerStats,
    /// The players the player is compared with, and how the numbers were made.
    pub population: &'a Population,
    /// Other players in the aggregates.
    pub others: usize,
    /// Other players with a higher error per game.
    pub(crate) higher: usize,
    /// The worst decisions, worst first; `None` when the source keeps none.
    pub worst: Option<&'a [DecisionRow<'static>]>,
    /// Why the worst decisions are missing (when `worst` is `None`).
    pub(crate) no_worst: &'static str,
    /// The games with a page in `../games/` (the page is then in `players/` of an analysis,
    /// and links to them and to `../report.html`); `None` for a page on its own.
    pub game_pages: Option<&'a BTreeSet<String>>,
    /// The player's row of the engine-assistance screening of the part, if screened.
    pub screened: Option<Screened<'a>>,
}

impl<'a> PlayerReport<'a> {
    /// The report of `name`, whose statistics are `stats` (one of the population's players),
    /// with its worst decisions if known; a page on its own (no links).
    pub fn new(
        population: &'a Population,
        name: &'a str,
        stats: &'a PlayerStats,
        worst: Option<&'a [DecisionRow<'static>]>,
    ) -> PlayerReport<'a> {
        PlayerReport {
            name,
            stats,
            population,
            others: population.rates.len().saturating_sub(1),
            higher: population.higher_than(stats.error_per_game()),
            worst,
            no_worst: NO_WORST_FROM,
            game_pages: None,
            screened: None,
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

    /// The unit in short (`points`).
    fn unit(&self) -> &'static str {
        self.population.unit.short()
    }
}

/// One month of a player's trend.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Month {
    /// `YYYY.MM` (the first seven characters of the dates).
    pub month: String,
    /// Games that month.
    pub games: u64,
    /// Their error, nano-points.
    pub error_nano: i128,
    /// The sum of their squared game errors (micro-points squared), when known for every game
    /// of the month (an `aggregates.json` older than [`PlayerStats::days_sq`] lacks it).
    pub error_sq: Option<i128>,
}

impl Month {
    /// Mean error per game.
    pub fn error_per_game(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.error_nano as f64 / 1e9 / self.games as f64
        }
    }

    /// The 95% confidence interval of the error per game (by game, with Student's t factor, as
    /// a month may have few games; an error is never negative, so the interval is cut at 0);
    /// `None` with fewer than two games or the squares unknown.
    pub fn interval(&self) -> Option<(f64, f64)> {
        let sq = self.error_sq.filter(|_| self.games >= 2)?;
        let (lo, hi) = mean_ci_small(self.games, self.error_nano, sq);
        Some((lo.max(0.0), hi))
    }
}

/// The player's games by month, in order.
pub(crate) fn months(stats: &PlayerStats) -> Vec<Month> {
    let mut out: BTreeMap<&str, Month> = BTreeMap::new();
    for (day, (games, error)) in &stats.days {
        let month = day.get(..7).unwrap_or(day);
        let m = out.entry(month).or_insert_with(|| Month {
            month: month.to_string(),
            games: 0,
            error_nano: 0,
            error_sq: Some(0),
        });
        m.games += games;
        m.error_nano += error;
        m.error_sq = match (m.error_sq, stats.days_sq.get(day)) {
            (Some(sum), Some((counted, sq))) if counted == games => Some(sum + sq),
            _ => None,
        };
    }
    out.into_values().collect()
}

/// The mean error per decision of a round in a tally map, if it has decisions.
fn round_rate(rounds: &BTreeMap<u16, Tally>, round: u16) -> Option<f64> {
    rounds
        .get(&round)
        .filter(|t| t.decisions > 0)
        .map(Tally::error_per_decision)
}

/// The mean error per decision of a tally, if it has decisions.
fn tally_rate(t: &Tally) -> Option<f64> {
    (t.decisions > 0).then(|| t.error_per_decision())
}

/// Every round any of the player, all players and the best players has decisions in.
fn all_rounds(r: &PlayerReport) -> Vec<u16> {
    let mut rounds: BTreeSet<u16> = BTreeSet::new();
    let population = r.population;
    let maps = [Some(&r.stats.rounds), Some(&population.all.rounds)]
        .into_iter()
        .chain([population.best.as_ref().map(|b| &b.rounds)]);
    for map in maps.flatten() {
        rounds.extend(map.iter().filter(|(_, t)| t.decisions > 0).map(|(k, _)| *k));
    }
    rounds.into_iter().collect()
}

/// A rate with `decimals` fixed decimals, `-` when missing.
fn maybe(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "-".to_string(), |v| fixed(v, decimals))
}

/// An interval as `[lo, hi]`, `-` when missing.
fn interval_text(i: Option<(f64, f64)>) -> String {
    i.map_or_else(
        || "-".to_string(),
        |(lo, hi)| format!("[{}, {}]", fixed(lo, 4), fixed(hi, 4)),
    )
}

/// Whom the player is compared with, in a phrase: all players, and the best players with
/// their names (at most 8).
fn comparison(population: &Population) -> String {
    let Some(best) = &population.best else {
        return format!(
            "{} (every decision rated); no player has {} games or more, so there are no best \
             players to show",
            population.all.label, population.min_games
        );
    };
    let names = &population.best_names;
    let shown: Vec<&str> = names.iter().take(8).map(String::as_str).collect();
    let more = if names.len() > 8 {
        format!(" and {} more", names.len() - 8)
    } else {
        String::new()
    };
    format!(
        "{} (every decision rated) and the {}: the best tenth of the {} players with at least \
         {} games, by error per game ({}{more})",
        population.all.label,
        best.label,
        population.ranked,
        population.min_games,
        shown.join(", ")
    )
}

/// The report as text.
pub fn text(r: &PlayerReport) -> String {
    let p = r.stats;
    let population = r.population;
    let unit = r.unit();
    let best = population.best.as_ref();
    let mut out = String::new();
    let _ = writeln!(out, "player {}; oracle: {}", r.name, population.oracle);
    let _ = writeln!(out, "source: {}", population.source);
    let _ = writeln!(
        out,
        "errors and luck in {} (\"{unit}\" below)",
        population.unit.name()
    );
    let (lo, hi) = p.error_per_game_ci();
    out.push_str("\noverview\n");
    let rows = [
        ("games", p.games.to_string()),
        ("decisions", p.all.decisions.to_string()),
        ("not forced", p.all.unforced.to_string()),
        ("total error", format!("{:.6} {unit}", p.all.total_error())),
        (
            "error per game",
            format!(
                "{:.4} {unit} (95% CI [{lo:.4}, {hi:.4}])",
                p.error_per_game()
            ),
        ),
        (
            "error per decision",
            format!("{:.6} {unit}", p.all.error_per_decision()),
        ),
        ("accuracy", super::accuracy_and_label(p, population.unit).0),
        (
            "rating",
            super::accuracy_and_label(p, population.unit).1.into(),
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
                "{:.4} {unit} ({:.4} {unit} per game)",
                p.all.total_luck(),
                p.luck_per_game()
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
    let _ = writeln!(out, "  ({LUCK_MEANING})");
    let _ = writeln!(
        out,
        "\nresults: {}",
        super::screening::luck_sentence(p, population.unit)
    );
    let _ = writeln!(
        out,
        "\nscreening: {}\n  {}",
        super::screening::summary_text(p, r.screened.as_ref()),
        super::screening::NOT_A_VERDICT
    );
    let _ = writeln!(out, "\ncompared with: {}", comparison(population));
    let _ = writeln!(out, "\nerrors by round (error per decision in {unit})");
    let _ = writeln!(
        out,
        "  {:>5} {:>9} {:>12} {:>15} {:>11} {:>12}",
        "round", "decisions", "total error", "err/dec: player", "all players", "best players"
    );
    for round in all_rounds(r) {
        let mine = p.rounds.get(&round).cloned().unwrap_or_default();
        let _ = writeln!(
            out,
            "  {round:>5} {:>9} {:>12.4} {:>15} {:>11} {:>12}",
            mine.decisions,
            mine.total_error(),
            maybe(tally_rate(&mine), 6),
            maybe(round_rate(&population.all.rounds, round), 6),
            maybe(best.and_then(|b| round_rate(&b.rounds, round)), 6)
        );
    }
    let _ = writeln!(
        out,
        "\nerrors by decision kind (error per decision in {unit})"
    );
    let _ = writeln!(
        out,
        "  {:<18} {:>9} {:>12} {:>15} {:>11} {:>12}",
        "kind", "decisions", "total error", "err/dec: player", "all players", "best players"
    );
    for (i, (kind, t)) in KINDS.iter().zip(&p.kinds).enumerate() {
        let _ = writeln!(
            out,
            "  {kind:<18} {:>9} {:>12.4} {:>15} {:>11} {:>12}",
            t.decisions,
            t.total_error(),
            maybe(tally_rate(t), 6),
            maybe(tally_rate(&population.all.kinds[i]), 6),
            maybe(best.and_then(|b| tally_rate(&b.kinds[i])), 6)
        );
    }
    let _ = writeln!(
        out,
        "\nworst decisions (value, best value and loss in {unit})"
    );
    match r.worst {
        None => {
            let _ = writeln!(out, "  {}", r.no_worst);
        }
        Some([]) => out.push_str("  none\n"),
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
                    w.chosen_label(),
                    w.value,
                    w.best_label(),
                    w.best_value,
                    w.loss
                );
            }
        }
    }
    let months = months(p);
    if !months.is_empty() {
        let _ = writeln!(out, "\ntrend by month (error per game in {unit})");
        let _ = writeln!(
            out,
            "  {:<7} {:>6} {:>10} {:>21}",
            "month", "games", "err/game", "95% CI"
        );
        for m in &months {
            let _ = writeln!(
                out,
                "  {:<7} {:>6} {:>10.4} {:>21}",
                m.month,
                m.games,
                m.error_per_game(),
                interval_text(m.interval())
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

/// The report as JSON (the same content as the text). Every error and luck is in `unit`.
pub fn json(r: &PlayerReport) -> serde_json::Value {
    let p = r.stats;
    let population = r.population;
    let best = population.best.as_ref();
    let (lo, hi) = p.error_per_game_ci();
    let rounds: Vec<serde_json::Value> = all_rounds(r)
        .into_iter()
        .map(|round| {
            let mut v = tally_json(&p.rounds.get(&round).cloned().unwrap_or_default());
            v["round"] = serde_json::json!(round);
            v["all_players_error_per_decision"] =
                serde_json::json!(round_rate(&population.all.rounds, round));
            v["best_players_error_per_decision"] =
                serde_json::json!(best.and_then(|b| round_rate(&b.rounds, round)));
            v
        })
        .collect();
    let kinds: Vec<serde_json::Value> = KINDS
        .iter()
        .zip(&p.kinds)
        .enumerate()
        .map(|(i, (kind, t))| {
            let mut v = tally_json(t);
            v["kind"] = serde_json::json!(kind);
            v["all_players_error_per_decision"] =
                serde_json::json!(tally_rate(&population.all.kinds[i]));
            v["best_players_error_per_decision"] =
                serde_json::json!(best.and_then(|b| tally_rate(&b.kinds[i])));
            v
        })
        .collect();
    let worst = r.worst.map(|worst| {
        worst
            .iter()
            .map(|w| {
                serde_json::json!({
                    "game": w.game, "order": w.order, "round": w.round, "roll": w.roll,
                    "filled": w.filled(), "upper_total": w.upper_total(), "points": w.points(),
                    "dice": w.dice.to_string(), "choice": w.chosen_label(),
                    "value": w.value, "best": w.best_label(), "best_value": w.best_value,
                    "loss": w.loss,
                })
            })
            .collect::<Vec<_>>()
    });
    let trend: Vec<serde_json::Value> = months(p)
        .iter()
        .map(|m| {
            serde_json::json!({
                "month": m.month, "games": m.games,
                "total_error": m.error_nano as f64 / 1e9,
                "error_per_game": m.error_per_game(),
                "ci95": m.interval().map(|(lo, hi)| [lo, hi]),
            })
        })
        .collect();
    serde_json::json!({
        "player": r.name,
        "oracle": population.oracle,
        "unit": r.unit(),
        "source": population.source,
        "overview": {
            "games": p.games,
            "decisions": p.all.decisions,
            "unforced": p.all.unforced,
            "total_error": p.all.total_error(),
            "error_per_game": p.error_per_game(),
            "ci95": [lo, hi],
            "error_per_decision": p.all.error_per_decision(),
            "accuracy": p.accuracy(),
            "label": p.label(population.unit).map(super::label_text),
            "fine": p.all.classes[Class::Fine],
            "doubtful": p.all.classes[Class::Doubtful],
            "errors": p.all.classes[Class::Error],
            "blunders": p.all.classes[Class::Blunder],
            "luck": p.all.total_luck(),
            "luck_per_game": p.luck_per_game(),
            "luck_unit": r.unit(),
            "percentile": r.percentile(),
            "other_players": r.others,
            "other_players_with_higher_error": r.higher,
        },
        "compared_with": {
            "all_players": population.all.label,
            "best_players": population.best_names,
            "leaderboard_players": population.ranked,
            "min_games": population.min_games,
        },
        "rounds": rounds,
        "kinds": kinds,
        "worst": worst,
        "worst_note": if r.worst.is_none() { Some(r.no_worst) } else { None },
        "trend": trend,
        "results": super::screening::luck_json(p),
        "results_note": super::screening::luck_sentence(p, population.unit),
        "screening": r.screened.as_ref().map(super::screening::json),
        "screening_note": super::screening::NOT_A_VERDICT,
    })
}

/// A file name for the player's page (`crate::output::page_file_name`): `ann.html`,
/// `a_b-1c2d3e4f.html` for `a b`.
pub fn file_name(name: &str) -> String {
    crate::output::page_file_name(name)
}

/// The player's page relative to the root of an analysis's output directory
/// (`players/ann.html`): where its leaderboard links.
pub fn page_path(name: &str) -> String {
    format!("players/{}", file_name(name))
}

/// The link from a player page in `players/` to the decision `order` of game `id`.
pub(crate) fn decision_link(id: &str, order: usize) -> String {
    format!(
        "../games/{}#{}",
        super::page::game_file_name(id),
        super::page::decision_anchor(order)
    )
}

/// Table header cells: `(name, numeric)`.
fn header_row(out: &mut String, cells: &[(&str, bool)]) {
    out.push_str("<thead><tr>");
    for (name, numeric) in cells {
        let class = if *numeric { " class=\"num\"" } else { "" };
        let _ = write!(out, "<th{class}>{}</th>", escape(name));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
}

/// One table row of cells: `(text, numeric)` (the text escaped).
fn table_row(out: &mut String, cells: &[(String, bool)]) {
    out.push_str("<tr>");
    for (text, numeric) in cells {
        let class = if *numeric { " class=\"num\"" } else { "" };
        let _ = write!(out, "<td{class}>{}</td>", escape(text));
    }
    out.push_str("</tr>\n");
}

/// A numeric table cell.
fn num(text: String) -> (String, bool) {
    (text, true)
}

/// The player's page: one self-contained HTML5 document.
pub fn html(r: &PlayerReport) -> String {
    let p = r.stats;
    let population = r.population;
    let unit = r.unit();
    let best = population.best.as_ref();
    let mut out = String::with_capacity(48 * 1024);
    let title = format!("dicelens player report: {}", escape(r.name));
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>\n{STYLE}{PAGE_STYLE}</style>\n</head>\n<body>\n<main>\n"
    );
    out.push_str("<header>\n");
    if r.game_pages.is_some() {
        out.push_str("<p><a href=\"../report.html\">&larr; analysis report</a></p>\n");
    }
    let _ = writeln!(
        out,
        "<h1>{title}</h1>\n<p>dicelens {} &middot; oracle: {}</p>\n<p>{}</p>\n\
         <p>Errors and luck in {}.</p>\n</header>",
        env!("CARGO_PKG_VERSION"),
        escape(&population.oracle),
        escape(&population.source),
        escape(population.unit.name())
    );
    let (lo, hi) = p.error_per_game_ci();
    out.push_str("<section id=\"overview\">\n<h2>Overview</h2>\n<dl class=\"facts\">\n");
    let facts = [
        ("games".to_string(), p.games.to_string()),
        ("decisions".into(), p.all.decisions.to_string()),
        ("not forced".into(), p.all.unforced.to_string()),
        (
            format!("error per game ({unit})"),
            fixed(p.error_per_game(), 4),
        ),
        (
            format!("95% CI ({unit})"),
            format!("{} \u{2013} {}", fixed(lo, 4), fixed(hi, 4)),
        ),
        (
            format!("error per decision ({unit})"),
            fixed(p.all.error_per_decision(), 6),
        ),
        (
            "accuracy".into(),
            super::accuracy_and_label(p, population.unit).0,
        ),
        (
            "rating".into(),
            super::accuracy_and_label(p, population.unit).1.into(),
        ),
        (
            "doubtful".into(),
            p.all.classes[Class::Doubtful].to_string(),
        ),
        ("errors".into(), p.all.classes[Class::Error].to_string()),
        ("blunders".into(), p.all.classes[Class::Blunder].to_string()),
        (format!("luck ({unit})"), fixed(p.all.total_luck(), 4)),
        (
            format!("luck per game ({unit})"),
            fixed(p.luck_per_game(), 4),
        ),
        ("percentile".into(), fixed(r.percentile(), 1)),
    ];
    for (k, v) in facts {
        let _ = writeln!(out, "<div><dt>{}</dt><dd>{v}</dd></div>", escape(&k));
    }
    out.push_str("</dl>\n");
    let _ = writeln!(
        out,
        "<p class=\"note\">Percentile: the error per game is higher for {} of the {} other \
         players. {}.</p>\n</section>",
        r.higher,
        r.others,
        escape(&upper_first(LUCK_MEANING))
    );

    let compared = format!("Beside the player: {}.", comparison(population));
    out.push_str("<section id=\"rounds\">\n<h2>Error by round</h2>\n");
    out.push_str(&rounds_chart(r));
    let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(&compared));
    out.push_str("<table id=\"rounds-table\">\n");
    let per = format!("error per decision ({unit})");
    let header = |first: (&'static str, bool)| {
        let mut h = String::new();
        let total = format!("total error ({unit})");
        let player = format!("{per}: player");
        header_row(
            &mut h,
            &[
                first,
                ("decisions", true),
                (&total, true),
                (&player, true),
                ("all players", true),
                ("best players", true),
            ],
        );
        h
    };
    out.push_str(&header(("round", true)));
    for round in all_rounds(r) {
        let mine = p.rounds.get(&round).cloned().unwrap_or_default();
        table_row(
            &mut out,
            &[
                num(round.to_string()),
                num(mine.decisions.to_string()),
                num(fixed(mine.total_error(), 4)),
                num(maybe(tally_rate(&mine), 6)),
                num(maybe(round_rate(&population.all.rounds, round), 6)),
                num(maybe(best.and_then(|b| round_rate(&b.rounds, round)), 6)),
            ],
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");

    out.push_str("<section id=\"kinds\">\n<h2>Error by decision kind</h2>\n");
    out.push_str(&kinds_chart(r));
    out.push_str("<table id=\"kinds-table\">\n");
    out.push_str(&header(("decision kind", false)));
    for (i, (kind, t)) in KINDS.iter().zip(&p.kinds).enumerate() {
        table_row(
            &mut out,
            &[
                (kind.to_string(), false),
                num(t.decisions.to_string()),
                num(fixed(t.total_error(), 4)),
                num(maybe(tally_rate(t), 6)),
                num(maybe(tally_rate(&population.all.kinds[i]), 6)),
                num(maybe(best.and_then(|b| tally_rate(&b.kinds[i])), 6)),
            ],
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");

    super::screening::luck_section(&mut out, p, population.unit);
    worst_section(&mut out, r);
    trend_section(&mut out, r);
    super::screening::player_section(
        &mut out,
        p,
        r.screened.as_ref(),
        population.unit,
        r.game_pages,
    );
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// `text` with its first letter upper case.
fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The worst decisions, each linked to its game's page when there is one.
fn worst_section(out: &mut String, r: &PlayerReport) {
    let unit = r.unit();
    out.push_str("<section id=\"worst\">\n<h2>Worst decisions</h2>\n");
    match r.worst {
        None => {
            let _ = writeln!(out, "<p class=\"empty\">{}</p>", escape(r.no_worst));
        }
        Some([]) => out.push_str("<p class=\"note\">No decision lost anything.</p>\n"),
        Some(worst) => {
            if r.game_pages.is_some() {
                out.push_str(
                    "<p class=\"note\">Each game links to its page, at the decision.</p>\n",
                );
            }
            out.push_str("<div class=\"wide\">\n<table id=\"worst-table\">\n");
            let (value, best_value, loss) = (
                format!("value ({unit})"),
                format!("best value ({unit})"),
                format!("loss ({unit})"),
            );
            header_row(
                out,
                &[
                    ("game", false),
                    ("round", true),
                    ("roll", true),
                    ("filled boxes", false),
                    ("upper total (game points)", true),
                    ("score (game points)", true),
                    ("dice", false),
                    ("choice", false),
                    (&value, true),
                    ("best", false),
                    (&best_value, true),
                    (&loss, true),
                ],
            );
            for w in worst {
                let linked = r
                    .game_pages
                    .is_some_and(|pages| pages.contains(w.game.as_ref()));
                let game = if linked {
                    format!(
                        "<a href=\"{}\">{}</a>",
                        escape(&decision_link(&w.game, w.order)),
                        escape(&w.game)
                    ) + &format!(
                        " <a class=\"board\" href=\"{}\">board</a>",
                        super::board::board_link(&w.game, Some(w.order))
                    )
                } else {
                    escape(&w.game)
                };
                // The filled boxes may break after each comma.
                let filled = escape(&w.filled()).replace(',', ",<wbr>");
                let _ = write!(
                    out,
                    "<tr><td>{game}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                     <td class=\"filled\">{filled}</td>",
                    w.round, w.roll
                );
                let mut cells = String::new();
                table_row(
                    &mut cells,
                    &[
                        num(w.upper_total().to_string()),
                        num(w.points().to_string()),
                        (w.dice.to_string(), false),
                        (w.chosen_label(), false),
                        num(fixed(w.value, 4)),
                        (w.best_label(), false),
                        num(fixed(w.best_value, 4)),
                        num(fixed(w.loss, 4)),
                    ],
                );
                out.push_str(cells.trim_start_matches("<tr>"));
            }
            out.push_str("</tbody>\n</table>\n</div>\n");
        }
    }
    out.push_str("</section>\n");
}

/// The trend: its chart and the table of months.
fn trend_section(out: &mut String, r: &PlayerReport) {
    let unit = r.unit();
    let months = months(r.stats);
    out.push_str("<section id=\"trend\">\n<h2>Trend by month</h2>\n");
    out.push_str(&trend_chart(&months, r.population.unit));
    if months.is_empty() {
        out.push_str("</section>\n");
        return;
    }
    out.push_str(
        "<p class=\"note\">Each point: the mean error per game of the month, with its 95% \
         confidence interval over the month's games (Student's t factor: wide for few games, \
         and still rough there, as game errors are skewed; cut at 0, as an error is never \
         negative; none for a month of one game, or from aggregates written before dicelens \
         kept the squares by day) and, above it, the month's games.</p>\n<table id=\"trend-table\">\n",
    );
    let (per_game, ci) = (
        format!("error per game ({unit})"),
        format!("95% CI ({unit})"),
    );
    header_row(
        out,
        &[
            ("month", false),
            ("games", true),
            (&per_game, true),
            (&ci, true),
        ],
    );
    for m in &months {
        table_row(
            out,
            &[
                (m.month.clone(), false),
                num(m.games.to_string()),
                num(fixed(m.error_per_game(), 4)),
                num(interval_text(m.interval())),
            ],
        );
    }
    let total: u64 = months.iter().map(|m| m.games).sum();
    let _ = writeln!(
        out,
        "</tbody>\n<tfoot><tr><td>all dated</td><td class=\"num\">{total}</td><td></td><td></td>\
         </tr></tfoot>\n</table>"
    );
    let undated = r.stats.games.saturating_sub(total);
    if undated > 0 {
        let _ = writeln!(
            out,
            "<p class=\"note\">{undated} game{} without a date in the logs.</p>",
            plural(undated as usize)
        );
    }
    out.push_str("</section>\n");
}

/// Plot area of the round and trend charts.
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

/// One series of bars: its class, legend, color, and a value (with its decisions) per
/// category.
struct BarSeries {
    class: &'static str,
    label: String,
    color: &'static str,
    values: Vec<Option<(f64, u64)>>,
}

/// The bar series of a chart: the player, all players, the best players (if any), each with
/// its value per category given by `value`.
fn bar_series(r: &PlayerReport, value: impl Fn(Who) -> Vec<Option<(f64, u64)>>) -> Vec<BarSeries> {
    let population = r.population;
    let mut series = vec![
        BarSeries {
            class: "player",
            label: r.name.to_string(),
            color: PLAYER_COLOR,
            values: value(Who::Player),
        },
        BarSeries {
            class: "population",
            label: population.all.label.clone(),
            color: POPULATION_COLOR,
            values: value(Who::All),
        },
    ];
    if let Some(best) = &population.best {
        series.push(BarSeries {
            class: "best",
            label: best.label.clone(),
            color: BEST_COLOR,
            values: value(Who::Best),
        });
    }
    series
}

/// Whose bars.
#[derive(Clone, Copy)]
enum Who {
    Player,
    All,
    Best,
}

/// The round tallies of `who`.
fn rounds_of<'r>(r: &'r PlayerReport, who: Who) -> Option<&'r BTreeMap<u16, Tally>> {
    match who {
        Who::Player => Some(&r.stats.rounds),
        Who::All => Some(&r.population.all.rounds),
        Who::Best => r.population.best.as_ref().map(|b| &b.rounds),
    }
}

/// The kind tallies of `who`.
fn kinds_of<'r>(r: &'r PlayerReport, who: Who) -> Option<&'r [Tally; 3]> {
    match who {
        Who::Player => Some(&r.stats.kinds),
        Who::All => Some(&r.population.all.kinds),
        Who::Best => r.population.best.as_ref().map(|b| &b.kinds),
    }
}

/// A value and its decisions, if the tally has decisions.
fn bar_value(t: &Tally) -> Option<(f64, u64)> {
    (t.decisions > 0).then(|| (finite(t.error_per_decision()), t.decisions))
}

/// The legend items of bar series.
fn legend_items(series: &[BarSeries]) -> Vec<LegendItem<'_>> {
    series
        .iter()
        .map(|s| LegendItem {
            class: s.class,
            color: s.color,
            label: &s.label,
        })
        .collect()
}

/// Grouped bars of the error per decision by round: the player, all players, the best players
/// (`#player-rounds`; each series a group `#player-rounds-player`, `-population`, `-best`).
fn rounds_chart(r: &PlayerReport) -> String {
    let rounds = all_rounds(r);
    let series = bar_series(r, |who| {
        let map = rounds_of(r, who);
        rounds
            .iter()
            .map(|round| map.and_then(|m| m.get(round)).and_then(bar_value))
            .collect()
    });
    let items = legend_items(&series);
    let height = BOTTOM + 72.0 + 22.0 * legend_rows(&items) as f64;
    let max = series
        .iter()
        .flat_map(|s| s.values.iter().flatten().map(|v| v.0))
        .fold(0.0, f64::max);
    let (y_top, step) = nice_axis(max, false);
    let x = Scale::slots(rounds.len().max(1) as f64, LEFT, RIGHT);
    let y = Scale::from_zero(y_top, BOTTOM, TOP);
    let mut out = String::new();
    let names: Vec<&str> = series.iter().map(|s| s.label.as_str()).collect();
    svg_open(
        &mut out,
        "player-rounds",
        height,
        "Mean error per decision by round",
        &format!(
            "Mean error per decision in each round with decisions ({} rounds), bars side by \
             side: {}.",
            rounds.len(),
            names.join("; ")
        ),
    );
    plot_background(&mut out, TOP, BOTTOM);
    let unit = r.unit();
    y_axis(
        &mut out,
        y,
        y_top,
        step,
        &format!("mean error per decision ({unit})"),
    );
    let labels: Vec<(f64, String)> = rounds
        .iter()
        .enumerate()
        .map(|(i, round)| (x.at(i as f64 + 1.0), round.to_string()))
        .collect();
    x_axis(&mut out, &labels, "round");
    let slot = x.at(1.0) - x.at(0.0);
    let width = slot * 0.8 / series.len() as f64;
    for (k, s) in series.iter().enumerate() {
        let _ = writeln!(
            out,
            "<g id=\"player-rounds-{}\" class=\"series {}\">",
            s.class, s.class
        );
        for (i, value) in s.values.iter().enumerate() {
            let Some((e, decisions)) = value else {
                continue;
            };
            let left = x.at(i as f64 + 1.0) - slot * 0.4 + width * k as f64;
            let top = y.at(*e);
            let _ = writeln!(
                out,
                "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">\
                 <title>{}, round {}: {} {unit} per decision, {decisions} decisions</title>\
                 </rect>",
                px(left),
                px(top),
                px(width),
                px(BOTTOM - top),
                s.color,
                escape(&s.label),
                rounds[i],
                fixed(*e, 4)
            );
        }
        out.push_str("</g>\n");
    }
    axes(&mut out, TOP, BOTTOM);
    if rounds.is_empty() {
        no_data(&mut out, TOP, BOTTOM, "no decisions rated");
    }
    legend(&mut out, &items, BOTTOM + 68.0);
    out.push_str("</svg>\n");
    out
}

/// Grouped horizontal bars of the error per decision by decision kind: the player, all
/// players, the best players (`#player-kinds`; each series a group `#player-kinds-player`,
/// `-population`, `-best`).
fn kinds_chart(r: &PlayerReport) -> String {
    let series = bar_series(r, |who| match kinds_of(r, who) {
        Some(kinds) => kinds.iter().map(bar_value).collect(),
        None => vec![None; KINDS.len()],
    });
    let items = legend_items(&series);
    let label_width = 150.0;
    let (left, right) = (LEFT + label_width, RIGHT - 90.0);
    let bar = 16.0;
    let row = bar * series.len() as f64 + 18.0;
    let top = 14.0;
    let bottom = top + row * KINDS.len() as f64;
    let height = bottom + 78.0 + 22.0 * legend_rows(&items) as f64;
    let max = series
        .iter()
        .flat_map(|s| s.values.iter().flatten().map(|v| v.0))
        .fold(0.0, f64::max);
    let (x_top, step) = nice_axis(max, false);
    let x = Scale::from_zero(x_top, left, right);
    let unit = r.unit();
    let mut out = String::new();
    let names: Vec<&str> = series.iter().map(|s| s.label.as_str()).collect();
    svg_open(
        &mut out,
        "player-kinds",
        height,
        "Mean error per decision by decision kind",
        &format!(
            "Mean error per decision of each decision kind, bars one under the other: {}.",
            names.join("; ")
        ),
    );
    plot_background_between(&mut out, left, right, top, bottom);
    x_value_axis(&mut out, x, x_top, step, top, bottom);
    for (i, kind) in KINDS.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" dy=\"4\" text-anchor=\"end\">{kind}</text>",
            px(left - 10.0),
            px(top + row * (i as f64 + 0.5))
        );
    }
    for (k, s) in series.iter().enumerate() {
        let _ = writeln!(
            out,
            "<g id=\"player-kinds-{}\" class=\"series {}\">",
            s.class, s.class
        );
        for (i, value) in s.values.iter().enumerate() {
            let Some((e, decisions)) = value else {
                continue;
            };
            let bar_top = top + row * i as f64 + 9.0 + bar * k as f64;
            let w = (x.at(*e) - left).max(0.0);
            let _ = writeln!(
                out,
                "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">\
                 <title>{}, {}: {} {unit} per decision, {decisions} decisions</title></rect>\
                 <text class=\"value\" x=\"{}\" y=\"{}\" dy=\"4\">{}</text>",
                px(left),
                px(bar_top + 1.0),
                px(w),
                px(bar - 2.0),
                s.color,
                escape(&s.label),
                KINDS[i],
                fixed(*e, 4),
                px(left + w + 6.0),
                px(bar_top + bar / 2.0),
                fixed(*e, 4)
            );
        }
        out.push_str("</g>\n");
    }
    axes_between(&mut out, left, right, top, bottom);
    axis_title(
        &mut out,
        (left + right) / 2.0,
        bottom + 44.0,
        &format!("mean error per decision ({unit})"),
    );
    legend(&mut out, &items, bottom + 72.0);
    out.push_str("</svg>\n");
    out
}

/// The error per game by month with its intervals and game counts (`#player-trend`).
fn trend_chart(months: &[Month], unit: Unit) -> String {
    let points: Vec<(f64, Option<(f64, f64)>)> = months
        .iter()
        .map(|m| {
            let interval = m.interval().map(|(lo, hi)| (finite(lo), finite(hi)));
            (finite(m.error_per_game()), interval)
        })
        .collect();
    let items = [
        LegendItem {
            class: "mean",
            color: PLAYER_COLOR,
            label: "error per game of the month (number above: its games)",
        },
        LegendItem {
            class: "interval",
            color: INTERVAL_COLOR,
            label: "95% confidence interval",
        },
    ];
    let max = points
        .iter()
        .map(|(e, i)| i.map_or(*e, |i| i.1.max(*e)))
        .fold(0.0, f64::max);
    let (y_top, step) = nice_axis(max * 1.08, false);
    let x = Scale::slots(months.len().max(1) as f64, LEFT, RIGHT);
    let y = Scale::from_zero(y_top, BOTTOM, TOP);
    let mut out = String::new();
    let desc = if months.is_empty() {
        "The logs have no dates: there is no trend to show.".to_string()
    } else {
        format!(
            "The player's error per game in each month with games, {} months, with 95% \
             intervals and the games of each month.",
            months.len()
        )
    };
    let height = BOTTOM + 72.0 + 22.0 * legend_rows(&items) as f64;
    svg_open(
        &mut out,
        "player-trend",
        height,
        "Error per game by month",
        &desc,
    );
    plot_background(&mut out, TOP, BOTTOM);
    let title = format!("error per game ({})", unit.short());
    y_axis(&mut out, y, y_top, step, &title);
    let labels: Vec<(f64, String)> = months
        .iter()
        .enumerate()
        .map(|(i, m)| (x.at(i as f64 + 1.0), m.month.clone()))
        .collect();
    x_axis(&mut out, &labels, "month");
    axes(&mut out, TOP, BOTTOM);
    if months.is_empty() {
        no_data(&mut out, TOP, BOTTOM, "no dates in the logs");
        out.push_str("</svg>\n");
        return out;
    }
    out.push_str("<g id=\"player-trend-intervals\" class=\"intervals\">\n");
    for ((cx, _), (_, interval)) in labels.iter().zip(&points) {
        if let Some((lo, hi)) = interval {
            let _ = writeln!(
                out,
                "<path class=\"interval\" d=\"M{x} {lo}V{hi}M{l} {lo}H{r}M{l} {hi}H{r}\" \
                 stroke=\"{INTERVAL_COLOR}\" stroke-width=\"2\" fill=\"none\"/>",
                x = px(*cx),
                lo = px(y.at(*lo)),
                hi = px(y.at(*hi)),
                l = px(cx - 5.0),
                r = px(cx + 5.0)
            );
        }
    }
    out.push_str("</g>\n");
    let line: Vec<String> = labels
        .iter()
        .zip(&points)
        .map(|((cx, _), (e, _))| format!("{},{}", px(*cx), px(y.at(*e))))
        .collect();
    let _ = writeln!(
        out,
        "<polyline class=\"series\" points=\"{}\" fill=\"none\" stroke=\"{PLAYER_COLOR}\" \
         stroke-width=\"2.5\"/>",
        line.join(" ")
    );
    let counts = months.len() <= 24;
    out.push_str("<g id=\"player-trend-points\" class=\"points\">\n");
    for ((cx, _), (m, (e, interval))) in labels.iter().zip(months.iter().zip(&points)) {
        let ci = interval_text(m.interval());
        let _ = writeln!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{PLAYER_COLOR}\"><title>{}: {} {} per \
             game, 95% CI {ci}, {} games</title></circle>",
            px(*cx),
            px(y.at(*e)),
            escape(&m.month),
            fixed(*e, 4),
            unit.short(),
            m.games
        );
        if counts {
            let above = interval.map_or(*e, |i| i.1.max(*e));
            let _ = writeln!(
                out,
                "<text class=\"value count\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                px(*cx),
                px(y.at(above) - 8.0),
                m.games
            );
        }
    }
    out.push_str("</g>\n");
    legend(&mut out, &items, BOTTOM + 68.0);
    out.push_str("</svg>\n");
    out
}

/// The page of each ranked player of each part, by part and name: `players/<file>`
/// ([`page_path`]) for a player's first part, `players/<stem>.<part>.html` for a player
/// ranked in more than one part (`sim01.match-points-13.html`).
pub(crate) fn player_pages(boards: &[Leaderboard]) -> BTreeMap<(PartKey, String), String> {
    let mut pages = BTreeMap::new();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for board in boards {
        for r in &board.ranked {
            let path = if seen.insert(r.name) {
                page_path(r.name)
            } else {
                let first = page_path(r.name);
                let stem = first.strip_suffix(".html").unwrap_or(&first);
                format!("{stem}.{}.html", board.key.id())
            };
            pages.insert((board.key, r.name.to_string()), path);
        }
    }
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe_and_distinct() {
        assert_eq!(file_name("sim-03"), "sim-03.html");
        assert_eq!(page_path("sim-03"), "players/sim-03.html");
        let (a, b) = (file_name("a b"), file_name("a_b"));
        assert_ne!(a, b);
        assert!(a.starts_with("a_b-") && a.ends_with(".html"), "{a}");
        assert!(file_name("../x").starts_with("___x-"));
        assert!(file_name("").starts_with('-'));
        assert_eq!(file_name(&"x".repeat(200)).len(), 80 + 1 + 8 + 5);
        assert_eq!(
            decision_link("g 1", 0),
            format!("../games/{}#d1", super::super::page::game_file_name("g 1"))
        );
    }

    /// Statistics with these days: (day, games, error points, squared game errors points²).
    fn with_days(days: &[(&str, u64, f64, Option<f64>)]) -> PlayerStats {
        let mut p = PlayerStats::default();
        for (day, games, error, sq) in days {
            p.days
                .insert(day.to_string(), (*games, (error * 1e9) as i128));
            if let Some(sq) = sq {
                p.days_sq
                    .insert(day.to_string(), (*games, (sq * 1e12) as i128));
            }
        }
        p
    }

    #[test]
    fn months_sum_days_and_know_their_spread_only_when_every_day_does() {
        // Month 1: games of errors 1, 3 (day one) and 5 (day two): mean 3, sample sd 2.
        let p = with_days(&[
            ("2024.01.02", 2, 4.0, Some(10.0)),
            ("2024.01.20", 1, 5.0, Some(25.0)),
            ("2024.02.01", 1, 2.0, Some(4.0)),
            ("2024.03.01", 2, 2.0, None),
        ]);
        let months = months(&p);
        assert_eq!(months.len(), 3);
        assert_eq!((months[0].month.as_str(), months[0].games), ("2024.01", 3));
        assert!((months[0].error_per_game() - 3.0).abs() < 1e-9);
        let (lo, hi) = months[0].interval().unwrap();
        let half = 4.303 * 2.0 / 3f64.sqrt();
        assert!((lo - (3.0 - half).max(0.0)).abs() < 1e-6 && (hi - (3.0 + half)).abs() < 1e-6);
        // One game: no interval; squares unknown: none either.
        assert_eq!(months[1].interval(), None);
        assert_eq!(months[2].error_sq, None);
        assert_eq!(months[2].interval(), None);
    }
}
