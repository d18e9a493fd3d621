//! The Jamb values (docs/jamb-oracle.md): the exact endgame and the one-column tables against a
//! brute force written here independently, the oracle's options against the rules, its values
//! against their definitions, its tables through bytes, and its self-play strength.

use dicelens::dice::{self, Dice, FIRST_ROLL, OUTCOMES, ROLLS};
use dicelens::rules::jamb::{Cell, ColumnKind, JambBox, JambRules, JambSheet, JambTurn};
use dicelens::rules::Choice;
use dicelens::simulate::jamb::{play_game, record_positions, JambPlayer, Position};
use dicelens::simulate::DiceLaw;
use dicelens::solve::jamb::column::{ColumnSpace, ColumnTable};
use dicelens::solve::jamb::endgame::Endgame;
use dicelens::solve::jamb::oracle::{JambOracle, JambTurnCache, OraclePlayer, ValueFunction};
use dicelens::solve::jamb::tables::JambTables;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};

/// 1.15 times the best published strategy's mean (MS, 687.5 on jamb-5).
const FLOOR: f64 = 1.15 * 687.5;

/// The jamb-5 tables of the suite's table directory (built there once, for every test).
fn tables() -> &'static JambTables {
    static TABLES: OnceLock<JambTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        dicelens::tables::open_jamb(crate::common::tables_dir(), JambRules::JAMB_5)
            .unwrap_or_else(|e| panic!("the suite's jamb-5 tables: {e}"))
    })
}

fn oracle() -> &'static Arc<JambOracle> {
    static ORACLE: OnceLock<Arc<JambOracle>> = OnceLock::new();
    ORACLE.get_or_init(|| Arc::new(JambOracle::from_tables(tables().clone())))
}

/// A whole slip played to its end by plain expectimax: every ordered outcome of every reroll,
/// every subset of dice positions kept, every legal cell, memoised on the exact slip. Uses only
/// the rules (`JambSheet`), nothing of the solvers.
#[derive(Default)]
struct Brute {
    slips: HashMap<JambSheet, f64>,
}

/// One turn's memo: values of (roll number, sorted dice) and of (roll number, sorted keep).
#[derive(Default)]
struct TurnMemo {
    decided: HashMap<(u8, [u8; 5]), f64>,
    kept: HashMap<(u8, Vec<u8>), f64>,
}

impl Brute {
    /// Expected final total of `sheet` before its next turn.
    fn total(&mut self, sheet: JambSheet) -> f64 {
        if sheet.is_complete() {
            return f64::from(sheet.total());
        }
        if let Some(&v) = self.slips.get(&sheet) {
            return v;
        }
        let v = self.reroll(&mut TurnMemo::default(), &sheet, 0, &[]);
        self.slips.insert(sheet, v);
        v
    }

    /// Mean over the ordered outcomes of rolling the dice not in `kept` as roll `n + 1`.
    fn reroll(&mut self, memo: &mut TurnMemo, sheet: &JambSheet, n: u8, kept: &[u8]) -> f64 {
        let mut key = kept.to_vec();
        key.sort_unstable();
        if let Some(&v) = memo.kept.get(&(n, key.clone())) {
            return v;
        }
        let free = 5 - key.len();
        let count = 6usize.pow(free as u32);
        let mut sum = 0.0;
        for outcome in 0..count {
            let mut faces = key.clone();
            let mut rest = outcome;
            for _ in 0..free {
                faces.push((rest % 6) as u8 + 1);
                rest /= 6;
            }
            faces.sort_unstable();
            sum += self.decide(memo, sheet, n + 1, faces.try_into().unwrap());
        }
        let v = sum / count as f64;
        memo.kept.insert((n, key), v);
        v
    }

    /// Best option with `dice` showing as roll `n`.
    fn decide(&mut self, memo: &mut TurnMemo, sheet: &JambSheet, n: u8, dice: [u8; 5]) -> f64 {
        if let Some(&v) = memo.decided.get(&(n, dice)) {
            return v;
        }
        let best = self
            .options(memo, sheet, n, dice)
            .into_iter()
            .map(|o| o.1)
            .fold(f64::NEG_INFINITY, f64::max);
        memo.decided.insert((n, dice), best);
        best
    }

