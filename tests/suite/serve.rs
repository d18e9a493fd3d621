//! `dicelens serve`: the board's API against the library and the other commands (a game's
//! decisions against the replay, the options' values against `eval`), play and entry games
//! read back by `analyze`, the coach, and what the server refuses (paths outside what it was
//! given, oversized bodies, play without a record directory). Each test starts the binary on
//! a free port (`--port 0`, the address read from stdout) and talks HTTP/1.1 over a plain
//! `TcpStream`; the server is killed when the test ends.

use crate::common::{find_game, replayed, run_ok, tables_dir, text};
use dicelens::replay::{Decision, Replayed};
use dicelens::rules::{GameFamily, PlayerSheet};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub(crate) const FIXTURE: &str = "fixtures/ygn/valid.ygn";

/// A running server, killed on drop.
pub(crate) struct Server {
    child: Child,
    pub(crate) port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// `dicelens serve ARGS --port 0 --tables SUITE_TABLES`, once it listens.
    pub(crate) fn start(args: &[&str]) -> Server {
        Server::start_with(args, tables_dir())
    }

    /// `dicelens serve ARGS --port 0 --tables TABLES`, once it listens.
    pub(crate) fn start_with(args: &[&str], tables: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dicelens"))
            .arg("serve")
            .args(args)
            .args(["--port", "0", "--tables"])
            .arg(tables)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary runs");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("a line");
        let port = line
            .trim()
            .strip_prefix("listening on http://127.0.0.1:")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|port| port.parse().ok());
        let Some(port) = port else {
            let _ = child.kill();
            panic!("serve printed {line:?}");
        };
        Server { child, port }
    }

    /// One request (`Connection: close`): the status and the body.
    pub(crate) fn request(&self, method: &str, path: &str, body: Option<&[u8]>) -> (u16, Vec<u8>) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(300)))
            .expect("timeout");
        let body = body.unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).expect("write");
        // A server that refuses a body may close before reading it all: the answer counts.
        let _ = stream.write_all(body);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let split = answer
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("no header end in {:?}", text(&answer)));
        let head = text(&answer[..split]);
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {head}"));
        let mut body = answer[split + 4..].to_vec();
        if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            body = dechunk(&body);
        }
        (status, body)
    }

    /// A JSON request that must succeed: its answer.
    pub(crate) fn json(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let bytes = body.map(|b| b.to_string().into_bytes());
        let (status, answer) = self.request(method, path, bytes.as_deref());
        assert_eq!(status, 200, "{method} {path}: {}", text(&answer));
        serde_json::from_slice(&answer).expect("JSON")
    }
}

/// A chunked body decoded.
fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = body.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(text(&body[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&body[end + 2..end + 2 + size]);
        body = &body[end + 4 + size..];
    }
}

/// The key of the game `game_id` in the server's list.
pub(crate) fn key_of(server: &Server, game_id: &str) -> String {
    let games = server.json("GET", "/api/games", None);
    let game = games
        .as_array()
        .expect("a list")
        .iter()
        .find(|g| g["game_id"] == game_id)
        .unwrap_or_else(|| panic!("no {game_id} in {games}"));
    game["id"].as_str().expect("an id").to_string()
}

#[test]
fn the_game_list_and_a_games_decisions_are_the_replays() {
    let server = Server::start(&[FIXTURE]);
    let games = server.json("GET", "/api/games", None);
    let ids: Vec<&str> = games
        .as_array()
        .expect("a list")
        .iter()
        .map(|g| g["game_id"].as_str().expect("an id"))
        .collect();
    assert_eq!(ids.len(), 3, "{games}");
    assert!(
        ids.contains(&"valid-1") && ids.contains(&"valid-2"),
        "{ids:?}"
    );
    for game_id in ["valid-1", "valid-2"] {
        let key = key_of(&server, game_id);
        let view = server.json("GET", &format!("/api/games/{key}"), None);
        let (replay, _) = replayed(&find_game(Path::new(FIXTURE), game_id));
        let decisions = view["decisions"].as_array().expect("decisions");
        assert_eq!(decisions.len(), replay.decisions.len(), "{game_id}");
        for (shown, d) in decisions.iter().zip(&replay.decisions) {
            assert_eq!(shown["dice"], json!(d.dice.faces()), "{game_id}");
            assert_eq!(shown["seat"], json!(d.seat), "{game_id}");
            assert_eq!(shown["round"], json!(d.round), "{game_id}");
        }
        // One decision drawn: its dice and the mover's sheet as the replay has them.
        let index = replay.decisions.len() / 2;
        let d = &replay.decisions[index];
        let shown = server.json("GET", &format!("/api/games/{key}/decisions/{index}"), None);
        assert_eq!(shown["dice"], json!(d.dice.faces()));
        let sheet = &shown["sheets"][usize::from(d.seat)];
        assert_eq!(sheet["total"], json!(d.sheet.points()));
        let filled = sheet["boxes"]
            .as_array()
            .expect("boxes")
            .iter()
            .filter(|b| !b["points"].is_null())
            .count();
        assert_eq!(filled as u32, d.sheet.turns_done(), "{game_id}");
        let chosen: Vec<&Value> = shown["valued"]["options"]
            .as_array()
            .expect("options")
            .iter()
            .filter(|o| o["chosen"] == true)
            .collect();
        assert_eq!(chosen.len(), 1, "{shown}");
        assert_eq!(chosen[0]["option"], shown["chosen"]);
    }
    let (status, _) = server.request("GET", "/api/games/0123456789abcdef", None);
    assert_eq!(status, 404);
}

