//! The Code Jam text format, read and written as a stream.
//!
//! An input is a line holding the number of cases, then for every case four rows of four
//! symbols (`X`, `O`, `T`, `.`) and one empty line. Inputs may be far larger than memory (the
//! benchmark uses ten million cases), so [`CaseReader`] reads fixed-size chunks and hands out
//! one board at a time, and [`AnswerWriter`] fills a reused buffer; neither ever holds more
//! than a chunk.
//!
//! The reader has two modes. [`Strictness::Lenient`] is for answering inputs that come from
//! anywhere (a file saved on Windows, a hand-edited case): it forgives line-ending and blank-
//! line noise but never a wrong board. [`Strictness::Strict`] is for judging test data, which
//! must match the format byte for byte. Both report the first problem as a [`ParseError`]
//! pointing at a file, a line and a case.

use crate::board::{Board, Status};
use crate::eval::{Bits, Evaluator, EvaluatorKind, Lines, Pattern, Table};
use std::fmt;
use std::io::{self, Read, Write};

/// How closely the input must follow the Code Jam format.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strictness {
    /// Accepts CRLF line endings, trailing spaces and tabs, any number of empty lines between
    /// cases (none included) and after the last one, leading zeros in the count, and a last
    /// line without a newline. Boards, the count and the number of cases must still be right.
    #[default]
    Lenient,
    /// Exactly the format: the count without leading zeros or blanks (at least 1), four rows
    /// of four symbols, exactly one empty line after every case including the last, LF line
    /// endings only, no trailing blanks, a final newline and nothing after the last case.
    Strict,
}

