//! Reading inputs: [`CaseReader`] hands out one board at a time from fixed-size chunks, in
//! either [`Strictness`], and points at the first problem with a [`ParseError`].

use super::decode::{decode_case, decode_parts};
use crate::tictactoe::board::Board;
use std::fmt;
use std::io::{self, Read};

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
pub(super) const CHUNK: usize = 1 << 17;

/// Bytes of one case in the exact format: four rows of 4 symbols and a newline, then the
/// empty line.
pub const CASE_BYTES: usize = 21;

/// How many leading bytes of a line are kept for checking and for error messages. Anything
/// valid is shorter (a count has at most 20 digits, a row 4 symbols); longer lines are wrong
/// and only their length matters.
pub(super) const KEEP: usize = 32;

/// One line as the slow path sees it: its first bytes and its lengths, never the whole of it,
/// so a gigabyte-long line costs no memory.
pub(super) struct Line {
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
                crate::output::escape::escape(head),
                self.raw_len
            )
        } else {
            format!("\"{}\"", crate::output::escape::escape(head))
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
pub(super) enum Phase {
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
        self.read_batch_with(boards, |b| *b)
    }

    /// [`CaseReader::read_batch`], storing `f` of each board instead of the board: `solve`
    /// passes the evaluator, so a board goes from the decoding to its status in registers
    /// rather than through an array of boards. The board is lent, not moved, and `solve` hands
    /// its masks to [`Evaluator::status_of`](crate::tictactoe::eval::Evaluator::status_of):
    /// moved by value through the two generic calls, the board travelled packed into one
    /// integer that the loop then unpacked (15 instructions a case).
    #[inline]
    pub fn read_batch_with<T>(
        &mut self,
        out: &mut [T],
        mut f: impl FnMut(&Board) -> T,
    ) -> Result<usize, ParseError> {
        let mut n = 0;
        while n < out.len() {
            n += self.decode_run(&mut out[n..], &mut f);
            if n == out.len() {
                break;
            }
            match self.guard(CaseReader::step) {
                Ok(Some((_, b))) => {
                    out[n] = f(&b);
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

    /// Decodes the cases in the exact format that follow in the buffer, up to `out.len()` and
    /// the announced count, storing `f` of each board.
    #[inline]
    fn decode_run<T>(&mut self, out: &mut [T], f: &mut impl FnMut(&Board) -> T) -> usize {
        if !matches!(self.phase, Phase::Cases) || self.next > self.count {
            return 0;
        }
        let left = (self.count - self.next).saturating_add(1);
        let avail = &self.buf[self.pos..self.end];
        // Whole cases only: the loop needs no test of the buffer's end.
        let max = out
            .len()
            .min(usize::try_from(left).unwrap_or(usize::MAX))
            .min(avail.len() / CASE_BYTES);
        let mut n = 0;
        for (slot, window) in out[..max].iter_mut().zip(avail.as_chunks::<CASE_BYTES>().0) {
            let (b, exact) = decode_parts(window);
            if !exact {
                break;
            }
            *slot = f(&b);
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
                        crate::output::escape::escape(&[ch]),
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
