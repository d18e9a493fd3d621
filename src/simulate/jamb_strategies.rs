//! The published Jamb strategies (Rnd, P1, P2, PB, MS) as simulated players.
//!
//! The strategies come from a strategy comparison on the five-column slip (`jamb-5`); all but
//! Rnd rest on a dice histogram. Every box has a *target*: a histogram the dice should reach.
//! The dice to change are the positive entries of (target − current histogram); with `n` of
//! them, reaching the target in one roll is estimated at 6⁻ⁿ, a deliberately crude estimate.
//!
//! * **Rnd** draws uniformly among every legal choice.
//! * **P1** picks, after the first roll, the target of highest probability and chases it for
//!   the rest of the turn.
//! * **P2** is P1 choosing the target again after every roll.
//! * **PB** chooses, after every roll, the target of highest expectation (probability × points).
//! * **MS** is PB with every expectation multiplied by the box's weight (importance).
//!
//! The published description leaves many details open. The choices made here, each the
//! plainest reading that gives the published ordering MS > PB > P1 ≈ P2 > Rnd (see
//! `docs/jamb.md`, "Simulated players: the published strategies", for the figures), are:
//!
//! 1. **Targets** ([`target`]). Ones..Sixes: three dice of the face (the count that keeps the
//!    upper bonus on pace, 3 × 21 = 63 ≥ 60); more than three count too. Max: every die a 5 or
//!    a 6 (the target replaces the others by sixes). Min: every die a 1 or a 2 (the others
//!    replaced by ones). Straight: 1-2-3-4-5 or 2-3-4-5-6, whichever needs fewer changes (the
//!    low one on a tie). Three and four of a kind and Jamb: three, four or five of the most
//!    frequent face (the higher face on a tie). Full house: three of one face and two of
//!    another, the pair of faces needing fewest changes, then scoring most.
//! 2. **Kept dice**: the dice of the roll that belong to the target (`min(target, current)`
//!    face by face); the others are rolled again.
//! 3. **Probability** ([`probability`]): 1 for a target already reached; otherwise
//!    min(1, r × 6⁻ⁿ) with `r` the rolls left in the turn (the published "3 × 6⁻ⁿ over three
//!    rolls" counted from the start of the turn). The factor is the same for every target not
//!    yet reached, so it matters only when PB or MS weigh a chase against a target in hand.
//! 4. **Reached**: a target counts as reached when no die needs changing (`n = 0`); the box
//!    is then written at once (P1 its chased box; P2, PB and MS whenever the best target is a
//!    reached one).
//! 5. **Points of a target** (PB, MS): the box's points for the target histogram: the face
//!    times the dice of the face (at least three) for Ones..Sixes; the target's sum for Max
//!    and for Min (literally the Min box's points, so PB values a low Min little and seldom
//!    chases it; MS's weights, Max and Min second only to Ones, make up for it); 3f + 20,
//!    4f + 40, 5f + 50 for three, four and five of a kind; the sum + 30 for the full house.
//! 6. **Straight's points** (PB, MS): a straight in hand is worth what it scores now (66, 56
//!    or 46); a straight still to make is worth what it scores if the next roll makes it (56
//!    after the first roll, 46 after the second).
//! 7. **MS weights** multiply the expectation: 2^(12 − rank), rank 1 the most important, in the
//!    published order Ones (2048); Max and Min (1024); Jamb (512); four of a kind (256);
//!    straight (128); full house (64); Sixes (32); Fives (16); three of a kind (8); Fours (4);
//!    Threes (2); Twos (1). Each rank counts double the next.
//! 8. **Free column last**: P1, P2, PB and MS choose targets only outside the Free column while
//!    another column has a box that can still take the turn's dice; then the Free column is
//!    played like any other.
//! 9. **A missed target** (the turn's last roll, no target reached) is a bad outcome: it goes
//!    into the Free column as a reserve, into the Free box where it loses least against that
//!    box's reference worth (`REFERENCE`). When the Free column cannot take it (full, or being
//!    played as the last column), the dice are written in the chased box, whatever they score
//!    there. P2, PB and MS count as "chased" the target they chose after the previous roll.
//! 10. **Ties**: every comparison is a strict "greater than" (or "less than" for losses), so
//!     the first candidate in slip order wins: columns left to right, boxes top to bottom; the
//!     published comparison found the strict rule better.
//! 11. **P1's chase** is the cell chosen after the first roll; its target histogram is
//!     recomputed from the dice of each roll (so a three of a kind follows a face that overtakes
//!     the first one).
//! 12. **Rnd** draws uniformly among every choice the game loop accepts: each legal cell, and,
//!     while the turn may roll again, each distinct sub-multiset of the roll to keep (from
//!     none to all five dice). Rolls with repeated faces have fewer distinct keeps, so they are
//!     written a little more often than others.
//!
//! The published *ordering* comes out with wide margins; the published *magnitudes* do not:
//! over 10,000 games Rnd scores 11% below its published mean and the histogram strategies
//! 53-80% above theirs, and no cruder reading tried came within 10% (figures in
//! `docs/jamb.md`).
//!
//! The players never allocate while choosing and draw from the game's generator only (Rnd), so
//! a game is a function of its seed.

use crate::dice::{Dice, DICE, FACES};
use crate::rules::jamb::{
    Cell, ColumnKind, JambBox, JambRules, JambSheet, JambTurn, BOXES, MAX_ROLLS,
};
use crate::rules::play::JambPlayer;
use crate::rules::Choice;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// Dice of its face an upper box's target asks for.
pub(crate) const UPPER_TARGET: u8 = 3;
/// Lowest face the Max box's target keeps.
pub(crate) const MAX_LOW_FACE: u8 = 5;
/// Highest face the Min box's target keeps.
pub(crate) const MIN_HIGH_FACE: u8 = 2;

