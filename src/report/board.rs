//! The analysis board's page, script and style sheet (`dicelens serve`), embedded in the
//! binary: plain HTML, browser JavaScript and CSS, no build step. The script draws the dice
//! (SVG pips) and the sheets, lists the options and drives the API of `crate::serve`.

/// The board's page (`/`, `/board`).
pub const PAGE: &str = include_str!("board/index.html");
/// The board's script (`/board.js`).
pub const SCRIPT: &str = include_str!("board/board.js");
/// The board's style sheet (`/board.css`).
pub const STYLE: &str = include_str!("board/board.css");

/// The link from a page of an analysis directory into the board, `board?game=ID` (with
/// `&decision=N`, 0-based, when given), relative to the page: it opens the board when
/// `dicelens serve` serves the directory (any path ending in `board` under it is the board's
/// page); the id is percent-encoded, and the link is HTML-escaped for an attribute.
pub(crate) fn board_link(game_id: &str, decision: Option<usize>) -> String {
    let mut link = String::from("board?game=");
    for byte in game_id.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.~".contains(&byte) {
            link.push(char::from(byte));
        } else {
            link.push_str(&format!("%{byte:02X}"));
        }
    }
    if let Some(decision) = decision {
        link.push_str(&format!("&amp;decision={decision}"));
    }
    link
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_link_encodes_the_id_and_escapes_the_ampersand() {
        assert_eq!(board_link("valid-1", None), "board?game=valid-1");
        assert_eq!(
            board_link("a b&c/ü", Some(3)),
            "board?game=a%20b%26c%2F%C3%BC&amp;decision=3"
        );
    }
}