    /// Every option with `dice` showing as roll `n`: writes, then keeps of position subsets
    /// (the same keep may appear several times).
    fn options(
        &mut self,
        memo: &mut TurnMemo,
        sheet: &JambSheet,
        n: u8,
        dice: [u8; 5],
    ) -> Vec<(Choice, f64)> {
        let d = Dice::from_faces(&dice).unwrap();
        let mut out = Vec::new();
        let cells: Vec<Cell> = sheet.legal_cells(n).collect();
        for cell in cells {
            let after = sheet.after_cell(&d, n, cell).unwrap();
            out.push((Choice::Write(cell), self.total(after)));
        }
        if sheet.may_roll_again(n) {
            for subset in 0..32u32 {
                let kept: Vec<u8> = (0..5)
                    .filter(|i| subset & (1 << i) != 0)
                    .map(|i| dice[i])
                    .collect();
                let v = self.reroll(memo, sheet, n, &kept);
                out.push((Choice::Keep(Dice::from_faces(&kept).unwrap()), v));
            }
        }
        out
    }
}

/// A tiny deterministic generator for building slips.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }

    fn dice(&mut self) -> Dice {
        let faces: Vec<u8> = (0..5).map(|_| self.below(6) as u8 + 1).collect();
        Dice::from_faces(&faces).unwrap()
    }
}

/// A jamb-5 slip with every cell filled (random dice, random legal order) but `empty`.
fn filled_but(empty: &[(ColumnKind, JambBox)], seed: u64) -> JambSheet {
    let rules = JambRules::JAMB_5;
    let cell_of = |(kind, jbox): (ColumnKind, JambBox)| Cell {
        column: rules.columns.iter().position(|&k| k == kind).unwrap() as u8,
        jbox,
    };
    let keep_empty: HashSet<Cell> = empty.iter().map(|&e| cell_of(e)).collect();
    let mut rng = Lcg(seed);
    let mut sheet = JambSheet::new(rules);
    while sheet.turns_left() > keep_empty.len() {
        let n = rng.below(3) as u8 + 1;
        let cells: Vec<Cell> = sheet
            .legal_cells(n)
            .filter(|c| !keep_empty.contains(c))
            .collect();
        assert!(!cells.is_empty(), "cannot keep {empty:?} empty");
        let cell = cells[rng.below(cells.len() as u64) as usize];
        sheet = sheet.after_cell(&rng.dice(), n, cell).unwrap();
    }
    sheet
}

use ColumnKind::{Down, Free, Inner, Outer, Up};
use JambBox::*;

/// The endgames the brute force checks: one and two empty boxes, in every column kind.
fn endgames() -> Vec<JambSheet> {
    let cases: [&[(ColumnKind, JambBox)]; 9] = [
        &[(Down, Jamb)],
        &[(Up, Ones)],
        &[(Free, Straight)],
        &[(Inner, Ones)],
        &[(Outer, Min)],
        &[(Free, Ones), (Free, Max)],
        &[(Down, Jamb), (Up, Ones)],
        &[(Inner, Jamb), (Outer, Max)],
        &[(Free, Sixes), (Outer, Straight)],
    ];
    cases
        .iter()
        .enumerate()
        .map(|(i, empty)| filled_but(empty, 11 + i as u64))
        .collect()
}

#[test]
fn exact_endgame_equals_brute_force_before_the_turn_and_after_every_roll() {
    let mut brute = Brute::default();
    let mut endgame = Endgame::new(JambRules::JAMB_5);
    for sheet in endgames() {
        let want = brute.total(sheet);
        let got = endgame.value(&sheet).unwrap();
        assert!(
            (got - want).abs() < 1e-9,
            "{sheet:?}: {got} vs brute force {want}"
        );
        // Every option of three decisions: the values of each distinct choice agree.
        for (n, faces) in [
            (1, [1, 1, 3, 4, 6]),
            (2, [2, 3, 4, 5, 6]),
            (3, [5, 5, 5, 5, 6]),
        ] {
            let dice = Dice::from_faces(&faces).unwrap();
            let mut brute_options: HashMap<Choice, f64> = HashMap::new();
            for (c, v) in brute.options(&mut TurnMemo::default(), &sheet, n, faces) {
                brute_options.insert(c, v);
            }
            let exact = endgame.options(&sheet, &dice, n);
            assert_eq!(exact.len(), brute_options.len(), "roll {n} of {sheet:?}");
            for (c, v) in exact {
                let b = brute_options[&c];
                assert!((v - b).abs() < 1e-9, "{c}: {v} vs brute force {b}");
            }
        }
    }
}

