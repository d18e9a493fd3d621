//! `dicelens merge`: combine the aggregates of several analyses (shards of a corpus, or an
//! earlier run plus new logs) and regenerate every output from them, as if the union of their
//! games had been analysed at once ([`dicelens::merge`]); with `--partitions`, the analyses of
//! consecutive partitions of one corpus merged into exactly the outputs of one `analyze` of it.

use super::analyze::{open_out, write_outputs, Bar, LeaderboardFlags};
use super::flags::TablesFlag;
use super::{CliError, Required};
use dicelens::merge::{merge, merge_partitions, read_analyses, MergeOptions};
use dicelens::report::AnalysisFiles;
use std::path::PathBuf;

/// `dicelens merge` flags.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Output directories of earlier `analyze` (or `merge`) runs.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Output directory: a new or empty one, or one dicelens wrote (it may be one of the DIRs).
    #[arg(long)]
    pub out: PathBuf,
    /// Least games for a player to be on the leaderboard.
    #[arg(long, default_value_t = 500, value_parser = super::flags::parse_min_games)]
    pub min_games: u64,
    #[command(flatten)]
    pub leaderboard: LeaderboardFlags,
    /// Table directory (default: $DICELENS_TABLES, else ./tables), to rate duplicate games again
    /// (with the oracle the shards were rated with).
    #[command(flatten)]
    pub tables: TablesFlag,
    /// The DIRs are analyses of consecutive partitions of one corpus, in corpus order, made
    /// with the same flags (and --seen-ids): the outputs are those of one `analyze` of the
    /// corpus, byte for byte; a game id rated in two of them is an error.
    #[arg(long)]
    pub partitions: bool,
    /// Merge even when some duplicate games cannot be subtracted (their log changed since its
    /// analysis, or cannot be found): they stay counted twice, and are listed on stderr and in
    /// summary.json (duplicates_not_subtracted). Without it, that is an error.
    #[arg(long, conflicts_with = "partitions")]
    pub force: bool,
}

/// What a merge asks of the analyses it merged: some game rated (exit code 1 otherwise).
const MERGE_REQUIRES: Required = Required {
    files: None,
    strict: false,
    allow_empty: false,
    verb: "rated",
};

/// Runs `dicelens merge`: one call ([`merge`], or [`merge_partitions`] with `--partitions`),
/// then the outputs written ([`write_outputs`]).
pub fn run(args: Args) -> Result<(), CliError> {
    if args.dirs.is_empty() {
        return Err(CliError::flag("DIR", "at least one analysis directory"));
    }
    let shards = read_analyses(&args.dirs, !args.partitions).map_err(CliError::failure)?;
    let (out, merged, games) = if args.partitions {
        let (out, merged) = merge_partitions(&shards, &args.out).map_err(CliError::failure)?;
        (out, merged, None)
    } else {
        let out = open_out(&args.out)?;
        let options = MergeOptions {
            tables: args.tables.tables.clone(),
            force: args.force,
        };
        let merged = merge(&shards, &options, &Bar::new()).map_err(CliError::failure)?;
        let mut games = String::new();
        for row in &merged.games {
            row.write(&mut games);
        }
        (out, merged, Some(games))
    };
    let files = AnalysisFiles {
        aggregates: &merged.aggregates,
        summary: &merged.summary,
        summary_file: &merged.summary_file,
        games: games.as_deref(),
        min_games: args.min_games,
        top: args.leaderboard.top,
        worst: None,
        game_pages: None,
    };
    write_outputs(out, &files, args.leaderboard.json, &MERGE_REQUIRES)
}
