//! The uniform sampler: boards proposed uniformly among the placements of each ply's stones
//! on a setup's free squares, kept when play reaches them, in staged loops over batches of
//! proposals so that the processor overlaps their table look-ups.

use crate::outcome::Status;
use crate::tictactoe::board::Board;
use crate::tictactoe::rank::{binomial, expand};
use crate::tictactoe::rules::Geometry;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

/// Every 16-bit mask, grouped by number of bits, each group in increasing order. Increasing
/// order among masks of `k` bits is colexicographic order, so entry `r` of group `k` is the
/// `k`-subset of colex rank `r`, and the subsets of the lowest `n` squares come first.
pub(crate) fn subsets(k: u32) -> &'static [u16] {
    static S: OnceLock<Vec<Vec<u16>>> = OnceLock::new();
    &S.get_or_init(|| {
        let mut by = vec![Vec::new(); 17];
        for m in 0..=u16::MAX {
            by[m.count_ones() as usize].push(m);
        }
        by
    })[k as usize]
}

/// One ply of one setup as a range of proposals: every way to put the ply's stones on the
/// setup's free squares.
#[derive(Copy, Clone, Debug)]
pub(super) struct Cell {
    pub(super) t: u16,
    pub(super) ply: u32,
    /// Ways to split the taken squares between X and O.
    pub(super) ways: u64,
    /// Proposals in the cell.
    pub(super) len: u64,
}

impl Cell {
    pub(super) fn new(t: u16, ply: u32) -> Cell {
        let squares = 16 - t.count_ones();
        let ways = binomial(ply, ply.div_ceil(2));
        Cell {
            t,
            ply,
            ways,
            len: binomial(squares, ply) * ways,
        }
    }

    /// Proposal `r` of the cell: the taken squares by colex rank among the free squares, then
    /// X's share of them by colex rank, spread over the taken squares by a bit deposit.
    #[inline(always)]
    pub(super) fn board(&self, r: u32) -> Board {
        self.board_with(r, expand)
    }

    /// [`Cell::board`] with the given bit deposit (the table one, or the PDEP instruction).
    /// With a `T` on square `s`, the taken squares come as a subset of 15 and are spread over
    /// the free squares by moving those at `s` and above up by one.
    #[inline(always)]
    pub(super) fn board_with(&self, r: u32, deposit: impl Fn(u16, u16) -> u16) -> Board {
        let ways = self.ways as u32;
        let mut taken = subsets(self.ply)[(r / ways) as usize];
        if self.t != 0 {
            let below_t = self.t - 1;
            taken = (taken & below_t) | (taken & !below_t) << 1;
        }
        let x = deposit(subsets(self.ply.div_ceil(2))[(r % ways) as usize], taken);
        Board {
            x,
            o: taken & !x,
            t: self.t,
        }
    }
}

/// The status of a proposal if play reaches it, `None` if not: [`crate::tictactoe::reach::check`] cut down to
/// what a proposal can fail. A proposal never has two symbols on a square or more than one
/// `T`, and its cell gives X `⌈ply/2⌉` stones and O `⌊ply/2⌋`, so the turn order always fits;
/// only the tests about lines remain (not both players, the winner moved last, a stone of the
/// winner on every one of its lines). Inlined into the sampling loop, which is compiled with
/// POPCNT where the processor has it. A test holds it to `reach::check` on every proposal of
/// several setups.
#[inline(always)]
pub(super) fn proposal_status(g: &Geometry, b: Board) -> Option<Status> {
    let x_line = g.has_line(b.x | b.t);
    let o_line = g.has_line(b.o | b.t);
    if !x_line && !o_line {
        return Some(if b.filled() == g.full() {
            Status::Draw
        } else {
            Status::Open
        });
    }
    let x_moved_last = (b.x | b.o).count_ones() & 1 == 1;
    let (mine, status) = match (x_line, o_line, x_moved_last) {
        (true, false, true) => (b.x, Status::XWon),
        (false, true, false) => (b.o, Status::OWon),
        _ => return None,
    };
    (g.line_core(mine | b.t) & mine != 0).then_some(status)
}

/// Cells weighted by their sizes: a uniform proposal over all of them.
///
/// A proposal is a uniform `u` below the total, found in its cell through a guide table: the
/// top bits of the random word that gave `u` name a bucket, and the bucket knows the first
/// cell it overlaps, so the search is a step or two instead of a binary search over hundreds
/// of unpredictable branches (measured: it halved the time of a draw).
#[derive(Clone, Debug)]
pub(super) struct Proposals {
    pub(super) cells: Vec<Cell>,
    pub(super) ends: Vec<u64>,
    pub(super) total: u64,
    /// Random words whose low product word falls below this are redrawn: `2^64 mod total`.
    pub(super) threshold: u64,
    /// `guide[b]`: the cell holding the smallest `u` whose random word has top bits `b`.
    pub(super) guide: Vec<u32>,
}

/// Bits of the random word that pick a guide bucket.
pub(super) const GUIDE_BITS: u32 = 12;

