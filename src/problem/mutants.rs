//! The catalogue of wrong solutions a problem's test data must catch, derived from its
//! description, and the killer set: a smallest set of positions of the input space on which
//! every wrong solution that can fail does fail, and every combination of the facts a solver
//! branches on appears (see [`Cell`]).
//!
//! The catalogue is systematic: it follows the description's board, rules and answers rather
//! than a list of bugs seen. Each wrong solution is the right judgement with one bug:
//! - a line of the board ignored, each on its own, and each class of lines (rows, columns,
//!   diagonals, anti-diagonals);
//! - each pair of lines one move can complete together taken for an impossible grid;
//! - a win test that takes an empty line, or a full line of mixed symbols, for a win;
//! - each comparison of the stone counts off by one or turned around, the checks of play left
//!   out one at a time;
//! - each pair of adjacent verdict rules swapped, a full board called before the lines;
//! - the two players' symbols swapped, or either misread as an empty square;
//! - the answer's words in the other case or run together, and the answer repeated or left out
//!   on each feasible combination of the facts the rules read.
//!
//! A mutant computes the facts of the position as its bug would, then applies the problem's
//! own rules (or its own order of them); only mutants that fail somewhere in the input space
//! count ([`KillerSet::killable`]).
//!
//! Mutants catch bugs someone thought of; coverage catches the rest. The killer set also holds
//! a position of every feasible [`Cell`]: who has a line and of what kind, the stone difference,
//! whether the board is full, and the answer. A solver whose bug no mutant names still meets a
//! position of every shape its branches can tell apart.

use super::Problem;
use super::facts::{Facts, Line, Next, Values, Winner};
use super::guards::Guards;
pub use crate::cover::Bits;
use crate::cover::smallest_cover;
use crate::outcome::Player;
use crate::tictactoe::board::Board;
use crate::tictactoe::explain::Outcome;
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::symmetry::{Perm, dihedral};
use hashbrown::HashMap;
use rayon::prelude::*;
use smallvec::SmallVec;

/// A class of lines, by direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Along a row.
    Row,
    /// Down a column.
    Column,
    /// Down and to the right.
    Diagonal,
    /// Down and to the left.
    AntiDiagonal,
}

impl Class {
    /// Every class, in the order of [`Geometry::DIRECTIONS`].
    pub const ALL: [Class; 4] = [
        Class::Row,
        Class::Column,
        Class::Diagonal,
        Class::AntiDiagonal,
    ];

    /// The class's name in ids: `row`, `column`, `diagonal`, `anti-diagonal`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Row => "row",
            Class::Column => "column",
            Class::Diagonal => "diagonal",
            Class::AntiDiagonal => "anti-diagonal",
        }
    }

    /// The class of a line of `g`, from its first two squares (a line of one square is a row).
    pub fn of(g: &Geometry, line: u16) -> Class {
        let a = line.trailing_zeros();
        let rest = line & !(1 << a);
        if rest == 0 {
            return Class::Row;
        }
        let b = rest.trailing_zeros();
        let (dr, dc) = (
            (b / g.cols) as i32 - (a / g.cols) as i32,
            (b % g.cols) as i32 - (a % g.cols) as i32,
        );
        match (dr, dc.signum()) {
            (0, _) => Class::Row,
            (_, 0) => Class::Column,
            (_, 1) => Class::Diagonal,
            _ => Class::AntiDiagonal,
        }
    }
}

/// How a wrong solution compares the stone counts (`x` the first player's, `o` the second's).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Counts {
    /// `x - o` is 0 or 1: right.
    Right,
    /// Never compared.
    Unchecked,
    /// `x - o <= 2`: the upper bound off by one.
    UpperLoose,
    /// `x - o >= -1`: the lower bound off by one (`abs(x - o) <= 1`).
    LowerLoose,
    /// `x - o < 1`: the upper bound one short, so only `x == o` passes.
    UpperTight,
    /// `x - o > 0`... written `x > o`, so only `x == o + 1` passes.
    LowerTight,
}

impl Counts {
    fn ok(self, x: u32, o: u32) -> bool {
        let d = x as i64 - o as i64;
        match self {
            Counts::Right => d == 0 || d == 1,
            Counts::Unchecked => true,
            Counts::UpperLoose => (0..=2).contains(&d),
            Counts::LowerLoose => (-1..=1).contains(&d),
            Counts::UpperTight => d == 0,
            Counts::LowerTight => d == 1,
        }
    }
}

/// One wrong solution: the right judgement with one bug.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mutant {
    /// Never checks that both players have a line (reads such a grid as the first's win).
    NoBothCheck,
    /// Accepts a move after a win: no check that some stone of the winner lies on all its
    /// lines.
    MoveAfterWin,
    /// Accepts a line by the player who did not move last.
    WinnerNotLast,
    /// The winner's turn checked the wrong way round: the first player's line wants equal
    /// counts, the second's one stone fewer.
    WinnerLastSwapped,
    /// Compares the stone counts as [`Counts`] says (never [`Counts::Right`]).
    Counts(Counts),
    /// Checks the counts the wrong way round: the second player taken to move first.
    CountsSwapped,
    /// A player with two lines at once taken for an impossible grid.
    TwoLinesRejected,
    /// A player with two lines of one shape that one move can complete together (by index into
    /// [`Catalogue::shapes`]) taken for an impossible grid: the double line rejected for some
    /// shapes of the pair only.
    PairRejected(u8),
    /// One line of the board (by index) never checked.
    LineIgnored(u8),
    /// A whole class of lines never checked.
    ClassIgnored(Class),
    /// One line (by index) never checked for one player: the other's lines read right.
    LineIgnoredBy(u8, Player),
    /// A whole class of lines never checked for one player.
    ClassIgnoredBy(Class, Player),
    /// A set of squares that is not a line read as one (by index into [`Catalogue::near`]):
    /// a line typed with one square moved, or a row wrapped at the board's edge, or a slice of
    /// the flattened board.
    NearLine(u16),
    /// Both diagonal classes never checked.
    NoDiagonals,
    /// No line ever checked: only the counts (and the full board) decide.
    NoLines,
    /// A line of empty squares counts as the first player's (the test `a == b && b == c`
    /// without looking at what `a` is).
    EmptyLineWins,
    /// A line with no empty square counts for the player on its first square, whatever the
    /// others hold.
    MixedLineWins,
    /// A full board read as a draw before looking for a line.
    FullBeforeLine,
    /// The joker counted for the first player only: the second player's lines read without
    /// it.
    JokerOneSide,
    /// Verdict rules `k` and `k + 1` tried in the other order.
    RulesSwapped(u8),
    /// The two players' symbols swapped.
    PlayersSwapped,
    /// The first player's symbol not recognised (`x` for `X`): its stones read as empty.
    FirstSymbolMisread,
    /// The second player's symbol not recognised (`O` for `0`, or the reverse): its stones
    /// read as empty squares.
    SecondSymbolMisread,
    /// The answer's letters in the other case.
    AnswerCase,
    /// The answer's words run together, without their spaces.
    AnswerSpacing,
    /// The answer printed twice on the positions of one combination of the facts the rules
    /// read (by index into [`Catalogue::combinations`]).
    Repeated(u16),
    /// No answer printed on the positions of one combination of the facts the rules read.
    Omitted(u16),
}

impl Mutant {
    /// Whether the mutant is one of the many that read a line of one player or a near line:
    /// under perfect play they are read in the position's own lines, not as games of their
    /// own, and the killer set's candidates are not kept by them.
    pub fn is_one_of_many(self) -> bool {
        matches!(
            self,
            Mutant::LineIgnoredBy(..) | Mutant::ClassIgnoredBy(..) | Mutant::NearLine(_)
        )
    }

    /// The mutants written out as wrong reference programs in the problem packages, with
    /// their ids there.
    pub const CLASSIC: [Mutant; 13] = [
        Mutant::NoBothCheck,
        Mutant::MoveAfterWin,
        Mutant::WinnerNotLast,
        Mutant::Counts(Counts::Unchecked),
        Mutant::CountsSwapped,
        Mutant::TwoLinesRejected,
        Mutant::NoDiagonals,
        Mutant::ClassIgnored(Class::AntiDiagonal),
        Mutant::FullBeforeLine,
        Mutant::JokerOneSide,
        Mutant::SecondSymbolMisread,
        Mutant::AnswerCase,
        Mutant::AnswerSpacing,
    ];
}

/// How a wrong solution reads a board: which lines it looks at and how, and which checks of
/// play it makes. [`Reading::RIGHT`] is the right solution.
#[derive(Copy, Clone, Debug)]
struct Reading {
    /// The lines looked at, bits over the geometry's lines.
    lines: u64,
    /// The lines looked at for the first player's stones, and for the second's.
    first_lines: u64,
    second_lines: u64,
    /// A set of squares read as the line of that bit: a real line's bit when the line is
    /// typed wrong, the bit after the last line when the set is read as one more line.
    near: Option<(u8, u16)>,
    empty_wins: bool,
    mixed_wins: bool,
    joker_both: bool,
    counts: Counts,
    both: bool,
    winner_last: bool,
    winner_last_swapped: bool,
    winning_move: bool,
    two_rejected: bool,
    pair_rejected: Option<u8>,
    full_first: bool,
}

impl Reading {
    const RIGHT: Reading = Reading {
        lines: u64::MAX,
        first_lines: u64::MAX,
        second_lines: u64::MAX,
        near: None,
        empty_wins: false,
        mixed_wins: false,
        joker_both: true,
        counts: Counts::Right,
        both: true,
        winner_last: true,
        winner_last_swapped: false,
        winning_move: true,
        two_rejected: false,
        pair_rejected: None,
        full_first: false,
    };
}

/// A combination of facts the killer set must show: who has a line and of what kind, the
/// stone difference, whether the board is full, and the answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Who has a line and of which kind: `none`, `first row`, `second two`, `both`, …
    pub line: LineKind,
    /// The first player's stones less the second's, clamped to −1 and 2: −1 stands for −1 or
    /// less, 2 for 2 or more.
    pub difference: i8,
    /// Whether the board is full.
    pub full: bool,
    /// The answer, by index into [`Problem::answers`].
    pub answer: u8,
}

/// Who has a line, and of which kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LineKind {
    /// Nobody.
    None,
    /// One player has exactly one line, of this class (anti-diagonals count as diagonals).
    One(Player, Class),
    /// One player has two lines or more.
    Two(Player),
    /// Both players.
    Both,
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            LineKind::None => write!(f, "no line")?,
            LineKind::One(p, c) => write!(f, "{} has a {}", who(p), c.name())?,
            LineKind::Two(p) => write!(f, "{} has two lines", who(p))?,
            LineKind::Both => write!(f, "both have a line")?,
        }
        let d = match self.difference {
            -1 => "x-o<=-1".to_string(),
            2 => "x-o>=2".to_string(),
            d => format!("x-o={d}"),
        };
        write!(f, ", {d}, {}", if self.full { "full" } else { "not full" })
    }
}

/// A set of squares a wrong solution reads as a line though it is none.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Near {
    /// The squares.
    pub squares: u16,
    /// The line (by index) the set stands for when it is that line typed with one square
    /// moved; `None` when it is read beside the real lines.
    pub replaces: Option<u8>,
    /// How the set comes about.
    pub kind: NearKind,
}

