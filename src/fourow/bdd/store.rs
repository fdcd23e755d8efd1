//! A compact store of reduced ordered binary decision diagrams, written for the one job of
//! counting Connect Four positions ply by ply, and shared by every core while an operation
//! runs.
//!
//! Nodes live in one flat array. A new node takes the next index from one atomic counter, and
//! only after its children exist, so a node's children are always older than the node itself:
//! the array is in topological order, which lets garbage collection ([`Store::compact`]) and
//! model counting ([`Store::count`]) be single linear sweeps with no stack. The unique table
//! chains nodes through a `next` field; a node is published by a compare-and-swap on its
//! bucket, so two threads making the same node agree on one (the loser's slot is garbage until
//! the next collection). Results of operations are remembered in a lossy, direct-mapped
//! computed cache, forgotten at every collection.
//!
//! Operations ([`Store::or`], [`Store::and`], [`Store::diff`] and callers' own) take `&Store`
//! and split their two branches across threads near the top of the order. The arrays cannot
//! move while they run, so they are sized in between, by [`Store::run`]: it makes room before
//! the operation and, when the room ran out, grows the arrays and runs the operation again,
//! which then finds most of its work in the cache and the unique table.
//!
//! There are no complement edges: the sets handled here are never negated, and plain edges
//! keep counting simple. Every size is checked against a memory budget; when an operation
//! needs more, [`Store::run`] returns a meaningless result and [`Store::overflowed`] says so,
//! so that the caller can stop cleanly.

use crate::fourow::pages::{large_pages, table};
use rayon::prelude::*;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};

/// A node's index in the store. `FALSE` and `TRUE` are the two terminals.
pub type Ref = u32;

/// The empty set.
pub const FALSE: Ref = 0;
/// The set of every assignment of the remaining variables.
pub const TRUE: Ref = 1;

/// Cache entries per bucket of the unique table: operations on diagrams of a few million
/// nodes visit many more pairs of nodes than there are nodes, and a missed pair is computed
/// again. Larger caches were measured to be slower: clearing them costs more than they save.
const CACHE_RATIO: usize = 2;
/// The smallest cache kept after a collection (1 MiB).
const MIN_CACHE: usize = 1 << 16;
/// The smallest unique table and node array.
const MIN_TABLE: usize = 1 << 12;
/// Below this many nodes an operation runs on one thread: each fork hands a job to another
/// thread and waits on it, which costs more than the walk of a small diagram saves.
const PARALLEL_NODES: usize = 1 << 16;

/// Marks the end of a chain.
const NIL: u32 = u32::MAX;

#[derive(Copy, Clone, Debug)]
#[repr(C)]
struct Node {
    level: u32,
    lo: Ref,
    hi: Ref,
    next: u32,
}

/// The node array: one allocation that does not move while an operation runs, filled from
/// index `len` on by any thread.
struct Nodes {
    ptr: NonNull<Node>,
    cap: usize,
    len: AtomicUsize,
    /// Slots that may be taken: at most `cap`, and what the budget leaves to nodes.
    room: usize,
    /// The most slots written since the array last shrank: the system backs the array's pages
    /// once written, and keeps them after a collection lowers `len`, so this, not `len`, is
    /// what the nodes cost in memory.
    high: usize,
}

// SAFETY: a slot is written only by the thread that took its index from `len`, before the node
// is published through a bucket (release) or returned to the caller; every other thread reaches
// it after that, through an acquire load or a join. Published nodes are never written again.
unsafe impl Send for Nodes {}
// SAFETY: as for `Send`.
unsafe impl Sync for Nodes {}

impl Nodes {
    fn layout(cap: usize) -> std::alloc::Layout {
        std::alloc::Layout::array::<Node>(cap).expect("node array size")
    }

    fn with_capacity(cap: usize) -> Nodes {
        let layout = Self::layout(cap);
        // SAFETY: the layout has a non-zero size (`cap` is at least `MIN_TABLE`).
        let ptr = unsafe { std::alloc::alloc(layout) } as *mut Node;
        let ptr = NonNull::new(ptr).unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
        large_pages(ptr.as_ptr(), cap);
        Nodes {
            ptr,
            cap,
            len: AtomicUsize::new(0),
            room: cap,
            high: 0,
        }
    }

