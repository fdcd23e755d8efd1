//! `tomek fourow`: Four in a row (SPOJ FOUROW) inputs: solve them, generate them, validate them.

use anyhow::Context;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tomek::fourow::{self, Mode, Summary, generate};
use tomek::output::AtomicFile;

/// Four in a row (SPOJ FOUROW): solve, generate and validate inputs.
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
          value_parser = clap::value_parser!(u16).range(1..=99))]
    pub games: u16,
    /// Seed of the random generator: the same seed gives the same files on every machine.
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// Number of files.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..))]
    pub files: u16,
}

#[derive(clap::Args, Debug)]
pub struct ValidateArgs {
    /// The input file to check; `-` for standard input.
    pub file: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Solve(a) => solve(a),
        Command::Generate(a) => generate(a),
        Command::Validate(a) => validate(a),
    }
}

/// The bytes of `path` (standard input for `None` or `-`) and the name used in messages.
fn read_input(path: Option<&Path>) -> anyhow::Result<(Vec<u8>, String)> {
    let mut bytes = Vec::new();
    match path {
        Some(p) if p.as_os_str() != "-" => {
            bytes = std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?;
            Ok((bytes, p.display().to_string()))
        }
        _ => {
            std::io::stdin()
                .read_to_end(&mut bytes)
                .context("cannot read standard input")?;
            Ok((bytes, "<stdin>".to_string()))
        }
    }
}

fn solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let (bytes, name) = read_input(args.input.as_deref())?;
    let answers = match fourow::solve(&bytes, &name) {
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
    if let Some(dir) = prefix.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    // Everything is generated before anything is written, and each file is replaced
    // atomically, so an interrupted run leaves every old file whole.
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
    for f in pending {
        let target = f.target().display().to_string();
        f.commit()
            .with_context(|| format!("cannot write {target}"))?;
    }
    print!("{report}{}", total.table().render());
    Ok(ExitCode::SUCCESS)
}

fn validate(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    let (bytes, name) = read_input(Some(&args.file))?;
    match fourow::input::parse(&bytes, &name, Mode::Strict) {
        Ok(games) => {
            println!("{name}: valid, {} games", games.len());
            print!("{}", fourow::summarize(&games).table().render());
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
