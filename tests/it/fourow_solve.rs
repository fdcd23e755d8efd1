//! The search for perfect play (`tomek::fourow::solve`, `fourow explain`, `fourow score`)
//! held to a plain minimax written here on a grid of cells: no bitboards, no table, no
//! pruning, no shortcuts. It is exponential, so it only judges positions with few empty
//! cells, or small boards through a memo of exact values.

use crate::harness::tomek;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::io::Write;
use tomek::fourow::solve::{Board, Score, Shape, Solver, parse_line, parse_moves};

/// A board as rows of cells: 0 empty, 1 the first player, 2 the second.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Grid {
    cols: usize,
    rows: usize,
    cells: Vec<u8>,
    pub(crate) heights: Vec<usize>,
    played: usize,
}

impl Grid {
    pub(crate) fn new(cols: usize, rows: usize) -> Grid {
        Grid {
            cols,
            rows,
            cells: vec![0; cols * rows],
            heights: vec![0; cols],
            played: 0,
        }
    }

    pub(crate) fn from_moves(moves: &str, cols: usize, rows: usize) -> Grid {
        let mut g = Grid::new(cols, rows);
        for c in moves.bytes() {
            g.drop_chip(usize::from(c - b'1'));
        }
        g
    }

    fn at(&self, col: isize, row: isize) -> Option<u8> {
        (col >= 0 && row >= 0 && (col as usize) < self.cols && (row as usize) < self.rows)
            .then(|| self.cells[row as usize * self.cols + col as usize])
    }

    /// Drops the mover's chip into `col`; true when it makes four in a line.
    pub(crate) fn drop_chip(&mut self, col: usize) -> bool {
        let row = self.heights[col];
        let who = 1 + (self.played % 2) as u8;
        self.cells[row * self.cols + col] = who;
        self.heights[col] += 1;
        self.played += 1;
        let (c, r) = (col as isize, row as isize);
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |sign: isize| {
                (1..4)
                    .take_while(|&k| self.at(c + sign * k * dc, r + sign * k * dr) == Some(who))
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }

    fn undo(&mut self, col: usize) {
        self.heights[col] -= 1;
        self.cells[self.heights[col] * self.cols + col] = 0;
        self.played -= 1;
    }

    fn area(&self) -> usize {
        self.cols * self.rows
    }

    /// The score of an open position by full minimax: every move, to the end of the game.
    /// With a memo of every position met, fast enough for whole small boards.
    pub(crate) fn minimax(&mut self, mut memo: Option<&mut HashMap<Vec<u8>, i32>>) -> i32 {
        if self.played == self.area() {
            return 0;
        }
        if let Some(&v) = memo.as_ref().and_then(|m| m.get(&self.cells)) {
            return v;
        }
        let mut best = i32::MIN;
        for col in 0..self.cols {
            if self.heights[col] == self.rows {
                continue;
            }
            let before = self.played;
            let v = if self.drop_chip(col) {
                ((self.area() + 1 - before) / 2) as i32
            } else {
                -self.minimax(memo.as_deref_mut())
            };
            self.undo(col);
            best = best.max(v);
        }
        if let Some(m) = memo {
            m.insert(self.cells.clone(), best);
        }
        best
    }
}

/// A seeded random game of `stones` moves on the board that nobody has won, as digits.
fn random_open_game(rng: &mut ChaCha8Rng, shape: Shape, stones: u32) -> String {
    tomek::fourow::solve::random_open_game(shape, stones, rng)
}

fn shape(cols: u32, rows: u32) -> Shape {
    Shape::new(cols, rows).expect("the board fits")
}

/// Every open position of `stones` moves on the board, once each, as move strings.
fn every_open_position(shape: Shape, stones: u32) -> Vec<String> {
    let mut layer: HashMap<u64, String> = HashMap::from([(Board::new(shape).key(), String::new())]);
    for _ in 0..stones {
        let mut next = HashMap::new();
        for moves in layer.values() {
            let b = parse_moves(moves, shape).expect("legal");
            for col in (0..shape.cols()).filter(|&c| b.can_play(c)) {
                let child = b.play(col);
                if !child.last_mover_won() {
                    let mut m = moves.clone();
                    m.push(char::from_digit(col + 1, 10).expect("a digit"));
                    next.entry(child.key()).or_insert(m);
                }
            }
        }
        layer = next;
    }
    let mut all: Vec<String> = layer.into_values().collect();
    all.sort();
    all
}

/// The search and the plain minimax agree on each position (and the search's table, kept
/// from one position to the next, never leaks a wrong bound).
fn agree(positions: &[String], cols: u32, rows: u32) {
    let shape = shape(cols, rows);
    let mut solver = Solver::new(16 << 20);
    for moves in positions {
        let b = parse_moves(moves, shape).expect("legal");
        let plain = Grid::from_moves(moves, cols as usize, rows as usize).minimax(None);
        assert_eq!(solver.solve(b), Score(plain), "{cols}×{rows} `{moves}`");
    }
}

#[test]
fn every_4x4_position_of_six_stones_scores_as_plain_minimax_says() {
    let positions = every_open_position(shape(4, 4), 6);
    assert!(positions.len() > 500, "{} positions", positions.len());
    agree(&positions, 4, 4);
}

#[test]
fn random_positions_of_small_boards_score_as_plain_minimax_says() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    for (cols, rows, stones) in [(5, 4, 10), (4, 5, 10), (6, 4, 14), (5, 5, 15), (4, 6, 14)] {
        let positions: Vec<String> = (0..60)
            .map(|_| random_open_game(&mut rng, shape(cols, rows), stones))
            .collect();
        agree(&positions, cols, rows);
    }
}

