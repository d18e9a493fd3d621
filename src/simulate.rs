//! Synthetic corpora: simulated players of known, fixed skill play games; every decision's
//! error under the solitaire oracle is the ground truth a rating must reproduce.
//!
//! Skill is a softmax temperature over option values (expected final points): player `i`
//! chooses option `j` with probability proportional to `exp((v_j - v_best) / T_i)`; `T = 0`
//! is perfect play. How often a player plays is long-tailed (Zipf weights over a random order),
//! so a few players play very many games. Games are generated from `(seed, game index)` alone,
//! so the corpus is the same bytes whatever the thread count.

pub mod jamb;
pub mod jamb_strategies;

pub use crate::rules::play::DiceLaw;

use crate::dice::Dice;
use crate::replay::Decision;
use crate::rules::play::{play_turn_saved, TurnEnd, TurnPlayer};
use crate::rules::{Choice, GameFamily, PlayerSheet, RuleSet, Sheet};
use crate::solve::expected::OptionValue;
use crate::solve::turn_oracle::TurnOracle;
use dicelens_parsers::{BoxCode, GameRecord, Provenance, Roll, Termination, TurnRecord};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Rule set of every game.
    pub rules: RuleSet,
    /// Players per game.
    pub seats: usize,
    /// Number of distinct simulated players (at least `seats`).
    pub players: usize,
    /// Number of games.
    pub games: usize,
    /// Random seed.
    pub seed: u64,
    /// How the dice fall (fair unless a face is loaded).
    pub dice: DiceLaw,
}

impl Default for Plan {
    /// One game of one perfect player under `yahtzee`, seed 1, fair dice: a base for struct
    /// literals (`Plan { games: 100, ..Plan::default() }`).
    fn default() -> Plan {
        Plan {
            rules: RuleSet::Yahtzee,
            seats: 1,
            players: 1,
            games: 1,
            seed: 1,
            dice: DiceLaw::Fair,
        }
    }
}

/// A simulated player.
#[derive(Clone, Debug, PartialEq)]
pub struct SimPlayer {
    /// Name, as written in the logs.
    pub name: String,
    /// Softmax temperature in expected points (0 = perfect).
    pub temperature: f64,
    /// Relative frequency with which the player is picked for a game.
    pub weight: f64,
}

/// Ground truth for one player: what a rating with the solitaire oracle must find.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerTruth {
    /// Games played.
    pub games: u64,
    /// Decisions made (one per roll seen).
    pub decisions: u64,
    /// Sum over decisions of (value of the best option - value of the chosen one).
    pub total_error: f64,
}

/// One simulated game: the record, every decision in order, and each decision's error.
pub struct SimGame {
    /// The game record.
    pub record: GameRecord,
    /// Every decision, as a replay of the record must find them.
    pub decisions: Vec<Decision>,
    /// The error of each decision (best value minus chosen value), in the same order.
    pub errors: Vec<f64>,
}

/// The simulated players of a plan: temperatures from perfect to weak, and long-tailed
/// activity weights assigned in a random order.
pub fn players(plan: &Plan) -> Vec<SimPlayer> {
    let n = plan.players;
    let width = n.to_string().len().max(2);
    let weights = activity_weights(plan.seed, n);
    (0..n)
        .map(|i| {
            // Log-spaced from 0.02 to 8 points; player 0 plays perfectly.
            let temperature = if i == 0 || n == 1 {
                0.0
            } else {
                0.02 * (400.0f64).powf((i - 1) as f64 / (n.max(3) - 2) as f64)
            };
            SimPlayer {
                name: format!("sim{:0width$}", i + 1),
                temperature,
                weight: weights[i],
            }
        })
        .collect()
}

/// How often each of `n` players plays, relative to the others: Zipf weights (exponent 1.1)
/// over a random order drawn from `seed`, so a few play very many games.
fn activity_weights(seed: u64, n: usize) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0005_eed0_f91a_7e75);
    let mut activity: Vec<usize> = (0..n).collect();
    activity.shuffle(&mut rng);
    activity
        .iter()
        .map(|&rank| 1.0 / ((rank + 1) as f64).powf(1.1))
        .collect()
}