#[test]
fn one_column_table_equals_brute_force_of_a_slip_with_one_open_column() {
    // Only the Free column has empty boxes (Ones and Min, with the Max written): the slip's
    // brute force is the column played alone.
    let sheet = filled_but(&[(Free, Ones), (Free, Min), (Free, Fours)], 5);
    let free = 1;
    let column = sheet.columns()[free];
    let space = ColumnSpace::from_mask(Free, column.filled_mask());
    let table = ColumnTable::build_space(&JambRules::JAMB_5, space, &|_, _| {});
    let others: i32 = sheet
        .columns()
        .iter()
        .enumerate()
        .filter(|&(c, _)| c != free)
        .map(|(_, c)| c.total())
        .sum();
    let got = f64::from(others) + table.expected_total(&column).unwrap();
    let want = Brute::default().total(sheet);
    assert!(
        (got - want).abs() < 1e-9,
        "table {got} vs brute force {want}"
    );
}

/// A whole slip of any rule set played to its end by plain expectimax, with the turn as the
/// rules state it (`JambTurn`: pure hands, announcements, the rolls of each turn): every ordered
/// outcome of every reroll, every subset of dice positions kept, every legal cell and every box
/// that may be announced. Uses only the rules (`JambSheet`), nothing of the solvers.
#[derive(Default)]
struct TurnBrute {
    slips: HashMap<JambSheet, f64>,
}

/// One option of the turn brute force.
#[derive(Clone, Debug, PartialEq)]
enum TurnOption {
    Write(Cell),
    Announce(JambBox),
    Keep(Vec<u8>),
}

/// One turn's memo: (roll number, sorted dice or keep, pure, announced box, a keep).
type TurnBruteMemo = HashMap<(u8, Vec<u8>, bool, Option<JambBox>, bool), f64>;

impl TurnBrute {
    fn total(&mut self, sheet: JambSheet) -> f64 {
        if sheet.is_complete() {
            return f64::from(sheet.total());
        }
        if let Some(&v) = self.slips.get(&sheet) {
            return v;
        }
        let v = self.reroll(&mut HashMap::new(), &sheet, 0, &[], None);
        self.slips.insert(sheet, v);
        v
    }

    fn reroll(
        &mut self,
        memo: &mut TurnBruteMemo,
        sheet: &JambSheet,
        n: u8,
        kept: &[u8],
        announced: Option<JambBox>,
    ) -> f64 {
        let mut kept = kept.to_vec();
        kept.sort_unstable();
        let pure = kept.is_empty();
        let key = (n, kept.clone(), pure, announced, true);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let free = usize::from(sheet.rules().dice) - kept.len();
        let count = 6usize.pow(free as u32);
        let mut sum = 0.0;
        for outcome in 0..count {
            let mut faces = kept.clone();
            let mut rest = outcome;
            for _ in 0..free {
                faces.push((rest % 6) as u8 + 1);
                rest /= 6;
            }
            faces.sort_unstable();
            sum += self.decide(memo, sheet, n + 1, &faces, pure, announced);
        }
        let v = sum / count as f64;
        memo.insert(key, v);
        v
    }

    fn decide(
        &mut self,
        memo: &mut TurnBruteMemo,
        sheet: &JambSheet,
        n: u8,
        dice: &[u8],
        pure: bool,
        announced: Option<JambBox>,
    ) -> f64 {
        let key = (n, dice.to_vec(), pure, announced, false);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let best = self
            .options(memo, sheet, n, dice, pure, announced)
            .into_iter()
            .map(|o| o.1)
            .fold(f64::NEG_INFINITY, f64::max);
        memo.insert(key, best);
        best
    }

    fn options(
        &mut self,
        memo: &mut TurnBruteMemo,
        sheet: &JambSheet,
        n: u8,
        dice: &[u8],
        pure: bool,
        announced: Option<JambBox>,
    ) -> Vec<(TurnOption, f64)> {
        let d = dice_of(dice);
        let turn = JambTurn {
            roll_number: n,
            announced,
            pure,
        };
        let mut out = Vec::new();
        let cells: Vec<Cell> = sheet.legal_cells_in(turn).collect();
        for cell in cells {
            let after = sheet.after_cell_in(&d, turn, cell).unwrap();
            out.push((TurnOption::Write(cell), self.total(after)));
        }
        if n == 1 && announced.is_none() {
            for b in JambBox::ALL {
                if sheet.may_announce(1, b) {
                    let v = self.decide(memo, sheet, 1, dice, true, Some(b));
                    out.push((TurnOption::Announce(b), v));
                }
            }
        }
        if sheet.may_roll_again_in(turn) {
            for subset in 0..1u32 << dice.len() {
                let kept: Vec<u8> = (0..dice.len())
                    .filter(|i| subset & (1 << i) != 0)
                    .map(|i| dice[i])
                    .collect();
                let v = self.reroll(memo, sheet, n, &kept, announced);
                let mut sorted = kept;
                sorted.sort_unstable();
                out.push((TurnOption::Keep(sorted), v));
            }
        }
        out
    }
}

