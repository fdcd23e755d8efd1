//! The transposition table: for positions met before, the bounds on their score that earlier
//! searches proved, and the move that last proved a bound, to try first next time (the root
//! is probed with one window after another, which search the same positions again).
//!
//! One slot per position hash, the newest position winning a collision, each slot one 64-bit
//! word so that a probe costs one cache miss. The hash multiplies the key by an odd constant,
//! which is a bijection of 64-bit words: its top bits pick the slot and its low bits, stored
//! in the slot, tell the key apart from every other key of that slot. With at least 2^19
//! slots the stored part takes at most 45 bits, leaving 19 for the move and the two bounds.
//!
//! Searchers on several threads share one table. A slot is one atomic word, read and written
//! whole, so a reader sees either the old entry or the new one, never a mix; a race between
//! two writers loses one entry, which only costs a search the table would have spared.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// What the table knows of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The score is at least this.
    pub lower: i32,
    /// The score is at most this.
    pub upper: i32,
    /// The column whose move proved a bound last, if one did.
    pub best: Option<u32>,
}

/// Bounds on scores and best moves, by position key.
pub struct Table {
    /// `hash low bits << 19 | (best + 1) << 14 | (lower + OFFSET) << 7 | (upper + OFFSET)`,
    /// with 0 for no best move, and 0 for an empty slot.
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

/// Fewest slots: enough to keep the stored part of a hash within 45 bits.
const MIN_BITS: u32 = 19;

/// Bits of an entry below the stored part of the hash.
const VALUE_BITS: u32 = 19;

const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

impl Table {
    /// A table of at most `bytes` bytes (at least 2^19 slots, 4 MiB): a power of two of
    /// slots, on large pages where the system offers them (a probe would otherwise miss the
    /// TLB as well as the cache). Its pages are written once here, so that searches do not pay
    /// for them one fault at a time.
    pub fn new(bytes: usize) -> Table {
        let wanted = (bytes / SLOT_BYTES).max(1 << MIN_BITS);
        let bits = usize::BITS - 1 - wanted.leading_zeros();
        let slots = crate::fourow::pages::table(1 << bits, || AtomicU64::new(0));
        Table {
            slots,
            bits,
            used: AtomicBool::new(false),
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
        let h = key.wrapping_mul(MULTIPLIER);
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

    /// What is known of `key`.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        let (i, tag) = self.place(key);
        let e = self.slots[i].load(Relaxed);
        (e != 0 && e >> VALUE_BITS == tag).then(|| Entry {
            lower: ((e >> 7) & 0x7f) as i32 - OFFSET,
            upper: (e & 0x7f) as i32 - OFFSET,
            best: ((e >> 14) & 0x1f).checked_sub(1).map(|c| c as u32),
        })
    }

    /// Records bounds for `key`, tightening what the slot already knows of the same key, and
    /// the move that proved one (or keeps the one known).
    #[inline]
    pub fn put(&self, key: u64, mut lower: i32, mut upper: i32, mut best: Option<u32>) {
        if let Some(old) = self.get(key) {
            lower = lower.max(old.lower);
            upper = upper.min(old.upper);
            best = best.or(old.best);
        }
        let (i, tag) = self.place(key);
        if !self.used.load(Relaxed) {
            self.used.store(true, Relaxed);
        }
        // Five bits hold columns 0 to 30; a 32nd column (boards of one row) goes unrecorded.
        let best = best.filter(|&c| c < 31).map_or(0, |c| u64::from(c) + 1);
        self.slots[i].store(
            tag << VALUE_BITS
                | best << 14
                | ((lower + OFFSET) as u64) << 7
                | (upper + OFFSET) as u64,
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
        assert_eq!(t.slots(), 1 << 19);
        assert_eq!(t.get(5), None);
        t.put(5, -3, 10, Some(30));
        t.put(5, -20, 4, None);
        let e = |lower, upper, best| Some(Entry { lower, upper, best });
        assert_eq!(t.get(5), e(-3, 4, Some(30)));
        t.put(5, -32, 32, Some(0));
        assert_eq!(t.get(5), e(-3, 4, Some(0)));
        // Two keys of one slot: the newer replaces the older, which is then unknown.
        let (slot, _) = t.place(5);
        let other = (6..).find(|&k| t.place(k).0 == slot).unwrap();
        t.put(other, 0, 0, None);
        assert_eq!(t.get(5), None);
        assert_eq!(t.get(other), e(0, 0, None));
        t.clear();
        assert_eq!(t.get(other), None);
        assert_eq!(Table::new(100 << 20).slots(), 1 << 23);
    }
}
