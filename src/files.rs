//! Files the tool reads but does not own (logs, tables): opened without ever blocking, read
//! into buffers the tool owns (never mapped, so a file cut short while it is read cannot raise
//! a signal), and watched for change.
//!
//! A file another program truncates or rewrites while the tool reads it is reported as an
//! error naming it (`WatchedFile`): its length and modification time are taken when it is
//! opened and checked again at every read. A FIFO is opened without blocking and waited on for
//! a writer a bounded time ([`fifo_wait`]); devices are refused ([`refusal`]).

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

/// Environment variable: how many seconds a FIFO given as input is waited on for a writer.
pub(crate) const FIFO_WAIT_ENV: &str = "DICELENS_FIFO_WAIT";

/// How long a FIFO is waited on for a writer when [`FIFO_WAIT_ENV`] is not set.
pub(crate) const DEFAULT_FIFO_WAIT: Duration = Duration::from_secs(5);

/// How long a FIFO given as input is waited on for a writer: `$DICELENS_FIFO_WAIT` seconds
/// (a number such as `5` or `0.5`), else `DEFAULT_FIFO_WAIT`.
pub fn fifo_wait() -> Result<Duration, String> {
    seconds_from_env(FIFO_WAIT_ENV, DEFAULT_FIFO_WAIT)
}

/// A duration given in seconds by the environment variable `name` (a number such as `5` or
/// `0.5`), else `default` when it is not set; an error naming the variable when it is not a
/// number of seconds.
pub fn seconds_from_env(name: &str, default: Duration) -> Result<Duration, String> {
    match std::env::var(name) {
        Err(std::env::VarError::NotPresent) => Ok(default),
        Err(std::env::VarError::NotUnicode(text)) => {
            Err(seconds_error(name, &text.to_string_lossy()))
        }
        Ok(text) => parse_seconds(&text).ok_or_else(|| seconds_error(name, &text)),
    }
}

/// A duration given in seconds (`5`, `0.5`): a finite number, 0 or more.
fn parse_seconds(text: &str) -> Option<Duration> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
}

/// The error for an environment variable `name` that is not a number of seconds.
fn seconds_error(name: &str, text: &str) -> String {
    format!("{name}: expected a number of seconds (such as 5 or 0.5), found {text:?}")
}

/// What a file that is not a regular file is, for messages: `a directory`, `a FIFO`...
pub(crate) fn kind_name(metadata: &Metadata) -> &'static str {
    let kind = metadata.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_file() {
        "a regular file"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// Whether `metadata` is a FIFO (or pipe).
pub fn is_fifo(metadata: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        metadata.file_type().is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        false
    }
}

/// Whether `metadata` is the null device (`/dev/null`), which reads as empty at once.
pub(crate) fn is_null_device(metadata: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        metadata.file_type().is_char_device()
            && std::fs::metadata("/dev/null")
                .is_ok_and(|null| null.rdev() == metadata.rdev() && null.dev() == metadata.dev())
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        false
    }
}

/// Why an input of this kind is not read, if it is not: devices (other than `/dev/null`),
/// sockets and directories; `None` for regular files, FIFOs and pipes, and the null device.
/// (A device may never end, as `/dev/zero` does not, or wait for ever, as a terminal does.)
pub fn refusal(metadata: &Metadata) -> Option<String> {
    if metadata.is_file() || is_fifo(metadata) || is_null_device(metadata) {
        return None;
    }
    Some(format!(
        "{}, not a log (give a file, a directory, a pipe or FIFO, or - for standard input)",
        kind_name(metadata)
    ))
}

/// An input opened by [`open_input`].
pub enum Input {
    /// A regular file (which may say it is empty, as `/proc` files do), blocking as usual.
    File(File),
    /// Anything else that is read: a pipe or FIFO (with its first bytes, if some came while
    /// waiting for a writer), `/dev/null`.
    Stream(Box<dyn Read + Send>),
}

