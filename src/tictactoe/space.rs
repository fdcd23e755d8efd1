//! The state space of Tic-Tac-Toe-Tomek: every board reachable in play from every setup,
//! labelled with its status by the move that made it.
//!
//! Each setup (no `T`, or a `T` on one square) is walked by the shared [`engine`] with a
//! dense memo per ply ([`DenseMemo`], one byte a slot of the [`rank`] index). The walks of
//! the setups are independent and run in parallel; the result is the same whatever the
//! thread count. [`Space`] keeps every layer, so later passes (statistics, audits, sampling,
//! streaming every board) read the labels without walking the games again.
//!
//! [`engine`]: crate::engine
//! [`rank`]: crate::tictactoe::rank

use crate::engine::{self, Game, HashMemo, Memo};
use crate::outcome::{ByStatus, Player, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::rank::PlyIndex;
use crate::tictactoe::rules::Geometry;
use rayon::prelude::*;
use std::sync::Arc;

/// The game from one setup: a geometry and the square of the `T` (0 for none).
#[derive(Clone, Copy)]
pub struct SetupGame<'g> {
    /// The board and its lines.
    pub geometry: &'g Geometry,
    /// The `T` mask (0 for none).
    pub t: u16,
}

impl Game for SetupGame<'_> {
    type Pos = Board;

    fn root(&self) -> Board {
        Board::empty(self.t)
    }

    #[inline]
    fn for_each_child(&self, b: Board, mut visit: impl FnMut(Board, Status)) {
        let mover = b.to_move();
        let mut empty = self.geometry.full() & !b.filled();
        while empty != 0 {
            let square = empty.trailing_zeros();
            empty &= empty - 1;
            let (child, status) = self.geometry.play(b, mover, square);
            visit(child, status);
        }
    }

    /// The first parent of a board is the one left by taking back the lowest-numbered stone of
    /// the last mover that can be taken back. Any stone can be taken back from a board with no
    /// line; from a won board only a stone lying on every line of the winner (its line core).
    /// So a quiet move is a first-parent edge only below the mover's lowest stone, and a
    /// winning move only when no core stone lies below it.
    #[inline]
    fn for_each_first_child(&self, b: Board, visit: impl FnMut(Board, Status)) {
        self.first_children(b, b.to_move(), visit);
    }
}

impl SetupGame<'_> {
    /// [`Game::for_each_first_child`] with the side to move given, so that a walk which knows
    /// the ply need not count stones. A move wins when it fills the one square missing from a
    /// line of the mover (the `T` counting for it): those squares come from one table look-up
    /// for all moves at once.
    #[inline]
    pub fn first_children(&self, b: Board, mover: Player, mut visit: impl FnMut(Board, Status)) {
        let g = self.geometry;
        let mine = b.of(mover);
        let empty = g.full() & !b.filled();
        let winning = empty & g.completing(mine | b.t);
        let quiet_zone = if mine == 0 {
            u16::MAX
        } else {
            (1u16 << mine.trailing_zeros()) - 1
        };
        // The last empty square fills the board: a move there that wins nothing draws.
        let quiet = if empty & (empty - 1) == 0 {
            Status::Draw
        } else {
            Status::Open
        };
        let mut candidates = empty & (quiet_zone | winning);
        while candidates != 0 {
            let square = candidates.trailing_zeros();
            let bit = 1u16 << square;
            candidates &= candidates - 1;
            let child = b.with(mover, square);
            if winning & bit == 0 {
                visit(child, quiet);
            } else if g.line_core(child.counting_for(mover)) & mine & (bit - 1) == 0 {
                visit(child, Status::won_by(mover));
            }
        }
    }
}

/// A board with its side to move: the counting walk carries the turn along instead of counting
/// stones on every board it meets.
#[derive(Copy, Clone, Debug)]
pub struct Turn {
    /// The board.
    pub board: Board,
    /// The player to move next.
    pub mover: Player,
}

/// [`SetupGame`] over [`Turn`]s.
#[derive(Clone, Copy)]
pub struct TurnGame<'g>(pub SetupGame<'g>);

