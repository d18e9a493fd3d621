//! `dicelens analyze`: rate every decision of a corpus and write the leaderboard, per-player
//! and per-turn statistics, the summary, and the mergeable aggregates.

use super::{notice, print_stdout, CliError};
use dicelens::aggregate::Aggregates;
use dicelens::corpus::{CorpusReader, Location, Summary};
use dicelens::rate::{
    rate_game, MatchOracle, Oracle, OracleSpec, Rated, SolitaireOracle, Thresholds, TurnCache,
};
use dicelens::replay::{ReplayOptions, Replayed};
use dicelens::report;
use dicelens::rules::RuleSet;
use dicelens::tables::{load_dist, load_expected, table_dir};
use dicelens_parsers::GameRecord;
use rayon::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Games read before a batch is rated in parallel (bounds memory whatever the corpus size).
pub(crate) const BATCH: usize = 4096;
/// Games one worker rates into one partial aggregate.
const CHUNK: usize = 128;

/// The flags of `dicelens analyze`.
#[derive(Clone, Debug)]
pub struct AnalyzeArgs {
    /// Log files.
    pub files: Vec<PathBuf>,
    /// `--byte-range START:END`, as given: only the games of the one file that begin in it.
    pub byte_range: Option<String>,
    /// `--seen-ids FILE`: ids counted as seen before the first game (CSV that `ids` prints).
    pub seen_ids: Option<PathBuf>,
    /// Least games for the leaderboard.
    pub min_games: u64,
    /// Only games of this rule set.
    pub rules: Option<String>,
    /// Input format (`auto`).
    pub format: String,
    /// Output directory.
    pub out: PathBuf,
    /// Leaderboard lines printed.
    pub top: usize,
    /// Write `decisions.csv`.
    pub decisions: bool,
    /// Print the leaderboard as JSON.
    pub json: bool,
    /// Rate unfinished games too.
    pub include_unfinished: bool,
    /// Table directory.
    pub tables: Option<PathBuf>,
    /// How games are rated.
    pub oracle: OracleSpec,
}

thread_local! {
    /// Each worker thread's turn evaluations, kept across batches.
    static CACHE: RefCell<TurnCache> = RefCell::new(TurnCache::default());
}

/// The oracle with its tables loaded on demand, per rule set: expected scores for every game,
/// distributions for the games of several players when the method needs them (shared by
/// `analyze`, `player` and `merge`).
pub(crate) struct Tables {
    /// The oracle over the tables loaded so far.
    pub(crate) oracle: MatchOracle,
    dir: PathBuf,
    loaded: Vec<RuleSet>,
    dists_loaded: Vec<RuleSet>,
}

impl Tables {
    /// No table loaded yet; tables come from `dir` (default: $DICELENS_TABLES, else ./tables).
    pub(crate) fn new(dir: Option<&Path>, spec: OracleSpec) -> Tables {
        let solitaire = SolitaireOracle::new(HashMap::new());
        Tables {
            oracle: MatchOracle::new(solitaire, spec),
            dir: table_dir(dir),
            loaded: Vec::new(),
            dists_loaded: Vec::new(),
        }
    }

    /// Loads the tables every game of `batch` needs and that are not loaded yet (building them
    /// if missing).
    pub(crate) fn load_for(&mut self, batch: &[(GameRecord, Replayed)]) {
        for (_, replayed) in batch {
            let Some(rules) = replayed.rules else {
                continue;
            };
            if !self.loaded.contains(&rules) {
                let (table, _) = load_expected(&self.dir, rules, &notice);
                self.oracle
                    .solitaire
                    .add_table(rules, table.values().to_vec());
                self.loaded.push(rules);
            }
            let several = replayed.seats > 1;
            if several && self.oracle.needs_dists() && !self.dists_loaded.contains(&rules) {
                let (table, _) = load_dist(&self.dir, rules, &notice);
                self.oracle.add_dists(rules, table);
                self.dists_loaded.push(rules);
            }
        }
    }
}

/// Games waiting to be rated. A game is swapped into a slot, and the slot's previous record
/// goes back to the reader to be refilled: no game is copied and no allocation is repeated.
#[derive(Default)]
pub(crate) struct GameBatch {
    slots: Vec<(GameRecord, Replayed)>,
    len: usize,
}

impl GameBatch {
    /// Takes `game` and its replay (leaving the contents of a used slot in their place).
    pub(crate) fn take(&mut self, game: &mut GameRecord, replayed: &mut Replayed) {
        if self.len == self.slots.len() {
            self.slots.push(Default::default());
        }
        let slot = &mut self.slots[self.len];
        std::mem::swap(&mut slot.0, game);
        std::mem::swap(&mut slot.1, replayed);
        self.len += 1;
    }

