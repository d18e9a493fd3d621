//! Fairness of the dice a log shows (`dicelens dice`): the freshly rolled dice of every roll
//! (the roll minus the dice kept before it, so that a player's choices cannot bias the counts)
//! are counted per group of games ([`FairnessCounts`], mergeable), then tested against fair,
//! independent dice ([`assess`]):
//!
//! - faces: Pearson's chi-square of the face counts against 1/6 each (5 degrees of freedom);
//! - sums: for each number n = 1..6 of fresh dice (six with six-dice games), the sums of the
//!   rolls of n fresh dice against their exact distribution, adjacent sums pooled until every
//!   cell expects at least `MIN_EXPECTED` rolls (`pool_cells`); the chi-squares of the n are
//!   added (their rolls are disjoint, so their degrees of freedom add);
//! - five of a kind: rolls whose dice all show one face (kept and fresh dice together: five of
//!   a kind with five dice, six of a kind with six) against the exact expectation given each
//!   roll's keep and number of dice; the count is a sum of independent binomials, its
//!   two-sided p-value exact (`five_of_a_kind_p`) for small counts, else by the normal
//!   approximation with continuity correction;
//! - serial dependence: the fresh dice of a roll that show a face among the fresh dice of the
//!   same player's previous roll in the game; under fair independent dice a fresh die matches
//!   with probability s/6 (s = distinct faces of the previous roll) whatever happened before,
//!   so the expectation and variance are exact sums; two-sided normal p-value.
//!
//! A group's `p_value` is the smallest p-value of its tests times the number of tests that
//! have data (Bonferroni, at most 1); `p_adjusted` corrects it for the number of groups (Holm
//! or Benjamini-Hochberg); the verdict is `unfair` when `p_adjusted` is below the level.

use crate::dice::{Dice, FACES, MAX_DICE};
use crate::replay::Replayed;
use dicelens_parsers::GameRecord;
use std::collections::BTreeMap;

/// The dice one roll brought: who rolled them and how many of each face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FreshRoll {
    /// The roller's seat (0-based).
    pub seat: u8,
    /// Which roll of the turn (1 for the first).
    pub roll_number: u8,
    /// The dice kept before this roll (empty for the first roll of a turn).
    pub kept: Dice,
    /// The freshly rolled dice, by face (1 to 6).
    pub counts: [u8; FACES],
}

impl FreshRoll {
    /// How many dice were rolled.
    pub fn dice(&self) -> u8 {
        self.counts.iter().sum()
    }

    /// The dice on the table after the roll: those kept and those rolled.
    pub fn table_dice(&self) -> usize {
        self.kept.len() + usize::from(self.dice())
    }

    /// Whether the roll, with the kept dice, shows all its dice alike (five of a kind with five
    /// dice, six of a kind with six).
    pub fn all_alike(&self) -> bool {
        let kept = self.kept.counts();
        let all = self.table_dice();
        (0..FACES).any(|face| usize::from(kept[face] + self.counts[face]) == all)
    }
}

/// The fresh dice of every roll of a replayed game, in play order. The first roll of a turn
/// brings all the dice (five, or six in six-dice games); a later roll brings the dice of the table minus those kept after the roll
/// before. A roll whose kept dice are not on the table (a replay stopped by a broken rule never
/// yields one) is left out.
pub(crate) fn fresh_rolls(replayed: &Replayed) -> Vec<FreshRoll> {
    let mut rolls = Vec::with_capacity(replayed.decisions.len());
    let mut kept: Option<(u16, Dice)> = None;
    for decision in &replayed.decisions {
        let before = match kept {
            Some((turn, dice)) if turn == decision.turn && decision.roll_number > 1 => dice,
            _ => Dice::default(),
        };
        if let Some(fresh) = decision.dice.minus(&before) {
            rolls.push(FreshRoll {
                seat: decision.seat,
                roll_number: decision.roll_number,
                kept: before,
                counts: fresh.counts(),
            });
        }
        kept = decision.choice.kept().map(|dice| (decision.turn, dice));
    }
    rolls
}

/// The exact probability that rolling `dice - kept.len()` fair dice beside `kept` shows all
/// `dice` dice alike: `6 / 6^dice` when nothing is kept, `(1/6)^n` for `n` dice rolled beside
/// kept dice all of one face, 0 when they show two faces.
pub(crate) fn all_alike_probability(kept: &Dice, dice: usize) -> f64 {
    let counts = kept.counts();
    let faces = counts.iter().filter(|&&c| c > 0).count();
    let rolled = dice.saturating_sub(kept.len()) as i32;
    match faces {
        0 => 6.0 * (1.0f64 / 6.0).powi(dice as i32),
        1 => (1.0f64 / 6.0).powi(rolled),
        _ => 0.0,
    }
}

/// Pearson's chi-square statistic of `observed` counts against `expected` counts (cells with
/// no expected count are left out).
pub(crate) fn chi_square(observed: &[u64], expected: &[f64]) -> f64 {
    observed
        .iter()
        .zip(expected)
        .filter(|(_, &e)| e > 0.0)
        .map(|(&o, &e)| {
            let d = o as f64 - e;
            d * d / e
        })
        .sum()
}

/// The probability that a chi-square variable with `df` degrees of freedom is at least `x`:
/// the regularized upper incomplete gamma function `Q(df / 2, x / 2)`.
pub(crate) fn chi_square_p(x: f64, df: u32) -> f64 {
    if df == 0 || !x.is_finite() {
        return if x.is_finite() { 1.0 } else { 0.0 };
    }
    upper_gamma_q(f64::from(df) / 2.0, x.max(0.0) / 2.0)
}

