//! The symbolic count (`fourow count --method bdd`) against the explicit counts on every board
//! up to 5×5 and on 7×6, and against published totals.

use crate::harness::{stdout_of, tomek};
use crate::published::{A212693, CONNECT_FOUR_7X6_TOTAL, CONNECT_FOUR_TOTALS};
use std::ops::ControlFlow::{Break, Continue};
use tomek::fourow::bdd::{self, Cost, Settings};
use tomek::fourow::count::{self, Method, Options, Ply};
use tomek::fourow::sized;

const LOTS: usize = 16 << 30;

/// Counting plies 0 to `plies` of the board with room to spare.
fn board(cols: u32, rows: u32, plies: u32) -> Settings {
    Settings {
        cols,
        rows,
        plies,
        memory_limit: LOTS,
    }
}

fn symbolic(cols: u32, rows: u32, plies: u32) -> Vec<Ply> {
    bdd::count(board(cols, rows, plies), |_| {}, |_, _| Continue(()))
        .expect("fits")
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

fn counts(plies: &[Ply]) -> Vec<(u32, tomek::outcome::ByStatus<u64>)> {
    plies.iter().map(|p| (p.ply, p.counts())).collect()
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn symbolic_equals_explicit_on_every_board_up_to_5_by_5() {
    for cols in 1..=5 {
        for rows in 1..=5 {
            // The full 5×5 count takes the explicit walk minutes; its total is checked against
            // the published one below, and its first 16 plies here.
            let plies = if (cols, rows) == (5, 5) {
                16
            } else {
                cols * rows
            };
            let explicit = sized::count(cols, rows, plies, |_| {}).unwrap();
            assert_eq!(
                counts(&symbolic(cols, rows, plies)),
                counts(&explicit),
                "{cols}×{rows}"
            );
        }
    }
}

#[test]
fn symbolic_reaches_the_published_totals() {
    for (cols, rows, total) in CONNECT_FOUR_TOTALS {
        let plies = symbolic(cols, rows, cols * rows);
        assert_eq!(plies.len() as u32, cols * rows + 1);
        let sum: u64 = plies.iter().map(Ply::positions).sum();
        assert_eq!(sum, total, "{cols}×{rows}");
    }
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn symbolic_equals_the_explicit_methods_on_7_by_6() {
    // The tree method is the explicit one that reaches ply 14 in seconds and little memory
    // (ply 16 takes it a minute: the diagrams' own totals are held to the published table
    // further by the generated files' check, to ply 20).
    let tree = count::count(
        Options {
            plies: 14,
            method: Method::Tree,
            symmetry: true,
        },
        |_, _, _| {},
        |_| {},
    );
    let generic = sized::count(7, 6, 10, |_| {}).unwrap();
    let deep = symbolic(7, 6, 14);
    assert_eq!(counts(&deep), counts(&tree));
    assert_eq!(counts(&generic), counts(&tree[..=10]));
    let totals: Vec<u64> = deep.iter().map(Ply::positions).collect();
    assert_eq!(totals, A212693[..=14]);
}

#[test]
fn reports_every_ply_with_its_diagram() {
    let mut seen = Vec::new();
    let mut largest = 0;
    let settings = board(7, 6, 9);
    let done = bdd::count(
        settings,
        |p| largest = largest.max(p.nodes),
        |p, c: &Cost| {
            seen.push((p.ply, c.nodes));
            Continue(())
        },
    )
    .unwrap();
    assert_eq!(seen.len(), 10);
    assert_eq!(
        seen,
        done.iter()
            .map(|(p, c)| (p.ply, c.nodes))
            .collect::<Vec<_>>()
    );
    // The empty board: a marker and six clear bits per column, and the two terminals.
    assert_eq!(seen[0], (0, 7 * 7 + 2));
    assert!(seen.windows(2).all(|w| w[1].1 > w[0].1), "{seen:?}");
}

#[test]
fn the_report_can_end_the_count() {
    let settings = board(7, 6, 42);
    let done = bdd::count(
        settings,
        |_| {},
        |p, _| if p.ply == 5 { Break(()) } else { Continue(()) },
    )
    .unwrap();
    let totals: Vec<u64> = done.iter().map(|(p, _)| p.positions()).collect();
    assert_eq!(totals, A212693[..=5]);
}

#[test]
fn a_small_memory_limit_keeps_the_plies_done() {
    let settings = Settings {
        cols: 7,
        rows: 6,
        plies: 30,
        memory_limit: 24 << 20,
    };
    let stopped = bdd::count(settings, |_| {}, |_, _| Continue(())).unwrap_err();
    let bdd::Error::MemoryLimit { ply, .. } = stopped.error else {
        panic!("{}", stopped.error)
    };
    assert!(ply > 5 && ply <= 30, "{ply}");
    assert_eq!(stopped.plies.len() as u32, ply);
    let totals: Vec<u64> = stopped.plies.iter().map(|(p, _)| p.positions()).collect();
    assert_eq!(totals, A212693[..ply as usize]);
}

#[test]
fn bad_boards_and_plies_are_refused() {
    let err = |s| {
        bdd::count(s, |_| {}, |_, _| Continue(()))
            .unwrap_err()
            .error
    };
    assert!(matches!(err(board(0, 6, 0)), bdd::Error::Board { .. }));
    assert!(matches!(err(board(4, 4, 17)), bdd::Error::Plies(_)));
    assert!(sized::count(9, 7, 1, |_| {}).is_err());
}

#[test]
fn the_command_counts_any_board_with_every_method() {
    let csv = |method: &str, cols: &str, rows: &str, plies: &str| {
        stdout_of(&[
            "fourow", "count", "--method", method, "--cols", cols, "--rows", rows, "--plies",
            plies, "--format", "csv",
        ])
    };
    assert_eq!(csv("bdd", "7", "6", "9"), csv("memo", "7", "6", "9"));
    assert_eq!(csv("bdd", "7", "6", "9"), csv("tree", "7", "6", "9"));
    let small = csv("bdd", "4", "4", "16");
    assert_eq!(small, csv("memo", "4", "4", "16"));
    assert!(
        small.ends_with("total,161029,13006,8398,5336,134289\n"),
        "{small}"
    );
    let json = stdout_of(&[
        "fourow", "count", "--method", "bdd", "--cols", "5", "--rows", "4", "--plies", "20",
        "--format", "json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["method"], "bdd");
    assert_eq!(doc["columns"], 5);
    assert_eq!(doc["total"]["positions"], 3_945_711);
    assert!(doc["plies"][20]["nodes"].as_u64().unwrap() > 2);
    let table = stdout_of(&["fourow", "count", "--method", "bdd", "--plies", "8"]);
    assert!(table.contains("bdd method"), "{table}");
    assert!(
        table.lines().nth(2).unwrap().ends_with("memory (MiB)"),
        "{table}"
    );
}

#[test]
fn the_command_stops_at_the_memory_limit_and_prints_what_it_has() {
    let out = tomek()
        .args([
            "fourow",
            "count",
            "--method",
            "bdd",
            "--plies",
            "30",
            "--memory-limit",
            "24M",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("memory limit of 24 MiB"), "{stderr}");
    assert!(stdout.starts_with("ply,positions,"), "{stdout}");
    assert!(stdout.contains("\n8,184275,0,1892,0,182383\n"), "{stdout}");
    assert!(stdout.lines().last().unwrap().starts_with("total,"));
}

#[test]
fn the_command_refuses_what_it_cannot_count() {
    for args in [
        &[
            "fourow", "count", "--plies", "17", "--cols", "4", "--rows", "4",
        ][..],
        &[
            "fourow", "count", "--method", "tree", "--plies", "3", "--cols", "5",
        ],
        &[
            "fourow",
            "count",
            "--method",
            "bdd",
            "--plies",
            "3",
            "--memory-limit",
            "12X",
        ],
        &[
            "fourow", "count", "--method", "bdd", "--plies", "3", "--rows", "0",
        ],
    ] {
        tomek().args(args).assert().code(2);
    }
}

/// `generated/fourow-space.csv` is the whole 7×6 game counted by `tomek fourow count --method
/// bdd --plies 42` (rebuilt byte for byte by `scripts/regenerate.sh`): every ply must be the
/// published one, and the won, drawn and open positions must add up as the rules say.
#[test]
fn the_committed_whole_game_matches_a212693() {
    let text = std::fs::read_to_string(crate::harness::generated("fourow-space.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("ply,positions,first_player_won,second_player_won,draws,open")
    );
    let rows: Vec<Vec<u64>> = lines
        .by_ref()
        .take(A212693.len())
        .map(|l| l.split(',').map(|c| c.parse().unwrap()).collect())
        .collect();
    for (ply, row) in rows.iter().enumerate() {
        let [p, positions, x, o, draws, open] = row[..] else {
            panic!("ply {ply}: {row:?}")
        };
        assert_eq!((p, positions), (ply as u64, A212693[ply]), "ply {ply}");
        assert_eq!(x + o + draws + open, positions, "ply {ply}");
        // Only the player who just moved can have a four, and a full board is never open.
        assert_eq!(if ply % 2 == 1 { o } else { x }, 0, "ply {ply}");
        assert_eq!(draws == 0, ply < 42, "ply {ply}");
        assert_eq!(open == 0, ply == 42, "ply {ply}");
        // Ply 7 holds the first fours, which need four moves of the first player.
        assert_eq!(x + o == 0, ply < 7, "ply {ply}");
    }
    let total: Vec<u64> = lines.next().unwrap()["total,".len()..]
        .split(',')
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(total[0], CONNECT_FOUR_7X6_TOTAL);
    for (i, t) in total.iter().enumerate() {
        assert_eq!(*t, rows.iter().map(|r| r[i + 1]).sum::<u64>());
    }
    assert_eq!(lines.next(), None);
}
