//! `tomek package` and `tomek fourow package`: a whole problem as a problem package (Kattis
//! legacy, ICPC 2025-09, Polygon or DOMjudge), as a directory and optionally a ZIP archive.

use anyhow::Context;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tomek::output::AtomicFile;
use tomek::package::format::{Problem, Verdict};
use tomek::package::{self, Format};

/// Where and how to write a package.
#[derive(clap::Args, Debug)]
pub struct Target {
    /// The package directory to write (its name should be lower-case letters and digits,
    /// as Kattis asks).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// The package format.
    #[arg(long, value_enum, default_value_t = package::Format::Legacy)]
    pub format: package::Format,
    /// Also write DIR.zip, the package's files at the archive's root (always written for
    /// domjudge).
    #[arg(long)]
    pub zip: bool,
    /// Replace an existing package (a directory holding problem.yaml) and DIR.zip.
    #[arg(long)]
    pub force: bool,
}

impl Target {
    /// Whether DIR.zip is written.
    fn wants_zip(&self) -> bool {
        self.zip || self.format.is_zip()
    }
}

/// `tomek package`: Tic-Tac-Toe-Tomek.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub target: Target,
    /// Seed of every generated set: the same arguments give the same bytes.
    #[arg(long, default_value_t = tomek::tictactoe::sample::DEFAULT_SEED)]
    pub seed: u64,
    /// Cases in the big uniform file (1 to 1,000,000, the statement's bound).
    #[arg(long, value_name = "N", default_value_t = package::tictactoe::DEFAULT_LARGE_CASES,
          value_parser = super::number::<u64>(1, Some(package::tictactoe::MAX_CASES)))]
    pub large_cases: u64,
    /// Package another problem of the family: its data drawn within its datasets' bounds, its
    /// validator and solutions generated from its description (every format; --large-cases is
    /// Code Jam's alone).
    #[command(flatten)]
    pub problem: super::problem::ProblemArg,
}

/// `tomek fourow package`: Four in a row.
#[derive(clap::Args, Debug)]
pub struct FourowArgs {
    #[command(flatten)]
    pub target: Target,
    /// Seed of every generated set: the same arguments give the same bytes.
    #[arg(long, default_value_t = tomek::fourow::generate::DEFAULT_SEED)]
    pub seed: u64,
    /// Games in the mixed file (t < 100).
    #[arg(long, value_name = "N", default_value_t = 99,
          value_parser = super::number::<u16>(1, Some(99)))]
    pub games: u16,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(p) = args.problem.family()? {
        // The family's files take their sizes from the datasets' bounds.
        if args.large_cases != package::tictactoe::DEFAULT_LARGE_CASES {
            anyhow::bail!(
                "--large-cases sizes Code Jam's package; with --problem the files follow the \
                 datasets' bounds"
            );
        }
        check_target(&args.target)?;
        let pb = super::progress::status("package");
        let problem = package::family::problem_with(&p, args.seed, &mut |what| {
            pb.set_message(format!("{}: {what}", p.name));
        });
        pb.finish_and_clear();
        return write(&problem?, &args.target);
    }
    check_target(&args.target)?;
    let options = package::tictactoe::Options {
        seed: args.seed,
        large_cases: args.large_cases,
    };
    let pb = super::progress::status("package");
    pb.set_message("Tic-Tac-Toe-Tomek: every test file, solution and wrong solution");
    let problem = package::tictactoe::problem(&options);
    pb.finish_and_clear();
    write(&problem?, &args.target)
}

pub fn run_fourow(args: FourowArgs) -> anyhow::Result<ExitCode> {
    check_target(&args.target)?;
    let options = package::fourow::Options {
        seed: args.seed,
        games: usize::from(args.games),
    };
    let pb = super::progress::status("package");
    pb.set_message("four in a row: every test file, solution and wrong solution");
    let problem = package::fourow::problem(&options);
    pb.finish_and_clear();
    write(&problem?, &args.target)
}

/// `DIR.zip` beside `DIR`.
fn zip_path(dir: &Path) -> PathBuf {
    let mut s = dir.as_os_str().to_owned();
    s.push(".zip");
    PathBuf::from(s)
}

/// Refuses a target that cannot take the package before any work is done (the directory is
/// checked again when written).
fn check_target(t: &Target) -> anyhow::Result<()> {
    package::check_dir(&t.output, t.force)?;
    let zip = zip_path(&t.output);
    if t.wants_zip() && !t.force && zip.exists() {
        anyhow::bail!("{} exists; use --force to replace it", zip.display());
    }
    Ok(())
}

fn write(problem: &Problem, t: &Target) -> anyhow::Result<ExitCode> {
    let p = &problem.render(t.format);
    // The archive's temporary file is opened first, so that an unwritable place fails before
    // the directory is written; it replaces DIR.zip only once the directory is in place.
    let zip = if t.wants_zip() {
        let path = zip_path(&t.output);
        let mut f = AtomicFile::create(&path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        f.write_all(&p.zip()?)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Some((f, path))
    } else {
        None
    };
    p.write_dir(&t.output, t.force)?;
    let mut report = format!(
        "{}: {} files, {} bytes",
        t.output.display(),
        p.files.len(),
        p.files.values().map(Vec::len).sum::<usize>()
    );
    if let Some((f, path)) = zip {
        f.commit()
            .with_context(|| format!("cannot write {}", path.display()))?;
        report.push_str(&format!("; {}", path.display()));
    }
    outln!("{report}");
    let submissions = |v: Verdict| {
        problem
            .submissions
            .iter()
            .filter(|s| s.verdict == v)
            .count()
    };
    let invalid = match t.format {
        Format::V2025_09 | Format::Polygon => problem.invalid_inputs.len(),
        Format::Legacy | Format::Domjudge => 0,
    };
    let independent = match t.format {
        Format::Domjudge => problem.independent.len(),
        _ => 0,
    };
    let rows: [(&str, usize); 5] = [
        ("test files", problem.cases.len()),
        ("invalid input", invalid),
        ("accepted", submissions(Verdict::Accepted)),
        ("wrong_answer", submissions(Verdict::WrongAnswer)),
        (package::format::INDEPENDENT_DIR, independent),
    ];
    for (kind, n) in rows {
        if n > 0 {
            outln!("  {kind:<13} {n}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
