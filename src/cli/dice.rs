//! `dicelens dice`: are the dice of a corpus fair? The freshly rolled dice of every game are
//! counted per group (`dicelens::fairness`), tested against fair independent dice, and reported
//! as text (default), CSV or JSON on stdout, and with `--out` as a page with charts
//! (`dicelens::report::dice`). No oracle or table is needed.

use super::analyze::{cannot_write, open_out, Bar};
use super::flags::{not_between, FormatFlag, GameFilter, LogFiles, StrictFlag};
use super::{notice, print_stdout, wrote, CliError, Required};
use dicelens::fairness::{assess, count_corpus, Adjust, GroupBy, DEFAULT_LEVEL};
use dicelens::report::dice::{self, DiceReport};
use std::path::PathBuf;

/// The flags of `dicelens dice`.
#[derive(clap::Args, Clone, Debug)]
#[command(after_long_help = DICE_HELP)]
pub struct Args {
    #[command(flatten)]
    logs: LogFiles,
    #[command(flatten)]
    format: FormatFlag,
    #[command(flatten)]
    filter: GameFilter,
    #[command(flatten)]
    strict: StrictFlag,
    /// How rolls are grouped, one test per group: all (one group), player (the player who
    /// rolled), file, month (of the game's date) or site-tag (the game's Site tag).
    #[arg(long, default_value = "all", value_name = "GROUPING")]
    by: GroupBy,
    /// Correction of the p-values for the number of groups: holm (family-wise error) or bh
    /// (Benjamini-Hochberg, false discovery rate).
    #[arg(long, default_value = "holm", value_name = "METHOD")]
    adjust: Adjust,
    /// A group is flagged unfair when its adjusted p-value is below this level.
    #[arg(long, default_value_t = DEFAULT_LEVEL, value_name = "P")]
    level: f64,
    /// Print CSV (one row per group) instead of the text table.
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// Print JSON (one object per group) instead of the text table.
    #[arg(long)]
    json: bool,
    /// Also write dice.html (charts), dice.csv and dice.json into this directory.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// The long help's account of the tests.
const DICE_HELP: &str = "\
Only freshly rolled dice count (each roll minus the dice kept before it). Per group: face
counts against 1/6 each (chi-square, 5 df); sums of the rolls of n fresh dice against their
exact distribution; five of a kind against its exact expectation given the keeps; fresh dice
repeating a face of the same player's previous roll. A group's p-value is the smallest test
p-value times the number of tests (Bonferroni), then adjusted for the number of groups; the
verdict is unfair below --level (docs/dice.md).";

/// Runs `dicelens dice`.
pub fn run(args: Args) -> Result<(), CliError> {
    if !(args.level > 0.0 && args.level < 1.0) {
        return Err(not_between(
            "--level",
            "a probability (exclusive)",
            0,
            1,
            args.level,
        ));
    }
    let range = args.logs.range()?;
    let files = args.format.paths(&args.logs.files)?;
    let required = Required {
        files: Some(files.len()),
        strict: args.strict.strict,
        allow_empty: range.is_some(),
        verb: "counted",
    };
    let options = args.filter.reading(&args.format, range)?;
    let out = match &args.out {
        Some(dir) => Some(open_out(dir)?),
        None => None,
    };
    let (counts, summary) =
        count_corpus(&files, &options, args.by, &Bar::new()).map_err(CliError::failure)?;
    notice(summary.report().trim_end());
    required.check(&summary)?;
    let groups = assess(&counts, args.adjust, args.level);
    let report = DiceReport {
        groups: &groups,
        by: args.by,
        adjust: args.adjust,
        level: args.level,
        games_used: summary.games_used,
    };
    let out = match out {
        Some(mut out) => {
            out.write("dice.html", &dice::page(&report))
                .map_err(cannot_write)?;
            out.write("dice.csv", &dice::csv(&report))
                .map_err(cannot_write)?;
            out.write("dice.json", &dice::json(&report))
                .map_err(cannot_write)?;
            Some(out)
        }
        None => None,
    };
    // Printed before the page is put in place: a run that fails leaves the earlier page.
    print_stdout(&if args.json {
        dice::json(&report)
    } else if args.csv {
        dice::csv(&report)
    } else {
        dice::text(&report)
    })?;
    if let Some(out) = out {
        let path = out.path().join("dice.html");
        out.commit().map_err(cannot_write)?;
        wrote("dice page", &path);
    }
    Ok(())
}
