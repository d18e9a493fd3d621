//! Fairness of the dice a log shows (issue 15, work in progress): the freshly rolled dice of
//! every roll (the roll minus the dice kept before it, so that a player's choices cannot bias
//! the counts), Pearson's chi-square test of face counts against 1/6 each, its p-value, the
//! exact probability of five of a kind given a keep, and the corrections for testing many
//! groups (Holm, Benjamini-Hochberg). Pure functions, for the `dice` command to come.

use crate::dice::{Dice, FACES};
use crate::replay::Replayed;
use crate::rules::Choice;

/// The dice one roll brought: who rolled them and how many of each face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FreshRoll {
    /// The roller's seat (0-based).
    pub seat: u8,
    /// Which roll of the turn (1-3).
    pub roll_number: u8,
    /// The dice kept before this roll (empty for the first roll of a turn).
    pub kept: Dice,
    /// The freshly rolled dice, by face (1 to 6).
    pub counts: [u8; FACES],
}

impl FreshRoll {
    /// How many dice were rolled.
    pub fn dice(&self) -> u8 {
        self.counts.iter().sum()
    }

    /// Whether the roll, with the kept dice, shows five of a kind.
    pub fn five_of_a_kind(&self) -> bool {
        let kept = self.kept.counts();
        (0..FACES).any(|face| kept[face] + self.counts[face] == 5)
    }
}

/// The fresh dice of every roll of a replayed game, in play order. The first roll of a turn
/// brings five dice; a later roll brings the dice of the table minus those kept after the roll
/// before. A roll whose kept dice are not on the table (a replay stopped by a broken rule never
/// yields one) is left out.
pub fn fresh_rolls(replayed: &Replayed) -> Vec<FreshRoll> {
    let mut rolls = Vec::with_capacity(replayed.decisions.len());
    let mut kept: Option<(u16, Dice)> = None;
    for decision in &replayed.decisions {
        let before = match kept {
            Some((turn, dice)) if turn == decision.turn && decision.roll_number > 1 => dice,
            _ => Dice::default(),
        };
        if let Some(fresh) = decision.dice.minus(&before) {
            rolls.push(FreshRoll {
                seat: decision.seat,
                roll_number: decision.roll_number,
                kept: before,
                counts: fresh.counts(),
            });
        }
        kept = match decision.choice {
            Choice::Keep(dice) => Some((decision.turn, dice)),
            Choice::Score(_) => None,
        };
    }
    rolls
}

/// The exact probability that rolling `5 - kept.len()` fair dice beside `kept` shows five of a
/// kind: `6 / 6^5` when nothing is kept, `(1/6)^n` when the kept dice all show one face, 0 when
/// they show two faces.
pub fn five_of_a_kind_probability(kept: &Dice) -> f64 {
    let counts = kept.counts();
    let faces = counts.iter().filter(|&&c| c > 0).count();
    let rolled = 5 - kept.len() as i32;
    match faces {
        0 => 6.0 * (1.0f64 / 6.0).powi(5),
        1 => (1.0f64 / 6.0).powi(rolled),
        _ => 0.0,
    }
}

/// Pearson's chi-square statistic of `observed` counts against `expected` counts (cells with
/// no expected count are left out).
pub fn chi_square(observed: &[u64], expected: &[f64]) -> f64 {
    observed
        .iter()
        .zip(expected)
        .filter(|(_, &e)| e > 0.0)
        .map(|(&o, &e)| {
            let d = o as f64 - e;
            d * d / e
        })
        .sum()
}

/// The probability that a chi-square variable with `df` degrees of freedom is at least `x`:
/// the regularized upper incomplete gamma function `Q(df / 2, x / 2)`.
pub fn chi_square_p(x: f64, df: u32) -> f64 {
    if df == 0 || !x.is_finite() {
        return if x.is_finite() { 1.0 } else { 0.0 };
    }
    upper_gamma_q(f64::from(df) / 2.0, x.max(0.0) / 2.0)
}

/// `ln Γ(a)` for `a > 0` (Lanczos' approximation, g = 7, nine terms: about 15 digits).
fn ln_gamma(a: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if a < 0.5 {
        // Reflection: Γ(a) Γ(1 - a) = π / sin(π a).
        let pi = std::f64::consts::PI;
        return (pi / (pi * a).sin()).ln() - ln_gamma(1.0 - a);
    }
    let a = a - 1.0;
    let t = a + 7.5;
    let sum = G
        .iter()
        .enumerate()
        .skip(1)
        .fold(G[0], |s, (i, g)| s + g / (a + i as f64));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (a + 0.5) * t.ln() - t + sum.ln()
}

/// The regularized upper incomplete gamma function `Q(a, x) = Γ(a, x) / Γ(a)`: by its series
/// below `x = a + 1`, by its continued fraction (modified Lentz) above.
fn upper_gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let log_prefix = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        // P(a, x) = x^a e^-x / Γ(a + 1) * sum_n x^n / ((a + 1)...(a + n)).
        let (mut term, mut sum, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (1.0 - sum * log_prefix.exp()).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (log_prefix.exp() * h).clamp(0.0, 1.0)
    }
}

