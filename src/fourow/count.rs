//! How many distinct Four in a row positions each ply holds, and how many of them are won or
//! drawn (OEIS A212693 for the totals).
//!
//! A position is a set of chips, however it was reached; play stops at a four, so a won
//! position is counted but never expanded. [`FourInARow`] is the game as the shared
//! [`engine`] sees it, with a position's [`Position::key`] as its code, and two methods count
//! the plies:
//!
//! - [`Method::Memo`] walks every move with a hashbrown memo per shard and ply
//!   ([`engine::explore_sharded`]): simple, and the reference for the other.
//! - [`Method::Tree`] walks first-parent edges only ([`engine::explore_tree_with`]): each
//!   position is generated once, by the one parent [`FourInARow::for_each_first_child`]
//!   names, so nothing is looked up and only open positions are stored, and the last ply is
//!   counted without being stored.
//!
//! With symmetry, a position and its mirror image (columns reversed) are one class, stored as
//! the smaller of their two keys, and a class counts twice unless the position is its own
//! mirror image. Both methods count the same numbers with and without it.
//!
//! # The first parent
//!
//! Undoing the last move means taking back a chip of the last mover `L` from the top of a
//! column. The parent left must have been playable: reachable in alternating play, and not
//! over, so `L` had no four in it yet (the other side's chips are unchanged, and had none).
//! Not every chip of `L` on top of a column qualifies even then: with `x` on column 1 and `o`
//! under `x` on column 2, the first player's last chip was the one on column 2, because the
//! board with only `o`, `x` on column 2 cannot be reached (`o` would have moved first).
//! So the first parent is the one left by taking back the top chip of the lowest-numbered
//! column for which that parent is open and reachable, and reachability is decided exactly by
//! [`reachable`]: a board with no four can be reached exactly when its chips can be taken back
//! one at a time from the tops of the columns, alternating between the players, down to the
//! empty board (every board met on the way holds some of its chips, so none has a four).
//! Most such searches succeed at the first try or fail at once, so they cost the tree walk
//! little, and a move with no chip of the mover on top of a lower-numbered column needs none.

use super::position::{BOARD, HEIGHT, Position, WIDTH};
use crate::engine::{self, Game, HashMemo, Memo, TreeWalk, mix};
use crate::outcome::{ByStatus, Status};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How the positions are counted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Method {
    /// Every move from every position, deduplicated per ply in hashbrown tables.
    #[default]
    Memo,
    /// First-parent edges only: no table, each position generated once.
    Tree,
}

/// The positions of one ply, by status.
#[derive(Clone, Debug)]
pub struct Ply {
    /// Moves played (chips on the board).
    pub ply: u32,
    /// Won by the first player (possible at odd plies from 7 on).
    pub x_won: u64,
    /// Won by the second player (possible at even plies from 8 on).
    pub o_won: u64,
    /// Full boards with no four (ply 42 only).
    pub draw: u64,
    /// Positions where play goes on.
    pub open: u64,
    /// Wall time spent on this ply.
    pub elapsed: Duration,
}

/// A ply past the last one of a board: every counter that takes a board size refuses it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a board of {cells} cells has no ply {ply}")]
pub struct NoSuchPly {
    /// Cells of the board.
    pub cells: u32,
    /// The ply asked for.
    pub ply: u32,
}

impl NoSuchPly {
    /// An error when a board of `cells` cells has no ply `ply` (it has plies 0 to `cells`).
    pub fn check(cells: u32, ply: u32) -> Result<(), NoSuchPly> {
        if ply > cells {
            Err(NoSuchPly { cells, ply })
        } else {
            Ok(())
        }
    }
}

impl Ply {
    fn new(ply: u32, counts: ByStatus<u64>, elapsed: Duration) -> Ply {
        let ByStatus {
            x_won,
            o_won,
            draw,
            open,
        } = counts;
        Ply {
            ply,
            x_won,
            o_won,
            draw,
            open,
            elapsed,
        }
    }

