//! The CSV files of an analysis: `games.csv` and `decisions.csv` (written batch by batch while
//! a corpus is rated, [`CsvFile`]; `games.csv` read back by `merge`), and `players.csv`,
//! `leaderboard.csv` and `rounds.csv` (functions of the aggregates).

use super::rows::DecisionRow;
use crate::aggregate::{PartKey, Parts, PlayerStats};
use crate::game_hash::{content_hash, ContentHash};
use crate::output::WriteError;
use crate::output::{Finished, OutputDir, PendingFile};
use crate::path_name::{name_of_path, path_of_name};
use crate::ranking::Leaderboard;
use crate::rate::Class;
use dicelens_parsers::LineNumber;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Mutex;

/// Header of `games.csv` (documented in docs/formats/analysis.md).
pub const GAME_COLUMNS: &str = "game_id,file,line,content_hash,absolute_path";

/// Header of `decisions.csv` (documented in docs/formats/analysis.md).
pub const DECISION_COLUMNS: &str =
    "game,player,seat,round,roll,dice,choice,value,best,best_value,error,luck,forced,class";

/// Header of `games.csv` as dicelens wrote it before content hashes and absolute paths (still
/// read: such rows have neither).
pub const OLD_GAME_COLUMNS: &str = "game_id,file,line";

/// One row of `games.csv`: a rated game's id, the log it came from (as given, and as an
/// absolute path), its first line there, and the hash of its content.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameRow {
    /// Game id.
    pub game_id: String,
    /// The log file, as given to `analyze`.
    pub file: String,
    /// The game's first line in it.
    pub line: LineNumber,
    /// The game's content hash ([`crate::game_hash`]); `None` in a `games.csv` written before
    /// content hashes (or a row copied from one).
    pub content_hash: Option<ContentHash>,
    /// The log's absolute path (symbolic links resolved) when it was analysed; empty when it
    /// has none (standard input) or is not known (an older `games.csv`).
    pub absolute_path: String,
}

impl GameRow {
    /// Appends the row to `out`.
    pub fn write(&self, out: &mut String) {
        game_row(
            out,
            &self.game_id,
            &self.file,
            self.line,
            self.content_hash,
            &self.absolute_path,
        );
    }
}

/// Appends the `games.csv` row of one rated game: its id, its log as given, its first line,
/// its content hash (empty if unknown) and its log's absolute path (empty if unknown).
pub fn game_row(
    out: &mut String,
    game_id: &str,
    file: &str,
    line: LineNumber,
    content_hash: Option<ContentHash>,
    absolute_path: &str,
) {
    out.push_str(&csv_field(game_id));
    out.push(',');
    out.push_str(&csv_field(file));
    out.push(',');
    out.push_str(&line.to_string());
    out.push(',');
    if let Some(hash) = content_hash {
        let _ = write!(out, "{hash}");
    }
    out.push(',');
    out.push_str(&csv_field(absolute_path));
    out.push('\n');
}

