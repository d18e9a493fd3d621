//! The CSV files of an analysis: `games.csv` and `decisions.csv` (written batch by batch while
//! a corpus is rated, [`CsvFile`]; `games.csv` read back by `merge`), and `players.csv`,
//! `leaderboard.csv` and `rounds.csv` (functions of the aggregates).

use super::output::{Finished, OutputDir, PendingFile};
use super::rows::DecisionRow;
use super::{Ranked, WriteError};
use crate::aggregate::{Aggregates, PlayerStats};
use crate::rate::Class;
use dicelens_parsers::LineNumber;
use std::fmt::Write as _;
use std::path::Path;

/// Header of `games.csv` (documented in docs/formats/analysis.md).
pub const GAME_COLUMNS: &str = "game_id,file,line";

/// Header of `decisions.csv` (documented in docs/formats/analysis.md).
pub const DECISION_COLUMNS: &str =
    "game,player,seat,round,roll,dice,choice,value,best,best_value,error,luck,forced,class";

/// One row of `games.csv`: a rated game's id, the log it came from, its first line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameRow {
    /// Game id.
    pub game_id: String,
    /// The log file.
    pub file: String,
    /// The game's first line in it.
    pub line: LineNumber,
}

/// Appends the `games.csv` row of one rated game.
pub fn game_row(out: &mut String, game_id: &str, file: &str, line: LineNumber) {
    out.push_str(&csv_field(game_id));
    out.push(',');
    out.push_str(&csv_field(file));
    out.push(',');
    out.push_str(&line.to_string());
    out.push('\n');
}

/// Appends the `decisions.csv` row of a rated decision.
pub fn decision_row(out: &mut String, row: &DecisionRow) {
    let _ = writeln!(
        out,
        "{},{},{},{},{},{},{},{:.9},{},{:.9},{:.9},{:.9},{},{}",
        csv_field(&row.game),
        row.player.as_deref().unwrap_or(""),
        row.seat + 1,
        row.round,
        row.roll,
        row.dice,
        row.choice,
        row.value,
        row.best,
        row.best_value,
        row.loss,
        row.luck,
        row.forced,
        row.class
    );
}

/// Calls `each` with every row of `games.csv` at `path` (read as a stream), after checking its
/// header; an error names the file and the row.
pub fn read_game_rows(path: &Path, mut each: impl FnMut(GameRow)) -> Result<(), String> {
    let name = path.display();
    let mut reader =
        csv::Reader::from_path(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let header = reader.headers().map_err(|e| format!("{name}: {e}"))?;
    if header.iter().collect::<Vec<_>>().join(",") != GAME_COLUMNS {
        return Err(format!("{name}: the header is not {GAME_COLUMNS}"));
    }
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("{name}: {e}"))?;
        match (record.get(0), record.get(1), record.get(2), record.len()) {
            (Some(game_id), Some(file), Some(line), 3) => each(GameRow {
                game_id: game_id.to_string(),
                file: file.to_string(),
                line: line
                    .parse()
                    .map_err(|_| format!("{name}: row {}: bad line {line:?}", i + 2))?,
            }),
            _ => return Err(format!("{name}: row {}: not 3 fields", i + 2)),
        }
    }
    Ok(())
}

/// `games.csv` and (when wanted) `decisions.csv` of an analysis, as the sink of
/// [`crate::pipeline::analyze`]: each chunk's rows are made on a worker, and written in corpus
/// order (to temporary files of the output directory, put in place by its commit).
pub struct RowFiles {
    games: CsvFile,
    decisions: Option<CsvFile>,
}

impl RowFiles {
    /// Starts `games.csv` and, with `decisions`, `decisions.csv` in `out`.
    pub fn create(out: &OutputDir, decisions: bool) -> Result<RowFiles, WriteError> {
        Ok(RowFiles {
            games: CsvFile::create(out, "games.csv", GAME_COLUMNS)?,
            decisions: if decisions {
                Some(CsvFile::create(out, "decisions.csv", DECISION_COLUMNS)?)
            } else {
                None
            },
        })
    }

    /// Finishes the files and adds them to `out`; the first error met, if any.
    pub fn finish(self, out: &mut OutputDir) -> Result<(), WriteError> {
        out.add(self.games.finish()?);
        if let Some(decisions) = self.decisions {
            out.add(decisions.finish()?);
        }
        Ok(())
    }
}

