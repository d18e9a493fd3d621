//! Match points from distributions (docs/methods.md section 4): the static evaluations EMP and DynW
//! of score laws, the search to depth `d` (EMP(d), DynW(d)), and the choice of method.
//!
//! Laws are seen on final totals: a player's law at `t` is the (maximal) probability of
//! finishing with at least `t` points, their sheet's distribution shifted by their points.
//!
//! - EMP: `sum over t of (P(t) - P(t+1)) * sum_i (1 - (Q_i(t) + Q_i(t+1)) / 2)`.
//! - DynW: `max over t of P(t) * sum_i (1 - Q_i(t))`.
//! - Depth 0: our distributions propagated through our turn (the distribution widget), each
//!   option's distribution evaluated against the opponents' current distributions.
//! - Depth `d >= 1`: our turn with scalar values, each post-score position valued by
//!   `1 -` the opponent's next turn searched to depth `d - 1` (two players), depth 0 there being
//!   the evaluation of the two sheets' distributions. With more than two players only depth 1
//!   (each post-score position evaluated against every opponent's distribution).
//! - Positions the exact solver settles (few boxes free, two players) take its exact value:
//!   the turn asked for always, the positions its search reaches only with
//!   [`ExactRange::in_search`] (otherwise the search ends at the static evaluation, as EMP(d)
//!   is defined; each such position costs a whole exact solve below it).

use super::decoded::{self, DecodedDists, Reader};
use super::distribution::{DistSource, TurnDist};
use super::two_player::ExactTwoPlayer;
use super::widget::{rolls_from_keeps, SingleStore};
use crate::dice::Dice;
use crate::rules::{Choice, PerRuleSet, RuleSet, Scored, Sheet};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// A score law on final totals: `P(final >= t)`, 1 before [`Law::first`], 0 after
/// [`Law::last`].
pub trait Law {
    /// `P(final >= t)`.
    fn at_least(&self, t: i64) -> f64;
    /// The least `t` where the law may be below 1.
    fn first(&self) -> i64;
    /// The greatest `t` where the law may be above 0.
    fn last(&self) -> i64;
}

/// A law given as a function and its bounds.
pub(crate) struct FnLaw<F: Fn(i64) -> f64> {
    /// `P(final >= t)`.
    pub at_least: F,
    /// The least `t` where it may be below 1.
    pub first: i64,
    /// The greatest `t` where it may be above 0.
    pub last: i64,
}

impl<F: Fn(i64) -> f64> Law for FnLaw<F> {
    fn at_least(&self, t: i64) -> f64 {
        (self.at_least)(t)
    }
    fn first(&self) -> i64 {
        self.first
    }
    fn last(&self) -> i64 {
        self.last
    }
}

/// Expected match points of a player with law `us` against players with laws `others`
/// (a win 1, a tie 1/2, summed over opponents), treating the laws as independent score laws.
pub fn emp(us: &dyn Law, others: &[&dyn Law]) -> f64 {
    let mut total = 0.0;
    let mut p_next = us.at_least(us.first() - 1);
    for t in us.first() - 1..=us.last() {
        let p = p_next;
        p_next = us.at_least(t + 1);
        let mass = p - p_next;
        if mass == 0.0 {
            continue;
        }
        let points: f64 = others
            .iter()
            .map(|q| 1.0 - (q.at_least(t) + q.at_least(t + 1)) / 2.0)
            .sum();
        total += mass * points;
    }
    total
}

/// DynW: the best, over targets `t`, of reaching `t` times the opponents who do not.
pub fn dynw(us: &dyn Law, others: &[&dyn Law]) -> f64 {
    (us.first() - 1..=us.last())
        .map(|t| us.at_least(t) * others.iter().map(|q| 1.0 - q.at_least(t)).sum::<f64>())
        .fold(0.0, f64::max)
}

/// How options are valued in a game of several players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The solitaire oracle (expected final score), ignoring the opponents.
    Solitaire,
    /// Exact two-player values.
    Exact,
    /// EMP searched to this depth.
    Emp(u8),
    /// DynW searched to this depth.
    DynW(u8),
}

impl std::str::FromStr for Method {
    type Err = String;

    /// `e`, `exact`, `emp:D` or `dynw:D` with `D` in 0..=5.
    fn from_str(text: &str) -> Result<Method, String> {
        let depth = |d: &str| match d.parse::<u8>() {
            Ok(d) if d <= 5 => Ok(d),
            _ => Err(format!("expected a search depth from 0 to 5, got '{d}'")),
        };
        match text.split_once(':') {
            None if text == "e" => Ok(Method::Solitaire),
            None if text == "exact" => Ok(Method::Exact),
            Some(("emp", d)) => Ok(Method::Emp(depth(d)?)),
            Some(("dynw", d)) => Ok(Method::DynW(depth(d)?)),
            _ => Err(format!(
                "unknown method '{text}': expected exact, emp:D, dynw:D (D in 0..=5) or e"
            )),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::Solitaire => f.write_str("e"),
            Method::Exact => f.write_str("exact"),
            Method::Emp(d) => write!(f, "emp:{d}"),
            Method::DynW(d) => write!(f, "dynw:{d}"),
        }
    }
}

