//! `tomek explain` held to independent sources: values and distances to a plain minimax with
//! no memo and its own line test, game counts to the move-sequence sums of `stats`, orbits to
//! the orbit counts of `stats`, reasons to the reachability check that `validate` uses; and
//! the command end to end, with completions and man pages.

use crate::harness::*;
use tomek::outcome::Status;
use tomek::tictactoe::board::Board;
use tomek::tictactoe::explain::{self, Outcome, Value};
use tomek::tictactoe::reach;
use tomek::tictactoe::rules::Geometry;
use tomek::tictactoe::space::SetupSpace;
use tomek::tictactoe::stats::{self, Sections};
use tomek::tictactoe::symmetry;

/// A small seeded generator, so the test boards are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// The ten lines of the 4×4 board written out by hand, not taken from the library.
const LINES: [[usize; 4]; 10] = [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [8, 9, 10, 11],
    [12, 13, 14, 15],
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
    [0, 5, 10, 15],
    [3, 6, 9, 12],
];

/// Whether `p` (`b'X'` or `b'O'`) holds a line, the `T` standing in for it.
fn has_line(cells: &[u8; 16], p: u8) -> bool {
    LINES
        .iter()
        .any(|l| l.iter().all(|&s| cells[s] == p || cells[s] == b'T'))
}

/// Plain minimax with no memo: the value for the side to move `p` of a board where nobody has
/// a line yet. The winner wants the shortest game, the loser the longest.
fn minimax(cells: &mut [u8; 16], p: u8) -> (Outcome, u32) {
    let other = if p == b'X' { b'O' } else { b'X' };
    let mut best: Option<(Outcome, u32)> = None;
    for s in 0..16 {
        if cells[s] != b'.' {
            continue;
        }
        cells[s] = p;
        let v = if has_line(cells, p) {
            (Outcome::Win, 1)
        } else if !cells.contains(&b'.') {
            (Outcome::Draw, 1)
        } else {
            let (o, d) = minimax(cells, other);
            (o.flip(), d + 1)
        };
        cells[s] = b'.';
        let key = |(o, d): (Outcome, u32)| match o {
            Outcome::Win => (2, -(d as i32)),
            Outcome::Draw => (1, 0),
            Outcome::Loss => (0, d as i32),
        };
        if best.is_none_or(|b| key(v) > key(b)) {
            best = Some(v);
        }
    }
    best.unwrap()
}

fn cells_of(b: Board) -> [u8; 16] {
    let mut c = [b'.'; 16];
    for (i, ch) in b.to_line().bytes().enumerate() {
        c[i] = ch;
    }
    c
}

/// A random open board reached by random play with `stones` stones, or `None` if the game
/// ended first.
fn random_open_board(rng: &mut Lcg, stones: u32) -> Option<Board> {
    let t = match rng.below(17) {
        16 => 0,
        s => 1u16 << s,
    };
    let g = Geometry::tomek();
    let mut b = Board::empty(t);
    for _ in 0..stones {
        let empty: Vec<u32> = (0..16).filter(|&s| b.filled() >> s & 1 == 0).collect();
        let square = empty[rng.below(empty.len() as u64) as usize];
        let (next, status) = g.play(b, b.to_move(), square);
        if status != Status::Open {
            return None;
        }
        b = next;
    }
    Some(b)
}

#[test]
fn values_and_distances_agree_with_plain_minimax() {
    let mut rng = Lcg(7);
    let mut checked = 0;
    let mut outcomes = std::collections::HashSet::new();
    while checked < 24 {
        let stones = 9 + rng.below(4) as u32;
        let Some(b) = random_open_board(&mut rng, stones) else {
            continue;
        };
        let e = explain::explain(b);
        let play = e.play.expect("a reachable board has its play");
        let mover = b.to_move().symbol() as u8;
        let other = if mover == b'X' { b'O' } else { b'X' };
        let (o, d) = minimax(&mut cells_of(b), mover);
        assert_eq!(
            play.value,
            Value {
                outcome: o,
                distance: d
            },
            "{}",
            b.to_line()
        );
        outcomes.insert(o);
        assert_eq!(play.moves.len(), 16 - b.filled().count_ones() as usize);
        for m in &play.moves {
            let mut cells = cells_of(m.board);
            let expected = if has_line(&cells, mover) {
                (Outcome::Win, 1)
            } else if !cells.contains(&b'.') {
                (Outcome::Draw, 1)
            } else {
                let (o, d) = minimax(&mut cells, other);
                (o.flip(), d + 1)
            };
            assert_eq!(
                (m.value.outcome, m.value.distance),
                expected,
                "{} then square {}",
                b.to_line(),
                m.square
            );
        }
        // Best first: no later move is better than an earlier one.
        for w in play.moves.windows(2) {
            assert!(w[0].value.rank() >= w[1].value.rank());
        }
        checked += 1;
    }
    assert!(
        outcomes.len() >= 2,
        "the sample should hold several results"
    );
}

