//! Table builds seen from the command line: a build shows what it builds, its percent and the
//! time left on stderr also when stderr is not a terminal (issue 32), and `tables check` checks
//! the Jamb column tables beside the others.

use crate::common::{tables_dir, text};
use std::process::Command;

/// The percent of a build's progress line for `what` (`dicelens: WHAT: N% (...), ...`).
fn percent_of(line: &str, what: &str) -> Option<u64> {
    let rest = line.strip_prefix(&format!("dicelens: {what}: "))?;
    rest.split('%').next()?.parse().ok()
}

#[test]
fn a_table_build_shows_its_percent_and_time_left_when_stderr_is_not_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(["tables", "build", "--rules", "yahtzee-plain", "--tables"])
        .arg(dir.path())
        .env_remove("DICELENS_PROGRESS_EVERY")
        .output()
        .expect("the binary runs");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        text(&out.stdout).contains("yahtzee-plain") && text(&out.stdout).contains("built in"),
        "{}",
        text(&out.stdout)
    );
    let what = "building the yahtzee-plain expected-score table";
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains(what)).collect();
    let percents: Vec<u64> = lines.iter().filter_map(|l| percent_of(l, what)).collect();
    assert_eq!(percents.len(), lines.len(), "{stderr}");
    // Lines at the start, at the steps between and at the end; never a flood.
    assert!(percents.len() >= 3, "{stderr}");
    assert!(percents.len() <= 12, "{stderr}");
    assert!(percents.windows(2).all(|w| w[0] < w[1]), "{stderr}");
    assert_eq!(percents.last(), Some(&100), "{stderr}");
    assert!(lines.iter().all(|l| l.contains(" states)")), "{stderr}");
    // The time left once the rate is known, and the time it took at the end.
    assert!(
        lines[1..lines.len() - 1]
            .iter()
            .all(|l| l.contains(" left") && l.contains("about ")),
        "{stderr}"
    );
    assert!(
        lines.last().is_some_and(|l| l.contains("done in ")),
        "{stderr}"
    );
    // No games' progress line while a table builds (there are no games here at all).
    assert!(!stderr.contains("progress: "), "{stderr}");
}

#[test]
fn tables_check_checks_the_jamb_column_tables() {
    let out = Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(["tables", "check", "--tables"])
        .arg(tables_dir())
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let jamb = stdout
        .lines()
        .find(|l| l.split_whitespace().next() == Some("jamb-5"))
        .unwrap_or_else(|| panic!("no jamb-5 line: {stdout}"));
    assert!(
        jamb.contains("columns") && jamb.contains("states") && jamb.contains("valid"),
        "{jamb}"
    );
}

#[test]
fn tables_build_keeps_valid_jamb_column_tables() {
    // Building jamb-5 where its tables are valid keeps them (a build from nothing takes minutes;
    // `tables build --rules jamb-5` building them is measured in PERFORMANCE.md).
    let dir = tempfile::tempdir().unwrap();
    let name = "jamb-5.columns.tbl";
    std::fs::copy(tables_dir().join(name), dir.path().join(name)).unwrap();
    let build = Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(["tables", "build", "--rules", "jamb-5", "--tables"])
        .arg(dir.path())
        .output()
        .expect("the binary runs");
    assert!(build.status.success(), "{}", text(&build.stderr));
    let stdout = text(&build.stdout);
    assert!(
        stdout.starts_with("jamb-5") && stdout.contains("valid"),
        "{stdout}"
    );
    assert!(
        !text(&build.stderr).contains("building"),
        "{}",
        text(&build.stderr)
    );
}

#[test]
fn analyze_shows_the_table_build_and_no_games_line_while_it_builds() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("plain.ygn");
    crate::common::run_ok(
        &[
            "simulate",
            "--rules",
            "yahtzee-plain",
            "--seats",
            "1",
            "--players",
            "3",
            "--games",
            "30",
            "--seed",
            "32",
            "--out",
            log.to_str().unwrap(),
        ],
        1,
    );
    // An empty table directory: the first game rated builds the expected-score table, with
    // games' progress lines due every 0.2 s.
    let tables = dir.path().join("tables");
    let out = Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args([
            "analyze",
            log.to_str().unwrap(),
            "--min-games",
            "1",
            "--out",
        ])
        .arg(dir.path().join("out"))
        .env("DICELENS_TABLES", &tables)
        .env("DICELENS_PROGRESS_EVERY", "0.2")
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .expect("the binary runs");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let what = "dicelens: building the yahtzee-plain expected-score table: ";
    let lines: Vec<&str> = stderr.lines().collect();
    let first = lines.iter().position(|l| l.starts_with(what));
    let last = lines
        .iter()
        .position(|l| l.starts_with(what) && l.contains(": 100% ("));
    let (Some(first), Some(last)) = (first, last) else {
        panic!("no build lines from 0 to 100%: {stderr}");
    };
    assert!(
        lines[first..=last].iter().all(|l| l.starts_with(what)),
        "a games' line while the table built: {stderr}"
    );
}
