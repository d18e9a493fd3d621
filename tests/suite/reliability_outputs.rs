//! Outputs that never replace what is not theirs, one run per output directory, and writes to
//! stdout and stderr that fail (issue 30, items 1, 2, 5 and parts of 12): a character device
//! or FIFO given as an output is written through (a full one fails the run), a link is followed,
//! never replaced; a second run into a directory in use is refused at once, naming the first;
//! a run never removes the temporary files of a live run; a failed write to stderr never
//! panics; a leaderboard that cannot be printed leaves the outputs unwritten; `convert` and
//! `ids` whose reader is gone fail; `convert --to verhoeff` skips and counts the games its form
//! cannot state. Devices are private nodes made with `mknod` in a temporary directory (those
//! tests are skipped when not run as root).

use crate::common::{solitaire_analyze, tables_dir, text};
use dicelens::output::{LOCK, MANIFEST, TEMP_PREFIX};
use std::fs::{self, File};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The binary, with the suite's tables and one thread, its stdout and stderr as given (else
/// captured).
fn run_to(args: &[&str], stdout: Option<File>, stderr: Option<File>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dicelens"));
    command
        .args(args)
        .env("DICELENS_TABLES", tables_dir())
        .env("RAYON_NUM_THREADS", "1")
        .stdin(Stdio::null());
    if let Some(stdout) = stdout {
        command.stdout(stdout);
    }
    if let Some(stderr) = stderr {
        command.stderr(stderr);
    }
    command.output().expect("the binary runs")
}

/// A path as an argument.
fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Whether the tests that make device nodes can run (they need root); prints a note if not.
fn root(test: &str) -> bool {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    if !root {
        eprintln!("{test}: skipped (mknod needs root)");
    }
    root
}

/// A private character device node `name` in `dir` (`1 3` is null, `1 7` is full).
fn device(dir: &Path, name: &str, minor: u32) -> PathBuf {
    let path = dir.join(name);
    let status = Command::new("mknod")
        .arg(&path)
        .args(["c", "1", &minor.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "mknod {}", path.display());
    path
}

/// Whether `path` is (still) a character device.
fn is_char_device(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

/// The write end of a pipe whose read end is closed already (a reader gone).
fn closed_pipe() -> File {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: pipe fills two new descriptors; each is owned once below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: fds[0] is a descriptor of ours, closed here once.
    unsafe { libc::close(fds[0]) };
    // SAFETY: fds[1] is a descriptor of ours, owned by the File from here.
    unsafe { File::from_raw_fd(fds[1]) }
}

/// Simulates `games` one-seat games of `rules` into `path`.
fn simulate(path: &Path, rules: &str, games: &str, seed: &str) {
    let out = run_to(
        &[
            "simulate",
            "--rules",
            rules,
            "--games",
            games,
            "--players",
            "2",
            "--seed",
            seed,
            "--out",
        ]
        .into_iter()
        .chain([arg(path)])
        .collect::<Vec<_>>(),
        None,
        None,
    );
    assert!(out.status.success(), "simulate: {}", text(&out.stderr));
}

/// A temporary directory holding `corpus.ygn`: three one-seat yahtzee games from `seed`.
fn with_corpus(seed: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus.ygn");
    simulate(&corpus, "yahtzee", "3", seed);
    (tmp, corpus)
}

#[test]
fn a_device_given_as_an_output_is_written_through_never_replaced() {
    if !root("a_device_given_as_an_output_is_written_through_never_replaced") {
        return;
    }
    let (tmp, corpus) = with_corpus("1");
    let d = tmp.path();
    let null = device(d, "null", 3);
    let full = device(d, "full", 7);
    let c = arg(&corpus);
    // Into a null device: success, the node stays a device.
    let out = run_to(
        &["simulate", "--games", "3", "--out", arg(&null)],
        None,
        None,
    );
    assert!(out.status.success(), "simulate: {}", text(&out.stderr));
    let out = run_to(
        &["convert", c, "--to", "jsonl", "--out", arg(&null)],
        None,
        None,
    );
    assert!(out.status.success(), "convert: {}", text(&out.stderr));
    assert!(is_char_device(&null), "the null node was replaced");
    // Into a full device: exit 1, "No space", the node stays a device.
    for args in [
        vec!["simulate", "--games", "3", "--out", arg(&full)],
        vec!["convert", c, "--to", "ygn", "--out", arg(&full)],
    ] {
        let out = run_to(&args, None, None);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(
            is_char_device(&full),
            "{args:?}: the full node was replaced"
        );
    }
    // Nothing else was left beside them: no truth file is made beside a device.
    let mut names: Vec<String> = fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["corpus.truth.csv", "corpus.ygn", "full", "null",]);
}

#[test]
fn a_link_given_as_an_output_is_followed_never_replaced() {
    let (tmp, corpus) = with_corpus("2");
    let d = tmp.path();
    let c = arg(&corpus);
    // A link to a FIFO (as /dev/stdout is a link to the process's stdout): what is converted
    // reaches the FIFO's reader, and the link stays.
    let fifo = d.join("pipe");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let link = d.join("stdout-link");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(fifo).unwrap())
    };
    let out = run_to(
        &["convert", c, "--to", "ygn", "--out", arg(&link)],
        None,
        None,
    );
    assert!(out.status.success(), "convert: {}", text(&out.stderr));
    // Had the run not written through the FIFO, its reader would wait for ever: a writer that
    // opens and closes it ends the reading (nothing to do if the reader is done).
    {
        use std::os::unix::fs::OpenOptionsExt;
        let _ = fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo);
    }
    let through = reader.join().unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced"
    );
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(text(&through).contains("[Rules"), "{}", text(&through));
    // A link to a regular file: the file gets the output, the link stays.
    let real = d.join("real.jsonl");
    fs::write(&real, "old\n").unwrap();
    let to_file = d.join("file-link.jsonl");
    std::os::unix::fs::symlink(&real, &to_file).unwrap();
    let out = run_to(
        &["convert", c, "--to", "jsonl", "--out", arg(&to_file)],
        None,
        None,
    );
    assert!(out.status.success(), "convert: {}", text(&out.stderr));
    assert!(fs::symlink_metadata(&to_file)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(fs::read_to_string(&real).unwrap().starts_with('{'));
    // A directory is refused, and left as it was.
    let dir = d.join("dir");
    fs::create_dir(&dir).unwrap();
    let out = run_to(
        &["convert", c, "--to", "ygn", "--out", arg(&dir)],
        None,
        None,
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("a directory"), "{stderr}");
    assert!(dir.is_dir() && fs::read_dir(&dir).unwrap().next().is_none());
}

