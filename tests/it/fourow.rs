//! Four in a row (SPOJ FOUROW) end to end: the statement's sample byte for byte, every rule on
//! games whose answers were worked out by hand, every class of malformed input, inputs of random
//! bytes, and the generator's files.

use crate::harness::*;
use predicates::prelude::*;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use tomek::fourow::{self, Invalid, Position, Verdict, judge};
use tomek::outcome::Player;

const SAMPLE_IN: &str = include_str!("../data/fourow-sample.in");
const SAMPLE_OUT: &str = include_str!("../data/fourow-sample.out");

/// Solves `input` (given on standard input) and returns the output, which must succeed.
fn solve(input: &str) -> String {
    let out = tomek()
        .args(["fourow", "solve"])
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// The answer to a single game given by its slot digits.
fn answer(moves: &str) -> String {
    fourow::solve(format!("1\nGame #1: {moves}\n").as_bytes(), "t").unwrap()
}

// ---------------------------------------------------------------------------------------------
// The sample.

#[test]
fn sample_byte_for_byte_from_stdin_file_and_dash() {
    assert_eq!(solve(SAMPLE_IN), SAMPLE_OUT);
    let sample = project("tests/data/fourow-sample.in");
    tomek()
        .args(["fourow", "solve"])
        .arg(&sample)
        .assert()
        .success()
        .stdout(SAMPLE_OUT);
    tomek()
        .args(["fourow", "solve", "-"])
        .write_stdin(SAMPLE_IN)
        .assert()
        .success()
        .stdout(SAMPLE_OUT);
}

#[test]
fn sample_to_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("answers.out");
    tomek()
        .args(["fourow", "solve"])
        .arg(project("tests/data/fourow-sample.in"))
        .arg("-o")
        .arg(&out)
        .assert()
        .success()
        .stdout("");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), SAMPLE_OUT);
}

#[test]
fn generated_sample_copies_match_the_statement() {
    for ext in ["in", "out"] {
        let kept = std::fs::read(project(&format!("tests/data/fourow-sample.{ext}"))).unwrap();
        let generated = std::fs::read(project(&format!("generated/fourow-sample.{ext}"))).unwrap();
        assert_eq!(kept, generated, "generated/fourow-sample.{ext}");
    }
}

#[test]
fn sample_input_is_valid() {
    tomek()
        .args(["fourow", "validate"])
        .arg(project("tests/data/fourow-sample.in"))
        .assert()
        .code(0)
        .stdout(predicate::str::contains("valid, 2 games"));
}

// ---------------------------------------------------------------------------------------------
// The rules. Every expected grid below was drawn by hand from the moves (columns listed bottom
// to top in the comments) before the program was run.

#[test]
fn game_without_moves_either_way() {
    let out = solve("3\nGame #1:\nGame #2: \nGame #3: 4\n");
    assert_eq!(
        out,
        "Game #1 is not over, yet.\nGame #2 is not over, yet.\nGame #3 is not over, yet.\n"
    );
}

#[test]
fn crlf_and_missing_final_newline_are_read() {
    assert_eq!(
        solve("2\r\nGame #1: 1\r\nGame #2:"),
        "Game #1 is not over, yet.\nGame #2 is not over, yet.\n"
    );
}

#[test]
fn seventh_chip_in_a_slot_is_invalid() {
    // Slot 1 gets x o x o x o: no four; the seventh chip is one too many.
    assert_eq!(answer("111111"), "Game #1 is not over, yet.\n");
    assert_eq!(answer("1111111"), "Game #1 is invalid.\n");
    assert_eq!(answer("23456711111117"), "Game #1 is invalid.\n");
}

#[test]
fn moves_after_a_win_are_invalid() {
    // x: slot 1 four times (rows 0-3) on moves 1, 3, 5, 7; o: slot 2 three times.
    assert!(answer("1212121").starts_with("Game #1 is over. The first player won.\n"));
    assert_eq!(answer("12121217"), "Game #1 is invalid.\n");
    // After the win, slot 1 would also overflow on the tenth move: still a move after a win.
    assert_eq!(answer("12121211111"), "Game #1 is invalid.\n");
    assert_eq!(
        judge(&cols("12121211111")).verdict,
        Verdict::Invalid(Invalid::AfterWin { at: 7 })
    );
}

#[test]
fn full_board_without_four_has_no_winner() {
    // Slots 1,3,5,7 hold x x x o o o and slots 2,4,6 hold o o o x x x (bottom to top): rows
    // alternate, columns have runs of three, and every diagonal changes owner at least every
    // second cell.
    let draw = "121212313131232323545454454545767676676767";
    assert_eq!(draw.len(), 42);
    assert_eq!(answer(draw), "Game #1 is over. There is no winner.\n");
}

