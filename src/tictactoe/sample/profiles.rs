//! The shaped profiles: balanced and official draws by status class, and the edge and killer
//! sets chosen board by board for what they cover.

use super::uniform::{Cell, proposal_status};
use super::*;
use crate::cover::{Bits, smallest_cover, undominated};
use crate::outcome::{ByStatus, Player, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::mutants::KillCache;
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::space::Space;
use rand::Rng;
use rayon::prelude::*;

/// The reachable boards of one status in one cell, drawn by rejection from the cell when they
/// are common enough, or from a list of them when they are rare.
#[derive(Clone, Debug)]
pub(super) struct Target {
    pub(super) cell: Cell,
    pub(super) status: Status,
    pub(super) count: u64,
    pub(super) list: Option<Vec<Board>>,
}

/// Below this share of a cell (1/256) a status is drawn from a list rather than by rejection.
pub(super) const LIST_BELOW: u64 = 256;

impl Target {
    #[inline]
    pub(super) fn draw(&self, g: &Geometry, rng: &mut impl Rng) -> Board {
        if let Some(list) = &self.list {
            return list[below(rng, list.len() as u64) as usize];
        }
        loop {
            let b = self.cell.board(below(rng, self.cell.len) as u32);
            if proposal_status(g, b) == Some(self.status) {
                return b;
            }
        }
    }
}

/// A cell by its setup's `T` mask and its ply.
pub(super) type CellKey = (u16, u32);

/// Targets drawn in proportion to their counts.
#[derive(Clone, Debug, Default)]
pub(super) struct Group {
    pub(super) targets: Vec<usize>,
    pub(super) ends: Vec<u64>,
}

impl Group {
    pub(super) fn push(&mut self, target: usize, count: u64) {
        let end = self.ends.last().copied().unwrap_or(0) + count;
        self.targets.push(target);
        self.ends.push(end);
    }

    pub(super) fn pick(&self, rng: &mut impl Rng) -> usize {
        let u = below(rng, *self.ends.last().expect("groups are not empty"));
        self.targets[self.ends.partition_point(|&e| e <= u)]
    }
}

/// A class of boards (a status, with or without a `T`): its status's weight and how a board
/// of it is drawn: a group picked uniformly, then a target in proportion to its count.
#[derive(Clone, Debug)]
pub(super) struct Class {
    pub(super) status: Status,
    pub(super) weight: u64,
    pub(super) groups: Vec<Group>,
}

/// The balanced and official profiles.
#[derive(Clone, Debug)]
pub(super) struct Classes {
    pub(super) targets: Vec<Target>,
    pub(super) classes: Vec<Class>,
}

impl Classes {
    /// `by_ply`: one group per ply (official) rather than one for the whole class (balanced).
    pub(super) fn new(
        space: &Space,
        setups: &[u16],
        weights: ByStatus<u64>,
        by_ply: bool,
    ) -> Classes {
        let mut targets = Vec::new();
        for &t in setups {
            let setup = space.setup(t).expect("setups were checked");
            for (ply, c) in setup.counts.iter().enumerate() {
                let cell = Cell::new(t, ply as u32);
                for s in Status::ALL {
                    let count = c[s];
                    if count > 0 {
                        targets.push(Target {
                            cell,
                            status: s,
                            count,
                            list: None,
                        });
                    }
                }
            }
        }
        // Rare statuses of a cell are listed from the space's labels, one scan per cell.
        let mut rare: Vec<(u16, u32)> = targets
            .iter()
            .filter(|tg| tg.count * LIST_BELOW < tg.cell.len)
            .map(|tg| (tg.cell.t, tg.cell.ply))
            .collect();
        rare.dedup();
        let lists: Vec<(CellKey, ByStatus<Vec<Board>>)> = rare
            .par_iter()
            .map(|&(t, ply)| {
                let memo = &space.setup(t).expect("setups were checked").plies[ply as usize];
                let mut dec = memo.index.decoder();
                let mut out: ByStatus<Vec<Board>> = ByStatus::default();
                for (slot, s) in memo.slots() {
                    out[s].push(dec.board(slot, t));
                }
                ((t, ply), out)
            })
            .collect();
        for tg in &mut targets {
            if tg.count * LIST_BELOW < tg.cell.len {
                let (_, l) = lists
                    .iter()
                    .find(|(k, _)| *k == (tg.cell.t, tg.cell.ply))
                    .expect("every rare cell was listed");
                tg.list = Some(l[tg.status].clone());
            }
        }
        let mut classes = Vec::new();
        for s in Status::ALL {
            for with_t in [false, true] {
                let mut groups: Vec<Group> = Vec::new();
                for ply in 0..=16u32 {
                    let mut g = Group::default();
                    for (i, tg) in targets.iter().enumerate() {
                        if tg.status == s
                            && (tg.cell.t != 0) == with_t
                            && (!by_ply || tg.cell.ply == ply)
                        {
                            g.push(i, tg.count);
                        }
                    }
                    if !g.targets.is_empty() {
                        groups.push(g);
                    }
                    if !by_ply {
                        break;
                    }
                }
                if !groups.is_empty() && weights[s] > 0 {
                    classes.push(Class {
                        status: s,
                        weight: weights[s],
                        groups,
                    });
                }
            }
        }
        Classes { targets, classes }
    }

    /// The cases of a block of `n`. Each status present gets its exact share of the block
    /// (largest remainders), split evenly between boards with and without a `T` (an odd one
    /// out to either by a coin), in an order shuffled by the block's stream.
    pub(super) fn block(&self, g: &Geometry, rng: &mut impl Rng, n: usize) -> Vec<(Board, Status)> {
        let mut statuses: Vec<Status> = Vec::new();
        let mut weights = Vec::new();
        for c in &self.classes {
            if !statuses.contains(&c.status) {
                statuses.push(c.status);
                weights.push(c.weight);
            }
        }
        let mut labels = Vec::with_capacity(n);
        let per_status = apportion(&weights, n);
        for (si, &s) in statuses.iter().enumerate() {
            let count = per_status.iter().filter(|&&x| x == si).count();
            let of: Vec<usize> = (0..self.classes.len())
                .filter(|&c| self.classes[c].status == s)
                .collect();
            let mut first = count / of.len();
            if of.len() == 2 && count % 2 == 1 && below(rng, 2) == 1 {
                first += 1;
            }
            labels.extend(std::iter::repeat_n(of[0], first));
            if of.len() == 2 {
                labels.extend(std::iter::repeat_n(of[1], count - first));
            }
        }
        for i in (1..labels.len()).rev() {
            let j = below(rng, i as u64 + 1) as usize;
            labels.swap(i, j);
        }
        labels
            .into_iter()
            .map(|c| {
                let class = &self.classes[c];
                let group = &class.groups[below(rng, class.groups.len() as u64) as usize];
                let tg = &self.targets[group.pick(rng)];
                (tg.draw(g, rng), tg.status)
            })
            .collect()
    }
}

/// `n` class labels, class `i` getting its share `n · wᵢ / Σw` rounded by largest remainder
/// (ties to the earlier class), in class order.
pub(super) fn apportion(weights: &[u64], n: usize) -> Vec<usize> {
    let total: u64 = weights.iter().sum();
    let n64 = n as u64;
    let mut quota: Vec<u64> = weights.iter().map(|w| n64 * w / total).collect();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(n64 * weights[i] % total));
    let short = n64 - quota.iter().sum::<u64>();
    for &i in order.iter().take(short as usize) {
        quota[i] += 1;
    }
    let mut labels = Vec::with_capacity(n);
    for (i, &q) in quota.iter().enumerate() {
        labels.extend(std::iter::repeat_n(i, q as usize));
    }
    labels
}

