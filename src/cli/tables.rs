//! `dicelens tables build` and `dicelens tables check`, and how the commands show the tables
//! layer's notices and build progress ([`TerminalProgress`]).

use super::{notice, print_stdout, CliError};
use dicelens::rules::jamb::JambRules;
use dicelens::rules::{GameRules, RuleSet};
use dicelens::tables::{
    build_dist_file_reporting, build_expected, build_jamb, dist_partial_path, dist_path,
    expected_path, jamb_path, load_dist, load_expected, load_jamb, open_dist, open_expected,
    open_jamb, table_dir, write_expected, DistTable, Found, Progress, TableError, TableProblem,
};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

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
        /// jamb-5 build the Jamb oracle's column tables (minutes; a first Jamb analysis
        /// otherwise builds them before it rates a game).
        #[arg(long, default_value = "all")]
        rules: String,
        /// Rebuild even valid tables (a distribution build then starts over).
        #[arg(long)]
        force: bool,
        /// Build the score-distribution tables instead of the expected-score ones (minutes;
        /// an interrupted build resumes). Not for Jamb, which has none.
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
        } => build(dir.tables.as_deref(), &rule_sets(&rules)?, force, dist),
        Action::Check { dir } => check(dir.tables.as_deref()),
    }
}

/// The tables layer's notices on stderr (`dicelens: ...`) and its builds as a progress bar on
/// stderr when it is a terminal.
pub struct TerminalProgress {
    bar: Mutex<Option<indicatif::ProgressBar>>,
}

/// The commands' [`TerminalProgress`].
pub static TERMINAL: TerminalProgress = TerminalProgress {
    bar: Mutex::new(None),
};

impl TerminalProgress {
    /// The bar of the build under way, if any.
    fn with_bar(&self, f: impl FnOnce(&mut Option<indicatif::ProgressBar>)) {
        if let Ok(mut bar) = self.bar.lock() {
            f(&mut bar);
        }
    }
}

impl Progress for TerminalProgress {
    fn notice(&self, message: &str) {
        notice(message);
    }

    fn build_started(&self, what: &str, unit: &str) {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{msg}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{elapsed}}"
            ))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message(what.to_string());
        self.with_bar(|slot| *slot = Some(bar));
    }

    fn build_progress(&self, done: u64, total: u64) {
        self.with_bar(|slot| {
            if let Some(bar) = slot {
                bar.set_length(total);
                bar.set_position(done);
            }
        });
    }

    fn build_finished(&self) {
        self.with_bar(|slot| {
            if let Some(bar) = slot.take() {
                bar.finish_and_clear();
            }
        });
    }
}

/// Difference from a published value above which `check` reports a failure.
const PUBLISHED_TOLERANCE: f64 = 1e-6;

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

/// A table problem that stops the run, as the command's error; `Ok` for one mended by a
/// build.
fn stops(path: &Path, problem: &TableProblem) -> Result<(), CliError> {
    if problem.stops_the_run() {
        return Err(CliError::failure(TableError {
            path: path.to_path_buf(),
            problem: problem.clone(),
        }));
    }
    Ok(())
}

/// Runs `tables build`: builds (or with `force`, rebuilds) the expected-score tables of the
/// single-column rule sets of `rules` and the column tables of its Jamb rule sets, or with
/// `dist` the distribution tables (of single-column rule sets only).
fn build(dir: Option<&Path>, rules: &[GameRules], force: bool, dist: bool) -> Result<(), CliError> {
    let dir = table_dir(dir);
    let mut single = Vec::new();
    for &r in rules {
        match r {
            GameRules::Yahtzee(r) => single.push(r),
            GameRules::Jamb(_) if dist => {
                return Err(CliError::flag(
                    "--dist",
                    format!("{r} has no distribution tables (Jamb is rated by its column tables: drop --dist)"),
                ))
            }
            GameRules::Jamb(_) => {}
        }
    }
    if dist {
        return build_dists(&dir, &single, force);
    }
    for &r in rules {
        let r = match r {
            GameRules::Yahtzee(r) => r,
            GameRules::Jamb(j) => {
                build_jamb_tables(&dir, j, force)?;
                continue;
            }
        };
        if !force {
            match open_expected(&dir, r) {
                Ok(t) => {
                    print_stdout(&format!(
                        "{:<16} {:>12.7}  valid  {}\n",
                        r.name(),
                        t.empty_sheet_value(),
                        expected_path(&dir, r).display()
                    ))?;
                    continue;
                }
                Err(TableProblem::Missing) => {}
                Err(problem) => {
                    stops(&expected_path(&dir, r), &problem)?;
                    notice(&format!(
                        "table {} is {problem}; rebuilding it",
                        expected_path(&dir, r).display()
                    ))
                }
            }
        }
        let (table, seconds) = build_expected(r, &TERMINAL);
        write_expected(&dir, r, table.values()).map_err(|e| {
            CliError::failure(format!(
                "cannot write {}: {e}",
                expected_path(&dir, r).display()
            ))
        })?;
        print_stdout(&format!(
            "{:<16} {:>12.7}  built in {seconds:.3} s  {}\n",
            r.name(),
            table.empty_sheet_value(),
            expected_path(&dir, r).display()
        ))?;
    }
    Ok(())
}

/// One line about the column tables of a Jamb rule set: their states and their status.
fn jamb_line(rules: JambRules, states: usize, status: &str, path: &Path) -> String {
    format!(
        "{:<16} columns  {states:>11} states  {status}  {}\n",
        rules.name,
        path.display()
    )
}

