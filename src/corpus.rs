//! Reading a corpus: log files memory-mapped, their format recognised, games streamed one by
//! one and replayed, and every game that cannot be used counted by reason with its location.

use crate::replay::{replay, Broken, ReplayOptions, Replayed, Skip};
use dicelens_parsers::stream::{Compression, Input};
use dicelens_parsers::{Format, GameRecord, LineNumber, ParseError, ReadOptions, Termination};
use memmap2::Mmap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// How the format of a log file is found (`--format`): recognised from each file's content,
/// or one format for every file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputFormat {
    /// Recognised per file ([`Format::detect`]).
    #[default]
    Auto,
    /// Every file is read as this format.
    Only(Format),
}

impl InputFormat {
    /// The format every file is read as; `None` when it is recognised per file.
    pub fn fixed(self) -> Option<Format> {
        match self {
            InputFormat::Auto => None,
            InputFormat::Only(format) => Some(format),
        }
    }
}

impl std::str::FromStr for InputFormat {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text == "auto" {
            return Ok(InputFormat::Auto);
        }
        text.parse().map(InputFormat::Only)
    }
}

impl std::fmt::Display for InputFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputFormat::Auto => f.write_str("auto"),
            InputFormat::Only(format) => write!(f, "{format}"),
        }
    }
}

/// Bytes of a mapped log read before they are given back to the kernel (a multiple of every
/// page size).
const RELEASE_STEP: usize = 16 << 20;

/// The name a log read from standard input (`-`) goes by in records and messages.
pub const STDIN_NAME: &str = "<stdin>";

/// A log file: mapped into memory when it is a plain regular file, else read as a stream
/// (standard input, a pipe or FIFO, a gzip or zstd file decompressed as it is read, a file
/// that says it is empty as `/proc` files do).
pub struct LogFile {
    path: PathBuf,
    name: String,
    source: Source,
    format: Format,
    options: ReadOptions,
}

/// Where a log's bytes come from.
enum Source {
    /// A regular, uncompressed file, mapped (`None` when empty).
    Mapped(Option<Mmap>),
    /// A stream, read once (taken by the first read).
    Stream(Mutex<Option<Box<dyn Read + Send>>>),
}

impl LogFile {
    /// Opens `path` (`-` for standard input); the format is `format` if given, else
    /// recognised from the content.
    pub fn open(path: &Path, format: Option<Format>) -> Result<LogFile, OpenError> {
        LogFile::open_with(path, format, &ReadOptions::default())
    }

    /// [`LogFile::open`] with the readers set up as `options` say.
    pub fn open_with(
        path: &Path,
        format: Option<Format>,
        options: &ReadOptions,
    ) -> Result<LogFile, OpenError> {
        let is_stdin = path.as_os_str() == "-";
        let name = if is_stdin {
            STDIN_NAME.to_string()
        } else {
            path.display().to_string()
        };
        let unreadable = |what: String| OpenError::Unreadable(format!("{name}: {what}"));
        let recognise = |content: &[u8], compression: Compression| match format {
            Some(f) => Ok(f),
            None if content.is_empty() => Ok(Format::Ygn),
            None => Format::detect(content).ok_or_else(|| {
                let what = match compression {
                    Compression::None => String::new(),
                    other => format!(" ({} compressed)", other.name()),
                };
                OpenError::Unrecognised(format!(
                    "{name}: cannot recognise the format{what} (not YGN, JSONL, Verhoeff, CSV or \
                     yatzy-solver); use --format"
                ))
            }),
        };
        let stream = |read: Box<dyn Read + Send>| -> Result<(Source, Format), OpenError> {
            let input = Input::new(read).map_err(|e| unreadable(e.to_string()))?;
            let format = recognise(input.head(), input.compression())?;
            Ok((Source::Stream(Mutex::new(Some(input.into_read()))), format))
        };
        let (source, format) = if is_stdin {
            stream(Box::new(std::io::stdin()))?
        } else {
            let file = File::open(path).map_err(|e| unreadable(format!("cannot open: {e}")))?;
            let metadata = file.metadata().map_err(|e| unreadable(e.to_string()))?;
            if metadata.is_dir() {
                return Err(unreadable(
                    "a directory (give it as an argument of its own: its files are read)".into(),
                ));
            }
            if !metadata.is_file() || metadata.len() == 0 {
                stream(Box::new(file))?
            } else {
                // SAFETY: the map is read-only; a log changed while it is read can only give
                // garbled games, which the parsers reject like any other bad input.
                let map = unsafe { Mmap::map(&file) }
                    .map_err(|e| unreadable(format!("cannot map: {e}")))?;
                if Compression::detect(&map) == Compression::None {
                    let format = recognise(&map, Compression::None)?;
                    (Source::Mapped(Some(map)), format)
                } else {
                    drop(map);
                    stream(Box::new(file))?
                }
            }
        };
        Ok(LogFile {
            path: path.to_path_buf(),
            name,
            source,
            format,
            options: options.clone(),
        })
    }

