//! Maximal-probability distributions (issue 5): the table against a plain exhaustive
//! computation on reduced games, closed forms for single boxes, the invariants of every
//! distribution of a whole table, the files (damage, truncation, interrupted builds), and
//! `eval --target`.

use crate::common::{run, text};
use crate::support::SupportSolver;
use dicelens::dice::Dice;
use dicelens::rules::{RuleSet, Sheet};
use dicelens::solve::distribution::{
    build_dist, build_reference, relative_error_bound, BuildObserver, Dist, DistSource,
    DistTableData, TurnDist, CHUNK,
};
use dicelens::solve::expected::{build_table, sheet_value};
use dicelens::solve::prob_code::FINE_ROUNDING;
use dicelens::solve::states::StateSpace;
use dicelens::tables::{
    build_dist_file, build_dist_file_reporting, dist_from_data, dist_partial_path, dist_path,
    open_dist, DistTable, TableProblem,
};
use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

/// Targets covered by the brute force (more than any two boxes can score).
const TARGETS: usize = 420;

/// Targets covered by the brute force of three-box games (more than three boxes can score,
/// extra bonuses included).
const TARGETS_3: usize = 480;

/// The least probability the tables keep to within [`relative_error_bound`].
const TAIL: f64 = 1e-12;

/// A distribution as `P(x)` for `x` in `0..TARGETS`.
type Probs = crate::common::Probs;

/// The sheet of `rules` with every box filled except `free` (300 points).
fn reduced(rules: RuleSet, free: &[&str], y50: bool, upper: u32) -> Sheet {
    crate::common::reduced(rules, free, y50, upper, 300)
}

/// The reduced games of a rule set: one or two boxes free, covering the upper bonus, jokers
/// and the extra bonus, straights, Yatzy's pairs.
fn games(rules: RuleSet) -> Vec<Sheet> {
    let specs: &[(&[&str], bool, u32)] = if rules == RuleSet::Yatzy {
        &[
            (&["5"], false, 58),
            (&["1P"], false, 40),
            (&["Y"], false, 30),
            (&["1P", "2P"], false, 40),
            (&["5", "Y"], false, 58),
            (&["FH", "4"], false, 50),
        ]
    } else {
        &[
            (&["5"], true, 58),
            (&["Y"], false, 40),
            (&["LS"], true, 70),
            (&["C"], false, 63),
            (&["FH", "4"], true, 50),
            (&["5", "Y"], false, 58),
            (&["SS", "LS"], true, 66),
        ]
    };
    specs
        .iter()
        .map(|&(free, y50, upper)| reduced(rules, free, y50, upper))
        .collect()
}

/// `P` seen from before scoring `gained` points: `P(x - gained)`, 1 below `gained`.
fn shifted(p: &Probs, gained: u32) -> Probs {
    (0..p.len())
        .map(|x| x.checked_sub(gained as usize).map_or(1.0, |y| p[y]))
        .collect()
}

use crate::common::raise;

/// Plain exhaustive computation over dice positions and ordered outcomes, memoised per sheet
/// (points ignored); shares nothing with the widget or the dice tables.
struct Brute {
    targets: usize,
    sheets: HashMap<Sheet, Probs>,
}

impl Default for Brute {
    fn default() -> Self {
        Brute::new(TARGETS)
    }
}

impl Brute {
    /// A brute force over the targets `0..targets`.
    fn new(targets: usize) -> Brute {
        Brute {
            targets,
            sheets: HashMap::new(),
        }
    }

    fn sheet(&mut self, sheet: &Sheet) -> Probs {
        if sheet.is_complete() {
            let mut p = vec![0.0; self.targets];
            p[0] = 1.0;
            return p;
        }
        let key = Sheet {
            points: 0,
            ..*sheet
        };
        if let Some(p) = self.sheets.get(&key) {
            return p.clone();
        }
        let targets = self.targets;
        let p = crate::common::brute_turn(targets, |dice| {
            let roll = Dice::from_faces(dice).unwrap();
            let mut best = vec![0.0; targets];
            for b in 0..sheet.rules.box_count() {
                if let Some((next, gained)) = sheet.after(&roll, b) {
                    let p = self.sheet(&next);
                    raise(&mut best, &shifted(&p, gained));
                }
            }
            best
        });
        self.sheets.insert(key, p.clone());
        p
    }
}

/// Lets a build run to the end.
struct Quiet;

impl BuildObserver for Quiet {
    fn chunk_done(&mut self, _: &DistTableData, _: &[usize], _: u64, _: u64) -> bool {
        true
    }
}

/// The distribution table of the states with at most `free` boxes free.
fn late_table(rules: RuleSet, free: usize) -> DistTableData {
    let mut data = DistTableData::new(StateSpace::new(rules).len());
    assert!(build_dist(
        rules,
        &mut data,
        rules.box_count() - free,
        &mut Quiet
    ));
    data
}

