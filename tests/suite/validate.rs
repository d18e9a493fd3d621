//! `dicelens validate` end to end: the verdict and the first violation of fixture games, exit
//! codes, one line per decision the replay makes, totals that add up (to the per-line losses,
//! and to the final score through luck), JSON that says the same as the text, Verhoeff's
//! published example, and a simulated game's ground truth.

use crate::common::{find_game, replayed};
use dicelens::replay::{Replayed, Skip};
use dicelens_parsers::GameRecord;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// A table directory shared by the tests of this binary, its tables built once.
fn tables_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let built = Command::new(env!("CARGO_BIN_EXE_dicelens"))
            .args(["tables", "build", "--rules", "all", "--tables"])
            .arg(dir.path())
            .output()
            .expect("the binary runs");
        assert!(built.status.success(), "{}", text(&built.stderr));
        dir
    })
    .path()
}

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(path)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `dicelens validate FILE ARGS...`.
fn validate(file: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .arg("validate")
        .arg(file)
        // Checked against solitaire `eval`; match points are checked in tests/distributions.rs.
        .args(["--oracle", "e"])
        .args(args)
        .env("DICELENS_TABLES", tables_dir())
        .output()
        .expect("the binary runs")
}

/// One decision line of the text report.
#[derive(Debug)]
struct Line {
    round: u16,
    player: String,
    loss: f64,
    marker: String,
    text: String,
}

/// One player's totals line.
#[derive(Debug)]
struct Totals {
    player: String,
    decisions: usize,
    total_error: f64,
    luck: f64,
    points: Option<u32>,
    result: Option<u32>,
}

/// The text report, parsed.
#[derive(Debug)]
struct Report {
    verdict: String,
    lines: Vec<Line>,
    totals: Vec<Totals>,
}

/// The rows of the table whose header line starts with `header`, up to a blank line.
fn rows<'a>(lines: &[&'a str], header: &str) -> Vec<&'a str> {
    lines
        .iter()
        .position(|l| l.trim_start().starts_with(header))
        .map(|start| {
            lines[start + 1..]
                .iter()
                .take_while(|l| !l.trim().is_empty())
                .copied()
                .collect()
        })
        .unwrap_or_default()
}

fn parse(stdout: &str) -> Report {
    let all: Vec<&str> = stdout.lines().collect();
    let lines = rows(&all, "round ")
        .into_iter()
        .map(|row| {
            let mut tokens: Vec<&str> = row.split_whitespace().collect();
            let marker = match tokens.last() {
                Some(t) if t.chars().all(|c| c == '*') => tokens.pop().unwrap_or_default(),
                _ => "",
            };
            Line {
                round: tokens[0].parse().unwrap(),
                player: tokens[1].to_string(),
                loss: tokens.last().unwrap().parse().unwrap(),
                marker: marker.to_string(),
                text: row.to_string(),
            }
        })
        .collect();
    let totals = rows(&all, "player ")
        .into_iter()
        .map(|row| {
            let t: Vec<&str> = row.split_whitespace().collect();
            assert_eq!(t.len(), 11, "{row}");
            Totals {
                player: t[0].to_string(),
                decisions: t[1].parse().unwrap(),
                total_error: t[2].parse().unwrap(),
                luck: t[8].parse().unwrap(),
                points: t[9].parse().ok(),
                result: t[10].parse().ok(),
            }
        })
        .collect();
    Report {
        verdict: all.first().copied().unwrap_or_default().to_string(),
        lines,
        totals,
    }
}

