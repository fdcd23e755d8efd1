//! Auditing a solver program of a problem of the family: the program is run on positions of
//! the input space, in files of the problem's layout, under a judge's limits
//! ([`crate::tictactoe::solver::process`], the runner the Code Jam audit uses too), and each
//! output is judged as the judge would.
//!
//! Every run's answers are counted before they are compared. A program that prints one answer
//! too many (or too few) on some position shifts every answer after it, and a judge sees a
//! wrong answer on a later, innocent case; the audit says what really happened ("1,001
//! answers for 1,000 cases") and finds the position at fault by running the run's first `k`
//! cases for a `k` chosen by bisection: the first prefix whose count of answers is off ends at
//! it.
//!
//! Runs go in order of their positions, a few at a time; the report (which failures are
//! listed, where the audit stopped, the smallest failing position of each kind) depends on the
//! positions and the program's answers alone, not on how the runs were scheduled.

use super::layout;
use super::{Cases, Problem};
use crate::tictactoe::board::Board;
use crate::tictactoe::check::same_words;
use crate::tictactoe::solver::process::{self, Ending, Limits, Run};
use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How to run the solver.
#[derive(Clone, Debug)]
pub struct Options {
    /// The command, run by the platform's shell. Every `{}` in it is replaced by the quoted
    /// path of a file holding the input; without `{}` the input comes on standard input.
    pub command: String,
    /// Solver processes at once.
    pub jobs: usize,
    /// Longest a run may take.
    pub timeout: Duration,
    /// Failures (wrong answers and broken runs) after which the audit stops.
    pub max_failures: usize,
    /// The judge's limits on each run.
    pub limits: Limits,
    /// Cases per run; `None` for the largest dataset's bound (one for one-case problems).
    pub chunk: Option<usize>,
}

/// A position the solver answered wrongly.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Failure {
    /// The case among the audited positions, from 1.
    pub case: u64,
    /// The grid, rows joined by `/`.
    pub board: String,
    /// Stones on the board.
    pub stones: u32,
    /// The right answer.
    pub expected: String,
    /// What the solver printed for it (its line, without the case prefix when it has one).
    pub received: String,
}

/// One kind of wrong answer (an expected answer and what was printed instead): how often, and
/// the failing position with the fewest stones, the earliest on a tie.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Kind {
    /// The right answer.
    pub expected: String,
    /// What the solver printed instead.
    pub received: String,
    /// How many positions got it.
    pub count: u64,
    /// The smallest of them.
    pub minimal: Failure,
}

/// A run that went wrong as a whole: it crashed, hung, or printed a number of answers other
/// than its number of cases.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Broken {
    /// The run, from 1.
    pub run: u64,
    /// Its first case among the audited positions, from 1.
    pub first_case: u64,
    /// Its last case.
    pub last_case: u64,
    /// `exit`, `signal`, `timeout`, `memory`, `flood`, `run`, or `misaligned`.
    pub kind: &'static str,
    /// What happened, in words.
    pub what: String,
    /// The case at fault, when it is known: the first whose answer is doubled or missing.
    pub case: Option<u64>,
    /// Its grid.
    pub board: Option<String>,
    /// Its right answer.
    pub expected: Option<String>,
    /// The end of what the solver wrote to standard error.
    pub stderr: String,
}

/// The outcome of an audit.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Report {
    /// The problem's name.
    pub problem: String,
    /// The solver's command line.
    pub command: String,
    /// Positions to audit.
    pub positions: u64,
    /// Positions whose answer was read and compared.
    pub checked: u64,
    /// Of those, answered wrongly.
    pub wrong: u64,
    /// Runs made (the bisection's extra runs aside).
    pub runs: u64,
    /// Whether the audit stopped at the most failures asked for before the last position.
    pub stopped_early: bool,
    /// Whether a request to stop (Ctrl-C) ended the audit.
    pub interrupted: bool,
    /// The first wrong answers, in case order.
    pub failures: Vec<Failure>,
    /// Every kind of wrong answer, in order of first appearance, with its smallest position.
    pub kinds: Vec<Kind>,
    /// The runs that went wrong, in case order.
    pub broken: Vec<Broken>,
    /// Wall time of the whole audit.
    pub seconds: f64,
}

impl Report {
    /// Whether every position was answered, and answered right.
    pub fn passed(&self) -> bool {
        self.wrong == 0
            && self.broken.is_empty()
            && self.checked == self.positions
            && !self.interrupted
    }
}

