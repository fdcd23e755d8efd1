//! Command-line arguments, one module per subcommand. Each module parses its flags and calls
//! the library; none holds logic of its own beyond reading inputs and printing results.

mod fourow;
mod solve;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exhaustive state-space analyzer and test-data generator for Tic-Tac-Toe-Tomek (Code Jam
/// 2013, Qualification A) and Four in a row (SPOJ FOUROW).
#[derive(Parser, Debug)]
#[command(name = "tomek", version, about, propagate_version = true)]
pub struct Cli {
    /// Never draw progress bars.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Answer a Code Jam input: one `Case #x: status` line per board.
    Solve(solve::Args),
    Fourow(fourow::Args),
}

/// Runs one subcommand; an `Err` is reported by `main` with exit code 2.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Solve(a) => solve::run(a),
        Command::Fourow(a) => fourow::run(a),
    }
}
