//! The table of `dicelens bench oracles`: each candidate oracle's speed and distance from the
//! reference, as text for people and JSON for machines.

use crate::compare::Comparison;
use crate::rate::OracleSpec;
use crate::rate::Unit;
use std::fmt::Write;

/// One oracle measured on a corpus, compared with the reference.
pub struct Measured {
    /// The oracle.
    pub spec: OracleSpec,
    /// What its errors are in.
    pub unit: Unit,
    /// Games rated per second (tables loaded beforehand).
    pub games_per_second: f64,
    /// Its speed over the reference's, in the same run.
    pub(crate) speed_ratio: f64,
    /// Games it rated.
    pub games: u64,
    /// Its distance from the reference.
    pub comparison: Comparison,
}

impl Measured {
    /// The spec with its name, if it has one: `emp:1/exact:8 (reference)`.
    fn label(&self) -> String {
        match self.spec.name() {
            Some(name) => format!("{} ({name})", self.spec),
            None => self.spec.to_string(),
        }
    }

    /// Whether every compared player's error per game is within `tolerance` of the reference's.
    fn within(&self, tolerance: f64) -> bool {
        self.comparison.player_max_abs_diff <= tolerance
    }
}

/// The units of a candidate, when they differ from the reference's (its differences then mix
/// units; its ranks still compare).
fn unit_note(reference: &Measured, row: &Measured) -> Option<String> {
    (row.unit != reference.unit).then(|| {
        format!(
            "{} rates in {}, the reference in {}: its differences mix units; the rank columns compare",
            row.spec,
            row.unit.name(),
            reference.unit.name()
        )
    })
}

/// The table for people.
pub fn bench_text(
    reference: &Measured,
    rows: &[Measured],
    min_games: u64,
    tolerance: f64,
) -> String {
    let mut out = String::new();
    let c = &reference.comparison;
    let _ = writeln!(
        out,
        "corpus: {} games rated, {} decisions; compared: {} players with at least {min_games} games",
        reference.games, c.decisions, c.players
    );
    let _ = writeln!(
        out,
        "reference: {}, {:.1} games/s, errors in {}",
        reference.label(),
        reference.games_per_second,
        reference.unit.name()
    );
    let _ = writeln!(
        out,
        "{:<28} {:>9} {:>7}  {:>21}  {:>30}  {:>6}  {:>13}",
        "",
        "",
        "speed",
        "|difference| per",
        "|difference| in error per game",
        "within",
        "leaderboard"
    );
    let _ = writeln!(
        out,
        "{:<28} {:>9} {:>7}  {:>10} {:>10}  {:>9} {:>9} {:>10}  {:>6}  {:>7} {:>5}",
        "oracle",
        "games/s",
        "x ref",
        "decision",
        "max",
        "player",
        "max",
        "max/CI95",
        tolerance,
        "rho",
        "moved"
    );
    let mut notes = Vec::new();
    for row in rows {
        let c = &row.comparison;
        let _ = writeln!(
            out,
            "{:<28} {:>9.1} {:>7.2}  {:>10.7} {:>10.6}  {:>9.6} {:>9.6} {:>10.3}  {:>6}  {:>7.4} {:>5}",
            row.label(),
            row.games_per_second,
            row.speed_ratio,
            c.decision_mean_abs_diff,
            c.decision_max_abs_diff,
            c.player_mean_abs_diff,
            c.player_max_abs_diff,
            c.player_max_diff_over_ci,
            if row.within(tolerance) { "yes" } else { "no" },
            c.spearman,
            c.positions_changed
        );
        notes.extend(unit_note(reference, row));
        if c.games_compared < reference.games {
            notes.push(format!(
                "{}: {} of the reference's {} games rated by both",
                row.spec, c.games_compared, reference.games
            ));
        }
    }
    for note in notes {
        let _ = writeln!(out, "note: {note}");
    }
    out
}

/// One oracle as a JSON object.
fn row_json(row: &Measured, reference: &Measured, tolerance: f64) -> serde_json::Value {
    serde_json::json!({
        "spec": row.spec.to_string(),
        "name": row.spec.name(),
        "unit": row.unit.short(),
        "games": row.games,
        "games_per_second": row.games_per_second,
        "speed_ratio": row.speed_ratio,
        "within_tolerance": row.within(tolerance),
        "units_differ": row.unit != reference.unit,
        "comparison": row.comparison,
    })
}

/// The same as one JSON object: `reference`, `candidates` (each with `spec`, `name`, `unit`,
/// `games_per_second`, `speed_ratio`, `within_tolerance` and `comparison`), `min_games`,
/// `tolerance`.
pub fn bench_json(
    reference: &Measured,
    rows: &[Measured],
    min_games: u64,
    tolerance: f64,
) -> String {
    let json = serde_json::json!({
        "reference": row_json(reference, reference, tolerance),
        "candidates": rows.iter().map(|r| row_json(r, reference, tolerance)).collect::<Vec<_>>(),
        "min_games": min_games,
        "tolerance": tolerance,
    });
    serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"
}
