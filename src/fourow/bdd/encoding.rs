//! Connect Four positions as assignments of binary variables, and the move relation on them.
//!
//! Each column of `rows` cells takes `rows + 1` variables, bits `rows` down to `0`: the column's
//! height `h` is marked by bit `h` being set with every bit above it clear, and bits `h - 1`
//! down to `0` are the colours of its chips from the top one down (set for the first player).
//! This is the key of [`crate::fourow::Position::key`] read column by column, so every
//! position is exactly one assignment and counting assignments counts positions.
//!
//! Columns are tested left to right and each column from its top bit down. Reading a column
//! from the top, the first set bit is the height marker and the rest are colours, so a move
//! in a column only rewrites the chain of clear bits above the marker: the column of height `h`
//! continues, after its marker, into the colours below; after a move it has its marker at
//! `h + 1`, the mover's colour at bit `h`, and then the same colours and the same rest of the
//! board. [`Image`] builds the successors of a whole set in one pass over its diagram on
//! that observation.

use super::store::{FALSE, Ref, Store, TRUE};
use std::sync::atomic::{AtomicU32, Ordering};

/// The board's size and the variables of its cells.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Number of columns.
    pub cols: u32,
    /// Number of cells in a column.
    pub rows: u32,
}

impl Layout {
    /// Variables in all.
    pub fn levels(&self) -> u32 {
        self.cols * (self.rows + 1)
    }

    /// The first (top) level of column `col`; `cols` gives the level after the last column.
    pub fn base(&self, col: u32) -> u32 {
        col * (self.rows + 1)
    }

    /// The level of bit `bit` (0 = bottom) of column `col`.
    pub fn level(&self, col: u32, bit: u32) -> u32 {
        self.base(col) + self.rows - bit
    }

    /// The empty board: every column's marker at bit 0.
    pub fn empty(&self, store: &mut Store) -> Ref {
        store.run(1 << 12, |s| {
            let mut r = TRUE;
            for col in (0..self.cols).rev() {
                r = s.mk(self.level(col, 0), FALSE, r);
                for bit in 1..=self.rows {
                    r = s.mk(self.level(col, bit), r, FALSE);
                }
            }
            r
        })
    }

    /// The cell in `col` and `row` holding a chip of the first player (`first`) or the second.
    fn chip(&self, store: &mut Store, col: u32, row: u32, first: bool) -> Ref {
        store.run(1 << 12, |s| {
            // Filled: some bit above `row` is the marker.
            let mut filled = FALSE;
            for bit in row + 1..=self.rows {
                let v = s.mk(self.level(col, bit), FALSE, TRUE);
                filled = s.or(filled, v);
            }
            let level = self.level(col, row);
            let colour = if first {
                s.mk(level, FALSE, TRUE)
            } else {
                s.mk(level, TRUE, FALSE)
            };
            s.and(filled, colour)
        })
    }

    /// Every line of four cells on the board, as (column, row) pairs.
    pub fn lines(&self) -> Vec<[(u32, u32); 4]> {
        let (w, h) = (self.cols as i64, self.rows as i64);
        let mut lines = Vec::new();
        for (dc, dr) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
            for c in 0..w {
                for r in 0..h {
                    let (ec, er) = (c + 3 * dc, r + 3 * dr);
                    if (0..w).contains(&ec) && (0..h).contains(&er) {
                        let cell = |k: i64| ((c + k * dc) as u32, (r + k * dr) as u32);
                        lines.push([cell(0), cell(1), cell(2), cell(3)]);
                    }
                }
            }
        }
        lines
    }

    /// The assignments where the first player (`first`) or the second has four in a line.
    pub fn wins(&self, store: &mut Store, first: bool) -> Ref {
        let mut chips = vec![FALSE; (self.cols * self.rows) as usize];
        for col in 0..self.cols {
            for row in 0..self.rows {
                chips[(col * self.rows + row) as usize] = self.chip(store, col, row, first);
            }
        }
        // Lines are added from the last columns first, so that the union grows from the
        // bottom of the order up.
        let mut lines = self.lines();
        lines.sort_by_key(|l| std::cmp::Reverse(l.iter().map(|&(c, _)| c).min()));
        let mut any = FALSE;
        for line in lines {
            any = store.run(store.len(), |s| {
                let mut all = TRUE;
                for &(c, r) in line.iter().rev() {
                    all = s.and(all, chips[(c * self.rows + r) as usize]);
                }
                s.or(any, all)
            });
        }
        any
    }
}

/// The successors of a set of positions by one move of a given player, computed in one
/// recursive pass.
///
/// For a node `n` at the start of column `c`, `full(n, c)` is the set of what follows the
/// columns before `c` after one move in column `c` or later. Reading column `c`'s chain of
/// clear bits from the top gives, for each height `i`, the rest `m[i]` of the positions whose
/// column `c` has height `i`. In the successors, the column has height `i` either because it
/// had it and the move came later (`later(m[i])`), or because it had height `i - 1` and the
/// move was here (the mover's colour at bit `i - 1`, then `m[i - 1]`). `later` copies the
/// colour bits of column `c` and goes on with `full` at column `c + 1`; past the last column
/// no move is left, so `full` there is empty.
///
/// The same pass read the other way gives the predecessors ([`Image::preimage`]): taking back
/// the mover's chip on top of a column of height `i + 1` leaves height `i`, so the column
/// has height `i` either because it had it and the chip came off a later column
/// (`later(m[i])`), or because it had height `i + 1` with the mover's colour at bit `i`, and
/// what follows that colour bit in `m[i + 1]` is the rest.
pub struct Image<'s> {
    /// The store holding the set and its successors.
    pub store: &'s Store,
    /// The board.
    pub layout: Layout,
    /// Whether the first player moves.
    pub first: bool,
    /// Called now and then while the image grows.
    pub progress: &'s (dyn Fn(&Store) + Sync),
    /// Predecessors rather than successors.
    backward: bool,
    calls: AtomicU32,
}

