//! `dicelens merge --partitions`: the analyses of consecutive partitions of one corpus (whole
//! files, and byte ranges of files, analysed with the same flags, each with `--seen-ids` the ids
//! of the partitions before it) merged into exactly the outputs of one `analyze` of the corpus:
//! every file byte for byte, and the leaderboard on stdout.

use super::analyze::{open_out, write_outputs};
use super::merge::{read_shards, Args, MERGE_REQUIRES};
use super::CliError;
use dicelens::aggregate::Parts;
use dicelens::corpus::{fingerprint, Summary};
use dicelens::merge::{merged_oracle, MergeError, Shard};
use dicelens::output::OutputDir;
use dicelens::report::csv::DECISION_COLUMNS;
use dicelens::report::AnalysisFiles;
use dicelens::store::games::{read_game_rows, GAME_COLUMNS};
use dicelens::store::summary::SummaryFile;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::Path;

/// Runs `dicelens merge --partitions DIRS... --out OUT`.
pub(crate) fn merge(args: &Args) -> Result<(), CliError> {
    let shards = read_shards(&args.dirs, Shard::read)?;
    let Some(first) = shards.first() else {
        return Err(CliError::flag("DIR", "at least one analysis directory"));
    };
    let settings = settings(first)?;
    for shard in shards.iter().skip(1) {
        let theirs = self::settings(shard)?;
        if let Some((field, ours, theirs)) = differing_field(&settings, &theirs) {
            return Err(CliError::failure(format!(
                "{} and {} were analysed differently ({field}: {ours} against {theirs}): \
                 partitions must be analysed with the same flags and the same dicelens",
                first.dir.display(),
                shard.dir.display(),
            )));
        }
    }
    // The oracle of every rule set some partition met (one that rated no game names none).
    let oracle = merged_oracle(&shards).map_err(CliError::failure)?;
    let decisions = with_decisions(&shards)?;
    check_partition(&shards)?;
    let mut out = open_out(&args.out)?;
    let mut summary = Summary::default();
    let mut aggregates = Parts::default();
    for shard in &shards {
        let overflow = |file, e| CliError::failure(MergeError::overflow(&shard.dir, file, e));
        aggregates
            .merge(&shard.aggregates)
            .map_err(|e| overflow("aggregates.json", e))?;
        shard
            .summary
            .add_to(&mut summary)
            .map_err(|e| overflow("summary.json", e))?;
    }
    summary.games_used = aggregates.games();
    concatenate(&shards, &mut out, "games.csv", GAME_COLUMNS)?;
    if decisions {
        concatenate(&shards, &mut out, "decisions.csv", DECISION_COLUMNS)?;
    }
    // Everything that says how the shards were rated, as they say it: the summary then has
    // exactly the fields of `analyze`'s.
    let summary_file = SummaryFile {
        oracle,
        ..first.summary.with_counts(&summary, &aggregates)
    };
    let files = AnalysisFiles {
        aggregates: &aggregates,
        summary: &summary,
        summary_file: &summary_file,
        games: None,
        min_games: args.min_games,
        top: args.leaderboard.top,
        worst: None,
        game_pages: None,
    };
    write_outputs(out, &files, args.leaderboard.json, &MERGE_REQUIRES)
}

/// The fields of a shard's `summary.json` that say how it was rated (all but the counts and the
/// oracle's description; see [`dicelens::report::summary::SummaryFile::settings`]). An error
/// for a summary that is not `analyze`'s (a merge of overlapping shards), or of another
/// dicelens version.
fn settings(shard: &Shard) -> Result<Vec<(&'static str, String)>, CliError> {
    let path = shard.dir.join("summary.json");
    let summary = &shard.summary;
    if summary.merged.is_some() {
        return Err(CliError::failure(format!(
            "{}: the output of a merge of overlapping analyses, not of `analyze`: --partitions \
             takes the outputs of `analyze` (or of `merge --partitions`)",
            shard.dir.display()
        )));
    }
    let version = env!("CARGO_PKG_VERSION");
    if summary.version != version {
        let theirs = if summary.version.is_empty() {
            "(no version)"
        } else {
            summary.version.as_str()
        };
        return Err(CliError::failure(format!(
            "{}: written by dicelens {theirs}, this is {version}: partitions must be analysed and \
             merged by the same dicelens",
            path.display(),
        )));
    }
    Ok(summary.settings())
}

