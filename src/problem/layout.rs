//! A problem's files: inputs read to the letter of the layout (for the validator) or leniently
//! (for answering), inputs and answers written.
//!
//! The family's files are small (a few thousand cases at most), so an input is read whole.

use super::{BoardLayout, Cases, Problem, Separator};
use crate::tictactoe::board::Board;
use crate::tictactoe::codejam::{ParseError, Strictness};
use crate::tictactoe::reach;

/// The cases of an input: each board, and the line where it starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Input {
    /// The boards in order.
    pub boards: Vec<Board>,
    /// The 1-based line where each board starts.
    pub lines: Vec<u64>,
}

struct Cursor<'a> {
    file: &'a str,
    /// The text from the start of line `at` on: lines are found as they are read, so a file
    /// of a gigabyte is not first cut into a list of its lines.
    rest: &'a [u8],
    /// The number of the current line, from 0.
    at: usize,
    strict: bool,
}

impl<'a> Cursor<'a> {
    /// The current line without its newline, or `None` past the last one (a final newline
    /// ends the last line; it does not start an empty one).
    #[inline]
    fn peek(&self) -> Option<&'a [u8]> {
        if self.rest.is_empty() {
            return None;
        }
        let end = self.rest.iter().position(|&c| c == b'\n');
        Some(&self.rest[..end.unwrap_or(self.rest.len())])
    }

    /// Moves past the current line.
    #[inline]
    fn advance(&mut self) {
        let end = self.rest.iter().position(|&c| c == b'\n');
        self.rest = end.map_or(&[][..], |e| &self.rest[e + 1..]);
        self.at += 1;
    }

    fn error(&self, line: usize, case: Option<u64>, message: impl Into<String>) -> ParseError {
        ParseError {
            file: self.file.to_string(),
            line: line as u64 + 1,
            case,
            message: message.into(),
        }
    }

    /// The next line, without its ending; leniently also without trailing blanks.
    fn next(&mut self, case: Option<u64>, what: &str) -> Result<&'a [u8], ParseError> {
        let Some(line) = self.peek() else {
            return Err(self.error(
                self.at,
                case,
                format!("the input ends where {what} should be"),
            ));
        };
        self.advance();
        if self.strict {
            if line.last() == Some(&b'\r') {
                return Err(self.error(
                    self.at - 1,
                    case,
                    "a CR before the newline (LF endings only)",
                ));
            }
            if matches!(line.last(), Some(b' ' | b'\t')) {
                return Err(self.error(self.at - 1, case, "blanks at the end of the line"));
            }
            Ok(line)
        } else {
            Ok(trim_end(line))
        }
    }

    /// Leniently, skips empty lines.
    fn skip_empty(&mut self) {
        if !self.strict {
            while self.peek().is_some_and(|l| trim_end(l).is_empty()) {
                self.advance();
            }
        }
    }

    fn empty_line(&mut self, case: Option<u64>) -> Result<(), ParseError> {
        let line = self.next(case, "an empty line")?;
        if !line.is_empty() {
            return Err(self.error(self.at - 1, case, "an empty line is expected here"));
        }
        Ok(())
    }

    /// Whether nothing is left (leniently, nothing but empty lines).
    fn at_end(&mut self) -> bool {
        self.skip_empty();
        self.peek().is_none()
    }
}

fn trim_end(line: &[u8]) -> &[u8] {
    let mut l = line;
    while let Some((&last, rest)) = l.split_last() {
        if matches!(last, b' ' | b'\t' | b'\r') {
            l = rest;
        } else {
            break;
        }
    }
    l
}

fn shown(line: &[u8]) -> String {
    crate::output::escape::excerpt(line, 60)
}

