//! Table files: where precomputed tables live, their header and checksum, reading them into
//! memory, and rebuilding any table that is missing, damaged or does not match this build.
//!
//! A table is read whole into memory the tool owns when it is opened (never mapped: a table
//! truncated or rewritten in place while a run uses it cannot raise a signal). Its length is
//! checked against what the rule set's table needs before any memory is reserved for it (a file
//! of another size, such as a sparse file of 100 GB put in its place, is rebuilt without being
//! read), memory that cannot be allocated is an error naming the table and the bytes it needs
//! (never an abort), and its checksum is checked against every byte; one that changes while it
//! is read is reported as such, naming it, and rebuilt. The tool writes tables only to a
//! temporary file that is then renamed over the table (removed on every error), never in place.
//! A table path that is not a regular file (a directory, a FIFO, a device) is an error at once.
//!
//! File layout (little-endian), 64-byte header then the payload:
//! `0..8` magic `DICELENS`, `8..12` format version, `12..16` table kind, `16..40` rule-set name
//! (NUL-padded), `40..44` builder version, `44..48` zero, `48..56` number of entries,
//! `56..64` CRC-32 of bytes `0..56` followed by the payload. Payload: one `f64` per state.

use crate::files::{kind_name, open_nonblocking, set_blocking, WatchedFile};
use crate::rules::jamb::JambRules;
use crate::rules::RuleSet;
use crate::solve::distribution::{build_dist, BuildObserver, Dist, DistSource, DistTableData};
use crate::solve::expected::build_table;
use crate::solve::jamb::tables::JambTables;
use crate::solve::saved_table::{build_saved_table, exact_bank_cap, SavedTable};
use crate::solve::states::StateSpace;

#[cfg(target_endian = "big")]
compile_error!(
    "table files are little-endian and read as they are: big-endian hosts are not supported"
);
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"DICELENS";
/// Version of the file layout.
pub(crate) const FORMAT_VERSION: u32 = 1;
/// Version of the expected-score builder; bump when its results change.
pub(crate) const EXPECTED_BUILDER_VERSION: u32 = 1;
const KIND_EXPECTED: u32 = 1;
const HEADER_LEN: usize = 64;

/// Environment variable naming the table directory.
pub(crate) const TABLES_ENV: &str = "DICELENS_TABLES";

/// The table directory: the flag if given, else `$DICELENS_TABLES`, else `tables/` here.
pub fn table_dir(flag: Option<&Path>) -> PathBuf {
    if let Some(dir) = flag {
        return dir.to_path_buf();
    }
    match std::env::var_os(TABLES_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from("tables"),
    }
}

/// Where the tables layer reports what it does: one-line notices (a table is being built, a
/// built table cannot be saved) and the progress of a build. The library prints nothing; the
/// caller decides where these go (a terminal's stderr and progress bar, a log, nowhere).
/// Any `Fn(&str)` is a `Progress` that receives the notices and ignores the progress.
pub trait Progress: Sync {
    /// A one-line notice.
    fn notice(&self, message: &str);

    /// A build starts: what it builds (`building the yahtzee expected-score table`), counted in
    /// `unit` (`states`, `work units`): units of about equal work, so that their share done is
    /// the build's share done.
    fn build_started(&self, _what: &str, _unit: &str) {}

    /// `done` of `total` units of the build are done.
    fn build_progress(&self, _done: u64, _total: u64) {}

    /// The build ended (finished or stopped).
    fn build_finished(&self) {}
}

impl<F: Fn(&str) + Sync> Progress for F {
    fn notice(&self, message: &str) {
        self(message)
    }
}

/// A [`Progress`] that drops everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {
    fn notice(&self, _: &str) {}
}

/// Path of a rule set's expected-score table in `dir`.
pub fn expected_path(dir: &Path, rules: RuleSet) -> PathBuf {
    dir.join(format!("{}.expected.tbl", rules.name()))
}

/// Why a table file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableProblem {
    /// No file.
    Missing,
    /// Shorter or longer than its header says, or shorter than a header.
    WrongSize {
        /// Bytes found.
        found: u64,
        /// Bytes expected.
        expected: u64,
    },
    /// Not a dicelens table, or another layout version.
    NotATable,
    /// A table of another rule set, kind or builder.
    Mismatch(String),
    /// The header's count of entries is not the rule set's (the length is right).
    DamagedHeader {
        /// Entries the header counts.
        says: u64,
        /// Entries of the rule set's state space.
        expected: u64,
    },
    /// The checksum does not match the contents.
    Checksum,
    /// The file could not be read.
    Unreadable(String),
    /// The path is not a regular file (`a directory`, `a FIFO`...): an error, never rebuilt.
    NotAFile(&'static str),
    /// The file changed while it was read (how: "was N bytes, now M").
    Changed(String),
    /// The memory to hold the table (`bytes`, the file's size, checked before) cannot be
    /// allocated: an error, never rebuilt (a build would need as much).
    NoMemory {
        /// Bytes the table needs.
        bytes: u64,
    },
}

impl TableProblem {
    /// True for a problem that stops the run (the path is not a regular file, or the table does
    /// not fit in the memory available); any other is mended by building the table.
    pub(crate) fn stops_the_run(&self) -> bool {
        matches!(
            self,
            TableProblem::NotAFile(_) | TableProblem::NoMemory { .. }
        )
    }
}

impl fmt::Display for TableProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableProblem::Missing => f.write_str("missing"),
            TableProblem::WrongSize { found, expected } => {
                write!(
                    f,
                    "damaged: {found} bytes, expected {expected} (truncated or padded)"
                )
            }
            TableProblem::NotATable => f.write_str("not a dicelens table of this format version"),
            TableProblem::Mismatch(what) => write!(f, "mismatched: {what}"),
            TableProblem::DamagedHeader { says, expected } => write!(
                f,
                "damaged header: it counts {says} entries, the rule set has {expected}"
            ),
            TableProblem::Checksum => f.write_str("damaged: checksum mismatch"),
            TableProblem::Unreadable(e) => write!(f, "unreadable: {e}"),
            TableProblem::NotAFile(kind) => write!(f, "{kind}, not a table file"),
            TableProblem::Changed(how) => write!(f, "changed while being read ({how})"),
            TableProblem::NoMemory { bytes } => write!(
                f,
                "too large for the memory available: its {bytes} bytes cannot be allocated"
            ),
        }
    }
}