/// `ln Γ(a)` for `a > 0` (Lanczos' approximation, g = 7, nine terms: about 15 digits).
fn ln_gamma(a: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if a < 0.5 {
        // Reflection: Γ(a) Γ(1 - a) = π / sin(π a).
        let pi = std::f64::consts::PI;
        return (pi / (pi * a).sin()).ln() - ln_gamma(1.0 - a);
    }
    let a = a - 1.0;
    let t = a + 7.5;
    let sum = G
        .iter()
        .enumerate()
        .skip(1)
        .fold(G[0], |s, (i, g)| s + g / (a + i as f64));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (a + 0.5) * t.ln() - t + sum.ln()
}

/// The regularized upper incomplete gamma function `Q(a, x) = Γ(a, x) / Γ(a)`: by its series
/// below `x = a + 1`, by its continued fraction (modified Lentz) above.
fn upper_gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let log_prefix = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        // P(a, x) = x^a e^-x / Γ(a + 1) * sum_n x^n / ((a + 1)...(a + n)).
        let (mut term, mut sum, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (1.0 - sum * log_prefix.exp()).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (log_prefix.exp() * h).clamp(0.0, 1.0)
    }
}

/// The indices of `p` from the smallest value up (ties in index order).
fn ascending(p: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    order
}

/// Holm's step-down adjustment of `p` (family-wise error rate): the adjusted p-values, in the
/// order given.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let (m, order) = (p.len(), ascending(p));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// Benjamini and Hochberg's step-up adjustment of `p` (false discovery rate): the adjusted
/// p-values, in the order given.
pub(crate) fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let (m, order) = (p.len(), ascending(p));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 1.0;
    for (rank, &i) in order.iter().enumerate().rev() {
        running = running.min((m as f64 * p[i] / (rank + 1) as f64).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// Most fresh dice a roll has.
pub(crate) const MAX_FRESH: usize = MAX_DICE;

/// Greatest sum of [`MAX_FRESH`] dice, the size of a sum histogram less one.
pub(crate) const MAX_SUM: usize = 6 * MAX_FRESH;

/// Least expected count of a chi-square cell: sums are pooled until every cell expects this.
pub(crate) const MIN_EXPECTED: f64 = 5.0;

/// Below this many five-of-a-kind rolls (observed and expected), the five-of-a-kind p-value is
/// exact; above, the normal approximation is used.
pub(crate) const EXACT_FIVE_LIMIT: u64 = 2_000;

/// The default level of the verdict: `unfair` when the adjusted p-value is below it.
pub const DEFAULT_LEVEL: f64 = 0.01;

/// How the rolls of a corpus are grouped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GroupBy {
    /// One group, `all`.
    #[default]
    All,
    /// By the player who rolled.
    Player,
    /// By log file.
    File,
    /// By the month of the game's date (`YYYY-MM`), `(no date)` without one.
    Month,
    /// By the game's `Site` tag, `(no site)` without one.
    SiteTag,
}

impl GroupBy {
    /// Every grouping, as the flag names them.
    pub const ALL: [GroupBy; 5] = [
        GroupBy::All,
        GroupBy::Player,
        GroupBy::File,
        GroupBy::Month,
        GroupBy::SiteTag,
    ];

    /// The name of the grouping (`all`, `player`, `file`, `month`, `site-tag`).
    pub fn name(self) -> &'static str {
        match self {
            GroupBy::All => "all",
            GroupBy::Player => "player",
            GroupBy::File => "file",
            GroupBy::Month => "month",
            GroupBy::SiteTag => "site-tag",
        }
    }

    /// The group of the games (not split by player) of `game`.
    fn game_group(self, game: &GameRecord) -> String {
        match self {
            GroupBy::All | GroupBy::Player => "all".into(),
            GroupBy::File => game.provenance.file.clone(),
            GroupBy::Month => match game.provenance.date.as_deref() {
                Some(date) if date.len() >= 7 && date.is_char_boundary(7) => {
                    date[..7].replace('.', "-")
                }
                _ => "(no date)".into(),
            },
            GroupBy::SiteTag => game
                .tag("Site")
                .filter(|site| !site.trim().is_empty())
                .unwrap_or("(no site)")
                .to_string(),
        }
    }
}

impl std::str::FromStr for GroupBy {
    type Err = String;
    fn from_str(text: &str) -> Result<GroupBy, String> {
        GroupBy::ALL
            .into_iter()
            .find(|g| g.name() == text)
            .ok_or_else(|| format!("expected all, player, file, month or site-tag, got {text:?}"))
    }
}

impl std::fmt::Display for GroupBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The counts of the fresh dice of one group, everything the tests need; two counts of
/// disjoint games add up with [`DiceCounts::merge`] (all integers: the same bytes whatever the
/// order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceCounts {
    /// Games counted (a player's games, by player).
    pub games: u64,
    /// Rolls with at least one fresh die.
    pub rolls: u64,
    /// Fresh dice by face (1 to 6).
    pub faces: [u64; FACES],
    /// `sums[n - 1][s]`: rolls of `n` fresh dice whose fresh dice add up to `s`.
    pub sums: [[u64; MAX_SUM + 1]; MAX_FRESH],
    /// Rolls by their dice and the keep before them, for all alike: `[d - 1][k]` counts the
    /// rolls of `d` dice on the table after a keep of `k` dice all of one face (`k = 0`:
    /// nothing kept). Rolls after a keep of two faces cannot show all alike and are not
    /// counted.
    pub(crate) five_chances: [[u64; MAX_FRESH]; MAX_FRESH],
    /// Rolls counted in `five_chances` that show all their dice alike.
    pub(crate) five_observed: u64,
    /// Fresh dice of rolls that follow another roll of the same player in the game.
    pub(crate) serial_dice: u64,
    /// Those that show a face among the fresh dice of that previous roll.
    pub(crate) serial_matches: u64,
    /// Six times their expected number: the sum over rolls of `m * s` (m fresh dice, s distinct
    /// faces among the previous roll's fresh dice).
    pub(crate) serial_expected_x6: u64,
    /// 36 times the variance of their number: the sum over rolls of `m * s * (6 - s)`.
    pub(crate) serial_variance_x36: u64,
}