impl Game for TurnGame<'_> {
    type Pos = Turn;

    fn root(&self) -> Turn {
        Turn {
            board: self.0.root(),
            mover: Player::X,
        }
    }

    fn for_each_child(&self, p: Turn, mut visit: impl FnMut(Turn, Status)) {
        let mover = p.mover.other();
        self.0
            .for_each_child(p.board, |board, s| visit(Turn { board, mover }, s));
    }

    #[inline]
    fn for_each_first_child(&self, p: Turn, mut visit: impl FnMut(Turn, Status)) {
        let mover = p.mover.other();
        self.0
            .first_children(p.board, p.mover, |board, s| visit(Turn { board, mover }, s));
    }
}

/// Reachable boards of one setup by ply and status, counted without keeping any board (see
/// [`engine::count_tree`]).
pub fn count_setup(geometry: &Geometry, t: u16) -> Vec<ByStatus<u64>> {
    /// Ply 4 has a few thousand open boards per setup: enough subtrees for the threads to
    /// share evenly, few enough that the breadth-first start costs nothing.
    const SPLIT: u32 = 4;
    engine::count_tree(&TurnGame(SetupGame { geometry, t }), SPLIT)
}

/// The code of a setup's board of any ply: `x | o << 16`.
#[inline]
pub fn board_code(b: Board) -> u32 {
    b.x as u32 | (b.o as u32) << 16
}

/// One ply of one setup, stored densely over the slots of the ply's [`PlyIndex`]: a bit per
/// slot says whether play reaches the board, and two bits per slot hold its status.
///
/// The "seen" bitmap is the hot part of the walk: every child generated is looked up there,
/// and at one bit a slot the largest ply (2 million slots) takes 256 KiB, which stays in a
/// core's cache; the statuses are touched only once per new board.
pub struct DenseMemo {
    /// The dense index of the ply's boards.
    pub index: PlyIndex,
    seen: Vec<u64>,
    status: Vec<u8>,
    counts: ByStatus<u64>,
}

impl DenseMemo {
    /// An empty table for the boards of `ply` stones on `squares` squares.
    pub fn new(squares: u32, ply: u32) -> DenseMemo {
        let index = PlyIndex::new(squares, ply);
        let n = index.len();
        DenseMemo {
            index,
            seen: vec![0; n.div_ceil(64)],
            status: vec![0; n.div_ceil(4)],
            counts: ByStatus::default(),
        }
    }

    /// The table of a ply whose boards are `open` (in chunks) and `over`, each once, with
    /// `counts` of each status: the boards filed by all threads at once, each setting its
    /// bits with an atomic or, since the walk that found them met each once.
    pub fn filled(
        squares: u32,
        ply: u32,
        counts: ByStatus<u64>,
        open: &[Vec<Board>],
        over: &[(Board, Status)],
    ) -> DenseMemo {
        use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};
        let index = PlyIndex::new(squares, ply);
        let n = index.len();
        let seen: Vec<AtomicU64> = (0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        let status: Vec<AtomicU8> = (0..n.div_ceil(4)).map(|_| AtomicU8::new(0)).collect();
        let file = |b: Board, s: Status| {
            let slot = index.slot(b);
            let before = seen[slot / 64].fetch_or(1 << (slot % 64), Relaxed);
            debug_assert_eq!(before >> (slot % 64) & 1, 0, "{b:?} met twice");
            status[slot / 4].fetch_or((s.index() as u8) << (2 * (slot % 4)), Relaxed);
        };
        open.par_iter()
            .flat_map(|chunk| chunk.par_chunks(1 << 14))
            .for_each(|boards| boards.iter().for_each(|&b| file(b, Status::Open)));
        over.par_chunks(1 << 14)
            .for_each(|boards| boards.iter().for_each(|&(b, s)| file(b, s)));
        DenseMemo {
            index,
            seen: seen.into_iter().map(AtomicU64::into_inner).collect(),
            status: status.into_iter().map(AtomicU8::into_inner).collect(),
            counts,
        }
    }

