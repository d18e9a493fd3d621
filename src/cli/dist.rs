//! `dicelens dist`: the distribution of a sheet's final score, `P(final >= x)` for every total
//! `x`, as a summary (or CSV with `--csv`) on stdout and an SVG chart in `--svg`; the outputs
//! are `dicelens::report::dist`'s.

use super::eval::SheetFlags;
use super::flags::{rule_sets_help, TablesFlag};
use super::progress::TERMINAL;
use super::{print_stdout, wrote, CliError};
use dicelens::output::prepare_file;
use dicelens::position::Position;
use dicelens::report::dist::{csv, summary, svg_chart};
use dicelens::report::eval::sheet_heading;
use dicelens::rules::RuleSet;
use dicelens::solve::distribution::FinalDist;
use dicelens::tables::{load_dist, table_dir};
use std::path::PathBuf;

/// The flags of `dicelens dist`.
#[derive(clap::Args, Clone, Debug)]
#[command(mut_arg("rules", |arg| arg.help(rule_sets_help("Rule set", RuleSet::ALL.into_iter().map(RuleSet::name)))))]
pub struct Args {
    #[command(flatten)]
    sheet: SheetFlags,
    /// Also write the distribution as a self-contained SVG chart to this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Print `total,p_at_least,p_below`, one row per total, instead of the summary.
    #[arg(long)]
    csv: bool,
    #[command(flatten)]
    tables: TablesFlag,
}

/// Runs `dicelens dist`: the summary (or CSV with `--csv`) on stdout, the chart in `--svg`.
pub fn run(args: Args) -> Result<(), CliError> {
    let sheet = Position::parse(&args.sheet.text())?.sheet;
    let dir = table_dir(args.tables.tables.as_deref());
    let (table, _) = load_dist(&dir, sheet.rules, &TERMINAL).map_err(CliError::failure)?;
    let dist = table.sheet_dist(&sheet).ok_or_else(|| {
        let flag = if args.sheet.state.is_some() {
            "--state"
        } else {
            "--filled"
        };
        CliError::flag(flag, "no distribution for this sheet")
    })?;
    let final_dist = FinalDist::new(sheet.points, dist);
    let heading = sheet_heading(&sheet);
    let chart = match &args.svg {
        Some(path) => Some(
            prepare_file(path, svg_chart(&final_dist, &heading).as_bytes())
                .map_err(CliError::failure)?,
        ),
        None => None,
    };
    print_stdout(&if args.csv {
        csv(&final_dist)
    } else {
        summary(&final_dist, &heading)
    })?;
    // Put in place once the summary is printed (a run that fails leaves the earlier chart).
    if let (Some(chart), Some(path)) = (chart, &args.svg) {
        chart.commit().map_err(CliError::failure)?;
        wrote("chart", path);
    }
    Ok(())
}
