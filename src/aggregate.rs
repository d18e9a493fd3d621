//! Mergeable statistics of rated decisions: per player, per turn of the game, per decision
//! kind, and overall. Every sum is an integer (errors and luck in nano-points, squares of game
//! errors in micro-points squared) and every histogram a count, so merging by addition is exact
//! and associative: threads, shards and resumed runs give byte-identical outputs. Rates are
//! ratios of sums, computed only when reported.

use crate::rate::{Class, Rated, Unit};
use crate::rules::PlayerSheet;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

pub mod accuracy;
mod solitaire;
mod stretches;
pub use solitaire::SolitaireCounts;
pub use stretches::{Stretch, Stretches, MIN_STRETCH};

/// Nano-points per point (the unit of error and luck sums).
const NANO: f64 = 1e9;
/// Micro-points per point (the unit of game errors in squares and of the histogram).
const MICRO: f64 = 1e6;

/// A sum that does not fit its counter: merging analyses whose counts add up to more than a
/// 64-bit count (or a 128-bit sum of nano-points) can hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overflow {
    /// The counter, as a path into `aggregates.json` (`players["ann"].all.decisions`).
    pub counter: String,
    /// The counter's width in bits.
    pub bits: u32,
}

impl Overflow {
    /// The same overflow, its counter named within `outer` (`all` and `decisions`:
    /// `all.decisions`).
    pub fn within(self, outer: &str) -> Overflow {
        Overflow {
            counter: format!("{outer}.{}", self.counter),
            ..self
        }
    }
}

impl std::fmt::Display for Overflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the counter {} overflows (the sum does not fit in {} bits)",
            self.counter, self.bits
        )
    }
}

impl std::error::Error for Overflow {}

/// A counter that adds with overflow checked.
pub(crate) trait Counter: Copy {
    /// `self + other`, `None` on overflow.
    fn checked(self, other: Self) -> Option<Self>;
    /// The counter's width in bits.
    const BITS: u32;
}

impl Counter for u64 {
    fn checked(self, other: u64) -> Option<u64> {
        self.checked_add(other)
    }
    const BITS: u32 = u64::BITS;
}

impl Counter for i128 {
    fn checked(self, other: i128) -> Option<i128> {
        self.checked_add(other)
    }
    const BITS: u32 = i128::BITS;
}

/// Adds `other` to the counter `name` at `mine`; an error naming it on overflow (and `mine`
/// unchanged).
pub(crate) fn add_checked<T: Counter>(mine: &mut T, other: T, name: &str) -> Result<(), Overflow> {
    match mine.checked(other) {
        Some(sum) => {
            *mine = sum;
            Ok(())
        }
        None => Err(overflow_at(name, T::BITS)),
    }
}

/// An overflow of the counter `counter`, `bits` wide.
fn overflow_at(counter: &str, bits: u32) -> Overflow {
    Overflow {
        counter: counter.to_string(),
        bits,
    }
}

/// The name of the entry of `key` in a map called `map` (`players["ann"]`).
fn entry_name(map: &str, key: impl std::fmt::Display) -> String {
    format!("{map}[{:?}]", key.to_string())
}

/// Fixed-point nano-points of a value.
fn nano(points: f64) -> i128 {
    (points * NANO).round() as i128
}

/// Sums over decisions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Decisions.
    pub decisions: u64,
    /// Decisions that were not forced.
    pub unforced: u64,
    /// Sum of errors, nano-points.
    pub(crate) error_nano: i128,
    /// Sum of luck, nano-points.
    pub(crate) luck_nano: i128,
    /// Decisions per class.
    pub classes: ClassCounts,
    /// Decisions not forced whose chosen option is a best one (error at most
    /// `AGREEMENT_TOLERANCE`): the agreement of the engine-assistance screening. Absent
    /// (0) from an `aggregates.json` written before it existed.
    #[serde(default)]
    pub agreed: u64,
}

/// The most error (in the unit of the decision) of an option that still counts as a best one
/// in the screening's agreement: values of equal options differ by rounding only.
pub(crate) const AGREEMENT_TOLERANCE: f64 = 1e-6;

/// Whether a rated decision counts as agreeing with the oracle: not forced, and the chosen
/// option within `AGREEMENT_TOLERANCE` of the best.
pub fn agrees(r: &Rated) -> bool {
    !r.forced && r.error <= AGREEMENT_TOLERANCE
}

/// Decisions per [`Class`], indexed by class (`counts[Class::Error]`); serialised as the array
/// `[fine, doubtful, error, blunder]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClassCounts(pub [u64; 4]);

impl ClassCounts {
    /// Every class, in the order of the counts.
    pub(crate) const CLASSES: [Class; 4] =
        [Class::Fine, Class::Doubtful, Class::Error, Class::Blunder];

    /// Counts one decision of `class`.
    pub fn add(&mut self, class: Class) {
        self[class] += 1;
    }

    /// Each class with its count, fine first.
    pub fn iter(&self) -> impl Iterator<Item = (Class, u64)> + '_ {
        Self::CLASSES.into_iter().zip(self.0)
    }
}

impl std::ops::Index<Class> for ClassCounts {
    type Output = u64;
    fn index(&self, class: Class) -> &u64 {
        &self.0[class as usize]
    }
}

impl std::ops::IndexMut<Class> for ClassCounts {
    fn index_mut(&mut self, class: Class) -> &mut u64 {
        &mut self.0[class as usize]
    }
}

/// The key of a turn of the game in [`Aggregates::turns`]: games of `rounds` rounds (the rule
/// set's boxes: 13 for Yahtzee, 15 for Yatzy) and `seats` players, `turn` 1-based in play order
/// (a two-seat Yahtzee game has turns 1..=26). Ordered by rounds, seats, then turn; serialised
/// as the text `ROUNDS/SEATS/TURN` (the form of aggregates.json).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SeatsTurn {
    /// Rounds in a game of the rule set.
    pub rounds: u16,
    /// Players in the game.
    pub seats: u16,
    /// Turn of the game, 1-based.
    pub turn: u16,
}

