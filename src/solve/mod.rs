//! Oracles: how values are computed. The generic turn widget, state indexing, and the
//! solitaire expected-score solver.

pub mod distribution;
pub mod expected;
pub mod states;
pub mod two_player;
pub mod widget;