impl Input {
    /// The input as a stream, from its first byte.
    pub fn into_read(self) -> Box<dyn Read + Send> {
        match self {
            Input::File(file) => Box::new(file),
            Input::Stream(stream) => stream,
        }
    }
}

/// Opens the input at `path` without ever blocking: its kind is looked at first (a device,
/// socket or directory is refused, see [`refusal`]), then it is opened without blocking and
/// looked at again (it may have been replaced in between). A FIFO is waited on for a writer at
/// most [`fifo_wait`] (unless it is this process's own standard input, as `/dev/stdin` may be);
/// the message of an error says what is wrong, without the path.
pub fn open_input(path: &Path) -> Result<Input, String> {
    let cannot_open = |e: io::Error| format!("cannot open: {e}");
    let before = std::fs::metadata(path).map_err(cannot_open)?;
    if let Some(why) = refusal(&before) {
        return Err(why);
    }
    let file = open_nonblocking(path).map_err(cannot_open)?;
    let metadata = file.metadata().map_err(cannot_open)?;
    if let Some(why) = refusal(&metadata) {
        return Err(why);
    }
    if is_fifo(&metadata) && !is_stdin(&metadata) {
        let first = wait_for_writer(&file, fifo_wait()?).map_err(|e| e.to_string())?;
        return Ok(Input::Stream(Box::new(io::Cursor::new(first).chain(file))));
    }
    set_blocking(&file).map_err(cannot_open)?;
    Ok(if metadata.is_file() {
        Input::File(file)
    } else {
        Input::Stream(Box::new(file))
    })
}

/// What this process's standard input is (a pipe, a file, a terminal...).
pub(crate) fn stdin_metadata() -> io::Result<Metadata> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        std::io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .map(File::from)
            .and_then(|stdin| stdin.metadata())
    }
    #[cfg(not(unix))]
    {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "what standard input is cannot be told here",
        ))
    }
}

/// Whether `metadata` is of this process's standard input (the same file or pipe).
fn is_stdin(metadata: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        stdin_metadata()
            .is_ok_and(|stdin| stdin.dev() == metadata.dev() && stdin.ino() == metadata.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        false
    }
}

/// Opens `path` for reading without blocking on it (a FIFO without a writer, a device that
/// waits for a carrier); reads from the file may then return `WouldBlock` until
/// [`set_blocking`] is called.
pub(crate) fn open_nonblocking(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Makes reads from `file` wait for data again (undoes [`open_nonblocking`]).
pub(crate) fn set_blocking(file: &File) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: `fd` is an open descriptor owned by `file` for the duration of both calls;
        // F_GETFL and F_SETFL only read and set its status flags.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        if flags < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: as above.
        if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// Waits at most `wait` for a writer of the FIFO `fifo` (opened with [`open_nonblocking`]),
/// then makes it blocking. Returns the bytes already read (some or none): the stream is these
/// followed by the rest of `fifo`. A writer that came and went without writing leaves an
/// empty stream. Fails when no writer came in time (the message says so).
pub(crate) fn wait_for_writer(fifo: &File, wait: Duration) -> io::Result<Vec<u8>> {
    let deadline = Instant::now() + wait;
    let mut first = vec![0u8; 64 << 10];
    loop {
        match (&*fifo).read(&mut first) {
            // A writer wrote: the stream has begun.
            Ok(n) if n > 0 => {
                first.truncate(n);
                break;
            }
            // A writer holds the FIFO open and has not written yet.
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                first.clear();
                break;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            // No writer (yet).
            Ok(_) => {}
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "a FIFO without a writer: none opened it within {} s (set {FIFO_WAIT_ENV} \
                     to wait longer)",
                    wait.as_secs_f64()
                ),
            ));
        }
        if hung_up(fifo, left.min(Duration::from_millis(100))) {
            // A writer came and went without writing: an empty stream.
            first.clear();
            break;
        }
    }
    set_blocking(fifo)?;
    Ok(first)
}

