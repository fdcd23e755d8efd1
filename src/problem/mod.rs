//! The family of board-status problems: a problem is a description file (TOML) that gives the
//! board, the symbols, the input space, the layout of the files and the verdicts; everything
//! else (answers, validation, checking, test data, the killer set) follows from it.
//!
//! - [`description`]: reading and checking a description, with the line and column of any
//!   error;
//! - [`facts`]: what tomek computes for a position (reachable, lines, full, next, over, ply,
//!   perfect play);
//! - [`rules`]: the verdicts, an ordered list of rules over the facts;
//! - [`layout`]: the problem's input and answer files: reading (strict or lenient), writing;
//! - [`judge`]: answering, validating and checking files of the problem;
//! - [`mutants`]: the catalogue of wrong solutions derived from a description, and the killer
//!   set that catches them all;
//! - [`sample`]: test files drawn from the input space;
//! - [`audit`]: a solver program run on positions of the input space and judged.
//!
//! The built-in descriptions (`tomek problem list`) are in `builtin/`, one file each. Code Jam's
//! Tic-Tac-Toe-Tomek is `tomek`: a description equal to it in everything that decides an answer
//! is served by the specialised Code Jam path of [`crate::tictactoe`], which the tests hold to
//! the generic path on every reachable board.

pub mod audit;
pub mod description;
pub mod facts;
pub mod guards;
pub mod judge;
pub mod layout;
pub mod mutants;
pub mod pass;
pub mod reachable;
pub mod rules;
pub mod sample;

use crate::outcome::Status;
use crate::tictactoe::board::Board;
use crate::tictactoe::codejam::AnswerWords;
use crate::tictactoe::reach::Checks;
use crate::tictactoe::rules::Geometry;
use description::{DescriptionError, Locator};
use facts::{Facts, Values};
use reachable::Reachable;
use rules::{Conditions, Rule};
use std::sync::{Arc, OnceLock};

/// The symbols of a problem's files.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symbols {
    /// The player who moves first.
    pub first: u8,
    /// The other player.
    pub second: u8,
    /// An empty square.
    pub empty: u8,
    /// The joker, when the board has one.
    pub joker: Option<u8>,
}

/// Which grids are valid input.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum InputSpace {
    /// Only positions that arise in play (with at most one joker when the board has one).
    Reachable,
    /// Every grid over the symbols (with at most one joker when the board has one).
    EveryGrid,
}

/// How the cases of a file come.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cases {
    /// A line with the number of cases first.
    Count,
    /// One case per file.
    Single,
    /// Cases until a line holding this word.
    Until(String),
}

/// How a board is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoardLayout {
    /// One line per row.
    Rows,
    /// The rows one after another on one line.
    Line,
}

/// Where empty lines go.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Separator {
    /// Nowhere.
    None,
    /// One between two cases.
    Between,
    /// One after every case, the last included.
    After,
}

/// The layout of a problem's input and answer files.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// How the cases come.
    pub cases: Cases,
    /// How a board is written.
    pub board: BoardLayout,
    /// Where the empty lines go.
    pub blank: Separator,
    /// What comes before each answer; `{n}` is the case number from 1.
    pub prefix: String,
    /// A line before each case's board, when the layout has one.
    pub marker: Option<String>,
}

/// Bounds on the number of cases of one dataset (small, large, …).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dataset {
    /// Its name.
    pub name: String,
    /// Fewest cases.
    pub min: u64,
    /// Most cases.
    pub max: u64,
}

