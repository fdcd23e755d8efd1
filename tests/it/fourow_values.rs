//! The strong solution (`fourow count --method bdd --values`, `tomek::fourow::bdd::values`)
//! held to an explicit retrograde analysis written here (every position in a hash map, valued
//! from the last ply down), and the search held to the strong solution on random positions.

use crate::harness::{stdout_of, tomek};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use tomek::fourow::bdd::values::{self, Solution, SolveError, Value};
use tomek::fourow::solve::{Board, Shape, Solver, parse_moves};

/// The value of every position of a small board, found by walking every position.
struct Explicit {
    cols: usize,
    /// Per ply: each position (two bits a cell: 0 empty, 1 first player, 2 second) and its
    /// value for the side to move.
    plies: Vec<HashMap<u64, Value>>,
}

impl Explicit {
    fn cell(key: u64, cols: usize, col: usize, row: usize) -> u64 {
        key >> (2 * (row * cols + col)) & 3
    }

    /// The height of every column of `key`.
    fn heights(key: u64, cols: usize, rows: usize) -> Vec<usize> {
        (0..cols)
            .map(|c| {
                (0..rows)
                    .take_while(|&r| Self::cell(key, cols, c, r) != 0)
                    .count()
            })
            .collect()
    }

    /// Whether the chip at `col`, `row` is part of four in a line of its colour.
    fn four_through(key: u64, cols: usize, rows: usize, col: usize, row: usize) -> bool {
        let who = Self::cell(key, cols, col, row);
        let at = |c: isize, r: isize| {
            (c >= 0 && r >= 0 && (c as usize) < cols && (r as usize) < rows)
                .then(|| Self::cell(key, cols, c as usize, r as usize))
        };
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |sign: isize| {
                (1..4)
                    .take_while(|&k| {
                        at(col as isize + sign * k * dc, row as isize + sign * k * dr) == Some(who)
                    })
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }

    /// The children of an open position at `ply`, each with whether the move made a four.
    fn children(key: u64, ply: usize, cols: usize, rows: usize) -> Vec<(u64, bool)> {
        let who = 1 + (ply % 2) as u64;
        Self::heights(key, cols, rows)
            .into_iter()
            .enumerate()
            .filter(|&(_, h)| h < rows)
            .map(|(c, h)| {
                let child = key | who << (2 * (h * cols + c));
                (child, Self::four_through(child, cols, rows, c, h))
            })
            .collect()
    }

    fn solve(cols: usize, rows: usize) -> Explicit {
        let cells = cols * rows;
        // Forward: every position of every ply, with whether the last move made a four.
        let mut layers: Vec<HashMap<u64, bool>> = vec![HashMap::from([(0, false)])];
        for ply in 0..cells {
            let mut next = HashMap::new();
            for (&key, &over) in &layers[ply] {
                if !over {
                    for (child, four) in Self::children(key, ply, cols, rows) {
                        next.insert(child, four);
                    }
                }
            }
            layers.push(next);
        }
        // Backward: a position is won when some move wins or leads to a lost position, lost
        // when every move leads to a won one.
        let mut plies: Vec<HashMap<u64, Value>> = vec![HashMap::new(); cells + 1];
        for ply in (0..=cells).rev() {
            let mut values = HashMap::with_capacity(layers[ply].len());
            for (&key, &over) in &layers[ply] {
                let value = if over {
                    Value::Lost
                } else if ply == cells {
                    Value::Drawn
                } else {
                    let next: Vec<Value> = Self::children(key, ply, cols, rows)
                        .into_iter()
                        .map(|(child, _)| plies[ply + 1][&child])
                        .collect();
                    if next.contains(&Value::Lost) {
                        Value::Won
                    } else if next.contains(&Value::Drawn) {
                        Value::Drawn
                    } else {
                        Value::Lost
                    }
                };
                values.insert(key, value);
            }
            plies[ply] = values;
        }
        Explicit { cols, plies }
    }

    /// Positions, won, drawn, lost of every ply.
    fn table(&self) -> Vec<[u64; 4]> {
        self.plies
            .iter()
            .map(|ply| {
                let n = |v: Value| ply.values().filter(|&&x| x == v).count() as u64;
                [
                    ply.len() as u64,
                    n(Value::Won),
                    n(Value::Drawn),
                    n(Value::Lost),
                ]
            })
            .collect()
    }

    fn value(&self, moves: &str) -> Value {
        let mut key = 0u64;
        let mut heights = vec![0; self.cols];
        for (i, c) in moves.bytes().enumerate() {
            let col = usize::from(c - b'1');
            key |= (1 + (i % 2) as u64) << (2 * (heights[col] * self.cols + col));
            heights[col] += 1;
        }
        self.plies[moves.len()][&key]
    }
}

fn strong(cols: u32, rows: u32, queries: &[Vec<u8>]) -> Solution {
    values::solve(cols, rows, 1 << 30, queries, |_, _| {}).expect("the board is solved")
}

fn table(s: &Solution) -> Vec<[u64; 4]> {
    s.plies
        .iter()
        .map(|(v, _)| [v.positions, v.won, v.drawn, v.lost])
        .collect()
}

/// The outcome of a search score for the side to move.
fn value_of_score(score: i32) -> Value {
    match score.signum() {
        1 => Value::Won,
        0 => Value::Drawn,
        _ => Value::Lost,
    }
}

/// `n` seeded random open positions of every depth on the board, as digit strings.
fn random_positions(cols: u32, rows: u32, n: usize, seed: u64) -> Vec<String> {
    let shape = Shape::new(cols, rows).expect("the board fits");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let stones = rng.random_range(0..cols * rows);
            tomek::fourow::solve::random_open_game(shape, stones, &mut rng)
        })
        .collect()
}

