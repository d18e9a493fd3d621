//! Files that change or block under the tool (issue 13): a log and a table cut short while
//! `analyze` runs give errors naming them, never a signal, and the other files are rated; every
//! kind of input (FIFO with and without a writer, pipe, `/dev/stdin`, `-`, devices, `/proc`
//! files) is rated or refused at once, never waited on for ever; a table path that is not a
//! regular file is an error, and no temporary table file is left behind. Every command runs
//! under a time limit ([`run_within`]).

use crate::common::{run_within, table, text, StdinFrom};
use dicelens::corpus::SkipReason;
use dicelens::pipeline::{analyze, DecisionSink, Options, Progress};
use dicelens::rate::{OracleSpec, Rated};
use dicelens::rules::RuleSet;
use dicelens::simulate::{players, simulate_batch, Plan};
use dicelens::tables::{expected_path, write_expected};
use dicelens_parsers::{Format, GameRecord};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The longest any command here may take (they take a second or so).
const LIMIT: Duration = Duration::from_secs(60);

/// The rule sets of the logs here.
const RULE_SETS: [RuleSet; 2] = [RuleSet::Yahtzee, RuleSet::YahtzeeFree];

/// A table directory with the expected-score tables of [`RULE_SETS`], written once.
pub(crate) fn expected_tables() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        for rules in RULE_SETS {
            write_expected(dir.path(), rules, table(rules)).unwrap();
        }
        dir
    })
    .path()
}

/// Writes `games` one-seat games of `rules` (seed `seed`) as YGN to `path`.
pub(crate) fn write_log(path: &Path, rules: RuleSet, games: usize, seed: u64) {
    write_log_in(path, Format::Ygn, rules, games, seed);
}

/// Writes `games` one-seat games of `rules` (4 players, seed `seed`) in `format` to `path`.
pub(crate) fn write_log_in(path: &Path, format: Format, rules: RuleSet, games: usize, seed: u64) {
    let plan = Plan {
        rules,
        seats: 1,
        players: 4,
        games,
        seed,
        ..Plan::default()
    };
    let mut bytes = Vec::new();
    format.write_start(&mut bytes).unwrap();
    for game in simulate_batch(table(rules), &plan, &players(&plan), 0..games) {
        format.write_game(&game.record, &mut bytes).unwrap();
    }
    std::fs::write(path, bytes).unwrap();
}

/// Cuts the file at `path` to `len` bytes in place (as `truncate -s`, or `cp` over it, does).
fn truncate(path: &Path, len: u64) {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(len)
        .unwrap();
}

/// Cuts files short after the first batch of games is rated (the log still being read, the
/// first table loaded), and keeps the run's notices.
struct CutAfterFirstBatch {
    /// Files and the length each is cut to.
    cuts: Vec<(PathBuf, u64)>,
    done: AtomicBool,
    notices: Mutex<Vec<String>>,
}

impl dicelens::tables::Progress for CutAfterFirstBatch {
    fn notice(&self, message: &str) {
        self.notices.lock().unwrap().push(message.to_string());
    }
}

impl Progress for CutAfterFirstBatch {
    fn batch_rated(&self, _rated: usize) {
        if !self.done.swap(true, Ordering::SeqCst) {
            for (path, len) in &self.cuts {
                truncate(path, *len);
            }
        }
    }
}

/// Counts the rated games of each file.
#[derive(Default)]
struct GamesByFile(BTreeMap<String, usize>);

impl DecisionSink for GamesByFile {
    type Chunk = Vec<String>;
    fn game(&self, _: usize, game: &GameRecord, _: &[Rated], chunk: &mut Vec<String>) {
        chunk.push(game.provenance.file.clone());
    }
    fn merge_chunk(&mut self, chunk: Vec<String>) {
        for file in chunk {
            *self.0.entry(file).or_default() += 1;
        }
    }
}

