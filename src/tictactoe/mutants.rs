//! A catalogue of wrong evaluators: the bugs real solutions of the Code Jam problem make.
//!
//! Test data is only as good as the wrong answers it catches. Each [`Mutant`] is an
//! [`Evaluator`] with one realistic mistake (the `T` counted for one player only, a line left
//! out of a loop, the draw decided before the wins, a draw called on a board with empty
//! squares, ...). The `killer` profile of [`crate::tictactoe::sample`] finds the smallest file
//! on which every one of them fails at least once, and `tomek validate` reports which of them
//! a file catches.
//!
//! Every mutant of [`Mutant::ALL`] is wrong on at least one reachable board (the tests show it
//! with the killer set, running each mutant as a Python program). Some bugs that look
//! plausible cannot be caught by any valid input, because at most one player ever holds a
//! line: they are kept apart in [`Mutant::EQUIVALENT`], and a test proves over every reachable
//! board that they always answer right. Writing `0 won` with a digit is a format fault, for
//! the checker, not an evaluator bug.
//!
//! All mutants read one [`Reading`] of the board, so that asking the whole catalogue about a
//! board (as the killer search does for each of the 61 million reachable boards) scans the
//! ten lines once, not once per mutant.

use crate::outcome::Status;
use crate::tictactoe::board::Board;
use crate::tictactoe::eval::Evaluator;
use std::sync::OnceLock;

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

/// Every line, in the order rows, columns, main diagonal, anti-diagonal (the order of the
/// reference solution's loop, which the counter mutant depends on), then the slipped
/// anti-diagonal as an eleventh, which only [`Mutant::AntiDiagonalSlip`] looks at.
const LINES: [u16; 11] = [
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
    SLIPPED_ANTI_DIAGONAL,
];

/// Sets of lines as bits over [`LINES`].
mod line_set {
    /// The ten true lines.
    pub const ALL: u16 = 0x3FF;
    /// Rows 0-3.
    pub const ROWS: u16 = 0x00F;
    /// Columns 4-7.
    pub const COLUMNS: u16 = 0x0F0;
    /// The main diagonal.
    pub const MAIN: u16 = 1 << 8;
    /// The anti-diagonal.
    pub const ANTI: u16 = 1 << 9;
    /// The anti-diagonal read one square off.
    pub const SLIPPED: u16 = 1 << 10;
    /// The bottom row.
    pub const LAST_ROW: u16 = 1 << 3;
    /// The right column.
    pub const LAST_COLUMN: u16 = 1 << 7;
}

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
    /// One row (0 to 2, from the top) never checked: a wrong index in a list of lines.
    RowMissing(u8),
    /// One column (0 to 2, from the left) never checked.
    ColumnMissing(u8),
    /// A row loop that stops one short: the bottom row is never checked.
    LastRowMissing,
    /// A column loop that stops one short: the right column is never checked.
    LastColumnMissing,
    /// The anti-diagonal indexed one square off: squares 4, 7, 10, 13 instead of 3, 6, 9, 12.
    AntiDiagonalSlip,
    /// The row loop reads `board[c][r]` instead of `board[r][c]`: the rows are read as the
    /// columns, so the columns are checked twice and the rows never.
    RowsTransposed,
    /// A full board is a draw, checked before the wins: a win on a full board is called a
    /// draw.
    DrawFirst,
    /// A board with an empty square is "not completed", checked before the wins.
    OpenFirst,
    /// No line means a draw, empty squares or not: "Game has not completed" is never said.
    DrawIgnoresEmpty,
    /// No line and at most one empty square means a draw (an off-by-one in the count of empty
    /// squares; the `T` counted as filled).
    DrawOneEmpty,
    /// As [`Mutant::DrawOneEmpty`], with the `T` counted as an empty square too.
    DrawOneEmptyTEmpty,
    /// No line means "not completed", full board or not: "Draw" is never said.
    NeverDraw,
    /// The `T` square is taken for an empty one when deciding a draw, so no board with a `T`
    /// is ever a draw.
    TAsEmpty,
    /// The winners' names swapped: a line of X's is reported as "O won" and the other way.
    PlayersSwapped,
    /// The `T` stands in for two symbols: two stones and the `T` make a line.
    TForTwo,
    /// Three in a line (stones or `T`) win.
    ThreeWins,
    /// Counting stones instead of reading lines: the counter of a player's symbols is not
    /// reset between lines, so four of them spread over the lines scanned so far win.
    CounterNotReset,
    /// A line wins when its four squares are alike (the `T` alike to anything), empty squares
    /// included; the first such line decides, `O` for O and anything else for X.
    EmptyLineWins,
    /// O's lines are checked before X's. Equivalent: only the player who moved last can hold a
    /// line, so no reachable board tells the two orders apart.
    OFirst,
}