#[test]
fn a_second_run_into_a_directory_in_use_is_refused_naming_the_first() {
    let (tmp, corpus) = with_corpus("3");
    let d = tmp.path();
    let out_dir = d.join("analysis");
    fs::create_dir(&out_dir).unwrap();
    // The first run, as the test: the directory's lock held, its owner written in it.
    let lock = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(out_dir.join(LOCK))
        .unwrap();
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor the File owns.
    assert_eq!(
        unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
        0
    );
    fs::write(out_dir.join(LOCK), "pid 4242: dicelens analyze first.ygn\n").unwrap();
    let started = std::time::Instant::now();
    let out = run_to(&solitaire_analyze(arg(&corpus), arg(&out_dir)), None, None);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("is in use by another dicelens run (pid 4242: dicelens analyze first.ygn)"),
        "{stderr}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    // Nothing of the second run is mixed in: the directory holds only the first's lock.
    let names: Vec<String> = fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, [LOCK]);
    // Once the first run has ended (its lock released and removed), the second runs; the
    // lock is gone after it and is no output.
    drop(lock);
    fs::remove_file(out_dir.join(LOCK)).unwrap();
    let out = run_to(&solitaire_analyze(arg(&corpus), arg(&out_dir)), None, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!out_dir.join(LOCK).exists());
    let manifest = fs::read_to_string(out_dir.join(MANIFEST)).unwrap();
    assert!(!manifest.contains(LOCK), "{manifest}");
}

