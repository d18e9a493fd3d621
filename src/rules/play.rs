//! Playing a game: how dice fall ([`DiceLaw`]), the one turn loop every player goes through
//! ([`play_turn`]: roll, keep, roll the others again up to the turn's rolls, write the dice in a
//! box), for any [`GameFamily`] and any [`TurnPlayer`], and whole Jamb games between
//! [`JambPlayer`]s with every rule checked. Below the solvers and the simulations, so that both
//! use it: the simulations, the self-play and the Jamb oracle's self-play fit all play through
//! [`play_turn`].

use super::game::GameFamily;
use super::jamb::{Cell, JambBox, JambRules, JambSheet, JambTurn};
use super::Choice;
use crate::dice::Dice;
use dicelens_parsers::Keep;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// How a die falls.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum DiceLaw {
    /// Every face with probability 1/6.
    #[default]
    Fair,
    /// `face` with probability `probability`, the five other faces sharing the rest equally.
    Loaded {
        /// The loaded face (1 to 6).
        face: u8,
        /// Its probability, strictly between 0 and 1.
        probability: f64,
    },
}

impl DiceLaw {
    /// A die that shows `face` with probability `probability`; `None` unless `face` is 1 to 6
    /// and `probability` lies strictly between 0 and 1.
    pub fn loaded(face: u8, probability: f64) -> Option<DiceLaw> {
        let valid = (1..=6).contains(&face) && probability > 0.0 && probability < 1.0;
        valid.then_some(DiceLaw::Loaded { face, probability })
    }

    /// The probability of each face (1 to 6, in order).
    pub fn face_probabilities(&self) -> [f64; 6] {
        match *self {
            DiceLaw::Fair => [1.0 / 6.0; 6],
            DiceLaw::Loaded { face, probability } => std::array::from_fn(|i| {
                if i + 1 == usize::from(face) {
                    probability
                } else {
                    (1.0 - probability) / 5.0
                }
            }),
        }
    }

    /// Rolls one die. A fair die draws exactly as simulations always have (the same corpus
    /// bytes for a seed).
    pub fn roll(&self, rng: &mut ChaCha8Rng) -> u8 {
        match *self {
            DiceLaw::Fair => rng.gen_range(1..=6),
            DiceLaw::Loaded { face, probability } => {
                let draw: f64 = rng.gen();
                if draw < probability {
                    return face;
                }
                // One of the five other faces, equally likely.
                let other = (((draw - probability) / (1.0 - probability)) * 5.0) as u8;
                let other = other.min(4) + 1;
                if other >= face {
                    other + 1
                } else {
                    other
                }
            }
        }
    }
}
/// Keeps `kept` out of `shown` (the first dice that match, in table order) and rerolls the
/// others in place (as `dice` falls), as a site shows them. Returns the keep as written and the
/// new roll (as many dice as `shown`).
pub fn reroll(rng: &mut ChaCha8Rng, dice: DiceLaw, shown: &[u8], kept: &Dice) -> (Keep, Vec<u8>) {
    let mut left = kept.counts();
    let mut next = shown.to_vec();
    let mut written = Vec::with_capacity(shown.len());
    for die in next.iter_mut() {
        let face = usize::from(*die - 1);
        if left[face] > 0 {
            left[face] -= 1;
            written.push(*die);
        } else {
            *die = dice.roll(rng);
        }
    }
    (Keep::new(&written).unwrap_or_default(), next)
}

/// A player of one turn on a sheet of type `S`: after each roll, keep dice (and roll the others
/// again) or write the dice in a box. The turn loop ([`play_turn`]) asks it; Jamb's players
/// ([`JambPlayer`]), the simulated one-column players and the self-play's are such players.
pub trait TurnPlayer<S> {
    /// Why the player could not choose (a position it cannot value); ends the turn.
    type Error;

