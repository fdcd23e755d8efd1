//! A compact store of reduced ordered binary decision diagrams, written for the one job of
//! counting Connect Four positions ply by ply.
//!
//! Nodes live in one flat array and never move while an operation runs; a node's children are
//! always older than the node itself, so the array is in topological order, which lets garbage
//! collection ([`Store::compact`]) and model counting ([`Store::count`]) be single linear
//! sweeps with no stack. The unique table chains nodes through a `next` field, so growing it
//! is a sequential pass over the nodes. Results of operations are remembered in a lossy,
//! direct-mapped computed cache, cleared at every collection.
//!
//! There are no complement edges: the sets handled here are never negated, and plain edges
//! keep counting simple. Every size is checked against a memory budget; when an operation
//! would need more, the store refuses to grow, the operation finishes with a meaningless
//! result, and [`Store::overflowed`] says so, so that the caller can stop cleanly.

/// A node's index in the store. `FALSE` and `TRUE` are the two terminals.
pub type Ref = u32;

/// The empty set.
pub const FALSE: Ref = 0;
/// The set of every assignment of the remaining variables.
pub const TRUE: Ref = 1;

/// Cache entries per bucket of the unique table: operations on diagrams of a few million
/// nodes visit many more pairs of nodes than there are nodes, and a missed pair is computed
/// again.
const CACHE_RATIO: usize = 2;
/// The smallest cache kept after a collection (1 MiB).
const MIN_CACHE: usize = 1 << 16;

/// Marks an empty slot or the end of a chain.
const NIL: u32 = u32::MAX;

#[derive(Copy, Clone, Debug)]
#[repr(C)]
struct Node {
    level: u32,
    lo: Ref,
    hi: Ref,
    next: u32,
}

/// One remembered result: the operation and its two operands, and the answer.
#[derive(Copy, Clone, Debug)]
#[repr(C)]
struct Entry {
    a: u32,
    b: u32,
    op: u32,
    result: u32,
}

const EMPTY_ENTRY: Entry = Entry {
    a: NIL,
    b: NIL,
    op: NIL,
    result: 0,
};

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
    nodes: Vec<Node>,
    buckets: Vec<u32>,
    cache: Vec<Entry>,
    limit: usize,
    overflow: bool,
    peak: usize,
}

impl Store {
    /// The first operation code free for callers' own cached operations.
    pub const USER_OPS: u32 = 16;

    /// An empty store over `levels` variables that never uses more than `limit` bytes for its
    /// nodes, unique table and cache.
    pub fn new(levels: u32, limit: usize) -> Store {
        let terminal = |_| Node {
            level: levels,
            lo: NIL,
            hi: NIL,
            next: NIL,
        };
        let mut s = Store {
            levels,
            nodes: (0..2).map(terminal).collect(),
            buckets: vec![NIL; 1 << 12],
            cache: vec![EMPTY_ENTRY; 1 << 12],
            limit,
            overflow: false,
            peak: 0,
        };
        s.nodes.reserve(1 << 12);
        s.note_peak();
        s
    }

    /// The number of variables.
    pub fn levels(&self) -> u32 {
        self.levels
    }

