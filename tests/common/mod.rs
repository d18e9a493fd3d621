//! Helpers shared by the integration tests.

use dicelens::rules::RuleSet;
use dicelens::solve::expected::build_table;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Each rule set's expected-score table, built once per test binary.
pub fn table(rules: RuleSet) -> &'static [f64] {
    static TABLES: OnceLock<Mutex<HashMap<RuleSet, &'static [f64]>>> = OnceLock::new();
    let mut map = TABLES.get_or_init(Default::default).lock().unwrap();
    map.entry(rules)
        .or_insert_with(|| build_table(rules, &|_, _| {}).leak())
}
