//! Writing inputs and answers: case texts from row tables, and [`AnswerWriter`], which fills
//! a reused buffer and writes case numbers as decimal digits built in place.

use super::read::CASE_BYTES;
use crate::outcome::Status;
use crate::tictactoe::board::Board;
use std::io::{self, Write};

/// Appends the count line of an input.
pub fn push_count(buf: &mut Vec<u8>, count: u64) {
    push_number(buf, count);
    buf.push(b'\n');
}

/// The text of every row: `ROW_TEXT[x << 8 | o << 4 | t]` for the row's 4-bit X, O and `T`
/// masks (X wins a clash, as in [`Board::symbol`]), so a row is one look-up, not four tests.
pub(super) static ROW_TEXT: [[u8; 4]; 4096] = {
    let mut table = [[0u8; 4]; 4096];
    let mut i = 0;
    while i < 4096 {
        let mut c = 0;
        while c < 4 {
            let bit = 1 << c;
            table[i][c] = if (i >> 8) & bit != 0 {
                b'X'
            } else if (i >> 4) & bit != 0 {
                b'O'
            } else if i & bit != 0 {
                b'T'
            } else {
                b'.'
            };
            c += 1;
        }
        i += 1;
    }
    table
};

/// A case as Code Jam text: four rows and the empty line that ends every case.
#[inline]
pub fn case_text(b: Board) -> [u8; CASE_BYTES] {
    let mut out = [b'\n'; CASE_BYTES];
    for r in 0..4 {
        let nib = |m: u16| ((m >> (4 * r)) & 0xF) as usize;
        let row = ROW_TEXT[nib(b.x) << 8 | nib(b.o) << 4 | nib(b.t)];
        out[5 * r..5 * r + 4].copy_from_slice(&row);
    }
    out
}

/// Appends a case as Code Jam text: four rows and the empty line that ends every case.
#[inline]
pub fn push_case(buf: &mut Vec<u8>, b: Board) {
    buf.extend_from_slice(&case_text(b));
}

/// Writes a whole input: the count, then every board.
pub fn write_input<W: Write>(out: &mut W, boards: &[Board]) -> io::Result<()> {
    let mut buf = Vec::with_capacity(16 + boards.len() * CASE_BYTES);
    push_count(&mut buf, boards.len() as u64);
    for &b in boards {
        push_case(&mut buf, b);
    }
    out.write_all(&buf)
}

/// Appends `n` in decimal without going through `fmt`.
pub fn push_number(buf: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}

/// The answers with their newline, in [`Status::ALL`] order.
pub(super) const ANSWER_LINES: [&[u8]; 4] = [
    b"X won\n",
    b"O won\n",
    b"Draw\n",
    b"Game has not completed\n",
];

/// Appends one answer line, `Case #x: status\n`, for any case number.
pub fn push_answer(buf: &mut Vec<u8>, case: u64, status: Status) {
    buf.extend_from_slice(b"Case #");
    push_number(buf, case);
    buf.extend_from_slice(b": ");
    buf.extend_from_slice(ANSWER_LINES[status.index()]);
}

/// The answers as the tail of a line (`: ` answer newline), each padded to 32 bytes so that
/// copying one is a fixed-size move, with their real lengths. In [`Status::ALL`] order.
pub(super) const ANSWER_TAILS: [([u8; 32], usize); 4] = {
    let mut tails = [([0u8; 32], 0); 4];
    let mut k = 0;
    while k < 4 {
        tails[k] = tail_of(ANSWER_LINES[k]);
        k += 1;
    }
    tails
};

/// `: ` and `line` (an answer and its newline), padded to 32 bytes, with its real length.
const fn tail_of(line: &[u8]) -> ([u8; 32], usize) {
    let mut tail = [0u8; 32];
    tail[0] = b':';
    tail[1] = b' ';
    let mut i = 0;
    while i < line.len() {
        tail[2 + i] = line[i];
        i += 1;
    }
    (tail, 2 + line.len())
}

/// The words a Code Jam answer line ends with, one per status: Code Jam's own, or those of a
/// description that judges as Code Jam does but names its answers otherwise (`Tie` for
/// `Draw`), so that such a description keeps this path's speed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerWords {
    /// Line tails as in [`ANSWER_TAILS`].
    tails: [([u8; 32], usize); 4],
    /// The longest of them.
    longest: usize,
}

/// The longest answer [`AnswerWords`] takes: with `: ` and a newline, a tail fills one
/// 32-byte store.
pub const MAX_ANSWER_BYTES: usize = 29;

impl AnswerWords {
    /// Code Jam's words.
    pub const CODE_JAM: AnswerWords = AnswerWords {
        tails: ANSWER_TAILS,
        longest: LONGEST_TAIL,
    };