    /// The same file, its games named as read from `name` (their provenance, and the ids made
    /// of the file name and line in logs without ids): a log found at another path than the
    /// one it was analysed under reads as it did then.
    pub fn named(mut self, name: &str) -> LogFile {
        self.name = name.to_string();
        self
    }

    /// The path (`-` for standard input).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The name records and messages give the file: its path, or [`STDIN_NAME`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The format the file is read as.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Whether the file is read as a stream (read once, in one piece: see
    /// [`LogFile::for_each_game_in`]).
    pub fn is_stream(&self) -> bool {
        matches!(self.source, Source::Stream(_))
    }

    /// Calls `each` with every game of the file, or the syntax error that replaced it.
    /// The record is the caller's to change or swap out (the reader refills whatever record it
    /// is left with).
    pub fn for_each_game(&self, each: impl FnMut(Result<&mut GameRecord, ParseError>)) {
        self.for_each_game_in(None, each);
    }

    /// Like [`LogFile::for_each_game`], for the games that begin in `range` (byte offsets from
    /// the start of the file, as Hadoop input splits: adjacent ranges read every game once; see
    /// [`Format::range_reader`]), or every game when `range` is `None`.
    ///
    /// A stream has no byte ranges: the range that starts at 0 reads all of it, the others
    /// nothing. A stream is read once: a second read of the same `LogFile` gives nothing.
    pub fn for_each_game_in(
        &self,
        range: Option<Range<u64>>,
        mut each: impl FnMut(Result<&mut GameRecord, ParseError>),
    ) {
        let offset = |at: u64| usize::try_from(at).unwrap_or(usize::MAX);
        let (mut reader, map) = match &self.source {
            Source::Mapped(map) => {
                let content: &[u8] = map.as_deref().unwrap_or(&[]);
                let range = range.map_or(0..usize::MAX, |r| offset(r.start)..offset(r.end));
                let reader =
                    self.format
                        .range_reader_with(content, &self.name, range, &self.options);
                (reader, map.as_ref())
            }
            Source::Stream(stream) => {
                if range.is_some_and(|r| r.start > 0) {
                    return;
                }
                let taken = stream.lock().map(|mut s| s.take()).unwrap_or(None);
                let Some(read) = taken else { return };
                (
                    self.format.stream_reader(read, &self.name, &self.options),
                    None,
                )
            }
        };
        let mut game = GameRecord::default();
        let mut released = 0;
        while let Some(result) = reader.read_game(&mut game) {
            each(result.map(|()| &mut game));
            if let Some(map) = map {
                released = release(map, released, reader.consumed());
            }
        }
    }
}

/// Gives the pages of the mapped file in `from..to` back to the kernel once there are at least
/// [`RELEASE_STEP`] bytes of them, so a long file read once does not stay in the process's
/// resident memory; returns where the released part now ends. (A page read again is simply
/// read from the file again.)
fn release(map: &Mmap, from: usize, to: usize) -> usize {
    if to < from + RELEASE_STEP {
        return from;
    }
    let end = to - to % RELEASE_STEP;
    #[cfg(unix)]
    // SAFETY: the map is read-only and private, so dropping its pages loses nothing: the next
    // access reads them from the file again. No reference into the range is used after this
    // point (the reader has moved past it).
    let _ =
        unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, from, end - from) };
    end
}

