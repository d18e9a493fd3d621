//! Rating: an oracle values every option of every decision; the error of a decision is the
//! value of the best option minus the value of the one taken, its luck the value after the
//! roll minus the value expected before it (as GNU Backgammon does).

use crate::dice::Dice;
use crate::replay::{Decision, Replayed};
use crate::rules::{Choice, RuleSet, Sheet};
use crate::solve::expected::{sheet_value, TurnOracle};
use crate::solve::states::StateSpace;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Values every legal option of a decision. Implementations: the solitaire expected-score
/// oracle now; match-point oracles later, behind the same trait.
pub trait Oracle: Sync {
    /// What the oracle is, with its parameters, as reports name it.
    fn describe(&self) -> String;

    /// The best and worst options' values, the chosen option's value, and the value of the
    /// position before the roll that produced the decision; `None` if the oracle cannot value this rule set or position.
    /// `cache` is the caller's (per thread) store of turn evaluations.
    fn value(&self, decision: &Decision, before: Before, cache: &mut TurnCache) -> Option<Valued>;
}

/// What a decision's roll followed: the start of the turn, or a keep (with the dice kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Before {
    /// The first roll of a turn.
    TurnStart,
    /// A reroll after keeping these dice.
    Keep(Dice),
}

/// A valued decision: the best option, the worst option's value, the option taken, and the
/// expected value before its roll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Valued {
    /// Value of the best option.
    pub best: f64,
    /// The best option (the first listed among equals).
    pub best_choice: Choice,
    /// Value of the worst option.
    pub worst: f64,
    /// Value of the position before the roll (the expectation over the roll).
    pub before_roll: f64,
    /// Value of the option taken.
    pub chosen: f64,
}

/// Key of a turn evaluation: the rule set and the state's index in its table (states whose
/// upper totals have the same future share an index, and so one evaluation).
type TurnKey = (RuleSet, u32);

/// The caller's (per thread) memo of the turn in hand: the decisions of one turn are valued
/// from one evaluation without going back to the oracle's shared cache.
#[derive(Default)]
pub struct TurnCache {
    last: Option<(TurnKey, Arc<TurnOracle>)>,
}

/// Turn evaluations the solitaire oracle keeps (about 4 KB each, so about 280 MB when full);
/// early-game states recur in every game and stay, late-game states mostly come and go.
const SHARED_TURNS: usize = 65_536;

/// The solitaire oracle: optimal expected final score, from the expected-score tables.
pub struct SolitaireOracle {
    tables: HashMap<RuleSet, Vec<f64>>,
    /// Turn evaluations shared by every thread, bounded (scan-resistant eviction).
    turns: quick_cache::sync::Cache<TurnKey, Arc<TurnOracle>>,
}

impl SolitaireOracle {
    /// An oracle over the given tables (one per rule set it can rate).
    pub fn new(tables: HashMap<RuleSet, Vec<f64>>) -> SolitaireOracle {
        SolitaireOracle {
            tables,
            turns: quick_cache::sync::Cache::new(SHARED_TURNS),
        }
    }

    /// Adds (or replaces) the table of a rule set.
    pub fn add_table(&mut self, rules: RuleSet, table: Vec<f64>) {
        self.turns.clear();
        self.tables.insert(rules, table);
    }

    /// The evaluation of `sheet`'s next turn with no points on it (points only shift values,
    /// so one evaluation serves every game that reaches the same state): from the caller's
    /// memo, else the shared cache, else solved (once, whichever thread asks first).
    fn turn<'c>(&self, table: &[f64], sheet: &Sheet, cache: &'c mut TurnCache) -> Option<&'c TurnOracle> {
        let index = StateSpace::new(sheet.rules).index_of(sheet)?;
        let key = (sheet.rules, u32::try_from(index).ok()?);
        if cache.last.as_ref().map(|(k, _)| *k) != Some(key) {
            let turn = self.turns.get_or_insert_with(&key, || {
                let pointless = Sheet { points: 0, ..*sheet };
                TurnOracle::new(table, &pointless).map(Arc::new).ok_or(())
            });
            cache.last = Some((key, turn.ok()?));
        }
        cache.last.as_ref().map(|(_, turn)| &**turn)
    }
}

impl Oracle for SolitaireOracle {
    fn describe(&self) -> String {
        "solitaire expected score (optimal expected final points)".into()
    }

