//! dicelens: reads logs of Yahtzee-family games, replays every decision and rates it against
//! optimal play.
//!
//! The crate mirrors the pipeline: [`dice`] and [`rules`] know the game, [`solve`] computes
//! values, [`tables`] stores them, and [`cli`] presents them.

pub mod cli;
pub mod dice;
pub mod rules;
pub mod solve;
pub mod tables;