impl SeatsTurn {
    /// The round of the turn (1-based).
    pub fn round(self) -> u16 {
        (self.turn.max(1) - 1) / self.seats.max(1) + 1
    }

    /// The seat of the turn's mover (1-based).
    pub fn seat(self) -> u16 {
        (self.turn.max(1) - 1) % self.seats.max(1) + 1
    }
}

impl std::fmt::Display for SeatsTurn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}/{}", self.rounds, self.seats, self.turn)
    }
}

impl std::str::FromStr for SeatsTurn {
    type Err = String;

    fn from_str(key: &str) -> Result<SeatsTurn, String> {
        let mut parts = key.split('/').map(|p| p.parse::<u16>());
        match (parts.next(), parts.next(), parts.next(), parts.next()) {
            (Some(Ok(rounds)), Some(Ok(seats)), Some(Ok(turn)), None) => Ok(SeatsTurn {
                rounds,
                seats,
                turn,
            }),
            _ => Err(format!("turn key {key:?}: expected ROUNDS/SEATS/TURN")),
        }
    }
}

/// Serialises a map key as its text (`Display`) and reads it back with `FromStr`: the keys of
/// aggregates.json's maps are strings.
macro_rules! text_key {
    ($key:ty) => {
        impl Serialize for $key {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $key {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$key, D::Error> {
                String::deserialize(d)?
                    .parse()
                    .map_err(serde::de::Error::custom)
            }
        }
    };
}

text_key!(SeatsTurn);

impl Tally {
    /// Adds one rated decision.
    pub fn add(&mut self, r: &Rated) {
        self.decisions += 1;
        self.unforced += u64::from(!r.forced);
        self.error_nano += nano(r.error);
        self.luck_nano += nano(r.luck);
        self.classes.add(r.class);
        self.agreed += u64::from(agrees(r));
    }

    /// Adds another tally; an error naming the counter that would overflow (the tally is
    /// then partly merged: discard it).
    pub fn merge(&mut self, o: &Tally) -> Result<(), Overflow> {
        add_checked(&mut self.decisions, o.decisions, "decisions")?;
        add_checked(&mut self.unforced, o.unforced, "unforced")?;
        add_checked(&mut self.error_nano, o.error_nano, "error_nano")?;
        add_checked(&mut self.luck_nano, o.luck_nano, "luck_nano")?;
        add_checked(&mut self.agreed, o.agreed, "agreed")?;
        for ((a, b), class) in self
            .classes
            .0
            .iter_mut()
            .zip(o.classes.0)
            .zip(ClassCounts::CLASSES)
        {
            add_checked(a, b, class.name()).map_err(|e| e.within("classes"))?;
        }
        Ok(())
    }

    /// Removes another tally: undoes [`Tally::merge`] exactly.
    pub fn subtract(&mut self, o: &Tally) {
        self.decisions = self.decisions.saturating_sub(o.decisions);
        self.unforced = self.unforced.saturating_sub(o.unforced);
        self.error_nano = self.error_nano.saturating_sub(o.error_nano);
        self.luck_nano = self.luck_nano.saturating_sub(o.luck_nano);
        self.agreed = self.agreed.saturating_sub(o.agreed);
        for (a, b) in self.classes.0.iter_mut().zip(o.classes.0) {
            *a = a.saturating_sub(b);
        }
    }

    /// Whether nothing was added (every sum zero).
    pub fn is_empty(&self) -> bool {
        *self == Tally::default()
    }

    /// Total error in points.
    pub fn total_error(&self) -> f64 {
        self.error_nano as f64 / NANO
    }

    /// Total luck in points.
    pub(crate) fn total_luck(&self) -> f64 {
        self.luck_nano as f64 / NANO
    }

    /// Mean error per decision (0 without decisions).
    pub(crate) fn error_per_decision(&self) -> f64 {
        if self.decisions == 0 {
            0.0
        } else {
            self.total_error() / self.decisions as f64
        }
    }

    /// Mean error per decision that was not forced (0 without any): a forced decision has
    /// no error (its options are within 1e-9), so this is the total error over the unforced.
    pub(crate) fn error_per_unforced(&self) -> f64 {
        if self.unforced == 0 {
            0.0
        } else {
            self.total_error() / self.unforced as f64
        }
    }

    /// Share of the decisions not forced whose chosen option is a best one (0 without any).
    pub fn agreement(&self) -> f64 {
        if self.unforced == 0 {
            0.0
        } else {
            self.agreed as f64 / self.unforced as f64
        }
    }
}

/// One player's statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerStats {
    /// Games rated.
    pub games: u64,
    /// All decisions.
    pub all: Tally,
    /// By decision kind: keep after roll 1, keep after roll 2, box choice.
    pub kinds: [Tally; 3],
    /// By round (1-based).
    pub rounds: BTreeMap<u16, Tally>,
    /// Sum over games of the squared game error, micro-points squared (for the confidence interval).
    pub(crate) game_error_sq: i128,
    /// Dates of the player's games with the games and error that day (for trends).
    pub(crate) days: BTreeMap<String, (u64, i128)>,
    /// Dates of the player's games with the games counted here and the sum of their squared
    /// game errors, micro-points squared (for the interval of a trend's month). Absent from an
    /// `aggregates.json` written before it existed: a day whose count here falls short of its
    /// games in [`PlayerStats::days`] has no known spread.
    #[serde(default)]
    pub(crate) days_sq: BTreeMap<String, (u64, i128)>,
    /// Finished games (every box filled): those with a result. Absent (0) from an
    /// `aggregates.json` written before results were kept, as are the two sums below.
    #[serde(default)]
    pub finished: u64,
    /// Sum of the results of the finished games, nano-units: the final score in a part in
    /// points, the match points won (1 a win, 1/2 a tie, summed over the opponents) in a part
    /// in match points.
    #[serde(default)]
    pub(crate) result_nano: i128,
    /// Sum of the net luck of the finished games, nano-units: the player's luck, less the mean
    /// luck of the opponents in a part in match points (their good rolls are the player's bad
    /// luck). `result - net luck` is the result had luck been average.
    #[serde(default)]
    pub(crate) net_luck_nano: i128,
    /// The longest near-perfect stretches of non-forced decisions (the screening's evidence).
    #[serde(default, skip_serializing_if = "Stretches::is_empty")]
    pub stretches: Stretches,
    /// Sum over games of the player's accuracy in the game ([`accuracy::game_accuracy`]),
    /// whole micro-percent. Absent (0) from an `aggregates.json` written before accuracy
    /// existed, as is the count below: such games have no accuracy.
    #[serde(default)]
    pub(crate) accuracy_micro: u64,
    /// Games with an accuracy (at least one non-forced decision, rated by a version that
    /// kept accuracy).
    #[serde(default)]
    pub accuracy_games: u64,
    /// The non-forced decisions, agreement and near-perfect stretches against the solitaire
    /// oracle, in games of several players rated in match points (the screening's second
    /// engine; empty elsewhere, and absent from an `aggregates.json` written before it).
    #[serde(default, skip_serializing_if = "SolitaireCounts::is_empty")]
    pub solitaire: SolitaireCounts,
}

