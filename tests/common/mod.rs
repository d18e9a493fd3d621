//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test binary uses a different part

use dicelens::rules::RuleSet;
use dicelens::solve::expected::build_table;
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::{Mutex, OnceLock};

/// Each rule set's expected-score table, built once per test binary.
pub fn table(rules: RuleSet) -> &'static [f64] {
    static TABLES: OnceLock<Mutex<HashMap<RuleSet, &'static [f64]>>> = OnceLock::new();
    let mut map = TABLES.get_or_init(Default::default).lock().unwrap();
    map.entry(rules)
        .or_insert_with(|| build_table(rules, &|_, _| {}).leak())
}

/// A table directory shared by the tests of one binary (tables built on first use).
pub fn tables_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().unwrap()).path()
}

/// Runs the binary with the shared tables and `threads` rayon threads.
pub fn run(args: &[&str], threads: usize) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(args)
        .env("DICELENS_TABLES", tables_dir())
        .env("RAYON_NUM_THREADS", threads.to_string())
        .output()
        .expect("the binary runs")
}

/// Runs the binary like [`run`]; panics with its stderr unless it succeeds; returns stdout.
pub fn run_ok(args: &[&str], threads: usize) -> String {
    let out = run(args, threads);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Bytes as text (lossy).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Rows of a CSV file as maps from column name to value, keyed by the first column.
pub fn csv_rows(path: &Path) -> HashMap<String, HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            let row = headers
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect();
            (r[0].to_string(), row)
        })
        .collect()
}
