//! `bench read`: how fast logs are read, timed in one run beside the baselines that bound it:
//! for a compressed file, the system's own decompressor (`zcat`, `zstdcat`) writing to
//! nothing, the decompression alone as `dicelens` does it, and the parsing alone of the
//! decompressed content held in memory; then reading every game (decompression, format,
//! parse; no replay). Best of several runs each.

use super::BenchError;
use crate::corpus::{InputFormat, LogFile};
use dicelens_parsers::stream::{Compression, Input};
use dicelens_parsers::{Format, GameReader, GameRecord, ReadOptions};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The measurements of one file.
pub struct ReadTimes {
    /// How the file is compressed.
    pub compression: Compression,
    /// Bytes of its content, decompressed.
    pub content_bytes: u64,
    /// Each measurement (`zcat > /dev/null`, `decompress only`, `parse only (memory)`,
    /// `read N games`) and its fastest time, the baseline first.
    pub rows: Vec<(String, Duration)>,
}

/// The fastest of `repeat` runs of `run`, with what the last run returned.
fn fastest<T>(
    repeat: usize,
    mut run: impl FnMut() -> Result<T, BenchError>,
) -> Result<(Duration, T), BenchError> {
    let mut best: Option<(Duration, T)> = None;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        let value = run()?;
        let took = start.elapsed();
        if best.as_ref().is_none_or(|(b, _)| took < *b) {
            best = Some((took, value));
        }
    }
    best.ok_or_else(|| BenchError("no run".into()))
}

/// The system's decompressor for `compression`, if it has one.
fn system_tool(compression: Compression) -> Option<&'static str> {
    match compression {
        Compression::None => None,
        Compression::Gzip => Some("zcat"),
        Compression::Zstd => Some("zstdcat"),
    }
}

/// Runs `tool FILE > /dev/null`.
fn run_tool(tool: &str, path: &Path) -> Result<(), BenchError> {
    let status = Command::new(tool)
        .arg(path)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| BenchError(format!("{tool}: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(BenchError(format!("{tool} {}: {status}", path.display())))
    }
}

/// Decompresses `path` as `dicelens` does, into nothing; returns the bytes of content.
fn decompress(path: &Path) -> Result<u64, BenchError> {
    let mut read = open(path)?;
    let mut buf = vec![0u8; 1 << 16];
    let mut total = 0u64;
    loop {
        let n = read.read(&mut buf).map_err(|e| failed(path, e))?;
        if n == 0 {
            return Ok(total);
        }
        total += n as u64;
    }
}

/// The content of `path`, decompressed as `dicelens` does.
fn open(path: &Path) -> Result<Box<dyn Read + Send>, BenchError> {
    let file = std::fs::File::open(path).map_err(|e| failed(path, e))?;
    Ok(Input::new(file).map_err(|e| failed(path, e))?.into_read())
}

/// An error reading `path`.
fn failed(path: &Path, e: std::io::Error) -> BenchError {
    BenchError(format!("{}: {e}", path.display()))
}

/// Reads every game of `content` (already in memory) in `format`; returns the games read.
fn parse_only(content: &[u8], format: Format, options: &ReadOptions) -> u64 {
    let mut reader = format.reader_with(content, "bench", options);
    let mut game = GameRecord::default();
    let mut games = 0u64;
    while reader.read_game(&mut game).is_some() {
        games += 1;
    }
    games
}

/// Reads every game of `path`; returns the games (and syntax errors) read.
fn read_games(path: &Path, format: InputFormat, options: &ReadOptions) -> Result<u64, BenchError> {
    let file =
        LogFile::open_with(path, format.fixed(), options).map_err(|e| BenchError(e.to_string()))?;
    let mut games = 0u64;
    file.for_each_game(|_| games += 1);
    Ok(games)
}

/// Times the reading of `path` (a regular file: it is read several times), best of `repeat`
/// runs each: for a compressed file first the baselines (the system's decompressor, the
/// decompression alone, the parsing alone of the content in memory), then the reading of every
/// game, in `format` read with `options`.
pub fn read_times(
    path: &Path,
    format: InputFormat,
    options: &ReadOptions,
    repeat: usize,
) -> Result<ReadTimes, BenchError> {
    // Each file is read several times: a stream (pipe, FIFO, device) cannot be.
    let metadata =
        std::fs::metadata(path).map_err(|e| BenchError(format!("{}: {e}", path.display())))?;
    if !metadata.is_file() {
        return Err(BenchError(format!(
            "{}: {}, not a regular file (bench read reads each file several times)",
            path.display(),
            crate::files::kind_name(&metadata)
        )));
    }
    let compression = std::fs::File::open(path)
        .and_then(|mut f| {
            let mut magic = [0u8; 4];
            let n = f.read(&mut magic)?;
            Ok(Compression::detect(&magic[..n]))
        })
        .map_err(|e| BenchError(format!("{}: {e}", path.display())))?;
    let (t_decompress, content_bytes) = fastest(repeat, || decompress(path))?;
    let mut rows: Vec<(String, Duration)> = Vec::new();
    if let Some(tool) = system_tool(compression) {
        let (took, ()) = fastest(repeat, || run_tool(tool, path))?;
        rows.push((format!("{tool} > /dev/null"), took));
        rows.push(("decompress only".into(), t_decompress));
        let mut content = Vec::new();
        open(path)?
            .read_to_end(&mut content)
            .map_err(|e| failed(path, e))?;
        let format = match format.fixed() {
            Some(format) => format,
            None => Format::detect(&content)
                .ok_or_else(|| BenchError(format!("{}: no known format", path.display())))?,
        };
        let (took, _) = fastest(repeat, || Ok(parse_only(&content, format, options)))?;
        rows.push(("parse only (memory)".into(), took));
    }
    let (t_read, games) = fastest(repeat, || read_games(path, format, options))?;
    rows.push((format!("read {games} games"), t_read));
    Ok(ReadTimes {
        compression,
        content_bytes,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_file_is_timed_by_its_reading_alone_and_a_directory_refused() {
        let dir = std::env::temp_dir().join(format!("dicelens-bench-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let log = dir.join("one.ygn");
        let text = "[Game \"g1\"]\n[Rules \"yahtzee\"]\n[Players \"ann\"]\n[Termination \"abandoned\"]\n\n1. ann: 13456 k3456 23456 LS=40\n";
        std::fs::write(&log, text).expect("write log");
        let options = ReadOptions::default();
        let times = read_times(&log, InputFormat::Auto, &options, 2);
        let refused = read_times(&dir, InputFormat::Auto, &options, 1);
        let _ = std::fs::remove_dir_all(&dir);
        let times = times.expect("timed");
        assert_eq!(times.compression, Compression::None);
        assert_eq!(times.content_bytes, text.len() as u64);
        let names: Vec<&str> = times.rows.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["read 1 games"]);
        assert!(refused.is_err());
    }
}
