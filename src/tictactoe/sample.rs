//! Test data: Code Jam inputs drawn from the reachable boards by profile, with their answers.
//!
//! A [`Spec`] names a [`Profile`], a number of cases, a seed and the setups to draw from;
//! [`cases`] yields the cases in order as `(board, status)` pairs and [`Generator::write`]
//! writes them as an input file and its answers. The same spec gives the same cases on every
//! machine and with any number of threads: cases come in blocks of [`BLOCK`], block `j` draws
//! from its own ChaCha8 stream (the seed, stream `j`), and blocks are generated in parallel but
//! handed over in order.
//!
//! Random boards are drawn exactly uniformly by rejection: a board is proposed uniformly among
//! every placement of a ply's stones on the free squares of a setup (a slot of the dense
//! index, unranked with two table look-ups and a bit deposit), and kept when play reaches it
//! (the tests of [`crate::tictactoe::reach::check`] a proposal can fail). Every reachable board is
//! proposed with the same probability, so the kept ones are uniform, with no modulo bias
//! anywhere (ranges are drawn by widening multiplication with rejection of the biased zone).
//! 92.5% of the proposals are kept. The statuses found are those play gives; the tests hold them to the [`Space`]
//! labels.

use crate::outcome::{ByStatus, Player, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::codejam::{self, AnswerWriter};
use crate::tictactoe::enumerate::{self, RecordFormat, Selection};
use crate::tictactoe::eval::Evaluator;
use crate::tictactoe::mutants::Mutant;
use crate::tictactoe::rank::{binomial, expand};
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::space::Space;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::io::{self, Write};
use std::sync::{Mutex, OnceLock};

/// What the cases of a file look like.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Profile {
    /// Every reachable board of the selected setups equally likely.
    Uniform,
    /// Equal shares of the four statuses and of boards with and without a T, uniform within
    /// each of these classes.
    Balanced,
    /// Shaped like the real 2013 large input: about 37% X won, 24% O won, 6% draw, 33% not
    /// completed, half with a T, stone counts spread evenly over the plies of each class.
    Official,
    /// Hand-picked corners: every line won by each player with and without the T, full-board
    /// wins, double lines, draws, the empty board and the lone T (its natural size).
    Edge,
    /// The smallest set found on which every wrong solver of the mutant catalogue fails at
    /// least once (its natural size).
    Killer,
    /// Every reachable board of the selected setups, in enumeration order (its natural size).
    Exhaustive,
}

impl Profile {
    /// Whether the profile needs the explored [`Space`] (only `uniform` does not).
    pub fn needs_space(self) -> bool {
        self != Profile::Uniform
    }

    /// Whether the profile has a size of its own, so that `cases` is ignored.
    pub fn has_natural_size(self) -> bool {
        matches!(self, Profile::Edge | Profile::Killer | Profile::Exhaustive)
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Uniform => "uniform",
            Profile::Balanced => "balanced",
            Profile::Official => "official",
            Profile::Edge => "edge",
            Profile::Killer => "killer",
            Profile::Exhaustive => "exhaustive",
        }
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// How the cases are drawn.
    pub profile: Profile,
    /// Number of cases (ignored by the profiles with a natural size).
    pub cases: u64,
    /// Seed of the random streams.
    pub seed: u64,
    /// `T` masks of the setups drawn from (0 for no `T`), in the geometry's order.
    pub setups: Vec<u16>,
}

/// The seed used when none is given.
pub const DEFAULT_SEED: u64 = 2013;

/// Cases per block: the unit of parallel work and of random streams. Fixed, so that the bytes
/// do not depend on the machine.
pub const BLOCK: u64 = 1 << 14;

