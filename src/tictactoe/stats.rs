//! Statistics of the state space, per setup and in total: reachable boards by status and ply,
//! complete games by outcome, the value of each setup under perfect play, and counts up to
//! symmetry.
//!
//! Every figure comes from the boards themselves, never from a walk over games: the boards are
//! met once each by the engine's tree walk, games are counted by adding, ply by ply, the number
//! of move sequences reaching each board (a board's count is the sum of its parents'), and
//! values are found backwards from the last ply.

use crate::engine::Memo;
use crate::outcome::{ByStatus, Player, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::rank::{PlyIndex, colex_rank, expand, insert_bit, remove_bit};
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::space::{SetupGame, SetupSpace};
use crate::tictactoe::symmetry::{self, Perm, Symmetry};
use rayon::prelude::*;

/// What to compute. Counts are always computed; the rest cost more.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sections {
    /// Complete games by outcome (move sequences).
    pub games: bool,
    /// Values under perfect play.
    pub values: bool,
    /// Boards up to this symmetry group, if any.
    pub symmetry: Option<Symmetry>,
}

impl Sections {
    /// Everything.
    pub const ALL: Sections = Sections {
        games: true,
        values: true,
        symmetry: Some(Symmetry::Full),
    };
    /// Board counts alone (the fastest).
    pub const COUNTS: Sections = Sections {
        games: false,
        values: false,
        symmetry: None,
    };
}

/// A result of play for one side: win, draw, loss.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WinDrawLoss {
    /// Won by the side to move.
    pub win: u64,
    /// Drawn.
    pub draw: u64,
    /// Lost by the side to move.
    pub loss: u64,
}

/// Everything known about one setup.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SetupStats {
    /// `none`, or the square of the `T` (0-based, row-major).
    pub setup: String,
    /// The `T` mask (0 for none).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub t: u16,
    /// Reachable boards by status.
    pub boards: ByStatus<u64>,
    /// Reachable boards by ply (index) and status.
    pub boards_by_ply: Vec<ByStatus<u64>>,
    /// Complete games (distinct move sequences) by outcome; `open` is always 0.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub games: Option<ByStatus<u64>>,
    /// Complete games by length (index) and outcome.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub games_by_ply: Option<Vec<ByStatus<u64>>>,
    /// The result of the game under perfect play: `X won`, `O won` or `Draw`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub value: Option<String>,
    /// Reachable boards that are won, drawn or lost for the side to move under perfect play
    /// (a finished game counts as lost by the side to move when the other side won).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub side_to_move: Option<WinDrawLoss>,
    /// The same by ply (index).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub side_to_move_by_ply: Option<Vec<WinDrawLoss>>,
}

/// Boards up to symmetry, over every setup together.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Orbits {
    /// The group used.
    pub symmetry: Symmetry,
    /// Order of the symmetry group.
    pub group_order: usize,
    /// Classes of boards, by status.
    pub boards: ByStatus<u64>,
    /// Classes of boards, by ply and status.
    pub boards_by_ply: Vec<ByStatus<u64>>,
}

/// The statistics of a geometry's state space.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Stats {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub cols: u32,
    /// Symbols in a row that win.
    pub line: u32,
    /// Whether setups with a `T` exist.
    pub joker: bool,
    /// Each selected setup.
    pub setups: Vec<SetupStats>,
    /// The selected setups together.
    pub total: SetupStats,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    /// Boards up to symmetry, when asked for.
    pub orbits: Option<Orbits>,
}

/// The name of a setup: `none`, or the square of its `T`.
pub fn setup_name(t: u16) -> String {
    if t == 0 {
        "none".into()
    } else {
        t.trailing_zeros().to_string()
    }
}

/// Computes the statistics of the given setups (`T` masks) of a geometry.
pub fn analyze(g: &Geometry, setups: &[u16], sections: Sections) -> Stats {
    analyze_with(g, setups, sections, |_| {})
}

