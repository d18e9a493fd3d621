//! `dicelens dice` and `simulate --loaded`: fair simulated corpora are flagged about as often as
//! the level says, a loaded die is flagged, the outputs are consistent, bad games are counted,
//! and the page renders with its charts.

use crate::browser::{chromium, keep, png_size, require_chromium, svg_element, WINDOW};
use crate::common::{run, run_ok, table, text};
use dicelens::fairness::{assess, Adjust, FairnessCounts, GroupBy, DEFAULT_LEVEL};
use dicelens::replay::Replayed;
use dicelens::rules::RuleSet;
use dicelens::simulate::{players, simulate_batch, DiceLaw, Plan};
use std::path::Path;

/// The bounds of a central binomial interval of `n` trials of probability `p` holding at
/// least 99.9% of the mass (0.05% in each tail, computed exactly).
fn binomial_bounds(n: u64, p: f64) -> (u64, u64) {
    let mut pmf = vec![0.0f64; n as usize + 1];
    let ln = |k: u64| -> f64 {
        (1..=k).map(|i| (i as f64).ln()).sum::<f64>() // ln k!
    };
    let ln_n = ln(n);
    for (k, slot) in pmf.iter_mut().enumerate() {
        let k = k as u64;
        *slot =
            (ln_n - ln(k) - ln(n - k) + k as f64 * p.ln() + (n - k) as f64 * (1.0 - p).ln()).exp();
    }
    let mut low = 0;
    let mut mass = 0.0;
    while mass + pmf[low] < 0.0005 {
        mass += pmf[low];
        low += 1;
    }
    let mut high = n as usize;
    let mut mass = 0.0;
    while mass + pmf[high] < 0.0005 {
        mass += pmf[high];
        high -= 1;
    }
    (low as u64, high as u64)
}

/// Counts of `games` simulated one-seat yahtzee games of seed `seed`, counted in-process (the
/// simulator's own decisions are the replay).
fn simulated_counts(seed: u64, games: usize, dice: DiceLaw) -> FairnessCounts {
    let plan = Plan {
        seats: 1,
        players: 3,
        games,
        seed,
        dice,
        ..Plan::default()
    };
    let mut counts = FairnessCounts::default();
    for game in simulate_batch(table(RuleSet::Yahtzee), &plan, &players(&plan), 0..games) {
        let replayed = Replayed {
            rules: Some(RuleSet::Yahtzee.into()),
            seats: 1,
            decisions: game.decisions,
            ..Replayed::default()
        };
        counts.add_game(GroupBy::All, &game.record, &replayed);
    }
    counts
}

/// Over many fair corpora the share flagged at p < 0.01 lies within the binomial bounds of
/// 1%, and the p-values of the continuous tests are about uniform (share below 0.5).
#[test]
fn fair_corpora_are_flagged_about_as_often_as_the_level_says() {
    const CORPORA: u64 = 600;
    let mut flagged = 0;
    let mut below_half = [0u64; 3];
    let mut below_tenth = [0u64; 3];
    let mut flagged_by_test = [0u64; 4];
    for seed in 0..CORPORA {
        let counts = simulated_counts(1_000 + seed, 16, DiceLaw::Fair);
        let group = &assess(&counts, Adjust::Holm, DEFAULT_LEVEL)[0];
        assert_eq!(group.tests, 4, "every test has data");
        flagged += u64::from(group.p_value < 0.01);
        let p = [
            group.faces.p_value,
            group.sums.p_value,
            group.serial.p_value,
            group.five_of_a_kind.p_value,
        ];
        for (count, p) in below_half.iter_mut().zip(p) {
            *count += u64::from(p < 0.5);
        }
        for (count, p) in below_tenth.iter_mut().zip(p) {
            *count += u64::from(p < 0.1);
        }
        for (count, p) in flagged_by_test.iter_mut().zip(p) {
            *count += u64::from(p < 0.01);
        }
    }
    let (low, high) = binomial_bounds(CORPORA, 0.01);
    assert!(
        flagged <= high,
        "{flagged} of {CORPORA} fair corpora flagged (bounds {low}..={high})"
    );
    // Bonferroni over four tests is conservative: the low bound is that of 1% / 4.
    let (low_quarter, _) = binomial_bounds(CORPORA, 0.0025);
    assert!(flagged >= low_quarter, "{flagged} flagged");
    let (low, high) = binomial_bounds(CORPORA, 0.5);
    for (name, count) in ["faces", "sums", "serial"].iter().zip(below_half) {
        assert!(
            (low..=high).contains(&count),
            "{name}: {count} of {CORPORA} p-values below 0.5 (bounds {low}..={high})"
        );
    }
    // Each continuous test is calibrated in its tail too, from both sides (at 1% the lower
    // bound of 600 trials would be 0, so the tail is checked at 10%).
    let (low, high) = binomial_bounds(CORPORA, 0.1);
    for (name, count) in ["faces", "sums", "serial"].iter().zip(below_tenth) {
        assert!(
            (low..=high).contains(&count),
            "{name}: {count} of {CORPORA} p-values below 0.1 (bounds {low}..={high})"
        );
    }
    let (_, high) = binomial_bounds(CORPORA, 0.01);
    for (name, count) in ["faces", "sums", "serial", "five of a kind"]
        .iter()
        .zip(flagged_by_test)
    {
        assert!(count <= high, "{name}: {count} p-values below 0.01");
    }
}

