//! Exact two-player values (issue 6) against a plain expectimax over both players' turns on
//! reduced games, and the symmetry of match points.

use crate::common::{brute_turn, raise, reduced, Probs};
use dicelens::dice::Dice;
use dicelens::rules::{RuleSet, Sheet};
use dicelens::solve::two_player::{window_at, ExactTwoPlayer};
use std::collections::HashMap;

/// Differences `d` covered: `-RANGE..=RANGE` (more than two boxes each can score).
const RANGE: i64 = 400;
const LEN: usize = (2 * RANGE + 1) as usize;

/// Brute-force `W[mover, other](d)` for `d` in `-RANGE..=RANGE`, memoised per pair of sheets
/// (points ignored): the mover's expected match points when the other leads by `d`.
#[derive(Default)]
struct Brute {
    pairs: HashMap<(Sheet, Sheet), Probs>,
}

/// A tabulated function at `d` (1 before the range, 0 after it).
fn at(w: &Probs, d: i64) -> f64 {
    if d < -RANGE {
        1.0
    } else if d > RANGE {
        0.0
    } else {
        w[(d + RANGE) as usize]
    }
}

impl Brute {
    fn value(&mut self, mover: &Sheet, other: &Sheet) -> Probs {
        let key = (
            Sheet {
                points: 0,
                ..*mover
            },
            Sheet {
                points: 0,
                ..*other
            },
        );
        if let Some(w) = self.pairs.get(&key) {
            return w.clone();
        }
        let w = brute_turn(LEN, |dice| {
            let roll = Dice::from_faces(dice).unwrap();
            let mut best = vec![0.0; LEN];
            for b in 0..mover.rules.box_count() {
                let Some((after, s)) = mover.after(&roll, b) else {
                    continue;
                };
                let s = i64::from(s);
                let post: Probs = if other.is_complete() {
                    (-RANGE..=RANGE)
                        .map(|d| match (d - s).cmp(&0) {
                            std::cmp::Ordering::Less => 1.0,
                            std::cmp::Ordering::Equal => 0.5,
                            std::cmp::Ordering::Greater => 0.0,
                        })
                        .collect()
                } else {
                    let next = self.value(other, &after);
                    (-RANGE..=RANGE).map(|d| 1.0 - at(&next, s - d)).collect()
                };
                raise(&mut best, &post);
            }
            best
        });
        self.pairs.insert(key, w.clone());
        w
    }
}

