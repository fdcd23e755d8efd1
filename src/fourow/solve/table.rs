//! The transposition table: for positions met before, the bounds on their score that earlier
//! searches proved, the move that proved them, and how much search they cost.
//!
//! A key of a board of `c` columns and `r` rows has at most `c × (r + 1)` bits (`K`; 49 on
//! 7×6). Its hash multiplies it by an odd constant modulo 2^K, a bijection of K-bit words: the
//! top bits of the product pick a bucket, and the rest, stored in the slot, tell the key apart
//! from every other key of that bucket, so no two positions are ever confused. Storing only
//! the part of the key the bucket does not already say leaves room in one 64-bit word for the
//! bounds, the best move and the work (the same idea as a key recovered by the Chinese
//! remainder theorem from a prime-sized table: the slot's place is part of the key).
//!
//! A bucket is two slots of one cache line. The first keeps the entry that cost the most search
//! (its work, the logarithm of the nodes below it), the second takes whatever is newest: the
//! flood of cheap positions near the leaves cannot wash out the few dear ones near the root,
//! which are the entries that spare the most.
//!
//! Searchers on several threads share one table. A slot is one atomic word, read and written
//! whole, so a reader sees either the old entry or the new one, never a mix; a race between
//! two writers loses one entry, which only costs a search the table would have spared.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Bounds on scores, best moves and work, by position key.
pub struct Table {
    /// `tag << INFO | work << 20 | (best + 1) << 14 | (lower + OFFSET) << 7 | (upper + OFFSET)`,
    /// 0 for an empty slot; where the tag leaves fewer than [`INFO`] bits, see [`Layout`].
    slots: Vec<AtomicU64>,
    /// log2 of the number of slots.
    bits: u32,
    /// How keys of the current board are cut, packed by [`Layout::pack`] so that one load
    /// gives it all.
    layout: AtomicU64,
    /// Whether anything was stored since the table was made or cleared.
    used: AtomicBool,
}

/// What the table knows of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// A lower bound on the score.
    pub lower: i32,
    /// An upper bound on the score.
    pub upper: i32,
    /// The column that proved the bound last time (the best found), if recorded.
    pub best: Option<u32>,
}

/// Scores are within ±32 on every board that fits; the offset makes both bounds fit 7 bits
/// and the lower one non-zero, so that no filled slot reads as empty.
const OFFSET: i32 = 33;

/// Bits below the tag: bounds (14), best move (6, column + 1, 0 for none) and work (6).
const INFO: u32 = 26;

/// Bytes per slot.
pub const SLOT_BYTES: usize = 8;

/// Fewest slots: enough to keep the stored part of a 64-bit key within 50 bits, with 14 for
/// the bounds (boards of 64-bit keys and so small a table store no moves and no work).
const MIN_BITS: u32 = 15;

const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

/// A key's hash: the key times an odd constant, a bijection whose top bits are well mixed.
#[inline]
pub(super) fn hash(key: u64) -> u64 {
    key.wrapping_mul(MULTIPLIER)
}

/// How a key is cut into a bucket and a tag, and a slot's word into a tag and the fields
/// below it: when the tag is long (huge boards, small tables) the fields that no longer fit
/// are dropped, work first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Layout {
    /// Bits of a key (at most 64).
    key_bits: u32,
    /// Bits of the tag: the key's bits below the bucket's.
    tag_bits: u32,
    /// Bits left below the tag in a slot (at least 14).
    info: u32,
}

impl Layout {
    /// The layout of keys of `key_bits` bits in a table of 2^`bits` slots.
    fn new(key_bits: u32, bits: u32) -> Layout {
        // At least one bit of tag, so that a tag never shifts by the whole word; a board of
        // fewer key bits than the table has buckets leaves the rest of the table unused.
        let bucket_bits = (bits - 1).min(key_bits - 1);
        let tag_bits = key_bits - bucket_bits;
        Layout {
            key_bits,
            tag_bits,
            info: (64 - tag_bits).min(INFO),
        }
    }

    fn pack(self) -> u64 {
        u64::from(self.key_bits) << 16 | u64::from(self.tag_bits) << 8 | u64::from(self.info)
    }

    #[inline]
    fn unpack(w: u64) -> Layout {
        Layout {
            key_bits: (w >> 16) as u32 & 0xff,
            tag_bits: (w >> 8) as u32 & 0xff,
            info: w as u32 & 0xff,
        }
    }
}