    /// The status in `slot`, or `None` if play never reaches that board.
    #[inline]
    pub fn at(&self, slot: usize) -> Option<Status> {
        (self.seen[slot / 64] >> (slot % 64) & 1 == 1)
            .then(|| Status::ALL[(self.status[slot / 4] >> (2 * (slot % 4)) & 3) as usize])
    }

    /// The status of a board of this ply, or `None` if it is not reachable.
    #[inline]
    pub fn get(&self, b: Board) -> Option<Status> {
        self.at(self.index.slot(b))
    }

    /// The reachable slots with their statuses, in slot order.
    pub fn slots(&self) -> impl Iterator<Item = (usize, Status)> + '_ {
        self.slots_in(0..self.words())
    }

    /// Words of 64 slots in the reachability bitmap.
    pub fn words(&self) -> usize {
        self.seen.len()
    }

    /// The reachable slots among bitmap words `words`, in slot order: lets callers split a
    /// ply between threads.
    pub fn slots_in(
        &self,
        words: std::ops::Range<usize>,
    ) -> impl Iterator<Item = (usize, Status)> + '_ {
        let first = words.start;
        self.seen[words]
            .iter()
            .enumerate()
            .flat_map(move |(w, &word)| {
                let base = (first + w) * 64;
                let mut bits = word;
                std::iter::from_fn(move || {
                    (bits != 0).then(|| {
                        let slot = base + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        (
                            slot,
                            Status::ALL[(self.status[slot / 4] >> (2 * (slot % 4)) & 3) as usize],
                        )
                    })
                })
            })
    }

    /// Number of reachable boards of this ply.
    pub fn len(&self) -> u64 {
        self.counts.total()
    }

    /// Whether play reaches no board of this ply.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Memo<Board> for DenseMemo {
    #[inline]
    fn insert(&mut self, b: Board, status: Status) -> bool {
        let slot = self.index.slot(b);
        let (word, bit) = (&mut self.seen[slot / 64], 1u64 << (slot % 64));
        if *word & bit != 0 {
            debug_assert_eq!(self.at(slot), Some(status), "two statuses for {b:?}");
            return false;
        }
        *word |= bit;
        self.status[slot / 4] |= (status.index() as u8) << (2 * (slot % 4));
        self.counts[status] += 1;
        true
    }

    fn counts(&self) -> ByStatus<u64> {
        self.counts
    }
}

/// Every reachable board of one setup, by ply.
pub struct SetupSpace {
    /// The `T` mask (0 for the setup without a `T`).
    pub t: u16,
    /// Each ply's boards, from the empty board up.
    pub plies: Vec<DenseMemo>,
    /// Reachable boards per ply and status.
    pub counts: Vec<ByStatus<u64>>,
}

impl SetupSpace {
    /// Walks the setup along first-parent edges (each board met once) and files every board
    /// in its ply's dense table.
    pub fn explore(geometry: &Geometry, t: u16) -> SetupSpace {
        let squares = geometry.cells();
        let mut plies: Vec<DenseMemo> = Vec::new();
        let mut counts = Vec::new();
        engine::explore_tree(
            &SetupGame { geometry, t },
            u32::MAX,
            |ply, c, open, over| {
                let memo = DenseMemo::filled(squares, ply, c, open, over);
                counts.push(c);
                plies.push(memo);
            },
        );
        SetupSpace { t, plies, counts }
    }

    /// Walks the setup with a dense memo per ply, expanding every move: a second method, for
    /// checking the tree walk.
    pub fn explore_memo(geometry: &Geometry, t: u16) -> SetupSpace {
        let squares = geometry.cells();
        let mut plies = Vec::new();
        let mut counts = Vec::new();
        engine::explore(
            &SetupGame { geometry, t },
            |ply| DenseMemo::new(squares, ply),
            |layer| {
                counts.push(layer.memo.counts());
                plies.push(layer.memo);
            },
        );
        SetupSpace { t, plies, counts }
    }

