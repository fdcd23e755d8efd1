//! A strong solution on disk: the diagrams of every ply in files of their own, written as
//! soon as they are done, so that a stopped run can go on from the last piece saved and a
//! later program can answer positions without solving the board again.
//!
//! A solution is a directory:
//!
//! - `manifest.txt`: text, one `key = value` a line: the format and its version, the board,
//!   the variable order, how plies are cut into pieces, and a line per ply with the counts
//!   known so far. It is rewritten (atomically) after every ply.
//! - `open-PP.bdd` (PP the ply, two digits or more): the open positions of the ply (no four on
//!   the board), written by the forward pass. The backward pass reads each back when it
//!   comes to its ply, so that the store holds one ply's open positions rather than all of
//!   them, and a resume reads them rather than making them again.
//! - `values-PP-H.bdd`: the won and the lost positions, for the side to move, of the ply's open
//!   positions whose first `split` columns have the heights `H` (one digit a column, in base
//!   36; `values-PP.bdd` when `split` is 0), written by the backward pass. The other open
//!   positions are drawn, and the positions of the ply that are not open (the previous move
//!   made a four) are lost. A ply is cut into these pieces because the children of a position
//!   differ from it in one column's height: a piece needs only the pieces of the next ply with
//!   the same heights or one of them one higher, so a ply is solved piece by piece with a
//!   fraction of its diagrams in memory. Every piece has its file, empty ones included.
//!
//! Every file is written to a temporary file and renamed over its name once complete, so a
//! file that exists is whole: a run that stops leaves the pieces done and nothing else, and
//! the files present, not the manifest, say what is done.
//!
//! A `.bdd` file, every integer little-endian:
//!
//! | offset | size | field |
//! | ---: | ---: | --- |
//! | 0 | 8 | magic `TOMEKBDD` |
//! | 8 | 4 | format version ([`VERSION`]) |
//! | 12 | 4 | kind: 0 open positions (one set), 1 won and lost (two sets) |
//! | 16 | 4 | columns |
//! | 20 | 4 | rows |
//! | 24 | 4 | ply |
//! | 28 | 4 | columns the piece is cut by, `split` (0 for open positions) |
//! | 32 | 4 | the piece: the heights of those columns, column `i` as digit `i` in base `rows + 1` |
//! | 36 | 4 | number of sets `S` |
//! | 40 | 8 | number of nodes `N` |
//! | 48 | 16 | two counts: open positions and all positions of the ply (kind 0); won and lost positions (kind 1) |
//! | 64 | 4 `S` | root of each set |
//! | | 10 `N` | nodes: level (`u16`), low child, high child (`u32` each) |
//! | | 8 | FNV-1a 64 of every byte before |
//!
//! Node references: 0 is the empty set, 1 the set of every assignment of the remaining
//! variables, and `i + 2` the node at index `i`. A node's children come before it, and the
//! nodes are in the order of a depth-first walk from the roots (low child first), which
//! depends only on the sets: the same solution gives the same bytes, however the store that
//! made it numbered its nodes. Variables are those of [`super::encoding`]: column `c` (from 0,
//! left to right) takes levels `c (rows + 1)` to `c (rows + 1) + rows`, its top bit first;
//! the bits of a column of height `h` are clear above bit `h`, set at bit `h` (the height
//! marker), and below it hold the colours of its chips (set for the first player).

use super::encoding::Layout;
use super::store::{FALSE, Ref, Store, TRUE};
use crate::output::AtomicFile;
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// The version of the files and the manifest; a reader refuses any other.
pub const VERSION: u32 = 2;

const MAGIC: &[u8; 8] = b"TOMEKBDD";
const HEADER: usize = 64;
const NODE: usize = 10;
/// Nodes of one level below which [`Diagrams::to_store`] makes them on one thread.
const PARALLEL_LEVEL: usize = 1 << 12;
const MANIFEST: &str = "manifest.txt";
const FORMAT: &str = "tomek fourow strong solution";

/// What a ply file holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The ply's open positions.
    Open,
    /// The won and the lost open positions of the ply.
    Values,
}

impl Kind {
    fn code(self) -> u32 {
        match self {
            Kind::Open => 0,
            Kind::Values => 1,
        }
    }

    fn sets(self) -> usize {
        match self {
            Kind::Open => 1,
            Kind::Values => 2,
        }
    }