/// What one run found.
#[derive(Default)]
struct Found {
    checked: u64,
    failures: Vec<Failure>,
    broken: Option<Broken>,
}

/// Output a run may write per byte of its exact answers before it is stopped as flooding.
const OUTPUT_ALLOWANCE: u64 = 4;

/// The files of one worker, and the command with `{}` replaced.
struct Worker {
    input: PathBuf,
    output: PathBuf,
    command: String,
    stdin: bool,
}

/// Runs the solver on `boards` (in that order) and judges its answers. `cancel` is polled
/// throughout; `progress(cases)` is called as each run's cases are judged.
pub fn audit(
    p: &Problem,
    boards: &[Board],
    opts: &Options,
    cancel: &(dyn Fn() -> bool + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> io::Result<Report> {
    let start = Instant::now();
    let chunk = match p.layout.cases {
        Cases::Single => 1,
        _ => opts
            .chunk
            .unwrap_or_else(|| p.datasets.iter().map(|d| d.max).max().unwrap_or(1) as usize)
            .max(1),
    };
    let temp = crate::tictactoe::solver::TempDir::new()?;
    let jobs = opts.jobs.max(1);
    let workers: Vec<Worker> = (0..jobs)
        .map(|w| {
            let input = temp.path().join(format!("input-{w}.in"));
            let output = temp.path().join(format!("output-{w}.out"));
            let (command, stdin) = if opts.command.contains("{}") {
                let quoted = crate::tictactoe::solver::shell_quote(&input);
                (opts.command.replace("{}", &quoted), false)
            } else {
                (opts.command.clone(), true)
            };
            Worker {
                input,
                output,
                command,
                stdin,
            }
        })
        .collect();
    let keep = opts.max_failures.max(1);
    let mut report = Report {
        problem: p.name.clone(),
        command: opts.command.clone(),
        positions: boards.len() as u64,
        ..Report::default()
    };
    let chunks: Vec<&[Board]> = boards.chunks(chunk).collect();
    let mut listed = 0usize;
    'batches: for (b, batch) in chunks.chunks(jobs).enumerate() {
        if cancel() {
            report.interrupted = true;
            break;
        }
        let found: Vec<Found> = std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .iter()
                .zip(&workers)
                .enumerate()
                .map(|(i, (cases, w))| {
                    let first = ((b * jobs + i) * chunk) as u64;
                    let run = (b * jobs + i) as u64 + 1;
                    scope.spawn(move || judge_run(p, cases, first, run, w, opts, cancel))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a run's thread does not panic"))
                .collect()
        });
        if cancel() {
            report.interrupted = true;
            break;
        }
        for (i, f) in found.into_iter().enumerate() {
            report.runs += 1;
            progress(batch[i].len() as u64);
            report.checked += f.checked;
            for fail in f.failures {
                add_failure(&mut report, fail, &mut listed, keep);
            }
            if let Some(broken) = f.broken {
                report.broken.push(broken);
                listed += 1;
            }
            if listed >= keep {
                let done: u64 = chunks[..(b * jobs + i + 1)]
                    .iter()
                    .map(|c| c.len() as u64)
                    .sum();
                report.stopped_early = done < report.positions;
                break 'batches;
            }
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

fn add_failure(report: &mut Report, f: Failure, listed: &mut usize, keep: usize) {
    report.wrong += 1;
    match report
        .kinds
        .iter_mut()
        .find(|k| k.expected == f.expected && k.received == f.received)
    {
        Some(k) => {
            k.count += 1;
            if f.stones < k.minimal.stones {
                k.minimal = f.clone();
            }
        }
        None => report.kinds.push(Kind {
            expected: f.expected.clone(),
            received: f.received.clone(),
            count: 1,
            minimal: f.clone(),
        }),
    }
    if *listed < keep {
        report.failures.push(f);
        *listed += 1;
    }
}

/// What one run of the solver printed, or how it failed.
enum Ran {
    Output(Vec<u8>),
    Failed {
        kind: &'static str,
        what: String,
        stderr: String,
    },
}

/// Runs the solver once on `cases`.
fn run_once(
    p: &Problem,
    cases: &[Board],
    w: &Worker,
    opts: &Options,
    cancel: &(dyn Fn() -> bool + Sync),
) -> Ran {
    let input = layout::input_text(p, cases);
    if let Err(e) = std::fs::write(&w.input, &input) {
        return Ran::Failed {
            kind: "run",
            what: format!("cannot write {}: {e}", w.input.display()),
            stderr: String::new(),
        };
    }
    let mut expected_len = 0u64;
    for (i, _) in cases.iter().enumerate() {
        expected_len += layout::prefix(p, i as u64 + 1).len() as u64 + 40;
    }
    let limit = expected_len * OUTPUT_ALLOWANCE + (64 << 10);
    let mut output = Vec::new();
    let mut buf = Vec::new();
    let run = Run {
        command: &w.command,
        stdin: w.stdin.then_some(w.input.as_path()),
        stdout: &w.output,
        limit,
        deadline: Instant::now() + opts.timeout,
        limits: Limits {
            file: opts.limits.file.map(|f| f.max(limit.saturating_mul(2))),
            ..opts.limits
        },
    };
    let finished = process::run(
        &run,
        cancel,
        &mut |bytes| {
            output.extend_from_slice(bytes);
            true
        },
        &mut buf,
    );
    let stderr = String::from_utf8_lossy(&finished.stderr)
        .lines()
        .map(|l| crate::output::escape::escape(l.as_bytes()))
        .collect::<Vec<_>>()
        .join("\n");
    let failed = |kind: &'static str, what: String| Ran::Failed {
        kind,
        what,
        stderr: stderr.clone(),
    };
    match finished.ending {
        Ending::Exited(0) => Ran::Output(output),
        Ending::Exited(code) => failed("exit", format!("the solver exited with status {code}")),
        Ending::Signalled(sig) => {
            failed("signal", format!("the solver was killed by signal {sig}"))
        }
        Ending::TimedOut => failed(
            "timeout",
            format!(
                "still running after {} s: killed",
                opts.timeout.as_secs_f64()
            ),
        ),
        Ending::Flooded => failed(
            "flood",
            format!(
                "wrote more than {} bytes for {} cases: killed",
                crate::output::grouped(limit as u128),
                crate::output::grouped(cases.len() as u128)
            ),
        ),
        Ending::Stopped => failed("stopped", "stopped".into()),
        Ending::Rejected => failed("run", "the output was rejected".into()),
        Ending::Failed(e) => failed("run", format!("could not run: {e}")),
    }
}

/// The answers of an output: its lines that hold something, each trimmed.
fn answer_lines(output: &[u8]) -> Vec<&[u8]> {
    output
        .split(|&c| c == b'\n')
        .map(|l| l.trim_ascii())
        .filter(|l| !l.is_empty())
        .collect()
}

/// An answer line without its case's prefix, when it starts with it.
fn without_prefix<'a>(p: &Problem, n: u64, line: &'a [u8]) -> &'a [u8] {
    let head = layout::prefix(p, n);
    let head = head.trim_end().as_bytes();
    match line.strip_prefix(head) {
        Some(rest) if !head.is_empty() => rest.trim_ascii(),
        _ => line,
    }
}

/// Runs the solver on one run's cases and judges its output.
fn judge_run(
    p: &Problem,
    cases: &[Board],
    first: u64,
    run: u64,
    w: &Worker,
    opts: &Options,
    cancel: &(dyn Fn() -> bool + Sync),
) -> Found {
    let mut values = p.values();
    let expected: Vec<String> = cases.iter().map(|&b| p.answer(b, &mut values)).collect();
    let broken = |kind, what: String, at: Option<usize>, stderr: String| Broken {
        run,
        first_case: first + 1,
        last_case: first + cases.len() as u64,
        kind,
        what,
        case: at.map(|k| first + k as u64 + 1),
        board: at.map(|k| p.grid_text(cases[k])),
        expected: at.map(|k| expected[k].clone()),
        stderr,
    };
    let output = match run_once(p, cases, w, opts, cancel) {
        Ran::Output(o) => o,
        Ran::Failed { kind, what, stderr } => {
            // A crash on one case of many: the first prefix that fails holds the culprit.
            let at = if cases.len() > 1 && kind != "stopped" {
                first_bad_prefix(cases.len(), |k| {
                    matches!(
                        run_once(p, &cases[..k], w, opts, cancel),
                        Ran::Failed { .. }
                    )
                })
                .map(|k| k - 1)
            } else if kind != "stopped" {
                Some(0)
            } else {
                None
            };
            return Found {
                broken: Some(broken(kind, what, at, stderr)),
                ..Found::default()
            };
        }
    };
    let lines = answer_lines(&output);
    // The judge's own reading first: the words of the output against the expected words.
    let mut want = Vec::new();
    for (k, a) in expected.iter().enumerate() {
        layout::push_answer(p, k as u64 + 1, a, &mut want);
    }
    if same_words(&output, &want) {
        return Found {
            checked: cases.len() as u64,
            ..Found::default()
        };
    }
    if lines.len() != cases.len() {
        let count = |k: usize| match run_once(p, &cases[..k], w, opts, cancel) {
            Ran::Output(o) => answer_lines(&o).len(),
            Ran::Failed { .. } => usize::MAX,
        };
        let at = if cases.len() == 1 {
            Some(1)
        } else {
            first_bad_prefix(cases.len(), |k| count(k) != k)
        };
        let what = format!(
            "{} for {}",
            crate::output::plural(lines.len() as u64, "answer", "answers"),
            crate::output::plural(cases.len() as u64, "case", "cases")
        );
        let what = match at {
            Some(k) => {
                let alone = if cases.len() == 1 {
                    lines.len()
                } else {
                    count_alone(p, cases[k - 1], w, opts, cancel)
                };
                let said = match alone {
                    0 => "no answer".to_string(),
                    1 => "one answer alone, out of step after the cases before it".to_string(),
                    usize::MAX => "a failed run alone".to_string(),
                    n => format!("{n} answers"),
                };
                format!(
                    "{what}: case {} gets {said}",
                    crate::output::grouped((first + k as u64) as u128)
                )
            }
            None => format!("{what}: no case alone is at fault"),
        };
        return Found {
            broken: Some(broken("misaligned", what, at.map(|k| k - 1), String::new())),
            ..Found::default()
        };
    }
    // As many answers as cases: each line is its case's answer.
    let mut failures = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let n = k as u64 + 1;
        let mut exp = Vec::new();
        layout::push_answer(p, n, &expected[k], &mut exp);
        if !same_words(line, &exp) {
            failures.push(Failure {
                case: first + n,
                board: p.grid_text(cases[k]),
                stones: cases[k].ply(),
                expected: expected[k].clone(),
                received: crate::output::escape::excerpt(without_prefix(p, n, line), 100),
            });
        }
    }
    if failures.is_empty() {
        // Same lines, other words: answers run across lines. The judge reads words only, so
        // nothing is wrong case by case; the whole run is.
        return Found {
            broken: Some(broken(
                "misaligned",
                "the words of the output do not split into the cases' answers".into(),
                None,
                String::new(),
            )),
            ..Found::default()
        };
    }
    Found {
        checked: cases.len() as u64,
        failures,
        broken: None,
    }
}

