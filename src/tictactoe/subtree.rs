//! Perfect play and complete games below one open board of the Code Jam game, by a backward
//! pass over the boards play can reach from it; and, for every board of the first plies of a
//! setup, the same answers computed once and kept.
//!
//! The open boards play reaches from an open board `b` are exactly the boards without a line
//! that hold `b`'s stones and as many new stones of each side as the turns allow: boards
//! without a line are closed under taking stones away, so every order of the new stones passes
//! through open boards only. They need no walk: `j` moves after `b`, with `f` empty squares on
//! `b`, they are the slots of a [`PlyIndex`] on `f` squares (the new stones of the side to move
//! on `b` in the place of X), less the boards with a line. From the last ply down to `b`'s, each
//! open board gets its value (one byte a slot) and the complete games below
//! it by outcome (the sum over its moves: a finished board counts one game, an open board its
//! own games below).
//!
//! A board with at most 9 empty squares has at most 6,046 slots below it, a pass of a few tenths
//! of a millisecond. Boards of the first [`KEPT_PLIES`] plies are answered from tables of their
//! setup: one pass from the empty board (10.2 million slots on 16 squares, 0.8 s of CPU; 3.5
//! million and 0.3 s with a `T`), of which only the first plies are kept (3.2 MB without a `T`,
//! 2.0 MB with one, 36 MB for the 17 setups). They are computed once and shared by every caller
//! ([`prepare`] computes them ahead); until then, boards from ply [`OWN_PASS_PLIES`] on get a
//! pass of their own, cheaper than the tables.

use crate::outcome::{Player, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::explain::{MoveValue, Outcome, Value};
use crate::tictactoe::rank::{PlyIndex, compress, expand};
use crate::tictactoe::rules::Geometry;
use rayon::prelude::*;
use std::sync::OnceLock;

/// Boards with fewer stones than this are answered from their setup's kept tables; the others
/// (at most 9 empty squares) by a pass of their own.
pub const KEPT_PLIES: u32 = 7;

/// Games below one board, by outcome: X won, O won, draw.
pub type Games = [u64; 3];

/// The complete games below the boards of one ply, a slot each. Below a board with `e` empty
/// squares there are at most `e!` games, so up to 12 empty squares a `u32` is enough, which
/// halves the largest plies of a setup's pass.
enum GameTable {
    Narrow(Vec<[u32; 3]>),
    Wide(Vec<[u64; 3]>),
}

impl GameTable {
    #[inline]
    fn get(&self, slot: usize) -> Games {
        match self {
            GameTable::Narrow(v) => v[slot].map(u64::from),
            GameTable::Wide(v) => v[slot],
        }
    }

    fn bytes(&self) -> usize {
        match self {
            GameTable::Narrow(v) => v.len() * 12,
            GameTable::Wide(v) => v.len() * 24,
        }
    }
}

/// One ply of a pass: the value code of every open board (0 elsewhere) and its games below.
struct Layer {
    values: Vec<u8>,
    games: GameTable,
}

/// A board and the dense index of the boards after it.
struct Frame<'g> {
    g: &'g Geometry,
    b: Board,
    /// The empty squares of `b`.
    free: u16,
    /// How many.
    f: u32,
    /// The side to move on `b`: its new stones are the X of the local index.
    first: Player,
}

