//! `dicelens simulate`: a synthetic corpus of players with known skill, and its ground truth
//! (both replaced only once both are written).

use super::flags::{not_at_least, not_between, output_format_help, rule_sets_help};
use super::progress::TERMINAL;
use super::{notice, wrote, CliError};
use dicelens::output::{commit_all, Finished, PendingFile};
use dicelens::report::simulate::{jamb_truth_csv, one_column_truth_csv};
use dicelens::rules::jamb::JambRules;
use dicelens::rules::{GameRules, RuleSet};
use dicelens::simulate::jamb::JambPlan;
use dicelens::simulate::{DiceLaw, Plan};
use dicelens::tables::table_dir;
use dicelens::workflow::simulate::{
    simulate, JambCast, OneColumnCast, SimulateError, Simulation, Truth,
};
use dicelens_parsers::Format;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The most seats a game has: a log's seat numbers are bytes (a YGN `Players` tag, a JSONL
/// or CSV seat, a game of the rules of either family holds at most 255 players).
pub const MOST_SEATS: usize = 255;

/// The most distinct players a run simulates (each is a line of the truth file, and a game's
/// seats are drawn among them all).
pub const MOST_PLAYERS: usize = 1_000_000;

/// `--players` when not given; a run may always have this many players, however few seats it
/// fills.
pub const DEFAULT_PLAYERS: usize = 10;

/// `dicelens simulate` flags.
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Rule set of the games.
    #[arg(long, default_value = "yahtzee", help = rule_sets_help("Rule set of the games", GameRules::all().map(GameRules::name)))]
    pub rules: GameRules,
    /// Jamb only: the strategies the players play, comma-separated, taken in turn (player 1
    /// the first, player 2 the second, ...): rnd, p1, p2, pb, ms (the published strategies),
    /// oracle (the strong oracle). Default: all five published ones.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub strategy: Vec<String>,
    /// Players per game: 1 to 255 (the most a game's log holds).
    #[arg(long, default_value_t = 1)]
    pub seats: usize,
    /// Number of distinct simulated players (from perfect to weak): at most 1000000, and at
    /// most games x seats (the seats the run fills: more players would never play), though up
    /// to 10 are always allowed.
    #[arg(long, default_value_t = DEFAULT_PLAYERS)]
    pub players: usize,
    /// Number of games (any number: they are written as they are simulated, 2048 at a time).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Random seed: the same seed gives the same bytes.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The format the games are written in.
    #[arg(long, default_value = "ygn", value_name = "FORMAT", value_parser = Format::parse_written, help = output_format_help())]
    pub format: Format,
    /// A loaded die: FACE (1 to 6) comes up with probability P (strictly between 0 and 1), the
    /// other faces share the rest equally, e.g. `6:0.2`. Default: fair dice.
    #[arg(long, value_name = "FACE:P")]
    pub loaded: Option<String>,
    /// Output file; the ground truth is written beside it as NAME.truth.csv (not when the
    /// output is a device or a FIFO, written through).
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub tables: super::flags::TablesFlag,
}

/// The ground-truth file beside a corpus: `corpus.ygn` -> `corpus.truth.csv`.
pub fn truth_path(out: &Path) -> PathBuf {
    out.with_extension("truth.csv")
}

/// Parses `--loaded FACE:P`: a face from 1 to 6 and its probability, strictly between 0 and 1.
fn parse_loaded(text: &str) -> Result<DiceLaw, CliError> {
    let flag = "--loaded";
    let (face, probability) = text.split_once(':').ok_or_else(|| {
        CliError::flag(flag, format!("expected FACE:P (e.g. 6:0.2), got {text:?}"))
    })?;
    let face = face
        .trim()
        .parse::<u8>()
        .ok()
        .filter(|f| (1..=6).contains(f))
        .ok_or_else(|| not_between(flag, "a face", 1, 6, face))?;
    let probability = probability
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|p| p.is_finite())
        .ok_or_else(|| CliError::flag(flag, format!("P {probability:?} is not a number")))?;
    DiceLaw::loaded(face, probability)
        .ok_or_else(|| not_between(flag, "a probability (exclusive)", 0, 1, probability))
}

