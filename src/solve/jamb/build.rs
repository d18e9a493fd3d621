//! The building of the Jamb tables ([`JambTables`]): the exact one-column tables, the slack
//! tables, then the value function's weights fitted by self-play of an oracle on them
//! ([`fit`](super::fit)). Above the oracle, which reads the tables.

use super::column::{ColumnSpace, ColumnTable};
use super::fit::fit;
use super::oracle::{JambOracle, ValueFunction};
use super::tables::{kinds_of, BuildOptions, JambTables};
use crate::rules::jamb::JambRules;
use std::sync::Arc;

impl JambOracle {
    /// Builds the tables of `rules` ([`JambOracle::build_tables`]: for jamb-5, about 2 minutes
    /// on an idle 2-core machine, 9 on one loaded by other builds) and the strong oracle on them.
    pub fn new(rules: JambRules) -> JambOracle {
        JambOracle::from_tables(JambOracle::build_tables(rules, &|_, _| {}))
    }

    /// Builds the tables of `rules` (store them with [`JambTables::to_bytes`], read them back
    /// with [`JambTables::from_bytes`]); `progress(done, total)` counts work units.
    pub fn build_tables(rules: JambRules, progress: &(dyn Fn(u64, u64) + Sync)) -> JambTables {
        JambTables::build(rules, progress)
    }
}

impl JambTables {
    /// Builds the tables of `rules` with their [`BuildOptions::for_rules`]; `progress(done, total)`
    /// counts work units (widget runs, then fitting games).
    pub fn build(rules: JambRules, progress: &(dyn Fn(u64, u64) + Sync)) -> JambTables {
        JambTables::build_with(rules, &BuildOptions::for_rules(&rules), progress)
    }

    /// Builds the tables of `rules` as `options` say. Deterministic: the same bytes whatever
    /// the number of threads.
    pub fn build_with(
        rules: JambRules,
        options: &BuildOptions,
        progress: &(dyn Fn(u64, u64) + Sync),
    ) -> JambTables {
        let kinds = kinds_of(&rules);
        // Work units: one per widget run of every table and slack level, one per fitting game.
        let runs: Vec<u64> = kinds
            .iter()
            .map(|&k| ColumnTable::runs(&ColumnSpace::of_rules(&rules, k, 0)))
            .collect();
        let levels = options.slack.turns as u64;
        let total = runs.iter().sum::<u64>() * (1 + levels)
            + options.fit_games * u64::from(options.fit_rounds.max(1));
        let mut done = 0u64;
        let mut tables = Vec::new();
        let mut slack = Vec::new();
        for (&k, &n) in kinds.iter().zip(&runs) {
            let offset = done;
            // Level 0 of the slack tables is the exact table (the same operations).
            let mut levels = ColumnTable::build_with_slack(&rules, k, options.slack, &|d, _| {
                progress(offset + d, total)
            })
            .into_iter();
            if let Some(exact) = levels.next() {
                tables.push(Arc::new(exact));
            }
            let mut levels: Vec<Arc<ColumnTable>> =
                levels.map(|t| Arc::new(t.rounded_to_f32())).collect();
            levels.truncate(options.slack.turns);
            slack.push(levels);
            done += n * (options.slack.turns as u64 + 1);
        }
        let mut out = JambTables::from_parts(rules, tables, options.slack, slack);
        let rounds = match options.fit_games {
            0 => 0,
            _ => u64::from(options.fit_rounds.max(1)),
        };
        for round in 0..rounds {
            let offset = done + round * options.fit_games;
            let value = match round {
                0 => ValueFunction {
                    slack: options.slack.turns,
                    ..ValueFunction::default()
                },
                _ => ValueFunction::strong(&out),
            };
            let oracle = Arc::new(JambOracle::with_value(out.clone(), value));
            let fitted = fit(
                &oracle,
                options.fit_games,
                options.fit_seed + 2 * round,
                options.ridge,
                &|d| progress(offset + d, total),
            );
            // No weights from a round (a singular fit): keep the round before's.
            let Some(fitted) = fitted else {
                break;
            };
            out = out.with_correction(Some(Arc::new(fitted)));
        }
        progress(total, total);
        out
    }
}
