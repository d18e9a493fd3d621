//! The speed regression gate's own logic (`benches/gate.py --judge`, PERFORMANCE.md "Regression
//! gate"): given timings, it passes when every ratio is within its ceiling and fails when one is
//! above, naming it.

use crate::common::text;
use std::path::Path;
use std::process::Command;

/// The ceilings of `benches/gate_ceilings.json`, by ratio name.
fn ceilings() -> serde_json::Map<String, serde_json::Value> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::read_to_string(root.join("benches/gate_ceilings.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&file).unwrap();
    json["ceilings"].as_object().unwrap().clone()
}

/// The two timed commands of each ratio (numerator, denominator), as the gate names them.
const RATIOS: [(&str, &str, &str); 4] = [
    (
        "default_over_solitaire",
        "two_seat_default",
        "two_seat_solitaire",
    ),
    (
        "reference_over_default",
        "small_two_seat_reference",
        "small_two_seat_default",
    ),
    ("analyze_over_read", "one_seat_analyze", "one_seat_ids"),
    ("dist_over_expected", "dist_build", "expected_build"),
];

/// Judges timings whose ratios are `scale` times their ceilings (`slow` only for one ratio):
/// the gate's exit code and output.
fn judge(scale: f64, slow: Option<&str>) -> (Option<i32>, String) {
    let ceilings = ceilings();
    let mut timings = serde_json::Map::new();
    for (name, top, bottom) in RATIOS {
        let ceiling = ceilings[name].as_f64().unwrap();
        let factor = if slow.is_none_or(|s| s == name) {
            scale
        } else {
            0.5
        };
        // Three runs each, the least giving the ratio; the slower runs change nothing.
        let least = 2.0 * ceiling * factor;
        let bottom_runs = [2.5, 2.0, 9.0];
        let top_runs = [least * 1.3, least, least * 50.0];
        timings.insert(top.into(), serde_json::json!(top_runs));
        timings.insert(bottom.into(), serde_json::json!(bottom_runs));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("timings.json");
    let json = serde_json::json!({ "timings": timings });
    std::fs::write(&file, json.to_string()).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("benches/gate.py"))
        .arg("--judge")
        .arg(&file)
        .output()
        .expect("python3 runs");
    (out.status.code(), text(&out.stdout) + &text(&out.stderr))
}

#[test]
fn the_gate_passes_within_its_ceilings_and_fails_above_them() {
    let ceilings = ceilings();
    assert_eq!(ceilings.len(), RATIOS.len());
    for (name, _, _) in RATIOS {
        assert!(ceilings[name].as_f64().unwrap() > 0.0, "{name}");
    }
    let (code, out) = judge(0.9, None);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("gate: pass") && !out.contains("FAIL"), "{out}");
    for (name, _, _) in RATIOS {
        let (code, out) = judge(1.1, Some(name));
        assert_eq!(code, Some(1), "{name}: {out}");
        let line = out.lines().find(|l| l.starts_with(name)).unwrap();
        assert!(line.ends_with("FAIL"), "{line}");
        assert_eq!(out.matches("FAIL").count(), 2, "{out}");
    }
}