/// [`analyze`], calling `progress(1)` as each setup is done (from any thread).
pub fn analyze_with(
    g: &Geometry,
    setups: &[u16],
    sections: Sections,
    progress: impl Fn(u64) + Sync,
) -> Stats {
    let group = sections.symmetry.map(|s| s.group(g));
    let results: Vec<(SetupStats, Option<Vec<ByStatus<u64>>>)> = setups
        .par_iter()
        .map(|&t| {
            let r = analyze_setup(g, t, sections, group.as_deref(), setups);
            progress(1);
            r
        })
        .collect();
    let plies = g.cells() as usize + 1;
    let mut total = SetupStats {
        setup: "all".into(),
        t: 0,
        boards: ByStatus::default(),
        boards_by_ply: vec![ByStatus::default(); plies],
        games: sections.games.then(ByStatus::default),
        games_by_ply: sections.games.then(|| vec![ByStatus::default(); plies]),
        value: None,
        side_to_move: sections.values.then(WinDrawLoss::default),
        side_to_move_by_ply: sections.values.then(|| vec![WinDrawLoss::default(); plies]),
    };
    let mut orbit_by_ply = vec![ByStatus::default(); plies];
    let mut stats = Vec::new();
    for (s, orbits) in results {
        total.boards += s.boards;
        for (i, b) in s.boards_by_ply.iter().enumerate() {
            total.boards_by_ply[i] += *b;
        }
        if let (Some(tg), Some(sg)) = (total.games.as_mut(), s.games) {
            *tg += sg;
        }
        if let (Some(tg), Some(sg)) = (total.games_by_ply.as_mut(), &s.games_by_ply) {
            for (i, b) in sg.iter().enumerate() {
                tg[i] += *b;
            }
        }
        if let (Some(tw), Some(sw)) = (total.side_to_move.as_mut(), s.side_to_move) {
            tw.win += sw.win;
            tw.draw += sw.draw;
            tw.loss += sw.loss;
        }
        if let (Some(tw), Some(sw)) = (total.side_to_move_by_ply.as_mut(), &s.side_to_move_by_ply) {
            for (t, w) in tw.iter_mut().zip(sw) {
                t.win += w.win;
                t.draw += w.draw;
                t.loss += w.loss;
            }
        }
        if let Some(o) = orbits {
            for (i, &c) in o.iter().enumerate() {
                orbit_by_ply[i] += c;
            }
        }
        stats.push(s);
    }
    let orbits = sections
        .symmetry
        .zip(group.as_ref())
        .map(|(symmetry, group)| Orbits {
            symmetry,
            group_order: group.len(),
            boards: ByStatus::sum(&orbit_by_ply),
            boards_by_ply: orbit_by_ply,
        });
    Stats {
        rows: g.rows,
        cols: g.cols,
        line: g.line,
        joker: g.joker,
        setups: stats,
        total,
        orbits,
    }
}

/// Boards one symmetry apart form one class; a class holding a board with the `T` on `t`
/// holds boards for every setup in the orbit of `t`. So the classes meeting the selected
/// setups are counted once each by counting, on the smallest selected setup of each orbit of
/// setups only, the classes of its boards under the symmetries that keep the `T` in place.
/// Returns those symmetries when `t` is such a representative.
fn representative_stabilizer(t: u16, group: &[Perm], setups: &[u16]) -> Option<Vec<Perm>> {
    let is_rep = group
        .iter()
        .all(|g| g.apply(t) >= t || !setups.contains(&g.apply(t)));
    is_rep.then(|| group.iter().filter(|g| g.apply(t) == t).cloned().collect())
}

