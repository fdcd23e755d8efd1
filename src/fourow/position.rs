//! A Four in a row position as two bit masks.
//!
//! Column `c` (0 to 6, left to right) owns bits `7c` to `7c + 6`; bit `7c + r` is the cell in
//! row `r` counted from the bottom (0 to 5). Bit `7c + 6` is a spare that is never set in a
//! player's chips: it stands between one column and the next, so that runs found by shifting a
//! mask can never wrap from the top of a column to the bottom of its neighbour, and so that
//! adding a column's bottom bit to its full mask never carries into the next column.
//!
//! A position is stored as `mask` (every chip) and `current` (the chips of the player to move).
//! Who is to move follows from the number of chips, so the pair fully describes the position,
//! and a move is two operations: hand `current` to the other side and raise one column of
//! `mask`. Everything here is `Copy`, pure and allocation-free, so that exhaustive searches can
//! make and drop millions of positions.

use crate::outcome::Player;

/// Number of slots (columns).
pub const WIDTH: u32 = 7;
/// Number of cells in a slot.
pub const HEIGHT: u32 = 6;
/// Number of cells on the board, which is also the longest possible game.
pub const CELLS: u32 = WIDTH * HEIGHT;
/// Bits per column: [`HEIGHT`] cells and the spare bit above them.
const STRIDE: u32 = HEIGHT + 1;

/// The bottom cell of every column.
pub const BOTTOM: u64 = column_bits(1);
/// Every cell of the board (no spare bits).
pub const BOARD: u64 = column_bits((1 << HEIGHT) - 1);

/// `pattern` (the low [`STRIDE`] bits of one column) repeated in every column.
const fn column_bits(pattern: u64) -> u64 {
    let mut m = 0;
    let mut c = 0;
    while c < WIDTH {
        m |= pattern << (c * STRIDE);
        c += 1;
    }
    m
}

/// The bit of the cell in column `col` (0–6) and row `row` (0–5, from the bottom).
pub const fn cell(col: u32, row: u32) -> u64 {
    1 << (col * STRIDE + row)
}

/// Every cell of column `col` (0–6).
pub const fn column(col: u32) -> u64 {
    ((1 << HEIGHT) - 1) << (col * STRIDE)
}

/// The four directions of a line, as the bit distance between neighbouring cells: up a column,
/// along a row, up-right and down-right diagonals. Their order is the order of the arrays
/// returned by [`Position::winning_runs`].
pub const DIRECTIONS: [u32; 4] = [1, STRIDE, STRIDE + 1, STRIDE - 1];

/// A position of Four in a row: which cells hold whose chips.
///
/// Equality, hashing and [`Position::key`] all agree: two positions are equal exactly when the
/// same cells hold the same players' chips.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Position {
    /// Chips of the player to move.
    current: u64,
    /// Every chip.
    mask: u64,
}

impl Position {
    /// The empty board, first player to move.
    pub const fn new() -> Position {
        Position {
            current: 0,
            mask: 0,
        }
    }

    /// The position a sequence of moves (columns 0–6) leads to, or `None` if some move is not
    /// playable. Wins are not checked: moving on after a four is allowed here, because deciding
    /// what that means is the judge's business.
    pub fn from_moves(moves: &[u8]) -> Option<Position> {
        let mut p = Position::new();
        for &m in moves {
            let col = u32::from(m);
            if !p.can_play(col) {
                return None;
            }
            p = p.play(col);
        }
        Some(p)
    }

    /// Rebuilds a position from its two masks (see [`Position::current`] and
    /// [`Position::mask`]); `None` unless they describe a reachable chip layout: chips stacked
    /// from the bottom of each column, no spare bits, `current` inside `mask`, and chip counts
    /// that fit the player to move.
    pub fn from_masks(current: u64, mask: u64) -> Option<Position> {
        let p = Position { current, mask };
        let stacked = (0..WIDTH).all(|c| {
            let col = (mask >> (c * STRIDE)) & ((1 << STRIDE) - 1);
            col & (col + 1) == 0
        });
        let ok = mask & !BOARD == 0
            && current & !mask == 0
            && stacked
            && p.chips(Player::X).count_ones() == p.chips(Player::O).count_ones() + p.moves() % 2;
        ok.then_some(p)
    }

    /// Chips of the player to move.
    pub const fn current(self) -> u64 {
        self.current
    }

    /// Chips of the player who moved last (none on the empty board).
    pub const fn opponent(self) -> u64 {
        self.current ^ self.mask
    }

    /// Every chip on the board.
    pub const fn mask(self) -> u64 {
        self.mask
    }