    /// Whether the batch holds [`BATCH`] games.
    pub(crate) fn is_full(&self) -> bool {
        self.len >= BATCH
    }

    /// The games taken since the last [`GameBatch::clear`].
    pub(crate) fn games(&self) -> &[(GameRecord, Replayed)] {
        &self.slots[..self.len]
    }

    /// Empties the batch (its slots stay allocated).
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }
}

/// Whether a game of rule set `rules` is rated when only rule set `only` (if any) is wanted;
/// if not, the game is recorded in `not_rated`.
pub(crate) fn wanted_rule_set(
    only: Option<RuleSet>,
    game: &GameRecord,
    rules: Option<RuleSet>,
    not_rated: &mut Vec<(String, Location)>,
) -> bool {
    match (only, rules) {
        (Some(only), Some(r)) if only != r => {
            let location = Location {
                file: game.provenance.file.clone(),
                line: game.provenance.line,
                game_id: Some(game.provenance.game_id.clone()),
                detail: format!("rule set {r}, not {only}"),
            };
            not_rated.push(("other rule set".into(), location));
            false
        }
        _ => true,
    }
}

/// A CSV file an analysis writes batch by batch, so the rows of a large corpus are never all
/// in memory; the first write error is kept and reported at the end.
struct CsvFile {
    path: PathBuf,
    out: std::io::BufWriter<std::fs::File>,
    error: Option<String>,
}

impl CsvFile {
    /// Creates `dir/name` and writes `header` (a line without its newline).
    fn create(dir: &Path, name: &str, header: &str) -> Result<CsvFile, CliError> {
        let path = dir.join(name);
        let file = std::fs::File::create(&path)
            .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))?;
        let mut csv = CsvFile {
            path,
            out: std::io::BufWriter::new(file),
            error: None,
        };
        csv.write(&format!("{header}\n"));
        Ok(csv)
    }

    /// Appends rows (whole lines).
    fn write(&mut self, rows: &str) {
        use std::io::Write;
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(rows.as_bytes()) {
                self.error = Some(format!("cannot write {}: {e}", self.path.display()));
            }
        }
    }

    /// Flushes the file; the first error met, if any.
    fn finish(mut self) -> Result<(), CliError> {
        use std::io::Write;
        if let (None, Err(e)) = (&self.error, self.out.flush()) {
            self.error = Some(format!("cannot write {}: {e}", self.path.display()));
        }
        self.error.map_or(Ok(()), |e| Err(CliError::failure(e)))
    }
}

/// The state of a running analysis.
struct Analysis {
    tables: Tables,
    thresholds: Thresholds,
    aggregates: Aggregates,
    not_rated: Vec<(String, Location)>,
    /// `games.csv`.
    games: CsvFile,
    /// `decisions.csv`, with `--decisions`.
    decisions: Option<CsvFile>,
    /// Games handed to the oracle with one player, and with several.
    solo_games: u64,
    multi_games: u64,
}

impl Analysis {
    /// Rates a batch of replayed games and adds them to the aggregates, `games.csv` and (with
    /// `--decisions`) `decisions.csv`; the rows are made in parallel and written in game order.
    fn flush(&mut self, batch: &mut GameBatch) {
        self.tables.load_for(batch.games());
        for (_, replayed) in batch.games() {
            match replayed.seats {
                1 => self.solo_games += 1,
                _ => self.multi_games += 1,
            }
        }
        let want_decisions = self.decisions.is_some();
        let mut parts: Vec<(String, String)> = Vec::new();
        rate_batch(
            &self.tables.oracle,
            batch.games(),
            self.thresholds,
            |_, game, rated, (games, decisions): &mut (String, String)| {
                let p = &game.provenance;
                game_row(games, &p.game_id, &p.file, p.line);
                if want_decisions {
                    decision_rows(decisions, game, rated);
                }
            },
            &mut self.aggregates,
            &mut self.not_rated,
            |part| parts.push(part),
        );
        for (games, decisions) in parts {
            self.games.write(&games);
            if let Some(out) = self.decisions.as_mut() {
                out.write(&decisions);
            }
        }
        batch.clear();
    }
}

