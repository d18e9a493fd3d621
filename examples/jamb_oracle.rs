//! Measurements of the Jamb oracle (docs/jamb-oracle.md): table build time and size, self-play
//! means with confidence intervals, rating speed, and the loss per decision against the exact
//! endgame.
//!
//! ```text
//! cargo run --release --example jamb_oracle -- build [rules] [file]
//! cargo run --release --example jamb_oracle -- play [file] [games] [seed] [variant...]
//! cargo run --release --example jamb_oracle -- loss [file] [games] [seed] [variant...]
//! cargo run --release --example jamb_oracle -- speed [file] [games] [variant...]
//! cargo run --release --example jamb_oracle -- endgame [file] [games] [most empty boxes]
//! cargo run --release --example jamb_oracle -- breakdown [file] [games] [seed] [variant...]
//! cargo run --release --example jamb_oracle -- fit [file] [games] [seed] [rounds] [ridge] [out] [variant...]
//! cargo run --release --example jamb_oracle -- reweight [file] [weights] [out]
//! ```
//!
//! Variants (default: the strong value function of the tables): `plain` (sum of the exact
//! one-column values), `slack=k`, `correction=none|file`, `endgame=k` (exact values once at most
//! k boxes are left), `budget=n` (only while the slip's future has at most n slips; 0: no
//! limit), `lookahead=k`, `scale=a,b,c,d,e` (factor of each column's value), and
//! `reslack=k`, `pass=n`, `skip=x` to rebuild the slack tables another way.

use dicelens::dice::Dice;
use dicelens::rules::jamb::{JambRules, JambSheet, JambTurn};
use dicelens::simulate::jamb::{play_game, record_positions, JambPlayer};
use dicelens::simulate::DiceLaw;
use dicelens::solve::jamb::endgame::Endgame;
use dicelens::solve::jamb::features::Correction;
use dicelens::solve::jamb::fit::{fit_to, Target};
use dicelens::solve::jamb::oracle::{JambOracle, JambTurnCache, OraclePlayer, ValueFunction};
use dicelens::solve::jamb::selfplay::{needs_own_turn, play_oracle_game};
use dicelens::solve::jamb::tables::{BuildOptions, JambTables};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::Arc;
use std::time::Instant;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    match arg(0, "").as_str() {
        "build" => build(
            &arg(1, "jamb-5"),
            &arg(2, "target/jamb-5.tables"),
            parse(&arg(3, "40000"))?,
        ),
        command @ ("play" | "loss") => {
            let oracle = load(&arg(1, "target/jamb-5.tables"), &args[4.min(args.len())..])?;
            let (run, games): (fn(&JambOracle, u64, u64), &str) = match command {
                "play" => (play, "2000"),
                _ => (loss, "200"),
            };
            run(&oracle, parse(&arg(2, games))?, parse(&arg(3, "1"))?);
            Ok(())
        }
        "endgame" => {
            let oracle = load(&arg(1, "target/jamb-5.tables"), &[])?;
            endgame_time(&oracle, parse(&arg(2, "100"))?, parse(&arg(3, "3"))?);
            Ok(())
        }
        "speed" => {
            let oracle = load(&arg(1, "target/jamb-5.tables"), &args[3.min(args.len())..])?;
            speed(&oracle, parse(&arg(2, "400"))?);
            Ok(())
        }
        "breakdown" => {
            let oracle = load(&arg(1, "target/jamb-5.tables"), &args[4.min(args.len())..])?;
            breakdown(&oracle, parse(&arg(2, "2000"))?, parse(&arg(3, "1"))?);
            Ok(())
        }
        "fit" => {
            // fit [file] [games] [seed] [iterations] [ridge] [out] [variant...]
            let mut oracle = load(&arg(1, "target/jamb-5.tables"), &args[7.min(args.len())..])?;
            let games = parse(&arg(2, "20000"))?;
            let seed: u64 = parse(&arg(3, "1"))?;
            let iterations: u64 = parse(&arg(4, "1"))?;
            let ridge: f64 = parse(&arg(5, "1e-6"))?;
            let out = arg(6, "target/jamb-5.correction");
            for i in 0..iterations {
                let start = Instant::now();
                let arc = Arc::new(oracle.clone());
                let target = if std::env::var("TD").is_ok() {
                    Target::NextTurn
                } else {
                    Target::Outcome
                };
                let w = fit_to(&arc, games, seed + 100 * i, ridge, target, &|_| {})
                    .ok_or("singular")?;
                println!(
                    "iteration {i}: fitted on {games} games in {:.1} s",
                    start.elapsed().as_secs_f64()
                );
                let text: Vec<String> = w.weights.iter().map(|x| format!("{x:e}")).collect();
                std::fs::write(format!("{out}.{i}"), text.join("\n")).map_err(|e| e.to_string())?;
                let mut value = oracle.value_function().clone();
                value.correction = Some(Arc::new(w));
                oracle = oracle.with_value_function(value);
                play(&oracle, 4000, 1);
            }
            Ok(())
        }
        "reweight" => reweight(&arg(1, "target/jamb-5.tables"), &arg(2, ""), &arg(3, "")),
        _ => Err(
            "usage: jamb_oracle build|play|loss|speed|endgame|breakdown|fit|reweight ...".into(),
        ),
    }
}