/// A player's sheet and the law of their final total from the distribution table.
fn sheet_law<'a>(dists: &'a dyn DistSource, sheet: &Sheet) -> Option<impl Law + 'a> {
    let index = super::states::StateSpace::new(sheet.rules).index_of(sheet)?;
    let d = dists.dist(index);
    let points = i64::from(sheet.points);
    Some(FnLaw {
        at_least: move |t| d.at_least(t - points),
        first: i64::from(d.start) + points,
        last: d.end() + points,
    })
}

/// The static evaluation (EMP or DynW) of `us` against `others`, by their distributions.
fn evaluate(dists: &dyn DistSource, dynamic: bool, us: &Sheet, others: &[Sheet]) -> Option<f64> {
    let ours = sheet_law(dists, us)?;
    let theirs: Vec<_> = others
        .iter()
        .map(|o| sheet_law(dists, o))
        .collect::<Option<_>>()?;
    let refs: Vec<&dyn Law> = theirs.iter().map(|l| l as &dyn Law).collect();
    Some(if dynamic {
        dynw(&ours, &refs)
    } else {
        emp(&ours, &refs)
    })
}

/// The opponents' side of EMP, tabulated once for many evaluations against the same
/// opponents: `m(t) = sum_i (1 - (Q_i(t) + Q_i(t+1)) / 2)`, the match points a final total `t`
/// earns, so that with `P` our law `EMP = sum over t of (P(t) - P(t+1)) * m(t)`; by summation by
/// parts, with `F` the least total whose `P` may be below 1, `EMP = m(F - 1) + sum over t >= F of
/// P(t) * dm(t)`, `dm(t) = m(t) - m(t - 1)`: one dot product.
///
/// The laws are read decoded ([`super::decoded`]), and `m` is kept only where it is more than
/// [`OPPONENT_TAIL`] from 0 and from the number of opponents `n` (0 before, `n` after): totals
/// the opponents almost never reach or almost always pass cannot change a value by more than
/// that. docs/methods.md section 4 gives the whole bound ([`EMP_READ_BOUND`]).
struct Opponents {
    sheets: Vec<Sheet>,
    /// The total of `m[0]`.
    lo: i64,
    /// `m(lo)`, `m(lo + 1)`, ...: 0 before, `n` after.
    m: Vec<f64>,
    /// `dm[k] = m(lo + k) - m(lo + k - 1)`, for `k` in `0..=m.len()`.
    dm: Vec<f64>,
}

/// How far from 0 and from the number of opponents the match points `m(t)` of the totals kept
/// are ([`Opponents`]).
pub(crate) const OPPONENT_TAIL: f64 = decoded::TAIL;

/// The most an EMP value against one opponent moves by reading decoded laws
/// (`super::decoded::READ_BOUND` for our law and for theirs, and `OPPONENT_TAIL` for the
/// trimmed ends of `m`), against the same sum over the stored codes decoded in `f64`.
pub const EMP_READ_BOUND: f64 = 2.0 * super::decoded::READ_BOUND + OPPONENT_TAIL;

impl Opponents {
    fn new(sheets: &[Sheet], reader: &mut Reader) -> Option<Opponents> {
        let space = super::states::StateSpace::new(sheets.first()?.rules);
        // Each opponent's law on final totals: the first total read and the values.
        let laws: Vec<(i64, Vec<f32>)> = sheets
            .iter()
            .map(|o| {
                let d = reader.read(space.index_of(o)?);
                Some((d.first + i64::from(o.points), d.values.to_vec()))
            })
            .collect::<Option<_>>()?;
        let lo = laws.iter().map(|l| l.0 - 1).min()?;
        let hi = laws.iter().map(|l| l.0 + l.1.len() as i64).max()?;
        let len = usize::try_from(hi - lo + 1).ok()?;
        let mut m = vec![0.0f64; len];
        // One opponent's law at totals `lo..=hi + 1`: 1 before its values, 0 after them.
        let mut q = vec![0.0f64; len + 1];
        for (first, values) in &laws {
            let before = usize::try_from(first - lo).ok()?.min(q.len());
            q[..before].fill(1.0);
            let stored = values.len().min(q.len() - before);
            for (qt, &v) in q[before..before + stored].iter_mut().zip(values) {
                *qt = f64::from(v);
            }
            q[before + stored..].fill(0.0);
            for (mk, pair) in m.iter_mut().zip(q.windows(2)) {
                *mk += 1.0 - (pair[0] + pair[1]) / 2.0;
            }
        }
        let n = sheets.len() as f64;
        let tail = OPPONENT_TAIL;
        let a = m.iter().position(|&v| v > tail).unwrap_or(m.len());
        let b = m
            .iter()
            .rposition(|&v| v < n - tail)
            .map_or(a, |i| (i + 1).max(a));
        let m = m[a..b].to_vec();
        let dm = (0..=m.len())
            .map(|k| {
                let here = m.get(k).copied().unwrap_or(n);
                let before = if k == 0 { 0.0 } else { m[k - 1] };
                here - before
            })
            .collect();
        Some(Opponents {
            sheets: sheets.to_vec(),
            lo: lo + a as i64,
            m,
            dm,
        })
    }