/// The lines and totals agree with the replay and with each other.
fn check_lines_and_totals(report: &Report, game: &GameRecord, replay: &Replayed, context: &str) {
    assert_eq!(
        report.lines.len(),
        replay.decisions.len(),
        "{context}: one line per decision"
    );
    for (line, d) in report.lines.iter().zip(&replay.decisions) {
        assert_eq!(line.round, d.round, "{context}: {}", line.text);
        assert_eq!(
            line.player,
            game.players[usize::from(d.seat)],
            "{context}: {}",
            line.text
        );
        let expected_marker = match line.loss {
            l if l >= 5.0 => "***",
            l if l >= 1.0 => "**",
            l if l >= 0.01 => "*",
            _ => "",
        };
        // A loss printed at 4 decimals can round onto a threshold; away from them the
        // marker follows Verhoeff's thresholds.
        if [0.01, 1.0, 5.0]
            .iter()
            .all(|t| (line.loss - t).abs() > 1e-4)
        {
            assert_eq!(line.marker, expected_marker, "{context}: {}", line.text);
        }
    }
    assert_eq!(report.totals.len(), game.players.len(), "{context}");
    for t in &report.totals {
        let mine: Vec<&Line> = report
            .lines
            .iter()
            .filter(|l| l.player == t.player)
            .collect();
        assert_eq!(t.decisions, mine.len(), "{context}: {}", t.player);
        let sum: f64 = mine.iter().map(|l| l.loss).sum();
        // Each printed loss is rounded to 4 decimals, the total to 6.
        let slack = 0.5e-4 * mine.len() as f64 + 1e-6;
        assert!(
            (t.total_error - sum).abs() <= slack,
            "{context}: {}: total error {} against the lines' sum {sum}",
            t.player,
            t.total_error
        );
    }
}

#[test]
fn legal_games_are_legal_with_one_line_per_decision_and_totals_that_add_up() {
    let valid = fixture("ygn/valid.ygn");
    let no_tag_id = format!("{}:63", valid.display());
    let cases = [
        (
            fixture("replay/keep_not_in_roll.ygn"),
            "keep_not_in_roll-0000001",
        ),
        (valid.clone(), "valid-1"),
        (valid.clone(), "valid-2"),
        (valid.clone(), no_tag_id.as_str()),
        (fixture("ygn/bad_die.ygn"), "bad_die-1"),
        (fixture("verhoeff/table_game.txt"), ""),
    ];
    for (path, id) in &cases {
        let args: Vec<&str> = if id.is_empty() {
            vec![]
        } else {
            vec!["--game", id]
        };
        let out = validate(path, &args);
        let stdout = text(&out.stdout);
        let context = format!("{} {id}", path.display());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{context}: {}",
            text(&out.stderr)
        );
        let report = parse(&stdout);
        assert_eq!(report.verdict, "verdict: legal", "{context}");
        let id = if id.is_empty() {
            // A Verhoeff game's id: the file's name (without directories) and its first line.
            let name = path.file_name().unwrap().to_string_lossy();
            format!("{name}:3")
        } else {
            id.to_string()
        };
        let game = find_game(path, &id);
        let (replay, result) = replayed(&game);
        assert!(result.is_ok(), "{context}");
        assert!(replay.complete, "{context}");
        check_lines_and_totals(&report, &game, &replay, &context);
        let rules = replay.rules.and_then(|r| r.yahtzee()).unwrap();
        for (seat, t) in report.totals.iter().enumerate() {
            let points = replay.finals()[seat].points();
            assert_eq!(
                t.points.map(i64::from),
                Some(points),
                "{context}: {}",
                t.player
            );
            if let Some(result) = &game.result {
                assert_eq!(t.result, Some(result[seat]), "{context}");
            }
            // Every roll moves the value by its luck and every choice loses its error, from
            // the empty sheet's value to the final score.
            let through = rules.published_empty_sheet_value().unwrap() + t.luck - t.total_error;
            assert!(
                (through - points as f64).abs() < 1e-4,
                "{context}: {}: {through} against {points} points",
                t.player
            );
        }
    }
}

