//! The strong solution of a small board: for every ply, how many positions are won, drawn and
//! lost for the side to move, by backward induction over the symbolic plies.
//!
//! A forward pass builds the open positions of every ply as in [`super::count`] and keeps
//! them all. Then, from the last ply down, each ply's open positions are split by the
//! values of the ply after:
//!
//! - won: open positions with a move into a four (the predecessors, by the mover, of the
//!   mover's fours ([`Image::preimage`]), computed once per player), or else with a move to a
//!   lost open position of the next ply;
//! - lost: the other open positions all of whose moves lead to a won open position of the
//!   next ply;
//! - drawn: the rest, and the full boards with no four.
//!
//! The last two are one pass each over the diagrams of the next ply's set and of the
//! positions to split (`Predecessors`), which keeps only the positions to split and never
//! builds the whole set of predecessors. A position where the previous move made a four is
//! lost for the side to move; those are the positions of a ply that are not open, counted on
//! the forward pass. Only the won and lost sets of the ply after are kept while a ply is
//! split.

use super::encoding::{Image, Layout};
use super::saved::{self, Diagrams, Kind, Manifest, PlyCounts};
use super::store::{FALSE, Ref, Store, TRUE};
use super::{Cost, Error, Progress};
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// The largest board solved, in cells: the diagrams of the won and lost positions grow much
/// faster with the board than those of the positions themselves.
pub const MAX_CELLS: u32 = 42;

/// The value of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins with perfect play.
    Won,
    /// Perfect play ends in a draw.
    Drawn,
    /// The side to move loses with perfect play (or lost already: the previous move made a
    /// four).
    Lost,
}

impl Value {
    /// The same value in the terms of the search ([`crate::fourow::solve::Outcome`]).
    pub fn outcome(self) -> crate::fourow::solve::Outcome {
        use crate::fourow::solve::Outcome;
        match self {
            Value::Won => Outcome::Win,
            Value::Drawn => Outcome::Draw,
            Value::Lost => Outcome::Loss,
        }
    }
}

/// The positions of one ply by their value for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    /// Moves played.
    pub ply: u32,
    /// Positions of the ply (won, drawn and lost).
    pub positions: u64,
    /// Won for the side to move.
    pub won: u64,
    /// Drawn.
    pub drawn: u64,
    /// Lost for the side to move, the positions with a four included.
    pub lost: u64,
    /// The terminal positions: those where the previous move made a four. They are lost for
    /// the side to move, and counted in `lost` too.
    pub terminal: u64,
    /// Wall time spent on the ply, both passes.
    pub elapsed: Duration,
    /// Wall time of the forward pass alone.
    pub forward: Duration,
}

/// A board solved: its plies from 0 on, with what each cost (`nodes`: the diagrams of its won
/// and lost positions; `all_nodes`: its open positions; `peak_bytes`: the backward pass), and
/// the values of the positions asked about.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Every ply, from 0 to the number of cells.
    pub plies: Vec<(Values, Cost)>,
    /// The value of each position asked about, `None` for a sequence of moves that does not
    /// reach a position of the game (a move after a four).
    pub queries: Vec<Option<Value>>,
}

/// Why a board could not be solved.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// As for counting.
    #[error(transparent)]
    Count(#[from] Error),
    /// More cells than [`MAX_CELLS`].
    #[error(
        "a board of {cols} columns and {rows} rows has {} cells; the strong solution goes up \
         to {MAX_CELLS} cells",
        cols * rows
    )]
    TooLarge {
        /// Number of columns.
        cols: u32,
        /// Number of rows.
        rows: u32,
    },
    /// A saved solution could not be written or read.
    #[error(transparent)]
    Saved(#[from] saved::Error),
    /// More columns to cut the plies by than the board has.
    #[error("plies cannot be cut by {split} columns on a board of {cols}")]
    Split {
        /// Columns asked for.
        split: u32,
        /// Columns of the board.
        cols: u32,
    },
    /// `--save` into a directory that holds a solution already.
    #[error(
        "{} holds a solution already: resume it, or save into another directory",
        dir.display()
    )]
    Exists {
        /// The directory.
        dir: PathBuf,
    },
    /// A move of a position asked about is outside the board or in a full column.
    #[error("position {index}: move {at} (column {col}) cannot be played")]
    BadMove {
        /// The position's index among the queries.
        index: usize,
        /// The 1-based number of the move.
        at: usize,
        /// The 1-based column.
        col: u32,
    },
}

