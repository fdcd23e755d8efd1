//! The `tomek` command: parses arguments and hands each subcommand to the library.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    tomek::progress::set_quiet(args.quiet);
    match cli::run(args.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tomek: {e:#}");
            ExitCode::from(2)
        }
    }
}
