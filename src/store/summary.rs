//! `summary.json`: what an analysis read, rated and skipped, and how it rated (oracle,
//! thresholds, tool version), as one serde struct that `analyze` and `merge` write and that
//! `merge`, `merge --partitions` and `player --from` read back. Fields are in name order, as
//! the file has always had them; fields of older versions (`multi_player_method`,
//! `exact_free`) are read, and written back only when present.

use crate::aggregate::{add_checked, Overflow, Parts};
use crate::corpus::{Location, SkipReason, Summary};
use crate::rate::{OracleSpec, Thresholds, Unit, UnitThresholds};
use dicelens_parsers::LineNumber;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Class thresholds as `summary.json` writes them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThresholdsJson {
    /// At least this: blunder.
    pub blunder: f64,
    /// At least this: doubtful.
    pub doubtful: f64,
    /// At least this: error.
    pub error: f64,
}

impl From<Thresholds> for ThresholdsJson {
    fn from(t: Thresholds) -> Self {
        ThresholdsJson {
            blunder: t.blunder,
            doubtful: t.doubtful,
            error: t.error,
        }
    }
}

impl From<ThresholdsJson> for Thresholds {
    fn from(t: ThresholdsJson) -> Self {
        Thresholds {
            doubtful: t.doubtful,
            error: t.error,
            blunder: t.blunder,
        }
    }
}

impl Default for ThresholdsJson {
    fn default() -> Self {
        Thresholds::POINTS.into()
    }
}

/// A skipped game as `summary.json` writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedGame {
    /// What was wrong.
    pub detail: String,
    /// File.
    pub file: String,
    /// Game id, when known.
    pub game_id: Option<String>,
    /// Line.
    pub line: LineNumber,
}

impl From<&Location> for SkippedGame {
    fn from(l: &Location) -> Self {
        SkippedGame {
            detail: l.detail.clone(),
            file: l.file.clone(),
            game_id: l.game_id.clone(),
            line: l.line,
        }
    }
}

impl From<SkippedGame> for Location {
    fn from(s: SkippedGame) -> Self {
        Location {
            file: s.file,
            line: s.line,
            game_id: s.game_id,
            detail: s.detail,
        }
    }
}

/// A game id rated in several merged analyses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuplicateGame {
    /// The id.
    pub game_id: String,
    /// The analyses it was rated in, in input order.
    pub shards: Vec<String>,
}

/// A duplicate a merge could not subtract (its game could not be read or rated again).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotSubtracted {
    /// Why.
    pub detail: String,
    /// The log it was read from.
    pub file: String,
    /// The id.
    pub game_id: String,
    /// Its first line in the log.
    pub line: LineNumber,
    /// The analysis it was counted in.
    pub shard: String,
}

/// The fields of a merge of overlapping analyses.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MergeFields {
    /// Ids rated in several inputs.
    pub duplicates: Vec<DuplicateGame>,
    /// Duplicates that could not be subtracted.
    pub duplicates_not_subtracted: Vec<NotSubtracted>,
    /// The inputs, in order.
    pub merged: Vec<String>,
}

/// `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryFile {
    /// Decisions rated.
    #[serde(default)]
    pub decisions: u64,
    /// Merges of overlapping analyses: ids rated in several inputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicates: Option<Vec<DuplicateGame>>,
    /// Merges of overlapping analyses: duplicates that could not be subtracted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicates_not_subtracted: Option<Vec<NotSubtracted>>,
    /// Analyses before oracle specs: most free boxes valued exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) exact_free: Option<u64>,
    /// Files that could not be read, with why.
    #[serde(default)]
    pub files_skipped: Vec<String>,
    /// Games rated by the unit of their errors (`points`, `match_points`), for the units that
    /// have games.
    #[serde(default)]
    pub(crate) games_by_unit: BTreeMap<String, u64>,
    /// Games rated.
    #[serde(default)]
    pub games_rated: u64,
    /// Games read (parsed or not).
    pub games_read: u64,
    /// Games skipped.
    #[serde(default)]
    pub games_skipped: u64,
    /// The thresholds of decisions rated in match points, when the oracle rates games of
    /// several players in match points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) match_point_thresholds: Option<ThresholdsJson>,
    /// Merges of overlapping analyses: the inputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<Vec<String>>,
    /// Analyses before oracle specs: the method of games of several players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) multi_player_method: Option<String>,
    /// The oracle's description.
    #[serde(default)]
    pub oracle: String,
    /// The oracle's spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oracle_spec: Option<String>,
    /// Players rated (a player of both units counted once).
    #[serde(default)]
    pub players: usize,
    /// Games rated by rule set.
    #[serde(default)]
    pub rule_sets: BTreeMap<String, u64>,
    /// Games skipped, by reason.
    #[serde(default)]
    pub skipped: BTreeMap<SkipReason, Vec<SkippedGame>>,
    /// The thresholds of decisions rated in points.
    #[serde(default)]
    pub thresholds: ThresholdsJson,
    /// `dicelens`.
    #[serde(default)]
    pub tool: String,
    /// The version of the tool that wrote the file.
    #[serde(default)]
    pub version: String,
}

