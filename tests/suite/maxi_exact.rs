//! Maxi Yatzy's expected-score table on reduced games: against a plain expectimax over raw
//! dice and sheets, and against simulated games played by the table's own choices.
//!
//! The whole `maxi-yatzy` table takes minutes, so both checks read a sub-game table
//! (`build_subgame_table`: every state reachable once a set of boxes is filled, the same bits
//! as the whole table gives them); `sub_game_tables_are_the_whole_tables_states` holds it to
//! the whole table on a five-dice rule set whose table the suite has.

use crate::common::{reduced, table};
use dicelens::dice::Dice;
use dicelens::rules::{RuleSet, Sheet};
use dicelens::solve::expected::{build_subgame_table, sheet_value, Choice};
use dicelens::solve::turn_oracle::position_options;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

const MAXI: RuleSet = RuleSet::MaxiYatzy;
/// Dice rolled in Maxi Yatzy.
const DICE: usize = 6;
/// Rolls a turn.
const ROLLS: usize = 3;

/// The boxes open in the sub-game every reduced position below lies in.
const OPEN: [&str; 10] = ["1", "5", "6", "3P", "SS", "FS", "FH", "VI", "TO", "Y"];

/// Mask of the boxes filled in every reduced position (all but [`OPEN`]).
fn sub_game_filled() -> u32 {
    let open = OPEN
        .iter()
        .fold(0u32, |m, code| m | 1 << MAXI.parse_box(code).unwrap().0);
    MAXI.full_mask() & !open
}

/// The sub-game's table, built once for the tests of this module.
fn sub_game_table() -> &'static [f64] {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| build_subgame_table(MAXI, sub_game_filled(), &|_, _| {}))
}

/// Dice by their counts per face: every keep and roll of six dice.
fn dice_by_counts() -> HashMap<[u8; 6], Dice> {
    let space = MAXI.dice_space();
    (0..space.keep_count())
        .filter_map(|k| space.keep(k))
        .map(|d| (d.counts(), d))
        .collect()
}

/// A plain expectimax over sheets and dice counts, sharing nothing with the table builder or
/// the turn widget: ordered outcomes of the rerolled dice are enumerated one by one.
struct BruteForce {
    dice: HashMap<[u8; 6], Dice>,
    /// Points still to come from a sheet (filled boxes, capped upper total).
    memo: HashMap<(u32, u32), f64>,
}

impl BruteForce {
    fn new() -> BruteForce {
        BruteForce {
            dice: dice_by_counts(),
            memo: HashMap::new(),
        }
    }

    /// Expected points still to come from `sheet` under optimal play.
    fn future(&mut self, sheet: &Sheet) -> f64 {
        if sheet.is_complete() {
            return 0.0;
        }
        let key = (sheet.filled, sheet.upper_total.min(MAXI.upper_threshold()));
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let v = self.turn(sheet);
        self.memo.insert(key, v);
        v
    }

    /// The best box for a final roll: points gained plus what follows.
    fn best_box(&mut self, sheet: &Sheet, counts: [u8; 6]) -> f64 {
        let roll = self.dice[&counts];
        let mut best = f64::NEG_INFINITY;
        for b in 0..MAXI.box_count() {
            if let Some((next, gained)) = sheet.after(&roll, b) {
                best = best.max(f64::from(gained) + self.future(&next));
            }
        }
        best
    }

    /// The expected value of one turn from `sheet`: three rolls, keeping any dice between.
    fn turn(&mut self, sheet: &Sheet) -> f64 {
        // value[r][roll]: the value of a roll with r rolls left after it.
        let mut after_roll: Vec<HashMap<[u8; 6], f64>> = vec![HashMap::new(); ROLLS];
        let mut rolls = Vec::new();
        counts_of(DICE as u8, 0, &mut [0; 6], &mut rolls);
        for &roll in &rolls {
            let v = self.best_box(sheet, roll);
            after_roll[0].insert(roll, v);
        }
        for left in 1..ROLLS {
            let mut keep_means: HashMap<[u8; 6], f64> = HashMap::new();
            for &roll in &rolls {
                let mut best = after_roll[0][&roll];
                for keep in sub_counts(roll) {
                    let mean = *keep_means
                        .entry(keep)
                        .or_insert_with(|| mean_after(keep, &after_roll[left - 1]));
                    best = best.max(mean);
                }
                after_roll[left].insert(roll, best);
            }
        }
        mean_after([0; 6], &after_roll[ROLLS - 1])
    }
}

/// Every count vector of `n` dice over faces `face..6` appended to `prefix`.
fn counts_of(n: u8, face: usize, prefix: &mut [u8; 6], out: &mut Vec<[u8; 6]>) {
    if face == 5 {
        prefix[5] = n;
        out.push(*prefix);
        return;
    }
    for c in 0..=n {
        prefix[face] = c;
        counts_of(n - c, face + 1, prefix, out);
    }
    prefix[face] = 0;
}

/// Every sub-multiset of `roll` (as counts), the roll itself included.
fn sub_counts(roll: [u8; 6]) -> Vec<[u8; 6]> {
    let mut out = vec![[0u8; 6]];
    for face in 0..6 {
        out = out
            .iter()
            .flat_map(|base| {
                (0..=roll[face]).map(move |n| {
                    let mut d = *base;
                    d[face] = n;
                    d
                })
            })
            .collect();
    }
    out
}

