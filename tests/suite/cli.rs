//! End-to-end tests of the `dicelens` binary: `eval`, `tables build` and `tables check`,
//! including damaged table files and bad input.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn dicelens(args: &[&str], tables: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(args)
        .env("DICELENS_TABLES", tables)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn verhoeff_position_through_eval() {
    let dir = tempfile::tempdir().unwrap();
    let verhoeff = [
        "eval",
        "--rules",
        "yahtzee-free",
        "--state",
        "_2__5_TF__LYC;15-",
        "--points",
        "103",
        "--roll",
        "12344",
        "--rolls-left",
        "2",
        "--json",
    ];
    let codes = [
        "eval",
        "--rules",
        "yahtzee-free",
        "--filled",
        "1,3,4,6,FH,SS",
        "--upper",
        "48",
        "--points",
        "103",
        "--roll",
        "43421",
        "--rolls-left",
        "2",
        "--json",
    ];
    let mut outputs = Vec::new();
    for args in [&verhoeff[..], &codes[..]] {
        let out = dicelens(args, dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let rows = rows.as_array().unwrap().clone();
        let value = |name: &str| {
            rows.iter()
                .find(|r| r["option"] == name)
                .and_then(|r| r["value"].as_f64())
                .unwrap()
        };
        assert_eq!(format!("{:.2}", value("keep 234")), "243.41");
        assert_eq!(format!("{:.2}", value("keep 1234")), "243.10");
        assert_eq!(rows[0]["option"], "keep 234");
        assert_eq!(rows[0]["loss"].as_f64(), Some(0.0));
        let loss = rows.iter().find(|r| r["option"] == "keep 1234").unwrap()["loss"]
            .as_f64()
            .unwrap();
        assert!((loss - (value("keep 234") - value("keep 1234"))).abs() < 1e-12);
        // Proper sub-multisets of 12344 (23 of them, the empty keep included) and the 7 free boxes.
        assert_eq!(rows.len(), 23 + 7);
        assert!(rows.iter().any(|r| r["option"] == "keep -"));
        assert!(rows.iter().all(|r| r["option"] != "keep 12344"));
        outputs.push(rows);
    }
    assert_eq!(
        outputs[0], outputs[1],
        "both notations give the same position"
    );
}

/// Every position of `fixtures/positions.csv` gives its published value through `eval`.
#[test]
fn published_positions_fixture() {
    let dir = tempfile::tempdir().unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/positions.csv");
    let mut reader = csv::Reader::from_path(path).unwrap();
    let mut rows = 0;
    for record in reader.deserialize::<std::collections::HashMap<String, String>>() {
        let row = record.unwrap();
        let out = dicelens(
            &[
                "eval",
                "--rules",
                &row["rules"],
                "--state",
                &row["state"],
                "--points",
                &row["points"],
                "--roll",
                &row["roll"],
                "--rolls-left",
                &row["rolls_left"],
                "--json",
            ],
            dir.path(),
        );
        assert!(
            out.status.success(),
            "{}: {}",
            row["name"],
            text(&out.stderr)
        );
        let options: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let value = options
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["option"] == row["option"].as_str())
            .and_then(|o| o["value"].as_f64())
            .unwrap();
        assert_eq!(
            format!("{value:.2}"),
            row["expected_value_2dp"],
            "{}",
            row["name"]
        );
        rows += 1;
    }
    assert!(rows >= 2);
}

/// A table directory that cannot be written does not stop `eval`: the table is used from memory.
#[test]
fn unwritable_table_directory_still_evaluates() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_dir = dir.path().join("file");
    fs::write(&not_a_dir, b"x").unwrap();
    let out = dicelens(
        &["eval", "--roll", "12345", "--rolls-left", "0"],
        &not_a_dir,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("using the table from memory"),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("score LS"));
}

