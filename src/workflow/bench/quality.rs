//! `bench quality`: the published quality experiment for two players (docs/methods.md section
//! 4), reproducible from a seed. Typical positions with at most a number of boxes free in all
//! come from self-play by EMP(1) (`crate::selfplay`); every option of every position is valued
//! exactly; then each method (EMP(0..=D), DynW(1..=D), and the solitaire strategy E) picks its
//! best option and is charged the exact loss of that pick, tallied by number of free boxes for
//! `report::quality`.

use super::BenchError;
use crate::report::quality::{QualitySetup, Tally};
use crate::rules::{Choice, Sheet};
use crate::selfplay::{positions, SelfPlayError, TwoPlayerPosition};
use crate::solve::match_points::{MatchSearch, Method};
use crate::solve::turn_oracle::TurnOracle;
use crate::solve::two_player::ExactTwoPlayer;
use crate::tables::{load_dist, load_expected, Progress};
use std::collections::BTreeMap;
use std::path::Path;

/// The experiment's result: the methods measured and, per method, its tally by number of free
/// boxes.
pub struct Quality {
    /// The methods, in order: EMP(0..=D), DynW(1..=D), the solitaire strategy.
    pub methods: Vec<Method>,
    /// Per method, its exact losses by number of free boxes.
    pub tallies: Vec<BTreeMap<u32, Tally>>,
    /// Seconds the self-play and the valuing took together.
    pub seconds: f64,
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

/// A self-play failure as the run reports it.
fn self_play_error(e: SelfPlayError) -> BenchError {
    match e {
        SelfPlayError::Unvalued => BenchError("self-play: a position EMP(1) cannot value".into()),
        e => BenchError(e.to_string()),
    }
}

/// Runs the experiment of `setup` with searches up to `depth`, over the tables of `tables`
/// (notices to `progress`); `valued` is told, after each position, how many are valued of how
/// many. The caller says when it is over ([`Quality::seconds`]).
pub fn quality(
    setup: &QualitySetup,
    depth: u8,
    tables: &Path,
    progress: &dyn Progress,
    valued: &mut dyn FnMut(usize, usize),
) -> Result<Quality, BenchError> {
    let rules = setup.rules;
    let fail = |e: crate::tables::TableError| BenchError(e.to_string());
    let (expected, _) = load_expected(tables, rules, progress).map_err(fail)?;
    let (dists, _) = load_dist(tables, rules, progress).map_err(fail)?;
    let solver = ExactTwoPlayer::new(rules);
    let start = std::time::Instant::now();
    let player = MatchSearch::new(&dists, None, Method::Emp(1));
    let found: Vec<TwoPlayerPosition> =
        positions(rules, &player, setup.positions, setup.max_free, setup.seed)
            .map_err(self_play_error)?;
    progress.notice(&format!(
        "{} positions from self-play in {:.1} s; valuing them",
        found.len(),
        start.elapsed().as_secs_f64()
    ));
    let mut methods: Vec<Method> = (0..=depth).map(Method::Emp).collect();
    methods.extend((1..=depth).map(Method::DynW));
    methods.push(Method::Solitaire);
    let mut tallies: Vec<BTreeMap<u32, Tally>> = vec![BTreeMap::new(); methods.len()];
    for (done, p) in found.iter().enumerate() {
        let d = i64::from(p.other.points) - i64::from(p.mover.points);
        let exact: Vec<(Choice, f64)> = solver
            .turn(&p.mover, &p.other)
            .ok_or_else(|| BenchError("a position the exact solver cannot value".into()))?
            .options_at(&p.roll, p.rolls_left, d)
            .into_iter()
            .map(|o| (o.choice, o.p_target))
            .collect();
        let best = exact.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max);
        let loss = |c: Choice| exact.iter().find(|o| o.0 == c).map(|o| best - o.1);
        let key = p.free_boxes();
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
                .ok_or_else(|| BenchError(format!("{m} gives no legal option")))?;
            tally.entry(key).or_default().add(error.max(0.0));
        }
        valued(done + 1, found.len());
    }
    Ok(Quality {
        methods,
        tallies,
        seconds: start.elapsed().as_secs_f64(),
    })
}
