//! The text notation of the public solver precisit/yatzy-solver for a situation within a turn
//! and for an action (its `docs/notation.md`):
//!
//! ```text
//! dice 1 3 3 5 6 | rolls 2 | upper 21 | filled ones,twos,chance
//! dice 2 2 2 2 2 | rolls 1 | upper 12 | filled twos,full_house,yahtzee | yahtzee 50
//! keep 3 3          keep -          score full_house
//! ```
//!
//! Fields are separated by `|`, tokens by spaces (any amount of whitespace is accepted); dice are
//! in ascending order; `rolls` is the rerolls left (2 after a turn's first roll); `upper` is the
//! upper-section total, not capped; `filled` lists category ids in score-card order, `-` for
//! none; a last field names the five-of-a-kind box and what it holds (50 or 0) once it is
//! filled, in rule sets with a Yahtzee bonus. Category ids are read as text: which rule set
//! they belong to is the reader's business.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{char, digit1, one_of, space0, space1};
use nom::combinator::{all_consuming, map, map_res, opt, value};
use nom::multi::separated_list1;
use nom::sequence::{delimited, preceded, separated_pair, terminated, tuple};
use nom::IResult;

/// A situation within a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Situation {
    /// The dice showing, ascending.
    pub dice: Vec<u8>,
    /// Rerolls left: 2 after the first roll, 0 after the third.
    pub rerolls: u8,
    /// Upper-section total so far (not capped).
    pub upper: u32,
    /// Filled category ids, in the order written.
    pub filled: Vec<String>,
    /// The five-of-a-kind box once filled: its id and the points it holds (50 or 0).
    pub five_of_a_kind: Option<(String, u32)>,
}

/// An action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Keep these dice (ascending; empty for `keep -`) and reroll the others.
    Keep(Vec<u8>),
    /// Score the dice in the category of this id.
    Score(String),
}

/// Why a situation or an action does not read: the 1-based column (in bytes) where reading
/// stopped, and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// Column of the first byte that does not fit, 1-based.
    pub column: usize,
    /// What the notation allows there.
    pub expected: &'static str,
}

/// A category id: lowercase letters, digits and `_`.
fn id(input: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')(input)
}

/// A whole number.
fn number(input: &str) -> IResult<&str, u32> {
    map_res(digit1, str::parse)(input)
}

/// One die, 1 to 6.
fn die(input: &str) -> IResult<&str, u8> {
    map(one_of("123456"), |c| c as u8 - b'0')(input)
}

/// Dice separated by spaces.
fn dice(input: &str) -> IResult<&str, Vec<u8>> {
    separated_list1(space1, die)(input)
}

/// The field separator `|`, with any spaces around it.
fn bar(input: &str) -> IResult<&str, char> {
    delimited(space0, char('|'), space0)(input)
}

