//! The strong solution saved ply by ply (`fourow count --method bdd --values --save DIR`,
//! `--resume DIR`, `tomek::fourow::bdd::saved`): read back, it values every position as the
//! solution in memory and the search do; a resumed run leaves the same bytes as a run never
//! stopped; damaged or foreign files stop a run with exit code 2 and are left as they were.

use crate::harness::{stdout_of, tomek};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::path::Path;
use tomek::fourow::bdd::saved::{self, LookupError, Saved};
use tomek::fourow::bdd::values::{self, Disk, Value};
use tomek::fourow::solve::{Shape, Solver, parse_moves};

/// Every file of a directory, by name, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().into_string().unwrap();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for (name, bytes) in files(from) {
        std::fs::write(to.join(name), bytes).unwrap();
    }
}

/// Every sequence of moves of at most `plies` moves (moves after a four included).
fn all_sequences(cols: u32, rows: u32, plies: usize) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new()];
    let mut at = 0;
    while at < out.len() {
        let moves: Vec<u8> = out[at].clone();
        at += 1;
        if moves.len() == plies {
            continue;
        }
        for col in 0..cols as u8 {
            if moves.iter().filter(|&&c| c == col).count() < rows as usize {
                let mut next = moves.clone();
                next.push(col);
                out.push(next);
            }
        }
    }
    out
}

/// Every prefix of `n` seeded random games played to the full board, through any four.
fn random_prefixes(cols: u32, rows: u32, n: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..n {
        let mut heights = vec![0; cols as usize];
        let mut moves = Vec::new();
        loop {
            let open: Vec<u8> = (0..cols as u8)
                .filter(|&c| heights[c as usize] < rows)
                .collect();
            if open.is_empty() {
                break;
            }
            let c = open[rng.random_range(0..open.len())];
            heights[c as usize] += 1;
            moves.push(c);
            out.push(moves.clone());
        }
    }
    out
}

fn save(cols: u32, rows: u32, dir: &Path) -> values::Solution {
    let disk = Disk { dir, resume: false };
    values::save(cols, rows, 1 << 30, disk, |_, _| {}).expect("the board is solved and saved")
}

fn counts(s: &values::Solution) -> Vec<[u64; 5]> {
    s.plies
        .iter()
        .map(|(v, _)| [v.positions, v.won, v.drawn, v.lost, v.terminal])
        .collect()
}

#[test]
fn a_saved_solution_values_every_position_as_the_solution_in_memory() {
    for (cols, rows) in [(4, 4), (5, 4), (3, 5)] {
        let dir = tempfile::tempdir().unwrap();
        let written = save(cols, rows, dir.path());
        let mut asked = all_sequences(cols, rows, 6);
        asked.extend(random_prefixes(
            cols,
            rows,
            300,
            u64::from(cols * 10 + rows),
        ));
        let memory = values::solve(cols, rows, 1 << 30, &asked, |_, _| {}).unwrap();
        assert_eq!(counts(&written), counts(&memory), "{cols}×{rows}");
        let mut solution = Saved::open(dir.path()).unwrap();
        assert_eq!(
            (solution.layout().cols, solution.layout().rows),
            (cols, rows)
        );
        for (moves, want) in asked.iter().zip(&memory.queries) {
            assert_eq!(
                solution.value(moves).unwrap(),
                *want,
                "{cols}×{rows} {moves:?}"
            );
        }
        // A bad move is named.
        assert!(matches!(
            solution.value(&[9]),
            Err(LookupError::BadMove { at: 1, col: 10 })
        ));
    }
}

#[test]
fn a_saved_solution_agrees_with_the_search() {
    let (cols, rows) = (5, 4);
    let dir = tempfile::tempdir().unwrap();
    save(cols, rows, dir.path());
    let mut solution = Saved::open(dir.path()).unwrap();
    let shape = Shape::new(cols, rows).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(54);
    let mut solver = Solver::new(16 << 20);
    for _ in 0..150 {
        let stones = rng.random_range(0..cols * rows);
        let moves = tomek::fourow::solve::random_open_game(shape, stones, &mut rng);
        let columns: Vec<u8> = moves.bytes().map(|c| c - b'1').collect();
        let score = solver.solve(parse_moves(&moves, shape).unwrap()).0;
        let want = match score.signum() {
            1 => Value::Won,
            0 => Value::Drawn,
            _ => Value::Lost,
        };
        assert_eq!(solution.value(&columns).unwrap(), Some(want), "`{moves}`");
    }
}