/// The log files named by `inputs`, in order: a file as given (`-` for standard input, a
/// missing file too: opening it reports it); a directory walked recursively, its files sorted
/// by path (so a run reads them in the same order on every machine) and, when `globs` are
/// given, only those whose path below the directory matches one of them (`*.ygn`,
/// `2024/**/*.gz`; a `*` matches across `/`). Symbolic links to directories are not followed.
pub fn log_paths(inputs: &[PathBuf], globs: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut builder = globset::GlobSetBuilder::new();
    for glob in globs {
        builder.add(globset::Glob::new(glob).map_err(|e| format!("--glob {glob:?}: {e}"))?);
    }
    let matcher = builder.build().map_err(|e| format!("--glob: {e}"))?;
    let mut paths = Vec::new();
    for input in inputs {
        if !input.is_dir() {
            paths.push(input.clone());
            continue;
        }
        let mut found = Vec::new();
        for entry in walkdir::WalkDir::new(input) {
            let entry = entry.map_err(|e| format!("{}: {e}", input.display()))?;
            if entry.file_type().is_dir() {
                continue;
            }
            let below = entry.path().strip_prefix(input).unwrap_or(entry.path());
            if globs.is_empty() || matcher.is_match(below) {
                found.push(entry.into_path());
            }
        }
        found.sort();
        paths.extend(found);
    }
    Ok(paths)
}

/// Why a log file cannot be read; the message names the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenError {
    /// The file cannot be opened or mapped (missing, not permitted, a directory...): perhaps
    /// only for now.
    Unreadable(String),
    /// Its content is of no format the readers know (and no `--format` was given).
    Unrecognised(String),
}

/// What a read does with a file it cannot open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unopened {
    /// Count the file as skipped and go on (a whole read, or the range at its first byte).
    Skip(String),
    /// Nothing: a later range of a file whose format is unrecognised (the first range counts it).
    Nothing,
    /// Fail: a later range of a file that cannot be read now (its games must not be lost
    /// quietly; run again, it may be readable then).
    Fail(String),
}

impl OpenError {
    /// What a read of `range` of the file (the whole file for `None`) does with this error,
    /// so that the ranges of a file count it once, as a read of the whole file does.
    pub fn in_range(self, range: Option<&Range<u64>>) -> Unopened {
        match (self, range.is_some_and(|r| r.start > 0)) {
            (why, false) => Unopened::Skip(why.to_string()),
            (OpenError::Unreadable(why), true) => Unopened::Fail(why),
            (OpenError::Unrecognised(_), true) => Unopened::Nothing,
        }
    }
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Unreadable(why) | OpenError::Unrecognised(why) => f.write_str(why),
        }
    }
}

/// Where a skipped game was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, PartialOrd, Ord)]
pub struct Location {
    /// File.
    pub file: String,
    /// Line.
    pub line: LineNumber,
    /// Game id, when known.
    pub game_id: Option<String>,
    /// What was wrong.
    pub detail: String,
}

/// Why a game is not rated. `Display` gives the short name summaries use (`summary.json`'s
/// keys, the report's lines); reasons are ordered by that name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// The game does not parse.
    SyntaxError,
    /// Lines that belong to no game do not parse (damage before or between games): counted
    /// apart, as no game was lost with them.
    DamagedLines,
    /// A game of the same id was read before (or counted as seen: `--seen-ids`).
    DuplicateGameId,
    /// The game breaks a rule of the replay.
    Broken(Broken),
    /// The game ended early and unfinished games are not wanted.
    Unfinished(Termination),
    /// The game is of another rule set than the one wanted.
    OtherRuleSet,
    /// The oracle cannot value one of its decisions.
    NotRatedByOracle,
    /// A reason this version does not know, read back from an analysis (kept as written).
    Other(String),
}

/// Every way a game can end early.
const ENDINGS: [Termination; 4] = [
    Termination::Normal,
    Termination::Abandoned,
    Termination::Timeout,
    Termination::Resigned,
];

impl SkipReason {
    /// The reason a replay gives.
    pub fn of_replay(skip: &Skip) -> SkipReason {
        match skip {
            Skip::Invalid(v) => SkipReason::Broken(v.rule),
            Skip::Unfinished(t) => SkipReason::Unfinished(*t),
        }
    }

    /// The reason named `text` (as [`Display`](std::fmt::Display) writes it); an unknown name
    /// is kept as [`SkipReason::Other`].
    pub fn from_name(text: &str) -> SkipReason {
        let fixed = [
            SkipReason::SyntaxError,
            SkipReason::DamagedLines,
            SkipReason::DuplicateGameId,
            SkipReason::OtherRuleSet,
            SkipReason::NotRatedByOracle,
        ];
        fixed
            .into_iter()
            .chain(Broken::ALL.into_iter().map(SkipReason::Broken))
            .chain(ENDINGS.into_iter().map(SkipReason::Unfinished))
            .find(|reason| reason.to_string() == text)
            .unwrap_or_else(|| SkipReason::Other(text.to_string()))
    }
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipReason::SyntaxError => f.write_str("syntax error"),
            SkipReason::DamagedLines => f.write_str("damaged lines outside games"),
            SkipReason::DuplicateGameId => f.write_str("duplicate game id"),
            SkipReason::Broken(rule) => f.write_str(rule.name()),
            SkipReason::Unfinished(t) => write!(f, "unfinished ({})", t.as_str()),
            SkipReason::OtherRuleSet => f.write_str("other rule set"),
            SkipReason::NotRatedByOracle => f.write_str("not rated by the oracle"),
            SkipReason::Other(text) => f.write_str(text),
        }
    }
}

