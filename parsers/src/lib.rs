//! Game-log formats of dicelens and the canonical game record they produce.
//!
//! Only this crate knows text formats. The record types are format-free: every parser turns
//! its input into [`GameRecord`]s, and everything downstream reads only those.

use serde::{Deserialize, Serialize};

/// Where a game came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// The file the game was read from.
    pub file: String,
    /// Line of the game's first line in that file (1-based).
    pub line: u64,
    /// The game id (from the log, else `FILE:LINE`).
    pub game_id: String,
    /// Date `YYYY.MM.DD`, when the log gives it.
    pub date: Option<String>,
    /// Time `HH:MM:SS`, when the log gives it.
    pub time: Option<String>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Termination {
    /// Every box of every player filled.
    #[default]
    Normal,
    /// A player left.
    Abandoned,
    /// A player ran out of time.
    Timeout,
    /// A player resigned.
    Resigned,
}

/// One turn as logged: the rolls (dice as shown, in log order), the keeps between them, and
/// the box scored, with its points when the log gives them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// Round number (1-based).
    pub round: u32,
    /// Seat of the player (0-based, in `GameRecord::players` order).
    pub seat: usize,
    /// One to three rolls of five dice (faces 1-6, as shown).
    pub rolls: Vec<Vec<u8>>,
    /// The keeps before the second and third rolls (faces as written).
    pub keeps: Vec<Vec<u8>>,
    /// The category code scored, as written in the log.
    pub category: String,
    /// Points written in the box, when the log gives them.
    pub points: Option<u32>,
    /// Line of the turn in its file (1-based).
    pub line: u64,
}

/// A game in canonical form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Player names in seat order.
    pub players: Vec<String>,
    /// Rule-set name as given by the log.
    pub rules: String,
    /// Where the game came from.
    pub provenance: Provenance,
    /// The turns in log order.
    pub turns: Vec<TurnRecord>,
    /// How the game ended.
    pub termination: Termination,
    /// Final totals in seat order, when the log gives them.
    pub result: Option<Vec<u32>>,
    /// Every tag of the log, in order, unknown ones included.
    pub tags: Vec<(String, String)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records are exchanged between stages and shards as JSON: nothing may be lost.
    #[test]
    fn records_survive_a_json_round_trip() {
        let record = GameRecord {
            players: vec!["simson11".into(), "kasia_k".into()],
            rules: "yahtzee-kurnik".into(),
            provenance: Provenance {
                file: "logs/a.ygn".into(),
                line: 2,
                game_id: "r3-000187".into(),
                date: Some("2007.03.14".into()),
                time: None,
            },
            turns: vec![TurnRecord {
                round: 1,
                seat: 0,
                rolls: vec![vec![1, 3, 4, 5, 6], vec![2, 3, 4, 5, 6]],
                keeps: vec![vec![3, 4, 5, 6]],
                category: "LS".into(),
                points: Some(40),
                line: 9,
            }],
            termination: Termination::Abandoned,
            result: None,
            tags: vec![("Site".into(), "example.org".into())],
        };
        let json = serde_json::to_string(&record).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, record);
        assert_eq!(Termination::default(), Termination::Normal);
    }
}
