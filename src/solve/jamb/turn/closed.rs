//! The turn after announcing one box, in closed form where its write values allow it, instead
//! of a run of the widget (docs/jamb-oracle.md §3):
//!
//! - *Affine* values, the box's points plus one constant (every box whose score leaves the
//!   column's state alone: the lower boxes but Max and Min). The widget commutes with adding
//!   a constant, so the turn is the box played for its points alone, which the rules fix,
//!   plus the constant. Those turns are solved once per score table ([`ClosedForms`]).
//! - *Counted* values: a box whose score depends only on how many dice show one face (the
//!   upper boxes), with values that never fall as that count grows. Keeping every die of the
//!   face and rolling the others is then best at every roll (it gives at least the count of
//!   any other choice, die by die), so a roll is worth a sum over binomial counts, and a keep
//!   the mean of the next roll's.
//!
//! Both give the widget's values up to rounding: the affine test allows 1e-9 of drift between
//! the constants of the scores (sums of the same terms in another order), the counted one is
//! exact. Any other lane runs the widget.

use super::{announced_runs, AnnounceLane, AnnouncedRuns, MAX_TURN_ROLLS};
use crate::dice::{DiceSpace, FACES};
use crate::rules::jamb::{Cell, JambBox, BOXES, MAX_ROLLS};
use crate::solve::jamb::BoxPoints;
use std::sync::Arc;

/// Largest drift, relative to the constant, between the constants of an affine lane's scores.
const AFFINE_DRIFT: f64 = 1e-9;

/// What the closed forms read, built once per score table: the turns of every box played for
/// its points, and which boxes score by the count of one face.
#[derive(Clone, Debug)]
pub(crate) struct ClosedForms {
    /// `score_turns[rolls - 2]`: every box's announced turn of `rolls` rolls (2 to
    /// [`MAX_TURN_ROLLS`]) valued by its points, every roll kept, lane = the box's index.
    score_turns: Vec<Arc<AnnouncedRuns>>,
    /// `first_rolls[rolls - 2][box][r]`: roll 1's values of those score turns, box by box
    /// (`score_turns`' roll 1 slots of the box's lane, in roll order).
    first_rolls: Vec<Vec<Vec<f64>>>,
    /// `face_counts[face - 1][r]`: how many dice of roll `r` show `face`.
    face_counts: Vec<Vec<u8>>,
    /// For a box whose class on every roll number depends only on how many dice show one
    /// face: that face and the class of each count (0 to the number of dice).
    counted: [Option<(u8, Vec<u8>)>; BOXES],
    /// `binomial[s][x]`: the chance that `x` of `s` rolled dice show one given face.
    binomial: Arc<Vec<Vec<f64>>>,
}

/// How one announced lane is valued.
#[derive(Clone, Debug)]
pub(super) enum LaneSolve {
    /// By the widget.
    Widget,
    /// Lane `from` of `turns` (the score turns of the turn's rolls) plus `constant`.
    Affine {
        turns: Arc<AnnouncedRuns>,
        from: usize,
        constant: f64,
    },
    /// By counts of `face`: `by_count[j][c]` is a roll showing the face `c` times with `j`
    /// rolls after it.
    Counted {
        face: u8,
        by_count: Vec<Vec<f64>>,
        binomial: Arc<Vec<Vec<f64>>>,
    },
}

