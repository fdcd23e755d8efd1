//! A catalogue of wrong evaluators: the bugs real solutions of the Code Jam problem make.
//!
//! Test data is only as good as the wrong answers it catches. Each [`Mutant`] is an
//! [`Evaluator`] with one realistic mistake (the `T` counted for one player only, a line left
//! out of a loop, the draw decided before the wins, ...). The `killer` profile of
//! [`crate::tictactoe::sample`] searches for a small file on which every one of them fails at least once,
//! and `tomek validate` reports which of them a file catches.
//!
//! Every mutant here is wrong on at least one reachable board (the tests show it with the
//! killer set). Some bugs that look plausible are deliberately absent because play never
//! exposes them: checking O's lines before X's, or naming the winner by who moved last, give
//! the right answer on every reachable board, since at most one player ever has a line.
//! Writing `0 won` with a digit is a format fault, for the checker, not an evaluator bug.

use crate::outcome::Status;
use crate::tictactoe::board::Board;
use crate::tictactoe::eval::Evaluator;

/// The four rows, top to bottom.
const ROWS: [u16; 4] = [0x000F, 0x00F0, 0x0F00, 0xF000];
/// The four columns, left to right.
const COLUMNS: [u16; 4] = [0x1111, 0x2222, 0x4444, 0x8888];
/// Squares 0, 5, 10, 15.
const MAIN_DIAGONAL: u16 = 0x8421;
/// Squares 3, 6, 9, 12.
const ANTI_DIAGONAL: u16 = 0x1248;
/// The anti-diagonal with a flattened index off by one (`4·i + 4 − i`): squares 4, 7, 10, 13.
const SLIPPED_ANTI_DIAGONAL: u16 = 0x2490;
/// Every square.
const FULL: u16 = 0xFFFF;

/// One realistic bug, as an evaluator.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mutant {
    /// The `T` counts for nobody: a line through it never wins.
    TIgnored,
    /// The `T` counts for X only (as if it were an X).
    TOnlyX,
    /// The `T` counts for O only.
    TOnlyO,
    /// Only rows are checked.
    RowsOnly,
    /// Rows and diagonals, no columns.
    NoColumns,
    /// Rows and columns, no diagonals.
    NoDiagonals,
    /// The main diagonal (top-left to bottom-right) is left out.
    NoMainDiagonal,
    /// The anti-diagonal (top-right to bottom-left) is left out.
    NoAntiDiagonal,
    /// A row loop that stops one short: the bottom row is never checked.
    LastRowMissing,
    /// A column loop that stops one short: the right column is never checked.
    LastColumnMissing,
    /// The anti-diagonal indexed one square off: squares 4, 7, 10, 13 instead of 3, 6, 9, 12.
    AntiDiagonalSlip,
    /// A full board is a draw, checked before the wins.
    DrawFirst,
    /// A board with an empty square is "not completed", checked before the wins.
    OpenFirst,
    /// The `T` stands in for two symbols: two stones and the `T` make a line.
    TForTwo,
    /// Three in a line (stones or `T`) win.
    ThreeWins,
    /// The `T` square is taken for an empty one when deciding a draw, so no board with a `T`
    /// is ever a draw.
    TAsEmpty,
    /// A line wins when its four squares are alike (the `T` alike to anything), empty squares
    /// included; the first such line decides, `O` for O and anything else for X.
    EmptyLineWins,
}

impl Mutant {
    /// The whole catalogue, in a fixed order.
    pub const ALL: [Mutant; 17] = [
        Mutant::TIgnored,
        Mutant::TOnlyX,
        Mutant::TOnlyO,
        Mutant::RowsOnly,
        Mutant::NoColumns,
        Mutant::NoDiagonals,
        Mutant::NoMainDiagonal,
        Mutant::NoAntiDiagonal,
        Mutant::LastRowMissing,
        Mutant::LastColumnMissing,
        Mutant::AntiDiagonalSlip,
        Mutant::DrawFirst,
        Mutant::OpenFirst,
        Mutant::TForTwo,
        Mutant::ThreeWins,
        Mutant::TAsEmpty,
        Mutant::EmptyLineWins,
    ];

