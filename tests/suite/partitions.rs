//! A corpus analysed by partitions, as the Spark job runs it: whole files and byte ranges of a
//! large file, each partition analysed apart with `--seen-ids` (the ids `dicelens ids` prints
//! for the partitions before it), then `merge --partitions`: every output byte for byte that of
//! one `analyze` of the corpus (but the pages: the merge's player pages have no worst decisions,
//! and it writes no game page), and the same leaderboard on stdout, with game ids repeated
//! across files and partitions, malformed games and a file of no known format. Also the usage
//! errors of the flags, and `ids` output that round-trips awkward ids.

use crate::common::{csv_rows, run, run_ok, text};
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Runs `simulate` with `flags` (separated by spaces) into `out`.
fn simulate(out: &Path, flags: &str) {
    let mut args = vec!["simulate"];
    args.extend(flags.split_whitespace());
    args.extend(["--out", arg(out)]);
    run_ok(&args, 2);
}

/// A path as an argument.
fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The games of a YGN log written by `simulate` (games are separated by blank lines).
fn ygn_games(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .split("\n\n")
        .filter(|game| !game.trim().is_empty())
        .map(|game| format!("{game}\n\n"))
        .collect()
}

/// The id in a YGN game's `Game` tag (its first line).
fn ygn_id(game: &str) -> &str {
    let first = game.lines().next().unwrap();
    first
        .strip_prefix("[Game \"")
        .and_then(|rest| rest.strip_suffix("\"]"))
        .unwrap()
}

/// The ids of a CSV that `ids` printed.
fn parse_ids(csv_text: &str) -> Vec<String> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        ["game_id"]
    );
    reader
        .records()
        .map(|record| record.unwrap()[0].to_string())
        .collect()
}

/// Writes `ids` as the CSV `--seen-ids` reads.
fn write_ids(path: &Path, ids: &[&str]) {
    let mut writer = csv::Writer::from_path(path).unwrap();
    writer.write_record(["game_id"]).unwrap();
    for id in ids {
        writer.write_record([id]).unwrap();
    }
    writer.flush().unwrap();
}

/// One partition: a file, and a byte range of it (`None`: the whole file).
struct Partition {
    file: PathBuf,
    range: Option<(usize, usize)>,
}

impl Partition {
    /// `FILE` and, for a range, `--byte-range START:END`.
    fn args(&self) -> Vec<String> {
        let mut args = vec![arg(&self.file).to_string()];
        if let Some((start, end)) = self.range {
            args.extend(["--byte-range".to_string(), format!("{start}:{end}")]);
        }
        args
    }
}

/// `file` cut at `cuts` into adjacent ranges from 0 to its length.
fn ranges(file: &Path, cuts: &[usize]) -> Vec<Partition> {
    let len = fs::metadata(file).unwrap().len() as usize;
    let mut bounds = vec![0];
    bounds.extend(cuts);
    bounds.push(len);
    bounds
        .windows(2)
        .map(|pair| Partition {
            file: file.to_path_buf(),
            range: Some((pair[0], pair[1])),
        })
        .collect()
}