/// The error bound of a state with `free` boxes (turns) left, relative, at every probability
/// down to [`TAIL`]; within 1% as the tables promise.
fn bound(free: usize) -> f64 {
    let b = relative_error_bound(free, TAIL);
    assert!(b <= 0.01, "{free} turns: {b}");
    b
}

/// The stored distribution `got` of `sheet` against the exact `want` (f64, untrimmed): `P`
/// within [`bound`] relative wherever the exact `P >= 1e-12`, `1 - P` too wherever the exact
/// `1 - P >= 1e-12` (where f64 still holds it to 1e-4), `P = 0` exactly where the exact is 0,
/// and the support (the least and greatest totals) equal to the rules' ([`SupportSolver`]).
fn agrees(got: Dist, want: &Probs, sheet: &Sheet, support: &mut SupportSolver) {
    let free = sheet.rules.box_count() - sheet.filled_count() as usize;
    let bound = bound(free);
    let name = format!("{} {}", sheet.rules, sheet.filled_codes());
    for (x, &p) in want.iter().enumerate() {
        let x = x as i64;
        let q = got.at_least(x);
        if p == 0.0 {
            assert_eq!(q, 0.0, "{name}: P(>={x}) is 0, the table has {q}");
            continue;
        }
        if p >= TAIL {
            assert!(
                (q / p - 1.0).abs() <= bound,
                "{name}: P(>={x}) table {q:e} exact {p:e} (bound {bound:e})"
            );
        }
        let (qc, pc) = (got.complement_at(x), 1.0 - p);
        if pc >= TAIL {
            assert!(
                (qc / pc - 1.0).abs() <= bound + 1e-15 / pc,
                "{name}: 1 - P(>={x}) table {qc:e} exact {pc:e}"
            );
        }
    }
    assert_eq!(want[want.len() - 1], 0.0, "{name}: targets cover the range");
    let s = support.support(sheet);
    assert_eq!(
        (i64::from(got.start) - 1, got.end()),
        (i64::from(s.guaranteed), i64::from(s.greatest)),
        "{name}: support (guaranteed, greatest)"
    );
    assert!(want[s.greatest as usize] > 0.0 && want[s.greatest as usize + 1] == 0.0);
}

fn table_equals_brute_force(rules: RuleSet) {
    let table = late_table(rules, 2);
    let mut brute = Brute::default();
    let mut support = SupportSolver::default();
    for sheet in games(rules) {
        let want = brute.sheet(&sheet);
        let index = StateSpace::new(rules).index_of(&sheet).unwrap();
        agrees(table.dist(index), &want, &sheet, &mut support);
    }
}

/// Every state with at most three boxes free of a few three-box games (and so the two- and
/// one-box states they lead to) against the exhaustive computation, both tails.
fn three_box_games_equal_brute_force(rules: RuleSet, specs: &[(&[&str], bool, u32)]) {
    let table = late_table(rules, 3);
    let mut brute = Brute::new(TARGETS_3);
    let mut support = SupportSolver::default();
    for &(free, y50, upper) in specs {
        brute.sheet(&reduced(rules, free, y50, upper));
    }
    assert!(
        brute.sheets.len() >= 10 * specs.len(),
        "{}",
        brute.sheets.len()
    );
    let space = StateSpace::new(rules);
    for (sheet, want) in &brute.sheets {
        let index = space.index_of(sheet).unwrap();
        agrees(table.dist(index), want, sheet, &mut support);
    }
}

#[test]
fn three_box_games_equal_brute_force_yahtzee() {
    three_box_games_equal_brute_force(
        RuleSet::Yahtzee,
        &[(&["6", "Y", "C"], false, 40), (&["4", "5", "SS"], true, 40)],
    );
}

#[test]
fn three_box_games_equal_brute_force_yatzy() {
    three_box_games_equal_brute_force(RuleSet::Yatzy, &[(&["6", "Y", "2P"], false, 45)]);
}

#[test]
fn table_equals_brute_force_yahtzee() {
    table_equals_brute_force(RuleSet::Yahtzee);
}

#[test]
fn table_equals_brute_force_yahtzee_kurnik() {
    table_equals_brute_force(RuleSet::YahtzeeKurnik);
}

#[test]
fn table_equals_brute_force_yatzy() {
    table_equals_brute_force(RuleSet::Yatzy);
}

