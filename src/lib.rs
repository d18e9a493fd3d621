//! dicelens: reads logs of Yahtzee-family games, replays every decision and rates it against
//! optimal play.
//!
//! The crate mirrors the pipeline: [`dice`] and [`rules`] know the game, [`solve`] computes
//! values, [`tables`] stores them, [`replay`] turns game records into checked decisions, and
//! [`report`] presents them.

pub mod aggregate;
pub mod compare;
pub mod corpus;
pub mod dice;
pub mod evaluate;
pub mod pipeline;
pub mod position;
pub mod rate;
pub mod replay;
pub mod report;
pub mod rules;
pub mod selfplay;
pub mod simulate;
pub mod solve;
pub mod tables;
