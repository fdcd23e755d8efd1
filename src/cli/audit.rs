//! `tomek audit`: the evaluators, or an external solver program (`--solver`), held to the labels
//! of play.

use super::enumerate::{parse_plies, with_ext};
use super::{SetupFilter, parse_status};
use anyhow::Context;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use tomek::outcome::Status;
use tomek::output::{AtomicFile, Format, Table, grouped};
use tomek::tictactoe::audit;
use tomek::tictactoe::board::Board;
use tomek::tictactoe::codejam::{self, AnswerWords};
use tomek::tictactoe::enumerate::Selection;
use tomek::tictactoe::eval::{Evaluator, EvaluatorKind};
use tomek::tictactoe::rules::Geometry;
use tomek::tictactoe::sample::{DEFAULT_SEED, Generator, Profile, Spec};
use tomek::tictactoe::solver::process::{Limits, interrupt};
use tomek::tictactoe::solver::{
    self, CaseSource, Cases, DEFAULT_FILE_LIMIT, DEFAULT_MEMORY_LIMIT, Enumerated, Options,
};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub problem: super::problem::ProblemArg,
    #[command(flatten)]
    pub setup: SetupFilter,
    /// Evaluators to check (comma-separated); all four by default.
    #[arg(long, value_enum, value_delimiter = ',', conflicts_with = "solver")]
    pub evaluator: Vec<EvaluatorKind>,
    /// How many mismatches to show per evaluator.
    #[arg(long, default_value_t = 5, conflicts_with = "solver")]
    pub show: usize,
    /// Output format (`csv` only for the evaluators).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Audit this solver program instead of the evaluators: a shell command (run by `sh -c`,
    /// or `cmd /S /C` on Windows)
    /// that reads a Code Jam input on standard input, or from the file named by `{}` when the
    /// command holds `{}`, and prints `Case #x: answer` lines.
    #[arg(long, value_name = "CMD", help_heading = "Solver")]
    pub solver: Option<String>,
    /// Statuses to audit: x, o, draw, open (comma-separated; all by default).
    #[arg(long, value_delimiter = ',', value_parser = parse_status, requires = "solver", help_heading = "Solver")]
    pub status: Vec<Status>,
    /// Plies (stones on the board) to audit: `N`, `A-B`, comma-separated; all by default.
    #[arg(long, value_delimiter = ',', value_parser = parse_plies, requires = "solver", help_heading = "Solver")]
    pub ply: Vec<Vec<u32>>,
    /// Audit on boards drawn by a test-data profile (as `tomek generate` draws them) instead of
    /// every reachable board of the selected setups.
    #[arg(long, value_enum, requires = "solver", conflicts_with_all = ["status", "ply"], help_heading = "Solver")]
    pub profile: Option<Profile>,
    /// Boards drawn by --profile (`edge`, `killer` and `exhaustive` have their own number).
    #[arg(long, default_value_t = 100_000, value_parser = super::number::<u64>(1, None), requires = "profile", help_heading = "Solver")]
    pub cases: u64,
    /// Seed of --profile's draws: the same seed gives the same boards everywhere.
    #[arg(long, default_value_t = DEFAULT_SEED, requires = "profile", help_heading = "Solver")]
    pub seed: u64,
    /// Cases per run of the solver [default: fitted to the solver's speed, from 1,000 cases
    /// (the Code Jam large-input limit) up to runs of about 1.5 s].
    #[arg(long, value_parser = super::number::<u64>(1, Some(100_000_000)), requires = "solver", help_heading = "Solver")]
    pub chunk: Option<u64>,
    /// Solver processes at once [default: the number of cores].
    #[arg(long, short, value_parser = super::number::<u64>(1, Some(1024)), requires = "solver", help_heading = "Solver")]
    pub jobs: Option<u64>,
    /// Seconds a run may take before it is killed.
    #[arg(long, default_value = "60", value_name = "SECONDS", value_parser = parse_seconds, requires = "solver", help_heading = "Solver")]
    pub timeout: Duration,
    /// Memory each run may use, e.g. 512M or 2G [default: 2G, the default memory limit of the
    /// Kattis and ICPC problem package formats]. On Linux and macOS each process of the run
    /// has this much address space (a failed allocation is then the solver's); on Windows the
    /// whole tree shares it. A run that fails near the limit is reported as memory limit
    /// exceeded.
    #[arg(long, value_name = "SIZE", value_parser = parse_memory_limit, requires = "solver", help_heading = "Solver")]
    pub memory_limit: Option<usize>,
    /// CPU time each run may use, in seconds [default: the --timeout]; on Linux and macOS each
    /// process is stopped at this many whole seconds (rounded up), on Windows the whole tree.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, requires = "solver", help_heading = "Solver")]
    pub cpu_limit: Option<Duration>,
    /// Size any file a run writes may reach, e.g. 64M [default: 64M, room for the answers of
    /// the largest run]; Linux and macOS only.
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size, requires = "solver", help_heading = "Solver")]
    pub file_limit: Option<usize>,
    /// Stop once this many failures (wrong answers and broken runs) are found.
    #[arg(long, default_value_t = 10, value_parser = super::number::<u64>(1, Some(1_000_000)), requires = "solver", help_heading = "Solver")]
    pub max_failures: u64,
    /// Write the failing boards as a Code Jam input `PREFIX.in` with its answers `PREFIX.out`:
    /// the smallest board of each kind of failure first.
    #[arg(
        long,
        value_name = "PREFIX",
        requires = "solver",
        help_heading = "Solver"
    )]
    pub save_failures: Option<PathBuf>,
}