/// A problem of the family, read from its description.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Short name, used on the command line and in file names.
    pub name: String,
    /// Full title.
    pub title: String,
    /// Where the statement comes from.
    pub source: String,
    /// The description's text.
    pub text: String,
    /// Where the description was read: its path, or `built-in NAME`.
    pub origin: String,
    /// The board and its lines.
    pub geometry: Arc<Geometry>,
    /// The symbols.
    pub symbols: Symbols,
    /// Which grids are valid input, before the filter.
    pub space: InputSpace,
    /// The facts every position of the input space has (`where` in the description).
    pub filter: Conditions,
    /// The fewest stones a position of the input space has.
    pub min_ply: u32,
    /// Where the filter (or the minimum ply) is in the text.
    filter_span: Option<usize>,
    /// The files' layout.
    pub layout: Layout,
    /// Bounds on the number of cases.
    pub datasets: Vec<Dataset>,
    /// The verdicts, first match wins.
    pub verdicts: Vec<Rule>,
    /// Where each verdict starts in the text.
    verdict_spans: Vec<usize>,
    /// The distinct answers, templates expanded (see [`Problem::answers`]).
    answer_list: Vec<String>,
    /// The positions play reaches, found once when first needed and shared by the clones.
    pub(crate) reach: Arc<OnceLock<Reachable>>,
    /// The input space by facts, found once when first needed and shared by the clones.
    pub(crate) census: Arc<OnceLock<pass::Census>>,
}

/// The distinct answers of `verdicts`, in the order of their first rule, each template
/// expanded over the squares of a board of `cells` squares, `cols` wide.
pub(crate) fn expand_answers(verdicts: &[Rule], cells: u32, cols: u32) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for r in verdicts {
        let all = if r.is_template() {
            (0..cells).map(|s| r.answer_at(s, cols)).collect()
        } else {
            vec![r.answer.clone()]
        };
        for a in all {
            if !v.contains(&a) {
                v.push(a);
            }
        }
    }
    v
}

/// The built-in descriptions: name and text.
pub const BUILTIN: [(&str, &str); 8] = [
    ("tomek", include_str!("builtin/tomek.toml")),
    ("cf3c", include_str!("builtin/cf3c.toml")),
    ("toe1", include_str!("builtin/toe1.toml")),
    ("toe2", include_str!("builtin/toe2.toml")),
    (
        "ccc-hk-2008-j4",
        include_str!("builtin/ccc-hk-2008-j4.toml"),
    ),
    ("perfect-play", include_str!("builtin/perfect-play.toml")),
    ("cf754b", include_str!("builtin/cf754b.toml")),
    ("uva10111", include_str!("builtin/uva10111.toml")),
];

/// The built-in problem at `i` in [`BUILTIN`] (Tomek's first), read on first use: a command
/// reads only the built-ins it looks at, and each board's tables are built once.
fn builtin_at(i: usize) -> &'static Problem {
    static READ: [OnceLock<Problem>; BUILTIN.len()] = [const { OnceLock::new() }; BUILTIN.len()];
    READ[i].get_or_init(|| {
        let (name, text) = BUILTIN[i];
        description::parse(&format!("built-in {name}"), text)
            .expect("the built-in descriptions are valid (tested)")
    })
}

/// Code Jam's Tic-Tac-Toe-Tomek as built in.
fn builtin_tomek() -> &'static Problem {
    builtin_at(0)
}

/// Why a problem could not be had.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The description is wrong.
    #[error(transparent)]
    Description(#[from] DescriptionError),
    /// The file could not be read.
    #[error("cannot read {path}")]
    Io {
        /// The path given.
        path: String,
        /// The reason.
        source: std::io::Error,
    },
}

impl Problem {
    /// A built-in problem by name, or a description file by path. A built-in's rules were
    /// checked against its whole input space by the tests; a file's are checked here.
    pub fn load(name_or_path: &str) -> Result<Problem, LoadError> {
        Ok(Problem::load_unchecked(name_or_path)?.checked()?)
    }

    /// [`Problem::load`] without the check of the rules over the whole input space: for
    /// work on one position, whose own rule is found when it is judged. The fields are
    /// checked as always.
    pub fn load_unchecked(name_or_path: &str) -> Result<Problem, LoadError> {
        if let Some(p) = Problem::builtin(name_or_path) {
            return Ok(p);
        }
        let text = std::fs::read_to_string(name_or_path).map_err(|source| LoadError::Io {
            path: name_or_path.to_string(),
            source,
        })?;
        Ok(description::parse(name_or_path, &text)?)
    }

