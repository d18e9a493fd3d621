//! `dicelens eval`: every legal option of a position with its value and its loss against the
//! best: expected final score for a solitaire position, expected match points with opponents.
//! The position is checked by `dicelens::position`; the output is `dicelens::report::eval`'s.

use super::flags::TablesFlag;
use super::tables::TERMINAL;
use super::{print_stdout, CliError};
use dicelens::position::{parse_number, FlagError, OpponentsText, Position, PositionText};
use dicelens::report::eval as report;
use dicelens::rules::Sheet;
use dicelens::solve::distribution::{DistSource, DistTableData, TurnDist};
use dicelens::solve::expected::{position_options, sheet_value};
use dicelens::solve::match_points::{ExactRange, MatchSearch, Method};
use dicelens::solve::two_player::{ExactTwoPlayer, MOST_EXACT_FREE};
use dicelens::tables::{load_dist, load_expected, table_dir};

/// The sheet flags of `eval` and `dist` (values are checked by `dicelens::position`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SheetFlags {
    /// Rule set: yahtzee (default), yahtzee-free, yahtzee-kurnik, yatzy.
    #[arg(long)]
    pub rules: Option<String>,
    /// Filled boxes, comma-separated YGN codes (Y0/Y50 for the Yahtzee box), `-` for none.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub filled: Option<String>,
    /// Upper-section total so far.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub upper: Option<String>,
    /// Points so far, bonuses included (default: the least the sheet can hold).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub points: Option<String>,
    /// The sheet in the thesis's notation (2456TMDY0S,51,170) or Verhoeff's (_2__5_TF__LYC;15-).
    #[arg(long, allow_hyphen_values = true)]
    pub state: Option<String>,
}

impl SheetFlags {
    /// The sheet as written (no roll).
    pub fn text(&self) -> PositionText {
        PositionText {
            rules: self.rules.clone(),
            filled: self.filled.clone(),
            upper: self.upper.clone(),
            points: self.points.clone(),
            state: self.state.clone(),
            ..PositionText::default()
        }
    }
}

/// The flags of `dicelens eval`.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    #[command(flatten)]
    sheet: SheetFlags,
    /// The five dice on the table, any order (12344, or 12344;2 with the rolls left).
    #[arg(long, value_name = "DICE", allow_hyphen_values = true)]
    roll: Option<String>,
    /// Rolls left after this one: 2 (default), 1 or 0.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    rolls_left: Option<String>,
    /// An opponent's filled boxes (repeat per opponent, in seat order after the mover): the
    /// position is then valued in expected match points.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    opponent_filled: Vec<String>,
    /// An opponent's upper-section total (repeat, same order; default 0).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    opponent_upper: Vec<String>,
    /// An opponent's points (repeat, same order; default: the least the sheet can hold).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    opponent_points: Vec<String>,
    /// With opponents: exact, emp:D, dynw:D (D in 0..=5) or e (solitaire). Default: exact for
    /// two players with at most 10 boxes free in all, else emp:1.
    #[arg(long, value_name = "SPEC", conflicts_with = "method")]
    oracle: Option<String>,
    /// The former name of --oracle.
    #[arg(long, value_name = "M", hide = true)]
    method: Option<String>,
    /// Rank the options by the largest probability of finishing with at least this many
    /// points (from the distribution tables, built on first use).
    #[arg(long, value_name = "W", allow_hyphen_values = true)]
    target: Option<String>,
    /// Print a JSON array of {option, value, loss} (and p_target with --target).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tables: TablesFlag,
}

impl From<FlagError> for CliError {
    fn from(e: FlagError) -> CliError {
        CliError::flag(e.flag, e.message)
    }
}

impl Args {
    /// The position as written.
    fn position(&self) -> PositionText {
        PositionText {
            roll: self.roll.clone(),
            rolls_left: self.rolls_left.clone(),
            ..self.sheet.text()
        }
    }

    /// The opponents as written.
    fn opponents(&self) -> OpponentsText {
        OpponentsText {
            filled: self.opponent_filled.clone(),
            upper: self.opponent_upper.clone(),
            points: self.opponent_points.clone(),
        }
    }

    /// The flag that chooses the method for opponents, as the user wrote it (`--method` when
    /// neither is given), and its value.
    fn oracle(&self) -> (&'static str, Option<&str>) {
        match (&self.oracle, &self.method) {
            (Some(o), _) => ("--oracle", Some(o)),
            (None, m) => ("--method", m.as_deref()),
        }
    }
}

/// Most free boxes (both sheets) for which `eval` values a two-player position exactly when no
/// method is given (a few seconds at most; see PERFORMANCE.md). Not the `reference` oracle's
/// exact range for rating games (`emp:1/exact:8`, `dicelens::rate`).
pub const EVAL_EXACT_FREE: u32 = 10;

