//! `dicelens bench build`: how long the distribution tables take to build beside the
//! expected-score tables, both built in memory in the same run (nothing is written): the
//! regression gate's ratio of the two (`benches/gate.py`, PERFORMANCE.md).

use super::flags::not_between;
use super::{print_stdout, CliError};
use dicelens::rules::RuleSet;
use dicelens::solve::distribution::{build_dist, BuildObserver, DistTableData};
use dicelens::solve::expected::build_table;
use dicelens::solve::states::StateSpace;
use std::time::Instant;

/// The flags of `dicelens bench build`.
#[derive(Clone, Debug, clap::Args)]
pub struct BuildArgs {
    /// Rule set.
    #[arg(long, default_value = "yahtzee-kurnik")]
    pub rules: RuleSet,
    /// The distribution table is built from the states with this many boxes filled to the end
    /// (0: the whole table; 9: its last five layers, a few seconds).
    #[arg(long, default_value_t = 9)]
    pub from_filled: usize,
    /// Builds of each, alternating (the medians are printed).
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
}

/// A build that is never stopped.
struct ToTheEnd;

impl BuildObserver for ToTheEnd {
    fn chunk_done(&mut self, _: &DistTableData, _: &[usize], _: u64, _: u64) -> bool {
        true
    }
}

/// Runs `dicelens bench build`: prints one JSON line with the median seconds of each build and
/// their ratio.
pub fn build(args: &BuildArgs) -> Result<(), CliError> {
    let boxes = args.rules.box_count();
    if args.from_filled > boxes {
        return Err(not_between(
            "--from-filled",
            "boxes filled",
            0,
            boxes,
            args.from_filled,
        ));
    }
    if args.runs == 0 {
        return Err(CliError::flag("--runs", "expected at least 1 run"));
    }
    let states = StateSpace::new(args.rules).len();
    let (mut expected, mut dist) = (Vec::new(), Vec::new());
    for _ in 0..args.runs {
        let start = Instant::now();
        std::hint::black_box(build_table(args.rules, &|_, _| {}));
        expected.push(start.elapsed().as_secs_f64());
        let start = Instant::now();
        let mut data = DistTableData::new(states);
        build_dist(args.rules, &mut data, args.from_filled, &mut ToTheEnd);
        std::hint::black_box(data);
        dist.push(start.elapsed().as_secs_f64());
    }
    let (expected, dist) = (median(&mut expected), median(&mut dist));
    print_stdout(&format!(
        "{{\"rules\":\"{}\",\"from_filled\":{},\"expected_s\":{expected:.4},\"dist_s\":{dist:.4},\"ratio\":{:.3}}}\n",
        args.rules,
        args.from_filled,
        dist / expected
    ))
}

/// The median of `values` (not empty).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
