//! SQL over the state space, by Apache DataFusion: the tables `boards` (one row per reachable
//! board) and `setups` (one row per setup), computed when a query reads them and only in the
//! columns it reads; results as aligned text, CSV, JSON or Parquet; and the whole `boards`
//! table exported as Parquet files in the Hive layout ([`export`]). For a problem of the family
//! other than Code Jam's, `boards` holds the problem's input space with its facts and verdicts
//! instead ([`family`]).
//!
//! Only reading statements run: DDL, DML and session statements are refused before planning.
//! So are statements too deep or too wide to plan in bounded time and stack: expressions nested
//! more than [`MAX_DEPTH`] levels, more than [`MAX_SELECTS`] `SELECT`s or [`MAX_TABLES`] table
//! references. Parsing, planning and running happen on the session's own threads, whose stacks
//! ([`STACK`]) hold many times the deepest statement those bounds allow.
//! Operators that hold rows (sorts, joins, aggregations) draw from a bounded memory pool, so a
//! query too large for the machine stops with the engine's message instead of swapping.

pub mod export;
pub mod family;
pub mod output;
pub mod runs;
pub mod tables;

use crate::problem::Problem;
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::table::Column;
use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::error::DataFusionError;
use datafusion::execution::SendableRecordBatchStream;
use datafusion::execution::disk_manager::{DiskManagerBuilder, DiskManagerMode};
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::prelude::{SQLOptions, SessionConfig, SessionContext};
use datafusion::sql::parser::Statement as DFStatement;
use datafusion::sql::sqlparser::ast::{
    Expr as SqlExpr, Select, Statement as SqlStatement, TableFactor, Visit, Visitor,
};
use futures::StreamExt;
use std::ops::ControlFlow;
use std::sync::Arc;

/// The longest statement accepted, in bytes.
pub const MAX_STATEMENT: usize = 64 * 1024;

/// The deepest nesting of expressions accepted (`1+1+…+1` nests one level per `+`).
pub const MAX_DEPTH: usize = 1000;

/// The most `SELECT`s a statement may hold (each side of a `UNION` counts).
pub const MAX_SELECTS: usize = 256;

/// The most table references a statement may hold (each side of a join counts).
pub const MAX_TABLES: usize = 64;

/// The stack of each thread that parses, plans or runs a query, in bytes: reserved, and only
/// touched as deep as a statement needs.
pub const STACK: usize = 256 << 20;

/// Why a query did not run.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// Nothing to run.
    #[error("the statement is empty")]
    Empty,
    /// Longer than [`MAX_STATEMENT`].
    #[error("the statement has {0} bytes; at most {MAX_STATEMENT} are accepted")]
    TooLong(usize),
    /// A statement that writes.
    #[error(
        "the statement writes; only statements that read run (SELECT, WITH, VALUES, EXPLAIN, \
         SHOW, DESCRIBE)"
    )]
    Writes,
    /// Deeper or wider than [`MAX_DEPTH`], [`MAX_SELECTS`] or [`MAX_TABLES`] allow.
    #[error("the statement {0}")]
    TooComplex(String),
    /// What the engine said: a syntax error, an unknown table or column, a statement that
    /// writes, a query over the memory limit. (Not a source: the message is the whole of it.)
    #[error("{}", engine_message(.0))]
    Engine(DataFusionError),
    /// The async runtime could not start.
    #[error("cannot start the query runtime: {0}")]
    Runtime(#[from] std::io::Error),
}

impl From<DataFusionError> for QueryError {
    fn from(e: DataFusionError) -> QueryError {
        QueryError::Engine(e)
    }
}

/// The engine's message without its wrapping ("External error: …", backtraces).
fn engine_message(e: &DataFusionError) -> String {
    let mut e = e;
    loop {
        match e {
            DataFusionError::Context(_, inner) => e = inner,
            DataFusionError::Shared(inner) => e = inner,
            _ => break,
        }
    }
    e.to_string()
}

/// Limits of a session.
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// Bytes that sorts, joins and aggregations may hold together.
    pub memory: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { memory: 4 << 30 }
    }
}

/// A SQL session over the state space of one geometry and a choice of its setups.
pub struct Session {
    runtime: tokio::runtime::Runtime,
    ctx: SessionContext,
}

