//! The enumeration engine shared by every game in the crate.
//!
//! Both games add exactly one stone per move, so positions fall into layers by ply and a
//! breadth-first walk meets every position of ply `k + 1` while expanding ply `k`. Each layer
//! has a [`Memo`] that remembers the positions seen so far, so each is expanded once however
//! many move orders reach it. The memo is a trait: a perfect dense index where one exists
//! (the Tomek boards, see [`crate::tictactoe::rank`]), a hashbrown table keyed by a compact code
//! otherwise ([`HashMemo`], used for Connect Four).
//!
//! A position's status comes from the move that made it, never from an evaluator: the game
//! says, for each child, whether that move ended the game and how.
//!
//! A game can also name, for every position, one *first parent* among the positions it can be
//! reached from (for example: the one left by taking back the lowest-numbered stone that can be
//! taken back). Keeping only first-parent edges turns the graph into a tree that holds every
//! position exactly once, so [`explore_tree`] walks it with no memo at all. The memo walks and
//! the tree walk are two independent methods, and the tests hold them to the same counts.

use crate::outcome::{ByStatus, Status};
use rayon::prelude::*;
use std::hash::{BuildHasher, Hash};

/// A game seen as a graph of positions layered by ply.
pub trait Game: Sync {
    /// A position: small, `Copy`, and its own compact code.
    type Pos: Copy + Send + Sync;
    /// The starting position (ply 0), which is open.
    fn root(&self) -> Self::Pos;
    /// Calls `visit` with every position one move away from the open position `p`, and the
    /// status that move gives it.
    fn for_each_child(&self, p: Self::Pos, visit: impl FnMut(Self::Pos, Status));
    /// Like [`Game::for_each_child`], but only the children whose first parent is `p`.
    fn for_each_first_child(&self, p: Self::Pos, visit: impl FnMut(Self::Pos, Status));
}

/// The positions of one ply seen so far.
pub trait Memo<P>: Send {
    /// Records `p`, reached by a move that gave it `status`; true the first time.
    fn insert(&mut self, p: P, status: Status) -> bool;
    /// How many positions of each status it holds.
    fn counts(&self) -> ByStatus<u64>;
}

/// One finished layer: its ply, its memo, and the open positions to expand next.
pub struct Layer<'a, P, M> {
    /// The ply: stones on the board.
    pub ply: u32,
    /// Every position of the ply, with its status.
    pub memo: M,
    /// The open positions of the ply, in the order they were first met.
    pub open: &'a [P],
}

/// Walks every position reachable from the root, one ply at a time, on the calling thread.
/// `memo(ply)` makes the memo of a ply; `done` receives each layer once it is complete.
pub fn explore<G: Game, M: Memo<G::Pos>>(
    game: &G,
    mut memo: impl FnMut(u32) -> M,
    mut done: impl FnMut(Layer<'_, G::Pos, M>),
) {
    let root = game.root();
    let mut first = memo(0);
    first.insert(root, Status::Open);
    let mut frontier = vec![root];
    done(Layer {
        ply: 0,
        memo: first,
        open: &frontier,
    });
    let mut ply = 0;
    while !frontier.is_empty() {
        ply += 1;
        let mut seen = memo(ply);
        let mut next = Vec::with_capacity(frontier.len() * 2);
        for &p in &frontier {
            game.for_each_child(p, |q, status| {
                if seen.insert(q, status) && status == Status::Open {
                    next.push(q);
                }
            });
        }
        frontier = next;
        done(Layer {
            ply,
            memo: seen,
            open: &frontier,
        });
    }
}

/// A hashbrown memo: position → status.
pub struct HashMemo<P> {
    seen: hashbrown::HashMap<P, Status, FastHash>,
}

impl<P: Hash + Eq> HashMemo<P> {
    /// An empty memo.
    pub fn new() -> Self {
        HashMemo {
            seen: hashbrown::HashMap::with_hasher(FastHash),
        }
    }

    /// An empty memo with room for `n` positions.
    pub fn with_capacity(n: usize) -> Self {
        HashMemo {
            seen: hashbrown::HashMap::with_capacity_and_hasher(n, FastHash),
        }
    }

    /// The status recorded for `p`, if it was seen.
    pub fn get(&self, p: &P) -> Option<Status> {
        self.seen.get(p).copied()
    }

    /// How many positions it holds.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    /// Every position with its status, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&P, &Status)> {
        self.seen.iter()
    }
}