/// A slip of `rules` with every cell filled (random dice of a first roll, random legal order)
/// but `empty`.
fn filled_but_in(rules: JambRules, empty: &[(ColumnKind, JambBox)], seed: u64) -> JambSheet {
    let cell_of = |(kind, jbox): (ColumnKind, JambBox)| Cell {
        column: rules.columns.iter().position(|&k| k == kind).unwrap() as u8,
        jbox,
    };
    let keep_empty: HashSet<Cell> = empty.iter().map(|&e| cell_of(e)).collect();
    let mut rng = Lcg(seed);
    let mut sheet = JambSheet::new(rules);
    let first = JambTurn::at_roll(1);
    while sheet.turns_left() > keep_empty.len() {
        // The cells a first roll takes, and the Announce boxes announced.
        let mut cells: Vec<(Cell, JambTurn)> =
            sheet.legal_cells_in(first).map(|c| (c, first)).collect();
        if let Some(announce) = rules.announce_column() {
            for b in JambBox::ALL
                .into_iter()
                .filter(|&b| sheet.may_announce(1, b))
            {
                let cell = Cell {
                    column: announce as u8,
                    jbox: b,
                };
                let turn = JambTurn {
                    announced: Some(b),
                    ..first
                };
                if !cells.iter().any(|&(c, _)| c == cell) {
                    cells.push((cell, turn));
                }
            }
        }
        cells.retain(|(c, _)| !keep_empty.contains(c));
        assert!(!cells.is_empty(), "cannot keep {empty:?} empty");
        let (cell, turn) = cells[rng.below(cells.len() as u64) as usize];
        let faces: Vec<u8> = (0..rules.dice).map(|_| rng.below(6) as u8 + 1).collect();
        sheet = sheet.after_cell_in(&dice_of(&faces), turn, cell).unwrap();
    }
    sheet
}

/// The dice showing `faces` (five or six of them).
fn dice_of(faces: &[u8]) -> Dice {
    let mut sorted = faces.to_vec();
    sorted.sort_unstable();
    dice::DiceSpace::of(faces.len())
        .and_then(|space| space.rolls().iter().copied().find(|d| d.faces() == sorted))
        .unwrap()
}

/// The exact endgame of `sheet` against the turn brute force: the value before the turn, and
/// every option (announcements included) of roll 1, of roll 2 reached by keeping dice and by
/// rolling every die, and of roll 2 after each announcement, for a few rolls.
fn check_turns_with_announcements(sheet: JambSheet, rolls: &[&[u8]]) {
    let rules = *sheet.rules();
    let mut brute = TurnBrute::default();
    let mut endgame = Endgame::with_limit(rules, 2);
    let want = brute.total(sheet);
    let got = endgame.value(&sheet).unwrap();
    assert!(
        (got - want).abs() < 1e-9,
        "{sheet:?}: {got} vs brute force {want}"
    );
    let announceable: Vec<JambBox> = JambBox::ALL
        .into_iter()
        .filter(|&b| sheet.may_announce(1, b))
        .collect();
    let mut memo = HashMap::new();
    for faces in rolls {
        let mut faces = faces.to_vec();
        faces.sort_unstable();
        let dice = dice_of(&faces);
        let mut moments = vec![
            JambTurn::at_roll(1),
            JambTurn::at_roll(2),
            JambTurn {
                pure: true,
                ..JambTurn::at_roll(2)
            },
        ];
        moments.extend(announceable.iter().map(|&b| JambTurn {
            announced: Some(b),
            ..JambTurn::at_roll(2)
        }));
        for turn in moments {
            let want = brute.options(
                &mut memo,
                &sheet,
                turn.roll_number,
                &faces,
                turn.pure,
                turn.announced,
            );
            let mut got: Vec<(TurnOption, f64)> = endgame
                .options_at(&sheet, &dice, turn)
                .into_iter()
                .map(|(c, v)| match c {
                    Choice::Write(cell) => (TurnOption::Write(cell), v),
                    Choice::Keep(k) => (TurnOption::Keep(k.faces()), v),
                    Choice::Score(_) => panic!("a one-column choice"),
                })
                .collect();
            if turn.roll_number == 1 {
                got.extend(
                    endgame
                        .announcements(&sheet, &dice)
                        .into_iter()
                        .map(|(cell, v)| (TurnOption::Announce(cell.jbox), v)),
                );
            }
            for (option, v) in &want {
                let (_, g) = got
                    .iter()
                    .find(|(o, _)| o == option)
                    .unwrap_or_else(|| panic!("{turn:?} {faces:?}: {option:?} not listed"));
                let same = (g - v).abs() < 1e-9 || (g.is_infinite() && v.is_infinite());
                assert!(
                    same,
                    "{turn:?} {faces:?} {option:?}: {g} vs brute force {v}"
                );
            }
            for (option, _) in &got {
                assert!(
                    want.iter().any(|(o, _)| o == option),
                    "{turn:?} {faces:?}: {option:?} listed but not legal"
                );
            }
        }
    }
}