#[test]
fn win_on_the_last_move_is_a_win() {
    // Final slots (bottom to top): 1 xxxoox, 2 oooxxx, 3 xxxooo, 4 oooxxx, 5 xxxooo,
    // 6 oooxxx, 7 xxoooo. The only four is slot 7, rows 2-5, completed by o's 42nd move.
    let game = "121212313133132324245476765657454545676767";
    assert_eq!(game.len(), 42);
    assert_eq!(
        answer(game),
        "Game #1 is over. The second player won.\n\
         -------\n\
         xxoxoxO\n\
         oxoxoxO\n\
         oxoxoxO\n\
         xoxoxoO\n\
         xoxoxox\n\
         xoxoxox\n\
         -------\n"
    );
}

#[test]
fn two_lines_at_once_are_both_capitalised() {
    // x: slot 1 rows 0-2, slot 2 row 0, slot 4 rows 0-2, slots 5-7 row 3 on top of three o's
    // each; the last x in slot 4 (row 3) makes a column and a row at once.
    let out = answer("151545564616672747724");
    assert_eq!(
        out,
        "Game #1 is over. The first player won.\n\
         -------\n   XXXX\nx  Xooo\nxo Xooo\nxx Xooo\n-------\n"
    );
    // One x first in the empty slot 3 swaps the roles: the same shape for the second player.
    let out = answer("3151545564616672747724");
    assert_eq!(
        out,
        "Game #1 is over. The second player won.\n\
         -------\n   OOOO\no  Oxxx\nox Oxxx\nooxOxxx\n-------\n"
    );
}

#[test]
fn runs_longer_than_four_are_wholly_capitalised() {
    // x fills row 0 except slot 4, o sits on each; x's last chip in slot 4 makes seven.
    assert_eq!(
        answer("1122335566774"),
        "Game #1 is over. The first player won.\n-------\nooo ooo\nXXXXXXX\n-------\n"
    );
    // o: slots 1, 2, 4, 5 on row 0, then slot 3 makes five; x's on row 1 have a gap in slot 3.
    assert_eq!(
        answer("7112244553"),
        "Game #1 is over. The second player won.\n-------\nxx xx  \nOOOOO x\n-------\n"
    );
}

#[test]
fn grid_rows_are_seven_characters_and_empty_rows_are_skipped() {
    let input = "3\nGame #1: 1212121\nGame #2: 7112244553\nGame #3: 2143563445575\n";
    let out = solve(input);
    let mut in_grid = false;
    let mut rows = 0;
    for line in out.split_terminator('\n') {
        if line == "-------" {
            in_grid = !in_grid;
        } else if in_grid {
            rows += 1;
            assert_eq!(line.len(), 7, "{line:?}");
            assert!(line.trim() != "", "an empty row was printed");
        } else {
            assert!(line.starts_with("Game #"), "{line:?}");
        }
    }
    // Heights 4, 2 and 4.
    assert_eq!(rows, 10);
}

// ---------------------------------------------------------------------------------------------
// Malformed input: exit code 2 and `FILE:LINE:` on standard error.

#[test]
fn malformed_inputs_exit_2_with_the_line() {
    let cases: &[(&str, &str)] = &[
        ("1\nGame #1: 1280\n", "<stdin>:2: column 12: move `8`"),
        ("1\nGame #1: 1230\n", "<stdin>:2: column 13: move `0`"),
        (
            "2\nGame #1: 1\nGame #2: 12a\n",
            "<stdin>:3: column 12: unexpected character `a`",
        ),
        (
            &format!("1\nGame #1: {}\n", "1234567".repeat(7)),
            "<stdin>:2: 49 moves; a game has at most 42",
        ),
        (
            "2\nGame #1: 1\nGame #1: 2\n",
            "<stdin>:3: expected game #2, found game #1",
        ),
        ("0\n", "<stdin>:1: the number of games must be 1 to 99"),
        ("100\n", "<stdin>:1: the number of games must be 1 to 99"),
        (
            "two\n",
            "<stdin>:1: expected the number of games as digits alone",
        ),
        (
            "-1\n",
            "<stdin>:1: expected the number of games as digits alone",
        ),
        ("", "<stdin>:1: the input is empty"),
        (
            "3\nGame #1: 1\nGame #2: 2\n",
            "<stdin>:4: the line of game #3 is missing",
        ),
        (
            "1\nGame #1: 1\nhello\n",
            "<stdin>:3: extra text after the last game",
        ),
        ("1\nGame #1: 1 \n", "<stdin>:2: column 11: unexpected blank"),
        (
            "1\nGame #1:1\n",
            "<stdin>:2: expected a space after `Game #1:`",
        ),
        (
            "1\nCase #1: 1\n",
            "<stdin>:2: expected the line to start with `Game #1: `",
        ),
    ];
    for (input, message) in cases {
        tomek()
            .args(["fourow", "solve"])
            .write_stdin(*input)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with(*message));
    }
}