impl Table {
    /// A table of at most `bytes` bytes (at least 2^15 slots, 256 KiB): a power of two of
    /// slots, on large pages where the system offers them (a probe would otherwise miss the
    /// TLB as well as the cache). The system backs a page when the search first reaches it,
    /// so a short search does not pay for a big table.
    pub fn new(bytes: usize) -> Table {
        Table::try_new(bytes).unwrap_or_else(|layout| std::alloc::handle_alloc_error(layout))
    }

    /// [`Table::new`], or the layout the system refused: a size it could never back (more
    /// than its memory and swap) is refused at once, so a command can say so and stop
    /// instead of aborting.
    pub fn try_new(bytes: usize) -> Result<Table, std::alloc::Layout> {
        let wanted = (bytes / SLOT_BYTES).max(1 << MIN_BITS);
        let bits = usize::BITS - 1 - wanted.leading_zeros();
        // SAFETY: an all-zero atomic integer is 0.
        let slots = unsafe { crate::fourow::pages::try_zeroed::<AtomicU64>(1 << bits) }?;
        Ok(Table {
            slots,
            bits,
            layout: AtomicU64::new(Layout::new(64, bits).pack()),
            used: AtomicBool::new(false),
        })
    }

    /// Has the system back every page now, rather than when a search first reaches it: a
    /// page fault can take milliseconds (the system may first gather a free large page), which
    /// would land on whichever position happens to touch the page first.
    pub fn back_every_page(&self) {
        for slot in self.slots.iter().step_by(4096 / SLOT_BYTES) {
            // A store of an opaque value: a store the compiler could see to change nothing (or
            // an idempotent `fetch_or(0)`, which it turns into a load) would leave the page
            // mapped to the system's shared zero page.
            slot.store(std::hint::black_box(0), Relaxed);
        }
    }

    /// Number of slots.
    pub fn slots(&self) -> usize {
        self.slots.len()
    }

    /// Forgets every position.
    pub fn clear(&self) {
        if self.used.swap(false, Relaxed) {
            for slot in &self.slots {
                slot.store(0, Relaxed);
            }
        }
    }

    /// Forgets every position and takes keys of `key_bits` bits from now on (the board's
    /// columns × (rows + 1)).
    pub fn reset(&self, key_bits: u32) {
        debug_assert!((1..=64).contains(&key_bits));
        self.clear();
        self.layout
            .store(Layout::new(key_bits, self.bits).pack(), Relaxed);
    }

    #[inline]
    fn layout(&self) -> Layout {
        Layout::unpack(self.layout.load(Relaxed))
    }

    /// The first slot of `key`'s bucket and what a slot stores to recognise it.
    #[inline]
    fn place(&self, key: u64, l: Layout) -> (usize, u64) {
        let h = key.wrapping_mul(MULTIPLIER) & (u64::MAX >> (64 - l.key_bits));
        let tag_bits = l.tag_bits;
        (
            ((h >> tag_bits) as usize) << 1,
            h & (u64::MAX >> (64 - tag_bits)),
        )
    }

    /// Starts loading the bucket of `key` into the cache, for a [`Table::get`] soon after.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot = &self.slots[self.place(key, self.layout()).0];
            // SAFETY: a prefetch is a hint that never faults, and the address is a slot's.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    std::ptr::from_ref(slot).cast::<i8>(),
                    std::arch::x86_64::_MM_HINT_T0,
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Which slot of the bucket at `i` holds `tag`, and its word.
    #[inline]
    fn find(&self, i: usize, tag: u64, l: Layout) -> Option<(usize, u64)> {
        let [a, b] = &self.slots[i..i + 2] else {
            unreachable!("a bucket is two slots")
        };
        let (a, b) = (a.load(Relaxed), b.load(Relaxed));
        if a != 0 && a >> l.info == tag {
            Some((i, a))
        } else if b != 0 && b >> l.info == tag {
            Some((i + 1, b))
        } else {
            None
        }
    }

