//! Simulated Jamb corpora: players of the published strategies or the strong oracle play
//! whole games ([`crate::rules::play::play_game`], the shared turn loop with every rule
//! checked), written as logs. The published strategies live in
//! [`crate::simulate::jamb_strategies`].

pub use crate::rules::play::{
    play_game, record_positions, IllegalMove, JambPlayer, PlayedGame, PlayedTurn, Position,
    Recorder,
};

use crate::rules::jamb::{Cell, JambRules};
use crate::simulate::jamb_strategies::Strategy;
use crate::simulate::DiceLaw;
use crate::solve::jamb::oracle::{JambOracle, OraclePlayer};
use crate::tables::load_jamb;
use dicelens_parsers::{BoxCode, GameRecord, Keep, Roll, TurnRecord};
use std::fmt;
use std::sync::Arc;

/// What Jamb corpus to simulate.
#[derive(Clone, Copy, Debug)]
pub struct JambPlan {
    /// Rule set of every game.
    pub rules: JambRules,
    /// Players per game.
    pub seats: usize,
    /// Number of games.
    pub games: usize,
    /// Random seed: the same seed gives the same games.
    pub seed: u64,
    /// How the dice fall.
    pub dice: DiceLaw,
}

/// A simulated Jamb player: its name, the strategy it plays (its known skill) and how often
/// it plays relative to the others.
#[derive(Clone, Debug, PartialEq)]
pub struct JambSimPlayer {
    /// Name, as written in the logs (`ms-01`: the strategy, then a number).
    pub name: String,
    /// The strategy's name (`rnd`, `p1`, `p2`, `pb`, `ms`, `oracle`).
    pub strategy: String,
    /// Relative frequency with which the player is picked for a game.
    pub weight: f64,
}

/// `count` simulated players: player `i` plays `strategies[i % len]`, with long-tailed
/// activity weights drawn from `seed` as for Yahtzee's simulated players.
pub fn jamb_players(strategies: &[String], count: usize, seed: u64) -> Vec<JambSimPlayer> {
    let width = count.to_string().len().max(2);
    let weights = super::activity_weights(seed, count);
    (0..count)
        .filter_map(|i| {
            let strategy = strategies.get(i % strategies.len().max(1))?;
            Some(JambSimPlayer {
                name: format!("{strategy}-{:0width$}", i + 1),
                strategy: strategy.clone(),
                weight: weights[i],
            })
        })
        .collect()
}

/// One simulated Jamb game: its record, the players' indices by seat and their final totals.
#[derive(Clone, Debug)]
pub struct JambSimGame {
    /// The game as a log records it (its `Result` tag holds the totals when none is negative).
    pub record: GameRecord,
    /// Index in the players of each seat.
    pub seats: Vec<usize>,
    /// Final totals, in seat order.
    pub totals: Vec<i64>,
}

/// Makes the player of a strategy by name (`None` for a name it does not know).
pub(crate) type MakePlayer<'a> = dyn Fn(&str) -> Option<Box<dyn JambPlayer>> + Sync + 'a;

/// Why a Jamb game could not be simulated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// No player for this strategy name.
    UnknownStrategy(String),
    /// A player broke a rule (a bug in that player).
    Illegal(IllegalMove),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::UnknownStrategy(name) => write!(f, "no Jamb strategy named {name:?}"),
            SimError::Illegal(illegal) => illegal.fmt(f),
        }
    }
}

impl std::error::Error for SimError {}

