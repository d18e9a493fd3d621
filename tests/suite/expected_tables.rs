//! The expected-score tables: published values, determinism across thread counts, and the
//! invariants every optimal table must satisfy.

use crate::common::table;
use dicelens::dice::{self, Dice, OUTCOMES};
use dicelens::rules::{RuleSet, Sheet, UPPER_BOXES};
use dicelens::solve::expected::{
    build_table, build_table_with, sheet_value, solve_group, Grouping,
};
use dicelens::solve::simd::Path;
use dicelens::solve::states::{upper_pairs, StateSpace};
use dicelens::solve::turn_oracle::position_options;
use dicelens::solve::widget::LaneStore;

#[test]
fn empty_sheet_values_match_published_values() {
    for rules in RuleSet::FIVE_DICE {
        let value = sheet_value(table(rules), &Sheet::empty(rules)).unwrap();
        let published = rules.published_empty_sheet_value().unwrap();
        assert!(
            (value - published).abs() < 1e-6,
            "{rules}: computed {value:.9}, published {published:.9}"
        );
    }
}

#[test]
fn verhoeff_position_values() {
    let rules = RuleSet::YahtzeeFree;
    let sheet = Sheet::from_verhoeff(rules, "_2__5_TF__LYC;15-", 103).unwrap();
    let roll = Dice::from_faces(&[1, 2, 3, 4, 4]).unwrap();
    let options = position_options(table(rules), &sheet, &roll, 2);
    let value_of = |name: &str| {
        options
            .iter()
            .find(|o| o.choice.to_string() == name)
            .map(|o| o.value)
            .unwrap()
    };
    assert_eq!(format!("{:.2}", value_of("keep 234")), "243.41");
    assert_eq!(format!("{:.2}", value_of("keep 1234")), "243.10");
    assert_eq!(
        options[0].choice.to_string(),
        "keep 234",
        "keeping 2-3-4 is optimal"
    );
}

#[test]
fn build_is_bit_identical_with_one_and_two_threads() {
    for rules in [RuleSet::Yahtzee, RuleSet::Yatzy] {
        let with = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| build_table(rules, &|_, _| {}))
        };
        let one = with(1);
        let two = with(2);
        assert!(
            one.iter()
                .zip(&two)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "{rules}"
        );
        let shared = table(rules);
        assert!(
            one.iter()
                .zip(shared)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "{rules}"
        );
    }
}

/// The tile builder gives every rule set's table bit for bit as the builder before it (one
/// widget run over all lanes in memory) on this CPU's fastest instruction set (what
/// `build_table` gives), and two rule sets of each box count (yahtzee's 13 boxes, yatzy's 15)
/// on every instruction set this CPU has: scalar, AVX2 and AVX-512 each forced in turn.
#[test]
fn every_kernel_path_builds_the_same_bits_as_the_reference_builder() {
    let mut paths_run = Vec::new();
    for rules in RuleSet::FIVE_DICE {
        let reference = build_table_with(rules, Grouping::Lanes, &|_, _| {});
        let every_path = matches!(rules, RuleSet::Yahtzee | RuleSet::Yatzy);
        for path in Path::ALL.into_iter().filter(|_| every_path) {
            if !path.available() {
                eprintln!("{rules}: this CPU has no {} path", path.name());
                continue;
            }
            let tiles = build_table_with(rules, Grouping::Tiles(path), &|_, _| {});
            assert_eq!(tiles.len(), reference.len(), "{rules} {}", path.name());
            let differ = tiles
                .iter()
                .zip(&reference)
                .filter(|(a, b)| a.to_bits() != b.to_bits())
                .count();
            assert_eq!(differ, 0, "{rules}, {} path: values differ", path.name());
            paths_run.push(path);
        }
        // The shared table (what `build_table` gives) is the same bits too.
        let shared = table(rules);
        assert!(
            shared
                .iter()
                .zip(&reference)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "{rules}"
        );
    }
    assert!(paths_run.contains(&Path::Scalar));
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        assert!(paths_run.contains(&Path::Avx2), "AVX2 path not run");
    }
}