/// Weights written by `fit` (one number a line).
fn read_weights(file: &str) -> Result<Correction, String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let weights = text
        .split_whitespace()
        .map(parse)
        .collect::<Result<_, _>>()?;
    Ok(Correction { weights })
}

/// Writes the tables `file` with the weights `weights` (written by `fit`) to `out`: the rounds
/// of the fit applied to built tables without building their column tables again.
fn reweight(file: &str, weights: &str, out: &str) -> Result<(), String> {
    let tables = JambTables::from_bytes(&std::fs::read(file).map_err(|e| e.to_string())?)?;
    let bytes = tables
        .with_correction(Some(Arc::new(read_weights(weights)?)))
        .to_bytes();
    // Read back: the weights must fit the tables' slip.
    JambTables::from_bytes(&bytes)?;
    std::fs::write(out, &bytes).map_err(|e| e.to_string())
}

fn parse<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("not a number: {s}"))
}

fn build(rules: &str, file: &str, fit_games: u64) -> Result<(), String> {
    let rules = JambRules::by_name(rules).ok_or("unknown rules")?;
    let options = BuildOptions {
        fit_games,
        ..BuildOptions::for_rules(&rules)
    };
    let start = Instant::now();
    let tables = JambTables::build_with(rules, &options, &|_, _| {});
    let secs = start.elapsed().as_secs_f64();
    for &k in rules.columns {
        if let Some(t) = tables.table(k) {
            println!(
                "column {}: {} masks, {} states, expected total alone {:.3}",
                k.code(),
                t.space().mask_count(),
                t.space().len(),
                t.expected_total(&Default::default()).unwrap_or(f64::NAN)
            );
        }
    }
    let bytes = tables.to_bytes();
    println!(
        "{}: {} exact states, {} values in all, built in {secs:.1} s, {} bytes ({:.1} MiB)",
        rules.name,
        tables.states(),
        tables.values(),
        bytes.len(),
        bytes.len() as f64 / (1 << 20) as f64
    );
    std::fs::write(file, &bytes).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let back = JambTables::from_bytes(&std::fs::read(file).map_err(|e| e.to_string())?)?;
    println!(
        "read back in {:.2} s; identical bytes: {}",
        start.elapsed().as_secs_f64(),
        back.to_bytes() == bytes
    );
    Ok(())
}

/// The oracle on the tables of `file` with the value function described by `variant`
/// (default: the strong one).
fn load(file: &str, variant: &[String]) -> Result<JambOracle, String> {
    let mut tables = JambTables::from_bytes(&std::fs::read(file).map_err(|e| e.to_string())?)?;
    let mut value = ValueFunction::strong(&tables);
    let mut slack = tables.slack_model();
    let mut reslack = false;
    for v in variant {
        match v.split_once('=') {
            Some(("skip", x)) => (slack.skip_value, reslack) = (parse(x)?, true),
            Some(("pass", x)) => (slack.pass_after, reslack) = (parse(x)?, true),
            Some(("reslack", x)) => (slack.turns, reslack) = (parse(x)?, true),
            _ => {}
        }
    }
    if reslack {
        let start = Instant::now();
        let options = BuildOptions {
            slack,
            fit_games: 0,
            ..BuildOptions::default()
        };
        let correction = tables.correction();
        tables = JambTables::build_with(*tables.rules(), &options, &|_, _| {})
            .with_correction(correction);
        value.slack = slack.turns;
        eprintln!(
            "slack tables built in {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
    for v in variant {
        match v.split_once('=') {
            None if v == "plain" => value = ValueFunction::plain(),
            Some(("scale", s)) => {
                value.scale = s.split(',').map(parse).collect::<Result<_, _>>()?;
            }
            Some(("endgame", k)) => value.endgame = parse(k)?,
            Some(("budget", k)) => value.endgame_budget = parse(k)?,
            Some(("lookahead", k)) => value.lookahead = parse(k)?,
            Some(("slack", k)) => value.slack = parse(k)?,
            Some(("correction", "none")) => value.correction = None,
            Some(("correction", f)) => value.correction = Some(Arc::new(read_weights(f)?)),
            Some(("skip" | "pass" | "reslack", _)) => {}
            _ => return Err(format!("unknown variant {v}")),
        }
    }
    Ok(JambOracle::with_value(tables, value))
}

/// Mean, standard deviation and the half-width of the 95% confidence interval.
fn stats(xs: &[f64]) -> (f64, f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt(), 1.96 * (var / n).sqrt())
}

fn play_one(oracle: &Arc<JambOracle>, seed: u64) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    if needs_own_turn(oracle.rules()) {
        return match play_oracle_game(oracle, &mut rng) {
            Ok(game) => f64::from(game.last.total()),
            Err(e) => panic!("illegal move: {e}"),
        };
    }
    let mut player = OraclePlayer::new(Arc::clone(oracle));
    let mut players: [&mut dyn JambPlayer; 1] = [&mut player];
    match play_game(*oracle.rules(), &mut players, DiceLaw::Fair, &mut rng) {
        Ok(game) => f64::from(game.finals[0].total()),
        Err(e) => panic!("illegal move: {e}"),
    }
}