/// A reduced two-player game: free boxes of the mover, of the other, their upper totals, and
/// whether the filled Yahtzee boxes hold 50.
type Spec<'a> = (&'a [&'a str], &'a [&'a str], u32, u32, bool);

/// Reduced two-player games.
fn positions(rules: RuleSet) -> Vec<(Sheet, Sheet)> {
    let specs: &[Spec] = if rules == RuleSet::Yatzy {
        &[
            (&["C"], &["C"], 63, 63, false),
            (&["1P"], &["Y"], 40, 50, false),
            (&["5", "C"], &["6"], 58, 50, false),
        ]
    } else {
        &[
            (&["C"], &["C"], 63, 63, false),
            (&["Y"], &["LS"], 40, 70, true),
            (&["5", "C"], &["6"], 58, 50, true),
            (&["FH", "4"], &["SS", "Y"], 50, 60, false),
        ]
    };
    specs
        .iter()
        .map(|&(a, b, ua, ub, y50)| {
            (
                reduced(rules, a, y50, ua, 300),
                reduced(rules, b, y50, ub, 300),
            )
        })
        .collect()
}

fn exact_equals_brute_force(rules: RuleSet) {
    let solver = ExactTwoPlayer::new(rules);
    let mut brute = Brute::default();
    for (mover, other) in positions(rules) {
        let want = brute.value(&mover, &other);
        let got = solver.entry(&mover, &other).unwrap();
        for d in -RANGE..=RANGE {
            let (g, w) = (f64::from(window_at(&got.window, d)), at(&want, d));
            assert!(
                (g - w).abs() < 2e-6,
                "{rules} {} vs {}: W({d}) exact {g} brute force {w}",
                mover.filled_codes(),
                other.filled_codes()
            );
        }
    }
}

#[test]
fn exact_equals_brute_force_yahtzee() {
    exact_equals_brute_force(RuleSet::Yahtzee);
}

#[test]
fn exact_equals_brute_force_yahtzee_kurnik() {
    exact_equals_brute_force(RuleSet::YahtzeeKurnik);
}

#[test]
fn exact_equals_brute_force_yatzy() {
    exact_equals_brute_force(RuleSet::Yatzy);
}

/// Both players' match points sum to 1: the mover's value and the other's value of the same
/// position seen from their side (after the mover scores, the other moves with the difference
/// negated) are complementary, so each is in `0..=1`; the mover's value never increases with the
/// other's lead, is 1 when the lead cannot be caught up and 0 when it cannot be overcome.
#[test]
fn match_point_values_are_complementary_and_monotone() {
    let rules = RuleSet::Yahtzee;
    let solver = ExactTwoPlayer::new(rules);
    for (mover, other) in positions(rules) {
        let w = solver.entry(&mover, &other).unwrap();
        let values: Vec<f32> = (-RANGE..=RANGE).map(|d| window_at(&w.window, d)).collect();
        assert!(values.iter().all(|v| (0.0..=1.0).contains(v)));
        assert!(
            values.windows(2).all(|p| p[0] >= p[1]),
            "{}",
            mover.filled_codes()
        );
        assert_eq!(values[0], 1.0);
        assert_eq!(values[LEN - 1], 0.0);
        // The other player's value at the start of their turn, after the mover's best
        // immediate score in every box, plus the mover's post-score value, is 1.
        let roll = Dice::from_faces(&[6, 6, 6, 6, 6]).unwrap();
        for b in 0..rules.box_count() {
            let Some((after, s)) = mover.after(&roll, b) else {
                continue;
            };
            if other.is_complete() {
                continue;
            }
            let theirs = solver.value(&other, &after).unwrap();
            let turn = solver.turn(&mover, &other).unwrap();
            let d = i64::from(other.points) - i64::from(mover.points);
            let mine = turn
                .options_at(&roll, 0, d)
                .into_iter()
                .find(|o| o.choice == dicelens::rules::Choice::Score(rules.boxes()[b]))
                .unwrap()
                .p_target;
            assert!(
                (mine + theirs - 1.0).abs() < 1e-6,
                "{mine} + {theirs} (box {b}, +{s})"
            );
        }
    }
}

/// Values solved only where a position needs them (at its own points difference) equal the
/// whole entry's bit for bit, whatever was solved before: a fresh solver asked at each
/// difference, and one solver asked at differences in a scattered order, so that later
/// requests widen entries solved for earlier ones.
#[test]
fn values_at_one_difference_equal_the_whole_entry() {
    for rules in [RuleSet::Yahtzee, RuleSet::YahtzeeKurnik] {
        let whole = ExactTwoPlayer::new(rules);
        let reused = ExactTwoPlayer::new(rules);
        // Three free boxes each: wide enough that spans cut most entries short.
        let wider = [
            (
                reduced(rules, &["3", "FH", "C"], false, 40, 200),
                reduced(rules, &["4", "SS", "Y"], false, 45, 200),
            ),
            (
                reduced(rules, &["5", "LS", "4K"], true, 50, 200),
                reduced(rules, &["6", "C", "3K"], true, 30, 200),
            ),
        ];
        for (mover, other) in positions(rules).into_iter().chain(wider) {
            let w = whole.entry(&mover, &other).unwrap();
            assert_eq!(w.known, (i64::MIN, i64::MAX));
            for d in [7, -30, 0, 45, -3, 12, -80, 90] {
                let mut behind = other;
                behind.points = (i64::from(mover.points) + d) as u32;
                let want = f64::from(window_at(&w.window, d));
                let fresh = ExactTwoPlayer::new(rules).value(&mover, &behind).unwrap();
                assert_eq!(fresh, want, "{rules} {} d={d}", mover.filled_codes());
                assert_eq!(reused.value(&mover, &behind).unwrap(), want);
            }
        }
    }
}

/// The endgame where only chance is free for both and the points are equal: the first player
/// must score without knowing the target; the second sees it and keeps rerolling towards
/// beating it. The second player's expected match points exceed 1/2.
#[test]
fn chance_endgame_favours_the_second_player() {
    let rules = RuleSet::Yahtzee;
    let sheet = reduced(rules, &["C"], false, 63, 250);
    let solver = ExactTwoPlayer::new(rules);
    let first = solver.value(&sheet, &sheet).unwrap();
    let second = 1.0 - first;
    let mut brute = Brute::default();
    let want = at(&brute.value(&sheet, &sheet), 0);
    assert!((first - want).abs() < 2e-6, "{first} vs {want}");
    assert!(second > 0.5, "second player's value {second}");
    assert!(second < 0.75, "second player's value {second}");
}

mod heuristics {
    use super::*;
    use dicelens::solve::distribution::{build_dist, BuildObserver, DistTableData};
    use dicelens::solve::match_points::{ExactRange, MatchSearch, Method};
    use dicelens::solve::states::StateSpace;

    /// Just above the exact range, EMP(1) whose search values its leaves exactly (they are
    /// all in range) is the exact turn; ending its search at the static evaluation instead
    /// (the oracle specs' `/exact:N` without `/exact-leaves`) gives other, close values.
    #[test]
    fn exact_leaves_make_emp1_exact_one_turn_above_the_range() {
        let rules = RuleSet::Yahtzee;
        let dists = late(rules, 3);
        let solver = ExactTwoPlayer::new(rules);
        let roll = Dice::from_faces(&[2, 3, 4, 5, 5]).unwrap();
        // 4 boxes free in all, the range 3: the turn is searched, its leaves are in range.
        let (mover, other) = positions(rules)[3];
        let options = |range: ExactRange, method| {
            let mut o = MatchSearch::new(&dists, Some(range), method)
                .options(&mover, &[other], &roll, 2)
                .unwrap();
            o.sort_by_key(|x| format!("{}", x.0));
            o
        };
        let exact = options(in_range(&solver, 4), Method::Exact);
        let leaves = options(in_range(&solver, 3), Method::Emp(1));
        let static_leaves = ExactRange {
            in_search: false,
            ..in_range(&solver, 3)
        };
        let searched = options(static_leaves, Method::Emp(1));
        assert_eq!(leaves.len(), exact.len());
        let mut largest = 0f64;
        for ((e, l), s) in exact.iter().zip(&leaves).zip(&searched) {
            assert_eq!((e.0, l.0), (s.0, s.0));
            assert!(
                (e.1 - l.1).abs() < 1e-5,
                "{}: exact {} leaves {}",
                e.0,
                e.1,
                l.1
            );
            largest = largest.max((e.1 - s.1).abs());
        }
        assert!(
            largest > 1e-4 && largest < 0.05,
            "static leaves differ by {largest}"
        );
    }

    struct Quiet;
    impl BuildObserver for Quiet {
        fn chunk_done(&mut self, _: &DistTableData, _: &[usize], _: u64, _: u64) -> bool {
            true
        }
    }

    /// The exact solver for positions with at most `most_free` boxes free, in the search too.
    fn in_range(solver: &ExactTwoPlayer, most_free: u32) -> ExactRange<'_> {
        ExactRange {
            solver,
            most_free,
            in_search: true,
        }
    }

    /// The distribution table's states with at most `free` boxes free.
    fn late(rules: RuleSet, free: usize) -> DistTableData {
        let mut data = DistTableData::new(StateSpace::new(rules).len());
        build_dist(rules, &mut data, rules.box_count() - free, &mut Quiet);
        data
    }

    /// When the search reaches positions the exact solver settles, its values are exact; far
    /// from them EMP(d) stays close to the exact values on late positions.
    #[test]
    fn searches_agree_with_exact_values() {
        let rules = RuleSet::Yahtzee;
        let dists = late(rules, 3);
        let solver = ExactTwoPlayer::new(rules);
        let roll = Dice::from_faces(&[2, 3, 4, 5, 5]).unwrap();
        for (mover, other) in positions(rules) {
            let exact = MatchSearch::new(&dists, Some(in_range(&solver, 6)), Method::Exact)
                .options(&mover, &[other], &roll, 1)
                .unwrap();
            let value_of = |options: &[(dicelens::rules::Choice, f64)], c| {
                options.iter().find(|o| o.0 == c).unwrap().1
            };
            for d in 1..=3 {
                let settled = MatchSearch::new(&dists, Some(in_range(&solver, 6)), Method::Emp(d))
                    .options(&mover, &[other], &roll, 1)
                    .unwrap();
                assert_eq!(settled.len(), exact.len());
                for &(c, v) in &settled {
                    assert!((v - value_of(&exact, c)).abs() < 1e-5, "emp:{d} {c}: {v}");
                }
                let heuristic = MatchSearch::new(&dists, None, Method::Emp(d))
                    .options(&mover, &[other], &roll, 1)
                    .unwrap();
                let best_exact = exact[0].1;
                let chosen = value_of(&exact, heuristic[0].0);
                assert!(
                    best_exact - chosen < 0.02,
                    "emp:{d} loses {}",
                    best_exact - chosen
                );
            }
        }
    }
}

mod cli {
    use super::*;
    use crate::common::{run, text};

    use crate::common::CHANCE_ONLY_FILLED as CHANCE_ONLY;

    fn eval(extra: &[&str]) -> std::process::Output {
        let mut args = vec![
            "eval",
            "--filled",
            CHANCE_ONLY,
            "--upper",
            "70",
            "--points",
            "200",
        ];
        args.extend_from_slice(extra);
        run(&args, 2)
    }

    /// Two players with few boxes free: exact values by default, matching the library, with
    /// the method named.
    #[test]
    fn two_player_positions_are_valued_exactly_by_default() {
        let opponent = [
            "--opponent-filled",
            CHANCE_ONLY,
            "--opponent-upper",
            "70",
            "--opponent-points",
            "210",
        ];
        let out = eval(&[&opponent[..], &["--json"]].concat());
        assert!(out.status.success(), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let sheet = reduced(RuleSet::Yahtzee, &["C"], false, 70, 200);
        let other = Sheet {
            points: 210,
            ..sheet
        };
        let want = ExactTwoPlayer::new(RuleSet::Yahtzee)
            .value(&sheet, &other)
            .unwrap();
        assert!((v["value"].as_f64().unwrap() - want).abs() < 1e-9);
        assert_eq!(v["method"], "exact");
        // Ten behind with only chance left: at least 11 more than the opponent's chance.
        assert!(want > 0.0 && want < 0.5, "{want}");
        let out = eval(&[&opponent[..], &["--roll", "66661", "--rolls-left", "1"]].concat());
        let shown = text(&out.stdout);
        assert!(
            shown.contains("method exact (expected match points)"),
            "{shown}"
        );
        assert!(
            shown.lines().nth(3).unwrap().starts_with("keep 6666"),
            "{shown}"
        );
    }

    /// Exact values from the start of a game would take hours: refused, with the way out.
    #[test]
    fn exact_values_of_early_positions_are_refused() {
        let out = run(
            &[
                "eval",
                "--filled",
                "-",
                "--opponent-filled",
                "-",
                "--method",
                "exact",
                "--roll",
                "12345",
            ],
            2,
        );
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("at most 12 boxes free"),
            "{}",
            text(&out.stderr)
        );
        let out = run(&["analyze", "nowhere.ygn", "--oracle", "exact"], 2);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("--oracle"),
            "{}",
            text(&out.stderr)
        );
        // Each malformed spec is a usage error naming the flag and what is expected.
        for (spec, says) in [
            ("emp:1/exact:20", "N in 0..=12"),
            ("emp:9", "from 0 to 5, got '9'"),
            ("e/exact:4", "e takes no /options"),
            ("emp:1/exact-leaves", "needs /exact:N"),
            ("emp:1/exact:4/exact:6", "an oracle is"),
            ("emp:1/depth:2", "an oracle is"),
            ("", "unknown method"),
        ] {
            let out = run(&["analyze", "nowhere.ygn", "--oracle", spec], 2);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{spec}: {stderr}");
            assert!(
                stderr.contains("--oracle") && stderr.contains(says),
                "{spec}: {stderr}"
            );
        }
    }

    #[test]
    fn bad_opponents_and_methods_are_usage_errors() {
        let cases: &[(&[&str], &str)] = &[
            (
                &["--opponent-filled", "1,2", "--roll", "12345"],
                "--opponent-filled",
            ),
            (&["--opponent-upper", "10"], "--opponent-filled"),
            (
                &["--opponent-filled", CHANCE_ONLY, "--method", "emp:7"],
                "--method",
            ),
            (&["--method", "exact"], "--method"),
            (
                &[
                    "--opponent-filled",
                    CHANCE_ONLY,
                    "--opponent-filled",
                    CHANCE_ONLY,
                    "--method",
                    "exact",
                ],
                "--method",
            ),
            (
                &["--opponent-filled", CHANCE_ONLY, "--opponent-upper", "999"],
                "--opponent-upper",
            ),
        ];
        for (extra, flag) in cases {
            let out = eval(extra);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{extra:?}: {}",
                text(&out.stderr)
            );
            let err = text(&out.stderr);
            assert!(
                err.contains(flag) && err.lines().count() == 1,
                "{extra:?}: {err}"
            );
            assert!(out.stdout.is_empty());
        }
    }
}

