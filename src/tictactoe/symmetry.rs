//! Symmetries of a board: permutations of the squares that map the set of winning lines onto
//! itself. They preserve every rule, so two boards one symmetry apart have the same status,
//! the same value and the same number of games below them.
//!
//! [`automorphisms`] finds the whole group by search rather than listing it: on the 4×4 board it
//! holds 32 permutations, four times the 8 rotations and reflections, because swapping the two
//! middle rows and the two middle columns together (or the outer pairs with the inner pairs)
//! keeps every row, column and diagonal a line.

use crate::tictactoe::board::Board;
use crate::tictactoe::rules::Geometry;

/// A permutation of the squares, applied to masks with two byte tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Perm {
    /// `image[s]`: where square `s` goes.
    pub image: Vec<u8>,
    lo: [u16; 256],
    hi: [u16; 256],
}

impl Perm {
    /// The permutation sending square `s` to `image[s]`.
    pub fn new(image: Vec<u8>) -> Perm {
        let mut lo = [0u16; 256];
        let mut hi = [0u16; 256];
        for v in 0..256usize {
            for (s, &to) in image.iter().enumerate() {
                let bit = 1u16 << to;
                if s < 8 && v >> s & 1 == 1 {
                    lo[v] |= bit;
                }
                if s >= 8 && v >> (s - 8) & 1 == 1 {
                    hi[v] |= bit;
                }
            }
        }
        Perm { image, lo, hi }
    }

    /// The image of a set of squares.
    #[inline]
    pub fn apply(&self, m: u16) -> u16 {
        self.lo[(m & 0xFF) as usize] | self.hi[(m >> 8) as usize]
    }

    /// The image of a board (stones and `T` move together).
    #[inline]
    pub fn board(&self, b: Board) -> Board {
        Board {
            x: self.apply(b.x),
            o: self.apply(b.o),
            t: self.apply(b.t),
        }
    }

    /// Whether every square stays in place.
    pub fn is_identity(&self) -> bool {
        self.image
            .iter()
            .enumerate()
            .all(|(s, &to)| s == to as usize)
    }
}

/// Which symmetries count two boards as the same.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Symmetry {
    /// Every permutation of squares that maps lines onto lines (found by search).
    #[default]
    Full,
    /// The rotations and reflections of the board only.
    Dihedral,
}

impl Symmetry {
    /// Every permutation of the group on geometry `g`.
    pub fn group(self, g: &Geometry) -> Vec<Perm> {
        match self {
            Symmetry::Full => automorphisms(g),
            Symmetry::Dihedral => dihedral(g),
        }
    }
}

/// Every permutation of the squares that maps the set of lines onto itself, identity first.
///
/// Squares are given images one at a time. The squares of a line already placed must land
/// inside one line (an automorphism maps the whole line onto a line), and once every square of
/// a line has an image, that image must be a line: together these prune the search to a few
/// thousand nodes.
pub fn automorphisms(g: &Geometry) -> Vec<Perm> {
    let n = g.cells() as usize;
    let lines: std::collections::HashSet<u16> = g.lines.iter().copied().collect();
    // Lines grouped by their highest square: checked once that square has its image.
    let mut closing: Vec<Vec<u16>> = vec![Vec::new(); n];
    for &l in &g.lines {
        closing[15 - l.leading_zeros() as usize].push(l);
    }
    // Every subset of a line, and the lines through each square.
    let mut within = vec![false; 1 << n];
    for &l in &g.lines {
        let mut sub = l;
        loop {
            within[sub as usize] = true;
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & l;
        }
    }
    let through: Vec<Vec<u16>> = (0..n)
        .map(|q| {
            g.lines
                .iter()
                .copied()
                .filter(|l| l >> q & 1 == 1)
                .collect()
        })
        .collect();
    let ctx = Ctx {
        n,
        closing,
        through,
        within,
        lines,
    };
    let mut found = Vec::new();
    let mut image = vec![0u8; n];
    struct Ctx {
        n: usize,
        closing: Vec<Vec<u16>>,
        through: Vec<Vec<u16>>,
        within: Vec<bool>,
        lines: std::collections::HashSet<u16>,
    }
    fn search(s: usize, used: u16, image: &mut Vec<u8>, ctx: &Ctx, found: &mut Vec<Vec<u8>>) {
        if s == ctx.n {
            found.push(image.clone());
            return;
        }
        let mapped = |l: u16, image: &[u8]| {
            (0..=s)
                .filter(|&q| l >> q & 1 == 1)
                .fold(0u16, |m, q| m | 1 << image[q])
        };
        for to in 0..ctx.n {
            if used >> to & 1 == 1 {
                continue;
            }
            image[s] = to as u8;
            let ok = ctx.through[s]
                .iter()
                .all(|&l| ctx.within[mapped(l, image) as usize])
                && ctx.closing[s]
                    .iter()
                    .all(|&l| ctx.lines.contains(&mapped(l, image)));
            if ok {
                search(s + 1, used | 1 << to, image, ctx, found);
            }
        }
    }
    search(0, 0, &mut image, &ctx, &mut found);
    found.sort();
    found.into_iter().map(Perm::new).collect()
}

