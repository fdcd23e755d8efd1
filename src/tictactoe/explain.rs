//! Everything about one Tic-Tac-Toe-Tomek board: what each evaluator says, whether play can
//! reach it (and if not, every reason why), its value and distance to the end under perfect
//! play with a table of its moves, how many move orders reach it and how many complete games
//! pass through it, and its orbit under the symmetries of the lines.
//!
//! Perfect play and the games below an open board come from [`subtree::solve`]: a backward pass
//! over the boards play reaches from it, or, for boards of the first plies, tables of their
//! setup computed once and kept. The games through a board are the move orders reaching it
//! ([`sequences`], in closed form) times the complete games below it.
//!
//! [`solve`] finds the same by walking the board's whole setup ([`SetupSpace::explore`]) and
//! solving backward from the last ply down to the board's, over the boards that hold its
//! stones (one byte a slot of the [`rank`] index per ply), counting the games below from the
//! move orders leading to each finished board above it ([`sequences`]). It takes a fraction of
//! a second a board, and is kept as the reference the faster path is tested against.
//!
//! [`rank`]: crate::tictactoe::rank

use crate::outcome::ByStatus;
use crate::outcome::{Player, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::eval::EvaluatorKind;
use crate::tictactoe::rank::PlyIndex;
use crate::tictactoe::reach::{self, Unreachable};
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::space::SetupSpace;
use crate::tictactoe::stats::setup_name;
use crate::tictactoe::subtree;
use crate::tictactoe::symmetry;
use std::fmt;

/// A result of perfect play for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Outcome {
    /// The side to move loses whatever it does.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move can force a win.
    Win,
}

impl Outcome {
    /// The same result seen by the other player.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }

    /// The word printed for it.
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
            Outcome::Win => "win",
        }
    }
}

/// The value of a board under perfect play: the result for the side to move and the moves
/// (plies) left until the game ends, the winner ending the game as fast as it can and the
/// loser as late as it can. A drawn game always fills the board, so its distance is the number
/// of empty squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Value {
    /// Win, draw or loss for the side to move.
    pub outcome: Outcome,
    /// Plies until the end under perfect play (0 on a finished board).
    pub distance: u32,
}

impl Value {
    /// How good the value is for the side it belongs to: a faster win is better, and a slower
    /// loss is better.
    pub fn rank(self) -> (Outcome, i32) {
        match self.outcome {
            Outcome::Win => (Outcome::Win, -(self.distance as i32)),
            Outcome::Draw => (Outcome::Draw, 0),
            Outcome::Loss => (Outcome::Loss, self.distance as i32),
        }
    }

    /// The value of the board a move leads to, seen by the player who made the move.
    pub fn after_move(child: Value) -> Value {
        Value {
            outcome: child.outcome.flip(),
            distance: child.distance + 1,
        }
    }

    /// One byte for the tables of the backward pass: never 0 (which means "no value").
    pub(crate) fn code(self) -> u8 {
        1 + self.outcome as u8 * 17 + self.distance as u8
    }

    pub(crate) fn from_code(c: u8) -> Value {
        let c = c - 1;
        let outcome = [Outcome::Loss, Outcome::Draw, Outcome::Win][(c / 17) as usize];
        Value {
            outcome,
            distance: (c % 17) as u32,
        }
    }

    /// [`Value::rank`] as one byte, never 0, so that the best of several values is their
    /// largest key: wins from 119 (in 1 ply) down, a draw 50, losses from 17 plies down to 0.
    pub(crate) const fn key(self) -> u8 {
        match self.outcome {
            Outcome::Win => 120 - self.distance as u8,
            Outcome::Draw => 50,
            Outcome::Loss => 1 + self.distance as u8,
        }
    }

    /// The value of a [`Value::key`] on a board with `empty` empty squares: a drawn game
    /// ends on a full board, so a draw's distance is the empty squares.
    pub(crate) const fn from_key(k: u8, empty: u32) -> Value {
        match k {
            0..=49 => Value {
                outcome: Outcome::Loss,
                distance: k as u32 - 1,
            },
            50 => Value {
                outcome: Outcome::Draw,
                distance: empty,
            },
            _ => Value {
                outcome: Outcome::Win,
                distance: 120 - k as u32,
            },
        }
    }

    /// [`Value::after_move`] on keys: `AFTER_MOVE[key of a child]` is the key of the move
    /// to it, seen by its mover.
    pub(crate) const AFTER_MOVE: [u8; 128] = {
        let mut t = [0u8; 128];
        let mut k = 1;
        while k < 120 {
            t[k] = match k {
                1..=49 => 119 - (k as u8 - 1),
                50 => 50,
                _ => 2 + (120 - k as u8),
            };
            k += 1;
        }
        t
    };