    /// Moves the nodes to an allocation of `cap` slots (at least `len`); `false` when the
    /// system refuses.
    fn resize(&mut self, cap: usize) -> bool {
        debug_assert!(cap >= self.len());
        let new = Self::layout(cap);
        // SAFETY: `ptr` was allocated with the layout of `self.cap` slots, and the new size is
        // non-zero.
        let ptr = unsafe {
            std::alloc::realloc(
                self.ptr.as_ptr() as *mut u8,
                Self::layout(self.cap),
                new.size(),
            )
        } as *mut Node;
        let Some(ptr) = NonNull::new(ptr) else {
            return false;
        };
        large_pages(ptr.as_ptr(), cap);
        self.ptr = ptr;
        self.cap = cap;
        self.room = self.room.min(cap);
        self.high = self.high.min(cap);
        true
    }

    fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    #[inline]
    fn get(&self, i: u32) -> Node {
        debug_assert!((i as usize) < self.cap);
        // SAFETY: every index handed out is below `cap` and its slot was written before the
        // index became known to anyone (see `Sync`).
        unsafe { self.ptr.as_ptr().add(i as usize).read() }
    }

    #[inline]
    fn set(&self, i: u32, node: Node) {
        debug_assert!((i as usize) < self.cap);
        // SAFETY: `i` is below `cap` and owned by the caller: taken from `len` and not yet
        // published, or the store is borrowed mutably.
        unsafe { self.ptr.as_ptr().add(i as usize).write(node) }
    }

    /// Takes the next free slot, or `None` when the array is full.
    #[inline]
    fn take(&self) -> Option<u32> {
        let i = self.len.fetch_add(1, Ordering::Relaxed);
        (i < self.room && i < NIL as usize).then_some(i as u32)
    }
}

impl Drop for Nodes {
    fn drop(&mut self) {
        // SAFETY: allocated with this layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, Self::layout(self.cap)) }
    }
}

/// One remembered result: `key` holds the two operands, `value` the answer, the operation
/// and the epoch it was computed in.
///
/// A writer holds the entry by swapping `LOCKED` into `key` and releases it with the new key; a
/// reader takes `value` only if `key` read the same before and after it. Collections renumber
/// the nodes, which makes every entry wrong: rather than clearing gigabytes, the store starts a
/// new epoch, and entries of older ones no longer match. All zeros is epoch 0, never used, so
/// a fresh table needs no filling.
struct Entry {
    key: AtomicU64,
    value: AtomicU64,
}

const LOCKED: u64 = u64::MAX;
/// Operation codes take the low 12 bits of an entry's tag, epochs the top 20.
const OP_BITS: u32 = 12;
const EPOCHS: u32 = 1 << (32 - OP_BITS);

/// A cache of `len` empty entries, left for the system to zero on first touch.
fn empty_cache(len: usize) -> Vec<Entry> {
    // SAFETY: all-zero bytes are a valid `Entry` (two atomic integers).
    unsafe { crate::fourow::pages::zeroed(len) }
}

/// Operation codes for the computed cache; callers outside this module use codes from
/// [`Store::USER_OPS`] on.
const OP_OR: u32 = 0;
const OP_AND: u32 = 1;
const OP_DIFF: u32 = 2;

#[inline]
fn hash3(a: u32, b: u32, c: u32) -> u64 {
    let x = (u64::from(a) << 32 | u64::from(b)) ^ u64::from(c).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 29)
}

/// A store of decision diagrams over `levels` variables (level 0 is tested first).
pub struct Store {
    levels: u32,
    nodes: Nodes,
    buckets: Vec<AtomicU32>,
    cache: Vec<Entry>,
    limit: usize,
    /// The nodes ran out of room during the current operation.
    full: AtomicBool,
    /// The budget is spent: set by [`Store::run`] when the room cannot grow.
    overflow: bool,
    peak: usize,
    /// Operations split their branches across threads at the levels from `fork_from` up to
    /// (not including) `fork`.
    fork_from: u32,
    fork: u32,
    /// Whether the current operation is large enough to share out ([`PARALLEL_NODES`]).
    parallel: bool,
    /// The cache's epoch: entries of other epochs are stale.
    epoch: u32,
}

