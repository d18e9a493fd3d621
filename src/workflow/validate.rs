//! `validate`: one game of a log settled. [`validate`] finds the game (by id, or the only one
//! of the file), replays it up to the first rule it breaks and rates every decision replayed;
//! the [`ValidateReport`] it returns is written by `report::validate` (and `report::game` for
//! its page).

use crate::corpus::LogFile;
use crate::pipeline::OracleRegistry;
use crate::rate::{
    describe_present, rate_game, FamilyCache, Oracle, OracleSpec, Present, Rated, Thresholds,
};
use crate::replay::{replay, ReplayOptions, Replayed, Skip};
use crate::report::validate::{error_game_id, Rating, ValidateReport};
use crate::tables::Progress;
use dicelens_parsers::{Format, GameRecord, ParseError, ReadOptions};
use std::fmt;
use std::path::Path;

/// Game ids listed in errors before `...`.
const IDS_LISTED: usize = 5;

/// What [`validate`] settles: which game of which file, rated by which oracle.
pub struct ValidateRequest<'a> {
    /// The log file.
    pub file: &'a Path,
    /// Its format, when it is not recognised from the content.
    pub format: Option<Format>,
    /// How the file is read.
    pub read_options: &'a ReadOptions,
    /// Id of the game to validate (needed when the file holds several games).
    pub game: Option<&'a str>,
    /// The table directory (`None`: the default one).
    pub tables: Option<&'a Path>,
    /// The oracle that rates the decisions.
    pub oracle: OracleSpec,
}

/// Why no game could be settled: the input, not the game (a game that breaks a rule is a
/// [`ValidateReport`] that says so).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValidateError {
    /// The file cannot be read, holds no game, or holds several and none was chosen.
    Input(String),
    /// No game of the file has the id asked for (`--game`).
    NoSuchGame(String),
}

