//! The family's killer sets against what they promise: every catalogued mutant fails on them,
//! every feasible combination of facts appears (computed here without tomek's code), they stay
//! small, and wrong solutions written by hand as contestants write them, for bugs no mutant
//! names, fail on them through `tomek audit --problem … --profile killer`.

use crate::harness::{project, tomek};
use serde_json::Value;
use std::collections::BTreeSet;
use tomek::problem::Problem;
use tomek::problem::facts::Values;
use tomek::problem::mutants::{Bits, Catalogue, Mutant, killer_set};
use tomek::tictactoe::board::Board;

const THREE_BY_THREE: [&str; 5] = ["cf3c", "toe1", "toe2", "ccc-hk-2008-j4", "perfect-play"];

use crate::problems::LINES;

/// A position's combination in words of this test's own: who has a line and of what kind,
/// the stone difference clamped to −1..2, full or not, and the answer.
fn combination(p: &Problem, values: &mut Values, b: Board) -> String {
    let kind = |stones: u16| {
        let held: Vec<usize> = (0..8)
            .filter(|&k| LINES[k].iter().all(|&s| stones >> s & 1 == 1))
            .collect();
        match held.as_slice() {
            [] => "",
            [k] if *k < 3 => "row",
            [k] if *k < 6 => "column",
            [_] => "diagonal",
            _ => "two",
        }
    };
    let (x, o) = (kind(b.x), kind(b.o));
    let line = match (x, o) {
        ("", "") => "none".to_string(),
        (k, "") => format!("first {k}"),
        ("", k) => format!("second {k}"),
        _ => "both".to_string(),
    };
    let d = (b.x.count_ones() as i32 - b.o.count_ones() as i32).clamp(-1, 2);
    let full = (b.x | b.o).count_ones() == 9;
    let answer = &p.verdicts[p.verdict(b, values)].answer;
    format!("{line} / {d} / {full} / {answer}")
}

#[test]
fn every_killer_set_is_small_catches_every_mutant_and_shows_every_combination() {
    for name in THREE_BY_THREE {
        let p = Problem::builtin(name).unwrap();
        let k = killer_set(&p);
        assert!(
            k.boards.len() <= 128,
            "{name}: {} positions",
            k.boards.len()
        );
        let mut values = Values::new();
        let everywhere: BTreeSet<String> = p
            .positions()
            .into_iter()
            .map(|b| combination(&p, &mut values, b))
            .collect();
        let shown: BTreeSet<String> = k
            .boards
            .iter()
            .map(|&b| combination(&p, &mut values, b))
            .collect();
        assert_eq!(shown, everywhere, "{name}: the combinations shown");
        assert_eq!(k.cells.len(), everywhere.len(), "{name}");
        // Every mutant that fails anywhere fails on the set, and each position is needed.
        let mut cat = Catalogue::new(&p);
        let kills: Vec<Bits> = k
            .boards
            .iter()
            .map(|&b| {
                let right = p.verdicts[p.verdict(b, &mut values)].answer.clone();
                cat.kills(b, &right)
            })
            .collect();
        let mut caught = Bits::new(cat.mutants.len());
        kills.iter().for_each(|s| caught.union_with(s));
        assert_eq!(caught, k.killable, "{name}");
        // Every guard element of the input space is held by the set.
        let mut every_guard = BTreeSet::new();
        for b in p.positions() {
            every_guard.extend(guards(&p, &mut cat, &mut values, b));
        }
        let guarded: BTreeSet<(usize, usize, u8, u8)> = k
            .boards
            .iter()
            .flat_map(|&b| guards(&p, &mut cat, &mut values, b))
            .collect();
        assert_eq!(guarded, every_guard, "{name}: the guard elements held");
        assert_eq!(k.guards, (guarded.len(), guarded.len()), "{name}");
        // Each answer at the first, the middle and the last of the plies where it occurs.
        let mut plies: std::collections::BTreeMap<String, BTreeSet<u32>> = Default::default();
        for b in p.positions() {
            let answer = p.verdicts[p.verdict(b, &mut values)].answer.clone();
            plies.entry(answer).or_default().insert(b.ply());
        }
        let held: BTreeSet<(String, u32)> = k
            .boards
            .iter()
            .map(|&b| {
                (
                    p.verdicts[p.verdict(b, &mut values)].answer.clone(),
                    b.ply(),
                )
            })
            .collect();
        let mut spread = BTreeSet::new();
        for (answer, at) in &plies {
            let at: Vec<u32> = at.iter().copied().collect();
            for ply in [at[0], at[at.len() / 2], at[at.len() - 1]] {
                assert!(
                    held.contains(&(answer.clone(), ply)),
                    "{name}: no `{answer}` at ply {ply}"
                );
                spread.insert((answer.clone(), ply));
            }
        }
        for i in 0..k.boards.len() {
            let mut without = Bits::new(cat.mutants.len());
            for (j, s) in kills.iter().enumerate() {
                if j != i {
                    without.union_with(s);
                }
            }
            let cells_without: BTreeSet<String> = k
                .boards
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &b)| combination(&p, &mut values, b))
                .collect();
            let guards_without: BTreeSet<(usize, usize, u8, u8)> = k
                .boards
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .flat_map(|(_, &b)| guards(&p, &mut cat, &mut values, b))
                .collect();
            let spread_without = spread.iter().all(|(answer, ply)| {
                k.boards.iter().enumerate().any(|(j, &b)| {
                    j != i
                        && b.ply() == *ply
                        && p.verdicts[p.verdict(b, &mut values)].answer == *answer
                })
            });
            assert!(
                without != caught
                    || cells_without != everywhere
                    || guards_without != guarded
                    || !spread_without,
                "{name}: position {} is not needed",
                p.grid_text(k.boards[i])
            );
        }
    }
}