    /// The words of each status, in [`Status::ALL`] order; `None` when one is longer than
    /// [`MAX_ANSWER_BYTES`], empty, or holds a line break.
    pub fn new(words: [&str; 4]) -> Option<AnswerWords> {
        let mut tails = [([0u8; 32], 0); 4];
        for (tail, w) in tails.iter_mut().zip(words) {
            if w.is_empty() || w.len() > MAX_ANSWER_BYTES || w.contains(['\n', '\r']) {
                return None;
            }
            let mut line = w.as_bytes().to_vec();
            line.push(b'\n');
            *tail = tail_of(&line);
        }
        let longest = tails.iter().map(|t| t.1).max().unwrap_or(0);
        Some(AnswerWords { tails, longest })
    }

    /// The answer of a status, without its newline.
    pub fn word(&self, status: Status) -> &[u8] {
        let (tail, len) = &self.tails[status.index()];
        &tail[2..len - 1]
    }
}

impl Default for AnswerWords {
    fn default() -> AnswerWords {
        AnswerWords::CODE_JAM
    }
}

/// `0x01` in each of the 16 bytes of a `u128`.
pub(super) const BYTE_ONES: u128 = u128::MAX / 0xFF;

/// Most digits a case number may have for the fast path: `Case #` and the digits must fit in
/// the 16 bytes of one store.
pub(super) const FAST_DIGITS: usize = 10;

/// Writes `Case #x: status` lines for cases 1, 2, 3, … into a reused buffer.
///
/// This is most of the work of `solve`, so a line is two fixed-size stores and no call:
/// `Case #` with the case number (16 bytes, held in a register), then the answer (32 bytes,
/// from a table), the second store overwriting the padding of the first. The number is
/// incremented in the register; incrementing digits in a byte array and then copying the
/// array stalls the processor (a wide load of freshly stored bytes cannot be forwarded) and
/// took a third of the time. The buffer goes to the output whenever it passes 64 KiB, always at
/// a line end.
pub struct AnswerWriter<W: Write> {
    out: W,
    /// Room for the lines held before a write, plus one line and the padding of its last
    /// store.
    buf: Vec<u8>,
    /// Buffered bytes that trigger a write: [`FLUSH_AT`], or never for a writer that keeps
    /// its lines (see [`AnswerWriter::keeping`]).
    flush_at: usize,
    len: usize,
    /// The case number of the next line.
    next: u64,
    /// `Case #` and the digits of `next`, in reading order from the most significant byte
    /// (stored big-endian), zeros after the last digit.
    prefix: u128,
    /// Bytes of `prefix` in use: 6 plus the number of digits; 0 when the number is too long
    /// for the fast path.
    prefix_len: usize,
    /// 1 in the last digit's byte of `prefix`.
    unit: u128,
    /// How many more times the last digit can grow before it carries.
    room: u8,
    /// `0x01` in each digit's byte of `prefix`.
    digit_ones: u128,
    /// The first number with more digits, where `prefix` must be rebuilt.
    limit: u64,
    /// The answer of each status.
    words: AnswerWords,
}

/// Buffered bytes that trigger a write.
pub(super) const FLUSH_AT: usize = 1 << 16;

/// The longest tail of a line, `: Game has not completed` and its newline.
const LONGEST_TAIL: usize = 25;

const _: () = {
    let mut k = 0;
    while k < ANSWER_TAILS.len() {
        assert!(ANSWER_TAILS[k].1 <= LONGEST_TAIL);
        k += 1;
    }
    assert!(6 + FAST_DIGITS <= 16 && 16 + 32 <= STORE_BYTES && STORE_BYTES <= LINE_ROOM);
    // The longest line: `Case #`, 20 digits, then `: `, the answer and its newline.
    let longest_tail = 2 + MAX_ANSWER_BYTES + 1;
    assert!(longest_tail <= 32 && 6 + 20 + longest_tail <= LINE_ROOM);
};

/// Bytes from a line's start that the fast path's two stores may touch: a 16-byte prefix
/// store, then the 32-byte tail store from at most 16 bytes on.
const STORE_BYTES: usize = 48;

/// Room a line may take in the buffer: the longest line (`Case #`, 20 digits and a tail of at
/// most 32 bytes is 58) or the 48 bytes of the fast path's two stores.
pub(super) const LINE_ROOM: usize = 64;

impl AnswerWriter<io::Sink> {
    /// A writer that keeps its lines in `buf` instead of writing them, for at most `lines`
    /// lines from case `first` on: a text built in memory is then written once, not copied
    /// from a staging buffer. `buf` is grown (never shrunk) to fit, so a buffer reused for
    /// the same number of lines is never cleared again.
    pub fn keeping(mut buf: Vec<u8>, first: u64, lines: usize) -> AnswerWriter<io::Sink> {
        let room = (lines + 1) * LINE_ROOM;
        if buf.len() < room {
            buf.resize(room, 0);
        }
        AnswerWriter::with_buffer(io::sink(), first, buf, usize::MAX)
    }