/// The single-state path used by `eval` gives the same bits as the vectorised builder.
#[test]
fn single_state_solve_matches_the_table_bit_for_bit() {
    for rules in RuleSet::MAIN {
        let space = StateSpace::new(rules);
        let values = table(rules);
        let mut store = LaneStore::new(rules.dice_space(), 1);
        for lower in (0..space.lower_count()).step_by(7) {
            for pair in (0..upper_pairs().count()).step_by(13) {
                let filled = space.lower_boxes(lower).0 | u32::from(upper_pairs().mask[pair]);
                if filled == rules.full_mask() {
                    continue;
                }
                let one = solve_group(space, values, lower, &[pair as u16], &mut store);
                let expected = values[space.index(lower, pair)];
                assert_eq!(
                    one[0].to_bits(),
                    expected.to_bits(),
                    "{rules} lower {lower} pair {pair}"
                );
            }
        }
    }
}

/// Filling a box with 0 never raises the value of the rest of the game.
#[test]
fn values_never_increase_when_a_box_is_removed() {
    let pairs = upper_pairs();
    for rules in RuleSet::MAIN {
        let space = StateSpace::new(rules);
        let values = table(rules);
        let mut checked = 0u64;
        for lower in 0..space.lower_count() {
            let (lower_filled, y50) = space.lower_boxes(lower);
            for pair in 0..pairs.count() {
                let mask = pairs.mask[pair];
                let filled = lower_filled | u32::from(mask);
                if filled == rules.full_mask() {
                    continue;
                }
                let here = values[space.index(lower, pair)];
                for b in (0..rules.box_count()).filter(|b| filled & (1 << b) == 0) {
                    let after = if b < UPPER_BOXES {
                        let p = pairs
                            .pair(mask | (1 << b), u32::from(pairs.total[pair]))
                            .unwrap();
                        values[space.index(lower, p)]
                    } else {
                        values[space.index(
                            space.lower_index(filled | (1 << b), y50 && b != rules.yahtzee_box()),
                            pair,
                        )]
                    };
                    assert!(
                        after <= here + 1e-9,
                        "{rules}: box {b} from lower {lower} pair {pair}: {after} > {here}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000, "{rules}: only {checked} comparisons");
    }
}

/// A state's value is the mean, over first rolls, of the best option's value.
#[test]
fn best_option_value_equals_the_state_value() {
    let weights = dice::tables().roll_weights();
    let sheets = [
        (RuleSet::Yahtzee, vec!["1", "2", "3K", "Y50"], 6, 120),
        (
            RuleSet::YahtzeeFree,
            vec!["2", "5", "FH", "SS", "LS", "C"],
            25,
            140,
        ),
        (
            RuleSet::YahtzeeKurnik,
            vec!["4", "5", "6", "Y0", "C", "3K", "4K"],
            60,
            150,
        ),
        (RuleSet::Yatzy, vec!["1P", "2P", "6", "C"], 24, 80),
        (RuleSet::Yahtzee, vec![], 0, 0),
    ];
    for (rules, codes, upper, points) in sheets {
        let sheet = Sheet::from_codes(rules, &codes, upper, points).unwrap();
        let values = table(rules);
        let mut sum = 0.0;
        for (r, &weight) in weights.iter().enumerate() {
            let options = position_options(values, &sheet, &Dice::roll(r), 2);
            let best = options
                .iter()
                .map(|o| o.value)
                .fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(best, options[0].value, "options are listed best first");
            sum += f64::from(weight) * best;
        }
        let mean = sum / f64::from(OUTCOMES);
        let state = sheet_value(values, &sheet).unwrap();
        assert!(
            (mean - state).abs() < 1e-9,
            "{rules} {codes:?}: {mean} vs {state}"
        );
    }
}

/// With no rolls left the options are exactly the legal boxes, valued score plus successor.
#[test]
fn box_options_add_score_and_successor_value() {
    let rules = RuleSet::Yahtzee;
    let values = table(rules);
    let sheet = Sheet::from_codes(rules, &["1", "2", "3", "4", "Y50"], 15, 80).unwrap();
    let fives = Dice::from_faces(&[5, 5, 5, 5, 5]).unwrap();
    let options = position_options(values, &sheet, &fives, 0);
    // Forced joker: the fives box is the only legal one.
    assert_eq!(options.len(), 1);
    assert_eq!(options[0].choice.to_string(), "score 5");
    let (next, gained) = sheet.after(&fives, 4).unwrap();
    assert_eq!(gained, 25 + 100);
    let expected = sheet_value(values, &next).unwrap();
    assert!((options[0].value - expected).abs() < 1e-9);
}
