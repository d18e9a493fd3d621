//! Valuing one position (`dicelens eval`): every legal option of a decision with its value, or
//! a sheet's value before its next turn, in expected final points for a solitaire position or
//! in expected match points against opponents. [`evaluate`] takes the tables it needs from an
//! [`OracleRegistry`] (the one rating uses, loading them on demand) and returns an
//! [`Evaluation`]; `report::eval` writes it.

use crate::dice::Dice;
use crate::position::Position;
use crate::registry::OracleRegistry;
use crate::rules::jamb::{AnnounceRule, Cell, JambBox, JambSheet, JambTurn};
use crate::rules::{Choice, Sheet};
use crate::solve::distribution::{DistSource, DistTableData, OptionChance, TurnDist};
use crate::solve::expected::OptionValue;
use crate::solve::jamb::oracle::JambTurnCache;
use crate::solve::match_points::{ExactRange, MatchSearch, Method};
use crate::solve::turn_oracle::{position_options, sheet_value_saved};
use crate::solve::two_player::{ExactTwoPlayer, MOST_EXACT_FREE};
use crate::tables::{Progress, TableError};
use std::fmt;

/// Most free boxes (both sheets) for which a two-player position is valued exactly when no
/// method is given (a few seconds at most; see PERFORMANCE.md). Not the `reference` oracle's
/// exact range for rating games (`emp:1/exact:8`, `crate::rate`).
pub(crate) const EVAL_EXACT_FREE: u32 = 10;

/// What to value: a checked position, the opponents' sheets (in seat order after the mover),
/// the method for opponents (`None`: the default, see `default_method`) and, for a solitaire
/// position, a target total whose largest probability of being reached ranks the options.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// The mover's sheet and, if given, the roll on the table.
    pub position: Position,
    /// The opponents' sheets; empty for a solitaire position.
    pub opponents: Vec<Sheet>,
    /// The method for a position with opponents.
    pub method: Option<Method>,
    /// A final total to reach (solitaire positions only).
    pub target: Option<i64>,
}

/// A Jamb decision to value: the slip, the dice on the table and the rolls left after them.
#[derive(Clone, Debug, PartialEq)]
pub struct JambQuestion {
    /// The slip.
    pub sheet: JambSheet,
    /// The dice on the table.
    pub roll: Dice,
    /// Rolls left after this one.
    pub rolls_left: u8,
    /// The box of the Announce column announced after roll 1 of this turn, if any.
    pub announced: Option<JambBox>,
    /// The dice are a pure hand: a roll of every die (always true of roll 1).
    pub pure: bool,
}

/// A position of either family, as [`evaluate`] takes it (from a [`Question`] or a
/// [`JambQuestion`]).
#[derive(Clone, Copy, Debug)]
pub enum AnyQuestion<'a> {
    /// A one-column position (Yahtzee, Yatzy), solitaire or with opponents.
    OneColumn(&'a Question),
    /// A Jamb decision.
    Jamb(&'a JambQuestion),
}

impl<'a> From<&'a Question> for AnyQuestion<'a> {
    fn from(question: &'a Question) -> Self {
        AnyQuestion::OneColumn(question)
    }
}

impl<'a> From<&'a JambQuestion> for AnyQuestion<'a> {
    fn from(question: &'a JambQuestion) -> Self {
        AnyQuestion::Jamb(question)
    }
}