impl Default for DiceCounts {
    fn default() -> DiceCounts {
        DiceCounts {
            games: 0,
            rolls: 0,
            faces: [0; FACES],
            sums: [[0; MAX_SUM + 1]; MAX_FRESH],
            five_chances: [[0; MAX_FRESH]; MAX_FRESH],
            five_observed: 0,
            serial_dice: 0,
            serial_matches: 0,
            serial_expected_x6: 0,
            serial_variance_x36: 0,
        }
    }
}

/// The faces (bit `f - 1` for face `f`) among `counts`.
fn face_mask(counts: &[u8; FACES]) -> u8 {
    (0..FACES)
        .filter(|&f| counts[f] > 0)
        .fold(0, |mask, f| mask | (1 << f))
}

impl DiceCounts {
    /// Fresh dice counted.
    pub fn fresh_dice(&self) -> u64 {
        self.faces.iter().sum()
    }

    /// Adds the counts of `other` (of other games).
    pub fn merge(&mut self, other: &DiceCounts) {
        self.games += other.games;
        self.rolls += other.rolls;
        for (a, b) in self.faces.iter_mut().zip(&other.faces) {
            *a += b;
        }
        for (row, other_row) in self.sums.iter_mut().zip(&other.sums) {
            for (a, b) in row.iter_mut().zip(other_row) {
                *a += b;
            }
        }
        for (row, other_row) in self.five_chances.iter_mut().zip(&other.five_chances) {
            for (a, b) in row.iter_mut().zip(other_row) {
                *a += b;
            }
        }
        self.five_observed += other.five_observed;
        self.serial_dice += other.serial_dice;
        self.serial_matches += other.serial_matches;
        self.serial_expected_x6 += other.serial_expected_x6;
        self.serial_variance_x36 += other.serial_variance_x36;
    }

    /// Counts one roll; `previous` is the face mask of the fresh dice of the same player's
    /// previous roll in the game, if any. A roll of no fresh die counts nothing.
    fn add_roll(&mut self, roll: &FreshRoll, previous: Option<u8>) {
        let n = usize::from(roll.dice());
        if n == 0 || n > MAX_FRESH {
            return;
        }
        self.rolls += 1;
        let mut sum = 0;
        for (face, &count) in roll.counts.iter().enumerate() {
            self.faces[face] += u64::from(count);
            sum += (face + 1) * usize::from(count);
        }
        self.sums[n - 1][sum] += 1;
        let kept = roll.kept.counts();
        let kept_faces = kept.iter().filter(|&&c| c > 0).count();
        let chances = roll
            .table_dice()
            .checked_sub(1)
            .and_then(|d| self.five_chances.get_mut(d))
            .and_then(|row| row.get_mut(roll.kept.len()));
        if let (true, Some(chances)) = (kept_faces <= 1, chances) {
            *chances += 1;
            self.five_observed += u64::from(roll.all_alike());
        }
        if let Some(mask) = previous {
            let s = u64::from(mask.count_ones());
            let m = n as u64;
            self.serial_dice += m;
            self.serial_matches += (0..FACES)
                .filter(|&f| mask & (1 << f) != 0)
                .map(|f| u64::from(roll.counts[f]))
                .sum::<u64>();
            self.serial_expected_x6 += m * s;
            self.serial_variance_x36 += m * s * (6 - s);
        }
    }
}

/// The counts of every group of a corpus, by group name (sorted).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FairnessCounts {
    /// The counts of each group.
    pub groups: BTreeMap<String, DiceCounts>,
}

impl FairnessCounts {
    /// Counts the fresh dice of a replayed game into its groups (`by`).
    pub fn add_game(&mut self, by: GroupBy, game: &GameRecord, replayed: &Replayed) {
        let seats = replayed.seats.max(game.players.len()).max(1);
        let mut per_seat = vec![DiceCounts::default(); seats];
        let mut previous: Vec<Option<u8>> = vec![None; seats];
        for roll in fresh_rolls(replayed) {
            let seat = usize::from(roll.seat);
            if seat >= seats || roll.dice() == 0 {
                continue;
            }
            per_seat[seat].add_roll(&roll, previous[seat]);
            previous[seat] = Some(face_mask(&roll.counts));
        }
        if by == GroupBy::Player {
            for (seat, counts) in per_seat.iter_mut().enumerate() {
                let name = game.players.get(seat).map_or("(no name)", String::as_str);
                counts.games = 1;
                self.add_group(name, counts);
            }
        } else {
            let mut all = DiceCounts::default();
            for counts in &per_seat {
                all.merge(counts);
            }
            all.games = 1;
            self.add_group(&by.game_group(game), &all);
        }
    }

    /// Adds `counts` to the group `name` (a group of no roll is not made).
    fn add_group(&mut self, name: &str, counts: &DiceCounts) {
        if counts.rolls == 0 {
            return;
        }
        match self.groups.get_mut(name) {
            Some(group) => group.merge(counts),
            None => {
                self.groups.insert(name.to_string(), counts.clone());
            }
        }
    }

    /// Adds the counts of `other` (of other games), group by group.
    pub fn merge(&mut self, other: &FairnessCounts) {
        for (name, counts) in &other.groups {
            self.groups.entry(name.clone()).or_default().merge(counts);
        }
    }
}

/// Reads and replays every game of `files` as `options` say (the pipeline's reading: skipped
/// games counted by reason in the summary; the oracle is not used) and counts their fresh dice
/// by `by`, streaming: no game is kept.
pub fn count_corpus(
    files: &[std::path::PathBuf],
    options: &crate::pipeline::Options,
    by: GroupBy,
    progress: &dyn crate::pipeline::Progress,
) -> Result<(FairnessCounts, crate::corpus::Summary), crate::pipeline::AnalyzeError> {
    let mut counts = FairnessCounts::default();
    let summary = crate::pipeline::read_games(files, options, progress, |game, replayed| {
        counts.add_game(by, game, replayed);
    })?;
    Ok((counts, summary))
}

