//! The rule sets: categories, scoring, jokers and bonuses. Everything the rest of the program
//! knows about scoring comes from here (see `docs/rules.md`).

pub mod description;
mod game;
pub mod jamb;
pub(crate) mod play;
mod sheet;

pub use game::{GameFamily, GameRules, PlayerSheet, Refused, Written};
pub use sheet::{upper_totals, upper_totals_with, Sheet, SheetError};

use crate::dice::Dice;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// A box (category) of a score sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
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
    /// Yatzy: one pair (sum of the highest pair).
    OnePair,
    /// Yatzy: two pairs of different faces (their sum).
    TwoPairs,
    /// Three of a kind.
    ThreeKind,
    /// Four of a kind.
    FourKind,
    /// Full house.
    FullHouse,
    /// Small straight.
    SmallStraight,
    /// Large straight.
    LargeStraight,
    /// Chance.
    Chance,
    /// Yahtzee (Yatzy): five of a kind; in Maxi Yatzy six of a kind.
    Yahtzee,
    /// Maxi Yatzy: three pairs of different faces (their sum).
    ThreePairs,
    /// Maxi Yatzy: five of a kind (the five dice's sum).
    FiveKind,
    /// Maxi Yatzy: the full straight 1-6.
    FullStraight,
    /// Maxi Yatzy: a villa, two threes of a kind of different faces (their sum).
    Villa,
    /// Maxi Yatzy: a tower, four of a kind and a pair of another face (their sum).
    Tower,
}

impl Category {
    /// The YGN code of the category (`1`..`6`, `1P`, `2P`, `3K`, `4K`, `FH`, `SS`, `LS`, `C`,
    /// `Y`; Maxi Yatzy's `3P`, `5K`, `FS`, `VI`, `TO`).
    pub fn code(self) -> &'static str {
        use Category::*;
        match self {
            Ones => "1",
            Twos => "2",
            Threes => "3",
            Fours => "4",
            Fives => "5",
            Sixes => "6",
            OnePair => "1P",
            TwoPairs => "2P",
            ThreeKind => "3K",
            FourKind => "4K",
            FullHouse => "FH",
            SmallStraight => "SS",
            LargeStraight => "LS",
            Chance => "C",
            Yahtzee => "Y",
            ThreePairs => "3P",
            FiveKind => "5K",
            FullStraight => "FS",
            Villa => "VI",
            Tower => "TO",
        }
    }

    /// The face of an upper box (1..=6), `None` for lower boxes.
    pub fn upper_face(self) -> Option<u8> {
        let i = self as u8;
        (i < 6).then_some(i + 1)
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The two families of sheets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Yahtzee: 13 boxes, bonus 35, jokers.
    American,
    /// Yatzy (15 boxes, bonus 50) and Maxi Yatzy (20 boxes, six dice, bonus 100): no jokers.
    Scandinavian,
}

/// When five of a kind scored outside the Yahtzee box counts as a joker, and which boxes it may go to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JokerRule {
    /// Official rules: with the Yahtzee box filled, the upper box of the face if free, else
    /// any free lower box with joker values, else any upper box for 0.
    Forced,
    /// Free choice; joker values when the Yahtzee box is filled and the face's upper box is filled.
    FreeChoice,
    /// kurnik.pl: free choice; a joker when scored in the face's upper box or that box is filled.
    Kurnik,
    /// Never a joker.
    None,
}

/// When the +100 extra-Yahtzee bonus is paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtraBonus {
    /// For every further five of a kind once the Yahtzee box holds 50.
    WhenYahtzee50,
    /// Only for a joker, and only when the Yahtzee box holds 50.
    JokerWhenYahtzee50,
    /// Never.
    Never,
}

/// The named rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleSet {
    /// Official Yahtzee, forced joker.
    Yahtzee,
    /// Free-choice joker (Verhoeff's rules).
    YahtzeeFree,
    /// kurnik.pl's rules (the 2008 thesis).
    YahtzeeKurnik,
    /// Scandinavian Yatzy.
    Yatzy,
    /// Variant: extra-Yahtzee bonus, no joker.
    YahtzeeNoJoker,
    /// Variant: neither joker nor extra-Yahtzee bonus.
    YahtzeePlain,
    /// Maxi Yatzy: six dice, twenty boxes.
    MaxiYatzy,
    /// Maxi Yatzy where the rolls a turn leaves unused are saved for later turns.
    MaxiYatzySaved,
}

