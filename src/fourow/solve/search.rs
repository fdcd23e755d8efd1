//! The search: negamax with alpha-beta pruning over [`Board`]s, [`Table`]s of proven bounds,
//! moves ordered by the threats they make, and at the root a series of null-window probes
//! that narrow the range of possible scores until one is left.
//!
//! The search never plays a move that lets the opponent win at once (see
//! [`Board::safe_moves`]), which prunes most of the tree near the end of a game, and it knows
//! a move that leaves the opponent no such move to win without searching it; it bounds
//! every score by what is still possible from the number of chips on the board, and by what
//! the other player's follow-up secures (see [`Board::follow_up_bound`]), which closes
//! windows before any move is tried; and it tries first the move the table remembers as the
//! one that settled the position before. Null windows cut more than wide ones. The root first
//! narrows the range of scores by what it knows without a search (the next move, the table),
//! then bisects it with probes pulled out from the middle towards half its ends (see
//! `next_probe`): a position with a quick forced win is found in a few cheap probes.

use super::board::{Board, Shape};
use super::table::Table;
use super::{Outcome, Score};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A searcher with its transposition table, reusable from one position to the next (on the
/// same board size the table keeps what it has proved).
///
/// With more than one thread ([`Solver::with_threads`]) every probe of a position runs on all
/// of them at once over the one table. They split the work as in ABDADA: a thread that meets a
/// position another thread is searching (not the first move of a node, which must come first)
/// puts it off to the end of its node, by which time the other thread has usually stored its
/// bound. The first thread to finish a probe gives its answer and stops the others, which
/// store nothing after that. Scores are the same on any number of threads; node counts are not.
pub struct Solver {
    table: Arc<Table>,
    /// The table of positions near the end of the game (see [`NEAR_EMPTY`]).
    near: Arc<Table>,
    threads: usize,
    shape: Option<Shape>,
    /// Columns from the centre outwards: central columns take part in more lines, so trying
    /// them first finds cut-offs sooner.
    order: Vec<u32>,
    nodes: u64,
}

/// The most columns a board can have with at least one row (64 bits, a spare bit a column).
const MAX_COLS: usize = 32;

/// When the position searched is its own mirror image (as the empty board is), the positions
/// of more empty cells than this are looked up in the table as the lesser key of themselves
/// and their mirror image: both halves of the tree are reachable, and each position is searched
/// once for its mirror image too. Nearer the end the subtrees are too small for the hits to
/// pay for the mirroring (on the empty 7×6 board, 172.0 million nodes with mirror images down
/// to 13 empty cells, 176.1 million down to 21, 171.9 million down to 7, and 318 million with
/// none); under a position that is not symmetric mirror images hardly ever meet.
const MIRROR_EMPTY: i32 = 12;

/// Nodes with at least this many empty cells look up all their children in the table before
/// searching any: one of them may already be known to refute the window (enhanced
/// transposition cut-off). The children's slots were prefetched while the moves were sorted,
/// and the near table ([`NEAR_EMPTY`]) stays in the cache; below this the subtrees are too
/// small for the look-ups to pay (on the hardest early position of the begin set, `551736`,
/// 57 million nodes with cut-offs from children of 18 or more empty cells alone, 49 million
/// with 6 to 14 as well, when forced moves still took a slot; 14 to 18 took the empty 6×6
/// board from 44.7 million nodes to 42.3 million).
const CUT_FROM_CHILDREN_EMPTY: i32 = 6;

/// Positions with fewer empty cells than this keep their bounds in a table of [`NEAR_BYTES`],
/// apart from the big one. A look-up in a table far bigger than the processor's cache waits for
/// memory nearly every time, and that wait is most of the search's time. The many positions
/// near the end of the game have small subtrees, and the transpositions that meet them again
/// mostly lie close by in the tree, so a table that stays in the cache keeps most of their hits
/// at a fraction of the wait, and leaves the big table to positions whose subtrees are dear.
const NEAR_EMPTY: i32 = 14;

/// The size of the table of positions near the end: about what one core's cache holds.
pub const NEAR_BYTES: usize = 1 << 20;

/// Among moves of equal weight in positions of fewer chips than this, the one whose cell lies
/// on more lines of four ([`Shape::lines_through`]) comes first: before threats tell the moves
/// apart, the cells that take part in more lines are likelier to make them. Later in the game
/// the columns from the centre out do better. On the empty 7×6 board, 172 million nodes
/// instead of 198 million (155 million with lines before 18 chips, but 9% more nodes on early
/// positions of medium depth; 168 million with lines throughout).
const LINES_BEFORE: i32 = 10;

/// Threads announce the positions they search, and put off those others search, only where at
/// least this many cells are empty: smaller subtrees are cheaper to search twice.
const SHARE_EMPTY: i32 = 10;

/// The root bisects the range of scores (see `next_probe`) from this many chips on; with
/// fewer, it probes 0 and then steps a value at a time away from it. Positions that close to
/// the empty board hardly ever hold a quick forced win, and their scores lie near 0, where
/// the first probes decide the score: the bisection's probes out towards the ends of the
/// range took the empty 7×6 board from 922 million nodes to 1.2 billion.
const BISECT_FROM: u32 = 6;

/// Positions being searched, by hash: one word a slot holding the key, 0 when free. A lost
/// race (two keys on one slot) only makes a thread search a position it could have put off.
struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    const BITS: u32 = 16;

    fn new() -> Busy {
        Busy {
            slots: crate::fourow::pages::table(1 << Self::BITS, || AtomicU64::new(0)),
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(super::table::hash(key) >> (64 - Self::BITS)) as usize]
    }

    fn holds(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

impl Solver {
    /// A searcher whose table takes about `table_bytes` bytes (and [`NEAR_BYTES`] more for the
    /// positions near the end).
    pub fn new(table_bytes: usize) -> Solver {
        Solver::with_threads(table_bytes, 1)
    }

    /// A searcher that puts `threads` threads on every position, sharing tables of about
    /// `table_bytes` bytes (and [`NEAR_BYTES`] more).
    pub fn with_threads(table_bytes: usize, threads: usize) -> Solver {
        Solver {
            table: Arc::new(Table::new(table_bytes)),
            near: Arc::new(Table::new(NEAR_BYTES)),
            threads: threads.max(1),
            shape: None,
            order: Vec::new(),
            nodes: 0,
        }
    }

    /// A one-thread searcher that shares `self`'s table (for searches of one board running
    /// side by side).
    fn sharing(&self) -> Solver {
        Solver {
            table: Arc::clone(&self.table),
            near: Arc::clone(&self.near),
            threads: 1,
            shape: self.shape,
            order: self.order.clone(),
            nodes: 0,
        }
    }

    /// Has the system back the whole of both tables now, so that the times of the positions
    /// searched next do not include the first touch of their pages.
    pub fn back_table(&self) {
        self.table.back_every_page();
        self.near.back_every_page();
    }

    /// Positions visited by the search since the searcher was made, over all its threads.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Switches to `shape`, forgetting the table if it held another board's positions (keys
    /// are only unique within one shape).
    fn prepare(&mut self, shape: Shape) {
        if self.shape == Some(shape) {
            return;
        }
        self.table.reset(shape.key_bits());
        self.near.reset(shape.key_bits());
        self.shape = Some(shape);
        let cols = shape.cols();
        self.order = (0..cols)
            .map(|i| {
                // 0, -1, +1, -2, +2, ... around the centre (the left one of two centres).
                let step = (i as i32 + 1) / 2;
                let side = if i % 2 == 1 { -1 } else { 1 };
                ((cols as i32 - 1) / 2 + side * step) as u32
            })
            .filter(|&c| c < cols)
            .collect();
        // With an even number of columns the walk above leaves the rightmost one out.
        for c in 0..cols {
            if !self.order.contains(&c) {
                self.order.push(c);
            }
        }
    }

    /// The exact score of `b` for the player to move. A position whose last move made four is
    /// lost (its score is the winner's, negated); a full board is a draw.
    pub fn solve(&mut self, b: Board) -> Score {
        self.solve_known(b, None)
    }

    /// The exact score of `b`, as [`Solver::solve`] gives it, when its outcome is known
    /// already (from a strong solution): a draw is 0 with no search, and a win or a loss
    /// leaves the probes only the scores of its side of 0.
    pub fn solve_known(&mut self, b: Board, known: Option<Outcome>) -> Score {
        self.prepare(b.shape());
        let cells = b.shape().area();
        let n = b.moves();
        if b.last_mover_won() {
            return Score::win_at(cells, n - 1).flip();
        }
        if b.is_full() {
            return Score::DRAW;
        }
        if b.can_win_now() {
            return Score::win_at(cells, n);
        }
        let (mut min, mut max) = self.root_bounds(b);
        match known {
            Some(Outcome::Draw) => return Score::DRAW,
            Some(Outcome::Win) => min = min.max(1),
            Some(Outcome::Loss) => max = max.min(-1),
            None => {}
        }
        max = max.max(min);
        while min < max {
            let probe = if n < BISECT_FROM {
                0.clamp(min, max - 1)
            } else {
                next_probe(min, max)
            };
            let r = self.probe(b, probe);
            if r <= probe {
                max = r;
            } else {
                min = r;
            }
        }
        Score(min)
    }

    /// The range of scores `b` (prepared, not over, the player to move unable to win at once)
    /// may still have, before any probe: what the chips left allow, what the next move
    /// allows (every move losing at once, or none), and the bounds the table already holds.
    fn root_bounds(&self, b: Board) -> (i32, i32) {
        let (area, n) = (b.shape().area() as i32, b.moves() as i32);
        if b.safe_moves() == 0 {
            let lost = -(area - n) / 2;
            return (lost, lost);
        }
        if n >= area - 2 {
            return (0, 0);
        }
        let mut min = -(area - 2 - n) / 2;
        let mut max = (area - 1 - n) / 2;
        let key = b.key();
        let table = if area - n < NEAR_EMPTY {
            &self.near
        } else {
            &self.table
        };
        if let Some(e) = table.get(key) {
            min = min.max(e.lower);
            max = max.min(e.upper);
        }
        (min, max.max(min))
    }

    /// The score of `b` if the player to move drops a chip into `col` (playable), from the
    /// side of the player to move in `b`.
    pub fn score_move(&mut self, b: Board, col: u32) -> Score {
        self.score_move_known(b, col, None)
    }

    /// [`Solver::score_move`] when the outcome of the move is known already, for the player
    /// who makes it.
    pub fn score_move_known(&mut self, b: Board, col: u32, known: Option<Outcome>) -> Score {
        if b.wins_with(col) {
            Score::win_at(b.shape().area(), b.moves())
        } else {
            let known = known.map(|o| match o {
                Outcome::Win => Outcome::Loss,
                Outcome::Draw => Outcome::Draw,
                Outcome::Loss => Outcome::Win,
            });
            self.solve_known(b.play(col), known).flip()
        }
    }

    /// Whether the score of `b` is at most `v` (one null-window probe rather than a solve).
    pub fn at_most(&mut self, b: Board, v: Score) -> bool {
        self.prepare(b.shape());
        if b.last_mover_won() || b.is_full() || b.can_win_now() {
            return self.solve(b) <= v;
        }
        self.probe(b, v.0) <= v.0
    }

    /// A line of perfect play from `b`, whose score is `score`, to the end of the game: at each
    /// step the leftmost column that keeps the score.
    pub fn principal_variation(&mut self, mut b: Board, mut score: Score) -> Vec<u32> {
        let mut line = Vec::new();
        while !b.last_mover_won() && !b.is_full() {
            let cells = b.shape().area();
            let next = (0..b.shape().cols()).filter(|&c| b.can_play(c)).find(|&c| {
                if b.wins_with(c) {
                    Score::win_at(cells, b.moves()) == score
                } else {
                    // Every child scores at least -score; the best ones exactly that.
                    self.at_most(b.play(c), score.flip())
                }
            });
            let Some(col) = next else {
                debug_assert!(false, "no move keeps the score {score}");
                break;
            };
            line.push(col);
            b = b.play(col);
            score = score.flip();
        }
        line
    }

    /// One null-window search of `b` (prepared; the player to move cannot win at once) around
    /// `v`: a result at most `v` bounds the score from above, one above `v` from below.
    fn probe(&mut self, b: Board, v: i32) -> i32 {
        let shape = b.shape();
        let (table, near, order) = (&*self.table, &*self.near, &self.order[..]);
        let mirror_below = if shape.mirror(b.key()) == b.key() {
            shape.area() as i32 - MIRROR_EMPTY
        } else {
            0
        };
        let search = |busy, stop| Search {
            table,
            near,
            busy,
            stop,
            order,
            shape,
            mirror_below,
            nodes: 0,
        };
        if self.threads == 1 {
            let mut s = search(None, None);
            let r = s.root(b, v);
            self.nodes += s.nodes;
            return r;
        }
        let (busy, stop) = (Busy::new(), AtomicBool::new(false));
        let result = AtomicI32::new(0);
        let nodes: u64 = std::thread::scope(|scope| {
            let run = || {
                let mut s = search(Some(&busy), Some(&stop));
                let r = s.root(b, v);
                // The first thread back has searched the whole tree: its answer is exact.
                if !stop.swap(true, Ordering::AcqRel) {
                    result.store(r, Ordering::Relaxed);
                }
                s.nodes
            };
            let helpers: Vec<_> = (1..self.threads).map(|_| scope.spawn(run)).collect();
            run()
                + helpers
                    .into_iter()
                    .map(|h| h.join().expect("a search thread panicked"))
                    .sum::<u64>()
        });
        self.nodes += nodes;
        result.into_inner()
    }
}

/// The value to probe next when the score lies in `min..=max` (`min < max`): the middle of
/// the range, moved out to half of `min` or of `max` when that lies beyond it on the same side
/// of 0. A probe far from the score is cheap, as nearly any line proves the bound; so the
/// first probes of a position with a quick forced win land near its score, where probes
/// stepping out from 0 paid for every value on the way (on positions that end within 14
/// plies, several times the nodes of this order). Scores near 0 pay a little for it: the
/// positions far from the end take about a tenth more nodes than when 0 was probed first.
fn next_probe(min: i32, max: i32) -> i32 {
    let mid = min + (max - min) / 2;
    let probe = if mid <= 0 && min / 2 < mid {
        min / 2
    } else if mid >= 0 && max / 2 > mid {
        max / 2
    } else {
        mid
    };
    // A probe at `max` could only confirm the bound: a null window at `v` splits the range
    // into `..=v` and `v + 1..`.
    probe.clamp(min, max - 1)
}

/// Bits of a move's column in the sorted list of a node's moves: `key << COLUMN_BITS | column`
/// (see `Search::negamax`), enough for [`MAX_COLS`] columns.
const COLUMN_BITS: u32 = 5;

/// The column of an entry of a node's sorted list of moves.
#[inline]
fn column_of(m: u16) -> u32 {
    u32::from(m) & ((1 << COLUMN_BITS) - 1)
}

/// The order of the columns of the standard board (see `Solver::order`), as a constant.
const STANDARD_ORDER: [u32; 7] = [3, 2, 4, 1, 5, 0, 6];

/// One thread's search of one probe.
struct Search<'a> {
    table: &'a Table,
    /// The table of positions of fewer than [`NEAR_EMPTY`] empty cells.
    near: &'a Table,
    /// Positions the threads are searching, when several threads share the probe.
    busy: Option<&'a Busy>,
    /// Set when another thread has finished the probe.
    stop: Option<&'a AtomicBool>,
    order: &'a [u32],
    shape: Shape,
    /// Positions of fewer chips use the lesser of their key and their mirror image's.
    mirror_below: i32,
    nodes: u64,
}

impl<'a> Search<'a> {
    /// The null-window search of `b` around `v`, by the code made for the standard board
    /// when `b` is on it.
    fn root(&mut self, b: Board, v: i32) -> i32 {
        if self.shape == Shape::STANDARD {
            self.negamax::<true>(b, v, v + 1, false, None)
        } else {
            self.negamax::<false>(b, v, v + 1, false, None)
        }
    }

    /// The board's shape: with `STANDARD` the constant 7×6, so that the compiler folds its
    /// strides and masks into the code (a shift by a constant instead of by a register, a
    /// mask as an immediate), which takes a sixth off the instructions of a node.
    #[inline(always)]
    fn shape<const STANDARD: bool>(&self) -> Shape {
        if STANDARD {
            Shape::STANDARD
        } else {
            self.shape
        }
    }

    /// The board's number of cells, constant with `STANDARD`.
    #[inline(always)]
    fn area<const STANDARD: bool>(&self) -> i32 {
        self.shape::<STANDARD>().area() as i32
    }

    /// The key `b` (of `n` chips) is known by in the table, and whether it is its mirror
    /// image's (whose columns then read the other way round).
    #[inline]
    fn lookup_key<const STANDARD: bool>(&self, b: Board, n: i32) -> (u64, bool) {
        let key = b.key();
        if n < self.mirror_below {
            let m = self.shape::<STANDARD>().mirror(key);
            if m < key {
                return (m, true);
            }
        }
        (key, false)
    }

    /// The table that keeps positions of `n` chips.
    #[inline]
    fn table<const STANDARD: bool>(&self, n: i32) -> &'a Table {
        if self.area::<STANDARD>() - n < NEAR_EMPTY {
            self.near
        } else {
            self.table
        }
    }

    /// Whether another thread has finished the probe, so that this one must unwind without
    /// storing anything.
    #[inline]
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Negamax with alpha-beta pruning on a position where the player to move cannot win with
    /// its next chip. The result `r` is exact inside the window; `r <= alpha` means the score
    /// is at most `r`, and `r >= beta` that it is at least `r`. `checked` says that the
    /// position's follow-up bound at `alpha` is known to give nothing: its parent looked at it
    /// as a child, with the same limit, before searching any move.
    ///
    /// `theirs` is the other player's winning cells (see [`Board::opponent_threats`]) when the
    /// parent has them already: it counted them to order its moves.
    fn negamax<const STANDARD: bool>(
        &mut self,
        b: Board,
        mut alpha: i32,
        mut beta: i32,
        checked: bool,
        theirs: Option<u64>,
    ) -> i32 {
        self.nodes += 1;
        let start = self.nodes;
        let shape = self.shape::<STANDARD>();
        let area = self.area::<STANDARD>();
        // The same board with the shape the compiler sees as a constant when standard.
        let b = b.reshaped(shape);
        let n = b.moves() as i32;
        let theirs = theirs.unwrap_or_else(|| b.opponent_threats());
        let safe = b.safe_moves_against(theirs);
        if safe == 0 {
            // Every move lets the opponent win with the next chip.
            return -(area - n) / 2;
        }
        if n >= area - 2 {
            // Two cells left at most, neither side able to make four with them.
            return 0;
        }
        // The opponent cannot win with its next chip, nor we with this one.
        let floor = -(area - 2 - n) / 2;
        let ceiling = (area - 1 - n) / 2;
        if !checked && let Some(bound) = b.follow_up_bound(alpha) {
            return bound;
        }
        if safe & (safe - 1) == 0 {
            // One move only (the block of the opponent's threat, or the one move that does not
            // hand it a win): this position scores what that move does, so it takes no slot of
            // the table and no look-up, which its child makes anyway. A third of the nodes are
            // such. A move that leaves the opponent no safe move wins with our chip after
            // next, the soonest a position can win that cannot win at once: its ceiling (see
            // `lost_after`).
            let child = b.play_cell(safe);
            let ours = child.opponent_threats();
            if lost_after(child, ours) {
                return ceiling;
            }
            return -self.negamax::<STANDARD>(child, -beta, -alpha, false, Some(ours));
        }
        let (key, mirrored) = self.lookup_key::<STANDARD>(b, n);
        // A column of the position as the table knows it (its mirror image's when mirrored).
        let seen = |col: u32| {
            if mirrored {
                shape.cols() - 1 - col
            } else {
                col
            }
        };
        let table = self.table::<STANDARD>(n);
        let entry = table.get(key);
        let (lower, upper) = match entry {
            Some(e) => (floor.max(e.lower), ceiling.min(e.upper)),
            None => (floor, ceiling),
        };
        if lower >= beta {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        if alpha >= beta {
            return alpha;
        }
        let first_alpha = alpha;

        // Moves by the threats they leave us (the more, the likelier it is best), central
        // columns first among equals: `(weight << 4 | lines) << COLUMN_BITS | column`, small so
        // that the array costs little to clear at every node. A threat counts twice; once more
        // in a row where the follow-up would give us its cell (see `Board::follow_up_bound`)
        // unless it lies just above one of the opponent's, which we could never fill; and once
        // more when it lies just above a cell the opponent could play next (on the empty 7×6
        // board, 172 million nodes instead of 208 million). Early in the game (see
        // [`LINES_BEFORE`]) a move of equal weight whose cell lies on more lines of four comes
        // first.
        let mut moves = [0u16; 2 * MAX_COLS];
        let mut len = 0;
        // Each child's winning cells of ours, which are its opponent's threats.
        let mut child_threats = [0u64; MAX_COLS];
        // And each child's key as the table knows it.
        let mut child_keys = [0u64; MAX_COLS];
        let ours_by_parity = if (area - n) % 2 == 0 {
            shape.first_rows()
        } else {
            shape.cells() & !shape.first_rows()
        };
        let good = ours_by_parity & !(theirs << 1);
        let check_children = b.children_may_bound(safe, -beta);
        let order = if STANDARD {
            &STANDARD_ORDER[..]
        } else {
            self.order
        };
        for &col in order {
            let cell = safe & shape.column(col);
            if cell == 0 {
                continue;
            }
            // The child's slot is on its way into the cache while the moves are sorted and
            // the earlier ones searched: a table far bigger than the cache costs a miss a node.
            let child = b.play_cell(cell);
            let child_key = self.lookup_key::<STANDARD>(child, n + 1).0;
            child_keys[col as usize] = child_key;
            self.table::<STANDARD>(n + 1).prefetch(child_key);
            // A child the other player can only follow up in (see `Board::follow_up_bound`)
            // may be bounded low enough to cut this node without a search.
            if check_children && let Some(bound) = child.follow_up_bound(-beta) {
                table.put(key, -bound, ceiling, Some(seen(col)), 0);
                return -bound;
            }
            let threats = shape.winning_cells(b.current() | cell, b.mask() | cell);
            if lost_after(child, threats) {
                table.put(key, ceiling, ceiling, Some(seen(col)), 0);
                return ceiling;
            }
            child_threats[col as usize] = threats;
            // The child's playable cells, and the cells just above them: a threat there holds
            // its column shut to the opponent, who may not play under it.
            let after = ((b.playable() & !cell) | (cell << 1)) & shape.cells();
            let threats = (2 * threats.count_ones()
                + (threats & good).count_ones()
                + (threats & after << 1).count_ones())
            .min(127) as u16;
            let lines = if n < LINES_BEFORE {
                shape.lines_through(cell).min(15) as u16
            } else {
                0
            };
            let weight = threats << 4 | lines;
            let mut i = len;
            while i > 0 && moves[i - 1] >> COLUMN_BITS < weight {
                moves[i] = moves[i - 1];
                i -= 1;
            }
            moves[i] = weight << COLUMN_BITS | col as u16;
            len += 1;
        }
        // The move that settled this position last time (a cut-off, most often) comes first:
        // probes of other windows and transpositions meet the same positions again.
        if let Some(best) = entry.and_then(|e| e.best).map(seen)
            && let Some(i) = moves[..len].iter().position(|&m| column_of(m) == best)
        {
            moves[..=i].rotate_right(1);
        }

        let empty = area - n;
        if empty >= CUT_FROM_CHILDREN_EMPTY {
            // A child the table already bounds low enough cuts this node before any search
            // (the children's slots were fetched above).
            for &m in &moves[..len] {
                let col = column_of(m);
                if let Some(e) = self.table::<STANDARD>(n + 1).get(child_keys[col as usize])
                    && -e.upper >= beta
                {
                    table.put(key, -e.upper, ceiling, Some(seen(col)), 0);
                    return -e.upper;
                }
            }
        }
        let share = self.busy.filter(|_| area - n >= SHARE_EMPTY);
        // Moves put off while another thread searches them go once more to the end of the list,
        // and are searched there whoever else is at them.
        let mut end = len;
        let mut i = 0;
        let (mut best, mut best_score) = (u32::MAX, i32::MIN);
        while i < end {
            let col = column_of(moves[i]);
            let cell = safe & shape.column(col);
            let child = b.play_cell(cell);
            let r = match share.filter(|_| i < len) {
                Some(busy) => {
                    let k = child.key();
                    if i > 0 && busy.holds(k) {
                        moves[end] = moves[i];
                        end += 1;
                        i += 1;
                        continue;
                    }
                    busy.enter(k);
                    let r = -self.negamax::<STANDARD>(
                        child,
                        -beta,
                        -alpha,
                        true,
                        Some(child_threats[col as usize]),
                    );
                    busy.leave(k);
                    r
                }
                None => -self.negamax::<STANDARD>(
                    child,
                    -beta,
                    -alpha,
                    true,
                    Some(child_threats[col as usize]),
                ),
            };
            i += 1;
            if self.stopped() {
                return 0;
            }
            if r > best_score {
                (best, best_score) = (col, r);
            }
            if r >= beta {
                table.put(key, r, ceiling, Some(seen(col)), work(self.nodes - start));
                return r;
            }
            alpha = alpha.max(r);
        }
        let work = work(self.nodes - start);
        if alpha > first_alpha {
            table.put(key, alpha, alpha, Some(seen(best)), work);
        } else {
            table.put(key, floor, alpha, Some(seen(best)), work);
        }
        alpha
    }
}

/// Whether the player to move in `child` has no safe move ([`Board::safe_moves`]) when the
/// other player's winning cells are `theirs`: every move it has lets the other player win
/// with its next chip (two threats to block, or every playable cell under one). Its parent
/// then wins with the move that made `child`, and scores the most it can; the check costs a
/// few operations on bits the parent has at hand, where a search of the child costs a node,
/// and often more, since the move need not have been sorted first (on the empty 7×6 board,
/// 172 million nodes instead of 223 million).
#[inline(always)]
fn lost_after(child: Board, theirs: u64) -> bool {
    child.safe_moves_against(theirs) == 0
}

/// The work of a search of `nodes` nodes, as the table weighs it: the bits of the count.
#[inline]
fn work(nodes: u64) -> u32 {
    u64::BITS - nodes.leading_zeros()
}

/// Everything `fourow explain` tells about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The score of the position.
    pub score: Score,
    /// The score of each legal column (0-based), left to right; none once the game is over.
    pub moves: Vec<(u32, Score)>,
    /// A line of perfect play to the end of the game (0-based columns).
    pub variation: Vec<u32>,
    /// Positions searched, over all threads.
    pub nodes: u64,
}

