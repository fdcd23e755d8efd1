//! Checking a solver's output for one chunk against the labels, and tallying what it got wrong.
//!
//! Almost every output of a decent solver is the exact text `tomek solve` would print, so the
//! output is compared in bulk with that text, rendered once per chunk: a memory comparison per
//! read, whatever its size. Only where the bytes differ is the line read for what it says,
//! under the whitespace rule of `tomek check` ([`crate::tictactoe::check::read_output_line`]):
//! blanks around and between the words and blank lines do not matter, everything else does.

use crate::outcome::Status;
use crate::tictactoe::board::Board;
use crate::tictactoe::check::{OutputLine, is_case_number, read_output_line, same_words};
use crate::tictactoe::codejam::AnswerWords;
use std::collections::HashMap;
use std::fmt;

/// Longest output line read: an answer line is about 40 bytes, so anything longer is broken,
/// and reading it whole could take any amount of memory.
pub const MAX_LINE: usize = 64 << 10;
/// Bytes of a received answer or an offending line kept for the report.
const KEEP_TEXT: usize = 100;

/// A board the solver answered wrongly.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Failure {
    /// Position of the board among the audited ones, from 1.
    pub case: u64,
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::tictactoe::board::serialize_line")
    )]
    /// The board.
    pub board: Board,
    /// Stones on the board (the `T` is not a stone).
    pub stones: u32,
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::outcome::serialize_answer")
    )]
    /// The right answer.
    pub expected: Status,
    /// The answer as printed after `Case #x:`, without surrounding spaces.
    pub received: String,
}

/// One kind of failure (an expected answer and what was printed instead): how often it
/// happened, and the failing board with the fewest stones, the earliest on a tie.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Kind {
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::outcome::serialize_answer")
    )]
    /// The right answer.
    pub expected: Status,
    /// What the solver answered instead.
    pub received: String,
    /// How many boards got this wrong answer.
    pub count: u64,
    /// The smallest of them (fewest stones, then first in order).
    pub minimal: Failure,
}

/// Wrong answers of a run of consecutive cases: their number, the first `keep` in case order,
/// and the kinds in order of first appearance. Tallies of consecutive runs merge into the
/// tally of the whole, in case order, whatever order they were computed in.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Boards answered wrongly.
    pub wrong: u64,
    /// The first wrong answers, in case order.
    pub first: Vec<Failure>,
    /// Every kind of wrong answer, in order of first appearance.
    pub kinds: Vec<Kind>,
    keep: usize,
    /// Position in `kinds` by expected status, then received text.
    index: [HashMap<String, usize>; 4],
}

impl Tally {
    /// An empty tally that keeps the first `keep` failures.
    pub fn new(keep: usize) -> Tally {
        Tally {
            keep,
            ..Tally::default()
        }
    }

    /// Counts one wrong answer.
    pub fn add(&mut self, f: Failure) {
        self.wrong += 1;
        match self.index[f.expected.index()].get(f.received.as_str()) {
            Some(&k) => {
                let kind = &mut self.kinds[k];
                kind.count += 1;
                if f.stones < kind.minimal.stones {
                    kind.minimal = f.clone();
                }
            }
            None => {
                self.index[f.expected.index()].insert(f.received.clone(), self.kinds.len());
                self.kinds.push(Kind {
                    expected: f.expected,
                    received: f.received.clone(),
                    count: 1,
                    minimal: f.clone(),
                });
            }
        }
        if self.first.len() < self.keep {
            self.first.push(f);
        }
    }

    /// Adds the tally of the cases that come right after these.
    pub fn merge(&mut self, later: Tally) {
        self.wrong += later.wrong;
        let room = self.keep.saturating_sub(self.first.len());
        self.first.extend(later.first.into_iter().take(room));
        for k in later.kinds {
            match self.index[k.expected.index()].get(k.received.as_str()) {
                Some(&i) => {
                    let kind = &mut self.kinds[i];
                    kind.count += k.count;
                    // Strictly fewer: on a tie the earlier board, already here, stays.
                    if k.minimal.stones < kind.minimal.stones {
                        kind.minimal = k.minimal;
                    }
                }
                None => {
                    self.index[k.expected.index()].insert(k.received.clone(), self.kinds.len());
                    self.kinds.push(k);
                }
            }
        }
    }
}