impl PartialOrd for SkipReason {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SkipReason {
    /// By name, as summaries list them.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.to_string().cmp(&other.to_string())
    }
}

impl Serialize for SkipReason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for SkipReason {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SkipReason, D::Error> {
        let text = String::deserialize(d)?;
        Ok(SkipReason::from_name(&text))
    }
}

/// Counts of games read, used and skipped (by reason, with locations).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Games found (parsed or not).
    pub games_read: u64,
    /// Games that replayed and are used.
    pub games_used: u64,
    /// Games skipped, by reason.
    pub skipped: BTreeMap<SkipReason, Vec<Location>>,
    /// Files that could not be read at all (unreadable, or of no recognisable format), with why.
    pub files_skipped: Vec<String>,
}

impl Summary {
    /// Records a skipped game.
    pub fn skip(&mut self, reason: SkipReason, location: Location) {
        self.skipped.entry(reason).or_default().push(location);
    }

    /// Number of games skipped for `reason`.
    pub fn count(&self, reason: &SkipReason) -> usize {
        self.skipped.get(reason).map_or(0, Vec::len)
    }

    /// Number of skipped games (damaged lines outside games are not games).
    pub fn skipped_count(&self) -> u64 {
        self.skipped
            .iter()
            .filter(|(reason, _)| **reason != SkipReason::DamagedLines)
            .map(|(_, places)| places.len() as u64)
            .sum()
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

/// A 128-bit fingerprint of a game id (two SipHash runs, fixed keys): the ids seen take 16
/// bytes a game, and two different ids share a fingerprint with odds of about 2^-128 a pair.
pub fn fingerprint(id: &str) -> u128 {
    use std::hash::{Hash, Hasher};
    let half = |salt: u8| {
        let mut h = std::hash::DefaultHasher::new();
        salt.hash(&mut h);
        id.hash(&mut h);
        h.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// Reads games from files, replays them, and keeps the summary; duplicate game ids (across
/// all files read by this reader) are skipped after their first occurrence.
pub struct CorpusReader {
    /// Replay options.
    pub options: ReplayOptions,
    /// How the readers are set up (CSV column names...).
    pub read_options: ReadOptions,
    /// What happened so far.
    pub summary: Summary,
    /// Fingerprints of the game ids seen so far.
    seen: HashSet<u128>,
}

impl CorpusReader {
    /// A reader with the given replay options.
    pub fn new(options: ReplayOptions) -> CorpusReader {
        CorpusReader {
            options,
            read_options: ReadOptions::default(),
            summary: Summary::default(),
            seen: HashSet::new(),
        }
    }

    /// A reader with the given replay options, its file readers set up as `read` says.
    pub fn for_options(options: ReplayOptions, read: &ReadOptions) -> CorpusReader {
        CorpusReader {
            read_options: read.clone(),
            ..CorpusReader::new(options)
        }
    }

    /// Counts `game_id` as seen: a game of that id read later is skipped as a duplicate, exactly
    /// as if a game of that id had been read before it in this run (`analyze --seen-ids`: the
    /// ids of the partitions of a corpus before this one).
    pub fn mark_seen(&mut self, game_id: &str) {
        self.seen.insert(fingerprint(game_id));
    }

    /// Opens `path` and reads every game of it (see [`CorpusReader::read`]); a file that
    /// cannot be opened or recognised is counted in the summary and the run goes on.
    pub fn read_path(
        &mut self,
        path: &Path,
        format: Option<Format>,
        each: impl FnMut(&mut GameRecord, &mut Replayed),
    ) {
        self.read_path_in(path, format, None, each);
    }

    /// Like [`CorpusReader::read_path`], for the games that begin in `range` of the file (see
    /// [`LogFile::for_each_game_in`]). A file that cannot be opened is handled as
    /// [`OpenError::in_range`] says: counted, ignored, or (returned) a reason for the caller to
    /// fail.
    pub fn read_path_in(
        &mut self,
        path: &Path,
        format: Option<Format>,
        range: Option<Range<u64>>,
        each: impl FnMut(&mut GameRecord, &mut Replayed),
    ) -> Option<String> {
        match LogFile::open_with(path, format, &self.read_options) {
            Ok(file) => {
                self.read_in(&file, range, each);
                None
            }
            Err(why) => match why.in_range(range.as_ref()) {
                Unopened::Skip(why) => {
                    self.summary.files_skipped.push(why);
                    None
                }
                Unopened::Nothing => None,
                Unopened::Fail(why) => Some(why),
            },
        }
    }

    /// Reads every game of `file`; `each` gets every game that replays, with its replay (both
    /// the caller's to keep by swapping them out: the reader refills what it is left with).
    pub fn read(&mut self, file: &LogFile, each: impl FnMut(&mut GameRecord, &mut Replayed)) {
        self.read_in(file, None, each);
    }

    /// Like [`CorpusReader::read`], for the games that begin in `range` (every game if `None`).
    pub fn read_in(
        &mut self,
        file: &LogFile,
        range: Option<Range<u64>>,
        mut each: impl FnMut(&mut GameRecord, &mut Replayed),
    ) {
        let mut replayed = Replayed::default();
        let name = file.name().to_string();
        file.for_each_game_in(range, |result| {
            let game = match result {
                Ok(game) => game,
                Err(e) => {
                    let location = Location {
                        file: name.clone(),
                        line: e.line,
                        game_id: e.game_id.clone(),
                        detail: e.to_string(),
                    };
                    let reason = if e.outside_games {
                        SkipReason::DamagedLines
                    } else {
                        self.summary.games_read += 1;
                        SkipReason::SyntaxError
                    };
                    self.summary.skip(reason, location);
                    return;
                }
            };
            self.summary.games_read += 1;
            let location = |detail: String, line: LineNumber| Location {
                file: name.clone(),
                line,
                game_id: Some(game.provenance.game_id.clone()),
                detail,
            };
            if !self.seen.insert(fingerprint(&game.provenance.game_id)) {
                let detail = format!("game id {} seen before", game.provenance.game_id);
                self.summary.skip(
                    SkipReason::DuplicateGameId,
                    location(detail, game.provenance.line),
                );
                return;
            }
            match replay(game, self.options, &mut replayed) {
                Ok(()) => {
                    self.summary.games_used += 1;
                    each(game, &mut replayed);
                }
                Err(skip) => {
                    let line = match &skip {
                        Skip::Invalid(v) => v.line,
                        Skip::Unfinished(_) => game.provenance.line,
                    };
                    self.summary.skip(
                        SkipReason::of_replay(&skip),
                        location(skip.to_string(), line),
                    );
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: LineNumber) -> Location {
        Location {
            file: "f.ygn".into(),
            line,
            game_id: None,
            detail: String::new(),
        }
    }

    #[test]
    fn skip_reasons_are_counted_by_kind_and_named_as_before() {
        let mut summary = Summary::default();
        summary.skip(SkipReason::DuplicateGameId, at(1));
        summary.skip(SkipReason::Broken(Broken::WrongPoints), at(2));
        summary.skip(SkipReason::DuplicateGameId, at(3));
        summary.skip(SkipReason::Unfinished(Termination::Timeout), at(4));
        assert_eq!(summary.count(&SkipReason::DuplicateGameId), 2);
        assert_eq!(summary.count(&SkipReason::Broken(Broken::WrongPoints)), 1);
        assert_eq!(summary.count(&SkipReason::SyntaxError), 0);
        assert_eq!(summary.skipped_count(), 4);
        // Listed by name, as summary.json and the report list them.
        let names: Vec<String> = summary.skipped.keys().map(ToString::to_string).collect();
        assert_eq!(
            names,
            ["duplicate game id", "unfinished (timeout)", "wrong points"]
        );
        // Every name reads back as its reason; an unknown one is kept as written.
        for reason in Broken::ALL
            .into_iter()
            .map(SkipReason::Broken)
            .chain(ENDINGS.into_iter().map(SkipReason::Unfinished))
            .chain([
                SkipReason::SyntaxError,
                SkipReason::DuplicateGameId,
                SkipReason::OtherRuleSet,
                SkipReason::NotRatedByOracle,
            ])
        {
            assert_eq!(SkipReason::from_name(&reason.to_string()), reason);
        }
        assert_eq!(
            SkipReason::from_name("cosmic rays"),
            SkipReason::Other("cosmic rays".into())
        );
    }
}
