//! The CSV of `dicelens ids`: the header `game_id`, then one game id per row (what
//! `analyze --seen-ids` reads back).

use std::io::Write;

/// The one column of the CSV that `ids` prints and `--seen-ids` reads.
pub const ID_COLUMN: &str = "game_id";

/// The ids CSV being written: the header first, then each id as it comes. The first write
/// error is kept (later ids are not written) and given by [`IdsCsv::finish`].
pub struct IdsCsv<W: Write> {
    out: csv::Writer<W>,
    result: csv::Result<()>,
}

impl<W: Write> IdsCsv<W> {
    /// Starts the CSV on `out` (writes the header).
    pub fn new(out: W) -> IdsCsv<W> {
        let mut out = csv::Writer::from_writer(out);
        let result = out.write_record([ID_COLUMN]);
        IdsCsv { out, result }
    }

    /// Writes one id (nothing once a write failed).
    pub fn id(&mut self, id: &str) {
        if self.result.is_ok() {
            self.result = self.out.write_record([id]);
        }
    }

    /// Writes out what is buffered, ignoring a failure (before the run fails for another
    /// reason).
    pub fn flush_quietly(&mut self) {
        let _ = self.out.flush();
    }

    /// Writes out what is buffered: the first write error, if any.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.result
            .map_err(std::io::Error::from)
            .and_then(|()| self.out.flush())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_then_one_id_per_row_quoted_as_csv() {
        let mut bytes = Vec::new();
        let mut csv = IdsCsv::new(&mut bytes);
        csv.id("g1");
        csv.id("a,b");
        csv.finish().expect("written");
        assert_eq!(String::from_utf8_lossy(&bytes), "game_id\ng1\n\"a,b\"\n");
    }
}