/// The 95% confidence interval of a mean per game (normal approximation, by game) from the
/// games, the sum of their errors (nano-points) and the sum of their squares (micro-points
/// squared): `(mean, mean)` for fewer than two games.
pub fn mean_ci(games: u64, error_nano: i128, error_sq_micro: i128) -> (f64, f64) {
    mean_interval(games, error_nano, error_sq_micro, 1.96)
}

/// The 97.5% quantile of Student's t distribution with `df` degrees of freedom (the factor of
/// a 95% interval of a mean of `df + 1` values): tabulated to 30, then `1.96 + 2.4 / df`
/// (within 0.002 of the exact value there).
pub(crate) fn student_t_975(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[(df - 1) as usize],
        _ => 1.96 + 2.4 / df as f64,
    }
}

/// The 95% confidence interval of a mean per game with Student's t factor (for few games, as
/// in a month of a trend): `(mean, mean)` for fewer than two games.
pub(crate) fn mean_ci_small(games: u64, error_nano: i128, error_sq_micro: i128) -> (f64, f64) {
    let factor = student_t_975(games.saturating_sub(1));
    mean_interval(games, error_nano, error_sq_micro, factor)
}

/// The interval `mean ± factor · s / √n` of a mean per game from its sums (`(mean, mean)` for
/// fewer than two games).
fn mean_interval(games: u64, error_nano: i128, error_sq_micro: i128, factor: f64) -> (f64, f64) {
    let n = games as f64;
    let mean = if games == 0 {
        0.0
    } else {
        error_nano as f64 / NANO / n
    };
    if games < 2 {
        return (mean, mean);
    }
    let mean_sq = error_sq_micro as f64 / (MICRO * MICRO) / n;
    let variance = ((mean_sq - mean * mean) * n / (n - 1.0)).max(0.0);
    let half = factor * (variance / n).sqrt();
    (mean - half, mean + half)
}

/// Adds the per-day counts of `theirs` to `mine` (checked), naming the entry `map[day]` and its
/// counters `first` and `second` on overflow.
fn merge_days(
    mine: &mut BTreeMap<String, (u64, i128)>,
    theirs: &BTreeMap<String, (u64, i128)>,
    map: &str,
    second: &str,
) -> Result<(), Overflow> {
    for (day, (g, e)) in theirs {
        let d = mine.entry(day.clone()).or_default();
        add_checked(&mut d.0, *g, "games")
            .and_then(|()| add_checked(&mut d.1, *e, second))
            .map_err(|e| e.within(&entry_name(map, day)))?;
    }
    Ok(())
}

/// Removes the per-day counts of `theirs` from `mine`, dropping the days that become empty.
fn subtract_days(mine: &mut BTreeMap<String, (u64, i128)>, theirs: &BTreeMap<String, (u64, i128)>) {
    subtract_entries(
        mine,
        theirs,
        |d, (g, e)| {
            d.0 = d.0.saturating_sub(*g);
            d.1 = d.1.saturating_sub(*e);
        },
        |d| *d == (0, 0),
    );
}