/// One free box: the probability that best play for that box reaches each total, in closed
/// form where there is one.
#[test]
fn single_boxes_match_closed_forms() {
    let rules = RuleSet::Yahtzee;
    let table = late_table(rules, 2);
    let space = StateSpace::new(rules);
    let at = |sheet: &Sheet, x: i64| table.dist(space.index_of(sheet).unwrap()).at_least(x);
    // Only the Yahtzee box: P(50) is the chance of a Yahtzee in one turn, 2,783,176 / 6^10.
    let y = reduced(rules, &["Y"], false, 40);
    let p_yahtzee = 2_783_176.0 / 60_466_176.0;
    assert!(
        (at(&y, 50) / p_yahtzee - 1.0).abs() <= bound(1),
        "{}",
        at(&y, 50)
    );
    assert!((at(&y, 1) / p_yahtzee - 1.0).abs() <= bound(1));
    assert_eq!(at(&y, 51), 0.0);
    // Only chance: 30 needs five sixes, keeping sixes: (1 - (5/6)^3)^5; 5 is certain.
    let c = reduced(rules, &["C"], false, 63);
    let p_sixes = (1.0f64 - (5.0f64 / 6.0).powi(3)).powi(5);
    assert!(
        (at(&c, 30) / p_sixes - 1.0).abs() <= bound(1),
        "{}",
        at(&c, 30)
    );
    assert_eq!(at(&c, 5), 1.0);
    assert_eq!(at(&c, 31), 0.0);
    // Only the sixes, 3 of them needed for the bonus from 45 (18 + 35 = 53 points): keeping
    // sixes, at least three of five dice show six within three rolls.
    let s = reduced(rules, &["6"], false, 45);
    let q: f64 = 1.0 - (5.0f64 / 6.0).powi(3);
    let at_least_3: f64 = (3..=5)
        .map(|k| binomial(5, k) * q.powi(k as i32) * (1.0 - q).powi(5 - k as i32))
        .sum();
    assert!(
        (at(&s, 53) / at_least_3 - 1.0).abs() <= bound(1),
        "{}",
        at(&s, 53)
    );
}

fn binomial(n: u64, k: u64) -> f64 {
    (1..=k).fold(1.0, |acc, i| acc * (n + 1 - i) as f64 / i as f64)
}

/// The suite's shared directory and its yahtzee distribution table (built by `tables build
/// --dist`, through the file builder: checkpoints and all).
fn whole() -> (&'static Path, &'static DistTable) {
    static TABLE: OnceLock<DistTable> = OnceLock::new();
    let dir = crate::common::tables_dir();
    let table = TABLE.get_or_init(|| {
        let rules = RuleSet::Yahtzee;
        assert!(
            !dist_partial_path(dir, rules).exists(),
            "checkpoint removed"
        );
        open_dist(dir, rules).unwrap()
    });
    (dir, table)
}

/// Every distribution of a whole table: starts at 1 or later, never increases, stored ends
/// trimmed, and its "mean" is at least the optimal expected score of the same state.
#[test]
fn every_distribution_of_a_table_is_well_formed() {
    let rules = RuleSet::Yahtzee;
    let (_, table) = whole();
    let expected = build_table(rules, &|_, _| {});
    let space = StateSpace::new(rules);
    let mut checked = 0;
    for (index, &value) in expected.iter().enumerate() {
        let d = table.dist(index);
        assert!(d.start >= 1, "state {index}: P(0) must be 1");
        let end = d.end();
        let start = i64::from(d.start);
        // Non-increasing up to one code step (two half steps, and f32 noise): neighbours
        // equal but for rounding may swap.
        let step = 1.0 + 2.2 * FINE_ROUNDING;
        for x in start..end {
            assert!(
                d.at_least(x + 1) <= d.at_least(x) * step
                    && d.complement_at(x) <= d.complement_at(x + 1) * step,
                "state {index} increases at {x}: {:e} then {:e}",
                d.at_least(x),
                d.at_least(x + 1)
            );
        }
        if end >= start {
            assert!(
                d.complement_at(start) > 0.0 && d.at_least(end) > 0.0,
                "state {index}: a stored P is 1 or 0"
            );
        }
        let slack = d.mean() * bound(rules.box_count());
        assert!(
            d.mean() >= value - slack,
            "state {index}: mean {} below the expected score {value}",
            d.mean()
        );
        checked += 1;
    }
    assert_eq!(checked, space.len());
    let empty = table.sheet_dist(&Sheet::empty(rules)).unwrap();
    assert!(empty.mean() > sheet_value(&expected, &Sheet::empty(rules)).unwrap() + 5.0);
}

/// Boxes left free in the states of the distribution tables the suite builds only in part
/// (yahtzee-free's and yatzy's: no command the suite runs reads their whole tables).
const LATE_FREE: usize = 4;

