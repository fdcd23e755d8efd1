//! A second search for perfect play in Four in a row, written here apart from
//! `tomek::fourow::solve` and sharing none of its code, to check the committed test sets of
//! `tests/data/fourow/` where neither the strong solution (7×6 is too big for it) nor the plain
//! minimax (too slow before the last dozen chips) can.
//!
//! It differs from tomek's search in every part that could hide a shared mistake: the board
//! is one bit a cell in columns of eight bits, whatever the number of rows (so the spare top
//! bits of each column stop every line at the column's edge); fours and winning cells are
//! found by a shift per direction; the table holds both bitboards of a position in full, so no
//! two positions share an entry; and the root bisects the range of scores at its middle. It
//! is held to the plain minimax of `fourow_solve` on small boards before it judges anything.

use crate::fourow_solve::{Grid, test_set};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tomek::fourow::solve::{Shape, random_open_game};

/// Cells a column takes in the bitboard: the rows, then spare bits that are always empty.
const STRIDE: u32 = 8;

/// A board of `cols` columns of `rows` rows (`cols` ≤ 8, `rows` ≤ 7).
struct Reference {
    cols: u32,
    rows: u32,
    area: i32,
    /// Every cell of the board.
    cells: u64,
    /// The bottom cell of every column.
    bottoms: u64,
    /// Bounds on scores by position: (player to move's chips, all chips, lower, upper).
    table: Vec<Option<(u64, u64, i8, i8)>>,
    nodes: u64,
}

/// The cells that complete a line of four for the chips `p`, in direction `d` (a shift of the
/// bitboard), whether or not they are empty or playable.
fn completing(p: u64, d: u32) -> u64 {
    let (l1, l2, l3) = (p << d, p << (2 * d), p << (3 * d));
    let (r1, r2, r3) = (p >> d, p >> (2 * d), p >> (3 * d));
    (l1 & l2 & l3) | (l1 & l2 & r1) | (l1 & r1 & r2) | (r1 & r2 & r3)
}

/// Whether the chips `p` hold four in a line: a pair, then a pair of pairs, in each direction.
fn has_four(p: u64) -> bool {
    [1, STRIDE, STRIDE - 1, STRIDE + 1].into_iter().any(|d| {
        let pairs = p & (p >> d);
        pairs & (pairs >> (2 * d)) != 0
    })
}

impl Reference {
    fn new(cols: u32, rows: u32) -> Reference {
        assert!(cols <= 8 && rows < STRIDE, "{cols}×{rows} does not fit");
        let column = (1u64 << rows) - 1;
        let cells = (0..cols).fold(0, |acc, c| acc | column << (c * STRIDE));
        let bottoms = (0..cols).fold(0, |acc, c| acc | 1 << (c * STRIDE));
        Reference {
            cols,
            rows,
            area: (cols * rows) as i32,
            cells,
            bottoms,
            table: vec![None; 1 << 22],
            nodes: 0,
        }
    }

    /// The empty cells (`both` holds the others) that would complete a four of the chips `p`.
    fn winning_cells(&self, p: u64, both: u64) -> u64 {
        let all = [1, STRIDE, STRIDE - 1, STRIDE + 1]
            .into_iter()
            .fold(0, |acc, d| acc | completing(p, d));
        all & self.cells & !both
    }

    /// The cell each column would take next.
    fn playable(&self, both: u64) -> u64 {
        (both + self.bottoms) & self.cells
    }

