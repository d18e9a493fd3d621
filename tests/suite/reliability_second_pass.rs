//! The second pass over the logs (issue 30, finding 3): `analyze` reads the games of its game
//! pages again after rating the corpus. A log replaced since the first read (by a rename, the
//! documented safe way to update a log) must not put its new games on the pages of the old
//! ids: every game read again is checked against the content hash it had when it was rated,
//! and the log's identity against the one it had. A FIFO is read once: the second pass does not
//! wait on it again.

use crate::common::{text, StdinFrom};
use crate::reliability_inputs::{
    analyze_input, assert_rated, expected_tables, make_fifo, write_log,
};
use dicelens::pipeline::{rate_games_with_ids, Analyzer, Options};
use dicelens::ranking::leaderboards;
use dicelens::rate::OracleSpec;
use dicelens::report::linked_games;
use dicelens::rules::RuleSet;
use dicelens::tables::Silent;
use dicelens::worst::WorstDecisions;
use std::path::Path;
use std::time::{Duration, Instant};

/// A log of `games` one-player games simulated from `seed`, under the ids of the log of seed
/// `ids_of` (other games under the same ids: a log rewritten).
fn write_log_as(path: &Path, games: usize, seed: u64, ids_of: u64) {
    write_log(path, RuleSet::Yahtzee, games, seed);
    let text = std::fs::read_to_string(path).unwrap();
    let renamed = text.replace(
        &format!("[Game \"sim{seed}-"),
        &format!("[Game \"sim{ids_of}-"),
    );
    assert_ne!(text, renamed);
    std::fs::write(path, renamed).unwrap();
}

/// The options of the analyses here: the solitaire oracle and the shared tables.
fn options() -> Options {
    Options {
        oracle: OracleSpec::SOLITAIRE,
        tables: Some(expected_tables().to_path_buf()),
        ..Options::default()
    }
}

#[test]
fn a_log_replaced_after_it_was_rated_gives_no_page_of_its_new_games() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.ygn");
    write_log(&log, RuleSet::Yahtzee, 60, 1);
    let options = options();
    let mut worst = WorstDecisions::of_everyone();
    let mut analysis = Analyzer::new(options.clone())
        .run(std::slice::from_ref(&log), &mut worst, &Silent)
        .unwrap();
    let boards = leaderboards(&analysis.aggregates, 1);
    let linked = linked_games(&boards, &worst);
    drop(boards);
    let read_again = |analysis: &mut dicelens::pipeline::Analysis| {
        rate_games_with_ids(
            &analysis.logs,
            &options,
            &linked,
            &mut analysis.tables,
            &Silent,
        )
        .unwrap()
    };
    assert!(linked.len() > 5, "{} games linked", linked.len());
    // Unchanged, every linked game is found again, and nothing is reported.
    let again = read_again(&mut analysis);
    assert_eq!(again.games.len(), linked.len());
    assert!(again.missed.is_empty(), "{:?}", again.missed);
    // Another log (the same ids, other games) renamed over it.
    let other = dir.path().join("other.ygn");
    write_log_as(&other, 60, 2, 1);
    std::fs::rename(&other, &log).unwrap();
    let again = read_again(&mut analysis);
    assert!(
        again.games.is_empty(),
        "{} games of the new log",
        again.games.len()
    );
    let name = log.display().to_string();
    assert_eq!(
        again.missed[0],
        format!(
            "{name} changed since it was read (replaced by another file): its games are read \
             again only where unchanged"
        )
    );
    assert_eq!(again.missed.len(), 1 + linked.len(), "{:?}", again.missed);
    assert!(
        again.missed[1].contains("changed since it was rated: it gets no page"),
        "{:?}",
        again.missed
    );
    // The same games written again (a new file, renamed over it): every page is kept.
    write_log(&other, RuleSet::Yahtzee, 60, 1);
    std::fs::rename(&other, &log).unwrap();
    let again = read_again(&mut analysis);
    assert_eq!(again.games.len(), linked.len());
    assert_eq!(again.missed.len(), 1, "{:?}", again.missed);
}

#[test]
fn a_log_renamed_over_during_analyze_leaves_no_foreign_game_page() {
    // End to end: the log is replaced once the first pass has read it (a FIFO after it, whose
    // writer does the rename when the reader opens it), before the game pages are read.
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("inputs");
    std::fs::create_dir(&inputs).unwrap();
    let log = inputs.join("a.ygn");
    write_log(&log, RuleSet::Yahtzee, 40, 1);
    let other = dir.path().join("other.ygn");
    write_log_as(&other, 40, 2, 1);
    let fifo = inputs.join("b-fifo");
    make_fifo(&fifo);
    let (log2, fifo2) = (log.clone(), fifo.clone());
    let writer = std::thread::spawn(move || {
        // Opening blocks until the reader opens the FIFO: a.ygn has been read.
        let handle = std::fs::OpenOptions::new()
            .write(true)
            .open(&fifo2)
            .unwrap();
        std::fs::rename(&other, &log2).unwrap();
        drop(handle);
    });
    let out = dir.path().join("out");
    let output = analyze_input(inputs.to_str().unwrap(), &out, StdinFrom::Nothing, "20");
    writer.join().unwrap();
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("40 games read, 40 used"), "{stderr}");
    assert!(
        stderr.contains("changed since it was read (replaced by another file)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("changed since it was rated: it gets no page"),
        "{stderr}"
    );
    // Every game to show was in the replaced log: no page (before, each showed the new log's
    // game of the same id).
    let pages = std::fs::read_dir(out.join("games")).map_or(0, |entries| entries.count());
    assert_eq!(pages, 0, "{stderr}");
    assert!(out.join("players.csv").exists());
}

#[test]
fn a_fifo_is_read_once_and_its_games_are_rated() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.ygn");
    write_log(&log, RuleSet::Yahtzee, 30, 4);
    let bytes = std::fs::read(&log).unwrap();
    std::fs::remove_file(&log).unwrap();
    let inputs = dir.path().join("inputs");
    std::fs::create_dir(&inputs).unwrap();
    let fifo = inputs.join("fifo");
    make_fifo(&fifo);
    let writer = std::thread::spawn(move || std::fs::write(fifo, bytes).unwrap());
    let started = Instant::now();
    let output = analyze_input(
        inputs.to_str().unwrap(),
        &dir.path().join("out"),
        StdinFrom::Nothing,
        "20",
    );
    writer.join().unwrap();
    assert_rated(&output, 30);
    // Before: the game pages' pass opened the FIFO again and waited 20 s for a writer.
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{}",
        text(&output.stderr)
    );
    let stderr = text(&output.stderr);
    assert!(stderr.contains("read once"), "{stderr}");
}