impl<P: Hash + Eq> Default for HashMemo<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: Hash + Eq + Send> Memo<P> for HashMemo<P> {
    #[inline]
    fn insert(&mut self, p: P, status: Status) -> bool {
        match self.seen.entry(p) {
            hashbrown::hash_map::Entry::Occupied(e) => {
                debug_assert_eq!(*e.get(), status, "a position got two statuses");
                false
            }
            hashbrown::hash_map::Entry::Vacant(e) => {
                e.insert(status);
                true
            }
        }
    }

    fn counts(&self) -> ByStatus<u64> {
        let mut c = ByStatus::default();
        for &s in self.seen.values() {
            c[s] += 1;
        }
        c
    }
}

/// A hasher for integer codes: one multiply by an odd constant and a rotate, which spreads
/// the low bits that hashbrown reads for its buckets and the top bits it uses as tags.
#[derive(Copy, Clone, Default, Debug)]
pub struct FastHash;

/// The state of [`FastHash`].
#[derive(Copy, Clone, Default, Debug)]
pub struct FastHasher(u64);

impl BuildHasher for FastHash {
    type Hasher = FastHasher;
    fn build_hasher(&self) -> FastHasher {
        FastHasher(0)
    }
}

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = mix(self.0 ^ v);
    }
    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64)
    }
}

