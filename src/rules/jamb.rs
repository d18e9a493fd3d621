//! Jamb, the column variant of Yahtzee played in Serbia and ex-Yugoslavia: a slip of several
//! columns of the same 13 boxes, each column with its own order of filling (see `docs/jamb.md`).
//!
//! Self-contained: nothing else in the crate depends on it, and it shares only [`Dice`].

use super::description::{
    groups, lower, scored, upper_then, BoxRule, ExtraBonusRule, FinalScore, GameDescription,
    Pattern, Payoff, Section, UpperBonus, DICE_SUM,
};
use super::{ExtraBonus, JokerRule};
use crate::dice::{Dice, DICE, FACES};
use std::fmt;

/// Number of boxes in a column.
pub const BOXES: usize = 13;
/// Rolls a turn may use.
pub const MAX_ROLLS: u8 = 3;
/// Upper sum that earns the upper bonus.
pub const UPPER_BONUS_THRESHOLD: i32 = 60;
/// The upper bonus of a column.
pub const UPPER_BONUS: i32 = 30;

/// Mask with every box of a column filled.
const FULL_COLUMN: u16 = (1 << BOXES) - 1;

/// A box of a Jamb column, in slip order from top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JambBox {
    /// Upper box for ones.
    Ones,
    /// Upper box for twos.
    Twos,
    /// Upper box for threes.
    Threes,
    /// Upper box for fours.
    Fours,
    /// Upper box for fives.
    Fives,
    /// Upper box for sixes.
    Sixes,
    /// Maximum: the sum of the five dice.
    Max,
    /// Minimum: the sum of the five dice.
    Min,
    /// Straight (kenta): 1-2-3-4-5 or 2-3-4-5-6, worth more the earlier it is rolled.
    Straight,
    /// Three of a kind (triling).
    ThreeKind,
    /// Full house (ful).
    FullHouse,
    /// Four of a kind (poker).
    FourKind,
    /// Five of a kind (jamb).
    Jamb,
}

impl JambBox {
    /// The 13 boxes in slip order; box `i` is bit `i` of a column's filled mask.
    pub const ALL: [JambBox; BOXES] = [
        JambBox::Ones,
        JambBox::Twos,
        JambBox::Threes,
        JambBox::Fours,
        JambBox::Fives,
        JambBox::Sixes,
        JambBox::Max,
        JambBox::Min,
        JambBox::Straight,
        JambBox::ThreeKind,
        JambBox::FullHouse,
        JambBox::FourKind,
        JambBox::Jamb,
    ];

    /// Position of the box in the column, 0 (ones) to 12 (jamb).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The box at a position in the column; `None` past the bottom.
    pub fn from_index(index: usize) -> Option<JambBox> {
        JambBox::ALL.get(index).copied()
    }

    /// Bit of the box in a column's filled mask.
    pub fn bit(self) -> u16 {
        1 << self.index()
    }

    /// The box's code: `1`..`6`, `MAX`, `MIN`, `K` (kenta), `T` (triling), `F` (ful),
    /// `P` (poker), `J` (jamb).
    pub fn code(self) -> &'static str {
        match self {
            JambBox::Ones => "1",
            JambBox::Twos => "2",
            JambBox::Threes => "3",
            JambBox::Fours => "4",
            JambBox::Fives => "5",
            JambBox::Sixes => "6",
            JambBox::Max => "MAX",
            JambBox::Min => "MIN",
            JambBox::Straight => "K",
            JambBox::ThreeKind => "T",
            JambBox::FullHouse => "F",
            JambBox::FourKind => "P",
            JambBox::Jamb => "J",
        }
    }

    /// The box with the given code, case-insensitive.
    pub fn parse(code: &str) -> Option<JambBox> {
        JambBox::ALL
            .into_iter()
            .find(|b| b.code().eq_ignore_ascii_case(code))
    }

    /// The face of an upper box (1..=6), `None` for the other boxes.
    pub fn upper_face(self) -> Option<u8> {
        let i = self as u8;
        (i < 6).then_some(i + 1)
    }
}

impl fmt::Display for JambBox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

pub use super::description::ColumnKind;

/// Which box may come next: the fill order of each column kind, on Jamb's 13-box column.
impl ColumnKind {
    /// Mask of the boxes that may be filled next in a column of this kind whose filled boxes
    /// are `filled`, with dice of roll `roll_number`; 0 for a roll number outside 1..=3.
    pub fn allowed_boxes(self, filled: u16, roll_number: u8) -> u16 {
        if !(1..=MAX_ROLLS).contains(&roll_number) {
            return 0;
        }
        let filled = filled & FULL_COLUMN;
        let empty = !filled & FULL_COLUMN;
        let topmost = empty & empty.wrapping_neg();
        let bottommost = highest_bit(empty);
        match self {
            ColumnKind::Down => topmost,
            ColumnKind::Up => bottommost,
            ColumnKind::Free => empty,
            ColumnKind::Hand if roll_number == 1 => empty,
            ColumnKind::Hand => 0,
            ColumnKind::Outer => topmost | bottommost,
            ColumnKind::Inner if filled == 0 => JambBox::Max.bit() | JambBox::Min.bit(),
            ColumnKind::Inner => empty & ((filled << 1) | (filled >> 1)),
        }
    }
}

