//! The analysis board's views: a game opened (replayed and rated by the analysis's oracle),
//! one decision drawn (dice, every player's sheet, every option valued as `dicelens eval`
//! values it), and the sheets and options of any position, which play, entry and what-if
//! sessions show too.

use super::api::{BoxView, ColumnSums, DecisionBrief, DecisionView, OptionView, SheetView, Valued};
use crate::dice::Dice;
use crate::evaluate::{evaluate, Evaluation, JambQuestion, Question};
use crate::pipeline::OracleRegistry;
use crate::position::Position;
use crate::rate::{rate_game, FamilyCache, Oracle, Rated, Thresholds, Unit};
use crate::replay::{replay, ReplayOptions, Replayed, Skip};
use crate::rules::jamb::Cell;
use crate::rules::GameFamily;
use crate::rules::GameRules;
use crate::rules::{Choice, PlayerSheet};
use crate::solve::match_points::Method;
use crate::tables::{dist_path, expected_path, jamb_path, Silent};
use dicelens_parsers::GameRecord;

/// The unit of the values of a position: match points for a one-column game of several
/// players, else points.
pub(crate) fn unit_name(sheets: &[PlayerSheet]) -> &'static str {
    match sheets.first() {
        Some(PlayerSheet::Yahtzee(_)) if sheets.len() > 1 => "match points",
        _ => "points",
    }
}

/// Why a position of `rules` with `seats` players cannot be valued by `method`: the first
/// table it needs that is not in the registry's directory. The board reads tables and never
/// builds them (a build takes minutes, and the directory may be shared): it says which
/// command builds the one missing.
pub(crate) fn missing_table(
    registry: &OracleRegistry,
    rules: GameRules,
    seats: usize,
    method: Method,
) -> Option<String> {
    let dir = registry.dir();
    if let GameRules::Yahtzee(r) = rules {
        if r.saves_rolls() {
            return Some(format!(
                "the board does not keep the bank of saved rolls of {r}; value its positions \
                 with `dicelens eval --rules {r} --saved N`"
            ));
        }
    }
    let (path, flag) = match rules {
        GameRules::Jamb(r) => (jamb_path(dir, r), ""),
        GameRules::Yahtzee(r) => {
            let expected = expected_path(dir, r);
            if !expected.is_file() || seats < 2 || method == Method::Solitaire {
                (expected, "")
            } else {
                (dist_path(dir, r), " --dist")
            }
        }
    };
    (!path.is_file()).then(|| {
        format!(
            "no table {}: the board does not build tables; build it with `dicelens tables build \
             --rules {}{flag} --tables {}`",
            path.display(),
            rules.name(),
            dir.display()
        )
    })
}

/// A game opened on the board: its record, its replay (up to the first broken rule) and its
/// decisions rated by the analysis's oracle (as many as could be).
pub(crate) struct OpenGame {
    /// The record.
    pub record: GameRecord,
    /// The replay.
    pub replayed: Replayed,
    /// The rating of the decisions, in order (fewer than the decisions when rating stopped).
    pub rated: Vec<Rated>,
    /// Why the game is not wholly replayed or rated.
    pub note: Option<String>,
}

impl OpenGame {
    /// Replays `record` and rates its decisions with the oracle of `registry`.
    pub fn open(record: GameRecord, registry: &mut OracleRegistry, method: Method) -> OpenGame {
        let mut replayed = Replayed::default();
        let options = ReplayOptions {
            include_unfinished: true,
        };
        let mut note = match replay(&record, options, &mut replayed) {
            Err(Skip::Invalid(v)) => Some(format!("the replay stops: {v}")),
            _ => None,
        };
        let mut rated = Vec::new();
        let missing = replayed
            .rules
            .and_then(|rules| missing_table(registry, rules, replayed.seats, method));
        if replayed.rules.is_none() {
            note.get_or_insert_with(|| "the rule set is unknown".into());
        } else if let Some(why) = missing {
            note = Some(why);
        } else if let Err(e) = registry.load_for_game(&replayed, &Silent) {
            note = Some(e.to_string());
        } else {
            let thresholds = match registry.oracle().unit(replayed.rules, replayed.seats) {
                Unit::Points => Thresholds::POINTS,
                _ => Thresholds::MATCH_POINTS,
            };
            let mut cache = FamilyCache::default();
            let oracle = registry.oracle();
            if let Err(e) = rate_game(oracle, &replayed, &thresholds, &mut cache, &mut rated) {
                note.get_or_insert_with(|| e.partly_rated());
            }
        }
        OpenGame {
            record,
            replayed,
            rated,
            note,
        }
    }

    /// The sheets before the turn of decision `index`, in seat order.
    fn sheets_before(&self, turn: usize) -> &[PlayerSheet] {
        let seats = self.replayed.seats.max(1);
        self.replayed
            .sheets
            .get(turn * seats..(turn + 1) * seats)
            .unwrap_or(&[])
    }