    /// The file of ply `ply` in a solution directory, of the piece whose first columns have
    /// the heights `piece` (none for open positions, which are kept whole).
    pub fn file(self, dir: &Path, ply: u32, piece: &[u8]) -> PathBuf {
        let stem = match self {
            Kind::Open => "open",
            Kind::Values => "values",
        };
        let mut name = format!("{stem}-{ply:02}");
        if !piece.is_empty() {
            name.push('-');
            name.extend(
                piece
                    .iter()
                    .map(|&h| char::from_digit(u32::from(h), 36).expect("a height below 36")),
            );
        }
        dir.join(name + ".bdd")
    }
}

/// Why a saved solution cannot be used. Each names the file at fault.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not what it should be: truncated, altered, of another format or version.
    #[error("{}: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The file or solution is of another board, ply or kind than asked for.
    #[error("{}: {reason}", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        reason: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// FNV-1a, 64 bits: enough to catch a flipped or lost byte, which is all the checksum is for.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// One node of a file: its level and its children as file references.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct FileNode {
    level: u16,
    lo: u32,
    hi: u32,
}

/// The sets of one ply file, held apart from any store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagrams {
    /// What the file holds.
    pub kind: Kind,
    /// The board.
    pub layout: Layout,
    /// The ply.
    pub ply: u32,
    /// Open positions and all positions of the ply ([`Kind::Open`]), or won and lost
    /// positions ([`Kind::Values`]).
    pub counts: [u64; 2],
    /// The heights of the first columns of every position of the piece (empty for the
    /// whole ply).
    pub piece: Vec<u8>,
    roots: Vec<u32>,
    nodes: Vec<FileNode>,
}

impl Diagrams {
    /// Takes the sets `roots` (of the piece `piece` of the ply) out of `store`, in the
    /// canonical order of the file.
    pub fn from_store(
        store: &Store,
        kind: Kind,
        layout: Layout,
        (ply, piece): (u32, &[u8]),
        roots: &[Ref],
        counts: [u64; 2],
    ) -> Diagrams {
        debug_assert_eq!(roots.len(), kind.sets());
        // index[r]: the file reference of store node r, 0 while it is not written yet.
        let mut index = vec![0u32; store.len().max(2)];
        let mut nodes = Vec::new();
        let mut stack = Vec::new();
        let file_ref = |index: &[u32], r: Ref| if r <= TRUE { r } else { index[r as usize] };
        for &root in roots {
            stack.push(root);
            while let Some(&r) = stack.last() {
                if r <= TRUE || index[r as usize] != 0 {
                    stack.pop();
                    continue;
                }
                let level = store.level(r);
                let (lo, hi) = store.split(r, level);
                if lo > TRUE && index[lo as usize] == 0 {
                    stack.push(lo);
                    continue;
                }
                if hi > TRUE && index[hi as usize] == 0 {
                    stack.push(hi);
                    continue;
                }
                stack.pop();
                nodes.push(FileNode {
                    level: level as u16,
                    lo: file_ref(&index, lo),
                    hi: file_ref(&index, hi),
                });
                index[r as usize] = nodes.len() as u32 + 1;
            }
        }
        Diagrams {
            kind,
            layout,
            ply,
            counts,
            piece: piece.to_vec(),
            roots: roots.iter().map(|&r| file_ref(&index, r)).collect(),
            nodes,
        }
    }

    /// Nodes in all the sets together.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The nodes up to the last root's: the file puts every node after its children, so
    /// these hold every set.
    fn reached(&self) -> &[FileNode] {
        let upto = self.roots.iter().map(|&r| r as usize).max().unwrap_or(0);
        &self.nodes[..upto.saturating_sub(1).min(self.nodes.len())]
    }

    /// Builds the sets again in `store`, in the order of the file; `None` when the store's
    /// budget is spent.
    pub fn to_store(&self, store: &mut Store) -> Option<Vec<Ref>> {
        self.build(store, PARALLEL_LEVEL)
    }