impl PlayerStats {
    /// Mean error per game.
    pub fn error_per_game(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.all.total_error() / self.games as f64
        }
    }

    /// 95% confidence interval of the error per game (normal approximation, by game), cut at 0.
    pub(crate) fn error_per_game_ci(&self) -> (f64, f64) {
        let (low, high) = mean_ci(self.games, self.all.error_nano, self.game_error_sq);
        // An error is never negative: neither is a bound of its interval.
        (low.max(0.0), high.max(0.0))
    }

    /// Mean accuracy per game (0 to 100) over the games that have one; `None` without any.
    pub fn accuracy(&self) -> Option<f64> {
        (self.accuracy_games > 0).then(|| {
            self.accuracy_micro as f64 / accuracy::MICRO_PERCENT / self.accuracy_games as f64
        })
    }

    /// The rating label of the player's error per non-forced decision in `unit`; `None`
    /// without a non-forced decision.
    pub fn label(&self, unit: Unit) -> Option<accuracy::Label> {
        (self.all.unforced > 0)
            .then(|| accuracy::Label::of_error(self.all.error_per_unforced(), unit))
    }

    /// Luck per game (the player's own, every game), in the unit of the part.
    pub fn luck_per_game(&self) -> f64 {
        per(self.all.luck_nano, self.games)
    }

    /// Mean result per finished game: final score (points) or match points won.
    pub fn result_per_game(&self) -> f64 {
        per(self.result_nano, self.finished)
    }

    /// Mean net luck per finished game (`PlayerStats::net_luck_nano`).
    pub fn net_luck_per_game(&self) -> f64 {
        per(self.net_luck_nano, self.finished)
    }

    /// The mean result per finished game had luck been average: result minus net luck.
    pub fn luck_adjusted_per_game(&self) -> f64 {
        per(self.result_nano - self.net_luck_nano, self.finished)
    }

    /// Adds another player's statistics; an error naming the counter that would overflow (the
    /// statistics are then partly merged: discard them).
    pub fn merge(&mut self, o: &PlayerStats) -> Result<(), Overflow> {
        add_checked(&mut self.games, o.games, "games")?;
        self.all.merge(&o.all).map_err(|e| e.within("all"))?;
        merge_kinds(&mut self.kinds, &o.kinds)?;
        for (round, t) in &o.rounds {
            let mine = self.rounds.entry(*round).or_default();
            mine.merge(t)
                .map_err(|e| e.within(&entry_name("rounds", round)))?;
        }
        add_checked(&mut self.game_error_sq, o.game_error_sq, "game_error_sq")?;
        merge_days(&mut self.days, &o.days, "days", "error_nano")?;
        merge_days(&mut self.days_sq, &o.days_sq, "days_sq", "error_sq")?;
        add_checked(&mut self.finished, o.finished, "finished")?;
        add_checked(&mut self.result_nano, o.result_nano, "result_nano")?;
        add_checked(&mut self.net_luck_nano, o.net_luck_nano, "net_luck_nano")?;
        self.stretches
            .merge(&o.stretches)
            .map_err(|e| e.within("stretches"))?;
        add_checked(&mut self.accuracy_micro, o.accuracy_micro, "accuracy_micro")?;
        add_checked(&mut self.accuracy_games, o.accuracy_games, "accuracy_games")?;
        self.solitaire
            .merge(&o.solitaire)
            .map_err(|e| e.within("solitaire"))?;
        Ok(())
    }

    /// Removes another player's statistics: undoes [`PlayerStats::merge`] exactly, dropping
    /// the rounds and days that become empty; the near-perfect stretches stay as they are (a
    /// list of the longest runs cannot give back what a merge cut from it).
    pub fn subtract(&mut self, o: &PlayerStats) {
        self.games = self.games.saturating_sub(o.games);
        self.all.subtract(&o.all);
        for (a, b) in self.kinds.iter_mut().zip(&o.kinds) {
            a.subtract(b);
        }
        subtract_entries(
            &mut self.rounds,
            &o.rounds,
            Tally::subtract,
            Tally::is_empty,
        );
        self.game_error_sq = self.game_error_sq.saturating_sub(o.game_error_sq);
        subtract_days(&mut self.days, &o.days);
        subtract_days(&mut self.days_sq, &o.days_sq);
        self.finished = self.finished.saturating_sub(o.finished);
        self.result_nano = self.result_nano.saturating_sub(o.result_nano);
        self.net_luck_nano = self.net_luck_nano.saturating_sub(o.net_luck_nano);
        self.accuracy_micro = self.accuracy_micro.saturating_sub(o.accuracy_micro);
        self.accuracy_games = self.accuracy_games.saturating_sub(o.accuracy_games);
        self.solitaire.subtract(&o.solitaire);
    }

    /// Whether nothing was added (no game, no decision, no round, no day, no result); the
    /// stretches do not count, as [`PlayerStats::subtract`] leaves them.
    pub fn is_empty(&self) -> bool {
        let mut counted = PlayerStats {
            stretches: Stretches::default(),
            ..self.clone()
        };
        counted.solitaire.stretches = Stretches::default();
        counted == PlayerStats::default()
    }
}

/// `sum / count` of a sum in nano-units (0 without any).
fn per(sum_nano: i128, count: u64) -> f64 {
    if count == 0 {
        0.0
    } else {
        sum_nano as f64 / NANO / count as f64
    }
}

/// Adds the tallies by decision kind of `o` to `mine`.
fn merge_kinds(mine: &mut [Tally; 3], o: &[Tally; 3]) -> Result<(), Overflow> {
    for (i, (a, b)) in mine.iter_mut().zip(o).enumerate() {
        a.merge(b).map_err(|e| e.within(&format!("kinds[{i}]")))?;
    }
    Ok(())
}

/// Decision kinds, in [`PlayerStats::kinds`] order.
pub(crate) const KINDS: [&str; 3] = ["keep after roll 1", "keep after roll 2", "box choice"];

/// The kind of a decision: 0 keep after roll 1, 1 keep after roll 2, 2 box choice.
pub fn kind(r: &Rated) -> usize {
    match r.decision.choice.kept() {
        None => 2,
        Some(_) => usize::from(r.decision.roll_number.clamp(1, 2) - 1),
    }
}

/// The histogram whose bucket boundaries every [`ErrorHistogram`] uses: 1 micro-point to
/// about a million points, 3 significant digits.
fn buckets() -> &'static hdrhistogram::Histogram<u64> {
    static BUCKETS: std::sync::OnceLock<hdrhistogram::Histogram<u64>> = std::sync::OnceLock::new();
    BUCKETS.get_or_init(|| {
        hdrhistogram::Histogram::new_with_bounds(1, 1 << 40, 3)
            .expect("constant bounds within hdrhistogram's limits")
    })
}

/// The lowest value of the bucket `micro` falls in (values beyond the range share the top one).
fn bucket_of(micro: u64) -> u64 {
    let h = buckets();
    h.lowest_equivalent(micro.min(h.high()))
}

/// Error histogram: counts of decision errors by micro-point bucket (hdrhistogram, 3
/// significant digits), stored as `(value, count)` pairs so it serialises and merges exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorHistogram {
    /// `(micro-points, count)` pairs, ascending.
    pub counts: BTreeMap<u64, u64>,
}

impl ErrorHistogram {
    /// Adds one error of `micro` micro-points, in its hdrhistogram bucket (the bucket's lowest
    /// value is the key).
    pub fn add(&mut self, micro: u64) {
        *self.counts.entry(bucket_of(micro)).or_default() += 1;
    }

    /// The error (points) at quantile `q` in 0..=1.
    #[cfg(test)]
    pub(crate) fn quantile(&self, q: f64) -> f64 {
        let total: u64 = self.counts.values().sum();
        if total == 0 {
            return 0.0;
        }
        let rank = ((q * total as f64).ceil() as u64).clamp(1, total);
        let mut seen = 0;
        for (&v, &c) in &self.counts {
            seen += c;
            if seen >= rank {
                return v as f64 / MICRO;
            }
        }
        0.0
    }

