//! The engine's workflows: one call per command of the `dicelens` binary, each returning a
//! typed result that one writer of [`crate::report`] renders. A program using the library
//! reproduces what a command writes by making the same call and handing its result to the same
//! writer (`examples/analyze.rs` does it for `dicelens analyze --out DIR`). Nothing here
//! prints: notices and progress go to the caller's [`crate::tables::Progress`] (or
//! [`crate::pipeline::Progress`]).

pub mod analyze;
pub mod bench;
pub mod convert;
pub mod ids;
pub mod player;
pub mod simulate;
pub mod tables;
pub mod validate;

use crate::corpus::Summary;
use std::fmt;

/// What a run over log files asks of what it read before it writes any output; a run that
/// falls short fails ([`RequiredError`]; the command line's exit code 1) and leaves the earlier outputs as they were.
pub struct Required {
    /// Log files read (`None` when the run read analyses, not logs).
    pub files: Option<usize>,
    /// `--strict`: no input file skipped.
    pub strict: bool,
    /// The run may use no game (one partition of a corpus: `--allow-empty`, `--byte-range`).
    pub allow_empty: bool,
    /// What the run does to a game, for the message: `rated`, `converted`.
    pub verb: &'static str,
}

impl Required {
    /// Checks `summary` (what was read): with `--strict`, no file skipped; unless the run may
    /// be empty, some file read and some game used.
    pub fn check(&self, summary: &Summary) -> Result<(), RequiredError> {
        let skipped = &summary.files_skipped;
        if self.strict && !skipped.is_empty() {
            return Err(RequiredError(format!(
                "--strict: {} input file{} skipped (first: {})",
                skipped.len(),
                if skipped.len() == 1 { "" } else { "s" },
                skipped[0]
            )));
        }
        if self.allow_empty || summary.games_used > 0 {
            return Ok(());
        }
        let verb = self.verb;
        Err(RequiredError(match self.files {
            Some(0) => format!("no game {verb}: no log file found"),
            Some(files) if skipped.len() >= files => format!(
                "no game {verb}: no input could be read ({} skipped)",
                if files == 1 {
                    "the file was".to_string()
                } else {
                    format!("all {files} files were")
                }
            ),
            _ if summary.games_read == 0 => format!("no game {verb}: the input holds no game"),
            _ => format!(
                "no game {verb}: all {} games read were skipped",
                summary.games_read
            ),
        }))
    }
}

/// Why a run does not have what its [`Required`] asks: one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequiredError(pub String);

impl fmt::Display for RequiredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RequiredError {}