/// How a set of squares that is not a line comes to be read as one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NearKind {
    /// A line with one square moved to a square next to it (in place of the line).
    Moved,
    /// A row or column run past the board's edge and on from the other side.
    Wrapped,
    /// A run of squares the same step apart in the flattened board (a step of 1 across the
    /// end of a row, of `cols ± 1` across a side) that is no line.
    Slice,
}

/// The sets of squares of `g` that are no line but that a solver may read as one, each once:
/// every line with one square moved to a square next to it (kings' moves), one of each shape
/// up to the board's symmetries; every row and column that wraps, and every slice of the
/// flattened board.
fn near_lines(g: &Geometry) -> Vec<Near> {
    let (rows, cols, k) = (g.rows as i32, g.cols as i32, g.line as i32);
    let cells = rows * cols;
    let real = |m: u16| g.lines.contains(&m);
    let n = g.lines.len().min(64);
    let symmetries = dihedral(g);
    let mut out: Vec<Near> = Vec::new();
    for (i, &l) in g.lines.iter().enumerate().take(64) {
        for s in 0..cells {
            if l >> s & 1 == 0 {
                continue;
            }
            let (r, c) = (s / cols, s % cols);
            for (dr, dc) in [
                (-1, -1),
                (-1, 0),
                (-1, 1),
                (0, -1),
                (0, 1),
                (1, -1),
                (1, 0),
                (1, 1),
            ] {
                let (r2, c2) = (r + dr, c + dc);
                if !(0..rows).contains(&r2) || !(0..cols).contains(&c2) {
                    continue;
                }
                let t = r2 * cols + c2;
                if l >> t & 1 == 1 {
                    continue;
                }
                let m = (l & !(1 << s)) | 1 << t;
                // One typo of each shape: the pair of line and set that is the smallest of
                // its images under the board's symmetries.
                let smallest = symmetries
                    .iter()
                    .all(|t| (t.apply(m), t.apply(l)) >= (m, l));
                if !smallest {
                    continue;
                }
                let near = Near {
                    squares: m,
                    replaces: Some(i as u8),
                    kind: NearKind::Moved,
                };
                if !real(m) && !out.contains(&near) {
                    out.push(near);
                }
            }
        }
    }
    // The sets read beside the real lines take the bit after the last line.
    if n >= 64 {
        return out;
    }
    let extra = |m: u16, kind: NearKind, out: &mut Vec<Near>| {
        if !real(m) && !out.iter().any(|x| x.replaces.is_none() && x.squares == m) {
            out.push(Near {
                squares: m,
                replaces: None,
                kind,
            });
        }
    };
    for r in 0..rows {
        for c0 in 0..cols {
            if k < cols && c0 + k > cols {
                let m = (0..k).fold(0u16, |m, j| m | 1 << (r * cols + (c0 + j) % cols));
                extra(m, NearKind::Wrapped, &mut out);
            }
        }
    }
    for c in 0..cols {
        for r0 in 0..rows {
            if k < rows && r0 + k > rows {
                let m = (0..k).fold(0u16, |m, j| m | 1 << (((r0 + j) % rows) * cols + c));
                extra(m, NearKind::Wrapped, &mut out);
            }
        }
    }
    let mut steps = vec![1, cols + 1];
    if cols > 2 {
        steps.push(cols - 1);
    }
    for step in steps {
        for a in 0..cells {
            if a + (k - 1) * step >= cells {
                break;
            }
            let m = (0..k).fold(0u16, |m, j| m | 1 << (a + j * step));
            extra(m, NearKind::Slice, &mut out);
        }
    }
    out
}

/// A player in names and words: `first` or `second`.
fn who(p: Player) -> &'static str {
    if p == Player::X { "first" } else { "second" }
}

/// The name of square `s` of `g`: its column's letter and its row's number from the top,
/// `a1` the top left.
fn square_name(g: &Geometry, s: u32) -> String {
    format!("{}{}", (b'a' + (s % g.cols) as u8) as char, s / g.cols + 1)
}

/// The wrong solutions of one problem, ready to answer positions.
#[derive(Clone)]
pub struct Catalogue<'p> {
    problem: &'p Problem,
    /// Every mutant derived from the description, in catalogue order.
    pub mutants: Vec<Mutant>,
    /// The combinations of the facts the rules read that some position has, in input-space
    /// order: what [`Mutant::Repeated`] and [`Mutant::Omitted`] index.
    pub combinations: Vec<Facts>,
    /// Each combination's part of its mutants' names, from its facts.
    slugs: Vec<String>,
    /// The shapes of pairs of lines that share a square: the classes of the two lines and
    /// the squares they share, up to the board's symmetries (the smallest image of the shared
    /// squares stands for them). What [`Mutant::PairRejected`] indexes.
    pub shapes: Vec<(Class, Class, u16)>,
    /// The pairs of lines (by index) of each shape.
    pairs: Vec<Vec<(u8, u8)>>,
    /// The sets of squares that are no line read as one: what [`Mutant::NearLine`] indexes.
    pub near: Vec<Near>,
    classes: Vec<Class>,
    /// The board without each line (when perfect play is read), by line index then class.
    geometries: HashMap<u64, (Geometry, Values)>,
    values: Values,
    /// Whether the catalogue answers one position ([`Catalogue::at`]): its tables of perfect
    /// play are then sparse.
    sparse: bool,
    /// Whether the boards without some lines get their perfect play valued at once for every
    /// position (a survey asks about every one), or searched as asked (the killer set asks
    /// about a few candidates).
    tables: bool,
    /// The lines (bits over the geometry's lines) each mask of squares holds.
    lines_of: Vec<u64>,
    /// The lines each mutant of [`Catalogue::mutants`] ignores (bits over the geometry's lines,
    /// for one player or both, or the bit a [`Mutant::NearLine`] reads in another way; 0 for a
    /// mutant that reads them all).
    dropped: Vec<u64>,
    /// The index in [`Catalogue::mutants`] of each line's [`Mutant::LineIgnored`].
    line_mutants: Vec<usize>,
    /// The right facts of the last board asked about: most mutants start from them.
    right: Option<(Board, Facts)>,
    /// The right facts of boards with one player's stones only, by those stones and whose
    /// they are, as a solver that misreads the other symbol sees every position: few
    /// boards, met again and again. Allocated on first use.
    one_sided: Vec<Option<(Board, Facts)>>,
    /// The mutants sorted by how [`Catalogue::kills`] finds where they may fail.
    gates: Gates,
    /// Perfect play on the whole board of the last board and mover asked about.
    whole_board_play: Option<(Board, Player, Play)>,
    /// What of perfect play the rules read, asked of the problem once.
    needs: Needs,
    answers: Vec<String>,
}

/// Perfect play on a board: the value for the side to move, the first forced win's square and
/// the distance to the end (the last two when the rules read them).
type Play = (Outcome, Option<u8>, Option<u32>);

/// What of perfect play a problem's rules (or filter) read.
#[derive(Clone, Copy)]
struct Needs {
    /// Whether a rule reads whether a move wins at once: a solver's bug in a line then shows
    /// on positions one move short of it.
    wins_now: bool,
    values: bool,
    distance: bool,
    forced_win: bool,
}

/// Swaps the players of a board: the board as a solver that has them the wrong way round
/// sees it.
fn swapped(b: Board) -> Board {
    Board {
        x: b.o,
        o: b.x,
        t: b.t,
    }
}

fn swap_facts(mut f: Facts) -> Facts {
    f.line = match f.line {
        Line::First => Line::Second,
        Line::Second => Line::First,
        l => l,
    };
    f.next = match f.next {
        Next::First => Next::Second,
        Next::Second => Next::First,
        n => n,
    };
    f.winner = f.winner.map(|w| match w {
        Winner::First => Winner::Second,
        Winner::Second => Winner::First,
        w => w,
    });
    f
}

/// The facts the rules of `p` read, the others set to one value: what tells apart the
/// positions on which a solver's branches can differ.
fn combination(p: &Problem, f: &Facts) -> Facts {
    let mut read = Facts {
        reachable: false,
        line: Line::None,
        full: false,
        next: Next::First,
        over: false,
        ply: 0,
        wins_now: false,
        value: None,
        winner: None,
        forced_win: None,
        distance: None,
    };
    for r in &p.verdicts {
        let w = &r.when;
        if w.reachable.is_some() {
            read.reachable = f.reachable;
        }
        if w.line.is_some() {
            read.line = f.line;
        }
        if w.full.is_some() {
            read.full = f.full;
        }
        if w.next.is_some() {
            read.next = f.next;
        }
        if w.over.is_some() {
            read.over = f.over;
        }
        if w.ply.is_some() {
            read.ply = f.ply;
        }
        if w.value.is_some() {
            read.value = f.value;
        }
        if w.winner.is_some() {
            read.winner = f.winner;
        }
        if w.wins_now.is_some() {
            read.wins_now = f.wins_now;
        }
        if w.forced_win.is_some() {
            read.value = f.value;
            read.forced_win = f.forced_win;
        }
        if w.distance.is_some() {
            read.distance = f.distance;
        }
    }
    read
}

