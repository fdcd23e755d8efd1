//! `tomek query` and `tomek export` in a build without the SQL engine (feature `sql`). The
//! commands stay listed in `--help` so that users find them, take any arguments, and say in
//! one line how to get a build that runs them, with exit code 2.

use std::process::ExitCode;

/// The one command that builds and installs tomek with the SQL engine, from a clone (a macro,
/// so that the help text below can be put together at compile time).
macro_rules! install {
    () => {
        "cargo install --path . --features sql"
    };
}

/// Whatever the full command takes: this build cannot run it, so nothing is checked.
#[derive(clap::Args, Debug)]
#[command(after_help = concat!(
    "This build of tomek has no SQL engine. Build one that has it, from a clone of tomek, with:\n    ",
    install!(),
))]
pub struct Args {
    /// The arguments of the full command.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    pub rest: Vec<String>,
}

/// Says that `tomek COMMAND` needs the SQL engine, and how to build it in.
pub fn run(command: &str, _: Args) -> anyhow::Result<ExitCode> {
    eprintln!(
        "tomek: `tomek {command}` needs the SQL engine, which this build leaves out; build it \
         with:\n    {}",
        install!()
    );
    Ok(ExitCode::from(2))
}