const AMERICAN_BOXES: [Category; 13] = {
    use Category::*;
    [
        Ones,
        Twos,
        Threes,
        Fours,
        Fives,
        Sixes,
        ThreeKind,
        FourKind,
        FullHouse,
        SmallStraight,
        LargeStraight,
        Yahtzee,
        Chance,
    ]
};

const SCANDINAVIAN_BOXES: [Category; 15] = {
    use Category::*;
    [
        Ones,
        Twos,
        Threes,
        Fours,
        Fives,
        Sixes,
        OnePair,
        TwoPairs,
        ThreeKind,
        FourKind,
        SmallStraight,
        LargeStraight,
        FullHouse,
        Chance,
        Yahtzee,
    ]
};

const MAXI_YATZY_BOXES: [Category; 20] = {
    use Category::*;
    [
        Ones,
        Twos,
        Threes,
        Fours,
        Fives,
        Sixes,
        OnePair,
        TwoPairs,
        ThreePairs,
        ThreeKind,
        FourKind,
        FiveKind,
        SmallStraight,
        LargeStraight,
        FullStraight,
        FullHouse,
        Villa,
        Tower,
        Chance,
        Yahtzee,
    ]
};

/// Number of upper boxes; they are always boxes 0..6 (ones to sixes).
pub const UPPER_BOXES: usize = 6;
/// Upper total that earns the upper bonus.
pub const UPPER_THRESHOLD: u32 = 63;
/// The extra-Yahtzee bonus.
pub const EXTRA_YAHTZEE_BONUS: u32 = 100;

/// One cell per rule set of [`RuleSet::ALL`], for [`RuleSet::once`]; a `static` of it is
/// `[const { OnceLock::new() }; RuleSet::ALL.len()]`.
pub(crate) type PerRuleSet<T> = [std::sync::OnceLock<T>; RuleSet::ALL.len()];

impl RuleSet {
    /// The four rule sets of the product, in the order reports list them.
    pub const MAIN: [RuleSet; 4] = [
        RuleSet::Yahtzee,
        RuleSet::YahtzeeFree,
        RuleSet::YahtzeeKurnik,
        RuleSet::Yatzy,
    ];
    /// Every rule set, variants included.
    pub const ALL: [RuleSet; 8] = [
        RuleSet::Yahtzee,
        RuleSet::YahtzeeFree,
        RuleSet::YahtzeeKurnik,
        RuleSet::Yatzy,
        RuleSet::YahtzeeNoJoker,
        RuleSet::YahtzeePlain,
        RuleSet::MaxiYatzy,
        RuleSet::MaxiYatzySaved,
    ];
    /// The rule sets of five dice (every one but Maxi Yatzy's): their tables build in seconds.
    pub const FIVE_DICE: [RuleSet; 6] = [
        RuleSet::Yahtzee,
        RuleSet::YahtzeeFree,
        RuleSet::YahtzeeKurnik,
        RuleSet::Yatzy,
        RuleSet::YahtzeeNoJoker,
        RuleSet::YahtzeePlain,
    ];

