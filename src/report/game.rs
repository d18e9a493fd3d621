//! A page per game (`validate FILE --game ID --html`, and `games/` of an analysis): the
//! scorecards, the annotated move list and the chart of the game turn by turn. This module
//! owns where a game page is (its file name) and how a decision on it is addressed (its
//! anchor), so every report that names a game links to it the same way.

use super::validate::ValidateReport;

/// The file name of the page of game `id` (in `games/` of an analysis): the id with every
/// character other than ASCII letters, digits, `-` and `_` replaced by `_`, then a short hash
/// of the whole id so that ids differing only in those characters get different files.
pub fn file_name(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    let hash = crate::game_hash::fnv1a(id.as_bytes()) as u32;
    format!("{safe}-{hash:08x}.html")
}

/// The anchor of the decision at index `order` of a game's decisions (as
/// [`super::rows::DecisionRow::order`]) on the game's page: `d1` for the first.
pub fn decision_anchor(order: usize) -> String {
    format!("d{}", order + 1)
}

/// The game page of a validated game: one self-contained HTML5 document.
pub fn page(report: &ValidateReport) -> String {
    // Placeholder until the page is built: the game id and its text report.
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>{}</title></head>\n<body><pre>{}</pre></body>\n</html>\n",
        super::svg::escape(&report.game),
        super::svg::escape(&report.text())
    )
}
