//! Headless Chromium for the HTML tests: a screenshot or the DOM of a page as the browser
//! parsed it, and small readers of both (an `<svg>` element by id, a PNG's size). Chromium is
//! required, not optional: without `/usr/bin/chromium` a test fails and says how to install it
//! (`.ci/run` does).

use crate::common::{run_within, StdinFrom};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Where Debian's `chromium` package puts the browser.
pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";
/// Longest a Chromium run may take.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(120);
/// Size of the browser window, in CSS pixels.
pub(crate) const WINDOW: (u32, u32) = (1280, 2000);

/// Headless Chromium with a fresh profile in `profile`, the suite's window size, and nothing
/// that reaches the network on its own (no updates, sync or background requests).
pub(crate) fn headless(profile: &Path) -> Command {
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
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--window-size={},{}", WINDOW.0, WINDOW.1));
    command
}

/// Runs headless Chromium on the file `page` with the `extra` flags (a fresh profile each
/// time); returns its stdout. Fails the test if Chromium fails or takes longer than [`TIMEOUT`].
pub(crate) fn chromium(page: &Path, extra: &[String]) -> Vec<u8> {
    let profile = tempfile::tempdir().expect("a temporary profile directory");
    let mut command = headless(profile.path());
    command
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
pub(crate) fn svg_element<'a>(dom: &'a str, id: &str) -> &'a str {
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
pub(crate) fn png_size(png: &[u8]) -> (u32, u32) {
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

/// Fails the test unless Chromium is installed, saying how to install it.
pub(crate) fn require_chromium() {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: this test renders pages in headless Chromium. Install \
         Debian's package first: `apt-get update && apt-get install -y chromium` (.ci/run does)"
    );
}

/// Keeps `bytes` as `target/tmp/<dir>/<name>` for a look after the test; returns the path.
pub(crate) fn keep(dir: &str, name: &str, bytes: &[u8]) -> PathBuf {
    let keep = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(dir);
    let path = keep.join(name);
    if std::fs::create_dir_all(&keep).is_ok() {
        let _ = std::fs::write(&path, bytes);
    }
    path
}