    /// The value of `init` for this rule set, computed once and kept in `cells` (one cell per
    /// rule set of [`RuleSet::ALL`]): for tables derived from the rules.
    pub fn once<T>(self, cells: &'static PerRuleSet<T>, init: impl FnOnce() -> T) -> &'static T {
        let slot = RuleSet::ALL.iter().position(|&r| r == self).unwrap_or(0);
        cells[slot].get_or_init(init)
    }

    /// The name used by `--rules` and the YGN `Rules` tag.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Yahtzee => "yahtzee",
            RuleSet::YahtzeeFree => "yahtzee-free",
            RuleSet::YahtzeeKurnik => "yahtzee-kurnik",
            RuleSet::Yatzy => "yatzy",
            RuleSet::YahtzeeNoJoker => "yahtzee-nojoker",
            RuleSet::YahtzeePlain => "yahtzee-plain",
            RuleSet::MaxiYatzy => "maxi-yatzy",
            RuleSet::MaxiYatzySaved => "maxi-yatzy-saved",
        }
    }

    /// The published expected final score of an empty sheet under optimal play (docs/rules.md);
    /// `None` where no value is published (Maxi Yatzy).
    pub fn published_empty_sheet_value(self) -> Option<f64> {
        match self {
            RuleSet::Yahtzee => Some(254.5877287),
            RuleSet::YahtzeeFree => Some(254.5896095),
            RuleSet::YahtzeeKurnik => Some(254.589374),
            RuleSet::Yatzy => Some(248.4399894),
            RuleSet::YahtzeeNoJoker => Some(253.9702412),
            RuleSet::YahtzeePlain => Some(245.8707745),
            RuleSet::MaxiYatzy | RuleSet::MaxiYatzySaved => None,
        }
    }

    /// Which family of sheet the rule set uses.
    pub fn family(self) -> Family {
        match self {
            RuleSet::Yatzy | RuleSet::MaxiYatzy | RuleSet::MaxiYatzySaved => Family::Scandinavian,
            _ => Family::American,
        }
    }

    /// The boxes of the sheet in sheet order; box `i` is bit `i` of a filled mask.
    pub fn boxes(self) -> &'static [Category] {
        match self {
            RuleSet::MaxiYatzy | RuleSet::MaxiYatzySaved => &MAXI_YATZY_BOXES,
            _ => match self.family() {
                Family::American => &AMERICAN_BOXES,
                Family::Scandinavian => &SCANDINAVIAN_BOXES,
            },
        }
    }

    /// True when the rolls a turn leaves unused are saved for later turns
    /// ([`description::GameDescription::saved_rolls`]).
    pub fn saves_rolls(self) -> bool {
        self.description().saved_rolls
    }

    /// Number of boxes (turns per game).
    pub fn box_count(self) -> usize {
        self.boxes().len()
    }

    /// Mask with every box filled.
    pub fn full_mask(self) -> u32 {
        (1u32 << self.box_count()) - 1
    }

    /// Index of the Yahtzee (Yatzy) box.
    pub fn yahtzee_box(self) -> usize {
        self.box_of(Category::Yahtzee).unwrap_or(0)
    }

    /// Index of a category's box, if the rule set has it.
    pub fn box_of(self, category: Category) -> Option<usize> {
        self.boxes().iter().position(|&c| c == category)
    }

    /// The rolls and keeps of the rule set's dice ([`description::GameDescription::dice_space`]).
    pub fn dice_space(self) -> &'static crate::dice::DiceSpace {
        self.description().dice_space()
    }

    /// Rolls a turn may use.
    pub fn rolls_per_turn(self) -> u8 {
        self.description().rolls_per_turn
    }

    /// The upper total that earns the upper bonus (63 in today's rule sets).
    pub fn upper_threshold(self) -> u32 {
        self.description().upper_bonus.threshold
    }

    /// Bit set of the upper totals the upper boxes in `mask` can make with the rule set's
    /// dice ([`upper_totals_with`]).
    pub fn upper_totals(self, mask: u8) -> u128 {
        upper_totals_with(mask, self.description().dice)
    }

    /// The upper bonus (35 or 50).
    pub fn upper_bonus(self) -> u32 {
        self.description().upper_bonus.points
    }

    /// The joker convention.
    pub fn joker(self) -> JokerRule {
        self.description().joker
    }

    /// The extra-Yahtzee bonus convention.
    pub fn extra_bonus(self) -> ExtraBonus {
        self.description().extra_bonus.when
    }

    /// True when the sheet must remember whether the Yahtzee box holds 50 (`Y0` / `Y50`).
    pub fn tracks_yahtzee_50(self) -> bool {
        self.extra_bonus() != ExtraBonus::Never
    }

    /// The box with the given code (case-insensitive); in rule sets that track it, `Y0` and
    /// `Y50` name the Yahtzee box with its content, returned as the second value.
    pub fn parse_box(self, code: &str) -> Option<(usize, Option<bool>)> {
        let upper = code.to_ascii_uppercase();
        if self.tracks_yahtzee_50() {
            match upper.as_str() {
                "Y0" => return Some((self.yahtzee_box(), Some(false))),
                "Y50" => return Some((self.yahtzee_box(), Some(true))),
                _ => {}
            }
        }
        let i = self.boxes().iter().position(|c| c.code() == upper)?;
        Some((i, None))
    }

    /// The codes `--filled` accepts, for error messages.
    pub fn box_codes(self) -> String {
        let mut codes: Vec<&str> = self.boxes().iter().map(|c| c.code()).collect();
        if self.tracks_yahtzee_50() {
            let y = self.yahtzee_box();
            codes.splice(y..=y, ["Y0", "Y50"]);
        }
        codes.join(", ")
    }

    /// Points of `roll` in box `b` under ordinary scoring (no joker, no bonus); 0 past the
    /// last box.
    pub fn box_points(self, b: usize, roll: &Dice) -> u32 {
        let boxes = self.box_count();
        match self.dice_space().roll_index(roll) {
            Some(r) if b < boxes => u32::from(self.box_points_of_rolls()[r * boxes + b]),
            _ => self.box_points_interpreted(b, roll),
        }
    }

    /// [`RuleSet::box_points`] from the description's scoring interpreter.
    fn box_points_interpreted(self, b: usize, roll: &Dice) -> u32 {
        self.description()
            .boxes
            .get(b)
            .map_or(0, |rule| rule.scoring.points(roll, 1))
    }

    /// The points of every roll of the rule set's dice in every box (roll-major), computed once per rule
    /// set by the interpreter: the replay and the oracles score every option of every
    /// decision, and a lookup keeps the interpreter out of those loops.
    fn box_points_of_rolls(self) -> &'static [u16] {
        static TABLES: PerRuleSet<Vec<u16>> = [const { OnceLock::new() }; RuleSet::ALL.len()];
        self.once(&TABLES, || {
            self.dice_space()
                .rolls()
                .iter()
                .flat_map(|roll| {
                    (0..self.box_count()).map(move |b| {
                        u16::try_from(self.box_points_interpreted(b, roll)).unwrap_or(u16::MAX)
                    })
                })
                .collect::<Vec<u16>>()
        })
        .as_slice()
    }

    /// How `roll` scores in box `b` of a sheet with `filled` boxes (`yahtzee_50`: the Yahtzee
    /// box holds 50), jokers and extra bonus included; `None` if the box may not be used now.
    pub fn score(self, filled: u32, yahtzee_50: bool, roll: &Dice, b: usize) -> Option<Scored> {
        if b >= self.box_count() || filled & (1 << b) != 0 {
            return None;
        }
        let scoring = self.description().boxes.get(b)?.scoring;
        let ordinary = Scored {
            points: self.box_points(b, roll),
            extra: 0,
        };
        let Some(face) = roll.five_of_a_kind() else {
            return Some(ordinary);
        };
        let y = self.yahtzee_box();
        if b == y {
            return Some(ordinary);
        }
        let y_filled = filled & (1 << y) != 0;
        let face_box_filled = filled & (1 << (face - 1)) != 0;
        let is_face_box = b == usize::from(face - 1);
        let joker = match self.joker() {
            JokerRule::Forced => {
                if !y_filled {
                    false
                } else if !face_box_filled {
                    if !is_face_box {
                        return None;
                    }
                    true
                } else {
                    let lower_free =
                        (UPPER_BOXES..self.box_count()).any(|i| i != y && filled & (1 << i) == 0);
                    if lower_free && b < UPPER_BOXES {
                        return None;
                    }
                    true
                }
            }
            JokerRule::FreeChoice => y_filled && face_box_filled,
            JokerRule::Kurnik => is_face_box || face_box_filled,
            JokerRule::None => false,
        };
        let extra = match self.extra_bonus() {
            ExtraBonus::WhenYahtzee50 if yahtzee_50 => self.description().extra_bonus.points,
            ExtraBonus::JokerWhenYahtzee50 if yahtzee_50 && joker => {
                self.description().extra_bonus.points
            }
            _ => 0,
        };
        let joker_values = joker && self.joker() != JokerRule::None;
        let points = if joker_values {
            scoring.joker_points(roll, 1)
        } else {
            ordinary.points
        };
        Some(Scored { points, extra })
    }

    /// Mask of the boxes `roll` may be scored in now.
    pub fn legal_boxes(self, filled: u32, yahtzee_50: bool, roll: &Dice) -> u32 {
        (0..self.box_count())
            .filter(|&b| self.score(filled, yahtzee_50, roll, b).is_some())
            .fold(0, |m, b| m | (1 << b))
    }
}

