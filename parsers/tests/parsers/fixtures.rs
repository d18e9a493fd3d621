//! The fixtures of every format read as their folder's `EXPECTED.csv` says: each file listed
//! gives exactly the listed games and errors, in order, and then nothing; every fixture file is
//! listed.

use crate::common::expected::{assert_outcomes, expected_outcomes};
use crate::common::{fixture_files, read_fixture, FIXTURE_FOLDERS};

/// Checks every fixture of `folder` against its `EXPECTED.csv`.
fn check_folder(folder: &str) {
    let expected = expected_outcomes(folder);
    let listed: Vec<&String> = expected.keys().collect();
    let files = fixture_files(folder);
    assert_eq!(
        listed,
        files.iter().collect::<Vec<_>>(),
        "fixtures/{folder}: the files EXPECTED.csv lists"
    );
    for (file, outcomes) in &expected {
        assert_outcomes(file, &read_fixture(folder, file), outcomes);
    }
}

#[test]
fn every_fixture_gives_the_outcomes_of_its_expected_csv() {
    for folder in FIXTURE_FOLDERS {
        check_folder(folder);
    }
}

#[test]
fn every_fixture_folder_of_a_format_is_checked() {
    let dir = format!("{}/../fixtures", env!("CARGO_MANIFEST_DIR"));
    let mut folders: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.parse::<dicelens_parsers::Format>().is_ok())
        .collect();
    folders.sort();
    let mut checked = FIXTURE_FOLDERS.to_vec();
    checked.sort_unstable();
    assert_eq!(folders, checked);
}
