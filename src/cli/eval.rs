//! `dicelens eval`: every legal option of a solitaire position with its expected final score
//! and its loss against the best.

use super::{notice, print_stdout, CliError};
use dicelens::dice::Dice;
use dicelens::rules::{RuleSet, Sheet};
use dicelens::solve::distribution::{DistTableData, OptionChance, TurnDist};
use dicelens::solve::expected::{position_options, sheet_value, OptionValue};
use dicelens::solve::match_points::{ExactRange, MatchSearch, Method};
use dicelens::solve::two_player::{ExactTwoPlayer, MOST_EXACT_FREE};
use dicelens::tables::{load_dist, load_expected, table_dir};
use std::path::PathBuf;

/// The position as given on the command line (raw strings, checked by [`parse_position`]).
#[derive(Clone, Debug, Default)]
pub struct EvalArgs {
    /// `--rules`.
    pub rules: Option<String>,
    /// `--filled`: comma-separated box codes.
    pub filled: Option<String>,
    /// `--upper`: upper-section total so far.
    pub upper: Option<String>,
    /// `--points`: points so far.
    pub points: Option<String>,
    /// `--state`: thesis (`2456TMDY0S,51,170`) or Verhoeff (`_2__5_TF__LYC;15-`) notation.
    pub state: Option<String>,
    /// `--roll`: five dice, optionally `;N` with the rolls left (Verhoeff's form).
    pub roll: Option<String>,
    /// `--rolls-left`: 0, 1 or 2.
    pub rolls_left: Option<String>,
    /// `--target`: rank the options by the largest probability of finishing with at least
    /// this many points.
    pub target: Option<String>,
    /// `--opponent-filled`, one per opponent in seat order after the mover.
    pub opponent_filled: Vec<String>,
    /// `--opponent-upper`, one per opponent (default 0).
    pub opponent_upper: Vec<String>,
    /// `--opponent-points`, one per opponent (default: the least the sheet can hold).
    pub opponent_points: Vec<String>,
    /// `--method`: exact, emp:D, dynw:D or e (games of several players).
    pub method: Option<String>,
    /// `--json`.
    pub json: bool,
    /// `--tables`.
    pub tables: Option<PathBuf>,
}

/// A checked position: a sheet, and optionally the roll on the table and the rolls left.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// The player's sheet.
    pub sheet: Sheet,
    /// The dice on the table and how many rolls are left (0..=2), if a roll is given.
    pub roll: Option<(Dice, u8)>,
}

fn number(flag: &str, text: &str) -> Result<u32, CliError> {
    text.trim()
        .parse()
        .map_err(|_| CliError::flag(flag, format!("expected a whole number, found '{text}'")))
}

/// Parses five dice written as digits in any order.
pub fn parse_roll(flag: &str, text: &str) -> Result<Dice, CliError> {
    let text = text.trim();
    let mut faces = Vec::with_capacity(5);
    for c in text.chars() {
        match c.to_digit(10) {
            Some(d @ 1..=6) => faces.push(d as u8),
            _ => {
                return Err(CliError::flag(
                    flag,
                    format!("'{text}' has '{c}', but dice show 1 to 6"),
                ))
            }
        }
    }
    if faces.len() != 5 {
        return Err(CliError::flag(
            flag,
            format!("'{text}' has {} dice, expected 5", faces.len()),
        ));
    }
    Dice::from_faces(&faces).ok_or_else(|| CliError::flag(flag, format!("'{text}' is not a roll")))
}

/// Checks the command-line position.
pub fn parse_position(args: &EvalArgs) -> Result<Position, CliError> {
    let rules: RuleSet = match &args.rules {
        Some(r) => r.parse().map_err(|e| CliError::flag("--rules", e))?,
        None => RuleSet::Yahtzee,
    };
    let points = args
        .points
        .as_deref()
        .map(|p| number("--points", p))
        .transpose()?;
    let sheet = match &args.state {
        Some(state) => {
            if args.filled.is_some() || args.upper.is_some() {
                return Err(CliError::flag(
                    "--state",
                    "give either --state or --filled/--upper, not both",
                ));
            }
            if state.contains(';') {
                let points = points.ok_or_else(|| {
                    CliError::flag("--points", "Verhoeff's notation needs the points so far")
                })?;
                Sheet::from_verhoeff(rules, state, points)
                    .map_err(|e| CliError::flag("--state", e))?
            } else {
                if points.is_some() {
                    return Err(CliError::flag(
                        "--points",
                        "the thesis notation already gives the points",
                    ));
                }
                Sheet::from_thesis(rules, state).map_err(|e| CliError::flag("--state", e))?
            }
        }
        None => sheet_from_flags(
            rules,
            args.filled.as_deref(),
            args.upper.as_deref(),
            points,
            ["--filled", "--upper", "--points"],
        )?,
    };
    let roll = match &args.roll {
        None => {
            if args.rolls_left.is_some() {
                return Err(CliError::flag("--rolls-left", "needs --roll"));
            }
            None
        }
        Some(text) => {
            let (dice, left_in_roll) = match text.split_once(';') {
                Some((d, l)) => (d, Some(l)),
                None => (text.as_str(), None),
            };
            let dice = parse_roll("--roll", dice)?;
            let left = match (&args.rolls_left, left_in_roll) {
                (Some(l), _) => number("--rolls-left", l)?,
                (None, Some(l)) => number("--roll", l)?,
                (None, None) => 2,
            };
            if left > 2 {
                return Err(CliError::flag(
                    "--rolls-left",
                    format!("{left} rolls left; a turn has at most 2 after its first roll"),
                ));
            }
            if sheet.is_complete() {
                return Err(CliError::flag(
                    "--filled",
                    "every box is filled: there is nothing to roll for",
                ));
            }
            Some((dice, left as u8))
        }
    };
    Ok(Position { sheet, roll })
}

