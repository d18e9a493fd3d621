//! The worst decisions of every player (or of one), gathered while a corpus is rated: a
//! collector the pipeline hands every rated game to ([`WorstDecisions`], a
//! [`DecisionSink`]); `report` shows them on the player pages and links them to their games.

use crate::aggregate::PartKey;
use crate::game_hash::{content_hash, ContentHash};
use crate::pipeline::DecisionSink;
use crate::rate::Rated;
use crate::rows::DecisionRow;
use dicelens_parsers::GameRecord;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

/// Decisions listed among the worst.
pub(crate) const WORST: usize = 10;

/// Whether the decision (`loss`, `game`, `order`) comes before `row` in
/// [`DecisionRow::worst_first`] order.
fn worse_than(loss: f64, game: &str, order: usize, row: &DecisionRow) -> bool {
    row.loss
        .total_cmp(&loss)
        .then_with(|| game.cmp(&row.game))
        .then(order.cmp(&row.order))
        == Ordering::Less
}

/// Puts `row` into `list` (kept in [`DecisionRow::worst_first`] order, at most [`WORST`]).
fn keep_if_worse(list: &mut Vec<DecisionRow<'static>>, row: DecisionRow<'static>) {
    let at = list.partition_point(|r| DecisionRow::worst_first(r, &row) == Ordering::Less);
    if at < WORST {
        list.insert(at, row);
        list.truncate(WORST);
    }
}

/// Gathers the `WORST` worst decisions of every player (or of one) while a corpus is rated:
/// at most `WORST` rows a player, in `DecisionRow::worst_first` order, a total order, so
/// the same corpus gives the same rows whatever the thread count. Decisions that lost nothing
/// are not listed.
#[derive(Default)]
pub struct WorstDecisions {
    /// Only this player's, if given.
    only: Option<String>,
    /// The worst decisions by part of the analysis and player name, worst first.
    pub(crate) by_player: BTreeMap<(PartKey, String), Vec<DecisionRow<'static>>>,
    /// The content hash of every game one of whose decisions was kept (some since dropped for
    /// worse ones), by game id: what the game must still be when it is read again.
    pub hashes: HashMap<String, ContentHash>,
}

/// The worst decisions one chunk of a batch gave ([`WorstDecisions`] as a [`DecisionSink`]).
#[derive(Default)]
pub struct WorstChunk {
    rows: BTreeMap<(PartKey, String), Vec<DecisionRow<'static>>>,
    hashes: HashMap<String, ContentHash>,
}

impl WorstDecisions {
    /// The worst decisions of every player.
    pub fn of_everyone() -> WorstDecisions {
        WorstDecisions::default()
    }

    /// The worst decisions of player `name` only.
    pub(crate) fn of_player(name: &str) -> WorstDecisions {
        WorstDecisions {
            only: Some(name.to_string()),
            ..WorstDecisions::default()
        }
    }

    /// The content hash of game `id` when one of its decisions was kept, if one was.
    pub(crate) fn hash_of(&self, id: &str) -> Option<ContentHash> {
        self.hashes.get(id).copied()
    }

    /// The player's worst decisions in part `key`, worst first (none if unknown).
    pub fn of(&self, key: PartKey, name: &str) -> &[DecisionRow<'static>] {
        self.by_player
            .get(&(key, name.to_string()))
            .map_or(&[], Vec::as_slice)
    }
}

impl DecisionSink for WorstDecisions {
    type Chunk = WorstChunk;

    fn game(&self, _: usize, game: &GameRecord, rated: &[Rated], chunk: &mut Self::Chunk) {
        let mut kept = false;
        let rounds = game
            .rules
            .parse::<crate::rules::RuleSet>()
            .map_or(0, |rules| rules.boxes().len() as u16);
        for (order, r) in rated.iter().enumerate() {
            let Some(name) = game.players.get(usize::from(r.decision.seat)) else {
                continue;
            };
            if r.error <= 0.0 || self.only.as_ref().is_some_and(|only| only != name) {
                continue;
            }
            let key = PartKey {
                unit: r.unit,
                rounds,
            };
            let list = chunk.rows.entry((key, name.clone())).or_default();
            let full = list.len() >= WORST;
            if full
                && list
                    .last()
                    .is_some_and(|last| !worse_than(r.error, &game.provenance.game_id, order, last))
            {
                continue;
            }
            keep_if_worse(list, DecisionRow::new(game, order, r).into_owned());
            kept = true;
        }
        if kept {
            let id = &game.provenance.game_id;
            chunk.hashes.insert(id.clone(), content_hash(game));
        }
    }

    fn merge_chunk(&mut self, chunk: Self::Chunk) {
        for (key, rows) in chunk.rows {
            let list = self.by_player.entry(key).or_default();
            for row in rows {
                keep_if_worse(list, row);
            }
        }
        self.hashes.extend(chunk.hashes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::{Class, Unit};

    #[test]
    fn worst_lists_keep_the_worst_in_a_total_order() {
        use crate::dice::Dice;
        use crate::rules::{Choice, RuleSet, Sheet};
        let dice = Dice::from_faces(&[1, 2, 3, 4, 6]).unwrap();
        let row = |game: &str, order: usize, loss: f64| DecisionRow {
            game: game.to_string().into(),
            order,
            player: None,
            seat: 0,
            round: 1,
            roll: 1,
            rolls_left: 2,
            sheet: crate::rules::PlayerSheet::Yahtzee(Sheet::empty(RuleSet::MAIN[0])),
            dice,
            choice: Choice::Keep(dice),
            announced: None,
            value: 0.0,
            best: Choice::Keep(dice),
            best_announced: None,
            best_value: loss,
            loss,
            luck: 0.0,
            forced: false,
            class: Class::Error,
            unit: Unit::Points,
        };
        let rows: Vec<DecisionRow<'static>> = (0..30)
            .map(|i| row(&format!("g{}", i % 7), i, f64::from((i % 5) as u8)))
            .collect();
        let mut forward = Vec::new();
        for r in &rows {
            keep_if_worse(&mut forward, r.clone());
        }
        let mut backward = Vec::new();
        for r in rows.iter().rev() {
            keep_if_worse(&mut backward, r.clone());
        }
        let mut sorted = rows.clone();
        sorted.sort_by(DecisionRow::worst_first);
        sorted.truncate(WORST);
        assert_eq!(forward, sorted);
        assert_eq!(backward, sorted);
        let last = &sorted[WORST - 1];
        assert!(!worse_than(last.loss, &last.game, last.order, last));
        assert!(worse_than(last.loss + 1.0, "z", 0, last));
    }
}
