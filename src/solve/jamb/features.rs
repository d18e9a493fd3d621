//! The features of the oracle's value function, and the weights fitted on them ([`Correction`]):
//! the future of a slip is a sum over its columns, so the turn only revalues the column
//! written: `sum over columns c, features f, stage terms s of
//! w[c][f][s] * feature_f(column c) * stage_s(t)` (`t` the turns left), plus a few features of
//! the whole slip. The oracle evaluates them; [`fit`](super::fit) fits the weights by
//! self-play.

use super::key::{key_info, ColumnKey, MiddleRule};
use crate::rules::jamb::BOXES;

/// Features of one column ([`column_features`]).
pub(crate) const FEATURES: usize = 20;
/// Features of the whole slip: for each box, the square of the number of columns where it is
/// empty (the same box open in several columns is worth less than the sum of its parts).
pub(crate) const GLOBAL: usize = BOXES;
/// Stage terms: hat functions of `t / T` (`t` the turns left, `T` the game's turns) peaking at
/// 0, 1/3, 2/3 and 1; they add up to 1, so each feature's weight moves linearly between them.
pub(crate) const STAGES: usize = 4;

/// The features of a column with key `key` and exact one-column value `value`: the value, one
/// indicator per empty box, the squared share of empty boxes, whether the upper bonus is open
/// and the share of 60 still missing then, and the middle section's pending points (Ones,
/// Max, Min, Max - Min, scaled to about 0..1), the middle section counted by `middle`.
pub(crate) fn column_features(key: ColumnKey, value: f64, middle: MiddleRule) -> [f64; FEATURES] {
    let mut x = [0.0; FEATURES];
    x[0] = value;
    for (b, slot) in x[1..=BOXES].iter_mut().enumerate() {
        if key.mask & (1 << b) == 0 {
            *slot = 1.0;
        }
    }
    let empty = f64::from((!key.mask & super::key::FULL).count_ones()) / BOXES as f64;
    x[14] = empty * empty;
    let info = key_info(key, middle);
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
pub(crate) fn weight_count(columns: usize) -> usize {
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
    /// stage terms `stage`, the middle section counted by `middle`.
    pub(crate) fn column_future(
        &self,
        c: usize,
        key: ColumnKey,
        value: f64,
        stage: &[f64; STAGES],
        middle: MiddleRule,
    ) -> f64 {
        let w = &self.weights[c * FEATURES * STAGES..(c + 1) * FEATURES * STAGES];
        let x = column_features(key, value, middle);
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
    pub(crate) fn slip_future(
        &self,
        columns: usize,
        counts: &[u8; BOXES],
        stage: &[f64; STAGES],
    ) -> f64 {
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
    pub(crate) fn fits(&self, columns: usize) -> bool {
        self.weights.len() == weight_count(columns)
    }
}

/// The stage terms of a slip with `left` turns left out of `turns`.
pub(crate) fn stage_terms(left: usize, turns: usize) -> [f64; STAGES] {
    let x = (left as f64 / turns.max(1) as f64).clamp(0.0, 1.0) * (STAGES - 1) as f64;
    std::array::from_fn(|s| (1.0 - (x - s as f64).abs()).max(0.0))
}

#[cfg(test)]
mod tests {
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
            let v = w.column_future(2, key, 123.5, &stage, MiddleRule::AsIs);
            assert!((v - 123.5).abs() < 1e-12);
            assert_eq!(w.slip_future(5, &[5; BOXES], &stage), 0.0);
        }
    }
}