    /// The value of a finished board for its side to move.
    pub(crate) fn finished(s: Status) -> Value {
        Value {
            outcome: if s == Status::Draw {
                Outcome::Draw
            } else {
                Outcome::Loss
            },
            distance: 0,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plies = if self.distance == 1 { "ply" } else { "plies" };
        write!(f, "{} in {} {plies}", self.outcome.word(), self.distance)
    }
}

/// One legal move of a board and where it leads under perfect play.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MoveValue {
    /// The square played, 0-15 in reading order.
    pub square: u32,
    /// Its row, 1-4 from the top.
    pub row: u32,
    /// Its column, 1-4 from the left.
    pub col: u32,
    /// The board after the move.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::tictactoe::board::serialize_line")
    )]
    pub board: Board,
    /// The status of the board after the move.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::outcome::serialize_answer")
    )]
    pub status: Status,
    /// The value for the player who moves, counting this move in the distance.
    pub value: Value,
}

/// What perfect play and counting say about a reachable board.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Play {
    /// The value for the side to move.
    pub value: Value,
    /// Every legal move, best first (then by square).
    pub moves: Vec<MoveValue>,
    /// Move orders from the setup's empty board that reach this board.
    pub sequences: u64,
    /// Complete games that pass through this board, by outcome (`open` is 0).
    pub games: ByStatus<u64>,
}

/// A board's orbit under a symmetry group.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Orbit {
    /// How many symmetries the group has (32 for the lines of the 4×4 board).
    pub group_order: usize,
    /// How many distinct boards the symmetries make of this one.
    pub size: usize,
    /// The one whose text sorts first (`.` < `O` < `T` < `X`, square by square): the `orbit`
    /// column of `tomek query`.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::tictactoe::board::serialize_line")
    )]
    pub smallest: Board,
}

/// What each evaluator says about the board.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Verdict {
    /// The evaluator's name, as on the command line.
    pub evaluator: &'static str,
    /// Its answer.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::outcome::serialize_answer")
    )]
    pub status: Status,
}

/// Everything known about one board.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Explanation {
    /// The board, 16 symbols in reading order.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::tictactoe::board::serialize_line")
    )]
    pub board: Board,
    /// The status by each of the four evaluators.
    pub evaluators: Vec<Verdict>,
    /// Whether the four evaluators give the same status.
    pub agree: bool,
    /// `none`, or the square of the `T`; absent when the board has more than one `T`.
    pub setup: Option<String>,
    /// Stones on the board.
    pub ply: u32,
    /// X stones.
    pub x_stones: u32,
    /// O stones.
    pub o_stones: u32,
    /// Whose turn it is by the stone counts (X moves first); absent when the counts fit no
    /// turn order.
    pub to_move: Option<char>,
    /// Whether play can reach the board.
    pub reachable: bool,
    /// The status the game has when play reaches the board.
    #[cfg_attr(feature = "serde", serde(serialize_with = "serialize_status"))]
    pub status: Option<Status>,
    /// Every reason play cannot reach the board, the one `validate` reports first.
    pub reasons: Vec<String>,
    /// Perfect play and counts, for a reachable board.
    pub play: Option<Play>,
    /// The orbit under every symmetry of the lines.
    pub orbit: Orbit,
}

#[cfg(feature = "serde")]
fn serialize_status<S: serde::Serializer>(st: &Option<Status>, s: S) -> Result<S::Ok, S::Error> {
    match st {
        Some(st) => s.serialize_str(st.answer()),
        None => s.serialize_none(),
    }
}

/// Why a board given as text cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardSyntaxError {
    /// A character that is not a square's symbol.
    #[error(
        "`{text}`: `{found}` at position {position} is not a square (X, O, T or .); a board is 16 symbols in reading order, or 4 rows of 4 joined by /"
    )]
    Symbol {
        /// The text given.
        text: String,
        /// The offending character.
        found: char,
        /// Its 1-based position in the text.
        position: usize,
    },
    /// Rows of the wrong length or number.
    #[error("`{text}`: {what}; a board is 16 symbols in reading order, or 4 rows of 4 joined by /")]
    Shape {
        /// The text given.
        text: String,
        /// What is wrong with its shape.
        what: String,
    },
}

