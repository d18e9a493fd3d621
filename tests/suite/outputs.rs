//! Outputs complete or absent, and exit codes (issue 13, items 5, 6 and found 7, 8): a run that
//! fails (a full disk, no input, no game rated, `--strict`) leaves the previous outputs
//! byte for byte, with no file cut short and no temporary file; a stale `decisions.csv` never
//! stays beside new outputs; `merge` refuses an analysis that is not complete; a directory
//! dicelens did not write is refused; exit codes are 0, 1 and 2 as `--help` says.
//!
//! A full disk is a small tmpfs where the test may mount one (as root), and otherwise, and
//! always for cuts at chosen bytes, the output writer's test hook
//! (`DICELENS_TEST_FAIL_WRITE_AFTER`, see `dicelens::output`).

use crate::common::{run, run_ok, tables_dir, text};
use dicelens::output::{check_complete, FAIL_WRITE_AFTER, MANIFEST, TEMP_PREFIX};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A path as an argument.
fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Simulates `games` one-seat yahtzee games among 4 players from `seed` into `d/name`; returns
/// the path.
fn simulated(d: &Path, name: &str, games: usize, seed: u64) -> PathBuf {
    let out = d.join(name);
    let (games, seed) = (games.to_string(), seed.to_string());
    let args = [
        "--games",
        &games,
        "--players",
        "4",
        "--seed",
        &seed,
        "--out",
    ];
    let mut command = vec!["simulate"];
    command.extend(args);
    command.push(arg(&out));
    run_ok(&command, 1);
    out
}

/// Runs the binary (shared tables, one thread) with `env` set and stdout sent to `stdout`
/// (`None`: captured).
fn run_with(args: &[&str], env: &[(&str, String)], stdout: Option<Stdio>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dicelens"));
    command
        .args(args)
        .env("DICELENS_TABLES", tables_dir())
        .env("RAYON_NUM_THREADS", "1")
        .envs(env.iter().map(|(k, v)| (k, v)));
    if let Some(stdout) = stdout {
        command.stdout(stdout);
    }
    command.output().expect("the binary runs")
}

/// Every entry of `dir` (files and what else is there), by name, with its bytes (empty for a
/// directory).
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            let bytes = if entry.file_type().unwrap().is_file() {
                fs::read(entry.path()).unwrap()
            } else {
                Vec::new()
            };
            (name, bytes)
        })
        .collect()
}

/// Asserts that `dir` holds exactly `before`, byte for byte, is the complete output of a run
/// (every file as its manifest lists it) and holds no temporary file.
fn assert_unchanged(dir: &Path, before: &BTreeMap<String, Vec<u8>>, what: &str) {
    let now = snapshot(dir);
    let temps: Vec<&String> = now.keys().filter(|n| n.starts_with(TEMP_PREFIX)).collect();
    assert!(temps.is_empty(), "{what}: temporary files left: {temps:?}");
    assert_eq!(
        now.keys().collect::<Vec<_>>(),
        before.keys().collect::<Vec<_>>(),
        "{what}: the files differ"
    );
    for (name, bytes) in before {
        assert!(now[name] == *bytes, "{what}: {name} changed");
    }
    check_complete(dir).unwrap_or_else(|e| panic!("{what}: {e}"));
}

/// Asserts that `out` failed with exit code `code` and that stderr says each of `words`.
fn assert_failed(out: &Output, code: i32, words: &[&str], what: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{what}: {stderr}");
    for word in words {
        assert!(stderr.contains(word), "{what}: {word:?} not in {stderr}");
    }
}

/// The arguments of an analysis of `logs` into `out` (solitaire oracle, every player listed).
fn analyze_args<'a>(logs: &[&'a str], out: &'a Path, flags: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["analyze"];
    args.extend(logs);
    args.extend(["--oracle", "e", "--min-games", "1", "--out", arg(out)]);
    args.extend(flags);
    args
}

/// Two simulated corpora in `d`, `a.ygn` and `b.ygn` of `games` games each (seeds `seed` and
/// `seed + 1`), and the previous run: `a.ygn` analysed into `d/out` with `--decisions`.
/// Returns the corpora and `d/out`.
fn previous_run(d: &Path, games: [usize; 2], seed: u64) -> (PathBuf, PathBuf, PathBuf) {
    let a = simulated(d, "a.ygn", games[0], seed);
    let b = simulated(d, "b.ygn", games[1], seed + 1);
    let out = d.join("out");
    run_ok(&analyze_args(&[arg(&a)], &out, &["--decisions"]), 1);
    assert!(out.join("decisions.csv").is_file());
    (a, b, out)
}

