//! A position on a board of any size whose bitboard fits in 64 bits, with the masks the search
//! needs: playable cells, the cells that would complete a four, and the moves that do not hand
//! the opponent an immediate win.
//!
//! The layout is that of [`crate::fourow::position`], with the stride (rows + 1) taken from the
//! shape: column `c` owns bits `c * stride` up, and the spare bit above each column keeps lines
//! found by shifting from wrapping into the next column.

use crate::fourow::judge::Verdict;
use crate::fourow::position;
use crate::outcome::Player;

/// The size of a board: columns and rows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    cols: u32,
    rows: u32,
    stride: u32,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every cell (no spare bits).
    cells: u64,
    /// The cells of the rows whose parity is the number of rows': the cells the player to
    /// move is left with when the other one answers every chip on top of it (see
    /// [`Board::follow_up_bound`]).
    first_rows: u64,
}

/// A board that does not fit: no cells, or more than 64 bits with a spare bit per column.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a board of {cols} columns and {rows} rows does not fit the search \
     (at least one cell, and columns × (rows + 1) at most 64)"
)]
pub struct ShapeError {
    /// Columns asked for.
    pub cols: u32,
    /// Rows asked for.
    pub rows: u32,
}

impl Shape {
    /// The standard board: 7 columns, 6 rows.
    pub const STANDARD: Shape = match Shape::new(7, 6) {
        Ok(s) => s,
        Err(_) => panic!("7×6 fits"),
    };

    /// The board of `cols` columns and `rows` rows, if its bitboard fits in 64 bits.
    pub const fn new(cols: u32, rows: u32) -> Result<Shape, ShapeError> {
        if cols == 0 || rows == 0 || cols > 64 || cols * (rows + 1) > 64 {
            return Err(ShapeError { cols, rows });
        }
        let stride = rows + 1;
        let mut bottom = 0u64;
        let mut c = 0;
        while c < cols {
            bottom |= 1 << (c * stride);
            c += 1;
        }
        // rows < 64 here, so the shift is in range.
        let column = (1u64 << rows) - 1;
        let mut first_column = 0u64;
        let mut r = rows % 2;
        while r < rows {
            first_column |= 1 << r;
            r += 2;
        }
        Ok(Shape {
            cols,
            rows,
            stride,
            bottom,
            cells: bottom * column,
            first_rows: bottom * first_column,
        })
    }

    /// The rows of the first player's parity (see [`Board::follow_up_bound`]).
    pub const fn first_rows(self) -> u64 {
        self.first_rows
    }

    /// Every cell.
    pub const fn cells(self) -> u64 {
        self.cells
    }

    /// Number of columns.
    pub const fn cols(self) -> u32 {
        self.cols
    }

    /// Number of rows.
    pub const fn rows(self) -> u32 {
        self.rows
    }

    /// Number of cells, which is the longest possible game.
    pub const fn area(self) -> u32 {
        self.cols * self.rows
    }

    /// Bits of a [`Board::key`] on this board: a column's key takes its `rows + 1` bits.
    pub const fn key_bits(self) -> u32 {
        self.cols * self.stride
    }

    /// The bit of the cell in column `col` and row `row` (from the bottom).
    pub const fn cell(self, col: u32, row: u32) -> u64 {
        1 << (col * self.stride + row)
    }

    /// Every cell of column `col`.
    pub const fn column(self, col: u32) -> u64 {
        ((1 << self.rows) - 1) << (col * self.stride)
    }

    /// `bits` with its columns in reverse order: the mirror image of a bitboard or of a
    /// [`Board::key`] (each column of a key keeps to its own `rows + 1` bits, so reversing the
    /// columns of the key is the key of the reversed position).
    #[inline]
    pub fn mirror(self, bits: u64) -> u64 {
        let column = (1u64 << self.stride) - 1;
        let last = (self.cols - 1) * self.stride;
        let mut m = 0;
        let mut c = 0;
        while c <= last {
            m |= ((bits >> c) & column) << (last - c);
            c += self.stride;
        }
        m
    }

