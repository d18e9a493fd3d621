//! The variants and category ids of yatzy-solver logs, and the rule sets of dicelens they are
//! replayed under.
//!
//! The solver's documentation has spelled the American variant and its five-of-a-kind box two
//! ways over its versions (`american` / `five_of_a_kind`, and earlier `yahtzee` / `yahtzee`),
//! and the state field that says what that box holds three ways (`five_of_a_kind`,
//! `yahtzee_box`, `yahtzee`): every spelling is read.

use crate::BoxCode;
use std::borrow::Cow;

/// The two score cards of the solver's variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `yatzy-scandinavian`: 15 categories.
    Scandinavian,
    /// `american` (also spelled `yahtzee`): 13 categories, a Yahtzee bonus.
    American,
}

/// The Scandinavian category ids in the solver's score-card order, with our box codes.
const SCANDINAVIAN: [(&str, &str); 15] = [
    ("ones", "1"),
    ("twos", "2"),
    ("threes", "3"),
    ("fours", "4"),
    ("fives", "5"),
    ("sixes", "6"),
    ("one_pair", "1P"),
    ("two_pairs", "2P"),
    ("three_of_a_kind", "3K"),
    ("four_of_a_kind", "4K"),
    ("small_straight", "SS"),
    ("large_straight", "LS"),
    ("full_house", "FH"),
    ("chance", "C"),
    ("yatzy", "Y"),
];

/// The American category ids in the solver's score-card order, with our box codes.
const AMERICAN: [(&str, &str); 13] = [
    ("ones", "1"),
    ("twos", "2"),
    ("threes", "3"),
    ("fours", "4"),
    ("fives", "5"),
    ("sixes", "6"),
    ("three_of_a_kind", "3K"),
    ("four_of_a_kind", "4K"),
    ("full_house", "FH"),
    ("small_straight", "SS"),
    ("large_straight", "LS"),
    ("five_of_a_kind", "Y"),
    ("chance", "C"),
];

/// The earlier spelling of the American five-of-a-kind box.
const AMERICAN_FIVE_OF_A_KIND_ALIAS: &str = "yahtzee";

/// The names the American state field for the five-of-a-kind box has had.
pub const FIVE_OF_A_KIND_FIELDS: [&str; 3] = ["five_of_a_kind", "yahtzee_box", "yahtzee"];

impl Family {
    /// The category ids and our box codes, in the solver's score-card order.
    fn categories(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Family::Scandinavian => &SCANDINAVIAN,
            Family::American => &AMERICAN,
        }
    }

    /// The index (in score-card order) of category `id`, either spelling.
    pub fn index(self, id: &str) -> Option<usize> {
        let alias = self == Family::American && id == AMERICAN_FIVE_OF_A_KIND_ALIAS;
        if alias {
            return Some(self.five_of_a_kind());
        }
        self.categories().iter().position(|&(name, _)| name == id)
    }

    /// The id of the category at `index` (the current spelling).
    pub fn id(self, index: usize) -> &'static str {
        self.categories().get(index).map_or("?", |&(id, _)| id)
    }

    /// Our box code for the category at `index`.
    pub fn box_code(self, index: usize) -> BoxCode {
        let code = self.categories().get(index).map_or("?", |&(_, code)| code);
        BoxCode::parse(code).unwrap_or_default()
    }

    /// The index of the five-of-a-kind box (Yatzy, Yahtzee).
    pub fn five_of_a_kind(self) -> usize {
        self.categories().len() - 1 - usize::from(self == Family::American)
    }

    /// The ids the family has, for messages.
    pub fn ids(self) -> String {
        let ids: Vec<&str> = self.categories().iter().map(|&(id, _)| id).collect();
        ids.join(", ")
    }
}

/// A variant of a log: its score card, the rule set the game is replayed under, and whether
/// its state records what the five-of-a-kind box holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant<'a> {
    /// The score card.
    pub family: Family,
    /// Our rule set's name; the variant's own text for variants we have no rule set for
    /// (house-rule switches such as `+fh5` or `+forced`), which the replay reports as an
    /// unknown rule set.
    pub rules: Cow<'a, str>,
    /// The state has the five-of-a-kind field once that box is filled (American rules with
    /// the Yahtzee bonus).
    pub five_of_a_kind_field: bool,
}

/// Reads a variant id: a base (`yatzy-scandinavian`, `american` or `yahtzee`) and `+`
/// switches. `None` for another base.
pub fn variant(text: &str) -> Option<Variant<'_>> {
    let (base, switches) = text.split_once('+').unwrap_or((text, ""));
    let family = match base {
        "yatzy-scandinavian" => Family::Scandinavian,
        "american" | "yahtzee" => Family::American,
        _ => return None,
    };
    let rules = match (family, switches) {
        (Family::Scandinavian, "") => "yatzy",
        (Family::American, "") => "yahtzee-free",
        (Family::American, "forced-joker") => "yahtzee",
        (Family::American, "no-joker") => "yahtzee-nojoker",
        (Family::American, "no-bonus") => "yahtzee-plain",
        _ => text,
    };
    let no_bonus = switches.split('+').any(|switch| switch == "no-bonus");
    Some(Variant {
        family,
        rules: Cow::Borrowed(rules),
        five_of_a_kind_field: family == Family::American && !no_bonus,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_map_to_our_rule_sets() {
        let rules = |text| variant(text).map(|v| v.rules.into_owned());
        assert_eq!(rules("yatzy-scandinavian").as_deref(), Some("yatzy"));
        assert_eq!(rules("american").as_deref(), Some("yahtzee-free"));
        assert_eq!(rules("yahtzee").as_deref(), Some("yahtzee-free"));
        assert_eq!(rules("american+forced-joker").as_deref(), Some("yahtzee"));
        assert_eq!(
            rules("yahtzee+no-joker").as_deref(),
            Some("yahtzee-nojoker")
        );
        assert_eq!(rules("american+no-bonus").as_deref(), Some("yahtzee-plain"));
        assert_eq!(
            rules("yatzy-scandinavian+fh5").as_deref(),
            Some("yatzy-scandinavian+fh5")
        );
        assert_eq!(rules("maxi-yatzy"), None);
        assert!(!variant("american+no-bonus").unwrap().five_of_a_kind_field);
        assert!(!variant("yatzy-scandinavian").unwrap().five_of_a_kind_field);
    }

    #[test]
    fn ids_map_to_box_codes_in_either_spelling() {
        let american = Family::American;
        let code = |family: Family, id| family.index(id).map(|i| family.box_code(i).to_string());
        assert_eq!(code(american, "five_of_a_kind").as_deref(), Some("Y"));
        assert_eq!(code(american, "yahtzee").as_deref(), Some("Y"));
        assert_eq!(code(american, "chance").as_deref(), Some("C"));
        assert_eq!(code(Family::Scandinavian, "yatzy").as_deref(), Some("Y"));
        assert_eq!(
            code(Family::Scandinavian, "two_pairs").as_deref(),
            Some("2P")
        );
        assert_eq!(code(Family::Scandinavian, "yahtzee"), None);
        assert_eq!(code(american, "one_pair"), None);
        for family in [Family::Scandinavian, american] {
            assert_eq!(family.box_code(family.five_of_a_kind()).as_str(), "Y");
            assert_eq!(family.index(family.id(3)), Some(3));
        }
    }
}