/// Why a spec cannot be generated.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SampleError {
    #[error("no setup selected")]
    /// The spec selects no setup.
    NoSetups,
    #[error("the {0} profile needs the explored state space")]
    /// The profile draws from labelled boards, and none were given.
    NeedsSpace(&'static str),
    #[error("setup {0:#06x} is not in the explored state space")]
    /// A selected setup was not explored.
    MissingSetup(u16),
    #[error("the selected setups hold no board the {0} profile can use")]
    /// No board of the selected setups suits the profile.
    Nothing(&'static str),
}

/// The random stream of block `j`.
fn block_rng(seed: u64, j: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(j);
    rng
}

/// A uniform draw from `0..n` (`n > 0`) without bias: the high word of a 64×64-bit product,
/// redrawn when the low word falls in the zone that would favour some values.
#[inline]
pub fn below(rng: &mut impl Rng, n: u64) -> u64 {
    debug_assert!(n > 0);
    let mut m = u128::from(rng.next_u64()) * u128::from(n);
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (m >> 64) as u64
}

/// Every 16-bit mask, grouped by number of bits, each group in increasing order. Increasing
/// order among masks of `k` bits is colexicographic order, so entry `r` of group `k` is the
/// `k`-subset of colex rank `r`, and the subsets of the lowest `n` squares come first.
fn subsets(k: u32) -> &'static [u16] {
    static S: OnceLock<Vec<Vec<u16>>> = OnceLock::new();
    &S.get_or_init(|| {
        let mut by = vec![Vec::new(); 17];
        for m in 0..=u16::MAX {
            by[m.count_ones() as usize].push(m);
        }
        by
    })[k as usize]
}

/// One ply of one setup as a range of proposals: every way to put the ply's stones on the
/// setup's free squares.
#[derive(Copy, Clone, Debug)]
struct Cell {
    t: u16,
    ply: u32,
    /// Ways to split the taken squares between X and O.
    ways: u64,
    /// Proposals in the cell.
    len: u64,
}

impl Cell {
    fn new(t: u16, ply: u32) -> Cell {
        let squares = 16 - t.count_ones();
        let ways = binomial(ply, ply.div_ceil(2));
        Cell {
            t,
            ply,
            ways,
            len: binomial(squares, ply) * ways,
        }
    }

    /// Proposal `r` of the cell: the taken squares by colex rank among the free squares, then
    /// X's share of them by colex rank, spread over the taken squares by a bit deposit.
    #[inline(always)]
    fn board(&self, r: u32) -> Board {
        self.board_with(r, expand)
    }

    /// [`Cell::board`] with the given bit deposit (the table one, or the PDEP instruction).
    /// With a `T` on square `s`, the taken squares come as a subset of 15 and are spread over
    /// the free squares by moving those at `s` and above up by one.
    #[inline(always)]
    fn board_with(&self, r: u32, deposit: impl Fn(u16, u16) -> u16) -> Board {
        let ways = self.ways as u32;
        let mut taken = subsets(self.ply)[(r / ways) as usize];
        if self.t != 0 {
            let below_t = self.t - 1;
            taken = (taken & below_t) | (taken & !below_t) << 1;
        }
        let x = deposit(subsets(self.ply.div_ceil(2))[(r % ways) as usize], taken);
        Board {
            x,
            o: taken & !x,
            t: self.t,
        }
    }
}

/// The status of a proposal if play reaches it, `None` if not: [`crate::tictactoe::reach::check`] cut down to
/// what a proposal can fail. A proposal never has two symbols on a square or more than one
/// `T`, and its cell gives X `⌈ply/2⌉` stones and O `⌊ply/2⌋`, so the turn order always fits;
/// only the tests about lines remain (not both players, the winner moved last, a stone of the
/// winner on every one of its lines). Inlined into the sampling loop, which is compiled with
/// POPCNT where the processor has it. A test holds it to `reach::check` on every proposal of
/// several setups.
#[inline(always)]
fn proposal_status(g: &Geometry, b: Board) -> Option<Status> {
    let x_line = g.has_line(b.x | b.t);
    let o_line = g.has_line(b.o | b.t);
    if !x_line && !o_line {
        return Some(if b.filled() == g.full() {
            Status::Draw
        } else {
            Status::Open
        });
    }
    let x_moved_last = (b.x | b.o).count_ones() & 1 == 1;
    let (mine, status) = match (x_line, o_line, x_moved_last) {
        (true, false, true) => (b.x, Status::XWon),
        (false, true, false) => (b.o, Status::OWon),
        _ => return None,
    };
    (g.line_core(mine | b.t) & mine != 0).then_some(status)
}

