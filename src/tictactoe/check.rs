//! The checker: judges a contestant's output against the jury's answers, in the testlib
//! convention.
//!
//! Exit codes: 0 accepted, 1 wrong answer, 2 presentation error, 3 checker failure.
//!
//! - Every output line must be `Case #N: ANSWER` with `N` counting from 1 in order, written
//!   exactly (capital `C`, `#`, no leading zeros, one space after the colon).
//! - The answer is compared with the jury's word for word, case-sensitively. Anything else
//!   after `Case #N: ` is a wrong answer, not a presentation error: `0 won` (a digit zero) or
//!   `x won` is a wrong claim about the game, and its words differ from every right answer.
//! - Tolerated, as testlib's line comparisons do: spaces, tabs and carriage returns at the end
//!   of a line (so CRLF endings pass), a missing newline after the last line, and empty lines
//!   after the last case. Not tolerated (presentation error): leading blanks, blank lines
//!   between cases, a malformed `Case #N:` prefix, a wrong case number, missing cases, and
//!   any text after the last case.
//! - Checker failure: the input or the answers cannot be read or are malformed, the answers
//!   do not have one line per case, or an answer disagrees with the board (the jury's file
//!   is wrong, so no verdict on the contestant can be trusted).
//!
//! All three files are read as streams, a line at a time, so their size does not matter.

use crate::outcome::Status;
use crate::tictactoe::codejam::{CaseReader, Strictness};
use crate::tictactoe::eval::{Evaluator, Table};
use std::fmt;
use std::io::{self, BufRead, BufReader, Read};

/// The checker's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every case right; the number of cases.
    Accepted(u64),
    /// A case answered wrongly: which, and how.
    WrongAnswer(String),
    /// The output's layout is off (case numbers, extra or missing lines).
    PresentationError(String),
    /// The checker could not judge (bad input or answers file).
    Fail(String),
}

impl Verdict {
    /// The testlib exit code.
    pub fn code(&self) -> u8 {
        match self {
            Verdict::Accepted(_) => 0,
            Verdict::WrongAnswer(_) => 1,
            Verdict::PresentationError(_) => 2,
            Verdict::Fail(_) => 3,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Accepted(n) => write!(f, "ok {n} cases"),
            Verdict::WrongAnswer(m) => write!(f, "wrong answer: {m}"),
            Verdict::PresentationError(m) => write!(f, "presentation error: {m}"),
            Verdict::Fail(m) => write!(f, "checker failure: {m}"),
        }
    }
}

/// Longest line kept; longer lines are judged by their first bytes only.
const KEEP: usize = 256;

/// One line: its first bytes with trailing blanks removed, and where it is.
struct Line {
    number: u64,
    text: Vec<u8>,
    /// Whether the line was longer than [`KEEP`] bytes.
    long: bool,
}

/// A line reader that never holds more than [`KEEP`] bytes of a line.
struct Lines<R> {
    src: BufReader<R>,
    number: u64,
}

impl<R: Read> Lines<R> {
    fn new(src: R) -> Lines<R> {
        Lines {
            src: BufReader::with_capacity(1 << 16, src),
            number: 0,
        }
    }

