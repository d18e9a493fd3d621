//! The engine-assistance screening and the luck-adjusted results as the outputs show them:
//! `screening.csv`, a section of `report.html` per part, two sections of the player page
//! (results and luck, screening), and their JSON. The numbers come from
//! [`crate::screening::screen_part`] and [`crate::aggregate::PlayerStats`].

use super::page::game_file_name;
use super::svg::{escape, fixed};
use crate::aggregate::{PartKey, PlayerStats, Stretch, MIN_STRETCH};
use crate::rate::Unit;
use crate::screening::{
    Comparison, NearTotal, Screened, SolitaireScreened, FLAG_Z, MIN_PEERS, MIN_UNFORCED,
    NEAR_TOTAL_AGREEMENT, PEERS,
};
use crate::store::games::csv_field;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// What the screening is and is not, said wherever it is shown.
pub const NOT_A_VERDICT: &str = "This is a screening, never a verdict: a flag says only that a \
     player's choices agree with the oracle's unusually often for their strength. Strong honest \
     players are flagged sometimes, and a player who consults a solver only now and then may \
     never be.";

/// How often simulated players are flagged at the threshold, as measured (docs/methods.md,
/// "Screening"; PERFORMANCE.md gives the command).
pub const MEASURED: &str = "Measured on simulated corpora (dicelens simulate, 40 players of \
     temperatures 0 and 0.02 to 8 points, 4,000 games each): of the simulated human players \
     (temperature above 0), none was flagged by either engine, 0 of 390 in 10 one-player \
     corpora and 0 of 195 in 5 two-player corpora rated in match points (the highest human \
     agreement with an engine was 99.8%); the perfect player (temperature 0, who plays as a \
     public solver does) agreed with the solitaire oracle on every decision and was flagged and \
     listed first in all 15, by the solitaire oracle in the two-player corpora, where its \
     agreement with the match-point oracle was 90-92% and its z-scores near 1. The test suite \
     fails if more than 2% of simulated humans are flagged.";

/// How a player is flagged, in a sentence.
fn threshold_text() -> String {
    format!(
        "Players with at least {MIN_UNFORCED} non-forced decisions are compared with the \
         {PEERS} players nearest to them in error per non-forced decision (players of similar \
         strength; at least {MIN_PEERS} needed): the z-score is how many standard deviations \
         their agreement lies above those players' mean, and a player is flagged from z = \
         {FLAG_Z:.1}. A choice agrees when it is a best option (within 1e-6 of the best value)."
    )
}

/// What near-total agreement is, in a sentence.
fn near_total_text() -> String {
    format!(
        "A player whose agreement with an engine (the analysis's oracle, or in games of \
         several players the solitaire oracle that public solvers play) is near total, at \
         least {}% of at least {MIN_UNFORCED} non-forced decisions, is flagged by that engine \
         and listed first.",
        fixed(100.0 * NEAR_TOTAL_AGREEMENT, 1)
    )
}

/// Header of `screening.csv` (documented in docs/formats/analysis.md).
pub const SCREENING_COLUMNS: &str = "unit,rounds,player,unforced,agreed,agreement,\
error_per_decision,peers,peer_agreement,peer_sd,z,percentile,error_percentile,flagged,\
stretch_decisions,stretch_games,stretch_error,stretch_first_game,stretch_last_game,\
solitaire_unforced,solitaire_agreed,solitaire_agreement,solitaire_error_per_decision,\
solitaire_peers,solitaire_peer_agreement,solitaire_peer_sd,solitaire_z,solitaire_percentile,\
solitaire_flagged,solitaire_stretch_decisions,solitaire_stretch_games,solitaire_stretch_error,\
solitaire_stretch_first_game,solitaire_stretch_last_game,near_total";

/// A number with `d` decimals, empty for `None`.
fn optional(v: Option<f64>, d: usize) -> String {
    v.map_or(String::new(), |v| format!("{v:.d$}"))
}