/// The follow-up bounds (`Board::follow_up_bound`) never claim less than the plain minimax
/// finds, on every window limit, and the rules for odd columns take part: with an even number
/// of empty cells and some odd columns, and with an odd number (the zugzwang of a threat in an
/// odd column).
#[test]
fn follow_up_bounds_hold_against_plain_minimax() {
    let mut rng = ChaCha8Rng::seed_from_u64(46);
    let (mut even_with_odd_columns, mut odd_empty) = (0, 0);
    for (cols, rows, stones) in [(5, 4, 9), (4, 5, 9), (6, 4, 12), (5, 5, 14), (4, 6, 12)] {
        let shape = shape(cols, rows);
        let mut memo = HashMap::new();
        for _ in 0..300 {
            for extra in 0..2 {
                let moves = random_open_game(&mut rng, shape, stones + extra);
                let b = parse_moves(&moves, shape).expect("legal");
                if b.can_win_now() {
                    continue;
                }
                let exact =
                    Grid::from_moves(&moves, cols as usize, rows as usize).minimax(Some(&mut memo));
                let empty = shape.area() - b.moves();
                let odd_columns = (0..cols).any(|c| {
                    let height = (0..rows).take_while(|&r| b.mask() & shape.cell(c, r) != 0);
                    (rows - height.count() as u32) % 2 == 1
                });
                for limit in -4..=2 {
                    // The test of the cells all children share never rules out a child's bound.
                    let safe = b.safe_moves();
                    let child_bound = (0..cols).any(|c| {
                        let cell = safe & shape.column(c);
                        cell != 0 && b.play_cell(cell).follow_up_bound(limit).is_some()
                    });
                    assert!(
                        !child_bound || b.children_may_bound(safe, limit),
                        "{cols}×{rows} `{moves}`: a child's bound at {limit} ruled out"
                    );
                    let Some(bound) = b.follow_up_bound(limit) else {
                        continue;
                    };
                    assert!(
                        bound <= limit,
                        "{cols}×{rows} `{moves}`: {bound} over {limit}"
                    );
                    assert!(
                        exact <= bound,
                        "{cols}×{rows} `{moves}`: scores {exact}, bounded by {bound}"
                    );
                    if empty % 2 == 1 {
                        odd_empty += 1;
                    } else if odd_columns {
                        even_with_odd_columns += 1;
                    }
                }
            }
        }
    }
    assert!(
        even_with_odd_columns > 50 && odd_empty > 50,
        "{even_with_odd_columns} and {odd_empty} bounds from odd columns"
    );
}

