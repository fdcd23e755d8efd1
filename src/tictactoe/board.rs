//! The Tic-Tac-Toe-Tomek board: three bit masks over the squares.
//!
//! Square `r * cols + c` is bit `r * cols + c`. For the Code Jam board (4×4) that means bit 0 is
//! the top-left square, bit 3 the top-right one and bit 15 the bottom-right one, so the text of
//! a board reads its bits in order. The `T` square, when there is one, is a single bit of its
//! own mask: it is never occupied by a player, and it counts for both.

use crate::outcome::Player;
use std::fmt;

/// A board of at most 16 squares: who holds each square, and where the `T` is.
///
/// `x`, `o` and `t` are disjoint; `t` has at most one bit.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// X's stones.
    pub x: u16,
    /// O's stones.
    pub o: u16,
    /// The `T` square, if any.
    pub t: u16,
}

impl Board {
    /// The empty board of a setup: no stones, the `T` on `t` (0 for none).
    pub const fn empty(t: u16) -> Board {
        Board { x: 0, o: 0, t }
    }

    /// Squares held by a player or by the `T`.
    pub fn filled(self) -> u16 {
        self.x | self.o | self.t
    }

    /// Squares held by a player (the `T` is not a stone).
    pub fn stones(self) -> u16 {
        self.x | self.o
    }

    /// Number of stones placed so far: the ply.
    pub fn ply(self) -> u32 {
        self.stones().count_ones()
    }

    /// The squares of `p`.
    pub fn of(self, p: Player) -> u16 {
        match p {
            Player::X => self.x,
            Player::O => self.o,
        }
    }

    /// The squares that count for `p`: its stones and the `T`.
    pub fn counting_for(self, p: Player) -> u16 {
        self.of(p) | self.t
    }

    /// The player whose turn it is, if the stone counts are those of a game (X moves first).
    pub fn to_move(self) -> Player {
        if self.x.count_ones() > self.o.count_ones() {
            Player::O
        } else {
            Player::X
        }
    }

    /// The board after `p` puts a stone on `square` (which must be empty).
    pub fn with(self, p: Player, square: u32) -> Board {
        let bit = 1u16 << square;
        debug_assert_eq!(self.filled() & bit, 0, "square {square} is not empty");
        match p {
            Player::X => Board {
                x: self.x | bit,
                ..self
            },
            Player::O => Board {
                o: self.o | bit,
                ..self
            },
        }
    }

    /// The board packed into one `u64`: `x | o << 16 | t << 32`. Orders like [`Board`].
    pub fn pack(self) -> u64 {
        self.x as u64 | (self.o as u64) << 16 | (self.t as u64) << 32
    }

    /// Inverse of [`Board::pack`].
    pub fn unpack(v: u64) -> Board {
        Board {
            x: v as u16,
            o: (v >> 16) as u16,
            t: (v >> 32) as u16,
        }
    }

    /// The symbol on square `i`: `X`, `O`, `T` or `.`.
    pub fn symbol(self, i: u32) -> char {
        let bit = 1u16 << i;
        if self.x & bit != 0 {
            'X'
        } else if self.o & bit != 0 {
            'O'
        } else if self.t & bit != 0 {
            'T'
        } else {
            '.'
        }
    }

    /// Writes the board as `rows` lines of `cols` symbols, each line ending in `\n`.
    pub fn write_rows(self, rows: u32, cols: u32, out: &mut Vec<u8>) {
        for r in 0..rows {
            for c in 0..cols {
                out.push(self.symbol(r * cols + c) as u8);
            }
            out.push(b'\n');
        }
    }

    /// The 16 symbols of a 4×4 board in reading order, on one line.
    pub fn to_line(self) -> String {
        (0..16).map(|i| self.symbol(i)).collect()
    }

    /// Reads a board from its symbols in reading order (`X`, `O`, `T`, `.`), any number of
    /// squares up to 16. Returns the offending character and its position on failure.
    pub fn from_symbols(symbols: &[u8]) -> Result<Board, (usize, u8)> {
        let mut b = Board::default();
        if symbols.len() > 16 {
            return Err((16, symbols[16]));
        }
        for (i, &ch) in symbols.iter().enumerate() {
            let bit = 1u16 << i;
            match ch {
                b'X' => b.x |= bit,
                b'O' => b.o |= bit,
                b'T' if b.t == 0 => b.t = bit,
                b'.' => {}
                _ => return Err((i, ch)),
            }
        }
        Ok(b)
    }
}

impl fmt::Display for Board {
    /// The 4×4 Code Jam text: four lines of four symbols.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..4 {
            for c in 0..4 {
                write!(f, "{}", self.symbol(r * 4 + c))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Serializes a board as its 16 symbols in reading order (`serialize_with` in reports).
#[cfg(feature = "serde")]
pub fn serialize_line<S: serde::Serializer>(b: &Board, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&b.to_line())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_round_trip() {
        let b = Board::from_symbols(b"XOXTXXOOOXOXXXOO").unwrap();
        assert_eq!(b.to_line(), "XOXTXXOOOXOXXXOO");
        assert_eq!(b.t, 1 << 3);
        assert_eq!(b.ply(), 15);
        assert_eq!(Board::unpack(b.pack()), b);
        assert_eq!(b.to_string(), "XOXT\nXXOO\nOXOX\nXXOO\n");
    }

    #[test]
    fn second_t_is_rejected() {
        assert_eq!(Board::from_symbols(b"TT.............."), Err((1, b'T')));
        assert_eq!(Board::from_symbols(b"..x"), Err((2, b'x')));
    }
}
