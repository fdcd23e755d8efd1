//! What a position says about its game, shared by the engine and both games: the two players,
//! the four statuses, and [`ByStatus`], one value per status.
//!
//! Both games have the same four outcomes (the first player has won, the second has, the board
//! is full, play goes on), so one set of types serves the Tomek boards, Connect Four positions
//! and the engine that walks them. The status words are those of the Code Jam answers
//! ([`Status::answer`]); Four in a row prints its own verdicts from the same statuses.

use std::fmt;
use std::ops::{Add, AddAssign, Index, IndexMut};

/// The side that owns a stone, or the side to move. X moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// The symbol printed on the board.
    pub fn symbol(self) -> char {
        match self {
            Player::X => 'X',
            Player::O => 'O',
        }
    }
}

/// What a board says about its game: the four answers of the Code Jam problem.
///
/// The order (X won, O won, Draw, open) is the order used in every table and index.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// X has a line.
    XWon,
    /// O has a line.
    OWon,
    /// The board is full and nobody has a line.
    Draw,
    /// Play goes on.
    Open,
}

impl Status {
    /// All four, in table order.
    pub const ALL: [Status; 4] = [Status::XWon, Status::OWon, Status::Draw, Status::Open];

    /// The exact words of the Code Jam answer.
    pub fn answer(self) -> &'static str {
        match self {
            Status::XWon => "X won",
            Status::OWon => "O won",
            Status::Draw => "Draw",
            Status::Open => "Game has not completed",
        }
    }

    /// Parses the exact words of a Code Jam answer.
    pub fn from_answer(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|st| st.answer() == s)
    }

    /// A short name for tables, filters and file formats: `x`, `o`, `draw`, `open`.
    pub fn short(self) -> &'static str {
        match self {
            Status::XWon => "x",
            Status::OWon => "o",
            Status::Draw => "draw",
            Status::Open => "open",
        }
    }

    /// Parses a short name (`x`, `o`, `draw`, `open`).
    pub fn from_short(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|st| st.short() == s)
    }

    /// Position of this status in [`Status::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether the game is over.
    pub fn is_over(self) -> bool {
        self != Status::Open
    }

    /// The status of a game won by `p`.
    pub fn won_by(p: Player) -> Status {
        match p {
            Player::X => Status::XWon,
            Player::O => Status::OWon,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.answer())
    }
}

/// Serializes a status as the exact words of its Code Jam answer (`serialize_with` in reports).
#[cfg(feature = "serde")]
pub fn serialize_answer<S: serde::Serializer>(st: &Status, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(st.answer())
}

/// Serializes per-status values as a list in [`Status::ALL`] order (`serialize_with` in reports
/// whose format predates the named keys).
#[cfg(feature = "serde")]
pub fn serialize_in_order<T: serde::Serialize + Copy, S: serde::Serializer>(
    v: &ByStatus<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&v.into_array(), s)
}

/// One value per status: counts of boards or games, flags of a filter, weights of a profile.
///
/// Indexed by [`Status`] (`counts[status] += 1`), so tables cannot mix up the order, and
/// serialized with the short names as keys (`x_won`, `o_won`, `draw`, `open`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ByStatus<T> {
    /// The value for [`Status::XWon`].
    pub x_won: T,
    /// The value for [`Status::OWon`].
    pub o_won: T,
    /// The value for [`Status::Draw`].
    pub draw: T,
    /// The value for [`Status::Open`].
    pub open: T,
}

impl<T> ByStatus<T> {
    /// The values `f(status)`, in [`Status::ALL`] order.
    pub fn from_fn(mut f: impl FnMut(Status) -> T) -> ByStatus<T> {
        ByStatus {
            x_won: f(Status::XWon),
            o_won: f(Status::OWon),
            draw: f(Status::Draw),
            open: f(Status::Open),
        }
    }

