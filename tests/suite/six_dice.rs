//! The commands on the six-dice rule sets and the Announce column (issue 33): a game of
//! `jamb-6a` (a pure hand on the Announce column, six dice) and of `yamb-hr` validated, their pages drawn in
//! headless Chromium (four slip columns with the Announce column, the announced box framed),
//! converted to every Jamb log format and back, their dice counted; a game of `maxi-yatzy`
//! validated and rated on its page (six dice in a roll, a 20-box scorecard), and `eval` on a
//! reduced Maxi Yatzy position against the library's values.
//!
//! The whole Maxi Yatzy table and the six-dice Jamb oracle's tables take minutes to build, too
//! long for the suite: the Maxi Yatzy commands read a sub-game table (`build_subgame_table`:
//! exact for every state with the given boxes filled, 0 elsewhere) written where the table
//! goes, and the Jamb pages are checked unrated (their tables' path is a directory, which a
//! command refuses as a table: the game is replayed and drawn, its decisions not rated).

use crate::browser::{chromium, keep, require_chromium};
use crate::common::{find_game, replayed, run_ok};
use crate::game_page::validate_page;
use dicelens::position::{Position, PositionText};
use dicelens::rules::jamb::JambRules;
use dicelens::rules::{PlayerSheet, RuleSet};
use dicelens::solve::expected::build_subgame_table;
use dicelens::solve::turn_oracle::position_options;
use dicelens::tables::{expected_path, jamb_path, write_expected};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A game of `jamb-6a`: an announced poker on the Announce column, a straight, ones down.
const JAMB_6A: &str = "[Game \"j6a-1\"]\n[Rules \"jamb-6a\"]\n[Players \"ana\"]\n\
[Termination \"abandoned\"]\n\n\
1. ana: 666636 A:P=74\n\
2. ana: 123456 F:K=50\n\
3. ana: 111234 D:1=3\n";

/// A game of `yamb-hr`: five dice, an announced Yamb, ones down.
const YAMB_HR: &str = "[Game \"hr-1\"]\n[Rules \"yamb-hr\"]\n[Players \"ivo\"]\n\
[Termination \"abandoned\"]\n\n\
1. ivo: 55123 k55 55534 k555 55555 F:J=75\n\
2. ivo: 11234 D:1=2\n";

/// A game of `maxi-yatzy`: three pairs, a full straight, then six sixes after a keep.
const MAXI: &str = "[Game \"maxi-1\"]\n[Rules \"maxi-yatzy\"]\n[Players \"ann\"]\n\
[Termination \"abandoned\"]\n\n\
1. ann: 112233 3P=12\n\
2. ann: 654321 FS=21\n\
3. ann: 666612 k6666 666666 Y=100\n";

/// Writes `text` to `dir/name`; returns the path.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a log written");
    path
}

/// A tables directory in which the table of every Jamb rule set is a directory: a command
/// refuses it as a table (not a regular file) and draws the game unrated, in a second.
fn unrated_tables(dir: &Path) -> PathBuf {
    let tables = dir.join("no-tables");
    for rules in JambRules::ALL {
        std::fs::create_dir_all(jamb_path(&tables, rules)).expect("a directory");
    }
    tables
}

/// `validate LOG --game ID --json --html --out PAGES --tables TABLES` of a legal game: the
/// report and the page.
fn validate(log: &Path, id: &str, pages: &Path, tables: &Path) -> (Value, String) {
    let tables = tables.to_str().expect("a UTF-8 path");
    let (report, _, html) = validate_page(log, id, pages, &["--tables", tables], true);
    assert_eq!(report["verdict"], "legal", "{report}");
    (report, html)
}

/// The page as headless Chromium parsed it (its DOM), a screenshot kept for a look.
fn rendered(dir: &Path, name: &str, html: &str) -> String {
    require_chromium();
    let page = write(dir, &format!("{name}.html"), html);
    let png = dir.join(format!("{name}.png"));
    chromium(&page, &[format!("--screenshot={}", png.display())]);
    keep(
        "six_dice",
        &format!("{name}.png"),
        &std::fs::read(&png).unwrap_or_default(),
    );
    String::from_utf8(chromium(&page, &["--dump-dom".to_string()])).expect("UTF-8 DOM")
}

/// The element of `dom` from the start tag holding `attr` to the next `close`.
fn element<'a>(dom: &'a str, attr: &str, close: &str) -> &'a str {
    let at = dom
        .find(attr)
        .unwrap_or_else(|| panic!("no {attr} in the DOM"));
    let start = dom[..at].rfind('<').expect("a tag");
    &dom[start..at + dom[at..].find(close).expect("closed")]
}

