//! The facts tomek computes for a position, which a problem's verdict rules read: whether play
//! reaches it, who has a line, whether the board is full, who moves next, whether the game is
//! over, the ply, and perfect play.
//!
//! The first player's stones are the board's `x`, the second's its `o`, the joker its `t`:
//! whoever moves first is X to the rules.

use crate::outcome::{Player, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::explain::Outcome;
use crate::tictactoe::reach::{self, Checks};
use crate::tictactoe::rules::Geometry;

/// Who has a whole line (the joker counting for both).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    /// Nobody.
    None,
    /// The first player only.
    First,
    /// The second player only.
    Second,
    /// Both players (never in play).
    Both,
}

impl Line {
    /// The words a description uses.
    pub const WORDS: [(&'static str, Line); 4] = [
        ("none", Line::None),
        ("first", Line::First),
        ("second", Line::Second),
        ("both", Line::Both),
    ];
}

/// Who moves next, by the stone counts alone.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Next {
    /// As many stones each: the first player.
    First,
    /// The first player has one more: the second player.
    Second,
    /// The counts fit no game.
    Neither,
}

impl Next {
    /// The words a description uses.
    pub const WORDS: [(&'static str, Next); 3] = [
        ("first", Next::First),
        ("second", Next::Second),
        ("neither", Next::Neither),
    ];
}

/// Who wins from a reachable position under perfect play (on a finished board, who won).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    /// The first player.
    First,
    /// The second player.
    Second,
    /// Nobody: a draw.
    Nobody,
}

impl Winner {
    /// The words a description uses.
    pub const WORDS: [(&'static str, Winner); 3] = [
        ("first", Winner::First),
        ("second", Winner::Second),
        ("nobody", Winner::Nobody),
    ];
}

/// Everything a verdict rule can ask of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Facts {
    /// Whether play reaches the position (first player first, play stopping at the first line).
    pub reachable: bool,
    /// Who has a line.
    pub line: Line,
    /// Whether every square holds a stone or the joker.
    pub full: bool,
    /// Who moves next by the counts.
    pub next: Next,
    /// Whether someone has a line or the board is full.
    pub over: bool,
    /// Stones on the board.
    pub ply: u32,
    /// Whether the side to move (by the counts) has a move that completes a line, on a board
    /// where the game is not over.
    pub wins_now: bool,
    /// Perfect play for the side to move, on a reachable position still open (when asked for).
    pub value: Option<Outcome>,
    /// Who wins under perfect play, on a reachable position (when asked for).
    pub winner: Option<Winner>,
    /// The first square in reading order (row by row) where the side to move starts a forced
    /// win, on a reachable open position it wins (when perfect play is asked for).
    pub forced_win: Option<u8>,
    /// Plies to the end of the game under perfect play, the winner winning as fast as it can
    /// and the loser holding out as long as it can (a draw fills the board), on a reachable
    /// position; 0 when the game is over (when asked for).
    pub distance: Option<u32>,
}

/// The facts of `b`, with the rules of play held to `checks` and the lines of `g`; perfect play
/// from `values` when given (and the distance to the end when `values` is asked for it, see
/// [`Values::want_distance`]).
pub fn facts_with(g: &Geometry, b: Board, checks: Checks, values: Option<&mut Values>) -> Facts {
    let reachable = reach::check_with(g, b, checks).is_ok();
    facts_given(g, b, checks, reachable, values)
}

/// [`facts_with`] with reachability already known (by a look-up in the set of reachable
/// positions, say): the rest of the facts are a few table look-ups, and perfect play a
/// search in `values`.
pub fn facts_given(
    g: &Geometry,
    b: Board,
    checks: Checks,
    reachable: bool,
    values: Option<&mut Values>,
) -> Facts {
    let mut f = plain_facts(g, b, checks, reachable);
    if let (Some(values), true) = (values, reachable) {
        if f.over {
            f.set_result(values.want_distance);
        } else {
            let mover = f.mover();
            let (v, d) = values.solve(g, b, mover);
            let forced_win = if v == Outcome::Win && values.want_forced_win {
                values.forced_win(g, b, mover).map(|s| s as u8)
            } else {
                None
            };
            f.set_value(v, d.filter(|_| values.want_distance), forced_win);
        }
    }
    f
}

