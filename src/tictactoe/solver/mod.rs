//! Auditing an external solver: any program that answers Code Jam inputs is run on labelled
//! boards, chunk by chunk, and its answers are compared with the labels.
//!
//! Three kinds of thread share the work. One producer takes the boards from a [`CaseSource`]
//! in case order and cuts them into chunks, of a fixed size or of sizes fitted to the solver's
//! speed ([`sizes`]). `jobs` workers each turn a chunk into an input,
//! run the solver on it ([`process`]) and check its output as it arrives ([`check`]). The
//! calling thread collects the results and commits them strictly in chunk order, so the
//! report (which failures are listed, where the audit stopped, which counterexamples are
//! minimal) is the same however the jobs were scheduled: it depends only on the boards, the
//! chunk sizes and the solver's answers. An audit stopped at `max_failures` by wrong answers
//! ends at the case of the last failure it lists, whatever run that case was in, so its report
//! does not depend on the chunk sizes either.

pub mod check;
pub mod order;
pub mod probe;
pub mod process;
pub mod report;
pub mod sizes;

use crate::outcome::Status;
use crate::tictactoe::board::Board;
use crate::tictactoe::codejam::{self, AnswerWords, AnswerWriter};
use crate::tictactoe::enumerate::Selection;
use crate::tictactoe::space::Space;
use check::{Broken, Checker, Failure, Kind, Tally};
use process::{Ending, Limits, Usage};
use sizes::Sizer;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

/// Receives consecutive blocks of labelled boards; returns `false` to stop the source.
pub type BlockSink<'a> = dyn FnMut(&[(Board, Status)]) -> bool + 'a;

/// Where the audited boards come from: labelled boards handed over in consecutive blocks, in
/// case order.
pub trait CaseSource {
    /// How many boards the source holds.
    fn len(&self) -> u64;

    /// Whether the source holds no board.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Hands the boards to `sink` block after block, stopping early when it returns `false`.
    fn blocks(self: Box<Self>, sink: &mut BlockSink);
}

/// The reachable boards of a selection, most telling first (see [`order`]): the killer set,
/// the edge set, a sweep over every setup and ply, then the rest.
pub struct Enumerated<'a> {
    /// The labelled boards.
    pub space: &'a Space,
    /// Which of them to audit.
    pub selection: Selection,
}

impl CaseSource for Enumerated<'_> {
    fn len(&self) -> u64 {
        self.selection.count(self.space)
    }

    fn blocks(self: Box<Self>, sink: &mut BlockSink) {
        order::walk(self.space, &self.selection, sink);
    }
}

/// Any iterator of labelled boards with a known length, for sources that produce boards one
/// at a time (a sampler, a list read from a file).
pub struct Cases<I> {
    /// How many cases the iterator yields.
    pub len: u64,
    /// The cases with their labels.
    pub cases: I,
}

impl<I: Iterator<Item = (Board, Status)>> CaseSource for Cases<I> {
    fn len(&self) -> u64 {
        self.len
    }

    fn blocks(self: Box<Self>, sink: &mut BlockSink) {
        let mut block = Vec::with_capacity(4096);
        for c in self.cases {
            block.push(c);
            if block.len() == block.capacity() {
                if !sink(&block) {
                    return;
                }
                block.clear();
            }
        }
        if !block.is_empty() {
            sink(&block);
        }
    }
}

/// How to run the solver.
#[derive(Clone, Debug)]
pub struct Options {
    /// The command, run by `sh -c` on Unix and `cmd /S /C` on Windows. Every `{}` in it is
    /// replaced by the (quoted) path of a file holding the input; without `{}` the input comes
    /// on standard input.
    pub command: String,
    /// Cases per run of the solver; `None` fits the sizes to the solver's speed.
    pub chunk: Option<usize>,
    /// Solver processes at once.
    pub jobs: usize,
    /// Longest a run may take.
    pub timeout: Duration,
    /// Failures (wrong answers and broken runs) after which the audit stops.
    pub max_failures: usize,
    /// The judge's limits on each run: memory, CPU time, file size.
    pub limits: Limits,
    /// The answer of each status: Code Jam's, or a description's that only renames them.
    pub words: AnswerWords,
}

