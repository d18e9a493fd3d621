//! `dicelens tables build` and `dicelens tables check`.

use super::{notice, print_stdout, CliError};
use dicelens::rules::RuleSet;
use dicelens::tables::{
    build_dist_file, build_expected, dist_partial_path, dist_path, expected_path, load_dist,
    load_expected, open_dist, open_expected, table_dir, write_expected, DistTable, Found,
    TableProblem,
};
use std::path::Path;

/// Difference from a published value above which `check` reports a failure.
const PUBLISHED_TOLERANCE: f64 = 1e-6;

/// The rule sets named by `--rules` (`all`: the four main rule sets).
pub fn rule_sets(flag: &str) -> Result<Vec<RuleSet>, CliError> {
    if flag == "all" {
        return Ok(RuleSet::MAIN.to_vec());
    }
    flag.split(',')
        .map(|name| {
            name.trim()
                .parse()
                .map_err(|e| CliError::flag("--rules", e))
        })
        .collect()
}

/// Runs `tables build`: builds (or with `force`, rebuilds) the expected-score tables of
/// `rules`, or with `dist` their distribution tables.
pub fn build(
    dir: Option<&Path>,
    rules: &[RuleSet],
    force: bool,
    dist: bool,
) -> Result<(), CliError> {
    let dir = table_dir(dir);
    if dist {
        return build_dists(&dir, rules, force);
    }
    for &r in rules {
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
                Err(problem) => notice(&format!(
                    "table {} is {problem}; rebuilding it",
                    expected_path(&dir, r).display()
                )),
            }
        }
        let (table, seconds) = build_expected(r);
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
                Err(problem) => notice(&format!(
                    "table {} is {problem}; rebuilding it",
                    path.display()
                )),
            }
        } else {
            let _ = std::fs::remove_file(dist_partial_path(dir, r));
        }
        let cannot =
            |e: std::io::Error| CliError::failure(format!("cannot build {}: {e}", path.display()));
        let built = build_dist_file(dir, r, 0, None).map_err(cannot)?;
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

/// Runs `tables check`: verifies every table (rebuilding any that is not valid), prints each
/// rule set's empty-sheet value, and fails if a value differs from the published one.
pub fn check(dir: Option<&Path>) -> Result<(), CliError> {
    let dir = table_dir(dir);
    let mut wrong = Vec::new();
    for r in RuleSet::ALL {
        let is_variant = !RuleSet::MAIN.contains(&r);
        if is_variant && !expected_path(&dir, r).exists() {
            continue;
        }
        let (table, found) = load_expected(&dir, r, &notice);
        let value = table.empty_sheet_value();
        let published = r.published_empty_sheet_value();
        let agrees = (value - published).abs() <= PUBLISHED_TOLERANCE;
        if !agrees {
            wrong.push(r.name());
        }
        let status = match found {
            Found::Valid => "valid".to_string(),
            Found::Rebuilt(problem) => format!("rebuilt (was {problem})"),
        };
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
        let (table, found) = load_dist(&dir, r, &notice);
        let status = match found {
            Found::Valid => "valid".to_string(),
            Found::Rebuilt(problem) => format!("rebuilt (was {problem})"),
        };
        // The "mean" of the maximal probabilities is at least the optimal expected score.
        let (expected, _) = load_expected(&dir, r, &notice);
        let empty = dicelens::rules::Sheet::empty(r);
        let mean = table.sheet_dist(&empty).map_or(0.0, |d| d.mean());
        if mean < expected.empty_sheet_value() - 1e-3 {
            wrong.push(r.name());
        }
        print_stdout(&dist_line(r, &table, &status, &path))?;
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