impl Store {
    /// The first operation code free for callers' own cached operations.
    pub const USER_OPS: u32 = 16;
    /// Operation codes are below this.
    pub const OPS: u32 = 1 << OP_BITS;

    /// An empty store over `levels` variables that never uses more than `limit` bytes for its
    /// nodes, unique table and cache.
    pub fn new(levels: u32, limit: usize) -> Store {
        let nodes = Nodes::with_capacity(MIN_TABLE);
        for i in 0..2 {
            nodes.set(
                i,
                Node {
                    level: levels,
                    lo: NIL,
                    hi: NIL,
                    next: NIL,
                },
            );
        }
        nodes.len.store(2, Ordering::Relaxed);
        let mut s = Store {
            levels,
            nodes,
            buckets: table(MIN_TABLE, || AtomicU32::new(NIL)),
            cache: empty_cache(MIN_TABLE),
            limit,
            full: AtomicBool::new(false),
            overflow: false,
            peak: 0,
            fork_from: 0,
            fork: levels / 4,
            parallel: false,
            epoch: 1,
        };
        s.note_peak();
        s
    }

    /// The number of variables.
    pub fn levels(&self) -> u32 {
        self.levels
    }

    /// Nodes in the store, the two terminals included.
    pub fn len(&self) -> usize {
        self.nodes.len().min(self.nodes.room)
    }

    /// Whether the store holds the terminals only.
    pub fn is_empty(&self) -> bool {
        self.len() == 2
    }

    /// Whether an operation wanted more memory than the budget since the last
    /// [`Store::compact`].
    pub fn overflowed(&self) -> bool {
        self.overflow
    }

    /// Whether operations split their work across threads at `level`.
    #[inline]
    pub fn forks_at(&self, level: u32) -> bool {
        self.parallel && (self.fork_from..self.fork).contains(&level)
    }

    /// Moves the levels where operations fork to start at `level`, for sets whose variables
    /// above it are fixed: a node there has one live branch, so a fork at it only waits on an
    /// empty half and the work would run on one thread.
    pub fn fork_from(&mut self, level: u32) {
        let span = self.levels / 4;
        self.fork_from = level.min(self.levels);
        self.fork = (self.fork_from + span).min(self.levels);
    }

    /// Bytes the store holds now: the node slots written (live or garbage), the unique table
    /// and the cache. (The node array reserves address space beyond them; the system backs it
    /// only once written.)
    pub fn bytes(&self) -> usize {
        Self::cost(
            self.len().max(self.nodes.high),
            self.buckets.len(),
            self.cache.len(),
        )
    }

    fn cost(nodes: usize, buckets: usize, cache: usize) -> usize {
        nodes * std::mem::size_of::<Node>()
            + buckets * std::mem::size_of::<AtomicU32>()
            + cache * std::mem::size_of::<Entry>()
    }

    /// The most bytes the store ever held.
    pub fn peak_bytes(&self) -> usize {
        self.peak
    }

    /// Starts measuring [`Store::peak_bytes`] again from now.
    pub fn reset_peak(&mut self) {
        self.peak = self.bytes();
    }

    fn note_peak(&mut self) {
        self.peak = self.peak.max(self.bytes());
    }

    /// The level of `r` (`levels` for a terminal).
    #[inline]
    pub fn level(&self, r: Ref) -> u32 {
        self.nodes.get(r).level
    }

    /// The two cofactors of `r` with respect to the variable at `level`, which must not lie
    /// below `r`'s own level: a node that skips `level` does not depend on it.
    #[inline]
    pub fn split(&self, r: Ref, level: u32) -> (Ref, Ref) {
        let n = self.nodes.get(r);
        if n.level == level {
            (n.lo, n.hi)
        } else {
            (r, r)
        }
    }

