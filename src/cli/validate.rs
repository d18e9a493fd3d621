//! `dicelens validate`: one game settled. First the legality verdict (the first rule the game
//! breaks, where, what the log says and what the rules give); then every decision rated, one
//! line per roll in the manner of Verhoeff's analysis table; then per-player totals.
//!
//! Exit codes: 0 legal, 1 illegal (a rule broken, or a syntax error in the game), 2 usage error.

use super::convert::input_format;
use super::{notice, print_stdout, CliError};
use dicelens::corpus::LogFile;
use dicelens::dice::Dice;
use dicelens::rate::{
    rate_game, Class, MatchOracle, Oracle, Rated, SolitaireOracle, Thresholds, TurnCache,
};
use dicelens::replay::{replay, ReplayOptions, Replayed, Skip, Violation};
use dicelens::rules::{Choice, Family, RuleSet, Sheet, UPPER_THRESHOLD};
use dicelens::tables::{load_dist, load_expected, table_dir};
use dicelens_parsers::{GameRecord, ParseError, Termination};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write;
use std::path::PathBuf;

/// The flags of `dicelens validate`.
#[derive(Clone, Debug)]
pub struct ValidateArgs {
    /// The log file.
    pub file: PathBuf,
    /// Id of the game to validate (needed when the file holds several games).
    pub game: Option<String>,
    /// Input format: `auto`, `ygn`, `verhoeff` or `jsonl`.
    pub format: String,
    /// Print one JSON object instead of text.
    pub json: bool,
    /// Table directory.
    pub tables: Option<PathBuf>,
    /// How games are rated (`--oracle`).
    pub oracle: dicelens::rate::OracleSpec,
}

/// Game ids listed in usage errors before `...`.
const IDS_LISTED: usize = 5;

/// A usage error that is about the input, not one flag (exit code 2).
fn usage(message: impl Into<String>) -> CliError {
    CliError {
        code: 2,
        message: message.into(),
    }
}

/// The id of a game that did not parse: its own when known, else `FILE:LINE`.
fn error_game_id(e: &ParseError) -> String {
    e.game_id
        .clone()
        .unwrap_or_else(|| format!("{}:{}", e.file, e.game_line))
}

/// `a, b, c, ...`: the first few ids.
fn list_ids(ids: &[String], total: usize) -> String {
    let mut text = ids.join(", ");
    if total > ids.len() {
        text.push_str(", ...");
    }
    text
}

/// Finds the game to validate: the one with id `wanted`, or the only game of the file.
fn pick_game(
    file: &LogFile,
    wanted: Option<&str>,
) -> Result<(Result<GameRecord, ParseError>, usize), CliError> {
    let mut count = 0usize;
    let mut first_ids = Vec::new();
    let mut chosen = None;
    let mut matches = 0usize;
    file.for_each_game(|result| {
        count += 1;
        let id = match &result {
            Ok(game) => game.provenance.game_id.clone(),
            Err(e) => error_game_id(e),
        };
        let take = match wanted {
            Some(w) => id == w,
            None => count == 1,
        };
        if take {
            matches += 1;
            if chosen.is_none() {
                chosen = Some(result.cloned());
            }
        }
        if first_ids.len() < IDS_LISTED {
            first_ids.push(id);
        }
    });
    let name = file.path().display();
    let games = |n: usize| format!("{n} game{}", if n == 1 { "" } else { "s" });
    match (wanted, chosen) {
        (_, None) if count == 0 => Err(usage(format!("{name} holds no game"))),
        (Some(w), None) => Err(CliError::flag(
            "--game",
            format!(
                "no game '{w}' in {name}; it has {}: {}",
                games(count),
                list_ids(&first_ids, count)
            ),
        )),
        (None, _) if count > 1 => Err(usage(format!(
            "{name} has {}: {}; choose one with --game ID",
            games(count),
            list_ids(&first_ids, count)
        ))),
        (_, Some(game)) => Ok((game, matches)),
        (None, None) => Err(usage(format!("{name} holds no game"))),
    }
}

/// The sheet as Verhoeff writes it (`_2__5_TF__LYC;15-`: a mask over `123456TFHSLYC` with `_`
/// for a used box, the upper points still needed, `+` when the Yahtzee box holds 50); Yatzy
/// sheets, which his notation does not cover, as their filled box codes.
pub fn sheet_state(sheet: &Sheet) -> String {
    const LETTERS: &[u8; 13] = b"123456TFHSLYC";
    match sheet.rules.family() {
        Family::American => {
            let mask: String = LETTERS
                .iter()
                .enumerate()
                .map(|(b, &letter)| {
                    if sheet.filled & (1 << b) != 0 {
                        '_'
                    } else {
                        char::from(letter)
                    }
                })
                .collect();
            format!(
                "{mask};{:>2}{}",
                UPPER_THRESHOLD - sheet.capped_upper(),
                if sheet.yahtzee_50 { '+' } else { '-' }
            )
        }
        Family::Scandinavian => sheet.filled_codes(),
    }
}