    /// [`Diagrams::to_store`], making the nodes of a level on every core when there are at
    /// least `parallel` of them.
    fn build(&self, store: &mut Store, parallel: usize) -> Option<Vec<Ref>> {
        // The nodes reached build every set; the roots are then picked out of them. Nodes of
        // one level have their children below it, so they are made together, on every core,
        // level by level from the bottom up.
        let nodes = self.reached();
        let upto = nodes.len();
        let levels = self.layout.levels() as usize;
        // The file's nodes grouped by level: `order[starts[l]..starts[l + 1]]` are those at
        // level `l`, in the order of the file.
        let mut starts = vec![0usize; levels + 2];
        for n in nodes {
            starts[usize::from(n.level) + 2] += 1;
        }
        for l in 2..starts.len() {
            starts[l] += starts[l - 1];
        }
        let mut order = vec![0u32; nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            let at = &mut starts[usize::from(n.level) + 1];
            order[*at] = i as u32;
            *at += 1;
        }
        let refs: Vec<AtomicU32> = (0..upto + 2).map(|_| AtomicU32::new(FALSE)).collect();
        refs[1].store(TRUE, Ordering::Relaxed);
        store.run(upto + 16, |s| {
            let get = |r: u32| refs[r as usize].load(Ordering::Relaxed);
            for level in (0..levels).rev() {
                let these = &order[starts[level]..starts[level + 1]];
                let make = |&i: &u32| {
                    let n = nodes[i as usize];
                    let r = s.mk(u32::from(n.level), get(n.lo), get(n.hi));
                    refs[i as usize + 2].store(r, Ordering::Relaxed);
                };
                if these.len() >= parallel {
                    these.par_iter().for_each(make);
                } else {
                    these.iter().for_each(make);
                }
            }
            FALSE
        });
        if store.overflowed() {
            return None;
        }
        Some(
            self.roots
                .iter()
                .map(|&r| refs[r as usize].load(Ordering::Relaxed))
                .collect(),
        )
    }

    /// The number of assignments of every variable in each set, counted over the file's own
    /// nodes (children first, so one pass); `None` when one does not fit in a `u64`.
    pub fn count_sets(&self) -> Option<Vec<u64>> {
        let levels = self.layout.levels();
        let nodes = self.reached();
        // counts[r]: the assignments of the levels from r's own level on.
        let mut counts: Vec<u128> = Vec::with_capacity(nodes.len() + 2);
        counts.extend([0, 1]);
        let level = |r: u32| {
            if r <= TRUE {
                levels
            } else {
                u32::from(self.nodes[r as usize - 2].level)
            }
        };
        // The assignments of the levels from `from` on, for the set `r`.
        let from = |counts: &[u128], from: u32, r: u32| -> Option<u128> {
            counts[r as usize].checked_mul(1u128.checked_shl(level(r) - from)?)
        };
        for n in nodes {
            let below = u32::from(n.level) + 1;
            let c = from(&counts, below, n.lo)?.checked_add(from(&counts, below, n.hi)?)?;
            counts.push(c);
        }
        self.roots
            .iter()
            .map(|&r| from(&counts, 0, r).and_then(|c| u64::try_from(c).ok()))
            .collect()
    }