/// A table that cannot be used or built where it belongs: its path is taken by something that
/// is not a regular file, or the memory it needs cannot be allocated. The message names the
/// path (and the bytes) and says what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The table's path.
    pub path: PathBuf,
    /// What is there instead.
    pub problem: TableProblem,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let TableProblem::NoMemory { bytes } = self.problem {
            return write!(
                f,
                "table {} needs {bytes} bytes of memory, and they cannot be allocated (is the \
                 memory of the process limited, as by `ulimit -v`?)",
                self.path.display()
            );
        }
        write!(
            f,
            "table {} is {}: remove it, or give another table directory (--tables or \
             ${TABLES_ENV})",
            self.path.display(),
            self.problem
        )
    }
}

impl std::error::Error for TableError {}

/// The problem as an error, if it is one that stops the run
/// ([`TableProblem::stops_the_run`]); any other problem is mended by building the table.
fn fatal(path: &Path, problem: &TableProblem) -> Result<(), TableError> {
    if problem.stops_the_run() {
        return Err(TableError {
            path: path.to_path_buf(),
            problem: problem.clone(),
        });
    }
    Ok(())
}

/// `len` zeroed words, or `None` when the memory cannot be allocated (as `vec![0u64; len]`,
/// whose pages the system zeroes on first use, but never an abort).
fn try_zeroed_words(len: usize) -> Option<Vec<u64>> {
    if len == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<u64>(len).ok()?;
    // SAFETY: the layout's size is not zero (`len > 0`, checked above).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<u64>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `len` `u64`s (the
    // layout a `Vec<u64>` of capacity `len` has), and all `len` of them are initialised (zero).
    Some(unsafe { Vec::from_raw_parts(ptr, len, len) })
}

/// The bytes of a table file, read whole into memory aligned for its `f64`, `u32` and `u16`
/// fields.
struct TableBytes {
    words: Vec<u64>,
    len: usize,
}

impl TableBytes {
    /// The file's bytes.
    fn bytes(&self) -> &[u8] {
        let all: &[u8] = bytemuck::cast_slice(&self.words);
        all.get(..self.len).unwrap_or(all)
    }
}

impl std::ops::Deref for TableBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.bytes()
    }
}

/// The values of a table: a verified file read into memory, or freshly built values.
enum Storage {
    Read(TableBytes),
    Owned(Vec<f64>),
}

/// A rule set's expected-score table, verified.
pub struct ExpectedTable {
    rules: RuleSet,
    storage: Storage,
}

impl ExpectedTable {
    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The saved-rolls table's values as an expected-score table of its rule set (bank-major).
    fn from_saved(table: SavedTable) -> ExpectedTable {
        ExpectedTable {
            rules: table.rules(),
            storage: Storage::Owned(table.into_values()),
        }
    }

    /// The values, indexed by [`StateSpace::index`] (under the saved-rolls rule, one slice of
    /// them per bank, bank-major).
    pub fn values(&self) -> &[f64] {
        match &self.storage {
            Storage::Owned(v) => v,
            Storage::Read(bytes) => payload(bytes).unwrap_or(&[]),
        }
    }

    /// The values ([`ExpectedTable::values`]), owned: moved out of the table, without a copy
    /// beside them (the saved-rolls table's are 9 GB).
    pub fn into_values(self) -> Vec<f64> {
        match self.storage {
            Storage::Owned(v) => v,
            Storage::Read(bytes) => {
                let len = payload(&bytes).map_or(0, <[f64]>::len);
                // The header's words dropped, the file's words become the values in place.
                bytes
                    .words
                    .into_iter()
                    .skip(HEADER_LEN / 8)
                    .take(len)
                    .map(f64::from_bits)
                    .collect()
            }
        }
    }

    /// Optimal expected score of the empty sheet.
    pub fn empty_sheet_value(&self) -> f64 {
        let sheet = crate::rules::Sheet::empty(self.rules);
        crate::solve::expected::sheet_value(self.values(), &sheet).unwrap_or(f64::NAN)
    }
}

fn payload(map: &[u8]) -> Option<&[f64]> {
    bytemuck::try_cast_slice(map.get(HEADER_LEN..)?).ok()
}

/// A kind of table file: its code in the header, its builder's version, its name in messages.
#[derive(Clone, Copy, Debug)]
struct Kind {
    code: u32,
    builder: u32,
    name: &'static str,
    /// Payload bytes for a number of entries and the header's extra field.
    payload_len: fn(u64, u32) -> u64,
}

const EXPECTED: Kind = Kind {
    code: KIND_EXPECTED,
    builder: EXPECTED_BUILDER_VERSION,
    name: "expected-score",
    payload_len: |entries, _| entries * 8,
};

fn header(kind: Kind, rules: RuleSet, entries: u64, extra: u32) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&kind.code.to_le_bytes());
    let name = rules.name().as_bytes();
    h[16..16 + name.len()].copy_from_slice(name);
    h[40..44].copy_from_slice(&kind.builder.to_le_bytes());
    h[44..48].copy_from_slice(&extra.to_le_bytes());
    h[48..56].copy_from_slice(&entries.to_le_bytes());
    h
}

fn checksum(head: &[u8], body: &[u8]) -> u64 {
    use rayon::prelude::*;
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&head[..56]);
    // Pieces hashed in parallel, then combined in order: the same CRC as one pass.
    let pieces: Vec<crc32fast::Hasher> = body
        .par_chunks(PARALLEL_PIECE)
        .map(|piece| {
            let mut h = crc32fast::Hasher::new();
            h.update(piece);
            h
        })
        .collect();
    for piece in &pieces {
        hasher.combine(piece);
    }
    u64::from(hasher.finalize())
}

/// Bytes of a table file read, or checksummed, by one thread at a time.
const PARALLEL_PIECE: usize = 8 << 20;

