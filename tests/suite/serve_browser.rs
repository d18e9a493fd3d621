//! The review board of `dicelens serve` in headless Chromium, driven over the DevTools pipe
//! (`cdp`) as a person would: a game opened from the list, stepped through with the keyboard,
//! its drawn dice and sheets checked against the replay, its options' values against `eval`,
//! another option followed (what-if) and valued again as `eval` values that position; a game
//! played in play mode and one entered in entry mode, both read back by `analyze`; a panel
//! chosen before the list of games has come stays shown when it comes.

use crate::cdp::Browser;
use crate::common::{find_game, replayed};
use crate::serve::{analyzed, eval_args, eval_options, key_of, Server, FIXTURE};
use dicelens::rules::Choice;
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// Longest the page may take to show what a click or key asked for.
const SHOWN: Duration = Duration::from_secs(120);

/// The options shown on the board as (option, value), in table order.
fn shown_options(browser: &mut Browser) -> Vec<(String, f64)> {
    let rows = browser.eval(
        "Array.from(document.querySelectorAll('.option')).map(r => \
         [r.dataset.option, parseFloat(r.dataset.value)])",
    );
    rows.as_array()
        .expect("a list of options")
        .iter()
        .map(|r| {
            let option = r[0].as_str().expect("data-option").to_string();
            (option, r[1].as_f64().expect("data-value"))
        })
        .collect()
}

/// Checks the board's options against `eval`'s, option by option (same options, same order,
/// values within 1e-9).
fn assert_same_options(shown: &[(String, f64)], evaluated: &[(String, f64)], what: &str) {
    assert_eq!(
        shown.len(),
        evaluated.len(),
        "{what}: {shown:?} vs {evaluated:?}"
    );
    for ((option, value), (e_option, e_value)) in shown.iter().zip(evaluated) {
        assert_eq!(option, e_option, "{what}");
        assert!(
            (value - e_value).abs() < 1e-9,
            "{what}: {option}: {value} vs eval {e_value}"
        );
    }
}

/// Waits until the board shows a session state other than the one shown before `act` ran;
/// fails the test with the board's error if it shows one instead.
fn after(browser: &mut Browser, act: impl FnOnce(&mut Browser)) {
    browser.eval("window.shownBefore = window.board.session; window.board.error = null; true");
    act(browser);
    browser.wait_for(
        "(window.board.session && window.board.session !== window.shownBefore) \
         || window.board.error",
        SHOWN,
    );
    let error = browser.eval("window.board.error");
    assert!(error.is_null(), "the board shows an error: {error}");
}

/// Loads the board's page and waits until its start is done (the list of games drawn).
fn open_board(browser: &mut Browser, server: &Server) {
    browser.navigate(&format!("http://127.0.0.1:{}/", server.port));
    browser.wait_for("window.board.ready", SHOWN);
}

