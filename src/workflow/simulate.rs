//! `simulate`: a synthetic corpus of players of known skill, written game by game, and its
//! ground truth. One batch loop serves both families ([`simulate`]): games are simulated in
//! parallel [`BATCH`] at a time and written in order; `report::simulate` writes the truth.

use crate::simulate::jamb::{simulate_jamb_game, JambPlan, JambSimPlayer, MakePlayer};
use crate::simulate::{add_truth, simulate_batch, Plan, PlayerTruth, SimPlayer};
use dicelens_parsers::{Format, GameRecord};
use rayon::prelude::*;
use std::fmt;
use std::io::Write;
use std::ops::Range;

/// Games simulated per parallel batch before they are written in order.
pub const BATCH: usize = 2048;

/// What to simulate: the games of one family, with their players.
pub enum Simulation<'a> {
    /// Games of a one-column rule set (Yahtzee, Yatzy) among players of known softmax
    /// temperature, playing by the expected-score table `values`.
    OneColumn {
        /// The games.
        plan: &'a Plan,
        /// The players.
        players: &'a [SimPlayer],
        /// The rule set's expected-score table.
        values: &'a [f64],
    },
    /// Jamb games among players of known strategies.
    Jamb {
        /// The games.
        plan: &'a JambPlan,
        /// The players.
        players: &'a [JambSimPlayer],
        /// The player of each strategy.
        make: &'a MakePlayer<'a>,
    },
}

/// The ground truth of a simulated corpus, per player (in the order of the players given).
#[derive(Clone, Debug, PartialEq)]
pub enum Truth {
    /// One-column games: games, decisions and the sum of their errors.
    OneColumn(Vec<PlayerTruth>),
    /// Jamb games: games and the sum of final totals.
    Jamb(Vec<(u64, i64)>),
}

/// Why a simulation stopped.
#[derive(Debug)]
pub enum SimulateError {
    /// The corpus cannot be written.
    Write(std::io::Error),
    /// A game could not be simulated (a player broke a rule, an unknown strategy).
    Game(String),
}

impl fmt::Display for SimulateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimulateError::Write(e) => e.fmt(f),
            SimulateError::Game(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SimulateError {}

impl Simulation<'_> {
    /// Games to simulate.
    fn games(&self) -> usize {
        match self {
            Simulation::OneColumn { plan, .. } => plan.games,
            Simulation::Jamb { plan, .. } => plan.games,
        }
    }

    /// The truth of no game yet.
    fn no_truth(&self) -> Truth {
        match self {
            Simulation::OneColumn { players, .. } => {
                Truth::OneColumn(vec![PlayerTruth::default(); players.len()])
            }
            Simulation::Jamb { players, .. } => Truth::Jamb(vec![(0, 0); players.len()]),
        }
    }

    /// Simulates the games of `range` (in parallel), hands each record to `write` in order and
    /// adds it to `truth`.
    fn batch(
        &self,
        range: Range<usize>,
        truth: &mut Truth,
        write: &mut dyn FnMut(&GameRecord) -> Result<(), SimulateError>,
    ) -> Result<(), SimulateError> {
        match (self, truth) {
            (
                Simulation::OneColumn {
                    plan,
                    players,
                    values,
                },
                Truth::OneColumn(truth),
            ) => {
                for game in simulate_batch(values, plan, players, range) {
                    write(&game.record)?;
                    add_truth(truth, players, &game);
                }
            }
            (
                Simulation::Jamb {
                    plan,
                    players,
                    make,
                },
                Truth::Jamb(truth),
            ) => {
                let games: Result<Vec<_>, _> = range
                    .into_par_iter()
                    .map(|i| simulate_jamb_game(plan, players, *make, i))
                    .collect();
                for game in games.map_err(|e| SimulateError::Game(e.to_string()))? {
                    write(&game.record)?;
                    for (&p, &total) in game.seats.iter().zip(&game.totals) {
                        truth[p].0 += 1;
                        truth[p].1 += total;
                    }
                }
            }
            // A truth is made by `no_truth` for its own simulation.
            _ => {}
        }
        Ok(())
    }
}

/// Simulates every game of `simulation`, [`BATCH`] at a time in parallel, writing each in
/// order to `out` in `format` (its start first); `done` is told the games done after each
/// batch. Returns the ground truth. The same plan gives the same bytes.
pub fn simulate(
    simulation: &Simulation,
    format: Format,
    out: &mut dyn Write,
    mut done: impl FnMut(usize),
) -> Result<Truth, SimulateError> {
    format.write_start(out).map_err(SimulateError::Write)?;
    let mut truth = simulation.no_truth();
    let games = simulation.games();
    let mut write = |record: &GameRecord| {
        format
            .write_game(record, &mut *out)
            .map_err(SimulateError::Write)
    };
    let mut start = 0;
    while start < games {
        let end = (start + BATCH).min(games);
        simulation.batch(start..end, &mut truth, &mut write)?;
        done(end);
        start = end;
    }
    Ok(truth)
}