/// Rates a batch of replayed games in parallel, in chunks: each chunk gives a partial
/// aggregate, what `per_game(index, game, rated, collection)` gathered, and the games the oracle
/// could not rate. Chunks are then taken in order: aggregates merged into `aggregates`,
/// collections handed to `collect`, unrated games added to `not_rated`.
pub(crate) fn rate_batch<T: Default + Send>(
    oracle: &MatchOracle,
    batch: &[(GameRecord, Replayed)],
    thresholds: Thresholds,
    per_game: impl Fn(usize, &GameRecord, &[Rated], &mut T) + Sync,
    aggregates: &mut Aggregates,
    not_rated: &mut Vec<(String, Location)>,
    mut collect: impl FnMut(T),
) {
    let parts: Vec<(Aggregates, T, Vec<usize>)> = batch
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            CACHE.with(|cache| {
                let mut cache = cache.borrow_mut();
                cache.serve(oracle.id());
                let mut agg = Aggregates::default();
                let mut gathered = T::default();
                let mut failed = Vec::new();
                let mut rated = Vec::new();
                for (i, (game, replayed)) in chunk.iter().enumerate() {
                    if rate_game(oracle, replayed, &thresholds, &mut cache, &mut rated).is_none() {
                        failed.push(c * CHUNK + i);
                        continue;
                    }
                    agg.add_game(
                        &game.rules,
                        &game.players,
                        game.provenance.date.as_deref(),
                        &rated,
                    );
                    per_game(c * CHUNK + i, game, &rated, &mut gathered);
                }
                (agg, gathered, failed)
            })
        })
        .collect();
    for (agg, gathered, failed) in parts {
        aggregates.merge(&agg);
        collect(gathered);
        for i in failed {
            let game = &batch[i].0;
            let location = Location {
                file: game.provenance.file.clone(),
                line: game.provenance.line,
                game_id: Some(game.provenance.game_id.clone()),
                detail: "a decision the oracle cannot value".into(),
            };
            not_rated.push(("not rated by the oracle".into(), location));
        }
    }
}

/// Header of `games.csv` (documented in docs/formats/analysis.md).
pub const GAME_COLUMNS: &str = "game_id,file,line";

/// Appends the `games.csv` row of one rated game: its id, the log it came from, its first line.
pub(crate) fn game_row(out: &mut String, game_id: &str, file: &str, line: u32) {
    out.push_str(&report::csv_field(game_id));
    out.push(',');
    out.push_str(&report::csv_field(file));
    out.push(',');
    out.push_str(&line.to_string());
    out.push('\n');
}

/// Header of `decisions.csv` (documented in docs/formats/analysis.md).
pub const DECISION_COLUMNS: &str =
    "game,player,seat,round,roll,dice,choice,value,best,best_value,error,luck,forced,class";

/// Appends one CSV row per rated decision of a game.
fn decision_rows(out: &mut String, game: &GameRecord, rated: &[Rated]) {
    use std::fmt::Write;
    for r in rated {
        let d = &r.decision;
        let player = game
            .players
            .get(usize::from(d.seat))
            .map_or("", String::as_str);
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{:.9},{},{:.9},{:.9},{:.9},{},{}",
            report::csv_field(&game.provenance.game_id),
            player,
            d.seat + 1,
            d.round,
            d.roll_number,
            d.dice,
            d.choice,
            r.chosen,
            r.best_choice,
            r.best,
            r.error,
            r.luck,
            r.forced,
            r.class
        );
    }
}

/// `summary.json`: what was read, rated and skipped (every skipped game with its reason and
/// location), the oracle, the tool version and the rule sets.
fn summary_json(
    summary: &Summary,
    aggregates: &Aggregates,
    oracle: &str,
    thresholds: &Thresholds,
    extra: &serde_json::Map<String, serde_json::Value>,
) -> String {
    let mut json = summary_counts(summary, aggregates);
    json.extend([
        ("tool".to_string(), "dicelens".into()),
        ("version".to_string(), env!("CARGO_PKG_VERSION").into()),
        ("oracle".to_string(), oracle.into()),
        (
            "thresholds".to_string(),
            serde_json::json!({ "doubtful": thresholds.doubtful, "error": thresholds.error, "blunder": thresholds.blunder }),
        ),
    ]);
    json.extend(extra.iter().map(|(k, v)| (k.clone(), v.clone())));
    serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"
}

