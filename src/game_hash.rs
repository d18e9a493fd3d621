//! The content hash of a game (the `content_hash` column of `games.csv`): a 64-bit FNV-1a hash
//! of the game as read ([`GameRecord`]), in a fixed serialisation that does not depend on the
//! log's format or on where the game is (file name, line). `merge` reads a duplicate game again
//! to subtract it, and compares hashes to make sure it is the game that was counted: a log
//! changed since its analysis (a turn, a player, a tag) gives another hash.
//!
//! The hash is of the record rather than of the log's bytes because a game's bytes are not one
//! piece in every format (the rows of a CSV game may be scattered over the file, a Verhoeff
//! game's header is shared), and because the same game read from a moved or recompressed file
//! must give the same hash.
//!
//! The serialisation, in order (numbers little-endian; a string is its length in bytes as a
//! `u64`, then its UTF-8 bytes; an optional value is the byte 0, or the byte 1 then the value; a
//! list is its length as a `u64`, then its items): the game id, the rule set as written, the
//! players, the date, the time, the termination (`normal`, `abandoned`, ...), the result (a
//! list of `u32`), the tags (a list of name and value strings), and the turns (a list), each as
//! its round (`u16`), seat (`u8`), number of rolls (`u8`), the rolls made (five bytes each), the
//! keeps made (each its number of dice as a `u8` and the faces kept), the box code (a string),
//! the points (an optional `u16`), the total before the turn (an optional `u32`) and the points
//! earned (an optional `u16`). Line numbers and the file name are left out.

use dicelens_parsers::GameRecord;
use std::fmt;

/// A game's content hash; written as 16 lower-case hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContentHash(pub u64);

impl fmt::Display for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl std::str::FromStr for ContentHash {
    type Err = String;

    /// Reads 16 hex digits (either case).
    fn from_str(text: &str) -> Result<ContentHash, String> {
        if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("expected 16 hex digits, found {text:?}"));
        }
        u64::from_str_radix(text, 16)
            .map(ContentHash)
            .map_err(|e| format!("{text:?}: {e}"))
    }
}

/// 64-bit FNV-1a of `bytes` (for names made from text, such as a game page's file name).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = Fnv(Fnv::OFFSET);
    hash.bytes(bytes);
    hash.0
}

/// 64-bit FNV-1a.
struct Fnv(u64);

impl Fnv {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    fn len(&mut self, len: usize) {
        self.bytes(&(len as u64).to_le_bytes());
    }

    fn str(&mut self, text: &str) {
        self.len(text.len());
        self.bytes(text.as_bytes());
    }

    fn option<T>(&mut self, value: Option<T>, mut each: impl FnMut(&mut Self, T)) {
        match value {
            None => self.bytes(&[0]),
            Some(v) => {
                self.bytes(&[1]);
                each(self, v);
            }
        }
    }
}