#[test]
fn jamb_6a_last_turns_with_announcements_and_pure_hands_equal_brute_force() {
    use ColumnKind::Announce;
    let rules = JambRules::JAMB_6A;
    let rolls: [&[u8]; 3] = [
        &[1, 1, 2, 4, 6, 6],
        &[2, 3, 4, 5, 6, 6],
        &[5, 5, 5, 5, 3, 1],
    ];
    // The last turn (five rolls): an Announce box, then a Down box.
    check_turns_with_announcements(filled_but_in(rules, &[(Announce, Jamb)], 3), &rolls);
    check_turns_with_announcements(filled_but_in(rules, &[(Down, Jamb)], 4), &rolls);
    // Two boxes: a three-roll turn, then the last.
    let sheet = filled_but_in(rules, &[(Free, Ones), (Announce, Straight)], 5);
    check_turns_with_announcements(sheet, &rolls[..1]);
}

#[test]
fn yamb_hr_turns_with_announcements_equal_brute_force() {
    use ColumnKind::Announce;
    let rules = JambRules::YAMB_HR;
    let rolls: [&[u8]; 2] = [&[1, 1, 2, 4, 6], &[3, 3, 3, 5, 6]];
    let sheet = filled_but_in(rules, &[(Up, Ones), (Announce, Max)], 6);
    check_turns_with_announcements(sheet, &rolls);
}

/// The positions of one self-played game of the oracle.
fn positions(seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let player = OraclePlayer::new(Arc::clone(oracle()));
    record_positions(JambRules::JAMB_5, player, &mut rng).unwrap()
}

#[test]
fn options_are_exactly_the_legal_options_and_the_player_takes_the_best() {
    let oracle = oracle();
    let mut cache = JambTurnCache::default();
    let mut checked = 0;
    for seed in 0..3 {
        for (sheet, dice, n) in positions(seed) {
            let options = oracle.options(&sheet, &dice, n, &mut cache);
            let mut legal: HashSet<Choice> = sheet.legal_cells(n).map(Choice::Write).collect();
            if sheet.may_roll_again(n) {
                legal.extend(dice.sub_multisets().into_iter().map(Choice::Keep));
            }
            let listed: HashSet<Choice> = options.iter().map(|o| o.0).collect();
            assert_eq!(listed.len(), options.len(), "an option listed twice");
            assert_eq!(listed, legal, "roll {n} {dice} on {sheet:?}");
            assert!(options.iter().all(|o| o.1.is_finite()));
            let best = options
                .iter()
                .map(|o| o.1)
                .fold(f64::NEG_INFINITY, f64::max);
            let (choice, value) = oracle.best(&sheet, &dice, n, &mut cache).unwrap();
            assert_eq!(value, best);
            let mut player = OraclePlayer::new(Arc::clone(oracle));
            let mut rng = ChaCha8Rng::seed_from_u64(0);
            assert_eq!(player.choose(&sheet, &dice, n, &mut rng), choice);
            checked += 1;
        }
    }
    assert!(checked > 3 * 130, "{checked} decisions");
}