#[test]
fn random_7x6_end_positions_score_as_plain_minimax_says() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    for stones in [33, 34, 35, 36, 38, 40] {
        let positions: Vec<String> = (0..25)
            .map(|_| random_open_game(&mut rng, Shape::STANDARD, stones))
            .collect();
        agree(&positions, 7, 6);
    }
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn empty_small_boards_score_as_a_memoized_minimax_says() {
    for (cols, rows) in [(4, 4), (5, 4), (4, 5)] {
        let mut memo = HashMap::new();
        let exact = Grid::new(cols as usize, rows as usize).minimax(Some(&mut memo));
        let b = Board::new(shape(cols, rows));
        assert_eq!(
            Solver::new(16 << 20).solve(b),
            Score(exact),
            "{cols}×{rows}"
        );
        // Two threads on the one position, sharing a table.
        assert_eq!(
            Solver::with_threads(16 << 20, 2).solve(b),
            Score(exact),
            "{cols}×{rows} on two threads"
        );
        // Each first move too, through the analysis that `explain` prints.
        let a = tomek::fourow::solve::analyze(b, 2, 16 << 20, &|_, _| {});
        for (col, s) in a.moves {
            let mut g = Grid::new(cols as usize, rows as usize);
            g.drop_chip(col as usize);
            assert_eq!(
                s,
                Score(-g.minimax(Some(&mut memo))),
                "{cols}×{rows} column {col}"
            );
        }
    }
}

#[test]
fn threads_sharing_one_position_find_the_one_threads_score() {
    // Scores of positions early enough for the threads to split the tree, on three boards;
    // the table is kept from one position to the next, as `score` keeps it.
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    for (cols, rows, stones) in [(6, 4, 3), (5, 5, 4), (7, 6, 14)] {
        let shape = shape(cols, rows);
        let (mut one, mut two) = (Solver::new(16 << 20), Solver::with_threads(16 << 20, 2));
        for _ in 0..8 {
            let b = parse_moves(&random_open_game(&mut rng, shape, stones), shape).unwrap();
            assert_eq!(two.solve(b), one.solve(b), "{cols}×{rows}");
        }
        assert!(two.nodes() > 0);
    }
}

#[test]
fn principal_variations_keep_the_score_to_the_end() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for (cols, rows, stones) in [(7, 6, 30), (5, 4, 4), (6, 4, 8)] {
        let shape = shape(cols, rows);
        for _ in 0..10 {
            let moves = random_open_game(&mut rng, shape, stones);
            let b = parse_moves(&moves, shape).expect("legal");
            let a = tomek::fourow::solve::analyze(b, 1, 16 << 20, &|_, _| {});
            assert_eq!(
                a.variation.len() as u32,
                a.score.distance(b.moves(), shape.area())
            );
            let mut end = b;
            for &c in &a.variation {
                end = end.play(c);
            }
            let over = end.last_mover_won() || end.is_full();
            assert!(over, "`{moves}`: the line stops before the game ends");
            // Replayed, the line ends as the score says: the winner moves last.
            let expected = match a.score.0.signum() {
                0 => !end.last_mover_won(),
                1 => end.last_mover_won() && end.to_move() != b.to_move(),
                _ => end.last_mover_won() && end.to_move() == b.to_move(),
            };
            assert!(expected, "`{moves}`: the line does not end as scored");
        }
    }
}

