//! The 4×4 problems of the family (Codeforces 754B, UVa 10111): every position of their input
//! spaces held to a reference written here by a different method (every game replayed square
//! by square, perfect play by plain minimax over the replayed games), the statements' samples,
//! the input filter's errors.

use crate::harness::{project, read, stdout_of, tomek};
use std::collections::BTreeMap;
use tomek::problem::Problem;
use tomek::tictactoe::board::Board;

/// A 4×4 grid: 0 empty, 1 x (first), 2 o (second), squares row by row.
type Grid = [u8; 16];

/// Every run of `k` squares in a row, column or diagonal of the 4×4 board, written out by
/// walking each direction from each square.
fn runs(k: i32) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for r in 0..4i32 {
        for c in 0..4i32 {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                if (0..4).contains(&er) && (0..4).contains(&ec) {
                    out.push(
                        (0..k)
                            .map(|i| ((r + dr * i) * 4 + c + dc * i) as usize)
                            .collect(),
                    );
                }
            }
        }
    }
    out
}

/// The grid's number: squares as base-3 digits, the first square lowest.
fn code(g: &Grid) -> usize {
    g.iter().rev().fold(0, |n, &c| n * 3 + c as usize)
}

/// Every game of k in a row on 4×4 replayed, and plain minimax over them.
struct Reference {
    runs: Vec<Vec<usize>>,
    /// Every grid met in play.
    seen: Vec<bool>,
    /// Minimax for the side to move, by grid: 0 unknown, 1 lost, 2 drawn, 3 won.
    value: Vec<u8>,
}

impl Reference {
    fn new(k: i32) -> Reference {
        let mut r = Reference {
            runs: runs(k),
            seen: vec![false; 3usize.pow(16)],
            value: vec![0; 3usize.pow(16)],
        };
        // Depth first, each grid expanded the first time it is met.
        let mut stack = vec![[0u8; 16]];
        r.seen[0] = true;
        while let Some(g) = stack.pop() {
            if r.over(&g) {
                continue;
            }
            let mover = r.mover(&g);
            for s in 0..16 {
                if g[s] == 0 {
                    let mut child = g;
                    child[s] = mover;
                    if !r.seen[code(&child)] {
                        r.seen[code(&child)] = true;
                        stack.push(child);
                    }
                }
            }
        }
        r
    }

    fn has_line(&self, g: &Grid, p: u8) -> bool {
        self.runs.iter().any(|run| run.iter().all(|&s| g[s] == p))
    }

    fn over(&self, g: &Grid) -> bool {
        self.has_line(g, 1) || self.has_line(g, 2) || g.iter().all(|&c| c != 0)
    }

    fn mover(&self, g: &Grid) -> u8 {
        let x = g.iter().filter(|&&c| c == 1).count();
        let o = g.iter().filter(|&&c| c == 2).count();
        if x == o { 1 } else { 2 }
    }

    /// Plain minimax for the side to move on an open grid: 1 lost, 2 drawn, 3 won.
    fn minimax(&mut self, g: &Grid) -> u8 {
        let c = code(g);
        if self.value[c] != 0 {
            return self.value[c];
        }
        let mover = self.mover(g);
        let mut best = 1;
        for s in 0..16 {
            if g[s] != 0 {
                continue;
            }
            let mut child = *g;
            child[s] = mover;
            let v = if self.has_line(&child, mover) {
                3
            } else if child.iter().all(|&c| c != 0) {
                2
            } else {
                4 - self.minimax(&child)
            };
            best = best.max(v);
        }
        self.value[c] = best;
        best
    }

    /// Whether the side to move completes a line with one move.
    fn wins_now(&self, g: &Grid) -> bool {
        let mover = self.mover(g);
        (0..16).any(|s| {
            let mut child = *g;
            g[s] == 0 && {
                child[s] = mover;
                self.has_line(&child, mover)
            }
        })
    }