    /// Number of chips on the board, which is the number of moves played.
    pub const fn moves(self) -> u32 {
        self.mask.count_ones()
    }

    /// The player to move: the first player ([`Player::X`]) after an even number of moves.
    pub const fn to_move(self) -> Player {
        mover(self.moves())
    }

    /// The chips of one player; [`Player::X`] is the first player.
    pub const fn chips(self, p: Player) -> u64 {
        chips_of(p, self.current, self.mask)
    }

    /// Number of chips in column `col` (0 for a column outside the board).
    pub const fn height(self, col: u32) -> u32 {
        if col >= WIDTH {
            return 0;
        }
        ((self.mask >> (col * STRIDE)) & ((1 << STRIDE) - 1)).count_ones()
    }

    /// Whether all 42 cells are taken.
    pub const fn is_full(self) -> bool {
        self.mask == BOARD
    }

    /// Whether a chip can be dropped into column `col` (0–6): the column exists and its top
    /// cell is empty.
    pub const fn can_play(self, col: u32) -> bool {
        col < WIDTH && self.mask & cell(col, HEIGHT - 1) == 0
    }

    /// The position after the player to move drops a chip into column `col`, which must satisfy
    /// [`Position::can_play`] (checked in debug builds; see [`Position::try_play`]).
    ///
    /// Adding the column's bottom bit to the mask carries up through the chips already there
    /// and sets the first empty cell, so the new chip costs one addition.
    #[must_use]
    pub const fn play(self, col: u32) -> Position {
        debug_assert!(self.can_play(col));
        Position {
            current: self.current ^ self.mask,
            mask: self.mask | (self.mask + cell(col, 0)),
        }
    }

    /// [`Position::play`], or `None` when the column is full or does not exist.
    pub const fn try_play(self, col: u32) -> Option<Position> {
        if self.can_play(col) {
            Some(self.play(col))
        } else {
            None
        }
    }

    /// The positions one move away, with the column played, left to right.
    pub fn children(self) -> impl Iterator<Item = (u32, Position)> {
        (0..WIDTH).filter_map(move |c| self.try_play(c).map(|p| (c, p)))
    }

    /// Whether the player who moved last has four in a row: in a game that stopped at its
    /// first four, the game is won.
    pub const fn last_mover_won(self) -> bool {
        Position::is_win(self.opponent())
    }

    /// Whether `chips` (one player's chips) hold four in a row in any direction.
    // Shifting a mask right by d lines every chip up with its neighbour d bits further along a
    // direction; `m & m >> d` keeps chips whose neighbour is also set (pairs), and doing it again
    // with 2d keeps pairs followed by a pair: the first chip of four in a row.
    pub const fn is_win(chips: u64) -> bool {
        let mut i = 0;
        while i < DIRECTIONS.len() {
            let d = DIRECTIONS[i];
            let pairs = chips & (chips >> d);
            if pairs & (pairs >> (2 * d)) != 0 {
                return true;
            }
            i += 1;
        }
        false
    }

    /// For each direction of [`DIRECTIONS`], every chip of `chips` that lies in a run of four or
    /// more in that direction. Runs longer than four are covered by overlapping fours.
    pub const fn winning_runs(chips: u64) -> [u64; 4] {
        let mut runs = [0; 4];
        let mut i = 0;
        while i < DIRECTIONS.len() {
            let d = DIRECTIONS[i];
            let pairs = chips & (chips >> d);
            let starts = pairs & (pairs >> (2 * d));
            runs[i] = starts | starts << d | starts << (2 * d) | starts << (3 * d);
            i += 1;
        }
        runs
    }

    /// Every chip of `chips` that belongs to a run of four or more in any direction: the chips
    /// printed in capitals under a won game.
    pub const fn winning_cells(chips: u64) -> u64 {
        let [a, b, c, d] = Position::winning_runs(chips);
        a | b | c | d
    }

    /// A number unique to this position, for hash sets and tables: `current + mask + BOTTOM`.
    ///
    /// In each column, `mask + bottom` is the single bit just above the top chip, and adding
    /// `current` (which lies below that bit) sets the chips of the player to move. The column's
    /// height can be read back from its highest bit and the chips from the bits below it, and the
    /// player to move from the parity of the total, so no two positions share a key. The key
    /// fits in 49 bits.
    pub const fn key(self) -> u64 {
        self.current + self.mask + BOTTOM
    }