/// The memory limit a judge sets when a problem says nothing: 2 GiB, the default of the
/// Kattis and ICPC problem package formats.
pub const DEFAULT_MEMORY_LIMIT: u64 = 2 << 30;

/// The largest file a solver may write by default: room for the answers of the largest run the
/// fitted chunk sizes make (about 40 MB for 1,048,576 cases); a solver writes no other file.
pub const DEFAULT_FILE_LIMIT: u64 = 64 << 20;

/// A run of the solver that went wrong as a whole: it crashed, hung, or its output was not a
/// list of answers.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Problem {
    /// The chunk, from 1.
    pub chunk: u64,
    /// Its first and last case among the audited boards, from 1.
    pub first_case: u64,
    /// Its last case among the audited boards, from 1.
    pub last_case: u64,
    /// A short name: `memory`, `cpu-time`, `timeout`, `flood`, `file-size`, `exit`, `signal`,
    /// `too-few`, `too-many`, `misnumbered`, `garbage`, `long-line` or `run`.
    pub kind: &'static str,
    /// The verdict a judge would give the run: `memory limit exceeded`, `time limit exceeded`
    /// (CPU or wall time), `output limit exceeded`, `run-time error`, `wrong answer` (output
    /// that is not a list of answers), or `could not run`.
    pub verdict: &'static str,
    /// What happened, in words.
    pub what: String,
    /// The run's peak memory in bytes, when the system says (see [`process::Usage`]).
    pub peak_memory: Option<u64>,
    /// The run's CPU time in seconds, when the system says.
    pub cpu_seconds: Option<f64>,
    /// Answers read from this run before it went wrong (they are checked).
    pub answered: u64,
    /// The output line at fault, from 1, and its text.
    pub line: Option<u64>,
    /// The text of that line.
    pub text: Option<String>,
    /// The case the run was at: the one the bad line was meant for, or the first unanswered
    /// one, with its board and label.
    pub case: Option<u64>,
    #[cfg_attr(feature = "serde", serde(serialize_with = "opt_board_line"))]
    /// The board of that case.
    pub board: Option<Board>,
    #[cfg_attr(feature = "serde", serde(serialize_with = "opt_status"))]
    /// The label of that case.
    pub expected: Option<Status>,
    /// The end of what the solver wrote to standard error.
    pub stderr: String,
}

/// The limits of an audit's runs, as the report states them.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReportLimits {
    /// Memory in bytes.
    pub memory: Option<u64>,
    /// CPU time in seconds.
    pub cpu_seconds: Option<f64>,
    /// Wall time in seconds.
    pub wall_seconds: f64,
    /// Size of any file the solver writes, in bytes.
    pub file: Option<u64>,
}

#[cfg(feature = "serde")]
fn opt_board_line<S: serde::Serializer>(b: &Option<Board>, s: S) -> Result<S::Ok, S::Error> {
    match b {
        Some(b) => s.serialize_str(&b.to_line()),
        None => s.serialize_none(),
    }
}

#[cfg(feature = "serde")]
fn opt_status<S: serde::Serializer>(st: &Option<Status>, s: S) -> Result<S::Ok, S::Error> {
    match st {
        Some(st) => s.serialize_str(st.answer()),
        None => s.serialize_none(),
    }
}

/// The outcome of an audit.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Report {
    /// The solver's command line.
    pub command: String,
    /// The fixed chunk size, or `None` when the sizes were fitted to the solver's speed.
    pub chunk: Option<usize>,
    /// Size of the smallest run counted in the report.
    pub smallest_chunk: u64,
    /// Size of the largest run counted in the report.
    pub largest_chunk: u64,
    /// Runs at a time.
    pub jobs: usize,
    /// The limits each run was held to.
    pub limits: ReportLimits,
    /// Boards in the source.
    pub boards: u64,
    /// Boards whose answer was read and compared.
    pub checked: u64,
    /// Of those, answered wrongly.
    pub wrong: u64,
    /// Boards with no answer read: never run (after a stop), or in a run that went wrong.
    pub unchecked: u64,
    /// Runs of the solver counted in the report.
    pub runs: u64,
    /// Whether the audit stopped at `max_failures` before the last board.
    pub stopped_early: bool,
    /// Whether a signal (Ctrl-C) stopped the audit.
    pub interrupted: bool,
    /// The first wrong answers in case order, with the runs that went wrong, at most
    /// `max_failures` of both together (broken runs are always listed).
    pub failures: Vec<Failure>,
    /// Every kind of wrong answer seen, in order of first appearance, with its smallest board.
    pub kinds: Vec<Kind>,
    /// Runs that went wrong (crash, timeout, unreadable output), in case order.
    pub problems: Vec<Problem>,
    /// Wall time of the whole audit.
    pub seconds: f64,
    /// The answer of each status, as the solver was to print them.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub words: AnswerWords,
}