/// The rows of a query, read a batch at a time.
pub struct Rows<'s> {
    session: &'s Session,
    schema: SchemaRef,
    /// Always there but while a batch is read or the rows are dropped.
    stream: Option<SendableRecordBatchStream>,
}

impl Rows<'_> {
    /// The result's columns.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The next batch of rows, or `None` at the end.
    pub fn next_batch(&mut self) -> Option<Result<RecordBatch, QueryError>> {
        let mut stream = self.stream.take()?;
        // Polled on a thread of the session, whose stack holds the deepest plan.
        let (stream, next) = self.session.on_stack(async move {
            let next = stream.next().await;
            (stream, next)
        });
        self.stream = Some(stream);
        next.map(|r| r.map_err(QueryError::from))
    }
}

impl Drop for Rows<'_> {
    fn drop(&mut self) {
        // A deep plan is dropped as deep as it was built: on a thread of the session.
        if let Some(stream) = self.stream.take() {
            self.session.on_stack(async move { drop(stream) });
        }
    }
}

/// Counts one more of something a statement may hold at most `max` of; past that, the refusal
/// `what` (with `{}` for the bound) and the bound again.
fn count(n: &mut usize, max: usize, what: &str) -> ControlFlow<String> {
    *n += 1;
    if *n > max {
        let what = what.replace("{}", &max.to_string());
        return ControlFlow::Break(format!("{what}; at most {max} are accepted"));
    }
    ControlFlow::Continue(())
}

/// Measures a statement's nesting and width, stopping at the first bound it passes.
#[derive(Default)]
struct Shape {
    depth: usize,
    selects: usize,
    tables: usize,
}

impl Visitor for Shape {
    type Break = String;

    fn pre_visit_expr(&mut self, _: &SqlExpr) -> ControlFlow<String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return ControlFlow::Break(format!(
                "nests expressions more than {MAX_DEPTH} levels deep; at most {MAX_DEPTH} are \
                 accepted"
            ));
        }
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, _: &SqlExpr) -> ControlFlow<String> {
        self.depth -= 1;
        ControlFlow::Continue(())
    }

    fn pre_visit_select(&mut self, _: &Select) -> ControlFlow<String> {
        count(&mut self.selects, MAX_SELECTS, "has more than {} SELECTs")
    }

    fn pre_visit_table_factor(&mut self, _: &TableFactor) -> ControlFlow<String> {
        count(&mut self.tables, MAX_TABLES, "reads more than {} tables")
    }
}

/// Refuses a parsed statement that writes, or deeper or wider than the bounds.
fn check_shape(statement: &DFStatement) -> Result<(), QueryError> {
    let flow = match statement {
        DFStatement::Statement(s)
            if matches!(
                **s,
                SqlStatement::Insert { .. }
                    | SqlStatement::Update { .. }
                    | SqlStatement::Delete { .. }
                    | SqlStatement::Merge { .. }
                    | SqlStatement::Truncate { .. }
            ) =>
        {
            return Err(QueryError::Writes);
        }
        DFStatement::Statement(s) => s.visit(&mut Shape::default()),
        DFStatement::Explain(e) => return check_shape(&e.statement),
        _ => ControlFlow::Continue(()),
    };
    match flow {
        ControlFlow::Break(why) => Err(QueryError::TooComplex(why)),
        ControlFlow::Continue(()) => Ok(()),
    }
}

impl Session {
    /// A session whose `boards` and `setups` tables cover `setups` of geometry `g`.
    pub fn new(g: &Geometry, setups: &[u16], limits: Limits) -> Result<Session, QueryError> {
        let session = Session::empty(limits)?;
        session.ctx.add_optimizer_rule(Arc::new(runs::RunsRule));
        session
            .ctx
            .register_table("boards", Arc::new(tables::BoardsTable::new(g, setups)))?;
        session
            .ctx
            .register_table("setups", Arc::new(tables::SetupsTable::new(g, setups)))?;
        Ok(session)
    }

    /// A session whose `boards` table is the input space of problem `p` (its `setups` alone:
    /// `[0]` without a joker), with each position's facts and verdict. There is no `setups`
    /// table: the counts by setup are a `GROUP BY t_square` of `boards`.
    pub fn for_problem(p: &Problem, setups: &[u16], limits: Limits) -> Result<Session, QueryError> {
        let session = Session::empty(limits)?;
        session
            .ctx
            .register_table("boards", Arc::new(family::FamilyBoards::new(p, setups)))?;
        Ok(session)
    }

