//! `dicelens bench read`: how fast logs are read, timed in one run beside the baselines that
//! bound it: for a compressed file, the system's own decompressor (`zcat`, `zstdcat`) writing
//! to nothing, the decompression alone as `dicelens` does it, and the parsing alone of the
//! decompressed content held in memory; then reading every game (decompression, format,
//! parse; no replay). Best of `--repeat` runs each. What compressed input costs is the read's
//! time less the parsing alone.

use super::flags::FormatFlag;
use super::{print_stdout, CliError};
use dicelens::workflow::bench::read::read_times;
use std::path::PathBuf;

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
    let options = args.format.read_options()?;
    for path in args.format.paths(&args.files)? {
        let times = read_times(&path, args.format.read.format, &options, args.repeat)
            .map_err(CliError::failure)?;
        let (head, rows) = (times.compression, times.rows);
        let mb = times.content_bytes as f64 / 1e6;
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
