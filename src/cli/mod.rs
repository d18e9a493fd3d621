//! The commands of the `dicelens` binary (not part of the library): each takes its flags, makes
//! one call into the engine and hands the result to one writer of `dicelens::report`. Data goes to stdout; notices and progress go to stderr.

pub mod analyze;
pub mod bench;
pub mod bench_build;
pub mod bench_oracles;
pub mod bench_read;
pub mod convert;
pub mod dice;
pub mod dist;
pub mod eval;
pub mod flags;
pub mod ids;
pub mod merge;
pub mod player;
pub mod progress;
pub mod serve;
pub mod simulate;
pub mod tables;
pub mod threads;
pub mod validate;

use std::fmt;

/// A command's failure: the message (one line) and the process exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    /// Exit code: 2 for usage errors, 1 for failures.
    pub code: i32,
    /// What went wrong.
    pub message: String,
}

impl CliError {
    /// A usage error about one flag (exit code 2).
    pub fn flag(flag: &str, problem: impl fmt::Display) -> CliError {
        CliError {
            code: 2,
            message: format!("{flag}: {problem}"),
        }
    }

    /// A failure that is not the user's input (exit code 1).
    pub fn failure(problem: impl fmt::Display) -> CliError {
        CliError {
            code: 1,
            message: problem.to_string(),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

pub use dicelens::workflow::{Required, RequiredError};

impl From<RequiredError> for CliError {
    fn from(e: RequiredError) -> CliError {
        CliError::failure(e)
    }
}

/// Writes command output to stdout. A closed pipe (`dicelens eval ... | head`) is not an
/// error: the reader has what it wanted.
pub fn print_stdout(text: &str) -> Result<(), CliError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::failure(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}

/// Says on stderr where a command put what it wrote, in the one wording every command uses:
/// `dicelens: WHAT written to PATH` (a directory of reports, a page, a chart, a corpus).
pub fn wrote(what: &str, path: &std::path::Path) {
    notice(&format!("{what} written to {}", path.display()));
}

/// Prints a notice line on stderr. A failed write (stderr closed, a full disk, a reader gone)
/// is ignored: a notice is never worth a panic, and the exit code says how the run went.
pub fn notice(message: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "dicelens: {message}");
}
