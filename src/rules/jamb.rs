//! Jamb, the column variant of Yahtzee played in Serbia and ex-Yugoslavia: a slip of several
//! columns of the same 13 boxes, each column with its own order of filling (see `docs/jamb.md`).
//!
//! Self-contained: nothing else in the crate depends on it, and it shares only [`Dice`].

use super::description::{
    groups, joined, lower, scored, upper_then, BoxRule, ExtraBonusRule, FinalScore,
    GameDescription, Pattern, Payoff, Section, UpperBonus, DICE_SUM,
};
use super::{ExtraBonus, JokerRule};
use crate::dice::{Dice, FACES};
use std::fmt;

/// Number of boxes in a column.
pub const BOXES: usize = 13;
/// Rolls a turn may use (every turn of `jamb-4`, `jamb-5` and `yamb-hr`, every turn but the
/// last of `jamb-6a`).
pub const MAX_ROLLS: u8 = 3;
/// The most rolls any turn of any Jamb rule set may use: the last turn of `jamb-6a`.
pub const MOST_ROLLS: u8 = 5;
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
    /// Maximum: the sum of the dice (of six dice, the five highest).
    Max,
    /// Minimum: the sum of the dice (of six dice, the five lowest).
    Min,
    /// Straight (kenta): 1-2-3-4-5 or 2-3-4-5-6 (in `jamb-4` and `jamb-5` worth more the
    /// earlier it is rolled). Its row comes before three of a kind's in `jamb-4` and `jamb-5`,
    /// after it in `jamb-6a` and `yamb-hr` ([`JambRules::rows`]).
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
    /// The 13 boxes in the slip order of `jamb-4` and `jamb-5`; box `i` is bit `i` of a
    /// column's filled mask in every rule set (a rule set's own row order is
    /// [`JambRules::rows`]).
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
    /// are `filled`, with dice of roll `roll_number`, in the row order of `jamb-4` and `jamb-5`
    /// ([`JambBox::ALL`]); 0 for a roll number outside 1..=3. An Announce column is taken
    /// without an announcement: any empty box on the first roll (a pure hand), none later.
    /// [`JambRules::allowed_boxes`] is the rule set's answer (its rows, rolls and
    /// announcements).
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
            ColumnKind::Hand | ColumnKind::Announce if roll_number == 1 => empty,
            ColumnKind::Hand | ColumnKind::Announce => 0,
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

/// Which boxes a rule set's dice score in: the box set and its scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JambScoring {
    /// Five dice, the classic Jamb scoring (straight 66/56/46 by roll, full house the dice
    /// plus 30, ...), with the variants [`JambRules::four_kind`] and [`JambRules::full_house`].
    Classic,
    /// Six dice, the best five counting (`jamb-6a`): ones to sixes at most five dice, Max the
    /// five highest, Min the five lowest, three of a kind 3 x face + 20, straight 50 for 2-6
    /// and 45 for 1-5 whatever the roll, full house the best 3a + 2b + 40, four of a kind
    /// 4 x face + 50, jamb 5 x face + 60.
    SixDice,
    /// Five dice, the Croatian site's scoring (`yamb-hr`): Max and Min the sum of the dice,
    /// trips 3 x face + 10, straight 35 for 1-5 and 45 for 2-6 whatever the roll, boat
    /// (full house) the dice plus 30, carriage 4 x face + 40, yamb 5 x face + 50.
    Croatian,
}

/// How the middle section `(Max - Min) x Ones` counts when Min is above Max.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MiddleRule {
    /// A negative section counts as it is (`jamb-4`, `jamb-5`).
    AsIs,
    /// A negative section counts 0 (`jamb-6a`, `yamb-hr`).
    NeverNegative,
}

/// How a box of the Announce column ([`ColumnKind::Announce`]) may be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnnounceRule {
    /// The box announced after the first roll, or, with no announcement, any empty box with a
    /// pure hand: the turn's last roll was of all the dice, nothing kept (a turn written after
    /// its first roll is pure). `jamb-6a`.
    AnnouncedOrPureHand,
    /// Only the box announced after the first roll. `yamb-hr`.
    AnnouncedOnly,
}

/// Where a turn stands when a cell is to be written: which roll the dice are from, the box
/// announced after the first roll, and whether the hand is pure. What
/// [`JambRules::allowed_boxes`] and the slip's `_in` methods take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JambTurn {
    /// The roll the dice are from, 1 for the first.
    pub roll_number: u8,
    /// The Announce column's box announced after the first roll, `None` without one.
    pub announced: Option<JambBox>,
    /// True when the last roll was of all the dice, nothing kept (always on the first roll).
    pub pure: bool,
}

impl JambTurn {
    /// A turn at roll `roll_number` with no announcement, pure only on the first roll (the
    /// reading of the slip methods that take a bare roll number).
    pub fn at_roll(roll_number: u8) -> JambTurn {
        JambTurn {
            roll_number,
            announced: None,
            pure: roll_number == 1,
        }
    }
}

/// The row order of `jamb-6a` and `yamb-hr`: three of a kind before the straight.
const TRIPS_FIRST_ROWS: [JambBox; BOXES] = [
    JambBox::Ones,
    JambBox::Twos,
    JambBox::Threes,
    JambBox::Fours,
    JambBox::Fives,
    JambBox::Sixes,
    JambBox::Max,
    JambBox::Min,
    JambBox::ThreeKind,
    JambBox::Straight,
    JambBox::FullHouse,
    JambBox::FourKind,
    JambBox::Jamb,
];