/// The exact distribution of the sum of `n` fair dice: `[s]` is `P(sum = s)` for `s` from 0 to
/// `6 n` (0 below `n`).
pub(crate) fn sum_distribution(n: usize) -> Vec<f64> {
    let mut ways = vec![1.0f64];
    for _ in 0..n {
        let mut next = vec![0.0; ways.len() + 6];
        for (s, &w) in ways.iter().enumerate() {
            for face in 1..=6 {
                next[s + face] += w;
            }
        }
        ways = next;
    }
    let total = 6f64.powi(n as i32);
    ways.iter().map(|w| w / total).collect()
}

/// Pools adjacent cells (in order) until each expects at least [`MIN_EXPECTED`]: a cell is
/// closed once its expectation reaches it, and a short remainder joins the last closed cell.
/// Returns the pooled `(observed, expected)` cells (one cell if the total expects less).
pub(crate) fn pool_cells(observed: &[u64], expected: &[f64]) -> Vec<(u64, f64)> {
    let mut cells: Vec<(u64, f64)> = Vec::new();
    let (mut o, mut e) = (0u64, 0.0f64);
    for (&ob, &ex) in observed.iter().zip(expected) {
        o += ob;
        e += ex;
        if e >= MIN_EXPECTED {
            cells.push((o, e));
            (o, e) = (0, 0.0);
        }
    }
    if o > 0 || e > 0.0 {
        match cells.last_mut() {
            Some(last) => {
                last.0 += o;
                last.1 += e;
            }
            None => cells.push((o, e)),
        }
    }
    cells
}

/// A chi-square test: the statistic, its degrees of freedom and the p-value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChiSquareTest {
    /// Pearson's statistic.
    pub chi2: f64,
    /// Degrees of freedom (0: no test, p-value 1).
    pub df: u32,
    /// `P(chi-square >= chi2)` under fair dice.
    pub p_value: f64,
}

impl ChiSquareTest {
    /// The test of pooled `(observed, expected)` cells whose expectations add up to the
    /// observed total (one degree of freedom fewer than cells).
    fn of_cells(cells: &[(u64, f64)]) -> ChiSquareTest {
        let observed: Vec<u64> = cells.iter().map(|c| c.0).collect();
        let expected: Vec<f64> = cells.iter().map(|c| c.1).collect();
        let chi2 = chi_square(&observed, &expected);
        let df = cells.len().saturating_sub(1) as u32;
        ChiSquareTest {
            chi2,
            df,
            p_value: chi_square_p(chi2, df),
        }
    }
}

/// An observed count against its exact expectation under fair dice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CountTest {
    /// The count observed.
    pub(crate) observed: u64,
    /// Its expectation under fair independent dice.
    pub expected: f64,
    /// Its variance under fair independent dice.
    pub(crate) variance: f64,
    /// `(observed - expected) / sqrt(variance)` (0 without variance).
    pub z: f64,
    /// Two-sided p-value (1 without variance).
    pub p_value: f64,
}

impl CountTest {
    /// The test of `observed` against `expected` with `variance`, its p-value given.
    fn new(observed: u64, expected: f64, variance: f64, p_value: f64) -> CountTest {
        let z = if variance > 0.0 {
            (observed as f64 - expected) / variance.sqrt()
        } else {
            0.0
        };
        CountTest {
            observed,
            expected,
            variance,
            z,
            p_value,
        }
    }

    /// Whether there is anything to test (a positive variance).
    pub(crate) fn has_data(&self) -> bool {
        self.variance > 0.0
    }
}

/// The two-sided p-value of a normal deviate `z`: `P(|Z| >= |z|)` (= a chi-square of 1 degree
/// of freedom at `z²`).
pub(crate) fn normal_two_sided_p(z: f64) -> f64 {
    chi_square_p(z * z, 1)
}

/// `ln C(n, k)`.
fn ln_choose(n: u64, k: u64) -> f64 {
    ln_gamma(n as f64 + 1.0) - ln_gamma(k as f64 + 1.0) - ln_gamma((n - k) as f64 + 1.0)
}

/// The two-sided p-value of `observed` successes of independent binomials `(trials,
/// probability)`: `min(1, 2 min(P(X <= observed), P(X >= observed)))`, exact (the distribution
/// convolved up to `observed`) when `observed` and the expectation are at most
/// [`EXACT_FIVE_LIMIT`], else by the normal approximation with continuity correction.
pub(crate) fn five_of_a_kind_p(observed: u64, binomials: &[(u64, f64)]) -> f64 {
    // Certain successes shift the count; impossible ones add nothing.
    let certain: u64 = binomials.iter().filter(|b| b.1 >= 1.0).map(|b| b.0).sum();
    let random: Vec<(u64, f64)> = binomials
        .iter()
        .copied()
        .filter(|&(n, p)| n > 0 && p > 0.0 && p < 1.0)
        .collect();
    let Some(observed) = observed.checked_sub(certain) else {
        return 0.0;
    };
    let mean: f64 = random.iter().map(|&(n, p)| n as f64 * p).sum();
    let variance: f64 = random.iter().map(|&(n, p)| n as f64 * p * (1.0 - p)).sum();
    if variance <= 0.0 {
        return if observed == 0 { 1.0 } else { 0.0 };
    }
    if observed > EXACT_FIVE_LIMIT || mean > EXACT_FIVE_LIMIT as f64 {
        let gap = ((observed as f64 - mean).abs() - 0.5).max(0.0);
        return normal_two_sided_p(gap / variance.sqrt());
    }
    // P(X = k) for k = 0..=observed, one binomial at a time.
    let top = observed as usize;
    let mut pmf = vec![0.0f64; top + 1];
    pmf[0] = 1.0;
    for &(n, p) in &random {
        let (ln_p, ln_q) = (p.ln(), (-p).ln_1p());
        let most = (n as usize).min(top);
        let term: Vec<f64> = (0..=most as u64)
            .map(|k| (ln_choose(n, k) + k as f64 * ln_p + (n - k) as f64 * ln_q).exp())
            .collect();
        let mut next = vec![0.0f64; top + 1];
        for (i, &a) in pmf.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (k, &b) in term.iter().enumerate().take(top + 1 - i) {
                next[i + k] += a * b;
            }
        }
        pmf = next;
    }
    let at_most: f64 = pmf.iter().sum();
    let at_least = 1.0 - (at_most - pmf[top]);
    (2.0 * at_most.min(at_least)).clamp(0.0, 1.0)
}

