//! `dicelens eval`: every legal option of a position with its value and its loss against the
//! best: expected final score for a solitaire position, expected match points with opponents.
//! The position is checked by `dicelens::position`; the output is `dicelens::report::eval`'s.

use super::flags::{rule_sets_help, TablesFlag};
use super::progress::TERMINAL;
use super::{print_stdout, CliError};
use dicelens::evaluate::{evaluate, JambQuestion, Question, Subject};
use dicelens::pipeline::OracleRegistry;
use dicelens::position::{
    jamb_roll, parse_number, FlagError, OpponentsText, Position, PositionText, EMPTY_FILLED,
};
use dicelens::rate::OracleSpec;
use dicelens::report::eval as report;
use dicelens::rules::jamb::{JambRules, JambSheet};
use dicelens::rules::{GameRules, PlayerSheet};
use dicelens::solve::match_points::Method;

/// The sheet flags of `eval` and `dist` (values are checked by `dicelens::position`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SheetFlags {
    /// Rule set (the rule sets each command takes are listed by its help).
    #[arg(long)]
    pub rules: Option<String>,
    /// Filled boxes, comma-separated YGN codes (Y0/Y50 for the Yahtzee box), `-` for none (an
    /// empty value is an error, not an empty sheet).
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub filled: Option<String>,
    /// Upper-section total so far.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub upper: Option<String>,
    /// Points so far, bonuses included (default: the least the sheet can hold; no more than
    /// its filled boxes can hold).
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
#[command(mut_arg("rules", |arg| arg.help(rule_sets_help("Rule set", GameRules::all().map(GameRules::name)))))]
pub struct Args {
    #[command(flatten)]
    sheet: SheetFlags,
    /// The five dice on the table, any order (12344, or 12344;2 with the rolls left).
    #[arg(long, value_name = "DICE", allow_hyphen_values = true)]
    roll: Option<String>,
    /// Rolls left after this one: 2 (default), 1 or 0 (on a five-roll last turn, up to 4).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    rolls_left: Option<String>,
    /// maxi-yatzy-saved: rolls saved before this turn, which it may use on top of its own
    /// three (default 0; at most two a filled box).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    saved: Option<String>,
    /// Jamb with an Announce column: the box announced after roll 1 of this turn, as its cell
    /// (`A:P`); only that cell is then written. Without it, roll 1 lists every announcement.
    #[arg(long, value_name = "CELL")]
    announced: Option<String>,
    /// Jamb with an Announce column: the dice are a pure hand, a roll of every die (nothing
    /// kept before it), so an Announce box may take them (always so on roll 1).
    #[arg(long)]
    pure: bool,
    /// An opponent's filled boxes (repeat per opponent, in seat order after the mover): the
    /// position is then valued in expected match points.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    opponent_filled: Vec<String>,
    /// An opponent's upper-section total (repeat, same order; default 0).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    opponent_upper: Vec<String>,
    /// An opponent's points (repeat, same order; default: the least the sheet can hold; no
    /// more than its filled boxes can hold).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    opponent_points: Vec<String>,
    /// With opponents: exact, emp:D, dynw:D (D in 0..=5) or e (solitaire). Default: exact for
    /// two players with at most 10 boxes free in all, else emp:1.
    #[arg(long, value_name = "SPEC", conflicts_with = "method")]
    oracle: Option<Method>,
    /// The former name of --oracle.
    #[arg(long, value_name = "M", hide = true)]
    method: Option<Method>,
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
            saved: self.saved.clone(),
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

    /// The flag that chooses the method for opponents, as the user wrote it (`--oracle`
    /// unless only `--method` is given), and its value.
    fn method(&self) -> (&'static str, Option<Method>) {
        match (self.oracle, self.method) {
            (None, Some(m)) => ("--method", Some(m)),
            (o, _) => ("--oracle", o),
        }
    }
}

/// Runs `dicelens eval`, printing to stdout: the position read from the flags, one call
/// ([`evaluate`], either family), one writer (`report::eval`).
pub fn run(args: Args) -> Result<(), CliError> {
    let jamb = args.sheet.rules.as_deref().and_then(JambRules::by_name);
    let (method_flag, _) = args.method();
    let mut registry = OracleRegistry::new(args.tables.tables.as_deref(), OracleSpec::DEFAULT);
    let evaluation = match jamb {
        Some(rules) => evaluate(&jamb_question(&args, rules)?, &mut registry, &TERMINAL),
        None => evaluate(&question(&args)?, &mut registry, &TERMINAL),
    }
    .map_err(|e| {
        let flag = match e.subject() {
            Subject::Method => method_flag,
            Subject::Sheet => "--filled",
            Subject::Target => "--target",
            // Not a usage error: the table's path holds something else.
            Subject::Tables => return CliError::failure(e),
        };
        CliError::flag(flag, e)
    })?;
    print_stdout(&report::render(&evaluation, args.json))
}

/// The one-column position of the flags.
fn question(args: &Args) -> Result<Question, CliError> {
    let position = Position::parse(&args.position())?;
    let opponents = args.opponents().parse(&position.sheet)?;
    let target = args
        .target
        .as_deref()
        .map(|t| parse_number("--target", t))
        .transpose()?
        .map(i64::from);
    let (_, method) = args.method();
    Ok(Question {
        position,
        opponents,
        method,
        target,
    })
}

/// `dicelens eval --rules jamb-*`: the Jamb decision of the flags. `--filled` lists the
/// filled cells with their points (`D:1=3,F:MAX=28`).
fn jamb_question(args: &Args, rules: JambRules) -> Result<JambQuestion, CliError> {
    let not_jamb = [
        ("--upper", args.sheet.upper.is_some()),
        ("--points", args.sheet.points.is_some()),
        ("--state", args.sheet.state.is_some()),
        ("--target", args.target.is_some()),
        ("--opponent-filled", !args.opponent_filled.is_empty()),
        ("--oracle", args.oracle.is_some() || args.method.is_some()),
    ];
    if rules.announce_column().is_none() {
        if let Some(flag) = [
            ("--announced", args.announced.is_some()),
            ("--pure", args.pure),
        ]
        .iter()
        .find_map(|&(flag, given)| given.then_some(flag))
        {
            return Err(CliError::flag(
                flag,
                format!("{} has no Announce column", rules.name),
            ));
        }
    }
    if let Some((flag, _)) = not_jamb.iter().find(|(_, given)| *given) {
        return Err(CliError::flag(
            flag,
            "not for Jamb: a Jamb position is --filled CELL=POINTS,..., --roll and --rolls-left \
             (--announced CELL and --pure with an Announce column)",
        ));
    }
    let filled = args.sheet.filled.as_deref().unwrap_or("-");
    if filled.trim().is_empty() {
        return Err(CliError::flag("--filled", EMPTY_FILLED));
    }
    let sheet =
        JambSheet::from_notation(rules, filled).map_err(|why| CliError::flag("--filled", why))?;
    let Some(text) = args.roll.as_deref() else {
        return Err(CliError::flag(
            "--roll",
            "a Jamb position needs the dice: --roll 12345",
        ));
    };
    let (roll, rolls_left) = jamb_roll(&sheet, text, args.rolls_left.as_deref())?;
    let announced = match args.announced.as_deref() {
        Some(code) => Some(
            PlayerSheet::Jamb(sheet)
                .announcement(code)
                .map_err(|why| CliError::flag("--announced", format!("{code}: expected {why}")))?,
        ),
        None => None,
    };
    Ok(JambQuestion {
        sheet,
        roll,
        rolls_left,
        announced,
        pure: args.pure,
    })
}