/// MS's box weights, in [`JambBox::ALL`] order: 2^(12 − rank) with the published ranks (Ones 1;
/// Max and Min 2; Jamb 3; four of a kind 4; straight 5; full house 6; Sixes 7; Fives 8; three
/// of a kind 9; Fours 10; Threes 11; Twos 12).
pub(crate) const MS_WEIGHTS: [f64; BOXES] = [
    2048.0, // Ones
    1.0,    // Twos
    2.0,    // Threes
    4.0,    // Fours
    16.0,   // Fives
    32.0,   // Sixes
    1024.0, // Max
    1024.0, // Min
    128.0,  // Straight
    8.0,    // Three of a kind
    64.0,   // Full house
    256.0,  // Four of a kind
    512.0,  // Jamb
];

/// Reference worth of each box, in [`JambBox::ALL`] order, against which a missed target's
/// loss is measured: the expected worth of a whole turn spent chasing that box alone from a
/// fresh roll (three rolls, writing as soon as the target is reached), rounded to 0.01; worth
/// is the box's points, except for Min, where it is 35 − points (a low Min is good). A unit
/// test recomputes it exactly.
pub(crate) const REFERENCE: [f64; BOXES] = [
    2.04,  // Ones
    4.09,  // Twos
    6.13,  // Threes
    8.18,  // Fours
    10.22, // Fives
    12.27, // Sixes
    23.06, // Max
    23.06, // Min (35 - points)
    13.05, // Straight
    23.59, // Three of a kind
    17.68, // Full house
    16.06, // Four of a kind
    3.16,  // Jamb
];

/// One of the published strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Random legal moves.
    Rnd,
    /// The most probable target, chosen after the first roll and chased all turn.
    P1,
    /// The most probable target, chosen again after every roll.
    P2,
    /// The target of highest expectation (probability × points), chosen after every roll.
    Pb,
    /// PB with every expectation weighted by the box's importance.
    Ms,
}

impl Strategy {
    /// Every strategy, in the published order of presentation.
    pub const ALL: [Strategy; 5] = [
        Strategy::Rnd,
        Strategy::P1,
        Strategy::P2,
        Strategy::Pb,
        Strategy::Ms,
    ];

    /// The strategy's name: `rnd`, `p1`, `p2`, `pb`, `ms`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Rnd => "rnd",
            Strategy::P1 => "p1",
            Strategy::P2 => "p2",
            Strategy::Pb => "pb",
            Strategy::Ms => "ms",
        }
    }

    /// The strategy with the given name, case-insensitive.
    pub fn parse(name: &str) -> Option<Strategy> {
        Strategy::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
    }

    /// A one-line description.
    pub fn describe(self) -> &'static str {
        match self {
            Strategy::Rnd => "random: uniform over every legal keep and write",
            Strategy::P1 => "most probable target after the first roll, chased all turn",
            Strategy::P2 => "most probable target, chosen again after every roll",
            Strategy::Pb => "highest expectation (probability x points) after every roll",
            Strategy::Ms => "PB with box weights (Ones, Max/Min, Jamb, ... Twos)",
        }
    }

    /// A new player of this strategy.
    pub fn player(self) -> Box<dyn JambPlayer + Send> {
        match self {
            Strategy::Rnd => Box::new(RndPlayer),
            Strategy::P1 => Box::new(P1Player::default()),
            Strategy::P2 => Box::new(P2Player::default()),
            Strategy::Pb => Box::new(PbPlayer::default()),
            Strategy::Ms => Box::new(MsPlayer::default()),
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a box asks of the dice: its target histogram met by the roll, the dice to change,
/// and the target's points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// The dice of the roll that belong to the target (kept when chasing it), as counts per
    /// face.
    pub keep: [u8; FACES],
    /// Dice to change: the sum of the positive entries of (target − current).
    pub change: u8,
    /// The box's points for the target histogram (the straight's for the roll it would be
    /// made on).
    pub points: f64,
}

impl Target {
    /// True when no die needs changing.
    pub fn reached(&self) -> bool {
        self.change == 0
    }
}

/// The most frequent face (0-based index), the higher face on a tie.
fn most_frequent(counts: &[u8; FACES]) -> usize {
    let mut best = FACES - 1;
    for f in (0..FACES).rev() {
        if counts[f] > counts[best] {
            best = f;
        }
    }
    best
}

/// The target of box `jbox` for the dice `counts` shown by roll `roll` (see the module
/// documentation, choices 1, 5 and 6); its points are what `rules` score for the target's
/// dice (the dice aimed at only: the others are left out, so they add nothing).
pub fn target(rules: &JambRules, jbox: JambBox, counts: &[u8; FACES], roll: u8) -> Target {
    let mut keep = [0u8; FACES];
    // The dice the target aims at, as face counts.
    let mut aim = [0u8; FACES];
    // The roll whose dice are scored: this one, or for a straight still to make, the next.
    let mut scored_on = roll;
    let change = match jbox {
        JambBox::Ones
        | JambBox::Twos
        | JambBox::Threes
        | JambBox::Fours
        | JambBox::Fives
        | JambBox::Sixes => {
            let f = jbox.index();
            keep[f] = counts[f].min(UPPER_TARGET);
            aim[f] = counts[f].max(UPPER_TARGET);
            UPPER_TARGET.saturating_sub(counts[f])
        }
        JambBox::Max | JambBox::Min => {
            let (faces, filler) = if jbox == JambBox::Max {
                (usize::from(MAX_LOW_FACE - 1)..FACES, FACES - 1)
            } else {
                (0..usize::from(MIN_HIGH_FACE), 0)
            };
            let mut kept = 0u8;
            for f in faces {
                keep[f] = counts[f];
                kept += counts[f];
            }
            // The dice that count: five (of six, the best five).
            let change = (DICE as u8).saturating_sub(kept);
            aim = keep;
            aim[filler] += change;
            change
        }
        JambBox::Straight => {
            let missing = |low: usize| (low..low + 5).filter(|&f| counts[f] == 0).count() as u8;
            // On a tie the run that scores more (six-dice Jamb: 2-6), else the low one.
            let run_points = |low: usize| {
                let mut run = [0u8; FACES];
                run[low..low + 5].fill(1);
                rules.points_of_counts(jbox, &run, roll)
            };
            let higher_pays = run_points(1) > run_points(0);
            let low =
                usize::from(missing(1) < missing(0) || (missing(1) == missing(0) && higher_pays));
            for f in low..low + 5 {
                keep[f] = counts[f].min(1);
                aim[f] = 1;
            }
            let change = missing(low);
            let made_on = if change == 0 { roll } else { roll + 1 };
            scored_on = made_on.clamp(1, MAX_ROLLS);
            change
        }
        JambBox::ThreeKind | JambBox::FourKind | JambBox::Jamb => {
            let want = match jbox {
                JambBox::ThreeKind => 3u8,
                JambBox::FourKind => 4,
                _ => 5,
            };
            let f = most_frequent(counts);
            keep[f] = counts[f].min(want);
            aim[f] = want;
            want.saturating_sub(counts[f])
        }
        JambBox::FullHouse => {
            // (change, points, three's face, pair's face)
            let mut best = (u8::MAX, 0i32, 0usize, 0usize);
            for three in (0..FACES).rev() {
                for two in (0..FACES).rev() {
                    if three == two {
                        continue;
                    }
                    let change =
                        3u8.saturating_sub(counts[three]) + 2u8.saturating_sub(counts[two]);
                    let mut full = [0u8; FACES];
                    full[three] = 3;
                    full[two] = 2;
                    let points = rules.points_of_counts(jbox, &full, roll);
                    if change < best.0 || (change == best.0 && points > best.1) {
                        best = (change, points, three, two);
                    }
                }
            }
            let (change, _, three, two) = best;
            keep[three] = counts[three].min(3);
            keep[two] = counts[two].min(2);
            aim[three] = 3;
            aim[two] = 2;
            change
        }
    };
    Target {
        keep,
        change,
        points: f64::from(rules.points_of_counts(jbox, &aim, scored_on)),
    }
}

/// The estimated probability of reaching a target with `change` dice to change when
/// `rolls_left` rolls remain in the turn: 1 when reached, else min(1, rolls_left × 6^-change)
/// (0 with no roll left).
pub fn probability(change: u8, rolls_left: u8) -> f64 {
    if change == 0 {
        return 1.0;
    }
    let one_roll = (1.0f64 / 6.0).powi(i32::from(change));
    (f64::from(rolls_left) * one_roll).min(1.0)
}

/// The worth of dice written in a box: its points, for Min 35 − points (low is good).
fn worth(points: i32, jbox: JambBox) -> f64 {
    if jbox == JambBox::Min {
        f64::from(35 - points)
    } else {
        f64::from(points)
    }
}

/// How a chasing strategy ranks targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Criterion {
    /// Probability alone (P1, P2).
    Probability,
    /// Probability × points (PB).
    Expectation,
    /// Probability × points × weight (MS).
    Weighted,
}