/// Reads a board from 16 symbols in reading order (`XXXT..O.........`) or four rows of four
/// joined by `/` (`XXXT/..O./..../....`). More than one `T` is read as written (such a board
/// is explained as unreachable), so that every fact about it can still be told.
pub fn parse_board(text: &str) -> Result<Board, BoardSyntaxError> {
    let shape = |what: String| BoardSyntaxError::Shape {
        text: text.to_string(),
        what,
    };
    let mut b = Board::default();
    let mut square = 0u32;
    for (i, ch) in text.chars().enumerate() {
        if ch == '/' {
            continue;
        }
        if !matches!(ch, 'X' | 'O' | 'T' | '.') {
            return Err(BoardSyntaxError::Symbol {
                text: text.to_string(),
                found: ch,
                position: i + 1,
            });
        }
        if square < 16 {
            let bit = 1u16 << square;
            match ch {
                'X' => b.x |= bit,
                'O' => b.o |= bit,
                'T' => b.t |= bit,
                _ => {}
            }
        }
        square += 1;
    }
    if text.contains('/') {
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != 4 {
            return Err(shape(format!("{} rows, expected 4", rows.len())));
        }
        if let Some((i, r)) = rows
            .iter()
            .enumerate()
            .find(|(_, r)| r.chars().count() != 4)
        {
            return Err(shape(format!(
                "row {} has {} symbols, expected 4",
                i + 1,
                r.chars().count()
            )));
        }
    } else if square != 16 {
        return Err(shape(format!("{square} symbols, expected 16")));
    }
    Ok(b)
}

/// The board as four rows joined by `/`.
pub fn rows_text(b: Board) -> String {
    let line = line_text(b);
    [&line[0..4], &line[4..8], &line[8..12], &line[12..16]].join("/")
}

/// The 16 symbols of a board, a `T` shown on every square of its `T` mask.
pub fn line_text(b: Board) -> String {
    (0..16).map(|i| b.symbol(i)).collect()
}

/// Every reason play cannot reach `b`, in the order [`reach::check`] tests them (so the first
/// is the one `validate` reports). Unlike that check, this one goes on after the first reason
/// where the later tests still mean something.
pub fn reasons(g: &Geometry, b: Board) -> Vec<Unreachable> {
    let mut out = Vec::new();
    if b.x & b.o != 0 || (b.x | b.o) & b.t != 0 || (b.filled() & !g.full()) != 0 {
        // Overlapping symbols leave nothing else to say.
        return vec![Unreachable::Overlap];
    }
    if b.t.count_ones() > 1 || (b.t != 0 && !g.joker) {
        out.push(Unreachable::SeveralT);
    }
    let (x, o) = (b.x.count_ones(), b.o.count_ones());
    let counts_fit = x == o || x == o + 1;
    if !counts_fit {
        out.push(Unreachable::StoneCounts { x, o });
    }
    let winner = match (g.wins(b, Player::X), g.wins(b, Player::O)) {
        (true, true) => {
            out.push(Unreachable::BothWin);
            None
        }
        (true, false) => Some(Player::X),
        (false, true) => Some(Player::O),
        (false, false) => None,
    };
    if let Some(winner) = winner {
        let last_mover = if x > o { Player::X } else { Player::O };
        if counts_fit && winner != last_mover {
            out.push(Unreachable::WinnerNotLastMover { winner });
        }
        if g.line_core(b.counting_for(winner)) & b.of(winner) == 0 {
            out.push(Unreachable::NoWinningMove { winner });
        }
    }
    out
}

/// `n!` for `n ≤ 16`.
fn factorial(n: u32) -> u64 {
    /// 0! to 20!, the largest that fits in 64 bits: a board has at most 16 squares.
    const TABLE: [u64; 21] = {
        let mut t = [1u64; 21];
        let mut i = 1;
        while i < 21 {
            t[i] = t[i - 1] * i as u64;
            i += 1;
        }
        t
    };
    TABLE[n as usize]
}

/// The move orders that lead from the open board `from` to the finished board `to` (which holds
/// every stone of `from` and is reachable), ending the game exactly at `to`.
///
/// Boards without a line are closed under taking stones away, so from `from` every order of
/// the new X stones and of the new O stones (their interleaving is fixed by the turns) passes
/// only through open boards until the last move. For a draw that gives `a! · b!` orders of the
/// `a` new X and `b` new O stones. A won board was finished by a winner's stone whose removal
/// leaves no line, one of the new winner stones on every winning line; each such last stone
/// leaves `(a - 1)! · b!` orders of the others (the winner's new stones counted in `a`).
pub fn sequences(g: &Geometry, from: Board, to: Board, status: Status) -> u64 {
    let new_x = (to.x & !from.x).count_ones();
    let new_o = (to.o & !from.o).count_ones();
    match status {
        Status::Open | Status::Draw => factorial(new_x) * factorial(new_o),
        Status::XWon | Status::OWon => {
            let winner = if status == Status::XWon {
                Player::X
            } else {
                Player::O
            };
            let (new_w, new_l) = match winner {
                Player::X => (new_x, new_o),
                Player::O => (new_o, new_x),
            };
            let last = g.line_core(to.counting_for(winner)) & to.of(winner) & !from.of(winner);
            last.count_ones() as u64 * factorial(new_w.saturating_sub(1)) * factorial(new_l)
        }
    }
}

