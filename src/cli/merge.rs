//! `dicelens merge`: combine the aggregates of several analyses (shards of a corpus, or an
//! earlier run plus new logs) and regenerate every output from them, as if the union of their
//! games had been analysed at once ([`dicelens::merge`]).

use super::analyze::{open_out, write_outputs, Bar, LeaderboardFlags};
use super::flags::TablesFlag;
use super::{CliError, Required};
use dicelens::merge::{merge, MergeError, MergeOptions, Shard};
use dicelens::output::check_complete;
use dicelens::report::AnalysisFiles;
use std::path::{Path, PathBuf};

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
    #[arg(long, default_value_t = 500)]
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
pub(super) const MERGE_REQUIRES: Required = Required {
    files: None,
    strict: false,
    allow_empty: false,
    verb: "rated",
};

/// Reads the analysis of every directory with `read`, after checking that each is the complete
/// output of a run (its manifest, and the files it lists with their sizes).
pub(super) fn read_shards(
    dirs: &[PathBuf],
    read: fn(&Path) -> Result<Shard, MergeError>,
) -> Result<Vec<Shard>, CliError> {
    dirs.iter()
        .map(|dir| {
            check_complete(dir).map_err(CliError::failure)?;
            read(dir).map_err(CliError::failure)
        })
        .collect()
}

/// Runs `dicelens merge`.
pub fn run(args: Args) -> Result<(), CliError> {
    if args.dirs.is_empty() {
        return Err(CliError::flag("DIR", "at least one analysis directory"));
    }
    if args.partitions {
        return super::partitions::merge(&args);
    }
    let shards = read_shards(&args.dirs, Shard::read_with_games)?;
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
    let files = AnalysisFiles {
        aggregates: &merged.aggregates,
        summary: &merged.summary,
        summary_file: &merged.summary_file,
        games: Some(&games),
        min_games: args.min_games,
        top: args.leaderboard.top,
        worst: None,
        game_pages: None,
    };
    write_outputs(out, &files, args.leaderboard.json, &MERGE_REQUIRES)
}