/// The support of every sheet against the rules' own ([`SupportSolver`], an integer dynamic
/// program sharing nothing with the tables): the least total with `P < 1` is one more than the
/// most a strategy guarantees whatever the dice, and the greatest with `P > 0` the most any
/// dice allow. Every sheet of yahtzee's and yahtzee-kurnik's whole tables (the suite's shared
/// ones), and every sheet with at most [`LATE_FREE`] boxes free of yahtzee-free's and yatzy's
/// (built here). Just above the guaranteed total `1 - P` is far below the least `f32` (the
/// empty yahtzee sheet's is about `1e-93`), so this holds only because the tables compute those
/// lanes in `f64` and code values down to `2^-600` (docs/methods.md section 3).
#[test]
fn every_sheet_support_is_the_rules_support() {
    use rayon::prelude::*;
    // The rules' dynamic program from the empty sheet takes 12 s a rule set: side by side.
    RuleSet::MAIN.par_iter().for_each(|&rules| {
        let mut solver = SupportSolver::default();
        let (table, sheets) = if matches!(rules, RuleSet::Yahtzee | RuleSet::YahtzeeKurnik) {
            let table = open_dist(crate::common::tables_dir(), rules).unwrap();
            let empty = Sheet::empty(rules);
            let s = solver.support(&empty);
            let d = table.sheet_dist(&empty).unwrap();
            assert_eq!(
                (i64::from(d.start) - 1, d.end()),
                (i64::from(s.guaranteed), i64::from(s.greatest)),
                "{rules}: the empty sheet's (guaranteed, greatest)"
            );
            // Both tails are there, not rounded to 1 or 0.
            let (below, above) = (d.complement_at(i64::from(d.start)), d.at_least(d.end()));
            assert!(below > 0.0 && below < 1e-30, "{rules}: 1 - P {below:e}");
            assert!(above > 0.0 && above < 1e-9, "{rules}: P {above:e}");
            // Every sheet a game can reach.
            let sheets: Vec<Sheet> = solver.solved().map(|(sheet, _)| *sheet).collect();
            (table, sheets)
        } else {
            let late = late_table(rules, LATE_FREE);
            (dist_from_data(rules, late), late_sheets(rules, LATE_FREE))
        };
        for sheet in &sheets {
            let s = solver.support(sheet);
            let d = table.sheet_dist(sheet).unwrap();
            assert_eq!(
                (i64::from(d.start) - 1, d.end()),
                (i64::from(s.guaranteed), i64::from(s.greatest)),
                "{rules} {}: (guaranteed, greatest)",
                sheet.filled_codes()
            );
        }
        assert!(sheets.len() > 10_000, "{rules}: {} sheets", sheets.len());
    });
}

/// A sheet of every state of `rules` with at most `free` boxes free (its upper total its
/// class's, no points yet).
fn late_sheets(rules: RuleSet, free: usize) -> Vec<Sheet> {
    let space = StateSpace::new(rules);
    let pairs = dicelens::solve::states::upper_pairs();
    let mut sheets = Vec::new();
    for lower in 0..space.lower_count() {
        let (lower_filled, yahtzee_50) = space.lower_boxes(lower);
        for pair in 0..pairs.count() {
            let filled = lower_filled | u32::from(pairs.mask[pair]);
            if rules.box_count() - (filled.count_ones() as usize) > free {
                continue;
            }
            sheets.push(Sheet {
                rules,
                filled,
                yahtzee_50,
                upper_total: u32::from(pairs.total[pair]),
                points: 0,
            });
        }
    }
    sheets
}

/// Boxes left free in the states [`table_agrees_with_an_untrimmed_f64_computation`] checks.
const REFERENCE_FREE: usize = 5;

