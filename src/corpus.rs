//! Reading a corpus: log files read in pieces into the tool's own buffers (or as streams), their
//! format recognised, games read one by one and replayed, and every game that cannot be used
//! counted by reason with its location.

use crate::files::{
    open_input, refusal, stdin_metadata, CountingReader, FileIdentity, Input as OpenedInput,
    WatchedFile,
};
use crate::replay::{replay, Broken, ReplayOptions, Replayed, Skip};
use dicelens_parsers::stream::{Compression, Input};
use dicelens_parsers::{Format, GameRecord, LineNumber, ParseError, ReadOptions, Termination};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::{BTreeMap, HashSet};
use std::io::{IsTerminal, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

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
        text.parse().map(InputFormat::Only).map_err(|_: String| {
            format!(
                "unknown format '{text}' (expected auto, {})",
                Format::list(&Format::ALL)
            )
        })
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

/// The name a log read from standard input (`-`) goes by in records and messages.
pub(crate) const STDIN_NAME: &str = "<stdin>";

/// A log file: a regular file read in pieces into the tool's own buffers (never mapped: a file
/// cut short while it is read gives an error naming it, not a signal), else read as a stream
/// (standard input, a pipe or FIFO, a gzip or zstd file decompressed as it is read, a file
/// that says it is empty as `/proc` files do). Devices other than `/dev/null`, sockets and
/// terminals are refused; a FIFO is waited on for a writer a bounded time
/// ([`crate::files::fifo_wait`]).
pub struct LogFile {
    path: PathBuf,
    name: String,
    source: Source,
    /// The regular file the bytes come from, watched for change (none for other inputs).
    watched: Option<Arc<WatchedFile>>,
    format: Format,
    options: ReadOptions,
    /// Bytes read of the file so far (compressed bytes for a compressed file).
    bytes_read: Arc<AtomicU64>,
}

/// Where a log's bytes come from.
enum Source {
    /// A regular, uncompressed file, read from its start for each read (so it can be read
    /// again, and by byte ranges).
    File(Arc<WatchedFile>),
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
    pub(crate) fn open_with(
        path: &Path,
        format: Option<Format>,
        options: &ReadOptions,
    ) -> Result<LogFile, OpenError> {
        LogFile::open_counting(path, format, options, Arc::default())
    }

    /// [`LogFile::open_with`], adding the bytes read of the file to `bytes_read` (for a
    /// compressed file, the compressed bytes; the first bytes of a regular file, looked at to
    /// recognise it, are counted when its games are read).
    pub(crate) fn open_counting(
        path: &Path,
        format: Option<Format>,
        options: &ReadOptions,
        bytes_read: Arc<AtomicU64>,
    ) -> Result<LogFile, OpenError> {
        let is_stdin = path.as_os_str() == "-";
        let name = if is_stdin {
            STDIN_NAME.to_string()
        } else {
            crate::path_name::name_of_path(path)
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
            let read = Box::new(CountingReader::new(read, Arc::clone(&bytes_read)));
            let input = Input::new(read).map_err(|e| unreadable(e.to_string()))?;
            let format = recognise(input.head(), input.compression())?;
            Ok((Source::Stream(Mutex::new(Some(input.into_read()))), format))
        };
        let opened = if is_stdin {
            open_stdin().map_err(unreadable)?
        } else {
            open_path(path, &name).map_err(unreadable)?
        };
        let (source, watched, format) = match opened {
            Opened::Stream(read) => {
                let (source, format) = stream(read)?;
                (source, None, format)
            }
            Opened::File(file) => {
                let file = Arc::new(file);
                let len = usize::try_from(file.len()).unwrap_or(usize::MAX);
                let mut head = vec![0u8; Input::HEAD.min(len)];
                file.read_exact_at(&mut head, 0)
                    .map_err(|e| unreadable(e.to_string()))?;
                // More while the format cannot be told from the first bytes (a damaged first
                // line longer than them hides nothing): as a stream's head is read.
                while Compression::detect(&head) == Compression::None
                    && Format::detect_needs_more(&head, head.len() >= len)
                {
                    let more = (head.len() * 2).min(Format::DETECT_MAX).min(len);
                    let at = head.len();
                    head.resize(more, 0);
                    file.read_exact_at(head.get_mut(at..).unwrap_or_default(), at as u64)
                        .map_err(|e| unreadable(e.to_string()))?;
                }
                let (source, format) = if Compression::detect(&head) == Compression::None {
                    let format = recognise(&head, Compression::None)?;
                    (Source::File(Arc::clone(&file)), format)
                } else {
                    stream(Box::new(WatchedFile::reader(Arc::clone(&file))))?
                };
                (source, Some(file), format)
            }
        };
        Ok(LogFile {
            path: path.to_path_buf(),
            name,
            source,
            watched,
            format,
            options: options.clone(),
            bytes_read,
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

    /// The name records and messages give the file: its path, or `STDIN_NAME`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The format the file is read as.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The identity of the regular file the bytes come from when it was opened; `None` for
    /// standard input and a FIFO, which can be read only once.
    pub fn identity(&self) -> Option<&FileIdentity> {
        self.watched.as_ref().map(|file| file.identity())
    }

    /// How the file changed while it was read ("FILE changed while being read (was N bytes,
    /// now M)"), if a read found it changed: the read then ended with an error in place of
    /// the game it was in (see `LogFile::change_in`).
    pub fn changed(&self) -> Option<String> {
        self.watched.as_ref().and_then(|file| file.changed())
    }

    /// The change `error` reports, if it is the error that ended a read of this file because
    /// the file changed ([`LogFile::changed`]), rather than a syntax error.
    pub(crate) fn change_in(&self, error: &ParseError) -> Option<String> {
        self.changed()
            .filter(|change| error.found.contains(change.as_str()))
    }

    /// Calls `each` with every game of the file, or the syntax error that replaced it.
    /// The record is the caller's to change or swap out (the reader refills whatever record it
    /// is left with).
    pub fn for_each_game(&self, each: impl FnMut(Result<&mut GameRecord, ParseError>)) {
        self.for_each_game_in(None, each);
    }

    /// Like [`LogFile::for_each_game`], for the games that begin in `range` (byte offsets from
    /// the start of the file, as Hadoop input splits: adjacent ranges read every game once; see
    /// [`Format::range_reader`]), or every game when `range` is `None`. The file is read from
    /// its start (the part before the range only scanned for its line count).
    ///
    /// A stream has no byte ranges: the range that starts at 0 reads all of it, the others
    /// nothing. A stream is read once: a second read of the same `LogFile` gives nothing.
    ///
    /// A file that changes while it is read (cut short, rewritten, grown) ends the read with an
    /// error naming it in place of the game being read ([`LogFile::change_in`] tells it).
    pub(crate) fn for_each_game_in(
        &self,
        range: Option<Range<u64>>,
        mut each: impl FnMut(Result<&mut GameRecord, ParseError>),
    ) {
        let offset = |at: u64| usize::try_from(at).unwrap_or(usize::MAX);
        let mut reader = match &self.source {
            Source::File(file) => {
                let range = range.map_or(0..usize::MAX, |r| offset(r.start)..offset(r.end));
                let read = WatchedFile::reader(&**file);
                self.format.range_stream_reader(
                    Box::new(CountingReader::new(read, Arc::clone(&self.bytes_read))),
                    &self.name,
                    range,
                    &self.options,
                )
            }
            Source::Stream(stream) => {
                if range.is_some_and(|r| r.start > 0) {
                    return;
                }
                let taken = stream.lock().map(|mut s| s.take()).unwrap_or(None);
                let Some(read) = taken else { return };
                self.format.stream_reader(read, &self.name, &self.options)
            }
        };
        let mut game = GameRecord::default();
        while let Some(result) = reader.read_game(&mut game) {
            each(result.map(|()| &mut game));
        }
    }
}

/// An input opened: a regular file, or a stream.
enum Opened {
    /// A regular file that says it holds bytes.
    File(WatchedFile),
    /// Anything read as a stream.
    Stream(Box<dyn Read + Send>),
}

/// Opens standard input: a terminal is refused (it would wait for typing), as is a device
/// other than `/dev/null`.
fn open_stdin() -> Result<Opened, String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err("standard input is a terminal: pipe a log into it, or name a file".into());
    }
    match stdin_metadata() {
        Ok(metadata) => {
            if let Some(why) = refusal(&metadata) {
                return Err(why);
            }
        }
        // Where the kind cannot be told, standard input is read as it is.
        Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {}
        Err(e) => return Err(format!("cannot read: {e}")),
    }
    Ok(Opened::Stream(Box::new(stdin)))
}

/// Opens the log at `path` (named `name` in messages) without ever blocking (see
/// [`crate::files::open_input`]): a regular file that says it holds bytes is watched for
/// change, anything else is read as a stream.
fn open_path(path: &Path, name: &str) -> Result<Opened, String> {
    if path.is_dir() {
        return Err("a directory (give it as an argument of its own: its files are read)".into());
    }
    match open_input(path)? {
        OpenedInput::File(file) if file.metadata().is_ok_and(|m| m.len() > 0) => {
            WatchedFile::new(file, name)
                .map(Opened::File)
                .map_err(|e| format!("cannot open: {e}"))
        }
        OpenedInput::File(file) => Ok(Opened::Stream(Box::new(file))),
        OpenedInput::Stream(stream) => Ok(Opened::Stream(stream)),
    }
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
    /// The file cannot be opened or read (missing, not permitted, a directory, a device, a FIFO
    /// without a writer...): perhaps only for now.
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

impl Location {
    /// `FILE:LINE: detail`, the place said once: a detail that starts with the place itself
    /// (a syntax error's `FILE:LINE:COLUMN: ...`) is given as it stands, and one that starts
    /// with `line LINE` (a broken rule's) continues the place.
    pub fn located(&self) -> String {
        let place = format!("{}:{}", self.file, self.line);
        if self
            .detail
            .strip_prefix(&place)
            .is_some_and(|rest| rest.starts_with(':'))
        {
            return self.detail.clone();
        }
        let line = format!("line {}", self.line);
        match self.detail.strip_prefix(&line) {
            Some(rest) if rest.starts_with([',', ':']) => format!("{place}{rest}"),
            _ => format!("{place}: {}", self.detail),
        }
    }
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
    /// The file changed while it was read (cut short, rewritten, grown): the game being read
    /// then and the rest of the file are not read.
    FileChanged,
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
    pub(crate) fn of_replay(skip: &Skip) -> SkipReason {
        match skip {
            Skip::Invalid(v) => SkipReason::Broken(v.rule),
            Skip::Unfinished(t) => SkipReason::Unfinished(*t),
        }
    }

    /// The reason named `text` (as [`Display`](std::fmt::Display) writes it); an unknown name
    /// is kept as [`SkipReason::Other`].
    pub(crate) fn from_name(text: &str) -> SkipReason {
        let fixed = [
            SkipReason::SyntaxError,
            SkipReason::DamagedLines,
            SkipReason::DuplicateGameId,
            SkipReason::OtherRuleSet,
            SkipReason::NotRatedByOracle,
            SkipReason::FileChanged,
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
            SkipReason::FileChanged => f.write_str("file changed while read"),
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
                    "  {:>6} {reason} (first: {})\n",
                    places.len(),
                    first.located()
                ));
            }
        }
        out
    }
}

