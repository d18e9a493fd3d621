//! The output of `dicelens eval`: a position's value, or every option of a decision with its
//! value and loss against the best, as text for people or JSON (an array of
//! `{option, value, loss}`, with `p_target` when a target is given).

use crate::dice::Dice;
use crate::evaluate::Evaluation;
use crate::rules::jamb::{Cell, JambSheet};
use crate::rules::{Choice, PlayerSheet, Sheet};
use crate::solve::distribution::OptionChance;
use crate::solve::expected::OptionValue;
use crate::solve::match_points::Method;
use std::fmt::Write;

/// One option of a decision, as printed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub(crate) struct OptionRow {
    /// The option (`keep 234`, `score LS`).
    pub option: String,
    /// Its value.
    pub value: f64,
    /// The best option's value minus its value.
    pub loss: f64,
    /// Its largest probability of reaching the target, when a target is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_target: Option<f64>,
}

/// The rule set and the sheet: `yahtzee: filled 1,2,3, upper 9, points 9`.
pub fn sheet_heading(sheet: &Sheet) -> String {
    format!(
        "{}: filled {}, upper {}, points {}",
        sheet.rules,
        sheet.filled_codes(),
        sheet.upper_total,
        sheet.points
    )
}

/// The `dicelens eval` command line that values a decision's position: the mover's sheet
/// (rule set, filled boxes, upper total, points), the dice and the rolls left, then each
/// opponent's sheet in seat order after the mover and the method that values the position in
/// match points (no opponents and no method: the position in expected final points).
pub(crate) fn command_line(
    mover: &PlayerSheet,
    roll: &Dice,
    rolls_left: u8,
    opponents: &[PlayerSheet],
    method: Option<Method>,
) -> String {
    let mover = match mover {
        PlayerSheet::Yahtzee(sheet) => sheet,
        PlayerSheet::Jamb(slip) => {
            return format!(
                "dicelens eval --rules {} --filled {} --roll {roll} --rolls-left {rolls_left}",
                slip.rules(),
                slip.notation()
            )
        }
    };
    let mut line = format!(
        "dicelens eval --rules {} --filled {} --upper {} --points {} --roll {roll} --rolls-left {rolls_left}",
        mover.rules,
        mover.filled_codes(),
        mover.upper_total,
        mover.points
    );
    for o in opponents.iter().filter_map(PlayerSheet::yahtzee) {
        let _ = write!(
            line,
            " --opponent-filled {} --opponent-upper {} --opponent-points {}",
            o.filled_codes(),
            o.upper_total,
            o.points
        );
    }
    if let Some(method) = method {
        let _ = write!(line, " --oracle {method}");
    }
    line
}

/// An evaluation as a table for people, or as JSON.
pub fn render(evaluation: &Evaluation, json: bool) -> String {
    match evaluation {
        Evaluation::SheetValue {
            sheet,
            value,
            target,
        } => solitaire_value(sheet, *value, *target, json),
        Evaluation::SolitaireOptions {
            sheet,
            roll,
            rolls_left,
            options,
            chances,
        } => solitaire_options(
            sheet,
            roll,
            *rolls_left,
            options,
            chances.as_ref().map(|(t, c)| (*t, c.as_slice())),
            json,
        ),
        Evaluation::MatchValue {
            mover,
            opponents,
            method,
            value,
        } => match_value(mover, opponents, *method, *value, json),
        Evaluation::MatchOptions {
            mover,
            opponents,
            method,
            roll,
            rolls_left,
            options,
        } => match_options(mover, opponents, *method, roll, *rolls_left, options, json),
        Evaluation::JambOptions {
            sheet,
            roll,
            rolls_left,
            announced,
            pure,
            options,
            announcements,
            oracle,
        } => jamb_options(
            sheet,
            (roll, *rolls_left, *announced, *pure),
            options,
            announcements,
            oracle,
            json,
        ),
    }
}

/// Every option of a Jamb decision (best first) as a table or JSON, the announcements of
/// roll 1 (`announce A:P`) among them by value; `moment` is the roll, the rolls left after it,
/// the cell announced in the turn and whether the hand is pure.
fn jamb_options(
    sheet: &JambSheet,
    moment: (&Dice, u8, Option<Cell>, bool),
    options: &[(Choice, f64)],
    announcements: &[(Cell, f64)],
    oracle: &str,
    json: bool,
) -> String {
    let (roll, rolls_left, announced, pure) = moment;
    let slip = PlayerSheet::Jamb(*sheet);
    let mut named: Vec<(String, f64)> = options
        .iter()
        .map(|&(choice, value)| match slip.code_of(choice) {
            Some(code) => (format!("score {code}"), value),
            None => (choice.to_string(), value),
        })
        .collect();
    named.extend(
        announcements
            .iter()
            .map(|&(cell, value)| (format!("announce {}", sheet.cell_code(cell)), value)),
    );
    named.sort_by(|a, b| b.1.total_cmp(&a.1));
    let best = named.first().map_or(0.0, |o| o.1);
    let rows: Vec<OptionRow> = named
        .into_iter()
        .map(|(option, value)| OptionRow {
            option,
            value,
            loss: best - value,
            p_target: None,
        })
        .collect();
    if json {
        return json_rows(&rows);
    }
    let mut turn = String::new();
    if let Some(cell) = announced {
        let _ = write!(turn, ", announced {}", sheet.cell_code(cell));
    }
    if pure && rolls_left + 1 < sheet.rolls_this_turn() {
        turn.push_str(", a pure hand");
    }
    let mut out = format!(
        "{}: filled {}, points {}, roll {roll}, {}{turn}\noracle: {oracle}\n",
        sheet.rules(),
        sheet.notation(),
        sheet.total(),
        rolls_left_text(rolls_left)
    );
    let _ = writeln!(out, "{:<12} {:>10} {:>9}", "option", "value", "loss");
    for o in &rows {
        let _ = writeln!(out, "{:<12} {:>10.4} {:>9.4}", o.option, o.value, o.loss);
    }
    out
}