/// A Jamb rule set: its dice, rolls, columns, row order and scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JambRules {
    /// The name used to choose it (`jamb-4`, `jamb-5`, `jamb-6a`, `yamb-hr`).
    pub name: &'static str,
    /// The columns of the slip, left to right.
    pub columns: &'static [ColumnKind],
    /// What four of a kind scores (under [`JambScoring::Classic`]).
    pub four_kind: FourKindRule,
    /// Whether five alike is a full house (under [`JambScoring::Classic`]).
    pub full_house: FullHouseRule,
    /// Dice rolled (5 or 6).
    pub dice: u8,
    /// Rolls the last turn of the game may use (the other turns have [`MAX_ROLLS`]).
    pub last_turn_rolls: u8,
    /// The rows of a column, top to bottom: the order Down and Up (and the columns toward and
    /// from the middle) fill in.
    pub rows: &'static [JambBox; BOXES],
    /// The box set and its scoring.
    pub scoring: JambScoring,
    /// Whether a negative middle section counts.
    pub middle: MiddleRule,
    /// How the Announce column is written (where the slip has one).
    pub announce: AnnounceRule,
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
        ..JambRules::CLASSIC
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
        ..JambRules::CLASSIC
    };

    /// Six dice, four columns: down, free, up, announce (52 turns), three rolls a turn and
    /// five on the last; the best five dice count; an Announce box is the one announced after
    /// the first roll or any with a pure hand (the rules of the public six-dice Jamb player,
    /// docs/jamb.md).
    pub const JAMB_6A: JambRules = JambRules {
        name: "jamb-6a",
        columns: &[
            ColumnKind::Down,
            ColumnKind::Free,
            ColumnKind::Up,
            ColumnKind::Announce,
        ],
        dice: 6,
        last_turn_rolls: MOST_ROLLS,
        rows: &TRIPS_FIRST_ROWS,
        scoring: JambScoring::SixDice,
        middle: MiddleRule::NeverNegative,
        announce: AnnounceRule::AnnouncedOrPureHand,
        ..JambRules::CLASSIC
    };

    /// Croatian Yamb (the site jamb.com.hr): five dice, three rolls, four columns: down, up,
    /// free, announcement (52 turns); an Announcement box only when announced after the first
    /// roll (docs/jamb.md says what was read from the site's code).
    pub const YAMB_HR: JambRules = JambRules {
        name: "yamb-hr",
        columns: &[
            ColumnKind::Down,
            ColumnKind::Up,
            ColumnKind::Free,
            ColumnKind::Announce,
        ],
        rows: &TRIPS_FIRST_ROWS,
        scoring: JambScoring::Croatian,
        middle: MiddleRule::NeverNegative,
        announce: AnnounceRule::AnnouncedOnly,
        ..JambRules::CLASSIC
    };

    /// The classic rules every rule set starts from (no columns, no name).
    const CLASSIC: JambRules = JambRules {
        name: "",
        columns: &[],
        four_kind: FourKindRule::FourDicePlus40,
        full_house: FullHouseRule::TwoFaces,
        dice: 5,
        last_turn_rolls: MAX_ROLLS,
        rows: &JambBox::ALL,
        scoring: JambScoring::Classic,
        middle: MiddleRule::AsIs,
        announce: AnnounceRule::AnnouncedOnly,
    };

    /// The named rule sets.
    pub const ALL: [JambRules; 4] = [
        JambRules::JAMB_4,
        JambRules::JAMB_5,
        JambRules::JAMB_6A,
        JambRules::YAMB_HR,
    ];

    /// The rule set with the given name.
    pub fn by_name(name: &str) -> Option<JambRules> {
        JambRules::ALL.into_iter().find(|r| r.name == name)
    }

    /// Turns in a game: one per box of the slip.
    pub fn turns(&self) -> usize {
        self.columns.len() * BOXES
    }

    /// The most rolls any turn may use (the last turn's where it has more).
    pub fn most_rolls(&self) -> u8 {
        self.last_turn_rolls.max(MAX_ROLLS)
    }

    /// Rolls a turn may use when `turns_left` turns are left, this one included: the last
    /// turn's rolls on the game's last turn, [`MAX_ROLLS`] otherwise.
    pub fn rolls_in_turn(&self, turns_left: usize) -> u8 {
        if turns_left == 1 {
            self.last_turn_rolls
        } else {
            MAX_ROLLS
        }
    }

    /// The index of the slip's Announce column, `None` without one.
    pub fn announce_column(&self) -> Option<usize> {
        self.columns.iter().position(|&k| k == ColumnKind::Announce)
    }

    /// Mask of the boxes that may be written now in a column of kind `kind` whose filled
    /// boxes are `filled`, in the turn `turn`: the order of filling along [`JambRules::rows`];
    /// after an announcement only the announced box of the Announce column; without one an
    /// Announce box under [`JambRules::announce`]; a Hand box on the first roll only. 0 for a
    /// roll number outside 1..=[`JambRules::most_rolls`] (the slip checks the turn's own
    /// rolls, [`JambSheet::rolls_this_turn`]).
    pub fn allowed_boxes(&self, kind: ColumnKind, filled: u16, turn: JambTurn) -> u16 {
        if !(1..=self.most_rolls()).contains(&turn.roll_number) {
            return 0;
        }
        let filled = filled & FULL_COLUMN;
        let empty = !filled & FULL_COLUMN;
        match (kind, turn.announced) {
            (ColumnKind::Announce, Some(announced)) => empty & announced.bit(),
            (_, Some(_)) => 0,
            (ColumnKind::Announce, None) => match self.announce {
                AnnounceRule::AnnouncedOrPureHand if turn.pure => empty,
                _ => 0,
            },
            (ColumnKind::Hand, None) if turn.roll_number == 1 => empty,
            (ColumnKind::Hand, None) => 0,
            (ColumnKind::Free, None) => empty,
            (ColumnKind::Down | ColumnKind::Up | ColumnKind::Outer | ColumnKind::Inner, None) => {
                self.boxes_of_rows(kind.allowed_boxes(self.rows_of_boxes(filled), 1))
            }
        }
    }

    /// A mask of boxes (bit [`JambBox::index`]) as a mask of rows (bit `r` for row `r` of
    /// [`JambRules::rows`]).
    fn rows_of_boxes(&self, boxes: u16) -> u16 {
        self.rows
            .iter()
            .enumerate()
            .filter(|(_, b)| boxes & b.bit() != 0)
            .fold(0, |m, (r, _)| m | 1 << r)
    }

    /// A mask of rows as a mask of boxes (the inverse of [`JambRules::rows_of_boxes`]).
    fn boxes_of_rows(&self, rows: u16) -> u16 {
        self.rows
            .iter()
            .enumerate()
            .filter(|(r, _)| rows & 1 << r != 0)
            .fold(0, |m, (_, b)| m | b.bit())
    }

    /// Points of `dice` in box `b` when scored on roll `roll_number`; `None` unless there are
    /// exactly [`JambRules::dice`] dice and the roll number is 1..=[`JambRules::most_rolls`].
    /// Dice that do not fit score 0.
    pub fn points(&self, b: JambBox, dice: &Dice, roll_number: u8) -> Option<i32> {
        if dice.len() != usize::from(self.dice) || !(1..=self.most_rolls()).contains(&roll_number) {
            return None;
        }
        Some(self.points_of_counts(b, &dice.counts(), roll_number))
    }

    /// Points of dice with these face counts (`counts[i]` dice showing face `i + 1`) in box
    /// `b`, when scored on roll `roll_number`: the scoring of [`JambRules::points`]
    /// (the rule set's [description](super::description)), also for the hands a strategy aims at.
    pub fn points_of_counts(&self, b: JambBox, counts: &[u8; FACES], roll_number: u8) -> i32 {
        box_rules(self).get(b.index()).map_or(0, |rule| {
            let points = rule
                .scoring
                .points(&Dice::from_counts(*counts), roll_number);
            i32::try_from(points).unwrap_or(i32::MAX)
        })
    }

    /// The middle section of a column under the rule set: `(Max - Min) x Ones` once the three
    /// are filled, 0 before, a negative section counted under [`JambRules::middle`].
    pub fn middle_of(&self, column: &ColumnState) -> i32 {
        let middle = column.middle();
        match self.middle {
            MiddleRule::AsIs => middle,
            MiddleRule::NeverNegative => middle.max(0),
        }
    }

    /// A column's total under the rule set: upper sum, upper bonus, middle section
    /// ([`JambRules::middle_of`]) and lower sum.
    pub fn column_total(&self, column: &ColumnState) -> i32 {
        [
            column.upper_bonus(),
            self.middle_of(column),
            column.lower_sum(),
        ]
        .into_iter()
        .fold(column.upper_sum(), i32::saturating_add)
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
    /// filled (0 before). A Min above the Max gives a negative section, returned as it is
    /// (how a rule set counts it: [`JambRules::middle_of`]).
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

    /// The column's total: upper sum, upper bonus, middle section as it is and lower sum (sums
    /// saturate rather than overflow on values no dice can give): the total of `jamb-4` and
    /// `jamb-5`; [`JambRules::column_total`] is a rule set's.
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

    /// Every cell that may be filled now with dice of roll `roll_number`, with no announcement
    /// and a hand pure only on the first roll ([`JambTurn::at_roll`]), column by column, top
    /// to bottom in [`JambRules::rows`] (the same cells as [`JambSheet::legal_boxes`]).
    pub fn legal_cells(&self, roll_number: u8) -> impl Iterator<Item = Cell> + '_ {
        self.legal_cells_in(JambTurn::at_roll(roll_number))
    }

    /// Every cell that may be filled now in the turn `turn` (its roll, announcement and pure
    /// hand), column by column, top to bottom; none for a roll past
    /// [`JambSheet::rolls_this_turn`].
    pub fn legal_cells_in(&self, turn: JambTurn) -> impl Iterator<Item = Cell> + '_ {
        let roll_ok = (1..=self.rolls_this_turn()).contains(&turn.roll_number);
        self.rules
            .columns
            .iter()
            .zip(self.columns())
            .enumerate()
            .filter(move |_| roll_ok)
            .flat_map(move |(column, (kind, state))| {
                let allowed = self.rules.allowed_boxes(*kind, state.filled, turn);
                self.rules
                    .rows
                    .iter()
                    .copied()
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

    /// Rolls this turn may use: [`JambRules::rolls_in_turn`] with the turns left.
    pub fn rolls_this_turn(&self) -> u8 {
        self.rules.rolls_in_turn(self.turns_left())
    }

    /// True when a player who rolled roll `roll_number`, with no announcement, may keep dice
    /// and roll again: a roll is left and some cell other than the Hand and Announce columns'
    /// will take the next roll's dice (when only those boxes are empty, the turn must be
    /// written after its first roll, or announced).
    pub fn may_roll_again(&self, roll_number: u8) -> bool {
        roll_number < self.rolls_this_turn() && self.legal_cells(roll_number + 1).next().is_some()
    }

    /// True when a player in the turn `turn` may roll again: a roll is left and some cell will
    /// take the next roll's dice, at least when that roll is of all the dice (see
    /// [`JambSheet::next_roll_must_be_pure`]).
    pub fn may_roll_again_in(&self, turn: JambTurn) -> bool {
        let next = JambTurn {
            roll_number: turn.roll_number.saturating_add(1),
            pure: true,
            ..turn
        };
        turn.roll_number < self.rolls_this_turn() && self.legal_cells_in(next).next().is_some()
    }

    /// True when, in the turn `turn`, rolling again is allowed only with nothing kept: the
    /// next roll's dice fit a cell only as a pure hand (no announcement, only Announce boxes
    /// empty under [`AnnounceRule::AnnouncedOrPureHand`]).
    pub fn next_roll_must_be_pure(&self, turn: JambTurn) -> bool {
        let next = JambTurn {
            roll_number: turn.roll_number.saturating_add(1),
            pure: false,
            ..turn
        };
        self.may_roll_again_in(turn) && self.legal_cells_in(next).next().is_none()
    }

    /// Mask of the boxes that may be announced after roll `roll_number`: the empty boxes of the
    /// Announce column after the first roll, none otherwise (or without that column).
    pub fn announceable(&self, roll_number: u8) -> u16 {
        match self.rules.announce_column().and_then(|c| self.column(c)) {
            Some(state) if roll_number == 1 => !state.filled & FULL_COLUMN,
            _ => 0,
        }
    }

    /// True when box `b` may be announced after roll `roll_number` (see
    /// [`JambSheet::announceable`]).
    pub fn may_announce(&self, roll_number: u8, b: JambBox) -> bool {
        self.announceable(roll_number) & b.bit() != 0
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

    /// Points of `dice` in `cell` in the turn `turn` (see [`JambSheet::score_in`]).
    pub fn score_cell_in(&self, dice: &Dice, turn: JambTurn, cell: Cell) -> Option<i32> {
        self.score_in(dice, turn, usize::from(cell.column), cell.jbox)
    }

    /// The slip after writing `dice` in `cell` in the turn `turn` (see
    /// [`JambSheet::after_in`]).
    pub fn after_cell_in(&self, dice: &Dice, turn: JambTurn, cell: Cell) -> Option<JambSheet> {
        self.after_in(dice, turn, usize::from(cell.column), cell.jbox)
    }

    /// True when box `b` of column `column` may be filled now with dice of roll `roll_number`
    /// ([`JambTurn::at_roll`]).
    pub fn is_legal(&self, roll_number: u8, column: usize, b: JambBox) -> bool {
        self.is_legal_in(JambTurn::at_roll(roll_number), column, b)
    }

    /// True when box `b` of column `column` may be filled now in the turn `turn`.
    pub fn is_legal_in(&self, turn: JambTurn, column: usize, b: JambBox) -> bool {
        if !(1..=self.rolls_this_turn()).contains(&turn.roll_number) {
            return false;
        }
        match (self.rules.columns.get(column), self.columns().get(column)) {
            (Some(&kind), Some(state)) => {
                self.rules.allowed_boxes(kind, state.filled, turn) & b.bit() != 0
            }
            _ => false,
        }
    }

    /// Every `(column, box)` that may be filled now with dice of roll `roll_number`, column by
    /// column, top to bottom; empty for a roll number outside the turn's rolls or a complete
    /// slip.
    pub fn legal_boxes(&self, roll_number: u8) -> Vec<(usize, JambBox)> {
        self.legal_cells(roll_number)
            .map(|cell| (usize::from(cell.column), cell.jbox))
            .collect()
    }

    /// Points of `dice`, scored on roll `roll_number`, in box `b` of column `column`; `None`
    /// when that box may not be filled now or the dice or roll number are not valid.
    pub fn score(&self, dice: &Dice, roll_number: u8, column: usize, b: JambBox) -> Option<i32> {
        self.score_in(dice, JambTurn::at_roll(roll_number), column, b)
    }

    /// Points of `dice` in box `b` of column `column` in the turn `turn`; `None` when that
    /// box may not be filled now or the dice are not valid.
    pub fn score_in(&self, dice: &Dice, turn: JambTurn, column: usize, b: JambBox) -> Option<i32> {
        if !self.is_legal_in(turn, column, b) {
            return None;
        }
        self.rules.points(b, dice, turn.roll_number)
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
        self.after_in(dice, JambTurn::at_roll(roll_number), column, b)
    }

    /// The slip with box `b` of column `column` filled by `dice` in the turn `turn`; `None`
    /// when [`JambSheet::score_in`] refuses the box.
    pub fn after_in(
        &self,
        dice: &Dice,
        turn: JambTurn,
        column: usize,
        b: JambBox,
    ) -> Option<JambSheet> {
        let points = self.score_in(dice, turn, column, b)?;
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

    /// The slip's score so far: the sum of the column totals ([`JambRules::column_total`]).
    pub fn total(&self) -> i32 {
        self.columns()
            .iter()
            .map(|c| self.rules.column_total(c))
            .fold(0, i32::saturating_add)
    }
}

// Jamb as data: its boxes under each variant, and its game description.

/// Max and Min as the five-dice slips score them: the sum of the dice.
const MAX_MIN_SUMS: [BoxRule; 2] = [
    scored("MAX", "maximum", Section::Middle, Pattern::Any, DICE_SUM),
    scored("MIN", "minimum", Section::Middle, Pattern::Any, DICE_SUM),
];

/// The names of the boxes after the straight, in box order (three of a kind, full house, four
/// and five of a kind), as the seed paper's slips call them.
const KIND_NAMES: [&str; 4] = [
    "three of a kind (triling)",
    "full house (ful)",
    "four of a kind (poker)",
    "five of a kind (jamb)",
];

/// Jamb's seven boxes after the upper ones: Max and Min, the straight, then three of a kind,
/// full house (scored by `full_house`), four and five of a kind, named `names` and paying
/// `pay` in that order.
const fn after_upper(
    max_min: [BoxRule; 2],
    straight: BoxRule,
    names: [&'static str; 4],
    full_house: Pattern,
    pay: [Payoff; 4],
) -> [BoxRule; 7] {
    [
        max_min[0],
        max_min[1],
        straight,
        lower("T", names[0], groups(&[3]), pay[0]),
        lower("F", names[1], full_house, pay[1]),
        lower("P", names[2], groups(&[4]), pay[2]),
        lower("J", names[3], groups(&[5]), pay[3]),
    ]
}

/// The pattern sum of a box's dice plus `plus`.
const fn plus(plus: u32) -> Payoff {
    Payoff::PatternSum { plus }
}

/// Jamb's 13 boxes under the given four-of-a-kind and full-house variants.
const fn jamb_boxes(four_kind: FourKindRule, full_house: FullHouseRule) -> [BoxRule; 13] {
    let four_kind_payoff = match four_kind {
        FourKindRule::FourDicePlus40 => plus(40),
        FourKindRule::AllDicePlus40 => Payoff::DiceSum { plus: 40 },
    };
    let alike_too = matches!(full_house, FullHouseRule::FiveAlikeToo);
    let straight = lower(
        "K",
        "straight (kenta)",
        Pattern::Straight(&[(1, 5), (2, 6)]),
        Payoff::ByRoll {
            first: 66,
            less_per_roll: 10,
        },
    );
    let full_house = Pattern::Groups {
        sizes: &[3, 2],
        alike_too,
    };
    upper_then(&after_upper(
        MAX_MIN_SUMS,
        straight,
        KIND_NAMES,
        full_house,
        [plus(20), plus(30), four_kind_payoff, plus(50)],
    ))
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

/// An upper box of six-dice Jamb: the dice showing `face`, at most five of them.
const fn upper_best_five(code: &'static str, name: &'static str, face: u8) -> BoxRule {
    scored(
        code,
        name,
        Section::Upper,
        Pattern::FaceAtMost { face, most: 5 },
        Payoff::PatternSum { plus: 0 },
    )
}

/// The boxes of six-dice Jamb (`jamb-6a`), the best five dice counting, in box order.
const SIX_DICE_BOXES: [BoxRule; 13] = {
    let upper = [
        upper_best_five("1", "ones", 1),
        upper_best_five("2", "twos", 2),
        upper_best_five("3", "threes", 3),
        upper_best_five("4", "fours", 4),
        upper_best_five("5", "fives", 5),
        upper_best_five("6", "sixes", 6),
    ];
    let max_min = [
        scored(
            "MAX",
            "maximum",
            Section::Middle,
            Pattern::Any,
            Payoff::HighestDice { count: 5 },
        ),
        scored(
            "MIN",
            "minimum",
            Section::Middle,
            Pattern::Any,
            Payoff::LowestDice { count: 5 },
        ),
    ];
    let straight = lower(
        "K",
        "straight (kenta)",
        Pattern::Straight(&[(2, 6), (1, 5)]),
        Payoff::ByRun(&[50, 45]),
    );
    let rest = after_upper(
        max_min,
        straight,
        KIND_NAMES,
        groups(&[3, 2]),
        [plus(20), plus(40), plus(50), plus(60)],
    );
    joined(&upper, &rest)
};

/// The boxes of Croatian Yamb (`yamb-hr`), as the site's scoring code sums them, in box order.
const CROATIAN_BOXES: [BoxRule; 13] = upper_then(&after_upper(
    MAX_MIN_SUMS,
    lower(
        "K",
        "straight",
        Pattern::Straight(&[(1, 5), (2, 6)]),
        Payoff::ByRun(&[35, 45]),
    ),
    [
        "trips",
        "boat (full house)",
        "carriage (four of a kind)",
        "yamb (five of a kind)",
    ],
    groups(&[3, 2]),
    [plus(10), plus(30), plus(40), plus(50)],
));

/// Jamb's 13 boxes under the scoring and variants of `rules`, in box order.
pub(super) fn box_rules(rules: &JambRules) -> &'static [BoxRule; 13] {
    match rules.scoring {
        JambScoring::Classic => classic_box_rules(rules),
        JambScoring::SixDice => &SIX_DICE_BOXES,
        JambScoring::Croatian => &CROATIAN_BOXES,
    }
}

/// The classic boxes under the four-of-a-kind and full-house variants of `rules`.
fn classic_box_rules(rules: &JambRules) -> &'static [BoxRule; 13] {
    match (rules.four_kind, rules.full_house) {
        (FourKindRule::FourDicePlus40, FullHouseRule::TwoFaces) => &JAMB_BOXES,
        (FourKindRule::AllDicePlus40, FullHouseRule::TwoFaces) => &JAMB_BOXES_ALL_DICE,
        (FourKindRule::FourDicePlus40, FullHouseRule::FiveAlikeToo) => &JAMB_BOXES_ALIKE_FULL,
        (FourKindRule::AllDicePlus40, FullHouseRule::FiveAlikeToo) => {
            &JAMB_BOXES_ALL_DICE_ALIKE_FULL
        }
    }
}

/// Jamb under `rules`: its dice, three rolls (the last turn's own), its columns, 30 at 60 per
/// column, no joker, `(MAX - MIN) × ones` per column. The boxes are in box order
/// ([`JambBox::ALL`]); the rows Down and Up follow are [`JambRules::rows`].
fn game_description(rules: &JambRules) -> GameDescription {
    let announced: &'static [ColumnKind] = if rules.announce_column().is_some() {
        &[ColumnKind::Announce]
    } else {
        &[]
    };
    GameDescription {
        name: rules.name,
        dice: usize::from(rules.dice),
        faces: 6,
        rolls_per_turn: MAX_ROLLS,
        last_turn_rolls: rules.last_turn_rolls,
        saved_rolls: false,
        boxes: box_rules(rules),
        columns: rules.columns,
        announced,
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
            never_negative: rules.middle == MiddleRule::NeverNegative,
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
        Dice::from_faces_up_to(&faces, 6).unwrap()
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

    /// Points of six dice (`jamb-6a`) in box `b`.
    fn six(b: JambBox, d: &str) -> i32 {
        JambRules::JAMB_6A.points(b, &dice(d), 1).unwrap()
    }

    /// Points of five dice under `yamb-hr` in box `b`.
    fn hr(b: JambBox, d: &str) -> i32 {
        JambRules::YAMB_HR.points(b, &dice(d), 1).unwrap()
    }

    #[test]
    fn six_dice_upper_boxes_count_at_most_five_dice() {
        assert_eq!(six(Fours, "444444"), 20, "six fours, five count");
        assert_eq!(six(Fours, "444441"), 20);
        assert_eq!(six(Fours, "444123"), 12);
        assert_eq!(six(Ones, "111111"), 5);
        assert_eq!(six(Sixes, "123455"), 0);
    }

    #[test]
    fn six_dice_max_and_min_take_the_best_five() {
        // 1 2 3 4 5 6: Max drops the 1, Min drops the 6.
        assert_eq!(six(Max, "123456"), 20);
        assert_eq!(six(Min, "123456"), 15);
        assert_eq!(six(Max, "666661"), 30);
        assert_eq!(six(Min, "111116"), 5);
        assert_eq!(six(Min, "666661"), 25);
    }

    #[test]
    fn six_dice_three_of_a_kind_highest_face() {
        assert_eq!(
            six(ThreeKind, "333666"),
            3 * 6 + 20,
            "two triples: the higher"
        );
        assert_eq!(six(ThreeKind, "222245"), 3 * 2 + 20);
        assert_eq!(six(ThreeKind, "112256"), 0);
        assert_eq!(six(ThreeKind, "555555"), 3 * 5 + 20);
    }

    #[test]
    fn six_dice_straight_whatever_the_roll() {
        let r = JambRules::JAMB_6A;
        assert_eq!(six(Straight, "123455"), 45);
        assert_eq!(six(Straight, "234566"), 50);
        assert_eq!(six(Straight, "123456"), 50, "both present: 2-6 counts");
        assert_eq!(six(Straight, "123466"), 0);
        for roll_number in 1..=5 {
            assert_eq!(r.points(Straight, &dice("623451"), roll_number), Some(50));
        }
        assert_eq!(
            r.points(Straight, &dice("623451"), 6),
            None,
            "no sixth roll"
        );
    }

    #[test]
    fn six_dice_full_house_best_three_and_two() {
        // 3+3: 666 333 -> 3x6 + 2x3 + 40 (not 3x3 + 2x6).
        assert_eq!(six(FullHouse, "333666"), 18 + 6 + 40);
        // 4+2: 1111 66 -> 3x1 + 2x6 + 40.
        assert_eq!(six(FullHouse, "111166"), 3 + 12 + 40);
        // 3+2+1: 555 44 2.
        assert_eq!(six(FullHouse, "555442"), 15 + 8 + 40);
        // 3+2+1 where the pair is higher: 222 66 5 -> 3x2 + 2x6.
        assert_eq!(six(FullHouse, "222665"), 6 + 12 + 40);
        assert_eq!(six(FullHouse, "111111"), 0, "six alike: no second face");
        assert_eq!(six(FullHouse, "333336"), 0, "five and one");
        assert_eq!(six(FullHouse, "334455"), 0, "three pairs");
    }

    #[test]
    fn six_dice_poker_and_jamb() {
        assert_eq!(six(FourKind, "222213"), 4 * 2 + 50);
        assert_eq!(six(FourKind, "666666"), 4 * 6 + 50, "poker from six alike");
        assert_eq!(six(FourKind, "222333"), 0);
        assert_eq!(six(Jamb, "555553"), 5 * 5 + 60);
        assert_eq!(six(Jamb, "666666"), 5 * 6 + 60, "jamb from six alike");
        assert_eq!(six(Jamb, "555533"), 0);
    }

    #[test]
    fn six_dice_refuses_five_dice() {
        let r = JambRules::JAMB_6A;
        assert_eq!(r.points(Max, &dice("12345"), 1), None);
        assert_eq!(JambRules::JAMB_5.points(Max, &dice("123456"), 1), None);
        assert_eq!(r.points(Max, &dice("123456"), 0), None);
    }

    #[test]
    fn croatian_boxes_as_the_site_sums_them() {
        // The site's own unit tests (ScoreCalculatorTest), and more by hand.
        assert_eq!(hr(Max, "66666"), 30);
        assert_eq!(hr(Min, "11236"), 13);
        assert_eq!(hr(Sixes, "66611"), 18);
        assert_eq!(hr(Sixes, "11111"), 0);
        assert_eq!(hr(ThreeKind, "66611"), 28, "trips: the three dice + 10");
        assert_eq!(hr(ThreeKind, "66661"), 28);
        assert_eq!(hr(ThreeKind, "66112"), 0);
        assert_eq!(hr(Straight, "12345"), 35);
        assert_eq!(hr(Straight, "23456"), 45);
        assert_eq!(hr(Straight, "23455"), 0);
        assert_eq!(
            JambRules::YAMB_HR.points(Straight, &dice("23456"), 3),
            Some(45),
            "whatever the roll"
        );
        assert_eq!(hr(FullHouse, "66611"), 50, "boat: all five dice + 30");
        assert_eq!(hr(FullHouse, "44554"), 52);
        assert_eq!(hr(FullHouse, "66661"), 0);
        assert_eq!(hr(FullHouse, "66666"), 0, "five alike: no boat");
        assert_eq!(hr(FourKind, "66661"), 64, "carriage: the four dice + 40");
        assert_eq!(hr(FourKind, "66666"), 64);
        assert_eq!(hr(FourKind, "66611"), 0);
        assert_eq!(hr(Jamb, "66666"), 80);
        assert_eq!(hr(Jamb, "66661"), 0);
        assert_eq!(JambRules::YAMB_HR.points(Max, &dice("12345"), 4), None);
    }

    #[test]
    fn rule_sets_by_name_with_their_turns_and_rolls() {
        for (name, turns, dice, last) in [
            ("jamb-4", 52, 5, 3),
            ("jamb-5", 65, 5, 3),
            ("jamb-6a", 52, 6, 5),
            ("yamb-hr", 52, 5, 3),
        ] {
            let r = JambRules::by_name(name).unwrap();
            assert_eq!((r.turns(), r.dice, r.last_turn_rolls), (turns, dice, last));
            let description = r.description();
            assert_eq!(description.dice, usize::from(dice));
            assert_eq!(description.rolls_in_turn(0), MAX_ROLLS);
            assert_eq!(description.rolls_in_turn(turns - 1), last);
            assert_eq!(r.rolls_in_turn(2), MAX_ROLLS);
            assert_eq!(r.rolls_in_turn(1), last);
        }
        assert_eq!(JambRules::JAMB_6A.announce_column(), Some(3));
        assert_eq!(JambRules::YAMB_HR.announce_column(), Some(3));
        assert_eq!(JambRules::JAMB_4.announce_column(), None);
        assert_eq!(
            JambRules::JAMB_6A.description().announced,
            &[ColumnKind::Announce]
        );
        assert!(JambRules::JAMB_5.description().announced.is_empty());
    }

    #[test]
    fn down_and_up_follow_the_rule_sets_rows() {
        let turn = JambTurn::at_roll(2);
        let upper_and_middle = mask(&["1", "2", "3", "4", "5", "6", "MAX", "MIN"]);
        for r in [JambRules::JAMB_6A, JambRules::YAMB_HR] {
            let down = r.allowed_boxes(ColumnKind::Down, upper_and_middle, turn);
            assert_eq!(
                codes(down),
                ["T"],
                "{r}: three of a kind before the straight"
            );
            let after_trips = upper_and_middle | ThreeKind.bit();
            assert_eq!(
                codes(r.allowed_boxes(ColumnKind::Down, after_trips, turn)),
                ["K"]
            );
            let lower = mask(&["K", "F", "P", "J"]);
            assert_eq!(
                codes(r.allowed_boxes(ColumnKind::Up, lower, turn)),
                ["T"],
                "{r}: up reaches three of a kind after the straight"
            );
            assert_eq!(
                codes(r.allowed_boxes(ColumnKind::Up, lower | ThreeKind.bit(), turn)),
                ["MIN"]
            );
        }
        let classic = JambRules::JAMB_5;
        assert_eq!(
            codes(classic.allowed_boxes(ColumnKind::Down, upper_and_middle, turn)),
            ["K"]
        );
        for kind in ColumnKind::ALL
            .into_iter()
            .filter(|&k| k != ColumnKind::Announce)
        {
            for filled in [0, upper_and_middle, mask(&["J", "P"]), mask(&["MAX"])] {
                for roll_number in 1..=MAX_ROLLS {
                    assert_eq!(
                        classic.allowed_boxes(kind, filled, JambTurn::at_roll(roll_number)),
                        kind.allowed_boxes(filled, roll_number),
                        "{kind} {filled:#x} {roll_number}"
                    );
                }
            }
        }
    }

    /// The turn after roll `roll_number` with an announcement and purity.
    fn turn(roll_number: u8, announced: Option<JambBox>, pure: bool) -> JambTurn {
        JambTurn {
            roll_number,
            announced,
            pure,
        }
    }

    #[test]
    fn announce_column_of_jamb_6a_announced_or_pure_hand() {
        let sheet = JambSheet::new(JambRules::JAMB_6A);
        let announce = 3;
        let in_announce = |t: JambTurn| -> Vec<JambBox> {
            sheet
                .legal_cells_in(t)
                .filter(|c| usize::from(c.column) == announce)
                .map(|c| c.jbox)
                .collect()
        };
        // First roll: pure, every empty Announce box.
        assert_eq!(in_announce(turn(1, None, true)).len(), BOXES);
        // A later roll with dice kept: none; with nothing kept: every one.
        assert!(in_announce(turn(2, None, false)).is_empty());
        assert_eq!(in_announce(turn(3, None, true)).len(), BOXES);
        // Announced: only that box, and no other cell of the slip.
        let only: Vec<Cell> = sheet
            .legal_cells_in(turn(3, Some(FourKind), false))
            .collect();
        assert_eq!(
            only,
            [Cell {
                column: 3,
                jbox: FourKind
            }]
        );
        assert_eq!(
            sheet.score_in(
                &dice("555561"),
                turn(2, Some(FourKind), false),
                announce,
                FourKind
            ),
            Some(70)
        );
        assert_eq!(
            sheet.score_in(&dice("555561"), turn(2, Some(FourKind), false), 1, FourKind),
            None,
            "an announced turn is written in its box"
        );
        assert_eq!(
            sheet.score_in(&dice("555561"), turn(2, None, false), announce, FourKind),
            None,
            "not announced, not pure"
        );
        // Announcing: after the first roll only, an empty Announce box.
        assert!(sheet.may_announce(1, Jamb));
        assert!(!sheet.may_announce(2, Jamb));
        let written = sheet
            .after_in(&dice("666666"), turn(1, Some(Jamb), true), announce, Jamb)
            .unwrap();
        assert_eq!(written.columns()[announce].value(Jamb), Some(90));
        assert!(!written.may_announce(1, Jamb), "filled");
        assert!(written.may_announce(1, Ones));
        assert_eq!(JambSheet::new(JambRules::JAMB_4).announceable(1), 0);
    }

    #[test]
    fn announce_column_of_yamb_hr_only_announced() {
        let sheet = JambSheet::new(JambRules::YAMB_HR);
        let announce = 3;
        let pure_first = sheet
            .legal_cells_in(turn(1, None, true))
            .filter(|c| usize::from(c.column) == announce)
            .count();
        assert_eq!(pure_first, 0, "no pure hand rule on the site");
        assert_eq!(
            sheet.score_in(
                &dice("12345"),
                turn(3, Some(Straight), false),
                announce,
                Straight
            ),
            Some(35)
        );
    }

    /// A slip of `rules` with every box filled with 0 but `left` (cells as codes).
    fn all_but(rules: JambRules, left: &[&str]) -> JambSheet {
        let mut text = Vec::new();
        let sheet = JambSheet::new(rules);
        for (c, kind) in rules.columns.iter().enumerate() {
            for b in JambBox::ALL {
                let code = format!("{}:{}", kind.code(), b.code());
                let cell = sheet.parse_cell(&code).unwrap();
                if !left.contains(&code.as_str()) {
                    assert_eq!(usize::from(cell.column), c);
                    text.push(format!("{code}=0"));
                }
            }
        }
        JambSheet::from_notation(rules, &text.join(",")).unwrap()
    }

    #[test]
    fn five_rolls_on_the_last_turn_of_jamb_6a() {
        let last = all_but(JambRules::JAMB_6A, &["F:J"]);
        assert_eq!(last.turns_left(), 1);
        assert_eq!(last.rolls_this_turn(), 5);
        for roll_number in 1..5 {
            assert!(last.may_roll_again(roll_number), "roll {roll_number}");
        }
        assert!(!last.may_roll_again(5));
        assert_eq!(last.score(&dice("666662"), 5, 1, Jamb), Some(90));
        assert_eq!(last.score(&dice("666662"), 6, 1, Jamb), None);
        let two_left = all_but(JambRules::JAMB_6A, &["F:J", "F:P"]);
        assert_eq!(two_left.rolls_this_turn(), 3);
        assert!(!two_left.may_roll_again(3));
        assert_eq!(two_left.score(&dice("666662"), 4, 1, Jamb), None);
        let hr_last = all_but(JambRules::YAMB_HR, &["F:J"]);
        assert_eq!(hr_last.rolls_this_turn(), 3);
    }

    #[test]
    fn only_announce_boxes_left() {
        let sheet = all_but(JambRules::JAMB_6A, &["A:1", "A:J"]);
        // Without an announcement only a pure hand writes there: roll again with nothing kept.
        assert!(!sheet.may_roll_again(1));
        assert!(sheet.may_roll_again_in(turn(1, None, true)));
        assert!(sheet.next_roll_must_be_pure(turn(1, None, true)));
        assert!(!sheet.next_roll_must_be_pure(turn(1, Some(Jamb), true)));
        assert!(sheet.may_roll_again_in(turn(2, Some(Jamb), false)));
        assert!(!sheet.may_roll_again_in(turn(3, Some(Jamb), false)));
        // Under yamb-hr the announcement is required: nothing is legal without one.
        let hr = all_but(JambRules::YAMB_HR, &["A:1", "A:J"]);
        assert_eq!(hr.legal_cells_in(turn(1, None, true)).count(), 0);
        assert!(!hr.may_roll_again_in(turn(1, None, true)));
        assert!(hr.may_roll_again_in(turn(1, Some(Ones), true)));
    }

    #[test]
    fn middle_never_negative_in_jamb_6a_and_yamb_hr() {
        let c = column(&[(Ones, 2), (Max, 10), (Min, 14)]);
        assert_eq!(JambRules::JAMB_5.middle_of(&c), -8);
        assert_eq!(JambRules::JAMB_6A.middle_of(&c), 0);
        assert_eq!(JambRules::YAMB_HR.column_total(&c), 2);
        assert_eq!(JambRules::JAMB_4.column_total(&c), 2 - 8);
        let up = column(&[
            (Ones, 4),
            (Max, 28),
            (Min, 8),
            (Sixes, 30),
            (Fives, 25),
            (Jamb, 90),
        ]);
        assert_eq!(JambRules::JAMB_6A.column_total(&up), 59 + 20 * 4 + 90);
        let bonus = up.with(Fours, 4).unwrap();
        assert_eq!(JambRules::JAMB_6A.column_total(&bonus), 63 + 30 + 80 + 90);
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