    /// What to do with `dice`, shown by roll `roll_number` (1 to the turn's rolls) on `sheet`:
    /// [`Choice::Keep`] while [`GameFamily::may_roll_again`], else a box choice of
    /// [`GameFamily::box_choices`]. `rng` is the game's generator, for players that draw.
    fn choose(
        &mut self,
        sheet: &S,
        dice: &Dice,
        roll_number: u8,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, Self::Error>;

    /// What to do with `dice` in the turn `turn` (its roll, announcement and pure hand): as
    /// [`TurnPlayer::choose`] unless the player knows announcements.
    fn choose_in(
        &mut self,
        sheet: &S,
        dice: &Dice,
        turn: JambTurn,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, Self::Error> {
        self.choose(sheet, dice, turn.roll_number, rng)
    }

    /// The box of the Announce column to announce after the first roll showed `dice`, asked
    /// only where [`GameFamily::may_announce`] allows one; none by default.
    fn announce(
        &mut self,
        _sheet: &S,
        _dice: &Dice,
        _rng: &mut ChaCha8Rng,
    ) -> Result<Option<JambBox>, Self::Error> {
        Ok(None)
    }
}

impl<P: JambPlayer + ?Sized> TurnPlayer<JambSheet> for P {
    type Error = std::convert::Infallible;

    fn choose(
        &mut self,
        sheet: &JambSheet,
        dice: &Dice,
        roll_number: u8,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, Self::Error> {
        Ok(JambPlayer::choose(self, sheet, dice, roll_number, rng))
    }

    fn choose_in(
        &mut self,
        sheet: &JambSheet,
        dice: &Dice,
        turn: JambTurn,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, Self::Error> {
        Ok(JambPlayer::choose_in(self, sheet, dice, turn, rng))
    }

    fn announce(
        &mut self,
        sheet: &JambSheet,
        dice: &Dice,
        rng: &mut ChaCha8Rng,
    ) -> Result<Option<JambBox>, Self::Error> {
        Ok(JambPlayer::announce(self, sheet, dice, rng))
    }
}

/// One turn as the turn loop played it.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnPlay<S> {
    /// The rolls as the dice lay (one to the turn's rolls), each of the game's dice.
    pub rolls: Vec<Vec<u8>>,
    /// The dice kept after each roll but the last.
    pub keeps: Vec<Dice>,
    /// The same keeps as the dice lay (the first dice of the roll that match, in table order).
    pub shown_keeps: Vec<Keep>,
    /// The box of the Announce column announced after the first roll, if any.
    pub announced: Option<JambBox>,
    /// How the turn ended.
    pub end: TurnEnd<S>,
}

/// How a turn ended.
#[derive(Clone, Debug, PartialEq)]
pub enum TurnEnd<S> {
    /// The dice were written in a box.
    Written {
        /// The box choice.
        choice: Choice,
        /// The roll whose dice were written.
        roll_number: u8,
        /// Points written in the box (bonuses excluded).
        points: i32,
        /// The sheet after.
        after: S,
    },
    /// The player made a move the rules refuse (a keep of dice not shown or with no roll left,
    /// a box the dice may not go to); the sheet is unchanged.
    Illegal {
        /// The roll the move followed.
        roll_number: u8,
        /// The move.
        choice: Choice,
    },
}

/// Plays one turn of `player` on `sheet`: rolls the game's dice as `law` says, asks the player
/// after the first roll for an announcement where the sheet allows one and after each roll for
/// its move, rerolls the dice it does not keep ([`reroll`]) while the sheet allows another roll
/// (up to the turn's rolls: five on the last turn of `jamb-6a`; only all the dice where the next
/// roll must be a pure hand), and ends with the box it writes or its first illegal move. The
/// dice are drawn from `rng` in the order every simulation has always drawn them: one per die
/// for the first roll, then between the player's own draws one per die rolled again, in table
/// order.
pub fn play_turn<S: GameFamily, P: TurnPlayer<S> + ?Sized>(
    player: &mut P,
    sheet: &S,
    law: DiceLaw,
    rng: &mut ChaCha8Rng,
) -> Result<TurnPlay<S>, P::Error> {
    play_turn_saved(player, sheet, 0, law, rng)
}

/// [`play_turn`] for a turn that may also use `saved` rolls saved before it (the saved-rolls
/// rule of `maxi-yatzy-saved`): it may roll up to the turn's own rolls and `saved` more. With
/// `saved` 0, exactly [`play_turn`].
pub fn play_turn_saved<S: GameFamily, P: TurnPlayer<S> + ?Sized>(
    player: &mut P,
    sheet: &S,
    saved: u8,
    law: DiceLaw,
    rng: &mut ChaCha8Rng,
) -> Result<TurnPlay<S>, P::Error> {
    let rolls = sheet.max_rolls().saturating_add(saved);
    let may_roll_again = |turn: JambTurn| match saved {
        0 => sheet.may_roll_again_in(turn),
        _ => turn.roll_number < rolls,
    };
    let count = sheet.dice_count();
    let mut shown: Vec<u8> = (0..count).map(|_| law.roll(rng)).collect();
    let mut play = TurnPlay {
        rolls: vec![shown.clone()],
        keeps: Vec::new(),
        shown_keeps: Vec::new(),
        announced: None,
        end: TurnEnd::Illegal {
            roll_number: rolls,
            choice: Choice::Keep(Dice::default()),
        },
    };
    let mut turn = JambTurn::at_roll(1);
    for roll_number in 1..=rolls {
        turn.roll_number = roll_number;
        let dice = Dice::from_faces_up_to(&shown, count).unwrap_or_default();
        if roll_number == 1 && JambBox::ALL.iter().any(|&b| sheet.may_announce(1, b)) {
            if let Some(b) = player.announce(sheet, &dice, rng)? {
                if !sheet.may_announce(1, b) {
                    // An announcement the slip refuses: the move named as the cell it names.
                    let cell = Cell {
                        column: u8::MAX,
                        jbox: b,
                    };
                    play.end = TurnEnd::Illegal {
                        roll_number,
                        choice: Choice::Write(cell),
                    };
                    break;
                }
                turn.announced = Some(b);
                play.announced = Some(b);
            }
        }
        let choice = player.choose_in(sheet, &dice, turn, rng)?;
        if let Choice::Keep(kept) = choice {
            let pure_enough = kept.is_empty() || !sheet.next_roll_must_be_pure(turn);
            if may_roll_again(turn) && kept.is_subset_of(&dice) && pure_enough {
                let (keep, next) = reroll(rng, law, &shown, &kept);
                shown = next;
                play.rolls.push(shown.clone());
                play.keeps.push(kept);
                play.shown_keeps.push(keep);
                turn.pure = kept.is_empty();
                continue;
            }
        }
        play.end = match sheet.play_in(choice, &dice, turn) {
            Some((points, after)) => TurnEnd::Written {
                choice,
                roll_number,
                points,
                after,
            },
            None => TurnEnd::Illegal {
                roll_number,
                choice,
            },
        };
        break;
    }
    Ok(play)
}

/// A Jamb player: after each roll, keep dice and roll again or write the dice in a cell; after
/// the first roll, where the slip has an Announce column, announce one of its boxes or not.
pub trait JambPlayer {
    /// What to do with `dice`, shown by roll `roll_number` (1 to the turn's rolls) of a turn
    /// with no announcement, on slip `sheet`: [`Choice::Keep`] (only while
    /// [`JambSheet::may_roll_again`]) or [`Choice::Write`] of a cell in
    /// [`JambSheet::legal_cells`]. `rng` is the game's generator, for players that draw at
    /// random.
    fn choose(
        &mut self,
        sheet: &JambSheet,
        dice: &Dice,
        roll_number: u8,
        rng: &mut ChaCha8Rng,
    ) -> Choice;

    /// What to do with `dice` in the turn `turn`: a keep while
    /// [`JambSheet::may_roll_again_in`] (of nothing where
    /// [`JambSheet::next_roll_must_be_pure`]) or a cell of [`JambSheet::legal_cells_in`]. By
    /// default [`JambPlayer::choose`], which knows neither announcements nor pure hands.
    fn choose_in(
        &mut self,
        sheet: &JambSheet,
        dice: &Dice,
        turn: JambTurn,
        rng: &mut ChaCha8Rng,
    ) -> Choice {
        self.choose(sheet, dice, turn.roll_number, rng)
    }

    /// The box of the Announce column to announce after the first roll showed `dice` (one of
    /// [`JambSheet::announceable`]), or none; asked only on slips with such a box empty. By
    /// default none.
    fn announce(
        &mut self,
        _sheet: &JambSheet,
        _dice: &Dice,
        _rng: &mut ChaCha8Rng,
    ) -> Option<JambBox> {
        None
    }
}

/// One turn as played: the rolls, the dice kept between them, the cell written and its points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedTurn {
    /// Seat of the player (0-based).
    pub seat: u8,
    /// The rolls as the dice lay (one to the turn's rolls), each of the game's dice.
    pub rolls: Vec<Vec<u8>>,
    /// The dice kept after each roll but the last.
    pub keeps: Vec<Dice>,
    /// The box of the Announce column announced after the first roll, if any.
    pub announced: Option<JambBox>,
    /// The cell written.
    pub cell: Cell,
    /// The points written in it.
    pub points: i32,
}

/// A whole game: every turn in order and each player's final slip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Every turn, players in seat order each round.
    pub turns: Vec<PlayedTurn>,
    /// The final slips, in seat order.
    pub finals: Vec<JambSheet>,
}

/// A move the rules refuse, with where it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// Seat of the player.
    pub seat: u8,
    /// Turn index in the game.
    pub turn: usize,
    /// The roll the move followed.
    pub roll_number: u8,
    /// The move.
    pub choice: Choice,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seat {} made an illegal move in turn {} after roll {}: {}",
            self.seat + 1,
            self.turn + 1,
            self.roll_number,
            self.choice
        )
    }
}