/// The fields of `summary.json` that count what a run read and rated; the others say how it
/// rated (tool and version, oracle, thresholds, the oracle's parameters).
pub(crate) fn summary_counts(
    summary: &Summary,
    aggregates: &Aggregates,
) -> serde_json::Map<String, serde_json::Value> {
    let json = serde_json::json!({
        "games_read": summary.games_read,
        "games_rated": aggregates.games,
        "games_skipped": summary.skipped_count(),
        "skipped": summary.skipped,
        "files_skipped": summary.files_skipped,
        "rule_sets": aggregates.rule_sets,
        "decisions": aggregates.all.decisions,
        "players": aggregates.players.len(),
    });
    match json {
        serde_json::Value::Object(fields) => fields,
        _ => serde_json::Map::new(),
    }
}

fn write(dir: &Path, name: &str, content: &str) -> Result<(), CliError> {
    let path = dir.join(name);
    std::fs::write(&path, content)
        .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))
}

/// The checked `--format` (`None`: recognised per file) and `--rules` (`None`: every rule set)
/// of the commands that read a corpus.
pub(crate) fn format_and_rules(
    format: &str,
    rules: Option<&str>,
) -> Result<(Option<dicelens_parsers::Format>, Option<RuleSet>), CliError> {
    let format = super::convert::input_format("--format", format)?;
    let only = rules
        .map(|r| r.parse().map_err(|e| CliError::flag("--rules", e)))
        .transpose()?;
    Ok((format, only))
}

/// Runs `dicelens analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<(), CliError> {
    let (format, only) = format_and_rules(&args.format, args.rules.as_deref())?;
    let range = args
        .byte_range
        .as_deref()
        .map(|text| super::ids::parse_byte_range(text, args.files.len()))
        .transpose()?;
    let mut reader = CorpusReader::new(ReplayOptions {
        include_unfinished: args.include_unfinished,
    });
    if let Some(path) = &args.seen_ids {
        super::ids::read_seen_ids(path, |id| reader.mark_seen(id))?;
    }
    std::fs::create_dir_all(&args.out)
        .map_err(|e| CliError::failure(format!("cannot create {}: {e}", args.out.display())))?;
    let mut analysis = Analysis {
        tables: Tables::new(args.tables.as_deref(), args.oracle),
        thresholds: Thresholds::default(),
        aggregates: Aggregates::default(),
        not_rated: Vec::new(),
        games: CsvFile::create(&args.out, "games.csv", GAME_COLUMNS)?,
        decisions: if args.decisions {
            Some(CsvFile::create(
                &args.out,
                "decisions.csv",
                DECISION_COLUMNS,
            )?)
        } else {
            None
        },
        solo_games: 0,
        multi_games: 0,
    };
    let bar = indicatif::ProgressBar::new(args.files.len() as u64);
    let mut batch = GameBatch::default();
    for path in &args.files {
        let unread = reader.read_path_in(path, format, range.clone(), |game, replayed| {
            if wanted_rule_set(only, game, replayed.rules, &mut analysis.not_rated) {
                batch.take(game, replayed);
                if batch.is_full() {
                    analysis.flush(&mut batch);
                }
            }
        });
        if let Some(why) = unread {
            // A whole-file run would count the file as skipped (the range at its first byte
            // does); a later range fails, so that it is run again rather than its games lost.
            return Err(CliError::failure(format!(
                "{why}: the byte range cannot be read (run it again once the file is readable)"
            )));
        }
        bar.inc(1);
    }
    analysis.flush(&mut batch);
    bar.finish_and_clear();
    if args.oracle.is_match_points() && analysis.solo_games > 0 && analysis.multi_games > 0 {
        notice(&format!(
            "warning: {} one-player games are rated in expected points and {} games of several \
             players in expected match points; a player with both has totals in mixed units: \
             analyse those logs apart (or use --oracle e)",
            analysis.solo_games, analysis.multi_games
        ));
    }
    let mut summary = reader.summary;
    summary.games_used -= analysis.not_rated.len() as u64;
    for (reason, location) in analysis.not_rated.drain(..) {
        summary.skip(&reason, location);
    }
    analysis.games.finish()?;
    if let Some(decisions) = analysis.decisions {
        decisions.finish()?;
    }
    let oracle = analysis.tables.oracle.describe();
    // Freeing tens of thousands of cached turn evaluations takes a noticeable part of a
    // short run; let another thread do it (or the process's exit).
    let tables = std::mem::replace(
        &mut analysis.tables,
        Tables::new(args.tables.as_deref(), args.oracle),
    );
    std::thread::spawn(move || drop(tables));
    write_outputs(
        &args.out,
        &Outputs {
            aggregates: &analysis.aggregates,
            summary: &summary,
            oracle: &oracle,
            thresholds: &analysis.thresholds,
            games: None,
            summary_extra: oracle_fields(args.oracle),
        },
        &OutputOptions {
            min_games: args.min_games,
            top: args.top,
            json: args.json,
        },
    )
}

