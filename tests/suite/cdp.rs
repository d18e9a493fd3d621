//! A small Chrome DevTools Protocol client for the tests that drive a live page: Debian's
//! headless Chromium started with `--remote-debugging-pipe` (commands written to its file
//! descriptor 3, answers and events read from its descriptor 4, each message a JSON text ended by
//! a NUL byte), so no websocket, no port and no browser download. One tab per [`Browser`];
//! the tests navigate it, evaluate JavaScript in it, press keys and take screenshots.

use crate::browser::headless;
use base64::Engine;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, PipeReader, PipeWriter, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longest one protocol command may take to be answered.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// A headless Chromium with one tab, driven over its debugging pipe; killed on drop.
pub(crate) struct Browser {
    child: Child,
    commands: PipeWriter,
    messages: Receiver<Value>,
    session: String,
    next_id: u64,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts Chromium (a fresh profile, the suite's window size) and opens a blank tab.
    pub(crate) fn start() -> Browser {
        let profile = tempfile::tempdir().expect("a temporary profile directory");
        // Chromium reads commands from fd 3 and writes answers to fd 4.
        let (chrome_reads, commands) = std::io::pipe().expect("a pipe for commands");
        let (answers, chrome_writes) = std::io::pipe().expect("a pipe for answers");
        let (read_fd, write_fd) = (chrome_reads.as_raw_fd(), chrome_writes.as_raw_fd());
        let mut command = headless(profile.path());
        command
            .arg("--remote-debugging-pipe")
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: between fork and exec only async-signal-safe calls (fcntl, dup2) are made.
        // The ends are first copied above 4 (either may be 3 or 4 itself), then onto 3 and 4:
        // dup2 onto another number leaves the copy without close-on-exec, so Chromium has them.
        unsafe {
            command.pre_exec(move || {
                let read_copy = libc::fcntl(read_fd, libc::F_DUPFD_CLOEXEC, 10);
                let write_copy = libc::fcntl(write_fd, libc::F_DUPFD_CLOEXEC, 10);
                if read_copy < 0
                    || write_copy < 0
                    || libc::dup2(read_copy, 3) < 0
                    || libc::dup2(write_copy, 4) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command
            .spawn()
            .expect("chromium starts (apt install chromium)");
        drop(chrome_reads);
        drop(chrome_writes);
        let messages = read_messages(answers);
        let mut browser = Browser {
            child,
            commands,
            messages,
            session: String::new(),
            next_id: 0,
            _profile: profile,
        };
        let target = browser.call("Target.createTarget", json!({ "url": "about:blank" }));
        let target_id = target["targetId"]
            .as_str()
            .expect("a target id")
            .to_string();
        let attached = browser.call(
            "Target.attachToTarget",
            json!({ "targetId": target_id, "flatten": true }),
        );
        browser.session = attached["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        browser.call("Page.enable", json!({}));
        browser.call("Runtime.enable", json!({}));
        browser
    }

    /// Sends one command to the tab (or to the browser before a tab is attached) and returns
    /// its result; fails the test on a protocol error or after [`ANSWER_TIMEOUT`].
    pub(crate) fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            message["sessionId"] = Value::String(self.session.clone());
        }
        let mut bytes = serde_json::to_vec(&message).expect("a JSON command");
        bytes.push(0);
        self.commands
            .write_all(&bytes)
            .unwrap_or_else(|e| panic!("{method}: chromium's pipe: {e}"));
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let answer = match self.messages.recv_timeout(left) {
                Ok(answer) => answer,
                Err(RecvTimeoutError::Timeout) => panic!("{method}: no answer in time"),
                Err(RecvTimeoutError::Disconnected) => panic!("{method}: chromium exited"),
            };
            if answer["id"].as_u64() == Some(id) {
                if let Some(error) = answer.get("error") {
                    panic!("{method} failed: {error}");
                }
                return answer["result"].clone();
            }
        }
    }

    /// Loads `url` in the tab and waits until the document has loaded.
    pub(crate) fn navigate(&mut self, url: &str) {
        // The document shown now is marked, so that the wait below is for the new one: until
        // the navigation commits, the old document answers (already complete, its elements
        // there), and what a test does to it is lost when the new one replaces it.
        self.eval("window.dicelensLeft = true; true");
        let result = self.call("Page.navigate", json!({ "url": url }));
        assert!(
            result.get("errorText").is_none(),
            "navigating to {url}: {}",
            result["errorText"]
        );
        self.wait_for(
            "!window.dicelensLeft && document.readyState === 'complete'",
            Duration::from_secs(30),
        );
    }

    /// Runs `script` in every document the tab loads from now on, before the page's own
    /// scripts (to hold back or watch what the page does).
    pub(crate) fn before_each_document(&mut self, script: &str) {
        self.call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": script }),
        );
    }

    /// The value of a JavaScript expression in the page (promises awaited), as JSON; fails the
    /// test if it throws.
    pub(crate) fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        );
        if let Some(exception) = result.get("exceptionDetails") {
            panic!("`{expression}` threw: {exception}");
        }
        result["result"]["value"].clone()
    }

    /// Waits until the expression is truthy in the page; fails the test after `limit`.
    pub(crate) fn wait_for(&mut self, expression: &str, limit: Duration) {
        let deadline = Instant::now() + limit;
        let probe = format!("Boolean({expression})");
        loop {
            if self.eval(&probe) == Value::Bool(true) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "`{expression}` still false after {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Clicks the centre of the first element matching the CSS `selector` with real mouse
    /// events (it is scrolled into view first); fails the test if there is none.
    pub(crate) fn click(&mut self, selector: &str) {
        let quoted = serde_json::to_string(selector).expect("a JSON string");
        let centre = self.eval(&format!(
            "(() => {{ const e = document.querySelector({quoted}); if (!e) return null; \
             e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); \
             return [r.left + r.width / 2, r.top + r.height / 2]; }})()"
        ));
        let (x, y) = match (centre[0].as_f64(), centre[1].as_f64()) {
            (Some(x), Some(y)) => (x, y),
            _ => panic!("no element matches {selector}"),
        };
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    /// Presses and releases a key, as `KeyboardEvent.key` names it (`ArrowRight`, `End`, `a`).
    pub(crate) fn press(&mut self, key: &str) {
        let code = match key {
            "ArrowLeft" => 37,
            "ArrowUp" => 38,
            "ArrowRight" => 39,
            "ArrowDown" => 40,
            "Home" => 36,
            "End" => 35,
            "Enter" => 13,
            "Escape" => 27,
            other => other
                .chars()
                .next()
                .map_or(0, |c| c.to_ascii_uppercase() as u32),
        };
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code }),
            );
        }
    }

    /// A PNG screenshot of the tab's viewport.
    pub(crate) fn screenshot(&mut self) -> Vec<u8> {
        let shot = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        let data = shot["data"].as_str().expect("screenshot data");
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .expect("a base64 screenshot")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A thread that reads NUL-ended JSON messages from Chromium's answer pipe and sends them on;
/// the channel closes when Chromium closes the pipe.
fn read_messages(answers: PipeReader) -> Receiver<Value> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(answers);
        let mut message = Vec::new();
        loop {
            message.clear();
            match reader.read_until(0, &mut message) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            if message.last() == Some(&0) {
                message.pop();
            }
            let Ok(value) = serde_json::from_slice::<Value>(&message) else {
                continue;
            };
            if send.send(value).is_err() {
                return;
            }
        }
    });
    receive
}

#[test]
fn the_debugging_pipe_drives_a_page() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let page = dir.path().join("page.html");
    std::fs::write(
        &page,
        "<!doctype html><html><body><button id=b onclick=\"this.textContent='clicked'\">go</button>\
         <p id=k></p><script>document.addEventListener('keydown', e => \
         document.getElementById('k').textContent += e.key + ' ');</script></body></html>",
    )
    .expect("the page is written");
    let mut browser = Browser::start();
    browser.navigate(&format!("file://{}", page.display()));
    assert_eq!(browser.eval("1 + 2"), json!(3));
    browser.click("#b");
    browser.wait_for(
        "document.getElementById('b').textContent === 'clicked'",
        Duration::from_secs(10),
    );
    browser.press("ArrowRight");
    browser.press("End");
    assert_eq!(
        browser.eval("document.getElementById('k').textContent"),
        json!("ArrowRight End ")
    );
    let png = browser.screenshot();
    let (width, height) = crate::browser::png_size(&png);
    assert!(width > 100 && height > 100, "{width}x{height}");
}