/// A choice as printed: `keep 234`, `keep -`, or `score LS=40` with the points the box gets.
fn choice_text(sheet: &Sheet, dice: &Dice, choice: Choice) -> String {
    if let Choice::Score(category) = choice {
        let scored = sheet
            .rules
            .box_of(category)
            .and_then(|b| sheet.score(dice, b));
        if let Some(s) = scored {
            return format!("score {category}={}", s.points);
        }
    }
    choice.to_string()
}

/// A violation in the JSON output.
#[derive(Serialize)]
struct JsonViolation {
    rule: &'static str,
    line: u32,
    round: Option<u16>,
    player: Option<String>,
    says: String,
    rules_give: String,
    message: String,
}

/// A syntax error in the JSON output.
#[derive(Serialize)]
struct JsonSyntax {
    file: String,
    line: u32,
    column: u32,
    game_id: Option<String>,
    expected: String,
    found: String,
    message: String,
}

/// One rated decision in the JSON output.
#[derive(Serialize)]
struct JsonDecision {
    round: u16,
    player: String,
    seat: u8,
    roll_number: u8,
    rolls_left: u8,
    state: String,
    upper: u32,
    points: u32,
    dice: String,
    choice: String,
    value: f64,
    best: String,
    best_value: f64,
    loss: f64,
    luck: f64,
    forced: bool,
    class: &'static str,
    marker: &'static str,
}

/// Counts of decisions per class.
#[derive(Clone, Copy, Default, Serialize)]
struct ClassCounts {
    fine: u64,
    doubtful: u64,
    error: u64,
    blunder: u64,
}

impl ClassCounts {
    fn add(&mut self, class: Class) {
        match class {
            Class::Fine => self.fine += 1,
            Class::Doubtful => self.doubtful += 1,
            Class::Error => self.error += 1,
            Class::Blunder => self.blunder += 1,
        }
    }
}

/// One player's totals over the rated decisions.
#[derive(Clone, Serialize)]
struct PlayerTotals {
    player: String,
    seat: usize,
    decisions: u64,
    forced: u64,
    total_error: f64,
    error_per_decision: Option<f64>,
    classes: ClassCounts,
    luck: f64,
    /// Points on the sheet: the final total, or where the replay stopped.
    points: Option<u32>,
    /// The game's `Result` for this player, when the log gives one.
    result: Option<u32>,
}

/// Severity thresholds in the JSON output.
#[derive(Serialize)]
struct JsonThresholds {
    doubtful: f64,
    error: f64,
    blunder: f64,
}

/// Everything `validate` reports, in the order it is printed.
#[derive(Serialize)]
struct Report {
    file: String,
    format: String,
    game: String,
    /// `legal` or `illegal`.
    verdict: &'static str,
    violation: Option<JsonViolation>,
    syntax_error: Option<JsonSyntax>,
    rules: Option<String>,
    players: Vec<String>,
    termination: Option<&'static str>,
    turns: usize,
    complete: bool,
    /// Whether `points` are final totals.
    points_final: bool,
    oracle: Option<String>,
    /// Unit of values and errors: `points`, or `match points` for games of several players
    /// rated in match points.
    unit: &'static str,
    thresholds: JsonThresholds,
    /// Decisions the replay produced (for an illegal game, those before the violation).
    decisions_replayed: usize,
    /// Why some or all of them are not rated, if so.
    not_rated: Option<String>,
    decisions: Vec<JsonDecision>,
    totals: Vec<PlayerTotals>,
    result: Option<Vec<u32>>,
}

