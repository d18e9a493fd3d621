//! Synthetic games for the benchmarks: a small deterministic generator, so that every run
//! measures the same bytes, and two-player games of 26 random (not legal) turns.

use dicelens_parsers::{BoxCode, GameRecord, Keep, Roll, TurnRecord};

/// American box codes: each player fills every one of them once.
const BOXES: [&str; 13] = [
    "1", "2", "3", "4", "5", "6", "3K", "4K", "FH", "SS", "LS", "Y", "C",
];

/// A small deterministic generator (xorshift64*), so every run measures the same bytes.
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A die, 1 to 6.
    pub fn die(&mut self) -> u8 {
        1 + self.below(6) as u8
    }
}

/// One turn: up to three rolls, each keep a random part of the roll before it and contained
/// in the roll after it, a random free box, plausible points.
pub fn turn(rng: &mut Rng, round: u16, seat: u8, category: BoxCode) -> TurnRecord {
    let roll_count = 1 + rng.below(3);
    let mut turn = TurnRecord::new(round, seat, category);
    turn.points = Some(rng.below(51) as u16);
    let mut roll = [0u8; 5];
    roll.iter_mut().for_each(|d| *d = rng.die());
    turn.set_first_roll(Roll::from(roll));
    for _ in 1..roll_count {
        let kept: Vec<u8> = roll.iter().copied().filter(|_| rng.below(2) == 0).collect();
        for (at, die) in roll.iter_mut().enumerate() {
            *die = kept.get(at).copied().unwrap_or_else(|| rng.die());
        }
        let kept = Keep::new(&kept).unwrap_or_default();
        // Three rolls at most: far below the limit.
        let _ = turn.push_roll(kept, Roll::from(roll));
    }
    turn
}

/// Appends to `game` 13 rounds of two turns, each seat filling the 13 boxes in a random order.
pub fn two_player_turns(rng: &mut Rng, game: &mut GameRecord) {
    let mut order: Vec<[usize; 13]> = vec![std::array::from_fn(|i| i); 2];
    for boxes in &mut order {
        for i in (1..boxes.len()).rev() {
            boxes.swap(i, rng.below(i + 1));
        }
    }
    for round in 0..13 {
        for (seat, boxes) in order.iter().enumerate() {
            let category = BoxCode::parse(BOXES[boxes[round]]).unwrap_or_default();
            game.turns
                .push(turn(rng, round as u16 + 1, seat as u8, category));
        }
    }
}