    /// Runs `op`, an operation on the store's diagrams that is expected to make about `room`
    /// new nodes, and returns its result. The unique table and the cache are sized for that
    /// beforehand, since they cannot grow while threads use them. When the node array fills
    /// up anyway, the store makes more room and runs `op` again (which then finds much of its
    /// work done in the unique table); when the budget is spent, the result is meaningless and
    /// [`Store::overflowed`] is set.
    pub fn run(&mut self, room: usize, op: impl Fn(&Store) -> Ref + Sync) -> Ref {
        let mut room = room;
        loop {
            if self.overflow || !self.make_room(self.len() + room) {
                self.overflow = true;
                return FALSE;
            }
            self.parallel = self.len() + room >= PARALLEL_NODES;
            let r = op(self);
            let len = self.len();
            self.nodes.len.store(len, Ordering::Relaxed);
            self.nodes.high = self.nodes.high.max(len);
            self.note_peak();
            if !self.full.swap(false, Ordering::Relaxed) {
                return r;
            }
            // Out of room: twice as much, or at least a sixteenth more, or give up.
            room = room.max(len) * 2;
            if !self.make_room(len + room) || self.nodes.room < len + len / 16 {
                self.overflow = true;
                return FALSE;
            }
        }
    }

    /// Sizes the unique table and the cache for `expected` nodes (never smaller than they are)
    /// and lets the node array hold twice that, as far as the budget allows: the cache is
    /// halved, then the unique table, until at least the nodes of now and some more fit.
    /// `false` when they do not.
    fn make_room(&mut self, expected: usize) -> bool {
        let len = self.len();
        let least = len + 1024;
        let expected = expected.max(least);
        let mut buckets = expected
            .next_power_of_two()
            .max(self.buckets.len())
            .max(MIN_TABLE);
        let mut cache = (buckets * CACHE_RATIO).max(self.cache.len()).max(MIN_CACHE);
        let node_size = std::mem::size_of::<Node>();
        let room =
            |buckets, cache| self.limit.saturating_sub(Self::cost(0, buckets, cache)) / node_size;
        while room(buckets, cache) < expected && cache > MIN_TABLE {
            cache /= 2;
        }
        while room(buckets, cache) < least && buckets > MIN_TABLE && buckets / 2 >= len / 2 {
            buckets /= 2;
        }
        let room = room(buckets, cache).min(2 * expected);
        if room < least {
            return false;
        }
        if room > self.nodes.cap && !self.nodes.resize(room) {
            return false;
        }
        self.nodes.room = room;
        if buckets != self.buckets.len() {
            self.rehash(buckets);
        }
        if cache != self.cache.len() {
            self.cache = Vec::new();
            self.cache = empty_cache(cache);
        }
        self.note_peak();
        true
    }

    fn rehash(&mut self, size: usize) {
        let len = self.len();
        let parallel = len >= PARALLEL_NODES;
        if size == self.buckets.len() {
            if parallel {
                self.buckets.par_iter_mut().for_each(|b| *b.get_mut() = NIL);
            } else {
                for b in &mut self.buckets {
                    *b.get_mut() = NIL;
                }
            }
        } else {
            self.buckets = Vec::new();
            self.buckets = table(size, || AtomicU32::new(NIL));
        }
        let mask = size - 1;
        if !parallel {
            for i in 2..len as u32 {
                let mut n = self.nodes.get(i);
                let slot = hash3(n.level, n.lo, n.hi) as usize & mask;
                let head = self.buckets[slot].get_mut();
                n.next = *head;
                *head = i;
                self.nodes.set(i, n);
            }
            return;
        }
        // Every core links its share of the nodes into the chains, each push a
        // compare-and-swap on the chain's head; the nodes are all different, so none is
        // looked for. The shares are blocks of nodes, each a plain loop: a closure per node
        // is called through rayon's generic code, which the compiler does not always inline
        // into it (about 8% more instructions for a whole count when it did not).
        const BLOCK: u32 = 1 << 14;
        let (nodes, buckets) = (&self.nodes, &self.buckets);
        let len = len as u32;
        (0..len.div_ceil(BLOCK)).into_par_iter().for_each(|k| {
            for i in (k * BLOCK).max(2)..((k + 1) * BLOCK).min(len) {
                let mut n = nodes.get(i);
                let bucket = &buckets[hash3(n.level, n.lo, n.hi) as usize & mask];
                let mut head = bucket.load(Ordering::Relaxed);
                loop {
                    n.next = head;
                    nodes.set(i, n);
                    match bucket.compare_exchange_weak(
                        head,
                        i,
                        Ordering::Release,
                        Ordering::Relaxed,
                    ) {
                        Ok(_) => break,
                        Err(now) => head = now,
                    }
                }
            }
        });
    }

