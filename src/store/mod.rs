//! The analysis store: what an analysis directory holds that a later run reads back, written
//! and read here: `summary.json` ([`summary`]) and the rows of `games.csv` ([`games`]), which
//! `merge`, `merge --partitions` and `player --from` read. The files are made complete or not
//! at all by [`crate::output`]; `report` renders an analysis, the store keeps it.

pub mod games;
pub mod summary;
