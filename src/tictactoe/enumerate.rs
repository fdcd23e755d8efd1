//! Streaming the reachable boards: a selection (setups, statuses, plies) walked in one fixed
//! order, in blocks rendered in parallel and handed over in order, and the three record
//! formats `tomek enumerate` writes.
//!
//! The order is the setups in the geometry's order (no `T` first, then the `T` on square 0,
//! 1, ...), then plies from the empty board up, then the dense index's slot order. It depends on
//! nothing but the selection, so files are the same bytes on every machine and thread count.

use crate::outcome::{ByStatus, Status};
use crate::tictactoe::board::Board;
use crate::tictactoe::space::{DenseMemo, Space};
use rayon::prelude::*;
use std::io::{self, Write};

/// Which reachable boards to stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// `T` masks of the setups, in the order they are walked.
    pub setups: Vec<u16>,
    /// Statuses kept.
    pub statuses: ByStatus<bool>,
    /// Plies (stones on the board) kept, by ply.
    pub plies: Vec<bool>,
}

impl Selection {
    /// Every board of the given setups.
    pub fn setups(setups: Vec<u16>) -> Selection {
        Selection {
            setups,
            statuses: ByStatus::ALL,
            plies: vec![true; 17],
        }
    }

    /// Keeps only these statuses (all when `keep` is empty).
    pub fn with_statuses(mut self, keep: &[Status]) -> Selection {
        if !keep.is_empty() {
            self.statuses = ByStatus::default();
            for s in keep {
                self.statuses[*s] = true;
            }
        }
        self
    }

    /// Keeps only these plies (all when `keep` is empty).
    pub fn with_plies(mut self, keep: &[u32]) -> Selection {
        if !keep.is_empty() {
            self.plies = vec![false; 17];
            for &p in keep {
                if let Some(slot) = self.plies.get_mut(p as usize) {
                    *slot = true;
                }
            }
        }
        self
    }

    /// Whether boards of `ply` stones are kept.
    pub fn keeps_ply(&self, ply: usize) -> bool {
        self.plies.get(ply).copied().unwrap_or(false)
    }

    /// How many boards of `space` the selection holds, from the per-ply counts alone.
    pub fn count(&self, space: &Space) -> u64 {
        self.setups
            .iter()
            .filter_map(|&t| space.setup(t))
            .flat_map(|s| s.counts.iter().enumerate())
            .filter(|(ply, _)| self.keeps_ply(*ply))
            .map(|(_, c)| {
                c.iter()
                    .filter(|&(s, _)| self.statuses[s])
                    .map(|(_, n)| n)
                    .sum::<u64>()
            })
            .sum()
    }
}

/// Bitmap words of a ply's table scanned by one task: 64 slots each.
const WORDS_PER_TASK: usize = 2048;
/// Tasks run in parallel before their results are handed over in order.
const TASKS_PER_ROUND: usize = 32;

/// Walks the selected boards of `space` in the fixed order, calling `f` with consecutive
/// blocks of them and the 0-based position of each block's first board in the stream.
///
/// Blocks are gathered by several threads at once; `render` turns a block into whatever the
/// caller writes (text, records) on those threads, and `sink` receives the rendered blocks one
/// after the other, in stream order, on the calling thread. An error from `sink` stops the walk.
pub fn stream<R, E>(
    space: &Space,
    sel: &Selection,
    render: impl Fn(&[(Board, Status)], u64) -> R + Sync,
    mut sink: impl FnMut(R, usize) -> Result<(), E>,
) -> Result<(), E>
where
    R: Send,
{
    let mut done: u64 = 0;
    for &t in &sel.setups {
        let Some(setup) = space.setup(t) else {
            continue;
        };
        for (ply, memo) in setup.plies.iter().enumerate() {
            let c = setup.counts[ply];
            if !sel.keeps_ply(ply) || c.iter().all(|(s, &n)| !sel.statuses[s] || n == 0) {
                continue;
            }
            let words = memo.words();
            let tasks: Vec<_> = (0..words.div_ceil(WORDS_PER_TASK)).collect();
            for round in tasks.chunks(TASKS_PER_ROUND) {
                let blocks: Vec<Vec<(Board, Status)>> = round
                    .par_iter()
                    .map(|&task| gather(memo, t, sel, task * WORDS_PER_TASK))
                    .collect();
                let mut starts = Vec::with_capacity(blocks.len());
                for b in &blocks {
                    starts.push(done);
                    done += b.len() as u64;
                }
                let rendered: Vec<(R, usize)> = blocks
                    .par_iter()
                    .zip(starts.par_iter())
                    .map(|(b, &start)| (render(b, start), b.len()))
                    .collect();
                for (r, n) in rendered {
                    sink(r, n)?;
                }
            }
        }
    }
    Ok(())
}

/// The selected boards among one task's words of a ply table.
fn gather(memo: &DenseMemo, t: u16, sel: &Selection, first_word: usize) -> Vec<(Board, Status)> {
    let mut out = Vec::new();
    let last = (first_word + WORDS_PER_TASK).min(memo.words());
    let mut decoder = memo.index.decoder();
    for (slot, s) in memo.slots_in(first_word..last) {
        if sel.statuses[s] {
            out.push((decoder.board(slot, t), s));
        }
    }
    out
}