/// Slots handed to one task of a ply's pass: a multiple of the 64 slots of a bitmap word.
const TASK_SLOTS: usize = 64 * 1024;

/// The value of a reachable open board, every move with its value, and the complete games
/// below it by outcome (X won, O won, draw).
///
/// The board's setup is walked once ([`SetupSpace::explore`]); then, from the last ply down
/// to the board's, every reachable board holding the board's stones gets its value from its
/// children's (a table of one byte a slot per ply), and every finished one adds the move orders
/// leading to it from the board ([`sequences`]). A board with a winning move wins in one ply
/// without looking further; otherwise, unless its last square is left, every move leaves an
/// open board whose value is in the next ply's table.
pub fn solve(g: &Geometry, b: Board) -> (Value, Vec<MoveValue>, [u64; 3]) {
    use rayon::prelude::*;
    let space = SetupSpace::explore(g, b.t);
    let squares = g.cells();
    let root_ply = b.ply();
    let mut next: Vec<u8> = Vec::new();
    let mut games = [0u64; 3];
    for ply in (root_ply + 1..=squares).rev() {
        let Some(memo) = space.plies.get(ply as usize) else {
            continue;
        };
        let child_index = PlyIndex::new(squares, (ply + 1).min(squares));
        let mover = if ply % 2 == 0 { Player::X } else { Player::O };
        let mut here = vec![0u8; memo.index.len()];
        let words = memo.words();
        let parts: Vec<[u64; 3]> = here
            .par_chunks_mut(TASK_SLOTS)
            .enumerate()
            .map(|(i, out)| {
                let first_word = i * TASK_SLOTS / 64;
                let last_word = (first_word + TASK_SLOTS / 64).min(words);
                let mut decoder = memo.index.decoder();
                let mut found = [0u64; 3];
                for (slot, status) in memo.slots_in(first_word..last_word) {
                    let c = decoder.board(slot, b.t);
                    if c.x & b.x != b.x || c.o & b.o != b.o {
                        continue;
                    }
                    let v = if status == Status::Open {
                        open_value(g, c, mover, &child_index, &next)
                    } else {
                        found[status.index()] += sequences(g, b, c, status);
                        Value::finished(status)
                    };
                    out[slot - i * TASK_SLOTS] = v.code();
                }
                found
            })
            .collect();
        for p in parts {
            for k in 0..3 {
                games[k] += p[k];
            }
        }
        next = here;
    }
    let mover = b.to_move();
    let index = PlyIndex::new(squares, root_ply + 1);
    let mut moves = Vec::new();
    let mut empty = g.full() & !b.filled();
    while empty != 0 {
        let square = empty.trailing_zeros();
        empty &= empty - 1;
        let (board, status) = g.play(b, mover, square);
        let code = next[index.slot(board)];
        assert_ne!(
            code, 0,
            "a move of a reachable board leads to a reachable board"
        );
        moves.push(MoveValue {
            square,
            row: square / g.cols + 1,
            col: square % g.cols + 1,
            board,
            status,
            value: Value::after_move(Value::from_code(code)),
        });
    }
    moves.sort_by_key(|m| (std::cmp::Reverse(m.value.rank()), m.square));
    let value = moves.first().expect("an open board has a move").value;
    (value, moves, games)
}

/// The value of a reachable open board `c` for its side to move, from the values of the next
/// ply (`next`, indexed by `index`).
#[inline]
fn open_value(g: &Geometry, c: Board, mover: Player, index: &PlyIndex, next: &[u8]) -> Value {
    let empty = g.full() & !c.filled();
    if g.completing(c.counting_for(mover)) & empty != 0 {
        return Value {
            outcome: Outcome::Win,
            distance: 1,
        };
    }
    if empty & (empty - 1) == 0 {
        // No move wins, and the last square fills the board.
        return Value {
            outcome: Outcome::Draw,
            distance: 1,
        };
    }
    let mut best: Option<Value> = None;
    let mut rest = empty;
    while rest != 0 {
        let square = rest.trailing_zeros();
        rest &= rest - 1;
        // No move wins and the board does not fill: the child is open and reachable.
        let child = c.with(mover, square);
        let v = Value::after_move(Value::from_code(next[index.slot(child)]));
        if best.is_none_or(|w| v.rank() > w.rank()) {
            best = Some(v);
        }
    }
    best.expect("an open board has an empty square")
}

