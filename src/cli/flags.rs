//! Flag groups shared by several commands (flattened into each command's flags), so that one
//! concept has one name, one value type and one help text everywhere. Values are parsed by
//! clap with the library's `FromStr` types; a bad value is reported by `main` as
//! `dicelens: --flag: why` with exit code 2.

use super::CliError;
use dicelens::corpus::{log_paths, InputFormat};
use dicelens::rate::OracleSpec;
use dicelens::rules::GameRules;
use dicelens_parsers::{Format, ReadOptions};
use std::fmt::Display;
use std::ops::Range;
use std::path::PathBuf;

/// The usage error of a number outside its range: `FLAG: expected WHAT from LEAST to MOST, got
/// VALUE`.
pub fn not_between(
    flag: &str,
    what: &str,
    least: impl Display,
    most: impl Display,
    got: impl Display,
) -> CliError {
    CliError::flag(
        flag,
        format!("expected {what} from {least} to {most}, got {got}"),
    )
}

/// The usage error of a number below its least value: `FLAG: expected WHAT of at least LEAST,
/// got VALUE`.
pub fn not_at_least(flag: &str, what: &str, least: impl Display, got: impl Display) -> CliError {
    CliError::flag(
        flag,
        format!("expected {what} of at least {least}, got {got}"),
    )
}

/// Parses `--min-games`: a whole number of games, at least 1 (a leaderboard of players with
/// no game means nothing).
pub fn parse_min_games(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("expected a number of games of at least 1, got 0".to_string()),
        Ok(games) => Ok(games),
        Err(_) => Err(format!(
            "expected a number of games of at least 1, got {text:?}"
        )),
    }
}

/// The log files of a run, and `--byte-range` to read the games of part of one.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LogFiles {
    /// The log files, directories of them, or `-` for standard input.
    #[arg(required = true, help = log_files_help())]
    pub files: Vec<PathBuf>,
    /// Only the games of the one FILE that begin in this byte range (END exclusive), as
    /// Hadoop input splits: adjacent ranges hold every game once. Not with a directory (a
    /// range is of one file).
    #[arg(long, value_name = "START:END")]
    pub byte_range: Option<String>,
}

impl LogFiles {
    /// The checked `--byte-range`, if given: of one file, which is not a directory (whose
    /// files would each be cut to the range).
    pub fn range(&self) -> Result<Option<Range<u64>>, CliError> {
        let Some(text) = self.byte_range.as_deref() else {
            return Ok(None);
        };
        let range = parse_byte_range(text, self.files.len())?;
        if let Some(dir) = self.files.iter().find(|f| f.is_dir()) {
            return Err(CliError::flag(
                "--byte-range",
                format!(
                    "a byte range is of one file, and {} is a directory (of any number of files)",
                    dir.display()
                ),
            ));
        }
        Ok(Some(range))
    }
}

/// Parses `--byte-range START:END`: byte offsets from the start of the file, `START <= END`,
/// END exclusive (it may lie past the end of the file). `files` is how many files were given:
/// a range is of one file.
pub fn parse_byte_range(text: &str, files: usize) -> Result<Range<u64>, CliError> {
    let flag = "--byte-range";
    if files != 1 {
        return Err(CliError::flag(
            flag,
            format!("a byte range is of one file, and {files} files are given"),
        ));
    }
    let expected = |what: &str| {
        CliError::flag(
            flag,
            format!("expected START:END (byte offsets, START <= END), found {text:?}: {what}"),
        )
    };
    let (start, end) = text.split_once(':').ok_or_else(|| expected("no `:`"))?;
    let number = |part: &str, name: &str| {
        part.parse::<u64>()
            .map_err(|_| expected(&format!("{name} {part:?} is not a whole number")))
    };
    let (start, end) = (number(start, "START")?, number(end, "END")?);
    if start > end {
        return Err(expected("START is after END"));
    }
    Ok(start..end)
}

/// `--tables DIR`: where the precomputed tables are read from (and written when built).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TablesFlag {
    /// Table directory (default: $DICELENS_TABLES, else ./tables).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}

/// How log files are read: `--format` and `--columns` (CSV), for a command of one file
/// (`validate`) as for those of many ([`FormatFlag`]).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ReadFlags {
    /// Input format (`auto`: recognised per file, or one of the formats the parsers read).
    #[arg(long, default_value = "auto", value_name = "FORMAT", help = input_format_help())]
    pub format: InputFormat,
    /// CSV tables: the header names of the columns, where they differ from the documented
    /// ones (docs/formats/csv.md), e.g. `game=match_id,box=category`.
    #[arg(long, value_name = "NAME=HEADER,...")]
    pub columns: Option<String>,
}

impl ReadFlags {
    /// The readers' settings (`--columns`).
    pub fn read_options(&self) -> Result<ReadOptions, CliError> {
        let mut options = ReadOptions::default();
        if let Some(text) = &self.columns {
            options.csv.columns = dicelens_parsers::csv::parse_columns(text)
                .map_err(|why| CliError::flag("--columns", why))?;
        }
        Ok(options)
    }
}

/// How log files are found and read: [`ReadFlags`], and `--glob` for the directories given.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct FormatFlag {
    #[command(flatten)]
    pub read: ReadFlags,
    /// Directories given are walked recursively for their files (sorted by path); with
    /// --glob, only the files whose path below the directory matches (repeatable, e.g.
    /// `--glob '*.ygn.gz'`). Files given by name are always read.
    #[arg(long, value_name = "PATTERN")]
    pub glob: Vec<String>,
}

impl FormatFlag {
    /// The readers' settings (`--columns`).
    pub fn read_options(&self) -> Result<ReadOptions, CliError> {
        self.read.read_options()
    }