    /// The status of a board of this setup, or `None` if play never reaches it.
    pub fn status(&self, b: Board) -> Option<Status> {
        if b.t != self.t || b.x & b.o != 0 || (b.x | b.o) & b.t != 0 {
            return None;
        }
        let (nx, no) = (b.x.count_ones(), b.o.count_ones());
        if nx != no && nx != no + 1 {
            return None;
        }
        self.plies.get((nx + no) as usize)?.get(b)
    }

    /// Reachable boards of each status, all plies together.
    pub fn totals(&self) -> ByStatus<u64> {
        ByStatus::sum(&self.counts)
    }

    /// Every reachable board with its status, ply by ply, in slot order.
    pub fn boards(&self) -> impl Iterator<Item = (Board, Status)> + '_ {
        self.plies.iter().flat_map(move |p| {
            p.slots()
                .map(move |(slot, s)| (p.index.board(slot, self.t), s))
        })
    }
}

/// The whole state space: every setup of a geometry.
pub struct Space {
    /// The board and its lines.
    pub geometry: Arc<Geometry>,
    /// Each explored setup.
    pub setups: Vec<SetupSpace>,
}

impl Space {
    /// Walks every setup, in parallel. Largest setup first, so two threads finish together.
    pub fn explore(geometry: Arc<Geometry>) -> Space {
        Space::explore_setups(geometry.clone(), &geometry.setups())
    }

    /// Walks the given setups (`T` masks) only.
    pub fn explore_setups(geometry: Arc<Geometry>, setups: &[u16]) -> Space {
        Space::explore_setups_with(geometry, setups, |_| {})
    }

    /// [`Space::explore_setups`], calling `progress(1)` as each setup is done (from any
    /// thread).
    pub fn explore_setups_with(
        geometry: Arc<Geometry>,
        setups: &[u16],
        progress: impl Fn(u64) + Sync,
    ) -> Space {
        let setups = setups
            .par_iter()
            .map(|&t| {
                let s = SetupSpace::explore(&geometry, t);
                progress(1);
                s
            })
            .collect();
        Space { geometry, setups }
    }

    /// The setup with `T` mask `t`, if it was explored.
    pub fn setup(&self, t: u16) -> Option<&SetupSpace> {
        self.setups.iter().find(|s| s.t == t)
    }

    /// The status of any board, or `None` if play never reaches it.
    pub fn status(&self, b: Board) -> Option<Status> {
        self.setup(b.t)?.status(b)
    }

    /// Number of reachable boards over every explored setup.
    pub fn len(&self) -> u64 {
        self.setups.iter().map(|s| s.totals().total()).sum()
    }

    /// Whether no board was explored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Walks one setup with the hashbrown memo instead of the dense index, returning each ply's
/// counts. It is the path for boards too large to index densely, and a second method to check
/// the dense walk against.
pub fn explore_hashed(geometry: &Geometry, t: u16) -> Vec<ByStatus<u64>> {
    let mut counts = Vec::new();
    engine::explore(
        &SetupGame { geometry, t },
        |_| HashMemo::<Board>::new(),
        |layer| counts.push(layer.memo.counts()),
    );
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_walk_agrees_with_the_tree_walk() {
        let g = Arc::new(Geometry::new(3, 3, 3, false).unwrap());
        assert_eq!(count_setup(&g, 0), SetupSpace::explore(&g, 0).counts);
        let g = Geometry::tomek();
        for t in [0, 1 << 5] {
            assert_eq!(
                count_setup(g, t),
                SetupSpace::explore(g, t).counts,
                "{t:#x}"
            );
        }
    }

    #[test]
    fn labels_agree_with_the_board_status() {
        let g = Arc::new(Geometry::new(3, 3, 3, false).unwrap());
        let space = Space::explore(g.clone());
        for (b, s) in space.setups[0].boards() {
            assert_eq!(g.status(b), s, "{b:?}");
            assert_eq!(space.status(b), Some(s));
        }
    }
}