/// The facts of `b` that need no search: every fact but perfect play, which is left unset.
#[inline]
pub fn plain_facts(g: &Geometry, b: Board, checks: Checks, reachable: bool) -> Facts {
    let (first, second) = (
        g.wins(b, Player::X),
        g.has_line(checks.counting_for(b, Player::O)),
    );
    let line = match (first, second) {
        (false, false) => Line::None,
        (true, false) => Line::First,
        (false, true) => Line::Second,
        (true, true) => Line::Both,
    };
    let full = b.filled() == g.full();
    let (x, o) = (b.x.count_ones(), b.o.count_ones());
    let next = if x == o {
        Next::First
    } else if x == o + 1 {
        Next::Second
    } else {
        Next::Neither
    };
    let over = line != Line::None || full;
    let mover = if next == Next::First {
        Player::X
    } else {
        Player::O
    };
    let wins_now = !over
        && next != Next::Neither
        && g.completing(checks.counting_for(b, mover)) & !b.filled() & g.full() != 0;
    Facts {
        reachable,
        line,
        full,
        next,
        over,
        ply: x + o,
        wins_now,
        value: None,
        winner: None,
        forced_win: None,
        distance: None,
    }
}

impl Facts {
    /// The facts as one number, each in its own bits, the ply highest: a cheap key for counting
    /// positions by their facts, and sorting by it sorts by ply first. [`Facts::unpack`] reads
    /// it back.
    pub fn pack(&self) -> u64 {
        let opt = |v: Option<u64>| v.map_or(0, |v| v + 1);
        u64::from(self.reachable)
            | (self.line as u64) << 1
            | u64::from(self.full) << 3
            | (self.next as u64) << 4
            | u64::from(self.over) << 6
            | u64::from(self.wins_now) << 7
            | opt(self.value.map(|v| v as u64)) << 8
            | opt(self.winner.map(|w| w as u64)) << 12
            | opt(self.forced_win.map(u64::from)) << 16
            | opt(self.distance.map(u64::from)) << 24
            | u64::from(self.ply) << 32
    }

    /// The facts [`Facts::pack`] made `k` of.
    pub fn unpack(k: u64) -> Facts {
        let field = |at: u32, bits: u32| (k >> at & ((1 << bits) - 1)) as usize;
        let opt = |at: u32, bits: u32| field(at, bits).checked_sub(1);
        const OUTCOMES: [Outcome; 3] = [Outcome::Loss, Outcome::Draw, Outcome::Win];
        Facts {
            reachable: field(0, 1) == 1,
            line: Line::WORDS[field(1, 2)].1,
            full: field(3, 1) == 1,
            next: Next::WORDS[field(4, 2)].1,
            over: field(6, 1) == 1,
            wins_now: field(7, 1) == 1,
            value: opt(8, 4).map(|v| OUTCOMES[v]),
            winner: opt(12, 4).map(|w| Winner::WORDS[w].1),
            forced_win: opt(16, 8).map(|s| s as u8),
            distance: opt(24, 8).map(|d| d as u32),
            ply: field(32, 8) as u32,
        }
    }

    /// The side to move by the counts (the first player when they fit no game).
    #[inline]
    pub fn mover(&self) -> Player {
        if self.next == Next::Second {
            Player::O
        } else {
            Player::X
        }
    }

    /// Sets perfect play on a reachable position that is over: who won, and a distance of 0
    /// when `distance` is asked for.
    #[inline]
    pub fn set_result(&mut self, distance: bool) {
        self.winner = Some(match self.line {
            Line::First => Winner::First,
            Line::Second => Winner::Second,
            _ => Winner::Nobody,
        });
        self.distance = distance.then_some(0);
    }

