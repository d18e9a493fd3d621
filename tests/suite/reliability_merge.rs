//! Merges and pages that the hostile test run of issue 30 broke: partitions of a Jamb corpus of
//! which one rates nothing (item 10), a plain merge of analyses rated by different oracles and
//! of a log whose name is not UTF-8 (item 12), and the game page of a 255-player game, whose
//! size must stay bounded (item 11).

use crate::common::{output_files, run, run_ok, simulate_two_seat, tables_dir, text};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;
use std::process::{Command, Output};

/// A path as an argument.
fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `analyze FILES --byte-range RANGE? FLAGS --out OUT`, which must succeed; returns stdout.
fn analyze(files: &[&Path], range: Option<(u64, u64)>, flags: &[&str], out: &Path) -> String {
    let mut args = vec!["analyze".to_string()];
    args.extend(files.iter().map(|f| arg(f).to_string()));
    if let Some((start, end)) = range {
        args.extend(["--byte-range".into(), format!("{start}:{end}")]);
    }
    args.extend(flags.iter().map(|f| f.to_string()));
    args.extend(["--out".into(), arg(out).into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_ok(&args, 2)
}

/// The top-level files of an output directory (the pages and the manifest left out), by name.
fn top_files(dir: &Path) -> Vec<(String, String)> {
    output_files(dir)
        .into_iter()
        .filter(|(name, _)| !name.contains('/') && name != ".dicelens-outputs")
        .map(|(name, bytes)| (name, text(&bytes)))
        .collect()
}

/// A Jamb corpus cut into partitions of which some rate no game (an empty byte range at the
/// start and at the end), with a yahtzee log as one more partition: `merge --partitions` gives
/// the outputs of one `analyze` of the whole, its summary naming the oracle of both rule sets.
#[test]
fn jamb_partitions_of_which_one_rates_nothing_merge_to_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (jamb, yahtzee) = (d.join("jamb.ygn"), d.join("yahtzee.ygn"));
    let simulate = |out: &Path, flags: &str| {
        let mut args: Vec<&str> = vec!["simulate"];
        args.extend(flags.split(' '));
        args.extend(["--out", arg(out)]);
        run_ok(&args, 2);
    };
    simulate(&jamb, "--rules jamb-5 --players 2 --games 4 --seed 11");
    simulate(&yahtzee, "--rules yahtzee --players 2 --games 4 --seed 12");
    let flags = ["--oracle", "e", "--min-games", "1"];
    let one = d.join("one");
    let stdout = analyze(&[&yahtzee, &jamb], None, &flags, &one);
    let summary = fs::read_to_string(one.join("summary.json")).unwrap();
    assert!(
        summary.contains("heuristic Jamb oracle (jamb-5)"),
        "{summary}"
    );

    let len = fs::metadata(&jamb).unwrap().len();
    let parts: [(&Path, Option<(u64, u64)>); 5] = [
        (&yahtzee, None),
        (&jamb, Some((0, 0))),
        (&jamb, Some((0, len / 2))),
        (&jamb, Some((len / 2, len))),
        (&jamb, Some((len, len))),
    ];
    let mut shards = Vec::new();
    for (i, (file, range)) in parts.into_iter().enumerate() {
        let shard = d.join(format!("p{i}"));
        analyze(&[file], range, &flags, &shard);
        shards.push(shard);
    }
    // The empty partitions rated nothing; the others rated games.
    let rated = |shard: &Path| -> u64 {
        let summary: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(shard.join("summary.json")).unwrap()).unwrap();
        summary["games_rated"].as_u64().unwrap()
    };
    let counts: Vec<u64> = shards.iter().map(|s| rated(s)).collect();
    assert!(counts[1] == 0 && counts[4] == 0, "{counts:?}");
    assert!(
        counts[0] > 0 && counts[2] > 0 && counts[3] > 0,
        "{counts:?}"
    );

    // The Jamb log alone, its first and last partitions empty.
    let jamb_one = d.join("jamb-one");
    let jamb_stdout = analyze(&[&jamb], None, &flags, &jamb_one);
    let merge = |order: &[usize], out: &Path| {
        let mut args = vec!["merge", "--partitions"];
        args.extend(order.iter().map(|&i| arg(&shards[i])));
        args.extend(["--min-games", "1", "--out", arg(out)]);
        run_ok(&args, 2)
    };
    let jamb_merged = d.join("jamb-merged");
    assert_eq!(merge(&[1, 2, 3, 4], &jamb_merged), jamb_stdout);
    assert_eq!(top_files(&jamb_one), top_files(&jamb_merged));
    // With the yahtzee log: its partition names no Jamb oracle, the others no other.
    let merged = d.join("merged");
    assert_eq!(merge(&[0, 1, 2, 3, 4], &merged), stdout);
    assert_eq!(top_files(&one), top_files(&merged));
    // An empty partition first (the merged summary takes the first input's fields).
    let (empty_first, one_after) = (d.join("empty-first"), d.join("one-after"));
    let stdout = analyze(&[&jamb, &yahtzee], None, &flags, &one_after);
    let shards = [&shards[1], &shards[2], &shards[3], &shards[0]];
    let mut args = vec!["merge", "--partitions"];
    args.extend(shards.iter().map(|s| arg(s)));
    args.extend(["--min-games", "1", "--out", arg(&empty_first)]);
    let out = run(&args, 2);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    assert_eq!(text(&out.stdout), stdout);
    assert_eq!(top_files(&one_after), top_files(&empty_first));
}