/// How p-values are corrected for the number of groups.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Adjust {
    /// Holm's step-down correction (family-wise error rate).
    #[default]
    Holm,
    /// Benjamini and Hochberg's correction (false discovery rate).
    BenjaminiHochberg,
}

impl Adjust {
    /// The name of the correction (`holm`, `bh`).
    pub fn name(self) -> &'static str {
        match self {
            Adjust::Holm => "holm",
            Adjust::BenjaminiHochberg => "bh",
        }
    }

    /// The adjusted p-values of `p`, in the order given.
    pub(crate) fn apply(self, p: &[f64]) -> Vec<f64> {
        match self {
            Adjust::Holm => holm(p),
            Adjust::BenjaminiHochberg => benjamini_hochberg(p),
        }
    }
}

impl std::str::FromStr for Adjust {
    type Err = String;
    fn from_str(text: &str) -> Result<Adjust, String> {
        match text {
            "holm" => Ok(Adjust::Holm),
            "bh" => Ok(Adjust::BenjaminiHochberg),
            _ => Err(format!("expected holm or bh, got {text:?}")),
        }
    }
}

impl std::fmt::Display for Adjust {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The verdict on a group's dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The adjusted p-value is at or above the level: consistent with fair dice.
    Fair,
    /// The adjusted p-value is below the level: unlikely under fair dice.
    Unfair,
}

impl Verdict {
    /// `fair` or `unfair`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Fair => "fair",
            Verdict::Unfair => "unfair",
        }
    }
}

/// The tests of one group.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupFairness {
    /// The group's name.
    pub group: String,
    /// Its counts.
    pub counts: DiceCounts,
    /// Face counts against 1/6 each.
    pub faces: ChiSquareTest,
    /// Sums of the rolls of n fresh dice against their exact distribution, per n = 1..6.
    pub(crate) sums_by_dice: [ChiSquareTest; MAX_FRESH],
    /// The sum tests together (chi-squares and degrees of freedom added).
    pub sums: ChiSquareTest,
    /// Rolls showing five of a kind against their expectation given the keeps.
    pub five_of_a_kind: CountTest,
    /// Fresh dice repeating a face of the player's previous roll against their expectation.
    pub serial: CountTest,
    /// How many tests have data (the Bonferroni factor).
    pub tests: u32,
    /// The smallest p-value of the tests times `tests` (at most 1; 1 without data).
    pub p_value: f64,
    /// `p_value` corrected for the number of groups.
    pub p_adjusted: f64,
    /// `unfair` when `p_adjusted` is below the level.
    pub verdict: Verdict,
}

/// The face test of `counts`.
pub(crate) fn face_test(counts: &DiceCounts) -> ChiSquareTest {
    let n = counts.fresh_dice();
    if n == 0 {
        return ChiSquareTest {
            chi2: 0.0,
            df: 0,
            p_value: 1.0,
        };
    }
    let expected = [n as f64 / 6.0; FACES];
    let chi2 = chi_square(&counts.faces, &expected);
    ChiSquareTest {
        chi2,
        df: 5,
        p_value: chi_square_p(chi2, 5),
    }
}

/// The expected counts of the sums of `rolls` rolls of `n` fresh dice (index: the sum).
pub(crate) fn expected_sums(n: usize, rolls: u64) -> Vec<f64> {
    sum_distribution(n)
        .into_iter()
        .map(|p| p * rolls as f64)
        .collect()
}

/// The sum test of the rolls of `n` fresh dice (pooled cells, see [`pool_cells`]).
pub(crate) fn sum_test(counts: &DiceCounts, n: usize) -> ChiSquareTest {
    let observed = &counts.sums[n - 1][..=6 * n];
    let rolls: u64 = observed.iter().sum();
    let expected = expected_sums(n, rolls);
    ChiSquareTest::of_cells(&pool_cells(&observed[n..], &expected[n..]))
}

/// The five-of-a-kind test of `counts` (all the dice of a roll alike).
pub(crate) fn five_of_a_kind_test(counts: &DiceCounts) -> CountTest {
    let binomials: Vec<(u64, f64)> = (1..=MAX_FRESH)
        .flat_map(|dice| (0..dice).map(move |kept| (dice, kept)))
        .map(|(dice, kept)| {
            let p = if kept == 0 {
                all_alike_probability(&Dice::default(), dice)
            } else {
                (1.0f64 / 6.0).powi((dice - kept) as i32)
            };
            (counts.five_chances[dice - 1][kept], p)
        })
        .collect();
    let expected = binomials.iter().map(|&(n, p)| n as f64 * p).sum();
    let variance = binomials
        .iter()
        .map(|&(n, p)| n as f64 * p * (1.0 - p))
        .sum();
    let p_value = five_of_a_kind_p(counts.five_observed, &binomials);
    CountTest::new(counts.five_observed, expected, variance, p_value)
}

