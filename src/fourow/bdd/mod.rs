//! Counting Four in a row positions symbolically: each ply's positions as one binary decision
//! diagram, on any board size.
//!
//! The open positions of a ply (no four on the board) are a set; the next ply is its image
//! under the move relation ([`encoding::Image`]), and the positions of the next ply with a
//! four of the player who just moved are taken out of it before it is expanded in turn (only
//! that player can have one, since the positions expanded had none). Counting a diagram's
//! assignments counts positions, because every position is exactly one assignment
//! ([`encoding`]). The diagrams live in a store written for the job ([`store`]): after every
//! ply, everything but the open positions and the two sets of won boards is dropped.
//!
//! Memory is budgeted: when a ply would need more than [`Settings::memory_limit`], counting
//! stops with [`Stopped`], which keeps the plies finished so far.
//!
//! The store is this module's own rather than a maintained decision-diagram crate's because it
//! is measurably faster at this job: on the same encoding, with the images made of each
//! library's own operations (`scripts/bdd-compare`), counting 7×6 to ply 20 took `oxidd` five
//! times as long and `biodivine-lib-bdd` twelve times (`LIBS=1 scripts/bench-fourow.sh`).
//!
//! Every core works on the same store at once ([`store`]): splitting a ply by the height of
//! the first column instead, so that each part could grow in a store of its own, was measured
//! to need 2.4 times the nodes of the whole diagram (7×6, plies 14 and 17), because positions
//! with different first columns share most of the rest of their diagram.

pub mod encoding;
pub mod saved;
pub mod store;
pub mod values;

use super::count::{NoSuchPly, Ply};
use encoding::{Image, Layout};
use std::ops::ControlFlow;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use store::{FALSE, Store};

/// What to count.
#[derive(Copy, Clone, Debug)]
pub struct Settings {
    /// Number of columns.
    pub cols: u32,
    /// Number of rows.
    pub rows: u32,
    /// The deepest ply counted (at most `cols * rows`).
    pub plies: u32,
    /// Bytes the diagrams may use at most.
    pub memory_limit: usize,
}

/// What one ply cost.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cost {
    /// Nodes of the diagram of the ply's open positions.
    pub nodes: usize,
    /// Nodes of the diagram of all the ply's positions.
    pub all_nodes: usize,
    /// The most bytes the store held while the ply was made.
    pub peak_bytes: usize,
}

/// How far the work on a ply has come.
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    /// The ply being made.
    pub ply: u32,
    /// Nodes in the store now.
    pub nodes: usize,
    /// Bytes the store holds now.
    pub bytes: usize,
}

/// Why counting stopped before the last ply.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The diagrams of a ply need more memory than allowed.
    #[error(
        "ply {ply} needs more than the memory limit of {} MiB for its diagrams",
        limit >> 20
    )]
    MemoryLimit {
        /// The ply that did not fit.
        ply: u32,
        /// The limit in bytes.
        limit: usize,
    },
    /// The board has no cells, or more variables than the store can address.
    #[error("a board of {cols} columns and {rows} rows is not supported (1 to 64 of each)")]
    Board {
        /// Number of columns asked for.
        cols: u32,
        /// Number of rows asked for.
        rows: u32,
    },
    /// More plies than the board has cells.
    #[error(transparent)]
    Plies(#[from] NoSuchPly),
    /// A count does not fit in 64 bits.
    #[error("ply {ply} has more than 2^64 positions")]
    Overflow {
        /// The ply whose count is too large.
        ply: u32,
    },
}

/// Counting stopped early: why, and the plies finished before.
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct Stopped {
    /// Why.
    pub error: Error,
    /// Every ply finished, from ply 0 on.
    pub plies: Vec<(Ply, Cost)>,
}