    /// Inverse of [`Position::key`]; `None` for a number that is not the key of a position.
    pub fn from_key(key: u64) -> Option<Position> {
        if key >> (WIDTH * STRIDE) != 0 {
            return None;
        }
        let mut current = 0;
        let mut mask = 0;
        for c in 0..WIDTH {
            let col = (key >> (c * STRIDE)) & ((1 << STRIDE) - 1);
            if col == 0 {
                return None;
            }
            let top = 1u64 << (63 - col.leading_zeros());
            current |= (col ^ top) << (c * STRIDE);
            mask |= (top - 1) << (c * STRIDE);
        }
        // `current` was read relative to the mover, so the counts must fit that reading.
        let p = Position::from_masks(current, mask)?;
        (p.key() == key).then_some(p)
    }

    /// The left-right reflection: column `c` becomes column `6 - c`. A position and its mirror
    /// have the same future up to reflection, so searches can keep one of the two.
    #[must_use]
    pub const fn mirror(self) -> Position {
        Position {
            current: mirror_bits(self.current),
            mask: mirror_bits(self.mask),
        }
    }

    /// The smaller key of the position and its mirror: one number for both.
    pub const fn symmetric_key(self) -> u64 {
        let a = self.key();
        let b = Position::mirror_key(a);
        if a < b { a } else { b }
    }

    /// The key of the mirror image, computed from the key alone: each column's seven bits of
    /// the key depend on that column only (its marker bit never carries into the next one),
    /// so reflecting the key is reflecting its column groups.
    pub const fn mirror_key(key: u64) -> u64 {
        mirror_bits(key)
    }

    /// [`Position::from_key`] without the checks, for searches that only ever decode keys they
    /// made themselves; a number that is not a key gives a meaningless position.
    // Each column of a key holds a marker bit just above its chips. Or-ing the key with itself
    // shifted down by 1, 2 and 4 (dropping the bits that cross into the column below) fills
    // every bit under the marker, and one more shift down leaves exactly the column's chips.
    #[inline]
    pub const fn from_key_unchecked(key: u64) -> Position {
        const SPARE: u64 = BOTTOM << HEIGHT;
        let mut s = key;
        s |= (s >> 1) & !SPARE;
        s |= (s >> 2) & !(SPARE | SPARE >> 1);
        s |= (s >> 4) & !(SPARE | SPARE >> 1 | SPARE >> 2 | SPARE >> 3);
        let mask = (s >> 1) & BOARD;
        Position {
            current: key - mask - BOTTOM,
            mask,
        }
    }
}

/// The player to move after `moves` moves: the first player ([`Player::X`]) after an even
/// number. Shared by every board size, since it depends on the count alone.
pub const fn mover(moves: u32) -> Player {
    if moves.is_multiple_of(2) {
        Player::X
    } else {
        Player::O
    }
}

/// The chips of player `p`, from the chips of the player to move (`current`) and every chip
/// (`mask`), on a board of any size.
pub const fn chips_of(p: Player, current: u64, mask: u64) -> u64 {
    match (p, mover(mask.count_ones())) {
        (Player::X, Player::X) | (Player::O, Player::O) => current,
        _ => current ^ mask,
    }
}