    /// The buffer of a [`AnswerWriter::keeping`] writer and the length of the text in it.
    pub fn into_kept(self) -> (Vec<u8>, usize) {
        (self.buf, self.len)
    }
}

impl<W: Write> AnswerWriter<W> {
    /// A writer whose first line is case 1.
    pub fn new(out: W) -> AnswerWriter<W> {
        AnswerWriter::starting_at(out, 1)
    }

    /// A writer whose first line is case `first` (to continue a numbering elsewhere).
    pub fn starting_at(out: W, first: u64) -> AnswerWriter<W> {
        AnswerWriter::with_buffer(out, first, vec![0; FLUSH_AT + LINE_ROOM], FLUSH_AT)
    }

    fn with_buffer(out: W, first: u64, buf: Vec<u8>, flush_at: usize) -> AnswerWriter<W> {
        let mut w = AnswerWriter {
            out,
            buf,
            flush_at,
            len: 0,
            next: first,
            prefix: 0,
            prefix_len: 0,
            unit: 0,
            room: 0,
            digit_ones: 0,
            limit: 0,
            words: AnswerWords::CODE_JAM,
        };
        w.set_number();
        w
    }

    /// The writer with other answer words than Code Jam's.
    pub fn answering(mut self, words: &AnswerWords) -> AnswerWriter<W> {
        self.words = words.clone();
        self
    }

    /// The number the next line will carry.
    pub fn next_case(&self) -> u64 {
        self.next
    }

    /// Rebuilds `prefix` for `next`, when it gains a digit.
    #[cold]
    #[inline(never)]
    fn set_number(&mut self) {
        let mut text = b"Case #".to_vec();
        push_number(&mut text, self.next);
        let width = text.len() - 6;
        if width > FAST_DIGITS {
            self.prefix_len = 0;
            self.limit = u64::MAX;
            return;
        }
        let mut bytes = [0u8; 16];
        bytes[..text.len()].copy_from_slice(&text);
        let shift = 8 * (16 - text.len()) as u32;
        self.prefix = u128::from_be_bytes(bytes);
        self.prefix_len = text.len();
        self.unit = 1 << shift;
        self.room = b'9' - text[text.len() - 1];
        self.digit_ones = (BYTE_ONES >> (8 * (16 - width))) << shift;
        self.limit = 10u64.pow(width as u32);
    }

    /// Writes the answer of the next case.
    #[inline]
    pub fn push(&mut self, status: Status) -> io::Result<()> {
        if self.next < self.limit && self.prefix_len > 0 {
            self.put_line(status);
        } else {
            self.push_slow(status);
        }
        if self.len >= self.flush_at {
            self.write_out()?;
        }
        Ok(())
    }

    /// Appends the line of the next case; `prefix` must be valid for it.
    #[inline(always)]
    fn put_line(&mut self, status: Status) {
        let (tail, tail_len) = &self.words.tails[status.index()];
        let at = self.len;
        self.buf[at..at + 16].copy_from_slice(&self.prefix.to_be_bytes());
        let at = at + self.prefix_len;
        self.buf[at..at + 32].copy_from_slice(tail);
        self.len = at + tail_len;
        self.next += 1;
        if self.room > 0 {
            self.room -= 1;
            self.prefix += self.unit;
        } else {
            self.prefix = carry(self.prefix, self.unit, self.digit_ones);
            self.room = 9;
        }
    }

    /// Writes the answers of the next `statuses.len()` cases.
    pub fn push_all(&mut self, statuses: &[Status]) -> io::Result<()> {
        let mut done = 0;
        while done < statuses.len() {
            done += self.push_run(&statuses[done..]);
            if self.len >= self.flush_at {
                self.write_out()?;
            } else if let Some(&s) = statuses.get(done) {
                // A number that gains a digit, or one too long for the fast path.
                self.push(s)?;
                done += 1;
            }
        }
        Ok(())
    }