/// The serial test of `counts`.
pub(crate) fn serial_test(counts: &DiceCounts) -> CountTest {
    let expected = counts.serial_expected_x6 as f64 / 6.0;
    let variance = counts.serial_variance_x36 as f64 / 36.0;
    let mut test = CountTest::new(counts.serial_matches, expected, variance, 1.0);
    if test.has_data() {
        test.p_value = normal_two_sided_p(test.z);
    }
    test
}

/// Tests every group of `counts` (in name order) and corrects their p-values for the number of
/// groups with `adjust`; a group is `unfair` when its adjusted p-value is below `level`.
pub fn assess(counts: &FairnessCounts, adjust: Adjust, level: f64) -> Vec<GroupFairness> {
    let mut groups: Vec<GroupFairness> = counts
        .groups
        .iter()
        .map(|(name, c)| assess_group(name, c))
        .collect();
    let p: Vec<f64> = groups.iter().map(|g| g.p_value).collect();
    for (group, adjusted) in groups.iter_mut().zip(adjust.apply(&p)) {
        group.p_adjusted = adjusted.max(group.p_value);
        group.verdict = if group.p_adjusted < level {
            Verdict::Unfair
        } else {
            Verdict::Fair
        };
    }
    groups
}

/// The tests of one group, before the correction for the number of groups.
pub(crate) fn assess_group(name: &str, counts: &DiceCounts) -> GroupFairness {
    let faces = face_test(counts);
    let sums_by_dice: [ChiSquareTest; MAX_FRESH] = std::array::from_fn(|i| sum_test(counts, i + 1));
    let chi2 = sums_by_dice.iter().map(|t| t.chi2).sum();
    let df = sums_by_dice.iter().map(|t| t.df).sum();
    let sums = ChiSquareTest {
        chi2,
        df,
        p_value: chi_square_p(chi2, df),
    };
    let five_of_a_kind = five_of_a_kind_test(counts);
    let serial = serial_test(counts);
    let p_values: Vec<f64> = [
        (faces.df > 0).then_some(faces.p_value),
        (sums.df > 0).then_some(sums.p_value),
        five_of_a_kind.has_data().then_some(five_of_a_kind.p_value),
        serial.has_data().then_some(serial.p_value),
    ]
    .into_iter()
    .flatten()
    .collect();
    let tests = p_values.len() as u32;
    let smallest = p_values.iter().copied().fold(1.0f64, f64::min);
    let p_value = (smallest * f64::from(tests)).min(1.0);
    GroupFairness {
        group: name.to_string(),
        counts: counts.clone(),
        faces,
        sums_by_dice,
        sums,
        five_of_a_kind,
        serial,
        tests,
        p_value,
        p_adjusted: p_value,
        verdict: Verdict::Fair,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{replay, ReplayOptions};
    use crate::rules::RuleSet;

    /// Published critical values: chi-square tables at 5% and 1%, and exact small cases.
    #[test]
    fn chi_square_p_values_match_the_tables() {
        for (x, df, p) in [
            (3.841_458_820_694_124, 1, 0.05),
            (6.634_896_601_021_213, 1, 0.01),
            (11.070_497_693_516_35, 5, 0.05),
            (15.086_272_469_388_99, 5, 0.01),
            (18.307_038_053_275_15, 10, 0.05),
            (124.342_113_404_070_7, 100, 0.05),
        ] {
            let got = chi_square_p(x, df);
            assert!((got - p).abs() < 1e-9, "x {x}, df {df}: {got}");
        }
        // df = 2: Q = exp(-x / 2) exactly.
        for x in [0.1, 1.0, 7.5, 40.0] {
            assert!((chi_square_p(x, 2) - (-x / 2.0f64).exp()).abs() < 1e-13);
        }
        assert_eq!(chi_square_p(0.0, 5), 1.0);
        assert!(chi_square_p(1e4, 5) < 1e-300);
    }

    #[test]
    fn chi_square_of_fair_counts_is_zero() {
        assert_eq!(chi_square(&[10; 6], &[10.0; 6]), 0.0);
        let x = chi_square(&[12, 8, 10, 10, 10, 10], &[10.0; 6]);
        assert!((x - 0.8).abs() < 1e-12);
    }

    /// Adjusted values computed by hand (and as R's p.adjust gives them).
    #[test]
    fn holm_and_benjamini_hochberg_adjust_as_published() {
        let p = [0.01, 0.04, 0.03, 0.005];
        let h = holm(&p);
        for (got, want) in h.iter().zip([0.03, 0.06, 0.06, 0.02]) {
            assert!((got - want).abs() < 1e-12, "{h:?}");
        }
        let bh = benjamini_hochberg(&p);
        for (got, want) in bh.iter().zip([0.02, 0.04, 0.04, 0.02]) {
            assert!((got - want).abs() < 1e-12, "{bh:?}");
        }
        assert!(holm(&[]).is_empty());
        assert_eq!(benjamini_hochberg(&[0.7]), vec![0.7]);
    }

    #[test]
    fn five_of_a_kind_probabilities_are_exact() {
        let dice = |faces: &[u8]| Dice::from_faces(faces).unwrap();
        let p = all_alike_probability;
        assert!((p(&Dice::default(), 5) - 6.0 / 7776.0).abs() < 1e-15);
        assert!((p(&dice(&[6, 6, 6]), 5) - 1.0 / 36.0).abs() < 1e-15);
        assert_eq!(p(&dice(&[2, 2, 2, 2, 2]), 5), 1.0);
        assert_eq!(p(&dice(&[1, 2]), 5), 0.0);
        // Six dice: six alike.
        assert!((p(&Dice::default(), 6) - 6.0 / 46_656.0).abs() < 1e-15);
        assert!((p(&dice(&[6, 6, 6]), 6) - 1.0 / 216.0).abs() < 1e-15);
    }

    /// The replay of a one-player game written in YGN (`moves`: its move lines).
    fn replay_of(moves: &str) -> (dicelens_parsers::GameRecord, Replayed) {
        use dicelens_parsers::GameReader;
        let text = format!(
            "[Game \"g\"]\n[Rules \"yahtzee\"]\n[Players \"a\"]\n\
             [Termination \"abandoned\"]\n\n{moves}"
        );
        let mut reader = dicelens_parsers::ygn::Reader::new(text.as_bytes(), "t.ygn");
        let mut game = dicelens_parsers::GameRecord::default();
        assert!(matches!(reader.read_game(&mut game), Some(Ok(()))));
        let mut replayed = Replayed::default();
        let options = ReplayOptions {
            include_unfinished: true,
        };
        replay(&game, options, &mut replayed).unwrap();
        assert_eq!(replayed.rules, Some(RuleSet::Yahtzee.into()));
        (game, replayed)
    }

    /// A turn of three rolls: the fresh dice are the roll minus the keep before it.
    #[test]
    fn fresh_dice_are_the_roll_minus_the_keep() {
        let (_, replayed) = replay_of("1. a: 12345 k12 11256 k112 11126 1=3\n");
        let rolls = fresh_rolls(&replayed);
        assert_eq!(rolls.len(), 3);
        assert_eq!(rolls[0].counts, [1, 1, 1, 1, 1, 0]);
        assert_eq!(rolls[1].counts, [1, 0, 0, 0, 1, 1], "11256 minus 12");
        assert_eq!(rolls[2].counts, [1, 0, 0, 0, 0, 1], "11126 minus 112");
        assert_eq!(rolls[2].dice(), 2);
        assert!(rolls.iter().all(|r| !r.all_alike()));
    }
    /// Two turns whose keeps are known: every count is the one worked out by hand.
    #[test]
    fn counts_of_a_hand_written_game_are_exact() {
        let moves = "1. a: 12345 k12 11256 k112 11126 1=3\n\
                     2. a: 66123 k66 66645 k666 66666 6=30\n";
        let (game, replayed) = replay_of(moves);
        let mut counts = FairnessCounts::default();
        counts.add_game(GroupBy::All, &game, &replayed);
        let c = &counts.groups["all"];
        assert_eq!(c.games, 1);
        assert_eq!(c.rolls, 6);
        assert_eq!(c.faces, [4, 2, 2, 2, 3, 7]);
        assert_eq!(c.fresh_dice(), 20);
        let mut sums = [[0u64; MAX_SUM + 1]; MAX_FRESH];
        for (n, sum) in [(5, 15), (5, 18), (3, 12), (3, 15), (2, 7), (2, 12)] {
            sums[n - 1][sum] += 1;
        }
        assert_eq!(c.sums, sums);
        // Nothing kept twice, 66 and 666 once; 12 and 112 show two faces (no chance).
        assert_eq!(c.five_chances[4], [2, 0, 1, 1, 0, 0]);
        assert!(c
            .five_chances
            .iter()
            .enumerate()
            .all(|(d, row)| d == 4 || row == &[0; 6]));
        assert_eq!(c.five_observed, 1);
        // Previous fresh faces {1..5}, {1,5,6}, {1,6}, {1,2,3,6}, {4,5,6}.
        assert_eq!(c.serial_dice, 3 + 2 + 5 + 3 + 2);
        assert_eq!(c.serial_matches, 2 + 2 + 3 + 1 + 2);
        assert_eq!(c.serial_expected_x6, 3 * 5 + 2 * 3 + 5 * 2 + 3 * 4 + 2 * 3);
        assert_eq!(
            c.serial_variance_x36,
            3 * 5 + 2 * 3 * 3 + 5 * 2 * 4 + 3 * 4 * 2 + 2 * 3 * 3
        );
        let five = five_of_a_kind_test(c);
        let want = 2.0 * 6.0 / 7776.0 + 1.0 / 216.0 + 1.0 / 36.0;
        assert!((five.expected - want).abs() < 1e-15);
        // By player and by file: the same counts under the player's and the file's name.
        for (by, name) in [(GroupBy::Player, "a"), (GroupBy::File, "t.ygn")] {
            let mut other = FairnessCounts::default();
            other.add_game(by, &game, &replayed);
            assert_eq!(other.groups.keys().collect::<Vec<_>>(), [name]);
            assert_eq!(&other.groups[name], c);
        }
        let mut site = FairnessCounts::default();
        site.add_game(GroupBy::SiteTag, &game, &replayed);
        site.add_game(GroupBy::Month, &game, &replayed);
        assert_eq!(
            site.groups.keys().collect::<Vec<_>>(),
            ["(no date)", "(no site)"]
        );
    }

    /// Counting two games apart and merging gives the counts of both counted together.
    #[test]
    fn counts_merge_as_if_counted_together() {
        let (g1, r1) = replay_of("1. a: 12345 k12 11256 k112 11126 1=3\n");
        let (g2, r2) = replay_of("1. a: 66123 k66 66645 k666 66666 6=30\n");
        let mut together = FairnessCounts::default();
        together.add_game(GroupBy::All, &g1, &r1);
        together.add_game(GroupBy::All, &g2, &r2);
        let (mut a, mut b) = (FairnessCounts::default(), FairnessCounts::default());
        a.add_game(GroupBy::All, &g1, &r1);
        b.add_game(GroupBy::All, &g2, &r2);
        a.merge(&b);
        assert_eq!(a, together);
        assert_eq!(together.groups["all"].games, 2);
    }

    /// Six-dice rolls: six fresh dice, and three beside three kept, counted in full.
    #[test]
    fn six_dice_rolls_are_counted() {
        let dice = |faces: &[u8]| Dice::from_faces_up_to(faces, MAX_DICE).expect("dice");
        let roll = |kept: &[u8], fresh: &[u8]| FreshRoll {
            seat: 0,
            roll_number: if kept.is_empty() { 1 } else { 2 },
            kept: dice(kept),
            counts: dice(fresh).counts(),
        };
        let first = roll(&[], &[1, 1, 1, 1, 1, 1]);
        let second = roll(&[6, 6, 6], &[6, 5, 4]);
        assert_eq!((first.table_dice(), second.table_dice()), (6, 6));
        assert!(first.all_alike());
        assert!(!second.all_alike());
        let mut c = DiceCounts::default();
        c.add_roll(&first, None);
        c.add_roll(&second, Some(face_mask(&first.counts)));
        assert_eq!(c.rolls, 2);
        assert_eq!(c.faces, [6, 0, 0, 1, 1, 1]);
        assert_eq!(c.sums[5][6], 1);
        assert_eq!(c.sums[2][15], 1);
        assert_eq!(c.five_chances[5][..4], [1, 0, 0, 1]);
        assert_eq!(c.five_observed, 1);
        let all_alike = five_of_a_kind_test(&c);
        let want = 6.0 / 46_656.0 + 1.0 / 216.0;
        assert!((all_alike.expected - want).abs() < 1e-15);
        // The sums of six fresh dice are tested against the sum of six fair dice.
        let sums = sum_test(&c, 6);
        assert!((0.0..=1.0).contains(&sums.p_value), "{sums:?}");
        let expected: f64 = expected_sums(6, 1).iter().sum();
        assert!((expected - 1.0).abs() < 1e-12);
        // Second roll: none of its fresh faces (4, 5, 6) were among the 1s before.
        assert_eq!((c.serial_dice, c.serial_matches), (3, 0));
    }

    #[test]
    fn sum_distributions_are_exact() {
        for n in 1..=6 {
            let d = sum_distribution(n);
            assert_eq!(d.len(), 6 * n + 1);
            assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-14);
            assert!(d[..n].iter().all(|&p| p == 0.0));
        }
        assert_eq!(sum_distribution(2)[7], 6.0 / 36.0);
        assert_eq!(sum_distribution(5)[5], 1.0 / 7776.0);
        assert_eq!(sum_distribution(5)[17], 780.0 / 7776.0);
    }

    #[test]
    fn small_cells_are_pooled_until_they_expect_five() {
        let cells = pool_cells(&[1, 2, 9, 8, 1, 0], &[1.0, 3.0, 8.0, 6.0, 2.0, 1.0]);
        assert_eq!(cells, vec![(12, 12.0), (9, 9.0)]);
        assert_eq!(pool_cells(&[1, 1], &[1.0, 2.0]), vec![(2, 3.0)]);
        assert!(pool_cells(&[], &[]).is_empty());
    }

    /// Small cases worked out by hand, and the normal approximation for large counts.
    #[test]
    fn five_of_a_kind_p_values_are_exact_for_small_counts() {
        // X ~ Bin(3, 1/2): P(X >= 3) = 1/8, two-sided 1/4; likewise P(X <= 0).
        assert!((five_of_a_kind_p(3, &[(3, 0.5)]) - 0.25).abs() < 1e-12);
        assert!((five_of_a_kind_p(0, &[(3, 0.5)]) - 0.25).abs() < 1e-12);
        assert!((five_of_a_kind_p(1, &[(3, 0.5)]) - 1.0).abs() < 1e-12);
        // Certain successes shift the count; two binomials add: Bin(1, 1/2) + Bin(1, 1/2).
        assert!((five_of_a_kind_p(4, &[(2, 1.0), (1, 0.5), (1, 0.5)]) - 0.5).abs() < 1e-12);
        assert_eq!(five_of_a_kind_p(1, &[(2, 1.0)]), 0.0);
        // Poisson-like: Bin(100000, 1e-4), mean 10; P(X >= 20) two-sided about 0.0069.
        let p = five_of_a_kind_p(20, &[(100_000, 1e-4)]);
        assert!((p - 2.0 * 0.003_454_6).abs() < 2e-4, "{p}");
        // Beyond the exact limit the normal approximation: a count at the mean has p = 1.
        let p = five_of_a_kind_p(10_000, &[(60_000, 1.0 / 6.0)]);
        assert!(p > 0.99, "{p}");
        let p = five_of_a_kind_p(10_400, &[(60_000, 1.0 / 6.0)]);
        assert!(p > 1e-6 && p < 1e-4, "{p}");
    }

    /// Fair counts pass, counts far from fair fail; the combined p-value is Bonferroni's.
    #[test]
    fn assess_combines_the_tests_and_corrects_for_groups() {
        let fair = DiceCounts {
            games: 1,
            rolls: 1,
            faces: [1000; 6],
            ..DiceCounts::default()
        };
        let loaded = DiceCounts {
            faces: [900, 900, 900, 900, 900, 1500],
            ..fair.clone()
        };
        let counts = FairnessCounts {
            groups: [("a".to_string(), fair), ("b".to_string(), loaded)]
                .into_iter()
                .collect(),
        };
        let groups = assess(&counts, Adjust::Holm, DEFAULT_LEVEL);
        assert_eq!(groups[0].group, "a");
        assert_eq!(groups[0].tests, 1);
        assert_eq!(groups[0].verdict, Verdict::Fair);
        assert_eq!(groups[0].p_value, 1.0);
        assert_eq!(groups[1].verdict, Verdict::Unfair);
        assert!(groups[1].p_adjusted >= groups[1].p_value);
        assert!((groups[1].p_adjusted - (2.0 * groups[1].p_value).min(1.0)).abs() < 1e-300);
        assert_eq!("site-tag".parse::<GroupBy>(), Ok(GroupBy::SiteTag));
        assert!("planet".parse::<GroupBy>().is_err());
        assert_eq!("bh".parse::<Adjust>(), Ok(Adjust::BenjaminiHochberg));
    }
}
