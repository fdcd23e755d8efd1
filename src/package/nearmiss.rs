//! Invalid inputs for the validators, each a minimal near miss of a valid file.
//!
//! - Tomek boards: for each kind of unreachable board ([`BoardKind`]), a reachable board that
//!   one changed square turns into a board of that kind ([`board_misses`]): one symbol away
//!   from a valid file, which is as close as an invalid board can be.
//! - Format near misses of both problems: the sample with one rule of the format broken
//!   (a missing blank line, a fifth column, a lower-case letter, CRLF, a case count one off,
//!   ...).

use super::format::Invalid;
use crate::outcome::Player;
use crate::tictactoe::board::Board;
use crate::tictactoe::codejam::write_input;
use crate::tictactoe::reach::{Unreachable, check};
use crate::tictactoe::rules::Geometry;

/// A kind of unreachable Tomek board, as the validator must tell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// Two `T`s.
    TwoTs,
    /// X two stones ahead of O.
    XTwoAhead,
    /// O ahead of X.
    OAhead,
    /// Both players have a line.
    BothLines,
    /// X has a line but O moved last.
    XLineOMovedLast,
    /// O has a line but X moved last.
    OLineXMovedLast,
    /// X has lines that share none of X's stones (no last move made them all).
    XLinesNoCommonStone,
    /// The same for O.
    OLinesNoCommonStone,
}

impl BoardKind {
    /// Every kind.
    pub const ALL: [BoardKind; 8] = [
        BoardKind::TwoTs,
        BoardKind::XTwoAhead,
        BoardKind::OAhead,
        BoardKind::BothLines,
        BoardKind::XLineOMovedLast,
        BoardKind::OLineXMovedLast,
        BoardKind::XLinesNoCommonStone,
        BoardKind::OLinesNoCommonStone,
    ];

    /// The file name.
    pub fn id(self) -> &'static str {
        match self {
            BoardKind::TwoTs => "board-two-ts",
            BoardKind::XTwoAhead => "board-x-two-ahead",
            BoardKind::OAhead => "board-o-ahead",
            BoardKind::BothLines => "board-both-lines",
            BoardKind::XLineOMovedLast => "board-x-line-o-moved-last",
            BoardKind::OLineXMovedLast => "board-o-line-x-moved-last",
            BoardKind::XLinesNoCommonStone => "board-x-lines-no-common-stone",
            BoardKind::OLinesNoCommonStone => "board-o-lines-no-common-stone",
        }
    }

    /// The rule broken, in words.
    pub fn rule(self) -> &'static str {
        match self {
            BoardKind::TwoTs => "more than one T",
            BoardKind::XTwoAhead => "X has two stones more than O",
            BoardKind::OAhead => "O has more stones than X",
            BoardKind::BothLines => "both players have a line",
            BoardKind::XLineOMovedLast => "X has a line but O moved last",
            BoardKind::OLineXMovedLast => "O has a line but X moved last",
            BoardKind::XLinesNoCommonStone => {
                "X has lines but no stone of X lies on all of them (no last move made them)"
            }
            BoardKind::OLinesNoCommonStone => {
                "O has lines but no stone of O lies on all of them (no last move made them)"
            }
        }
    }

    /// A quick necessary condition for `b` to be of this kind (stone counts and full lines
    /// only), so that the search checks few boards in full.
    fn may_be(self, b: Board) -> bool {
        let (x, o) = (b.x.count_ones(), b.o.count_ones());
        let lines = |mask: u16| LINES.iter().filter(|&&l| l & mask == l).count();
        let (xl, ol) = (lines(b.x | b.t), lines(b.o | b.t));
        match self {
            BoardKind::TwoTs => b.t.count_ones() == 2,
            BoardKind::XTwoAhead => x > o + 1,
            BoardKind::OAhead => o > x,
            BoardKind::BothLines => xl > 0 && ol > 0,
            BoardKind::XLineOMovedLast => xl > 0 && x == o,
            BoardKind::OLineXMovedLast => ol > 0 && x == o + 1,
            BoardKind::XLinesNoCommonStone => xl >= 2,
            BoardKind::OLinesNoCommonStone => ol >= 2,
        }
    }

    /// The kind of an unreachable board, if it is one of these.
    pub fn of(b: Board) -> Option<BoardKind> {
        let kind = match check(Geometry::tomek(), b) {
            Ok(_) | Err(Unreachable::Overlap) => return None,
            Err(Unreachable::SeveralT) => {
                // Only a second T, with the stones still fitting every other rule.
                let fixed = Board {
                    t: b.t & b.t.wrapping_neg(),
                    ..b
                };
                let lone = Board {
                    t: b.t & !fixed.t,
                    ..b
                };
                if check(Geometry::tomek(), fixed).is_err()
                    || check(Geometry::tomek(), lone).is_err()
                {
                    return None;
                }
                BoardKind::TwoTs
            }
            Err(Unreachable::StoneCounts { x, o }) if x > o => BoardKind::XTwoAhead,
            Err(Unreachable::StoneCounts { .. }) => BoardKind::OAhead,
            Err(Unreachable::BothWin) => BoardKind::BothLines,
            Err(Unreachable::WinnerNotLastMover { winner: Player::X }) => {
                BoardKind::XLineOMovedLast
            }
            Err(Unreachable::WinnerNotLastMover { winner: Player::O }) => {
                BoardKind::OLineXMovedLast
            }
            Err(Unreachable::NoWinningMove { winner: Player::X }) => BoardKind::XLinesNoCommonStone,
            Err(Unreachable::NoWinningMove { winner: Player::O }) => BoardKind::OLinesNoCommonStone,
        };
        Some(kind)
    }
}

