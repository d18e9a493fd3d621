//! Corrections of the oracle's value function fitted by self-play: the future of a slip is
//! regressed on features of its columns (least squares on simulated outcomes), and the fitted
//! function replaces the plain sum of one-column values.
//!
//! The fitted future of a slip with `t` turns left is a sum over its columns, so the turn only
//! revalues the column written: `sum over columns c, features f, stage terms s of
//! w[c][f][s] * feature_f(column c) * stage_s(t)`.

use super::endgame::credited;
use super::key::{key_info, ColumnKey};
use super::oracle::{JambOracle, JambTurnCache, OraclePlayer};
use crate::rules::jamb::{JambBox, JambSheet, BOXES, MAX_ROLLS};
use crate::rules::play::{play_game, DiceLaw, JambPlayer};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Features of one column ([`column_features`]).
pub const FEATURES: usize = 20;
/// Features of the whole slip: for each box, the square of the number of columns where it is
/// empty (the same box open in several columns is worth less than the sum of its parts).
pub const GLOBAL: usize = BOXES;
/// Stage terms: hat functions of `t / T` (`t` the turns left, `T` the game's turns) peaking at
/// 0, 1/3, 2/3 and 1; they add up to 1, so each feature's weight moves linearly between them.
pub const STAGES: usize = 4;

/// The features of a column with key `key` and exact one-column value `value`: the value, one
/// indicator per empty box, the squared share of empty boxes, whether the upper bonus is open
/// and the share of 60 still missing then, and the middle section's pending points (Ones,
/// Max, Min, Max - Min, scaled to about 0..1).
pub fn column_features(key: ColumnKey, value: f64) -> [f64; FEATURES] {
    let mut x = [0.0; FEATURES];
    x[0] = value;
    for (b, slot) in x[1..=BOXES].iter_mut().enumerate() {
        if key.mask & (1 << b) == 0 {
            *slot = 1.0;
        }
    }
    let empty = f64::from((!key.mask & super::key::FULL).count_ones()) / BOXES as f64;
    x[14] = empty * empty;
    let info = key_info(key);
    if info.bonus_open {
        x[15] = 1.0;
        x[16] = f64::from(60 - info.upper_sum) / 60.0;
    }
    x[17] = info.pending_ones.map_or(0.0, |o| f64::from(o) / 5.0);
    x[18] = info.pending_max.map_or(0.0, |m| f64::from(m) / 30.0)
        + info.pending_diff.map_or(0.0, |d| f64::from(d) / 25.0);
    x[19] = info.pending_min.map_or(0.0, |m| f64::from(m) / 30.0);
    x
}

/// The weights of a fitted value function, by column, feature and stage term.
#[derive(Clone, Debug, PartialEq)]
pub struct Correction {
    /// `weights[(c * FEATURES + f) * STAGES + s]` for the column features, then
    /// `weights[(columns * FEATURES + g) * STAGES + s]` for the slip features.
    pub weights: Vec<f64>,
}

/// Number of weights of a slip of `columns` columns.
pub fn weight_count(columns: usize) -> usize {
    (columns * FEATURES + GLOBAL) * STAGES
}

impl Correction {
    /// The plain value function: each column's exact one-column value, unscaled.
    pub fn plain(columns: usize) -> Correction {
        let mut weights = vec![0.0; weight_count(columns)];
        for c in 0..columns {
            weights[c * FEATURES * STAGES..][..STAGES].fill(1.0);
        }
        Correction { weights }
    }

    /// The fitted future of column `c` with key `key`, exact one-column value `value` and
    /// stage terms `stage`.
    pub fn column_future(
        &self,
        c: usize,
        key: ColumnKey,
        value: f64,
        stage: &[f64; STAGES],
    ) -> f64 {
        let w = &self.weights[c * FEATURES * STAGES..(c + 1) * FEATURES * STAGES];
        let x = column_features(key, value);
        let mut out = 0.0;
        for (f, &xf) in x.iter().enumerate() {
            if xf != 0.0 {
                for s in 0..STAGES {
                    out += w[f * STAGES + s] * xf * stage[s];
                }
            }
        }
        out
    }

