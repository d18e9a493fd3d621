//! The game as data: how many dice, how many rolls a turn, the boxes with their scoring rules,
//! the columns with their orders of filling, the bonuses and the final-score formula (see
//! `docs/game-description.md`).
//!
//! Every rule set of today is a [`GameDescription`] ([`RuleSet::description`],
//! `JambRules::description`), and every box is scored by one interpreter,
//! [`Scoring::points`]. A new member of the family (more dice, other boxes) is a new
//! description, not new scoring code.

use super::{ExtraBonus, JokerRule, RuleSet, EXTRA_YAHTZEE_BONUS, UPPER_THRESHOLD};
use crate::dice::{Dice, DiceSpace, FACES};
use std::fmt;

/// A game of the Yahtzee family, described as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameDescription {
    /// The name used by `--rules` (`yahtzee`, `jamb-5`, ...).
    pub name: &'static str,
    /// Number of dice rolled.
    pub dice: usize,
    /// Faces of each die (1 to `faces`).
    pub faces: u8,
    /// Rolls a turn may use.
    pub rolls_per_turn: u8,
    /// Rolls the last turn may use (the same as [`GameDescription::rolls_per_turn`] where the
    /// last turn has no extra rolls).
    pub last_turn_rolls: u8,
    /// True when the rolls a turn leaves unused are saved: a later turn may use its own
    /// [`GameDescription::rolls_per_turn`] and every roll saved before it (Maxi Yatzy's
    /// saved-rolls rule, `maxi-yatzy-saved`).
    pub saved_rolls: bool,
    /// The boxes of a column in sheet order; box `i` is bit `i` of a column's filled mask.
    pub boxes: &'static [BoxRule],
    /// The columns of the sheet, left to right, each by its order of filling (one free
    /// column for the single-column games).
    pub columns: &'static [ColumnKind],
    /// The orders of filling whose boxes are announced after the first roll (Jamb's Announce
    /// column in `jamb-6a` and `yamb-hr`; none in the other rule sets).
    pub announced: &'static [ColumnKind],
    /// The upper bonus of a column.
    pub upper_bonus: UpperBonus,
    /// When five (all) alike scored outside its box counts as a joker.
    pub joker: JokerRule,
    /// When the extra-Yahtzee bonus is paid, and how much.
    pub extra_bonus: ExtraBonusRule,
    /// How the boxes add up to the final score.
    pub final_score: FinalScore,
}

/// One box of a column: its code, its name, its section and how it scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxRule {
    /// The code logs and flags write (`1`, `3K`, `MAX`, ...).
    pub code: &'static str,
    /// The name in words.
    pub name: &'static str,
    /// The section of the sheet the box belongs to.
    pub section: Section,
    /// How dice score in the box.
    pub scoring: Scoring,
}

/// The sections of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Ones to sixes: the boxes of the upper bonus.
    Upper,
    /// Jamb's maximum and minimum (the middle section).
    Middle,
    /// The combinations.
    Lower,
}

/// The upper bonus: `points` once the upper boxes of a column add up to `threshold`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UpperBonus {
    /// The upper total that earns the bonus.
    pub threshold: u32,
    /// The bonus.
    pub points: u32,
}

/// The extra-Yahtzee bonus: when it is paid and how much.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtraBonusRule {
    /// When it is paid.
    pub when: ExtraBonus,
    /// The bonus.
    pub points: u32,
}

/// How the boxes of a sheet add up to its final score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalScore {
    /// The sum of the boxes, the upper bonus and the extra bonuses.
    Sum,
    /// Per column: the upper boxes and bonus, the lower boxes, and the middle section
    /// `(box high - box low) × box times` (Jamb's `(MAX - MIN) × ones`), once all three are
    /// filled; the columns added up.
    ColumnsWithMiddle {
        /// Index of the box subtracted from (`MAX`).
        high: usize,
        /// Index of the box subtracted (`MIN`).
        low: usize,
        /// Index of the box the difference is multiplied by (ones).
        times: usize,
        /// True when a negative section counts 0 (`jamb-6a`, `yamb-hr`); false when it counts
        /// as it is (`jamb-4`, `jamb-5`).
        never_negative: bool,
    },
}

/// How dice score in a box: a pattern they must show, and what it pays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// What the dice must show for the box to pay (otherwise it scores 0).
    pub pattern: Pattern,
    /// What the box pays when the pattern holds.
    pub payoff: Payoff,
}

/// What dice must show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// Any dice (chance, Jamb's maximum and minimum).
    Any,
    /// Any dice; the dice that count are those showing this face (the upper boxes).
    Face(u8),
    /// Any dice; the dice that count are those showing `face`, at most `most` of them (the
    /// upper boxes of six-dice Jamb, where the best five count).
    FaceAtMost {
        /// The face counted.
        face: u8,
        /// The most dice that count.
        most: u8,
    },
    /// Groups of alike dice, each of a different face, of at least these sizes, largest
    /// first: `[3]` three of a kind, `[2, 2]` two pairs, `[3, 2]` a full house, `[5]` five of
    /// a kind (for six dice: `[3, 3]` a villa, `[4, 2]` a tower, `[2, 2, 2]` three pairs). The
    /// highest faces that fit are taken, largest group first.
    Groups {
        /// The sizes of the groups, largest first.
        sizes: &'static [u8],
        /// True when one face with enough dice for all the groups fits too (Jamb's variant
        /// where five alike is a full house).
        alike_too: bool,
    },
    /// At least one die of every face of one of these runs (`(low, high)`, faces inclusive).
    Straight(&'static [(u8, u8)]),
}