    /// Every position of the ply.
    pub fn positions(&self) -> u64 {
        self.x_won + self.o_won + self.draw + self.open
    }

    /// The counts alone.
    pub fn counts(&self) -> ByStatus<u64> {
        ByStatus {
            x_won: self.x_won,
            o_won: self.o_won,
            draw: self.draw,
            open: self.open,
        }
    }
}

/// Connect Four for the engine. A position's code is its key, or with `symmetry` the smaller
/// of its key and its mirror image's key.
#[derive(Copy, Clone, Debug)]
pub struct FourInARow {
    /// Whether a position and its mirror image are stored once, weighted by two.
    pub symmetry: bool,
}

/// The bits of the columns left of `col`.
const fn columns_below(col: u32) -> u64 {
    (1 << (col * (HEIGHT + 1))) - 1
}

/// The status a move gives the position it makes.
#[inline]
fn status(q: Position) -> Status {
    if q.last_mover_won() {
        if q.moves() % 2 == 1 {
            Status::XWon
        } else {
            Status::OWon
        }
    } else if q.is_full() {
        Status::Draw
    } else {
        Status::Open
    }
}

/// The top chip of every column of `mask`.
// A chip is a top chip when the cell above it is empty: shifting the mask down by one lines
// every cell up with the one above it. The spare bit above each column is never set, so the
// bit of the next column's bottom cell that lands there is masked off by `mask` itself.
#[inline]
const fn tops(mask: u64) -> u64 {
    mask & !(mask >> 1)
}

/// Which side of a move's column holds the candidates for an earlier first parent.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Side {
    /// Columns left of the move: the lowest column wins.
    Left,
    /// Columns right of the move: the child is stored mirrored, where right becomes left.
    Right,
    /// A child that is its own mirror image: the lower of the move's column and its mirror.
    Symmetric,
}

impl FourInARow {
    /// The code of a position: its key, or its class's smaller key.
    #[inline]
    pub fn code(&self, p: Position) -> u64 {
        let k = p.key();
        if self.symmetry {
            k.min(Position::mirror_key(k))
        } else {
            k
        }
    }

    /// How many positions a code stands for: 2 for a class of two mirror images, else 1.
    #[inline]
    pub fn weight(&self, code: u64) -> u64 {
        if self.symmetry && Position::mirror_key(code) != code {
            2
        } else {
            1
        }
    }

    /// Whether `q`, just made by a chip in column `col` from an open reachable parent, names
    /// that parent as its first one: no other column on `side` can give its last chip back
    /// and leave an open reachable position.
    #[inline]
    fn no_earlier_parent(q: Position, col: u32, side: Side, won: bool) -> bool {
        let last = q.opponent();
        let range = match side {
            Side::Left => columns_below(col),
            Side::Right => BOARD & !columns_below(col + 1),
            Side::Symmetric => columns_below(col.min(WIDTH - 1 - col)),
        };
        let mut candidates = tops(q.mask()) & last & range;
        while candidates != 0 {
            let chip = candidates & candidates.wrapping_neg();
            candidates ^= chip;
            // Taking back a chip that is part of every four of the last mover leaves a
            // position where the game went on; any other chip leaves one already won.
            if won && Position::is_win(last ^ chip) {
                continue;
            }
            if reachable(q.current(), q.mask() ^ chip) {
                return false;
            }
        }
        true
    }
}

impl Game for FourInARow {
    type Pos = u64;

    fn root(&self) -> u64 {
        Position::new().key()
    }

    #[inline]
    fn for_each_child(&self, code: u64, mut visit: impl FnMut(u64, Status)) {
        let p = Position::from_key_unchecked(code);
        for col in 0..WIDTH {
            if p.can_play(col) {
                let q = p.play(col);
                visit(self.code(q), status(q));
            }
        }
    }

