//! Rates every decision of one game given as a YGN string, with the library alone: parse,
//! replay (every rule checked), value every option with the solitaire oracle, print the errors.
//!
//! `cargo run --release --example rate_game` (the expected-score table is built in memory,
//! about half a second).

use dicelens::rate::{rate_game, SolitaireCache, SolitaireOracle, Thresholds};
use dicelens::replay::{replay, ReplayOptions, Replayed};
use dicelens::rules::RuleSet;
use dicelens::solve::expected::build_table;
use dicelens_parsers::{Format, GameReader, GameRecord};
use std::collections::HashMap;

/// `fixtures/ygn/valid.ygn`, whose third game has one player under yahtzee rules.
const LOG: &str = include_str!("../fixtures/ygn/valid.ygn");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Read games until the one-player game.
    let mut reader = Format::Ygn.reader(LOG.as_bytes(), "valid.ygn");
    let mut game = GameRecord::default();
    loop {
        match reader.read_game(&mut game) {
            Some(Ok(())) if game.players.len() == 1 && game.rules == "yahtzee" => break,
            Some(_) => continue,
            None => return Err("no one-player yahtzee game in the log".into()),
        }
    }
    let mut replayed = Replayed::default();
    replay(&game, ReplayOptions::default(), &mut replayed).map_err(|e| e.to_string())?;
    let rules = RuleSet::Yahtzee;
    let table = build_table(rules, &|_, _| {});
    let oracle = SolitaireOracle::new(HashMap::from([(rules, table)]));
    let mut rated = Vec::new();
    rate_game(
        &oracle,
        &replayed,
        &Thresholds::default(),
        &mut SolitaireCache::default(),
        &mut rated,
    )?;
    println!("game {} of {}", game.provenance.game_id, game.players[0]);
    let mut total = 0.0;
    for r in &rated {
        let d = &r.decision;
        total += r.error;
        println!(
            "round {:2} roll {} dice {} chose {:<10} best {:<10} error {:.3} ({})",
            d.round,
            d.roll_number,
            d.dice,
            d.choice.to_string(),
            r.best_choice.to_string(),
            r.error,
            r.class
        );
    }
    println!("{} decisions, total error {total:.3} points", rated.len());
    Ok(())
}
