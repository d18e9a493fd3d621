//! `tables`: the table files built and checked. [`build`] builds (or rebuilds) the tables of
//! some rule sets, [`check`] verifies every table of a directory against the published values;
//! each hands one [`TableLine`] per table to its caller as soon as the table is done (a build
//! takes minutes), for `report::tables` to write.

use crate::report::tables::{TableLine, TableStatus};
use crate::rules::jamb::JambRules;
use crate::rules::{GameRules, RuleSet, Sheet};
use crate::tables::{
    build_dist_file_reporting, build_expected, build_jamb, build_saved, dist_partial_path,
    dist_path, expected_path, jamb_path, load_dist, load_expected, load_jamb, open_dist,
    open_expected, open_jamb, open_saved, saved_path, write_expected, write_saved, DistTable,
    Progress, TableError, TableProblem,
};
use std::fmt;
use std::path::Path;

/// Difference from a published value above which [`check`] reports a failure.
const PUBLISHED_TOLERANCE: f64 = 1e-6;

/// Why a build or a check of the tables failed.
#[derive(Debug)]
pub enum TablesError {
    /// Distribution tables asked of a rule set that has none (Jamb).
    NoDistTables(GameRules),
    /// A table cannot be used or built where it belongs.
    Table(TableError),
    /// A table could not be built or written.
    Build(String),
    /// Tables whose values disagree with the published ones (or a distribution's mean below
    /// the expected score), by rule set.
    Disagree(Vec<&'static str>),
    /// The caller stopped the run (its line could not be written).
    Stopped(String),
}

impl fmt::Display for TablesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesError::NoDistTables(rules) => write!(
                f,
                "{rules} has no distribution tables (Jamb is rated by its column tables: drop --dist)"
            ),
            TablesError::Table(e) => e.fmt(f),
            TablesError::Build(why) | TablesError::Stopped(why) => f.write_str(why),
            TablesError::Disagree(names) => write!(
                f,
                "tables disagree with the published values (or a distribution's mean is below the expected score): {}",
                names.join(", ")
            ),
        }
    }
}

impl std::error::Error for TablesError {}

/// Where each table's line goes; an `Err` (the line could not be written) stops the run.
pub(crate) type EachLine<'a> = dyn FnMut(&TableLine) -> Result<(), String> + 'a;

/// A table problem that stops the run, as its error; `Ok` for one mended by a build.
fn stops(path: &Path, problem: &TableProblem) -> Result<(), TablesError> {
    if problem.stops_the_run() {
        return Err(TablesError::Table(TableError {
            path: path.to_path_buf(),
            problem: problem.clone(),
        }));
    }
    Ok(())
}

/// A table found not valid (`problem`) at `path`, before it is built: an error if the problem
/// stops the run, else (unless the table is just missing) a notice that it is rebuilt.
fn rebuild_or_stop(
    path: &Path,
    problem: &TableProblem,
    progress: &dyn Progress,
) -> Result<(), TablesError> {
    if *problem == TableProblem::Missing {
        return Ok(());
    }
    stops(path, problem)?;
    progress.notice(&format!(
        "table {} is {problem}; rebuilding it",
        path.display()
    ));
    Ok(())
}

/// Hands `line` to `each`.
fn emit(each: &mut EachLine, line: TableLine) -> Result<(), TablesError> {
    each(&line).map_err(TablesError::Stopped)
}

