//! The rough edges a newcomer met (issue 32, items 3 and 5): where outputs went, messages for a
//! missing analysis directory, `convert --to auto`, an unknown player found before rating, a
//! wrong `Result` at its line, help texts that list every format and rule set, `--glob` only
//! where it helps, README's file names and examples, the place of a skipped game said once,
//! the dice page's layout, the oracle named for the games present, `--min-games 0`.

use crate::browser::{chromium, keep, require_chromium};
use crate::common::{run, run_ok, run_within, tables_dir, text, StdinFrom};
use dicelens::rules::{GameRules, RuleSet};
use dicelens_parsers::Format;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A path as an argument.
fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Simulates `games` yahtzee games of `seats` seats among 4 players into `path` (seed 5 and
/// the seat count: ids differ between seat counts).
fn simulate(path: &Path, seats: usize, games: usize) {
    let seed = (5 + seats).to_string();
    let seats = seats.to_string();
    let games = games.to_string();
    run_ok(
        &[
            "simulate",
            "--seats",
            &seats,
            "--players",
            "4",
            "--games",
            &games,
            "--seed",
            &seed,
            "--out",
            arg(path),
        ],
        2,
    );
}

/// Every command that writes files says where they went, in one wording.
#[test]
fn every_command_that_writes_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let corpus = d.join("x.ygn");
    let out = run(
        &[
            "simulate",
            "--players",
            "2",
            "--games",
            "3",
            "--out",
            arg(&corpus),
        ],
        2,
    );
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let says = |stderr: &str, what: &str, path: &Path| {
        let line = format!("dicelens: {what} written to {}", path.display());
        assert!(
            stderr.lines().any(|l| l == line),
            "no line {line:?} in:\n{stderr}"
        );
    };
    says(&stderr, "games", &corpus);
    says(&stderr, "ground truth", &d.join("x.truth.csv"));
    let cases: Vec<(Vec<String>, &str, PathBuf)> = vec![
        (
            vec![
                "analyze",
                arg(&corpus),
                "--oracle",
                "e",
                "--out",
                arg(&d.join("a")),
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            "reports",
            d.join("a"),
        ),
        (
            ["merge", arg(&d.join("a")), "--out", arg(&d.join("m"))]
                .map(String::from)
                .to_vec(),
            "reports",
            d.join("m"),
        ),
        (
            ["player", "sim01", arg(&corpus), "--oracle", "e", "--out"]
                .into_iter()
                .chain([arg(&d.join("p"))])
                .map(String::from)
                .collect(),
            "player page",
            d.join("p").join("sim01.html"),
        ),
        (
            ["convert", arg(&corpus), "--to", "jsonl", "--out"]
                .into_iter()
                .chain([arg(&d.join("x.jsonl"))])
                .map(String::from)
                .collect(),
            "converted games",
            d.join("x.jsonl"),
        ),
        (
            ["dist", "--filled", "-", "--svg", arg(&d.join("dist.svg"))]
                .map(String::from)
                .to_vec(),
            "chart",
            d.join("dist.svg"),
        ),
        (
            ["dice", arg(&corpus), "--out", arg(&d.join("dice"))]
                .map(String::from)
                .to_vec(),
            "dice page",
            d.join("dice").join("dice.html"),
        ),
        (
            [
                "validate",
                arg(&corpus),
                "--game",
                "sim1-0000001",
                "--oracle",
                "e",
                "--html",
                "--out",
            ]
            .into_iter()
            .chain([arg(&d.join("g"))])
            .map(String::from)
            .collect(),
            "game page",
            d.join("g").join("sim1-0000001.html"),
        ),
        (
            ["tables", "build", "--rules", "yahtzee-plain", "--tables"]
                .into_iter()
                .chain([arg(&d.join("t"))])
                .map(String::from)
                .collect(),
            "tables",
            d.join("t"),
        ),
    ];
    for (args, what, path) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args, 2);
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert!(path.exists(), "{args:?} wrote no {}", path.display());
        says(&stderr, what, &path);
    }
}

/// `merge` and `player --from` say that a directory does not exist, or is not an analysis,
/// rather than that its manifest is missing.
#[test]
fn a_missing_analysis_directory_is_named_for_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nodir");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = dir.path().join("out");
    for (path, says) in [
        (&missing, "nodir does not exist"),
        (&empty, "empty: not the output directory of a dicelens run"),
    ] {
        for args in [
            vec!["merge", arg(path), "--out", arg(&out)],
            vec!["player", "x", "--from", arg(path), "--out", arg(&out)],
        ] {
            let result = run(&args, 1);
            let stderr = text(&result.stderr);
            assert!(!result.status.success(), "{args:?}");
            assert!(stderr.contains(says), "{args:?}: {stderr}");
            if path == &missing {
                assert!(!stderr.contains(".dicelens-outputs"), "{args:?}: {stderr}");
            }
        }
    }
}

