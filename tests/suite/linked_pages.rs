//! The linked pages of an analysis: `analyze` writes a page per player of the leaderboard
//! (`players/`) and a page per game named among their worst decisions (`games/`), exactly
//! those; every link of a player page resolves to a file and, for `#dN`, to an element of it
//! (checked in the page source and, for one chain, in Chromium's DOM); the pages show all
//! players and the best players beside the player, and the trend's games add up; the bytes do
//! not depend on the thread count; `merge` writes the player pages without worst decisions.

use crate::browser::{chromium, keep, require_chromium};
use crate::common::{run_ok, simulate_two_seat};
use dicelens::report::{game, player};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Least games on the leaderboard of these tests' analyses.
const MIN_GAMES: &str = "40";

/// The simulated log and its analysis (two threads), made once.
fn corpus() -> &'static (tempfile::TempDir, PathBuf, PathBuf) {
    static CORPUS: OnceLock<(tempfile::TempDir, PathBuf, PathBuf)> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("x.ygn");
        let args = simulate_two_seat(10, 300, 8, log.to_str().unwrap());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run_ok(&args, 2);
        let out = dir.path().join("a");
        analyze(&log, &out, 2);
        (dir, log, out)
    })
}

/// `analyze LOG --min-games MIN_GAMES --out OUT` with `threads` threads (default oracle).
fn analyze(log: &Path, out: &Path, threads: usize) {
    let args = [
        "analyze",
        log.to_str().unwrap(),
        "--min-games",
        MIN_GAMES,
        "--out",
        out.to_str().unwrap(),
    ];
    run_ok(&args, threads);
}

/// The names in `dir` (none if it does not exist), sorted.
fn names(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Every file under `dir` by relative path, with its bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for name in names(dir) {
        let path = dir.join(&name);
        if path.is_dir() {
            for (inner, bytes) in tree(&path) {
                out.insert(format!("{name}/{inner}"), bytes);
            }
        } else {
            out.insert(name, fs::read(&path).unwrap());
        }
    }
    out
}

/// The values of attribute `attr` (`href`, `id`) in an HTML text, unescaped.
fn attributes(html: &str, attr: &str) -> Vec<String> {
    let pattern = format!(" {attr}=\"");
    html.match_indices(&pattern)
        .map(|(at, _)| {
            let rest = &html[at + pattern.len()..];
            let end = rest.find('"').expect("a closed attribute");
            rest[..end].replace("&amp;", "&").replace("&quot;", "\"")
        })
        .collect()
}

/// The players of `leaderboard.csv`, with their games.
fn ranked(analysis: &Path) -> BTreeMap<String, u64> {
    let mut reader = csv::Reader::from_path(analysis.join("leaderboard.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (player, games) = (column("player"), column("games"));
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[player].to_string(), r[games].parse().unwrap())
        })
        .collect()
}

/// The cells of the rows of the table `id` of a page (its body rows).
fn table_rows(html: &str, id: &str) -> Vec<Vec<String>> {
    let start = html
        .find(&format!("<table id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no table {id}"));
    let body = &html[start..];
    let body = &body[body.find("<tbody>").unwrap()..body.find("</tbody>").unwrap()];
    body.split("<tr>")
        .skip(1)
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|cell| {
                    let text = &cell[cell.find('>').unwrap() + 1..];
                    text[..text.find("</td>").unwrap()].to_string()
                })
                .collect()
        })
        .collect()
}

#[test]
fn analysis_links_ranked_players_to_their_worst_games() {
    let (_, _, analysis) = corpus();
    let board = ranked(analysis);
    assert!(board.len() >= 3, "{board:?}");
    // Exactly one page per ranked player.
    let pages: BTreeSet<String> = board.keys().map(|n| player::file_name(n)).collect();
    assert_eq!(names(&analysis.join("players")), pages);
    let manifest = fs::read_to_string(analysis.join(".dicelens-outputs")).unwrap();
    for page in &pages {
        assert!(manifest.contains(&format!("\"players/{page}\"")), "{page}");
    }

    let mut linked_games = BTreeSet::new();
    for (name, games) in &board {
        let path = analysis.join(player::page_path(name));
        let html = fs::read_to_string(&path).unwrap();
        // All players and the best players beside the player, on both charts.
        for id in [
            "player-rounds-player",
            "player-rounds-population",
            "player-rounds-best",
            "player-kinds-player",
            "player-kinds-population",
            "player-kinds-best",
        ] {
            assert!(html.contains(&format!("id=\"{id}\"")), "{name}: {id}");
        }
        // The trend's games add up to the player's (the simulated games all have dates).
        let trend: u64 = table_rows(&html, "trend-table")
            .iter()
            .map(|cells| cells[1].parse::<u64>().unwrap())
            .sum();
        assert_eq!(trend, *games, "{name}");
        // The worst decisions: each links to its game's page at the decision.
        let worst = table_rows(&html, "worst-table");
        assert!(!worst.is_empty() && worst.len() <= 10, "{name}");
        let links: Vec<String> = attributes(&html, "href")
            .into_iter()
            // Decision links (a stretch of the screening links its games without an anchor).
            .filter(|h| h.starts_with("../games/") && h.contains('#'))
            .collect();
        assert_eq!(links.len(), worst.len(), "{name}");
        // Links into the board (`board?game=`) open only when `dicelens serve` serves the pages.
        for href in attributes(&html, "href")
            .into_iter()
            .filter(|h| !h.starts_with("board?"))
        {
            let (file, anchor) = href.split_once('#').unwrap_or((&href, ""));
            let target = path.parent().unwrap().join(file);
            assert!(target.is_file(), "{name}: {href} leads nowhere");
            if !anchor.is_empty() {
                let ids = attributes(&fs::read_to_string(&target).unwrap(), "id");
                assert!(
                    ids.iter().any(|id| id == anchor),
                    "{name}: no #{anchor} in {file}"
                );
            }
            if let Some(page) = file.strip_prefix("../games/") {
                linked_games.insert(page.to_string());
            }
        }
    }
    // Exactly the linked games have pages.
    assert_eq!(names(&analysis.join("games")), linked_games);
    assert!(!linked_games.is_empty());
}