#[test]
fn a_write_failing_anywhere_leaves_the_previous_outputs_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (_, large, out) = previous_run(d, [6, 40], 1);
    let before = snapshot(&out);
    assert!(before.contains_key("decisions.csv") && before.contains_key(MANIFEST));
    for decisions in [true, false] {
        let flags: &[&str] = if decisions { &["--decisions"] } else { &[] };
        // How many bytes the new run writes in all, when it can.
        let probe = d.join(format!("probe-{decisions}"));
        run_ok(&analyze_args(&[arg(&large)], &probe, flags), 1);
        let total: u64 = snapshot(&probe).values().map(|b| b.len() as u64).sum();
        // Cut it at its first bytes, in games.csv (and decisions.csv), in the files written at
        // the end (summary.json, aggregates.json, report.html) and in the manifest.
        for cut in [
            0,
            10,
            total / 4,
            total / 2,
            total * 3 / 4,
            total - 2000,
            total - 10,
        ] {
            let result = run_with(
                &analyze_args(&[arg(&large)], &out, flags),
                &[(FAIL_WRITE_AFTER, cut.to_string())],
                None,
            );
            let what = format!("cut after {cut} of {total} bytes, --decisions {decisions}");
            let named = format!("cannot write {}/", arg(&out));
            assert_failed(&result, 1, &[&named, "No space left on device"], &what);
            assert!(
                result.stdout.is_empty(),
                "{what}: a leaderboard was printed"
            );
            assert_unchanged(&out, &before, &what);
        }
    }
    // A directory the failed run created is gone again.
    let fresh = d.join("fresh");
    let result = run_with(
        &analyze_args(&[arg(&large)], &fresh, &[]),
        &[(FAIL_WRITE_AFTER, "5000".to_string())],
        None,
    );
    assert_failed(&result, 1, &["cannot write"], "a new directory");
    assert!(!fresh.exists(), "the failed run left {}", fresh.display());
}

#[test]
fn a_stale_decisions_csv_never_survives_beside_new_outputs() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (a, b, out) = previous_run(d, [5, 7], 3);
    // A file of the user's in the directory is left alone.
    fs::write(out.join("notes.txt"), "mine").unwrap();
    run_ok(&analyze_args(&[arg(&b)], &out, &[]), 1);
    let now = snapshot(&out);
    assert!(!now.contains_key("decisions.csv"), "{:?}", now.keys());
    assert_eq!(now["notes.txt"], b"mine");
    check_complete(&out).unwrap();
    let manifest = text(&now[MANIFEST]);
    assert!(!manifest.contains("decisions.csv"), "{manifest}");
    assert!(!manifest.contains("notes.txt"), "{manifest}");
    // The outputs are those of b, whole: merge takes them.
    let merged = d.join("merged");
    run_ok(
        &[
            "merge",
            arg(&out),
            "--min-games",
            "1",
            "--out",
            arg(&merged),
        ],
        1,
    );
    let summary: serde_json::Value =
        serde_json::from_slice(&fs::read(merged.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["games_rated"], 7);
    // An older dicelens's outputs (no manifest) are an earlier run's: replaced, the stale
    // decisions.csv removed.
    let old = d.join("old");
    run_ok(&analyze_args(&[arg(&a)], &old, &["--decisions"]), 1);
    fs::remove_file(old.join(MANIFEST)).unwrap();
    run_ok(&analyze_args(&[arg(&b)], &old, &[]), 1);
    assert!(!old.join("decisions.csv").exists());
    check_complete(&old).unwrap();
}

/// A way to damage an analysis directory: what it is, what does it, what the refusal says.
type Damage = (&'static str, fn(&Path), &'static str);