/// The first field (in name order) that two shards' settings do not share, with both values.
fn differing_field<'a>(
    ours: &'a [(&'static str, String)],
    theirs: &'a [(&'static str, String)],
) -> Option<(&'static str, &'a str, &'a str)> {
    ours.iter()
        .zip(theirs)
        .find(|(a, b)| a.1 != b.1)
        .map(|(a, b)| (a.0, a.1.as_str(), b.1.as_str()))
}

/// Whether every shard has `decisions.csv` (`--decisions`); an error when some have it and some
/// do not.
fn with_decisions(shards: &[Shard]) -> Result<bool, CliError> {
    let has = |shard: &&Shard| shard.dir.join("decisions.csv").is_file();
    match (
        shards.iter().find(has),
        shards.iter().find(|shard| !has(shard)),
    ) {
        (Some(with), Some(without)) => Err(CliError::failure(format!(
            "{} has decisions.csv and {} has not: partitions must be analysed with the same \
             flags (--decisions)",
            with.dir.display(),
            without.dir.display()
        ))),
        (with, _) => Ok(with.is_some()),
    }
}

/// Checks that no game id is rated in two shards (or twice in one): partitions of one corpus,
/// each analysed with `--seen-ids`, rate each id once.
fn check_partition(shards: &[Shard]) -> Result<(), CliError> {
    let mut rated_in: HashMap<u128, usize> = HashMap::new();
    for (i, shard) in shards.iter().enumerate() {
        let mut twice: Option<(String, usize)> = None;
        read_game_rows(&shard.dir.join("games.csv"), |row| {
            if twice.is_none() {
                match rated_in.entry(fingerprint(&row.game_id)) {
                    std::collections::hash_map::Entry::Occupied(before) => {
                        twice = Some((row.game_id, *before.get()));
                    }
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        slot.insert(i);
                    }
                }
            }
        })
        .map_err(CliError::failure)?;
        if let Some((id, before)) = twice {
            return Err(CliError::failure(format!(
                "game {id} is rated in {} and in {}: these are not analyses of partitions of one \
                 corpus (analyse each partition with --seen-ids: the ids that `dicelens ids` \
                 prints for the partitions before it)",
                shards[before].dir.display(),
                shard.dir.display()
            )));
        }
    }
    Ok(())
}

/// Writes `name` in `out`: `header`, then the rows of every shard's `name` in shard order (each
/// checked to start with `header`, and copied as it is).
fn concatenate(
    shards: &[Shard],
    out: &mut OutputDir,
    name: &str,
    header: &str,
) -> Result<(), CliError> {
    let mut file = out.create(name).map_err(CliError::failure)?;
    let path = file.path().to_path_buf();
    let cannot_write =
        |e: std::io::Error| CliError::failure(format!("cannot write {}: {e}", path.display()));
    writeln!(file, "{header}").map_err(cannot_write)?;
    for shard in shards {
        append_rows(&shard.dir.join(name), header, &mut file, &path)?;
    }
    out.add(file.finish().map_err(CliError::failure)?);
    Ok(())
}

/// Copies the rows of the CSV file at `path` (after its first line, which must be `header`) to
/// `out` (the file `to`); an error if the file does not end with a line end (cut short).
fn append_rows(path: &Path, header: &str, out: &mut impl Write, to: &Path) -> Result<(), CliError> {
    let name = path.display();
    let failure = |what: String| CliError::failure(format!("{name}: {what}"));
    let file = std::fs::File::open(path).map_err(|e| failure(format!("cannot read: {e}")))?;
    let mut reader = std::io::BufReader::new(file);
    let mut first = String::new();
    reader
        .read_line(&mut first)
        .map_err(|e| failure(format!("cannot read: {e}")))?;
    if first.trim_end_matches(['\n', '\r']) != header {
        return Err(failure(format!(
            "line 1: expected the header {header}, found {:?}",
            first.trim_end()
        )));
    }
    let mut last = b'\n';
    loop {
        let chunk = reader
            .fill_buf()
            .map_err(|e| failure(format!("cannot read: {e}")))?;
        let Some(&end) = chunk.last() else { break };
        out.write_all(chunk)
            .map_err(|e| CliError::failure(format!("cannot write {}: {e}", to.display())))?;
        last = end;
        let len = chunk.len();
        reader.consume(len);
    }
    if last != b'\n' {
        return Err(failure("the last row is cut short (no line end)".into()));
    }
    Ok(())
}
