use super::SetupFilter;
use std::process::ExitCode;
use tomek::audit;
use tomek::eval::{Evaluator, EvaluatorKind};
use tomek::output::{Format, Table, grouped};
use tomek::rules::Geometry;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub setup: SetupFilter,
    /// Evaluators to check (comma-separated); all four by default.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub evaluator: Vec<EvaluatorKind>,
    /// How many mismatches to show per evaluator.
    #[arg(long, default_value_t = 5)]
    pub show: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let setups = args.setup.setups(Geometry::tomek())?;
    let kinds = if args.evaluator.is_empty() {
        EvaluatorKind::ALL.to_vec()
    } else {
        args.evaluator
    };
    let evaluators: Vec<&dyn Evaluator> = kinds.iter().map(|k| k.get()).collect();
    let report = audit::audit_evaluators(&setups, &evaluators, args.show);
    let mut table = Table::new(["evaluator", "boards_checked", "mismatches"]);
    for a in &report {
        table.push([
            a.evaluator.clone(),
            a.checked.to_string(),
            a.mismatches.to_string(),
        ]);
    }
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        Format::Csv => print!("{}", table.csv()),
        Format::Table => {
            for row in &mut table.rows {
                for cell in row.iter_mut().skip(1) {
                    *cell = grouped(cell.parse()?);
                }
            }
            print!("{}", table.render());
            for a in report.iter().filter(|a| a.mismatches > 0) {
                println!("\nFirst mismatches of {}:", a.evaluator);
                for m in &a.first {
                    println!(
                        "expected {:?}, got {:?}\n{}",
                        m.expected.answer(),
                        m.got.answer(),
                        m.board
                    );
                }
            }
        }
    }
    let failed = report.iter().any(|a| a.mismatches > 0);
    if args.format == Format::Table && !failed {
        println!("\nEvery evaluator agrees with play on every reachable board.");
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