    /// The children whose first parent (see the module documentation) is `code`. With
    /// symmetry, `code` is a class's smaller key and so is each child visited; the first
    /// parent of a class is the class of its smaller key's first parent, and a parent that is
    /// its own mirror image only plays the left half of the board (the right half gives the
    /// same classes again).
    #[inline]
    fn for_each_first_child(&self, code: u64, mut visit: impl FnMut(u64, Status)) {
        let p = Position::from_key_unchecked(code);
        let half = self.symmetry && Position::mirror_key(code) == code;
        let last_col = if half { WIDTH / 2 } else { WIDTH - 1 };
        for col in 0..=last_col {
            if !p.can_play(col) {
                continue;
            }
            let q = p.play(col);
            let s = status(q);
            let key = q.key();
            let (child, side) = if self.symmetry {
                let m = Position::mirror_key(key);
                if m < key {
                    (m, Side::Right)
                } else if m == key {
                    (key, Side::Symmetric)
                } else {
                    (key, Side::Left)
                }
            } else {
                (key, Side::Left)
            };
            let won = matches!(s, Status::XWon | Status::OWon);
            if FourInARow::no_earlier_parent(q, col, side, won) {
                visit(child, s);
            }
        }
    }
}

/// Whether the position with chips `mask`, where the side that moved last owns `last`, can be
/// reached in alternating play, for a position with no four anywhere: whether its chips can be
/// taken back from the tops of the columns, alternately, last mover first, down to nothing.
///
/// A depth-first search over the order of take-backs; a position that cannot be peeled is
/// remembered in a small table (the chips' owners never change during one search, so the mask
/// alone names a position), which keeps failing searches short.
pub fn reachable(last: u64, mask: u64) -> bool {
    let mut failed = [0u64; 64];
    peel(last, mask, &mut failed)
}

fn peel(last: u64, mask: u64, failed: &mut [u64; 64]) -> bool {
    if mask == 0 {
        return true;
    }
    let mut candidates = tops(mask) & last;
    if candidates == 0 {
        return false;
    }
    let slot = (mix(mask) & 63) as usize;
    if failed[slot] == mask {
        return false;
    }
    let other = mask ^ last;
    while candidates != 0 {
        let chip = candidates & candidates.wrapping_neg();
        candidates ^= chip;
        if peel(other, mask ^ chip, failed) {
            return true;
        }
    }
    failed[slot] = mask;
    false
}

/// What to count and how.
#[derive(Copy, Clone, Debug)]
pub struct Options {
    /// The deepest ply counted.
    pub plies: u32,
    /// The walk: a memo per ply, or the first-parent tree.
    pub method: Method,
    /// Walk one position of each mirror pair (and weigh it by the pair's size).
    pub symmetry: bool,
}

