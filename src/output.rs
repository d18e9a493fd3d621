//! Outputs complete or absent. Every file a command writes is first written to a temporary file
//! beside its target (`.dicelens-tmp-PID-N-NAME`, in the target's directory), flushed to disk,
//! and renamed onto the target only once every output of the run is written ([`PendingFile`],
//! [`Finished`], `write_file`). A failure before that (a full disk, or a run that fails for
//! another reason) leaves the previous outputs as they were, and no temporary file behind.
//!
//! An output directory ([`OutputDir`]: `analyze --out`, `merge --out`) also gets a manifest,
//! [`MANIFEST`], renamed into place last: the names and sizes of the files the run wrote. The
//! earlier manifest is removed before the first file is renamed, so a directory has a manifest
//! only when a run completed in it. The manifest
//! - says that the directory is complete ([`check_complete`], which `merge` and `player --from`
//!   ask of a directory before they read it);
//! - says which files of an earlier run to remove when a run does not write them again (an old
//!   `decisions.csv` never stays beside the outputs of a run without `--decisions`);
//! - tells a directory that dicelens wrote from one it did not: a run refuses a directory that
//!   holds other files and no manifest.
//!
//! Outputs never replace what is not a regular file ([`PendingFile::create`]): a target that
//! is a character device or a FIFO (`/dev/null`, `/dev/full`, a named pipe) is written through,
//! directly, and its errors reported (`/dev/full` fails with "No space left on device"); a
//! symbolic link is followed (the regular file it names is replaced through the rename, the
//! link stays; a device or FIFO it names is written through) and one that names nothing is
//! refused; a directory, block device or socket is refused.
//!
//! An output directory is locked for the run ([`LOCK`], an advisory `flock(2)` lock held from
//! [`OutputDir::open`] until the run ends): a second run into a directory in use is refused at
//! once, naming the other run. A run removes only the temporary files that it created, and
//! those of runs no longer alive (the process id in their name is not a live process).
//!
//! Test hook: with [`FAIL_WRITE_AFTER`]`=N` in the environment, writes to output files fail as
//! on a full disk once the process has written N bytes to them in all (for tests of a full
//! disk where no small file system can be mounted).

use crate::files::kind_name;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// A file that could not be written: its path and why.
#[derive(Debug)]
pub struct WriteError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub error: std::io::Error,
}

impl WriteError {
    /// The error of writing `path`.
    pub fn new(path: &Path, error: std::io::Error) -> WriteError {
        WriteError {
            path: path.to_path_buf(),
            error,
        }
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write {}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for WriteError {}

/// The manifest of an output directory: the files the last complete run wrote, with their sizes.
pub const MANIFEST: &str = ".dicelens-outputs";

/// How the names of temporary files begin (`.dicelens-tmp-PID-N-NAME`: the process that
/// writes it, a count, the output's name).
pub const TEMP_PREFIX: &str = ".dicelens-tmp-";

/// The lock file of an output directory: present while a run writes into the directory,
/// locked by it (`flock(2)`, exclusive), holding `pid PID: COMMAND LINE` of that run.
pub const LOCK: &str = ".dicelens-lock";

/// The files `analyze` and `merge` may write into an output directory. A directory without a
/// manifest that holds only these (an earlier version's outputs, or a run interrupted while it
/// renamed its files) is taken as an earlier run's; they are removed when a run does not write
/// them again.
pub(crate) const KNOWN_OUTPUTS: [&str; 9] = [
    "aggregates.json",
    "decisions.csv",
    "games.csv",
    "leaderboard.csv",
    "players.csv",
    "report.html",
    "rounds.csv",
    "screening.csv",
    "summary.json",
];

/// The subdirectories `analyze` and `merge` may write pages into (`players/`, `games/`). Their
/// HTML files in a directory without a manifest are taken as an earlier run's, as
/// [`KNOWN_OUTPUTS`] are.
pub(crate) const KNOWN_OUTPUT_DIRS: [&str; 2] = ["games", "players"];

/// The test hook's environment variable: writes to output files fail once the process has
/// written this many bytes to them in all.
pub const FAIL_WRITE_AFTER: &str = "DICELENS_TEST_FAIL_WRITE_AFTER";

/// The test hook's limit, if set.
fn write_limit() -> Option<u64> {
    static LIMIT: OnceLock<Option<u64>> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        std::env::var(FAIL_WRITE_AFTER)
            .ok()
            .and_then(|v| v.trim().parse().ok())
    })
}

/// Bytes written to output files by this process (counted only under the test hook).
static WRITTEN: AtomicU64 = AtomicU64::new(0);

/// The directory of a file's path (`.` for a bare name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Whether `name` names a file directly inside a directory (no separator, not `.` or `..`).
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\'])
}

/// Whether `name` names a file of an output directory: plain names joined by `/`
/// (`report.html`, `players/ann.html`), nothing that climbs out of it.
fn is_output_name(name: &str) -> bool {
    name.split('/').all(is_plain_name)
}

/// The subdirectory part of an output name (`players` of `players/ann.html`), if any.
fn subdirectory(name: &str) -> Option<&str> {
    name.rsplit_once('/').map(|(dir, _)| dir)
}

/// A file name made from `text` (a player's name, a game id) for a page of an output
/// directory: ASCII letters, digits, `-` and `_` kept (at most 80), anything else `_`; when
/// anything was replaced or cut, `-` and 8 hex digits of the text's FNV-1a hash follow, so two
/// texts never share a file (`ann.html`, `a_b-1c2d3e4f.html` for `a b`).
pub(crate) fn page_file_name(text: &str) -> String {
    let safe: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    if !safe.is_empty() && safe == text {
        format!("{safe}.html")
    } else {
        let hash = crate::game_hash::fnv1a(text.as_bytes()) as u32;
        format!("{safe}-{hash:08x}.html")
    }
}