/// The guard elements `b` holds, found here square by square: (line, square off it, state of
/// the square, and beside an empty square whether the line is the second player's) for each line whose ignoring
/// answers `b` wrong.
fn guards(
    p: &Problem,
    cat: &mut Catalogue,
    values: &mut Values,
    b: Board,
) -> Vec<(usize, usize, u8, u8)> {
    let right = p.verdicts[p.verdict(b, values)].answer.clone();
    let mut out = Vec::new();
    for (i, line) in LINES.iter().enumerate() {
        let index = p
            .geometry
            .lines
            .iter()
            .position(|&l| (0..9).all(|s| (l >> s & 1 == 1) == line.contains(&s)))
            .expect("a line of the board");
        if cat.answer(Mutant::LineIgnored(index as u8), b).as_deref() == Some(right.as_str()) {
            continue;
        }
        for s in (0..9).filter(|s| !line.contains(s)) {
            let state = if b.x >> s & 1 == 1 {
                1
            } else if b.o >> s & 1 == 1 {
                2
            } else {
                0
            };
            // Beside an empty square: the second player's line, or not.
            let owner = u8::from(state == 0 && line.iter().all(|&q| b.o >> q & 1 == 1));
            out.push((i, s, state, owner));
        }
    }
    out
}

#[test]
fn the_catalogue_is_derived_from_the_description() {
    let p = Problem::builtin("toe1").unwrap();
    let cat = Catalogue::new(&p);
    // Each of the eight lines on its own.
    let single = cat
        .mutants
        .iter()
        .filter(|m| matches!(m, Mutant::LineIgnored(_)))
        .count();
    assert_eq!(single, 8);
    // Pairs of lines sharing a square, up to the board's symmetries, by the classes of the
    // two lines: row and column at a corner, an edge's middle and the centre (3); row and
    // diagonal, row and anti-diagonal, column and diagonal, column and anti-diagonal, each at
    // a corner and the centre (8); the two diagonals at the centre (1).
    assert_eq!(cat.shapes.len(), 12);
    // TOE1's rules read one fact, reachability: two combinations, each repeated or left out.
    assert_eq!(cat.combinations.len(), 2);
    let per = |f: fn(&Mutant) -> bool| cat.mutants.iter().filter(|m| f(m)).count();
    assert_eq!(per(|m| matches!(m, Mutant::Repeated(_))), 2);
    assert_eq!(per(|m| matches!(m, Mutant::Omitted(_))), 2);
    // One pair of verdict rules to swap.
    assert_eq!(per(|m| matches!(m, Mutant::RulesSwapped(_))), 1);
    // Each line, and the rows and the columns (the classes of more than one line), ignored
    // for one player only.
    assert_eq!(per(|m| matches!(m, Mutant::LineIgnoredBy(..))), 16);
    assert_eq!(per(|m| matches!(m, Mutant::ClassIgnoredBy(..))), 4);
    // Sets of squares read as a line beside the real ones: the runs of three of the flat grid
    // that are no line, across a row's end (1-2-3, 2-3-4, 4-5-6, 5-6-7) and two apart
    // (0-2-4, 1-3-5, 3-5-7, 4-6-8); the 3×3 board has no row or column to wrap.
    let extra: BTreeSet<u16> = cat
        .near
        .iter()
        .filter(|n| n.replaces.is_none())
        .map(|n| n.squares)
        .collect();
    let runs = [
        [1, 2, 3],
        [2, 3, 4],
        [4, 5, 6],
        [5, 6, 7],
        [0, 2, 4],
        [1, 3, 5],
        [3, 5, 7],
        [4, 6, 8],
    ];
    let want: BTreeSet<u16> = runs
        .iter()
        .map(|r| r.iter().fold(0u16, |m, &s| m | 1 << s))
        .collect();
    assert_eq!(extra, want);
    // A line typed with one square moved next to it, one of each shape up to the symmetries:
    // each is no line, differs from its line in one square, and no two are images.
    let moved: Vec<_> = cat.near.iter().filter(|n| n.replaces.is_some()).collect();
    assert!(moved.len() >= 8, "{}", moved.len());
    for n in &moved {
        let l = p.geometry.lines[n.replaces.unwrap() as usize];
        assert!(!p.geometry.lines.contains(&n.squares));
        assert_eq!((l & !n.squares).count_ones(), 1);
        assert_eq!(n.squares.count_ones(), 3);
    }
    let ids: BTreeSet<String> = cat.mutants.iter().map(|&m| cat.id(m)).collect();
    assert_eq!(ids.len(), cat.mutants.len(), "ids are distinct");
    // Codeforces 3C reads more facts: more combinations, more rules to swap.
    let p = Problem::builtin("cf3c").unwrap();
    let cat = Catalogue::new(&p);
    assert!(cat.combinations.len() > 2);
    assert_eq!(
        cat.mutants
            .iter()
            .filter(|m| matches!(m, Mutant::RulesSwapped(_)))
            .count(),
        5
    );
}