fn analyze_setup(
    g: &Geometry,
    t: u16,
    sections: Sections,
    group: Option<&[Perm]>,
    setups: &[u16],
) -> (SetupStats, Option<Vec<ByStatus<u64>>>) {
    let game = SetupGame { geometry: g, t };
    let plies = g.cells() as usize + 1;
    // Each setup is walked on the thread that took it: the setups already keep every thread
    // busy, and one thread per walk keeps the walk's order trivially fixed. The later passes
    // read the walk's dense tables in slot order, so each ply's table is scanned, not
    // searched.
    if sections == Sections::COUNTS {
        // Counts alone need no tables: the walk counts as it goes, depth first.
        let mut by_ply = crate::tictactoe::space::count_setup(g, t);
        by_ply.resize(plies, ByStatus::default());
        return (counts_only(t, &by_ply), None);
    }
    let space = SetupSpace::explore(g, t);
    let mut by_ply = space.counts.clone();
    by_ply.resize(plies, ByStatus::default());
    let mut stats = SetupStats {
        setup: setup_name(t),
        t,
        boards: space.totals(),
        boards_by_ply: by_ply.to_vec(),
        games: None,
        games_by_ply: None,
        value: None,
        side_to_move: None,
        side_to_move_by_ply: None,
    };
    if sections.games {
        let (games, games_by_ply) = count_games(&game, &space);
        stats.games = Some(games);
        stats.games_by_ply = Some(games_by_ply);
    }
    if sections.values {
        let (value, mut by_ply) = solve_values(&game, &space);
        by_ply.resize(plies, WinDrawLoss::default());
        let mut wdl = WinDrawLoss::default();
        for w in &by_ply {
            wdl.win += w.win;
            wdl.draw += w.draw;
            wdl.loss += w.loss;
        }
        stats.value = Some(value.answer().to_string());
        stats.side_to_move = Some(wdl);
        stats.side_to_move_by_ply = Some(by_ply);
    }
    let orbits = group.and_then(|group| {
        let stab = representative_stabilizer(t, group, setups)?;
        let mut by_ply = vec![ByStatus::default(); plies];
        for (ply, memo) in space.plies.iter().enumerate() {
            let mut decoder = memo.index.decoder();
            for (slot, s) in memo.slots() {
                if symmetry::is_canonical(decoder.board(slot, t), &stab) {
                    by_ply[ply][s] += 1;
                }
            }
        }
        Some(by_ply)
    });
    (stats, orbits)
}

/// The statistics of a setup when only its counts are asked for.
fn counts_only(t: u16, by_ply: &[ByStatus<u64>]) -> SetupStats {
    SetupStats {
        setup: setup_name(t),
        t,
        boards: ByStatus::sum(by_ply),
        boards_by_ply: by_ply.to_vec(),
        games: None,
        games_by_ply: None,
        value: None,
        side_to_move: None,
        side_to_move_by_ply: None,
    }
}

/// Complete games by outcome and by length: the number of move sequences reaching each board
/// is the sum over its open parents (the board less one stone of the player who just moved),
/// carried forward ply by ply in a dense array per ply. Games ending on a finished board are
/// the sequences reaching it. Each ply is filled in slot order, so writes are sequential and
/// only the parents' look-ups jump.
///
/// A slot is (taken squares, X pattern over them), so the parents' slots come without
/// rebuilding boards: taking back the `j`-th taken square leaves the taken squares less that
/// square, whose ranks are worked out once per run of slots sharing the taken squares, and
/// the X pattern less its bit `j`.
fn count_games(game: &SetupGame<'_>, space: &SetupSpace) -> (ByStatus<u64>, Vec<ByStatus<u64>>) {
    let squares = game.geometry.cells();
    let plies = squares as usize + 1;
    let mut by_ply = vec![ByStatus::default(); plies];
    // A board with a X stones and b O stones is reached by at most a!·b! ≤ 8!·8! < 2³² move
    // orders, so a u32 a board is enough and halves the arrays the pass wanders over.
    let mut paths = vec![1u32];
    for (ply, memo) in space.plies.iter().enumerate().skip(1) {
        let prev = PlyIndex::new(squares, ply as u32 - 1);
        let has_open = memo.counts().open > 0;
        let mut here = vec![0u32; if has_open { memo.index.len() } else { 0 }];
        let ended = &mut by_ply[ply];
        let mut decoder = memo.index.decoder();
        // X made the odd plies: its stones are the pattern's ones, O's its zeros.
        let last_is_x = ply % 2 == 1;
        let all = (1u32 << ply) - 1;
        // `parent_base[j]`: the first slot of the parents' taken squares without the j-th.
        let mut parent_base = [0usize; 16];
        let mut last_taken = None;
        for (slot, s) in memo.slots() {
            let (taken, pattern) = decoder.parts(slot);
            if last_taken != Some(taken) {
                last_taken = Some(taken);
                let mut rest = taken;
                for base in parent_base.iter_mut().take(ply) {
                    let bit = rest & rest.wrapping_neg();
                    rest ^= bit;
                    *base = prev.taken_base(taken ^ bit);
                }
            }
            let p = pattern as u32;
            let mut movers = if last_is_x { p } else { !p & all };
            let mut sum = 0u32;
            while movers != 0 {
                let j = movers.trailing_zeros();
                movers &= movers - 1;
                let parent = remove_bit(p, j);
                sum += paths[parent_base[j as usize] + colex_rank(parent as u16) as usize];
            }
            if s == Status::Open {
                here[slot] = sum;
            } else {
                ended[s] += sum as u64;
            }
        }
        paths = here;
    }
    (ByStatus::sum(&by_ply), by_ply)
}