/// The five CSV fields of a stretch (decisions, games, total error, first and last game),
/// empty without one.
fn stretch_fields(stretch: Option<&&Stretch>) -> String {
    stretch.map_or(",,,,".to_string(), |s| {
        format!(
            "{},{},{:.9},{},{}",
            s.decisions,
            s.games,
            s.total_error(),
            csv_field(&s.first_game),
            csv_field(&s.last_game)
        )
    })
}

/// The solitaire oracle's CSV fields of a screened player (empty without them).
fn solitaire_fields(s: Option<&SolitaireScreened>) -> String {
    match s {
        None => format!("{},{}", ",".repeat(9), stretch_fields(None)),
        Some(s) => format!(
            "{},{},{:.6},{:.9},{},{},{}",
            s.unforced,
            s.agreed,
            s.agreement,
            s.error_per_decision,
            comparison_fields(&s.compared),
            s.flagged,
            stretch_fields(s.stretches.first())
        ),
    }
}

/// The five CSV fields of a comparison with peers: peers, their mean agreement and its
/// standard deviation, z, percentile.
fn comparison_fields(c: &Comparison) -> String {
    format!(
        "{},{:.6},{:.6},{},{}",
        c.peers,
        c.mean,
        c.sd,
        optional(c.z, 3),
        optional(c.percentile, 1)
    )
}

/// The engines a player's agreement with is near total, by name (`oracle;solitaire`).
fn near_total_names(near: &[NearTotal]) -> String {
    let names: Vec<&str> = near.iter().map(|n| n.engine.name()).collect();
    names.join(";")
}

/// `screening.csv`: every screened player of each part, in the screening's order (the longest
/// near-perfect stretch after the oracle's columns, then the solitaire oracle's columns, empty
/// where there are none).
pub fn screening_csv(rows: &[Screened]) -> String {
    let mut out = format!("{SCREENING_COLUMNS}\n");
    for r in rows {
        let stretch = stretch_fields(r.stretches.first());
        let _ = writeln!(
            out,
            "{},{},{},{},{},{:.6},{:.9},{},{:.1},{},{stretch},{},{}",
            r.key.unit.key(),
            r.key.rounds,
            csv_field(r.name),
            r.unforced,
            r.stats.all.agreed,
            r.agreement,
            r.error_per_decision,
            comparison_fields(&r.compared()),
            r.error_percentile,
            r.flagged,
            solitaire_fields(r.solitaire.as_ref()),
            csv_field(&near_total_names(&r.near_total))
        );
    }
    out
}

/// A percentage with one decimal (`97.5%`).
fn percent(share: f64) -> String {
    format!("{}%", fixed(100.0 * share, 1))
}

/// A game id, linked to its page in `../games/` when `games` has it.
fn game_link(id: &str, games: Option<&BTreeSet<String>>) -> String {
    match games {
        Some(pages) if pages.contains(id) => format!(
            "<a href=\"../games/{}\">{}</a>",
            escape(&game_file_name(id)),
            escape(id)
        ),
        _ => escape(id),
    }
}

/// A stretch in words with its evidence: decisions, games, error, first and last game.
fn stretch_html(s: &Stretch, unit: Unit, games: Option<&BTreeSet<String>>) -> String {
    let span = if s.games == 1 {
        format!("game {}", game_link(&s.first_game, games))
    } else {
        format!(
            "{} games, {} to {}",
            s.games,
            game_link(&s.first_game, games),
            game_link(&s.last_game, games)
        )
    };
    format!(
        "{} non-forced decisions in a row, total error {} {}: {span}",
        s.decisions,
        fixed(s.total_error(), 4),
        unit.short()
    )
}