impl ClosedForms {
    /// The closed forms of `points`' scores.
    pub(crate) fn build(points: &BoxPoints) -> ClosedForms {
        let dice = points.dice();
        let scores: Vec<f64> = JambBox::ALL
            .iter()
            .flat_map(|&b| points.values(b).iter().map(|&p| f64::from(p)))
            .collect();
        let mut offset = 0;
        let lanes: Vec<AnnounceLane> = JambBox::ALL
            .iter()
            .map(|&jbox| {
                let lane = AnnounceLane {
                    values: &scores,
                    cell: Cell { column: 0, jbox },
                    offset,
                };
                offset += points.values(jbox).len();
                lane
            })
            .collect();
        let score_turns: Vec<Arc<AnnouncedRuns>> = (2..=MAX_TURN_ROLLS)
            .map(|rolls| Arc::new(announced_runs(points, rolls, &lanes, true)))
            .collect();
        let first_rolls = score_turns
            .iter()
            .map(|turns| {
                (0..BOXES)
                    .map(|b| {
                        (0..dice.roll_count())
                            .map(|r| turns.roll(1, r, b).unwrap_or(f64::NEG_INFINITY))
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let face_counts = (1..=FACES as u8)
            .map(|face| dice.rolls().iter().map(|roll| roll.count(face)).collect())
            .collect();
        let counted = std::array::from_fn(|b| counted_face(points, JambBox::ALL[b]));
        let binomial = (0..=dice.dice())
            .map(|s| {
                (0..=s)
                    .map(|x| {
                        let ways = (0..x).fold(1.0, |w, i| w * (s - i) as f64 / (i + 1) as f64);
                        ways * (1.0f64 / 6.0).powi(x as i32) * (5.0f64 / 6.0).powi((s - x) as i32)
                    })
                    .collect()
            })
            .collect();
        ClosedForms {
            score_turns,
            first_rolls,
            face_counts,
            counted,
            binomial: Arc::new(binomial),
        }
    }

    /// How `lane` of a turn of `rolls` rolls (2 or more) is valued: affine, counted, or by the
    /// widget.
    pub(super) fn solve_of(&self, points: &BoxPoints, rolls: u8, lane: &AnnounceLane) -> LaneSolve {
        let jbox = lane.cell.jbox;
        let scores = points.values(jbox);
        let turns = usize::from(rolls)
            .checked_sub(2)
            .and_then(|i| self.score_turns.get(i));
        let (Some(values), Some(turns)) = (
            lane.values.get(lane.offset..lane.offset + scores.len()),
            turns,
        ) else {
            return LaneSolve::Widget;
        };
        if values.iter().any(|v| !v.is_finite()) {
            return LaneSolve::Widget;
        }
        let constant = values[0] - f64::from(scores[0]);
        let drift = AFFINE_DRIFT * (1.0 + constant.abs());
        if values
            .iter()
            .zip(scores)
            .all(|(&v, &p)| (v - f64::from(p) - constant).abs() <= drift)
        {
            return LaneSolve::Affine {
                turns: Arc::clone(turns),
                from: jbox.index(),
                constant,
            };
        }
        if let Some((face, classes)) = &self.counted[jbox.index()] {
            let by_count: Vec<f64> = classes.iter().map(|&k| values[usize::from(k)]).collect();
            if by_count.windows(2).all(|w| w[0] <= w[1]) {
                return LaneSolve::Counted {
                    face: *face,
                    by_count: self.counted_rolls(usize::from(rolls), by_count),
                    binomial: Arc::clone(&self.binomial),
                };
            }
        }
        LaneSolve::Widget
    }

    /// `by_count[j][c]` for `j` below `rolls`: a roll showing the counted face `c` times with
    /// `j` rolls after it, when count `c` is worth `values[c]` written.
    fn counted_rolls(&self, rolls: usize, values: Vec<f64>) -> Vec<Vec<f64>> {
        let all = values.len() - 1;
        let mut by_count: Vec<Vec<f64>> = vec![values];
        for j in 1..rolls {
            let (written, next) = (&by_count[0], &by_count[j - 1]);
            let row = (0..=all)
                .map(|c| written[c].max(mean_next(&self.binomial, next, c, c)))
                .collect();
            by_count.push(row);
        }
        by_count
    }
}

/// A keep of `size` dice, `count` of them the counted face, worth the mean of the next roll
/// (whose count `c` is worth `next[c]`; `next` has one value per count, 0 to all dice).
fn mean_next(binomial: &[Vec<f64>], next: &[f64], size: usize, count: usize) -> f64 {
    let rolled = next.len() - 1 - size;
    binomial[rolled]
        .iter()
        .enumerate()
        .map(|(x, &p)| p * next[count + x])
        .sum()
}

impl LaneSolve {
    /// The value of keep `k` (smaller than a roll) after roll `n` of a turn of `rolls` rolls
    /// (`None` for the widget's lanes: the widget's run has them).
    pub(super) fn keep(&self, dice: &DiceSpace, rolls: u8, n: u8, k: usize) -> Option<f64> {
        match self {
            LaneSolve::Widget => None,
            LaneSolve::Affine {
                turns,
                from,
                constant,
            } => Some(turns.keep(n, k, *from)? + constant),
            LaneSolve::Counted {
                face,
                by_count,
                binomial,
            } => {
                let next = by_count.get(usize::from(rolls.checked_sub(n)?.checked_sub(1)?))?;
                let kept = dice.keeps.get(k)?;
                Some(mean_next(
                    binomial,
                    next,
                    kept.len(),
                    usize::from(kept.count(*face)),
                ))
            }
        }
    }

    /// The value of roll `r` on roll number `n` of a turn of `rolls` rolls (`None` for the
    /// widget's lanes).
    pub(super) fn roll(&self, dice: &DiceSpace, rolls: u8, n: u8, r: usize) -> Option<f64> {
        match self {
            LaneSolve::Widget => None,
            LaneSolve::Affine {
                turns,
                from,
                constant,
            } => Some(turns.roll(n, r, *from)? + constant),
            LaneSolve::Counted { face, by_count, .. } => {
                let row = by_count.get(usize::from(rolls.checked_sub(n)?))?;
                let count = dice.rolls().get(r)?.count(*face);
                row.get(usize::from(count)).copied()
            }
        }
    }

    /// Raises `best` (one value per roll) to roll 1's value of announcing the lane in a turn of
    /// `rolls` rolls, read from `forms` (the closed forms the lane was valued by; nothing for
    /// the widget's lanes): the same values as [`LaneSolve::roll`]'s on roll 1, read in a row.
    pub(super) fn raise_first_roll(&self, forms: &ClosedForms, rolls: u8, best: &mut [f64]) {
        match self {
            LaneSolve::Widget => {}
            LaneSolve::Affine { from, constant, .. } => {
                let first = usize::from(rolls)
                    .checked_sub(2)
                    .and_then(|i| forms.first_rolls.get(i))
                    .and_then(|boxes| boxes.get(*from));
                for (b, &v) in best.iter_mut().zip(first.into_iter().flatten()) {
                    *b = b.max(v + constant);
                }
            }
            LaneSolve::Counted { face, by_count, .. } => {
                let row = usize::from(rolls)
                    .checked_sub(1)
                    .and_then(|j| by_count.get(j));
                let counts = usize::from(*face)
                    .checked_sub(1)
                    .and_then(|f| forms.face_counts.get(f));
                let (Some(row), Some(counts)) = (row, counts) else {
                    return;
                };
                for (b, &c) in best.iter_mut().zip(counts) {
                    if let Some(&v) = row.get(usize::from(c)) {
                        *b = b.max(v);
                    }
                }
            }
        }
    }
}

/// The face whose count alone sets `jbox`'s class on every roll number, with the class of each
/// count; `None` when there is none.
fn counted_face(points: &BoxPoints, jbox: JambBox) -> Option<(u8, Vec<u8>)> {
    let dice = points.dice();
    (1..=FACES as u8).find_map(|face| {
        let mut classes: Vec<Option<u8>> = vec![None; dice.dice() + 1];
        for n in 1..=MAX_ROLLS {
            for (&class, roll) in points.classes(jbox, n).iter().zip(dice.rolls()) {
                let slot = &mut classes[usize::from(roll.count(face))];
                if *slot.get_or_insert(class) != class {
                    return None;
                }
            }
        }
        classes
            .into_iter()
            .collect::<Option<Vec<u8>>>()
            .map(|c| (face, c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::jamb::JambRules;
    use rand::{Rng, SeedableRng};

    /// The closed forms give the widget's value of every keep and roll of every roll number,
    /// within 1e-9, for six and five dice, three and five rolls: affine lanes (every box, its
    /// points plus a constant, with a little drift) and counted ones (upper boxes, values
    /// rising with the count by random steps); lanes that fall with the count, or that a
    /// score cannot be written in, or drift too much, are left to the widget.
    #[test]
    fn closed_forms_equal_the_widget() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for rules in [JambRules::JAMB_6A, JambRules::JAMB_5] {
            let points = BoxPoints::new(&rules);
            let dice = points.dice();
            let forms = points.closed_forms();
            for rolls in [3u8, 5] {
                let mut values = Vec::new();
                let mut lanes = Vec::new();
                let mut want = Vec::new();
                for jbox in JambBox::ALL {
                    let scores = points.values(jbox);
                    // Affine, then (upper boxes) counted, rising and falling.
                    let constant = rng.gen_range(-50.0..400.0);
                    let affine: Vec<f64> = scores
                        .iter()
                        .map(|&p| f64::from(p) + constant + rng.gen_range(0.0..1e-12))
                        .collect();
                    let mut rising: Vec<f64> =
                        scores.to_vec().iter().map(|&p| f64::from(p)).collect();
                    let mut step = 0.0;
                    for v in rising.iter_mut() {
                        step += rng.gen_range(0.0..40.0);
                        *v += step;
                    }
                    let falling: Vec<f64> = rising.iter().rev().copied().collect();
                    let mut broken = affine.clone();
                    broken[0] = f64::NEG_INFINITY;
                    let counted = forms.counted[jbox.index()].is_some();
                    let upper = jbox.index() < 6;
                    assert_eq!(counted, upper, "{jbox:?}");
                    let cases = [
                        (affine, "affine"),
                        (rising, if upper { "counted" } else { "widget" }),
                        (falling, "widget"),
                        (broken, "widget"),
                    ];
                    for (v, kind) in cases {
                        lanes.push((jbox, values.len()));
                        values.extend(v);
                        want.push(kind);
                    }
                }
                let lanes: Vec<AnnounceLane> = lanes
                    .iter()
                    .map(|&(jbox, offset)| AnnounceLane {
                        values: &values,
                        cell: Cell { column: 3, jbox },
                        offset,
                    })
                    .collect();
                let widget = announced_runs(&points, rolls, &lanes, true);
                for (i, (lane, kind)) in lanes.iter().zip(&want).enumerate() {
                    let solve = forms.solve_of(&points, rolls, lane);
                    let got_kind = match solve {
                        LaneSolve::Widget => "widget",
                        LaneSolve::Affine { .. } => "affine",
                        LaneSolve::Counted { .. } => "counted",
                    };
                    assert_eq!(got_kind, *kind, "{} {:?}", rules.name, lane.cell.jbox);
                    if got_kind == "widget" {
                        continue;
                    }
                    // Roll 1 read in a row is roll 1 read slot by slot, to the bit.
                    let mut first = vec![f64::NEG_INFINITY; dice.roll_count()];
                    solve.raise_first_roll(forms, rolls, &mut first);
                    for (r, v) in first.iter().enumerate() {
                        let slot = solve.roll(dice, rolls, 1, r).unwrap();
                        assert_eq!(v.to_bits(), slot.to_bits(), "roll 1, roll {r}");
                    }
                    for n in 1..=rolls {
                        for r in 0..dice.roll_count() {
                            let w = widget.roll(n, r, i).unwrap();
                            let c = solve.roll(dice, rolls, n, r).unwrap();
                            assert!((w - c).abs() < 1e-9, "roll {n} {r}: {w} vs {c}");
                        }
                        if n == rolls {
                            continue;
                        }
                        for k in 0..dice.first_roll() {
                            let w = widget.keep(n, k, i).unwrap();
                            let c = solve.keep(dice, rolls, n, k).unwrap();
                            assert!((w - c).abs() < 1e-9, "keep {n} {k}: {w} vs {c}");
                        }
                    }
                }
            }
        }
    }
}