/// What a box pays when its pattern holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payoff {
    /// Fixed points.
    Fixed(u32),
    /// The sum of all the dice, plus `plus`.
    DiceSum {
        /// Points added to the sum.
        plus: u32,
    },
    /// The sum of the dice that form the pattern, plus `plus`.
    PatternSum {
        /// Points added to the sum.
        plus: u32,
    },
    /// Points by the roll the dice were made on: `first` on the first roll, `less_per_roll`
    /// fewer on each later roll (Jamb's straight: 66, 56, 46).
    ByRoll {
        /// Points on the first roll.
        first: u32,
        /// Points fewer on each later roll.
        less_per_roll: u32,
    },
    /// Points by the run a [`Pattern::Straight`] shows: entry `i` for its run `i`, the first
    /// run shown counting (six-dice Jamb: 50 for 2-6 before 45 for 1-5).
    ByRun(&'static [u32]),
    /// The sum of the `count` highest dice (six-dice Jamb's Max: the best five).
    HighestDice {
        /// How many dice count.
        count: u8,
    },
    /// The sum of the `count` lowest dice (six-dice Jamb's Min: the best five).
    LowestDice {
        /// How many dice count.
        count: u8,
    },
}

impl Scoring {
    /// Points of `dice` made on roll `roll_number` (1 for the first roll) in a box scored this
    /// way: the payoff when the pattern holds, else 0.
    pub fn points(&self, dice: &Dice, roll_number: u8) -> u32 {
        if let Payoff::ByRun(points) = self.payoff {
            let run = self.pattern.run_shown(dice);
            return run.and_then(|i| points.get(i)).copied().unwrap_or(0);
        }
        match self.pattern.dice_forming(dice) {
            Some(formed) => self.payoff.points(dice, formed, roll_number),
            None => 0,
        }
    }

    /// Points of `dice` used as a joker (five alike standing for any pattern): a fixed payoff
    /// in full, any other payoff as [`Scoring::points`] gives it.
    pub fn joker_points(&self, dice: &Dice, roll_number: u8) -> u32 {
        match self.payoff {
            Payoff::Fixed(points) => points,
            _ => self.points(dice, roll_number),
        }
    }
}

impl Pattern {
    /// The index of the first run of a [`Pattern::Straight`] that `dice` show; `None` when
    /// they show none or the pattern is no straight.
    fn run_shown(&self, dice: &Dice) -> Option<usize> {
        let Pattern::Straight(runs) = *self else {
            return None;
        };
        let counts = dice.counts();
        runs.iter().position(|&(low, high)| {
            (usize::from(low.max(1))..=usize::from(high))
                .all(|f| counts.get(f - 1).is_some_and(|&c| c >= 1))
        })
    }

    /// The sum of the dice that form the pattern when `dice` show it, `None` when they do not.
    fn dice_forming(&self, dice: &Dice) -> Option<u32> {
        let counts = dice.counts();
        let face_value = |i: usize| i as u32 + 1;
        match *self {
            Pattern::Any => Some(dice.sum()),
            Pattern::Face(face) => Some(u32::from(face) * u32::from(dice.count(face))),
            Pattern::FaceAtMost { face, most } => {
                Some(u32::from(face) * u32::from(dice.count(face).min(most)))
            }
            Pattern::Groups { sizes, alike_too } => {
                let mut used = [false; FACES];
                let mut formed = 0;
                let mut all_found = true;
                for &size in sizes {
                    let highest = (0..FACES).rev().find(|&i| !used[i] && counts[i] >= size);
                    match highest {
                        Some(i) => {
                            used[i] = true;
                            formed += u32::from(size) * face_value(i);
                        }
                        None => all_found = false,
                    }
                }
                if all_found {
                    return Some(formed);
                }
                let needed: u32 = sizes.iter().map(|&s| u32::from(s)).sum();
                let alike = (0..FACES)
                    .rev()
                    .find(|&i| alike_too && u32::from(counts[i]) >= needed)?;
                Some(needed * face_value(alike))
            }
            Pattern::Straight(runs) => runs.iter().find_map(|&(low, high)| {
                let faces = usize::from(low.max(1))..=usize::from(high);
                let complete = faces
                    .clone()
                    .all(|f| counts.get(f - 1).is_some_and(|&c| c >= 1));
                complete.then(|| faces.map(|f| f as u32).sum())
            }),
        }
    }
}

impl Payoff {
    /// What the payoff gives for `dice` whose pattern is formed by dice summing to `formed`,
    /// made on roll `roll_number`.
    fn points(&self, dice: &Dice, formed: u32, roll_number: u8) -> u32 {
        match *self {
            Payoff::Fixed(points) => points,
            Payoff::DiceSum { plus } => dice.sum() + plus,
            Payoff::PatternSum { plus } => formed + plus,
            Payoff::ByRoll {
                first,
                less_per_roll,
            } => {
                let later_rolls = u32::from(roll_number.saturating_sub(1));
                first.saturating_sub(less_per_roll.saturating_mul(later_rolls))
            }
            // Scored by `Scoring::points`, which knows the run; no run here.
            Payoff::ByRun(_) => 0,
            Payoff::HighestDice { count } => {
                dice_by_face(dice).rev().take(usize::from(count)).sum()
            }
            Payoff::LowestDice { count } => dice_by_face(dice).take(usize::from(count)).sum(),
        }
    }
}

/// The faces of `dice`, one per die, lowest first.
fn dice_by_face(dice: &Dice) -> impl DoubleEndedIterator<Item = u32> {
    let counts = dice.counts();
    (0..FACES).flat_map(move |i| std::iter::repeat_n(i as u32 + 1, usize::from(counts[i])))
}