impl crate::pipeline::DecisionSink for RowFiles {
    /// `games.csv` rows, `decisions.csv` rows.
    type Part = (String, String);

    fn game(
        &self,
        _: usize,
        game: &dicelens_parsers::GameRecord,
        rated: &[crate::rate::Rated],
        (games, decisions): &mut (String, String),
    ) {
        let p = &game.provenance;
        game_row(games, &p.game_id, &p.file, p.line);
        if self.decisions.is_some() {
            for row in DecisionRow::of_game(game, rated) {
                decision_row(decisions, &row);
            }
        }
    }

    fn part(&mut self, (games, decisions): (String, String)) {
        self.games.write(&games);
        if let Some(out) = self.decisions.as_mut() {
            out.write(&decisions);
        }
    }
}

/// A CSV file of an output directory written batch by batch, so the rows of a large corpus are
/// never all in memory; the first write error is kept and reported by [`CsvFile::finish`].
pub struct CsvFile {
    file: PendingFile,
    error: Option<std::io::Error>,
}

impl CsvFile {
    /// Starts `name` in `out` with `header` (a line without its newline).
    pub fn create(out: &OutputDir, name: &str, header: &str) -> Result<CsvFile, WriteError> {
        let mut csv = CsvFile {
            file: out.create(name)?,
            error: None,
        };
        csv.write(&format!("{header}\n"));
        Ok(csv)
    }

    /// Appends rows (whole lines).
    pub fn write(&mut self, rows: &str) {
        use std::io::Write;
        if self.error.is_none() {
            if let Err(e) = self.file.write_all(rows.as_bytes()) {
                self.error = Some(e);
            }
        }
    }

    /// Finishes the file (to be added to its output directory); the first error met, if any.
    pub fn finish(self) -> Result<Finished, WriteError> {
        match self.error {
            Some(e) => Err(WriteError::new(self.file.path(), e)),
            None => self.file.finish(),
        }
    }
}

/// Quotes a CSV field when needed.
pub fn csv_field(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
}

/// One CSV row of a player's statistics (after `rank,` for the leaderboard).
fn player_row(name: &str, p: &PlayerStats) -> String {
    let (lo, hi) = p.error_per_game_ci();
    format!(
        "{},{},{},{},{:.9},{:.9},{:.9},{:.9},{:.9},{},{},{},{:.9}",
        csv_field(name),
        p.games,
        p.all.decisions,
        p.all.unforced,
        p.all.total_error(),
        p.all.error_per_decision(),
        p.error_per_game(),
        lo,
        hi,
        p.all.classes[Class::Doubtful],
        p.all.classes[Class::Error],
        p.all.classes[Class::Blunder],
        p.all.total_luck()
    )
}

/// The columns of a player's statistics.
const PLAYER_COLUMNS: &str =
    "player,games,decisions,unforced,total_error,error_per_decision,error_per_game,\
ci95_low,ci95_high,doubtful,errors,blunders,luck";

/// `players.csv`: every player, by name.
pub fn players_csv(aggregates: &Aggregates) -> String {
    let mut out = format!("{PLAYER_COLUMNS}\n");
    for (name, p) in &aggregates.players {
        out.push_str(&player_row(name, p));
        out.push('\n');
    }
    out
}

/// `leaderboard.csv`: the ranked players.
pub fn leaderboard_csv(board: &[Ranked]) -> String {
    let mut out = format!("rank,{PLAYER_COLUMNS}\n");
    for r in board {
        let _ = writeln!(out, "{},{}", r.rank, player_row(r.name, r.stats));
    }
    out
}

/// `rounds.csv`: per turn of the game (by number of seats), then per decision kind.
pub fn rounds_csv(aggregates: &Aggregates) -> String {
    let mut out =
        String::from("seats,turn,round,seat,decisions,unforced,total_error,error_per_decision\n");
    for (key, t) in &aggregates.turns {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{:.9},{:.9}",
            key.seats,
            key.turn,
            key.round(),
            key.seat(),
            t.decisions,
            t.unforced,
            t.total_error(),
            t.error_per_decision()
        );
    }
    out
}
