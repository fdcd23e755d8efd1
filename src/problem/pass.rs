//! One pass over a problem's input space: every position once, with its facts.
//!
//! Reachable positions come setup by setup from the walk the Code Jam path uses
//! ([`SetupSpace`]: every game played once along first-parent edges, each ply filed in a
//! dense index of its own), and perfect play is found backwards over the same index, ply by ply
//! from the fullest, a byte a slot (see [`facts::value_code`]). Spaces of every grid count
//! their grids up in base 3, block by block, and look each one up in that index.
//!
//! The work comes in tasks (a range of one ply's slots, or a block of grids) in a fixed order,
//! shared by the threads; each task folds its positions into a value of the caller's, and the
//! values come back in task order, so what the caller makes of them never depends on the
//! thread count.

use super::facts::{
    self, Facts, Line, Next, Values, decode, forced_win_code, plain_facts, value_code,
};
use super::{InputSpace, Problem};
use crate::outcome::{Player, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::explain::Outcome;
use crate::tictactoe::rank::{colex_rank, expand, insert_bit};
use crate::tictactoe::reach::Checks;
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::space::SetupSpace;
use hashbrown::HashMap;
use rayon::prelude::*;

/// Words of a ply's reachability bitmap per task: 65,536 slots.
const WORDS_PER_TASK: usize = 1 << 10;

/// Free squares counted up within one block of grids: 3^10 = 59,049 grids a task.
const BLOCK_DIGITS: usize = 10;

/// Folds every position of `p`'s input space, with its facts, into values of type `T`: one
/// made by `init` for each task, `step` called on each position of the task. The values come
/// back in task order: setup by setup, then ply by ply and slot by slot (reachable spaces) or
/// grid by grid in base 3 (every grid, the order of [`Problem::for_each_grid`]).
pub fn fold<T: Send>(
    p: &Problem,
    init: impl Fn() -> T + Sync,
    step: impl Fn(&mut T, Board, &Facts) + Sync,
) -> Vec<T> {
    let per_setup: Vec<Vec<T>> = p
        .geometry
        .setups()
        .into_par_iter()
        .map(|t| {
            let s = Solved::new(p, t);
            match p.space {
                InputSpace::Reachable => s.fold_reachable(&init, &|acc: &mut T, b, f: &Facts| {
                    if s.kept(f) {
                        step(acc, b, f)
                    }
                }),
                InputSpace::EveryGrid => s.fold_grids(&init, &step),
            }
        })
        .collect();
    per_setup.into_iter().flatten().collect()
}

/// The input space summed up: each distinct set of facts its positions have, with how many
/// have it, in the order of [`Facts::pack`] (ply first).
#[derive(Debug)]
pub struct Census {
    /// Each set of facts and its positions.
    pub classes: Vec<(Facts, u64)>,
}

impl Census {
    /// How many positions the input space has.
    pub fn positions(&self) -> u64 {
        self.classes.iter().map(|c| c.1).sum()
    }
}

/// The input space of `p` by facts.
///
/// Reachable positions are met one by one (their facts read perfect play). A space of every
/// grid adds the grids play never reaches, whose facts need no search: every grid of a setup
/// is counted by its facts in a tight loop over the first player's stones and then the
/// second's (see [`grid_counts`]), and the reachable ones taken back out.
pub fn census(p: &Problem) -> Census {
    let every = p.space == InputSpace::EveryGrid;
    let per_setup: Vec<HashMap<u64, u64>> = p
        .geometry
        .setups()
        .into_par_iter()
        .map(|t| {
            // The grids are counted while the setup is walked: neither needs the other.
            let (s, grids) = rayon::join(
                || Solved::new(p, t),
                || every.then(|| grid_counts(&p.geometry, t)),
            );
            let parts = s.fold_reachable(
                &|| {
                    (
                        HashMap::new(),
                        vec![0u64; if every { PLAIN_KEYS } else { 0 }],
                    )
                },
                &|(seen, reached): &mut (HashMap<u64, u64>, Vec<u64>), _, f: &Facts| {
                    if s.kept(f) {
                        *seen.entry(f.pack()).or_insert(0) += 1;
                    }
                    if every {
                        reached[plain_key(f)] += 1;
                    }
                },
            );
            let mut seen = HashMap::new();
            let mut unreached = grids.unwrap_or_default();
            for (part, reached) in parts {
                for (k, n) in part {
                    *seen.entry(k).or_insert(0) += n;
                }
                for (u, r) in unreached.iter_mut().zip(reached) {
                    *u -= r;
                }
            }
            for (key, &n) in unreached.iter().enumerate() {
                let f = plain_facts_of(key);
                if n > 0 && s.kept(&f) {
                    *seen.entry(f.pack()).or_insert(0) += n;
                }
            }
            seen
        })
        .collect();
    let mut all: HashMap<u64, u64> = HashMap::new();
    for m in per_setup {
        for (k, n) in m {
            *all.entry(k).or_insert(0) += n;
        }
    }
    let mut keys: Vec<(u64, u64)> = all.into_iter().collect();
    keys.sort_unstable();
    Census {
        classes: keys
            .into_iter()
            .map(|(k, n)| (Facts::unpack(k), n))
            .collect(),
    }
}

/// A table of perfect play ([`Values`]) holding every open reachable position of `p`'s board,
/// with its distance to the end, from the pass's backward values: for passes that judge
/// position after position.
pub fn values_table(p: &Problem) -> Values {
    values_table_with(p, true)
}

/// [`values_table`] on another board of the same squares (`g`: the problem's board with
/// some lines left out, as a wrong solution that never checks them plays), with the distance
/// to the end only where `p` reads it.
pub fn values_table_on(p: &Problem, g: Geometry) -> Values {
    let mut sub = p.clone();
    sub.geometry = std::sync::Arc::new(g);
    sub.reach = Default::default();
    sub.census = Default::default();
    let mut table = values_table_with(&sub, p.needs_distance());
    table.want_distance = p.needs_distance();
    table
}

fn values_table_with(p: &Problem, distance: bool) -> Values {
    let mut table = p.values();
    table.want_distance = true;
    let g = &*p.geometry;
    let per_setup: Vec<Vec<(u64, u8)>> = g
        .setups()
        .into_par_iter()
        .map(|t| {
            let s = Solved::with(p, t, distance);
            let parts = s.fold_reachable(&Vec::new, &|v: &mut Vec<(u64, u8)>, b, f: &Facts| {
                if !f.over {
                    let (ply, slot) = s.slot_of(b).expect("a reachable board");
                    v.push((facts::grid_index(g, b), s.codes[ply][slot]));
                }
            });
            parts.concat()
        })
        .collect();
    for (i, code) in per_setup.into_iter().flatten() {
        table.record(i, code);
    }
    table
}

/// How many keys [`plain_key`] has.
const PLAIN_KEYS: usize = 1 << 11;

/// The facts that need no search, as a small number: who has a line, whether the board is
/// full, who moves next, whether the side to move wins at once, and the ply.
#[inline]
fn plain_key(f: &Facts) -> usize {
    f.line as usize
        | usize::from(f.full) << 2
        | (f.next as usize) << 3
        | usize::from(f.wins_now) << 5
        | (f.ply as usize) << 6
}

/// The facts of an unreachable grid with the [`plain_key`] `key`.
fn plain_facts_of(key: usize) -> Facts {
    let line = Line::WORDS[key & 3].1;
    let full = key >> 2 & 1 == 1;
    Facts {
        reachable: false,
        line,
        full,
        next: Next::WORDS[(key >> 3 & 3).min(2)].1,
        over: line != Line::None || full,
        wins_now: key >> 5 & 1 == 1,
        ply: (key >> 6) as u32,
        value: None,
        winner: None,
        forced_win: None,
        distance: None,
    }
}

/// Every grid of the setup `t` of `g` counted by [`plain_key`]: for each set of the first
/// player's stones (the threads sharing them), each set of the second's among the squares
/// left, the facts from a few table look-ups. The same facts [`plain_facts`] gives, with the
/// joker counting for both players.
fn grid_counts(g: &Geometry, t: u16) -> Vec<u64> {
    let free = g.full() & !t;
    let firsts: Vec<u16> = (0..=u16::MAX).filter(|&x| x & !free == 0).collect();
    firsts
        .par_chunks(1 << 8)
        .map(|xs| {
            let mut counts = vec![0u64; PLAIN_KEYS];
            for &x in xs {
                let (mx, nx) = (x | t, x.count_ones());
                let x_line = usize::from(g.has_line(mx));
                let rest = free & !x;
                let mut o = 0u16;
                loop {
                    let (mo, no) = (o | t, o.count_ones());
                    let line = x_line | usize::from(g.has_line(mo)) << 1;
                    let filled = x | o | t;
                    let full = filled == g.full();
                    let next = match nx.wrapping_sub(no) {
                        0 => 0,
                        1 => 1,
                        _ => 2,
                    };
                    let wins_now = line == 0
                        && !full
                        && next != 2
                        && g.completing(if next == 0 { mx } else { mo }) & !filled & g.full() != 0;
                    counts[line
                        | usize::from(full) << 2
                        | next << 3
                        | usize::from(wins_now) << 5
                        | ((nx + no) as usize) << 6] += 1;
                    if o == rest {
                        break;
                    }
                    o = o.wrapping_sub(rest) & rest;
                }
            }
            counts
        })
        .reduce(
            || vec![0u64; PLAIN_KEYS],
            |mut a, b| {
                for (a, b) in a.iter_mut().zip(b) {
                    *a += b;
                }
                a
            },
        )
}

/// One setup's reachable positions and, when the problem reads perfect play, a byte of it for
/// every open slot of every ply.
struct Solved<'p> {
    problem: &'p Problem,
    t: u16,
    space: SetupSpace,
    codes: Vec<Vec<u8>>,
    values: bool,
    distance: bool,
    forced_win: bool,
    /// Whether the problem's filter requires nothing (asked once: it is a comparison of
    /// every condition).
    unfiltered: bool,
}