    /// Adds another histogram; an error naming the bucket whose count would overflow.
    pub fn merge(&mut self, o: &ErrorHistogram) -> Result<(), Overflow> {
        for (v, c) in &o.counts {
            add_checked(self.counts.entry(*v).or_default(), *c, "")
                .map_err(|_| overflow_at(&entry_name("counts", v), u64::BITS))?;
        }
        Ok(())
    }

    /// Removes another histogram: undoes [`ErrorHistogram::merge`] exactly, dropping the
    /// buckets that become empty.
    pub fn subtract(&mut self, o: &ErrorHistogram) {
        subtract_entries(&mut self.counts, &o.counts, subtract_count, is_zero);
    }
}

/// Subtracts each entry of `other` from the entry of the same key in `mine` (keys only in
/// `other` are ignored), removing the entries that become empty.
fn subtract_entries<K: Ord, V>(
    mine: &mut BTreeMap<K, V>,
    other: &BTreeMap<K, V>,
    subtract: impl Fn(&mut V, &V),
    is_empty: impl Fn(&V) -> bool,
) {
    for (key, theirs) in other {
        if let Some(entry) = mine.get_mut(key) {
            subtract(entry, theirs);
            if is_empty(entry) {
                mine.remove(key);
            }
        }
    }
}

/// `mine - theirs`, at least 0.
fn subtract_count(mine: &mut u64, theirs: &u64) {
    *mine = mine.saturating_sub(*theirs);
}

/// Whether a count is 0.
fn is_zero(count: &u64) -> bool {
    *count == 0
}

/// The entry of `key` in `map`, inserted with its default if missing (the key is copied only
/// then).
fn counter<'m, V: Default>(map: &'m mut BTreeMap<String, V>, key: &str) -> &'m mut V {
    if !map.contains_key(key) {
        map.insert(key.to_string(), V::default());
    }
    map.get_mut(key).expect("inserted just above")
}

/// Everything an analysis accumulates; merges by addition.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aggregates {
    /// Games rated.
    pub games: u64,
    /// All decisions.
    pub all: Tally,
    /// By decision kind.
    pub kinds: [Tally; 3],
    /// By turn of the game and number of seats.
    pub turns: BTreeMap<SeatsTurn, Tally>,
    /// By player name.
    pub players: BTreeMap<String, PlayerStats>,
    /// Errors of all decisions.
    pub histogram: ErrorHistogram,
    /// Games rated by rule set.
    pub rule_sets: BTreeMap<String, u64>,
}

impl Aggregates {
    /// Adds one rated game.
    pub fn add_game(&mut self, game: GameStats<'_>) {
        let GameStats {
            rules,
            rounds,
            players,
            date,
            rated,
            game_id,
            results,
        } = game;
        let lucks = net_lucks(rated, players.len(), results.map(|r| r.unit));
        let accuracies = accuracy::seat_accuracies(rated, players.len());
        self.games += 1;
        *counter(&mut self.rule_sets, rules) += 1;
        let seats = players.len() as u8;
        for r in rated {
            self.all.add(r);
            self.kinds[kind(r)].add(r);
            let turn = r.decision.round.saturating_sub(1) * u16::from(seats)
                + u16::from(r.decision.seat)
                + 1;
            let key = SeatsTurn {
                rounds,
                seats: u16::from(seats),
                turn,
            };
            self.turns.entry(key).or_default().add(r);
            self.histogram.add((r.error * MICRO).round() as u64);
        }
        for (seat, name) in players.iter().enumerate() {
            let p = counter(&mut self.players, name);
            let mut game_error = 0i128;
            for r in rated
                .iter()
                .filter(|r| usize::from(r.decision.seat) == seat)
            {
                game_error += nano(r.error);
                p.all.add(r);
                p.kinds[kind(r)].add(r);
                p.rounds.entry(r.decision.round).or_default().add(r);
                if let Some(id) = game_id {
                    p.stretches.add(id, r);
                }
                p.solitaire.add(game_id, r);
            }
            p.games += 1;
            if let Some(accuracy) = accuracies.get(seat).copied().flatten() {
                p.accuracy_micro += accuracy::micro_percent(accuracy);
                p.accuracy_games += 1;
            }
            if let Some(results) = results {
                p.finished += 1;
                p.result_nano += nano(results.of_seat.get(seat).copied().unwrap_or(0.0));
                p.net_luck_nano += lucks.get(seat).copied().unwrap_or(0);
            }
            let micro = game_error / 1000;
            p.game_error_sq += micro * micro;
            if let Some(day) = date {
                let d = counter(&mut p.days, day);
                d.0 += 1;
                d.1 += game_error;
                let d = counter(&mut p.days_sq, day);
                d.0 += 1;
                d.1 += micro * micro;
            }
        }
    }

    /// Adds another analysis. Every sum is checked: a counter that would overflow is an error
    /// naming it as a path into `aggregates.json` (`players["ann"].all.decisions`), and the
    /// aggregates are then partly merged (discard them).
    pub fn merge(&mut self, o: &Aggregates) -> Result<(), Overflow> {
        add_checked(&mut self.games, o.games, "games")?;
        self.all.merge(&o.all).map_err(|e| e.within("all"))?;
        merge_kinds(&mut self.kinds, &o.kinds)?;
        for (k, t) in &o.turns {
            let mine = self.turns.entry(*k).or_default();
            mine.merge(t)
                .map_err(|e| e.within(&entry_name("turns", k)))?;
        }
        for (name, p) in &o.players {
            let mine = self.players.entry(name.clone()).or_default();
            mine.merge(p)
                .map_err(|e| e.within(&entry_name("players", name)))?;
        }
        self.histogram
            .merge(&o.histogram)
            .map_err(|e| e.within("histogram"))?;
        for (r, n) in &o.rule_sets {
            add_checked(self.rule_sets.entry(r.clone()).or_default(), *n, "")
                .map_err(|_| overflow_at(&entry_name("rule_sets", r), u64::BITS))?;
        }
        Ok(())
    }