    /// Every decision in brief, with the rated value of the option taken.
    pub fn briefs(&self) -> Vec<DecisionBrief> {
        self.replayed
            .decisions
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let rated = self.rated.get(i);
                DecisionBrief {
                    seat: usize::from(d.seat),
                    round: d.round,
                    roll: d.roll_number,
                    dice: d.dice.faces(),
                    chosen: option_label(&d.sheet, d.choice),
                    value: rated.map(|r| r.chosen),
                    loss: rated.map(|r| r.error),
                }
            })
            .collect()
    }

    /// Decision `index` drawn and valued (`None` past the last decision).
    pub fn decision(
        &self,
        index: usize,
        registry: &mut OracleRegistry,
        method: Method,
    ) -> Option<DecisionView> {
        let d = self.replayed.decisions.get(index)?;
        let turn = usize::from(d.turn);
        let sheets = self.sheets_before(turn);
        let box_points = self.replayed.box_points.get(..turn).unwrap_or(&[]);
        let seat = usize::from(d.seat);
        let valued = value_options(registry, method, sheets, seat, &d.dice, d.roll_number);
        let chosen = option_label(&d.sheet, d.choice);
        Some(DecisionView {
            index,
            of: self.replayed.decisions.len(),
            seat,
            round: d.round,
            roll: d.roll_number,
            rolls_left: d.sheet.max_rolls().saturating_sub(d.roll_number),
            dice: d.dice.faces(),
            kept: kept_marks(&d.dice, d.choice),
            valued: mark_chosen(valued, &chosen),
            chosen,
            sheets: sheet_views(&self.record, turn, box_points, sheets),
        })
    }
}

/// `valued` with the option `chosen` marked.
pub(crate) fn mark_chosen(mut valued: Valued, chosen: &str) -> Valued {
    for o in &mut valued.options {
        o.chosen = o.option == chosen;
    }
    valued
}

/// The option as `eval` writes it: `keep 66`, `keep -`, `score 3K`, `score D:MAX`.
pub(crate) fn option_label(sheet: &PlayerSheet, choice: Choice) -> String {
    match (choice, sheet.code_of(choice)) {
        (Choice::Write(_), Some(code)) => format!("score {code}"),
        _ => choice.to_string(),
    }
}

/// For each die of `dice` (ascending), whether `choice` keeps it.
pub(crate) fn kept_marks(dice: &Dice, choice: Choice) -> Vec<bool> {
    let mut left = choice.kept().map_or([0u8; 7], |k| {
        let mut counts = [0u8; 7];
        for face in k.faces() {
            counts[usize::from(face.min(6))] += 1;
        }
        counts
    });
    dice.faces()
        .into_iter()
        .map(|face| {
            let slot = &mut left[usize::from(face.min(6))];
            let kept = *slot > 0;
            *slot = slot.saturating_sub(1);
            kept
        })
        .collect()
}

/// Every option of the position of seat `seat` with `dice` of roll `roll_number` on the
/// table, valued as `dicelens eval` values it: in expected final points for one player or a
/// Jamb slip, in expected match points by `method` against the other sheets (with each
/// option's solitaire value beside) for a one-column game of several players.
pub(crate) fn value_options(
    registry: &mut OracleRegistry,
    method: Method,
    sheets: &[PlayerSheet],
    seat: usize,
    dice: &Dice,
    roll_number: u8,
) -> Valued {
    let unit = unit_name(sheets);
    let Some(mover) = sheets.get(seat) else {
        return not_valued(unit, "no such seat".into());
    };
    if let Some(why) = missing_table(registry, mover.rules(), sheets.len(), method) {
        return not_valued(unit, why);
    }
    let rolls_left = mover.max_rolls().saturating_sub(roll_number);
    let result = match mover {
        PlayerSheet::Jamb(slip) => {
            let question = JambQuestion {
                sheet: *slip,
                roll: *dice,
                rolls_left,
                announced: None,
                pure: roll_number == 1,
            };
            evaluate(&question, registry, &Silent)
        }
        PlayerSheet::Yahtzee(sheet) => {
            let opponents: Vec<_> = (1..sheets.len())
                .filter_map(|k| sheets[(seat + k) % sheets.len()].yahtzee().copied())
                .collect();
            let question = Question {
                position: Position {
                    sheet: *sheet,
                    roll: Some((*dice, rolls_left)),
                    saved: 0,
                },
                method: (!opponents.is_empty()).then_some(method),
                opponents,
                target: None,
            };
            evaluate(&question, registry, &Silent)
        }
    };
    let options = match result {
        Ok(evaluation) => choices_of(&evaluation),
        Err(e) => return not_valued(unit, e.to_string()),
    };
    let solitaire = match (mover, sheets.len() > 1) {
        (PlayerSheet::Yahtzee(sheet), true) => {
            let question = Question {
                position: Position {
                    sheet: *sheet,
                    roll: Some((*dice, rolls_left)),
                    saved: 0,
                },
                opponents: Vec::new(),
                method: None,
                target: None,
            };
            evaluate(&question, registry, &Silent)
                .map(|e| choices_of(&e))
                .unwrap_or_default()
        }
        _ => Vec::new(),
    };
    let best = options.first().map_or(0.0, |o| o.1);
    Valued {
        unit,
        options: options
            .iter()
            .map(|&(choice, value)| OptionView {
                option: option_label(mover, choice),
                value,
                loss: best - value,
                solitaire: solitaire.iter().find(|s| s.0 == choice).map(|s| s.1),
                chosen: false,
            })
            .collect(),
        error: None,
    }
}

