//! Oracles: how values are computed. The generic turn widget, state indexing, and the
//! solitaire expected-score solver.

pub(crate) mod decoded;
pub mod distribution;
pub mod expected;
pub mod jamb;
pub mod match_points;
pub mod prob_code;
pub mod saved;
pub mod saved_table;
pub mod simd;
pub mod states;
pub mod turn_oracle;
pub mod two_player;
pub mod widget;
