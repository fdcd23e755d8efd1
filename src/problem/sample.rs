//! Test data for a problem of the family: positions of its input space drawn by profile, with
//! a seed, in the same order on every machine.

use super::Problem;
use super::mutants::killer_set;
use crate::tictactoe::board::Board;
use crate::tictactoe::sample::below;
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
    /// The killer set, then balanced draws for the rest, in a seeded order.
    Contest,
}

impl Profile {
    /// Whether the profile fixes its own number of cases.
    pub fn has_natural_size(self) -> bool {
        matches!(self, Profile::All | Profile::Killer)
    }
}

/// The positions of a test file: `cases` of them for the drawn profiles, the profile's own
/// for `All` and `Killer`.
pub fn draw(problem: &Problem, profile: Profile, cases: u64, seed: u64) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    match profile {
        Profile::All => problem.positions(),
        Profile::Killer => killer_set(problem).boards,
        Profile::Uniform => {
            let all = problem.positions();
            (0..cases)
                .map(|_| all[below(&mut rng, all.len() as u64) as usize])
                .collect()
        }
        Profile::Contest => {
            let mut boards = killer_set(problem).boards;
            boards.truncate(cases as usize);
            let rest = cases - boards.len() as u64;
            boards.extend(draw(problem, Profile::Balanced, rest, seed));
            for i in (1..boards.len()).rev() {
                let j = below(&mut rng, i as u64 + 1) as usize;
                boards.swap(i, j);
            }
            boards
        }
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