/// Values under perfect play, found backwards: a finished board's value is its result; an open
/// board's is the best of its children for the side to move. Values are kept from the side to
/// move's point of view (0 loss, 1 draw, 2 win), so a child worth `v` to the opponent is worth
/// `2 - v` to the mover. A board with a winning move is a win without looking further, and the
/// scan of the children stops at the first win: the best that can be had.
///
/// A child's slot comes from its parent's slot the way [`count_games`] finds parents: the
/// child's taken squares gain one square, whose first slot is worked out once per run of
/// parents sharing their taken squares, and its X pattern gains a bit (1 when X moves) at the
/// square's place among the taken ones.
///
/// Returns the value of the empty board to X, as a status (X won, O won or Draw), and how
/// the reachable boards of each ply stand for their side to move.
fn solve_values(game: &SetupGame<'_>, space: &SetupSpace) -> (Status, Vec<WinDrawLoss>) {
    let g = game.geometry;
    let squares = g.cells();
    let mut by_ply = vec![WinDrawLoss::default(); space.counts.len()];
    for (wdl, c) in by_ply.iter_mut().zip(&space.counts) {
        wdl.draw += c.draw;
        wdl.loss += c.x_won + c.o_won;
    }
    let mut next_values: Vec<u8> = Vec::new();
    let mut next_index = PlyIndex::new(squares, 0);
    for (ply, memo) in space.plies.iter().enumerate().rev() {
        let here = PlyIndex::new(squares, ply as u32);
        let open = memo.counts().open;
        let mut values = vec![0u8; if open == 0 { 0 } else { here.len() }];
        let mover = if ply % 2 == 0 { Player::X } else { Player::O };
        let mover_bit = (mover == Player::X) as u32;
        // For the current taken squares, per empty square: how many taken squares lie below
        // it (where a stone there enters the X pattern), and the first slot of the child's
        // taken squares. Children's slots then need no board.
        let mut below = [0u32; 16];
        let mut child_base = [0usize; 16];
        let mut last_taken = None;
        let mut decoder = memo.index.decoder();
        for (slot, _) in memo.slots().filter(|&(_, s)| s == Status::Open) {
            let (taken, pattern) = decoder.parts(slot);
            if last_taken != Some(taken) && ply < squares as usize {
                last_taken = Some(taken);
                next_index.child_bases(taken, &mut below, &mut child_base);
            }
            let x = expand(pattern, taken);
            let b = Board {
                x,
                o: taken & !x,
                t: game.t,
            };
            let empty = g.full() & !b.filled();
            let best = if g.completing(b.counting_for(mover)) & empty != 0 {
                2
            } else if empty & (empty - 1) == 0 {
                // No move wins here, so the last square fills the board: a draw.
                1
            } else {
                let p = pattern as u32;
                let mut best = 0u8;
                let mut rest = empty;
                while rest != 0 && best < 2 {
                    let square = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    // No move wins here and the board does not fill: the child is open.
                    let j = below[square];
                    let child = insert_bit(p, j, mover_bit);
                    let v = 2 - next_values[child_base[square] + colex_rank(child as u16) as usize];
                    best = best.max(v);
                }
                best
            };
            values[slot] = best;
            let wdl = &mut by_ply[ply];
            match best {
                2 => wdl.win += 1,
                1 => wdl.draw += 1,
                _ => wdl.loss += 1,
            }
        }
        next_values = values;
        next_index = here;
    }
    let root = match next_values.first() {
        Some(2) => Status::XWon,
        Some(0) => Status::OWon,
        _ => Status::Draw,
    };
    (root, by_ply)
}
