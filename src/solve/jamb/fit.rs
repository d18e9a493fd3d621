//! Corrections of the oracle's value function fitted by self-play: the future of a slip is
//! regressed on the features of its columns ([`features`](super::features); least squares on
//! simulated outcomes), and the fitted function replaces the plain sum of one-column values.

use super::endgame::credited;
use super::features::{weight_count, Correction, FEATURES, STAGES};
use super::oracle::{JambOracle, JambTurnCache, OraclePlayer};
use super::selfplay::{needs_own_turn, play_oracle_game};
use crate::rules::jamb::{JambSheet, MAX_ROLLS};
use crate::rules::play::{play_game, DiceLaw, JambPlayer};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

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
    if needs_own_turn(&rules) {
        return own_turn_samples(oracle, seed, target);
    }
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
        if !valued_by_fit(oracle, &sheet) {
            break;
        }
        let row = oracle.features(&sheet);
        let y = match target {
            Target::Outcome => final_total,
            Target::NextTurn => oracle
                .before_roll(&sheet, 1, None, &mut cache)
                .unwrap_or(final_total),
        };
        out.push((
            row,
            y - f64::from(credited(&sheet, oracle.points().middle())),
        ));
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

/// True when the oracle values `sheet` with the fitted function: the exact endgame values the
/// slips with at most its limit of empty boxes, so those are no samples of the fit (they would
/// only pull the last stage's weights towards slips where they are never used).
fn valued_by_fit(oracle: &JambOracle, sheet: &JambSheet) -> bool {
    sheet.turns_left() > oracle.value_function().endgame
}

/// [`game_samples`] of a game played by [`play_oracle_game`].
fn own_turn_samples(oracle: &JambOracle, seed: u64, target: Target) -> Vec<(Vec<f64>, f64)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let Ok(game) = play_oracle_game(oracle, &mut rng) else {
        return Vec::new();
    };
    let final_total = f64::from(game.last.total());
    let middle = oracle.points().middle();
    let mut cache = JambTurnCache::default();
    game.before_turns
        .iter()
        .filter(|sheet| valued_by_fit(oracle, sheet))
        .map(|sheet| {
            let y = match target {
                Target::Outcome => final_total,
                Target::NextTurn => oracle
                    .before_roll(sheet, 1, None, &mut cache)
                    .unwrap_or(final_total),
            };
            (
                oracle.features(sheet),
                y - f64::from(credited(sheet, middle)),
            )
        })
        .collect()
}

/// Fits the weights by ridge regression (penalty `ridge` on every weight but each column's
/// one-column value at stage 1) on the futures of the slips met in `games` self-played games
/// of `oracle` (seeds `seed * 1_000_003 + game`), leaving out the slips its exact endgame
/// values. Deterministic whatever the thread count.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::jamb::JambRules;
    use crate::solve::jamb::oracle::ValueFunction;
    use crate::solve::jamb::tables::JambTables;

    #[test]
    fn the_fit_samples_only_the_slips_its_weights_value() {
        // Tables of the right shape whose values are 0 build in a moment; the oracle on them
        // still plays whole games.
        let tables = JambTables::zero(JambRules::JAMB_5);
        let turns = JambRules::JAMB_5.turns();
        for endgame in [0, 3] {
            let value = ValueFunction {
                endgame,
                ..ValueFunction::default()
            };
            let oracle = Arc::new(JambOracle::with_value(tables.clone(), value));
            let samples = game_samples(&oracle, 5, Target::Outcome);
            // One sample a turn, less the last `endgame` turns, which the exact endgame values.
            assert_eq!(samples.len(), turns - endgame, "endgame {endgame}");
        }
    }

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