fn columns(moves: &str) -> Vec<u8> {
    moves.bytes().map(|c| c - b'1').collect()
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn the_strong_solution_equals_an_explicit_retrograde_analysis() {
    for (cols, rows) in [(4, 4), (5, 4), (4, 5), (3, 5), (1, 4), (2, 3)] {
        let explicit = Explicit::solve(cols as usize, rows as usize);
        // Some positions of each ply asked about, the terminal ones among them.
        let mut asked: Vec<String> = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(u64::from(cols * 10 + rows));
        for _ in 0..200 {
            let mut moves = String::new();
            let mut b = Board::new(Shape::new(cols, rows).unwrap());
            while rng.random_range(0..12) > 0 && !b.last_mover_won() {
                let open: Vec<u32> = (0..cols).filter(|&c| b.can_play(c)).collect();
                if open.is_empty() {
                    break;
                }
                let c = open[rng.random_range(0..open.len())];
                b = b.play(c);
                moves.push(char::from_digit(c + 1, 10).unwrap());
            }
            asked.push(moves);
        }
        let queries: Vec<Vec<u8>> = asked.iter().map(|m| columns(m)).collect();
        let s = strong(cols, rows, &queries);
        assert_eq!(table(&s), explicit.table(), "{cols}×{rows}");
        for (moves, got) in asked.iter().zip(&s.queries) {
            assert_eq!(*got, Some(explicit.value(moves)), "{cols}×{rows} `{moves}`");
        }
    }
}

#[test]
fn the_positions_of_each_ply_are_the_counted_ones() {
    for (cols, rows) in [(4, 4), (5, 4), (4, 5), (7, 2), (2, 7)] {
        let s = strong(cols, rows, &[]);
        let counted = tomek::fourow::sized::count(cols, rows, cols * rows, |_| {}).unwrap();
        let positions: Vec<u64> = counted.iter().map(|p| p.positions()).collect();
        let solved: Vec<u64> = s.plies.iter().map(|(v, _)| v.positions).collect();
        assert_eq!(solved, positions, "{cols}×{rows}");
        for ((v, _), c) in s.plies.iter().zip(&counted) {
            assert_eq!(v.won + v.drawn + v.lost, v.positions, "{cols}×{rows} {v:?}");
            assert_eq!(v.terminal, c.x_won + c.o_won, "{cols}×{rows} {v:?}");
            assert!(v.terminal <= v.lost, "{cols}×{rows} {v:?}");
        }
    }
}

/// The strong solution's value of the empty board and the search's on the same boards agree
/// with the published outcomes.
fn empty_board_agrees(s: &Solution, cols: u32, rows: u32) {
    let (first, _) = &s.plies[0];
    let sign = match (first.won, first.drawn, first.lost) {
        (1, 0, 0) => 1,
        (0, 1, 0) => 0,
        (0, 0, 1) => -1,
        other => panic!("{cols}×{rows}: ply 0 holds {other:?}"),
    };
    let published = crate::published::FOUROW_OUTCOMES
        .iter()
        .find(|&&(c, r, _)| (c, r) == (cols, rows))
        .map(|&(_, _, outcome)| outcome);
    if let Some(outcome) = published {
        assert_eq!(sign, outcome, "{cols}×{rows}");
    }
}

#[test]
fn the_search_agrees_with_the_strong_solution_on_random_positions_of_small_boards() {
    for (cols, rows) in [(4, 4), (5, 4), (4, 5)] {
        search_agrees_on(cols, rows, 100);
    }
}

/// The search against the strong solution of a board, on `n` random positions and the empty
/// board.
fn search_agrees_on(cols: u32, rows: u32, n: usize) {
    let asked = random_positions(cols, rows, n, u64::from(cols * 100 + rows));
    let queries: Vec<Vec<u8>> = asked.iter().map(|m| columns(m)).collect();
    let s = strong(cols, rows, &queries);
    empty_board_agrees(&s, cols, rows);
    let shape = Shape::new(cols, rows).unwrap();
    let mut solver = Solver::new(16 << 20);
    for (moves, got) in asked.iter().zip(&s.queries) {
        let score = solver.solve(parse_moves(moves, shape).unwrap());
        assert_eq!(
            Some(value_of_score(score.0)),
            *got,
            "{cols}×{rows} `{moves}`"
        );
    }
}

/// A few seconds on two cores.
#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn the_search_agrees_with_the_strong_solution_on_random_positions_of_6x4() {
    search_agrees_on(6, 4, 40);
}