/// The yahtzee-kurnik table (the suite's shared one, built by `tables build --dist`) against
/// the same computation in `f64`, neither coded nor trimmed: every state with at most
/// [`REFERENCE_FREE`] boxes free (the reference of the whole table took 263 s in the suite), at
/// every total where the reference `P >= 1e-12` (and `1 - P >= 1e-12`), within the bound of
/// its turns left; the same support; and `dist`'s output of the sheet with the most free boxes.
#[test]
fn table_agrees_with_an_untrimmed_f64_computation() {
    let rules = RuleSet::YahtzeeKurnik;
    let table = open_dist(crate::common::tables_dir(), rules).unwrap();
    let boxes = rules.box_count();
    let mut filled = vec![0; StateSpace::new(rules).len()];
    for (f, layer) in dicelens::solve::distribution::layers(rules)
        .iter()
        .enumerate()
    {
        for &i in layer {
            filled[i] = f;
        }
    }
    let (mut checked, mut worst) = (0u64, 0.0f64);
    let mut check = |index: usize, reference: &dicelens::solve::distribution::ReferenceDist| {
        let d = table.dist(index);
        let (first, last) = reference.bounds();
        assert_eq!(d.end(), last, "state {index}: greatest total");
        assert_eq!(i64::from(d.start), first, "state {index}: least total");
        let free = boxes - filled[index];
        let bound = bound(free);
        for x in first..=last {
            let (p, c) = (reference.at_least(x), reference.complement_at(x));
            for (got, want, side) in [(d.at_least(x), p, "P"), (d.complement_at(x), c, "1 - P")] {
                if want >= TAIL {
                    let error = (got / want - 1.0).abs();
                    worst = worst.max(error);
                    assert!(
                        error <= bound,
                        "state {index}, {free} free: {side}(>={x}) table {got:e} reference {want:e}"
                    );
                    checked += 1;
                }
            }
        }
    };
    let last = build_reference(rules, boxes - REFERENCE_FREE, &mut check);
    assert!(checked > 10_000_000, "{checked} values checked");
    eprintln!("{checked} values within {worst:e} relative of the f64 reference");
    // A sheet with the most free boxes checked, as `dist --csv` prints it, agrees as well.
    let free = ["1", "4", "3K", "SS", "C"];
    assert_eq!(free.len(), REFERENCE_FREE);
    let (upper, points) = (20, 100);
    let sheet = crate::common::reduced(rules, &free, false, upper, points);
    let index = StateSpace::new(rules).index_of(&sheet).unwrap();
    let (_, reference) = last.iter().find(|(i, _)| *i == index).unwrap();
    let (filled, upper, points) = (sheet.filled_codes(), upper.to_string(), points.to_string());
    let out = run(
        &[
            "dist",
            "--rules",
            rules.name(),
            "--filled",
            &filled,
            "--upper",
            &upper,
            "--points",
            &points,
            "--csv",
        ],
        2,
    );
    let csv = text(&out.stdout);
    let mut totals = Vec::new();
    for line in csv.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        let (total, p): (i64, f64) = (cols[0].parse().unwrap(), cols[1].parse().unwrap());
        let want = reference.at_least(total - 100);
        if want >= TAIL {
            assert!(
                (p / want - 1.0).abs() <= bound(REFERENCE_FREE),
                "{total}: {p:e} vs {want:e}"
            );
        } else {
            assert!(p > 0.0 && p < 2.0 * TAIL, "{total}: {p:e} vs {want:e}");
        }
        totals.push(total);
    }
    assert_eq!(
        totals.last(),
        Some(&(reference.bounds().1 + 100)),
        "the greatest total"
    );
    assert!(totals.windows(2).all(|w| w[1] == w[0] + 1));
}

/// The turn computed for `eval` agrees with the table's value of the same state, and its
/// options' best probability is the probability of the roll's position.
#[test]
fn turn_options_agree_with_the_table() {
    let rules = RuleSet::Yahtzee;
    let (_, table) = whole();
    let sheet = reduced(rules, &["1", "3K", "SS", "C"], false, 20);
    let free = 4;
    let turn = TurnDist::new(table, &sheet).unwrap();
    let d = table.sheet_dist(&sheet).unwrap();
    for target in [300, 320, 340, 360, 380] {
        let from_table = d.at_least(target - i64::from(sheet.points));
        let from_turn = turn.before_first_roll(target);
        assert!(
            (from_table - from_turn).abs() <= 2.0 * bound(free) * from_table.max(from_turn),
            "{target}"
        );
    }
    let roll = Dice::from_faces(&[1, 2, 3, 4, 4]).unwrap();
    let options = turn.options(&roll, 0, 340);
    assert!(options.windows(2).all(|w| w[0].p_target >= w[1].p_target));
    assert_eq!(options.len(), 4, "four free boxes");
}

/// A flipped byte and a truncated file are detected, and another rule set's table is missing.
/// What follows is the same for every kind of table (`tables::open_or_build`, checked in
/// `tables::tests` and, through the command line, by `cli::damaged_tables_are_detected_and_rebuilt`):
/// a damaged table is built as a missing one is, and a distribution build resumes from its
/// checkpoint ([`interrupted_builds_resume`]). (Rebuilding the whole table here cost about
/// 170 CPU seconds.)
#[test]
fn damaged_tables_are_detected() {
    let rules = RuleSet::Yahtzee;
    let (dir, _) = whole();
    let good = std::fs::read(dist_path(dir, rules)).unwrap();
    let copy = tempfile::tempdir().unwrap();
    let path = dist_path(copy.path(), rules);
    let mut truncated = good.clone();
    truncated.truncate(good.len() - 1000);
    std::fs::write(&path, &truncated).unwrap();
    assert!(matches!(
        open_dist(copy.path(), rules),
        Err(TableProblem::WrongSize { .. })
    ));
    let mut flipped = good.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x10;
    std::fs::write(&path, &flipped).unwrap();
    assert_eq!(
        open_dist(copy.path(), rules).err(),
        Some(TableProblem::Checksum)
    );
    std::fs::write(&path, &good).unwrap();
    assert!(
        open_dist(copy.path(), rules).is_ok(),
        "the same bytes, undamaged"
    );
    assert_eq!(
        open_dist(copy.path(), RuleSet::Yatzy).err(),
        Some(TableProblem::Missing)
    );
}

