//! Rating: an oracle values every option of every decision; the error of a decision is the
//! value of the best option minus the value of the one taken, its luck the value after the
//! roll minus the value expected before it (as GNU Backgammon does).

use crate::dice::Dice;
use crate::replay::{Decision, Replayed};
use crate::rules::jamb::{Cell, JambRules, JambTurn};
use crate::rules::{Choice, GameFamily, GameRules, PlayerSheet, RuleSet, Sheet};
use crate::solve::decoded::DecodedDists;
use crate::solve::distribution::{DistSource, DistTableData};
use crate::solve::jamb::oracle::{JambOracle, JambTurnCache, DESCRIBED_AS as JAMB_DESCRIBED_AS};
use crate::solve::match_points::{ExactRange, MatchSearch, MatchTurn, Method};
use crate::solve::states::StateSpace;
use crate::solve::turn_oracle::{sheet_value_saved, TurnOracle};
use crate::solve::two_player::{ExactTwoPlayer, MOST_EXACT_FREE};
use crate::tables::DistTable;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Values every legal option of a decision: [`SolitaireOracle`] in expected final points,
/// [`MatchOracle`] in expected match points. Each oracle has its own kind of per-thread memo
/// ([`Oracle::Cache`]), which the caller keeps across the decisions of a game (and of games).
pub trait Oracle: Sync {
    /// The caller's (per thread) memo of the turn in hand.
    type Cache: Default + Send;

    /// What the oracle is, with its parameters, as reports name it.
    fn describe(&self) -> String;

    /// The best and worst options' values, the chosen option's value, and the value of the
    /// position before the roll that produced the decision; `None` if the oracle cannot value this rule set or position.
    /// `others` are the other players' sheets before this turn, in seat order after the mover
    /// (empty in a one-player game). `cache` is the caller's (per thread) memo of the turn in hand.
    fn value(
        &self,
        decision: &Decision,
        others: &[PlayerSheet],
        before: Before,
        cache: &mut Self::Cache,
    ) -> Option<Valued>;

    /// The unit this oracle values the decisions of a game of `seats` players under `rules` in
    /// ([`Unit::Points`] or [`Unit::MatchPoints`]).
    fn unit(&self, _rules: Option<GameRules>, _seats: usize) -> Unit {
        Unit::Points
    }

    /// The pool this oracle keeps its memos in across the chunks of games rated in parallel
    /// (`pipeline::rate_batch`); `None` (the default): each chunk starts with a new memo.
    fn cache_pool(&self) -> Option<&CachePool<Self::Cache>> {
        None
    }

    /// The decision as the solitaire oracle sees it (optimal expected final score of the
    /// mover's own sheet), for the screening's second engine: `Some` only where this oracle
    /// rates the decision by something else (a decision of a game of several players rated in
    /// match points); `None` (the default) otherwise.
    fn solitaire_view(
        &self,
        _decision: &Decision,
        _cache: &mut Self::Cache,
    ) -> Option<SolitaireView> {
        None
    }
}

/// A decision of a game of several players as the solitaire oracle values it, beside the
/// match-point rating: what a player who copies a public solver (every one maximises the
/// expected solitaire score) agrees with (docs/methods.md, "Engine-assistance screening").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolitaireView {
    /// The value of the solitaire oracle's best option less that of the option taken, in
    /// expected final points (never negative).
    pub error: f64,
    /// Whether the solitaire oracle sees no choice: one option, or all within 1e-9.
    pub forced: bool,
}

impl SolitaireView {
    /// The view of a decision the solitaire oracle valued as `valued`.
    fn of(valued: &Valued) -> SolitaireView {
        SolitaireView {
            error: (valued.best - valued.chosen).max(0.0),
            forced: valued.best - valued.worst <= FORCED_WITHIN,
        }
    }
}

/// Options whose values are all within this of each other leave no choice: the decision is
/// forced.
const FORCED_WITHIN: f64 = 1e-9;

/// An oracle's memos ([`Oracle::Cache`]) kept across chunks and batches of games: a chunk takes
/// one for as long as it rates, and gives it back. A memo is never held by a thread across a
/// wait that could run other work on it (rating a game may run parallel loops, and a thread
/// waiting for them steals other chunks), so memos are not per thread: each chunk owns its own
/// while it runs. Values never depend on which memo a chunk gets.
pub struct CachePool<C> {
    caches: std::sync::Mutex<Vec<C>>,
}

impl<C> Default for CachePool<C> {
    fn default() -> Self {
        CachePool {
            caches: std::sync::Mutex::new(Vec::new()),
        }
    }
}

impl<C: Default> CachePool<C> {
    /// Runs `rate` with a memo taken from the pool (or new), then gives the memo back.
    pub fn with<R>(&self, rate: impl FnOnce(&mut C) -> R) -> R {
        let taken = self.caches.lock().ok().and_then(|mut caches| caches.pop());
        let mut cache = taken.unwrap_or_default();
        let result = rate(&mut cache);
        if let Ok(mut caches) = self.caches.lock() {
            caches.push(cache);
        }
        result
    }

    /// The memos in the pool now (none is taken).
    pub fn len(&self) -> usize {
        self.caches.lock().map_or(0, |caches| caches.len())
    }

    /// Whether the pool holds no memo now.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What errors are measured in: the unit of one rated game ([`Unit::Points`] or
/// [`Unit::MatchPoints`], as its oracle says), or of an analysis of many ([`Unit::Mixed`] when
/// it holds both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Unit {
    /// Expected final points (the solitaire oracle).
    Points,
    /// Expected match points (games of several players under a match-point oracle).
    MatchPoints,
    /// Both, game by game.
    Mixed,
}

impl Unit {
    /// The unit of an analysis holding games in `self` and in `other`.
    pub fn and(self, other: Unit) -> Unit {
        if self == other {
            self
        } else {
            Unit::Mixed
        }
    }

    /// The unit in full ("expected points").
    pub fn name(self) -> &'static str {
        match self {
            Unit::Points => "expected points",
            Unit::MatchPoints => "expected match points",
            Unit::Mixed => {
                "expected points (one-player games) or match points (games of several players)"
            }
        }
    }

    /// The unit as a key in files (`points`, `match_points`, `mixed`).
    pub fn key(self) -> &'static str {
        match self {
            Unit::Points => "points",
            Unit::MatchPoints => "match_points",
            Unit::Mixed => "mixed",
        }
    }

    /// The unit abbreviated, for narrow column headers (`pts`, `mp`).
    pub(crate) fn abbreviation(self) -> &'static str {
        match self {
            Unit::Points => "pts",
            Unit::MatchPoints => "mp",
            Unit::Mixed => "pts|mp",
        }
    }

    /// The unit in short, for axis titles ("points").
    pub fn short(self) -> &'static str {
        match self {
            Unit::Points => "points",
            Unit::MatchPoints => "match points",
            Unit::Mixed => "points or match points",
        }
    }
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
    /// Jamb: the cell the best option announces first after roll 1 (`best_choice` is then
    /// its continuation in the announced turn); `None` otherwise.
    pub best_announced: Option<Cell>,
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