    fn next(&mut self) -> io::Result<Option<Line>> {
        let mut text = Vec::new();
        let mut long = false;
        let mut any = false;
        loop {
            let buf = self.src.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            any = true;
            let (used, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            let content = &buf[..if done { used - 1 } else { used }];
            let room = KEEP.saturating_sub(text.len());
            text.extend_from_slice(&content[..content.len().min(room)]);
            long |= content.len() > room;
            self.src.consume(used);
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.number += 1;
        while matches!(text.last(), Some(b' ' | b'\t' | b'\r')) && !long {
            text.pop();
        }
        Ok(Some(Line {
            number: self.number,
            text,
            long,
        }))
    }

    /// The next line that is not empty, if any: what stands after the last case.
    fn first_nonblank(&mut self) -> io::Result<Option<Line>> {
        while let Some(l) = self.next()? {
            if !l.text.is_empty() || l.long {
                return Ok(Some(l));
            }
        }
        Ok(None)
    }
}

/// The line shown in a message.
fn show(l: &Line) -> String {
    let mut s = format!("\"{}\"", crate::output::escape::escape(&l.text));
    if l.long {
        s.push_str("...");
    }
    s
}

/// What follows `Case #N: ` on a line, or why the line does not have that shape.
fn answer_of(l: &Line, case: u64) -> Result<&[u8], String> {
    let want = format!("Case #{case}:");
    let Some(rest) = l.text.strip_prefix(want.as_bytes()) else {
        return Err(format!(
            "expected a line starting with \"{want}\", found {}",
            show(l)
        ));
    };
    match rest {
        [] => Ok(rest),
        [b' ', answer @ ..] if answer.first() != Some(&b' ') => Ok(answer),
        _ => Err(format!(
            "expected one space after \"{want}\", found {}",
            show(l)
        )),
    }
}

/// Judges `output` against `answers` for `input`. Names are used in messages.
pub fn check(
    input: impl Read,
    input_name: &str,
    answers: impl Read,
    answers_name: &str,
    output: impl Read,
    output_name: &str,
) -> Verdict {
    let mut cases = CaseReader::new(input, input_name, Strictness::Lenient);
    let count = match cases.case_count() {
        Ok(n) => n,
        Err(e) => return Verdict::Fail(format!("input: {e}")),
    };
    let mut jury = Lines::new(answers);
    let mut team = Lines::new(output);
    for n in 1..=count {
        let board = match cases.next_case() {
            Ok(Some((_, b))) => b,
            Ok(None) => return Verdict::Fail(format!("{input_name}: the input ends early")),
            Err(e) => return Verdict::Fail(format!("input: {e}")),
        };
        let right = Table.status(board);
        let expected = match jury.next() {
            Err(e) => return Verdict::Fail(format!("cannot read {answers_name}: {e}")),
            Ok(None) => {
                return Verdict::Fail(format!(
                    "{answers_name}: ends after {} answers, the input has {count} cases",
                    n - 1
                ));
            }
            Ok(Some(l)) => {
                let a = match answer_of(&l, n) {
                    Ok(a) => a,
                    Err(m) => {
                        return Verdict::Fail(format!(
                            "{answers_name}:{}: case {n}: {m}",
                            l.number
                        ));
                    }
                };
                match std::str::from_utf8(a).ok().and_then(Status::from_answer) {
                    Some(s) if s == right => s,
                    Some(s) => {
                        return Verdict::Fail(format!(
                            "{answers_name}:{}: case {n}: the answers say \"{}\" but the board \
                             is \"{}\"",
                            l.number,
                            s.answer(),
                            right.answer()
                        ));
                    }
                    None => {
                        return Verdict::Fail(format!(
                            "{answers_name}:{}: case {n}: not an answer: {}",
                            l.number,
                            show(&l)
                        ));
                    }
                }
            }
        };
        match team.next() {
            Err(e) => return Verdict::Fail(format!("cannot read {output_name}: {e}")),
            Ok(None) => {
                return Verdict::PresentationError(format!(
                    "{output_name}: the output ends after {} of {count} cases",
                    n - 1
                ));
            }
            Ok(Some(l)) => match answer_of(&l, n) {
                Err(m) => {
                    return Verdict::PresentationError(format!(
                        "{output_name}:{}: case {n}: {m}",
                        l.number
                    ));
                }
                Ok(got) if got == expected.answer().as_bytes() && !l.long => {}
                Ok(got) => {
                    return Verdict::WrongAnswer(format!(
                        "{output_name}:{}: case {n}: expected \"{}\", found \"{}{}\"",
                        l.number,
                        expected.answer(),
                        crate::output::escape::escape(got),
                        if l.long { "..." } else { "" }
                    ));
                }
            },
        }
    }
    match cases.next_case() {
        Ok(None) => {}
        Ok(Some(_)) => return Verdict::Fail(format!("{input_name}: more cases than announced")),
        Err(e) => return Verdict::Fail(format!("input: {e}")),
    }
    match jury.first_nonblank() {
        Err(e) => return Verdict::Fail(format!("cannot read {answers_name}: {e}")),
        Ok(None) => {}
        Ok(Some(l)) => {
            return Verdict::Fail(format!(
                "{answers_name}:{}: text after the last case: {}",
                l.number,
                show(&l)
            ));
        }
    }
    match team.first_nonblank() {
        Err(e) => Verdict::Fail(format!("cannot read {output_name}: {e}")),
        Ok(None) => Verdict::Accepted(count),
        Ok(Some(l)) => Verdict::PresentationError(format!(
            "{output_name}:{}: text after the last case: {}",
            l.number,
            show(&l)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &[u8] = include_bytes!("../../generated/sample.in");
    const ANSWERS: &[u8] = include_bytes!("../../generated/sample.out");

    fn judge(out: &str) -> Verdict {
        check(INPUT, "in", ANSWERS, "ans", out.as_bytes(), "out")
    }

    #[test]
    fn verdicts() {
        let right = std::str::from_utf8(ANSWERS).unwrap();
        assert_eq!(judge(right), Verdict::Accepted(6));
        assert_eq!(judge(&right.replace('\n', " \r\n")), Verdict::Accepted(6));
        assert_eq!(judge(right.trim_end()), Verdict::Accepted(6));
        let v = judge(&right.replacen("O won", "0 won", 1));
        assert_eq!(v.code(), 1, "{v}");
        assert_eq!(
            v.to_string(),
            "wrong answer: out:4: case 4: expected \"O won\", found \"0 won\""
        );
        assert_eq!(judge(&right.replace("Case #2:", "Case #2 :")).code(), 2);
        assert_eq!(judge(&right.replace("#3", "#03")).code(), 2);
        assert_eq!(judge(&format!("{right}\nextra\n")).code(), 2);
        assert_eq!(judge(&format!(" {right}")).code(), 2);
        let cut: String = right.lines().take(5).map(|l| format!("{l}\n")).collect();
        assert_eq!(judge(&cut).code(), 2);
        let bad = String::from_utf8(ANSWERS.to_vec())
            .unwrap()
            .replace("Draw", "X won");
        let v = check(INPUT, "in", bad.as_bytes(), "ans", right.as_bytes(), "out");
        assert_eq!(v.code(), 3, "{v}");
    }
}