/// A temporary file, removed when dropped unless it was renamed.
struct TempPath(Option<PathBuf>);

impl TempPath {
    /// Renames the file onto `target`; on failure it stays to be removed.
    fn rename_to(&mut self, target: &Path) -> io::Result<()> {
        if let Some(path) = &self.0 {
            fs::rename(path, target)?;
            self.0 = None;
        }
        Ok(())
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = fs::remove_file(path);
        }
    }
}

/// Creates a new temporary file in `dir` for the output `name`.
fn create_temp(dir: &Path, name: &str) -> io::Result<(File, TempPath)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    // The output's name makes the file recognisable; a long one is cut (file names are short).
    let short: String = name.chars().take(64).collect();
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("{TEMP_PREFIX}{}-{n}-{short}", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((file, TempPath(Some(path)))),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// A temporary file that counts its bytes and honours the test hook.
struct Counted {
    file: File,
    bytes: u64,
}

impl Write for Counted {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut allowed = buf.len();
        if let Some(limit) = write_limit() {
            let before = WRITTEN.fetch_add(buf.len() as u64, Ordering::SeqCst);
            let left = limit.saturating_sub(before);
            if left == 0 && !buf.is_empty() {
                return Err(io::Error::other(format!(
                    "No space left on device (test hook {FAIL_WRITE_AFTER}={limit})"
                )));
            }
            allowed = allowed.min(usize::try_from(left).unwrap_or(usize::MAX));
        }
        let n = self.file.write(&buf[..allowed])?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// What an output's target is, and so how it is written.
enum Target {
    /// Absent, or a regular file: written to a temporary file beside `dest` (the target, or the
    /// regular file a symbolic link names), renamed onto it by the commit.
    Replace {
        /// The path renamed onto.
        dest: PathBuf,
    },
    /// A character device or a FIFO (itself or through a symbolic link): written through.
    Through,
}

/// An output's target that is none of those dicelens writes.
fn refused(why: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, why)
}

/// Whether `meta` (of the file itself, links followed) is written through: a character device
/// or a FIFO.
fn is_written_through(meta: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        t.is_char_device() || t.is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// How `target` is written: replaced (absent, a regular file, a link to one), written through
/// (a character device or FIFO, or a link to one), or refused (anything else, and a link to
/// nothing): never is anything but a regular file replaced.
fn classify(target: &Path) -> io::Result<Target> {
    let meta = match fs::symlink_metadata(target) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Target::Replace {
                dest: target.to_path_buf(),
            })
        }
        Err(e) => return Err(e),
    };
    let link = meta.file_type().is_symlink();
    let meta = if link {
        match fs::metadata(target) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(refused(
                    "a symbolic link to nothing (an output follows a link, never replaces it)"
                        .into(),
                ))
            }
            Err(e) => return Err(e),
        }
    } else {
        meta
    };
    if meta.is_file() {
        let dest = if link {
            fs::canonicalize(target)?
        } else {
            target.to_path_buf()
        };
        return Ok(Target::Replace { dest });
    }
    if is_written_through(&meta) {
        return Ok(Target::Through);
    }
    let what = kind_name(&meta);
    let through = if link {
        ", through a symbolic link"
    } else {
        ""
    };
    Err(refused(format!(
        "{what}{through}: an output is a new or regular file, a character device or a FIFO, \
         and nothing else is replaced"
    )))
}

/// Where an output's bytes are until its commit.
enum Place {
    /// A temporary file, renamed onto `dest` by the commit.
    Temp {
        /// The temporary file.
        temp: TempPath,
        /// The file it replaces.
        dest: PathBuf,
    },
    /// Written into the target itself (a character device or FIFO): nothing to rename.
    Through,
}

/// An output being written: a temporary file beside its target (or the target itself, for a
/// character device or FIFO: see the module's rule). [`PendingFile::finish`] makes it a
/// [`Finished`] file, which a commit renames onto the target; dropped before, the temporary
/// file is removed and the target stays as it was.
pub struct PendingFile {
    out: BufWriter<Counted>,
    place: Place,
    target: PathBuf,
}

impl PendingFile {
    /// Starts writing `target` (its directory must exist). A character device or FIFO (or a
    /// link to one) is opened for writing and written through (a FIFO waits for its reader);
    /// a link to a regular file is followed; a directory, a link to nothing and other kinds of
    /// file are refused.
    pub fn create(target: &Path) -> Result<PendingFile, WriteError> {
        let fail = |e| WriteError::new(target, e);
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy())
            .ok_or_else(|| {
                fail(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "not a file name",
                ))
            })?;
        let (file, place) = match classify(target).map_err(fail)? {
            Target::Replace { dest } => {
                let (file, temp) = create_temp(parent(&dest), &name).map_err(fail)?;
                (file, Place::Temp { temp, dest })
            }
            Target::Through => {
                let file = OpenOptions::new().write(true).open(target).map_err(fail)?;
                (file, Place::Through)
            }
        };
        Ok(PendingFile {
            out: BufWriter::with_capacity(1 << 16, Counted { file, bytes: 0 }),
            place,
            target: target.to_path_buf(),
        })
    }

    /// The file this will become.
    pub fn path(&self) -> &Path {
        &self.target
    }

    /// Flushes the file (to disk, for a temporary file): it is complete, ready to be renamed
    /// onto its target.
    pub fn finish(mut self) -> Result<Finished, WriteError> {
        let target = self.target.clone();
        let fail = |e| WriteError::new(&target, e);
        self.out.flush().map_err(fail)?;
        let counted = self.out.get_ref();
        if matches!(self.place, Place::Temp { .. }) {
            counted.file.sync_all().map_err(fail)?;
        }
        let bytes = counted.bytes;
        Ok(Finished {
            place: std::mem::replace(&mut self.place, Place::Through),
            target: self.target,
            bytes,
        })
    }
}