    fn value(&self, decision: &Decision, before: Before, cache: &mut TurnCache) -> Option<Valued> {
        let table = self.tables.get(&decision.sheet.rules)?;
        let turn = self.turn(table, &decision.sheet, cache)?;
        let points = f64::from(decision.sheet.points);
        let rolls_left = decision.rolls_left();
        // Keeping all five dice is rolling none: worth the best option of the same dice
        // with one roll fewer.
        let keep_all = |dice: &Dice, left: u8| {
            turn.decision(dice, left, decision.choice)
                .map(|d| d.best + points)
        };
        let before_roll = match before {
            Before::TurnStart => sheet_value(table, &decision.sheet)?,
            Before::Keep(kept) if kept.len() == 5 => keep_all(&kept, rolls_left)?,
            Before::Keep(kept) => turn.keep_value(&kept, rolls_left + 1)? + points,
        };
        let d = turn.decision(&decision.dice, rolls_left, decision.choice)?;
        let chosen = match decision.choice {
            Choice::Keep(k) if k.len() == 5 => keep_all(&k, rolls_left.checked_sub(1)?)?,
            _ => d.chosen? + points,
        };
        Some(Valued {
            best: d.best + points,
            best_choice: d.best_choice,
            worst: d.worst + points,
            before_roll,
            chosen,
        })
    }
}

/// Severity thresholds (in the oracle's units) for classifying errors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// At least this: doubtful.
    pub doubtful: f64,
    /// At least this: error.
    pub error: f64,
    /// At least this: blunder.
    pub blunder: f64,
}

impl Thresholds {
    /// Defaults in expected points, as Verhoeff's markers: `*` from 0.01, `**` from 1, `***` from 5.
    pub const POINTS: Thresholds = Thresholds {
        doubtful: 0.01,
        error: 1.0,
        blunder: 5.0,
    };
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds::POINTS
    }
}

/// How bad a decision was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Below the doubtful threshold.
    Fine,
    /// Doubtful.
    Doubtful,
    /// An error.
    Error,
    /// A blunder.
    Blunder,
}

impl Class {
    /// The class of an error.
    pub fn of(error: f64, t: &Thresholds) -> Class {
        if error >= t.blunder {
            Class::Blunder
        } else if error >= t.error {
            Class::Error
        } else if error >= t.doubtful {
            Class::Doubtful
        } else {
            Class::Fine
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Class::Fine => "fine",
            Class::Doubtful => "doubtful",
            Class::Error => "error",
            Class::Blunder => "blunder",
        }
    }

    /// Verhoeff's marker: none, `*`, `**`, `***`.
    pub fn marker(self) -> &'static str {
        match self {
            Class::Fine => "",
            Class::Doubtful => "*",
            Class::Error => "**",
            Class::Blunder => "***",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One decision with its rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// The decision.
    pub decision: Decision,
    /// Value of the best option.
    pub best: f64,
    /// The best option.
    pub best_choice: Choice,
    /// Value of the option taken.
    pub chosen: f64,
    /// `best - chosen` (never negative).
    pub error: f64,
    /// Value after the roll minus value expected before it.
    pub luck: f64,
    /// Only one option, or all within 1e-9.
    pub forced: bool,
    /// Severity.
    pub class: Class,
}

/// Rates every decision of a replayed game; `None` if the oracle cannot value one of them.
pub fn rate_game(
    oracle: &dyn Oracle,
    replayed: &Replayed,
    thresholds: &Thresholds,
    cache: &mut TurnCache,
    out: &mut Vec<Rated>,
) -> Option<()> {
    out.clear();
    let mut before = Before::TurnStart;
    for decision in &replayed.decisions {
        if decision.roll_number == 1 {
            before = Before::TurnStart;
        }
        let valued = oracle.value(decision, before, cache)?;
        let error = (valued.best - valued.chosen).max(0.0);
        out.push(Rated {
            decision: *decision,
            best: valued.best,
            best_choice: valued.best_choice,
            chosen: valued.chosen,
            error,
            luck: valued.best - valued.before_roll,
            forced: valued.best - valued.worst <= 1e-9,
            class: Class::of(error, thresholds),
        });
        if let Choice::Keep(k) = decision.choice {
            before = Before::Keep(k);
        }
    }
    Some(())
}
