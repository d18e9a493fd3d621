//! A page per game (`validate FILE --game ID --html`, and `games/` of an analysis): the
//! scorecards, the annotated move list and the chart of the game turn by turn. This module
//! owns where a game page is (its file name) and how a decision on it is addressed (its
//! anchor), so every report that names a game links to it the same way.
//!
//! The page is a pure function of the [`ValidateReport`] (no date, no randomness, fixed
//! decimals). Its one chart is the `<svg id="game-chart">`: each player's winning chances
//! (expected match points) in two-player games rated in match points, each player's expected
//! final score otherwise, after every decision, with the errors and blunders marked and linked
//! to their rows of the move list (`id="d1"`, `d2`, ... as [`decision_anchor`] names them).

use super::page::STYLE;
pub use super::page::{decision_anchor, game_file_name as file_name};
use super::svg::{
    axes, axis_title, escape, fixed, nice_axis, no_data, plot_background, px, svg_open,
    y_axis_from, Scale, LEFT, RIGHT,
};
use super::validate::{Announcement, Scorecard, ValidateReport};
use crate::rate::{Class, Unit};
use crate::rows::DecisionRow;
use crate::rules::description::{FinalScore, Section};
use crate::rules::jamb::{Cell, ColumnKind, ColumnState, JambBox, JambRules, JambSheet};
use crate::rules::{Choice, GameRules, RuleSet, UPPER_BOXES};
use std::fmt::Write;

