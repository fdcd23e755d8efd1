//! The facts tomek computes for a position, which a problem's verdict rules read: whether play
//! reaches it, who has a line, whether the board is full, who moves next, whether the game is
//! over, the ply, and perfect play.
//!
//! The first player's stones are the board's `x`, the second's its `o`, the joker its `t`:
//! whoever moves first is X to the rules.

use crate::outcome::{Player, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::explain::Outcome;
use crate::tictactoe::reach::{self, Checks};
use crate::tictactoe::rules::Geometry;
use hashbrown::HashMap;

/// Who has a whole line (the joker counting for both).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    /// Nobody.
    None,
    /// The first player only.
    First,
    /// The second player only.
    Second,
    /// Both players (never in play).
    Both,
}

impl Line {
    /// The words a description uses.
    pub const WORDS: [(&'static str, Line); 4] = [
        ("none", Line::None),
        ("first", Line::First),
        ("second", Line::Second),
        ("both", Line::Both),
    ];
}

/// Who moves next, by the stone counts alone.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Next {
    /// As many stones each: the first player.
    First,
    /// The first player has one more: the second player.
    Second,
    /// The counts fit no game.
    Neither,
}

impl Next {
    /// The words a description uses.
    pub const WORDS: [(&'static str, Next); 3] = [
        ("first", Next::First),
        ("second", Next::Second),
        ("neither", Next::Neither),
    ];
}

/// Who wins from a reachable position under perfect play (on a finished board, who won).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    /// The first player.
    First,
    /// The second player.
    Second,
    /// Nobody: a draw.
    Nobody,
}

impl Winner {
    /// The words a description uses.
    pub const WORDS: [(&'static str, Winner); 3] = [
        ("first", Winner::First),
        ("second", Winner::Second),
        ("nobody", Winner::Nobody),
    ];
}

/// Everything a verdict rule can ask of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Facts {
    /// Whether play reaches the position (first player first, play stopping at the first line).
    pub reachable: bool,
    /// Who has a line.
    pub line: Line,
    /// Whether every square holds a stone or the joker.
    pub full: bool,
    /// Who moves next by the counts.
    pub next: Next,
    /// Whether someone has a line or the board is full.
    pub over: bool,
    /// Stones on the board.
    pub ply: u32,
    /// Perfect play for the side to move, on a reachable position still open (when asked for).
    pub value: Option<Outcome>,
    /// Who wins under perfect play, on a reachable position (when asked for).
    pub winner: Option<Winner>,
}

/// The facts of `b`, with the rules of play held to `checks` and the lines of `g`; perfect play
/// from `values` when given.
pub fn facts_with(g: &Geometry, b: Board, checks: Checks, values: Option<&mut Values>) -> Facts {
    let (first, second) = (
        g.wins(b, Player::X),
        g.has_line(checks.counting_for(b, Player::O)),
    );
    let line = match (first, second) {
        (false, false) => Line::None,
        (true, false) => Line::First,
        (false, true) => Line::Second,
        (true, true) => Line::Both,
    };
    let full = b.filled() == g.full();
    let (x, o) = (b.x.count_ones(), b.o.count_ones());
    let next = if x == o {
        Next::First
    } else if x == o + 1 {
        Next::Second
    } else {
        Next::Neither
    };
    let reachable = reach::check_with(g, b, checks).is_ok();
    let over = line != Line::None || full;
    let (mut value, mut winner) = (None, None);
    if let (Some(values), true) = (values, reachable) {
        let mover = if next == Next::First {
            Player::X
        } else {
            Player::O
        };
        if over {
            winner = Some(match line {
                Line::First => Winner::First,
                Line::Second => Winner::Second,
                _ => Winner::Nobody,
            });
        } else {
            let v = values.outcome(g, b, mover);
            value = Some(v);
            winner = Some(match (v, mover) {
                (Outcome::Draw, _) => Winner::Nobody,
                (Outcome::Win, Player::X) | (Outcome::Loss, Player::O) => Winner::First,
                _ => Winner::Second,
            });
        }
    }
    Facts {
        reachable,
        line,
        full,
        next,
        over,
        ply: x + o,
        value,
        winner,
    }
}

/// Perfect play, remembered: the result for the side to move of every open board asked about
/// and of every board below it. A board's value depends on the board alone, so one table
/// serves every question of a geometry.
#[derive(Default)]
pub struct Values {
    memo: HashMap<Board, Outcome>,
}

impl Values {
    /// An empty table.
    pub fn new() -> Values {
        Values::default()
    }

    /// The result of perfect play for `mover` on the open board `b`: a win when some move wins
    /// at once or leaves the opponent lost, a draw when the best it can reach is a draw.
    pub fn outcome(&mut self, g: &Geometry, b: Board, mover: Player) -> Outcome {
        if let Some(&v) = self.memo.get(&b) {
            return v;
        }
        let mut best = Outcome::Loss;
        let mut empty = g.full() & !b.filled();
        while empty != 0 {
            let square = empty.trailing_zeros();
            empty &= empty - 1;
            let (child, status) = g.play(b, mover, square);
            let v = match status {
                Status::Open => self.outcome(g, child, mover.other()).flip(),
                Status::Draw => Outcome::Draw,
                _ => Outcome::Win,
            };
            best = best.max(v);
            if best == Outcome::Win {
                break;
            }
        }
        self.memo.insert(b, best);
        best
    }
}
