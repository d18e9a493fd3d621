use crate::common::{fixture_files, read_fixture};

#[test]
#[ignore]
fn dump() {
    for name in fixture_files("yatzy-solver") {
        for (i, outcome) in read_fixture("yatzy-solver", &name).iter().enumerate() {
            match outcome {
                Ok(g) => {
                    let rounds: Vec<String> = g.turns.iter().map(|t| t.round.to_string()).collect();
                    println!(
                        "{name},{},game,{},{},,,{},{},{},normal,,",
                        i + 1,
                        g.provenance.game_id,
                        g.provenance.line,
                        g.rules,
                        g.players.join(" "),
                        rounds.join(" ")
                    );
                }
                Err(e) => println!(
                    "{name},{},error,{},{},{},{},,,,,{},{}",
                    i + 1,
                    e.game_id.clone().unwrap_or_default(),
                    e.line,
                    e.column,
                    e.game_line,
                    q(&e.expected),
                    q(&e.found)
                ),
            }
        }
        println!(
            "{name},{},end,,,,,,,,,,",
            read_fixture("yatzy-solver", &name).len() + 1
        );
    }
}

fn q(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