/// `convert --to` takes only formats games are written in: `auto` is said to be for input,
/// and an unknown name lists the written formats only.
#[test]
fn convert_to_lists_only_written_formats() {
    let written = Format::list(&Format::WRITTEN);
    for (to, says) in [
        ("auto", "auto only applies to input"),
        ("yatzy-solver", "yatzy-solver logs are read, not written"),
        ("pdf", "unknown format 'pdf'"),
    ] {
        let out = run(&["convert", "fixtures/ygn/valid.ygn", "--to", to], 1);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{to}: {stderr}");
        assert!(
            stderr.contains(&format!("dicelens: --to: {says}")),
            "{stderr}"
        );
        assert!(stderr.contains(&written), "{to}: {stderr}");
        assert!(!stderr.contains("expected auto"), "{to}: {stderr}");
        assert!(!stderr.contains("or yatzy-solver"), "{to}: {stderr}");
    }
}

/// An unknown player is refused before the corpus is rated: with an empty table directory a
/// rating would first build tables (minutes); the refusal comes at once, names the nearest
/// players, and builds nothing.
#[test]
fn an_unknown_player_is_refused_before_rating() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("x.ygn");
    simulate(&corpus, 2, 4);
    let tables = dir.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_dicelens"));
    command
        .args(["player", "sim0", arg(&corpus), "--tables", arg(&tables)])
        .args(["--out", arg(&dir.path().join("p"))]);
    let out = run_within(&mut command, StdinFrom::Nothing, Duration::from_secs(60));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no player 'sim0'; closest: sim01"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_dir(&tables).unwrap().count(),
        0,
        "a table built"
    );
}

/// A wrong `Result` is reported at the line of its tag (42), not the game's first line (36).
#[test]
fn a_wrong_result_is_reported_at_its_line() {
    let out = run(
        &[
            "validate",
            "fixtures/replay/wrong_result.ygn",
            "--game",
            "wrong_result-0000002",
            "--oracle",
            "e",
        ],
        1,
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("verdict: ILLEGAL: line 42: wrong Result"),
        "{stdout}"
    );
}

/// Every command's help names every format it reads or writes and every rule set it takes,
/// from the lists that own them.
#[test]
fn help_texts_name_every_format_and_rule_set() {
    let help = |command: &[&str]| {
        let mut args = command.to_vec();
        args.push("--help");
        run_ok(&args, 1)
    };
    for command in [
        &["analyze"][..],
        &["dice"],
        &["ids"],
        &["convert"],
        &["player"],
        &["validate"],
        &["bench", "read"],
        &["bench", "oracles"],
    ] {
        let text = help(command);
        for format in Format::ALL {
            assert!(
                text.contains(format.name()),
                "{command:?} --help lacks {format}"
            );
        }
    }
    let names = |help: &str, names: &mut dyn Iterator<Item = &'static str>, what: &str| {
        for name in names {
            assert!(help.contains(name), "{what} --help lacks {name}");
        }
    };
    names(
        &help(&["eval"]),
        &mut GameRules::all().map(GameRules::name),
        "eval",
    );
    names(
        &help(&["simulate"]),
        &mut GameRules::all().map(GameRules::name),
        "simulate",
    );
    names(
        &help(&["dist"]),
        &mut RuleSet::ALL.into_iter().map(RuleSet::name),
        "dist",
    );
    for command in [&["simulate"][..], &["convert"]] {
        let text = help(command);
        names(
            &text,
            &mut Format::WRITTEN.into_iter().map(Format::name),
            command[0],
        );
    }
    // `--glob` picks files in directories: not offered for validate's one file.
    assert!(!help(&["validate"]).contains("--glob"));
    assert!(help(&["analyze"]).contains("--glob"));
}

/// The game page's name README gives is the one `validate --html` writes: `<game id>.html`
/// for an id of letters, digits, `-` and `_`.
#[test]
fn readme_names_game_pages_as_written() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    assert!(
        !readme.contains("<hash>.html"),
        "README names <id>-<hash>.html"
    );
    assert!(readme.contains("`DIR/<game id>.html`"));
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("x.ygn");
    simulate(&corpus, 1, 2);
    let pages = dir.path().join("games");
    run_ok(
        &[
            "validate",
            arg(&corpus),
            "--game",
            "sim6-0000002",
            "--oracle",
            "e",
            "--html",
            "--out",
            arg(&pages),
        ],
        1,
    );
    let names: Vec<String> = std::fs::read_dir(&pages)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["sim6-0000002.html"]);
}

