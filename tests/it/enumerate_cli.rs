//! `tomek enumerate` end to end: the files it writes hold exactly the selected reachable boards,
//! answered the way play labelled them.

use crate::harness::*;
use std::fs;
use tomek::outcome::Status;
use tomek::tictactoe::board::Board;
use tomek::tictactoe::codejam::{CaseReader, Strictness};
use tomek::tictactoe::enumerate::{BINARY_RECORD, read_binary};
use tomek::tictactoe::reach;
use tomek::tictactoe::rules::Geometry;

/// The boards of a Code Jam input, read strictly: the enumerator writes the exact format.
fn read_cases(path: &std::path::Path) -> Vec<Board> {
    let f = fs::File::open(path).unwrap();
    let mut r = CaseReader::new(f, path.display().to_string(), Strictness::Strict);
    let n = r.case_count().unwrap();
    let boards: Vec<Board> = r.by_ref().map(|c| c.unwrap().1).collect();
    assert_eq!(boards.len() as u64, n);
    boards
}

#[test]
fn codejam_files_hold_every_selected_board_with_its_answer() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("t5");
    tomek()
        .args([
            "enumerate",
            "--setup",
            "5",
            "--ply",
            "6-9",
            "--format",
            "codejam",
            "-o",
        ])
        .arg(&prefix)
        .assert()
        .success();
    let boards = read_cases(&prefix.with_extension("in"));
    let answers = fs::read_to_string(prefix.with_extension("out")).unwrap();
    let g = Geometry::tomek();
    assert!(boards.len() > 100_000, "{} boards", boards.len());
    let mut last = 0;
    let mut seen = std::collections::HashSet::new();
    for ((i, b), line) in boards.iter().enumerate().zip(answers.lines()) {
        // Every board reachable, of the selected setup and plies, answered as the independent
        // predicate labels it, and never twice.
        let status = reach::check(g, *b).unwrap_or_else(|e| panic!("case {}: {e}", i + 1));
        assert_eq!(b.t, 1 << 5);
        assert!((6..=9).contains(&b.ply()));
        assert_eq!(line, format!("Case #{}: {}", i + 1, status.answer()));
        assert!(last <= b.ply(), "plies come in order");
        last = b.ply();
        assert!(seen.insert(*b), "case {}: a board written twice", i + 1);
    }
    assert_eq!(answers.lines().count(), boards.len());
    // The count matches the predicate applied to every filling of those plies.
    let mut expected = 0usize;
    let t = 1u16 << 5;
    let free: Vec<u32> = (0..16).filter(|&i| i != 5).collect();
    let mut x_o = vec![(0u16, 0u16)];
    for &sq in &free {
        let mut next = Vec::with_capacity(x_o.len() * 3);
        for &(x, o) in &x_o {
            next.push((x, o));
            next.push((x | 1 << sq, o));
            next.push((x, o | 1 << sq));
        }
        x_o = next;
    }
    for (x, o) in x_o {
        let b = Board { x, o, t };
        if (6..=9).contains(&b.ply()) && reach::is_reachable(g, b) {
            expected += 1;
        }
    }
    assert_eq!(boards.len(), expected);
}

#[test]
fn standard_output_is_the_input_and_solve_agrees_with_the_answers() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("d");
    let args = ["enumerate", "--setup", "none,3", "--status", "draw,o"];
    let stdout = tomek()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    tomek().args(args).arg("-o").arg(&prefix).assert().success();
    assert_eq!(stdout, fs::read(prefix.with_extension("in")).unwrap());
    let solved = tomek()
        .arg("solve")
        .arg(prefix.with_extension("in"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(solved, fs::read(prefix.with_extension("out")).unwrap());
}

#[test]
fn lines_and_binary_hold_the_same_boards() {
    let dir = tempfile::tempdir().unwrap();
    let (lines, bin) = (dir.path().join("b.txt"), dir.path().join("b.bin"));
    let args = ["enumerate", "--setup", "none", "--ply", "16,15"];
    tomek()
        .args(args)
        .args(["--format", "lines", "-o"])
        .arg(&lines)
        .assert()
        .success();
    tomek()
        .args(args)
        .args(["--format", "binary", "-o"])
        .arg(&bin)
        .assert()
        .success();
    let text = fs::read_to_string(&lines).unwrap();
    let raw = fs::read(&bin).unwrap();
    assert_eq!(raw.len() % BINARY_RECORD, 0);
    assert_eq!(raw.len() / BINARY_RECORD, text.lines().count());
    let g = Geometry::tomek();
    for (line, rec) in text.lines().zip(raw.chunks_exact(BINARY_RECORD)) {
        let (b, s) = read_binary(rec.try_into().unwrap()).expect("a valid record");
        let (symbols, answer) = line.split_once(' ').unwrap();
        assert_eq!(Board::from_symbols(symbols.as_bytes()), Ok(b));
        assert_eq!(Status::from_answer(answer), Some(s));
        assert_eq!(reach::check(g, b), Ok(s));
        assert!(b.ply() >= 15);
    }
}

#[test]
fn bad_filters_are_usage_errors() {
    for bad in [
        ["--ply", "17"],
        ["--ply", "9-3"],
        ["--status", "won"],
        ["--setup", "16"],
    ] {
        tomek().arg("enumerate").args(bad).assert().code(2);
    }
}
