//! Game logs of the public solver precisit/yatzy-solver (JSON lines, one game per line, its
//! decisions in the solver's text notation). Work in progress (issue 12): the notation is read
//! by [`notation`]; the game reader comes next.

pub mod notation;
