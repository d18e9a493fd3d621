//! The integration tests of `dicelens-parsers`, one test binary: a module per subject, the
//! helpers they share in `common`.
//!
//! Proptest keeps the failures it found in `../proptest-regressions/MODULE.txt` (the default
//! place for a test whose source lies beside a `main.rs`) and replays them first.

mod common;

mod csv_errors;
mod csv_roundtrip;
mod fixtures;
mod games;
mod jsonl_errors;
mod jsonl_fixtures;
mod jsonl_roundtrip;
mod ranges;
mod six_dice;
mod streams;
mod verhoeff_errors;
mod verhoeff_fixtures;
mod verhoeff_roundtrip;
mod yatzy_solver_fixtures;
mod ygn_fixtures;
