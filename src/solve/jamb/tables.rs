//! Everything the Jamb oracle reads, built once per rule set (`build`) and
//! storable as bytes: the exact one-column tables, the tables of columns that may let a few
//! turns pass ("slack", see [`Slack`]), and the value function's weights fitted by self-play
//! ([`fit`](super::fit)).

use super::column::{ColumnSpace, ColumnTable, Slack};
use super::features::{weight_count, Correction};
use crate::rules::jamb::{ColumnKind, JambRules};
use std::sync::Arc;

/// How the tables are built (the defaults are the measured choice, docs/jamb-oracle.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildOptions {
    /// The slack tables: columns that may let up to `slack.turns` turns pass.
    pub slack: Slack,
    /// Self-played games the value function's weights are fitted on (0: no fit).
    pub fit_games: u64,
    /// Seed of the fitting games.
    pub fit_seed: u64,
    /// Ridge penalty of the fit (per sample).
    pub ridge: f64,
    /// Rounds of the fit (at least one). Round 1 fits on games of the oracle with the slack
    /// values alone; each later round fits on games of the strong oracle with the weights of
    /// the round before (seed `fit_seed + 2 * round`), on the slips it values with those
    /// weights (not the exact endgame's).
    pub fit_rounds: u32,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            slack: Slack {
                turns: 3,
                skip_value: 0.0,
                pass_after: 3,
            },
            fit_games: 40_000,
            fit_seed: 9,
            ridge: 3e-5,
            fit_rounds: 1,
        }
    }
}

impl BuildOptions {
    /// The measured choice for `rules` (docs/jamb-oracle.md): the defaults, with five rounds of
    /// the fit for `jamb-6a` (each of rounds 2 to 5 added strength there; the five-dice slips
    /// keep the one round they were measured with, and their tables the same bytes).
    pub fn for_rules(rules: &JambRules) -> BuildOptions {
        let fit_rounds = if *rules == JambRules::JAMB_6A { 5 } else { 1 };
        BuildOptions {
            fit_rounds,
            ..BuildOptions::default()
        }
    }
}

/// The tables of a rule set (see the module documentation).
#[derive(Clone, Debug)]
pub struct JambTables {
    rules: JambRules,
    /// One exact table per distinct column kind of the rules, in order of first appearance.
    tables: Vec<Arc<ColumnTable>>,
    /// The slack model of `slack`.
    slack_model: Slack,
    /// Per kind (as `tables`), the slack tables 1..=`slack_model.turns`, values rounded to
    /// `f32` (as stored).
    slack: Vec<Vec<Arc<ColumnTable>>>,
    /// The fitted weights, when fitted.
    correction: Option<Arc<Correction>>,
}

/// Format version of [`JambTables::to_bytes`].
const FORMAT_VERSION: u32 = 1;
/// First bytes of [`JambTables::to_bytes`].
const MAGIC: &[u8; 8] = b"DLJAMBTB";

