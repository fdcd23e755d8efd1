//! `tomek solve`: answers a Code Jam input, one `Case #x: status` line per case.

use super::problem::Served;
use anyhow::Context;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use tomek::output::AtomicFile;
use tomek::tictactoe::codejam::{self, AnswerWriter, CaseReader, SolveError, Strictness};
use tomek::tictactoe::eval::EvaluatorKind;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The Code Jam input; `-` or absent for standard input.
    pub input: Option<PathBuf>,
    /// How to tell the status of a board (all four give the same answers).
    #[arg(long, short, value_enum, default_value_t)]
    pub evaluator: EvaluatorKind,
    /// Write the answers to FILE, replaced only once the whole input has been answered.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub problem: super::problem::ProblemArg,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let words = match args.problem.served()? {
        Served::Family(p) => {
            return super::problem::solve(&p, args.input.as_deref(), args.output.as_deref());
        }
        Served::CodeJam(words) => words,
    };
    let (src, name): (Box<dyn Read>, String) = match &args.input {
        Some(p) if p.as_os_str() != "-" => (
            Box::new(File::open(p).with_context(|| format!("cannot open {}", p.display()))?),
            p.display().to_string(),
        ),
        _ => (Box::new(io::stdin().lock()), "<stdin>".to_string()),
    };
    // The input is parsed leniently: answering is useful even for slightly untidy files, and
    // every board is still checked in full.
    let mut input = CaseReader::new(src, name, Strictness::Lenient);
    let outcome = match &args.output {
        Some(path) => {
            let file = AtomicFile::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?;
            let mut out = AnswerWriter::new(file).answering(&words);
            codejam::solve(&mut input, args.evaluator, &mut out)
                .and_then(|_| Ok(out.finish()?.commit()?))
        }
        None => {
            // The answers before a malformed case are printed too, then the error.
            let mut out = AnswerWriter::new(io::stdout().lock()).answering(&words);
            let solved = codejam::solve(&mut input, args.evaluator, &mut out);
            let flushed = out.flush();
            solved.and_then(|_| Ok(flushed?))
        }
    };
    match outcome {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(SolveError::Input(e)) => {
            // Printed bare, `FILE:LINE: case N: ...`, so editors can jump to it.
            let _ = writeln!(io::stderr(), "{e}");
            Ok(ExitCode::from(2))
        }
        Err(e) => Err(e.into()),
    }
}
