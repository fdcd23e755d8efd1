//! Chunk sizes fitted to the solver's speed.
//!
//! Each run of a solver costs its start (an interpreter, a JIT) besides its work, so the
//! chunks should be large; but a wrong solver should fail fast, on small boards first, and a
//! run that hangs or crashes should lose few cases. So the audit starts with chunks of
//! [`START`] cases (a large Code Jam input, which any solver is made for), grows them
//! geometrically while runs pass, aiming at runs of [`TARGET`], up to [`MAX`] cases (what a
//! few chunks in flight may hold in memory), and shrinks them after a run that went wrong, so
//! that a failure that comes back is pinned to fewer and fewer cases.
//!
//! Sizes depend on how long runs take, so they differ from one audit to the next; what the
//! report says of the failures does not (see [`super`]).

use std::sync::Mutex;
use std::time::Duration;

/// Cases of the first chunk.
pub const START: usize = 1000;
/// Most cases in a chunk: each holds about 80 bytes per case in flight (the boards, the input
/// text, the exact answers), for every worker and the chunk waiting ready.
pub const MAX: usize = 1 << 20;
/// Wall time a run is aimed at.
pub const TARGET: Duration = Duration::from_millis(1500);
/// Most a chunk grows by from one run to the next.
const GROWTH: f64 = 4.0;
/// A run that went wrong divides the size by this.
const SHRINK: usize = 8;

/// Chooses chunk sizes from the runs so far. Shared by the producer, which asks for the size
/// of each chunk as it starts it, and the workers, which tell how each run went.
pub struct Sizer {
    fixed: Option<usize>,
    target: Duration,
    state: Mutex<State>,
}

struct State {
    next: usize,
    /// Chunks started so far: the producer's count, read when a run goes wrong.
    started: u64,
    /// Runs of chunks before this one no longer count: they were cut before the last run that
    /// went wrong was known.
    since: u64,
}

impl Sizer {
    /// A fixed size, or sizes fitted to a solver allowed `timeout` per run: runs are aimed
    /// well below it.
    pub fn new(fixed: Option<usize>, timeout: Duration) -> Sizer {
        Sizer {
            fixed: fixed.map(|n| n.max(1)),
            target: TARGET.min(timeout / 8),
            state: Mutex::new(State {
                next: START,
                started: 0,
                since: 0,
            }),
        }
    }

    /// The size of chunk `index` (from 0), which is starting now.
    pub fn size(&self, index: u64) -> usize {
        if let Some(n) = self.fixed {
            return n;
        }
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.started = s.started.max(index + 1);
        s.next
    }

    /// Tells how the run of chunk `index`, of `cases` cases, went: how long it took, and
    /// whether it went wrong as a whole (a wrong answer is not that).
    pub fn ran(&self, index: u64, cases: usize, took: Duration, broken: bool) {
        if self.fixed.is_some() {
            return;
        }
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if broken {
            s.next = (cases / SHRINK).clamp(1, s.next);
            s.since = s.started;
        } else if index >= s.since {
            let speed = self.target.as_secs_f64() / took.as_secs_f64().max(1e-6);
            let next = cases as f64 * speed.clamp(1.0 / GROWTH, GROWTH);
            // A short last chunk says little: it only ever helps the size grow.
            if cases >= s.next || next > s.next as f64 {
                s.next = (next as usize).clamp(1, MAX);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn sizes_grow_geometrically_towards_the_target_and_stop_at_the_cap() {
        let s = Sizer::new(None, Duration::from_secs(60));
        assert_eq!(s.size(0), START);
        s.ran(0, START, 10 * MS, false);
        assert_eq!(s.size(1), 4 * START);
        // At 3 ms per thousand cases, the target is 500,000 cases.
        s.ran(1, 4 * START, 12 * MS, false);
        assert_eq!(s.size(2), 16 * START);
        s.ran(2, 16 * START, 48 * MS, false);
        s.ran(3, 64 * START, 192 * MS, false);
        assert_eq!(s.size(4), 256 * START);
        s.ran(4, 256 * START, 768 * MS, false);
        assert_eq!(s.size(5), 500_000);
        s.ran(5, 500_000, 2 * TARGET, false);
        assert_eq!(s.size(6), 250_000);
        let fast = Sizer::new(None, Duration::from_secs(60));
        for i in 0..20 {
            let n = fast.size(i);
            fast.ran(i, n, MS, false);
        }
        assert_eq!(fast.size(20), MAX);
    }

    #[test]
    fn a_broken_run_shrinks_the_size_and_earlier_chunks_do_not_undo_it() {
        let s = Sizer::new(None, Duration::from_secs(60));
        for i in 0..4 {
            let n = s.size(i);
            s.ran(i, n, MS, false);
        }
        let big = s.size(4);
        let _ = s.size(5);
        s.ran(4, big, MS, true);
        assert_eq!(s.size(6), big / 8);
        // Chunk 5 was cut before the failure was known: its success does not count.
        s.ran(5, big, MS, false);
        assert_eq!(s.size(7), big / 8);
        s.ran(6, big / 8, MS, false);
        assert_eq!(s.size(8), big / 2);
    }

    #[test]
    fn a_fixed_size_stays_and_short_timeouts_aim_lower() {
        let s = Sizer::new(Some(700), Duration::from_secs(60));
        s.ran(0, 700, MS, false);
        assert_eq!(s.size(1), 700);
        let s = Sizer::new(None, Duration::from_secs(2));
        assert_eq!(s.target, Duration::from_millis(250));
    }
}