/// The lines of the Code Jam board that `p` holds on `b`, as bits over
/// [`Geometry::lines`] (rows top to bottom, columns left to right, main diagonal,
/// anti-diagonal).
pub fn lines_won(g: &Geometry, b: Board, p: Player) -> u16 {
    let mine = b.counting_for(p);
    g.lines
        .iter()
        .enumerate()
        .filter(|(_, l)| *l & mine == **l)
        .fold(0, |m, (k, _)| m | 1 << k)
}

/// The name of line `k` of [`Geometry::lines`] on the 4×4 board.
pub fn line_name(k: usize) -> String {
    match k {
        0..=3 => format!("row {}", k + 1),
        4..=7 => format!("column {}", k - 3),
        8 => "diagonal".into(),
        _ => "anti-diagonal".into(),
    }
}

/// A board the edge profile wants: the first reachable board of setup `t`, in enumeration
/// order, that satisfies a test.
pub(super) struct Want {
    pub(super) t: u16,
    pub(super) test: Box<dyn Fn(Board, Status) -> bool + Sync>,
}

/// The edge profile: every line won by each player with and without the `T` on it; wins on a
/// full board; two lines made by one move; draws; nearly full open boards; the empty board and
/// the lone `T`. Each is the first board in enumeration order (fewest stones first) with the
/// property, among the selected setups.
pub fn edge_boards(space: &Space, setups: &[u16]) -> Vec<(Board, Status)> {
    let g: &'static Geometry = Geometry::tomek();
    let mut wants: Vec<Want> = Vec::new();
    let only = |p: Player, k: usize| {
        move |b: Board, s: Status| s == Status::won_by(p) && lines_won(g, b, p) == 1 << k
    };
    for (k, &line) in g.lines.iter().enumerate() {
        for (pi, p) in [Player::X, Player::O].into_iter().enumerate() {
            wants.push(Want {
                t: 0,
                test: Box::new(only(p, k)),
            });
            // The T on one of the line's squares, a different one for each line and player.
            let mut squares = line;
            for _ in 0..(k + pi) % 4 {
                squares &= squares - 1;
            }
            let t = squares & squares.wrapping_neg();
            wants.push(Want {
                t,
                test: Box::new(only(p, k)),
            });
        }
    }
    let full_win =
        |p: Player| move |b: Board, s: Status| s == Status::won_by(p) && b.filled() == 0xFFFF;
    let double = |p: Player| {
        move |b: Board, s: Status| s == Status::won_by(p) && lines_won(g, b, p).count_ones() >= 2
    };
    let near_full = |b: Board, s: Status| s == Status::Open && b.filled().count_ones() == 15;
    let t5 = 1 << 5;
    for (t, test) in [
        // Without a T, O makes the 16th move; with one, X makes the 15th.
        (
            0,
            Box::new(full_win(Player::O)) as Box<dyn Fn(Board, Status) -> bool + Sync>,
        ),
        (t5, Box::new(full_win(Player::X))),
        (0, Box::new(double(Player::X))),
        (0, Box::new(double(Player::O))),
        (1, Box::new(double(Player::X))),
        (1, Box::new(double(Player::O))),
        (0, Box::new(|_, s| s == Status::Draw)),
        (t5, Box::new(|_, s| s == Status::Draw)),
        (0, Box::new(near_full)),
        (t5, Box::new(near_full)),
    ] {
        wants.push(Want { t, test });
    }
    let mut found: Vec<Option<(Board, Status)>> = vec![None; wants.len()];
    let mut by_setup: Vec<u16> = wants.iter().map(|w| w.t).collect();
    by_setup.sort();
    by_setup.dedup();
    by_setup.retain(|t| setups.contains(t) && space.setup(*t).is_some());
    let results: Vec<Vec<(usize, (Board, Status))>> = by_setup
        .par_iter()
        .map(|&t| {
            let setup = space.setup(t).expect("filtered above");
            let mut open: Vec<usize> = (0..wants.len()).filter(|&i| wants[i].t == t).collect();
            let mut got = Vec::new();
            'plies: for memo in &setup.plies {
                let mut dec = memo.index.decoder();
                for (slot, s) in memo.slots() {
                    let b = dec.board(slot, t);
                    open.retain(|&i| {
                        let hit = (wants[i].test)(b, s);
                        if hit {
                            got.push((i, (b, s)));
                        }
                        !hit
                    });
                    if open.is_empty() {
                        break 'plies;
                    }
                }
            }
            got
        })
        .collect();
    for (i, bs) in results.into_iter().flatten() {
        found[i] = Some(bs);
    }
    let mut out = Vec::new();
    for t in [0u16, t5] {
        if setups.contains(&t) {
            out.push((Board::empty(t), Status::Open));
        }
    }
    for bs in found.into_iter().flatten() {
        if !out.contains(&bs) {
            out.push(bs);
        }
    }
    out
}