/// [`SolitaireOracle`]'s per-thread memo: the evaluation of the turn in hand, so the decisions
/// of one turn are valued from one evaluation without going back to the shared cache.
#[derive(Default)]
pub struct SolitaireCache {
    last: Option<(TurnKey, Arc<TurnOracle>)>,
}

/// [`MatchOracle`]'s per-thread memo: the solitaire oracle's, and the turn in hand of a game of
/// several players with the value of the option taken at the turn's previous decision.
#[derive(Default)]
pub struct MatchCache {
    solitaire: SolitaireCache,
    /// The turn in hand of a game of several players: the mover's sheet and the others'.
    matched: Option<((Sheet, Vec<Sheet>), MatchTurn)>,
    /// The value of the option taken at the previous decision of the turn.
    last_chosen: Option<f64>,
}

/// Turn evaluations the solitaire oracle expects to keep (at most 4.9 KB each with five dice).
const SHARED_TURNS: usize = 65_536;

/// Bytes of turn evaluations the solitaire oracle keeps (320 MiB): the 65,536 five-dice ones
/// it was sized for; six dice under the saved-rolls rule weigh up to tens of times as much
/// each, so fewer of them. Early-game states recur in every game and stay, late-game states
/// mostly come and go.
const SHARED_TURN_BYTES: u64 = 320 << 20;

/// Weighs a cached turn evaluation by the bytes it holds.
#[derive(Clone, Copy, Default)]
struct TurnBytes;

impl quick_cache::Weighter<TurnKey, Arc<TurnOracle>> for TurnBytes {
    fn weight(&self, _key: &TurnKey, turn: &Arc<TurnOracle>) -> u64 {
        turn.bytes()
    }
}

/// The solitaire oracle: optimal expected final score, from the expected-score tables.
pub struct SolitaireOracle {
    tables: HashMap<RuleSet, Vec<f64>>,
    /// Turn evaluations shared by every thread, bounded in bytes (scan-resistant eviction).
    turns: quick_cache::sync::Cache<TurnKey, Arc<TurnOracle>, TurnBytes>,
}

impl SolitaireOracle {
    /// An oracle over the given tables (one per rule set it can rate).
    pub fn new(tables: HashMap<RuleSet, Vec<f64>>) -> SolitaireOracle {
        SolitaireOracle {
            tables,
            turns: quick_cache::sync::Cache::with_weighter(
                SHARED_TURNS,
                SHARED_TURN_BYTES,
                TurnBytes,
            ),
        }
    }

    /// Adds (or replaces) the table of a rule set.
    pub(crate) fn add_table(&mut self, rules: RuleSet, table: Vec<f64>) {
        self.turns.clear();
        self.tables.insert(rules, table);
    }

    /// The expected-score table of a rule set, if added.
    pub fn table(&self, rules: RuleSet) -> Option<&[f64]> {
        self.tables.get(&rules).map(Vec::as_slice)
    }

    /// The evaluation of `sheet`'s next turn with no points on it (points only shift values,
    /// so one evaluation serves every game that reaches the same state): from the caller's
    /// memo, else the shared cache, else solved (once, whichever thread asks first).
    fn turn<'c>(
        &self,
        table: &[f64],
        sheet: &Sheet,
        cache: &'c mut SolitaireCache,
    ) -> Option<&'c TurnOracle> {
        let index = StateSpace::new(sheet.rules).index_of(sheet)?;
        let key = (sheet.rules, u32::try_from(index).ok()?);
        if cache.last.as_ref().map(|(k, _)| *k) != Some(key) {
            let turn = self.turns.get_or_insert_with(&key, || {
                let pointless = Sheet {
                    points: 0,
                    ..*sheet
                };
                TurnOracle::new(table, &pointless).map(Arc::new).ok_or(())
            });
            cache.last = Some((key, turn.ok()?));
        }
        cache.last.as_ref().map(|(_, turn)| &**turn)
    }
}

impl Oracle for SolitaireOracle {
    type Cache = SolitaireCache;

    fn describe(&self) -> String {
        "solitaire expected score (optimal expected final points)".into()
    }

    fn value(
        &self,
        decision: &Decision,
        _others: &[PlayerSheet],
        before: Before,
        cache: &mut SolitaireCache,
    ) -> Option<Valued> {
        let sheet = decision.sheet.yahtzee()?;
        let table = self.tables.get(&sheet.rules)?;
        let turn = self.turn(table, sheet, cache)?;
        let points = f64::from(sheet.points);
        let rolls_left = decision.rolls_left();
        // Keeping every die (five, or six in Maxi Yatzy) is rolling none: worth the best
        // option of the same dice with one roll fewer.
        let all = decision.sheet.dice_count();
        let keep_all = |dice: &Dice, left: u8| {
            turn.decision(dice, left, decision.choice)
                .map(|d| d.best + points)
        };
        let before_roll = match before {
            Before::TurnStart => sheet_value_saved(table, sheet, decision.saved)?,
            Before::Keep(kept) if kept.len() == all => keep_all(&kept, rolls_left)?,
            Before::Keep(kept) => turn.keep_value(&kept, rolls_left + 1)? + points,
        };
        let d = turn.decision(&decision.dice, rolls_left, decision.choice)?;
        let chosen = match decision.choice {
            Choice::Keep(k) if k.len() == all => keep_all(&k, rolls_left.checked_sub(1)?)?,
            _ => d.chosen? + points,
        };
        Some(Valued {
            best: d.best + points,
            best_choice: d.best_choice,
            best_announced: None,
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

    /// Defaults in expected match points: the thesis's levels 0.001 and 0.01, and 0.05.
    pub(crate) const MATCH_POINTS: Thresholds = Thresholds {
        doubtful: 0.001,
        error: 0.01,
        blunder: 0.05,
    };
}

/// The class thresholds of each unit of an analysis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnitThresholds {
    /// Of errors in expected points.
    pub points: Thresholds,
    /// Of errors in expected match points.
    pub match_points: Thresholds,
}

impl UnitThresholds {
    /// The defaults of both units.
    pub const DEFAULT: UnitThresholds = UnitThresholds {
        points: Thresholds::POINTS,
        match_points: Thresholds::MATCH_POINTS,
    };

    /// The thresholds of `unit` (those of points for [`Unit::Mixed`]).
    pub fn of(&self, unit: Unit) -> Thresholds {
        match unit {
            Unit::MatchPoints => self.match_points,
            Unit::Points | Unit::Mixed => self.points,
        }
    }
}

impl Thresholds {
    /// The default thresholds of errors in `unit` (those of points for [`Unit::Mixed`], whose
    /// games are each classified in their own unit).
    pub(crate) fn for_unit(unit: Unit) -> Thresholds {
        match unit {
            Unit::MatchPoints => Thresholds::MATCH_POINTS,
            Unit::Points | Unit::Mixed => Thresholds::POINTS,
        }
    }
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds::POINTS
    }
}

/// How far below a class threshold an error may lie and still reach it ([`Class::of`]): far
/// above the rounding of a difference of two values (a few 1e-13 for values near 2,000 points),
/// far below any threshold that means something (0.001 match points is the smallest default).
pub const CLASS_ROUNDING: f64 = 1e-9;

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
    /// The class of an error. An error within [`CLASS_ROUNDING`] below a threshold reaches it:
    /// an error that is a threshold exactly (a decision that gives up exactly one point, say)
    /// comes out a few units in the last place either side of it, depending on the order the
    /// oracle summed its values in, and must not change class with that order.
    pub fn of(error: f64, t: &Thresholds) -> Class {
        let reaches = |threshold: f64| error >= threshold - CLASS_ROUNDING;
        if reaches(t.blunder) {
            Class::Blunder
        } else if reaches(t.error) {
            Class::Error
        } else if reaches(t.doubtful) {
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
    /// Jamb: the cell the best option announces first after roll 1 ([`Valued::best_announced`]).
    pub best_announced: Option<Cell>,
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
    /// The unit of `best`, `chosen`, `error` and `luck` ([`Unit::Points`] or
    /// [`Unit::MatchPoints`]).
    pub unit: Unit,
    /// The decision as the solitaire oracle sees it, where the rating is by another oracle (a
    /// game of several players rated in match points; [`Oracle::solitaire_view`]).
    pub solitaire: Option<SolitaireView>,
}

#[cfg(test)]
impl Rated {
    /// A keep decision of `seat` (first roll of round 1, empty yahtzee sheet, dice 12346) whose
    /// option taken is worth `error` less than the best (worth 1), for the unit tests of what
    /// adds ratings up.
    pub(crate) fn for_test(seat: u8, error: f64, unit: Unit, forced: bool) -> Rated {
        let dice = Dice::from_faces(&[1, 2, 3, 4, 6]).unwrap_or_default();
        Rated {
            decision: Decision {
                seat,
                round: 1,
                turn: 0,
                roll_number: 1,
                saved: 0,
                sheet: PlayerSheet::Yahtzee(Sheet::empty(RuleSet::MAIN[0])),
                dice,
                choice: Choice::Keep(dice),
                announced: None,
                pure: false,
            },
            best: 1.0,
            best_choice: Choice::Keep(dice),
            best_announced: None,
            chosen: 1.0 - error,
            error,
            luck: 0.0,
            forced,
            class: Class::Fine,
            unit,
            solitaire: None,
        }
    }
}

/// Why [`rate_game`] stopped: which decision (the decisions before it are rated) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateError {
    /// Index of the decision in the game's decisions (0-based).
    pub index: usize,
    /// Decisions in the game.
    pub of: usize,
    /// Seat of the mover (0-based).
    pub seat: u8,
    /// Round (1-based).
    pub round: u16,
    /// Roll the decision follows (1 to 3).
    pub roll: u8,
    /// Why the decision could not be rated.
    pub kind: RateErrorKind,
}

impl RateError {
    /// The error as a note on a game rated in part: why, and that the decisions before it are
    /// rated.
    pub(crate) fn partly_rated(&self) -> String {
        format!("{self}; only the {} before it are rated", self.index)
    }
}

/// Why a decision could not be rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateErrorKind {
    /// The replay holds no sheets of the other players for the decision's turn.
    NoSheets,
    /// The oracle cannot value the decision (no table for the rule set, or an option or
    /// position it does not know).
    NotValued,
}

