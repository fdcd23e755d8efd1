//! Reading and writing the input format: `t`, then `t` lines `Game #n: ` followed by slot
//! digits.
//!
//! The reader works on bytes, so no input can make it panic, and reports every problem it finds
//! as `FILE:LINE: what is wrong`. It is liberal only where the statement is: a game with no
//! moves may end right after the colon or after the space. [`Mode::Lenient`] (used to solve)
//! also accepts `\r\n` line ends and a last line without a newline, which judges commonly
//! tolerate; [`Mode::Strict`] (used to validate test data) rejects both. Everything else (a
//! stray space, a leading zero, an empty line, text after the last game) is an error in both
//! modes, because test data with such quirks would break some correct solutions.

use crate::lines::BoundedLines;
use std::fmt;
use std::io::{self, Read};

/// The largest number of games in one input: the statement says `t < 100`.
pub const MAX_GAMES: usize = 99;
/// The largest number of moves in one game.
pub const MAX_MOVES: usize = super::position::CELLS as usize;

/// How forgiving the reader is about line ends (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Accepts `\r\n` line ends and a missing final newline.
    Lenient,
    /// Exactly the statement's format: `\n` after every line, the last one included.
    Strict,
}

/// One game of an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The game's number, `n` in `Game #n: `, which is also its position from 1.
    pub number: usize,
    /// The line of the input it was read from, from 1.
    pub line: usize,
    /// The moves as columns 0–6 (slot digit minus one).
    pub moves: Vec<u8>,
}

/// One problem with an input, displayed as `FILE:LINE: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct InputError {
    /// The file's name as given.
    pub file: String,
    /// The line at fault, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// Every problem found in an input, in line order; never empty. Displayed one per line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputErrors(pub Vec<InputError>);

impl fmt::Display for InputErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InputErrors {}

/// Reads a whole input held in memory. `file` names it in messages (`<stdin>` for standard
/// input).
///
/// When the number of games cannot be read, or a game line is missing, reading stops there;
/// otherwise each game line is checked on its own so that one run reports every bad line.
pub fn parse(bytes: &[u8], file: &str, mode: Mode) -> Result<Vec<Game>, InputErrors> {
    read(bytes, file, mode).expect("reading memory does not fail")
}

/// Reads an input from `src` as [`parse`] does, in bounded memory: of each line only the first
/// [`KEEP`] bytes are held (a valid line has at most 53), and the rest is scanned as it
/// streams by, so a line of any length is judged exactly as a whole one. The outer error is a
/// failed read.
pub fn read<R: Read>(src: R, file: &str, mode: Mode) -> io::Result<Result<Vec<Game>, InputErrors>> {
    let mut errors = Vec::new();
    let mut report = |line: usize, message: String| {
        errors.push(InputError {
            file: file.to_string(),
            line,
            message,
        });
    };
    let mut lines = Lines::new(src);
    let Some(first) = lines.next()? else {
        report(1, "the input is empty; expected the number of games".into());
        return Ok(Err(InputErrors(errors)));
    };
    let line_text = |mut line: Line, number: usize, report: &mut dyn FnMut(usize, String)| {
        if line.strip_cr() && mode == Mode::Strict {
            report(
                number,
                "the line ends with a carriage return (`\\r\\n`); lines end with `\\n` alone"
                    .into(),
            );
        }
        line
    };
    // The last line read, and whether it ended with a newline, for the strict rule on the end.
    let mut last = (1, first.newline);
    let first = line_text(first, 1, &mut report);
    let t = match parse_count(&first.kept) {
        Ok(t) => t,
        Err(message) => {
            report(1, message);
            let unended = unended_last_line(&mut lines, last, mode)?;
            return Ok(Err(sorted(with_unended(errors, unended, file))));
        }
    };
    let mut games = Vec::with_capacity(t);
    let mut complete = true;
    for number in 1..=t {
        let Some(line) = lines.next()? else {
            complete = false;
            report(
                number + 1,
                format!(
                    "the line of game #{number} is missing: {t} games were announced, the input ends after {}",
                    number - 1
                ),
            );
            break;
        };
        last = (lines.number, line.newline);
        match parse_game(&line_text(line, number + 1, &mut report), number) {
            Ok(moves) => games.push(Game {
                number,
                line: number + 1,
                moves,
            }),
            Err(message) => report(number + 1, message),
        }
    }
    if complete && let Some(extra) = lines.next()? {
        last = (lines.number, extra.newline);
        let extra = line_text(extra, t + 2, &mut report);
        let message = if extra.len == 0 {
            format!("an empty line after the last game (game #{t})")
        } else {
            format!(
                "extra text after the last game (game #{t}): `{}`",
                extra.show()
            )
        };
        report(t + 2, message);
    }
    let unended = unended_last_line(&mut lines, last, mode)?;
    let errors = with_unended(errors, unended, file);
    Ok(if errors.is_empty() {
        Ok(games)
    } else {
        Err(sorted(errors))
    })
}