/// Turns a sheet has filled.
trait TurnsDone {
    fn turns_done(&self) -> u32;
}

impl TurnsDone for PlayerSheet {
    fn turns_done(&self) -> u32 {
        self.rounds() as u32 - self.turns_left()
    }
}

/// The `eval --json` options of a decision, as (option, value).
pub(crate) fn eval_options(args: &[String]) -> Vec<(String, f64)> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out: Value = serde_json::from_str(&run_ok(&args, 1)).expect("eval's JSON");
    out.as_array()
        .expect("a list")
        .iter()
        .map(|o| {
            (
                o["option"].as_str().expect("option").to_string(),
                o["value"].as_f64().expect("value"),
            )
        })
        .collect()
}

/// The board's options of a decision, as (option, value, solitaire value).
fn board_options(server: &Server, key: &str, index: usize) -> Vec<(String, f64, Option<f64>)> {
    let view = server.json("GET", &format!("/api/games/{key}/decisions/{index}"), None);
    view["valued"]["options"]
        .as_array()
        .expect("options")
        .iter()
        .map(|o| {
            (
                o["option"].as_str().expect("option").to_string(),
                o["value"].as_f64().expect("value"),
                o["solitaire"].as_f64(),
            )
        })
        .collect()
}

/// `eval`'s arguments for a one-column sheet.
pub(crate) fn sheet_args(flag: &str, sheet: &PlayerSheet) -> Vec<String> {
    let s = sheet.yahtzee().expect("a one-column sheet");
    let prefix = if flag.is_empty() {
        String::new()
    } else {
        format!("{flag}-")
    };
    vec![
        format!("--{prefix}filled"),
        s.filled_codes(),
        format!("--{prefix}upper"),
        s.upper_total.to_string(),
        format!("--{prefix}points"),
        s.points.to_string(),
    ]
}

/// `eval`'s arguments (`--json`, the suite's tables) for the mover of decision `d` of `replay`
/// with `dice` on the table and `rolls_left`: solitaire, or with the other seats' sheets as
/// opponents and the default oracle's method (`emp:1`) when `opponents` and the game has them.
pub(crate) fn eval_args(
    replay: &Replayed,
    d: &Decision,
    dice: &str,
    rolls_left: u8,
    opponents: bool,
) -> Vec<String> {
    let rules = d.sheet.rules().name().to_string();
    let mut args = vec!["eval".to_string(), "--rules".into(), rules];
    args.extend(["--roll".into(), dice.to_string()]);
    args.extend(["--rolls-left".into(), rolls_left.to_string()]);
    args.extend(sheet_args("", &d.sheet));
    args.extend(["--json".into(), "--tables".into()]);
    args.push(tables_dir().display().to_string());
    let seats = replay.seats;
    if opponents && seats > 1 {
        let turn = usize::from(d.turn);
        for k in 1..seats {
            let other = &replay.sheets[turn * seats + (usize::from(d.seat) + k) % seats];
            args.extend(sheet_args("opponent", other));
        }
        args.extend(["--oracle".into(), "emp:1".into()]);
    }
    args
}