impl Args {
    /// Solver processes at once: `--jobs`, or the number of cores.
    fn jobs(&self) -> usize {
        self.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |j| j as usize,
        )
    }

    /// The judge's limits on each run, the same for Code Jam's audit and the family's.
    fn limits(&self) -> Limits {
        Limits {
            memory: Some(self.memory_limit.map_or(DEFAULT_MEMORY_LIMIT, |m| m as u64)),
            cpu: Some(self.cpu_limit.unwrap_or(self.timeout)),
            file: Some(self.file_limit.map_or(DEFAULT_FILE_LIMIT, |f| f as u64)),
        }
    }
}

/// A memory limit: a size of at least 1M. Below it even the shell dies of `SIGSEGV` as it
/// loads, which would read as a crash of every run; from 1M to about 2M it cannot load its
/// libraries, which the check that the command starts reports.
fn parse_memory_limit(s: &str) -> Result<usize, String> {
    let bytes = super::parse_size(s)?;
    if bytes < 1 << 20 {
        return Err(format!(
            "`{s}`: give at least 1M; no program starts in less"
        ));
    }
    Ok(bytes)
}

/// A positive number of seconds, with or without an `s`.
fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .trim()
        .trim_end_matches('s')
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(v > 0.0 && v <= 1e9) {
        return Err(format!("{s} seconds: give a positive number, at most 1e9"));
    }
    Ok(Duration::from_secs_f64(v))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let family = args.problem.family()?;
    // A description that differs from Code Jam's in its answer words only is audited on Code
    // Jam's path, which expects its words.
    let words = match (&family, &args.solver) {
        (None, _) => Some(AnswerWords::CODE_JAM),
        (Some(p), Some(_)) => p.code_jam_words(),
        (Some(_), None) => None,
    };
    if let (Some(p), None) = (family, &words) {
        let Some(command) = args.solver.clone() else {
            return super::problem::audit(&p, args.format);
        };
        if !args.status.is_empty() || !args.ply.is_empty() {
            anyhow::bail!(
                "--status and --ply select Code Jam's boards: with --problem, choose the \
                 positions with --profile"
            );
        }
        if args.format == Format::Csv {
            anyhow::bail!("--format csv is not available with --solver: use table or json");
        }
        let profile = match args.profile {
            Some(name) => Some((super::problem::profile(name)?, args.cases, args.seed)),
            None => None,
        };
        let opts = tomek::problem::audit::Options {
            command,
            jobs: args.jobs(),
            timeout: args.timeout,
            max_failures: args.max_failures as usize,
            limits: args.limits(),
            chunk: args.chunk.map(|n| n as usize),
        };
        return super::problem::audit_solver(&p, opts, profile, args.format);
    }
    let words = words.unwrap_or(AnswerWords::CODE_JAM);
    match args.solver.clone() {
        Some(command) => run_solver(args, command, words),
        None => run_evaluators(args),
    }
}