impl Report {
    /// The answer the solver was to print for a status.
    pub fn answer(&self, status: Status) -> String {
        String::from_utf8_lossy(self.words.word(status)).into_owned()
    }

    /// Whether every board was answered, and answered right.
    pub fn passed(&self) -> bool {
        self.wrong == 0 && self.problems.is_empty() && self.unchecked == 0 && !self.interrupted
    }

    /// The boards worth keeping as a regression test, with their labels: the smallest board of
    /// each kind of failure first, then the other listed failures, then the boards runs broke
    /// at, each board once.
    pub fn failing_cases(&self) -> Vec<(Board, Status)> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let minimal = self.kinds.iter().map(|k| &k.minimal);
        for f in minimal.chain(&self.failures) {
            if seen.insert(f.case) {
                out.push((f.board, f.expected));
            }
        }
        for p in &self.problems {
            if let (Some(case), Some(b), Some(s)) = (p.case, p.board, p.expected)
                && seen.insert(case)
            {
                out.push((b, s));
            }
        }
        out
    }
}

/// A chunk of consecutive cases.
struct Chunk {
    /// From 0.
    index: u64,
    /// Position of its first case among all, from 0.
    first_case: u64,
    cases: Vec<(Board, Status)>,
}

/// What a worker found in one chunk.
struct Outcome {
    index: u64,
    /// Position of the chunk's first case among all, from 0.
    first_case: u64,
    cases: u64,
    answered: u64,
    tally: Tally,
    problem: Option<Problem>,
    /// The run was stopped; its findings are not used.
    cancelled: bool,
}

/// Longest wait of the collecting thread before it looks at the interrupt flag again.
const TICK: Duration = Duration::from_millis(50);

