//! The game page of `validate --html` in headless Chromium: a simulated two-player game (both
//! scorecards against the game's replay, one move row per rated decision with its anchor, the
//! winning-chances chart with a line per player and a marker per error and blunder), a
//! one-player game (the expected-score chart), an illegal game (a page with its verdict), and
//! the `dicelens eval` lines the page prints reproduce the rated values.

use crate::browser::{chromium, keep, png_size, require_chromium, svg_element, WINDOW};
use crate::common::{find_game, replayed, run, run_ok, text};
use dicelens::replay::Replayed;
use dicelens::report::game::file_name;
use dicelens_parsers::GameRecord;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Simulates one yahtzee game of `seats` seats among noisy players into `dir`; returns the log
/// and the game's id.
fn simulate(dir: &Path, seats: usize, seed: u64) -> (PathBuf, String) {
    let log = dir.join(format!("sim-{seats}.ygn"));
    let (seats, seed) = (seats.to_string(), seed.to_string());
    run_ok(
        &[
            "simulate",
            "--rules",
            "yahtzee",
            "--seats",
            &seats,
            "--players",
            "6",
            "--games",
            "1",
            "--seed",
            &seed,
            "--out",
            log.to_str().expect("a UTF-8 path"),
        ],
        1,
    );
    let id = format!("sim{seed}-0000001");
    (log, id)
}