impl GameDescription {
    /// The rolls and keeps of this game's dice, shared by every solver of the game.
    pub fn dice_space(&self) -> &'static DiceSpace {
        DiceSpace::clamped(self.dice)
    }

    /// Number of boxes in a column.
    pub fn box_count(&self) -> usize {
        self.boxes.len()
    }

    /// Turns in a game: one per box of the sheet.
    pub fn turns(&self) -> usize {
        self.boxes.len() * self.columns.len()
    }

    /// Index of the box with the given code (case-insensitive).
    pub fn box_index(&self, code: &str) -> Option<usize> {
        self.boxes
            .iter()
            .position(|b| b.code.eq_ignore_ascii_case(code))
    }

    /// Rolls turn number `turn` (0-based) may use: the last turn may have more.
    pub fn rolls_in_turn(&self, turn: usize) -> u8 {
        if turn + 1 == self.turns() {
            self.last_turn_rolls
        } else {
            self.rolls_per_turn
        }
    }

    /// Rolls turn number `turn` (0-based) may use when `saved` rolls were saved before it:
    /// its own ([`GameDescription::rolls_in_turn`]) and, under the saved-rolls rule, every
    /// saved one.
    pub fn rolls_available(&self, turn: usize, saved: u32) -> u32 {
        let own = u32::from(self.rolls_in_turn(turn));
        if self.saved_rolls {
            own + saved
        } else {
            own
        }
    }

    /// Rolls saved after a turn that could use `available` rolls and used `used`: under the
    /// saved-rolls rule every roll it left (those saved before it included), else none.
    pub fn saved_after(&self, available: u32, used: u32) -> u32 {
        if self.saved_rolls {
            available.saturating_sub(used)
        } else {
            0
        }
    }
}

/// A box of the upper section: the dice showing `face`.
pub(super) const fn upper(code: &'static str, name: &'static str, face: u8) -> BoxRule {
    BoxRule {
        code,
        name,
        section: Section::Upper,
        scoring: Scoring {
            pattern: Pattern::Face(face),
            payoff: Payoff::PatternSum { plus: 0 },
        },
    }
}

/// A box of the given section scored by `pattern` and `payoff`.
pub(super) const fn scored(
    code: &'static str,
    name: &'static str,
    section: Section,
    pattern: Pattern,
    payoff: Payoff,
) -> BoxRule {
    BoxRule {
        code,
        name,
        section,
        scoring: Scoring { pattern, payoff },
    }
}

/// A lower box scored by `pattern` and `payoff`.
pub(super) const fn lower(
    code: &'static str,
    name: &'static str,
    pattern: Pattern,
    payoff: Payoff,
) -> BoxRule {
    scored(code, name, Section::Lower, pattern, payoff)
}

/// Groups of alike dice of different faces.
pub(super) const fn groups(sizes: &'static [u8]) -> Pattern {
    Pattern::Groups {
        sizes,
        alike_too: false,
    }
}

/// The sum of all the dice.
pub(super) const DICE_SUM: Payoff = Payoff::DiceSum { plus: 0 };
/// The sum of the dice that form the pattern.
const PATTERN_SUM: Payoff = Payoff::PatternSum { plus: 0 };

/// The six upper boxes, ones to sixes.
const UPPER_BOXES: [BoxRule; 6] = [
    upper("1", "ones", 1),
    upper("2", "twos", 2),
    upper("3", "threes", 3),
    upper("4", "fours", 4),
    upper("5", "fives", 5),
    upper("6", "sixes", 6),
];

/// The six upper boxes followed by `lower`, as an array of `N` boxes (`N` = 6 + the lower
/// boxes).
pub(super) const fn upper_then<const N: usize>(lower: &[BoxRule]) -> [BoxRule; N] {
    joined(&UPPER_BOXES, lower)
}

/// `first` followed by `then`, as an array of `N` boxes (`N` = both lengths together).
pub(super) const fn joined<const N: usize>(first: &[BoxRule], then: &[BoxRule]) -> [BoxRule; N] {
    let mut out = [UPPER_BOXES[0]; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < first.len() {
            first[i]
        } else {
            then[i - first.len()]
        };
        i += 1;
    }
    out
}

/// Yahtzee's 13 boxes, in sheet order.
const YAHTZEE_BOXES: [BoxRule; 13] = upper_then(&[
    lower("3K", "three of a kind", groups(&[3]), DICE_SUM),
    lower("4K", "four of a kind", groups(&[4]), DICE_SUM),
    lower("FH", "full house", groups(&[3, 2]), Payoff::Fixed(25)),
    lower(
        "SS",
        "small straight",
        Pattern::Straight(&[(1, 4), (2, 5), (3, 6)]),
        Payoff::Fixed(30),
    ),
    lower(
        "LS",
        "large straight",
        Pattern::Straight(&[(1, 5), (2, 6)]),
        Payoff::Fixed(40),
    ),
    lower("Y", "yahtzee", groups(&[5]), Payoff::Fixed(50)),
    lower("C", "chance", Pattern::Any, DICE_SUM),
]);

// Boxes Yatzy and Maxi Yatzy share: each pays the sum of the dice forming its pattern, the
// straights the sum of their faces.
const ONE_PAIR: BoxRule = lower("1P", "one pair", groups(&[2]), PATTERN_SUM);
const TWO_PAIRS: BoxRule = lower("2P", "two pairs", groups(&[2, 2]), PATTERN_SUM);
const THREE_KIND: BoxRule = lower("3K", "three of a kind", groups(&[3]), PATTERN_SUM);
const FOUR_KIND: BoxRule = lower("4K", "four of a kind", groups(&[4]), PATTERN_SUM);
const SMALL_STRAIGHT: BoxRule = lower(
    "SS",
    "small straight",
    Pattern::Straight(&[(1, 5)]),
    Payoff::Fixed(15),
);
const LARGE_STRAIGHT: BoxRule = lower(
    "LS",
    "large straight",
    Pattern::Straight(&[(2, 6)]),
    Payoff::Fixed(20),
);
const FULL_HOUSE: BoxRule = lower("FH", "full house", groups(&[3, 2]), PATTERN_SUM);
const CHANCE: BoxRule = lower("C", "chance", Pattern::Any, DICE_SUM);

/// Yatzy's 15 boxes, in sheet order.
const YATZY_BOXES: [BoxRule; 15] = upper_then(&[
    ONE_PAIR,
    TWO_PAIRS,
    THREE_KIND,
    FOUR_KIND,
    SMALL_STRAIGHT,
    LARGE_STRAIGHT,
    FULL_HOUSE,
    CHANCE,
    lower("Y", "yatzy", groups(&[5]), Payoff::Fixed(50)),
]);

