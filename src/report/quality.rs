//! The output of `dicelens bench quality`: each method's errors on the self-play positions,
//! over all positions and by number of free boxes, as tables for people or JSON.

use crate::rules::RuleSet;
use crate::solve::match_points::Method;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// Errors of one method on some positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Tally {
    /// Moves valued.
    pub moves: u64,
    /// Sum of their errors.
    pub total_error: f64,
    /// Moves with an error above 0.001.
    pub(crate) above_0_001: u64,
    /// Moves with an error above 0.01.
    pub(crate) above_0_01: u64,
}

impl Tally {
    /// Counts one move with this error.
    pub fn add(&mut self, error: f64) {
        self.moves += 1;
        self.total_error += error;
        self.above_0_001 += u64::from(error > 0.001);
        self.above_0_01 += u64::from(error > 0.01);
    }

    /// Adds another tally's moves.
    pub fn merge(&mut self, o: &Tally) {
        self.moves += o.moves;
        self.total_error += o.total_error;
        self.above_0_001 += o.above_0_001;
        self.above_0_01 += o.above_0_01;
    }

    /// Mean error per move (0 without moves).
    pub fn mean(&self) -> f64 {
        self.total_error / self.moves.max(1) as f64
    }

    /// `n` as a share of the moves.
    pub fn share(&self, n: u64) -> f64 {
        n as f64 / self.moves.max(1) as f64
    }
}

/// How the experiment's positions were made.
#[derive(Clone, Copy, Debug)]
pub struct QualitySetup {
    /// The rule set.
    pub rules: RuleSet,
    /// Positions valued.
    pub positions: usize,
    /// Most free boxes of a position.
    pub max_free: u32,
    /// Seed of the self-play.
    pub seed: u64,
}

/// The results: one row per method with its tallies by free boxes; as text (one table over all
/// positions, one per number of free boxes) or JSON.
pub fn quality(
    setup: &QualitySetup,
    methods: &[Method],
    tallies: &[BTreeMap<u32, Tally>],
    json: bool,
) -> String {
    let rules = setup.rules;
    let overall: Vec<Tally> = tallies
        .iter()
        .map(|t| {
            let mut all = Tally::default();
            t.values().for_each(|x| all.merge(x));
            all
        })
        .collect();
    if json {
        let rows: Vec<serde_json::Value> = methods
            .iter()
            .zip(tallies)
            .zip(&overall)
            .map(|((m, by_free), all)| {
                serde_json::json!({
                    "method": m.to_string(),
                    "all": all,
                    "mean_error": all.mean(),
                    "by_free": by_free,
                })
            })
            .collect();
        let json = serde_json::json!({
            "rules": rules.name(), "positions": setup.positions, "max_free": setup.max_free,
            "seed": setup.seed, "methods": rows,
        });
        return serde_json::to_string_pretty(&json).unwrap_or_default() + "\n";
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{rules}: {} positions with at most {} boxes free (self-play by softened EMP(1), seed {}); \
         error = exact value of the best option minus that of the method's pick, in match points",
        setup.positions, setup.max_free, setup.seed
    );
    let _ = writeln!(
        out,
        "{:<8} {:>7} {:>12} {:>10} {:>10}",
        "method", "moves", "error/move", "> 0.001", "> 0.01"
    );
    for (m, all) in methods.iter().zip(&overall) {
        let _ = writeln!(
            out,
            "{:<8} {:>7} {:>12.7} {:>10.5} {:>10.5}",
            m.to_string(),
            all.moves,
            all.mean(),
            all.share(all.above_0_001),
            all.share(all.above_0_01)
        );
    }
    let frees: Vec<u32> = tallies
        .iter()
        .flat_map(|t| t.keys().copied())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let _ = writeln!(out, "\nerror per move by free boxes");
    let _ = write!(out, "{:<8}", "method");
    for f in &frees {
        let _ = write!(out, " {:>10}", format!("{f} free"));
    }
    out.push('\n');
    for (m, by_free) in methods.iter().zip(tallies) {
        let _ = write!(out, "{:<8}", m.to_string());
        for f in &frees {
            let cell = by_free
                .get(f)
                .map_or("-".into(), |t| format!("{:.7}", t.mean()));
            let _ = write!(out, " {cell:>10}");
        }
        out.push('\n');
    }
    out
}