    /// The node testing `level` with children `lo` (variable false) and `hi` (true), shared
    /// with an equal node already made. Returns `FALSE` once the room is spent (and the
    /// operation is then run again by [`Store::run`]).
    #[inline]
    pub fn mk(&self, level: u32, lo: Ref, hi: Ref) -> Ref {
        if lo == hi {
            return lo;
        }
        debug_assert!(level < self.level(lo) && level < self.level(hi));
        let bucket = &self.buckets[hash3(level, lo, hi) as usize & (self.buckets.len() - 1)];
        let mut head = bucket.load(Ordering::Acquire);
        // Chains only grow at the head: after a lost race, only the new part is searched.
        let mut seen = NIL;
        let mut mine = None;
        loop {
            let mut i = head;
            while i != seen {
                let n = self.nodes.get(i);
                if n.level == level && n.lo == lo && n.hi == hi {
                    return i;
                }
                i = n.next;
            }
            let id = match mine {
                Some(id) => id,
                None => {
                    if self.full.load(Ordering::Relaxed) {
                        return FALSE;
                    }
                    let Some(id) = self.nodes.take() else {
                        self.full.store(true, Ordering::Relaxed);
                        return FALSE;
                    };
                    mine = Some(id);
                    id
                }
            };
            self.nodes.set(
                id,
                Node {
                    level,
                    lo,
                    hi,
                    next: head,
                },
            );
            match bucket.compare_exchange(head, id, Ordering::Release, Ordering::Acquire) {
                Ok(_) => return id,
                Err(now) => {
                    seen = head;
                    head = now;
                }
            }
        }
    }

    /// The cached result of `op` on `a` and `b`, if still remembered.
    #[inline]
    pub fn cached(&self, op: u32, a: u32, b: u32) -> Option<Ref> {
        let e = &self.cache[hash3(a, b, op) as usize & (self.cache.len() - 1)];
        let key = u64::from(a) | u64::from(b) << 32;
        if e.key.load(Ordering::Acquire) != key {
            return None;
        }
        let value = e.value.load(Ordering::Acquire);
        std::sync::atomic::fence(Ordering::Acquire);
        if e.key.load(Ordering::Relaxed) != key
            || (value >> 32) as u32 != op | self.epoch << OP_BITS
        {
            return None;
        }
        Some(value as u32)
    }

    /// Remembers the result of `op` on `a` and `b`, unless another thread is writing the same
    /// entry or the result may be meaningless (the room ran out).
    #[inline]
    pub fn remember(&self, op: u32, a: u32, b: u32, result: Ref) {
        if self.full.load(Ordering::Relaxed) {
            return;
        }
        let e = &self.cache[hash3(a, b, op) as usize & (self.cache.len() - 1)];
        if e.key.swap(LOCKED, Ordering::Acquire) == LOCKED {
            return;
        }
        let tag = op | self.epoch << OP_BITS;
        e.value
            .store(u64::from(result) | u64::from(tag) << 32, Ordering::Release);
        e.key
            .store(u64::from(a) | u64::from(b) << 32, Ordering::Release);
    }

    /// The variable at `level` being true.
    pub fn var(&mut self, level: u32) -> Ref {
        self.run(1, |s| s.mk(level, FALSE, TRUE))
    }

    /// The variable at `level` being false.
    pub fn not_var(&mut self, level: u32) -> Ref {
        self.run(1, |s| s.mk(level, TRUE, FALSE))
    }