impl Criterion {
    fn value(self, jbox: JambBox, t: &Target, rolls_left: u8) -> f64 {
        let p = probability(t.change, rolls_left);
        match self {
            Criterion::Probability => p,
            Criterion::Expectation => p * t.points,
            Criterion::Weighted => p * t.points * MS_WEIGHTS[jbox.index()],
        }
    }
}

/// The boxes column `column` of `sheet` may take in the turn `turn`, as a mask.
fn allowed(sheet: &JambSheet, column: usize, turn: JambTurn) -> u16 {
    if turn.roll_number > sheet.rolls_this_turn() {
        return 0;
    }
    match (sheet.rules().columns.get(column), sheet.column(column)) {
        (Some(&kind), Some(state)) => sheet.rules().allowed_boxes(kind, state.filled_mask(), turn),
        _ => 0,
    }
}

/// True when `cell` may be filled in the turn `turn`.
fn is_allowed(sheet: &JambSheet, cell: Cell, turn: JambTurn) -> bool {
    allowed(sheet, usize::from(cell.column), turn) & cell.jbox.bit() != 0
}

/// The turn after rolling again with dice kept (no longer a pure hand).
fn next_roll(turn: JambTurn) -> JambTurn {
    JambTurn {
        roll_number: turn.roll_number + 1,
        pure: false,
        ..turn
    }
}

/// The cells of a mask, top to bottom (in the rule set's rows).
fn cells(sheet: &JambSheet, column: usize, mask: u16) -> impl Iterator<Item = Cell> {
    sheet
        .rules()
        .rows
        .iter()
        .copied()
        .filter(move |b| mask & b.bit() != 0)
        .map(move |jbox| Cell {
            column: column as u8,
            jbox,
        })
}

/// One decision's view of the turn: the targets of the roll and where they may go.
struct Turn<'a> {
    sheet: &'a JambSheet,
    dice: &'a Dice,
    roll: u8,
    /// The turn: its roll, announcement and pure hand.
    turn: JambTurn,
    /// Rolls left if the player rolls again (0 when it may not).
    rolls_left: u8,
    targets: [Target; BOXES],
    /// The Free column's index, when it is kept as a reserve (another column can still take
    /// the turn's dice).
    reserve: Option<usize>,
}

