//! Reading a problem description: the TOML text, deserialized by serde into raw tables, then
//! checked field by field into a [`Problem`]. Every error points at the line and column of the
//! field at fault, from the TOML library's spans.

use super::facts::{Line, Next, Winner};
use super::rules::{Conditions, Rule};
use super::{BoardLayout, Cases, Dataset, InputSpace, Layout, Problem, Separator, Symbols};
use crate::tictactoe::explain::Outcome;
use crate::tictactoe::rules::Geometry;
use serde::Deserialize;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;
use toml::Spanned;

/// A description that cannot be used: where and why.
///
/// Displays as `FILE:LINE:COLUMN: message`, the form compilers use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescriptionError {
    /// The description's name: its path, or `built-in NAME`.
    pub file: String,
    /// 1-based line of the offending text.
    pub line: usize,
    /// 1-based column (in characters) of the offending text.
    pub column: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for DescriptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for DescriptionError {}

/// Turns byte offsets of a text into line and column numbers.
pub(super) struct Locator<'a> {
    file: &'a str,
    text: &'a str,
}

impl<'a> Locator<'a> {
    pub(super) fn new(file: &'a str, text: &'a str) -> Locator<'a> {
        Locator { file, text }
    }

    /// An error at byte `at` of the text.
    pub(super) fn error(&self, at: usize, message: impl Into<String>) -> DescriptionError {
        let at = at.min(self.text.len());
        let before = &self.text[..self.text.floor_char_boundary(at)];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        DescriptionError {
            file: self.file.to_string(),
            line,
            column,
            message: message.into(),
        }
    }

    fn at<T>(&self, span: &Spanned<T>, message: impl Into<String>) -> DescriptionError {
        self.error(span.span().start, message)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProblem {
    name: Spanned<String>,
    title: String,
    #[serde(default)]
    source: String,
    board: Spanned<RawBoard>,
    symbols: Spanned<RawSymbols>,
    input: Spanned<RawInput>,
    output: Spanned<RawOutput>,
    #[serde(default)]
    verdict: Vec<Spanned<RawRule>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    rows: Spanned<u32>,
    cols: Spanned<u32>,
    line: Spanned<u32>,
    #[serde(default)]
    joker: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSymbols {
    first: Spanned<String>,
    second: Spanned<String>,
    empty: Spanned<String>,
    joker: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInput {
    space: Spanned<String>,
    cases: Spanned<String>,
    terminator: Option<Spanned<String>>,
    board: Spanned<String>,
    blank: Spanned<String>,
    /// A line before each case's board (UVa's `?`).
    marker: Option<Spanned<String>>,
    /// The facts every position of the input space has.
    #[serde(rename = "where")]
    filter: Option<Spanned<RawRule>>,
    /// The fewest stones a position of the input space has.
    min_ply: Option<Spanned<u32>>,
    #[serde(default)]
    dataset: Vec<Spanned<RawDataset>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDataset {
    name: String,
    min: u64,
    max: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutput {
    prefix: Spanned<String>,
}

/// A fact's accepted values: one, or a list of any of them.
#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    answer: Option<Spanned<String>>,
    reachable: Option<bool>,
    line: Option<Spanned<OneOrMany<String>>>,
    full: Option<bool>,
    next: Option<Spanned<OneOrMany<String>>>,
    over: Option<bool>,
    ply: Option<Spanned<OneOrMany<u32>>>,
    value: Option<Spanned<OneOrMany<String>>>,
    winner: Option<Spanned<OneOrMany<String>>>,
    wins_now: Option<bool>,
    forced_win: Option<bool>,
    distance: Option<Spanned<OneOrMany<u32>>>,
}

/// The geometry of a board, built once per process for each shape: its tables take longer to
/// build than a description to read, and the built-ins share a few shapes.
fn shared_geometry(
    rows: u32,
    cols: u32,
    line: u32,
    joker: bool,
) -> Result<Arc<Geometry>, crate::tictactoe::rules::GeometryError> {
    type Shapes = std::sync::Mutex<Vec<((u32, u32, u32, bool), Arc<Geometry>)>>;
    static BUILT: std::sync::OnceLock<Shapes> = std::sync::OnceLock::new();
    let key = (rows, cols, line, joker);
    let built = BUILT.get_or_init(Default::default);
    if let Some((_, g)) = built.lock().unwrap().iter().find(|(k, _)| *k == key) {
        return Ok(g.clone());
    }
    let g = Arc::new(Geometry::new(rows, cols, line, joker)?);
    built.lock().unwrap().push((key, g.clone()));
    Ok(g)
}

/// The board a valid description is on, `(rows, cols, line, joker)`, read without the rest
/// of it or the board's tables: to tell which built-ins a description may match before
/// reading them whole.
pub(super) fn board_of(text: &str) -> Option<(u32, u32, u32, bool)> {
    #[derive(Deserialize)]
    struct Only {
        board: Shape,
    }
    #[derive(Deserialize)]
    struct Shape {
        rows: u32,
        cols: u32,
        line: u32,
        #[serde(default)]
        joker: bool,
    }
    let b = toml::from_str::<Only>(text).ok()?.board;
    Some((b.rows, b.cols, b.line, b.joker))
}

/// Reads a description. `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Problem, DescriptionError> {
    let loc = Locator::new(file, text);
    let raw: RawProblem = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(0, |s: Range<usize>| s.start);
        loc.error(at, e.message().trim_end().to_string())
    })?;
    let name = raw.name.get_ref().clone();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(loc.at(
            &raw.name,
            "a name is letters, digits, `-` and `_` (it names the problem in files and on the \
             command line)",
        ));
    }
    let b = raw.board.get_ref();
    let geometry = shared_geometry(
        *b.rows.get_ref(),
        *b.cols.get_ref(),
        *b.line.get_ref(),
        b.joker,
    )
    .map_err(|e| {
        let span = match e {
            crate::tictactoe::rules::GeometryError::Size { .. } => &b.rows,
            crate::tictactoe::rules::GeometryError::Line { .. } => &b.line,
        };
        loc.at(span, e.to_string())
    })?;
    let symbols = symbols(&loc, raw.symbols.get_ref(), b.joker, &raw.symbols)?;
    let input = raw.input.get_ref();
    let space = match input.space.get_ref().as_str() {
        "reachable" => InputSpace::Reachable,
        "every-grid" => InputSpace::EveryGrid,
        other => {
            return Err(loc.at(
                &input.space,
                format!("unknown input space `{other}`: `reachable` or `every-grid`"),
            ));
        }
    };
    let cases = match (input.cases.get_ref().as_str(), &input.terminator) {
        ("count", None) => Cases::Count,
        ("single", None) => Cases::Single,
        ("until", Some(t)) => {
            let word = t.get_ref();
            if word.is_empty() || word.trim() != word || word.contains('\n') {
                return Err(loc.at(t, "a terminator is one line of text without outer blanks"));
            }
            Cases::Until(word.clone())
        }
        ("until", None) => {
            return Err(loc.at(&input.cases, "`until` needs a `terminator` line"));
        }
        ("count" | "single", Some(t)) => {
            return Err(loc.at(t, "a `terminator` goes only with `cases = \"until\"`"));
        }
        (other, _) => {
            return Err(loc.at(
                &input.cases,
                format!("unknown `cases` `{other}`: `count`, `single` or `until`"),
            ));
        }
    };
    let board = match input.board.get_ref().as_str() {
        "rows" => BoardLayout::Rows,
        "line" => BoardLayout::Line,
        other => {
            return Err(loc.at(
                &input.board,
                format!("unknown board layout `{other}`: `rows` or `line`"),
            ));
        }
    };
    let blank = match input.blank.get_ref().as_str() {
        "none" => Separator::None,
        "between" => Separator::Between,
        "after" => Separator::After,
        other => {
            return Err(loc.at(
                &input.blank,
                format!("unknown `blank` `{other}`: `none`, `between` or `after`"),
            ));
        }
    };
    let mut datasets = Vec::new();
    for d in &input.dataset {
        let r = d.get_ref();
        if r.min == 0 || r.min > r.max {
            return Err(loc.at(d, "a dataset's bounds are 1 ≤ min ≤ max"));
        }
        if matches!(cases, Cases::Single) && r.max != 1 {
            return Err(loc.at(d, "with `cases = \"single\"` every dataset has one case"));
        }
        if datasets.iter().any(|x: &Dataset| x.name == r.name) {
            return Err(loc.at(d, format!("two datasets named `{}`", r.name)));
        }
        datasets.push(Dataset {
            name: r.name.clone(),
            min: r.min,
            max: r.max,
        });
    }
    if datasets.is_empty() {
        return Err(loc.at(
            &raw.input,
            "the input needs at least one `[[input.dataset]]` with its bounds on the cases",
        ));
    }
    let prefix = raw.output.get_ref().prefix.get_ref().clone();
    if prefix.contains('\n') || prefix.matches("{n}").count() > 1 {
        return Err(loc.at(
            &raw.output.get_ref().prefix,
            "a prefix is one line, with `{n}` (the case number) at most once",
        ));
    }
    let marker = match &input.marker {
        None => None,
        Some(m) => {
            let word = m.get_ref();
            if word.is_empty() || word.trim() != word || word.contains('\n') {
                return Err(loc.at(m, "a marker is one line of text without outer blanks"));
            }
            if matches!(&cases, Cases::Until(t) if t == word) {
                return Err(loc.at(m, "the marker cannot be the terminator"));
            }
            Some(word.clone())
        }
    };
    let layout = Layout {
        cases,
        board,
        blank,
        prefix,
        marker,
    };
    let (filter, filter_span) = match &input.filter {
        None => (Conditions::default(), None),
        Some(w) => {
            if let Some(a) = &w.get_ref().answer {
                return Err(loc.at(
                    a,
                    "`where` is facts only: an answer goes in a `[[verdict]]`",
                ));
            }
            (conditions(&loc, w.get_ref())?, Some(w.span().start))
        }
    };
    let min_ply = match &input.min_ply {
        None => 0,
        Some(m) => {
            if *m.get_ref() > geometry.cells() {
                return Err(loc.at(
                    m,
                    format!(
                        "`min_ply` is a number of stones from 0 to {}",
                        geometry.cells()
                    ),
                ));
            }
            *m.get_ref()
        }
    };
    if raw.verdict.is_empty() {
        return Err(loc.error(text.len(), "no `[[verdict]]`: a problem needs its answers"));
    }
    let mut verdicts = Vec::new();
    for r in &raw.verdict {
        verdicts.push(rule(&loc, r)?);
    }
    let spans = raw.verdict.iter().map(|r| r.span().start).collect();
    let answer_list = super::expand_answers(&verdicts, geometry.cells(), geometry.cols);
    Ok(Problem {
        name,
        title: raw.title,
        source: raw.source,
        text: text.to_string(),
        origin: file.to_string(),
        geometry,
        symbols,
        space,
        filter,
        min_ply,
        filter_span: filter_span.or(input.min_ply.as_ref().map(|m| m.span().start)),
        layout,
        datasets,
        verdicts,
        verdict_spans: spans,
        answer_list,
        reach: Default::default(),
        census: Default::default(),
    })
}