    /// `m(t)` as kept: 0 before the window, the number of opponents after it.
    fn at(&self, t: i64) -> f64 {
        if t < self.lo {
            return 0.0;
        }
        match self.m.get((t - self.lo) as usize) {
            Some(&v) => v,
            None => self.sheets.len() as f64,
        }
    }

    /// EMP of the sheet `us` (its law shifted by its points) against these opponents.
    fn emp(&self, us: &Sheet, reader: &mut Reader) -> Option<f64> {
        let index = super::states::StateSpace::new(us.rules).index_of(us)?;
        let d = reader.read(index);
        let first = d.first + i64::from(us.points);
        // Totals from `first` on where `dm` is kept: `t` from `from` to `from + n - 1`.
        let from = first.max(self.lo);
        let skip = usize::try_from(from - first).ok()?;
        let k0 = usize::try_from(from - self.lo).ok()?;
        let values = d.values.get(skip..).unwrap_or(&[]);
        let steps = self.dm.get(k0..).unwrap_or(&[]);
        Some(self.at(first - 1) + decoded::dot(values, steps))
    }
}

/// A searched turn: the mover, the others, the depth.
type TurnKey = (Sheet, Vec<Sheet>, u8);

/// Where a search uses exact two-player values.
#[derive(Clone, Copy)]
pub struct ExactRange<'a> {
    /// The solver.
    pub solver: &'a ExactTwoPlayer,
    /// Two-player positions with at most this many boxes free (both sheets) are settled by it.
    pub most_free: u32,
    /// Whether the positions a search reaches (after the turn asked for) are settled by it too
    /// when they are in range; if not, the search values them by its static evaluation.
    pub in_search: bool,
}

/// Match-point values of the options of positions of games of two or more players (one
/// thread's search: positions met again during the search are looked up, not searched again).
pub struct MatchSearch<'a> {
    /// The distribution table of the rule set.
    pub dists: &'a dyn DistSource,
    /// The exact solver and where it is used.
    pub exact: Option<ExactRange<'a>>,
    /// How options are valued.
    pub method: Method,
    /// Values of the turns searched so far: (mover, others, depth).
    memo: std::cell::RefCell<HashMap<TurnKey, f64>>,
    /// The table's distributions decoded, shared with other searches (else each search decodes
    /// what it reads).
    decoded: Option<&'a DecodedDists>,
    /// The opponents last evaluated against, tabulated, and what reads the distributions.
    opponents: std::cell::RefCell<(Option<Opponents>, Option<Reader<'a>>)>,
}

/// One turn with scalar values: each post-score position valued once, the widget run once,
/// and every decision of the turn read from it.
struct ScalarTurn {
    /// `keep_values[n - 1]`: the keeps smaller than a roll with `n` rolls left.
    keep_values: Vec<Vec<f64>>,
    before: f64,
    /// Value of scoring by (box, points, extra bonus or not): see [`ScalarTurn::slot`].
    scored: Vec<f64>,
}

/// Points a box can score, plus one (0..=50).
const SCORE_SLOTS: usize = 51;

/// What each roll other than five of a kind scores in each box, for the turn loops of the
/// search (no joker applies to them): built once per rule set from
/// [`super::expected::scoring_boxes`].
struct RollPoints {
    /// By box, by roll index: the points the roll scores there (0 where it scores nothing, and
    /// for five of a kind, which the rules value).
    by_box_roll: Vec<Vec<u8>>,
    /// The rolls of five of a kind.
    five_of_a_kind: Vec<usize>,
    /// By box: each number of points some roll other than five of a kind scores there.
    by_box: Vec<Vec<u8>>,
}

impl RollPoints {
    /// The table of `rules`.
    fn of(rules: RuleSet) -> &'static RollPoints {
        static TABLES: PerRuleSet<RollPoints> = [const { OnceLock::new() }; RuleSet::ALL.len()];
        rules.once(&TABLES, || {
            let boxes = rules.box_count();
            let by_roll: Vec<Option<Vec<u8>>> = super::expected::scoring_boxes(rules)
                .iter()
                .map(|scoring| {
                    scoring.as_ref().map(|list| {
                        let mut points = vec![0u8; boxes];
                        for &(b, p) in list {
                            points[usize::from(b)] = p;
                        }
                        points
                    })
                })
                .collect();
            let mut by_box: Vec<Vec<u8>> = vec![Vec::new(); boxes];
            let mut by_box_roll = vec![vec![0u8; by_roll.len()]; boxes];
            for (r, points) in by_roll.iter().enumerate() {
                for (b, &p) in points.iter().flatten().enumerate() {
                    by_box_roll[b][r] = p;
                    if !by_box[b].contains(&p) {
                        by_box[b].push(p);
                    }
                }
            }
            let five_of_a_kind = (0..by_roll.len())
                .filter(|&r| by_roll[r].is_none())
                .collect();
            RollPoints {
                by_box_roll,
                five_of_a_kind,
                by_box,
            }
        })
    }
}