/// `validate LOG --game ID --json EXTRA...` parsed, and the page `--html` writes into `pages`
/// (its path, named on stderr, and its text); `legal` is the exit status expected.
pub(crate) fn validate_page(
    log: &Path,
    id: &str,
    pages: &Path,
    extra: &[&str],
    legal: bool,
) -> (Value, PathBuf, String) {
    let mut args = vec![
        "validate",
        log.to_str().expect("a UTF-8 path"),
        "--game",
        id,
        "--json",
        "--html",
        "--out",
        pages.to_str().expect("a UTF-8 path"),
    ];
    args.extend(extra);
    let out = run(&args, 1);
    assert_eq!(
        out.status.success(),
        legal,
        "{args:?}: {}",
        text(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("validate --json");
    let page = pages.join(file_name(id));
    assert!(
        text(&out.stderr).contains(&format!("game page written to {}", page.display())),
        "the page's path on stderr: {}",
        text(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).expect("the page is written");
    assert!(html.starts_with("<!DOCTYPE html>"));
    for external in ["<script", "<link", "src=\"http", "href=\"http", "@import"] {
        assert!(!html.contains(external), "not self-contained: {external}");
    }
    (report, page, html)
}

/// The page's DOM as Chromium parsed it, after a screenshot of it that is kept as
/// `target/tmp/game_page/NAME.png` for a look.
fn render(page: &Path, name: &str) -> String {
    let png_path = page.with_extension("png");
    chromium(page, &[format!("--screenshot={}", png_path.display())]);
    let png = std::fs::read(&png_path).expect("chromium wrote a screenshot");
    assert_eq!(png_size(&png), WINDOW, "screenshot size");
    assert!(png.len() > 20_000, "a blank page? ({} bytes)", png.len());
    keep("game_page", &format!("{name}.png"), &png);
    keep(
        "game_page",
        &format!("{name}.html"),
        &std::fs::read(page).expect("the page"),
    );
    String::from_utf8(chromium(page, &["--dump-dom".to_string()])).expect("a UTF-8 DOM")
}

/// The text of an HTML fragment: tags dropped, entities of `escape` undone, spaces trimmed.
fn plain(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&amp;", "&").trim().to_string()
}

/// The element of `dom` that starts with `start` (e.g. `<table class="scorecards"`), up to
/// its first `end`.
fn element<'a>(dom: &'a str, start: &str, end: &str) -> &'a str {
    let at = dom
        .find(start)
        .unwrap_or_else(|| panic!("no {start} in the DOM"));
    let len = dom[at..]
        .find(end)
        .unwrap_or_else(|| panic!("{start} not closed"));
    &dom[at..at + len + end.len()]
}

/// The rows of a table: each row's cells (`th` and `td`) as text.
fn table_rows(table: &str) -> Vec<Vec<String>> {
    table
        .split("<tr")
        .skip(1)
        .map(|row| {
            let row = &row[..row.find("</tr>").unwrap_or(row.len())];
            row.split("<t")
                .skip(1)
                .filter(|cell| cell.starts_with('h') || cell.starts_with('d'))
                .map(|cell| plain(&format!("<t{cell}")))
                .collect()
        })
        .collect()
}

/// Checks the scorecards of the DOM against the replay: in each player's column, every box
/// the game filled holds its points and round, and the grand total is the replay's (and the
/// report's) points. Returns how many boxes were checked.
fn check_scorecards(dom: &str, game: &GameRecord, replay: &Replayed, report: &Value) -> usize {
    let rows = table_rows(element(dom, "<table class=\"scorecards\"", "</table>"));
    let header = &rows[0];
    assert_eq!(header.len(), game.players.len() + 1, "a column per player");
    for (seat, name) in game.players.iter().enumerate() {
        assert_eq!(&header[seat + 1], name);
    }
    let mut checked = 0;
    let turns_done = replay.sheets.len() / replay.seats - 1;
    for (t, turn) in game.turns.iter().enumerate().take(turns_done) {
        let code = turn.category.as_str().to_ascii_uppercase();
        let row = rows
            .iter()
            .find(|r| r[0].split_whitespace().last() == Some(code.as_str()))
            .unwrap_or_else(|| panic!("no row for box {code}"));
        let cell = &row[usize::from(turn.seat) + 1];
        assert_eq!(
            cell,
            &format!("{}r{}", replay.box_points[t], turn.round),
            "box {code} of seat {}",
            turn.seat
        );
        checked += 1;
    }
    let grand = rows
        .iter()
        .find(|r| r[0] == "Grand total")
        .expect("a grand total row");
    let last = &replay.sheets[replay.sheets.len() - replay.seats..];
    for (seat, sheet) in last.iter().enumerate() {
        assert_eq!(grand[seat + 1], sheet.points().to_string(), "seat {seat}");
        assert_eq!(
            report["totals"][seat]["points"].as_u64(),
            u64::try_from(sheet.points()).ok()
        );
    }
    checked
}

/// Checks the move list: one row per rated decision, with the anchors d1..dN in order, each
/// showing its decision's class.
fn check_moves(dom: &str, report: &Value) {
    let decisions = report["decisions"].as_array().expect("decisions");
    let table = element(dom, "<table class=\"moves\"", "</table>");
    let ids: Vec<&str> = table
        .split("<tr id=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap_or(0)])
        .collect();
    let expected: Vec<String> = (1..=decisions.len()).map(|n| format!("d{n}")).collect();
    assert_eq!(ids, expected, "one anchored row per decision, in order");
    for (row, d) in table.split("<tr id=\"").skip(1).zip(decisions) {
        let row = &row[..row.find("</tr>").unwrap_or(row.len())];
        let class = d["class"].as_str().expect("a class");
        assert!(
            row.contains(&format!("class=\"badge {class}\"")),
            "{class}: {row}"
        );
    }
    assert_eq!(
        table
            .split("<code>")
            .skip(1)
            .filter(|code| plain(&code[..code.find("</code>").unwrap_or(0)])
                .starts_with("dicelens eval --rules "))
            .count(),
        decisions.len(),
        "an eval line per decision"
    );
}

/// Errors and blunders among the report's decisions.
fn errors_and_blunders(report: &Value) -> usize {
    report["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .filter(|d| matches!(d["class"].as_str(), Some("error" | "blunder")))
        .count()
}

/// Checks the chart: one line per player, a marker per error and blunder linked to its row.
fn check_chart(dom: &str, report: &Value, players: usize, axis_title: &str) {
    let chart = svg_element(dom, "game-chart");
    assert!(chart.contains("<title"), "the chart has a title");
    assert!(chart.contains("<desc"), "the chart has a description");
    assert!(chart.contains(axis_title), "y axis: {axis_title}");
    assert_eq!(
        chart.matches("class=\"series\"").count(),
        players,
        "a line per player"
    );
    let marked = errors_and_blunders(report);
    assert_eq!(chart.matches("class=\"mark-link\"").count(), marked);
    for (order, d) in report["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .enumerate()
    {
        if matches!(d["class"].as_str(), Some("error" | "blunder")) {
            assert!(
                chart.contains(&format!("href=\"#d{}\"", order + 1)),
                "marker of d{}",
                order + 1
            );
        }
    }
}

#[test]
fn two_player_game_page_shows_scorecards_moves_and_winning_chances() {
    require_chromium();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (log, id) = simulate(dir.path(), 2, 43);
    let pages = dir.path().join("games");
    let (report, page, _) = validate_page(&log, &id, &pages, &[], true);
    assert_eq!(report["unit"], "match points");
    assert!(
        errors_and_blunders(&report) > 0,
        "noisy players err: the markers are tested"
    );
    let dom = render(&page, "two-player");
    let game = find_game(&log, &id);
    let (replay, _) = replayed(&game);
    assert_eq!(check_scorecards(&dom, &game, &replay, &report), 26);
    check_moves(&dom, &report);
    check_chart(&dom, &report, 2, "winning chances");
    assert!(dom.contains("Verdict: legal"));
    assert!(
        dom.contains("expected share of the match"),
        "match points are explained"
    );
}

#[test]
fn one_player_game_page_shows_the_expected_score() {
    require_chromium();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (log, id) = (5..30)
        .map(|seed| simulate(dir.path(), 1, seed))
        .find(|(log, id)| {
            let out = run_ok(&["validate", log.to_str().unwrap_or(""), "--game", id], 1);
            out.contains("**")
        })
        .expect("a noisy player errs in some game");
    let pages = dir.path().join("games");
    let (report, page, _) = validate_page(&log, &id, &pages, &[], true);
    assert_eq!(report["unit"], "points");
    let dom = render(&page, "one-player");
    let game = find_game(&log, &id);
    let (replay, _) = replayed(&game);
    assert_eq!(check_scorecards(&dom, &game, &replay, &report), 13);
    check_moves(&dom, &report);
    check_chart(&dom, &report, 1, "expected final score (points)");
}

#[test]
fn an_illegal_game_gets_a_page_with_its_verdict() {
    require_chromium();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let log = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/replay/wrong_points.ygn");
    let id = "wrong_points-0000002";
    let pages = dir.path().join("pages");
    let (report, page, _) = validate_page(&log, id, &pages, &[], false);
    let dom = render(&page, "illegal");
    assert!(
        dom.contains("Verdict: ILLEGAL"),
        "the verdict heads the page"
    );
    let rule = report["violation"]["rule"].as_str().expect("a rule");
    assert!(dom.contains(rule), "the rule broken: {rule}");
    let game = find_game(&log, id);
    let (replay, _) = replayed(&game);
    assert!(check_scorecards(&dom, &game, &replay, &report) > 0);
    check_moves(&dom, &report);
}

/// Runs the `dicelens eval` line `command` with `--json`; returns its options.
fn eval_options(command: &str) -> Vec<Value> {
    let args: Vec<&str> = command
        .strip_prefix("dicelens ")
        .expect("a dicelens command")
        .split_whitespace()
        .chain(["--json"])
        .collect();
    let out = run_ok(&args, 1);
    serde_json::from_str::<Value>(&out)
        .expect("eval --json")
        .as_array()
        .expect("options")
        .clone()
}

/// Runs every `step`-th eval line of `report` (and the last) and checks the values eval
/// prints: the best option's value is the decision's best value, the option taken has the
/// decision's value. Returns how many lines were run.
fn check_eval_lines(report: &Value, step: usize) -> usize {
    let decisions = report["decisions"].as_array().expect("decisions");
    let lines = report["eval_lines"].as_array().expect("eval lines");
    assert_eq!(lines.len(), decisions.len());
    let mut ran = 0;
    for (i, (d, line)) in decisions.iter().zip(lines).enumerate() {
        if i % step != 0 && i + 1 != decisions.len() {
            continue;
        }
        let command = line["command"].as_str().expect("a command");
        let options = eval_options(command);
        let best = options
            .iter()
            .filter_map(|o| o["value"].as_f64())
            .fold(f64::NEG_INFINITY, f64::max);
        let (best_value, value) = (
            d["best_value"].as_f64().expect("best value"),
            d["value"].as_f64().expect("value"),
        );
        let choice = d["choice"].as_str().expect("a choice");
        let taken = options
            .iter()
            .find(|o| o["option"] == choice)
            .and_then(|o| o["value"].as_f64());
        // Where eval's search values positions exactly and the rating's did not, a little.
        let tolerance = if line["same_values"] == true {
            1e-9
        } else {
            0.02
        };
        assert!(
            (best - best_value).abs() <= tolerance,
            "{command}: best {best} vs {best_value}"
        );
        match taken {
            Some(v) => assert!(
                (v - value).abs() <= tolerance,
                "{command}: {choice} {v} vs {value}"
            ),
            // Keeping all five dice is not an option eval lists (it is rolling none).
            None => assert!(
                choice.len() == "keep 12345".len() && choice.starts_with("keep "),
                "{command}: no option {choice}"
            ),
        }
        ran += 1;
    }
    ran
}

#[test]
fn the_eval_lines_reproduce_the_rated_values() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (one, one_id) = simulate(dir.path(), 1, 7);
    let (two, two_id) = simulate(dir.path(), 2, 8);
    let json = |log: &Path, id: &str, oracle: &str| -> Value {
        let out = run_ok(
            &[
                "validate",
                log.to_str().expect("a UTF-8 path"),
                "--game",
                id,
                "--oracle",
                oracle,
                "--json",
            ],
            1,
        );
        serde_json::from_str(&out).expect("validate --json")
    };
    // Expected points: eval's solitaire values are the rating's.
    assert!(check_eval_lines(&json(&one, &one_id, "default"), 5) >= 8);
    assert!(check_eval_lines(&json(&two, &two_id, "e"), 9) >= 8);
    // Match points: with the default search, and with the reference's exact late turns (the
    // lines name `--oracle exact` there).
    assert!(check_eval_lines(&json(&two, &two_id, "default"), 9) >= 8);
    let reference = json(&two, &two_id, "reference");
    assert!(reference["eval_lines"]
        .as_array()
        .expect("eval lines")
        .iter()
        .any(|l| l["command"]
            .as_str()
            .is_some_and(|c| c.ends_with("--oracle exact"))));
    assert!(check_eval_lines(&reference, 4) >= 16);
}