/// Runs `dicelens dice ARGS --json` and parses its groups.
fn dice_json(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all: Vec<&str> = vec!["dice", "--json"];
    all.extend_from_slice(args);
    serde_json::from_str(&run_ok(&all, 2)).expect("dice --json prints JSON")
}

/// Simulates `games` one-seat games of `seed` into `path` (`loaded`: `--loaded` value).
fn simulate(path: &Path, games: usize, seed: u64, loaded: Option<&str>) {
    let games = games.to_string();
    let seed = seed.to_string();
    let path = path.to_str().unwrap();
    let mut args = vec![
        "simulate", "--games", &games, "--seats", "1", "--seed", &seed, "--out", path,
    ];
    if let Some(loaded) = loaded {
        args.extend(["--loaded", loaded]);
    }
    run_ok(&args, 2);
}

/// A die loaded at P(6) = 0.2 on 2,000 one-seat games is flagged; the same seed fair is not.
#[test]
fn a_loaded_die_is_flagged_and_the_same_seed_fair_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let (loaded, fair) = (dir.path().join("loaded.ygn"), dir.path().join("fair.ygn"));
    simulate(&loaded, 2000, 15, Some("6:0.2"));
    simulate(&fair, 2000, 15, None);
    let loaded_groups = dice_json(&[loaded.to_str().unwrap()]);
    let fair_groups = dice_json(&[fair.to_str().unwrap()]);
    assert_eq!(loaded_groups[0]["verdict"], "unfair", "{loaded_groups:?}");
    assert_eq!(fair_groups[0]["verdict"], "fair", "{fair_groups:?}");
    assert_eq!(loaded_groups[0]["games"], 2000);
    // Sixes are about 0.2 of the fresh dice.
    let faces = &loaded_groups[0]["faces"];
    let fresh = loaded_groups[0]["fresh_dice"].as_f64().unwrap();
    let share = faces[5].as_f64().unwrap() / fresh;
    assert!((share - 0.2).abs() < 0.01, "{share}");
    // A probability outside (0, 1) or a face outside 1..6 is a usage error.
    for bad in ["6:1", "6:0", "0:0.2", "7:0.2", "6:x", "6"] {
        let out = run(&["simulate", "--loaded", bad, "--out", "unused.ygn"], 1);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(text(&out.stderr).contains("--loaded"), "{bad}");
    }
}

/// JSON and CSV carry every field, agree with each other, and p_adjusted >= p_value with the
/// verdict following the level.
#[test]
fn json_and_csv_agree_and_follow_the_level() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<_> = (0..3)
        .map(|i| {
            let path = dir.path().join(format!("c{i}.ygn"));
            let loaded = (i == 2).then_some("1:0.22");
            simulate(&path, 150, 40 + i, loaded);
            path.to_str().unwrap().to_string()
        })
        .collect();
    let mut args: Vec<&str> = files.iter().map(String::as_str).collect();
    args.extend(["--by", "file", "--adjust", "bh", "--level", "0.05"]);
    let groups = dice_json(&args);
    assert_eq!(groups.len(), 3);
    for (group, file) in groups.iter().zip(&files) {
        assert_eq!(group["group"].as_str(), Some(file.as_str()));
        for field in [
            "fresh_dice",
            "chi2",
            "p_value",
            "p_adjusted",
            "verdict",
            "faces",
            "sums",
            "five_of_a_kind",
            "serial",
        ] {
            assert!(!group[field].is_null(), "{field} missing: {group}");
        }
        let (p, adjusted) = (
            group["p_value"].as_f64().unwrap(),
            group["p_adjusted"].as_f64().unwrap(),
        );
        assert!(adjusted >= p && adjusted <= 1.0);
        let want = if adjusted < 0.05 { "unfair" } else { "fair" };
        assert_eq!(group["verdict"], want);
        let faces: u64 = group["faces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_u64().unwrap())
            .sum();
        assert_eq!(group["fresh_dice"].as_u64(), Some(faces));
    }
    assert_eq!(groups[2]["verdict"], "unfair");
    let mut csv_args = vec!["dice", "--csv"];
    csv_args.extend_from_slice(&args);
    let csv = run_ok(&csv_args, 2);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for (line, group) in lines.zip(&groups) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), header.len());
        assert_eq!(cells[column("group")], group["group"].as_str().unwrap());
        assert_eq!(cells[column("verdict")], group["verdict"].as_str().unwrap());
        assert_eq!(
            cells[column("fresh_dice")].parse::<u64>().ok(),
            group["fresh_dice"].as_u64()
        );
        // serde_json reads floats to within an ulp or so.
        let p: f64 = cells[column("p_adjusted")].parse().unwrap();
        let json_p = group["p_adjusted"].as_f64().unwrap();
        assert!((p - json_p).abs() <= 1e-12 * p.abs(), "{p} {json_p}");
    }
}