    /// The union of two sets.
    pub fn or(&self, a: Ref, b: Ref) -> Ref {
        if a == FALSE || a == b || b == TRUE {
            return b;
        }
        if b == FALSE || a == TRUE {
            return a;
        }
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        if let Some(r) = self.cached(OP_OR, a, b) {
            return r;
        }
        let level = self.level(a).min(self.level(b));
        let (a0, a1) = self.split(a, level);
        let (b0, b1) = self.split(b, level);
        let (lo, hi) = self.pair(level, || self.or(a0, b0), || self.or(a1, b1));
        let r = self.mk(level, lo, hi);
        self.remember(OP_OR, a, b, r);
        r
    }

    /// The intersection of two sets.
    pub fn and(&self, a: Ref, b: Ref) -> Ref {
        if a == FALSE || a == b || b == TRUE {
            return a;
        }
        if b == FALSE || a == TRUE {
            return b;
        }
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        if let Some(r) = self.cached(OP_AND, a, b) {
            return r;
        }
        let level = self.level(a).min(self.level(b));
        let (a0, a1) = self.split(a, level);
        let (b0, b1) = self.split(b, level);
        let (lo, hi) = self.pair(level, || self.and(a0, b0), || self.and(a1, b1));
        let r = self.mk(level, lo, hi);
        self.remember(OP_AND, a, b, r);
        r
    }

    /// The assignments of `a` that are not in `b`.
    pub fn diff(&self, a: Ref, b: Ref) -> Ref {
        if a == FALSE || b == TRUE || a == b {
            return FALSE;
        }
        if b == FALSE {
            return a;
        }
        if let Some(r) = self.cached(OP_DIFF, a, b) {
            return r;
        }
        let level = self.level(a).min(self.level(b));
        let (a0, a1) = self.split(a, level);
        let (b0, b1) = self.split(b, level);
        let (lo, hi) = self.pair(level, || self.diff(a0, b0), || self.diff(a1, b1));
        let r = self.mk(level, lo, hi);
        self.remember(OP_DIFF, a, b, r);
        r
    }

    /// Computes the two branches of a node at `level`: on two threads near the top of the
    /// order, where each branch is a large share of the work, and in turn below it, where a
    /// fork would cost more than it saves.
    #[inline]
    pub fn pair(
        &self,
        level: u32,
        lo: impl FnOnce() -> Ref + Send,
        hi: impl FnOnce() -> Ref + Send,
    ) -> (Ref, Ref) {
        if self.forks_at(level) {
            rayon::join(lo, hi)
        } else {
            (lo(), hi())
        }
    }

    /// Drops every node no root reaches and renumbers the rest (in the same order), returning
    /// the roots' new references; forgets the cache and clears the overflow mark. The tables
    /// keep their size for the next operation.
    pub fn compact<const N: usize>(&mut self, roots: [Ref; N]) -> [Ref; N] {
        let mut roots = roots;
        self.compact_all(&mut roots);
        roots
    }

    /// [`Store::compact`] for any number of roots, renumbered in place.
    pub fn compact_all(&mut self, roots: &mut [Ref]) {
        let n = self.len();
        self.peak = self.peak.max(self.bytes() + n * std::mem::size_of::<u32>());
        let mut remap = table(n, || NIL);
        // Children are older than parents, so one sweep from the newest node marks everything
        // reachable.
        for &r in roots.iter() {
            remap[r as usize] = 0;
        }
        for i in (2..n).rev() {
            if remap[i] != NIL {
                let Node { lo, hi, .. } = self.nodes.get(i as u32);
                remap[lo as usize] = 0;
                remap[hi as usize] = 0;
            }
        }
        remap[0] = 0;
        remap[1] = 1;
        let mut kept = 2u32;
        for i in 2..n {
            if remap[i] != NIL {
                let Node { level, lo, hi, .. } = self.nodes.get(i as u32);
                remap[i] = kept;
                self.nodes.set(
                    kept,
                    Node {
                        level,
                        lo: remap[lo as usize],
                        hi: remap[hi as usize],
                        next: NIL,
                    },
                );
                kept += 1;
            }
        }
        for r in roots.iter_mut() {
            *r = remap[*r as usize];
        }
        drop(remap);
        self.nodes.len.store(kept as usize, Ordering::Relaxed);
        // Give the garbage's pages back to the system: the next operation grows the array
        // again, and until then the memory serves the counts. (When the system keeps the
        // allocation, it stays as it was and `high` says what it holds.)
        let cap = (kept as usize).next_power_of_two().max(MIN_TABLE);
        if cap < self.nodes.cap && self.nodes.resize(cap) {
            self.nodes.high = kept as usize;
        }
        self.overflow = false;
        self.full.store(false, Ordering::Relaxed);
        self.rehash(self.buckets.len());
        self.epoch += 1;
        if self.epoch == EPOCHS {
            self.epoch = 1;
            let len = self.cache.len();
            self.cache = Vec::new();
            self.cache = empty_cache(len);
        }
        self.note_peak();
    }

