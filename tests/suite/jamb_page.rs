//! The game page of a Jamb game in headless Chromium (issue 32): every player's slip drawn as a
//! Jamb slip whose cells are the replay's final slip, the points of a complete game, the round
//! numbers of the chart's axis apart from each other, and nothing wider than the page.

use crate::browser::{chromium, keep, require_chromium};
use crate::common::{find_game, replayed, run, run_ok, text};
use dicelens::report::game::file_name;
use dicelens::rules::jamb::{Cell, JambBox};
use dicelens::rules::PlayerSheet;
use serde_json::Value;

/// What the page's script measures once the page is laid out, as JSON in `<pre id="measured">`:
/// the page's scroll width against the window's, the moves table's right edge against its
/// section's, and every pair of the chart's round numbers that overlap.
const MEASURE: &str = r#"<script>
window.addEventListener('load', () => {
  const labels = [...document.querySelectorAll('#game-chart .x-axis text')]
    .map(t => t.getBoundingClientRect());
  const overlaps = [];
  for (let i = 1; i < labels.length; i++) {
    if (labels[i].left < labels[i - 1].right) overlaps.push(i);
  }
  const moves = document.querySelector('table.moves').getBoundingClientRect();
  const section = document.querySelector('#moves').getBoundingClientRect();
  const out = document.createElement('pre');
  out.id = 'measured';
  out.textContent = JSON.stringify({
    page: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
    moves_right: moves.right,
    section_right: section.right,
    labels: labels.length,
    overlaps: overlaps,
  });
  document.body.appendChild(out);
});
</script>
</body>"#;

/// The JSON the page's script left in the DOM.
fn measured(dom: &str) -> Value {
    let start = dom.find("<pre id=\"measured\">").expect("the script ran") + 19;
    let end = start + dom[start..].find("</pre>").expect("closed");
    serde_json::from_str(&dom[start..end].replace("&quot;", "\"")).expect("JSON")
}

/// The text of the element of `dom` whose opening tag holds `attr`.
fn text_of<'a>(dom: &'a str, attr: &str) -> Option<&'a str> {
    let at = dom.find(attr)?;
    let start = at + dom[at..].find('>')? + 1;
    let end = start + dom[start..].find('<')?;
    Some(&dom[start..end])
}

#[test]
fn a_jamb_game_page_draws_the_final_slips_and_fits_the_page() {
    require_chromium();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("jamb.ygn");
    run_ok(
        &[
            "simulate",
            "--rules",
            "jamb-5",
            "--seats",
            "2",
            "--players",
            "2",
            "--strategy",
            "pb,rnd",
            "--games",
            "1",
            "--seed",
            "32",
            "--out",
            log.to_str().unwrap(),
        ],
        1,
    );
    let id = "sim32-0000001";
    let pages = dir.path().join("pages");
    let out = run(
        &[
            "validate",
            log.to_str().unwrap(),
            "--game",
            id,
            "--json",
            "--html",
            "--out",
            pages.to_str().unwrap(),
        ],
        1,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).expect("validate --json");
    // A Jamb game is rated in points by the Jamb oracle, whatever the seats.
    assert_eq!(report["unit"], "points", "{}", report["unit"]);
    let html = std::fs::read_to_string(pages.join(file_name(id))).expect("the page");
    let page = dir.path().join("measured.html");
    std::fs::write(&page, html.replacen("</body>", MEASURE, 1)).unwrap();
    let png = dir.path().join("jamb.png");
    chromium(&page, &[format!("--screenshot={}", png.display())]);
    keep("jamb_page", "jamb.png", &std::fs::read(&png).unwrap());
    keep("jamb_page", "jamb.html", html.as_bytes());
    let dom = String::from_utf8(chromium(&page, &["--dump-dom".to_string()])).unwrap();

    // The slips: every cell of every column is the replay's final slip's.
    let game = find_game(&log, id);
    let (replay, ended) = replayed(&game);
    assert!(ended.is_ok() && replay.complete, "a complete game");
    let mut cells = 0;
    for (seat, sheet) in replay.finals().iter().enumerate() {
        let PlayerSheet::Jamb(slip) = sheet else {
            panic!("a Jamb slip");
        };
        let table_at = dom
            .find(&format!("<table class=\"slip\" data-seat=\"{seat}\""))
            .expect("a slip per player");
        let table = &dom[table_at..table_at + dom[table_at..].find("</table>").unwrap()];
        for (c, column) in slip.columns().iter().enumerate() {
            for jbox in JambBox::ALL {
                let code = slip.cell_code(Cell {
                    column: c as u8,
                    jbox,
                });
                let shown = text_of(table, &format!("data-cell=\"{code}\""))
                    .unwrap_or_else(|| panic!("no cell {code} for seat {seat}"));
                let want = column.value(jbox).map_or(String::new(), |v| v.to_string());
                assert_eq!(shown, want, "cell {code} of seat {seat}");
                cells += 1;
            }
        }
        assert_eq!(
            text_of(table, "data-total"),
            Some(slip.total().to_string().as_str()),
            "seat {seat}"
        );
        // The points of a complete game, in the players table, with who won.
        let points = report["totals"][seat]["points"].as_i64();
        assert_eq!(points, Some(i64::from(slip.total())), "seat {seat}");
    }
    assert_eq!(cells, 2 * 5 * 13);
    let players = &dom[dom.find("<section id=\"players\"").unwrap()..];
    let players = &players[..players.find("</table>").unwrap()];
    assert!(!players.contains("<td class=\"num\">-</td>"), "{players}");
    assert!(
        players.contains("(won)") && players.contains("(lost)") || players.contains("(drew)"),
        "{players}"
    );

    // Layout: no round number over another, nothing wider than the window, the moves table
    // within its section.
    let m = measured(&dom);
    assert!(m["labels"].as_u64().unwrap() >= 5, "{m}");
    assert_eq!(m["overlaps"], serde_json::json!([]), "{m}");
    assert!(m["page"].as_f64() <= m["window"].as_f64(), "{m}");
    assert!(
        m["moves_right"].as_f64().unwrap() <= m["section_right"].as_f64().unwrap(),
        "{m}"
    );
}
