//! The state space as a table: one row per reachable board of a setup, with the columns that
//! `tomek query` and `tomek export` offer. Only the columns asked for are computed, and the
//! two kinds cost very differently:
//!
//! - what a board says about itself (its text, stones, status, lines, orbit, the move orders
//!   reaching it) comes from the board alone, so the boards are met once each by the engine's
//!   depth-first walk ([`engine::fold_tree`]), which keeps no table;
//! - what perfect play says (value, distance, the games through a board) needs every board's
//!   children first, so the setup's boards are filed in their dense per-ply tables
//!   ([`SetupSpace`]) and solved from the last ply down, one ply's values and game counts kept
//!   at a time.
//!
//! Columns that the counts of boards by ply and status determine (ply, stones, side to move,
//! status, winner) cost only counting: their rows are runs of equal values.
//!
//! The table can also be read as runs ([`TableSpec::runs`]): one row per distinct values of
//! some few-valued columns ([`Column::small`]), with how many boards it stands for and the
//! minimum, maximum or sum of other columns over them ([`Fold`]). Aggregates read that far
//! fewer rows.
//!
//! Rows come setup by setup, each setup's in a fixed order whatever the thread count: walk
//! order for the first kind, ply by ply in slot order for the second, by ply and status for
//! counted columns. No order is promised beyond that: SQL's `ORDER BY` gives one.

use crate::engine::{self, Memo};
use crate::outcome::{ByStatus, Player, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::explain::{Outcome, Value, sequences};
use crate::tictactoe::rank::{PlyIndex, colex_rank, expand, insert_bit};
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::space::{SetupGame, SetupSpace, TurnGame, count_setup};
use crate::tictactoe::symmetry::{self, TextOrder};
use rayon::prelude::*;

/// A column of the board table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Column {
    /// The board's text, row by row.
    Board,
    /// The square of the `T`, or null.
    TSquare,
    /// Stones on the board.
    Ply,
    /// X stones.
    XStones,
    /// O stones.
    OStones,
    /// `X` or `O`, or null once the game is over.
    ToMove,
    /// The Code Jam status words.
    Status,
    /// `X`, `O` or null.
    Winner,
    /// Completed lines of the winner.
    WinLines,
    /// Whether a completed line of the winner holds the `T`.
    TInWin,
    /// `win`, `draw` or `loss` for the side to move.
    Value,
    /// Plies to the end under perfect play.
    Distance,
    /// Move orders from the setup's empty board that reach the board.
    Orders,
    /// Complete games through the board that X wins.
    GamesX,
    /// Complete games through the board that O wins.
    GamesO,
    /// Complete games through the board that end drawn.
    GamesDraw,
    /// The orbit's representative under every symmetry of the lines.
    Orbit,
    /// The orbit's representative under rotations and reflections.
    OrbitDihedral,
}

/// What a column holds, for the engines that type it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Text of one symbol a square.
    Text,
    /// A small whole number, perhaps null.
    Int,
    /// A count that can exceed 32 bits.
    Long,
    /// True or false.
    Bool,
    /// One of a few words, perhaps null.
    Word,
}

impl Column {
    /// Every column, in the table's order.
    pub const ALL: [Column; 18] = [
        Column::Board,
        Column::TSquare,
        Column::Ply,
        Column::XStones,
        Column::OStones,
        Column::ToMove,
        Column::Status,
        Column::Winner,
        Column::WinLines,
        Column::TInWin,
        Column::Value,
        Column::Distance,
        Column::Orders,
        Column::GamesX,
        Column::GamesO,
        Column::GamesDraw,
        Column::Orbit,
        Column::OrbitDihedral,
    ];

    /// Its name in SQL and in the exported files.
    pub fn name(self) -> &'static str {
        match self {
            Column::Board => "board",
            Column::TSquare => "t_square",
            Column::Ply => "ply",
            Column::XStones => "x_stones",
            Column::OStones => "o_stones",
            Column::ToMove => "to_move",
            Column::Status => "status",
            Column::Winner => "winner",
            Column::WinLines => "win_lines",
            Column::TInWin => "t_in_win",
            Column::Value => "value",
            Column::Distance => "distance",
            Column::Orders => "orders",
            Column::GamesX => "games_x",
            Column::GamesO => "games_o",
            Column::GamesDraw => "games_draw",
            Column::Orbit => "orbit",
            Column::OrbitDihedral => "orbit_dihedral",
        }
    }

    /// The column of a name.
    pub fn from_name(name: &str) -> Option<Column> {
        Column::ALL.into_iter().find(|c| c.name() == name)
    }

    /// What it means, in one line.
    pub fn meaning(self) -> &'static str {
        match self {
            Column::Board => "the board, one symbol a square row by row (X O T .)",
            Column::TSquare => "the square of the T, 0-15 row by row; null without a T",
            Column::Ply => "stones on the board (X and O)",
            Column::XStones => "X stones",
            Column::OStones => "O stones",
            Column::ToMove => "'X' or 'O'; null once the game is over",
            Column::Status => "'X won', 'O won', 'Draw' or 'Game has not completed'",
            Column::Winner => "'X', 'O' or null",
            Column::WinLines => "completed lines of the winner; 0 without a winner",
            Column::TInWin => "whether a completed line of the winner passes through the T",
            Column::Value => {
                "'win', 'draw' or 'loss' under perfect play for the side to move \
                 (a won board is a loss, a full board a draw)"
            }
            Column::Distance => {
                "plies to the end under perfect play, the winner fast and the loser slow; \
                 0 on a finished board"
            }
            Column::Orders => "move orders from the setup's empty board that reach the board",
            Column::GamesX => "complete games through the board that X wins",
            Column::GamesO => "complete games through the board that O wins",
            Column::GamesDraw => "complete games through the board that end in a draw",
            Column::Orbit => {
                "the smallest board text of the orbit under the line-preserving symmetries \
                 (32 on 4×4), the T moved along"
            }
            Column::OrbitDihedral => {
                "the smallest board text of the orbit under rotations and reflections"
            }
        }
    }

    /// What it holds.
    pub fn kind(self) -> Kind {
        match self {
            Column::Board | Column::Orbit | Column::OrbitDihedral => Kind::Text,
            Column::TSquare
            | Column::Ply
            | Column::XStones
            | Column::OStones
            | Column::WinLines
            | Column::Distance => Kind::Int,
            Column::Orders | Column::GamesX | Column::GamesO | Column::GamesDraw => Kind::Long,
            Column::TInWin => Kind::Bool,
            Column::ToMove | Column::Status | Column::Winner | Column::Value => Kind::Word,
        }
    }

    /// Whether it may be null.
    pub fn nullable(self) -> bool {
        matches!(self, Column::TSquare | Column::ToMove | Column::Winner)
    }

    /// The words a [`Kind::Word`] column uses (codes index them).
    pub fn words(self) -> &'static [&'static str] {
        match self {
            Column::ToMove | Column::Winner => &["X", "O"],
            Column::Status => &["X won", "O won", "Draw", "Game has not completed"],
            Column::Value => &["loss", "draw", "win"],
            _ => &[],
        }
    }

    /// Whether the counts of boards by setup, ply and status say it all: a query reading only
    /// such columns costs what counting costs, whatever order the rows come in.
    pub fn from_counts(self) -> bool {
        matches!(
            self,
            Column::TSquare
                | Column::Ply
                | Column::XStones
                | Column::OStones
                | Column::ToMove
                | Column::Status
                | Column::Winner
        )
    }

    /// Whether its values are few (small numbers, words, truth values), so that rows can be
    /// collapsed into runs on them; the others (texts and counts) can only be folded.
    pub fn small(self) -> bool {
        !matches!(self.kind(), Kind::Text | Kind::Long)
    }

    /// Whether perfect play is needed: the setup must then be solved from its last ply down.
    pub fn needs_play(self) -> bool {
        matches!(
            self,
            Column::Value | Column::Distance | Column::GamesX | Column::GamesO | Column::GamesDraw
        )
    }
}