/// A valued position.
#[derive(Clone, Debug, PartialEq)]
pub enum Evaluation {
    /// Every option of a Jamb decision, best first by the heuristic oracle's expected final
    /// total.
    JambOptions {
        /// The slip.
        sheet: JambSheet,
        /// The dice on the table.
        roll: Dice,
        /// Rolls left after this one.
        rolls_left: u8,
        /// The Announce column's cell announced in this turn, if any (then only it is written).
        announced: Option<Cell>,
        /// The dice are a pure hand (a roll of every die).
        pure: bool,
        /// The options with their values, best first.
        options: Vec<(Choice, f64)>,
        /// After roll 1 of a turn with no announcement yet: each cell that may be announced,
        /// with the value of announcing it (the best continuation of the announced turn), best
        /// first.
        announcements: Vec<(Cell, f64)>,
        /// The oracle that valued them, as reports name it.
        oracle: String,
    },
    /// A solitaire sheet before its next turn: its expected final score, and with a target the
    /// largest probability of finishing with at least it (`(target, p)`).
    SheetValue {
        /// The sheet.
        sheet: Sheet,
        /// Expected final score (points on the sheet included).
        value: f64,
        /// The target and its probability.
        target: Option<(i64, f64)>,
    },
    /// Every option of a solitaire decision, best first by expected final score.
    SolitaireOptions {
        /// The sheet.
        sheet: Sheet,
        /// The dice on the table.
        roll: Dice,
        /// Rolls left after this one.
        rolls_left: u8,
        /// The options, best first.
        options: Vec<OptionValue>,
        /// With a target: the target and each option's largest probability of reaching it.
        chances: Option<(i64, Vec<OptionChance>)>,
    },
    /// The mover's expected match points before the next turn.
    MatchValue {
        /// The mover's sheet.
        mover: Sheet,
        /// The opponents' sheets.
        opponents: Vec<Sheet>,
        /// The method that valued it.
        method: Method,
        /// Expected match points (summed over opponents).
        value: f64,
    },
    /// Every option of the mover's decision in expected match points, best first.
    MatchOptions {
        /// The mover's sheet.
        mover: Sheet,
        /// The opponents' sheets.
        opponents: Vec<Sheet>,
        /// The method that valued them.
        method: Method,
        /// The dice on the table.
        roll: Dice,
        /// Rolls left after this one.
        rolls_left: u8,
        /// The options with their expected match points, best first.
        options: Vec<(Choice, f64)>,
    },
}

/// Why a position cannot be valued as asked.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalError {
    /// A method was given for a position without opponents.
    MethodWithoutOpponents,
    /// The mover has no box left to fill.
    MoverComplete,
    /// A target was given for a position with opponents.
    TargetWithOpponents,
    /// Exact values were asked for more than two players.
    ExactNeedsTwoPlayers,
    /// Exact values were asked for a position with too many free boxes.
    ExactTooManyFree {
        /// Free boxes of both sheets.
        free: u32,
    },
    /// The distribution tables hold nothing for this sheet.
    NoDistribution,
    /// The method gives no value for this position.
    NotValued(Method),
    /// A table the position needs cannot be used or built (its path is not a regular file).
    Table(TableError),
    /// No cell of the Jamb slip takes the dice of this roll (1 to the turn's rolls).
    NoJambCell {
        /// The roll of the turn the dice are.
        roll_number: u8,
    },
    /// A Jamb moment the rules do not allow (an announcement on a slip without an Announce
    /// column or of a filled box, a pure hand where the rules have none); says why.
    BadJambMoment(String),
}

/// What an [`EvalError`] is about, so a front end can point at the input to change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The method for opponents.
    Method,
    /// The mover's sheet.
    Sheet,
    /// The target.
    Target,
    /// The table directory (`--tables`).
    Tables,
}