impl Write for PendingFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// An output written completely (and flushed to disk) under a temporary name, waiting to be
/// renamed onto its target; dropped without that, it is removed. (An output written through
/// has nothing left to do.)
pub struct Finished {
    place: Place,
    target: PathBuf,
    bytes: u64,
}

impl Finished {
    /// Its size in bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The file it becomes.
    pub fn path(&self) -> &Path {
        &self.target
    }

    /// The directory its rename changes, if it is renamed.
    fn dest_dir(&self) -> Option<PathBuf> {
        match &self.place {
            Place::Temp { dest, .. } => Some(parent(dest).to_path_buf()),
            Place::Through => None,
        }
    }

    /// Its temporary file, if it has one.
    fn temp_path(&self) -> Option<&Path> {
        match &self.place {
            Place::Temp { temp, .. } => temp.0.as_deref(),
            Place::Through => None,
        }
    }

    /// Renames it onto its target (the directory not synced). What is there now must still be
    /// a regular file or nothing: one that became something else while the output was written
    /// is not replaced.
    fn rename(mut self) -> Result<(), WriteError> {
        let target = self.target.clone();
        let fail = |e| WriteError::new(&target, e);
        if let Place::Temp { temp, dest } = &mut self.place {
            match fs::symlink_metadata(&*dest) {
                Ok(meta) if !meta.is_file() => {
                    return Err(fail(refused(format!(
                        "{} now (it changed while the output was written): not replaced",
                        kind_name(&meta)
                    ))))
                }
                _ => {}
            }
            temp.rename_to(dest).map_err(fail)?;
        }
        Ok(())
    }

    /// Renames it onto its target, replacing what was there.
    pub fn commit(self) -> Result<(), WriteError> {
        commit_all(vec![self])
    }
}

/// Renames every file onto its target, in order, then syncs their directories.
pub fn commit_all(files: Vec<Finished>) -> Result<(), WriteError> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for file in files {
        let dir = file.dest_dir();
        file.rename()?;
        if let Some(dir) = dir {
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
    }
    for dir in dirs {
        sync_dir(&dir);
    }
    Ok(())
}

/// Writes `path` whole or not at all: `content` goes to a temporary file beside it, renamed onto
/// it once flushed to disk (a character device or FIFO is written through; see the module).
pub(crate) fn write_file(path: &Path, content: &[u8]) -> Result<(), WriteError> {
    write_parts(path, &[content])
}

/// Writes `path` whole or not at all, as [`write_file`] does, from `parts` one after the other.
pub(crate) fn write_parts(path: &Path, parts: &[&[u8]]) -> Result<(), WriteError> {
    prepare_parts(path, parts)?.commit()
}

/// Writes `content` for `path` under a temporary name, not yet in place: [`Finished::commit`]
/// puts it there (a command that also prints on stdout prints first, and commits only once
/// that worked).
pub fn prepare_file(path: &Path, content: &[u8]) -> Result<Finished, WriteError> {
    prepare_parts(path, &[content])
}

/// [`prepare_file`] from `parts` one after the other.
fn prepare_parts(path: &Path, parts: &[&[u8]]) -> Result<Finished, WriteError> {
    let mut file = PendingFile::create(path)?;
    for part in parts {
        file.write_all(part).map_err(|e| WriteError::new(path, e))?;
    }
    file.finish()
}

/// Makes the directory `dir` (and its parents) for pages written into it: a directory there,
/// or a link to one, is used as it is.
pub fn make_dir(dir: &Path) -> Result<(), WriteError> {
    fs::create_dir_all(dir).map_err(|e| WriteError::new(dir, e))
}

/// Makes renames in `dir` durable (where the file system can; a failure only loses durability).
fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}

/// The manifest's content.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
struct Manifest {
    /// Every file the run wrote (but the manifest), with its size in bytes.
    files: BTreeMap<String, u64>,
    /// `dicelens`.
    tool: String,
    /// The version that wrote the directory.
    version: String,
}

impl Manifest {
    /// Reads `dir`'s manifest: `Ok(None)` when there is none.
    fn read(dir: &Path) -> Result<Option<Manifest>, OutputError> {
        let path = dir.join(MANIFEST);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(OutputError::Unreadable { path, error: e }),
        };
        let manifest: Manifest =
            serde_json::from_str(&text).map_err(|e| OutputError::Incomplete {
                dir: dir.to_path_buf(),
                why: format!("{MANIFEST} is not a manifest: {e}"),
            })?;
        if let Some(bad) = manifest.files.keys().find(|name| !is_output_name(name)) {
            return Err(OutputError::Incomplete {
                dir: dir.to_path_buf(),
                why: format!("{MANIFEST} lists {bad:?}, not a file of the directory"),
            });
        }
        Ok(Some(manifest))
    }
}

