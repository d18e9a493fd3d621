//! `report.html` renders in headless Chromium (Debian's `chromium` package) with its charts:
//! `analyze` of a simulated corpus writes the page, Chromium takes a screenshot of it and
//! dumps its DOM, and the test checks the PNG and the SVG charts in the DOM.
//!
//! Chromium is required, not optional: without `/usr/bin/chromium` the test fails and says how
//! to install it (`.ci/run` installs it). The screenshot and the page are kept in
//! `target/tmp/report_html/` for a look.

use crate::common::{run_within, StdinFrom};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Where Debian's `chromium` package puts the browser.
const CHROMIUM: &str = "/usr/bin/chromium";
/// Longest a Chromium run may take.
const TIMEOUT: Duration = Duration::from_secs(120);
/// Size of the browser window, in CSS pixels.
const WINDOW: (u32, u32) = (1280, 2000);

/// Runs the binary with its own table directory; panics with its stderr unless it succeeds.
fn dicelens(tables: &Path, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(args)
        .env("DICELENS_TABLES", tables)
        .output()
        .expect("the dicelens binary runs");
    assert!(
        out.status.success(),
        "dicelens {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs headless Chromium on the file `page` with the `extra` flags (a fresh profile each
/// time); returns its stdout. Fails the test if Chromium fails or takes longer than [`TIMEOUT`].
fn chromium(page: &Path, extra: &[String]) -> Vec<u8> {
    let profile = tempfile::tempdir().expect("a temporary profile directory");
    let mut command = Command::new(CHROMIUM);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--window-size={},{}", WINDOW.0, WINDOW.1))
        .args(extra)
        .arg(format!("file://{}", page.display()));
    let output = run_within(&mut command, StdinFrom::Nothing, TIMEOUT);
    assert!(
        output.status.success(),
        "chromium {extra:?} failed ({}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// The `<svg>` element with id `id` in a serialised DOM, from its start tag to its end tag.
fn svg_element<'a>(dom: &'a str, id: &str) -> &'a str {
    let attr = format!("id=\"{id}\"");
    let at = dom
        .find(&attr)
        .unwrap_or_else(|| panic!("no element with id {id} in the DOM"));
    let start = dom[..at]
        .rfind('<')
        .unwrap_or_else(|| panic!("id {id} outside a tag"));
    assert!(
        dom[start..].starts_with("<svg"),
        "#{id} is not an <svg> element: {}",
        &dom[start..at]
    );
    let end = dom[start..]
        .find("</svg>")
        .unwrap_or_else(|| panic!("<svg id=\"{id}\"> is not closed"));
    &dom[start..start + end + "</svg>".len()]
}

/// Width and height of a PNG image, after checking its signature and header chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n"),
        "the screenshot is not a PNG"
    );
    assert!(
        png.len() > 24 && &png[12..16] == b"IHDR",
        "PNG without IHDR"
    );
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&png[16..20]), be(&png[20..24]))
}

#[test]
fn report_html_renders_in_headless_chromium_with_its_charts() {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: this test renders report.html in headless Chromium. Install \
         Debian's package first: `apt-get update && apt-get install -y chromium` (.ci/run does)"
    );
    let tables = tempfile::tempdir().expect("a temporary table directory");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let corpus = dir.path().join("x.ygn");
    let out = dir.path().join("analysis");
    let (c, o) = (
        corpus.to_str().expect("a UTF-8 path"),
        out.to_str().expect("a UTF-8 path"),
    );
    dicelens(
        tables.path(),
        &[
            "simulate",
            "--seats",
            "2",
            "--players",
            "8",
            "--games",
            "200",
            "--out",
            c,
        ],
    );
    dicelens(
        tables.path(),
        &[
            "analyze",
            c,
            "--oracle",
            "e",
            "--min-games",
            "5",
            "--out",
            o,
        ],
    );
    let page = out.join("report.html");
    let html = std::fs::read_to_string(&page).expect("analyze writes report.html");
    assert!(html.starts_with("<!DOCTYPE html>"));
    for external in ["<script", "<link", "src=\"http", "href=\"http", "@import"] {
        assert!(
            !html.contains(external),
            "report.html is not self-contained: {external}"
        );
    }

    // The screenshot: a real PNG of the window, with something drawn on it.
    let png_path = dir.path().join("report.png");
    chromium(&page, &[format!("--screenshot={}", png_path.display())]);
    let png = std::fs::read(&png_path)
        .unwrap_or_else(|e| panic!("chromium wrote no screenshot {}: {e}", png_path.display()));
    assert_eq!(png_size(&png), WINDOW, "screenshot size");
    assert!(
        png.len() > 20_000,
        "the screenshot is suspiciously small ({} bytes): a blank page?",
        png.len()
    );
    let keep = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report_html");
    if std::fs::create_dir_all(&keep).is_ok() {
        let _ = std::fs::write(keep.join("report.png"), &png);
        let _ = std::fs::write(keep.join("report.html"), &html);
        println!("screenshot: {}", keep.join("report.png").display());
    }

    // The DOM as Chromium parsed it: the three charts with their marks.
    let dom =
        String::from_utf8(chromium(&page, &["--dump-dom".to_string()])).expect("the DOM is UTF-8");
    let rounds = svg_element(&dom, "round-chart");
    assert!(rounds.contains("<title"), "round chart without a title");
    assert!(rounds.contains("<path"), "round chart without axes");
    assert_eq!(
        rounds.matches("<polyline class=\"series seats ").count(),
        1,
        "one line for the two-seat games"
    );
    assert!(rounds.contains("<polyline class=\"series seats seats-2\""));
    assert!(
        rounds.contains("<polyline class=\"series best\""),
        "line of the best players"
    );
    assert_eq!(
        rounds.matches("<circle class=\"point\"").count(),
        26 + 13,
        "26 turns of two-seat games and 13 rounds of the best players"
    );
    let distribution = svg_element(&dom, "error-distribution");
    assert!(distribution.contains("<title"));
    assert!(distribution.contains("<path"));
    assert_eq!(distribution.matches("<rect class=\"bar ").count(), 7);
    let kinds = svg_element(&dom, "kind-chart");
    assert!(kinds.contains("<title"));
    assert!(kinds.contains("<path"));
    assert_eq!(kinds.matches("<rect class=\"bar ").count(), 3);
    assert!(dom.contains("<table id=\"leaderboard-table\""));
    assert!(dom.contains("<td>sim01</td>"), "sim01 on the leaderboard");
}