    /// Whether set `set` holds the assignment `bits` (one value a level).
    pub fn contains(&self, set: usize, bits: &[bool]) -> bool {
        let mut r = self.roots[set];
        while r > TRUE {
            let n = self.nodes[r as usize - 2];
            r = if bits[usize::from(n.level)] {
                n.hi
            } else {
                n.lo
            };
        }
        r == TRUE
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let sets = self.roots.len();
        let mut b = Vec::with_capacity(HEADER + 4 * sets + NODE * self.nodes.len() + 8);
        b.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            self.kind.code(),
            self.layout.cols,
            self.layout.rows,
            self.ply,
            self.piece.len() as u32,
            piece_index(self.layout, &self.piece),
            sets as u32,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&(self.nodes.len() as u64).to_le_bytes());
        for &c in &self.counts {
            b.extend_from_slice(&c.to_le_bytes());
        }
        for &r in &self.roots {
            b.extend_from_slice(&r.to_le_bytes());
        }
        for n in &self.nodes {
            b.extend_from_slice(&n.level.to_le_bytes());
            b.extend_from_slice(&n.lo.to_le_bytes());
            b.extend_from_slice(&n.hi.to_le_bytes());
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a file's bytes, checking the checksum and that the diagrams are well formed
    /// (ordered, reduced, children before parents), and that the file is the one expected.
    pub fn from_bytes(
        bytes: &[u8],
        path: &Path,
        kind: Kind,
        layout: Layout,
        (ply, piece): (u32, &[u8]),
    ) -> Result<Diagrams, Error> {
        let corrupt = |reason: String| Error::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        let head = Head::parse(bytes, bytes.len() as u64, path, kind, layout, (ply, piece))?;
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if u64::from_le_bytes(sum.try_into().expect("8 bytes")) != fnv1a(body) {
            return Err(corrupt(
                "checksum mismatch: the file is truncated or altered".into(),
            ));
        }
        let word = |at: usize| u32::from_le_bytes(body[at..at + 4].try_into().expect("4 bytes"));
        let Head {
            counts,
            roots,
            nodes: count,
        } = head;
        let start = HEADER + 4 * roots.len();
        let levels = layout.levels();
        let mut nodes: Vec<FileNode> = Vec::with_capacity(count as usize);
        let level_of = |nodes: &[FileNode], r: u32| {
            if r <= TRUE {
                levels
            } else {
                u32::from(nodes[r as usize - 2].level)
            }
        };
        for i in 0..count as usize {
            let at = start + NODE * i;
            let n = FileNode {
                level: u16::from_le_bytes([body[at], body[at + 1]]),
                lo: word(at + 2),
                hi: word(at + 6),
            };
            let here = i as u32 + 2;
            let ok = u32::from(n.level) < levels
                && n.lo < here
                && n.hi < here
                && n.lo != n.hi
                && level_of(&nodes, n.lo) > u32::from(n.level)
                && level_of(&nodes, n.hi) > u32::from(n.level);
            if !ok {
                return Err(corrupt(format!(
                    "node {i} is not a node of an ordered diagram"
                )));
            }
            nodes.push(n);
        }
        if roots.iter().any(|&r| r as usize >= nodes.len() + 2) {
            return Err(corrupt("a root is not a node of the file".into()));
        }
        Ok(Diagrams {
            kind,
            layout,
            ply,
            counts,
            piece: piece.to_vec(),
            roots,
            nodes,
        })
    }

    /// Writes the file of its ply into `dir`, atomically.
    pub fn write(&self, dir: &Path) -> Result<(), Error> {
        let path = self.kind.file(dir, self.ply, &self.piece);
        let mut file = AtomicFile::create(&path).map_err(io(&path))?;
        file.write_all(&self.to_bytes()).map_err(io(&path))?;
        file.commit().map_err(io(&path))
    }

    /// Reads the file of kind `kind` of ply `ply` (and piece `piece`) from `dir`; `Ok(None)`
    /// when there is none.
    pub fn read(
        dir: &Path,
        kind: Kind,
        layout: Layout,
        (ply, piece): (u32, &[u8]),
    ) -> Result<Option<Self>, Error> {
        let path = kind.file(dir, ply, piece);
        match std::fs::read(&path) {
            Ok(bytes) => Diagrams::from_bytes(&bytes, &path, kind, layout, (ply, piece)).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io(&path)(e)),
        }
    }
}

/// What the start of a file says, checked against what the file should be.
struct Head {
    counts: [u64; 2],
    roots: Vec<u32>,
    nodes: u64,
}

impl Head {
    /// Reads the header and roots at the start of a file of `len` bytes (`bytes` holds at
    /// least the header and the roots when the file has them), refusing a file of another
    /// format, version, board, ply, piece or kind, or whose length does not match.
    fn parse(
        bytes: &[u8],
        len: u64,
        path: &Path,
        kind: Kind,
        layout: Layout,
        (ply, piece): (u32, &[u8]),
    ) -> Result<Head, Error> {
        let corrupt = |reason: String| Error::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        if len < (HEADER + 8) as u64 || bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(corrupt(
                "not a diagram file of a strong solution (too short or wrong magic)".into(),
            ));
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let long = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let version = word(8);
        if version != VERSION {
            return Err(corrupt(format!(
                "format version {version}; this program reads version {VERSION}"
            )));
        }
        let (code, cols, rows, at_ply) = (word(12), word(16), word(20), word(24));
        let (split, index, sets) = (word(28), word(32), word(36));
        let count = long(40);
        let want = (piece.len() as u32, piece_index(layout, piece));
        if code != kind.code()
            || cols != layout.cols
            || rows != layout.rows
            || at_ply != ply
            || (split, index) != want
        {
            return Err(Error::Mismatch {
                path: path.to_path_buf(),
                reason: format!(
                    "holds kind {code} of ply {at_ply} (piece {index} of {split} columns) of a \
                     {cols}×{rows} board, not kind {} of ply {ply} (piece {} of {}) of {}×{}",
                    kind.code(),
                    want.1,
                    want.0,
                    layout.cols,
                    layout.rows
                ),
            });
        }
        let sets = sets as usize;
        let expected = count
            .checked_mul(NODE as u64)
            .and_then(|n| n.checked_add((HEADER + 4 * sets + 8) as u64));
        if sets != kind.sets() || expected != Some(len) || bytes.len() < HEADER + 4 * sets {
            return Err(corrupt(format!(
                "the file is truncated or altered: {sets} sets and {count} nodes do not fill \
                 {len} bytes"
            )));
        }
        let roots: Vec<u32> = (0..sets).map(|i| word(HEADER + 4 * i)).collect();
        if roots.iter().any(|&r| u64::from(r) >= count + 2) {
            return Err(corrupt("a root is not a node of the file".into()));
        }
        Ok(Head {
            counts: [long(48), long(56)],
            roots,
            nodes: count,
        })
    }
}

