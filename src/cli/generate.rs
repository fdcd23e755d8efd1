//! `tomek generate`: a Code Jam input and its answers, drawn by profile.

use super::SetupFilter;
use anyhow::Context;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use tomek::output::{AtomicFile, commit_all};
use tomek::tictactoe::codejam::AnswerWords;
use tomek::tictactoe::rules::Geometry;
use tomek::tictactoe::sample::{DEFAULT_SEED, Generator, Profile, Spec};
use tomek::tictactoe::validate::Dataset;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// What the cases look like (default: `contest` with --dataset, else `uniform`). `edge`,
    /// `killer` and `exhaustive` have a natural size and ignore --cases and --dataset's count.
    #[arg(long, value_enum)]
    pub profile: Option<Profile>,
    /// Number of cases: any number from 1 up, streamed in flat memory (default 10, or the
    /// dataset's maximum).
    #[arg(long, short = 'n')]
    pub cases: Option<u64>,
    /// A Code Jam dataset: `small` is 10 cases, `large` 1000 (the validator's bounds).
    /// (A problem of the family names its own datasets.)
    #[arg(long, value_name = "NAME")]
    pub dataset: Option<String>,
    /// Seed of the random streams: the same arguments give the same bytes everywhere.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    #[command(flatten)]
    pub setup: SetupFilter,
    /// Write PREFIX.in and PREFIX.out (the answers), each replaced only when complete; for a
    /// problem of one case per file, PREFIX.N.in and PREFIX.N.out for each case N. Without it
    /// the input goes to standard output and no answers are written.
    #[arg(long, short, value_name = "PREFIX")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub problem: super::problem::ProblemArg,
}

/// `PREFIX` + `ext`, keeping any dots already in the prefix.
fn with_ext(prefix: &Path, ext: &str) -> PathBuf {
    let mut s = prefix.as_os_str().to_owned();
    s.push(ext);
    PathBuf::from(s)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let family = args.problem.family()?;
    // A description that differs from Code Jam's in its answer words only is drawn by Code
    // Jam's generator, which writes the answers in its words; but for `exhaustive`, whose
    // file the enumeration writes.
    let words = family.as_ref().map_or(Some(AnswerWords::CODE_JAM), |p| {
        p.code_jam_words()
            .filter(|_| args.profile != Some(Profile::Exhaustive))
    });
    if let (Some(p), None) = (&family, &words) {
        let profile = match args.profile {
            Some(name) => super::problem::profile(name)?,
            None if args.dataset.is_some() => tomek::problem::sample::Profile::Contest,
            None => tomek::problem::sample::Profile::Uniform,
        };
        return super::problem::generate(
            p,
            profile,
            args.cases,
            args.dataset.as_deref(),
            args.seed,
            args.output.as_deref(),
        );
    }
    let dataset: Option<Dataset> = super::validate::codejam_dataset(args.dataset.as_deref())?;
    let geometry = Geometry::tomek();
    let setups = args.setup.setups(geometry)?;
    let cases = match (args.cases, dataset) {
        (Some(n), Some(d)) if !d.bounds().contains(&n) => anyhow::bail!(
            "--cases {n} is outside the {} dataset's bounds ({} to {})",
            d.name(),
            d.bounds().start(),
            d.bounds().end()
        ),
        (Some(0), None) => anyhow::bail!("--cases must be at least 1"),
        (Some(n), _) => n,
        (None, Some(d)) => *d.bounds().end(),
        (None, None) => 10,
    };
    // A dataset is for a contest: its default data catches every catalogued bug and shows
    // every status.
    let profile = args.profile.unwrap_or(if dataset.is_some() {
        Profile::Contest
    } else {
        Profile::Uniform
    });
    let spec = Spec {
        profile,
        cases,
        seed: args.seed,
        setups: setups.clone(),
    };
    let space = spec
        .profile
        .needs_space()
        .then(|| super::progress::explore_setups(Arc::new(geometry.clone()), &setups));
    let words = words.unwrap_or(AnswerWords::CODE_JAM);
    let generator = Generator::new(space.as_ref(), &spec)?
        .answering(&words)
        .context("the exhaustive profile writes Code Jam's answer words only")?;
    if let Some(d) = dataset
        && !d.bounds().contains(&generator.cases())
    {
        anyhow::bail!(
            "the {} profile has {} cases, outside the {} dataset's bounds",
            spec.profile.name(),
            generator.cases(),
            d.name()
        );
    }
    let pb = super::progress::bar(generator.cases(), "cases");
    let tick = |n| pb.inc(n);
    match &args.output {
        None => {
            let mut out = io::stdout();
            generator
                .write(&mut out, None, tick)
                .context("cannot write to standard output")?;
        }
        Some(prefix) => {
            let (inp, ans) = (with_ext(prefix, ".in"), with_ext(prefix, ".out"));
            let mut fi = AtomicFile::create(&inp)
                .with_context(|| format!("cannot create {}", inp.display()))?;
            let mut fa = AtomicFile::create(&ans)
                .with_context(|| format!("cannot create {}", ans.display()))?;
            generator
                .write(&mut fi, Some(&mut fa), tick)
                .with_context(|| format!("cannot write {}", inp.display()))?;
            // Both files or neither: a failure anywhere leaves the old ones as they were.
            commit_all(vec![fi, fa])?;
        }
    }
    pb.finish_and_clear();
    Ok(ExitCode::SUCCESS)
}
