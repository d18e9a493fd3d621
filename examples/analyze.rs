//! Exactly what `dicelens analyze LOGS --out DIR` writes in DIR, made with the library: one
//! call ([`analyze_with_pages`]: the corpus rated, its rows and game pages written) and one
//! writer ([`dicelens::report::write_analysis`]: the statistics, the summary, the report and
//! the player pages), then the files put in place together.
//!
//! Usage: `cargo run --example analyze -- DIR LOG...` (tables from `$DICELENS_TABLES`, else
//! `./tables`; the flags' defaults of `dicelens analyze`).

use dicelens::output::OutputDir;
use dicelens::pipeline::{Analyzer, Options};
use dicelens::report::write_analysis;
use dicelens::tables::Silent;
use dicelens::workflow::analyze::{analyze_with_pages, AnalyzeRequest};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let (Some(out), files) = (args.next(), args.collect::<Vec<_>>()) else {
        eprintln!("usage: analyze DIR LOG...");
        return ExitCode::from(2);
    };
    match run(out, files) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("analyze: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Analyses `files` into the directory `out`, as `dicelens analyze` does with its defaults.
fn run(out: PathBuf, files: Vec<PathBuf>) -> Result<(), Box<dyn std::error::Error>> {
    let analyzer = Analyzer::new(Options::default());
    let mut out = OutputDir::open(&out)?;
    let request = AnalyzeRequest {
        files,
        min_games: 500,
        top: 20,
        decisions: false,
    };
    let run = analyze_with_pages(analyzer, &request, &mut out, &Silent)?;
    write_analysis(&mut out, &run.files())?;
    out.commit()?;
    println!("{} games rated", run.analysis.games_rated());
    Ok(())
}
