use super::problem::ProblemArg;
use super::{GeometryArgs, SetupFilter};
use std::path::PathBuf;
use std::process::ExitCode;
use tomek::output::{Format, Table, grouped};
use tomek::problem::Problem;
use tomek::sql::export::{self, Exported};
use tomek::sql::family::FamilyColumn;
use tomek::tictactoe::table::Column;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The directory to write: one `setup=NAME/boards.parquet` per setup (Hive layout).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Columns to write (comma-separated names from `tomek query --schema`, with the same
    /// --problem); all by default.
    #[arg(long, value_delimiter = ',', value_parser = parse_column)]
    pub columns: Vec<String>,
    /// With a problem other than Code Jam's, the table written is its `boards` table (`tomek
    /// query --problem NAME --schema`), and the geometry is the problem's.
    #[command(flatten)]
    pub problem: ProblemArg,
    /// Replace an earlier export at DIR.
    #[arg(long)]
    pub force: bool,
    /// How to report what was written.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    #[command(flatten)]
    pub setup: SetupFilter,
    #[command(flatten)]
    pub geometry: GeometryArgs,
}

/// A column name of Code Jam's table or of a problem's; which table it must belong to is known
/// once --problem is.
fn parse_column(s: &str) -> Result<String, String> {
    let s = s.trim();
    if Column::from_name(s).is_some() || FamilyColumn::from_name(s).is_some() {
        return Ok(s.to_string());
    }
    Err(not_a_column(s, Column::ALL.iter().map(|c| c.name())))
}

fn not_a_column<'a>(s: &str, names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.collect();
    format!(
        "`{s}` is not a column; the columns are {}",
        names.join(", ")
    )
}

/// The columns asked for among `all` (every one without --columns), each once, in the
/// table's order.
fn chosen<C: Copy + PartialEq>(
    asked: &[String],
    all: &[C],
    name: impl Fn(C) -> &'static str,
) -> anyhow::Result<Vec<C>> {
    if asked.is_empty() {
        return Ok(all.to_vec());
    }
    let mut columns = Vec::new();
    for s in asked {
        match all.iter().find(|&&c| name(c) == s) {
            Some(&c) => columns.push(c),
            None => anyhow::bail!(
                "--columns: {}",
                not_a_column(s, all.iter().map(|&c| name(c)))
            ),
        }
    }
    columns.sort_by_key(|c| all.iter().position(|x| x == c));
    columns.dedup();
    Ok(columns)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let (done, columns) = match a.problem.family()? {
        None => export_tomek(&a)?,
        Some(p) => export_problem(&a, &p)?,
    };
    match a.format {
        Format::Json => outln!("{}", serde_json::to_string_pretty(&done)?),
        Format::Csv | Format::Table => {
            let mut t = Table::new(["partition", "rows", "bytes"]);
            for (name, rows, bytes) in &done.parts {
                t.push([
                    name.clone(),
                    grouped(*rows as u128),
                    grouped(*bytes as u128),
                ]);
            }
            t.push([
                "total".to_string(),
                grouped(done.rows() as u128),
                grouped(done.bytes() as u128),
            ]);
            if a.format == Format::Csv {
                let mut plain = Table::new(["partition", "rows", "bytes"]);
                for (name, rows, bytes) in &done.parts {
                    plain.push([name.clone(), rows.to_string(), bytes.to_string()]);
                }
                out!("{}", plain.csv());
            } else {
                outln!(
                    "{}: {} rows, {} columns, {} files",
                    done.dir.display(),
                    grouped(done.rows() as u128),
                    columns,
                    done.parts.len()
                );
                out!("{}", t.render());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Code Jam's table: what was written and the number of columns.
fn export_tomek(a: &Args) -> anyhow::Result<(Exported, usize)> {
    let g = a.geometry.build()?;
    let setups = a.setup.setups(&g)?;
    let columns = chosen(&a.columns, &Column::ALL, Column::name)?;
    let pb = super::progress::bar(setups.len() as u64, "setups");
    let done = export::export(&g, &setups, &columns, &a.output, a.force, |_| pb.inc(1))?;
    pb.finish_and_clear();
    Ok((done, columns.len()))
}

/// A problem's table: what was written and the number of columns.
fn export_problem(a: &Args, p: &Problem) -> anyhow::Result<(Exported, usize)> {
    let setups = a.setup.setups(&p.geometry)?;
    let columns = chosen(&a.columns, &FamilyColumn::of(p), FamilyColumn::name)?;
    let pb = super::progress::bar(setups.len() as u64, "setups");
    let done = export::export_problem(p, &setups, &columns, &a.output, a.force, |_| pb.inc(1))?;
    pb.finish_and_clear();
    Ok((done, columns.len()))
}