/// Builds (or with `force`, rebuilds) in `dir` the expected-score tables of the single-column
/// rule sets of `rules` and the column tables of its Jamb rule sets, or with `dist` the
/// distribution tables (of single-column rule sets only: a Jamb rule set is refused before
/// anything is built). Valid tables are kept. Notices and the builds' progress go to
/// `progress`; each table's line to `each`, once it is done.
pub fn build(
    dir: &Path,
    rules: &[GameRules],
    force: bool,
    dist: bool,
    progress: &dyn Progress,
    each: &mut EachLine,
) -> Result<(), TablesError> {
    let mut single = Vec::new();
    for &r in rules {
        match r {
            GameRules::Yahtzee(r) => single.push(r),
            GameRules::Jamb(_) if dist => return Err(TablesError::NoDistTables(r)),
            GameRules::Jamb(_) => {}
        }
    }
    if let Some(r) = single.iter().find(|r| dist && r.saves_rolls()) {
        return Err(TablesError::Build(format!(
            "{r} saves rolls: its distributions would need the bank of saved rolls, and \
             none are built (drop --dist to build its saved-rolls table)"
        )));
    }
    if dist {
        return build_dists(dir, &single, force, progress, each);
    }
    for &r in rules {
        let r = match r {
            GameRules::Yahtzee(r) => r,
            GameRules::Jamb(j) => {
                build_jamb_tables(dir, j, force, progress, each)?;
                continue;
            }
        };
        if r.saves_rolls() {
            build_saved_table_file(dir, r, force, progress, each)?;
            continue;
        }
        let path = expected_path(dir, r);
        if !force {
            match open_expected(dir, r) {
                Ok(t) => {
                    emit(
                        each,
                        TableLine::Expected {
                            rules: r,
                            value: t.empty_sheet_value(),
                            status: TableStatus::Valid,
                            path,
                        },
                    )?;
                    continue;
                }
                Err(problem) => rebuild_or_stop(&path, &problem, progress)?,
            }
        }
        let (table, seconds) = build_expected(r, progress);
        write_expected(dir, r, table.values())
            .map_err(|e| TablesError::Build(format!("cannot write {}: {e}", path.display())))?;
        emit(
            each,
            TableLine::Expected {
                rules: r,
                value: table.empty_sheet_value(),
                status: TableStatus::Built {
                    seconds,
                    resumed: 0,
                },
                path,
            },
        )?;
    }
    Ok(())
}

/// Builds (or with `force`, rebuilds) the saved-rolls table of `rules` (a rule set that saves
/// rolls) in `dir`, exact (bank cap 38 for Maxi Yatzy: 9.1 GB in memory and on disk); a valid
/// table is kept. Its line gives the empty sheet's value with no roll saved.
fn build_saved_table_file(
    dir: &Path,
    rules: RuleSet,
    force: bool,
    progress: &dyn Progress,
    each: &mut EachLine,
) -> Result<(), TablesError> {
    let path = saved_path(dir, rules);
    let empty = Sheet::empty(rules);
    if !force {
        match open_saved(dir, rules) {
            Ok(t) => {
                return emit(
                    each,
                    TableLine::Expected {
                        rules,
                        value: t.value(&empty, 0).unwrap_or(f64::NAN),
                        status: TableStatus::Valid,
                        path,
                    },
                )
            }
            Err(problem) => rebuild_or_stop(&path, &problem, progress)?,
        }
    }
    let (table, seconds) = build_saved(rules, progress);
    write_saved(dir, &table)
        .map_err(|e| TablesError::Build(format!("cannot write {}: {e}", path.display())))?;
    emit(
        each,
        TableLine::Expected {
            rules,
            value: table.value(&empty, 0).unwrap_or(f64::NAN),
            status: TableStatus::Built {
                seconds,
                resumed: 0,
            },
            path,
        },
    )
}