/// `summary.json` fields naming the oracle's spec and, for a match-point oracle, the class
/// thresholds of the games it rated in match points.
fn oracle_fields(spec: OracleSpec) -> serde_json::Map<String, serde_json::Value> {
    let mut fields = serde_json::Map::new();
    fields.insert("oracle_spec".into(), spec.to_string().into());
    if spec.is_match_points() {
        let t = Thresholds::MATCH_POINTS;
        fields.insert(
            "match_point_thresholds".into(),
            serde_json::json!({ "doubtful": t.doubtful, "error": t.error, "blunder": t.blunder }),
        );
    }
    fields
}

/// What an analysis writes: the aggregates and everything around them.
pub(crate) struct Outputs<'a> {
    /// The merged statistics every output is computed from.
    pub(crate) aggregates: &'a Aggregates,
    /// Games read and skipped (`summary.json`, the report's corpus section).
    pub(crate) summary: &'a Summary,
    /// The oracle's description.
    pub(crate) oracle: &'a str,
    /// The class thresholds the decisions were rated with.
    pub(crate) thresholds: &'a Thresholds,
    /// `games.csv` rows (without the header); `None` if the file is written already.
    pub(crate) games: Option<&'a str>,
    /// Further `summary.json` fields.
    pub(crate) summary_extra: serde_json::Map<String, serde_json::Value>,
}

/// How the leaderboard is cut and printed.
pub(crate) struct OutputOptions {
    /// Least games for the leaderboard.
    pub(crate) min_games: u64,
    /// Leaderboard lines printed (and in the HTML report).
    pub(crate) top: usize,
    /// Print the leaderboard as JSON.
    pub(crate) json: bool,
}

/// Writes every output of an analysis into `dir` (`players.csv`, `leaderboard.csv`,
/// `rounds.csv`, `summary.json`, `aggregates.json`, `games.csv` when its rows are given,
/// `report.html`), reports the summary on stderr and prints the leaderboard on stdout
/// (shared by `analyze` and `merge`).
pub(crate) fn write_outputs(
    dir: &Path,
    outputs: &Outputs,
    options: &OutputOptions,
) -> Result<(), CliError> {
    let Outputs {
        aggregates,
        summary,
        oracle,
        thresholds,
        ..
    } = *outputs;
    let board = report::leaderboard(aggregates, options.min_games);
    write(dir, "players.csv", &report::players_csv(aggregates))?;
    write(dir, "leaderboard.csv", &report::leaderboard_csv(&board))?;
    write(dir, "rounds.csv", &report::rounds_csv(aggregates))?;
    write(
        dir,
        "summary.json",
        &summary_json(
            summary,
            aggregates,
            oracle,
            thresholds,
            &outputs.summary_extra,
        ),
    )?;
    let aggregates_json = serde_json::to_string(aggregates)
        .map_err(|e| CliError::failure(format!("cannot encode the aggregates: {e}")))?;
    write(dir, "aggregates.json", &(aggregates_json + "\n"))?;
    if let Some(rows) = outputs.games {
        write(dir, "games.csv", &format!("{GAME_COLUMNS}\n{rows}"))?;
    }
    let match_points = outputs.summary_extra.contains_key("match_point_thresholds");
    let html = report::html::report_html(
        aggregates,
        &board,
        summary,
        oracle,
        report::Unit::of(match_points, aggregates),
        options.min_games,
        options.top,
    );
    write(dir, "report.html", &html)?;
    notice(summary.report().trim_end());
    if options.json {
        let rows: Vec<serde_json::Value> = board
            .iter()
            .take(options.top)
            .map(|r| {
                let (lo, hi) = r.stats.error_per_game_ci();
                serde_json::json!({
                    "rank": r.rank, "player": r.name, "games": r.stats.games,
                    "error_per_game": r.stats.error_per_game(), "ci95": [lo, hi],
                    "error_per_decision": r.stats.all.error_per_decision(),
                    "doubtful": r.stats.all.classes[1], "errors": r.stats.all.classes[2],
                    "blunders": r.stats.all.classes[3],
                })
            })
            .collect();
        let json = serde_json::json!({ "oracle": oracle, "min_games": options.min_games, "leaderboard": rows });
        print_stdout(&(serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"))
    } else {
        print_stdout(&report::leaderboard_text(
            &board,
            options.top,
            oracle,
            options.min_games,
        ))
    }
}