/// A problem in an input: where it is and what is wrong.
///
/// Displays as `FILE:LINE: case N: message`, or `FILE:LINE: message` outside any case, the
/// form compilers use so that editors and terminals can jump to the spot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The input's name: its path, or `<stdin>`.
    pub file: String,
    /// 1-based line number of the offending line (for a premature end, the line where the
    /// input ends).
    pub line: u64,
    /// 1-based number of the case the line belongs to, if any.
    pub case: Option<u64>,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: ", self.file, self.line)?;
        if let Some(n) = self.case {
            write!(f, "case {n}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// Bytes asked of the source per read: enough to keep system calls rare, few enough for the
/// buffer to stay in the second-level cache (measured a little faster than 1 MiB). The buffer
/// is the only memory the reader holds, so memory stays flat whatever the input size.
const CHUNK: usize = 1 << 17;

/// Bytes of one case in the exact format: four rows of 4 symbols and a newline, then the
/// empty line.
pub const CASE_BYTES: usize = 21;

/// How many leading bytes of a line are kept for checking and for error messages. Anything
/// valid is shorter (a count has at most 20 digits, a row 4 symbols); longer lines are wrong
/// and only their length matters.
const KEEP: usize = 32;

/// One line as the slow path sees it: its first bytes and its lengths, never the whole of it,
/// so a gigabyte-long line costs no memory.
struct Line {
    number: u64,
    head: [u8; KEEP],
    /// Bytes before the `\n` (or the end of input).
    raw_len: u64,
    /// `raw_len` without trailing spaces, tabs and carriage returns.
    trimmed_len: u64,
    /// The last byte before the `\n`, if any.
    last: Option<u8>,
    /// Whether a `\n` ended the line (false only for the last line of an input).
    newline: bool,
}

impl Line {
    /// The kept part of the first `len` bytes.
    fn head(&self, len: u64) -> &[u8] {
        &self.head[..len.min(KEEP as u64) as usize]
    }

    /// Nothing but spaces, tabs and carriage returns.
    fn is_blank(&self) -> bool {
        self.trimmed_len == 0
    }

    /// The line quoted for a message, shortened when long.
    fn show(&self) -> String {
        let head = self.head(self.raw_len);
        if self.raw_len > head.len() as u64 {
            format!(
                "\"{}\"... ({} bytes)",
                crate::escape::escape(head),
                self.raw_len
            )
        } else {
            format!("\"{}\"", crate::escape::escape(head))
        }
    }

    /// What is wrong with the end of a line that strict mode refuses: a carriage return or
    /// blanks after the content.
    fn trailing_problem(&self) -> Option<&'static str> {
        if self.raw_len == self.trimmed_len {
            None
        } else if self.raw_len == self.trimmed_len + 1 && self.last == Some(b'\r') {
            Some("the line ends with CRLF; only LF line endings are allowed")
        } else {
            Some("trailing whitespace at the end of the line")
        }
    }
}

/// Where the reader is in the input.
#[derive(Clone, Debug)]
enum Phase {
    Header,
    Cases,
    Done,
    Failed(Box<ParseError>),
}

/// A streaming reader of a Code Jam input, yielding `(case number, board)` pairs.
///
/// It reads its source in chunks of 128 KiB into its own buffer, so any [`Read`] works well,
/// buffered or not. Boards in the exact format take a fast path that checks and decodes the
/// 21 bytes of a case at once; anything else goes through a line-by-line path that also
/// produces the error messages, so both modes accept and reject exactly the same inputs
/// whichever path a case takes.
///
/// After the last case the rest of the input is checked; the first problem ends the stream
/// with an error, and every later call returns the same error.
pub struct CaseReader<R> {
    src: R,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    eof: bool,
    file: String,
    mode: Strictness,
    /// Number of the line that starts at `pos`.
    line: u64,
    count: u64,
    next: u64,
    phase: Phase,
}

impl<R: Read> CaseReader<R> {
    /// A reader of `src`, named `file` in error messages (use `<stdin>` for standard input).
    pub fn new(src: R, file: impl Into<String>, mode: Strictness) -> CaseReader<R> {
        CaseReader {
            src,
            buf: vec![0; CHUNK].into_boxed_slice(),
            pos: 0,
            end: 0,
            eof: false,
            file: file.into(),
            mode,
            line: 1,
            count: 0,
            next: 1,
            phase: Phase::Header,
        }
    }

    /// The name used in error messages.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The mode given at creation.
    pub fn mode(&self) -> Strictness {
        self.mode
    }

    /// The number of cases the first line announces, reading it if no case was read yet.
    pub fn case_count(&mut self) -> Result<u64, ParseError> {
        if let Phase::Header = self.phase {
            self.guard(|r| {
                r.read_header()?;
                r.phase = Phase::Cases;
                Ok(())
            })?;
        }
        match &self.phase {
            Phase::Failed(e) => Err((**e).clone()),
            _ => Ok(self.count),
        }
    }

    /// Number of the line the reader stands at: after the whole input, the line where it ends.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The next case, `None` once the last one was read and the rest of the input checked.
    ///
    /// Always inlined: the fast path is a handful of instructions, and a call would return
    /// the board through memory, which costs more than decoding it.
    #[inline(always)]
    pub fn next_case(&mut self) -> Result<Option<(u64, Board)>, ParseError> {
        if let Phase::Cases = self.phase
            && self.next <= self.count
            && let Some(window) = self.buf[self.pos..self.end].first_chunk::<CASE_BYTES>()
            && let Some(b) = decode_case(window)
        {
            self.pos += CASE_BYTES;
            self.line += 5;
            self.next += 1;
            return Ok(Some((self.next - 1, b)));
        }
        self.guard(CaseReader::step)
    }

    /// Reads the next cases into `boards`, as many as fit; returns how many, 0 once the input
    /// is done.
    ///
    /// Same cases and errors as [`CaseReader::next_case`], but cases in the exact format are
    /// decoded in a loop that keeps its position in registers, which is what lets `solve` run
    /// at the speed of reading. A problem in the input is returned once the cases before it
    /// have been handed out: a call that read some cases returns them, the next call returns
    /// the error.
    pub fn read_batch(&mut self, boards: &mut [Board]) -> Result<usize, ParseError> {
        let mut n = 0;
        while n < boards.len() {
            n += self.decode_run(&mut boards[n..]);
            if n == boards.len() {
                break;
            }
            match self.guard(CaseReader::step) {
                Ok(Some((_, b))) => {
                    boards[n] = b;
                    n += 1;
                }
                Ok(None) => break,
                Err(e) if n == 0 => return Err(e),
                // The reader is now failed and says so on the next call.
                Err(_) => break,
            }
        }
        Ok(n)
    }

    /// Decodes the cases in the exact format that follow in the buffer, up to `boards.len()`
    /// and the announced count.
    #[inline]
    fn decode_run(&mut self, boards: &mut [Board]) -> usize {
        if !matches!(self.phase, Phase::Cases) || self.next > self.count {
            return 0;
        }
        let left = (self.count - self.next).saturating_add(1);
        let max = boards
            .len()
            .min(usize::try_from(left).unwrap_or(usize::MAX));
        let avail = &self.buf[self.pos..self.end];
        let mut n = 0;
        while n < max
            && let Some(window) = avail[n * CASE_BYTES..].first_chunk::<CASE_BYTES>()
            && let Some(b) = decode_case(window)
        {
            boards[n] = b;
            n += 1;
        }
        self.pos += n * CASE_BYTES;
        self.next += n as u64;
        self.line += 5 * n as u64;
        n
    }

    /// Runs `f`, remembering a failure so that the stream stays failed.
    #[inline(never)]
    fn guard<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, ParseError>,
    ) -> Result<T, ParseError> {
        let result = f(self);
        if let Err(e) = &result {
            self.phase = Phase::Failed(Box::new(e.clone()));
        }
        result
    }

    /// Everything the fast paths of [`CaseReader::next_case`] and [`CaseReader::read_batch`]
    /// do not handle: the header, refilling the buffer, cases off the exact format, errors and
    /// the end of the input.
    fn step(&mut self) -> Result<Option<(u64, Board)>, ParseError> {
        if let Phase::Header = self.phase {
            self.read_header()?;
            self.phase = Phase::Cases;
        }
        match &self.phase {
            Phase::Failed(e) => return Err((**e).clone()),
            Phase::Done => return Ok(None),
            Phase::Header | Phase::Cases => {}
        }
        if self.next > self.count {
            self.check_end()?;
            self.phase = Phase::Done;
            return Ok(None);
        }
        self.fill(CASE_BYTES)?;
        let fast = self.buf[self.pos..self.end]
            .first_chunk::<CASE_BYTES>()
            .and_then(decode_case);
        let b = match fast {
            Some(b) => {
                self.pos += CASE_BYTES;
                self.line += 5;
                b
            }
            None => self.read_case()?,
        };
        self.next += 1;
        Ok(Some((self.next - 1, b)))
    }

    fn error(&self, line: u64, case: Option<u64>, message: impl Into<String>) -> ParseError {
        ParseError {
            file: self.file.clone(),
            line,
            case,
            message: message.into(),
        }
    }

    /// Makes at least `want` bytes available from `pos`, unless the input ends first. Only
    /// called with fewer than `want` bytes left, so moving them to the front is cheap and
    /// leaves almost the whole buffer for one big read.
    fn fill(&mut self, want: usize) -> Result<(), ParseError> {
        while self.end - self.pos < want && !self.eof {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
            match self.src.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let case = (self.next <= self.count).then_some(self.next);
                    return Err(self.error(self.line, case, format!("cannot read: {e}")));
                }
            }
        }
        Ok(())
    }

    /// The next line, `None` at the end of the input.
    fn read_line(&mut self) -> Result<Option<Line>, ParseError> {
        self.fill(1)?;
        if self.pos == self.end {
            return Ok(None);
        }
        let mut line = Line {
            number: self.line,
            head: [0; KEEP],
            raw_len: 0,
            trimmed_len: 0,
            last: None,
            newline: false,
        };
        loop {
            if self.pos == self.end {
                self.fill(1)?;
                if self.pos == self.end {
                    break;
                }
            }
            let avail = &self.buf[self.pos..self.end];
            let (len, newline) = match avail.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (avail.len(), false),
            };
            let seg = &avail[..len];
            let start = line.raw_len;
            if start < KEEP as u64 {
                let at = start as usize;
                let take = (KEEP - at).min(len);
                line.head[at..at + take].copy_from_slice(&seg[..take]);
            }
            if let Some(i) = seg.iter().rposition(|b| !matches!(b, b' ' | b'\t' | b'\r')) {
                line.trimmed_len = start + i as u64 + 1;
            }
            if let Some(&b) = seg.last() {
                line.last = Some(b);
            }
            line.raw_len += len as u64;
            self.pos += len;
            if newline {
                self.pos += 1;
                self.line += 1;
                line.newline = true;
                break;
            }
        }
        Ok(Some(line))
    }

    /// Reads the first line: the number of cases.
    fn read_header(&mut self) -> Result<(), ParseError> {
        const WHAT: &str = "the first line must be the number of cases";
        let Some(line) = self.read_line()? else {
            return Err(self.error(1, None, format!("the input is empty; {WHAT}")));
        };
        let err = |msg: String| self.error(line.number, None, msg);
        if line.is_blank() {
            return Err(err(format!("{WHAT}, found an empty line")));
        }
        let digits = line.head(line.trimmed_len);
        if !digits.iter().all(u8::is_ascii_digit) {
            return Err(err(format!("{WHAT}, found {}", line.show())));
        }
        let count = if line.trimmed_len > KEEP as u64 {
            None
        } else {
            digits.iter().try_fold(0u64, |n, &d| {
                n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
            })
        };
        let Some(count) = count else {
            return Err(err(format!(
                "the number of cases {} is too large",
                line.show()
            )));
        };
        if self.mode == Strictness::Strict {
            if digits.len() > 1 && digits[0] == b'0' {
                return Err(err("the number of cases has a leading zero".into()));
            }
            if count == 0 {
                return Err(err("the number of cases must be at least 1".into()));
            }
            if let Some(problem) = line.trailing_problem() {
                return Err(err(problem.into()));
            }
        }
        self.count = count;
        Ok(())
    }

    /// Reads case `self.next` line by line, with every check and a precise message.
    #[cold]
    fn read_case(&mut self) -> Result<Board, ParseError> {
        let n = self.next;
        let strict = self.mode == Strictness::Strict;
        let mut first = None;
        while first.is_none() {
            match self.read_line()? {
                None => {
                    return Err(self.error(
                        self.line,
                        Some(n),
                        format!(
                            "missing: the first line says {} cases but the input ends after {}",
                            self.count,
                            n - 1
                        ),
                    ));
                }
                Some(l) if !strict && l.is_blank() => {}
                Some(l) => first = Some(l),
            }
        }
        let mut board = Board::default();
        let mut line = first;
        for r in 1..=4 {
            let row = match line.take() {
                Some(l) => l,
                None => self.read_line()?.ok_or_else(|| {
                    self.error(
                        self.line,
                        Some(n),
                        format!("row {r} is missing: the input ends"),
                    )
                })?,
            };
            self.read_row(&row, r, &mut board)
                .map_err(|msg| self.error(row.number, Some(n), msg))?;
        }
        if strict {
            let Some(sep) = self.read_line()? else {
                return Err(self.error(
                    self.line,
                    Some(n),
                    "missing the empty line after the case (every case ends with one, the last included)",
                ));
            };
            if sep.raw_len > 0 {
                let msg = match sep.trailing_problem() {
                    Some(problem) if sep.is_blank() => problem.to_string(),
                    _ => format!("expected an empty line after row 4, found {}", sep.show()),
                };
                return Err(self.error(sep.number, Some(n), msg));
            }
        }
        Ok(board)
    }

    /// Checks row `r` (1-based) of a case and adds its symbols to `board`.
    fn read_row(&self, line: &Line, r: u32, board: &mut Board) -> Result<(), String> {
        let strict = self.mode == Strictness::Strict;
        if line.is_blank() {
            return Err(match line.trailing_problem() {
                Some(problem) if strict => problem.into(),
                _ if strict && r == 1 => {
                    "unexpected empty line: exactly one empty line must separate cases".into()
                }
                _ => format!("row {r} is missing: found an empty line"),
            });
        }
        for (c, &ch) in line.head(line.trimmed_len).iter().enumerate() {
            let bit = 1u16 << ((r - 1) * 4 + (c as u32 & 3));
            match ch {
                b'X' | b'O' | b'.' | b'T' if c >= 4 => {}
                b'X' => board.x |= bit,
                b'O' => board.o |= bit,
                b'.' => {}
                b'T' if board.t == 0 => board.t = bit,
                b'T' => {
                    return Err(format!(
                        "more than one T (the second in row {r}, column {})",
                        c + 1
                    ));
                }
                _ => {
                    return Err(format!(
                        "invalid character '{}' in row {r}, column {}; expected X, O, T or .",
                        crate::escape::escape(&[ch]),
                        c + 1
                    ));
                }
            }
        }
        if line.trimmed_len != 4 {
            return Err(format!(
                "row {r} has {} symbols, expected 4",
                line.trimmed_len
            ));
        }
        if strict {
            if let Some(problem) = line.trailing_problem() {
                return Err(problem.into());
            }
            if !line.newline {
                return Err(format!(
                    "row {r} has no newline (every case ends with an empty line, the last included)"
                ));
            }
        }
        Ok(())
    }

    /// Checks what follows the last case: nothing in strict mode, only blank lines otherwise.
    fn check_end(&mut self) -> Result<(), ParseError> {
        loop {
            match self.read_line()? {
                None => return Ok(()),
                Some(l) if self.mode == Strictness::Lenient && l.is_blank() => {}
                Some(l) => {
                    let what = if l.raw_len == 0 {
                        "an extra empty line".to_string()
                    } else {
                        l.show()
                    };
                    return Err(self.error(
                        l.number,
                        None,
                        format!("text after the last case: {what}"),
                    ));
                }
            }
        }
    }
}