fn play(oracle: &JambOracle, games: u64, seed: u64) {
    println!("{}", oracle.describe());
    if needs_own_turn(oracle.rules()) {
        return play_own_turn(oracle, games, seed);
    }
    let oracle = Arc::new(oracle.clone());
    let start = Instant::now();
    let totals: Vec<f64> = (0..games)
        .into_par_iter()
        .map(|g| play_one(&oracle, seed * 1_000_000_007 + g))
        .collect();
    let secs = start.elapsed().as_secs_f64();
    report(&totals, games, seed, secs);
}

/// Prints the mean, the standard deviation and the 95% interval of `totals`.
fn report(totals: &[f64], games: u64, seed: u64, secs: f64) {
    let (mean, sd, ci) = stats(totals);
    println!(
        "{games} games (seed {seed}): mean {mean:.2} sd {sd:.2} 95% CI {:.2}..{:.2} (+-{ci:.2}); {:.1} games/s on {} threads",
        mean - ci,
        mean + ci,
        games as f64 / secs,
        rayon::current_num_threads()
    );
}

/// [`play`] for rule sets played by `play_oracle_game`, with the mean of every cell (rows in
/// the rules' order, one column per column of the slip) and the announcements per game.
fn play_own_turn(oracle: &JambOracle, games: u64, seed: u64) {
    let rules = *oracle.rules();
    let start = Instant::now();
    let played: Vec<(JambSheet, usize)> = (0..games)
        .into_par_iter()
        .map(|g| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed * 1_000_000_007 + g);
            match play_oracle_game(oracle, &mut rng) {
                Ok(game) => (game.last, game.announcements),
                Err(e) => panic!("illegal move: {e}"),
            }
        })
        .collect();
    let secs = start.elapsed().as_secs_f64();
    let totals: Vec<f64> = played.iter().map(|p| f64::from(p.0.total())).collect();
    report(&totals, games, seed, secs);
    let announced: usize = played.iter().map(|p| p.1).sum();
    println!(
        "announcements: {:.2} per game",
        announced as f64 / games as f64
    );
    let header: Vec<String> = rules.columns.iter().map(|k| k.code().to_string()).collect();
    println!("cell means (row: {})", header.join(" / "));
    for &b in rules.rows.iter() {
        let means: Vec<String> = (0..rules.columns.len())
            .map(|c| {
                let sum: f64 = played
                    .iter()
                    .filter_map(|p| p.0.column(c).and_then(|col| col.value(b)))
                    .map(f64::from)
                    .sum();
                format!("{:.1}", sum / games as f64)
            })
            .collect();
        println!("{:>4}: {}", b.code(), means.join(" / "));
    }
}

/// Rating speed: self-played games are recorded (untimed), then every option of every decision
/// is valued from a fresh cache per game, as a rating tool would: on one thread, then on all.
fn speed(oracle: &JambOracle, games: u64) {
    println!("{}", oracle.describe());
    if needs_own_turn(oracle.rules()) {
        return speed_own_turn(oracle, games);
    }
    let oracle = Arc::new(oracle.clone());
    let recorded: Vec<Vec<(JambSheet, Dice, u8)>> = (0..games)
        .into_par_iter()
        .map(|g| {
            let mut rng = ChaCha8Rng::seed_from_u64(g);
            let player = OraclePlayer::new(Arc::clone(&oracle));
            record_positions(*oracle.rules(), player, &mut rng).unwrap_or_default()
        })
        .collect();
    let rate = |positions: &Vec<(JambSheet, Dice, u8)>| -> usize {
        let mut cache = JambTurnCache::default();
        positions
            .iter()
            .map(|(sheet, dice, n)| oracle.options(sheet, dice, *n, &mut cache).len())
            .sum()
    };
    time_rating(&recorded, rate, games);
}

