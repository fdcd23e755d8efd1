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

use std::fmt;

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

/// Reads a whole input. `file` names it in messages (`<stdin>` for standard input).
///
/// When the number of games cannot be read, or a game line is missing, reading stops there;
/// otherwise each game line is checked on its own so that one run reports every bad line.
pub fn parse(bytes: &[u8], file: &str, mode: Mode) -> Result<Vec<Game>, InputErrors> {
    let mut errors = Vec::new();
    let mut report = |line: usize, message: String| {
        errors.push(InputError {
            file: file.to_string(),
            line,
            message,
        });
    };
    if bytes.is_empty() {
        report(1, "the input is empty; expected the number of games".into());
        return Err(InputErrors(errors));
    }
    let ends_with_newline = bytes.last() == Some(&b'\n');
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if ends_with_newline {
        // `split` yields an empty piece after the final newline; it is not a line.
        lines.pop();
    }
    if mode == Mode::Strict && !ends_with_newline {
        report(
            lines.len(),
            "the last line does not end with a newline".into(),
        );
    }
    let line_text = |i: usize, report: &mut dyn FnMut(usize, String)| -> &[u8] {
        match lines[i].strip_suffix(b"\r") {
            Some(text) => {
                if mode == Mode::Strict {
                    report(
                        i + 1,
                        "the line ends with a carriage return (`\\r\\n`); lines end with `\\n` alone"
                            .into(),
                    );
                }
                text
            }
            None => lines[i],
        }
    };

    let t = match parse_count(line_text(0, &mut report)) {
        Ok(t) => t,
        Err(message) => {
            report(1, message);
            return Err(sorted(errors));
        }
    };
    let mut games = Vec::with_capacity(t);
    for number in 1..=t {
        if number >= lines.len() {
            report(
                number + 1,
                format!(
                    "the line of game #{number} is missing: {t} games were announced, the input ends after {}",
                    number - 1
                ),
            );
            break;
        }
        match parse_game(line_text(number, &mut report), number) {
            Ok(moves) => games.push(Game {
                number,
                line: number + 1,
                moves,
            }),
            Err(message) => report(number + 1, message),
        }
    }
    if lines.len() > t + 1 {
        let extra = line_text(t + 1, &mut report);
        let message = if extra.is_empty() {
            format!("an empty line after the last game (game #{t})")
        } else {
            format!(
                "extra text after the last game (game #{t}): `{}`",
                show(extra)
            )
        };
        report(t + 2, message);
    }
    if errors.is_empty() {
        Ok(games)
    } else {
        Err(sorted(errors))
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
fn parse_game(line: &[u8], expected: usize) -> Result<Vec<u8>, String> {
    let Some(rest) = line.strip_prefix(b"Game #") else {
        return Err(if line.is_empty() {
            format!("expected `Game #{expected}: ` and the moves, found an empty line")
        } else {
            format!(
                "expected the line to start with `Game #{expected}: `, found `{}`",
                show(line)
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
    let first_column = line.len() - moves_text.len() + 1;
    let mut moves = Vec::with_capacity(moves_text.len().min(MAX_MOVES + 1));
    for (k, &b) in moves_text.iter().enumerate() {
        let column = first_column + k;
        match b {
            b'1'..=b'7' => moves.push(b - b'1'),
            b'0' | b'8' | b'9' => {
                return Err(format!(
                    "column {column}: move `{}` names no slot; slots are numbered 1 to 7",
                    char::from(b)
                ));
            }
            b' ' | b'\t' => {
                return Err(format!(
                    "column {column}: unexpected blank; the moves are digits with nothing between or after them"
                ));
            }
            _ => {
                return Err(format!(
                    "column {column}: unexpected character `{}`; moves are the digits 1 to 7",
                    show(&[b])
                ));
            }
        }
    }
    if moves.len() > MAX_MOVES {
        return Err(format!(
            "{} moves; a game has at most {MAX_MOVES}",
            moves.len()
        ));
    }
    Ok(moves)
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
