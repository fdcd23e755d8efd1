//! The rules of the game as pure functions over [`Board`]s: which squares form lines, who has
//! one, and what a move does.
//!
//! A [`Geometry`] describes a board of `rows × cols ≤ 16` squares where `line` symbols in a row,
//! column or diagonal win, with or without a joker (`T`) square. The Code Jam game is
//! [`Geometry::tomek`]; classic tic-tac-toe is `Geometry::new(3, 3, 3, false)`.

use crate::outcome::{Player, Status};
use crate::tictactoe::board::Board;
use std::sync::OnceLock;

/// Board shape, winning lines, and a "has a line" table over every 16-bit mask.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub cols: u32,
    /// Symbols in a row that win.
    pub line: u32,
    /// Whether setups with a `T` square exist.
    pub joker: bool,
    /// Every winning line as a mask of its squares.
    pub lines: Vec<u16>,
    /// The lines through each square, square by square: those through square `s` are
    /// `through[through_start[s]..through_start[s + 1]]`. A move wins when one of them fills.
    through: Vec<u16>,
    through_start: [u8; 17],
    /// `wins[m]` is true when mask `m` contains a whole line.
    wins: Vec<bool>,
    /// `core[m]`: the squares common to every line contained in `m` (all ones when none is).
    core: Vec<u16>,
    /// `completing[m]`: the squares outside `m` that would complete a line if added to `m`.
    completing: Vec<u16>,
}

/// Why a geometry cannot be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GeometryError {
    #[error("a board needs 1 to 16 squares, {rows}×{cols} has {}", u64::from(*rows) * u64::from(*cols))]
    /// Too many or too few squares.
    Size {
        /// Rows asked for.
        rows: u32,
        /// Columns asked for.
        cols: u32,
    },
    #[error("a line of {line} does not fit a {rows}×{cols} board")]
    /// The line is longer than the board allows.
    Line {
        /// Rows asked for.
        rows: u32,
        /// Columns asked for.
        cols: u32,
        /// Symbols in a winning line.
        line: u32,
    },
}

impl Geometry {
    /// The four directions of a line: along a row, down a column, down-right and down-left.
    pub const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

    /// A board of `rows × cols` squares where `line` in a row wins.
    pub fn new(rows: u32, cols: u32, line: u32, joker: bool) -> Result<Geometry, GeometryError> {
        Geometry::with_directions(rows, cols, line, joker, &Geometry::DIRECTIONS)
    }

    /// [`Geometry::new`] with lines in the given directions only (of
    /// [`Geometry::DIRECTIONS`]): the board of a solver that forgets some of them.
    pub fn with_directions(
        rows: u32,
        cols: u32,
        line: u32,
        joker: bool,
        directions: &[(i32, i32)],
    ) -> Result<Geometry, GeometryError> {
        // In 64 bits, so that no size given in a description wraps round to a small board.
        if rows == 0 || cols == 0 || u64::from(rows) * u64::from(cols) > 16 {
            return Err(GeometryError::Size { rows, cols });
        }
        if line == 0 || line > rows.max(cols) {
            return Err(GeometryError::Line { rows, cols, line });
        }
        let at = |r: i32, c: i32| -> Option<u32> {
            (r >= 0 && c >= 0 && (r as u32) < rows && (c as u32) < cols)
                .then(|| r as u32 * cols + c as u32)
        };
        let mut lines = Vec::new();
        for &(dr, dc) in directions {
            for r in 0..rows as i32 {
                for c in 0..cols as i32 {
                    let squares: Option<Vec<u32>> = (0..line as i32)
                        .map(|k| at(r + k * dr, c + k * dc))
                        .collect();
                    if let Some(sq) = squares {
                        lines.push(sq.iter().fold(0u16, |m, &s| m | 1 << s));
                    }
                }
            }
        }
        Ok(Geometry::with_lines(rows, cols, line, joker, lines))
    }

    /// A board whose lines are exactly `lines` (masks of squares): the board of a solver that
    /// looks at only some lines. `rows × cols` must be a valid size (at most 16 squares).
    pub fn with_lines(rows: u32, cols: u32, line: u32, joker: bool, lines: Vec<u16>) -> Geometry {
        let cells = rows * cols;
        let mut through = Vec::new();
        let mut through_start = [0u8; 17];
        for s in 0..cells as usize {
            through.extend(lines.iter().copied().filter(|l| l >> s & 1 == 1));
            through_start[s + 1] = through.len() as u8;
        }
        for s in cells as usize..16 {
            through_start[s + 1] = through.len() as u8;
        }
        // Each line marks only the masks it concerns: the supersets of the line (which hold
        // it), and for each of its squares the supersets of the rest that lack that square
        // (which it completes): a line costs 2^(16 - length) steps, not 2^16.
        let mut wins = vec![false; 1 << 16];
        let mut core = vec![u16::MAX; 1 << 16];
        let mut completing = vec![0u16; 1 << 16];
        for &l in &lines {
            for_each_superset(l, !l, |m| {
                wins[m] = true;
                core[m] &= l;
            });
            let mut squares = l;
            while squares != 0 {
                let s = squares & squares.wrapping_neg();
                squares &= squares - 1;
                for_each_superset(l & !s, !l, |m| completing[m] |= s);
            }
        }
        Geometry {
            rows,
            cols,
            line,
            joker,
            lines,
            through,
            through_start,
            wins,
            core,
            completing,
        }
    }