impl<'p> Catalogue<'p> {
    /// The catalogue of `problem`: every mutant its description gives, and the combinations
    /// of facts its rules read (one pass over the input space).
    pub fn new(problem: &'p Problem) -> Catalogue<'p> {
        let mut cat = Catalogue::new_empty(problem);
        let mut seen = hashbrown::HashSet::new();
        let mut values = problem.values_for_all();
        for b in problem.positions() {
            let f = problem.facts_fast(b, &mut values);
            let c = combination(problem, &f);
            if seen.insert(c) {
                cat.combinations.push(c);
            }
        }
        cat.values = values;
        cat.finish()
    }

    /// The catalogue's shapes and classes, without combinations or mutants yet.
    fn new_empty(problem: &'p Problem) -> Catalogue<'p> {
        let g = &problem.geometry;
        let classes: Vec<Class> = g.lines.iter().map(|&l| Class::of(g, l)).collect();
        let symmetries = dihedral(g);
        let mut shapes: Vec<(Class, Class, u16)> = Vec::new();
        let mut pairs: Vec<Vec<(u8, u8)>> = Vec::new();
        let n = g.lines.len().min(64);
        for i in 0..n {
            for j in i + 1..n {
                let shared = g.lines[i] & g.lines[j];
                if shared == 0 {
                    continue;
                }
                let (a, b) = (classes[i].min(classes[j]), classes[i].max(classes[j]));
                let shape = (a, b, smallest_image(&symmetries, shared));
                match shapes.iter().position(|&s| s == shape) {
                    Some(k) => pairs[k].push((i as u8, j as u8)),
                    None => {
                        shapes.push(shape);
                        pairs.push(vec![(i as u8, j as u8)]);
                    }
                }
            }
        }
        Catalogue {
            problem,
            mutants: Vec::new(),
            combinations: Vec::new(),
            slugs: Vec::new(),
            shapes,
            pairs,
            near: near_lines(g),
            classes,
            geometries: HashMap::new(),
            values: problem.values(),
            sparse: false,
            tables: true,
            lines_of: lines_of(g),
            dropped: Vec::new(),
            line_mutants: Vec::new(),
            right: None,
            one_sided: Vec::new(),
            whole_board_play: None,
            gates: Gates::default(),
            needs: Needs {
                wins_now: problem.verdicts.iter().any(|r| r.when.wins_now.is_some()),
                values: problem.needs_values(),
                distance: problem.needs_distance(),
                forced_win: problem.needs_forced_win(),
            },
            answers: problem.answers().iter().map(|s| s.to_string()).collect(),
        }
    }

    /// The catalogue as it bears on the one position `b`: every mutant, those that print an
    /// answer twice or not at all only for `b`'s combination of facts. Nothing is computed
    /// over the input space, so that one position is explained in the time of its own
    /// searches. Mutant names are those of [`Catalogue::new`].
    pub fn at(problem: &'p Problem, b: Board) -> Catalogue<'p> {
        let mut cat = Catalogue::new_empty(problem);
        cat.sparse = true;
        cat.values = Values::sparse();
        cat.values.want_distance = problem.needs_distance();
        cat.values.want_forced_win = problem.needs_forced_win();
        let f = problem.facts(b, &mut cat.values);
        cat.combinations.push(combination(problem, &f));
        cat.finish()
    }

    /// The names of the combinations, then the mutants.
    fn finish(mut self) -> Catalogue<'p> {
        let mut taken = hashbrown::HashSet::new();
        self.slugs = (0..self.combinations.len())
            .map(|k| {
                let base = self.slug(k);
                let mut name = base.clone();
                let mut n = 1;
                while !taken.insert(name.clone()) {
                    n += 1;
                    name = format!("{base}-{n}");
                }
                name
            })
            .collect();
        self.mutants = self.derive();
        self.dropped = self.mutants.iter().map(|&m| self.ignored(m)).collect();
        for (i, &m) in self.mutants.iter().enumerate() {
            let seen = match m {
                Mutant::LineIgnored(_)
                | Mutant::ClassIgnored(_)
                | Mutant::NoDiagonals
                | Mutant::NoLines => Some(Seen::Unsettled),
                Mutant::LineIgnoredBy(_, p) | Mutant::ClassIgnoredBy(_, p) => Some(Seen::By(p)),
                _ => None,
            };
            match (seen, m) {
                (Some(seen), _) => self.gates.lines.push((i, self.dropped[i], seen)),
                (None, Mutant::NearLine(k)) => self.gates.near.push((i, self.near[k as usize])),
                _ => self.gates.rest.push(i),
            }
        }
        if !self.needs.wins_now {
            self.gates.held = NearIndex::new(&self.gates.near, self.problem.geometry.lines.len());
        }
        self.line_mutants = (0..self.problem.geometry.lines.len().min(64))
            .map(|i| {
                let m = Mutant::LineIgnored(i as u8);
                self.mutants
                    .iter()
                    .position(|&x| x == m)
                    .expect("every line's mutant")
            })
            .collect();
        self
    }

    /// The lines mutant `m` never checks, bits over the geometry's lines.
    fn ignored(&self, m: Mutant) -> u64 {
        match m {
            Mutant::LineIgnored(i) => 1 << i,
            Mutant::ClassIgnored(c) => self.class_lines(|x| x == c),
            Mutant::NoDiagonals => {
                self.class_lines(|x| matches!(x, Class::Diagonal | Class::AntiDiagonal))
            }
            Mutant::NoLines => self.class_lines(|_| true),
            Mutant::LineIgnoredBy(i, _) => 1 << i,
            Mutant::ClassIgnoredBy(c, _) => self.class_lines(|x| x == c),
            Mutant::NearLine(k) => {
                let near = self.near[k as usize];
                1 << near
                    .replaces
                    .map_or(self.problem.geometry.lines.len(), usize::from)
            }
            _ => 0,
        }
    }

    /// Combination `k` as part of a file name: the facts the rules read with their values,
    /// a true fact by its name and a false one as `not-` it: `reachable-line-first-not-full`.
    fn slug(&self, k: usize) -> String {
        let words: Vec<String> = self
            .describe_combination(k)
            .split(", ")
            .filter(|part| !part.is_empty())
            .map(|part| {
                let (name, value) = part.split_once(" = ").unwrap_or((part, ""));
                match value {
                    "true" => name.to_string(),
                    "false" => format!("not-{name}"),
                    v => format!("{name}-{}", v.trim_matches('"')),
                }
            })
            .collect();
        let mut out = String::new();
        for ch in words.join("-").chars() {
            if ch.is_ascii_alphanumeric() {
                out.push(ch.to_ascii_lowercase());
            } else if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
        }
        let out = out.trim_end_matches('-');
        if out.is_empty() {
            "always".into()
        } else {
            out.into()
        }
    }

    /// Every mutant the description gives, in catalogue order.
    fn derive(&self) -> Vec<Mutant> {
        let g = &self.problem.geometry;
        let mut v = vec![
            Mutant::NoBothCheck,
            Mutant::MoveAfterWin,
            Mutant::WinnerNotLast,
            Mutant::WinnerLastSwapped,
            Mutant::Counts(Counts::Unchecked),
            Mutant::Counts(Counts::UpperLoose),
            Mutant::Counts(Counts::LowerLoose),
            Mutant::Counts(Counts::UpperTight),
            Mutant::Counts(Counts::LowerTight),
            Mutant::CountsSwapped,
            Mutant::TwoLinesRejected,
        ];
        let n = g.lines.len().min(64);
        v.extend((0..self.shapes.len().min(256)).map(|k| Mutant::PairRejected(k as u8)));
        v.extend((0..n).map(|i| Mutant::LineIgnored(i as u8)));
        // A class of one line is that line's mutant already.
        let classes: Vec<Class> = Class::ALL
            .into_iter()
            .filter(|&c| self.classes.iter().filter(|&&x| x == c).count() > 1)
            .collect();
        v.extend(classes.iter().map(|&c| Mutant::ClassIgnored(c)));
        for p in [Player::X, Player::O] {
            v.extend((0..n).map(|i| Mutant::LineIgnoredBy(i as u8, p)));
            v.extend(classes.iter().map(|&c| Mutant::ClassIgnoredBy(c, p)));
        }
        v.extend((0..self.near.len().min(u16::MAX as usize)).map(|k| Mutant::NearLine(k as u16)));
        v.extend([
            Mutant::NoDiagonals,
            Mutant::NoLines,
            Mutant::EmptyLineWins,
            Mutant::MixedLineWins,
            Mutant::FullBeforeLine,
        ]);
        if g.joker {
            v.push(Mutant::JokerOneSide);
        }
        v.extend(
            (0..self.problem.verdicts.len().saturating_sub(1))
                .map(|k| Mutant::RulesSwapped(k as u8)),
        );
        v.extend([
            Mutant::PlayersSwapped,
            Mutant::FirstSymbolMisread,
            Mutant::SecondSymbolMisread,
            Mutant::AnswerCase,
            Mutant::AnswerSpacing,
        ]);
        let k = self.combinations.len().min(u16::MAX as usize);
        v.extend((0..k).map(|i| Mutant::Repeated(i as u16)));
        v.extend((0..k).map(|i| Mutant::Omitted(i as u16)));
        v
    }

    /// The names of a set of squares, in board order, joined by `sep`.
    fn squares_named(&self, squares: u16, sep: &str) -> String {
        let g = &self.problem.geometry;
        (0..g.rows * g.cols)
            .filter(|&s| squares >> s & 1 == 1)
            .map(|s| square_name(g, s))
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// The name of line `i`: `row-2`, `anti-diagonal-1` (numbered from 1 within its class).
    pub fn line_name(&self, i: usize) -> String {
        let c = self.classes[i];
        let k = self.classes[..i].iter().filter(|&&x| x == c).count() + 1;
        format!("{}-{k}", c.name())
    }

    /// A short name of a mutant, unique within the catalogue.
    pub fn id(&self, m: Mutant) -> String {
        match m {
            Mutant::NoBothCheck => "no-both-check".into(),
            Mutant::MoveAfterWin => "move-after-win".into(),
            Mutant::WinnerNotLast => "winner-not-last".into(),
            Mutant::WinnerLastSwapped => "winner-last-swapped".into(),
            Mutant::Counts(Counts::Unchecked) | Mutant::Counts(Counts::Right) => {
                "no-count-check".into()
            }
            Mutant::Counts(Counts::UpperLoose) => "count-upper-loose".into(),
            Mutant::Counts(Counts::LowerLoose) => "count-lower-loose".into(),
            Mutant::Counts(Counts::UpperTight) => "count-upper-tight".into(),
            Mutant::Counts(Counts::LowerTight) => "count-lower-tight".into(),
            Mutant::CountsSwapped => "counts-swapped".into(),
            Mutant::TwoLinesRejected => "two-lines-rejected".into(),
            Mutant::PairRejected(k) => {
                let (a, b, _) = self.shapes[k as usize];
                let (i, j) = self.pairs[k as usize][0];
                let same = self
                    .shapes
                    .iter()
                    .take(k as usize)
                    .filter(|s| (s.0, s.1) == (a, b))
                    .count();
                let _ = (i, j);
                format!("pair-rejected-{}-{}-{}", a.name(), b.name(), same + 1)
            }
            Mutant::LineIgnored(i) => format!("no-{}", self.line_name(i as usize)),
            Mutant::ClassIgnored(Class::AntiDiagonal) => "no-anti-diagonals".into(),
            Mutant::ClassIgnored(Class::Diagonal) => "no-main-diagonals".into(),
            Mutant::ClassIgnored(c) => format!("no-{}s", c.name()),
            Mutant::LineIgnoredBy(i, p) => {
                format!("no-{}-for-{}", self.line_name(i as usize), who(p))
            }
            Mutant::ClassIgnoredBy(c, p) => {
                let class = match c {
                    Class::AntiDiagonal => "anti-diagonals".to_string(),
                    Class::Diagonal => "main-diagonals".to_string(),
                    c => format!("{}s", c.name()),
                };
                format!("no-{class}-for-{}", who(p))
            }
            Mutant::NearLine(k) => {
                let near = self.near[k as usize];
                match near.replaces {
                    Some(i) => {
                        let l = self.problem.geometry.lines[i as usize];
                        let g = &self.problem.geometry;
                        format!(
                            "moved-{}-{}-to-{}",
                            self.line_name(i as usize),
                            square_name(g, (l & !near.squares).trailing_zeros()),
                            square_name(g, (near.squares & !l).trailing_zeros())
                        )
                    }
                    None => {
                        let kind = if near.kind == NearKind::Wrapped {
                            "wrapped"
                        } else {
                            "slice"
                        };
                        format!("{kind}-{}", self.squares_named(near.squares, "-"))
                    }
                }
            }
            Mutant::NoDiagonals => "no-diagonals".into(),
            Mutant::NoLines => "no-lines".into(),
            Mutant::EmptyLineWins => "empty-line-wins".into(),
            Mutant::MixedLineWins => "mixed-line-wins".into(),
            Mutant::FullBeforeLine => "full-before-line".into(),
            Mutant::JokerOneSide => "joker-one-side".into(),
            Mutant::RulesSwapped(k) => format!("rules-{}-{}-swapped", k + 1, k + 2),
            Mutant::PlayersSwapped => "players-swapped".into(),
            Mutant::FirstSymbolMisread => "first-symbol-misread".into(),
            Mutant::SecondSymbolMisread => "second-symbol-misread".into(),
            Mutant::AnswerCase => "answer-case".into(),
            Mutant::AnswerSpacing => "answer-spacing".into(),
            Mutant::Repeated(k) => format!("repeated-{}", self.slugs[k as usize]),
            Mutant::Omitted(k) => format!("omitted-{}", self.slugs[k as usize]),
        }
    }

    /// The bug in words.
    pub fn description(&self, m: Mutant) -> String {
        let p = self.problem;
        match m {
            Mutant::NoBothCheck => "no check that both players have a line".into(),
            Mutant::MoveAfterWin => "a move after a win accepted".into(),
            Mutant::WinnerNotLast => "a line by the player who did not move last accepted".into(),
            Mutant::WinnerLastSwapped => {
                "the winner's turn checked the wrong way round (first's line with equal counts)"
                    .into()
            }
            Mutant::Counts(Counts::Unchecked) | Mutant::Counts(Counts::Right) => {
                "the stone counts never checked".into()
            }
            Mutant::Counts(Counts::UpperLoose) => "counts checked as x-o <= 2 (off by one)".into(),
            Mutant::Counts(Counts::LowerLoose) => {
                "counts checked as |x-o| <= 1 (off by one)".into()
            }
            Mutant::Counts(Counts::UpperTight) => "counts checked as x-o < 1 (off by one)".into(),
            Mutant::Counts(Counts::LowerTight) => "counts checked as x > o (off by one)".into(),
            Mutant::CountsSwapped => "the players' counts checked the wrong way round".into(),
            Mutant::TwoLinesRejected => {
                "a player with two lines at once taken as impossible".into()
            }
            Mutant::PairRejected(k) => {
                let names: Vec<String> = self.pairs[k as usize]
                    .iter()
                    .map(|&(i, j)| {
                        format!(
                            "{}+{}",
                            self.line_name(i as usize),
                            self.line_name(j as usize)
                        )
                    })
                    .collect();
                format!(
                    "a player with two lines of one shape taken as impossible ({})",
                    names.join(", ")
                )
            }
            Mutant::LineIgnored(i) => format!("{} never checked", self.line_name(i as usize)),
            Mutant::ClassIgnored(c) => format!("{}s ignored", c.name()),
            Mutant::LineIgnoredBy(i, p) => format!(
                "{} never checked for the {} player",
                self.line_name(i as usize),
                who(p)
            ),
            Mutant::ClassIgnoredBy(c, p) => {
                format!("{}s ignored for the {} player", c.name(), who(p))
            }
            Mutant::NearLine(k) => {
                let near = self.near[k as usize];
                let g = &p.geometry;
                match near.replaces {
                    Some(i) => {
                        let l = g.lines[i as usize];
                        format!(
                            "{} read with {} in place of {}",
                            self.line_name(i as usize),
                            square_name(g, (near.squares & !l).trailing_zeros()),
                            square_name(g, (l & !near.squares).trailing_zeros())
                        )
                    }
                    None => format!(
                        "{} read as a line ({})",
                        self.squares_named(near.squares, " "),
                        if near.kind == NearKind::Wrapped {
                            "a row or column wrapped at the board's edge"
                        } else {
                            "a slice of the flattened board"
                        }
                    ),
                }
            }
            Mutant::NoDiagonals => "diagonals ignored".into(),
            Mutant::NoLines => "no line checked, only the counts".into(),
            Mutant::EmptyLineWins => "a line of empty squares taken for a win".into(),
            Mutant::MixedLineWins => "a line of mixed symbols taken for a win".into(),
            Mutant::FullBeforeLine => {
                "a full board taken for a draw before looking for a line".into()
            }
            Mutant::JokerOneSide => "the joker counted for the first player only".into(),
            Mutant::RulesSwapped(k) => format!(
                "`{}` tried before `{}`",
                p.verdicts[k as usize + 1].answer,
                p.verdicts[k as usize].answer
            ),
            Mutant::PlayersSwapped => "the two players' symbols swapped".into(),
            Mutant::FirstSymbolMisread => format!(
                "the first player's symbol misread (`{}` not recognised)",
                p.symbols.first as char
            ),
            Mutant::SecondSymbolMisread => format!(
                "the second player's symbol misread (`{}` not recognised)",
                p.symbols.second as char
            ),
            Mutant::AnswerCase => "the verdict's words in the other case".into(),
            Mutant::AnswerSpacing => "the verdict's words without their spaces".into(),
            Mutant::Repeated(k) => format!(
                "the answer printed twice when {}",
                self.describe_combination(k as usize)
            ),
            Mutant::Omitted(k) => format!(
                "no answer printed when {}",
                self.describe_combination(k as usize)
            ),
        }
    }

    /// A combination of the facts the rules read, in the description's words.
    pub fn describe_combination(&self, k: usize) -> String {
        let c = &self.combinations[k];
        let full = super::rules::describe_facts(c);
        // Only the facts some rule reads.
        let mut keep: Vec<&str> = full
            .split(", ")
            .filter(|part| {
                let name = part.split(" = ").next().unwrap_or("");
                self.problem.verdicts.iter().any(|r| {
                    let w = &r.when;
                    match name {
                        "reachable" => w.reachable.is_some(),
                        "line" => w.line.is_some(),
                        "full" => w.full.is_some(),
                        "next" => w.next.is_some(),
                        "over" => w.over.is_some(),
                        "ply" => w.ply.is_some(),
                        "value" => w.value.is_some() || w.forced_win.is_some(),
                        "winner" => w.winner.is_some(),
                        "wins_now" => w.wins_now.is_some(),
                        "forced_win" => w.forced_win.is_some(),
                        "distance" => w.distance.is_some(),
                        _ => false,
                    }
                })
            })
            .collect();
        // The facts described only when they hold.
        let reads = |f: fn(&super::rules::Conditions) -> bool| {
            self.problem.verdicts.iter().any(|r| f(&r.when))
        };
        if reads(|w| w.wins_now.is_some()) && !c.wins_now {
            keep.push("wins_now = false");
        }
        if reads(|w| w.forced_win.is_some()) && !full.contains("forced_win") {
            keep.push("forced_win = none");
        }
        if keep.is_empty() {
            "any position".into()
        } else {
            keep.join(", ")
        }
    }

    /// The lines (bits over the geometry's lines) inside `mask` that `r` looks at.
    #[inline]
    fn lines_in(&self, r: &Reading, mask: u16) -> u64 {
        let mut lines = self.lines_of[mask as usize] & r.lines;
        if let Some((bit, squares)) = r.near {
            lines &= !(1 << bit);
            if mask & squares == squares {
                lines |= 1 << bit;
            }
        }
        lines
    }

    /// The squares `r` reads as the line of bit `i`.
    fn line_mask(&self, r: &Reading, i: usize) -> u16 {
        match r.near {
            Some((bit, squares)) if bit as usize == i => squares,
            _ => self.problem.geometry.lines[i],
        }
    }

    /// The facts of `b` as a solver reading it by `r` computes them; `values_key` names the
    /// board whose perfect play it knows (the lines it looks at).
    fn facts_by(&mut self, r: &Reading, b: Board) -> Facts {
        let p = self.problem;
        let g = &p.geometry;
        let full_mask = g.full();
        let empty = full_mask & !b.filled();
        let o_mask = if r.joker_both { b.o | b.t } else { b.o };
        let mut xl = self.lines_in(r, b.x | b.t) & r.first_lines;
        let mut ol = self.lines_in(r, o_mask) & r.second_lines;
        if r.empty_wins {
            xl |= self.lines_in(r, empty) & r.first_lines;
        }
        if r.mixed_wins {
            for (i, &l) in g.lines.iter().enumerate().take(64) {
                if r.lines >> i & 1 == 1 && l & empty == 0 && xl >> i & 1 == 0 && ol >> i & 1 == 0 {
                    let first = l.trailing_zeros();
                    if b.o >> first & 1 == 1 {
                        ol |= 1 << i;
                    } else {
                        xl |= 1 << i;
                    }
                }
            }
        }
        let full = b.filled() == full_mask;
        let mut line = match (xl != 0, ol != 0) {
            (false, false) => Line::None,
            (true, false) => Line::First,
            (false, true) => Line::Second,
            (true, true) => Line::Both,
        };
        let (x, o) = (b.x.count_ones(), b.o.count_ones());
        let next = if x == o {
            Next::First
        } else if x == o + 1 {
            Next::Second
        } else {
            Next::Neither
        };
        let reachable = self.reachable_by(r, b, line, xl, ol);
        let over = line != Line::None || full;
        let mover = if next == Next::First {
            Player::X
        } else {
            Player::O
        };
        // A move wins at once when it leaves a line it looks at all the mover's; looked for
        // only where a rule reads it.
        let wins_now = self.needs.wins_now && !over && next != Next::Neither && {
            let mine = if mover == Player::X || r.joker_both {
                b.of(mover) | b.t
            } else {
                b.of(mover)
            };
            // Some empty square adds a line it looks at.
            let own = if mover == Player::X {
                r.first_lines
            } else {
                r.second_lines
            };
            let before = self.lines_in(r, mine) & own;
            let mut left = empty;
            let mut found = false;
            while left != 0 && !found {
                let s = left & left.wrapping_neg();
                left &= left - 1;
                found = self.lines_in(r, mine | s) & own & !before != 0;
            }
            found
        };
        let (mut value, mut winner, mut forced_win, mut distance) = (None, None, None, None);
        if self.needs.values && reachable {
            if over {
                distance = self.needs.distance.then_some(0);
                winner = Some(match line {
                    Line::First => Winner::First,
                    Line::Second => Winner::Second,
                    _ => Winner::Nobody,
                });
            } else {
                let (v, forced, d) = self.outcome(r.lines, b, mover);
                (forced_win, distance) = (forced, d);
                value = Some(v);
                winner = Some(match (v, mover) {
                    (Outcome::Draw, _) => Winner::Nobody,
                    (Outcome::Win, Player::X) | (Outcome::Loss, Player::O) => Winner::First,
                    _ => Winner::Second,
                });
            }
        }
        // The draw is called before the lines are looked at: every other fact stands.
        if r.full_first && full {
            line = Line::None;
        }
        Facts {
            reachable,
            line,
            full,
            next,
            over,
            ply: x + o,
            wins_now,
            value,
            winner,
            forced_win,
            distance,
        }
    }

    /// Whether a solver reading by `r` takes `b` for a position of play, given the lines it
    /// found for each player.
    fn reachable_by(&self, r: &Reading, b: Board, line: Line, xl: u64, ol: u64) -> bool {
        let (x, o) = (b.x.count_ones(), b.o.count_ones());
        if !r.counts.ok(x, o) {
            return false;
        }
        let (winner, lines) = match line {
            Line::None => return true,
            Line::Both if r.both => return false,
            Line::First | Line::Both => (Player::X, xl),
            Line::Second => (Player::O, ol),
        };
        let last = if x > o { Player::X } else { Player::O };
        if r.winner_last {
            let want = if r.winner_last_swapped {
                last.other()
            } else {
                last
            };
            if winner != want {
                return false;
            }
        }
        let g = &self.problem.geometry;
        if r.two_rejected && lines.count_ones() >= 2 {
            return false;
        }
        if let Some(k) = r.pair_rejected
            && self.pairs[k as usize]
                .iter()
                .any(|&(i, j)| lines >> i & 1 == 1 && lines >> j & 1 == 1)
        {
            return false;
        }
        if r.winning_move {
            let mut core = g.full();
            let mut left = lines;
            while left != 0 {
                core &= self.line_mask(r, left.trailing_zeros() as usize);
                left &= left - 1;
            }
            if core & b.of(winner) == 0 {
                return false;
            }
        }
        true
    }

    /// Perfect play on `b` for `mover`, on the board of the lines in `lines` only: the
    /// value, the first forced win's square and the distance to the end (when the rules read
    /// it).
    fn outcome(&mut self, lines: u64, b: Board, mover: Player) -> Play {
        let (want, want_forced) = (self.needs.distance, self.needs.forced_win);
        let play = |g: &Geometry, values: &mut Values| {
            values.want_distance = want;
            let (v, d) = values.solve(g, b, mover);
            let forced = if v == Outcome::Win && want_forced {
                values.forced_win(g, b, mover).map(|s| s as u8)
            } else {
                None
            };
            (v, forced, d.filter(|_| want).map(u32::from))
        };
        let g = &self.problem.geometry;
        let all = if g.lines.len() >= 64 {
            u64::MAX
        } else {
            (1u64 << g.lines.len()) - 1
        };
        if lines & all == all {
            // Most mutants read perfect play on the whole board, of the board asked about
            // last: one search serves them all.
            if let Some((last, who, known)) = self.whole_board_play
                && last == b
                && who == mover
            {
                return known;
            }
            let known = play(g, &mut self.values);
            self.whole_board_play = Some((b, mover, known));
            return known;
        }
        let (sparse, tables, problem) = (self.sparse, self.tables, self.problem);
        let (sub, values) = self.geometries.entry(lines & all).or_insert_with(|| {
            let kept: Vec<u16> = g
                .lines
                .iter()
                .enumerate()
                .filter(|&(i, _)| lines >> i & 1 == 1)
                .map(|(_, &l)| l)
                .collect();
            let sub = Geometry::with_lines(g.rows, g.cols, g.line, g.joker, kept);
            let values = if sparse {
                Values::sparse()
            } else if !tables {
                Values::new()
            } else {
                // Every position of play on that board valued at once by the pass, as the
                // whole input space asks about most of them.
                super::pass::values_table_on(problem, sub.clone())
            };
            (sub, values)
        });
        play(sub, values)
    }

    /// The right facts of `b`.
    pub fn facts(&mut self, b: Board) -> Facts {
        if let Some((last, f)) = self.right
            && last == b
        {
            return f;
        }
        let f = self.facts_by(&Reading::RIGHT, b);
        self.right = Some((b, f));
        f
    }

    /// [`Catalogue::facts`] of `b`, which holds one player's stones only, through the
    /// table [`Catalogue::one_sided`].
    fn one_sided_facts(&mut self, b: Board) -> Facts {
        if self.one_sided.is_empty() {
            self.one_sided = vec![None; 1 << 17];
        }
        let slot = (b.x | b.o) as usize | usize::from(b.x == 0) << 16;
        match self.one_sided[slot] {
            Some((c, f)) if c == b => f,
            _ => {
                let f = self.facts_by(&Reading::RIGHT, b);
                self.one_sided[slot] = Some((b, f));
                f
            }
        }
    }

    /// The lines (bits over the geometry's lines) of one class.
    fn class_lines(&self, keep: impl Fn(Class) -> bool) -> u64 {
        let mut m = 0;
        for (i, &c) in self.classes.iter().enumerate().take(64) {
            if keep(c) {
                m |= 1 << i;
            }
        }
        m
    }

    /// What mutant `m` answers on `b`: `None` where it prints nothing, or where no rule
    /// matches what it computes (it prints something no right solution prints).
    pub fn answer(&mut self, m: Mutant, b: Board) -> Option<String> {
        let (v, f) = self.verdict_by(m, b)?;
        let p = self.problem;
        let a = &p.verdicts[v].render(&f, p.geometry.cols);
        Some(match m {
            Mutant::AnswerCase => {
                if a.chars().any(|c| c.is_ascii_uppercase()) {
                    a.to_ascii_lowercase()
                } else {
                    a.to_ascii_uppercase()
                }
            }
            Mutant::AnswerSpacing => a.replace(' ', ""),
            Mutant::Repeated(k) | Mutant::Omitted(k) => {
                if combination(p, &f) != self.combinations[k as usize] {
                    a.clone()
                } else if matches!(m, Mutant::Omitted(_)) {
                    return None;
                } else {
                    format!("{a}\n{a}")
                }
            }
            _ => a.clone(),
        })
    }

    /// The rule mutant `m` applies on `b` (by index), with the facts it computed: `None`
    /// where no rule matches them.
    fn verdict_by(&mut self, m: Mutant, b: Board) -> Option<(usize, Facts)> {
        let right = Reading::RIGHT;
        let reading = |f: &dyn Fn(&mut Reading)| {
            let mut r = right;
            f(&mut r);
            r
        };
        let f = match m {
            Mutant::NoBothCheck => {
                let mut f = self.facts_by(&reading(&|r| r.both = false), b);
                if f.line == Line::Both {
                    f.line = Line::First;
                }
                f
            }
            Mutant::MoveAfterWin => self.facts_by(&reading(&|r| r.winning_move = false), b),
            Mutant::WinnerNotLast => self.facts_by(&reading(&|r| r.winner_last = false), b),
            Mutant::WinnerLastSwapped => {
                self.facts_by(&reading(&|r| r.winner_last_swapped = true), b)
            }
            Mutant::Counts(c) => self.facts_by(&reading(&|r| r.counts = c), b),
            Mutant::CountsSwapped => swap_facts(self.facts_by(&right, swapped(b))),
            Mutant::TwoLinesRejected => self.facts_by(&reading(&|r| r.two_rejected = true), b),
            Mutant::PairRejected(k) => self.facts_by(&reading(&|r| r.pair_rejected = Some(k)), b),
            Mutant::LineIgnored(i) => self.facts_by(&reading(&|r| r.lines &= !(1 << i)), b),
            Mutant::ClassIgnored(c) => {
                let drop = self.class_lines(|x| x == c);
                self.facts_by(&reading(&|r| r.lines &= !drop), b)
            }
            Mutant::NoDiagonals => {
                let drop = self.class_lines(|x| matches!(x, Class::Diagonal | Class::AntiDiagonal));
                self.facts_by(&reading(&|r| r.lines &= !drop), b)
            }
            Mutant::NoLines => self.facts_by(&reading(&|r| r.lines = 0), b),
            Mutant::LineIgnoredBy(i, p) => self.facts_by(
                &reading(&|r| {
                    if p == Player::X {
                        r.first_lines &= !(1 << i)
                    } else {
                        r.second_lines &= !(1 << i)
                    }
                }),
                b,
            ),
            Mutant::ClassIgnoredBy(c, p) => {
                let drop = self.class_lines(|x| x == c);
                self.facts_by(
                    &reading(&|r| {
                        if p == Player::X {
                            r.first_lines &= !drop
                        } else {
                            r.second_lines &= !drop
                        }
                    }),
                    b,
                )
            }
            Mutant::NearLine(k) => {
                let near = self.near[k as usize];
                let bit = near
                    .replaces
                    .unwrap_or(self.problem.geometry.lines.len() as u8);
                self.facts_by(&reading(&|r| r.near = Some((bit, near.squares))), b)
            }
            Mutant::EmptyLineWins => self.facts_by(&reading(&|r| r.empty_wins = true), b),
            Mutant::MixedLineWins => self.facts_by(&reading(&|r| r.mixed_wins = true), b),
            Mutant::FullBeforeLine => self.facts_by(&reading(&|r| r.full_first = true), b),
            Mutant::JokerOneSide => self.facts_by(&reading(&|r| r.joker_both = false), b),
            Mutant::PlayersSwapped => self.facts_by(&right, swapped(b)),
            Mutant::FirstSymbolMisread => self.one_sided_facts(Board { x: 0, ..b }),
            Mutant::SecondSymbolMisread => self.one_sided_facts(Board { o: 0, ..b }),
            Mutant::RulesSwapped(_)
            | Mutant::AnswerCase
            | Mutant::AnswerSpacing
            | Mutant::Repeated(_)
            | Mutant::Omitted(_) => self.facts(b),
        };
        let p = self.problem;
        let v = match m {
            // Rules k and k + 1 in each other's place: only where rule k is the first to
            // hold does the order tell, and then rule k + 1 answers if it holds too.
            Mutant::RulesSwapped(k) => {
                let k = k as usize;
                let first = p.verdict_of(&f)?;
                if first == k && p.verdicts[k + 1].when.hold(&f) {
                    k + 1
                } else {
                    first
                }
            }
            _ => p.verdict_of(&f)?,
        };
        Some((v, f))
    }

    /// The mutants that fail on `b`, whose right answer is `right`, as bits over
    /// [`Catalogue::mutants`].
    pub fn kills(&mut self, b: Board, right: &str) -> Bits {
        self.kills_where(b, right, |_| true)
    }

    /// [`Catalogue::kills`] among the mutants `asked` picks (by index) only.
    fn kills_where(&mut self, b: Board, right: &str, asked: impl Fn(usize) -> bool) -> Bits {
        let mut bits = Bits::new(self.mutants.len());
        let f0 = self.facts(b);
        let here = combination(self.problem, &f0);
        let v0 = self.problem.verdict_of(&f0);
        let live = Live::of(
            &self.problem.geometry,
            b,
            self.needs.values,
            self.needs.wins_now,
        );
        let (letters, spaces) = (
            right.bytes().any(|c| c.is_ascii_alphabetic()),
            right.contains(' '),
        );
        let gates = std::mem::take(&mut self.gates);
        // The mutants that ignore lines, computed only where one of them is live: what
        // [`Catalogue::reads_as_right`] tells of each, from the position's lines at once.
        for &(i, dropped, seen) in &gates.lines {
            let lines = match seen {
                Seen::Unsettled => live.unsettled,
                Seen::By(p) => live.of_player(p),
            };
            if dropped & lines != 0 && asked(i) && self.fails(i, b, right, v0, &f0) {
                bits.set(i);
            }
        }
        match &gates.held {
            Some(held) => {
                for j in held.read(b, &live) {
                    let i = gates.near[j].0;
                    if asked(i) && self.fails(i, b, right, v0, &f0) {
                        bits.set(i);
                    }
                }
            }
            None => {
                for &(i, near) in &gates.near {
                    if !self.near_unread(b, near, &live)
                        && asked(i)
                        && self.fails(i, b, right, v0, &f0)
                    {
                        bits.set(i);
                    }
                }
            }
        }
        for &i in &gates.rest {
            if !asked(i) {
                continue;
            }
            let failed = match self.mutants[i] {
                // Right everywhere but on their combination, where they print two answers or
                // none: no answer need be made to know.
                Mutant::Repeated(k) | Mutant::Omitted(k) => self.combinations[k as usize] == here,
                // The right answer with its letters in the other case, or its spaces taken
                // out: wrong wherever it has a letter, or a space.
                Mutant::AnswerCase => letters,
                Mutant::AnswerSpacing => spaces,
                Mutant::RulesSwapped(k) if v0 != Some(k as usize) => false,
                _ if self.reads_as_right(i, b, &f0, &live) => false,
                _ => self.fails(i, b, right, v0, &f0),
            };
            if failed {
                bits.set(i);
            }
        }
        self.gates = gates;
        bits
    }

    /// Whether mutant `i`, one that ignores lines, fails on `b`, whose right answer is
    /// `right`: as [`Catalogue::kills`] finds it, computed only where its lines are live.
    fn fails_where_live(&mut self, i: usize, b: Board, right: &str) -> bool {
        debug_assert!(matches!(
            self.mutants[i],
            Mutant::LineIgnored(_)
                | Mutant::ClassIgnored(_)
                | Mutant::NoDiagonals
                | Mutant::NoLines
        ));
        let f0 = self.facts(b);
        let v0 = self.problem.verdict_of(&f0);
        let g = &self.problem.geometry;
        let live = Live::of(g, b, self.needs.values, self.needs.wins_now);
        self.dropped[i] & live.unsettled != 0 && self.fails(i, b, right, v0, &f0)
    }

    /// Whether mutant `i`, computed in full, answers `b` otherwise than `right`; `v0` and
    /// `f0` are the right rule and facts.
    fn fails(&mut self, i: usize, b: Board, right: &str, v0: Option<usize>, f0: &Facts) -> bool {
        match self.verdict_by(self.mutants[i], b) {
            None => true,
            Some((v, f)) => {
                let rule = &self.problem.verdicts[v];
                if !rule.is_template() {
                    rule.answer != right
                } else if Some(v) == v0 && f.forced_win == f0.forced_win {
                    false
                } else {
                    rule.render(&f, self.problem.geometry.cols) != right
                }
            }
        }
    }

    /// Whether mutant `i` computes the right facts `f0` of `b` without computing them: its bug
    /// touches nothing `b` holds. A check of play it gets wrong that `b` never reaches (no
    /// line, or one player's only, or counts either way of the bound); lines it ignores that
    /// hold stones of both players, which no continuation completes, so that perfect play is
    /// that of the whole board; no empty line to take for a win; no joker to misread.
    fn reads_as_right(&self, i: usize, b: Board, f0: &Facts, live: &Live) -> bool {
        let g = &self.problem.geometry;
        let empty = g.full() & !b.filled();
        match self.mutants[i] {
            Mutant::NoBothCheck => f0.line != Line::Both,
            Mutant::WinnerNotLast | Mutant::WinnerLastSwapped => f0.line == Line::None,
            // Checks of the winner's lines, which a right solution makes only where one
            // player has a line (where both have, the position is refused before).
            Mutant::MoveAfterWin => {
                let (lines, winner) = self.winners(b, f0);
                let mut core = g.full();
                let mut left = lines;
                while left != 0 {
                    core &= g.lines[left.trailing_zeros() as usize];
                    left &= left - 1;
                }
                lines == 0 || core & b.of(winner) != 0
            }
            Mutant::TwoLinesRejected => self.winners(b, f0).0.count_ones() < 2,
            Mutant::PairRejected(k) => {
                let (lines, _) = self.winners(b, f0);
                lines.count_ones() < 2
                    || !self.pairs[k as usize]
                        .iter()
                        .any(|&(i, j)| lines >> i & 1 == 1 && lines >> j & 1 == 1)
            }
            Mutant::Counts(c) => {
                let (x, o) = (b.x.count_ones(), b.o.count_ones());
                c.ok(x, o) == Counts::Right.ok(x, o)
            }
            Mutant::LineIgnored(_)
            | Mutant::ClassIgnored(_)
            | Mutant::NoDiagonals
            | Mutant::NoLines => self.dropped[i] & live.unsettled == 0,
            // Perfect play is that of the whole board (the bug is in reading the position's
            // lines): the mutant differs only where it reads the player's line, or a move that
            // makes it.
            Mutant::LineIgnoredBy(_, p) | Mutant::ClassIgnoredBy(_, p) => {
                self.dropped[i] & live.of_player(p) == 0
            }
            // Read in the position's lines only: perfect play is that of the whole board.
            Mutant::NearLine(k) => self.near_unread(b, self.near[k as usize], live),
            Mutant::EmptyLineWins => self.lines_of[empty as usize] == 0,
            // No line is full with stones of both players.
            Mutant::MixedLineWins => g
                .lines
                .iter()
                .all(|&l| l & empty != 0 || l & !(b.x | b.t) == 0 || l & !(b.o | b.t) == 0),
            Mutant::FullBeforeLine => !f0.full || f0.line == Line::None,
            Mutant::JokerOneSide => b.t == 0,
            _ => false,
        }
    }

    /// Whether neither the squares of `near` nor the line they replace are live on `b`: the
    /// near line's mutant then reads `b` as a right solution does.
    fn near_unread(&self, b: Board, near: Near, live: &Live) -> bool {
        let ahead = self.needs.wins_now;
        let unread = |m: u16| open(b, m, Player::X, ahead) && open(b, m, Player::O, ahead);
        unread(near.squares)
            && near
                .replaces
                .is_none_or(|l| (live.x | live.o) >> l & 1 == 0)
    }

    /// The lines of `b`'s winner when one player only has a line (facts `f0`), and who that
    /// is: what the checks of a winner's lines look at.
    fn winners(&self, b: Board, f0: &Facts) -> (u64, Player) {
        match f0.line {
            Line::First => (self.lines_of[(b.x | b.t) as usize], Player::X),
            Line::Second => (self.lines_of[(b.o | b.t) as usize], Player::O),
            Line::None | Line::Both => (0, Player::X),
        }
    }

    /// Whether mutant `i` reads perfect play on a board of other lines than the problem's:
    /// each such board is a game of its own to solve.
    fn plays_another_game(&self, i: usize) -> bool {
        self.needs.values && self.dropped[i] != 0 && !self.mutants[i].is_one_of_many()
    }

    /// The lines (bits) whose [`Mutant::LineIgnored`] is among `kills`.
    fn lines_killed(&self, kills: &Bits) -> u64 {
        let mut bits = 0;
        for (i, &m) in self.line_mutants.iter().enumerate() {
            if kills.has(m) {
                bits |= 1 << i;
            }
        }
        bits
    }

    /// The lines (bits) of which a solver that ignores that one line answers `b`, a position
    /// of the input space, wrong.
    fn lines_deciding(&mut self, b: Board) -> u64 {
        let (a, _) = self.judged(b);
        let line_mutants = std::mem::take(&mut self.line_mutants);
        let kills = self.kills_where(b, &a, |j| line_mutants.contains(&j));
        self.line_mutants = line_mutants;
        self.lines_killed(&kills)
    }

    /// The lines (bits) complete on `b` when it has exactly one, else none: where a line most
    /// likely decides the answer, found without computing any mutant.
    fn only_line(&self, b: Board) -> u64 {
        let l = self.lines_of[(b.x | b.t) as usize] | self.lines_of[(b.o | b.t) as usize];
        if l.count_ones() == 1 { l } else { 0 }
    }

    /// The right answer of `b`, a position of the input space, and its cell.
    fn judged(&mut self, b: Board) -> (String, Cell) {
        let p = self.problem;
        let f = p.facts_fast(b, &mut self.values);
        let v = p.verdict_of(&f).expect("the rules cover the input space");
        let a = p.verdicts[v].render(&f, p.geometry.cols);
        let cell = self.cell(b, &f, &a);
        (a, cell)
    }

    /// The coverage cell of `b`, whose facts are `f` and answer `right`.
    pub fn cell(&self, b: Board, f: &Facts, right: &str) -> Cell {
        let r = Reading::RIGHT;
        let (xl, ol) = (self.lines_in(&r, b.x | b.t), self.lines_in(&r, b.o | b.t));
        let kind = |p: Player, l: u64| {
            if l.count_ones() >= 2 {
                LineKind::Two(p)
            } else {
                let c = self.classes[l.trailing_zeros() as usize];
                let c = if c == Class::AntiDiagonal {
                    Class::Diagonal
                } else {
                    c
                };
                LineKind::One(p, c)
            }
        };
        let line = match (xl != 0, ol != 0) {
            (false, false) => LineKind::None,
            (true, false) => kind(Player::X, xl),
            (false, true) => kind(Player::O, ol),
            (true, true) => LineKind::Both,
        };
        let d = b.x.count_ones() as i64 - b.o.count_ones() as i64;
        Cell {
            line,
            difference: d.clamp(-1, 2) as i8,
            full: f.full,
            answer: self
                .answers
                .iter()
                .position(|a| a == right)
                .expect("an answer of the rules") as u8,
        }
    }
}

/// The mutants of a catalogue by how a position tells whether they may fail on it.
#[derive(Clone, Default)]
struct Gates {
    /// Each mutant that ignores lines (index, the lines, for whom): it may fail only where
    /// one of them is [`Live`].
    lines: Vec<(usize, u64, Seen)>,
    /// Each [`Mutant::NearLine`] (index, the squares): it may fail only where they, or the
    /// line they replace, are live.
    near: Vec<(usize, Near)>,
    /// Which of `near` a position reads, by table, where no rule looks a move ahead.
    held: Option<NearIndex>,
    /// The others, asked of [`Catalogue::reads_as_right`] one by one.
    rest: Vec<usize>,
}

/// The near lines a position reads, found by table lookups rather than one by one: those
/// whose squares one player holds (the joker counting for both), and those standing for a
/// line that is live. Bits over a catalogue's [`Gates::near`], `words` to a set.
#[derive(Clone)]
struct NearIndex {
    words: usize,
    /// For each mask of squares, the near lines within it.
    within: Vec<u64>,
    /// For each line, the near lines that replace it.
    replacing: Vec<u64>,
}

impl NearIndex {
    fn new(near: &[(usize, Near)], lines: usize) -> Option<NearIndex> {
        if near.is_empty() {
            return None;
        }
        let words = near.len().div_ceil(64);
        let mut within = vec![0u64; words << 16];
        let mut replacing = vec![0u64; words * lines];
        for (j, (_, n)) in near.iter().enumerate() {
            let bit = 1u64 << (j % 64);
            crate::tictactoe::rules::for_each_superset(n.squares, !n.squares, |m| {
                within[m * words + j / 64] |= bit
            });
            if let Some(l) = n.replaces {
                replacing[l as usize * words + j / 64] |= bit;
            }
        }
        Some(NearIndex {
            words,
            within,
            replacing,
        })
    }

    /// The near lines (indices into [`Gates::near`], in order) that `b`, whose live lines are
    /// `live`, reads: the complement of [`Catalogue::near_unread`].
    fn read(&self, b: Board, live: &Live) -> impl Iterator<Item = usize> + use<> {
        let w = self.words;
        let (x, o) = ((b.x | b.t) as usize * w, (b.o | b.t) as usize * w);
        let mut set: SmallVec<[u64; 4]> = (0..w)
            .map(|k| self.within[x + k] | self.within[o + k])
            .collect();
        let mut lines = live.x | live.o;
        while lines != 0 {
            let l = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            if (l + 1) * w <= self.replacing.len() {
                for (k, s) in set.iter_mut().enumerate() {
                    *s |= self.replacing[l * w + k];
                }
            }
        }
        (0..w).flat_map(move |k| {
            let mut bits = set[k];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    k * 64 + b
                })
            })
        })
    }
}

