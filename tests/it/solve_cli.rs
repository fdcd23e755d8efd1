//! `tomek solve` from the outside: exact answers for the official sample with every evaluator,
//! exit code 2 and a `FILE:LINE: case N:` message for every kind of malformed input, the
//! untidiness the lenient reader forgives, and all-or-nothing `-o` output.

use crate::harness::*;
use std::fs;
use std::io::Read;
use std::process::Stdio;

fn sample_in() -> Vec<u8> {
    fs::read(generated("sample.in")).unwrap()
}

fn sample_out() -> Vec<u8> {
    fs::read(generated("sample.out")).unwrap()
}

/// Runs `tomek solve` on `input` given on standard input.
fn solve_stdin(input: &[u8]) -> std::process::Output {
    tomek()
        .arg("solve")
        .write_stdin(input.to_vec())
        .output()
        .unwrap()
}

#[test]
fn sample_with_every_evaluator() {
    for evaluator in ["lines", "pattern", "bits", "table"] {
        let out = tomek()
            .args(["solve", "--evaluator", evaluator])
            .arg(generated("sample.in"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{evaluator}");
        assert_eq!(out.stdout, sample_out(), "{evaluator}");
        assert!(out.stderr.is_empty(), "{evaluator}");
    }
}

#[test]
fn standard_input_by_dash_or_by_default() {
    tomek()
        .args(["solve", "-"])
        .write_stdin(sample_in())
        .assert()
        .success()
        .stdout(sample_out());
    tomek()
        .arg("solve")
        .write_stdin(sample_in())
        .assert()
        .success()
        .stdout(sample_out());
}

/// A kind of malformed input: its name, the input, then the line, the case (if inside one)
/// and the words the message must hold.
type Malformed = (&'static str, &'static [u8], u64, Option<u64>, &'static str);

/// Every kind of malformed input.
const MALFORMED: &[Malformed] = &[
    ("empty input", b"", 1, None, "the input is empty"),
    (
        "missing count",
        b"\nXXXT\n....\nOO..\n....\n\n",
        1,
        None,
        "must be the number of cases, found an empty line",
    ),
    (
        "non-numeric count",
        b"six\nXXXT\n....\nOO..\n....\n\n",
        1,
        None,
        "must be the number of cases, found \"six\"",
    ),
    (
        "huge count",
        b"123456789012345678901234567890\n",
        1,
        None,
        "is too large",
    ),
    (
        "fewer cases than the count",
        b"3\nXXXT\n....\nOO..\n....\n\nXOXT\nXXOO\nOXOX\nXXOO\n\n",
        12,
        Some(3),
        "the first line says 3 cases but the input ends after 2",
    ),
    (
        "character outside XOT.",
        b"1\nXXXT\n....\nOA..\n....\n\n",
        4,
        Some(1),
        "invalid character 'A' in row 3, column 2",
    ),
    (
        "invalid UTF-8",
        b"2\nXXXT\n....\nOO..\n....\n\nXO\xffT\nXXOO\nOXOX\nXXOO\n\n",
        7,
        Some(2),
        "invalid character '\\xff' in row 1, column 3",
    ),
    (
        "row too long",
        b"1\nXXXT\n.....\nOO..\n....\n\n",
        3,
        Some(1),
        "row 2 has 5 symbols, expected 4",
    ),
    (
        "row too short",
        b"1\nXXXT\n...\nOO..\n....\n\n",
        3,
        Some(1),
        "row 2 has 3 symbols, expected 4",
    ),
    (
        "missing row (empty line)",
        b"1\nXXXT\n....\n\n....\n\n",
        4,
        Some(1),
        "row 3 is missing",
    ),
    (
        "missing row (end of input)",
        b"1\nXXXT\n....\nOO..\n",
        5,
        Some(1),
        "row 4 is missing: the input ends",
    ),
    (
        "two Ts",
        b"1\nXXXT\n....\nOT..\n....\n\n",
        4,
        Some(1),
        "more than one T",
    ),
    (
        "text after the last case",
        b"1\nXXXT\n....\nOO..\n....\n\nXOXT\nXXOO\nOXOX\nXXOO\n\n",
        7,
        None,
        "text after the last case",
    ),
];

#[test]
fn every_malformed_input_exits_2_with_line_and_case() {
    for &(what, input, line, case, words) in MALFORMED {
        let out = solve_stdin(input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
        let place = match case {
            Some(n) => format!("<stdin>:{line}: case {n}: "),
            None => format!("<stdin>:{line}: "),
        };
        assert!(
            stderr.starts_with(&place),
            "{what}: want {place:?}, got {stderr:?}"
        );
        if case.is_none() {
            assert!(!stderr.contains("case "), "{what}: {stderr}");
        }
        assert!(
            stderr.contains(words),
            "{what}: want {words:?}, got {stderr:?}"
        );
        assert_eq!(stderr.lines().count(), 1, "{what}: one line: {stderr:?}");
    }
}

#[test]
fn errors_name_the_file_and_follow_the_answers_before_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("three.in");
    fs::write(
        &path,
        b"3\nXXXT\n....\nOO..\n....\n\nXOXT\nXXOO\nOXOX\nXXOO\n\nXOX.\nOX..\n.Q..\n....\n\n",
    )
    .unwrap();
    let out = tomek().arg("solve").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout, b"Case #1: X won\nCase #2: Draw\n");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr,
        format!(
            "{}:14: case 3: invalid character 'Q' in row 3, column 2; expected X, O, T or .\n",
            path.display()
        )
    );
}

#[test]
fn unreadable_input_exits_2() {
    let out = tomek().args(["solve", "no/such/file.in"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open no/such/file.in"));
}

#[test]
fn lenient_reading_forgives_layout_noise() {
    let sample = sample_in();
    let crlf: Vec<u8> = sample
        .iter()
        .flat_map(|&b| {
            if b == b'\n' {
                vec![b'\r', b'\n']
            } else {
                vec![b]
            }
        })
        .collect();
    let no_final_empty_line = sample[..sample.len() - 1].to_vec();
    let no_final_newline = sample[..sample.len() - 2].to_vec();
    let extra_empty_lines = String::from_utf8(sample.clone())
        .unwrap()
        .replace("\n\n", "\n\n\n \n\t\n")
        .into_bytes();
    let trailing_blanks = String::from_utf8(sample.clone())
        .unwrap()
        .replace('\n', " \t \n")
        .into_bytes();
    let variants = [
        ("CRLF", crlf),
        ("no final empty line", no_final_empty_line),
        ("no final newline", no_final_newline),
        ("extra empty lines", extra_empty_lines),
        ("trailing spaces and tabs", trailing_blanks),
    ];
    for (what, input) in variants {
        let out = solve_stdin(&input);
        assert!(
            out.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.stdout, sample_out(), "{what}");
    }
}

#[test]
fn output_file_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("answers.out");
    fs::write(&target, "old answers\n").unwrap();
    tomek()
        .arg("solve")
        .arg(generated("sample.in"))
        .arg("-o")
        .arg(&target)
        .assert()
        .success()
        .stdout("");
    assert_eq!(fs::read(&target).unwrap(), sample_out());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn output_file_is_untouched_when_the_input_is_malformed() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("answers.out");
    fs::write(&target, "old answers\n").unwrap();
    // Many good cases first, so that answers were already written when the error comes.
    let mut input = b"20001\n".to_vec();
    for _ in 0..20_000 {
        input.extend_from_slice(b"XXXT\n....\nOO..\n....\n\n");
    }
    input.extend_from_slice(b"XXXT\n..T.\nOO..\n....\n\n");
    let out = tomek()
        .args(["solve", "-", "--output"])
        .arg(&target)
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .starts_with("<stdin>:100003: case 20001: more than one T")
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "old answers\n");
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["answers.out"], "no temporary file is left behind");
}

#[test]
fn a_closed_stdout_is_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.in");
    let mut input = b"200000\n".to_vec();
    for _ in 0..200_000 {
        input.extend_from_slice(b"XOX.\nOX..\n....\n....\n\n");
    }
    fs::write(&path, input).unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("tomek"))
        .arg("solve")
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 14];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    assert_eq!(&first, b"Case #1: Game ");
    // The pipe is closed here, with megabytes of answers still to come.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
}