    /// Whether the assignment `value` (the value of each level, from level 0 on) is in `r`.
    pub fn contains(&self, r: Ref, value: &[bool]) -> bool {
        let mut r = r;
        while r > TRUE {
            let n = self.nodes.get(r);
            r = if value[n.level as usize] { n.hi } else { n.lo };
        }
        r == TRUE
    }

    /// The nodes reachable from `r`, the terminals included.
    pub fn size(&self, r: Ref) -> usize {
        let mut seen = table(r as usize + 1, || false);
        seen[r as usize] = true;
        let mut count = 0;
        for i in (0..=r as usize).rev() {
            if seen[i] {
                count += 1;
                if i >= 2 {
                    let Node { lo, hi, .. } = self.nodes.get(i as u32);
                    seen[lo as usize] = true;
                    seen[hi as usize] = true;
                }
            }
        }
        count
    }

    /// The number of assignments of all the variables in each set of `roots`, or `None` when
    /// one does not fit in a `u128` or the counts would take the store over `limit` bytes.
    /// The cache is emptied when that makes room.
    pub fn count(&mut self, roots: &[Ref], limit: usize) -> Option<Vec<u128>> {
        // A node's count is at most 2 to the number of levels below it: below 64 levels every
        // count fits in a `u64`, at half the memory of a `u128`.
        if self.levels < 64 {
            let counts = self.count_as::<u64>(roots, limit)?;
            Some(counts.into_iter().map(u128::from).collect())
        } else {
            self.count_as::<u128>(roots, limit)
        }
    }

    fn count_as<N: Count>(&mut self, roots: &[Ref], limit: usize) -> Option<Vec<N>> {
        let top = roots.iter().copied().max().unwrap_or(0) as usize;
        let need = (top + 1) * std::mem::size_of::<N>();
        if self.bytes() + need > limit {
            self.cache = Vec::new();
            self.cache = empty_cache(MIN_TABLE);
        }
        if self.bytes() + need > limit {
            self.overflow = true;
            return None;
        }
        self.peak = self.peak.max(self.bytes() + need);
        let mut counts = table(top + 1, || N::ZERO);
        if top >= 1 {
            counts[1] = N::ONE;
        }
        // The assignments of the levels from `level` down to a child's own level.
        let scaled = |counts: &[N], level: u32, child: Ref| -> Option<N> {
            counts[child as usize].times_power_of_two(self.level(child) - level)
        };
        for i in 2..=top {
            let Node { level, lo, hi, .. } = self.nodes.get(i as u32);
            let lo = scaled(&counts, level + 1, lo)?;
            let hi = scaled(&counts, level + 1, hi)?;
            counts[i] = lo.plus(hi)?;
        }
        roots.iter().map(|&r| scaled(&counts, 0, r)).collect()
    }
}

/// The unsigned integers [`Store::count`] counts in.
trait Count: Copy {
    const ZERO: Self;
    const ONE: Self;
    /// `self` times 2 to the `k`, unless that overflows.
    fn times_power_of_two(self, k: u32) -> Option<Self>;
    /// `self + other`, unless that overflows.
    fn plus(self, other: Self) -> Option<Self>;
}

macro_rules! count_in {
    ($t:ty) => {
        impl Count for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            fn times_power_of_two(self, k: u32) -> Option<Self> {
                self.checked_mul(<$t>::ONE.checked_shl(k)?)
            }
            fn plus(self, other: Self) -> Option<Self> {
                self.checked_add(other)
            }
        }
    };
}
count_in!(u64);
count_in!(u128);