#[test]
fn a_log_and_tables_cut_short_between_batches_give_errors_naming_them_and_the_rest_is_rated() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    for rules in RULE_SETS {
        std::fs::copy(
            expected_path(expected_tables(), rules),
            expected_path(&tables, rules),
        )
        .unwrap();
    }
    // More games than a batch, so the first batch is rated while the log is still being read.
    let cut = dir.path().join("cut.ygn");
    write_log(&cut, RuleSet::Yahtzee, 6000, 1);
    let whole_len = std::fs::metadata(&cut).unwrap().len();
    let other = dir.path().join("other.ygn");
    write_log(&other, RuleSet::YahtzeeFree, 300, 2);
    let loaded = expected_path(&tables, RuleSet::Yahtzee);
    let not_yet_loaded = expected_path(&tables, RuleSet::YahtzeeFree);
    let progress = CutAfterFirstBatch {
        cuts: vec![
            (cut.clone(), 100_000),
            (loaded, 1000),
            (not_yet_loaded.clone(), 1000),
        ],
        done: AtomicBool::new(false),
        notices: Mutex::new(Vec::new()),
    };
    let options = Options {
        oracle: OracleSpec::SOLITAIRE,
        tables: Some(tables.clone()),
        ..Options::default()
    };
    let mut rated = GamesByFile::default();
    let analysis = analyze(
        &[cut.clone(), other.clone()],
        &options,
        &mut rated,
        &progress,
    )
    .expect("the run goes on past the changed files");
    let cut_name = cut.display().to_string();
    // The log: an error naming it, counted once; the games before the change rated.
    let changed = &analysis.summary.skipped[&SkipReason::FileChanged];
    assert_eq!(changed.len(), 1, "{:?}", analysis.summary.report());
    assert_eq!(changed[0].file, cut_name);
    assert_eq!(
        changed[0].detail,
        format!(
            "{cut_name} changed while being read (was {whole_len} bytes, now 100000): the file \
             is not read from here on"
        )
    );
    assert!(
        analysis
            .summary
            .report()
            .contains("file changed while read (first: "),
        "{}",
        analysis.summary.report()
    );
    // The first batch is rated; the reader goes on meanwhile, until it finds the change.
    let from_cut = rated.0.get(&cut_name).copied().unwrap_or(0);
    let first = dicelens::pipeline::FIRST_BATCH;
    assert!((first..6000).contains(&from_cut), "{from_cut} games rated");
    assert_eq!(analysis.summary.count(&SkipReason::SyntaxError), 0);
    // The other log: every game rated, with the table cut before it was needed rebuilt (the
    // notice names it) and the one cut after it was loaded used from memory.
    assert_eq!(rated.0.get(&other.display().to_string()), Some(&300));
    let notices = progress.notices.lock().unwrap();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].starts_with(&format!(
            "table {} is damaged: 1000 bytes, expected ",
            not_yet_loaded.display()
        )),
        "{notices:?}"
    );
    assert_eq!(analysis.games_rated(), from_cut as u64 + 300);
}

/// The mkfifo command's FIFO at `path`.
pub(crate) fn make_fifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

/// The binary reading `args`, with the shared tables and the FIFO wait set to `fifo_wait`.
pub(crate) fn dicelens(args: &[&str], fifo_wait: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dicelens"));
    command
        .args(args)
        .env("DICELENS_TABLES", expected_tables())
        .env("DICELENS_FIFO_WAIT", fifo_wait)
        .env("RAYON_NUM_THREADS", "2");
    command
}

/// `analyze INPUT` with the solitaire oracle into `out`, under the time limit.
pub(crate) fn analyze_input(input: &str, out: &Path, stdin: StdinFrom, fifo_wait: &str) -> Output {
    let out = out.to_str().unwrap();
    let args = crate::common::solitaire_analyze(input, out);
    run_within(&mut dicelens(&args, fifo_wait), stdin, LIMIT)
}

/// Asserts that a run read and used `games` games (its summary on stderr says so).
pub(crate) fn assert_rated(output: &Output, games: usize) {
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("{games} games read, {games} used")),
        "{stderr}"
    );
}

/// A log of 50 games, its bytes and its path in `dir`.
fn small_log(dir: &Path) -> (PathBuf, Vec<u8>) {
    let path = dir.join("games.ygn");
    write_log(&path, RuleSet::Yahtzee, 50, 3);
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

#[test]
fn a_fifo_with_a_writer_is_rated_and_one_without_is_refused_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    let (_, bytes) = small_log(dir.path());
    let fifo = dir.path().join("fifo");
    make_fifo(&fifo);
    // A writer that comes a little after the run starts.
    let writer_path = fifo.clone();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        std::fs::write(writer_path, bytes).unwrap();
    });
    let fifo_text = fifo.to_str().unwrap();
    let output = analyze_input(
        fifo_text,
        &dir.path().join("with"),
        StdinFrom::Nothing,
        "30",
    );
    writer.join().unwrap();
    assert_rated(&output, 50);
    // No writer: refused once the wait is over, with a message naming the FIFO.
    let output = analyze_input(
        fifo_text,
        &dir.path().join("without"),
        StdinFrom::Nothing,
        "0.3",
    );
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "file skipped: {fifo_text}: a FIFO without a writer: none opened it within 0.3 s"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("0 games read"), "{stderr}");
    // A bad wait is refused with what was expected.
    let output = analyze_input(
        fifo_text,
        &dir.path().join("bad"),
        StdinFrom::Nothing,
        "soon",
    );
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(
            "DICELENS_FIFO_WAIT: expected a number of seconds (such as 5 or 0.5), found \"soon\""
        ),
        "{stderr}"
    );
}

