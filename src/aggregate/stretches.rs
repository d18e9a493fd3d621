//! A player's near-perfect stretches (docs/methods.md, "Screening"): runs of consecutive
//! non-forced decisions each with an error below the doubtful threshold, kept per player and
//! part as mergeable sums ([`Stretches`], a bounded list merged by keeping the longest), so a
//! merge of shards in corpus order equals one run. The engine-assistance screening lists
//! them.

use super::{add_checked, Overflow};
use crate::rate::{Class, Rated};
use serde::{Deserialize, Serialize};

/// Least non-forced decisions of a near-perfect stretch worth listing.
pub const MIN_STRETCH: u64 = 60;
/// Stretches kept per player and part (the longest; deterministic order, [`Stretch::order`]).
pub const KEPT_STRETCHES: usize = 3;

/// A run of consecutive non-forced decisions of one player (forced ones are skipped), each
/// near-perfect (error below the doubtful threshold of its unit), across games in corpus order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stretch {
    /// Non-forced decisions in the run.
    pub decisions: u64,
    /// Their errors summed, nano-units.
    pub error_nano: i128,
    /// Games the run touches.
    pub games: u64,
    /// Id of the run's first game.
    pub first_game: String,
    /// Id of the run's last game.
    pub last_game: String,
}

impl Stretch {
    /// Adds one near-perfect decision of game `game`.
    fn add(&mut self, game: &str, error_nano: i128) {
        // The ids are copied into the buffers already held (no allocation per game).
        if self.decisions == 0 {
            self.first_game.clear();
            self.first_game.push_str(game);
        }
        if self.decisions == 0 || self.last_game != game {
            self.games += 1;
            self.last_game.clear();
            self.last_game.push_str(game);
        }
        self.decisions += 1;
        self.error_nano += error_nano;
    }

    /// Empties the run, keeping the buffers of its ids.
    fn clear(&mut self) {
        self.decisions = 0;
        self.error_nano = 0;
        self.games = 0;
        self.first_game.clear();
        self.last_game.clear();
    }

    /// This run followed by `next` (checked).
    fn join(&self, next: &Stretch) -> Result<Stretch, Overflow> {
        if self.decisions == 0 {
            return Ok(next.clone());
        }
        if next.decisions == 0 {
            return Ok(self.clone());
        }
        let mut joined = self.clone();
        add_checked(&mut joined.decisions, next.decisions, "decisions")?;
        add_checked(&mut joined.error_nano, next.error_nano, "error_nano")?;
        add_checked(&mut joined.games, next.games, "games")?;
        joined.last_game = next.last_game.clone();
        Ok(joined)
    }

    /// The listing order: longest first, then least error, then game ids.
    pub fn order(a: &Stretch, b: &Stretch) -> std::cmp::Ordering {
        b.decisions
            .cmp(&a.decisions)
            .then(a.error_nano.cmp(&b.error_nano))
            .then_with(|| a.first_game.cmp(&b.first_game))
            .then_with(|| a.last_game.cmp(&b.last_game))
    }

    /// Total error in the unit of the part.
    pub fn total_error(&self) -> f64 {
        self.error_nano as f64 / 1e9
    }
}

/// A player's near-perfect stretches in one part, mergeable in corpus order: the run open at
/// the start (it may continue a run of an earlier shard), the run open at the end (it may go
/// on in a later one), and the longest runs closed on both sides. Merging `a` then `b` joins
/// `a`'s open end with `b`'s open start, so shards merged in corpus order give the runs of the
/// whole corpus. Subtracting (`merge` removing a duplicate game) leaves them as they are.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stretches {
    /// The run from the player's first decision to the first that broke it (all of them
    /// while none did).
    pub head: Stretch,
    /// Whether a decision broke a run.
    pub broken: bool,
    /// The run after the last decision that broke one (empty while none did).
    pub tail: Stretch,
    /// The longest runs with a break on both sides, at least [`MIN_STRETCH`] long, at most
    /// `KEPT_STRETCHES`, in [`Stretch::order`].
    pub closed: Vec<Stretch>,
}

impl Stretches {
    /// Adds a player's rated decision of game `game` in corpus order: forced decisions are
    /// skipped, one of class fine extends the open run, any other breaks it.
    pub fn add(&mut self, game: &str, r: &Rated) {
        self.add_decision(game, r.forced, r.class == Class::Fine, r.error);
    }

    /// Adds a decision of game `game` in corpus order, as an engine saw it (forced, near-perfect,
    /// its error): forced decisions are skipped, a near-perfect one extends the open run, any
    /// other breaks it.
    pub(crate) fn add_decision(&mut self, game: &str, forced: bool, fine: bool, error: f64) {
        if forced {
            return;
        }
        if fine {
            let error_nano = (error * 1e9).round() as i128;
            let open = if self.broken {
                &mut self.tail
            } else {
                &mut self.head
            };
            open.add(game, error_nano);
        } else if self.broken {
            if self.tail.decisions >= MIN_STRETCH {
                keep_longest(&mut self.closed, [self.tail.clone()]);
            }
            self.tail.clear();
        } else {
            self.broken = true;
        }
    }