#[test]
fn the_options_of_a_decision_are_evals_values() {
    let server = Server::start(&[FIXTURE]);
    // A solitaire decision (yatzy) and one of two players (match points by the default
    // oracle, emp:1, with the solitaire value beside).
    for (game_id, index) in [("valid-2", 7), ("valid-1", 9)] {
        let key = key_of(&server, game_id);
        let (replay, _) = replayed(&find_game(Path::new(FIXTURE), game_id));
        let d = &replay.decisions[index];
        let dice = d.dice.to_string();
        let solitaire = eval_options(&eval_args(&replay, d, &dice, d.rolls_left(), false));
        let seats = replay.seats;
        let evaluated = eval_options(&eval_args(&replay, d, &dice, d.rolls_left(), true));
        let shown = board_options(&server, &key, index);
        assert_eq!(shown.len(), evaluated.len(), "{game_id} #{index}");
        for ((option, value, beside), (e_option, e_value)) in shown.iter().zip(&evaluated) {
            assert_eq!(option, e_option, "{game_id} #{index}");
            assert!(
                (value - e_value).abs() < 1e-9,
                "{option}: {value} vs {e_value}"
            );
            if seats > 1 {
                let (_, s) = solitaire
                    .iter()
                    .find(|(o, _)| o == option)
                    .expect("in both");
                assert!(
                    (beside.expect("a solitaire value") - s).abs() < 1e-9,
                    "{option}"
                );
            } else {
                assert!(beside.is_none());
            }
        }
    }
}

#[test]
fn paths_outside_what_was_given_are_refused() {
    let work = tempfile::tempdir().expect("a directory");
    let out = work.path().join("analysis");
    let out_text = out.display().to_string();
    run_ok(&crate::common::solitaire_analyze(FIXTURE, &out_text), 1);
    let secret = work.path().join("secret.txt");
    std::fs::write(&secret, "not to be served").expect("write");
    std::os::unix::fs::symlink(&secret, out.join("link.txt")).expect("a link");
    let server = Server::start(&[&out_text]);
    // What it was given is served: the report and the board under the report's pages.
    let (status, page) = server.request("GET", "/reports/0/report.html", None);
    assert_eq!(status, 200);
    assert!(text(&page).contains("<html"), "a page");
    let (status, page) = server.request("GET", "/reports/0/games/board?game=x", None);
    assert_eq!(status, 200);
    assert!(text(&page).contains("board.js"));
    // A game page links into the board, which opens when served.
    let games_dir = out.join("games");
    let page = std::fs::read_dir(&games_dir)
        .expect("game pages")
        .filter_map(Result::ok)
        .find(|e| e.path().extension().is_some_and(|x| x == "html"))
        .expect("a game page");
    let html = std::fs::read_to_string(page.path()).expect("the page");
    let link = html
        .split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .find(|h| h.starts_with("board?game="))
        .expect("a link into the board")
        .replace("&amp;", "&");
    let (status, board) = server.request("GET", &format!("/reports/0/games/{link}"), None);
    assert_eq!(status, 200);
    assert!(text(&board).contains("board.js"));
    // The analysis's games are on the list.
    let games = server.json("GET", "/api/games", None);
    assert_eq!(games.as_array().map(Vec::len), Some(2), "{games}");
    for path in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/reports/0/../../Cargo.toml",
        "/reports/0/%2e%2e/%2e%2e/Cargo.toml",
        "/reports/0/..%2f..%2fCargo.toml",
        "/reports/0//etc/passwd",
        "/reports/0/%2fetc%2fpasswd",
        "/etc/passwd",
        "/reports/1/report.html",
        "/reports/0/link.txt",
        "/reports/0/games",
        "/reports/0/",
        "/src/main.rs",
    ] {
        let (status, body) = server.request("GET", path, None);
        assert!(status == 403 || status == 404, "{path}: {status}");
        assert!(!text(&body).contains("not to be served") && !text(&body).contains("[package]"));
    }
}

#[test]
fn an_oversized_body_is_refused_with_413() {
    let server = Server::start(&[FIXTURE]);
    let big = vec![b'x'; (1 << 20) + 1000];
    let (status, _) = server.request("POST", "/api/games", Some(&big));
    assert_eq!(status, 413);
    // A pasted log under the limit is opened.
    let log = std::fs::read(FIXTURE).expect("the fixture");
    let (status, body) = server.request("POST", "/api/games", Some(&log));
    assert_eq!(status, 200, "{}", text(&body));
}

#[test]
fn play_and_entry_need_a_record_directory() {
    let server = Server::start(&[FIXTURE]);
    let new = json!({"mode": "play", "rules": "yahtzee", "players": ["ann"]}).to_string();
    let (status, body) = server.request("POST", "/api/sessions", Some(new.as_bytes()));
    assert_eq!(status, 409);
    assert!(text(&body).contains("--record"), "{}", text(&body));
}