/// A little-endian `u32` at `at` (0 if out of range).
fn read_u32(bytes: &[u8], at: usize) -> u32 {
    bytes
        .get(at..at + 4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

/// The most values a distribution of any rule set holds: no final score reaches 2,048 points
/// (1,575 is the most under the official Yahtzee rules), so a header that counts more values
/// than this for each state is damaged (and is refused before memory is reserved for them).
const MOST_VALUES_PER_STATE: u64 = 2048;

/// Checks a table file's header `head` (its first bytes, up to [`HEADER_LEN`]) and its length
/// `len` against what this build expects for a table of `kind` and `rules`: everything that can
/// be known before the file is read, so that a file of the wrong size (a sparse file of 100 GB)
/// is refused before memory is reserved for it.
fn check_size(head: &[u8], len: u64, rules: RuleSet, kind: Kind) -> Result<(), TableProblem> {
    let entries = StateSpace::new(rules).len() as u64;
    let extra = read_u32(head, 44);
    let expected_len = HEADER_LEN as u64 + (kind.payload_len)(entries, extra);
    if head.len() < HEADER_LEN || len < HEADER_LEN as u64 {
        return Err(TableProblem::WrongSize {
            found: len,
            expected: expected_len,
        });
    }
    let bytes = head;
    let want = header(kind, rules, entries, extra);
    if bytes[0..12] != want[0..12] {
        return Err(TableProblem::NotATable);
    }
    if bytes[12..16] != want[12..16] {
        return Err(TableProblem::Mismatch(format!("not {} table", kind.name)));
    }
    if bytes[16..40] != want[16..40] {
        let name = String::from_utf8_lossy(&bytes[16..40])
            .trim_end_matches('\0')
            .to_string();
        return Err(TableProblem::Mismatch(format!(
            "built for rule set '{name}', expected '{rules}'"
        )));
    }
    if bytes[40..44] != want[40..44] {
        return Err(TableProblem::Mismatch(format!(
            "built by builder version {}, this build needs {}",
            read_u32(bytes, 40),
            kind.builder
        )));
    }
    if kind.code == KIND_DIST && u64::from(extra) > entries * MOST_VALUES_PER_STATE {
        return Err(TableProblem::Mismatch(format!(
            "its header counts {extra} values, more than a table of {rules} holds (at most {})",
            entries * MOST_VALUES_PER_STATE
        )));
    }
    if len != expected_len {
        return Err(TableProblem::WrongSize {
            found: len,
            expected: expected_len,
        });
    }
    Ok(())
}

/// Checks a file's bytes against what this build expects for a table of `kind` and `rules`.
fn verify(bytes: &[u8], rules: RuleSet, kind: Kind) -> Result<(), TableProblem> {
    let head = bytes.get(..HEADER_LEN).unwrap_or(bytes);
    check_size(head, bytes.len() as u64, rules, kind)?;
    let entries = StateSpace::new(rules).len() as u64;
    let want = header(kind, rules, entries, read_u32(bytes, 44));
    if bytes[44..56] != want[44..56] {
        // The length is right (the extra field is read from this header): the count is not.
        let says = bytes
            .get(48..56)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u64::from_le_bytes);
        return Err(TableProblem::DamagedHeader {
            says,
            expected: entries,
        });
    }
    let stored = u64::from_le_bytes(bytes[56..64].try_into().unwrap_or([0; 8]));
    if stored != checksum(&bytes[..HEADER_LEN], &bytes[HEADER_LEN..]) {
        return Err(TableProblem::Checksum);
    }
    Ok(())
}

/// What a table's reader checks before it reserves memory for a file: its length and its first
/// bytes (up to [`HEADER_LEN`]).
type SizeCheck<'a> = &'a dyn Fn(u64, &[u8]) -> Result<(), TableProblem>;

/// Reads the file at `path` whole into memory, without ever blocking on it: a path that is not
/// a regular file is refused (looked at before it is opened, and again once it is opened
/// without blocking, in case it was replaced in between), a file whose length and header
/// `size` refuses is refused before any memory is reserved for it, memory that cannot be
/// allocated is [`TableProblem::NoMemory`] (never an abort), and a file that changes while it
/// is read is reported.
fn read_file(path: &Path, size: SizeCheck) -> Result<TableBytes, TableProblem> {
    let unreadable = |e: io::Error| TableProblem::Unreadable(e.to_string());
    let before = match fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(TableProblem::Missing),
        Err(e) => return Err(unreadable(e)),
    };
    if !before.is_file() {
        return Err(TableProblem::NotAFile(kind_name(&before)));
    }
    let file = match open_nonblocking(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(TableProblem::Missing),
        Err(e) => return Err(unreadable(e)),
    };
    let metadata = file.metadata().map_err(unreadable)?;
    if !metadata.is_file() {
        return Err(TableProblem::NotAFile(kind_name(&metadata)));
    }
    set_blocking(&file).map_err(unreadable)?;
    let file = WatchedFile::new(file, &path.display().to_string()).map_err(unreadable)?;
    let mut head = [0u8; HEADER_LEN];
    let head_len = file.len().min(HEADER_LEN as u64) as usize;
    if let Err(e) = file.read_exact_at(&mut head[..head_len], 0) {
        return Err(match file.how_changed() {
            Some(how) => TableProblem::Changed(how),
            None => unreadable(e),
        });
    }
    size(file.len(), &head[..head_len])?;
    let no_memory = TableProblem::NoMemory { bytes: file.len() };
    let len = usize::try_from(file.len()).map_err(|_| no_memory.clone())?;
    let mut words = try_zeroed_words(len.div_ceil(8)).ok_or(no_memory)?;
    crate::files::advise_huge_pages(&mut words);
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
    // Pieces read in parallel (the copies from the page cache, and the faults of new pages,
    // are most of a table's loading time).
    let read = {
        use rayon::prelude::*;
        bytes[..len]
            .par_chunks_mut(PARALLEL_PIECE)
            .enumerate()
            .try_for_each(|(i, piece)| file.read_exact_at(piece, (i * PARALLEL_PIECE) as u64))
            .and_then(|()| file.check())
    };
    if let Err(e) = read {
        return Err(match file.how_changed() {
            Some(how) => TableProblem::Changed(how),
            None => unreadable(e),
        });
    }
    Ok(TableBytes { words, len })
}

/// Writes a table file whole or not at all, as every output is written
/// ([`crate::output`]: a temporary file in the same directory renamed onto it, removed
/// if anything fails; a link is followed, a device or FIFO written through, nothing else that
/// is not a regular file replaced): the header with its checksum, then the payload's parts. A
/// table is never written in place.
fn write_table(path: &Path, mut head: [u8; HEADER_LEN], parts: &[&[u8]]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&head[..56]);
    for part in parts {
        hasher.update(part);
    }
    head[56..64].copy_from_slice(&u64::from(hasher.finalize()).to_le_bytes());
    let mut all: Vec<&[u8]> = Vec::with_capacity(parts.len() + 1);
    all.push(&head);
    all.extend_from_slice(parts);
    crate::output::write_parts(path, &all).map_err(|e| e.error)
}

/// Opens and verifies the table of `rules` in `dir` without building anything.
pub fn open_expected(dir: &Path, rules: RuleSet) -> Result<ExpectedTable, TableProblem> {
    let size = |len: u64, head: &[u8]| check_size(head, len, rules, EXPECTED);
    let bytes = read_file(&expected_path(dir, rules), &size)?;
    verify(&bytes, rules, EXPECTED)?;
    payload(&bytes).ok_or(TableProblem::NotATable)?;
    Ok(ExpectedTable {
        rules,
        storage: Storage::Read(bytes),
    })
}