fn run_solver(args: Args, command: String, words: AnswerWords) -> anyhow::Result<ExitCode> {
    if args.format == Format::Csv {
        anyhow::bail!("--format csv is not available with --solver: use table or json");
    }
    if command.trim().is_empty() {
        anyhow::bail!("--solver: the command is empty");
    }
    let geometry = Arc::new(Geometry::tomek().clone());
    let setups = args.setup.setups(&geometry)?;
    let plies: Vec<u32> = args.ply.iter().flatten().copied().collect();
    let selection = Selection::setups(setups.clone())
        .with_statuses(&args.status)
        .with_plies(&plies);
    let opts = Options {
        command,
        chunk: args.chunk.map(|n| n as usize),
        jobs: args.jobs(),
        timeout: args.timeout,
        max_failures: args.max_failures as usize,
        limits: args.limits(),
        words,
    };
    // From here on Ctrl-C stops the solvers and the audit rather than this process alone.
    interrupt::poll();
    if let Some(why) =
        solver::probe::cannot_start(&opts.command, &opts.limits, &interrupt::requested)
            .context("cannot run the audit")?
    {
        anyhow::bail!("--solver: cannot start `{}`: {why}", opts.command);
    }
    let needs_space = args.profile.is_none_or(|p| p.needs_space());
    let space = needs_space.then(|| super::progress::explore_setups(geometry, &setups));
    let source: Box<dyn CaseSource> = match args.profile {
        None => Box::new(Enumerated {
            space: space.as_ref().expect("explored above"),
            selection,
        }),
        Some(profile) => {
            let spec = Spec {
                profile,
                cases: args.cases,
                seed: args.seed,
                setups,
            };
            let generator = Generator::new(space.as_ref(), &spec)?;
            Box::new(Cases {
                len: generator.cases(),
                cases: generator.into_cases(),
            })
        }
    };
    if source.is_empty() {
        anyhow::bail!(super::NOTHING_SELECTED);
    }
    let pb = super::progress::bar(source.len(), "boards");
    let progress = |cases, failures| {
        pb.inc(cases);
        if failures > 0 {
            pb.set_message(format!("boards, {failures} failed"));
        }
    };
    let report = solver::audit(source, &opts, &interrupt::requested, &progress)
        .context("cannot run the audit")?;
    pb.finish_and_clear();
    if report.interrupted {
        eprintln!("tomek: interrupted; every solver process was stopped");
        return Ok(ExitCode::from(130));
    }
    let mut saved = None;
    if let Some(prefix) = &args.save_failures {
        let cases = report.failing_cases();
        if !cases.is_empty() {
            save_cases(prefix, &cases, &report.words)?;
            saved = Some((
                cases.len(),
                with_ext(prefix, ".in"),
                with_ext(prefix, ".out"),
            ));
        }
    }
    match args.format {
        Format::Json => {
            let mut json = serde_json::to_value(&report)?;
            in_words(&mut json, &report.words);
            outln!("{}", serde_json::to_string_pretty(&json)?)
        }
        _ => {
            out!("{}", solver::report::render(&report));
            if let Some((n, i, o)) = &saved {
                outln!("Saved {n} boards to {} and {}.", i.display(), o.display());
            }
        }
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The report's expected answers (Code Jam's words where the report is serialized) in the
/// words the solver was to print.
fn in_words(json: &mut serde_json::Value, words: &AnswerWords) {
    match json {
        serde_json::Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    serde_json::Value::String(s) if key == "expected" => {
                        if let Some(status) = Status::from_answer(s) {
                            *s = String::from_utf8_lossy(words.word(status)).into_owned();
                        }
                    }
                    _ => in_words(v, words),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| in_words(v, words)),
        _ => {}
    }
}

/// Writes `PREFIX.in` and `PREFIX.out`, both or neither.
fn save_cases(
    prefix: &std::path::Path,
    cases: &[(Board, Status)],
    words: &AnswerWords,
) -> anyhow::Result<()> {
    let (inp, ans) = (with_ext(prefix, ".in"), with_ext(prefix, ".out"));
    let boards: Vec<Board> = cases.iter().map(|c| c.0).collect();
    let statuses: Vec<Status> = cases.iter().map(|c| c.1).collect();
    let mut writer = codejam::AnswerWriter::new(Vec::new()).answering(words);
    writer.push_all(&statuses)?;
    let answers = writer.finish()?;
    let mut fi =
        AtomicFile::create(&inp).with_context(|| format!("cannot create {}", inp.display()))?;
    let mut fa =
        AtomicFile::create(&ans).with_context(|| format!("cannot create {}", ans.display()))?;
    codejam::write_input(&mut fi, &boards)
        .with_context(|| format!("cannot write {}", inp.display()))?;
    fa.write_all(&answers)
        .with_context(|| format!("cannot write {}", ans.display()))?;
    tomek::output::commit_all(vec![fi, fa])?;
    Ok(())
}

fn run_evaluators(args: Args) -> anyhow::Result<ExitCode> {
    let setups = args.setup.setups(Geometry::tomek())?;
    let kinds = if args.evaluator.is_empty() {
        EvaluatorKind::ALL.to_vec()
    } else {
        args.evaluator
    };
    let evaluators: Vec<&dyn Evaluator> = kinds.iter().map(|k| k.get()).collect();
    let pb = super::progress::bar(setups.len() as u64, "setups");
    let report = audit::audit_evaluators(&setups, &evaluators, args.show, |n| pb.inc(n));
    pb.finish_and_clear();
    let mut table = Table::new(["evaluator", "boards_checked", "mismatches"]);
    for a in &report {
        table.push([
            a.evaluator.clone(),
            a.checked.to_string(),
            a.mismatches.to_string(),
        ]);
    }
    match args.format {
        Format::Json => outln!("{}", serde_json::to_string_pretty(&report)?),
        Format::Csv => out!("{}", table.csv()),
        Format::Table => {
            for row in &mut table.rows {
                for cell in row.iter_mut().skip(1) {
                    *cell = grouped(cell.parse()?);
                }
            }
            out!("{}", table.render());
            for a in report.iter().filter(|a| a.mismatches > 0) {
                outln!("\nFirst mismatches of {}:", a.evaluator);
                for m in &a.first {
                    outln!(
                        "expected {:?}, got {:?}\n{}",
                        m.expected.answer(),
                        m.got.answer(),
                        m.board
                    );
                }
            }
        }
    }
    let failed = report.iter().any(|a| a.mismatches > 0);
    if args.format == Format::Table && !failed {
        outln!("\nEvery evaluator agrees with play on every reachable board.");
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