/// How a column that is not [`Column::small`] is summed up over the rows of a run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fold {
    /// The smallest value (for a text, the first in byte order).
    Min,
    /// The largest value.
    Max,
    /// The sum (counts only).
    Sum,
}

impl Fold {
    /// Its name, as in SQL.
    pub fn name(self) -> &'static str {
        match self {
            Fold::Min => "min",
            Fold::Max => "max",
            Fold::Sum => "sum",
        }
    }

    /// The fold of two partial results.
    fn merge(self, a: i64, b: i64) -> i64 {
        match self {
            Fold::Min => a.min(b),
            Fold::Max => a.max(b),
            Fold::Sum => a.wrapping_add(b),
        }
    }
}

/// The values of one column over a chunk of rows.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// `width` bytes a row, back to back.
    Text {
        /// Bytes a row (the board's squares).
        width: usize,
        /// The rows' texts.
        bytes: Vec<u8>,
    },
    /// Whole numbers; a row is null where `valid` says false.
    Int {
        /// The values (0 where null).
        values: Vec<i32>,
        /// Which rows are not null; `None` when all are.
        valid: Option<Vec<bool>>,
    },
    /// Counts.
    Long(Vec<i64>),
    /// Truth values.
    Bool(Vec<bool>),
    /// Indexes into [`Column::words`]; -1 for null.
    Word(Vec<i8>),
}

/// Some rows of the table: the columns asked for, in the order asked.
#[derive(Clone, Debug, PartialEq)]
pub struct Chunk {
    /// Rows in the chunk.
    pub len: usize,
    /// One entry per column asked for.
    pub columns: Vec<Data>,
}

/// Rows per chunk: large enough that per-chunk costs vanish, small enough to share the work.
pub const CHUNK_ROWS: usize = 64 * 1024;

/// How to compute the table of a geometry: its columns, and the tables they need.
pub struct TableSpec {
    geometry: Geometry,
    columns: Vec<Column>,
    /// Columns folded over runs ([`TableSpec::runs`]), after the columns.
    folds: Vec<(Column, Fold)>,
    plain: TextOrder,
    /// The buffers of passes over setups that have ended, for the next ones.
    buffers: std::sync::Mutex<Vec<PassBuffers>>,
    full: Option<TextOrder>,
    dihedral: Option<TextOrder>,
    /// Both orders in one, when both orbits are folded.
    both: Option<TextOrder>,
}

/// The two values buffers and the two games buffers of a backward pass ([`TableSpec::solved`]).
struct PassBuffers([Vec<u8>; 2], [Vec<u64>; 2]);

/// One reachable board and what play says about it. (Laid out as written, counts first:
/// the layout the compiler picks splits them across words, and copying them stalls.)
#[derive(Copy, Clone, Debug)]
#[repr(C)]
struct Row {
    /// Complete games below the board by outcome (X won, O won, draw).
    below: [u64; 3],
    /// Perfect play, when asked for.
    value: Value,
    board: Board,
    status: Status,
}

impl TableSpec {
    /// The table of `columns` over geometry `g`.
    pub fn new(g: &Geometry, columns: &[Column]) -> TableSpec {
        TableSpec::folding(g, columns, &[])
    }

    /// The table of runs of `keys` (all [`Column::small`]), each with `folds` of other columns
    /// over its rows: what [`TableSpec::runs`] computes.
    pub fn folding(g: &Geometry, keys: &[Column], folds: &[(Column, Fold)]) -> TableSpec {
        let order = |want: Column, group: fn(&Geometry) -> Vec<symmetry::Perm>| {
            (keys.contains(&want) || folds.iter().any(|&(c, _)| c == want))
                .then(|| TextOrder::new(g, &group(g)))
        };
        TableSpec {
            geometry: g.clone(),
            columns: keys.to_vec(),
            folds: folds.to_vec(),
            plain: TextOrder::new(g, &[]),
            buffers: Default::default(),
            full: order(Column::Orbit, symmetry::automorphisms),
            dihedral: order(Column::OrbitDihedral, symmetry::dihedral),
            both: [Column::Orbit, Column::OrbitDihedral]
                .iter()
                .all(|&c| folds.iter().any(|&(f, _)| f == c))
                .then(|| TextOrder::nested(g, &symmetry::dihedral(g), &symmetry::automorphisms(g)))
                .flatten(),
        }
    }

