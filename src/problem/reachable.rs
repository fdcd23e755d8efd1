//! The set of positions play reaches on a board, found by playing every game once: a walk from
//! each setup's empty board that expands each position the first time it meets it, with one
//! bit a grid (see [`setup_code`]) as its memo. On a 4×4 board that is 5.4 MB and a fraction
//! of a second, where checking every one of the 43 million grids for reachability took most of
//! a minute.

use super::facts::setup_code;
use crate::outcome::Status;
use crate::tictactoe::board::Board;
use crate::tictactoe::rules::Geometry;
use rayon::prelude::*;

/// Every position reachable in play on a geometry, from every setup.
pub struct Reachable {
    /// One bit a grid of each setup, by [`setup_code`].
    bits: Vec<Vec<u64>>,
    /// How many positions.
    count: u64,
}

impl std::fmt::Debug for Reachable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Reachable({} positions)", self.count)
    }
}

impl Reachable {
    /// Plays every game of `g`, each setup on its own thread.
    pub fn explore(g: &Geometry) -> Reachable {
        let found: Vec<(Vec<u64>, u64)> = g
            .setups()
            .into_par_iter()
            .map(|t| {
                let free = g.cells() - t.count_ones();
                let mut words = vec![0u64; 3usize.pow(free).div_ceil(64)];
                let mut count = 0u64;
                let mut mark = |b: Board| {
                    let i = setup_code(b).1 as usize;
                    let (w, m) = (i / 64, 1u64 << (i % 64));
                    if words[w] & m != 0 {
                        return false;
                    }
                    words[w] |= m;
                    count += 1;
                    true
                };
                let root = Board::empty(t);
                mark(root);
                let mut stack = vec![root];
                while let Some(b) = stack.pop() {
                    let mover = b.to_move();
                    let mut empty = g.full() & !b.filled();
                    while empty != 0 {
                        let square = empty.trailing_zeros();
                        empty &= empty - 1;
                        let (child, status) = g.play(b, mover, square);
                        if mark(child) && status == Status::Open {
                            stack.push(child);
                        }
                    }
                }
                (words, count)
            })
            .collect();
        Reachable {
            count: found.iter().map(|f| f.1).sum(),
            bits: found.into_iter().map(|f| f.0).collect(),
        }
    }

    /// How many positions play reaches.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Whether play reaches none (never: the empty board is reached).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether play reaches `b`.
    #[inline]
    pub fn contains(&self, b: Board) -> bool {
        let (setup, i) = setup_code(b);
        self.bits[setup]
            .get(i as usize / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// Every reachable position, in the order of [`super::Problem::for_each_grid`].
    pub fn boards(&self, g: &Geometry) -> Vec<Board> {
        let mut out = Vec::with_capacity(self.count as usize);
        let setups = g.setups();
        for (words, &t) in self.bits.iter().zip(&setups) {
            for (w, &word) in words.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let i = (w * 64) as u32 + word.trailing_zeros();
                    word &= word - 1;
                    out.push(board_at(g, t, i));
                }
            }
        }
        out
    }
}

/// The board of setup `t` whose grid is `code` (the inverse of [`setup_code`]).
pub fn board_at(g: &Geometry, t: u16, mut code: u32) -> Board {
    let mut b = Board::empty(t);
    for s in 0..g.cells() {
        if t >> s & 1 == 1 {
            continue;
        }
        match code % 3 {
            1 => b.x |= 1 << s,
            2 => b.o |= 1 << s,
            _ => {}
        }
        code /= 3;
    }
    b
}