/// Analyses each partition into `dir/pN` as a driver does: the ids of the partitions before
/// it that it holds too are its `--seen-ids`. Returns the shard directories, in order.
fn analyze_partitions(dir: &Path, partitions: &[Partition], flags: &[&str]) -> Vec<PathBuf> {
    let mut before: HashSet<String> = HashSet::new();
    let mut shards = Vec::new();
    for (i, partition) in partitions.iter().enumerate() {
        let mut ids_args = vec!["ids".to_string()];
        ids_args.extend(partition.args());
        let ids_args: Vec<&str> = ids_args.iter().map(String::as_str).collect();
        let ids = parse_ids(&run_ok(&ids_args, 2));
        let seen: Vec<&str> = ids
            .iter()
            .filter(|id| before.contains(*id))
            .map(String::as_str)
            .collect();
        let seen_file = dir.join(format!("seen{i}.csv"));
        write_ids(&seen_file, &seen);
        let shard = dir.join(format!("p{i}"));
        let mut args = vec!["analyze".to_string()];
        args.extend(partition.args());
        args.extend(flags.iter().map(|f| f.to_string()));
        args.extend([
            "--seen-ids".into(),
            arg(&seen_file).into(),
            "--out".into(),
            arg(&shard).into(),
        ]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run_ok(&args, 2);
        before.extend(ids);
        shards.push(shard);
    }
    shards
}

/// The names of the entries of `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The manifest of `dir` without the pages (`players/`, `games/`).
fn manifest_without_pages(dir: &Path) -> serde_json::Value {
    let text = fs::read_to_string(dir.join(".dicelens-outputs")).unwrap();
    let mut manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    let files = manifest["files"].as_object_mut().unwrap();
    files.retain(|name, _| !name.starts_with("players/") && !name.starts_with("games/"));
    manifest
}

/// Asserts that `one` (an analysis) and `merged` (the merge of its partitions) hold the same
/// files with the same bytes, but the pages: the same player pages (without worst decisions
/// in the merge, whose aggregates keep none), and no game page in the merge.
fn assert_same_outputs(one: &Path, merged: &Path) {
    let files = |dir: &Path| -> Vec<String> {
        names(dir)
            .into_iter()
            .filter(|n| dir.join(n).is_file() && n != ".dicelens-outputs")
            .collect()
    };
    assert_eq!(files(one), files(merged));
    assert_eq!(manifest_without_pages(one), manifest_without_pages(merged));
    assert_eq!(names(&one.join("players")), names(&merged.join("players")));
    assert!(!names(&one.join("players")).is_empty());
    assert_eq!(names(&merged.join("games")), Vec::<String>::new());
    // The accuracy sums merge too: every player with a non-forced decision has one.
    for (name, row) in csv_rows(&merged.join("players.csv")) {
        assert_eq!(row["unforced"] == "0", row["accuracy"].is_empty(), "{name}");
    }
    for name in names(&merged.join("players")) {
        let page = fs::read_to_string(merged.join("players").join(name)).unwrap();
        assert!(page.contains("merged analysis"), "{page}");
    }
    for name in files(one) {
        let (x, y) = (
            fs::read(one.join(&name)).unwrap(),
            fs::read(merged.join(&name)).unwrap(),
        );
        if x != y {
            let (x, y) = (text(&x), text(&y));
            let (line, (x, y)) = x
                .lines()
                .zip(y.lines())
                .enumerate()
                .find(|(_, (x, y))| x != y)
                .unwrap_or((0, ("(a line more or less)", "")));
            panic!("{name} differs, first at line {}:\n{x}\n---\n{y}", line + 1);
        }
    }
}

/// The merged partitions give the outputs and stdout of `one`, the analysis of the whole.
fn merge_and_compare(dir: &Path, shards: &[PathBuf], flags: &[&str], one: &Path, stdout: &str) {
    let merged = dir.join("merged");
    let mut args = vec!["merge", "--partitions"];
    args.extend(shards.iter().map(|s| arg(s)));
    args.extend(flags);
    args.extend(["--out", arg(&merged)]);
    let merged_stdout = run_ok(&args, 2);
    assert_eq!(merged_stdout, stdout);
    assert_same_outputs(one, &merged);
}

/// The corpus: `a.ygn` (whole), `b.jsonl`, `big.ygn`, `v.txt` (Verhoeff) and `junk.txt` (no
/// known format), with ids repeated across files and within the large one, and broken games.
/// Returns the files and the cut points of `big.ygn` (inside a broken game, inside a line, in a
/// run of blank lines).
fn corpus(d: &Path) -> (Vec<PathBuf>, Vec<usize>) {
    let all = d.join("all.ygn");
    simulate(&all, "--seats 2 --players 8 --games 160 --seed 7");
    let games = ygn_games(&all);
    let a = d.join("a.ygn");
    fs::write(&a, games[..40].concat()).unwrap();

    // b.jsonl: games 40..70, one of them an id of a.ygn, then a broken event.
    let b_ygn = d.join("b-source.ygn");
    let mut b_games = games[40..70].to_vec();
    b_games.insert(10, games[3].clone());
    fs::write(&b_ygn, b_games.concat()).unwrap();
    let b = d.join("b.jsonl");
    run_ok(
        &["convert", arg(&b_ygn), "--to", "jsonl", "--out", arg(&b)],
        2,
    );
    let mut jsonl = fs::read_to_string(&b).unwrap();
    let broken = jsonl.find("\"event\":\"keep\"").unwrap();
    jsonl.replace_range(broken..broken + 14, "\"event\":\"kept\"");
    fs::write(&b, jsonl).unwrap();

    // big.ygn: games 70..160, with ids of a.ygn and b.jsonl and of its own, broken games, blank
    // lines and a stray line.
    let mut big: Vec<String> = games[70..160].to_vec();
    big[20] = big[20].replacen("1. ", "1. nobody: 12345 C\n1. ", 1); // unknown player
    big[45] = big[45].replacen(": ", ": 7", 1); // a die 7, in a turn line
    big.insert(60, games[5].clone()); // an id of a.ygn
    big.insert(30, games[45].clone()); // an id of b.jsonl
    big.insert(75, big[10].clone()); // its own id, in another partition
    big.insert(12, big[11].clone()); // its own id, in the same partition
    big.insert(50, "\n\n\n\n\n\n".to_string());
    big.insert(0, "% a corpus\n\n".to_string());
    big.insert(3, "1. stray: 12345 C\n".to_string()); // in the body of the game before
    let text = big.concat();
    let at = |needle: &str| text.find(needle).unwrap();
    let mut cuts = vec![
        at("1. nobody") + 5,      // inside a broken game, inside its line
        at("\n\n\n\n\n\n\n") + 3, // in a run of blank lines
        at(&format!("[Game \"{}\"]", ygn_id(&big[80]))) + 2, // inside a game's first line
        at(": 7") - 1,            // inside the other broken game
    ];
    cuts.sort_unstable();
    let big_path = d.join("big.ygn");
    fs::write(&big_path, text).unwrap();

    let v = d.join("v.txt");
    simulate(
        &v,
        "--rules yahtzee-free --players 1 --games 12 --seed 2 --format verhoeff",
    );
    let junk = d.join("junk.txt");
    fs::write(&junk, "hello\nworld\n").unwrap();
    (vec![a, b, big_path, v, junk], cuts)
}

#[test]
fn partitions_merge_to_the_analysis_of_the_whole_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (files, cuts) = corpus(d);
    let flags = ["--oracle", "e", "--decisions", "--min-games", "5"];

    let one = d.join("one");
    let mut args = vec!["analyze"];
    args.extend(files.iter().map(|f| arg(f)));
    args.extend(flags);
    args.extend(["--out", arg(&one)]);
    let stdout = run_ok(&args, 2);
    // The corpus holds what the partitions must get right.
    let summary: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(one.join("summary.json")).unwrap()).unwrap();
    let duplicates = summary["skipped"]["duplicate game id"].as_array();
    assert_eq!(duplicates.map(Vec::len), Some(5), "{summary:#}");
    assert!(summary["skipped"]["syntax error"].as_array().unwrap().len() >= 3);
    assert_eq!(summary["files_skipped"].as_array().unwrap().len(), 1);
    assert!(summary["games_rated"].as_u64().unwrap() > 150);

    let [a, b, big, v, junk] = &files[..] else {
        unreachable!()
    };
    let len = |file: &Path| fs::metadata(file).unwrap().len() as usize;
    let mut partitions = vec![Partition {
        file: a.clone(),
        range: None,
    }];
    partitions.extend(ranges(b, &[len(b) / 3]));
    partitions.extend(ranges(big, &cuts));
    partitions.extend(ranges(v, &[len(v) / 2 + 1]));
    partitions.extend(ranges(junk, &[3]));
    let shards = analyze_partitions(d, &partitions, &flags);
    merge_and_compare(d, &shards, &["--min-games", "5"], &one, &stdout);

    // Without --seen-ids, a game of a.ygn repeated in big.ygn is rated twice: no partition.
    let (big_shard, repeated) = (d.join("big-alone"), ygn_id(&ygn_games(a)[5]).to_string());
    let big_args = [
        "analyze",
        arg(big),
        "--oracle",
        "e",
        "--decisions",
        "--out",
        arg(&big_shard),
    ];
    run_ok(&big_args, 2);
    let out = run(
        &[
            "merge",
            "--partitions",
            arg(&shards[0]),
            arg(&big_shard),
            "--out",
            arg(&d.join("bad")),
        ],
        2,
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    for words in [
        repeated.as_str(),
        arg(&shards[0]),
        arg(&big_shard),
        "--seen-ids",
    ] {
        assert!(stderr.contains(words), "{words}: {stderr}");
    }
}

