//! Helpers shared by the integration tests.

use dicelens::corpus::LogFile;
use dicelens::replay::{replay, ReplayOptions, Replayed, Skip};
use dicelens::rules::{RuleSet, Sheet};
use dicelens::solve::expected::build_table;
use dicelens_parsers::GameRecord;
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Each rule set's expected-score table, built once per test binary.
pub fn table(rules: RuleSet) -> &'static [f64] {
    static TABLES: OnceLock<Mutex<HashMap<RuleSet, &'static [f64]>>> = OnceLock::new();
    let mut map = TABLES.get_or_init(Default::default).lock().unwrap();
    map.entry(rules)
        .or_insert_with(|| build_table(rules, &|_, _| {}).leak())
}

/// The table directory every test shares, with the tables the tests rate with built once,
/// before the first test gets it (so no two tests build one table at the same time): every
/// rule set's expected-score tables, the distribution tables of the two rule sets whose
/// two-seat games the suite rates by match points (yahtzee's and yahtzee-kurnik's; the others'
/// are built in part where a test needs them, in memory), and jamb-5's column tables (the Jamb
/// tests and golden outputs). A temporary directory, unless
/// `DICELENS_SUITE_TABLES` names one to keep (CI's regression gate, `benches/gate.py`, then
/// rates with the tables the suite built; tables already there and valid are not rebuilt).
pub fn tables_dir() -> &'static Path {
    static DIR: OnceLock<SuiteTables> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = match std::env::var_os("DICELENS_SUITE_TABLES") {
            Some(path) => {
                std::fs::create_dir_all(&path).unwrap();
                SuiteTables::Kept(path.into())
            }
            None => SuiteTables::Temporary(tempfile::tempdir().unwrap()),
        };
        let builds: [&[&str]; 4] = [
            &["tables", "build", "--rules", "all"],
            &["tables", "build", "--dist", "--rules", "yahtzee"],
            &["tables", "build", "--dist", "--rules", "yahtzee-kurnik"],
            &["tables", "build", "--rules", "jamb-5"],
        ];
        for args in builds {
            let out = Command::new(env!("CARGO_BIN_EXE_dicelens"))
                .args(args)
                .arg("--tables")
                .arg(dir.path())
                .output()
                .expect("the binary runs");
            assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        }
        dir
    })
    .path()
}

/// Where the suite's tables are: a temporary directory, or one kept after the tests.
enum SuiteTables {
    Temporary(tempfile::TempDir),
    Kept(std::path::PathBuf),
}

impl SuiteTables {
    fn path(&self) -> &Path {
        match self {
            SuiteTables::Temporary(dir) => dir.path(),
            SuiteTables::Kept(path) => path,
        }
    }
}

/// Runs the binary with the shared tables and `threads` rayon threads.
pub fn run(args: &[&str], threads: usize) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(args)
        .env("DICELENS_TABLES", tables_dir())
        .env("RAYON_NUM_THREADS", threads.to_string())
        .output()
        .expect("the binary runs")
}

/// The arguments of `analyze INPUT` with the solitaire oracle, every player listed, into `out`.
pub fn solitaire_analyze<'a>(input: &'a str, out: &'a str) -> [&'a str; 8] {
    [
        "analyze",
        input,
        "--oracle",
        "e",
        "--min-games",
        "1",
        "--out",
        out,
    ]
}

/// What a command run by [`run_within`] reads on its standard input.
pub enum StdinFrom {
    /// Nothing (`/dev/null`).
    Nothing,
    /// These bytes, through a pipe.
    Pipe(Vec<u8>),
    /// This file.
    File(std::fs::File),
}

/// Runs `command` (its output captured, its standard input as `stdin` says) and waits for it
/// at most `limit`: past that it is killed and the test fails, so that a run that would hang
/// fails instead. Panics too if it was ended by a signal.
pub fn run_within(command: &mut Command, stdin: StdinFrom, limit: Duration) -> Output {
    use std::io::{Read, Write};
    let (stdin, input) = match stdin {
        StdinFrom::Nothing => (Stdio::null(), None),
        StdinFrom::Pipe(bytes) => (Stdio::piped(), Some(bytes)),
        StdinFrom::File(file) => (Stdio::from(file), None),
    };
    let mut child = command
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
    let writer = child.stdin.take().zip(input).map(|(mut stdin, bytes)| {
        // A command that stops reading early closes the pipe: not an error here.
        std::thread::spawn(move || drop(stdin.write_all(&bytes)))
    });
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the command can be waited on") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} still runs after {limit:?}: killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    let output = Output {
        status,
        stdout: stdout.join().expect("stdout read"),
        stderr: stderr.join().expect("stderr read"),
    };
    assert!(
        status.code().is_some(),
        "{command:?} ended by a signal ({status}): {}",
        text(&output.stderr)
    );
    output
}