#[test]
fn malformed_file_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.in");
    std::fs::write(&bad, "2\nGame #1: 9\nGame #2: 1\n").unwrap();
    tomek()
        .args(["fourow", "solve"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(format!(
            "{}:2: column 10: move `9` names no slot",
            bad.display()
        )));
    tomek()
        .args(["fourow", "solve"])
        .arg(dir.path().join("missing.in"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
}

#[test]
fn validate_reports_reasons_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let good = file("good.in", b"2\nGame #1:\nGame #2: 1212121\n");
    tomek()
        .args(["fourow", "validate"])
        .arg(&good)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("valid, 2 games"))
        .stdout(predicate::str::is_match(r"over, first player won +1\n").unwrap());
    let crlf = file("crlf.in", b"1\r\nGame #1: 1\r\n");
    tomek()
        .args(["fourow", "validate"])
        .arg(&crlf)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "crlf.in:1: the line ends with a carriage return",
        ))
        .stderr(predicate::str::contains(
            "crlf.in:2: the line ends with a carriage return",
        ));
    let no_newline = file("nonl.in", b"1\nGame #1: 1");
    tomek()
        .args(["fourow", "validate"])
        .arg(&no_newline)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "nonl.in:2: the last line does not end with a newline",
        ));
    let many = file("many.in", b"2\nGame #1: 8\nGame #3: 1\n");
    tomek()
        .args(["fourow", "validate"])
        .arg(&many)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("many.in:2: column 10: move `8`"))
        .stderr(predicate::str::contains(
            "many.in:3: expected game #2, found game #3",
        ))
        .stderr(predicate::str::contains("invalid (2 problems)"));
    tomek()
        .args(["fourow", "validate"])
        .arg(dir.path().join("absent.in"))
        .assert()
        .code(2);
    tomek().args(["fourow", "validate"]).assert().code(2);
}

// ---------------------------------------------------------------------------------------------
// Robustness and an independent judge.

/// A judge written the plain way, on a 7×6 array, to check the bitboard one against: returns
/// the whole answer for game 1.
fn reference_answer(moves: &[u8]) -> String {
    let mut grid = [[0u8; 6]; 7]; // 0 empty, 1 first player, 2 second player
    let mut heights = [0usize; 7];
    let mut winner = 0u8;
    let dirs: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let at = |g: &[[u8; 6]; 7], c: i32, r: i32| -> u8 {
        if (0..7).contains(&c) && (0..6).contains(&r) {
            g[c as usize][r as usize]
        } else {
            0
        }
    };
    for (i, &m) in moves.iter().enumerate() {
        let c = usize::from(m);
        if winner != 0 || heights[c] == 6 {
            return "Game #1 is invalid.\n".to_string();
        }
        let player = 1 + (i % 2) as u8;
        grid[c][heights[c]] = player;
        heights[c] += 1;
        for (dc, dr) in dirs {
            let (c0, r0) = (c as i32, heights[c] as i32 - 1);
            let mut n = 1;
            for sign in [1, -1] {
                let mut k = 1;
                while at(&grid, c0 + sign * k * dc, r0 + sign * k * dr) == player {
                    n += 1;
                    k += 1;
                }
            }
            if n >= 4 {
                winner = player;
            }
        }
    }
    if winner == 0 {
        return if moves.len() == 42 {
            "Game #1 is over. There is no winner.\n".to_string()
        } else {
            "Game #1 is not over, yet.\n".to_string()
        };
    }
    let mut capital = [[false; 6]; 7];
    for c in 0..7i32 {
        for r in 0..6i32 {
            for (dc, dr) in dirs {
                if (0..4).all(|k| at(&grid, c + k * dc, r + k * dr) == winner) {
                    for k in 0..4 {
                        capital[(c + k * dc) as usize][(r + k * dr) as usize] = true;
                    }
                }
            }
        }
    }
    let who = if winner == 1 { "first" } else { "second" };
    let mut s = format!("Game #1 is over. The {who} player won.\n-------\n");
    for r in (0..6).rev() {
        if (0..7).all(|c| grid[c][r] == 0) {
            continue;
        }
        for c in 0..7 {
            let ch = [' ', 'x', 'o'][usize::from(grid[c][r])];
            s.push(if capital[c][r] {
                ch.to_ascii_uppercase()
            } else {
                ch
            });
        }
        s.push('\n');
    }
    s.push_str("-------\n");
    s
}