/// Builds the table of `rules` in memory, reporting its progress (in states) to `progress`.
/// Returns the table and the seconds the build took.
pub(crate) fn build_expected(rules: RuleSet, progress: &dyn Progress) -> (ExpectedTable, f64) {
    progress.build_started(
        &format!("building the {rules} expected-score table"),
        "states",
    );
    let start = std::time::Instant::now();
    let values = build_table(rules, &|done, total| progress.build_progress(done, total));
    let seconds = start.elapsed().as_secs_f64();
    progress.build_finished();
    (
        ExpectedTable {
            rules,
            storage: Storage::Owned(values),
        },
        seconds,
    )
}

/// Writes a table file atomically (temporary file, then rename).
pub fn write_expected(dir: &Path, rules: RuleSet, values: &[f64]) -> io::Result<()> {
    let head = header(EXPECTED, rules, values.len() as u64, 0);
    write_table(
        &expected_path(dir, rules),
        head,
        &[bytemuck::cast_slice(values)],
    )
}

/// Version of the saved-rolls builder; bump when its results change.
pub(crate) const SAVED_BUILDER_VERSION: u32 = 1;
const KIND_SAVED: u32 = 4;

/// Saved-rolls tables: the header's extra field is the bank cap, the payload one value per
/// state and bank (`cap + 1` slices of the state space, bank-major).
const SAVED: Kind = Kind {
    code: KIND_SAVED,
    builder: SAVED_BUILDER_VERSION,
    name: "saved-rolls",
    payload_len: |entries, cap| entries * (u64::from(cap) + 1) * 8,
};

/// The saved-rolls table of a rule set that saves rolls (`maxi-yatzy-saved`) in `dir`.
pub fn saved_path(dir: &Path, rules: RuleSet) -> PathBuf {
    dir.join(format!("{}.saved.tbl", rules.name()))
}

/// Opens and verifies the saved-rolls table of `rules` in `dir` without building anything
/// (checked like every table: header, size before any memory is reserved, checksum).
pub fn open_saved(dir: &Path, rules: RuleSet) -> Result<SavedTable, TableProblem> {
    let size = |len: u64, head: &[u8]| {
        check_size(head, len, rules, SAVED)?;
        // The bank cap counts whole slices: a cap over 255 is a damaged header.
        match read_u32(head, 44) {
            cap if cap <= u32::from(u8::MAX) => Ok(()),
            cap => Err(TableProblem::Mismatch(format!(
                "its header gives a bank cap of {cap}, at most 255 is built"
            ))),
        }
    };
    let bytes = read_file(&saved_path(dir, rules), &size)?;
    verify(&bytes, rules, SAVED)?;
    let cap = read_u32(&bytes, 44) as u8;
    // The header's words dropped, the file's words become the values in place.
    let values: Vec<f64> = bytes
        .words
        .into_iter()
        .skip(HEADER_LEN / 8)
        .map(f64::from_bits)
        .collect();
    SavedTable::from_values(rules, cap, values).ok_or(TableProblem::NotATable)
}

/// Builds the saved-rolls table of `rules` at the bank cap that makes it exact, reporting its
/// progress (in states) to `progress`. Returns the table and the seconds the build took.
pub fn build_saved(rules: RuleSet, progress: &dyn Progress) -> (SavedTable, f64) {
    let cap = exact_bank_cap(rules);
    progress.build_started(
        &format!("building the {rules} saved-rolls table (bank cap {cap})"),
        "states",
    );
    let start = std::time::Instant::now();
    let table = build_saved_table(rules, cap, 0, &|done, total| {
        progress.build_progress(done, total)
    });
    let seconds = start.elapsed().as_secs_f64();
    progress.build_finished();
    (table, seconds)
}

/// Writes a saved-rolls table file atomically (temporary file, then rename).
pub fn write_saved(dir: &Path, table: &SavedTable) -> io::Result<()> {
    let rules = table.rules();
    let entries = StateSpace::new(rules).len() as u64;
    let head = header(SAVED, rules, entries, u32::from(table.bank_cap()));
    write_table(
        &saved_path(dir, rules),
        head,
        &[bytemuck::cast_slice(table.values())],
    )
}

/// What was found when a table was opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// A valid table.
    Valid,
    /// A table that had to be (re)built, and why.
    Rebuilt(TableProblem),
}

/// Opens the table of `rules`, building it first when it is missing, damaged or mismatched,
/// and saving what it built. `progress` receives a notice before any build starts, and one if
/// the built table cannot be saved (it is then used from memory), and the build's progress.
/// A rule set that saves rolls gets its saved-rolls table (bank-major values, every bank).
/// Fails, building nothing, when the table's path is not a regular file.
pub(crate) fn load_expected(
    dir: &Path,
    rules: RuleSet,
    progress: &dyn Progress,
) -> Result<(ExpectedTable, Found), TableError> {
    if rules.saves_rolls() {
        let path = saved_path(dir, rules);
        let opened = open_saved(dir, rules).map(ExpectedTable::from_saved);
        return open_or_build(&path, opened, "", progress, || {
            let (table, _) = build_saved(rules, progress);
            if let Err(e) = write_saved(dir, &table) {
                progress.notice(&format!(
                    "cannot save {}: {e}; using the table from memory",
                    path.display()
                ));
            }
            ExpectedTable::from_saved(table)
        });
    }
    let path = expected_path(dir, rules);
    open_or_build(&path, open_expected(dir, rules), "", progress, || {
        let (table, _) = build_expected(rules, progress);
        if let Err(e) = write_expected(dir, rules, table.values()) {
            progress.notice(&format!(
                "cannot save {}: {e}; using the table from memory",
                path.display()
            ));
        }
        table
    })
}

/// The table `opened` gave, or, when it is missing, damaged or mismatched, the one `build`
/// builds (after a notice to `progress`: "table PATH is PROBLEM; building it", then `how`):
/// how every kind of table is loaded. Fails, building nothing, when the table's path is not a
/// regular file.
fn open_or_build<T>(
    path: &Path,
    opened: Result<T, TableProblem>,
    how: &str,
    progress: &dyn Progress,
    build: impl FnOnce() -> T,
) -> Result<(T, Found), TableError> {
    match opened {
        Ok(table) => Ok((table, Found::Valid)),
        Err(problem) => {
            fatal(path, &problem)?;
            progress.notice(&format!(
                "table {} is {problem}; building it{how}",
                path.display()
            ));
            Ok((build(), Found::Rebuilt(problem)))
        }
    }
}