    /// A short name for reports.
    pub fn id(self) -> &'static str {
        match self {
            Mutant::TIgnored => "t-ignored",
            Mutant::TOnlyX => "t-only-x",
            Mutant::TOnlyO => "t-only-o",
            Mutant::RowsOnly => "rows-only",
            Mutant::NoColumns => "no-columns",
            Mutant::NoDiagonals => "no-diagonals",
            Mutant::NoMainDiagonal => "no-main-diagonal",
            Mutant::NoAntiDiagonal => "no-anti-diagonal",
            Mutant::LastRowMissing => "last-row-missing",
            Mutant::LastColumnMissing => "last-column-missing",
            Mutant::AntiDiagonalSlip => "anti-diagonal-slip",
            Mutant::DrawFirst => "draw-first",
            Mutant::OpenFirst => "open-first",
            Mutant::TForTwo => "t-for-two",
            Mutant::ThreeWins => "three-wins",
            Mutant::TAsEmpty => "t-as-empty",
            Mutant::EmptyLineWins => "empty-line-wins",
        }
    }

    /// The bug in words.
    pub fn description(self) -> &'static str {
        match self {
            Mutant::TIgnored => "the T counts for nobody",
            Mutant::TOnlyX => "the T counts for X only",
            Mutant::TOnlyO => "the T counts for O only",
            Mutant::RowsOnly => "only rows are checked",
            Mutant::NoColumns => "columns are not checked",
            Mutant::NoDiagonals => "diagonals are not checked",
            Mutant::NoMainDiagonal => "the main diagonal is not checked",
            Mutant::NoAntiDiagonal => "the anti-diagonal is not checked",
            Mutant::LastRowMissing => "the bottom row is not checked",
            Mutant::LastColumnMissing => "the right column is not checked",
            Mutant::AntiDiagonalSlip => "the anti-diagonal is read one square off",
            Mutant::DrawFirst => "a full board is a draw even when someone won",
            Mutant::OpenFirst => "an empty square means not completed even after a win",
            Mutant::TForTwo => "the T counts as two symbols",
            Mutant::ThreeWins => "three in a line win",
            Mutant::TAsEmpty => "the T counts as an empty square (never a draw with a T)",
            Mutant::EmptyLineWins => "four empty squares in a line count as a win for X",
        }
    }

    /// The catalogue as evaluators.
    pub fn evaluators() -> Vec<&'static dyn Evaluator> {
        Mutant::ALL
            .iter()
            .map(|m| m as &'static dyn Evaluator)
            .collect()
    }

    /// Whether this mutant answers `b` wrongly, given the right status.
    #[inline]
    pub fn fails(self, b: Board, right: Status) -> bool {
        self.status(b) != right
    }
}

/// Whether the squares `mine` contain one of `lines`.
#[inline]
fn any_line(lines: &[u16], mine: u16) -> bool {
    lines.iter().any(|&l| l & !mine == 0)
}

/// The status with the wins decided from the players' masks over a set of lines, then draw
/// or open from the filled squares, as a correct solution does it.
#[inline]
fn judge(lines: &[u16], x: u16, o: u16, filled: u16) -> Status {
    if any_line(lines, x) {
        Status::XWon
    } else if any_line(lines, o) {
        Status::OWon
    } else if filled == FULL {
        Status::Draw
    } else {
        Status::Open
    }
}

/// Every line, in the order rows, columns, main diagonal, anti-diagonal.
const ALL_LINES: [u16; 10] = [
    ROWS[0],
    ROWS[1],
    ROWS[2],
    ROWS[3],
    COLUMNS[0],
    COLUMNS[1],
    COLUMNS[2],
    COLUMNS[3],
    MAIN_DIAGONAL,
    ANTI_DIAGONAL,
];

/// Every line but the `k`-th of [`ALL_LINES`].
const fn without(k: usize) -> [u16; 9] {
    let mut out = [0; 9];
    let (mut i, mut j) = (0, 0);
    while i < ALL_LINES.len() {
        if i != k {
            out[j] = ALL_LINES[i];
            j += 1;
        }
        i += 1;
    }
    out
}