/// Why an output directory cannot be written or read.
#[derive(Debug)]
pub enum OutputError {
    /// A file or directory that could not be created, written, renamed or removed.
    Write(WriteError),
    /// A file or directory that could not be read.
    Unreadable {
        /// Its path.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// The output path exists and is not a directory.
    NotADirectory(PathBuf),
    /// The directory holds files and no manifest: dicelens did not write it.
    NotOurs {
        /// The directory.
        dir: PathBuf,
        /// The first few of the files that are not outputs, by name.
        found: Vec<String>,
    },
    /// Another run writes into the directory now (it holds its [`LOCK`]).
    InUse {
        /// The directory.
        dir: PathBuf,
        /// The other run, as its lock file names it (`pid PID: COMMAND`), if it could be read.
        owner: Option<String>,
    },
    /// The directory to read does not exist.
    Missing(PathBuf),
    /// The directory to read has no manifest: no dicelens run wrote it whole.
    NoManifest(PathBuf),
    /// The directory is not the complete output of a run (its manifest damaged, or its files
    /// differ from what the manifest lists).
    Incomplete {
        /// The directory.
        dir: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// Files named in [`OutputError::NotOurs`].
const NAMES_SHOWN: usize = 3;

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::Write(e) => e.fmt(f),
            OutputError::Unreadable { path, error } => {
                write!(f, "cannot read {}: {error}", path.display())
            }
            OutputError::NotADirectory(path) => {
                write!(f, "{} exists and is not a directory", path.display())
            }
            OutputError::NotOurs { dir, found } => {
                let mut names = found
                    .iter()
                    .take(NAMES_SHOWN)
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ");
                if found.len() > NAMES_SHOWN {
                    names.push_str(", ...");
                }
                write!(
                    f,
                    "{} is not empty and dicelens did not write it (it holds {names}, and no \
                     {MANIFEST}): write the outputs to a new or empty directory",
                    dir.display()
                )
            }
            OutputError::InUse { dir, owner } => {
                let owner = match owner {
                    Some(owner) => owner.as_str(),
                    None => "one that has just started",
                };
                write!(
                    f,
                    "{} is in use by another dicelens run ({owner}): run again once it has \
                     ended, or write the outputs to another directory",
                    dir.display()
                )
            }
            OutputError::Missing(dir) => write!(f, "{} does not exist", dir.display()),
            OutputError::NoManifest(dir) => write!(
                f,
                "{}: not the output directory of a dicelens run: it has no {MANIFEST}, which \
                 every run writes last (another program made it, or the run that wrote into it \
                 failed or was interrupted: run it again)",
                dir.display()
            ),
            OutputError::Incomplete { dir, why } => write!(
                f,
                "{}: not the complete output of a dicelens run: {why} (the run that wrote it \
                 failed or was interrupted, an older dicelens wrote it, or its files changed \
                 since: run it again)",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for OutputError {}

impl From<WriteError> for OutputError {
    fn from(e: WriteError) -> Self {
        OutputError::Write(e)
    }
}

/// Checks that `dir` holds the complete output of a run: its manifest, and every file the
/// manifest lists with the size it lists. A path that does not exist, is not a directory or
/// has no manifest gets an error that says so.
pub fn check_complete(dir: &Path) -> Result<(), OutputError> {
    let incomplete = |why: String| OutputError::Incomplete {
        dir: dir.to_path_buf(),
        why,
    };
    match fs::metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(OutputError::Missing(dir.to_path_buf()))
        }
        Ok(meta) if !meta.is_dir() => return Err(OutputError::NotADirectory(dir.to_path_buf())),
        _ => {}
    }
    let Some(manifest) = Manifest::read(dir)? else {
        return Err(OutputError::NoManifest(dir.to_path_buf()));
    };
    for (name, &bytes) in &manifest.files {
        match fs::metadata(dir.join(name)) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(incomplete(format!("{name} is missing")))
            }
            Err(e) => {
                return Err(OutputError::Unreadable {
                    path: dir.join(name),
                    error: e,
                })
            }
            // A device or FIFO written through keeps no size.
            Ok(meta) if meta.is_file() && meta.len() != bytes => {
                return Err(incomplete(format!(
                    "{name} has {} bytes, {bytes} when it was written",
                    meta.len()
                )))
            }
            Ok(_) => {}
        }
    }
    Ok(())
}

/// The output directory of a run: files are created as [`PendingFile`]s in it, finished, added,
/// and renamed into place all together by [`OutputDir::commit`], which then removes the files of
/// an earlier run that this one did not write and writes the manifest. Dropped without a
/// commit, its files are removed, the earlier outputs stay as they were, and the directory is
/// removed if the run created it.
pub struct OutputDir {
    dir: PathBuf,
    /// Whether the directory was made for this run.
    created: bool,
    /// Subdirectories made for this run (`players`), removed with it if it fails.
    created_subdirs: Vec<String>,
    /// Files of an earlier run: removed by the commit unless written again.
    earlier: Vec<String>,
    /// The finished files, by name.
    files: BTreeMap<String, Finished>,
    committed: bool,
    /// The directory's lock, held until the run ends.
    lock: Option<DirLock>,
}