    /// The empty cells of `chips`' board that would give `chips` four in a line, whether or
    /// not they can be played now. `occupied` is every chip on the board.
    // A cell completes a four when three chips of `chips` line up with it in one direction:
    // shifting the chips by one, two and three steps each way finds the three neighbours
    // needed on either side (and the split forms, two on one side and one on the other).
    #[inline]
    pub fn winning_cells(self, chips: u64, occupied: u64) -> u64 {
        let mut r = 0;
        if self.rows >= 4 {
            // Vertical: only the three chips below can complete a column.
            r |= (chips << 1) & (chips << 2) & (chips << 3);
        }
        if self.cols >= 4 {
            // cols ≥ 4 keeps stride ≤ 16, so three steps stay under 64 bits of shift.
            for d in [self.stride, self.stride + 1, self.stride - 1] {
                let up2 = (chips << d) & (chips << (2 * d));
                r |= up2 & (chips << (3 * d));
                r |= up2 & (chips >> d);
                let down2 = (chips >> d) & (chips >> (2 * d));
                r |= down2 & (chips >> (3 * d));
                r |= down2 & (chips << d);
            }
        }
        r & self.cells & !occupied
    }

    /// The score at most `limit` of a player who loses to `chips` and `cells`, when the
    /// other player is sure to fill `cells` and nothing stops its four: -1, or less when the
    /// four fits in low enough rows (see [`Shape::loss_by_row`]). `None` if no such four fits.
    #[inline]
    pub fn loss_within(self, chips: u64, cells: u64, limit: i32) -> Option<i32> {
        let row = if limit >= -1 {
            self.rows - 1
        } else {
            // The highest row whose fours hold the loser to `limit`.
            u32::try_from(self.rows as i32 + 1 + 2 * limit).ok()?
        };
        let rows = self.bottom * ((2u64 << row) - 1);
        self.has_four(chips | (cells & rows))
            .then(|| self.loss_by_row(row))
    }

    /// The highest score the player to move can have when the other player is sure to
    /// complete a four whose empty cells lie in rows `0..=row`: each of those cells is filled
    /// at the latest when every cell but it and the ones above it in its column is, so the
    /// winning chip falls onto at most `area - 1 - (rows - 1 - row)` chips.
    #[inline]
    pub fn loss_by_row(self, row: u32) -> i32 {
        -(((self.rows + 1 - row) / 2) as i32)
    }

    /// How many lines of four on the board pass through `cell` (one bit): the classic worth of
    /// a cell before any chip is played (13 for the two central cells of the centre column of
    /// 7×6, 3 for its corners).
    pub fn lines_through(self, cell: u64) -> u32 {
        let mut lines = 0;
        for d in [1, self.stride, self.stride + 1, self.stride - 1] {
            // Four cells `d` apart need three steps of `d` within the 64 bits.
            if 3 * d >= 64 {
                continue;
            }
            for k in 0..4 {
                // The line whose `k`th cell is `cell`; cells shifted out, or onto a spare
                // bit, leave it short of four cells of the board.
                let start = cell >> (k * d);
                let line = start | start << d | start << (2 * d) | start << (3 * d);
                if line & self.cells == line && line.count_ones() == 4 {
                    lines += 1;
                }
            }
        }
        lines
    }

    /// Whether `chips` hold four in a line.
    #[inline]
    pub fn has_four(self, chips: u64) -> bool {
        // Pairs one step apart, then pairs of pairs two steps apart: four in a row.
        let line = |d: u32| {
            let pairs = chips & (chips >> d);
            pairs & (pairs >> (2 * d))
        };
        let mut fours = 0;
        if self.rows >= 4 {
            fours |= line(1);
        }
        if self.cols >= 4 {
            fours |= line(self.stride) | line(self.stride + 1) | line(self.stride - 1);
        }
        fours != 0
    }
}

/// A position: the chips of the player to move and every chip, on a [`Shape`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    current: u64,
    mask: u64,
}

impl Board {
    /// The empty board of `shape`.
    pub const fn new(shape: Shape) -> Board {
        Board {
            shape,
            current: 0,
            mask: 0,
        }
    }

    /// The standard 7×6 position the judge's [`crate::fourow::Position`] describes.
    pub fn from_standard(p: crate::fourow::Position) -> Board {
        Board {
            shape: Shape::STANDARD,
            current: p.current(),
            mask: p.mask(),
        }
    }

