//! Table files: where precomputed tables live, their header and checksum, memory-mapping, and
//! rebuilding any table that is missing, damaged or does not match this build.
//!
//! File layout (little-endian), 64-byte header then the payload:
//! `0..8` magic `DICELENS`, `8..12` format version, `12..16` table kind, `16..40` rule-set name
//! (NUL-padded), `40..44` builder version, `44..48` zero, `48..56` number of entries,
//! `56..64` CRC-32 of bytes `0..56` followed by the payload. Payload: one `f64` per state.

use crate::rules::RuleSet;
use crate::solve::expected::build_table;
use crate::solve::states::StateSpace;
use memmap2::Mmap;

#[cfg(target_endian = "big")]
compile_error!(
    "table files are little-endian and mapped as they are: big-endian hosts are not supported"
);
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"DICELENS";
/// Version of the file layout.
pub const FORMAT_VERSION: u32 = 1;
/// Version of the expected-score builder; bump when its results change.
pub const EXPECTED_BUILDER_VERSION: u32 = 1;
const KIND_EXPECTED: u32 = 1;
const HEADER_LEN: usize = 64;

/// Environment variable naming the table directory.
pub const TABLES_ENV: &str = "DICELENS_TABLES";

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
    /// The checksum does not match the contents.
    Checksum,
    /// The file could not be read.
    Unreadable(String),
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
            TableProblem::Checksum => f.write_str("damaged: checksum mismatch"),
            TableProblem::Unreadable(e) => write!(f, "unreadable: {e}"),
        }
    }
}

/// The bytes of a table: a verified memory map, or freshly built values.
enum Storage {
    Mapped(Mmap),
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

    /// The values, indexed by [`StateSpace::index`].
    pub fn values(&self) -> &[f64] {
        match &self.storage {
            Storage::Owned(v) => v,
            Storage::Mapped(map) => payload(map).unwrap_or(&[]),
        }
    }

    /// Optimal expected score of the empty sheet.
    pub fn empty_sheet_value(&self) -> f64 {
        let sheet = crate::rules::Sheet::empty(self.rules);
        crate::solve::expected::sheet_value(self.values(), &sheet).unwrap_or(f64::NAN)
    }

    /// A table held in memory (for tests and benchmarks).
    pub fn from_values(rules: RuleSet, values: Vec<f64>) -> ExpectedTable {
        ExpectedTable {
            rules,
            storage: Storage::Owned(values),
        }
    }
}

fn payload(map: &[u8]) -> Option<&[f64]> {
    bytemuck::try_cast_slice(map.get(HEADER_LEN..)?).ok()
}

fn header(rules: RuleSet, entries: u64) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&KIND_EXPECTED.to_le_bytes());
    let name = rules.name().as_bytes();
    h[16..16 + name.len()].copy_from_slice(name);
    h[40..44].copy_from_slice(&EXPECTED_BUILDER_VERSION.to_le_bytes());
    h[48..56].copy_from_slice(&entries.to_le_bytes());
    h
}

fn checksum(head: &[u8], body: &[u8]) -> u64 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&head[..56]);
    hasher.update(body);
    u64::from(hasher.finalize())
}

/// Checks a mapped file against what this build expects for `rules`.
fn verify(bytes: &[u8], rules: RuleSet) -> Result<(), TableProblem> {
    let entries = StateSpace::new(rules).len() as u64;
    let expected_len = HEADER_LEN as u64 + entries * 8;
    if bytes.len() < HEADER_LEN {
        return Err(TableProblem::WrongSize {
            found: bytes.len() as u64,
            expected: expected_len,
        });
    }
    let want = header(rules, entries);
    if bytes[0..12] != want[0..12] {
        return Err(TableProblem::NotATable);
    }
    if bytes[12..16] != want[12..16] {
        return Err(TableProblem::Mismatch("not an expected-score table".into()));
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
        let v = u32::from_le_bytes([bytes[40], bytes[41], bytes[42], bytes[43]]);
        return Err(TableProblem::Mismatch(format!(
            "built by builder version {v}, this build needs {EXPECTED_BUILDER_VERSION}"
        )));
    }
    if bytes.len() as u64 != expected_len || bytes[44..56] != want[44..56] {
        return Err(TableProblem::WrongSize {
            found: bytes.len() as u64,
            expected: expected_len,
        });
    }
    let stored = u64::from_le_bytes(bytes[56..64].try_into().unwrap_or([0; 8]));
    if stored != checksum(&bytes[..HEADER_LEN], &bytes[HEADER_LEN..]) {
        return Err(TableProblem::Checksum);
    }
    payload(bytes).map(|_| ()).ok_or(TableProblem::NotATable)
}

/// Opens and verifies the table of `rules` in `dir` without building anything.
pub fn open_expected(dir: &Path, rules: RuleSet) -> Result<ExpectedTable, TableProblem> {
    let path = expected_path(dir, rules);
    let file = match File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(TableProblem::Missing),
        Err(e) => return Err(TableProblem::Unreadable(e.to_string())),
    };
    // SAFETY: the file is only ever replaced by rename, never modified in place, so the mapping
    // stays valid; its contents are verified (checksum) before use.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| TableProblem::Unreadable(e.to_string()))?;
    verify(&map, rules)?;
    Ok(ExpectedTable {
        rules,
        storage: Storage::Mapped(map),
    })
}

/// Builds the table of `rules` in memory, with a progress bar on stderr when it is a terminal.
/// Returns the table and the seconds the build took.
pub fn build_expected(rules: RuleSet) -> (ExpectedTable, f64) {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} runs {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(format!("building {rules} table"));
    let start = std::time::Instant::now();
    let values = build_table(rules, &|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
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
    fs::create_dir_all(dir)?;
    let path = expected_path(dir, rules);
    let body: &[u8] = bytemuck::cast_slice(values);
    let mut head = header(rules, values.len() as u64);
    let sum = checksum(&head, body);
    head[56..64].copy_from_slice(&sum.to_le_bytes());
    let tmp = dir.join(format!(
        "{}.expected.tbl.tmp{}",
        rules.name(),
        std::process::id()
    ));
    {
        let mut f = File::create(&tmp)?;
        f.write_all(&head)?;
        f.write_all(body)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, &path)
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
/// and saving what it built. `notice` receives a one-line message before any build starts, and
/// one if the built table cannot be saved (it is then used from memory).
pub fn load_expected(dir: &Path, rules: RuleSet, notice: &dyn Fn(&str)) -> (ExpectedTable, Found) {
    match open_expected(dir, rules) {
        Ok(t) => (t, Found::Valid),
        Err(problem) => {
            let path = expected_path(dir, rules);
            notice(&format!(
                "table {} is {problem}; building it",
                path.display()
            ));
            let (table, _) = build_expected(rules);
            if let Err(e) = write_expected(dir, rules, table.values()) {
                notice(&format!(
                    "cannot save {}: {e}; using the table from memory",
                    path.display()
                ));
            }
            (table, Found::Rebuilt(problem))
        }
    }
}
