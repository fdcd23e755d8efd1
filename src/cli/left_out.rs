//! Commands whose cargo feature this build leaves out: `tomek query` and `tomek export` (the
//! SQL engine, feature `sql`) and `tomek serve` (the web server, feature `web`). They stay
//! listed in `--help` so that users find them, take any arguments, and say in one line how to
//! get a build that runs them, with exit code 2.

use std::process::ExitCode;

/// `query` and `export` without the SQL engine: whatever the full commands take, unchecked.
#[cfg(not(feature = "sql"))]
#[derive(clap::Args, Debug)]
#[command(
    after_help = "This build of tomek has no SQL engine. Build one that has it, from a \
                        clone of tomek, with:\n    cargo install --path . --features sql"
)]
pub struct SqlArgs {
    /// The arguments of the full command.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    pub rest: Vec<String>,
}

#[cfg(not(feature = "sql"))]
impl SqlArgs {
    /// Says that `tomek COMMAND` needs the SQL engine, and how to build it in.
    pub fn run(self, command: &str) -> anyhow::Result<ExitCode> {
        left_out(command, "SQL engine", "sql")
    }
}

/// `serve` without the web server: whatever the full command takes, unchecked.
#[cfg(not(feature = "web"))]
#[derive(clap::Args, Debug)]
#[command(
    after_help = "This build of tomek has no web server. Build one that has it, from a \
                        clone of tomek, with:\n    cargo install --path . --features web"
)]
pub struct WebArgs {
    /// The arguments of the full command.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    pub rest: Vec<String>,
}

#[cfg(not(feature = "web"))]
impl WebArgs {
    /// Says that `tomek serve` needs the web server, and how to build it in.
    pub fn run(self, command: &str) -> anyhow::Result<ExitCode> {
        left_out(command, "web server", "web")
    }
}

/// Says that `tomek COMMAND` needs `what`, which the cargo feature `feature` builds in.
fn left_out(command: &str, what: &str, feature: &str) -> anyhow::Result<ExitCode> {
    eprintln!(
        "tomek: `tomek {command}` needs the {what}, which this build leaves out; build it \
         with:\n    cargo install --path . --features {feature}"
    );
    Ok(ExitCode::from(2))
}
