//! The expected outcomes of the fixtures: each folder's `EXPECTED.csv`, one row per outcome of a
//! reader, in the order the reader returns them.
//!
//! Columns (by name; the first line names them):
//! - `file`: the fixture's file name; `outcome`: 1, 2, ... per file;
//! - `kind`: `game` (a game read), `error` (a syntax error) or `end` (the reader returns
//!   nothing more: the last row of every file);
//! - `game_id`: the game's id (for an error, the id it names; empty for none);
//! - `line`: a game's first line, an error's line; `column`: an error's column;
//!   `game_line`: the first line of the game an error is in;
//! - for a game, `rules`, `players` (space-separated, in seat order), `rounds` (each turn's
//!   round, space-separated, in order; their count is the number of turns) and `termination`;
//! - for an error, `expected` and `found`: exactly the error's texts.
//!
//! Fields with a comma, a quote or a line break are quoted, a quote in them doubled.

use dicelens_parsers::{GameRecord, ParseError, Termination};
use std::collections::BTreeMap;

/// One outcome of a read.
#[derive(Debug, PartialEq, Eq)]
pub enum Expected {
    /// A game.
    Game {
        /// `provenance.game_id`.
        id: String,
        /// `provenance.line`.
        line: u64,
        /// The rule set.
        rules: String,
        /// The players in seat order.
        players: Vec<String>,
        /// The round of each turn, in order.
        rounds: Vec<u16>,
        /// How the game ended.
        termination: Termination,
    },
    /// A syntax error, exactly.
    Error {
        /// Its line and column.
        at: (u64, u32),
        /// The game it names, if any.
        game_id: Option<String>,
        /// The first line of that game.
        game_line: u64,
        /// What the format allows there.
        expected: String,
        /// What the file has there.
        found: String,
    },
    /// No more outcomes.
    End,
}

/// The expected outcomes of every file `fixtures/{folder}/EXPECTED.csv` lists, by file name.
pub fn expected_outcomes(folder: &str) -> BTreeMap<String, Vec<Expected>> {
    let path = format!("{}/EXPECTED.csv", super::fixture_dir(folder));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut records = csv_records(&text).into_iter();
    let header = records.next().unwrap_or_default();
    let mut files: BTreeMap<String, Vec<Expected>> = BTreeMap::new();
    for (n, record) in records.enumerate() {
        let row = Row {
            header: &header,
            record: &record,
            at: format!("{path}, row {}", n + 2),
        };
        let file = row.get("file").to_string();
        let outcomes = files.entry(file).or_default();
        let number: usize = row.parse("outcome");
        assert_eq!(
            number,
            outcomes.len() + 1,
            "{}: outcomes count 1, 2, ...",
            row.at
        );
        assert_ne!(
            outcomes.last(),
            Some(&Expected::End),
            "{}: a row after `end`",
            row.at
        );
        outcomes.push(row.expected());
    }
    for (file, outcomes) in &files {
        assert_eq!(
            outcomes.last(),
            Some(&Expected::End),
            "{path}: {file} has no `end` row"
        );
    }
    files
}

/// Asserts that `outcomes` (all a reader returned for `file`) are exactly `expected`, in order.
pub fn assert_outcomes(
    file: &str,
    outcomes: &[Result<GameRecord, ParseError>],
    expected: &[Expected],
) {
    let mut got = outcomes.iter().map(Some).chain(std::iter::repeat(None));
    for (n, want) in expected.iter().enumerate() {
        let at = format!("{file}, outcome {}", n + 1);
        match (got.next().flatten(), want) {
            (None, Expected::End) => {}
            (Some(Ok(game)), want @ Expected::Game { .. }) => {
                let rounds = game.turns.iter().map(|turn| turn.round).collect();
                let read = Expected::Game {
                    id: game.provenance.game_id.clone(),
                    line: game.provenance.line,
                    rules: game.rules.clone(),
                    players: game.players.clone(),
                    rounds,
                    termination: game.termination,
                };
                assert_eq!(&read, want, "{at}");
                assert_eq!(game.provenance.file, file, "{at}: the file the game names");
            }
            (Some(Err(error)), want @ Expected::Error { .. }) => {
                let read = Expected::Error {
                    at: (error.line, error.column),
                    game_id: error.game_id.clone(),
                    game_line: error.game_line,
                    expected: error.expected.clone(),
                    found: error.found.clone(),
                };
                assert_eq!(&read, want, "{at}: {error}");
                assert_eq!(error.file, file, "{at}: the file the error names");
            }
            (outcome, want) => panic!("{at}: {outcome:#?} where {want:?} was expected"),
        }
    }
}

/// One row of an `EXPECTED.csv`.
struct Row<'a> {
    header: &'a [String],
    record: &'a [String],
    /// Where the row is, for messages.
    at: String,
}

impl Row<'_> {
    /// The field of column `name` (empty when the row is short).
    fn get(&self, name: &str) -> &str {
        let column = self.header.iter().position(|h| h == name);
        let column = column.unwrap_or_else(|| panic!("{}: no column {name}", self.at));
        self.record.get(column).map_or("", String::as_str)
    }

    /// The field of column `name`, parsed.
    fn parse<T: std::str::FromStr>(&self, name: &str) -> T {
        let field = self.get(name);
        field
            .parse()
            .unwrap_or_else(|_| panic!("{}: {name} {field:?}", self.at))
    }

    /// The outcome the row describes.
    fn expected(&self) -> Expected {
        let words = |name: &str| -> Vec<String> {
            self.get(name)
                .split_whitespace()
                .map(str::to_string)
                .collect()
        };
        match self.get("kind") {
            "game" => Expected::Game {
                id: self.get("game_id").to_string(),
                line: self.parse("line"),
                rules: self.get("rules").to_string(),
                players: words("players"),
                rounds: words("rounds")
                    .iter()
                    .map(|round| round.parse().unwrap_or_else(|_| panic!("{}", self.at)))
                    .collect(),
                termination: Termination::parse(self.get("termination"))
                    .unwrap_or_else(|| panic!("{}: termination", self.at)),
            },
            "error" => Expected::Error {
                at: (self.parse("line"), self.parse("column")),
                game_id: Some(self.get("game_id"))
                    .filter(|id| !id.is_empty())
                    .map(str::to_string),
                game_line: self.parse("game_line"),
                expected: self.get("expected").to_string(),
                found: self.get("found").to_string(),
            },
            "end" => Expected::End,
            kind => panic!("{}: kind {kind:?} (game, error or end)", self.at),
        }
    }
}

/// The records of CSV text: fields separated by commas, quoted when they hold a comma, a quote
/// or a line break (a quote inside doubled); records end at a line break outside quotes.
fn csv_records(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => record.push(std::mem::take(&mut field)),
            ('\r', false) => {}
            ('\n', false) => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (c, _) => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

#[test]
fn csv_fields_may_be_quoted() {
    let text = "a,b,c\n1,\"x, \"\"y\"\"\",\n\"multi\nline\",,z";
    let want = [
        vec!["a", "b", "c"],
        vec!["1", "x, \"y\"", ""],
        vec!["multi\nline", "", "z"],
    ];
    assert_eq!(csv_records(text), want);
}