impl fmt::Display for RateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.kind {
            RateErrorKind::NoSheets => "has no sheets of the other players",
            RateErrorKind::NotValued => "cannot be valued by the oracle",
        };
        write!(
            f,
            "decision {} of {} (round {}, seat {}, roll {}) {why}",
            self.index + 1,
            self.of,
            self.round,
            self.seat + 1,
            self.roll
        )
    }
}

impl std::error::Error for RateError {}

/// Rates every decision of a replayed game, classified by `thresholds` (which the caller
/// chooses for the game's unit, e.g. `Thresholds::for_unit` of [`Oracle::unit`]). On an
/// error, `out` holds the decisions rated before the one that failed.
pub fn rate_game<O: Oracle + ?Sized>(
    oracle: &O,
    replayed: &Replayed,
    thresholds: &Thresholds,
    cache: &mut O::Cache,
    out: &mut Vec<Rated>,
) -> Result<(), RateError> {
    out.clear();
    let unit = oracle.unit(replayed.rules, replayed.seats);
    let seats = replayed.seats.max(1);
    let mut others: Vec<PlayerSheet> = Vec::with_capacity(seats);
    let mut before = Before::TurnStart;
    for (index, decision) in replayed.decisions.iter().enumerate() {
        let fail = |kind| RateError {
            index,
            of: replayed.decisions.len(),
            seat: decision.seat,
            round: decision.round,
            roll: decision.roll_number,
            kind,
        };
        if decision.roll_number == 1 {
            before = Before::TurnStart;
        }
        others.clear();
        if seats > 1 {
            let t = usize::from(decision.turn);
            let sheets = replayed
                .sheets
                .get(t * seats..(t + 1) * seats)
                .ok_or_else(|| fail(RateErrorKind::NoSheets))?;
            let s = usize::from(decision.seat);
            others.extend((1..seats).map(|k| sheets[(s + k) % seats]));
        }
        let valued = oracle
            .value(decision, &others, before, cache)
            .ok_or_else(|| fail(RateErrorKind::NotValued))?;
        let error = (valued.best - valued.chosen).max(0.0);
        out.push(Rated {
            decision: *decision,
            best: valued.best,
            best_choice: valued.best_choice,
            best_announced: valued.best_announced,
            chosen: valued.chosen,
            error,
            luck: valued.best - valued.before_roll,
            forced: valued.best - valued.worst <= FORCED_WITHIN,
            class: Class::of(error, thresholds),
            unit,
            solitaire: match seats {
                1 => None,
                _ => oracle.solitaire_view(decision, cache),
            },
        });
        if let Choice::Keep(k) = decision.choice {
            before = Before::Keep(k);
        }
    }
    Ok(())
}

/// How games are rated, as one spec that reads the same everywhere (`analyze --oracle`,
/// `bench oracles`, `summary.json`):
/// - `e`: every player of every game by the solitaire oracle (expected points);
/// - `emp:D` or `dynw:D` (`D` in 0..=5): games of several players in expected match points by
///   that search, then optionally `/exact:N` (two-player turns with at most `N` boxes free in
///   all, `N` at most `MOST_EXACT_FREE`, valued exactly; the search from earlier turns ends
///   at its static evaluation) and `/exact-leaves` (the positions that search reaches are
///   valued exactly too when they are within `N`: slower, each costs an exact solve);
/// - the names `reference` (`OracleSpec::REFERENCE`) and `default` ([`OracleSpec::DEFAULT`]).
///
/// One-player games are always rated by the solitaire oracle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OracleSpec {
    /// The method for games of several players ([`Method::Solitaire`] for `e`).
    pub method: Method,
    /// Most free boxes (both sheets) of a two-player turn valued exactly (0: none).
    pub(crate) exact_free: u32,
    /// Whether positions reached by the search are valued exactly within `exact_free` too.
    pub(crate) exact_leaves: bool,
}

impl OracleSpec {
    /// `e`: the solitaire oracle for every game.
    pub const SOLITAIRE: OracleSpec = OracleSpec {
        method: Method::Solitaire,
        exact_free: 0,
        exact_leaves: false,
    };

