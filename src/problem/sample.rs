//! Test data for a problem of the family: positions of its input space drawn by profile, with
//! a seed, in the same order on every machine.

use super::InputSpace;
use super::Problem;
use super::mutants::killer_set;
use crate::tictactoe::board::Board;
use crate::tictactoe::rank::{binomial, expand};
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::sample::below;
use crate::tictactoe::sample::uniform::subsets;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// How the positions of a test file are chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Each case uniform over the input space.
    Uniform,
    /// Each answer equally often, each case uniform among the positions with its answer.
    Balanced,
    /// Every position of the input space, in order (the number of cases is the space's size).
    All,
    /// The killer set: a smallest set that catches every wrong solution of the catalogue.
    Killer,
    /// The boundaries of the input space ([`edge`]): the fewest stones of each setup, and
    /// every answer at every ply where it occurs, the full boards among them.
    Edge,
    /// The killer set and the edge positions, then balanced draws for the rest, in a seeded
    /// order.
    Contest,
}

impl Profile {
    /// Whether the profile fixes its own number of cases.
    pub fn has_natural_size(self) -> bool {
        matches!(self, Profile::All | Profile::Killer | Profile::Edge)
    }
}

/// The positions of a test file: `cases` of them for the drawn profiles, the profile's own
/// for `All`, `Killer` and `Edge`.
pub fn draw(problem: &Problem, profile: Profile, cases: u64, seed: u64) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    match profile {
        Profile::All => problem.positions(),
        Profile::Killer => killer_set(problem).boards,
        Profile::Edge => edge(problem),
        Profile::Uniform => match by_rejection(problem, cases, &mut rng) {
            Some(boards) => boards,
            None => {
                let all = problem.positions();
                (0..cases)
                    .map(|_| all[below(&mut rng, all.len() as u64) as usize])
                    .collect()
            }
        },
        Profile::Contest => contest(problem, killer_set(problem).boards, cases, seed),
        Profile::Balanced => {
            let mut values = problem.values_for_all();
            let answers = problem.answers();
            let mut by_answer: Vec<Vec<Board>> = vec![Vec::new(); answers.len()];
            for b in problem.positions() {
                let a = problem
                    .answer_of(&problem.facts_fast(b, &mut values))
                    .expect("the rules cover the input space");
                let k = answers
                    .iter()
                    .position(|x| *x == a)
                    .expect("an answer of the rules");
                by_answer[k].push(b);
            }
            by_answer.retain(|v| !v.is_empty());
            (0..cases)
                .map(|_| {
                    let class = &by_answer[below(&mut rng, by_answer.len() as u64) as usize];
                    class[below(&mut rng, class.len() as u64) as usize]
                })
                .collect()
        }
    }
}

/// The edge positions of the input space, fewest stones first: for each setup (no joker, then
/// the joker on each square) its positions with the fewest stones (the empty board, where the
/// space holds it), then for every ply and every answer that occurs there the first position
/// of the space with that answer at that ply. The first and last plies are there, and each
/// answer of the full boards; a solver that mishandles the smallest or the fullest boards, or
/// one answer at one ply, fails here.
pub fn edge(problem: &Problem) -> Vec<Board> {
    let mut values = problem.values_for_all();
    // Per setup, the fewest stones seen and the positions with them; per (ply, answer), the
    // first position.
    let mut fewest: Vec<(u16, u32, Vec<Board>)> = Vec::new();
    let mut first: hashbrown::HashMap<(u32, usize), Board> = hashbrown::HashMap::new();
    problem.for_each_position(|b| {
        let ply = b.ply();
        match fewest.iter_mut().find(|(t, _, _)| *t == b.t) {
            Some((_, least, boards)) => {
                if ply < *least {
                    *least = ply;
                    boards.clear();
                }
                // A handful of the smallest positions is an edge; hundreds are not.
                if ply == *least && boards.len() < 4 {
                    boards.push(b);
                }
            }
            None => fewest.push((b.t, ply, vec![b])),
        }
        let f = problem.facts_fast(b, &mut values);
        let a = problem
            .answer_index(&f)
            .expect("the rules cover the input space");
        first.entry((ply, a)).or_insert(b);
    });
    let mut out: Vec<Board> = Vec::new();
    for (_, _, boards) in &fewest {
        out.extend(boards);
    }
    let mut by_ply: Vec<((u32, usize), Board)> = first.into_iter().collect();
    by_ply.sort_unstable_by_key(|&(k, _)| k);
    for (_, b) in by_ply {
        if !out.contains(&b) {
            out.push(b);
        }
    }
    out.sort_by_key(|b| b.ply());
    out
}

/// Appends to `boards` the edge positions it lacks, in [`edge`]'s order.
pub fn add_edge(problem: &Problem, boards: &mut Vec<Board>) {
    for b in edge(problem) {
        if !boards.contains(&b) {
            boards.push(b);
        }
    }
}