/// The highest set bit of `bits` alone, 0 for none.
fn highest_bit(bits: u16) -> u16 {
    if bits == 0 {
        0
    } else {
        1 << (15 - bits.leading_zeros())
    }
}

/// What the four-of-a-kind box (poker) scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FourKindRule {
    /// The four alike dice plus 40 (default).
    FourDicePlus40,
    /// All five dice plus 40.
    AllDicePlus40,
}

/// Whether five alike fills the full-house box (ful).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FullHouseRule {
    /// Only three of one face and two of another face (default): five alike scores 0 there.
    TwoFaces,
    /// Five alike counts as a full house too.
    FiveAlikeToo,
}

/// A Jamb rule set: its columns and its scoring variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JambRules {
    /// The name used to choose it (`jamb-4`, `jamb-5`).
    pub name: &'static str,
    /// The columns of the slip, left to right.
    pub columns: &'static [ColumnKind],
    /// What four of a kind scores.
    pub four_kind: FourKindRule,
    /// Whether five alike is a full house.
    pub full_house: FullHouseRule,
}

impl JambRules {
    /// Four columns: down, free, up, hand (52 turns).
    pub const JAMB_4: JambRules = JambRules {
        name: "jamb-4",
        columns: &[
            ColumnKind::Down,
            ColumnKind::Free,
            ColumnKind::Up,
            ColumnKind::Hand,
        ],
        four_kind: FourKindRule::FourDicePlus40,
        full_house: FullHouseRule::TwoFaces,
    };

    /// Five columns: down, free, up, from the middle, toward the middle (65 turns).
    pub const JAMB_5: JambRules = JambRules {
        name: "jamb-5",
        columns: &[
            ColumnKind::Down,
            ColumnKind::Free,
            ColumnKind::Up,
            ColumnKind::Inner,
            ColumnKind::Outer,
        ],
        four_kind: FourKindRule::FourDicePlus40,
        full_house: FullHouseRule::TwoFaces,
    };

    /// The named rule sets.
    pub const ALL: [JambRules; 2] = [JambRules::JAMB_4, JambRules::JAMB_5];

    /// The rule set with the given name.
    pub fn by_name(name: &str) -> Option<JambRules> {
        JambRules::ALL.into_iter().find(|r| r.name == name)
    }

    /// Turns in a game: one per box of the slip.
    pub fn turns(&self) -> usize {
        self.columns.len() * BOXES
    }

    /// Points of `dice` in box `b` when scored on roll `roll_number`; `None` unless there are
    /// exactly five dice and the roll number is 1..=3. Dice that do not fit score 0.
    pub fn points(&self, b: JambBox, dice: &Dice, roll_number: u8) -> Option<i32> {
        if dice.len() != DICE || !(1..=MAX_ROLLS).contains(&roll_number) {
            return None;
        }
        Some(self.points_of_counts(b, &dice.counts(), roll_number))
    }

    /// Points of dice with these face counts (`counts[i]` dice showing face `i + 1`) in box
    /// `b`, when scored on roll `roll_number` (1 to 3): the scoring of [`JambRules::points`]
    /// (the rule set's [description](super::description)), also for the hands a strategy aims at.
    pub fn points_of_counts(&self, b: JambBox, counts: &[u8; FACES], roll_number: u8) -> i32 {
        box_rules(self).get(b.index()).map_or(0, |rule| {
            let points = rule
                .scoring
                .points(&Dice::from_counts(*counts), roll_number);
            i32::try_from(points).unwrap_or(i32::MAX)
        })
    }
}

impl fmt::Display for JambRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// One column of a slip: which boxes are filled and with what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ColumnState {
    filled: u16,
    /// Points of each filled box (no box scores above 80, so a byte holds them).
    values: [u8; BOXES],
}

impl ColumnState {
    /// Bit `i` set when box `i` (in [`JambBox::ALL`] order) is filled.
    pub fn filled_mask(&self) -> u16 {
        self.filled
    }

    /// True when box `b` is filled.
    pub fn is_filled(&self, b: JambBox) -> bool {
        self.filled & b.bit() != 0
    }

    /// The points in box `b`, `None` while it is empty.
    pub fn value(&self, b: JambBox) -> Option<i32> {
        self.is_filled(b).then(|| i32::from(self.values[b.index()]))
    }

    /// The column with box `b` holding `points`; `None` if the box is already filled or the
    /// points are outside 0..=255 (no dice score there). Does not check the column's order of
    /// filling (that is [`JambSheet::after`]'s job).
    pub fn with(&self, b: JambBox, points: i32) -> Option<ColumnState> {
        if self.is_filled(b) {
            return None;
        }
        let mut next = *self;
        next.filled |= b.bit();
        next.values[b.index()] = u8::try_from(points).ok()?;
        Some(next)
    }

    /// True when all 13 boxes are filled.
    pub fn is_complete(&self) -> bool {
        self.filled == FULL_COLUMN
    }

    /// Number of empty boxes.
    pub fn empty_count(&self) -> usize {
        BOXES - self.filled.count_ones() as usize
    }

