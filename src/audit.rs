//! Audits: every evaluator held to the labels that play gives, on every reachable board.
//!
//! The boards come from the engine's tree walk of each setup, with the status the move that
//! made them gave them; no evaluator takes part in producing the labels, so an evaluator that
//! disagrees anywhere is wrong there.

use crate::board::{Board, Status};
use crate::engine;
use crate::eval::Evaluator;
use crate::rules::Geometry;
use crate::space::SetupGame;
use rayon::prelude::*;
use serde::Serialize;

/// A board an evaluator got wrong.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    #[serde(serialize_with = "board_text")]
    pub board: Board,
    #[serde(serialize_with = "status_text")]
    pub expected: Status,
    #[serde(serialize_with = "status_text")]
    pub got: Status,
}

fn board_text<S: serde::Serializer>(b: &Board, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&b.to_line())
}

fn status_text<S: serde::Serializer>(st: &Status, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(st.answer())
}

/// One evaluator's result.
#[derive(Clone, Debug, Serialize)]
pub struct EvaluatorAudit {
    pub evaluator: String,
    pub checked: u64,
    pub mismatches: u64,
    /// The first mismatches in walk order (setup, ply, then the walk's order), at most the
    /// number asked for.
    pub first: Vec<Mismatch>,
}

/// Checks each evaluator on every reachable board of the given setups (`T` masks) of the
/// Code Jam board, keeping up to `keep` mismatches per evaluator.
pub fn audit_evaluators(
    setups: &[u16],
    evaluators: &[&dyn Evaluator],
    keep: usize,
) -> Vec<EvaluatorAudit> {
    let g = Geometry::tomek();
    let pb = crate::progress::bar(setups.len() as u64, "setups");
    // Per setup, per evaluator: (checked, mismatches, first mismatches).
    type Tally = Vec<(u64, u64, Vec<Mismatch>)>;
    let per_setup: Vec<Tally> = setups
        .par_iter()
        .map(|&t| {
            let mut tally: Tally = vec![(0, 0, Vec::new()); evaluators.len()];
            let mut check = |b: Board, expected: Status| {
                for (e, slot) in evaluators.iter().zip(tally.iter_mut()) {
                    let got = e.status(b);
                    slot.0 += 1;
                    if got != expected {
                        slot.1 += 1;
                        if slot.2.len() < keep {
                            slot.2.push(Mismatch {
                                board: b,
                                expected,
                                got,
                            });
                        }
                    }
                }
            };
            engine::explore_tree(
                &SetupGame { geometry: g, t },
                u32::MAX,
                |_, _, open, over| {
                    for &b in open.iter().flatten() {
                        check(b, Status::Open);
                    }
                    for &(b, s) in over {
                        check(b, s);
                    }
                },
            );
            pb.inc(1);
            tally
        })
        .collect();
    pb.finish_and_clear();
    evaluators
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut a = EvaluatorAudit {
                evaluator: e.name().to_string(),
                checked: 0,
                mismatches: 0,
                first: Vec::new(),
            };
            for tally in &per_setup {
                a.checked += tally[i].0;
                a.mismatches += tally[i].1;
                a.first
                    .extend(tally[i].2.iter().take(keep.saturating_sub(a.first.len())));
            }
            a
        })
        .collect()
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
        let table = crate::eval::EvaluatorKind::Table.get();
        let report = audit_evaluators(&[1 << 5], &[&broken, table], 3);
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