impl<'a> Turn<'a> {
    fn new(sheet: &'a JambSheet, dice: &'a Dice, turn: JambTurn) -> Turn<'a> {
        let counts = dice.counts();
        let roll = turn.roll_number;
        let rolls_left = if sheet.may_roll_again_in(turn) && !sheet.next_roll_must_be_pure(turn) {
            sheet.rolls_this_turn() - roll
        } else {
            0
        };
        let columns = sheet.rules().columns;
        let free = columns.iter().position(|&k| k == ColumnKind::Free);
        // The roll whose dice another column must be able to take for Free to wait.
        let later = if rolls_left > 0 {
            next_roll(turn)
        } else {
            turn
        };
        let other_open =
            (0..columns.len()).any(|c| Some(c) != free && allowed(sheet, c, later) != 0);
        Turn {
            sheet,
            dice,
            roll,
            turn,
            rolls_left,
            targets: std::array::from_fn(|i| target(sheet.rules(), JambBox::ALL[i], &counts, roll)),
            reserve: free.filter(|_| other_open),
        }
    }

    fn target(&self, cell: Cell) -> &Target {
        &self.targets[cell.jbox.index()]
    }

    /// The best target cell by `criterion` (strictly greater wins, so the first in slip order
    /// on a tie), among the cells that can use it: reached targets in cells open now, others
    /// in cells open after another roll; the Free column only when it is not the reserve.
    /// `None` when no target has a positive value.
    /// With `announcing`, after the first roll, the Announce column's empty boxes count as
    /// open after another roll (they would be, once announced).
    fn best(&self, criterion: Criterion, announcing: bool) -> Option<Cell> {
        let mut best: Option<(f64, Cell)> = None;
        let announce = self.sheet.rules().announce_column();
        for column in 0..self.sheet.rules().columns.len() {
            if Some(column) == self.reserve {
                continue;
            }
            let now = allowed(self.sheet, column, self.turn);
            let next = match self.rolls_left > 0 {
                true if announcing && Some(column) == announce => self.sheet.announceable(1),
                true => allowed(self.sheet, column, next_roll(self.turn)),
                false => 0,
            };
            for cell in cells(self.sheet, column, now | next) {
                let t = self.target(cell);
                let open = if t.reached() { now } else { next };
                if open & cell.jbox.bit() == 0 {
                    continue;
                }
                let v = criterion.value(cell.jbox, t, self.rolls_left);
                if v > best.map_or(0.0, |(b, _)| b) {
                    best = Some((v, cell));
                }
            }
        }
        best.map(|(_, cell)| cell)
    }

    /// Chases `cell`: writes it when its target is reached, keeps the target's dice otherwise.
    fn chase(&self, cell: Cell) -> Choice {
        let t = self.target(cell);
        if t.reached() {
            Choice::Write(cell)
        } else {
            Choice::Keep(Dice::from_counts(t.keep))
        }
    }

    /// The loss of writing the dice in `cell`: its reference worth minus the dice's worth
    /// there.
    fn loss(&self, cell: Cell) -> f64 {
        let points = self
            .sheet
            .rules()
            .points(cell.jbox, self.dice, self.roll)
            .unwrap_or(0);
        // Six dice: the target of the reference is the same, its worth measured alike.
        REFERENCE[cell.jbox.index()] - worth(points, cell.jbox)
    }

    /// The cell of least loss among `candidates` (strictly less wins).
    fn least_loss(&self, candidates: impl Iterator<Item = Cell>) -> Option<Cell> {
        let mut best: Option<(f64, Cell)> = None;
        for cell in candidates {
            let l = self.loss(cell);
            if best.is_none_or(|(b, _)| l < b) {
                best = Some((l, cell));
            }
        }
        best.map(|(_, cell)| cell)
    }

    /// Where a missed target goes (choice 9): the Free reserve, else the chased cell, else
    /// the legal cell of least loss.
    fn missed(&self, chased: Option<Cell>) -> Choice {
        let reserve = self.reserve.and_then(|free| {
            let open = allowed(self.sheet, free, self.turn);
            self.least_loss(cells(self.sheet, free, open))
        });
        let chased = chased.filter(|&c| is_allowed(self.sheet, c, self.turn));
        let cell = reserve
            .or(chased)
            .or_else(|| self.least_loss(self.sheet.legal_cells_in(self.turn)));
        match cell {
            Some(cell) => Choice::Write(cell),
            // Only a complete slip has no legal cell; no move is legal then.
            None => Choice::Keep(Dice::default()),
        }
    }
}

/// The shared engine of P1, P2, PB and MS.
#[derive(Clone, Copy, Debug)]
struct Chaser {
    criterion: Criterion,
    /// True for P1: the target chosen after the first roll is kept all turn.
    keeps_target: bool,
    /// The target chosen after the previous roll of this turn.
    chased: Option<Cell>,
}

impl Chaser {
    const fn new(criterion: Criterion, keeps_target: bool) -> Chaser {
        Chaser {
            criterion,
            keeps_target,
            chased: None,
        }
    }

    fn choose(&mut self, sheet: &JambSheet, dice: &Dice, at: JambTurn) -> Choice {
        let turn = Turn::new(sheet, dice, at);
        let roll = at.roll_number;
        if roll <= 1 {
            self.chased = None;
        }
        let announced = at.announced.zip(sheet.rules().announce_column());
        if let Some((jbox, column)) = announced {
            // The announced box is the target of the whole turn.
            self.chased = Some(Cell {
                column: column as u8,
                jbox,
            });
        }
        if (self.keeps_target || announced.is_some()) && (roll > 1 || announced.is_some()) {
            if let Some(cell) = self.chased {
                let t = turn.target(cell);
                if t.reached() && is_allowed(sheet, cell, at) {
                    return Choice::Write(cell);
                }
                if turn.rolls_left > 0 && is_allowed(sheet, cell, next_roll(at)) {
                    return Choice::Keep(Dice::from_counts(t.keep));
                }
                return turn.missed(Some(cell));
            }
        }
        match turn.best(self.criterion, false) {
            Some(cell) => {
                self.chased = Some(cell);
                turn.chase(cell)
            }
            None => turn.missed(self.chased),
        }
    }

    /// The box to announce after the first roll: the best target of the roll when it lies in
    /// the Announce column and is not reached yet (a reached one is written at once, a pure
    /// hand); when only Announce boxes are left, the best of them, or the first.
    fn announce(&mut self, sheet: &JambSheet, dice: &Dice) -> Option<JambBox> {
        let column = sheet.rules().announce_column()?;
        let turn = Turn::new(sheet, dice, JambTurn::at_roll(1));
        let best = turn.best(self.criterion, true);
        let in_announce = best.filter(|c| usize::from(c.column) == column);
        if let Some(cell) = in_announce {
            return (!turn.target(cell).reached()).then_some(cell.jbox);
        }
        let only_announce = sheet.legal_cells_in(next_roll(turn.turn)).next().is_none();
        if !only_announce || best.is_some() {
            return None;
        }
        // Nothing else will take a later roll: announce rather than be held to a pure hand.
        let open = sheet.announceable(1);
        sheet
            .rules()
            .rows
            .iter()
            .copied()
            .find(|b| open & b.bit() != 0)
    }
}