/// Waits at most `wait` for the FIFO `fifo` to have data or to be hung up on; whether it was
/// hung up on with no data (a writer opened and closed it since it was opened here).
fn hung_up(fifo: &File, wait: Duration) -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        let mut poll = libc::pollfd {
            fd: fifo.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let millis = i32::try_from(wait.as_millis()).unwrap_or(i32::MAX).max(1);
        // SAFETY: one valid `pollfd` for one descriptor owned by `fifo`.
        let ready = unsafe { libc::poll(&mut poll, 1, millis) };
        ready > 0 && poll.revents & libc::POLLHUP != 0 && poll.revents & libc::POLLIN == 0
    }
    #[cfg(not(unix))]
    {
        let _ = fifo;
        std::thread::sleep(wait);
        false
    }
}

/// What tells a regular file from another one at the same path, and from itself changed: its
/// device and inode (on Unix), its length and its modification time. A file read twice whose
/// identity differs between the reads (replaced by a rename, rewritten, cut) may not hold the
/// bytes the first read found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileIdentity {
    device: u64,
    inode: u64,
    len: u64,
    modified: Option<SystemTime>,
}

impl FileIdentity {
    /// The identity of the file `metadata` describes.
    pub fn of(metadata: &Metadata) -> FileIdentity {
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        FileIdentity {
            device,
            inode,
            len: metadata.len(),
            modified: metadata.modified().ok(),
        }
    }

    /// The identity of the file at `path` now (links followed).
    pub fn at(path: &Path) -> io::Result<FileIdentity> {
        std::fs::metadata(path).map(|metadata| FileIdentity::of(&metadata))
    }

    /// How `now` differs from this identity ("replaced by another file", "was N bytes, now
    /// M", "modified, still N bytes"), or `None` if it is the same file, unchanged.
    pub(crate) fn change_to(&self, now: &FileIdentity) -> Option<String> {
        if (self.device, self.inode) != (now.device, now.inode) {
            Some("replaced by another file".to_string())
        } else if self.len != now.len {
            Some(format!("was {} bytes, now {}", self.len, now.len))
        } else if self.modified != now.modified {
            Some(format!("modified, still {} bytes", self.len))
        } else {
            None
        }
    }
}

/// A regular file read while other programs may change it: every read checks that its length
/// and modification time are still those it had when it was opened, and fails with an error
/// naming it ("FILE changed while being read (was N bytes, now M)") if not; a file cut short
/// under a read fails the same way. Reads are positioned (several readers may share it) and
/// never go past the length it had when it was opened.
pub(crate) struct WatchedFile {
    file: File,
    name: String,
    len: u64,
    modified: Option<SystemTime>,
    /// Its identity when it was opened.
    identity: FileIdentity,
    /// How the file had changed when a read first found it changed.
    changed: Mutex<Option<String>>,
}

impl WatchedFile {
    /// Watches `file` (a regular file, opened), named `name` in messages, from now on.
    pub fn new(file: File, name: &str) -> io::Result<WatchedFile> {
        let metadata = file.metadata()?;
        Ok(WatchedFile {
            file,
            name: name.to_string(),
            len: metadata.len(),
            modified: metadata.modified().ok(),
            identity: FileIdentity::of(&metadata),
            changed: Mutex::new(None),
        })
    }

    /// Its identity when it was opened.
    pub fn identity(&self) -> &FileIdentity {
        &self.identity
    }

    /// The length the file had when it was opened: what is read of it.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// The message of the first change a read found ("FILE changed while being read (was N
    /// bytes, now M)"), if one did.
    pub fn changed(&self) -> Option<String> {
        Some(self.change_message(&self.how_changed()?))
    }

    /// "FILE changed while being read (HOW)".
    fn change_message(&self, how: &str) -> String {
        format!("{} changed while being read ({how})", self.name)
    }

