//! `tomek check`: the checker, in the testlib convention (exit 0 accepted, 1 wrong answer,
//! 2 presentation error, 3 checker failure).

use std::path::PathBuf;
use std::process::ExitCode;
use tomek::tictactoe::check::{self, Verdict};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The Code Jam input (`-` for standard input, for one of the three files).
    pub input: PathBuf,
    /// The jury's answers.
    pub answers: PathBuf,
    /// The output to judge.
    pub output: PathBuf,
    #[command(flatten)]
    pub problem: super::problem::ProblemArg,
}

/// Judges and prints the verdict on standard error, as testlib checkers do. Any file that
/// cannot be opened is a checker failure (exit 3): there is nothing to judge.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(p) = args.problem.family()? {
        return super::problem::check(&p, &args.input, &args.answers, &args.output);
    }
    let paths = [&args.input, &args.answers, &args.output];
    let open =
        |p: &PathBuf| super::open_input(p).map_err(|e| format!("cannot open {}: {e}", p.display()));
    let verdict = if paths.iter().filter(|p| p.as_os_str() == "-").count() > 1 {
        Verdict::Fail("only one of the three files can be standard input (`-`)".to_string())
    } else {
        match (open(&args.input), open(&args.answers), open(&args.output)) {
            (Ok((i, ni)), Ok((a, na)), Ok((o, no))) => check::check(i, &ni, a, &na, o, &no),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Verdict::Fail(e),
        }
    };
    eprintln!("{verdict}");
    Ok(ExitCode::from(verdict.code()))
}
