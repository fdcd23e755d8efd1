use super::{GeometryArgs, SetupFilter};
use std::path::PathBuf;
use std::process::ExitCode;
use tomek::output::{Format, Table, grouped};
use tomek::sql::export;
use tomek::tictactoe::table::Column;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The directory to write: one `setup=NAME/boards.parquet` per setup (Hive layout).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Columns to write (comma-separated names from `tomek query --schema`); all by default.
    #[arg(long, value_delimiter = ',', value_parser = parse_column)]
    pub columns: Vec<Column>,
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

fn parse_column(s: &str) -> Result<Column, String> {
    Column::from_name(s.trim()).ok_or_else(|| {
        let names: Vec<&str> = Column::ALL.iter().map(|c| c.name()).collect();
        format!(
            "`{s}` is not a column; the columns are {}",
            names.join(", ")
        )
    })
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let g = a.geometry.build()?;
    let setups = a.setup.setups(&g)?;
    let mut columns: Vec<Column> = if a.columns.is_empty() {
        Column::ALL.to_vec()
    } else {
        a.columns.clone()
    };
    // Each column once, in the table's order.
    columns.sort_by_key(|c| Column::ALL.iter().position(|x| x == c));
    columns.dedup();
    let pb = super::progress::bar(setups.len() as u64, "setups");
    let done = export::export(&g, &setups, &columns, &a.output, a.force, |_| pb.inc(1))?;
    pb.finish_and_clear();
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
                    columns.len(),
                    done.parts.len()
                );
                out!("{}", t.render());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
