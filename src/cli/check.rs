//! `tomek check`: the checker, in the testlib convention (exit 0 accepted, 1 wrong answer,
//! 2 presentation error, 3 checker failure).

use std::fs::File;
use std::path::PathBuf;
use std::process::ExitCode;
use tomek::tictactoe::check::{self, Verdict};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The Code Jam input.
    pub input: PathBuf,
    /// The jury's answers.
    pub answers: PathBuf,
    /// The output to judge.
    pub output: PathBuf,
}

/// Judges and prints the verdict on standard error, as testlib checkers do. Any file that
/// cannot be opened is a checker failure (exit 3): there is nothing to judge.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let open = |p: &PathBuf| File::open(p).map_err(|e| format!("cannot open {}: {e}", p.display()));
    let verdict = match (open(&args.input), open(&args.answers), open(&args.output)) {
        (Ok(i), Ok(a), Ok(o)) => check::check(
            i,
            &args.input.display().to_string(),
            a,
            &args.answers.display().to_string(),
            o,
            &args.output.display().to_string(),
        ),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Verdict::Fail(e),
    };
    eprintln!("{verdict}");
    Ok(ExitCode::from(verdict.code()))
}