impl Proposals {
    pub(super) fn new(cells: Vec<Cell>) -> Proposals {
        let mut ends = Vec::with_capacity(cells.len());
        let mut total = 0;
        for c in &cells {
            total += c.len;
            ends.push(total);
        }
        let guide = (0..1u64 << GUIDE_BITS)
            .map(|b| {
                // The smallest u of bucket b: floor(b · 2^(64 − GUIDE_BITS) · total / 2^64).
                let u = ((u128::from(b) * u128::from(total)) >> GUIDE_BITS) as u64;
                ends.partition_point(|&e| e <= u) as u32
            })
            .collect();
        Proposals {
            cells,
            ends,
            total,
            threshold: total.wrapping_neg() % total,
            guide,
        }
    }

    /// The cell and offset of the proposal the random word `x` gives, or `None` when `x`
    /// falls in the few values that would bias the draw and the next word must be used
    /// instead (Lemire's range draw; the word's top bits also pick the guide bucket).
    #[inline(always)]
    pub(super) fn locate(&self, x: u64) -> Option<(u32, u32)> {
        let m = u128::from(x) * u128::from(self.total);
        if (m as u64) < self.threshold {
            return None;
        }
        let u = (m >> 64) as u64;
        let mut i = self.guide[(x >> (64 - GUIDE_BITS)) as usize] as usize;
        while self.ends[i] <= u {
            i += 1;
        }
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        // A cell holds at most C(16, 8) · C(8, 4) = 900,900 proposals.
        Some((i as u32, (u - start) as u32))
    }

    /// The cell and offset of a uniform proposal.
    #[inline(always)]
    pub(super) fn slot(&self, rng: &mut impl Rng) -> (u32, u32) {
        loop {
            if let Some(s) = self.locate(rng.next_u64()) {
                return s;
            }
        }
    }
}

/// Draws `n` uniform cases: proposals in batches, then the reachable ones kept in order.
///
/// The cases are exactly those of drawing and testing one proposal at a time (the kept ones,
/// in the order drawn); the last batch may draw proposals that are never used, which changes
/// nothing as each block has a stream of its own. Each batch goes through three short loops
/// (random words to cells and offsets, offsets to boards, boards to statuses), so that the
/// processor overlaps the table look-ups of many proposals instead of waiting on each one's
/// before the next (measured: together a third faster than one proposal at a time).
#[inline(always)]
pub(super) fn uniform(
    p: &Proposals,
    g: &Geometry,
    rng: &mut ChaCha8Rng,
    n: usize,
    deposit: impl Fn(u16, u16) -> u16 + Copy,
    mut f: impl FnMut(Board, Status),
) {
    const BATCH: usize = 256;
    let mut slots = [(0, 0); BATCH];
    let mut proposals = [Board::default(); BATCH];
    let mut made = 0;
    while made < n {
        for s in slots.iter_mut() {
            *s = p.slot(rng);
        }
        for (b, &(i, r)) in proposals.iter_mut().zip(&slots) {
            *b = p.cells[i as usize].board_with(r, deposit);
        }
        for &b in &proposals {
            if let Some(s) = proposal_status(g, b) {
                f(b, s);
                made += 1;
                if made == n {
                    return;
                }
            }
        }
    }
}

/// Draws `n` uniform cases with the fastest code the processor runs: [`uniform`] compiled
/// with POPCNT (the reachability test counts stones, a dozen instructions each on the x86_64
/// baseline) and, where it is fast, PDEP for the bit deposit. Same cases in every case.
pub(super) fn uniform_dispatch(
    p: &Proposals,
    g: &Geometry,
    rng: &mut ChaCha8Rng,
    n: usize,
    f: impl FnMut(Board, Status),
) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("popcnt") && has!("bmi2") && fast_pdep() {
            // SAFETY: the processor has POPCNT and BMI2, checked just above.
            return unsafe { uniform_bmi2(p, g, rng, n, f) };
        }
        if has!("popcnt") {
            // SAFETY: the processor has POPCNT, checked just above.
            return unsafe { uniform_popcnt(p, g, rng, n, f) };
        }
    }
    uniform(p, g, rng, n, expand, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
pub(super) fn uniform_popcnt(
    p: &Proposals,
    g: &Geometry,
    rng: &mut ChaCha8Rng,
    n: usize,
    f: impl FnMut(Board, Status),
) {
    uniform(p, g, rng, n, expand, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi2")]
pub(super) fn uniform_bmi2(
    p: &Proposals,
    g: &Geometry,
    rng: &mut ChaCha8Rng,
    n: usize,
    f: impl FnMut(Board, Status),
) {
    // [`expand`] as one instruction; the closure inherits this function's target features.
    let pdep =
        |v: u16, mask: u16| std::arch::x86_64::_pdep_u32(u32::from(v), u32::from(mask)) as u16;
    uniform(p, g, rng, n, pdep, f)
}

/// Whether PDEP is a single fast instruction. AMD processors before Zen 3 (family 19h) run it
/// in microcode at dozens of cycles per set bit of the mask, slower than the byte tables.
/// Asked once: CPUID is slow, and in a virtual machine it traps to the host.
#[cfg(target_arch = "x86_64")]
pub(super) fn fast_pdep() -> bool {
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(|| {
        use std::arch::x86_64::__cpuid;
        let vendor = __cpuid(0);
        // "AuthenticAMD", in the order CPUID returns it.
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
        let signature = __cpuid(1).eax;
        let base = (signature >> 8) & 0xF;
        let family = if base == 0xF {
            base + ((signature >> 20) & 0xFF)
        } else {
            base
        };
        !amd || family >= 0x19
    })
}
