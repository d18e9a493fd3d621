//! The text-table renderer of the reports for people: rows under a header, columns two spaces
//! apart, each as wide as its widest cell.

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
