//! The transposition table: for positions met before, the bounds on their score that earlier
//! searches proved.
//!
//! One slot per position hash, the newest position winning a collision, each slot one 64-bit
//! word so that a probe costs one cache miss. The hash multiplies the key by an odd constant,
//! which is a bijection of 64-bit words: its top bits pick the slot and its low bits, stored
//! in the slot, tell the key apart from every other key of that slot. With at least 2^14
//! slots the stored part takes at most 50 bits, leaving 14 for the two bounds.

/// Bounds on scores, by position key.
pub struct Table {
    /// `hash low bits << 14 | (lower + OFFSET) << 7 | (upper + OFFSET)`, 0 for an empty slot.
    slots: Vec<u64>,
    bits: u32,
    /// Whether anything was stored since the table was made or cleared.
    used: bool,
}

/// Scores are within ±32 on every board that fits; the offset makes both bounds fit 7 bits
/// and the lower one non-zero, so that no filled slot reads as empty.
const OFFSET: i32 = 33;

/// Bytes per slot.
pub const SLOT_BYTES: usize = 8;

/// Fewest slots: enough to keep the stored part of a hash within 50 bits.
const MIN_BITS: u32 = 14;

const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

impl Table {
    /// A table of at most `bytes` bytes (at least 2^14 slots, 128 KiB): a power of two of
    /// slots. Its pages are written once here, so that searches do not pay for them one fault
    /// at a time.
    pub fn new(bytes: usize) -> Table {
        let wanted = (bytes / SLOT_BYTES).max(1 << MIN_BITS);
        let bits = usize::BITS - 1 - wanted.leading_zeros();
        let mut slots = vec![0u64; 1 << bits];
        // The zeroed allocation maps every page to the system's shared zero page until it is
        // first written; one opaque write per page gives each its own now (a plain fill with
        // zeros may be dropped by the compiler, which knows the memory is zero already).
        for page in slots.chunks_mut(4096 / SLOT_BYTES) {
            page[0] = std::hint::black_box(0);
        }
        Table {
            slots,
            bits,
            used: false,
        }
    }

    /// Number of slots.
    pub fn slots(&self) -> usize {
        self.slots.len()
    }

    /// Forgets every position.
    pub fn clear(&mut self) {
        if self.used {
            self.slots.fill(0);
            self.used = false;
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

    /// The lower and upper bounds known for `key`.
    #[inline]
    pub fn get(&self, key: u64) -> Option<(i32, i32)> {
        let (i, tag) = self.place(key);
        let e = self.slots[i];
        (e != 0 && e >> 14 == tag).then(|| {
            (
                ((e >> 7) & 0x7f) as i32 - OFFSET,
                (e & 0x7f) as i32 - OFFSET,
            )
        })
    }

    /// Records bounds for `key`, tightening what the slot already knows of the same key.
    #[inline]
    pub fn put(&mut self, key: u64, mut lower: i32, mut upper: i32) {
        if let Some((lo, hi)) = self.get(key) {
            lower = lower.max(lo);
            upper = upper.min(hi);
        }
        let (i, tag) = self.place(key);
        self.used = true;
        self.slots[i] = tag << 14 | ((lower + OFFSET) as u64) << 7 | (upper + OFFSET) as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_tighten_and_collisions_replace() {
        let mut t = Table::new(0);
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