impl<'g> Frame<'g> {
    fn new(g: &'g Geometry, b: Board) -> Frame<'g> {
        let free = g.full() & !b.filled();
        Frame {
            g,
            b,
            free,
            f: free.count_ones(),
            first: b.to_move(),
        }
    }

    /// The board with new stones `mine` for the side to move on `b` and `theirs` for the other
    /// (both over all squares).
    #[inline]
    fn board(&self, mine: u16, theirs: u16) -> Board {
        let (x, o) = match self.first {
            Player::X => (mine, theirs),
            Player::O => (theirs, mine),
        };
        Board {
            x: self.b.x | x,
            o: self.b.o | o,
            t: self.b.t,
        }
    }

    /// The slot of a board holding `b`'s stones, in the index of its ply after `b`.
    #[inline]
    fn slot(&self, index: &PlyIndex, c: Board) -> usize {
        let (mine, theirs) = match self.first {
            Player::X => (c.x & !self.b.x, c.o & !self.b.o),
            Player::O => (c.o & !self.b.o, c.x & !self.b.x),
        };
        index.slot(Board {
            x: compress(mine, self.free),
            o: compress(theirs, self.free),
            t: 0,
        })
    }

    /// The boards `j` moves after `b`, from the values and games of the boards `j + 1` moves
    /// after it.
    fn layer(&self, j: u32, next: Option<&Layer>, parallel: bool) -> Layer {
        let n = PlyIndex::new(self.f, j).len();
        let mut values = vec![0u8; n];
        let games = if self.f - j <= 12 {
            let mut games = vec![[0u32; 3]; n];
            self.fill(j, next, &mut values, &mut games, parallel);
            GameTable::Narrow(games)
        } else {
            let mut games = vec![[0u64; 3]; n];
            self.fill(j, next, &mut values, &mut games, parallel);
            GameTable::Wide(games)
        };
        Layer { values, games }
    }

    fn fill<C>(
        &self,
        j: u32,
        next: Option<&Layer>,
        values: &mut [u8],
        games: &mut [[C; 3]],
        parallel: bool,
    ) where
        C: Copy + Send + TryFrom<u64>,
        <C as TryFrom<u64>>::Error: std::fmt::Debug,
    {
        /// Slots handed to one task.
        const TASK: usize = 64 * 1024;
        let work = |(i, (values, games)): (usize, (&mut [u8], &mut [[C; 3]]))| {
            self.fill_slots(j, next, i * TASK, values, games)
        };
        if parallel {
            values
                .par_chunks_mut(TASK)
                .zip(games.par_chunks_mut(TASK))
                .enumerate()
                .for_each(work);
        } else {
            values
                .chunks_mut(TASK)
                .zip(games.chunks_mut(TASK))
                .enumerate()
                .for_each(work);
        }
    }

    /// Fills slots `start ..` of ply `j` after `b`. A board with a line, or full, is finished
    /// and left at 0: its parents count it from the move that makes it. A move of an open board
    /// wins when it completes a line of the mover; otherwise it draws if it fills the board, and
    /// else leaves an open board of the next ply.
    fn fill_slots<C>(
        &self,
        j: u32,
        next: Option<&Layer>,
        start: usize,
        values: &mut [u8],
        games: &mut [[C; 3]],
    ) where
        C: Copy + TryFrom<u64>,
        <C as TryFrom<u64>>::Error: std::fmt::Debug,
    {
        let g = self.g;
        let index = PlyIndex::new(self.f, j);
        let child_index = PlyIndex::new(self.f, (j + 1).min(self.f));
        let mover = if j.is_multiple_of(2) {
            self.first
        } else {
            self.first.other()
        };
        let won = Status::won_by(mover).index();
        let mut decoder = index.decoder();
        for (k, (value, count)) in values.iter_mut().zip(games.iter_mut()).enumerate() {
            let (taken, pattern) = decoder.parts(start + k);
            let mine_l = expand(pattern, taken);
            let theirs_l = taken & !mine_l;
            let c = self.board(expand(mine_l, self.free), expand(theirs_l, self.free));
            let empty = self.free & !c.filled();
            if empty == 0 || g.wins(c, Player::X) || g.wins(c, Player::O) {
                continue;
            }
            let wins = g.completing(c.counting_for(mover)) & empty;
            let mut below = [0u64; 3];
            below[won] = wins.count_ones() as u64;
            let mut best = (wins != 0).then_some(Value {
                outcome: Outcome::Win,
                distance: 1,
            });
            if empty & (empty - 1) == 0 {
                if wins == 0 {
                    below[Status::Draw.index()] += 1;
                    best = Some(Value {
                        outcome: Outcome::Draw,
                        distance: 1,
                    });
                }
            } else {
                let next = next.expect("the next ply is filled first");
                let mut rest = compress(empty & !wins, self.free);
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    rest ^= bit;
                    let child = if mover == self.first {
                        Board {
                            x: mine_l | bit,
                            o: theirs_l,
                            t: 0,
                        }
                    } else {
                        Board {
                            x: mine_l,
                            o: theirs_l | bit,
                            t: 0,
                        }
                    };
                    let slot = child_index.slot(child);
                    let v = Value::after_move(Value::from_code(next.values[slot]));
                    if best.is_none_or(|w| v.rank() > w.rank()) {
                        best = Some(v);
                    }
                    let more = next.games.get(slot);
                    for (a, m) in below.iter_mut().zip(more) {
                        *a += m;
                    }
                }
            }
            *value = best.expect("an open board has a move").code();
            *count = below.map(|n| C::try_from(n).expect("the games below fit the table"));
        }
    }

