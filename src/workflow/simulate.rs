//! `simulate`: a synthetic corpus of players of known skill, written game by game, and its
//! ground truth. One batch loop serves both families ([`simulate`]): games are simulated in
//! parallel `BATCH` at a time and written in order; `report::simulate` writes the truth.

use crate::rules::jamb::JambRules;
use crate::simulate::jamb::{
    jamb_players, maker, simulate_jamb_game, JambPlan, JambSimPlayer, MakePlayer,
};
use crate::simulate::{add_truth, players, simulate_batch, Plan, PlayerTruth, SimPlayer};
use crate::tables::{load_expected, ExpectedTable, Progress, TableError};
use dicelens_parsers::{Format, GameRecord};
use rayon::prelude::*;
use std::fmt;
use std::io::Write;
use std::ops::Range;
use std::path::Path;

/// Games simulated per parallel batch before they are written in order.
pub(crate) const BATCH: usize = 2048;

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
    /// A Jamb strategy that no player plays, or whose player cannot be set up.
    Strategy(String),
    /// The expected-score table the one-column players play by cannot be had.
    Table(TableError),
}

impl fmt::Display for SimulateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimulateError::Write(e) => e.fmt(f),
            SimulateError::Game(why) | SimulateError::Strategy(why) => f.write_str(why),
            SimulateError::Table(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SimulateError {}

/// The Jamb strategies a simulation plays when none is named: the five published ones.
pub(crate) const PUBLISHED_JAMB_STRATEGIES: [&str; 5] = ["rnd", "p1", "p2", "pb", "ms"];

/// The players of a one-column simulation, and the expected-score table they play by.
pub struct OneColumnCast {
    /// The players, from perfect to weak.
    pub players: Vec<SimPlayer>,
    /// The rule set's expected-score table.
    table: ExpectedTable,
}

impl OneColumnCast {
    /// The players of `plan` (the first named `first_name` when given: Verhoeff's records
    /// carry no names, and their readers name the player after the file), and the table of
    /// its rule set from `tables` (built if missing, with notices to `progress`).
    pub fn new(
        plan: &Plan,
        first_name: Option<String>,
        tables: &Path,
        progress: &dyn Progress,
    ) -> Result<OneColumnCast, SimulateError> {
        let mut players = players(plan);
        if let (Some(p), Some(name)) = (players.first_mut(), first_name) {
            p.name = name;
        }
        let (table, _) =
            load_expected(tables, plan.rules, progress).map_err(SimulateError::Table)?;
        Ok(OneColumnCast { players, table })
    }

    /// The simulation of `plan`'s games among these players.
    pub fn simulation<'a>(&'a self, plan: &'a Plan) -> Simulation<'a> {
        Simulation::OneColumn {
            plan,
            players: &self.players,
            values: self.table.values(),
        }
    }
}

/// The players of a Jamb simulation, their strategies, and the player of each strategy.
pub struct JambCast {
    /// The strategies, in the order the players take them.
    pub strategies: Vec<String>,
    /// The players.
    pub players: Vec<JambSimPlayer>,
    /// The player of each strategy.
    make: Box<MakePlayer<'static>>,
}

impl JambCast {
    /// Players of `strategies` (names trimmed, any case; none: the
    /// `PUBLISHED_JAMB_STRATEGIES`) taken in turn, at least `players`, one per strategy and
    /// one per seat of `seats`; the players of the strategies under `rules`, with the tables
    /// they need from `tables` (built if missing, with notices to `progress`). An unknown
    /// strategy is a [`SimulateError::Strategy`].
    pub fn new(
        rules: JambRules,
        strategies: &[String],
        players: usize,
        seats: usize,
        seed: u64,
        tables: &Path,
        progress: &dyn Progress,
    ) -> Result<JambCast, SimulateError> {
        let strategies: Vec<String> = if strategies.is_empty() {
            PUBLISHED_JAMB_STRATEGIES.map(String::from).to_vec()
        } else {
            strategies
                .iter()
                .map(|s| s.trim().to_ascii_lowercase())
                .collect()
        };
        let players_wanted = players.max(strategies.len()).max(seats);
        let players = jamb_players(&strategies, players_wanted, seed);
        let make = maker(&strategies, rules, tables, progress).map_err(SimulateError::Strategy)?;
        Ok(JambCast {
            strategies,
            players,
            make,
        })
    }

    /// The simulation of `plan`'s games among these players.
    pub fn simulation<'a>(&'a self, plan: &'a JambPlan) -> Simulation<'a> {
        Simulation::Jamb {
            plan,
            players: &self.players,
            make: &*self.make,
        }
    }
}

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

/// Simulates every game of `simulation`, `BATCH` at a time in parallel, writing each in
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

#[cfg(test)]
mod cast_tests {
    use super::*;
    use crate::tables::Silent;

    #[test]
    fn a_jamb_cast_without_strategies_plays_the_published_ones_one_player_each_at_least() {
        let rules = JambRules::ALL[0];
        let dir = std::env::temp_dir();
        let cast = JambCast::new(rules, &[], 2, 1, 7, &dir, &Silent).expect("a cast");
        assert_eq!(cast.strategies, PUBLISHED_JAMB_STRATEGIES);
        assert_eq!(cast.players.len(), PUBLISHED_JAMB_STRATEGIES.len());
        let named = [" P1 ".to_string()];
        let cast = JambCast::new(rules, &named, 2, 3, 7, &dir, &Silent).expect("a cast");
        assert_eq!(cast.strategies, ["p1"]);
        assert_eq!(cast.players.len(), 3, "one player per seat at least");
    }

    #[test]
    fn an_unknown_jamb_strategy_is_refused() {
        let named = ["nobody".to_string()];
        let dir = std::env::temp_dir();
        let cast = JambCast::new(JambRules::ALL[0], &named, 2, 1, 7, &dir, &Silent);
        assert!(matches!(cast, Err(SimulateError::Strategy(_))));
    }
}