/// Runs `dicelens eval`, printing to stdout.
pub fn run(args: Args) -> Result<(), CliError> {
    let position = Position::parse(&args.position())?;
    let opponents = args.opponents().parse(&position.sheet)?;
    if !opponents.is_empty() {
        return run_match(&args, &position, &opponents);
    }
    if let (flag, Some(_)) = args.oracle() {
        return Err(CliError::flag(flag, "needs opponents (--opponent-filled)"));
    }
    run_solitaire(&args, &position)
}

/// `eval` of a solitaire position: every option in expected final points (or with a target,
/// with its largest probability of reaching it), or the sheet's value without `--roll`.
fn run_solitaire(args: &Args, position: &Position) -> Result<(), CliError> {
    let target = args
        .target
        .as_deref()
        .map(|t| parse_number("--target", t))
        .transpose()?
        .map(i64::from);
    let sheet = position.sheet;
    let dir = table_dir(args.tables.tables.as_deref());
    let (table, _) = load_expected(&dir, sheet.rules, &TERMINAL);
    let values = table.values();
    let dists = target.map(|_| load_dist(&dir, sheet.rules, &TERMINAL).0);
    let Some((roll, rolls_left)) = position.roll else {
        let value = sheet_value(values, &sheet).unwrap_or(f64::NAN);
        let p_target = target.zip(dists.as_ref()).map(|(t, d)| {
            let p = d
                .sheet_dist(&sheet)
                .map_or(f64::NAN, |dist| dist.at_least(t - i64::from(sheet.points)));
            (t, p)
        });
        return print_stdout(&report::solitaire_value(&sheet, value, p_target, args.json));
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
    print_stdout(&report::solitaire_options(
        &sheet,
        &roll,
        rolls_left,
        &options,
        chances.as_ref().map(|(t, c)| (*t, c.as_slice())),
        args.json,
    ))
}

/// The method for a position with opponents: the one given, else exact for two players with
/// at most [`EVAL_EXACT_FREE`] boxes free, else EMP(1).
fn match_method(args: &Args, sheets: &[&Sheet], free: u32) -> Result<Method, CliError> {
    if let (flag, Some(m)) = args.oracle() {
        return m.parse().map_err(|e| CliError::flag(flag, e));
    }
    Ok(if sheets.len() == 2 && free <= EVAL_EXACT_FREE {
        Method::Exact
    } else {
        Method::Emp(1)
    })
}

/// `eval` of a position with opponents: every option in expected match points (summed over
/// opponents), or the mover's expected match points before the turn without `--roll`.
fn run_match(args: &Args, position: &Position, opponents: &[Sheet]) -> Result<(), CliError> {
    let mover = &position.sheet;
    if mover.is_complete() {
        return Err(CliError::flag("--filled", "the mover's sheet is complete"));
    }
    let mut sheets = vec![mover];
    sheets.extend(opponents);
    let free: u32 = sheets
        .iter()
        .map(|s| s.rules.box_count() as u32 - s.filled_count())
        .sum();
    let method = match_method(args, &sheets, free)?;
    if args.target.is_some() {
        return Err(CliError::flag(
            "--target",
            "applies to solitaire positions only",
        ));
    }
    if method == Method::Solitaire {
        return run_solitaire(args, position);
    }
    let (flag, _) = args.oracle();
    if method == Method::Exact && opponents.len() != 1 {
        return Err(CliError::flag(flag, "exact values are for two players"));
    }
    if method == Method::Exact && free > MOST_EXACT_FREE {
        return Err(CliError::flag(
            flag,
            format!(
                "exact values need at most {MOST_EXACT_FREE} boxes free in all; this position \
                 has {free}: use emp:D"
            ),
        ));
    }
    let dir = table_dir(args.tables.tables.as_deref());
    let dists = (method != Method::Exact).then(|| load_dist(&dir, mover.rules, &TERMINAL).0);
    let empty = DistTableData::default();
    let solver = ExactTwoPlayer::new(mover.rules);
    let dists: &dyn DistSource = match &dists {
        Some(d) => d,
        None => &empty,
    };
    let exact = (opponents.len() == 1).then_some(ExactRange {
        solver: &solver,
        most_free: EVAL_EXACT_FREE,
        in_search: true,
    });
    let search = MatchSearch::new(dists, exact, method);
    let unvalued = || CliError::flag(flag, format!("{method} cannot value this position"));
    let text = match position.roll {
        None => {
            let value = search
                .position_value(mover, opponents)
                .ok_or_else(unvalued)?;
            report::match_value(mover, opponents, method, value, args.json)
        }
        Some((roll, rolls_left)) => {
            let options = search
                .options(mover, opponents, &roll, rolls_left)
                .ok_or_else(unvalued)?;
            report::match_options(
                mover, opponents, method, &roll, rolls_left, &options, args.json,
            )
        }
    };
    print_stdout(&text)
}
