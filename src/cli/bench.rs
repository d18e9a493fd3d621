//! `dicelens bench quality`: the published quality experiment for two players (docs/methods.md
//! section 4), reproducible from a seed. Typical positions with at most `--max-free` boxes free
//! in all come from self-play by EMP(1) with option `i` drawn with weight
//! `exp(100 * (v_i - max v))`; every option of every position is valued exactly; then each
//! method (EMP(0..=D), DynW(1..=D), and the solitaire strategy E) picks its best option and is
//! charged the exact loss of that pick. Reported by number of free boxes: moves, mean error per
//! move, and the shares of moves with an error above 0.001 and 0.01.

use super::{notice, print_stdout, CliError};
use dicelens::dice::Dice;
use dicelens::rules::{Choice, RuleSet, Sheet};
use dicelens::simulate::choose;
use dicelens::solve::expected::{OptionValue, TurnOracle};
use dicelens::solve::match_points::{MatchSearch, Method};
use dicelens::solve::two_player::ExactTwoPlayer;
use dicelens::tables::{load_dist, load_expected, table_dir};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;

/// The flags of `dicelens bench quality`.
#[derive(Clone, Debug, clap::Args)]
pub struct QualityArgs {
    /// Rule set.
    #[arg(long, default_value = "yahtzee")]
    pub rules: String,
    /// Positions to value.
    #[arg(long, default_value_t = 200)]
    pub positions: usize,
    /// Most free boxes (both sheets) of a position (the published experiment: 10).
    #[arg(long, default_value_t = 10)]
    pub max_free: u32,
    /// Deepest EMP and DynW searched (the published experiment: 4; each level costs more).
    #[arg(long, default_value_t = 2)]
    pub depth: u8,
    /// Seed of the self-play.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Table directory (default: $DICELENS_TABLES, else ./tables).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}

/// A position of the experiment: the mover's sheet, the other's, the dice and the rolls left.
#[derive(Clone, Copy, Debug)]
struct Position {
    mover: Sheet,
    other: Sheet,
    roll: Dice,
    rolls_left: u8,
}

/// Errors of one method on the positions with a given number of free boxes.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
struct Tally {
    moves: u64,
    total_error: f64,
    above_0_001: u64,
    above_0_01: u64,
}

impl Tally {
    fn add(&mut self, error: f64) {
        self.moves += 1;
        self.total_error += error;
        self.above_0_001 += u64::from(error > 0.001);
        self.above_0_01 += u64::from(error > 0.01);
    }

    fn merge(&mut self, o: &Tally) {
        self.moves += o.moves;
        self.total_error += o.total_error;
        self.above_0_001 += o.above_0_001;
        self.above_0_01 += o.above_0_01;
    }

    fn mean(&self) -> f64 {
        self.total_error / self.moves.max(1) as f64
    }

    fn share(&self, n: u64) -> f64 {
        n as f64 / self.moves.max(1) as f64
    }
}

/// Free boxes of two sheets.
fn free(a: &Sheet, b: &Sheet) -> u32 {
    let box_count = a.rules.box_count() as u32;
    2 * box_count - a.filled_count() - b.filled_count()
}

/// The option `options` ranks first (the first listed among equals).
fn best_of(options: &[(Choice, f64)]) -> Option<Choice> {
    let mut best: Option<(Choice, f64)> = None;
    for &(c, v) in options {
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((c, v));
        }
    }
    best.map(|(c, _)| c)
}

/// Self-play by softened EMP(1) until `count` positions with at most `max_free` free boxes are
/// collected (every decision of that phase of each game).
fn positions(
    rules: RuleSet,
    search: &MatchSearch,
    count: usize,
    max_free: u32,
    seed: u64,
) -> Result<Vec<Position>, CliError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut sheets = [Sheet::empty(rules), Sheet::empty(rules)];
        let mut seat = 0;
        while !sheets[seat].is_complete() {
            let (mover, other) = (sheets[seat], sheets[1 - seat]);
            let mut shown: Vec<u8> = (0..5).map(|_| rng.gen_range(1..=6)).collect();
            let turn = search
                .turn(&mover, &[other])
                .ok_or_else(|| CliError::failure("self-play: a position EMP(1) cannot value"))?;
            for rolls_left in (0..=2u8).rev() {
                let roll = Dice::from_faces(&shown).ok_or_else(|| CliError::failure("bad dice"))?;
                if free(&mover, &other) <= max_free && out.len() < count {
                    out.push(Position {
                        mover,
                        other,
                        roll,
                        rolls_left,
                    });
                }
                let mut options: Vec<OptionValue> = turn
                    .options(search, &mover, &roll, rolls_left)
                    .into_iter()
                    .map(|(choice, value)| OptionValue { choice, value })
                    .collect();
                options.sort_by(|a, b| b.value.total_cmp(&a.value));
                let pick = options
                    .get(choose(&mut rng, &options, 0.01))
                    .ok_or_else(|| CliError::failure("self-play: no option"))?
                    .choice;
                match pick {
                    Choice::Keep(k) => {
                        shown = k.faces();
                        while shown.len() < 5 {
                            shown.push(rng.gen_range(1..=6));
                        }
                    }
                    Choice::Score(category) => {
                        let b = rules
                            .box_of(category)
                            .ok_or_else(|| CliError::failure("self-play: unknown box"))?;
                        let (after, _) = mover
                            .after(&roll, b)
                            .ok_or_else(|| CliError::failure("self-play: illegal box"))?;
                        sheets[seat] = after;
                        break;
                    }
                }
            }
            seat = 1 - seat;
        }
    }
    Ok(out)
}

