//! Reading a corpus: log files memory-mapped, their format recognised, games streamed one by
//! one and replayed, and every game that cannot be used counted by reason with its location.

use crate::replay::{replay, ReplayOptions, Replayed, Skip};
use dicelens_parsers::{Format, GameRecord, ParseError};
use memmap2::Mmap;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::path::{Path, PathBuf};

/// A log file, mapped into memory.
pub struct LogFile {
    path: PathBuf,
    name: String,
    map: Option<Mmap>,
    format: Format,
}

impl LogFile {
    /// Opens `path`; the format is `format` if given, else recognised from the content.
    pub fn open(path: &Path, format: Option<Format>) -> Result<LogFile, String> {
        let name = path.display().to_string();
        let file = File::open(path).map_err(|e| format!("{name}: cannot open: {e}"))?;
        let len = file.metadata().map_err(|e| format!("{name}: {e}"))?.len();
        let map = if len == 0 {
            None
        } else {
            // SAFETY: the map is read-only; a log changed while it is read can only give
            // garbled games, which the parsers reject like any other bad input.
            Some(unsafe { Mmap::map(&file) }.map_err(|e| format!("{name}: cannot map: {e}"))?)
        };
        let content: &[u8] = map.as_deref().unwrap_or(&[]);
        let format = match format {
            Some(f) => f,
            None if content.is_empty() => Format::Ygn,
            None => Format::detect(content).ok_or_else(|| {
                format!("{name}: cannot recognise the format (not YGN, JSONL or Verhoeff); use --format")
            })?,
        };
        Ok(LogFile {
            path: path.to_path_buf(),
            name,
            map,
            format,
        })
    }

    /// The path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The format the file is read as.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The file's bytes.
    pub fn content(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }

    /// Calls `each` with every game of the file, or the syntax error that replaced it.
    pub fn for_each_game(&self, mut each: impl FnMut(Result<&GameRecord, ParseError>)) {
        let mut reader = self.format.reader(self.content(), &self.name);
        let mut game = GameRecord::default();
        while let Some(result) = reader.read_game(&mut game) {
            each(result.map(|()| &game));
        }
    }
}

/// Where a skipped game was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, PartialOrd, Ord)]
pub struct Location {
    /// File.
    pub file: String,
    /// Line.
    pub line: u32,
    /// Game id, when known.
    pub game_id: Option<String>,
    /// What was wrong.
    pub detail: String,
}

/// Counts of games read, used and skipped (by reason, with locations).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Games found (parsed or not).
    pub games_read: u64,
    /// Games that replayed and are used.
    pub games_used: u64,
    /// Games skipped, by reason.
    pub skipped: BTreeMap<String, Vec<Location>>,
    /// Files that could not be read at all (unreadable, or of no recognisable format), with why.
    pub files_skipped: Vec<String>,
}

impl Summary {
    /// Records a skipped game.
    pub fn skip(&mut self, reason: &str, location: Location) {
        self.skipped
            .entry(reason.to_string())
            .or_default()
            .push(location);
    }

    /// Number of skipped games.
    pub fn skipped_count(&self) -> u64 {
        self.skipped.values().map(|v| v.len() as u64).sum()
    }

    /// One line per reason: `  N reason (first at FILE:LINE)`.
    pub fn report(&self) -> String {
        let mut out = format!(
            "{} games read, {} used, {} skipped\n",
            self.games_read,
            self.games_used,
            self.skipped_count()
        );
        for why in &self.files_skipped {
            out.push_str(&format!("  file skipped: {why}\n"));
        }
        for (reason, places) in &self.skipped {
            if let Some(first) = places.first() {
                out.push_str(&format!(
                    "  {:>6} {reason} (first: {}:{}: {})\n",
                    places.len(),
                    first.file,
                    first.line,
                    first.detail
                ));
            }
        }
        out
    }
}

/// Reads games from files, replays them, and keeps the summary; duplicate game ids (across
/// all files read by this reader) are skipped after their first occurrence.
pub struct CorpusReader {
    /// Replay options.
    pub options: ReplayOptions,
    /// What happened so far.
    pub summary: Summary,
    seen: HashSet<String>,
}

impl CorpusReader {
    /// A reader with the given replay options.
    pub fn new(options: ReplayOptions) -> CorpusReader {
        CorpusReader {
            options,
            summary: Summary::default(),
            seen: HashSet::new(),
        }
    }

    /// Opens `path` and reads every game of it (see [`CorpusReader::read`]); a file that
    /// cannot be opened or recognised is counted in the summary and the run goes on.
    pub fn read_path(
        &mut self,
        path: &Path,
        format: Option<Format>,
        each: impl FnMut(&GameRecord, &Replayed),
    ) {
        match LogFile::open(path, format) {
            Ok(file) => self.read(&file, each),
            Err(why) => self.summary.files_skipped.push(why),
        }
    }

    /// Reads every game of `file`; `each` gets every game that replays, with its replay.
    pub fn read(&mut self, file: &LogFile, mut each: impl FnMut(&GameRecord, &Replayed)) {
        let mut replayed = Replayed::default();
        let name = file.path().display().to_string();
        file.for_each_game(|result| {
            self.summary.games_read += 1;
            let game = match result {
                Ok(game) => game,
                Err(e) => {
                    let location = Location {
                        file: name.clone(),
                        line: e.line,
                        game_id: e.game_id.clone(),
                        detail: e.to_string(),
                    };
                    self.summary.skip("syntax error", location);
                    return;
                }
            };
            let location = |detail: String, line: u32| Location {
                file: name.clone(),
                line,
                game_id: Some(game.provenance.game_id.clone()),
                detail,
            };
            if !self.seen.insert(game.provenance.game_id.clone()) {
                let detail = format!("game id {} seen before", game.provenance.game_id);
                self.summary
                    .skip("duplicate game id", location(detail, game.provenance.line));
                return;
            }
            match replay(game, self.options, &mut replayed) {
                Ok(()) => {
                    self.summary.games_used += 1;
                    each(game, &replayed);
                }
                Err(skip) => {
                    let line = match &skip {
                        Skip::Invalid(v) => v.line,
                        Skip::Unfinished(_) => game.provenance.line,
                    };
                    self.summary
                        .skip(&skip.reason(), location(skip.to_string(), line));
                }
            }
        });
    }
}