impl OutputDir {
    /// Opens `dir` for a run's outputs, creating it if needed, and locks it for the run
    /// ([`LOCK`]). Refused: a path that is not a directory (a link to a directory is
    /// followed; a link to nothing is refused, never replaced), a directory another run is
    /// writing into ([`OutputError::InUse`]), and a directory that holds files and no manifest
    /// unless every one is an output name (`KNOWN_OUTPUTS`).
    pub fn open(dir: &Path) -> Result<OutputDir, OutputError> {
        let created = match fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => false,
            Ok(_) => return Err(OutputError::NotADirectory(dir.to_path_buf())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if fs::symlink_metadata(dir).is_ok() {
                    let why = refused(
                        "a symbolic link to nothing (an output directory follows a link, never \
                         replaces it)"
                            .into(),
                    );
                    return Err(WriteError::new(dir, why).into());
                }
                fs::create_dir_all(dir).map_err(|e| WriteError::new(dir, e))?;
                true
            }
            Err(e) => {
                return Err(OutputError::Unreadable {
                    path: dir.to_path_buf(),
                    error: e,
                })
            }
        };
        let lock = match DirLock::take(dir) {
            Ok(lock) => lock,
            Err(e) => {
                if created {
                    let _ = fs::remove_dir(dir);
                }
                return Err(e);
            }
        };
        let earlier = if created {
            Vec::new()
        } else {
            earlier_outputs(dir)?
        };
        Ok(OutputDir {
            dir: dir.to_path_buf(),
            created,
            created_subdirs: Vec::new(),
            earlier,
            files: BTreeMap::new(),
            committed: false,
            lock: Some(lock),
        })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Starts writing the file `name` of the directory (a plain name; see
    /// [`OutputDir::write`] for files in subdirectories).
    pub fn create(&self, name: &str) -> Result<PendingFile, WriteError> {
        PendingFile::create(&self.dir.join(name))
    }

    /// Adds a finished file (created by [`OutputDir::create`]) to the outputs, named by its
    /// path inside the directory (`players/ann.html`); one of the same name added before is
    /// dropped.
    pub fn add(&mut self, file: Finished) {
        let name = match file.target.strip_prefix(&self.dir) {
            Ok(relative) => relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
            Err(_) => file
                .target
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        self.files.insert(name, file);
    }

    /// Makes the subdirectory of the output name `name` (`players` of `players/ann.html`) if it
    /// is missing; an error for a name that is not an output name.
    fn make_subdirectory(&mut self, name: &str) -> Result<(), WriteError> {
        let path = self.dir.join(name);
        if !is_output_name(name) {
            let why = io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a name inside the directory",
            );
            return Err(WriteError::new(&path, why));
        }
        let Some(sub) = subdirectory(name) else {
            return Ok(());
        };
        let dir = self.dir.join(sub);
        if !dir.is_dir() {
            fs::create_dir_all(&dir).map_err(|e| WriteError::new(&dir, e))?;
            self.created_subdirs.push(sub.to_string());
        }
        Ok(())
    }

    /// Writes the file `name` with `content` (renamed into place by the commit); `name` may
    /// lie in a subdirectory (`players/ann.html`), made if missing.
    pub fn write(&mut self, name: &str, content: &str) -> Result<(), WriteError> {
        self.make_subdirectory(name)?;
        let mut file = self.create(name)?;
        file.write_all(content.as_bytes())
            .map_err(|e| WriteError::new(file.path(), e))?;
        let finished = file.finish()?;
        self.add(finished);
        Ok(())
    }

    /// Puts the outputs in place: writes the manifest under a temporary name, removes the
    /// earlier manifest, renames every file onto its name, removes the earlier run's files that
    /// were not written again (regular files only: a link, device or FIFO stays) and the
    /// temporary files of runs no longer alive, and renames the manifest into place last. The
    /// lock is released when the run ends (the commit, or the directory dropped).
    pub fn commit(mut self) -> Result<(), WriteError> {
        let manifest = Manifest {
            files: self
                .files
                .iter()
                .map(|(name, file)| (name.clone(), file.bytes))
                .collect(),
            tool: "dicelens".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        };
        let text = serde_json::to_string_pretty(&manifest).unwrap_or_default() + "\n";
        let mut pending = self.create(MANIFEST)?;
        pending
            .write_all(text.as_bytes())
            .map_err(|e| WriteError::new(pending.path(), e))?;
        let manifest_file = pending.finish()?;
        // The directory changes from here on; without a manifest until the end, it reads as
        // incomplete if the run stops half-way.
        remove_output(&self.dir.join(MANIFEST))?;
        for (_, file) in std::mem::take(&mut self.files) {
            file.rename()?;
        }
        let mut subdirs: Vec<&str> = Vec::new();
        for name in self.earlier.iter().chain(manifest.files.keys()) {
            if let Some(sub) = subdirectory(name) {
                if !subdirs.contains(&sub) {
                    subdirs.push(sub);
                }
            }
        }
        for name in &self.earlier {
            if !manifest.files.contains_key(name) {
                remove_output(&self.dir.join(name))?;
            }
        }
        for sub in &subdirs {
            let dir = self.dir.join(sub);
            remove_stale_temps(&dir, None);
            // Removed only once empty: a subdirectory this run wrote nothing into.
            let _ = fs::remove_dir(&dir);
        }
        remove_stale_temps(&self.dir, manifest_file.temp_path());
        manifest_file.rename()?;
        sync_dir(&self.dir);
        self.committed = true;
        Ok(())
    }
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        self.files.clear();
        if !self.committed {
            for sub in self.created_subdirs.iter().rev() {
                let _ = fs::remove_dir(self.dir.join(sub));
            }
        }
        // Released (its file removed) before the directory the run made is removed.
        drop(self.lock.take());
        if self.created && !self.committed {
            let _ = fs::remove_dir(&self.dir);
        }
    }
}

/// Removes the output at `path` if it is a regular file: nothing else (a link, a device, a
/// FIFO, a directory) that sits under an output's name is removed.
fn remove_output(path: &Path) -> Result<(), WriteError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => match fs::remove_file(path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(WriteError::new(path, e)),
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

/// The process that wrote the temporary file `name` (`.dicelens-tmp-PID-...`), if the name
/// is one.
fn temp_owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(TEMP_PREFIX)?;
    rest.split('-').next()?.parse().ok()
}