    /// Removes another analysis (for example one game counted twice): undoes
    /// [`Aggregates::merge`] exactly. Entries that become empty (turns, players with no game
    /// and no decision, their rounds and days, histogram buckets, rule sets) are removed, so
    /// the result is the same value as an analysis that never added `o`.
    pub fn subtract(&mut self, o: &Aggregates) {
        self.games = self.games.saturating_sub(o.games);
        self.all.subtract(&o.all);
        for (a, b) in self.kinds.iter_mut().zip(&o.kinds) {
            a.subtract(b);
        }
        subtract_entries(&mut self.turns, &o.turns, Tally::subtract, Tally::is_empty);
        subtract_entries(
            &mut self.players,
            &o.players,
            PlayerStats::subtract,
            PlayerStats::is_empty,
        );
        self.histogram.subtract(&o.histogram);
        subtract_entries(&mut self.rule_sets, &o.rule_sets, subtract_count, is_zero);
    }
}

/// Which part of an analysis a game belongs to: the unit its errors are in and the length of
/// its rule set's games. Errors of different parts are never added: every leaderboard, chart
/// and player total is of one part (a Yatzy game of 15 rounds has more decisions than a
/// Yahtzee game of 13, so their errors per game are not comparable either).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartKey {
    /// What the errors are in: [`Unit::Points`] or [`Unit::MatchPoints`].
    pub unit: Unit,
    /// Rounds of a game of the rule set (13 for the Yahtzee rule sets, 15 for Yatzy; 0 when
    /// unknown).
    pub rounds: u16,
}

impl PartKey {
    /// The key as an HTML id suffix (`points-13`, `match-points-15`).
    pub fn id(self) -> String {
        format!("{}-{}", self.unit.key().replace('_', "-"), self.rounds)
    }
}

impl std::fmt::Display for PartKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.unit.key(), self.rounds)
    }
}

impl std::str::FromStr for PartKey {
    type Err = String;

    fn from_str(key: &str) -> Result<PartKey, String> {
        let bad = || format!("part key {key:?}: expected UNIT/ROUNDS");
        let (unit, rounds) = key.split_once('/').ok_or_else(bad)?;
        let unit = match unit {
            "points" => Unit::Points,
            "match_points" => Unit::MatchPoints,
            _ => return Err(bad()),
        };
        let rounds = rounds.parse().map_err(|_| bad())?;
        Ok(PartKey { unit, rounds })
    }
}

text_key!(PartKey);

/// An analysis's statistics, one part per [`PartKey`] (unit of the errors and length of the
/// games): games rated in expected points (one-player games, and every game under the
/// solitaire oracle) apart from games rated in expected match points (games of several players
/// under a match-point oracle), and games of 13 rounds apart from games of 15.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Parts(pub BTreeMap<PartKey, Aggregates>);

impl Parts {
    /// The parts, in key order (points first, shorter games first).
    pub fn parts(&self) -> impl Iterator<Item = (PartKey, &Aggregates)> {
        self.0.iter().map(|(key, part)| (*key, part))
    }

    /// The part of `key`, if it has games.
    pub fn part(&self, key: PartKey) -> Option<&Aggregates> {
        self.0.get(&key)
    }

    /// Games rated, in all parts.
    pub fn games(&self) -> u64 {
        self.0.values().map(|part| part.games).sum()
    }

    /// Decisions rated, in all parts.
    pub fn decisions(&self) -> u64 {
        self.0.values().map(|part| part.all.decisions).sum()
    }

    /// Games rated in `unit`, in all its parts.
    pub(crate) fn games_in(&self, unit: Unit) -> u64 {
        self.parts()
            .filter(|(key, _)| key.unit == unit)
            .map(|(_, part)| part.games)
            .sum()
    }

    /// The unit of the analysis: that of its parts, [`Unit::Mixed`] when they have both,
    /// points when there is none.
    pub fn unit(&self) -> Unit {
        self.0
            .keys()
            .map(|key| key.unit)
            .reduce(Unit::and)
            .unwrap_or(Unit::Points)
    }

    /// Games rated by rule set, in all parts.
    pub fn rule_sets(&self) -> BTreeMap<String, u64> {
        let mut all = BTreeMap::new();
        for part in self.0.values() {
            for (rules, games) in &part.rule_sets {
                *all.entry(rules.clone()).or_default() += games;
            }
        }
        all
    }

    /// Adds one rated game to the part of `key` (see [`Aggregates::add_game`]).
    pub fn add_game(&mut self, key: PartKey, game: GameStats<'_>) {
        self.0.entry(key).or_default().add_game(game);
    }

    /// Adds another analysis, part by part (checked as [`Aggregates::merge`]; an overflow names
    /// the part, `points/13.games`).
    pub fn merge(&mut self, o: &Parts) -> Result<(), Overflow> {
        for (key, part) in &o.0 {
            self.0
                .entry(*key)
                .or_default()
                .merge(part)
                .map_err(|e| e.within(&key.to_string()))?;
        }
        Ok(())
    }

    /// Removes another analysis, part by part (see [`Aggregates::subtract`]); a part left
    /// without games is removed.
    pub fn subtract(&mut self, o: &Parts) {
        for (key, part) in &o.0 {
            if let Some(mine) = self.0.get_mut(key) {
                mine.subtract(part);
                if mine.games == 0 && mine.players.is_empty() && mine.all.is_empty() {
                    self.0.remove(key);
                }
            }
        }
    }
}

/// One rated game, as [`Parts::add_game`] takes it.
#[derive(Clone, Copy, Debug)]
pub struct GameStats<'a> {
    /// The rule set's name.
    pub rules: &'a str,
    /// Rounds of a game of the rule set.
    pub rounds: u16,
    /// The players, in seat order.
    pub players: &'a [String],
    /// The game's date, if known.
    pub date: Option<&'a str>,
    /// The game's rated decisions.
    pub rated: &'a [Rated],
    /// The game's id (the evidence of near-perfect stretches); `None` to keep no stretches
    /// (the hidden switch `DICELENS_NO_SCREENING`, to measure what they cost).
    pub game_id: Option<&'a str>,
    /// The results of a finished game, `None` for a game left unfinished.
    pub results: Option<&'a Results>,
}

