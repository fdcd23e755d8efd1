//! Reachability decided from the board alone: whether a board can arise in play, and if not,
//! why.
//!
//! A board with no line arises from any order of its moves, as long as the stone counts fit X
//! moving first. A won board arises exactly when the winner moved last and one of the winner's
//! stones can be taken back to leave a board with no line: that stone then was the winning
//! move. Such a stone lies on every line of the winner, so the test is one table look-up
//! ([`Geometry::line_core`]). The enumeration finds the same set by playing; a test holds the
//! two to each other over every filling of every setup.

use crate::outcome::{Player, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::rules::Geometry;
use std::fmt;

/// Why a board cannot arise in play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unreachable {
    /// Two symbols on one square (only possible for boards built from masks).
    Overlap,
    /// More than one `T`, or a `T` where the geometry has none.
    SeveralT,
    /// X moves first and the players alternate, so X has as many stones as O or one more.
    StoneCounts {
        /// X's stones.
        x: u32,
        /// O's stones.
        o: u32,
    },
    /// The game stops at the first line, so the loser can never complete one too.
    BothWin,
    /// The winner's line was made by the last move, so the winner must have moved last.
    WinnerNotLastMover {
        /// The player with the line.
        winner: Player,
    },
    /// Every stone of the winner is off some line, so the game was already over before the
    /// winner's last move, whichever it was.
    NoWinningMove {
        /// The player with the line.
        winner: Player,
    },
}

impl fmt::Display for Unreachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unreachable::Overlap => write!(f, "two symbols share a square"),
            Unreachable::SeveralT => write!(f, "more than one T"),
            Unreachable::StoneCounts { x, o } => write!(
                f,
                "stone counts do not fit the turn order: {x} X and {o} O (X moves first, so X \
                 has as many stones as O or one more)"
            ),
            Unreachable::BothWin => write!(f, "both players have a line; play stops at the first"),
            Unreachable::WinnerNotLastMover { winner } => write!(
                f,
                "{} has a line but {} moved last: the line would have ended the game earlier",
                winner.symbol(),
                winner.other().symbol()
            ),
            Unreachable::NoWinningMove { winner } => write!(
                f,
                "no {} stone lies on every {} line, so no last move can have completed them \
                 all: the game was over before",
                winner.symbol(),
                winner.symbol()
            ),
        }
    }
}

/// The status of a board that can arise in play, or why it cannot.
#[inline]
pub fn check(g: &Geometry, b: Board) -> Result<Status, Unreachable> {
    check_with(g, b, Checks::ALL)
}

/// Which of the rules of play [`check_with`] holds a board to. Leaving one out gives the
/// reachability test of a solver that forgot it: the problem descriptions' catalogue of wrong
/// solutions is made of such tests.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Checks {
    /// X has as many stones as O or one more.
    pub counts: bool,
    /// Not both players have a line.
    pub both: bool,
    /// The player with a line moved last.
    pub winner_last: bool,
    /// Some stone of the winner lies on all its lines (no move after the win).
    pub winning_move: bool,
    /// The joker counts for the second player as for the first. Off, O's lines are read
    /// without it: the bug of a solver that adds the `T` to X's squares only.
    pub joker_both: bool,
}

impl Checks {
    /// Every rule: reachability in play.
    pub const ALL: Checks = Checks {
        counts: true,
        both: true,
        winner_last: true,
        winning_move: true,
        joker_both: true,
    };

    /// The squares that count for `p`'s lines: its stones and the joker, unless the joker is
    /// read as the first player's only.
    #[inline]
    pub fn counting_for(self, b: Board, p: Player) -> u16 {
        if self.joker_both || p == Player::X {
            b.counting_for(p)
        } else {
            b.of(p)
        }
    }
}

/// [`check`] holding the board only to the rules in `checks`. A board where both players have
/// a line and `checks.both` is off reads as X won, as the evaluators read it.
#[inline]
pub fn check_with(g: &Geometry, b: Board, checks: Checks) -> Result<Status, Unreachable> {
    if b.x & b.o != 0 || (b.x | b.o) & b.t != 0 || (b.filled() & !g.full()) != 0 {
        return Err(Unreachable::Overlap);
    }
    if b.t.count_ones() > 1 || (b.t != 0 && !g.joker) {
        return Err(Unreachable::SeveralT);
    }
    let (x, o) = (b.x.count_ones(), b.o.count_ones());
    if checks.counts && x != o && x != o + 1 {
        return Err(Unreachable::StoneCounts { x, o });
    }
    let (x_line, o_line) = (
        g.wins(b, Player::X),
        g.has_line(checks.counting_for(b, Player::O)),
    );
    let winner = match (x_line, o_line) {
        (true, true) if checks.both => return Err(Unreachable::BothWin),
        (true, _) => Player::X,
        (false, true) => Player::O,
        (false, false) => {
            return Ok(if b.filled() == g.full() {
                Status::Draw
            } else {
                Status::Open
            });
        }
    };
    let last_mover = if x > o { Player::X } else { Player::O };
    if checks.winner_last && winner != last_mover {
        return Err(Unreachable::WinnerNotLastMover { winner });
    }
    if checks.winning_move && g.line_core(checks.counting_for(b, winner)) & b.of(winner) == 0 {
        return Err(Unreachable::NoWinningMove { winner });
    }
    Ok(Status::won_by(winner))
}

/// Whether a board can arise in play.
pub fn is_reachable(g: &Geometry, b: Board) -> bool {
    check(g, b).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(s: &str) -> Board {
        Board::from_symbols(s.as_bytes()).unwrap()
    }

    #[test]
    fn reasons() {
        let g = Geometry::tomek();
        assert_eq!(
            check(g, board("XXX.............")),
            Err(Unreachable::StoneCounts { x: 3, o: 0 })
        );
        assert_eq!(
            check(g, board("XXXXOOOO........")),
            Err(Unreachable::BothWin)
        );
        assert_eq!(
            check(g, board("XXXXOOO.O.......")),
            Err(Unreachable::WinnerNotLastMover { winner: Player::X })
        );
        // Two disjoint X rows (one through the T): no single stone lies on both.
        assert_eq!(
            check(g, board("XXXTOOO.XXXXOOO.")),
            Err(Unreachable::NoWinningMove { winner: Player::X })
        );
        // A row and a column through one corner: the corner was the winning move.
        assert_eq!(check(g, board("XXXXXOO.XOO.XOO.")), Ok(Status::XWon));
        assert_eq!(check(g, board("XXXTOO..........")), Ok(Status::XWon));
    }
}
