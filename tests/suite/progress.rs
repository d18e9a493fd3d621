//! The progress of a run on stderr when it is not a terminal: a status line every
//! `DICELENS_PROGRESS_EVERY` seconds whatever the size of the batches being rated, with the
//! games expected and the time left when the size of the input is known (not for standard
//! input), a last line at the end, nothing after the run's summary, and no change to any output.

use crate::common::{output_files, run_ok, simulate_two_seat, tables_dir, text};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Seconds between two progress lines in these tests.
const EVERY: f64 = 0.3;

/// How late a progress line may be (a loaded machine runs the line's thread late).
const TOLERANCE: Duration = Duration::from_millis(1500);

/// A run of `dicelens analyze`: each stderr line with when it arrived, and stdout.
struct Watched {
    started: Instant,
    lines: Vec<(Instant, String)>,
    stdout: String,
}

/// Runs `dicelens analyze INPUT --out OUT` on one rayon thread (a slower run: more lines) with
/// progress lines every `every` seconds (`None`: none), `stdin` as standard input; stderr is
/// read line by line as it comes. Fails the test if the run fails or lasts over two minutes.
fn analyze_watched(input: &str, out: &Path, every: Option<f64>, stdin: Stdio) -> Watched {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dicelens"));
    command
        .args(["analyze", input, "--min-games", "1", "--out"])
        .arg(out)
        .env("DICELENS_TABLES", tables_dir())
        .env("RAYON_NUM_THREADS", "1")
        .env(
            "DICELENS_PROGRESS_EVERY",
            every.map_or("0".to_string(), |s| s.to_string()),
        )
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = command.spawn().expect("the binary runs");
    let stderr = child.stderr.take().expect("stderr piped");
    let lines = std::thread::spawn(move || {
        BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
            .map(|line| (Instant::now(), line))
            .collect::<Vec<_>>()
    });
    let mut stdout = child.stdout.take().expect("stdout piped");
    let stdout = std::thread::spawn(move || {
        let mut all = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut all).map(|_| all)
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("the run can be waited on") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("analyze {input} still runs after two minutes (a hang?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let lines = lines.join().expect("stderr read");
    let stdout = stdout.join().expect("stdout read").expect("stdout is text");
    let all: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
    assert!(status.success(), "analyze {input}: {}", all.join("\n"));
    Watched {
        started,
        lines,
        stdout,
    }
}

/// The progress lines of a run (without their prefix), with when each came.
fn progress_lines(watched: &Watched) -> Vec<(Instant, &str)> {
    watched
        .lines
        .iter()
        .filter_map(|(at, line)| Some((*at, line.strip_prefix("dicelens: progress: ")?)))
        .collect()
}

/// The games done a progress line gives (its first number: `12,345 of ~...`).
fn games_done(line: &str) -> u64 {
    let first = line.split(' ').next().unwrap_or("");
    first
        .replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("no count of games first in {line:?}"))
}

/// The games a run used, from its summary line ("N games read, M used, ...").
fn games_used(watched: &Watched) -> u64 {
    let summary = watched
        .lines
        .iter()
        .find(|(_, line)| line.contains(" games read, "))
        .and_then(|(_, line)| line.split(", ").nth(1))
        .expect("a summary line");
    summary
        .strip_suffix(" used")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("not a count of games used: {summary:?}"))
}

/// Checks the progress lines of `watched`: at least `least` status lines, none late, counts
/// that only grow and end at the games rated, the last line a summary of the run, and no
/// progress line after the run's summary. Returns the status lines.
fn check_lines(watched: &Watched, least: usize) -> Vec<&str> {
    let lines = progress_lines(watched);
    let all: Vec<&str> = watched.lines.iter().map(|(_, l)| l.as_str()).collect();
    assert!(
        lines.len() > least,
        "{least} status lines and a last one expected:\n{}",
        all.join("\n")
    );
    let every = Duration::from_secs_f64(EVERY);
    let mut before = watched.started;
    for (at, line) in &lines {
        let gap = at.duration_since(before);
        assert!(
            gap <= every + TOLERANCE,
            "{line:?} came {gap:?} after the line before (every {every:?}):\n{}",
            all.join("\n")
        );
        before = *at;
    }
    let counts: Vec<u64> = lines.iter().map(|(_, line)| games_done(line)).collect();
    assert!(
        counts.windows(2).all(|pair| pair[0] <= pair[1]),
        "games done go down: {counts:?}"
    );
    let (_, last) = lines[lines.len() - 1];
    assert!(last.contains(" games in "), "last line: {last:?}");
    assert_eq!(counts[counts.len() - 1], games_used(watched), "{last:?}");
    let last_progress = watched
        .lines
        .iter()
        .rposition(|(_, l)| l.starts_with("dicelens: progress: "));
    let summary = watched
        .lines
        .iter()
        .position(|(_, l)| l.contains(" games read, "));
    assert!(
        last_progress < summary,
        "a progress line after the summary:\n{}",
        all.join("\n")
    );
    lines[..lines.len() - 1].iter().map(|(_, l)| *l).collect()
}

#[test]
fn progress_lines_come_on_time_with_games_expected_for_a_file_not_for_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.ygn");
    let small = dir.path().join("small.ygn");
    for (games, path) in [(2000, &big), (500, &small)] {
        let args = simulate_two_seat(6, games, 5, path.to_str().unwrap());
        run_ok(&args.iter().map(String::as_str).collect::<Vec<_>>(), 2);
    }

    // A file: games expected, share and time left.
    let watched = analyze_watched(
        big.to_str().unwrap(),
        &dir.path().join("big"),
        Some(EVERY),
        Stdio::null(),
    );
    let status = check_lines(&watched, 4);
    assert!(
        status
            .iter()
            .all(|l| l.contains(" of ~") && l.ends_with(", file 1 of 1")),
        "{status:#?}"
    );
    assert!(
        status
            .iter()
            .any(|l| l.contains("%), ") && l.contains(" games/s, ") && l.contains(" left")),
        "{status:#?}"
    );

    // Standard input: games done and rate, no total, no time left.
    let piped = || Stdio::from(std::fs::File::open(&small).unwrap());
    let mut cat = Command::new("cat")
        .arg(&small)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pipe = Stdio::from(cat.stdout.take().unwrap());
    let from_pipe = analyze_watched("-", &dir.path().join("stdin"), Some(EVERY), pipe);
    assert!(cat.wait().unwrap().success());
    let status = check_lines(&from_pipe, 1);
    assert!(
        status
            .iter()
            .all(|l| !l.contains('~') && !l.contains(" left") && !l.contains('%')),
        "{status:#?}"
    );

    // Progress changes no output: the same run without it writes the same bytes.
    let quiet = analyze_watched("-", &dir.path().join("quiet"), None, piped());
    assert!(progress_lines(&quiet).is_empty(), "{:?}", quiet.lines);
    assert_eq!(quiet.stdout, from_pipe.stdout);
    let (quiet_files, stdin_files) = (
        output_files(&dir.path().join("quiet")),
        output_files(&dir.path().join("stdin")),
    );
    assert_eq!(
        quiet_files.keys().collect::<Vec<_>>(),
        stdin_files.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &quiet_files {
        assert!(stdin_files[name] == *bytes, "{name:?} differs");
    }
    assert!(
        !text(quiet.stdout.as_bytes()).is_empty(),
        "a leaderboard on stdout"
    );
}