/// The rotations and reflections that map the board onto itself: 8 for a square board, 4 for
/// a rectangle; identity first. Kept only when they also map lines onto lines.
pub fn dihedral(g: &Geometry) -> Vec<Perm> {
    let (rows, cols) = (g.rows as i32, g.cols as i32);
    let mut out: Vec<Vec<u8>> = Vec::new();
    for transpose in [false, true] {
        if transpose && rows != cols {
            continue;
        }
        for flip_r in [false, true] {
            for flip_c in [false, true] {
                let image = (0..rows * cols)
                    .map(|s| {
                        let (mut r, mut c) = (s / cols, s % cols);
                        if flip_r {
                            r = rows - 1 - r;
                        }
                        if flip_c {
                            c = cols - 1 - c;
                        }
                        if transpose {
                            std::mem::swap(&mut r, &mut c);
                        }
                        (r * cols + c) as u8
                    })
                    .collect();
                out.push(image);
            }
        }
    }
    out.sort();
    let lines: std::collections::HashSet<u16> = g.lines.iter().copied().collect();
    out.into_iter()
        .map(Perm::new)
        .filter(|p| g.lines.iter().all(|&l| lines.contains(&p.apply(l))))
        .collect()
}

/// Whether `b` is the smallest board of its orbit under `group` (comparing packed codes).
#[inline]
pub fn is_canonical(b: Board, group: &[Perm]) -> bool {
    let code = b.pack();
    group.iter().all(|g| g.board(b).pack() >= code)
}

/// The smallest board of the orbit of `b`.
pub fn canonical(b: Board, group: &[Perm]) -> Board {
    group.iter().map(|g| g.board(b)).min().unwrap_or(b)
}

/// Boards compared as their text reads: square by square in reading order, with the symbols
/// in byte order (`.` < `O` < `T` < `X`), so that the smallest board of an orbit is the one
/// whose text sorts first.
///
/// A board becomes a number with two bits a square and the first square highest, so numbers
/// compare as texts do. A permutation moves whole two-bit fields, four squares to a byte, so it
/// acts on that number through four byte tables.
pub struct TextOrder {
    /// Per byte of the number, per value of that byte, per permutation: the image of that
    /// byte's four squares. The images of one byte value lie side by side, so the images of a
    /// board under every permutation are four rows OR-ed lane by lane, which vectorises.
    images: Vec<u32>,
    /// Permutations, rounded up to a whole number of vector lanes; the padding lanes hold
    /// `u32::MAX`, which never wins.
    stride: usize,
    /// The lanes of the subgroup of a [`TextOrder::nested`] order; 0 for others.
    first: usize,
    /// The squares of a byte of a mask spread to two-bit fields worth 1 (low byte, high byte).
    spread: [[u32; 256]; 2],
    cells: u32,
}

impl TextOrder {
    /// The order of boards of `g` under `group`.
    pub fn new(g: &Geometry, group: &[Perm]) -> TextOrder {
        TextOrder::of_lanes(g, &group.iter().map(Some).collect::<Vec<_>>())
    }

