//! The published Jamb strategies (`dicelens::simulate::jamb_strategies`) on the five-column
//! slip: 10,000 games each, every game legal to the end, and the published ordering
//! MS > PB > P1 ≈ P2 > Rnd with clear gaps. Run with `--nocapture` to see the table of
//! `docs/jamb.md`.

use dicelens::rules::jamb::JambRules;
use dicelens::simulate::jamb::play_game;
use dicelens::simulate::jamb_strategies::Strategy;
use dicelens::simulate::DiceLaw;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// Games per strategy.
const GAMES: u64 = 10_000;
/// The seed of the games: game `g` draws from `ChaCha8Rng::seed_from_u64(SEED * 1_000_003 + g)`.
const SEED: u64 = 2024;

/// The published means (1,000 games each), in `Strategy::ALL` order.
const PUBLISHED: [(Strategy, f64); 5] = [
    (Strategy::Rnd, 173.1),
    (Strategy::P1, 548.8),
    (Strategy::P2, 545.5),
    (Strategy::Pb, 611.7),
    (Strategy::Ms, 687.5),
];

/// Our means over the `GAMES` games of `SEED` (the table of `docs/jamb.md`), in
/// `Strategy::ALL` order. The published magnitudes are not reproduced: Rnd comes out 11% below
/// its published mean and the four histogram strategies 53-80% above theirs (see
/// `docs/jamb.md`); these figures pin our own results instead, so that a change of behaviour
/// shows up here and in the documentation together.
const OURS: [(Strategy, f64); 5] = [
    (Strategy::Rnd, 154.2),
    (Strategy::P1, 944.1),
    (Strategy::P2, 984.3),
    (Strategy::Pb, 1009.9),
    (Strategy::Ms, 1049.8),
];

/// Mean, standard deviation and standard error of a sample.
#[derive(Clone, Copy, Debug)]
struct Summary {
    mean: f64,
    sd: f64,
    se: f64,
}

fn summary(scores: &[i32]) -> Summary {
    let n = scores.len() as f64;
    let mean = scores.iter().map(|&s| f64::from(s)).sum::<f64>() / n;
    let var = scores
        .iter()
        .map(|&s| (f64::from(s) - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0);
    Summary {
        mean,
        sd: var.sqrt(),
        se: (var / n).sqrt(),
    }
}

/// The final score of game `game` of `strategy`, panicking on an illegal move.
fn play(strategy: Strategy, game: u64) -> i32 {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED * 1_000_003 + game);
    let mut player = strategy.player();
    let played = play_game(
        JambRules::JAMB_5,
        &mut [&mut *player],
        DiceLaw::Fair,
        &mut rng,
    )
    .unwrap_or_else(|e| panic!("{strategy}, game {game}: {e}"));
    assert_eq!(played.turns.len(), JambRules::JAMB_5.turns());
    let slip = &played.finals[0];
    assert!(slip.is_complete(), "{strategy}, game {game}: slip not full");
    slip.total()
}

/// The scores of `games` games of `strategy`, in game order (parallel, deterministic).
fn scores(strategy: Strategy, games: u64) -> Vec<i32> {
    (0..games)
        .into_par_iter()
        .map(|g| play(strategy, g))
        .collect()
}

/// True when `a` exceeds `b` by more than three standard errors of the difference.
fn clearly_above(a: Summary, b: Summary) -> bool {
    a.mean - b.mean > 3.0 * (a.se.powi(2) + b.se.powi(2)).sqrt()
}

#[test]
fn published_ordering_over_10000_games() {
    let all: Vec<(Strategy, Summary)> = Strategy::ALL
        .into_iter()
        .map(|s| (s, summary(&scores(s, GAMES))))
        .collect();
    let get = |s: Strategy| all.iter().find(|(t, _)| *t == s).map(|&(_, m)| m).unwrap();
    println!("| strategy | published mean | our mean | SD | 95% CI | ours / published |");
    println!("|---|---|---|---|---|---|");
    for &(s, published) in &PUBLISHED {
        let m = get(s);
        println!(
            "| {} | {published:.1} | {:.1} | {:.1} | {:.1}-{:.1} | {:.2} |",
            s.name(),
            m.mean,
            m.sd,
            m.mean - 1.96 * m.se,
            m.mean + 1.96 * m.se,
            m.mean / published
        );
    }
    for &(s, ours) in &OURS {
        let m = get(s).mean;
        assert!(
            (m - ours).abs() < 0.05 + 1e-9,
            "{s}: mean {m:.2}, documented {ours}"
        );
    }
    let (rnd, p1, p2, pb, ms) = (
        get(Strategy::Rnd),
        get(Strategy::P1),
        get(Strategy::P2),
        get(Strategy::Pb),
        get(Strategy::Ms),
    );
    let best_p = if p1.mean > p2.mean { p1 } else { p2 };
    let worst_p = if p1.mean > p2.mean { p2 } else { p1 };
    assert!(clearly_above(ms, pb), "MS {ms:?} not above PB {pb:?}");
    assert!(
        clearly_above(pb, best_p),
        "PB {pb:?} not above P1/P2 {best_p:?}"
    );
    assert!(
        clearly_above(worst_p, rnd),
        "P1/P2 {worst_p:?} not above Rnd {rnd:?}"
    );
    // P1 ~ P2: within 10% of each other, and their difference at most a tenth of their lead
    // over Rnd.
    let gap = (p1.mean - p2.mean).abs();
    assert!(
        gap <= 0.10 * worst_p.mean,
        "P1 {p1:?} and P2 {p2:?} differ by over 10%"
    );
    assert!(
        gap <= 0.10 * (worst_p.mean - rnd.mean),
        "P1 {p1:?} and P2 {p2:?} differ by over a tenth of their lead over Rnd {rnd:?}"
    );
}

#[test]
fn games_are_deterministic() {
    for s in Strategy::ALL {
        let parallel = scores(s, 64);
        let serial: Vec<i32> = (0..64).map(|g| play(s, g)).collect();
        assert_eq!(parallel, serial, "{s}");
    }
}