    /// What is known of `key`.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        let l = self.layout();
        let (i, tag) = self.place(key, l);
        self.find(i, tag, l).map(|(_, e)| decode(e, l))
    }

    /// Records bounds for `key`, proved by a search of `work` (the bits of its node count)
    /// whose best move was `best`, tightening what the table already knows of the same key.
    #[inline]
    pub fn put(&self, key: u64, mut lower: i32, mut upper: i32, best: Option<u32>, work: u32) {
        let l = self.layout();
        let (i, tag) = self.place(key, l);
        if !self.used.load(Relaxed) {
            self.used.store(true, Relaxed);
        }
        let (mut best, mut work) = (best, work);
        let slot = match self.find(i, tag, l) {
            Some((j, e)) => {
                let old = decode(e, l);
                lower = lower.max(old.lower);
                upper = upper.min(old.upper);
                best = best.or(old.best);
                work = work.max(work_of(e, l));
                j
            }
            None => {
                // The dearer of the new entry and the first slot's keeps the first slot; the
                // other goes to the second, over whatever it held.
                let first = self.slots[i].load(Relaxed);
                if first == 0 || work >= work_of(first, l) {
                    if first != 0 {
                        self.slots[i + 1].store(first, Relaxed);
                    }
                    i
                } else {
                    i + 1
                }
            }
        };
        self.slots[slot].store(encode(tag, lower, upper, best, work, l), Relaxed);
    }
}

/// The work field's width in a layout: what is left of 6 bits under the tag.
#[inline]
fn work_width(l: Layout) -> u32 {
    l.info.saturating_sub(20)
}

#[inline]
fn work_of(e: u64, l: Layout) -> u32 {
    ((e >> 20) & ((1 << work_width(l)) - 1)) as u32
}

#[inline]
fn decode(e: u64, l: Layout) -> Entry {
    let best = if l.info >= 20 {
        ((e >> 14) & 0x3f).checked_sub(1).map(|c| c as u32)
    } else {
        None
    };
    Entry {
        lower: ((e >> 7) & 0x7f) as i32 - OFFSET,
        upper: (e & 0x7f) as i32 - OFFSET,
        best,
    }
}

#[inline]
fn encode(tag: u64, lower: i32, upper: i32, best: Option<u32>, work: u32, l: Layout) -> u64 {
    let mut e = tag << l.info | ((lower + OFFSET) as u64) << 7 | (upper + OFFSET) as u64;
    if l.info >= 20 {
        e |= best.map_or(0, |c| u64::from(c) + 1) << 14;
        let width = work_width(l);
        e |= u64::from(work.min((1 << width) - 1)) << 20;
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_tighten_and_collisions_replace() {
        let t = Table::new(0);
        t.reset(49);
        assert_eq!(t.slots(), 1 << 15);
        assert_eq!(t.get(5), None);
        t.put(5, -3, 10, Some(2), 7);
        t.put(5, -20, 4, None, 1);
        assert_eq!(
            t.get(5),
            Some(Entry {
                lower: -3,
                upper: 4,
                best: Some(2)
            })
        );
        t.put(5, -32, 32, Some(4), 0);
        assert_eq!(
            t.get(5).map(|e| (e.lower, e.upper, e.best)),
            Some((-3, 4, Some(4)))
        );
        // Keys of one bucket: the dearest stays, the newest takes the other slot.
        let l = t.layout();
        let (slot, _) = t.place(5, l);
        let mut others = (6..).filter(|&k| t.place(k, l).0 == slot);
        let (a, b) = (others.next().unwrap(), others.next().unwrap());
        t.put(a, 0, 0, None, 3);
        assert!(t.get(5).is_some(), "the dearer entry stays");
        assert!(t.get(a).is_some());
        t.put(b, 1, 1, None, 2);
        assert!(t.get(5).is_some());
        assert_eq!(t.get(a), None, "the cheaper newcomer replaced");
        assert_eq!(t.get(b).map(|e| e.lower), Some(1));
        t.put(a, 0, 0, None, 9);
        assert_eq!(
            t.get(a).map(|e| e.upper),
            Some(0),
            "the dearest takes the first slot"
        );
        assert!(t.get(5).is_some(), "and the old first moves to the second");
        assert_eq!(t.get(b), None);
        t.clear();
        assert_eq!(t.get(a), None);
        assert_eq!(Table::new(100 << 20).slots(), 1 << 23);
    }

    #[test]
    fn keys_of_every_width_fit() {
        // 64-bit keys in the smallest table: bounds only.
        let t = Table::new(0);
        t.reset(64);
        t.put(u64::MAX, -5, 7, Some(3), 40);
        assert_eq!(
            t.get(u64::MAX),
            Some(Entry {
                lower: -5,
                upper: 7,
                best: None
            })
        );
        assert_eq!(t.get(u64::MAX - 1), None);
        // Keys shorter than the bucket index.
        t.reset(5);
        for k in 0..32 {
            t.put(k, k as i32 - 16, 16, Some(1), 0);
        }
        for k in 0..32 {
            assert_eq!(t.get(k).map(|e| e.lower), Some(k as i32 - 16));
        }
    }
}