impl ScalarTurn {
    /// The slot of scoring `points` (and an extra bonus or not) in box `b`: the position after
    /// scoring depends on nothing else.
    #[inline(always)]
    fn slot(b: usize, points: u32, extra: bool) -> usize {
        (b * SCORE_SLOTS + (points as usize).min(SCORE_SLOTS - 1)) * 2 + usize::from(extra)
    }

    /// The turn of `mover`, with `post(after)` the value of each post-score position.
    ///
    /// Every free box can take a roll for 0 points (five of a kind under the forced joker
    /// apart), so the positions reached by rolls other than five of a kind are the free boxes
    /// with the points each can score ([`RollPoints`]), valued first; each such roll's best box
    /// is then a maximum over the free boxes. Five of a kind goes through the rules.
    fn new(mover: &Sheet, mut post: impl FnMut(&Sheet) -> Option<f64>) -> Option<ScalarTurn> {
        let rules = mover.rules;
        let table = RollPoints::of(rules);
        let mut scored = vec![f64::NAN; rules.box_count() * SCORE_SLOTS * 2];
        let free: Vec<usize> = (0..rules.box_count())
            .filter(|b| mover.filled & (1 << b) == 0)
            .collect();
        for &b in &free {
            for &points in &table.by_box[b] {
                let scored_here = Scored {
                    points: u32::from(points),
                    extra: 0,
                };
                let (after, _) = mover.after_scoring(b, scored_here);
                scored[Self::slot(b, u32::from(points), false)] = post(&after)?;
            }
        }
        // Each roll's best box: box by box over every roll (independent maxima, no chain of
        // dependent comparisons), then five of a kind through the rules.
        // The maxima are taken in the widget's roll slots, which start at minus infinity.
        let dice = mover.rules.dice_space();
        let mut store = SingleStore::new(dice);
        let best = store.rolls_mut();
        for &b in &free {
            let values = &scored[Self::slot(b, 0, false)..][..SCORE_SLOTS * 2];
            for (best, &p) in best.iter_mut().zip(&table.by_box_roll[b]) {
                let v = values[usize::from(p) * 2];
                if v > *best {
                    *best = v;
                }
            }
        }
        for &r in &table.five_of_a_kind {
            let roll = dice.rolls()[r];
            best[r] = f64::NEG_INFINITY;
            for &b in &free {
                let Some(sc) = mover.score(&roll, b) else {
                    continue;
                };
                let slot = Self::slot(b, sc.points, sc.extra > 0);
                if scored[slot].is_nan() {
                    scored[slot] = post(&mover.after(&roll, b)?.0)?;
                }
                best[r] = best[r].max(scored[slot]);
            }
        }
        let keep_values =
            super::widget::keep_values_by_rolls_left(&mut store, mover.rules.rolls_per_turn());
        rolls_from_keeps(&mut store);
        super::widget::expectation_before_first_roll(&mut store);
        Some(ScalarTurn {
            keep_values,
            before: store.get(crate::dice::EMPTY_KEEP),
            scored,
        })
    }

    fn options(&self, mover: &Sheet, roll: &Dice, rolls_left: u8) -> Vec<(Choice, f64)> {
        let mut out = Vec::new();
        let dice = mover.rules.dice_space();
        let Some(r) = dice.roll_index(roll) else {
            return out;
        };
        if let Some(values) = super::widget::keeps_for_rolls_left(&self.keep_values, rolls_left) {
            for &k in &dice.proper_sub_keeps[r] {
                let k = usize::from(k);
                out.push((Choice::Keep(dice.keeps[k]), values[k]));
            }
        }
        // A roll other than five of a kind scores what the table says in every free box; five
        // of a kind goes through the rules (jokers, extra bonus).
        let table = RollPoints::of(mover.rules);
        let five_of_a_kind = roll.five_of_a_kind().is_some();
        for b in 0..mover.rules.box_count() {
            let scored = if five_of_a_kind {
                mover.score(roll, b).map(|sc| (sc.points, sc.extra > 0))
            } else {
                (mover.filled & (1 << b) == 0).then(|| (u32::from(table.by_box_roll[b][r]), false))
            };
            if let Some((points, extra)) = scored {
                let v = self.scored[Self::slot(b, points, extra)];
                out.push((Choice::Score(mover.rules.boxes()[b]), v));
            }
        }
        out
    }
}