/// Output that is not a list of answers, found at one line of one chunk's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Broken {
    /// A line that is not `Case #x: answer`.
    Garbage,
    /// `Case #x:` with the wrong `x`; holds the number as printed.
    Misnumbered(String),
    /// A line after the answer of the last case.
    TooMany,
    /// A line longer than [`MAX_LINE`].
    LongLine,
}

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Broken::Garbage => f.write_str("not a `Case #x: answer` line"),
            Broken::Misnumbered(n) => write!(f, "misnumbered: `Case #{n}:`"),
            Broken::TooMany => f.write_str("a line after the last case's answer"),
            Broken::LongLine => write!(f, "a line longer than {} KiB", MAX_LINE >> 10),
        }
    }
}

/// Where the output broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenAt {
    /// What is wrong with the line.
    pub what: Broken,
    /// Line of the output, from 1.
    pub line: u64,
    /// The line (its start), as text.
    pub text: String,
    /// Answers accepted before it: the line was meant for the case after them.
    pub answered: usize,
}

/// Checks the output of one chunk as it arrives.
pub struct Checker<'a> {
    cases: &'a [(Board, Status)],
    /// Position of the chunk's first case among the audited ones, from 0.
    first_case: u64,
    /// The exact answers `Case #1: ...` of the chunk.
    expected: &'a [u8],
    /// Bytes of `expected` matched or stepped over.
    pos: usize,
    /// `answered` counts the lines of `expected[..mark]`; lines up to `pos` are counted when
    /// needed, so the bulk path never counts.
    mark: usize,
    answered: usize,
    /// Blank lines read (they do not count as answers).
    blank: u64,
    /// The start of a line whose end has not arrived yet.
    partial: Vec<u8>,
    /// The answers checked so far.
    pub tally: Tally,
    /// Where the output broke, if it did.
    pub broken: Option<BrokenAt>,
    /// The answer of each status.
    words: &'a AnswerWords,
}