/// Runs the binary like [`run`]; panics with its stderr unless it succeeds; returns stdout.
pub fn run_ok(args: &[&str], threads: usize) -> String {
    let out = run(args, threads);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The arguments of `dicelens simulate` for `games` two-seat yahtzee games among `players`
/// players from `seed`, written to `out`.
pub fn simulate_two_seat(players: usize, games: usize, seed: u64, out: &str) -> Vec<String> {
    let flags = format!(
        "simulate --rules yahtzee --seats 2 --players {players} --games {games} --seed {seed}"
    );
    let mut args: Vec<String> = flags.split(' ').map(String::from).collect();
    args.extend(["--out".to_string(), out.to_string()]);
    args
}

/// Every file under the output directory `dir`, by its path relative to `dir` with `/` between
/// the parts (`report.html`, `players/sim01.html`), in name order.
pub fn output_files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|entry| entry.unwrap_or_else(|e| panic!("{}: {e}", dir.display())))
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            let name = entry
                .path()
                .strip_prefix(dir)
                .unwrap()
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            (name, std::fs::read(entry.path()).unwrap())
        })
        .collect()
}

/// Whether an output file is one of the linked pages (`players/`, `games/`) or the manifest
/// that lists them: what a merge of partitions writes differently from one analysis (its
/// player pages have no worst decisions, and it has no game pages).
pub fn is_page_or_manifest(name: &str) -> bool {
    name.starts_with("players/") || name.starts_with("games/") || name == dicelens::output::MANIFEST
}

/// Bytes as text (lossy).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Rows of a CSV file as maps from column name to value, keyed by the first column.
pub fn csv_rows(path: &Path) -> HashMap<String, HashMap<String, String>> {
    csv_records(path).into_iter().collect()
}

/// Rows of a CSV file in order, each with its first field and as a map from column name to
/// value.
pub fn csv_records(path: &Path) -> Vec<(String, HashMap<String, String>)> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            let row = headers
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect();
            (r[0].to_string(), row)
        })
        .collect()
}

/// The sheet of `rules` with every box filled except `free` (codes as `RuleSet::parse_box`
/// reads them), the Yahtzee box (when filled and tracked) holding 50 if `yahtzee_50`, and the
/// given upper total and points: at least the least the sheet holds, but not checked against
/// the most its boxes can hold (generous points, which the solvers value like any others).
pub fn reduced(
    rules: RuleSet,
    free: &[&str],
    yahtzee_50: bool,
    upper_total: u32,
    points: u32,
) -> Sheet {
    let free_mask = free.iter().fold(0u32, |mask, code| {
        let (b, _) = rules
            .parse_box(code)
            .unwrap_or_else(|| panic!("{rules} has no box {code}"));
        mask | 1 << b
    });
    assert_eq!(
        free_mask.count_ones() as usize,
        free.len(),
        "free boxes repeat"
    );
    let codes: Vec<String> = (0..rules.box_count())
        .filter(|&b| free_mask & (1 << b) == 0)
        .map(|b| {
            if b == rules.yahtzee_box() && rules.tracks_yahtzee_50() {
                if yahtzee_50 { "Y50" } else { "Y0" }.to_string()
            } else {
                rules.boxes()[b].code().to_string()
            }
        })
        .collect();
    let mut sheet = Sheet::from_boxes(rules, &codes, upper_total)
        .unwrap_or_else(|e| panic!("{rules} sheet without {free:?}: {e}"));
    assert!(
        points >= sheet.least_points(),
        "{rules} sheet without {free:?}: {points} points, {} at least",
        sheet.least_points()
    );
    sheet.points = points;
    assert_eq!(
        rules.box_count() - sheet.filled_count() as usize,
        free.len(),
        "{rules} sheet without {free:?}"
    );
    sheet
}

/// The faces of ordered outcome number `index` (0..6^n) of `n` dice, as base-6 digits.
pub fn ordered_outcome(index: usize, n: usize) -> Vec<u8> {
    let mut rest = index;
    (0..n)
        .map(|_| {
            let face = (rest % 6) as u8 + 1;
            rest /= 6;
            face
        })
        .collect()
}

/// `kept` followed by `rolled`, sorted: five dice as a canonical key.
pub fn sorted_dice(kept: &[u8], rolled: &[u8]) -> [u8; 5] {
    let mut dice = [0u8; 5];
    assert_eq!(kept.len() + rolled.len(), 5, "not five dice");
    for (slot, &face) in dice.iter_mut().zip(kept.iter().chain(rolled)) {
        *slot = face;
    }
    dice.sort_unstable();
    dice
}

/// A function tabulated on a range of integers (brute-force values).
pub type Probs = Vec<f64>;

/// `best[i] = max(best[i], p[i])`.
pub fn raise(best: &mut Probs, p: &Probs) {
    for (b, v) in best.iter_mut().zip(p) {
        *b = b.max(*v);
    }
}