fn cols(s: &str) -> Vec<u8> {
    s.bytes().map(|b| b - b'1').collect()
}

#[test]
fn reference_judge_agrees_on_the_hand_made_games() {
    for g in [
        "2143563445575",
        "151545564616672747724",
        "3151545564616672747724",
        "1122335566774",
        "7112244553",
        "121212313133132324245476765657454545676767",
        "121212313131232323545454454545767676676767",
        "12121211111",
        "1111111",
    ] {
        assert_eq!(answer(g), reference_answer(&cols(g)), "{g}");
    }
}

/// Playable moves only, picked by `choices`; with `stop_at_win`, the game ends at its first
/// four, so that wins of every length (and with them every grid shape) occur often.
fn playable(choices: &[u8], stop_at_win: bool) -> Vec<u8> {
    let mut p = Position::new();
    let mut moves = Vec::new();
    for &k in choices {
        let open: Vec<u32> = p.children().map(|(c, _)| c).collect();
        if open.is_empty() || (stop_at_win && p.last_mover_won()) {
            break;
        }
        let c = open[usize::from(k) % open.len()];
        p = p.play(c);
        moves.push(c as u8);
    }
    moves
}

/// Games of every verdict: plain random digits (mostly short games and overflows), playable
/// games stopped at their first four (wins), playable games that go on after it (moves after a
/// win), and moves spread over the slots in turn (long games, draws).
fn games() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(0u8..7, 0..=42),
        prop::collection::vec(any::<u8>(), 0..=42).prop_map(|c| playable(&c, true)),
        prop::collection::vec(any::<u8>(), 0..=42).prop_map(|c| playable(&c, false)),
        (0u8..7, 0u8..7, 30usize..=42).prop_map(|(a, b, n)| {
            (0..n)
                .map(|i| ((i as u8 / 2) * 3 + a + b * (i as u8 % 2)) % 7)
                .collect()
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn judge_agrees_with_the_reference(moves in games()) {
        let text: String = moves.iter().map(|&m| char::from(b'1' + m)).collect();
        prop_assert_eq!(answer(&text), reference_answer(&moves));
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = fourow::solve(&bytes, "x");
        let _ = fourow::input::parse(&bytes, "x", fourow::Mode::Strict);
    }

    #[test]
    fn mutated_samples_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6)
    ) {
        let mut bytes = SAMPLE_IN.as_bytes().to_vec();
        for (at, byte, op) in edits {
            let i = at.index(bytes.len() + 1);
            match op {
                0 => bytes.insert(i, byte),
                1 if i < bytes.len() => { bytes.remove(i); }
                _ if i < bytes.len() => bytes[i] = byte,
                _ => bytes.push(byte),
            }
        }
        match fourow::solve(&bytes, "m") {
            Ok(out) => prop_assert!(out.starts_with("Game #1 ")),
            Err(e) => {
                prop_assert!(!e.0.is_empty());
                for err in &e.0 {
                    let prefix = format!("m:{}: ", err.line);
                    prop_assert!(err.to_string().starts_with(&prefix), "{}", err);
                }
            }
        }
    }

    #[test]
    fn mirrored_games_mirror_the_verdict(moves in games()) {
        let mirrored: Vec<u8> = moves.iter().map(|&m| 6 - m).collect();
        let (a, b) = (judge(&moves), judge(&mirrored));
        prop_assert_eq!(a.verdict, b.verdict);
        prop_assert_eq!(a.position.mirror(), b.position);
        prop_assert_eq!(a.position.mirror().key(), b.position.key());
    }
}

#[test]
fn the_binary_survives_garbage() {
    for input in [
        &b"\xff\xfe\x00\x01"[..],
        b"99\n",
        b"1\nGame #1: \xe2\x82\xac\n",
        b"\n\n\n",
        b"1\nGame #18446744073709551616: 1\n",
    ] {
        tomek()
            .args(["fourow", "solve"])
            .write_stdin(input)
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with("<stdin>:"));
    }
}

// ---------------------------------------------------------------------------------------------
// The generator.

fn generate(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let prefix = dir.join(name);
    tomek()
        .args(["fourow", "generate", "-o"])
        .arg(&prefix)
        .args(extra)
        .assert()
        .success();
    prefix
}