/// The lines a mutant that leaves lines out or misplaces one still checks.
fn lines_of(m: Mutant) -> &'static [u16] {
    // In ALL_LINES: rows 0-3, columns 4-7, the main diagonal 8, the anti-diagonal 9.
    const NO_MAIN: [u16; 9] = without(8);
    const NO_ANTI: [u16; 9] = without(9);
    const NO_LAST_ROW: [u16; 9] = without(3);
    const NO_LAST_COLUMN: [u16; 9] = without(7);
    const SLIP: [u16; 10] = {
        let mut lines = ALL_LINES;
        lines[9] = SLIPPED_ANTI_DIAGONAL;
        lines
    };
    const ROWS_DIAGONALS: [u16; 6] = [
        ROWS[0],
        ROWS[1],
        ROWS[2],
        ROWS[3],
        MAIN_DIAGONAL,
        ANTI_DIAGONAL,
    ];
    match m {
        Mutant::RowsOnly => &ROWS,
        Mutant::NoColumns => &ROWS_DIAGONALS,
        Mutant::NoDiagonals => &ALL_LINES[..8],
        Mutant::NoMainDiagonal => &NO_MAIN,
        Mutant::NoAntiDiagonal => &NO_ANTI,
        Mutant::LastRowMissing => &NO_LAST_ROW,
        Mutant::LastColumnMissing => &NO_LAST_COLUMN,
        Mutant::AntiDiagonalSlip => &SLIP,
        _ => &ALL_LINES,
    }
}

/// Whether `mine` stones plus the `T` on `t` fill a line when the `T` is worth `joker`
/// symbols and `need` symbols make a line.
fn counted_line(mine: u16, t: u16, joker: u32, need: u32) -> bool {
    ALL_LINES
        .iter()
        .any(|&l| (l & mine).count_ones() + joker * (l & t).count_ones() >= need)
}

impl Evaluator for Mutant {
    fn name(&self) -> &'static str {
        self.id()
    }

    fn status(&self, b: Board) -> Status {
        let filled = b.x | b.o | b.t;
        let (x, o) = (b.x | b.t, b.o | b.t);
        match *self {
            Mutant::TIgnored => judge(&ALL_LINES, b.x, b.o, filled),
            Mutant::TOnlyX => judge(&ALL_LINES, x, b.o, filled),
            Mutant::TOnlyO => judge(&ALL_LINES, b.x, o, filled),
            Mutant::RowsOnly
            | Mutant::NoColumns
            | Mutant::NoDiagonals
            | Mutant::NoMainDiagonal
            | Mutant::NoAntiDiagonal
            | Mutant::LastRowMissing
            | Mutant::LastColumnMissing
            | Mutant::AntiDiagonalSlip => judge(lines_of(*self), x, o, filled),
            Mutant::DrawFirst if filled == FULL => Status::Draw,
            Mutant::OpenFirst if filled != FULL => Status::Open,
            Mutant::DrawFirst | Mutant::OpenFirst => judge(&ALL_LINES, x, o, filled),
            Mutant::TForTwo | Mutant::ThreeWins => {
                let (joker, need) = if *self == Mutant::TForTwo {
                    (2, 4)
                } else {
                    (1, 3)
                };
                if counted_line(b.x, b.t, joker, need) {
                    Status::XWon
                } else if counted_line(b.o, b.t, joker, need) {
                    Status::OWon
                } else if filled == FULL {
                    Status::Draw
                } else {
                    Status::Open
                }
            }
            Mutant::TAsEmpty => judge(&ALL_LINES, x, o, b.x | b.o),
            Mutant::EmptyLineWins => {
                let empty = !filled;
                for &l in &ALL_LINES {
                    // Alike: every square of the line is the T or one same symbol.
                    let rest = l & !b.t;
                    if rest & b.o == rest {
                        return Status::OWon;
                    }
                    if rest & b.x == rest || rest & empty == rest {
                        return Status::XWon;
                    }
                }
                if filled == FULL {
                    Status::Draw
                } else {
                    Status::Open
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tictactoe::rules::Geometry;

    #[test]
    fn line_masks_match_the_geometry() {
        let mut mine = ALL_LINES.to_vec();
        mine.sort();
        let mut theirs = Geometry::tomek().lines.clone();
        theirs.sort();
        assert_eq!(mine, theirs);
    }

    #[test]
    fn names_are_distinct() {
        let mut ids: Vec<_> = Mutant::ALL.iter().map(|m| m.id()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), Mutant::ALL.len());
    }

    #[test]
    fn t_mutants_miss_a_win_through_the_t() {
        let b = Board::from_symbols(b"XXXTOO..........").unwrap();
        assert_eq!(
            crate::tictactoe::reach::check(Geometry::tomek(), b),
            Ok(Status::XWon)
        );
        assert!(Mutant::TIgnored.fails(b, Status::XWon));
        assert!(Mutant::TOnlyO.fails(b, Status::XWon));
        assert!(!Mutant::TOnlyX.fails(b, Status::XWon));
        assert!(Mutant::OpenFirst.fails(b, Status::XWon));
    }
}