/// Yahtzee's upper bonus: 35 at 63.
const YAHTZEE_UPPER_BONUS: UpperBonus = UpperBonus {
    threshold: UPPER_THRESHOLD,
    points: 35,
};

/// A Yahtzee rule set (13 boxes, five dice, three rolls) with its joker and extra bonus.
const fn yahtzee_game(name: &'static str, joker: JokerRule, when: ExtraBonus) -> GameDescription {
    GameDescription {
        name,
        dice: 5,
        faces: 6,
        rolls_per_turn: 3,
        last_turn_rolls: 3,
        saved_rolls: false,
        boxes: &YAHTZEE_BOXES,
        columns: &[ColumnKind::Free],
        announced: &[],
        upper_bonus: YAHTZEE_UPPER_BONUS,
        joker,
        extra_bonus: ExtraBonusRule {
            when,
            points: EXTRA_YAHTZEE_BONUS,
        },
        final_score: FinalScore::Sum,
    }
}

/// Official Yahtzee.
pub const YAHTZEE: GameDescription =
    yahtzee_game("yahtzee", JokerRule::Forced, ExtraBonus::WhenYahtzee50);
/// Yahtzee with the free-choice joker.
pub const YAHTZEE_FREE: GameDescription = yahtzee_game(
    "yahtzee-free",
    JokerRule::FreeChoice,
    ExtraBonus::WhenYahtzee50,
);
/// Yahtzee under kurnik.pl's rules.
pub const YAHTZEE_KURNIK: GameDescription = yahtzee_game(
    "yahtzee-kurnik",
    JokerRule::Kurnik,
    ExtraBonus::JokerWhenYahtzee50,
);
/// Yahtzee with the extra bonus and no joker.
pub const YAHTZEE_NOJOKER: GameDescription = yahtzee_game(
    "yahtzee-nojoker",
    JokerRule::None,
    ExtraBonus::WhenYahtzee50,
);
/// Yahtzee with neither joker nor extra bonus.
pub const YAHTZEE_PLAIN: GameDescription =
    yahtzee_game("yahtzee-plain", JokerRule::None, ExtraBonus::Never);

/// Scandinavian Yatzy.
pub const YATZY: GameDescription = GameDescription {
    name: "yatzy",
    dice: 5,
    faces: 6,
    rolls_per_turn: 3,
    last_turn_rolls: 3,
    saved_rolls: false,
    boxes: &YATZY_BOXES,
    columns: &[ColumnKind::Free],
    announced: &[],
    upper_bonus: UpperBonus {
        threshold: UPPER_THRESHOLD,
        points: 50,
    },
    joker: JokerRule::None,
    extra_bonus: ExtraBonusRule {
        when: ExtraBonus::Never,
        points: 0,
    },
    final_score: FinalScore::Sum,
};

/// Maxi Yatzy's 20 boxes, in sheet order (docs/rules.md: the lower boxes pay the sum of the
/// dice forming their pattern, the straights the sum of their faces, six alike 100).
const MAXI_YATZY_BOXES: [BoxRule; 20] = upper_then(&[
    ONE_PAIR,
    TWO_PAIRS,
    lower("3P", "three pairs", groups(&[2, 2, 2]), PATTERN_SUM),
    THREE_KIND,
    FOUR_KIND,
    lower("5K", "five of a kind", groups(&[5]), PATTERN_SUM),
    SMALL_STRAIGHT,
    LARGE_STRAIGHT,
    lower(
        "FS",
        "full straight",
        Pattern::Straight(&[(1, 6)]),
        Payoff::Fixed(21),
    ),
    FULL_HOUSE,
    lower("VI", "villa", groups(&[3, 3]), PATTERN_SUM),
    lower("TO", "tower", groups(&[4, 2]), PATTERN_SUM),
    CHANCE,
    lower("Y", "maxi Yatzy", groups(&[6]), Payoff::Fixed(100)),
]);

/// Maxi Yatzy with or without the saved-rolls rule: six dice, three rolls a turn, 20 boxes,
/// 100 points at 84 upper points, no joker, no extra bonus.
const fn maxi_yatzy_game(name: &'static str, saved_rolls: bool) -> GameDescription {
    GameDescription {
        name,
        dice: 6,
        saved_rolls,
        boxes: &MAXI_YATZY_BOXES,
        upper_bonus: UpperBonus {
            threshold: 84,
            points: 100,
        },
        // Yatzy's: three rolls a turn, one free column, no joker, no extra bonus, the sum.
        ..YATZY
    }
}

/// Maxi Yatzy (six dice, 20 boxes).
pub const MAXI_YATZY: GameDescription = maxi_yatzy_game("maxi-yatzy", false);
/// Maxi Yatzy with the saved-rolls rule: the rolls a turn leaves unused may be used later.
pub const MAXI_YATZY_SAVED: GameDescription = maxi_yatzy_game("maxi-yatzy-saved", true);

impl RuleSet {
    /// The rule set as data.
    pub fn description(self) -> &'static GameDescription {
        match self {
            RuleSet::Yahtzee => &YAHTZEE,
            RuleSet::YahtzeeFree => &YAHTZEE_FREE,
            RuleSet::YahtzeeKurnik => &YAHTZEE_KURNIK,
            RuleSet::Yatzy => &YATZY,
            RuleSet::YahtzeeNoJoker => &YAHTZEE_NOJOKER,
            RuleSet::YahtzeePlain => &YAHTZEE_PLAIN,
            RuleSet::MaxiYatzy => &MAXI_YATZY,
            RuleSet::MaxiYatzySaved => &MAXI_YATZY_SAVED,
        }
    }
}