/// A sheet from its filled boxes (codes, `-` for none), upper total and points (default: the
/// least the sheet can hold); errors name the flags given in `names` (filled, upper, points).
fn sheet_from_flags(
    rules: RuleSet,
    filled: Option<&str>,
    upper: Option<&str>,
    points: Option<u32>,
    names: [&str; 3],
) -> Result<Sheet, CliError> {
    let filled = filled.unwrap_or("-").trim();
    let codes: Vec<&str> = if filled == "-" || filled.is_empty() {
        Vec::new()
    } else {
        filled.split(',').collect()
    };
    let upper = upper.map(|u| number(names[1], u)).transpose()?.unwrap_or(0);
    let mut sheet = Sheet::from_codes(rules, &codes, upper, u32::MAX).map_err(|e| {
        let flag = if matches!(e, dicelens::rules::SheetError::UpperUnreachable { .. }) {
            names[1]
        } else {
            names[0]
        };
        CliError::flag(flag, e)
    })?;
    sheet.points = 0;
    let least = least_points(&sheet);
    sheet.points = points.unwrap_or(least);
    sheet.check().map_err(|e| CliError::flag(names[2], e))?;
    Ok(sheet)
}

/// The opponents' sheets from the repeated `--opponent-*` flags (seat order after the mover),
/// checked against the mover's: each has as many boxes filled as the mover (they play later in
/// this round) or one more (they played earlier), those first.
pub fn parse_opponents(args: &EvalArgs, mover: &Sheet) -> Result<Vec<Sheet>, CliError> {
    let n = args.opponent_filled.len();
    if args.opponent_upper.len() > n || args.opponent_points.len() > n {
        return Err(CliError::flag(
            "--opponent-filled",
            "give one --opponent-filled per opponent before their --opponent-upper/--opponent-points",
        ));
    }
    let mut sheets = Vec::with_capacity(n);
    for i in 0..n {
        let points = args
            .opponent_points
            .get(i)
            .map(|p| number("--opponent-points", p))
            .transpose()?;
        let sheet = sheet_from_flags(
            mover.rules,
            Some(&args.opponent_filled[i]),
            args.opponent_upper.get(i).map(String::as_str),
            points,
            ["--opponent-filled", "--opponent-upper", "--opponent-points"],
        )?;
        let (mine, theirs) = (mover.filled_count(), sheet.filled_count());
        let earlier = sheets.last().map_or(mine, |s: &Sheet| s.filled_count());
        if theirs != mine && theirs != mine + 1 || theirs < earlier {
            return Err(CliError::flag(
                "--opponent-filled",
                format!(
                    "opponent {} has {theirs} boxes filled; with the mover to move ({mine} filled), \
                     opponents in seat order have {mine} (to play this round) then {} (played)",
                    i + 1,
                    mine + 1
                ),
            ));
        }
        sheets.push(sheet);
    }
    Ok(sheets)
}

/// The least points a sheet can hold: its upper total, the bonus if reached, 50 in the Yahtzee box.
fn least_points(sheet: &Sheet) -> u32 {
    let mut least = sheet.upper_total;
    if sheet.upper_total >= dicelens::rules::UPPER_THRESHOLD {
        least += sheet.rules.upper_bonus();
    }
    if sheet.yahtzee_50 {
        least += 50;
    }
    least
}

/// One printed option.
#[derive(serde::Serialize)]
struct JsonOption {
    option: String,
    value: f64,
    loss: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    p_target: Option<f64>,
}