    /// The values in [`Status::ALL`] order.
    pub fn from_array([x_won, o_won, draw, open]: [T; 4]) -> ByStatus<T> {
        ByStatus {
            x_won,
            o_won,
            draw,
            open,
        }
    }

    /// The values in [`Status::ALL`] order.
    pub fn into_array(self) -> [T; 4] {
        [self.x_won, self.o_won, self.draw, self.open]
    }

    /// Applies `f` to every value.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByStatus<U> {
        let [a, b, c, d] = self.into_array();
        ByStatus::from_array([f(a), f(b), f(c), f(d)])
    }

    /// Each status with its value, in [`Status::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Status, &T)> {
        Status::ALL
            .into_iter()
            .zip([&self.x_won, &self.o_won, &self.draw, &self.open])
    }
}

impl ByStatus<u64> {
    /// The sum over the four statuses.
    pub fn total(&self) -> u64 {
        self.x_won + self.o_won + self.draw + self.open
    }

    /// The sum over the finished games: won by either side or drawn.
    pub fn terminal(&self) -> u64 {
        self.x_won + self.o_won + self.draw
    }

    /// The sum of the values over many rows.
    pub fn sum<'a>(rows: impl IntoIterator<Item = &'a ByStatus<u64>>) -> ByStatus<u64> {
        rows.into_iter().fold(ByStatus::default(), |a, &b| a + b)
    }
}

impl ByStatus<bool> {
    /// Every status kept.
    pub const ALL: ByStatus<bool> = ByStatus {
        x_won: true,
        o_won: true,
        draw: true,
        open: true,
    };
}

impl<T> Index<Status> for ByStatus<T> {
    type Output = T;
    fn index(&self, s: Status) -> &T {
        match s {
            Status::XWon => &self.x_won,
            Status::OWon => &self.o_won,
            Status::Draw => &self.draw,
            Status::Open => &self.open,
        }
    }
}

impl<T> IndexMut<Status> for ByStatus<T> {
    fn index_mut(&mut self, s: Status) -> &mut T {
        match s {
            Status::XWon => &mut self.x_won,
            Status::OWon => &mut self.o_won,
            Status::Draw => &mut self.draw,
            Status::Open => &mut self.open,
        }
    }
}

impl<T: Add<Output = T>> Add for ByStatus<T> {
    type Output = ByStatus<T>;
    fn add(self, other: ByStatus<T>) -> ByStatus<T> {
        let [a, b, c, d] = self.into_array();
        let [e, f, g, h] = other.into_array();
        ByStatus::from_array([a + e, b + f, c + g, d + h])
    }
}

impl<T: AddAssign> AddAssign for ByStatus<T> {
    fn add_assign(&mut self, other: ByStatus<T>) {
        let [a, b, c, d] = other.into_array();
        self.x_won += a;
        self.o_won += b;
        self.draw += c;
        self.open += d;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_round_trip() {
        for s in Status::ALL {
            assert_eq!(Status::from_answer(s.answer()), Some(s));
            assert_eq!(Status::from_short(s.short()), Some(s));
        }
        assert_eq!(Status::from_answer("0 won"), None);
    }

    #[test]
    fn by_status_indexes_in_table_order() {
        let mut c = ByStatus::from_array([1u64, 2, 3, 4]);
        for (i, s) in Status::ALL.into_iter().enumerate() {
            assert_eq!(c[s], i as u64 + 1);
        }
        c[Status::Draw] += 10;
        assert_eq!(c.into_array(), [1, 2, 13, 4]);
        assert_eq!(c.total(), 20);
        assert_eq!(c.terminal(), 16);
        assert_eq!((c + c).into_array(), [2, 4, 26, 8]);
        assert_eq!(ByStatus::sum([&c, &c, &c]).total(), 60);
        assert_eq!(
            ByStatus::from_fn(|s| s.index()),
            ByStatus::from_array([0, 1, 2, 3])
        );
    }
}
