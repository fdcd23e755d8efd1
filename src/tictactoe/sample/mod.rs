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
//!
//! [`uniform`] holds the uniform sampler, [`profiles`] the shaped profiles (balanced, official,
//! edge, killer); the spec, the generator and the writing of files are here.

mod profiles;
pub(crate) mod uniform;

pub use profiles::{
    KillerSet, cell_name, coverage_cell, edge_boards, killer_boards, line_name, lines_won,
};

use crate::outcome::{ByStatus, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::codejam::{self, AnswerWords, AnswerWriter};
use crate::tictactoe::enumerate::{self, RecordFormat, Selection};
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::space::Space;
use profiles::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::io::{self, Write};
use std::sync::Mutex;
use uniform::*;

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
    /// The smallest set of reachable boards on which every wrong solver of the mutant
    /// catalogue fails at least once and every status appears, found by an exact set cover
    /// over the whole space (its natural size). A check against the catalogue, not a contest's
    /// data.
    Killer,
    /// The data a contest wants: the killer set (every mutant caught, every status), then the
    /// edge boards, then boards drawn like `official` for the rest, the fixed boards spread
    /// through the file in a seeded order. The default with `--dataset`.
    Contest,
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
            Profile::Contest => "contest",
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

/// X won, O won, Draw, not completed: the shares of the 2013 large input.
const OFFICIAL_SHARES: [u64; 4] = [37, 24, 6, 33];

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

/// The killer set cut to `room` boards when it does not fit: greedily, the board that
/// catches the most mutants not caught yet first (the earliest on a tie), so a file smaller
/// than the killer set (Code Jam's small dataset) still catches as many bugs as it can.
fn most_telling(killer: Vec<(Board, Status)>, room: usize) -> Vec<(Board, Status)> {
    if killer.len() <= room {
        return killer;
    }
    let kills: Vec<u32> = killer
        .iter()
        .map(|&(b, s)| crate::tictactoe::mutants::kills(b, s))
        .collect();
    let (mut caught, mut taken, mut out) = (0u32, vec![false; killer.len()], Vec::new());
    while out.len() < room {
        let next = (0..killer.len())
            .filter(|&i| !taken[i])
            .max_by_key(|&i| ((kills[i] & !caught).count_ones(), std::cmp::Reverse(i)))
            .expect("room is less than the killer set");
        taken[next] = true;
        caught |= kills[next];
        out.push(killer[next]);
    }
    out
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

/// Where the cases of a generator come from.
enum Source<'a> {
    Uniform(Proposals),
    Classes(Box<Classes>),
    Contest(Box<Contest>),
    List(Vec<(Board, Status)>),
    Exhaustive(&'a Space, Selection),
}

/// A spec made ready to generate: the tables it draws from, and its number of cases.
pub struct Generator<'a> {
    spec: Spec,
    source: Source<'a>,
    cases: u64,
    /// The answer of each status in the answer file.
    words: AnswerWords,
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
                    (ByStatus::from_array(OFFICIAL_SHARES), true)
                };
                let c = Classes::new(space, &spec.setups, weights, by_ply);
                if c.classes.is_empty() {
                    return Err(SampleError::Nothing(name));
                }
                Source::Classes(Box::new(c))
            }
            Profile::Edge => Source::List(edge_boards(space.expect("checked"), &spec.setups)),
            Profile::Killer => {
                Source::List(killer_boards(space.expect("checked"), &spec.setups).boards)
            }
            Profile::Contest => {
                let space = space.expect("checked above");
                let classes = Classes::new(
                    space,
                    &spec.setups,
                    ByStatus::from_array(OFFICIAL_SHARES),
                    true,
                );
                if classes.classes.is_empty() {
                    return Err(SampleError::Nothing(name));
                }
                let killer = most_telling(
                    killer_boards(space, &spec.setups).boards,
                    spec.cases as usize,
                );
                let edge = edge_boards(space, &spec.setups);
                Source::Contest(Box::new(Contest::new(
                    killer, edge, classes, spec.cases, spec.seed,
                )))
            }
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
            words: AnswerWords::CODE_JAM,
        })
    }

    /// The generator with other answer words than Code Jam's in its answer file; `None` for
    /// the exhaustive profile, whose file is written by the enumeration in Code Jam's words.
    pub fn answering(mut self, words: &AnswerWords) -> Option<Generator<'a>> {
        if matches!(self.source, Source::Exhaustive(..)) && *words != AnswerWords::CODE_JAM {
            return None;
        }
        self.words = words.clone();
        Some(self)
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
            Source::Contest(c) => c.block(g, &mut rng, start, n, f),
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
            let mut w =
                AnswerWriter::keeping(take(&pools.1), j * BLOCK + 1, n).answering(&self.words);
            w.push_all(&statuses)
                .expect("writing to memory cannot fail");
            w.into_kept()
        } else {
            (Vec::new(), 0)
        };
        ((main, size), ans, n as u64)
    }
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
    use crate::tictactoe::rank::expand;

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
