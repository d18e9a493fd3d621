//! `ids`: the id of every game that parses, in read order, of log files or of a byte range of
//! one file: the games whose ids `analyze` checks for duplicates (how the partitions of a
//! corpus learn the ids of those before them). [`game_ids`] hands each id to the caller;
//! `report::ids` writes them as CSV.

use crate::corpus::{InputFormat, LogFile, Unopened};
use crate::tables::Progress;
use dicelens_parsers::ReadOptions;
use std::fmt;
use std::ops::Range;
use std::path::PathBuf;

/// Why the list of ids is incomplete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IdsError {
    /// A byte range after the first of a file that cannot be read now: the ids it holds would
    /// be missing from the partitions after it.
    UnreadableRange(String),
    /// A file changed while it was read: its later ids are missing.
    Changed(String),
}

impl fmt::Display for IdsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdsError::UnreadableRange(why) => write!(
                f,
                "{why}: the byte range cannot be read (run it again once the file is readable)"
            ),
            IdsError::Changed(change) => write!(
                f,
                "{change}: its ids are not all listed (run it again once the file is left alone)"
            ),
        }
    }
}

impl std::error::Error for IdsError {}

/// Hands `each` the id of every game of `files` (or of the byte range `range` of the one
/// file) that parses, in read order. A file that cannot be read is skipped with a notice to
/// `progress`; one that changes while it is read stops the run (after the ids read before the
/// change), as does a later byte range that cannot be read.
pub fn game_ids(
    files: &[PathBuf],
    format: InputFormat,
    options: &ReadOptions,
    range: Option<Range<u64>>,
    mut each: impl FnMut(&str),
    progress: &dyn Progress,
) -> Result<(), IdsError> {
    for path in files {
        let file = match LogFile::open_with(path, format.fixed(), options) {
            Ok(file) => file,
            Err(why) => match why.in_range(range.as_ref()) {
                Unopened::Skip(why) => {
                    progress.notice(&format!("file skipped: {why}"));
                    continue;
                }
                Unopened::Nothing => continue,
                // The ids of a range that could not be read would be missing from the
                // partitions after it: fail, so that it is run again.
                Unopened::Fail(why) => return Err(IdsError::UnreadableRange(why)),
            },
        };
        file.for_each_game_in(range.clone(), |game| {
            if let Ok(game) = game {
                each(&game.provenance.game_id);
            }
        });
        // The ids after the change are missing: fail, so that it is run again.
        if let Some(change) = file.changed() {
            return Err(IdsError::Changed(change));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_in_read_order_and_a_missing_file_skipped() {
        let dir = std::env::temp_dir().join(format!("dicelens-ids-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let log = dir.join("two.ygn");
        let text = "[Game \"g1\"]\n[Rules \"yahtzee\"]\n[Players \"ann\"]\n[Termination \"abandoned\"]\n\n1. ann: 13456 k3456 23456 LS=40\n\n[Game \"g2\"]\n[Rules \"yahtzee\"]\n[Players \"ann\"]\n[Termination \"abandoned\"]\n\n1. ann: 13456 k3456 23456 LS=40\n";
        std::fs::write(&log, text).expect("write log");
        let files = vec![dir.join("missing.ygn"), log];
        let mut ids = Vec::new();
        let notices = std::sync::Mutex::new(Vec::new());
        let progress = |m: &str| notices.lock().expect("lock").push(m.to_string());
        let read = game_ids(
            &files,
            InputFormat::Auto,
            &ReadOptions::default(),
            None,
            |id| ids.push(id.to_string()),
            &progress,
        );
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(read, Ok(()));
        assert_eq!(ids, ["g1", "g2"]);
        let notices = notices.into_inner().expect("lock");
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].starts_with("file skipped: "), "{notices:?}");
    }
}
