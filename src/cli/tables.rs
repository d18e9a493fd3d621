//! `dicelens tables build` and `dicelens tables check`.

use super::{notice, print_stdout, CliError};
use crate::rules::RuleSet;
use crate::tables::{
    build_expected, expected_path, load_expected, open_expected, table_dir, write_expected, Found,
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

/// Runs `tables build`: builds (or with `force`, rebuilds) the tables of `rules`.
pub fn build(dir: Option<&Path>, rules: &[RuleSet], force: bool) -> Result<(), CliError> {
    let dir = table_dir(dir);
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
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(CliError::failure(format!(
            "empty-sheet values differ from the published ones: {}",
            wrong.join(", ")
        )))
    }
}