/// Plays the session of `state` to its end: `roll` gives the dice to enter for the state (`None`:
/// the server rolls), `pick` the option to take among those valued, best first.
fn play_out(
    server: &Server,
    mut state: Value,
    mut roll: impl FnMut(&Value) -> Option<String>,
    mut pick: impl FnMut(&[Value]) -> String,
) -> Value {
    let id = state["id"].as_str().expect("an id").to_string();
    for _ in 0..2000 {
        state = match state["phase"].as_str() {
            Some("over") => return state,
            Some("roll") => {
                let body = match roll(&state) {
                    Some(dice) => json!({ "dice": dice }),
                    None => json!({}),
                };
                server.json("POST", &format!("/api/sessions/{id}/roll"), Some(body))
            }
            Some("choose") => {
                let options = state["valued"]["options"].as_array().expect("options");
                let option = pick(options);
                let body = json!({ "option": option });
                server.json("POST", &format!("/api/sessions/{id}/choose"), Some(body))
            }
            other => panic!("phase {other:?}: {state}"),
        };
    }
    panic!("the game did not end: {state}");
}

/// `analyze FILE --oracle e`: the leaderboard, after checking the game was rated.
pub(crate) fn analyzed(file: &str) -> String {
    let out = tempfile::tempdir().expect("a directory");
    let dir = out.path().display().to_string();
    let board = run_ok(&crate::common::solitaire_analyze(file, &dir), 1);
    let games = std::fs::read_to_string(out.path().join("games.csv")).expect("games.csv");
    assert_eq!(games.lines().count(), 2, "one game rated: {games}");
    board
}

#[test]
fn a_game_played_against_the_oracle_is_recorded_and_analyzed() {
    let record = tempfile::tempdir().expect("a directory");
    let dir = record.path().display().to_string();
    let server = Server::start(&[FIXTURE, "--record", &dir, "--oracle", "e"]);
    let new = json!({"mode": "play", "rules": "yahtzee", "players": ["ann", "oracle"],
        "oracle_seats": [1], "coach": true});
    let state = server.json("POST", "/api/sessions", Some(new));
    assert_eq!(state["players"], json!(["ann", "oracle"]));
    // Ann takes the second-best option when there is one: the coach may flag some.
    let end = play_out(
        &server,
        state,
        |_| None,
        |o| {
            o.get(1).unwrap_or(&o[0])["option"]
                .as_str()
                .expect("option")
                .to_string()
        },
    );
    let file = end["record"].as_str().expect("a record file").to_string();
    assert!(file.starts_with(&dir), "{file}");
    let log = std::fs::read_to_string(&file).expect("the record");
    assert!(log.contains("[Result"), "finished: {log}");
    assert!(!log.contains("abandoned"), "{log}");
    let board = analyzed(&file);
    assert!(board.contains("ann") && board.contains("oracle"), "{board}");
    // The oracle's seat played the solitaire oracle's best: no error.
    let check = run_ok(&["validate", &file, "--oracle", "e", "--json"], 1);
    let v: Value = serde_json::from_str(&check).expect("JSON");
    assert_eq!(v["verdict"], "legal", "{check}");
}

#[test]
fn an_entered_paper_game_is_recorded_and_the_coach_flags_a_costly_choice() {
    let record = tempfile::tempdir().expect("a directory");
    let dir = record.path().display().to_string();
    let server = Server::start(&[FIXTURE, "--record", &dir]);
    let new = json!({"mode": "entry", "rules": "yatzy", "players": ["pen"], "coach": true});
    let state = server.json("POST", "/api/sessions", Some(new));
    let id = state["id"].as_str().expect("an id").to_string();
    // Entry mode needs the dice.
    let (status, _) = server.request("POST", &format!("/api/sessions/{id}/roll"), Some(b"{}"));
    assert_eq!(status, 400);
    // Five sixes scored as ones: far worse than yatzy (50), the coach flags it.
    let state = server.json(
        "POST",
        &format!("/api/sessions/{id}/roll"),
        Some(json!({"dice": "66666"})),
    );
    assert_eq!(state["dice"], json!([6, 6, 6, 6, 6]));
    let best = state["valued"]["options"][0]["option"].clone();
    let state = server.json(
        "POST",
        &format!("/api/sessions/{id}/choose"),
        Some(json!({"option": "score 1"})),
    );
    let flags = state["flags"].as_array().expect("flags");
    assert_eq!(flags.len(), 1, "{state}");
    assert_eq!(flags[0]["chosen"], "score 1");
    assert_eq!(flags[0]["best"], best);
    assert!(flags[0]["loss"].as_f64().expect("loss") > 0.2);
    // The rest entered from a fixed sequence of dice, the best option each time: no flag.
    let mut n = 0u32;
    let end = play_out(
        &server,
        state,
        |state| {
            // Only the dice rolled: five less those kept.
            let kept = state["kept"].as_array().map_or(0, Vec::len) as u32;
            n += 1;
            let dice = (kept..5).map(|k| char::from(b'1' + ((n * 7 + k * 3) % 6) as u8));
            Some(dice.collect())
        },
        |o| o[0]["option"].as_str().expect("option").to_string(),
    );
    assert_eq!(end["flags"].as_array().map(Vec::len), Some(1), "{end}");
    let file = end["record"].as_str().expect("a record file").to_string();
    let board = analyzed(&file);
    assert!(board.contains("pen"), "{board}");
}

