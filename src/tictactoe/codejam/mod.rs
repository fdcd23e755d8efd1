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
//!
//! [`read`] holds the reader, [`decode`] the branch-free decoding of one case, [`write`] the
//! writers of inputs and answers; answering a whole input ([`solve`]) is here.

mod decode;
mod read;
mod write;

pub use read::{CASE_BYTES, CaseReader, ParseError, Strictness};
pub use write::{
    AnswerWords, AnswerWriter, MAX_ANSWER_BYTES, case_text, push_answer, push_case, push_count,
    push_number, write_input,
};

use crate::outcome::Status;
use crate::tictactoe::eval::{Bits, Evaluator, EvaluatorKind, Lines, Pattern, Table};
use std::io::{self, Read, Write};

/// Why answering an input stopped.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The input is malformed (or could not be read).
    #[error("{0}")]
    Input(#[from] ParseError),
    /// The answers could not be written.
    #[error("cannot write the answers")]
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

/// Cases handled per round of [`solve_with`]: few enough for the statuses to stay in the
/// first-level cache.
const BATCH: usize = 1024;

/// Answers every case of `input` with `eval`; returns the number of cases.
///
/// Works in rounds of two tight loops (read and evaluate a batch of boards, then write their
/// lines), each of which keeps its state in registers; one loop doing both per case keeps
/// reloading the reader's and the writer's fields around the calls of its rare paths. The
/// boards go from decoding to evaluation in registers, never through memory.
pub fn solve_with<E: Evaluator + ?Sized, R: Read, W: Write>(
    input: &mut CaseReader<R>,
    eval: &E,
    out: &mut AnswerWriter<W>,
) -> Result<u64, SolveError> {
    let mut statuses = vec![Status::Open; BATCH];
    let mut cases = 0;
    loop {
        let n = input.read_batch_with(&mut statuses, |b| eval.status_of(b.x, b.o, b.t))?;
        if n == 0 {
            return Ok(cases);
        }
        out.push_all(&statuses[..n])?;
        cases += n as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::decode::*;
    use super::read::*;
    use super::write::*;
    use super::*;
    use crate::tictactoe::board::Board;
    use proptest::prelude::*;

    const SAMPLE: &[u8] = include_bytes!("../../../generated/sample.in");
    const SAMPLE_OUT: &[u8] = include_bytes!("../../../generated/sample.out");

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

    /// Other answer words, up to the longest a line's store takes, on both the fast path and
    /// the slow one (numbers gaining a digit, numbers too long for the fast digits).
    #[test]
    fn a_writer_answers_in_other_words() {
        let long = "w".repeat(MAX_ANSWER_BYTES);
        let words = ["first", "second player", "Tie", long.as_str()];
        let w = AnswerWords::new(words).unwrap();
        for (s, word) in Status::ALL.into_iter().zip(words) {
            assert_eq!(w.word(s), word.as_bytes());
        }
        assert_eq!(AnswerWords::new(["a", "b", "c", &format!("{long}w")]), None);
        assert_eq!(AnswerWords::new(["a", "b", "c", "d\n"]), None);
        assert_eq!(AnswerWords::new(["a", "b", "c", ""]), None);
        let starts = [1u64, 95, 9_999_999_990, u64::MAX - 20];
        for first in starts {
            let mut out = AnswerWriter::starting_at(Vec::new(), first).answering(&w);
            let mut want = Vec::new();
            let statuses: Vec<Status> = (0..20).map(|i| Status::ALL[i * 7 % 4]).collect();
            out.push_all(&statuses[..10]).unwrap();
            for &s in &statuses[10..] {
                out.push(s).unwrap();
            }
            for (n, s) in (first..).zip(&statuses) {
                let word = words[s.index()];
                want.extend_from_slice(format!("Case #{n}: {word}\n").as_bytes());
            }
            assert_eq!(out.finish().unwrap(), want, "from {first}");
        }
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
            // Kept in a buffer of exactly the room asked for.
            let mut kept = AnswerWriter::keeping(Vec::new(), first, statuses.len());
            kept.push_all(&statuses).unwrap();
            let (buf, len) = kept.into_kept();
            assert_eq!(&buf[..len], want, "kept in a new buffer, from {first}");
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