#[test]
fn verhoeffs_published_example_is_on_its_line() {
    let out = validate(&fixture("verhoeff/table_game.txt"), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = parse(&text(&out.stdout));
    // The published position (docs/rules.md): turn 7, _2__5_TF__LYC;15-, 103 points, 12344;2: keeping 1234 is worth
    // 243.10, OSYP keeps 234 for 243.41, Delta 0.31, marker *.
    let line = report
        .lines
        .iter()
        .find(|l| l.text.contains("12344;2"))
        .expect("the line of the published position");
    let tokens: Vec<&str> = line.text.split_whitespace().collect();
    assert_eq!(
        tokens,
        [
            "7",
            "table_game",
            "_2__5_TF__LYC;15-",
            "48",
            "103",
            "12344;2",
            "keep",
            "1234",
            "243.0982",
            "keep",
            "234",
            "243.4088",
            "0.3106",
            "*"
        ],
        "{}",
        line.text
    );
}

/// The games of `fixtures/replay/EXPECTED.csv` that break a rule: (file, id, reason, line).
fn expected_violations() -> Vec<(String, String, String, u64)> {
    let csv = std::fs::read_to_string(fixture("replay/EXPECTED.csv")).unwrap();
    csv.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let rule_broken =
                f[2] == "skipped" && !f[3].starts_with("unfinished") && f[3] != "duplicate game id";
            rule_broken.then(|| {
                (
                    f[0].to_string(),
                    f[1].to_string(),
                    f[3].to_string(),
                    f[4].parse().unwrap(),
                )
            })
        })
        .collect()
}

#[test]
fn illegal_games_give_their_first_violation_and_the_decisions_before_it() {
    let cases = expected_violations();
    for named in ["wrong_points-0000002", "joker-1", "box_twice-0000002"] {
        assert!(
            cases.iter().any(|c| c.1 == named),
            "{named} in EXPECTED.csv"
        );
    }
    for (file, id, reason, line) in &cases {
        let path = fixture(&format!("replay/{file}"));
        let out = validate(&path, &["--game", id]);
        let context = format!("{file} {id}");
        assert_eq!(
            out.status.code(),
            Some(1),
            "{context}: {}",
            text(&out.stderr)
        );
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{context}: {stderr}");
        let report = parse(&text(&out.stdout));
        let head = format!("verdict: ILLEGAL: line {line}");
        assert!(
            report.verdict.starts_with(&head),
            "{context}: {}",
            report.verdict
        );
        assert!(
            report
                .verdict
                .contains(&format!(": {reason}: the log says ")),
            "{context}: {}",
            report.verdict
        );
        assert!(report.verdict.contains(", the rules give "), "{context}");

        let game = find_game(&path, id);
        let (replay, result) = replayed(&game);
        let Err(Skip::Invalid(violation)) = result else {
            panic!("{context}: the replay finds it legal");
        };
        assert_eq!(violation.line, *line, "{context}");
        // The replay keeps the decisions before the violation, and validate rates them all.
        if let Some(round) = violation.round {
            assert!(replay.decisions.iter().all(|d| d.round <= round));
        }
        if replay.decisions.is_empty() {
            assert!(report.lines.is_empty(), "{context}");
        } else {
            check_lines_and_totals(&report, &game, &replay, &context);
        }
    }
    // The three the brief names have decisions before their violation.
    for (file, id, n) in [
        ("wrong_points.ygn", "wrong_points-0000002", 1),
        ("wrong_joker_points.ygn", "joker-1", 3),
        ("box_twice.ygn", "box_twice-0000002", 1),
    ] {
        let out = validate(&fixture(&format!("replay/{file}")), &["--game", id]);
        let report = parse(&text(&out.stdout));
        assert!(report.lines.len() >= n, "{id}: {}", text(&out.stdout));
        if id == "joker-1" {
            // Round 1 only: the joker of round 2 is the violation.
            assert_eq!(report.lines.len(), 3);
            assert_eq!(report.totals[0].points, Some(12));
        }
    }
}