impl Mutant {
    /// The catalogue: every bug some reachable board exposes, in a fixed order.
    pub const ALL: [Mutant; 30] = [
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
        Mutant::RowMissing(0),
        Mutant::RowMissing(1),
        Mutant::RowMissing(2),
        Mutant::ColumnMissing(0),
        Mutant::ColumnMissing(1),
        Mutant::ColumnMissing(2),
        Mutant::AntiDiagonalSlip,
        Mutant::RowsTransposed,
        Mutant::DrawFirst,
        Mutant::OpenFirst,
        Mutant::DrawIgnoresEmpty,
        Mutant::DrawOneEmpty,
        Mutant::DrawOneEmptyTEmpty,
        Mutant::NeverDraw,
        Mutant::TAsEmpty,
        Mutant::PlayersSwapped,
        Mutant::TForTwo,
        Mutant::ThreeWins,
        Mutant::CounterNotReset,
        Mutant::EmptyLineWins,
    ];

    /// Bugs no valid input can expose: they answer every reachable board right (a test
    /// checks all of them), so no data set can, or needs to, catch them.
    pub const EQUIVALENT: [Mutant; 1] = [Mutant::OFirst];

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
            Mutant::RowMissing(0) => "row-1-missing",
            Mutant::RowMissing(1) => "row-2-missing",
            Mutant::RowMissing(_) => "row-3-missing",
            Mutant::ColumnMissing(0) => "column-1-missing",
            Mutant::ColumnMissing(1) => "column-2-missing",
            Mutant::ColumnMissing(_) => "column-3-missing",
            Mutant::LastRowMissing => "last-row-missing",
            Mutant::LastColumnMissing => "last-column-missing",
            Mutant::AntiDiagonalSlip => "anti-diagonal-slip",
            Mutant::RowsTransposed => "rows-transposed",
            Mutant::DrawFirst => "draw-first",
            Mutant::OpenFirst => "open-first",
            Mutant::DrawIgnoresEmpty => "draw-ignores-empty",
            Mutant::DrawOneEmpty => "draw-one-empty",
            Mutant::DrawOneEmptyTEmpty => "draw-one-empty-t-empty",
            Mutant::NeverDraw => "never-draw",
            Mutant::TAsEmpty => "t-as-empty",
            Mutant::PlayersSwapped => "players-swapped",
            Mutant::TForTwo => "t-for-two",
            Mutant::ThreeWins => "three-wins",
            Mutant::CounterNotReset => "counter-not-reset",
            Mutant::EmptyLineWins => "empty-line-wins",
            Mutant::OFirst => "o-first",
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
            Mutant::RowMissing(0) => "the top row is not checked",
            Mutant::RowMissing(1) => "the second row is not checked",
            Mutant::RowMissing(_) => "the third row is not checked",
            Mutant::ColumnMissing(0) => "the left column is not checked",
            Mutant::ColumnMissing(1) => "the second column is not checked",
            Mutant::ColumnMissing(_) => "the third column is not checked",
            Mutant::LastRowMissing => "the bottom row is not checked",
            Mutant::LastColumnMissing => "the right column is not checked",
            Mutant::AntiDiagonalSlip => "the anti-diagonal is read one square off",
            Mutant::RowsTransposed => "the rows are read with transposed indices (as columns)",
            Mutant::DrawFirst => "a full board is a draw even when someone won",
            Mutant::OpenFirst => "an empty square means not completed even after a win",
            Mutant::DrawIgnoresEmpty => "no winner means a draw, even with empty squares",
            Mutant::DrawOneEmpty => "no winner with one empty square left is a draw",
            Mutant::DrawOneEmptyTEmpty => {
                "no winner with one empty square left is a draw, the T counted as empty"
            }
            Mutant::NeverDraw => "no winner means not completed, even on a full board",
            Mutant::TAsEmpty => "the T counts as an empty square (never a draw with a T)",
            Mutant::PlayersSwapped => "the winners' names are swapped",
            Mutant::TForTwo => "the T counts as two symbols",
            Mutant::ThreeWins => "three in a line win",
            Mutant::CounterNotReset => {
                "stones are counted over all lines, the counter never reset between lines"
            }
            Mutant::EmptyLineWins => "four empty squares in a line count as a win for X",
            Mutant::OFirst => "O's lines are checked before X's (never wrong on a valid board)",
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