/// Runs `dicelens validate`: prints the report; an illegal game gives an error of code 1.
pub fn run(args: &ValidateArgs) -> Result<(), CliError> {
    let format = input_format("--format", &args.format)?;
    let file = LogFile::open(&args.file, format).map_err(|e| usage(e.to_string()))?;
    let (chosen, matches) = pick_game(&file, args.game.as_deref())?;
    if matches > 1 {
        notice(&format!(
            "{matches} games of {} have this id; the first is validated",
            file.path().display()
        ));
    }
    let thresholds = Thresholds::default();
    let mut report = Report {
        file: file.path().display().to_string(),
        format: file.format().to_string(),
        game: String::new(),
        verdict: "legal",
        violation: None,
        syntax_error: None,
        rules: None,
        players: Vec::new(),
        termination: None,
        turns: 0,
        complete: false,
        points_final: false,
        oracle: None,
        unit: "points",
        thresholds: JsonThresholds {
            doubtful: thresholds.doubtful,
            error: thresholds.error,
            blunder: thresholds.blunder,
        },
        decisions_replayed: 0,
        not_rated: None,
        decisions: Vec::new(),
        totals: Vec::new(),
        result: None,
    };
    let game = match chosen {
        Ok(game) => game,
        Err(e) => {
            report.game = error_game_id(&e);
            report.verdict = "illegal";
            report.not_rated = Some("the game does not parse".into());
            report.syntax_error = Some(JsonSyntax {
                file: e.file.clone(),
                line: e.line,
                column: e.column,
                game_id: e.game_id.clone(),
                expected: e.expected.clone(),
                found: e.found.clone(),
                message: e.to_string(),
            });
            let text = format!(
                "verdict: ILLEGAL: syntax error: {e}\ngame {}: {} ({}): not rated, the game does not parse\n",
                report.game, report.file, report.format
            );
            return finish(&report, text, args.json);
        }
    };
    report.game = game.provenance.game_id.clone();
    report.players = game.players.clone();
    report.termination = Some(game.termination.as_str());
    report.turns = game.turns.len();
    report.result = game.result.clone();

    let mut replayed = Replayed::default();
    let options = ReplayOptions {
        include_unfinished: true,
    };
    // On a broken rule the replay stops there, and `replayed.decisions` holds every decision
    // before it (those of the breaking turn that came before the bad roll included).
    let violation = match replay(&game, options, &mut replayed) {
        Ok(()) => None,
        Err(Skip::Invalid(v)) => Some(v),
        // Not returned when unfinished games are included; an unfinished game is legal.
        Err(Skip::Unfinished(_)) => None,
    };
    if let Some(v) = &violation {
        report.verdict = "illegal";
        report.violation = Some(JsonViolation {
            rule: v.rule.name(),
            line: v.line,
            round: v.round,
            player: v.player.clone(),
            says: v.says.clone(),
            rules_give: v.rules_give.clone(),
            message: v.to_string(),
        });
    }
    report.rules = replayed.rules.map(|r| r.name().to_string());
    report.complete = replayed.complete;
    report.points_final = violation.is_none();
    report.decisions_replayed = replayed.decisions.len();

    // Games of several players rated in match points are classified in that unit.
    let multi = replayed.seats > 1 && args.oracle.is_match_points();
    let thresholds = if multi {
        Thresholds::MATCH_POINTS
    } else {
        thresholds
    };
    if multi {
        report.unit = "match points";
    }
    report.thresholds = JsonThresholds {
        doubtful: thresholds.doubtful,
        error: thresholds.error,
        blunder: thresholds.blunder,
    };
    let rated = rate(args, &replayed, &thresholds, &mut report);
    report.decisions = rated.iter().map(|r| json_decision(&game, r)).collect();
    report.totals = totals(&game, &replayed, &rated);
    let text = text_report(&report, violation.as_ref(), &replayed, &game, &rated);
    finish(&report, text, args.json)
}

/// Prints the report (JSON, or the text given); an illegal game gives an error of code 1.
fn finish(report: &Report, text: String, json: bool) -> Result<(), CliError> {
    let out = if json {
        serde_json::to_string_pretty(report)
            .map_err(|e| CliError::failure(format!("cannot write JSON: {e}")))?
            + "\n"
    } else {
        text
    };
    print_stdout(&out)?;
    if let Some(v) = &report.violation {
        return Err(CliError::failure(format!(
            "game {} is illegal: {} (line {})",
            report.game, v.rule, v.line
        )));
    }
    if let Some(e) = &report.syntax_error {
        return Err(CliError::failure(format!(
            "game {} is illegal: syntax error (line {}, column {})",
            report.game, e.line, e.column
        )));
    }
    Ok(())
}

