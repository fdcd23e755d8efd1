//! `tomek fourow`: Four in a row (SPOJ FOUROW) inputs: solve them, generate them, validate them;
//! the number of positions of each ply; and who wins a position with perfect play (`explain`,
//! `score`).

use anyhow::Context;
use std::ffi::OsString;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;
use tomek::fourow::bdd::{self, Settings, saved, values};
use tomek::fourow::count::{self, Method, Options, Ply};
use tomek::fourow::solve::{self as perfect, Analysis, Board, Score, Solver};
use tomek::fourow::{self, Mode, Summary, generate};
use tomek::output::{AtomicFile, Format, Table, csv_line, grouped};

/// Four in a row (SPOJ FOUROW): solve, generate and validate inputs; count positions; score
/// positions with perfect play.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Answer an input exactly as the judge expects; malformed input exits with code 2.
    Solve(SolveArgs),
    /// Write seeded test files (PREFIX.in and PREFIX.out) that cover every verdict.
    Generate(GenerateArgs),
    /// Check that a file follows the input format to the letter; exits 1 when it does not.
    Validate(ValidateArgs),
    /// Count the distinct positions after each ply (OEIS A212693), and the won ones; with
    /// --values, how many are won, drawn and lost for the side to move.
    Count(CountArgs),
    /// Write the whole problem as a problem package: Kattis legacy (the default), ICPC
    /// 2025-09, Polygon or DOMjudge.
    Package(super::package::FourowArgs),
    /// Who wins a position with perfect play: its score, the score of every column and a
    /// line of best play; an illegal sequence exits with code 2.
    Explain(ExplainArgs),
    /// Score positions, one `MOVES [EXPECTED]` a line (the solver benchmarks' format); exits 1
    /// when a score differs from the expected one, 2 on a malformed line.
    Score(ScoreArgs),
}

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The input; `-` or absent for standard input.
    pub input: Option<PathBuf>,
    /// Write the answers to this file (replaced atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Write PREFIX.in and PREFIX.out (PREFIX-1.in, PREFIX-1.out, ... with --files); without
    /// it, one input goes to standard output.
    #[arg(short, long, value_name = "PREFIX")]
    pub output: Option<PathBuf>,
    /// Games per file (t < 100); from 18 games on, every kind of game is present.
    #[arg(long, value_name = "N", default_value_t = 99,
          value_parser = super::number::<u16>(1, Some(99)))]
    pub games: u16,
    /// Seed of the random generator: the same seed gives the same files on every machine.
    #[arg(long, value_name = "S", default_value_t = generate::DEFAULT_SEED)]
    pub seed: u64,
    /// Number of files.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = super::number::<u16>(1, Some(u16::MAX as u64)))]
    pub files: u16,
}

#[derive(clap::Args, Debug)]
pub struct ValidateArgs {
    /// The input file to check; `-` for standard input.
    pub file: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct CountArgs {
    /// Count the plies from 0 to N (at most the number of cells; with --values, all of them
    /// by default).
    #[arg(long, value_name = "N", required_unless_present = "values")]
    pub plies: Option<u32>,
    /// Solve the board strongly (bdd method, at most 42 cells): the positions of each ply
    /// won, drawn and lost for the side to move, by backward induction from the last ply.
    /// Won, drawn and lost add up to the positions; terminal (the previous move made a four)
    /// counts the part of lost that is over already.
    #[arg(long)]
    pub values: bool,
    /// How to count: the explicit methods (memo, tree) walk positions one by one; bdd holds
    /// each ply as one binary decision diagram and goes to the last ply of 7×6.
    #[arg(long, value_enum, default_value_t = CountMethod::Memo)]
    pub method: CountMethod,
    /// Walk every position rather than one of each pair of mirror images (same counts,
    /// twice the work; explicit methods on 7×6 only).
    #[arg(long)]
    pub no_symmetry: bool,
    /// Columns of the board (boards other than 7×6: memo and bdd).
    #[arg(long, value_name = "W", default_value_t = 7,
          value_parser = super::number::<u32>(1, Some(64)))]
    pub cols: u32,
    /// Rows of the board.
    #[arg(long, value_name = "H", default_value_t = 6,
          value_parser = super::number::<u32>(1, Some(64)))]
    pub rows: u32,
    /// Memory the bdd method may use for its diagrams, e.g. 20G or 512M (default: 85% of the
    /// machine's memory). Past it, counting stops with an error and the plies done so far
    /// are printed.
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size)]
    pub memory_limit: Option<usize>,
    /// Output format; times are shown in the table only, so JSON and CSV are reproducible.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Also draw the positions and the won positions by ply (log scale) as an SVG figure
    /// into this file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// With --values: save the solution into this directory, each ply's diagrams as soon as
    /// they are done (the open positions going forward, the won and lost ones going back),
    /// with a manifest. A directory holding a solution already is refused.
    #[arg(
        long,
        value_name = "DIR",
        requires = "values",
        conflicts_with = "resume"
    )]
    pub save: Option<PathBuf>,
    /// With --values: go on with the solution saved in this directory by a run that stopped,
    /// reading back the plies it saved; the files end as those of a run never stopped.
    #[arg(long, value_name = "DIR", requires = "values")]
    pub resume: Option<PathBuf>,
    /// With --values: solve each ply piece by piece, by the heights of its first N columns,
    /// so that only a piece and the pieces of the next ply it reaches are in memory (default:
    /// 0 below 25 cells, 2 from 25 on). A resume keeps the number its solution was saved with.
    #[arg(long, value_name = "N", requires = "values",
          value_parser = super::number::<u32>(0, Some(64)))]
    pub split: Option<u32>,
}

