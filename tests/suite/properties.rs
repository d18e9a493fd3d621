//! Property tests: arbitrary command-line positions and arbitrary table files never panic, and
//! random legal positions satisfy the oracle's invariants.

use dicelens::dice::Dice;
use dicelens::position::{Position, PositionText};
use dicelens::rules::{RuleSet, Sheet};
use dicelens::solve::expected::{build_table, sheet_value};
use dicelens::solve::turn_oracle::position_options;
use dicelens::tables::{expected_path, open_expected, TableProblem};
use proptest::prelude::*;
use std::sync::OnceLock;

fn yahtzee_table() -> &'static [f64] {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    TABLE.get_or_init(|| build_table(RuleSet::Yahtzee, &|_, _| {}))
}

/// Strings made of the characters positions are written with, plus some that are not.
fn flag_text() -> impl Strategy<Value = Option<String>> {
    proptest::option::of("[0-9A-Za-z,;_+\\- ]{0,20}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Whatever the flags say, checking the position returns a position or an error naming a flag.
    #[test]
    fn position_flags_never_panic(
        rules in proptest::option::of(prop_oneof![
            Just("yahtzee".to_string()), Just("yatzy".to_string()), Just("yahtzee-free".to_string()), "[a-z-]{0,8}"
        ]),
        filled in flag_text(), upper in flag_text(), points in flag_text(),
        state in flag_text(), roll in flag_text(), rolls_left in flag_text(),
    ) {
        let text = PositionText { rules, filled, upper, points, state, roll, rolls_left, saved: None };
        match Position::parse(&text) {
            Ok(position) => {
                prop_assert!(position.sheet.check().is_ok());
                if let Some((dice, left)) = position.roll {
                    prop_assert_eq!(dice.len(), 5);
                    prop_assert!(left <= 2);
                }
            }
            Err(e) => {
                prop_assert!(e.flag.starts_with("--"), "{}", e);
                let prefix = format!("{}: ", e.flag);
                prop_assert!(e.to_string().starts_with(&prefix), "{}", e);
                prop_assert!(!e.to_string().contains('\n'));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any bytes in a table file are refused with a reason, never trusted and never a panic.
    #[test]
    fn arbitrary_table_files_are_refused(bytes in proptest::collection::vec(any::<u8>(), 0..300), keep_header in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        let mut content = bytes;
        if keep_header {
            // A plausible header in front, so the checks past the magic number are exercised.
            let mut header = b"DICELENS".to_vec();
            header.extend_from_slice(&1u32.to_le_bytes());
            header.extend_from_slice(&1u32.to_le_bytes());
            header.extend_from_slice(b"yahtzee");
            content.splice(0..0, header);
        }
        std::fs::write(expected_path(dir.path(), RuleSet::Yahtzee), &content).unwrap();
        let result = open_expected(dir.path(), RuleSet::Yahtzee);
        prop_assert!(result.is_err());
        prop_assert_ne!(result.err(), Some(TableProblem::Missing));
    }

    /// For random sheets and rolls: options are sorted best first, scoring options agree with
    /// the value of the sheet they lead to, and no option beats the best.
    #[test]
    fn options_agree_with_successor_values(
        filled in 0u32..(1 << 13),
        y50 in any::<bool>(),
        upper_dice in proptest::collection::vec(0u32..=5, 6),
        faces in proptest::collection::vec(1u8..=6, 5),
        rolls_left in 0u8..=2,
    ) {
        let rules = RuleSet::Yahtzee;
        prop_assume!(filled != rules.full_mask());
        let upper: u32 = (0..6).filter(|f| filled & (1 << f) != 0).map(|f| (f + 1) * upper_dice[f as usize]).sum();
        let yahtzee_filled = filled & (1 << rules.yahtzee_box()) != 0;
        let mut sheet = Sheet { rules, filled, yahtzee_50: y50 && yahtzee_filled, upper_total: upper, points: 0 };
        // Points the sheet can hold: from the least to the most.
        sheet.points = (sheet.least_points() + sheet.most_points()) / 2;
        prop_assert!(sheet.check().is_ok());
        let roll = Dice::from_faces(&faces).unwrap();
        let table = yahtzee_table();
        let options = position_options(table, &sheet, &roll, rolls_left);
        prop_assert!(!options.is_empty());
        prop_assert!(options.windows(2).all(|w| w[0].value >= w[1].value));
        for o in &options {
            if let dicelens::solve::expected::Choice::Score(category) = o.choice {
                let b = rules.box_of(category).unwrap();
                let (next, _) = sheet.after(&roll, b).unwrap();
                let expected = sheet_value(table, &next).unwrap();
                prop_assert!((o.value - expected).abs() < 1e-9, "{} {} vs {}", o.choice, o.value, expected);
            }
        }
        let keeps = options.iter().filter(|o| matches!(o.choice, dicelens::solve::expected::Choice::Keep(_))).count();
        let proper_subsets = roll.sub_multisets().len() - 1;
        prop_assert_eq!(keeps, if rolls_left > 0 { proper_subsets } else { 0 });
    }
}