/// Where a signature's coverage cell starts, above the mutants' bits.
const CELL_SHIFT: u32 = 32;

/// The combination of facts a board shows, as a number: who holds a line and of which kind
/// (nobody; X's row, column, diagonal or two lines; the same for O), the stone difference
/// (0 or 1 on a reachable board), whether the board is full, and the status. The killer set
/// shows every combination some reachable board has, so a bug no mutant names still meets a
/// board of every shape the answers can tell apart.
#[inline]
pub fn coverage_cell(b: Board, s: Status) -> u32 {
    let (x, o) = crate::tictactoe::mutants::lines_held(b);
    // Rows are bits 0-3, columns 4-7, the diagonals 8 and 9.
    let kind = |l: u16| match l {
        _ if l.count_ones() >= 2 => 3,
        _ if l & 0x00F != 0 => 0,
        _ if l & 0x0F0 != 0 => 1,
        _ => 2,
    };
    let line = match (x, o) {
        (0, 0) => 0,
        (x, 0) => 1 + kind(x),
        (0, o) => 5 + kind(o),
        _ => 9,
    };
    let difference = (b.x.count_ones() as i32 - b.o.count_ones() as i32).clamp(-1, 2) + 1;
    let full = u32::from(b.filled() == 0xFFFF);
    ((line * 4 + difference as u32) * 2 + full) * 4 + s.index() as u32
}