impl<'a> MatchSearch<'a> {
    /// A search over `dists`, exact values from `exact` where it settles a position, the rest
    /// by `method`.
    pub fn new(
        dists: &'a dyn DistSource,
        exact: Option<ExactRange<'a>>,
        method: Method,
    ) -> MatchSearch<'a> {
        MatchSearch {
            dists,
            exact,
            method,
            memo: Default::default(),
            decoded: None,
            opponents: Default::default(),
        }
    }

    /// The same search, reading distributions through `decoded`, the table's shared cache of
    /// decoded distributions (the values are the same; they are decoded once).
    pub(crate) fn with_decoded(self, decoded: Option<&'a DecodedDists>) -> MatchSearch<'a> {
        MatchSearch { decoded, ..self }
    }

    /// Free boxes of a set of sheets.
    fn free(sheets: &[&Sheet]) -> u32 {
        sheets.iter().map(|s| s.free_count()).sum()
    }

    /// The exact solver, if it settles the two-player position asked for with these sheets.
    fn exact_for(&self, a: &Sheet, b: &Sheet) -> Option<&ExactTwoPlayer> {
        self.exact
            .filter(|e| Self::free(&[a, b]) <= e.most_free)
            .map(|e| e.solver)
    }

    /// The exact solver, if it settles a position reached by the search with these sheets.
    fn exact_in_search(&self, a: &Sheet, b: &Sheet) -> Option<&ExactTwoPlayer> {
        self.exact
            .filter(|e| e.in_search)
            .and_then(|_| self.exact_for(a, b))
    }

    /// When the exact solver settles the positions the search reaches after the mover's turn,
    /// solves them all at once (they share what lies below them) before the turn reads them
    /// one by one.
    fn prepare_exact_after(&self, mover: &Sheet, others: &[Sheet]) {
        if let ([other], Some(e)) = (others, self.exact) {
            if e.in_search && Self::free(&[mover, other]) <= e.most_free + 1 {
                e.solver.prepare(mover, other);
            }
        }
    }

    /// The mover's expected match points at the start of its turn, reached by the search,
    /// searched to `depth`.
    fn turn_value(&self, mover: &Sheet, others: &[Sheet], depth: u8, dynamic: bool) -> Option<f64> {
        if let [other] = others {
            if mover.is_complete() && other.is_complete() {
                return Some(match mover.points.cmp(&other.points) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                });
            }
            if let Some(exact) = self.exact_in_search(mover, other) {
                return exact.value(mover, other);
            }
        }
        if depth == 0 {
            return evaluate(self.dists, dynamic, mover, others);
        }
        let key = (*mover, others.to_vec(), depth);
        if let Some(&v) = self.memo.borrow().get(&key) {
            return Some(v);
        }
        self.prepare_exact_after(mover, others);
        let v = ScalarTurn::new(mover, |after| {
            self.post_value(after, others, depth, dynamic)
        })?
        .before;
        self.memo.borrow_mut().insert(key, v);
        Some(v)
    }

    /// The value, to the player who just scored and reached `after`, of the position after
    /// their turn, searched to `depth` (at least 1).
    fn post_value(&self, after: &Sheet, others: &[Sheet], depth: u8, dynamic: bool) -> Option<f64> {
        match others {
            [other] if !other.is_complete() => {
                // One turn deep, EMP: match points are complementary, so the opponent's
                // evaluation of the two sheets is ours against them, tabulated once.
                if depth == 1 && !dynamic && self.exact_in_search(other, after).is_none() {
                    return self.emp_against(after, others);
                }
                Some(
                    1.0 - self.turn_value(
                        other,
                        std::slice::from_ref(after),
                        depth - 1,
                        dynamic,
                    )?,
                )
            }
            [other] => self.turn_value(after, std::slice::from_ref(other), 0, dynamic),
            _ if !dynamic => self.emp_against(after, others),
            _ => evaluate(self.dists, dynamic, after, others),
        }
    }

    /// EMP of `us` against `others`, with the opponents' side tabulated once for every
    /// evaluation against the same opponents.
    fn emp_against(&self, us: &Sheet, others: &[Sheet]) -> Option<f64> {
        let mut held = self.opponents.borrow_mut();
        let (cached, reader) = &mut *held;
        let reader = reader.get_or_insert_with(|| Reader::new(self.dists, self.decoded));
        if cached.as_ref().map(|o| o.sheets.as_slice()) != Some(others) {
            *cached = Some(Opponents::new(others, reader)?);
        }
        cached.as_ref()?.emp(us, reader)
    }

    /// The mover's expected match points before its turn: exact where settled, else searched
    /// to the method's depth (depth 0 evaluates the sheets' distributions as they stand).
    pub(crate) fn position_value(&self, mover: &Sheet, others: &[Sheet]) -> Option<f64> {
        match self.method {
            Method::Solitaire => None,
            Method::Exact => match others {
                [other] => self.exact?.solver.value(mover, other),
                _ => None,
            },
            Method::Emp(d) | Method::DynW(d) => {
                if others.len() > 1 && d > 1 {
                    return None;
                }
                if let ([other], false) = (others, mover.is_complete()) {
                    if let Some(exact) = self.exact_for(mover, other) {
                        return exact.value(mover, other);
                    }
                }
                self.turn_value(mover, others, d, matches!(self.method, Method::DynW(_)))
            }
        }
    }

    /// The mover's turn, evaluated once (exact where the solver settles it, else by the
    /// method); `None` if the method cannot value this position (exact or depth beyond 1 with
    /// more than two players, an impossible sheet, a complete mover).
    pub fn turn(&self, mover: &Sheet, others: &[Sheet]) -> Option<MatchTurn> {
        let exact = match (self.method, others) {
            (Method::Solitaire, _) => return None,
            (Method::Exact, [other]) => Some((self.exact?.solver, other)),
            (Method::Exact, _) => return None,
            (_, [other]) => self.exact_for(mover, other).map(|s| (s, other)),
            _ => None,
        };
        if let Some((solver, other)) = exact {
            let d = i64::from(other.points) - i64::from(mover.points);
            let turn = solver.turn(mover, other)?;
            return Some(MatchTurn {
                before: turn.before_first_roll_at(d),
                kind: TurnKind::Exact { turn, d },
            });
        }
        let dynamic = matches!(self.method, Method::DynW(_));
        match self.method {
            Method::Emp(0) | Method::DynW(0) => Some(MatchTurn {
                before: evaluate(self.dists, dynamic, mover, others)?,
                kind: TurnKind::Laws {
                    turn: TurnDist::new(&self.dists, mover)?,
                    points: i64::from(mover.points),
                    opponents: others.to_vec(),
                    dynamic,
                },
            }),
            Method::Emp(d) | Method::DynW(d) => {
                if others.len() > 1 && d > 1 {
                    return None;
                }
                self.prepare_exact_after(mover, others);
                let turn =
                    ScalarTurn::new(mover, |after| self.post_value(after, others, d, dynamic))?;
                Some(MatchTurn {
                    before: turn.before,
                    kind: TurnKind::Scalar(turn),
                })
            }
            Method::Solitaire | Method::Exact => None,
        }
    }

    /// Every legal option of the mover's decision, valued in expected match points (summed over
    /// opponents), best first; `None` when [`MatchSearch::turn`] is.
    pub fn options(
        &self,
        mover: &Sheet,
        others: &[Sheet],
        roll: &Dice,
        rolls_left: u8,
    ) -> Option<Vec<(Choice, f64)>> {
        let mut options = self
            .turn(mover, others)?
            .options(self, mover, roll, rolls_left);
        options.sort_by(|a, b| b.1.total_cmp(&a.1));
        Some(options)
    }
}