/// Version of the distribution builder; bump when its results change.
pub(crate) const DIST_BUILDER_VERSION: u32 = 3;
const KIND_DIST: u32 = 2;
const KIND_DIST_PARTIAL: u32 = 3;

/// Distribution tables: after the header, an index of one [`IndexEntry`] per state, then every
/// state's values (`u16`), in state order. The header's extra field holds the number of values.
const DIST: Kind = Kind {
    code: KIND_DIST,
    builder: DIST_BUILDER_VERSION,
    name: "a distribution",
    payload_len: |entries, values| entries * 8 + u64::from(values) * 2,
};

/// One state's place in a distribution file.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct IndexEntry {
    /// First value, counted in values from the start of the values.
    offset: u32,
    /// The distribution's start.
    start: u16,
    /// Number of values.
    len: u16,
}

/// Path of a rule set's distribution table in `dir`.
pub fn dist_path(dir: &Path, rules: RuleSet) -> PathBuf {
    dir.join(format!("{}.dist.tbl", rules.name()))
}

/// Path of the checkpoint of an unfinished distribution build.
pub fn dist_partial_path(dir: &Path, rules: RuleSet) -> PathBuf {
    dir.join(format!("{}.dist.partial", rules.name()))
}

enum DistStorage {
    Read(TableBytes),
    Owned(DistTableData),
}

/// A rule set's distribution table, verified.
pub struct DistTable {
    rules: RuleSet,
    storage: DistStorage,
}

/// The index and values of a distribution file's bytes (verified before).
fn dist_parts(bytes: &[u8], states: usize) -> Option<(&[IndexEntry], &[u16])> {
    let index_end = HEADER_LEN + states * 8;
    let index = bytemuck::try_cast_slice(bytes.get(HEADER_LEN..index_end)?).ok()?;
    let values = bytemuck::try_cast_slice(bytes.get(index_end..)?).ok()?;
    Some((index, values))
}

impl DistTable {
    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The distribution of a sheet's points still to come, `None` if the sheet is impossible.
    pub fn sheet_dist(&self, sheet: &crate::rules::Sheet) -> Option<Dist<'_>> {
        let index = StateSpace::new(self.rules).index_of(sheet)?;
        Some(self.dist(index))
    }

    /// Number of stored values.
    pub(crate) fn stored_values(&self) -> u64 {
        match &self.storage {
            DistStorage::Owned(data) => data.values.iter().map(|v| v.len() as u64).sum(),
            DistStorage::Read(bytes) => {
                let states = StateSpace::new(self.rules).len();
                dist_parts(bytes, states).map_or(0, |(_, v)| v.len() as u64)
            }
        }
    }
}

impl DistSource for DistTable {
    fn dist(&self, index: usize) -> Dist<'_> {
        match &self.storage {
            DistStorage::Owned(data) => data.dist(index),
            DistStorage::Read(bytes) => {
                let states = StateSpace::new(self.rules).len();
                let found = dist_parts(bytes, states).and_then(|(entries, values)| {
                    let e = entries.get(index)?;
                    let offset = e.offset as usize;
                    let values = values.get(offset..offset + usize::from(e.len))?;
                    Some(Dist {
                        start: u32::from(e.start),
                        values,
                    })
                });
                found.unwrap_or(Dist {
                    start: 0,
                    values: &[],
                })
            }
        }
    }
}

/// Opens and verifies the distribution table of `rules` in `dir` without building anything:
/// header, size, checksum of every byte, and an index that tiles the values exactly.
pub fn open_dist(dir: &Path, rules: RuleSet) -> Result<DistTable, TableProblem> {
    let size = |len: u64, head: &[u8]| check_size(head, len, rules, DIST);
    let bytes = read_file(&dist_path(dir, rules), &size)?;
    verify(&bytes, rules, DIST)?;
    let states = StateSpace::new(rules).len();
    let (index, values) = dist_parts(&bytes, states).ok_or(TableProblem::NotATable)?;
    let mut next = 0u64;
    for e in index {
        if u64::from(e.offset) != next {
            return Err(TableProblem::NotATable);
        }
        next += u64::from(e.len);
    }
    if next != values.len() as u64 {
        return Err(TableProblem::NotATable);
    }
    Ok(DistTable {
        rules,
        storage: DistStorage::Read(bytes),
    })
}

/// Writes a complete distribution table atomically.
pub(crate) fn write_dist(dir: &Path, rules: RuleSet, data: &DistTableData) -> io::Result<()> {
    let mut index = Vec::with_capacity(data.starts.len());
    let mut offset = 0u64;
    for (&start, values) in data.starts.iter().zip(&data.values) {
        let too_big = || io::Error::other("distribution table too large for its index");
        index.push(IndexEntry {
            offset: u32::try_from(offset).map_err(|_| too_big())?,
            start: u16::try_from(start).map_err(|_| too_big())?,
            len: u16::try_from(values.len()).map_err(|_| too_big())?,
        });
        offset += values.len() as u64;
    }
    let count = u32::try_from(offset).map_err(|_| io::Error::other("too many values"))?;
    let head = header(DIST, rules, index.len() as u64, count);
    // Each state's values written where they are (no copy of the whole table).
    let mut parts: Vec<&[u8]> = Vec::with_capacity(1 + data.values.len());
    parts.push(bytemuck::cast_slice(&index));
    parts.extend(
        data.values
            .iter()
            .map(|v| bytemuck::cast_slice::<u16, u8>(v)),
    );
    write_table(&dist_path(dir, rules), head, &parts)
}

/// How a distribution build went.
pub struct DistBuild {
    /// The table, if the build finished.
    pub table: Option<DistTableData>,
    /// States taken from the checkpoint of an earlier, interrupted build.
    pub resumed: u64,
    /// States computed by this build.
    pub computed: u64,
    /// Seconds the build took.
    pub seconds: f64,
}

/// Bytes of a checkpoint record before its values: state index, start, number of values,
/// CRC-32 of those twelve bytes and the values.
const RECORD_HEAD: usize = 16;