    /// Nodes in the store, the two terminals included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the store holds the terminals only.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 2
    }

    /// Whether some operation wanted more memory than the budget since the last
    /// [`Store::compact`].
    pub fn overflowed(&self) -> bool {
        self.overflow
    }

    /// Bytes the store holds now.
    pub fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.buckets.len() * 4
            + self.cache.len() * std::mem::size_of::<Entry>()
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
        self.nodes[r as usize].level
    }

    /// The two cofactors of `r` with respect to the variable at `level`, which must not lie
    /// below `r`'s own level: a node that skips `level` does not depend on it.
    #[inline]
    pub fn split(&self, r: Ref, level: u32) -> (Ref, Ref) {
        let n = &self.nodes[r as usize];
        if n.level == level {
            (n.lo, n.hi)
        } else {
            (r, r)
        }
    }

    /// The node testing `level` with children `lo` (variable false) and `hi` (true), shared
    /// with an equal node already made. Returns `FALSE` once the budget is exceeded.
    #[inline]
    pub fn mk(&mut self, level: u32, lo: Ref, hi: Ref) -> Ref {
        if lo == hi {
            return lo;
        }
        debug_assert!(level < self.level(lo) && level < self.level(hi));
        let mask = self.buckets.len() - 1;
        let slot = hash3(level, lo, hi) as usize & mask;
        let mut i = self.buckets[slot];
        while i != NIL {
            let n = &self.nodes[i as usize];
            if n.level == level && n.lo == lo && n.hi == hi {
                return i;
            }
            i = n.next;
        }
        if self.overflow {
            return FALSE;
        }
        if self.nodes.len() == self.nodes.capacity() && !self.grow_nodes() {
            return FALSE;
        }
        let id = self.nodes.len() as u32;
        if id == NIL {
            self.overflow = true;
            return FALSE;
        }
        self.nodes.push(Node {
            level,
            lo,
            hi,
            next: self.buckets[slot],
        });
        self.buckets[slot] = id;
        if self.nodes.len() > self.buckets.len() {
            self.grow_buckets();
        }
        id
    }

    /// Makes room for more nodes, within the budget.
    #[cold]
    fn grow_nodes(&mut self) -> bool {
        let cap = self.nodes.capacity();
        let other = self.bytes() - cap * std::mem::size_of::<Node>();
        let room = self.limit.saturating_sub(other) / std::mem::size_of::<Node>();
        // The bucket array doubles with the nodes: keep a quarter of the room for it.
        let want = (cap * 2).min(room.saturating_sub(room / 4)).max(cap);
        if want <= cap + 1024 || self.nodes.try_reserve_exact(want - cap).is_err() {
            self.overflow = true;
            return false;
        }
        self.note_peak();
        true
    }

    /// Doubles the unique table (and the cache with it, up to a node for every two entries),
    /// if the budget allows; otherwise the chains just get longer.
    #[cold]
    fn grow_buckets(&mut self) {
        let extra = self.buckets.len() * 4;
        if self.bytes() + extra > self.limit {
            return;
        }
        let size = self.buckets.len() * 2;
        self.rehash(size);
        let cache_size = self.cache.len() * 2;
        let extra = self.cache.len() * std::mem::size_of::<Entry>();
        if cache_size <= size * CACHE_RATIO && self.bytes() + extra <= self.limit {
            self.cache = vec![EMPTY_ENTRY; cache_size];
        }
        self.note_peak();
    }

    fn rehash(&mut self, size: usize) {
        self.buckets = Vec::new();
        self.buckets = vec![NIL; size];
        let mask = size - 1;
        for i in 2..self.nodes.len() {
            let n = self.nodes[i];
            let slot = hash3(n.level, n.lo, n.hi) as usize & mask;
            self.nodes[i].next = self.buckets[slot];
            self.buckets[slot] = i as u32;
        }
    }

    /// The cached result of `op` on `a` and `b`, if still remembered.
    #[inline]
    pub fn cached(&self, op: u32, a: u32, b: u32) -> Option<Ref> {
        let e = &self.cache[hash3(a, b, op) as usize & (self.cache.len() - 1)];
        (e.a == a && e.b == b && e.op == op).then_some(e.result)
    }

    /// Remembers the result of `op` on `a` and `b`.
    #[inline]
    pub fn remember(&mut self, op: u32, a: u32, b: u32, result: Ref) {
        let i = hash3(a, b, op) as usize & (self.cache.len() - 1);
        self.cache[i] = Entry { a, b, op, result };
    }

    /// The variable at `level` being true.
    pub fn var(&mut self, level: u32) -> Ref {
        self.mk(level, FALSE, TRUE)
    }

    /// The variable at `level` being false.
    pub fn not_var(&mut self, level: u32) -> Ref {
        self.mk(level, TRUE, FALSE)
    }

    /// The union of two sets.
    pub fn or(&mut self, a: Ref, b: Ref) -> Ref {
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
        let lo = self.or(a0, b0);
        let hi = self.or(a1, b1);
        let r = self.mk(level, lo, hi);
        self.remember(OP_OR, a, b, r);
        r
    }

    /// The intersection of two sets.
    pub fn and(&mut self, a: Ref, b: Ref) -> Ref {
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
        let lo = self.and(a0, b0);
        let hi = self.and(a1, b1);
        let r = self.mk(level, lo, hi);
        self.remember(OP_AND, a, b, r);
        r
    }

    /// The assignments of `a` that are not in `b`.
    pub fn diff(&mut self, a: Ref, b: Ref) -> Ref {
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
        let lo = self.diff(a0, b0);
        let hi = self.diff(a1, b1);
        let r = self.mk(level, lo, hi);
        self.remember(OP_DIFF, a, b, r);
        r
    }

    /// Drops every node no root reaches and renumbers the rest (in the same order), returning
    /// the roots' new references; clears the cache and the overflow mark.
    pub fn compact<const N: usize>(&mut self, roots: [Ref; N]) -> [Ref; N] {
        let n = self.nodes.len();
        // The bucket array is rebuilt anyway: its memory holds the new indices meanwhile.
        self.buckets = Vec::new();
        let mut remap = vec![NIL; n];
        remap[0] = 0;
        remap[1] = 1;
        // Children are older than parents, so one sweep from the newest node marks everything
        // reachable.
        for r in roots {
            remap[r as usize] = 0;
        }
        for i in (2..n).rev() {
            if remap[i] != NIL {
                let Node { lo, hi, .. } = self.nodes[i];
                remap[lo as usize] = 0;
                remap[hi as usize] = 0;
            }
        }
        remap[0] = 0;
        remap[1] = 1;
        let mut kept = 2u32;
        for i in 2..n {
            if remap[i] != NIL {
                let Node { level, lo, hi, .. } = self.nodes[i];
                remap[i] = kept;
                self.nodes[kept as usize] = Node {
                    level,
                    lo: remap[lo as usize],
                    hi: remap[hi as usize],
                    next: NIL,
                };
                kept += 1;
            }
        }
        let roots = roots.map(|r| remap[r as usize]);
        drop(remap);
        self.nodes.truncate(kept as usize);
        let mut size = 1 << 12;
        while size < self.nodes.len() {
            size *= 2;
        }
        self.rehash(size);
        let mut cache_size = (size * CACHE_RATIO).max(MIN_CACHE);
        let room = self
            .limit
            .saturating_sub(self.bytes() - self.cache.len() * 16)
            / 16;
        while cache_size > room && cache_size > 1 << 12 {
            cache_size /= 2;
        }
        if self.cache.len() != cache_size {
            self.cache = Vec::new();
            self.cache = vec![EMPTY_ENTRY; cache_size];
        } else {
            self.cache.fill(EMPTY_ENTRY);
        }
        self.overflow = false;
        roots
    }

    /// The nodes reachable from `r`, the terminals included.
    pub fn size(&self, r: Ref) -> usize {
        let mut seen = vec![false; self.nodes.len()];
        seen[r as usize] = true;
        let mut count = 0;
        for i in (0..=r as usize).rev() {
            if seen[i] {
                count += 1;
                if i >= 2 {
                    let Node { lo, hi, .. } = self.nodes[i];
                    seen[lo as usize] = true;
                    seen[hi as usize] = true;
                }
            }
        }
        count
    }

    /// The number of assignments of all the variables in each set of `roots`, or `None` when
    /// one does not fit in a `u128` or the counts would take the store over `limit` bytes.
    /// The cache is emptied to make room.
    pub fn count(&mut self, roots: &[Ref], limit: usize) -> Option<Vec<u128>> {
        let top = roots.iter().copied().max().unwrap_or(0) as usize;
        self.cache = Vec::new();
        self.cache = vec![EMPTY_ENTRY; 1 << 12];
        let need = (top + 1) * std::mem::size_of::<u128>();
        if self.bytes() + need > limit {
            self.overflow = true;
            return None;
        }
        self.peak = self.peak.max(self.bytes() + need);
        let mut counts = vec![0u128; top + 1];
        if top >= 1 {
            counts[1] = 1;
        }
        // The assignments of the levels from `level` down to a child's own level.
        let scaled = |counts: &[u128], level: u32, child: Ref| -> Option<u128> {
            let skipped = self.level(child) - level;
            counts[child as usize].checked_mul(1u128.checked_shl(skipped)?)
        };
        for i in 2..=top {
            let Node { level, lo, hi, .. } = self.nodes[i];
            let lo = scaled(&counts, level + 1, lo)?;
            let hi = scaled(&counts, level + 1, hi)?;
            counts[i] = lo.checked_add(hi)?;
        }
        roots.iter().map(|&r| scaled(&counts, 0, r)).collect()
    }
}
