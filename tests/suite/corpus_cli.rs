//! `simulate` and `convert` end to end: same seed same bytes, ground truth that matches the
//! corpus, round trips through every format, and fixtures with their expected outcomes.

use crate::common::{run as dicelens, table, text};
use dicelens::corpus::{CorpusReader, LogFile, SkipReason};
use dicelens::replay::{replay, Decision, ReplayOptions, Replayed};
use dicelens::rules::RuleSet;
use dicelens::simulate::{players, simulate_batch, Plan};
use dicelens_parsers::{Format, GameRecord};
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Reads every game of a file with the given format.
fn read_all(path: &Path, format: Option<Format>) -> Vec<GameRecord> {
    let file = LogFile::open(path, format).unwrap();
    let mut games = Vec::new();
    file.for_each_game(|g| games.push(g.unwrap_or_else(|e| panic!("{e}")).clone()));
    games
}

/// The decisions of a game as the replay finds them.
fn decisions(game: &GameRecord) -> Vec<Decision> {
    let mut out = Replayed::default();
    replay(game, ReplayOptions::default(), &mut out).unwrap_or_else(|e| panic!("{e}"));
    out.decisions
}

#[test]
fn simulate_is_deterministic_and_its_truth_adds_up() {
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for threads in [1, 2] {
        let out = dir.path().join(format!("t{threads}.ygn"));
        let o = out.to_str().unwrap();
        let args = crate::common::simulate_two_seat(7, 300, 11, o);
        let run = dicelens(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            threads,
        );
        assert!(run.status.success(), "{}", text(&run.stderr));
        outputs.push((
            fs::read(&out).unwrap(),
            fs::read_to_string(out.with_extension("truth.csv")).unwrap(),
        ));
    }
    assert_eq!(
        outputs[0].0, outputs[1].0,
        "same seed, same bytes, whatever the thread count"
    );
    assert_eq!(outputs[0].1, outputs[1].1);
    let corpus = String::from_utf8(outputs[0].0.clone()).unwrap();
    // Dice are written unsorted, as a site shows them.
    assert!(corpus.lines().filter(|l| l.contains(": ")).any(|l| {
        let roll = l.split_whitespace().nth(2).unwrap_or("");
        let mut sorted: Vec<char> = roll.chars().collect();
        sorted.sort();
        sorted.into_iter().collect::<String>() != roll
    }));
    // Truth: games add up to 2 seats per game; decisions match the replayed corpus.
    let truth: Vec<Vec<String>> = outputs[0]
        .1
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let games: u64 = truth.iter().map(|r| r[2].parse::<u64>().unwrap()).sum();
    assert_eq!(games, 600);
    let counts: Vec<u64> = truth.iter().map(|r| r[2].parse().unwrap()).collect();
    assert!(
        counts.iter().max().unwrap() > &(3 * counts.iter().min().unwrap()),
        "long-tailed: {counts:?}"
    );
    let records = read_all(&dir.path().join("t1.ygn"), None);
    assert_eq!(records.len(), 300);
    let mut per_player: HashMap<String, u64> = HashMap::new();
    for g in &records {
        for d in decisions(g) {
            *per_player
                .entry(g.players[usize::from(d.seat)].clone())
                .or_default() += 1;
        }
    }
    for row in &truth {
        assert_eq!(
            per_player.get(&row[0]).copied().unwrap_or(0),
            row[3].parse::<u64>().unwrap(),
            "{}",
            row[0]
        );
    }
    // The perfect player makes no error; the weakest makes the most per decision.
    let rate =
        |r: &Vec<String>| r[4].parse::<f64>().unwrap() / r[3].parse::<f64>().unwrap().max(1.0);
    assert_eq!(truth[0][4].parse::<f64>().unwrap(), 0.0);
    assert!(rate(&truth[6]) > rate(&truth[1]));
}

/// simulate -> write -> parse -> replay gives back exactly the simulated decisions, for every
/// format and rule set.
#[test]
fn round_trip_through_every_format() {
    let dir = tempfile::tempdir().unwrap();
    for rules in RuleSet::MAIN {
        for seats in [1usize, 2] {
            let plan = Plan {
                rules,
                seats,
                players: 4,
                games: 12,
                seed: 5,
                ..Plan::default()
            };
            let mut sim_players = players(&plan);
            let mut formats = vec![Format::Ygn, Format::Jsonl];
            if rules == RuleSet::YahtzeeFree && seats == 1 {
                formats.push(Format::Verhoeff);
            }
            for format in formats {
                let path: PathBuf =
                    dir.path()
                        .join(format!("{}-{seats}.{}", rules.name(), format.name()));
                if format == Format::Verhoeff {
                    // Verhoeff's records name the player after the file.
                    let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
                    sim_players.iter_mut().for_each(|p| p.name = stem.clone());
                }
                let games = simulate_batch(table(rules), &plan, &sim_players, 0..plan.games);
                let mut bytes = Vec::new();
                for g in &games {
                    format.write_game(&g.record, &mut bytes).unwrap();
                }
                fs::write(&path, &bytes).unwrap();
                let read = read_all(&path, None);
                assert_eq!(read.len(), games.len(), "{rules} {seats} {format}");
                for (g, r) in games.iter().zip(&read) {
                    assert_eq!(
                        decisions(r),
                        g.decisions,
                        "{rules} {seats} {format} {}",
                        g.record.provenance.game_id
                    );
                }
            }
        }
    }
}

