//! Four in a row position counts: both methods, with and without symmetry, against OEIS
//! A212693 and against an independent search on a plain grid, and the command's output.

use crate::harness::stdout_of;
use crate::published::A212693;
use assert_cmd::cargo::cargo_bin_cmd;
use std::collections::HashSet;
use tomek::fourow::count::{Method, Options, Ply, count};
use tomek::outcome::ByStatus;

fn run(plies: u32, method: Method, symmetry: bool) -> Vec<Ply> {
    let options = Options {
        plies,
        method,
        symmetry,
    };
    count(options, |_, _, _| {}, |_| {})
}

fn totals(plies: &[Ply]) -> Vec<u64> {
    plies.iter().map(Ply::positions).collect()
}

fn counts(plies: &[Ply]) -> Vec<ByStatus<u64>> {
    plies.iter().map(Ply::counts).collect()
}

#[test]
fn every_method_reproduces_a212693_to_ply_12() {
    let reference = run(12, Method::Memo, false);
    assert_eq!(totals(&reference), A212693[..=12]);
    for (method, symmetry) in [
        (Method::Memo, true),
        (Method::Tree, false),
        (Method::Tree, true),
    ] {
        let other = run(12, method, symmetry);
        assert_eq!(
            counts(&other),
            counts(&reference),
            "{method:?}, symmetry {symmetry}"
        );
    }
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn symmetric_methods_agree_to_ply_13() {
    let memo = run(13, Method::Memo, true);
    let tree = run(13, Method::Tree, true);
    assert_eq!(totals(&memo), A212693[..=13]);
    assert_eq!(counts(&tree), counts(&memo));
}

#[test]
fn counts_stop_at_the_requested_ply() {
    for method in [Method::Memo, Method::Tree] {
        for plies in [0, 1, 5] {
            let got = run(plies, method, true);
            assert_eq!(got.len(), plies as usize + 1);
            assert_eq!(totals(&got), A212693[..=plies as usize]);
        }
    }
}

/// A plain grid, `grid[column][row]` with row 0 at the bottom: 0 empty, 1 first player,
/// 2 second player. Nothing here shares code with the bitboard.
type Grid = [[u8; 6]; 7];

/// Whether the chip at (`col`, `row`) lies in four or more in a row of its owner.
fn makes_four(g: &Grid, col: usize, row: usize) -> bool {
    let who = g[col][row];
    let at = |c: i32, r: i32| -> bool {
        (0..7).contains(&c) && (0..6).contains(&r) && g[c as usize][r as usize] == who
    };
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
        let run = |sign: i32| {
            (1..4)
                .take_while(|&k| at(col as i32 + sign * k * dc, row as i32 + sign * k * dr))
                .count()
        };
        1 + run(1) + run(-1) >= 4
    })
}

/// Per ply up to `depth`: (distinct positions, won by the first player, won by the second),
/// by trying every move of every game, with one set of grids per ply. A grid met again is not
/// expanded again, as everything below it was already seen.
fn brute_force(depth: usize) -> Vec<(u64, u64, u64)> {
    fn walk(
        g: &mut Grid,
        heights: &mut [usize; 7],
        ply: usize,
        depth: usize,
        seen: &mut [HashSet<Grid>],
        wins: &mut [(u64, u64)],
    ) {
        if ply == depth {
            return;
        }
        let who = if ply.is_multiple_of(2) { 1 } else { 2 };
        for col in 0..7 {
            let row = heights[col];
            if row == 6 {
                continue;
            }
            g[col][row] = who;
            heights[col] += 1;
            if seen[ply + 1].insert(*g) {
                if makes_four(g, col, row) {
                    if who == 1 {
                        wins[ply + 1].0 += 1;
                    } else {
                        wins[ply + 1].1 += 1;
                    }
                } else {
                    walk(g, heights, ply + 1, depth, seen, wins);
                }
            }
            heights[col] -= 1;
            g[col][row] = 0;
        }
    }
    let mut seen = vec![HashSet::new(); depth + 1];
    seen[0].insert([[0; 6]; 7]);
    let mut wins = vec![(0, 0); depth + 1];
    walk(
        &mut [[0; 6]; 7],
        &mut [0; 7],
        0,
        depth,
        &mut seen,
        &mut wins,
    );
    seen.iter()
        .zip(&wins)
        .map(|(s, &(x, o))| (s.len() as u64, x, o))
        .collect()
}

#[test]
fn won_positions_match_a_search_on_a_plain_grid() {
    let reference = brute_force(8);
    assert_eq!(
        reference.iter().map(|r| r.0).collect::<Vec<_>>(),
        A212693[..=8]
    );
    // The first four can only come at ply 7 (first player) and ply 8 (second player).
    assert!(reference[7].1 > 0 && reference[8].2 > 0);
    for method in [Method::Memo, Method::Tree] {
        for symmetry in [false, true] {
            let got: Vec<(u64, u64, u64)> = run(8, method, symmetry)
                .iter()
                .map(|p| (p.positions(), p.x_won, p.o_won))
                .collect();
            assert_eq!(got, reference, "{method:?}, symmetry {symmetry}");
            assert!(run(8, method, symmetry).iter().all(|p| p.draw == 0));
        }
    }
}

#[test]
fn csv_is_exact_and_the_same_for_every_method() {
    let expected = "\
ply,positions,first_player_won,second_player_won,draws,open
0,1,0,0,0,1
1,7,0,0,0,7
2,49,0,0,0,49
3,238,0,0,0,238
4,1120,0,0,0,1120
5,4263,0,0,0,4263
6,16422,0,0,0,16422
7,54859,728,0,0,54131
total,76959,728,0,0,76231
";
    for extra in [
        &[][..],
        &["--method", "tree"],
        &["--no-symmetry"],
        &["--method", "tree", "--no-symmetry"],
    ] {
        let mut args = vec!["fourow", "count", "--plies", "7", "--format", "csv"];
        args.extend_from_slice(extra);
        assert_eq!(stdout_of(&args), expected, "{extra:?}");
    }
}

#[test]
fn json_holds_every_ply_and_the_total() {
    let out = stdout_of(&[
        "fourow", "count", "--plies", "10", "--format", "json", "--method", "tree",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["method"], "tree");
    assert_eq!(doc["symmetry"], true);
    let plies = doc["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 11);
    for (p, &n) in plies.iter().zip(&A212693) {
        assert_eq!(p["positions"], n);
        assert_eq!(p.as_object().unwrap().len(), 6, "no time in machine output");
    }
    assert_eq!(plies[10]["second_player_won"], 44225);
    assert_eq!(
        doc["total"]["positions"],
        A212693[..=10].iter().sum::<u64>()
    );
    // Deterministic: a second run prints the same bytes.
    assert_eq!(
        stdout_of(&[
            "fourow", "count", "--plies", "10", "--format", "json", "--method", "tree"
        ]),
        out
    );
}

#[test]
fn table_has_a_time_column_and_a_total_line() {
    let out = stdout_of(&["fourow", "count", "--plies", "9"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].contains("memo method"), "{out}");
    assert!(lines[2].starts_with("ply") && lines[2].ends_with("time (s)"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("9 ") && l.contains("558,186"))
    );
    let total = lines.last().unwrap();
    assert!(
        total.starts_with("total") && total.contains("819,420"),
        "{total}"
    );
}

#[test]
fn plies_beyond_the_board_are_refused() {
    cargo_bin_cmd!("tomek")
        .args(["fourow", "count", "--plies", "43"])
        .assert()
        .code(2);
}