/// Rates the replayed decisions with the solitaire oracle of the game's rule set; records the
/// oracle and, if not every decision could be valued, why. Returns what could be rated.
fn rate(
    args: &ValidateArgs,
    replayed: &Replayed,
    thresholds: &Thresholds,
    report: &mut Report,
) -> Vec<Rated> {
    let mut rated = Vec::new();
    let Some(rules) = replayed.rules else {
        report.not_rated = Some("the rule set is unknown: no oracle can rate the game".into());
        return rated;
    };
    let mut tables: HashMap<RuleSet, Vec<f64>> = HashMap::new();
    let dir = table_dir(args.tables.as_deref());
    if !replayed.decisions.is_empty() {
        let (table, _) = load_expected(&dir, rules, &notice);
        tables.insert(rules, table.values().to_vec());
    }
    let mut oracle = MatchOracle::new(SolitaireOracle::new(tables), args.oracle);
    if replayed.seats > 1 && oracle.needs_dists() && !replayed.decisions.is_empty() {
        oracle.add_dists(rules, load_dist(&dir, rules, &notice).0);
    }
    report.oracle = Some(oracle.describe());
    let mut cache = TurnCache::default();
    if rate_game(&oracle, replayed, thresholds, &mut cache, &mut rated).is_err() {
        let n = rated.len();
        report.not_rated = Some(match replayed.decisions.get(n) {
            Some(d) => format!(
                "decision {} of {} (round {}, seat {}, roll {}) cannot be valued by the oracle; \
                 only the {n} before it are rated",
                n + 1,
                replayed.decisions.len(),
                d.round,
                d.seat + 1,
                d.roll_number
            ),
            None => format!("the oracle stopped after {n} decisions"),
        });
    }
    rated
}

/// A player's name, or `seat N` if the game does not name the seat.
fn player_name(game: &GameRecord, seat: usize) -> String {
    game.players
        .get(seat)
        .cloned()
        .unwrap_or_else(|| format!("seat {}", seat + 1))
}

fn json_decision(game: &GameRecord, r: &Rated) -> JsonDecision {
    let d = &r.decision;
    JsonDecision {
        round: d.round,
        player: player_name(game, usize::from(d.seat)),
        seat: d.seat,
        roll_number: d.roll_number,
        rolls_left: d.rolls_left(),
        state: sheet_state(&d.sheet),
        upper: d.sheet.upper_total,
        points: d.sheet.points,
        dice: d.dice.to_string(),
        choice: d.choice.to_string(),
        value: r.chosen,
        best: r.best_choice.to_string(),
        best_value: r.best,
        loss: r.error,
        luck: r.luck,
        forced: r.forced,
        class: r.class.name(),
        marker: r.class.marker(),
    }
}

/// Per-player totals, in seat order, summed in decision order.
fn totals(game: &GameRecord, replayed: &Replayed, rated: &[Rated]) -> Vec<PlayerTotals> {
    let seats = replayed.seats;
    // The sheets where the replay stopped: the final ones, or those before the turn that
    // broke a rule.
    let last_sheets = replayed
        .sheets
        .len()
        .checked_sub(seats)
        .filter(|_| seats > 0)
        .and_then(|start| replayed.sheets.get(start..));
    let mut out: Vec<PlayerTotals> = (0..seats)
        .map(|seat| PlayerTotals {
            player: player_name(game, seat),
            seat,
            decisions: 0,
            forced: 0,
            total_error: 0.0,
            error_per_decision: None,
            classes: ClassCounts::default(),
            luck: 0.0,
            points: last_sheets.and_then(|s| s.get(seat)).map(|s| s.points),
            result: game.result.as_ref().and_then(|r| r.get(seat).copied()),
        })
        .collect();
    for r in rated {
        if let Some(t) = out.get_mut(usize::from(r.decision.seat)) {
            t.decisions += 1;
            t.forced += u64::from(r.forced);
            t.total_error += r.error;
            t.luck += r.luck;
            t.classes.add(r.class);
        }
    }
    for t in &mut out {
        if t.decisions > 0 {
            t.error_per_decision = Some(t.total_error / t.decisions as f64);
        }
    }
    out
}

/// Column alignment.
#[derive(Clone, Copy)]
enum Align {
    Left,
    Right,
}