    /// `reference` = `emp:1/exact:8`: the 2008 study's setting (exact values from 8 free boxes
    /// on, EMP(1) before), against which other settings are measured (`bench oracles`).
    pub(crate) const REFERENCE: OracleSpec = OracleSpec {
        method: Method::Emp(1),
        exact_free: 8,
        exact_leaves: false,
    };

    /// `default` = `emp:1`: the fastest setting measured to keep every player's error per game
    /// within 0.002 match points of the reference's (docs/oracles.md, PERFORMANCE.md).
    pub const DEFAULT: OracleSpec = OracleSpec {
        method: Method::Emp(1),
        exact_free: 0,
        exact_leaves: false,
    };

    /// Whether games of several players are rated in expected match points.
    pub(crate) fn is_match_points(&self) -> bool {
        self.method != Method::Solitaire
    }

    /// The unit of the errors of a game of `seats` players rated this way: match points for
    /// games of several players under a match-point method, points otherwise.
    pub fn unit(&self, seats: usize) -> Unit {
        if seats > 1 && self.is_match_points() {
            Unit::MatchPoints
        } else {
            Unit::Points
        }
    }

    /// The name of a named setting this spec equals (`reference`, `default`), if any.
    pub fn name(&self) -> Option<&'static str> {
        if *self == OracleSpec::DEFAULT {
            Some("default")
        } else if *self == OracleSpec::REFERENCE {
            Some("reference")
        } else {
            None
        }
    }
}

impl Default for OracleSpec {
    fn default() -> Self {
        OracleSpec::DEFAULT
    }
}

/// What a spec looks like, for error messages.
const SPEC_FORMS: &str = "e, reference, default, or emp:D or dynw:D (D in 0..=5) followed by \
     /exact:N (N in 0..=12) and /exact-leaves, e.g. emp:1/exact:4";

impl std::str::FromStr for OracleSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<OracleSpec, String> {
        match text {
            "reference" => return Ok(OracleSpec::REFERENCE),
            "default" => return Ok(OracleSpec::DEFAULT),
            _ => {}
        }
        let mut parts = text.split('/');
        let method: Method = parts
            .next()
            .unwrap_or_default()
            .parse()
            .map_err(|e| format!("{e}; an oracle is {SPEC_FORMS}"))?;
        if method == Method::Exact {
            return Err(format!(
                "exact values everywhere are only affordable late in a game: use emp:D or \
                 dynw:D with /exact:N (N at most {MOST_EXACT_FREE})"
            ));
        }
        let mut spec = OracleSpec {
            method,
            ..OracleSpec::SOLITAIRE
        };
        let (mut exact_given, mut leaves_given) = (false, false);
        for part in parts {
            if method == Method::Solitaire {
                return Err(format!(
                    "'{text}': e takes no /options; an oracle is {SPEC_FORMS}"
                ));
            }
            match part.split_once(':') {
                Some(("exact", n)) if !exact_given => {
                    spec.exact_free = match n.parse::<u32>() {
                        Ok(n) if n <= MOST_EXACT_FREE => n,
                        _ => {
                            return Err(format!(
                                "'{part}': expected exact:N with N in 0..={MOST_EXACT_FREE} \
                                 (beyond, exact values take hours)"
                            ))
                        }
                    };
                    exact_given = true;
                }
                None if part == "exact-leaves" && !leaves_given => {
                    spec.exact_leaves = true;
                    leaves_given = true;
                }
                _ => return Err(format!("'{part}' in '{text}': an oracle is {SPEC_FORMS}")),
            }
        }
        if spec.exact_leaves && spec.exact_free == 0 {
            return Err(format!(
                "'{text}': /exact-leaves needs /exact:N with N of at least 1"
            ));
        }
        Ok(spec)
    }
}

impl fmt::Display for OracleSpec {
    /// The canonical spec: `e`, `emp:1`, `emp:1/exact:4`, `emp:1/exact:8/exact-leaves`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.method)?;
        if self.exact_free > 0 {
            write!(f, "/exact:{}", self.exact_free)?;
        }
        if self.exact_leaves {
            f.write_str("/exact-leaves")?;
        }
        Ok(())
    }
}

/// The oracle of one-column games (the Yahtzee family): the solitaire oracle for one-player
/// games and, for games of several players, expected match points: exact where the exact
/// solver settles the position (two players, few boxes free), the method's search elsewhere,
/// as an [`OracleSpec`] says. With `e`, every player of every game is rated with the solitaire
/// oracle. Decisions of other families it does not value ([`FamilyOracles`] sends each game
/// to its family's oracle).
pub struct MatchOracle {
    /// The oracle of one-player games (and of every game with `e`).
    pub solitaire: SolitaireOracle,
    /// The memos kept across chunks of games (each holds values of this oracle only).
    caches: CachePool<MatchCache>,
    spec: OracleSpec,
    dists: HashMap<RuleSet, DistTable>,
    /// Each distribution table's distributions as the search reads them, decoded once.
    decoded: HashMap<RuleSet, DecodedDists>,
    solvers: HashMap<RuleSet, ExactTwoPlayer>,
}

/// An empty distribution source, for searches that never read one (exact values).
static NO_DISTS: std::sync::OnceLock<DistTableData> = std::sync::OnceLock::new();

impl MatchOracle {
    /// Rates multi-player games as `spec` says, one-player games with `solitaire`.
    pub fn new(solitaire: SolitaireOracle, spec: OracleSpec) -> MatchOracle {
        MatchOracle {
            solitaire,
            caches: CachePool::default(),
            spec,
            dists: HashMap::new(),
            decoded: HashMap::new(),
            solvers: RuleSet::ALL
                .iter()
                .map(|&r| (r, ExactTwoPlayer::new(r)))
                .collect(),
        }
    }

    /// Whether multi-player games of `rules` need its distribution table: a match-point
    /// search reads it, unless [`MatchOracle::in_points`] rates them.
    pub(crate) fn needs_dists(&self, rules: RuleSet) -> bool {
        matches!(self.spec.method, Method::Emp(_) | Method::DynW(_)) && !Self::in_points(rules)
    }

    /// Whether games of several players of `rules` are rated in expected points whatever the
    /// spec: a rule set that saves rolls has no score distributions (they would need the bank
    /// of saved rolls in the state, `tables build --dist` refuses them), so its games are
    /// valued by the exact saved-rolls table, bank included, as one-player games are.
    pub fn in_points(rules: RuleSet) -> bool {
        rules.saves_rolls()
    }

    /// [`MatchOracle::in_points`] of a game's rules (`None`: unknown, and Jamb: not one-column).
    fn game_in_points(rules: Option<GameRules>) -> bool {
        matches!(rules, Some(GameRules::Yahtzee(r)) if Self::in_points(r))
    }

    /// Adds the distribution table of a rule set.
    pub(crate) fn add_dists(&mut self, rules: RuleSet, table: DistTable) {
        self.dists.insert(rules, table);
        let states = StateSpace::new(rules).len();
        self.decoded.insert(rules, DecodedDists::new(states));
    }

    /// The distribution table of a rule set, if added.
    pub fn dists(&self, rules: RuleSet) -> Option<&DistTable> {
        self.dists.get(&rules)
    }