#[test]
fn a_pipe_dev_stdin_and_dash_are_rated() {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = small_log(dir.path());
    for input in ["-", "/dev/stdin"] {
        let out = |what: &str| dir.path().join(format!("{what}{}", input.len()));
        // A pipe.
        let output = analyze_input(input, &out("pipe"), StdinFrom::Pipe(bytes.clone()), "0.3");
        assert_rated(&output, 50);
        // A file redirected into standard input.
        let file = StdinFrom::File(std::fs::File::open(&path).unwrap());
        assert_rated(&analyze_input(input, &out("file"), file, "0.3"), 50);
        // A pipe that brings nothing: no game, at once.
        let output = analyze_input(input, &out("empty"), StdinFrom::Pipe(Vec::new()), "0.3");
        assert!(
            text(&output.stderr).contains("0 games read"),
            "{input}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn devices_are_refused_at_once_and_proc_files_and_dev_null_are_read() {
    let dir = tempfile::tempdir().unwrap();
    // /dev/zero never ends: refused, even when its format is forced.
    let out = dir.path().join("zero");
    let args = [
        "analyze",
        "/dev/zero",
        "--format",
        "ygn",
        "--oracle",
        "e",
        "--out",
        out.to_str().unwrap(),
    ];
    let output = run_within(&mut dicelens(&args, "0.3"), StdinFrom::Nothing, LIMIT);
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(
            "file skipped: /dev/zero: a character device, not a log (give a file, a \
                         directory, a pipe or FIFO, or - for standard input)"
        ),
        "{stderr}"
    );
    // /dev/null and a /proc file (which says it is empty) are read: no game, and a /proc
    // file's content is of no log format.
    let output = analyze_input(
        "/dev/null",
        &dir.path().join("null"),
        StdinFrom::Nothing,
        "0.3",
    );
    assert!(
        text(&output.stderr).contains("0 games read"),
        "{}",
        text(&output.stderr)
    );
    let proc = dir.path().join("proc");
    let output = analyze_input("/proc/self/status", &proc, StdinFrom::Nothing, "0.3");
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("file skipped: /proc/self/status: cannot recognise the format"),
        "{stderr}"
    );
}

#[test]
fn a_table_path_that_is_not_a_regular_file_is_an_error_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = small_log(dir.path());
    let tables = dir.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    let table = expected_path(&tables, RuleSet::Yahtzee);
    std::fs::create_dir(&table).unwrap();
    let run = |out: &str| {
        let out = dir.path().join(out);
        let args = [
            "analyze",
            path.to_str().unwrap(),
            "--oracle",
            "e",
            "--tables",
            tables.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        run_within(&mut dicelens(&args, "0.3"), StdinFrom::Nothing, LIMIT)
    };
    for out in ["a", "b"] {
        let output = run(out);
        let stderr = text(&output.stderr);
        assert!(!output.status.success(), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "table {} is a directory, not a table file: remove it, or give another table \
                 directory",
                table.display()
            )),
            "{stderr}"
        );
    }
    // A FIFO there: the same at once (it is never opened for reading as a table).
    std::fs::remove_dir(&table).unwrap();
    make_fifo(&table);
    let output = run("c");
    assert!(
        text(&output.stderr).contains("is a FIFO, not a table file"),
        "{}",
        text(&output.stderr)
    );
    // Nothing was built or left in the table directory by the runs.
    let left: Vec<String> = std::fs::read_dir(&tables)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["yahtzee.expected.tbl"]);
}

#[test]
fn a_seen_ids_fifo_is_waited_on_a_bounded_time_and_bench_read_refuses_streams() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = small_log(dir.path());
    let fifo = dir.path().join("ids.fifo");
    make_fifo(&fifo);
    let (log, fifo_text) = (path.to_str().unwrap(), fifo.to_str().unwrap());
    let out = dir.path().join("out");
    let args = [
        "analyze",
        log,
        "--seen-ids",
        fifo_text,
        "--oracle",
        "e",
        "--out",
        out.to_str().unwrap(),
    ];
    let output = run_within(&mut dicelens(&args, "0.3"), StdinFrom::Nothing, LIMIT);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(
        text(&output.stderr).contains(&format!(
            "--seen-ids: cannot read {fifo_text}: a FIFO without a writer: none opened it within \
             0.3 s"
        )),
        "{}",
        text(&output.stderr)
    );
    let output = run_within(
        &mut dicelens(&["bench", "read", fifo_text], "0.3"),
        StdinFrom::Nothing,
        LIMIT,
    );
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains(&format!(
            "{fifo_text}: a FIFO, not a regular file (bench read reads each file several times)"
        )),
        "{}",
        text(&output.stderr)
    );
}