    /// The same position with `shape`, which must be its own: a shape the compiler knows as
    /// a constant lets it fold the shape's fields into the code of the methods it inlines.
    #[inline(always)]
    pub const fn reshaped(self, shape: Shape) -> Board {
        Board {
            shape,
            current: self.current,
            mask: self.mask,
        }
    }

    /// The board's shape.
    pub const fn shape(self) -> Shape {
        self.shape
    }

    /// Chips of the player to move.
    pub const fn current(self) -> u64 {
        self.current
    }

    /// Every chip.
    pub const fn mask(self) -> u64 {
        self.mask
    }

    /// Number of chips, which is the number of moves played.
    pub const fn moves(self) -> u32 {
        self.mask.count_ones()
    }

    /// The player to move: the first player after an even number of moves.
    pub const fn to_move(self) -> Player {
        position::mover(self.moves())
    }

    /// The chips of one player; [`Player::X`] is the first player.
    pub const fn chips(self, p: Player) -> u64 {
        position::chips_of(p, self.current, self.mask)
    }

    /// A number unique to the position (on its shape): `current + mask + bottom`, as
    /// [`crate::fourow::Position::key`].
    #[inline]
    pub const fn key(self) -> u64 {
        self.current + self.mask + self.shape.bottom
    }

    /// Whether column `col` exists and has room.
    pub const fn can_play(self, col: u32) -> bool {
        col < self.shape.cols && self.mask & self.shape.cell(col, self.shape.rows - 1) == 0
    }

    /// The position after the player to move drops a chip into column `col`, which must be
    /// playable ([`Board::can_play`]).
    #[must_use]
    #[inline]
    pub const fn play(self, col: u32) -> Board {
        self.play_cell((self.mask + (1 << (col * self.shape.stride))) & self.shape.column(col))
    }

    /// The position after the player to move takes `cell`, one bit of [`Board::playable`].
    #[must_use]
    #[inline]
    pub const fn play_cell(self, cell: u64) -> Board {
        Board {
            shape: self.shape,
            current: self.current ^ self.mask,
            mask: self.mask | cell,
        }
    }

    /// The lowest empty cell of every column that has one.
    #[inline]
    pub const fn playable(self) -> u64 {
        (self.mask + self.shape.bottom) & self.shape.cells
    }

    /// Empty cells that would complete a four for the player to move.
    #[inline]
    pub fn own_threats(self) -> u64 {
        self.shape.winning_cells(self.current, self.mask)
    }

    /// Empty cells that would complete a four for the player who moved last.
    #[inline]
    pub fn opponent_threats(self) -> u64 {
        self.shape
            .winning_cells(self.current ^ self.mask, self.mask)
    }

    /// Whether the player to move wins with its next chip.
    #[inline]
    pub fn can_win_now(self) -> bool {
        self.own_threats() & self.playable() != 0
    }

    /// Whether dropping a chip into `col` (playable) makes four for the player to move.
    pub fn wins_with(self, col: u32) -> bool {
        self.own_threats() & self.playable() & self.shape.column(col) != 0
    }

    /// The playable cells after which the opponent cannot win at once: the only cell that
    /// blocks an immediate threat if there is one, none if there are two, and never the cell
    /// just under an opponent's threat. For a position where the player to move cannot win
    /// with its next chip.
    #[inline]
    pub fn safe_moves(self) -> u64 {
        self.safe_moves_against(self.opponent_threats())
    }

