//! SQL over the state space, by Apache DataFusion: the tables `boards` (one row per reachable
//! board) and `setups` (one row per setup), computed when a query reads them and only in the
//! columns it reads; results as aligned text, CSV, JSON or Parquet; and the whole `boards`
//! table exported as Parquet files in the Hive layout ([`export`]).
//!
//! Only reading statements run: DDL, DML and session statements are refused before planning.
//! Operators that hold rows (sorts, joins, aggregations) draw from a bounded memory pool, so a
//! query too large for the machine stops with the engine's message instead of swapping.

pub mod export;
pub mod output;
pub mod runs;
pub mod tables;

use crate::tictactoe::rules::Geometry;
use crate::tictactoe::table::Column;
use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::error::DataFusionError;
use datafusion::execution::SendableRecordBatchStream;
use datafusion::execution::disk_manager::{DiskManagerBuilder, DiskManagerMode};
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::prelude::{SQLOptions, SessionConfig, SessionContext};
use futures::StreamExt;
use std::sync::Arc;

/// The longest statement accepted, in bytes.
pub const MAX_STATEMENT: usize = 64 * 1024;

/// Why a query did not run.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// Nothing to run.
    #[error("the statement is empty")]
    Empty,
    /// Longer than [`MAX_STATEMENT`].
    #[error("the statement has {0} bytes; at most {MAX_STATEMENT} are accepted")]
    TooLong(usize),
    /// What the engine said: a syntax error, an unknown table or column, a statement that
    /// writes, a query over the memory limit.
    #[error("{}", engine_message(.0))]
    Engine(#[from] DataFusionError),
    /// The async runtime could not start.
    #[error("cannot start the query runtime: {0}")]
    Runtime(#[from] std::io::Error),
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
    stream: SendableRecordBatchStream,
}

impl Rows<'_> {
    /// The result's columns.
    pub fn schema(&self) -> SchemaRef {
        self.stream.schema()
    }

    /// The next batch of rows, or `None` at the end.
    pub fn next_batch(&mut self) -> Option<Result<RecordBatch, QueryError>> {
        let next = self.session.runtime.block_on(self.stream.next());
        next.map(|r| r.map_err(QueryError::from))
    }
}

impl Session {
    /// A session whose `boards` and `setups` tables cover `setups` of geometry `g`.
    pub fn new(g: &Geometry, setups: &[u16], limits: Limits) -> Result<Session, QueryError> {
        let threads = rayon::current_num_threads().max(1);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .thread_name("tomek-sql")
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
        ctx.add_optimizer_rule(Arc::new(runs::RunsRule));
        ctx.register_table("boards", Arc::new(tables::BoardsTable::new(g, setups)))?;
        ctx.register_table("setups", Arc::new(tables::SetupsTable::new(g, setups)))?;
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
        let stream = self.runtime.block_on(async {
            let frame = self.ctx.sql_with_options(text, options).await?;
            frame.execute_stream().await
        })?;
        Ok(Rows {
            session: self,
            stream,
        })
    }
}

/// Every table and column with its SQL type and meaning: `(table, column, type, meaning)`.
pub fn schema() -> Vec<(&'static str, &'static str, String, &'static str)> {
    let mut out = Vec::new();
    for c in Column::ALL {
        let ty = match tables::data_type(c) {
            datafusion::arrow::datatypes::DataType::Dictionary(..) => "text".to_string(),
            datafusion::arrow::datatypes::DataType::Utf8 => "text".to_string(),
            datafusion::arrow::datatypes::DataType::Int32 => "int".to_string(),
            datafusion::arrow::datatypes::DataType::Int64 => "bigint".to_string(),
            datafusion::arrow::datatypes::DataType::Boolean => "boolean".to_string(),
            other => other.to_string(),
        };
        out.push(("boards", c.name(), ty, c.meaning()));
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