#[test]
fn merge_and_player_refuse_an_analysis_that_is_not_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (log, _, good) = previous_run(d, [6, 1], 5);
    let player = {
        let players = fs::read_to_string(good.join("players.csv")).unwrap();
        players
            .lines()
            .nth(1)
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .to_string()
    };
    // Each way a directory can be half-written: a file cut mid-row, a truncated JSON file,
    // a file missing, and no manifest (a run stopped while it renamed its files).
    let damages: [Damage; 5] = [
        (
            "games.csv cut mid-row",
            |dir| {
                let text = fs::read(dir.join("games.csv")).unwrap();
                fs::write(dir.join("games.csv"), &text[..text.len() - 3]).unwrap();
            },
            "games.csv has",
        ),
        (
            "aggregates.json truncated",
            |dir| {
                let text = fs::read(dir.join("aggregates.json")).unwrap();
                fs::write(dir.join("aggregates.json"), &text[..text.len() / 2]).unwrap();
            },
            "aggregates.json has",
        ),
        (
            "decisions.csv missing",
            |dir| fs::remove_file(dir.join("decisions.csv")).unwrap(),
            "decisions.csv is missing",
        ),
        (
            "no manifest",
            |dir| fs::remove_file(dir.join(MANIFEST)).unwrap(),
            "it has no .dicelens-outputs",
        ),
        (
            "a manifest cut short",
            |dir| fs::write(dir.join(MANIFEST), "{\"files\": {\"games.csv\"").unwrap(),
            "not a manifest",
        ),
    ];
    for (i, (what, damage, says)) in damages.iter().enumerate() {
        let dir = d.join(format!("damaged-{i}"));
        run_ok(&analyze_args(&[arg(&log)], &dir, &["--decisions"]), 1);
        damage(&dir);
        let merged = d.join(format!("merged-{i}"));
        for partitions in [false, true] {
            let mut args = vec!["merge", arg(&good), arg(&dir), "--out", arg(&merged)];
            if partitions {
                args.push("--partitions");
            }
            let result = run(&args, 1);
            // "not the complete output" (damaged), "not the output directory" (no manifest).
            let named = format!("{}: not the ", arg(&dir));
            assert_failed(&result, 1, &[&named, says], what);
            assert!(!merged.exists(), "{what}: merge wrote {}", merged.display());
        }
        let result = run(
            &[
                "player",
                &player,
                "--from",
                arg(&dir),
                "--out",
                arg(&merged),
            ],
            1,
        );
        assert_failed(&result, 2, &["--from", says], what);
    }
}

#[test]
fn a_directory_dicelens_did_not_write_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let log = simulated(d, "a.ygn", 3, 6);
    let mine = d.join("mine");
    fs::create_dir(&mine).unwrap();
    fs::write(mine.join("thesis.tex"), "mine").unwrap();
    fs::write(mine.join("summary.json"), "not dicelens's").unwrap();
    let before = snapshot(&mine);
    let result = run(&analyze_args(&[arg(&log)], &mine, &[]), 1);
    assert_failed(
        &result,
        1,
        &[arg(&mine), "dicelens did not write it", "thesis.tex"],
        "a directory of the user's",
    );
    assert_eq!(snapshot(&mine), before);
    // An output path that is a file is refused too, and left as it is.
    let result = run(&analyze_args(&[arg(&log)], &log, &[]), 1);
    assert_failed(&result, 1, &["not a directory"], "a file as --out");
}