/// A ply file read in place: the header and roots in memory, each node read from the file when
/// a look-up walks through it, so that a position is answered from a file of any size in a few
/// dozen reads. Only the nodes walked are checked (the checksum covers the whole file and is
/// checked when a run resumes or [`Diagrams::read`] loads a file).
struct View {
    path: PathBuf,
    file: std::fs::File,
    levels: u32,
    roots: Vec<u32>,
}

impl View {
    fn open(
        dir: &Path,
        kind: Kind,
        layout: Layout,
        at: (u32, &[u8]),
    ) -> Result<Option<View>, Error> {
        use std::io::Read;
        let path = kind.file(dir, at.0, at.1);
        let file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io(&path)(e)),
        };
        let len = file.metadata().map_err(io(&path))?.len();
        let mut start = Vec::with_capacity(HEADER + 8);
        (&file)
            .take((HEADER + 4 * 2) as u64)
            .read_to_end(&mut start)
            .map_err(io(&path))?;
        let head = Head::parse(&start, len, &path, kind, layout, at)?;
        Ok(Some(View {
            path,
            file,
            levels: layout.levels(),
            roots: head.roots,
        }))
    }

    /// Whether set `set` holds the assignment `bits`, reading the nodes on its path.
    fn contains(&self, set: usize, bits: &[bool]) -> Result<bool, Error> {
        use std::io::{Read, Seek, SeekFrom};
        let start = (HEADER + 4 * self.roots.len()) as u64;
        let mut r = self.roots[set];
        let mut above = None;
        while r > TRUE {
            let mut b = [0u8; NODE];
            (&self.file)
                .seek(SeekFrom::Start(start + NODE as u64 * u64::from(r - 2)))
                .and_then(|_| (&self.file).read_exact(&mut b))
                .map_err(io(&self.path))?;
            let level = u32::from(u16::from_le_bytes([b[0], b[1]]));
            let lo = u32::from_le_bytes(b[2..6].try_into().expect("4 bytes"));
            let hi = u32::from_le_bytes(b[6..10].try_into().expect("4 bytes"));
            if level >= self.levels || lo >= r || hi >= r || above.is_some_and(|a| level <= a) {
                return Err(Error::Corrupt {
                    path: self.path.clone(),
                    reason: format!("node {} is not a node of an ordered diagram", r - 2),
                });
            }
            above = Some(level);
            r = if bits[level as usize] { hi } else { lo };
        }
        Ok(r == TRUE)
    }
}

/// Checks every ply file in `dir` of a solution of `layout` (checksum, form, board, ply and
/// kind), so that a resume stops on a bad file before it writes anything.
pub fn verify(dir: &Path, manifest: Manifest) -> Result<(), Error> {
    let Manifest { layout, split } = manifest;
    for ply in 0..=layout.cols * layout.rows {
        Diagrams::read(dir, Kind::Open, layout, (ply, &[]))?;
        for piece in pieces(layout, split, ply) {
            Diagrams::read(dir, Kind::Values, layout, (ply, &piece))?;
        }
    }
    Ok(())
}

/// The index of a piece in a file's header: the height of column `i` as digit `i` in base
/// `rows + 1`.
fn piece_index(layout: Layout, piece: &[u8]) -> u32 {
    piece
        .iter()
        .rev()
        .fold(0, |index, &h| index * (layout.rows + 1) + u32::from(h))
}

