//! The judge: what a sequence of moves amounts to, and the exact text of the answer.
//!
//! The questions are asked in the problem's order. Validity comes first: a move after a win,
//! or a seventh chip in a slot, makes the game invalid whatever else happens, and the first such
//! move decides which of the two it is. Only a valid game can be over, and only an over game
//! can have a winner.

use super::position::{CELLS, HEIGHT, Position, WIDTH, cell};
use crate::outcome::Player;
use std::fmt::Write as _;

/// Why a game is invalid; `at` is the index (from 0) of the first offending move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Invalid {
    /// A chip dropped into a slot that already holds six.
    Overflow {
        /// The move at fault, from 1.
        at: usize,
    },
    /// A move made after a player had already won.
    AfterWin {
        /// The first move after the win, from 1.
        at: usize,
    },
    /// A slot number outside 1–7 (the input reader never lets one through; kept so that the
    /// judge is total on any bytes it is handed).
    NoSuchSlot {
        /// The move at fault, from 1.
        at: usize,
    },
}

/// The answer for one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Not a legal game: why.
    Invalid(Invalid),
    /// All 42 cells filled and nobody has four in a row.
    NoWinner,
    /// The player's last move made four (or more) in a row.
    Won(Player),
    /// A valid game that can go on.
    NotOver,
}

impl Verdict {
    /// The sentence after `Game #n`, exactly as the judge expects it.
    pub fn sentence(self) -> &'static str {
        match self {
            Verdict::Invalid(_) => "is invalid.",
            Verdict::NoWinner => "is over. There is no winner.",
            Verdict::Won(Player::X) => "is over. The first player won.",
            Verdict::Won(Player::O) => "is over. The second player won.",
            Verdict::NotOver => "is not over, yet.",
        }
    }
}

/// A judged game: the verdict and the position after the last move that was played (for an
/// invalid game, the last move before the offending one).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Judgement {
    /// The verdict.
    pub verdict: Verdict,
    /// The position when play stopped (the last legal move).
    pub position: Position,
}

/// Judges a game given as columns 0–6 (slot digit minus one).
pub fn judge(moves: &[u8]) -> Judgement {
    let mut position = Position::new();
    let mut won = false;
    for (at, &m) in moves.iter().enumerate() {
        let invalid = if won {
            Some(Invalid::AfterWin { at })
        } else if u32::from(m) >= WIDTH {
            Some(Invalid::NoSuchSlot { at })
        } else if !position.can_play(u32::from(m)) {
            Some(Invalid::Overflow { at })
        } else {
            None
        };
        if let Some(why) = invalid {
            return Judgement {
                verdict: Verdict::Invalid(why),
                position,
            };
        }
        position = position.play(u32::from(m));
        won = position.last_mover_won();
    }
    let verdict = if won {
        Verdict::Won(position.to_move().other())
    } else if position.moves() == CELLS {
        Verdict::NoWinner
    } else {
        Verdict::NotOver
    };
    Judgement { verdict, position }
}

impl Judgement {
    /// The winner's chips that lie in a run of four or more (0 when nobody won).
    pub fn winning_cells(&self) -> u64 {
        match self.verdict {
            Verdict::Won(p) => Position::winning_cells(self.position.chips(p)),
            _ => 0,
        }
    }

    /// In how many directions the winning move made four in a row. A single move can complete
    /// at most one run per direction (every run contains it), so this counts separate lines.
    pub fn winning_lines(&self) -> u32 {
        match self.verdict {
            Verdict::Won(p) => Position::winning_runs(self.position.chips(p))
                .iter()
                .filter(|&&r| r != 0)
                .count() as u32,
            _ => 0,
        }
    }

    /// The length of the longest winning run (0 when nobody won). All runs pass through the
    /// winning move, so each direction holds one run and its chip count is its length.
    pub fn longest_run(&self) -> u32 {
        match self.verdict {
            Verdict::Won(p) => Position::winning_runs(self.position.chips(p))
                .iter()
                .map(|r| r.count_ones())
                .max()
                .unwrap_or(0),
            _ => 0,
        }
    }

    /// The answer text for game `number`: the verdict line and, for a won game, the grid.
    /// Every line ends in one `\n`.
    pub fn write_answer(&self, number: usize, out: &mut String) {
        let _ = writeln!(out, "Game #{number} {}", self.verdict.sentence());
        if let Verdict::Won(_) = self.verdict {
            out.push_str("-------\n");
            write_grid(self.position, self.winning_cells(), out);
            out.push_str("-------\n");
        }
    }
}

/// The rows of `position` from top to bottom, skipping empty rows, with chips in `capitals`
/// printed in upper case. Rows are always seven characters, empty cells being spaces.
pub fn write_grid(position: Position, capitals: u64, out: &mut String) {
    let first = position.chips(Player::X);
    for row in (0..HEIGHT).rev() {
        if (0..WIDTH).all(|c| position.mask() & cell(c, row) == 0) {
            continue;
        }
        for c in 0..WIDTH {
            let bit = cell(c, row);
            let ch = match (position.mask() & bit != 0, first & bit != 0) {
                (false, _) => ' ',
                (true, true) => 'x',
                (true, false) => 'o',
            };
            out.push(if capitals & bit != 0 {
                ch.to_ascii_uppercase()
            } else {
                ch
            });
        }
        out.push('\n');
    }
}