/// Counts the positions of plies 0 to `options.plies`. `report` receives each ply as soon as
/// it is done; `progress(ply, done, total)` says how many of the `total` positions of the
/// previous ply have been expanded so far while making `ply` (called from any thread).
pub fn count(
    options: Options,
    progress: impl Fn(u32, usize, usize) + Sync,
    mut report: impl FnMut(&Ply),
) -> Vec<Ply> {
    let game = FourInARow {
        symmetry: options.symmetry,
    };
    let mut plies = Vec::new();
    let mut clock = Instant::now();
    let mut finish = |ply: u32, counts: ByStatus<u64>| {
        let row = Ply::new(ply, counts, clock.elapsed());
        report(&row);
        plies.push(row);
        clock = Instant::now();
    };
    match options.method {
        Method::Memo => {
            // Codes stored at the last ply and the growth from the ply before, to size each
            // ply's tables up front instead of growing them step by step (fixed point, 8 bits).
            let stored = AtomicU64::new(0);
            let growth = AtomicU64::new(7 << 8);
            engine::explore_sharded(
                &game,
                SHARDS,
                options.plies,
                |&code| code,
                |_, _| {
                    let expected =
                        (stored.load(Ordering::Relaxed) * growth.load(Ordering::Relaxed)) >> 8;
                    HashMemo::with_capacity(expected as usize / SHARDS)
                },
                |layer| {
                    let counts = layer
                        .memo
                        .par_iter()
                        .map(|m| weighted_counts(&game, m))
                        .reduce(ByStatus::default, |a, b| a + b);
                    let now: u64 = layer.memo.iter().map(|m| m.len() as u64).sum();
                    let before = stored.swap(now, Ordering::Relaxed);
                    if let Some(g) = (now << 8).checked_div(before) {
                        growth.store(g, Ordering::Relaxed);
                    }
                    drop(layer.memo);
                    finish(layer.ply, counts);
                },
                &progress,
            );
        }
        Method::Tree => {
            // The engine reports batches; the caller gets running totals. No batch is under
            // way between two plies, when the total starts again from zero.
            let expanded = AtomicUsize::new(0);
            engine::explore_tree_with(
                &game,
                TreeWalk {
                    stop_after: options.plies,
                    keep_over: false,
                    weight: |&code: &u64| game.weight(code),
                    progress: |ply, batch, total| {
                        let done = expanded.fetch_add(batch, Ordering::Relaxed) + batch;
                        progress(ply, done, total);
                    },
                },
                |ply, counts, _, _| {
                    expanded.store(0, Ordering::Relaxed);
                    finish(ply, counts);
                },
            );
        }
    }
    plies
}

/// Shards of each ply's memo: enough for the threads to share the inserts evenly, few enough
/// that each shard's table stays large.
const SHARDS: usize = 64;