#[test]
fn a_ply_file_round_trips_and_refuses_damage() {
    let dir = tempfile::tempdir().unwrap();
    save(4, 4, dir.path());
    let manifest = saved::read_manifest(dir.path()).unwrap();
    assert_eq!(manifest.split, 0, "4×4 is solved whole");
    let layout = manifest.layout;
    for ply in 0..=16 {
        for kind in [saved::Kind::Open, saved::Kind::Values] {
            let path = kind.file(dir.path(), ply, &[]);
            let bytes = std::fs::read(&path).unwrap();
            let file =
                saved::Diagrams::from_bytes(&bytes, &path, kind, layout, (ply, &[])).unwrap();
            assert_eq!(file.to_bytes(), bytes, "{}", path.display());
        }
    }
    let path = saved::Kind::Values.file(dir.path(), 9, &[]);
    let bytes = std::fs::read(&path).unwrap();
    let read = |b: &[u8]| {
        saved::Diagrams::from_bytes(b, &path, saved::Kind::Values, layout, (9, &[]))
            .unwrap_err()
            .to_string()
    };
    for at in [0, 9, 20, 45, bytes.len() / 2, bytes.len() - 1] {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x10;
        let err = read(&flipped);
        assert!(err.contains("values-09.bdd"), "byte {at}: {err}");
    }
    assert!(read(&bytes[..bytes.len() - 10]).contains("truncated"));
    assert!(read(&bytes[..30]).contains("too short"));
    // Look-ups read files in place: a truncated file, or a node out of order on the way, is
    // an error naming the file, not a value; the checksum of every file is checked by
    // `saved::verify`.
    let moves = [0, 1, 0, 1, 2, 3, 2, 3, 1];
    let lookup_error = |file: &[u8]| {
        std::fs::write(&path, file).unwrap();
        Saved::open(dir.path())
            .unwrap()
            .value(&moves)
            .unwrap_err()
            .to_string()
    };
    let err = lookup_error(&bytes[..bytes.len() - 3]);
    assert!(
        err.contains("values-09.bdd") && err.contains("bytes"),
        "{err}"
    );
    let mut broken = bytes.clone();
    let root = u32::from_le_bytes(broken[64..68].try_into().unwrap()) as usize;
    let at = 72 + 10 * (root - 2);
    broken[at..at + 2].copy_from_slice(&999u16.to_le_bytes());
    let err = lookup_error(&broken);
    assert!(
        err.contains("values-09.bdd") && err.contains("node"),
        "{err}"
    );
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 1;
    std::fs::write(&path, flipped).unwrap();
    let err = saved::verify(dir.path(), manifest).unwrap_err().to_string();
    assert!(
        err.contains("values-09.bdd") && err.contains("checksum"),
        "{err}"
    );
}

fn save_args<'a>(cols: &'a str, flag: &'a str, dir: &'a str) -> Vec<&'a str> {
    vec![
        "fourow", "count", "--method", "bdd", "--values", "--cols", cols, "--rows", "4",
        "--format", "csv", flag, dir,
    ]
}

#[test]
fn a_resumed_run_leaves_the_bytes_of_a_run_never_stopped() {
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    let csv = stdout_of(&save_args("4", "--save", whole.to_str().unwrap()));
    let saved = files(&whole);
    assert_eq!(saved.len(), 1 + 2 * 17, "{:?}", saved.keys());
    let manifest = String::from_utf8(saved["manifest.txt"].clone()).unwrap();
    assert!(
        manifest.contains("\nply.7 = 2512 60 874 1524 114\n"),
        "{manifest}"
    );
    // Stopped in the backward pass, at its start, and in the forward pass.
    let stops: [&dyn Fn(&str) -> bool; 3] = [
        &|name| ["values-00", "values-01", "values-02", "values-03"].contains(&&name[..9]),
        &|name| name.starts_with("values-"),
        &|name| name.starts_with("values-") || name > "open-09",
    ];
    for (i, stopped) in stops.iter().enumerate() {
        let dir = root.path().join(format!("stopped-{i}"));
        copy(&whole, &dir);
        for name in saved.keys().filter(|n| n.ends_with(".bdd") && stopped(n)) {
            std::fs::remove_file(dir.join(name)).unwrap();
        }
        let again = stdout_of(&save_args("4", "--resume", dir.to_str().unwrap()));
        assert_eq!(again, csv, "stop {i}");
        assert!(files(&dir) == saved, "stop {i}: the files differ");
    }
}

