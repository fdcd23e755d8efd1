//! Shell completions and man pages, both made from the same clap definitions as the parser,
//! so they never drift from the commands they describe.

use clap::CommandFactory;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// The folder to write the pages into (created if missing): `tomek.1`, then one page per
    /// subcommand (`tomek-stats.1`, `tomek-fourow-count.1`, ...).
    #[arg(long, default_value = "generated/man")]
    pub dir: PathBuf,
}

/// Prints the completion script for a shell.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut cmd = super::Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "tomek", &mut buf);
    out!("{}", String::from_utf8(buf)?);
    Ok(ExitCode::SUCCESS)
}

/// Writes a man page for the command and for every visible subcommand, each file replaced
/// atomically. Pages carry no date, so a rerun writes the same bytes.
pub fn man(args: ManArgs) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(&args.dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", args.dir.display()))?;
    let mut cmd = super::Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut written = Vec::new();
    write_pages(cmd, &args.dir, &mut written)?;
    for path in written {
        outln!("{}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn write_pages(cmd: clap::Command, dir: &Path, written: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let page = clap_mangen::Man::new(cmd.clone());
    let path = dir.join(page.get_filename());
    let mut bytes = Vec::new();
    page.render(&mut bytes)?;
    tomek::output::write_atomic(&path, &bytes)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    written.push(path);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub.clone(), dir, written)?;
    }
    Ok(())
}