    /// How games are rated.
    pub fn spec(&self) -> OracleSpec {
        self.spec
    }
}

impl Oracle for MatchOracle {
    type Cache = MatchCache;

    fn describe(&self) -> String {
        self.describe_yahtzee()
    }

    fn unit(&self, rules: Option<GameRules>, seats: usize) -> Unit {
        match Self::game_in_points(rules) {
            true => Unit::Points,
            false => self.spec.unit(seats),
        }
    }

    fn cache_pool(&self) -> Option<&CachePool<MatchCache>> {
        Some(&self.caches)
    }

    fn value(
        &self,
        decision: &Decision,
        others: &[PlayerSheet],
        before: Before,
        cache: &mut MatchCache,
    ) -> Option<Valued> {
        self.value_yahtzee(decision, others, before, cache)
    }

    fn solitaire_view(&self, decision: &Decision, cache: &mut MatchCache) -> Option<SolitaireView> {
        let rules = decision.sheet.yahtzee()?.rules;
        if !self.spec.is_match_points() || Self::in_points(rules) {
            return None;
        }
        // Valued as a turn's first roll: the value before the roll is not needed here, and
        // that one costs a single look-up in the table.
        let valued =
            self.solitaire
                .value(decision, &[], Before::TurnStart, &mut cache.solitaire)?;
        Some(SolitaireView::of(&valued))
    }
}

/// One oracle per game family, each valuing the decisions of its family's games: one-column
/// games by a [`MatchOracle`], Jamb games by the [`JambOracles`] (in expected final points of
/// the mover's slip, whatever the number of players). What the registry of oracles rates with.
pub struct FamilyOracles {
    /// The oracle of one-column games.
    pub(crate) one_column: MatchOracle,
    /// The oracles of Jamb games, one per rule set loaded.
    pub jamb: JambOracles,
    /// The memos kept across chunks of games.
    caches: CachePool<FamilyCache>,
}

/// [`FamilyOracles`]'s per-thread memo: each family oracle's own.
#[derive(Default)]
pub struct FamilyCache {
    one_column: MatchCache,
    jamb: JambTurnCache,
}

impl FamilyOracles {
    /// The oracles of every family, one-column games rated by `one_column`, no Jamb rule set
    /// loaded yet.
    pub fn new(one_column: MatchOracle) -> FamilyOracles {
        FamilyOracles {
            one_column,
            jamb: JambOracles::default(),
            caches: CachePool::default(),
        }
    }
}

impl Oracle for FamilyOracles {
    type Cache = FamilyCache;

    fn describe(&self) -> String {
        let one_column = self.one_column.describe();
        match self.jamb.oracles.is_empty() {
            true => one_column,
            false => format!("{one_column}{JAMB_GAMES}{}", self.jamb.describe()),
        }
    }

    fn unit(&self, rules: Option<GameRules>, seats: usize) -> Unit {
        match rules {
            Some(GameRules::Jamb(_)) => self.jamb.unit(rules, seats),
            _ => self.one_column.unit(rules, seats),
        }
    }

    fn cache_pool(&self) -> Option<&CachePool<FamilyCache>> {
        Some(&self.caches)
    }

    fn value(
        &self,
        decision: &Decision,
        others: &[PlayerSheet],
        before: Before,
        cache: &mut FamilyCache,
    ) -> Option<Valued> {
        match decision.sheet {
            PlayerSheet::Jamb(_) => self.jamb.value(decision, others, before, &mut cache.jamb),
            PlayerSheet::Yahtzee(_) => {
                self.one_column
                    .value(decision, others, before, &mut cache.one_column)
            }
        }
    }

    fn solitaire_view(
        &self,
        decision: &Decision,
        cache: &mut FamilyCache,
    ) -> Option<SolitaireView> {
        match decision.sheet {
            PlayerSheet::Jamb(_) => None,
            PlayerSheet::Yahtzee(_) => self
                .one_column
                .solitaire_view(decision, &mut cache.one_column),
        }
    }
}

/// What ends the solitaire part of a match-point oracle's description.
const ONE_PLAYER_GAMES: &str = " in one-player games";

/// Which games an output's oracle is described for ([`describe_present`]): one-column games of
/// several players, one-column one-player games (Jamb games are named by the description only
/// when some were rated).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Present {
    /// Some one-column game of several players is rated.
    pub several: bool,
    /// Some one-column one-player game is rated.
    pub one_player: bool,
}

impl Present {
    /// The parts one game of the rule set `rules` among `seats` players needs.
    /// A game of several players of a rule set that saves rolls is rated by the one-player
    /// part ([`MatchOracle::in_points`]).
    pub fn of_game(rules: Option<GameRules>, seats: usize) -> Present {
        let one_column = !matches!(rules, Some(GameRules::Jamb(_)));
        let in_points = MatchOracle::game_in_points(rules);
        Present {
            several: one_column && seats > 1 && !in_points,
            one_player: one_column && (seats == 1 || in_points),
        }
    }
}

/// The oracle `description` ([`Oracle::describe`], as `summary.json` keeps it) naming only the
/// parts the games `present` have: a match-point oracle's part for games of several players,
/// its part for one-player games, and the Jamb part (named only when Jamb games were rated).
/// The description as it stands when nothing is rated, or when it has no such parts.
pub fn describe_present(description: &str, present: Present) -> String {
    let (one_column, jamb) = match description.split_once(JAMB_GAMES) {
        Some((one_column, jamb)) => (one_column, Some(jamb)),
        None => (description, None),
    };
    let shown = match one_column.rsplit_once("; ") {
        Some((several, one)) if one.ends_with(ONE_PLAYER_GAMES) => {
            match (present.several, present.one_player) {
                (true, true) => Some(one_column),
                (true, false) => Some(several),
                (false, true) => Some(one),
                (false, false) => None,
            }
        }
        _ => (present.several || present.one_player).then_some(one_column),
    };
    match (shown, jamb) {
        (Some(one_column), Some(jamb)) => format!("{one_column}{JAMB_GAMES}{jamb}"),
        (Some(one_column), None) => one_column.to_string(),
        (None, Some(jamb)) => jamb.to_string(),
        (None, None) => description.to_string(),
    }
}

/// What comes between the Yahtzee-family part of a [`MatchOracle`]'s description and the
/// descriptions of its Jamb oracles (one per rule set whose tables it loaded, in name order,
/// separated by `; `).
const JAMB_GAMES: &str = "; Jamb games: ";