/// Whether the process `pid` is alive (on Unix: `kill(pid, 0)` finds it; elsewhere assumed).
fn process_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        if pid <= 0 {
            return true;
        }
        // SAFETY: signal 0 only checks that the process exists; nothing is sent.
        let found = unsafe { libc::kill(pid, 0) } == 0;
        found || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Removes the temporary files in `dir` that runs killed before their end left (all but
/// `keep`): those whose process (the id in their name) is no longer alive. Temporary files of
/// this process, of a live process, or whose name gives no process are left alone: a run
/// never removes a file that a live run may still be writing.
fn remove_stale_temps(dir: &Path, keep: Option<&Path>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let me = std::process::id();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let owner = name.to_str().and_then(temp_owner);
        let stale = owner.is_some_and(|pid| pid != me && !process_alive(pid));
        let kept = keep.is_some_and(|k| k.file_name() == Some(name.as_os_str()));
        if stale && !kept && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The lock of an output directory: its [`LOCK`] file, created, locked (`flock(2)`, exclusive,
/// not waited for) and holding this run's process id and command line; removed and unlocked
/// when dropped.
struct DirLock {
    /// The lock file.
    path: PathBuf,
    /// Open while the lock is held.
    file: File,
}

impl DirLock {
    /// Locks `dir`, or [`OutputError::InUse`] naming the run that holds it.
    fn take(dir: &Path) -> Result<DirLock, OutputError> {
        let path = dir.join(LOCK);
        let fail = |e| OutputError::from(WriteError::new(&path, e));
        // A lock file removed by its owner between our open and our lock is locked in vain:
        // try again on the file now there.
        for _ in 0..100 {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(fail)?;
            match try_lock(&file) {
                Ok(true) => {}
                Ok(false) => {
                    let mut owner = String::new();
                    let _ = io::Read::read_to_string(&mut file, &mut owner);
                    let owner = owner.trim();
                    return Err(OutputError::InUse {
                        dir: dir.to_path_buf(),
                        owner: (!owner.is_empty()).then(|| owner.to_string()),
                    });
                }
                Err(e) => return Err(fail(e)),
            }
            if !same_file(&file, &path) {
                continue;
            }
            let command: Vec<String> = std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            let text = format!("pid {}: {}\n", std::process::id(), command.join(" "));
            file.set_len(0)
                .and_then(|()| file.write_all(text.as_bytes()))
                .map_err(fail)?;
            return Ok(DirLock { path, file });
        }
        Err(fail(io::Error::other(
            "the lock file keeps being replaced by other runs",
        )))
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        // Removed while still locked, so that a run that opens it after sees a new file.
        if same_file(&self.file, &self.path) {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Takes an exclusive `flock(2)` lock on `file` without waiting: `Ok(false)` when another
/// open file holds it. (No lock where there is no `flock`.)
fn try_lock(file: &File) -> io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: flock on a descriptor this File owns; it is released when the File closes.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(true);
        }
        let e = io::Error::last_os_error();
        if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
            Ok(false)
        } else {
            Err(e)
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        Ok(true)
    }
}

/// Whether `path` still names the open `file` (not removed or replaced since it was opened).
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), fs::symlink_metadata(path)) {
            (Ok(open), Ok(now)) => open.dev() == now.dev() && open.ino() == now.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// The files of an earlier run in `dir` (those its manifest lists, and output names), or
/// [`OutputError::NotOurs`] if it holds other files and has no manifest.
fn earlier_outputs(dir: &Path) -> Result<Vec<String>, OutputError> {
    let manifest = Manifest::read(dir).ok().flatten();
    let unreadable = |e| OutputError::Unreadable {
        path: dir.to_path_buf(),
        error: e,
    };
    let mut earlier = Vec::new();
    let mut others = Vec::new();
    let listed = |name: &str| {
        manifest
            .as_ref()
            .is_some_and(|m| m.files.contains_key(name))
    };
    for entry in fs::read_dir(dir).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name == MANIFEST || name == LOCK || name.starts_with(TEMP_PREFIX) {
            continue;
        }
        let known_dir = KNOWN_OUTPUT_DIRS.contains(&name.as_ref());
        if known_dir && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let sub = entry.path();
            for inner in fs::read_dir(&sub).map_err(unreadable)? {
                let file = inner.map_err(unreadable)?.file_name();
                let file = file.to_string_lossy();
                if file.starts_with(TEMP_PREFIX) {
                    continue;
                }
                let path = format!("{name}/{file}");
                if listed(&path) || file.ends_with(".html") {
                    earlier.push(path);
                } else {
                    others.push(path);
                }
            }
        } else if listed(&name) || KNOWN_OUTPUTS.contains(&name.as_ref()) {
            earlier.push(name.into_owned());
        } else {
            others.push(name.into_owned());
        }
    }
    if manifest.is_none() && !others.is_empty() {
        others.sort();
        return Err(OutputError::NotOurs {
            dir: dir.to_path_buf(),
            found: others,
        });
    }
    earlier.sort();
    Ok(earlier)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// A run into `dir` that writes `files` (name, content) and commits them.
    fn committed(dir: &Path, files: &[(&str, &str)]) {
        let mut out = OutputDir::open(dir).unwrap();
        for (name, content) in files {
            out.write(name, content).unwrap();
        }
        out.commit().unwrap();
    }

    /// A directory to read that does not exist, is a file, or was not written by a run is
    /// named for what it is; a complete one passes.
    #[test]
    fn check_complete_says_what_the_path_is() {
        let tmp = tempfile::tempdir().unwrap();
        let missing = tmp.path().join("nodir");
        let message = check_complete(&missing).unwrap_err().to_string();
        assert!(message.ends_with("nodir does not exist"), "{message}");
        assert!(!message.contains(MANIFEST), "{message}");
        let file = tmp.path().join("file");
        fs::write(&file, "x").unwrap();
        let message = check_complete(&file).unwrap_err().to_string();
        assert!(
            message.ends_with("file exists and is not a directory"),
            "{message}"
        );
        let foreign = tmp.path().join("foreign");
        fs::create_dir(&foreign).unwrap();
        let message = check_complete(&foreign).unwrap_err().to_string();
        assert!(
            message.contains("foreign: not the output directory of a dicelens run"),
            "{message}"
        );
        let ours = tmp.path().join("ours");
        committed(&ours, &[("summary.json", "{}\n")]);
        check_complete(&ours).unwrap();
    }

    #[test]
    fn a_commit_puts_every_file_and_the_manifest_in_place() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let mut out = OutputDir::open(&dir).unwrap();
        out.write("summary.json", "{}\n").unwrap();
        let mut games = out.create("games.csv").unwrap();
        games.write_all(b"game_id,file,line\n").unwrap();
        out.add(games.finish().unwrap());
        // Nothing is in place before the commit (but the run's lock).
        assert!(names(&dir)
            .iter()
            .all(|n| n.starts_with(TEMP_PREFIX) || n == LOCK));
        out.commit().unwrap();
        assert_eq!(names(&dir), [MANIFEST, "games.csv", "summary.json"]);
        check_complete(&dir).unwrap();
        let manifest = Manifest::read(&dir).unwrap().unwrap();
        assert_eq!(manifest.files["games.csv"], 18);
        assert_eq!(manifest.files["summary.json"], 3);
    }

    #[test]
    fn a_run_dropped_before_its_commit_leaves_the_earlier_outputs() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        committed(dir, &[("summary.json", "old\n")]);
        let mut out = OutputDir::open(dir).unwrap();
        out.write("summary.json", "new\n").unwrap();
        let mut half = out.create("games.csv").unwrap();
        half.write_all(b"half a ro").unwrap();
        drop(half);
        drop(out);
        assert_eq!(names(dir), [MANIFEST, "summary.json"]);
        assert_eq!(
            fs::read_to_string(dir.join("summary.json")).unwrap(),
            "old\n"
        );
        check_complete(dir).unwrap();
    }

    #[test]
    fn a_directory_made_for_a_failed_run_is_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("new");
        let mut out = OutputDir::open(&dir).unwrap();
        out.write("summary.json", "{}\n").unwrap();
        drop(out);
        assert!(!dir.exists());
    }

    #[test]
    fn files_an_earlier_run_wrote_and_this_one_did_not_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        committed(
            dir,
            &[
                ("summary.json", "1\n"),
                ("decisions.csv", "1\n"),
                ("extra.txt", "1\n"),
            ],
        );
        // Files of the user's are kept; a temporary file a dead run left is removed (no
        // process has an id above the kernel's limit of 2^22).
        fs::write(dir.join("notes.txt"), "mine").unwrap();
        fs::write(
            dir.join(format!("{TEMP_PREFIX}999999999-0-games.csv")),
            "cut",
        )
        .unwrap();
        committed(dir, &[("summary.json", "2\n")]);
        assert_eq!(names(dir), [MANIFEST, "notes.txt", "summary.json"]);
    }

    #[test]
    fn a_directory_dicelens_did_not_write_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        fs::write(dir.join("thesis.tex"), "mine").unwrap();
        fs::write(dir.join("summary.json"), "{}").unwrap();
        let error = OutputDir::open(dir).err().unwrap();
        assert!(matches!(error, OutputError::NotOurs { .. }), "{error}");
        let message = error.to_string();
        assert!(message.contains("thesis.tex"), "{message}");
        assert!(message.contains("new or empty directory"), "{message}");
        // A file is no directory.
        let file = dir.join("thesis.tex");
        let error = OutputDir::open(&file).err().unwrap();
        assert!(error.to_string().contains("not a directory"), "{error}");
        // Outputs without a manifest (an older dicelens's) are taken as an earlier run's.
        fs::remove_file(dir.join("thesis.tex")).unwrap();
        fs::write(dir.join("decisions.csv"), "old").unwrap();
        committed(dir, &[("summary.json", "{}\n")]);
        assert_eq!(names(dir), [MANIFEST, "summary.json"]);
    }

    #[test]
    fn a_directory_whose_files_differ_from_the_manifest_is_incomplete() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let error = check_complete(dir).err().unwrap();
        assert!(
            error.to_string().contains("it has no .dicelens-outputs"),
            "{error}"
        );
        let mut out = OutputDir::open(dir).unwrap();
        out.write("aggregates.json", "{\"games\": 1}\n").unwrap();
        out.write("games.csv", "game_id,file,line\nx,y,1\n")
            .unwrap();
        out.commit().unwrap();
        fs::write(dir.join("games.csv"), "game_id,file,line\nx,y,").unwrap();
        let error = check_complete(dir).err().unwrap();
        let message = error.to_string();
        assert!(
            message.contains("games.csv has 22 bytes, 24 when"),
            "{message}"
        );
        fs::remove_file(dir.join("aggregates.json")).unwrap();
        let message = check_complete(dir).err().unwrap().to_string();
        assert!(message.contains("aggregates.json is missing"), "{message}");
        fs::write(
            dir.join(MANIFEST),
            "{\"files\": {\"../x\": 1}, \"tool\": \"\", \"version\": \"\"}",
        )
        .unwrap();
        let message = check_complete(dir).err().unwrap().to_string();
        assert!(message.contains("not a file of the directory"), "{message}");
    }

    #[test]
    fn pages_in_subdirectories_are_outputs_too() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        committed(
            dir,
            &[
                ("summary.json", "1\n"),
                ("players/a.html", "a\n"),
                ("games/g.html", "g\n"),
            ],
        );
        assert_eq!(names(dir), [MANIFEST, "games", "players", "summary.json"]);
        assert_eq!(names(&dir.join("players")), ["a.html"]);
        check_complete(dir).unwrap();
        fs::write(dir.join("players/a.html"), "changed").unwrap();
        let message = check_complete(dir).err().unwrap().to_string();
        assert!(message.contains("players/a.html has 7 bytes"), "{message}");
        // A failed run leaves them, and removes the subdirectory it made.
        let mut out = OutputDir::open(dir).unwrap();
        out.write("other/b.html", "b\n").unwrap();
        drop(out);
        assert_eq!(names(dir), [MANIFEST, "games", "players", "summary.json"]);
        // A run that writes no page removes the earlier pages and their directories.
        committed(dir, &[("summary.json", "2\n"), ("players/b.html", "b\n")]);
        assert_eq!(names(dir), [MANIFEST, "players", "summary.json"]);
        assert_eq!(names(&dir.join("players")), ["b.html"]);
        // Without a manifest, pages of the known directories are an earlier run's.
        fs::remove_file(dir.join(MANIFEST)).unwrap();
        committed(dir, &[("summary.json", "3\n")]);
        assert_eq!(names(dir), [MANIFEST, "summary.json"]);
        // No name climbs out of the directory.
        let mut out = OutputDir::open(dir).unwrap();
        assert!(out.write("../x.html", "x").is_err());
        assert!(out.write("players/../../x.html", "x").is_err());
    }

    #[test]
    fn a_single_file_is_replaced_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("corpus.ygn");
        fs::write(&path, "old").unwrap();
        let mut file = PendingFile::create(&path).unwrap();
        file.write_all(b"new, half").unwrap();
        drop(file);
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        write_file(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(names(tmp.path()), ["corpus.ygn"]);
        let error = write_file(&tmp.path().join("no/such/dir.svg"), b"x")
            .err()
            .unwrap();
        assert!(error.to_string().contains("no/such/dir.svg"), "{error}");
    }

    #[test]
    fn a_directory_in_use_is_refused_naming_the_run_and_freed_after_it() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let first = OutputDir::open(&dir).unwrap();
        assert!(dir.join(LOCK).is_file());
        let error = OutputDir::open(&dir).err().unwrap();
        let message = error.to_string();
        assert!(matches!(error, OutputError::InUse { .. }), "{message}");
        let pid = format!("pid {}", std::process::id());
        assert!(message.contains(&pid), "{message}");
        assert!(
            message.contains("in use by another dicelens run"),
            "{message}"
        );
        // The refused run leaves the directory and the lock as they were.
        assert!(dir.is_dir() && dir.join(LOCK).is_file());
        first.commit().unwrap();
        // Committed: the lock is gone, and not listed in the manifest.
        assert_eq!(names(&dir), [MANIFEST]);
        assert!(Manifest::read(&dir).unwrap().unwrap().files.is_empty());
        let second = OutputDir::open(&dir).unwrap();
        drop(second);
        assert_eq!(names(&dir), [MANIFEST]);
        check_complete(&dir).unwrap();
    }

    #[test]
    #[cfg(unix)]
    fn temporary_files_of_live_runs_are_never_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        // The parent process (the test runner's) is alive: its file might be written now.
        let live = format!(
            "{TEMP_PREFIX}{}-0-games.csv",
            std::os::unix::process::parent_id()
        );
        let dead = format!("{TEMP_PREFIX}999999999-0-games.csv");
        let unnamed = format!("{TEMP_PREFIX}x-games.csv");
        for name in [&live, &dead, &unnamed] {
            fs::write(dir.join(name), "part").unwrap();
        }
        committed(dir, &[("summary.json", "1\n")]);
        let mut expected = vec![
            live,
            unnamed,
            MANIFEST.to_string(),
            "summary.json".to_string(),
        ];
        expected.sort();
        assert_eq!(names(dir), expected);
    }

    #[test]
    #[cfg(unix)]
    fn a_link_is_followed_and_a_directory_or_a_link_to_nothing_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let real = d.join("real.ygn");
        fs::write(&real, "old").unwrap();
        let link = d.join("link.ygn");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_file(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        // A link to nothing, and a directory, are refused and left as they were.
        let dangling = d.join("dangling.ygn");
        std::os::unix::fs::symlink(d.join("nothing"), &dangling).unwrap();
        let error = write_file(&dangling, b"x").err().unwrap().to_string();
        assert!(error.contains("symbolic link to nothing"), "{error}");
        assert!(fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink());
        let sub = d.join("sub");
        fs::create_dir(&sub).unwrap();
        let error = write_file(&sub, b"x").err().unwrap().to_string();
        assert!(error.contains("a directory"), "{error}");
        assert!(sub.is_dir());
        // A link to a directory, as an output directory, is followed.
        let outputs = d.join("outputs");
        std::os::unix::fs::symlink(&sub, &outputs).unwrap();
        committed(&outputs, &[("summary.json", "1\n")]);
        assert!(fs::symlink_metadata(&outputs)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(names(&sub), [MANIFEST, "summary.json"]);
        let gone = d.join("gone");
        std::os::unix::fs::symlink(d.join("nowhere"), &gone).unwrap();
        let error = OutputDir::open(&gone).err().unwrap().to_string();
        assert!(error.contains("symbolic link to nothing"), "{error}");
        assert!(!d.join("nowhere").exists());
    }

    #[test]
    #[cfg(unix)]
    fn a_fifo_is_written_through() {
        let tmp = tempfile::tempdir().unwrap();
        let fifo = tmp.path().join("pipe");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        write_file(&fifo, b"through").unwrap();
        assert_eq!(reader.join().unwrap(), b"through");
        assert_eq!(names(tmp.path()), ["pipe"]);
        assert!(is_written_through(&fs::metadata(&fifo).unwrap()));
    }
}
