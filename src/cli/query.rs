use super::problem::ProblemArg;
use super::{GeometryArgs, SetupFilter};
use anyhow::Context;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tomek::output::{AtomicFile, Table};
use tomek::problem::Problem;
use tomek::sql::{self, Limits, Session, output};

/// How `query` writes its result.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum QueryFormat {
    /// An aligned table for people.
    #[default]
    Table,
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON array of objects, one a row.
    Json,
    /// An Apache Parquet file (needs -o).
    Parquet,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// One SQL statement (`-` reads it from standard input). Tables: `boards` (every
    /// reachable board) and `setups`; see --schema.
    #[arg(required_unless_present = "schema")]
    pub sql: Option<String>,
    /// With a problem other than Code Jam's, `boards` holds every position of its input space
    /// with the facts its rules read and its verdict (see --schema), and the geometry is the
    /// problem's.
    #[command(flatten)]
    pub problem: ProblemArg,
    /// Print every table and column with its meaning, and stop.
    #[arg(long)]
    pub schema: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = QueryFormat::Table)]
    pub format: QueryFormat,
    /// Write the result to this file (replaced atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Memory that sorts, joins and aggregations may hold, in bytes or with a K, M or G
    /// suffix; a query needing more stops with the engine's message.
    #[arg(long, default_value = "4G", value_parser = parse_bytes)]
    pub memory: usize,
    #[command(flatten)]
    pub setup: SetupFilter,
    #[command(flatten)]
    pub geometry: GeometryArgs,
}

/// The engine's memory, as every size tomek takes (`512M`, `4G`), and at least 1M: less
/// would not hold one batch of rows.
fn parse_bytes(s: &str) -> Result<usize, String> {
    let bytes = super::parse_size(s)?;
    if bytes < 1 << 20 {
        return Err(format!("`{s}`: give at least 1M"));
    }
    Ok(bytes)
}

/// Standard output that remembers whether its reader went away, so that a closed pipe ends the
/// command quietly however deep in a writer the error surfaced.
struct Stdout {
    closed: Arc<AtomicBool>,
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        io::stdout().lock().write(buf).inspect_err(|e| self.note(e))
    }
    fn flush(&mut self) -> io::Result<()> {
        io::stdout().lock().flush().inspect_err(|e| self.note(e))
    }
}

impl Stdout {
    fn note(&self, e: &io::Error) {
        if e.kind() == io::ErrorKind::BrokenPipe {
            self.closed.store(true, Ordering::Relaxed);
        }
    }
}

fn print_schema(format: QueryFormat, problem: Option<&Problem>) -> anyhow::Result<ExitCode> {
    let mut t = Table::new(["table", "column", "type", "meaning"]);
    match problem {
        None => {
            for (table, column, ty, meaning) in sql::schema() {
                t.push([table, column, &ty, meaning]);
            }
        }
        Some(p) => {
            for (column, ty, meaning) in sql::problem_schema(p) {
                t.push(["boards", column, &ty, &meaning]);
            }
        }
    }
    match format {
        QueryFormat::Table => {
            out!("{}", t.render());
            if let Some(p) = problem {
                let by = if p.geometry.joker {
                    "verdict or t_square"
                } else {
                    "verdict"
                };
                outln!(
                    "(no setups table for {}: boards holds its whole input space; group it by \
                     {by})",
                    p.name
                );
            }
        }
        QueryFormat::Csv => out!("{}", t.csv()),
        QueryFormat::Json => {
            let rows: Vec<serde_json::Value> = t
                .rows
                .iter()
                .map(|r| {
                    serde_json::json!({"table": r[0], "column": r[1], "type": r[2], "meaning": r[3]})
                })
                .collect();
            outln!("{}", serde_json::to_string_pretty(&rows)?);
        }
        QueryFormat::Parquet => anyhow::bail!("--schema prints as a table, csv or json"),
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(mut a: Args) -> anyhow::Result<ExitCode> {
    let problem = a.problem.family()?;
    if a.schema {
        return print_schema(a.format, problem.as_ref());
    }
    let mut text = a.sql.take().unwrap_or_default();
    if text == "-" {
        text.clear();
        io::stdin()
            .take(sql::MAX_STATEMENT as u64 + 1)
            .read_to_string(&mut text)
            .context("reading the statement from standard input")?;
    }
    // A panic in the engine is a bug, but the user still gets a message and exit 2.
    let answer = || answer(&a, problem.as_ref(), &text);
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(answer)) {
        Ok(r) => r,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_string());
            anyhow::bail!("the query engine failed on this statement: {message}")
        }
    }
}

/// Runs the statement over Code Jam's tables, or `problem`'s, and writes its rows.
fn answer(a: &Args, problem: Option<&Problem>, text: &str) -> anyhow::Result<ExitCode> {
    let limits = Limits { memory: a.memory };
    let session = match problem {
        None => {
            let g = a.geometry.build()?;
            Session::new(&g, &a.setup.setups(&g)?, limits)?
        }
        Some(p) => Session::for_problem(p, &a.setup.setups(&p.geometry)?, limits)?,
    };
    let mut rows = session.query(text)?;
    let closed = Arc::new(AtomicBool::new(false));
    let result = match (a.format, &a.output) {
        (QueryFormat::Parquet, None) => {
            anyhow::bail!("--format parquet writes a file: give it with -o FILE")
        }
        (QueryFormat::Parquet, Some(path)) => output::parquet(&mut rows, path).map(|_| ()),
        (QueryFormat::Table, target) => output::table(&mut rows).and_then(|t| {
            let text = t.render();
            match target {
                Some(path) => tomek::output::write_atomic(path, text.as_bytes())?,
                None => Stdout {
                    closed: closed.clone(),
                }
                .write_all(text.as_bytes())?,
            }
            Ok(())
        }),
        (format, Some(path)) => {
            let mut file = AtomicFile::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            let r = match format {
                QueryFormat::Csv => output::csv(&mut rows, &mut file),
                _ => output::json(&mut rows, &mut file),
            };
            r.and_then(|_| Ok(file.commit()?))
        }
        (format, None) => {
            let out = io::BufWriter::new(Stdout {
                closed: closed.clone(),
            });
            let r = match format {
                QueryFormat::Csv => output::csv(&mut rows, out),
                _ => output::json(&mut rows, out),
            };
            r.map(|_| ())
        }
    };
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(_) if closed.load(Ordering::Relaxed) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e.into()),
    }
}
