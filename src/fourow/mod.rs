//! Four in a row (SPOJ FOUROW): a bitboard position, the judge, the input format, and a
//! generator of test data that covers every rule.
//!
//! - [`position`]: [`Position`], a `Copy` bitboard with moves, win tests, keys and mirroring,
//!   meant as the base of exhaustive searches as well as of the judge;
//! - [`judge`](mod@judge): the verdict of a sequence of moves and the exact answer text;
//! - [`input`]: reading (with `FILE:LINE` errors) and writing the input format;
//! - [`generate`]: seeded, reproducible test files mixing every verdict;
//! - [`count`]: the number of positions, won and drawn positions of each ply;
//! - [`solve`](mod@solve): the exact score of a position with perfect play, by search.

pub mod bdd;
pub mod count;
pub mod generate;
pub mod input;
pub mod judge;
mod pages;
pub mod position;
pub mod sized;
pub mod solve;

pub use input::{Game, InputError, InputErrors, Mode};
pub use judge::{Invalid, Judgement, Summary, Verdict, judge};
pub use position::Position;

/// The exact expected output for an input, read leniently (see [`input::Mode::Lenient`]).
/// `file` names the input in error messages.
pub fn solve(bytes: &[u8], file: &str) -> Result<String, InputErrors> {
    let games = input::parse(bytes, file, Mode::Lenient)?;
    Ok(answers(&games))
}

/// Answers an input read from `src` in bounded memory (see [`input::read`]); the outer error
/// is a failed read.
pub fn solve_from<R: std::io::Read>(
    src: R,
    file: &str,
) -> std::io::Result<Result<String, InputErrors>> {
    Ok(input::read(src, file, Mode::Lenient)?.map(|games| answers(&games)))
}

/// The answers to parsed games, one after the other.
pub fn answers(games: &[Game]) -> String {
    let mut out = String::new();
    for g in games {
        judge(&g.moves).write_answer(g.number, &mut out);
    }
    out
}

/// Verdict counts of parsed games.
pub fn summarize(games: &[Game]) -> Summary {
    let mut s = Summary::default();
    for g in games {
        s.add(g.moves.len(), &judge(&g.moves));
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn solves_the_sample() {
        let out = super::solve(b"2\nGame #1: 2143563445575\nGame #2: 123456\n", "s").unwrap();
        assert_eq!(
            out,
            "Game #1 is over. The first player won.\n-------\n    X  \n   Xx  \n  Xoo  \noXoxxoo\n-------\nGame #2 is not over, yet.\n"
        );
    }
}