impl EvalError {
    /// The input the error is about.
    pub fn subject(&self) -> Subject {
        match self {
            EvalError::MoverComplete
            | EvalError::NoDistribution
            | EvalError::NoJambCell { .. }
            | EvalError::BadJambMoment(_) => Subject::Sheet,
            EvalError::TargetWithOpponents => Subject::Target,
            EvalError::Table(_) => Subject::Tables,
            _ => Subject::Method,
        }
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::MethodWithoutOpponents => f.write_str("needs opponents (--opponent-filled)"),
            EvalError::MoverComplete => f.write_str("the mover's sheet is complete"),
            EvalError::TargetWithOpponents => f.write_str("applies to solitaire positions only"),
            EvalError::ExactNeedsTwoPlayers => f.write_str("exact values are for two players"),
            EvalError::ExactTooManyFree { free } => write!(
                f,
                "exact values need at most {MOST_EXACT_FREE} boxes free in all; this position \
                 has {free}: use emp:D"
            ),
            EvalError::NoDistribution => f.write_str("no distribution for this sheet"),
            EvalError::NotValued(method) => write!(f, "{method} cannot value this position"),
            EvalError::Table(e) => write!(f, "{e}"),
            EvalError::NoJambCell { roll_number } => write!(
                f,
                "no cell of this slip takes the dice of roll {roll_number}"
            ),
            EvalError::BadJambMoment(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for EvalError {}

/// The method for a position with opponents when none is given: exact for two players with at
/// most [`EVAL_EXACT_FREE`] boxes free in all, else EMP(1).
pub(crate) fn default_method(players: usize, free: u32) -> Method {
    if players == 2 && free <= EVAL_EXACT_FREE {
        Method::Exact
    } else {
        Method::Emp(1)
    }
}

/// Values `question` (a [`Question`] or a [`JambQuestion`]) with the tables of `registry`
/// (loaded on first use from its directory, built there if missing, reported to `progress`).
pub fn evaluate<'a>(
    question: impl Into<AnyQuestion<'a>>,
    registry: &mut OracleRegistry,
    progress: &dyn Progress,
) -> Result<Evaluation, EvalError> {
    let question = match question.into() {
        AnyQuestion::OneColumn(question) => question,
        AnyQuestion::Jamb(question) => return jamb(question, registry, progress),
    };
    if question.opponents.is_empty() {
        if question.method.is_some() {
            return Err(EvalError::MethodWithoutOpponents);
        }
        return solitaire(question, registry, progress);
    }
    against_opponents(question, registry, progress)
}

/// A Jamb decision: every option valued by the heuristic oracle (the rule set's column
/// tables), best first.
fn jamb(
    question: &JambQuestion,
    registry: &mut OracleRegistry,
    progress: &dyn Progress,
) -> Result<Evaluation, EvalError> {
    let JambQuestion {
        sheet,
        roll,
        rolls_left,
        announced,
        pure,
    } = question.clone();
    let rules = *sheet.rules();
    let roll_number = sheet.rolls_this_turn().saturating_sub(rolls_left).max(1);
    let announced = match announced {
        Some(jbox) => Some(announced_cell(&sheet, jbox)?),
        None => None,
    };
    if pure && roll_number > 1 && rules.announce != AnnounceRule::AnnouncedOrPureHand {
        return Err(EvalError::BadJambMoment(format!(
            "{} has no pure hands (an Announce box is written only when announced)",
            rules.name
        )));
    }
    let moment = JambTurn {
        roll_number,
        announced: announced.map(|c| c.jbox),
        pure: pure || roll_number == 1,
    };
    let first_announceable =
        roll_number == 1 && JambBox::ALL.iter().any(|&b| sheet.may_announce(1, b));
    if sheet.legal_cells_in(moment).next().is_none()
        && !sheet.may_roll_again_in(moment)
        && !first_announceable
    {
        return Err(EvalError::NoJambCell { roll_number });
    }
    let oracle = registry.jamb(rules, progress).map_err(EvalError::Table)?;
    let mut cache = JambTurnCache::default();
    let mut options = oracle.options_at(&sheet, &roll, moment, &mut cache);
    options.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut announcements = match (roll_number, announced) {
        (1, None) => oracle.announcements(&sheet, &roll, &mut cache),
        _ => Vec::new(),
    };
    announcements.sort_by(|a, b| b.1.total_cmp(&a.1));
    Ok(Evaluation::JambOptions {
        sheet,
        roll,
        rolls_left,
        announced,
        pure: moment.pure,
        options,
        announcements,
        oracle: oracle.describe(),
    })
}

/// The cell of `sheet`'s Announce column for an announcement of `jbox` made after roll 1 of
/// the turn; an error says why it cannot have been made.
fn announced_cell(sheet: &JambSheet, jbox: JambBox) -> Result<Cell, EvalError> {
    let bad = |why: String| Err(EvalError::BadJambMoment(why));
    let rules = sheet.rules();
    let Some(column) = rules.announce_column() else {
        return bad(format!(
            "{} has no Announce column to announce in",
            rules.name
        ));
    };
    let cell = Cell {
        column: column as u8,
        jbox,
    };
    if !sheet.may_announce(1, jbox) {
        return bad(format!(
            "{} is filled: only an empty box of the Announce column may be announced",
            sheet.cell_code(cell)
        ));
    }
    Ok(cell)
}

/// A solitaire position: every option in expected final points (with a target, with its
/// largest probability of reaching it), or the sheet's value without a roll.
fn solitaire(
    question: &Question,
    registry: &mut OracleRegistry,
    progress: &dyn Progress,
) -> Result<Evaluation, EvalError> {
    let sheet = question.position.sheet;
    if question.position.roll.is_some() && sheet.is_complete() {
        return Err(EvalError::MoverComplete);
    }
    let target = question.target;
    let rules = sheet.rules;
    registry
        .load_expected(rules, progress)
        .map_err(EvalError::Table)?;
    if target.is_some() {
        registry
            .load_dists(rules, progress)
            .map_err(EvalError::Table)?;
    }
    let values = registry.expected(rules).map_err(EvalError::Table)?;
    let dists = match target {
        Some(_) => Some(registry.dists(rules).map_err(EvalError::Table)?),
        None => None,
    };
    let Some((roll, rolls_left)) = question.position.roll else {
        let value = sheet_value_saved(values, &sheet, question.position.saved).unwrap_or(f64::NAN);
        let target = target.zip(dists).map(|(t, d)| {
            let p = d
                .sheet_dist(&sheet)
                .map_or(f64::NAN, |dist| dist.at_least(t - i64::from(sheet.points)));
            (t, p)
        });
        return Ok(Evaluation::SheetValue {
            sheet,
            value,
            target,
        });
    };
    let options = position_options(values, &sheet, &roll, rolls_left);
    let chances = match (target, dists) {
        (Some(t), Some(d)) => {
            let turn = TurnDist::new(d, &sheet).ok_or(EvalError::NoDistribution)?;
            Some((t, turn.options(&roll, rolls_left, t)))
        }
        _ => None,
    };
    Ok(Evaluation::SolitaireOptions {
        sheet,
        roll,
        rolls_left,
        options,
        chances,
    })
}

/// A position with opponents: every option in expected match points (summed over opponents),
/// or the mover's expected match points before the turn without a roll.
fn against_opponents(
    question: &Question,
    registry: &mut OracleRegistry,
    progress: &dyn Progress,
) -> Result<Evaluation, EvalError> {
    let mover = question.position.sheet;
    let opponents = &question.opponents;
    if mover.is_complete() {
        return Err(EvalError::MoverComplete);
    }
    let free: u32 = std::iter::once(&mover)
        .chain(opponents)
        .map(Sheet::free_count)
        .sum();
    let method = question
        .method
        .unwrap_or_else(|| default_method(opponents.len() + 1, free));
    if question.target.is_some() {
        return Err(EvalError::TargetWithOpponents);
    }
    if method == Method::Solitaire {
        return solitaire(question, registry, progress);
    }
    if method == Method::Exact && opponents.len() != 1 {
        return Err(EvalError::ExactNeedsTwoPlayers);
    }
    if method == Method::Exact && free > MOST_EXACT_FREE {
        return Err(EvalError::ExactTooManyFree { free });
    }
    let dists = match method {
        Method::Exact => None,
        _ => {
            registry
                .load_dists(mover.rules, progress)
                .map_err(EvalError::Table)?;
            Some(registry.dists(mover.rules).map_err(EvalError::Table)?)
        }
    };
    let empty = DistTableData::default();
    let solver = ExactTwoPlayer::new(mover.rules);
    let dists: &dyn DistSource = match dists {
        Some(d) => d,
        None => &empty,
    };
    let exact = (opponents.len() == 1).then_some(ExactRange {
        solver: &solver,
        most_free: EVAL_EXACT_FREE,
        in_search: true,
    });
    let search = MatchSearch::new(dists, exact, method);
    let opponents = opponents.clone();
    Ok(match question.position.roll {
        None => Evaluation::MatchValue {
            value: search
                .position_value(&mover, &opponents)
                .ok_or(EvalError::NotValued(method))?,
            mover,
            opponents,
            method,
        },
        Some((roll, rolls_left)) => Evaluation::MatchOptions {
            options: search
                .options(&mover, &opponents, &roll, rolls_left)
                .ok_or(EvalError::NotValued(method))?,
            mover,
            opponents,
            method,
            roll,
            rolls_left,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::OracleSpec;
    use crate::rules::{Category, RuleSet};

    /// P(five of a kind within three rolls, optimal keeps) = 2,783,176 / 6^10, the classic
    /// figure (derived by brute force in `solve::widget`'s tests).
    const P: f64 = 2_783_176.0 / 60_466_176.0;

    /// A progress sink that fails the test if a table is looked for (every load reports a
    /// missing table before building it).
    struct NoTables;

    impl Progress for NoTables {
        fn notice(&self, message: &str) {
            panic!("a table was wanted: {message}");
        }
        fn build_started(&self, what: &str, _: &str) {
            panic!("a table build started: {what}");
        }
    }

    /// The sheet of `rules` with every box filled but `free` ([`Sheet::filled_but`]).
    fn sheet(rules: RuleSet, free: &[&str], points: u32) -> Sheet {
        Sheet::filled_but(rules, free, points)
    }

    fn question(mover: Sheet, opponents: Vec<Sheet>) -> Question {
        Question {
            position: Position {
                sheet: mover,
                roll: None,
                saved: 0,
            },
            opponents,
            method: None,
            target: None,
        }
    }

    /// `evaluate` with a tables directory that does not exist and must not come to exist.
    fn without_tables(q: &Question) -> Result<Evaluation, EvalError> {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().join("no-tables");
        let mut registry = OracleRegistry::new(Some(&dir), OracleSpec::DEFAULT);
        let result = evaluate(q, &mut registry, &NoTables);
        assert!(!dir.exists(), "a table was built");
        result
    }

    #[test]
    fn questions_that_cannot_be_asked_fail_before_any_table_is_loaded() {
        let rules = RuleSet::Yahtzee;
        let empty = Sheet::empty(rules);
        let late = sheet(rules, &["Y"], 200);
        // A method without opponents.
        let q = Question {
            method: Some(Method::Emp(1)),
            ..question(empty, vec![])
        };
        assert_eq!(without_tables(&q), Err(EvalError::MethodWithoutOpponents));
        // A complete mover against an opponent.
        let q = question(sheet(rules, &[], 250), vec![late]);
        assert_eq!(without_tables(&q), Err(EvalError::MoverComplete));
        // A roll for a complete solitaire sheet: there is no decision to value.
        let mut q = question(sheet(rules, &[], 250), vec![]);
        q.position.roll = Some((Dice::from_faces(&[1, 2, 3, 4, 5]).unwrap(), 2));
        assert_eq!(without_tables(&q), Err(EvalError::MoverComplete));
        // A target against an opponent.
        let q = Question {
            target: Some(250),
            ..question(late, vec![late])
        };
        assert_eq!(without_tables(&q), Err(EvalError::TargetWithOpponents));
        // Exact values for three players.
        let q = Question {
            method: Some(Method::Exact),
            ..question(late, vec![late, late])
        };
        assert_eq!(without_tables(&q), Err(EvalError::ExactNeedsTwoPlayers));
        // Exact values from the start of a game: 13 + 13 boxes free.
        let q = Question {
            method: Some(Method::Exact),
            ..question(empty, vec![empty])
        };
        let err = without_tables(&q).unwrap_err();
        assert_eq!(err, EvalError::ExactTooManyFree { free: 26 });
        let text = err.to_string();
        assert!(
            text.contains("at most 12 boxes") && text.contains("has 26"),
            "{text}"
        );
    }

    #[test]
    fn each_error_names_the_input_it_is_about() {
        let cases = [
            (EvalError::MethodWithoutOpponents, Subject::Method),
            (EvalError::MoverComplete, Subject::Sheet),
            (EvalError::TargetWithOpponents, Subject::Target),
            (EvalError::ExactNeedsTwoPlayers, Subject::Method),
            (EvalError::ExactTooManyFree { free: 14 }, Subject::Method),
            (EvalError::NoDistribution, Subject::Sheet),
            (EvalError::NotValued(Method::DynW(2)), Subject::Method),
        ];
        for (error, subject) in cases {
            assert_eq!(error.subject(), subject, "{error}");
        }
        assert_eq!(
            EvalError::NotValued(Method::DynW(2)).to_string(),
            "dynw:2 cannot value this position"
        );
    }

    #[test]
    fn evaluations_take_their_tables_from_the_registry_rating_uses() {
        let rules = RuleSet::Yahtzee;
        let table = crate::solve::expected::build_table(rules, &|_, _| {});
        let scratch = tempfile::tempdir().unwrap();
        crate::tables::write_expected(scratch.path(), rules, &table).unwrap();
        let mut registry = OracleRegistry::new(Some(scratch.path()), OracleSpec::DEFAULT);
        let empty = question(Sheet::empty(rules), vec![]);
        let first = evaluate(&empty, &mut registry, &NoTables).unwrap();
        let Evaluation::SheetValue { value, .. } = first else {
            panic!("{first:?}")
        };
        let published = rules.published_empty_sheet_value().unwrap();
        assert!((value - published).abs() < 1e-6, "{value}");
        // The table stays loaded for the next evaluation and for rating: the directory is
        // not read again (an empty directory would mean a build, which `NoTables` forbids).
        for entry in std::fs::read_dir(scratch.path()).unwrap() {
            std::fs::remove_file(entry.unwrap().path()).unwrap();
        }
        assert_eq!(evaluate(&empty, &mut registry, &NoTables), Ok(first));
        assert_eq!(registry.expected(rules).map(<[f64]>::len), Ok(table.len()));
        assert!(registry
            .oracle()
            .one_column
            .solitaire
            .table(rules)
            .is_some_and(|values| values == table.as_slice()));
        // A table not loaded is missing, not built.
        assert!(registry.dists(rules).is_err());
    }

    #[test]
    fn default_method_is_exact_for_two_players_late_in_the_game() {
        assert_eq!(default_method(2, 0), Method::Exact);
        assert_eq!(default_method(2, EVAL_EXACT_FREE), Method::Exact);
        assert_eq!(default_method(2, EVAL_EXACT_FREE + 1), Method::Emp(1));
        assert_eq!(default_method(3, 2), Method::Emp(1));
        assert_eq!(default_method(4, 26), Method::Emp(1));
        const { assert!(EVAL_EXACT_FREE <= MOST_EXACT_FREE) };
    }

    #[test]
    fn two_player_endgames_are_valued_exactly_without_tables() {
        // Only the Yahtzee box left on each side (2 free, so exact by default, and exact
        // values need no table). Level: the gain's law is symmetric, 1/2. The opponent 30
        // ahead: the mover needs a Yahtzee and the opponent none, P(1 - P).
        let rules = RuleSet::Yahtzee;
        let mover = sheet(rules, &["Y"], 200);
        for (theirs, want) in [(200, 0.5), (230, P * (1.0 - P))] {
            let other = sheet(rules, &["Y"], theirs);
            match without_tables(&question(mover, vec![other])).unwrap() {
                Evaluation::MatchValue {
                    method,
                    value,
                    mover: m,
                    opponents,
                } => {
                    assert_eq!((method, m, opponents), (Method::Exact, mover, vec![other]));
                    assert!((value - want).abs() < 2e-6, "{theirs}: {value} vs {want}");
                }
                other => panic!("{other:?}"),
            }
        }
        // Five sixes in hand, level: scoring 50 now leaves the opponent needing a Yahtzee to
        // tie, 1 - P/2; it is the best option.
        let other = sheet(rules, &["Y"], 200);
        let sixes = Dice::from_faces(&[6; 5]).unwrap();
        let q = Question {
            position: Position {
                sheet: mover,
                roll: Some((sixes, 2)),
                saved: 0,
            },
            ..question(mover, vec![other])
        };
        match without_tables(&q).unwrap() {
            Evaluation::MatchOptions {
                options,
                method,
                roll,
                rolls_left,
                ..
            } => {
                assert_eq!((method, roll, rolls_left), (Method::Exact, sixes, 2));
                assert_eq!(options[0].0, Choice::Score(Category::Yahtzee));
                assert!(
                    (options[0].1 - (1.0 - P / 2.0)).abs() < 2e-6,
                    "{}",
                    options[0].1
                );
                assert!(options.windows(2).all(|w| w[0].1 >= w[1].1));
            }
            other => panic!("{other:?}"),
        }
    }
}