/// Style rules of the game page, after the reports' common [`STYLE`].
const GAME_STYLE: &str = "\
main { max-width: 1240px; }
.verdict { border-radius: 8px; padding: 10px 16px; font-weight: 600; margin: 10px 0; }
.verdict.legal { background: #e8f4ea; border: 1px solid #a9d2b0; }
.verdict.illegal { background: #fdeceb; border: 1px solid #e6a8a4; }
.verdict p { margin: 2px 0; font-weight: 400; }
.badge { display: inline-block; min-width: 58px; text-align: center; border-radius: 10px;
  padding: 0 8px; font-size: 12.5px; font-weight: 600; color: #fff; }
.badge.fine { background: #4f9d5b; }
.badge.doubtful { background: #d9b53c; color: #2b2410; }
.badge.error { background: #e58a2e; }
.badge.blunder { background: #c9403a; }
table.scorecards { width: auto; min-width: 420px; }
table.scorecards td.num, table.scorecards th.num { min-width: 96px; }
table.scorecards tr.sum td, table.scorecards tr.sum th { border-top: 2px solid #b9c0cc;
  font-weight: 600; }
table.scorecards tr.grand td, table.scorecards tr.grand th { background: #eef1f5;
  border-top: 2px solid #5b6475; font-weight: 700; }
table.scorecards td.error { background: #fbe3c8; }
table.scorecards td.blunder { background: #f6cfcc; }
table.scorecards td a { color: inherit; }
.round { color: #6b7385; font-size: 12px; margin-left: 6px; }
.code { color: #6b7385; font-size: 12px; }
table.moves th { white-space: normal; vertical-align: bottom; }
table.moves td { white-space: nowrap; }
table.moves tr.turn-start td { border-top: 2px solid #c5cbd5; }
table.moves tr.move td { border-bottom: none; }
table.moves tr.eval td { padding-top: 0; white-space: normal; }
table.moves tr.error td, table.moves tr.error + tr.eval td { background: #fdf0e1; }
table.moves tr.blunder td, table.moves tr.blunder + tr.eval td { background: #fbe5e3; }
table.moves tr:target td, table.moves tr:target + tr.eval td { outline: 2px solid #1f6fb4; }
table.moves code { font-size: 12px; color: #3b4352; user-select: all; }
table.moves code .arg { white-space: nowrap; }
table.moves a { color: #1f6fb4; }
.legend-list { margin: 6px 0; padding-left: 20px; font-size: 13.5px; color: #4a5263; }
svg.chart .series { fill: none; stroke-width: 2.2; }
svg.chart .even { stroke: #9aa3b2; stroke-dasharray: 4 4; fill: none; }
svg.chart .mark { stroke: #fff; stroke-width: 1.5; }
";

/// Style rules of a Jamb game's page, after [`GAME_STYLE`]: the slips, and the move list in a
/// box of its own that scrolls where it is wider than the page.
const JAMB_STYLE: &str = "\
.slips { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
table.slip { width: auto; }
table.slip caption { text-align: left; font-weight: 600; padding: 4px 0; }
table.slip td.num, table.slip th.num { min-width: 52px; }
table.slip tr.sum td, table.slip tr.sum th { border-top: 2px solid #b9c0cc; font-weight: 600; }
table.slip tr.grand td, table.slip tr.grand th { background: #eef1f5;
  border-top: 2px solid #5b6475; font-weight: 700; }
.moves-box { overflow-x: auto; }
";

/// Style rules of the page of a game with announcements (Jamb's Announce column), after
/// [`JAMB_STYLE`]: an announced box framed on the slip, the announcement marked in the move
/// list.
const ANNOUNCE_STYLE: &str = "\
table.slip td.announced { outline: 2px solid #8a5cc2; outline-offset: -3px; }
table.slip td.announced.empty { background: #f1eafa; }
.announce { display: inline-block; margin-left: 6px; border-radius: 8px; padding: 0 6px;
  font-size: 12px; background: #efe7fa; color: #5a3a8c; }
";

/// Colours of the players' lines, by seat.
const PLAYER_COLORS: [&str; 6] = [
    "#1f6fb4", "#8a5cc2", "#149fb0", "#3d7d3a", "#8c564b", "#5f6673",
];

/// Colour of a decision class's markers (and badges): fine, doubtful, error, blunder.
fn class_color(class: Class) -> &'static str {
    match class {
        Class::Fine => "#4f9d5b",
        Class::Doubtful => "#d9b53c",
        Class::Error => "#e58a2e",
        Class::Blunder => "#c9403a",
    }
}

/// The game page of a validated game: one self-contained HTML5 document.
pub fn page(report: &ValidateReport) -> String {
    let mut out = String::with_capacity(64 * 1024 + report.decisions.len() * 1024);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Game {} &middot; dicelens</title>\n<style>\n{STYLE}{GAME_STYLE}{}{}</style>\n\
         </head>\n<body>\n<main>\n",
        escape(&report.game),
        if is_jamb(report) { JAMB_STYLE } else { "" },
        if has_announcements(report) {
            ANNOUNCE_STYLE
        } else {
            ""
        }
    );
    header(&mut out, report);
    if report.syntax_error.is_none() {
        players_table(&mut out, report);
        scorecards(&mut out, report);
        jamb_slips(&mut out, report);
        chart_section(&mut out, report);
        moves(&mut out, report);
    }
    let _ = writeln!(
        out,
        "<footer>dicelens {} &middot; <code>dicelens validate {} --game {} --html</code></footer>",
        env!("CARGO_PKG_VERSION"),
        escape(&report.file),
        escape(&report.game)
    );
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// Whether the page is a Jamb game's (its slips are known).
fn is_jamb(report: &ValidateReport) -> bool {
    !report.jamb_slips.is_empty()
}

/// Whether the page marks announcements: the game has an Announce column or announced a box.
fn has_announcements(report: &ValidateReport) -> bool {
    !report.announcements.is_empty()
        || report
            .jamb_slips
            .first()
            .is_some_and(|slip| has_announce_column(slip.rules().columns))
}

/// The unit of the report's values.
fn unit(report: &ValidateReport) -> Unit {
    if report.unit == Unit::MatchPoints.short() {
        Unit::MatchPoints
    } else {
        Unit::Points
    }
}

/// Whether the report's values are expected match points.
fn in_match_points(report: &ValidateReport) -> bool {
    unit(report) == Unit::MatchPoints
}

/// The most players of a game rated in match points whose page gives each move's
/// `dicelens eval` line: the line lists the sheet of every opponent, so in larger games the
/// moves come without it (a page of a 255-player game would otherwise hold 254 sheets per move,
/// hundreds of megabytes), and the page grows with its moves only.
pub(crate) const EVAL_LINE_PLAYERS: usize = 8;

/// Whether the page gives each move's `dicelens eval` line ([`EVAL_LINE_PLAYERS`]).
fn shows_eval_lines(report: &ValidateReport) -> bool {
    !in_match_points(report) || report.players.len() <= EVAL_LINE_PLAYERS
}

/// Decimals of the report's values: 4 in match points, 2 in points.
fn decimals(report: &ValidateReport) -> usize {
    if in_match_points(report) {
        4
    } else {
        2
    }
}

/// The rule set of the report, when known.
fn rule_set(report: &ValidateReport) -> Option<RuleSet> {
    report.rules.as_deref().and_then(|r| r.parse().ok())
}

/// The title, what the game is, and the verdict (with the rule broken or the syntax error).
fn header(out: &mut String, report: &ValidateReport) {
    let _ = writeln!(
        out,
        "<header>\n<h1>Game {}</h1>\n<p>{} ({}) &middot; rules {} &middot; {}</p>",
        escape(&report.game),
        escape(&report.file),
        escape(&report.format),
        escape(report.rules.as_deref().unwrap_or("unknown")),
        if report.players.is_empty() {
            "players unknown".to_string()
        } else {
            format!("players {}", escape(&report.players.join(", ")))
        }
    );
    match &report.oracle {
        Some(oracle) => {
            let _ = writeln!(
                out,
                "<p>This game's values and losses are in {}. Oracle: {}.</p>",
                unit(report).name(),
                escape(oracle)
            );
            let _ = writeln!(
                out,
                "<p id=\"accuracy\">Accuracy: {}.</p>",
                accuracies(report)
            );
        }
        None => {
            let _ = writeln!(
                out,
                "<p>Not rated: {}.</p>",
                escape(report.not_rated.as_deref().unwrap_or("no oracle"))
            );
        }
    }
    let board = super::board::board_link(&report.game, None);
    let _ = writeln!(
        out,
        "<p><a class=\"board\" href=\"{board}\">Open in the board</a> \
         (when <code>dicelens serve</code> serves this analysis)</p>"
    );
    out.push_str("</header>\n");
    let legal = report.verdict == "legal";
    let _ = writeln!(
        out,
        "<section id=\"verdict\" class=\"verdict {}\">\n<div>Verdict: {}</div>",
        if legal { "legal" } else { "illegal" },
        escape(&report.verdict_text())
    );
    if report.violation.is_some() {
        let _ = writeln!(
            out,
            "<p>The page shows the game as replayed up to that turn: {} decision{} before it, \
             and the scorecards where the replay stopped.</p>",
            report.decisions_replayed,
            if report.decisions_replayed == 1 {
                ""
            } else {
                "s"
            }
        );
    }
    if let (Some(why), Some(_)) = (&report.not_rated, &report.oracle) {
        let _ = writeln!(out, "<p>Not rated: {}.</p>", escape(why));
    }
    out.push_str("</section>\n");
}

/// Each player's accuracy in the game (docs/methods.md), `name 91.2, name -` (`-` without a
/// non-forced decision).
fn accuracies(report: &ValidateReport) -> String {
    let seats = report.players.len();
    let each: Vec<String> = report
        .players
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            let own = report
                .decisions
                .iter()
                .filter(|d| usize::from(d.seat) == seat);
            let accuracy = crate::aggregate::accuracy::mean_accuracy(
                own.map(|d| (d.loss, d.unit, d.forced)),
                seats,
            );
            let figure = accuracy.map_or_else(|| "-".to_string(), |a| format!("{a:.1}"));
            format!("{} {figure}", escape(name))
        })
        .collect();
    each.join(", ")
}

/// The outcome for a player: their final points, and in a finished game of several players
/// whether they won, drew or lost.
fn outcome(report: &ValidateReport, seat: usize) -> String {
    let totals = sheet_totals(report);
    let Some(&points) = totals.get(seat) else {
        return "-".into();
    };
    if !report.points_final || !report.complete || totals.len() < 2 {
        return points.to_string();
    }
    let best = totals.iter().copied().max().unwrap_or(0);
    let winners = totals.iter().filter(|&&t| t == best).count();
    let word = match (points == best, winners) {
        (true, 1) => "won",
        (true, _) => "drew",
        _ => "lost",
    };
    format!("{points} ({word})")
}

/// Every player's points on their sheet (a scorecard or a Jamb slip), in seat order.
fn sheet_totals(report: &ValidateReport) -> Vec<i64> {
    if report.scorecards.is_empty() {
        report
            .jamb_slips
            .iter()
            .map(|slip| i64::from(slip.total()))
            .collect()
    } else {
        report
            .scorecards
            .iter()
            .map(|c| i64::from(c.total))
            .collect()
    }
}

/// One row per player: points, decisions, total error, errors, blunders, luck.
fn players_table(out: &mut String, report: &ValidateReport) {
    let unit = report.unit;
    let places = decimals(report);
    let _ = writeln!(
        out,
        "<section id=\"players\">\n<h2>Players</h2>\n<table>\n<thead><tr><th>player</th>\
         <th class=\"num\">{}</th><th class=\"num\">decisions rated</th>\
         <th class=\"num\">total loss ({unit})</th><th class=\"num\">doubtful</th>\
         <th class=\"num\">errors</th><th class=\"num\">blunders</th>\
         <th class=\"num\">luck ({unit})</th></tr></thead>\n<tbody>",
        if report.points_final {
            "points"
        } else {
            "points so far"
        }
    );
    for t in &report.totals {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&t.player),
            outcome(report, t.seat),
            t.decisions,
            fixed(t.total_error, places),
            t.classes[Class::Doubtful],
            t.classes[Class::Error],
            t.classes[Class::Blunder],
            signed(t.luck, places)
        );
    }
    out.push_str("</tbody>\n</table>\n");
    let _ = writeln!(
        out,
        "<p class=\"note\">Loss: what the choices cost against the best choices, summed. Luck: \
         what the dice gave against what was expected before each roll, summed.</p>\n</section>"
    );
}

/// `x` with its sign (`+1.25`, `-0.50`).
fn signed(x: f64, places: usize) -> String {
    let text = fixed(x, places);
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

/// The name of a box as a scorecard prints it: the name the rule set's description gives it,
/// capitalised (`Three of a kind`, `Yatzy`); `?` for a code the rule set does not have.
fn box_name(code: &str, rules: RuleSet) -> String {
    let description = rules.description();
    match description
        .box_index(code)
        .and_then(|i| description.boxes.get(i))
    {
        Some(rule) => capitalised(rule.name),
        None => "?".into(),
    }
}

/// `text` with its first letter in upper case.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The note above the sheets of a game that breaks a rule: they are where the replay stopped.
fn stopped_note(out: &mut String, report: &ValidateReport) {
    if !report.points_final {
        out.push_str(
            "<p class=\"note\">Where the replay stopped: the turn that breaks a rule is not \
             written.</p>\n",
        );
    }
}

/// The scorecards side by side: one row per box (upper section, upper total and bonus, lower
/// section, extra-Yahtzee bonus where the rules have it, grand total), one column per player.
fn scorecards(out: &mut String, report: &ValidateReport) {
    let (Some(rules), Some(first)) = (rule_set(report), report.scorecards.first()) else {
        return;
    };
    out.push_str("<section id=\"scorecards\">\n<h2>Scorecards</h2>\n");
    stopped_note(out, report);
    out.push_str("<table class=\"scorecards\">\n<thead><tr><th>box</th>");
    for card in &report.scorecards {
        let _ = write!(out, "<th class=\"num\">{}</th>", escape(&card.player));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    let cards = &report.scorecards;
    for (b, cell) in first.boxes.iter().enumerate() {
        let _ = write!(
            out,
            "<tr><th>{} <span class=\"code\">{}</span></th>",
            box_name(cell.code, rules),
            escape(cell.code)
        );
        for card in cards {
            box_cell(out, card, b);
        }
        out.push_str("</tr>\n");
        if b + 1 == UPPER_BOXES {
            sum_row(
                out,
                "sum",
                &format!(
                    "Upper total <span class=\"code\">{} for the bonus</span>",
                    rules.upper_threshold()
                ),
                cards.iter().map(|c| c.upper_total),
            );
            sum_row(
                out,
                "",
                &format!("Bonus <span class=\"code\">{}</span>", rules.upper_bonus()),
                cards.iter().map(|c| c.upper_bonus),
            );
        }
    }
    if cards.iter().all(|c| c.extra_bonus.is_some()) {
        sum_row(
            out,
            "sum",
            "Yahtzee bonus <span class=\"code\">100 each</span>",
            cards.iter().map(|c| c.extra_bonus.unwrap_or(0)),
        );
    }
    sum_row(out, "grand", "Grand total", cards.iter().map(|c| c.total));
    out.push_str("</tbody>\n</table>\n");
    let _ = writeln!(
        out,
        "<p class=\"note\">Each filled box: the points written in it and the round it was \
         filled (r7: round 7); an empty box was not filled. The decision that filled a box \
         <span class=\"badge error\">error</span> or <span class=\"badge blunder\">blunder</span> \
         colours it; click the points to see that decision in the move list.</p>\n</section>"
    );
}

/// One box of one player's scorecard: the points and the round, linked to the decision that
/// filled the box when it was rated.
fn box_cell(out: &mut String, card: &Scorecard, b: usize) {
    let Some(cell) = card.boxes.get(b) else {
        out.push_str("<td class=\"num\"></td>");
        return;
    };
    let (Some(points), Some(round)) = (cell.points, cell.round) else {
        out.push_str("<td class=\"num\"></td>");
        return;
    };
    let class = match cell.class {
        Some(c @ (Class::Error | Class::Blunder)) => format!(" {}", c.name()),
        _ => String::new(),
    };
    let points = match cell.decision {
        Some(order) => format!(
            "<a href=\"#{}\" title=\"{}\">{points}</a>",
            decision_anchor(order),
            cell.class.map_or("", Class::name)
        ),
        None => points.to_string(),
    };
    let _ = write!(
        out,
        "<td class=\"num{class}\">{points}<span class=\"round\">r{round}</span></td>"
    );
}

/// A row of sums, one per player.
fn sum_row(out: &mut String, class: &str, label: &str, values: impl Iterator<Item = u32>) {
    if class.is_empty() {
        out.push_str("<tr>");
    } else {
        let _ = write!(out, "<tr class=\"{class}\">");
    }
    let _ = write!(out, "<th>{label}</th>");
    for v in values {
        let _ = write!(out, "<td class=\"num\">{v}</td>");
    }
    out.push_str("</tr>\n");
}

/// The name of a Jamb box as a slip prints it.
fn jamb_box_name(b: JambBox) -> &'static str {
    match b {
        JambBox::Ones => "Ones",
        JambBox::Twos => "Twos",
        JambBox::Threes => "Threes",
        JambBox::Fours => "Fours",
        JambBox::Fives => "Fives",
        JambBox::Sixes => "Sixes",
        JambBox::Max => "Maximum",
        JambBox::Min => "Minimum",
        JambBox::Straight => "Straight",
        JambBox::ThreeKind => "Three of a kind",
        JambBox::FullHouse => "Full house",
        JambBox::FourKind => "Four of a kind",
        JambBox::Jamb => "Jamb",
    }
}

/// The heading of a Jamb column, by its letter: its name and the way it is filled (a column
/// of a kind this page does not know is headed by its letter alone).
fn jamb_column_heading(letter: char) -> (&'static str, &'static str) {
    match letter {
        'D' => ("Down", "top to bottom"),
        'U' => ("Up", "bottom to top"),
        'F' => ("Free", "any order"),
        'H' => ("Hand", "first roll only"),
        'O' => ("To middle", "from the top and the bottom toward the middle"),
        'I' => ("From middle", "from Max and Min outward"),
        'A' => (
            "Announce",
            "the box announced after the first roll, or a pure hand",
        ),
        _ => ("Column", "its own order"),
    }
}

/// Whether a slip of these columns has an Announce column (letter `A`).
fn has_announce_column(kinds: &[ColumnKind]) -> bool {
    kinds.iter().any(|k| k.code() == ANNOUNCE_LETTER)
}

/// The letter of Jamb's Announce column.
const ANNOUNCE_LETTER: char = 'A';

/// The rows of a Jamb slip in its rule set's row order ([`JambRules::rows`]), and after the
/// last box of each section (as the rule set's description gives the sections) its sums: the
/// upper sum and bonus, the middle section, the lower sum.
fn slip_rows(rules: &JambRules) -> Vec<SlipRow> {
    let description = rules.description();
    let section = |jbox: &JambBox| {
        description
            .box_index(jbox.code())
            .and_then(|i| description.boxes.get(i))
            .map(|b| b.section)
    };
    let mut rows = Vec::with_capacity(rules.rows.len() + 4);
    let mut boxes = rules.rows.iter().peekable();
    while let Some(jbox) = boxes.next() {
        rows.push(SlipRow::Box(*jbox));
        let here = section(jbox);
        if boxes.peek().is_none_or(|next| section(next) != here) {
            match here {
                Some(Section::Upper) => rows.extend([SlipRow::UpperSum, SlipRow::Bonus]),
                Some(Section::Middle) => rows.push(SlipRow::Middle),
                Some(Section::Lower) => rows.push(SlipRow::LowerSum),
                None => {}
            }
        }
    }
    rows
}

/// A row of a drawn Jamb slip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlipRow {
    /// A box, one cell per column.
    Box(JambBox),
    /// The upper boxes' sum.
    UpperSum,
    /// The upper bonus.
    Bonus,
    /// The middle section.
    Middle,
    /// The lower boxes' sum.
    LowerSum,
}

/// The middle section's formula as a slip heads it (`(MAX - MIN) &times; 1`).
fn middle_formula(rules: &JambRules) -> String {
    let description = rules.description();
    let code = |i: usize| description.boxes.get(i).map_or("?", |b| b.code);
    match description.final_score {
        FinalScore::ColumnsWithMiddle {
            high,
            low,
            times,
            never_negative,
        } => format!(
            "({} - {}) &times; {}{}",
            code(high),
            code(low),
            code(times),
            if never_negative { ", at least 0" } else { "" }
        ),
        FinalScore::Sum => String::new(),
    }
}

/// Every player's Jamb slip as a slip is drawn: the boxes in rows, one column per column of
/// the rule set, the upper sum with its bonus, the middle section and the lower sum of each
/// column, and the column totals adding up to the slip's points (nothing for other families).
/// The boxes announced in the game are marked.
fn jamb_slips(out: &mut String, report: &ValidateReport) {
    let Some(first) = report.jamb_slips.first() else {
        return;
    };
    out.push_str("<section id=\"slips\">\n<h2>Slips</h2>\n");
    stopped_note(out, report);
    out.push_str("<div class=\"slips\">\n");
    for (seat, slip) in report.jamb_slips.iter().enumerate() {
        let player = report.players.get(seat).map_or("?", String::as_str);
        let announced: Vec<&Announcement> = report
            .announcements
            .iter()
            .filter(|a| a.seat == seat)
            .collect();
        jamb_slip(out, seat, player, slip, &announced);
    }
    let rules = first.rules();
    let description = rules.description();
    let lower: Vec<&str> = slip_rows(rules)
        .into_iter()
        .filter_map(|row| match row {
            SlipRow::Box(jbox) => Some(jbox),
            _ => None,
        })
        .filter(|jbox| {
            description
                .box_index(jbox.code())
                .and_then(|i| description.boxes.get(i))
                .is_some_and(|b| b.section == Section::Lower)
        })
        .map(jamb_box_name)
        .collect();
    let _ = write!(
        out,
        "</div>\n<p class=\"note\">Each column is filled in its own order (in its heading). \
         Upper sum: Ones to Sixes, {} bonus points from {}. \
         Middle: (Maximum - Minimum) times the Ones. Lower sum: {} to {}. An empty box \
         was not filled.",
        description.upper_bonus.points,
        description.upper_bonus.threshold,
        lower.first().unwrap_or(&"?"),
        lower.last().unwrap_or(&"?"),
    );
    if has_announce_column(rules.columns) {
        out.push_str(
            " Announce: a box announced after the turn's first roll, filled at the end of that \
             turn (a box filled without an announcement needs a pure hand, the turn's last \
             roll of all the dice); an announced box is framed, and the turn that announced it \
             says so in the move list.",
        );
    }
    out.push_str("</p>\n</section>\n");
}

/// One player's slip (`seat`, named `player`), the boxes of `announced` marked.
fn jamb_slip(
    out: &mut String,
    seat: usize,
    player: &str,
    slip: &JambSheet,
    announced: &[&Announcement],
) {
    let rules = slip.rules();
    let kinds = rules.columns;
    let columns = slip.columns();
    let _ = write!(
        out,
        "<table class=\"slip\" data-seat=\"{seat}\">\n<caption>{} &middot; \
         <span data-total>{}</span> points</caption>\n<thead><tr><th>box</th>",
        escape(player),
        slip.total()
    );
    for &kind in kinds.iter().take(columns.len()) {
        let (name, order) = jamb_column_heading(kind.code());
        let _ = write!(
            out,
            "<th class=\"num\" title=\"{order}\">{name} <span class=\"code\">{}</span></th>",
            kind.code()
        );
    }
    out.push_str("<th class=\"num\">all</th></tr></thead>\n<tbody>\n");
    let sum_row = |out: &mut String, class: &str, label: &str, of: &dyn Fn(&ColumnState) -> i32| {
        let _ = write!(out, "<tr class=\"{class}\"><th>{label}</th>");
        let mut all = 0i32;
        for column in columns {
            let v = of(column);
            all = all.saturating_add(v);
            let _ = write!(out, "<td class=\"num\">{v}</td>");
        }
        let _ = writeln!(out, "<td class=\"num\">{all}</td></tr>");
    };
    let bonus = rules.description().upper_bonus;
    for row in slip_rows(rules) {
        match row {
            SlipRow::Box(jbox) => {
                let _ = write!(
                    out,
                    "<tr><th>{} <span class=\"code\">{}</span></th>",
                    jamb_box_name(jbox),
                    jbox.code()
                );
                for (c, column) in columns.iter().enumerate() {
                    let code = slip.cell_code(Cell {
                        column: c as u8,
                        jbox,
                    });
                    slip_cell(out, &code, column.value(jbox), announced);
                }
                out.push_str("<td></td></tr>\n");
            }
            SlipRow::UpperSum => sum_row(out, "sum", "Upper sum", &ColumnState::upper_sum),
            SlipRow::Bonus => sum_row(
                out,
                "",
                &format!(
                    "Bonus <span class=\"code\">{} from {}</span>",
                    bonus.points, bonus.threshold
                ),
                &ColumnState::upper_bonus,
            ),
            SlipRow::Middle => sum_row(
                out,
                "sum",
                &format!(
                    "Middle <span class=\"code\">{}</span>",
                    middle_formula(rules)
                ),
                &ColumnState::middle,
            ),
            SlipRow::LowerSum => sum_row(out, "sum", "Lower sum", &ColumnState::lower_sum),
        }
    }
    sum_row(out, "grand", "Column total", &ColumnState::total);
    out.push_str("</tbody>\n</table>\n");
}

/// One cell of a slip (`code`, holding `points` once filled), framed when it was announced
/// (`announced`: the player's announcements; the title says in which round, and whether the
/// announced box is still to be filled).
fn slip_cell(out: &mut String, code: &str, points: Option<i32>, announced: &[&Announcement]) {
    let announcement = announced.iter().find(|a| a.cell == code);
    let mut class = String::from("num");
    if points.is_none() {
        class.push_str(" empty");
    }
    let mut title = String::new();
    if let Some(a) = announcement {
        class.push_str(" announced");
        title = format!(
            " title=\"announced in round {}{}\"",
            a.round,
            if points.is_none() { ", not filled" } else { "" }
        );
    }
    let points = points.map_or(String::new(), |p| p.to_string());
    let _ = write!(
        out,
        "<td class=\"{class}\" data-cell=\"{}\"{title}>{points}</td>",
        escape(code)
    );
}

/// Height of the game chart.
const CHART_HEIGHT: f64 = 400.0;
/// Top of the chart's plot area (room for the legend above it).
const PLOT_TOP: f64 = 48.0;
/// Bottom of the chart's plot area.
const PLOT_BOTTOM: f64 = 336.0;

/// A point of a player's line: where in the game (in turns, 0 the start) and the value.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Point {
    x: f64,
    y: f64,
}

/// Where a decision sits on the chart's turn axis: a keep after roll r of a turn of n rolls
/// r/n of a turn into its turn (a third per roll in a turn of three), a scoring decision at the
/// end of its turn. `seats` players take turns in seat order.
fn decision_x(d: &DecisionRow, seats: usize) -> f64 {
    let turn = (usize::from(d.round).saturating_sub(1)) * seats + usize::from(d.seat);
    let into = match d.choice {
        Choice::Score(_) | Choice::Write(_) => 1.0,
        Choice::Keep(_) => f64::from(d.roll) / f64::from(rolls_of_turn(d).max(1)),
    };
    turn as f64 + into
}

/// The rolls the turn of `d` may use: its roll and the rolls left after it.
fn rolls_of_turn(d: &DecisionRow) -> u8 {
    d.roll.saturating_add(d.rolls_left)
}

/// The dice of a roll of the report's game, in words (`five`, `six`; digits past ten), from
/// its rule set, else from its first decision (`five` when neither says).
fn dice_in_words(report: &ValidateReport) -> String {
    let dice = report
        .rules
        .as_deref()
        .and_then(|r| r.parse::<GameRules>().ok())
        .map(GameRules::dice)
        .or_else(|| report.decisions.first().map(|d| d.dice.len()))
        .unwrap_or(5);
    const WORDS: [&str; 11] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS
        .get(dice)
        .map_or_else(|| dice.to_string(), |w| (*w).to_string())
}

/// Each player's line: their value at the start, then after each of their decisions (in a
/// two-player game in match points, after every decision of either player: the values add up
/// to 1).
fn lines(report: &ValidateReport) -> Vec<Vec<Point>> {
    let seats = report.players.len().max(1);
    let complementary = in_match_points(report) && seats == 2;
    let mut lines: Vec<Vec<Point>> = vec![Vec::new(); seats];
    for d in &report.decisions {
        let seat = usize::from(d.seat);
        if seat >= seats {
            continue;
        }
        if lines[seat].is_empty() {
            // The value before the first roll: the best value less the luck of the roll.
            let start = d.best_value - d.luck;
            lines[seat].push(Point { x: 0.0, y: start });
            if complementary && lines[1 - seat].is_empty() {
                lines[1 - seat].push(Point {
                    x: 0.0,
                    y: 1.0 - start,
                });
            }
        }
        let x = decision_x(d, seats);
        lines[seat].push(Point { x, y: d.value });
        if complementary {
            lines[1 - seat].push(Point {
                x,
                y: 1.0 - d.value,
            });
        }
    }
    lines
}

/// The value axis of the chart: `(bottom, top, step)`; 0 to 1 in match points, else the
/// values' range widened to nice ticks.
fn value_axis(report: &ValidateReport, lines: &[Vec<Point>]) -> (f64, f64, f64) {
    if in_match_points(report) {
        return (0.0, 1.0, 0.25);
    }
    let ys = lines.iter().flatten().map(|p| p.y);
    let low = ys.clone().fold(f64::INFINITY, f64::min);
    let high = ys.fold(f64::NEG_INFINITY, f64::max);
    if !(low.is_finite() && high.is_finite()) {
        return (0.0, 300.0, 50.0);
    }
    let (_, step) = nice_axis((high - low).max(10.0), true);
    let bottom = ((low / step).floor() * step).max(0.0);
    let top = (high / step).ceil() * step;
    (bottom, top.max(bottom + step), step)
}

/// The chart and its explanation.
fn chart_section(out: &mut String, report: &ValidateReport) {
    let match_points = in_match_points(report);
    let two = report.players.len() == 2;
    let heading = match (match_points, two) {
        (true, true) => "Winning chances turn by turn",
        (true, false) => "Expected match points turn by turn",
        (false, _) => "Expected final score turn by turn",
    };
    let _ = writeln!(out, "<section id=\"chart\">\n<h2>{heading}</h2>");
    chart(out, report);
    let what = match (match_points, two) {
        (true, true) => {
            "Each line is a player's winning chances: their expected match points (1 for a win, \
             1/2 for a draw, 0 for a loss), valued after every decision of either player, so \
             the two lines add up to 1 and cross at 1/2 when the game is even."
        }
        (true, false) => {
            "Each line is a player's expected match points (their expected share of the match: \
             1 for a win, a share for a tie), after each of their decisions."
        }
        (false, _) => {
            "Each line is a player's expected final score with best play from there on (the \
             points so far included), after each of their decisions: luck moves it up and \
             down, errors move it down."
        }
    };
    let rolls = match report.decisions.iter().all(|d| rolls_of_turn(d) == 3) {
        true => "Rolls are a third of a turn apart",
        false => "A turn of n rolls is drawn with its rolls 1/n of a turn apart",
    };
    let _ = writeln!(
        out,
        "<p class=\"note\">{what} {rolls}; a turn ends when its box \
         is scored. Markers: errors and blunders, on the line of the player who made them; \
         click one to see the move.</p>\n</section>"
    );
}

/// The `game-chart` SVG.
fn chart(out: &mut String, report: &ValidateReport) {
    let match_points = in_match_points(report);
    let seats = report.players.len().max(1);
    let lines = lines(report);
    let desc = if match_points {
        "Each player's expected match points after every decision, errors and blunders marked."
    } else {
        "Each player's expected final score after every decision, errors and blunders marked."
    };
    svg_open(
        out,
        "game-chart",
        CHART_HEIGHT,
        &format!("Game {}: {}", report.game, desc),
        desc,
    );
    plot_background(out, PLOT_TOP, PLOT_BOTTOM);
    let last_x = report
        .decisions
        .iter()
        .map(|d| decision_x(d, seats))
        .fold(0.0, f64::max);
    let turns = (report.turns as f64).max(last_x).max(1.0);
    let rounds = (turns / seats as f64).ceil().max(1.0);
    let x = Scale::from_zero(rounds * seats as f64, LEFT, RIGHT);
    let (bottom, top, step) = value_axis(report, &lines);
    let y = Scale {
        d0: bottom,
        d1: top,
        p0: PLOT_BOTTOM,
        p1: PLOT_TOP,
    };
    let y_title = if match_points {
        "expected match points (winning chances)"
    } else {
        "expected final score (points)"
    };
    y_axis_from(out, y, bottom, top, step, y_title);
    round_axis(out, x, rounds as usize, seats);
    axes(out, PLOT_TOP, PLOT_BOTTOM);
    if report.decisions.is_empty() {
        no_data(out, PLOT_TOP, PLOT_BOTTOM, "no decision was rated");
        out.push_str("</svg>\n");
        return;
    }
    if match_points && seats == 2 {
        let _ = writeln!(
            out,
            "<path class=\"even\" d=\"M{} {h}H{}\"/>",
            px(LEFT),
            px(RIGHT),
            h = px(y.at(0.5))
        );
    }
    for (seat, line) in lines.iter().enumerate() {
        let points: Vec<String> = line
            .iter()
            .map(|p| format!("{},{}", px(x.at(p.x)), px(y.at(p.y))))
            .collect();
        let _ = writeln!(
            out,
            "<polyline class=\"series\" data-seat=\"{seat}\" stroke=\"{}\" points=\"{}\"/>",
            PLAYER_COLORS[seat % PLAYER_COLORS.len()],
            points.join(" ")
        );
    }
    markers(out, report, x, y, seats);
    legend(out, report);
    out.push_str("</svg>\n");
}

/// Least room, in pixels, between the centres of two round numbers on the turn axis (room for
/// a two-digit number and a gap).
const ROUND_LABEL_ROOM: f64 = 28.0;

/// Every how many rounds a number is written on the turn axis so that no two overlap: 1, 2, 5,
/// 10, 20, 50, ... rounds, the least whose numbers are [`ROUND_LABEL_ROOM`] apart.
fn round_label_every(round_width: f64) -> usize {
    let mut magnitude = 1usize;
    while magnitude < 1_000_000 {
        for every in [magnitude, 2 * magnitude, 5 * magnitude] {
            if round_width * every as f64 >= ROUND_LABEL_ROOM {
                return every;
            }
        }
        magnitude *= 10;
    }
    magnitude
}

/// Ticks at the start of each round and the round numbers between them (only every
/// [`round_label_every`]-th round's when a number for each would not fit).
fn round_axis(out: &mut String, x: Scale, rounds: usize, seats: usize) {
    out.push_str("<g class=\"x-axis\">\n");
    let every = round_label_every((x.at(seats as f64) - x.at(0.0)).abs());
    for r in 0..=rounds {
        let at = px(x.at((r * seats) as f64));
        let _ = writeln!(
            out,
            "<path class=\"axis\" d=\"M{at} {}v5\"/>",
            px(PLOT_BOTTOM)
        );
        if r < rounds && (r + 1) % every == 0 {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                px(x.at((r as f64 + 0.5) * seats as f64)),
                px(PLOT_BOTTOM + 20.0),
                r + 1
            );
        }
    }
    out.push_str("</g>\n");
    let title = if seats == 1 {
        "round (one turn each)".to_string()
    } else {
        format!("round ({seats} turns each, in seat order)")
    };
    axis_title(out, (LEFT + RIGHT) / 2.0, PLOT_BOTTOM + 48.0, &title);
}

/// A marker per error and blunder, on its mover's line, linked to its row.
fn markers(out: &mut String, report: &ValidateReport, x: Scale, y: Scale, seats: usize) {
    let places = decimals(report);
    out.push_str("<g class=\"markers\">\n");
    for d in &report.decisions {
        if !matches!(d.class, Class::Error | Class::Blunder) {
            continue;
        }
        let (cx, cy) = (x.at(decision_x(d, seats)), y.at(d.value));
        let tip = format!(
            "{} {}: round {}, {}, roll {}: {} (best {}), loss {} {}",
            d.class.name(),
            decision_anchor(d.order),
            d.round,
            d.player_name(),
            d.roll,
            d.choice_text(),
            d.best_text().unwrap_or_else(|| d.choice_text()),
            fixed(d.loss, places),
            report.unit
        );
        let _ = write!(
            out,
            "<a href=\"#{}\" class=\"mark-link\" data-class=\"{}\">",
            decision_anchor(d.order),
            d.class.name()
        );
        marker_shape(out, d.class, cx, cy);
        let _ = writeln!(out, "<title>{}</title></a>", escape(&tip));
    }
    out.push_str("</g>\n");
}

/// The marker of a class at (`cx`, `cy`): a circle for an error, a larger diamond for a
/// blunder.
fn marker_shape(out: &mut String, class: Class, cx: f64, cy: f64) {
    let color = class_color(class);
    if class == Class::Blunder {
        let r = 7.5;
        let _ = write!(
            out,
            "<path class=\"mark {}\" fill=\"{color}\" d=\"M{} {}L{} {}L{} {}L{} {}Z\"/>",
            class.name(),
            px(cx),
            px(cy - r),
            px(cx + r),
            px(cy),
            px(cx),
            px(cy + r),
            px(cx - r),
            px(cy)
        );
    } else {
        let _ = write!(
            out,
            "<circle class=\"mark {}\" fill=\"{color}\" cx=\"{}\" cy=\"{}\" r=\"5.5\"/>",
            class.name(),
            px(cx),
            px(cy)
        );
    }
}

/// The legend above the plot: a swatch per player, then the error and blunder markers.
fn legend(out: &mut String, report: &ValidateReport) {
    out.push_str("<g class=\"legend\">\n");
    let mut at = LEFT;
    let row = 22.0;
    let names: Vec<String> = if report.players.is_empty() {
        vec!["seat 1".into()]
    } else {
        report.players.clone()
    };
    for (seat, name) in names.iter().enumerate() {
        let _ = writeln!(
            out,
            "<path d=\"M{} {r}h24\" stroke=\"{}\" stroke-width=\"3\"/><text x=\"{}\" y=\"{}\">{}</text>",
            px(at),
            PLAYER_COLORS[seat % PLAYER_COLORS.len()],
            px(at + 30.0),
            px(row + 4.0),
            escape(name),
            r = px(row)
        );
        at += 44.0 + 7.5 * name.chars().count() as f64;
    }
    at += 16.0;
    for class in [Class::Error, Class::Blunder] {
        marker_shape(out, class, at + 6.0, row);
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            px(at + 18.0),
            px(row + 4.0),
            class.name()
        );
        at += 84.0;
    }
    out.push_str("</g>\n");
}

/// The classes and their thresholds in the report's unit, and what the unit is.
fn classes_legend(out: &mut String, report: &ValidateReport) {
    let t = &report.thresholds;
    let unit = report.unit;
    let _ = writeln!(
        out,
        "<ul class=\"legend-list\">\n<li>Loss: the value of the best choice minus the value of \
         the choice made, in {unit}; each decision is classed by its loss: \
         <span class=\"badge fine\">fine</span> below {d}, \
         <span class=\"badge doubtful\">doubtful</span> from {d}, \
         <span class=\"badge error\">error</span> from {e}, \
         <span class=\"badge blunder\">blunder</span> from {b}.</li>",
        d = t.doubtful,
        e = t.error,
        b = t.blunder
    );
    if in_match_points(report) {
        out.push_str(
            "<li>An expected match point is the expected share of the match won: 1 for a win, \
             1/2 for a draw, 0 for a loss. A value of 0.6 is 60 percent winning chances; a loss \
             of 0.01 is one percent of winning chances given away.</li>\n",
        );
    } else {
        out.push_str(
            "<li>Values are expected final scores: the points the mover's sheet ends with on \
             average from that choice on, with best play afterwards.</li>\n",
        );
    }
    let _ = writeln!(
        out,
        "<li>Luck: the value after the roll minus the value expected before it. Dice: the {} \
         dice after the roll, in ascending order; keep: the dice kept for the next roll \
         (<code>keep -</code>: reroll all).</li>",
        dice_in_words(report)
    );
    if shows_eval_lines(report) {
        out.push_str(
            "<li>Each move comes with the <code>dicelens eval</code> command that shows every \
             option of its position (add <code>--tables DIR</code> if your tables are \
             elsewhere).</li>\n</ul>\n",
        );
    } else {
        let _ = writeln!(
            out,
            "<li>The moves come without the <code>dicelens eval</code> command of their \
             position: in a game of more than {EVAL_LINE_PLAYERS} players rated in match points \
             it would list the sheets of all {} opponents, for every move.</li>\n</ul>",
            report.players.len().saturating_sub(1)
        );
    }
}

/// The annotated move list: a row per rated decision with its anchor, then its eval line.
fn moves(out: &mut String, report: &ValidateReport) {
    out.push_str("<section id=\"moves\">\n<h2>Moves</h2>\n");
    classes_legend(out, report);
    if report.decisions.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"empty\">No decision is rated{}.</p>\n</section>",
            report
                .not_rated
                .as_deref()
                .map_or(String::new(), |why| format!(": {}", escape(why)))
        );
        return;
    }
    let unit = report.unit;
    let places = decimals(report);
    let _ = writeln!(
        out,
        "{}<table class=\"moves\">\n<thead><tr><th class=\"num\">#</th><th class=\"num\">round\
         </th><th>player</th><th class=\"num\">roll</th><th>dice</th><th>choice</th>\
         <th class=\"num\">value ({unit})</th><th>best choice</th><th class=\"num\">best value\
         </th><th class=\"num\">loss ({unit})</th><th>class</th><th class=\"num\">luck ({unit})\
         </th></tr></thead>\n<tbody>",
        if is_jamb(report) {
            "<div class=\"moves-box\">\n"
        } else {
            ""
        }
    );
    let mut last_turn = None;
    let eval_lines = match shows_eval_lines(report) {
        true => report.eval_lines.as_slice(),
        false => &[],
    };
    for (d, eval) in report
        .decisions
        .iter()
        .zip(eval_lines.iter().map(Some).chain(std::iter::repeat(None)))
    {
        let turn = (d.round, d.seat);
        let mut classes = vec!["move"];
        if last_turn != Some(turn) {
            classes.push("turn-start");
        }
        last_turn = Some(turn);
        if matches!(d.class, Class::Error | Class::Blunder) {
            classes.push(d.class.name());
        }
        let anchor = decision_anchor(d.order);
        let best = d.best_text();
        let announced = match classes.contains(&"turn-start") {
            true => announcement_mark(report, d),
            false => String::new(),
        };
        let _ = writeln!(
            out,
            "<tr id=\"{anchor}\" class=\"{}\"><td class=\"num\"><a href=\"#{anchor}\">{}</a></td>\
             <td class=\"num\">{}</td><td>{}{announced}</td><td class=\"num\">{} of {}</td><td>{}</td>\
             <td>{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td><span class=\"badge {}\">{}</span></td>\
             <td class=\"num\">{}</td></tr>",
            classes.join(" "),
            d.order + 1,
            d.round,
            escape(&d.player_name()),
            d.roll,
            d.roll.saturating_add(d.rolls_left),
            d.dice,
            escape(&d.choice_text()),
            fixed(d.value, places),
            best.as_deref()
                .map_or("<span class=\"code\">the same</span>".into(), escape),
            fixed(d.best_value, places),
            fixed(d.loss, places),
            d.class.name(),
            d.class.name(),
            signed(d.luck, places)
        );
        if let Some(eval) = eval {
            let _ = writeln!(
                out,
                "<tr class=\"eval\"><td></td><td colspan=\"11\"><code>{}</code>{}</td></tr>",
                unbroken_flags(&eval.command, is_jamb(report)),
                if eval.same_values {
                    ""
                } else {
                    " <span class=\"code\">(eval values positions with at most 10 boxes free \
                     in all exactly where this oracle did not: its values may differ \
                     slightly)</span>"
                }
            );
        }
    }
    out.push_str("</tbody>\n</table>\n");
    if is_jamb(report) {
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");
}

/// The mark of the box the turn of `d` announced, after the player's name in the turn's first
/// row (nothing for a turn that announced none).
fn announcement_mark(report: &ValidateReport, d: &DecisionRow) -> String {
    report
        .announcements
        .iter()
        .find(|a| a.seat == usize::from(d.seat) && a.round == d.round)
        .map_or(String::new(), |a| {
            format!(
                " <span class=\"announce\" title=\"announced after the first roll\">\
                 announced {}</span>",
                escape(&a.cell)
            )
        })
}

/// A command line as HTML whose lines break only between flags: each `--flag value` (and the
/// command before the first flag) in a span that does not wrap, except after the commas of a
/// list when `break_lists` (a Jamb slip's filled boxes, dozens of them); the text is unchanged.
fn unbroken_flags(command: &str, break_lists: bool) -> String {
    command
        .split(" --")
        .enumerate()
        .map(|(i, part)| {
            let dashes = if i == 0 { "" } else { "--" };
            let mut part = escape(part);
            if break_lists {
                part = part.replace(',', ",<wbr>");
            }
            format!("<span class=\"arg\">{dashes}{part}</span>")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::rate::{rate_game, OracleSpec, SolitaireCache, SolitaireOracle, Thresholds};
    use crate::replay::{replay, ReplayOptions, Replayed};
    use crate::report::validate::Rating;
    use crate::simulate::{players, simulate_batch, Plan};
    use std::collections::HashMap;
    use std::sync::OnceLock;

    /// The expected-score table of yahtzee, built once for these tests.
    fn table() -> &'static [f64] {
        static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
        TABLE.get_or_init(|| crate::solve::expected::build_table(RuleSet::Yahtzee, &|_, _| {}))
    }

    /// The report of a simulated yahtzee game of `seats` players (noisy players, so some
    /// decisions are errors), rated in expected points.
    fn report(seats: usize, seed: u64) -> ValidateReport {
        let plan = Plan {
            rules: RuleSet::Yahtzee,
            seats,
            players: 6,
            games: 1,
            seed,
            ..Plan::default()
        };
        let game = simulate_batch(table(), &plan, &players(&plan), 0..1)
            .into_iter()
            .next()
            .expect("one game")
            .record;
        let mut replayed = Replayed::default();
        replay(&game, ReplayOptions::default(), &mut replayed).expect("it replays");
        let oracle = SolitaireOracle::new(HashMap::from([(RuleSet::Yahtzee, table().to_vec())]));
        let mut rated = Vec::new();
        let thresholds = Thresholds::POINTS;
        let mut cache = SolitaireCache::default();
        rate_game(&oracle, &replayed, &thresholds, &mut cache, &mut rated).expect("rated");
        let rating = Rating::new(OracleSpec::SOLITAIRE, seats);
        ValidateReport::game("sim.ygn", "ygn", &game, &replayed, None, rating, &rated)
    }

    #[test]
    fn scorecards_add_up_to_the_totals_and_link_their_decisions() {
        for (seats, seed) in [(1, 3), (2, 4)] {
            let report = report(seats, seed);
            assert_eq!(report.scorecards.len(), seats);
            for (card, totals) in report.scorecards.iter().zip(&report.totals) {
                assert_eq!(
                    Some(i64::from(card.total)),
                    totals.points,
                    "{}",
                    card.player
                );
                let boxes: u32 = card.boxes.iter().filter_map(|b| b.points).sum();
                let upper: u32 = card.boxes[..UPPER_BOXES]
                    .iter()
                    .filter_map(|b| b.points)
                    .sum();
                assert_eq!(upper, card.upper_total);
                assert_eq!(
                    boxes + card.upper_bonus + card.extra_bonus.unwrap_or(0),
                    card.total
                );
                assert_eq!(
                    card.upper_bonus > 0,
                    card.upper_total >= RuleSet::Yahtzee.upper_threshold()
                );
                for cell in &card.boxes {
                    let order = cell.decision.expect("every box filled by a rated decision");
                    let d = &report.decisions[order];
                    assert_eq!(usize::from(d.seat), card.seat);
                    assert_eq!(Some(d.round), cell.round);
                    assert_eq!(d.choice.to_string(), format!("score {}", cell.code));
                    assert_eq!(cell.class, Some(d.class));
                }
            }
            assert_eq!(report.eval_lines.len(), report.decisions.len());
        }
    }

    #[test]
    fn each_line_runs_from_the_start_to_the_final_score() {
        let report = report(2, 4);
        let lines = lines(&report);
        assert_eq!(lines.len(), 2);
        for (seat, line) in lines.iter().enumerate() {
            assert_eq!(line.first().map(|p| p.x), Some(0.0));
            assert!(line.windows(2).all(|w| w[0].x < w[1].x), "x grows");
            let last = line.last().expect("points");
            // Each player's last turn ends the game's rounds: after the last box, the
            // expected final score is the final score.
            assert_eq!(last.x, (24 + seat) as f64 + 1.0);
            let total = f64::from(report.scorecards[seat].total);
            assert!((last.y - total).abs() < 1e-6, "{} vs {total}", last.y);
            let mine = report
                .decisions
                .iter()
                .filter(|d| usize::from(d.seat) == seat)
                .count();
            assert_eq!(line.len(), mine + 1);
        }
        let (bottom, top, step) = value_axis(&report, &lines);
        assert!(lines.iter().flatten().all(|p| p.y >= bottom && p.y <= top));
        assert!(step > 0.0 && (bottom / step).fract() == 0.0);
    }

    #[test]
    fn the_page_anchors_every_decision_and_marks_every_error() {
        let errs = |r: &ValidateReport| {
            r.decisions
                .iter()
                .filter(|d| matches!(d.class, Class::Error | Class::Blunder))
                .count()
        };
        let report = (5..40)
            .map(|seed| report(1, seed))
            .find(|r| errs(r) > 0)
            .expect("a noisy player errs in some game");
        let page = page(&report);
        for d in &report.decisions {
            let anchor = format!("<tr id=\"{}\"", decision_anchor(d.order));
            assert_eq!(page.matches(&anchor).count(), 1, "{anchor}");
        }
        assert_eq!(page.matches("class=\"mark-link\"").count(), errs(&report));
        assert_eq!(page, super::page(&report), "deterministic");
    }

    #[test]
    fn file_names_are_safe_and_distinct() {
        let a = file_name("a/b c");
        assert!(a.starts_with("a_b_c-") && a.ends_with(".html"), "{a}");
        assert_ne!(file_name("a/b"), file_name("a_b"));
        assert_eq!(file_name("x"), file_name("x"));
    }

    #[test]
    fn anchors_count_from_one() {
        assert_eq!(decision_anchor(0), "d1");
        assert_eq!(decision_anchor(41), "d42");
    }

    #[test]
    fn box_names_follow_the_rule_set() {
        assert_eq!(box_name("Y", RuleSet::Yahtzee), "Yahtzee");
        assert_eq!(box_name("Y", RuleSet::Yatzy), "Yatzy");
        assert_eq!(box_name("3K", RuleSet::Yatzy), "Three of a kind");
        assert_eq!(box_name("1P", RuleSet::Yahtzee), "?");
        for rules in RuleSet::ALL {
            for c in rules.boxes() {
                assert_ne!(box_name(c.code(), rules), "?", "{rules} {c}");
            }
        }
    }

    #[test]
    fn a_six_dice_roll_and_a_long_turn_are_drawn_whole() {
        let mut report = report(1, 3);
        let keep = report
            .decisions
            .iter()
            .position(|d| matches!(d.choice, Choice::Keep(_)))
            .expect("a keep");
        let six = Dice::from_faces_up_to(&[6, 1, 2, 3, 4, 5], 6).expect("six dice");
        let d = &mut report.decisions[keep];
        d.dice = six;
        d.roll = 4;
        d.rolls_left = 1;
        let anchor = decision_anchor(d.order);
        let page = page(&report);
        let row = &page[page.find(&format!("<tr id=\"{anchor}\"")).expect("its row")..];
        let row = &row[..row.find("</tr>").expect("row end")];
        assert!(
            row.contains("<td class=\"num\">4 of 5</td><td>123456</td>"),
            "{row}"
        );
        // The other rows keep their three rolls.
        assert!(page.contains(" of 3</td>"));
        // Its keep sits four fifths into its turn on the chart.
        let d = &report.decisions[keep];
        let x = decision_x(d, 1);
        assert!((x - x.floor() - 0.8).abs() < 1e-12, "{x}");
        assert!(page.contains("A turn of n rolls is drawn with its rolls 1/n of a turn apart"));
    }

    #[test]
    fn the_dice_of_a_roll_are_named_by_the_rule_set() {
        let mut report = report(1, 3);
        assert_eq!(dice_in_words(&report), "five");
        assert!(page(&report).contains("Dice: the five dice after the roll"));
        report.rules = None;
        report.decisions[0].dice = Dice::from_faces_up_to(&[1, 1, 2, 2, 3, 3], 6).expect("dice");
        assert_eq!(dice_in_words(&report), "six");
    }

    /// A four-column slip (jamb-6a: Down, Free, Up, Announce) with two announced boxes, one
    /// filled and one still empty.
    fn announced_slip() -> (JambSheet, Vec<Announcement>) {
        let slip = JambSheet::from_notation(
            crate::rules::jamb::JambRules::JAMB_6A,
            "D:1=3,F:P=64,A:P=48,U:J=80",
        )
        .expect("a slip");
        let announced = vec![
            Announcement {
                seat: 0,
                round: 3,
                cell: "A:P".into(),
            },
            Announcement {
                seat: 0,
                round: 4,
                cell: "A:J".into(),
            },
        ];
        (slip, announced)
    }

    #[test]
    fn a_four_column_slip_frames_its_announced_boxes() {
        let (slip, announced) = announced_slip();
        let marks: Vec<&Announcement> = announced.iter().collect();
        let mut out = String::new();
        jamb_slip(&mut out, 0, "ann", &slip, &marks);
        assert_eq!(out.matches("<th class=\"num\" title=").count(), 4, "{out}");
        assert_eq!(out.matches("data-cell=").count(), 4 * 13);
        assert!(
            out.contains(
                "<td class=\"num announced\" data-cell=\"A:P\" title=\"announced in round 3\">48</td>"
            ),
            "{out}"
        );
        assert!(
            out.contains(
                "<td class=\"num empty announced\" data-cell=\"A:J\" \
                 title=\"announced in round 4, not filled\"></td>"
            ),
            "{out}"
        );
        assert_eq!(out.matches(" announced\" data-cell=").count(), 2);
        assert!(out.contains("title=\"the box announced after the first roll, or a pure hand\">Announce <span class=\"code\">A</span></th>"), "{out}");
        // Rows in jamb-6a's order: three of a kind before the straight.
        assert!(out.find("data-cell=\"D:T\"") < out.find("data-cell=\"D:K\""));
        // Another player's slip marks none of them.
        let mut other = String::new();
        jamb_slip(&mut other, 1, "other", &slip, &[]);
        assert!(!other.contains("announced\" data-cell="), "{other}");
    }

    #[test]
    fn columns_are_headed_by_their_letter_the_announce_column_too() {
        assert_eq!(jamb_column_heading('A').0, "Announce");
        assert_eq!(jamb_column_heading('D').0, "Down");
        assert_eq!(jamb_column_heading('X').0, "Column");
        for kind in ColumnKind::ALL {
            assert_ne!(jamb_column_heading(kind.code()).0, "Column", "{kind}");
        }
    }

    #[test]
    fn the_announcing_turn_is_marked_in_the_move_list() {
        let mut report = report(2, 4);
        let d = report
            .decisions
            .iter()
            .find(|d| d.seat == 1 && d.round == 5)
            .expect("a turn")
            .clone();
        report.announcements = vec![Announcement {
            seat: 1,
            round: 5,
            cell: "A:P".into(),
        }];
        let page = page(&report);
        assert_eq!(page.matches("class=\"announce\"").count(), 1);
        let row = &page[page
            .find(&format!("<tr id=\"{}\"", decision_anchor(d.order)))
            .expect("the turn's first row")..];
        let row = &row[..row.find("</tr>").expect("row end")];
        assert!(row.contains("announced A:P</span>"), "{row}");
        assert!(page.contains(ANNOUNCE_STYLE));
        report.announcements.clear();
        assert!(!super::page(&report).contains(ANNOUNCE_STYLE));
    }

    #[test]
    fn slip_rows_follow_the_description_with_each_section_summed_after_it() {
        let rows = slip_rows(&crate::rules::jamb::JambRules::JAMB_5);
        let sums: Vec<usize> = rows
            .iter()
            .enumerate()
            .filter(|(_, r)| !matches!(r, SlipRow::Box(_)))
            .map(|(i, _)| i)
            .collect();
        // Six upper boxes, their sum and bonus; Max and Min, the middle; five lower, their sum.
        assert_eq!(sums, [6, 7, 10, 16]);
        assert_eq!(rows[8], SlipRow::Box(JambBox::Max));
        assert_eq!(rows[11], SlipRow::Box(JambBox::Straight));
        assert_eq!(
            middle_formula(&crate::rules::jamb::JambRules::JAMB_5),
            "(MAX - MIN) &times; 1"
        );
        // jamb-6a's rows: three of a kind before the straight, the sums where they were.
        let rows = slip_rows(&crate::rules::jamb::JambRules::JAMB_6A);
        assert_eq!(rows[11], SlipRow::Box(JambBox::ThreeKind));
        assert_eq!(rows[12], SlipRow::Box(JambBox::Straight));
        assert_eq!(rows[16], SlipRow::LowerSum);
        assert_eq!(rows.len(), 17);
    }

    #[test]
    fn command_lines_break_between_flags_only() {
        let html = unbroken_flags(
            "dicelens eval --rules yahtzee --filled - --roll 12345",
            false,
        );
        assert_eq!(
            html,
            "<span class=\"arg\">dicelens eval</span> <span class=\"arg\">--rules yahtzee</span> \
             <span class=\"arg\">--filled -</span> <span class=\"arg\">--roll 12345</span>"
        );
        // A Jamb slip's list of filled boxes may break after its commas, and only there.
        let command = "dicelens eval --rules jamb-5 --filled D:1=3,F:MAX=27 --roll 12345";
        assert_eq!(
            unbroken_flags(command, true),
            "<span class=\"arg\">dicelens eval</span> <span class=\"arg\">--rules jamb-5</span> \
             <span class=\"arg\">--filled D:1=3,<wbr>F:MAX=27</span> \
             <span class=\"arg\">--roll 12345</span>"
        );
        assert!(!unbroken_flags(command, false).contains("<wbr>"));
    }

    #[test]
    fn round_numbers_are_thinned_until_they_are_apart() {
        assert_eq!(round_label_every(40.0), 1);
        assert_eq!(round_label_every(28.0), 1);
        assert_eq!(round_label_every(20.0), 2);
        assert_eq!(round_label_every(10.0), 5);
        // 65 rounds of Jamb across a 1,040-pixel plot: 16 px a round, every second one.
        assert_eq!(round_label_every(16.0), 2);
        assert_eq!(round_label_every(2.0), 20);
        for width in [0.5, 1.0, 3.0, 7.0, 13.0, 27.9] {
            let every = round_label_every(width);
            assert!(width * every as f64 >= ROUND_LABEL_ROOM, "{width}: {every}");
        }
    }

    #[test]
    fn a_jamb_slip_shows_its_cells_sums_and_total() {
        use crate::rules::jamb::JambRules;
        let rules = JambRules::JAMB_5;
        let slip = JambSheet::from_notation(rules, "D:1=3,D:2=8,F:MAX=27,F:MIN=6,F:1=4,U:J=80")
            .expect("a slip");
        let mut out = String::new();
        jamb_slip(&mut out, 1, "ann <b>", &slip, &[]);
        assert!(
            out.contains("<table class=\"slip\" data-seat=\"1\">"),
            "{out}"
        );
        assert!(out.contains("ann &lt;b&gt;"), "{out}");
        assert!(out.contains("data-cell=\"D:1\">3</td>"), "{out}");
        assert!(out.contains("data-cell=\"F:MAX\">27</td>"), "{out}");
        assert!(out.contains("data-cell=\"U:J\">80</td>"), "{out}");
        assert!(out.contains("data-cell=\"I:J\"></td>"), "{out}");
        // A column per column of the rule set, a cell per box of each.
        assert_eq!(out.matches("data-cell=").count(), 5 * 13);
        // Free: (27 - 6) x 4 = 84 in the middle, with its 4 in the upper sum: 88.
        assert_eq!(slip.total(), 3 + 8 + 84 + 4 + 80);
        assert!(
            out.contains(&format!("<span data-total>{}</span> points", slip.total())),
            "{out}"
        );
        let total_row = &out[out.find("Column total").expect("totals")..];
        assert!(
            total_row.starts_with("Column total</th><td class=\"num\">11</td><td class=\"num\">88</td><td class=\"num\">80</td>"),
            "{total_row}"
        );
        assert!(
            total_row.contains(&format!("<td class=\"num\">{}</td></tr>", slip.total())),
            "{total_row}"
        );
    }

    #[test]
    fn signed_values_carry_their_sign() {
        assert_eq!(signed(1.234, 2), "+1.23");
        assert_eq!(signed(-0.5, 2), "-0.50");
        assert_eq!(signed(f64::NAN, 1), "+0.0");
    }
}