/// A position to look up, as the values of the store's variables, with its ply.
struct Query {
    ply: u32,
    bits: Vec<bool>,
    heights: Vec<u8>,
}

/// Where a solution is saved ply by ply ([`saved`]), and whether the run goes on from the
/// plies saved there.
#[derive(Copy, Clone, Debug)]
pub struct Disk<'a> {
    /// The solution's directory.
    pub dir: &'a Path,
    /// Reload the plies found in `dir` (its manifest must be of the same board) rather than
    /// refusing a directory that holds a solution.
    pub resume: bool,
}

fn encode(layout: Layout, index: usize, moves: &[u8]) -> Result<Query, SolveError> {
    let (cols, rows) = (layout.cols, layout.rows);
    let mut columns = vec![Vec::new(); cols as usize];
    for (i, &col) in moves.iter().enumerate() {
        let bad = SolveError::BadMove {
            index,
            at: i + 1,
            col: u32::from(col) + 1,
        };
        let column = columns.get_mut(col as usize).ok_or(bad)?;
        if column.len() == rows as usize {
            return Err(SolveError::BadMove {
                index,
                at: i + 1,
                col: u32::from(col) + 1,
            });
        }
        column.push(i % 2 == 0);
    }
    let mut bits = vec![false; layout.levels() as usize];
    for (col, chips) in columns.iter().enumerate() {
        let col = col as u32;
        for (row, &first) in chips.iter().enumerate() {
            bits[layout.level(col, row as u32) as usize] = first;
        }
        bits[layout.level(col, chips.len() as u32) as usize] = true;
    }
    Ok(Query {
        ply: moves.len() as u32,
        bits,
        heights: columns.iter().map(|c| c.len() as u8).collect(),
    })
}

/// Solves the board of `cols` columns and `rows` rows strongly, with at most `memory_limit`
/// bytes of diagrams, and looks up the positions `queries` (each a sequence of 0-based
/// columns). `progress` is called now and then with the ply being worked on and whether the
/// backward pass has begun.
pub fn solve(
    cols: u32,
    rows: u32,
    memory_limit: usize,
    queries: &[Vec<u8>],
    progress: impl FnMut(bool, Progress) + Send,
) -> Result<Solution, SolveError> {
    let settings = Settings {
        cols,
        rows,
        memory_limit,
        split: None,
    };
    solve_with(settings, queries, None, progress)
}

/// Solves the board as [`solve`] does and saves every ply into `disk.dir` as soon as it is
/// done: the open positions on the forward pass, the won and lost ones on the backward pass
/// ([`saved`]). With `disk.resume`, the plies found there are read back instead of made
/// again, so a stopped run goes on where it stopped and leaves the same files as a run never
/// stopped. The plies read back have no cost or time of their own.
///
/// The store holds the open positions of one ply at a time, not of every ply: the backward
/// pass reads each back from its file, which costs far less than the ply's split.
pub fn save(
    cols: u32,
    rows: u32,
    memory_limit: usize,
    disk: Disk<'_>,
    progress: impl FnMut(bool, Progress) + Send,
) -> Result<Solution, SolveError> {
    let settings = Settings {
        cols,
        rows,
        memory_limit,
        split: None,
    };
    solve_with(settings, &[], Some(disk), progress)
}