    /// Sum of the filled boxes among `boxes` (empty ones count 0).
    fn sum_of(&self, boxes: &[JambBox]) -> i32 {
        boxes
            .iter()
            .filter_map(|&b| self.value(b))
            .fold(0, i32::saturating_add)
    }

    /// Sum of the filled upper boxes (ones to sixes), bonus excluded.
    pub fn upper_sum(&self) -> i32 {
        self.sum_of(&JambBox::ALL[..6])
    }

    /// The upper bonus: 30 once the upper sum is 60 or more, else 0.
    pub fn upper_bonus(&self) -> i32 {
        if self.upper_sum() >= UPPER_BONUS_THRESHOLD {
            UPPER_BONUS
        } else {
            0
        }
    }

    /// The middle section: (Max - Min) times the points in the Ones box, once all three are
    /// filled (0 before). A Min above the Max gives a negative section, counted as it is.
    pub fn middle(&self) -> i32 {
        match (
            self.value(JambBox::Max),
            self.value(JambBox::Min),
            self.value(JambBox::Ones),
        ) {
            (Some(max), Some(min), Some(ones)) => max.saturating_sub(min).saturating_mul(ones),
            _ => 0,
        }
    }

    /// Sum of the filled lower boxes (straight to jamb).
    pub fn lower_sum(&self) -> i32 {
        self.sum_of(&JambBox::ALL[8..])
    }

    /// The column's total: upper sum, upper bonus, middle section and lower sum (sums saturate
    /// rather than overflow on values no dice can give).
    pub fn total(&self) -> i32 {
        [self.upper_bonus(), self.middle(), self.lower_sum()]
            .into_iter()
            .fold(self.upper_sum(), i32::saturating_add)
    }
}

/// Most columns a slip may have.
pub const MAX_COLUMNS: usize = 6;

/// A box of a slip: which column (0-based, in [`JambRules::columns`] order) and which box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// The column's index in the slip.
    pub column: u8,
    /// The box in that column.
    pub jbox: JambBox,
}

/// A player's Jamb slip between turns (a small value: it is copied into every decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JambSheet {
    rules: JambRules,
    columns: [ColumnState; MAX_COLUMNS],
}

impl JambSheet {
    /// The empty slip of a rule set.
    pub fn new(rules: JambRules) -> JambSheet {
        JambSheet {
            rules,
            columns: [ColumnState::default(); MAX_COLUMNS],
        }
    }

    /// The rule set the slip is played under.
    pub fn rules(&self) -> &JambRules {
        &self.rules
    }

    /// The columns, in the order of [`JambRules::columns`].
    pub fn columns(&self) -> &[ColumnState] {
        &self.columns[..self.rules.columns.len().min(MAX_COLUMNS)]
    }

    /// The state of column `column`, `None` past the slip's columns.
    pub fn column(&self, column: usize) -> Option<&ColumnState> {
        self.columns().get(column)
    }

    /// The code of a cell as logs write it: the column's kind letter, `:`, the box code
    /// (`D:1`, `F:MAX`, `U:J`); a slip has at most one column of each kind, so the letter names
    /// the column.
    pub fn cell_code(&self, cell: Cell) -> String {
        let kind = self.rules.columns.get(usize::from(cell.column));
        let letter = kind.map_or('?', |k| k.code());
        format!("{letter}:{}", cell.jbox.code())
    }

    /// The cell written `code` (see [`JambSheet::cell_code`]; case-insensitive), `None` when
    /// the slip has no such column or box.
    pub fn parse_cell(&self, code: &str) -> Option<Cell> {
        let (letter, jbox) = code.split_once(':')?;
        let mut letters = letter.chars();
        let kind = ColumnKind::parse(letters.next()?)?;
        if letters.next().is_some() {
            return None;
        }
        let column = self.rules.columns.iter().position(|&k| k == kind)?;
        Some(Cell {
            column: u8::try_from(column).ok()?,
            jbox: JambBox::parse(jbox)?,
        })
    }