/// Counts of verdicts and of the special cases a test file should cover.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games in the file.
    pub games: usize,
    /// Games with a chip dropped into a full slot.
    pub invalid_overflow: usize,
    /// Games with moves after a win.
    pub invalid_after_win: usize,
    /// Full boards with no four.
    pub no_winner: usize,
    /// Games won by the first player.
    pub first_won: usize,
    /// Games won by the second player.
    pub second_won: usize,
    /// Games still going on after their last move.
    pub not_over: usize,
    /// Games with no moves at all.
    pub empty: usize,
    /// Wins whose last move made lines in two or more directions.
    pub multiple_lines: usize,
    /// Wins with a run of five or more.
    pub long_runs: usize,
    /// Wins on the 42nd move, which fill the board.
    pub win_on_last_move: usize,
}

impl Summary {
    /// Adds one judged game of `moves` moves.
    pub fn add(&mut self, moves: usize, j: &Judgement) {
        self.games += 1;
        match j.verdict {
            Verdict::Invalid(Invalid::AfterWin { .. }) => self.invalid_after_win += 1,
            Verdict::Invalid(_) => self.invalid_overflow += 1,
            Verdict::NoWinner => self.no_winner += 1,
            Verdict::Won(Player::X) => self.first_won += 1,
            Verdict::Won(Player::O) => self.second_won += 1,
            Verdict::NotOver => self.not_over += 1,
        }
        if moves == 0 {
            self.empty += 1;
        }
        if let Verdict::Won(_) = j.verdict {
            self.multiple_lines += usize::from(j.winning_lines() >= 2);
            self.long_runs += usize::from(j.longest_run() >= 5);
            self.win_on_last_move += usize::from(j.position.moves() == CELLS);
        }
    }

    /// Adds the counts of another summary, for totals over several files.
    pub fn merge(&mut self, other: &Summary) {
        let Summary {
            games,
            invalid_overflow,
            invalid_after_win,
            no_winner,
            first_won,
            second_won,
            not_over,
            empty,
            multiple_lines,
            long_runs,
            win_on_last_move,
        } = other;
        self.games += games;
        self.invalid_overflow += invalid_overflow;
        self.invalid_after_win += invalid_after_win;
        self.no_winner += no_winner;
        self.first_won += first_won;
        self.second_won += second_won;
        self.not_over += not_over;
        self.empty += empty;
        self.multiple_lines += multiple_lines;
        self.long_runs += long_runs;
        self.win_on_last_move += win_on_last_move;
    }

    /// The counts as a two-column table, verdicts first, then special cases, then the total.
    pub fn table(&self) -> crate::output::Table {
        let mut t = crate::output::Table::new(["games", "count"]);
        for (what, n) in [
            ("invalid: seventh chip in a slot", self.invalid_overflow),
            ("invalid: move after a win", self.invalid_after_win),
            ("over, no winner", self.no_winner),
            ("over, first player won", self.first_won),
            ("over, second player won", self.second_won),
            ("not over", self.not_over),
            ("with no moves", self.empty),
            ("won with two or more lines", self.multiple_lines),
            ("won with a run of five or more", self.long_runs),
            ("won on the 42nd move", self.win_on_last_move),
            ("total", self.games),
        ] {
            t.push([what.to_string(), n.to_string()]);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(s: &str) -> Vec<u8> {
        s.bytes().map(|b| b - b'1').collect()
    }

    fn answer(s: &str) -> String {
        let mut out = String::new();
        judge(&cols(s)).write_answer(1, &mut out);
        out
    }

    #[test]
    fn sample_game_one() {
        assert_eq!(
            answer("2143563445575"),
            "Game #1 is over. The first player won.\n-------\n    X  \n   Xx  \n  Xoo  \noXoxxoo\n-------\n"
        );
        assert_eq!(answer("123456"), "Game #1 is not over, yet.\n");
        assert_eq!(answer(""), "Game #1 is not over, yet.\n");
    }

    #[test]
    fn invalid_games() {
        assert_eq!(
            judge(&cols("1111111")).verdict,
            Verdict::Invalid(Invalid::Overflow { at: 6 })
        );
        // The first player wins on move 7; move 8 is after the win even though the later
        // moves would overflow slot 1 as well.
        assert_eq!(
            judge(&cols("12121211111")).verdict,
            Verdict::Invalid(Invalid::AfterWin { at: 7 })
        );
        assert_eq!(
            judge(&[0, 9]).verdict,
            Verdict::Invalid(Invalid::NoSuchSlot { at: 1 })
        );
        assert_eq!(answer("1111111"), "Game #1 is invalid.\n");
    }

    #[test]
    fn second_player_and_vertical_win() {
        // x plays 1,2,1,2,5 / o plays 3,3,3,3: o's vertical four in slot 3.
        let j = judge(&cols("13231353"));
        assert_eq!(j.verdict, Verdict::Won(Player::O));
        assert_eq!(j.winning_lines(), 1);
        assert_eq!(j.longest_run(), 4);
        let mut out = String::new();
        j.write_answer(7, &mut out);
        assert_eq!(
            out,
            "Game #7 is over. The second player won.\n-------\n  O    \n  O    \nx O    \nxxO x  \n-------\n"
        );
    }

    #[test]
    fn summary_counts() {
        let mut s = Summary::default();
        for g in ["", "1111111", "12121211", "1212121", "13231353", "12"] {
            s.add(g.len(), &judge(&cols(g)));
        }
        assert_eq!(s.games, 6);
        assert_eq!(s.empty, 1);
        assert_eq!(s.invalid_overflow, 1);
        assert_eq!(s.invalid_after_win, 1);
        assert_eq!(s.first_won, 1);
        assert_eq!(s.second_won, 1);
        assert_eq!(s.not_over, 2);
        assert!(s.table().render().contains("total"));
    }
}
