//! The ground-truth CSV beside a simulated corpus (`dicelens simulate`): per player, what the
//! simulation knows of their skill.

use crate::simulate::jamb::JambSimPlayer;
use crate::simulate::{PlayerTruth, SimPlayer};

/// The truth of one-column games: per player, the softmax temperature, games, decisions and
/// the sum of their errors.
pub fn one_column_truth_csv(players: &[SimPlayer], truth: &[PlayerTruth]) -> String {
    let mut csv = String::from("player,temperature,games,decisions,total_error\n");
    for (p, t) in players.iter().zip(truth) {
        csv.push_str(&format!(
            "{},{},{},{},{}\n",
            p.name, p.temperature, t.games, t.decisions, t.total_error
        ));
    }
    csv
}

/// The truth of Jamb games: per player, the strategy, games and the mean final total (`truth`
/// holds the games and the sum of the totals).
pub fn jamb_truth_csv(players: &[JambSimPlayer], truth: &[(u64, i64)]) -> String {
    let mut csv = String::from("player,strategy,games,mean_total\n");
    for (p, &(games, sum)) in players.iter().zip(truth) {
        let mean = if games > 0 {
            sum as f64 / games as f64
        } else {
            0.0
        };
        csv.push_str(&format!("{},{},{games},{mean:.3}\n", p.name, p.strategy));
    }
    csv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jamb_truth_has_the_mean_total_with_three_decimals() {
        let players = crate::simulate::jamb::jamb_players(&["p1".to_string()], 2, 1);
        let csv = jamb_truth_csv(&players, &[(3, 10), (0, 0)]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "player,strategy,games,mean_total");
        assert!(lines[1].ends_with(",p1,3,3.333"), "{csv}");
        assert!(lines[2].ends_with(",p1,0,0.000"), "{csv}");
    }
}