/// As long again: run by `scripts/bench-fourow.sh` (`cargo test --release -- --ignored`).
#[test]
#[ignore = "slow: run by scripts/bench-fourow.sh"]
fn the_search_agrees_with_the_strong_solution_on_random_positions_of_5x5() {
    search_agrees_on(5, 5, 100);
}

#[test]
fn queries_name_bad_moves_and_unreachable_positions() {
    let s = strong(
        4,
        4,
        &[vec![0, 1, 0, 1, 0, 1, 0], vec![0, 1, 0, 1, 0, 1, 0, 1]],
    );
    // The first player's four in column 1 ends the game: lost for the second player.
    assert_eq!(s.queries, vec![Some(Value::Lost), None]);
    let err = values::solve(4, 4, 1 << 30, &[vec![0; 5]], |_, _| {}).unwrap_err();
    assert!(
        matches!(
            err,
            SolveError::BadMove {
                index: 0,
                at: 5,
                col: 1
            }
        ),
        "{err}"
    );
    let err = values::solve(8, 6, 1 << 30, &[], |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("up to 42 cells"), "{err}");
}

#[test]
fn the_command_prints_the_values_of_every_ply() {
    let csv = stdout_of(&[
        "fourow", "count", "--method", "bdd", "--values", "--cols", "4", "--rows", "4", "--format",
        "csv",
    ]);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("ply,positions,won,drawn,lost,terminal"));
    let counted = stdout_of(&[
        "fourow", "count", "--method", "bdd", "--cols", "4", "--rows", "4", "--plies", "16",
        "--format", "csv",
    ]);
    let positions = |text: &str| -> Vec<String> {
        text.lines()
            .skip(1)
            .map(|l| l.split(',').take(2).collect::<Vec<_>>().join(","))
            .collect()
    };
    assert_eq!(positions(&csv), positions(&counted));
    assert!(csv.contains("\n0,1,0,1,0,0\n"), "{csv}");
    // The first four is possible at ply 7; every terminal position is a lost one.
    assert!(csv.contains("\n7,2512,874,1524,114,60\n"), "{csv}");
    assert!(csv.contains("\n16,7244,0,5336,1908,1908\n"), "{csv}");
    assert!(
        csv.ends_with("total,161029,38675,90120,32234,21404\n"),
        "{csv}"
    );
    let json = stdout_of(&[
        "fourow", "count", "--method", "bdd", "--values", "--cols", "5", "--rows", "4", "--plies",
        "3", "--format", "json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["columns"], 5);
    assert_eq!(doc["plies"].as_array().unwrap().len(), 4);
    assert_eq!(doc["plies"][1]["won"], 2);
    assert_eq!(doc["total"]["positions"], 1 + 5 + 25 + 95);
    assert_eq!(doc["plies"][3]["terminal"], 0);
    assert_eq!(doc["total"]["terminal"], 0);
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("values.svg");
    let table = stdout_of(&[
        "fourow",
        "count",
        "--method",
        "bdd",
        "--values",
        "--cols",
        "4",
        "--rows",
        "4",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(table.contains("for the side to move"), "{table}");
    assert!(table.lines().nth(2).unwrap().starts_with("ply"), "{table}");
    let drawn = String::from_utf8(std::fs::read(&svg).unwrap()).unwrap();
    assert!(drawn.contains("lost for the side to move"));
}

#[test]
fn the_command_refuses_boards_it_cannot_solve() {
    for args in [
        &[
            "fourow", "count", "--method", "bdd", "--values", "--cols", "8",
        ][..],
        &["fourow", "count", "--values", "--cols", "4", "--rows", "4"],
        &[
            "fourow", "count", "--method", "bdd", "--values", "--cols", "4", "--rows", "4",
            "--split", "5",
        ],
        &[
            "fourow", "count", "--method", "bdd", "--values", "--cols", "4", "--rows", "4",
            "--plies", "17",
        ],
    ] {
        let out = tomek().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(!stderr.is_empty());
    }
    let out = tomek()
        .args([
            "fourow", "count", "--method", "bdd", "--values", "--cols", "7", "--rows", "7",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("up to 42 cells"), "{stderr}");
    let out = tomek()
        .args([
            "fourow",
            "count",
            "--method",
            "bdd",
            "--values",
            "--cols",
            "6",
            "--rows",
            "6",
            "--memory-limit",
            "20M",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("memory limit of 20 MiB"), "{stderr}");
}
