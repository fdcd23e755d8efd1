//! Decoding one case of the exact format into a board without a loop over its bytes: the
//! 16 symbols are compared with each of `X`, `O`, `T` and `.` at once (SSE2 on x86_64, word
//! tricks elsewhere).

use super::read::CASE_BYTES;
use crate::tictactoe::board::Board;

pub(super) const ONES: u64 = 0x0101_0101_0101_0101;
pub(super) const HIGH: u64 = 0x8080_8080_8080_8080;

/// Bit 7 of every byte of `v` equal to `sym`, exactly (no borrow crosses bytes).
#[inline(always)]
pub(super) fn lanes_equal(v: u64, sym: u8) -> u64 {
    let y = v ^ (ONES * u64::from(sym));
    !(((y & !HIGH) + !HIGH) | y) & HIGH
}

/// Gathers bit 7 of each of the 8 bytes into one byte, byte i giving bit i.
#[inline(always)]
pub(super) fn pack_lanes(lanes: u64) -> u16 {
    ((lanes >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16
}

/// The squares of a case holding `X`, `O` and `T`, and those holding any of the four symbols.
pub(super) type Masks = (u16, u16, u16, u16);

/// The four rows of a case (at bytes 0, 5, 10 and 15) as little-endian words.
///
/// Written out rather than as `[0, 5, 10, 15].map(..)`: the array's `map` goes through a
/// generic closure call of the standard library that the compiler inlines only when it lands
/// in the same code unit, and `solve` ran 2.8 times the instructions when it did not.
#[inline(always)]
pub(super) fn rows(s: &[u8; CASE_BYTES]) -> [u32; 4] {
    let row = |i: usize| u32::from_le_bytes([s[i], s[i + 1], s[i + 2], s[i + 3]]);
    [row(0), row(5), row(10), row(15)]
}

/// [`Masks`] with plain integer operations: two rows form one `u64` whose eight bytes are
/// compared with a symbol at once.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
pub(super) fn classify_words(s: &[u8; CASE_BYTES]) -> Masks {
    let [r0, r1, r2, r3] = rows(s);
    let [r0, r1, r2, r3] = [r0 as u64, r1 as u64, r2 as u64, r3 as u64];
    let (top, bottom) = (r0 | r1 << 32, r2 | r3 << 32);
    let mask =
        |sym: u8| pack_lanes(lanes_equal(top, sym)) | pack_lanes(lanes_equal(bottom, sym)) << 8;
    let (x, o, t) = (mask(b'X'), mask(b'O'), mask(b'T'));
    (x, o, t, x | o | t | mask(b'.'))
}

/// [`Masks`] with SSE2: the 16 symbols in one vector, one comparison and one bit gathering per
/// symbol. Measured to make the whole `solve` loop about a third faster than the integer
/// version.
///
/// Always inlined, so not a `#[target_feature]` function, which only LLVM inlines, late: as one
/// the readers built the vector from the rows with a longer train of moves and shifts (8 more
/// instructions a case in `solve`). The intrinsics are called directly instead, which SSE2
/// being in the x86_64 baseline allows.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn classify_sse2(s: &[u8; CASE_BYTES]) -> Masks {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set_epi32, _mm_set1_epi8,
    };
    let [r0, r1, r2, r3] = rows(s);
    let [r0, r1, r2, r3] = [r0 as i32, r1 as i32, r2 as i32, r3 as i32];
    // SAFETY: these intrinsics need SSE2 alone, which is part of the x86_64 baseline: every
    // x86_64 processor has it, and the compiler enables it for every x86_64 target.
    unsafe {
        let v = _mm_set_epi32(r3, r2, r1, r0);
        let x = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'X' as i8));
        let o = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'O' as i8));
        let t = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'T' as i8));
        let dot = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'.' as i8));
        let known = _mm_or_si128(_mm_or_si128(x, o), _mm_or_si128(t, dot));
        (
            _mm_movemask_epi8(x) as u16,
            _mm_movemask_epi8(o) as u16,
            _mm_movemask_epi8(t) as u16,
            _mm_movemask_epi8(known) as u16,
        )
    }
}

/// [`Masks`] by the fastest method the target has.
#[inline(always)]
pub(super) fn classify(s: &[u8; CASE_BYTES]) -> Masks {
    #[cfg(target_arch = "x86_64")]
    return classify_sse2(s);
    #[cfg(not(target_arch = "x86_64"))]
    return classify_words(s);
}

/// Decodes a case in the exact format (`RRRR\n` four times, then `\n`) without a loop over
/// its bytes. `None` for anything else, including a second `T`; the line-by-line path then
/// finds out what is wrong.
#[inline(always)]
pub(super) fn decode_case(s: &[u8; CASE_BYTES]) -> Option<Board> {
    let (b, exact) = decode_parts(s);
    exact.then_some(b)
}

/// [`decode_case`] as the board and whether the case is in the exact format (the board means
/// nothing when it is not), so that the batch loop tests the symbols and the `T`s with one
/// branch.
#[inline(always)]
pub(super) fn decode_parts(s: &[u8; CASE_BYTES]) -> (Board, bool) {
    let breaks =
        (s[4] ^ b'\n') | (s[9] ^ b'\n') | (s[14] ^ b'\n') | (s[19] ^ b'\n') | (s[20] ^ b'\n');
    if breaks != 0 {
        return (Board::default(), false);
    }
    let (x, o, t, known) = classify(s);
    let wrong = !known | (t & t.wrapping_sub(1));
    (Board { x, o, t }, wrong == 0)
}