/// Simulates game `index` of `plan` among `players` (seats drawn by weight), each seat played
/// by `make(strategy)`. The game depends only on the plan's seed and `index`.
pub fn simulate_jamb_game(
    plan: &JambPlan,
    players: &[JambSimPlayer],
    make: &MakePlayer<'_>,
    index: usize,
) -> Result<JambSimGame, SimError> {
    let mut rng = super::game_rng(plan.seed, index);
    let weights: Vec<f64> = players.iter().map(|p| p.weight).collect();
    let seats = super::pick_seats(&mut rng, &weights, plan.seats);
    let mut made = Vec::with_capacity(seats.len());
    for &seat in &seats {
        let strategy = &players[seat].strategy;
        made.push(make(strategy).ok_or_else(|| SimError::UnknownStrategy(strategy.clone()))?);
    }
    let mut refs: Vec<&mut dyn JambPlayer> = Vec::with_capacity(made.len());
    for player in &mut made {
        refs.push(player.as_mut());
    }
    let played =
        play_game(plan.rules, &mut refs, plan.dice, &mut rng).map_err(SimError::Illegal)?;
    let totals: Vec<i64> = played.finals.iter().map(|s| i64::from(s.total())).collect();
    let turns = played
        .turns
        .iter()
        .enumerate()
        .map(|(i, turn)| turn_record(&played, i, turn, seats.len()))
        .collect();
    let result = totals.iter().map(|&t| u32::try_from(t).ok()).collect();
    let names = seats.iter().map(|&p| players[p].name.clone()).collect();
    let record = super::sim_record(
        (plan.seed, index, plan.games),
        names,
        plan.rules.name,
        turns,
        result,
    );
    Ok(JambSimGame {
        record,
        seats,
        totals,
    })
}

/// Turn `index` of a played game as a log records it.
fn turn_record(played: &PlayedGame, index: usize, turn: &PlayedTurn, seats: usize) -> TurnRecord {
    let round = (index / seats.max(1) + 1) as u16;
    let mut record = TurnRecord::new(round, turn.seat, BoxCode::default());
    record.points = u16::try_from(turn.points).ok();
    let rolls: Vec<Roll> = turn
        .rolls
        .iter()
        .map(|roll| Roll::new(roll).unwrap_or_default())
        .collect();
    let keeps: Vec<Keep> = (turn.keeps.iter())
        .map(|kept| Keep::new(&kept.faces()).unwrap_or_default())
        .collect();
    // Five rolls at most (the last turn of jamb-6a): within the record's limit.
    let _ = record.set_rolls(&rolls, &keeps);
    let sheet = played.finals.get(usize::from(turn.seat));
    let code = sheet.map(|s| s.cell_code(turn.cell)).unwrap_or_default();
    record.category = BoxCode::parse(&code).unwrap_or_default();
    // The box announced after roll 1, as the cell of the Announce column it names.
    let announced = sheet.zip(turn.announced).and_then(|(s, jbox)| {
        let column = u8::try_from(s.rules().announce_column()?).ok()?;
        BoxCode::parse(&s.cell_code(Cell { column, jbox }))
    });
    record.announced = announced;
    record
}

/// The player factory of `strategies` under `rules`: each name a published strategy
/// ([`crate::simulate::jamb_strategies`]) or `oracle` (the strong oracle, its tables loaded
/// from `dir` or built there); an error names the first unknown strategy.
pub fn maker(
    strategies: &[String],
    rules: JambRules,
    dir: &std::path::Path,
    progress: &dyn crate::tables::Progress,
) -> Result<Box<MakePlayer<'static>>, String> {
    let known = |name: &str| name == ORACLE || Strategy::parse(name).is_some();
    if let Some(name) = strategies.iter().find(|name| !known(name)) {
        let mut names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
        names.push(ORACLE);
        return Err(format!(
            "unknown strategy {name:?} (expected {})",
            names.join(", ")
        ));
    }
    let oracle = match strategies.iter().any(|name| name == ORACLE) {
        true => {
            let (tables, _) = load_jamb(dir, rules, progress).map_err(|e| e.to_string())?;
            Some(Arc::new(JambOracle::from_tables(tables)))
        }
        false => None,
    };
    Ok(Box::new(move |name: &str| -> Option<Box<dyn JambPlayer>> {
        match (name, &oracle) {
            (ORACLE, Some(oracle)) => Some(Box::new(OraclePlayer::new(Arc::clone(oracle)))),
            _ => Some(Strategy::parse(name)?.player()),
        }
    }))
}

/// The strategy name of the strong heuristic oracle as a player.
pub const ORACLE: &str = "oracle";