#[test]
fn ten_thousand_mutated_lines_never_panic_and_errors_name_a_move_inside_the_line() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let alphabet = b"0123456789 -x\r\t8";
    for _ in 0..10_000 {
        let stones = rng.random_range(0..20);
        let mut line = random_open_game(&mut rng, Shape::STANDARD, stones).into_bytes();
        if rng.random_range(0..2) == 0 {
            line.extend(format!(" {}", rng.random_range(-30..30)).bytes());
        }
        for _ in 0..rng.random_range(0..4) {
            let at = rng.random_range(0..=line.len());
            match rng.random_range(0..3) {
                0 => line.insert(at, alphabet[rng.random_range(0..alphabet.len())]),
                1 if at < line.len() => {
                    line.remove(at);
                }
                _ => line.insert(at, b'1' + rng.random_range(0..7)),
            }
        }
        let text = String::from_utf8(line).expect("ASCII");
        if let Err(tomek::fourow::solve::LineError::Moves { moves, error }) =
            parse_line(&text, Shape::STANDARD)
        {
            assert!(
                (1..=moves.chars().count()).contains(&error.at()),
                "{text:?}"
            );
        }
    }
}

/// The reader of `explain`'s MOVES on boards of every shape, with characters of any width: a
/// parsed position has as many chips as moves, and an error names a move of the string.
#[test]
fn ten_thousand_mutated_move_strings_never_panic_on_any_board() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let odd = ['0', '9', 'x', ' ', '-', '+', 'é', '٣', '４', '\u{0}'];
    for _ in 0..10_000 {
        let cols = rng.random_range(1..=9u32);
        let rows = rng.random_range(1..=64 / cols - 1);
        let shape = shape(cols, rows);
        let stones = rng.random_range(0..=shape.area().min(30));
        let mut moves: Vec<char> = (0..stones)
            .map(|_| char::from_digit(rng.random_range(1..=cols), 10).unwrap())
            .collect();
        for _ in 0..rng.random_range(0..4) {
            let at = rng.random_range(0..=moves.len());
            match rng.random_range(0..3) {
                0 => moves.insert(at, odd[rng.random_range(0..odd.len())]),
                1 if at < moves.len() => {
                    moves.remove(at);
                }
                _ => moves.insert(at, char::from_digit(rng.random_range(1..=9), 10).unwrap()),
            }
        }
        let text: String = moves.iter().collect();
        match parse_moves(&text, shape) {
            Ok(b) => assert_eq!(b.moves() as usize, moves.len(), "{text:?}"),
            Err(e) => assert!((1..=moves.len()).contains(&e.at()), "{text:?}: {e}"),
        }
    }
}

#[test]
fn explain_json_matches_plain_minimax_column_by_column() {
    let moves = &late_game();
    let out = tomek()
        .args(["--quiet", "fourow", "explain", moves, "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let doc: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
    let mut g = Grid::from_moves(moves, 7, 6);
    assert_eq!(doc["score"], g.minimax(None));
    let b = parse_moves(moves, Shape::STANDARD).unwrap();
    let score = Score(g.minimax(None));
    let open = (0..7).filter(|&c| b.can_play(c)).count();
    assert_eq!(doc["outcome"], score.outcome().to_string());
    assert_eq!(doc["distance"], score.distance(b.moves(), 42));
    let columns = doc["moves"].as_array().expect("a list of columns");
    assert_eq!(columns.len(), open);
    for m in columns {
        let col = m["column"].as_u64().expect("a column") as usize;
        let mut child = Grid::from_moves(moves, 7, 6);
        let wins = child.drop_chip(col - 1);
        let expected = if wins {
            (43 - 30) / 2
        } else {
            -child.minimax(None)
        };
        assert_eq!(m["score"], expected, "column {col}");
    }
}

#[test]
fn explain_names_the_illegal_move_and_exits_2() {
    for (moves, named) in [
        ("12a4", "move 3 (`a`) is not a column digit"),
        ("18", "move 2 (`8`) names no column"),
        ("1111111", "move 7 (`1`) drops a chip into a full column"),
        ("12121213", "move 8 (`3`) comes after the game was won"),
    ] {
        tomek()
            .args(["--quiet", "fourow", "explain", moves])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(named));
    }
    tomek()
        .args([
            "--quiet", "fourow", "explain", "5", "--cols", "4", "--rows", "4",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("move 1 (`5`)"));
}

/// A table no system could back (a mebibyte short of a tebibyte) is refused before any work,
/// with exit 2, by both commands that search.
#[test]
fn a_table_the_system_cannot_give_exits_2() {
    // A system set to grant every request (Linux's overcommit mode 1) refuses nothing.
    let grants_all = std::fs::read_to_string("/proc/sys/vm/overcommit_memory")
        .is_ok_and(|mode| mode.trim() == "1");
    if grants_all {
        return;
    }
    for args in [&["explain", "4444"][..], &["score", "-"][..]] {
        tomek()
            .args(["--quiet", "fourow"])
            .args(args)
            .args(["--table", "1048575"])
            .write_stdin("44444\n")
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "--table 1048575: the system cannot give",
            ));
    }
}