/// Reads what is left and, in strict mode, returns the number of the last line when it does
/// not end with a newline.
fn unended_last_line<R: Read>(
    lines: &mut Lines<R>,
    mut last: (usize, bool),
    mode: Mode,
) -> io::Result<Option<usize>> {
    if mode != Mode::Strict {
        return Ok(None);
    }
    while let Some(line) = lines.next()? {
        last = (lines.number, line.newline);
    }
    Ok((!last.1).then_some(last.0))
}

/// Puts the error of a last line without its newline first among the errors of its line, where
/// a reader of the whole file finds it.
fn with_unended(
    mut errors: Vec<InputError>,
    unended: Option<usize>,
    file: &str,
) -> Vec<InputError> {
    if let Some(line) = unended {
        errors.insert(
            0,
            InputError {
                file: file.to_string(),
                line,
                message: "the last line does not end with a newline".into(),
            },
        );
    }
    errors
}

/// Bytes of a line held in memory; the rest is only scanned.
pub const KEEP: usize = 4096;

/// One line as read: its first [`KEEP`] bytes, its length, and what the scan of the rest found.
struct Line {
    /// The first bytes of the line (all of it when it is not cut).
    kept: Vec<u8>,
    /// The length of the whole line, without its newline.
    len: usize,
    /// The first byte past [`KEEP`] that is not a slot digit (1 to 7), with its offset.
    bad: Option<(usize, u8)>,
    /// The last byte of the line.
    last: Option<u8>,
    /// Whether a newline ended it (not the end of the input).
    newline: bool,
}

impl Line {
    /// Whether the line is longer than what was kept.
    fn cut(&self) -> bool {
        self.len > self.kept.len()
    }

    /// Drops a final `\r`; returns whether there was one.
    fn strip_cr(&mut self) -> bool {
        if self.last != Some(b'\r') {
            return false;
        }
        self.len -= 1;
        if self.cut() {
            // The first odd byte after the kept part was the `\r` itself, if it was at the end.
            if self.bad.is_some_and(|(at, _)| at == self.len) {
                self.bad = None;
            }
        } else {
            self.kept.truncate(self.len);
        }
        true
    }

    /// The line quoted for a message, with the length of the whole.
    fn show(&self) -> String {
        if self.cut() {
            let mut s = crate::output::escape::escape(&self.kept[..30]);
            s.push_str(&format!(
                "… ({} bytes)",
                crate::output::grouped(self.len as u128)
            ));
            s
        } else {
            show(&self.kept)
        }
    }
}

/// Lines of the input, each held to [`KEEP`] bytes; past those only the first byte that is not
/// a slot digit is noted.
struct Lines<R> {
    inner: BoundedLines<R>,
    /// Lines read so far.
    number: usize,
}

impl<R: Read> Lines<R> {
    fn new(src: R) -> Lines<R> {
        Lines {
            inner: BoundedLines::new(src, KEEP),
            number: 0,
        }
    }

    fn next(&mut self) -> io::Result<Option<Line>> {
        let mut bad = None;
        let read = self.inner.next_with(|at, rest| {
            if bad.is_none()
                && let Some(i) = rest.iter().position(|b| !(b'1'..=b'7').contains(b))
            {
                bad = Some((at + i, rest[i]));
            }
        })?;
        self.number = self.inner.number() as usize;
        Ok(read.map(|l| Line {
            kept: l.kept,
            len: l.len,
            bad,
            last: l.last,
            newline: l.newline,
        }))
    }
}