/// How a strong solution is made.
#[derive(Copy, Clone, Debug)]
pub struct Settings {
    /// Number of columns.
    pub cols: u32,
    /// Number of rows.
    pub rows: u32,
    /// Bytes the diagrams in memory may use at most.
    pub memory_limit: usize,
    /// The plies are solved piece by piece, by the heights of this many first columns
    /// ([`saved`]); `None` for [`default_split`].
    pub split: Option<u32>,
}

/// The columns a ply is cut by when nothing else is asked: none on small boards, where a ply
/// is solved whole in a moment, and two from 25 cells on, where the diagrams of a whole ply
/// would outgrow the memory of a small machine.
pub fn default_split(cols: u32, rows: u32) -> u32 {
    if cols * rows < 25 { 0 } else { 2.min(cols) }
}

/// Where finished diagrams are kept: the files of a saved solution, or memory.
enum Shelf<'a> {
    Disk(&'a Path),
    Memory(HashMap<(Kind, u32, Vec<u8>), Diagrams>),
}

impl Shelf<'_> {
    fn put(&mut self, file: Diagrams) -> Result<(), saved::Error> {
        match self {
            Shelf::Disk(dir) => file.write(dir),
            Shelf::Memory(files) => {
                files.insert((file.kind, file.ply, file.piece.clone()), file);
                Ok(())
            }
        }
    }

    fn get(
        &self,
        kind: Kind,
        layout: Layout,
        at: (u32, &[u8]),
    ) -> Result<Option<Cow<'_, Diagrams>>, saved::Error> {
        match self {
            Shelf::Disk(dir) => Ok(Diagrams::read(dir, kind, layout, at)?.map(Cow::Owned)),
            Shelf::Memory(files) => Ok(files.get(&(kind, at.0, at.1.to_vec())).map(Cow::Borrowed)),
        }
    }

    /// A file that an earlier step wrote and this one needs.
    fn need(
        &self,
        kind: Kind,
        layout: Layout,
        at: (u32, &[u8]),
    ) -> Result<Cow<'_, Diagrams>, saved::Error> {
        self.get(kind, layout, at)?.ok_or_else(|| {
            let path = match self {
                Shelf::Disk(dir) => kind.file(dir, at.0, at.1),
                Shelf::Memory(_) => kind.file(Path::new("(memory)"), at.0, at.1),
            };
            saved::Error::Corrupt {
                path,
                reason: "missing: an earlier step of the run writes it".into(),
            }
        })
    }

    /// Forgets the files of a ply that no later step needs (in memory only).
    fn forget(&mut self, kind: Kind, ply: u32) {
        if let Shelf::Memory(files) = self {
            files.retain(|(k, p, _), _| (*k, *p) != (kind, ply));
        }
    }
}

/// The positions whose first columns have the heights `piece`: in each such column, the bits
/// above the height clear and the marker set; every other bit free.
fn piece_cube(store: &mut Store, layout: Layout, piece: &[u8]) -> Ref {
    store.run(64, |s| {
        let mut r = TRUE;
        for (col, &h) in piece.iter().enumerate().rev() {
            let col = col as u32;
            let h = u32::from(h);
            r = s.mk(layout.level(col, h), FALSE, r);
            for bit in h + 1..=layout.rows {
                r = s.mk(layout.level(col, bit), r, FALSE);
            }
        }
        r
    })
}

/// What the operations of a ply call now and then: the store's size, passed on to `progress`
/// with the ply and whether the backward pass has begun. A thread that finds another one
/// reporting skips its turn rather than wait.
fn reporter<P: FnMut(bool, Progress) + Send>(
    progress: &Mutex<P>,
    backward: bool,
    ply: u32,
) -> impl Fn(&Store) + Sync + '_ {
    move |s: &Store| {
        if let Ok(mut progress) = progress.try_lock() {
            progress(
                backward,
                Progress {
                    ply,
                    nodes: s.len(),
                    bytes: s.bytes(),
                },
            );
        }
    }
}