/// Games of two players with the default oracle (match points, distribution tables built on
/// first use): the merged summary names the oracle and its parameters as `analyze` does.
#[test]
fn partitions_merge_with_the_default_oracle() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let all = d.join("all.ygn");
    simulate(&all, "--seats 2 --players 4 --games 8 --seed 9");
    let mut games = ygn_games(&all);
    games.push(games[1].clone());
    fs::write(&all, games.concat()).unwrap();
    let flags = ["--min-games", "1"];
    let one = d.join("one");
    let stdout = run_ok(
        &["analyze", arg(&all), "--min-games", "1", "--out", arg(&one)],
        2,
    );
    let len = fs::metadata(&all).unwrap().len() as usize;
    let partitions = ranges(&all, &[len / 3, 2 * len / 3]);
    let shards = analyze_partitions(d, &partitions, &flags);
    merge_and_compare(d, &shards, &flags, &one, &stdout);
}

/// Runs the binary and checks its exit code and that stderr says each of `words`.
fn assert_fails(args: &[&str], code: i32, words: &[&str]) {
    let out = run(args, 1);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    for word in words {
        assert!(stderr.contains(word), "{args:?}: {word:?} not in {stderr}");
    }
}

#[test]
fn bad_ranges_seen_ids_and_partitions_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let log = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ygn/valid.ygn");
    let log = arg(&log);
    let out = d.join("out");
    let out = arg(&out);
    for command in ["analyze", "ids"] {
        let args = [command, log, log, "--byte-range", "0:10", "--out", out];
        let args = if command == "ids" {
            &args[..5]
        } else {
            &args[..]
        };
        assert_fails(args, 2, &["--byte-range", "one file", "2 files"]);
        for (range, words) in [
            ("10:3", "START is after END"),
            ("x:3", "START \"x\" is not a whole number"),
            ("3:", "END \"\" is not a whole number"),
            ("310", "no `:`"),
        ] {
            let args = [command, log, "--byte-range", range, "--out", out];
            let args = if command == "ids" {
                &args[..4]
            } else {
                &args[..]
            };
            assert_fails(args, 2, &["--byte-range", "START:END", words]);
        }
    }
    let missing = d.join("missing.csv");
    assert_fails(
        &["analyze", log, "--seen-ids", arg(&missing), "--out", out],
        2,
        &["--seen-ids", arg(&missing), "cannot read"],
    );
    for (content, words) in [
        ("id\nx\n", ":1: expected the header `game_id`"),
        ("game_id,file\nx,y\n", ":1: expected the header `game_id`"),
        (
            "game_id\nx\ny,z\n",
            ":3: expected one field (a game id), found 2 fields",
        ),
        ("", ":1: expected the header `game_id`, found an empty file"),
    ] {
        let bad = d.join("bad.csv");
        fs::write(&bad, content).unwrap();
        let path = arg(&bad);
        assert_fails(
            &["analyze", log, "--seen-ids", path, "--out", out],
            2,
            &["--seen-ids", path, words],
        );
    }

    // A file that cannot be read is counted by the range at its first byte; a later range
    // fails (its games would be lost otherwise), so that a passing fault is retried.
    let gone = d.join("gone.ygn");
    let summary = |dir: &str| -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(Path::new(dir).join("summary.json")).unwrap())
            .unwrap()
    };
    run_ok(
        &["analyze", arg(&gone), "--byte-range", "0:10", "--out", out],
        1,
    );
    let skipped = summary(out)["files_skipped"].to_string();
    assert!(skipped.contains("gone.ygn: cannot open"), "{skipped}");
    assert_fails(
        &["analyze", arg(&gone), "--byte-range", "10:20", "--out", out],
        1,
        &["gone.ygn: cannot open", "the byte range cannot be read"],
    );
    // `ids` alike: its ids would be missing from the partitions after the range.
    run_ok(&["ids", arg(&gone), "--byte-range", "0:10"], 1);
    assert_fails(
        &["ids", arg(&gone), "--byte-range", "10:20"],
        1,
        &["gone.ygn: cannot open", "the byte range cannot be read"],
    );
    // An unrecognised format is no passing fault: the later range reads no game, quietly.
    let junk = d.join("junk.txt");
    fs::write(&junk, "no games here\n".repeat(10)).unwrap();
    run_ok(
        &["analyze", arg(&junk), "--byte-range", "10:20", "--out", out],
        1,
    );
    assert_eq!(summary(out)["files_skipped"], serde_json::json!([]));
    assert_eq!(summary(out)["games_read"], 0);

    // Shards analysed with other flags are not partitions of one analysis.
    let (e, emp, plain) = (d.join("e"), d.join("emp"), d.join("plain"));
    let solo = d.join("solo.ygn");
    simulate(&solo, "--games 3");
    run_ok(
        &[
            "analyze",
            arg(&solo),
            "--oracle",
            "e",
            "--decisions",
            "--out",
            arg(&e),
        ],
        1,
    );
    run_ok(
        &[
            "analyze",
            arg(&solo),
            "--oracle",
            "emp:1",
            "--decisions",
            "--out",
            arg(&emp),
        ],
        1,
    );
    run_ok(
        &["analyze", arg(&solo), "--oracle", "e", "--out", arg(&plain)],
        1,
    );
    let merged = d.join("m");
    assert_fails(
        &[
            "merge",
            "--partitions",
            arg(&e),
            arg(&emp),
            "--out",
            arg(&merged),
        ],
        1,
        &[arg(&e), arg(&emp), "analysed differently", "same flags"],
    );
    assert_fails(
        &[
            "merge",
            "--partitions",
            arg(&e),
            arg(&plain),
            "--out",
            arg(&merged),
        ],
        1,
        &[arg(&e), arg(&plain), "decisions.csv", "--decisions"],
    );
    // The same games twice: each id rated in both.
    assert_fails(
        &[
            "merge",
            "--partitions",
            arg(&e),
            arg(&e),
            "--out",
            arg(&merged),
        ],
        1,
        &["is rated in", "--seen-ids", "not analyses of partitions"],
    );
}