/// Holm's step-down adjustment of `p` (family-wise error rate): the adjusted p-values, in the
/// order given.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// Benjamini and Hochberg's step-up adjustment of `p` (false discovery rate): the adjusted
/// p-values, in the order given.
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 1.0;
    for (rank, &i) in order.iter().enumerate().rev() {
        running = running.min((m as f64 * p[i] / (rank + 1) as f64).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{replay, ReplayOptions};
    use crate::rules::RuleSet;

    /// Published critical values: chi-square tables at 5% and 1%, and exact small cases.
    #[test]
    fn chi_square_p_values_match_the_tables() {
        for (x, df, p) in [
            (3.841_458_820_694_124, 1, 0.05),
            (6.634_896_601_021_213, 1, 0.01),
            (11.070_497_693_516_35, 5, 0.05),
            (15.086_272_469_388_99, 5, 0.01),
            (18.307_038_053_275_15, 10, 0.05),
            (124.342_113_404_070_7, 100, 0.05),
        ] {
            let got = chi_square_p(x, df);
            assert!((got - p).abs() < 1e-9, "x {x}, df {df}: {got}");
        }
        // df = 2: Q = exp(-x / 2) exactly.
        for x in [0.1, 1.0, 7.5, 40.0] {
            assert!((chi_square_p(x, 2) - (-x / 2.0f64).exp()).abs() < 1e-13);
        }
        assert_eq!(chi_square_p(0.0, 5), 1.0);
        assert!(chi_square_p(1e4, 5) < 1e-300);
    }

    #[test]
    fn chi_square_of_fair_counts_is_zero() {
        assert_eq!(chi_square(&[10; 6], &[10.0; 6]), 0.0);
        let x = chi_square(&[12, 8, 10, 10, 10, 10], &[10.0; 6]);
        assert!((x - 0.8).abs() < 1e-12);
    }

    /// Adjusted values computed by hand (and as R's p.adjust gives them).
    #[test]
    fn holm_and_benjamini_hochberg_adjust_as_published() {
        let p = [0.01, 0.04, 0.03, 0.005];
        let h = holm(&p);
        for (got, want) in h.iter().zip([0.03, 0.06, 0.06, 0.02]) {
            assert!((got - want).abs() < 1e-12, "{h:?}");
        }
        let bh = benjamini_hochberg(&p);
        for (got, want) in bh.iter().zip([0.02, 0.04, 0.04, 0.02]) {
            assert!((got - want).abs() < 1e-12, "{bh:?}");
        }
        assert!(holm(&[]).is_empty());
        assert_eq!(benjamini_hochberg(&[0.7]), vec![0.7]);
    }

    #[test]
    fn five_of_a_kind_probabilities_are_exact() {
        let dice = |faces: &[u8]| Dice::from_faces(faces).unwrap();
        assert!((five_of_a_kind_probability(&Dice::default()) - 6.0 / 7776.0).abs() < 1e-15);
        assert!((five_of_a_kind_probability(&dice(&[6, 6, 6])) - 1.0 / 36.0).abs() < 1e-15);
        assert_eq!(five_of_a_kind_probability(&dice(&[2, 2, 2, 2, 2])), 1.0);
        assert_eq!(five_of_a_kind_probability(&dice(&[1, 2])), 0.0);
    }

    /// A turn of three rolls: the fresh dice are the roll minus the keep before it.
    #[test]
    fn fresh_dice_are_the_roll_minus_the_keep() {
        use dicelens_parsers::GameReader;
        let text = "[Game \"g\"]\n[Rules \"yahtzee\"]\n[Players \"a\"]\n\
                    [Termination \"abandoned\"]\n\n\
                    1. a: 12345 k12 11256 k112 11126 1=3\n";
        let mut reader = dicelens_parsers::ygn::Reader::new(text.as_bytes(), "t.ygn");
        let mut game = dicelens_parsers::GameRecord::default();
        assert!(matches!(reader.read_game(&mut game), Some(Ok(()))));
        let mut replayed = Replayed::default();
        let options = ReplayOptions {
            include_unfinished: true,
        };
        replay(&game, options, &mut replayed).unwrap();
        assert_eq!(replayed.rules, Some(RuleSet::Yahtzee));
        let rolls = fresh_rolls(&replayed);
        assert_eq!(rolls.len(), 3);
        assert_eq!(rolls[0].counts, [1, 1, 1, 1, 1, 0]);
        assert_eq!(rolls[1].counts, [1, 0, 0, 0, 1, 1], "11256 minus 12");
        assert_eq!(rolls[2].counts, [1, 0, 0, 0, 0, 1], "11126 minus 112");
        assert_eq!(rolls[2].dice(), 2);
        assert!(rolls.iter().all(|r| !r.five_of_a_kind()));
    }
}