    /// What `--problem` takes to load this problem again, as one word of a shell command: a
    /// built-in's name, or the path of the file it was read from, in single quotes when it
    /// holds anything but letters, digits and `_-./+,:@%=`.
    pub fn command_arg(&self) -> String {
        if let Some(name) = self.origin.strip_prefix("built-in ") {
            return name.to_string();
        }
        let plain = |c: char| c.is_ascii_alphanumeric() || "_-./+,:@%=".contains(c);
        if !self.origin.is_empty() && self.origin.chars().all(plain) {
            self.origin.clone()
        } else {
            format!("'{}'", self.origin.replace('\'', r"'\''"))
        }
    }

    /// Whether this problem was read from a file whose `name` is a built-in's, so that
    /// `--problem NAME` would load the built-in and not the file.
    pub fn shadows_a_builtin(&self) -> bool {
        !self.origin.starts_with("built-in ") && BUILTIN.iter().any(|(n, _)| *n == self.name)
    }

    /// A built-in problem.
    pub fn builtin(name: &str) -> Option<Problem> {
        let i = BUILTIN.iter().position(|(n, _)| *n == name)?;
        Some(builtin_at(i).clone())
    }

    /// Code Jam's Tic-Tac-Toe-Tomek, the default problem.
    pub fn tomek() -> Problem {
        Problem::builtin("tomek").expect("tomek is built in")
    }

    /// Reads a description and checks its rules against the whole input space: every rule
    /// must match some position, and some rule every position. A description that decides
    /// every answer as a built-in does is not searched again.
    pub fn from_text(file: &str, text: &str) -> Result<Problem, DescriptionError> {
        description::parse(file, text)?.checked()
    }

    /// The problem, once its rules are checked against its whole input space, unless a
    /// built-in (whose rules the tests checked) asks the same of the same positions: the check
    /// reads nothing but the board, the input space and the rules' conditions, so a copy of a
    /// built-in with other answer words, symbols or layout passes as the built-in does.
    fn checked(self) -> Result<Problem, DescriptionError> {
        let g = &self.geometry;
        let board = (g.rows, g.cols, g.line, g.joker);
        let same = (0..BUILTIN.len())
            .filter(|&i| description::board_of(BUILTIN[i].1) == Some(board))
            .any(|i| builtin_at(i).same_conditions(&self));
        if !same {
            self.check_rules()?;
        }
        Ok(self)
    }

    /// Whether two descriptions have the same board, input space and rules' conditions, in
    /// the same order: whatever their answers, each position gets the same rule from both.
    pub fn same_conditions(&self, other: &Problem) -> bool {
        fn shape(p: &Problem) -> (u32, u32, u32, bool, InputSpace, &Conditions, u32) {
            let g = &p.geometry;
            (
                g.rows, g.cols, g.line, g.joker, p.space, &p.filter, p.min_ply,
            )
        }
        shape(self) == shape(other)
            && self.verdicts.len() == other.verdicts.len()
            && self
                .verdicts
                .iter()
                .zip(&other.verdicts)
                .all(|(a, b)| a.when == b.when)
    }

    /// Whether two descriptions give the same answers to the same files: the same board,
    /// symbols, input space, layout, datasets and verdicts (names, titles and comments aside).
    pub fn same_judgement(&self, other: &Problem) -> bool {
        self.same_conditions(other)
            && self.symbols == other.symbols
            && self.layout == other.layout
            && self.datasets == other.datasets
            && self.verdicts == other.verdicts
    }

    /// Whether this is Code Jam's Tic-Tac-Toe-Tomek in everything that decides an answer, so
    /// that the specialised Code Jam path of [`crate::tictactoe`] serves it.
    pub fn is_tomek(&self) -> bool {
        self.same_judgement(builtin_tomek())
    }

