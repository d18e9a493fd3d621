//! Text for people: the text-table renderer of the reports (rows under a header, columns two
//! spaces apart, each as wide as its widest cell), and the lines of a run's progress.

use crate::ranking::Leaderboard;
use std::fmt::Write;

/// How a column's cells are aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Padded on the right.
    Left,
    /// Padded on the left.
    Right,
}

/// Renders `rows` under `header` (each column's title and alignment): columns two spaces
/// apart, each as wide as its widest cell (counted in characters), trailing blanks removed,
/// one line per row. Cells beyond the header's columns are dropped.
pub fn table(header: &[(&str, Align)], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|(h, _)| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let head: Vec<String> = header.iter().map(|(h, _)| h.to_string()).collect();
    for row in std::iter::once(&head).chain(rows) {
        let mut line = String::new();
        for ((cell, &(_, align)), &w) in row.iter().zip(header).zip(&widths) {
            if !line.is_empty() {
                line.push_str("  ");
            }
            let _ = match align {
                Align::Left => write!(line, "{cell:<w$}"),
                Align::Right => write!(line, "{cell:>w$}"),
            };
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A count with its thousands grouped by commas: `12,345`.
pub fn grouped(count: u64) -> String {
    let digits = count.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A duration as people read it: `42s`, `1m32s`, `2h05m` (rounded down to the unit shown
/// last).
pub fn short_duration(duration: std::time::Duration) -> String {
    let seconds = duration.as_secs();
    match seconds {
        0..=59 => format!("{seconds}s"),
        60..=3599 => format!("{}m{:02}s", seconds / 60, seconds % 60),
        _ => format!("{}h{:02}m", seconds / 3600, seconds % 3600 / 60),
    }
}

/// How far a run has gone, in one line (without a prefix): `12,345 of ~50,000 games (24%),
/// 410 games/s, 1m32s left, file 2 of 3`. `expected` is the games the run is expected to rate
/// (`None` when the size of the input is not known: then no share and no time left), `rate`
/// the games per second so far (the time left is rounded up to a second), `files` the file being read and the files of the run (`None`
/// when the games are not read from files).
pub fn progress_status(
    done: u64,
    expected: Option<u64>,
    rate: Option<f64>,
    files: Option<(usize, usize)>,
) -> String {
    let mut line = match expected {
        Some(expected) if expected > 0 => {
            let percent = (done.min(expected) * 100) / expected;
            format!(
                "{} of ~{} games ({percent}%)",
                grouped(done),
                grouped(expected)
            )
        }
        _ => format!("{} games", grouped(done)),
    };
    if let Some(rate) = rate.filter(|rate| rate.is_finite() && *rate > 0.0) {
        let _ = write!(line, ", {rate:.0} games/s");
        if let Some(expected) = expected {
            let left = (expected.saturating_sub(done) as f64 / rate).ceil();
            if let Ok(left) = std::time::Duration::try_from_secs_f64(left) {
                let _ = write!(line, ", {} left", short_duration(left));
            }
        }
    }
    if let Some((file, of)) = files {
        let _ = write!(line, ", file {file} of {of}");
    }
    line
}

/// The last line of a run's progress: `50,000 games in 2m03s (406 games/s)`.
pub fn progress_done(done: u64, took: std::time::Duration) -> String {
    let seconds = took.as_secs_f64();
    let rate = if seconds > 0.0 {
        format!(" ({:.0} games/s)", done as f64 / seconds)
    } else {
        String::new()
    };
    format!("{} games in {}{rate}", grouped(done), short_duration(took))
}

/// The hint of a leaderboard that ranks nobody: how many games its most active player has,
/// and the `--min-games` that would rank them.
pub(crate) fn min_games_hint(board: &Leaderboard, min_games: u64) -> Option<String> {
    (board.ranked.is_empty() && board.most_games > 0).then(|| {
        let s = if board.most_games == 1 { "" } else { "s" };
        format!(
            "no player has {min_games} games or more; the most any player has is {} game{s}: lower \
             --min-games (for example --min-games {}) to rank players",
            board.most_games,
            board.most_games.min(min_games)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn columns_fit_their_widest_cell() {
        let rows = vec![
            vec!["1".to_string(), "alice".to_string(), String::new()],
            vec!["12".to_string(), "bo".to_string(), "?".to_string()],
        ];
        let text = table(
            &[
                ("n", Align::Right),
                ("player", Align::Left),
                ("", Align::Left),
            ],
            &rows,
        );
        assert_eq!(text, " n  player\n 1  alice\n12  bo      ?\n");
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(12_345_678), "12,345,678");
    }

    #[test]
    fn durations_are_short() {
        assert_eq!(short_duration(Duration::from_secs(42)), "42s");
        assert_eq!(short_duration(Duration::from_secs(92)), "1m32s");
        assert_eq!(short_duration(Duration::from_secs(7500)), "2h05m");
    }

    #[test]
    fn progress_lines_show_what_is_known() {
        assert_eq!(
            progress_status(12_345, Some(50_000), Some(410.0), Some((2, 3))),
            "12,345 of ~50,000 games (24%), 410 games/s, 1m32s left, file 2 of 3"
        );
        assert_eq!(
            progress_status(12_345, None, Some(410.0), Some((1, 1))),
            "12,345 games, 410 games/s, file 1 of 1"
        );
        assert_eq!(progress_status(0, Some(0), None, None), "0 games");
        assert_eq!(
            progress_done(50_000, Duration::from_secs(123)),
            "50,000 games in 2m03s (407 games/s)"
        );
    }
}