    /// How the file had changed when a read first found it changed ("was N bytes, now M",
    /// "modified, still N bytes"), if one did.
    pub(crate) fn how_changed(&self) -> Option<String> {
        self.changed.lock().ok().and_then(|found| found.clone())
    }

    /// Fails, naming the file, if it has changed since it was opened.
    pub fn check(&self) -> io::Result<()> {
        let now = self.file.metadata()?;
        if now.len() == self.len && now.modified().ok() == self.modified {
            return Ok(());
        }
        let how = if now.len() == self.len {
            format!("modified, still {} bytes", self.len)
        } else {
            format!("was {} bytes, now {}", self.len, now.len())
        };
        Err(self.change(how))
    }

    /// Records and returns the change `how` (the first one found is kept).
    fn change(&self, how: String) -> io::Error {
        let message = self.change_message(&how);
        if let Ok(mut found) = self.changed.lock() {
            found.get_or_insert(how);
        }
        io::Error::other(message)
    }

    /// Reads bytes at `offset` into `buf` (at most up to the length at opening; 0 there),
    /// after checking the file is unchanged.
    pub(crate) fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        self.check()?;
        let left = self.len.saturating_sub(offset);
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        if want == 0 {
            return Ok(0);
        }
        loop {
            match read_at(&self.file, &mut buf[..want], offset) {
                Ok(0) => {
                    let now = self.file.metadata().map_or(0, |m| m.len());
                    return Err(self.change(format!("was {} bytes, now {now}", self.len)));
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => return other,
            }
        }
    }

    /// Fills `buf` with the bytes at `offset` (see [`WatchedFile::read_at`]); fails if the
    /// file ends first.
    pub(crate) fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let mut done = 0;
        while done < buf.len() {
            let n = self.read_at(&mut buf[done..], offset + done as u64)?;
            if n == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!(
                        "{}: ends before byte {}",
                        self.name,
                        offset + buf.len() as u64
                    ),
                ));
            }
            done += n;
        }
        Ok(())
    }

    /// A reader of the file from its first byte, as a stream.
    pub fn reader<F: std::borrow::Borrow<WatchedFile>>(file: F) -> WatchedReader<F> {
        WatchedReader { file, offset: 0 }
    }
}

/// A reader that adds the bytes it reads to a counter another thread may read (how far the
/// reading of a run has gone, for its progress).
pub(crate) struct CountingReader<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R> CountingReader<R> {
    /// Reads `inner`, adding what it reads to `count`.
    pub fn new(inner: R, count: Arc<AtomicU64>) -> CountingReader<R> {
        CountingReader { inner, count }
    }
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Asks the kernel to back `buf` with huge pages where it can (Linux; a hint, ignored
/// elsewhere or when refused): a table of hundreds of megabytes read into it then takes
/// hundreds of page faults instead of a hundred thousand.
pub(crate) fn advise_huge_pages(buf: &mut [u64]) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = buf.as_mut_ptr() as usize;
        let end = start + std::mem::size_of_val(buf);
        let aligned = start.div_ceil(PAGE) * PAGE;
        if end > aligned {
            // SAFETY: the range lies inside `buf`, which this call borrows mutably; the advice
            // changes how its pages are backed, never their contents.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    end - aligned,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buf;
}

/// Reads `buf.len()` bytes at most at `offset` of `file`, without moving its position.
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        std::os::windows::fs::FileExt::seek_read(file, buf, offset)
    }
}

/// A [`WatchedFile`] read as a stream from its first byte (by positioned reads: several
/// readers of one file do not disturb each other).
pub(crate) struct WatchedReader<F> {
    file: F,
    offset: u64,
}

