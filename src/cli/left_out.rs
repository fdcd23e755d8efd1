//! Commands whose cargo feature this build leaves out: `tomek query` and `tomek export` (the
//! SQL engine, feature `sql`) and `tomek serve` (the web server, feature `web`). They stay
//! listed in `--help` so that users find them, take any arguments, and say in one line how to
//! get a build that runs them, with exit code 2.

use std::process::ExitCode;

/// The arguments of a command left out of this build, and the help text that says how to get
/// it (a macro, so that the text is put together at compile time).
macro_rules! left_out {
    ($args:ident, $feature:literal, $engine:literal) => {
        /// Whatever the full command takes: this build cannot run it, so nothing is checked.
        #[derive(clap::Args, Debug)]
        #[command(after_help = concat!(
                            "This build of tomek has no ", $engine,
                            ". Build one that has it, from a clone of tomek, with:\n    ",
                            "cargo install --path . --features ", $feature,
                        ))]
        pub struct $args {
            /// The arguments of the full command.
            #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
            pub rest: Vec<String>,
        }

        impl $args {
            /// Says that `tomek COMMAND` needs what this build leaves out, and how to build it in.
            pub fn run(self, command: &str) -> anyhow::Result<ExitCode> {
                eprintln!(
                    "tomek: `tomek {command}` needs the {}, which this build leaves out; build \
                     it with:\n    cargo install --path . --features {}",
                    $engine, $feature
                );
                Ok(ExitCode::from(2))
            }
        }
    };
}

#[cfg(not(feature = "sql"))]
left_out!(SqlArgs, "sql", "SQL engine");
#[cfg(not(feature = "web"))]
left_out!(WebArgs, "web", "web server");