    /// Whether `c` is read, as a column or folded.
    fn reads(&self, c: Column) -> bool {
        self.columns.contains(&c) || self.folds.iter().any(|&(f, _)| f == c)
    }

    /// The columns, in order.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The columns of the chunks it makes: the columns, then the folded ones.
    pub fn read_columns(&self) -> Vec<Column> {
        let folded = self.folds.iter().map(|&(c, _)| c);
        self.columns.iter().copied().chain(folded).collect()
    }

    /// The geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Every row of setup `t`, in chunks of at most [`CHUNK_ROWS`] rows.
    pub fn setup(&self, t: u16) -> Vec<Chunk> {
        if self.columns.iter().all(|c| c.from_counts()) {
            let counts = count_setup(&self.geometry, t);
            let mut chunks = Vec::new();
            let mut groups = groups(&counts);
            let mut group = groups.next();
            while let Some((ply, status, left)) = group {
                let mut runs = Vec::new();
                let mut len = 0u64;
                let mut cur = Some((ply, status, left));
                while let Some((ply, status, left)) = cur {
                    let take = left.min(CHUNK_ROWS as u64 - len);
                    runs.push((ply, status, take));
                    len += take;
                    cur = if take < left {
                        Some((ply, status, left - take))
                    } else {
                        groups.next()
                    };
                    if len == CHUNK_ROWS as u64 {
                        break;
                    }
                }
                chunks.push(self.counted_chunk(t, &runs));
                group = cur;
            }
            chunks
        } else {
            self.rows_by(t, |rows| self.chunk(t, rows))
        }
    }

    /// `sink` of every row of setup `t`, a task's rows at a time, in a fixed order: the walk's
    /// order when play is not needed, else ply by ply and in slot order within a ply.
    fn rows_by<R: Send>(&self, t: u16, sink: impl Fn(&[Row]) -> R + Sync) -> Vec<R> {
        if Column::ALL.iter().any(|&c| c.needs_play() && self.reads(c)) {
            self.solved(t, sink)
        } else {
            let boards = walked_boards(&self.geometry, t);
            boards
                .par_chunks(CHUNK_ROWS)
                .map(|part| {
                    let mut rows = row_buffer();
                    rows.extend(part.iter().map(|&(board, status)| Row {
                        board,
                        status,
                        value: UNSOLVED,
                        below: [0; 3],
                    }));
                    let out = sink(&rows);
                    rows.give_back();
                    out
                })
                .collect()
        }
    }

    /// The rows of setup `t` as runs of equal rows: one row per ply and status, and how many
    /// boards each stands for. Only for columns that counts describe
    /// ([`Column::from_counts`]).
    pub fn runs(&self, t: u16) -> (Chunk, Vec<u64>) {
        assert!(
            self.columns.iter().all(|c| c.small()),
            "runs are keyed by small columns only"
        );
        if self.folds.is_empty() && self.columns.iter().all(|c| c.from_counts()) {
            let counts = count_setup(&self.geometry, t);
            let (runs, weights): (Vec<_>, Vec<u64>) =
                groups(&counts).map(|(ply, s, n)| ((ply, s, 1), n)).unzip();
            return (self.counted_chunk(t, &runs), weights);
        }
        let mut all = Runs::default();
        for part in self.rows_by(t, |rows| self.collapse(t, rows)) {
            all.absorb(&part, &self.folds);
        }
        self.runs_chunk(&all)
    }

    /// The runs of some rows: one per distinct key, in the order first met.
    ///
    /// The small columns of a row are fixed by its stones, status, value and winning lines,
    /// so rows are first gathered on those (a few bits), and each gathering's key is worked
    /// out once, from one of its rows.
    fn collapse(&self, t: u16, rows: &[Row]) -> Runs {
        let g = &self.geometry;
        let start = Board::empty(t);
        let orders_needed = [
            Column::Orders,
            Column::GamesX,
            Column::GamesO,
            Column::GamesDraw,
        ]
        .iter()
        .any(|&c| self.reads(c));
        let lines_needed = self.reads(Column::WinLines) || self.reads(Column::TInWin);
        let n = self.folds.len();
        // Per gathering met: one of its rows, and its rows' count and folds.
        let mut examples: Vec<(u32, &Row)> = Vec::new();
        let mut weights: Vec<u64> = Vec::new();
        let mut gathered: Vec<i64> = Vec::new();
        let mut folded = vec![0i64; n];
        let mut seen = Kept::take(&GATHERINGS, |seen| {
            if seen.is_empty() {
                *seen = vec![u32::MAX; 1 << 19];
            }
        });
        for r in rows {
            let mut lines = 0;
            if lines_needed && matches!(r.status, Status::XWon | Status::OWon) {
                lines = (small_value(g, t, Column::WinLines, r).unwrap_or(0) << 1)
                    | small_value(g, t, Column::TInWin, r).unwrap_or(0);
            }
            debug_assert!(lines < 32 && r.value.distance < 32 && r.board.ply() < 32);
            // X moves first, so the stones of each side follow from the ply.
            let gathering = (r.board.ply() as usize)
                | (r.status.index()) << 5
                | (r.value.outcome as usize) << 7
                | (r.value.distance as usize) << 9
                | (lines as usize) << 14;
            let orders = if orders_needed {
                sequences(g, start, r.board, r.status)
            } else {
                0
            };
            let orbits = self.both.as_ref().map(|o| o.smallest_codes(r.board));
            for (f, &(c, _)) in folded.iter_mut().zip(&self.folds) {
                *f = self.large_value(c, r, orders, orbits);
            }
            let i = seen[gathering];
            if i == u32::MAX {
                seen[gathering] = examples.len() as u32;
                examples.push((gathering as u32, r));
                weights.push(1);
                gathered.extend_from_slice(&folded);
            } else {
                let i = i as usize;
                weights[i] += 1;
                let mine = &mut gathered[i * n..][..n];
                for ((m, &v), &(_, f)) in mine.iter_mut().zip(&folded).zip(&self.folds) {
                    *m = f.merge(*m, v);
                }
            }
        }
        for &(gathering, _) in &examples {
            seen[gathering as usize] = u32::MAX;
        }
        seen.give_back();
        let mut runs = Runs::default();
        for (i, (_, r)) in examples.into_iter().enumerate() {
            let mut key = 0u128;
            for &c in &self.columns {
                // Each small value fits a byte; 0 stands for null.
                let byte = small_value(g, t, c, r).map_or(0, |v| v as u8 + 1);
                key = key << 8 | byte as u128;
            }
            runs.add(key, weights[i], &gathered[i * n..][..n], &self.folds);
        }
        runs
    }

