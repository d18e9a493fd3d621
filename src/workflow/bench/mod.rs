//! The `bench` commands' measurements: the quality experiment ([`quality`]), oracles rated and
//! compared on one corpus ([`oracles`]), how fast logs are read ([`read`]), and how long the
//! tables take to build ([`build`]). Each returns what it measured for `report` (or the
//! command line) to write.

pub mod build;
pub mod oracles;
pub mod quality;
pub mod read;

use std::fmt;

/// Why a measurement could not be made: one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchError(pub String);

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BenchError {}