    fn slot(&self, mine: u64, both: u64) -> usize {
        let h = (mine.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ both.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
        .rotate_left(29)
        .wrapping_mul(0x1656_67B1_9E37_79F9);
        (h >> (64 - 22)) as usize
    }

    /// The score of a position the previous move did not win, `mine` the chips of the player to
    /// move and `both` all chips (`n` of them), within the window `alpha` < score < `beta`: the
    /// score itself inside it, otherwise a bound on the side it fell.
    fn negamax(&mut self, mine: u64, both: u64, n: i32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if n == self.area {
            return 0;
        }
        let theirs = both ^ mine;
        let playable = self.playable(both);
        if self.winning_cells(mine, both) & playable != 0 {
            return (self.area + 1 - n) / 2;
        }
        let threats = self.winning_cells(theirs, both);
        let forced = threats & playable;
        // A move under one of the opponent's winning cells hands it over.
        let mut candidates = if forced != 0 { forced } else { playable } & !(threats >> 1);
        if forced.count_ones() > 1 {
            candidates = 0;
        }
        if candidates == 0 {
            // The opponent wins with its next chip.
            return -(self.area - n) / 2;
        }
        // We cannot win with this chip, nor lose to the next one.
        let (floor, ceiling) = (-(self.area - 2 - n) / 2, (self.area - 1 - n) / 2);
        let s = self.slot(mine, both);
        let (lo, hi) = match self.table[s] {
            Some((m, b, lo, hi)) if (m, b) == (mine, both) => {
                (floor.max(i32::from(lo)), ceiling.min(i32::from(hi)))
            }
            _ => (floor, ceiling),
        };
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        if alpha >= beta {
            return if lo >= beta { lo } else { hi };
        }

        // Moves by the winning cells they leave us, the middle columns first among equals
        // (twice the distance from the middle, so that it stays whole).
        let mut moves = [(0u32, 0u32, 0u64); 8];
        let mut len = 0;
        for col in 0..self.cols {
            let cell = candidates & ((1u64 << self.rows) - 1) << (col * STRIDE);
            if cell == 0 {
                continue;
            }
            let made = self.winning_cells(mine | cell, both | cell).count_ones();
            let off_centre = (2 * col).abs_diff(self.cols - 1);
            let entry = (made, off_centre, cell);
            let mut i = len;
            while i > 0
                && (moves[i - 1].0 < made || moves[i - 1].0 == made && moves[i - 1].1 > off_centre)
            {
                moves[i] = moves[i - 1];
                i -= 1;
            }
            moves[i] = entry;
            len += 1;
        }

        let first_alpha = alpha;
        for &(_, _, cell) in &moves[..len] {
            let r = -self.negamax(theirs, both | cell, n + 1, -beta, -alpha);
            if r >= beta {
                self.store(s, mine, both, r, ceiling);
                return r;
            }
            alpha = alpha.max(r);
        }
        if alpha > first_alpha {
            self.store(s, mine, both, alpha, alpha);
        } else {
            self.store(s, mine, both, floor, alpha);
        }
        alpha
    }

    fn store(&mut self, s: usize, mine: u64, both: u64, lo: i32, hi: i32) {
        self.table[s] = Some((mine, both, lo as i8, hi as i8));
    }

    /// The score of the position the digits `moves` reach (a game nobody has won).
    fn score(&mut self, moves: &str) -> i32 {
        let (mut mine, mut both, mut n) = (0u64, 0u64, 0);
        for c in moves.bytes() {
            let col = u32::from(c - b'1');
            let cell = self.playable(both) & ((1u64 << self.rows) - 1) << (col * STRIDE);
            assert!(cell != 0, "`{moves}`: column {} is full", col + 1);
            mine |= cell;
            both |= cell;
            assert!(!has_four(mine), "`{moves}` is over");
            mine ^= both; // the other player moves next
            n += 1;
        }
        let (mut lo, mut hi) = (-(self.area - n) / 2, (self.area + 1 - n) / 2);
        while lo < hi {
            let mid = lo + (hi - lo).div_euclid(2);
            let r = self.negamax(mine, both, n, mid, mid + 1);
            if r <= mid {
                hi = r;
            } else {
                lo = r;
            }
        }
        lo
    }
}

/// Seeded random games of `stones` moves that nobody has won, on a `cols`×`rows` board.
fn random_positions(cols: u32, rows: u32, stones: u32, count: usize, seed: u64) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let shape = Shape::new(cols, rows).expect("the board fits");
    (0..count)
        .map(|_| random_open_game(shape, stones, &mut rng))
        .collect()
}

#[test]
fn the_reference_scores_as_plain_minimax_says() {
    for (cols, rows, stones, seed) in [(4, 4, 4, 1), (5, 4, 9, 2), (4, 5, 9, 3), (7, 6, 32, 4)] {
        let mut reference = Reference::new(cols, rows);
        for moves in random_positions(cols, rows, stones, 40, seed) {
            let plain = Grid::from_moves(&moves, cols as usize, rows as usize).minimax(None);
            assert_eq!(reference.score(&moves), plain, "{cols}×{rows} `{moves}`");
        }
    }
}

#[test]
fn fours_are_found_in_every_direction_and_never_across_columns() {
    let r = Reference::new(7, 6);
    let at = |c: u32, row: u32| 1u64 << (c * STRIDE + row);
    let line = |cells: [(u32, u32); 4]| cells.iter().fold(0, |acc, &(c, row)| acc | at(c, row));
    assert!(has_four(line([(0, 0), (1, 0), (2, 0), (3, 0)])));
    assert!(has_four(line([(6, 2), (6, 3), (6, 4), (6, 5)])));
    assert!(has_four(line([(0, 0), (1, 1), (2, 2), (3, 3)])));
    assert!(has_four(line([(3, 5), (4, 4), (5, 3), (6, 2)])));
    // The top of one column and the bottom of the next are not a vertical line.
    assert!(!has_four(line([(0, 4), (0, 5), (1, 0), (1, 1)])));
    assert!(!has_four(line([(0, 5), (1, 0), (1, 1), (1, 2)])));
    // Three in a row with both ends open: two winning cells, the ends.
    let three = line([(1, 0), (2, 0), (3, 0), (3, 0)]);
    assert_eq!(r.winning_cells(three, three), at(0, 0) | at(4, 0));
}

/// Every position of the band scores with the reference as recorded (the recorded scores
/// come from tomek's search).
fn band_agrees(band: &str) {
    let mut reference = Reference::new(7, 6);
    let set = test_set(band);
    assert!(!set.is_empty());
    for (moves, score) in &set {
        assert_eq!(reference.score(moves), *score, "{band}: `{moves}`");
    }
    eprintln!(
        "{band}: {} positions agree, {} nodes",
        set.len(),
        reference.nodes
    );
}

#[test]
fn the_committed_end_and_middle_sets_agree_with_the_reference() {
    band_agrees("end");
    band_agrees("middle");
    band_agrees("middle-medium");
    band_agrees("begin-easy");
}

/// The early positions far from the end of the game cost the reference minutes:
/// `scripts/fourow-positions.sh --check` runs this.
#[test]
#[ignore]
fn the_committed_begin_sets_agree_with_the_reference() {
    band_agrees("begin");
    band_agrees("begin-medium");
}