/// Solves the board as `settings` say, answering `queries` as [`solve`] does, and saving the
/// solution into `disk` as [`save`] does when it is given.
pub fn solve_with(
    settings: Settings,
    queries: &[Vec<u8>],
    disk: Option<Disk<'_>>,
    progress: impl FnMut(bool, Progress) + Send,
) -> Result<Solution, SolveError> {
    let Settings {
        cols,
        rows,
        memory_limit,
        split,
    } = settings;
    if !(1..=64).contains(&cols) || !(1..=64).contains(&rows) {
        return Err(Error::Board { cols, rows }.into());
    }
    if cols * rows > MAX_CELLS {
        return Err(SolveError::TooLarge { cols, rows });
    }
    // A resume goes on with the pieces its solution was saved in, unless told otherwise.
    let split = match (split, disk) {
        (Some(split), _) => split,
        (None, Some(d)) if d.resume => saved::read_manifest(d.dir)?.split,
        (None, _) => default_split(cols, rows),
    };
    if split > cols {
        return Err(SolveError::Split { split, cols });
    }
    let cells = cols * rows;
    let layout = Layout { cols, rows };
    let manifest = Manifest { layout, split };
    let queries = queries
        .iter()
        .enumerate()
        .map(|(i, q)| encode(layout, i, q))
        .collect::<Result<Vec<_>, _>>()?;
    let mut answers: Vec<Option<Option<Value>>> = vec![None; queries.len()];
    let progress = Mutex::new(progress);
    let out_of_memory = |ply| Error::MemoryLimit {
        ply,
        limit: memory_limit,
    };
    let mut store = Store::new(layout.levels(), memory_limit);
    let x_wins = layout.wins(&mut store, true);
    let o_wins = layout.wins(&mut store, false);
    let empty = layout.empty(&mut store);
    if store.overflowed() {
        return Err(out_of_memory(0).into());
    }
    // The counts saved so far, for the manifest; whether the files found are read back (on a
    // resume: the forward pass reads only the first run of open plies found).
    let mut saved_counts: Vec<Option<PlyCounts>> = vec![None; cells as usize + 1];
    let resume = disk.is_some_and(|d| d.resume);
    let mut reload = resume;
    let mut shelf = match disk {
        Some(d) => Shelf::Disk(d.dir),
        None => Shelf::Memory(HashMap::new()),
    };
    let write_manifest = |counts: &[Option<PlyCounts>]| match disk {
        Some(d) => saved::write_manifest(d.dir, manifest, counts),
        None => Ok(()),
    };
    if let Some(d) = disk {
        if d.resume {
            let found = saved::read_manifest(d.dir)?;
            if found != manifest {
                return Err(saved::Error::Mismatch {
                    path: d.dir.join("manifest.txt"),
                    reason: format!(
                        "a solution of the {}×{} board cut by {} columns, not of {cols}×{rows} \
                         cut by {split}",
                        found.layout.cols, found.layout.rows, found.split
                    ),
                }
                .into());
            }
            saved::verify(d.dir, manifest)?;
        } else if saved::has_manifest(d.dir) {
            return Err(SolveError::Exists {
                dir: d.dir.to_path_buf(),
            });
        }
    }
    saved_counts[0] = Some(PlyCounts {
        positions: 1,
        terminal: 0,
        values: None,
    });
    if !(reload && shelf.get(Kind::Open, layout, (0, &[]))?.is_some()) {
        shelf.put(Diagrams::from_store(
            &store,
            Kind::Open,
            layout,
            (0, &[]),
            &[empty],
            [1, 1],
        ))?;
        reload = false;
    }
    write_manifest(&saved_counts)?;
    // The store keeps the open positions of the ply being made and the two sets of fours.
    let mut roots = [empty, x_wins, o_wins];
    let mut rows_done = vec![Values {
        ply: 0,
        positions: 1,
        won: 0,
        drawn: u64::from(cells == 0),
        lost: 0,
        terminal: 0,
        elapsed: Duration::ZERO,
        forward: Duration::ZERO,
    }];
    let mut open_counts = vec![1u64];
    let count = |store: &mut Store, sets: &[Ref], ply: u32| -> Result<Vec<u64>, Error> {
        let Some(counts) = store.count(sets, memory_limit) else {
            if store.overflowed() {
                return Err(out_of_memory(ply));
            }
            return Err(Error::Overflow { ply });
        };
        counts
            .into_iter()
            .map(|n| u64::try_from(n).map_err(|_| Error::Overflow { ply }))
            .collect()
    };
    for ply in 1..=cells {
        let clock = Instant::now();
        store.reset_peak();
        let first_moves = ply % 2 == 1;
        let show = reporter(&progress, false, ply);
        let [before, x_wins, o_wins] = roots;
        let found = if reload {
            shelf.get(Kind::Open, layout, (ply, &[]))?
        } else {
            None
        };
        reload = found.is_some();
        let (still, open, positions) = if let Some(file) = found {
            let Some(sets) = file.to_store(&mut store) else {
                return Err(out_of_memory(ply).into());
            };
            (sets[0], file.counts[0], file.counts[1])
        } else {
            let all = store.run(3 * store.len(), |s| {
                Image::new(s, layout, first_moves, &show).of(before)
            });
            let wins = if first_moves { x_wins } else { o_wins };
            let still = store.run(store.len() / 4, |s| s.diff(all, wins));
            if store.overflowed() {
                return Err(out_of_memory(ply).into());
            }
            for (answer, q) in answers.iter_mut().zip(&queries) {
                if q.ply == ply {
                    if !store.contains(all, &q.bits) {
                        *answer = Some(None);
                    } else if !store.contains(still, &q.bits) {
                        *answer = Some(Some(Value::Lost));
                    }
                }
            }
            let counts = count(&mut store, &[all, still], ply)?;
            (still, counts[1], counts[0])
        };
        roots = store.compact([still, x_wins, o_wins]);
        if !reload {
            shelf.put(Diagrams::from_store(
                &store,
                Kind::Open,
                layout,
                (ply, &[]),
                &[roots[0]],
                [open, positions],
            ))?;
        }
        saved_counts[ply as usize] = Some(PlyCounts {
            positions,
            terminal: positions - open,
            values: None,
        });
        write_manifest(&saved_counts)?;
        open_counts.push(open);
        rows_done.push(Values {
            ply,
            positions,
            won: 0,
            drawn: 0,
            lost: positions - open,
            terminal: positions - open,
            elapsed: clock.elapsed(),
            forward: clock.elapsed(),
        });
    }
    let [_, x_wins, o_wins] = roots;
    let mut roots = store.compact([x_wins, o_wins]).to_vec();
    // Each piece fixes its first columns: the work can only be shared out below them.
    store.fork_from(layout.base(split));
    let mut costs = vec![
        Cost {
            nodes: 0,
            all_nodes: 0,
            peak_bytes: 0,
        };
        cells as usize + 1
    ];
    // The last ply: the full boards with no four are drawn, so every piece is empty.
    for piece in saved::pieces(layout, split, cells) {
        if !(resume && shelf.get(Kind::Values, layout, (cells, &piece))?.is_some()) {
            shelf.put(Diagrams::from_store(
                &store,
                Kind::Values,
                layout,
                (cells, &piece),
                &[FALSE, FALSE],
                [0, 0],
            ))?;
        }
    }
    rows_done[cells as usize].drawn = open_counts[cells as usize];
    costs[cells as usize].nodes = 2;
    for (answer, q) in answers.iter_mut().zip(&queries) {
        if q.ply == cells && answer.is_none() {
            *answer = Some(Some(Value::Drawn));
        }
    }
    if let Some(c) = saved_counts[cells as usize].as_mut() {
        c.values = Some([0, open_counts[cells as usize], c.terminal]);
    }
    write_manifest(&saved_counts)?;
    for ply in (0..cells).rev() {
        let clock = Instant::now();
        store.reset_peak();
        let first = ply % 2 == 0;
        let show = reporter(&progress, true, ply);
        let mut totals = [0u64; 2];
        let mut nodes = 0;
        let mut todo = Vec::new();
        for piece in saved::pieces(layout, split, ply) {
            let found = if resume {
                shelf.get(Kind::Values, layout, (ply, &piece))?
            } else {
                None
            };
            match found {
                Some(file) => {
                    totals[0] += file.counts[0];
                    totals[1] += file.counts[1];
                    nodes += file.nodes();
                }
                None => todo.push(piece),
            }
        }
        let mut all_nodes = 0;
        if !todo.is_empty() {
            let file = shelf.need(Kind::Open, layout, (ply, &[]))?;
            let Some(sets) = file.to_store(&mut store) else {
                return Err(out_of_memory(ply).into());
            };
            drop(file);
            roots.truncate(2);
            roots.push(sets[0]);
            all_nodes = store.size(sets[0]);
        }
        for piece in todo {
            // roots: the fours of each player, the open positions of the ply.
            let cube = piece_cube(&mut store, layout, &piece);
            let open = roots[2];
            let care = store.run(store.len() / 8, |s| s.and(open, cube));
            // The pieces of the next ply that moves from this one reach: the same heights (a
            // move in a later column), or one column one higher.
            let mut next = Vec::new();
            if care != FALSE {
                let below: u32 = piece.iter().map(|&h| u32::from(h)).sum();
                if ply + 1 - below <= (cols - split) * rows {
                    next.push(piece.clone());
                }
                for (i, &h) in piece.iter().enumerate() {
                    if u32::from(h) < rows {
                        let mut up = piece.clone();
                        up[i] += 1;
                        next.push(up);
                    }
                }
            }
            let (mut won_next, mut lost_next) = (FALSE, FALSE);
            for up in &next {
                let file = shelf.need(Kind::Values, layout, (ply + 1, up))?;
                let Some(sets) = file.to_store(&mut store) else {
                    return Err(out_of_memory(ply).into());
                };
                won_next = store.run(store.len() / 8, |s| s.or(won_next, sets[0]));
                lost_next = store.run(store.len() / 8, |s| s.or(lost_next, sets[1]));
            }
            let wins = if first { roots[0] } else { roots[1] };
            // Won: a move into a four of the mover, or to a lost open position.
            let won = store.run(store.len() / 2, |s| {
                let now = Predecessors::new(s, layout, first, &show).of(wins, care);
                let later = Predecessors::new(s, layout, first, &show).of(lost_next, care);
                s.or(now, later)
            });
            if store.overflowed() {
                return Err(out_of_memory(ply).into());
            }
            let mut kept = roots.clone();
            kept.extend([care, won, won_next]);
            store.compact_all(&mut kept);
            let [care, won, won_next] = [kept[3], kept[4], kept[5]];
            // A move into a four leads out of the next ply's open positions, so a position with
            // one is never among those whose every move leads to a won open position.
            let lost = store.run(store.len() / 2, |s| {
                Predecessors::all(s, layout, first, &show).of(won_next, care)
            });
            if store.overflowed() {
                return Err(out_of_memory(ply).into());
            }
            // Counted over the file's nodes: the store's own count would sweep every node
            // it holds.
            let mut file = Diagrams::from_store(
                &store,
                Kind::Values,
                layout,
                (ply, &piece),
                &[won, lost],
                [0, 0],
            );
            let counts = file.count_sets().ok_or(Error::Overflow { ply })?;
            file.counts = [counts[0], counts[1]];
            totals[0] += counts[0];
            totals[1] += counts[1];
            nodes += file.nodes();
            shelf.put(file)?;
            roots.truncate(3);
            kept.truncate(3);
            store.compact_all(&mut kept);
            roots = kept;
        }
        roots.truncate(2);
        store.compact_all(&mut roots);
        shelf.forget(Kind::Values, ply + 1);
        let open = open_counts[ply as usize];
        if totals[0] + totals[1] > open {
            return Err(saved::Error::Corrupt {
                path: match disk {
                    Some(d) => Kind::Values.file(d.dir, ply, &[]),
                    None => PathBuf::from("(memory)"),
                },
                reason: format!(
                    "{} won and {} lost of {open} open positions",
                    totals[0], totals[1]
                ),
            }
            .into());
        }
        for (answer, q) in answers.iter_mut().zip(&queries) {
            if q.ply == ply && answer.is_none() {
                let file = shelf.need(Kind::Values, layout, (ply, &q.heights[..split as usize]))?;
                *answer = Some(Some(if file.contains(0, &q.bits) {
                    Value::Won
                } else if file.contains(1, &q.bits) {
                    Value::Lost
                } else {
                    Value::Drawn
                }));
            }
        }
        let row = &mut rows_done[ply as usize];
        row.won = totals[0];
        row.lost += totals[1];
        row.drawn = open - totals[0] - totals[1];
        row.elapsed += clock.elapsed();
        costs[ply as usize] = Cost {
            nodes,
            all_nodes,
            peak_bytes: store.peak_bytes(),
        };
        if let Some(c) = saved_counts[ply as usize].as_mut() {
            c.values = Some([row.won, row.drawn, row.lost]);
        }
        write_manifest(&saved_counts)?;
    }
    Ok(Solution {
        plies: rows_done.into_iter().zip(costs).collect(),
        queries: answers.into_iter().map(Option::flatten).collect(),
    })
}