/// `keyword value`.
fn field<'a, O>(
    keyword: &'static str,
    value: impl FnMut(&'a str) -> IResult<&'a str, O>,
) -> impl FnMut(&'a str) -> IResult<&'a str, O> {
    preceded(terminated(tag(keyword), space1), value)
}

/// `filled -` or `filled id,id,...`.
fn filled(input: &str) -> IResult<&str, Vec<String>> {
    field(
        "filled",
        alt((
            value(Vec::new(), char('-')),
            map(separated_list1(char(','), id), |ids| {
                ids.into_iter().map(str::to_string).collect()
            }),
        )),
    )(input)
}

/// The whole situation.
fn situation(input: &str) -> IResult<&str, Situation> {
    let (rest, (dice, _, rerolls, _, upper, _, filled, five)) = tuple((
        field("dice", dice),
        bar,
        field("rolls", map_res(digit1, str::parse::<u8>)),
        bar,
        field("upper", number),
        bar,
        filled,
        opt(preceded(bar, separated_pair(id, space1, number))),
    ))(input)?;
    let five_of_a_kind = five.map(|(id, points)| (id.to_string(), points));
    Ok((
        rest,
        Situation {
            dice,
            rerolls,
            upper,
            filled,
            five_of_a_kind,
        },
    ))
}

/// The whole action.
fn action(input: &str) -> IResult<&str, Action> {
    alt((
        map(field("keep", value((), char('-'))), |()| {
            Action::Keep(Vec::new())
        }),
        map(field("keep", dice), Action::Keep),
        map(field("score", id), |id| Action::Score(id.to_string())),
    ))(input)
}

/// Runs `parser` over the whole of `text` (spaces around it allowed); on failure, the column
/// where it stopped.
fn whole<'a, O>(
    text: &'a str,
    parser: impl FnMut(&'a str) -> IResult<&'a str, O>,
    expected: &'static str,
) -> Result<O, NotationError> {
    let mut parser = all_consuming(delimited(space0, parser, space0));
    parser(text).map(|(_, o)| o).map_err(|e| {
        let at = match e {
            nom::Err::Error(e) | nom::Err::Failure(e) => text.len() - e.input.len(),
            nom::Err::Incomplete(_) => text.len(),
        };
        NotationError {
            column: at + 1,
            expected,
        }
    })
}

impl std::str::FromStr for Situation {
    type Err = NotationError;

    /// Reads `dice … | rolls … | upper … | filled …[ | <id> <points>]`. The dice must be
    /// ascending (the notation's canonical order).
    fn from_str(text: &str) -> Result<Situation, NotationError> {
        let expected = "dice D D D D D | rolls R | upper N | filled IDS";
        let s = whole(text, situation, expected).map_err(|mut error| {
            // A digit in the dice field that is not a die.
            let at = error.column.saturating_sub(1);
            let in_dice = text.find('|').is_none_or(|bar| at < bar);
            if in_dice && text.as_bytes().get(at).is_some_and(u8::is_ascii_digit) {
                error.expected = "a die 1-6";
            }
            error
        })?;
        if s.dice.windows(2).any(|w| w[0] > w[1]) {
            return Err(NotationError {
                column: text.find("dice").map_or(1, |i| i + 1),
                expected: "dice in ascending order",
            });
        }
        Ok(s)
    }
}

impl std::str::FromStr for Action {
    type Err = NotationError;

    /// Reads `keep D ...`, `keep -` or `score ID`.
    fn from_str(text: &str) -> Result<Action, NotationError> {
        let a = whole(text, action, "keep DICE, keep - or score ID")?;
        if let Action::Keep(dice) = &a {
            if dice.windows(2).any(|w| w[0] > w[1]) {
                return Err(NotationError {
                    column: 1,
                    expected: "kept dice in ascending order",
                });
            }
        }
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn situations_of_the_documentation_read() {
        let s: Situation = "dice 1 3 3 5 6 | rolls 2 | upper 21 | filled ones,twos,chance"
            .parse()
            .unwrap();
        assert_eq!(s.dice, [1, 3, 3, 5, 6]);
        assert_eq!((s.rerolls, s.upper), (2, 21));
        assert_eq!(s.filled, ["ones", "twos", "chance"]);
        assert_eq!(s.five_of_a_kind, None);

        let s: Situation = "dice 2 2 2 2 2 | rolls 1 | upper 12 | filled twos,full_house,five_of_a_kind | five_of_a_kind 50"
            .parse()
            .unwrap();
        assert_eq!(s.five_of_a_kind, Some(("five_of_a_kind".into(), 50)));

        let s: Situation = "  dice 1 2 6 6 6|rolls 2 |  upper 0 | filled -  "
            .parse()
            .unwrap();
        assert_eq!((s.dice.len(), s.filled.len()), (5, 0));
    }

    #[test]
    fn actions_read() {
        assert_eq!("keep 6 6 6".parse(), Ok(Action::Keep(vec![6, 6, 6])));
        assert_eq!("keep -".parse(), Ok(Action::Keep(vec![])));
        assert_eq!(
            "score full_house".parse(),
            Ok(Action::Score("full_house".into()))
        );
    }

    #[test]
    fn bad_text_says_where_and_what() {
        let e = "dice 1 3 7 5 6 | rolls 2 | upper 0 | filled -"
            .parse::<Situation>()
            .unwrap_err();
        assert_eq!((e.column, e.expected), (10, "a die 1-6"), "{e:?}");
        let e = "dice 3 1 3 5 6 | rolls 2 | upper 0 | filled -"
            .parse::<Situation>()
            .unwrap_err();
        assert_eq!(e.expected, "dice in ascending order");
        let e = "dice 1 3 3 5 6 | upper 0 | rolls 2 | filled -"
            .parse::<Situation>()
            .unwrap_err();
        assert_eq!(e.column, 18, "{e:?}"); // the `u` of `upper`
        assert!("keep 6 5".parse::<Action>().is_err());
        assert!("hold 6".parse::<Action>().is_err());
        assert!("score".parse::<Action>().is_err());
        assert!("score Full".parse::<Action>().is_err());
    }
}