    /// A column that is not small, on a row whose move orders are `orders` and whose orbits
    /// under rotations and reflections and under every symmetry are `orbits`, if known: a text
    /// as its board's number, which sorts as the text does ([`TextOrder`]).
    fn large_value(&self, c: Column, r: &Row, orders: u64, orbits: Option<(u32, u32)>) -> i64 {
        let orbit = |o: &Option<TextOrder>| {
            o.as_ref().expect("made for orbit").smallest_code(r.board) as i64
        };
        match c {
            Column::Board => self.plain.code(r.board) as i64,
            Column::Orbit => orbits.map_or_else(|| orbit(&self.full), |o| o.1 as i64),
            Column::OrbitDihedral => orbits.map_or_else(|| orbit(&self.dihedral), |o| o.0 as i64),
            Column::Orders => orders as i64,
            Column::GamesX => (orders * r.below[Status::XWon.index()]) as i64,
            Column::GamesO => (orders * r.below[Status::OWon.index()]) as i64,
            Column::GamesDraw => (orders * r.below[Status::Draw.index()]) as i64,
            _ => unreachable!("small columns are keys"),
        }
    }

    /// Runs as a chunk: the key columns, then the folded ones; and the runs' lengths.
    fn runs_chunk(&self, runs: &Runs) -> (Chunk, Vec<u64>) {
        let n = runs.keys.len();
        let keys = self.columns.len();
        let mut columns: Vec<Data> = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let shift = 8 * (keys - 1 - i);
                small_data(
                    c,
                    runs.keys
                        .iter()
                        .map(|&k| (k >> shift & 0xFF) as i32 - 1)
                        .map(|v| (v >= 0).then_some(v)),
                )
            })
            .collect();
        let width = self.geometry.cells() as usize;
        for (j, &(c, _)) in self.folds.iter().enumerate() {
            let values = runs.folded.iter().skip(j).step_by(self.folds.len().max(1));
            columns.push(match c.kind() {
                Kind::Text => {
                    let mut bytes = vec![0u8; n * width];
                    for (&code, out) in values.zip(bytes.chunks_exact_mut(width)) {
                        self.plain.write_text(code as u32, out);
                    }
                    Data::Text { width, bytes }
                }
                _ => Data::Long(values.copied().collect()),
            });
        }
        (Chunk { len: n, columns }, runs.weights.clone())
    }

    /// Every row of setup `t` with perfect play, ply by ply and in slot order within a ply.
    ///
    /// From the last ply down, each open board's value is the best of its moves' and its games
    /// below are the sum of its children's; only the next ply's values (one byte a slot) and,
    /// when asked for, game counts are kept while a ply is solved. A child's slot comes from its
    /// parent's without rebuilding a board ([`PlyIndex::child_bases`]), and each task of a ply
    /// turns its rows into a chunk at once, so no list of every row is ever held.
    fn solved<R: Send>(&self, t: u16, sink: impl Fn(&[Row]) -> R + Sync) -> Vec<R> {
        let g = &self.geometry;
        // The outcomes whose games are asked for (indexes of X won, O won, draw): only those
        // are carried down the plies, one count a slot each.
        let outcomes: Vec<usize> = [
            (Column::GamesX, Status::XWon),
            (Column::GamesO, Status::OWon),
            (Column::GamesDraw, Status::Draw),
        ]
        .into_iter()
        .filter(|&(c, _)| self.reads(c))
        .map(|(_, s)| s.index())
        .collect();
        let stride = outcomes.len();
        let games = stride > 0;
        let outcomes = &outcomes[..];
        let space = SetupSpace::explore(g, t);
        let squares = g.cells();
        let mut plies: Vec<Vec<R>> = Vec::with_capacity(space.plies.len());
        // Two buffers of each kind, swapped each ply: unreachable slots are never read, so
        // they are never cleared either.
        // Kept from setup to setup, as the system would otherwise hand them out afresh, a page
        // fault every few kilobytes.
        let mut buffers = self.buffers.lock().map(|mut b| b.pop()).ok().flatten();
        let [mut value, mut next_value] = buffers.as_mut().map_or_else(Default::default, |b| {
            [std::mem::take(&mut b.0[0]), std::mem::take(&mut b.0[1])]
        });
        let [mut below, mut next_below] = buffers.map_or_else(Default::default, |b| b.1);
        let empty_index = PlyIndex::new(squares, squares);
        for (ply, memo) in space.plies.iter().enumerate().rev() {
            let child_index = space.plies.get(ply + 1).map_or(&empty_index, |m| &m.index);
            let mover = if ply % 2 == 0 { Player::X } else { Player::O };
            let mover_bit = (mover == Player::X) as u32;
            // The one game a winning move ends, by outcome (X won, O won, draw).
            let won_by_mover = finished(Status::won_by(mover)).1;
            let open = memo.counts().open > 0;
            let slots = if open { memo.index.len() } else { 0 };
            value.resize(slots, 0);
            below.resize(slots * stride, 0);
            let words = memo.words();
            let (nv, nb) = (&next_value, &next_below);
            let solve = |task: usize, value: &mut [u8], below: &mut [u64]| -> Option<R> {
                let first_word = task * TASK_SLOTS / 64;
                let last_word = (first_word + TASK_SLOTS / 64).min(words);
                let mut decoder = memo.index.decoder();
                let mut under = [0u32; 16];
                let mut child_base = [0usize; 16];
                let mut last_taken = None;
                let mut rows = row_buffer();
                for (slot, status) in memo.slots_in(first_word..last_word) {
                    let (taken, pattern) = decoder.parts(slot);
                    let x = expand(pattern, taken);
                    let board = Board {
                        x,
                        o: taken & !x,
                        t,
                    };
                    let (v, b) = if status == Status::Open {
                        if last_taken != Some(taken) {
                            last_taken = Some(taken);
                            child_index.child_bases(taken, &mut under, &mut child_base);
                        }
                        let empty = g.full() & !board.filled();
                        // A move completing a line wins at once; the last square, if it does
                        // not, fills the board; every other move leaves an open board, whose
                        // value and games are in the next ply's tables. Values are kept as
                        // keys ([`Value::key`]): the best move is the largest, found without
                        // a branch on the child's value.
                        let winning = g.completing(board.counting_for(mover)) & empty;
                        let (key, sum) = if winning != 0 && !games {
                            (WIN_NOW, [0; 3])
                        } else if empty & (empty - 1) == 0 {
                            if winning != 0 {
                                (WIN_NOW, won_by_mover)
                            } else {
                                (DRAW_NOW, [0, 0, 1])
                            }
                        } else {
                            let p = pattern as u32;
                            let mut best = if winning != 0 { WIN_NOW } else { 0 };
                            let wins = winning.count_ones() as u64;
                            let mut sum = won_by_mover.map(|w| w * wins);
                            let mut rest = empty & !winning;
                            while rest != 0 {
                                let square = rest.trailing_zeros() as usize;
                                rest &= rest - 1;
                                let child = insert_bit(p, under[square], mover_bit);
                                let c = child_base[square] + colex_rank(child as u16) as usize;
                                best = best.max(Value::AFTER_MOVE[nv[c] as usize & 127]);
                                debug_assert!(stride < 3 || outcomes == [0, 1, 2]);
                                if stride == 3 {
                                    // Every outcome, in order: a fixed stride, unrolled.
                                    let games = &nb[c * 3..][..3];
                                    sum[0] += games[0];
                                    sum[1] += games[1];
                                    sum[2] += games[2];
                                } else {
                                    for (j, &k) in outcomes.iter().enumerate() {
                                        sum[k] += nb[c * stride + j];
                                    }
                                }
                            }
                            (best, sum)
                        };
                        let v = Value::from_key(key, empty.count_ones());
                        let local = slot - task * TASK_SLOTS;
                        value[local] = key;
                        if games {
                            for (j, &k) in outcomes.iter().enumerate() {
                                below[local * stride + j] = sum[k];
                            }
                        }
                        (v, sum)
                    } else {
                        finished(status)
                    };
                    rows.push(Row {
                        board,
                        status,
                        value: v,
                        below: b,
                    });
                }
                let out = (!rows.is_empty()).then(|| sink(&rows));
                rows.give_back();
                out
            };
            let chunks: Vec<Option<R>> = match (open, games) {
                (true, true) => value
                    .par_chunks_mut(TASK_SLOTS)
                    .zip(below.par_chunks_mut(TASK_SLOTS * stride))
                    .enumerate()
                    .map(|(task, (v, b))| solve(task, v, b))
                    .collect(),
                (true, false) => value
                    .par_chunks_mut(TASK_SLOTS)
                    .enumerate()
                    .map(|(task, v)| solve(task, v, &mut []))
                    .collect(),
                (false, _) => (0..words.div_ceil(TASK_SLOTS / 64))
                    .into_par_iter()
                    .map(|task| solve(task, &mut [], &mut []))
                    .collect(),
            };
            plies.push(chunks.into_iter().flatten().collect());
            std::mem::swap(&mut value, &mut next_value);
            std::mem::swap(&mut below, &mut next_below);
        }
        if let Ok(mut kept) = self.buffers.lock() {
            kept.push(PassBuffers([value, next_value], [below, next_below]));
        }
        plies.into_iter().rev().flatten().collect()
    }

    /// A chunk of the rows that counts alone describe: runs of `n` rows of one ply and status.
    fn counted_chunk(&self, t: u16, runs: &[(u32, Status, u64)]) -> Chunk {
        let len: usize = runs.iter().map(|r| r.2 as usize).sum();
        let t_square = (t != 0).then(|| t.trailing_zeros() as i32);
        let repeat = |f: &dyn Fn(u32, Status) -> i32| {
            let mut values = Vec::with_capacity(len);
            for &(ply, s, n) in runs {
                values.resize(values.len() + n as usize, f(ply, s));
            }
            values
        };
        let columns = self
            .columns
            .iter()
            .map(|&c| match c {
                Column::TSquare => Data::Int {
                    values: vec![t_square.unwrap_or(0); len],
                    valid: t_square.is_none().then(|| vec![false; len]),
                },
                Column::Ply => Data::Int {
                    values: repeat(&|ply, _| ply as i32),
                    valid: None,
                },
                Column::XStones => Data::Int {
                    values: repeat(&|ply, _| ply.div_ceil(2) as i32),
                    valid: None,
                },
                Column::OStones => Data::Int {
                    values: repeat(&|ply, _| (ply / 2) as i32),
                    valid: None,
                },
                Column::ToMove => Data::Word(
                    repeat(&|ply, s| match s {
                        Status::Open => (ply % 2) as i32,
                        _ => -1,
                    })
                    .into_iter()
                    .map(|v| v as i8)
                    .collect(),
                ),
                Column::Status => Data::Word(
                    repeat(&|_, s| s.index() as i32)
                        .into_iter()
                        .map(|v| v as i8)
                        .collect(),
                ),
                Column::Winner => Data::Word(
                    repeat(&|_, s| match s {
                        Status::XWon => 0,
                        Status::OWon => 1,
                        _ => -1,
                    })
                    .into_iter()
                    .map(|v| v as i8)
                    .collect(),
                ),
                _ => unreachable!("only columns that counts describe"),
            })
            .collect();
        Chunk { len, columns }
    }

    fn chunk(&self, t: u16, rows: &[Row]) -> Chunk {
        let g = &self.geometry;
        let n = rows.len();
        let start = Board::empty(t);
        let text = |f: &dyn Fn(Board) -> u32| {
            let width = g.cells() as usize;
            let mut bytes = vec![0u8; n * width];
            for (r, out) in rows.iter().zip(bytes.chunks_exact_mut(width)) {
                self.plain.write_text(f(r.board), out);
            }
            Data::Text { width, bytes }
        };
        // The move orders reaching each row, shared by the orders and games columns.
        let orders: Vec<u64> = if self.columns.iter().any(|c| {
            matches!(
                c,
                Column::Orders | Column::GamesX | Column::GamesO | Column::GamesDraw
            )
        }) {
            rows.iter()
                .map(|r| sequences(g, start, r.board, r.status))
                .collect()
        } else {
            Vec::new()
        };
        let games = |k: usize| {
            Data::Long(
                rows.iter()
                    .zip(&orders)
                    .map(|(r, &n)| (n * r.below[k]) as i64)
                    .collect(),
            )
        };
        let orbit = |o: &Option<TextOrder>| {
            let o = o.as_ref().expect("made for orbit");
            text(&|b| o.smallest_code(b))
        };
        let columns = self
            .columns
            .iter()
            .map(|&c| match c {
                Column::Board => text(&|b| self.plain.code(b)),
                Column::Orders => Data::Long(orders.iter().map(|&n| n as i64).collect()),
                Column::GamesX => games(Status::XWon.index()),
                Column::GamesO => games(Status::OWon.index()),
                Column::GamesDraw => games(Status::Draw.index()),
                Column::Orbit => orbit(&self.full),
                Column::OrbitDihedral => orbit(&self.dihedral),
                small => small_data(small, rows.iter().map(|r| small_value(g, t, small, r))),
            })
            .collect();
        Chunk { len: n, columns }
    }
}

