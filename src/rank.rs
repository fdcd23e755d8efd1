//! A perfect dense index of the boards of one ply.
//!
//! After `k` moves a board holds `⌈k/2⌉` X stones and `⌊k/2⌋` O stones on `n ≤ 16` squares.
//! Such a board is the pair (which squares are taken, which of those are X), so
//!
//! ```text
//! slot = colex(taken) · C(k, ⌈k/2⌉) + colex(compress(x, taken))
//! ```
//!
//! numbers them `0 .. C(n,k)·C(k,⌈k/2⌉)` without gaps: 10.1 million slots over all plies of a
//! 16-square board, against 43 million for base-3 codes, and a single ply never needs more
//! than 2 million, so one ply's table stays in cache. `colex` ranks a k-subset in
//! colexicographic order (`Σ C(bᵢ, i+1)` over its bits `b₀ < b₁ < …`), which does not depend on
//! `n`, and `compress` gathers the bits of `x` that lie under `taken` into the low bits (a
//! 16-bit PEXT done with two byte tables).

use crate::board::Board;
use std::sync::OnceLock;

struct Tables {
    /// `binom[n][k]` for n, k ≤ 16.
    binom: [[u32; 17]; 17],
    /// Colexicographic rank of every 16-bit mask among the masks of its popcount.
    colex: Vec<u16>,
    /// `gather[m][v]`: the bits of `v` under the byte mask `m`, packed low.
    gather: Vec<u8>,
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mut binom = [[0u32; 17]; 17];
        for n in 0..17 {
            binom[n][0] = 1;
            for k in 1..=n {
                binom[n][k] = binom[n - 1][k - 1] + if k < n { binom[n - 1][k] } else { 0 };
            }
        }
        let colex = (0..=u16::MAX)
            .map(|m| {
                let mut r = 0u32;
                let mut i = 0;
                for (b, row) in binom.iter().enumerate().take(16) {
                    if m >> b & 1 == 1 {
                        i += 1;
                        r += row[i];
                    }
                }
                r as u16
            })
            .collect();
        let mut gather = vec![0u8; 256 * 256];
        for m in 0..256usize {
            for v in 0..256usize {
                let (mut out, mut j) = (0u8, 0);
                for b in 0..8 {
                    if m >> b & 1 == 1 {
                        out |= ((v >> b & 1) as u8) << j;
                        j += 1;
                    }
                }
                gather[m << 8 | v] = out;
            }
        }
        Tables {
            binom,
            colex,
            gather,
        }
    })
}

/// `C(n, k)` for `n ≤ 16`.
pub fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        tables().binom[n as usize][k as usize] as u64
    }
}

/// The bits of `v` that lie under `mask`, packed into the low bits in order.
#[inline]
pub fn compress(v: u16, mask: u16) -> u16 {
    let g = &tables().gather;
    let lo_mask = (mask & 0xFF) as usize;
    let lo = g[lo_mask << 8 | (v & 0xFF) as usize] as u16;
    let hi = g[((mask >> 8) as usize) << 8 | (v >> 8) as usize] as u16;
    lo | hi << lo_mask.count_ones()
}

/// Inverse of [`compress`]: spreads the low bits of `v` over the set bits of `mask`.
pub fn expand(v: u16, mask: u16) -> u16 {
    let (mut out, mut m, mut j) = (0u16, mask, 0);
    while m != 0 {
        let b = m.trailing_zeros();
        out |= (v >> j & 1) << b;
        j += 1;
        m &= m - 1;
    }
    out
}

/// Colexicographic rank of `m` among masks with the same number of bits.
#[inline]
pub fn colex_rank(m: u16) -> u32 {
    tables().colex[m as usize] as u32
}

/// The mask of `k` bits with colexicographic rank `r`.
pub fn colex_unrank(mut r: u32, k: u32) -> u16 {
    let t = tables();
    let mut m = 0u16;
    for i in (1..=k as usize).rev() {
        // The highest bit b with C(b, i) ≤ r.
        let mut b = i - 1;
        while b < 16 && t.binom[b + 1][i] <= r {
            b += 1;
        }
        m |= 1 << b;
        r -= t.binom[b][i];
    }
    m
}