    /// Runs the pass from the last ply down to `b`'s, handing each ply to `keep` (`j` moves
    /// after `b`) before it is dropped.
    fn pass(&self, parallel: bool, mut keep: impl FnMut(u32, &Layer)) {
        let mut next: Option<Layer> = None;
        for j in (0..=self.f).rev() {
            let layer = self.layer(j, next.as_ref(), parallel);
            keep(j, &layer);
            next = Some(layer);
        }
    }
}

/// The answers kept for the first plies of one setup: the pass from its empty board, its plies
/// `0 .. KEPT_PLIES` (games) and `0 ..= KEPT_PLIES` (values, for the moves).
pub struct SetupTables {
    t: u16,
    values: Vec<Vec<u8>>,
    games: Vec<GameTable>,
}

impl SetupTables {
    /// Computes the tables of the setup with `T` mask `t`, the plies in parallel.
    pub fn compute(g: &Geometry, t: u16) -> SetupTables {
        let frame = Frame::new(g, Board::empty(t));
        let mut values = Vec::new();
        let mut games = Vec::new();
        frame.pass(true, |j, layer| {
            if j <= KEPT_PLIES {
                values.push(layer.values.clone());
            }
            if j < KEPT_PLIES {
                games.push(match &layer.games {
                    GameTable::Narrow(v) => GameTable::Narrow(v.clone()),
                    GameTable::Wide(v) => GameTable::Wide(v.clone()),
                });
            }
        });
        values.reverse();
        games.reverse();
        SetupTables { t, values, games }
    }

    /// Bytes held by the tables.
    pub fn bytes(&self) -> usize {
        self.values.iter().map(Vec::len).sum::<usize>()
            + self.games.iter().map(GameTable::bytes).sum::<usize>()
    }
}

fn kept(t: u16) -> &'static OnceLock<SetupTables> {
    static KEPT: [OnceLock<SetupTables>; 17] = [const { OnceLock::new() }; 17];
    debug_assert!(t.count_ones() <= 1);
    &KEPT[if t == 0 {
        0
    } else {
        t.trailing_zeros() as usize + 1
    }]
}

/// The kept tables of the Code Jam game's setup with `T` mask `t` (at most one `T`), computed
/// on first use.
pub fn tables(t: u16) -> &'static SetupTables {
    kept(t).get_or_init(|| SetupTables::compute(Geometry::tomek(), t))
}

/// Computes the kept tables of every setup of the Code Jam game now, one setup after another
/// (each in parallel), and returns the bytes they hold.
pub fn prepare() -> usize {
    Geometry::tomek()
        .setups()
        .into_iter()
        .map(|t| tables(t).bytes())
        .sum()
}

/// Boards with at least this many stones are answered by a pass of their own when their
/// setup's tables are not computed yet: with at most 14 empty squares that pass (at most 1.2
/// million slots, a few hundredths of a second) costs less than the tables. Boards with fewer
/// stones cost as much as the tables, so these are computed (or waited for) and kept.
pub const OWN_PASS_PLIES: u32 = 2;

/// The value of a reachable open board of the Code Jam game, every move with its value (best
/// first, then by square), and the complete games below the board by outcome.
///
/// Boards of the first [`KEPT_PLIES`] plies are read from their setup's tables when those are
/// computed; boards with fewer than [`OWN_PASS_PLIES`] stones wait for them. Every other board
/// gets a pass of its own, so one command answers a board in at most a few hundredths of a
/// second but for the first two plies.
pub fn solve(b: Board) -> (Value, Vec<MoveValue>, Games) {
    let ply = b.ply();
    let tables = if ply >= KEPT_PLIES {
        None
    } else if ply < OWN_PASS_PLIES {
        Some(tables(b.t))
    } else {
        kept(b.t).get()
    };
    solve_with(b, tables)
}