/// The board and the search's resources, shared by `explain` and `score`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// Columns of the board (moves are single digits, so at most 9).
    #[arg(long, value_name = "W", default_value_t = 7,
          value_parser = clap::value_parser!(u32).range(1..=9))]
    pub cols: u32,
    /// Rows of the board (columns × (rows + 1) must be at most 64).
    #[arg(long, value_name = "H", default_value_t = 6,
          value_parser = clap::value_parser!(u32).range(1..=63))]
    pub rows: u32,
    /// Memory for the transposition table, in MiB, shared among the threads (plus 1 MiB for
    /// the positions near the end of the game).
    #[arg(long, value_name = "MIB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub table: u64,
    /// Search threads (default: one per core): `score` shares its lines among them (a single
    /// line gets them all), `explain` its columns.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// A strong solution of the board saved by `fourow count --method bdd --values --save
    /// DIR`: the win, draw or loss of every position then comes from its diagrams, and the
    /// search only finds the exact score, on that side of 0. Without it, a solution saved in
    /// the default place (README, "Who wins") is used when there is one.
    #[arg(long, value_name = "DIR")]
    pub solution: Option<PathBuf>,
}

impl SearchArgs {
    fn shape(&self) -> anyhow::Result<perfect::Shape> {
        Ok(perfect::Shape::new(self.cols, self.rows)?)
    }

    /// The strong solution named by `--solution`, or the one in the default place.
    fn solution(&self) -> anyhow::Result<Option<saved::Saved>> {
        let layout = tomek::fourow::bdd::encoding::Layout {
            cols: self.cols,
            rows: self.rows,
        };
        Ok(saved::find(self.solution.as_deref(), layout)?)
    }

    fn threads(&self) -> usize {
        self.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            usize::from,
        )
    }

    /// The table's bytes, once the system has shown it could give them: one it could never
    /// back (more than its memory and swap) is an error here rather than an abort later.
    fn table_bytes(&self) -> anyhow::Result<usize> {
        let bytes = usize::try_from(self.table << 20).unwrap_or(usize::MAX);
        if perfect::table::Table::try_new(bytes).is_err() {
            anyhow::bail!(
                "--table {}: the system cannot give {} MiB for the transposition table",
                self.table,
                self.table
            );
        }
        Ok(bytes)
    }
}

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The moves played so far, as 1-based column digits (`4453`); empty for the empty board.
    pub moves: String,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Output format (CSV holds the table of columns).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// With a solution: only the win, draw or loss of the position and of each column, from
    /// the solution's diagrams, with no search (no score, distance or line of play).
    #[arg(long)]
    pub no_search: bool,
}

#[derive(clap::Args, Debug)]
pub struct ScoreArgs {
    /// The positions; `-` or absent for standard input.
    #[arg(conflicts_with = "random")]
    pub input: Option<PathBuf>,
    /// Score N positions of random play instead of reading them (a test set in the same
    /// format, reproducible with --seed).
    #[arg(long, value_name = "N")]
    pub random: Option<usize>,
    /// With --random: the number of chips, one number or a range LO-HI (each position
    /// draws its own).
    #[arg(
        long,
        value_name = "LO-HI",
        default_value = "14-28",
        requires = "random"
    )]
    pub stones: String,
    /// With --random: the seed of the random moves.
    #[arg(long, value_name = "S", default_value_t = 0, requires = "random")]
    pub seed: u64,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Also print the positions searched and the microseconds taken for each line.
    #[arg(long)]
    pub timing: bool,
}

/// How `fourow count` counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CountMethod {
    /// Every move from every position, deduplicated per ply in hash tables.
    Memo,
    /// First-parent edges only: no table, each position generated once (7×6 only).
    Tree,
    /// Symbolic: each ply's positions as one binary decision diagram.
    Bdd,
}

/// 85% of the machine's memory: room for the diagrams with a margin for everything else
/// (4 GiB when the system does not say how much it has).
fn default_memory_limit() -> usize {
    physical_memory().map_or(4 << 30, |bytes| bytes / 20 * 17)
}

/// The machine's physical memory in bytes, as the system reports it.
#[cfg(unix)]
fn physical_memory() -> Option<usize> {
    // SAFETY: sysconf only reads system configuration; it has no preconditions.
    let (pages, page) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    (pages > 0 && page > 0).then(|| (pages as usize).saturating_mul(page as usize))
}

/// The machine's physical memory in bytes, as the system reports it.
#[cfg(windows)]
fn physical_memory() -> Option<usize> {
    use windows_sys::Win32::System::SystemInformation::{GlobalMemoryStatusEx, MEMORYSTATUSEX};
    // SAFETY: MEMORYSTATUSEX is plain data, for which all zero bytes is a valid value.
    let mut status: MEMORYSTATUSEX = unsafe { std::mem::zeroed() };
    status.dwLength = std::mem::size_of::<MEMORYSTATUSEX>() as u32;
    // SAFETY: `status` is a valid, writable MEMORYSTATUSEX with its length set, as the call
    // requires; the call writes only into it.
    let ok = unsafe { GlobalMemoryStatusEx(&mut status) };
    (ok != 0).then(|| usize::try_from(status.ullTotalPhys).unwrap_or(usize::MAX))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Solve(a) => solve(a),
        Command::Generate(a) => generate(a),
        Command::Validate(a) => validate(a),
        Command::Count(a) => count(a),
        Command::Package(a) => super::package::run_fourow(a),
        Command::Explain(a) => explain(a),
        Command::Score(a) => score(a),
    }
}

/// The input at `path` (standard input for `None` or `-`) and the name used in messages.
fn open(path: Option<&Path>) -> anyhow::Result<(Box<dyn std::io::Read>, String)> {
    let path = path.unwrap_or(Path::new("-"));
    super::open_input(path).with_context(|| format!("cannot read {}", path.display()))
}

