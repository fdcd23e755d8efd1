//! The `tomek` command: parses arguments, hands each subcommand to the library, and owns the
//! exit policy: 0 on success, what the subcommand says (1 for a failed check), 2 for an error
//! (printed once, here), and 0 when standard output was closed by its reader.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    cli::progress::init(args.quiet);
    // Ctrl-C and `kill` remove the temporary files of unfinished writes before the exit.
    tomek::interrupt::install();
    match cli::run(args.command) {
        Ok(code) => code,
        Err(e) if cli::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tomek: {e:#}");
            ExitCode::from(2)
        }
    }
}