#[test]
fn a_game_opened_in_the_browser_is_drawn_as_replayed_and_valued_as_eval() {
    let server = Server::start(&[FIXTURE]);
    let game_id = "valid-1";
    let key = key_of(&server, game_id);
    let (replay, _) = replayed(&find_game(Path::new(FIXTURE), game_id));
    assert!(replay.seats > 1, "a game of several players");
    // A keep decision a few turns in, with the dice still to be rolled again.
    let index = (4..replay.decisions.len())
        .find(|&i| matches!(replay.decisions[i].choice, Choice::Keep(_)))
        .expect("a keep decision");
    let d = &replay.decisions[index];

    let mut browser = Browser::start();
    open_board(&mut browser, &server);
    browser.wait_for(
        "document.querySelectorAll('#games tr[data-game]').length > 0",
        SHOWN,
    );
    browser.click(&format!("#games tr[data-game=\"{key}\"]"));
    browser.wait_for(
        "document.getElementById('board').dataset.decision === '0'",
        SHOWN,
    );
    for step in 1..=index {
        browser.press("ArrowRight");
        let shown = format!("document.getElementById('board').dataset.decision === '{step}'");
        browser.wait_for(&shown, SHOWN);
    }
    browser.wait_for("document.querySelectorAll('.option').length > 0", SHOWN);

    // The dice drawn are the decision's roll.
    let drawn = browser
        .eval("Array.from(document.querySelectorAll('[data-die]')).map(e => +e.dataset.value)");
    let mut drawn: Vec<u8> = serde_json::from_value(drawn).expect("die values");
    drawn.sort_unstable();
    assert_eq!(drawn, d.dice.faces().to_vec(), "decision {index}'s dice");

    // The mover's column of the sheet: a box is drawn filled exactly when the replay's sheet
    // has it filled, and the upper boxes drawn add up to the sheet's upper total.
    let sheet = d.sheet.yahtzee().expect("a one-column sheet");
    let boxes = sheet.rules.boxes();
    let mut upper_drawn = 0;
    for (b, kind) in boxes.iter().enumerate() {
        let code = serde_json::to_string(kind.code()).expect("a code");
        let cell = browser.eval(&format!(
            "(() => {{ const c = Array.from(document.querySelectorAll('[data-box]'))\
             .filter(e => e.dataset.box === {code})[{seat}]; \
             return c ? c.dataset.points : null; }})()",
            seat = d.seat
        ));
        let points = cell
            .as_str()
            .unwrap_or_else(|| panic!("box {code} of seat {}", d.seat));
        let filled = sheet.filled & (1 << b) != 0;
        assert_eq!(!points.is_empty(), filled, "box {code}: drawn {points:?}");
        if b < 6 && filled {
            upper_drawn += points.parse::<u32>().expect("points");
        }
    }
    assert_eq!(upper_drawn, sheet.upper_total, "the upper boxes drawn");

    // Every option with `eval`'s value (match points by emp:1, as the server's default).
    let dice = d.dice.to_string();
    let evaluated = eval_options(&eval_args(&replay, d, &dice, d.rolls_left(), true));
    assert_same_options(&shown_options(&mut browser), &evaluated, "the decision");

    // Another keep followed: the board asks for the dice, they are entered on the pad, and the
    // position after them is valued as `eval` values it.
    let other = browser.eval(
        "(() => { const rows = Array.from(document.querySelectorAll('.option'))\
         .filter(r => r.dataset.option.startsWith('keep ') && r.dataset.chosen !== 'true'); \
         return rows.length ? rows[rows.length - 1].dataset.option : null; })()",
    );
    let other = other.as_str().expect("another keep").to_string();
    let kept: Vec<u8> = match other.trim_start_matches("keep ") {
        "-" => Vec::new(),
        digits => digits.bytes().map(|c| c - b'0').collect(),
    };
    after(&mut browser, |b| {
        b.click(&format!(".option[data-option=\"{other}\"]"))
    });
    assert_eq!(browser.eval("window.board.session.phase"), "roll");
    let rolled: Vec<u8> = (0..5 - kept.len()).map(|i| [6, 5, 6, 2, 1][i]).collect();
    for face in &rolled {
        browser.click(&format!("#dice-pad [data-face=\"{face}\"]"));
    }
    after(&mut browser, |b| b.click("#roll"));
    browser.wait_for("window.board.session.phase === 'choose'", SHOWN);
    let mut table: Vec<u8> = kept.iter().chain(&rolled).copied().collect();
    table.sort_unstable();
    let table: String = table.iter().map(|f| char::from(b'0' + f)).collect();
    let evaluated = eval_options(&eval_args(&replay, d, &table, d.rolls_left() - 1, true));
    assert_same_options(
        &shown_options(&mut browser),
        &evaluated,
        &format!("{other}, then {table}"),
    );

    // Back to the game, at the same decision.
    browser.click("#back");
    let shown = format!("document.getElementById('board').dataset.decision === '{index}'");
    browser.wait_for(&shown, SHOWN);
}

/// Plays the board's session to its end in the browser: `roll` enters the dice of a roll phase
/// (or clicks roll for the server to roll), and the first option shown (the best) is taken at
/// every choice. The session's last state.
fn play_in_browser(browser: &mut Browser, mut roll: impl FnMut(&mut Browser, usize)) -> Value {
    for _ in 0..400 {
        let phase = browser.eval("window.board.session.phase");
        match phase.as_str() {
            Some("over") => return browser.eval("window.board.session"),
            Some("roll") => {
                let kept = browser.eval("window.board.session.kept.length");
                let kept = kept.as_u64().expect("kept dice") as usize;
                after(browser, |b| roll(b, kept));
            }
            Some("choose") => after(browser, |b| b.click(".option")),
            other => panic!("phase {other:?}"),
        }
    }
    panic!("the game did not end");
}