    /// Sets perfect play on a reachable open position: its value for the side to move, the
    /// plies to the end and the first forced win when known.
    #[inline]
    pub fn set_value(&mut self, v: Outcome, distance: Option<u8>, forced_win: Option<u8>) {
        self.value = Some(v);
        self.distance = distance.map(u32::from);
        self.forced_win = forced_win;
        self.winner = Some(match (v, self.mover()) {
            (Outcome::Draw, _) => Winner::Nobody,
            (Outcome::Win, Player::X) | (Outcome::Loss, Player::O) => Winner::First,
            _ => Winner::Second,
        });
    }
}

/// Squares per page of [`Values`]' table.
const PAGE_BITS: u32 = 14;

/// `B3[m]`: the eight squares of `m` read as digits 0 or 1 of a number in base 3.
const B3: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut m = 0;
    while m < 256 {
        let (mut v, mut p, mut i) = (0u32, 1u32, 0);
        while i < 8 {
            if m >> i & 1 == 1 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// The squares of `m` read in base 3 (each 0 or 1), over up to 16 squares.
#[inline]
fn base3(m: u16) -> u32 {
    B3[(m & 0xFF) as usize] + B3[(m >> 8) as usize] * 6561
}

/// A board's setup (no joker 0, the joker on square `k` `k + 1`) and its grid within the
/// setup: the squares without the joker read in base 3 from the first (empty 0, first player
/// 1, second player 2), the order of [`super::Problem::for_each_grid`].
#[inline]
pub fn setup_code(b: Board) -> (usize, u32) {
    if b.t == 0 {
        (0, base3(b.x) + 2 * base3(b.o))
    } else {
        let low = b.t - 1;
        let squeeze = |m: u16| (m & low) | ((m >> 1) & !low);
        (
            b.t.trailing_zeros() as usize + 1,
            base3(squeeze(b.x)) + 2 * base3(squeeze(b.o)),
        )
    }
}

/// A board's place in a dense numbering of every grid of the geometry, setup after setup in
/// the order of [`super::Problem::for_each_grid`] (see [`setup_code`]).
#[inline]
pub fn grid_index(g: &Geometry, b: Board) -> u64 {
    let (setup, code) = setup_code(b);
    if setup == 0 {
        code as u64
    } else {
        3u64.pow(g.cells()) + (setup as u64 - 1) * 3u64.pow(g.cells() - 1) + code as u64
    }
}

/// Perfect play, remembered: the result for the side to move of every open board asked about
/// and of every board below it, with the distance to the end when asked. A board's value
/// depends on the board alone, so one table serves every question of a geometry.
///
/// The table is dense, one byte a grid of the board (see [`grid_index`]), in pages allocated
/// as the search first touches them: a search over a whole 4×4 board fills 43 MB, where a
/// hash table of the same boards took over a gigabyte, and each look-up is an array read.
#[derive(Clone, Default)]
pub struct Values {
    table: Paged,
    /// What the searches for one question ([`Values::outcome`]) have proved, bits of
    /// `WIN_KNOWN | WIN | HOLD_KNOWN | HOLD` a grid: whether the side to move forces a win,
    /// and whether it forces at least a draw.
    proofs: Proofs,
    /// Whether [`Values::solve`] also finds the distance to the end, which needs every move
    /// of a won position searched rather than the first winning one.
    pub want_distance: bool,
    /// Whether [`facts_with`] also finds the first forced win, which costs a look at every
    /// move of a won position.
    pub want_forced_win: bool,
}

/// A byte a grid, in pages of `1 << PAGE_BITS` allocated on first write; unwritten bytes read
/// as 0.
#[derive(Clone, Default)]
struct Paged(Vec<Option<Box<[u8]>>>);

impl Paged {
    #[inline]
    fn get(&self, i: u64) -> u8 {
        let (page, at) = (
            (i >> PAGE_BITS) as usize,
            (i & ((1 << PAGE_BITS) - 1)) as usize,
        );
        match self.0.get(page) {
            Some(Some(p)) => p[at],
            _ => 0,
        }
    }

    #[inline]
    fn set(&mut self, i: u64, code: u8) {
        let (page, at) = (
            (i >> PAGE_BITS) as usize,
            (i & ((1 << PAGE_BITS) - 1)) as usize,
        );
        if self.0.len() <= page {
            self.0.resize_with(page + 1, || None);
        }
        self.0[page].get_or_insert_with(|| vec![0u8; 1 << PAGE_BITS].into_boxed_slice())[at] = code;
    }
}

/// The proofs of [`Values`]: dense pages when most positions will be asked about (a pass over
/// the input space), a hash table when a few searches visit a scattered few (one position
/// explained), where a page a visit would cost more than the search.
#[derive(Clone)]
enum Proofs {
    Dense(Paged),
    Sparse(hashbrown::HashMap<u64, u8>),
}

impl Default for Proofs {
    fn default() -> Proofs {
        Proofs::Dense(Paged::default())
    }
}

impl Proofs {
    #[inline]
    fn get(&self, i: u64) -> u8 {
        match self {
            Proofs::Dense(p) => p.get(i),
            Proofs::Sparse(m) => m.get(&i).copied().unwrap_or(0),
        }
    }

    #[inline]
    fn set(&mut self, i: u64, code: u8) {
        match self {
            Proofs::Dense(p) => p.set(i, code),
            Proofs::Sparse(m) => {
                m.insert(i, code);
            }
        }
    }
}

/// A byte of the table: 0 for unknown, else `KNOWN | outcome << 5 | distance`, the distance
/// `NO_DISTANCE` when it was not asked for.
const KNOWN: u8 = 0x80;
const NO_DISTANCE: u8 = 31;

/// Bits of [`Values`]' proofs.
const WIN_KNOWN: u8 = 1;
const WIN: u8 = 2;
const HOLD_KNOWN: u8 = 4;
const HOLD: u8 = 8;

/// A value's byte read back: the outcome for the side to move, and the plies to the end when
/// the byte holds them.
#[inline]
pub(crate) fn decode(code: u8) -> (Outcome, Option<u8>) {
    let d = code & NO_DISTANCE;
    (outcome_of(code), (d != NO_DISTANCE).then_some(d))
}

/// The byte of perfect play for `mover` on the open board `b`, from the bytes of its open
/// children (`child(square)`: the byte of the board after `mover` plays there): a win at once
/// is a win in 1; else the best child for `mover`, the fastest win or the slowest loss, a draw
/// filling the board. Without `distance` the scan stops at the first winning move and the byte
/// holds no distance.
#[inline]
pub(crate) fn value_code(
    g: &Geometry,
    b: Board,
    mover: Player,
    distance: bool,
    child: impl Fn(u32) -> u8,
) -> u8 {
    let empty = g.full() & !b.filled();
    if empty & g.completing(b.counting_for(mover)) != 0 {
        return KNOWN | (Outcome::Win as u8) << 5 | 1;
    }
    // No move completes a line, so every move leaves an open board, but the one that fills
    // it: a draw.
    if empty & (empty - 1) == 0 {
        return KNOWN | (Outcome::Draw as u8) << 5 | 1;
    }
    let (mut best, mut win_in, mut lose_in) = (Outcome::Loss, u8::MAX, 0u8);
    let mut left = empty;
    while left != 0 {
        let square = left.trailing_zeros();
        left &= left - 1;
        let code = child(square);
        let (v, d) = (outcome_of(code).flip(), (code & NO_DISTANCE) + 1);
        best = best.max(v);
        match v {
            Outcome::Win if !distance => break,
            Outcome::Win => win_in = win_in.min(d),
            Outcome::Loss => lose_in = lose_in.max(d),
            Outcome::Draw => {}
        }
    }
    let d = match best {
        _ if !distance => NO_DISTANCE,
        Outcome::Win => win_in,
        Outcome::Loss => lose_in,
        Outcome::Draw => empty.count_ones() as u8,
    };
    KNOWN | (best as u8) << 5 | d
}

/// The first square in reading order where `mover` starts a forced win on the open board `b`
/// (a move that wins at once, or leaves the opponent lost), from the bytes of its open
/// children (`child(square)` as for [`value_code`]).
#[inline]
pub(crate) fn forced_win_code(
    g: &Geometry,
    b: Board,
    mover: Player,
    child: impl Fn(u32) -> u8,
) -> Option<u8> {
    let empty = g.full() & !b.filled();
    let at_once = empty & g.completing(b.counting_for(mover));
    // The last free square, if it wins nothing, leaves a full board: a draw.
    if at_once == 0 && empty & (empty - 1) == 0 {
        return None;
    }
    // Squares in reading order; a square that wins at once leaves no open child to look up,
    // and any other leaves an open board (the mover completed no line, and a square is left).
    let mut left = empty;
    while left != 0 {
        let square = left.trailing_zeros();
        left &= left - 1;
        if at_once >> square & 1 == 1 || outcome_of(child(square)) == Outcome::Loss {
            return Some(square as u8);
        }
    }
    None
}

fn outcome_of(code: u8) -> Outcome {
    match code >> 5 & 3 {
        0 => Outcome::Loss,
        1 => Outcome::Draw,
        _ => Outcome::Win,
    }
}

impl Values {
    /// An empty table.
    pub fn new() -> Values {
        Values::default()
    }

    /// An empty table for a few positions' values: what their searches prove is kept in a
    /// hash table rather than in pages over the whole space of grids.
    pub fn sparse() -> Values {
        Values {
            proofs: Proofs::Sparse(hashbrown::HashMap::new()),
            ..Values::default()
        }
    }

    #[inline]
    fn get(&self, i: u64) -> u8 {
        self.table.get(i)
    }

    #[inline]
    fn set(&mut self, i: u64, code: u8) {
        self.table.set(i, code)
    }

    /// The result of perfect play for `mover` on the open board `b`: a win when some move wins
    /// at once or leaves the opponent lost, a draw when the best it can reach is a draw.
    ///
    /// Two yes-or-no questions answer it, each searched only as far as its answer needs:
    /// does `mover` force a win, and if not, does it force a draw. A draw is proved by one
    /// holding reply to each move rather than by the exact value of every position below,
    /// so one position of 4×4 is valued in milliseconds, where a memo of exact values visits
    /// most of the ten million positions below the empty board.
    pub fn outcome(&mut self, g: &Geometry, b: Board, mover: Player) -> Outcome {
        let i = grid_index(g, b);
        let code = self.get(i);
        if code != 0 {
            return outcome_of(code);
        }
        let v = if self.wins(g, b, mover) {
            Outcome::Win
        } else if self.holds(g, b, mover) {
            Outcome::Draw
        } else {
            Outcome::Loss
        };
        self.set(i, KNOWN | (v as u8) << 5 | NO_DISTANCE);
        v
    }

    /// The squares `mover` may usefully play on the open board `b`, where it has no move that
    /// wins at once: every empty square, or only the one that blocks the opponent's single
    /// immediate win, or none when the opponent has two (whatever `mover` plays, one is left:
    /// two empty squares mean the move does not fill the board).
    #[inline]
    fn replies(g: &Geometry, b: Board, mover: Player) -> u16 {
        let empty = g.full() & !b.filled();
        let threats = empty & g.completing(b.counting_for(mover.other()));
        match threats.count_ones() {
            0 => empty,
            1 => threats,
            _ => 0,
        }
    }

    /// Whether `mover` forces a win on the open board `b`.
    fn wins(&mut self, g: &Geometry, b: Board, mover: Player) -> bool {
        self.proves(g, b, mover, true)
    }

    /// Whether `mover` forces at least a draw on the open board `b`.
    fn holds(&mut self, g: &Geometry, b: Board, mover: Player) -> bool {
        self.proves(g, b, mover, false)
    }

    /// Whether `mover` forces a win (`win`) or at least a draw (not `win`) on the open board
    /// `b`. Either holds when a move completes a line. Else a win needs a reply after which
    /// the opponent cannot hold a draw, and a draw a reply that fills the board or after
    /// which the opponent cannot force a win.
    fn proves(&mut self, g: &Geometry, b: Board, mover: Player, win: bool) -> bool {
        let i = grid_index(g, b);
        let code = self.get(i);
        if code != 0 {
            let v = outcome_of(code);
            return if win {
                v == Outcome::Win
            } else {
                v != Outcome::Loss
            };
        }
        let (known, yes) = if win {
            (WIN_KNOWN, WIN)
        } else {
            (HOLD_KNOWN, HOLD)
        };
        let proof = self.proofs.get(i);
        if proof & known != 0 {
            return proof & yes != 0;
        }
        let empty = g.full() & !b.filled();
        let mut proved = empty & g.completing(b.counting_for(mover)) != 0;
        let mut left = if proved {
            0
        } else {
            Self::replies(g, b, mover)
        };
        while left != 0 && !proved {
            let square = left.trailing_zeros();
            left &= left - 1;
            let (child, status) = g.play(b, mover, square);
            proved = if status != Status::Open {
                // Not a win (none completes a line here): the board is full, a draw.
                !win
            } else {
                !self.proves(g, child, mover.other(), !win)
            };
        }
        let proof = self.proofs.get(i);
        self.proofs
            .set(i, proof | known | if proved { yes } else { 0 });
        proved
    }

    /// [`Values::outcome`], and the plies to the end under perfect play when
    /// [`Values::want_distance`] is set.
    pub fn solve(&mut self, g: &Geometry, b: Board, mover: Player) -> (Outcome, Option<u8>) {
        if self.want_distance {
            self.search(g, b, mover)
        } else {
            (self.outcome(g, b, mover), None)
        }
    }

    /// The exact value of the open board `b` for `mover` and the plies to the end under
    /// perfect play: every move of every position below is searched.
    fn search(&mut self, g: &Geometry, b: Board, mover: Player) -> (Outcome, Option<u8>) {
        let i = grid_index(g, b);
        let code = self.get(i);
        if code != 0 && code & NO_DISTANCE != NO_DISTANCE {
            return (outcome_of(code), Some(code & NO_DISTANCE));
        }
        let empty = g.full() & !b.filled();
        // A move that wins at once is the fastest win there is.
        if empty & g.completing(b.counting_for(mover)) != 0 {
            self.set(i, KNOWN | (Outcome::Win as u8) << 5 | 1);
            return (Outcome::Win, Some(1));
        }
        let (mut best, mut win_in, mut lose_in) = (Outcome::Loss, u8::MAX, 0u8);
        let mut left = empty;
        while left != 0 {
            let square = left.trailing_zeros();
            left &= left - 1;
            let (child, status) = g.play(b, mover, square);
            let (v, d) = match status {
                Status::Open => {
                    let (v, d) = self.search(g, child, mover.other());
                    (v.flip(), d.map_or(0, |d| d + 1))
                }
                _ => (Outcome::Draw, 1),
            };
            best = best.max(v);
            match v {
                Outcome::Win => win_in = win_in.min(d),
                Outcome::Loss => lose_in = lose_in.max(d),
                Outcome::Draw => {}
            }
        }
        let d = match best {
            Outcome::Win => win_in,
            Outcome::Loss => lose_in,
            Outcome::Draw => empty.count_ones() as u8,
        };
        self.set(i, KNOWN | (best as u8) << 5 | d);
        (best, Some(d))
    }

    /// Records the byte of perfect play (see [`value_code`]) of the open board with the
    /// [`grid_index`] `i`, found elsewhere (by [`super::pass::values_table`]).
    pub(crate) fn record(&mut self, i: u64, code: u8) {
        self.set(i, code);
    }

    /// The first square in reading order where `mover` starts a forced win on the open board
    /// `b`: a move that wins at once, or leaves the opponent lost.
    pub fn forced_win(&mut self, g: &Geometry, b: Board, mover: Player) -> Option<u32> {
        let empty = g.full() & !b.filled();
        let at_once = empty & g.completing(b.counting_for(mover));
        let mut left = empty;
        while left != 0 {
            let square = left.trailing_zeros();
            left &= left - 1;
            if at_once >> square & 1 == 1 {
                return Some(square);
            }
            let (child, status) = g.play(b, mover, square);
            if status == Status::Open && !self.holds(g, child, mover.other()) {
                return Some(square);
            }
        }
        None
    }
}