/// The pieces of ply `ply` when plies are cut by the heights of their first `split` columns:
/// every list of `split` heights that positions of the ply can have (the other columns hold
/// the rest of the ply's chips), in lexicographic order.
pub fn pieces(layout: Layout, split: u32, ply: u32) -> Vec<Vec<u8>> {
    let rest = (layout.cols - split) * layout.rows;
    let mut out = Vec::new();
    let mut piece = vec![0u8; split as usize];
    loop {
        let sum: u32 = piece.iter().map(|&h| u32::from(h)).sum();
        if sum <= ply && ply - sum <= rest {
            out.push(piece.clone());
        }
        // The next list of heights, the last column counting fastest.
        let Some(i) = piece.iter().rposition(|&h| u32::from(h) < layout.rows) else {
            return out;
        };
        piece[i] += 1;
        piece[i + 1..].fill(0);
    }
}

/// The heights of the first `split` columns of a position, given the heights of all of them.
pub fn piece_of(heights: &[u8], split: u32) -> &[u8] {
    &heights[..split as usize]
}

/// The counts of one ply known so far, for the manifest.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PlyCounts {
    /// Positions of the ply.
    pub positions: u64,
    /// Those where the previous move made a four.
    pub terminal: u64,
    /// Won, drawn and lost, once the backward pass is past the ply.
    pub values: Option<[u64; 3]>,
}

/// The manifest of a solution of the board `layout`, with the plies known so far (index =
/// ply).
pub fn manifest_text(manifest: Manifest, plies: &[Option<PlyCounts>]) -> String {
    let Manifest { layout, split } = manifest;
    let mut s = format!(
        "format = {FORMAT}\nversion = {VERSION}\ncolumns = {}\nrows = {}\ncells = {}\n\
         variables = {}\n\
         encoding = columns left to right, rows + 1 variables each from the top bit down; a \
         column of height h has bit h set, the bits above clear and below the colours of its \
         chips (set for the first player)\n\
         split = {split}\n\
         files = open-PP.bdd: the open positions of ply PP; values-PP-H.bdd: the won and lost \
         open positions for the side to move of ply PP whose first `split` columns have the \
         heights H (a digit each, base 36; values-PP.bdd when split is 0)\n\
         checksum = FNV-1a 64, the last 8 bytes of each file\n\
         counts = positions terminal won drawn lost (won + drawn + lost = positions; terminal, \
         the previous move made a four, is part of lost)\n",
        layout.cols,
        layout.rows,
        layout.cols * layout.rows,
        layout.levels()
    );
    for (ply, p) in plies.iter().enumerate() {
        if let Some(p) = p {
            s += &format!("ply.{ply} = {} {}", p.positions, p.terminal);
            if let Some([won, drawn, lost]) = p.values {
                s += &format!(" {won} {drawn} {lost}");
            }
            s.push('\n');
        }
    }
    s
}

/// Writes the manifest into `dir`, atomically.
pub fn write_manifest(
    dir: &Path,
    manifest: Manifest,
    plies: &[Option<PlyCounts>],
) -> Result<(), Error> {
    let path = dir.join(MANIFEST);
    let mut file = AtomicFile::create(&path).map_err(io(&path))?;
    file.write_all(manifest_text(manifest, plies).as_bytes())
        .map_err(io(&path))?;
    file.commit().map_err(io(&path))
}

/// Whether `dir` holds a manifest.
pub fn has_manifest(dir: &Path) -> bool {
    dir.join(MANIFEST).exists()
}

/// What a manifest says of its solution's files: the board, and the columns its plies are cut
/// by.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The board.
    pub layout: Layout,
    /// The values of a ply are kept in pieces by the heights of this many first columns.
    pub split: u32,
}