/// Reads an input of `problem`. Strictly, the layout must be followed to the letter: LF line
/// endings, no trailing blanks, the empty lines exactly where the layout puts them, a final
/// newline, nothing after the last case. Leniently, CRLF endings, trailing blanks, any number
/// of empty lines around cases and a missing final newline pass. Either way every board must
/// be a position of the input space.
pub fn read(
    problem: &Problem,
    file: &str,
    text: &[u8],
    mode: Strictness,
) -> Result<Input, ParseError> {
    let strict = mode == Strictness::Strict;
    let ended = text.last() == Some(&b'\n');
    let mut cur = Cursor {
        file,
        rest: text,
        at: 0,
        strict,
    };
    if strict && !ended && !text.is_empty() {
        // The unended line is the last: as many lines come before it as there are newlines.
        let last = text.iter().filter(|&&c| c == b'\n').count();
        return Err(cur.error(last, None, "no newline at the end of the input"));
    }
    let layout = &problem.layout;
    let count = match &layout.cases {
        Cases::Count => {
            cur.skip_empty();
            let line = cur.next(None, "the number of cases")?;
            let digits = if strict { line } else { line.trim_ascii() };
            let ok = !digits.is_empty()
                && digits.iter().all(u8::is_ascii_digit)
                && !(strict && digits.len() > 1 && digits[0] == b'0');
            let n = std::str::from_utf8(digits)
                .ok()
                .and_then(|s| s.parse::<u64>().ok());
            match (ok, n) {
                (true, Some(n)) => Some(n),
                _ => {
                    return Err(cur.error(
                        cur.at - 1,
                        None,
                        format!("the number of cases is expected, not `{}`", shown(line)),
                    ));
                }
            }
        }
        Cases::Single => Some(1),
        Cases::Until(_) => None,
    };
    let mut input = Input::default();
    let mut values = problem.values();
    loop {
        let n = input.boards.len() as u64 + 1;
        if count.is_some_and(|c| n > c) {
            break;
        }
        cur.skip_empty();
        if let Cases::Until(word) = &layout.cases {
            if cur.peek().is_some_and(|l| {
                let l = if strict { l } else { trim_end(l) };
                l == word.as_bytes()
            }) {
                cur.advance();
                break;
            }
            if cur.peek().is_none() {
                return Err(cur.error(cur.at, None, format!("no `{word}` line at the end")));
            }
        }
        if strict && layout.blank == Separator::Between && n > 1 {
            cur.empty_line(Some(n))?;
        }
        let start = cur.at;
        if let Some(marker) = &layout.marker {
            let line = cur.next(Some(n), &format!("a `{marker}` line"))?;
            if line != marker.as_bytes() {
                return Err(cur.error(
                    cur.at - 1,
                    Some(n),
                    format!(
                        "a `{marker}` line is expected before each board, not `{}`",
                        shown(line)
                    ),
                ));
            }
        }
        let b = read_board(problem, &mut cur, n)?;
        check_space(problem, &cur, b, start, n, &mut values)?;
        input.boards.push(b);
        input.lines.push(start as u64 + 1);
        if strict && layout.blank == Separator::After {
            cur.empty_line(Some(n))?;
        }
    }
    if !cur.at_end() {
        return Err(cur.error(
            cur.at,
            None,
            format!(
                "text after the last case: `{}`",
                shown(cur.peek().unwrap_or_default())
            ),
        ));
    }
    Ok(input)
}