#[test]
fn exit_codes_say_whether_anything_was_read_and_rated() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (log, _, out) = previous_run(d, [6, 1], 7);
    let missing = d.join("nofile.ygn");
    let junk = d.join("junk.txt");
    fs::write(&junk, "no games here\n").unwrap();
    let before = snapshot(&out);
    // Nothing read, or nothing rated: exit 1, the previous report stays.
    let nothing_read = "no input could be read";
    for (what, logs, flags, says) in [
        ("a missing file", vec![arg(&missing)], vec![], nothing_read),
        (
            "missing and unrecognised files",
            vec![arg(&missing), arg(&junk)],
            vec![],
            nothing_read,
        ),
        (
            "no game of the rule set",
            vec![arg(&log)],
            vec!["--rules", "yatzy"],
            "no game rated: all 6 games read were skipped",
        ),
        (
            "a file skipped, with --strict",
            vec![arg(&log), arg(&missing)],
            vec!["--strict"],
            "--strict: 1 input file skipped (first: ",
        ),
    ] {
        let result = run(&analyze_args(&logs, &out, &flags), 1);
        let nothing = format!("nothing written to {}", arg(&out));
        assert_failed(&result, 1, &[says, &nothing], what);
        assert_unchanged(&out, &before, what);
    }
    // A file skipped without --strict: exit 0, and the skip in the summary.
    let partly = d.join("partly");
    run_ok(&analyze_args(&[arg(&log), arg(&missing)], &partly, &[]), 1);
    let summary = fs::read_to_string(partly.join("summary.json")).unwrap();
    assert!(summary.contains("nofile.ygn: cannot open"), "{summary}");
    // A partition may rate nothing: --allow-empty writes the empty analysis.
    let empty = d.join("empty");
    run_ok(
        &analyze_args(&[arg(&missing)], &empty, &["--allow-empty"]),
        1,
    );
    check_complete(&empty).unwrap();
    // Usage errors: 2, nothing written.
    let bad = d.join("bad");
    for args in [
        analyze_args(&[arg(&log)], &bad, &["--oracle", "emp:9"]),
        analyze_args(&[arg(&log)], &bad, &["--no-such-flag"]),
    ] {
        assert_eq!(run(&args, 1).status.code(), Some(2), "{args:?}");
        assert!(!bad.exists());
    }
    // convert and player alike.
    let converted = d.join("converted.ygn");
    fs::write(&converted, "previous").unwrap();
    let result = run(
        &[
            "convert",
            arg(&missing),
            "--to",
            "ygn",
            "--out",
            arg(&converted),
        ],
        1,
    );
    assert_failed(&result, 1, &["no game converted", nothing_read], "convert");
    let result = run(
        &[
            "convert",
            arg(&log),
            arg(&junk),
            "--to",
            "ygn",
            "--strict",
            "--out",
            arg(&converted),
        ],
        1,
    );
    assert_failed(&result, 1, &["--strict", "junk.txt"], "convert --strict");
    assert_eq!(fs::read(&converted).unwrap(), b"previous");
    let result = run(&["player", "sim01", arg(&missing), "--out", arg(&bad)], 1);
    assert_failed(&result, 1, &[nothing_read], "player");
    // Standard output on a full disk is a failure, not success.
    if Path::new("/dev/full").exists() {
        for args in [
            vec!["convert", arg(&log), "--to", "jsonl"],
            analyze_args(&[arg(&log)], &d.join("full"), &[]),
        ] {
            let full = fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            let result = run_with(&args, &[], Some(Stdio::from(full)));
            assert_failed(&result, 1, &["cannot write", "No space left"], "/dev/full");
        }
    }
}

#[test]
fn single_file_outputs_are_replaced_whole_or_not_at_all() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let corpus = simulated(d, "corpus.ygn", 20, 8);
    let truth = d.join("corpus.truth.csv");
    let analysis = d.join("analysis");
    run_ok(&analyze_args(&[arg(&corpus)], &analysis, &[]), 1);
    let converted = d.join("converted.jsonl");
    run_ok(
        &[
            "convert",
            arg(&corpus),
            "--to",
            "jsonl",
            "--out",
            arg(&converted),
        ],
        1,
    );
    let svg = d.join("dist.svg");
    let dist = [
        "dist",
        "--filled",
        "1,2,3,4,5,6,3K,4K,FH",
        "--upper",
        "70",
        "--svg",
        arg(&svg),
    ];
    run_ok(&dist, 1);
    let pages = d.join("pages");
    run_ok(
        &[
            "player",
            "--from",
            arg(&analysis),
            "sim01",
            "--out",
            arg(&pages),
        ],
        1,
    );
    let before = snapshot(d);
    let pages_before = snapshot(&pages);
    let fail = [(FAIL_WRITE_AFTER, "1000".to_string())];
    for (what, args) in [
        (
            "simulate",
            vec![
                "simulate",
                "--games",
                "30",
                "--players",
                "4",
                "--seed",
                "9",
                "--out",
                arg(&corpus),
            ],
        ),
        (
            "convert --out",
            vec![
                "convert",
                arg(&corpus),
                "--to",
                "ygn",
                "--out",
                arg(&converted),
            ],
        ),
        ("dist --svg", dist.to_vec()),
        (
            "player",
            vec![
                "player",
                "--from",
                arg(&analysis),
                "sim01",
                "--out",
                arg(&pages),
            ],
        ),
    ] {
        let result = run_with(&args, &fail, None);
        assert_failed(&result, 1, &["cannot write", "No space left"], what);
        assert_eq!(snapshot(d), before, "{what}");
        assert_eq!(snapshot(&pages), pages_before, "{what}");
    }
    assert!(truth.is_file());
    // A conversion that stops at a game it cannot write (Verhoeff's records are solitaire)
    // leaves no half file: the earlier one stays (and a new path stays absent).
    let yatzy = d.join("two-seat.ygn");
    run_ok(
        &[
            "simulate",
            "--rules",
            "yahtzee-free",
            "--seats",
            "2",
            "--games",
            "3",
            "--seed",
            "2",
            "--out",
            arg(&yatzy),
        ],
        1,
    );
    let result = run(
        &[
            "convert",
            arg(&yatzy),
            "--to",
            "verhoeff",
            "--out",
            arg(&converted),
        ],
        1,
    );
    let named = format!("cannot write {}", arg(&converted));
    assert_failed(&result, 1, &[&named, "records are solitaire"], "verhoeff");
    assert_eq!(fs::read(&converted).unwrap(), before["converted.jsonl"]);
    let new = d.join("new.txt");
    run(
        &[
            "convert",
            arg(&yatzy),
            "--to",
            "verhoeff",
            "--out",
            arg(&new),
        ],
        1,
    );
    assert!(!new.exists());
}