    /// Appends `next` (the same player's stretches of the games after these); an error naming
    /// the counter that would overflow.
    pub fn merge(&mut self, next: &Stretches) -> Result<(), Overflow> {
        if !self.broken {
            self.head = self.head.join(&next.head).map_err(|e| e.within("head"))?;
            self.broken = next.broken;
            self.tail = next.tail.clone();
            self.closed = next.closed.clone();
        } else if !next.broken {
            self.tail = self.tail.join(&next.head).map_err(|e| e.within("tail"))?;
        } else {
            let joined = self.tail.join(&next.head).map_err(|e| e.within("tail"))?;
            let theirs = next.closed.iter().cloned().chain([joined]);
            keep_longest(&mut self.closed, theirs);
            self.tail = next.tail.clone();
        }
        Ok(())
    }

    /// The longest runs (closed or open) at least [`MIN_STRETCH`] long, at most
    /// `KEPT_STRETCHES`, longest first.
    pub fn longest(&self) -> Vec<&Stretch> {
        let mut all: Vec<&Stretch> = self
            .closed
            .iter()
            .chain([&self.head, &self.tail])
            .filter(|s| s.decisions >= MIN_STRETCH)
            .collect();
        all.sort_by(|a, b| Stretch::order(a, b));
        all.truncate(KEPT_STRETCHES);
        all
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        *self == Stretches::default()
    }
}

/// Adds `more` to `kept`, keeping the [`KEPT_STRETCHES`] longest of at least [`MIN_STRETCH`].
fn keep_longest(kept: &mut Vec<Stretch>, more: impl IntoIterator<Item = Stretch>) {
    kept.extend(more.into_iter().filter(|s| s.decisions >= MIN_STRETCH));
    kept.sort_by(Stretch::order);
    kept.truncate(KEPT_STRETCHES);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stretch of `decisions` near-perfect decisions in games `first..=last`.
    fn run(decisions: u64, first: &str, last: &str, games: u64) -> Stretch {
        Stretch {
            decisions,
            error_nano: 0,
            games,
            first_game: first.into(),
            last_game: last.into(),
        }
    }

    /// Stretches built decision by decision equal those built in shards of whole games and
    /// merged in order, wherever the cuts.
    #[test]
    fn stretches_merge_like_one_pass() {
        // Game g has 30 near-perfect decisions, except games 3 and 9 which end with a bad one.
        let decisions: Vec<(String, bool)> = (0..12)
            .flat_map(|g| {
                (0..30).map(move |d| (format!("g{g:02}"), !((g == 3 || g == 9) && d == 29)))
            })
            .collect();
        let one = |range: std::ops::Range<usize>| {
            let mut s = Stretches::default();
            for (game, fine) in &decisions[range] {
                s.add(game, &rated(*fine));
            }
            s
        };
        let whole = one(0..decisions.len());
        // Shards hold whole games: cuts between games.
        for cut in [0, 30, 90, 120, 150, 270, 300, decisions.len()] {
            for cut2 in [cut, (cut + 60).min(decisions.len()), decisions.len()] {
                let mut merged = one(0..cut);
                merged.merge(&one(cut..cut2)).unwrap();
                merged.merge(&one(cut2..decisions.len())).unwrap();
                assert_eq!(merged, whole, "cut at {cut} and {cut2}");
            }
        }
        // Games 4..=9 (6 games, 179 fine decisions) and 10..=11 (60), the head 0..=3 (119).
        let longest = whole.longest();
        assert_eq!(longest[0], &run(179, "g04", "g09", 6));
        assert_eq!(longest[1], &run(119, "g00", "g03", 4));
        assert_eq!(longest[2], &run(60, "g10", "g11", 2));
    }

    /// A non-forced rated decision, fine or a blunder.
    fn rated(fine: bool) -> Rated {
        use crate::dice::Dice;
        use crate::rules::{Choice, RuleSet, Sheet};
        let dice = Dice::from_faces(&[1, 2, 3, 4, 6]).unwrap_or_default();
        Rated {
            decision: crate::replay::Decision {
                seat: 0,
                round: 1,
                turn: 0,
                roll_number: 1,
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
            chosen: 10.0,
            error: if fine { 0.0 } else { 6.0 },
            luck: 0.0,
            forced: false,
            class: if fine { Class::Fine } else { Class::Blunder },
            unit: crate::rate::Unit::Points,
            solitaire: None,
        }
    }
}