    /// The slip part of the fitted future: `counts[b]` is the number of columns (of
    /// `columns`) where box `b` is empty.
    pub fn slip_future(&self, columns: usize, counts: &[u8; BOXES], stage: &[f64; STAGES]) -> f64 {
        let w = &self.weights[columns * FEATURES * STAGES..];
        let mut out = 0.0;
        for (b, &n) in counts.iter().enumerate() {
            let x = f64::from(n) * f64::from(n);
            for s in 0..STAGES {
                out += w[b * STAGES + s] * x * stage[s];
            }
        }
        out
    }

    /// True when the weights fit a slip of `columns` columns.
    pub fn fits(&self, columns: usize) -> bool {
        self.weights.len() == weight_count(columns)
    }
}

/// The stage terms of a slip with `left` turns left out of `turns`.
pub fn stage_terms(left: usize, turns: usize) -> [f64; STAGES] {
    let x = (left as f64 / turns.max(1) as f64).clamp(0.0, 1.0) * (STAGES - 1) as f64;
    std::array::from_fn(|s| (1.0 - (x - s as f64).abs()).max(0.0))
}

/// What the regression fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The points the slip went on to score in the game (Monte Carlo).
    Outcome,
    /// The oracle's own value of the slip's next turn (exact over the turn, one Bellman step).
    NextTurn,
}

/// One game's samples: the features of the slip before each turn (a row of
/// [`weight_count`]) and its future (see [`Target`]).
fn game_samples(oracle: &Arc<JambOracle>, seed: u64, target: Target) -> Vec<(Vec<f64>, f64)> {
    let rules = *oracle.rules();
    let mut player = OraclePlayer::new(Arc::clone(oracle));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut players: [&mut dyn JambPlayer; 1] = [&mut player];
    let Ok(game) = play_game(rules, &mut players, DiceLaw::Fair, &mut rng) else {
        return Vec::new();
    };
    let final_total = f64::from(game.finals[0].total());
    let mut sheet = JambSheet::new(rules);
    let mut out = Vec::with_capacity(game.turns.len());
    let mut cache = JambTurnCache::default();
    for turn in &game.turns {
        let row = oracle.features(&sheet);
        let y = match target {
            Target::Outcome => final_total,
            Target::NextTurn => oracle
                .before_roll(&sheet, 1, None, &mut cache)
                .unwrap_or(final_total),
        };
        out.push((row, y - f64::from(credited(&sheet))));
        let Some(last) = turn.rolls.last() else {
            break;
        };
        let Some(dice) = crate::dice::Dice::from_faces(last) else {
            break;
        };
        let n = (turn.rolls.len() as u8).min(MAX_ROLLS);
        match sheet.after_cell(&dice, n, turn.cell) {
            Some(next) => sheet = next,
            None => break,
        }
    }
    out
}

/// Fits the weights by ridge regression (penalty `ridge` on every weight but each column's
/// one-column value at stage 1) on the futures of the slips met in `games` self-played games
/// of `oracle` (seeds `seed * 1_000_003 + game`). Deterministic whatever the thread count.
pub fn fit(
    oracle: &Arc<JambOracle>,
    games: u64,
    seed: u64,
    ridge: f64,
    progress: &(dyn Fn(u64) + Sync),
) -> Option<Correction> {
    fit_to(oracle, games, seed, ridge, Target::Outcome, progress)
}