    /// What this mutant answers on a board read as `r`.
    #[inline]
    pub fn answer(self, r: &Reading) -> Status {
        use line_set::*;
        let right = r.right;
        let wins = (right == Status::XWon || right == Status::OWon).then_some(right);
        match self {
            Mutant::TIgnored => r.judge(r.x_pure, r.o_pure, ALL),
            Mutant::TOnlyX => r.judge(r.x_lines, r.o_pure, ALL),
            Mutant::TOnlyO => r.judge(r.x_pure, r.o_lines, ALL),
            Mutant::RowsOnly => r.judge(r.x_lines, r.o_lines, ROWS),
            Mutant::NoColumns => r.judge(r.x_lines, r.o_lines, ALL & !COLUMNS),
            Mutant::NoDiagonals => r.judge(r.x_lines, r.o_lines, ROWS | COLUMNS),
            Mutant::NoMainDiagonal => r.judge(r.x_lines, r.o_lines, ALL & !MAIN),
            Mutant::NoAntiDiagonal => r.judge(r.x_lines, r.o_lines, ALL & !ANTI),
            Mutant::RowMissing(k) => r.judge(r.x_lines, r.o_lines, ALL & !(1 << k)),
            Mutant::ColumnMissing(k) => r.judge(r.x_lines, r.o_lines, ALL & !(1 << (4 + k))),
            Mutant::LastRowMissing => r.judge(r.x_lines, r.o_lines, ALL & !LAST_ROW),
            Mutant::LastColumnMissing => r.judge(r.x_lines, r.o_lines, ALL & !LAST_COLUMN),
            Mutant::AntiDiagonalSlip => r.judge(r.x_lines, r.o_lines, ALL & !ANTI | SLIPPED),
            Mutant::RowsTransposed => r.judge(r.x_lines, r.o_lines, ALL & !ROWS),
            Mutant::DrawFirst if r.empty == 0 => Status::Draw,
            Mutant::OpenFirst if r.empty > 0 => Status::Open,
            Mutant::DrawFirst | Mutant::OpenFirst => right,
            Mutant::DrawIgnoresEmpty => wins.unwrap_or(Status::Draw),
            Mutant::DrawOneEmpty => wins.unwrap_or(Reading::drawn_below(r.empty, 2)),
            Mutant::DrawOneEmptyTEmpty => {
                wins.unwrap_or(Reading::drawn_below(r.empty + u32::from(r.has_t), 2))
            }
            Mutant::NeverDraw => wins.unwrap_or(Status::Open),
            Mutant::TAsEmpty => {
                wins.unwrap_or(Reading::drawn_below(r.empty + u32::from(r.has_t), 1))
            }
            Mutant::PlayersSwapped => match right {
                Status::XWon => Status::OWon,
                Status::OWon => Status::XWon,
                s => s,
            },
            Mutant::TForTwo => r.judge(r.x_two_for_t, r.o_two_for_t, ALL),
            Mutant::ThreeWins => r.judge(r.x_three, r.o_three, ALL),
            Mutant::CounterNotReset => {
                r.judge(u16::from(r.x_counted_four), u16::from(r.o_counted_four), 1)
            }
            Mutant::EmptyLineWins => r.alike.unwrap_or(r.fill()),
            Mutant::OFirst => {
                if r.o_lines & ALL != 0 {
                    Status::OWon
                } else {
                    r.judge(r.x_lines, 0, ALL)
                }
            }
        }
    }
}

