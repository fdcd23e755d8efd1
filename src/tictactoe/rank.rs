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

use crate::tictactoe::board::Board;
use std::sync::OnceLock;

struct Tables {
    /// `binom[n][k]` for n, k ≤ 16.
    binom: [[u32; 17]; 17],
    /// Colexicographic rank of every 16-bit mask among the masks of its popcount.
    colex: Vec<u16>,
    /// `gather[m][v]`: the bits of `v` under the byte mask `m`, packed low.
    gather: Vec<u8>,
    /// `scatter[m][v]`: the low bits of `v` spread over the set bits of the byte mask `m`.
    scatter: Vec<u8>,
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
        let mut scatter = vec![0u8; 256 * 256];
        for m in 0..256usize {
            for v in 0..256usize {
                let (mut out, mut j) = (0u8, 0);
                for b in 0..8 {
                    if m >> b & 1 == 1 {
                        out |= ((v >> j & 1) as u8) << b;
                        j += 1;
                    }
                }
                scatter[m << 8 | v] = out;
            }
        }
        Tables {
            binom,
            colex,
            gather,
            scatter,
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

/// Inverse of [`compress`]: spreads the low bits of `v` over the set bits of `mask` (a
/// 16-bit PDEP, with the same byte tables run backwards).
#[inline]
pub fn expand(v: u16, mask: u16) -> u16 {
    let s = &tables().scatter;
    let lo_mask = (mask & 0xFF) as usize;
    let lo = s[lo_mask << 8 | (v & 0xFF) as usize] as u16;
    let hi = s[((mask >> 8) as usize) << 8 | (v >> lo_mask.count_ones() & 0xFF) as usize] as u16;
    lo | hi << 8
}

/// The next larger mask with as many bits as `m` (`m` non-zero): colexicographic order of
/// k-subsets is plain numeric order, so this steps a rank up by one. The lowest run of ones
/// moves its top bit up by one and the rest of the run drops to the bottom.
#[inline]
fn next_colex(m: u16) -> u16 {
    let m = m as u32;
    let low = m & m.wrapping_neg();
    let ripple = m + low;
    (ripple | (((ripple ^ m) >> 2) / low)) as u16
}

/// For each ply, the X patterns (`⌈ply/2⌉`-subsets of the ply's stones, compressed) in
/// colexicographic order, so decoding a slot needs no unranking loop.
fn x_patterns(ply: u32) -> &'static [u16] {
    static P: OnceLock<Vec<Vec<u16>>> = OnceLock::new();
    &P.get_or_init(|| {
        (0..=16u32)
            .map(|p| {
                let k = p.div_ceil(2);
                let n = binomial(p, k) as usize;
                let mut out = Vec::with_capacity(n);
                let mut m: u16 = if k == 0 { 0 } else { ((1u32 << k) - 1) as u16 };
                for _ in 0..n {
                    out.push(m);
                    if m != 0 {
                        m = next_colex(m);
                    }
                }
                out
            })
            .collect()
    })[ply as usize]
}

/// The X pattern `p` with a bit `x` (0 or 1) put in at place `j`: the pattern of a board
/// that gained a stone on the square that comes `j`-th among its taken squares.
#[inline]
pub fn insert_bit(p: u32, j: u32, x: u32) -> u32 {
    (p & ((1 << j) - 1)) | x << j | (p >> j) << (j + 1)
}

/// The X pattern `p` with its bit `j` taken out: the pattern of a board that lost the stone
/// on its `j`-th taken square.
#[inline]
pub fn remove_bit(p: u32, j: u32) -> u32 {
    (p & ((1 << j) - 1)) | (p >> (j + 1)) << j
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

/// Turns slots of one ply into boards quickly when they come in increasing order, as when a
/// table is scanned: the taken squares change only every `C(k, ⌈k/2⌉)` slots and then step to
/// the next mask in colex order, and the X pattern is a table look-up.
pub struct SlotDecoder {
    index: PlyIndex,
    patterns: &'static [u16],
    rank: usize,
    taken: u16,
}

impl SlotDecoder {
    /// The board in `slot`, with the `T` on `t`.
    #[inline]
    pub fn board(&mut self, slot: usize, t: u16) -> Board {
        let (taken, pattern) = self.parts(slot);
        let x = expand(pattern, taken);
        Board {
            x,
            o: taken & !x,
            t,
        }
    }

    /// The two halves of `slot`: the taken squares, and the X pattern (which of the taken
    /// squares hold X, bit `j` standing for the `j`-th lowest taken square).
    #[inline]
    pub fn parts(&mut self, slot: usize) -> (u16, u16) {
        let ways = self.index.x_ways as usize;
        let rank = slot / ways;
        if rank != self.rank {
            self.taken = if rank == self.rank + 1 && self.taken != 0 {
                next_colex(self.taken)
            } else {
                colex_unrank(rank as u32, self.index.ply)
            };
            self.rank = rank;
        }
        (self.taken, self.patterns[slot % ways])
    }
}

/// The dense index of one ply of boards on `n` squares.
#[derive(Copy, Clone)]
pub struct PlyIndex {
    /// Squares on the board.
    pub squares: u32,
    /// Stones on the boards indexed.
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
    /// The index of the boards with `ply` stones on `squares` squares.
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

    /// For the boards of the previous ply whose taken squares are `taken`, and each square
    /// `s` outside them: how many taken squares lie below `s` (`below[s]`, the place a stone
    /// on `s` takes in the X pattern, see [`insert_bit`]) and the first slot of this ply's
    /// boards with the taken squares `taken` and `s` (`base[s]`). With them a child's slot is
    /// `base[s] + colex_rank(insert_bit(pattern, below[s], x))`, with no board to rebuild.
    pub fn child_bases(&self, taken: u16, below: &mut [u32; 16], base: &mut [usize; 16]) {
        let mut j = 0;
        for s in 0..self.squares as usize {
            if taken >> s & 1 == 1 {
                j += 1;
            } else if self.ply > 0 {
                below[s] = j;
                base[s] = self.taken_base(taken | 1 << s);
            }
        }
    }

    /// `C(ply, ⌈ply/2⌉)`: the slots that share their taken squares, one per X pattern.
    pub fn x_ways(&self) -> usize {
        self.x_ways as usize
    }

    /// The first slot of the boards whose taken squares are `taken` (of this ply's size).
    #[inline]
    pub fn taken_base(&self, taken: u16) -> usize {
        self.tables.colex[taken as usize] as usize * self.x_ways as usize
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

    /// A decoder for slots visited in increasing order.
    pub fn decoder(&self) -> SlotDecoder {
        SlotDecoder {
            index: *self,
            patterns: x_patterns(self.ply),
            rank: 0,
            taken: colex_unrank(0, self.ply),
        }
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
                let mut dec = idx.decoder();
                for slot in 0..idx.len() {
                    let b = idx.board(slot, 0);
                    assert_eq!(b.ply(), ply);
                    assert_eq!(b.x.count_ones(), ply.div_ceil(2));
                    assert!(u32::from(b.x | b.o) < 1 << squares);
                    assert_eq!(idx.slot(b), slot, "slot -> board -> slot is the identity");
                    assert_eq!(dec.board(slot, 0), b, "the sequential decoder agrees");
                }
                total += idx.len();
            }
            if squares == 16 {
                assert_eq!(total, 10_165_779);
            }
        }
    }
}