/// Reads the board of the solution in `dir` and how its plies are cut from its manifest,
/// refusing another format or version.
pub fn read_manifest(dir: &Path) -> Result<Manifest, Error> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(io(&path))?;
    let corrupt = |reason: String| Error::Corrupt {
        path: path.clone(),
        reason,
    };
    let mut fields = std::collections::HashMap::new();
    for line in text.lines() {
        let Some((key, value)) = line.split_once(" = ") else {
            return Err(corrupt(format!("not a `key = value` line: {line:?}")));
        };
        fields.insert(key, value);
    }
    if fields.get("format") != Some(&FORMAT) {
        return Err(corrupt(format!("not a manifest of a {FORMAT}")));
    }
    if fields.get("version") != Some(&VERSION.to_string().as_str()) {
        return Err(corrupt(format!(
            "format version {}; this program reads version {VERSION}",
            fields.get("version").unwrap_or(&"(none)")
        )));
    }
    let number = |key: &str| -> Result<u32, Error> {
        fields
            .get(key)
            .and_then(|v| v.parse().ok())
            .filter(|&n| (1..=64).contains(&n))
            .ok_or_else(|| corrupt(format!("no valid `{key}`")))
    };
    let layout = Layout {
        cols: number("columns")?,
        rows: number("rows")?,
    };
    let split = fields
        .get("split")
        .and_then(|v| v.parse().ok())
        .filter(|&n: &u32| n <= layout.cols && layout.rows < 36)
        .ok_or_else(|| corrupt("no valid `split`".into()))?;
    Ok(Manifest { layout, split })
}

/// Where a solution of the board is looked for when no directory is named: the directory
/// `fourow-solution-WxH` in tomek's data directory, which is `$TOMEK_DATA_DIR` when set, else
/// `$XDG_DATA_HOME/tomek` or `~/.local/share/tomek` (Linux and other Unix systems),
/// `~/Library/Application Support/tomek` (macOS), `%APPDATA%\tomek` (Windows). `None` when
/// the environment names no home.
pub fn default_dir(layout: Layout) -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let data = var("TOMEK_DATA_DIR").or_else(|| {
        if cfg!(windows) {
            var("APPDATA").map(|d| d.join("tomek"))
        } else if cfg!(target_os = "macos") {
            var("HOME").map(|h| h.join("Library/Application Support/tomek"))
        } else {
            var("XDG_DATA_HOME")
                .map(|d| d.join("tomek"))
                .or_else(|| var("HOME").map(|h| h.join(".local/share/tomek")))
        }
    })?;
    Some(data.join(format!("fourow-solution-{}x{}", layout.cols, layout.rows)))
}

/// The solution of the board in `dir`, or else in [`default_dir`] when one is saved there;
/// `Ok(None)` when no directory is named and there is none in the default place.
pub fn find(dir: Option<&Path>, layout: Layout) -> Result<Option<Saved>, Error> {
    let dir = match dir {
        Some(d) => d.to_path_buf(),
        None => match default_dir(layout) {
            Some(d) if has_manifest(&d) => d,
            _ => return Ok(None),
        },
    };
    let saved = Saved::open(&dir)?;
    if saved.layout() != layout {
        return Err(Error::Mismatch {
            path: dir.join(MANIFEST),
            reason: format!(
                "a solution of the {}×{} board, not of {}×{}",
                saved.layout().cols,
                saved.layout().rows,
                layout.cols,
                layout.rows
            ),
        });
    }
    Ok(Some(saved))
}

/// Why a position cannot be looked up in a saved solution.
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    /// The solution's files cannot be used.
    #[error(transparent)]
    Saved(#[from] Error),
    /// A move is outside the board or in a full column.
    #[error("move {at} (column {col}) cannot be played")]
    BadMove {
        /// The 1-based number of the move.
        at: usize,
        /// The 1-based column.
        col: u32,
    },
    /// The ply of the position has no values file yet (the run that saves it stopped before).
    #[error("{}: ply {ply} is not solved there yet", path.display())]
    Unsolved {
        /// The missing file.
        path: PathBuf,
        /// The ply.
        ply: u32,
    },
}

/// A strong solution saved by [`super::values::save`], answering positions from its
/// diagrams. The files of a ply are read the first time a position of that ply is asked
/// about, and kept.
pub struct Saved {
    dir: PathBuf,
    manifest: Manifest,
    files: std::collections::HashMap<(u32, u32, Vec<u8>), View>,
}

impl Saved {
    /// Opens the solution in `dir`, reading its manifest.
    pub fn open(dir: &Path) -> Result<Saved, Error> {
        Ok(Saved {
            dir: dir.to_path_buf(),
            manifest: read_manifest(dir)?,
            files: std::collections::HashMap::new(),
        })
    }

    /// The board solved.
    pub fn layout(&self) -> Layout {
        self.manifest.layout
    }

