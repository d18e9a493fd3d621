//! One player's score sheet between turns, its notations, and how a turn changes it.

use super::{Family, RuleSet, Scored, UPPER_BOXES, UPPER_THRESHOLD};
use crate::dice::Dice;
use std::fmt;

/// A player's sheet between turns: which boxes are filled, whether the Yahtzee box holds 50,
/// the upper-section total and the points so far (bonuses included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sheet {
    /// The rule set the sheet is played under.
    pub rules: RuleSet,
    /// Bit `i` set when box `i` (in [`RuleSet::boxes`] order) is filled.
    pub filled: u32,
    /// The Yahtzee box holds 50 (only tracked where the extra bonus exists).
    pub yahtzee_50: bool,
    /// Upper-section total so far (may be capped at 63 when only the capped value is known).
    pub upper_total: u32,
    /// Points so far, bonuses included.
    pub points: u32,
}

/// Why a sheet description is not a possible sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SheetError {
    /// A box code the rule set does not have.
    UnknownCode {
        /// The code as given.
        code: String,
        /// The codes the rule set accepts.
        expected: String,
    },
    /// The same box listed twice.
    FilledTwice(String),
    /// American rules need to know the Yahtzee box's content.
    YahtzeeContentMissing,
    /// The upper total cannot be made from the filled upper boxes.
    UpperUnreachable {
        /// The total given.
        total: u32,
        /// The filled upper boxes, as codes.
        filled: String,
    },
    /// Fewer points than the filled boxes and bonuses already account for.
    PointsTooLow {
        /// The points given.
        points: u32,
        /// The least possible points.
        least: u32,
        /// The most possible points.
        most: u32,
    },
    /// More points than the filled boxes and bonuses can hold.
    PointsTooHigh {
        /// The points given.
        points: u32,
        /// The least possible points.
        least: u32,
        /// The most possible points.
        most: u32,
    },
    /// A notation that does not parse.
    Syntax(String),
}

