//! `dicelens bench build`: how long the distribution tables take to build beside the
//! expected-score tables, both built in memory in the same run (nothing is written): the
//! regression gate's ratio of the two (`benches/gate.py`, PERFORMANCE.md).

use super::flags::not_between;
use super::{print_stdout, CliError};
use dicelens::rules::RuleSet;
use dicelens::workflow::bench::build::build_times;

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
    let Some(times) = build_times(args.rules, args.from_filled, args.runs) else {
        return Err(CliError::flag("--runs", "expected at least 1 run"));
    };
    let (expected, dist) = (times.expected_s, times.dist_s);
    print_stdout(&format!(
        "{{\"rules\":\"{}\",\"from_filled\":{},\"expected_s\":{expected:.4},\"dist_s\":{dist:.4},\"ratio\":{:.3}}}\n",
        args.rules,
        args.from_filled,
        dist / expected
    ))
}