/// Scores every legal column of `b` and finds a principal variation, the columns shared out
/// among `threads` searchers sharing one table of `table_bytes`; `done` hears of each column
/// as it is scored. The result does not depend on `threads` (but the node count does).
pub fn analyze(
    b: Board,
    threads: usize,
    table_bytes: usize,
    done: &(dyn Fn(u32, Score) + Sync),
) -> Analysis {
    analyze_known(b, threads, table_bytes, done, &|_| None)
}

/// [`analyze`] with the outcome of each move known already (from a strong solution):
/// `known(col)` is the outcome of playing `col` for the player to move, when known. The
/// searches then probe only the scores that outcome allows.
pub fn analyze_known(
    b: Board,
    threads: usize,
    table_bytes: usize,
    done: &(dyn Fn(u32, Score) + Sync),
    known: &(dyn Fn(u32) -> Option<Outcome> + Sync),
) -> Analysis {
    let threads = threads.max(1);
    let mut first = Solver::new(table_bytes);
    first.prepare(b.shape());
    let over = b.last_mover_won() || b.is_full();
    let columns: Vec<u32> = if over {
        Vec::new()
    } else {
        first
            .order
            .iter()
            .copied()
            .filter(|&c| b.can_play(c))
            .collect()
    };
    let next = AtomicUsize::new(0);
    let scores = Mutex::new(Vec::new());
    let work = |solver: &mut Solver| {
        while let Some(&col) = columns.get(next.fetch_add(1, Ordering::Relaxed)) {
            let s = solver.score_move_known(b, col, known(col));
            done(col, s);
            scores
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((col, s));
        }
    };
    let helpers = threads.min(columns.len()).saturating_sub(1);
    let nodes = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..helpers)
            .map(|_| {
                let mut s = first.sharing();
                scope.spawn(move || {
                    work(&mut s);
                    s.nodes()
                })
            })
            .collect();
        work(&mut first);
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread panicked"))
            .sum::<u64>()
    });
    let mut moves = scores.into_inner().unwrap_or_else(|e| e.into_inner());
    moves.sort_unstable();
    let score = match moves.iter().map(|&(_, s)| s).max() {
        Some(best) => best,
        None => first.solve(b),
    };
    let variation = first.principal_variation(b, score);
    Analysis {
        score,
        moves,
        variation,
        nodes: nodes + first.nodes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourow::solve::parse_moves;

    #[test]
    fn centre_first_order() {
        let mut s = Solver::new(0);
        s.prepare(Shape::STANDARD);
        assert_eq!(s.order, STANDARD_ORDER);
        s.prepare(Shape::new(4, 4).unwrap());
        assert_eq!(s.order, [1, 0, 2, 3]);
    }

    #[test]
    fn immediate_wins_and_losses() {
        let mut s = Solver::new(1 << 20);
        let shape = Shape::STANDARD;
        // x to move with three on the bottom row and an open end: wins with chip 7.
        let b = parse_moves("223344", shape).unwrap();
        assert_eq!(s.solve(b), Score((43 - 6) / 2));
        // o to move, facing two open ends: x wins with its chip onto 6.
        let b = parse_moves("27374", shape).unwrap();
        assert_eq!(s.solve(b), Score((43 - 6) / 2).flip());
        // A game already won counts as lost for the side to move.
        let b = parse_moves("1212121", shape).unwrap();
        assert_eq!(s.solve(b), Score((43 - 6) / 2).flip());
    }

    #[test]
    fn a_move_that_leaves_no_safe_reply() {
        let mut s = Solver::new(1 << 20);
        let shape = Shape::STANDARD;
        // x to move: a chip in column 4 makes three on the bottom row open at both ends, so
        // x wins with its chip after next (the seventh, onto six chips).
        let b = parse_moves("2233", shape).unwrap();
        assert_eq!(s.solve(b), Score((43 - 6) / 2));
        assert_eq!(s.score_move(b, 3), Score((43 - 6) / 2));
        // A chip in column 1 leaves the row one open end, which o blocks in time.
        assert!(s.score_move(b, 0) < Score((43 - 6) / 2));
    }
}