/// The distinct column kinds of `rules`, in order of first appearance.
pub(super) fn kinds_of(rules: &JambRules) -> Vec<ColumnKind> {
    let mut kinds: Vec<ColumnKind> = Vec::new();
    for &k in rules.columns {
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    kinds
}

impl JambTables {
    /// Tables built ([`build`](super::build)) before their weights are fitted.
    pub(super) fn from_parts(
        rules: JambRules,
        tables: Vec<Arc<ColumnTable>>,
        slack_model: Slack,
        slack: Vec<Vec<Arc<ColumnTable>>>,
    ) -> JambTables {
        JambTables {
            rules,
            tables,
            slack_model,
            slack,
            correction: None,
        }
    }

    /// Tables of the shape [`JambTables::build`] gives `rules` (every column kind, the default
    /// slack levels, no fitted weights) whose every value is 0: an oracle on them values a slip
    /// by the points credited, the exact turn and, with the strong value function, the exact
    /// endgame. Built in a moment, for tests of what reads an oracle (rating, evaluation, the
    /// commands) on rule sets whose real tables take long to build; no measure of strength.
    #[cfg(feature = "test-oracles")]
    pub fn zero(rules: JambRules) -> JambTables {
        let slack_model = BuildOptions::default().slack;
        let zeros = |kind: ColumnKind| {
            let space = ColumnSpace::of_rules(&rules, kind, 0);
            let values = vec![0.0; space.len()];
            ColumnTable::from_parts(space, values).map(Arc::new)
        };
        // One table of zeros per kind, shared by its exact and slack levels.
        let tables: Vec<Arc<ColumnTable>> =
            kinds_of(&rules).into_iter().filter_map(zeros).collect();
        let slack = tables
            .iter()
            .map(|t| vec![Arc::clone(t); slack_model.turns])
            .collect();
        JambTables::from_parts(rules, tables, slack_model, slack)
    }

    /// The rules.
    pub fn rules(&self) -> &JambRules {
        &self.rules
    }

    /// The exact one-column table of column kind `kind`, if the rules have such a column.
    pub fn table(&self, kind: ColumnKind) -> Option<&ColumnTable> {
        self.tables.iter().find(|t| t.kind() == kind).map(|t| &**t)
    }

    /// The exact one-column table of `kind`, shared.
    pub(crate) fn shared_table(&self, kind: ColumnKind) -> Option<Arc<ColumnTable>> {
        self.tables.iter().find(|t| t.kind() == kind).cloned()
    }

    /// The slack tables 1..=`slack_model().turns` of `kind` (empty without slack).
    pub(crate) fn slack_tables(&self, kind: ColumnKind) -> Vec<Arc<ColumnTable>> {
        self.tables
            .iter()
            .position(|t| t.kind() == kind)
            .and_then(|i| self.slack.get(i).cloned())
            .unwrap_or_default()
    }

    /// The slack model the slack tables were built with.
    pub fn slack_model(&self) -> Slack {
        self.slack_model
    }

    /// The fitted weights, when fitted.
    pub fn correction(&self) -> Option<Arc<Correction>> {
        self.correction.clone()
    }

    /// The same tables with other fitted weights (`None`: none).
    pub fn with_correction(&self, correction: Option<Arc<Correction>>) -> JambTables {
        JambTables {
            correction,
            ..self.clone()
        }
    }

    /// Number of states of the exact tables.
    pub fn states(&self) -> usize {
        self.tables.iter().map(|t| t.space().len()).sum()
    }

    /// Number of values over all tables (exact and slack).
    pub fn values(&self) -> usize {
        self.states()
            + self
                .slack
                .iter()
                .flatten()
                .map(|t| t.values().len())
                .sum::<usize>()
    }

    /// The lengths in bytes of [`JambTables::to_bytes`] of the tables of `rules` as
    /// [`JambTables::build`] makes them (the default [`BuildOptions`]): with the fitted weights,
    /// and without (a fit that found none). Known before any file is read, so that a file of
    /// another length is refused before memory is reserved for it.
    pub fn stored_lens(rules: &JambRules) -> [u64; 2] {
        let kinds = kinds_of(rules);
        let turns = BuildOptions::default().slack.turns as u64;
        let states: Vec<u64> = kinds
            .iter()
            .map(|&k| ColumnSpace::of_rules(rules, k, 0).len() as u64)
            .collect();
        // Magic, version, the name's length and the name, the number of tables.
        let mut len = 8 + 4 + 4 + rules.name.len() as u64 + 4;
        // Each exact table: its kind's letter, its state count, its `f64` values.
        len += states.iter().map(|n| 1 + 8 + 8 * n).sum::<u64>();
        // The slack model, then per kind the number of levels and each level's count and `f32`
        // values.
        len += 4 + 8 + 1;
        len += states.iter().map(|n| 4 + turns * (8 + 4 * n)).sum::<u64>();
        // The number of weights, then (after them) the checksum.
        len += 8 + 4;
        let weights = 8 * weight_count(rules.columns.len()) as u64;
        [len + weights, len]
    }

    /// The tables as bytes: magic, format version, rules name; each exact table (kind letter,
    /// state count, `f64` values); the slack model and each kind's slack tables (`f32`
    /// values); the fitted weights (`f64`); a CRC-32 of everything before it. Little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(64 + 8 * self.values()));
        w.0.extend_from_slice(MAGIC);
        w.u32(FORMAT_VERSION);
        w.u32(self.rules.name.len() as u32);
        w.0.extend_from_slice(self.rules.name.as_bytes());
        w.u32(self.tables.len() as u32);
        for t in &self.tables {
            w.0.push(t.kind().code() as u8);
            w.u64(t.values().len() as u64);
            for &v in t.values() {
                w.f64(v);
            }
        }
        let s = self.slack_model;
        w.u32(s.turns as u32);
        w.f64(s.skip_value);
        w.0.push(s.pass_after);
        for levels in &self.slack {
            w.u32(levels.len() as u32);
            for t in levels {
                w.u64(t.values().len() as u64);
                for &v in t.values() {
                    w.0.extend_from_slice(&(v as f32).to_le_bytes());
                }
            }
        }
        match &self.correction {
            Some(c) => {
                w.u64(c.weights.len() as u64);
                for &v in &c.weights {
                    w.f64(v);
                }
            }
            None => w.u64(0),
        }
        let crc = crc32fast::hash(&w.0);
        w.u32(crc);
        w.0
    }

    /// Tables read back from [`JambTables::to_bytes`]; an error names what does not fit (bad
    /// magic, version, checksum, unknown rules, tables of another shape).
    pub fn from_bytes(bytes: &[u8]) -> Result<JambTables, String> {
        let body_len = bytes.len().checked_sub(4).ok_or("jamb tables: too short")?;
        let (body, crc) = bytes.split_at(body_len);
        let mut c = Reader { bytes: crc, at: 0 };
        if crc32fast::hash(body) != c.u32()? {
            return Err("jamb tables: checksum mismatch".into());
        }
        let mut r = Reader { bytes: body, at: 0 };
        if r.take(8)? != MAGIC {
            return Err("jamb tables: not a Jamb table file".into());
        }
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(format!(
                "jamb tables: format version {version}, expected {FORMAT_VERSION}"
            ));
        }
        let name_len = r.u32()? as usize;
        let name = std::str::from_utf8(r.take(name_len)?)
            .map_err(|_| "jamb tables: rules name is not UTF-8")?;
        let rules = JambRules::by_name(name)
            .ok_or_else(|| format!("jamb tables: unknown rules {name:?}"))?;
        let kinds = kinds_of(&rules);
        if r.u32()? as usize != kinds.len() {
            return Err("jamb tables: wrong number of tables for the rules".into());
        }
        let mut tables = Vec::with_capacity(kinds.len());
        for &kind in &kinds {
            let letter = char::from(r.take(1)?[0]);
            if ColumnKind::parse(letter) != Some(kind) {
                return Err(format!(
                    "jamb tables: table {letter:?} where {} was expected",
                    kind.code()
                ));
            }
            let space = ColumnSpace::of_rules(&rules, kind, 0);
            let values = r.values(space.len(), 8)?;
            let table = ColumnTable::from_parts(space, values).ok_or("jamb tables: bad size")?;
            tables.push(Arc::new(table));
        }
        let slack_model = Slack {
            turns: r.u32()? as usize,
            skip_value: r.f64()?,
            pass_after: r.take(1)?[0],
        };
        let mut slack = Vec::with_capacity(kinds.len());
        for &kind in &kinds {
            let count = r.u32()? as usize;
            if count != slack_model.turns {
                return Err("jamb tables: wrong number of slack tables".into());
            }
            let mut levels = Vec::with_capacity(count);
            for _ in 0..count {
                let space = ColumnSpace::of_rules(&rules, kind, 0);
                let values = r.values(space.len(), 4)?;
                let table =
                    ColumnTable::from_parts(space, values).ok_or("jamb tables: bad size")?;
                levels.push(Arc::new(table));
            }
            slack.push(levels);
        }
        let weights = r.u64()? as usize;
        let correction = if weights == 0 {
            None
        } else if weights != weight_count(rules.columns.len()) {
            return Err("jamb tables: fitted weights of another shape".into());
        } else {
            let weights = (0..weights).map(|_| r.f64()).collect::<Result<_, _>>()?;
            Some(Arc::new(Correction { weights }))
        };
        if r.at != body.len() {
            return Err("jamb tables: trailing bytes".into());
        }
        Ok(JambTables {
            rules,
            tables,
            slack_model,
            slack,
            correction,
        })
    }
}

/// Little-endian output.
struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f64(&mut self, v: f64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
}

/// A cursor over bytes being decoded.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or("jamb tables: truncated")?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, String> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, String> {
        self.array().map(u64::from_le_bytes)
    }

    fn f64(&mut self) -> Result<f64, String> {
        self.array().map(f64::from_le_bytes)
    }

    /// A table of `expected` values of `width` bytes (8: `f64`, 4: `f32`), after its count.
    fn values(&mut self, expected: usize, width: usize) -> Result<Vec<f64>, String> {
        let len = usize::try_from(self.u64()?).map_err(|_| "jamb tables: too large")?;
        if len != expected {
            return Err(format!(
                "jamb tables: a table of {len} states where {expected} were expected"
            ));
        }
        let raw = self.take(len.checked_mul(width).ok_or("jamb tables: too large")?)?;
        Ok(match width {
            8 => raw
                .chunks_exact(8)
                .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
                .collect(),
            _ => raw
                .chunks_exact(4)
                .map(|c| f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                .collect(),
        })
    }
}