/// Starts a one-player game of `mode` (`play` or `entry`) of yahtzee for `player` from the
/// board's form.
fn new_game(browser: &mut Browser, server: &Server, mode: &str, player: &str) {
    open_board(browser, server);
    browser.click("#show-play");
    browser.eval(&format!(
        "document.getElementById('new-mode').value = '{mode}'; \
         document.getElementById('new-rules').value = 'yahtzee'; \
         document.getElementById('new-players').value = '{player}'; \
         document.getElementById('new-opponent').value = ''; true"
    ));
    after(browser, |b| b.click("#new-game"));
}

/// A server of the fixture recording games into a fresh directory: the directory (removed
/// when dropped, after the server), its path, and the server.
fn recording_server() -> (tempfile::TempDir, String, Server) {
    let record = tempfile::tempdir().expect("a directory");
    let dir = record.path().display().to_string();
    let server = Server::start(&[FIXTURE, "--record", &dir]);
    (record, dir, server)
}

#[test]
fn games_played_and_entered_in_the_browser_are_recorded_and_analyzed() {
    let (_record, dir, server) = recording_server();
    let mut browser = Browser::start();

    // Play mode: the server rolls.
    new_game(&mut browser, &server, "play", "clicker");
    let over = play_in_browser(&mut browser, |b, _| b.click("#roll"));
    let played = over["record"].as_str().expect("a record file").to_string();
    assert!(played.starts_with(&dir), "{played}");
    let board = analyzed(&played);
    assert!(board.contains("clicker"), "{board}");

    // Entry mode: the dice of a paper game typed on the pad, a fixed sequence of faces.
    new_game(&mut browser, &server, "entry", "penciller");
    let mut faces = [3u8, 1, 4, 1, 5, 6, 2, 6, 5, 3, 5].iter().cycle();
    let over = play_in_browser(&mut browser, |b, kept| {
        for _ in kept..5 {
            let face = faces.next().expect("an endless cycle");
            b.click(&format!("#dice-pad [data-face=\"{face}\"]"));
        }
        b.click("#roll");
    });
    let entered = over["record"].as_str().expect("a record file").to_string();
    assert_ne!(entered, played);
    let log = std::fs::read_to_string(&entered).expect("the entered game");
    assert!(
        log.contains("penciller") && !log.contains("abandoned"),
        "{log}"
    );
    let board = analyzed(&entered);
    assert!(board.contains("penciller"), "{board}");
}

#[test]
fn a_panel_chosen_while_the_games_load_stays_shown() {
    let (_record, _, server) = recording_server();
    let mut browser = Browser::start();
    // The page's request for the list of games is held until the test lets it go, so that
    // Play is clicked before the list comes (as on a slow server or a loaded machine).
    browser.before_each_document(
        "const sent = window.fetch; \
         window.fetch = (path, init) => String(path) === '/api/games' \
           && (!init || init.method === 'GET') \
           ? new Promise((go) => { window.releaseGames = () => go(sent(path, init)); }) \
           : sent(path, init);",
    );
    browser.navigate(&format!("http://127.0.0.1:{}/", server.port));
    browser.wait_for("typeof window.releaseGames === 'function'", SHOWN);
    browser.click("#show-play");
    browser.eval("window.releaseGames(); true");
    browser.wait_for("window.board.ready", SHOWN);
    assert_eq!(
        browser.eval("document.querySelectorAll('#games tr[data-game]').length > 0"),
        true,
        "the list of games is drawn"
    );
    assert_eq!(
        browser.eval("document.getElementById('play-panel').hidden"),
        false,
        "the play panel chosen stays shown"
    );
    assert_eq!(
        browser.eval("document.getElementById('games-panel').hidden"),
        true,
        "the games panel stays hidden"
    );
    // The form works: a game starts.
    browser.eval("document.getElementById('new-players').value = 'early'; true");
    after(&mut browser, |b| b.click("#new-game"));
    assert_eq!(browser.eval("window.board.session.players[0]"), "early");
}
