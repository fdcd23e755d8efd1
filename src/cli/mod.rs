//! Command-line arguments, one module per subcommand. Each module parses its flags and calls
//! the library; none holds logic of its own beyond reading inputs and printing results.

/// `print!` for reports: a write error returns from the command with the error, and `main`
/// ends a closed pipe (`tomek validate F | head -n 1`) quietly with success.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!($($arg)*))?
    };
}

/// `println!` for reports, returning write errors like [`out!`].
macro_rules! outln {
    () => {
        $crate::cli::write_stdout(format_args!("\n"))?
    };
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

mod audit;
mod check;
mod completions;
mod enumerate;
mod explain;
#[cfg(feature = "sql")]
mod export;
mod fourow;
mod generate;
#[cfg(any(not(feature = "sql"), not(feature = "web")))]
mod left_out;
mod package;
mod plot;
mod problem;
pub mod progress;
#[cfg(feature = "sql")]
mod query;
#[cfg(feature = "web")]
mod serve;
mod solve;
mod stats;
mod validate;

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use tomek::outcome::Status;
use tomek::tictactoe::rules::Geometry;

/// Exhaustive state-space analyzer and test-data generator for Tic-Tac-Toe-Tomek (Code Jam
/// 2013, Qualification A) and Four in a row (SPOJ FOUROW).
#[derive(Parser, Debug)]
#[command(name = "tomek", version, about, propagate_version = true)]
pub struct Cli {
    /// Never draw progress bars.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Answer a Code Jam input: one `Case #x: status` line per board.
    Solve(solve::Args),
    /// Statistics of every reachable board: counts, games, perfect play, symmetry.
    Stats(stats::Args),
    /// Stream the reachable boards (all, or by setup, status and ply) as a Code Jam file,
    /// lines or binary records.
    Enumerate(enumerate::Args),
    /// Check a solver program (--solver CMD), or else every evaluator, against the labels of
    /// play on every reachable board or on a test-data profile's boards.
    Audit(audit::Args),
    /// Write a Code Jam input and its answers, drawn by profile (seeded, any size).
    Generate(generate::Args),
    /// Check a Code Jam input as a judge would (format, bounds, reachability) and say what it
    /// covers. Exit 0 valid, 1 invalid, 2 usage error.
    Validate(validate::Args),
    /// Judge an output against the answers (testlib exit codes: 0 accepted, 1 wrong answer,
    /// 2 presentation error, 3 checker failure).
    Check(check::Args),
    /// Four in a row (SPOJ FOUROW): judge, generator, validator, position counts.
    Fourow(fourow::Args),
    /// Write the whole problem as a problem package (Kattis legacy by default, ICPC 2025-09,
    /// Polygon or DOMjudge): data, input validator, accepted and wrong submissions.
    Package(package::Args),
    /// Everything about one board: status by each evaluator, reachability, perfect play with
    /// every move, move orders and games through it, symmetries.
    Explain(explain::Args),
    /// Run one SQL statement over every reachable board (tables `boards` and `setups`; see
    /// --schema), printed as a table, CSV, JSON or Parquet.
    #[cfg(feature = "sql")]
    Query(query::Args),
    /// Run one SQL statement over every reachable board (tables `boards` and `setups`; see
    /// --schema), printed as a table, CSV, JSON or Parquet.
    #[cfg(not(feature = "sql"))]
    Query(left_out::SqlArgs),
    /// Write every reachable board as Parquet files, one directory per setup (Hive layout),
    /// for DuckDB, Polars, pandas and Spark.
    #[cfg(feature = "sql")]
    Export(export::Args),
    /// Write every reachable board as Parquet files, one directory per setup (Hive layout),
    /// for DuckDB, Polars, pandas and Spark.
    #[cfg(not(feature = "sql"))]
    Export(left_out::SqlArgs),
    /// Serve the pages and the JSON API for exploring both games in a browser (loopback by
    /// default).
    #[cfg(feature = "web")]
    Serve(serve::Args),
    /// Serve the pages and the JSON API for exploring both games in a browser (loopback by
    /// default).
    #[cfg(not(feature = "web"))]
    Serve(left_out::WebArgs),
    /// The problems of the family: list the built-in descriptions, print one, check a file.
    Problem(problem::Args),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(completions::Args),
    /// Write the man pages of every command.
    #[command(hide = true)]
    Man(completions::ManArgs),
}

/// Runs one subcommand; an `Err` is reported by `main` with exit code 2.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Solve(a) => solve::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Enumerate(a) => enumerate::run(a),
        Command::Audit(a) => audit::run(a),
        Command::Generate(a) => generate::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Check(a) => check::run(a),
        Command::Fourow(a) => fourow::run(a),
        Command::Package(a) => package::run(a),
        Command::Explain(a) => explain::run(a),
        #[cfg(feature = "sql")]
        Command::Query(a) => query::run(a),
        #[cfg(feature = "sql")]
        Command::Export(a) => export::run(a),
        #[cfg(not(feature = "sql"))]
        Command::Query(a) => a.run("query"),
        #[cfg(not(feature = "sql"))]
        Command::Export(a) => a.run("export"),
        #[cfg(feature = "web")]
        Command::Serve(a) => serve::run(a),
        #[cfg(not(feature = "web"))]
        Command::Serve(a) => a.run("serve"),
        Command::Problem(a) => problem::run(a),
        Command::Completions(a) => completions::run(a),
        Command::Man(a) => completions::man(a),
    }
}

