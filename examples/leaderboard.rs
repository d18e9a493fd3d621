//! A leaderboard from every log file of a directory, with the library's pipeline: read,
//! replay, rate in parallel, aggregate, and the report layer's leaderboard text.
//!
//! `cargo run --release --example leaderboard -- DIR [MIN_GAMES]` (tables from
//! `$DICELENS_TABLES`, else `./tables`, built on first use).

use dicelens::pipeline::{analyze, Options};
use dicelens::ranking::leaderboards;
use dicelens::report::{leaderboard_text, oracle_shown};
use dicelens::tables::Silent;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().ok_or("usage: leaderboard DIR [MIN_GAMES]")?);
    let min_games: u64 = args.next().map_or(Ok(1), |n| n.parse())?;
    // Every file of the directory, in name order (the order gives the output's order).
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    let analysis = analyze(&files, &Options::default(), &mut (), &Silent)?;
    let boards = leaderboards(&analysis.aggregates, min_games);
    // The oracle named by the parts of the corpus, as `dicelens analyze` names it.
    let oracle = oracle_shown(&analysis.oracle, &analysis.aggregates);
    print!("{}", leaderboard_text(&boards, 20, &oracle, min_games));
    eprintln!(
        "{} games read, {} rated",
        analysis.summary.games_read,
        analysis.games_rated()
    );
    Ok(())
}