/// A tmpfs mounted for a test, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    /// Mounts a tmpfs of `size` (as `mount -o size=` takes it) on `dir`, if this process may.
    fn mount(dir: &Path, size: &str) -> Option<Tmpfs> {
        fs::create_dir_all(dir).unwrap();
        let status = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size}"),
                "tmpfs",
                arg(dir),
            ])
            .stderr(Stdio::null())
            .status()
            .ok()?;
        status.success().then(|| Tmpfs(dir.to_path_buf()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_tmpfs_leaves_the_previous_outputs_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let Some(disk) = Tmpfs::mount(&d.join("disk"), "1m") else {
        // No mount rights (not root, or in a container without them): the full disk is the
        // test hook's, in a_write_failing_anywhere_leaves_the_previous_outputs_complete.
        eprintln!("outputs: cannot mount a tmpfs here; the injected write errors stand in");
        return;
    };
    let small = simulated(d, "small.ygn", 4, 10);
    let large = simulated(d, "large.ygn", 100, 11);
    let out = disk.0.join("out");
    run_ok(&analyze_args(&[arg(&small)], &out, &["--decisions"]), 1);
    let before = snapshot(&out);
    let converted = disk.0.join("small.jsonl");
    run_ok(
        &[
            "convert",
            arg(&small),
            "--to",
            "jsonl",
            "--out",
            arg(&converted),
        ],
        1,
    );
    let previous = fs::read(&converted).unwrap();
    // The disk filled up but for 16 KiB: less than any of the runs below needs.
    let filler = disk.0.join("filler");
    {
        use std::io::Write;
        let mut file = fs::File::create(&filler).unwrap();
        let chunk = vec![0u8; 4096];
        while file.write_all(&chunk).is_ok() {}
        let len = file.metadata().unwrap().len();
        file.set_len(len.saturating_sub(16 * 1024)).unwrap();
    }
    for flags in [vec!["--decisions"], vec![]] {
        let result = run(&analyze_args(&[arg(&large)], &out, &flags), 1);
        let named = format!("cannot write {}/", arg(&out));
        assert_failed(&result, 1, &[&named, "No space left on device"], "tmpfs");
        assert_unchanged(&out, &before, "tmpfs");
    }
    // convert --out alike: the earlier file stays whole.
    let result = run(
        &[
            "convert",
            arg(&large),
            "--to",
            "jsonl",
            "--out",
            arg(&converted),
        ],
        1,
    );
    assert_failed(&result, 1, &["No space left on device"], "convert on tmpfs");
    assert_eq!(fs::read(&converted).unwrap(), previous);
    let names: Vec<String> = snapshot(&disk.0).into_keys().collect();
    assert_eq!(names, ["filler", "out", "small.jsonl"]);
}

#[test]
fn help_lists_the_exit_codes() {
    for args in [
        vec!["--help"],
        vec!["analyze", "--help"],
        vec!["convert", "--help"],
    ] {
        let help = run_ok(&args, 1);
        assert!(help.contains("Exit codes:"), "{args:?}: {help}");
        assert!(help.contains("2  usage error"), "{args:?}: {help}");
    }
    let help = run_ok(&["analyze", "--help"], 1);
    assert!(help.contains("--strict") && help.contains("--allow-empty"));
}