fn read_board(problem: &Problem, cur: &mut Cursor, n: u64) -> Result<Board, ParseError> {
    let g = &problem.geometry;
    let (rows, width) = match problem.layout.board {
        BoardLayout::Rows => (g.rows, g.cols),
        BoardLayout::Line => (1, g.cells()),
    };
    let mut b = Board::default();
    for r in 0..rows {
        let line = cur.next(Some(n), "a row of the board")?;
        if line.len() != width as usize {
            return Err(cur.error(
                cur.at - 1,
                Some(n),
                format!(
                    "a row of {width} symbols is expected, not `{}` ({} characters)",
                    shown(line),
                    line.len()
                ),
            ));
        }
        for (c, &ch) in line.iter().enumerate() {
            let square = r * width + c as u32;
            let bit = 1u16 << square;
            let s = &problem.symbols;
            if ch == s.first {
                b.x |= bit;
            } else if ch == s.second {
                b.o |= bit;
            } else if ch == s.empty {
            } else if Some(ch) == s.joker {
                if b.t != 0 {
                    return Err(cur.error(cur.at - 1, Some(n), "a second joker on the board"));
                }
                b.t = bit;
            } else {
                let allowed: Vec<String> = [Some(s.first), Some(s.second), Some(s.empty), s.joker]
                    .into_iter()
                    .flatten()
                    .map(|c| format!("`{}`", c as char))
                    .collect();
                return Err(cur.error(
                    cur.at - 1,
                    Some(n),
                    format!(
                        "`{}` at column {} is not a symbol of the board ({})",
                        shown(&[ch]),
                        c + 1,
                        allowed.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(b)
}

fn check_space(
    problem: &Problem,
    cur: &Cursor,
    b: Board,
    start: usize,
    n: u64,
    values: &mut super::facts::Values,
) -> Result<(), ParseError> {
    if problem.space == super::InputSpace::Reachable
        && let Err(why) = reach::check(&problem.geometry, b)
    {
        return Err(cur.error(
            start,
            Some(n),
            format!(
                "the board {} cannot arise in play: {why}",
                problem.grid_text(b)
            ),
        ));
    }
    if let Some(why) = problem.outside_because(b, values) {
        return Err(cur.error(
            start,
            Some(n),
            format!(
                "the board {} is not in the input space: {why}",
                problem.grid_text(b)
            ),
        ));
    }
    Ok(())
}

/// Appends a board as the layout writes it.
pub fn push_board(problem: &Problem, b: Board, out: &mut Vec<u8>) {
    let g = &problem.geometry;
    for r in 0..g.rows {
        for c in 0..g.cols {
            out.push(problem.symbol(b, r * g.cols + c));
        }
        if problem.layout.board == BoardLayout::Rows {
            out.push(b'\n');
        }
    }
    if problem.layout.board == BoardLayout::Line {
        out.push(b'\n');
    }
}

/// An input of these boards in the problem's exact layout (the strict reader reads it back).
pub fn input_text(problem: &Problem, boards: &[Board]) -> Vec<u8> {
    let mut out = Vec::new();
    if problem.layout.cases == Cases::Count {
        out.extend_from_slice(format!("{}\n", boards.len()).as_bytes());
    }
    for (i, &b) in boards.iter().enumerate() {
        if problem.layout.blank == Separator::Between && i > 0 {
            out.push(b'\n');
        }
        if let Some(marker) = &problem.layout.marker {
            out.extend_from_slice(marker.as_bytes());
            out.push(b'\n');
        }
        push_board(problem, b, &mut out);
        if problem.layout.blank == Separator::After {
            out.push(b'\n');
        }
    }
    if let Cases::Until(word) = &problem.layout.cases {
        out.extend_from_slice(word.as_bytes());
        out.push(b'\n');
    }
    out
}

/// The prefix of case `n`'s answer.
pub fn prefix(problem: &Problem, n: u64) -> String {
    problem.layout.prefix.replace("{n}", &n.to_string())
}

/// Appends case `n`'s answer line: the prefix with `{n}` written in place, with no text made
/// on the way (a file of millions of cases is answered line by line).
pub fn push_answer(problem: &Problem, n: u64, answer: &str, out: &mut Vec<u8>) {
    let mut rest = problem.layout.prefix.as_bytes();
    while let Some(at) = rest.windows(3).position(|w| w == b"{n}") {
        out.extend_from_slice(&rest[..at]);
        crate::tictactoe::codejam::push_number(out, n);
        rest = &rest[at + 3..];
    }
    out.extend_from_slice(rest);
    out.extend_from_slice(answer.as_bytes());
    out.push(b'\n');
}