/// Runs the solver on every board of `source` and compares its answers with the labels.
/// `cancel` is polled throughout; once it says so, every solver is killed and the report
/// comes back marked as interrupted. `progress(cases, failures)` is called as each run's
/// cases are checked, with the failures seen so far.
pub fn audit<'a>(
    source: Box<dyn CaseSource + 'a>,
    opts: &Options,
    cancel: &(dyn Fn() -> bool + Sync),
    progress: &(dyn Fn(u64, u64) + Sync),
) -> io::Result<Report> {
    let start = Instant::now();
    let total = source.len();
    let jobs = opts.jobs.max(1);
    let keep = opts.max_failures.max(1);
    let sizer = Sizer::new(opts.chunk, opts.timeout);
    // Inputs and outputs go through files: see `process`.
    let temp = TempDir::new()?;
    let stop = AtomicBool::new(false);
    let halt = || stop.load(Ordering::Relaxed) || cancel();
    let failures_seen = AtomicU64::new(0);

    // One chunk waits ready while the others run: its size is chosen as late as that allows.
    let (chunk_tx, chunk_rx) = mpsc::sync_channel::<Chunk>(1);
    let chunk_rx = Mutex::new(chunk_rx);
    let (out_tx, out_rx) = mpsc::channel::<Outcome>();
    let (free_tx, free_rx) = mpsc::channel::<Chunk>();

    let mut report = Report {
        command: opts.command.clone(),
        chunk: opts.chunk,
        smallest_chunk: 0,
        largest_chunk: 0,
        jobs,
        limits: ReportLimits {
            memory: opts.limits.memory,
            cpu_seconds: opts.limits.cpu.map(|d| d.as_secs_f64()),
            wall_seconds: opts.timeout.as_secs_f64(),
            file: opts.limits.file,
        },
        boards: total,
        checked: 0,
        wrong: 0,
        unchecked: 0,
        runs: 0,
        stopped_early: false,
        interrupted: false,
        failures: Vec::new(),
        kinds: Vec::new(),
        problems: Vec::new(),
        seconds: 0.0,
        words: opts.words.clone(),
    };
    let mut tally = Tally::new(keep);

    std::thread::scope(|scope| {
        for worker in 0..jobs {
            let out_tx = out_tx.clone();
            let free_tx = free_tx.clone();
            let (chunk_rx, halt, temp, sizer) = (&chunk_rx, &halt, &temp, &sizer);
            let failures_seen = &failures_seen;
            scope.spawn(move || {
                let files = Files {
                    input: temp.path.join(format!("input-{worker}.in")),
                    output: temp.path.join(format!("output-{worker}.out")),
                };
                let command = if opts.command.contains("{}") {
                    opts.command.replace("{}", &shell_quote(&files.input))
                } else {
                    opts.command.clone()
                };
                let mut scratch = Scratch::default();
                loop {
                    let next = chunk_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok(c)) = next else { break };
                    let outcome = if halt() {
                        cancelled(&c)
                    } else {
                        let began = Instant::now();
                        let o = run_chunk(&c, &command, &files, opts, keep, halt, &mut scratch);
                        if !o.cancelled {
                            sizer.ran(c.index, c.cases.len(), began.elapsed(), o.problem.is_some());
                        }
                        o
                    };
                    // The chunk's vectors go back to the producer for the next chunks.
                    let _ = free_tx.send(c);
                    failures_seen.fetch_add(
                        outcome.tally.wrong + outcome.problem.is_some() as u64,
                        Ordering::Relaxed,
                    );
                    if out_tx.send(outcome).is_err() {
                        break;
                    }
                }
            });
        }
        drop(out_tx);
        drop(free_tx);

        // Outcomes are committed in chunk order, on a thread of their own: the calling thread
        // produces the chunks, since a source need not be movable to another thread.
        let (report, tally, stop) = (&mut report, &mut tally, &stop);
        let failures_seen = &failures_seen;
        scope.spawn(move || {
            let out_rx = out_rx;
            let mut pending: BTreeMap<u64, Outcome> = BTreeMap::new();
            let mut next = 0u64;
            let mut listed = 0usize;
            loop {
                if cancel() && !report.interrupted {
                    report.interrupted = true;
                    stop.store(true, Ordering::Relaxed);
                }
                match out_rx.recv_timeout(TICK) {
                    Ok(o) => {
                        progress(o.cases, failures_seen.load(Ordering::Relaxed));
                        pending.insert(o.index, o);
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
                while let Some(o) = pending.remove(&next) {
                    next += 1;
                    if o.cancelled || report.stopped_early {
                        continue;
                    }
                    report.runs += 1;
                    if report.runs == 1 {
                        report.smallest_chunk = o.cases;
                    }
                    report.smallest_chunk = report.smallest_chunk.min(o.cases);
                    report.largest_chunk = report.largest_chunk.max(o.cases);
                    let room = keep - listed;
                    if o.tally.wrong as usize >= room {
                        // The audit ends at this run's `room`-th wrong answer: what the run
                        // answered after it is left out, as if the run had been cut there.
                        let mut cut = Tally::new(keep);
                        for f in o.tally.first.into_iter().take(room) {
                            cut.add(f);
                        }
                        let last = cut.first.last().map_or(o.first_case, |f| f.case);
                        report.checked += last - o.first_case;
                        tally.merge(cut);
                        listed = keep;
                    } else {
                        report.checked += o.answered;
                        listed += o.tally.wrong as usize;
                        tally.merge(o.tally);
                        if let Some(p) = o.problem {
                            report.problems.push(p);
                            listed += 1;
                        }
                    }
                    if listed >= keep {
                        report.stopped_early = true;
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        });

        let free_rx = free_rx;
        let recycled = || match free_rx.try_recv() {
            Ok(mut old) => {
                old.cases.clear();
                old.cases
            }
            Err(_) => Vec::new(),
        };
        let mut next = Chunk {
            index: 0,
            first_case: 0,
            cases: Vec::new(),
        };
        let mut size = sizer.size(0);
        let send = |c: &mut Chunk| -> bool {
            let full = std::mem::replace(
                c,
                Chunk {
                    index: c.index + 1,
                    first_case: c.first_case + c.cases.len() as u64,
                    cases: recycled(),
                },
            );
            !halt() && chunk_tx.send(full).is_ok()
        };
        source.blocks(&mut |mut block| {
            while !block.is_empty() {
                let take = (size - next.cases.len()).min(block.len());
                next.cases.extend_from_slice(&block[..take]);
                block = &block[take..];
                if next.cases.len() == size {
                    if !send(&mut next) {
                        return false;
                    }
                    // Chosen once the last chunk is taken, with what the runs so far tell.
                    size = sizer.size(next.index);
                }
            }
            !halt()
        });
        if !next.cases.is_empty() {
            send(&mut next);
        }
        drop(chunk_tx);
    });
    report.wrong = tally.wrong;
    report.failures = tally.first;
    report.kinds = tally.kinds;
    report.unchecked = total - report.checked;
    // Stopping at the last chunk leaves nothing unchecked: that is not an early stop.
    report.stopped_early &= report.unchecked > 0 || !report.problems.is_empty();
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

fn cancelled(c: &Chunk) -> Outcome {
    Outcome {
        index: c.index,
        first_case: c.first_case,
        cases: c.cases.len() as u64,
        answered: 0,
        tally: Tally::default(),
        problem: None,
        cancelled: true,
    }
}

/// Buffers a worker keeps from one chunk to the next: allocating tens of megabytes afresh for
/// every chunk would cost more in page faults than the checking itself.
#[derive(Default)]
struct Scratch {
    input: Vec<u8>,
    statuses: Vec<Status>,
    expected: Vec<u8>,
    read: Vec<u8>,
}

/// A worker's files: the input of its runs, and the output its solver writes.
struct Files {
    input: PathBuf,
    output: PathBuf,
}

/// Output a run may write, per byte of the exact answers, before it is stopped as flooding:
/// room for a loose layout (spaces, `\r`, blank lines), not for a solver that never stops.
const OUTPUT_ALLOWANCE: u64 = 4;

/// Runs the solver on one chunk and checks what it printed.
fn run_chunk(
    c: &Chunk,
    command: &str,
    files: &Files,
    opts: &Options,
    keep: usize,
    halt: &(dyn Fn() -> bool + Sync),
    scratch: &mut Scratch,
) -> Outcome {
    let Scratch {
        input,
        statuses,
        expected,
        read,
    } = scratch;
    // The cases are written into place, not appended one by one: this loop runs for every
    // board of the audit.
    input.clear();
    codejam::push_count(input, c.cases.len() as u64);
    let width = codejam::case_text(Board::default()).len();
    let head = input.len();
    input.resize(head + c.cases.len() * width, 0);
    for (text, &(b, _)) in input[head..].chunks_exact_mut(width).zip(&c.cases) {
        text.copy_from_slice(&codejam::case_text(b));
    }
    statuses.clear();
    statuses.extend(c.cases.iter().map(|c| c.1));
    expected.clear();
    let mut writer = AnswerWriter::new(std::mem::take(expected)).answering(&opts.words);
    *expected = writer
        .push_all(statuses)
        .and_then(|()| writer.finish())
        .expect("writing to memory does not fail");
    let mut checker = Checker::new(&c.cases, c.first_case, expected, keep).answering(&opts.words);
    let deadline = Instant::now()
        .checked_add(opts.timeout)
        .unwrap_or_else(|| Instant::now() + Duration::from_secs(1 << 30));
    let limit = expected.len() as u64 * OUTPUT_ALLOWANCE + 2 * check::MAX_LINE as u64;
    let finished = match std::fs::write(&files.input, &input) {
        Ok(()) => process::run(
            &process::Run {
                command,
                stdin: (!opts.command.contains("{}")).then_some(files.input.as_path()),
                stdout: &files.output,
                limit,
                deadline,
                // The solver's own output may reach the flood limit, which tomek enforces
                // with a better message: the file limit is for the files it should not write.
                limits: Limits {
                    file: opts.limits.file.map(|f| f.max(limit.saturating_mul(2))),
                    ..opts.limits
                },
            },
            halt,
            &mut |b| checker.feed(b),
            read,
        ),
        Err(e) => process::Finished {
            ending: Ending::Failed(io::Error::new(
                e.kind(),
                format!("cannot write {}: {e}", files.input.display()),
            )),
            stderr: Vec::new(),
            usage: Usage::default(),
        },
    };
    let cases = c.cases.len();
    let breach = breach_of(&finished, &opts.limits);
    // A problem with the run as a whole, unless the output itself broke first.
    let verdict: Option<(&'static str, String)> = match &finished.ending {
        Ending::Stopped => return cancelled(c),
        _ if checker.broken.is_some() => None,
        Ending::Rejected => None,
        Ending::Exited(0) if breach.is_none() => {
            checker.finish(true);
            let answered = checker.answered();
            (answered < cases).then(|| {
                let what = format!(
                    "printed {} for {}",
                    crate::output::plural(answered as u64, "answer", "answers"),
                    crate::output::plural(cases as u64, "case", "cases")
                );
                ("too-few", what)
            })
        }
        ending @ (Ending::Exited(_) | Ending::Signalled(_)) => {
            checker.finish(matches!(ending, Ending::Exited(0)));
            let ended = ended(ending);
            let usage = finished.usage;
            Some(match breach {
                None if matches!(ending, Ending::Exited(_)) => ("exit", ended),
                None => ("signal", ended),
                Some(Breach::Memory { said }) => {
                    let limit = size_text(opts.limits.memory.unwrap_or(0));
                    let after = if said {
                        " after an allocation failed"
                    } else {
                        ""
                    };
                    let what = match usage.peak_memory {
                        Some(peak) => format!(
                            "{ended}{after}, peak memory {} (limit {limit})",
                            size_text(peak)
                        ),
                        None => format!("{ended}{after} (limit {limit})"),
                    };
                    ("memory", what)
                }
                Some(Breach::Cpu) => {
                    let limit = opts.limits.cpu.unwrap_or_default();
                    let used = usage.cpu.unwrap_or_default().as_secs_f64();
                    // The system's count of a process killed at the limit may fall a
                    // little short of it: the signal names the limit.
                    let what = format!(
                        "{ended}, {used:.2} s of CPU time counted (limit {} s)",
                        seconds_text(limit)
                    );
                    ("cpu-time", what)
                }
                Some(Breach::File) => {
                    let limit = opts.limits.file.unwrap_or(0);
                    let what = format!("{ended}: wrote a file past {}", size_text(limit));
                    ("file-size", what)
                }
            })
        }
        Ending::Flooded => {
            let what = format!(
                "wrote more than {} bytes for {} cases: killed",
                crate::output::grouped(limit as u128),
                crate::output::grouped(cases as u128)
            );
            Some(("flood", what))
        }
        Ending::TimedOut => {
            let what = format!(
                "still running after {} s: killed",
                seconds_text(opts.timeout)
            );
            Some(("timeout", what))
        }
        Ending::Failed(e) => Some(("run", format!("could not run: {e}"))),
    };
    let stderr = escape_lines(&finished.stderr);
    let answered = checker.answered() as u64;
    // What went wrong, the output line at fault and its text, and the case the run was at.
    let found = match checker.broken.clone() {
        Some(b) => {
            let kind = match b.what {
                Broken::Garbage => "garbage",
                Broken::Misnumbered(_) => "misnumbered",
                Broken::TooMany => "too-many",
                Broken::LongLine => "long-line",
            };
            let what = match &b.what {
                // The case just answered, numbered again: its answer printed twice.
                Broken::Misnumbered(n) if b.answered > 0 && n.parse() == Ok(b.answered) => format!(
                    "line {}: {}: case {}'s answer printed twice",
                    b.line,
                    b.what,
                    c.first_case + b.answered as u64
                ),
                _ => format!("line {}: {}", b.line, b.what),
            };
            Some((kind, what, Some(b.line), Some(b.text), b.answered))
        }
        None => verdict.map(|(kind, what)| (kind, what, None, None, answered as usize)),
    };
    let problem = found.map(|(kind, what, line, text, at)| {
        let case = c.cases.get(at);
        Problem {
            chunk: c.index + 1,
            first_case: c.first_case + 1,
            last_case: c.first_case + cases as u64,
            kind,
            verdict: verdict_of(kind),
            what,
            peak_memory: finished.usage.peak_memory,
            cpu_seconds: finished.usage.cpu.map(|d| d.as_secs_f64()),
            answered,
            line,
            text,
            case: case.map(|_| c.first_case + at as u64 + 1),
            board: case.map(|x| x.0),
            expected: case.map(|x| x.1),
            stderr,
        }
    });
    Outcome {
        index: c.index,
        first_case: c.first_case,
        cases: cases as u64,
        answered,
        tally: checker.tally,
        problem,
        cancelled: false,
    }
}

/// A limit a run went past, as a judge tells it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Breach {
    /// `said`: the solver's standard error tells of an allocation that failed.
    Memory {
        said: bool,
    },
    Cpu,
    /// Windows has no file size limit.
    #[cfg_attr(not(unix), allow(dead_code))]
    File,
}

/// Of a failed run's peak memory, the part of the limit from which its failure is put down to
/// memory. Under an address-space limit an allocation fails before the memory is used: a
/// vector or string that doubles fails with a third to a half of the limit resident, and the
/// address space always holds more than is resident (code, stacks, the allocator's slack).
const MEMORY_MARGIN: f64 = 0.5;

/// What runtimes print when an allocation fails (in lower case): Rust, C++, Python, Java and
/// .NET, Go, and the C library's `ENOMEM`.
const ALLOCATION_FAILED: [&str; 7] = [
    "memory allocation of",
    "memory allocation failed",
    "bad_alloc",
    "memoryerror",
    "outofmemory",
    "out of memory",
    "cannot allocate memory",
];

/// Which limit, if any, a run that ended by itself went past. A judge's order: a signal that
/// a limit sends (`SIGXCPU`, `SIGXFSZ`) names its limit; then memory: a peak past the limit
/// (where the system does not enforce it, as macOS), or a failed run near the limit or whose
/// standard error tells of a failed allocation; then CPU time past the limit (a killed
/// process reports its CPU time, whoever killed it).
fn breach_of(f: &process::Finished, limits: &Limits) -> Option<Breach> {
    let failed = match f.ending {
        Ending::Exited(code) => code != 0,
        Ending::Signalled(sig) => {
            if let Some(b) = limit_signal(sig) {
                return Some(b);
            }
            true
        }
        _ => return None,
    };
    if let Some(limit) = limits.memory {
        let peak = f.usage.peak_memory;
        let said = failed && {
            let err = String::from_utf8_lossy(&f.stderr).to_lowercase();
            ALLOCATION_FAILED.iter().any(|m| err.contains(m))
        };
        let near = failed && peak.is_some_and(|p| p as f64 >= limit as f64 * MEMORY_MARGIN);
        if peak.is_some_and(|p| p > limit) || near || said {
            return Some(Breach::Memory { said });
        }
    }
    match (limits.cpu, f.usage.cpu) {
        (Some(limit), Some(used)) if used > limit => Some(Breach::Cpu),
        _ => None,
    }
}

/// The limit a signal tells of: the CPU time for `SIGXCPU`, the file size for `SIGXFSZ`.
#[cfg(unix)]
fn limit_signal(sig: i32) -> Option<Breach> {
    match sig {
        libc::SIGXCPU => Some(Breach::Cpu),
        libc::SIGXFSZ => Some(Breach::File),
        _ => None,
    }
}

/// Signals are a Unix matter.
#[cfg(not(unix))]
fn limit_signal(_: i32) -> Option<Breach> {
    None
}

/// How a run that ended by itself ended, in words.
fn ended(ending: &Ending) -> String {
    match ending {
        Ending::Exited(0) => "exited normally".to_string(),
        Ending::Exited(code) => format!("exited with status {code}{}", exit_name(*code)),
        Ending::Signalled(sig) => format!("killed by signal {sig}{}", signal_name(*sig)),
        _ => unreachable!("only for runs that ended by themselves"),
    }
}

/// The verdict a judge gives a run that went wrong in the way `kind` names.
fn verdict_of(kind: &str) -> &'static str {
    match kind {
        "memory" => "memory limit exceeded",
        "cpu-time" | "timeout" => "time limit exceeded",
        "flood" | "file-size" => "output limit exceeded",
        "exit" | "signal" => "run-time error",
        "run" => "could not run",
        _ => "wrong answer",
    }
}

/// Bytes in binary units: `64 MiB`, `61.4 MiB`, `2 GiB`.
pub fn size_text(bytes: u64) -> String {
    let units = [("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (unit, shift) in units {
        if bytes >= 1 << shift {
            let v = bytes as f64 / (1u64 << shift) as f64;
            return if bytes.is_multiple_of(1 << shift) {
                format!("{v:.0} {unit}")
            } else {
                format!("{v:.1} {unit}")
            };
        }
    }
    format!("{bytes} bytes")
}

/// What a solver wrote to standard error, each line escaped (see [`crate::output::escape`]) and
/// without the `\r` of a Windows line end.
fn escape_lines(bytes: &[u8]) -> String {
    let lines = bytes.split(|&b| b == b'\n');
    let lines = lines.map(|l| crate::output::escape::escape(l.strip_suffix(b"\r").unwrap_or(l)));
    lines.collect::<Vec<_>>().join("\n")
}

/// A duration in seconds, without useless decimals.
fn seconds_text(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s}")
    }
}

/// ` (SIGSEGV)` for the common signals, nothing for the others.
#[cfg(unix)]
fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGFPE => " (SIGFPE)",
        libc::SIGILL => " (SIGILL)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGPIPE => " (SIGPIPE)",
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGTERM => " (SIGTERM)",
        libc::SIGXCPU => " (SIGXCPU)",
        libc::SIGXFSZ => " (SIGXFSZ)",
        _ => "",
    }
}