    /// The first square, row by row, whose move wins for the side to move.
    fn first_winning_move(&mut self, g: &Grid) -> Option<usize> {
        let mover = self.mover(g);
        (0..16).find(|&s| {
            if g[s] != 0 {
                return false;
            }
            let mut child = *g;
            child[s] = mover;
            self.has_line(&child, mover)
                || (!child.iter().all(|&c| c != 0) && self.minimax(&child) == 1)
        })
    }

    /// Every grid met in play, in the order of their numbers.
    fn grids(&self) -> Vec<Grid> {
        (0..self.seen.len())
            .filter(|&c| self.seen[c])
            .map(|mut c| {
                let mut g = [0u8; 16];
                for cell in &mut g {
                    *cell = (c % 3) as u8;
                    c /= 3;
                }
                g
            })
            .collect()
    }
}

fn board_of(g: &Grid) -> Board {
    let mut b = Board::default();
    for (s, &c) in g.iter().enumerate() {
        match c {
            1 => b.x |= 1 << s,
            2 => b.o |= 1 << s,
            _ => {}
        }
    }
    b
}

/// Holds `name`'s input space and every answer in it to `reference`'s, and returns the count
/// of each answer.
fn hold_to_reference(
    name: &str,
    space: &[Grid],
    mut answer: impl FnMut(&Grid) -> String,
) -> BTreeMap<String, u64> {
    let p = Problem::builtin(name).unwrap();
    let positions = p.positions();
    assert_eq!(positions.len(), space.len(), "{name}: the input space");
    let mut values = p.values();
    let mut counts = BTreeMap::new();
    for (b, g) in positions.iter().zip(space) {
        assert_eq!(
            *b,
            board_of(g),
            "{name}: the same positions in the same order"
        );
        let want = answer(g);
        assert_eq!(
            p.answer(*b, &mut values),
            want,
            "{name}: {}",
            p.grid_text(*b)
        );
        *counts.entry(want).or_insert(0) += 1;
    }
    assert_eq!(census_counts(name), counts, "{name}: stats' one pass");
    counts
}

/// The count of each answer over `name`'s input space as `stats --problem` finds it in its
/// one pass over the space.
fn census_counts(name: &str) -> BTreeMap<String, u64> {
    let json = stdout_of(&["stats", "--problem", name, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let answer = a["answer"].as_str().unwrap().to_string();
            (answer, a["positions"].as_u64().unwrap())
        })
        .filter(|(_, n)| *n > 0)
        .collect()
}

#[test]
fn cf754b_answers_every_position_as_the_replayed_games_do() {
    let r = Reference::new(3);
    let space: Vec<Grid> = r
        .grids()
        .into_iter()
        .filter(|g| !r.over(g) && r.mover(g) == 1)
        .collect();
    let counts = hold_to_reference("cf754b", &space, |g| {
        if r.wins_now(g) { "YES" } else { "NO" }.to_string()
    });
    let want: BTreeMap<String, u64> = [("NO".to_string(), 109_618), ("YES".into(), 1_706_003)]
        .into_iter()
        .collect();
    assert_eq!(counts, want);
}

#[test]
fn uva10111_answers_every_position_as_plain_minimax_does() {
    let mut r = Reference::new(4);
    let space: Vec<Grid> = r
        .grids()
        .into_iter()
        .filter(|g| !r.over(g) && r.mover(g) == 1 && g.iter().filter(|&&c| c != 0).count() >= 4)
        .collect();
    let counts = hold_to_reference("uva10111", &space, |g| match r.first_winning_move(g) {
        Some(s) => format!("({},{})", s / 4, s % 4),
        None => "#####".to_string(),
    });
    let want: BTreeMap<String, u64> = [
        ("#####", 2_974_712),
        ("(0,0)", 217_870),
        ("(0,1)", 127_760),
        ("(0,2)", 114_394),
        ("(0,3)", 167_855),
        ("(1,0)", 93_097),
        ("(1,1)", 138_651),
        ("(1,2)", 131_842),
        ("(1,3)", 72_241),
        ("(2,0)", 64_296),
        ("(2,1)", 110_371),
        ("(2,2)", 104_363),
        ("(2,3)", 56_412),
        ("(3,0)", 92_981),
        ("(3,1)", 50_059),
        ("(3,2)", 49_988),
        ("(3,3)", 89_510),
    ]
    .into_iter()
    .map(|(a, n)| (a.to_string(), n))
    .collect();
    assert_eq!(counts, want);
}

