//! The transposition table: for positions met before, the bounds on their score that earlier
//! searches proved.
//!
//! One slot per position hash, the newest position winning a collision, each slot one 64-bit
//! word so that a probe costs one cache miss. The hash multiplies the key by an odd constant,
//! which is a bijection of 64-bit words: its top bits pick the slot and its low bits, stored
//! in the slot, tell the key apart from every other key of that slot. With at least 2^14
//! slots the stored part takes at most 50 bits, leaving 14 for the two bounds.
//!
//! Searchers on several threads share one table. A slot is one atomic word, read and written
//! whole, so a reader sees either the old entry or the new one, never a mix; a race between
//! two writers loses one entry, which only costs a search the table would have spared.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Bounds on scores, by position key.
pub struct Table {
    /// `hash low bits << 14 | (lower + OFFSET) << 7 | (upper + OFFSET)`, 0 for an empty slot.
    slots: Vec<AtomicU64>,
    bits: u32,
    /// Whether anything was stored since the table was made or cleared.
    used: AtomicBool,
}

/// Scores are within ±32 on every board that fits; the offset makes both bounds fit 7 bits
/// and the lower one non-zero, so that no filled slot reads as empty.
const OFFSET: i32 = 33;

/// Bytes per slot.
pub const SLOT_BYTES: usize = 8;

/// Fewest slots: enough to keep the stored part of a hash within 50 bits.
const MIN_BITS: u32 = 14;

const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

/// A key's hash: the key times an odd constant, a bijection whose top bits are well mixed.
#[inline]
pub(super) fn hash(key: u64) -> u64 {
    key.wrapping_mul(MULTIPLIER)
}

impl Table {
    /// A table of at most `bytes` bytes (at least 2^14 slots, 128 KiB): a power of two of
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

    /// The slot of `key` and what the slot stores to recognise it.
    #[inline]
    fn place(&self, key: u64) -> (usize, u64) {
        let h = hash(key);
        (
            (h >> (64 - self.bits)) as usize,
            (h << self.bits) >> self.bits,
        )
    }

    /// Starts loading the slot of `key` into the cache, for a [`Table::get`] soon after.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot = &self.slots[self.place(key).0];
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

    /// The lower and upper bounds known for `key`.
    #[inline]
    pub fn get(&self, key: u64) -> Option<(i32, i32)> {
        let (i, tag) = self.place(key);
        let e = self.slots[i].load(Relaxed);
        (e != 0 && e >> 14 == tag).then(|| {
            (
                ((e >> 7) & 0x7f) as i32 - OFFSET,
                (e & 0x7f) as i32 - OFFSET,
            )
        })
    }

    /// Records bounds for `key`, tightening what the slot already knows of the same key.
    #[inline]
    pub fn put(&self, key: u64, mut lower: i32, mut upper: i32) {
        if let Some((lo, hi)) = self.get(key) {
            lower = lower.max(lo);
            upper = upper.min(hi);
        }
        let (i, tag) = self.place(key);
        if !self.used.load(Relaxed) {
            self.used.store(true, Relaxed);
        }
        self.slots[i].store(
            tag << 14 | ((lower + OFFSET) as u64) << 7 | (upper + OFFSET) as u64,
            Relaxed,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_tighten_and_collisions_replace() {
        let t = Table::new(0);
        assert_eq!(t.slots(), 1 << 14);
        assert_eq!(t.get(5), None);
        t.put(5, -3, 10);
        t.put(5, -20, 4);
        assert_eq!(t.get(5), Some((-3, 4)));
        t.put(5, -32, 32);
        assert_eq!(t.get(5), Some((-3, 4)));
        // Two keys of one slot: the newer replaces the older, which is then unknown.
        let (slot, _) = t.place(5);
        let other = (6..).find(|&k| t.place(k).0 == slot).unwrap();
        t.put(other, 0, 0);
        assert_eq!(t.get(5), None);
        assert_eq!(t.get(other), Some((0, 0)));
        t.clear();
        assert_eq!(t.get(other), None);
        assert_eq!(Table::new(100 << 20).slots(), 1 << 23);
    }
}