/// The screening section of one part of `report.html`: the screened players, highest z-score
/// first, each linked to their page (`pages`), with the flag. The near-perfect stretches are
/// on the player pages and in `screening.csv`, not here: a merge that subtracts duplicate
/// games does not correct them, and the report stays the same bytes as one analysis's.
pub fn report_section(
    out: &mut String,
    key: PartKey,
    rows: &[Screened],
    pages: &BTreeMap<(PartKey, String), String>,
) {
    let id = key.id();
    let unit = key.unit;
    let flagged = rows.iter().filter(|r| !r.flagged_by().is_empty()).count();
    let _ = writeln!(
        out,
        "<section id=\"screening-{id}\" class=\"screening\">\n<h2>Engine-assistance \
         screening ({})</h2>\n<p class=\"note\"><strong>{}</strong></p>\n<p class=\"note\">{} \
         {} {}</p>\n<p class=\"note\">{} of {} screened player{} flagged. Each player's page (a \
         name here) and screening.csv list the player's longest near-perfect stretches: runs of \
         at least {MIN_STRETCH} non-forced decisions each with an error below the doubtful \
         threshold, across the player's games in corpus order, with their games.</p>",
        unit.short(),
        escape(NOT_A_VERDICT),
        escape(&threshold_text()),
        escape(&near_total_text()),
        escape(MEASURED),
        flagged,
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    );
    let near: Vec<&Screened> = rows.iter().filter(|r| !r.near_total.is_empty()).collect();
    if !near.is_empty() {
        out.push_str(
            "<p class=\"note\">Agreement near total (listed first; the evidence, their \
             longest near-perfect stretches with the games, on their pages):</p>\n<ul \
             class=\"near-total\">\n",
        );
        for r in near {
            let evidence: Vec<String> = r.near_total.iter().map(near_total_words).collect();
            let _ = writeln!(
                out,
                "<li><strong>{}</strong>: {}</li>",
                escape(r.name),
                escape(&evidence.join("; "))
            );
        }
        out.push_str("</ul>\n");
    }
    if rows.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"empty\">No player has {MIN_UNFORCED} non-forced decisions: nobody is \
             screened.</p>\n</section>"
        );
        return;
    }
    let u = unit.short();
    let _ = writeln!(
        out,
        "<div class=\"board-wrap\">\n<table id=\"screening-table-{id}\" class=\"board\">\n\
         <thead><tr><th>player</th><th class=\"num\">non-forced<br>decisions</th>\
         <th class=\"num\">agreement<br>(%)</th><th class=\"num\">error/decision<br>({u})\
         </th><th class=\"num\">peers</th><th class=\"num\">peers' agreement<br>(mean, %)\
         </th><th class=\"num\">peers' sd<br>(%)</th><th class=\"num\">z</th>\
         <th class=\"num\">percentile<br>(among peers)</th>{}<th>flag</th></tr></thead>\n<tbody>",
        if unit == Unit::MatchPoints {
            "<th class=\"num\">solitaire<br>agreement (%)</th><th class=\"num\">solitaire<br>\
             peers' agreement (%)</th><th class=\"num\">solitaire<br>z</th>"
        } else {
            ""
        }
    );
    for r in rows {
        let name = match pages.get(&(key, r.name.to_string())) {
            Some(page) => format!("<a href=\"{}\">{}</a>", escape(page), escape(r.name)),
            None => escape(r.name),
        };
        let _ = writeln!(
            out,
            "<tr{}><td>{name}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             {}<td>{}</td></tr>",
            if !r.flagged_by().is_empty() {
                " class=\"flagged\" style=\"background: #fff3d6; font-weight: 600\""
            } else {
                ""
            },
            r.unforced,
            fixed(100.0 * r.agreement, 2),
            fixed(r.error_per_decision, 6),
            r.peers,
            fixed(100.0 * r.peer_agreement, 2),
            fixed(100.0 * r.peer_sd, 2),
            r.z.map_or("-".to_string(), |z| fixed(z, 2)),
            r.percentile.map_or("-".to_string(), |p| fixed(p, 1)),
            solitaire_cells(unit, r.solitaire.as_ref()),
            flag_words(r),
        );
    }
    out.push_str("</tbody>\n</table>\n</div>\n</section>\n");
}

/// The solitaire oracle's cells of a row of the report's table (none outside match points).
fn solitaire_cells(unit: Unit, s: Option<&SolitaireScreened>) -> String {
    if unit != Unit::MatchPoints {
        return String::new();
    }
    let cell = |text: String| format!("<td class=\"num\">{text}</td>");
    match s {
        None => cell("-".into()).repeat(3),
        Some(s) => [
            fixed(100.0 * s.agreement, 2),
            fixed(100.0 * s.compared.mean, 2),
            s.compared.z.map_or("-".to_string(), |z| fixed(z, 2)),
        ]
        .into_iter()
        .map(cell)
        .collect(),
    }
}

