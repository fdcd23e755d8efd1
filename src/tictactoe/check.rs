//! The checker: judges a contestant's output against the jury's answers, in the testlib
//! convention.
//!
//! Exit codes: 0 accepted, 1 wrong answer, 2 presentation error, 3 checker failure.
//!
//! The whitespace rule, shared with the solver audit ([`read_output_line`]), is the one of the
//! judge the packages ship with: Kattis's default output validator with `case_sensitive`,
//! which compares whitespace-separated words and ignores how much whitespace separates them.
//! - Every answer is `Case #N: ANSWER` on one line, with `N` counting from 1 in order and
//!   written exactly (capital `C`, `#`, no leading zeros, the colon right after the number).
//! - Blanks (spaces, tabs, carriage returns) before, between and after the words do not
//!   matter, nor do blank lines, nor a missing newline after the last line: `Case #1:  X won`
//!   and CRLF endings pass. The one difference from the default validator, which reads a
//!   stream of words, is that an answer must not be split over lines.
//! - The answer's words are compared with the jury's, case-sensitively. Anything else after
//!   `Case #N:` is a wrong answer, not a presentation error: `0 won` (a digit zero) or `x won`
//!   is a wrong claim about the game, and its words differ from every right answer.
//! - Presentation error: a line that is not `Case #N: ...` (`Case #2 :`, `Case #2:X won`), a
//!   wrong case number, missing cases, and any text after the last case.
//! - Checker failure: the input or the answers cannot be read or are malformed, the answers
//!   do not have one line per case, or an answer disagrees with the board (the jury's file
//!   is wrong, so no verdict on the contestant can be trusted).
//!
//! All three files are read as streams, a line at a time, so their size does not matter.

use crate::lines::BoundedLines;
use crate::outcome::Status;
use crate::tictactoe::codejam::{CaseReader, Strictness};
use crate::tictactoe::eval::{Evaluator, Table};
use std::fmt;
use std::io::{self, Read};

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
            Verdict::Accepted(n) => write!(f, "ok {}", plural(*n, "case", "cases")),
            Verdict::WrongAnswer(m) => write!(f, "wrong answer: {m}"),
            Verdict::PresentationError(m) => write!(f, "presentation error: {m}"),
            Verdict::Fail(m) => write!(f, "checker failure: {m}"),
        }
    }
}

/// `n` and the noun for one or for many, the number written plainly as testlib does.
fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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
    inner: BoundedLines<R>,
}

impl<R: Read> Lines<R> {
    fn new(src: R) -> Lines<R> {
        Lines {
            inner: BoundedLines::new(src, KEEP),
        }
    }

    fn next(&mut self) -> io::Result<Option<Line>> {
        let Some(read) = self.inner.next_line()? else {
            return Ok(None);
        };
        let long = read.cut();
        let mut text = read.kept;
        while matches!(text.last(), Some(b' ' | b'\t' | b'\r')) && !long {
            text.pop();
        }
        Ok(Some(Line {
            number: self.inner.number(),
            text,
            long,
        }))
    }

    /// The next line that is not blank, if any: blank lines are skipped everywhere.
    fn first_nonblank(&mut self) -> io::Result<Option<Line>> {
        while let Some(l) = self.next()? {
            if l.long || !l.text.iter().all(|&b| is_blank(b)) {
                return Ok(Some(l));
            }
        }
        Ok(None)
    }
}

/// One line of an output, as the whitespace rule reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputLine<'a> {
    /// Nothing but blanks: skipped.
    Blank,
    /// `Case #N: ...`: the number as printed (ASCII digits), and the answer (the rest of the
    /// line without the blanks around it; compare it with [`same_words`]).
    Case {
        /// The case number as printed.
        number: &'a [u8],
        /// What follows the colon, without surrounding blanks.
        answer: &'a [u8],
    },
    /// Anything else.
    Malformed,
}

/// The blanks of the whitespace rule: what the default validator treats as whitespace.
fn is_blank(b: u8) -> bool {
    b.is_ascii_whitespace() || b == 0x0b
}

/// The words of `text`: the runs of non-blank bytes.
fn words(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    text.split(|&b| is_blank(b)).filter(|w| !w.is_empty())
}

