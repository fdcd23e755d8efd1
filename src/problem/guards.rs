//! Coverage of guarded checks: a solver that looks at a line only when some other square is
//! in some state (a condition copied from the line above, a check nested in the wrong `if`)
//! is right wherever that square is in the state it wants. The killer set therefore holds,
//! for each line, each square off it and each state of that square (empty, the first's, the
//! second's), a position where that line decides the answer — ignoring it answers wrong — and
//! the square is in that state, wherever the input space has one. The joker is not among the
//! states: a board holds one, so a guard on it would ask a position of its own for every line
//! and square. Beside an
//! empty square, whose the line is counts too (the second player's, or not): the empty square is the one a move fills, in a search or in a test of the move, and
//! a guarded check answers there for the line's owner only.
//!
//! Every guard of one square's state on one line is caught: "looked at only when the square
//! is `s`" fails where it is not, "skipped when it is `s`" fails where it is.

use crate::tictactoe::board::Board;

/// The states a square can be in: empty, the first player's, the second's.
const STATES: usize = 3;

/// Whose the line is on a position: the second player's, or not (the first player's, or
/// nobody's yet: a line that decides the answer through a move still to be made).
const OWNERS: usize = 2;

/// Whether line `l` is the second player's on `b` and not the first's (the joker counting
/// for both).
fn owner(b: Board, l: u16) -> usize {
    usize::from(l & !(b.o | b.t) == 0 && l & !(b.x | b.t) != 0)
}

/// The state of square `s` of `b`, not the joker's, by index into the [`STATES`].
fn state(b: Board, s: usize) -> usize {
    if b.x >> s & 1 == 1 {
        1
    } else if b.o >> s & 1 == 1 {
        2
    } else {
        0
    }
}

/// How many candidates of fewest stones, and of most, each element keeps: enough choice for
/// the greedy completion to find positions that bring many elements at once.
const KEEP: usize = 6;

/// Keeps `b` among `kept`: the first [`KEEP`] seen of fewest stones, then of most.
fn keep(kept: &mut Vec<Board>, b: Board) {
    if kept.len() < 2 * KEEP {
        kept.push(b);
        kept.sort_by_key(|c| c.ply());
        return;
    }
    // The middle one gives way to one with fewer stones than the fewest kept, or more than
    // the most.
    if b.ply() < kept[KEEP - 1].ply() {
        kept.remove(KEEP - 1);
    } else if b.ply() > kept[KEEP].ply() {
        kept.remove(KEEP);
    } else {
        return;
    }
    let at = kept.partition_point(|c| c.ply() <= b.ply());
    kept.insert(at, b);
}

/// The guard coverage of one problem as the input space is read: for each element (a line,
/// a square off it and a state, with the line's owner when the square is empty), the
/// fewest-stone and the most-stone positions seen that
/// hold it.
pub struct Guards {
    lines: Vec<u16>,
    squares: usize,
    /// By element: the candidates seen, the [`KEEP`] with the fewest stones then the [`KEEP`]
    /// with the most.
    best: Vec<Vec<Board>>,
}

impl Guards {
    /// An empty coverage over `lines` (masks) on a board of `squares` squares.
    pub fn new(lines: &[u16], squares: usize) -> Guards {
        let lines: Vec<u16> = lines.iter().take(64).copied().collect();
        let best = vec![Vec::new(); lines.len() * squares * STATES * OWNERS];
        Guards {
            lines,
            squares,
            best,
        }
    }

    fn element(&self, line: usize, s: usize, st: usize, owner: usize) -> usize {
        ((line * self.squares + s) * STATES + st) * OWNERS + owner
    }

    /// The elements `b` holds, when ignoring each line of `decided` (bits over the lines)
    /// answers `b` wrong.
    pub fn elements(&self, b: Board, decided: u64) -> Vec<usize> {
        self.held(b, decided).collect()
    }

    fn held(&self, b: Board, decided: u64) -> impl Iterator<Item = usize> + '_ {
        (0..self.lines.len())
            .filter(move |&i| decided >> i & 1 == 1)
            .flat_map(move |i| {
                let who = owner(b, self.lines[i]);
                (0..self.squares)
                    .filter(move |&s| self.lines[i] >> s & 1 == 0 && b.t >> s & 1 == 0)
                    .map(move |s| {
                        // Whose the line is matters beside an empty square only: the square
                        // a move may fill, in a search or a test of the move.
                        let st = state(b, s);
                        self.element(i, s, st, if st == 0 { who } else { 0 })
                    })
            })
    }

    /// Offers `b` as a candidate, ignoring each line of `decided` answering it wrong.
    pub fn offer(&mut self, b: Board, decided: u64) {
        if decided == 0 {
            return;
        }
        // The same elements as [`Guards::held`], taken in without collecting them.
        let all = if self.lines.len() >= 64 {
            u64::MAX
        } else {
            (1u64 << self.lines.len()) - 1
        };
        let mut left = decided & all;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            let line = self.lines[i];
            let who = owner(b, line);
            for s in (0..self.squares).filter(|&s| line >> s & 1 == 0 && b.t >> s & 1 == 0) {
                let st = state(b, s);
                let e = self.element(i, s, st, if st == 0 { who } else { 0 });
                keep(&mut self.best[e], b);
            }
        }
    }

    /// The candidates offered, each once, in input-space order of first offer.
    pub fn candidates(&self) -> Vec<Board> {
        let mut seen = hashbrown::HashSet::new();
        let mut out = Vec::new();
        for b in self.best.iter().flatten() {
            if seen.insert(*b) {
                out.push(*b);
            }
        }
        out.sort_by_key(|&b| (b.ply(), b));
        out
    }

    /// Adds to `boards` (a killer set), greedily, positions that bring every element some
    /// candidate holds (the caller leaves out those that later ones make redundant); `decided` tells which lines ignored answer a position
    /// wrong. Returns the elements held by the set and the feasible ones.
    pub fn complete(
        &self,
        boards: &mut Vec<Board>,
        mut decided: impl FnMut(Board) -> u64,
    ) -> (usize, usize) {
        let n = self.best.len();
        // How many positions of the set hold each element.
        let mut held = vec![0u32; n];
        for &b in boards.iter() {
            for e in self.held(b, decided(b)) {
                held[e] += 1;
            }
        }
        // The candidates with the elements each holds, checked by the same test.
        let pool: Vec<(Board, Vec<usize>)> = self
            .candidates()
            .into_iter()
            .map(|b| {
                let d = decided(b);
                (b, self.held(b, d).collect())
            })
            .collect();
        let mut feasible: Vec<bool> = held.iter().map(|&h| h > 0).collect();
        for (_, es) in &pool {
            for &e in es {
                feasible[e] = true;
            }
        }
        let mut taken = vec![false; pool.len()];
        let mut added = Vec::new();
        loop {
            let gain = |es: &[usize]| es.iter().filter(|&&e| held[e] == 0).count();
            let best = (0..pool.len())
                .filter(|&k| !taken[k])
                .max_by_key(|&k| (gain(&pool[k].1), std::cmp::Reverse(k)));
            let Some(k) = best.filter(|&k| gain(&pool[k].1) > 0) else {
                break;
            };
            taken[k] = true;
            for &e in &pool[k].1 {
                held[e] += 1;
            }
            added.push(k);
        }
        boards.extend(added.iter().map(|&k| pool[k].0));
        boards.sort_by_key(|&b| (b.ply(), b));
        let held = held.iter().filter(|&&h| h > 0).count();
        (held, feasible.iter().filter(|&&f| f).count())
    }
}