/// [`solve`] from `tables` (those of `b`'s setup, with `b` in their first plies), or by a pass
/// of `b`'s own.
fn solve_with(b: Board, tables: Option<&'static SetupTables>) -> (Value, Vec<MoveValue>, Games) {
    let g = Geometry::tomek();
    let ply = b.ply();
    let (code, below, child_code): (u8, Games, Box<dyn Fn(Board) -> u8>) = if let Some(kept) =
        tables
    {
        assert!(
            kept.t == b.t && ply < KEPT_PLIES,
            "the tables hold the board"
        );
        let root = Frame::new(g, Board::empty(b.t));
        let index = PlyIndex::new(root.f, ply);
        let child_index = PlyIndex::new(root.f, ply + 1);
        let slot = root.slot(&index, b);
        let child_code = move |c: Board| kept.values[ply as usize + 1][root.slot(&child_index, c)];
        (
            kept.values[ply as usize][slot],
            kept.games[ply as usize].get(slot),
            Box::new(child_code),
        )
    } else {
        let frame = Frame::new(g, b);
        let mut top = (0u8, [0u64; 3]);
        let mut after = Vec::new();
        frame.pass(false, |j, layer| match j {
            0 => top = (layer.values[0], layer.games.get(0)),
            1 => after = layer.values.clone(),
            _ => {}
        });
        let index = PlyIndex::new(frame.f, 1);
        let child_code = move |c: Board| after[frame.slot(&index, c)];
        (top.0, top.1, Box::new(child_code))
    };
    assert_ne!(code, 0, "a reachable open board has a value");
    let mover = b.to_move();
    let mut moves = Vec::new();
    let mut empty = g.full() & !b.filled();
    while empty != 0 {
        let square = empty.trailing_zeros();
        empty &= empty - 1;
        let (board, status) = g.play(b, mover, square);
        let after = if status == Status::Open {
            let code = child_code(board);
            assert_ne!(code, 0, "an open move of a reachable board has a value");
            Value::from_code(code)
        } else {
            Value::finished(status)
        };
        moves.push(MoveValue {
            square,
            row: square / g.cols + 1,
            col: square % g.cols + 1,
            board,
            status,
            value: Value::after_move(after),
        });
    }
    moves.sort_by_key(|m| (std::cmp::Reverse(m.value.rank()), m.square));
    (Value::from_code(code), moves, below)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tictactoe::explain;

    /// The kept tables and the pass of a board's own agree with the walk of the whole setup.
    #[test]
    fn agrees_with_the_walk_of_the_setup() {
        let g = Geometry::tomek();
        let boards = [
            "................",
            "X...............",
            "XO..............",
            "X..T..O.........",
            "XO.X.O..........",
            "XXOO.X.O........",
            "XXXOOO..........",
            "XOXOX.O.........",
            "XXOOT.X.O.......",
            ".XO.OX..X..O.T..",
        ];
        for text in boards {
            let b = explain::parse_board(text).unwrap();
            let expected = explain::solve(g, b);
            assert_eq!(solve_with(b, None), expected, "{text}");
            if b.ply() < KEPT_PLIES {
                assert_eq!(solve_with(b, Some(tables(b.t))), expected, "{text}");
            }
        }
    }

    /// Random open boards of every ply up to 12, in several setups, both sides of
    /// [`KEPT_PLIES`].
    #[test]
    fn random_boards_agree_with_the_walk_of_the_setup() {
        let g = Geometry::tomek();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as u32
        };
        let mut checked = 0;
        while checked < 26 {
            let t = [0u16, 1, 1 << 5, 1 << 10, 1 << 15][next(5) as usize];
            let plies = checked % 13;
            let mut b = Board::empty(t);
            let mut open = true;
            for _ in 0..plies {
                let empty = g.full() & !b.filled();
                let mut k = next(empty.count_ones());
                let mut rest = empty;
                while k > 0 {
                    rest &= rest - 1;
                    k -= 1;
                }
                let (c, status) = g.play(b, b.to_move(), rest.trailing_zeros());
                b = c;
                open = status == Status::Open;
                if !open {
                    break;
                }
            }
            if open {
                let expected = explain::solve(g, b);
                assert_eq!(solve_with(b, None), expected, "{}", b.to_line());
                if b.ply() < KEPT_PLIES {
                    assert_eq!(solve_with(b, Some(tables(b.t))), expected);
                }
                checked += 1;
            }
        }
    }
}