impl<'a> Checker<'a> {
    /// A checker for a chunk of labelled boards, starting at position `first_case` (from 0) of
    /// the audit, with `expected` the exact answer text.
    pub fn new(
        cases: &'a [(Board, Status)],
        first_case: u64,
        expected: &'a [u8],
        keep: usize,
    ) -> Checker<'a> {
        Checker {
            cases,
            first_case,
            expected,
            pos: 0,
            mark: 0,
            answered: 0,
            blank: 0,
            partial: Vec::new(),
            tally: Tally::new(keep),
            broken: None,
            words: &AnswerWords::CODE_JAM,
        }
    }

    /// The checker for answers in other words than Code Jam's (`expected` written in them).
    pub fn answering(mut self, words: &'a AnswerWords) -> Checker<'a> {
        self.words = words;
        self
    }

    /// Answers accepted so far (right or wrong).
    pub fn answered(&mut self) -> usize {
        self.answered += count_lines(&self.expected[self.mark..self.pos]);
        self.mark = self.pos;
        self.answered
    }

    /// Takes more output; `false` once the output is broken (see [`Checker::broken`]).
    pub fn feed(&mut self, mut data: &[u8]) -> bool {
        if self.broken.is_some() {
            return false;
        }
        if !self.partial.is_empty() {
            match data.iter().position(|&b| b == b'\n') {
                Some(nl) => {
                    let mut line = std::mem::take(&mut self.partial);
                    line.extend_from_slice(&data[..=nl]);
                    data = &data[nl + 1..];
                    if !self.lines(&line) {
                        return false;
                    }
                }
                None => {
                    self.partial.extend_from_slice(data);
                    return self.partial_fits();
                }
            }
        }
        match data.iter().rposition(|&b| b == b'\n') {
            Some(nl) => {
                if !self.lines(&data[..=nl]) {
                    return false;
                }
                self.partial.extend_from_slice(&data[nl + 1..]);
            }
            None => self.partial.extend_from_slice(data),
        }
        self.partial_fits()
    }

    /// Ends the output. `complete` says whether the solver ended normally, in which case a
    /// last line without a newline counts; after a crash it is taken as cut short.
    pub fn finish(&mut self, complete: bool) -> bool {
        if self.broken.is_some() {
            return false;
        }
        let last = std::mem::take(&mut self.partial);
        if complete && !last.is_empty() {
            return self.line(&last);
        }
        true
    }

    fn partial_fits(&mut self) -> bool {
        if self.partial.len() > MAX_LINE {
            let text = self.partial.clone();
            self.fail(Broken::LongLine, &text);
            return false;
        }
        true
    }

    /// Checks whole lines (`data` ends with a newline).
    fn lines(&mut self, mut data: &[u8]) -> bool {
        while !data.is_empty() {
            let exp = &self.expected[self.pos..];
            let same = common_prefix(data, exp);
            if same == data.len() {
                self.pos += same;
                return true;
            }
            // Lines before the first difference are exact answers.
            let start = data[..same]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            self.pos += start;
            data = &data[start..];
            let nl = data
                .iter()
                .position(|&b| b == b'\n')
                .expect("whole lines end with a newline");
            if !self.line(&data[..nl]) {
                return false;
            }
            data = &data[nl + 1..];
        }
        true
    }

    /// Reads one line that is not the exact expected text.
    fn line(&mut self, raw: &[u8]) -> bool {
        let read = read_output_line(raw);
        if read == OutputLine::Blank {
            self.blank += 1;
            return true;
        }
        let k = self.answered();
        if k == self.cases.len() {
            self.fail(Broken::TooMany, raw);
            return false;
        }
        let OutputLine::Case { number, answer } = read else {
            self.fail(Broken::Garbage, raw);
            return false;
        };
        if !is_case_number(number, k as u64 + 1) {
            let said = clip(number);
            self.fail(Broken::Misnumbered(said), raw);
            return false;
        }
        let (board, expected) = self.cases[k];
        if !same_words(answer, self.words.word(expected)) {
            self.tally.add(Failure {
                case: self.first_case + k as u64 + 1,
                board,
                stones: board.ply(),
                expected,
                received: clip(answer),
            });
        }
        // Step over the expected line of this case.
        let rest = &self.expected[self.pos..];
        let len = rest
            .iter()
            .position(|&b| b == b'\n')
            .map_or(rest.len(), |i| i + 1);
        self.pos += len;
        true
    }

    fn fail(&mut self, what: Broken, raw: &[u8]) {
        let answered = self.answered();
        self.broken = Some(BrokenAt {
            what,
            line: answered as u64 + self.blank + 1,
            text: clip(raw.trim_ascii_end()),
            answered,
        });
    }
}

/// Some output as text safe to print: escaped (see [`crate::escape`]), at most [`KEEP_TEXT`]
/// bytes of it, with the length of the whole when it is longer.
fn clip(bytes: &[u8]) -> String {
    crate::output::escape::excerpt(bytes, KEEP_TEXT)
}