/// One turn by plain exhaustive computation over dice positions and ordered outcomes, with
/// functions (of `len` points) as values: `last(dice)` values the sorted five dice after the last
/// roll; keeping is the pointwise best of the 32 position subsets, rerolling the mean over
/// ordered outcomes. Returns the value before the first roll. Shares nothing with the widget.
pub fn brute_turn(len: usize, mut last: impl FnMut(&[u8; 5]) -> Probs) -> Probs {
    let mut turn = BruteTurn {
        len,
        last: HashMap::new(),
        values: HashMap::new(),
        means: HashMap::new(),
    };
    for i in 0..7776 {
        let dice = sorted_dice(&[], &ordered_outcome(i, 5));
        if let std::collections::hash_map::Entry::Vacant(slot) = turn.last.entry(dice) {
            slot.insert(last(&dice));
        }
    }
    let mut sum = vec![0.0; len];
    for i in 0..7776 {
        let v = turn.value(2, sorted_dice(&[], &ordered_outcome(i, 5)));
        for (s, x) in sum.iter_mut().zip(&v) {
            *s += x;
        }
    }
    sum.iter().map(|s| s / 7776.0).collect()
}

struct BruteTurn {
    len: usize,
    last: HashMap<[u8; 5], Probs>,
    values: HashMap<(u8, [u8; 5]), Probs>,
    means: HashMap<(u8, Vec<u8>), Probs>,
}

impl BruteTurn {
    /// Best over the 32 position subsets to keep, pointwise.
    fn value(&mut self, left: u8, dice: [u8; 5]) -> Probs {
        if left == 0 {
            return self.last[&dice].clone();
        }
        if let Some(v) = self.values.get(&(left, dice)) {
            return v.clone();
        }
        let mut best = vec![0.0; self.len];
        for subset in 0..32u32 {
            let kept: Vec<u8> = (0..5)
                .filter(|&i| subset & (1 << i) != 0)
                .map(|i| dice[i])
                .collect();
            let m = self.mean(left, &kept);
            raise(&mut best, &m);
        }
        self.values.insert((left, dice), best.clone());
        best
    }

    /// Mean over the ordered outcomes of the rerolled dice.
    fn mean(&mut self, left: u8, kept: &[u8]) -> Probs {
        let mut key = kept.to_vec();
        key.sort_unstable();
        if let Some(v) = self.means.get(&(left, key.clone())) {
            return v.clone();
        }
        let n = 5 - key.len();
        let count = 6usize.pow(n as u32);
        let mut sum = vec![0.0; self.len];
        for i in 0..count {
            let v = self.value(left - 1, sorted_dice(&key, &ordered_outcome(i, n)));
            for (s, x) in sum.iter_mut().zip(&v) {
                *s += x;
            }
        }
        let m: Probs = sum.iter().map(|s| s / count as f64).collect();
        self.means.insert((left, key), m.clone());
        m
    }
}

/// Boxes filled when only Chance is free (American rules).
pub const CHANCE_ONLY_FILLED: &str = "1,2,3,4,5,6,3K,4K,FH,SS,LS,Y0";

/// Sheet flags of a yahtzee sheet with only Chance free, upper 70, 200 points.
pub const CHANCE_ONLY: [&str; 8] = [
    "--rules",
    "yahtzee",
    "--filled",
    CHANCE_ONLY_FILLED,
    "--upper",
    "70",
    "--points",
    "200",
];

/// The game `id` of a file, parsed by the library.
pub fn find_game(path: &Path, id: &str) -> GameRecord {
    let file = LogFile::open(path, None).unwrap();
    let mut found = None;
    file.for_each_game(|g| {
        if let Ok(g) = g {
            if found.is_none() && g.provenance.game_id == id {
                found = Some(g.clone());
            }
        }
    });
    found.unwrap_or_else(|| panic!("no game {id} in {}", path.display()))
}

/// The replay `validate` makes (unfinished games included), and how it ended.
pub fn replayed(game: &GameRecord) -> (Replayed, Result<(), Skip>) {
    let mut out = Replayed::default();
    let options = ReplayOptions {
        include_unfinished: true,
    };
    let result = replay(game, options, &mut out);
    (out, result)
}

/// A simulated (complete, legal) game replayed and rated by `oracle`: the replay and every
/// decision's rating (every decision valued, or the test fails).
pub fn rated_by<O: dicelens::rate::Oracle>(
    oracle: &O,
    cache: &mut O::Cache,
    game: &GameRecord,
) -> (Replayed, Vec<dicelens::Rated>) {
    let mut replayed = Replayed::default();
    replay(game, ReplayOptions::default(), &mut replayed).expect("a legal game");
    let mut rated = Vec::new();
    let thresholds = dicelens::Thresholds::default();
    dicelens::rate_game(oracle, &replayed, &thresholds, cache, &mut rated).expect("rated");
    (replayed, rated)
}
