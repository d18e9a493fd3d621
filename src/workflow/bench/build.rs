//! `bench build`: how long the distribution tables take to build beside the expected-score
//! tables, both built in memory in the same run (nothing is written): the regression gate's
//! ratio of the two (`benches/gate.py`, PERFORMANCE.md).

use crate::rules::RuleSet;
use crate::solve::distribution::{build_dist, BuildObserver, DistTableData};
use crate::solve::expected::build_table;
use crate::solve::states::StateSpace;
use std::time::Instant;

/// The median seconds of each build.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildTimes {
    /// The expected-score table's build.
    pub expected_s: f64,
    /// The distribution table's build (from the states asked for to the end).
    pub dist_s: f64,
}

/// A build that is never stopped.
struct ToTheEnd;

impl BuildObserver for ToTheEnd {
    fn chunk_done(&mut self, _: &DistTableData, _: &[usize], _: u64, _: u64) -> bool {
        true
    }
}

/// Builds `rules`' expected-score table and its distribution table (from the states with
/// `from_filled` boxes filled to the end) `runs` times each, alternating, in memory; returns the
/// median seconds of each (`None` when `runs` is 0).
pub fn build_times(rules: RuleSet, from_filled: usize, runs: usize) -> Option<BuildTimes> {
    let states = StateSpace::new(rules).len();
    let (mut expected, mut dist) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let start = Instant::now();
        std::hint::black_box(build_table(rules, &|_, _| {}));
        expected.push(start.elapsed().as_secs_f64());
        let start = Instant::now();
        let mut data = DistTableData::new(states);
        build_dist(rules, &mut data, from_filled, &mut ToTheEnd);
        std::hint::black_box(data);
        dist.push(start.elapsed().as_secs_f64());
    }
    Some(BuildTimes {
        expected_s: median(&mut expected)?,
        dist_s: median(&mut dist)?,
    })
}

/// The median of `values` (`None` when there are none).
fn median(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_is_the_middle_value_and_none_of_nothing() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut []), None);
        assert_eq!(build_times(RuleSet::Yahtzee, 13, 0), None);
    }
}
