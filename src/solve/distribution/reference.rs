//! The tables' reference (a test oracle): every state computed as the table is, but in `f64`
//! lanes from its successors' `f64` values, neither coded nor trimmed. Only the tests use it,
//! so it is compiled only with the feature `test-oracles` (which the test suite enables).

use super::{layers, run_widget_lanes, LastRoll, ScoringOptions, Split, Successors, EVERYWHERE};
use crate::rules::RuleSet;
use crate::solve::states::StateSpace;
use crate::solve::widget::LaneStore;
use std::sync::Arc;

/// A state's distribution in the reference table ([`build_reference`]): the widget's `f64`
/// lanes, neither coded nor trimmed (`P - 1` left of the split).
#[derive(Clone, Debug)]
pub struct ReferenceDist {
    lo: i64,
    split: usize,
    values: Vec<f64>,
    /// The least point with `P < 1` and the greatest with `P > 0`.
    bounds: (i64, i64),
}

impl ReferenceDist {
    /// The distribution of lanes `values` from `lo`, the first `split` holding `P - 1`.
    fn new(lo: i64, split: usize, values: Vec<f64>) -> ReferenceDist {
        let mut d = ReferenceDist {
            lo,
            split,
            values,
            bounds: (lo, lo - 1),
        };
        let n = d.values.len() as i64;
        let first = (0..n).find(|&i| d.complement_at(lo + i) > 0.0).unwrap_or(n);
        let last = (0..n).rev().find(|&i| d.at_least(lo + i) > 0.0);
        d.bounds = (lo + first, last.map_or(lo + first - 1, |i| lo + i));
        d
    }

    /// `P(x)`.
    pub fn at_least(&self, x: i64) -> f64 {
        match usize::try_from(x - self.lo) {
            Err(_) => 1.0,
            Ok(i) => self
                .values
                .get(i)
                .map_or(0.0, |&v| if i < self.split { 1.0 + v } else { v }),
        }
    }

    /// `1 - P(x)`.
    pub fn complement_at(&self, x: i64) -> f64 {
        match usize::try_from(x - self.lo) {
            Err(_) => 0.0,
            Ok(i) => self
                .values
                .get(i)
                .map_or(1.0, |&v| if i < self.split { -v } else { 1.0 - v }),
        }
    }

    /// The least `x` with `P(x) < 1` and the greatest with `P(x) > 0`.
    pub fn bounds(&self) -> (i64, i64) {
        self.bounds
    }
}

/// The states of the reference computation held as successors.
struct ReferenceTable {
    states: Vec<Option<ReferenceDist>>,
}

impl ReferenceTable {
    fn get(&self, index: usize) -> Option<&ReferenceDist> {
        self.states.get(index).and_then(Option::as_ref)
    }
}

impl Successors for ReferenceTable {
    fn bounds(&self, index: usize) -> (i64, i64) {
        self.get(index).map_or((1, 0), ReferenceDist::bounds)
    }

    fn decode(&self, index: usize, lo: i64, out: &mut [f32]) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.get(index).map_or(0.0, |d| d.at_least(lo + i as i64)) as f32;
        }
    }

    fn decode_f64(&self, index: usize, lo: i64, out: &mut [f64]) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.get(index).map_or(0.0, |d| d.at_least(lo + i as i64));
        }
    }

    fn decode_less_one_f64(&self, index: usize, lo: i64, out: &mut [f64]) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = -self
                .get(index)
                .map_or(1.0, |d| d.complement_at(lo + i as i64));
        }
    }
}

/// The reference for the tables' accuracy: every state with at least `min_filled` boxes
/// filled computed as the table is, but in `f64` lanes and from its successors' `f64` values,
/// neither coded nor trimmed. Layer by layer from the full sheet down; each state is given to
/// `each` (table index and distribution) once its layer is done, and a layer is dropped once
/// the next is computed (memory: two layers). Returns the states of the last layer computed
/// (`min_filled` boxes filled), by table index.
pub fn build_reference(
    rules: RuleSet,
    min_filled: usize,
    each: &mut dyn FnMut(usize, &ReferenceDist),
) -> Vec<(usize, ReferenceDist)> {
    use rayon::prelude::*;
    let space = StateSpace::new(rules);
    let pairs = space.pairs.count();
    let layers = layers(rules);
    let mut table = ReferenceTable {
        states: vec![None; space.len()],
    };
    let mut last = Vec::new();
    for filled in (min_filled..layers.len()).rev() {
        let computed: Vec<ReferenceDist> = layers[filled]
            .par_iter()
            .map_init(
                || LaneStore::<f64>::new(rules.dice_space(), 0),
                |store, &index| {
                    let (lower, pair) = (index / pairs, index % pairs);
                    if filled == rules.box_count() {
                        return ReferenceDist::new(1, 0, Vec::new());
                    }
                    let scoring = Arc::new(ScoringOptions::new(space, lower, pair));
                    let turn = LastRoll::<f64>::new(&table, scoring, EVERYWHERE, Split::Median);
                    let (lo, values, split) = run_widget_lanes(turn, store);
                    ReferenceDist::new(lo, split, values)
                },
            )
            .collect();
        if let Some(done) = layers.get(filled + 1) {
            for &i in done {
                table.states[i] = None;
            }
        }
        last = layers[filled].iter().copied().zip(computed).collect();
        for (i, d) in &last {
            each(*i, d);
            table.states[*i] = Some(d.clone());
        }
    }
    last
}
