//! The four evaluators against each other, against the rules module, and against boards
//! checked by hand: every line for each player with and without the `T`, near-lines that a
//! careless pattern or mask would take for lines, full boards, and boards no game reaches.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tomek::outcome::Status;
use tomek::tictactoe::board::Board;
use tomek::tictactoe::eval::EvaluatorKind;
use tomek::tictactoe::rules::Geometry;

/// The status every evaluator gives `b`, after checking that they all agree with each other
/// and with the rules module.
fn status(b: Board) -> Status {
    let reference = Geometry::tomek().status(b);
    for kind in EvaluatorKind::ALL {
        assert_eq!(kind.get().status(b), reference, "{} on\n{b}", kind.name());
    }
    reference
}

/// A board from its four rows, top to bottom.
fn board(rows: [&str; 4]) -> Board {
    Board::from_symbols(rows.concat().as_bytes()).unwrap()
}

/// The 10 lines as (row, column) squares, written out by hand.
const LINES: [[(u32, u32); 4]; 10] = [
    [(0, 0), (0, 1), (0, 2), (0, 3)],
    [(1, 0), (1, 1), (1, 2), (1, 3)],
    [(2, 0), (2, 1), (2, 2), (2, 3)],
    [(3, 0), (3, 1), (3, 2), (3, 3)],
    [(0, 0), (1, 0), (2, 0), (3, 0)],
    [(0, 1), (1, 1), (2, 1), (3, 1)],
    [(0, 2), (1, 2), (2, 2), (3, 2)],
    [(0, 3), (1, 3), (2, 3), (3, 3)],
    [(0, 0), (1, 1), (2, 2), (3, 3)],
    [(0, 3), (1, 2), (2, 1), (3, 0)],
];

/// A board with `symbols[i]` on square `squares[i]` and nothing else.
fn place(squares: &[(u32, u32)], symbols: &[u8]) -> Board {
    let mut text = [b'.'; 16];
    for (&(r, c), &s) in squares.iter().zip(symbols) {
        text[(r * 4 + c) as usize] = s;
    }
    Board::from_symbols(&text).unwrap()
}

#[test]
fn every_line_wins_for_each_player_with_and_without_t() {
    for line in LINES {
        for (p, other, won) in [(b'X', b'O', Status::XWon), (b'O', b'X', Status::OWon)] {
            assert_eq!(status(place(&line, &[p; 4])), won, "{line:?}");
            for k in 0..4 {
                let mut with_t = [p; 4];
                with_t[k] = b'T';
                assert_eq!(status(place(&line, &with_t)), won, "{line:?} T at {k}");
                let mut blocked = [p; 4];
                blocked[k] = other;
                assert_eq!(status(place(&line, &blocked)), Status::Open, "{line:?}");
                let mut gap = with_t;
                gap[(k + 1) % 4] = b'.';
                assert_eq!(status(place(&line, &gap)), Status::Open, "{line:?}");
            }
        }
    }
}