/// A [`Column::small`] column's value on a row of setup `t`: a number, a word's index or a
/// truth value (1 for true); `None` for null.
#[inline]
fn small_value(g: &Geometry, t: u16, c: Column, r: &Row) -> Option<i32> {
    let winner = match r.status {
        Status::XWon => Some(Player::X),
        Status::OWon => Some(Player::O),
        _ => None,
    };
    let winning_lines = || {
        winner.map(|p| {
            let held = r.board.counting_for(p);
            g.lines.iter().copied().filter(move |&l| l & !held == 0)
        })
    };
    match c {
        Column::TSquare => (t != 0).then(|| t.trailing_zeros() as i32),
        Column::Ply => Some(r.board.ply() as i32),
        Column::XStones => Some(r.board.x.count_ones() as i32),
        Column::OStones => Some(r.board.o.count_ones() as i32),
        Column::ToMove => (r.status == Status::Open).then(|| r.board.to_move() as i32),
        Column::Status => Some(r.status.index() as i32),
        Column::Winner => winner.map(|p| p as i32),
        Column::WinLines => Some(winning_lines().map_or(0, |lines| lines.count() as i32)),
        Column::TInWin => Some(winning_lines().is_some_and(|mut l| l.any(|l| l & t != 0)) as i32),
        Column::Value => Some(r.value.outcome as i32),
        Column::Distance => Some(r.value.distance as i32),
        _ => unreachable!("{c:?} is not small"),
    }
}