/// [`speed`] for rule sets played by `play_oracle_game`: every option of every decision
/// (the announcements of each first roll included) valued from a fresh cache per game.
fn speed_own_turn(oracle: &JambOracle, games: u64) {
    type Decision = (JambSheet, Dice, JambTurn);
    let recorded: Vec<Vec<Decision>> = (0..games)
        .into_par_iter()
        .map(|g| {
            let mut rng = ChaCha8Rng::seed_from_u64(g);
            play_oracle_game(oracle, &mut rng)
                .map(|game| game.decisions)
                .unwrap_or_default()
        })
        .collect();
    let rate = |decisions: &Vec<Decision>| -> usize {
        let mut cache = JambTurnCache::default();
        decisions
            .iter()
            .map(|(sheet, dice, turn)| {
                let announced = if turn.roll_number == 1 && turn.announced.is_none() {
                    oracle.announcements(sheet, dice, &mut cache).len()
                } else {
                    0
                };
                oracle.options_at(sheet, dice, *turn, &mut cache).len() + announced
            })
            .sum()
    };
    time_rating(&recorded, rate, games);
}

/// Rates the `recorded` games with `rate` (the options valued per game) on one thread, then on
/// all, and prints the speeds.
fn time_rating<D: Sync>(recorded: &[Vec<D>], rate: impl Fn(&Vec<D>) -> usize + Sync, games: u64) {
    let start = Instant::now();
    let mut times: Vec<f64> = Vec::with_capacity(recorded.len());
    let options: usize = recorded
        .iter()
        .map(|g| {
            let t = Instant::now();
            let n = rate(g);
            times.push(t.elapsed().as_secs_f64());
            n
        })
        .sum();
    let one = start.elapsed().as_secs_f64();
    times.sort_by(f64::total_cmp);
    let slowest: f64 = times.iter().rev().take(times.len().div_ceil(20)).sum();
    println!(
        "per game: median {:.2} ms, slowest {:.1} ms, the slowest 5% take {:.0}% of the time",
        1000.0 * times[times.len() / 2],
        1000.0 * times.last().copied().unwrap_or(0.0),
        100.0 * slowest / one
    );
    let start = Instant::now();
    let again: usize = recorded.par_iter().map(&rate).sum();
    let all = start.elapsed().as_secs_f64();
    let decisions: usize = recorded.iter().map(Vec::len).sum();
    assert_eq!(options, again);
    println!(
        "rating {games} games ({:.1} decisions, {:.0} options per game): one thread {:.1} games/s ({:.2} ms per game); {} threads {:.1} games/s",
        decisions as f64 / games as f64,
        options as f64 / games as f64,
        games as f64 / one,
        1000.0 * one / games as f64,
        rayon::current_num_threads(),
        games as f64 / all
    );
}

/// Time to solve the exact endgame from scratch at the start of the turn with 3 (2, 1) empty
/// boxes, over the positions met in self-played games.
fn endgame_time(oracle: &JambOracle, games: u64, most: usize) {
    let oracle = Arc::new(oracle.clone());
    for empty in 1..=most {
        let mut sheets = Vec::new();
        for g in 0..games {
            let mut rng = ChaCha8Rng::seed_from_u64(g);
            let player = OraclePlayer::new(Arc::clone(&oracle));
            let positions = record_positions(*oracle.rules(), player, &mut rng).unwrap_or_default();
            if let Some(p) = positions.iter().find(|p| p.0.turns_left() == empty) {
                sheets.push(p.0);
            }
        }
        let start = Instant::now();
        let mut states = 0;
        for sheet in &sheets {
            let mut endgame = Endgame::with_limit(*oracle.rules(), most);
            let _ = endgame.value(sheet);
            states += endgame.memo_len();
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{empty} empty: {} endgames solved from scratch in {:.3} ms each on average ({:.0} states each)",
            sheets.len(),
            1000.0 * secs / sheets.len() as f64,
            states as f64 / sheets.len() as f64
        );
    }
}