/// How `tomek enumerate` writes each board.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum RecordFormat {
    /// A Code Jam input of every selected board (and, with a file prefix, its answers).
    #[default]
    Codejam,
    /// One board per line: its 16 symbols in reading order, a space, its answer.
    Lines,
    /// Eight bytes per board: X squares, O squares and the `T` square as little-endian
    /// 16-bit masks, the status (0 X won, 1 O won, 2 Draw, 3 not completed), the ply.
    Binary,
}

/// Bytes of one [`RecordFormat::Binary`] record.
pub const BINARY_RECORD: usize = 8;

/// Appends the binary record of a board.
pub fn push_binary(buf: &mut Vec<u8>, b: Board, s: Status) {
    buf.extend_from_slice(&b.x.to_le_bytes());
    buf.extend_from_slice(&b.o.to_le_bytes());
    buf.extend_from_slice(&b.t.to_le_bytes());
    buf.push(s.index() as u8);
    buf.push(b.ply() as u8);
}

/// Reads a binary record back.
pub fn read_binary(r: &[u8; BINARY_RECORD]) -> Option<(Board, Status)> {
    let word = |i: usize| u16::from_le_bytes([r[i], r[i + 1]]);
    let b = Board {
        x: word(0),
        o: word(2),
        t: word(4),
    };
    let s = *Status::ALL.get(r[6] as usize)?;
    (b.ply() == r[7] as u32).then_some((b, s))
}

/// Appends the lines record of a board: `XXXT....OO...... X won`.
pub fn push_line(buf: &mut Vec<u8>, b: Board, s: Status) {
    for i in 0..16 {
        buf.push(b.symbol(i) as u8);
    }
    buf.push(b' ');
    buf.extend_from_slice(s.answer().as_bytes());
    buf.push(b'\n');
}

/// Writes the selection in `format`. For Code Jam, `answers` (when given) receives the
/// `Case #x: status` lines. `progress` is told how many boards each block held.
///
/// A writer thread takes the rendered blocks as they come, so the time spent in the kernel
/// (a pipe to a solver, a file) overlaps the rendering of the next blocks.
pub fn write(
    space: &Space,
    sel: &Selection,
    format: RecordFormat,
    out: &mut (dyn Write + Send),
    answers: Option<&mut (dyn Write + Send)>,
    mut progress: impl FnMut(u64),
) -> io::Result<u64> {
    let with_answers = answers.is_some();
    if format == RecordFormat::Codejam {
        let mut head = Vec::new();
        crate::tictactoe::codejam::push_count(&mut head, sel.count(space));
        out.write_all(&head)?;
    }
    let (send, receive) = std::sync::mpsc::sync_channel::<(Vec<u8>, Vec<u8>)>(4);
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || -> io::Result<()> {
            let mut answers = answers;
            for (main, ans) in receive {
                out.write_all(&main)?;
                if let Some(a) = answers.as_deref_mut() {
                    a.write_all(&ans)?;
                }
            }
            out.flush()?;
            if let Some(a) = answers {
                a.flush()?;
            }
            Ok(())
        });
        let mut total = 0u64;
        let rendered = stream(
            space,
            sel,
            |block, start| {
                let mut main = Vec::with_capacity(block.len() * 24);
                let mut ans = Vec::new();
                for (k, &(b, s)) in block.iter().enumerate() {
                    match format {
                        RecordFormat::Codejam => {
                            crate::tictactoe::codejam::push_case(&mut main, b);
                            if with_answers {
                                crate::tictactoe::codejam::push_answer(
                                    &mut ans,
                                    start + k as u64 + 1,
                                    s,
                                );
                            }
                        }
                        RecordFormat::Lines => push_line(&mut main, b, s),
                        RecordFormat::Binary => push_binary(&mut main, b, s),
                    }
                }
                (main, ans)
            },
            |block, n| {
                total += n as u64;
                progress(n as u64);
                // A closed channel means the writer failed; its error is reported below.
                send.send(block).map_err(|_| ())
            },
        );
        drop(send);
        let written = writer.join().expect("the writer thread does not panic");
        written?;
        rendered.map_err(|()| io::Error::other("the writer stopped early"))?;
        Ok(total)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tictactoe::rules::Geometry;
    use std::sync::Arc;

    #[test]
    fn binary_records_round_trip() {
        let b = Board {
            x: 0b1011,
            o: 0b0100_0100,
            t: 1 << 9,
        };
        let mut buf = Vec::new();
        push_binary(&mut buf, b, Status::OWon);
        let rec: [u8; BINARY_RECORD] = buf.try_into().unwrap();
        assert_eq!(read_binary(&rec), Some((b, Status::OWon)));
    }

    #[test]
    fn stream_yields_each_selected_board_once_in_order() {
        let g = Arc::new(Geometry::new(3, 3, 3, true).unwrap());
        let space = Space::explore(g.clone());
        let sel = Selection::setups(g.setups())
            .with_statuses(&[Status::XWon, Status::Draw])
            .with_plies(&[5, 6, 7, 8, 9]);
        let mut seen = Vec::new();
        stream(
            &space,
            &sel,
            |block, start| (block.to_vec(), start),
            |(block, start), n| {
                // Each block starts where the previous ones ended.
                assert_eq!(start, seen.len() as u64);
                assert_eq!(n, block.len());
                seen.extend(block);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(seen.len() as u64, sel.count(&space));
        let mut expected = Vec::new();
        for t in g.setups() {
            for (b, s) in space.setup(t).unwrap().boards() {
                if (5..=9).contains(&b.ply()) && matches!(s, Status::XWon | Status::Draw) {
                    expected.push((b, s));
                }
            }
        }
        assert_eq!(seen, expected);
    }
}
