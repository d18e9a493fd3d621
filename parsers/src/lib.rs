//! Game-log formats of dicelens and the canonical game record they produce.
//!
//! Only this crate knows text formats. Every reader turns its input into [`GameRecord`]s, one
//! game at a time, and every writer turns records back into text; everything downstream reads
//! only records. Formats: YGN (the native format, [`ygn`]), Verhoeff's records ([`verhoeff`])
//! and JSONL events ([`jsonl`]).

pub mod error;
pub mod jsonl;
pub mod record;
pub mod verhoeff;
pub mod ygn;

pub use error::ParseError;
pub use record::{BoxCode, GameRecord, Keep, Provenance, Roll, Termination, TurnRecord};

use std::fmt;
use std::io;
use std::str::FromStr;

/// A source of games: reads the next game of its input into a record.
pub trait GameReader {
    /// Reads the next game into `out` (cleared first). `None` at the end of the input. After a
    /// syntax error, the reader skips to the start of the next game, so the caller can go on.
    fn read_game(&mut self, out: &mut GameRecord) -> Option<Result<(), ParseError>>;

    /// Bytes of the input the reader is done with: later games are read from this offset on
    /// (so a caller may release the memory before it).
    fn consumed(&self) -> usize;
}

/// The log formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// YGN (`../shared/docs/YGN.md`).
    Ygn,
    /// Verhoeff's analysis table or YahtzeeTrainer input form.
    Verhoeff,
    /// One JSON event per line (`docs/formats/jsonl.md`).
    Jsonl,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 3] = [Format::Ygn, Format::Verhoeff, Format::Jsonl];

    /// The name used by `--format`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Ygn => "ygn",
            Format::Verhoeff => "verhoeff",
            Format::Jsonl => "jsonl",
        }
    }

    /// Recognises the format from the start of the content: JSON objects are JSONL, tag
    /// lines are YGN, Verhoeff masks or table headers are Verhoeff. `None` if nothing fits.
    pub fn detect(content: &[u8]) -> Option<Format> {
        let text = content.strip_prefix(b"\xef\xbb\xbf").unwrap_or(content);
        let first = text
            .split(|&b| b == b'\n')
            .map(|l| l.trim_ascii())
            .find(|l| !l.is_empty() && !l.starts_with(b"%"))?;
        match first.first()? {
            b'{' => Some(Format::Jsonl),
            b'[' => Some(Format::Ygn),
            _ if verhoeff::looks_like(first) => Some(Format::Verhoeff),
            _ => None,
        }
    }

    /// A reader of this format over `content`, naming `file` in records and errors.
    pub fn reader<'a>(self, content: &'a [u8], file: &'a str) -> Box<dyn GameReader + Send + 'a> {
        match self {
            Format::Ygn => Box::new(ygn::Reader::new(content, file)),
            Format::Verhoeff => Box::new(verhoeff::Reader::new(content, file)),
            Format::Jsonl => Box::new(jsonl::Reader::new(content, file)),
        }
    }

    /// Writes one game in this format. Verhoeff's format needs every turn's points and
    /// `total_before`, and one player.
    pub fn write_game(self, game: &GameRecord, out: &mut dyn io::Write) -> io::Result<()> {
        match self {
            Format::Ygn => ygn::write_game(game, out),
            Format::Verhoeff => verhoeff::write_game(game, out),
            Format::Jsonl => jsonl::write_game(game, out),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown format '{s}' (expected auto, ygn, verhoeff or jsonl)"))
    }
}