/// Checks the counts the flags give before anything is reserved for them: `--seats` from 1 to
/// [`MOST_SEATS`], `--players` at most [`MOST_PLAYERS`] and at most the seats the run fills
/// (`--games` x `--seats`, or [`DEFAULT_PLAYERS`] when that is fewer).
fn check_counts(args: &Args) -> Result<(), CliError> {
    if !(1..=MOST_SEATS).contains(&args.seats) {
        return Err(if args.seats == 0 {
            not_at_least("--seats", "a number of seats", 1, args.seats)
        } else {
            not_between(
                "--seats",
                "a number of seats (the most a game's log holds)",
                1,
                MOST_SEATS,
                args.seats,
            )
        });
    }
    if args.players > MOST_PLAYERS {
        return Err(CliError::flag(
            "--players",
            format!(
                "expected at most {MOST_PLAYERS} players (the most a run simulates), got {}",
                args.players
            ),
        ));
    }
    let fills = args.games.saturating_mul(args.seats);
    let most = fills.max(DEFAULT_PLAYERS);
    if args.players > most {
        return Err(CliError::flag(
            "--players",
            format!(
                "expected at most {most} players, got {}: {} game(s) of {} seat(s) fill {fills} \
                 seats, and more players would never play (up to {DEFAULT_PLAYERS} are always \
                 allowed)",
                args.players, args.games, args.seats
            ),
        ));
    }
    if args.strategy.len() > MOST_PLAYERS {
        return Err(CliError::flag(
            "--strategy",
            format!(
                "expected at most {MOST_PLAYERS} strategies (one per player), got {}",
                args.strategy.len()
            ),
        ));
    }
    Ok(())
}

/// Runs `dicelens simulate`.
pub fn run(args: Args) -> Result<(), CliError> {
    check_counts(&args)?;
    let format = args.format;
    let rules = match args.rules {
        GameRules::Yahtzee(rules) => rules,
        GameRules::Jamb(rules) => return run_jamb(&args, rules),
    };
    if !args.strategy.is_empty() {
        let jamb: Vec<&str> = JambRules::ALL.iter().map(|r| r.name).collect();
        return Err(CliError::flag(
            "--strategy",
            format!(
                "strategies are Jamb's players: use --rules {}",
                or_list(&jamb)
            ),
        ));
    }
    if args.players < args.seats {
        return Err(not_at_least(
            "--players",
            "a number of players (one per seat)",
            args.seats,
            args.players,
        ));
    }
    if format == Format::Verhoeff
        && (args.seats != 1 || args.players != 1 || rules != RuleSet::YahtzeeFree)
    {
        return Err(CliError::flag(
            "--format",
            "Verhoeff records are solitaire games of one player under yahtzee-free: use --seats 1 --players 1 --rules yahtzee-free",
        ));
    }
    let plan = Plan {
        rules,
        seats: args.seats,
        players: args.players,
        games: args.games,
        seed: args.seed,
        dice: match &args.loaded {
            Some(text) => parse_loaded(text)?,
            None => DiceLaw::Fair,
        },
    };
    // Verhoeff's records carry no names: readers name the player after the file.
    let first_name = match format {
        Format::Verhoeff => args
            .out
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned()),
        _ => None,
    };
    let dir = table_dir(args.tables.tables.as_deref());
    let cast = OneColumnCast::new(&plan, first_name, &dir, &TERMINAL).map_err(CliError::failure)?;
    let players = &cast.players;
    let (out, truth) = write_corpus(&args, &cast.simulation(&plan))?;
    let Truth::OneColumn(truth) = truth else {
        return Err(CliError::failure(
            "a one-column simulation gave another truth",
        ));
    };
    let csv = one_column_truth_csv(players, &truth);
    let truth = commit_with_truth(out, &args.out, &csv)?;
    notice(&format!(
        "simulated {} {rules} games of {} seat(s) among {} players ({format})",
        args.games, args.seats, args.players,
    ));
    say_written(&args.out, truth.as_deref());
    Ok(())
}