/// The positions of a set `care` from which one move of a given player leads into a set, in
/// one recursive pass over both diagrams: the predecessors of [`Image::preimage`] intersected
/// with `care`, without building the predecessors that `care` drops.
///
/// For nodes `n` (of the set) and `c` (of `care`) at the start of column `col`, the columns'
/// chains of clear bits give the rests `m[i]` and `k[i]` of the positions whose column has
/// height `i`. A position of `care` whose column has height `j` has a move into the set
/// either later (`later(m[j], k[j])`, which walks the colour bits of both together and goes on
/// at the next column), or here: the set's positions with height `j + 1` and the mover's
/// colour at bit `j`, whose rest after that bit must also be a rest of `k[j]`.
///
/// With `every`, the pass keeps instead the positions of `care` all of whose moves lead into
/// the set: the move here (when the column is not full) and every later one. The positions
/// with no move left keep nothing to check.
struct Predecessors<'s> {
    store: &'s Store,
    layout: Layout,
    first: bool,
    every: bool,
    progress: &'s (dyn Fn(&Store) + Sync),
    calls: AtomicU32,
}

/// Operation codes: one per column, kind of step and player.
const OP_PRE: u32 = Store::USER_OPS + 8;

impl<'s> Predecessors<'s> {
    fn new(
        store: &'s Store,
        layout: Layout,
        first: bool,
        progress: &'s (dyn Fn(&Store) + Sync),
    ) -> Self {
        debug_assert!(OP_PRE + 8 * layout.cols <= Store::OPS);
        Predecessors {
            store,
            layout,
            first,
            every: false,
            progress,
            calls: AtomicU32::new(0),
        }
    }