/// Which of a position's [`Live`] lines a mutant's ignored lines are checked against.
#[derive(Clone, Copy)]
enum Seen {
    Unsettled,
    By(Player),
}

/// Whether `p` has no line in the squares `m` on `b` nor after one move (the joker counting for
/// both): two of them are missing, or one that the other player holds.
/// Where the rules never read whether a move wins at once (`ahead` false), no solver looks
/// past `b`: `p` has no line in `m` on `b` itself.
#[inline]
fn open(b: Board, m: u16, p: Player, ahead: bool) -> bool {
    let missing = m & !(b.of(p) | b.t);
    if ahead {
        missing.count_ones() >= 2 || missing & b.of(p.other()) != 0
    } else {
        missing != 0
    }
}

/// The lines (bits over the geometry's lines) of a position that a mutant ignoring them could
/// read otherwise than a right solution, found once for every mutant of the position.
struct Live {
    /// The lines the first player has, or can make in one move where the rules read that.
    x: u64,
    /// The second player's, likewise.
    o: u64,
    /// The lines that are not settled: one of the above; where perfect play is read, each
    /// line that does not hold stones of both players (some continuation may complete it).
    unsettled: u64,
}

impl Live {
    /// The live lines of `b`; `values` whether perfect play is read, `ahead` whether the
    /// rules read a move that wins at once.
    fn of(g: &Geometry, b: Board, values: bool, ahead: bool) -> Live {
        let (mut x, mut o, mut unsettled) = (0u64, 0u64, 0u64);
        for (i, &l) in g.lines.iter().enumerate().take(64) {
            let (lx, lo) = (!open(b, l, Player::X, ahead), !open(b, l, Player::O, ahead));
            x |= (lx as u64) << i;
            o |= (lo as u64) << i;
            let loose = if values {
                l & b.x == 0 || l & b.o == 0
            } else {
                lx || lo
            };
            unsettled |= (loose as u64) << i;
        }
        Live { x, o, unsettled }
    }