#[test]
fn the_4x4_samples_are_answered_validated_and_checked() {
    let mut files: Vec<(&str, String)> = (1..=4)
        .map(|i| ("cf754b", format!("cf754b-sample-{i}")))
        .collect();
    files.push(("uva10111", "uva10111-sample".into()));
    for (name, stem) in files {
        let input = project(&format!("tests/data/problems/{stem}.in"));
        let answers = project(&format!("tests/data/problems/{stem}.ans"));
        let input_s = input.to_str().unwrap();
        let got = stdout_of(&["solve", "--problem", name, input_s]);
        assert_eq!(got.as_bytes(), read(&answers), "{stem}");
        tomek()
            .args(["validate", "--problem", name, input_s])
            .assert()
            .success();
        tomek()
            .args(["check", "--problem", name, input_s])
            .arg(&answers)
            .arg(&answers)
            .assert()
            .code(0);
    }
}

#[test]
fn a_position_outside_the_filter_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        // o to move.
        ("cf754b", "x...\n....\n....\n....\n", "next = \"first\""),
        // Over: o has three in a row.
        ("cf754b", "ooo.\nxx..\nx...\n....\n", "over = false"),
        // One move each.
        ("uva10111", "?\nx...\no...\n....\n....\n$\n", "min_ply = 4"),
    ];
    for (name, text, says) in cases {
        let f = dir.path().join("in");
        std::fs::write(&f, text).unwrap();
        let a = tomek()
            .args(["validate", "--problem", name])
            .arg(&f)
            .assert()
            .code(1);
        let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
        assert!(
            err.contains("not in the input space") && err.contains(says),
            "{err}"
        );
    }
}

#[test]
fn explain_shows_the_forced_win_and_the_answer() {
    let out = stdout_of(&["explain", "--problem", "uva10111", "o.../.ox./.xxx/xooo"]);
    assert!(out.contains("answer: (0,1)"), "{out}");
    assert!(out.contains("wins_now = true"), "{out}");
    let out = stdout_of(&["explain", "--problem", "cf754b", "xxx./oo../.o../...."]);
    assert!(out.contains("not in the input space"), "{out}");
}

fn description_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.toml");
    std::fs::write(&f, text).unwrap();
    let a = tomek()
        .args(["solve", "--problem"])
        .arg(&f)
        .write_stdin("")
        .assert()
        .code(2);
    String::from_utf8_lossy(&a.get_output().stderr).to_string()
}

#[test]
fn wrong_filters_and_templates_exit_2_with_their_line_and_column() {
    let uva = stdout_of(&["problem", "show", "uva10111"]);
    // A filter no position meets.
    let text = uva.replace(
        "where = { next = \"first\", over = false }",
        "where = { next = \"first\", over = false, full = true }",
    );
    let line = text.lines().position(|l| l.starts_with("where")).unwrap() + 1;
    let err = description_error(&text);
    assert!(err.contains("no position is left"), "{err}");
    assert!(err.contains(&format!("p.toml:{line}:")), "{err}");
    // A template on a rule that does not promise a forced win.
    let text = uva.replace("forced_win = true\n", "");
    let err = description_error(&text);
    assert!(err.contains("needs `forced_win = true`"), "{err}");
    // An answer in the filter.
    let text = uva.replace("over = false }", "over = false, answer = \"x\" }");
    let err = description_error(&text);
    assert!(err.contains("`where` is facts only"), "{err}");
    // A minimum ply past the board.
    let text = uva.replace("min_ply = 4", "min_ply = 17");
    let err = description_error(&text);
    assert!(err.contains("`min_ply` is a number of stones"), "{err}");
}

