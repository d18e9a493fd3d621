//! dicelens: reads logs of Yahtzee-family games, replays every decision and rates it against
//! optimal play.
//!
//! The crate mirrors the pipeline: [`dice`] and [`rules`] know the game, [`solve`] computes
//! values, [`tables`] stores them, [`replay`](mod@replay) turns game records (read by the
//! [`dicelens_parsers`] crate, re-exported as [`parsers`]) into checked decisions, [`rate`]
//! values every option of every decision with an [`Oracle`], [`aggregate`] adds the ratings up
//! per player and per round, [`pipeline`] does all of it over log files, and [`report`] writes
//! every output. Nothing here prints: progress and notices go to a caller's
//! [`tables::Progress`]. The most used items are re-exported at the crate root.
//!
//! # Replaying a game: every rule checked
//!
//! ```
//! use dicelens::{replay, Format, ReplayOptions, Replayed};
//!
//! let log = "\
//! [Game \"short\"]
//! [Rules \"yahtzee\"]
//! [Players \"ann\"]
//! [Termination \"abandoned\"]
//!
//! 1. ann: 13456 k3456 23456 LS=40
//! 2. ann: 66612 k666 66634 3K=25
//! ";
//! let game = Format::Ygn.games(log.as_bytes(), "short.ygn").next().unwrap()?;
//! let mut replayed = Replayed::default();
//! let options = ReplayOptions { include_unfinished: true };
//! replay(&game, options, &mut replayed).expect("legal");
//! // Four decisions: keep 3456, score LS; keep 666, score 3K.
//! assert_eq!(replayed.decisions.len(), 4);
//!
//! // The same turn with the wrong points is refused, with what the rules give.
//! let wrong = log.replace("3K=25", "3K=30");
//! let game = Format::Ygn.games(wrong.as_bytes(), "wrong.ygn").next().unwrap()?;
//! let why = replay(&game, options, &mut replayed).unwrap_err();
//! assert!(why.to_string().contains("3K=25"), "{why}");
//! # Ok::<(), dicelens::parsers::ParseError>(())
//! ```
//!
//! # Rating a game with the solitaire oracle
//!
//! ```
//! use dicelens::solve::expected::build_table;
//! use dicelens::{rate_game, replay, Format, ReplayOptions, Replayed, RuleSet, SolitaireOracle};
//! use dicelens::{Oracle, Thresholds};
//!
//! let log = include_str!("../fixtures/ygn/valid.ygn");
//! let game = Format::Ygn
//!     .games(log.as_bytes(), "valid.ygn")
//!     .filter_map(Result::ok)
//!     .find(|g| g.players.len() == 1 && g.rules == "yahtzee")
//!     .expect("a one-player game");
//! let mut replayed = Replayed::default();
//! replay(&game, ReplayOptions::default(), &mut replayed).expect("legal");
//!
//! // The optimal expected final score of every state (built in memory in about a second;
//! // `dicelens::tables` keeps it on disk).
//! let table = build_table(RuleSet::Yahtzee, &|_, _| {});
//! let oracle = SolitaireOracle::new([(RuleSet::Yahtzee, table)].into());
//! let mut rated = Vec::new();
//! let mut cache = Default::default();
//! rate_game(&oracle, &replayed, &Thresholds::POINTS, &mut cache, &mut rated)?;
//! assert_eq!(rated.len(), replayed.decisions.len());
//! // An error is never negative, and the best option is worth at least the one taken.
//! assert!(rated.iter().all(|r| r.error >= 0.0 && r.best >= r.chosen));
//! println!("{}: {:.2} points lost", oracle.describe(), rated.iter().map(|r| r.error).sum::<f64>());
//! # Ok::<(), dicelens::rate::RateError>(())
//! ```
//!
//! # A whole corpus
//!
//! [`analyze`] reads, replays and rates every game of a list of log files and returns the
//! [`Analysis`] (per-player and per-round aggregates, one part per unit of the errors: expected
//! points and expected match points, never added; the games skipped and why), handing each
//! rated game to a [`DecisionSink`]; `examples/leaderboard.rs` prints the leaderboards from it.
//!
//! ```no_run
//! use dicelens::{analyze, Options, OracleSpec};
//! use dicelens::tables::Silent;
//!
//! let options = Options { oracle: OracleSpec::DEFAULT, ..Options::default() };
//! let analysis = analyze(&["games.ygn".into()], &options, &mut (), &Silent)?;
//! for (key, part) in analysis.aggregates.parts() {
//!     for (player, stats) in &part.players {
//!         let unit = key.unit.short();
//!         println!("{player}: {:.3} {unit} per game of {} rounds", stats.error_per_game(), key.rounds);
//!     }
//! }
//! # Ok::<(), dicelens::AnalyzeError>(())
//! ```

// Every public item says what it is: a build fails on one without a doc comment.
#![deny(missing_docs)]

pub mod aggregate;
pub mod compare;
pub mod corpus;
pub mod dice;
pub mod evaluate;
pub mod fairness;
pub mod files;
mod game_hash;
pub mod merge;
pub mod output;
mod path_name;
pub mod pipeline;
pub mod position;
pub mod ranking;
pub mod rate;
mod registry;
pub mod replay;
pub mod report;
pub mod rows;
pub mod rules;
pub mod screening;
pub mod selfplay;
pub mod serve;
pub mod simulate;
pub mod solve;
pub mod store;
pub mod tables;
pub mod workflow;
pub mod worst;

/// The game-log formats and the canonical game record (the `dicelens-parsers` crate).
pub use dicelens_parsers as parsers;

pub use aggregate::Aggregates;
pub use corpus::{InputFormat, SkipReason};
pub use dice::Dice;
pub use dicelens_parsers::{Format, GameReader, GameRecord, ParseError};
pub use evaluate::{evaluate, EvalError, Evaluation, Question};
pub use game_hash::ContentHash;
pub use pipeline::{analyze, Analysis, AnalyzeError, Analyzer, DecisionSink, Options};
pub use position::Position;
pub use rate::{
    rate_game, Class, FamilyOracles, MatchOracle, Oracle, OracleSpec, RateError, Rated,
    SolitaireOracle, Thresholds, Unit,
};
pub use replay::{replay, Decision, ReplayOptions, Replayed};
pub use rules::{Choice, RuleSet, Sheet};
