//! What `dicelens tables build` and `dicelens tables check` print: one line per table, as the
//! engine (`workflow::tables`) found or made it.

use crate::rules::jamb::JambRules;
use crate::rules::RuleSet;
use crate::tables::{Found, TableProblem};
use std::path::PathBuf;

/// How a table was found: valid, built by this run, or rebuilt because it was not valid.
#[derive(Clone, Debug, PartialEq)]
pub enum TableStatus {
    /// A valid table, kept.
    Valid,
    /// Built by this run (`tables build`) in `seconds`, `resumed` states of them from an
    /// interrupted build.
    Built {
        /// Seconds the build took.
        seconds: f64,
        /// States taken over from an interrupted build (distribution tables).
        resumed: u64,
    },
    /// Rebuilt when it was opened (`tables check`), and why.
    Rebuilt(TableProblem),
}

impl From<Found> for TableStatus {
    fn from(found: Found) -> TableStatus {
        match found {
            Found::Valid => TableStatus::Valid,
            Found::Rebuilt(problem) => TableStatus::Rebuilt(problem),
        }
    }
}

impl TableStatus {
    /// `valid`, `built in S s` (with `decimals` decimals, and the states resumed),
    /// `rebuilt (was PROBLEM)`.
    fn text(&self, decimals: usize) -> String {
        match self {
            TableStatus::Valid => "valid".to_string(),
            TableStatus::Built { seconds, resumed } => {
                let resumed = if *resumed > 0 {
                    format!(", {resumed} states resumed")
                } else {
                    String::new()
                };
                format!("built in {seconds:.decimals$} s{resumed}")
            }
            TableStatus::Rebuilt(problem) => format!("rebuilt (was {problem})"),
        }
    }
}

/// One table of a table directory, as `tables build` or `tables check` found or made it.
#[derive(Clone, Debug, PartialEq)]
pub enum TableLine {
    /// An expected-score table (`tables build`): its empty sheet's value.
    Expected {
        /// Its rule set.
        rules: RuleSet,
        /// The empty sheet's value.
        value: f64,
        /// How it was found.
        status: TableStatus,
        /// Its file.
        path: PathBuf,
    },
    /// An expected-score table checked against the published value (`tables check`).
    Published {
        /// Its rule set.
        rules: RuleSet,
        /// The empty sheet's value.
        value: f64,
        /// The published value.
        published: f64,
        /// Whether the two agree.
        agrees: bool,
        /// How it was found.
        status: TableStatus,
    },
    /// A distribution table: its empty sheet's "mean" (which exceeds the optimal expected
    /// score, docs/methods.md section 3) and its size.
    Dist {
        /// Its rule set.
        rules: RuleSet,
        /// The mean of the empty sheet's maximal probabilities.
        mean: f64,
        /// Values it stores.
        stored_values: u64,
        /// Bytes of its file.
        bytes: u64,
        /// How it was found.
        status: TableStatus,
        /// Its file.
        path: PathBuf,
    },
    /// The column tables of a Jamb rule set: their states.
    Jamb {
        /// Its rule set.
        rules: JambRules,
        /// States the tables value.
        states: usize,
        /// How they were found.
        status: TableStatus,
        /// Their file.
        path: PathBuf,
    },
}

impl TableLine {
    /// The line, newline included.
    pub fn text(&self) -> String {
        match self {
            TableLine::Expected {
                rules,
                value,
                status,
                path,
            } => format!(
                "{:<16} {value:>12.7}  {}  {}\n",
                rules.name(),
                status.text(3),
                path.display()
            ),
            TableLine::Published {
                rules,
                value,
                published,
                agrees,
                status,
            } => format!(
                "{:<16} {value:>12.7}  published {published:>12.7} {}  {}\n",
                rules.name(),
                if *agrees { "agrees" } else { "DIFFERS" },
                status.text(1)
            ),
            TableLine::Dist {
                rules,
                mean,
                stored_values,
                bytes,
                status,
                path,
            } => format!(
                "{:<16} dist  mean of P {mean:>9.4}  {stored_values:>11} values  {:>7.1} MB  {}  {}\n",
                rules.name(),
                *bytes as f64 / 1e6,
                status.text(1),
                path.display()
            ),
            TableLine::Jamb {
                rules,
                states,
                status,
                path,
            } => format!(
                "{:<16} columns  {states:>11} states  {}  {}\n",
                rules.name,
                status.text(1),
                path.display()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_as_the_commands_print_them() {
        let line = TableLine::Expected {
            rules: RuleSet::Yahtzee,
            value: 254.5896,
            status: TableStatus::Built {
                seconds: 1.23456,
                resumed: 0,
            },
            path: PathBuf::from("t/yahtzee.table"),
        };
        assert_eq!(
            line.text(),
            "yahtzee           254.5896000  built in 1.235 s  t/yahtzee.table\n"
        );
        let resumed = TableStatus::Built {
            seconds: 2.0,
            resumed: 7,
        };
        assert_eq!(resumed.text(1), "built in 2.0 s, 7 states resumed");
        assert_eq!(
            TableStatus::from(Found::Rebuilt(TableProblem::Missing)).text(1),
            format!("rebuilt (was {})", TableProblem::Missing)
        );
    }
}
