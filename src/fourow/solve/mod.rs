//! Perfect play in Four in a row: the exact score of a position, by search.
//!
//! - [`board`]: a bitboard position on any board of at most 64 bits (columns × (rows + 1)),
//!   with the threat masks the search orders and prunes by, and the parser of move strings;
//! - [`table`]: the transposition table, bounds on scores and best moves by position key;
//! - [`search`]: negamax with alpha-beta pruning, driven by null-window probes that bisect the
//!   range of possible scores, and the analyses built on it (every column's score, a principal
//!   variation).
//!
//! Scores follow the convention of the Connect Four solving community, so that published test
//! sets can be checked as they are: see [`Score`].

pub mod board;
pub mod search;
pub mod table;

pub use board::{
    Board, LineError, MoveError, Shape, ShapeError, parse_line, parse_moves, random_open_game,
};
pub use search::{Analysis, Solver, analyze, analyze_known};

use std::fmt;

/// Who wins a position with perfect play, seen from the player to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Outcome {
    /// The player to move wins.
    Win,
    /// Nobody wins.
    Draw,
    /// The player to move loses.
    Loss,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        })
    }
}

/// The value of a position with perfect play, from the side to move: 0 for a draw; for a win,
/// `(cells + 1 − m) div 2` where `m` is the number of chips on the board just before the
/// winning chip (so an earlier win scores more); for a loss, minus the winner's score.
///
/// The score alone fixes the outcome and, given the number of chips already played, the
/// length of the game: the winner's chips alternate with the loser's, so only one `m` of the
/// two that share a score has the winner's parity.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Score(pub i32);

impl Score {
    /// A draw.
    pub const DRAW: Score = Score(0);

    /// The score of a win by the chip played onto `before` chips, on a board of `cells`.
    pub const fn win_at(cells: u32, before: u32) -> Score {
        Score(((cells + 1 - before) / 2) as i32)
    }

    /// The same game seen from the other player.
    #[must_use]
    pub const fn flip(self) -> Score {
        Score(-self.0)
    }

    /// Win, draw or loss for the side to move.
    pub const fn outcome(self) -> Outcome {
        match self.0 {
            0 => Outcome::Draw,
            s if s > 0 => Outcome::Win,
            _ => Outcome::Loss,
        }
    }

    /// Plies left in the game under perfect play, from a position of `moves` chips on a board
    /// of `cells`: to the winning chip for a win or a loss, to the full board for a draw.
    pub const fn distance(self, moves: u32, cells: u32) -> u32 {
        let s = self.0.unsigned_abs();
        if s == 0 {
            return cells - moves;
        }
        // The winner's chip falls onto `before` chips, with the winner's parity: the player
        // to move plays onto `moves`, `moves + 2`, ... chips; the other one onto `moves + 1`.
        // The two counts that share a score are `cells - 2s` and one more.
        let winner_parity = (moves + (self.0 < 0) as u32) % 2;
        let mut before = cells.saturating_sub(2 * s);
        if before % 2 != winner_parity {
            before += 1;
        }
        (before + 1).saturating_sub(moves)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_follow_from_scores() {
        // Win with the very next chip on an empty-ish 7×6 board after 6 chips: (43 - 6) / 2.
        let s = Score::win_at(42, 6);
        assert_eq!(s, Score(18));
        assert_eq!(s.distance(6, 42), 1);
        // The same win seen from the position of 5 chips before: the winner's chip falls
        // onto 6, two plies later.
        assert_eq!(s.flip().distance(5, 42), 2);
        assert_eq!(
            Score(1).distance(0, 42),
            41,
            "the first player wins with its last chip"
        );
        assert_eq!(Score::DRAW.distance(40, 42), 2);
        assert_eq!(Score(-1).outcome(), Outcome::Loss);
    }
}
