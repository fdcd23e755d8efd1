//! The order in which an audit of every board meets the boards: the most telling first.
//!
//! A wrong solver is usually wrong on a thin slice of the space (boards with a `T`, full
//! boards, one line), and enumeration order meets the boards setup by setup, ply by ply, so a
//! bug about the `T` would wait behind the 9.7 million boards without one. The audit instead
//! walks four stretches, each board once:
//!
//! 1. the killer set, on which every catalogued bug fails;
//! 2. the edge set: every line won by each player with and without the `T`, full-board wins,
//!    double lines, draws, nearly full boards;
//! 3. a sweep: [`SWEEP_ROUNDS`] rounds, each taking one 64-slot word of every (ply, setup) cell
//!    in turn, so that within the first few thousand boards every setup and every ply has been
//!    seen, and within the sweep every part of every cell;
//! 4. the rest, in enumeration order, skipping what came before.

use super::BlockSink;
use crate::outcome::Status;
use crate::tictactoe::board::Board;
use crate::tictactoe::enumerate::Selection;
use crate::tictactoe::sample::{edge_boards, killer_boards};
use crate::tictactoe::space::{DenseMemo, Space};
use hashbrown::{HashMap, HashSet};

/// Rounds of the sweep: each round takes one word of 64 slots from every cell, so the sweep
/// holds at most `64 · SWEEP_ROUNDS` boards a cell (a few percent of the space).
pub const SWEEP_ROUNDS: usize = 64;

/// Boards handed over at once.
const BLOCK: usize = 4096;

/// One (setup, ply) cell of the selection.
struct Cell<'a> {
    t: u16,
    ply: usize,
    memo: &'a DenseMemo,
}

impl Cell<'_> {
    /// The word the sweep takes from this cell in `round`, if any: the rounds spread evenly
    /// over the cell's words.
    fn sweep_word(&self, round: usize) -> Option<usize> {
        let words = self.memo.words();
        let step = words.div_ceil(SWEEP_ROUNDS).max(1);
        let w = round * step;
        (w < words).then_some(w)
    }
}

/// Hands the selected boards of `space` to `sink` in audit order, in blocks, each board once;
/// stops when `sink` returns `false`.
pub fn walk(space: &Space, sel: &Selection, sink: &mut BlockSink) {
    let mut out = Out {
        block: Vec::with_capacity(BLOCK),
        sink,
        stopped: false,
    };
    // Plies first, then setups: the sweep's rounds alternate between setups within a ply.
    let mut cells = Vec::new();
    for ply in 0..sel.plies.len() {
        for &t in &sel.setups {
            if let Some(memo) = space.setup(t).and_then(|s| s.plies.get(ply))
                && sel.keeps_ply(ply)
                && !memo.is_empty()
            {
                cells.push(Cell { t, ply, memo });
            }
        }
    }
    let keeps = |b: Board, s: Status| {
        sel.statuses[s] && sel.setups.contains(&b.t) && sel.keeps_ply(b.ply() as usize)
    };
    // 1 and 2: the killer and edge sets, once each.
    let mut front: HashSet<Board> = HashSet::new();
    let killer = killer_boards(space, &sel.setups).boards;
    for (b, s) in killer.into_iter().chain(edge_boards(space, &sel.setups)) {
        if keeps(b, s) && front.insert(b) && !out.push(b, s) {
            return;
        }
    }
    // 3: the sweep, remembering which words it took.
    let mut swept: HashMap<(u16, usize), HashSet<usize>> = HashMap::new();
    for round in 0..SWEEP_ROUNDS {
        for cell in &cells {
            let Some(w) = cell.sweep_word(round) else {
                continue;
            };
            if !swept.entry((cell.t, cell.ply)).or_default().insert(w) {
                continue;
            }
            if !out.word(cell, w, sel, &front) {
                return;
            }
        }
    }
    // 4: the rest, in enumeration order.
    for &t in &sel.setups {
        let Some(setup) = space.setup(t) else {
            continue;
        };
        for (ply, memo) in setup.plies.iter().enumerate() {
            if !sel.keeps_ply(ply) {
                continue;
            }
            let cell = Cell { t, ply, memo };
            let taken = swept.get(&(t, ply));
            for w in 0..memo.words() {
                if taken.is_some_and(|s| s.contains(&w)) {
                    continue;
                }
                if !out.word(&cell, w, sel, &front) {
                    return;
                }
            }
        }
    }
    out.flush();
}

/// The block being filled and where it goes.
struct Out<'s, 'f> {
    block: Vec<(Board, Status)>,
    sink: &'s mut BlockSink<'f>,
    stopped: bool,
}

impl Out<'_, '_> {
    /// Adds a board; `false` once the sink has asked to stop.
    fn push(&mut self, b: Board, s: Status) -> bool {
        self.block.push((b, s));
        if self.block.len() == BLOCK {
            self.flush();
        }
        !self.stopped
    }

    /// Adds the selected boards of one word of a cell, except those already handed over.
    fn word(&mut self, cell: &Cell, w: usize, sel: &Selection, front: &HashSet<Board>) -> bool {
        let mut dec = cell.memo.index.decoder();
        for (slot, s) in cell.memo.slots_in(w..w + 1) {
            if !sel.statuses[s] {
                continue;
            }
            let b = dec.board(slot, cell.t);
            if !front.contains(&b) && !self.push(b, s) {
                return false;
            }
        }
        true
    }

    fn flush(&mut self) {
        if !self.block.is_empty() && !self.stopped {
            self.stopped = !(self.sink)(&self.block);
        }
        self.block.clear();
    }
}