/// How a column's boxes may be filled; the kinds differ only in which box may come next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColumnKind {
    /// Top to bottom: only the topmost empty box.
    Down,
    /// Bottom to top: only the bottommost empty box.
    Up,
    /// Any empty box.
    Free,
    /// Any empty box, but only with the dice of the turn's first roll.
    Hand,
    /// Toward the middle: the topmost or the bottommost empty box.
    Outer,
    /// From the middle: Max or Min first, then any empty box next to a filled one.
    Inner,
    /// Announce (najava): the box announced after the turn's first roll, written at the end
    /// of the turn; where the rule set allows it, any empty box with a pure hand (the turn's
    /// last roll was of all the dice). Jamb's rule set decides (`JambRules::announce`).
    Announce,
}

impl ColumnKind {
    /// Every column kind.
    pub const ALL: [ColumnKind; 7] = [
        ColumnKind::Down,
        ColumnKind::Up,
        ColumnKind::Free,
        ColumnKind::Hand,
        ColumnKind::Outer,
        ColumnKind::Inner,
        ColumnKind::Announce,
    ];

    /// The kind's letter: `D`, `U`, `F`, `H`, `O`, `I`, `A`.
    pub fn code(self) -> char {
        match self {
            ColumnKind::Down => 'D',
            ColumnKind::Up => 'U',
            ColumnKind::Free => 'F',
            ColumnKind::Hand => 'H',
            ColumnKind::Outer => 'O',
            ColumnKind::Inner => 'I',
            ColumnKind::Announce => 'A',
        }
    }

    /// The kind with the given letter, case-insensitive.
    pub fn parse(code: char) -> Option<ColumnKind> {
        ColumnKind::ALL
            .into_iter()
            .find(|k| k.code().eq_ignore_ascii_case(&code))
    }
}