/// Builds (or with `force`, rebuilds) the column tables of Jamb rule set `rules` in `dir`, as a
/// first Jamb analysis would; valid tables are kept.
fn build_jamb_tables(
    dir: &Path,
    rules: JambRules,
    force: bool,
    progress: &dyn Progress,
    each: &mut EachLine,
) -> Result<(), TablesError> {
    let path = jamb_path(dir, rules);
    if !force {
        match open_jamb(dir, rules) {
            Ok(t) => {
                return emit(
                    each,
                    TableLine::Jamb {
                        rules,
                        states: t.states(),
                        status: TableStatus::Valid,
                        path,
                    },
                )
            }
            Err(problem) => rebuild_or_stop(&path, &problem, progress)?,
        }
    }
    let (tables, seconds) = build_jamb(dir, rules, progress);
    if let Err(problem) = open_jamb(dir, rules) {
        return Err(TablesError::Build(format!(
            "cannot write {}: it is {problem} after building it",
            path.display()
        )));
    }
    emit(
        each,
        TableLine::Jamb {
            rules,
            states: tables.states(),
            status: TableStatus::Built {
                seconds,
                resumed: 0,
            },
            path,
        },
    )
}

/// The line of distribution table `table` of `r` at `path`: its empty sheet's "mean" of the
/// maximal probabilities and its size.
fn dist_line(r: RuleSet, table: &DistTable, status: TableStatus, path: &Path) -> TableLine {
    TableLine::Dist {
        rules: r,
        mean: dist_mean(table, r),
        stored_values: table.stored_values(),
        bytes: std::fs::metadata(path).map_or(0, |m| m.len()),
        status,
        path: path.to_path_buf(),
    }
}

/// The "mean" of the maximal probabilities of `r`'s empty sheet in `table` (0 when it has none).
fn dist_mean(table: &DistTable, r: RuleSet) -> f64 {
    let empty = crate::rules::Sheet::empty(r);
    table.sheet_dist(&empty).map_or(0.0, |d| d.mean())
}

/// Builds the distribution tables of `rules` (resuming an interrupted build unless `force`).
fn build_dists(
    dir: &Path,
    rules: &[RuleSet],
    force: bool,
    progress: &dyn Progress,
    each: &mut EachLine,
) -> Result<(), TablesError> {
    for &r in rules {
        let path = dist_path(dir, r);
        if !force {
            match open_dist(dir, r) {
                Ok(t) => {
                    emit(each, dist_line(r, &t, TableStatus::Valid, &path))?;
                    continue;
                }
                Err(problem) => rebuild_or_stop(&path, &problem, progress)?,
            }
        } else {
            let _ = std::fs::remove_file(dist_partial_path(dir, r));
        }
        let built = build_dist_file_reporting(dir, r, 0, None, progress)
            .map_err(|e| TablesError::Build(format!("cannot build {}: {e}", path.display())))?;
        let table = open_dist(dir, r).map_err(|p| {
            TablesError::Build(format!("{} is {p} after building it", path.display()))
        })?;
        let status = TableStatus::Built {
            seconds: built.seconds,
            resumed: built.resumed,
        };
        emit(each, dist_line(r, &table, status, &path))?;
    }
    Ok(())
}