/// The dense index of one ply of boards on `n` squares.
#[derive(Copy, Clone)]
pub struct PlyIndex {
    pub squares: u32,
    pub ply: u32,
    /// `C(ply, ⌈ply/2⌉)`: how many ways the X stones sit among the taken squares.
    x_ways: u32,
    tables: &'static Tables,
}

impl std::fmt::Debug for PlyIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PlyIndex {{ squares: {}, ply: {} }}",
            self.squares, self.ply
        )
    }
}

impl PartialEq for PlyIndex {
    fn eq(&self, other: &Self) -> bool {
        (self.squares, self.ply) == (other.squares, other.ply)
    }
}

impl PlyIndex {
    pub fn new(squares: u32, ply: u32) -> PlyIndex {
        assert!(
            squares <= 16 && ply <= squares,
            "ply {ply} on {squares} squares"
        );
        PlyIndex {
            squares,
            ply,
            x_ways: binomial(ply, ply.div_ceil(2)) as u32,
            tables: tables(),
        }
    }

    /// Number of slots: every placement of the ply's stones.
    pub fn len(&self) -> usize {
        binomial(self.squares, self.ply) as usize * self.x_ways as usize
    }

    /// Never empty: even ply 0 has the empty board.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The slot of a board of this ply (the `T` is ignored).
    #[inline]
    pub fn slot(&self, b: Board) -> usize {
        let t = self.tables;
        let taken = b.x | b.o;
        debug_assert_eq!(taken.count_ones(), self.ply);
        let lo = (taken & 0xFF) as usize;
        let x_lo = t.gather[lo << 8 | (b.x & 0xFF) as usize] as usize;
        let x_hi = t.gather[((taken >> 8) as usize) << 8 | (b.x >> 8) as usize] as usize;
        let xc = x_lo | x_hi << lo.count_ones();
        t.colex[taken as usize] as usize * self.x_ways as usize + t.colex[xc] as usize
    }

    /// The board in `slot`, with the `T` on `t`.
    pub fn board(&self, slot: usize, t: u16) -> Board {
        let taken = colex_unrank((slot / self.x_ways as usize) as u32, self.ply);
        let x = expand(
            colex_unrank((slot % self.x_ways as usize) as u32, self.ply.div_ceil(2)),
            taken,
        );
        Board {
            x,
            o: taken & !x,
            t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_round_trip() {
        for m in 0..=u16::MAX {
            let k = m.count_ones();
            assert_eq!(colex_unrank(colex_rank(m), k), m);
            assert!((colex_rank(m) as u64) < binomial(16, k));
        }
    }

    #[test]
    fn compress_matches_expand() {
        for &mask in &[0u16, 0xFFFF, 0xA5A5, 0x8001, 0x0FF0, 0x1234] {
            for v in [0u16, 0xFFFF, 0x5A5A, 0x1357] {
                let c = compress(v, mask);
                assert!(u32::from(c) < 1 << mask.count_ones());
                assert_eq!(expand(c, mask), v & mask);
            }
        }
    }

    #[test]
    fn every_ply_index_is_a_bijection() {
        for squares in [9u32, 16] {
            let mut total = 0;
            for ply in 0..=squares {
                let idx = PlyIndex::new(squares, ply);
                for slot in 0..idx.len() {
                    let b = idx.board(slot, 0);
                    assert_eq!(b.ply(), ply);
                    assert_eq!(b.x.count_ones(), ply.div_ceil(2));
                    assert!(u32::from(b.x | b.o) < 1 << squares);
                    assert_eq!(idx.slot(b), slot, "slot -> board -> slot is the identity");
                }
                total += idx.len();
            }
            if squares == 16 {
                assert_eq!(total, 10_165_779);
            }
        }
    }
}