    /// The Code Jam board: 4×4, four in a line, an optional `T`. Built once, shared.
    pub fn tomek() -> &'static Geometry {
        static TOMEK: OnceLock<Geometry> = OnceLock::new();
        TOMEK.get_or_init(|| Geometry::new(4, 4, 4, true).expect("4×4 is a valid geometry"))
    }

    /// Number of squares.
    pub fn cells(&self) -> u32 {
        self.rows * self.cols
    }

    /// Mask of every square.
    pub fn full(&self) -> u16 {
        (((1u32 << self.cells()) - 1) & 0xFFFF) as u16
    }

    /// The starting setups: no `T`, then (with a joker) a `T` on each square in order.
    pub fn setups(&self) -> Vec<u16> {
        let mut v = vec![0];
        if self.joker {
            v.extend((0..self.cells()).map(|s| 1u16 << s));
        }
        v
    }

    /// The lines through `square`.
    pub fn lines_through(&self, square: u32) -> &[u16] {
        let s = square as usize;
        &self.through[self.through_start[s] as usize..self.through_start[s + 1] as usize]
    }

    /// Whether the squares in `mask` contain a whole line.
    #[inline]
    pub fn has_line(&self, mask: u16) -> bool {
        self.wins[mask as usize]
    }

    /// The squares shared by every line inside `mask` (all ones when there is none).
    #[inline]
    pub fn line_core(&self, mask: u16) -> u16 {
        self.core[mask as usize]
    }

    /// The squares outside `mask` that would complete a line if added to it.
    #[inline]
    pub fn completing(&self, mask: u16) -> u16 {
        self.completing[mask as usize]
    }

    /// Whether `p` has a line on `b` (its stones plus the `T`).
    #[inline]
    pub fn wins(&self, b: Board, p: Player) -> bool {
        self.has_line(b.counting_for(p))
    }

    /// The status of a board. A board where both players have a line (never reached in play)
    /// reads as X won, like every evaluator.
    #[inline]
    pub fn status(&self, b: Board) -> Status {
        if self.wins(b, Player::X) {
            Status::XWon
        } else if self.wins(b, Player::O) {
            Status::OWon
        } else if b.filled() == self.full() {
            Status::Draw
        } else {
            Status::Open
        }
    }

    /// Plays `p` on the empty `square` of an open board and says what the move did, from the
    /// move alone: it wins when it completes a line through `square`, draws when it fills the
    /// board, and leaves the game open otherwise.
    #[inline]
    pub fn play(&self, b: Board, p: Player, square: u32) -> (Board, Status) {
        let next = b.with(p, square);
        let mine = next.counting_for(p);
        let (from, to) = (
            self.through_start[square as usize],
            self.through_start[square as usize + 1],
        );
        let won = self.through[from as usize..to as usize]
            .iter()
            .any(|&l| l & !mine == 0);
        let status = if won {
            Status::won_by(p)
        } else if next.filled() == self.full() {
            Status::Draw
        } else {
            Status::Open
        };
        (next, status)
    }
}

/// Calls `f` on `base | sub` for every subset `sub` of `free` (as an index into a table over
/// masks). `sub = (sub - free) & free` steps through the subsets of `free` in increasing
/// order.
pub fn for_each_superset(base: u16, free: u16, mut f: impl FnMut(usize)) {
    let mut sub = 0u16;
    loop {
        f((base | sub) as usize);
        if sub == free {
            break;
        }
        sub = sub.wrapping_sub(free) & free;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_counts() {
        assert_eq!(Geometry::tomek().lines.len(), 10);
        assert_eq!(Geometry::new(3, 3, 3, false).unwrap().lines.len(), 8);
        // 4×4 with three in a row: 8 per direction for rows and columns, 4 per diagonal.
        assert_eq!(Geometry::new(4, 4, 3, false).unwrap().lines.len(), 24);
        assert!(Geometry::new(5, 5, 4, false).is_err());
        assert!(Geometry::new(3, 3, 4, false).is_err());
    }

    #[test]
    fn t_counts_for_both() {
        let g = Geometry::tomek();
        let b = Board::from_symbols(b"XXXT............").unwrap();
        assert_eq!(g.status(b), Status::XWon);
        let b = Board::from_symbols(b"OOOT............").unwrap();
        assert_eq!(g.status(b), Status::OWon);
        let b = Board::from_symbols(b"XXOT............").unwrap();
        assert_eq!(g.status(b), Status::Open);
    }

    #[test]
    fn play_sees_the_winning_move() {
        let g = Geometry::tomek();
        let b = Board::from_symbols(b"XXX.OOO.........").unwrap();
        assert_eq!(g.play(b, Player::X, 3).1, Status::XWon);
        assert_eq!(g.play(b, Player::X, 8).1, Status::Open);
    }
}