/// The positions of the contest profile from the killer set `killer` (the set and the edge
/// positions, cut to `cases`, then balanced draws for the rest, in a seeded order): for a
/// caller that already has the set (on a 4×4 board its search takes a while).
pub fn contest(problem: &Problem, mut killer: Vec<Board>, cases: u64, seed: u64) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    add_edge(problem, &mut killer);
    killer.truncate(cases as usize);
    let rest = cases - killer.len() as u64;
    killer.extend(draw(problem, Profile::Balanced, rest, seed));
    for i in (1..killer.len()).rev() {
        let j = below(&mut rng, i as u64 + 1) as usize;
        killer.swap(i, j);
    }
    killer
}

/// A base space's positions by number, without listing them: each setup's proposals one after
/// the other. For reachable positions a proposal is a way to put a ply's stones on the free
/// squares, the first player holding the larger half; every reachable position is exactly one
/// proposal, but not every proposal is reachable. For every grid, a proposal is a grid.
struct Proposals {
    /// A run of proposals: its setup's joker, its ply (reachable only), and where it ends.
    runs: Vec<(u16, u32, u64)>,
    reachable: bool,
}

impl Proposals {
    fn new(problem: &Problem) -> Proposals {
        let g = &problem.geometry;
        let reachable = problem.space == InputSpace::Reachable;
        let mut runs = Vec::new();
        let mut end = 0u64;
        for t in g.setups() {
            let free = g.cells() - t.count_ones();
            if reachable {
                for ply in 0..=free {
                    end += binomial(free, ply) * binomial(ply, ply.div_ceil(2));
                    runs.push((t, ply, end));
                }
            } else {
                end += 3u64.pow(free);
                runs.push((t, 0, end));
            }
        }
        Proposals { runs, reachable }
    }

    fn len(&self) -> u64 {
        self.runs.last().map_or(0, |r| r.2)
    }

    /// Proposal `u`.
    fn board(&self, g: &Geometry, u: u64) -> Board {
        let k = self.runs.partition_point(|r| r.2 <= u);
        let (t, ply, end) = self.runs[k];
        let start = if k == 0 { 0 } else { self.runs[k - 1].2 };
        let r = u - start;
        debug_assert!(u < end);
        let free = g.full() & !t;
        if self.reachable {
            // The taken squares by colex rank among the free ones, then the first player's
            // share of them by colex rank among the taken ones.
            let ways = binomial(ply, ply.div_ceil(2));
            let taken = expand(subsets(ply)[(r / ways) as usize], free);
            let x = expand(subsets(ply.div_ceil(2))[(r % ways) as usize], taken);
            Board {
                x,
                o: taken & !x,
                t,
            }
        } else {
            // The free squares as base-3 digits, the first lowest (0 empty, 1 first, 2 second).
            let (mut b, mut left, mut n) = (Board::empty(t), free, r);
            while left != 0 {
                let sq = left & left.wrapping_neg();
                left &= left - 1;
                match n % 3 {
                    1 => b.x |= sq,
                    2 => b.o |= sq,
                    _ => {}
                }
                n /= 3;
            }
            b
        }
    }
}

/// `cases` positions uniform over the input space, drawn among the base space's proposals and
/// kept when in the input space, without making the space's list; `None` when the input
/// space is so small a part of the proposals that too many draws go by (the caller then
/// draws from the list).
fn by_rejection(problem: &Problem, cases: u64, rng: &mut ChaCha8Rng) -> Option<Vec<Board>> {
    let g = &*problem.geometry;
    let proposals = Proposals::new(problem);
    let mut values = problem.values();
    let mut tries = 1_000_000u64.saturating_add(cases.saturating_mul(1_000));
    let mut out = Vec::with_capacity(cases as usize);
    while (out.len() as u64) < cases {
        if tries == 0 {
            return None;
        }
        tries -= 1;
        let b = proposals.board(g, below(rng, proposals.len()));
        if problem.in_space_with(b, &mut values) {
            out.push(b);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Drawn by rejection, every position of the input space comes about equally often and
    /// nothing else comes: on a space of every grid, on reachable positions, and on reachable
    /// positions under a filter (x to move, not over) from their own description.
    #[test]
    fn uniform_draws_cover_the_input_space_evenly() {
        let filtered = Problem::from_text(
            "x-to-move.toml",
            &crate::problem::BUILTIN[5].1.replace(
                "[input]",
                "[input]\nwhere = { next = \"first\", over = false }",
            ),
        )
        .unwrap();
        assert!(!filtered.filter.is_empty());
        for p in [
            Problem::builtin("toe1").unwrap(),
            Problem::builtin("perfect-play").unwrap(),
            filtered,
        ] {
            let space = p.positions();
            const EACH: u64 = 200;
            let drawn = draw(&p, Profile::Uniform, EACH * space.len() as u64, 9);
            let mut seen: HashMap<Board, u64> = space.iter().map(|&b| (b, 0)).collect();
            for b in drawn {
                *seen
                    .get_mut(&b)
                    .unwrap_or_else(|| panic!("{}: {} is not input", p.name, p.grid_text(b))) += 1;
            }
            let (least, most) = (seen.values().min().unwrap(), seen.values().max().unwrap());
            // A count is binomial with mean 200 and deviation about 14: seven deviations off.
            assert!(
                *least >= 100 && *most <= 300,
                "{}: {least} to {most}",
                p.name
            );
        }
    }
}