    /// The order of boards of `g` under `group`, which holds `subgroup`, so that one sweep
    /// gives the smallest image under both ([`TextOrder::smallest_codes`]): the subgroup
    /// fills the first lanes. `None` when `subgroup` is not within `group`.
    pub fn nested(g: &Geometry, subgroup: &[Perm], group: &[Perm]) -> Option<TextOrder> {
        if !subgroup.iter().all(|p| group.contains(p)) {
            return None;
        }
        let mut lanes: Vec<Option<&Perm>> = subgroup.iter().map(Some).collect();
        lanes.resize(subgroup.len().div_ceil(8) * 8, None);
        lanes.extend(group.iter().filter(|p| !subgroup.contains(p)).map(Some));
        let mut order = TextOrder::of_lanes(g, &lanes);
        order.first = subgroup.len().div_ceil(8) * 8;
        Some(order)
    }

    /// The order under the permutations of `lanes`, a lane each; an empty lane never wins.
    fn of_lanes(g: &Geometry, lanes: &[Option<&Perm>]) -> TextOrder {
        let field = |square: usize| 2 * (15 - square as u32);
        let mut spread = [[0u32; 256]; 2];
        for (half, table) in spread.iter_mut().enumerate() {
            for (v, entry) in table.iter_mut().enumerate() {
                for bit in 0..8 {
                    if v >> bit & 1 == 1 {
                        *entry |= 1 << field(half * 8 + bit);
                    }
                }
            }
        }
        let stride = lanes.len().div_ceil(8) * 8;
        let mut images = vec![0u32; 4 * 256 * stride];
        for k in 0..4 {
            for v in 0..256 {
                let row = &mut images[(k * 256 + v) * stride..][..stride];
                row.fill(u32::MAX);
                for (i, p) in lanes.iter().enumerate() {
                    let Some(p) = p else { continue };
                    row[i] = 0;
                    for j in 0..4 {
                        // Bits 8k + 2j of the number hold square 15 - 4k - j.
                        let square = 15 - 4 * k - j;
                        let symbol = (v >> (2 * j) & 3) as u32;
                        if symbol != 0 && square < p.image.len() {
                            row[i] |= symbol << field(p.image[square] as usize);
                        }
                    }
                }
            }
        }
        TextOrder {
            images,
            stride,
            first: 0,
            spread,
            cells: g.cells(),
        }
    }

    fn spread(&self, m: u16) -> u32 {
        self.spread[0][(m & 0xFF) as usize] | self.spread[1][(m >> 8) as usize]
    }

    /// The number of a board: its text, two bits a symbol (`.` 0, `O` 1, `T` 2, `X` 3).
    #[inline]
    pub fn code(&self, b: Board) -> u32 {
        3 * self.spread(b.x) + self.spread(b.o) + 2 * self.spread(b.t)
    }

    /// The number of the board whose text sorts first in the orbit of `b`.
    #[inline]
    pub fn smallest_code(&self, b: Board) -> u32 {
        if self.stride == 0 {
            return self.code(b);
        }
        self.smallest_codes(b).1
    }