/// How many answers the solver prints on one position alone (`usize::MAX` when it fails).
fn count_alone(
    p: &Problem,
    b: Board,
    w: &Worker,
    opts: &Options,
    cancel: &(dyn Fn() -> bool + Sync),
) -> usize {
    match run_once(p, &[b], w, opts, cancel) {
        Ran::Output(o) => answer_lines(&o).len(),
        Ran::Failed { .. } => usize::MAX,
    }
}

/// The smallest `k` in `1..=n` with `bad(k)`, by bisection, given that `bad(n)` holds and that
/// once a prefix is bad every longer one is; `None` when even the first case alone is fine
/// and the whole is not bad after all.
fn first_bad_prefix(n: usize, mut bad: impl FnMut(usize) -> bool) -> Option<usize> {
    let (mut lo, mut hi) = (0, n);
    // Invariant: prefix `lo` is good (0 trivially), prefix `hi` is bad.
    if !bad(n) {
        return None;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if bad(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

#[cfg(test)]
mod tests {
    use super::first_bad_prefix;

    #[test]
    fn bisection_finds_the_first_bad_prefix() {
        for culprit in 1..=37 {
            let mut calls = 0;
            let k = first_bad_prefix(37, |k| {
                calls += 1;
                k >= culprit
            });
            assert_eq!(k, Some(culprit));
            assert!(calls <= 8, "{calls} runs for 37 cases");
        }
        assert_eq!(first_bad_prefix(10, |_| false), None);
    }
}