/// Summing the games through the finished boards of a ply gives the games of that length, as
/// `stats` counts them by adding move sequences ply by ply; the games through the empty board
/// are all the setup's games, and its value is the setup's value.
#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn game_counts_agree_with_stats() {
    let g = Geometry::tomek();
    for t in [0u16, 1 << 5, 1 << 3] {
        let sections = Sections {
            games: true,
            values: true,
            symmetry: None,
        };
        let s = &stats::analyze(g, &[t], sections).setups[0];
        let by_ply = s.games_by_ply.as_ref().unwrap();
        let space = SetupSpace::explore(g, t);
        let mut sums = vec![[0u64; 4]; 17];
        let start = Board::empty(t);
        for (b, status) in space.boards() {
            if status.is_over() {
                sums[b.ply() as usize][status.index()] += explain::sequences(g, start, b, status);
            }
        }
        for ply in 0..17 {
            assert_eq!(
                sums[ply],
                by_ply[ply].into_array(),
                "setup {t:#x} ply {ply}"
            );
        }
        let e = explain::explain(start);
        let play = e.play.unwrap();
        assert_eq!(play.sequences, 1);
        assert_eq!(play.games, s.games.unwrap(), "setup {t:#x}");
        let value = match play.value.outcome {
            Outcome::Win => "X won",
            Outcome::Loss => "O won",
            Outcome::Draw => "Draw",
        };
        assert_eq!(Some(value), s.value.as_deref());
    }
}

/// The games through the boards of ply 1 add up to every game of the setup, and the games
/// through a finished board are the move orders reaching it.
#[test]
fn games_through_one_ply_add_up() {
    let g = Geometry::tomek();
    let t = 1u16;
    let s = &stats::analyze(g, &[t], Sections::ALL).setups[0];
    let mut total = [0u64; 4];
    for square in 1..16 {
        let b = Board::empty(t).with(tomek::outcome::Player::X, square);
        let e = explain::explain(b);
        let games = e.play.unwrap().games.into_array();
        for k in 0..4 {
            total[k] += games[k];
        }
    }
    assert_eq!(total, s.games.unwrap().into_array());
    let won = explain::parse_board("XXXTOO..........").unwrap();
    let e = explain::explain(won);
    let play = e.play.unwrap();
    assert_eq!(play.games.x_won, play.sequences);
    assert_eq!(play.games.total(), play.sequences);
    assert!(play.moves.is_empty());
}

/// Boards that are the smallest of their orbit are the orbits that `stats` counts, and the
/// orbit sizes agree with the orbit count (orbit-stabilizer).
#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn orbits_agree_with_stats() {
    let g = Geometry::tomek();
    let group = symmetry::automorphisms(g);
    let t = 1u16;
    let s = stats::analyze(
        g,
        &[t],
        Sections {
            games: false,
            values: false,
            symmetry: Some(symmetry::Symmetry::Full),
        },
    );
    let orbits = s.orbits.unwrap().boards.total();
    // The symmetries that keep the T on its square.
    let fixing_t = group.iter().filter(|p| p.apply(t) == t).count() as u64;
    let space = SetupSpace::explore(g, t);
    let (mut classes, mut weight) = (std::collections::HashSet::new(), 0u64);
    for (b, _) in space.boards() {
        let o = explain::orbit(b, &group);
        assert_eq!(32 % o.size, 0);
        // One representative per class: the classes meeting the setup.
        classes.insert(o.smallest);
        // |orbit| · |stabilizer| = 32, and every stabilizer of b keeps the T in place.
        weight += 32 / o.size as u64;
    }
    assert_eq!(classes.len() as u64, orbits);
    assert_eq!(weight, fixing_t * orbits);
}