/// The absolute path of the log named `name` (as the reader names it,
/// [`crate::path_name`]), symbolic links resolved, named likewise; empty for standard input
/// and for a path that cannot be resolved.
pub fn absolute_path(name: &str) -> String {
    if name == crate::corpus::STDIN_NAME {
        return String::new();
    }
    std::fs::canonicalize(path_of_name(name))
        .map(|path| name_of_path(&path))
        .unwrap_or_default()
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
/// header ([`GAME_COLUMNS`], or [`OLD_GAME_COLUMNS`] of older analyses); an error names the
/// file, the row and what was expected.
pub fn read_game_rows(path: &Path, mut each: impl FnMut(GameRow)) -> Result<(), String> {
    let name = path.display();
    // Flexible: a row of the wrong length is reported below, naming the header.
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    let header = reader.headers().map_err(|e| format!("{name}: {e}"))?;
    let header = header.iter().collect::<Vec<_>>().join(",");
    let fields = if header == GAME_COLUMNS {
        5
    } else if header == OLD_GAME_COLUMNS {
        3
    } else {
        return Err(format!(
            "{name}: line 1: expected the header {GAME_COLUMNS} (or {OLD_GAME_COLUMNS}, from \
             dicelens before content hashes), found {header:?}"
        ));
    };
    for record in reader.records() {
        let record = record.map_err(|e| format!("{name}: {e}"))?;
        let at = record.position().map_or(0, |p| p.line());
        let bad = |what: String| format!("{name}: line {at}: {what}");
        if record.len() != fields {
            return Err(bad(format!(
                "{} fields, expected {fields} ({header})",
                record.len()
            )));
        }
        let field = |i: usize| record.get(i).unwrap_or_default();
        let line = field(2).parse().map_err(|_| {
            bad(format!(
                "line: expected a line number, found {:?}",
                field(2)
            ))
        })?;
        let content_hash = match field(3) {
            "" => None,
            text => Some(
                text.parse::<ContentHash>()
                    .map_err(|e| bad(format!("content_hash: {e}")))?,
            ),
        };
        each(GameRow {
            game_id: field(0).to_string(),
            file: field(1).to_string(),
            line,
            content_hash,
            absolute_path: field(4).to_string(),
        });
    }
    Ok(())
}

/// `games.csv` and (when wanted) `decisions.csv` of an analysis, as the sink of
/// [`crate::pipeline::analyze`]: each chunk's rows are made on a worker, and written in corpus
/// order (to temporary files of the output directory, put in place by its commit).
pub struct RowFiles {
    games: CsvFile,
    decisions: Option<CsvFile>,
    /// The absolute path of every log named so far, by name ([`absolute_path`]).
    absolute: Mutex<HashMap<String, String>>,
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
            absolute: Mutex::new(HashMap::new()),
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
        let hash = Some(content_hash(game));
        // Each log is resolved once; a poisoned lock still holds the paths resolved.
        let mut absolute = self.absolute.lock().unwrap_or_else(|e| e.into_inner());
        if !absolute.contains_key(&p.file) {
            absolute.insert(p.file.clone(), absolute_path(&p.file));
        }
        let path = absolute.get(&p.file).map_or("", String::as_str);
        game_row(games, &p.game_id, &p.file, p.line, hash, path);
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

/// One CSV row of a player's statistics in part `key` (after `rank,` for the leaderboard).
fn player_row(name: &str, key: PartKey, p: &PlayerStats) -> String {
    let (lo, hi) = p.error_per_game_ci();
    format!(
        "{},{},{},{},{},{},{:.9},{:.9},{:.9},{:.9},{:.9},{},{},{},{:.9},{:.9},{},{:.9},{:.9},{:.9},{}",
        csv_field(name),
        key.unit.key(),
        key.rounds,
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
        p.all.total_luck(),
        p.luck_per_game(),
        p.finished,
        p.result_per_game(),
        p.net_luck_per_game(),
        p.luck_adjusted_per_game(),
        p.all.agreed
    )
}

/// The columns of a player's statistics: the name, the part (the unit of the player's errors,
/// `points` or `match_points`, and the rounds of the games: a player with games of two parts
/// has a row in each), then the statistics, the error and luck columns in that unit, the
/// results of the finished games and the result had luck been average (final score in points,
/// match points won in match points), and the non-forced decisions agreeing with the oracle.
const PLAYER_COLUMNS: &str =
    "player,unit,rounds,games,decisions,unforced,total_error,error_per_decision,error_per_game,\
ci95_low,ci95_high,doubtful,errors,blunders,luck,luck_per_game,finished,result_per_game,\
net_luck_per_game,luck_adjusted_per_game,agreed";

/// `players.csv`: every player of each part, points first, by name.
pub fn players_csv(aggregates: &Parts) -> String {
    let mut out = format!("{PLAYER_COLUMNS}\n");
    for (key, part) in aggregates.parts() {
        for (name, p) in &part.players {
            out.push_str(&player_row(name, key, p));
            out.push('\n');
        }
    }
    out
}

/// `leaderboard.csv`: the ranked players of each part (ranks are within the part).
pub fn leaderboard_csv(boards: &[Leaderboard]) -> String {
    let mut out = format!("rank,{PLAYER_COLUMNS}\n");
    for board in boards {
        for r in &board.ranked {
            let _ = writeln!(out, "{},{}", r.rank, player_row(r.name, board.key, r.stats));
        }
    }
    out
}

/// `rounds.csv`: per unit, per rule family (rounds of its games), per turn of the game (by
/// number of seats); the error columns in the unit.
pub fn rounds_csv(aggregates: &Parts) -> String {
    let mut out = String::from(
        "unit,rounds,seats,turn,round,seat,decisions,unforced,total_error,error_per_decision\n",
    );
    for (part_key, part) in aggregates.parts() {
        for (key, t) in &part.turns {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{:.9},{:.9}",
                part_key.unit.key(),
                part_key.rounds,
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
    }
    out
}