/// The command that runs the hand-written solution with `bug` on `problem`.
fn solver(problem: &str, bug: &str) -> String {
    let file = project("tests/fixtures/solvers/family/toe.py");
    format!("python3 {} {problem} {bug}", file.display())
}

/// `tomek audit --problem P --solver CMD ARGS --format json`: its exit code and report.
fn audit(problem: &str, command: &str, args: &[&str]) -> (i32, Value) {
    let out = tomek()
        .args([
            "--quiet",
            "audit",
            "--problem",
            problem,
            "--solver",
            command,
        ])
        .args(["--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{command}: {e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), report)
}

#[test]
fn wrong_solutions_written_by_hand_fail_the_killer_set() {
    // The right solution passes, so a failure below is the bug's.
    for problem in ["toe1", "toe2", "ccc-hk-2008-j4", "perfect-play"] {
        let (code, r) = audit(problem, &solver(problem, "none"), &["--profile", "killer"]);
        assert_eq!(code, 0, "{problem}: {r}");
    }
    let bugs = [
        ("toe1", "no-columns"),
        ("toe2", "no-columns"),
        ("toe1", "wrong-index"),
        ("toe2", "wrong-index"),
        ("toe1", "row-and-column"),
        ("toe2", "row-and-column"),
        ("ccc-hk-2008-j4", "counts-only"),
        ("toe1", "empty-line"),
        ("toe2", "empty-line"),
        ("toe1", "printed-twice"),
        ("toe2", "printed-twice"),
        ("toe1", "left-out"),
        ("toe2", "left-out"),
        ("cf3c", "letter-o"),
        ("cf3c", "row-and-column"),
        ("perfect-play", "no-draw"),
    ];
    // Bugs no mutant names as written: a line looked at only when another square is filled, a
    // slice of the flat grid taken for the anti-diagonal, a row typed with a square moved, the
    // rows found as runs of the flat grid, a line or a class looked at for one player only.
    let unnamed = [
        "guarded",
        "slice-anti",
        "o-no-diagonals",
        "moved-square",
        "flat-windows",
        "x-no-row-3",
        "o-no-columns",
    ];
    let bugs = bugs.into_iter().chain(
        ["cf3c", "toe1", "toe2", "ccc-hk-2008-j4", "perfect-play"]
            .into_iter()
            .flat_map(|p| unnamed.map(|bug| (p, bug))),
    );
    for (problem, bug) in bugs {
        let (code, r) = audit(
            problem,
            &solver(problem, bug),
            &["--profile", "killer", "--max-failures", "1"],
        );
        assert_eq!(code, 1, "{problem} {bug} passes the killer set: {r}");
    }
}

#[test]
fn a_doubled_answer_is_named_with_its_case_and_grid() {
    let (code, r) = audit(
        "toe1",
        &solver("toe1", "printed-twice"),
        &["--profile", "killer"],
    );
    assert_eq!(code, 1);
    let b = &r["broken"][0];
    assert_eq!(b["kind"], "misaligned", "{r}");
    let what = b["what"].as_str().unwrap();
    let cases = killer_set(&Problem::builtin("toe1").unwrap()).boards.len();
    assert!(what.contains(&format!("for {cases} cases")), "{what}");
    assert!(what.contains("gets 2 answers"), "{what}");
    // The grid named is one the bug doubles: X two or more ahead, and O with a line.
    let grid = b["board"].as_str().unwrap().replace('/', "");
    let count = |c: char| grid.chars().filter(|&x| x == c).count() as i32;
    assert!(count('X') - count('O') >= 2, "{grid}");
    let o_line = LINES
        .iter()
        .any(|l| l.iter().all(|&s| grid.as_bytes()[s] == b'O'));
    assert!(o_line, "{grid}");
    // No wrong answer is reported for the innocent cases after it.
    assert_eq!(r["wrong"], 0, "{r}");
    // An answer left out is named the same way.
    let (_, r) = audit(
        "toe2",
        &solver("toe2", "left-out"),
        &["--profile", "killer"],
    );
    let what = r["broken"][0]["what"].as_str().unwrap();
    assert!(what.contains("gets no answer"), "{what}");
}

#[test]
fn braces_give_the_solver_its_input_as_a_file() {
    // The program opens its last argument: `{}` must have become a path.
    let command = format!("{} {{}}", solver("toe1", "none"));
    let (code, r) = audit("toe1", &command, &["--profile", "killer"]);
    assert_eq!(code, 0, "{r}");
    assert_eq!(r["checked"], r["positions"]);
    // And for a problem of one case per file.
    let command = format!("{} {{}}", solver("cf3c", "none"));
    let (code, r) = audit("cf3c", &command, &["--profile", "uniform", "--cases", "5"]);
    assert_eq!(code, 0, "{r}");
}

#[test]
fn the_profile_chooses_the_positions_audited() {
    let me = crate::harness::TOMEK;
    let right = format!("{me} solve --problem toe1");
    let killer = killer_set(&Problem::builtin("toe1").unwrap()).boards.len();
    let count = |args: &[&str]| {
        let (code, r) = audit("toe1", &right, args);
        assert_eq!(code, 0, "{r}");
        r["positions"].as_u64().unwrap()
    };
    assert_eq!(count(&["--profile", "killer"]), killer as u64);
    assert_eq!(count(&["--profile", "contest", "--cases", "200"]), 200);
    assert_eq!(count(&["--profile", "uniform", "--cases", "50"]), 50);
    assert_eq!(count(&[]), 19_683);
    assert_eq!(count(&["--profile", "exhaustive"]), 19_683);
}

#[test]
fn a_contest_file_holds_the_rare_combinations() {
    // X two or more ahead while O has a line: public solutions print two answers there.
    let out = crate::harness::stdout_of(&[
        "generate",
        "--problem",
        "toe1",
        "--profile",
        "contest",
        "--cases",
        "1000",
    ]);
    let grids: Vec<String> = out
        .split("\n\n")
        .map(|g| g.lines().filter(|l| l.len() == 3).collect())
        .collect();
    let rare = grids.iter().any(|g| {
        let count = |c: char| g.chars().filter(|&x| x == c).count() as i32;
        g.len() == 9
            && count('X') - count('O') >= 2
            && LINES
                .iter()
                .any(|l| l.iter().all(|&s| g.as_bytes()[s] == b'O'))
    });
    assert!(rare);
}

/// The edge profile holds the boundaries of every 3×3 space: the empty grid where the space
/// holds it, and every answer at every ply where it occurs (counted here over the whole
/// space); a contest file holds them too.
#[test]
fn the_edge_profile_holds_every_answer_at_every_ply_and_the_smallest_grid() {
    use tomek::problem::sample::{self, Profile};
    for name in THREE_BY_THREE {
        let p = Problem::builtin(name).unwrap();
        let mut values = Values::new();
        let pairs = |boards: &[Board], values: &mut Values| -> BTreeSet<(u32, String)> {
            boards
                .iter()
                .map(|&b| {
                    let ply = (b.x | b.o).count_ones();
                    (ply, p.verdicts[p.verdict(b, values)].answer.clone())
                })
                .collect()
        };
        let everywhere = pairs(&p.positions(), &mut values);
        let edge = sample::draw(&p, Profile::Edge, 0, 1);
        assert_eq!(pairs(&edge, &mut values), everywhere, "{name}");
        let empty = Board::empty(0);
        assert_eq!(
            edge.contains(&empty),
            p.in_space(empty),
            "{name}: the empty grid"
        );
        let contest = sample::draw(&p, Profile::Contest, 500, 7);
        assert!(edge.iter().all(|b| contest.contains(b)), "{name}: contest");
    }
}

#[test]
fn a_rejected_empty_board_and_a_short_search_fail_the_edge_file() {
    for (problem, bug) in [
        ("toe1", "empty-rejected"),
        ("ccc-hk-2008-j4", "empty-rejected"),
        ("cf3c", "empty-rejected"),
        ("toe1", "short-search"),
        ("toe2", "short-search"),
        ("cf3c", "short-search"),
    ] {
        for args in [
            &["--profile", "edge"][..],
            &["--profile", "contest", "--cases", "300"],
        ] {
            let mut all = args.to_vec();
            all.extend(["--max-failures", "1"]);
            let (code, r) = audit(problem, &solver(problem, bug), &all);
            assert_eq!(code, 1, "{problem} {bug} passes {args:?}: {r}");
        }
    }
    // The right solution passes the edge file.
    for problem in THREE_BY_THREE {
        let (code, r) = audit(problem, &solver(problem, "none"), &["--profile", "edge"]);
        assert_eq!(code, 0, "{problem}: {r}");
    }
}
