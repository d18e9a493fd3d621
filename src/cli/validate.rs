//! `dicelens validate`: one game settled. First the legality verdict (the first rule the game
//! breaks, where, what the log says and what the rules give); then every decision rated, one
//! line per roll in the manner of Verhoeff's analysis table; then per-player totals (the
//! report is `dicelens::report::validate`'s).
//!
//! With `--html`, the game's page too (`dicelens::report::game`), in `--out` (default `games`).
//!
//! Exit codes: 0 legal, 1 illegal (a rule broken, or a syntax error in the game), 2 usage error.

use super::flags::{FormatFlag, OracleFlag, TablesFlag};
use super::tables::TERMINAL;
use super::{notice, print_stdout, CliError};
use dicelens::corpus::LogFile;
use dicelens::output::{make_dir, prepare_file, Finished};
use dicelens::pipeline::OracleRegistry;
use dicelens::rate::{rate_game, FamilyCache, Oracle, Rated};
use dicelens::replay::{replay, ReplayOptions, Replayed, Skip};
use dicelens::report::game;
use dicelens::report::validate::{error_game_id, Rating, ValidateReport};
use dicelens_parsers::{GameRecord, ParseError};
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
    format: FormatFlag,
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

/// Game ids listed in usage errors before `...`.
const IDS_LISTED: usize = 5;

/// A usage error that is about the input, not one flag (exit code 2).
fn usage(message: impl Into<String>) -> CliError {
    CliError {
        code: 2,
        message: message.into(),
    }
}

/// `a, b, c, ...`: the first few ids.
fn list_ids(ids: &[String], total: usize) -> String {
    let mut text = ids.join(", ");
    if total > ids.len() {
        text.push_str(", ...");
    }
    text
}

/// Finds the game to validate: the one with id `wanted`, or the only game of the file. As
/// `analyze` does, a game that parses comes before syntax errors of the same id (those do not
/// claim the id), and damaged lines outside games are no game (they are noted on stderr).
fn pick_game(
    file: &LogFile,
    wanted: Option<&str>,
) -> Result<(Result<GameRecord, ParseError>, usize), CliError> {
    let mut count = 0usize;
    let mut first_ids = Vec::new();
    let mut chosen = None;
    let mut matches = 0usize;
    file.for_each_game(|result| {
        if let Err(e) = &result {
            if e.outside_games {
                notice(&format!("damaged lines outside games: {e}"));
                return;
            }
        }
        count += 1;
        let id = match &result {
            Ok(game) => game.provenance.game_id.clone(),
            Err(e) => error_game_id(e),
        };
        let take = match wanted {
            Some(w) => id == w,
            None => count == 1,
        };
        if take {
            matches += 1;
            let parsed_first = result.is_ok() && matches!(chosen, Some(Err(_)));
            if chosen.is_none() || parsed_first {
                chosen = Some(result.cloned());
            }
        }
        if first_ids.len() < IDS_LISTED {
            first_ids.push(id);
        }
    });
    let name = file.name();
    let games = |n: usize| format!("{n} game{}", if n == 1 { "" } else { "s" });
    match (wanted, chosen) {
        (_, None) if count == 0 => Err(usage(format!("{name} holds no game"))),
        (Some(w), None) => Err(CliError::flag(
            "--game",
            format!(
                "no game '{w}' in {name}; it has {}: {}",
                games(count),
                list_ids(&first_ids, count)
            ),
        )),
        (None, _) if count > 1 => Err(usage(format!(
            "{name} has {}: {}; choose one with --game ID",
            games(count),
            list_ids(&first_ids, count)
        ))),
        (_, Some(game)) => Ok((game, matches)),
        (None, None) => Err(usage(format!("{name} holds no game"))),
    }
}

/// Runs `dicelens validate`: prints the report; an illegal game gives an error of code 1.
pub fn run(args: Args) -> Result<(), CliError> {
    let options = args.format.read_options()?;
    let file = LogFile::open_with(&args.file, args.format.format.fixed(), &options)
        .map_err(|e| usage(e.to_string()))?;
    let (chosen, matches) = pick_game(&file, args.game.as_deref())?;
    if matches > 1 {
        notice(&format!(
            "{matches} games of {} have this id; the first that parses is validated",
            file.name()
        ));
    }
    let (name, format) = (file.name().to_string(), file.format().to_string());
    let report = match chosen {
        Err(e) => ValidateReport::syntax_error(&name, &format, &e),
        Ok(game) => validate(&args, &name, &format, &game),
    };
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
        notice(&format!("game page: {}", path.display()));
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

/// Replays `game` (up to the first rule it breaks) and rates every decision replayed.
fn validate(args: &Args, name: &str, format: &str, game: &GameRecord) -> ValidateReport {
    let mut replayed = Replayed::default();
    let options = ReplayOptions {
        include_unfinished: true,
    };
    // On a broken rule the replay stops there, and `replayed.decisions` holds every decision
    // before it (those of the breaking turn that came before the bad roll included).
    let violation = match replay(game, options, &mut replayed) {
        Ok(()) => None,
        Err(Skip::Invalid(v)) => Some(v),
        // Not returned when unfinished games are included; an unfinished game is legal.
        Err(Skip::Unfinished(_)) => None,
    };
    let (rating, rated) = rate(args, &replayed);
    ValidateReport::game(
        name,
        format,
        game,
        &replayed,
        violation.as_ref(),
        rating,
        &rated,
    )
}

/// Rates the replayed decisions with the oracle of `--oracle` (games of several players rated
/// in match points are classified in that unit); returns how, and what could be rated.
fn rate(args: &Args, replayed: &Replayed) -> (Rating, Vec<Rated>) {
    let mut rating = Rating::new(args.oracle.oracle, replayed.seats);
    let mut rated = Vec::new();
    if replayed.rules.is_none() {
        rating.not_rated = Some("the rule set is unknown: no oracle can rate the game".into());
        return (rating, rated);
    }
    let mut tables = OracleRegistry::new(args.tables.tables.as_deref(), args.oracle.oracle);
    if !replayed.decisions.is_empty() {
        if let Err(e) = tables.load_for_game(replayed, &TERMINAL) {
            rating.not_rated = Some(e.to_string());
            return (rating, rated);
        }
    }
    let oracle = tables.oracle();
    rating.oracle = Some(oracle.describe());
    let mut cache = FamilyCache::default();
    if let Err(e) = rate_game(oracle, replayed, &rating.thresholds, &mut cache, &mut rated) {
        rating.not_rated = Some(e.partly_rated());
    }
    (rating, rated)
}