/// The values of a [`Column::small`] column (from [`small_value`]) as its data.
fn small_data(c: Column, values: impl Iterator<Item = Option<i32>>) -> Data {
    match c.kind() {
        Kind::Int => {
            let values: Vec<Option<i32>> = values.collect();
            let valid = values
                .contains(&None)
                .then(|| values.iter().map(Option::is_some).collect());
            Data::Int {
                values: values.into_iter().map(|v| v.unwrap_or(0)).collect(),
                valid,
            }
        }
        Kind::Word => Data::Word(values.map(|v| v.map_or(-1, |v| v as i8)).collect()),
        Kind::Bool => Data::Bool(values.map(|v| v == Some(1)).collect()),
        Kind::Text | Kind::Long => unreachable!("{c:?} is not small"),
    }
}

/// Rows collapsed into runs: per distinct key (the small columns' values, a byte each), how
/// many rows and the folds of the other columns over them.
#[derive(Default)]
struct Runs {
    index: hashbrown::HashMap<u128, usize>,
    keys: Vec<u128>,
    weights: Vec<u64>,
    /// The folds of each run, one after another.
    folded: Vec<i64>,
}

impl Runs {
    /// Adds `weight` rows of key `key` whose folds are `folded`; true when the key is new.
    #[inline]
    fn add(&mut self, key: u128, weight: u64, folded: &[i64], folds: &[(Column, Fold)]) -> bool {
        match self.index.entry(key) {
            hashbrown::hash_map::Entry::Occupied(e) => {
                let i = *e.get();
                self.weights[i] += weight;
                let mine = &mut self.folded[i * folds.len()..][..folds.len()];
                for ((m, &v), &(_, f)) in mine.iter_mut().zip(folded).zip(folds) {
                    *m = f.merge(*m, v);
                }
                false
            }
            hashbrown::hash_map::Entry::Vacant(e) => {
                e.insert(self.keys.len());
                self.keys.push(key);
                self.weights.push(weight);
                self.folded.extend_from_slice(folded);
                true
            }
        }
    }