/// Counts the positions of plies 0 to `settings.plies`. `report` receives each ply as soon as
/// it is done, with its cost, and may end the count there with [`ControlFlow::Break`] (a
/// reader that went away): the plies reported so far are then returned. `progress` is called
/// now and then while a ply is made.
pub fn count(
    settings: Settings,
    progress: impl FnMut(Progress) + Send,
    mut report: impl FnMut(&Ply, &Cost) -> ControlFlow<()>,
) -> Result<Vec<(Ply, Cost)>, Stopped> {
    let Settings {
        cols, rows, plies, ..
    } = settings;
    let fail = |error, plies| Err(Stopped { error, plies });
    let out_of_memory = |ply| Error::MemoryLimit {
        ply,
        limit: settings.memory_limit,
    };
    if !(1..=64).contains(&cols) || !(1..=64).contains(&rows) || cols * (rows + 1) > 4096 {
        return fail(Error::Board { cols, rows }, Vec::new());
    }
    let cells = cols * rows;
    if let Err(e) = NoSuchPly::check(cells, plies) {
        return fail(e.into(), Vec::new());
    }
    let layout = Layout { cols, rows };
    // Called from whichever thread is working; a call while another is under way is skipped.
    let progress = Mutex::new(progress);
    let mut store = Store::new(layout.levels(), settings.memory_limit);
    let mut done = Vec::new();
    let mut clock = Instant::now();
    let x_wins = layout.wins(&mut store, true);
    let o_wins = layout.wins(&mut store, false);
    let empty = layout.empty(&mut store);
    if store.overflowed() {
        return fail(out_of_memory(0), done);
    }
    let [mut open, mut x_wins, mut o_wins] = store.compact([empty, x_wins, o_wins]);
    let mut finish = |done: &mut Vec<(Ply, Cost)>, row: Ply, cost: Cost| {
        let flow = report(&row, &cost);
        done.push((row, cost));
        flow
    };
    let first = Ply {
        ply: 0,
        x_won: 0,
        o_won: 0,
        draw: u64::from(cells == 0),
        open: u64::from(cells > 0),
        elapsed: clock.elapsed(),
    };
    let cost = Cost {
        nodes: store.size(open),
        all_nodes: store.size(open),
        peak_bytes: store.peak_bytes(),
    };
    if finish(&mut done, first, cost).is_break() {
        return Ok(done);
    }
    for ply in 1..=plies {
        clock = Instant::now();
        store.reset_peak();
        let first_moves = ply % 2 == 1;
        let show = |s: &Store| {
            if let Ok(mut progress) = progress.try_lock() {
                progress(Progress {
                    ply,
                    nodes: s.len(),
                    bytes: s.bytes(),
                });
            }
        };
        // The image has about three times the nodes of the set it starts from, and taking
        // out the fours adds a few more.
        let all = store.run(3 * store.len(), |s| {
            Image::new(s, layout, first_moves, &show).of(open)
        });
        let wins = if first_moves { x_wins } else { o_wins };
        let still = store.run(store.len() / 4, |s| s.diff(all, wins));
        if store.overflowed() {
            return fail(out_of_memory(ply), done);
        }
        let [all, still, x_kept, o_kept] = store.compact([all, still, x_wins, o_wins]);
        show(&store);
        let all_nodes = store.size(all);
        let Some(counts) = store.count(&[all, still], settings.memory_limit) else {
            if store.overflowed() {
                return fail(out_of_memory(ply), done);
            }
            return fail(Error::Overflow { ply }, done);
        };
        let (Ok(total), Ok(left)) = (u64::try_from(counts[0]), u64::try_from(counts[1])) else {
            return fail(Error::Overflow { ply }, done);
        };
        [open, x_wins, o_wins] = store.compact([still, x_kept, o_kept]);
        let won = total - left;
        let row = Ply {
            ply,
            x_won: if first_moves { won } else { 0 },
            o_won: if first_moves { 0 } else { won },
            draw: if ply == cells { left } else { 0 },
            open: if ply == cells { 0 } else { left },
            elapsed: clock.elapsed(),
        };
        let cost = Cost {
            nodes: store.size(open),
            all_nodes,
            peak_bytes: store.peak_bytes(),
        };
        if finish(&mut done, row, cost).is_break() {
            return Ok(done);
        }
        if open == FALSE {
            // Nothing left to expand: the later plies are empty.
            for later in ply + 1..=plies {
                let row = Ply {
                    ply: later,
                    x_won: 0,
                    o_won: 0,
                    draw: 0,
                    open: 0,
                    elapsed: Duration::ZERO,
                };
                let cost = Cost {
                    nodes: 1,
                    all_nodes: 1,
                    peak_bytes: 0,
                };
                if finish(&mut done, row, cost).is_break() {
                    break;
                }
            }
            break;
        }
    }
    Ok(done)
}