/// Runs `tomek ARGS`, expecting exit code 2 with a message that contains `says`, and the
/// directory `dir` left as it was.
fn refused(args: &[&str], dir: &Path, says: &[&str]) {
    let before = files(dir);
    let out = tomek().arg("--quiet").args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    for s in says {
        assert!(stderr.contains(s), "{args:?}: {stderr}");
    }
    assert!(files(dir) == before, "{args:?} changed the directory");
}

#[test]
fn damaged_or_foreign_solutions_exit_with_code_2_and_lose_nothing() {
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    stdout_of(&save_args("4", "--save", whole.to_str().unwrap()));
    let dir = root.path().join("damaged");
    let d = dir.to_str().unwrap();
    copy(&whole, &dir);
    // Saving again over a solution.
    refused(
        &save_args("4", "--save", d),
        &dir,
        &["holds a solution already"],
    );
    // Resuming it as another board's.
    refused(
        &save_args("5", "--resume", d),
        &dir,
        &["manifest.txt", "4×4"],
    );
    // A flipped byte, a truncated file, a file of another ply.
    let path = dir.join("values-07.bdd");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[60] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    refused(
        &save_args("4", "--resume", d),
        &dir,
        &["values-07.bdd", "checksum"],
    );
    copy(&whole, &dir);
    let path = dir.join("open-09.bdd");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    refused(
        &save_args("4", "--resume", d),
        &dir,
        &["open-09.bdd", "truncated"],
    );
    copy(&whole, &dir);
    std::fs::copy(dir.join("open-03.bdd"), dir.join("open-04.bdd")).unwrap();
    refused(
        &save_args("4", "--resume", d),
        &dir,
        &["open-04.bdd", "ply 3"],
    );
    // A file of another board.
    copy(&whole, &dir);
    let other = root.path().join("other");
    stdout_of(&save_args("5", "--save", other.to_str().unwrap()));
    std::fs::copy(other.join("values-05.bdd"), dir.join("values-05.bdd")).unwrap();
    refused(
        &save_args("4", "--resume", d),
        &dir,
        &["values-05.bdd", "5×4"],
    );
    // No solution at all to resume.
    let empty = root.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    refused(
        &save_args("4", "--resume", empty.to_str().unwrap()),
        &empty,
        &["manifest.txt"],
    );
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn plies_solved_in_pieces_give_the_same_solution_and_resume_piece_by_piece() {
    let (cols, rows) = (5, 4);
    let mut asked = all_sequences(cols, rows, 4);
    asked.extend(random_prefixes(cols, rows, 200, 7));
    let settings = |split| values::Settings {
        cols,
        rows,
        memory_limit: 1 << 30,
        split: Some(split),
    };
    let whole = values::solve_with(settings(0), &asked, None, |_, _| {}).unwrap();
    for split in 1..=3 {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("whole");
        let disk = Disk {
            dir: &dir,
            resume: false,
        };
        let pieces = values::solve_with(settings(split), &asked, Some(disk), |_, _| {}).unwrap();
        assert_eq!(counts(&pieces), counts(&whole), "split {split}");
        assert_eq!(pieces.queries, whole.queries, "split {split}");
        let in_memory = values::solve_with(settings(split), &asked, None, |_, _| {}).unwrap();
        assert_eq!(in_memory.queries, whole.queries, "split {split}, in memory");
        let mut solution = Saved::open(&dir).unwrap();
        for (moves, want) in asked.iter().zip(&whole.queries) {
            assert_eq!(
                solution.value(moves).unwrap(),
                *want,
                "split {split} {moves:?}"
            );
        }
        // A run stopped inside ply 9 of the backward pass: every third of its pieces and the
        // pieces of the plies below are missing.
        let saved = files(&dir);
        let values: Vec<&String> = saved.keys().filter(|n| n.starts_with("values-")).collect();
        assert!(
            values.len() > 21,
            "split {split}: {} values files",
            values.len()
        );
        let stopped = root.path().join("stopped");
        copy(&dir, &stopped);
        let in_ply_9: Vec<&&String> = values
            .iter()
            .filter(|n| n.starts_with("values-09"))
            .collect();
        for name in values.iter().filter(|n| n.as_str() < "values-09") {
            std::fs::remove_file(stopped.join(name)).unwrap();
        }
        for name in in_ply_9.iter().step_by(3) {
            std::fs::remove_file(stopped.join(name)).unwrap();
        }
        let disk = Disk {
            dir: &stopped,
            resume: true,
        };
        let resumed = values::save(cols, rows, 1 << 30, disk, |_, _| {}).unwrap();
        assert_eq!(counts(&resumed), counts(&whole), "split {split}, resumed");
        assert!(files(&stopped) == saved, "split {split}: the files differ");
    }
}

#[test]
fn explain_and_score_answer_from_a_solution_as_the_search_does() {
    let (cols, rows) = (5, 4);
    let dir = tempfile::tempdir().unwrap();
    save(cols, rows, dir.path());
    let d = dir.path().to_str().unwrap();
    let shape = Shape::new(cols, rows).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let mut lines = String::new();
    for _ in 0..300 {
        let stones = rng.random_range(0..cols * rows);
        lines += &tomek::fourow::solve::random_open_game(shape, stones, &mut rng);
        lines.push('\n');
    }
    let input = dir.path().join("positions.txt");
    std::fs::write(&input, &lines).unwrap();
    let board = ["--cols", "5", "--rows", "4"];
    let i = input.to_str().unwrap();
    let mut args = vec!["fourow", "score", i];
    args.extend(board);
    let searched = stdout_of(&args);
    args.extend(["--solution", d]);
    assert_eq!(
        stdout_of(&args),
        searched,
        "scores with and without the solution"
    );
    for line in lines.lines().take(40) {
        let mut args = vec!["fourow", "explain", line, "--format", "json"];
        args.extend(board);
        let search: serde_json::Value = serde_json::from_str(&stdout_of(&args)).unwrap();
        args.extend(["--solution", d]);
        let with: serde_json::Value = serde_json::from_str(&stdout_of(&args)).unwrap();
        assert_eq!(with, search, "`{line}`");
        args.push("--no-search");
        let looked: serde_json::Value = serde_json::from_str(&stdout_of(&args)).unwrap();
        assert_eq!(looked["outcome"], search["outcome"], "`{line}`");
        let outcomes = |v: &serde_json::Value| -> Vec<(u64, String)> {
            v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| (m["column"].as_u64().unwrap(), m["outcome"].to_string()))
                .collect()
        };
        assert_eq!(outcomes(&looked), outcomes(&search), "`{line}`");
    }
    // The solution saved in the default place is found with no --solution.
    let data = tempfile::tempdir().unwrap();
    copy(dir.path(), &data.path().join("fourow-solution-5x4"));
    let mut args = vec!["fourow", "explain", "3", "--no-search", "--format", "json"];
    args.extend(board);
    let found = tomek()
        .env("TOMEK_DATA_DIR", data.path())
        .args(&args)
        .output()
        .unwrap();
    assert!(found.status.success());
    assert!(String::from_utf8_lossy(&found.stdout).contains("\"outcome\": \"draw\""));
    // A solution of another board, and none at all, are refused with exit code 2.
    let out = tomek()
        .args(["fourow", "explain", "3", "--solution", d])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("5×4"));
    let out = tomek()
        .env("TOMEK_DATA_DIR", dir.path().join("nothing"))
        .args([
            "fourow",
            "explain",
            "3",
            "--no-search",
            "--cols",
            "5",
            "--rows",
            "4",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--solution"));
}