    /// Writes lines on the fast path until the buffer is full or the number needs more
    /// digits; returns how many. The same work as [`AnswerWriter::put_line`], but on local
    /// copies of the fields, which the compiler keeps in registers for the whole loop.
    ///
    /// The lines that surely fit are counted first (each at most `prefix_len` plus the longest
    /// tail), so the loop itself tests nothing but the carry of the last digit: no test of
    /// the buffer's end or of the number's width per line. A run that stops short of the
    /// flush point leaves the last few lines before it to [`AnswerWriter::push_all`].
    #[inline]
    fn push_run(&mut self, statuses: &[Status]) -> usize {
        let (len, prefix_len) = (self.len, self.prefix_len);
        if prefix_len == 0 || len >= self.flush_at || len + STORE_BYTES > self.buf.len() {
            return 0;
        }
        let most = prefix_len + self.words.longest;
        // Line i starts at most `i * most` bytes after `len`: it must start before the flush
        // point, and its stores must end inside the buffer.
        let by_flush = (self.flush_at - 1 - len) / most + 1;
        let by_room = (self.buf.len() - STORE_BYTES - len) / most + 1;
        let by_digits = usize::try_from(self.limit - self.next).unwrap_or(usize::MAX);
        let n = statuses.len().min(by_flush).min(by_room).min(by_digits);

        // The prefix in text order (the bytes of a little-endian store), so a line stores it
        // without swapping bytes; adding the last digit's unit touches that byte alone in
        // either order, only the carry works on the number's reading order.
        let mut text = self.prefix.swap_bytes();
        let unit_text = self.unit.swap_bytes();
        let (unit, digit_ones, mut room) = (self.unit, self.digit_ones, self.room);
        // A copy on the stack: the stores through `out` cannot be taken to change it.
        let tails = self.words.tails;
        let step = tails.map(|(_, tail_len)| prefix_len + tail_len);
        let out = self.buf.as_mut_ptr();
        let mut at = len;
        for &status in &statuses[..n] {
            let i = status.index();
            debug_assert!(at < self.flush_at && at + STORE_BYTES <= self.buf.len());
            // SAFETY: `at` is at most `len + k * most` for the k-th line of the run, and `n`
            // was chosen so that `len + (n - 1) * most + STORE_BYTES <= buf.len()`; the two
            // stores end `prefix_len + 32 <= STORE_BYTES` bytes after `at`, inside the buffer.
            unsafe {
                out.add(at)
                    .cast::<[u8; 16]>()
                    .write_unaligned(text.to_le_bytes());
                out.add(at + prefix_len)
                    .cast::<[u8; 32]>()
                    .write_unaligned(tails[i].0);
            }
            at += step[i];
            if room > 0 {
                room -= 1;
                text += unit_text;
            } else {
                text = carry(text.swap_bytes(), unit, digit_ones).swap_bytes();
                room = 9;
            }
        }
        self.len = at;
        self.next += n as u64;
        self.prefix = text.swap_bytes();
        self.room = room;
        n
    }

    /// The line of a case that has just gained a digit, or of a number too long for the fast
    /// path.
    #[cold]
    #[inline(never)]
    fn push_slow(&mut self, status: Status) {
        if self.next >= self.limit {
            self.set_number();
        }
        if self.prefix_len > 0 {
            return self.put_line(status);
        }
        let mut line = Vec::with_capacity(LINE_ROOM);
        line.extend_from_slice(b"Case #");
        push_number(&mut line, self.next);
        let (tail, tail_len) = &self.words.tails[status.index()];
        line.extend_from_slice(&tail[..*tail_len]);
        self.buf[self.len..self.len + line.len()].copy_from_slice(&line);
        self.len += line.len();
        self.next += 1;
    }

    /// Hands the buffer to the output; out of line, as it runs once per 64 KiB.
    #[inline(never)]
    fn write_out(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf[..self.len])?;
        self.len = 0;
        Ok(())
    }

    /// Writes what is buffered and flushes the output.
    pub fn flush(&mut self) -> io::Result<()> {
        self.write_out()?;
        self.out.flush()
    }

    /// Flushes and returns the output (for example an `AtomicFile` to commit).
    pub fn finish(mut self) -> io::Result<W> {
        self.flush()?;
        Ok(self.out)
    }
}

/// Adds one to the number ending in 9 in a prefix whose last digit is at `unit` and whose
/// digits are at `digit_ones`, without leaving registers. Each digit byte is first raised by
/// `0xC6`, so that a 9 becomes `0xFF` and the added 1 carries through every trailing 9 as
/// through binary ones; bytes that wrapped to 0 then become `0` digits and the others drop back
/// by `0xC6`. No byte borrows from or carries into its neighbour except through that one
/// addition. When every digit was 9 the carry reaches the `#`, and the next line rebuilds the
/// prefix anyway.
#[inline]
pub(super) fn carry(prefix: u128, unit: u128, digit_ones: u128) -> u128 {
    let raise = digit_ones * 0xC6;
    let raised = prefix.wrapping_add(raise).wrapping_add(unit);
    let kept = ((raised >> 7) & digit_ones) * 0xFF;
    let wrapped = (digit_ones * 0xFF) & !kept;
    ((raised - (raise & kept)) & !wrapped) | ((digit_ones * 0x30) & wrapped)
}