/// A build stopped after some chunks resumes from its checkpoint (even with a torn record at
/// its end), computes only the rest, reports its progress from there, and gives the same table
/// as one uninterrupted build with any number of threads. (The states with at least nine boxes
/// filled: the same code builds the whole table.)
#[test]
fn interrupted_builds_resume() {
    let rules = RuleSet::YahtzeeKurnik;
    let min_filled = 9;
    let dir = tempfile::tempdir().unwrap();
    let stopped = build_dist_file(dir.path(), rules, min_filled, Some(6)).unwrap();
    assert!(stopped.table.is_none());
    assert!(stopped.computed >= CHUNK as u64);
    let partial = dist_partial_path(dir.path(), rules);
    let mut bytes = std::fs::read(&partial).unwrap();
    bytes.extend_from_slice(&[7, 0, 0, 0, 1, 0]); // a torn record
    std::fs::write(&partial, &bytes).unwrap();
    let progress = FirstProgress::default();
    let resumed =
        build_dist_file_reporting(dir.path(), rules, min_filled, None, &progress).unwrap();
    assert_eq!(resumed.resumed, stopped.computed);
    let first = progress
        .0
        .lock()
        .unwrap()
        .expect("the build reports its progress");
    assert!(
        first > stopped.computed && first <= stopped.computed + CHUNK as u64,
        "resumed after {} states, first progress {first}",
        stopped.computed
    );
    let resumed = resumed.table.unwrap();
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut straight = DistTableData::new(StateSpace::new(rules).len());
    one_thread.install(|| build_dist(rules, &mut straight, min_filled, &mut Quiet));
    assert_eq!(resumed.starts, straight.starts);
    assert!(resumed.values == straight.values);
    assert!(!partial.exists());
    let computed = straight.starts.iter().filter(|&&s| s != u32::MAX).count() as u64;
    assert!(
        computed > stopped.computed + CHUNK as u64,
        "{computed} states"
    );
}

/// The first progress a build reports (states done, resumed ones included).
#[derive(Default)]
struct FirstProgress(std::sync::Mutex<Option<u64>>);

impl dicelens::tables::Progress for FirstProgress {
    fn notice(&self, _: &str) {}
    fn build_progress(&self, done: u64, _: u64) {
        self.0.lock().unwrap().get_or_insert(done);
    }
}

/// An in-memory table reads like a mapped one.
#[test]
fn memory_and_mapped_tables_read_alike() {
    let rules = RuleSet::Yahtzee;
    let (dir, mapped) = whole();
    let bytes = std::fs::read(dist_path(dir, rules)).unwrap();
    assert!(bytes.len() > 1_000_000);
    let data = late_table(rules, 2);
    let memory = dist_from_data(rules, data);
    for sheet in games(rules) {
        let a = mapped.sheet_dist(&sheet).unwrap();
        let b = memory.sheet_dist(&sheet).unwrap();
        assert_eq!(a, b, "{}", sheet.filled_codes());
    }
}