    /// [`Board::safe_moves`] when the opponent's winning cells ([`Board::opponent_threats`])
    /// are `theirs`.
    #[inline]
    pub fn safe_moves_against(self, theirs: u64) -> u64 {
        let mut playable = self.playable();
        let forced = playable & theirs;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            playable = forced;
        }
        playable & !(theirs >> 1)
    }

    /// An upper bound on the score of the player to move that needs no search, if one at most
    /// `limit` follows from the other player's follow-up (claimeven): that player answers
    /// every chip with one on top of it. In a column with an even number of empty cells the
    /// player to move then gets the cells of the rows of `first_rows` and the other player the
    /// rest; in a column with an odd number it is the other way round, except that the top
    /// cell has no partner. Taking such a top cell leaves the other player a free move, which
    /// it spends on the lowest cell of another odd column, so columns of an even number stay
    /// paired to the end. So:
    ///
    /// - with an even number of empty cells (an even number of odd columns), the player to
    ///   move gets at most its rows of the even columns and any cell of the odd ones: if no
    ///   four fits there, it scores at most 0, and at most −1 (or less, see
    ///   [`Shape::loss_by_row`]) when a four fits in the other player's chips and its rows of
    ///   the even columns, which it fills in the end;
    /// - with an odd number, if a four fits in the other player's chips and its rows of one
    ///   odd column (a threat the player to move has to play under in the end: zugzwang), the
    ///   other player spends its free moves elsewhere and fills that column's rows for sure;
    ///   if the player to move cannot make four in its rows of the even columns, the other
    ///   odd columns, and that column's cells below the top, it loses.
    ///
    /// `None` when no bound at most `limit` follows.
    #[inline(always)]
    pub fn follow_up_bound(self, limit: i32) -> Option<i32> {
        let s = self.shape;
        let empty = s.cells & !self.mask;
        let theirs = self.current ^ self.mask;
        // The lowest empty cells of the columns with an odd number of empty cells. Adding a
        // column's lowest empty cell to its run of empty cells (which goes up to the top) carries
        // into the spare bit above: the sum differs from the run in the run and that bit.
        let odd_low = self.playable() & !s.first_rows;
        let odd = (empty ^ (empty + odd_low)) & s.cells;
        let paired = empty & !odd;
        if empty.count_ones().is_multiple_of(2) {
            let ours = self.current | (paired & s.first_rows) | odd;
            let theirs_cells = paired & !s.first_rows;
            if limit >= 0 {
                if s.has_four(ours) {
                    return None;
                }
                return Some(s.loss_within(theirs, theirs_cells, -1).unwrap_or(0));
            }
            let loss = s.loss_within(theirs, theirs_cells, limit)?;
            return (!s.has_four(ours)).then_some(loss);
        }
        // A four that fits in no odd column's rows of the other player's together fits in none
        // of them alone.
        s.loss_within(theirs, odd & s.first_rows, limit)?;
        let mut rest = odd_low;
        while rest != 0 {
            let low = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let carried = empty + low;
            let column = (empty ^ carried) & s.cells;
            let Some(loss) = s.loss_within(theirs, column & s.first_rows, limit) else {
                continue;
            };
            // The spare bit the carry reached, moved down onto the column's top cell.
            let top = (carried & !empty & !s.cells) >> 1;
            let ours = (paired & s.first_rows) | (odd & !column) | (column & !s.first_rows & !top);
            if !s.has_four(self.current | ours) {
                return Some(loss);
            }
        }
        None
    }

    /// Whether [`Board::follow_up_bound`] at `limit` may give a bound for any of the positions
    /// after the moves of `safe`: false when a test of the cells every child shares rules them
    /// all out at once (most nodes, for the price of one look for a four instead of one
    /// bound a child).
    #[inline(always)]
    pub fn children_may_bound(self, safe: u64, limit: i32) -> bool {
        let s = self.shape;
        let empty = s.cells & !self.mask;
        let ours = self.current | safe;
        if empty.count_ones().is_multiple_of(2) {
            // The children have an odd number of empty cells: our four must fit in our chips,
            // the move, and our rows of the odd columns.
            return s.has_four(ours | (empty & s.first_rows));
        }
        if limit < 0 {
            // A loss: our four must fit in our chips, the move, and our rows of the even
            // columns (the mover's in the child).
            return s.has_four(ours | (empty & !s.first_rows));
        }
        // The other player, to move in every child, gets at least the first player's rows of
        // each column, but for the lowest cell of a column of an even number of empty cells
        // (the move may fall there, which makes the column odd): if a four fits there, it
        // fits in every child's cells of that player.
        let even_low = self.playable() & s.first_rows;
        !s.has_four((self.current ^ self.mask) | (empty & s.first_rows & !even_low))
    }

    /// Whether the player who moved last has four in a line.
    pub fn last_mover_won(self) -> bool {
        self.shape.has_four(self.current ^ self.mask)
    }

    /// Whether every cell is taken.
    pub const fn is_full(self) -> bool {
        self.mask == self.shape.cells
    }

    /// Where the game stands: won by the last mover, full, or open (never invalid).
    pub fn verdict(self) -> Verdict {
        if self.last_mover_won() {
            Verdict::Won(self.to_move().other())
        } else if self.is_full() {
            Verdict::NoWinner
        } else {
            Verdict::NotOver
        }
    }
}