    /// Adds every run of `other`, in its order.
    fn absorb(&mut self, other: &Runs, folds: &[(Column, Fold)]) {
        let n = folds.len();
        for (i, (&key, &weight)) in other.keys.iter().zip(&other.weights).enumerate() {
            self.add(key, weight, &other.folded[i * n..][..n], folds);
        }
    }
}

/// The boards of each ply and status that counts hold, as `(ply, status, boards)`, empty
/// groups left out.
fn groups(counts: &[ByStatus<u64>]) -> impl Iterator<Item = (u32, Status, u64)> + '_ {
    counts.iter().enumerate().flat_map(|(ply, c)| {
        c.iter()
            .filter(|&(_, &n)| n > 0)
            .map(move |(s, &n)| (ply as u32, s, n))
    })
}

/// A finished board's value for its side to move, and the one game ending there.
fn finished(status: Status) -> (Value, [u64; 3]) {
    let mut below = [0; 3];
    below[status.index()] = 1;
    let outcome = if status == Status::Draw {
        Outcome::Draw
    } else {
        Outcome::Loss
    };
    (
        Value {
            outcome,
            distance: 0,
        },
        below,
    )
}

/// The key of a move that wins at once, seen by its mover.
const WIN_NOW: u8 = Value {
    outcome: Outcome::Win,
    distance: 1,
}
.key();

/// The key of a move that fills the board without a line, seen by its mover.
const DRAW_NOW: u8 = Value {
    outcome: Outcome::Draw,
    distance: 1,
}
.key();

/// The value of rows whose perfect play was not asked for.
const UNSOLVED: Value = Value {
    outcome: Outcome::Draw,
    distance: 0,
};

/// Every reachable board of setup `t` with its status, in the order of the engine's walk.
fn walked_boards(g: &Geometry, t: u16) -> Vec<(Board, Status)> {
    /// As for counting: a few thousand subtrees at ply 4.
    const SPLIT: u32 = 4;
    let parts = engine::fold_tree(
        &TurnGame(SetupGame { geometry: g, t }),
        SPLIT,
        Vec::new,
        |boards: &mut Vec<(Board, Status)>, _, p, status| boards.push((p.board, status)),
        |_| {},
    );
    parts.concat()
}

/// A buffer that each thread keeps from task to task: a fresh one each time would cost the
/// system a page fault every few kilobytes. Taken by a task and given back at its end; a task
/// that finds its thread's buffer taken (by a task it runs within) gets a new one.
struct Kept<T: 'static> {
    home: &'static std::thread::LocalKey<std::cell::Cell<Vec<T>>>,
    vec: Vec<T>,
}

thread_local! {
    /// A task's rows.
    static ROWS: std::cell::Cell<Vec<Row>> = const { std::cell::Cell::new(Vec::new()) };
    /// Where each gathering of rows met by a task ([`TableSpec::collapse`]) is, indexed by
    /// its bits (ply, status, value, distance, winning lines): `u32::MAX` where none is, and
    /// everywhere between tasks.
    static GATHERINGS: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
}

impl<T> Kept<T> {
    /// The thread's buffer at `home`, readied by `ready`.
    fn take(
        home: &'static std::thread::LocalKey<std::cell::Cell<Vec<T>>>,
        ready: impl FnOnce(&mut Vec<T>),
    ) -> Kept<T> {
        let mut vec = home.take();
        ready(&mut vec);
        Kept { home, vec }
    }

    /// Keeps the buffer for the thread's next task.
    fn give_back(self) {
        self.home.set(self.vec);
    }
}

impl<T> std::ops::Deref for Kept<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.vec
    }
}

impl<T> std::ops::DerefMut for Kept<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.vec
    }
}

/// The thread's buffer of rows, empty.
fn row_buffer() -> Kept<Row> {
    Kept::take(&ROWS, |rows| {
        rows.clear();
        rows.reserve(TASK_SLOTS);
    })
}