/// Converts `log` to each format and back to YGN: the games read back are the games written.
fn converts_both_ways(dir: &Path, log: &Path, id: &str) {
    let original = find_game(log, id);
    for format in ["jsonl", "csv"] {
        let there = dir.join(format!("{id}.{format}"));
        let back = dir.join(format!("{id}-{format}.ygn"));
        run_ok(
            &[
                "convert",
                log.to_str().expect("UTF-8"),
                "--to",
                format,
                "--include-unfinished",
                "--out",
                there.to_str().expect("UTF-8"),
            ],
            1,
        );
        run_ok(
            &[
                "convert",
                there.to_str().expect("UTF-8"),
                "--to",
                "ygn",
                "--include-unfinished",
                "--out",
                back.to_str().expect("UTF-8"),
            ],
            1,
        );
        for path in [&there, &back] {
            let game = find_game(path, id);
            assert_eq!(game.players, original.players, "{format}");
            let turns = |g: &dicelens_parsers::GameRecord| -> Vec<String> {
                g.turns
                    .iter()
                    .map(|t| {
                        format!(
                            "{} {} {:?} {:?} {:?} {} {:?}",
                            t.round,
                            t.seat,
                            t.rolls(),
                            t.keeps(),
                            t.announced,
                            t.category.as_str(),
                            t.points
                        )
                    })
                    .collect()
            };
            assert_eq!(turns(&game), turns(&original), "{}", path.display());
            assert_eq!(game.rules, original.rules, "{format}");
        }
    }
}

/// `dice LOG --json`: the group's counts, which must hold `rolls_of_six` rolls of six fresh
/// dice (none when the game rolls five).
fn counts_six_dice(log: &Path, rolls_of_six: u64) -> Value {
    let log = log.to_str().expect("UTF-8");
    let out = run_ok(&["dice", log, "--include-unfinished", "--json"], 1);
    let groups: Value = serde_json::from_str(&out).expect("dice --json");
    let group = &groups[0];
    let by_dice = group["sums"]["by_dice"].as_array().expect("by_dice");
    let six = by_dice.iter().find(|n| n["dice"] == 6);
    assert_eq!(
        six.map_or(0, |n| n["rolls"].as_u64().unwrap_or(0)),
        rolls_of_six,
        "{group}"
    );
    group.clone()
}

#[test]
fn a_jamb_6a_game_announces_on_a_four_column_slip_and_round_trips() {
    let dir = tempfile::tempdir().expect("a directory");
    let log = write(dir.path(), "j6a.ygn", JAMB_6A);
    let tables = unrated_tables(dir.path());
    let (report, html) = validate(&log, "j6a-1", &dir.path().join("pages"), &tables);
    assert_eq!(report["rules"], "jamb-6a");
    let dom = rendered(dir.path(), "j6a", &html);
    let slip = element(&dom, "data-seat=\"0\"", "</table>");
    // Four columns, the Announce column last, each of the 13 rows.
    let headings: Vec<&str> = ["Down", "Free", "Up", "Announce"]
        .into_iter()
        .filter(|name| slip.contains(&format!(">{name} <span class=\"code\">")))
        .collect();
    assert_eq!(headings, ["Down", "Free", "Up", "Announce"], "{slip}");
    assert_eq!(slip.matches("data-cell=").count(), 4 * 13);
    // The Announce column's poker filled with a pure hand; the others as the replay left them.
    assert!(
        slip.contains("<td class=\"num\" data-cell=\"A:P\">74</td>"),
        "{slip}"
    );
    let (replay, ended) = replayed(&find_game(&log, "j6a-1"));
    assert!(ended.is_ok(), "{ended:?}");
    let PlayerSheet::Jamb(final_slip) = replay.finals()[0] else {
        panic!("a Jamb slip");
    };
    for cell in final_slip.filled_cells() {
        let code = final_slip.cell_code(cell);
        assert!(slip.contains(&format!("data-cell=\"{code}\"")), "{code}");
    }
    assert_eq!(final_slip.total(), 74 + 50 + 3);
    let cell_a_p = final_slip
        .parse_cell("A:P")
        .expect("the Announce column's poker");
    assert_eq!(
        final_slip
            .column(usize::from(cell_a_p.column))
            .and_then(|c| c.value(cell_a_p.jbox)),
        Some(74)
    );
    converts_both_ways(dir.path(), &log, "j6a-1");
    // The first rolls bring six fresh dice: three rolls of six.
    let counts = counts_six_dice(&log, 3);
    assert_eq!(counts["fresh_dice"], 6 + 6 + 6);
}

#[test]
fn a_yamb_hr_game_announces_on_its_own_columns_and_round_trips() {
    let dir = tempfile::tempdir().expect("a directory");
    let log = write(dir.path(), "hr.ygn", YAMB_HR);
    let tables = unrated_tables(dir.path());
    let (report, html) = validate(&log, "hr-1", &dir.path().join("pages"), &tables);
    assert_eq!(report["rules"], "yamb-hr");
    let dom = rendered(dir.path(), "hr", &html);
    let slip = element(&dom, "data-seat=\"0\"", "</table>");
    let order: Vec<usize> = ["Down", "Up", "Free", "Announce"]
        .into_iter()
        .map(|name| {
            slip.find(&format!(">{name} <span class=\"code\">"))
                .unwrap_or_else(|| panic!("no column {name}: {slip}"))
        })
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    assert!(
        slip.contains("<td class=\"num\" data-cell=\"F:J\">75</td>"),
        "{slip}"
    );
    converts_both_ways(dir.path(), &log, "hr-1");
    counts_six_dice(&log, 0);
}

