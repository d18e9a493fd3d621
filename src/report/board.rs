//! The analysis board's page, script and style sheet (`dicelens serve`), embedded in the
//! binary: plain HTML, browser JavaScript and CSS, no build step. The script draws the dice
//! (SVG pips) and the sheets, lists the options and drives the API of `crate::serve`.

/// The board's page (`/`, `/board`).
pub const PAGE: &str = include_str!("board/index.html");
/// The board's script (`/board.js`).
pub const SCRIPT: &str = include_str!("board/board.js");
/// The board's style sheet (`/board.css`).
pub const STYLE: &str = include_str!("board/board.css");