    fn of_player(&self, p: Player) -> u64 {
        if p == Player::X { self.x } else { self.o }
    }
}

/// The smallest image of a set of squares under the board's `symmetries`.
fn smallest_image(symmetries: &[Perm], squares: u16) -> u16 {
    symmetries
        .iter()
        .map(|t| t.apply(squares))
        .min()
        .unwrap_or(squares)
}

/// The killer set of a problem and what it proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KillerSet {
    /// The positions, fewest stones first.
    pub boards: Vec<Board>,
    /// Positions of the input space read.
    pub positions: u64,
    /// Mutants in the catalogue.
    pub mutants: usize,
    /// The mutants some position catches, as bits over [`Catalogue::mutants`]; the set
    /// catches all.
    pub killable: Bits,
    /// The feasible combinations of facts ([`Cell`]); the set shows each.
    pub cells: Vec<Cell>,
    /// The elements of the guard coverage ([`super::guards`]) the set holds, and those some
    /// position of the input space holds.
    pub guards: (usize, usize),
    /// The (answer, ply) pairs the set spreads each answer over ([`Spread`]).
    pub spread: Vec<(u8, u32)>,
}

/// Each answer over the plies: the killer set holds every answer at the first ply where it
/// occurs, at the last, and at the middle one of the plies where it occurs, so at three plies
/// where the answer has three or more. A solver right on an answer's simplest positions only,
/// or its fullest only, meets both.
#[derive(Default)]
pub struct Spread {
    /// The first position seen of each (answer, ply).
    first: HashMap<(u8, u32), Board>,
}