const OP_FULL: u32 = Store::USER_OPS;
const OP_LATER: u32 = Store::USER_OPS + 2;
/// Added to the codes above for the predecessors.
const OP_BACKWARD: u32 = 4;

impl<'s> Image<'s> {
    /// An image builder for moves of the first player (`first`) or the second.
    pub fn new(
        store: &'s Store,
        layout: Layout,
        first: bool,
        progress: &'s (dyn Fn(&Store) + Sync),
    ) -> Self {
        Image {
            store,
            layout,
            first,
            progress,
            backward: false,
            calls: AtomicU32::new(0),
        }
    }

    /// A builder of predecessors: [`Image::of`] then gives the positions from which one move
    /// of the first player (`first`) or the second leads into the set. Positions that are
    /// not positions (a column with no height marker) may be in the set; they have none.
    pub fn preimage(
        store: &'s Store,
        layout: Layout,
        first: bool,
        progress: &'s (dyn Fn(&Store) + Sync),
    ) -> Self {
        Image {
            backward: true,
            ..Image::new(store, layout, first, progress)
        }
    }

    fn op(&self, base: u32) -> u32 {
        base + u32::from(self.first) + if self.backward { OP_BACKWARD } else { 0 }
    }

    /// The positions one move of the player away from those of `set`.
    pub fn of(&self, set: Ref) -> Ref {
        self.full(set, 0)
    }

    fn full(&self, n: Ref, col: u32) -> Ref {
        if n == FALSE || col == self.layout.cols {
            return FALSE;
        }
        let op = self.op(OP_FULL);
        if let Some(r) = self.store.cached(op, n, col) {
            return r;
        }
        let calls = self.calls.fetch_add(1, Ordering::Relaxed);
        if calls.is_multiple_of(1 << 14) {
            (self.progress)(self.store);
        }
        let rows = self.layout.rows;
        // m[i]: the rest after the marker at bit i.
        let mut m = [FALSE; 65];
        let mut z = n;
        for bit in (0..=rows).rev() {
            let (lo, hi) = self.store.split(z, self.layout.level(col, bit));
            m[bit as usize] = hi;
            z = lo;
        }
        // hi[i]: the positions whose column has height i after the move.
        let mut hi = [FALSE; 65];
        self.heights(&m, col, &mut hi[..=rows as usize], 0);
        let mut r = self.store.mk(self.layout.level(col, 0), FALSE, hi[0]);
        for bit in 1..=rows {
            r = self
                .store
                .mk(self.layout.level(col, bit), r, hi[bit as usize]);
        }
        self.store.remember(op, n, col, r);
        r
    }

    /// Fills `out[k]` with the successors whose column `col` has height `from + k`: those of
    /// `m[from + k]` with the move later, and, above the bottom, those of `m[from + k - 1]`
    /// with the move here. Halves go to two threads near the top of the order.
    fn heights(&self, m: &[Ref; 65], col: u32, out: &mut [Ref], from: u32) {
        if out.len() > 1 && self.store.forks_at(self.layout.base(col)) {
            let (a, b) = out.split_at_mut(out.len() / 2);
            let mid = from + a.len() as u32;
            rayon::join(
                || self.heights(m, col, a, from),
                || self.heights(m, col, b, mid),
            );
            return;
        }
        for (k, slot) in out.iter_mut().enumerate() {
            let bit = from + k as u32;
            let stay = self.later(m[bit as usize], col);
            if self.backward {
                let above = m.get(bit as usize + 1).copied().unwrap_or(FALSE);
                *slot = if bit == self.layout.rows || above == FALSE {
                    stay
                } else {
                    let (other, mine) = self.store.split(above, self.layout.level(col, bit));
                    let taken = if self.first { mine } else { other };
                    self.store.or(stay, taken)
                };
                continue;
            }
            *slot = if bit == 0 {
                stay
            } else {
                let below = m[bit as usize - 1];
                let level = self.layout.level(col, bit - 1);
                let moved = if self.first {
                    self.store.mk(level, FALSE, below)
                } else {
                    self.store.mk(level, below, FALSE)
                };
                self.store.or(stay, moved)
            };
        }
    }

    fn later(&self, x: Ref, col: u32) -> Ref {
        if x == FALSE {
            return FALSE;
        }
        let level = self.store.level(x);
        if level >= self.layout.base(col + 1) {
            return self.full(x, col + 1);
        }
        let op = self.op(OP_LATER);
        if let Some(r) = self.store.cached(op, x, col) {
            return r;
        }
        let (lo, hi) = self.store.split(x, level);
        let (lo, hi) = self
            .store
            .pair(level, || self.later(lo, col), || self.later(hi, col));
        let r = self.store.mk(level, lo, hi);
        self.store.remember(op, x, col, r);
        r
    }
}