/// Runs `dicelens eval`, printing to stdout.
pub fn run(args: &EvalArgs) -> Result<(), CliError> {
    let position = parse_position(args)?;
    let opponents = parse_opponents(args, &position.sheet)?;
    if !opponents.is_empty() {
        return run_match(args, &position, &opponents);
    }
    if args.method.is_some() {
        return Err(CliError::flag(
            "--method",
            "needs opponents (--opponent-filled)",
        ));
    }
    let target = args
        .target
        .as_deref()
        .map(|t| number("--target", t))
        .transpose()?
        .map(i64::from);
    let sheet = position.sheet;
    let dir = table_dir(args.tables.as_deref());
    let (table, _) = load_expected(&dir, sheet.rules, &notice);
    let values = table.values();
    let dists = target.map(|_| load_dist(&dir, sheet.rules, &notice).0);
    let Some((roll, rolls_left)) = position.roll else {
        let value = sheet_value(values, &sheet).unwrap_or(f64::NAN);
        let p_target = target.zip(dists.as_ref()).map(|(t, d)| {
            d.sheet_dist(&sheet)
                .map_or(f64::NAN, |dist| dist.at_least(t - i64::from(sheet.points)))
        });
        let text = if args.json {
            let mut json = serde_json::json!({ "value": value });
            if let Some(p) = p_target {
                json["p_target"] = serde_json::json!(p);
            }
            format!("{json}\n")
        } else {
            let mut text = format!(
                "{}: filled {}, upper {}, points {}\nexpected final score before the next turn: {value:.4}\n",
                sheet.rules,
                sheet.filled_codes(),
                sheet.upper_total,
                sheet.points
            );
            if let (Some(t), Some(p)) = (target, p_target) {
                text.push_str(&format!(
                    "largest probability of finishing with at least {t}: {p:.6}\n"
                ));
            }
            text
        };
        return print_stdout(&text);
    };
    let options = position_options(values, &sheet, &roll, rolls_left);
    let chances = match (target, &dists) {
        (Some(t), Some(d)) => {
            let turn = TurnDist::new(d, &sheet)
                .ok_or_else(|| CliError::flag("--filled", "no distribution for this sheet"))?;
            Some((t, turn.options(&roll, rolls_left, t)))
        }
        _ => None,
    };
    print_stdout(&format_options(
        &sheet,
        &roll,
        rolls_left,
        &options,
        chances.as_ref().map(|(t, c)| (*t, c.as_slice())),
        args.json,
    ))
}

/// The options as text (a table) or JSON (an array of `{option, value, loss}`, with
/// `p_target` when a target is given): best expected value first, or with a target, best
/// probability of reaching it first (equal probabilities in expected-value order).
fn format_options(
    sheet: &Sheet,
    roll: &Dice,
    rolls_left: u8,
    options: &[OptionValue],
    chances: Option<(i64, &[OptionChance])>,
    json: bool,
) -> String {
    use std::fmt::Write;
    let best = options.first().map_or(0.0, |o| o.value);
    let p_of = |o: &OptionValue| {
        chances.and_then(|(_, c)| c.iter().find(|c| c.choice == o.choice).map(|c| c.p_target))
    };
    let mut rows: Vec<JsonOption> = options
        .iter()
        .map(|o| JsonOption {
            option: o.choice.to_string(),
            value: o.value,
            loss: best - o.value,
            p_target: p_of(o),
        })
        .collect();
    if chances.is_some() {
        rows.sort_by(|a, b| {
            b.p_target
                .unwrap_or(0.0)
                .total_cmp(&a.p_target.unwrap_or(0.0))
        });
    }
    if json {
        return serde_json::to_string_pretty(&rows).unwrap_or_default() + "\n";
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: filled {}, upper {}, points {}, roll {roll}, {rolls_left} roll{} left",
        sheet.rules,
        sheet.filled_codes(),
        sheet.upper_total,
        sheet.points,
        if rolls_left == 1 { "" } else { "s" }
    );
    if let Some((target, _)) = chances {
        let _ = writeln!(
            out,
            "{:<12} {:>10} {:>10} {:>9}",
            "option",
            format!("P(>={target})"),
            "value",
            "loss"
        );
    } else {
        let _ = writeln!(out, "{:<12} {:>10} {:>9}", "option", "value", "loss");
    }
    for o in &rows {
        let p = o
            .p_target
            .map(|p| format!(" {p:>10.6}"))
            .unwrap_or_default();
        let _ = writeln!(out, "{:<12}{p} {:>10.4} {:>9.4}", o.option, o.value, o.loss);
    }
    out
}

/// Most free boxes (both sheets) for which `eval` values a two-player position exactly by
/// default (a few seconds at most; see PERFORMANCE.md).
pub const DEFAULT_EXACT_FREE: u32 = 10;