/// A shard's positions by status, each class weighed by its size.
fn weighted_counts(game: &FourInARow, memo: &HashMemo<u64>) -> ByStatus<u64> {
    if !game.symmetry {
        return memo.counts();
    }
    let mut c = ByStatus::default();
    for (&code, &s) in memo.iter() {
        c[s] += game.weight(code);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn moves(s: &str) -> Position {
        let cols: Vec<u8> = s.bytes().map(|b| b - b'1').collect();
        Position::from_moves(&cols).expect("playable")
    }

    #[test]
    fn tops_are_the_highest_chip_of_each_column() {
        let p = moves("1112377");
        assert_eq!(tops(p.mask()).count_ones(), 4);
        assert_eq!(tops(p.mask()) & p.mask(), tops(p.mask()));
        assert_eq!(tops(0), 0);
        let full = moves(&"1234567".repeat(6));
        assert_eq!(tops(full.mask()).count_ones(), 7);
    }

    #[test]
    fn o_under_x_needs_another_column() {
        // x on column 1, then o and x on column 2: the first player's last chip is the one on
        // column 2, since taking back the one on column 1 leaves o under x on its own.
        let p = moves("122");
        assert!(reachable(p.opponent(), p.mask()));
        let without_first = p.mask() ^ (p.mask() & super::super::position::column(0));
        assert!(!reachable(p.current(), without_first));
        assert!(reachable(p.current(), p.mask() ^ (tops(p.mask()) & !1)));
        assert!(reachable(0, 0));
    }

    /// Every layout of up to `chips` chips, as (chips of the last mover, all chips), with no
    /// four for either side.
    fn fourless_layouts(chips: u32) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        // Column heights, then every colouring of the chips.
        let mut heights = [0u32; WIDTH as usize];
        loop {
            let n: u32 = heights.iter().sum();
            if n <= chips && n > 0 {
                let cells: Vec<u64> = (0..WIDTH)
                    .flat_map(|c| {
                        (0..heights[c as usize]).map(move |r| 1u64 << (c * (HEIGHT + 1) + r))
                    })
                    .collect();
                let mask: u64 = cells.iter().sum();
                for colour in 0u64..1 << n {
                    if colour.count_ones() != n.div_ceil(2) {
                        continue;
                    }
                    let last: u64 = cells
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| colour >> i & 1 == 1)
                        .map(|(_, c)| c)
                        .sum();
                    if !Position::is_win(last) && !Position::is_win(mask ^ last) {
                        out.push((last, mask));
                    }
                }
            }
            // Next composition, odometer style, heights at most min(6, chips).
            let mut i = 0;
            loop {
                if i == heights.len() {
                    return out;
                }
                heights[i] += 1;
                if heights[i] <= HEIGHT.min(chips) && heights.iter().sum::<u32>() <= chips {
                    break;
                }
                heights[i] = 0;
                i += 1;
            }
        }
    }

    #[test]
    fn reachability_agrees_with_play_on_every_small_layout() {
        // Every position of up to 8 chips met in play (no four before the last move).
        let mut played = HashSet::new();
        let mut layer = vec![Position::new()];
        for _ in 0..8 {
            let mut next = Vec::new();
            for p in layer {
                for (_, q) in p.children() {
                    if played.insert((q.opponent(), q.mask())) && !q.last_mover_won() {
                        next.push(q);
                    }
                }
            }
            layer = next;
        }
        let layouts = fourless_layouts(8);
        let mut unreachable = 0;
        for &(last, mask) in &layouts {
            let r = reachable(last, mask);
            assert_eq!(r, played.contains(&(last, mask)), "{last:#x} {mask:#x}");
            unreachable += usize::from(!r);
        }
        // Both answers are well represented (284,326 layouts, 25,713 of them unreachable).
        assert!(layouts.len() > 250_000 && unreachable > 20_000);
    }

    #[test]
    fn children_carry_the_status_of_their_move() {
        let game = FourInARow { symmetry: false };
        let p = moves("121212");
        let mut seen = Vec::new();
        game.for_each_child(p.key(), |code, s| seen.push((code, s)));
        assert_eq!(seen.len(), 7);
        assert_eq!(seen[0], (p.play(0).key(), Status::XWon));
        assert!(seen[1..].iter().all(|&(_, s)| s == Status::Open));
        let q = moves("1212123");
        game.for_each_child(q.key(), |code, s| {
            let won = code == q.play(1).key();
            assert_eq!(s, if won { Status::OWon } else { Status::Open });
        });
    }

    #[test]
    fn symmetric_codes_weigh_one_or_two() {
        let game = FourInARow { symmetry: true };
        let centre = moves("4");
        assert_eq!(game.code(centre), centre.key());
        assert_eq!(game.weight(game.code(centre)), 1);
        let side = moves("1");
        assert_eq!(game.code(side), game.code(moves("7")));
        assert_eq!(game.weight(game.code(side)), 2);
        assert_eq!(FourInARow { symmetry: false }.weight(side.key()), 1);
    }

    #[test]
    fn every_position_has_exactly_one_first_parent() {
        // Over plies 1 to 6, with and without symmetry: each code the tree step visits is
        // visited once, and the codes are exactly those the full step reaches.
        for symmetry in [false, true] {
            let game = FourInARow { symmetry };
            let mut frontier = vec![game.root()];
            for ply in 1..=6 {
                let mut all = HashSet::new();
                let mut first = Vec::new();
                for &p in &frontier {
                    game.for_each_child(p, |q, s| {
                        all.insert((q, s));
                    });
                    game.for_each_first_child(p, |q, s| first.push((q, s)));
                }
                let once: HashSet<_> = first.iter().copied().collect();
                assert_eq!(once.len(), first.len(), "ply {ply}: a position met twice");
                assert_eq!(once, all, "ply {ply}, symmetry {symmetry}");
                frontier = first
                    .into_iter()
                    .filter(|&(_, s)| s == Status::Open)
                    .map(|(q, _)| q)
                    .collect();
            }
        }
    }
}