impl<F: std::borrow::Borrow<WatchedFile>> Read for WatchedReader<F> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.borrow().read_at(buf, self.offset)?;
        self.offset += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_file_cut_short_while_read_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.ygn");
        std::fs::write(&path, vec![b'x'; 10_000]).unwrap();
        let watched = WatchedFile::new(File::open(&path).unwrap(), "log.ygn").unwrap();
        let mut reader = WatchedFile::reader(&watched);
        let mut first = [0u8; 4000];
        reader.read_exact(&mut first).unwrap();
        assert_eq!(watched.changed(), None);
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(100)
            .unwrap();
        let error = reader.read(&mut first).unwrap_err();
        let message = "log.ygn changed while being read (was 10000 bytes, now 100)";
        assert_eq!(error.to_string(), message);
        assert_eq!(watched.changed().as_deref(), Some(message));
    }

    #[test]
    fn a_file_grown_or_rewritten_while_read_is_an_error_at_its_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.ygn");
        std::fs::write(&path, b"0123456789").unwrap();
        let watched = WatchedFile::new(File::open(&path).unwrap(), "log.ygn").unwrap();
        let mut all = Vec::new();
        WatchedFile::reader(&watched).read_to_end(&mut all).unwrap();
        assert_eq!(all, b"0123456789");
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        file.write_all(b"more").unwrap();
        let error = WatchedFile::reader(&watched)
            .read_to_end(&mut Vec::new())
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "log.ygn changed while being read (was 10 bytes, now 14)"
        );
        // Same length, new content (and modification time).
        std::fs::write(&path, b"abcdefghij").unwrap();
        let rewritten = File::open(&path).unwrap();
        let watched = WatchedFile::new(rewritten, "log.ygn").unwrap();
        let modified = std::time::SystemTime::now() + Duration::from_secs(60);
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(modified)
            .unwrap();
        let error = watched.read_at(&mut [0u8; 4], 0).unwrap_err();
        assert_eq!(
            error.to_string(),
            "log.ygn changed while being read (modified, still 10 bytes)"
        );
    }

    #[test]
    fn fifo_waits_are_seconds() {
        assert_eq!(parse_seconds("5"), Some(Duration::from_secs(5)));
        assert_eq!(parse_seconds(" 0.25 "), Some(Duration::from_millis(250)));
        assert_eq!(parse_seconds("0"), Some(Duration::ZERO));
        for bad in ["-1", "x", "inf", "NaN", ""] {
            assert_eq!(parse_seconds(bad), None);
            let error = seconds_error(FIFO_WAIT_ENV, bad);
            assert!(
                error.starts_with("DICELENS_FIFO_WAIT: expected a number of seconds"),
                "{error}"
            );
            assert!(error.ends_with(&format!("found {bad:?}")), "{error}");
        }
    }

    #[cfg(unix)]
    fn make_fifo(path: &Path) {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_waited_on_a_bounded_time_for_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fifo");
        make_fifo(&path);
        let started = Instant::now();
        let fifo = open_nonblocking(&path).unwrap();
        let error = wait_for_writer(&fifo, Duration::from_millis(300)).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert!(
            error.to_string().starts_with("a FIFO without a writer"),
            "{error}"
        );
        assert!(started.elapsed() < Duration::from_secs(30));
        // A writer that comes while it waits: its bytes are the stream.
        let fifo = open_nonblocking(&path).unwrap();
        let writer_path = path.clone();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            let mut writer = File::options().write(true).open(writer_path).unwrap();
            writer.write_all(b"[Game \"a\"]\n").unwrap();
        });
        let mut read = wait_for_writer(&fifo, Duration::from_secs(20)).unwrap();
        writer.join().unwrap();
        (&fifo).read_to_end(&mut read).unwrap();
        assert_eq!(read, b"[Game \"a\"]\n");
        // A writer that opens and closes it (after it was opened here) without writing: an
        // empty stream.
        let fifo = open_nonblocking(&path).unwrap();
        let writer_path = path.clone();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            drop(File::options().write(true).open(writer_path).unwrap());
        });
        let mut read = wait_for_writer(&fifo, Duration::from_secs(20)).unwrap();
        writer.join().unwrap();
        (&fifo).read_to_end(&mut read).unwrap();
        assert!(read.is_empty());
    }
}