    /// Every cell that may be filled now with dice of roll `roll_number`, column by column, top
    /// to bottom (the same cells as [`JambSheet::legal_boxes`]).
    pub fn legal_cells(&self, roll_number: u8) -> impl Iterator<Item = Cell> + '_ {
        self.rules
            .columns
            .iter()
            .zip(self.columns())
            .enumerate()
            .flat_map(move |(column, (kind, state))| {
                let allowed = kind.allowed_boxes(state.filled, roll_number);
                JambBox::ALL
                    .into_iter()
                    .filter(move |b| allowed & b.bit() != 0)
                    .map(move |jbox| Cell {
                        column: column as u8,
                        jbox,
                    })
            })
    }

    /// Every filled cell, column by column, top to bottom.
    pub fn filled_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.columns()
            .iter()
            .enumerate()
            .flat_map(move |(column, state)| {
                JambBox::ALL
                    .into_iter()
                    .filter(move |&b| state.is_filled(b))
                    .map(move |jbox| Cell {
                        column: column as u8,
                        jbox,
                    })
            })
    }

    /// The slip as `eval --filled` takes it: every filled cell with its points,
    /// comma-separated (`D:1=3,F:MAX=28`), `-` for an empty slip.
    pub fn notation(&self) -> String {
        let cells: Vec<String> = self
            .filled_cells()
            .map(|cell| {
                let points = self.columns[usize::from(cell.column)].values[cell.jbox.index()];
                format!("{}={points}", self.cell_code(cell))
            })
            .collect();
        if cells.is_empty() {
            "-".into()
        } else {
            cells.join(",")
        }
    }

    /// The slip [`JambSheet::notation`] writes (cells in any order, `-` or nothing for an
    /// empty slip). The order of filling is not checked, only that each cell exists once
    /// and its points are 0 to 255; the error names the first bad item.
    pub fn from_notation(rules: JambRules, text: &str) -> Result<JambSheet, String> {
        let mut sheet = JambSheet::new(rules);
        for item in text
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty() && *t != "-")
        {
            let bad = || format!("'{item}' (expected CELL=POINTS such as D:1=3 or F:MAX=28)");
            let (code, points) = item.split_once('=').ok_or_else(bad)?;
            let cell = sheet.parse_cell(code).ok_or_else(bad)?;
            let points: i32 = points.trim().parse().map_err(|_| bad())?;
            let column = &mut sheet.columns[usize::from(cell.column)];
            *column = column
                .with(cell.jbox, points)
                .ok_or_else(|| format!("'{item}' (a cell given twice, or points outside 0-255)"))?;
        }
        Ok(sheet)
    }

    /// True when a player who rolled roll `roll_number` may keep dice and roll again: a roll is
    /// left and some cell other than the Hand column's will take the next roll's dice (when
    /// only Hand boxes are empty, the turn must be written after its first roll).
    pub fn may_roll_again(&self, roll_number: u8) -> bool {
        roll_number < MAX_ROLLS && self.legal_cells(roll_number + 1).next().is_some()
    }

    /// Points of `dice` scored on roll `roll_number` in `cell`; `None` when the cell may not be
    /// filled now (see [`JambSheet::score`]).
    pub fn score_cell(&self, dice: &Dice, roll_number: u8, cell: Cell) -> Option<i32> {
        self.score(dice, roll_number, usize::from(cell.column), cell.jbox)
    }

    /// The slip after writing `dice` of roll `roll_number` in `cell` (see
    /// [`JambSheet::after`]).
    pub fn after_cell(&self, dice: &Dice, roll_number: u8, cell: Cell) -> Option<JambSheet> {
        self.after(dice, roll_number, usize::from(cell.column), cell.jbox)
    }

    /// True when box `b` of column `column` may be filled now with dice of roll `roll_number`.
    pub fn is_legal(&self, roll_number: u8, column: usize, b: JambBox) -> bool {
        match (self.rules.columns.get(column), self.columns.get(column)) {
            (Some(kind), Some(state)) => {
                kind.allowed_boxes(state.filled, roll_number) & b.bit() != 0
            }
            _ => false,
        }
    }

    /// Every `(column, box)` that may be filled now with dice of roll `roll_number`, column by
    /// column, top to bottom; empty for a roll number outside 1..=3 or a complete slip.
    pub fn legal_boxes(&self, roll_number: u8) -> Vec<(usize, JambBox)> {
        let mut out = Vec::new();
        for (column, (kind, state)) in self.rules.columns.iter().zip(self.columns()).enumerate() {
            let allowed = kind.allowed_boxes(state.filled, roll_number);
            out.extend(
                JambBox::ALL
                    .into_iter()
                    .filter(|b| allowed & b.bit() != 0)
                    .map(|b| (column, b)),
            );
        }
        out
    }

    /// Points of `dice`, scored on roll `roll_number`, in box `b` of column `column`; `None`
    /// when that box may not be filled now or the dice or roll number are not valid.
    pub fn score(&self, dice: &Dice, roll_number: u8, column: usize, b: JambBox) -> Option<i32> {
        if !self.is_legal(roll_number, column, b) {
            return None;
        }
        self.rules.points(b, dice, roll_number)
    }

    /// The slip with box `b` of column `column` filled by `dice` scored on roll `roll_number`;
    /// `None` when [`JambSheet::score`] refuses the box.
    pub fn after(
        &self,
        dice: &Dice,
        roll_number: u8,
        column: usize,
        b: JambBox,
    ) -> Option<JambSheet> {
        let points = self.score(dice, roll_number, column, b)?;
        let mut next = *self;
        let state = next.columns.get_mut(column)?;
        *state = state.with(b, points)?;
        Some(next)
    }

    /// True when every box of every column is filled.
    pub fn is_complete(&self) -> bool {
        self.columns().iter().all(ColumnState::is_complete)
    }

    /// Turns left: the number of empty boxes.
    pub fn turns_left(&self) -> usize {
        self.columns().iter().map(ColumnState::empty_count).sum()
    }

    /// The slip's score so far: the sum of the column totals ([`ColumnState::total`]).
    pub fn total(&self) -> i32 {
        self.columns()
            .iter()
            .map(ColumnState::total)
            .fold(0, i32::saturating_add)
    }
}

// Jamb as data: its boxes under each variant, and its game description.