#[test]
fn explain_shows_board_verdict_score_columns_and_a_line() {
    let out = crate::harness::stdout_of(&["fourow", "explain", "1212121"]);
    assert!(
        out.contains("The game is over. The first player won."),
        "{out}"
    );
    let out = crate::harness::stdout_of(&["fourow", "explain", "", "--cols", "4", "--rows", "4"]);
    for part in [
        "....\n....\n....\n....\n1234\n",
        "The first player is to move.",
        "Score 0: draw in 16 plies.",
        "Best play: ",
    ] {
        assert!(out.contains(part), "missing {part:?} in\n{out}");
    }
}

/// An open 7×6 position of 30 chips, the same on every run.
fn late_game() -> String {
    random_open_game(&mut ChaCha8Rng::seed_from_u64(5), Shape::STANDARD, 30)
}

/// A score file in a temporary directory.
fn score_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("a temporary file");
    f.write_all(text.as_bytes()).expect("written");
    f
}

#[test]
fn score_prints_each_line_and_counts_mismatches() {
    let moves = &late_game();
    let right = Grid::from_moves(moves, 7, 6).minimax(None);
    let f = score_file(&format!("{moves} {right}\n1212123\n"));
    let path = f.path().to_str().expect("UTF-8 path");
    let out = crate::harness::stdout_of(&["fourow", "score", path]);
    assert_eq!(out, format!("{moves} {right}\n1212123 18\n"));
    let two = crate::harness::stdout_of(&["fourow", "score", path, "--threads", "2"]);
    assert_eq!(two, out, "the thread count changes nothing");
    let timed = crate::harness::stdout_of(&["fourow", "score", path, "--timing"]);
    assert_eq!(timed.lines().next().unwrap().split(' ').count(), 4);

    let f = score_file(&format!("{moves} {}\n", right + 1));
    tomek()
        .args(["--quiet", "fourow", "score"])
        .arg(f.path())
        .assert()
        .code(1)
        .stderr(predicates::str::contains(":1: `"))
        .stderr(predicates::str::contains("1 position, 1 mismatch,"));
    // A single line gets every thread, and the summary says so.
    tomek()
        .args(["--quiet", "fourow", "score", "--threads", "2"])
        .arg(f.path())
        .assert()
        .code(1)
        .stderr(predicates::str::contains("per position (2 threads)"));
}

#[test]
fn score_names_the_file_and_line_of_a_bad_line_and_exits_2() {
    for (text, named) in [
        ("44\n4x\n", ":2: `4x`: move 2 (`x`) is not a column digit"),
        ("44 1\n44 one\n", ":2: `one` is not a score"),
        ("4 1 2\n", ":1: expected `MOVES` or `MOVES SCORE`"),
        ("1111111\n", ":1: `1111111`: move 7"),
    ] {
        let f = score_file(text);
        let name = f.path().display().to_string();
        tomek()
            .args(["--quiet", "fourow", "score"])
            .arg(f.path())
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!("{name}{named}")));
    }
}