/// Why a `summary.json` could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SummaryError(pub String);

impl std::fmt::Display for SummaryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SummaryError {}

/// Players rated, a player of both units counted once.
fn players(aggregates: &Parts) -> usize {
    let mut names: Vec<&String> = aggregates
        .parts()
        .flat_map(|(_, part)| part.players.keys())
        .collect();
    names.sort_unstable();
    names.dedup();
    names.len()
}

impl SummaryFile {
    /// The summary of an analysis: its counts, the oracle (description and spec) and the
    /// thresholds of points; the match-point thresholds when the spec rates games of several
    /// players in match points.
    pub fn new(
        summary: &Summary,
        aggregates: &Parts,
        oracle: &str,
        spec: OracleSpec,
        thresholds: Thresholds,
    ) -> SummaryFile {
        let mut file = SummaryFile::counts(summary, aggregates);
        file.oracle = oracle.to_string();
        file.oracle_spec = Some(spec.to_string());
        file.thresholds = thresholds.into();
        file.match_point_thresholds = spec
            .is_match_points()
            .then(|| Thresholds::for_unit(Unit::MatchPoints).into());
        file
    }

    /// The summary of an analysis made by [`crate::pipeline::analyze`].
    pub fn of_analysis(analysis: &crate::pipeline::Analysis) -> SummaryFile {
        SummaryFile::new(
            &analysis.summary,
            &analysis.aggregates,
            &analysis.oracle,
            analysis.spec,
            analysis.thresholds,
        )
    }