    fn file(&mut self, kind: Kind, ply: u32, piece: &[u8]) -> Result<&View, LookupError> {
        let key = (kind.code(), ply, piece.to_vec());
        if !self.files.contains_key(&key) {
            let layout = self.manifest.layout;
            let Some(file) = View::open(&self.dir, kind, layout, (ply, piece))? else {
                return Err(LookupError::Unsolved {
                    path: kind.file(&self.dir, ply, piece),
                    ply,
                });
            };
            self.files.insert(key.clone(), file);
        }
        Ok(&self.files[&key])
    }

    /// The variables of the position whose columns hold `columns` (bottom chip first, `true`
    /// for the first player's).
    fn bits(&self, columns: &[Vec<bool>]) -> Vec<bool> {
        let layout = self.manifest.layout;
        let mut bits = vec![false; layout.levels() as usize];
        for (col, chips) in columns.iter().enumerate() {
            let col = col as u32;
            for (row, &first) in chips.iter().enumerate() {
                bits[layout.level(col, row as u32) as usize] = first;
            }
            bits[layout.level(col, chips.len() as u32) as usize] = true;
        }
        bits
    }

    /// The value for the side to move of the position reached by `moves` (0-based columns),
    /// or `None` when that position is not one of the game (it has a four that no order of
    /// its moves makes last). The position counts, not the order: moves that go on after a
    /// four still reach a position of the game when another order of them does not.
    ///
    /// An open position is found in the diagrams of its ply (won, lost, or else drawn). A
    /// position that is not open is terminal, and lost, when taking back one of the last
    /// mover's top chips leaves an open position of the ply before.
    pub fn value(&mut self, moves: &[u8]) -> Result<Option<super::values::Value>, LookupError> {
        use super::values::Value;
        let Layout { cols, rows } = self.manifest.layout;
        let mut columns: Vec<Vec<bool>> = vec![Vec::new(); cols as usize];
        for (i, &col) in moves.iter().enumerate() {
            match columns.get_mut(col as usize) {
                Some(column) if column.len() < rows as usize => column.push(i % 2 == 0),
                _ => {
                    return Err(LookupError::BadMove {
                        at: i + 1,
                        col: u32::from(col) + 1,
                    });
                }
            }
        }
        let ply = moves.len() as u32;
        let bits = self.bits(&columns);
        if self.file(Kind::Open, ply, &[])?.contains(0, &bits)? {
            let heights: Vec<u8> = columns.iter().map(|c| c.len() as u8).collect();
            let piece = piece_of(&heights, self.manifest.split);
            let values = self.file(Kind::Values, ply, piece)?;
            return Ok(Some(if values.contains(0, &bits)? {
                Value::Won
            } else if values.contains(1, &bits)? {
                Value::Lost
            } else {
                Value::Drawn
            }));
        }
        if ply == 0 {
            return Ok(None);
        }
        let mover = ply % 2 == 1;
        for col in 0..cols as usize {
            if columns[col].last() == Some(&mover) {
                columns[col].pop();
                let before = self.bits(&columns);
                columns[col].push(mover);
                if self.file(Kind::Open, ply - 1, &[])?.contains(0, &before)? {
                    return Ok(Some(Value::Lost));
                }
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file read back on every core makes the same sets as on one, and its own count of
    /// them equals the store's.
    #[test]
    fn files_build_the_same_sets_on_one_core_and_on_all() {
        let layout = Layout { cols: 5, rows: 4 };
        let mut store = Store::new(layout.levels(), 1 << 30);
        let x = layout.wins(&mut store, true);
        let o = layout.wins(&mut store, false);
        let file = Diagrams::from_store(&store, Kind::Values, layout, (0, &[]), &[x, o], [0, 0]);
        assert!(file.nodes() > 1000, "{} nodes", file.nodes());
        let own = file.count_sets().expect("counts fit");
        let expected = store.count(&[x, o], 1 << 30).expect("counts fit");
        assert_eq!(
            own.iter().map(|&n| u128::from(n)).collect::<Vec<_>>(),
            expected
        );
        for parallel in [1, usize::MAX] {
            let mut again = Store::new(layout.levels(), 1 << 30);
            let roots = file.build(&mut again, parallel).expect("room");
            assert_eq!(again.count(&roots, 1 << 30), Some(expected.clone()));
            let back = Diagrams::from_store(&again, Kind::Values, layout, (0, &[]), &roots, [0, 0]);
            assert_eq!(back, file, "parallel from {parallel}");
        }
    }
}
