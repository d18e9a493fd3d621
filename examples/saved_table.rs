//! Builds the whole `maxi-yatzy-saved` table in memory at one or more bank caps and prints the
//! empty sheet's value at bank 0 for each, with the build time: the measurement of
//! PERFORMANCE.md ("Maxi Yatzy with saved rolls"). Writes no file (`dicelens tables build
//! --rules maxi-yatzy-saved` builds and stores the exact table).
//!
//! Usage: `cargo run --release --example saved_table -- [CAP...]` (default: 38, the exact cap).

use dicelens::rules::{RuleSet, Sheet};
use dicelens::solve::saved_table::build_saved_table;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut caps = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.parse::<u8>() {
            Ok(cap) => caps.push(cap),
            Err(_) => {
                eprintln!("saved_table: expected bank caps (0 to 255), got {arg:?}");
                return ExitCode::from(2);
            }
        }
    }
    if caps.is_empty() {
        caps.push(38);
    }
    let rules = RuleSet::MaxiYatzySaved;
    let empty = Sheet::empty(rules);
    for cap in caps {
        let clock = Instant::now();
        let last = std::sync::atomic::AtomicU64::new(0);
        let progress = |done: u64, total: u64| {
            let percent = done * 100 / total.max(1);
            if last.swap(percent, std::sync::atomic::Ordering::Relaxed) != percent {
                eprintln!(
                    "cap {cap}: {percent}% ({:.0} s)",
                    clock.elapsed().as_secs_f64()
                );
            }
        };
        let table = build_saved_table(rules, cap, 0, &progress);
        let value = table.value(&empty, 0);
        println!(
            "cap {cap}: V(empty sheet, bank 0) = {}  built in {:.1} s  ({} values, {} bytes)",
            value.map_or("none".to_string(), |v| format!("{v:.7}")),
            clock.elapsed().as_secs_f64(),
            table.values().len(),
            table.values().len() * 8
        );
    }
    ExitCode::SUCCESS
}
