//! Counting positions explicitly on a board of any size that fits a 64-bit bitboard: the
//! reference the symbolic count ([`super::bdd`]) is held to on boards other than 7×6.
//!
//! Column `c` owns bits `c * (rows + 1)` up; the spare bit above each column keeps runs from
//! wrapping from one column into the next, as in [`super::position`]. Each ply's open
//! positions are a hash set of (all chips, chips of the player to move); a position with a
//! four is counted and not expanded.

use super::count::{NoSuchPly, Ply};
use hashbrown::HashSet;
use std::time::Instant;

/// Why a board cannot be counted here.
#[derive(Debug, thiserror::Error)]
pub enum SizeError {
    /// The board does not fit in 64 bits with a spare bit per column, or has no cells.
    #[error(
        "a board of {cols} columns and {rows} rows does not fit the explicit methods \
         (columns × (rows + 1) must be at most 64)"
    )]
    TooLarge {
        /// Number of columns asked for.
        cols: u32,
        /// Number of rows asked for.
        rows: u32,
    },
    /// More plies than the board has cells.
    #[error(transparent)]
    Plies(#[from] NoSuchPly),
}

/// A board size for bitboards.
#[derive(Copy, Clone, Debug)]
struct Board {
    cols: u32,
    rows: u32,
    stride: u32,
}

impl Board {
    fn bottom(&self, col: u32) -> u64 {
        1 << (col * self.stride)
    }

    fn top(&self, col: u32) -> u64 {
        1 << (col * self.stride + self.rows - 1)
    }

    /// Whether `chips` hold four in a line.
    fn four(&self, chips: u64) -> bool {
        [1, self.stride, self.stride + 1, self.stride - 1]
            .iter()
            .any(|&d| {
                let pairs = chips & (chips >> d);
                pairs & (pairs >> (2 * d)) != 0
            })
    }
}

/// Counts plies 0 to `plies` of the board of `cols` columns and `rows` rows; `report`
/// receives each ply as soon as it is done.
pub fn count(
    cols: u32,
    rows: u32,
    plies: u32,
    mut report: impl FnMut(&Ply),
) -> Result<Vec<Ply>, SizeError> {
    if cols == 0 || rows == 0 || cols * (rows + 1) > 64 {
        return Err(SizeError::TooLarge { cols, rows });
    }
    let cells = cols * rows;
    NoSuchPly::check(cells, plies)?;
    let board = Board {
        cols,
        rows,
        stride: rows + 1,
    };
    let mut out = Vec::new();
    let mut clock = Instant::now();
    let mut open: HashSet<(u64, u64)> = HashSet::new();
    open.insert((0, 0));
    let mut push = |row: Ply| {
        report(&row);
        out.push(row);
    };
    push(Ply {
        ply: 0,
        x_won: 0,
        o_won: 0,
        draw: 0,
        open: 1,
        elapsed: clock.elapsed(),
    });
    for ply in 1..=plies {
        clock = Instant::now();
        let mut next = HashSet::with_capacity(open.len() * 2);
        let mut won = HashSet::new();
        for &(mask, current) in &open {
            for col in 0..board.cols {
                if mask & board.top(col) != 0 {
                    continue;
                }
                let grown = mask | (mask + board.bottom(col));
                let mover = current | (grown ^ mask);
                // The other side moves next: its chips are the rest of the mask.
                let child = (grown, grown ^ mover);
                if board.four(mover) {
                    won.insert(child);
                } else {
                    next.insert(child);
                }
            }
        }
        let won = won.len() as u64;
        let left = next.len() as u64;
        let first = ply % 2 == 1;
        push(Ply {
            ply,
            x_won: if first { won } else { 0 },
            o_won: if first { 0 } else { won },
            draw: if ply == cells { left } else { 0 },
            open: if ply == cells { 0 } else { left },
            elapsed: clock.elapsed(),
        });
        open = next;
    }
    Ok(out)
}
