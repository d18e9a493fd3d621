//! The oracle registry: one oracle per rule set, keyed by rule set, over tables loaded on
//! demand. Rating (`pipeline::rate_batch`), `evaluate` and the `eval` command all take their
//! oracles and tables from it.

use crate::rate::{FamilyOracles, MatchOracle, OracleSpec, SolitaireOracle};
use crate::replay::Replayed;
use crate::rules::jamb::JambRules;
use crate::rules::{GameRules, RuleSet};
use crate::solve::jamb::oracle::JambOracle;
use crate::tables::{
    dist_path, expected_path, load_dist, load_expected, load_jamb, table_dir, DistTable, Progress,
    TableError,
};
use dicelens_parsers::GameRecord;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The oracle registry: the oracle of every rule set, keyed by rule set, with its tables loaded
/// on demand: expected scores for every game,
/// distributions for the games of several players when the method needs them.
pub struct OracleRegistry {
    oracle: FamilyOracles,
    dir: PathBuf,
}

impl OracleRegistry {
    /// No table loaded yet; tables come from `dir` (default: $DICELENS_TABLES, else ./tables).
    pub fn new(dir: Option<&Path>, spec: OracleSpec) -> OracleRegistry {
        let solitaire = SolitaireOracle::new(HashMap::new());
        OracleRegistry {
            oracle: FamilyOracles::new(MatchOracle::new(solitaire, spec)),
            dir: table_dir(dir),
        }
    }

    /// The directory the tables are read from.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The oracle over the tables loaded so far.
    pub fn oracle(&self) -> &FamilyOracles {
        &self.oracle
    }

    /// Loads the tables every game of `batch` needs and that are not loaded yet (building them
    /// if missing, with a notice to `progress`). Fails when a table's path is not a regular
    /// file.
    pub fn load_for(
        &mut self,
        batch: &[(GameRecord, Replayed)],
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        for (_, replayed) in batch {
            self.load_for_game(replayed, progress)?;
        }
        Ok(())
    }

    /// The oracle of the Jamb rule set `rules`, its column tables loaded if they are not yet
    /// (built if missing, with a notice to `progress`). Fails when a table's path is not a
    /// regular file.
    pub fn jamb(
        &mut self,
        rules: JambRules,
        progress: &dyn Progress,
    ) -> Result<Arc<JambOracle>, TableError> {
        if let Some(oracle) = self.oracle.jamb.get(&rules) {
            return Ok(Arc::clone(oracle));
        }
        let (tables, _) = load_jamb(&self.dir, rules, progress)?;
        Ok(self.oracle.jamb.add(JambOracle::from_tables(tables)))
    }

    /// Loads the tables one replayed game needs and that are not loaded yet (none if its rule
    /// set is unknown). Fails when a table's path is not a regular file.
    pub fn load_for_game(
        &mut self,
        replayed: &Replayed,
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        let rules = match replayed.rules {
            Some(GameRules::Yahtzee(rules)) => rules,
            Some(GameRules::Jamb(rules)) => return self.jamb(rules, progress).map(|_| ()),
            None => return Ok(()),
        };
        self.load_expected(rules, progress)?;
        if replayed.seats > 1 && self.oracle.one_column.needs_dists(rules) {
            self.load_dists(rules, progress)?;
        }
        Ok(())
    }

    /// Loads the expected-score table of `rules` if it is not loaded yet (built if missing,
    /// with a notice to `progress`). Fails when the table's path is not a regular file.
    pub fn load_expected(
        &mut self,
        rules: RuleSet,
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        if self.oracle.one_column.solitaire.table(rules).is_none() {
            let (table, _) = load_expected(&self.dir, rules, progress)?;
            self.oracle
                .one_column
                .solitaire
                .add_table(rules, table.into_values());
        }
        Ok(())
    }

    /// Loads the distribution table of `rules` if it is not loaded yet (built if missing, with
    /// a notice to `progress`). Fails when the table's path is not a regular file.
    pub fn load_dists(
        &mut self,
        rules: RuleSet,
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        if self.oracle.one_column.dists(rules).is_none() {
            let (table, _) = load_dist(&self.dir, rules, progress)?;
            self.oracle.one_column.add_dists(rules, table);
        }
        Ok(())
    }

    /// The expected-score table of `rules` ([`OracleRegistry::load_expected`] loads it); a
    /// [`TableProblem::Missing`](crate::tables::TableProblem::Missing) error if not loaded.
    pub fn expected(&self, rules: RuleSet) -> Result<&[f64], TableError> {
        self.oracle
            .one_column
            .solitaire
            .table(rules)
            .ok_or_else(|| not_loaded(expected_path(&self.dir, rules)))
    }

    /// The distribution table of `rules` ([`OracleRegistry::load_dists`] loads it); a
    /// [`TableProblem::Missing`](crate::tables::TableProblem::Missing) error if not loaded.
    pub fn dists(&self, rules: RuleSet) -> Result<&DistTable, TableError> {
        self.oracle
            .one_column
            .dists(rules)
            .ok_or_else(|| not_loaded(dist_path(&self.dir, rules)))
    }
}

/// The error of a table asked for before it was loaded.
fn not_loaded(path: PathBuf) -> TableError {
    TableError {
        path,
        problem: crate::tables::TableProblem::Missing,
    }
}
