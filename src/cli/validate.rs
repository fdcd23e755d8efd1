//! `tomek validate`: the judge's validator of a Code Jam input, with what the file covers.

use anyhow::Context;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;
use tomek::outcome::Status;
use tomek::output::{Format, Table, grouped};
use tomek::tictactoe::mutants::Mutant;
use tomek::tictactoe::sample::line_name;
use tomek::tictactoe::validate::{self, Coverage, Dataset, Failure};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The input to check; `-` for standard input.
    pub file: PathBuf,
    /// Hold the number of cases to a dataset's bounds (small: 1-10, large: 1-1000; a problem
    /// of the family names its own); without it any count from 1 up is allowed (for the
    /// family, the bounds of some dataset).
    #[arg(long, value_name = "NAME")]
    pub dataset: Option<String>,
    /// List every mutant of the catalogue and the first case that catches it.
    #[arg(long)]
    pub mutants: bool,
    /// Output format of the summary (`csv` is the table of lines won).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    #[command(flatten)]
    pub problem: super::problem::ProblemArg,
}

#[derive(Serialize)]
struct MutantRow {
    mutant: &'static str,
    bug: &'static str,
    first_case: Option<u64>,
}

#[derive(Serialize)]
struct Report<'a> {
    file: String,
    valid: bool,
    dataset: Option<Dataset>,
    #[serde(flatten)]
    coverage: &'a Coverage,
    mutants_total: usize,
    mutants: Vec<MutantRow>,
}

fn mutant_rows(cov: &Coverage) -> Vec<MutantRow> {
    Mutant::ALL
        .iter()
        .zip(&cov.mutants_killed)
        .map(|(m, k)| MutantRow {
            mutant: m.id(),
            bug: m.description(),
            first_case: *k,
        })
        .collect()
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(p) = args.problem.family()? {
        return super::problem::validate(&p, &args.file, args.dataset.as_deref(), args.format);
    }
    let dataset = codejam_dataset(args.dataset.as_deref())?;
    let (file, name) = super::open_input(&args.file)
        .with_context(|| format!("cannot open {}", args.file.display()))?;
    let pb = super::progress::counter("cases");
    let result = validate::validate(file, &name, dataset, |n| pb.inc(n));
    pb.finish_and_clear();
    let cov = match result {
        Ok(c) => c,
        Err(Failure::Invalid(e)) => {
            eprintln!("{e}");
            return Ok(ExitCode::from(1));
        }
        Err(Failure::Unreadable(e)) => anyhow::bail!("{e}"),
    };
    match args.format {
        Format::Json => {
            let report = Report {
                file: name,
                valid: true,
                dataset,
                coverage: &cov,
                mutants_total: Mutant::ALL.len(),
                mutants: mutant_rows(&cov),
            };
            outln!("{}", serde_json::to_string_pretty(&report)?);
        }
        Format::Csv => out!("{}", lines_table(&cov).csv()),
        Format::Table => print_summary(&name, dataset, args.mutants, &cov)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn lines_table(cov: &Coverage) -> Table {
    let mut t = Table::new(["line", "x_won", "o_won"]);
    for k in 0..10 {
        t.push([
            line_name(k),
            cov.lines[0][k].to_string(),
            cov.lines[1][k].to_string(),
        ]);
    }
    t
}

fn print_summary(
    name: &str,
    dataset: Option<Dataset>,
    mutants: bool,
    cov: &Coverage,
) -> std::io::Result<()> {
    let dataset = dataset
        .map(|d| format!(" (within the {} dataset's bounds)", d.name()))
        .unwrap_or_default();
    outln!(
        "{name}: valid, {} cases{dataset}",
        grouped(cov.cases.into())
    );
    let pct = |n: u64| {
        if cov.cases == 0 {
            "0.0%".to_string()
        } else {
            format!("{:.1}%", 100.0 * n as f64 / cov.cases as f64)
        }
    };
    let mut t = Table::new(["status", "cases", "share"]);
    for s in Status::ALL {
        let n = cov.statuses[s];
        t.push([s.answer().to_string(), grouped(n.into()), pct(n)]);
    }
    outln!("\n{}", t.render().trim_end());
    let with_t: u64 = cov.setups[1..].iter().sum();
    let covered = cov.setups.iter().filter(|&&n| n > 0).count();
    outln!(
        "\nsetups: {covered} of 17 present; {} cases without a T, {} with one",
        grouped(cov.setups[0].into()),
        grouped(with_t.into())
    );
    let mut lines = lines_table(cov);
    for row in &mut lines.rows {
        for cell in row.iter_mut().skip(1) {
            *cell = grouped(cell.parse::<u128>().unwrap_or(0));
        }
    }
    let won = (0..2)
        .map(|p| cov.lines[p].iter().filter(|&&n| n > 0).count())
        .collect::<Vec<_>>();
    outln!(
        "\nlines won (X on {} of 10 lines, O on {} of 10):\n{}",
        won[0],
        won[1],
        lines.render().trim_end()
    );
    outln!(
        "\nwins through the T: X {}, O {}; full-board wins: X {}, O {}; wins on two lines: {}",
        grouped(cov.through_t[0].into()),
        grouped(cov.through_t[1].into()),
        grouped(cov.full_board_wins[0].into()),
        grouped(cov.full_board_wins[1].into()),
        grouped(cov.double_wins.into())
    );
    outln!("mutants killed: {} of {}", cov.killed(), Mutant::ALL.len());
    if mutants {
        let mut t = Table::new(["mutant", "killed", "first_case", "bug"]);
        for r in mutant_rows(cov) {
            t.push([
                r.mutant.to_string(),
                if r.first_case.is_some() { "yes" } else { "no" }.to_string(),
                r.first_case.map(|c| c.to_string()).unwrap_or("-".into()),
                r.bug.to_string(),
            ]);
        }
        outln!("\n{}", t.render().trim_end());
    }
    Ok(())
}

/// A Code Jam dataset by name (`small` or `large`).
pub(super) fn codejam_dataset(name: Option<&str>) -> anyhow::Result<Option<Dataset>> {
    use clap::ValueEnum;
    name.map(|n| {
        Dataset::from_str(n, false).map_err(|_| {
            anyhow::anyhow!("--dataset: Code Jam's datasets are small and large, not `{n}`")
        })
    })
    .transpose()
}