/// The examples of README.md: each `$ dicelens ...` command (continued over lines ending in
/// `\`) and the lines shown after it, up to the next command or the end of its block.
fn readme_examples() -> Vec<(String, Vec<String>)> {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let mut examples: Vec<(String, Vec<String>)> = Vec::new();
    let mut in_block = false;
    // Whether the block holds an example (lines of other blocks are no example's output).
    let mut in_example = false;
    let mut continued = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            in_example = false;
            continue;
        }
        if !in_block {
            continue;
        }
        if continued {
            let (command, _) = examples.last_mut().unwrap();
            command.push(' ');
            command.push_str(line.trim().trim_end_matches('\\'));
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ dicelens ") {
            examples.push((command.trim_end_matches('\\').to_string(), Vec::new()));
            continued = line.ends_with('\\');
            in_example = true;
        } else if let (true, Some((_, shown))) = (in_example, examples.last_mut()) {
            shown.push(line.to_string());
        }
    }
    examples
}

/// README's example commands print the lines README shows (`...` stands for lines left out,
/// and a shown line that holds `...` is cut short): run on the suite's tables, so the examples
/// cannot drift from the tool.
#[test]
fn readme_examples_print_what_readme_shows() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    std::os::unix::fs::symlink(&fixtures, dir.path().join("fixtures")).unwrap();
    let examples = readme_examples();
    let evals = examples
        .iter()
        .filter(|(c, _)| c.starts_with("eval "))
        .count();
    assert!(evals >= 3, "README's eval examples: {evals}");
    // The commands run as README shows them, by the shell (globs, quotes), with this build
    // first on the PATH.
    let binary = Path::new(env!("CARGO_BIN_EXE_dicelens"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (command, shown) in &examples {
        let out = Command::new("sh")
            .args(["-c", &format!("dicelens {command}")])
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("DICELENS_TABLES", tables_dir())
            .env("RAYON_NUM_THREADS", "2")
            .output()
            .unwrap();
        let printed = format!("{}{}", text(&out.stdout), text(&out.stderr));
        let lines: Vec<&str> = printed.lines().map(str::trim_end).collect();
        for line in shown {
            if line.contains("...") || line.trim().is_empty() {
                continue;
            }
            assert!(
                lines.contains(&line.trim_end()),
                "`dicelens {command}` does not print README's line\n{line}\nit prints:\n{printed}"
            );
        }
    }
}

/// The summary of skipped games names each first place once: a syntax error's
/// `FILE:LINE:COLUMN` as it stands, a broken rule's `FILE:LINE` without `line LINE` again.
#[test]
fn skipped_games_are_placed_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        &[
            "analyze",
            "fixtures/ygn/bad_die.ygn",
            "fixtures/replay/box_twice.ygn",
            "--oracle",
            "e",
            "--out",
            arg(dir.path()),
        ],
        1,
    );
    let stderr = text(&out.stderr);
    let syntax = stderr
        .lines()
        .find(|l| l.contains("syntax error (first: "))
        .unwrap_or_else(|| panic!("no syntax error line: {stderr}"));
    assert_eq!(syntax.matches("bad_die.ygn:30").count(), 1, "{syntax}");
    assert!(
        syntax.contains("(first: fixtures/ygn/bad_die.ygn:30:11: game"),
        "{syntax}"
    );
    let twice = stderr
        .lines()
        .find(|l| l.contains("box filled twice (first: "))
        .unwrap_or_else(|| panic!("no box filled twice line: {stderr}"));
    assert!(
        twice.contains("(first: fixtures/replay/box_twice.ygn:45, round 2, sim01: box"),
        "{twice}"
    );
    assert!(!twice.contains("line 45"), "{twice}");
}

/// Measures a page in Chromium: the script at the end of its body writes what it found into a
/// `<pre id="measured">`, one `name value` per line, read back from the DOM.
fn measure(page: &Path, script: &str) -> Vec<(String, f64)> {
    let html = std::fs::read_to_string(page).unwrap();
    let measured = page.with_extension("measured.html");
    let script = format!(
        "<script>(() => {{ const r = []; {script}; const pre = document.createElement('pre'); \
         pre.id = 'measured'; pre.textContent = r.join('\\n'); \
         document.body.appendChild(pre); }})();</script></body>"
    );
    std::fs::write(&measured, html.replace("</body>", &script)).unwrap();
    let dom = String::from_utf8(chromium(&measured, &["--dump-dom".to_string()])).unwrap();
    let start = dom.find("<pre id=\"measured\">").expect("the script ran") + 19;
    let end = start + dom[start..].find("</pre>").unwrap();
    dom[start..end]
        .lines()
        .map(|line| {
            let (name, value) = line.rsplit_once(' ').unwrap();
            (name.to_string(), value.parse().unwrap())
        })
        .collect()
}