/// Reverses the order of the seven column groups of a mask.
const fn mirror_bits(m: u64) -> u64 {
    let mut out = 0;
    let mut c = 0;
    while c < WIDTH {
        let col = (m >> (c * STRIDE)) & ((1 << STRIDE) - 1);
        out |= col << ((WIDTH - 1 - c) * STRIDE);
        c += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(s: &str) -> Position {
        let cols: Vec<u8> = s.bytes().map(|b| b - b'1').collect();
        Position::from_moves(&cols).expect("playable")
    }

    #[test]
    fn layout_constants() {
        assert_eq!(BOTTOM.count_ones(), 7);
        assert_eq!(BOARD.count_ones(), 42);
        assert_eq!(
            BOARD & (BOTTOM << HEIGHT),
            0,
            "spare bits are outside the board"
        );
        assert_eq!(cell(6, 5), 1 << 47);
        assert_eq!(column(1), 0x3f << 7);
    }

    #[test]
    fn play_stacks_and_alternates() {
        let p = moves("4445");
        assert_eq!(p.moves(), 4);
        assert_eq!(p.height(3), 3);
        assert_eq!(p.height(4), 1);
        assert_eq!(p.to_move(), Player::X);
        assert_eq!(p.chips(Player::X), cell(3, 0) | cell(3, 2));
        assert_eq!(p.chips(Player::O), cell(3, 1) | cell(4, 0));
        assert_eq!(p.current(), p.chips(Player::X));
        assert_eq!(p.opponent(), p.chips(Player::O));
        let full = moves("111111");
        assert!(!full.can_play(0));
        assert!(full.try_play(0).is_none());
        assert!(!full.can_play(7));
        assert_eq!(Position::from_moves(&[0; 7]), None);
        assert_eq!(full.children().count(), 6);
    }

    #[test]
    fn wins_in_every_direction() {
        // Vertical, horizontal, and both diagonals, each by the first player.
        assert!(moves("1212121").last_mover_won());
        assert!(moves("1122334").last_mover_won());
        // Up-right: x on (1,0) (2,1) (3,2) (4,3).
        assert!(moves("12234334544").last_mover_won());
        // Down-right: the mirror of the above.
        assert!(moves("76654554344").last_mover_won());
        assert!(!moves("121212").last_mover_won());
        // Three in a row, then a gap: no win, and nothing wraps between columns.
        assert!(!Position::is_win(
            cell(0, 3) | cell(0, 4) | cell(0, 5) | cell(1, 0)
        ));
        assert!(!Position::is_win(
            cell(0, 0) | cell(1, 0) | cell(2, 0) | cell(3, 1)
        ));
        // Runs that touch the edges of the board still count.
        assert!(Position::is_win(
            cell(3, 2) | cell(4, 3) | cell(5, 4) | cell(6, 5)
        ));
        assert!(Position::is_win(
            cell(0, 3) | cell(1, 2) | cell(2, 1) | cell(3, 0)
        ));
    }

    #[test]
    fn winning_cells_cover_long_and_crossing_runs() {
        let row: u64 = (0..6).map(|c| cell(c, 0)).sum();
        assert_eq!(
            Position::winning_cells(row),
            row,
            "a run of six is wholly capitalised"
        );
        let three = cell(0, 0) | cell(1, 0) | cell(2, 0);
        assert_eq!(Position::winning_cells(three), 0);
        let cross = row | cell(2, 1) | cell(2, 2) | cell(2, 3) | cell(6, 3);
        let runs = Position::winning_runs(cross);
        assert_eq!(runs[0], column(2) & !(cell(2, 4) | cell(2, 5)));
        assert_eq!(runs[1], row);
        assert_eq!(Position::winning_cells(cross), cross & !cell(6, 3));
    }

    #[test]
    fn key_is_unique_and_invertible() {
        let mut seen = std::collections::HashMap::new();
        // Every position up to four moves, reached by every order of moves.
        let mut layer = vec![Position::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for p in layer {
                assert_eq!(Position::from_key(p.key()), Some(p));
                assert!(p.key() < 1 << 49);
                if let Some(old) = seen.insert(p.key(), p) {
                    assert_eq!(old, p, "two positions share a key");
                }
                next.extend(p.children().map(|(_, c)| c));
            }
            layer = next;
        }
        assert_eq!(Position::from_key(0), None);
        assert_eq!(Position::from_key(u64::MAX), None);
    }

    #[test]
    fn unchecked_decoding_and_key_mirroring_agree_with_the_checked_forms() {
        let mut layer = vec![Position::new()];
        for _ in 0..5 {
            let mut next = Vec::new();
            for p in layer {
                assert_eq!(Position::from_key_unchecked(p.key()), p);
                assert_eq!(Position::mirror_key(p.key()), p.mirror().key());
                next.extend(p.children().map(|(_, c)| c));
            }
            layer = next;
        }
        // Full and nearly full columns decode too.
        let p = moves("111111222223");
        assert_eq!(Position::from_key_unchecked(p.key()), p);
        let full = moves(&"1234567".repeat(6));
        assert!(full.is_full());
        assert_eq!(Position::from_key_unchecked(full.key()), full);
    }

    #[test]
    fn mirror_reflects_columns() {
        let p = moves("1123");
        let m = p.mirror();
        assert_eq!(m, moves("7765"));
        assert_eq!(m.mirror(), p);
        assert_eq!(p.symmetric_key(), m.symmetric_key());
        assert_eq!(m.to_move(), p.to_move());
    }

    #[test]
    fn from_masks_rejects_impossible_layouts() {
        let p = moves("12345");
        assert_eq!(Position::from_masks(p.current(), p.mask()), Some(p));
        assert_eq!(
            Position::from_masks(p.opponent(), p.mask()),
            None,
            "wrong side to move"
        );
        assert_eq!(Position::from_masks(0, cell(0, 1)), None, "floating chip");
        assert_eq!(Position::from_masks(0, cell(0, 6)), None, "spare bit");
        assert_eq!(Position::from_masks(cell(1, 0), cell(0, 0)), None);
    }
}