/// Signals are a Unix matter.
#[cfg(not(unix))]
fn signal_name(_: i32) -> &'static str {
    ""
}

/// Nothing on Unix, where a crash is a signal rather than an exit status.
#[cfg(not(windows))]
fn exit_name(_: i32) -> &'static str {
    ""
}

/// ` (STATUS_ACCESS_VIOLATION)` for the exception codes a crashed Windows program exits with.
#[cfg(windows)]
fn exit_name(code: i32) -> &'static str {
    match code as u32 {
        0xC000_0005 => " (STATUS_ACCESS_VIOLATION)",
        0xC000_001D => " (STATUS_ILLEGAL_INSTRUCTION)",
        0xC000_0094 => " (STATUS_INTEGER_DIVIDE_BY_ZERO)",
        0xC000_00FD => " (STATUS_STACK_OVERFLOW)",
        0xC000_0409 => " (STATUS_STACK_BUFFER_OVERRUN)",
        0xC000_0017 => " (STATUS_NO_MEMORY)",
        _ => "",
    }
}

/// A path as one word of `sh`: in single quotes, each quote in it written `'\''`.
#[cfg(not(windows))]
pub fn shell_quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', r"'\''"))
}

/// A path as one word of `cmd`: in double quotes, which no Windows path holds.
#[cfg(windows)]
pub fn shell_quote(p: &Path) -> String {
    format!("\"{}\"", p.display())
}

/// A private directory for the solvers' input and output files, removed with everything in it when dropped.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// A new directory in the system's temporary directory.
    pub fn new() -> io::Result<TempDir> {
        let base = std::env::temp_dir();
        for k in 0..1000 {
            let path = base.join(format!("tomek-audit-{}-{k}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(TempDir { path }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(io::Error::new(
                        e.kind(),
                        format!("cannot create a directory in {}: {e}", base.display()),
                    ));
                }
            }
        }
        Err(io::Error::other("no free temporary directory name"))
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