/// `b` with square `i` set to `symbol` (`.`, `X`, `O` or `T`).
fn set(b: Board, i: u32, symbol: u8) -> Board {
    let bit = 1u16 << i;
    let mut out = Board {
        x: b.x & !bit,
        o: b.o & !bit,
        t: b.t & !bit,
    };
    match symbol {
        b'X' => out.x |= bit,
        b'O' => out.o |= bit,
        b'T' => out.t |= bit,
        _ => {}
    }
    out
}

/// The ten lines of the 4×4 board as square masks.
const LINES: [u16; 10] = [
    0x000F, 0x00F0, 0x0F00, 0xF000, 0x1111, 0x2222, 0x4444, 0x8888, 0x8421, 0x1248,
];

/// One near miss: the reachable board, the square changed, the symbol put there and the
/// unreachable board made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardMiss {
    /// Its kind.
    pub kind: BoardKind,
    /// The reachable board it comes from.
    pub from: Board,
    /// The square changed (0 to 15, row by row).
    pub square: u32,
    /// The unreachable board.
    pub board: Board,
}

/// For each kind, in [`BoardKind::ALL`] order, a reachable board that one changed square makes
/// a board of that kind: the first met by a depth-first walk over the games of each setup in
/// turn (no T, then the T on square 0, 1, ...), moves tried square by square, each board's
/// changes square by square and symbol by symbol (`.`, `X`, `O`, `T`).
pub fn board_misses() -> Vec<BoardMiss> {
    let g = Geometry::tomek();
    let mut found: Vec<Option<BoardMiss>> = vec![None; BoardKind::ALL.len()];
    for t in g.setups() {
        // A second T needs a first one; every other kind can come from any setup.
        let wanted = |k: usize, found: &[Option<BoardMiss>]| {
            found[k].is_none() && (t != 0 || BoardKind::ALL[k] != BoardKind::TwoTs)
        };
        if !(0..found.len()).any(|k| wanted(k, &found)) {
            continue;
        }
        let mut stack = vec![Board::empty(t)];
        while let Some(from) = stack.pop() {
            look_around(from, &mut found);
            if !(0..found.len()).any(|k| wanted(k, &found)) {
                break;
            }
            if check(g, from).is_ok_and(|s| s == crate::outcome::Status::Open) {
                let mover = from.to_move();
                // Pushed from the last square down, so the lowest square is walked first.
                for square in (0..16).rev() {
                    if from.filled() & (1 << square) == 0 {
                        stack.push(from.with(mover, square));
                    }
                }
            }
        }
    }
    found.into_iter().flatten().collect()
}