/// The description of one [`MatchOracle`] that loaded the tables of every rule set that the
/// oracles described by `descriptions` loaded (descriptions of [`MatchOracle`]s of one spec, as
/// `summary.json` gives them: analyses that met different rule sets name different Jamb
/// oracles): their common Yahtzee-family part, then the Jamb oracle of every rule set any of
/// them names, in name order. `None` when two of them describe a part they both have
/// differently (they are different oracles), or when there is no description.
pub(crate) fn union_of_descriptions<'a>(
    descriptions: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let mut yahtzee: Option<&str> = None;
    // Each Jamb oracle's description, by the name of its rule set.
    let mut jamb: std::collections::BTreeMap<String, String> = Default::default();
    let next_jamb = format!("; {JAMB_DESCRIBED_AS}");
    for description in descriptions {
        let (family, jamb_part) = match description.split_once(JAMB_GAMES) {
            Some((family, jamb_part)) => (family, Some(jamb_part)),
            None => (description, None),
        };
        if *yahtzee.get_or_insert(family) != family {
            return None;
        }
        let Some(jamb_part) = jamb_part else { continue };
        // Each Jamb oracle's description begins with JAMB_DESCRIBED_AS and its rule set's name.
        for (i, piece) in jamb_part.split(next_jamb.as_str()).enumerate() {
            let one = match i {
                0 => piece.to_string(),
                _ => format!("{JAMB_DESCRIBED_AS}{piece}"),
            };
            let name = one
                .strip_prefix(JAMB_DESCRIBED_AS)
                .and_then(|rest| rest.split_once(')'))
                .map_or_else(|| one.clone(), |(name, _)| name.to_string());
            if *jamb.entry(name).or_insert_with(|| one.clone()) != one {
                return None;
            }
        }
    }
    let mut union = yahtzee?.to_string();
    if !jamb.is_empty() {
        union.push_str(JAMB_GAMES);
        union.push_str(&jamb.into_values().collect::<Vec<_>>().join("; "));
    }
    Some(union)
}

impl MatchOracle {
    /// [`Oracle::describe`] of the Yahtzee-family oracles.
    fn describe_yahtzee(&self) -> String {
        let spec = self.spec;
        if !spec.is_match_points() {
            return self.solitaire.describe();
        }
        let exact = match (spec.exact_free, spec.exact_leaves) {
            (0, _) => String::new(),
            (n, false) => format!(
                ": exact (two players) where at most {n} boxes are free in all, {} elsewhere",
                spec.method
            ),
            (n, true) => format!(
                ": exact (two players) where at most {n} boxes are free in all, {} elsewhere \
                 (exact at the positions its search reaches within {n})",
                spec.method
            ),
        };
        format!(
            "expected match points in games of several players ({spec}){exact}; {}{ONE_PLAYER_GAMES}",
            self.solitaire.describe()
        )
    }