/// Reads the checkpoint of an earlier build of the same table into `data`, keeps the file up
/// to its last whole record, and returns it open for appending (a new one if there was none or
/// it does not belong to this build), with the number of states it held.
fn open_checkpoint(
    path: &Path,
    head: &[u8; HEADER_LEN],
    data: &mut DistTableData,
) -> io::Result<(File, u64)> {
    // A checkpoint holds at most every state once: a longer file (or not a file) is not one,
    // and is never read into memory.
    let states = data.starts.len() as u64;
    let most = HEADER_LEN as u64 + states * (RECORD_HEAD as u64 + 2 * MOST_VALUES_PER_STATE);
    let bytes = match fs::metadata(path) {
        Ok(m) if m.is_file() && m.len() <= most => fs::read(path).unwrap_or_default(),
        _ => Vec::new(),
    };
    let mut good = 0;
    let mut resumed = 0;
    if bytes.len() >= HEADER_LEN && bytes[..HEADER_LEN] == head[..] {
        good = HEADER_LEN;
        while let Some(record) = bytes.get(good..good + RECORD_HEAD) {
            let index = read_u32(record, 0) as usize;
            let start = read_u32(record, 4);
            let len = read_u32(record, 8) as usize;
            let Some(body) = bytes.get(good + RECORD_HEAD..good + RECORD_HEAD + 2 * len) else {
                break;
            };
            let mut crc = crc32fast::Hasher::new();
            crc.update(&record[..12]);
            crc.update(body);
            if crc.finalize() != read_u32(record, 12) || index >= data.starts.len() {
                break;
            }
            let values = body
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect();
            if !data.has(index) {
                resumed += 1;
            }
            data.set(index, start, values);
            good += RECORD_HEAD + 2 * len;
        }
    }
    let mut file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)?;
    if good == 0 {
        file.set_len(0)?;
        file.write_all(head)?;
    } else {
        file.set_len(good as u64)?;
    }
    use std::io::Seek;
    file.seek(io::SeekFrom::End(0))?;
    Ok((file, resumed))
}

/// Appends each chunk's states to the checkpoint and reports the progress; stops after a
/// given number of chunks when asked (to test resuming).
struct Checkpointer<'a> {
    out: io::BufWriter<File>,
    error: Option<io::Error>,
    progress: &'a dyn Progress,
    chunks_left: Option<u64>,
    computed: u64,
}

impl BuildObserver for Checkpointer<'_> {
    fn chunk_done(
        &mut self,
        table: &DistTableData,
        indices: &[usize],
        done: u64,
        total: u64,
    ) -> bool {
        self.computed += indices.len() as u64;
        for &i in indices {
            let d = table.dist(i);
            let mut record = [0u8; RECORD_HEAD];
            record[0..4].copy_from_slice(&(i as u32).to_le_bytes());
            record[4..8].copy_from_slice(&d.start.to_le_bytes());
            record[8..12].copy_from_slice(&(d.values.len() as u32).to_le_bytes());
            let body: &[u8] = bytemuck::cast_slice(d.values);
            let mut crc = crc32fast::Hasher::new();
            crc.update(&record[..12]);
            crc.update(body);
            record[12..16].copy_from_slice(&crc.finalize().to_le_bytes());
            let written = self
                .out
                .write_all(&record)
                .and_then(|()| self.out.write_all(body));
            if let Err(e) = written {
                self.error.get_or_insert(e);
            }
        }
        if let Err(e) = self.out.flush() {
            self.error.get_or_insert(e);
        }
        self.progress.build_progress(done, total);
        match &mut self.chunks_left {
            Some(0) => false,
            Some(n) => {
                *n -= 1;
                *n > 0
            }
            None => self.error.is_none(),
        }
    }
}

/// Builds the distribution table of `rules` (the states with at least `min_filled` boxes
/// filled; 0 for the whole table), checkpointing every chunk of states into
/// [`dist_partial_path`] so that an interrupted build resumes where it stopped. With
/// `stop_after` chunks, the build stops there. A whole table is written to [`dist_path`] and
/// its checkpoint removed. Nothing is reported ([`build_dist_file_reporting`] reports).
pub fn build_dist_file(
    dir: &Path,
    rules: RuleSet,
    min_filled: usize,
    stop_after: Option<u64>,
) -> io::Result<DistBuild> {
    build_dist_file_reporting(dir, rules, min_filled, stop_after, &Silent)
}