impl Spread {
    /// Notes position `b`, whose answer is `answer` (by index).
    fn offer(&mut self, b: Board, answer: u8) {
        self.first.entry((answer, b.ply())).or_insert(b);
    }

    /// The (answer, ply) pairs to hold, in order, each with a position of the input space.
    fn targets(&self) -> Vec<((u8, u32), Board)> {
        let mut by_answer: std::collections::BTreeMap<u8, Vec<u32>> = Default::default();
        for &(a, ply) in self.first.keys() {
            by_answer.entry(a).or_default().push(ply);
        }
        let mut out = Vec::new();
        for (a, mut plies) in by_answer {
            plies.sort_unstable();
            let mut chosen = vec![plies[0], plies[plies.len() / 2], plies[plies.len() - 1]];
            chosen.dedup();
            out.extend(chosen.into_iter().map(|p| ((a, p), self.first[&(a, p)])));
        }
        out
    }
}

/// The lines (bits over the first 64 of `g`'s lines) each mask of squares holds: every
/// superset of a line gets its bit.
fn lines_of(g: &Geometry) -> Vec<u64> {
    let mut t = vec![0u64; 1 << 16];
    for (i, &l) in g.lines.iter().enumerate().take(64) {
        crate::tictactoe::rules::for_each_superset(l, !l, |m| t[m] |= 1 << i);
    }
    t
}