/// A 64-bit mixer (multiply, xor-shift, multiply): every input bit reaches every output bit.
#[inline]
pub fn mix(mut v: u64) -> u64 {
    v = (v ^ (v >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    v = (v ^ (v >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    v ^ (v >> 32)
}

/// Children of one task, split by shard.
type Buckets<P> = Vec<Vec<(P, Status)>>;

/// Walks every position reachable from the root, one ply at a time, on all rayon threads.
///
/// Each ply's positions are split into `shards` by a hash of their code (`key`). A block of
/// the frontier is expanded in parallel into per-shard buckets, then every shard's memo takes
/// its bucket on its own thread, so no memo is ever shared. The order of the next frontier is
/// fixed by the shard order and the frontier order, never by thread timing, so the walk is
/// deterministic whatever the thread count. `done` receives each layer's memos (one per shard)
/// and its open positions; `stop_after` bounds the depth.
pub fn explore_sharded<G, M>(
    game: &G,
    shards: usize,
    stop_after: u32,
    key: impl Fn(&G::Pos) -> u64 + Sync,
    memo: impl Fn(u32, usize) -> M + Sync,
    mut done: impl FnMut(Layer<'_, G::Pos, Vec<M>>),
    mut progress: impl FnMut(u32, usize, usize),
) where
    G: Game,
    M: Memo<G::Pos>,
{
    const BLOCK: usize = 1 << 22;
    const TASK: usize = 1 << 14;
    let shard_of = |p: &G::Pos| (mix(key(p)) >> 32) as usize % shards;
    let root = game.root();
    let mut first: Vec<M> = (0..shards).map(|i| memo(0, i)).collect();
    first[shard_of(&root)].insert(root, Status::Open);
    let mut frontier = vec![root];
    done(Layer {
        ply: 0,
        memo: first,
        open: &frontier,
    });
    let mut ply = 0;
    while !frontier.is_empty() && ply < stop_after {
        ply += 1;
        let mut memos: Vec<(M, Vec<G::Pos>)> = (0..shards)
            .into_par_iter()
            .map(|i| (memo(ply, i), Vec::new()))
            .collect();
        for (b, block) in frontier.chunks(BLOCK).enumerate() {
            let buckets: Vec<Buckets<G::Pos>> = block
                .par_chunks(TASK)
                .map(|task| {
                    let mut out: Buckets<G::Pos> = vec![Vec::new(); shards];
                    for &p in task {
                        game.for_each_child(p, |q, s| out[shard_of(&q)].push((q, s)));
                    }
                    out
                })
                .collect();
            memos.par_iter_mut().enumerate().for_each(|(i, (m, open))| {
                for task in &buckets {
                    for &(q, s) in &task[i] {
                        if m.insert(q, s) && s == Status::Open {
                            open.push(q);
                        }
                    }
                }
            });
            progress(
                ply,
                (b * BLOCK + block.len()).min(frontier.len()),
                frontier.len(),
            );
        }
        let (memos, opens): (Vec<M>, Vec<Vec<G::Pos>>) = memos.into_iter().unzip();
        drop(frontier);
        frontier = opens.concat();
        done(Layer {
            ply,
            memo: memos,
            open: &frontier,
        });
    }
}

/// Walks every position reachable from the root along first-parent edges, on all rayon
/// threads, without a memo: each position is generated once, by its first parent.
///
/// `done(ply, counts, open, over)` receives each ply's count of positions by status, its open
/// positions (the next frontier, as a list of chunks) and the positions where the game is
/// over, all in a fixed order (the frontier's order, then the game's move order) whatever the
/// thread count. The deepest ply (`stop_after`) is only counted: its lists are empty.
pub fn explore_tree<G: Game>(
    game: &G,
    stop_after: u32,
    done: impl FnMut(u32, ByStatus<u64>, &[Vec<G::Pos>], &[(G::Pos, Status)]),
) {
    explore_tree_with(
        game,
        TreeWalk {
            stop_after,
            keep_over: true,
            weight: |_: &G::Pos| 1,
            progress: |_, _, _| {},
        },
        done,
    );
}

/// How [`explore_tree_with`] walks and what it reports.
pub struct TreeWalk<W, F> {
    /// The deepest ply, which is only counted.
    pub stop_after: u32,
    /// Whether to collect the positions where the game is over; a game with many of them (Connect
    /// Four's wins) saves their memory when only their number is wanted.
    pub keep_over: bool,
    /// How many positions one generated position stands for (2 for a representative of a
    /// position and its distinct mirror image, say); the counts are sums of weights.
    pub weight: W,
    /// Called as `progress(ply, expanded, frontier)` each time a batch of `expanded` frontier
    /// positions has been expanded, from any thread.
    pub progress: F,
}

/// [`explore_tree`] with weights, progress reports, and the choice not to keep the positions
/// where the game is over (`over` is then always empty).
pub fn explore_tree_with<G: Game>(
    game: &G,
    walk: TreeWalk<impl Fn(&G::Pos) -> u64 + Sync, impl Fn(u32, usize, usize) + Sync>,
    mut done: impl FnMut(u32, ByStatus<u64>, &[Vec<G::Pos>], &[(G::Pos, Status)]),
) {
    const TASK: usize = 1 << 13;
    type Part<P> = (ByStatus<u64>, Vec<P>, Vec<(P, Status)>);
    let TreeWalk {
        stop_after,
        keep_over,
        weight,
        progress,
    } = walk;
    let root = game.root();
    let mut frontier = vec![vec![root]];
    let counts = ByStatus {
        open: weight(&root),
        ..ByStatus::default()
    };
    done(0, counts, &frontier, &[]);
    let mut ply = 0;
    while frontier.iter().any(|c| !c.is_empty()) && ply < stop_after {
        ply += 1;
        let store = ply < stop_after;
        let total: usize = frontier.iter().map(Vec::len).sum();
        let parts: Vec<Part<G::Pos>> = frontier
            .par_iter()
            .flat_map(|chunk| chunk.par_chunks(TASK))
            .map(|task| {
                let mut part: Part<G::Pos> = (ByStatus::default(), Vec::new(), Vec::new());
                for &p in task {
                    game.for_each_first_child(p, |q, s| {
                        part.0[s] += weight(&q);
                        if !store {
                        } else if s == Status::Open {
                            part.1.push(q);
                        } else if keep_over {
                            part.2.push((q, s));
                        }
                    });
                }
                // Vectors grow by doubling; a deep frontier is big enough for the slack to
                // matter, and it is kept until the next ply is done.
                part.1.shrink_to_fit();
                progress(ply, task.len(), total);
                part
            })
            .collect();
        drop(frontier);
        let mut counts = ByStatus::default();
        let mut open = Vec::with_capacity(parts.len());
        let mut over = Vec::new();
        for (c, o, t) in parts {
            counts += c;
            open.push(o);
            over.extend_from_slice(&t);
        }
        done(ply, counts, &open, &over);
        frontier = open;
    }
}

/// Hands every position reachable from the root, with its ply and status, to `visit`, along
/// first-parent edges and keeping no position: the walk goes breadth first down to ply
/// `split`, then each block of positions there has their subtrees walked depth first by one
/// rayon task.
///
/// A depth-first walk holds only its path where the breadth-first walks hold whole
/// frontiers, so it runs out of the cache instead of streaming tens of megabytes through
/// memory, and thousands of subtrees let the threads share the work evenly however uneven the
/// subtrees are. Each task folds its positions into its own accumulator, made by `init` and
/// closed by `finish`; the accumulators come back in a fixed order (the positions above the
/// split first, then the tasks in frontier order), and within one each position comes in
/// depth-first order, so the result never depends on the thread count.
pub fn fold_tree<G: Game, T: Send>(
    game: &G,
    split: u32,
    init: impl Fn() -> T + Sync,
    visit: impl Fn(&mut T, u32, G::Pos, Status) + Sync,
    finish: impl Fn(&mut T) + Sync,
) -> Vec<T> {
    /// Subtrees per task: a few thousand tasks per game at the usual split.
    const TASK: usize = 64;
    let root = game.root();
    let mut top = init();
    visit(&mut top, 0, root, Status::Open);
    let mut frontier = vec![root];
    for ply in 1..=split {
        let mut next = Vec::with_capacity(frontier.len() * 4);
        for &p in &frontier {
            game.for_each_first_child(p, |q, s| {
                visit(&mut top, ply, q, s);
                if s == Status::Open {
                    next.push(q);
                }
            });
        }
        frontier = next;
    }
    finish(&mut top);
    let mut out = vec![top];
    let tasks: Vec<T> = frontier
        .par_chunks(TASK)
        .map(|task| {
            let mut acc = init();
            for &p in task {
                fold_below(game, p, split + 1, &mut acc, &visit);
            }
            finish(&mut acc);
            acc
        })
        .collect();
    out.extend(tasks);
    out
}

/// Visits the first children of the open position `p` (of ply `ply - 1`) and, depth first,
/// everything below them.
fn fold_below<G: Game, T>(
    game: &G,
    p: G::Pos,
    ply: u32,
    acc: &mut T,
    visit: &impl Fn(&mut T, u32, G::Pos, Status),
) {
    game.for_each_first_child(p, |q, s| {
        visit(acc, ply, q, s);
        if s == Status::Open {
            fold_below(game, q, ply + 1, acc, visit);
        }
    });
}

/// Counts the positions reachable from the root by ply and status (see [`fold_tree`]).
pub fn count_tree<G: Game>(game: &G, split: u32) -> Vec<ByStatus<u64>> {
    let parts = fold_tree(
        game,
        split,
        Vec::new,
        |c: &mut Vec<ByStatus<u64>>, ply, _, s| {
            let ply = ply as usize;
            if c.len() <= ply {
                c.resize(ply + 1, ByStatus::default());
            }
            c[ply][s] += 1;
        },
        |_| {},
    );
    let mut counts: Vec<ByStatus<u64>> = Vec::new();
    for part in &parts {
        if counts.len() < part.len() {
            counts.resize(part.len(), ByStatus::default());
        }
        for (row, &add) in counts.iter_mut().zip(part) {
            *row += add;
        }
    }
    counts
}