/// Reads one output line (without its newline) under the whitespace rule, for the checker
/// and the solver audit alike.
pub fn read_output_line(line: &[u8]) -> OutputLine<'_> {
    let mut w = words(line);
    let (Some(first), Some(second)) = (w.next(), w.next()) else {
        return if line.iter().all(|&b| is_blank(b)) {
            OutputLine::Blank
        } else {
            OutputLine::Malformed
        };
    };
    let number = second
        .strip_prefix(b"#")
        .and_then(|r| r.strip_suffix(b":"))
        .filter(|n| !n.is_empty() && n.iter().all(u8::is_ascii_digit));
    match (first, number) {
        (b"Case", Some(number)) => {
            // The answer starts after the second word.
            let at = second.as_ptr() as usize - line.as_ptr() as usize + second.len();
            let rest = &line[at..];
            let start = rest
                .iter()
                .position(|&b| !is_blank(b))
                .unwrap_or(rest.len());
            let end = rest
                .iter()
                .rposition(|&b| !is_blank(b))
                .map_or(start, |i| i + 1);
            OutputLine::Case {
                number,
                answer: &rest[start..end],
            }
        }
        _ => OutputLine::Malformed,
    }
}

/// Whether two answers have the same words, however they are spaced.
pub fn same_words(a: &[u8], b: &[u8]) -> bool {
    words(a).eq(words(b))
}

/// Whether `digits` (ASCII digits) is `n` in decimal, leading zeros refused.
pub fn is_case_number(digits: &[u8], n: u64) -> bool {
    let mut buf = Vec::with_capacity(20);
    crate::tictactoe::codejam::push_number(&mut buf, n);
    digits == buf.as_slice()
}

/// The line shown in a message.
fn show(l: &Line) -> String {
    let mut s = format!("\"{}\"", crate::output::escape::escape(&l.text));
    if l.long {
        s.push_str("...");
    }
    s
}

/// What follows `Case #N:` on a line, or why the line does not have that shape.
fn answer_of(l: &Line, case: u64) -> Result<&[u8], String> {
    let want = format!("Case #{case}:");
    match read_output_line(&l.text) {
        OutputLine::Case { number, answer } if is_case_number(number, case) => Ok(answer),
        _ => Err(format!(
            "expected a line starting with \"{want}\", found {}",
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
        let expected = match jury.first_nonblank() {
            Err(e) => return Verdict::Fail(format!("cannot read {answers_name}: {e}")),
            Ok(None) => {
                return Verdict::Fail(format!(
                    "{answers_name}: ends after {}, the input has {}",
                    plural(n - 1, "answer", "answers"),
                    plural(count, "case", "cases")
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
                let a = words(a).collect::<Vec<_>>().join(&b' ');
                match std::str::from_utf8(&a).ok().and_then(Status::from_answer) {
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
        match team.first_nonblank() {
            Err(e) => return Verdict::Fail(format!("cannot read {output_name}: {e}")),
            Ok(None) => {
                return Verdict::PresentationError(format!(
                    "{output_name}: the output ends after {} of {}",
                    n - 1,
                    plural(count, "case", "cases")
                ));
            }
            Ok(Some(l)) => match answer_of(&l, n) {
                Err(m) => {
                    return Verdict::PresentationError(format!(
                        "{output_name}:{}: case {n}: {m}",
                        l.number
                    ));
                }
                Ok(got) if same_words(got, expected.answer().as_bytes()) && !l.long => {}
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
        // The whitespace rule of the audit and of the judge's default validator: blanks and
        // blank lines do not matter, the words do.
        assert_eq!(judge(&format!(" {right}")), Verdict::Accepted(6));
        assert_eq!(judge(&right.replace(": ", ":  \t")), Verdict::Accepted(6));
        assert_eq!(judge(&right.replace('\n', "\n\n")), Verdict::Accepted(6));
        assert_eq!(judge(&right.replace("Case #2: ", "Case #2:")).code(), 2);
        assert_eq!(judge(&right.replace("Case #2: ", "case #2: ")).code(), 2);
        assert_eq!(judge(&right.replacen("X won", "x won", 1)).code(), 1);
        let cut: String = right.lines().take(5).map(|l| format!("{l}\n")).collect();
        assert_eq!(judge(&cut).code(), 2);
        let bad = String::from_utf8(ANSWERS.to_vec())
            .unwrap()
            .replace("Draw", "X won");
        let v = check(INPUT, "in", bad.as_bytes(), "ans", right.as_bytes(), "out");
        assert_eq!(v.code(), 3, "{v}");
    }
}
