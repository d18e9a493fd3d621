//! `dicelens validate`: one game settled. First the legality verdict (the first rule the game
//! breaks, where, what the log says and what the rules give); then every decision rated, one
//! line per roll in the manner of Verhoeff's analysis table; then per-player totals (the
//! work is `dicelens::workflow::validate`'s, the report `dicelens::report::validate`'s).
//!
//! With `--html`, the game's page too (`dicelens::report::game`), in `--out` (default `games`).
//!
//! Exit codes: 0 legal, 1 illegal (a rule broken, or a syntax error in the game), 2 usage error.

use super::flags::{OracleFlag, ReadFlags, TablesFlag};
use super::progress::TERMINAL;
use super::{print_stdout, wrote, CliError};
use dicelens::output::{make_dir, prepare_file, Finished};
use dicelens::report::game;
use dicelens::report::validate::ValidateReport;
use dicelens::workflow::validate::{validate, ValidateError, ValidateRequest};
use std::path::{Path, PathBuf};

/// The flags of `dicelens validate`.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// The log file.
    file: PathBuf,
    /// Id of the game to validate (needed when the file holds several games).
    #[arg(long, value_name = "ID")]
    game: Option<String>,
    #[command(flatten)]
    format: ReadFlags,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the game's page (scorecards, annotated moves, chart) as
    /// DIR/<game file name>.html; its path is printed on stderr.
    #[arg(long)]
    html: bool,
    /// The directory of --html's page (created if missing).
    #[arg(long, value_name = "DIR", default_value = "games", requires = "html")]
    out: PathBuf,
    #[command(flatten)]
    tables: TablesFlag,
    #[command(flatten)]
    oracle: OracleFlag,
}

/// A usage error that is about the input, not one flag (exit code 2).
fn usage(message: impl Into<String>) -> CliError {
    CliError {
        code: 2,
        message: message.into(),
    }
}

/// Runs `dicelens validate`: prints the report; an illegal game gives an error of code 1.
pub fn run(args: Args) -> Result<(), CliError> {
    let read_options = args.format.read_options()?;
    let request = ValidateRequest {
        file: &args.file,
        format: args.format.format.fixed(),
        read_options: &read_options,
        game: args.game.as_deref(),
        tables: args.tables.tables.as_deref(),
        oracle: args.oracle.oracle,
    };
    let report = validate(&request, &TERMINAL).map_err(|e| match e {
        ValidateError::NoSuchGame(why) => CliError::flag("--game", why),
        ValidateError::Input(why) => usage(why),
    })?;
    let out = if args.json {
        report
            .json()
            .map_err(|e| CliError::failure(format!("cannot write JSON: {e}")))?
    } else {
        report.text()
    };
    // The page is put in place once the verdict is printed (a run that fails leaves the
    // earlier page).
    let page = if args.html {
        Some(write_page(&args.out, &report)?)
    } else {
        None
    };
    print_stdout(&out)?;
    if let Some(page) = page {
        let path = page.path().to_path_buf();
        page.commit().map_err(CliError::failure)?;
        wrote("game page", &path);
    }
    match report.illegal() {
        Some(why) => Err(CliError::failure(why)),
        None => Ok(()),
    }
}

/// Writes the game page of `report` for `dir` (made if missing) under a temporary name, to be
/// committed.
fn write_page(dir: &Path, report: &ValidateReport) -> Result<Finished, CliError> {
    make_dir(dir).map_err(CliError::failure)?;
    let path = dir.join(game::file_name(&report.game));
    prepare_file(&path, game::page(report).as_bytes()).map_err(CliError::failure)
}