#[test]
fn a_run_never_removes_the_temporary_files_of_a_live_run() {
    let (tmp, corpus) = with_corpus("4");
    let d = tmp.path();
    let out_dir = d.join("analysis");
    let args = solitaire_analyze(arg(&corpus), arg(&out_dir));
    let out = run_to(&args, None, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A file being written by a live process (this test's), and one a dead run left (no
    // process has an id above the kernel's limit of 2^22).
    let live = out_dir.join(format!("{TEMP_PREFIX}{}-0-games.csv", std::process::id()));
    let dead = out_dir.join(format!("{TEMP_PREFIX}999999999-0-games.csv"));
    fs::write(&live, "being written").unwrap();
    fs::write(&dead, "left").unwrap();
    let out = run_to(&args, None, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(fs::read_to_string(&live).unwrap(), "being written");
    assert!(!dead.exists(), "a dead run's temporary file stays");
}

#[test]
fn a_failed_write_to_stderr_never_panics() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let out_dir = d.join("x");
    let missing = d.join("nonexistent");
    // stderr a pipe whose reader is gone (`2>&1 | head -1`).
    let out = run_to(&["analyze", "a", "b"], None, Some(closed_pipe()));
    assert_eq!(out.status.code(), Some(1), "stdout: {}", text(&out.stdout));
    if !root("a_failed_write_to_stderr_never_panics (full device)") {
        return;
    }
    // stderr a full device (`2>/dev/full`).
    let full = device(d, "full", 7);
    let to_full = || fs::OpenOptions::new().write(true).open(&full).unwrap();
    let out = run_to(
        &["analyze", arg(&missing), "--out", arg(&out_dir)],
        None,
        Some(to_full()),
    );
    assert_eq!(out.status.code(), Some(1));
    // A run that succeeds and writes notices (and simulate's progress) on the way.
    let corpus = d.join("corpus.ygn");
    let out = run_to(
        &["simulate", "--games", "3", "--out", arg(&corpus)],
        None,
        Some(to_full()),
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(corpus.is_file());
}

#[test]
fn a_leaderboard_that_cannot_be_printed_leaves_the_outputs_unwritten() {
    if !root("a_leaderboard_that_cannot_be_printed_leaves_the_outputs_unwritten") {
        return;
    }
    let (tmp, corpus) = with_corpus("5");
    let d = tmp.path();
    let full = device(d, "full", 7);
    let out_dir = d.join("analysis");
    let stdout = fs::OpenOptions::new().write(true).open(&full).unwrap();
    let out = run_to(
        &solitaire_analyze(arg(&corpus), arg(&out_dir)),
        Some(stdout),
        None,
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot write to stdout"), "{stderr}");
    assert!(
        !out_dir.exists(),
        "the outputs of a failed run were put in place"
    );
    // A reader gone (`analyze | head`) is no failure: the outputs are written.
    let out = run_to(
        &solitaire_analyze(arg(&corpus), arg(&out_dir)),
        Some(closed_pipe()),
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out_dir.join(MANIFEST).is_file());
}

#[test]
fn convert_and_ids_whose_reader_is_gone_fail() {
    let (_tmp, corpus) = with_corpus("6");
    let c = arg(&corpus);
    for args in [vec!["convert", c, "--to", "jsonl"], vec!["ids", c]] {
        let out = run_to(&args, Some(closed_pipe()), None);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("incomplete"), "{args:?}: {stderr}");
    }
}

#[test]
fn convert_to_verhoeff_skips_and_counts_the_games_it_cannot_state() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let yahtzee = d.join("yahtzee.ygn");
    let free = d.join("free.ygn");
    simulate(&yahtzee, "yahtzee", "2", "7");
    simulate(&free, "yahtzee-free", "3", "8");
    let out = run_to(
        &["convert", arg(&yahtzee), arg(&free), "--to", "verhoeff"],
        None,
        None,
    );
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("5 games read, 3 used, 2 skipped"),
        "{stderr}"
    );
    assert!(stderr.contains("2 other rule set"), "{stderr}");
    assert!(stderr.contains("a yahtzee game: verhoeff records state only yahtzee-free"));
    // Read back, the output holds the three yahtzee-free games only.
    let written = d.join("written.txt");
    fs::write(&written, &out.stdout).unwrap();
    let ids = run_to(&["ids", arg(&written)], None, None);
    assert!(ids.status.success(), "{}", text(&ids.stderr));
    assert_eq!(
        text(&ids.stdout).lines().count(),
        1 + 3,
        "{}",
        text(&ids.stdout)
    );
    // Nothing it can state: no game converted, exit 1.
    let out = run_to(&["convert", arg(&yahtzee), "--to", "verhoeff"], None, None);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no game converted"), "{stderr}");
}