/// The lines each player holds on `b` (the `T` counting for both), as bits over the ten lines
/// in the order rows, columns, main diagonal, anti-diagonal: one table look-up each.
#[inline]
pub fn lines_held(b: Board) -> (u16, u16) {
    let tables = Tables::get();
    (
        tables.full(b.x | b.t) & line_set::ALL,
        tables.full(b.o | b.t) & line_set::ALL,
    )
}

/// The mutants of [`Mutant::ALL`] that answer `b` wrongly, given its right status, as bits
/// over [`Mutant::ALL`]: the board is read once for the whole catalogue.
#[inline]
pub fn kills(b: Board, right: Status) -> u32 {
    caught(&Reading::of(b), right)
}

/// The mutants answering a board read as `r` otherwise than `right`.
#[inline]
fn caught(r: &Reading, right: Status) -> u32 {
    Mutant::ALL
        .iter()
        .enumerate()
        .fold(0, |k, (i, m)| k | u32::from(m.answer(r) != right) << i)
}

/// [`kills`] for many boards in a row: boards that read alike are caught by the same mutants,
/// and readings repeat far more than boards do, so the answers of recent readings are kept
/// in a small table indexed by a hash of the reading.
pub struct KillCache {
    keys: Vec<u128>,
    kills: Vec<u32>,
}

impl Default for KillCache {
    fn default() -> KillCache {
        KillCache {
            keys: vec![u128::MAX; KillCache::SIZE],
            kills: vec![0; KillCache::SIZE],
        }
    }
}

impl KillCache {
    /// Bits of the table's index: a table that stays in the core's second-level cache.
    const BITS: u32 = 14;
    const SIZE: usize = 1 << KillCache::BITS;

    /// The same as [`kills`].
    #[inline]
    pub fn kills(&mut self, b: Board, right: Status) -> u32 {
        let r = Reading::of(b);
        let key = r.key() | (right.index() as u128) << 120;
        let mixed = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = (mixed >> (64 - KillCache::BITS)) as usize;
        if self.keys[slot] == key {
            return self.kills[slot];
        }
        let k = caught(&r, right);
        self.keys[slot] = key;
        self.kills[slot] = k;
        k
    }
}

/// Everything the mutants look at on a board, each line read once: which lines each player
/// holds under each way of counting the `T`, the first line whose squares are alike, the
/// running count of symbols over the lines, and how many squares are empty.
///
/// Line sets are bits over the eleven lines of `LINES`: the ten true lines in the order rows,
/// columns, main diagonal, anti-diagonal, then the anti-diagonal read one square off.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The right status.
    right: Status,
    /// Lines every square of which is X or the `T`.
    x_lines: u16,
    /// Lines every square of which is O or the `T`.
    o_lines: u16,
    /// Lines of four X stones (the `T` counted for nobody).
    x_pure: u16,
    /// Lines of four O stones.
    o_pure: u16,
    /// Lines with at least three squares that are X or the `T`.
    x_three: u16,
    /// Lines with at least three squares that are O or the `T`.
    o_three: u16,
    /// Lines where X's stones plus twice the `T` make four.
    x_two_for_t: u16,
    /// Lines where O's stones plus twice the `T` make four.
    o_two_for_t: u16,
    /// Whether a count of X's symbols, never reset, equals four at the end of some line.
    x_counted_four: bool,
    /// The same for O.
    o_counted_four: bool,
    /// The verdict of the first line whose squares are alike (the `T` alike to anything):
    /// O won if they are O's, X won if they are X's or empty.
    alike: Option<Status>,
    /// Squares holding neither a stone nor the `T`.
    empty: u32,
    /// Whether the board has a `T`.
    has_t: bool,
}