    /// A session without tables.
    fn empty(limits: Limits) -> Result<Session, QueryError> {
        let threads = rayon::current_num_threads().max(1);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .thread_name("tomek-sql")
            .thread_stack_size(STACK)
            .enable_all()
            .build()?;
        // Nothing spills to disk: a query over the limit stops with the engine's message.
        let env = RuntimeEnvBuilder::new()
            .with_memory_limit(limits.memory, 1.0)
            .with_disk_manager_builder(
                DiskManagerBuilder::default().with_mode(DiskManagerMode::Disabled),
            )
            .build_arc()?;
        let config = SessionConfig::new()
            .with_target_partitions(threads)
            .with_information_schema(true);
        let ctx = SessionContext::new_with_config_rt(config, env);
        Ok(Session { runtime, ctx })
    }

    /// Plans one reading statement and starts it.
    pub fn query(&self, sql: &str) -> Result<Rows<'_>, QueryError> {
        if sql.len() > MAX_STATEMENT {
            return Err(QueryError::TooLong(sql.len()));
        }
        let text = sql.trim().trim_end_matches(';').trim();
        if text.is_empty() {
            return Err(QueryError::Empty);
        }
        let options = SQLOptions::new()
            .with_allow_ddl(false)
            .with_allow_dml(false)
            .with_allow_statements(false);
        let (ctx, text) = (self.ctx.clone(), text.to_string());
        let stream = self.on_stack(async move {
            let state = ctx.state();
            let dialect = state.config().options().sql_parser.dialect;
            let statement = state.sql_to_statement(&text, &dialect)?;
            check_shape(&statement)?;
            let plan = state.statement_to_plan(statement).await?;
            options.verify_plan(&plan)?;
            let frame = ctx.execute_logical_plan(plan).await?;
            Ok::<_, QueryError>(frame.execute_stream().await?)
        })?;
        Ok(Rows {
            session: self,
            schema: stream.schema(),
            stream: Some(stream),
        })
    }

    /// Runs `work` to its end on a thread of the session (one with a [`STACK`]-byte stack),
    /// waiting for it; a panic inside goes on in the caller.
    fn on_stack<T: Send + 'static>(
        &self,
        work: impl std::future::Future<Output = T> + Send + 'static,
    ) -> T {
        match self.runtime.block_on(self.runtime.spawn(work)) {
            Ok(v) => v,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            // The runtime lives as long as the session, so its tasks are never cancelled.
            Err(e) => unreachable!("a query task was cancelled: {e}"),
        }
    }
}

/// Every table and column with its SQL type and meaning: `(table, column, type, meaning)`.
pub fn schema() -> Vec<(&'static str, &'static str, String, &'static str)> {
    let mut out = Vec::new();
    for c in Column::ALL {
        out.push((
            "boards",
            c.name(),
            sql_type(&tables::data_type(c)),
            c.meaning(),
        ));
    }
    for (name, meaning) in tables::SETUP_COLUMNS {
        let ty = match name {
            "setup" => "text",
            "t_square" => "int",
            _ => "bigint",
        };
        out.push(("setups", name, ty.to_string(), meaning));
    }
    out
}

/// The columns of problem `p`'s `boards` table with their SQL types and meanings:
/// `(column, type, meaning)`.
pub fn problem_schema(p: &Problem) -> Vec<(&'static str, String, String)> {
    family::FamilyColumn::of(p)
        .into_iter()
        .map(|c| (c.name(), sql_type(&c.data_type()), c.meaning(p)))
        .collect()
}

/// An Arrow type as `--schema` names it in SQL's words.
fn sql_type(t: &datafusion::arrow::datatypes::DataType) -> String {
    use datafusion::arrow::datatypes::DataType;
    match t {
        DataType::Dictionary(..) | DataType::Utf8 => "text".to_string(),
        DataType::Int32 => "int".to_string(),
        DataType::Int64 => "bigint".to_string(),
        DataType::Boolean => "boolean".to_string(),
        other => other.to_string(),
    }
}