    /// The positions of a `care` set all of whose moves lead into a set.
    fn all(
        store: &'s Store,
        layout: Layout,
        first: bool,
        progress: &'s (dyn Fn(&Store) + Sync),
    ) -> Self {
        Predecessors {
            every: true,
            ..Predecessors::new(store, layout, first, progress)
        }
    }

    fn op(&self, later: bool, col: u32) -> u32 {
        let kind = u32::from(later) * 4 + u32::from(self.every) * 2 + u32::from(self.first);
        OP_PRE + kind * self.layout.cols + col
    }

    /// The positions of `care` with a move into `set`.
    fn of(&self, set: Ref, care: Ref) -> Ref {
        self.full(set, care, 0)
    }

    fn full(&self, n: Ref, c: Ref, col: u32) -> Ref {
        if c == FALSE {
            return FALSE;
        }
        if col == self.layout.cols {
            // No column left: every move was looked at.
            return if self.every { c } else { FALSE };
        }
        if n == FALSE && !self.every {
            return FALSE;
        }
        let op = self.op(false, col);
        if let Some(r) = self.store.cached(op, n, c) {
            return r;
        }
        let calls = self.calls.fetch_add(1, Ordering::Relaxed);
        if calls.is_multiple_of(1 << 14) {
            (self.progress)(self.store);
        }
        let rows = self.layout.rows;
        let mut m = [FALSE; 65];
        let mut k = [FALSE; 65];
        let (mut y, mut z) = (n, c);
        for bit in (0..=rows).rev() {
            let level = self.layout.level(col, bit);
            let (lo, hi) = self.store.split(y, level);
            m[bit as usize] = hi;
            y = lo;
            let (lo, hi) = self.store.split(z, level);
            k[bit as usize] = hi;
            z = lo;
        }
        let mut hi = [FALSE; 65];
        self.heights(&m, &k, col, &mut hi[..=rows as usize], 0);
        let mut r = self.store.mk(self.layout.level(col, 0), FALSE, hi[0]);
        for bit in 1..=rows {
            r = self
                .store
                .mk(self.layout.level(col, bit), r, hi[bit as usize]);
        }
        self.store.remember(op, n, c, r);
        r
    }