#[test]
fn an_unfinished_game_is_legal_and_says_so() {
    let path = fixture("replay/abandoned.ygn");
    let out = validate(&path, &["--game", "abandoned-0000002"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = parse(&text(&out.stdout));
    assert!(
        report
            .verdict
            .starts_with("verdict: legal (unfinished: Termination abandoned"),
        "{}",
        report.verdict
    );
    let game = find_game(&path, "abandoned-0000002");
    let (replay, result) = replayed(&game);
    assert!(result.is_ok() && !replay.complete);
    check_lines_and_totals(&report, &game, &replay, "abandoned-0000002");
}

#[test]
fn a_syntax_error_in_the_game_is_illegal_with_its_place() {
    let path = fixture("ygn/bad_die.ygn");
    let out = validate(&path, &["--game", "bad_die-2"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("verdict: ILLEGAL: syntax error: ")
            && first.contains("bad_die.ygn:30:11: game bad_die-2: expected a die 1-6"),
        "{first}"
    );
    let json = validate(&path, &["--game", "bad_die-2", "--json"]);
    assert_eq!(json.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["verdict"], "illegal");
    assert_eq!(v["syntax_error"]["line"], 30);
    assert_eq!(v["syntax_error"]["column"], 11);
    assert_eq!(v["decisions"].as_array().map(Vec::len), Some(0));
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.ygn");
    std::fs::write(&empty, "").unwrap();
    let box_twice = fixture("replay/box_twice.ygn");
    let cases: Vec<(PathBuf, Vec<&str>, &str)> = vec![
        (dir.path().join("missing.ygn"), vec![], "cannot open"),
        (box_twice.clone(), vec!["--game", "nope"], "3 games"),
        (
            box_twice.clone(),
            vec![],
            "box_twice-0000001, box_twice-0000002",
        ),
        (box_twice.clone(), vec!["--format", "pgn"], "--format"),
        (empty, vec![], "no game"),
    ];
    for (path, args, says) in cases {
        let out = validate(&path, &args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn json_says_what_the_text_says_and_is_deterministic() {
    for (file, id) in [
        ("replay/keep_not_in_roll.ygn", "keep_not_in_roll-0000001"),
        ("replay/wrong_points.ygn", "wrong_points-0000002"),
        ("ygn/valid.ygn", "valid-2"),
    ] {
        let path = fixture(file);
        let plain = validate(&path, &["--game", id]);
        let json = validate(&path, &["--game", id, "--json"]);
        let again = validate(&path, &["--game", id, "--json"]);
        assert_eq!(json.stdout, again.stdout, "{id}: deterministic");
        assert_eq!(plain.status.code(), json.status.code(), "{id}");
        let report = parse(&text(&plain.stdout));
        let v: Value = serde_json::from_slice(&json.stdout).unwrap();
        let legal = report.verdict == "verdict: legal";
        assert_eq!(
            v["verdict"],
            if legal { "legal" } else { "illegal" },
            "{id}"
        );
        if !legal {
            let line = v["violation"]["line"].as_u64().unwrap();
            assert!(report
                .verdict
                .starts_with(&format!("verdict: ILLEGAL: line {line},")));
            assert_eq!(
                report.verdict,
                format!(
                    "verdict: ILLEGAL: {}",
                    v["violation"]["message"].as_str().unwrap()
                )
            );
        }
        let decisions = v["decisions"].as_array().unwrap();
        assert_eq!(decisions.len(), report.lines.len(), "{id}");
        for (d, line) in decisions.iter().zip(&report.lines) {
            let loss = d["loss"].as_f64().unwrap();
            assert_eq!(
                format!("{loss:.4}").parse::<f64>().unwrap(),
                line.loss,
                "{id}"
            );
            assert_eq!(d["round"].as_u64(), Some(u64::from(line.round)));
            assert_eq!(d["marker"].as_str(), Some(line.marker.as_str()));
            let (value, best) = (
                d["value"].as_f64().unwrap(),
                d["best_value"].as_f64().unwrap(),
            );
            assert!((best - value - loss).abs() < 1e-9, "{id}: {d}");
            for key in [
                "player",
                "roll_number",
                "dice",
                "choice",
                "best",
                "luck",
                "class",
            ] {
                assert!(!d[key].is_null(), "{id}: {key}");
            }
        }
        let totals = v["totals"].as_array().unwrap();
        assert_eq!(totals.len(), report.totals.len());
        for (t, p) in totals.iter().zip(&report.totals) {
            assert_eq!(t["player"].as_str(), Some(p.player.as_str()));
            assert_eq!(t["decisions"].as_u64(), Some(p.decisions as u64));
            let total = t["total_error"].as_f64().unwrap();
            assert_eq!(format!("{total:.6}").parse::<f64>().unwrap(), p.total_error);
            let sum: f64 = decisions
                .iter()
                .filter(|d| d["player"] == t["player"])
                .map(|d| d["loss"].as_f64().unwrap())
                .sum();
            assert!((sum - total).abs() < 1e-9, "{id}");
            let luck = t["luck"].as_f64().unwrap();
            assert_eq!(format!("{luck:.6}").parse::<f64>().unwrap(), p.luck);
            assert_eq!(t["points"].as_u64().map(|x| x as u32), p.points);
        }
    }
}

#[test]
fn a_simulated_game_matches_its_ground_truth() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("X.ygn");
    let sim = Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args([
            "simulate",
            "--players",
            "1",
            "--games",
            "1",
            "--seed",
            "4",
            "--out",
        ])
        .arg(&corpus)
        .env("DICELENS_TABLES", tables_dir())
        .output()
        .expect("the binary runs");
    assert!(sim.status.success(), "{}", text(&sim.stderr));
    let truth = std::fs::read_to_string(dir.path().join("X.truth.csv")).unwrap();
    let row: Vec<&str> = truth.lines().nth(1).unwrap().split(',').collect();
    let (player, decisions, total_error): (&str, usize, f64) =
        (row[0], row[3].parse().unwrap(), row[4].parse().unwrap());

    let out = validate(&corpus, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = parse(&text(&out.stdout));
    assert_eq!(report.verdict, "verdict: legal");
    assert_eq!(report.totals.len(), 1);
    let t = &report.totals[0];
    assert_eq!(t.player, player);
    assert_eq!(t.decisions, decisions);
    assert!(
        (t.total_error - total_error).abs() <= 1e-6,
        "printed {} against the truth {total_error}",
        t.total_error
    );
    let json = validate(&corpus, &["--json"]);
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    let exact = v["totals"][0]["total_error"].as_f64().unwrap();
    assert!((exact - total_error).abs() <= 1e-6 * total_error.max(1.0));
}

#[test]
fn a_verhoeff_game_id_from_analyze_is_found_by_validate_from_another_directory() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    std::fs::copy(fixture("verhoeff/input_game.txt"), logs.join("v.txt")).unwrap();
    let run_in = |cwd: &Path, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_dicelens"))
            .args(args)
            .current_dir(cwd)
            .env("DICELENS_TABLES", tables_dir())
            .output()
            .expect("the binary runs")
    };
    let analyzed = run_in(
        dir.path(),
        &[
            "analyze",
            "logs/v.txt",
            "--oracle",
            "e",
            "--min-games",
            "1",
            "--out",
            "out",
        ],
    );
    assert!(analyzed.status.success(), "{}", text(&analyzed.stderr));
    let games = std::fs::read_to_string(dir.path().join("out/games.csv")).unwrap();
    let id = games
        .lines()
        .nth(1)
        .and_then(|row| row.split(',').next())
        .expect("a rated game")
        .to_string();
    assert!(!id.contains("logs"), "the id holds the path as typed: {id}");
    let absolute = logs.join("v.txt");
    for (cwd, path) in [
        (logs.as_path(), "v.txt"),
        (Path::new("/"), absolute.to_str().unwrap()),
    ] {
        let out = run_in(cwd, &["validate", path, "--oracle", "e", "--game", &id]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "validate {path} --game {id} from {}: {}",
            cwd.display(),
            text(&out.stderr)
        );
        assert!(!out.stdout.is_empty());
    }
}