fn symbols<T>(
    loc: &Locator,
    s: &RawSymbols,
    joker: bool,
    table: &Spanned<T>,
) -> Result<Symbols, DescriptionError> {
    let one = |v: &Spanned<String>| -> Result<u8, DescriptionError> {
        match v.get_ref().as_bytes() {
            [c] if c.is_ascii_graphic() => Ok(*c),
            _ => Err(loc.at(v, "a symbol is one printable ASCII character, not a blank")),
        }
    };
    let first = one(&s.first)?;
    let second = one(&s.second)?;
    let empty = one(&s.empty)?;
    let j = match (&s.joker, joker) {
        (Some(v), true) => Some((one(v)?, v)),
        (Some(v), false) => {
            return Err(loc.at(v, "a joker symbol needs `joker = true` on the board"));
        }
        (None, true) => {
            return Err(loc.at(
                table,
                "the board has a joker: give its symbol (`joker = \"T\"`)",
            ));
        }
        (None, false) => None,
    };
    let mut all: Vec<(u8, &Spanned<String>)> =
        vec![(first, &s.first), (second, &s.second), (empty, &s.empty)];
    all.extend(j);
    for i in 0..all.len() {
        for k in 0..i {
            if all[i].0 == all[k].0 {
                return Err(loc.at(
                    all[i].1,
                    format!("`{}` is already another symbol", all[i].0 as char),
                ));
            }
        }
    }
    Ok(Symbols {
        first,
        second,
        empty,
        joker: j.map(|(c, _)| c),
    })
}