impl std::error::Error for IllegalMove {}

/// Plays one game of `rules` with `players` in seat order, dice falling by `dice` and drawn
/// from `rng`; the first illegal move ends it with an error.
pub fn play_game(
    rules: JambRules,
    players: &mut [&mut dyn JambPlayer],
    dice: DiceLaw,
    rng: &mut ChaCha8Rng,
) -> Result<PlayedGame, IllegalMove> {
    let mut sheets = vec![JambSheet::new(rules); players.len()];
    let mut turns = Vec::with_capacity(rules.turns() * players.len());
    for _round in 0..rules.turns() {
        for (seat, player) in players.iter_mut().enumerate() {
            let sheet = &mut sheets[seat];
            let illegal = |roll_number, choice| IllegalMove {
                seat: seat as u8,
                turn: turns.len(),
                roll_number,
                choice,
            };
            let Ok(played) = play_turn(&mut **player, sheet, dice, rng);
            let (cell, points) = match played.end {
                TurnEnd::Written {
                    choice: Choice::Write(cell),
                    points,
                    after,
                    ..
                } => {
                    *sheet = after;
                    (cell, points)
                }
                TurnEnd::Written {
                    choice,
                    roll_number,
                    ..
                }
                | TurnEnd::Illegal {
                    choice,
                    roll_number,
                } => return Err(illegal(roll_number, choice)),
            };
            turns.push(PlayedTurn {
                seat: seat as u8,
                rolls: played.rolls,
                keeps: played.keeps,
                announced: played.announced,
                cell,
                points,
            });
        }
    }
    Ok(PlayedGame {
        turns,
        finals: sheets,
    })
}