/// Records compared across formats: everything but where they were read from.
fn without_provenance(mut g: GameRecord) -> GameRecord {
    g.provenance.file.clear();
    g.provenance.line = 0;
    g.provenance.result_line = None;
    for t in &mut g.turns {
        t.line = 0;
    }
    g
}

#[test]
fn convert_ygn_to_jsonl_and_back_is_the_identity() {
    let dir = tempfile::tempdir().unwrap();
    let ygn = dir.path().join("a.ygn");
    let run = dicelens(
        &[
            "simulate",
            "--rules",
            "yatzy",
            "--seats",
            "3",
            "--players",
            "5",
            "--games",
            "40",
            "--out",
            ygn.to_str().unwrap(),
        ],
        2,
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let jsonl = dir.path().join("a.jsonl");
    let back = dir.path().join("b.ygn");
    for (input, to, output) in [(&ygn, "jsonl", &jsonl), (&jsonl, "ygn", &back)] {
        let run = dicelens(
            &[
                "convert",
                input.to_str().unwrap(),
                "--to",
                to,
                "--out",
                output.to_str().unwrap(),
            ],
            2,
        );
        assert!(run.status.success(), "{}", text(&run.stderr));
        assert!(
            text(&run.stderr).contains("40 games read, 40 used, 0 skipped"),
            "{}",
            text(&run.stderr)
        );
    }
    let before: Vec<GameRecord> = read_all(&ygn, None)
        .into_iter()
        .map(without_provenance)
        .collect();
    let after: Vec<GameRecord> = read_all(&back, None)
        .into_iter()
        .map(without_provenance)
        .collect();
    assert_eq!(before, after);
    assert_eq!(
        fs::read(&ygn).unwrap(),
        fs::read(&back).unwrap(),
        "the YGN text itself survives"
    );
}

#[test]
fn verhoeff_converts_to_ygn_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("solo.txt");
    let run = dicelens(
        &[
            "simulate",
            "--rules",
            "yahtzee-free",
            "--players",
            "1",
            "--games",
            "5",
            "--format",
            "verhoeff",
            "--out",
            v.to_str().unwrap(),
        ],
        2,
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let ygn = dir.path().join("solo.ygn");
    let run = dicelens(
        &[
            "convert",
            v.to_str().unwrap(),
            "--to",
            "ygn",
            "--out",
            ygn.to_str().unwrap(),
        ],
        2,
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let from_verhoeff = read_all(&v, None);
    let from_ygn = read_all(&ygn, None);
    assert_eq!(from_verhoeff.len(), 5);
    for (a, b) in from_verhoeff.iter().zip(&from_ygn) {
        assert_eq!(decisions(a), decisions(b));
    }
    let back = dir.path().join("solo2.txt");
    let run = dicelens(
        &[
            "convert",
            ygn.to_str().unwrap(),
            "--to",
            "verhoeff",
            "--out",
            back.to_str().unwrap(),
        ],
        2,
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    for (a, b) in from_verhoeff.iter().zip(&read_all(&back, None)) {
        assert_eq!(decisions(a), decisions(b));
    }
}

/// Bad input does not stop a corpus: the valid games around it are still read, and every
/// skipped game is counted with its reason.
#[test]
fn a_ten_megabyte_line_between_good_games() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.ygn");
    let run = dicelens(
        &["simulate", "--games", "3", "--out", good.to_str().unwrap()],
        2,
    );
    assert!(run.status.success());
    let text_good = fs::read_to_string(&good).unwrap();
    let mut content = text_good.clone();
    content.push_str("[Game \"huge\"]\n[Rules \"yahtzee\"]\n[Players \"x\"]\n1. x: ");
    content.push_str(&"1".repeat(10 << 20));
    content.push_str(" C\n\n");
    content.push_str(&text_good.replace("sim1-", "again-"));
    let path = dir.path().join("mixed.ygn");
    fs::write(&path, content).unwrap();
    let mut reader = CorpusReader::new(ReplayOptions::default());
    reader.read(&LogFile::open(&path, None).unwrap(), |_, _| {});
    assert_eq!(reader.summary.games_used, 6);
    assert_eq!(reader.summary.skipped_count(), 1);
    let (reason, places) = reader.summary.skipped.iter().next().unwrap();
    assert_eq!(*reason, SkipReason::SyntaxError);
    assert_eq!(places[0].game_id.as_deref(), Some("huge"));
}

/// Every game of the replay fixtures is used or skipped exactly as `fixtures/replay/EXPECTED.csv`
/// says, with the reason and the line of the first rule broken.
#[test]
fn replay_fixtures_give_their_expected_outcomes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/replay");
    let mut expected: std::collections::BTreeMap<String, Vec<(String, String, String, String)>> =
        Default::default();
    let mut rows = csv::Reader::from_path(root.join("EXPECTED.csv")).unwrap();
    for row in rows.records() {
        let row = row.unwrap();
        expected.entry(row[0].to_string()).or_default().push((
            row[1].to_string(),
            row[2].to_string(),
            row[3].to_string(),
            row[4].to_string(),
        ));
    }
    assert!(expected.len() >= 11, "{} fixture files", expected.len());
    for (file, rows) in expected {
        let mut reader = CorpusReader::new(ReplayOptions::default());
        let mut got = Vec::new();
        reader.read(&LogFile::open(&root.join(&file), None).unwrap(), |g, _| {
            got.push((
                g.provenance.game_id.clone(),
                "used".to_string(),
                String::new(),
                String::new(),
            ))
        });
        for (reason, places) in &reader.summary.skipped {
            for p in places {
                let id = p.game_id.clone().unwrap_or_default();
                got.push((id, "skipped".into(), reason.to_string(), p.line.to_string()));
            }
        }
        let mut want = rows.clone();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{file}: {}", reader.summary.report());
        assert_eq!(reader.summary.games_read as usize, rows.len(), "{file}");
    }
}

/// A file of no known format is reported and skipped; the other files are still converted.
#[test]
fn convert_goes_on_past_an_unrecognisable_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.jsonl");
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "shopping list\n- dice\n- pencils\n").unwrap();
    let run = dicelens(
        &[
            "convert",
            notes.to_str().unwrap(),
            root.join("replay/abandoned.ygn").to_str().unwrap(),
            "--to",
            "jsonl",
            "--out",
            out.to_str().unwrap(),
        ],
        2,
    );
    let stderr = text(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("file skipped: ")
            && stderr.contains("notes.txt: cannot recognise the format"),
        "{stderr}"
    );
    assert!(
        stderr.contains("3 games read, 2 used, 1 skipped"),
        "{stderr}"
    );
    assert!(stderr.contains("unfinished (abandoned)"), "{stderr}");
    assert_eq!(read_all(&out, None).len(), 2);
}