/// The first player page's first game link, followed in Chromium: the decision's anchor is an
/// element of the game page's DOM; the player page's charts are in its DOM too.
#[test]
fn a_player_page_leads_to_the_decision_on_its_game_page_in_chromium() {
    require_chromium();
    let (dir, _, analysis) = corpus();
    let board = ranked(analysis);
    let name = board.keys().next().unwrap();
    let page = analysis.join(player::page_path(name));
    let dom = String::from_utf8(chromium(&page, &["--dump-dom".into()])).unwrap();
    for id in [
        "player-rounds",
        "player-rounds-population",
        "player-rounds-best",
        "player-kinds",
        "player-kinds-best",
        "player-trend",
    ] {
        assert!(dom.contains(&format!("id=\"{id}\"")), "{id} not in the DOM");
    }
    let href = attributes(&dom, "href")
        .into_iter()
        .find(|h| h.starts_with("../games/"))
        .expect("a link to a game");
    let (file, anchor) = href.split_once('#').expect("an anchor");
    assert!(anchor.starts_with('d'), "{href}");
    let game_page = page.parent().unwrap().join(file);
    let game_dom = String::from_utf8(chromium(&game_page, &["--dump-dom".into()])).unwrap();
    assert!(
        attributes(&game_dom, "id").iter().any(|id| id == anchor),
        "#{anchor} is not an element of {file}'s DOM"
    );
    let png = dir.path().join("player.png");
    chromium(&page, &[format!("--screenshot={}", png.display())]);
    let bytes = fs::read(&png).unwrap();
    keep("linked_pages", "player.png", &bytes);
    keep("linked_pages", "player.html", &fs::read(&page).unwrap());
}

#[test]
fn pages_are_the_same_bytes_with_one_and_two_threads() {
    let (dir, log, analysis) = corpus();
    let one = dir.path().join("one-thread");
    analyze(log, &one, 1);
    let (a, b) = (tree(analysis), tree(&one));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        assert!(*bytes == b[name], "{name} differs");
    }
    assert!(a.keys().any(|n| n.starts_with("games/")));
}

#[test]
fn merge_writes_the_player_pages_without_worst_decisions() {
    let (dir, log, analysis) = corpus();
    let merged = dir.path().join("merged");
    run_ok(
        &[
            "merge",
            analysis.to_str().unwrap(),
            "--min-games",
            MIN_GAMES,
            "--out",
            merged.to_str().unwrap(),
        ],
        2,
    );
    assert_eq!(
        names(&merged.join("players")),
        names(&analysis.join("players"))
    );
    assert!(names(&merged.join("games")).is_empty());
    for page in names(&merged.join("players")) {
        let path = merged.join("players").join(&page);
        let html = fs::read_to_string(&path).unwrap();
        assert!(html.contains("merged analysis"), "{page}");
        assert!(html.contains("id=\"player-rounds-best\""), "{page}");
        for href in attributes(&html, "href") {
            assert!(path.parent().unwrap().join(&href).is_file(), "{href}");
        }
    }
    // The player command's page has the same comparisons, from the logs and from the
    // analysis.
    let name = ranked(analysis).into_keys().next().unwrap();
    let out = dir.path().join("P");
    let json = run_ok(
        &[
            "player",
            &name,
            log.to_str().unwrap(),
            "--min-games",
            MIN_GAMES,
            "--json",
            "--out",
            out.to_str().unwrap(),
        ],
        2,
    );
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        json["compared_with"]["best_players"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(json["overview"]["luck_unit"], json["unit"]);
    let html = fs::read_to_string(out.join(player::file_name(&name))).unwrap();
    assert!(html.contains("id=\"player-kinds-population\""));
    assert!(
        !html.contains("../games/"),
        "a page on its own links to no game page"
    );
    // Its worst decisions are those the analysis's page lists, in the same order.
    let page = fs::read_to_string(analysis.join(player::page_path(&name))).unwrap();
    let games: Vec<String> = json["worst"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            let id = w["game"].as_str().unwrap();
            let order = w["order"].as_u64().unwrap() as usize;
            format!(
                "../games/{}#{}",
                game::file_name(id),
                game::decision_anchor(order)
            )
        })
        .collect();
    // (Before the screening section, whose near-perfect stretches link their games too.)
    let before_screening = page.split("<section id=\"screening\">").next().unwrap();
    let links: Vec<String> = attributes(before_screening, "href")
        .into_iter()
        .filter(|h| h.starts_with("../games/"))
        .collect();
    assert_eq!(links, games);
    let from = run_ok(
        &[
            "player",
            &name,
            "--from",
            analysis.to_str().unwrap(),
            "--min-games",
            MIN_GAMES,
            "--out",
            out.to_str().unwrap(),
        ],
        2,
    );
    assert!(
        from.contains("best players") && from.contains("luck"),
        "{from}"
    );
}