/// [`build_dist_file`], reporting the build's progress (in states) to `progress`.
pub fn build_dist_file_reporting(
    dir: &Path,
    rules: RuleSet,
    min_filled: usize,
    stop_after: Option<u64>,
    progress: &dyn Progress,
) -> io::Result<DistBuild> {
    let start = std::time::Instant::now();
    fs::create_dir_all(dir)?;
    let states = StateSpace::new(rules).len();
    let mut data = DistTableData::new(states);
    let mut head = header(
        Kind {
            code: KIND_DIST_PARTIAL,
            ..DIST
        },
        rules,
        states as u64,
        min_filled as u32,
    );
    let sum = checksum(&head, &[]);
    head[56..64].copy_from_slice(&sum.to_le_bytes());
    let partial = dist_partial_path(dir, rules);
    let (file, resumed) = open_checkpoint(&partial, &head, &mut data)?;
    progress.build_started(
        &format!("building the {rules} distribution table"),
        "states",
    );
    let mut observer = Checkpointer {
        out: io::BufWriter::new(file),
        error: None,
        progress,
        chunks_left: stop_after,
        computed: 0,
    };
    let finished = build_dist(rules, &mut data, min_filled, &mut observer);
    progress.build_finished();
    if let Some(e) = observer.error {
        return Err(e);
    }
    let computed = observer.computed;
    drop(observer);
    let table = if finished {
        if min_filled == 0 {
            write_dist(dir, rules, &data)?;
        }
        let _ = fs::remove_file(&partial);
        Some(data)
    } else {
        None
    };
    Ok(DistBuild {
        table,
        resumed,
        computed,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Opens the distribution table of `rules`, building it first (resuming an interrupted build)
/// when it is missing, damaged or mismatched. `progress` receives a notice before a build
/// starts, and one if the table cannot be saved (it is then used from memory), and the build's
/// progress. Fails, building nothing, when the table's path is not a regular file.
pub fn load_dist(
    dir: &Path,
    rules: RuleSet,
    progress: &dyn Progress,
) -> Result<(DistTable, Found), TableError> {
    let path = dist_path(dir, rules);
    let how = " (369 MB, about 70 seconds to build on an idle 2-core machine, 12 minutes on \
               one loaded by other builds; an interrupted build resumes)";
    open_or_build(&path, open_dist(dir, rules), how, progress, || {
        let built = match build_dist_file_reporting(dir, rules, 0, None, progress) {
            Ok(DistBuild {
                table: Some(data), ..
            }) => data,
            Ok(_) | Err(_) => {
                progress.notice(&format!(
                    "cannot save {}; building the table in memory",
                    path.display()
                ));
                let mut data = DistTableData::new(StateSpace::new(rules).len());
                build_dist(rules, &mut data, 0, &mut NoObserver);
                data
            }
        };
        open_dist(dir, rules).unwrap_or(DistTable {
            rules,
            storage: DistStorage::Owned(built),
        })
    })
}

/// An observer that lets a build run to the end.
struct NoObserver;

impl BuildObserver for NoObserver {
    fn chunk_done(&mut self, _: &DistTableData, _: &[usize], _: u64, _: u64) -> bool {
        true
    }
}

/// A distribution table held in memory (for tests and benchmarks).
pub fn dist_from_data(rules: RuleSet, data: DistTableData) -> DistTable {
    DistTable {
        rules,
        storage: DistStorage::Owned(data),
    }
}

/// Path of a Jamb rule set's column tables (the heuristic oracle's exact one-column values) in
/// `dir`.
pub fn jamb_path(dir: &Path, rules: JambRules) -> PathBuf {
    dir.join(format!("{}.columns.tbl", rules.name))
}

/// Opens the column tables of Jamb rule set `rules`, building them first when they are missing,
/// damaged or of another version, and saving what was built (as `load_expected` does).
pub fn load_jamb(
    dir: &Path,
    rules: JambRules,
    progress: &dyn Progress,
) -> Result<(JambTables, Found), TableError> {
    open_or_build(
        &jamb_path(dir, rules),
        open_jamb(dir, rules),
        "",
        progress,
        || build_jamb(dir, rules, progress).0,
    )
}

/// Opens and verifies the column tables of Jamb rule set `rules` in `dir` without building
/// anything: a file of another length than the rule set's tables have
/// ([`JambTables::stored_lens`]) is refused before it is read.
pub fn open_jamb(dir: &Path, rules: JambRules) -> Result<JambTables, TableProblem> {
    let lens = JambTables::stored_lens(&rules);
    let size = |len: u64, _: &[u8]| {
        if lens.contains(&len) {
            Ok(())
        } else {
            Err(TableProblem::WrongSize {
                found: len,
                expected: lens[0],
            })
        }
    };
    let bytes = read_file(&jamb_path(dir, rules), &size)?;
    match JambTables::from_bytes(&bytes) {
        Ok(tables) if tables.rules() == &rules => Ok(tables),
        Ok(_) => Err(TableProblem::Mismatch("another rule set's tables".into())),
        Err(why) => Err(TableProblem::Mismatch(why)),
    }
}

/// Builds the column tables of Jamb rule set `rules` (reporting to `progress`) and saves them
/// in `dir` (a notice says when they cannot be saved; they are then used from memory). Returns
/// the tables and the seconds the build took.
pub(crate) fn build_jamb(
    dir: &Path,
    rules: JambRules,
    progress: &dyn Progress,
) -> (JambTables, f64) {
    let path = jamb_path(dir, rules);
    let start = std::time::Instant::now();
    progress.build_started(
        &format!("building the {} column tables", rules.name),
        "work units",
    );
    let tables = JambTables::build(rules, &|done, total| progress.build_progress(done, total));
    progress.build_finished();
    let saved = std::fs::create_dir_all(dir).and_then(|()| {
        // Whole or not at all, under a temporary name of its own per build: two builds at
        // once (processes or threads) each rename a whole file.
        crate::output::write_file(&path, &tables.to_bytes()).map_err(|e| e.error)
    });
    if let Err(e) = saved {
        progress.notice(&format!(
            "cannot save {}: {e}; using the tables from memory",
            path.display()
        ));
    }
    (tables, start.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Category;
    use std::sync::mpsc;
    use std::time::Duration;

    const RULES: RuleSet = RuleSet::Yahtzee;

    /// An empty directory of this test process under the system's temporary directory, named
    /// after `name`.
    fn fresh_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("dicelens-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_saved_rolls_table_is_written_and_read_back_checked() {
        let dir = fresh_dir("saved");
        // A Yatzy sub-game (the file format does not depend on the rule set): ones to fours
        // and the pairs filled.
        let rules = RuleSet::Yatzy;
        let filled = 0b1111 | 1 << 6 | 1 << 7;
        let table = build_saved_table(rules, 2, filled, &|_, _| {});
        assert_eq!(open_saved(&dir, rules).err(), Some(TableProblem::Missing));
        write_saved(&dir, &table).unwrap();
        let read = open_saved(&dir, rules).unwrap();
        assert_eq!(read.bank_cap(), 2);
        assert!(read
            .values()
            .iter()
            .zip(table.values())
            .all(|(a, b)| a.to_bits() == b.to_bits()));
        assert_eq!(read.values().len(), table.values().len());
        // One byte changed: the checksum refuses it; cut short: the size.
        let path = saved_path(&dir, rules);
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert_eq!(open_saved(&dir, rules).err(), Some(TableProblem::Checksum));
        fs::write(&path, &bytes[..last]).unwrap();
        assert!(matches!(
            open_saved(&dir, rules),
            Err(TableProblem::WrongSize { .. })
        ));
        // A plain expected-score table in its place is another kind of table.
        write_expected(&dir, rules, &vec![0.0; StateSpace::new(rules).len()]).unwrap();
        fs::rename(expected_path(&dir, rules), &path).unwrap();
        assert!(matches!(
            open_saved(&dir, rules),
            Err(TableProblem::Mismatch(_))
        ));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_rule_set_that_saves_rolls_loads_its_saved_rolls_table() {
        let dir = fresh_dir("saves");
        // Maxi Yatzy with every box but chance filled, banks up to 1 (a small sub-game).
        let rules = RuleSet::MaxiYatzySaved;
        let chance = rules
            .boxes()
            .iter()
            .position(|b| *b == Category::Chance)
            .unwrap();
        let within = rules.full_mask() & !(1 << chance);
        let built = build_saved_table(rules, 1, within, &|_, _| {});
        write_saved(&dir, &built).unwrap();
        let (table, found) = load_expected(&dir, rules, &Silent).unwrap();
        assert_eq!(found, Found::Valid);
        assert_eq!(table.values().len(), built.values().len());
        // Its values move out as they are.
        let values = table.values().to_vec();
        assert_eq!(table.into_values(), values);
        // Nothing plain was built or written.
        assert!(!expected_path(&dir, rules).exists());
        let _ = fs::remove_dir_all(&dir);
    }

    /// A table read from its file gives its values, moved out, the same as it reads them (the
    /// header left out): bit for bit, every one.
    #[test]
    fn a_read_table_moves_its_values_out_unchanged() {
        let dir = fresh_dir("moves");
        let rules = RuleSet::Yahtzee;
        let (built, found) = load_expected(&dir, rules, &Silent).unwrap();
        assert_ne!(found, Found::Valid, "a fresh directory has no table");
        let (read, found) = load_expected(&dir, rules, &Silent).unwrap();
        assert_eq!(found, Found::Valid);
        assert!(matches!(read.storage, Storage::Read(_)));
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
        let want = bits(built.values());
        assert_eq!(bits(read.values()), want);
        assert_eq!(bits(&read.into_values()), want);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_kind_of_table_is_opened_or_built_the_same_way() {
        let notices = std::sync::Mutex::new(Vec::new());
        let progress = |message: &str| notices.lock().unwrap().push(message.to_string());
        let path = Path::new("t/x.tbl");
        let built = std::cell::Cell::new(0);
        let build = || {
            built.set(built.get() + 1);
            7
        };
        // A valid table is used as it is.
        assert_eq!(
            open_or_build(path, Ok(3), "", &progress, build),
            Ok((3, Found::Valid))
        );
        assert_eq!(built.get(), 0);
        // A damaged one is built, after a notice saying why and how.
        let (table, found) = open_or_build(
            path,
            Err(TableProblem::Checksum),
            " (soon)",
            &progress,
            build,
        )
        .unwrap();
        assert_eq!((table, found), (7, Found::Rebuilt(TableProblem::Checksum)));
        assert_eq!(built.get(), 1);
        assert_eq!(
            notices.lock().unwrap().as_slice(),
            ["table t/x.tbl is damaged: checksum mismatch; building it (soon)"]
        );
        // A path that is not a regular file stops the run, building nothing.
        let problem = TableProblem::NotAFile("a directory");
        let err = open_or_build(path, Err(problem.clone()), "", &progress, build).unwrap_err();
        assert_eq!((err.path.as_path(), err.problem), (path, problem));
        assert_eq!(built.get(), 1);
    }

    /// A valid expected-score table of `RULES` in `dir` (arbitrary values: only the file's
    /// layout is checked), and a valid distribution table (every distribution empty).
    fn write_tables(dir: &Path) -> Vec<f64> {
        let states = StateSpace::new(RULES).len();
        let values: Vec<f64> = (0..states).map(|i| i as f64).collect();
        write_expected(dir, RULES, &values).unwrap();
        let mut data = empty_dists();
        data.set(states - 1, 7, vec![40_000, 20_000]);
        write_dist(dir, RULES, &data).unwrap();
        values
    }

    /// A distribution for every state of `RULES`, each empty.
    fn empty_dists() -> DistTableData {
        let mut data = DistTableData::new(StateSpace::new(RULES).len());
        data.starts.fill(0);
        data
    }

    /// Cuts the file at `path` to `len` bytes in place (as `cp` over it starts by doing).
    fn truncate(path: &Path, len: u64) {
        File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_len(len)
            .unwrap();
    }

    /// Runs `load` on a thread and returns what it gives, failing if it takes a minute.
    fn within_a_minute<T: Send + 'static>(load: impl FnOnce() -> T + Send + 'static) -> T {
        let (send, receive) = mpsc::channel();
        std::thread::spawn(move || send.send(load()));
        receive
            .recv_timeout(Duration::from_secs(60))
            .expect("no answer within a minute: the load blocks")
    }

    #[test]
    fn a_table_cut_short_after_it_is_opened_is_still_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let values = write_tables(dir.path());
        let expected = open_expected(dir.path(), RULES).unwrap();
        let dists = open_dist(dir.path(), RULES).unwrap();
        // Mapped tables would raise SIGBUS on the next read of a page past the new end.
        truncate(&expected_path(dir.path(), RULES), 100);
        truncate(&dist_path(dir.path(), RULES), 100);
        assert_eq!(expected.values(), &values[..]);
        let last = dists.dist(values.len() - 1);
        assert_eq!((last.start, last.values), (7, &[40_000, 20_000][..]));
        assert_eq!(dists.stored_values(), 2);
        // Opened again, the cut tables are damaged (and rebuilt by `load_*`).
        let found = 100;
        let expected_len = (HEADER_LEN + values.len() * 8) as u64;
        assert_eq!(
            open_expected(dir.path(), RULES).err(),
            Some(TableProblem::WrongSize {
                found,
                expected: expected_len
            })
        );
        assert!(matches!(
            open_dist(dir.path(), RULES).err(),
            Some(TableProblem::WrongSize { found: 100, .. })
        ));
    }

    #[test]
    fn a_table_path_that_is_not_a_regular_file_is_an_error_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = expected_path(dir.path(), RULES);
        fs::create_dir(&path).unwrap();
        let tables = dir.path().to_path_buf();
        let error = within_a_minute(move || load_expected(&tables, RULES, &Silent).err());
        let error = error.expect("a directory is not a table");
        assert_eq!(error.problem, TableProblem::NotAFile("a directory"));
        assert_eq!(
            error.to_string(),
            format!(
                "table {} is a directory, not a table file: remove it, or give another table \
                 directory (--tables or $DICELENS_TABLES)",
                path.display()
            )
        );
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let fifo = dist_path(dir.path(), RULES);
            let name = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
            // SAFETY: a NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
            let tables = dir.path().to_path_buf();
            let problem = within_a_minute(move || open_dist(&tables, RULES).err());
            assert_eq!(problem, Some(TableProblem::NotAFile("a FIFO")));
            let tables = dir.path().to_path_buf();
            let error = within_a_minute(move || load_dist(&tables, RULES, &Silent).err());
            assert_eq!(error.map(|e| e.path), Some(fifo));
        }
        // Nothing was built or left behind: the directory holds what the test made.
        let mut left: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let mut made = vec!["yahtzee.expected.tbl".to_string()];
        if cfg!(unix) {
            made.insert(0, "yahtzee.dist.tbl".to_string());
        }
        assert_eq!(left, made);
    }

    #[test]
    fn a_table_that_cannot_be_written_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        // The table's name is taken by a directory: the rename fails.
        fs::create_dir(expected_path(dir.path(), RULES)).unwrap();
        let states = StateSpace::new(RULES).len();
        assert!(write_expected(dir.path(), RULES, &vec![0.0; states]).is_err());
        assert!(write_dist(dir.path(), RULES, &empty_dists()).is_ok());
        fs::remove_file(dist_path(dir.path(), RULES)).unwrap();
        let left: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, ["yahtzee.expected.tbl"]);
    }
}