/// Picks `seats` distinct players, player `i` with relative weight `weights[i]`.
fn pick_seats(rng: &mut ChaCha8Rng, weights: &[f64], seats: usize) -> Vec<usize> {
    let total: f64 = weights.iter().sum();
    let mut chosen = Vec::with_capacity(seats.min(weights.len()));
    while chosen.len() < seats.min(weights.len()) {
        let mut x = rng.gen::<f64>() * total;
        let mut pick = weights.len() - 1;
        for (i, &weight) in weights.iter().enumerate() {
            if x < weight {
                pick = i;
                break;
            }
            x -= weight;
        }
        if !chosen.contains(&pick) {
            chosen.push(pick);
        }
    }
    chosen
}

/// Chooses an option by softmax at `temperature` (the best one at 0).
pub fn choose(rng: &mut ChaCha8Rng, options: &[OptionValue], temperature: f64) -> usize {
    let draw: f64 = rng.gen();
    if temperature <= 0.0 {
        return 0;
    }
    let best = options[0].value;
    let weights: Vec<f64> = options
        .iter()
        .map(|o| ((o.value - best) / temperature).exp())
        .collect();
    let mut x = draw * weights.iter().sum::<f64>();
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    options.len() - 1
}

/// A date for game `index` of `games`, spread over one year (for per-player trends).
fn date_of(index: usize, games: usize) -> String {
    const DAYS: [u32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut day = (index * 365 / games.max(1)) as u32;
    let mut month = 0;
    while day >= DAYS[month] {
        day -= DAYS[month];
        month += 1;
    }
    format!("2026.{:02}.{:02}", month + 1, day + 1)
}

/// The random generator of game `index` of a corpus simulated with `seed`.
fn game_rng(seed: u64, index: usize) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index as u64)
}

/// The record of simulated game `index` of `games` (seed `seed`): its players, rules, turns
/// and final totals, with the tags every simulated game carries.
fn sim_record(
    (seed, index, games): (u64, usize, usize),
    players: Vec<String>,
    rules: &str,
    turns: Vec<TurnRecord>,
    result: Option<Vec<u32>>,
) -> GameRecord {
    let mut record = GameRecord {
        players,
        rules: rules.to_string(),
        provenance: Provenance {
            file: String::new(),
            line: 0,
            game_id: format!("sim{seed}-{:07}", index + 1),
            date: Some(date_of(index, games)),
            time: Some(format!(
                "{:02}:{:02}:{:02}",
                index % 24,
                index * 7 % 60,
                index * 13 % 60
            )),
            result_line: None,
        },
        turns,
        termination: Termination::Normal,
        result,
        tags: Vec::new(),
    };
    record.tags = record.standard_tags();
    record
        .tags
        .insert(1, ("Site".into(), "dicelens simulate".into()));
    record
}

/// A simulated one-column player in the turn loop: chooses by softmax over the solitaire
/// oracle's option values at its temperature, and writes down every decision and its error.
struct SoftmaxPlayer<'a> {
    oracle: TurnOracle,
    temperature: f64,
    /// Rolls saved before the turn (the saved-rolls rule; 0 without it).
    saved: u8,
    /// The decision's seat, round and turn index in the game.
    at: (u8, u16, u16),
    decisions: &'a mut Vec<Decision>,
    errors: &'a mut Vec<f64>,
}

impl TurnPlayer<Sheet> for SoftmaxPlayer<'_> {
    type Error = std::convert::Infallible;

    fn choose(
        &mut self,
        sheet: &Sheet,
        dice: &Dice,
        roll_number: u8,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, Self::Error> {
        let rolls = sheet.max_rolls().saturating_add(self.saved);
        let options = self.oracle.options(dice, rolls.saturating_sub(roll_number));
        let pick = choose(rng, &options, self.temperature);
        self.errors.push(options[0].value - options[pick].value);
        let (seat, round, turn) = self.at;
        self.decisions.push(Decision {
            seat,
            round,
            turn,
            roll_number,
            saved: self.saved,
            sheet: PlayerSheet::Yahtzee(*sheet),
            dice: *dice,
            choice: options[pick].choice,
            announced: None,
            pure: false,
        });
        Ok(options[pick].choice)
    }
}