/// Two analyses of different logs, one rated by the solitaire oracle (`--oracle e`) and one by
/// the default (match points): a plain merge is refused, naming both oracles and both
/// analyses; analyses rated alike still merge.
#[test]
fn a_merge_of_analyses_rated_by_different_oracles_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, b) = (d.join("a.ygn"), d.join("b.ygn"));
    for (log, seed) in [(&a, 1), (&b, 2)] {
        let args = simulate_two_seat(4, 4, seed, arg(log));
        run_ok(&args.iter().map(String::as_str).collect::<Vec<_>>(), 2);
    }
    let (solitaire, default) = (d.join("solitaire"), d.join("default"));
    analyze(&[&a], None, &["--oracle", "e"], &solitaire);
    analyze(&[&b], None, &[], &default);
    let merged = d.join("merged");
    for (first, second) in [(&solitaire, &default), (&default, &solitaire)] {
        let out = run(
            &["merge", arg(first), arg(second), "--out", arg(&merged)],
            2,
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        for words in [
            arg(first),
            arg(second),
            "oracle e",
            "oracle emp:1",
            "solitaire expected score",
            "cannot be merged",
        ] {
            assert!(stderr.contains(words), "{words:?} not in {stderr}");
        }
        assert!(!merged.join("summary.json").exists());
    }
    // The same oracle: merged.
    let again = d.join("again");
    analyze(&[&b], None, &["--oracle", "e"], &again);
    run_ok(
        &["merge", arg(&solitaire), arg(&again), "--out", arg(&merged)],
        2,
    );
}