impl Reading {
    /// Reads `b`'s lines: a handful of look-ups in tables indexed by a set of squares.
    #[inline]
    pub fn of(b: Board) -> Reading {
        let tables = Tables::get();
        let (x, o, t) = (b.x | b.t, b.o | b.t, b.t);
        let empty = !(b.x | b.o | b.t);
        let (x_lines, o_lines) = (tables.full(x), tables.full(o));
        // The T counted twice: a line through it needs two more stones, one without it four.
        let through_t = tables.touched(t);
        // The first line of alike squares in the loop's order: O's, X's or empty (the T
        // alike to anything).
        let alike_lines = (x_lines | o_lines | tables.full(empty | t)) & line_set::ALL;
        let alike = (alike_lines != 0).then(|| {
            if o_lines >> alike_lines.trailing_zeros() & 1 == 1 {
                Status::OWon
            } else {
                Status::XWon
            }
        });
        let mut r = Reading {
            right: Status::Open,
            x_lines,
            o_lines,
            x_pure: tables.full(b.x) & line_set::ALL,
            o_pure: tables.full(b.o) & line_set::ALL,
            x_three: tables.three(x),
            o_three: tables.three(o),
            x_two_for_t: (tables.three(x) & through_t) | (tables.full(b.x) & line_set::ALL),
            o_two_for_t: (tables.three(o) & through_t) | (tables.full(b.o) & line_set::ALL),
            x_counted_four: tables.counted_four(x),
            o_counted_four: tables.counted_four(o),
            alike,
            empty: empty.count_ones(),
            has_t: t != 0,
        };
        r.right = r.judge(x_lines, o_lines, line_set::ALL);
        r
    }

    /// Every field in one number (below bit 120): equal keys, equal readings.
    fn key(&self) -> u128 {
        let sets = [
            self.x_lines,
            self.o_lines,
            self.x_pure,
            self.o_pure,
            self.x_three,
            self.o_three,
            self.x_two_for_t,
            self.o_two_for_t,
        ];
        let mut k = 0u128;
        for set in sets {
            k = k << 11 | u128::from(set & 0x7FF);
        }
        let alike = self.alike.map_or(0, |s| 1 + s.index() as u128);
        k = k << 2 | self.right.index() as u128;
        k = k << 1 | u128::from(self.x_counted_four);
        k = k << 1 | u128::from(self.o_counted_four);
        k = k << 3 | alike;
        k = k << 5 | u128::from(self.empty);
        k << 1 | u128::from(self.has_t)
    }

    /// X won if X holds one of `lines` in `x`, else O won if O holds one in `o`, else the
    /// fill decides.
    #[inline]
    fn judge(&self, x: u16, o: u16, lines: u16) -> Status {
        if x & lines != 0 {
            Status::XWon
        } else if o & lines != 0 {
            Status::OWon
        } else {
            self.fill()
        }
    }

    /// A board without a line: a draw when full, else not completed.
    #[inline]
    fn fill(&self) -> Status {
        Reading::drawn_below(self.empty, 1)
    }

    /// A draw when fewer than `limit` squares count as empty, else not completed.
    #[inline]
    fn drawn_below(empty: u32, limit: u32) -> Status {
        if empty < limit {
            Status::Draw
        } else {
            Status::Open
        }
    }
}

/// Facts about every set of squares, computed once: which of the eleven lines of `LINES` it
/// fills, which of the ten true lines it holds three squares of, and whether a count of its
/// squares over the ten lines in order, never reset, equals four at the end of some line.
struct Tables {
    full: Vec<u16>,
    three: Vec<u16>,
    counted_four: Vec<u64>,
}