    /// The answer of each Code Jam status when this description judges as Code Jam's does in
    /// everything but its answer words (`Tie` for `Draw`, say): the same board, symbols,
    /// input space, layout, datasets and rules' conditions, one word per status, none a
    /// template or longer than [`crate::tictactoe::codejam::MAX_ANSWER_BYTES`]. Code Jam's
    /// specialised path then serves it with these words: the same positions, the same rule
    /// for each, only the printed text differs.
    pub fn code_jam_words(&self) -> Option<AnswerWords> {
        let tomek = builtin_tomek();
        if !(self.same_conditions(tomek)
            && self.symbols == tomek.symbols
            && self.layout == tomek.layout
            && self.datasets == tomek.datasets)
        {
            return None;
        }
        let mut words: [Option<&str>; 4] = [None; 4];
        for (ours, theirs) in self.verdicts.iter().zip(&tomek.verdicts) {
            let status = Status::from_answer(&theirs.answer)?;
            let word = &mut words[status.index()];
            if ours.is_template() || word.is_some_and(|w| w != ours.answer) {
                return None;
            }
            *word = Some(&ours.answer);
        }
        let [Some(a), Some(b), Some(c), Some(d)] = words else {
            return None;
        };
        AnswerWords::new([a, b, c, d])
    }

    /// Whether some rule, or the input's filter, reads perfect play.
    pub fn needs_values(&self) -> bool {
        self.filter.needs_values() || self.verdicts.iter().any(|r| r.when.needs_values())
    }

    /// Whether some rule, or the input's filter, reads the distance to the end.
    pub fn needs_distance(&self) -> bool {
        self.filter.needs_distance() || self.verdicts.iter().any(|r| r.when.needs_distance())
    }

    /// Whether some rule, or the input's filter, reads the first forced win.
    pub fn needs_forced_win(&self) -> bool {
        let reads = |c: &Conditions| c.forced_win.is_some();
        reads(&self.filter) || self.verdicts.iter().any(|r| reads(&r.when))
    }

    /// A table of perfect play for this problem's questions.
    pub fn values(&self) -> Values {
        let mut v = Values::new();
        v.want_distance = self.needs_distance();
        v.want_forced_win = self.needs_forced_win();
        v
    }

    /// [`Problem::values`], filled for every reachable position at once (by the pass's
    /// backward values, [`pass::values_table`]) when a rule or the filter reads perfect play:
    /// for passes over the whole input space.
    pub fn values_for_all(&self) -> Values {
        if self.needs_values() {
            pass::values_table(self)
        } else {
            self.values()
        }
    }

    /// The facts of a position, perfect play included when a rule reads it.
    pub fn facts(&self, b: Board, values: &mut Values) -> Facts {
        self.facts_with(b, Checks::ALL, values)
    }

    /// [`Problem::facts`] with the rules of play held to `checks` only.
    pub fn facts_with(&self, b: Board, checks: Checks, values: &mut Values) -> Facts {
        values.want_distance |= self.needs_distance();
        values.want_forced_win |= self.needs_forced_win();
        let v = self.needs_values().then_some(values);
        facts::facts_with(&self.geometry, b, checks, v)
    }

    /// [`Problem::facts`] with reachability read from the set of reachable positions: for
    /// passes over many positions.
    pub fn facts_fast(&self, b: Board, values: &mut Values) -> Facts {
        let reachable = self.reachable().contains(b);
        values.want_distance |= self.needs_distance();
        values.want_forced_win |= self.needs_forced_win();
        let v = self.needs_values().then_some(values);
        facts::facts_given(&self.geometry, b, Checks::ALL, reachable, v)
    }

    /// The positions play reaches on this problem's board, found on first use.
    pub fn reachable(&self) -> &Reachable {
        self.reach
            .get_or_init(|| Reachable::explore(&self.geometry))
    }

    /// The input space by facts ([`pass::census`]), found on first use.
    pub fn census(&self) -> &pass::Census {
        self.census.get_or_init(|| pass::census(self))
    }

    /// The index of the verdict a position with these facts gets, if any rule matches.
    pub fn verdict_of(&self, f: &Facts) -> Option<usize> {
        self.verdicts.iter().position(|r| r.when.hold(f))
    }

    /// The verdict of a position of the input space.
    pub fn verdict(&self, b: Board, values: &mut Values) -> usize {
        let f = self.facts(b, values);
        self.verdict_of(&f)
            .expect("the rules cover the input space (checked when the description is read)")
    }