/// Runs `dicelens bench quality`.
pub fn quality(args: &QualityArgs) -> Result<(), CliError> {
    let rules: RuleSet = args
        .rules
        .parse()
        .map_err(|e| CliError::flag("--rules", e))?;
    if args.depth > 5 {
        return Err(CliError::flag("--depth", "expected 0 to 5"));
    }
    if args.max_free < 1 || args.max_free > 2 * rules.box_count() as u32 {
        return Err(CliError::flag(
            "--max-free",
            "expected a number of free boxes",
        ));
    }
    let dir = table_dir(args.tables.as_deref());
    let (expected, _) = load_expected(&dir, rules, &notice);
    let (dists, _) = load_dist(&dir, rules, &notice);
    let solver = ExactTwoPlayer::new(rules);
    let start = std::time::Instant::now();
    let player = MatchSearch::new(&dists, None, Method::Emp(1));
    let found = positions(rules, &player, args.positions, args.max_free, args.seed)?;
    notice(&format!(
        "{} positions from self-play in {:.1} s; valuing them",
        found.len(),
        start.elapsed().as_secs_f64()
    ));
    let mut methods: Vec<Method> = (0..=args.depth).map(Method::Emp).collect();
    methods.extend((1..=args.depth).map(Method::DynW));
    methods.push(Method::Solitaire);
    let mut tallies: Vec<BTreeMap<u32, Tally>> = vec![BTreeMap::new(); methods.len()];
    let bar = indicatif::ProgressBar::new(found.len() as u64);
    for p in &found {
        let d = i64::from(p.other.points) - i64::from(p.mover.points);
        let exact: Vec<(Choice, f64)> = solver
            .turn(&p.mover, &p.other)
            .ok_or_else(|| CliError::failure("a position the exact solver cannot value"))?
            .options_at(&p.roll, p.rolls_left, d)
            .into_iter()
            .map(|o| (o.choice, o.p_target))
            .collect();
        let best = exact.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max);
        let loss = |c: Choice| exact.iter().find(|o| o.0 == c).map(|o| best - o.1);
        let key = free(&p.mover, &p.other);
        for (m, tally) in methods.iter().zip(tallies.iter_mut()) {
            let pick = match m {
                Method::Solitaire => TurnOracle::new(
                    expected.values(),
                    &Sheet {
                        points: 0,
                        ..p.mover
                    },
                )
                .and_then(|t| t.options(&p.roll, p.rolls_left).first().map(|o| o.choice)),
                _ => MatchSearch::new(&dists, None, *m)
                    .options(&p.mover, &[p.other], &p.roll, p.rolls_left)
                    .and_then(|o| best_of(&o)),
            };
            let error = pick
                .and_then(loss)
                .ok_or_else(|| CliError::failure(format!("{m} gives no legal option")))?;
            tally.entry(key).or_default().add(error.max(0.0));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    notice(&format!(
        "valued in {:.1} s in all",
        start.elapsed().as_secs_f64()
    ));
    print_stdout(&report(args, rules, &methods, &tallies))
}

/// The results as text (one table over all positions, one per number of free boxes) or JSON.
fn report(
    args: &QualityArgs,
    rules: RuleSet,
    methods: &[Method],
    tallies: &[BTreeMap<u32, Tally>],
) -> String {
    let overall: Vec<Tally> = tallies
        .iter()
        .map(|t| {
            let mut all = Tally::default();
            t.values().for_each(|x| all.merge(x));
            all
        })
        .collect();
    if args.json {
        let rows: Vec<serde_json::Value> = methods
            .iter()
            .zip(tallies)
            .zip(&overall)
            .map(|((m, by_free), all)| {
                serde_json::json!({
                    "method": m.to_string(),
                    "all": all,
                    "mean_error": all.mean(),
                    "by_free": by_free,
                })
            })
            .collect();
        let json = serde_json::json!({
            "rules": rules.name(), "positions": args.positions, "max_free": args.max_free,
            "seed": args.seed, "methods": rows,
        });
        return serde_json::to_string_pretty(&json).unwrap_or_default() + "\n";
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{rules}: {} positions with at most {} boxes free (self-play by softened EMP(1), seed {}); \
         error = exact value of the best option minus that of the method's pick, in match points",
        args.positions, args.max_free, args.seed
    );
    let _ = writeln!(
        out,
        "{:<8} {:>7} {:>12} {:>10} {:>10}",
        "method", "moves", "error/move", "> 0.001", "> 0.01"
    );
    for (m, all) in methods.iter().zip(&overall) {
        let _ = writeln!(
            out,
            "{:<8} {:>7} {:>12.7} {:>10.5} {:>10.5}",
            m.to_string(),
            all.moves,
            all.mean(),
            all.share(all.above_0_001),
            all.share(all.above_0_01)
        );
    }
    let frees: Vec<u32> = tallies
        .iter()
        .flat_map(|t| t.keys().copied())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let _ = writeln!(out, "\nerror per move by free boxes");
    let _ = write!(out, "{:<8}", "method");
    for f in &frees {
        let _ = write!(out, " {:>10}", format!("{f} free"));
    }
    out.push('\n');
    for (m, by_free) in methods.iter().zip(tallies) {
        let _ = write!(out, "{:<8}", m.to_string());
        for f in &frees {
            let cell = by_free
                .get(f)
                .map_or("-".into(), |t| format!("{:.7}", t.mean()));
            let _ = write!(out, " {cell:>10}");
        }
        out.push('\n');
    }
    out
}