/// The flag of a row: the engines that flagged the player (`flagged (solitaire)`), and near
/// total agreement.
fn flag_words(r: &Screened) -> String {
    let mut words = Vec::new();
    let by: Vec<&str> = r.flagged_by().iter().map(|e| e.name()).collect();
    if !by.is_empty() {
        words.push(format!("flagged ({})", by.join(", ")));
    }
    if !r.near_total.is_empty() {
        words.push(format!(
            "near total ({})",
            near_total_names(&r.near_total).replace(';', ", ")
        ));
    }
    words.join("; ")
}

/// Near-total agreement with one engine in words: the engine, the agreement and its decisions
/// (the stretch, which a merge that subtracts duplicates does not correct, is on the player's
/// page).
fn near_total_words(n: &NearTotal) -> String {
    format!(
        "{} of {} non-forced decisions agree with {}",
        percent(n.agreement),
        n.unforced,
        n.engine.words()
    )
}

/// A list of facts (name and value; the name escaped, the value written as it is).
fn facts_list(out: &mut String, facts: &[(String, String)]) {
    out.push_str("<dl class=\"facts\">\n");
    for (k, v) in facts {
        let _ = writeln!(out, "<div><dt>{}</dt><dd>{v}</dd></div>", escape(k));
    }
    out.push_str("</dl>\n");
}

/// The player page's section of results and luck: luck per game beside the error, the mean
/// result of the finished games, the net luck, and the result had luck been average.
pub fn luck_section(out: &mut String, p: &PlayerStats, unit: Unit) {
    let u = unit.short();
    out.push_str("<section id=\"luck\">\n<h2>Results and luck</h2>\n");
    let result_name = match unit {
        Unit::MatchPoints => "match points won per game",
        Unit::Points | Unit::Mixed => "final score per game",
    };
    let facts = [
        (
            format!("error per game ({u})"),
            fixed(p.error_per_game(), 4),
        ),
        (format!("luck per game ({u})"), fixed(p.luck_per_game(), 4)),
        ("finished games".to_string(), p.finished.to_string()),
        (
            format!("{result_name} ({u})"),
            fixed(p.result_per_game(), 4),
        ),
        (
            format!("net luck per finished game ({u})"),
            fixed(p.net_luck_per_game(), 4),
        ),
        (
            format!("luck-adjusted {result_name} ({u})"),
            fixed(p.luck_adjusted_per_game(), 4),
        ),
    ];
    facts_list(out, &facts);
    let _ = writeln!(
        out,
        "<p class=\"note\">{}</p>\n</section>",
        escape(&luck_sentence(p, unit))
    );
}

/// "Had the dice been average, ...": the luck-adjusted result in a sentence.
pub fn luck_sentence(p: &PlayerStats, unit: Unit) -> String {
    if p.finished == 0 {
        return "No finished game: there is no result to adjust for luck.".into();
    }
    let (what, net) = match unit {
        Unit::MatchPoints => (
            "won",
            "their own luck less their opponents' (an opponent's good roll is their bad luck)",
        ),
        Unit::Points | Unit::Mixed => ("scored", "their luck"),
    };
    format!(
        "Had the dice been average, this player would have {what} {} {} per game instead of {} \
         (the {} finished games' mean result less the mean net luck, {net}: {} {}).",
        fixed(p.luck_adjusted_per_game(), 4),
        unit.short(),
        fixed(p.result_per_game(), 4),
        p.finished,
        fixed(p.net_luck_per_game(), 4),
        unit.short()
    )
}

