//! The judge's validator: whether a file is a valid Code Jam input for Tic-Tac-Toe-Tomek, and
//! what it covers.
//!
//! Valid means: exactly the format ([`Strictness::Strict`]: the count, four rows of four
//! symbols, one empty line after every case, LF only, no trailing blanks, a final newline), a
//! count within the dataset's bounds, at most one `T`, and every board reachable in play. The
//! first fault, in file order, is reported as `FILE:LINE: case N: what is wrong`; for an
//! unreachable board the reason comes from [`reach::check`].
//!
//! Boards are read in batches by the streaming reader and checked in parallel, each batch
//! split into chunks whose results are merged in file order, so the first fault is the same
//! whatever the thread count, and memory stays flat for any file size.

use crate::outcome::{ByStatus, Player, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::codejam::{CaseReader, ParseError, Strictness};
use crate::tictactoe::mutants::Mutant;
use crate::tictactoe::reach::{self, Unreachable};
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::sample::lines_won;
use rayon::prelude::*;
use std::cell::Cell;
use std::io::{self, Read};
use std::ops::RangeInclusive;
use std::rc::Rc;

/// A Code Jam dataset, with the bounds on its number of cases.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Dataset {
    /// 1 to 10 cases.
    Small,
    /// 1 to 1000 cases.
    Large,
}

impl Dataset {
    /// How many cases a file of the dataset may hold.
    pub fn bounds(self) -> RangeInclusive<u64> {
        match self {
            Dataset::Small => 1..=10,
            Dataset::Large => 1..=1000,
        }
    }

    /// The dataset's name: `small` or `large`.
    pub fn name(self) -> &'static str {
        match self {
            Dataset::Small => "small",
            Dataset::Large => "large",
        }
    }
}

/// What a valid file covers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Coverage {
    /// Cases in the file.
    pub cases: u64,
    /// Cases by status, a list in [`Status::ALL`] order in JSON.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::outcome::serialize_in_order")
    )]
    pub statuses: ByStatus<u64>,
    /// Cases by setup: no `T` first, then the `T` on square 0, 1, ..., 15.
    pub setups: [u64; 17],
    /// Wins by player (X, O) and line (rows, columns, diagonal, anti-diagonal, as
    /// [`Geometry::lines`]); a board won on two lines counts for both.
    pub lines: [[u64; 10]; 2],
    /// Wins, by player, where a winning line goes through the `T`.
    pub through_t: [u64; 2],
    /// Wins, by player, on a full board.
    pub full_board_wins: [u64; 2],
    /// Wins on two lines or more (made by one move).
    pub double_wins: u64,
    /// For each mutant of [`Mutant::ALL`], the first case it answers wrongly, if any.
    pub mutants_killed: Vec<Option<u64>>,
}

impl Coverage {
    fn add(&mut self, other: &Coverage) {
        self.cases += other.cases;
        self.statuses += other.statuses;
        for i in 0..17 {
            self.setups[i] += other.setups[i];
        }
        for p in 0..2 {
            for k in 0..10 {
                self.lines[p][k] += other.lines[p][k];
            }
            self.through_t[p] += other.through_t[p];
            self.full_board_wins[p] += other.full_board_wins[p];
        }
        self.double_wins += other.double_wins;
    }

    /// Counts one reachable board with its status.
    #[inline]
    fn count(&mut self, g: &Geometry, b: Board, s: Status) {
        self.cases += 1;
        self.statuses[s] += 1;
        self.setups[setup_index(b.t)] += 1;
        let p = match s {
            Status::XWon => Player::X,
            Status::OWon => Player::O,
            _ => return,
        };
        let pi = p as usize;
        let won = lines_won(g, b, p);
        for k in 0..10 {
            self.lines[pi][k] += u64::from(won >> k & 1);
        }
        if b.t != 0
            && g.lines
                .iter()
                .enumerate()
                .any(|(k, l)| won >> k & 1 == 1 && l & b.t != 0)
        {
            self.through_t[pi] += 1;
        }
        if b.filled() == g.full() {
            self.full_board_wins[pi] += 1;
        }
        if won.count_ones() >= 2 {
            self.double_wins += 1;
        }
    }

    /// How many mutants the file catches.
    pub fn killed(&self) -> usize {
        self.mutants_killed.iter().filter(|k| k.is_some()).count()
    }
}

/// Index of a setup in [`Coverage::setups`].
pub fn setup_index(t: u16) -> usize {
    if t == 0 {
        0
    } else {
        1 + t.trailing_zeros() as usize
    }
}