/// Slots handed to one task of a ply's pass: at most one chunk of rows.
const TASK_SLOTS: usize = CHUNK_ROWS;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tictactoe::explain;

    fn cell(chunks: &[Chunk], column: usize) -> Vec<String> {
        let mut out = Vec::new();
        for c in chunks {
            match &c.columns[column] {
                Data::Text { width, bytes } => out.extend(
                    bytes
                        .chunks(*width)
                        .map(|b| String::from_utf8(b.to_vec()).unwrap()),
                ),
                Data::Int { values, valid } => {
                    out.extend(values.iter().enumerate().map(|(i, v)| {
                        match valid.as_ref().is_some_and(|ok| !ok[i]) {
                            true => "null".to_string(),
                            false => v.to_string(),
                        }
                    }))
                }
                Data::Long(v) => out.extend(v.iter().map(|v| v.to_string())),
                Data::Bool(v) => out.extend(v.iter().map(|v| v.to_string())),
                Data::Word(v) => out.extend(v.iter().map(|v| v.to_string())),
            }
        }
        out
    }

    #[test]
    fn classic_tic_tac_toe_rows_agree_with_explain_and_play() {
        let g = Geometry::new(3, 3, 3, false).unwrap();
        let spec = TableSpec::new(&g, &Column::ALL);
        let chunks = spec.setup(0);
        let rows: usize = chunks.iter().map(|c| c.len).sum();
        assert_eq!(rows, 5478);
        let boards = cell(&chunks, 0);
        let games: Vec<Vec<String>> = (13..16).map(|k| cell(&chunks, k)).collect();
        // The empty board carries every game: 131,184 X wins, 77,904 O wins, 46,080 draws.
        let empty = boards.iter().position(|b| b == ".........").unwrap();
        let at = |k: usize| games[k][empty].parse::<u64>().unwrap();
        assert_eq!([at(0), at(1), at(2)], [131_184, 77_904, 46_080]);
        // Its value under perfect play is a draw in 9 plies.
        assert_eq!(cell(&chunks, 10)[empty], "1");
        assert_eq!(cell(&chunks, 11)[empty], "9");
        // The light columns come out the same from the walk.
        let light = TableSpec::new(&g, &[Column::Board, Column::Orders]).setup(0);
        let mut a: Vec<(String, String)> =
            cell(&light, 0).into_iter().zip(cell(&light, 1)).collect();
        let mut b: Vec<(String, String)> = boards.iter().cloned().zip(cell(&chunks, 12)).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }

    #[test]
    fn tomek_rows_agree_with_explain() {
        let g = Geometry::tomek();
        let spec = TableSpec::new(g, &Column::ALL);
        let t = 1 << 5;
        let chunks = spec.setup(t);
        let boards = cell(&chunks, 0);
        let value = cell(&chunks, 10);
        let distance = cell(&chunks, 11);
        let orders = cell(&chunks, 12);
        let games: Vec<Vec<String>> = (13..16).map(|k| cell(&chunks, k)).collect();
        let orbit = cell(&chunks, 16);
        for i in [0, boards.len() / 2, boards.len() - 1] {
            let b = explain::parse_board(&boards[i]).unwrap();
            let e = explain::explain(b);
            let play = e.play.unwrap();
            assert_eq!(value[i], (play.value.outcome as i8).to_string());
            assert_eq!(distance[i], play.value.distance.to_string());
            assert_eq!(orders[i], play.sequences.to_string());
            assert_eq!(games[0][i], play.games.x_won.to_string());
            assert_eq!(games[1][i], play.games.o_won.to_string());
            assert_eq!(games[2][i], play.games.draw.to_string());
            assert_eq!(orbit[i], e.orbit.smallest.to_line());
        }
    }

    /// Runs with folds, against the same sums worked out from the rows one by one.
    #[test]
    fn runs_fold_what_the_rows_hold() {
        use std::collections::BTreeMap;
        for (g, t) in [
            (Geometry::new(3, 3, 3, false).unwrap(), 0),
            (Geometry::tomek().clone(), 1 << 6),
        ] {
            let keys = [
                Column::Status,
                Column::Value,
                Column::WinLines,
                Column::TInWin,
            ];
            let folds = [
                (Column::Board, Fold::Max),
                (Column::Orbit, Fold::Min),
                (Column::OrbitDihedral, Fold::Max),
                (Column::GamesX, Fold::Sum),
                (Column::Orders, Fold::Min),
            ];
            let (chunk, weights) = TableSpec::folding(&g, &keys, &folds).runs(t);
            let mut columns = keys.to_vec();
            columns.extend(folds.iter().map(|&(c, _)| c));
            let rows = TableSpec::new(&g, &columns).setup(t);
            let cells: Vec<Vec<String>> = (0..columns.len()).map(|k| cell(&rows, k)).collect();
            let mut expected: BTreeMap<Vec<String>, (u64, Vec<String>)> = BTreeMap::new();
            let rows_read = cells[0].len();
            for i in 0..rows_read {
                let key: Vec<String> = cells[..keys.len()].iter().map(|c| c[i].clone()).collect();
                let entry = expected.entry(key).or_insert((0, Vec::new()));
                entry.0 += 1;
                let values = cells[keys.len()..].iter().map(|c| c[i].clone());
                if entry.1.is_empty() {
                    entry.1 = values.collect();
                    continue;
                }
                for ((old, new), &(_, f)) in entry.1.iter_mut().zip(values).zip(&folds) {
                    let number = |s: &str| s.parse::<u64>().unwrap();
                    *old = match f {
                        Fold::Sum => (number(old) + number(&new)).to_string(),
                        Fold::Min if new.parse::<u64>().is_ok() => {
                            number(old).min(number(&new)).to_string()
                        }
                        Fold::Min => old.clone().min(new),
                        Fold::Max => old.clone().max(new),
                    };
                }
            }
            let runs = std::slice::from_ref(&chunk);
            let got_cells: Vec<Vec<String>> = (0..columns.len()).map(|k| cell(runs, k)).collect();
            let mut got = BTreeMap::new();
            for (i, &w) in weights.iter().enumerate() {
                let key: Vec<String> = (0..keys.len()).map(|k| got_cells[k][i].clone()).collect();
                let values = (keys.len()..columns.len()).map(|k| got_cells[k][i].clone());
                assert!(
                    got.insert(key, (w, values.collect())).is_none(),
                    "one run a key"
                );
            }
            assert!(expected.len() > 5);
            assert_eq!(got, expected);
        }
    }

    #[test]
    #[cfg_attr(
        not(feature = "deep-tests"),
        ignore = "deep: run by `cargo test --release --all-features`"
    )]
    fn counted_columns_match_the_walked_rows() {
        let g = Geometry::tomek();
        let cols = [
            Column::Ply,
            Column::Status,
            Column::ToMove,
            Column::XStones,
            Column::Winner,
        ];
        let counted = TableSpec::new(g, &cols).setup(1 << 9);
        let mut with_board = vec![Column::Board];
        with_board.extend(cols);
        let walked = TableSpec::new(g, &with_board).setup(1 << 9);
        let rows = |chunks: &[Chunk], from: usize| {
            let mut v: Vec<Vec<String>> =
                (from..from + cols.len()).map(|k| cell(chunks, k)).collect();
            let mut out: Vec<Vec<String>> = (0..v[0].len())
                .map(|i| v.iter_mut().map(|c| std::mem::take(&mut c[i])).collect())
                .collect();
            out.sort();
            out
        };
        assert!(counted.iter().all(|c| c.len <= CHUNK_ROWS));
        assert_eq!(rows(&counted, 0), rows(&walked, 1));
    }
}