/// Jamb's 13 boxes under the given four-of-a-kind and full-house variants.
const fn jamb_boxes(four_kind: FourKindRule, full_house: FullHouseRule) -> [BoxRule; 13] {
    let four_kind_payoff = match four_kind {
        FourKindRule::FourDicePlus40 => Payoff::PatternSum { plus: 40 },
        FourKindRule::AllDicePlus40 => Payoff::DiceSum { plus: 40 },
    };
    let alike_too = matches!(full_house, FullHouseRule::FiveAlikeToo);
    upper_then(&[
        scored("MAX", "maximum", Section::Middle, Pattern::Any, DICE_SUM),
        scored("MIN", "minimum", Section::Middle, Pattern::Any, DICE_SUM),
        lower(
            "K",
            "straight (kenta)",
            Pattern::Straight(&[(1, 5), (2, 6)]),
            Payoff::ByRoll {
                first: 66,
                less_per_roll: 10,
            },
        ),
        lower(
            "T",
            "three of a kind (triling)",
            groups(&[3]),
            Payoff::PatternSum { plus: 20 },
        ),
        lower(
            "F",
            "full house (ful)",
            Pattern::Groups {
                sizes: &[3, 2],
                alike_too,
            },
            Payoff::PatternSum { plus: 30 },
        ),
        lower(
            "P",
            "four of a kind (poker)",
            groups(&[4]),
            four_kind_payoff,
        ),
        lower(
            "J",
            "five of a kind (jamb)",
            groups(&[5]),
            Payoff::PatternSum { plus: 50 },
        ),
    ])
}

/// Jamb's boxes under the default variants (four dice plus 40, five alike no full house).
const JAMB_BOXES: [BoxRule; 13] = jamb_boxes(FourKindRule::FourDicePlus40, FullHouseRule::TwoFaces);
/// Jamb's boxes, four of a kind scored with all the dice.
const JAMB_BOXES_ALL_DICE: [BoxRule; 13] =
    jamb_boxes(FourKindRule::AllDicePlus40, FullHouseRule::TwoFaces);
/// Jamb's boxes, five alike a full house too.
const JAMB_BOXES_ALIKE_FULL: [BoxRule; 13] =
    jamb_boxes(FourKindRule::FourDicePlus40, FullHouseRule::FiveAlikeToo);
/// Jamb's boxes, both variants.
const JAMB_BOXES_ALL_DICE_ALIKE_FULL: [BoxRule; 13] =
    jamb_boxes(FourKindRule::AllDicePlus40, FullHouseRule::FiveAlikeToo);

/// Jamb's 13 boxes under the variants of `rules`.
pub(super) fn box_rules(rules: &JambRules) -> &'static [BoxRule; 13] {
    match (rules.four_kind, rules.full_house) {
        (FourKindRule::FourDicePlus40, FullHouseRule::TwoFaces) => &JAMB_BOXES,
        (FourKindRule::AllDicePlus40, FullHouseRule::TwoFaces) => &JAMB_BOXES_ALL_DICE,
        (FourKindRule::FourDicePlus40, FullHouseRule::FiveAlikeToo) => &JAMB_BOXES_ALIKE_FULL,
        (FourKindRule::AllDicePlus40, FullHouseRule::FiveAlikeToo) => {
            &JAMB_BOXES_ALL_DICE_ALIKE_FULL
        }
    }
}

/// Jamb under `rules`: five dice, three rolls, its columns, 30 at 60 per column, no joker,
/// `(MAX - MIN) × ones` per column.
fn game_description(rules: &JambRules) -> GameDescription {
    GameDescription {
        name: rules.name,
        dice: 5,
        faces: 6,
        rolls_per_turn: 3,
        last_turn_rolls: 3,
        saved_rolls: false,
        boxes: box_rules(rules),
        columns: rules.columns,
        announced: &[],
        upper_bonus: UpperBonus {
            threshold: UPPER_BONUS_THRESHOLD.unsigned_abs(),
            points: UPPER_BONUS.unsigned_abs(),
        },
        joker: JokerRule::None,
        extra_bonus: ExtraBonusRule {
            when: ExtraBonus::Never,
            points: 0,
        },
        final_score: FinalScore::ColumnsWithMiddle {
            high: 6,
            low: 7,
            times: 0,
        },
    }
}