fn solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let (src, name) = open(args.input.as_deref())?;
    let solved = fourow::solve_from(src, &name).with_context(|| format!("cannot read {name}"))?;
    let answers = match solved {
        Ok(answers) => answers,
        Err(errors) => {
            eprintln!("{errors}");
            return Ok(ExitCode::from(2));
        }
    };
    match &args.output {
        Some(path) => {
            let mut f = AtomicFile::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            f.write_all(answers.as_bytes())?;
            f.commit()
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(answers.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `prefix` with `suffix` appended to its last component: `dir/name` + `.in` = `dir/name.in`.
fn with_suffix(prefix: &Path, suffix: &str) -> PathBuf {
    let mut s = OsString::from(prefix.as_os_str());
    s.push(suffix);
    PathBuf::from(s)
}

fn generate(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.files == 1 || args.output.is_some(),
        "--files {} needs -o PREFIX to name the files",
        args.files
    );
    let files = generate::generate(usize::from(args.games), args.seed, usize::from(args.files))?;
    let Some(prefix) = &args.output else {
        std::io::stdout()
            .lock()
            .write_all(files[0].input.as_bytes())?;
        eprint!("{}", files[0].summary.table().render());
        return Ok(ExitCode::SUCCESS);
    };
    // Everything is generated before anything is written, and the files are replaced all
    // or none, so a failed or interrupted run leaves every old file whole.
    let mut pending = Vec::new();
    let mut report = String::new();
    let mut total = Summary::default();
    for (i, file) in files.iter().enumerate() {
        let stem = if files.len() == 1 {
            prefix.clone()
        } else {
            with_suffix(prefix, &format!("-{}", i + 1))
        };
        let (input, output) = (with_suffix(&stem, ".in"), with_suffix(&stem, ".out"));
        for (path, text) in [(&input, &file.input), (&output, &file.output)] {
            let mut f = AtomicFile::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            f.write_all(text.as_bytes())?;
            pending.push(f);
        }
        report.push_str(&format!(
            "{}, {}: {} games\n",
            input.display(),
            output.display(),
            file.summary.games
        ));
        total.merge(&file.summary);
    }
    tomek::output::commit_all(pending)?;
    out!("{report}{}", total.table().render());
    Ok(ExitCode::SUCCESS)
}

fn validate(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    let (src, name) = open(Some(&args.file))?;
    let read = fourow::input::read(src, &name, Mode::Strict)
        .with_context(|| format!("cannot read {name}"))?;
    match read {
        Ok(games) => {
            outln!("{name}: valid, {} games", games.len());
            out!("{}", fourow::summarize(&games).table().render());
            Ok(ExitCode::SUCCESS)
        }
        Err(errors) => {
            eprintln!("{errors}");
            eprintln!(
                "{name}: invalid ({} problem{})",
                errors.0.len(),
                if errors.0.len() == 1 { "" } else { "s" }
            );
            Ok(ExitCode::from(1))
        }
    }
}

fn count(args: CountArgs) -> anyhow::Result<ExitCode> {
    let cells = args.cols * args.rows;
    let plies = args.plies.unwrap_or(cells);
    anyhow::ensure!(
        plies <= cells,
        "--plies {plies}: a board of {} columns and {} rows has {cells} cells",
        args.cols,
        args.rows
    );
    if args.values {
        anyhow::ensure!(
            args.method == CountMethod::Bdd,
            "--values solves the board with the bdd method only: add --method bdd"
        );
        return count_values(args, plies);
    }
    let seven_by_six = (args.cols, args.rows) == (7, 6);
    let method = match args.method {
        CountMethod::Memo => Method::Memo,
        CountMethod::Tree => Method::Tree,
        CountMethod::Bdd => return count_bdd(args, plies),
    };
    anyhow::ensure!(
        seven_by_six || method == Method::Memo,
        "--method tree counts the 7×6 board only; use memo or bdd for {}×{}",
        args.cols,
        args.rows
    );
    let options = Options {
        plies,
        method,
        symmetry: !args.no_symmetry && seven_by_six,
    };
    let shape = Shape {
        cols: args.cols,
        rows: args.rows,
        what: describe(&options),
    };
    if !seven_by_six {
        let plies = fourow::sized::count(args.cols, args.rows, plies, |_| {})?;
        return print_counts(&args, &options, &shape, &plies, None, false);
    }
    // One bar per ply, over the positions of the ply before; finished plies are printed
    // above it. Nothing is drawn off a terminal or with --quiet.
    let bar: Mutex<Option<(u32, indicatif::ProgressBar)>> = Mutex::new(None);
    let plies = count::count(
        options,
        |ply, done, total| {
            let mut bar = bar.lock().expect("progress bar lock");
            if bar.as_ref().is_none_or(|(p, _)| *p != ply) {
                let b = super::progress::bar(total as u64, &format!("ply {ply}"));
                if let Some((_, old)) = bar.replace((ply, b)) {
                    old.finish_and_clear();
                }
            }
            if let Some((_, b)) = bar.as_ref() {
                b.set_position(done as u64);
            }
        },
        |row| {
            if let Some((_, b)) = bar.lock().expect("progress bar lock").as_ref() {
                b.println(format!(
                    "ply {}: {} positions in {:.3} s",
                    row.ply,
                    grouped(u128::from(row.positions())),
                    row.elapsed.as_secs_f64()
                ));
            }
        },
    );
    if let Some((_, b)) = bar.lock().expect("progress bar lock").take() {
        b.finish_and_clear();
    }
    print_counts(&args, &options, &shape, &plies, None, false)
}

/// The board and the method, for the table's title.
struct Shape {
    cols: u32,
    rows: u32,
    what: String,
}

/// `fourow count --method bdd`: the counts of every ply finished, printed even when the
/// memory limit stops the count early (then with the reason on stderr and exit code 1).
fn count_bdd(args: CountArgs, plies: u32) -> anyhow::Result<ExitCode> {
    let settings = Settings {
        cols: args.cols,
        rows: args.rows,
        plies,
        memory_limit: args.memory_limit.unwrap_or_else(default_memory_limit),
    };
    let options = Options {
        plies,
        method: Method::Memo,
        symmetry: false,
    };
    let shape = Shape {
        cols: args.cols,
        rows: args.rows,
        what: format!(
            "bdd method, memory limit {} MiB",
            grouped((settings.memory_limit >> 20) as u128)
        ),
    };
    // A whole game takes many minutes: CSV rows go out as their plies finish (standard output
    // is line-buffered, so each line is written whole at once), so that output
    // piped into a file keeps every finished ply whatever happens later. A failed write (the
    // reader went away) ends the count; the error is returned once the bars are cleared.
    let stream = args.format == Format::Csv;
    let mut written = if stream {
        super::write_stdout(format_args!("{}", csv_line(&count_header(false))))
    } else {
        Ok(())
    };
    // One spinner per ply showing the size of the store; finished plies are printed above.
    let bar: Mutex<Option<(u32, indicatif::ProgressBar)>> = Mutex::new(None);
    let result = bdd::count(
        settings,
        |p| {
            let mut bar = bar.lock().unwrap_or_else(PoisonError::into_inner);
            if bar.as_ref().is_none_or(|(ply, _)| *ply != p.ply) {
                let b = super::progress::status(&format!("ply {}", p.ply));
                if let Some((_, old)) = bar.replace((p.ply, b)) {
                    old.finish_and_clear();
                }
            }
            if let Some((_, b)) = bar.as_ref() {
                b.set_message(format!(
                    "{} nodes, {} MiB in the store",
                    grouped(p.nodes as u128),
                    grouped((p.bytes >> 20) as u128)
                ));
            }
        },
        |row, cost| {
            if let Some((_, b)) = bar.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
                b.println(format!(
                    "ply {}: {} positions in {:.3} s, {} nodes, {} MiB",
                    row.ply,
                    grouped(u128::from(row.positions())),
                    row.elapsed.as_secs_f64(),
                    grouped(cost.nodes as u128),
                    grouped((cost.peak_bytes >> 20) as u128)
                ));
            }
            if stream && written.is_ok() {
                written = super::write_stdout(format_args!("{}", csv_line(&ply_cells(row, false))));
            }
            match written {
                Ok(()) => ControlFlow::Continue(()),
                Err(_) => ControlFlow::Break(()),
            }
        },
    );
    if let Some((_, b)) = bar.into_inner().unwrap_or_else(PoisonError::into_inner) {
        b.finish_and_clear();
    }
    written.context("writing the counts")?;
    let (done, stopped) = match result {
        Ok(done) => (done, None),
        Err(bdd::Stopped {
            error: error @ bdd::Error::MemoryLimit { .. },
            plies,
        }) => (plies, Some(error)),
        Err(e) => return Err(e.into()),
    };
    let plies: Vec<Ply> = done.iter().map(|(p, _)| p.clone()).collect();
    let costs: Vec<bdd::Cost> = done.iter().map(|(_, c)| *c).collect();
    print_counts(&args, &options, &shape, &plies, Some(&costs), stream)?;
    match stopped {
        None => Ok(ExitCode::SUCCESS),
        Some(error) => {
            match plies.len() {
                0 => eprintln!("tomek: counting stopped: {error}; no ply was finished"),
                n => eprintln!(
                    "tomek: counting stopped: {error}; plies 0 to {} are above",
                    n - 1
                ),
            }
            Ok(ExitCode::from(1))
        }
    }
}

/// `fourow count --method bdd --values`: the strong solution, printed once the backward pass
/// is over (it starts from the last ply, so no ply is known before).
fn count_values(args: CountArgs, plies: u32) -> anyhow::Result<ExitCode> {
    let memory_limit = args.memory_limit.unwrap_or_else(default_memory_limit);
    // One spinner per ply and pass showing the size of the store.
    let bar: Mutex<Option<((bool, u32), indicatif::ProgressBar)>> = Mutex::new(None);
    let disk = match (&args.save, &args.resume) {
        (Some(dir), _) => Some(values::Disk { dir, resume: false }),
        (_, Some(dir)) => Some(values::Disk { dir, resume: true }),
        _ => None,
    };
    let show = |backward: bool, p: bdd::Progress| {
        let mut bar = bar.lock().unwrap_or_else(PoisonError::into_inner);
        let key = (backward, p.ply);
        if bar.as_ref().is_none_or(|(k, _)| *k != key) {
            let pass = if backward { "back" } else { "forth" };
            let b = super::progress::status(&format!("ply {} {pass}", p.ply));
            if let Some((_, old)) = bar.replace((key, b)) {
                old.finish_and_clear();
            }
        }
        if let Some((_, b)) = bar.as_ref() {
            b.set_message(format!(
                "{} nodes, {} MiB in the store",
                grouped(p.nodes as u128),
                grouped((p.bytes >> 20) as u128)
            ));
        }
    };
    let settings = values::Settings {
        cols: args.cols,
        rows: args.rows,
        memory_limit,
        split: args.split,
    };
    let result = values::solve_with(settings, &[], disk, show);
    if let Some((_, b)) = bar.into_inner().unwrap_or_else(PoisonError::into_inner) {
        b.finish_and_clear();
    }
    let solution = result?;
    let shown = &solution.plies[..=plies as usize];
    let rows: Vec<values::Values> = shown.iter().map(|(v, _)| v.clone()).collect();
    if let Some(path) = &args.plot {
        super::plot::write(
            path,
            &super::plot::fourow_values_svg(args.cols, args.rows, &rows)?,
        )?;
    }
    let out = match args.format {
        Format::Table => {
            let title = format!(
                "Four in a row ({} columns, {} rows): positions after each ply by their value \
                 for the side to move (bdd method, memory limit {} MiB)",
                args.cols,
                args.rows,
                grouped((memory_limit >> 20) as u128)
            );
            format!("{title}\n\n{}", values_table(shown).render())
        }
        Format::Csv => values_rows(&rows).csv(),
        Format::Json => values_json(args.cols, args.rows, &rows)?,
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Positions, won, drawn, lost and terminal over all plies.
fn values_total(rows: &[values::Values]) -> [u64; 5] {
    rows.iter().fold([0; 5], |t, v| {
        [
            t[0] + v.positions,
            t[1] + v.won,
            t[2] + v.drawn,
            t[3] + v.lost,
            t[4] + v.terminal,
        ]
    })
}

/// The strong solution as machine-readable cells, with a total row. `terminal` is a part of
/// `lost`, so that won, drawn and lost add up to the positions.
fn values_rows(rows: &[values::Values]) -> Table {
    let mut t = Table::new(vec!["ply", "positions", "won", "drawn", "lost", "terminal"]);
    for v in rows {
        t.push(vec![
            v.ply.to_string(),
            v.positions.to_string(),
            v.won.to_string(),
            v.drawn.to_string(),
            v.lost.to_string(),
            v.terminal.to_string(),
        ]);
    }
    let mut total = vec!["total".to_string()];
    total.extend(values_total(rows).iter().map(u64::to_string));
    t.push(total);
    t
}

/// The human table: thousands grouped, the time of each pass in seconds, the nodes of the
/// open positions' diagram and of the won and lost diagrams, and the most memory the
/// backward pass took on the ply: what each ply costs, for sizing larger boards.
fn values_table(plies: &[(values::Values, bdd::Cost)]) -> Table {
    let mut t = Table::new(vec![
        "ply",
        "positions",
        "won",
        "drawn",
        "lost",
        "terminal",
        "forth (s)",
        "back (s)",
        "open nodes",
        "won+lost nodes",
        "memory (MiB)",
    ]);
    let num = |n: u64| grouped(u128::from(n));
    for (v, c) in plies {
        t.push(vec![
            v.ply.to_string(),
            num(v.positions),
            num(v.won),
            num(v.drawn),
            num(v.lost),
            num(v.terminal),
            seconds(v.forward),
            seconds(v.elapsed.saturating_sub(v.forward)),
            grouped(c.all_nodes as u128),
            grouped(c.nodes as u128),
            grouped((c.peak_bytes >> 20) as u128),
        ]);
    }
    let rows: Vec<values::Values> = plies.iter().map(|(v, _)| v.clone()).collect();
    let [positions, won, drawn, lost, terminal] = values_total(&rows);
    let peak = plies.iter().map(|(_, c)| c.peak_bytes).max().unwrap_or(0);
    let forward: Duration = rows.iter().map(|v| v.forward).sum();
    let elapsed: Duration = rows.iter().map(|v| v.elapsed).sum();
    t.push(vec![
        "total".to_string(),
        num(positions),
        num(won),
        num(drawn),
        num(lost),
        num(terminal),
        seconds(forward),
        seconds(elapsed.saturating_sub(forward)),
        String::new(),
        String::new(),
        grouped((peak >> 20) as u128),
    ]);
    t
}

fn values_json(cols: u32, rows: u32, plies: &[values::Values]) -> anyhow::Result<String> {
    let list: Vec<serde_json::Value> = plies
        .iter()
        .map(|v| {
            serde_json::json!({
                "ply": v.ply,
                "positions": v.positions,
                "won": v.won,
                "drawn": v.drawn,
                "lost": v.lost,
                "terminal": v.terminal,
            })
        })
        .collect();
    let [positions, won, drawn, lost, terminal] = values_total(plies);
    let doc = serde_json::json!({
        "method": "bdd",
        "values": "for the side to move",
        "terminal": "the lost positions where the previous move made a four, counted in lost",
        "columns": cols,
        "rows": rows,
        "plies": list,
        "total": {
            "positions": positions,
            "won": won,
            "drawn": drawn,
            "lost": lost,
            "terminal": terminal,
        },
    });
    Ok(serde_json::to_string_pretty(&doc)? + "\n")
}

/// Prints the counts in the chosen format (and draws the plot when asked); `costs` (bdd only)
/// adds the diagram sizes. With `streamed`, the CSV header and the plies are out already and
/// only the total row is left.
fn print_counts(
    args: &CountArgs,
    options: &Options,
    shape: &Shape,
    plies: &[Ply],
    costs: Option<&[bdd::Cost]>,
    streamed: bool,
) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.plot {
        super::plot::write(path, &super::plot::fourow_svg(plies)?)?;
    }
    let out = match args.format {
        Format::Table => count_table(shape, plies, costs),
        Format::Csv if streamed => csv_line(&total_cells(plies, false)),
        Format::Csv => count_rows(plies, false).csv(),
        Format::Json => count_json(options, shape, plies, costs)?,
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The per-ply counts and a total row, as machine-readable cells (with the time in seconds
/// when `timed`).
fn count_rows(plies: &[Ply], timed: bool) -> Table {
    let mut t = Table::new(count_header(timed));
    t.rows.extend(plies.iter().map(|p| ply_cells(p, timed)));
    t.rows.push(total_cells(plies, timed));
    t
}

fn count_header(timed: bool) -> Vec<&'static str> {
    let mut header = vec![
        "ply",
        "positions",
        "first_player_won",
        "second_player_won",
        "draws",
        "open",
    ];
    if timed {
        header.push("time_s");
    }
    header
}

fn seconds(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

fn ply_cells(p: &Ply, timed: bool) -> Vec<String> {
    let mut row = vec![p.ply.to_string()];
    row.extend([p.positions(), p.x_won, p.o_won, p.draw, p.open].map(|n| n.to_string()));
    if timed {
        row.push(seconds(p.elapsed));
    }
    row
}

fn total_cells(plies: &[Ply], timed: bool) -> Vec<String> {
    let mut row = vec!["total".to_string()];
    row.extend(count_total(plies).iter().map(u64::to_string));
    if timed {
        row.push(seconds(plies.iter().map(|p| p.elapsed).sum()));
    }
    row
}

/// Positions, first-player wins, second-player wins, draws and open positions over all plies.
fn count_total(plies: &[Ply]) -> [u64; 5] {
    let mut total = [0u64; 5];
    for p in plies {
        for (t, n) in total
            .iter_mut()
            .zip([p.positions(), p.x_won, p.o_won, p.draw, p.open])
        {
            *t += n;
        }
    }
    total
}

fn describe(options: &Options) -> String {
    format!(
        "{} method, {}",
        match options.method {
            Method::Memo => "memo",
            Method::Tree => "tree",
        },
        if options.symmetry {
            "mirror images walked once"
        } else {
            "no symmetry"
        }
    )
}

/// The human table: words in the header, thousands grouped, times in seconds; with `costs`,
/// the nodes of each ply's diagram of open positions and the most memory the ply took.
fn count_table(shape: &Shape, plies: &[Ply], costs: Option<&[bdd::Cost]>) -> String {
    let rows = count_rows(plies, true);
    let mut header = vec![
        "ply",
        "positions",
        "first player won",
        "second player won",
        "draws",
        "open",
        "time (s)",
    ];
    if costs.is_some() {
        header.extend(["nodes", "memory (MiB)"]);
    }
    let mut t = Table::new(header);
    for (i, row) in rows.rows.iter().enumerate() {
        let mut cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, c)| match c.parse::<u128>() {
                Ok(n) if i > 0 && i < 6 => grouped(n),
                _ => c.clone(),
            })
            .collect();
        if let Some(costs) = costs {
            match costs.get(i) {
                Some(c) => cells.extend([
                    grouped(c.nodes as u128),
                    grouped((c.peak_bytes >> 20) as u128),
                ]),
                None => {
                    let peak = costs.iter().map(|c| c.peak_bytes).max().unwrap_or(0);
                    cells.extend([String::new(), grouped((peak >> 20) as u128)]);
                }
            }
        }
        t.push(cells);
    }
    format!(
        "Four in a row ({} columns, {} rows): distinct positions after each ply ({})\n\n{}",
        shape.cols,
        shape.rows,
        shape.what,
        t.render()
    )
}

fn count_json(
    options: &Options,
    shape: &Shape,
    plies: &[Ply],
    costs: Option<&[bdd::Cost]>,
) -> anyhow::Result<String> {
    let rows: Vec<serde_json::Value> = plies
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut row = serde_json::json!({
                "ply": p.ply,
                "positions": p.positions(),
                "first_player_won": p.x_won,
                "second_player_won": p.o_won,
                "draws": p.draw,
                "open": p.open,
            });
            if let Some(c) = costs.and_then(|c| c.get(i)) {
                row["nodes"] = c.nodes.into();
            }
            row
        })
        .collect();
    let [positions, x, o, draws, open] = count_total(plies);
    let method = match (costs, options.method) {
        (Some(_), _) => "bdd",
        (None, Method::Memo) => "memo",
        (None, Method::Tree) => "tree",
    };
    let doc = serde_json::json!({
        "method": method,
        "symmetry": options.symmetry,
        "columns": shape.cols,
        "rows": shape.rows,
        "plies": rows,
        "total": {
            "positions": positions,
            "first_player_won": x,
            "second_player_won": o,
            "draws": draws,
            "open": open,
        },
    });
    Ok(serde_json::to_string_pretty(&doc)? + "\n")
}

/// The columns 0-based as the 1-based digits of the move notation.
fn digits(cols: &[u32]) -> String {
    cols.iter()
        .filter_map(|&c| char::from_digit(c + 1, 10))
        .collect()
}

/// The board from the top row down, `x` for the first player and `o` for the second, `.` for
/// an empty cell, with the column digits underneath.
fn board_picture(b: Board) -> String {
    let shape = b.shape();
    let first = b.chips(tomek::outcome::Player::X);
    let mut out = String::new();
    for row in (0..shape.rows()).rev() {
        for col in 0..shape.cols() {
            let bit = shape.cell(col, row);
            out.push(match (b.mask() & bit != 0, first & bit != 0) {
                (false, _) => '.',
                (true, true) => 'x',
                (true, false) => 'o',
            });
        }
        out.push('\n');
    }
    out.push_str(&digits(&(0..shape.cols()).collect::<Vec<_>>()));
    out.push('\n');
    out
}

/// "win in 3 plies", "draw in 12 plies", ...
fn in_plies(s: Score, b: Board) -> String {
    let d = s.distance(b.moves(), b.shape().area());
    format!(
        "{} in {d} pl{}",
        s.outcome(),
        if d == 1 { "y" } else { "ies" }
    )
}

fn explain(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let shape = args.search.shape()?;
    let b = perfect::parse_moves(&args.moves, shape)
        .map_err(|e| anyhow::anyhow!("`{}`: {e}", args.moves))?;
    // On the judge's own board the verdict is the judge's.
    let verdict = if shape == perfect::Shape::STANDARD {
        let cols: Vec<u8> = args.moves.bytes().map(|c| c - b'1').collect();
        fourow::judge(&cols).verdict
    } else {
        b.verdict()
    };
    let to_move = match b.to_move() {
        tomek::outcome::Player::X => "first",
        tomek::outcome::Player::O => "second",
    };
    let started = std::time::Instant::now();
    let known = match args.search.solution()? {
        Some(mut solution) => Some(known_outcomes(&mut solution, &args.moves, b)?),
        None if args.no_search => anyhow::bail!(
            "--no-search answers from a strong solution: name one with --solution DIR (none is \
             saved in the default place for this board)"
        ),
        None => None,
    };
    if let (true, Some(known)) = (args.no_search, &known) {
        out!(
            "{}",
            explain_outcomes(&args, b, verdict.sentence(), to_move, known)?
        );
        eprintln!(
            "looked up in the solution in {:.3} s",
            started.elapsed().as_secs_f64()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let table_bytes = args.search.table_bytes()?;
    let bar = super::progress::bar(
        (0..shape.cols()).filter(|&c| b.can_play(c)).count() as u64,
        "columns",
    );
    let column_known = |c: u32| {
        known
            .as_ref()
            .and_then(|k| k.columns.iter().find(|&&(col, _)| col == c))
            .map(|&(_, o)| o)
    };
    let a = perfect::analyze_known(
        b,
        args.search.threads(),
        table_bytes,
        &|_, _| bar.inc(1),
        &column_known,
    );
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    if let Some(k) = &known {
        // The solution and the search are two methods: they must agree.
        let disagree = a
            .moves
            .iter()
            .find(|&&(c, s)| column_known(c).is_some_and(|o| o != s.outcome()));
        anyhow::ensure!(
            disagree.is_none() && k.position.is_none_or(|o| o == a.score.outcome()),
            "the solution and the search disagree on `{}`: the solution's files do not belong \
             to this board",
            args.moves
        );
    }
    let out = match args.format {
        Format::Table => explain_text(&args.moves, b, verdict.sentence(), to_move, &a),
        Format::Csv => explain_columns(b, &a).csv(),
        Format::Json => {
            let doc = serde_json::json!({
                "position": args.moves,
                "columns": shape.cols(),
                "rows": shape.rows(),
                "verdict": verdict.sentence(),
                "to_move": to_move,
                "score": a.score,
                "outcome": a.score.outcome(),
                "distance": a.score.distance(b.moves(), shape.area()),
                "moves": a.moves.iter().map(|&(c, s)| serde_json::json!({
                    "column": c + 1,
                    "score": s,
                    "outcome": s.outcome(),
                    "distance": s.distance(b.moves(), shape.area()),
                })).collect::<Vec<_>>(),
                "variation": digits(&a.variation),
            });
            serde_json::to_string_pretty(&doc)? + "\n"
        }
    };
    out!("{out}");
    eprintln!(
        "searched {} positions in {:.3} s",
        grouped(u128::from(a.nodes)),
        elapsed.as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// What a strong solution says of a position and of each of its legal columns, for the player
/// to move.
struct Known {
    position: Option<perfect::Outcome>,
    columns: Vec<(u32, perfect::Outcome)>,
}

fn known_outcomes(solution: &mut saved::Saved, moves: &str, b: Board) -> anyhow::Result<Known> {
    let cols: Vec<u8> = moves.bytes().map(|c| c - b'1').collect();
    let position = solution.value(&cols)?.map(|v| v.outcome());
    let mut columns = Vec::new();
    if !(b.last_mover_won() || b.is_full()) {
        for c in (0..b.shape().cols()).filter(|&c| b.can_play(c)) {
            let mut next = cols.clone();
            next.push(c as u8);
            // The child's value is for the opponent, who moves there.
            let outcome = match solution.value(&next)?.map(|v| v.outcome()) {
                Some(perfect::Outcome::Win) => perfect::Outcome::Loss,
                Some(perfect::Outcome::Loss) | None => perfect::Outcome::Win,
                Some(perfect::Outcome::Draw) => perfect::Outcome::Draw,
            };
            columns.push((c, outcome));
        }
    }
    Ok(Known { position, columns })
}

/// `explain --no-search`: the outcomes from the solution alone.
fn explain_outcomes(
    args: &ExplainArgs,
    b: Board,
    verdict: &str,
    to_move: &str,
    known: &Known,
) -> anyhow::Result<String> {
    let mut t = Table::new(["column", "outcome"]);
    for &(c, o) in &known.columns {
        t.push([(c + 1).to_string(), o.to_string()]);
    }
    let outcome = known
        .position
        .map_or_else(|| "none".to_string(), |o| o.to_string());
    Ok(match args.format {
        Format::Csv => t.csv(),
        Format::Json => {
            let doc = serde_json::json!({
                "position": args.moves,
                "columns": b.shape().cols(),
                "rows": b.shape().rows(),
                "verdict": verdict,
                "to_move": to_move,
                "outcome": known.position,
                "moves": known.columns.iter().map(|&(c, o)| serde_json::json!({
                    "column": c + 1,
                    "outcome": o,
                })).collect::<Vec<_>>(),
            });
            serde_json::to_string_pretty(&doc)? + "\n"
        }
        Format::Table => format!(
            "Four in a row, {} columns × {} rows, after `{}` ({} moves)\n\n{}\nThe game {verdict}\n\
             The {to_move} player is to move: {outcome} with perfect play (from the \
             solution).\n\n{}",
            b.shape().cols(),
            b.shape().rows(),
            args.moves,
            b.moves(),
            board_picture(b),
            if known.columns.is_empty() {
                String::new()
            } else {
                t.render()
            }
        ),
    })
}

/// The score of every legal column, as a table.
fn explain_columns(b: Board, a: &Analysis) -> Table {
    let mut t = Table::new(["column", "score", "outcome", "distance"]);
    for &(c, s) in &a.moves {
        t.push([
            (c + 1).to_string(),
            s.to_string(),
            s.outcome().to_string(),
            s.distance(b.moves(), b.shape().area()).to_string(),
        ]);
    }
    t
}

fn explain_text(moves: &str, b: Board, verdict: &str, to_move: &str, a: &Analysis) -> String {
    let shape = b.shape();
    let mut out = format!(
        "Four in a row, {} columns × {} rows, after `{moves}` ({} moves)\n\n{}\n",
        shape.cols(),
        shape.rows(),
        b.moves(),
        board_picture(b),
    );
    out.push_str(&format!("The game {verdict}\n"));
    if a.moves.is_empty() {
        out.push_str(&format!(
            "Score {} for the {to_move} player: {} (the game is over)\n",
            a.score,
            a.score.outcome()
        ));
        return out;
    }
    out.push_str(&format!(
        "The {to_move} player is to move.\nScore {}: {}.\n\n{}\nBest play: {}\n",
        a.score,
        in_plies(a.score, b),
        explain_columns(b, a).render(),
        digits(&a.variation)
    ));
    out
}

/// One line of a `score` input.
struct Query {
    line: usize,
    moves: String,
    board: Board,
    expected: Option<Score>,
}

/// The lines of a `score` input; the first malformed one is named with its file and line.
fn read_queries(bytes: &[u8], name: &str, shape: perfect::Shape) -> anyhow::Result<Vec<Query>> {
    let mut queries = Vec::new();
    // An empty line is the empty board; an empty input has no lines at all.
    if bytes.is_empty() {
        return Ok(queries);
    }
    let text = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    for (i, raw) in text.split(|&c| c == b'\n').enumerate() {
        let line = i + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let s = std::str::from_utf8(raw)
            .map_err(|_| anyhow::anyhow!("{name}:{line}: the line is not UTF-8 text"))?;
        let (board, expected) =
            perfect::parse_line(s, shape).map_err(|e| anyhow::anyhow!("{name}:{line}: {e}"))?;
        let moves = s.split(' ').next().unwrap_or("");
        let expected = expected.map(Score);
        queries.push(Query {
            line,
            moves: moves.to_string(),
            board,
            expected,
        });
    }
    Ok(queries)
}

/// `n` random open positions with a number of chips drawn from `stones` (`K` or `LO-HI`).
fn random_queries(
    n: usize,
    stones: &str,
    seed: u64,
    shape: perfect::Shape,
) -> anyhow::Result<Vec<Query>> {
    use rand::{RngExt, SeedableRng};
    let bad = || anyhow::anyhow!("--stones {stones}: expected a number or a range LO-HI");
    let (lo, hi) = match stones.split_once('-') {
        Some((a, b)) => (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?),
        None => {
            let k: u32 = stones.parse().map_err(|_| bad())?;
            (k, k)
        }
    };
    // A full board has nothing left to score.
    anyhow::ensure!(
        lo <= hi && hi < shape.area(),
        "--stones {stones}: between 0 and {} chips on this board",
        shape.area() - 1
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    Ok((0..n)
        .map(|i| {
            let k = rng.random_range(lo..=hi);
            let moves = perfect::random_open_game(shape, k, &mut rng);
            Query {
                line: i + 1,
                board: perfect::parse_moves(&moves, shape).expect("random games are legal"),
                moves,
                expected: None,
            }
        })
        .collect())
}

/// A scored line: the score, the positions searched and the time taken.
type Scored = (Score, u64, Duration);

fn score(args: ScoreArgs) -> anyhow::Result<ExitCode> {
    let shape = args.search.shape()?;
    let (queries, name) = match args.random {
        Some(n) => (
            random_queries(n, &args.stones, args.seed, shape)?,
            String::new(),
        ),
        None => {
            let (mut src, name) = open(args.input.as_deref())?;
            let mut bytes = Vec::new();
            src.read_to_end(&mut bytes)
                .with_context(|| format!("cannot read {name}"))?;
            (read_queries(&bytes, &name, shape)?, name)
        }
    };
    // With a solution, each position's outcome is looked up first and bounds its search.
    let known: Vec<Option<perfect::Outcome>> = match args.search.solution()? {
        Some(mut solution) => queries
            .iter()
            .map(|q| {
                let cols: Vec<u8> = q.moves.bytes().map(|c| c - b'1').collect();
                let v = solution
                    .value(&cols)
                    .with_context(|| format!("{name}:{}: `{}`", q.line, q.moves))?;
                Ok(v.map(|v| v.outcome()))
            })
            .collect::<anyhow::Result<_>>()?,
        None => vec![None; queries.len()],
    };
    let all_threads = args.search.threads().max(1);
    // One position gets every thread at once; more are shared out among the threads.
    let (threads, per_position) = match queries.len() {
        1 => (1, all_threads),
        n => (all_threads.min(n.max(1)), 1),
    };
    // Thread t scores lines t, t + threads, ... in order, each with its own table: the
    // assignment, and so the node counts, depend on the thread count only.
    let per_thread = args.search.table_bytes()? / threads;
    let bar = super::progress::bar(queries.len() as u64, "positions");
    let results: Vec<Vec<Scored>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (queries, bar, known) = (&queries, &bar, &known);
                scope.spawn(move || {
                    let mut solver = Solver::with_threads(per_thread, per_position);
                    // Each line's time is its search's alone, not the table's first touch.
                    solver.back_table();
                    queries
                        .iter()
                        .zip(known)
                        .skip(t)
                        .step_by(threads)
                        .map(|(q, &k)| {
                            let (before, started) = (solver.nodes(), std::time::Instant::now());
                            let s = solver.solve_known(q.board, k);
                            let took = started.elapsed();
                            bar.inc(1);
                            (s, solver.nodes() - before, took)
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread panicked"))
            .collect()
    });
    bar.finish_and_clear();
    let mut out = String::new();
    let (mut mismatches, mut nodes, mut time) = (0usize, 0u64, Duration::ZERO);
    for (i, q) in queries.iter().enumerate() {
        let (s, n, took) = results[i % threads][i / threads];
        nodes += n;
        time += took;
        if args.timing {
            out.push_str(&format!("{} {s} {n} {}\n", q.moves, took.as_micros()));
        } else {
            out.push_str(&format!("{} {s}\n", q.moves));
        }
        if let Some(e) = q.expected.filter(|&e| e != s) {
            mismatches += 1;
            eprintln!("{name}:{}: `{}` scores {s}, expected {e}", q.line, q.moves);
        }
    }
    out!("{out}");
    let count = queries.len().max(1);
    eprintln!(
        "{}, {}, mean {:.1} µs and {} nodes per position ({})",
        tomek::output::plural(queries.len() as u64, "position", "positions"),
        tomek::output::plural(mismatches as u64, "mismatch", "mismatches"),
        time.as_secs_f64() * 1e6 / count as f64,
        grouped(u128::from(nodes) / count as u128),
        tomek::output::plural((threads * per_position) as u64, "thread", "threads"),
    );
    Ok(if mismatches > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