/// `dicelens simulate --rules jamb-*`: games among players of known strategies; the truth file
/// gives each player's strategy, games and mean final total.
fn run_jamb(args: &Args, rules: JambRules) -> Result<(), CliError> {
    let format = args.format;
    if format == Format::Verhoeff {
        return Err(CliError::flag(
            "--format",
            "Jamb games are written as ygn, jsonl or csv",
        ));
    }
    let dir = table_dir(args.tables.tables.as_deref());
    let cast = JambCast::new(
        rules,
        &args.strategy,
        args.players,
        args.seats,
        args.seed,
        &dir,
        &TERMINAL,
    )
    .map_err(|why| CliError::flag("--strategy", why))?;
    let plan = JambPlan {
        rules,
        seats: args.seats,
        games: args.games,
        seed: args.seed,
        dice: match &args.loaded {
            Some(text) => parse_loaded(text)?,
            None => DiceLaw::Fair,
        },
    };
    let (out, truth) = write_corpus(args, &cast.simulation(&plan))?;
    let Truth::Jamb(truth) = truth else {
        return Err(CliError::failure("a Jamb simulation gave another truth"));
    };
    let csv = jamb_truth_csv(&cast.players, &truth);
    let truth = commit_with_truth(out, &args.out, &csv)?;
    notice(&format!(
        "simulated {} {} games of {} seat(s) among {} players ({}) ({format})",
        args.games,
        rules.name,
        args.seats,
        cast.players.len(),
        cast.strategies.join(", "),
    ));
    say_written(&args.out, truth.as_deref());
    Ok(())
}

/// `a, b, c or d`.
fn or_list(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Simulates the games ([`simulate`]) into a new `--out` file, with a bar of the games done;
/// the file is finished, not yet put in place.
fn write_corpus(args: &Args, simulation: &Simulation) -> Result<(Finished, Truth), CliError> {
    let mut out = PendingFile::create(&args.out).map_err(CliError::failure)?;
    let bar = indicatif::ProgressBar::new(args.games as u64);
    let truth = simulate(simulation, args.format, &mut out, |done| {
        bar.set_position(done as u64)
    })
    .map_err(|e| match e {
        SimulateError::Write(e) => {
            CliError::failure(format!("cannot write {}: {e}", args.out.display()))
        }
        e => CliError::failure(e),
    })?;
    bar.finish_and_clear();
    let out = out.finish().map_err(CliError::failure)?;
    Ok((out, truth))
}

/// Writes the ground truth `csv` beside the corpus `path` ([`truth_path`]), then puts the
/// corpus `out` and its truth in place together, once both are written; returns where the
/// truth went. A corpus written to something that is not a regular file (a device such as
/// `/dev/null`, a FIFO) gets no truth file (`None`): none is made beside a device.
fn commit_with_truth(out: Finished, path: &Path, csv: &str) -> Result<Option<PathBuf>, CliError> {
    if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file()) {
        commit_all(vec![out]).map_err(CliError::failure)?;
        return Ok(None);
    }
    let truth_file = truth_path(path);
    let mut truth_out = PendingFile::create(&truth_file).map_err(CliError::failure)?;
    truth_out
        .write_all(csv.as_bytes())
        .map_err(|e| CliError::failure(format!("cannot write {}: {e}", truth_file.display())))?;
    let truth_out = truth_out.finish().map_err(CliError::failure)?;
    commit_all(vec![out, truth_out]).map_err(CliError::failure)?;
    Ok(Some(truth_file))
}

/// Says where the corpus and its ground truth (`None`: not written) went.
fn say_written(corpus: &Path, truth: Option<&Path>) {
    wrote("games", corpus);
    match truth {
        Some(truth) => wrote("ground truth", truth),
        None => notice("ground truth not written (the output is not a regular file)"),
    }
}
