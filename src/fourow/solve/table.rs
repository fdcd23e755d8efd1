//! The transposition table: for positions met before, the bounds on their score that earlier
//! searches proved.
//!
//! One slot per hash of the key, the newest position winning a collision. Keys and bounds
//! live in two arrays of zeros, so a large table costs nothing until it is used (the system
//! hands out zeroed pages lazily) and a slot takes 10 bytes.

/// Bounds on scores, by position key.
pub struct Table {
    keys: Vec<u64>,
    /// `lower + OFFSET` in the low byte, `upper + OFFSET` in the high byte.
    bounds: Vec<u16>,
    shift: u32,
}

/// Scores are within ±32 on every board that fits; the offset makes both bounds positive.
const OFFSET: i32 = 64;

/// Bytes per slot.
pub const SLOT_BYTES: usize = 10;

impl Table {
    /// A table of at most `bytes` bytes (at least 1024 slots): a power of two of slots, so
    /// that the slot of a key is the top bits of a multiplicative hash.
    pub fn new(bytes: usize) -> Table {
        let wanted = (bytes / SLOT_BYTES).max(1024);
        let bits = usize::BITS - 1 - wanted.leading_zeros();
        let slots = 1usize << bits;
        Table {
            keys: vec![0; slots],
            bounds: vec![0; slots],
            shift: 64 - bits,
        }
    }

    /// Number of slots.
    pub fn slots(&self) -> usize {
        self.keys.len()
    }

    /// Forgets every position.
    pub fn clear(&mut self) {
        self.keys.fill(0);
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The lower and upper bounds known for `key` (never 0: every position key is positive).
    #[inline]
    pub fn get(&self, key: u64) -> Option<(i32, i32)> {
        let i = self.slot(key);
        (self.keys[i] == key).then(|| {
            let b = self.bounds[i];
            (i32::from(b & 0xff) - OFFSET, i32::from(b >> 8) - OFFSET)
        })
    }

    /// Records bounds for `key`, tightening what the slot already knows of the same key.
    #[inline]
    pub fn put(&mut self, key: u64, mut lower: i32, mut upper: i32) {
        let i = self.slot(key);
        if self.keys[i] == key {
            let b = self.bounds[i];
            lower = lower.max(i32::from(b & 0xff) - OFFSET);
            upper = upper.min(i32::from(b >> 8) - OFFSET);
        }
        self.keys[i] = key;
        self.bounds[i] = ((lower + OFFSET) as u16) | (((upper + OFFSET) as u16) << 8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_tighten_and_collisions_replace() {
        let mut t = Table::new(0);
        assert_eq!(t.slots(), 1024);
        assert_eq!(t.get(5), None);
        t.put(5, -3, 10);
        t.put(5, -20, 4);
        assert_eq!(t.get(5), Some((-3, 4)));
        t.clear();
        assert_eq!(t.get(5), None);
        assert_eq!(Table::new(100 << 20).slots(), 1 << 23);
    }
}
