//! `dicelens tables build` and `dicelens tables check` (the work is
//! `dicelens::workflow::tables`', the lines `dicelens::report::tables`'), and how the commands
//! show the tables layer's notices and build progress (`progress::TERMINAL`).

use super::progress::TERMINAL;
use super::{print_stdout, wrote, CliError};
use dicelens::report::tables::TableLine;
use dicelens::rules::{GameRules, RuleSet};
use dicelens::tables::table_dir;
use dicelens::workflow::tables::{build, check, TablesError};
use std::path::PathBuf;

/// The flags of `dicelens tables`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

/// `--tables DIR` of the `tables` subcommands (given before or after the subcommand).
#[derive(clap::Args)]
struct TablesDir {
    /// Table directory (default: $DICELENS_TABLES, else ./tables).
    #[arg(long, value_name = "DIR", global = true)]
    tables: Option<PathBuf>,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Build the tables that are missing or invalid (all with --force).
    Build {
        /// Rule set, comma-separated list, or `all` (the four main rule sets). jamb-4 and
        /// jamb-5 build the Jamb oracle's column tables (jamb-5: 66 MB, about 2 minutes to
        /// build on an idle 2-core machine, jamb-4: 130 MB, about 1.5 minutes; 9 and 14 minutes
        /// on one loaded by other builds; jamb-6a: 448 MB, about 95 minutes and then five
        /// rounds of fitting its weights, 12 to 24 minutes each; a first Jamb analysis
        /// otherwise builds them before it rates a game).
        #[arg(long, default_value = "all")]
        rules: String,
        /// Rebuild even valid tables (a distribution build then starts over).
        #[arg(long)]
        force: bool,
        /// Build the score-distribution tables instead of the expected-score ones (369 MB,
        /// about 70 seconds to build on an idle 2-core machine, 12 minutes on one loaded by other builds; an interrupted
        /// build resumes). Not for Jamb, which has none.
        #[arg(long)]
        dist: bool,
        #[command(flatten)]
        dir: TablesDir,
    },
    /// Verify every table and print each rule set's empty-sheet value (and the Jamb column
    /// tables present).
    Check {
        #[command(flatten)]
        dir: TablesDir,
    },
}

/// Runs `dicelens tables build` or `dicelens tables check`.
pub fn run(args: Args) -> Result<(), CliError> {
    match args.action {
        Action::Build {
            rules,
            force,
            dist,
            dir,
        } => {
            let rules = rule_sets(&rules)?;
            let dir = table_dir(dir.tables.as_deref());
            build(&dir, &rules, force, dist, &TERMINAL, &mut print_line).map_err(failed)?;
            wrote("tables", &dir);
            Ok(())
        }
        Action::Check { dir } => {
            let dir = table_dir(dir.tables.as_deref());
            check(&dir, &TERMINAL, &mut print_line).map_err(failed)
        }
    }
}

/// The rule sets named by `--rules` (`all`: the four main rule sets), of either family.
fn rule_sets(flag: &str) -> Result<Vec<GameRules>, CliError> {
    if flag == "all" {
        return Ok(RuleSet::MAIN.map(GameRules::Yahtzee).to_vec());
    }
    flag.split(',')
        .map(|name| {
            name.trim()
                .parse()
                .map_err(|e| CliError::flag("--rules", e))
        })
        .collect()
}

/// Prints one table's line.
fn print_line(line: &TableLine) -> Result<(), String> {
    print_stdout(&line.text()).map_err(|e| e.message)
}

/// A tables run's failure as the command's error (`--dist` of a Jamb rule set is a usage
/// error).
fn failed(e: TablesError) -> CliError {
    match e {
        TablesError::NoDistTables(_) => CliError::flag("--dist", e),
        e => CliError::failure(e),
    }
}