/// Cells weighted by their sizes: a uniform proposal over all of them.
///
/// A proposal is a uniform `u` below the total, found in its cell through a guide table: the
/// top bits of the random word that gave `u` name a bucket, and the bucket knows the first
/// cell it overlaps, so the search is a step or two instead of a binary search over hundreds
/// of unpredictable branches (measured: it halved the time of a draw).
#[derive(Clone, Debug)]
struct Proposals {
    cells: Vec<Cell>,
    ends: Vec<u64>,
    total: u64,
    /// Random words whose low product word falls below this are redrawn: `2^64 mod total`.
    threshold: u64,
    /// `guide[b]`: the cell holding the smallest `u` whose random word has top bits `b`.
    guide: Vec<u32>,
}

/// Bits of the random word that pick a guide bucket.
const GUIDE_BITS: u32 = 12;

impl Proposals {
    fn new(cells: Vec<Cell>) -> Proposals {
        let mut ends = Vec::with_capacity(cells.len());
        let mut total = 0;
        for c in &cells {
            total += c.len;
            ends.push(total);
        }
        let guide = (0..1u64 << GUIDE_BITS)
            .map(|b| {
                // The smallest u of bucket b: floor(b · 2^(64 − GUIDE_BITS) · total / 2^64).
                let u = ((u128::from(b) * u128::from(total)) >> GUIDE_BITS) as u64;
                ends.partition_point(|&e| e <= u) as u32
            })
            .collect();
        Proposals {
            cells,
            ends,
            total,
            threshold: total.wrapping_neg() % total,
            guide,
        }
    }

    /// The cell and offset of the proposal the random word `x` gives, or `None` when `x`
    /// falls in the few values that would bias the draw and the next word must be used
    /// instead (Lemire's range draw; the word's top bits also pick the guide bucket).
    #[inline(always)]
    fn locate(&self, x: u64) -> Option<(u32, u32)> {
        let m = u128::from(x) * u128::from(self.total);
        if (m as u64) < self.threshold {
            return None;
        }
        let u = (m >> 64) as u64;
        let mut i = self.guide[(x >> (64 - GUIDE_BITS)) as usize] as usize;
        while self.ends[i] <= u {
            i += 1;
        }
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        // A cell holds at most C(16, 8) · C(8, 4) = 900,900 proposals.
        Some((i as u32, (u - start) as u32))
    }

    /// The cell and offset of a uniform proposal.
    #[inline(always)]
    fn slot(&self, rng: &mut impl Rng) -> (u32, u32) {
        loop {
            if let Some(s) = self.locate(rng.next_u64()) {
                return s;
            }
        }
    }

    /// A uniform proposal.
    #[inline(always)]
    fn propose(&self, rng: &mut impl Rng) -> Board {
        let (i, r) = self.slot(rng);
        self.cells[i as usize].board(r)
    }

    /// A uniformly drawn reachable board and its status.
    #[inline(always)]
    fn draw(&self, g: &Geometry, rng: &mut impl Rng) -> (Board, Status) {
        loop {
            let b = self.propose(rng);
            if let Some(s) = proposal_status(g, b) {
                return (b, s);
            }
        }
    }
}

/// The reachable boards of one status in one cell, drawn by rejection from the cell when they
/// are common enough, or from a list of them when they are rare.
#[derive(Clone, Debug)]
struct Target {
    cell: Cell,
    status: Status,
    count: u64,
    list: Option<Vec<Board>>,
}

/// Below this share of a cell (1/256) a status is drawn from a list rather than by rejection.
const LIST_BELOW: u64 = 256;