/// Records the near misses of `from` whose kind is still missing.
fn look_around(from: Board, found: &mut [Option<BoardMiss>]) {
    for square in 0..16 {
        for symbol in [b'.', b'X', b'O', b'T'] {
            let board = set(from, square, symbol);
            if !(0..found.len()).any(|k| found[k].is_none() && BoardKind::ALL[k].may_be(board)) {
                continue;
            }
            let Some(kind) = BoardKind::of(board) else {
                continue;
            };
            let k = BoardKind::ALL.iter().position(|&x| x == kind).unwrap_or(0);
            if found[k].is_none() {
                found[k] = Some(BoardMiss {
                    kind,
                    from,
                    square,
                    board,
                });
            }
        }
    }
}

/// A board as four rows.
fn rows(b: Board) -> String {
    let mut v = Vec::new();
    b.write_rows(4, 4, &mut v);
    String::from_utf8_lossy(&v).into_owned()
}

/// The Tomek invalid inputs: each board near miss as a file of one case, then the format near
/// misses of `sample` (a valid file of several cases).
pub fn tomek_invalid(sample: &[u8]) -> Vec<Invalid> {
    let mut out = Vec::new();
    let misses = board_misses();
    for m in misses {
        let mut input = Vec::new();
        write_input(&mut input, &[m.board]).expect("writing to memory");
        out.push(Invalid {
            name: m.kind.id().to_string(),
            input,
            why: format!(
                "{}. The reachable board\n{}with square {} (row {}, column {}) changed to `{}`.",
                m.kind.rule(),
                rows(m.from),
                m.square,
                m.square / 4 + 1,
                m.square % 4 + 1,
                m.board.symbol(m.square)
            ),
        });
    }
    let text = String::from_utf8_lossy(sample).into_owned();
    let (count, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let n: u64 = count.parse().unwrap_or(1);
    let mut add = |name: &str, input: String, why: &str| {
        out.push(Invalid {
            name: name.to_string(),
            input: input.into_bytes(),
            why: format!("The sample with {why}."),
        })
    };
    add(
        "format-missing-blank-line",
        format!("{count}\n{}", rest.replacen("\n\n", "\n", 1)),
        "the empty line after the first case left out",
    );
    let first_row_end = rest.find('\n').unwrap_or(0);
    add(
        "format-fifth-column",
        format!(
            "{count}\n{}.{}",
            &rest[..first_row_end],
            &rest[first_row_end..]
        ),
        "a fifth symbol `.` on the first row",
    );
    let first_x = rest.find('X').unwrap_or(0);
    add(
        "format-lower-case",
        format!("{count}\n{}x{}", &rest[..first_x], &rest[first_x + 1..]),
        "its first `X` written `x`",
    );
    add(
        "format-crlf",
        text.replace('\n', "\r\n"),
        "CRLF line endings instead of LF",
    );
    add(
        "format-count-one-more",
        format!("{}\n{rest}", n + 1),
        "a case count one too high",
    );
    add(
        "format-count-one-less",
        format!("{}\n{rest}", n - 1),
        "a case count one too low",
    );
    add(
        "format-count-leading-zero",
        format!("0{count}\n{rest}"),
        "a leading zero on the case count",
    );
    add(
        "format-no-last-blank-line",
        text[..text.len() - 1].to_string(),
        "the empty line after the last case left out",
    );
    add(
        "format-text-after-last-case",
        format!("{text}\n"),
        "one more empty line after the last case",
    );
    out
}

/// The Four in a row invalid inputs: the format near misses of `sample` (a valid file of
/// several games, the first with moves) and of the biggest file the bounds allow.
pub fn fourow_invalid(sample: &[u8]) -> Vec<Invalid> {
    let text = String::from_utf8_lossy(sample).into_owned();
    let (count, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let n: usize = count.parse().unwrap_or(1);
    let first_move = rest.find(": ").map_or(0, |i| i + 2);
    let first_end = rest.find('\n').unwrap_or(rest.len());
    let mut out = Vec::new();
    let mut add = |name: &str, input: String, why: &str| {
        out.push(Invalid {
            name: name.to_string(),
            input: input.into_bytes(),
            why: why.to_string(),
        })
    };
    let line = |k: usize| format!("Game #{k}: 4\n");
    add(
        "format-count-one-more",
        format!("{}\n{rest}", n + 1),
        "The sample with a game count one too high.",
    );
    add(
        "format-count-one-less",
        format!("{}\n{rest}", n - 1),
        "The sample with a game count one too low.",
    );
    add(
        "format-count-zero",
        "0\n".to_string(),
        "No games: the count must be at least 1.",
    );
    add(
        "format-count-100",
        format!("100\n{}", (1..=100).map(line).collect::<String>()),
        "100 games of one move each: the count must be below 100.",
    );
    add(
        "format-count-leading-zero",
        format!("0{count}\n{rest}"),
        "The sample with a leading zero on the game count.",
    );
    add(
        "format-crlf",
        text.replace('\n', "\r\n"),
        "The sample with CRLF line endings instead of LF.",
    );
    add(
        "format-no-last-newline",
        text[..text.len() - 1].to_string(),
        "The sample without the newline that ends its last line.",
    );
    add(
        "format-text-after-last-game",
        format!("{text}\n"),
        "The sample with an empty line after the last game.",
    );
    add(
        "format-move-zero",
        format!(
            "{count}\n{}0{}",
            &rest[..first_move],
            &rest[first_move + 1..]
        ),
        "The sample with its first move written 0 (moves are 1 to 7).",
    );
    add(
        "format-move-eight",
        format!(
            "{count}\n{}8{}",
            &rest[..first_move],
            &rest[first_move + 1..]
        ),
        "The sample with its first move written 8 (moves are 1 to 7).",
    );
    add(
        "format-43-moves",
        format!("1\nGame #1: {}\n", "1234567".repeat(6) + "1"),
        "A game of 43 moves (at most 42).",
    );
    add(
        "format-game-number",
        format!("{count}\n{}", rest.replacen("Game #1:", "Game #2:", 1)),
        "The sample with its first game numbered 2.",
    );
    add(
        "format-no-space",
        format!("{count}\n{}", rest.replacen(": ", ":", 1)),
        "The sample without the space between `Game #1:` and the moves.",
    );
    add(
        "format-two-spaces",
        format!("{count}\n{}", rest.replacen(": ", ":  ", 1)),
        "The sample with two spaces between `Game #1:` and the moves.",
    );
    add(
        "format-lower-case",
        format!("{count}\n{}", rest.replacen("Game", "game", 1)),
        "The sample with `game` for `Game` on the first game.",
    );
    add(
        "format-trailing-space",
        format!("{count}\n{} {}", &rest[..first_end], &rest[first_end..]),
        "The sample with a space after the first game's moves.",
    );
    out
}

/// One output for the checker: right (to accept) or a near miss of the right one (to reject).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputCase {
    /// A short name, used as the file name.
    pub name: String,
    /// The input.
    pub input: Vec<u8>,
    /// The right answer.
    pub answer: Vec<u8>,
    /// The output to judge.
    pub output: Vec<u8>,
    /// Whether the checker must accept it.
    pub accepted: bool,
    /// What it is, in words.
    pub why: String,
}

/// Outputs made from a sample's right answer (`answer`, of `input`): the answer itself, then
/// its near misses. Tomek's answers are compared word by word with their case, so spaces may
/// change; Four in a row's byte for byte. `statuses` are the words a line may end with, each
/// tried in place of the first line's.
fn output_cases(
    input: &[u8],
    answer: &[u8],
    statuses: &[&str],
    spaces_count: bool,
) -> Vec<OutputCase> {
    let text = String::from_utf8_lossy(answer).into_owned();
    let mut out = Vec::new();
    let mut add = |name: &str, output: String, accepted: bool, why: &str| {
        out.push(OutputCase {
            name: name.to_string(),
            input: input.to_vec(),
            answer: answer.to_vec(),
            output: output.into_bytes(),
            accepted,
            why: why.to_string(),
        })
    };
    add("right", text.clone(), true, "The right answer.");
    let first = text.lines().next().unwrap_or_default();
    let own = statuses.iter().find(|s| first.ends_with(*s)).copied();
    if let Some(own) = own {
        let head = &first[..first.len() - own.len()];
        for (k, other) in statuses.iter().filter(|s| **s != own).enumerate() {
            add(
                &format!("wrong-status-{}", k + 1),
                text.replacen(first, &format!("{head}{other}"), 1),
                false,
                &format!("The first answer `{own}` replaced by `{other}`."),
            );
        }
    }
    add(
        "lower-case",
        text.replacen(first, &first.to_lowercase(), 1),
        false,
        "The first line in lower case.",
    );
    add(
        "upper-case",
        text.replacen(first, &first.to_uppercase(), 1),
        false,
        "The first line in upper case.",
    );
    let lines: Vec<&str> = text.lines().collect();
    add(
        "truncated-line",
        lines[..lines.len() - 1]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect(),
        false,
        "The last line missing.",
    );
    let last = lines[lines.len() - 1];
    add(
        "truncated-word",
        format!(
            "{}{}\n",
            lines[..lines.len() - 1]
                .iter()
                .map(|l| format!("{l}\n"))
                .collect::<String>(),
            &last[..last.rfind(' ').unwrap_or(0)]
        ),
        false,
        "The last line cut before its last word.",
    );
    add(
        "extra-line",
        format!("{text}{first}\n"),
        false,
        "The first line again after the last.",
    );
    add(
        "junk-bytes",
        format!("{text}\u{0}\u{7f}~"),
        false,
        "Junk bytes after the answer.",
    );
    add("empty", String::new(), false, "No output at all.");
    add(
        "double-space",
        text.replacen(' ', "  ", 1),
        !spaces_count,
        "Two spaces for the first one.",
    );
    add(
        "trailing-space",
        text.replacen('\n', " \n", 1),
        !spaces_count,
        "A space at the end of the first line.",
    );
    add(
        "blank-line-between",
        text.replacen('\n', "\n\n", 1),
        !spaces_count,
        "An empty line after the first line.",
    );
    out
}

/// The Tomek outputs: of the official sample.
pub fn tomek_outputs(input: &[u8], answer: &[u8]) -> Vec<OutputCase> {
    output_cases(
        input,
        answer,
        &["X won", "O won", "Draw", "Game has not completed"],
        false,
    )
}

/// The Four in a row outputs: of the statement's sample, plus a dropped trailing space of the
/// grid (its rows keep them).
pub fn fourow_outputs(input: &[u8], answer: &[u8]) -> Vec<OutputCase> {
    let mut out = output_cases(
        input,
        answer,
        &[
            "is invalid.",
            "is not over, yet.",
            "is over. There is no winner.",
            "is over. The first player won.",
            "is over. The second player won.",
        ],
        true,
    );
    let text = String::from_utf8_lossy(answer).into_owned();
    if let Some(i) = text.find(" \n") {
        out.push(OutputCase {
            name: "trailing-space-dropped".to_string(),
            input: input.to_vec(),
            answer: answer.to_vec(),
            output: format!("{}{}", &text[..i], &text[i + 1..]).into_bytes(),
            accepted: false,
            why: "The first trailing space of the grid dropped.".to_string(),
        });
    }
    out
}