/// Why a string of moves is not a game on a board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// A character that is not a digit.
    #[error("move {at} (`{ch}`) is not a column digit")]
    NotADigit {
        /// The move's place in the string, from 1.
        at: usize,
        /// The character.
        ch: char,
    },
    /// A digit that names no column of the board.
    #[error("move {at} (`{ch}`) names no column of a board with {cols} columns")]
    NoSuchColumn {
        /// The move's place in the string, from 1.
        at: usize,
        /// The character.
        ch: char,
        /// Columns of the board.
        cols: u32,
    },
    /// A chip dropped into a full column.
    #[error("move {at} (`{ch}`) drops a chip into a full column")]
    FullColumn {
        /// The move's place in the string, from 1.
        at: usize,
        /// The character.
        ch: char,
    },
    /// A move after a four.
    #[error("move {at} (`{ch}`) comes after the game was won")]
    AfterWin {
        /// The move's place in the string, from 1.
        at: usize,
        /// The character.
        ch: char,
    },
}

impl MoveError {
    /// The offending move's place in the string, from 1.
    pub fn at(self) -> usize {
        match self {
            MoveError::NotADigit { at, .. }
            | MoveError::NoSuchColumn { at, .. }
            | MoveError::FullColumn { at, .. }
            | MoveError::AfterWin { at, .. } => at,
        }
    }
}

/// The position after `moves`, a string of 1-based column digits (the FOUROW notation), on
/// `shape`; the first illegal move is named. The game must stop at its first four.
pub fn parse_moves(moves: &str, shape: Shape) -> Result<Board, MoveError> {
    let mut b = Board::new(shape);
    let mut won = false;
    for (i, ch) in moves.chars().enumerate() {
        let at = i + 1;
        let digit = ch.to_digit(10).ok_or(MoveError::NotADigit { at, ch })?;
        if won {
            return Err(MoveError::AfterWin { at, ch });
        }
        let cols = shape.cols;
        if digit == 0 || digit > cols {
            return Err(MoveError::NoSuchColumn { at, ch, cols });
        }
        if !b.can_play(digit - 1) {
            return Err(MoveError::FullColumn { at, ch });
        }
        b = b.play(digit - 1);
        won = b.last_mover_won();
    }
    Ok(b)
}

/// A game of `stones` random moves (uniform over the playable columns) in which nobody has
/// made four, as 1-based column digits: the kind of position the solver benchmarks hold. A
/// game that makes four is thrown away and replayed, so a board with too few cells for
/// `stones` chips without a four never returns; `stones` must be at most the board's area.
pub fn random_open_game(shape: Shape, stones: u32, rng: &mut impl rand::Rng) -> String {
    use rand::RngExt;
    assert!(
        stones <= shape.area(),
        "{stones} stones do not fit the board"
    );
    'replay: loop {
        let mut b = Board::new(shape);
        let mut moves = String::new();
        for _ in 0..stones {
            let open: Vec<u32> = (0..shape.cols).filter(|&c| b.can_play(c)).collect();
            let col = open[rng.random_range(0..open.len())];
            b = b.play(col);
            if b.last_mover_won() {
                continue 'replay;
            }
            moves.extend(char::from_digit(col + 1, 36));
        }
        return moves;
    }
}

/// Why a line of a score file is malformed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The moves are not a game on the board.
    #[error("`{moves}`: {error}")]
    Moves {
        /// The moves as written.
        moves: String,
        /// The first illegal move.
        error: MoveError,
    },
    /// The word after the moves is not an integer.
    #[error("`{0}` is not a score (an integer)")]
    Score(String),
    /// More than two words, or words apart by something other than one space.
    #[error("expected `MOVES` or `MOVES SCORE`, found `{0}`")]
    Shape(String),
}