    /// The numbers of the boards whose texts sort first in the orbits of `b` under the
    /// subgroup and under the group of a [`TextOrder::nested`] order; for other orders,
    /// `u32::MAX` and the one under every permutation.
    #[inline]
    pub fn smallest_codes(&self, b: Board) -> (u32, u32) {
        let c = self.code(b);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { self.smallest_images_avx2(c) };
        }
        self.smallest_images(c)
    }

    /// [`TextOrder::smallest_images`] with AVX2, which has an unsigned minimum eight lanes
    /// wide (the baseline's SSE2 has none, and takes five instructions per minimum).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn smallest_images_avx2(&self, c: u32) -> (u32, u32) {
        self.smallest_images(c)
    }

    /// The smallest image of board number `c` under the subgroup, then under every lane.
    #[inline(always)]
    fn smallest_images(&self, c: u32) -> (u32, u32) {
        let n = self.stride;
        let row = |k: usize| &self.images[(k * 256 + (c >> (8 * k) & 0xFF) as usize) * n..][..n];
        let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
        let mut best = u32::MAX;
        for i in 0..self.first {
            best = best.min(r0[i] | r1[i] | r2[i] | r3[i]);
        }
        let sub = best;
        for i in self.first..n {
            best = best.min(r0[i] | r1[i] | r2[i] | r3[i]);
        }
        (sub, best)
    }

    /// Writes the text of a board number, one symbol a square, into `out`.
    #[inline]
    pub fn write_text(&self, code: u32, out: &mut [u8]) {
        /// The four symbols of each byte of a number, first square first.
        const FOUR: [[u8; 4]; 256] = {
            let mut t = [[0u8; 4]; 256];
            let mut v = 0;
            while v < 256 {
                let mut j = 0;
                while j < 4 {
                    t[v][j] = b".OTX"[(v >> (6 - 2 * j)) & 3];
                    j += 1;
                }
                v += 1;
            }
            t
        };
        let mut text = [0u8; 16];
        for (k, four) in text.chunks_exact_mut(4).enumerate() {
            four.copy_from_slice(&FOUR[(code >> (24 - 8 * k) & 0xFF) as usize]);
        }
        let n = self.cells as usize;
        out[..n].copy_from_slice(&text[..n]);
    }

    /// The board of a number.
    pub fn board(&self, code: u32) -> Board {
        let mut b = Board::default();
        for i in 0..self.cells {
            let bit = 1u16 << i;
            match code >> (2 * (15 - i)) & 3 {
                1 => b.o |= bit,
                2 => b.t |= bit,
                3 => b.x |= bit,
                _ => {}
            }
        }
        b
    }

    /// The board whose text sorts first in the orbit of `b`.
    pub fn smallest(&self, b: Board) -> Board {
        self.board(self.smallest_code(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_orders() {
        let g4 = Geometry::tomek();
        let full = automorphisms(g4);
        assert_eq!(full.len(), 32);
        assert!(full[0].is_identity());
        assert_eq!(dihedral(g4).len(), 8);
        let g3 = Geometry::new(3, 3, 3, false).unwrap();
        assert_eq!(automorphisms(&g3).len(), 8);
        assert_eq!(dihedral(&g3), automorphisms(&g3));
        // Every dihedral symmetry is an automorphism.
        for d in dihedral(g4) {
            assert!(full.contains(&d));
        }
    }

    #[test]
    fn group_is_closed_under_composition() {
        let full = automorphisms(Geometry::tomek());
        for a in &full {
            for b in &full {
                let ab: Vec<u8> = (0..16).map(|s| b.image[a.image[s] as usize]).collect();
                assert!(full.iter().any(|p| p.image == ab));
            }
        }
    }

    #[test]
    fn text_order_matches_the_texts() {
        let g = Geometry::tomek();
        let group = automorphisms(g);
        let order = TextOrder::new(g, &group);
        let rotations = dihedral(g);
        let both = TextOrder::nested(g, &rotations, &group).unwrap();
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let x = (rng & 0xFFFF) as u16;
            let o = (rng >> 16) as u16 & !x;
            let t = if rng >> 40 & 1 == 1 {
                1u16 << (rng >> 48 & 15) & !(x | o)
            } else {
                0
            };
            let b = Board { x, o, t };
            let mut text = [0u8; 16];
            order.write_text(order.code(b), &mut text);
            assert_eq!(std::str::from_utf8(&text).unwrap(), b.to_line());
            assert_eq!(order.board(order.code(b)), b);
            let smallest = group.iter().map(|p| p.board(b).to_line()).min().unwrap();
            assert_eq!(order.smallest(b).to_line(), smallest);
            let under_rotations = rotations.iter().map(|p| p.board(b).to_line()).min();
            let (sub, all) = both.smallest_codes(b);
            assert_eq!(Some(order.board(sub).to_line()), under_rotations);
            assert_eq!(order.board(all).to_line(), smallest);
        }
    }
}