/// The lines of a committed test set (scripts/fourow-positions.sh): moves and score.
pub(crate) fn test_set(band: &str) -> Vec<(String, i32)> {
    let path = crate::harness::project(&format!("tests/data/fourow/{band}.txt"));
    let text = String::from_utf8(crate::harness::read(&path)).expect("UTF-8");
    text.lines()
        .map(|l| {
            let (moves, score) = l.split_once(' ').expect("MOVES SCORE");
            (moves.to_string(), score.parse().expect("a score"))
        })
        .collect()
}

#[test]
fn committed_quick_sets_score_as_recorded() {
    for band in ["end", "middle", "middle-medium", "begin-easy"] {
        let path = crate::harness::project(&format!("tests/data/fourow/{band}.txt"));
        tomek()
            .args(["--quiet", "fourow", "score"])
            .arg(&path)
            .assert()
            .success()
            .stderr(predicates::str::contains(" 0 mismatches"));
    }
}

#[test]
fn committed_end_set_agrees_with_plain_minimax_where_it_is_cheap() {
    let mut checked = 0;
    for (moves, score) in test_set("end") {
        if moves.len() >= 33 {
            assert_eq!(
                Grid::from_moves(&moves, 7, 6).minimax(None),
                score,
                "`{moves}`"
            );
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} positions checked");
}

#[test]
fn empty_small_boards_have_the_published_outcomes() {
    for (cols, rows, sign) in crate::published::FOUROW_OUTCOMES {
        let s = Solver::new(16 << 20).solve(Board::new(shape(cols, rows)));
        assert_eq!(s.0.signum(), sign, "{cols}×{rows} scores {s}");
    }
}

/// The file reader of `fourow score` as a whole process: files of late positions (cheap to
/// score) with bytes inserted, removed and replaced, invalid UTF-8 and line endings among them.
/// Every run ends with a score (exit 0 or 1) or names the file and line it stopped at (exit 2),
/// and none panics.
#[test]
fn mutated_score_files_are_scored_or_refused_with_their_line_never_a_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let lines: Vec<String> = test_set("end")
        .into_iter()
        .filter(|(moves, _)| moves.len() >= 33)
        .map(|(moves, score)| format!("{moves} {score}\n"))
        .collect();
    // No inserted line breaks: half a late position is an early one, dear to score.
    let odd = [b'0', b'9', b' ', b'\r', b'\t', b'-', b'x', 0xff, 0xc3, 0];
    let mut refused = 0;
    for _ in 0..200 {
        let mut bytes: Vec<u8> = (0..4)
            .flat_map(|_| lines[rng.random_range(0..lines.len())].bytes())
            .collect();
        for _ in 0..rng.random_range(0..4) {
            let at = rng.random_range(0..bytes.len());
            match rng.random_range(0..3) {
                0 => bytes.insert(at, odd[rng.random_range(0..odd.len())]),
                1 => {
                    bytes.remove(at);
                }
                _ => bytes[at] = b'1' + rng.random_range(0..9),
            }
        }
        let mut f = tempfile::NamedTempFile::new().expect("a temporary file");
        f.write_all(&bytes).expect("written");
        let out = tomek()
            .args(["--quiet", "fourow", "score", "--table", "1"])
            .arg(f.path())
            .output()
            .expect("tomek runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        assert!(
            matches!(code, Some(0..=2)) && !stderr.contains("panicked"),
            "{bytes:?}: exit {code:?}, {stderr}"
        );
        if code == Some(2) {
            refused += 1;
            let named = format!("{}:", f.path().display());
            assert!(stderr.contains(&named), "{bytes:?}: {stderr}");
        }
    }
    assert!(refused > 30, "only {refused} of 200 files refused");
}