/// Loss per decision against the exact endgame, on the positions with at most three empty
/// boxes met in self-play.
fn loss(oracle: &JambOracle, games: u64, seed: u64) {
    println!("{}", oracle.describe());
    let oracle = Arc::new(oracle.clone());
    let results: Vec<(usize, usize, f64)> = (0..games)
        .into_par_iter()
        .map(|g| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed * 1_000_000_007 + g);
            let player = OraclePlayer::new(Arc::clone(&oracle));
            let positions = record_positions(*oracle.rules(), player, &mut rng).unwrap_or_default();
            let mut endgame = Endgame::new(*oracle.rules());
            let mut cache = JambTurnCache::default();
            let (mut decisions, mut differ, mut lost) = (0, 0, 0.0);
            for (sheet, dice, n) in &positions {
                if sheet.turns_left() > Endgame::MAX_EMPTY {
                    continue;
                }
                let Some(pick) = oracle.best(sheet, dice, *n, &mut cache) else {
                    continue;
                };
                let exact = endgame.options(sheet, dice, *n);
                let best = exact.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max);
                let Some(&(_, v)) = exact.iter().find(|o| o.0 == pick.0) else {
                    panic!("the oracle's option is not legal");
                };
                decisions += 1;
                if best - v > 1e-9 {
                    differ += 1;
                }
                lost += best - v;
            }
            (decisions, differ, lost)
        })
        .collect();
    let decisions: usize = results.iter().map(|r| r.0).sum();
    let differ: usize = results.iter().map(|r| r.1).sum();
    let lost: f64 = results.iter().map(|r| r.2).sum();
    println!(
        "{games} games: {decisions} decisions with <= 3 empty boxes; oracle's choice worse than the exact best in {differ} ({:.2}%); mean loss {:.4} points per decision ({:.3} per game)",
        100.0 * differ as f64 / decisions as f64,
        lost / decisions as f64,
        lost / games as f64
    );
}

/// Where the points come from: mean points per column and box over self-played games.
fn breakdown(oracle: &JambOracle, games: u64, seed: u64) {
    use dicelens::rules::jamb::JambBox;
    let oracle = Arc::new(oracle.clone());
    // Each game's final slip and its writes (column, box, turn).
    type Played = (JambSheet, Vec<(u8, usize, usize)>);
    let played: Vec<Played> = (0..games)
        .into_par_iter()
        .map(|g| {
            let mut player = OraclePlayer::new(Arc::clone(&oracle));
            let mut rng = ChaCha8Rng::seed_from_u64(seed * 1_000_000_007 + g);
            let mut players: [&mut dyn JambPlayer; 1] = [&mut player];
            match play_game(*oracle.rules(), &mut players, DiceLaw::Fair, &mut rng) {
                Ok(game) => {
                    let when = game
                        .turns
                        .iter()
                        .enumerate()
                        .map(|(i, t)| (t.cell.column, t.cell.jbox.index(), i))
                        .collect();
                    (game.finals[0], when)
                }
                Err(e) => panic!("illegal move: {e}"),
            }
        })
        .collect();
    let finals: Vec<JambSheet> = played.iter().map(|p| p.0).collect();
    println!("mean turn (0..64) each cell is written:");
    for b in JambBox::ALL {
        print!("{:>6}", b.code());
        for c in 0..oracle.rules().columns.len() {
            let mean: f64 = played
                .iter()
                .flat_map(|p| p.1.iter())
                .filter(|w| usize::from(w.0) == c && w.1 == b.index())
                .map(|w| w.2 as f64)
                .sum::<f64>()
                / games as f64;
            print!("{mean:>9.1}");
        }
        println!();
    }
    let n = games as f64;
    let rules = *oracle.rules();
    print!("{:>6}", "box");
    for k in rules.columns {
        print!("{:>9}", k.code());
    }
    println!();
    for b in JambBox::ALL {
        print!("{:>6}", b.code());
        for c in 0..rules.columns.len() {
            let mean: f64 = finals
                .iter()
                .map(|s| f64::from(s.columns()[c].value(b).unwrap_or(0)))
                .sum::<f64>()
                / n;
            print!("{mean:>9.2}");
        }
        println!();
    }
    type Part = fn(&dicelens::rules::jamb::ColumnState) -> i32;
    let parts: [(&str, Part); 5] = [
        ("bonus%", |c| c.upper_bonus() / 30 * 100),
        ("upper", |c| c.upper_sum() + c.upper_bonus()),
        ("middle", |c| c.middle()),
        ("lower", |c| c.lower_sum()),
        ("total", |c| c.total()),
    ];
    for (name, f) in parts {
        print!("{name:>6}");
        for c in 0..rules.columns.len() {
            let mean: f64 = finals
                .iter()
                .map(|s| f64::from(f(&s.columns()[c])))
                .sum::<f64>()
                / n;
            print!("{mean:>9.2}");
        }
        println!();
    }
}