#[test]
fn values_before_a_roll_are_the_means_of_the_best_options_after_it() {
    let oracle = oracle();
    let t = dice::tables();
    let mut cache = JambTurnCache::default();
    let game = positions(7);
    // Turn starts early, mid-game and near the end.
    for &(sheet, _, _) in game.iter().filter(|p| p.2 == 1).step_by(15) {
        let best_after = |n: u8, r: usize, cache: &mut JambTurnCache| -> f64 {
            let options = oracle.options(&sheet, &Dice::roll(r), n, cache);
            options
                .iter()
                .map(|o| o.1)
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let mean: f64 = (0..ROLLS)
            .map(|r| f64::from(t.roll_weights()[r]) * best_after(1, r, &mut cache))
            .sum::<f64>()
            / f64::from(OUTCOMES);
        let before = oracle.before_roll(&sheet, 1, None, &mut cache).unwrap();
        assert!((before - mean).abs() < 1e-9, "{before} vs {mean}");
        if !sheet.may_roll_again(1) {
            continue;
        }
        // Keeping 6-6 (or any keep) after roll 1: the mean of the best options of roll 2.
        for keep in [Dice::from_faces(&[6, 6]).unwrap(), Dice::default()] {
            let k = keep.keep_index().unwrap();
            let rerolled = 5 - keep.len() as u32;
            let mean: f64 = t
                .outcomes(k)
                .iter()
                .map(|&(r, w)| f64::from(w) * best_after(2, usize::from(r), &mut cache))
                .sum::<f64>()
                / f64::from(6u32.pow(rerolled));
            let before = oracle
                .before_roll(&sheet, 2, Some(&keep), &mut cache)
                .unwrap();
            assert!(
                (before - mean).abs() < 1e-9,
                "keep {keep}: {before} vs {mean}"
            );
            let roll = Dice::roll(t.outcomes(k)[0].0 as usize);
            let listed = oracle
                .options(&sheet, &roll, 1, &mut cache)
                .into_iter()
                .find(|o| o.0 == Choice::Keep(keep))
                .map(|o| o.1);
            assert_eq!(listed, Some(before));
        }
    }
    let _ = FIRST_ROLL;
}

#[test]
fn a_cache_shared_by_two_oracles_gives_each_its_own_values() {
    let strong = oracle();
    let plain = strong.with_value_function(ValueFunction::plain());
    let mut shared = JambTurnCache::default();
    let game = positions(5);
    // Every 11th position, and the last turns (where the strong oracle is exact).
    let picks = game.iter().step_by(11).chain(game.iter().rev().take(12));
    for &(sheet, dice, n) in picks {
        for o in [&**strong, &plain] {
            let fresh = o.options(&sheet, &dice, n, &mut JambTurnCache::default());
            assert_eq!(o.options(&sheet, &dice, n, &mut shared), fresh);
        }
    }
}

#[test]
fn tables_round_trip_through_bytes() {
    let tables = tables();
    let bytes = tables.to_bytes();
    let back = JambTables::from_bytes(&bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    let a = JambOracle::from_tables(tables.clone());
    let b = JambOracle::from_tables(back);
    let (mut ca, mut cb) = (JambTurnCache::default(), JambTurnCache::default());
    for (sheet, dice, n) in positions(3).into_iter().step_by(7) {
        assert_eq!(
            a.options(&sheet, &dice, n, &mut ca),
            b.options(&sheet, &dice, n, &mut cb)
        );
    }
    let mut corrupt = bytes.clone();
    corrupt[bytes.len() / 2] ^= 1;
    assert!(JambTables::from_bytes(&corrupt).is_err());
    assert!(JambTables::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    assert!(JambTables::from_bytes(b"nothing").is_err());
}

#[test]
fn self_play_mean_is_far_above_the_published_strategies() {
    let oracle = oracle();
    let games = 300u64;
    let totals: Vec<f64> = (0..games)
        .map(|g| {
            let mut player = OraclePlayer::new(Arc::clone(oracle));
            let mut rng = ChaCha8Rng::seed_from_u64(1_000 + g);
            let mut players: [&mut dyn JambPlayer; 1] = [&mut player];
            let game = play_game(JambRules::JAMB_5, &mut players, DiceLaw::Fair, &mut rng);
            f64::from(game.unwrap().finals[0].total())
        })
        .collect();
    let n = games as f64;
    let mean = totals.iter().sum::<f64>() / n;
    let sd = (totals.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let se = sd / n.sqrt();
    assert!(
        mean - 3.0 * se > FLOOR,
        "mean {mean:.1} (se {se:.1}) not above {FLOOR} by 3 standard errors"
    );
    println!("{} games: mean {mean:.1}, sd {sd:.1}", games);
}