impl fmt::Display for ColumnKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{DICE, ROLLS};
    use crate::rules::jamb::{
        FourKindRule, FullHouseRule, JambBox, JambRules, JambScoring, MAX_ROLLS,
    };
    use crate::rules::{Category, Family};

    /// The most `roll` makes of groups of alike dice of different faces with these sizes (the
    /// sum of the dice in the groups), by trying every choice of faces; 0 when no choice fits.
    fn best_groups(roll: &Dice, sizes: &[u8]) -> u32 {
        fn search(counts: [u8; FACES], sizes: &[u8], used: u8) -> Option<u32> {
            let Some((&size, rest)) = sizes.split_first() else {
                return Some(0);
            };
            (1..=6u8)
                .filter(|&f| used & (1 << f) == 0 && counts[usize::from(f - 1)] >= size)
                .filter_map(|f| {
                    let more = search(counts, rest, used | 1 << f)?;
                    Some(u32::from(size) * u32::from(f) + more)
                })
                .max()
        }
        search(roll.counts(), sizes, 0).unwrap_or(0)
    }

    /// Maxi Yatzy's boxes scored as the rules page states them (docs/rules.md), written
    /// without the description: groups by trying every choice of faces.
    fn reference_maxi_score(category: Category, roll: &Dice) -> u32 {
        use Category::*;
        let counts = roll.counts();
        let all = |from: usize, to: usize| counts[from - 1..to].iter().all(|&c| c >= 1);
        match category {
            Ones | Twos | Threes | Fours | Fives | Sixes => {
                let f = category as u8 + 1;
                u32::from(f) * u32::from(roll.count(f))
            }
            OnePair => best_groups(roll, &[2]),
            TwoPairs => best_groups(roll, &[2, 2]),
            ThreePairs => best_groups(roll, &[2, 2, 2]),
            ThreeKind => best_groups(roll, &[3]),
            FourKind => best_groups(roll, &[4]),
            FiveKind => best_groups(roll, &[5]),
            SmallStraight => {
                if all(1, 5) {
                    15
                } else {
                    0
                }
            }
            LargeStraight => {
                if all(2, 6) {
                    20
                } else {
                    0
                }
            }
            FullStraight => {
                if all(1, 6) {
                    21
                } else {
                    0
                }
            }
            FullHouse => best_groups(roll, &[3, 2]),
            Villa => best_groups(roll, &[3, 3]),
            Tower => best_groups(roll, &[4, 2]),
            Chance => roll.sum(),
            Yahtzee => {
                if counts.contains(&6) {
                    100
                } else {
                    0
                }
            }
        }
    }

    /// The scoring of a box before the descriptions (issue 31), kept as the reference the
    /// interpreter must reproduce (five dice).
    fn reference_base_score(category: Category, family: Family, roll: &Dice) -> u32 {
        use Category::*;
        let when = |condition: bool, points: u32| if condition { points } else { 0 };
        let counts = roll.counts();
        let max_count = counts.iter().copied().max().unwrap_or(0);
        let has = |n: u8| counts.iter().any(|&c| c >= n);
        let top_with = |n: u8| (1..=6u32).rev().find(|&f| counts[f as usize - 1] >= n);
        let run = |from: usize, len: usize| counts[from..from + len].iter().all(|&c| c >= 1);
        let full_house = counts.contains(&3) && counts.contains(&2);
        match (category, family) {
            (Ones | Twos | Threes | Fours | Fives | Sixes, _) => {
                let f = category as u8 + 1;
                u32::from(f) * u32::from(roll.count(f))
            }
            (Chance, _) => roll.sum(),
            (Yahtzee, _) => when(max_count == 5, 50),
            (ThreeKind, Family::American) => when(has(3), roll.sum()),
            (FourKind, Family::American) => when(has(4), roll.sum()),
            (FullHouse, Family::American) => when(full_house, 25),
            (SmallStraight, Family::American) => when(run(0, 4) || run(1, 4) || run(2, 4), 30),
            (LargeStraight, Family::American) => when(run(0, 5) || run(1, 5), 40),
            (OnePair, _) => top_with(2).map_or(0, |f| 2 * f),
            (TwoPairs, _) => {
                let mut pairs = (1..=6u32).rev().filter(|&f| counts[f as usize - 1] >= 2);
                match (pairs.next(), pairs.next()) {
                    (Some(a), Some(b)) => 2 * (a + b),
                    _ => 0,
                }
            }
            (ThreeKind, Family::Scandinavian) => top_with(3).map_or(0, |f| 3 * f),
            (FourKind, Family::Scandinavian) => top_with(4).map_or(0, |f| 4 * f),
            (FullHouse, Family::Scandinavian) => when(full_house, roll.sum()),
            (SmallStraight, Family::Scandinavian) => when(run(0, 5), 15),
            (LargeStraight, Family::Scandinavian) => when(run(1, 5), 20),
            (ThreePairs | FiveKind | FullStraight | Villa | Tower, _) => {
                reference_maxi_score(category, roll)
            }
        }
    }

    /// The joker values before the descriptions.
    fn reference_joker_score(category: Category, roll: &Dice) -> u32 {
        match category {
            Category::FullHouse => 25,
            Category::SmallStraight => 30,
            Category::LargeStraight => 40,
            _ => reference_base_score(category, Family::American, roll),
        }
    }

    /// Jamb's `JambRules::points` before the descriptions.
    fn reference_jamb_points(
        rules: &JambRules,
        b: JambBox,
        dice: &Dice,
        roll_number: u8,
    ) -> Option<i32> {
        if dice.len() != DICE || !(1..=MAX_ROLLS).contains(&roll_number) {
            return None;
        }
        let counts = dice.counts();
        let face_of = |i: usize| i as i32 + 1;
        let sum: i32 = (0..FACES).map(|i| face_of(i) * i32::from(counts[i])).sum();
        let face_with = |n: u8| (0..FACES).find(|&i| counts[i] >= n).map(face_of);
        let points = match b {
            JambBox::Ones
            | JambBox::Twos
            | JambBox::Threes
            | JambBox::Fours
            | JambBox::Fives
            | JambBox::Sixes => {
                let i = b.index();
                face_of(i) * i32::from(counts[i])
            }
            JambBox::Max | JambBox::Min => sum,
            JambBox::Straight => {
                let low = counts[..5].iter().all(|&c| c == 1);
                let high = counts[1..].iter().all(|&c| c == 1);
                if low || high {
                    66 - 10 * (i32::from(roll_number) - 1)
                } else {
                    0
                }
            }
            JambBox::ThreeKind => face_with(3).map_or(0, |f| 3 * f + 20),
            JambBox::FullHouse => {
                let two_faces = counts.contains(&3) && counts.contains(&2);
                let five_alike = counts.contains(&5);
                if two_faces || (five_alike && rules.full_house == FullHouseRule::FiveAlikeToo) {
                    sum + 30
                } else {
                    0
                }
            }
            JambBox::FourKind => match (face_with(4), rules.four_kind) {
                (Some(f), FourKindRule::FourDicePlus40) => 4 * f + 40,
                (Some(_), FourKindRule::AllDicePlus40) => sum + 40,
                (None, _) => 0,
            },
            JambBox::Jamb => face_with(5).map_or(0, |f| 5 * f + 50),
        };
        Some(points)
    }

    fn dice(s: &str) -> Dice {
        let faces: Vec<u8> = s.bytes().map(|b| b - b'0').collect();
        Dice::from_faces_up_to(&faces, crate::dice::MAX_DICE).unwrap()
    }

    #[test]
    fn jokers_and_bonuses_of_every_rule_set() {
        use ExtraBonus::*;
        use JokerRule::*;
        let expected = [
            (RuleSet::Yahtzee, Forced, WhenYahtzee50, 35),
            (RuleSet::YahtzeeFree, FreeChoice, WhenYahtzee50, 35),
            (RuleSet::YahtzeeKurnik, Kurnik, JokerWhenYahtzee50, 35),
            (RuleSet::Yatzy, None, Never, 50),
            (RuleSet::YahtzeeNoJoker, None, WhenYahtzee50, 35),
            (RuleSet::YahtzeePlain, None, Never, 35),
        ];
        for (rules, joker, extra, upper_bonus) in expected {
            let description = rules.description();
            assert_eq!(description.joker, joker, "{rules}");
            assert_eq!(description.extra_bonus.when, extra, "{rules}");
            assert_eq!(description.upper_bonus.points, upper_bonus, "{rules}");
            assert_eq!(description.upper_bonus.threshold, 63, "{rules}");
            if extra != Never {
                assert_eq!(description.extra_bonus.points, 100, "{rules}");
            }
        }
    }

    #[test]
    fn descriptions_name_the_boxes_of_their_rule_sets() {
        for rules in RuleSet::ALL {
            let maxi = matches!(rules, RuleSet::MaxiYatzy | RuleSet::MaxiYatzySaved);
            assert_eq!(rules.saves_rolls(), rules == RuleSet::MaxiYatzySaved);
            assert_eq!(rules.upper_threshold(), if maxi { 84 } else { 63 });
            let description = rules.description();
            assert_eq!(description.name, rules.name());
            let codes: Vec<&str> = description.boxes.iter().map(|b| b.code).collect();
            let expected: Vec<&str> = rules.boxes().iter().map(|c| c.code()).collect();
            assert_eq!(codes, expected, "{rules}");
            assert_eq!(description.joker, rules.joker(), "{rules}");
            assert_eq!(description.extra_bonus.when, rules.extra_bonus(), "{rules}");
            assert_eq!(
                description.upper_bonus.points,
                rules.upper_bonus(),
                "{rules}"
            );
            assert_eq!(
                (description.dice, description.turns()),
                (if maxi { 6 } else { 5 }, rules.box_count())
            );
            assert_eq!(rules.dice_space().dice(), description.dice, "{rules}");
        }
        for rules in JambRules::ALL {
            let description = rules.description();
            let codes: Vec<&str> = description.boxes.iter().map(|b| b.code).collect();
            let expected: Vec<&str> = JambBox::ALL.iter().map(|b| b.code()).collect();
            assert_eq!(codes, expected, "{rules}");
            assert_eq!(description.turns(), rules.turns(), "{rules}");
            assert_eq!(description.rolls_in_turn(0), MAX_ROLLS);
        }
    }

    #[test]
    fn every_six_dice_roll_scores_in_every_maxi_yatzy_box_as_the_rules_state() {
        for rules in [RuleSet::MaxiYatzy, RuleSet::MaxiYatzySaved] {
            let description = rules.description();
            assert_eq!((description.dice, description.turns()), (6, 20));
            for roll in description.dice_space().rolls() {
                for (b, &category) in rules.boxes().iter().enumerate() {
                    let by_description = description.boxes[b].scoring.points(roll, 1);
                    let expected = reference_maxi_score(category, roll);
                    assert_eq!(by_description, expected, "{rules} {roll} {category}");
                    assert_eq!(rules.box_points(b, roll), expected, "{rules} {roll}");
                }
            }
        }
    }

    #[test]
    fn saved_rolls_carry_over_only_under_the_saved_rolls_rule() {
        // Without the rule every turn has its three rolls, whatever it left before.
        assert_eq!(MAXI_YATZY.rolls_available(0, 0), 3);
        assert_eq!(MAXI_YATZY.saved_after(3, 1), 0);
        assert_eq!(MAXI_YATZY.rolls_available(5, 2), 3);
        // With it: a turn of one roll saves two, the next turn has five; using four of them
        // leaves one, so the turn after has four.
        let d = MAXI_YATZY_SAVED;
        let first = d.rolls_available(0, 0);
        assert_eq!(first, 3);
        let saved = d.saved_after(first, 1);
        assert_eq!(saved, 2);
        let second = d.rolls_available(1, saved);
        assert_eq!(second, 5);
        let saved = d.saved_after(second, 4);
        assert_eq!((saved, d.rolls_available(2, saved)), (1, 4));
        // A game that always stops after the first roll ends with 2 x 19 rolls saved for
        // its last turn: 41 rolls.
        let mut saved = 0;
        for turn in 0..d.turns() - 1 {
            saved = d.saved_after(d.rolls_available(turn, saved), 1);
        }
        assert_eq!(d.rolls_available(d.turns() - 1, saved), 41);
        assert!(!YATZY.saved_rolls && !JambRules::JAMB_5.description().saved_rolls);
    }

    #[test]
    fn maxi_yatzy_hand_computed_scores() {
        let points = |code: &str, roll: &str| {
            let b = MAXI_YATZY.box_index(code).unwrap();
            MAXI_YATZY.boxes[b].scoring.points(&dice(roll), 1)
        };
        // The rules page's own examples.
        assert_eq!(points("1", "311614"), 3);
        assert_eq!(points("6", "463166"), 18);
        assert_eq!(points("1P", "642651"), 12);
        assert_eq!(points("2P", "213355"), 16);
        assert_eq!(points("3P", "225566"), 26);
        assert_eq!(points("3K", "453554"), 15);
        assert_eq!(points("4K", "242252"), 8);
        assert_eq!(points("5K", "332333"), 15);
        assert_eq!(points("SS", "123453"), 15);
        assert_eq!(points("LS", "234566"), 20);
        assert_eq!(points("FS", "123456"), 21);
        assert_eq!(points("FH", "344666"), 26);
        assert_eq!(points("VI", "222555"), 21);
        assert_eq!(points("TO", "336666"), 30);
        assert_eq!(points("C", "342654"), 24);
        assert_eq!(points("Y", "444444"), 100);
        // Five counted dice of six: the highest pair and the three, not the sixth die.
        assert_eq!(points("FH", "223336"), 13);
        assert_eq!(points("FH", "556661"), 28);
        // A villa is a full house too (the three and a pair of the other three), a tower is
        // a full house and two pairs; three pairs need three faces.
        assert_eq!(points("FH", "333666"), 24);
        assert_eq!(points("FH", "111155"), 13);
        assert_eq!(points("2P", "111155"), 12);
        assert_eq!(points("3P", "111155"), 0);
        assert_eq!(points("TO", "666611"), 26);
        // Six alike is no pattern of different faces: not two or three pairs, not a full
        // house, villa or tower; it is three, four and five of a kind, and Maxi Yatzy.
        for code in ["2P", "3P", "FH", "VI", "TO", "SS"] {
            assert_eq!(points(code, "555555"), 0, "{code}");
        }
        assert_eq!(points("3K", "555555"), 15);
        assert_eq!(points("4K", "555555"), 20);
        assert_eq!(points("5K", "555555"), 25);
        assert_eq!(points("1P", "555555"), 10);
        // Patterns missing score 0.
        assert_eq!(points("FS", "123455"), 0);
        assert_eq!(points("SS", "234566"), 0);
        assert_eq!(points("LS", "123451"), 0);
        assert_eq!(points("VI", "222553"), 0);
        assert_eq!(points("TO", "222255"), 18);
        assert_eq!(points("TO", "222253"), 0);
        assert_eq!(points("5K", "222233"), 0);
        assert_eq!(points("Y", "222223"), 0);
        assert_eq!(points("3P", "112234"), 0);
    }

    #[test]
    fn every_roll_scores_as_before_in_every_box_of_every_rule_set() {
        for rules in RuleSet::FIVE_DICE {
            let description = rules.description();
            for r in 0..ROLLS {
                let roll = Dice::roll(r);
                for (b, category) in rules.boxes().iter().enumerate() {
                    let scoring = description.boxes[b].scoring;
                    let expected = reference_base_score(*category, rules.family(), &roll);
                    assert_eq!(
                        scoring.points(&roll, 1),
                        expected,
                        "{rules} {roll} {category}"
                    );
                    // The Yahtzee box takes no joker: five alike scores there as it is.
                    if rules.family() == Family::American && *category != Category::Yahtzee {
                        assert_eq!(
                            scoring.joker_points(&roll, 1),
                            reference_joker_score(*category, &roll),
                            "joker {rules} {roll} {category}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_jamb_roll_scores_as_before_under_every_variant() {
        let variants = [
            (FourKindRule::FourDicePlus40, FullHouseRule::TwoFaces),
            (FourKindRule::AllDicePlus40, FullHouseRule::TwoFaces),
            (FourKindRule::FourDicePlus40, FullHouseRule::FiveAlikeToo),
            (FourKindRule::AllDicePlus40, FullHouseRule::FiveAlikeToo),
        ];
        let classic = JambRules::ALL
            .into_iter()
            .filter(|r| r.scoring == JambScoring::Classic);
        for named in classic {
            for (four_kind, full_house) in variants {
                let rules = JambRules {
                    four_kind,
                    full_house,
                    ..named
                };
                let description = rules.description();
                for r in 0..ROLLS {
                    let roll = Dice::roll(r);
                    for b in JambBox::ALL {
                        for roll_number in 0..=MAX_ROLLS + 1 {
                            let expected = reference_jamb_points(&rules, b, &roll, roll_number);
                            assert_eq!(
                                rules.points(b, &roll, roll_number),
                                expected,
                                "{rules:?} {roll} {b} {roll_number}"
                            );
                            if expected.is_some() {
                                let by_description = description.boxes[b.index()]
                                    .scoring
                                    .points(&roll, roll_number);
                                assert_eq!(
                                    i32::try_from(by_description).ok(),
                                    expected,
                                    "{rules:?} {roll} {b} {roll_number}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn hand_computed_scores() {
        let points = |description: &GameDescription, code: &str, roll: &str| {
            let b = description.box_index(code).unwrap();
            description.boxes[b].scoring.points(&dice(roll), 1)
        };
        assert_eq!(points(&YAHTZEE, "SS", "13456"), 30);
        assert_eq!(points(&YAHTZEE, "FH", "22333"), 25);
        assert_eq!(points(&YAHTZEE, "FH", "33333"), 0);
        assert_eq!(points(&YAHTZEE, "4K", "22223"), 11);
        assert_eq!(points(&YATZY, "2P", "33441"), 14);
        assert_eq!(points(&YATZY, "2P", "33331"), 0);
        assert_eq!(points(&YATZY, "FH", "22333"), 13);
        assert_eq!(points(&YATZY, "LS", "12345"), 0);
        let jamb = JambRules::JAMB_5.description();
        let jamb_points = |code: &str, roll: &str, roll_number: u8| {
            let b = jamb.box_index(code).unwrap();
            jamb.boxes[b].scoring.points(&dice(roll), roll_number)
        };
        assert_eq!(jamb_points("K", "23456", 2), 56);
        assert_eq!(jamb_points("P", "55552", 1), 60);
        assert_eq!(jamb_points("F", "66655", 3), 58);
        assert_eq!(jamb_points("J", "33333", 1), 65);
        assert_eq!(
            jamb.final_score,
            FinalScore::ColumnsWithMiddle {
                high: 6,
                low: 7,
                times: 0,
                never_negative: false,
            }
        );
    }

    #[test]
    fn six_dice_payoffs_best_five_and_runs() {
        let six = |faces: [u8; 6]| Dice::from_counts(faces);
        let counted = |pattern: Pattern, payoff: Payoff, dice: &Dice| {
            Scoring { pattern, payoff }.points(dice, 1)
        };
        // 1 2 2 5 6 6: the five highest 2+2+5+6+6, the five lowest 1+2+2+5+6.
        let spread = six([1, 2, 0, 0, 1, 2]);
        assert_eq!(
            counted(Pattern::Any, Payoff::HighestDice { count: 5 }, &spread),
            21
        );
        assert_eq!(
            counted(Pattern::Any, Payoff::LowestDice { count: 5 }, &spread),
            16
        );
        // Six fours: at most five count.
        let fours = six([0, 0, 0, 6, 0, 0]);
        let at_most_five = Pattern::FaceAtMost { face: 4, most: 5 };
        assert_eq!(counted(at_most_five, PATTERN_SUM, &fours), 20);
        assert_eq!(counted(Pattern::Face(4), PATTERN_SUM, &fours), 24);
        // Runs by their order: both present, the first listed counts.
        let both = six([1, 1, 1, 1, 1, 1]);
        let runs = Pattern::Straight(&[(2, 6), (1, 5)]);
        assert_eq!(counted(runs, Payoff::ByRun(&[50, 45]), &both), 50);
        let low = six([2, 1, 1, 1, 1, 0]);
        assert_eq!(counted(runs, Payoff::ByRun(&[50, 45]), &low), 45);
        let none = six([2, 2, 0, 1, 1, 0]);
        assert_eq!(counted(runs, Payoff::ByRun(&[50, 45]), &none), 0);
        assert_eq!(
            counted(Pattern::Any, Payoff::ByRun(&[50]), &both),
            0,
            "no straight pattern, no run"
        );
    }

    #[test]
    fn six_dice_patterns() {
        let six = |faces: [u8; 6]| Dice::from_counts(faces);
        // 333 666 (counts per face): a villa, a full house, three pairs.
        let villa = six([0, 0, 3, 0, 0, 3]);
        let pattern = |sizes: &'static [u8]| Scoring {
            pattern: groups(sizes),
            payoff: PATTERN_SUM,
        };
        assert_eq!(pattern(&[3, 3]).points(&villa, 1), 27);
        assert_eq!(pattern(&[3, 2]).points(&villa, 1), 18 + 6);
        assert_eq!(pattern(&[2, 2, 2]).points(&villa, 1), 0);
        // 1111 55: a tower, two pairs, three pairs refused.
        let tower = six([4, 0, 0, 0, 2, 0]);
        assert_eq!(pattern(&[4, 2]).points(&tower, 1), 14);
        assert_eq!(pattern(&[2, 2]).points(&tower, 1), 12);
        assert_eq!(pattern(&[6]).points(&tower, 1), 0);
        let straight = Scoring {
            pattern: Pattern::Straight(&[(1, 6)]),
            payoff: Payoff::Fixed(30),
        };
        assert_eq!(straight.points(&six([1, 1, 1, 1, 1, 1]), 1), 30);
        assert_eq!(straight.points(&six([2, 0, 1, 1, 1, 1]), 1), 0);
    }
}