impl Target {
    #[inline]
    fn draw(&self, g: &Geometry, rng: &mut impl Rng) -> Board {
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
type CellKey = (u16, u32);

/// Targets drawn in proportion to their counts.
#[derive(Clone, Debug, Default)]
struct Group {
    targets: Vec<usize>,
    ends: Vec<u64>,
}

impl Group {
    fn push(&mut self, target: usize, count: u64) {
        let end = self.ends.last().copied().unwrap_or(0) + count;
        self.targets.push(target);
        self.ends.push(end);
    }

    fn pick(&self, rng: &mut impl Rng) -> usize {
        let u = below(rng, *self.ends.last().expect("groups are not empty"));
        self.targets[self.ends.partition_point(|&e| e <= u)]
    }
}

/// A class of boards (a status, with or without a `T`): its status's weight and how a board
/// of it is drawn: a group picked uniformly, then a target in proportion to its count.
#[derive(Clone, Debug)]
struct Class {
    status: Status,
    weight: u64,
    groups: Vec<Group>,
}

/// The balanced and official profiles.
#[derive(Clone, Debug)]
struct Classes {
    targets: Vec<Target>,
    classes: Vec<Class>,
}

impl Classes {
    /// `by_ply`: one group per ply (official) rather than one for the whole class (balanced).
    fn new(space: &Space, setups: &[u16], weights: ByStatus<u64>, by_ply: bool) -> Classes {
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
    fn block(&self, g: &Geometry, rng: &mut impl Rng, n: usize) -> Vec<(Board, Status)> {
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
fn apportion(weights: &[u64], n: usize) -> Vec<usize> {
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
struct Want {
    t: u16,
    test: Box<dyn Fn(Board, Status) -> bool + Sync>,
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

/// Candidate boards drawn uniformly for the killer search.
const KILLER_CANDIDATES: u64 = 1 << 17;

/// The mutants `b` catches, as bits over [`Mutant::ALL`].
pub fn kills(b: Board, right: Status) -> u32 {
    Mutant::ALL
        .iter()
        .enumerate()
        .filter(|(_, m)| m.status(b) != right)
        .fold(0, |k, (i, _)| k | 1 << i)
}

/// The killer profile: a smallest set of boards on which every mutant fails at least once.
///
/// The candidates are the edge boards and a uniform sample; each is summed up by the set of
/// mutants it catches. Boards that catch a subset of what another catches are dropped, then a
/// depth-first search finds a cover of fewest boards (branching on the boards that catch the
/// first mutant still alive), trying one board, then two, and so on. Any mutant no candidate
/// catches is looked for on every reachable board of the selected setups. A mutant that no
/// board of the selected setups catches (a bug about the `T`, with only the setup without one)
/// is left out: the set kills every mutant that can be killed there.
pub fn killer_boards(space: &Space, setups: &[u16], seed: u64) -> Vec<(Board, Status)> {
    let g = Geometry::tomek();
    let mut candidates = edge_boards(space, setups);
    let cells: Vec<Cell> = setups
        .iter()
        .flat_map(|&t| (0..=16 - t.count_ones()).map(move |p| Cell::new(t, p)))
        .collect();
    let proposals = Proposals::new(cells);
    let mut rng = block_rng(seed, u64::MAX);
    candidates.extend((0..KILLER_CANDIDATES).map(|_| proposals.draw(g, &mut rng)));
    let all: u32 = (1 << Mutant::ALL.len()) - 1;
    let mut masks: Vec<(u32, (Board, Status))> = Vec::new();
    let mut caught = 0u32;
    for bs in candidates {
        let k = kills(bs.0, bs.1);
        caught |= k;
        if k != 0 && !masks.iter().any(|(m, _)| *m == k) {
            masks.push((k, bs));
        }
    }
    // Mutants the candidates miss: the first reachable board that catches each.
    for (i, _) in Mutant::ALL.iter().enumerate() {
        if caught >> i & 1 == 1 {
            continue;
        }
        'search: for &t in setups {
            let Some(setup) = space.setup(t) else {
                continue;
            };
            for memo in &setup.plies {
                let mut dec = memo.index.decoder();
                for (slot, s) in memo.slots() {
                    let b = dec.board(slot, t);
                    let k = kills(b, s);
                    if k >> i & 1 == 1 {
                        caught |= k;
                        masks.push((k, (b, s)));
                        break 'search;
                    }
                }
            }
        }
    }
    let undominated: Vec<(u32, (Board, Status))> = masks
        .iter()
        .enumerate()
        .filter(|&(i, &(m, _))| {
            !masks
                .iter()
                .enumerate()
                .any(|(j, &(n, _))| j != i && m & n == m && (m != n || j < i))
        })
        .map(|(_, &x)| x)
        .collect();
    let target = caught & all;
    for size in 1..=Mutant::ALL.len() {
        let mut chosen = Vec::new();
        if cover(&undominated, target, size, &mut chosen) {
            return chosen.into_iter().map(|i| undominated[i].1).collect();
        }
    }
    Vec::new()
}

/// Whether `left` (mutants still alive) can be caught with at most `room` more boards of
/// `masks`; the chosen ones are appended to `chosen`.
fn cover(
    masks: &[(u32, (Board, Status))],
    left: u32,
    room: usize,
    chosen: &mut Vec<usize>,
) -> bool {
    if left == 0 {
        return true;
    }
    if room == 0 {
        return false;
    }
    let first = left.trailing_zeros();
    // A board catches at most this many of the mutants alive: a bound to prune with.
    let best = masks
        .iter()
        .map(|(m, _)| (m & left).count_ones())
        .max()
        .unwrap_or(0);
    if best == 0 || (best as usize) * room < left.count_ones() as usize {
        return false;
    }
    for (i, (m, _)) in masks.iter().enumerate() {
        if m >> first & 1 == 1 {
            chosen.push(i);
            if cover(masks, left & !m, room - 1, chosen) {
                return true;
            }
            chosen.pop();
        }
    }
    false
}

/// Where the cases of a generator come from.
enum Source<'a> {
    Uniform(Proposals),
    Classes(Box<Classes>),
    List(Vec<(Board, Status)>),
    Exhaustive(&'a Space, Selection),
}

/// A spec made ready to generate: the tables it draws from, and its number of cases.
pub struct Generator<'a> {
    spec: Spec,
    source: Source<'a>,
    cases: u64,
}

/// Blocks generated in parallel before they are handed to the writer, in order.
const BLOCKS_PER_ROUND: u64 = 16;

impl<'a> Generator<'a> {
    /// Prepares `spec`. `space` must hold the spec's setups unless the profile is `uniform`,
    /// which draws without it (see [`Profile::needs_space`]).
    pub fn new(space: Option<&'a Space>, spec: &Spec) -> Result<Generator<'a>, SampleError> {
        if spec.setups.is_empty() {
            return Err(SampleError::NoSetups);
        }
        let name = spec.profile.name();
        let space = match space {
            Some(s) => {
                if let Some(&t) = spec.setups.iter().find(|&&t| s.setup(t).is_none()) {
                    return Err(SampleError::MissingSetup(t));
                }
                Some(s)
            }
            None if spec.profile.needs_space() => return Err(SampleError::NeedsSpace(name)),
            None => None,
        };
        let source = match spec.profile {
            Profile::Uniform => Source::Uniform(Proposals::new(
                spec.setups
                    .iter()
                    .flat_map(|&t| (0..=16 - t.count_ones()).map(move |p| Cell::new(t, p)))
                    .collect(),
            )),
            Profile::Balanced | Profile::Official => {
                let space = space.expect("checked above");
                let (weights, by_ply) = if spec.profile == Profile::Balanced {
                    (ByStatus::from_array([1, 1, 1, 1]), false)
                } else {
                    // X won, O won, Draw, not completed: the 2013 large input's shares.
                    (ByStatus::from_array([37, 24, 6, 33]), true)
                };
                let c = Classes::new(space, &spec.setups, weights, by_ply);
                if c.classes.is_empty() {
                    return Err(SampleError::Nothing(name));
                }
                Source::Classes(Box::new(c))
            }
            Profile::Edge => Source::List(edge_boards(space.expect("checked"), &spec.setups)),
            Profile::Killer => Source::List(killer_boards(
                space.expect("checked"),
                &spec.setups,
                spec.seed,
            )),
            Profile::Exhaustive => Source::Exhaustive(
                space.expect("checked"),
                Selection::setups(spec.setups.clone()),
            ),
        };
        let cases = match &source {
            Source::List(l) if l.is_empty() => return Err(SampleError::Nothing(name)),
            Source::List(l) => l.len() as u64,
            Source::Exhaustive(space, sel) => sel.count(space),
            _ => spec.cases,
        };
        Ok(Generator {
            spec: spec.clone(),
            source,
            cases,
        })
    }

    /// Number of cases generated: the spec's, or the profile's natural size.
    pub fn cases(&self) -> u64 {
        self.cases
    }

    fn blocks(&self) -> u64 {
        self.cases.div_ceil(BLOCK)
    }

    /// Number of cases in block `j`: [`BLOCK`], or what is left for the last block.
    fn block_len(&self, j: u64) -> usize {
        (self.cases - j * BLOCK).min(BLOCK) as usize
    }

    /// Calls `f` with each case of block `j` in order (not for the exhaustive profile, which
    /// streams the space).
    #[inline]
    fn each(&self, j: u64, mut f: impl FnMut(Board, Status)) {
        let g = Geometry::tomek();
        let start = j * BLOCK;
        let n = self.block_len(j);
        let mut rng = block_rng(self.spec.seed, j);
        match &self.source {
            Source::Uniform(p) => uniform_dispatch(p, g, &mut rng, n, f),
            Source::Classes(c) => c
                .block(g, &mut rng, n)
                .into_iter()
                .for_each(|(b, s)| f(b, s)),
            Source::List(l) => l[start as usize..start as usize + n]
                .iter()
                .for_each(|&(b, s)| f(b, s)),
            Source::Exhaustive(..) => unreachable!("the exhaustive profile is streamed"),
        }
    }

    /// The cases of block `j`.
    fn block(&self, j: u64) -> Vec<(Board, Status)> {
        let mut v = Vec::with_capacity(BLOCK as usize);
        self.each(j, |b, s| v.push((b, s)));
        v
    }

    /// Every case in order.
    pub fn into_cases(self) -> Box<dyn Iterator<Item = (Board, Status)> + 'a> {
        if let Source::Exhaustive(space, sel) = &self.source {
            let (space, setups): (&'a Space, Vec<u16>) = (space, sel.setups.clone());
            return Box::new(
                setups
                    .into_iter()
                    .filter_map(move |t| space.setup(t))
                    .flat_map(|s| s.boards()),
            );
        }
        Box::new((0..self.blocks()).flat_map(move |j| self.block(j)))
    }

    /// Writes the input (count line and cases) to `out` and, when given, the answers to
    /// `answers`; `progress` hears how many cases each block held.
    ///
    /// Blocks are generated in parallel rounds while two writer threads, one per file, write
    /// the previous ones: on big files writing is most of the work (the answers alone are as
    /// many bytes as `solve` writes), so the two files go out side by side. Written buffers go
    /// back to a pool and are filled again, so no block pays for fresh pages.
    pub fn write(
        &self,
        out: &mut (dyn Write + Send),
        answers: Option<&mut (dyn Write + Send)>,
        mut progress: impl FnMut(u64),
    ) -> io::Result<u64> {
        if let Source::Exhaustive(space, sel) = &self.source {
            return enumerate::write(space, sel, RecordFormat::Codejam, out, answers, progress);
        }
        let mut head = Vec::new();
        codejam::push_count(&mut head, self.cases);
        out.write_all(&head)?;
        let with_answers = answers.is_some();
        let pools = (Mutex::new(Vec::new()), Mutex::new(Vec::new()));
        let depth = BLOCKS_PER_ROUND as usize;
        let (send_in, receive_in) = std::sync::mpsc::sync_channel::<Chunk>(depth);
        let (send_ans, receive_ans) = std::sync::mpsc::sync_channel::<Chunk>(depth);
        std::thread::scope(|scope| {
            let pools = &pools;
            let in_writer = scope.spawn(move || write_all(out, receive_in, &pools.0));
            let ans_writer =
                answers.map(|a| scope.spawn(move || write_all(a, receive_ans, &pools.1)));
            let blocks = self.blocks();
            let mut first = 0;
            let mut stopped = false;
            while first < blocks && !stopped {
                let last = (first + BLOCKS_PER_ROUND).min(blocks);
                let rendered: Vec<(Chunk, Chunk, u64)> = (first..last)
                    .into_par_iter()
                    .map(|j| self.render(j, with_answers, pools))
                    .collect();
                for (main, ans, n) in rendered {
                    if send_in.send(main).is_err() || (with_answers && send_ans.send(ans).is_err())
                    {
                        stopped = true;
                        break;
                    }
                    progress(n);
                }
                first = last;
            }
            drop(send_in);
            drop(send_ans);
            in_writer
                .join()
                .expect("the writer thread does not panic")?;
            if let Some(w) = ans_writer {
                w.join().expect("the writer thread does not panic")?;
            }
            if stopped {
                return Err(io::Error::other("the writer stopped early"));
            }
            Ok(self.cases)
        })
    }

    /// Block `j` as input text and answer lines, in buffers from the pools, and its number
    /// of cases. Each case's text goes straight to its place, as every case is
    /// [`codejam::CASE_BYTES`] long.
    fn render(&self, j: u64, with_answers: bool, pools: &Pools) -> (Chunk, Chunk, u64) {
        let take = |p: &Mutex<Vec<Vec<u8>>>| p.lock().expect("pool lock").pop().unwrap_or_default();
        let n = self.block_len(j);
        let mut main = take(&pools.0);
        let size = n * codejam::CASE_BYTES;
        if main.len() < size {
            main.resize(size, 0);
        }
        let mut statuses = Vec::with_capacity(n);
        let mut cases = main.chunks_exact_mut(codejam::CASE_BYTES);
        self.each(j, |b, s| {
            cases
                .next()
                .expect("a block has room for its cases")
                .copy_from_slice(&codejam::case_text(b));
            statuses.push(s);
        });
        let ans = if with_answers {
            let mut w = AnswerWriter::keeping(take(&pools.1), j * BLOCK + 1, n);
            w.push_all(&statuses)
                .expect("writing to memory cannot fail");
            w.into_kept()
        } else {
            (Vec::new(), 0)
        };
        ((main, size), ans, n as u64)
    }
}

/// Draws `n` uniform cases: proposals in batches, then the reachable ones kept in order.
///
/// The cases are exactly those of drawing and testing one proposal at a time (the kept ones,
/// in the order drawn); the last batch may draw proposals that are never used, which changes
/// nothing as each block has a stream of its own. Each batch goes through three short loops
/// (random words to cells and offsets, offsets to boards, boards to statuses), so that the
/// processor overlaps the table look-ups of many proposals instead of waiting on each one's
/// before the next (measured: together a third faster than one proposal at a time).
#[inline(always)]
fn uniform(
    p: &Proposals,
    g: &Geometry,
    rng: &mut ChaCha8Rng,
    n: usize,
    deposit: impl Fn(u16, u16) -> u16 + Copy,
    mut f: impl FnMut(Board, Status),
) {
    const BATCH: usize = 256;
    let mut slots = [(0, 0); BATCH];
    let mut proposals = [Board::default(); BATCH];
    let mut made = 0;
    while made < n {
        for s in slots.iter_mut() {
            *s = p.slot(rng);
        }
        for (b, &(i, r)) in proposals.iter_mut().zip(&slots) {
            *b = p.cells[i as usize].board_with(r, deposit);
        }
        for &b in &proposals {
            if let Some(s) = proposal_status(g, b) {
                f(b, s);
                made += 1;
                if made == n {
                    return;
                }
            }
        }
    }
}

/// Draws `n` uniform cases with the fastest code the processor runs: [`uniform`] compiled
/// with POPCNT (the reachability test counts stones, a dozen instructions each on the x86_64
/// baseline) and, where it is fast, PDEP for the bit deposit. Same cases in every case.
fn uniform_dispatch(
    p: &Proposals,
    g: &Geometry,
    rng: &mut ChaCha8Rng,
    n: usize,
    f: impl FnMut(Board, Status),
) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("popcnt") && has!("bmi2") && fast_pdep() {
            // SAFETY: the processor has POPCNT and BMI2, checked just above.
            return unsafe { uniform_bmi2(p, g, rng, n, f) };
        }
        if has!("popcnt") {
            // SAFETY: the processor has POPCNT, checked just above.
            return unsafe { uniform_popcnt(p, g, rng, n, f) };
        }
    }
    uniform(p, g, rng, n, expand, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn uniform_popcnt(
    p: &Proposals,
    g: &Geometry,
    rng: &mut ChaCha8Rng,
    n: usize,
    f: impl FnMut(Board, Status),
) {
    uniform(p, g, rng, n, expand, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi2")]
fn uniform_bmi2(
    p: &Proposals,
    g: &Geometry,
    rng: &mut ChaCha8Rng,
    n: usize,
    f: impl FnMut(Board, Status),
) {
    // [`expand`] as one instruction; the closure inherits this function's target features.
    let pdep =
        |v: u16, mask: u16| std::arch::x86_64::_pdep_u32(u32::from(v), u32::from(mask)) as u16;
    uniform(p, g, rng, n, pdep, f)
}

/// Whether PDEP is a single fast instruction. AMD processors before Zen 3 (family 19h) run it
/// in microcode at dozens of cycles per set bit of the mask, slower than the byte tables.
/// Asked once: CPUID is slow, and in a virtual machine it traps to the host.
#[cfg(target_arch = "x86_64")]
fn fast_pdep() -> bool {
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(|| {
        use std::arch::x86_64::__cpuid;
        let vendor = __cpuid(0);
        // "AuthenticAMD", in the order CPUID returns it.
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
        let signature = __cpuid(1).eax;
        let base = (signature >> 8) & 0xF;
        let family = if base == 0xF {
            base + ((signature >> 20) & 0xFF)
        } else {
            base
        };
        !amd || family >= 0x19
    })
}

/// Spare buffers for the input text and for the answers. A buffer keeps its length when it
/// is returned, so filling it again costs no clearing.
type Pools = (Mutex<Vec<Vec<u8>>>, Mutex<Vec<Vec<u8>>>);

/// A buffer whose first bytes, as many as the count says, are to be written.
type Chunk = (Vec<u8>, usize);

/// Writes every chunk received to `out`, returning each buffer to `pool`, then flushes.
fn write_all(
    out: &mut (dyn Write + Send),
    receive: std::sync::mpsc::Receiver<Chunk>,
    pool: &Mutex<Vec<Vec<u8>>>,
) -> io::Result<()> {
    for (buf, len) in receive {
        out.write_all(&buf[..len])?;
        pool.lock().expect("pool lock").push(buf);
    }
    out.flush()
}

/// The cases of `spec`, in order, as `(board, status)` with the status play gives the board.
///
/// Streams: blocks of [`BLOCK`] cases are made as the iterator reaches them, so any number of
/// cases takes flat memory. `space` must hold the spec's setups (the `uniform` profile only
/// checks that). The bytes `tomek generate` writes are exactly these cases, in this order.
pub fn cases<'a>(
    space: &'a Space,
    spec: &Spec,
) -> Result<impl Iterator<Item = (Board, Status)> + 'a, SampleError> {
    Ok(Generator::new(Some(space), spec)?.into_cases())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proposals_cover_each_cell_once() {
        for t in [0u16, 1 << 7] {
            for ply in [0u32, 1, 5, 8, 15] {
                let c = Cell::new(t, ply);
                if ply > 16 - t.count_ones() {
                    continue;
                }
                let mut seen = std::collections::HashSet::new();
                for r in 0..c.len {
                    let b = c.board(r as u32);
                    assert_eq!(b.ply(), ply);
                    assert_eq!(b.x & b.o, 0);
                    assert_eq!((b.x | b.o) & t, 0);
                    assert_eq!(b.x.count_ones(), ply.div_ceil(2));
                    assert!(seen.insert(b));
                }
            }
        }
    }

    #[test]
    fn proposal_status_is_reach_check() {
        let g = Geometry::tomek();
        for t in [0u16, 1, 1 << 5] {
            for ply in 0..=16 - t.count_ones() {
                let c = Cell::new(t, ply);
                for r in 0..c.len {
                    let b = c.board(r as u32);
                    assert_eq!(
                        proposal_status(g, b),
                        crate::tictactoe::reach::check(g, b).ok(),
                        "{b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_compiled_sampler_draws_the_same_cases() {
        let g = Geometry::tomek();
        let p = Proposals::new(
            g.setups()
                .iter()
                .flat_map(|&t| (0..=16 - t.count_ones()).map(move |p| Cell::new(t, p)))
                .collect(),
        );
        let draw = |fast: bool| {
            let mut v = Vec::new();
            let mut rng = block_rng(7, 3);
            if fast {
                uniform_dispatch(&p, g, &mut rng, 50_000, |b, s| v.push((b, s)));
            } else {
                uniform(&p, g, &mut rng, 50_000, expand, |b, s| v.push((b, s)));
            }
            v
        };
        assert_eq!(draw(true), draw(false));
    }

    #[test]
    fn apportion_is_exact() {
        let l = apportion(&[37, 24, 6, 33], 10);
        let count = |c| l.iter().filter(|&&x| x == c).count();
        assert_eq!((count(0), count(1), count(2), count(3)), (4, 2, 1, 3));
        assert_eq!(apportion(&[1, 1, 1], 7).len(), 7);
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = block_rng(1, 0);
        for n in [1u64, 2, 3, 7, 1 << 40, u64::MAX] {
            for _ in 0..1000 {
                assert!(below(&mut rng, n) < n);
            }
        }
    }
}
