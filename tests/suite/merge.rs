//! `dicelens merge` end to end: two overlapping shards of a corpus, analysed separately and
//! merged, give byte for byte the outputs of one analysis of the corpus, with the games seen in
//! both shards counted once and listed; a duplicate whose log changed or cannot be found is an
//! error (or, with --force, listed and left counted twice); run from another directory, a merge
//! finds the logs and gives the same outputs; counters that would overflow are an error.

use crate::common::tables_dir;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the binary in `cwd` (the test's own directory if `None`).
fn run_in(cwd: Option<&Path>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dicelens"));
    command.args(args).env("DICELENS_TABLES", tables_dir());
    if let Some(cwd) = cwd {
        command.current_dir(cwd);
    }
    command.output().unwrap()
}

/// Runs the binary in `cwd`; panics with its stderr unless it succeeds. Returns stdout and
/// stderr.
fn dicelens_in(cwd: Option<&Path>, args: &[&str]) -> (String, String) {
    let out = run_in(cwd, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

/// Runs the binary; panics with its stderr unless it succeeds. Returns stdout and stderr.
fn dicelens(args: &[&str]) -> (String, String) {
    dicelens_in(None, args)
}

/// Runs the binary, which must fail with exit code 1; returns its stderr.
fn fails(args: &[&str]) -> String {
    let out = run_in(None, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    stderr
}

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
}

fn analyze(file: &Path, out: &Path) -> String {
    dicelens(&[
        "analyze",
        file.to_str().unwrap(),
        // Merging adds sums whatever the oracle; the solitaire one keeps this test quick.
        "--oracle",
        "e",
        "--min-games",
        "10",
        "--out",
        out.to_str().unwrap(),
    ])
    .0
}

#[test]
fn overlapping_shards_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let corpus = d.join("all.ygn");
    dicelens(&[
        "simulate",
        "--seats",
        "2",
        "--players",
        "8",
        "--games",
        "300",
        "--seed",
        "5",
        "--out",
        corpus.to_str().unwrap(),
    ]);
    // Games are separated by blank lines; shard a has games 0..160, shard b 140..300.
    let text = fs::read_to_string(&corpus).unwrap();
    let games: Vec<&str> = text
        .split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .collect();
    assert_eq!(games.len(), 300);
    let shard = |range: std::ops::Range<usize>| games[range].join("\n\n") + "\n\n";
    let (a, b) = (d.join("a.ygn"), d.join("b.ygn"));
    fs::write(&a, shard(0..160)).unwrap();
    fs::write(&b, shard(140..300)).unwrap();
    let middle: Vec<String> = games[140..160]
        .iter()
        .map(|g| {
            let first = g.lines().next().unwrap();
            first
                .trim_start_matches("[Game \"")
                .trim_end_matches("\"]")
                .to_string()
        })
        .collect();

    let one_out = analyze(&corpus, &d.join("one"));
    analyze(&a, &d.join("a"));
    analyze(&b, &d.join("b"));
    // games.csv: one row per rated game, in order, with the log as given, the game's first
    // line, its content hash and the log's absolute path.
    let rows = fs::read_to_string(d.join("b/games.csv")).unwrap();
    let mut rows = rows.lines();
    assert_eq!(
        rows.next(),
        Some("game_id,file,line,content_hash,absolute_path,accuracy")
    );
    let first: Vec<&str> = rows.next().unwrap().split(',').collect();
    let b_path = b.display().to_string();
    let b_absolute = b.canonicalize().unwrap().display().to_string();
    assert_eq!(
        (first[0], first[1], first[2], first[4]),
        (
            middle[0].as_str(),
            b_path.as_str(),
            "1",
            b_absolute.as_str()
        )
    );
    assert_eq!(first[3].len(), 16, "{first:?}");
    assert_eq!(rows.count(), 159);
    // The same game has the same hash in both shards (though at another line of another file).
    let a_rows = fs::read_to_string(d.join("a/games.csv")).unwrap();
    assert!(
        a_rows.contains(&format!(",{},", first[3])),
        "{} not in a/games.csv",
        first[3]
    );
    // And the same accuracy of each seat (two seats, `;` between).
    assert_eq!(first[5].split(';').count(), 2, "{first:?}");
    assert!(a_rows.contains(&format!(",{}\n", first[5])), "{first:?}");

    let (merged_out, merge_notices) = dicelens(&[
        "merge",
        d.join("a").to_str().unwrap(),
        d.join("b").to_str().unwrap(),
        "--min-games",
        "10",
        "--out",
        d.join("m").to_str().unwrap(),
    ]);
    assert_eq!(merged_out, one_out);
    // The duplicates are reported on stderr too: how many, and the first few with their shards.
    let notice = merge_notices
        .lines()
        .find(|l| l.contains("rated in more than one analysis"))
        .unwrap_or_else(|| panic!("no notice of the duplicates: {merge_notices}"));
    let shards = format!("{}, {}", d.join("a").display(), d.join("b").display());
    assert!(
        notice.starts_with("dicelens: 20 game ids rated in more than one analysis (20 later"),
        "{notice}"
    );
    for id in &middle[..5] {
        assert!(notice.contains(&format!("{id} ({shards})")), "{notice}");
    }
    assert!(!notice.contains(&middle[5]), "{notice}");
    assert!(notice.ends_with("; and 15 more"), "{notice}");
    for file in [
        "players.csv",
        "leaderboard.csv",
        "rounds.csv",
        "report.html",
    ] {
        let (one, merged) = (
            fs::read(d.join("one").join(file)).unwrap(),
            fs::read(d.join("m").join(file)).unwrap(),
        );
        assert!(one == merged, "{file} differs");
    }
    // The same aggregates but the near-perfect stretches (the oracle's and the solitaire
    // oracle's), which a merge does not correct for duplicates (a list of the longest runs cannot give back a game counted twice).
    let without_stretches = |dir: &Path| {
        let text = fs::read_to_string(dir.join("aggregates.json")).unwrap();
        let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
        for part in json.as_object_mut().unwrap().values_mut() {
            for player in part["players"].as_object_mut().unwrap().values_mut() {
                let player = player.as_object_mut().unwrap();
                player.remove("stretches");
                if let Some(solitaire) = player.get_mut("solitaire") {
                    solitaire.as_object_mut().unwrap().remove("stretches");
                }
            }
        }
        json
    };
    assert_eq!(
        without_stretches(&d.join("one")),
        without_stretches(&d.join("m"))
    );
    let (one, merged) = (summary(&d.join("one")), summary(&d.join("m")));
    assert_eq!(merged["games_rated"], one["games_rated"]);
    assert_eq!(merged["games_rated"], 300);
    assert_eq!(merged["games_read"], one["games_read"]);
    let duplicates: Vec<&str> = merged["duplicates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(duplicates, middle);
    assert_eq!(
        merged["duplicates"][0]["shards"].as_array().unwrap().len(),
        2
    );
    assert_eq!(
        merged["duplicates_not_subtracted"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    // The merge's games.csv lists every game once, so it merges again.
    let merged_rows = fs::read_to_string(d.join("m/games.csv")).unwrap();
    assert_eq!(merged_rows.lines().count(), 1 + 300);

    // A duplicate whose log is gone cannot be subtracted: an error naming the log...
    let gone = d.join("gone.ygn");
    fs::copy(&b, &gone).unwrap();
    analyze(&gone, &d.join("g"));
    fs::remove_file(&gone).unwrap();
    let stderr = fails(&refs(&merge_args(d, &["a", "g"], "mg", &[])));
    assert!(
        stderr.contains("20 duplicate games cannot be subtracted"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("cannot find the log {}", gone.display())),
        "{stderr}"
    );
    assert!(stderr.contains("and 10 more"), "{stderr}");
    // ... and with --force they are reported and left counted twice (read and rated alike).
    let (_, stderr) = dicelens(&refs(&merge_args(d, &["a", "g"], "mg", &["--force"])));
    assert!(stderr.contains("duplicate not subtracted"), "{stderr}");
    let s = summary(&d.join("mg"));
    assert_eq!(s["games_rated"], 320);
    assert_eq!(s["games_read"], 320);
    assert_eq!(s["duplicates_not_subtracted"].as_array().unwrap().len(), 20);
}

/// Simulates `games` two-seat games into `dir/all.ygn` and writes the shards `a.ygn` (games
/// `a`) and `b.ygn` (games `b`) beside it; returns the games' texts.
fn shards(
    dir: &Path,
    games: usize,
    a: std::ops::Range<usize>,
    b: std::ops::Range<usize>,
) -> Vec<String> {
    let corpus = dir.join("all.ygn");
    dicelens(&[
        "simulate",
        "--seats",
        "2",
        "--players",
        "4",
        "--games",
        &games.to_string(),
        "--seed",
        "9",
        "--out",
        corpus.to_str().unwrap(),
    ]);
    let text = fs::read_to_string(&corpus).unwrap();
    let games: Vec<String> = text
        .split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .map(str::to_string)
        .collect();
    let shard = |range: std::ops::Range<usize>| games[range].join("\n\n") + "\n\n";
    fs::write(dir.join("a.ygn"), shard(a)).unwrap();
    fs::write(dir.join("b.ygn"), shard(b)).unwrap();
    games
}

/// Simulates the shards of [`shards`] in `dir` and analyses them into `dir/a` and `dir/b`.
fn analysed(
    dir: &Path,
    games: usize,
    a: std::ops::Range<usize>,
    b: std::ops::Range<usize>,
) -> Vec<String> {
    let games = shards(dir, games, a, b);
    analyze(&dir.join("a.ygn"), &dir.join("a"));
    analyze(&dir.join("b.ygn"), &dir.join("b"));
    games
}

/// `merge DIR/INPUT... --out DIR/OUT` and `more`.
fn merge_args(dir: &Path, inputs: &[&str], out: &str, more: &[&str]) -> Vec<String> {
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let mut args = vec!["merge".to_string()];
    args.extend(inputs.iter().map(|input| path(input)));
    args.extend(["--out".to_string(), path(out)]);
    args.extend(more.iter().map(|m| m.to_string()));
    args
}

/// The arguments as `&str`s.
fn refs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// Every file of a directory, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_log_changed_since_its_analysis_fails_the_merge() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let games = analysed(d, 30, 0..20, 10..30);
    // One game of b.ygn that a.ygn holds too gets another player: same id, same lines, other
    // content (merged as it stands, that player would have one game too many).
    let changed = &games[12];
    let players = changed
        .lines()
        .find_map(|l| l.strip_prefix("[Players \""))
        .unwrap();
    let player = players.split(", ").next().unwrap();
    let renamed = changed.replace(player, "newcomer");
    assert_ne!(&renamed, changed, "{changed}");
    assert_eq!(renamed.lines().count(), changed.lines().count());
    let id = changed
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("[Game \"")
        .trim_end_matches("\"]");
    let b_text = fs::read_to_string(d.join("b.ygn")).unwrap();
    let line = b_text[..b_text.find(changed.as_str()).unwrap()]
        .lines()
        .count()
        + 1;
    fs::write(
        d.join("b.ygn"),
        b_text.replacen(changed.as_str(), &renamed, 1),
    )
    .unwrap();
    let (b, m) = (d.join("b"), d.join("m"));
    let stderr = fails(&refs(&merge_args(d, &["a", "b"], "m", &[])));
    let b_log = d.join("b.ygn");
    let expected = format!(
        "{} changed since its analysis: game {id} at line {line} has content hash ",
        b_log.display()
    );
    assert!(
        stderr.contains("1 duplicate game cannot be subtracted"),
        "{stderr}"
    );
    assert!(stderr.contains(&expected), "{expected}\n{stderr}");
    assert!(
        stderr.contains(&format!("{} says ", b.join("games.csv").display())),
        "{stderr}"
    );
    assert!(!m.join("summary.json").exists());
    // With --force: merged, the changed game left counted twice, and said so.
    let (_, stderr) = dicelens(&refs(&merge_args(d, &["a", "b"], "m", &["--force"])));
    assert!(stderr.contains(&expected), "{stderr}");
    let s = summary(&m);
    assert_eq!(s["games_rated"], 31);
    assert_eq!(s["games_read"], 31);
    let not = s["duplicates_not_subtracted"].as_array().unwrap();
    assert_eq!(not.len(), 1, "{not:?}");
    assert_eq!(not[0]["game_id"], id);
    assert_eq!(not[0]["line"], line);
    assert!(not[0]["detail"].as_str().unwrap().starts_with(&expected));
    // The game stays in games.csv twice, so a later merge (once the log is right) can
    // subtract it.
    let rows = fs::read_to_string(m.join("games.csv")).unwrap();
    assert_eq!(rows.lines().count(), 1 + 31);
}

#[test]
fn a_merge_from_another_directory_finds_the_logs_and_gives_the_same_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("work");
    let elsewhere = dir.path().join("elsewhere");
    fs::create_dir_all(&d).unwrap();
    fs::create_dir_all(&elsewhere).unwrap();
    shards(&d, 30, 0..20, 10..30);
    // Analysed from `work`, the logs named relative to it.
    for shard in ["a", "b"] {
        dicelens_in(
            Some(&d),
            &[
                "analyze",
                &format!("{shard}.ygn"),
                "--oracle",
                "e",
                "--out",
                shard,
            ],
        );
    }
    let rows = fs::read_to_string(d.join("b/games.csv")).unwrap();
    assert!(rows.lines().nth(1).unwrap().contains(",b.ygn,1,"), "{rows}");
    let (a, b) = (d.join("a"), d.join("b"));
    let merge_from = |cwd: &Path, out: &Path| -> PathBuf {
        dicelens_in(
            Some(cwd),
            &[
                "merge",
                a.to_str().unwrap(),
                b.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
        );
        out.to_path_buf()
    };
    let here = merge_from(&d, &dir.path().join("m-here"));
    let there = merge_from(&elsewhere, &dir.path().join("m-there"));
    let s = summary(&there);
    assert_eq!(s["games_rated"], 30);
    assert_eq!(s["duplicates"].as_array().unwrap().len(), 10);
    assert_eq!(s["duplicates_not_subtracted"], serde_json::json!([]));
    let (here, there) = (files(&here), files(&there));
    assert_eq!(
        here.keys().collect::<Vec<_>>(),
        there.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &here {
        assert!(there[name] == *bytes, "{name} differs");
    }
    // The logs moved with the analyses (a copy of the tree elsewhere): found by the path as
    // given, from the new working directory, and the content hash says they are the same.
    let moved = dir.path().join("moved");
    fs::create_dir_all(moved.join("a")).unwrap();
    fs::create_dir_all(moved.join("b")).unwrap();
    for file in ["a.ygn", "b.ygn"] {
        fs::copy(d.join(file), moved.join(file)).unwrap();
    }
    for shard in ["a", "b"] {
        for (name, bytes) in files(&d.join(shard)) {
            // The absolute paths recorded are those of the old tree, now gone.
            fs::write(moved.join(shard).join(name), bytes).unwrap();
        }
    }
    fs::remove_dir_all(&d).unwrap();
    dicelens_in(Some(&moved), &["merge", "a", "b", "--out", "m"]);
    let s = summary(&moved.join("m"));
    assert_eq!(s["games_rated"], 30);
    assert_eq!(s["duplicates_not_subtracted"], serde_json::json!([]));
}

/// Writes `content` over `name` of the analysis in `dir`, and its new size into the
/// directory's manifest, so the analysis is still complete (as a hand edit or a tool other
/// than dicelens that keeps the manifest would leave it).
fn edit_output(dir: &Path, name: &str, content: String) {
    fs::write(dir.join(name), &content).unwrap();
    let path = dir.join(".dicelens-outputs");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    manifest["files"][name] = serde_json::json!(content.len());
    fs::write(&path, manifest.to_string()).unwrap();
}

#[test]
fn shards_without_content_hashes_cannot_be_checked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    analysed(d, 12, 0..8, 4..12);
    // b as an older dicelens wrote it: games.csv without the last two columns.
    let rows = fs::read_to_string(d.join("b/games.csv")).unwrap();
    let old: String = rows
        .lines()
        .map(|row| row.splitn(4, ',').take(3).collect::<Vec<_>>().join(",") + "\n")
        .collect();
    assert!(old.starts_with("game_id,file,line\n"), "{old}");
    edit_output(&d.join("b"), "games.csv", old);
    let stderr = fails(&refs(&merge_args(d, &["a", "b"], "m", &[])));
    assert!(
        stderr.contains("4 duplicate games cannot be subtracted"),
        "{stderr}"
    );
    assert!(stderr.contains("no content hash for game"), "{stderr}");
    dicelens(&refs(&merge_args(d, &["a", "b"], "m", &["--force"])));
    let s = summary(&d.join("m"));
    assert_eq!(s["games_rated"], 16);
    assert_eq!(s["duplicates_not_subtracted"].as_array().unwrap().len(), 4);
}

#[test]
fn counters_that_would_overflow_are_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    analysed(d, 4, 0..2, 2..4);
    // a's games counter (of its part in points) at the u64 maximum: adding b's overflows it.
    let path = d.join("a/aggregates.json");
    let mut aggregates: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    aggregates["points/13"]["games"] = serde_json::json!(u64::MAX);
    edit_output(&d.join("a"), "aggregates.json", aggregates.to_string());
    for more in [&[][..], &["--partitions"]] {
        let stderr = fails(&refs(&merge_args(d, &["a", "b"], "m", more)));
        let expected = format!(
            "{}: added to the analyses before it, the counter points/13.games overflows (the sum \
             does not fit in 64 bits)",
            d.join("b/aggregates.json").display()
        );
        assert!(stderr.contains(&expected), "{expected}\n{stderr}");
    }
}
