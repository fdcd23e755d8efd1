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
    /// Plays every game of `g`: the setups on their own threads, and within a setup ply by
    /// ply, each ply's positions expanded on all threads. A position is claimed by an atomic
    /// or on its bit, so each is expanded once whichever thread meets it first; which thread
    /// that is changes nothing but the order of the next ply, and the set found is the same.
    pub fn explore(g: &Geometry) -> Reachable {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        let found: Vec<(Vec<u64>, u64)> = g
            .setups()
            .into_par_iter()
            .map(|t| {
                let free = g.cells() - t.count_ones();
                let words: Vec<AtomicU64> = (0..3usize.pow(free).div_ceil(64))
                    .map(|_| AtomicU64::new(0))
                    .collect();
                let claim = |b: Board| {
                    let i = setup_code(b).1 as usize;
                    let (w, m) = (&words[i / 64], 1u64 << (i % 64));
                    w.load(Relaxed) & m == 0 && w.fetch_or(m, Relaxed) & m == 0
                };
                let root = Board::empty(t);
                claim(root);
                let mut frontier = vec![root];
                while !frontier.is_empty() {
                    let next: Vec<Vec<Board>> = frontier
                        .par_chunks(1 << 12)
                        .map(|chunk| {
                            let mut out = Vec::new();
                            for &b in chunk {
                                let mover = b.to_move();
                                let mut empty = g.full() & !b.filled();
                                while empty != 0 {
                                    let square = empty.trailing_zeros();
                                    empty &= empty - 1;
                                    let (child, status) = g.play(b, mover, square);
                                    if claim(child) && status == Status::Open {
                                        out.push(child);
                                    }
                                }
                            }
                            out
                        })
                        .collect();
                    frontier = next.concat();
                }
                let words: Vec<u64> = words.into_iter().map(AtomicU64::into_inner).collect();
                let count = words.iter().map(|w| w.count_ones() as u64).sum();
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
        self.for_each(g, |b| out.push(b));
        out
    }

    /// Calls `f` on every reachable position, in the order of
    /// [`super::Problem::for_each_grid`].
    pub fn for_each(&self, g: &Geometry, mut f: impl FnMut(Board)) {
        let setups = g.setups();
        for (words, &t) in self.bits.iter().zip(&setups) {
            for (w, &word) in words.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let i = (w * 64) as u32 + word.trailing_zeros();
                    word &= word - 1;
                    f(board_at(g, t, i));
                }
            }
        }
    }
}

/// `DIGITS[c]`: the eight base-3 digits of `c < 3^8` as the squares holding 1 and those
/// holding 2.
static DIGITS: [(u8, u8); 6561] = {
    let mut t = [(0u8, 0u8); 6561];
    let mut c = 0;
    while c < 6561 {
        let (mut v, mut i, mut ones, mut twos) = (c, 0, 0u8, 0u8);
        while i < 8 {
            match v % 3 {
                1 => ones |= 1 << i,
                2 => twos |= 1 << i,
                _ => {}
            }
            v /= 3;
            i += 1;
        }
        t[c] = (ones, twos);
        c += 1;
    }
    t
};

/// The board of setup `t` whose grid is `code` (the inverse of [`setup_code`]): two table
/// look-ups, eight squares each.
#[inline]
pub fn board_at(_g: &Geometry, t: u16, code: u32) -> Board {
    let (lo, hi) = (
        DIGITS[(code % 6561) as usize],
        DIGITS[(code / 6561) as usize],
    );
    let x = lo.0 as u16 | (hi.0 as u16) << 8;
    let o = lo.1 as u16 | (hi.1 as u16) << 8;
    if t == 0 {
        return Board { x, o, t };
    }
    // Squares above the joker's move up one, past it.
    let low = t - 1;
    let spread = |m: u16| (m & low) | ((m & !low) << 1);
    Board {
        x: spread(x),
        o: spread(o),
        t,
    }
}