    /// The answer printed for a position with these facts, if some rule matches: the rule's
    /// text, or its template filled in.
    pub fn answer_of(&self, f: &Facts) -> Option<String> {
        self.verdict_of(f)
            .map(|v| self.verdicts[v].render(f, self.geometry.cols))
    }

    /// The index in [`Problem::answers`] of the answer printed for a position with these
    /// facts, if some rule matches: no text is made.
    pub fn answer_index(&self, f: &Facts) -> Option<usize> {
        let r = &self.verdicts[self.verdict_of(f)?];
        let find = |a: &str| self.answer_list.iter().position(|x| x == a);
        match (r.is_template(), f.forced_win) {
            (true, Some(s)) => find(&r.answer_at(s as u32, self.geometry.cols)),
            _ => find(&r.answer),
        }
    }

    /// The answer of a position of the input space.
    pub fn answer(&self, b: Board, values: &mut Values) -> String {
        let f = self.facts(b, values);
        self.answer_of(&f)
            .expect("the rules cover the input space (checked when the description is read)")
    }

    /// The distinct answers, in the order of their first rule; a template stands for its
    /// answer on every square, in reading order.
    pub fn answers(&self) -> Vec<&str> {
        self.answer_list.iter().map(String::as_str).collect()
    }

    /// Whether a board is in the input space: at most one joker where the board has one,
    /// reachable when only reachable positions are input, and the filter's facts.
    pub fn in_space(&self, b: Board) -> bool {
        self.in_space_with(b, &mut self.values())
    }

    /// [`Problem::in_space`] with perfect play from `values` when the filter reads it.
    pub fn in_space_with(&self, b: Board, values: &mut Values) -> bool {
        let base = match self.space {
            InputSpace::EveryGrid => true,
            InputSpace::Reachable => crate::tictactoe::reach::is_reachable(&self.geometry, b),
        };
        base && self.filtered_in(b, || self.filter_facts(b, values))
    }

    /// The facts the filter reads: perfect play only when it reads it, so that deciding
    /// whether a grid is input never costs a search the filter does not need.
    fn filter_facts(&self, b: Board, values: &mut Values) -> Facts {
        let v = self.filter.needs_values().then_some(values);
        facts::facts_with(&self.geometry, b, Checks::ALL, v)
    }

    /// Whether a board passes the minimum ply and the filter, the facts made on demand.
    fn filtered_in(&self, b: Board, facts: impl FnOnce() -> Facts) -> bool {
        b.ply() >= self.min_ply && (self.filter.is_empty() || self.filter.hold(&facts()))
    }

    /// Why a board of the base space is not in the input space, if it is not: the minimum
    /// ply or the filter, in the description's words.
    pub fn outside_because(&self, b: Board, values: &mut Values) -> Option<String> {
        if b.ply() < self.min_ply {
            return Some(format!(
                "{} stones, fewer than min_ply = {}",
                b.ply(),
                self.min_ply
            ));
        }
        if !self.filter.is_empty() && !self.filter.hold(&self.filter_facts(b, values)) {
            return Some(format!(
                "the input has only positions with {}",
                self.filter.describe()
            ));
        }
        None
    }

    /// Every position of the input space, in a fixed order: setup by setup (no joker, then
    /// the joker on each square), each grid read as a number in base 3 over the other squares
    /// from the first (empty 0, first player 1, second player 2).
    ///
    /// Reachable positions come from playing every game once ([`Problem::reachable`]), not
    /// from a check of every grid.
    pub fn positions(&self) -> Vec<Board> {
        let mut out = Vec::new();
        self.for_each_position(|b| out.push(b));
        out
    }

    /// Calls `f` on every position of the input space, in the order of
    /// [`Problem::positions`], without holding them all: every grid of a 4×4 board is 43
    /// million positions.
    pub fn for_each_position(&self, mut f: impl FnMut(Board)) {
        let mut values = if self.filter.needs_values() {
            self.values_for_all()
        } else {
            self.values()
        };
        let plain = self.min_ply == 0 && self.filter.is_empty();
        let mut keep = |b: Board| {
            let inside = plain
                || self.filtered_in(b, || {
                    let reachable = self.reachable().contains(b);
                    let v = self.filter.needs_values().then_some(&mut values);
                    facts::facts_given(&self.geometry, b, Checks::ALL, reachable, v)
                });
            if inside {
                f(b);
            }
        };
        match self.space {
            InputSpace::Reachable => self.reachable().for_each(&self.geometry, &mut keep),
            InputSpace::EveryGrid => self.for_each_grid(keep),
        }
    }