/// A position that could not be valued, and why.
fn not_valued(unit: &'static str, why: String) -> Valued {
    Valued {
        unit,
        options: Vec::new(),
        error: Some(why),
    }
}

/// The options of an evaluation with their values, best first.
fn choices_of(evaluation: &Evaluation) -> Vec<(Choice, f64)> {
    match evaluation {
        Evaluation::SolitaireOptions { options, .. } => {
            options.iter().map(|o| (o.choice, o.value)).collect()
        }
        Evaluation::MatchOptions { options, .. } | Evaluation::JambOptions { options, .. } => {
            options.clone()
        }
        Evaluation::SheetValue { .. } | Evaluation::MatchValue { .. } => Vec::new(),
    }
}

/// Every player's sheet as drawn, before turn `turns` of `record`: `sheets` in seat order, the
/// points of the single-column boxes from the turns before (`box_points[t]` for turn `t`).
pub(crate) fn sheet_views(
    record: &GameRecord,
    turns: usize,
    box_points: &[u32],
    sheets: &[PlayerSheet],
) -> Vec<SheetView> {
    sheets
        .iter()
        .enumerate()
        .map(|(seat, sheet)| {
            let player = record.players.get(seat).cloned().unwrap_or_default();
            let mut column_sums = Vec::new();
            let (family, columns, boxes) = match sheet {
                PlayerSheet::Jamb(slip) => {
                    let mut boxes = Vec::new();
                    let mut letters = Vec::new();
                    for (c, kind) in slip.rules().columns.iter().enumerate() {
                        letters.push(kind.code().to_string());
                        // The rows in the rule set's order.
                        for &jbox in slip.rules().rows {
                            let cell = Cell {
                                column: c as u8,
                                jbox,
                            };
                            let points = slip.column(c).and_then(|col| col.value(jbox));
                            boxes.push(BoxView {
                                code: slip.cell_code(cell),
                                name: jbox.code().to_string(),
                                column: kind.code().to_string(),
                                points: points.map(i64::from),
                            });
                        }
                    }
                    column_sums = slip
                        .columns()
                        .iter()
                        .map(|c| ColumnSums {
                            upper: i64::from(c.upper_sum()),
                            bonus: i64::from(c.upper_bonus()),
                            middle: i64::from(c.middle()),
                            lower: i64::from(c.lower_sum()),
                            total: i64::from(c.total()),
                        })
                        .collect();
                    ("jamb", letters, boxes)
                }
                PlayerSheet::Yahtzee(s) => {
                    let boxes = s
                        .rules
                        .boxes()
                        .iter()
                        .map(|category| {
                            let code = category.code();
                            let points = record
                                .turns
                                .iter()
                                .take(turns)
                                .zip(box_points)
                                .find(|(t, _)| {
                                    usize::from(t.seat) == seat && t.category.as_str() == code
                                })
                                .map(|(_, &p)| i64::from(p));
                            BoxView {
                                code: code.to_string(),
                                name: code.to_string(),
                                column: String::new(),
                                points,
                            }
                        })
                        .collect();
                    ("column", Vec::new(), boxes)
                }
            };
            let in_boxes: i64 = boxes.iter().filter_map(|b| b.points).sum();
            let total = sheet.points();
            SheetView {
                player,
                family,
                columns,
                boxes,
                upper: i64::from(sheet.upper_total()),
                bonus: total - in_boxes,
                total,
                column_sums,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keep_marks_the_dice_it_keeps_once_each() {
        let dice = Dice::from_faces(&[2, 6, 6, 6, 3]).expect("dice");
        let keep = Choice::Keep(Dice::from_faces(&[6, 6]).expect("keep"));
        assert_eq!(kept_marks(&dice, keep), [false, false, true, true, false]);
        let none = Choice::Keep(Dice::from_faces(&[]).expect("no dice"));
        assert_eq!(kept_marks(&dice, none), [false; 5]);
    }

    #[test]
    fn the_chosen_option_is_marked_and_no_other() {
        let option = |name: &str| OptionView {
            option: name.into(),
            value: 1.0,
            loss: 0.0,
            solitaire: None,
            chosen: false,
        };
        let valued = Valued {
            unit: "points",
            options: vec![option("keep 66"), option("score 6")],
            error: None,
        };
        let marked = mark_chosen(valued, "score 6");
        let chosen: Vec<bool> = marked.options.iter().map(|o| o.chosen).collect();
        assert_eq!(chosen, [false, true]);
    }
}