/// The player page's screening section: the player's row of the screening, or why they are
/// not screened; stretches linked to the games' pages in `games` (the page is in `players/`).
pub fn player_section(
    out: &mut String,
    p: &PlayerStats,
    screened: Option<&Screened>,
    unit: Unit,
    games: Option<&BTreeSet<String>>,
) {
    out.push_str("<section id=\"screening\">\n<h2>Engine-assistance screening</h2>\n");
    let _ = writeln!(
        out,
        "<p class=\"note\"><strong>{}</strong></p>",
        escape(NOT_A_VERDICT)
    );
    let mut facts = vec![
        (
            "non-forced decisions".to_string(),
            p.all.unforced.to_string(),
        ),
        (
            "agreement (% of non-forced)".into(),
            percent(p.all.agreement()),
        ),
        (
            format!("error per non-forced decision ({})", unit.short()),
            fixed(p.all.error_per_unforced(), 6),
        ),
    ];
    if let Some(r) = screened {
        facts.extend([
            ("peers".to_string(), r.peers.to_string()),
            ("peers' agreement (mean)".into(), percent(r.peer_agreement)),
            ("peers' agreement (sd)".into(), percent(r.peer_sd)),
            ("z-score".into(), r.z.map_or("-".into(), |z| fixed(z, 2))),
            (
                "percentile among peers".into(),
                r.percentile.map_or("-".into(), |p| fixed(p, 1)),
            ),
            (
                "flag".into(),
                if r.flagged { "flagged" } else { "not flagged" }.into(),
            ),
        ]);
        if let Some(s) = &r.solitaire {
            facts.extend([
                (
                    "solitaire oracle: non-forced decisions".to_string(),
                    s.unforced.to_string(),
                ),
                (
                    "solitaire oracle: agreement (% of non-forced)".into(),
                    percent(s.agreement),
                ),
                (
                    "solitaire oracle: error per non-forced decision (pts)".into(),
                    fixed(s.error_per_decision, 6),
                ),
                (
                    "solitaire oracle: peers' agreement (mean, sd)".into(),
                    format!("{} ({})", percent(s.compared.mean), percent(s.compared.sd)),
                ),
                (
                    "solitaire oracle: z-score".into(),
                    s.compared.z.map_or("-".into(), |z| fixed(z, 2)),
                ),
                (
                    "solitaire oracle: flag".into(),
                    if s.flagged { "flagged" } else { "not flagged" }.into(),
                ),
            ]);
        }
    }
    facts_list(out, &facts);
    let _ = writeln!(
        out,
        "<p class=\"note\">{} {} {}</p>",
        escape(&threshold_text()),
        escape(&near_total_text()),
        escape(MEASURED)
    );
    for n in screened.map_or(&[][..], |r| &r.near_total[..]) {
        let evidence = match n.stretch {
            Some(s) => format!(
                ": longest near-perfect stretch against it {}",
                stretch_html(s, n.unit, games)
            ),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "<p class=\"note near-total\"><strong>Agreement near total: {}</strong>{evidence}.</p>",
            escape(&near_total_words(n))
        );
    }
    match screened {
        None => {
            let _ = writeln!(
                out,
                "<p class=\"empty\">Not screened: fewer than {MIN_UNFORCED} non-forced \
                 decisions.</p>"
            );
        }
        Some(r) if r.stretches.is_empty() => {
            let _ = writeln!(
                out,
                "<p class=\"note\">No near-perfect stretch of {MIN_STRETCH} non-forced \
                 decisions or more.</p>"
            );
        }
        Some(r) => {
            out.push_str(
                "<p class=\"note\">Longest near-perfect stretches (each decision's error below \
                 the doubtful threshold):</p>\n<ul id=\"stretches\">\n",
            );
            for s in &r.stretches {
                let _ = writeln!(out, "<li>{}</li>", stretch_html(s, unit, games));
            }
            out.push_str("</ul>\n");
        }
    }
    if let Some(s) = screened.and_then(|r| r.solitaire.as_ref()) {
        if !s.stretches.is_empty() {
            out.push_str(
                "<p class=\"note\">Longest near-perfect stretches against the solitaire oracle \
                 (each decision's error below 0.01 points):</p>\n<ul id=\"solitaire-stretches\">\n",
            );
            for stretch in &s.stretches {
                let _ = writeln!(
                    out,
                    "<li>{}</li>",
                    stretch_html(stretch, Unit::Points, games)
                );
            }
            out.push_str("</ul>\n");
        }
    }
    out.push_str("</section>\n");
}