/// The mean of `values` over every ordered outcome of the dice not in `keep`.
fn mean_after(keep: [u8; 6], values: &HashMap<[u8; 6], f64>) -> f64 {
    let free = DICE - keep.iter().map(|&c| usize::from(c)).sum::<usize>();
    let outcomes = 6usize.pow(free as u32);
    let mut sum = 0.0;
    for index in 0..outcomes {
        let mut counts = keep;
        let mut rest = index;
        for _ in 0..free {
            counts[rest % 6] += 1;
            rest /= 6;
        }
        sum += values[&counts];
    }
    sum / outcomes as f64
}

/// The reduced positions: one to three boxes open, with the upper bonus still to make, made
/// or out of reach.
fn positions() -> Vec<(&'static str, Sheet)> {
    let specs: &[(&str, &[&str], u32)] = &[
        ("sixes from 60: four sixes make the bonus", &["6"], 60),
        ("Maxi Yatzy box, bonus made", &["Y"], 84),
        ("fives and sixes from 40", &["5", "6"], 40),
        ("ones from 80 and three pairs", &["1", "3P"], 80),
        ("full house, villa, tower", &["FH", "VI", "TO"], 84),
        (
            "small and full straights, sixes from 30 (out of reach)",
            &["SS", "FS", "6"],
            30,
        ),
        ("ones, fives, Maxi Yatzy from 55", &["1", "5", "Y"], 55),
    ];
    specs
        .iter()
        .map(|&(what, free, upper)| (what, reduced(MAXI, free, false, upper, 300)))
        .collect()
}

#[test]
fn maxi_yatzy_table_equals_brute_force_on_reduced_games() {
    let table = sub_game_table();
    let mut brute = BruteForce::new();
    for (what, sheet) in positions() {
        assert_eq!(
            sheet.filled & sub_game_filled(),
            sub_game_filled(),
            "{what}"
        );
        let by_table = sheet_value(table, &sheet).unwrap();
        let by_brute = f64::from(sheet.points) + brute.future(&sheet);
        assert!(
            (by_table - by_brute).abs() < 1e-9,
            "{what}: table {by_table:.12}, brute force {by_brute:.12}"
        );
        assert!(by_brute > f64::from(sheet.points), "{what}");
    }
}

/// Plays one turn from `sheet` with the table's best choice at every roll; the sheet after.
fn play_turn(
    table: &[f64],
    sheet: &Sheet,
    rng: &mut ChaCha8Rng,
    dice: &HashMap<[u8; 6], Dice>,
) -> Sheet {
    let mut kept = [0u8; 6];
    for left in (0..ROLLS as u8).rev() {
        let mut counts = kept;
        let held: u8 = kept.iter().sum();
        for _ in held..DICE as u8 {
            counts[rng.gen_range(0..6)] += 1;
        }
        let roll = dice[&counts];
        let options = position_options(table, sheet, &roll, left);
        let best = options
            .iter()
            .max_by(|a, b| a.value.total_cmp(&b.value))
            .expect("a position with a free box has options");
        match best.choice {
            Choice::Keep(keep) => kept = keep.counts(),
            Choice::Score(category) => {
                let b = MAXI.box_of(category).unwrap();
                return sheet.after(&roll, b).unwrap().0;
            }
            Choice::Write(_) => unreachable!("no Jamb cell in Maxi Yatzy"),
        }
    }
    unreachable!("the last roll scores")
}

#[test]
fn simulated_optimal_play_averages_the_table_value_on_a_reduced_game() {
    let table = sub_game_table();
    let dice = dice_by_counts();
    let (what, start) = &positions()[6];
    let value = sheet_value(table, start).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    let games = 4000;
    let (mut sum, mut squares) = (0.0, 0.0);
    for _ in 0..games {
        let mut sheet = *start;
        while !sheet.is_complete() {
            sheet = play_turn(table, &sheet, &mut rng, &dice);
        }
        let score = f64::from(sheet.points);
        sum += score;
        squares += score * score;
    }
    let n = f64::from(games);
    let mean = sum / n;
    let sd = ((squares - n * mean * mean) / (n - 1.0)).sqrt();
    let se = sd / n.sqrt();
    assert!(
        (mean - value).abs() < 3.0 * se,
        "{what}: mean of {games} games {mean:.3} (SE {se:.3}) against the table's {value:.3}"
    );
}

#[test]
fn sub_game_tables_are_the_whole_tables_states() {
    let rules = RuleSet::Yatzy;
    let whole = table(rules);
    let sheet = reduced(rules, &["2", "6", "2P", "FH", "Y"], false, 20, 100);
    let sub = build_subgame_table(rules, sheet.filled, &|_, _| {});
    assert_eq!(sub.len(), whole.len());
    let space = dicelens::solve::states::StateSpace::new(rules);
    let mut within = 0;
    for lower in 0..space.lower_count() {
        for pair in 0..space.pairs.count() {
            let filled = space.lower_boxes(lower).0 | u32::from(space.pairs.mask[pair]);
            let i = space.index(lower, pair);
            if filled & sheet.filled == sheet.filled {
                within += 1;
                assert_eq!(sub[i].to_bits(), whole[i].to_bits(), "state {i}");
            } else {
                assert_eq!(sub[i], 0.0, "state {i} is outside the sub-game");
            }
        }
    }
    assert!(within > 32, "{within} states in the sub-game");
}