impl<'p> Solved<'p> {
    /// Walks the setup `t`, then values its open positions backwards when `p` reads perfect
    /// play: each ply's slots shared between the threads, the ply above already written.
    fn new(p: &'p Problem, t: u16) -> Solved<'p> {
        Solved::with(p, t, p.needs_distance())
    }

    /// [`Solved::new`], with the distance to the end found (every move of a won position
    /// searched) whether the problem reads it or not when `distance`.
    fn with(p: &'p Problem, t: u16, distance: bool) -> Solved<'p> {
        let g = &*p.geometry;
        let space = SetupSpace::explore(g, t);
        let values = p.needs_values();
        let mut codes: Vec<Vec<u8>> = vec![Vec::new(); space.plies.len()];
        if values {
            for ply in (0..space.plies.len()).rev() {
                let memo = &space.plies[ply];
                if space.counts[ply].open == 0 {
                    continue;
                }
                let next = &codes[ply + 1];
                let next_index = space.plies[ply + 1].index;
                let mover = mover_at(ply);
                let mut here = vec![0u8; memo.index.len()];
                here.par_chunks_mut(WORDS_PER_TASK * 64)
                    .enumerate()
                    .for_each(|(k, out)| {
                        let first = k * WORDS_PER_TASK;
                        let words = first..(first + WORDS_PER_TASK).min(memo.words());
                        let mut decoder = memo.index.decoder();
                        // A child's slot from its parent's parts, as the Code Jam path's
                        // values find it: the taken squares' first slot worked out once per
                        // run of slots sharing them, the X pattern gaining one bit.
                        let (mut below, mut base) = ([0u32; 16], [0usize; 16]);
                        let mut last_taken = None;
                        let x_bit = u32::from(mover == Player::X);
                        for (slot, s) in memo.slots_in(words) {
                            if s != Status::Open {
                                continue;
                            }
                            let (taken, pattern) = decoder.parts(slot);
                            if last_taken != Some(taken) {
                                last_taken = Some(taken);
                                next_index.child_bases(taken, &mut below, &mut base);
                            }
                            let x = expand(pattern, taken);
                            let b = Board {
                                x,
                                o: taken & !x,
                                t,
                            };
                            let p = u32::from(pattern);
                            out[slot - first * 64] = value_code(g, b, mover, distance, |sq| {
                                let sq = sq as usize;
                                next[base[sq]
                                    + colex_rank(insert_bit(p, below[sq], x_bit) as u16) as usize]
                            });
                        }
                    });
                codes[ply] = here;
            }
        }
        Solved {
            problem: p,
            t,
            space,
            codes,
            values,
            distance,
            forced_win: p.needs_forced_win(),
            unfiltered: p.filter.is_empty(),
        }
    }

    /// The facts of the reachable board `b`, in `slot` of `ply`.
    #[inline]
    fn facts(&self, b: Board, ply: usize, slot: usize) -> Facts {
        let g = &*self.problem.geometry;
        let mut f = plain_facts(g, b, Checks::ALL, true);
        if self.values {
            if f.over {
                f.set_result(self.distance);
            } else {
                let (v, d) = decode(self.codes[ply][slot]);
                let forced_win = (v == Outcome::Win && self.forced_win)
                    .then(|| {
                        let (next, index) = (&self.codes[ply + 1], self.space.plies[ply + 1].index);
                        let mover = mover_at(ply);
                        forced_win_code(g, b, mover, |sq| next[index.slot(b.with(mover, sq))])
                    })
                    .flatten();
                f.set_value(v, d.filter(|_| self.distance), forced_win);
            }
        }
        f
    }

    /// Whether a position with these facts passes the problem's minimum ply and filter.
    #[inline]
    fn kept(&self, f: &Facts) -> bool {
        let p = self.problem;
        f.ply >= p.min_ply && (self.unfiltered || p.filter.hold(f))
    }

    /// The reachable positions, a task per range of a ply's slots, whether the filter keeps
    /// them or not.
    fn fold_reachable<T: Send>(
        &self,
        init: &(impl Fn() -> T + Sync),
        step: &(impl Fn(&mut T, Board, &Facts) + Sync),
    ) -> Vec<T> {
        let tasks: Vec<(usize, std::ops::Range<usize>)> = self
            .space
            .plies
            .iter()
            .enumerate()
            .flat_map(|(ply, memo)| {
                (0..memo.words())
                    .step_by(WORDS_PER_TASK)
                    .map(move |w| (ply, w..(w + WORDS_PER_TASK).min(memo.words())))
            })
            .collect();
        tasks
            .into_par_iter()
            .map(|(ply, words)| {
                let memo = &self.space.plies[ply];
                let mut decoder = memo.index.decoder();
                let mut acc = init();
                for (slot, _) in memo.slots_in(words) {
                    let b = decoder.board(slot, self.t);
                    step(&mut acc, b, &self.facts(b, ply, slot));
                }
                acc
            })
            .collect()
    }

    /// Every grid of the setup, a task per block of grids sharing their last free squares.
    fn fold_grids<T: Send>(
        &self,
        init: &(impl Fn() -> T + Sync),
        step: &(impl Fn(&mut T, Board, &Facts) + Sync),
    ) -> Vec<T> {
        let g = &*self.problem.geometry;
        let free = free_squares(g.full(), self.t);
        let low = free.len().min(BLOCK_DIGITS);
        let blocks = 3u64.pow((free.len() - low) as u32);
        (0..blocks)
            .into_par_iter()
            .map(|k| {
                let mut start = Board::empty(self.t);
                let mut rest = k;
                for &bit in &free[low..] {
                    match rest % 3 {
                        1 => start.x |= bit,
                        2 => start.o |= bit,
                        _ => {}
                    }
                    rest /= 3;
                }
                let mut acc = init();
                count_up(start, &free[..low], |b| {
                    let f = match self.slot_of(b) {
                        Some((ply, slot)) => self.facts(b, ply, slot),
                        None => plain_facts(g, b, Checks::ALL, false),
                    };
                    if self.kept(&f) {
                        step(&mut acc, b, &f);
                    }
                });
                acc
            })
            .collect()
    }

    /// The ply and slot of `b` when play reaches it.
    #[inline]
    fn slot_of(&self, b: Board) -> Option<(usize, usize)> {
        let (x, o) = (b.x.count_ones(), b.o.count_ones());
        if x != o && x != o + 1 {
            return None;
        }
        let ply = (x + o) as usize;
        let memo = self.space.plies.get(ply)?;
        let slot = memo.index.slot(b);
        memo.at(slot).map(|_| (ply, slot))
    }
}

/// Who moves at `ply`: the first player on even plies.
#[inline]
fn mover_at(ply: usize) -> Player {
    if ply.is_multiple_of(2) {
        Player::X
    } else {
        Player::O
    }
}

/// The squares of `full` outside the joker's `t`, one bit each, from the first.
pub(crate) fn free_squares(full: u16, t: u16) -> Vec<u16> {
    (0..16)
        .map(|s| 1u16 << s)
        .filter(|&bit| full & bit != 0 && t & bit == 0)
        .collect()
}

/// Calls `f` on `start` with every filling of `squares` (empty, first player, second player),
/// counted up in base 3 with the first square the lowest digit: one square changes at a time,
/// as an odometer turns.
pub(crate) fn count_up(start: Board, squares: &[u16], mut f: impl FnMut(Board)) {
    let mut digits = vec![0u8; squares.len()];
    let mut b = start;
    loop {
        f(b);
        let mut k = 0;
        loop {
            let Some(&bit) = squares.get(k) else {
                return;
            };
            match digits[k] {
                0 => {
                    digits[k] = 1;
                    b.x |= bit;
                    break;
                }
                1 => {
                    digits[k] = 2;
                    b.x &= !bit;
                    b.o |= bit;
                    break;
                }
                _ => {
                    digits[k] = 0;
                    b.o &= !bit;
                    k += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pass meets every position of the input space once, with the facts the
    /// position-by-position path gives it: on each small built-in, every position compared.
    #[test]
    fn the_pass_gives_each_position_the_facts_of_the_slow_path() {
        for name in ["cf3c", "toe2", "perfect-play", "ccc-hk-2008-j4"] {
            let p = Problem::builtin(name).unwrap();
            let seen: Vec<(Board, Facts)> = fold(&p, Vec::new, |v, b, f| v.push((b, *f)))
                .into_iter()
                .flatten()
                .collect();
            let mut values = p.values();
            let mut slow = Vec::new();
            p.for_each_position(|b| slow.push(b));
            assert_eq!(seen.len(), slow.len(), "{name}: positions");
            let mut by_board: hashbrown::HashMap<Board, Facts> = seen.into_iter().collect();
            for b in slow {
                let f = by_board
                    .remove(&b)
                    .unwrap_or_else(|| panic!("{name}: {b:?} missed"));
                assert_eq!(f, p.facts(b, &mut values), "{name}: {b:?}");
            }
        }
    }

    /// The census, by its two methods for unreachable grids, equals the positions met one by
    /// one and counted by their facts: on every built-in but Tomek's (whose 61 million
    /// positions the deep tests take), and on descriptions with a filter and a minimum ply.
    #[test]
    fn the_census_counts_what_the_pass_meets() {
        let mut problems: Vec<Problem> = ["cf3c", "toe1", "toe2", "perfect-play", "ccc-hk-2008-j4"]
            .iter()
            .map(|n| Problem::builtin(n).unwrap())
            .collect();
        for (space, filter) in [
            (
                "every-grid",
                "where = { next = \"first\", over = false }\nmin_ply = 2",
            ),
            ("reachable", "where = { winner = \"first\" }\nmin_ply = 3"),
        ] {
            let text = Problem::builtin("cf3c").unwrap().text.replace(
                "space = \"every-grid\"",
                &format!("space = \"{space}\"\n{filter}"),
            );
            problems.push(super::super::description::parse("filtered.toml", &text).unwrap());
        }
        for p in &problems {
            let mut by_facts: HashMap<u64, u64> = HashMap::new();
            for part in fold(p, Vec::new, |v, _, f| v.push(f.pack())) {
                for k in part {
                    *by_facts.entry(k).or_insert(0) += 1;
                }
            }
            let mut want: Vec<(u64, u64)> = by_facts.into_iter().collect();
            want.sort_unstable();
            let got: Vec<(u64, u64)> = census(p)
                .classes
                .iter()
                .map(|(f, n)| (f.pack(), *n))
                .collect();
            assert_eq!(got, want, "{}", p.name);
            for (k, _) in &want {
                assert_eq!(Facts::unpack(*k).pack(), *k);
            }
        }
    }

    /// A copy of a built-in with other answer words is not checked again (its census is never
    /// made), where a change to a rule's conditions is.
    #[test]
    fn only_descriptions_asking_something_new_are_checked() {
        let tomek = Problem::tomek().text;
        let tie = Problem::from_text("tie.toml", &tomek.replace("\"Draw\"", "\"Tie\"")).unwrap();
        assert!(tie.census.get().is_none());
        let cf3c = Problem::builtin("cf3c").unwrap().text;
        let first = cf3c.find("[[verdict]]").unwrap();
        let mut moved = cf3c[..first].to_string();
        // The rules' order is part of their conditions: the last rule first.
        let last = cf3c.rfind("[[verdict]]").unwrap();
        moved.push_str(&cf3c[last..]);
        moved.push('\n');
        moved.push_str(&cf3c[first..last]);
        match Problem::from_text("moved.toml", &moved) {
            Ok(p) => assert!(p.census.get().is_some()),
            Err(e) => assert!(e.to_string().contains("moved.toml"), "{e}"),
        }
    }

    /// Counting up meets every filling once, in base-3 order.
    #[test]
    fn counting_up_is_base_three() {
        let squares = [1u16, 4, 8];
        let mut codes = Vec::new();
        count_up(Board::empty(0), &squares, |b| {
            let digit = |bit: u16| u32::from(b.x & bit != 0) + 2 * u32::from(b.o & bit != 0);
            codes.push(digit(1) + 3 * digit(4) + 9 * digit(8));
        });
        assert_eq!(codes, (0..27).collect::<Vec<_>>());
    }
}