/// One line of the solver benchmarks' format, `MOVES` or `MOVES SCORE` (the line ending
/// removed): the position and the expected score, if given.
pub fn parse_line(line: &str, shape: Shape) -> Result<(Board, Option<i32>), LineError> {
    let mut words = line.split(' ');
    let moves = words.next().unwrap_or("");
    let expected = match words.next() {
        None => None,
        Some(w) => Some(w.parse().map_err(|_| LineError::Score(w.to_string()))?),
    };
    if words.next().is_some() {
        return Err(LineError::Shape(line.to_string()));
    }
    let board = parse_moves(moves, shape).map_err(|error| LineError::Moves {
        moves: moves.to_string(),
        error,
    })?;
    Ok((board, expected))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourow::Position;

    /// The lines of four through each cell of 7×6, bottom row first: the table of cell
    /// values published with many Connect Four programs (69 lines in all, 4 cells each).
    const STANDARD_LINES: [[u32; 7]; 6] = [
        [3, 4, 5, 7, 5, 4, 3],
        [4, 6, 8, 10, 8, 6, 4],
        [5, 8, 11, 13, 11, 8, 5],
        [5, 8, 11, 13, 11, 8, 5],
        [4, 6, 8, 10, 8, 6, 4],
        [3, 4, 5, 7, 5, 4, 3],
    ];

    #[test]
    fn lines_through_each_cell() {
        let s = Shape::STANDARD;
        for (row, values) in STANDARD_LINES.iter().enumerate() {
            for (col, &v) in values.iter().enumerate() {
                assert_eq!(
                    s.lines_through(s.cell(col as u32, row as u32)),
                    v,
                    "{col},{row}"
                );
            }
        }
        // Boards too small for a line in some direction, and the four cells of 4×1.
        let small = Shape::new(4, 1).unwrap();
        assert!((0..4).all(|c| small.lines_through(small.cell(c, 0)) == 1));
        let tall = Shape::new(1, 5).unwrap();
        let counts: Vec<u32> = (0..5)
            .map(|r| tall.lines_through(tall.cell(0, r)))
            .collect();
        assert_eq!(counts, [1, 2, 2, 2, 1]);
        let square = Shape::new(3, 3).unwrap();
        assert_eq!(square.lines_through(square.cell(1, 1)), 0);
    }

    #[test]
    fn standard_shape_matches_the_judges_layout() {
        let s = Shape::STANDARD;
        assert_eq!(s.cells, crate::fourow::position::BOARD);
        assert_eq!(s.bottom, crate::fourow::position::BOTTOM);
        let b = parse_moves("4453", s).unwrap();
        let p = Position::from_moves(&[3, 3, 4, 2]).unwrap();
        assert_eq!(Board::from_standard(p), b);
        assert_eq!(b.key(), p.key());
    }

    #[test]
    fn threats_and_safe_moves() {
        let s = Shape::STANDARD;
        // x on the bottom of columns 2, 3 and 4, and to move: both ends win.
        let b = parse_moves("223344", s).unwrap();
        assert!(b.can_win_now());
        assert!(b.wins_with(0));
        assert!(b.wins_with(4));
        assert!(!b.wins_with(5));
        // x on columns 1, 2 and 3, o to move: the one open end must be blocked.
        let b = parse_moves("17273", s).unwrap();
        assert_eq!(b.safe_moves(), s.cell(3, 0));
        let b = parse_moves("27374", s).unwrap();
        assert_eq!(b.safe_moves(), 0, "two open ends cannot both be blocked");
    }

    #[test]
    fn illegal_moves_are_named() {
        let s = Shape::STANDARD;
        assert_eq!(
            parse_moves("12a", s),
            Err(MoveError::NotADigit { at: 3, ch: 'a' })
        );
        assert_eq!(
            parse_moves("18", s),
            Err(MoveError::NoSuchColumn {
                at: 2,
                ch: '8',
                cols: 7
            })
        );
        assert_eq!(
            parse_moves("0", s),
            Err(MoveError::NoSuchColumn {
                at: 1,
                ch: '0',
                cols: 7
            })
        );
        assert_eq!(
            parse_moves("1111111", s),
            Err(MoveError::FullColumn { at: 7, ch: '1' })
        );
        assert_eq!(
            parse_moves("12121213", s),
            Err(MoveError::AfterWin { at: 8, ch: '3' })
        );
        assert_eq!(
            Shape::new(8, 8).unwrap_err(),
            ShapeError { cols: 8, rows: 8 }
        );
        assert!(Shape::new(1, 63).is_ok());
    }
}