#[test]
fn thesis_notation_and_text_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dicelens(
        &[
            "eval",
            "--rules",
            "yahtzee-kurnik",
            "--state",
            "2456TMDY0S,51,170",
            "--roll",
            "11311",
            "--rolls-left",
            "0",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("yahtzee-kurnik: filled 2,4,5,6,3K,SS,LS,Y0,C, upper 51, points 170"),
        "{stdout}"
    );
    // Free boxes 1, 3, 4K, FH: with no rolls left, exactly those four options.
    assert_eq!(lines.len(), 2 + 4, "{stdout}");
    assert!(stdout.contains("score 1") && stdout.contains("score FH"));
    assert!(!stdout.contains("keep"));
    // The stderr notice says the missing table was built.
    assert!(
        text(&out.stderr).contains("missing; building it"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bad_eval_input_is_a_one_line_error_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 14] = [
        (
            &["--filled", "1,XX"],
            "--filled: unknown category code 'XX'",
        ),
        (&["--filled", "3K,3k"], "--filled: box 3K is filled twice"),
        (
            &["--filled", "1", "--upper", "7"],
            "--upper: upper total 7 is impossible",
        ),
        (&["--roll", "12347"], "--roll: '12347' has '7'"),
        (
            &["--roll", "123456"],
            "--roll: '123456' has 6 dice, expected 5",
        ),
        (&["--roll", "1234"], "--roll: '1234' has 4 dice"),
        (&["--roll", "12345", "--rolls-left", "3"], "--rolls-left"),
        (&["--rules", "poker"], "--rules: unknown rule set 'poker'"),
        (&["--upper", "abc"], "--upper: expected a whole number"),
        (&["--filled", "Y50", "--points", "10"], "--points"),
        // Points the sheet cannot hold: the message names the bounds.
        (
            &["--filled", "1", "--upper", "3", "--points", "999"],
            "--points: 999 points is more than the filled boxes can hold: with these boxes the \
             sheet holds exactly 3 points",
        ),
        (
            &["--filled", "C,Y50", "--points", "40"],
            "--points: 40 points is less than the sheet already holds: with these boxes it holds \
             50 to 180 points",
        ),
        (
            &["--state", "_2__5_TF__LYC;15-", "--points", "500"],
            "--points: 500 points is more than the filled boxes can hold",
        ),
        (
            &["--opponent-filled", "C", "--opponent-points", "31"],
            "--opponent-points: 31 points is more than the filled boxes can hold",
        ),
    ];
    for (args, expected) in cases {
        let mut full = vec!["eval"];
        full.extend_from_slice(args);
        let out = dicelens(&full, dir.path());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
    // No table was needed to reject the input.
    assert!(fs::read_dir(dir.path()).unwrap().next().is_none());
}

/// Runs `tables check` and returns the status column of the rule set's line.
fn check_status(dir: &Path, rules: &str) -> (String, String) {
    let out = dicelens(&["tables", "check"], dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| l.split_whitespace().next() == Some(rules))
        .unwrap()
        .to_string();
    (line, text(&out.stderr))
}

#[test]
fn damaged_tables_are_detected_and_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("yahtzee.expected.tbl");
    // First check builds all four tables and prints each rule set with its published value.
    let out = dicelens(&["tables", "check"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for (name, value) in [
        ("yahtzee", "254.5877287"),
        ("yahtzee-free", "254.5896095"),
        ("yahtzee-kurnik", "254.589374"),
        ("yatzy", "248.4399894"),
    ] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap();
        assert!(line.contains(value) && line.contains("agrees"), "{line}");
    }
    let good = fs::read(&path).unwrap();

    // A flipped byte in the payload.
    let mut bad = good.clone();
    bad[1000] ^= 0x10;
    fs::write(&path, &bad).unwrap();
    let (line, stderr) = check_status(dir.path(), "yahtzee");
    assert!(stderr.contains("checksum mismatch"), "{stderr}");
    assert!(
        line.contains("rebuilt (was damaged: checksum mismatch)"),
        "{line}"
    );
    assert_eq!(
        fs::read(&path).unwrap(),
        good,
        "the rebuilt file is the same table"
    );

    // A header whose count of entries is damaged (the length right): said as such, not as a
    // size that equals what is expected.
    let mut bad = good.clone();
    bad[50] ^= 0x01;
    fs::write(&path, &bad).unwrap();
    let (line, stderr) = check_status(dir.path(), "yahtzee");
    assert!(stderr.contains("damaged header: it counts "), "{stderr}");
    assert!(!stderr.contains("bytes, expected"), "{stderr}");
    assert!(line.contains("rebuilt"), "{line}");

    // A truncated file.
    fs::write(&path, &good[..good.len() / 2]).unwrap();
    let (line, stderr) = check_status(dir.path(), "yahtzee");
    assert!(stderr.contains("truncated"), "{stderr}");
    assert!(line.contains("rebuilt"), "{line}");

    // Another rule set's table under this name.
    fs::copy(dir.path().join("yahtzee-free.expected.tbl"), &path).unwrap();
    let (line, stderr) = check_status(dir.path(), "yahtzee");
    assert!(
        stderr.contains("built for rule set 'yahtzee-free', expected 'yahtzee'"),
        "{stderr}"
    );
    assert!(line.contains("rebuilt"), "{line}");

    // Now valid again, and eval uses it without rebuilding.
    let (line, stderr) = check_status(dir.path(), "yahtzee");
    assert!(line.ends_with("valid"), "{line}");
    assert!(stderr.is_empty(), "{stderr}");

    // A damaged table is also rebuilt when eval needs it.
    fs::write(&path, b"not a table").unwrap();
    let out = dicelens(&["eval", "--roll", "66666"], dir.path());
    assert!(out.status.success());
    assert!(
        text(&out.stderr).contains("yahtzee.expected.tbl is damaged"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(fs::read(&path).unwrap(), good);
}

#[test]
fn tables_build_skips_valid_tables_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let first = dicelens(&["tables", "build", "--rules", "yahtzee"], dir.path());
    assert!(
        text(&first.stdout).contains("built in"),
        "{}",
        text(&first.stdout)
    );
    let again = dicelens(&["tables", "build", "--rules", "yahtzee"], dir.path());
    assert!(
        text(&again.stdout).contains("valid"),
        "{}",
        text(&again.stdout)
    );
    let forced = dicelens(
        &["tables", "build", "--rules", "yahtzee", "--force"],
        dir.path(),
    );
    assert!(text(&forced.stdout).contains("built in"));
    // --tables wins over the environment variable.
    let other = tempfile::tempdir().unwrap();
    let flag = Command::new(env!("CARGO_BIN_EXE_dicelens"))
        .args(["tables", "build", "--rules", "yahtzee", "--tables"])
        .arg(other.path())
        .env("DICELENS_TABLES", dir.path())
        .output()
        .unwrap();
    assert!(text(&flag.stdout).contains("built in"));
    assert!(other.path().join("yahtzee.expected.tbl").exists());
}

/// `eval --oracle` chooses the method for opponents; `--method`, its former name, still works
/// and errors name the flag the user wrote.
#[test]
fn eval_oracle_and_its_former_name() {
    let dir = tempfile::tempdir().unwrap();
    let position = [
        "eval",
        "--filled",
        "1,2,3",
        "--upper",
        "9",
        "--roll",
        "11234",
        "--opponent-filled",
        "1,2,4",
        "--opponent-upper",
        "7",
    ];
    let mut outputs = Vec::new();
    for flag in ["--oracle", "--method"] {
        let mut args = position.to_vec();
        args.extend([flag, "e"]);
        let out = dicelens(&args, dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        outputs.push(out.stdout);
        let out = dicelens(&["eval", "--roll", "12345", flag, "e"], dir.path());
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            text(&out.stderr),
            format!("dicelens: {flag}: needs opponents (--opponent-filled)\n")
        );
    }
    assert_eq!(outputs[0], outputs[1]);
    let solo = dicelens(
        &[
            "eval", "--roll", "11234", "--filled", "1,2,3", "--upper", "9",
        ],
        dir.path(),
    );
    assert_eq!(outputs[0], solo.stdout, "e is the solitaire valuation");
    let both = dicelens(&["eval", "--oracle", "e", "--method", "e"], dir.path());
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn a_number_out_of_range_is_an_error_stating_the_range_and_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.ygn");
    let out = out.to_str().unwrap();
    for (args, says) in [
        (
            vec!["bench", "quality", "--max-free", "30"],
            "--max-free: expected a number of free boxes (both sheets of yahtzee) from 1 to 26, \
             got 30",
        ),
        (
            vec!["bench", "quality", "--max-free", "0"],
            "from 1 to 26, got 0",
        ),
        (
            vec!["bench", "quality", "--depth", "9"],
            "--depth: expected a search depth from 0 to 5, got 9",
        ),
        (
            vec!["bench", "oracles", "x.ygn", "--tolerance=-0.5"],
            "--tolerance: expected a tolerance of at least 0, got -0.5",
        ),
        (
            vec!["simulate", "--seats", "0", "--out", out],
            "--seats: expected a number of seats of at least 1, got 0",
        ),
        (
            vec!["simulate", "--seats", "3", "--players", "2", "--out", out],
            "--players: expected a number of players (one per seat) of at least 3, got 2",
        ),
        (
            vec!["eval", "--method", "emp:7", "--roll", "12345"],
            "--method: expected a search depth from 0 to 5, got '7'",
        ),
        (
            vec!["analyze", "x.ygn", "--oracle", "dynw:6"],
            "--oracle: expected a search depth from 0 to 5, got '6'",
        ),
        (
            vec!["eval", "--roll", "12345", "--rolls-left", "3"],
            "--rolls-left: 3 rolls left; this turn has at most 2 after its first roll",
        ),
    ] {
        let run = dicelens(&args, dir.path());
        let stderr = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    assert!(!Path::new(out).exists());
}