/// How a turn with opponents was evaluated.
enum TurnKind {
    /// Exactly: the turn's functions of the points difference, read at `d`.
    Exact { turn: TurnDist, d: i64 },
    /// Depth 0: each option's distribution, evaluated against the opponents' when read.
    Laws {
        turn: TurnDist,
        points: i64,
        opponents: Vec<Sheet>,
        dynamic: bool,
    },
    /// Depth 1 or more: scalar values.
    Scalar(ScalarTurn),
}

/// One turn of a position with opponents, evaluated once: every decision of the turn is read
/// from it.
pub struct MatchTurn {
    kind: TurnKind,
    before: f64,
}

impl MatchTurn {
    /// The mover's expected match points before the turn's first roll.
    pub fn before(&self) -> f64 {
        self.before
    }

    /// Every legal option after rolling `roll` with `rolls_left` rolls left, valued in expected
    /// match points, in listing order (keeps, then boxes). `search` is the one that made the turn.
    pub fn options(
        &self,
        search: &MatchSearch,
        mover: &Sheet,
        roll: &Dice,
        rolls_left: u8,
    ) -> Vec<(Choice, f64)> {
        match &self.kind {
            TurnKind::Exact { turn, d } => turn
                .option_laws(roll, rolls_left)
                .into_iter()
                .map(|(choice, law)| (choice, law.at(*d)))
                .collect(),
            TurnKind::Scalar(turn) => turn.options(mover, roll, rolls_left),
            TurnKind::Laws {
                turn,
                points,
                opponents,
                dynamic,
            } => {
                let theirs: Vec<_> = opponents
                    .iter()
                    .filter_map(|o| sheet_law(search.dists, o))
                    .collect();
                let refs: Vec<&dyn Law> = theirs.iter().map(|l| l as &dyn Law).collect();
                turn.option_laws(roll, rolls_left)
                    .into_iter()
                    .map(|(choice, law)| {
                        let ours = FnLaw {
                            at_least: |t: i64| law.at(t - points),
                            first: law.first() + points,
                            last: law.last() + points,
                        };
                        let v = if *dynamic {
                            dynw(&ours, &refs)
                        } else {
                            emp(&ours, &refs)
                        };
                        (choice, v)
                    })
                    .collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Category;
    use crate::solve::distribution::DistTableData;
    use crate::solve::states::StateSpace;

    /// P(five of a kind within three rolls, optimal keeps) = 2,783,176 / 6^10, the classic
    /// figure (derived by brute force in `solve::widget`'s tests).
    const P: f64 = 2_783_176.0 / 60_466_176.0;

    /// A law on final totals from `(total, probability)` pairs.
    fn law(points: &[(i64, f64)]) -> FnLaw<impl Fn(i64) -> f64> {
        let owned = points.to_vec();
        let first = owned.iter().map(|p| p.0).min().unwrap();
        let last = owned.iter().map(|p| p.0).max().unwrap();
        FnLaw {
            at_least: move |t| owned.iter().filter(|p| p.0 >= t).map(|p| p.1).sum(),
            first,
            last,
        }
    }

    /// EMP and DynW on hand-made laws, computed by hand.
    #[test]
    fn emp_and_dynw_by_hand() {
        let us = law(&[(10, 0.5), (20, 0.5)]);
        let sure_15 = law(&[(15, 1.0)]);
        let sure_10 = law(&[(10, 1.0)]);
        // Against a sure 15: lose with 10, win with 20.
        assert!((emp(&us, &[&sure_15]) - 0.5).abs() < 1e-12);
        // Against a sure 10: tie with 10 (1/2), win with 20: 0.5 * 0.5 + 0.5 * 1.
        assert!((emp(&us, &[&sure_10]) - 0.75).abs() < 1e-12);
        // Two opponents: match points add up.
        assert!((emp(&us, &[&sure_10, &sure_15]) - 1.25).abs() < 1e-12);
        // DynW against a sure 15: aim at 16..=20, reached with probability 1/2.
        assert!((dynw(&us, &[&sure_15]) - 0.5).abs() < 1e-12);
        // A spread opponent: 12 or 18 evenly. EMP: 10 loses to both (0); 20 beats both (1).
        let spread = law(&[(12, 0.5), (18, 0.5)]);
        assert!((emp(&us, &[&spread]) - 0.5).abs() < 1e-12);
        // DynW: target 13..=18 reached with 1/2, opponent misses it with 1/2: 0.25; target
        // 19..=20: 0.5 * 1 = 0.5.
        assert!((dynw(&us, &[&spread]) - 0.5).abs() < 1e-12);
        let equal = law(&[(7, 0.25), (9, 0.75)]);
        // Equal laws: a symmetric game is worth 1/2.
        assert!((emp(&equal, &[&equal]) - 0.5).abs() < 1e-12);
        assert_eq!(us.first(), 10);
    }

    #[test]
    fn methods_parse_and_print() {
        for text in ["e", "exact", "emp:0", "emp:4", "dynw:1", "dynw:5"] {
            let m: Method = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
        }
        for bad in ["emp", "emp:6", "dynw:x", "exactly", ""] {
            assert!(bad.parse::<Method>().is_err(), "{bad}");
        }
    }

    /// A fair die's law, 1 to 6.
    fn die() -> FnLaw<impl Fn(i64) -> f64> {
        law(&[1, 2, 3, 4, 5, 6].map(|f| (f, 1.0 / 6.0)))
    }

    #[test]
    fn a_die_against_a_sure_four() {
        // EMP: 5 or 6 wins (2/6), 4 ties (1/6 counted half): 5/12.
        let sure_4 = law(&[(4, 1.0)]);
        assert!((emp(&die(), &[&sure_4]) - 5.0 / 12.0).abs() < 1e-12);
        // DynW: aiming at 5 or more (reached with 2/6) is the only target the opponent misses.
        assert!((dynw(&die(), &[&sure_4]) - 1.0 / 3.0).abs() < 1e-12);
        // The sure four against the die: the complement, 7/12.
        assert!((emp(&sure_4, &[&die()]) - 7.0 / 12.0).abs() < 1e-12);
    }

    #[test]
    fn emp_of_two_players_adds_up_to_one() {
        let laws = [
            law(&[(3, 0.2), (8, 0.5), (9, 0.3)]),
            law(&[(1, 0.1), (8, 0.6), (12, 0.3)]),
            law(&[(8, 1.0)]),
            law(&[(0, 0.5), (20, 0.5)]),
        ];
        for a in &laws {
            // Against itself: wins and losses are equally likely, ties count half.
            assert!((emp(a, &[a]) - 0.5).abs() < 1e-12);
            for b in &laws {
                let sum = emp(a, &[b]) + emp(b, &[a]);
                assert!((sum - 1.0).abs() < 1e-12, "{sum}");
            }
        }
        // Two dice: 15/36 wins and 6/36 ties, 1/2.
        assert!((emp(&die(), &[&die()]) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn unknown_methods_and_depths_say_what_is_expected() {
        let err = "emp:6".parse::<Method>().unwrap_err();
        assert!(err.contains("from 0 to 5, got '6'"), "{err}");
        let err = "dynw:-1".parse::<Method>().unwrap_err();
        assert!(err.contains("from 0 to 5, got '-1'"), "{err}");
        for bad in ["foo", "exact:1", "e:0", "EMP:1"] {
            let err = bad.parse::<Method>().unwrap_err();
            assert!(err.starts_with(&format!("unknown method '{bad}'")), "{err}");
        }
        assert_eq!("emp:5".parse(), Ok(Method::Emp(5)));
        assert_eq!("dynw:0".parse(), Ok(Method::DynW(0)));
    }

    /// The sheet of `rules` with every box filled but `free` ([`Sheet::filled_but`]).
    fn sheet(rules: RuleSet, free: &[&str], points: u32) -> Sheet {
        Sheet::filled_but(rules, free, points)
    }

    #[test]
    fn the_tabulated_opponents_give_the_same_emp_as_the_direct_sum() {
        // Hand-made distributions on three states; the mover's points moved from far behind
        // the opponents' totals to far beyond them.
        let rules = RuleSet::Yahtzee;
        let space = StateSpace::new(rules);
        let mut dists = DistTableData::new(space.len());
        let a = sheet(rules, &["Y"], 200);
        let b = sheet(rules, &["C"], 210);
        let c = sheet(rules, &["Y", "C"], 215);
        dists.set(
            space.index_of(&a).unwrap(),
            3,
            vec![50_000, 30_000, 10_000, 5_000],
        );
        dists.set(space.index_of(&b).unwrap(), 1, vec![60_000, 20_000]);
        // Tails where the match points are within `OPPONENT_TAIL` of 0 or 1.
        let code = crate::solve::prob_code::encode;
        let mut tailed = vec![code(1.0 - 1e-12), code(1.0 - 3e-10)];
        tailed.extend([65_000, 40_000, 40_000, 100]);
        tailed.extend([code(2e-10), code(1e-11), code(1e-15)]);
        dists.set(space.index_of(&c).unwrap(), 10, tailed);
        let cache = DecodedDists::new(space.len());
        let mut largest = 0.0f64;
        for (others, shared) in [(vec![b], None), (vec![c], Some(&cache)), (vec![b, c], None)] {
            let bound = EMP_READ_BOUND * others.len() as f64;
            let mut reader = Reader::new(&dists, shared);
            let table = Opponents::new(&others, &mut reader).unwrap();
            for points in 200..=260 {
                for us in [Sheet { points, ..a }, Sheet { points, ..c }] {
                    let fast = table.emp(&us, &mut reader).unwrap();
                    let direct = evaluate(&dists, false, &us, &others).unwrap();
                    assert!(
                        (fast - direct).abs() <= bound,
                        "{points}: {fast} vs {direct}"
                    );
                    largest = largest.max((fast - direct).abs());
                    assert!((0.0..=others.len() as f64).contains(&direct));
                }
            }
        }
        // The trimmed tails do move values (so the bound is what is tested).
        assert!(largest > 1e-12, "{largest}");
    }

    #[test]
    fn finished_games_are_won_tied_or_lost_on_points() {
        // Both sheets complete: no distribution is read.
        let rules = RuleSet::Yatzy;
        let dists = DistTableData::new(0);
        let search = MatchSearch::new(&dists, None, Method::Emp(1));
        let done = |points| sheet(rules, &[], points);
        for (ours, theirs, want) in [(200, 199, 1.0), (200, 200, 0.5), (199, 200, 0.0)] {
            let value = search.position_value(&done(ours), &[done(theirs)]);
            assert_eq!(value, Some(want), "{ours} against {theirs}");
        }
    }

    #[test]
    fn one_turn_search_against_a_finished_opponent_is_exact() {
        // The mover's only box is the Yahtzee box; the opponent is done, `d` points ahead.
        // Every post-score position is final, so EMP(1) and DynW(1) are exact: 1 ahead (d < 0),
        // P + (1 - P)/2 level, P from 1 to 49 behind, P/2 at 50, 0 beyond.
        let rules = RuleSet::Yahtzee;
        let dists = DistTableData::new(0);
        let mover = sheet(rules, &["Y"], 200);
        for method in [Method::Emp(1), Method::DynW(1), Method::Emp(3)] {
            let search = MatchSearch::new(&dists, None, method);
            for (d, want) in [
                (-5, 1.0),
                (0, P + (1.0 - P) / 2.0),
                (1, P),
                (49, P),
                (50, P / 2.0),
                (51, 0.0),
            ] {
                let other = sheet(rules, &[], (200 + d) as u32);
                let value = search.position_value(&mover, &[other]).unwrap();
                assert!((value - want).abs() < 1e-12, "{method} d={d}: {value}");
                let turn = search.turn(&mover, &[other]).unwrap();
                assert!((turn.before() - want).abs() < 1e-12, "{method} d={d}");
            }
            // 30 behind, five sixes in hand: scoring them wins for sure.
            let other = sheet(rules, &[], 230);
            let sixes = Dice::from_faces(&[6; 5]).unwrap();
            let options = search.options(&mover, &[other], &sixes, 2).unwrap();
            assert_eq!(options[0], (Choice::Score(Category::Yahtzee), 1.0));
            assert!(options[1..].iter().all(|o| o.1 < 1.0));
        }
    }

    #[test]
    fn methods_that_cannot_value_a_position_give_none() {
        let rules = RuleSet::Yahtzee;
        let dists = DistTableData::new(0);
        let mover = sheet(rules, &["Y"], 200);
        let other = sheet(rules, &["C"], 200);
        let roll = Dice::from_faces(&[1, 2, 3, 4, 5]).unwrap();
        // The solitaire oracle is not a match-point method.
        let solitaire = MatchSearch::new(&dists, None, Method::Solitaire);
        assert_eq!(solitaire.position_value(&mover, &[other]), None);
        assert!(solitaire.turn(&mover, &[other]).is_none());
        assert!(solitaire.options(&mover, &[other], &roll, 1).is_none());
        // Exact values need the exact solver, and two players.
        let exact = MatchSearch::new(&dists, None, Method::Exact);
        assert_eq!(exact.position_value(&mover, &[other]), None);
        assert!(exact.turn(&mover, &[other, other]).is_none());
        // With more than two players, searches go one turn deep at most.
        let deep = MatchSearch::new(&dists, None, Method::Emp(2));
        assert_eq!(deep.position_value(&mover, &[other, other]), None);
        assert!(deep.turn(&mover, &[other, other]).is_none());
    }
}