#[test]
fn a_what_if_follows_another_option_from_a_decision() {
    let server = Server::start(&[FIXTURE]);
    let key = key_of(&server, "valid-2");
    let (replay, _) = replayed(&find_game(Path::new(FIXTURE), "valid-2"));
    let d = &replay.decisions[0];
    let keep = format!(
        "keep {}",
        d.dice.faces()[..2]
            .iter()
            .map(u8::to_string)
            .collect::<String>()
    );
    let new = json!({"mode": "whatif", "game": key, "decision": 0, "option": keep});
    let state = server.json("POST", "/api/sessions", Some(new));
    assert_eq!(state["phase"], "roll");
    assert_eq!(state["kept"], json!(d.dice.faces()[..2]));
    assert!(state["record"].is_null(), "a what-if is not recorded");
    let id = state["id"].as_str().expect("an id");
    let state = server.json("POST", &format!("/api/sessions/{id}/roll"), Some(json!({})));
    assert_eq!(state["phase"], "choose");
    assert_eq!(state["dice"].as_array().map(Vec::len), Some(5));
    assert_eq!(state["roll"], 2);
}

#[test]
fn a_missing_table_is_reported_and_not_built() {
    let tables = tempfile::tempdir().expect("a directory");
    let record = tempfile::tempdir().expect("a directory");
    let dir = record.path().display().to_string();
    let server = Server::start_with(&[FIXTURE, "--record", &dir], tables.path());
    let key = key_of(&server, "valid-2");
    let game = server.json("GET", &format!("/api/games/{key}"), None);
    let note = game["note"].as_str().expect("a note");
    assert!(note.contains("tables build --rules yatzy"), "{note}");
    // The decision is drawn; its options are not valued, and say why.
    let decision = server.json("GET", &format!("/api/games/{key}/decisions/0"), None);
    assert_eq!(decision["dice"].as_array().map(Vec::len), Some(5));
    assert_eq!(decision["valued"]["options"], json!([]));
    let why = decision["valued"]["error"].as_str().expect("why");
    assert!(why.contains("yatzy.expected.tbl"), "{why}");
    // A Jamb game entered without its table: no values, but the game goes on.
    let new = json!({"mode": "entry", "rules": "jamb-4", "players": ["p"]});
    let state = server.json("POST", "/api/sessions", Some(new));
    let id = state["id"].as_str().expect("an id").to_string();
    let roll = json!({"dice": "66612"});
    let state = server.json("POST", &format!("/api/sessions/{id}/roll"), Some(roll));
    assert_eq!(state["phase"], "choose");
    let why = state["valued"]["error"].as_str().expect("why");
    assert!(why.contains("jamb-4"), "{why}");
    let choose = json!({"option": "score D:1"});
    let state = server.json("POST", &format!("/api/sessions/{id}/choose"), Some(choose));
    assert_eq!(state["phase"], "roll");
    assert_eq!(state["sheets"][0]["total"], 1);
    let built: Vec<_> = std::fs::read_dir(tables.path())
        .expect("the directory")
        .collect();
    assert!(built.is_empty(), "the board built tables: {built:?}");
}

#[test]
fn games_a_log_cannot_give_are_named_on_stderr_and_the_others_listed() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args([
            "serve",
            "fixtures/ygn/bad_die.ygn",
            "--port",
            "0",
            "--tables",
        ])
        .arg(tables_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().expect("stdout");
    let mut listening = String::new();
    BufReader::new(stdout)
        .read_line(&mut listening)
        .expect("a line");
    let _ = child.kill();
    let output = child.wait_with_output().expect("the server's stderr");
    let stderr = text(&output.stderr);
    assert!(
        listening.starts_with("listening on http://127.0.0.1:"),
        "{listening}"
    );
    assert!(
        stderr.contains("bad_die.ygn:30:11: game bad_die-2: expected a die 1-6"),
        "the skipped game with its place: {stderr}"
    );
    assert!(
        stderr.contains("games skipped, the others listed"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("bad_die.ygn: bad_die.ygn"),
        "the file named once: {stderr}"
    );
}