#[test]
fn reasons_agree_with_the_reachability_check() {
    let g = Geometry::tomek();
    let mut rng = Lcg(11);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..200_000 {
        let mut b = Board::default();
        for s in 0..16 {
            match rng.below(7) {
                0..=2 => b.x |= 1 << s,
                3..=5 => b.o |= 1 << s,
                _ => {}
            }
        }
        if rng.below(2) == 0 {
            let s = rng.below(16);
            b.x &= !(1 << s);
            b.o &= !(1 << s);
            b.t = 1 << s;
        }
        let reasons = explain::reasons(g, b);
        assert_eq!(reach::check(g, b).err(), reasons.first().copied());
        for r in &reasons {
            seen.insert(std::mem::discriminant(r));
        }
    }
    // Stone counts, both lines, the wrong last mover and no winning move all show up.
    assert!(seen.len() >= 4, "{}", seen.len());
}

#[test]
fn command_explains_every_kind_of_board() {
    // A won board.
    let out = tomek()
        .args(["explain", "XXXT/OO../..../...."])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("X won (all four evaluators"), "{text}");
    assert!(text.contains("reachable  yes"), "{text}");
    // Three X stones can each have been the last (3 · 2! · 2!).
    assert!(text.contains("12 move orders"), "{text}");
    // An unreachable board gets its status and every reason.
    let out = tomek()
        .args(["explain", "XXXXOOOO........", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["reachable"], false);
    assert_eq!(v["evaluators"][0]["status"], "X won");
    assert_eq!(
        v["reasons"][0],
        "both players have a line; play stops at the first"
    );
    assert!(v["play"].is_null());
    assert_eq!(v["orbit"]["size"], 16);
    // From a Code Jam file: case 6 of the sample.
    let out = tomek()
        .args(["explain", "--input", "generated/sample.in", "--case", "2"])
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["board"], "XOXTXXOOOXOXXXOO");
    assert_eq!(v["status"], "Draw");
    assert_eq!(v["play"]["value"]["outcome"], "draw");
}

#[test]
fn bad_boards_and_cases_exit_2() {
    for (args, message) in [
        (vec!["explain", "XXX"], "3 symbols, expected 16"),
        (vec!["explain", "XXXT/..O./..../..."], "row 4 has 3 symbols"),
        (vec!["explain", "XXXT..O.....x..."], "`x` at position 13"),
        (
            vec!["explain", "--input", "generated/sample.in", "--case", "7"],
            "holds 6 cases",
        ),
        (
            vec!["explain", "--input", "no/such/file.in", "--case", "1"],
            "cannot open no/such/file.in",
        ),
    ] {
        let out = tomek().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn completions_load_and_man_pages_render() {
    let out = tomek().args(["completions", "bash"]).output().unwrap();
    assert!(out.status.success());
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("tomek.bash");
    std::fs::write(&script, &out.stdout).unwrap();
    let status = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("source {} && complete -p tomek", script.display()))
        .status()
        .unwrap();
    assert!(status.success());
    for shell in ["zsh", "fish", "powershell"] {
        let out = tomek().args(["completions", shell]).output().unwrap();
        assert!(out.status.success() && out.stdout.len() > 1000, "{shell}");
    }
    let man = dir.path().join("man");
    let out = tomek().args(["man", "--dir"]).arg(&man).output().unwrap();
    assert!(out.status.success());
    let page = std::fs::read_to_string(man.join("tomek-explain.1")).unwrap();
    assert!(page.starts_with(".ie \\n(.g .ds Aq"), "{}", &page[..40]);
    assert!(page.contains("\\-\\-input"));
    // The committed pages are the ones the command writes now. They document the SQL commands
    // and the web server in full, as a build with every feature writes them; a build without
    // one has only a note on its pages.
    for entry in std::fs::read_dir(&man).unwrap() {
        let entry = entry.unwrap();
        let sql_page = ["tomek-query.1", "tomek-export.1"]
            .iter()
            .any(|name| entry.file_name() == *name);
        let web_page = entry.file_name() == "tomek-serve.1";
        if (sql_page && !cfg!(feature = "sql")) || (web_page && !cfg!(feature = "web")) {
            continue;
        }
        let committed = std::path::Path::new("generated/man").join(entry.file_name());
        assert!(
            std::fs::read(&committed).unwrap() == std::fs::read(entry.path()).unwrap(),
            "{} is stale: run scripts/regenerate.sh docs",
            committed.display()
        );
    }
}