/// The orbit of `b` under `group`.
pub fn orbit(b: Board, group: &[symmetry::Perm]) -> Orbit {
    let mut images: Vec<(String, Board)> = group
        .iter()
        .map(|p| {
            let c = p.board(b);
            (c.to_line(), c)
        })
        .collect();
    images.sort_unstable();
    images.dedup();
    Orbit {
        group_order: group.len(),
        size: images.len(),
        smallest: images.first().map_or(b, |i| i.1),
    }
}

/// The symmetries of the lines of the Code Jam board, found once.
fn tomek_group() -> &'static [symmetry::Perm] {
    static GROUP: std::sync::OnceLock<Vec<symmetry::Perm>> = std::sync::OnceLock::new();
    GROUP.get_or_init(|| symmetry::automorphisms(Geometry::tomek()))
}

/// Everything about one board of the Code Jam game (4×4, four in a row, with the `T`).
pub fn explain(b: Board) -> Explanation {
    let g = Geometry::tomek();
    let evaluators: Vec<Verdict> = EvaluatorKind::ALL
        .iter()
        .map(|k| Verdict {
            evaluator: k.name(),
            status: k.get().status(b),
        })
        .collect();
    let agree = evaluators.iter().all(|v| v.status == evaluators[0].status);
    let (x, o) = (b.x.count_ones(), b.o.count_ones());
    let reached = reach::check(g, b);
    let why = reasons(g, b);
    debug_assert_eq!(reached.err(), why.first().copied());
    let play = reached.ok().map(|status| {
        let start = Board::empty(b.t);
        let seqs = sequences(g, start, b, status);
        let (value, moves, below) = if status == Status::Open {
            subtree::solve(b)
        } else {
            let mut below = [0; 3];
            below[status.index()] = 1;
            (Value::finished(status), Vec::new(), below)
        };
        Play {
            value,
            moves,
            sequences: seqs,
            games: ByStatus::from_array([seqs * below[0], seqs * below[1], seqs * below[2], 0]),
        }
    });
    Explanation {
        board: b,
        evaluators,
        agree,
        setup: (b.t.count_ones() <= 1).then(|| setup_name(b.t)),
        ply: x + o,
        x_stones: x,
        o_stones: o,
        to_move: (x == o || x == o + 1).then(|| b.to_move().symbol()),
        reachable: reached.is_ok(),
        status: reached.ok(),
        reasons: why.iter().map(|r| r.to_string()).collect(),
        play,
        orbit: orbit(b, tomek_group()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_forms() {
        let a = parse_board("XXXT..O.........").unwrap();
        let b = parse_board("XXXT/..O./..../....").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.t, 1 << 3);
        assert_eq!(rows_text(a), "XXXT/..O./..../....");
        assert!(parse_board("XXXT..O........").is_err());
        assert!(parse_board("XXXT/..O./..../...").is_err());
        assert!(parse_board("XXXT/..O./..../..../").is_err());
        assert!(parse_board("xXXT..O.........").is_err());
        assert_eq!(parse_board("TT..............").unwrap().t, 3);
    }

    #[test]
    fn value_codes_round_trip() {
        for outcome in [Outcome::Loss, Outcome::Draw, Outcome::Win] {
            for distance in 0..=16 {
                let v = Value { outcome, distance };
                assert_eq!(Value::from_code(v.code()), v);
            }
        }
    }

    #[test]
    fn a_won_board() {
        let e = explain(parse_board("XXXT/OO../..../....").unwrap());
        assert!(e.agree && e.reachable);
        assert_eq!(e.status, Some(Status::XWon));
        let p = e.play.unwrap();
        // Each of X's three stones can have been the last: 3 · 2! · 2!.
        assert_eq!(p.sequences, 12);
        assert_eq!(p.games.x_won, 12);
        assert_eq!(p.value.outcome, Outcome::Loss);
        // Three X and one O fit no turn order.
        let e = explain(parse_board("XXXT..O.........").unwrap());
        assert!(!e.reachable && e.play.is_none() && e.to_move.is_none());
    }
}