    /// A summary holding only the counts of `summary` and `aggregates` (the fields that say
    /// how games were rated are left empty).
    pub fn counts(summary: &Summary, aggregates: &Parts) -> SummaryFile {
        SummaryFile {
            decisions: aggregates.decisions(),
            duplicates: None,
            duplicates_not_subtracted: None,
            exact_free: None,
            files_skipped: summary.files_skipped.clone(),
            games_rated: aggregates.games(),
            games_by_unit: [Unit::Points, Unit::MatchPoints]
                .into_iter()
                .map(|unit| (unit.key().to_string(), aggregates.games_in(unit)))
                .filter(|(_, games)| *games > 0)
                .collect(),
            games_read: summary.games_read,
            games_skipped: summary.skipped_count(),
            match_point_thresholds: None,
            merged: None,
            multi_player_method: None,
            oracle: String::new(),
            oracle_spec: None,
            players: players(aggregates),
            rule_sets: aggregates.rule_sets(),
            skipped: summary
                .skipped
                .iter()
                .map(|(reason, places)| (reason.clone(), places.iter().map(Into::into).collect()))
                .collect(),
            thresholds: ThresholdsJson::default(),
            tool: "dicelens".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }

    /// The same settings (tool, oracle, thresholds, merge fields) with the counts of
    /// `summary` and `aggregates`.
    pub(crate) fn with_counts(&self, summary: &Summary, aggregates: &Parts) -> SummaryFile {
        SummaryFile {
            oracle: self.oracle.clone(),
            oracle_spec: self.oracle_spec.clone(),
            thresholds: self.thresholds,
            match_point_thresholds: self.match_point_thresholds,
            multi_player_method: self.multi_player_method.clone(),
            exact_free: self.exact_free,
            tool: self.tool.clone(),
            version: self.version.clone(),
            duplicates: self.duplicates.clone(),
            duplicates_not_subtracted: self.duplicates_not_subtracted.clone(),
            merged: self.merged.clone(),
            ..SummaryFile::counts(summary, aggregates)
        }
    }

    /// Adds the fields of a merge of overlapping analyses.
    pub fn merged(mut self, fields: MergeFields) -> SummaryFile {
        self.duplicates = Some(fields.duplicates);
        self.duplicates_not_subtracted = Some(fields.duplicates_not_subtracted);
        self.merged = Some(fields.merged);
        self
    }

    /// Reads a summary from the text of a `summary.json`.
    pub fn parse(text: &str) -> Result<SummaryFile, SummaryError> {
        serde_json::from_str(text).map_err(|e| SummaryError(e.to_string()))
    }

    /// The file's text (pretty JSON and a line end).
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Whether the analysis rated games of several players in match points (its match-point
    /// thresholds, or before oracle specs its method, say so).
    pub fn match_points(&self) -> bool {
        self.match_point_thresholds.is_some() || self.multi_player_method.is_some()
    }

    /// The class thresholds of decisions rated in points.
    pub(crate) fn points_thresholds(&self) -> Thresholds {
        self.thresholds.into()
    }

    /// The class thresholds of each unit: those of points as written, those of match points
    /// as written or the defaults.
    pub(crate) fn thresholds_by_unit(&self) -> UnitThresholds {
        UnitThresholds {
            points: self.points_thresholds(),
            match_points: self
                .match_point_thresholds
                .map_or(Thresholds::MATCH_POINTS, Into::into),
        }
    }

    /// The oracle the analysis was rated with, so that games are rated again the same way: its
    /// `oracle_spec`; before specs, its `multi_player_method` and `exact_free` (whose searches
    /// valued their leaves exactly), and without those the solitaire oracle.
    pub fn oracle_spec(&self) -> Result<OracleSpec, String> {
        if let Some(spec) = &self.oracle_spec {
            return spec.parse();
        }
        let Some(method) = &self.multi_player_method else {
            return Ok(OracleSpec::SOLITAIRE);
        };
        let spec = match self.exact_free {
            Some(0) => method.to_string(),
            Some(n) => format!("{method}/exact:{n}/exact-leaves"),
            None => format!("{method}/exact:8/exact-leaves"),
        };
        spec.parse()
    }

    /// Adds the counts, skipped games and skipped files of this summary to `summary`; an error
    /// if the count of games read would overflow.
    pub(crate) fn add_to(&self, summary: &mut Summary) -> Result<(), Overflow> {
        add_checked(&mut summary.games_read, self.games_read, "games_read")?;
        for (reason, places) in &self.skipped {
            for place in places {
                summary.skip(reason.clone(), place.clone().into());
            }
        }
        summary
            .files_skipped
            .extend(self.files_skipped.iter().cloned());
        Ok(())
    }

    /// The fields that say how games were rated (all but the counts and the oracle's
    /// description, which names the oracles of the rule sets met: see
    /// `crate::merge::merged_oracle`), by name, each as compact JSON (`null` when absent):
    /// analyses of partitions must share them.
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        fn json<T: Serialize>(value: &T) -> String {
            serde_json::to_string(value).unwrap_or_default()
        }
        vec![
            ("duplicates", json(&self.duplicates)),
            (
                "duplicates_not_subtracted",
                json(&self.duplicates_not_subtracted),
            ),
            ("exact_free", json(&self.exact_free)),
            ("match_point_thresholds", json(&self.match_point_thresholds)),
            ("merged", json(&self.merged)),
            ("multi_player_method", json(&self.multi_player_method)),
            ("oracle_spec", json(&self.oracle_spec)),
            ("thresholds", json(&self.thresholds)),
            ("tool", json(&self.tool)),
            ("version", json(&self.version)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_fields_in_name_order_and_reads_them_back() {
        let mut summary = Summary {
            games_read: 3,
            games_used: 2,
            ..Summary::default()
        };
        summary.skip(
            SkipReason::DuplicateGameId,
            Location {
                file: "a.ygn".into(),
                line: 7,
                game_id: Some("g".into()),
                detail: "game id g seen before".into(),
            },
        );
        let file = SummaryFile::new(
            &summary,
            &Parts::default(),
            "o",
            OracleSpec::DEFAULT,
            Thresholds::POINTS,
        );
        let text = file.to_json();
        let keys: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("  \""))
            .filter_map(|l| l.trim().split('"').nth(1))
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        assert!(text.contains("\"duplicate game id\": ["));
        assert_eq!(SummaryFile::parse(&text).unwrap(), file);
    }
}