/// The method `eval` uses for a position with opponents: `--method`, else exact for two
/// players with at most [`DEFAULT_EXACT_FREE`] boxes free, else EMP(1).
fn match_method(args: &EvalArgs, sheets: &[&Sheet]) -> Result<Method, CliError> {
    if let Some(m) = &args.method {
        return m.parse().map_err(|e| CliError::flag("--method", e));
    }
    let free: u32 = sheets
        .iter()
        .map(|s| s.rules.box_count() as u32 - s.filled_count())
        .sum();
    Ok(if sheets.len() == 2 && free <= DEFAULT_EXACT_FREE {
        Method::Exact
    } else {
        Method::Emp(1)
    })
}

/// `eval` of a position with opponents: every option in expected match points (summed over
/// opponents), or the mover's expected match points before the turn without `--roll`.
fn run_match(args: &EvalArgs, position: &Position, opponents: &[Sheet]) -> Result<(), CliError> {
    let mover = &position.sheet;
    if mover.is_complete() {
        return Err(CliError::flag("--filled", "the mover's sheet is complete"));
    }
    let mut sheets = vec![mover];
    sheets.extend(opponents);
    let method = match_method(args, &sheets)?;
    if args.target.is_some() {
        return Err(CliError::flag(
            "--target",
            "applies to solitaire positions only",
        ));
    }
    let dir = table_dir(args.tables.as_deref());
    if method == Method::Solitaire {
        let mut solo = args.clone();
        solo.opponent_filled.clear();
        solo.opponent_upper.clear();
        solo.opponent_points.clear();
        solo.method = None;
        return run(&solo);
    }
    if method == Method::Exact && opponents.len() != 1 {
        return Err(CliError::flag(
            "--method",
            "exact values are for two players",
        ));
    }
    let free: u32 = sheets
        .iter()
        .map(|s| s.rules.box_count() as u32 - s.filled_count())
        .sum();
    if method == Method::Exact && free > MOST_EXACT_FREE {
        return Err(CliError::flag(
            "--method",
            format!(
                "exact values need at most {MOST_EXACT_FREE} boxes free in all; this position \
                 has {free}: use emp:D"
            ),
        ));
    }
    let needs_dists = method != Method::Exact;
    let dists = if needs_dists {
        Some(load_dist(&dir, mover.rules, &notice).0)
    } else {
        None
    };
    let empty = DistTableData::default();
    let solver = ExactTwoPlayer::new(mover.rules);
    let dists: &dyn dicelens::solve::distribution::DistSource = match &dists {
        Some(d) => d,
        None => &empty,
    };
    let exact = (opponents.len() == 1).then_some(ExactRange {
        solver: &solver,
        most_free: DEFAULT_EXACT_FREE,
        in_search: true,
    });
    let search = MatchSearch::new(dists, exact, method);
    let unvalued = || CliError::flag("--method", format!("{method} cannot value this position"));
    let header = format!(
        "{}: filled {}, upper {}, points {}; {}; method {method} (expected match points)",
        mover.rules,
        mover.filled_codes(),
        mover.upper_total,
        mover.points,
        opponents
            .iter()
            .enumerate()
            .map(|(i, o)| format!(
                "opponent {}: filled {}, upper {}, points {}",
                i + 1,
                o.filled_codes(),
                o.upper_total,
                o.points
            ))
            .collect::<Vec<_>>()
            .join("; ")
    );
    let Some((roll, rolls_left)) = position.roll else {
        let value = search
            .position_value(mover, opponents)
            .ok_or_else(unvalued)?;
        let text = if args.json {
            format!(
                "{}\n",
                serde_json::json!({ "value": value, "method": method.to_string() })
            )
        } else {
            format!("{header}\nexpected match points before the next turn: {value:.6}\n")
        };
        return print_stdout(&text);
    };
    let options = search
        .options(mover, opponents, &roll, rolls_left)
        .ok_or_else(unvalued)?;
    let best = options.first().map_or(0.0, |o| o.1);
    if args.json {
        let rows: Vec<JsonOption> = options
            .iter()
            .map(|&(choice, value)| JsonOption {
                option: choice.to_string(),
                value,
                loss: best - value,
                p_target: None,
            })
            .collect();
        return print_stdout(&(serde_json::to_string_pretty(&rows).unwrap_or_default() + "\n"));
    }
    use std::fmt::Write;
    let mut out = format!(
        "{header}\nroll {roll}, {rolls_left} roll{} left\n{:<12} {:>10} {:>9}\n",
        if rolls_left == 1 { "" } else { "s" },
        "option",
        "value",
        "loss"
    );
    for &(choice, value) in &options {
        let _ = writeln!(
            out,
            "{:<12} {value:>10.6} {:>9.6}",
            choice.to_string(),
            best - value
        );
    }
    print_stdout(&out)
}