    /// Fills `out[i]` with the positions of `care` whose column `col` has height `from + i`
    /// and that have a move into the set. Halves go to two threads near the top of the order.
    fn heights(&self, m: &[Ref; 65], k: &[Ref; 65], col: u32, out: &mut [Ref], from: u32) {
        if out.len() > 1 && self.store.forks_at(self.layout.base(col)) {
            let (a, b) = out.split_at_mut(out.len() / 2);
            let mid = from + a.len() as u32;
            rayon::join(
                || self.heights(m, k, col, a, from),
                || self.heights(m, k, col, b, mid),
            );
            return;
        }
        for (i, slot) in out.iter_mut().enumerate() {
            let bit = from + i as u32;
            let (here, rest) = (m.get(bit as usize + 1).copied(), k[bit as usize]);
            if rest == FALSE {
                *slot = FALSE;
                continue;
            }
            if self.every {
                // The move here must lead into the set, then every later move too.
                let rest = if bit < self.layout.rows {
                    let above = here.unwrap_or(FALSE);
                    let (other, mine) = self.store.split(above, self.layout.level(col, bit));
                    let taken = if self.first { mine } else { other };
                    self.store.and(taken, rest)
                } else {
                    rest
                };
                *slot = self.later(m[bit as usize], rest, col);
                continue;
            }
            let stay = self.later(m[bit as usize], rest, col);
            *slot = match here {
                Some(above) if bit < self.layout.rows && above != FALSE => {
                    let (other, mine) = self.store.split(above, self.layout.level(col, bit));
                    let taken = if self.first { mine } else { other };
                    let taken = self.store.and(taken, rest);
                    self.store.or(stay, taken)
                }
                _ => stay,
            };
        }
    }

    fn later(&self, x: Ref, y: Ref, col: u32) -> Ref {
        if y == FALSE || (x == FALSE && !self.every) {
            return FALSE;
        }
        let level = self.store.level(x).min(self.store.level(y));
        if level >= self.layout.base(col + 1) {
            return self.full(x, y, col + 1);
        }
        let op = self.op(true, col);
        if let Some(r) = self.store.cached(op, x, y) {
            return r;
        }
        let (x0, x1) = self.store.split(x, level);
        let (y0, y1) = self.store.split(y, level);
        let (lo, hi) = self.store.pair(
            level,
            || self.later(x0, y0, col),
            || self.later(x1, y1, col),
        );
        let r = self.store.mk(level, lo, hi);
        self.store.remember(op, x, y, r);
        r
    }
}