/// Renders rows under a header, columns two spaces apart, each as wide as its widest cell;
/// trailing blanks removed.
fn table(header: &[(&str, Align)], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|(h, _)| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let head: Vec<String> = header.iter().map(|(h, _)| h.to_string()).collect();
    for row in std::iter::once(&head).chain(rows) {
        let mut line = String::new();
        for ((cell, &(_, align)), &w) in row.iter().zip(header).zip(&widths) {
            if !line.is_empty() {
                line.push_str("  ");
            }
            let _ = match align {
                Align::Left => write!(line, "{cell:<w$}"),
                Align::Right => write!(line, "{cell:>w$}"),
            };
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The text report: verdict, game, oracle; one line per rated roll; per-player totals.
fn text_report(
    report: &Report,
    violation: Option<&Violation>,
    replayed: &Replayed,
    game: &GameRecord,
    rated: &[Rated],
) -> String {
    let mut out = String::new();
    let planned = replayed
        .rules
        .map(|r| r.box_count() * replayed.seats.max(1));
    match violation {
        Some(v) => {
            let _ = writeln!(out, "verdict: ILLEGAL: {v}");
        }
        None if !report.complete => {
            let _ = writeln!(
                out,
                "verdict: legal (unfinished: Termination {}, {} of {} turns played)",
                game.termination.as_str(),
                report.turns,
                planned.map_or("?".into(), |p| p.to_string())
            );
        }
        None => out.push_str("verdict: legal\n"),
    }
    let _ = writeln!(
        out,
        "game {}: {} ({}), rules {}, players {}, {} turns{}",
        report.game,
        report.file,
        report.format,
        report.rules.as_deref().unwrap_or("unknown"),
        report.players.join(", "),
        report.turns,
        match (violation, game.termination) {
            (Some(_), _) => String::new(),
            (None, Termination::Normal) => ", complete".into(),
            (None, t) => format!(", ended early ({})", t.as_str()),
        }
    );
    let t = &report.thresholds;
    if let Some(oracle) = &report.oracle {
        let _ = writeln!(
            out,
            "oracle: {oracle}; markers {} loss >= {}, {} >= {}, {} >= {}",
            Class::Doubtful.marker(),
            t.doubtful,
            Class::Error.marker(),
            t.error,
            Class::Blunder.marker(),
            t.blunder
        );
    }
    if violation.is_some() {
        let _ = match report.decisions_replayed {
            0 => writeln!(out, "decisions: none before the violation"),
            n => writeln!(
                out,
                "decisions: the {n} made before the violation are rated; points are where the replay stopped"
            ),
        };
    }
    if let Some(why) = &report.not_rated {
        let _ = writeln!(out, "not rated: {why}");
    }
    if rated.is_empty() {
        return out;
    }
    out.push('\n');
    let places = if report.unit == "points" { 4 } else { 6 };
    let rows: Vec<Vec<String>> = rated
        .iter()
        .map(|r| {
            let d = &r.decision;
            // The best option only when the choice is not one of the best (ties are fine).
            let different = r.best_choice != d.choice && r.error > 1e-9;
            vec![
                d.round.to_string(),
                player_name(game, usize::from(d.seat)),
                sheet_state(&d.sheet),
                d.sheet.upper_total.to_string(),
                d.sheet.points.to_string(),
                format!("{};{}", d.dice, d.rolls_left()),
                choice_text(&d.sheet, &d.dice, d.choice),
                format!("{:.places$}", r.chosen),
                if different {
                    choice_text(&d.sheet, &d.dice, r.best_choice)
                } else {
                    String::new()
                },
                if different {
                    format!("{:.places$}", r.best)
                } else {
                    String::new()
                },
                format!("{:.places$}", r.error),
                r.class.marker().to_string(),
            ]
        })
        .collect();
    use Align::{Left, Right};
    out.push_str(&table(
        &[
            ("round", Right),
            ("player", Left),
            ("state", Left),
            ("upper", Right),
            ("points", Right),
            ("roll", Left),
            ("choice", Left),
            ("value", Right),
            ("best", Left),
            ("value", Right),
            ("loss", Right),
            ("", Left),
        ],
        &rows,
    ));
    out.push('\n');
    let rows: Vec<Vec<String>> = report
        .totals
        .iter()
        .map(|p| {
            vec![
                p.player.clone(),
                p.decisions.to_string(),
                format!("{:.6}", p.total_error),
                p.error_per_decision
                    .map_or("-".into(), |e| format!("{e:.6}")),
                p.classes.fine.to_string(),
                p.classes.doubtful.to_string(),
                p.classes.error.to_string(),
                p.classes.blunder.to_string(),
                format!("{:.6}", p.luck),
                p.points.map_or("-".into(), |x| x.to_string()),
                p.result.map_or("-".into(), |x| x.to_string()),
            ]
        })
        .collect();
    out.push_str(&table(
        &[
            ("player", Left),
            ("decisions", Right),
            ("total error", Right),
            ("error/decision", Right),
            ("fine", Right),
            ("doubtful", Right),
            ("error", Right),
            ("blunder", Right),
            ("luck", Right),
            (
                if report.points_final {
                    "points"
                } else {
                    "points so far"
                },
                Right,
            ),
            ("Result", Right),
        ],
        &rows,
    ));
    out
}