/// The results of a finished game, seat by seat, in the unit of its part.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// The unit of the part the game is in.
    pub unit: Unit,
    /// Each seat's result: final score in points, or match points won (1 per opponent beaten,
    /// 1/2 per tie).
    pub(crate) of_seat: Vec<f64>,
}

impl Results {
    /// The results of a game that ended with `finals` (seat order), in `unit`.
    pub(crate) fn of_finals(finals: &[PlayerSheet], unit: Unit) -> Results {
        let of_seat = finals
            .iter()
            .enumerate()
            .map(|(seat, sheet)| match unit {
                Unit::MatchPoints => finals
                    .iter()
                    .enumerate()
                    .filter(|(other, _)| *other != seat)
                    .map(|(_, o)| match sheet.points().cmp(&o.points()) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    })
                    .sum(),
                Unit::Points | Unit::Mixed => sheet.points() as f64,
            })
            .collect();
        Results { unit, of_seat }
    }
}

/// Each seat's net luck in a game, nano-units: its luck, less (in match points, with more than
/// one seat) the mean luck of the other seats.
fn net_lucks(rated: &[Rated], seats: usize, unit: Option<Unit>) -> Vec<i128> {
    let mut own = vec![0i128; seats];
    for r in rated {
        if let Some(luck) = own.get_mut(usize::from(r.decision.seat)) {
            *luck += nano(r.luck);
        }
    }
    if unit != Some(Unit::MatchPoints) || seats < 2 {
        return own;
    }
    let all: i128 = own.iter().sum();
    let others = (seats - 1) as i128;
    // Each seat's luck less the others' mean, in whole nano-units.
    own.iter()
        .map(|&mine| mine - (all - mine) / others)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Errors far apart land in buckets far apart, and quantiles read them back.
    #[test]
    fn histogram_keeps_large_errors() {
        let mut e = ErrorHistogram::default();
        for micro in [0u64, 2, 1_500, 2_000_000, 7_000_000] {
            e.add(micro);
        }
        assert_eq!(e.counts.values().sum::<u64>(), 5);
        assert!((e.quantile(1.0) - 7.0).abs() < 0.01, "{:?}", e.counts);
        assert!((e.quantile(0.8) - 2.0).abs() < 0.01, "{:?}", e.counts);
        assert_eq!(e.quantile(0.2), 0.0);
    }

    /// A merge whose sum does not fit a counter is an error naming the counter, however deep.
    #[test]
    fn merge_refuses_sums_that_overflow() {
        let mut full = Aggregates {
            games: u64::MAX,
            ..Aggregates::default()
        };
        let one = Aggregates {
            games: 1,
            ..Aggregates::default()
        };
        let error = full.merge(&one).unwrap_err();
        assert_eq!(
            error,
            Overflow {
                counter: "games".into(),
                bits: 64
            }
        );
        assert_eq!(
            error.to_string(),
            "the counter games overflows (the sum does not fit in 64 bits)"
        );
        assert_eq!(full.games, u64::MAX, "unchanged");
        // Adding 0 to the maximum is fine.
        full.merge(&Aggregates::default()).unwrap();
        type Fill = fn(&mut Aggregates);
        let with = |f: Fill| {
            let mut a = Aggregates::default();
            f(&mut a);
            a
        };
        let cases: [(Fill, &str); 5] = [
            (|a| a.all.decisions = u64::MAX, "all.decisions"),
            (
                |a| a.kinds[2].classes.0[3] = u64::MAX,
                "kinds[2].classes.blunder",
            ),
            (
                |a| {
                    let p = a.players.entry("ann".into()).or_default();
                    p.rounds.entry(4).or_default().error_nano = i128::MAX;
                },
                "players[\"ann\"].rounds[\"4\"].error_nano",
            ),
            (
                |a| {
                    let p = a.players.entry("ann".into()).or_default();
                    p.days.insert("2024.01.02".into(), (u64::MAX, 0));
                },
                "players[\"ann\"].days[\"2024.01.02\"].games",
            ),
            (
                |a| {
                    a.histogram.counts.insert(1000, u64::MAX);
                },
                "histogram.counts[\"1000\"]",
            ),
        ];
        for (fill, counter) in cases {
            let mut big = with(fill);
            let error = big.merge(&with(fill)).unwrap_err();
            assert_eq!(error.counter, counter);
        }
        let mut sum = with(|a| a.all.luck_nano = i128::MIN);
        let error = sum.merge(&with(|a| a.all.luck_nano = -1)).unwrap_err();
        assert_eq!((error.counter.as_str(), error.bits), ("all.luck_nano", 128));
    }

    /// The squares of game errors by day merge and subtract with the rest; an
    /// `aggregates.json` written before they existed still reads (without them).
    #[test]
    fn squares_by_day_merge_and_old_aggregates_read() {
        let names = vec!["ann".to_string()];
        let mut a = Aggregates::default();
        a.add_game(GameStats {
            rules: "yahtzee",
            rounds: 13,
            players: &names,
            date: Some("2024.01.02"),
            rated: &[rated(0, 1, 1, 2.0, 0.0, 2)],
            game_id: Some("g1"),
            results: None,
        });
        let mut b = Aggregates::default();
        b.add_game(GameStats {
            rules: "yahtzee",
            rounds: 13,
            players: &names,
            date: Some("2024.01.02"),
            rated: &[rated(0, 1, 1, 3.0, 0.0, 2)],
            game_id: Some("g2"),
            results: None,
        });
        let before = a.clone();
        a.merge(&b).unwrap();
        let ann = &a.players["ann"];
        assert_eq!(ann.days_sq["2024.01.02"], (2, 13_000_000_000_000));
        assert_eq!(ann.days["2024.01.02"].0, 2);
        // The player's accuracy is the mean of the games' (losses of 10% and 15%).
        let games = [10.0, 15.0].map(accuracy::decision_accuracy);
        assert_eq!(ann.accuracy_games, 2);
        assert!((ann.accuracy().unwrap() - (games[0] + games[1]) / 2.0).abs() < 1e-6);
        assert_eq!(ann.label(Unit::Points), Some(accuracy::Label::Awful));
        a.subtract(&b);
        assert_eq!(a, before);
        let mut json = serde_json::to_value(&a).unwrap();
        let ann = json["players"]["ann"].as_object_mut().unwrap();
        for newer in [
            "days_sq",
            "finished",
            "result_nano",
            "net_luck_nano",
            "stretches",
            "accuracy_micro",
            "accuracy_games",
        ] {
            ann.remove(newer);
        }
        ann["all"].as_object_mut().unwrap().remove("agreed");
        let old: Aggregates = serde_json::from_value(json).unwrap();
        assert!(old.players["ann"].days_sq.is_empty());
        assert_eq!(old.players["ann"].all.agreed, 0);
        assert_eq!(old.players["ann"].days, a.players["ann"].days);
        let (lo, hi) = mean_ci(2, 5_000_000_000, 13_000_000_000_000);
        let half = 1.96 * (0.5f64 / 2.0).sqrt();
        assert!((lo - (2.5 - half)).abs() < 1e-9 && (hi - (2.5 + half)).abs() < 1e-9);
        let (lo, hi) = mean_ci_small(2, 5_000_000_000, 13_000_000_000_000);
        let half = 12.706 * (0.5f64 / 2.0).sqrt();
        assert!((lo - (2.5 - half)).abs() < 1e-9 && (hi - (2.5 + half)).abs() < 1e-9);
        assert!((student_t_975(40) - 2.021).abs() < 0.002);
        assert!((student_t_975(120) - 1.980).abs() < 0.002);
    }

    /// A rated decision of `seat` in `round` with the given error, luck and class.
    fn rated(seat: u8, round: u16, roll: u8, error: f64, luck: f64, class: usize) -> Rated {
        use crate::dice::Dice;
        use crate::rules::{Choice, RuleSet, Sheet};
        let dice = Dice::from_faces(&[1, 2, 3, 4, 6]).unwrap();
        Rated {
            decision: crate::replay::Decision {
                seat,
                round,
                turn: 0,
                roll_number: roll,
                saved: 0,
                sheet: crate::rules::PlayerSheet::Yahtzee(Sheet::empty(RuleSet::MAIN[0])),
                dice,
                choice: Choice::Keep(dice),
                announced: None,
                pure: false,
            },
            best: 10.0,
            best_choice: Choice::Keep(dice),
            best_announced: None,
            chosen: 10.0 - error,
            error,
            luck,
            forced: error == 0.0,
            class: [Class::Fine, Class::Doubtful, Class::Error, Class::Blunder][class],
            unit: crate::rate::Unit::Points,
            solitaire: None,
        }
    }

    /// Subtracting an analysis undoes merging it exactly, whether its entries are shared
    /// (same players, turns, days) or new (a player, a round, a day, a rule set seen only there).
    #[test]
    fn subtract_undoes_merge_exactly() {
        let names = |a: &str, b: &str| vec![a.to_string(), b.to_string()];
        let game = |rules, players: &'static [String], date, rated: &'static [Rated]| GameStats {
            rules,
            rounds: if rules == "yatzy" { 15 } else { 13 },
            players,
            date,
            rated,
            game_id: Some("g"),
            results: None,
        };
        let leak = |v: Vec<String>| -> &'static [String] { Vec::leak(v) };
        let rows = |v: Vec<Rated>| -> &'static [Rated] { Vec::leak(v) };
        let (points, match_points) = (
            PartKey {
                unit: Unit::Points,
                rounds: 13,
            },
            PartKey {
                unit: Unit::MatchPoints,
                rounds: 13,
            },
        );
        let yatzy = PartKey {
            unit: Unit::MatchPoints,
            rounds: 15,
        };
        let mut base = Parts::default();
        base.add_game(
            match_points,
            game(
                "yahtzee",
                leak(names("ann", "bob")),
                Some("2024-01-02"),
                rows(vec![
                    rated(0, 1, 1, 0.25, 0.5, 1),
                    rated(1, 1, 3, 0.0, -1.5, 0),
                ]),
            ),
        );
        base.add_game(
            points,
            game(
                "yahtzee",
                leak(vec!["bob".into()]),
                None,
                rows(vec![
                    rated(0, 2, 2, 1.5, 0.1, 2),
                    rated(0, 3, 3, 6.0, 2.0, 3),
                ]),
            ),
        );
        let before = base.clone();
        let mut other = Parts::default();
        other.add_game(
            yatzy,
            game(
                "yatzy",
                leak(names("ann", "dee")),
                Some("2024-03-04"),
                rows(vec![
                    rated(0, 1, 1, 0.25, 0.5, 1),
                    rated(1, 7, 2, 12.5, 3.0, 3),
                ]),
            ),
        );
        other.add_game(
            points,
            game(
                "yahtzee",
                leak(vec!["ann".into()]),
                Some("2024-01-02"),
                rows(vec![rated(0, 9, 1, 0.000_123, -0.25, 0)]),
            ),
        );
        // Each unit and length has its own part: nothing of one is added to another.
        assert_eq!(other.part(points).map(|p| p.games), Some(1));
        assert_eq!(other.part(yatzy).map(|p| p.games), Some(1));
        assert_eq!(other.part(match_points), None);
        assert_eq!(other.unit(), Unit::Mixed);
        assert!(!other.part(points).unwrap().players.contains_key("dee"));
        let json = serde_json::to_string(&other).unwrap();
        assert!(json.starts_with("{\"points/13\":{"), "{json}");
        assert_eq!(serde_json::from_str::<Parts>(&json).unwrap(), other);
        base.merge(&other).unwrap();
        assert_ne!(base, before);
        base.subtract(&other);
        assert_eq!(base, before);
        assert_eq!(
            serde_json::to_string(&base).unwrap(),
            serde_json::to_string(&before).unwrap()
        );
        // Subtracting everything leaves the empty analysis.
        base.subtract(&before);
        assert_eq!(base, Parts::default());
    }
}