fn count_lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// Length of the common prefix of `a` and `b`: whole 64-byte blocks compared at once, then
/// bytes.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 64 <= n && a[i..i + 64] == b[i..i + 64] {
        i += 64;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tictactoe::codejam::AnswerWriter;

    fn expected(statuses: &[Status]) -> Vec<u8> {
        let mut w = AnswerWriter::new(Vec::new());
        w.push_all(statuses).unwrap();
        w.finish().unwrap()
    }

    fn cases(statuses: &[Status]) -> Vec<(Board, Status)> {
        let board = |i: usize| Board {
            x: i as u16,
            o: 0,
            t: 0,
        };
        statuses
            .iter()
            .enumerate()
            .map(|(i, &s)| (board(i), s))
            .collect()
    }

    /// Feeds `out` in pieces of `step` bytes; returns the checker's verdicts.
    fn check(statuses: &[Status], out: &[u8], step: usize) -> (usize, Tally, Option<BrokenAt>) {
        let b = cases(statuses);
        let exp = expected(statuses);
        let mut c = Checker::new(&b, 100, &exp, 10);
        let mut ok = true;
        for piece in out.chunks(step) {
            ok = c.feed(piece);
            if !ok {
                break;
            }
        }
        if ok {
            c.finish(true);
        }
        (c.answered(), c.tally.clone(), c.broken.clone())
    }

    const S: [Status; 4] = [Status::XWon, Status::OWon, Status::Draw, Status::Open];

    #[test]
    fn exact_and_lenient_output_is_accepted() {
        let exact = expected(&S);
        for step in [1, 3, 7, 1000] {
            let (n, t, b) = check(&S, &exact, step);
            assert_eq!((n, t.wrong, b), (4, 0, None));
        }
        let loose = b"Case #1:  X won \r\n\nCase #2: O won\r\n\t Case #3:\tDraw\nCase #4: Game  has not completed";
        let (n, t, b) = check(&S, loose, 5);
        assert_eq!((n, t.wrong, b), (4, 0, None));
        // The colon belongs to the number's word, as `tomek check` and the judge read it.
        let (_, _, b) = check(&S, b"Case #1:X won\n", 100);
        assert_eq!(b.unwrap().what, Broken::Garbage);
    }

    #[test]
    fn wrong_answers_are_tallied_by_kind() {
        let out = b"Case #1: X won\nCase #2: 0 won\nCase #3: X won\nCase #4: X won\n";
        let (n, t, b) = check(&S, out, 4);
        assert_eq!((n, t.wrong, b), (4, 3, None));
        assert_eq!(t.kinds.len(), 3);
        assert_eq!(t.kinds[0].received, "0 won");
        assert_eq!(t.kinds[0].expected, Status::OWon);
        assert_eq!(t.first[0].case, 102);
        assert_eq!(t.first[2].case, 104);
    }

    #[test]
    fn broken_output_is_located() {
        let (_, _, b) = check(&S, b"Case #1: X won\n\nCase #3: O won\n", 100);
        let b = b.unwrap();
        assert_eq!(b.what, Broken::Misnumbered("3".into()));
        assert_eq!((b.line, b.answered), (3, 1));
        let (_, _, b) = check(&S, b"Case #1: X won\nboard 2\n", 2);
        let b = b.unwrap();
        assert_eq!(
            (b.what, b.line, b.text.as_str()),
            (Broken::Garbage, 2, "board 2")
        );
        let mut all = expected(&S);
        all.extend_from_slice(b"done\n");
        let (n, _, b) = check(&S, &all, 9);
        assert_eq!((n, b.unwrap().what), (4, Broken::TooMany));
        let (_, _, b) = check(&S, &vec![b'x'; MAX_LINE + 10], 4096);
        assert_eq!(b.unwrap().what, Broken::LongLine);
        // Leading zeros are a different number.
        let (_, _, b) = check(&S, b"Case #01: X won\n", 100);
        assert_eq!(b.unwrap().what, Broken::Misnumbered("01".into()));
    }

    #[test]
    fn too_few_answers_leave_cases_unanswered() {
        let exact = expected(&S);
        let cut = &exact[..exact.len() - 5];
        // After a crash the cut line does not count; after a normal end it is read (wrongly).
        let b = cases(&S);
        let mut c = Checker::new(&b, 0, &exact, 10);
        assert!(c.feed(cut));
        assert!(c.finish(false));
        assert_eq!(c.answered(), 3);
        let (n, t, _) = check(&S, cut, 8);
        assert_eq!((n, t.wrong), (4, 1));
    }

    #[test]
    fn merged_tallies_keep_case_order_and_fewest_stones() {
        let f = |case: u64, stones: u32| Failure {
            case,
            board: Board::default(),
            stones,
            expected: Status::XWon,
            received: "Draw".into(),
        };
        let mut a = Tally::new(3);
        a.add(f(1, 9));
        a.add(f(2, 7));
        let mut b = Tally::new(3);
        b.add(f(5, 7));
        b.add(f(6, 5));
        b.add(f(7, 5));
        a.merge(b);
        assert_eq!(a.wrong, 5);
        assert_eq!(
            a.first.iter().map(|f| f.case).collect::<Vec<_>>(),
            [1, 2, 5]
        );
        assert_eq!(a.kinds.len(), 1);
        assert_eq!((a.kinds[0].minimal.case, a.kinds[0].count), (6, 5));
    }
}