/// The board geometry, for commands that also study other boards than the Code Jam one.
#[derive(clap::Args, Debug, Clone)]
pub struct GeometryArgs {
    /// Rows of the board.
    #[arg(long, default_value_t = 4, help_heading = "Geometry")]
    pub rows: u32,
    /// Columns of the board (rows × columns ≤ 16).
    #[arg(long, default_value_t = 4, help_heading = "Geometry")]
    pub cols: u32,
    /// Symbols in a row that win.
    #[arg(long, default_value_t = 4, help_heading = "Geometry")]
    pub line: u32,
    /// No T square: only the empty setup.
    #[arg(long, help_heading = "Geometry")]
    pub no_joker: bool,
}

impl GeometryArgs {
    pub fn build(&self) -> anyhow::Result<Geometry> {
        Ok(Geometry::new(
            self.rows,
            self.cols,
            self.line,
            !self.no_joker,
        )?)
    }
}

/// Which starting setups to consider.
#[derive(clap::Args, Debug, Clone)]
pub struct SetupFilter {
    /// Setups: `all`, `none` (no T), or the square of the T (0-15, row by row), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub setup: Vec<String>,
}

impl SetupFilter {
    /// The `T` masks selected, in the geometry's setup order.
    pub fn setups(&self, g: &Geometry) -> anyhow::Result<Vec<u16>> {
        let all = g.setups();
        let mut chosen = Vec::new();
        for s in &self.setup {
            match s.as_str() {
                "all" => chosen.extend(&all),
                "none" => chosen.push(0),
                n => {
                    let square: u32 = n.parse().map_err(|_| {
                        anyhow::anyhow!("--setup: `{n}` is not all, none or a square number")
                    })?;
                    let t = 1u32 << square.min(31);
                    if !all.contains(&(t as u16)) || t > u16::MAX as u32 {
                        anyhow::bail!(
                            "--setup: no setup with the T on square {n} (squares 0-{} with a T)",
                            g.cells() - 1
                        );
                    }
                    chosen.push(t as u16);
                }
            }
        }
        Ok(all.into_iter().filter(|t| chosen.contains(t)).collect())
    }
}

/// The error of a request whose setups, statuses and plies together select no board.
pub const NOTHING_SELECTED: &str =
    "no reachable board has the setup, status and ply asked for (--setup, --status, --ply)";

/// A byte count with an optional K, M, G or T suffix (powers of 1024).
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let (digits, shift) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(format!("unknown size suffix `{c}` (use K, M, G or T)")),
            };
            (&t[..i], shift)
        }
        _ => (t, 0),
    };
    let n: usize = digits
        .parse()
        .map_err(|_| format!("`{s}` is not a size (e.g. 20G, 512M)"))?;
    n.checked_mul(1 << shift)
        .filter(|&b| b > 0)
        .ok_or_else(|| format!("`{s}` is not a usable size"))
}

/// A parser of whole numbers from `min` to `max` (no bound when `None`), whose message says
/// the bounds in words, grouped by thousands, rather than as a Rust range.
pub fn number<T>(
    min: u64,
    max: Option<u64>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64>,
{
    move |s: &str| {
        let bounds = match max {
            Some(max) => format!(
                "{} to {}",
                tomek::output::grouped(min.into()),
                tomek::output::grouped(max.into())
            ),
            None => format!("{} up", tomek::output::grouped(min.into())),
        };
        let fail = || format!("give a whole number from {bounds}");
        let n: u64 = s.trim().parse().map_err(|_| fail())?;
        if n < min || max.is_some_and(|m| n > m) {
            return Err(fail());
        }
        T::try_from(n).map_err(|_| fail())
    }
}

/// Parses a status filter: x, o, draw or open.
pub fn parse_status(s: &str) -> Result<Status, String> {
    Status::from_short(s).ok_or_else(|| format!("`{s}` is not one of x, o, draw, open"))
}

/// An input file, or standard input for `-` (every command that reads a file takes `-`), with
/// the name that messages give it.
pub fn open_input(path: &std::path::Path) -> std::io::Result<(Box<dyn std::io::Read>, String)> {
    if path.as_os_str() == "-" {
        Ok((Box::new(std::io::stdin().lock()), "<stdin>".to_string()))
    } else {
        let file = std::fs::File::open(path)?;
        Ok((Box::new(file), path.display().to_string()))
    }
}

/// Writes a report to standard output.
pub fn write_stdout(args: std::fmt::Arguments<'_>) -> std::io::Result<()> {
    use std::io::Write;
    std::io::stdout().lock().write_fmt(args)
}

/// Whether a command failed because its standard output was closed: the reader has what it
/// wanted (`tomek solve big.in | head`), which is a success, not an error.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
