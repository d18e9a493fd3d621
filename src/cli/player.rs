//! `dicelens player`: one player's report (text or JSON on stdout, an HTML page in `--out`),
//! from log files (every player is rated, for the percentile; the player's worst decisions are
//! kept) or from an analysis's `aggregates.json` (`--from DIR`, without the worst decisions).
//!
//! Exit codes: 0 done, 1 failure (no input read, no game rated, a file skipped with `--strict`),
//! 2 usage error (an unknown player included, and `--from` a directory that is not a complete
//! analysis).

use super::analyze::Bar;
use super::flags::{log_files_help, FormatFlag, GameFilter, OracleFlag, StrictFlag, TablesFlag};
use super::{print_stdout, wrote, CliError, Required};
use dicelens::output::{make_dir, prepare_file};
use dicelens::pipeline::Options;
use dicelens::report::player as page;
use dicelens::workflow::player::{player, PlayerError, PlayerSource};
use std::path::PathBuf;

/// `dicelens player` flags.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// The player's name, as in the logs.
    pub name: String,
    /// The log files, directories of them, or `-` for standard input.
    #[arg(conflicts_with = "from", help = log_files_help())]
    pub files: Vec<PathBuf>,
    /// Read DIR/aggregates.json of an earlier `analyze` instead of log files.
    #[arg(long, value_name = "DIR")]
    pub from: Option<PathBuf>,
    /// Output directory of the HTML page (NAME.html).
    #[arg(long, default_value = "player")]
    pub out: PathBuf,
    /// Least games for a player to be on the leaderboard, whose best tenth the player is
    /// compared with.
    #[arg(long, default_value_t = 500, value_parser = super::flags::parse_min_games)]
    pub min_games: u64,
    #[command(flatten)]
    pub format: FormatFlag,
    #[command(flatten)]
    pub filter: GameFilter,
    #[command(flatten)]
    pub tables: TablesFlag,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub oracle: OracleFlag,
    #[command(flatten)]
    pub strict: StrictFlag,
}

/// A usage error that is about the input, not one flag (exit code 2).
fn usage(message: impl Into<String>) -> CliError {
    CliError {
        code: 2,
        message: message.into(),
    }
}

/// Runs `dicelens player`: one call ([`player`]), then the report printed and its page written.
pub fn run(args: Args) -> Result<(), CliError> {
    let bar = Bar::new();
    let (options, files);
    let required = Required {
        files: None,
        strict: args.strict.strict,
        allow_empty: false,
        verb: "rated",
    };
    let source = match (&args.from, args.files.is_empty()) {
        (Some(_), false) => {
            return Err(usage("give either log files or --from DIR, not both"));
        }
        (None, true) => return Err(usage("give log files or --from DIR")),
        (Some(dir), true) => PlayerSource::Analysis(dir),
        (None, false) => {
            options = Options {
                oracle: args.oracle.oracle,
                tables: args.tables.tables.clone(),
                ..args.filter.reading(&args.format, None)?
            };
            files = args.format.paths(&args.files)?;
            PlayerSource::Logs {
                files: &files,
                options: &options,
                required: &Required {
                    files: Some(files.len()),
                    ..required
                },
                named: args.files.len(),
            }
        }
    };
    let run = player(&args.name, source, args.min_games, &bar).map_err(|e| match e {
        PlayerError::NotAnalysis(why) => CliError::flag("--from", why),
        PlayerError::UnknownPlayer(why) => usage(why),
        e => CliError::failure(e),
    })?;
    let report = run.report();
    make_dir(&args.out).map_err(CliError::failure)?;
    let path = args.out.join(page::file_name(&args.name));
    let html = prepare_file(&path, page::html(&report).as_bytes()).map_err(CliError::failure)?;
    if args.json {
        let json = page::json(&report);
        print_stdout(&(serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"))?;
    } else {
        print_stdout(&page::text(&report))?;
    }
    // Put in place once the report is printed (a run that fails leaves the earlier page).
    html.commit().map_err(CliError::failure)?;
    wrote("player page", &path);
    Ok(())
}