/// What a player does after a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Keep these dice and roll the others.
    Keep(Dice),
    /// Score the roll in this box now.
    Score(Category),
    /// Jamb: write the roll in this cell (column and box) now.
    Write(jamb::Cell),
}

impl fmt::Display for Choice {
    /// `keep 234`, `keep -` (reroll all) or `score 3K`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Keep(d) => write!(f, "keep {d}"),
            Choice::Score(c) => write!(f, "score {c}"),
            Choice::Write(cell) => write!(f, "write {}:{}", cell.column, cell.jbox),
        }
    }
}

/// Points a turn scores in its box, and the extra-Yahtzee bonus it earns (upper bonus apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    /// Points written in the box.
    pub points: u32,
    /// Extra-Yahtzee bonus (0 or 100).
    pub extra: u32,
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown rule-set name: the name, and the names that were accepted where it was
/// given (the single-column rule sets where only those are, every rule set where Jamb's are too),
/// so that the message never lists a name that would have been refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRuleSet(pub String, pub Vec<&'static str>);

impl fmt::Display for UnknownRuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule set '{}' (expected one of {})",
            self.0,
            self.1.join(", ")
        )
    }
}

impl std::error::Error for UnknownRuleSet {}

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownRuleSet(s.to_string(), RuleSet::ALL.map(RuleSet::name).to_vec()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ROLLS;

    #[test]
    fn looked_up_box_points_are_the_interpreters() {
        for rules in RuleSet::ALL {
            for r in 0..ROLLS {
                let roll = Dice::roll(r);
                for b in 0..=rules.box_count() {
                    assert_eq!(
                        rules.box_points(b, &roll),
                        rules.box_points_interpreted(b, &roll),
                        "{rules} {roll} {b}"
                    );
                }
            }
        }
    }

    fn roll(s: &str) -> Dice {
        let faces: Vec<u8> = s.bytes().map(|b| b - b'0').collect();
        Dice::from_faces(&faces).unwrap()
    }

    fn pts(r: RuleSet, cat: Category, dice: &str) -> u32 {
        r.box_points(r.box_of(cat).unwrap(), &roll(dice))
    }

    #[test]
    fn american_scoring() {
        use Category::*;
        let y = RuleSet::Yahtzee;
        assert_eq!(pts(y, Fours, "14424"), 12);
        assert_eq!(pts(y, ThreeKind, "33345"), 18);
        assert_eq!(pts(y, ThreeKind, "33445"), 0);
        assert_eq!(pts(y, FourKind, "22223"), 11);
        assert_eq!(pts(y, FullHouse, "22333"), 25);
        assert_eq!(pts(y, FullHouse, "33333"), 0);
        assert_eq!(pts(y, SmallStraight, "12346"), 30);
        assert_eq!(pts(y, SmallStraight, "13456"), 30);
        assert_eq!(pts(y, SmallStraight, "12456"), 0);
        assert_eq!(pts(y, LargeStraight, "23456"), 40);
        assert_eq!(pts(y, LargeStraight, "12346"), 0);
        assert_eq!(pts(y, Yahtzee, "55555"), 50);
        assert_eq!(pts(y, Chance, "12346"), 16);
    }

    #[test]
    fn yatzy_scoring() {
        use Category::*;
        let s = RuleSet::Yatzy;
        assert_eq!(pts(s, OnePair, "33441"), 8);
        assert_eq!(pts(s, OnePair, "12345"), 0);
        assert_eq!(pts(s, TwoPairs, "33441"), 14);
        assert_eq!(
            pts(s, TwoPairs, "33331"),
            0,
            "four of a kind is not two pairs"
        );
        assert_eq!(pts(s, TwoPairs, "33322"), 10);
        assert_eq!(
            pts(s, TwoPairs, "33412"),
            0,
            "a single pair is not two pairs"
        );
        assert_eq!(pts(s, ThreeKind, "55552"), 15);
        assert_eq!(pts(s, FourKind, "55555"), 20);
        assert_eq!(pts(s, SmallStraight, "12345"), 15);
        assert_eq!(pts(s, SmallStraight, "23456"), 0);
        assert_eq!(pts(s, LargeStraight, "23456"), 20);
        assert_eq!(pts(s, FullHouse, "22333"), 13);
        assert_eq!(pts(s, FullHouse, "22222"), 0);
        assert_eq!(pts(s, Yahtzee, "22222"), 50);
    }

    /// Bit mask of boxes by code.
    fn mask(r: RuleSet, codes: &[&str]) -> u32 {
        codes
            .iter()
            .fold(0, |m, c| m | 1 << r.parse_box(c).unwrap().0)
    }

    #[test]
    fn forced_joker() {
        let r = RuleSet::Yahtzee;
        let fives = roll("55555");
        let fh = r.box_of(Category::FullHouse).unwrap();
        let five_box = 4;
        // Yahtzee box free: ordinary scoring anywhere.
        assert_eq!(
            r.score(0, false, &fives, fh),
            Some(Scored {
                points: 0,
                extra: 0
            })
        );
        // Yahtzee box 50, fives free: only the fives box, with the bonus.
        let y50 = mask(r, &["Y50"]);
        assert_eq!(r.legal_boxes(y50, true, &fives), 1 << five_box);
        assert_eq!(
            r.score(y50, true, &fives, five_box),
            Some(Scored {
                points: 25,
                extra: 100
            })
        );
        // Fives filled: any free lower box with joker values.
        let m = mask(r, &["Y0", "5"]);
        assert_eq!(
            r.score(m, false, &fives, fh),
            Some(Scored {
                points: 25,
                extra: 0
            })
        );
        assert_eq!(r.score(m, false, &fives, 0), None);
        // No lower box free: any upper box for 0.
        let m = mask(r, &["Y50", "5", "3K", "4K", "FH", "SS", "LS", "C"]);
        assert_eq!(
            r.score(m, true, &fives, 0),
            Some(Scored {
                points: 0,
                extra: 100
            })
        );
    }

    #[test]
    fn free_and_kurnik_jokers() {
        let fours = roll("44444");
        let free = RuleSet::YahtzeeFree;
        let ls = free.box_of(Category::LargeStraight).unwrap();
        // Free choice: joker values only with the Yahtzee box and the face box filled.
        assert_eq!(
            free.score(mask(free, &["Y0"]), false, &fours, ls)
                .unwrap()
                .points,
            0
        );
        assert_eq!(
            free.score(mask(free, &["Y0", "4"]), false, &fours, ls)
                .unwrap()
                .points,
            40
        );
        assert_eq!(
            free.score(mask(free, &["Y50"]), true, &fours, ls)
                .unwrap()
                .extra,
            100
        );
        // kurnik: a joker when the face box is filled, Yahtzee box or not; +100 only for a joker.
        let k = RuleSet::YahtzeeKurnik;
        assert_eq!(
            k.score(mask(k, &["4"]), false, &fours, ls).unwrap().points,
            40
        );
        assert_eq!(
            k.score(mask(k, &["Y50"]), true, &fours, ls),
            Some(Scored {
                points: 0,
                extra: 0
            })
        );
        assert_eq!(
            k.score(mask(k, &["Y50"]), true, &fours, 3),
            Some(Scored {
                points: 20,
                extra: 100
            })
        );
    }

    #[test]
    fn names_and_codes() {
        for r in RuleSet::ALL {
            assert_eq!(r.name().parse::<RuleSet>().unwrap(), r);
        }
        assert!("yahtzee-x".parse::<RuleSet>().is_err());
        assert_eq!(RuleSet::Yahtzee.parse_box("y50"), Some((11, Some(true))));
        assert_eq!(RuleSet::Yatzy.parse_box("Y50"), None);
        assert_eq!(RuleSet::Yatzy.parse_box("2p"), Some((7, None)));
        assert_eq!(RuleSet::Yahtzee.parse_box("2P"), None);
    }
}