impl fmt::Display for SheetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SheetError::UnknownCode { code, expected } => {
                write!(
                    f,
                    "unknown category code '{code}' (expected one of {expected})"
                )
            }
            SheetError::FilledTwice(code) => write!(f, "box {code} is filled twice"),
            SheetError::YahtzeeContentMissing => {
                f.write_str("the Yahtzee box must be given as Y0 or Y50 under these rules")
            }
            SheetError::UpperUnreachable { total, filled } => write!(
                f,
                "upper total {total} is impossible with the filled upper boxes {}",
                if filled.is_empty() { "(none)" } else { filled }
            ),
            SheetError::PointsTooLow {
                points,
                least,
                most,
            } => write!(
                f,
                "{points} points is less than the sheet already holds: with these boxes it holds \
                 {}, bonuses included",
                points_range(*least, *most)
            ),
            SheetError::PointsTooHigh {
                points,
                least,
                most,
            } => write!(
                f,
                "{points} points is more than the filled boxes can hold: with these boxes the \
                 sheet holds {}, bonuses included",
                points_range(*least, *most)
            ),
            SheetError::Syntax(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for SheetError {}

/// `3 to 40 points`, or `exactly 3 points`.
fn points_range(least: u32, most: u32) -> String {
    if least == most {
        format!("exactly {least} points")
    } else {
        format!("{least} to {most} points")
    }
}

/// Bit set of the upper totals (0..=105) that the upper boxes in `mask` (bit f-1 for face f)
/// can make, each box holding 0 to 5 dice of its face.
pub fn upper_totals(mask: u8) -> u128 {
    upper_totals_with(mask, crate::dice::DICE)
}

/// Bit set of the upper totals (at most 126) that the upper boxes in `mask` (bit f-1 for face
/// f) can make, each box holding 0 to `dice` (at most six) dice of its face.
pub fn upper_totals_with(mask: u8, dice: usize) -> u128 {
    let mut reach: u128 = 1;
    for face in 1..=6u32 {
        if mask & (1 << (face - 1)) != 0 {
            let mut next = 0;
            for n in 0..=dice.min(crate::dice::MAX_DICE) as u32 {
                next |= reach << (n * face);
            }
            reach = next;
        }
    }
    reach
}

/// The highest bit set in `bits`.
fn highest_bit(bits: u128) -> Option<u32> {
    (bits != 0).then(|| 127 - bits.leading_zeros())
}

/// Calls `each` with every roll and how it scores in box `b` of `rules`, in the sheets that
/// make the most of it: none filled (no joker), and every box but `b` filled (a joker where the
/// rules give one); `yahtzee_50`: the Yahtzee box holds 50.
fn for_each_scoring(
    rules: RuleSet,
    b: usize,
    yahtzee_50: bool,
    mut each: impl FnMut(&Dice, Scored),
) {
    let sheets = [0, rules.full_mask() & !(1 << b)];
    for roll in rules.dice_space().rolls() {
        for filled in sheets {
            if let Some(scored) = rules.score(filled, yahtzee_50, roll, b) {
                each(roll, scored);
            }
        }
    }
}

/// The most box `b` of `rules` can hold, extra-Yahtzee bonus included.
fn best_in_box(rules: RuleSet, b: usize, yahtzee_50: bool) -> u32 {
    let mut best = 0;
    for_each_scoring(rules, b, yahtzee_50, |_, scored| {
        best = best.max(scored.points + scored.extra);
    });
    best
}

impl Sheet {
    /// The empty sheet.
    pub fn empty(rules: RuleSet) -> Sheet {
        Sheet {
            rules,
            filled: 0,
            yahtzee_50: false,
            upper_total: 0,
            points: 0,
        }
    }

    /// Upper total capped at the bonus threshold: the part that matters for the future.
    pub fn capped_upper(&self) -> u32 {
        self.upper_total.min(self.rules.upper_threshold())
    }

    /// Mask of the filled upper boxes (bit f-1 for face f).
    pub fn upper_mask(&self) -> u8 {
        (self.filled & 0x3f) as u8
    }

    /// True when every box is filled.
    pub fn is_complete(&self) -> bool {
        self.filled == self.rules.full_mask()
    }

    /// Number of filled boxes.
    pub fn filled_count(&self) -> u32 {
        self.filled.count_ones()
    }

    /// Number of boxes still free.
    pub fn free_count(&self) -> u32 {
        self.rules.box_count() as u32 - self.filled_count()
    }

    /// How `roll` would score in box `b`, or `None` when that is not allowed now.
    pub fn score(&self, roll: &Dice, b: usize) -> Option<Scored> {
        self.rules.score(self.filled, self.yahtzee_50, roll, b)
    }

    /// The sheet after scoring `roll` in box `b`, and the points gained (box, upper bonus and
    /// extra bonus); `None` when the box may not be used.
    pub fn after(&self, roll: &Dice, b: usize) -> Option<(Sheet, u32)> {
        Some(self.after_scoring(b, self.score(roll, b)?))
    }

    /// The sheet after writing `s` in the free box `b` (what [`Sheet::score`] gave for some
    /// roll), and the points gained (box, upper bonus and extra bonus): the position after a
    /// turn depends on nothing else.
    pub fn after_scoring(&self, b: usize, s: Scored) -> (Sheet, u32) {
        let mut next = *self;
        next.filled |= 1 << b;
        let mut gained = s.points + s.extra;
        if b < UPPER_BOXES {
            let before = self.upper_total;
            next.upper_total = before + s.points;
            let threshold = self.rules.upper_threshold();
            if before < threshold && next.upper_total >= threshold {
                gained += self.rules.upper_bonus();
            }
        }
        if b == self.rules.yahtzee_box() && self.rules.tracks_yahtzee_50() {
            next.yahtzee_50 = s.points == 50;
        }
        next.points += gained;
        (next, gained)
    }

    /// A sheet from a list of box codes (`Y0`/`Y50` for the Yahtzee box where tracked), the
    /// upper total and the points; checks that such a sheet can exist.
    pub fn from_codes<S: AsRef<str>>(
        rules: RuleSet,
        codes: &[S],
        upper_total: u32,
        points: u32,
    ) -> Result<Sheet, SheetError> {
        let mut sheet = Sheet::from_boxes(rules, codes, upper_total)?;
        sheet.points = points;
        sheet.check_points()?;
        Ok(sheet)
    }

    /// A sheet from a list of box codes (as [`Sheet::from_codes`]) and the upper total, holding
    /// the least points it can ([`Sheet::least_points`]); checks the codes and the upper total.
    pub fn from_boxes<S: AsRef<str>>(
        rules: RuleSet,
        codes: &[S],
        upper_total: u32,
    ) -> Result<Sheet, SheetError> {
        let mut sheet = Sheet::empty(rules);
        for code in codes {
            let code = code.as_ref().trim();
            let (b, content) = rules
                .parse_box(code)
                .ok_or_else(|| SheetError::UnknownCode {
                    code: code.to_string(),
                    expected: rules.box_codes(),
                })?;
            if sheet.filled & (1 << b) != 0 {
                return Err(SheetError::FilledTwice(rules.boxes()[b].code().to_string()));
            }
            if b == rules.yahtzee_box() && rules.tracks_yahtzee_50() {
                sheet.yahtzee_50 = content.ok_or(SheetError::YahtzeeContentMissing)?;
            }
            sheet.filled |= 1 << b;
        }
        sheet.upper_total = upper_total;
        sheet.check_upper()?;
        sheet.points = sheet.least_points();
        Ok(sheet)
    }

    /// The least points the sheet can hold: its upper total, the upper bonus once the total
    /// reaches the threshold, and 50 when the Yahtzee box holds 50.
    pub fn least_points(&self) -> u32 {
        let mut least = self.upper_total;
        least += self.upper_bonus_earned();
        if self.yahtzee_50 {
            least += 50;
        }
        least
    }

    /// Checks that the upper total and points are possible for the filled boxes: the upper
    /// total one the filled upper boxes can make, the points from [`Sheet::least_points`] to
    /// [`Sheet::most_points`].
    pub fn check(&self) -> Result<(), SheetError> {
        self.check_upper()?;
        self.check_points()
    }

    /// Checks that the filled upper boxes can make the upper total.
    fn check_upper(&self) -> Result<(), SheetError> {
        let reach = self.rules.upper_totals(self.upper_mask());
        let threshold = self.rules.upper_threshold();
        let possible = if self.upper_total >= threshold && self.upper_total < 128 {
            // Only the capped value may be known: any reachable total at or above it will do.
            let at_least = !((1u128 << self.upper_total) - 1);
            if self.upper_total == threshold {
                reach & at_least != 0
            } else {
                reach & (1u128 << self.upper_total) != 0
            }
        } else {
            self.upper_total < 128 && reach & (1u128 << self.upper_total) != 0
        };
        if !possible {
            let filled = (1..=6u8)
                .filter(|f| self.upper_mask() & (1 << (f - 1)) != 0)
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join(",");
            return Err(SheetError::UpperUnreachable {
                total: self.upper_total,
                filled,
            });
        }
        Ok(())
    }

    /// Checks that the points lie from [`Sheet::least_points`] to [`Sheet::most_points`].
    fn check_points(&self) -> Result<(), SheetError> {
        let (least, most) = (self.least_points(), self.most_points());
        let points = self.points;
        if points < least {
            return Err(SheetError::PointsTooLow {
                points,
                least,
                most,
            });
        }
        if points > most {
            return Err(SheetError::PointsTooHigh {
                points,
                least,
                most,
            });
        }
        Ok(())
    }

    /// The most points the sheet can hold, bonuses included: the upper section at the highest
    /// total its filled boxes allow (any reachable total of at least 63 when the upper total is
    /// 63, which may be capped) and its bonus, the highest score of each filled lower box (0 or
    /// 50 for the Yahtzee box where its content is tracked), and, when the Yahtzee box holds 50,
    /// an extra-Yahtzee bonus for every other filled box that could hold a further five of a
    /// kind (an upper box only where its points fit the upper total). That is the highest sheet
    /// of each rule set when every box is filled (1575 under the official Yahtzee rules, 374 in
    /// Yatzy); for a partly filled sheet it may be above what play can reach, since it does not
    /// check that the turns can come in an order that earns every bonus counted.
    pub fn most_points(&self) -> u32 {
        let rules = self.rules;
        let y = rules.yahtzee_box();
        let yahtzee_50 = self.yahtzee_50 && rules.tracks_yahtzee_50();
        let filled = |b: usize| self.filled & (1 << b) != 0;
        let mut lower = 0;
        for b in (UPPER_BOXES..rules.box_count()).filter(|&b| filled(b)) {
            lower += if b == y && rules.tracks_yahtzee_50() {
                if yahtzee_50 {
                    50
                } else {
                    0
                }
            } else {
                best_in_box(rules, b, yahtzee_50)
            };
        }
        // Each filled upper box that can hold a further five of a kind with its bonus: the
        // points it then holds, and the bonus.
        let mut bonus_boxes: Vec<(usize, u128, u32)> = Vec::new();
        for b in (0..UPPER_BOXES).filter(|&b| filled(b)) {
            let mut holds = 0u128;
            let mut extra = 0;
            for_each_scoring(rules, b, yahtzee_50, |roll, scored| {
                if roll.five_of_a_kind().is_some() && scored.extra > 0 {
                    holds |= 1u128 << scored.points;
                    extra = extra.max(scored.extra);
                }
            });
            if holds != 0 {
                bonus_boxes.push((b, holds, extra));
            }
        }
        let threshold = rules.upper_threshold();
        let allowed = if self.upper_total == threshold {
            !((1u128 << threshold) - 1)
        } else if self.upper_total < 128 {
            1u128 << self.upper_total
        } else {
            0
        };
        let mut upper = None;
        for subset in 0..1u32 << bonus_boxes.len() {
            let mut others = self.upper_mask();
            let mut extras = 0;
            let mut chosen = Vec::new();
            for (i, &(b, holds, extra)) in bonus_boxes.iter().enumerate() {
                if subset & (1 << i) != 0 {
                    others &= !(1 << b);
                    extras += extra;
                    chosen.push(holds);
                }
            }
            let mut reach = rules.upper_totals(others);
            for holds in chosen {
                let mut next = 0u128;
                for v in (0..128).filter(|v| holds & (1u128 << v) != 0) {
                    next |= reach << v;
                }
                reach = next;
            }
            let Some(total) = highest_bit(reach & allowed) else {
                continue;
            };
            let bonus = if total >= threshold {
                rules.upper_bonus()
            } else {
                0
            };
            let value = total + bonus + extras;
            upper = Some(upper.map_or(value, |u: u32| u.max(value)));
        }
        // A sheet whose upper total its boxes cannot make (which `check` refuses): what it says.
        let said = || self.upper_total.saturating_add(self.upper_bonus_earned());
        upper.unwrap_or_else(said).saturating_add(lower)
    }

    /// A sheet in the thesis's compact notation, e.g. `2456TMDY0S,51,170`: the filled boxes
    /// (digits, T, K, F, M, D, Y0/Y50, S), the capped upper total and the points.
    pub fn from_thesis(rules: RuleSet, text: &str) -> Result<Sheet, SheetError> {
        if rules.family() != Family::American {
            return Err(SheetError::Syntax(format!(
                "the thesis notation is for American rules, not {rules}"
            )));
        }
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let [boxes, upper, points] = parts[..] else {
            return Err(SheetError::Syntax(format!(
                "expected FILLED,UPPER,POINTS (like 2456TMDY0S,51,170), found '{text}'"
            )));
        };
        let mut codes = Vec::new();
        let mut chars = boxes.chars().peekable();
        while let Some(c) = chars.next() {
            let code = match c {
                '1'..='6' => c.to_string(),
                'T' => "3K".into(),
                'K' => "4K".into(),
                'F' => "FH".into(),
                'M' => "SS".into(),
                'D' => "LS".into(),
                'S' => "C".into(),
                'Y' => match (chars.next(), chars.peek()) {
                    (Some('0'), _) => "Y0".into(),
                    (Some('5'), Some('0')) => {
                        chars.next();
                        "Y50".into()
                    }
                    _ => return Err(SheetError::Syntax("Y must be followed by 0 or 50".into())),
                },
                '-' if boxes == "-" => continue,
                other => {
                    return Err(SheetError::Syntax(format!(
                        "unknown box letter '{other}' (expected 1-6, T, K, F, M, D, Y0, Y50, S)"
                    )))
                }
            };
            codes.push(code);
        }
        let upper = parse_number(upper, "upper total")?;
        if upper > UPPER_THRESHOLD {
            return Err(SheetError::Syntax(format!(
                "the thesis's upper total is capped at 63, found {upper}"
            )));
        }
        Sheet::from_codes(rules, &codes, upper, parse_number(points, "points")?)
    }

    /// A sheet in Verhoeff's notation, e.g. `_2__5_TF__LYC;15-`: a mask over `123456TFHSLYC`
    /// with `_` for a used box, the upper points still needed, and `+` when the Yahtzee box holds 50.
    pub fn from_verhoeff(rules: RuleSet, text: &str, points: u32) -> Result<Sheet, SheetError> {
        if rules.family() != Family::American {
            return Err(SheetError::Syntax(format!(
                "Verhoeff's notation is for American rules, not {rules}"
            )));
        }
        let text = text.trim();
        let syntax = || {
            SheetError::Syntax(format!(
                "expected MASK;NEEDED followed by + or - (like _2__5_TF__LYC;15-), found '{text}'"
            ))
        };
        let (mask, rest) = text.split_once(';').ok_or_else(syntax)?;
        let mask = mask.trim().as_bytes();
        if mask.len() != VERHOEFF_LETTERS.len() {
            return Err(syntax());
        }
        let rest = rest.trim();
        let (needed, y50) = match rest.as_bytes().last() {
            Some(b'+') => (&rest[..rest.len() - 1], true),
            Some(b'-') => (&rest[..rest.len() - 1], false),
            _ => return Err(syntax()),
        };
        let needed = parse_number(needed.trim(), "upper points needed")?;
        if needed > UPPER_THRESHOLD {
            return Err(SheetError::Syntax(format!(
                "at most 63 upper points can be needed, found {needed}"
            )));
        }
        let mut codes = Vec::new();
        for (i, (&m, &letter)) in mask.iter().zip(VERHOEFF_LETTERS).enumerate() {
            if m == b'_' {
                let code = rules.boxes()[i].code();
                codes.push(match (code, y50) {
                    ("Y", true) => "Y50".to_string(),
                    ("Y", false) => "Y0".to_string(),
                    _ => code.to_string(),
                });
            } else if m != letter {
                return Err(SheetError::Syntax(format!(
                    "mask position {} holds '{}', expected '{}' or '_'",
                    i + 1,
                    m as char,
                    letter as char
                )));
            }
        }
        if y50 && mask[11] != b'_' {
            return Err(SheetError::Syntax(
                "'+' says the Yahtzee box holds 50, but it is open".into(),
            ));
        }
        Sheet::from_codes(rules, &codes, UPPER_THRESHOLD - needed, points)
    }

    /// The sheet in Verhoeff's notation, as [`Sheet::from_verhoeff`] reads it: the mask over
    /// `123456TFHSLYC` with `_` for a used box, the upper points still needed (right-aligned
    /// in two places) and `+` when the Yahtzee box holds 50, else `-`, e.g.
    /// `_2__5_TF__LYC;15-`. `None` for Scandinavian rule sets, which the notation does not
    /// cover. The notation keeps the upper total only up to the bonus threshold, and not the
    /// points.
    pub fn verhoeff_state(&self) -> Option<String> {
        if self.rules.family() != Family::American {
            return None;
        }
        let mask: String = VERHOEFF_LETTERS
            .iter()
            .enumerate()
            .map(|(b, &letter)| {
                if self.filled & (1 << b) != 0 {
                    '_'
                } else {
                    char::from(letter)
                }
            })
            .collect();
        Some(format!(
            "{mask};{:>2}{}",
            UPPER_THRESHOLD - self.capped_upper(),
            if self.yahtzee_50 { '+' } else { '-' }
        ))
    }

    /// The filled boxes as codes (`Y0`/`Y50` where tracked), comma-separated, `-` for none.
    pub fn filled_codes(&self) -> String {
        let codes: Vec<String> = (0..self.rules.box_count())
            .filter(|b| self.filled & (1 << b) != 0)
            .map(|b| {
                let code = self.rules.boxes()[b].code();
                if b == self.rules.yahtzee_box() && self.rules.tracks_yahtzee_50() {
                    if self.yahtzee_50 { "Y50" } else { "Y0" }.to_string()
                } else {
                    code.to_string()
                }
            })
            .collect();
        if codes.is_empty() {
            "-".into()
        } else {
            codes.join(",")
        }
    }
}

/// The letters of Verhoeff's sheet mask, one per box in [`RuleSet::boxes`] order of the
/// American rule sets.
const VERHOEFF_LETTERS: &[u8; 13] = b"123456TFHSLYC";

fn parse_number(text: &str, what: &str) -> Result<u32, SheetError> {
    text.parse()
        .map_err(|_| SheetError::Syntax(format!("{what} must be a whole number, found '{text}'")))
}

impl Sheet {
    /// The upper bonus this sheet has earned: its rule set's [`RuleSet::upper_bonus`] once the
    /// upper total reaches [`RuleSet::upper_threshold`], else 0.
    pub fn upper_bonus_earned(&self) -> u32 {
        if self.upper_total >= self.rules.upper_threshold() {
            self.rules.upper_bonus()
        } else {
            0
        }
    }
}

#[cfg(test)]
mod upper_bonus_tests {
    use super::*;

    #[test]
    fn the_upper_bonus_is_earned_at_the_threshold() {
        for rules in RuleSet::MAIN {
            let mut sheet = Sheet::empty(rules);
            assert_eq!(sheet.upper_bonus_earned(), 0);
            sheet.upper_total = UPPER_THRESHOLD - 1;
            assert_eq!(sheet.upper_bonus_earned(), 0);
            sheet.upper_total = UPPER_THRESHOLD;
            assert_eq!(sheet.upper_bonus_earned(), rules.upper_bonus());
            assert!(rules.upper_bonus() > 0);
        }
    }
}

#[cfg(test)]
impl Sheet {
    /// For tests: the sheet of `rules` with every box filled except those whose codes are in
    /// `free`, a filled Yahtzee box holding 0, the upper section at 70 (bonus made), and
    /// `points`.
    pub(crate) fn filled_but(rules: RuleSet, free: &[&str], points: u32) -> Sheet {
        let codes: Vec<&str> = rules
            .boxes()
            .iter()
            .map(|c| c.code())
            .filter(|c| !free.contains(c))
            .map(|c| {
                if c == "Y" && rules.tracks_yahtzee_50() {
                    "Y0"
                } else {
                    c
                }
            })
            .collect();
        Sheet::from_codes(rules, &codes, 70, points).expect("a possible sheet")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notations_agree() {
        let r = RuleSet::YahtzeeFree;
        let v = Sheet::from_verhoeff(r, "_2__5_TF__LYC;15-", 103).unwrap();
        let c = Sheet::from_codes(r, &["1", "3", "4", "6", "FH", "SS"], 48, 103).unwrap();
        assert_eq!(v, c);
        let t = Sheet::from_thesis(RuleSet::YahtzeeKurnik, "2456TMDY0S,51,170").unwrap();
        assert_eq!(t.filled_codes(), "2,4,5,6,3K,SS,LS,Y0,C");
        assert_eq!(t.upper_total, 51);
    }

    #[test]
    fn verhoeff_notation_round_trip() {
        let r = RuleSet::Yahtzee;
        let sheets = [
            Sheet::empty(r),
            Sheet::from_codes(r, &["1", "3", "4", "6", "FH", "SS"], 48, 103).unwrap(),
            Sheet::from_codes(r, &["2", "Y50", "C"], 4, 80).unwrap(),
            Sheet::from_codes(r, &["1", "2", "3", "4", "5", "6", "3K", "4K"], 63, 150).unwrap(),
        ];
        for sheet in sheets {
            let text = sheet.verhoeff_state().unwrap();
            let back = Sheet::from_verhoeff(r, &text, sheet.points).unwrap();
            assert_eq!(back, sheet, "{text}");
        }
        assert_eq!(
            sheets[1].verhoeff_state().as_deref(),
            Some("_2__5_TF__LYC;15-")
        );
        assert_eq!(
            sheets[0].verhoeff_state().as_deref(),
            Some("123456TFHSLYC;63-")
        );
        assert_eq!(Sheet::empty(RuleSet::Yatzy).verhoeff_state(), None);
    }

    #[test]
    fn least_points_of_a_sheet() {
        let r = RuleSet::Yahtzee;
        assert_eq!(Sheet::empty(r).least_points(), 0);
        let s = Sheet::from_codes(r, &["1", "2", "3", "4", "5", "6", "Y50"], 70, 500).unwrap();
        assert_eq!(s.least_points(), 70 + 35 + 50);
        let s = Sheet::from_codes(r, &["5", "Y0"], 20, 20).unwrap();
        assert_eq!(s.least_points(), 20);
        assert!(Sheet { points: 19, ..s }.check().is_err());
    }

    #[test]
    fn most_points_of_a_sheet() {
        let full = |r: RuleSet, y: &str| {
            let codes: Vec<&str> = r
                .boxes()
                .iter()
                .map(|c| if c.code() == "Y" { y } else { c.code() })
                .collect();
            Sheet::from_boxes(r, &codes, 105).unwrap().most_points()
        };
        // The highest sheets: every box at its best, twelve extra Yahtzees where they pay.
        assert_eq!(full(RuleSet::Yahtzee, "Y50"), 1575);
        assert_eq!(full(RuleSet::YahtzeeFree, "Y50"), 1575);
        assert_eq!(full(RuleSet::YahtzeeKurnik, "Y50"), 1575);
        assert_eq!(full(RuleSet::Yahtzee, "Y0"), 375 - 50);
        assert_eq!(full(RuleSet::YahtzeePlain, "Y"), 375);
        assert_eq!(full(RuleSet::Yatzy, "Y"), 374);
        let r = RuleSet::Yahtzee;
        assert_eq!(Sheet::empty(r).most_points(), 0);
        let most =
            |codes: &[&str], upper: u32| Sheet::from_boxes(r, codes, upper).unwrap().most_points();
        assert_eq!(most(&["C"], 0), 30);
        assert_eq!(most(&["LS", "Y0"], 0), 40);
        // With 50 in the Yahtzee box, a further five of a kind pays 100 in any box...
        assert_eq!(most(&["LS", "Y50"], 0), 40 + 100 + 50);
        assert_eq!(most(&["1", "Y50"], 5), 5 + 100 + 50);
        // ... and 0 in an upper box of another face (a joker, forced there).
        assert_eq!(most(&["1", "Y50"], 0), 100 + 50);
        // Ones holding 3 are not five of a kind: no bonus there.
        assert_eq!(most(&["1", "Y50"], 3), 3 + 50);
        // An upper total of 63 may be capped: the most is the highest the boxes make.
        assert_eq!(
            most(&["1", "2", "3", "4", "5", "6"], 63),
            105 + 35,
            "five of each face"
        );
        let s = Sheet::from_codes(r, &["1"], 3, 3).unwrap();
        assert_eq!(
            Sheet { points: 4, ..s }.check(),
            Err(SheetError::PointsTooHigh {
                points: 4,
                least: 3,
                most: 3
            })
        );
        let message = Sheet::from_codes(r, &["C"], 0, 31).unwrap_err().to_string();
        assert!(message.contains("0 to 30 points"), "{message}");
    }

    /// No game played by the rules ever holds more than `most_points` (nor less than
    /// `least_points`): random turns, five of a kind rolled often, every rule set.
    #[test]
    fn played_sheets_stay_within_their_bounds() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for rules in RuleSet::ALL {
            let space = rules.dice_space();
            for _ in 0..300 {
                let mut sheet = Sheet::empty(rules);
                while !sheet.is_complete() {
                    let roll = if next(3) == 0 {
                        let face = next(6) as u8 + 1;
                        Dice::from_faces_up_to(&vec![face; space.dice()], space.dice()).unwrap()
                    } else {
                        space.rolls()[next(space.roll_count())]
                    };
                    let legal: Vec<usize> = (0..rules.box_count())
                        .filter(|&b| sheet.score(&roll, b).is_some())
                        .collect();
                    let b = legal[next(legal.len())];
                    sheet = sheet.after(&roll, b).unwrap().0;
                    assert!(
                        sheet.least_points() <= sheet.points && sheet.points <= sheet.most_points(),
                        "{rules:?} {} upper {}: {} points, {} to {}",
                        sheet.filled_codes(),
                        sheet.upper_total,
                        sheet.points,
                        sheet.least_points(),
                        sheet.most_points()
                    );
                }
            }
        }
    }

    #[test]
    fn maxi_yatzy_sheet_of_twenty_boxes() {
        let rules = RuleSet::MaxiYatzy;
        let sheet = Sheet::empty(rules);
        assert_eq!((sheet.free_count(), rules.full_mask()), (20, (1 << 20) - 1));
        // The highest sheet, box by box: upper 6 x 21 = 126 and its 100; one pair 12, two
        // pairs 22, three pairs 30, three/four/five of a kind 18/24/30, straights 15/20/21,
        // full house 28, villa 33, tower 34, chance 36, Maxi Yatzy 100.
        let all: Vec<&str> = rules.boxes().iter().map(|c| c.code()).collect();
        let full = Sheet::from_boxes(rules, &all, 126).unwrap();
        let lower = 12 + 22 + 30 + 18 + 24 + 30 + 15 + 20 + 21 + 28 + 33 + 34 + 36 + 100;
        assert_eq!(full.most_points(), 126 + 100 + lower);
        // Six dice a box: ones to fives make 90 at most, and the bonus comes at 84.
        assert!(Sheet::from_boxes(rules, &["1", "2", "3", "4", "5"], 90).is_ok());
        assert!(Sheet::from_boxes(rules, &["1", "2", "3", "4", "5"], 91).is_err());
        let sheet = Sheet::from_boxes(rules, &["1", "2", "3", "4", "5"], 80).unwrap();
        assert_eq!(sheet.points, 80);
        let six = |faces: &[u8]| Dice::from_faces_up_to(faces, 6).unwrap();
        let (after, gained) = sheet.after(&six(&[6, 1, 1, 2, 3, 4]), 5).unwrap();
        assert_eq!((gained, after.upper_total, after.points), (106, 86, 186));
        let (_, gained) = sheet.after(&six(&[1, 1, 1, 2, 3, 4]), 5).unwrap();
        assert_eq!(gained, 0, "80 stays under 84: no bonus");
        // Six alike in the Maxi Yatzy box: 100, no extra bonus anywhere else.
        let y = rules.yahtzee_box();
        let alike = six(&[2; 6]);
        assert_eq!(sheet.after(&alike, y).unwrap().1, 100);
        let (after_y, _) = sheet.after(&alike, y).unwrap();
        assert_eq!(
            after_y.after(&alike, 6).unwrap().1,
            4,
            "one pair of twos, no bonus"
        );
    }

    #[test]
    fn impossible_sheets_are_refused() {
        let r = RuleSet::Yahtzee;
        assert!(matches!(
            Sheet::from_codes(r, &["1"], 7, 10),
            Err(SheetError::UpperUnreachable { .. })
        ));
        assert!(matches!(
            Sheet::from_codes(r, &["2"], 3, 10),
            Err(SheetError::UpperUnreachable { .. })
        ));
        assert!(Sheet::from_codes(r, &["2"], 4, 4).is_ok());
        assert!(matches!(
            Sheet::from_codes(r, &["3K", "3k"], 0, 0),
            Err(SheetError::FilledTwice(_))
        ));
        assert!(matches!(
            Sheet::from_codes(r, &["Y"], 0, 0),
            Err(SheetError::YahtzeeContentMissing)
        ));
        assert!(matches!(
            Sheet::from_codes(r, &["XX"], 0, 0),
            Err(SheetError::UnknownCode { .. })
        ));
        assert!(matches!(
            Sheet::from_codes(r, &["Y50"], 0, 10),
            Err(SheetError::PointsTooLow { .. })
        ));
        assert_eq!(upper_totals(0), 1);
        assert_eq!(upper_totals(0x3f).count_ones(), 106);
    }

    #[test]
    fn scoring_a_turn() {
        let r = RuleSet::Yahtzee;
        let s = Sheet::from_codes(r, &["1", "2", "3", "4", "5"], 60, 60).unwrap();
        let sixes = Dice::from_faces(&[6, 6, 1, 2, 3]).unwrap();
        let (next, gained) = s.after(&sixes, 5).unwrap();
        assert_eq!(gained, 12 + 35);
        assert_eq!(next.upper_total, 72);
        assert_eq!(next.points, 107);
        assert!(s.after(&sixes, 0).is_none());
    }
}