fn sorted(mut errors: Vec<InputError>) -> InputErrors {
    errors.sort_by_key(|e| e.line);
    InputErrors(errors)
}

/// The first line: the number of games, 1 to 99, as plain digits.
fn parse_count(text: &[u8]) -> Result<usize, String> {
    if text.is_empty() {
        return Err("expected the number of games (1 to 99), found an empty line".into());
    }
    if !text.iter().all(u8::is_ascii_digit) {
        return Err(format!(
            "expected the number of games as digits alone (1 to 99), found `{}`",
            show(text)
        ));
    }
    if text.len() > 1 && text[0] == b'0' {
        return Err(format!(
            "the number of games `{}` has a leading zero",
            show(text)
        ));
    }
    let t = if text.len() <= 3 {
        text.iter().fold(0, |n, &d| n * 10 + usize::from(d - b'0'))
    } else {
        usize::MAX
    };
    if t == 0 || t > MAX_GAMES {
        return Err(format!(
            "the number of games must be 1 to 99 (t < 100), found {}",
            show(text)
        ));
    }
    Ok(t)
}

/// One game line, which must be game number `expected`; returns the moves as columns 0–6.
/// A line cut short is judged on its kept bytes and on the scan of the rest, as a whole one.
fn parse_game(whole: &Line, expected: usize) -> Result<Vec<u8>, String> {
    let line = whole.kept.as_slice();
    let Some(rest) = line.strip_prefix(b"Game #") else {
        return Err(if whole.len == 0 {
            format!("expected `Game #{expected}: ` and the moves, found an empty line")
        } else {
            format!(
                "expected the line to start with `Game #{expected}: `, found `{}`",
                whole.show()
            )
        });
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let (number, after) = rest.split_at(digits);
    if number.is_empty() {
        return Err(format!(
            "expected the game number {expected} after `Game #`, found `{}`",
            show(rest)
        ));
    }
    if number.len() > 1 && number[0] == b'0' {
        return Err(format!(
            "the game number `{}` has a leading zero",
            show(number)
        ));
    }
    if number != expected.to_string().as_bytes() {
        return Err(format!(
            "expected game #{expected}, found game #{}; games are numbered 1, 2, 3, ... in order",
            show(number)
        ));
    }
    let Some(after) = after.strip_prefix(b":") else {
        return Err(format!(
            "expected `:` after `Game #{expected}`, found `{}`",
            show(after)
        ));
    };
    let moves_text = match after {
        [] => after,
        [b' ', tail @ ..] => tail,
        _ => {
            return Err(format!(
                "expected a space after `Game #{expected}:`, found `{}`",
                show(after)
            ));
        }
    };
    let header = line.len() - moves_text.len();
    let mut moves = Vec::with_capacity(moves_text.len().min(MAX_MOVES + 1));
    for (k, &b) in moves_text.iter().enumerate() {
        match b {
            b'1'..=b'7' => moves.push(b - b'1'),
            _ => return Err(bad_move(header + k + 1, b)),
        }
    }
    if whole.cut() {
        if let Some((at, b)) = whole.bad {
            return Err(bad_move(at + 1, b));
        }
        return Err(format!(
            "{} moves; a game has at most {MAX_MOVES}",
            whole.len - header
        ));
    }
    if moves.len() > MAX_MOVES {
        return Err(format!(
            "{} moves; a game has at most {MAX_MOVES}",
            moves.len()
        ));
    }
    Ok(moves)
}

/// What is wrong with byte `b`, not a slot digit, at `column` (from 1) of a game line.
fn bad_move(column: usize, b: u8) -> String {
    match b {
        b'0' | b'8' | b'9' => format!(
            "column {column}: move `{}` names no slot; slots are numbered 1 to 7",
            char::from(b)
        ),
        b' ' | b'\t' => format!(
            "column {column}: unexpected blank; the moves are digits with nothing between or after them"
        ),
        _ => format!(
            "column {column}: unexpected character `{}`; moves are the digits 1 to 7",
            show(&[b])
        ),
    }
}

/// Quotes a piece of input for a message: escaped (see [`crate::escape`]), and long text cut
/// short with its length.
fn show(bytes: &[u8]) -> String {
    crate::output::escape::excerpt(bytes, 30)
}

/// Appends one game line: `Game #n: ` and the moves (columns 0–6 written as slots 1–7). A game
/// without moves ends after the space, or right after the colon when `space` is false; the
/// statement allows both.
pub fn write_game(out: &mut String, number: usize, moves: &[u8], space: bool) {
    out.push_str("Game #");
    out.push_str(&number.to_string());
    out.push(':');
    if space || !moves.is_empty() {
        out.push(' ');
    }
    out.extend(moves.iter().map(|&m| char::from(b'1' + m)));
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Vec<Vec<u8>> {
        parse(text.as_bytes(), "f", Mode::Lenient)
            .unwrap()
            .into_iter()
            .map(|g| g.moves)
            .collect()
    }

    fn err(text: &[u8], mode: Mode) -> String {
        parse(text, "f", mode).unwrap_err().to_string()
    }

    #[test]
    fn reads_games() {
        assert_eq!(
            ok("3\nGame #1: 17\nGame #2:\nGame #3: \n"),
            vec![vec![0, 6], vec![], vec![]]
        );
        assert_eq!(ok("1\r\nGame #1: 4\r\n"), vec![vec![3]]);
        assert_eq!(ok("1\nGame #1: 4"), vec![vec![3]]);
        let games = parse(b"2\nGame #1: 1\nGame #2: 2\n", "f", Mode::Strict).unwrap();
        assert_eq!(games[1].number, 2);
        assert_eq!(games[1].line, 3);
    }

    #[test]
    fn lines_longer_than_what_is_kept_are_judged_whole() {
        let long = |moves: &[u8], end: &[u8]| {
            let mut v = b"1\nGame #1: ".to_vec();
            v.extend_from_slice(moves);
            v.extend_from_slice(end);
            v
        };
        let n = 3 * KEEP;
        let digits: Vec<u8> = (0..n).map(|i| b'1' + (i % 7) as u8).collect();
        assert_eq!(
            err(&long(&digits, b"\n"), Mode::Strict),
            format!("f:2: {n} moves; a game has at most 42")
        );
        assert_eq!(
            err(&long(&digits, b"\r\n"), Mode::Lenient),
            format!("f:2: {n} moves; a game has at most 42")
        );
        assert_eq!(
            err(&long(&digits, b"\r\n"), Mode::Strict),
            format!(
                "f:2: the line ends with a carriage return (`\\r\\n`); lines end with `\\n` alone\n\
                 f:2: {n} moves; a game has at most 42"
            )
        );
        // The first byte that is no slot, anywhere in the line, with its column.
        let mut bad = digits.clone();
        bad[2 * KEEP] = b'8';
        bad[2 * KEEP + 5] = b' ';
        assert_eq!(
            err(&long(&bad, b"\n"), Mode::Strict),
            format!(
                "f:2: column {}: move `8` names no slot; slots are numbered 1 to 7",
                2 * KEEP + 10
            )
        );
        assert_eq!(
            err(&long(&digits, b""), Mode::Strict),
            format!(
                "f:2: the last line does not end with a newline\nf:2: {n} moves; a game has at most 42"
            )
        );
        // Text after the last game, however long, is quoted short.
        let mut extra = b"1\nGame #1: 1\n".to_vec();
        extra.extend(std::iter::repeat_n(b'x', 2 * KEEP));
        extra.push(b'\n');
        assert!(
            err(&extra, Mode::Strict).ends_with(&format!(
                "`{}… ({} bytes)`",
                "x".repeat(30),
                crate::output::grouped(2 * KEEP as u128)
            )),
            "{}",
            err(&extra, Mode::Strict)
        );
    }

    #[test]
    fn strict_mode_wants_plain_newlines() {
        assert_eq!(
            err(b"1\r\nGame #1: 4\n", Mode::Strict),
            "f:1: the line ends with a carriage return (`\\r\\n`); lines end with `\\n` alone"
        );
        assert_eq!(
            err(b"1\nGame #1: 4", Mode::Strict),
            "f:2: the last line does not end with a newline"
        );
    }

    #[test]
    fn reports_each_problem_with_its_line() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "f:1: the input is empty"),
            (b"x\n", "f:1: expected the number of games as digits"),
            (b"0\n", "f:1: the number of games must be 1 to 99"),
            (b"100\n", "f:1: the number of games must be 1 to 99"),
            (
                b"123456789012345678901234567890\n",
                "f:1: the number of games must be",
            ),
            (
                b"01\nGame #1: 1\n",
                "f:1: the number of games `01` has a leading zero",
            ),
            (
                b" 1\nGame #1: 1\n",
                "f:1: expected the number of games as digits",
            ),
            (b"2\nGame #1: 1\n", "f:3: the line of game #2 is missing"),
            (b"1\nGame #2: 1\n", "f:2: expected game #1, found game #2"),
            (
                b"1\nGame #01: 1\n",
                "f:2: the game number `01` has a leading zero",
            ),
            (
                b"1\nGame 1: 1\n",
                "f:2: expected the line to start with `Game #1: `",
            ),
            (b"1\ngame #1: 1\n", "f:2: expected the line to start with"),
            (b"1\nGame #: 1\n", "f:2: expected the game number 1 after"),
            (b"1\nGame #1 1\n", "f:2: expected `:` after `Game #1`"),
            (b"1\nGame #1:1\n", "f:2: expected a space after `Game #1:`"),
            (
                b"1\nGame #1: 18\n",
                "f:2: column 11: move `8` names no slot",
            ),
            (b"1\nGame #1: 0\n", "f:2: column 10: move `0` names no slot"),
            (
                b"1\nGame #1: 1a\n",
                "f:2: column 11: unexpected character `a`",
            ),
            (b"1\nGame #1: 1 2\n", "f:2: column 11: unexpected blank"),
            (b"1\nGame #1: 12 \n", "f:2: column 12: unexpected blank"),
            (b"1\nGame #1:  1\n", "f:2: column 10: unexpected blank"),
            (
                b"1\nGame #1: \xff\n",
                "f:2: column 10: unexpected character `\\xff`",
            ),
            (
                b"1\n\n",
                "f:2: expected `Game #1: ` and the moves, found an empty line",
            ),
            (
                b"1\nGame #1: 1\nGame #2: 2\n",
                "f:3: extra text after the last game",
            ),
            (
                b"1\nGame #1: 1\n\n",
                "f:3: an empty line after the last game",
            ),
        ];
        for (text, want) in cases {
            let got = err(text, Mode::Lenient);
            assert!(
                got.starts_with(want),
                "{:?}: got {got:?}",
                text.escape_ascii().to_string()
            );
        }
        let long = format!("1\nGame #1: {}\n", "1234567".repeat(6) + "1");
        assert_eq!(
            err(long.as_bytes(), Mode::Lenient),
            "f:2: 43 moves; a game has at most 42"
        );
        assert_eq!(
            ok(&format!("1\nGame #1: {}\n", "1234567".repeat(6)))[0].len(),
            42
        );
    }

    #[test]
    fn reports_every_bad_line() {
        let e = parse(
            b"3\nGame #1: 8\nGame #2: 1\nGame #3: x\n",
            "in",
            Mode::Lenient,
        )
        .unwrap_err();
        let lines: Vec<usize> = e.0.iter().map(|e| e.line).collect();
        assert_eq!(lines, [2, 4]);
        assert_eq!(e.to_string().lines().count(), 2);
    }

    #[test]
    fn writes_what_it_reads() {
        let mut s = String::from("3\n");
        write_game(&mut s, 1, &[0, 6, 3], true);
        write_game(&mut s, 2, &[], true);
        write_game(&mut s, 3, &[], false);
        assert_eq!(s, "3\nGame #1: 174\nGame #2: \nGame #3:\n");
        assert_eq!(ok(&s), vec![vec![0, 6, 3], vec![], vec![]]);
    }
}