/// [`fit`] to a chosen [`Target`]; `progress` gets the number of games played so far.
pub fn fit_to(
    oracle: &Arc<JambOracle>,
    games: u64,
    seed: u64,
    ridge: f64,
    target: Target,
    progress: &(dyn Fn(u64) + Sync),
) -> Option<Correction> {
    let played = AtomicU64::new(0);
    let columns = oracle.rules().columns.len();
    let dim = weight_count(columns);
    const BLOCK: u64 = 64;
    let block_sums = |b: u64| -> (Vec<f64>, Vec<f64>) {
        let mut xtx = vec![0.0; dim * dim];
        let mut xty = vec![0.0; dim];
        let end = ((b + 1) * BLOCK).min(games);
        for g in b * BLOCK..end {
            for (row, y) in game_samples(oracle, seed * 1_000_003 + g, target) {
                for (i, &ri) in row.iter().enumerate() {
                    if ri == 0.0 {
                        continue;
                    }
                    xty[i] += ri * y;
                    for (x, &rj) in xtx[i * dim..(i + 1) * dim].iter_mut().zip(&row) {
                        *x += ri * rj;
                    }
                }
            }
        }
        let before = played.fetch_add(end - b * BLOCK, Ordering::Relaxed);
        progress(before + end - b * BLOCK);
        (xtx, xty)
    };
    // Blocks in waves (bounded memory), each wave's sums added in block order: the same
    // result whatever the number of threads.
    let mut xtx = vec![0.0; dim * dim];
    let mut xty = vec![0.0; dim];
    let blocks = games.div_ceil(BLOCK);
    let wave = 4 * rayon::current_num_threads().max(1) as u64;
    for first in (0..blocks).step_by(wave as usize) {
        let sums: Vec<(Vec<f64>, Vec<f64>)> = (first..(first + wave).min(blocks))
            .into_par_iter()
            .map(block_sums)
            .collect();
        for (a, b) in &sums {
            for (x, y) in xtx.iter_mut().zip(a) {
                *x += y;
            }
            for (x, y) in xty.iter_mut().zip(b) {
                *x += y;
            }
        }
    }
    let samples = xtx[0].max(1.0);
    for i in 0..dim {
        let unpenalised = i < columns * FEATURES * STAGES && i % (FEATURES * STAGES) < STAGES;
        if !unpenalised {
            xtx[i * dim + i] += ridge * samples;
        }
    }
    solve_symmetric(&mut xtx, &mut xty, dim).map(|weights| Correction { weights })
}

/// Solves `a x = b` for a symmetric positive definite `a` (`n x n`, row-major) by Cholesky
/// decomposition; `None` if `a` is not positive definite.
fn solve_symmetric(a: &mut [f64], b: &mut [f64], n: usize) -> Option<Vec<f64>> {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    // Forward (L y = b) then backward (L^T x = y) substitution.
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * n + k] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for k in i + 1..n {
            s -= a[k * n + i] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    Some(b.to_vec())
}

/// Names of the features, for reports.
pub fn feature_name(f: usize) -> String {
    match f {
        0 => "V".into(),
        1..=BOXES => format!(
            "empty {}",
            JambBox::from_index(f - 1).map_or("?", JambBox::code)
        ),
        14 => "empty share squared".into(),
        15 => "bonus open".into(),
        16 => "bonus missing".into(),
        17 => "pending ones".into(),
        18 => "pending max or max - min".into(),
        19 => "pending min".into(),
        _ => "?".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cholesky_solves_a_small_system() {
        let mut a = vec![4.0, 2.0, 0.6, 2.0, 5.0, 1.0, 0.6, 1.0, 3.0];
        let want = [1.0, -2.0, 0.5];
        let mut b: Vec<f64> = (0..3)
            .map(|i| (0..3).map(|j| a[i * 3 + j] * want[j]).sum())
            .collect();
        let x = solve_symmetric(&mut a, &mut b, 3).unwrap();
        for (x, w) in x.iter().zip(want) {
            assert!((x - w).abs() < 1e-12);
        }
    }
}

#[cfg(test)]
mod stage_tests {
    use super::*;

    #[test]
    fn stage_terms_are_hats_summing_to_one() {
        for left in 0..=65 {
            let s = stage_terms(left, 65);
            assert!((s.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(s.iter().all(|&x| (0.0..=1.0).contains(&x)));
        }
        assert_eq!(stage_terms(65, 65), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(stage_terms(0, 65), [1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn plain_weights_give_the_sum_of_the_column_values() {
        let w = Correction::plain(5);
        assert!(w.fits(5) && !w.fits(4));
        let key = ColumnKey::EMPTY;
        for left in [1, 30, 65] {
            let stage = stage_terms(left, 65);
            assert!((w.column_future(2, key, 123.5, &stage) - 123.5).abs() < 1e-12);
            assert_eq!(w.slip_future(5, &[5; BOXES], &stage), 0.0);
        }
    }
}
