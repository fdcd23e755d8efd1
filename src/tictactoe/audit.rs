//! Audits: every evaluator held to the labels that play gives, on every reachable board.
//!
//! The boards come from the engine's tree walk of each setup, with the status the move that
//! made them gave them; no evaluator takes part in producing the labels, so an evaluator that
//! disagrees anywhere is wrong there.

use crate::engine;
use crate::outcome::Status;
use crate::tictactoe::board::Board;
use crate::tictactoe::eval::Evaluator;
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::space::{SetupGame, Turn, TurnGame};
use rayon::prelude::*;

/// A board an evaluator got wrong.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Mismatch {
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::tictactoe::board::serialize_line")
    )]
    /// The board.
    pub board: Board,
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::outcome::serialize_answer")
    )]
    /// Its status, as play labels it.
    pub expected: Status,
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::outcome::serialize_answer")
    )]
    /// The evaluator's answer.
    pub got: Status,
}

/// One evaluator's result.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct EvaluatorAudit {
    /// The evaluator's name.
    pub evaluator: String,
    /// Boards it was run on.
    pub checked: u64,
    /// Boards it answered wrongly.
    pub mismatches: u64,
    /// The first mismatches in walk order (setup, then the walk's depth-first order), at most
    /// the number asked for.
    pub first: Vec<Mismatch>,
}

/// Boards handed to each evaluator at once: enough to make the call and the switch between
/// evaluators free, few enough to stay in the core's cache.
const BATCH: usize = 2048;

/// The ply where a setup's walk splits into parallel depth-first tasks.
const SPLIT: u32 = 4;

/// One evaluator's tally: boards checked, mismatches, the first mismatches.
type Tally = (u64, u64, Vec<Mismatch>);

/// A walk task's boards waiting to be checked, and its tallies.
struct Checker<'e> {
    evaluators: &'e [&'e dyn Evaluator],
    keep: usize,
    boards: Vec<Board>,
    expected: Vec<Status>,
    got: Vec<Status>,
    tally: Vec<Tally>,
}

impl<'e> Checker<'e> {
    fn new(evaluators: &'e [&'e dyn Evaluator], keep: usize) -> Checker<'e> {
        Checker {
            evaluators,
            keep,
            boards: Vec::with_capacity(BATCH),
            expected: Vec::with_capacity(BATCH),
            got: vec![Status::Open; BATCH],
            tally: vec![(0, 0, Vec::new()); evaluators.len()],
        }
    }

    #[inline]
    fn push(&mut self, b: Board, s: Status) {
        self.boards.push(b);
        self.expected.push(s);
        if self.boards.len() == BATCH {
            self.check();
        }
    }

    /// Runs every evaluator over the waiting boards, each on the whole batch in turn.
    fn check(&mut self) {
        let n = self.boards.len();
        for (e, tally) in self.evaluators.iter().zip(&mut self.tally) {
            let got = &mut self.got[..n];
            e.statuses(&self.boards, got);
            tally.0 += n as u64;
            let wrong = got
                .iter()
                .zip(&self.expected)
                .filter(|(g, e)| g != e)
                .count();
            if wrong > 0 {
                tally.1 += wrong as u64;
                let first = (0..n)
                    .filter(|&i| got[i] != self.expected[i])
                    .map(|i| Mismatch {
                        board: self.boards[i],
                        expected: self.expected[i],
                        got: got[i],
                    });
                let room = self.keep.saturating_sub(tally.2.len());
                tally.2.extend(first.take(room));
            }
        }
        self.boards.clear();
        self.expected.clear();
    }
}

/// Checks each evaluator on every reachable board of the given setups (`T` masks) of the
/// Code Jam board, keeping up to `keep` mismatches per evaluator.
///
/// The boards come from the depth-first tree walk ([`engine::fold_tree`]): each walk task
/// collects boards with their labels into batches, and every evaluator runs over each batch
/// ([`Evaluator::statuses`]). Tallies are merged in walk order, so the report (the first
/// mismatches included) is the same whatever the thread count.
///
/// `progress(1)` is called as each setup is done (from any thread).
pub fn audit_evaluators(
    setups: &[u16],
    evaluators: &[&dyn Evaluator],
    keep: usize,
    progress: impl Fn(u64) + Sync,
) -> Vec<EvaluatorAudit> {
    let g = Geometry::tomek();
    let per_setup: Vec<Vec<Vec<Tally>>> = setups
        .par_iter()
        .map(|&t| {
            let tasks = engine::fold_tree(
                &TurnGame(SetupGame { geometry: g, t }),
                SPLIT,
                || Checker::new(evaluators, keep),
                |c, _, turn: Turn, s| c.push(turn.board, s),
                Checker::check,
            );
            progress(1);
            tasks.into_iter().map(|c| c.tally).collect()
        })
        .collect();
    let mut report: Vec<EvaluatorAudit> = evaluators
        .iter()
        .map(|e| EvaluatorAudit {
            evaluator: e.name().to_string(),
            checked: 0,
            mismatches: 0,
            first: Vec::new(),
        })
        .collect();
    for tally in per_setup.iter().flatten() {
        for (a, (checked, mismatches, first)) in report.iter_mut().zip(tally) {
            a.checked += checked;
            a.mismatches += mismatches;
            a.first
                .extend(first.iter().take(keep.saturating_sub(a.first.len())));
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An evaluator that forgets the `T` counts for O.
    struct TOnlyForX;

    impl Evaluator for TOnlyForX {
        fn name(&self) -> &'static str {
            "t-only-for-x"
        }
        fn status(&self, b: Board) -> Status {
            let g = Geometry::tomek();
            if g.has_line(b.x | b.t) {
                Status::XWon
            } else if g.has_line(b.o) {
                Status::OWon
            } else if b.filled() == g.full() {
                Status::Draw
            } else {
                Status::Open
            }
        }
    }

    #[test]
    fn a_broken_evaluator_is_caught() {
        let broken = TOnlyForX;
        let table = crate::tictactoe::eval::EvaluatorKind::Table.get();
        let report = audit_evaluators(&[1 << 5], &[&broken, table], 3, |_| {});
        assert_eq!(report[0].checked, report[1].checked);
        assert!(report[0].mismatches > 0);
        assert_eq!(report[0].first.len(), 3);
        for m in &report[0].first {
            assert_eq!(m.expected, Status::OWon, "{}", m.board);
            assert_ne!(m.got, m.expected);
        }
        assert_eq!(report[1].mismatches, 0);
    }
}