mod several {
    use super::*;
    use dicelens::rules::Choice;
    use dicelens::solve::distribution::{build_dist, BuildObserver, DistTableData};
    use dicelens::solve::match_points::{MatchSearch, Method};
    use dicelens::solve::states::StateSpace;

    struct Quiet;
    impl BuildObserver for Quiet {
        fn chunk_done(&mut self, _: &DistTableData, _: &[usize], _: u64, _: u64) -> bool {
            true
        }
    }

    /// Three players: EMP(1) values scoring a box as the sum, over opponents, of the two-player
    /// EMP(1) values (match points add up pairwise), each in `0..=1`, so the total in `0..=2`.
    #[test]
    fn three_players_add_up_pairwise() {
        let rules = RuleSet::Yahtzee;
        let mut dists = DistTableData::new(StateSpace::new(rules).len());
        build_dist(rules, &mut dists, rules.box_count() - 3, &mut Quiet);
        let mover = reduced(rules, &["FH", "4"], false, 50, 180);
        let others = [
            reduced(rules, &["SS", "Y"], false, 60, 190),
            reduced(rules, &["C"], false, 63, 230),
        ];
        let search = |method| MatchSearch::new(&dists, None, method);
        let roll = Dice::from_faces(&[4, 4, 4, 2, 2]).unwrap();
        let three = search(Method::Emp(1))
            .options(&mover, &others, &roll, 0)
            .unwrap();
        assert_eq!(three.len(), 2, "two boxes free");
        for &(choice, total) in &three {
            assert!(matches!(choice, Choice::Score(_)));
            let pairwise: f64 = others
                .iter()
                .map(|o| {
                    let two = search(Method::Emp(1))
                        .options(&mover, std::slice::from_ref(o), &roll, 0)
                        .unwrap();
                    let v = two.iter().find(|x| x.0 == choice).unwrap().1;
                    assert!((0.0..=1.0).contains(&v));
                    v
                })
                .sum();
            assert!(
                (total - pairwise).abs() < 1e-9,
                "{choice}: {total} vs {pairwise}"
            );
            assert!((0.0..=2.0).contains(&total));
        }
        // Beyond depth 1 and exact values are for two players only.
        assert!(search(Method::Emp(2))
            .options(&mover, &others, &roll, 0)
            .is_none());
        assert!(search(Method::Exact)
            .options(&mover, &others, &roll, 0)
            .is_none());
    }
}
