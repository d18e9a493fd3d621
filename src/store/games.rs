//! `games.csv` of an analysis as the store keeps it: its header, a row written
//! (`game_row`) and every row read back (`read_game_rows`, what `merge` and `merge
//! --partitions` read), and the quoting of a CSV field.

use crate::game_hash::ContentHash;
use crate::path_name::{name_of_path, path_of_name};
use dicelens_parsers::LineNumber;
use std::fmt::Write as _;
use std::path::Path;

/// Header of `decisions.csv` (documented in docs/formats/analysis.md).
pub(crate) const DECISION_COLUMNS: &str =
    "game,player,seat,round,roll,dice,choice,value,best,best_value,error,luck,forced,class";

/// Header of `games.csv` (documented in docs/formats/analysis.md).
pub(crate) const GAME_COLUMNS: &str = "game_id,file,line,content_hash,absolute_path,accuracy";

/// Header of `games.csv` as dicelens wrote it before accuracy (still read: such rows have
/// none).
pub(crate) const UNRATED_GAME_COLUMNS: &str = "game_id,file,line,content_hash,absolute_path";

/// Header of `games.csv` as dicelens wrote it before content hashes and absolute paths (still
/// read: such rows have neither).
pub(crate) const OLD_GAME_COLUMNS: &str = "game_id,file,line";

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
    /// The game's content hash (`crate::game_hash`); `None` in a `games.csv` written before
    /// content hashes (or a row copied from one).
    pub content_hash: Option<ContentHash>,
    /// The log's absolute path (symbolic links resolved) when it was analysed; empty when it
    /// has none (standard input) or is not known (an older `games.csv`).
    pub absolute_path: String,
    /// The accuracy of each seat in the game, as `games.csv` writes it
    /// (`accuracy_field`); empty when not known (an older `games.csv`).
    pub accuracy: String,
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
            &self.accuracy,
        );
    }
}

/// The `accuracy` field of `games.csv`: each seat's accuracy in the game (0 to 100, six
/// decimals) in seat order, separated by `;`, empty for a seat without a non-forced decision.
pub(crate) fn accuracy_field(accuracies: &[Option<f64>]) -> String {
    let seats: Vec<String> = accuracies
        .iter()
        .map(|a| a.map(|a| format!("{a:.6}")).unwrap_or_default())
        .collect();
    seats.join(";")
}

/// Appends the `games.csv` row of one rated game: its id, its log as given, its first line,
/// its content hash (empty if unknown), its log's absolute path (empty if unknown) and its
/// seats' accuracy ([`accuracy_field`]; empty if unknown).
pub(crate) fn game_row(
    out: &mut String,
    game_id: &str,
    file: &str,
    line: LineNumber,
    content_hash: Option<ContentHash>,
    absolute_path: &str,
    accuracy: &str,
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
    out.push(',');
    out.push_str(&csv_field(accuracy));
    out.push('\n');
}

/// The absolute path of the log named `name` (as the reader names it,
/// `crate::path_name`), symbolic links resolved, named likewise; empty for standard input
/// and for a path that cannot be resolved.
pub fn absolute_path(name: &str) -> String {
    if name == crate::corpus::STDIN_NAME {
        return String::new();
    }
    std::fs::canonicalize(path_of_name(name))
        .map(|path| name_of_path(&path))
        .unwrap_or_default()
}

/// Calls `each` with every row of `games.csv` at `path` (read as a stream), after checking its
/// header ([`GAME_COLUMNS`], or [`UNRATED_GAME_COLUMNS`] or [`OLD_GAME_COLUMNS`] of older
/// analyses); an error names the
/// file, the row and what was expected.
pub(crate) fn read_game_rows(path: &Path, mut each: impl FnMut(GameRow)) -> Result<(), String> {
    let name = path.display();
    // Flexible: a row of the wrong length is reported below, naming the header.
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    let header = reader.headers().map_err(|e| format!("{name}: {e}"))?;
    let header = header.iter().collect::<Vec<_>>().join(",");
    let fields = if header == GAME_COLUMNS {
        6
    } else if header == UNRATED_GAME_COLUMNS {
        5
    } else if header == OLD_GAME_COLUMNS {
        3
    } else {
        return Err(format!(
            "{name}: line 1: expected the header {GAME_COLUMNS} (or {UNRATED_GAME_COLUMNS}, from \
             dicelens before accuracy, or {OLD_GAME_COLUMNS}, from dicelens before content \
             hashes), found {header:?}"
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
            accuracy: field(5).to_string(),
        });
    }
    Ok(())
}

/// Quotes a CSV field when needed.
pub(crate) fn csv_field(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
}