/// Reads a list of words into a set of a fact's values (bits by index).
fn words<T: Copy>(
    loc: &Locator,
    raw: &Option<Spanned<OneOrMany<String>>>,
    fact: &str,
    values: &[(&str, T)],
    index: impl Fn(T) -> u32,
) -> Result<Option<u32>, DescriptionError> {
    let Some(raw) = raw else { return Ok(None) };
    let list = match raw.get_ref() {
        OneOrMany::One(v) => vec![v.clone()],
        OneOrMany::Many(v) => v.clone(),
    };
    let mut set = 0;
    for w in &list {
        let Some(&(_, v)) = values.iter().find(|(name, _)| name == w) else {
            let names: Vec<String> = values.iter().map(|(n, _)| format!("`{n}`")).collect();
            return Err(loc.at(
                raw,
                format!("`{fact}` is one of {}, not `{w}`", names.join(", ")),
            ));
        };
        set |= 1 << index(v);
    }
    if set == 0 {
        return Err(loc.at(raw, format!("`{fact}` lists no value")));
    }
    Ok(Some(set))
}

/// A list of plies or distances (0 to 16) as bits.
fn numbers(
    loc: &Locator,
    raw: &Option<Spanned<OneOrMany<u32>>>,
    fact: &str,
) -> Result<Option<u32>, DescriptionError> {
    let Some(p) = raw else { return Ok(None) };
    let list = match p.get_ref() {
        OneOrMany::One(v) => vec![*v],
        OneOrMany::Many(v) => v.clone(),
    };
    if list.is_empty() || list.iter().any(|&v| v > 16) {
        return Err(loc.at(p, format!("`{fact}` is a number from 0 to 16, or a list")));
    }
    Ok(Some(list.iter().fold(0u32, |m, &v| m | 1 << v)))
}