    /// [`Oracle::value`] of a decision of a Yahtzee-family game.
    fn value_yahtzee(
        &self,
        decision: &Decision,
        others: &[PlayerSheet],
        before: Before,
        cache: &mut MatchCache,
    ) -> Option<Valued> {
        let sheet = *decision.sheet.yahtzee()?;
        if others.is_empty() || !self.spec.is_match_points() || Self::in_points(sheet.rules) {
            return self
                .solitaire
                .value(decision, others, before, &mut cache.solitaire);
        }
        let others: Vec<Sheet> = others
            .iter()
            .map(|o| o.yahtzee().copied())
            .collect::<Option<_>>()?;
        let rules = sheet.rules;
        let dists: &dyn DistSource = match self.dists.get(&rules) {
            Some(d) => d,
            None if self.needs_dists(rules) => return None,
            None => NO_DISTS.get_or_init(DistTableData::default),
        };
        let exact = (others.len() == 1 && self.spec.exact_free > 0).then(|| ExactRange {
            solver: &self.solvers[&rules],
            most_free: self.spec.exact_free,
            in_search: self.spec.exact_leaves,
        });
        let search =
            MatchSearch::new(dists, exact, self.spec.method).with_decoded(self.decoded.get(&rules));
        let same_turn = cache
            .matched
            .as_ref()
            .is_some_and(|((mover, held), _)| *mover == sheet && *held == others);
        if !same_turn {
            let turn = search.turn(&sheet, &others)?;
            // The others' sheets move into the memo's key: one allocation per decision.
            cache.matched = Some(((sheet, others), turn));
            cache.last_chosen = None;
        }
        let turn = &cache.matched.as_ref()?.1;
        let rolls_left = decision.rolls_left();
        // The best option (the first listed among equals), the worst value, and all options.
        let pick = |dice: &Dice, left: u8| {
            let options = turn.options(&search, &sheet, dice, left);
            best_and_worst(&options).map(|(c, v, worst)| (c, v, worst, options))
        };
        let (best_choice, best, worst, options) = pick(&decision.dice, rolls_left)?;
        let all = decision.sheet.dice_count();
        let chosen = match decision.choice {
            // Keeping every die is rolling none: the best option of the same dice, one roll
            // fewer.
            Choice::Keep(k) if k.len() == all => pick(&k, rolls_left.checked_sub(1)?)?.1,
            c => options.iter().find(|o| o.0 == c)?.1,
        };
        let before_roll = match before {
            Before::TurnStart => turn.before(),
            Before::Keep(kept) if kept.len() == all => best,
            Before::Keep(_) => cache.last_chosen.unwrap_or(best),
        };
        cache.last_chosen = Some(chosen);
        Some(Valued {
            best,
            best_choice,
            best_announced: None,
            worst,
            before_roll,
            chosen,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared cache's bytes hold the 65,536 five-dice turn evaluations it was sized for
    /// (the empty sheet's is the largest of a rule set: every box open), and a six-dice
    /// saved-rolls evaluation weighs several times a five-dice one even with a bank of at most
    /// two (the whole table's, up to 41 levels, far more), so fewer of them are kept.
    #[test]
    fn the_turn_cache_is_bounded_in_bytes() {
        let table = crate::solve::expected::build_table(RuleSet::Yahtzee, &|_, _| {});
        let five = TurnOracle::new(&table, &Sheet::empty(RuleSet::Yahtzee)).unwrap();
        assert!(
            five.bytes() * SHARED_TURNS as u64 <= SHARED_TURN_BYTES,
            "{} bytes a five-dice turn",
            five.bytes()
        );
        assert!(five.bytes() > 4_000, "{}", five.bytes());
        let rules = RuleSet::MaxiYatzySaved;
        let chance = rules
            .boxes()
            .iter()
            .position(|b| *b == crate::rules::Category::Chance)
            .unwrap();
        let within = rules.full_mask() & !(1 << chance);
        let saved = crate::solve::saved_table::build_saved_table(rules, 2, within, &|_, _| {});
        let mut sheet = Sheet::empty(rules);
        sheet.filled = within;
        let six = TurnOracle::new(saved.values(), &sheet).unwrap();
        assert!(
            six.bytes() > 2 * five.bytes(),
            "{} against {}",
            six.bytes(),
            five.bytes()
        );
    }

    /// An error that is a threshold exactly keeps its class whatever order its values were
    /// summed in; an error truly below a threshold stays below it.
    #[test]
    fn an_error_at_a_threshold_up_to_rounding_reaches_it() {
        // Ten tenths summed one by one fall short of 1 in the last place.
        let one: f64 = std::iter::repeat_n(0.1, 10).sum();
        assert!(one < 1.0);
        let five: f64 = std::iter::repeat_n(0.1, 50).sum();
        assert!(five != 5.0, "{five}");
        let points = Thresholds::POINTS;
        assert_eq!(Class::of(one, &points), Class::Error);
        assert_eq!(Class::of(1.0, &points), Class::Error);
        assert_eq!(Class::of(1.0 - 1e-6, &points), Class::Doubtful);
        assert_eq!(Class::of(five, &points), Class::Blunder);
        assert_eq!(Class::of(5.0 - 1e-6, &points), Class::Error);
        // A chance of winning of 0.10 against 0.09: 0.01 less a few units in the last place.
        let hundredth = 0.1 - (0.1 - 0.01);
        assert!(hundredth < 0.01);
        let match_points = Thresholds::MATCH_POINTS;
        assert_eq!(Class::of(hundredth, &match_points), Class::Error);
        assert_eq!(Class::of(0.01 - 1e-6, &match_points), Class::Doubtful);
        assert_eq!(Class::of(0.0, &points), Class::Fine);
        assert_eq!(Class::of(0.01 - 1e-6, &points), Class::Fine);
    }

    /// An output names only the parts of the oracle its games have; all when all are there.
    #[test]
    fn the_description_names_the_parts_present() {
        let several = "expected match points in games of several players (emp:1)";
        let one = "solitaire expected score (optimal expected final points) in one-player games";
        let jamb = "heuristic Jamb oracle (jamb-5): exact turn";
        let full = format!("{several}; {one}; Jamb games: {jamb}");
        let no_jamb = format!("{several}; {one}");
        let both = Present {
            several: true,
            one_player: true,
        };
        let only_several = Present {
            several: true,
            one_player: false,
        };
        let only_one = Present {
            several: false,
            one_player: true,
        };
        assert_eq!(describe_present(&no_jamb, both), no_jamb);
        assert_eq!(describe_present(&no_jamb, only_several), several);
        assert_eq!(describe_present(&no_jamb, only_one), one);
        assert_eq!(describe_present(&no_jamb, Present::default()), no_jamb);
        assert_eq!(describe_present(&full, both), full);
        assert_eq!(
            describe_present(&full, only_one),
            format!("{one}; Jamb games: {jamb}")
        );
        assert_eq!(describe_present(&full, Present::default()), jamb);
        // The solitaire oracle has one part, kept whatever the games.
        let solitaire = "solitaire expected score (optimal expected final points)";
        assert_eq!(describe_present(solitaire, only_several), solitaire);
        assert_eq!(
            Present::of_game(Some(GameRules::Yahtzee(RuleSet::Yahtzee)), 2),
            only_several
        );
        assert_eq!(Present::of_game(None, 1), only_one);
    }
    use crate::replay::{replay, ReplayOptions};
    use crate::simulate::{players, simulate_batch, Plan};

    #[test]
    fn a_chunk_waiting_on_parallel_work_lets_other_chunks_rate_on_its_thread() {
        use rayon::prelude::*;
        // What a thread does when it waits for nested parallel work and steals another chunk:
        // it takes a second memo while the first is held. (A memo per thread in a `RefCell`
        // panicked here: "already borrowed".)
        let caches = CachePool::<MatchCache>::default();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let inner: Vec<usize> = pool.install(|| {
            caches.with(|_outer| {
                (0..8usize)
                    .into_par_iter()
                    .map(|i| caches.with(|_| i))
                    .collect()
            })
        });
        assert_eq!(inner, (0..8).collect::<Vec<_>>());
        // Every memo taken came back for later chunks.
        assert!(caches.len() >= 2);
    }

    #[test]
    fn each_family_has_its_own_oracle_and_unit() {
        let one_column =
            || MatchOracle::new(SolitaireOracle::new(HashMap::new()), OracleSpec::DEFAULT);
        let family = FamilyOracles::new(one_column());
        let jamb = Some(GameRules::Jamb(crate::rules::jamb::JambRules::JAMB_5));
        let yahtzee = Some(GameRules::Yahtzee(RuleSet::Yahtzee));
        assert_eq!(family.unit(jamb, 2), Unit::Points);
        assert_eq!(family.unit(yahtzee, 2), Unit::MatchPoints);
        assert_eq!(family.unit(yahtzee, 1), Unit::Points);
        // No Jamb oracle loaded: the description is the one-column oracle's alone.
        assert_eq!(family.describe(), one_column().describe());
        assert!(!family.describe().contains(JAMB_GAMES));
    }

    #[test]
    fn descriptions_unite_the_jamb_oracles_each_analysis_loaded() {
        let y = "solitaire expected score";
        let j4 = "heuristic Jamb oracle (jamb-4): exact turn, then V; exact endgame";
        let j5 = "heuristic Jamb oracle (jamb-5): exact turn, then W; exact endgame";
        let both = format!("{y}; Jamb games: {j4}; {j5}");
        let (with4, with5) = (
            format!("{y}; Jamb games: {j4}"),
            format!("{y}; Jamb games: {j5}"),
        );
        let union = |ds: &[&str]| union_of_descriptions(ds.iter().copied());
        assert_eq!(union(&[y, with5.as_str(), y]), Some(with5.clone()));
        assert_eq!(union(&[with5.as_str(), with4.as_str()]), Some(both.clone()));
        assert_eq!(
            union(&[both.as_str(), y, with4.as_str()]),
            Some(both.clone())
        );
        assert_eq!(union(&[y]), Some(y.to_string()));
        // Different oracles: another Yahtzee-family part, or another oracle of jamb-5.
        assert_eq!(union(&[y, "match points"]), None);
        let other = with5.replace('W', "X");
        assert_eq!(union(&[with5.as_str(), other.as_str()]), None);
        assert_eq!(union(&[]), None);
    }

    /// A replayed simulated one-player game and the expected-score table of its rule set.
    fn one_game() -> (Replayed, Vec<f64>) {
        let rules = RuleSet::Yahtzee;
        let table = crate::solve::expected::build_table(rules, &|_, _| {});
        let plan = Plan {
            rules,
            seats: 1,
            players: 2,
            games: 1,
            seed: 3,
            ..Plan::default()
        };
        let game = simulate_batch(&table, &plan, &players(&plan), 0..1)
            .into_iter()
            .next()
            .expect("one game");
        let mut replayed = Replayed::default();
        replay(&game.record, ReplayOptions::default(), &mut replayed).expect("it replays");
        (replayed, table)
    }

    #[test]
    fn rate_game_says_which_decision_it_cannot_value_and_honours_thresholds() {
        let (replayed, table) = one_game();
        // No table: the first decision cannot be valued.
        let empty = SolitaireOracle::new(HashMap::new());
        let mut out = Vec::new();
        let error = rate_game(
            &empty,
            &replayed,
            &Thresholds::POINTS,
            &mut SolitaireCache::default(),
            &mut out,
        )
        .unwrap_err();
        assert_eq!(
            (error.index, error.of, error.kind),
            (0, replayed.decisions.len(), RateErrorKind::NotValued)
        );
        assert_eq!((error.round, error.seat, error.roll), (1, 0, 1));
        assert!(error.to_string().starts_with("decision 1 of "), "{error}");
        assert!(out.is_empty());

        // The thresholds given are the thresholds used, whatever the oracle.
        let oracle = SolitaireOracle::new(HashMap::from([(RuleSet::Yahtzee, table)]));
        let everything = Thresholds {
            doubtful: 0.0,
            error: 0.0,
            blunder: 0.0,
        };
        let nothing = Thresholds {
            doubtful: f64::INFINITY,
            error: f64::INFINITY,
            blunder: f64::INFINITY,
        };
        let mut cache = SolitaireCache::default();
        rate_game(&oracle, &replayed, &everything, &mut cache, &mut out).unwrap();
        assert_eq!(out.len(), replayed.decisions.len());
        assert!(out
            .iter()
            .all(|r| r.class == Class::Blunder && r.unit == Unit::Points));
        rate_game(&oracle, &replayed, &nothing, &mut cache, &mut out).unwrap();
        assert!(out.iter().all(|r| r.class == Class::Fine));
    }

    #[test]
    fn units_and_their_thresholds() {
        assert_eq!(OracleSpec::DEFAULT.unit(2), Unit::MatchPoints);
        assert_eq!(OracleSpec::DEFAULT.unit(1), Unit::Points);
        assert_eq!(OracleSpec::SOLITAIRE.unit(2), Unit::Points);
        assert_eq!(
            Thresholds::for_unit(Unit::MatchPoints),
            Thresholds::MATCH_POINTS
        );
        assert_eq!(Thresholds::for_unit(Unit::Points), Thresholds::POINTS);
        assert_eq!(Unit::Points.and(Unit::MatchPoints), Unit::Mixed);
        assert_eq!(Unit::Points.and(Unit::Points), Unit::Points);
    }

    #[test]
    fn specs_parse_and_print_canonically() {
        for (text, canonical) in [
            ("e", "e"),
            ("emp:1", "emp:1"),
            ("emp:1/exact:0", "emp:1"),
            ("emp:1/exact:4", "emp:1/exact:4"),
            ("dynw:2/exact:6", "dynw:2/exact:6"),
            ("emp:1/exact-leaves/exact:8", "emp:1/exact:8/exact-leaves"),
            ("reference", "emp:1/exact:8"),
            ("default", &OracleSpec::DEFAULT.to_string()),
        ] {
            let spec: OracleSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), canonical, "{text}");
            assert_eq!(canonical.parse::<OracleSpec>().unwrap(), spec, "{text}");
        }
        assert_eq!("reference".parse(), Ok(OracleSpec::REFERENCE));
        assert_eq!(OracleSpec::REFERENCE.name(), Some("reference"));
        assert_eq!(OracleSpec::DEFAULT.name(), Some("default"));
        assert_eq!("emp:2".parse::<OracleSpec>().unwrap().name(), None);
        assert!(!OracleSpec::SOLITAIRE.is_match_points());
        assert!(OracleSpec::REFERENCE.is_match_points());
    }

    #[test]
    fn malformed_specs_say_what_is_expected() {
        for (text, says) in [
            ("", "unknown method"),
            ("exact", "only affordable late"),
            ("emp:6", "from 0 to 5, got '6'"),
            ("emp:1/exact:13", "N in 0..=12"),
            ("emp:1/exact:x", "N in 0..=12"),
            ("emp:1/exact:4/exact:5", "an oracle is"),
            ("emp:1/exact:4/exact-leaves/exact-leaves", "an oracle is"),
            ("emp:1/exact-leaves", "needs /exact:N"),
            ("e/exact:4", "e takes no /options"),
            ("emp:1/", "an oracle is"),
            ("Reference", "unknown method"),
        ] {
            let err = text.parse::<OracleSpec>().unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
    }
}

/// The heuristic Jamb oracles, one per rule set loaded, valuing every decision of a Jamb game
/// in expected final points of the mover's slip (whatever the number of players).
#[derive(Clone, Default)]
pub struct JambOracles {
    oracles: HashMap<&'static str, Arc<JambOracle>>,
}

impl JambOracles {
    /// Adds (or replaces) the oracle of its rule set; returns it, shared.
    pub fn add(&mut self, oracle: JambOracle) -> Arc<JambOracle> {
        let oracle = Arc::new(oracle);
        self.oracles
            .insert(oracle.rules().name, Arc::clone(&oracle));
        oracle
    }

    /// The oracle of a rule set, if loaded.
    pub fn get(&self, rules: &JambRules) -> Option<&Arc<JambOracle>> {
        self.oracles.get(rules.name)
    }
}

impl Oracle for JambOracles {
    type Cache = JambTurnCache;

    fn describe(&self) -> String {
        let mut names: Vec<&&str> = self.oracles.keys().collect();
        names.sort();
        let described: Vec<String> = names
            .into_iter()
            .filter_map(|name| self.oracles.get(*name))
            .map(|o| o.describe())
            .collect();
        described.join("; ")
    }

    fn value(
        &self,
        decision: &Decision,
        _others: &[PlayerSheet],
        before: Before,
        cache: &mut JambTurnCache,
    ) -> Option<Valued> {
        let PlayerSheet::Jamb(slip) = &decision.sheet else {
            return None;
        };
        let oracle = self.get(slip.rules())?;
        let dice = &decision.dice;
        let moment = decision.jamb_turn();
        // Roll 1's options: the writes and keeps, and each announcement (valued as the best
        // continuation of the turn announced on it); the option taken is, after announcing,
        // the keep or write taken in the announced turn.
        let first = decision.roll_number == 1;
        let listed = match first {
            true => JambTurn::at_roll(1),
            false => moment,
        };
        let options = oracle.options_at(slip, dice, listed, cache);
        let (mut best_choice, mut best, mut worst) =
            best_and_worst(&options).unwrap_or((decision.choice, f64::NEG_INFINITY, f64::INFINITY));
        let mut best_announced = None;
        if first {
            for (cell, value) in oracle.announcements(slip, dice, cache) {
                worst = worst.min(value);
                if value > best {
                    best = value;
                    best_announced = Some(cell);
                }
            }
        }
        if let Some(cell) = best_announced {
            let announced = JambTurn {
                announced: Some(cell.jbox),
                ..listed
            };
            best_choice = oracle.best_at(slip, dice, announced, cache)?.0;
        }
        if !best.is_finite() {
            return None;
        }
        let chosen = match (first, decision.announced) {
            (false, _) | (true, None) => options.iter().find(|o| o.0 == decision.choice)?.1,
            (true, Some(_)) => {
                oracle
                    .options_at(slip, dice, moment, cache)
                    .iter()
                    .find(|o| o.0 == decision.choice)?
                    .1
            }
        };
        let kept = match before {
            Before::TurnStart => None,
            Before::Keep(kept) => Some(kept),
        };
        let before_roll = oracle.before_roll_in(slip, moment, kept.as_ref(), cache)?;
        Some(Valued {
            best,
            best_choice,
            best_announced,
            worst: worst.min(chosen),
            before_roll,
            chosen,
        })
    }
}

/// The best option of `options` (the first listed among equals), its value and the worst
/// value; `None` when there is no option.
fn best_and_worst(options: &[(Choice, f64)]) -> Option<(Choice, f64, f64)> {
    let mut best: Option<(Choice, f64)> = None;
    let mut worst = f64::INFINITY;
    for &(choice, value) in options {
        if best.is_none_or(|(_, b)| value > b) {
            best = Some((choice, value));
        }
        worst = worst.min(value);
    }
    best.map(|(choice, value)| (choice, value, worst))
}