#[test]
fn ids_round_trip_commas_quotes_and_line_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ygn = d.join("g.ygn");
    simulate(&ygn, "--games 2 --seed 4");
    let games = ygn_games(&ygn);
    let (first, second) = (ygn_id(&games[0]).to_string(), ygn_id(&games[1]).to_string());
    // YGN: a comma and an escaped quote in a tag value.
    let text = fs::read_to_string(&ygn)
        .unwrap()
        .replace(&format!("\"{first}\""), "\"a,\\\"b\\\" c\"");
    fs::write(&ygn, text).unwrap();
    // JSONL: a line break too (escaped in JSON).
    let jsonl = d.join("g.jsonl");
    run_ok(
        &["convert", arg(&ygn), "--to", "jsonl", "--out", arg(&jsonl)],
        1,
    );
    let text = fs::read_to_string(&jsonl)
        .unwrap()
        .replace(&format!("\"{second}\""), "\"x,\\\"y\\\"\\nz\"");
    fs::write(&jsonl, text).unwrap();

    let ids = parse_ids(&run_ok(&["ids", arg(&ygn), arg(&jsonl)], 1));
    let weird = ["a,\"b\" c".to_string(), "x,\"y\"\nz".to_string()];
    assert_eq!(
        ids,
        [&weird[0], &second, &weird[0], &weird[1]].map(String::as_str)
    );

    // What `ids` prints, `--seen-ids` reads back: those games are duplicates. A partition
    // that rates no game is written with --allow-empty (and is a failure without it).
    let seen = d.join("seen.csv");
    fs::write(&seen, run_ok(&["ids", arg(&jsonl)], 1)).unwrap();
    let out = d.join("out");
    let mut args = vec![
        "analyze",
        arg(&jsonl),
        "--oracle",
        "e",
        "--seen-ids",
        arg(&seen),
        "--out",
        arg(&out),
    ];
    assert_fails(&args, 1, &["no game rated: all 2 games read were skipped"]);
    assert!(!out.exists());
    args.push("--allow-empty");
    run_ok(&args, 1);
    let summary: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["games_rated"], 0);
    let duplicates: Vec<&str> = summary["skipped"]["duplicate game id"]
        .as_array()
        .unwrap()
        .iter()
        .map(|place| place["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(duplicates, [weird[0].as_str(), weird[1].as_str()]);
}