/// dice.html fits the window: the groups table fits its section (nothing to scroll), and no
/// chart's y-axis title overlaps its tick labels, also with counts of six digits.
#[test]
fn the_dice_page_fits_and_its_axis_titles_clear_their_labels() {
    require_chromium();
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("x.ygn");
    // Enough games for six-digit face counts in the group of all.
    simulate(&corpus, 2, 3000);
    for by in ["all", "player"] {
        let out = dir.path().join(by);
        run_ok(&["dice", arg(&corpus), "--by", by, "--out", arg(&out)], 2);
        let page = out.join("dice.html");
        keep(
            "rough_edges",
            &format!("dice-{by}.html"),
            &std::fs::read(&page).unwrap(),
        );
        let measured = measure(
            &page,
            "r.push('window ' + window.innerWidth); \
             r.push('page ' + document.documentElement.scrollWidth); \
             document.querySelectorAll('.table-wrap').forEach((w, i) => { \
               r.push('wrap-' + i + ' ' + w.clientWidth); \
               r.push('table-' + i + ' ' + w.scrollWidth); }); \
             document.querySelectorAll('svg.chart').forEach(svg => { \
               const title = svg.querySelector('.y-axis .axis-title'); if (!title) return; \
               let left = 1e9; svg.querySelectorAll('.y-axis text:not(.axis-title)') \
                 .forEach(t => { left = Math.min(left, t.getBoundingClientRect().left); }); \
               r.push(svg.id + '-title-right ' + title.getBoundingClientRect().right); \
               r.push(svg.id + '-labels-left ' + left); })",
        );
        let get = |name: &str| {
            measured
                .iter()
                .find(|(n, _)| n == name)
                .unwrap_or_else(|| panic!("{by}: nothing measured as {name}: {measured:?}"))
                .1
        };
        assert!(get("page") <= get("window"), "{by}: {measured:?}");
        assert!(
            get("table-0") <= get("wrap-0"),
            "{by}: the table is cut: {measured:?}"
        );
        let charts: Vec<&str> = measured
            .iter()
            .filter_map(|(n, _)| n.strip_suffix("-title-right"))
            .collect();
        assert!(charts.len() >= 2, "{by}: {measured:?}");
        for chart in charts {
            let right = get(&format!("{chart}-title-right"));
            let left = get(&format!("{chart}-labels-left"));
            assert!(
                right < left,
                "{by}: {chart}'s axis title overlaps its labels"
            );
        }
    }
}

/// The oracle line names only the parts the corpus has: one-player games, games of several
/// players; the whole sentence when both are there.
#[test]
fn the_oracle_is_named_for_the_games_present() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.ygn");
    let two = dir.path().join("two.ygn");
    simulate(&one, 1, 3);
    simulate(&two, 2, 3);
    let oracle = |files: &[&Path]| {
        let mut args = vec!["analyze"];
        args.extend(files.iter().map(|f| arg(f)));
        let out = dir.path().join("out");
        args.extend(["--min-games", "1", "--out", arg(&out)]);
        let stdout = run_ok(&args, 2);
        stdout.lines().next().unwrap().to_string()
    };
    let solitaire = "solitaire expected score (optimal expected final points) in one-player games";
    let match_points = "expected match points in games of several players (emp:1)";
    assert_eq!(oracle(&[&one]), format!("oracle: {solitaire}"));
    assert_eq!(oracle(&[&two]), format!("oracle: {match_points}"));
    assert_eq!(
        oracle(&[&one, &two]),
        format!("oracle: {match_points}; {solitaire}")
    );
}

/// `--min-games` is at least 1.
#[test]
fn min_games_zero_is_refused() {
    for command in ["analyze", "player"] {
        let args = match command {
            "analyze" => vec!["analyze", "fixtures/ygn/valid.ygn", "--min-games", "0"],
            _ => vec!["player", "x", "fixtures/ygn/valid.ygn", "--min-games", "0"],
        };
        let out = run(&args, 1);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(
            stderr
                .contains("dicelens: --min-games: expected a number of games of at least 1, got 0"),
            "{command}: {stderr}"
        );
    }
    let out = run(&["merge", "x", "--out", "y", "--min-games", "0"], 1);
    assert_eq!(out.status.code(), Some(2));
}