/// Verifies every table of `dir` (rebuilding any that is not valid), handing `each` one line
/// per table: each rule set's empty-sheet value against the published one (the variants'
/// only when their table is there), then the distribution tables present, then the Jamb
/// column tables present. Fails, once every line is given, if a value differs from the
/// published one or a distribution's mean is below the expected score.
pub fn check(dir: &Path, progress: &dyn Progress, each: &mut EachLine) -> Result<(), TablesError> {
    let mut wrong = Vec::new();
    for r in RuleSet::ALL {
        let is_variant = !RuleSet::MAIN.contains(&r);
        if is_variant && !expected_path(dir, r).exists() {
            continue;
        }
        // No value is published for Maxi Yatzy to check a table against.
        let Some(published) = r.published_empty_sheet_value() else {
            continue;
        };
        let (table, found) = load_expected(dir, r, progress).map_err(TablesError::Table)?;
        let value = table.empty_sheet_value();
        let agrees = (value - published).abs() <= PUBLISHED_TOLERANCE;
        if !agrees {
            wrong.push(r.name());
        }
        emit(
            each,
            TableLine::Published {
                rules: r,
                value,
                published,
                agrees,
                status: found.into(),
            },
        )?;
    }
    // The saved-rolls tables present, verified (no published value to compare with).
    for r in RuleSet::ALL.into_iter().filter(|r| r.saves_rolls()) {
        let path = saved_path(dir, r);
        if !path.exists() {
            continue;
        }
        let table = open_saved(dir, r).map_err(|problem| {
            TablesError::Table(TableError {
                path: path.clone(),
                problem,
            })
        })?;
        let value = table.value(&Sheet::empty(r), 0).unwrap_or(f64::NAN);
        let status = TableStatus::Valid;
        emit(
            each,
            TableLine::Expected {
                rules: r,
                value,
                status,
                path,
            },
        )?;
    }
    for r in RuleSet::ALL {
        let path = dist_path(dir, r);
        if !path.exists() {
            continue;
        }
        let (table, found) = load_dist(dir, r, progress).map_err(TablesError::Table)?;
        // The "mean" of the maximal probabilities is at least the optimal expected score.
        let (expected, _) = load_expected(dir, r, progress).map_err(TablesError::Table)?;
        if dist_mean(&table, r) < expected.empty_sheet_value() - 1e-3 {
            wrong.push(r.name());
        }
        emit(each, dist_line(r, &table, found.into(), &path))?;
    }
    for r in JambRules::ALL {
        let path = jamb_path(dir, r);
        if !path.exists() {
            continue;
        }
        let (tables, found) = load_jamb(dir, r, progress).map_err(TablesError::Table)?;
        emit(
            each,
            TableLine::Jamb {
                rules: r,
                states: tables.states(),
                status: found.into(),
                path,
            },
        )?;
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(TablesError::Disagree(wrong))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::Silent;

    /// A fresh table directory of the test `name`.
    fn fresh_dir(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("dicelens-wtables-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn distribution_tables_of_jamb_are_refused_before_anything_is_built() {
        let dir = fresh_dir("jamb-dist");
        let rules = [
            GameRules::Yahtzee(RuleSet::Yahtzee),
            "jamb-5".parse().expect("jamb-5"),
        ];
        let mut lines = Vec::new();
        let result = build(
            &dir,
            &rules,
            false,
            true,
            &Silent,
            &mut |line: &TableLine| {
                lines.push(line.clone());
                Ok(())
            },
        );
        let left = std::fs::read_dir(&dir).map_or(0, |d| d.count());
        let _ = std::fs::remove_dir_all(&dir);
        assert!(matches!(
            result,
            Err(TablesError::NoDistTables(GameRules::Jamb(_)))
        ));
        assert!(lines.is_empty());
        assert_eq!(left, 0);
    }

    #[test]
    fn a_table_path_that_is_no_file_stops_the_build() {
        let dir = fresh_dir("not-a-file");
        std::fs::create_dir_all(expected_path(&dir, RuleSet::Yahtzee)).expect("a directory");
        let rules = [GameRules::Yahtzee(RuleSet::Yahtzee)];
        let mut lines = 0;
        let result = build(&dir, &rules, false, false, &Silent, &mut |_: &TableLine| {
            lines += 1;
            Ok(())
        });
        let _ = std::fs::remove_dir_all(&dir);
        match result {
            Err(TablesError::Table(e)) => assert_eq!(e.path, expected_path(&dir, RuleSet::Yahtzee)),
            other => panic!("expected a table error, got {other:?}"),
        }
        assert_eq!(lines, 0);
    }

    #[test]
    fn a_line_that_cannot_be_written_stops_the_run() {
        let dir = fresh_dir("stopped");
        std::fs::create_dir_all(expected_path(&dir, RuleSet::Yahtzee)).expect("a directory");
        // The check stops at the first table, which cannot be used: no line is asked for.
        let result = check(
            &dir,
            &Silent,
            &mut |_: &TableLine| Err("closed".to_string()),
        );
        let _ = std::fs::remove_dir_all(&dir);
        assert!(matches!(result, Err(TablesError::Table(_))), "{result:?}");
    }
}