/// The words of a coverage cell, for reports: `X has a row, x-o=1, not full, X won`.
pub fn cell_name(cell: u32) -> String {
    let status = Status::ALL[(cell % 4) as usize];
    let full = (cell / 4) % 2 == 1;
    let difference = (cell / 8) % 4;
    let line = cell / 32;
    let kinds = ["a row", "a column", "a diagonal", "two lines"];
    let who = match line {
        0 => "no line".to_string(),
        1..=4 => format!("X has {}", kinds[line as usize - 1]),
        5..=8 => format!("O has {}", kinds[line as usize - 5]),
        _ => "both have a line".to_string(),
    };
    let d = match difference {
        0 => "x-o<=-1".to_string(),
        3 => "x-o>=2".to_string(),
        d => format!("x-o={}", d as i32 - 1),
    };
    format!(
        "{who}, {d}, {}, {}",
        if full { "full" } else { "not full" },
        status.answer()
    )
}

/// What one board can contribute to a test file: the mutants it catches (bits over
/// [`Mutant::ALL`]) and its coverage cell (a number from `CELL_SHIFT` up), in one word.
#[inline]
fn signature(cache: &mut KillCache, b: Board, s: Status) -> u64 {
    u64::from(cache.kills(b, s)) | u64::from(coverage_cell(b, s)) << CELL_SHIFT
}

/// The killer search and what it proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KillerSet {
    /// The boards with their statuses, fewest stones first among equals.
    pub boards: Vec<(Board, Status)>,
    /// Reachable boards read.
    pub boards_read: u64,
    /// Distinct signatures (mutants caught and coverage cell) among them.
    pub signatures: usize,
    /// Signatures that no other one contains: the only candidates a smallest cover needs.
    pub undominated: usize,
    /// The mutants some board of the selected setups catches, as bits over [`Mutant::ALL`];
    /// the set catches all of them.
    pub killable: u32,
    /// The coverage cells ([`coverage_cell`]) some board of the selected setups shows; the
    /// set shows each, one board a cell, so it has at least this many boards.
    pub cells: Vec<u32>,
}