impl Tables {
    fn get() -> &'static Tables {
        static TABLES: OnceLock<Tables> = OnceLock::new();
        TABLES.get_or_init(|| {
            let mut t = Tables {
                full: vec![0; 1 << 16],
                three: vec![0; 1 << 16],
                counted_four: vec![0; (1 << 16) / 64],
            };
            for squares in 0..=u16::MAX {
                let i = usize::from(squares);
                let mut count = 0;
                for (k, &l) in LINES.iter().enumerate() {
                    let n = (l & squares).count_ones();
                    t.full[i] |= u16::from(n == 4) << k;
                    if k < 10 {
                        t.three[i] |= u16::from(n >= 3) << k;
                        count += n;
                        if count == 4 {
                            t.counted_four[i / 64] |= 1 << (i % 64);
                        }
                    }
                }
            }
            t
        })
    }

    /// The lines (of all eleven) every square of which is in `squares`.
    #[inline]
    fn full(&self, squares: u16) -> u16 {
        self.full[usize::from(squares)]
    }

    /// The true lines holding at least three of `squares`.
    #[inline]
    fn three(&self, squares: u16) -> u16 {
        self.three[usize::from(squares)]
    }

    /// The true lines through any of `squares` (the `T`'s single square, or none).
    #[inline]
    fn touched(&self, squares: u16) -> u16 {
        /// The true lines through each square.
        const THROUGH: [u16; 16] = {
            let mut t = [0u16; 16];
            let mut square = 0;
            while square < 16 {
                let mut k = 0;
                while k < 10 {
                    if LINES[k] >> square & 1 == 1 {
                        t[square] |= 1 << k;
                    }
                    k += 1;
                }
                square += 1;
            }
            t
        };
        match squares {
            0 => 0,
            // The `T`'s single square.
            _ if squares & (squares - 1) == 0 => THROUGH[squares.trailing_zeros() as usize],
            _ => LINES[..10]
                .iter()
                .enumerate()
                .fold(0, |m, (k, &l)| m | u16::from(l & squares != 0) << k),
        }
    }

    /// Whether counting `squares` line by line, never resetting, reaches exactly four at the
    /// end of some line.
    #[inline]
    fn counted_four(&self, squares: u16) -> bool {
        let i = usize::from(squares);
        self.counted_four[i / 64] >> (i % 64) & 1 == 1
    }
}

impl Evaluator for Mutant {
    fn name(&self) -> &'static str {
        self.id()
    }

    fn status(&self, b: Board) -> Status {
        self.answer(&Reading::of(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tictactoe::rules::Geometry;

    /// The cache answers as [`kills`] does, on boards met in order (so that readings repeat)
    /// and on random ones (so that slots are overwritten).
    #[test]
    fn the_kill_cache_answers_as_kills() {
        use rand::{Rng, SeedableRng};
        let g = Geometry::tomek();
        let mut cache = KillCache::default();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for i in 0..200_000u32 {
            let (x, o, t) = if i % 2 == 0 {
                (i as u16 & 0x0F0F, (i >> 8) as u16 & 0xF0F0, 0)
            } else {
                let r = rng.next_u64();
                let t: u16 = if r & 1 == 0 { 1 << (r >> 1 & 15) } else { 0 };
                let x = (r >> 8) as u16 & !t;
                (x, (r >> 24) as u16 & !x & !t, t)
            };
            let b = Board { x, o, t };
            let right = g.status(b);
            assert_eq!(cache.kills(b, right), kills(b, right), "{b:?}");
        }
    }

    #[test]
    fn line_masks_match_the_geometry() {
        let mut mine = LINES[..10].to_vec();
        mine.sort();
        let mut theirs = Geometry::tomek().lines.clone();
        theirs.sort();
        assert_eq!(mine, theirs);
    }

    #[test]
    fn names_are_distinct() {
        let mut ids: Vec<_> = Mutant::ALL
            .iter()
            .chain(&Mutant::EQUIVALENT)
            .map(|m| m.id())
            .collect();
        let n = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n);
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
        assert!(Mutant::PlayersSwapped.fails(b, Status::XWon));
    }

    #[test]
    fn draw_confusions_on_open_and_full_boards() {
        // One empty square, no line: not completed.
        let one = Board::from_symbols(b"XOXOXOXOOXOXOXO.").unwrap();
        for m in [Mutant::DrawIgnoresEmpty, Mutant::DrawOneEmpty] {
            assert!(m.fails(one, Status::Open), "{}", m.id());
        }
        assert!(!Mutant::NeverDraw.fails(one, Status::Open));
        // A full board with the T and no line: a draw.
        let full = Board::from_symbols(b"XOXOXOXOOXOXOXOT").unwrap();
        assert!(Mutant::NeverDraw.fails(full, Status::Draw));
        assert!(Mutant::TAsEmpty.fails(full, Status::Draw));
        assert!(!Mutant::DrawOneEmptyTEmpty.fails(full, Status::Draw));
        // Four X's spread over the first two rows, no line: the counter that is never reset
        // sees four.
        let spread = Board::from_symbols(b"XX.OXXOO........").unwrap();
        assert!(Mutant::CounterNotReset.fails(spread, Status::Open));
    }
}