/// `eval --target`: options ranked by the probability of reaching the target, JSON with
/// `p_target`, and bad targets refused.
#[test]
fn eval_ranks_options_by_target() {
    let dir = whole().0;
    let eval = |extra: &[&str]| {
        let mut args = vec!["eval"];
        args.extend_from_slice(&crate::common::CHANCE_ONLY);
        args.push("--tables");
        args.push(dir.to_str().unwrap());
        args.extend_from_slice(extra);
        run(&args, 2)
    };
    let out = eval(&[
        "--roll",
        "66666",
        "--rolls-left",
        "2",
        "--target",
        "230",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows[0]["option"], "score C");
    assert_eq!(rows[0]["p_target"], 1.0);
    let keep = rows.iter().find(|r| r["option"] == "keep 6666").unwrap();
    let p = keep["p_target"].as_f64().unwrap();
    assert!((p - 11.0 / 36.0).abs() < 1e-6, "{p}");
    assert!(rows
        .windows(2)
        .all(|w| w[0]["p_target"].as_f64() >= w[1]["p_target"].as_f64()));
    // Keeping 666 with one roll left: both dice must show six, 1/36.
    let out = eval(&[
        "--roll",
        "66612",
        "--rolls-left",
        "1",
        "--target",
        "230",
        "--json",
    ]);
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let keep = rows.iter().find(|r| r["option"] == "keep 666").unwrap();
    assert!((keep["p_target"].as_f64().unwrap() - 1.0 / 36.0).abs() < 1e-6);
    let out = eval(&["--roll", "66612", "--target", "lots"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--target"));
    assert!(out.stdout.is_empty());
    // Without a roll: the sheet's probability.
    let out = eval(&["--target", "230"]);
    assert!(
        text(&out.stdout).contains("at least 230"),
        "{}",
        text(&out.stdout)
    );
}

/// A simulated corpus of `games` two-seat yahtzee games among 4 players, written into `dir`.
fn two_seat_corpus(
    dir: &std::path::Path,
    tables: &str,
    games: usize,
    seed: u64,
) -> std::path::PathBuf {
    let corpus = dir.join("two.ygn");
    let mut args = crate::common::simulate_two_seat(4, games, seed, corpus.to_str().unwrap());
    args.extend(["--tables".to_string(), tables.to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args, 2);
    assert!(out.status.success(), "{}", text(&out.stderr));
    corpus
}

/// `analyze` with its default oracle (EMP(1), exact from a few free boxes on) on a simulated two-seat
/// corpus: every decision valued in match points, each player's total error the sum of their
/// decisions' errors, the oracle named, the same bytes with one thread and two, and `validate`
/// of a game giving the same values decision by decision.
#[test]
fn analyze_rates_two_player_games_in_match_points() {
    let (dir, _) = whole();
    let tables = dir.to_str().unwrap();
    let work = tempfile::tempdir().unwrap();
    let corpus = two_seat_corpus(work.path(), tables, 24, 8);
    let corpus = corpus.to_str().unwrap();
    let analyse = |threads: usize, name: &str| {
        let out_dir = work.path().join(name);
        let out = run(
            &[
                "analyze",
                corpus,
                "--decisions",
                "--min-games",
                "1",
                "--tables",
                tables,
                "--out",
                out_dir.to_str().unwrap(),
            ],
            threads,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        out_dir
    };
    let one = analyse(1, "one");
    let two = analyse(2, "two");
    for file in [
        "players.csv",
        "rounds.csv",
        "decisions.csv",
        "summary.json",
        "aggregates.json",
    ] {
        assert!(
            std::fs::read(one.join(file)).unwrap() == std::fs::read(two.join(file)).unwrap(),
            "{file} differs between 1 and 2 threads"
        );
    }
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(one.join("summary.json")).unwrap()).unwrap();
    assert!(summary["oracle"]
        .as_str()
        .unwrap()
        .contains("expected match points"));
    assert_eq!(summary["games_rated"], 24);
    assert_eq!(
        summary["oracle_spec"],
        dicelens::rate::OracleSpec::DEFAULT.to_string().as_str()
    );
    let html = std::fs::read_to_string(one.join("report.html")).unwrap();
    assert!(html.contains("id=\"part-match-points-13\""));
    assert!(html.contains("error/game<br>(match points)"));
    assert!(!html.contains("id=\"part-points-13\""));
    assert!(!html.contains("(expected points)"));
    // validate's values of one game are analyze's, decision by decision.
    let rows: Vec<HashMap<String, String>> = csv::Reader::from_path(one.join("decisions.csv"))
        .unwrap()
        .deserialize()
        .map(Result::unwrap)
        .collect();
    let game = rows[rows.len() / 2]["game"].clone();
    let out = run(
        &[
            "validate", corpus, "--game", &game, "--json", "--tables", tables,
        ],
        2,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["unit"], "match points");
    let validated = report["decisions"].as_array().unwrap();
    let analysed: Vec<&HashMap<String, String>> =
        rows.iter().filter(|r| r["game"] == game).collect();
    assert_eq!(validated.len(), analysed.len());
    for (v, a) in validated.iter().zip(&analysed) {
        let value: f64 = a["value"].parse().unwrap();
        let best: f64 = a["best_value"].parse().unwrap();
        assert!(
            (v["value"].as_f64().unwrap() - value).abs() < 1e-8,
            "{v} vs {a:?}"
        );
        assert!(
            (v["best_value"].as_f64().unwrap() - best).abs() < 1e-8,
            "{v} vs {a:?}"
        );
    }
    let mut sums: HashMap<String, (u64, f64)> = HashMap::new();
    let mut reader = csv::Reader::from_path(one.join("decisions.csv")).unwrap();
    for row in reader.deserialize::<HashMap<String, String>>() {
        let row = row.unwrap();
        let value: f64 = row["value"].parse().unwrap();
        let best: f64 = row["best_value"].parse().unwrap();
        let error: f64 = row["error"].parse().unwrap();
        assert!((0.0..=1.0 + 1e-6).contains(&value) && (0.0..=1.0 + 1e-6).contains(&best));
        assert!((best - value - error).abs() < 1e-6);
        let entry = sums.entry(row["player"].clone()).or_default();
        entry.0 += 1;
        entry.1 += error;
    }
    let players = crate::common::csv_rows(&one.join("players.csv"));
    assert_eq!(players.len(), sums.len());
    for (name, (decisions, error)) in &sums {
        let row = &players[name];
        assert_eq!(
            row["decisions"].parse::<u64>().unwrap(),
            *decisions,
            "{name}"
        );
        let total: f64 = row["total_error"].parse().unwrap();
        assert!(
            (total - error).abs() < 1e-6 * (*decisions as f64),
            "{name}: {total} vs {error}"
        );
        let games: f64 = row["games"].parse().unwrap();
        let per_game: f64 = row["error_per_game"].parse().unwrap();
        assert!((per_game - total / games).abs() < 1e-6, "{name}");
    }
}

/// `bench quality`: the published experiment on a few late positions: every method charged
/// for every position, errors never negative, the same numbers for the same seed.
#[test]
fn bench_quality_values_every_method_on_every_position() {
    let (dir, _) = whole();
    let tables = dir.to_str().unwrap();
    let args = [
        "bench",
        "quality",
        "--positions",
        "30",
        "--max-free",
        "6",
        "--depth",
        "1",
        "--seed",
        "4",
        "--json",
        "--tables",
        tables,
    ];
    let out = run(&args, 2);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let again = run(&args, 1);
    assert_eq!(out.stdout, again.stdout, "same seed, same results");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let methods = json["methods"].as_array().unwrap();
    let names: Vec<&str> = methods
        .iter()
        .map(|m| m["method"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["emp:0", "emp:1", "dynw:1", "e"]);
    for m in methods {
        assert_eq!(m["all"]["moves"], 30, "{m}");
        let by_free = m["by_free"].as_object().unwrap();
        assert!(by_free.keys().all(|k| k.parse::<u32>().unwrap() <= 6));
        let moves: u64 = by_free.values().map(|t| t["moves"].as_u64().unwrap()).sum();
        assert_eq!(moves, 30);
        assert!(m["all"]["total_error"].as_f64().unwrap() >= 0.0);
    }
}

/// `bench oracles` on a small simulated two-seat corpus: the reference measured again, or under
/// its spec instead of its name, differs from itself by nothing at all; the solitaire oracle
/// and EMP(1) without exact values differ by a positive amount; every candidate is timed.
#[test]
fn bench_oracles_measures_distances_from_the_reference() {
    let (dir, _) = whole();
    let tables = dir.to_str().unwrap();
    let work = tempfile::tempdir().unwrap();
    let corpus = two_seat_corpus(work.path(), tables, 40, 12);
    let corpus = corpus.to_str().unwrap();
    let bench = |extra: &[&str]| {
        let mut args = vec![
            "bench",
            "oracles",
            corpus,
            "--min-games",
            "1",
            "--tables",
            tables,
        ];
        args.extend_from_slice(extra);
        run(&args, 2)
    };
    let out = bench(&["--candidates", "reference,emp:1/exact:8,e,emp:1", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["reference"]["spec"], "emp:1/exact:8");
    let rows = json["candidates"].as_array().unwrap();
    let specs: Vec<&str> = rows.iter().map(|r| r["spec"].as_str().unwrap()).collect();
    assert_eq!(specs, ["emp:1/exact:8", "emp:1/exact:8", "e", "emp:1"]);
    let number = |row: &serde_json::Value, field: &str| row["comparison"][field].as_f64().unwrap();
    for row in rows {
        assert_eq!(row["comparison"]["games_compared"], 40, "{row}");
        assert!(row["games_per_second"].as_f64().unwrap() > 0.0, "{row}");
        assert!(number(row, "players") == 4.0, "{row}");
    }
    for same in &rows[..2] {
        assert_eq!(same["name"], "reference");
        for field in [
            "decision_mean_abs_diff",
            "decision_max_abs_diff",
            "player_mean_abs_diff",
            "player_max_abs_diff",
            "player_max_diff_over_ci",
        ] {
            assert_eq!(number(same, field), 0.0, "{field}: {same}");
        }
        assert_eq!(number(same, "spearman"), 1.0);
        assert_eq!(same["comparison"]["positions_changed"], 0);
        assert_eq!(same["within_tolerance"], true);
    }
    let (e, emp1) = (&rows[2], &rows[3]);
    assert!(number(e, "decision_max_abs_diff") > 0.0, "{e}");
    assert!(number(e, "player_max_abs_diff") > 0.0, "{e}");
    assert_eq!(e["units_differ"], true);
    assert_eq!(e["unit"], "points");
    assert!(number(emp1, "decision_max_abs_diff") > 0.0, "{emp1}");
    assert!(number(emp1, "decision_mean_abs_diff") <= number(emp1, "decision_max_abs_diff"));
    assert_eq!(emp1["units_differ"], false);
    // The table for people names the reference and says when units differ.
    let out = bench(&["--candidates", "default,e"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(
        table.contains("reference: emp:1/exact:8 (reference)"),
        "{table}"
    );
    assert!(table.contains("(default)"), "{table}");
    assert!(
        table.contains("note: e rates in expected points"),
        "{table}"
    );
    // A malformed candidate is a usage error naming the flag.
    let out = bench(&["--candidates", "emp:1,emp:1/exact:99"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--candidates"),
        "{}",
        text(&out.stderr)
    );
}