/// Bad games are skipped and counted by reason on stderr, as every command counts them; no
/// usable game is a failure (exit code 1), a bad level a usage error (2).
#[test]
fn malformed_games_are_counted_by_reason() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.ygn");
    let good = "[Game \"ok\"]\n[Rules \"yahtzee\"]\n[Players \"a\"]\n\
                [Termination \"abandoned\"]\n\n1. a: 12345 k12 11256 k112 11126 1=3\n\n";
    let broken = "[Game \"broken\"]\n[Rules \"yahtzee\"]\n[Players \"a\"]\n\
                  [Termination \"abandoned\"]\n\n1. a: 12345 k66 11256 1=2\n\n";
    let garbled = "[Game \"garbled\"]\n[Rules \"yahtzee\"]\n[Players \"a\"]\n\n1. a: 1234x\n\n";
    std::fs::write(&path, format!("{good}{broken}{garbled}")).unwrap();
    let file = path.to_str().unwrap();
    let out = run(&["dice", file, "--include-unfinished", "--json"], 1);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("3 games read, 1 used, 2 skipped"),
        "{stderr}"
    );
    assert!(stderr.contains("syntax error"), "{stderr}");
    let groups: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(groups[0]["fresh_dice"], 10);
    // Without --include-unfinished the one good game is unfinished: nothing is counted.
    let out = run(&["dice", file], 1);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no game counted"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["dice", file, "--level", "1.5"], 1);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--level"));
    let out = run(&["dice", file, "--by", "planet"], 1);
    assert_eq!(out.status.code(), Some(2));
}

/// The page renders in headless Chromium: two charts per group with their ids, six face bars
/// each, a legend, and nothing drawn outside the window's width.
#[test]
fn dice_page_renders_with_its_charts() {
    require_chromium();
    let dir = tempfile::tempdir().unwrap();
    let (loaded, fair) = (dir.path().join("loaded.ygn"), dir.path().join("fair.ygn"));
    simulate(&loaded, 300, 7, Some("3:0.25"));
    simulate(&fair, 300, 8, None);
    let out = dir.path().join("out");
    run_ok(
        &[
            "dice",
            loaded.to_str().unwrap(),
            fair.to_str().unwrap(),
            "--by",
            "file",
            "--out",
            out.to_str().unwrap(),
        ],
        2,
    );
    for name in ["dice.html", "dice.csv", "dice.json"] {
        assert!(out.join(name).is_file(), "{name}");
    }
    let page = out.join("dice.html");
    let html = std::fs::read(&page).unwrap();
    keep("dice", "dice.html", &html);
    let png = dir.path().join("dice.png");
    chromium(&page, &[format!("--screenshot={}", png.display())]);
    let png_bytes = std::fs::read(&png).unwrap();
    assert_eq!(png_size(&png_bytes), WINDOW);
    keep("dice", "dice.png", &png_bytes);
    let dom = String::from_utf8(chromium(&page, &["--dump-dom".to_string()])).unwrap();
    for group in 0..2 {
        let faces = svg_element(&dom, &format!("faces-{group}"));
        assert_eq!(faces.matches("class=\"bar\"").count(), 6, "faces-{group}");
        assert!(faces.contains("<title"), "faces-{group} has a title");
        assert!(
            faces.contains("class=\"legend\""),
            "faces-{group} has a legend"
        );
        let sums = svg_element(&dom, &format!("sums-{group}"));
        assert_eq!(sums.matches("class=\"sum-bar\"").count(), 26, "sums 5..=30");
        assert!(sums.contains("class=\"legend\""));
    }
    // The loaded file is flagged, in the table and in its section.
    assert!(dom.contains("unlikely under fair dice"));
    assert!(dom.contains("consistent with fair dice"));
}