/// The killer set: a smallest set of positions of the input space on which every mutant that
/// fails anywhere fails at least once and every feasible [`Cell`] appears (so every answer
/// does). An exact set cover over the positions' signatures: the mutants each catches and its
/// cell.
///
/// Where the rules read perfect play, the mutants that play on a board without some lines
/// (each its own game to solve) are computed on candidates only: the few positions with the
/// fewest stones of each signature of the other mutants and cell
/// ([`CANDIDATES_PER_SIGNATURE`]). A mutant no candidate catches is then looked for over the
/// whole input space, so that the set still catches every mutant that fails anywhere.
pub fn killer_set(problem: &Problem) -> KillerSet {
    let mut catalogue = Catalogue::new(problem);
    let n = catalogue.mutants.len();
    let heavy: Vec<bool> = (0..n).map(|i| catalogue.plays_another_game(i)).collect();
    if !heavy.contains(&true) {
        return killer_set_with(problem, &mut catalogue, |_, _, _, _| {});
    }
    catalogue.tables = false;
    let g = &problem.geometry;
    let mut guards = Guards::new(&g.lines, (g.rows * g.cols) as usize);
    let mut spread = Spread::default();
    let mut positions = 0u64;
    let mut cells: Vec<Cell> = Vec::new();
    // The candidates, kept by their signature of the plain mutants: the light ones but those
    // of one player's lines and of near lines, of which there are many, each telling apart
    // positions the game on other lines hardly does.
    let mut plain = Bits::new(n);
    for (i, &m) in catalogue.mutants.iter().enumerate() {
        if !heavy[i] && !m.is_one_of_many() {
            plain.set(i);
        }
    }
    let mut index: HashMap<(Bits, Cell), usize> = HashMap::new();
    let mut kept: Vec<Vec<(Board, Bits)>> = Vec::new();
    // Every other signature of the light mutants, with its first position: a member of the
    // cover on what it is known to catch.
    let mut seen = hashbrown::HashSet::new();
    let mut light_only: Vec<(Bits, Cell, Board)> = Vec::new();
    let judge = |cat: &mut Catalogue, b: Board| {
        let (a, cell) = cat.judged(b);
        let kills = cat.kills_where(b, &a, |i| !heavy[i]);
        let mut key = kills.clone();
        key.intersect_with(&plain);
        (cell, kills, key, cat.only_line(b))
    };
    let each = |_: &mut Catalogue, b: Board, (cell, kills, key, only): (Cell, Bits, Bits, u64)| {
        positions += 1;
        guards.offer(b, only);
        spread.offer(b, cell.answer);
        match index.entry((key, cell)) {
            hashbrown::hash_map::Entry::Occupied(k) => {
                let boards = &mut kept[*k.get()];
                if boards.len() < CANDIDATES_PER_SIGNATURE {
                    boards.push((b, kills));
                } else if let Some(most) = (0..boards.len()).max_by_key(|&j| (boards[j].0.ply(), j))
                    && boards[most].0.ply() > b.ply()
                {
                    boards.remove(most);
                    boards.push((b, kills));
                } else {
                    let full = (kills, cell);
                    if !seen.contains(&full) {
                        light_only.push((full.0.clone(), cell, b));
                        seen.insert(full);
                    }
                }
            }
            hashbrown::hash_map::Entry::Vacant(slot) => {
                if !cells.contains(&cell) {
                    cells.push(cell);
                }
                slot.insert(kept.len());
                kept.push(vec![(b, kills)]);
            }
        }
    };
    in_parallel(&mut catalogue, &problem.positions(), judge, each);
    let mut first: Vec<(Bits, Cell, Board)> = Vec::new();
    let mut caught = Bits::new(n);
    let mut seen_full = hashbrown::HashSet::new();
    let candidates: Vec<(Board, Bits)> = kept.into_iter().flatten().collect();
    let judged: Vec<(String, Cell)> = candidates
        .iter()
        .map(|&(b, _)| catalogue.judged(b))
        .collect();
    // Each heavy mutant over every candidate, then its game forgotten: one game's table in
    // memory at a time.
    let mut kills: Vec<Bits> = candidates.iter().map(|(_, light)| light.clone()).collect();
    for i in (0..n).filter(|&i| heavy[i]) {
        for (k, &(b, _)) in candidates.iter().enumerate() {
            if catalogue.fails_where_live(i, b, &judged[k].0) {
                kills[k].set(i);
            }
        }
        catalogue.geometries.clear();
    }
    for ((kills, (_, cell)), (b, _)) in kills.into_iter().zip(judged).zip(candidates) {
        caught.union_with(&kills);
        if seen_full.insert((kills.clone(), cell)) {
            first.push((kills, cell, b));
        }
    }
    for (kills, cell, b) in light_only {
        caught.union_with(&kills);
        if seen_full.insert((kills.clone(), cell)) {
            first.push((kills, cell, b));
        }
    }
    let mut seen = seen_full;
    // The heavy mutants no candidate catches, each looked for over the whole space.
    for (i, _) in heavy.iter().enumerate().filter(|&(_, &h)| h) {
        if caught.has(i) {
            continue;
        }
        for b in problem.positions() {
            let (a, cell) = catalogue.judged(b);
            if catalogue.fails_where_live(i, b, &a) {
                let kills = catalogue.kills(b, &a);
                caught.union_with(&kills);
                if seen.insert((kills.clone(), cell)) {
                    first.push((kills, cell, b));
                }
                break;
            }
        }
        catalogue.geometries.clear();
    }
    let set = smallest_of(first, cells, n, positions);
    with_guards(set, &guards, &spread, &mut catalogue)
}

/// The positions a thread judges at a time in [`in_parallel`].
const BLOCK: usize = 1 << 14;