/// `N roll(s) left`.
fn rolls_left_text(rolls_left: u8) -> String {
    format!(
        "{rolls_left} roll{} left",
        if rolls_left == 1 { "" } else { "s" }
    )
}

/// Rows of options valued best first, each with its loss against the first.
fn option_rows(options: impl Iterator<Item = (Choice, f64)> + Clone) -> Vec<OptionRow> {
    let best = options.clone().next().map_or(0.0, |o| o.1);
    options
        .map(|(choice, value)| OptionRow {
            option: choice.to_string(),
            value,
            loss: best - value,
            p_target: None,
        })
        .collect()
}

/// The rows as a pretty-printed JSON array, with a final newline.
fn json_rows(rows: &[OptionRow]) -> String {
    serde_json::to_string_pretty(rows).unwrap_or_default() + "\n"
}

/// A solitaire sheet's expected final score before its next turn, and with a target its
/// largest probability of finishing with at least the target (`(target, p)`).
fn solitaire_value(sheet: &Sheet, value: f64, target: Option<(i64, f64)>, json: bool) -> String {
    if json {
        let mut json = serde_json::json!({ "value": value });
        if let Some((_, p)) = target {
            json["p_target"] = serde_json::json!(p);
        }
        return format!("{json}\n");
    }
    let mut text = format!(
        "{}\nexpected final score before the next turn: {value:.4}\n",
        sheet_heading(sheet)
    );
    if let Some((t, p)) = target {
        let _ = writeln!(
            text,
            "largest probability of finishing with at least {t}: {}",
            super::dist::probability_text(p, 6)
        );
    }
    text
}

/// Every option of a solitaire decision (`options` best first by expected value) as a table or
/// JSON; with `chances` of reaching a target, best probability first (equal probabilities in
/// expected-value order).
fn solitaire_options(
    sheet: &Sheet,
    roll: &Dice,
    rolls_left: u8,
    options: &[OptionValue],
    chances: Option<(i64, &[OptionChance])>,
    json: bool,
) -> String {
    let p_of = |choice: Choice| {
        chances.and_then(|(_, c)| c.iter().find(|c| c.choice == choice).map(|c| c.p_target))
    };
    let mut rows = option_rows(options.iter().map(|o| (o.choice, o.value)));
    for (row, o) in rows.iter_mut().zip(options) {
        row.p_target = p_of(o.choice);
    }
    if chances.is_some() {
        rows.sort_by(|a, b| {
            b.p_target
                .unwrap_or(0.0)
                .total_cmp(&a.p_target.unwrap_or(0.0))
        });
    }
    if json {
        return json_rows(&rows);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}, roll {roll}, {}",
        sheet_heading(sheet),
        rolls_left_text(rolls_left)
    );
    if let Some((target, _)) = chances {
        let _ = writeln!(
            out,
            "{:<12} {:>10} {:>10} {:>9}",
            "option",
            format!("P(>={target})"),
            "value",
            "loss"
        );
    } else {
        let _ = writeln!(out, "{:<12} {:>10} {:>9}", "option", "value", "loss");
    }
    for o in &rows {
        let p = o
            .p_target
            .map(|p| format!(" {:>10}", super::dist::probability_text(p, 6)))
            .unwrap_or_default();
        let _ = writeln!(out, "{:<12}{p} {:>10.4} {:>9.4}", o.option, o.value, o.loss);
    }
    out
}

/// The heading of a position with opponents: the mover's sheet, each opponent's, the method.
fn match_heading(mover: &Sheet, opponents: &[Sheet], method: Method) -> String {
    let opponents = opponents
        .iter()
        .enumerate()
        .map(|(i, o)| {
            format!(
                "opponent {}: filled {}, upper {}, points {}",
                i + 1,
                o.filled_codes(),
                o.upper_total,
                o.points
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "{}; {opponents}; method {method} (expected match points)",
        sheet_heading(mover)
    )
}

/// The mover's expected match points before the next turn, against `opponents`.
fn match_value(
    mover: &Sheet,
    opponents: &[Sheet],
    method: Method,
    value: f64,
    json: bool,
) -> String {
    if json {
        return format!(
            "{}\n",
            serde_json::json!({ "value": value, "method": method.to_string() })
        );
    }
    format!(
        "{}\nexpected match points before the next turn: {value:.6}\n",
        match_heading(mover, opponents, method)
    )
}

/// Every option of the mover's decision against `opponents`, valued in expected match points
/// (`options` best first), as a table or JSON.
fn match_options(
    mover: &Sheet,
    opponents: &[Sheet],
    method: Method,
    roll: &Dice,
    rolls_left: u8,
    options: &[(Choice, f64)],
    json: bool,
) -> String {
    let rows = option_rows(options.iter().copied());
    if json {
        return json_rows(&rows);
    }
    let mut out = format!(
        "{}\nroll {roll}, {}\n{:<12} {:>10} {:>9}\n",
        match_heading(mover, opponents, method),
        rolls_left_text(rolls_left),
        "option",
        "value",
        "loss"
    );
    for row in &rows {
        let _ = writeln!(
            out,
            "{:<12} {:>10.6} {:>9.6}",
            row.option, row.value, row.loss
        );
    }
    out
}