/// Rnd: uniform over every legal choice (each legal cell, and while the turn may roll again
/// each distinct keep).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RndPlayer;

impl JambPlayer for RndPlayer {
    fn choose(
        &mut self,
        sheet: &JambSheet,
        dice: &Dice,
        roll_number: u8,
        rng: &mut ChaCha8Rng,
    ) -> Choice {
        self.choose_in(sheet, dice, JambTurn::at_roll(roll_number), rng)
    }

    fn choose_in(
        &mut self,
        sheet: &JambSheet,
        dice: &Dice,
        turn: JambTurn,
        rng: &mut ChaCha8Rng,
    ) -> Choice {
        let counts = dice.counts();
        let writes = sheet.legal_cells_in(turn).count();
        let keeps: usize = match sheet.may_roll_again_in(turn) {
            // Only the empty keep when the next roll must be a pure hand.
            true if sheet.next_roll_must_be_pure(turn) => 1,
            true => counts.iter().map(|&c| usize::from(c) + 1).product(),
            false => 0,
        };
        if writes + keeps == 0 {
            return Choice::Keep(Dice::default());
        }
        let pick = rng.gen_range(0..writes + keeps);
        if pick < writes {
            if let Some(cell) = sheet.legal_cells_in(turn).nth(pick) {
                return Choice::Write(cell);
            }
        }
        // Keep number `k` in mixed radix: digit f counts the dice of face f kept (the empty
        // keep first).
        let mut k = pick - writes.min(pick);
        let mut keep = [0u8; FACES];
        for (kept, &shown) in keep.iter_mut().zip(&counts) {
            let radix = usize::from(shown) + 1;
            *kept = (k % radix) as u8;
            k /= radix;
        }
        Choice::Keep(Dice::from_counts(keep))
    }

    /// Uniform over no announcement and each box that may be announced; when only Announce
    /// boxes are left, over those boxes alone (an unannounced turn could then keep no dice).
    fn announce(
        &mut self,
        sheet: &JambSheet,
        _dice: &Dice,
        rng: &mut ChaCha8Rng,
    ) -> Option<JambBox> {
        let open = sheet.announceable(1);
        let boxes = || {
            JambBox::ALL
                .into_iter()
                .filter(move |b| open & b.bit() != 0)
        };
        if open == 0 {
            return None;
        }
        let forced = sheet.legal_cells_in(JambTurn::at_roll(2)).next().is_none();
        let none = usize::from(!forced);
        let pick = rng.gen_range(0..boxes().count() + none);
        pick.checked_sub(none).and_then(|i| boxes().nth(i))
    }
}

/// P1: after the first roll, the most probable target; chased for the rest of the turn.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P1Player(Chaser);

impl Default for P1Player {
    fn default() -> P1Player {
        P1Player(Chaser::new(Criterion::Probability, true))
    }
}

impl P1Player {
    /// The cell chased this turn, once chosen.
    #[cfg(test)]
    pub(crate) fn chased(&self) -> Option<Cell> {
        self.0.chased
    }
}

/// P2: the most probable target, chosen again after every roll.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P2Player(Chaser);

impl Default for P2Player {
    fn default() -> P2Player {
        P2Player(Chaser::new(Criterion::Probability, false))
    }
}

/// PB: the target of highest expectation (probability × points), chosen after every roll.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PbPlayer(Chaser);

impl Default for PbPlayer {
    fn default() -> PbPlayer {
        PbPlayer(Chaser::new(Criterion::Expectation, false))
    }
}

/// MS: PB with each expectation multiplied by the box's weight ([`MS_WEIGHTS`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MsPlayer(Chaser);

impl Default for MsPlayer {
    fn default() -> MsPlayer {
        MsPlayer(Chaser::new(Criterion::Weighted, false))
    }
}

macro_rules! chasing_player {
    ($player:ty) => {
        impl JambPlayer for $player {
            fn choose(
                &mut self,
                sheet: &JambSheet,
                dice: &Dice,
                roll_number: u8,
                _rng: &mut ChaCha8Rng,
            ) -> Choice {
                self.0.choose(sheet, dice, JambTurn::at_roll(roll_number))
            }

            fn choose_in(
                &mut self,
                sheet: &JambSheet,
                dice: &Dice,
                turn: JambTurn,
                _rng: &mut ChaCha8Rng,
            ) -> Choice {
                self.0.choose(sheet, dice, turn)
            }

            fn announce(
                &mut self,
                sheet: &JambSheet,
                dice: &Dice,
                _rng: &mut ChaCha8Rng,
            ) -> Option<JambBox> {
                self.0.announce(sheet, dice)
            }
        }
    };
}