impl fmt::Display for ValidateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValidateError::Input(why) | ValidateError::NoSuchGame(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ValidateError {}

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
/// claim the id), and damaged lines outside games are no game (they are noted to `progress`).
/// Returns the game and how many games have its id.
fn pick_game(
    file: &LogFile,
    wanted: Option<&str>,
    progress: &dyn Progress,
) -> Result<(Result<GameRecord, ParseError>, usize), ValidateError> {
    let mut count = 0usize;
    let mut first_ids = Vec::new();
    let mut chosen = None;
    let mut matches = 0usize;
    file.for_each_game(|result| {
        if let Err(e) = &result {
            if e.outside_games {
                progress.notice(&format!("damaged lines outside games: {e}"));
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
        (_, None) if count == 0 => Err(ValidateError::Input(format!("{name} holds no game"))),
        (Some(w), None) => Err(ValidateError::NoSuchGame(format!(
            "no game '{w}' in {name}; it has {}: {}",
            games(count),
            list_ids(&first_ids, count)
        ))),
        (None, _) if count > 1 => Err(ValidateError::Input(format!(
            "{name} has {}: {}; choose one with --game ID",
            games(count),
            list_ids(&first_ids, count)
        ))),
        (_, Some(game)) => Ok((game, matches)),
        (None, None) => Err(ValidateError::Input(format!("{name} holds no game"))),
    }
}

/// Settles one game: finds it ([`ValidateRequest::game`]), replays it up to the first rule it
/// breaks and rates every decision replayed. A syntax error in the game is a report too. Notices
/// (damaged lines outside games, several games of the id, tables built) go to `progress`.
pub fn validate(
    request: &ValidateRequest,
    progress: &dyn Progress,
) -> Result<ValidateReport, ValidateError> {
    let file = LogFile::open_with(request.file, request.format, request.read_options)
        .map_err(|e| ValidateError::Input(e.to_string()))?;
    let (chosen, matches) = pick_game(&file, request.game, progress)?;
    if matches > 1 {
        progress.notice(&format!(
            "{matches} games of {} have this id; the first that parses is validated",
            file.name()
        ));
    }
    let (name, format) = (file.name().to_string(), file.format().to_string());
    Ok(match chosen {
        Err(e) => ValidateReport::syntax_error(&name, &format, &e),
        Ok(game) => settle(request, &name, &format, &game, progress),
    })
}

/// Replays `game` (up to the first rule it breaks) and rates every decision replayed.
fn settle(
    request: &ValidateRequest,
    name: &str,
    format: &str,
    game: &GameRecord,
    progress: &dyn Progress,
) -> ValidateReport {
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
    let (rating, rated) = rate(request, &replayed, progress);
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

/// Rates the replayed decisions with the oracle asked for (games of several players rated in
/// match points are classified in that unit); returns how, and what could be rated.
fn rate(
    request: &ValidateRequest,
    replayed: &Replayed,
    progress: &dyn Progress,
) -> (Rating, Vec<Rated>) {
    let mut rating = Rating::new(request.oracle, replayed.seats);
    let mut rated = Vec::new();
    if replayed.rules.is_none() {
        rating.not_rated = Some("the rule set is unknown: no oracle can rate the game".into());
        return (rating, rated);
    }
    let mut tables = OracleRegistry::new(request.tables, request.oracle);
    if !replayed.decisions.is_empty() {
        if let Err(e) = tables.load_for_game(replayed, progress) {
            rating.not_rated = Some(e.to_string());
            return (rating, rated);
        }
    }
    let oracle = tables.oracle();
    rating.oracle = Some(describe_present(
        &oracle.describe(),
        Present::of_game(replayed.rules, replayed.seats),
    ));
    // The oracle that rates the game says its unit (a Jamb game is rated in points whatever
    // the spec says of one-column games of several players).
    rating.unit = oracle.unit(replayed.rules, replayed.seats);
    rating.thresholds = Thresholds::for_unit(rating.unit);
    let mut cache = FamilyCache::default();
    if let Err(e) = rate_game(oracle, replayed, &rating.thresholds, &mut cache, &mut rated) {
        rating.not_rated = Some(e.partly_rated());
    }
    (rating, rated)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two games of one player: `g1` legal, `g2` a syntax error.
    const LOG: &str = "[Game \"g1\"]\n[Rules \"yahtzee\"]\n[Players \"ann\"]\n[Termination \"abandoned\"]\n\n1. ann: 13456 k3456 23456 LS=40\n\n[Game \"g2\"]\n[Rules \"yahtzee\"]\n[Players \"ann\"]\n[Termination \"abandoned\"]\n\n1. ann: 1345 LS=40\n";

    /// Validates game `game` of [`LOG`] (written to a file of its own), notices kept.
    fn run(game: Option<&str>) -> (Result<ValidateReport, ValidateError>, Vec<String>) {
        let dir = std::env::temp_dir().join(format!(
            "dicelens-validate-{}-{}",
            std::process::id(),
            game.unwrap_or("none")
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let log = dir.join("two.ygn");
        std::fs::write(&log, LOG).expect("write log");
        let read_options = ReadOptions::default();
        let request = ValidateRequest {
            file: &log,
            format: None,
            read_options: &read_options,
            game,
            tables: Some(&dir),
            oracle: OracleSpec::default(),
        };
        let notices = std::sync::Mutex::new(Vec::new());
        let progress = |m: &str| notices.lock().expect("lock").push(m.to_string());
        let result = validate(&request, &progress);
        let _ = std::fs::remove_dir_all(&dir);
        (result, notices.into_inner().expect("lock"))
    }

    #[test]
    fn several_games_and_no_id_ask_for_one() {
        let (result, _) = run(None);
        match result.err() {
            Some(ValidateError::Input(why)) => assert!(
                why.ends_with("two.ygn has 2 games: g1, g2; choose one with --game ID"),
                "{why}"
            ),
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn an_id_not_in_the_file_lists_those_that_are() {
        let (result, _) = run(Some("g9"));
        match result.err() {
            Some(ValidateError::NoSuchGame(why)) => {
                assert!(why.starts_with("no game 'g9' in "), "{why}");
                assert!(why.ends_with("two.ygn; it has 2 games: g1, g2"), "{why}");
            }
            other => panic!("expected no such game, got {other:?}"),
        }
    }

    #[test]
    fn a_game_with_a_syntax_error_is_reported_illegal() {
        let (result, notices) = run(Some("g2"));
        let report = result.expect("a report");
        assert!(report.illegal().is_some(), "{}", report.text());
        assert!(notices.is_empty(), "{notices:?}");
    }
}