impl JambRules {
    /// The rule set as data.
    pub fn description(&self) -> GameDescription {
        game_description(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use JambBox::*;

    fn dice(s: &str) -> Dice {
        let faces: Vec<u8> = s.bytes().map(|b| b - b'0').collect();
        Dice::from_faces(&faces).unwrap()
    }

    /// Points under the default rules (jamb-5 scoring).
    fn pts(b: JambBox, d: &str, roll_number: u8) -> i32 {
        JambRules::JAMB_5.points(b, &dice(d), roll_number).unwrap()
    }

    /// Mask of boxes by code.
    fn mask(codes: &[&str]) -> u16 {
        codes
            .iter()
            .fold(0, |m, c| m | JambBox::parse(c).unwrap().bit())
    }

    /// The boxes in `mask`, as codes, top to bottom.
    fn codes(mask: u16) -> Vec<&'static str> {
        JambBox::ALL
            .into_iter()
            .filter(|b| mask & b.bit() != 0)
            .map(JambBox::code)
            .collect()
    }

    #[test]
    fn upper_max_and_min_scoring() {
        assert_eq!(pts(Ones, "11236", 2), 2);
        assert_eq!(pts(Fours, "14424", 1), 12);
        assert_eq!(pts(Sixes, "66666", 3), 30);
        assert_eq!(pts(Fives, "12346", 1), 0);
        assert_eq!(pts(Max, "34566", 3), 24);
        assert_eq!(pts(Min, "11123", 2), 8);
    }

    #[test]
    fn straight_scores_by_roll_number() {
        assert_eq!(pts(Straight, "12345", 1), 66);
        assert_eq!(pts(Straight, "12345", 2), 56);
        assert_eq!(pts(Straight, "12345", 3), 46);
        assert_eq!(pts(Straight, "23456", 1), 66);
        assert_eq!(pts(Straight, "23456", 3), 46);
        assert_eq!(
            pts(Straight, "12346", 1),
            0,
            "four in a row is not a straight"
        );
        assert_eq!(pts(Straight, "13456", 2), 0);
    }

    #[test]
    fn full_house_with_and_without_five_alike() {
        assert_eq!(pts(FullHouse, "22333", 1), 13 + 30);
        assert_eq!(pts(FullHouse, "66655", 3), 28 + 30);
        assert_eq!(pts(FullHouse, "33334", 1), 0);
        assert_eq!(pts(FullHouse, "44444", 1), 0, "five alike is no full house");
        let five_alike_too = JambRules {
            full_house: FullHouseRule::FiveAlikeToo,
            ..JambRules::JAMB_5
        };
        assert_eq!(
            five_alike_too.points(FullHouse, &dice("44444"), 1),
            Some(20 + 30)
        );
        assert_eq!(five_alike_too.points(FullHouse, &dice("44441"), 1), Some(0));
    }

    #[test]
    fn four_kind_both_variants() {
        assert_eq!(pts(FourKind, "55552", 2), 20 + 40);
        assert_eq!(pts(FourKind, "55555", 2), 20 + 40);
        assert_eq!(pts(FourKind, "55522", 2), 0);
        let all_dice = JambRules {
            four_kind: FourKindRule::AllDicePlus40,
            ..JambRules::JAMB_5
        };
        assert_eq!(all_dice.points(FourKind, &dice("55552"), 2), Some(22 + 40));
        assert_eq!(all_dice.points(FourKind, &dice("55555"), 2), Some(25 + 40));
        assert_eq!(all_dice.points(FourKind, &dice("55522"), 2), Some(0));
    }

    #[test]
    fn three_kind_and_jamb() {
        assert_eq!(pts(ThreeKind, "44412", 1), 12 + 20);
        assert_eq!(pts(ThreeKind, "66666", 1), 18 + 20);
        assert_eq!(pts(ThreeKind, "44112", 1), 0);
        assert_eq!(pts(Jamb, "33333", 3), 15 + 50);
        assert_eq!(pts(Jamb, "66666", 1), 30 + 50);
        assert_eq!(pts(Jamb, "33332", 1), 0);
    }

    #[test]
    fn zero_when_not_fitting_and_none_for_bad_input() {
        // 1-2-4-5-6 fits only the upper boxes 1, 2, 4, 5, 6 and Max/Min.
        let r = JambRules::JAMB_5;
        for b in [Threes, Straight, ThreeKind, FullHouse, FourKind, Jamb] {
            assert_eq!(r.points(b, &dice("12456"), 1), Some(0), "{b}");
        }
        assert_eq!(r.points(Max, &dice("1234"), 1), None, "four dice");
        assert_eq!(r.points(Max, &dice("12345"), 0), None, "roll 0");
        assert_eq!(r.points(Max, &dice("12345"), 4), None, "roll 4");
        assert_eq!(r.points(Ones, &Dice::from_counts([9; 6]), 1), None);
    }

    #[test]
    fn codes_and_names() {
        for b in JambBox::ALL {
            assert_eq!(JambBox::parse(b.code()), Some(b));
            assert_eq!(JambBox::from_index(b.index()), Some(b));
        }
        assert_eq!(JambBox::parse("max"), Some(Max));
        assert_eq!(JambBox::parse("Y"), None);
        assert_eq!(JambBox::from_index(13), None);
        for k in ColumnKind::ALL {
            assert_eq!(ColumnKind::parse(k.code()), Some(k));
        }
        assert_eq!(ColumnKind::parse('x'), None);
        assert_eq!(JambRules::by_name("jamb-4").map(|r| r.turns()), Some(52));
        assert_eq!(JambRules::by_name("jamb-5").map(|r| r.turns()), Some(65));
        assert_eq!(JambRules::by_name("jamb-6"), None);
    }

    #[test]
    fn down_only_topmost_empty() {
        let k = ColumnKind::Down;
        assert_eq!(codes(k.allowed_boxes(0, 2)), ["1"]);
        assert_eq!(codes(k.allowed_boxes(mask(&["1", "2", "3"]), 3)), ["4"]);
        assert_eq!(codes(k.allowed_boxes(FULL_COLUMN & !Jamb.bit(), 1)), ["J"]);
        assert_eq!(k.allowed_boxes(FULL_COLUMN, 1), 0);
    }

    #[test]
    fn up_only_bottommost_empty() {
        let k = ColumnKind::Up;
        assert_eq!(codes(k.allowed_boxes(0, 1)), ["J"]);
        assert_eq!(codes(k.allowed_boxes(mask(&["J", "P"]), 3)), ["F"]);
        assert_eq!(codes(k.allowed_boxes(FULL_COLUMN & !Ones.bit(), 2)), ["1"]);
    }

    #[test]
    fn free_any_empty() {
        let k = ColumnKind::Free;
        assert_eq!(k.allowed_boxes(0, 3), FULL_COLUMN);
        let filled = mask(&["1", "MIN", "J"]);
        assert_eq!(k.allowed_boxes(filled, 2), FULL_COLUMN & !filled);
        assert_eq!(k.allowed_boxes(filled, 4), 0, "no fourth roll");
    }

    #[test]
    fn hand_only_first_roll() {
        let k = ColumnKind::Hand;
        let filled = mask(&["3", "K"]);
        assert_eq!(k.allowed_boxes(filled, 1), FULL_COLUMN & !filled);
        assert_eq!(k.allowed_boxes(filled, 2), 0);
        assert_eq!(k.allowed_boxes(filled, 3), 0);
        let sheet = JambSheet::new(JambRules::JAMB_4);
        let hand = 3;
        assert!(sheet.legal_boxes(1).iter().any(|&(c, _)| c == hand));
        assert!(sheet.legal_boxes(2).iter().all(|&(c, _)| c != hand));
        assert_eq!(sheet.score(&dice("12345"), 2, hand, Straight), None);
        assert_eq!(sheet.score(&dice("12345"), 1, hand, Straight), Some(66));
    }

    #[test]
    fn outer_only_the_two_ends_of_the_empty_boxes() {
        let k = ColumnKind::Outer;
        assert_eq!(codes(k.allowed_boxes(0, 2)), ["1", "J"]);
        let filled = mask(&["1", "2", "J"]);
        assert_eq!(codes(k.allowed_boxes(filled, 2)), ["3", "P"]);
        let one_left = FULL_COLUMN & !Min.bit();
        assert_eq!(codes(k.allowed_boxes(one_left, 3)), ["MIN"]);
    }

    #[test]
    fn inner_starts_at_max_or_min_then_adjacent() {
        let k = ColumnKind::Inner;
        assert_eq!(codes(k.allowed_boxes(0, 1)), ["MAX", "MIN"]);
        assert_eq!(codes(k.allowed_boxes(Max.bit(), 1)), ["6", "MIN"]);
        assert_eq!(codes(k.allowed_boxes(Min.bit(), 1)), ["MAX", "K"]);
        let filled = mask(&["5", "6", "MAX", "MIN"]);
        assert_eq!(codes(k.allowed_boxes(filled, 3)), ["4", "K"]);
        assert_eq!(codes(k.allowed_boxes(FULL_COLUMN & !Ones.bit(), 2)), ["1"]);
        // Through the sheet: Ones is refused first, accepted after Twos.
        let rules = JambRules::JAMB_5;
        let inner = rules
            .columns
            .iter()
            .position(|&c| c == ColumnKind::Inner)
            .unwrap();
        let sheet = JambSheet::new(rules);
        assert_eq!(sheet.after(&dice("11112"), 1, inner, Ones), None);
        let mut sheet = sheet;
        for b in [Max, Sixes, Fives, Fours, Threes, Twos] {
            sheet = sheet.after(&dice("11112"), 1, inner, b).unwrap();
        }
        assert_eq!(sheet.score(&dice("11112"), 1, inner, Ones), Some(4));
    }

    #[test]
    fn after_refuses_filled_or_unknown_boxes() {
        let sheet = JambSheet::new(JambRules::JAMB_4);
        let free = 1;
        let once = sheet.after(&dice("66612"), 2, free, Sixes).unwrap();
        assert_eq!(once.columns()[free].value(Sixes), Some(18));
        assert_eq!(once.after(&dice("66612"), 2, free, Sixes), None);
        assert_eq!(once.after(&dice("66612"), 2, 4, Sixes), None, "no column 4");
        assert_eq!(once.after(&dice("6661"), 2, free, Fives), None, "four dice");
        assert_eq!(once.turns_left(), 51);
        assert_eq!(once.total(), 18);
    }

    /// A column with the given (box, points), filled in any order.
    fn column(values: &[(JambBox, i32)]) -> ColumnState {
        values
            .iter()
            .fold(ColumnState::default(), |c, &(b, p)| c.with(b, p).unwrap())
    }

    #[test]
    fn upper_bonus_from_60() {
        let at_60 = column(&[(Fours, 16), (Fives, 20), (Sixes, 24)]);
        assert_eq!(at_60.upper_sum(), 60);
        assert_eq!(at_60.upper_bonus(), 30);
        assert_eq!(at_60.total(), 90);
        let at_59 = column(&[(Threes, 3), (Fours, 12), (Fives, 20), (Sixes, 24)]);
        assert_eq!(at_59.upper_sum(), 59);
        assert_eq!(at_59.upper_bonus(), 0);
        assert_eq!(at_59.total(), 59);
    }

    #[test]
    fn middle_only_with_max_min_and_ones() {
        let max_min = column(&[(Max, 28), (Min, 8)]);
        assert_eq!(max_min.middle(), 0, "Ones empty");
        assert_eq!(
            max_min.total(),
            0,
            "Max and Min count only through the middle"
        );
        let ones_max = column(&[(Ones, 3), (Max, 28)]);
        assert_eq!(ones_max.middle(), 0, "Min empty");
        let all_three = max_min.with(Ones, 3).unwrap();
        assert_eq!(all_three.middle(), 20 * 3);
        assert_eq!(
            all_three.total(),
            3 + 20 * 3,
            "Max and Min count only as the middle"
        );
        let zero_ones = max_min.with(Ones, 0).unwrap();
        assert_eq!(zero_ones.middle(), 0);
        assert_eq!(max_min.with(Ones, 256), None, "no dice score 256");
        assert_eq!(max_min.with(Ones, -1), None, "nor below 0");
    }

    #[test]
    fn middle_negative_difference_as_is() {
        let c = column(&[(Ones, 2), (Max, 10), (Min, 14)]);
        assert_eq!(c.middle(), -8);
        assert_eq!(c.total(), 2 - 8);
    }

    #[test]
    fn hand_worked_column_total() {
        // A down column played with these rolls.
        let turns = [
            ("11135", 3, Ones),
            ("22246", 2, Twos),
            ("33312", 3, Threes),
            ("44445", 2, Fours),
            ("55561", 3, Fives),
            ("66662", 3, Sixes),
            ("56666", 2, Max),
            ("11123", 3, Min),
            ("23456", 2, Straight),
            ("55512", 1, ThreeKind),
            ("22666", 3, FullHouse),
            ("33345", 3, FourKind),
            ("44444", 3, Jamb),
        ];
        let mut sheet = JambSheet::new(JambRules::JAMB_5);
        for (d, roll_number, b) in turns {
            sheet = sheet.after(&dice(d), roll_number, 0, b).unwrap();
        }
        let c = sheet.columns()[0];
        assert!(c.is_complete());
        // Upper: 3 + 6 + 9 + 16 + 15 + 24 = 73, bonus 30.
        assert_eq!(c.upper_sum(), 73);
        assert_eq!(c.upper_bonus(), 30);
        // Middle: (29 - 8) * 3 = 63.
        assert_eq!(c.middle(), 63);
        // Lower: 56 + 35 + 52 + 0 + 70 = 213.
        assert_eq!(c.lower_sum(), 213);
        assert_eq!(c.total(), 73 + 30 + 63 + 213);
        assert_eq!(sheet.total(), 379);
        assert_eq!(sheet.turns_left(), 52);
    }

    /// A tiny linear congruential generator (Knuth's MMIX constants).
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) % n as u64) as usize
        }
    }

    /// The total of a column recomputed from its box values.
    fn recomputed_total(values: &[Option<i32>; BOXES]) -> i32 {
        let v = |b: JambBox| values[b.index()].unwrap_or(0);
        let upper: i32 = JambBox::ALL[..6].iter().map(|&b| v(b)).sum();
        let bonus = if upper >= 60 { 30 } else { 0 };
        let middle = (v(Max) - v(Min)) * v(Ones);
        let lower: i32 = JambBox::ALL[8..].iter().map(|&b| v(b)).sum();
        upper + bonus + middle + lower
    }

    /// Plays a whole game with random legal choices; returns the turns played.
    fn random_playout(rules: JambRules, seed: u64) -> usize {
        let mut rng = Lcg(seed);
        let mut sheet = JambSheet::new(rules);
        let mut written = vec![[None::<i32>; BOXES]; rules.columns.len()];
        let mut turns = 0;
        while !sheet.is_complete() {
            assert!(turns < rules.turns(), "more turns than boxes");
            let faces: Vec<u8> = (0..5).map(|_| rng.below(6) as u8 + 1).collect();
            let d = Dice::from_faces(&faces).unwrap();
            let mut roll_number = rng.below(3) as u8 + 1;
            let mut legal = sheet.legal_boxes(roll_number);
            if legal.is_empty() {
                // Only hand boxes are left: the turn must be scored on its first roll.
                assert_ne!(roll_number, 1);
                roll_number = 1;
                legal = sheet.legal_boxes(1);
            }
            assert!(!legal.is_empty(), "no legal box on turn {turns}");
            let (column, b) = legal[rng.below(legal.len())];
            let points = sheet.score(&d, roll_number, column, b).unwrap();
            assert_eq!(rules.points(b, &d, roll_number), Some(points));
            assert!(written[column][b.index()].is_none(), "filled twice");
            written[column][b.index()] = Some(points);
            sheet = sheet.after(&d, roll_number, column, b).unwrap();
            turns += 1;
            assert_eq!(sheet.turns_left(), rules.turns() - turns);
        }
        assert!(written.iter().flatten().all(Option::is_some));
        let expected: i32 = written.iter().map(recomputed_total).sum();
        assert_eq!(sheet.total(), expected);
        assert!(sheet.legal_boxes(1).is_empty());
        turns
    }

    #[test]
    fn random_jamb5_playout_fills_every_box_once() {
        for seed in 1..=20 {
            assert_eq!(random_playout(JambRules::JAMB_5, seed), 65);
        }
    }

    #[test]
    fn random_jamb4_playout_fills_every_box_once() {
        for seed in 1..=20 {
            assert_eq!(random_playout(JambRules::JAMB_4, seed), 52);
        }
    }
}