/// Why validation did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The file breaks a rule: the first fault in file order.
    #[error("{0}")]
    Invalid(ParseError),
    /// The file could not be read.
    #[error("{0}")]
    Unreadable(ParseError),
}

/// A source that remembers whether a read failed, to tell an unreadable file from a bad one.
struct Watched<R> {
    inner: R,
    failed: Rc<Cell<bool>>,
}

impl<R: Read> Read for Watched<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let r = self.inner.read(buf);
        if matches!(&r, Err(e) if e.kind() != io::ErrorKind::Interrupted) {
            self.failed.set(true);
        }
        r
    }
}

/// Boards read per batch, and checked per parallel chunk.
const BATCH: usize = 1 << 16;
const CHUNK: usize = 1 << 12;

/// The line where case `n` (1-based) starts in a file in the exact format.
fn case_line(n: u64) -> u64 {
    2 + 5 * (n - 1)
}

/// Validates a whole input read from `src`, named `file` in messages. `progress` hears how
/// many cases each batch held.
pub fn validate<R: Read>(
    src: R,
    file: &str,
    dataset: Option<Dataset>,
    mut progress: impl FnMut(u64),
) -> Result<Coverage, Failure> {
    let g = Geometry::tomek();
    let failed = Rc::new(Cell::new(false));
    let watched = Watched {
        inner: src,
        failed: failed.clone(),
    };
    let mut reader = CaseReader::new(watched, file, Strictness::Strict);
    let fail = |e: ParseError| {
        if failed.get() {
            Failure::Unreadable(e)
        } else {
            Failure::Invalid(e)
        }
    };
    let count = reader.case_count().map_err(fail)?;
    if let Some(d) = dataset
        && !d.bounds().contains(&count)
    {
        return Err(Failure::Invalid(ParseError {
            file: file.to_string(),
            line: 1,
            case: None,
            message: format!(
                "{count} cases; the {} dataset allows {} to {}",
                d.name(),
                d.bounds().start(),
                d.bounds().end()
            ),
        }));
    }
    let mut total = Coverage {
        mutants_killed: vec![None; Mutant::ALL.len()],
        ..Coverage::default()
    };
    let mut boards = vec![Board::default(); BATCH];
    let mut statuses = vec![Status::Open; BATCH];
    let mut done: u64 = 0;
    loop {
        let n = reader.read_batch(&mut boards).map_err(fail)?;
        if n == 0 {
            break;
        }
        let parts: Vec<(Coverage, Option<(usize, Unreachable)>)> = boards[..n]
            .par_chunks(CHUNK)
            .zip(statuses[..n].par_chunks_mut(CHUNK))
            .enumerate()
            .map(|(c, (bs, ss))| {
                let mut cov = Coverage::default();
                for (i, (&b, s)) in bs.iter().zip(ss.iter_mut()).enumerate() {
                    match reach::check(g, b) {
                        Ok(st) => {
                            *s = st;
                            cov.count(g, b, st);
                        }
                        Err(why) => return (cov, Some((c * CHUNK + i, why))),
                    }
                }
                (cov, None)
            })
            .collect();
        for (cov, bad) in &parts {
            total.add(cov);
            if let Some((i, why)) = bad {
                let case = done + *i as u64 + 1;
                return Err(Failure::Invalid(ParseError {
                    file: file.to_string(),
                    line: case_line(case),
                    case: Some(case),
                    message: format!("unreachable board: {why}"),
                }));
            }
        }
        // Each mutant is checked only until it is caught, so on a big file this costs
        // nothing once every mutant has failed somewhere.
        for (m, killed) in Mutant::ALL.iter().zip(total.mutants_killed.iter_mut()) {
            if killed.is_none() {
                use crate::tictactoe::eval::Evaluator;
                *killed = (0..n)
                    .find(|&i| m.status(boards[i]) != statuses[i])
                    .map(|i| done + i as u64 + 1);
            }
        }
        done += n as u64;
        progress(n as u64);
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_is_valid_and_covered() {
        let sample = include_bytes!("../../generated/sample.in");
        let cov = validate(&sample[..], "sample.in", Some(Dataset::Small), |_| {}).unwrap();
        assert_eq!(cov.cases, 6);
        assert_eq!(cov.statuses.into_array(), [1, 3, 1, 1]);
    }

    #[test]
    fn count_outside_the_dataset() {
        let text = "11\n".to_string() + &"....\n....\n....\n....\n\n".repeat(11);
        let e = validate(text.as_bytes(), "f", Some(Dataset::Small), |_| {}).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f:1: 11 cases; the small dataset allows 1 to 10"
        );
        assert!(validate(text.as_bytes(), "f", None, |_| {}).is_ok());
    }
}