/// Judges each of `boards` by `work`, a copy of the catalogue a thread, and hands the
/// results to `each` in the order of `boards`: the same calls whatever the number of
/// threads, since a position's judgement depends on the position alone. A block's results
/// are handed on while the next block is judged.
fn in_parallel<'p, T: Send>(
    catalogue: &mut Catalogue<'p>,
    boards: &[Board],
    work: impl Fn(&mut Catalogue<'p>, Board) -> T + Sync,
    mut each: impl FnMut(&mut Catalogue<'p>, Board, T) + Send,
) {
    let threads = rayon::current_num_threads().max(1);
    let mut workers: Vec<Catalogue<'p>> = (0..threads).map(|_| catalogue.clone()).collect();
    let judge = |workers: &mut Vec<Catalogue<'p>>, block: &[Board]| -> Vec<T> {
        let part = block.len().div_ceil(threads).max(1);
        let parts: Vec<Vec<T>> = workers
            .par_iter_mut()
            .zip(block.par_chunks(part))
            .map(|(cat, bs)| bs.iter().map(|&b| work(cat, b)).collect())
            .collect();
        parts.into_iter().flatten().collect()
    };
    let mut blocks = boards.chunks(BLOCK * threads);
    let mut pending = blocks
        .next()
        .map(|block| (block, judge(&mut workers, block)));
    while let Some((block, results)) = pending.take() {
        let next = blocks.next();
        let ((), judged) = rayon::join(
            || {
                for (&b, r) in block.iter().zip(results) {
                    each(catalogue, b, r);
                }
            },
            || next.map(|block| (block, judge(&mut workers, block))),
        );
        pending = judged;
    }
}

/// How many positions of each signature of the light mutants (and cell) [`killer_set`] keeps
/// as candidates for the heavy ones: those with the fewest stones.
pub const CANDIDATES_PER_SIGNATURE: usize = 4;

/// [`killer_set`] with `catalogue`, every mutant computed on every position, calling `each`
/// on every position of the input space in order with its facts, its right answer and the
/// mutants that fail on it: what a survey of the catalogue counts, in the same pass.
pub fn killer_set_with(
    problem: &Problem,
    catalogue: &mut Catalogue,
    mut each: impl FnMut(Board, &Facts, &str, &Bits) + Send,
) -> KillerSet {
    let n = catalogue.mutants.len();
    let mut positions = 0u64;
    let mut cells: Vec<Cell> = Vec::new();
    let mut first: Vec<(Bits, Cell, Board)> = Vec::new();
    let mut seen = hashbrown::HashSet::new();
    let g = &problem.geometry;
    let mut guards = Guards::new(&g.lines, (g.rows * g.cols) as usize);
    let mut spread = Spread::default();
    let judge = |cat: &mut Catalogue, b: Board| {
        let f = problem.facts_fast(b, &mut cat.values);
        let v = problem
            .verdict_of(&f)
            .expect("the rules cover the input space");
        let a = problem.verdicts[v].render(&f, problem.geometry.cols);
        let cell = cat.cell(b, &f, &a);
        let kills = cat.kills(b, &a);
        (f, a, cell, kills)
    };
    in_parallel(
        catalogue,
        &problem.positions(),
        judge,
        |catalogue, b, (f, a, cell, kills)| {
            positions += 1;
            each(b, &f, &a, &kills);
            guards.offer(b, catalogue.lines_killed(&kills));
            spread.offer(b, cell.answer);
            if seen.insert((kills.clone(), cell)) {
                if !cells.contains(&cell) {
                    cells.push(cell);
                }
                first.push((kills, cell, b));
            }
        },
    );
    let set = smallest_of(first, cells, n, positions);
    with_guards(set, &guards, &spread, catalogue)
}

/// The killer set from the candidates `first` (each position with its mutants caught and its
/// cell, one a signature), `cells` the feasible cells, `n` mutants in the catalogue.
fn smallest_of(
    mut first: Vec<(Bits, Cell, Board)>,
    mut cells: Vec<Cell>,
    n: usize,
    positions: u64,
) -> KillerSet {
    cells.sort();
    // Among equal signatures the first kept is the first in input-space order; prefer fewer
    // stones among the candidates, so the set is made of the simplest positions.
    first.sort_by_key(|(_, _, b)| (b.ply(), *b));
    let sigs: Vec<Bits> = first
        .iter()
        .map(|(kills, cell, _)| {
            let mut s = kills.clone();
            s.set(n + cells.binary_search(cell).expect("a cell seen"));
            s
        })
        .collect();
    let mut killable = Bits::new(n);
    for (kills, _, _) in &first {
        killable.union_with(kills);
    }
    let mut exclusive = Bits::new(n + cells.len());
    for i in 0..cells.len() {
        exclusive.set(n + i);
    }
    let mut boards: Vec<Board> = smallest_cover(&sigs, &exclusive)
        .iter()
        .map(|&i| first[i].2)
        .collect();
    boards.sort_by_key(|&b| (b.ply(), b));
    KillerSet {
        boards,
        positions,
        mutants: n,
        killable,
        cells,
        guards: (0, 0),
        spread: Vec::new(),
    }
}

/// Completes `set` with the positions the guard coverage `guards` still needs.
/// Then leaves out each position, most stones first, whose mutants, cell and guard elements
/// the others all bring.
fn with_guards(
    mut set: KillerSet,
    guards: &Guards,
    spread: &Spread,
    catalogue: &mut Catalogue,
) -> KillerSet {
    let mutant_cover = set.boards.clone();
    set.guards = guards.complete(&mut set.boards, |b| catalogue.lines_deciding(b));
    // Each answer at its first, middle and last ply.
    let targets = spread.targets();
    let answer_of = |catalogue: &mut Catalogue, b: Board| catalogue.judged(b).1.answer;
    let held: hashbrown::HashSet<(u8, u32)> = set
        .boards
        .iter()
        .map(|&b| (answer_of(catalogue, b), b.ply()))
        .collect();
    for &(t, b) in &targets {
        if !held.contains(&t) {
            set.boards.push(b);
        }
    }
    set.boards.sort_by_key(|&b| (b.ply(), b));
    set.spread = targets.iter().map(|&(t, _)| t).collect();
    let brought: Vec<Vec<usize>> = set
        .boards
        .iter()
        .map(|&b| brings(&set, guards, catalogue, b))
        .collect();
    let mut count: HashMap<usize, u32> = HashMap::new();
    for v in &brought {
        for &e in v {
            *count.entry(e).or_default() += 1;
        }
    }
    let mut keep = vec![true; set.boards.len()];
    for k in (0..set.boards.len()).rev() {
        if brought[k].iter().all(|e| count[e] > 1) {
            keep[k] = false;
            for e in &brought[k] {
                *count.get_mut(e).expect("counted") -= 1;
            }
        }
    }
    let mut k = 0;
    set.boards.retain(|_| {
        k += 1;
        keep[k - 1]
    });
    // The same members covered at once, from the same positions: the mutants' cover, the
    // guard coverage's candidates and the spread's positions. Where that is smaller (a
    // position of one element kind often brings others), it stands.
    let mut pool: Vec<Board> = mutant_cover;
    pool.extend(guards.candidates());
    pool.extend(targets.iter().map(|&(_, b)| b));
    pool.sort_by_key(|&b| (b.ply(), b));
    pool.dedup();
    let members: Vec<Vec<usize>> = pool
        .iter()
        .map(|&b| brings(&set, guards, catalogue, b))
        .collect();
    let mut ids: Vec<usize> = members.iter().flatten().copied().collect();
    ids.sort_unstable();
    ids.dedup();
    let id = |e: usize| ids.binary_search(&e).expect("an element of the pool");
    let sigs: Vec<Bits> = members
        .iter()
        .map(|es| {
            let mut s = Bits::new(ids.len());
            for &e in es {
                s.set(id(e));
            }
            s
        })
        .collect();
    let joint = crate::cover::greedy(&sigs);
    if joint.len() < set.boards.len() {
        set.boards = joint.iter().map(|&k| pool[k]).collect();
        set.boards.sort_by_key(|&b| (b.ply(), b));
    }
    set
}

/// What position `b` brings to killer set `set`, as members of one set: the mutants it
/// catches, then its cell, then its guard elements, then its (answer, ply) of the spread.
fn brings(set: &KillerSet, guards: &Guards, catalogue: &mut Catalogue, b: Board) -> Vec<usize> {
    let n = catalogue.mutants.len();
    let (a, cell) = catalogue.judged(b);
    let kills = catalogue.kills(b, &a);
    let mut v: Vec<usize> = kills.iter().collect();
    v.push(n + set.cells.binary_search(&cell).expect("a feasible cell"));
    let decided = catalogue.lines_killed(&kills);
    let base = n + set.cells.len();
    v.extend(guards.elements(b, decided).into_iter().map(|e| base + e));
    // The spread's elements after every guard element.
    if let Some(k) = set.spread.iter().position(|&t| t == (cell.answer, b.ply())) {
        v.push(usize::MAX - k);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where [`Catalogue::reads_as_right`] skips a mutant, computing it in full gives the
    /// right rule and the right answer: on every position of the input spaces of the 3×3
    /// built-ins and of cf754b (4×4).
    #[test]
    fn a_mutant_skipped_as_reading_right_answers_right() {
        for name in [
            "cf3c",
            "toe1",
            "toe2",
            "ccc-hk-2008-j4",
            "perfect-play",
            "cf754b",
        ] {
            let p = Problem::builtin(name).expect("a built-in");
            let mut cat = Catalogue::new(&p);
            let (mut skipped, mut computed) = (0u64, 0u64);
            for b in p.positions() {
                let f0 = cat.facts(b);
                let v0 = p.verdict_of(&f0).expect("a rule");
                let right = p.verdicts[v0].render(&f0, p.geometry.cols);
                for i in 0..cat.mutants.len() {
                    let m = cat.mutants[i];
                    if matches!(
                        m,
                        Mutant::RulesSwapped(_)
                            | Mutant::AnswerCase
                            | Mutant::AnswerSpacing
                            | Mutant::Repeated(_)
                            | Mutant::Omitted(_)
                    ) {
                        continue;
                    }
                    let live = Live::of(&p.geometry, b, p.needs_values(), cat.needs.wins_now);
                    if cat.reads_as_right(i, b, &f0, &live) {
                        skipped += 1;
                        let (v, f) = cat.verdict_by(m, b).expect("a rule");
                        assert_eq!(v, v0, "{name}: {m:?} on {b:?}");
                        assert_eq!(p.verdicts[v].render(&f, p.geometry.cols), right);
                    } else {
                        computed += 1;
                    }
                }
                // The mutants of the answer's letters and spaces, as written out.
                let kills = cat.kills(b, &right);
                for i in 0..cat.mutants.len() {
                    let m = cat.mutants[i];
                    if matches!(m, Mutant::AnswerCase | Mutant::AnswerSpacing) {
                        assert_eq!(
                            kills.has(i),
                            cat.answer(m, b).as_deref() != Some(&right[..])
                        );
                    }
                }
            }
            assert!(skipped > 0 && computed > 0, "{name}: {skipped} {computed}");
        }
    }
}