/// A log much longer than the span after which read pages are given back to the kernel reads
/// exactly as in memory: every game found, at its line, and a bad game near the end reported at
/// its own line with its id.
#[test]
fn long_logs_read_the_same_after_their_pages_are_released() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ygn/bad_die.ygn");
    let text = fs::read_to_string(fixture).unwrap();
    let first = text.find("[Game").unwrap();
    let end = text[first..].find("\n\n[Game").unwrap() + first + 2;
    let game = &text[first..end];
    let game_lines = game.lines().count() as u64;
    let copies = 70_000; // about 36 MB: the released part moves on at least once
    let mut content = String::with_capacity(copies * game.len() + 1000);
    for i in 0..copies {
        content.push_str(&game.replace("bad_die-1", &format!("g-{i}")));
    }
    let bad_line = copies as u64 * game_lines + 1;
    content.push_str(&game.replace("bad_die-1", "bad").replace("24426", "24726"));
    assert!(content.len() > 2 * (16 << 20), "{} bytes", content.len());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.ygn");
    fs::write(&path, &content).unwrap();
    let mut reader = CorpusReader::new(ReplayOptions::default());
    let mut lines = Vec::new();
    reader.read(&LogFile::open(&path, None).unwrap(), |g, replayed| {
        assert_eq!(g.provenance.game_id, format!("g-{}", lines.len()));
        assert_eq!(replayed.decisions.len(), 28);
        lines.push(g.provenance.line);
    });
    assert_eq!(lines.len(), copies);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(*line, i as u64 * game_lines + 1, "game {i}");
    }
    assert_eq!(reader.summary.games_read, copies as u64 + 1);
    let places = &reader.summary.skipped[&SkipReason::SyntaxError];
    assert_eq!(places.len(), 1);
    assert_eq!(places[0].game_id.as_deref(), Some("bad"));
    assert_eq!(places[0].line, bad_line + 5, "{}", places[0].detail);
}