#[test]
fn near_lines_are_not_lines() {
    let mut near: Vec<Vec<(u32, u32)>> = Vec::new();
    // Four squares evenly spaced in reading order that wrap around a row end: what a pattern
    // over rows glued together, or a shifted mask, would take for a diagonal.
    for step in [3, 5] {
        for start in 0..16 - 3 * step {
            let squares: Vec<u32> = (0..4).map(|k| start + k * step).collect();
            near.push(squares.iter().map(|&s| (s / 4, s % 4)).collect());
        }
    }
    // Broken diagonals, which wrap around the board's sides.
    for shift in 1..4 {
        near.push((0..4).map(|i| (i, (i + shift) % 4)).collect());
        near.push((0..4).map(|i| (i, (3 - i + shift) % 4)).collect());
    }
    let mut checked = 0;
    for squares in near {
        let is_line = LINES.iter().any(|l| {
            let mut l = l.to_vec();
            let mut s = squares.clone();
            l.sort();
            s.sort();
            l == s
        });
        if is_line {
            continue;
        }
        for p in [b'X', b'O'] {
            assert_eq!(
                status(place(&squares, &[p; 4])),
                Status::Open,
                "{squares:?}"
            );
            assert_eq!(
                status(place(&squares, &[p, p, b'T', p])),
                Status::Open,
                "{squares:?}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 12, "six wrapped diagonals and six broken ones");
}

#[test]
fn hand_checked_boards() {
    let cases = [
        // The official sample.
        (["XXXT", "....", "OO..", "...."], Status::XWon),
        (["XOXT", "XXOO", "OXOX", "XXOO"], Status::Draw),
        (["XOX.", "OX..", "....", "...."], Status::Open),
        (["OOXX", "OXXX", "OX.T", "O..O"], Status::OWon),
        (["XXXO", "..O.", ".O..", "T..."], Status::OWon),
        (["OXXX", "XO..", "..O.", "...O"], Status::OWon),
        // A full board with a line is won, not drawn.
        (["XXXT", "OOXO", "XOOX", "OXOO"], Status::XWon),
        (["OXOX", "OXXO", "OOXX", "OXOX"], Status::OWon),
        // Full, no line, with and without a T.
        (["XOXO", "XOXO", "OXOX", "OXOX"], Status::Draw),
        (["TOXO", "XOXO", "OXOX", "OXOX"], Status::Draw),
        // Empty boards.
        (["....", "....", "....", "...."], Status::Open),
        (["....", "..T.", "....", "...."], Status::Open),
        // One empty square is enough to keep a game open, even a lost-for-sure one.
        (["XOXO", "XOXO", "OXOX", "OXO."], Status::Open),
        // The T is one square: it does not make two symbols a line.
        (["XXT.", "....", "....", "...."], Status::Open),
        // Never reached in play: both players have a line. Every evaluator says X won.
        (["XXXX", "OOOO", "....", "...."], Status::XWon),
        (["OOOO", "XXXX", "....", "...."], Status::XWon),
        (["XXXT", "...O", "...O", "...O"], Status::XWon),
        (["OOOT", "...X", "...X", "...X"], Status::XWon),
    ];
    for (rows, want) in cases {
        assert_eq!(status(board(rows)), want, "{rows:?}");
    }
}

/// A random board: each square empty, X or O, with a fill rate drawn per board so that empty,
/// crowded and full boards all occur, and a `T` on a random square 16 times in 17. Stone
/// counts are not those of a game: unreachable boards are part of the test.
fn random_board(rng: &mut ChaCha8Rng) -> Board {
    let fill = [0.2, 0.5, 0.8, 1.0][rng.random_range(0..4)];
    let mut b = Board::default();
    for i in 0..16 {
        if rng.random_bool(fill) {
            if rng.random_bool(0.5) {
                b.x |= 1 << i;
            } else {
                b.o |= 1 << i;
            }
        }
    }
    let t: u32 = rng.random_range(0..17);
    if t < 16 {
        let bit = 1u16 << t;
        b.x &= !bit;
        b.o &= !bit;
        b.t = bit;
    }
    b
}

#[test]
fn evaluators_agree_on_200_000_random_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(2013);
    let mut seen = [0u32; 4];
    for _ in 0..200_000 {
        seen[status(random_board(&mut rng)).index()] += 1;
    }
    // Every status must be well represented, or the agreement proves little.
    for (s, n) in Status::ALL.iter().zip(seen) {
        assert!(n > 5_000, "{s:?} only {n} times: {seen:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn evaluators_agree_on_any_masks(x in any::<u16>(), o in any::<u16>(), t in 0..17u32) {
        let t = if t < 16 { 1u16 << t } else { 0 };
        let b = Board { x: x & !t, o: o & !x & !t, t };
        status(b);
    }
}
