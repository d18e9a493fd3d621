//! `dicelens bench read`: how fast logs are read, timed in one run beside the baselines that
//! bound it: for a compressed file, the system's own decompressor (`zcat`, `zstdcat`) writing
//! to nothing, the decompression alone as `dicelens` does it, and the parsing alone of the
//! decompressed content held in memory; then reading every game (decompression, format,
//! parse; no replay). Best of `--repeat` runs each. What compressed input costs is the read's
//! time less the parsing alone.

use super::flags::FormatFlag;
use super::{print_stdout, CliError};
use dicelens::corpus::LogFile;
use dicelens_parsers::stream::{Compression, Input};
use dicelens_parsers::{Format, GameReader, GameRecord, ReadOptions};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The flags of `dicelens bench read`.
#[derive(Clone, Debug, clap::Args)]
pub struct ReadArgs {
    /// Log files to read (any format, compressed or not), or directories of them. Not `-`:
    /// each file is read several times, which standard input cannot be.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub format: FormatFlag,
    /// Runs of each measurement; the fastest is kept.
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
}

/// The fastest of `repeat` runs of `run`, with what the last run returned.
fn fastest<T>(
    repeat: usize,
    mut run: impl FnMut() -> Result<T, CliError>,
) -> Result<(Duration, T), CliError> {
    let mut best: Option<(Duration, T)> = None;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        let value = run()?;
        let took = start.elapsed();
        if best.as_ref().is_none_or(|(b, _)| took < *b) {
            best = Some((took, value));
        }
    }
    best.ok_or_else(|| CliError::failure("no run"))
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
fn run_tool(tool: &str, path: &Path) -> Result<(), CliError> {
    let status = Command::new(tool)
        .arg(path)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| CliError::failure(format!("{tool}: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(CliError::failure(format!(
            "{tool} {}: {status}",
            path.display()
        )))
    }
}

/// Decompresses `path` as `dicelens` does, into nothing; returns the bytes of content.
fn decompress(path: &Path) -> Result<u64, CliError> {
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
fn open(path: &Path) -> Result<Box<dyn Read + Send>, CliError> {
    let file = std::fs::File::open(path).map_err(|e| failed(path, e))?;
    Ok(Input::new(file).map_err(|e| failed(path, e))?.into_read())
}

/// An error reading `path`.
fn failed(path: &Path, e: std::io::Error) -> CliError {
    CliError::failure(format!("{}: {e}", path.display()))
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
fn read_games(path: &Path, args: &ReadArgs) -> Result<u64, CliError> {
    let options = args.format.read_options()?;
    let file = LogFile::open_with(path, args.format.format.fixed(), &options)
        .map_err(|e| CliError::failure(e.to_string()))?;
    let mut games = 0u64;
    file.for_each_game(|_| games += 1);
    Ok(games)
}

/// Runs `dicelens bench read`: one line per file and measurement, as a table.
pub fn read(args: &ReadArgs) -> Result<(), CliError> {
    let mut out = String::from(
        "file                          compression  content_MB  measurement         seconds    MB/s  x_baseline\n",
    );
    if args.files.iter().any(|f| f.as_os_str() == "-") {
        return Err(CliError::flag(
            "-",
            "bench read reads each file several times, and standard input can be read only \
             once: save it to a file and give that",
        ));
    }
    for path in args.format.paths(&args.files)? {
        // Each file is read several times: a stream (pipe, FIFO, device) cannot be.
        let metadata = std::fs::metadata(&path)
            .map_err(|e| CliError::failure(format!("{}: {e}", path.display())))?;
        if !metadata.is_file() {
            return Err(CliError::failure(format!(
                "{}: {}, not a regular file (bench read reads each file several times)",
                path.display(),
                dicelens::files::kind_name(&metadata)
            )));
        }
        let head = std::fs::File::open(&path)
            .and_then(|mut f| {
                let mut magic = [0u8; 4];
                let n = f.read(&mut magic)?;
                Ok(Compression::detect(&magic[..n]))
            })
            .map_err(|e| CliError::failure(format!("{}: {e}", path.display())))?;
        let (t_decompress, bytes) = fastest(args.repeat, || decompress(&path))?;
        let mb = bytes as f64 / 1e6;
        let mut rows: Vec<(String, Duration)> = Vec::new();
        if let Some(tool) = system_tool(head) {
            let (took, ()) = fastest(args.repeat, || run_tool(tool, &path))?;
            rows.push((format!("{tool} > /dev/null"), took));
            rows.push(("decompress only".into(), t_decompress));
            let mut content = Vec::new();
            open(&path)?
                .read_to_end(&mut content)
                .map_err(|e| failed(&path, e))?;
            let format = match args.format.format.fixed() {
                Some(format) => format,
                None => Format::detect(&content).ok_or_else(|| {
                    CliError::failure(format!("{}: no known format", path.display()))
                })?,
            };
            let options = args.format.read_options()?;
            let (took, _) = fastest(args.repeat, || Ok(parse_only(&content, format, &options)))?;
            rows.push(("parse only (memory)".into(), took));
        }
        let (t_read, games) = fastest(args.repeat, || read_games(&path, args))?;
        rows.push((format!("read {games} games"), t_read));
        let baseline = rows.first().map(|(_, t)| t.as_secs_f64()).unwrap_or(1.0);
        let name = path.display().to_string();
        for (what, took) in rows {
            let secs = took.as_secs_f64();
            out.push_str(&format!(
                "{name:<29} {:<12} {mb:>10.1}  {what:<18} {secs:>8.3} {:>7.0} {:>10.2}\n",
                head.name(),
                mb / secs.max(1e-9),
                secs / baseline.max(1e-9),
            ));
        }
    }
    print_stdout(&out)
}