/// Builds (or with `force`, rebuilds) the column tables of Jamb rule set `rules` in `dir`, as a
/// first Jamb analysis would; valid tables are kept.
fn build_jamb_tables(dir: &Path, rules: JambRules, force: bool) -> Result<(), CliError> {
    let path = jamb_path(dir, rules);
    if !force {
        match open_jamb(dir, rules) {
            Ok(t) => return print_stdout(&jamb_line(rules, t.states(), "valid", &path)),
            Err(TableProblem::Missing) => {}
            Err(problem) => {
                stops(&path, &problem)?;
                notice(&format!(
                    "table {} is {problem}; rebuilding it",
                    path.display()
                ))
            }
        }
    }
    let (tables, seconds) = build_jamb(dir, rules, &TERMINAL);
    let status = match open_jamb(dir, rules) {
        Ok(_) => format!("built in {seconds:.1} s"),
        Err(problem) => {
            return Err(CliError::failure(format!(
                "cannot write {}: it is {problem} after building it",
                path.display()
            )))
        }
    };
    print_stdout(&jamb_line(rules, tables.states(), &status, &path))
}

/// One line about a distribution table: its empty sheet's "mean" (which exceeds the optimal
/// expected score, docs/methods.md section 3) and its size.
fn dist_line(r: RuleSet, table: &DistTable, status: &str, path: &Path) -> String {
    let empty = dicelens::rules::Sheet::empty(r);
    let mean = table.sheet_dist(&empty).map_or(0.0, |d| d.mean());
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    format!(
        "{:<16} dist  mean of P {mean:>9.4}  {:>11} values  {:>7.1} MB  {status}  {}\n",
        r.name(),
        table.stored_values(),
        bytes as f64 / 1e6,
        path.display()
    )
}

/// Builds the distribution tables of `rules` (resuming an interrupted build unless `force`).
fn build_dists(dir: &Path, rules: &[RuleSet], force: bool) -> Result<(), CliError> {
    for &r in rules {
        let path = dist_path(dir, r);
        if !force {
            match open_dist(dir, r) {
                Ok(t) => {
                    print_stdout(&dist_line(r, &t, "valid", &path))?;
                    continue;
                }
                Err(TableProblem::Missing) => {}
                Err(problem) => {
                    stops(&path, &problem)?;
                    notice(&format!(
                        "table {} is {problem}; rebuilding it",
                        path.display()
                    ))
                }
            }
        } else {
            let _ = std::fs::remove_file(dist_partial_path(dir, r));
        }
        let cannot =
            |e: std::io::Error| CliError::failure(format!("cannot build {}: {e}", path.display()));
        let built = build_dist_file_reporting(dir, r, 0, None, &TERMINAL).map_err(cannot)?;
        let table = open_dist(dir, r).map_err(|p| {
            CliError::failure(format!("{} is {p} after building it", path.display()))
        })?;
        let resumed = if built.resumed > 0 {
            format!(", {} states resumed", built.resumed)
        } else {
            String::new()
        };
        let status = format!("built in {:.1} s{resumed}", built.seconds);
        print_stdout(&dist_line(r, &table, &status, &path))?;
    }
    Ok(())
}

/// How `tables check` found a table: `valid`, or `rebuilt (was PROBLEM)`.
fn found_status(found: Found) -> String {
    match found {
        Found::Valid => "valid".to_string(),
        Found::Rebuilt(problem) => format!("rebuilt (was {problem})"),
    }
}

/// Runs `tables check`: verifies every table (rebuilding any that is not valid), prints each
/// rule set's empty-sheet value, and fails if a value differs from the published one.
fn check(dir: Option<&Path>) -> Result<(), CliError> {
    let dir = table_dir(dir);
    let mut wrong = Vec::new();
    for r in RuleSet::ALL {
        let is_variant = !RuleSet::MAIN.contains(&r);
        if is_variant && !expected_path(&dir, r).exists() {
            continue;
        }
        let (table, found) = load_expected(&dir, r, &TERMINAL).map_err(CliError::failure)?;
        let value = table.empty_sheet_value();
        let published = r.published_empty_sheet_value();
        let agrees = (value - published).abs() <= PUBLISHED_TOLERANCE;
        if !agrees {
            wrong.push(r.name());
        }
        let status = found_status(found);
        print_stdout(&format!(
            "{:<16} {:>12.7}  published {:>12.7} {}  {status}\n",
            r.name(),
            value,
            published,
            if agrees { "agrees" } else { "DIFFERS" }
        ))?;
    }
    for r in RuleSet::ALL {
        let path = dist_path(&dir, r);
        if !path.exists() {
            continue;
        }
        let (table, found) = load_dist(&dir, r, &TERMINAL).map_err(CliError::failure)?;
        let status = found_status(found);
        // The "mean" of the maximal probabilities is at least the optimal expected score.
        let (expected, _) = load_expected(&dir, r, &TERMINAL).map_err(CliError::failure)?;
        let empty = dicelens::rules::Sheet::empty(r);
        let mean = table.sheet_dist(&empty).map_or(0.0, |d| d.mean());
        if mean < expected.empty_sheet_value() - 1e-3 {
            wrong.push(r.name());
        }
        print_stdout(&dist_line(r, &table, &status, &path))?;
    }
    for r in JambRules::ALL {
        let path = jamb_path(&dir, r);
        if !path.exists() {
            continue;
        }
        let (tables, found) = load_jamb(&dir, r, &TERMINAL).map_err(CliError::failure)?;
        let status = found_status(found);
        print_stdout(&jamb_line(r, tables.states(), &status, &path))?;
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(CliError::failure(format!(
            "tables disagree with the published values (or a distribution's mean is below the expected score): {}",
            wrong.join(", ")
        )))
    }
}