/// The content hash of `game` (see the module's documentation for what it covers).
pub fn content_hash(game: &GameRecord) -> ContentHash {
    let mut h = Fnv(Fnv::OFFSET);
    let p = &game.provenance;
    h.str(&p.game_id);
    h.str(&game.rules);
    h.len(game.players.len());
    for player in &game.players {
        h.str(player);
    }
    h.option(p.date.as_deref(), Fnv::str);
    h.option(p.time.as_deref(), Fnv::str);
    h.str(game.termination.as_str());
    h.option(game.result.as_deref(), |h, totals| {
        h.len(totals.len());
        for total in totals {
            h.bytes(&total.to_le_bytes());
        }
    });
    h.len(game.tags.len());
    for (name, value) in &game.tags {
        h.str(name);
        h.str(value);
    }
    h.len(game.turns.len());
    for turn in &game.turns {
        h.bytes(&turn.round.to_le_bytes());
        h.bytes(&[turn.seat, turn.rolls().len() as u8]);
        for roll in turn.rolls() {
            // Five dice hash as their faces alone (the hashes of five-dice games stay as they
            // were); any other count is marked first, with a byte no face has.
            if roll.len() != 5 {
                h.bytes(&[0x80 | roll.len() as u8]);
            }
            h.bytes(roll.faces());
        }
        for keep in turn.keeps() {
            h.bytes(&[keep.faces().len() as u8]);
            h.bytes(keep.faces());
        }
        h.str(turn.category.as_str());
        h.option(turn.points, |h, p| h.bytes(&p.to_le_bytes()));
        h.option(turn.total_before, |h, t| h.bytes(&t.to_le_bytes()));
        h.option(turn.earned, |h, e| h.bytes(&e.to_le_bytes()));
        // An announcement counts where there is one (other games hash as they did).
        if let Some(announced) = turn.announced {
            h.str(announced.as_str());
        }
    }
    ContentHash(h.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dicelens_parsers::{BoxCode, Format, Keep, Roll, TurnRecord};

    #[test]
    fn fnv_1a_of_known_strings() {
        // The published FNV-1a 64 test vectors.
        let fnv = |text: &str| {
            let mut h = Fnv(Fnv::OFFSET);
            h.bytes(text.as_bytes());
            h.0
        };
        assert_eq!(fnv(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv("foobar"), 0x8594_4171_f739_67e8);
    }

    fn game() -> GameRecord {
        let mut g = GameRecord::default();
        g.provenance.game_id = "g1".into();
        g.provenance.file = "a.ygn".into();
        g.provenance.line = 3;
        g.rules = "yahtzee".into();
        g.players = vec!["ann".into()];
        let mut turn = TurnRecord::new(1, 0, BoxCode::parse("LS").unwrap());
        turn.set_rolls(
            &[[1, 2, 3, 4, 6].into(), [1, 2, 3, 4, 5].into()],
            &[Keep::new(&[1, 2, 3, 4]).unwrap()],
        )
        .unwrap();
        turn.points = Some(40);
        turn.line = 5;
        g.turns.push(turn);
        g
    }

    #[test]
    fn the_hash_is_of_the_content_not_the_place() {
        let base = content_hash(&game());
        let mut moved = game();
        moved.provenance.file = "elsewhere/b.ygn".into();
        moved.provenance.line = 900;
        moved.turns[0].line = 902;
        assert_eq!(content_hash(&moved), base);
        let changes: [fn(&mut GameRecord); 9] = [
            |g| g.turns[0].rolls_mut()[1] = [1, 2, 3, 4, 4].into(),
            |g| g.turns[0].rolls_mut()[1] = Roll::new(&[1, 2, 3, 4, 5, 6]).unwrap(),
            // The same faces split between the rolls otherwise.
            |g| {
                g.turns[0].rolls_mut()[0] = Roll::new(&[1, 2, 3, 4, 6, 1]).unwrap();
                g.turns[0].rolls_mut()[1] = Roll::new(&[2, 3, 4, 5]).unwrap();
            },
            |g| g.turns[0].points = Some(30),
            |g| g.turns[0].announced = BoxCode::parse("A:K"),
            |g| g.players[0] = "bob".into(),
            |g| g.provenance.game_id = "g2".into(),
            |g| g.tags.push(("Event".into(), "x".into())),
            |g| g.result = Some(vec![40]),
        ];
        for (i, change) in changes.iter().enumerate() {
            let mut changed = game();
            change(&mut changed);
            assert_ne!(content_hash(&changed), base, "change {i}");
        }
    }

    #[test]
    fn the_same_game_in_two_formats_hashes_alike() {
        // A game written as JSONL and as YGN and read back: the same record, the same hash.
        let mut g = game();
        g.provenance.date = Some("2024.01.02".into());
        let mut hashes = Vec::new();
        for format in [Format::Ygn, Format::Jsonl] {
            let mut bytes = Vec::new();
            format.write_game(&g, &mut bytes).unwrap();
            let mut reader = format.reader(&bytes, "x");
            let mut read = GameRecord::default();
            reader.read_game(&mut read).unwrap().unwrap();
            read.tags.clear();
            hashes.push(content_hash(&read));
        }
        assert_eq!(hashes[0], hashes[1]);
    }

    #[test]
    fn hex_round_trip() {
        let h = ContentHash(0x0123_4567_89ab_cdef);
        assert_eq!(h.to_string(), "0123456789abcdef");
        assert_eq!("0123456789ABCDEF".parse::<ContentHash>(), Ok(h));
        assert!("123".parse::<ContentHash>().is_err());
        assert!("0123456789abcdeg".parse::<ContentHash>().is_err());
    }
}