#[test]
fn generator_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let a = generate(dir.path(), "a", &["--games", "40", "--seed", "11"]);
    let b = generate(dir.path(), "b", &["--games", "40", "--seed", "11"]);
    let c = generate(dir.path(), "c", &["--games", "40", "--seed", "12"]);
    for ext in [".in", ".out"] {
        let path = |p: &Path| PathBuf::from(format!("{}{ext}", p.display()));
        assert_eq!(read(path(&a)), read(path(&b)), "same seed, same {ext}");
        assert_ne!(read(path(&a)), read(path(&c)), "other seed, other {ext}");
    }
    // Standard output gets the same input when no prefix is given.
    tomek()
        .args(["fourow", "generate", "--games", "40", "--seed", "11"])
        .assert()
        .success()
        .stdout(String::from_utf8(read(dir.path().join("a.in"))).unwrap());
}

#[test]
fn generated_files_are_valid_solved_and_cover_every_verdict() {
    let dir = tempfile::tempdir().unwrap();
    generate(
        dir.path(),
        "set",
        &["--games", "30", "--seed", "5", "--files", "3"],
    );
    assert!(!dir.path().join("set.in").exists());
    for k in 1..=3 {
        let input = dir.path().join(format!("set-{k}.in"));
        let expected = read(dir.path().join(format!("set-{k}.out")));
        tomek()
            .args(["fourow", "validate"])
            .arg(&input)
            .assert()
            .code(0)
            .stdout(predicate::str::contains("valid, 30 games"));
        tomek()
            .args(["fourow", "solve"])
            .arg(&input)
            .assert()
            .success()
            .stdout(expected.clone());
        let out = String::from_utf8(expected).unwrap();
        for sentence in [
            "is invalid.",
            "is over. There is no winner.",
            "is over. The first player won.",
            "is over. The second player won.",
            "is not over, yet.",
        ] {
            assert!(out.contains(sentence), "set-{k}.out lacks {sentence:?}");
        }
        // The finer cases, checked on the games themselves.
        let text = read(input);
        let games = fourow::input::parse(&text, "set", fourow::Mode::Strict).unwrap();
        let s = fourow::summarize(&games);
        assert!(s.invalid_overflow >= 2 && s.invalid_after_win >= 2, "{s:?}");
        assert!(s.empty >= 2 && s.no_winner >= 2, "{s:?}");
        assert!(
            s.multiple_lines >= 2 && s.long_runs >= 2 && s.win_on_last_move >= 1,
            "{s:?}"
        );
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.lines().any(|l| l.ends_with(": ")),
            "an empty game ending in a space"
        );
        assert!(
            text.lines().any(|l| l.ends_with(':')),
            "an empty game ending at the colon"
        );
        let both = |p| {
            games.iter().any(|g| {
                let j = judge(&g.moves);
                j.verdict == Verdict::Won(p) && j.winning_lines() >= 2
            })
        };
        assert!(both(Player::X) && both(Player::O));
    }
}

#[test]
fn generator_rejects_bad_sizes() {
    for args in [
        &["--games", "100", "--seed", "1"][..],
        &["--games", "0", "--seed", "1"],
        &["--games", "5", "--seed", "x"],
        &["--games", "5", "--seed", "1", "--files", "2"],
    ] {
        tomek()
            .args(["fourow", "generate"])
            .args(args)
            .assert()
            .code(2);
    }
}

#[test]
fn committed_mixed_file_is_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = generate(dir.path(), "mixed", &["--games", "99", "--seed", "1"]);
    for ext in ["in", "out"] {
        assert_eq!(
            read(PathBuf::from(format!("{}.{ext}", prefix.display()))),
            read(project(&format!("generated/fourow-mixed.{ext}"))),
            "generated/fourow-mixed.{ext} is what scripts/regenerate.sh makes"
        );
    }
    assert_eq!(
        fourow::solve(&read(project("generated/fourow-mixed.in")), "mixed")
            .unwrap()
            .as_bytes(),
        read(project("generated/fourow-mixed.out"))
    );
}

#[test]
fn position_children_and_keys_for_a_counter() {
    // The 7 + 49 positions after one and two moves are all distinct; mirroring pairs them.
    let mut keys = std::collections::HashSet::new();
    let mut sym = std::collections::HashSet::new();
    for (_, a) in Position::new().children() {
        for (_, b) in a.children() {
            keys.insert(b.key());
            sym.insert(b.symmetric_key());
        }
    }
    assert_eq!(keys.len(), 49);
    // Mirroring maps slots (a, b) to (8 - a, 8 - b); only (4, 4) is its own mirror, so the
    // 49 positions fall into (49 + 1) / 2 = 25 classes.
    assert_eq!(sym.len(), 25);
}