/// A position a player was asked about: the slip, the dice and the roll number (1 to 3).
pub type Position = (JambSheet, Dice, u8);

/// A player that plays as `player` and records every position it is asked about.
#[derive(Clone, Debug)]
pub struct Recorder<P> {
    /// The player making the choices.
    pub player: P,
    /// The positions met so far, in order.
    pub positions: Vec<Position>,
}

impl<P: JambPlayer> JambPlayer for Recorder<P> {
    fn choose(&mut self, sheet: &JambSheet, dice: &Dice, n: u8, rng: &mut ChaCha8Rng) -> Choice {
        self.positions.push((*sheet, *dice, n));
        self.player.choose(sheet, dice, n, rng)
    }
}

/// Plays one one-seat game of `rules` with `player` (fair dice from `rng`) and returns every
/// position it met, or the first illegal move.
pub fn record_positions(
    rules: JambRules,
    player: impl JambPlayer,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Position>, IllegalMove> {
    let mut recorder = Recorder {
        player,
        positions: Vec::new(),
    };
    play_game(rules, &mut [&mut recorder], DiceLaw::Fair, rng)?;
    Ok(recorder.positions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// A fair die draws as simulations always did; a loaded one shows its face about as often as
    /// asked, the others equally.
    #[test]
    fn dice_laws_draw_as_asked() {
        let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(4), ChaCha8Rng::seed_from_u64(4));
        for _ in 0..1000 {
            assert_eq!(DiceLaw::Fair.roll(&mut a), b.gen_range(1..=6));
        }
        let law = DiceLaw::loaded(2, 0.4).unwrap();
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[usize::from(law.roll(&mut a) - 1)] += 1;
        }
        let expected = law.face_probabilities();
        for (face, &count) in counts.iter().enumerate() {
            let share = f64::from(count) / 60_000.0;
            assert!((share - expected[face]).abs() < 0.01, "{counts:?}");
        }
        assert!((expected[1] - 0.4).abs() < 1e-15 && (expected[0] - 0.12).abs() < 1e-15);
        assert_eq!(DiceLaw::loaded(7, 0.4), None);
        assert_eq!(DiceLaw::loaded(6, 1.0), None);
        assert_eq!(DiceLaw::loaded(6, 0.0), None);
    }

    /// A player that answers from a script, one choice per roll.
    struct Scripted(Vec<Choice>);

    impl<S> TurnPlayer<S> for Scripted {
        type Error = ();

        fn choose(&mut self, _: &S, _: &Dice, _: u8, _: &mut ChaCha8Rng) -> Result<Choice, ()> {
            if self.0.is_empty() {
                return Err(());
            }
            Ok(self.0.remove(0))
        }
    }

    fn dice(text: &str) -> Dice {
        let faces: Vec<u8> = text.bytes().map(|b| b - b'0').collect();
        Dice::from_faces(&faces).unwrap()
    }

    /// The loop draws five dice, then one per die rolled again (in table order), and writes the
    /// last roll's dice in the box chosen, with the rules' points and sheet after.
    #[test]
    fn a_turn_draws_the_dice_in_order_and_writes_the_box() {
        use crate::rules::{Category, RuleSet, Sheet};
        let sheet = Sheet::empty(RuleSet::Yahtzee);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut draws = ChaCha8Rng::seed_from_u64(9);
        let first: [u8; 5] = std::array::from_fn(|_| DiceLaw::Fair.roll(&mut draws));
        let kept = Dice::from_faces(&first[..2]).unwrap();
        let mut player = Scripted(vec![Choice::Keep(kept), Choice::Score(Category::Chance)]);
        let played = play_turn(&mut player, &sheet, DiceLaw::Fair, &mut rng).unwrap();
        let mut second = first;
        for die in &mut second[2..] {
            *die = DiceLaw::Fair.roll(&mut draws);
        }
        assert_eq!(played.rolls, vec![first, second]);
        assert_eq!(played.keeps, vec![kept]);
        assert_eq!(played.shown_keeps, vec![Keep::new(&first[..2]).unwrap()]);
        let last = Dice::from_faces(&second).unwrap();
        let (points, after) = sheet
            .play(Choice::Score(Category::Chance), &last, 2)
            .unwrap();
        assert_eq!(points, i32::from(second.iter().sum::<u8>()));
        assert_eq!(
            played.end,
            TurnEnd::Written {
                choice: Choice::Score(Category::Chance),
                roll_number: 2,
                points,
                after,
            }
        );
        assert_eq!(rng.gen::<u64>(), draws.gen::<u64>(), "no other draw");
    }

    /// A jamb-6a player that rolls all six dice again while it may, announces the first box it
    /// may after the first roll and writes the announced box, or else the first legal cell.
    struct Reroller;

    impl JambPlayer for Reroller {
        fn choose(&mut self, _: &JambSheet, _: &Dice, _: u8, _: &mut ChaCha8Rng) -> Choice {
            Choice::Keep(Dice::default())
        }

        fn choose_in(
            &mut self,
            sheet: &JambSheet,
            _: &Dice,
            turn: JambTurn,
            _: &mut ChaCha8Rng,
        ) -> Choice {
            match sheet.may_roll_again_in(turn) {
                true => Choice::Keep(Dice::default()),
                false => Choice::Write(sheet.legal_cells_in(turn).next().unwrap()),
            }
        }

        fn announce(&mut self, sheet: &JambSheet, _: &Dice, _: &mut ChaCha8Rng) -> Option<JambBox> {
            let open = sheet.announceable(1);
            JambBox::ALL.into_iter().find(|b| open & b.bit() != 0)
        }
    }

    /// Six dice, three rolls a turn and five on the last; announced turns written in their box.
    #[test]
    fn a_jamb_6a_game_rolls_six_dice_announces_and_ends_with_five_rolls() {
        use crate::rules::jamb::{ColumnKind, JambRules};
        let rules = JambRules::JAMB_6A;
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let game = play_game(rules, &mut [&mut Reroller], DiceLaw::Fair, &mut rng).unwrap();
        assert_eq!(game.turns.len(), 52);
        let announce = rules.announce_column().unwrap();
        let mut sheet = JambSheet::new(rules);
        for (i, turn) in game.turns.iter().enumerate() {
            let last = i + 1 == game.turns.len();
            assert_eq!(turn.rolls.len(), if last { 5 } else { 3 }, "turn {i}");
            assert!(turn.rolls.iter().all(|r| r.len() == 6));
            assert!(turn.keeps.iter().all(|k| k.is_empty()));
            if let Some(b) = turn.announced {
                assert_eq!(
                    (usize::from(turn.cell.column), turn.cell.jbox),
                    (announce, b)
                );
            }
            let dice = Dice::from_faces_up_to(turn.rolls.last().unwrap(), 6).unwrap();
            let at = JambTurn {
                roll_number: turn.rolls.len() as u8,
                announced: turn.announced,
                pure: true,
            };
            assert_eq!(sheet.score_cell_in(&dice, at, turn.cell), Some(turn.points));
            sheet = sheet.after_cell_in(&dice, at, turn.cell).unwrap();
        }
        // The Announce column was filled by announcements: 13 of them.
        let announced = game.turns.iter().filter(|t| t.announced.is_some()).count();
        assert_eq!(announced, 13);
        assert_eq!(rules.columns[announce], ColumnKind::Announce);
        assert_eq!(sheet, game.finals[0]);
    }

    /// A player that keeps dice where only a pure hand may follow makes an illegal move; so does
    /// one announcing a box the slip does not offer.
    #[test]
    fn a_keep_before_a_pure_hand_and_a_refused_announcement_are_illegal() {
        use crate::rules::jamb::JambRules;
        let mut text = Vec::new();
        for column in ["D", "F", "U"] {
            for b in JambBox::ALL {
                text.push(format!("{column}:{}=0", b.code()));
            }
        }
        for b in &JambBox::ALL[1..] {
            text.push(format!("A:{}=0", b.code()));
        }
        let sheet = JambSheet::from_notation(JambRules::JAMB_6A, &text.join(",")).unwrap();
        let rng = &mut ChaCha8Rng::seed_from_u64(5);
        // Only A:1 is left and nothing announced: keeping a die is refused.
        struct KeepOne;
        impl JambPlayer for KeepOne {
            fn choose(&mut self, _: &JambSheet, d: &Dice, _: u8, _: &mut ChaCha8Rng) -> Choice {
                Choice::Keep(Dice::from_counts(d.counts().map(|c| c.min(1))))
            }
        }
        let played = play_turn(&mut KeepOne, &sheet, DiceLaw::Fair, rng).unwrap();
        assert!(matches!(
            played.end,
            TurnEnd::Illegal { roll_number: 1, .. }
        ));
        // Announcing a filled box is refused.
        struct AnnounceJamb;
        impl JambPlayer for AnnounceJamb {
            fn choose(&mut self, _: &JambSheet, _: &Dice, _: u8, _: &mut ChaCha8Rng) -> Choice {
                Choice::Keep(Dice::default())
            }
            fn announce(&mut self, _: &JambSheet, _: &Dice, _: &mut ChaCha8Rng) -> Option<JambBox> {
                Some(JambBox::Jamb)
            }
        }
        let played = play_turn(&mut AnnounceJamb, &sheet, DiceLaw::Fair, rng).unwrap();
        assert!(matches!(
            played.end,
            TurnEnd::Illegal { roll_number: 1, .. }
        ));
        // The last box, announced or written with a pure hand, after up to five rolls.
        let played = play_turn(&mut Reroller, &sheet, DiceLaw::Fair, rng).unwrap();
        assert_eq!(played.rolls.len(), 5);
        assert_eq!(played.announced, Some(JambBox::Ones));
        assert!(matches!(
            played.end,
            TurnEnd::Written { roll_number: 5, .. }
        ));
    }

    /// A keep with no roll left, a keep of dice not shown and a box of the other family end the
    /// turn as illegal, the sheet unchanged; a player's own error ends it as that error.
    #[test]
    fn illegal_moves_end_the_turn() {
        use crate::rules::jamb::{JambBox, JambRules};
        use crate::rules::{Category, RuleSet, Sheet};
        let sheet = Sheet::empty(RuleSet::Yahtzee);
        let keep_all = |d: &str| Choice::Keep(dice(d));
        let rng = &mut ChaCha8Rng::seed_from_u64(1);
        let end = |p: &mut Scripted, rng: &mut ChaCha8Rng| {
            play_turn(p, &sheet, DiceLaw::Fair, rng).unwrap().end
        };
        let none = Choice::Keep(Dice::default());
        let mut three_keeps = Scripted(vec![none, none, none]);
        let illegal = TurnEnd::Illegal {
            roll_number: 3,
            choice: none,
        };
        assert_eq!(end(&mut three_keeps, rng), illegal);
        // Six sixes cannot be among five dice.
        let mut too_many = Scripted(vec![keep_all("66666"), keep_all("66666")]);
        let first = end(&mut too_many, rng);
        assert!(matches!(first, TurnEnd::Illegal { .. }), "{first:?}");
        let cell = Cell {
            column: 0,
            jbox: JambBox::Ones,
        };
        let mut jamb_cell = Scripted(vec![Choice::Write(cell)]);
        let wrong_family = TurnEnd::Illegal {
            roll_number: 1,
            choice: Choice::Write(cell),
        };
        assert_eq!(end(&mut jamb_cell, rng), wrong_family);
        let mut silent = Scripted(Vec::new());
        assert_eq!(play_turn(&mut silent, &sheet, DiceLaw::Fair, rng), Err(()));
        let slip = JambSheet::new(JambRules::JAMB_5);
        let mut yahtzee_box = Scripted(vec![Choice::Score(Category::Chance)]);
        let played = play_turn(&mut yahtzee_box, &slip, DiceLaw::Fair, rng).unwrap();
        assert!(matches!(
            played.end,
            TurnEnd::Illegal { roll_number: 1, .. }
        ));
    }
}