/// Simulates game number `index` of `plan`.
pub fn simulate_game(table: &[f64], plan: &Plan, players: &[SimPlayer], index: usize) -> SimGame {
    let mut rng = game_rng(plan.seed, index);
    let weights: Vec<f64> = players.iter().map(|p| p.weight).collect();
    let seats = pick_seats(&mut rng, &weights, plan.seats);
    let rules = plan.rules;
    let mut sheets = vec![Sheet::empty(rules); seats.len()];
    // Rolls each seat saved for later turns (the saved-rolls rule; always 0 without it).
    let mut banks = vec![0u8; seats.len()];
    let mut turns = Vec::with_capacity(rules.box_count() * seats.len());
    let mut errors = Vec::new();
    let mut decisions = Vec::new();
    for round in 1..=rules.box_count() {
        for (seat, &player) in seats.iter().enumerate() {
            let sheet = sheets[seat];
            let Some(oracle) = TurnOracle::new(table, &sheet) else {
                continue;
            };
            let mut softmax = SoftmaxPlayer {
                oracle,
                temperature: players[player].temperature,
                saved: banks[seat],
                at: (seat as u8, round as u16, turns.len() as u16),
                decisions: &mut decisions,
                errors: &mut errors,
            };
            let Ok(played) =
                play_turn_saved(&mut softmax, &sheet, banks[seat], plan.dice, &mut rng);
            let available = u32::from(sheet.max_rolls()) + u32::from(banks[seat]);
            let saved = rules
                .description()
                .saved_after(available, played.rolls.len() as u32);
            banks[seat] = u8::try_from(saved).unwrap_or(u8::MAX);
            let mut turn = TurnRecord::new(round as u16, seat as u8, BoxCode::default());
            let rolls: Vec<Roll> = played
                .rolls
                .iter()
                .map(|roll| Roll::new(roll).unwrap_or_default())
                .collect();
            // A turn rolls at most three times, or 41 with the most rolls saved: within the
            // record's limit.
            let _ = turn.set_rolls(&rolls, &played.shown_keeps);
            // The solitaire table's options are legal boxes of the sheet, so every turn ends
            // written; a turn that did not leaves its box empty.
            if let TurnEnd::Written {
                choice: Choice::Score(category),
                points,
                after,
                ..
            } = played.end
            {
                turn.category = BoxCode::parse(category.code()).unwrap_or_default();
                turn.points = u16::try_from(points).ok();
                turn.total_before = Some(sheet.points);
                sheets[seat] = after;
            }
            turns.push(turn);
        }
    }
    let names = seats.iter().map(|&p| players[p].name.clone()).collect();
    let result = Some(sheets.iter().map(|s| s.points).collect());
    let record = sim_record(
        (plan.seed, index, plan.games),
        names,
        rules.name(),
        turns,
        result,
    );
    SimGame {
        record,
        decisions,
        errors,
    }
}

/// Simulates the games `range` of `plan` in parallel, returned in order.
pub fn simulate_batch(
    table: &[f64],
    plan: &Plan,
    players: &[SimPlayer],
    range: std::ops::Range<usize>,
) -> Vec<SimGame> {
    range
        .into_par_iter()
        .map(|i| simulate_game(table, plan, players, i))
        .collect()
}

/// Adds a game's decisions to the players' ground truth (in game order, so sums are exact
/// and reproducible).
pub(crate) fn add_truth(truth: &mut [PlayerTruth], players: &[SimPlayer], game: &SimGame) {
    let index_of = |name: &str| players.iter().position(|p| p.name == name);
    let seats: Vec<Option<usize>> = game.record.players.iter().map(|n| index_of(n)).collect();
    for p in seats.iter().flatten() {
        truth[*p].games += 1;
    }
    for (decision, &error) in game.decisions.iter().zip(&game.errors) {
        if let Some(Some(p)) = seats.get(usize::from(decision.seat)) {
            truth[*p].decisions += 1;
            truth[*p].total_error += error;
        }
    }
}