    /// The log files `inputs` name: directories walked (see [`log_paths`]), `-` for standard
    /// input.
    pub fn paths(&self, inputs: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
        log_paths(inputs, &self.glob).map_err(|why| CliError::flag("--glob", why))
    }
}

/// The help of `--format` for input: every format the parsers read ([`Format::ALL`]).
fn input_format_help() -> String {
    format!(
        "Input format: auto (recognised per file), {}. gzip and zstd files are decompressed \
         whatever the format (recognised by content)",
        Format::list(&Format::ALL)
    )
}

/// The help of a list of log files: every format the parsers read ([`Format::ALL`]).
pub fn log_files_help() -> String {
    format!(
        "Log files ({}; gzip or zstd compressed or not), directories of them, or `-` for \
         standard input",
        Format::list(&Format::ALL)
    )
}

/// The help of an output format's flag (`convert --to`, `simulate --format`): the formats
/// games are written in ([`Format::WRITTEN`]).
pub fn output_format_help() -> String {
    format!("Output format: {}", Format::list(&Format::WRITTEN))
}

/// The names of `rules` as a sentence lists them, the first marked as the default.
pub fn rule_sets_help(what: &str, rules: impl Iterator<Item = &'static str>) -> String {
    let names: Vec<String> = rules
        .enumerate()
        .map(|(i, name)| {
            if i == 0 {
                format!("{name} (default)")
            } else {
                name.to_string()
            }
        })
        .collect();
    format!("{what}: {}", names.join(", "))
}

/// Which of the games read are rated: `--rules`, `--include-unfinished`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct GameFilter {
    /// Rate only games of this rule set (the others are counted as skipped).
    #[arg(long)]
    pub rules: Option<GameRules>,
    /// Rate games that ended early (abandoned, timeout, resigned) too.
    #[arg(long)]
    pub include_unfinished: bool,
}

impl GameFilter {
    /// How a run reads its logs with these flags and `format`'s (`range`: `--byte-range`); the
    /// oracle and tables are the defaults, for a run that rates to set.
    pub fn reading(
        &self,
        format: &FormatFlag,
        range: Option<Range<u64>>,
    ) -> Result<dicelens::pipeline::Options, CliError> {
        Ok(dicelens::pipeline::Options {
            format: format.read.format,
            read: format.read_options()?,
            range,
            replay: dicelens::replay::ReplayOptions {
                include_unfinished: self.include_unfinished,
            },
            only: self.rules,
            ..dicelens::pipeline::Options::default()
        })
    }
}

/// `--strict`: a skipped input file fails the run (`analyze`, `convert`, `player`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct StrictFlag {
    /// Fail (exit code 1, no output written) if any input file is skipped: unreadable, or of
    /// no format dicelens knows.
    #[arg(long)]
    pub strict: bool,
}

/// `--oracle SPEC`: how games of several players are rated.
#[derive(clap::Args, Clone, Debug)]
pub struct OracleFlag {
    /// Oracle for games of several players: `default` (= emp:1), `reference` (=
    /// emp:1/exact:8), `e`, or a spec: emp:D or dynw:D, then /exact:N and /exact-leaves
    /// (--help says more; docs/oracles.md).
    #[arg(long, default_value = "default", value_name = "SPEC", long_help = ORACLE_HELP)]
    pub oracle: OracleSpec,
}

/// The long help of `--oracle`: the specs, and the default's measured speed and distance from
/// the reference (PERFORMANCE.md, "Choosing the default oracle").
const ORACLE_HELP: &str = "\
How games of several players are rated; one-player games always get the solitaire oracle
(expected points). SPEC is one of:
  e               every player's solitaire expected score, ignoring the others (points)
  emp:D, dynw:D   expected match points by the 2008 thesis's search, D turns deep (0..=5)
  .../exact:N     two-player turns with at most N boxes free in all (N in 0..=12) valued
                  exactly; the search from earlier turns ends at its static evaluation
  .../exact-leaves  the positions that search reaches valued exactly too (within N): slower
  reference       emp:1/exact:8, the 2008 study's setting
  default         emp:1: the fastest setting measured to keep every player's error per game
                  within 0.002 match points of the reference's
Measured on this project's 2-core machine (PERFORMANCE.md), 2,000 simulated two-player games
each of yahtzee and yahtzee-kurnik: the default rates about 1,150 games/s end to end on
20,000 games (game pages and the screening's solitaire engine included), every player's error
per game within 0.0013 match points of the reference's; the reference about 100 games/s.
`dicelens bench oracles` measures any setting on your own games (docs/oracles.md).";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_games_is_at_least_one() {
        assert_eq!(parse_min_games("1"), Ok(1));
        assert_eq!(parse_min_games("500"), Ok(500));
        for text in ["0", "-1", "x", ""] {
            let error = parse_min_games(text).unwrap_err();
            assert!(error.contains("at least 1"), "{text}: {error}");
        }
    }

    #[test]
    fn byte_ranges_are_start_colon_end_of_one_file() {
        assert_eq!(parse_byte_range("0:10", 1), Ok(0..10));
        assert_eq!(parse_byte_range("7:7", 1), Ok(7..7));
        for (text, files, words) in [
            ("0:10", 2, "of one file, and 2 files"),
            ("10:3", 1, "START is after END"),
            ("a:3", 1, "START \"a\" is not a whole number"),
            ("3:-1", 1, "END \"-1\" is not a whole number"),
            ("310", 1, "no `:`"),
        ] {
            let error = parse_byte_range(text, files).unwrap_err();
            assert_eq!(error.code, 2);
            assert!(error.message.starts_with("--byte-range: "), "{error}");
            assert!(error.message.contains(words), "{error}");
        }
    }
}