/// The facts a rule (or the input's `where`) requires.
fn conditions(loc: &Locator, raw: &RawRule) -> Result<Conditions, DescriptionError> {
    let ply = numbers(loc, &raw.ply, "ply").map_err(|mut e| {
        e.message = "`ply` is a number of stones from 0 to 16, or a list".into();
        e
    })?;
    Ok(Conditions {
        reachable: raw.reachable,
        line: words(loc, &raw.line, "line", &Line::WORDS, |v| v as u32)?,
        full: raw.full,
        next: words(loc, &raw.next, "next", &Next::WORDS, |v| v as u32)?,
        over: raw.over,
        ply,
        value: words(loc, &raw.value, "value", &VALUE_WORDS, |v| v as u32)?,
        winner: words(loc, &raw.winner, "winner", &Winner::WORDS, |v| v as u32)?,
        wins_now: raw.wins_now,
        forced_win: raw.forced_win,
        distance: numbers(loc, &raw.distance, "distance")?,
    })
}

fn rule(loc: &Locator, r: &Spanned<RawRule>) -> Result<Rule, DescriptionError> {
    let raw = r.get_ref();
    let Some(answer_span) = &raw.answer else {
        return Err(loc.at(r, "missing field `answer`"));
    };
    let answer = answer_span.get_ref();
    if answer.is_empty() || answer.trim() != answer || answer.contains('\n') {
        return Err(loc.at(
            answer_span,
            "an answer is one line of text without outer blanks",
        ));
    }
    let rule = Rule {
        answer: answer.clone(),
        when: conditions(loc, raw)?,
    };
    if rule.is_template() && rule.when.forced_win != Some(true) {
        return Err(loc.at(
            answer_span,
            "`{row}` and `{col}` name the forced win's square: the rule needs \
             `forced_win = true`",
        ));
    }
    Ok(rule)
}

/// The words of perfect play's value for the side to move.
pub const VALUE_WORDS: [(&str, Outcome); 3] = [
    ("lost", Outcome::Loss),
    ("drawn", Outcome::Draw),
    ("won", Outcome::Win),
];
