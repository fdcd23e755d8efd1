//! `tomek enumerate`: the reachable boards, streamed as a file.

use super::{SetupFilter, parse_status};
use anyhow::Context;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use tomek::outcome::Status;
use tomek::output::{AtomicFile, commit_all};
use tomek::tictactoe::enumerate::{self, RecordFormat, Selection};
use tomek::tictactoe::rules::Geometry;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub setup: SetupFilter,
    /// Statuses to keep: x, o, draw, open (comma-separated; all by default).
    #[arg(long, value_delimiter = ',', value_parser = parse_status)]
    pub status: Vec<Status>,
    /// Plies (stones on the board) to keep: `N`, `A-B`, comma-separated; all by default.
    #[arg(long, value_delimiter = ',', value_parser = parse_plies)]
    pub ply: Vec<Vec<u32>>,
    /// Record format.
    #[arg(long, value_enum, default_value_t)]
    pub format: RecordFormat,
    /// Where to write: for `codejam` a prefix (`PREFIX.in` and `PREFIX.out`, the answers),
    /// otherwise a file. Standard output when absent (for `codejam`, the input only).
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub problem: super::problem::ProblemArg,
}

/// Parses `N` or `A-B` into the plies it names.
pub(super) fn parse_plies(s: &str) -> Result<Vec<u32>, String> {
    let num = |v: &str| -> Result<u32, String> {
        let n: u32 = v
            .trim()
            .parse()
            .map_err(|_| format!("`{v}` is not a ply (0-16)"))?;
        if n > 16 {
            return Err(format!("ply {n} is more than 16"));
        }
        Ok(n)
    };
    match s.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (num(a)?, num(b)?);
            if a > b {
                return Err(format!("empty ply range {s}"));
            }
            Ok((a..=b).collect())
        }
        None => Ok(vec![num(s)?]),
    }
}

/// `PREFIX` + `ext`, keeping any dots already in the prefix.
pub(super) fn with_ext(prefix: &Path, ext: &str) -> PathBuf {
    let mut s = prefix.as_os_str().to_owned();
    s.push(ext);
    PathBuf::from(s)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(p) = args.problem.family()? {
        let all = tomek::problem::sample::Profile::All;
        return super::problem::generate(&p, all, None, None, 0, args.output.as_deref());
    }
    let geometry = Arc::new(Geometry::tomek().clone());
    let setups = args.setup.setups(&geometry)?;
    let plies: Vec<u32> = args.ply.iter().flatten().copied().collect();
    let sel = Selection::setups(setups.clone())
        .with_statuses(&args.status)
        .with_plies(&plies);
    let space = super::progress::explore_setups(geometry, &setups);
    let count = sel.count(&space);
    if count == 0 {
        // An empty Code Jam file would be invalid, and an empty stream looks like a bug.
        anyhow::bail!(super::NOTHING_SELECTED);
    }
    let pb = super::progress::bar(count, "boards");
    let tick = |n| pb.inc(n);
    match (&args.output, args.format) {
        (None, format) => {
            let mut out = io::stdout();
            let written = enumerate::write(&space, &sel, format, &mut out, None, tick);
            written.context("cannot write to standard output")?;
        }
        (Some(prefix), RecordFormat::Codejam) => {
            let (inp, ans) = (with_ext(prefix, ".in"), with_ext(prefix, ".out"));
            let mut fi = AtomicFile::create(&inp)
                .with_context(|| format!("cannot create {}", inp.display()))?;
            let mut fa = AtomicFile::create(&ans)
                .with_context(|| format!("cannot create {}", ans.display()))?;
            enumerate::write(
                &space,
                &sel,
                RecordFormat::Codejam,
                &mut fi,
                Some(&mut fa),
                tick,
            )
            .with_context(|| format!("cannot write {}", inp.display()))?;
            commit_all(vec![fi, fa])?;
        }
        (Some(path), format) => {
            let mut f = AtomicFile::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?;
            enumerate::write(&space, &sel, format, &mut f, None, tick)
                .and_then(|_| f.commit())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    pb.finish_and_clear();
    Ok(ExitCode::SUCCESS)
}