/// Runs the binary with `args` (any bytes) in `cwd`, with the suite's tables.
fn run_in(cwd: &Path, args: &[&OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(args)
        .current_dir(cwd)
        .env("DICELENS_TABLES", tables_dir())
        .env("RAYON_NUM_THREADS", "2")
        .output()
        .unwrap()
}

/// A log whose name holds the byte 0xff (not UTF-8), analysed twice from its directory under
/// its relative name: the outputs name it with the byte escaped (`\xFF`), and a merge of both
/// analyses, run from another directory, finds the log again (by its absolute path) and
/// subtracts the duplicates: the merged counts are one analysis's.
#[test]
fn a_log_whose_name_is_not_utf8_is_merged() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let logs = d.join("logs");
    fs::create_dir(&logs).unwrap();
    let name = OsStr::from_bytes(b"x\xff\\y.ygn");
    let log = logs.join(name);
    run_ok(
        &[
            "simulate",
            "--players",
            "2",
            "--games",
            "3",
            "--seed",
            "4",
            "--out",
            arg(&d.join("plain.ygn")),
        ],
        2,
    );
    fs::copy(d.join("plain.ygn"), &log).unwrap();
    let shards = [d.join("s1"), d.join("s2")];
    for shard in &shards {
        let out = run_in(
            &logs,
            &[
                OsStr::new("analyze"),
                name,
                OsStr::new("--oracle"),
                OsStr::new("e"),
                OsStr::new("--min-games"),
                OsStr::new("1"),
                OsStr::new("--out"),
                shard.as_os_str(),
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let games = fs::read_to_string(shards[0].join("games.csv")).unwrap();
    let mut absolute = fs::canonicalize(&logs).unwrap().into_os_string().into_vec();
    absolute.extend(b"/x\\xFF\\\\y.ygn");
    let absolute = String::from_utf8(absolute).unwrap();
    assert!(
        games.contains(",x\\xFF\\\\y.ygn,1,") && games.contains(&absolute),
        "{games}"
    );
    let merged = d.join("merged");
    let mut args: Vec<OsString> = vec!["merge".into()];
    args.extend(shards.iter().map(|s| s.clone().into_os_string()));
    args.extend(["--min-games".into(), "1".into(), "--out".into()]);
    args.push(merged.clone().into_os_string());
    let args: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
    let out = run_in(d, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("3 later occurrences subtracted"));
    let rated = |dir: &Path| -> serde_json::Value {
        let summary: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
        summary["games_rated"].clone()
    };
    assert_eq!(rated(&merged), rated(&shards[0]));
    assert_eq!(rated(&merged), 3);
}

/// The boxes of a yahtzee sheet in the order the generated game fills them.
const BOXES: [&str; 13] = [
    "1", "2", "3", "4", "5", "6", "3K", "4K", "FH", "SS", "LS", "Y", "C",
];

/// Writes a yahtzee game of `seats` players (`p001`, ...) and `rounds` rounds in YGN (abandoned
/// when it has fewer than 13): every turn rolls 12345 once and fills the next box of [`BOXES`].
fn many_player_game(path: &Path, seats: usize, rounds: usize) {
    let names: Vec<String> = (1..=seats).map(|i| format!("p{i:03}")).collect();
    let mut log = format!(
        "[Game \"many\"]\n[Rules \"yahtzee\"]\n[Players \"{}\"]\n",
        names.join(", ")
    );
    if rounds < BOXES.len() {
        log.push_str("[Termination \"abandoned\"]\n");
    }
    log.push('\n');
    for (round, code) in BOXES.iter().take(rounds).enumerate() {
        for name in &names {
            log.push_str(&format!("{}. {name}: 12345 {code}\n", round + 1));
        }
    }
    fs::write(path, log).unwrap();
}

/// The game page of the one-round game of `seats` players ([`many_player_game`]), rated with
/// the default oracle (match points).
fn page_of_one_round(seats: usize) -> String {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let log = d.join("many.ygn");
    many_player_game(&log, seats, 1);
    let out = d.join("out");
    let flags = ["--include-unfinished", "--min-games", "1"];
    analyze(&[&log], None, &flags, &out);
    let page = fs::read_to_string(out.join("games").join("many.html")).unwrap();
    assert!(page.contains("match points"), "rated in match points");
    assert_eq!(page.matches("<tr id=\"d").count(), seats, "every move");
    page
}

/// The game page of a 255-player game rated in match points (the default oracle) is bounded:
/// its moves carry no `dicelens eval` line listing 254 opponents (each about 36 KB of HTML:
/// the page of this one-round game had 9 MB, that of a whole game 129 MB), and the page says
/// why.
#[test]
fn the_page_of_a_255_player_game_is_bounded() {
    let page = page_of_one_round(255);
    assert!(page.len() < 2_000_000, "the page has {} bytes", page.len());
    assert!(!page.contains("--opponent-filled"), "no eval line");
    assert!(page.contains("more than 8 players"), "the page says why");
}

/// Games of up to 8 players keep their eval lines, opponents and all.
#[test]
fn the_page_of_an_8_player_game_keeps_its_eval_lines() {
    let page = page_of_one_round(8);
    assert_eq!(page.matches("<tr class=\"eval\">").count(), 8);
    assert_eq!(page.matches("--opponent-filled").count(), 8 * 7);
    assert!(!page.contains("more than 8 players"));
}