chasing_player!(P1Player);
chasing_player!(P2Player);
chasing_player!(PbPlayer);
chasing_player!(MsPlayer);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::jamb::JambRules;
    use crate::simulate::jamb::play_game;
    use crate::simulate::DiceLaw;
    use rand::SeedableRng;
    use JambBox::*;

    fn dice(s: &str) -> Dice {
        let faces: Vec<u8> = s.bytes().map(|b| b - b'0').collect();
        Dice::from_faces(&faces).unwrap()
    }

    fn counts(s: &str) -> [u8; FACES] {
        dice(s).counts()
    }

    fn cell(column: u8, jbox: JambBox) -> Cell {
        Cell { column, jbox }
    }

    /// Column indices of jamb-5.
    const DOWN: u8 = 0;
    const FREE: u8 = 1;
    const UP: u8 = 2;

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(1)
    }

    /// (keep as a string, change, points) of a box's target.
    fn t(jbox: JambBox, d: &str, roll: u8) -> (String, u8, f64) {
        let t = target(&JambRules::JAMB_5, jbox, &counts(d), roll);
        (Dice::from_counts(t.keep).to_string(), t.change, t.points)
    }

    #[test]
    fn targets_of_a_broken_roll() {
        let d = "12346";
        assert_eq!(t(Ones, d, 1), ("1".into(), 2, 3.0));
        assert_eq!(t(Sixes, d, 1), ("6".into(), 2, 18.0));
        assert_eq!(t(Max, d, 1), ("6".into(), 4, 30.0), "6 + four sixes");
        assert_eq!(t(Min, d, 1), ("12".into(), 3, 6.0), "1 + 2 + three ones");
        // Both straights miss one die: the low one on a tie; made next roll, so 56.
        assert_eq!(t(Straight, d, 1), ("1234".into(), 1, 56.0));
        assert_eq!(t(Straight, d, 2), ("1234".into(), 1, 46.0));
        // All faces once: the most frequent face is the highest.
        assert_eq!(t(ThreeKind, d, 1), ("6".into(), 2, 38.0));
        assert_eq!(t(FourKind, d, 1), ("6".into(), 3, 64.0));
        assert_eq!(t(Jamb, d, 1), ("6".into(), 4, 80.0));
        // Three sixes and two fours: two sixes and a four to change, the most points.
        assert_eq!(t(FullHouse, d, 1), ("46".into(), 3, 56.0));
    }

    #[test]
    fn targets_of_made_and_near_combinations() {
        assert_eq!(t(FullHouse, "22555", 2), ("22555".into(), 0, 49.0));
        assert_eq!(t(ThreeKind, "22555", 1), ("555".into(), 0, 35.0));
        assert_eq!(t(Fives, "22555", 1), ("555".into(), 0, 15.0));
        assert_eq!(t(Fives, "55555", 1), ("555".into(), 0, 25.0), "five count");
        assert_eq!(t(Twos, "22555", 1), ("22".into(), 1, 6.0));
        assert_eq!(
            t(Straight, "34566", 1),
            ("3456".into(), 1, 56.0),
            "high is nearer"
        );
        assert_eq!(t(Straight, "23456", 3), ("23456".into(), 0, 46.0));
        assert_eq!(t(Straight, "12345", 1), ("12345".into(), 0, 66.0));
        assert_eq!(t(Max, "45566", 1), ("5566".into(), 1, 28.0));
        assert_eq!(t(Max, "55566", 3), ("55566".into(), 0, 27.0));
        assert_eq!(t(Min, "11223", 1), ("1122".into(), 1, 7.0));
        // Two pairs: the higher pair's face for three and four of a kind.
        assert_eq!(t(FourKind, "22446", 1), ("44".into(), 2, 56.0));
        assert_eq!(t(Jamb, "33333", 2), ("33333".into(), 0, 65.0));
    }

    /// A target the dice have reached is worth what the rules score for those dice, in every
    /// box, after every roll, under both rule sets: the strategies score with the rules.
    /// The rule sets of five dice and no Announce column, which these tests play.
    fn five_dice_rule_sets() -> impl Iterator<Item = JambRules> {
        JambRules::ALL
            .into_iter()
            .filter(|r| r.dice == 5 && r.announce_column().is_none())
    }

    /// Every strategy plays whole `jamb-6a` and `yamb-hr` games through the turn loop, which
    /// refuses any illegal move (announcements, pure hands and the five-roll last turn
    /// included); the chasers announce, and the totals are the slips'.
    #[test]
    fn strategies_play_whole_games_with_the_announce_column() {
        for rules in [JambRules::JAMB_6A, JambRules::YAMB_HR] {
            let announce = rules.announce_column().unwrap();
            for s in Strategy::ALL {
                let mut announced = 0;
                for seed in 0..4 {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let mut player = s.player();
                    let game = play_game(rules, &mut [&mut *player], DiceLaw::Fair, &mut rng)
                        .unwrap_or_else(|e| panic!("{rules} {s} seed {seed}: {e}"));
                    assert_eq!(game.turns.len(), rules.turns());
                    assert!(game.finals[0].is_complete());
                    for turn in &game.turns {
                        assert!(turn
                            .rolls
                            .iter()
                            .all(|r| r.len() == usize::from(rules.dice)));
                        if let Some(b) = turn.announced {
                            announced += 1;
                            assert_eq!(turn.cell, cell(announce as u8, b), "{rules} {s}");
                        }
                    }
                    let last = game.turns.last().map_or(0, |t| t.rolls.len());
                    assert!(last <= usize::from(rules.last_turn_rolls));
                }
                assert!(announced > 0, "{rules} {s}: no announcement in four games");
            }
        }
    }

    #[test]
    fn reached_targets_score_as_the_rules() {
        assert_eq!(outcomes(DICE).len(), 252);
        assert_eq!(outcomes(6).len(), 462);
        for rules in JambRules::ALL {
            let all: Vec<[u8; FACES]> = outcomes(usize::from(rules.dice))
                .into_iter()
                .map(|(c, _)| c)
                .collect();
            for counts in &all {
                let dice = Dice::from_counts(*counts);
                for jbox in JambBox::ALL {
                    for roll in 1..=MAX_ROLLS {
                        let t = target(&rules, jbox, counts, roll);
                        if !t.reached() {
                            continue;
                        }
                        let points = rules.points(jbox, &dice, roll).unwrap();
                        assert_eq!(
                            t.points,
                            f64::from(points),
                            "{rules} {jbox:?} {dice} {roll}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn probability_is_six_to_the_minus_n() {
        for n in 1..=5u8 {
            let one = 6f64.powi(-i32::from(n));
            assert!((probability(n, 1) - one).abs() < 1e-15, "n = {n}");
            assert!((probability(n, 2) - 2.0 * one).abs() < 1e-15, "n = {n}");
            assert_eq!(probability(n, 0), 0.0, "no roll left");
        }
        assert_eq!(probability(0, 0), 1.0, "reached");
        assert_eq!(probability(0, 2), 1.0);
        assert!((probability(1, 2) - 1.0 / 3.0).abs() < 1e-15);
        assert!(probability(1, 7) <= 1.0, "capped at 1");
    }

    #[test]
    fn reference_worths_are_the_exact_single_box_chases() {
        let tables: Vec<_> = (0..=DICE).map(outcomes).collect();
        for jbox in JambBox::ALL {
            let exact: f64 = tables[DICE]
                .iter()
                .map(|(c, p)| p * chase_value(jbox, *c, 1, &tables))
                .sum();
            let stored = REFERENCE[jbox.index()];
            assert!(
                (exact - stored).abs() <= 0.005 + 1e-9,
                "{jbox}: {exact:.4} stored {stored}"
            );
        }
    }

    #[test]
    fn ties_go_to_the_first_cell_in_slip_order() {
        let sheet = JambSheet::new(JambRules::JAMB_5);
        let d = dice("11111");
        // Every non-Free target is reached (D:1, U:J, I:MIN, O:1, O:J): probability 1 each.
        // Strictly greater keeps the first, the Down column's Ones; "greater or equal" would
        // take the last, the outer column's Jamb.
        let mut p2 = P2Player::default();
        assert_eq!(
            p2.choose(&sheet, &d, 1, &mut rng()),
            Choice::Write(cell(DOWN, Ones))
        );
        // PB: Up's Jamb and Outer's Jamb both expect 55; Up comes first.
        let mut pb = PbPlayer::default();
        assert_eq!(
            pb.choose(&sheet, &d, 1, &mut rng()),
            Choice::Write(cell(UP, Jamb))
        );
        assert_eq!(most_frequent(&counts("22446")), 3, "fours over twos");
        assert_eq!(most_frequent(&counts("12345")), 4, "the highest face shown");
    }

    #[test]
    fn p1_keeps_its_target_across_the_rolls_of_a_turn() {
        let sheet = JambSheet::new(JambRules::JAMB_5);
        let mut p1 = P1Player::default();
        let mut p2 = P2Player::default();
        // Roll 1: Ones (three ones wanted, two to change) in Down is the first most probable
        // target outside the Free column.
        assert_eq!(
            p1.choose(&sheet, &dice("12346"), 1, &mut rng()),
            Choice::Keep(dice("1"))
        );
        assert_eq!(p1.chased(), Some(cell(DOWN, Ones)));
        assert_eq!(
            p2.choose(&sheet, &dice("12346"), 1, &mut rng()),
            Choice::Keep(dice("1"))
        );
        // Roll 2 shows four sixes: P2 turns to Up's Jamb, P1 keeps chasing the ones.
        assert_eq!(
            p2.choose(&sheet, &dice("16666"), 2, &mut rng()),
            Choice::Keep(dice("6666"))
        );
        assert_eq!(
            p1.choose(&sheet, &dice("16666"), 2, &mut rng()),
            Choice::Keep(dice("1"))
        );
        assert_eq!(p1.chased(), Some(cell(DOWN, Ones)));
        // Roll 3 reaches the target: written.
        assert_eq!(
            p1.clone().choose(&sheet, &dice("11166"), 3, &mut rng()),
            Choice::Write(cell(DOWN, Ones))
        );
        // Roll 3 misses it: a bad outcome, into the Free box where it loses least (four
        // sixes: 64 in four of a kind against a reference of 16.06).
        assert_eq!(
            p1.choose(&sheet, &dice("16666"), 3, &mut rng()),
            Choice::Write(cell(FREE, FourKind))
        );
        // A new turn chooses again.
        assert_eq!(
            p1.choose(&sheet, &dice("66666"), 1, &mut rng()),
            Choice::Write(cell(UP, Jamb))
        );
    }

    /// `sheet` with every non-Free column filled (with the dice `d`, in allowed order).
    fn all_but_free(rules: JambRules, d: &Dice) -> JambSheet {
        let mut sheet = JambSheet::new(rules);
        loop {
            let next = sheet
                .legal_cells(1)
                .find(|c| rules.columns[usize::from(c.column)] != ColumnKind::Free);
            match next {
                Some(c) => sheet = sheet.after_cell(d, 1, c).unwrap(),
                None => return sheet,
            }
        }
    }

    #[test]
    fn free_column_waits_until_the_others_are_full() {
        let rules = JambRules::JAMB_5;
        let fresh = JambSheet::new(rules);
        for s in [Strategy::P1, Strategy::P2, Strategy::Pb, Strategy::Ms] {
            // Five sixes fit Free's Jamb as well, but Free waits.
            let choice = s.player().choose(&fresh, &dice("66666"), 1, &mut rng());
            assert_eq!(choice, Choice::Write(cell(UP, Jamb)), "{s}");
            // With only the Free column left, it is played like any other.
            let last = all_but_free(rules, &dice("12345"));
            let choice = s.player().choose(&last, &dice("66666"), 1, &mut rng());
            match choice {
                Choice::Write(c) => assert_eq!(c.column, FREE, "{s}"),
                other => panic!("{s}: {other}"),
            }
        }
    }

    #[test]
    fn free_column_takes_only_misses_before_the_end() {
        // Over whole games, a Free cell is written only on a turn's last roll (a missed
        // target) or once every other column is full.
        let rules = JambRules::JAMB_5;
        for s in [Strategy::P1, Strategy::P2, Strategy::Pb, Strategy::Ms] {
            for seed in 0..20 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut player = s.player();
                let game = play_game(rules, &mut [&mut *player], DiceLaw::Fair, &mut rng).unwrap();
                let mut sheet = JambSheet::new(rules);
                let mut reserve_writes = 0;
                for turn in &game.turns {
                    let roll = turn.rolls.len() as u8;
                    let d = Dice::from_faces(&turn.rolls[turn.rolls.len() - 1]).unwrap();
                    if turn.cell.column == FREE {
                        let others_full = sheet
                            .columns()
                            .iter()
                            .enumerate()
                            .all(|(c, col)| c == usize::from(FREE) || col.is_complete());
                        assert!(roll == MAX_ROLLS || others_full, "{s} seed {seed}");
                        reserve_writes += usize::from(!others_full);
                    }
                    sheet = sheet.after_cell(&d, roll, turn.cell).unwrap();
                }
                assert!(reserve_writes > 0, "{s} seed {seed}: the reserve is used");
            }
        }
    }

    /// Panics unless `choice` is legal for `dice` of roll `roll` on `sheet`.
    fn assert_legal(s: Strategy, sheet: &JambSheet, d: &Dice, roll: u8, choice: Choice) {
        match choice {
            Choice::Keep(kept) => {
                assert!(sheet.may_roll_again(roll), "{s}: keep after roll {roll}");
                assert!(kept.is_subset_of(d), "{s}: keeps {kept} of {d}");
            }
            Choice::Write(c) => assert!(
                sheet.legal_cells(roll).any(|l| l == c),
                "{s}: writes {c:?} after roll {roll}"
            ),
            Choice::Score(_) => panic!("{s}: a Yahtzee choice"),
        }
    }

    #[test]
    fn players_never_choose_an_illegal_move() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let random_dice = |rng: &mut ChaCha8Rng| {
            let faces: [u8; DICE] = std::array::from_fn(|_| rng.gen_range(1..=6));
            Dice::from_faces(&faces).unwrap()
        };
        for rules in five_dice_rule_sets() {
            // One player of each strategy, reused, so P1 also meets chases left over from
            // another slip.
            let mut players: Vec<(Strategy, Box<dyn JambPlayer + Send>)> =
                Strategy::ALL.into_iter().map(|s| (s, s.player())).collect();
            for _slip in 0..300 {
                // A random slip: random dice written in random legal cells.
                let mut sheet = JambSheet::new(rules);
                let filled = rng.gen_range(0..rules.turns());
                for _ in 0..filled {
                    let d = random_dice(&mut rng);
                    let roll = rng.gen_range(1..=MAX_ROLLS);
                    let legal: Vec<Cell> = sheet.legal_cells(roll).collect();
                    if let Some(&c) = legal.get(rng.gen_range(0..legal.len().max(1))) {
                        sheet = sheet.after_cell(&d, roll, c).unwrap();
                    }
                }
                for (s, player) in players.iter_mut() {
                    for roll in 1..=MAX_ROLLS {
                        if sheet.legal_cells(roll).next().is_none() {
                            continue;
                        }
                        let d = random_dice(&mut rng);
                        let choice = player.choose(&sheet, &d, roll, &mut rng);
                        assert_legal(*s, &sheet, &d, roll, choice);
                    }
                }
            }
            // And whole games, the hand column of jamb-4 included.
            for s in Strategy::ALL {
                for seed in 0..10 {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let mut player = s.player();
                    let game = play_game(rules, &mut [&mut *player], DiceLaw::Fair, &mut rng);
                    let game = game.unwrap_or_else(|e| panic!("{s} {rules}: {e}"));
                    assert!(game.finals[0].is_complete());
                }
            }
        }
    }

    #[test]
    fn rnd_draws_every_kind_of_legal_choice() {
        let sheet = JambSheet::new(JambRules::JAMB_5);
        let d = dice("11234");
        let mut rng = rng();
        let (mut keeps, mut writes) = (0, 0);
        for _ in 0..2000 {
            let choice = RndPlayer.choose(&sheet, &d, 1, &mut rng);
            assert_legal(Strategy::Rnd, &sheet, &d, 1, choice);
            match choice {
                Choice::Keep(_) => keeps += 1,
                _ => writes += 1,
            }
        }
        // 19 legal cells and 3 * 2 * 2 * 2 = 24 distinct keeps.
        let share = f64::from(writes) / f64::from(keeps + writes);
        assert!((share - 19.0 / 43.0).abs() < 0.04, "{share}");
        // After the last roll only writes.
        for _ in 0..50 {
            let choice = RndPlayer.choose(&sheet, &d, 3, &mut rng);
            assert!(matches!(choice, Choice::Write(_)));
        }
    }

    #[test]
    fn names_parse_back() {
        for s in Strategy::ALL {
            assert_eq!(Strategy::parse(s.name()), Some(s));
            assert_eq!(Strategy::parse(&s.name().to_uppercase()), Some(s));
            assert!(!s.describe().is_empty());
            assert_eq!(s.to_string(), s.name());
        }
        assert_eq!(Strategy::parse("Pb"), Some(Strategy::Pb));
        assert_eq!(Strategy::parse("p3"), None);
    }

    /// Probability of each multiset of `n` dice (counts per face), by enumeration.
    fn outcomes(n: usize) -> Vec<([u8; FACES], f64)> {
        let total = 6usize.pow(n as u32);
        let mut map: std::collections::BTreeMap<[u8; FACES], f64> = Default::default();
        for mut code in 0..total {
            let mut c = [0u8; FACES];
            for _ in 0..n {
                c[code % 6] += 1;
                code /= 6;
            }
            *map.entry(c).or_default() += 1.0 / total as f64;
        }
        map.into_iter().collect()
    }

    /// Expected worth of chasing `jbox` alone from roll `roll` with dice `counts`.
    fn chase_value(
        jbox: JambBox,
        counts: [u8; FACES],
        roll: u8,
        tables: &[Vec<([u8; FACES], f64)>],
    ) -> f64 {
        let t = target(&JambRules::JAMB_5, jbox, &counts, roll);
        if t.reached() || roll == MAX_ROLLS {
            let points = JambRules::JAMB_5
                .points(jbox, &Dice::from_counts(counts), roll)
                .unwrap();
            return worth(points, jbox);
        }
        let kept: u8 = t.keep.iter().sum();
        tables[DICE - usize::from(kept)]
            .iter()
            .map(|(new, p)| {
                let next: [u8; FACES] = std::array::from_fn(|f| t.keep[f] + new[f]);
                p * chase_value(jbox, next, roll + 1, tables)
            })
            .sum()
    }
}
