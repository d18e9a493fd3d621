//! The CSV files of an analysis: `games.csv` and `decisions.csv` (written batch by batch while
//! a corpus is rated, `CsvFile`; `games.csv`'s rows as [`crate::store::games`] keeps and
//! reads them back), and `players.csv`,
//! `leaderboard.csv` and `rounds.csv` (functions of the aggregates).

use crate::aggregate::{PartKey, Parts, PlayerStats};
use crate::game_hash::content_hash;
use crate::output::WriteError;
use crate::output::{Finished, OutputDir, PendingFile};
use crate::ranking::Leaderboard;
use crate::rate::Class;
use crate::rows::DecisionRow;
use crate::store::games::{
    absolute_path, accuracy_field, csv_field, game_row, DECISION_COLUMNS, GAME_COLUMNS,
};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Mutex;

/// Appends the `decisions.csv` row of a rated decision.
pub(crate) fn decision_row(out: &mut String, row: &DecisionRow) {
    let _ = writeln!(
        out,
        "{},{},{},{},{},{},{},{:.9},{},{:.9},{:.9},{:.9},{},{}",
        csv_field(&row.game),
        row.player.as_deref().unwrap_or(""),
        row.seat + 1,
        row.round,
        row.roll,
        row.dice,
        row.chosen_label(),
        row.value,
        row.best_label(),
        row.best_value,
        row.loss,
        row.luck,
        row.forced,
        row.class
    );
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
    type Chunk = (String, String);

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
        let seats = crate::aggregate::accuracy::seat_accuracies(rated, game.players.len());
        let accuracy = accuracy_field(&seats);
        game_row(games, &p.game_id, &p.file, p.line, hash, path, &accuracy);
        if self.decisions.is_some() {
            for row in DecisionRow::of_game(game, rated) {
                decision_row(decisions, &row);
            }
        }
    }

    fn merge_chunk(&mut self, (games, decisions): (String, String)) {
        self.games.write(&games);
        if let Some(out) = self.decisions.as_mut() {
            out.write(&decisions);
        }
    }
}

/// A CSV file of an output directory written batch by batch, so the rows of a large corpus are
/// never all in memory; the first write error is kept and reported by [`CsvFile::finish`].
pub(crate) struct CsvFile {
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

/// One CSV row of a player's statistics in part `key` (after `rank,` for the leaderboard).
fn player_row(name: &str, key: PartKey, p: &PlayerStats) -> String {
    let (lo, hi) = p.error_per_game_ci();
    format!(
        "{},{},{},{},{},{},{:.9},{:.9},{:.9},{:.9},{:.9},{},{},{},{:.9},{:.9},{},{:.9},{:.9},{:.9},{},{},{}",
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
        p.all.agreed,
        p.accuracy().map(|a| format!("{a:.6}")).unwrap_or_default(),
        p.label(key.unit).map(super::label_text).unwrap_or_default()
    )
}

/// The columns of a player's statistics: the name, the part (the unit of the player's errors,
/// `points` or `match_points`, and the rounds of the games: a player with games of two parts
/// has a row in each), then the statistics, the error and luck columns in that unit, the
/// results of the finished games and the result had luck been average (final score in points,
/// match points won in match points), the non-forced decisions agreeing with the oracle, the
/// mean accuracy per game (empty without any) and the rating label.
const PLAYER_COLUMNS: &str =
    "player,unit,rounds,games,decisions,unforced,total_error,error_per_decision,error_per_game,\
ci95_low,ci95_high,doubtful,errors,blunders,luck,luck_per_game,finished,result_per_game,\
net_luck_per_game,luck_adjusted_per_game,agreed,accuracy,label";

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
pub(crate) fn leaderboard_csv(boards: &[Leaderboard]) -> String {
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
pub(crate) fn rounds_csv(aggregates: &Parts) -> String {
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