/// The boxes filled in the reduced Maxi Yatzy positions: all but the six below.
const MAXI_OPEN: [&str; 6] = ["3P", "FS", "Y", "VI", "TO", "C"];

/// A tables directory whose `maxi-yatzy` table is the sub-game with every box but
/// [`MAXI_OPEN`] filled (exact there, 0 elsewhere).
pub(crate) fn maxi_sub_game_tables(dir: &Path) -> PathBuf {
    let rules = RuleSet::MaxiYatzy;
    let open = MAXI_OPEN.iter().fold(0u32, |mask, code| {
        mask | 1 << rules.parse_box(code).expect("a Maxi Yatzy box").0
    });
    let table = build_subgame_table(rules, rules.full_mask() & !open, &|_, _| {});
    let tables = dir.join("maxi-tables");
    std::fs::create_dir_all(&tables).expect("a directory");
    write_expected(&tables, rules, &table).expect("the table written");
    assert!(expected_path(&tables, rules).is_file());
    tables
}

#[test]
fn maxi_yatzy_draws_six_dice_and_twenty_boxes_and_evals_a_reduced_position() {
    let dir = tempfile::tempdir().expect("a directory");
    let tables = maxi_sub_game_tables(dir.path());

    // eval on a position of the sub-game: six dice, the library's values.
    let filled: Vec<&str> = RuleSet::MaxiYatzy
        .boxes()
        .iter()
        .map(|c| c.code())
        .filter(|code| !MAXI_OPEN.contains(code))
        .collect();
    let filled = filled.join(",");
    let out = run_ok(
        &[
            "eval",
            "--rules",
            "maxi-yatzy",
            "--filled",
            &filled,
            "--upper",
            "70",
            "--roll",
            "334455",
            "--rolls-left",
            "2",
            "--tables",
            tables.to_str().expect("UTF-8"),
            "--json",
        ],
        1,
    );
    let options: Value = serde_json::from_str(&out).expect("eval --json");
    let position = Position::parse(&PositionText {
        rules: Some("maxi-yatzy".into()),
        filled: Some(filled.clone()),
        upper: Some("70".into()),
        roll: Some("334455".into()),
        rolls_left: Some("2".into()),
        ..PositionText::default()
    })
    .expect("a position");
    let (roll, left) = position.roll.expect("a roll");
    let table = dicelens::tables::open_expected(&tables, RuleSet::MaxiYatzy).expect("the table");
    let library = position_options(table.values(), &position.sheet, &roll, left);
    let best = library
        .iter()
        .map(|o| o.value)
        .fold(f64::NEG_INFINITY, f64::max);
    let first = options[0]["value"].as_f64().expect("a value");
    assert!((first - best).abs() < 1e-6, "eval {first}, library {best}");
    assert_eq!(options.as_array().map(Vec::len), Some(library.len()));

    // validate: the game rated (its values outside the sub-game are not the game's: only the
    // drawing is checked), its page with six dice in a roll and the 20 boxes of the sheet.
    let log = write(dir.path(), "maxi.ygn", MAXI);
    let (report, html) = validate(&log, "maxi-1", &dir.path().join("pages"), &tables);
    assert_eq!(report["rules"], "maxi-yatzy");
    assert_eq!(
        report["scorecards"][0]["boxes"].as_array().map(Vec::len),
        Some(20)
    );
    let dom = rendered(dir.path(), "maxi", &html);
    let moves = element(&dom, "class=\"moves\"", "</table>");
    for dice in ["112233", "123456", "666666"] {
        assert!(
            moves.contains(&format!("<td>{dice}</td>")),
            "no roll {dice}: {moves}"
        );
    }
    assert!(
        moves.contains("<td class=\"num\">2 of 3</td><td>666666</td>"),
        "{moves}"
    );
    let cards = element(&dom, "class=\"scorecards\"", "</table>");
    for name in [
        "Three pairs",
        "Full straight",
        "Villa",
        "Tower",
        "Maxi Yatzy",
    ] {
        assert!(
            cards.contains(&format!("<th>{name} <span")),
            "{name}: {cards}"
        );
    }
    assert!(cards.contains("84 for the bonus"), "{cards}");
    assert_eq!(cards.matches("<span class=\"round\">").count(), 3);
    converts_both_ways(dir.path(), &log, "maxi-1");
    let counts = counts_six_dice(&log, 3);
    assert_eq!(counts["fresh_dice"], 6 + 6 + 6 + 2);
}