/// A 128-bit fingerprint of a game id (two SipHash runs, fixed keys): the ids seen take 16
/// bytes a game, and two different ids share a fingerprint with odds of about 2^-128 a pair.
pub(crate) fn fingerprint(id: &str) -> u128 {
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
    /// Bytes read of the files opened by this reader so far (compressed bytes for compressed
    /// files), for a run's progress.
    bytes_read: Arc<AtomicU64>,
    /// The logs read so far, in order.
    pub logs: Vec<ReadLog>,
}

/// A log a reader read: its path and, for a regular file, its identity when it was opened (to
/// tell, reading it again, whether it is still the file that was read).
#[derive(Clone, Debug)]
pub struct ReadLog {
    /// The path given (`-` for standard input).
    pub path: PathBuf,
    /// The file's identity when it was read; `None` for standard input and a FIFO, read once.
    pub identity: Option<FileIdentity>,
}

impl CorpusReader {
    /// A reader with the given replay options.
    pub fn new(options: ReplayOptions) -> CorpusReader {
        CorpusReader {
            options,
            read_options: ReadOptions::default(),
            summary: Summary::default(),
            seen: HashSet::new(),
            bytes_read: Arc::default(),
            logs: Vec::new(),
        }
    }

    /// A reader with the given replay options, its file readers set up as `read` says.
    pub(crate) fn for_options(options: ReplayOptions, read: &ReadOptions) -> CorpusReader {
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

    /// Adds the bytes read of every file this reader opens from now on to `counter` (which
    /// another thread may read while the run goes on).
    pub(crate) fn count_bytes_in(&mut self, counter: Arc<AtomicU64>) {
        self.bytes_read = counter;
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
    pub(crate) fn read_path_in(
        &mut self,
        path: &Path,
        format: Option<Format>,
        range: Option<Range<u64>>,
        each: impl FnMut(&mut GameRecord, &mut Replayed),
    ) -> Option<String> {
        let counter = Arc::clone(&self.bytes_read);
        match LogFile::open_counting(path, format, &self.read_options, counter) {
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
    pub(crate) fn read_in(
        &mut self,
        file: &LogFile,
        range: Option<Range<u64>>,
        mut each: impl FnMut(&mut GameRecord, &mut Replayed),
    ) {
        self.logs.push(ReadLog {
            path: file.path().to_path_buf(),
            identity: file.identity().cloned(),
        });
        let mut replayed = Replayed::default();
        let name = file.name().to_string();
        file.for_each_game_in(range, |result| {
            let game = match result {
                Ok(game) => game,
                Err(e) => {
                    let (reason, detail) = match file.change_in(&e) {
                        Some(change) => (
                            SkipReason::FileChanged,
                            format!("{change}: the file is not read from here on"),
                        ),
                        None if e.outside_games => (SkipReason::DamagedLines, e.to_string()),
                        None => (SkipReason::SyntaxError, e.to_string()),
                    };
                    if reason != SkipReason::DamagedLines {
                        self.summary.games_read += 1;
                    }
                    let location = Location {
                        file: name.clone(),
                        line: e.line,
                        game_id: e.game_id.clone(),
                        detail,
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

    /// The summary's place of a skipped game is said once, whatever its detail.
    #[test]
    fn a_location_says_the_place_once() {
        let with = |line: LineNumber, detail: &str| Location {
            detail: detail.into(),
            ..at(line)
        };
        assert_eq!(
            with(30, "f.ygn:30:11: game g: expected a die").located(),
            "f.ygn:30:11: game g: expected a die"
        );
        assert_eq!(
            with(45, "line 45, round 2, ann: box filled twice").located(),
            "f.ygn:45, round 2, ann: box filled twice"
        );
        assert_eq!(
            with(36, "line 36: wrong Result").located(),
            "f.ygn:36: wrong Result"
        );
        assert_eq!(
            with(36, "unfinished game (abandoned)").located(),
            "f.ygn:36: unfinished game (abandoned)"
        );
        // Another line, or a number that only begins like it, is kept as it is.
        assert_eq!(with(3, "line 36: x").located(), "f.ygn:3: line 36: x");
        assert_eq!(with(3, "f.ygn:30: x").located(), "f.ygn:3: f.ygn:30: x");
    }

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
                SkipReason::FileChanged,
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