/// Perfect play filled ply by ply for the whole space (what the passes over the input space
/// read) against the search from each position alone, value and distance, on every reachable
/// position of 4×4 three in a row; the counts by winner are the C yardstick's
/// (`scripts/yardstick`).
#[test]
fn perfect_play_filled_for_the_space_is_the_search_of_each_position() {
    let path = project("tests/data/problems/bench/perfect-play-4x4-3.toml");
    let text = String::from_utf8(read(&path)).unwrap();
    let p = Problem::from_text("perfect-play-4x4-3.toml", &text).unwrap();
    let filled = p.values_for_all();
    let mut filled = filled;
    let mut searched = p.values();
    searched.want_distance = true;
    let mut counts = BTreeMap::new();
    for b in p.positions() {
        let a = p.facts_fast(b, &mut filled);
        let mut s = p.facts(b, &mut searched);
        // The search was asked for distances: the problem's own facts only where it reads them.
        s.distance = s.distance.filter(|_| a.distance.is_some());
        assert_eq!(a, s, "{}", p.grid_text(b));
        let g = p.geometry.as_ref();
        if b.filled() != g.full() && g.status(b) == tomek::outcome::Status::Open {
            let (v1, d1) = filled.solve(g, b, b.to_move());
            let (v2, d2) = searched.solve(g, b, b.to_move());
            assert_eq!((v1, d1), (v2, d2), "{}", p.grid_text(b));
        }
        *counts.entry(p.answer_of(&a).unwrap()).or_insert(0u64) += 1;
    }
    let want: BTreeMap<String, u64> = [("X", 3_444_110), ("O", 2_590_569), ("draw", 1_322)]
        .into_iter()
        .map(|(a, n)| (a.to_string(), n))
        .collect();
    assert_eq!(counts, want);
}

/// One position valued alone, as `explain` does (a fresh sparse table, the two yes-or-no
/// searches), agrees with plain minimax, on a spread of open positions of every ply.
#[test]
fn one_position_searched_alone_agrees_with_minimax() {
    use tomek::outcome::Player;
    use tomek::problem::facts::Values;
    use tomek::tictactoe::explain::Outcome;
    for (k, name) in [(3, "cf754b"), (4, "uva10111")] {
        let mut r = Reference::new(k);
        let g = Problem::builtin(name).unwrap().geometry;
        let open: Vec<Grid> = r.grids().into_iter().filter(|g| !r.over(g)).collect();
        let mut tried = 0;
        for grid in open.iter().step_by(997).chain(std::iter::once(&[0u8; 16])) {
            let mover = if r.mover(grid) == 1 {
                Player::X
            } else {
                Player::O
            };
            let want = match r.minimax(grid) {
                1 => Outcome::Loss,
                2 => Outcome::Draw,
                _ => Outcome::Win,
            };
            let got = Values::sparse().outcome(&g, board_of(grid), mover);
            assert_eq!(got, want, "{name}: {grid:?}");
            tried += 1;
        }
        assert!(tried > 1000, "{name}: {tried} positions");
    }
}

/// `explain` of a description file tries its rules on the one position: a position no rule
/// matches is an error at the rules, exit 2, as `problem check` would say for the file.
#[test]
fn explain_names_a_position_no_rule_matches() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.toml");
    let text = std::fs::read_to_string(project("src/problem/builtin/uva10111.toml")).unwrap();
    // Without its last rule, positions with no forced win have no answer.
    let cut = text.rfind("[[verdict]]").unwrap();
    std::fs::write(&f, &text[..cut]).unwrap();
    let a = tomek()
        .args(["explain", "--problem"])
        .arg(&f)
        .arg("xo../.xo./..../....")
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(
        err.contains("p.toml:") && err.contains("no rule matches the position"),
        "{err}"
    );
    // A position some rule matches is explained.
    let out = stdout_of(&[
        "explain",
        "--problem",
        f.to_str().unwrap(),
        "o.../.ox./.xxx/xooo",
    ]);
    assert!(out.contains("answer: (0,1)"), "{out}");
}