/// The killer profile: a smallest set of reachable boards on which every mutant fails at least
/// once and every coverage cell ([`coverage_cell`]) appears, every status with them.
///
/// This is an exact set cover ([`crate::cover`]). Every reachable board of the selected
/// setups is read once and summed up by its signature: the mutants it catches and its cell.
/// Boards with the same signature are interchangeable, so only the first of each (fewest
/// stones, then setup order, then enumeration order) is kept. Each board shows one cell, so
/// the number of cells bounds the cover from below, and the search starts there.
///
/// A mutant that no board of the selected setups catches (a bug about the `T`, with only the
/// setup without one) is left out of [`KillerSet::killable`].
pub fn killer_boards(space: &Space, setups: &[u16]) -> KillerSet {
    let tasks: Vec<(u16, usize)> = (0..=16usize)
        .flat_map(|ply| setups.iter().map(move |&t| (t, ply)))
        .filter(|&(t, ply)| space.setup(t).is_some_and(|s| ply < s.plies.len()))
        .collect();
    let found: Vec<(u64, Vec<(u64, Board)>)> = tasks
        .par_iter()
        .map(|&(t, ply)| {
            let memo = &space.setup(t).expect("filtered above").plies[ply];
            let mut dec = memo.index.decoder();
            let mut first: hashbrown::HashMap<u64, Board> = hashbrown::HashMap::new();
            let mut cache = KillCache::default();
            let mut order = Vec::new();
            let (mut read, mut last) = (0, 0);
            for (slot, s) in memo.slots() {
                read += 1;
                let b = dec.board(slot, t);
                let sig = signature(&mut cache, b, s);
                // Neighbouring boards often share a signature: skip the map for a repeat.
                if sig == last {
                    continue;
                }
                last = sig;
                if let hashbrown::hash_map::Entry::Vacant(e) = first.entry(sig) {
                    e.insert(b);
                    order.push((sig, b));
                }
            }
            (read, order)
        })
        .collect();
    let mut boards_read = 0;
    let mut seen = hashbrown::HashSet::new();
    let mut masks: Vec<(u64, Board)> = Vec::new();
    for (read, order) in found {
        boards_read += read;
        for (sig, b) in order {
            if seen.insert(sig) {
                masks.push((sig, b));
            }
        }
    }
    let signatures = masks.len();
    let killable = masks.iter().fold(0u32, |m, &(sig, _)| m | sig as u32);
    let mut cells: Vec<u32> = masks
        .iter()
        .map(|&(sig, _)| (sig >> CELL_SHIFT) as u32)
        .collect();
    cells.sort_unstable();
    cells.dedup();
    let cell_bit = |sig: u64| {
        let k = cells
            .binary_search(&((sig >> CELL_SHIFT) as u32))
            .expect("a cell seen");
        CELL_SHIFT as usize + k
    };
    let sets: Vec<Bits> = masks
        .iter()
        .map(|&(sig, _)| {
            let mut s = Bits::new(CELL_SHIFT as usize + cells.len());
            for i in 0..CELL_SHIFT as usize {
                if sig >> i & 1 == 1 {
                    s.set(i);
                }
            }
            s.set(cell_bit(sig));
            s
        })
        .collect();
    let mut exclusive = Bits::new(CELL_SHIFT as usize + cells.len());
    for k in 0..cells.len() {
        exclusive.set(CELL_SHIFT as usize + k);
    }
    let chosen = smallest_cover(&sets, &exclusive);
    let mut boards: Vec<(Board, Status)> = chosen
        .iter()
        .map(|&i| {
            let (sig, b) = masks[i];
            let s = Status::ALL[((sig >> CELL_SHIFT) % 4) as usize];
            (b, s)
        })
        .collect();
    boards.sort_by_key(|&(b, s)| (b.ply(), s.index(), b));
    KillerSet {
        boards,
        boards_read,
        signatures,
        undominated: undominated(&sets).len(),
        killable,
        cells,
    }
}

/// The contest profile: fixed boards (the killer set, then the edge boards) at positions spread
/// evenly through the file, and boards drawn like the official profile everywhere else.
///
/// The positions are a function of the file's length alone and the draws are made block by
/// block, so the file is streamed in flat memory and its bytes do not depend on the threads.
#[derive(Clone, Debug)]
pub(super) struct Contest {
    /// The fixed boards in the order they appear in the file.
    fixed: Vec<(Board, Status)>,
    /// The case index (from 0) of each fixed board, increasing.
    at: Vec<u64>,
    classes: Classes,
}

impl Contest {
    /// `killer` must fit in `cases`; the edge boards that are not in it follow as far as room
    /// allows, and the fixed boards are shuffled by `seed`.
    pub(super) fn new(
        killer: Vec<(Board, Status)>,
        edge: Vec<(Board, Status)>,
        classes: Classes,
        cases: u64,
        seed: u64,
    ) -> Contest {
        let mut fixed = killer;
        for bs in edge {
            if !fixed.contains(&bs) {
                fixed.push(bs);
            }
        }
        fixed.truncate(cases as usize);
        let mut rng = block_rng(seed, u64::MAX);
        for i in (1..fixed.len()).rev() {
            let j = below(&mut rng, i as u64 + 1) as usize;
            fixed.swap(i, j);
        }
        let k = fixed.len() as u64;
        // Case (2i + 1)·n / 2k: the middle of the i-th of k equal stretches, all distinct
        // since k ≤ n.
        let at = (0..k).map(|i| (2 * i + 1) * cases / (2 * k)).collect();
        Contest { fixed, at, classes }
    }

    /// Cases `start..start + n` (one block) in order, drawn with the block's stream.
    pub(super) fn block(
        &self,
        g: &Geometry,
        rng: &mut impl Rng,
        start: u64,
        n: usize,
        mut f: impl FnMut(Board, Status),
    ) {
        let end = start + n as u64;
        let first = self.at.partition_point(|&p| p < start);
        let last = self.at.partition_point(|&p| p < end);
        let mut drawn = self.classes.block(g, rng, n - (last - first)).into_iter();
        let mut next = first;
        for i in start..end {
            if next < last && self.at[next] == i {
                let (b, s) = self.fixed[next];
                f(b, s);
                next += 1;
            } else {
                let (b, s) = drawn.next().expect("one draw per case not fixed");
                f(b, s);
            }
        }
    }
}