impl<R: Read> Iterator for CaseReader<R> {
    type Item = Result<(u64, Board), ParseError>;

    /// The cases in order; an error is yielded once and ends the iteration.
    fn next(&mut self) -> Option<Self::Item> {
        if let Phase::Failed(_) = self.phase {
            return None;
        }
        self.next_case().transpose()
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Bit 7 of every byte of `v` equal to `sym`, exactly (no borrow crosses bytes).
#[inline(always)]
fn lanes_equal(v: u64, sym: u8) -> u64 {
    let y = v ^ (ONES * u64::from(sym));
    !(((y & !HIGH) + !HIGH) | y) & HIGH
}

/// Gathers bit 7 of each of the 8 bytes into one byte, byte i giving bit i.
#[inline(always)]
fn pack_lanes(lanes: u64) -> u16 {
    ((lanes >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16
}

/// The squares of a case holding `X`, `O` and `T`, and those holding any of the four symbols.
type Masks = (u16, u16, u16, u16);

/// The four rows of a case (at bytes 0, 5, 10 and 15) as little-endian words.
#[inline(always)]
fn rows(s: &[u8; CASE_BYTES]) -> [u32; 4] {
    [0, 5, 10, 15].map(|i| u32::from_le_bytes([s[i], s[i + 1], s[i + 2], s[i + 3]]))
}

/// [`Masks`] with plain integer operations: two rows form one `u64` whose eight bytes are
/// compared with a symbol at once.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn classify_words(s: &[u8; CASE_BYTES]) -> Masks {
    let [r0, r1, r2, r3] = rows(s).map(u64::from);
    let (top, bottom) = (r0 | r1 << 32, r2 | r3 << 32);
    let mask =
        |sym: u8| pack_lanes(lanes_equal(top, sym)) | pack_lanes(lanes_equal(bottom, sym)) << 8;
    let (x, o, t) = (mask(b'X'), mask(b'O'), mask(b'T'));
    (x, o, t, x | o | t | mask(b'.'))
}

/// [`Masks`] with SSE2: the 16 symbols in one vector, one comparison and one bit gathering per
/// symbol. Measured to make the whole `solve` loop about a third faster than the integer
/// version.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn classify_sse2(s: &[u8; CASE_BYTES]) -> Masks {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set_epi32, _mm_set1_epi8,
    };
    let [r0, r1, r2, r3] = rows(s).map(|r| r as i32);
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

/// [`Masks`] by the fastest method the target has.
#[inline(always)]
fn classify(s: &[u8; CASE_BYTES]) -> Masks {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86_64 baseline, so every x86_64 processor has it.
    return unsafe { classify_sse2(s) };
    #[cfg(not(target_arch = "x86_64"))]
    return classify_words(s);
}

/// Decodes a case in the exact format (`RRRR\n` four times, then `\n`) without a loop over
/// its bytes. `None` for anything else, including a second `T`; the line-by-line path then
/// finds out what is wrong.
#[inline(always)]
fn decode_case(s: &[u8; CASE_BYTES]) -> Option<Board> {
    let breaks =
        (s[4] ^ b'\n') | (s[9] ^ b'\n') | (s[14] ^ b'\n') | (s[19] ^ b'\n') | (s[20] ^ b'\n');
    if breaks != 0 {
        return None;
    }
    let (x, o, t, known) = classify(s);
    if known != u16::MAX || t & t.wrapping_sub(1) != 0 {
        return None;
    }
    Some(Board { x, o, t })
}

/// Appends the count line of an input.
pub fn push_count(buf: &mut Vec<u8>, count: u64) {
    push_number(buf, count);
    buf.push(b'\n');
}

/// The text of every row: `ROW_TEXT[x << 8 | o << 4 | t]` for the row's 4-bit X, O and `T`
/// masks (X wins a clash, as in [`Board::symbol`]), so a row is one look-up, not four tests.
static ROW_TEXT: [[u8; 4]; 4096] = {
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
const ANSWER_LINES: [&[u8]; 4] = [
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
const ANSWER_TAILS: [([u8; 32], usize); 4] = {
    let mut tails = [([0u8; 32], 0); 4];
    let mut k = 0;
    while k < 4 {
        let line = ANSWER_LINES[k];
        tails[k].0[0] = b':';
        tails[k].0[1] = b' ';
        let mut i = 0;
        while i < line.len() {
            tails[k].0[2 + i] = line[i];
            i += 1;
        }
        tails[k].1 = 2 + line.len();
        k += 1;
    }
    tails
};

/// `0x01` in each of the 16 bytes of a `u128`.
const BYTE_ONES: u128 = u128::MAX / 0xFF;

/// Most digits a case number may have for the fast path: `Case #` and the digits must fit in
/// the 16 bytes of one store.
const FAST_DIGITS: usize = 10;

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
}

/// Buffered bytes that trigger a write.
const FLUSH_AT: usize = 1 << 16;

/// Room a line may take in the buffer: the longest line (`Case #`, 20 digits, `: Game has not
/// completed` and its newline is 51 bytes) or the 48 bytes of the fast path's two stores.
const LINE_ROOM: usize = 64;

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
        };
        w.set_number();
        w
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
        let (tail, tail_len) = &ANSWER_TAILS[status.index()];
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
    #[inline]
    fn push_run(&mut self, statuses: &[Status]) -> usize {
        if self.prefix_len == 0 {
            return 0;
        }
        let (mut len, mut next, mut prefix, mut room) =
            (self.len, self.next, self.prefix, self.room);
        let (prefix_len, unit, limit, flush_at) =
            (self.prefix_len, self.unit, self.limit, self.flush_at);
        let buf = &mut self.buf[..];
        let mut n = 0;
        for &status in statuses {
            if next >= limit {
                break;
            }
            let (tail, tail_len) = &ANSWER_TAILS[status.index()];
            buf[len..len + 16].copy_from_slice(&prefix.to_be_bytes());
            buf[len + prefix_len..len + prefix_len + 32].copy_from_slice(tail);
            len += prefix_len + tail_len;
            next += 1;
            n += 1;
            if room > 0 {
                room -= 1;
                prefix += unit;
            } else {
                prefix = carry(prefix, unit, self.digit_ones);
                room = 9;
            }
            if len >= flush_at {
                break;
            }
        }
        (self.len, self.next, self.prefix, self.room) = (len, next, prefix, room);
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
        let mut line = Vec::with_capacity(64);
        push_answer(&mut line, self.next, status);
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
fn carry(prefix: u128, unit: u128, digit_ones: u128) -> u128 {
    let raise = digit_ones * 0xC6;
    let raised = prefix.wrapping_add(raise).wrapping_add(unit);
    let kept = ((raised >> 7) & digit_ones) * 0xFF;
    let wrapped = (digit_ones * 0xFF) & !kept;
    ((raised - (raise & kept)) & !wrapped) | ((digit_ones * 0x30) & wrapped)
}

/// Why answering an input stopped.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The input is malformed (or could not be read).
    #[error("{0}")]
    Input(#[from] ParseError),
    /// The answers could not be written.
    #[error("cannot write the answers: {0}")]
    Output(#[from] io::Error),
}

/// Answers every case of `input` with the chosen evaluator; returns the number of cases.
///
/// The evaluator is chosen once, outside the loop, so the loop is compiled for each concrete
/// evaluator and the table lookup inlines into it.
pub fn solve<R: Read, W: Write>(
    input: &mut CaseReader<R>,
    kind: EvaluatorKind,
    out: &mut AnswerWriter<W>,
) -> Result<u64, SolveError> {
    match kind {
        EvaluatorKind::Lines => solve_with(input, &Lines, out),
        EvaluatorKind::Pattern => solve_with(input, Pattern::shared(), out),
        EvaluatorKind::Bits => solve_with(input, &Bits, out),
        EvaluatorKind::Table => solve_with(input, &Table, out),
    }
}

/// Cases handled per round of [`solve_with`]: few enough for the boards and the statuses to stay
/// in the first-level cache.
const BATCH: usize = 1024;

/// Answers every case of `input` with `eval`; returns the number of cases.
///
/// Works in rounds of three tight loops (read a batch of boards, evaluate them, write their
/// lines), each of which keeps its state in registers; one loop doing all three per case keeps
/// reloading the reader's and the writer's fields around the calls of its rare paths.
pub fn solve_with<E: Evaluator + ?Sized, R: Read, W: Write>(
    input: &mut CaseReader<R>,
    eval: &E,
    out: &mut AnswerWriter<W>,
) -> Result<u64, SolveError> {
    let mut boards = vec![Board::default(); BATCH];
    let mut statuses = vec![Status::Open; BATCH];
    let mut cases = 0;
    loop {
        let n = input.read_batch(&mut boards)?;
        if n == 0 {
            return Ok(cases);
        }
        for (s, &b) in statuses.iter_mut().zip(&boards[..n]) {
            *s = eval.status(b);
        }
        out.push_all(&statuses[..n])?;
        cases += n as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SAMPLE: &[u8] = include_bytes!("../generated/sample.in");
    const SAMPLE_OUT: &[u8] = include_bytes!("../generated/sample.out");

    /// A source that hands out at most `step` bytes per read, to cross every chunk boundary.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(out.len()).min(self.data.len());
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn read_all(input: &[u8], mode: Strictness) -> Result<Vec<Board>, ParseError> {
        let mut r = CaseReader::new(input, "in", mode);
        let mut boards = Vec::new();
        while let Some((n, b)) = r.next_case()? {
            assert_eq!(n, boards.len() as u64 + 1);
            boards.push(b);
        }
        Ok(boards)
    }

    fn error(input: &[u8], mode: Strictness) -> String {
        match read_all(input, mode) {
            Ok(b) => panic!("accepted {:?} as {} boards", input.escape_ascii(), b.len()),
            Err(e) => e.to_string(),
        }
    }

    fn sample_boards() -> Vec<Board> {
        [
            "XXXT....OO......",
            "XOXTXXOOOXOXXXOO",
            "XOX.OX..........",
            "OOXXOXXXOX.TO..O",
            "XXXO..O..O..T...",
            "OXXXXO....O....O",
        ]
        .iter()
        .map(|s| Board::from_symbols(s.as_bytes()).unwrap())
        .collect()
    }

    #[test]
    fn sample_reads_in_both_modes() {
        for mode in [Strictness::Lenient, Strictness::Strict] {
            assert_eq!(read_all(SAMPLE, mode).unwrap(), sample_boards());
        }
    }

    #[test]
    fn sample_solves() {
        let mut r = CaseReader::new(SAMPLE, "in", Strictness::Strict);
        let mut w = AnswerWriter::new(Vec::new());
        assert_eq!(solve(&mut r, EvaluatorKind::Table, &mut w).unwrap(), 6);
        assert_eq!(w.finish().unwrap(), SAMPLE_OUT);
    }

    #[test]
    fn any_read_size_gives_the_same_boards() {
        let mut boards = sample_boards();
        boards.extend((0..5000u32).map(|i| Board {
            x: (i * 7919) as u16 & 0x5A5A,
            o: (i * 104_729) as u16 & 0x2525,
            t: if i % 3 == 0 { 1 << (i % 16) } else { 0 },
        }));
        let boards: Vec<Board> = boards
            .into_iter()
            .map(|b| Board {
                o: b.o & !b.x & !b.t,
                x: b.x & !b.t,
                ..b
            })
            .collect();
        let mut text = Vec::new();
        write_input(&mut text, &boards).unwrap();
        let crlf: Vec<u8> = text
            .iter()
            .flat_map(|&b| {
                if b == b'\n' {
                    vec![b'\r', b'\n']
                } else {
                    vec![b]
                }
            })
            .collect();
        for step in [1, 2, 3, 7, 20, 21, 22, 4096] {
            for (input, mode) in [
                (&text, Strictness::Strict),
                (&text, Strictness::Lenient),
                (&crlf, Strictness::Lenient),
            ] {
                let src = Trickle { data: input, step };
                let mut r = CaseReader::new(src, "in", mode);
                let got: Vec<Board> = r.by_ref().map(|c| c.unwrap().1).collect();
                assert_eq!(got, boards, "step {step}, {mode:?}");
                assert_eq!(
                    r.line(),
                    input.iter().filter(|&&b| b == b'\n').count() as u64 + 1
                );
            }
        }
    }

    #[test]
    fn lenient_forgives_layout_noise() {
        let variants: [&[u8]; 6] = [
            b"2\r\nXXXT\r\n....\r\nOO..\r\n....\r\n\r\nXOXT\r\nXXOO\r\nOXOX\r\nXXOO\r\n\r\n",
            b"2\nXXXT\n....\nOO..\n....\n\nXOXT\nXXOO\nOXOX\nXXOO",
            b"2\nXXXT\n....\nOO..\n....\n\n\n\n  \nXOXT\nXXOO\nOXOX\nXXOO\n\n\n",
            b"2 \t\nXXXT  \n....\t\nOO.. \n....\n\nXOXT\nXXOO \nOXOX\nXXOO\n \n",
            b"2\nXXXT\n....\nOO..\n....\nXOXT\nXXOO\nOXOX\nXXOO\n",
            b"002\nXXXT\n....\nOO..\n....\n\nXOXT\nXXOO\nOXOX\nXXOO\n\n",
        ];
        let expected = &sample_boards()[..2];
        for v in variants {
            assert_eq!(read_all(v, Strictness::Lenient).unwrap(), expected, "{v:?}");
            assert!(read_all(v, Strictness::Strict).is_err(), "{v:?}");
        }
    }

    #[test]
    fn messages_point_at_line_and_case() {
        use Strictness::*;
        let cases: &[(&[u8], Strictness, &str)] = &[
            (b"", Lenient, "in:1: the input is empty"),
            (
                b"\n1\n",
                Lenient,
                "in:1: the first line must be the number of cases, found an empty line",
            ),
            (
                b"six\n",
                Lenient,
                "in:1: the first line must be the number of cases, found \"six\"",
            ),
            (
                b"-1\n",
                Lenient,
                "in:1: the first line must be the number of cases, found \"-1\"",
            ),
            (
                b"99999999999999999999999\n",
                Lenient,
                "in:1: the number of cases \"99999999999999999999999\" is too large",
            ),
            (
                b"06\n",
                Strict,
                "in:1: the number of cases has a leading zero",
            ),
            (
                b"0\n",
                Strict,
                "in:1: the number of cases must be at least 1",
            ),
            (b"0\n", Lenient, ""),
            (b"1\r\n", Strict, "in:1: the line ends with CRLF"),
            (
                b"2\nXXXT\n....\nOO..\n....\n\n",
                Lenient,
                "in:7: case 2: missing: the first line says 2 cases but the input ends after 1",
            ),
            (
                b"1\nXXXT\n....\nOA..\n....\n\n",
                Lenient,
                "in:4: case 1: invalid character 'A' in row 3, column 2;",
            ),
            (
                b"1\nXXXT\n....\nO\xc3\xa9.\n....\n\n",
                Strict,
                "in:4: case 1: invalid character '\\xc3' in row 3, column 2;",
            ),
            (
                b"1\nXXXT\n....\nOO...\n....\n\n",
                Lenient,
                "in:4: case 1: row 3 has 5 symbols, expected 4",
            ),
            (
                b"1\nXXXT\n....\nOO.\n....\n\n",
                Lenient,
                "in:4: case 1: row 3 has 3 symbols, expected 4",
            ),
            (
                b"1\nXXXT\n....\nOO..X\n....\n\n",
                Lenient,
                "in:4: case 1: row 3 has 5 symbols, expected 4",
            ),
            (
                b"1\nXXXT\n....\nOO..Z\n....\n\n",
                Lenient,
                "in:4: case 1: invalid character 'Z' in row 3, column 5;",
            ),
            (
                b"1\nXXXT\n....\n\n....\n\n",
                Lenient,
                "in:4: case 1: row 3 is missing: found an empty line",
            ),
            (
                b"1\nXXXT\n....\n",
                Lenient,
                "in:4: case 1: row 3 is missing: the input ends",
            ),
            (
                b"1\nXXXT\n..T.\nOO..\n....\n\n",
                Lenient,
                "in:3: case 1: more than one T (the second in row 2, column 3)",
            ),
            (
                b"1\nXXXT\n....\nOO..\n....\n\nXXXX\n",
                Lenient,
                "in:7: text after the last case: \"XXXX\"",
            ),
            (
                b"1\nXXXT\n....\nOO..\n....\n\n\n",
                Strict,
                "in:7: text after the last case: an extra empty line",
            ),
            (
                b"1\nXXXT\n....\nOO..\n....\n",
                Strict,
                "in:6: case 1: missing the empty line after the case",
            ),
            (
                b"1\nXXXT\n....\nOO..\n....",
                Strict,
                "in:5: case 1: row 4 has no newline",
            ),
            (
                b"1\nXXXT\n....\nOO..\n....\nXXXX\n",
                Strict,
                "in:6: case 1: expected an empty line after row 4, found \"XXXX\"",
            ),
            (
                b"1\nXXXT\n.... \nOO..\n....\n\n",
                Strict,
                "in:3: case 1: trailing whitespace at the end of the line",
            ),
            (
                b"1\nXXXT\n....\r\nOO..\n....\n\n",
                Strict,
                "in:3: case 1: the line ends with CRLF",
            ),
            (
                b"1\nXXXT\n....\nOO..\n....\n \n",
                Strict,
                "in:6: case 1: trailing whitespace",
            ),
            (
                b"2\nXXXT\n....\nOO..\n....\n\n\nXXXT\n....\nOO..\n....\n\n",
                Strict,
                "in:7: case 2: unexpected empty line",
            ),
        ];
        for &(input, mode, want) in cases {
            if want.is_empty() {
                assert_eq!(read_all(input, mode), Ok(vec![]));
                continue;
            }
            let got = error(input, mode);
            assert!(
                got.starts_with(want),
                "{:?}: got {got:?}, want {want:?}",
                input.escape_ascii()
            );
        }
    }

    #[test]
    fn long_lines_cost_no_memory() {
        let mut input = b"1\nXXXT\n".to_vec();
        input.extend(std::iter::repeat_n(b'X', 3 << 20));
        input.extend_from_slice(b"\n");
        assert_eq!(
            error(&input, Strictness::Lenient),
            "in:3: case 1: row 2 has 3145728 symbols, expected 4"
        );
    }

    #[test]
    fn a_failed_reader_stays_failed() {
        let mut r = CaseReader::new(
            &b"2\nXXXT\n....\nOO..\n....\n\n"[..],
            "in",
            Strictness::Strict,
        );
        assert!(r.next_case().unwrap().is_some());
        let e = r.next_case().unwrap_err();
        assert_eq!(r.next_case().unwrap_err(), e);
        assert_eq!(r.case_count().unwrap_err(), e);
        assert!(r.next().is_none());
    }

    #[test]
    fn answer_lines_match_statuses() {
        for s in Status::ALL {
            assert_eq!(
                ANSWER_LINES[s.index()],
                format!("{}\n", s.answer()).as_bytes()
            );
        }
        let mut w = AnswerWriter::new(Vec::new());
        let mut want = Vec::new();
        for n in 1..=12_345u64 {
            let s = Status::ALL[(n % 4) as usize];
            w.push(s).unwrap();
            want.extend_from_slice(format!("Case #{n}: {s}\n").as_bytes());
        }
        assert_eq!(w.next_case(), 12_346);
        assert_eq!(w.finish().unwrap(), want);
        // Around every change of width, up to numbers too long for the fast digits.
        let starts = (1..20).map(|k| 10u64.pow(k) - 3).chain([u64::MAX - 2]);
        for first in starts {
            let mut w = AnswerWriter::starting_at(Vec::new(), first);
            let mut want = Vec::new();
            for n in first..=first.saturating_add(5).min(u64::MAX - 1) {
                w.push(Status::Open).unwrap();
                want.extend_from_slice(format!("Case #{n}: Game has not completed\n").as_bytes());
            }
            assert_eq!(w.finish().unwrap(), want, "from {first}");
        }
        let mut one = Vec::new();
        push_answer(&mut one, u64::MAX, Status::Draw);
        assert_eq!(one, format!("Case #{}: Draw\n", u64::MAX).as_bytes());
        let mut zero = Vec::new();
        push_number(&mut zero, 0);
        assert_eq!(zero, b"0");
    }

    #[test]
    fn batches_hand_out_cases_before_an_error() {
        let mut input = b"7\n".to_vec();
        for _ in 0..5 {
            input.extend_from_slice(b"XXXT\n....\nOO..\n....\n\n");
        }
        input.extend_from_slice(b"XXXT\r\n....\nOO..\n....\n\nXXXT\n..T.\n");
        let mut r = CaseReader::new(&input[..], "in", Strictness::Lenient);
        let mut boards = [Board::default(); 4];
        assert_eq!(r.read_batch(&mut boards), Ok(4));
        assert_eq!(
            r.read_batch(&mut boards),
            Ok(2),
            "case 6 takes the slow path"
        );
        let e = r.read_batch(&mut boards).unwrap_err();
        assert_eq!(
            e.to_string(),
            "in:33: case 7: more than one T (the second in row 2, column 3)"
        );
        assert_eq!(r.read_batch(&mut boards), Err(e));

        let mut r = CaseReader::new(SAMPLE, "in", Strictness::Strict);
        let mut boards = [Board::default(); 100];
        assert_eq!(r.read_batch(&mut boards), Ok(6));
        assert_eq!(&boards[..6], sample_boards());
        assert_eq!(r.read_batch(&mut boards), Ok(0));
    }

    #[test]
    fn batched_lines_match_single_lines() {
        for first in [1, 7, 99_990, 9_999_999_990, 99_999_999_990] {
            let statuses: Vec<Status> = (0..40_000u32)
                .map(|i| Status::ALL[(i * 7 % 11 % 4) as usize])
                .collect();
            let mut one = AnswerWriter::starting_at(Vec::new(), first);
            for &s in &statuses {
                one.push(s).unwrap();
            }
            let mut all = AnswerWriter::starting_at(Vec::new(), first);
            for chunk in statuses.chunks(777) {
                all.push_all(chunk).unwrap();
            }
            let want: Vec<u8> = statuses
                .iter()
                .zip(first..)
                .flat_map(|(s, n)| format!("Case #{n}: {s}\n").into_bytes())
                .collect();
            assert_eq!(one.finish().unwrap(), want, "from {first}");
            assert_eq!(all.finish().unwrap(), want, "from {first}");
            // Kept in memory, in a buffer reused from a longer text.
            let mut kept = AnswerWriter::keeping(vec![b'?'; 5 << 20], first, statuses.len());
            kept.push_all(&statuses).unwrap();
            let (buf, len) = kept.into_kept();
            assert_eq!(&buf[..len], want, "kept, from {first}");
        }
    }

    #[test]
    fn the_fast_path_sees_every_symbol() {
        // Every byte value in every square position: the word-wide decoding must agree with
        // the byte-by-byte rows.
        let base = *b"XO.T\nOX.O\n..XO\nO.X.\n\n";
        for pos in [0, 1, 2, 3, 5, 8, 10, 13, 15, 18] {
            for byte in 0..=255u8 {
                let mut s = base;
                s[pos] = byte;
                let symbols: Vec<u8> = s.iter().copied().filter(|&b| b != b'\n').collect();
                let want = if byte == b'\n' {
                    None
                } else {
                    Board::from_symbols(&symbols).ok()
                };
                assert_eq!(decode_case(&s), want, "byte {byte} at {pos}");
                let (x, o, t, known) = classify_words(&s);
                let words = (known == u16::MAX && t.count_ones() <= 1).then_some(Board { x, o, t });
                assert_eq!(
                    words,
                    want.filter(|_| byte != b'\n'),
                    "words: byte {byte} at {pos}"
                );
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            for mode in [Strictness::Lenient, Strictness::Strict] {
                let _ = read_all(&bytes, mode);
            }
        }

        #[test]
        fn mutated_samples_never_panic(
            edits in proptest::collection::vec((0..SAMPLE.len(), any::<u8>(), 0..3u8), 1..6)
        ) {
            let mut bytes = SAMPLE.to_vec();
            for (at, byte, how) in edits {
                let at = at.min(bytes.len());
                match how {
                    0 if at < bytes.len() => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    _ if at < bytes.len() => { bytes.remove(at); }
                    _ => {}
                }
            }
            for mode in [Strictness::Lenient, Strictness::Strict] {
                if let Ok(boards) = read_all(&bytes, mode) {
                    // Whatever is accepted must read the same in small pieces.
                    let src = Trickle { data: &bytes, step: 3 };
                    let again: Result<Vec<Board>, _> =
                        CaseReader::new(src, "in", mode).map(|c| c.map(|c| c.1)).collect();
                    prop_assert_eq!(again.unwrap(), boards);
                }
            }
        }
    }
}