/// The player's screening in one line of text.
pub fn summary_text(p: &PlayerStats, screened: Option<&Screened>) -> String {
    let agreement = format!(
        "agreement {} of {} non-forced decisions",
        percent(p.all.agreement()),
        p.all.unforced
    );
    match screened {
        None => format!("{agreement}; not screened (fewer than {MIN_UNFORCED})"),
        Some(r) => {
            format!(
                "{agreement}; {} peers agree {} (sd {}); z {}, percentile {}; {}; longest \
             near-perfect stretch: {}",
                r.peers,
                percent(r.peer_agreement),
                percent(r.peer_sd),
                r.z.map_or("-".into(), |z| fixed(z, 2)),
                r.percentile.map_or("-".into(), |p| fixed(p, 1)),
                if r.flagged { "flagged" } else { "not flagged" },
                r.stretches.first().map_or("none".into(), |s| format!(
                    "{} decisions in {} games ({} to {})",
                    s.decisions, s.games, s.first_game, s.last_game
                ))
            ) + &solitaire_summary(r)
        }
    }
}

/// The solitaire oracle's part of [`summary_text`] (with near-total agreement), empty
/// without it.
fn solitaire_summary(r: &Screened) -> String {
    let mut text = String::new();
    if let Some(s) = &r.solitaire {
        let _ = write!(
            text,
            "; solitaire oracle: agreement {} of {}, peers {}, z {}, {}",
            percent(s.agreement),
            s.unforced,
            percent(s.compared.mean),
            s.compared.z.map_or("-".into(), |z| fixed(z, 2)),
            if s.flagged { "flagged" } else { "not flagged" },
        );
    }
    for n in &r.near_total {
        let _ = write!(text, "; agreement near total: {}", near_total_words(n));
    }
    text
}

/// A screened player as JSON.
pub fn json(r: &Screened) -> serde_json::Value {
    serde_json::json!({
        "player": r.name,
        "unit": r.key.unit.key(),
        "rounds": r.key.rounds,
        "unforced": r.unforced,
        "agreed": r.stats.all.agreed,
        "agreement": r.agreement,
        "error_per_decision": r.error_per_decision,
        "peers": r.peers,
        "peer_agreement": r.peer_agreement,
        "peer_sd": r.peer_sd,
        "z": r.z,
        "percentile": r.percentile,
        "error_percentile": r.error_percentile,
        "flagged": r.flagged,
        "stretches": r.stretches.iter().map(|s| stretch_json(s)).collect::<Vec<_>>(),
        "solitaire": r.solitaire.as_ref().map(|s| serde_json::json!({
            "unforced": s.unforced,
            "agreed": s.agreed,
            "agreement": s.agreement,
            "error_per_decision": s.error_per_decision,
            "peers": s.compared.peers,
            "peer_agreement": s.compared.mean,
            "peer_sd": s.compared.sd,
            "z": s.compared.z,
            "percentile": s.compared.percentile,
            "flagged": s.flagged,
            "stretches": s.stretches.iter().map(|s| stretch_json(s)).collect::<Vec<_>>(),
        })),
        "flagged_by": r.flagged_by().iter().map(|e| e.name()).collect::<Vec<_>>(),
        "near_total": r.near_total.iter().map(|n| serde_json::json!({
            "engine": n.engine.name(),
            "unforced": n.unforced,
            "agreement": n.agreement,
            "stretch": n.stretch.map(stretch_json),
        })).collect::<Vec<_>>(),
    })
}

/// A near-perfect stretch as JSON.
fn stretch_json(s: &Stretch) -> serde_json::Value {
    serde_json::json!({
        "decisions": s.decisions,
        "games": s.games,
        "total_error": s.total_error(),
        "first_game": s.first_game,
        "last_game": s.last_game,
    })
}

/// A player's results and luck as JSON (in the unit of the part).
pub fn luck_json(p: &PlayerStats) -> serde_json::Value {
    serde_json::json!({
        "luck_per_game": p.luck_per_game(),
        "finished": p.finished,
        "result_per_game": p.result_per_game(),
        "net_luck_per_game": p.net_luck_per_game(),
        "luck_adjusted_per_game": p.luck_adjusted_per_game(),
    })
}