    /// Calls `f` on every grid over the symbols, in the order of [`Problem::positions`]: each
    /// setup's grids counted up in base 3, one square changed at a time as an odometer turns.
    pub fn for_each_grid(&self, mut f: impl FnMut(Board)) {
        let g = &self.geometry;
        for t in g.setups() {
            pass::count_up(Board::empty(t), &pass::free_squares(g.full(), t), &mut f);
        }
    }

    /// Checks that every rule matches some position of the input space and that every
    /// position matches some rule, by the facts of every position; returns how many
    /// positions the input space has.
    pub fn check_rules(&self) -> Result<u64, DescriptionError> {
        let loc = Locator::new(&self.origin, &self.text);
        let census = self.census();
        let mut used = vec![false; self.verdicts.len()];
        let mut uncovered = false;
        for (f, _) in &census.classes {
            match self.verdict_of(f) {
                Some(i) => used[i] = true,
                None => uncovered = true,
            }
        }
        if census.classes.is_empty() {
            return Err(loc.error(
                self.filter_span.unwrap_or(0),
                "no position is left in the input space: the filter leaves none",
            ));
        }
        if uncovered {
            let (b, f) = self.first_uncovered();
            return Err(self.uncovered(b, &f));
        }
        if let Some(i) = used.iter().position(|u| !u) {
            return Err(loc.error(
                self.verdict_spans[i],
                format!(
                    "no position of the input space gets the rule `{}` ({}): an earlier rule \
                     takes them all, or none has these facts",
                    self.verdicts[i].answer,
                    self.verdicts[i].when.describe()
                ),
            ));
        }
        Ok(census.positions())
    }

    /// The first position of the input space, in the order of [`Problem::positions`], that
    /// no rule matches, with its facts: for the error about it.
    fn first_uncovered(&self) -> (Board, Facts) {
        let g = &*self.geometry;
        pass::fold(
            self,
            || None,
            |first: &mut Option<(u64, Board, Facts)>, b, f| {
                if self.verdict_of(f).is_none() {
                    let key = facts::grid_index(g, b);
                    if first.is_none_or(|(k, _, _)| key < k) {
                        *first = Some((key, b, *f));
                    }
                }
            },
        )
        .into_iter()
        .flatten()
        .min_by_key(|u| u.0)
        .map(|(_, b, f)| (b, f))
        .expect("some position no rule matches")
    }

    /// The error for a position of the input space that no rule matches, at the last rule.
    pub fn uncovered(&self, b: Board, f: &Facts) -> DescriptionError {
        Locator::new(&self.origin, &self.text).error(
            self.verdict_spans.last().copied().unwrap_or(0),
            format!(
                "no rule matches the position {} ({}); add a rule for it",
                self.grid_text(b),
                rules::describe_facts(f)
            ),
        )
    }

    /// A board as the problem writes it on one line, rows separated by `/`.
    pub fn grid_text(&self, b: Board) -> String {
        let g = &self.geometry;
        let mut s = String::new();
        for r in 0..g.rows {
            if r > 0 {
                s.push('/');
            }
            for c in 0..g.cols {
                s.push(self.symbol(b, r * g.cols + c) as char);
            }
        }
        s
    }

    /// The symbol of square `i`.
    pub fn symbol(&self, b: Board, i: u32) -> u8 {
        let bit = 1u16 << i;
        if b.x & bit != 0 {
            self.symbols.first
        } else if b.o & bit != 0 {
            self.symbols.second
        } else if b.t & bit != 0 {
            self.symbols.joker.unwrap_or(b'?')
        } else {
            self.symbols.empty
        }
    }
}
