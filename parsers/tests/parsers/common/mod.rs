//! Helpers shared by the modules of this test binary: the fixtures (where they are, which files
//! a folder has, reading one with its folder's format), their expected outcomes
//! ([`expected`]) and the helpers the fuzz targets share ([`records`]).

pub mod expected;
pub mod records;

pub use records::*;

use dicelens_parsers::{BoxCode, Format, GameRecord, ParseError, MAX_DICE};
use proptest::prelude::*;

/// Most rolls of a random turn of [`turn_dice`] and [`long_roll_count`].
pub const MOST_TEST_ROLLS: usize = 8;

/// The dice of a random turn: a count of dice (1 to [`MAX_DICE`]), [`MOST_TEST_ROLLS`] rolls of
/// that many faces and one keep fewer of at most that many, for [`with_dice`] (which takes as
/// many as the turn has).
pub fn turn_dice() -> impl Strategy<Value = (Vec<Vec<u8>>, Vec<Vec<u8>>)> {
    (1..=MAX_DICE).prop_flat_map(|dice| {
        (
            prop::collection::vec(prop::collection::vec(1u8..=6, dice), MOST_TEST_ROLLS),
            prop::collection::vec(
                prop::collection::vec(1u8..=6, 0..=dice),
                MOST_TEST_ROLLS - 1,
            ),
        )
    })
}

/// A turn's number of rolls: mostly one to three, sometimes a long turn (six-dice Jamb's last
/// turn, Maxi Yatzy's saved rolls) of up to [`MOST_TEST_ROLLS`].
pub fn long_roll_count() -> impl Strategy<Value = u8> {
    prop_oneof![4 => 1u8..=3, 1 => 4u8..=MOST_TEST_ROLLS as u8]
}

/// An announcement or none: a cell of Jamb's Announce column.
pub fn announced() -> impl Strategy<Value = Option<BoxCode>> {
    prop::option::of(
        prop::sample::select(BoxCode::JAMB_BOXES.to_vec())
            .prop_map(|jbox| BoxCode::parse(&format!("A:{jbox}")).unwrap_or_default()),
    )
}

/// The fixture folders of the readers; each is read with the format of its name.
pub const FIXTURE_FOLDERS: [&str; 5] = ["ygn", "verhoeff", "jsonl", "csv", "yatzy-solver"];

/// The format of fixture folder `folder` (named after it).
pub fn folder_format(folder: &str) -> Format {
    folder
        .parse()
        .unwrap_or_else(|e| panic!("fixtures/{folder}: {e}"))
}

/// The path of `fixtures/{folder}`.
pub fn fixture_dir(folder: &str) -> String {
    format!("{}/../fixtures/{folder}", env!("CARGO_MANIFEST_DIR"))
}

/// The path and content of `fixtures/{folder}/{name}`.
pub fn fixture(folder: &str, name: &str) -> (String, Vec<u8>) {
    let path = format!("{}/{name}", fixture_dir(folder));
    let content = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    (path, content)
}

/// The names of the fixtures of `folder`, sorted: every file but `EXPECTED.*`, and the files of
/// its sub-folders as `sub/name` (`ygn/six-dice`: games of the six-dice rule sets, one folder
/// deeper than the `fixtures/*/*.ygn` the README's first command reads, whose tables take long
/// to build).
pub fn fixture_files(folder: &str) -> Vec<String> {
    let mut files = Vec::new();
    list_files(&fixture_dir(folder), "", &mut files);
    files.sort();
    files
}

/// Appends to `files` the names of the files below `dir`, each after `prefix`.
fn list_files(dir: &str, prefix: &str, files: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir}: {e}")) {
        let entry = entry.unwrap_or_else(|e| panic!("{dir}: {e}"));
        let name = entry
            .file_name()
            .into_string()
            .unwrap_or_else(|name| panic!("{dir}: {name:?} is not UTF-8"));
        if entry.path().is_dir() {
            list_files(&format!("{dir}/{name}"), &format!("{prefix}{name}/"), files);
        } else if !name.starts_with("EXPECTED.") {
            files.push(format!("{prefix}{name}"));
        }
    }
}

/// Every fixture of every folder of [`FIXTURE_FOLDERS`]: its folder's format, its name and its
/// content.
pub fn all_fixtures() -> Vec<(Format, String, Vec<u8>)> {
    let mut fixtures = Vec::new();
    for folder in FIXTURE_FOLDERS {
        for name in fixture_files(folder) {
            let (_, content) = fixture(folder, &name);
            fixtures.push((folder_format(folder), name, content));
        }
    }
    fixtures
}

/// The `total_before` of each turn of `game` that has one, in order.
pub fn totals_before(game: &GameRecord) -> Vec<u32> {
    game.turns
        .iter()
        .filter_map(|turn| turn.total_before)
        .collect()
}

/// Every outcome of reading the fixture `folder/name` with its folder's format, the file named
/// by its name only (so a game id `FILE:LINE` reads `valid.ygn:63`).
pub fn read_fixture(folder: &str, name: &str) -> Vec<Result<GameRecord, ParseError>> {
    let (_, content) = fixture(folder, name);
    let mut reader = folder_format(folder).reader(&content, name);
    read_all(&mut reader)
}

/// Asserts that `format` refuses to write `game`: an error of kind `InvalidInput` whose message
/// holds `words`, and nothing written.
pub fn assert_refused(format: Format, game: &GameRecord, words: &str) {
    let mut out = Vec::new();
    let error = format.write_game(game, &mut out).expect_err(words);
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput, "{error}");
    assert!(error.to_string().contains(words), "{error}");
    assert!(out.is_empty(), "nothing is written");
}
