//! The tables as DataFusion sees them: providers that compute, when a query runs, only the
//! columns the query reads, one partition per setup.

use crate::outcome::ByStatus;
use crate::sql::runs::WEIGHT;
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::space::count_setup;
use crate::tictactoe::stats::setup_name;
use crate::tictactoe::table::{Chunk, Column, Data, Fold, Kind, TableSpec};
use async_trait::async_trait;
use datafusion::arrow::array::{
    ArrayRef, BooleanArray, DictionaryArray, Int8Array, Int32Array, Int64Array, RecordBatch,
    RecordBatchOptions, StringArray,
};
use datafusion::arrow::buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use datafusion::arrow::datatypes::{DataType, Field, Int8Type, Schema, SchemaRef};
use datafusion::catalog::Session;
use datafusion::datasource::{TableProvider, TableType};
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::logical_expr::{Expr, Operator, TableProviderFilterPushDown};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::streaming::{PartitionStream, StreamingTableExec};
use datafusion::scalar::ScalarValue;
use futures::StreamExt;
use std::sync::Arc;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The Arrow type of a column: small numbers as 32-bit integers, counts as 64-bit ones, words
/// as dictionaries of a few strings (one byte a row).
pub fn data_type(c: Column) -> DataType {
    match c.kind() {
        Kind::Text => DataType::Utf8,
        Kind::Int => DataType::Int32,
        Kind::Long => DataType::Int64,
        Kind::Bool => DataType::Boolean,
        Kind::Word => DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
    }
}

/// The schema of `columns` of the `boards` table.
pub fn boards_schema(columns: &[Column]) -> SchemaRef {
    Arc::new(Schema::new(
        columns
            .iter()
            .map(|&c| Field::new(c.name(), data_type(c), c.nullable()))
            .collect::<Vec<_>>(),
    ))
}

/// One column of a chunk as an Arrow array.
fn array(c: Column, data: Data) -> Result<ArrayRef> {
    Ok(match data {
        Data::Text { width, bytes } => {
            let rows = bytes.len() / width.max(1);
            let offsets = OffsetBuffer::new(ScalarBuffer::from(
                (0..=rows).map(|i| (i * width) as i32).collect::<Vec<_>>(),
            ));
            Arc::new(StringArray::try_new(
                offsets,
                Buffer::from_vec(bytes),
                None,
            )?)
        }
        Data::Int { values, valid } => Arc::new(Int32Array::new(
            ScalarBuffer::from(values),
            valid.map(NullBuffer::from),
        )),
        Data::Long(v) => Arc::new(Int64Array::from(v)),
        Data::Bool(v) => Arc::new(BooleanArray::from(v)),
        Data::Word(codes) => {
            let nulls = codes
                .contains(&-1)
                .then(|| NullBuffer::from(codes.iter().map(|&k| k >= 0).collect::<Vec<_>>()));
            let keys = Int8Array::new(
                ScalarBuffer::from(codes.into_iter().map(|k| k.max(0)).collect::<Vec<_>>()),
                nulls,
            );
            let values = Arc::new(StringArray::from(c.words().to_vec()));
            Arc::new(DictionaryArray::<Int8Type>::try_new(keys, values)?)
        }
    })
}

/// A chunk of rows as a record batch of `schema` (which has the chunk's columns, in order).
pub fn batch(schema: &SchemaRef, columns: &[Column], chunk: Chunk) -> Result<RecordBatch> {
    batch_with(schema, columns, chunk, None)
}

/// [`batch`], with the weights of runs as a last column when there are some.
fn batch_with(
    schema: &SchemaRef,
    columns: &[Column],
    chunk: Chunk,
    weights: Option<Vec<u64>>,
) -> Result<RecordBatch> {
    let mut arrays = columns
        .iter()
        .zip(chunk.columns)
        .map(|(&c, d)| array(c, d))
        .collect::<Result<Vec<_>>>()?;
    if let Some(w) = weights {
        arrays.push(Arc::new(Int64Array::from_iter_values(
            w.into_iter().map(|w| w as i64),
        )));
    }
    Ok(RecordBatch::try_new_with_options(
        schema.clone(),
        arrays,
        &RecordBatchOptions::new().with_row_count(Some(chunk.len)),
    )?)
}

/// The `boards` table: every reachable board of the selected setups.
///
/// The same table can also be read as runs ([`super::runs`]): one row per setup and distinct
/// values of the small columns read ([`Column::small`]), then the folds of other columns over
/// its boards (columns named by [`fold_name`]), and a last column [`WEIGHT`] holding how many
/// boards it stands for.
#[derive(Debug)]
pub struct BoardsTable {
    geometry: Geometry,
    setups: Vec<u16>,
    /// Setups computed or read at once: a setup takes a permit before it is computed and gives
    /// it back once its rows are read, so at most this many setups' rows are held.
    permits: Arc<Semaphore>,
    /// Read as runs, with these folds.
    runs: Option<Vec<(Column, Fold)>>,
}

impl BoardsTable {
    /// The table over `setups` of geometry `g`.
    pub fn new(g: &Geometry, setups: &[u16]) -> BoardsTable {
        BoardsTable {
            geometry: g.clone(),
            setups: setups.to_vec(),
            permits: Arc::new(Semaphore::new(rayon::current_num_threads().max(1))),
            runs: None,
        }
    }

    /// The same table read as runs of equal rows, with `folds` of the other columns.
    pub fn of_runs(&self, folds: &[(Column, Fold)]) -> BoardsTable {
        BoardsTable {
            geometry: self.geometry.clone(),
            setups: self.setups.clone(),
            permits: self.permits.clone(),
            runs: Some(folds.to_vec()),
        }
    }

    /// Whether the table is read as runs.
    pub fn runs(&self) -> bool {
        self.runs.is_some()
    }
}

/// A whole-number literal, perhaps cast.
fn number(e: &Expr) -> Option<i64> {
    match e {
        Expr::Literal(v, _) => match v {
            ScalarValue::Int8(Some(n)) => Some(*n as i64),
            ScalarValue::Int16(Some(n)) => Some(*n as i64),
            ScalarValue::Int32(Some(n)) => Some(*n as i64),
            ScalarValue::Int64(Some(n)) => Some(*n),
            ScalarValue::UInt8(Some(n)) => Some(*n as i64),
            ScalarValue::UInt16(Some(n)) => Some(*n as i64),
            ScalarValue::UInt32(Some(n)) => Some(*n as i64),
            ScalarValue::UInt64(Some(n)) => i64::try_from(*n).ok(),
            _ => None,
        },
        Expr::Cast(c) => number(&c.expr),
        _ => None,
    }
}

/// The setups a filter on `t_square` alone allows, if it is one the scan understands:
/// `t_square = n`, `t_square IS [NOT] NULL`, `t_square IN (…)` and their negations.
fn allowed_setups(e: &Expr, t_squares: &[Option<i64>]) -> Option<Vec<bool>> {
    let is_t = |e: &Expr| matches!(e, Expr::Column(c) if c.name == Column::TSquare.name());
    let strip = |e: &Expr| -> Expr {
        match e {
            Expr::Cast(c) if is_t(&c.expr) => (*c.expr).clone(),
            other => other.clone(),
        }
    };
    match e {
        Expr::IsNull(inner) if is_t(&strip(inner)) => {
            Some(t_squares.iter().map(Option::is_none).collect())
        }
        Expr::IsNotNull(inner) if is_t(&strip(inner)) => {
            Some(t_squares.iter().map(Option::is_some).collect())
        }
        Expr::BinaryExpr(b) if b.op == Operator::Eq => {
            let (l, r) = (strip(&b.left), strip(&b.right));
            let n = if is_t(&l) {
                number(&r)?
            } else if is_t(&r) {
                number(&l)?
            } else {
                return None;
            };
            Some(t_squares.iter().map(|&t| t == Some(n)).collect())
        }
        Expr::InList(list) if is_t(&strip(&list.expr)) => {
            let values = list.list.iter().map(number).collect::<Option<Vec<_>>>()?;
            Some(
                t_squares
                    .iter()
                    .map(|&t| t.is_some_and(|t| values.contains(&t)) != list.negated)
                    .collect(),
            )
        }
        Expr::Not(inner) => {
            let allowed = allowed_setups(inner, t_squares)?;
            // Negated comparisons with a null are null, not true: only null tests keep the
            // setup without a T.
            let null_test = matches!(**inner, Expr::IsNull(_) | Expr::IsNotNull(_));
            Some(
                allowed
                    .iter()
                    .zip(t_squares)
                    .map(|(&a, t)| !a && (null_test || t.is_some()))
                    .collect(),
            )
        }
        _ => None,
    }
}

#[async_trait]
impl TableProvider for BoardsTable {
    fn schema(&self) -> SchemaRef {
        let schema = boards_schema(&Column::ALL);
        match &self.runs {
            Some(folds) => with_weight(&schema, folds, true),
            None => schema,
        }
    }

    fn table_type(&self) -> TableType {
        TableType::View
    }

    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> Result<Vec<TableProviderFilterPushDown>> {
        let t_squares = t_squares(&self.setups);
        Ok(filters
            .iter()
            .map(|f| match allowed_setups(f, &t_squares) {
                // The scan only skips setups; the filter is still applied to the rows.
                Some(_) => TableProviderFilterPushDown::Inexact,
                None => TableProviderFilterPushDown::Unsupported,
            })
            .collect())
    }

    async fn scan(
        &self,
        _state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        _limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let all = Column::ALL.len();
        let no_folds = Vec::new();
        let table_folds = self.runs.as_ref().unwrap_or(&no_folds);
        let weight = all + table_folds.len();
        let every: Vec<usize> = (0..weight + self.runs.is_some() as usize).collect();
        let p = projection.unwrap_or(&every);
        // Columns, folds, then the weight: in that order, or the batches would not fit.
        if !p.is_sorted_by_key(|&i| (i >= all) as u8 + (i >= weight) as u8) {
            return Err(DataFusionError::Internal(format!(
                "a scan of runs reads its columns, then its folds, then {WEIGHT}"
            )));
        }
        let columns: Vec<Column> = p
            .iter()
            .filter(|&&i| i < all)
            .map(|&i| Column::ALL[i])
            .collect();
        let folds: Vec<(Column, Fold)> = p
            .iter()
            .filter(|&&i| (all..weight).contains(&i))
            .map(|&i| table_folds[i - all])
            .collect();
        let weighted = p.contains(&weight) && self.runs.is_some();
        let t_squares = t_squares(&self.setups);
        let mut keep = vec![true; self.setups.len()];
        for f in filters {
            if let Some(allowed) = allowed_setups(f, &t_squares) {
                for (k, a) in keep.iter_mut().zip(allowed) {
                    *k &= a;
                }
            }
        }
        let mut schema = boards_schema(&columns);
        if self.runs.is_some() {
            schema = with_weight(&schema, &folds, weighted);
        }
        let spec = Arc::new(TableSpec::folding(&self.geometry, &columns, &folds));
        let partitions: Vec<Arc<dyn PartitionStream>> = self
            .setups
            .iter()
            .zip(keep)
            .filter(|&(_, k)| k)
            .map(|(&t, _)| {
                Arc::new(SetupPartition {
                    spec: spec.clone(),
                    schema: schema.clone(),
                    t,
                    permits: self.permits.clone(),
                    runs: self.runs.is_some(),
                    weighted,
                }) as Arc<dyn PartitionStream>
            })
            .collect();
        let plan: Arc<dyn ExecutionPlan> = if partitions.is_empty() {
            Arc::new(datafusion::physical_plan::empty::EmptyExec::new(schema))
        } else {
            Arc::new(StreamingTableExec::try_new(
                schema, partitions, None, None, false, None,
            )?)
        };
        Ok(plan)
    }
}

/// The name of the column holding `fold` of column `c` over a run.
pub fn fold_name(c: Column, fold: Fold) -> String {
    format!("__tomek_{}_{}", fold.name(), c.name())
}

/// `schema` with the folds of runs added, then their weight column when `weighted`.
fn with_weight(schema: &SchemaRef, folds: &[(Column, Fold)], weighted: bool) -> SchemaRef {
    let mut fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
    for &(c, f) in folds {
        let ty = match c.kind() {
            Kind::Text => DataType::Utf8,
            _ => DataType::Int64,
        };
        fields.push(Field::new(fold_name(c, f), ty, false));
    }
    if weighted {
        fields.push(Field::new(WEIGHT, DataType::Int64, false));
    }
    Arc::new(Schema::new(fields))
}

/// The `t_square` of each setup.
fn t_squares(setups: &[u16]) -> Vec<Option<i64>> {
    setups
        .iter()
        .map(|&t| (t != 0).then(|| t.trailing_zeros() as i64))
        .collect()
}

/// A computed chunk of a setup, with the weights of its runs when it holds runs.
type Computed = (Chunk, Option<Vec<u64>>);

/// A blocking task's failure as the engine's error; a panic, which is a bug, goes on as a
/// panic instead of passing for a refused query.
fn panic_or_error(e: tokio::task::JoinError) -> DataFusionError {
    if e.is_panic() {
        std::panic::resume_unwind(e.into_panic());
    }
    DataFusionError::External(Box::new(e))
}

/// The rows of one setup: computed on a blocking thread when first read, then handed out a
/// chunk at a time.
struct SetupPartition {
    spec: Arc<TableSpec>,
    schema: SchemaRef,
    t: u16,
    permits: Arc<Semaphore>,
    /// One row per run of equal rows instead of one per board.
    runs: bool,
    /// Whether the run lengths are read (as the last column).
    weighted: bool,
}

impl std::fmt::Debug for SetupPartition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SetupPartition({})", setup_name(self.t))
    }
}

impl PartitionStream for SetupPartition {
    fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    fn execute(&self, _ctx: Arc<TaskContext>) -> SendableRecordBatchStream {
        let (spec, schema, t, permits, runs) = (
            self.spec.clone(),
            self.schema.clone(),
            self.t,
            self.permits.clone(),
            self.runs,
        );
        let out = schema.clone();
        let chunks = futures::stream::once(async move {
            let permit = permits
                .acquire_owned()
                .await
                .map_err(|e| DataFusionError::External(Box::new(e)))?;
            let computed = tokio::task::spawn_blocking(move || {
                if runs {
                    let (chunk, weights) = spec.runs(t);
                    vec![(chunk, Some(weights))]
                } else {
                    spec.setup(t).into_iter().map(|c| (c, None)).collect()
                }
            })
            .await;
            // Runs are a few rows: the next setup may start while they are read.
            let permit = (!runs).then_some(permit);
            Ok((computed.map_err(panic_or_error)?, permit))
        });
        let columns = self.spec.read_columns();
        let weighted = self.weighted;
        let batches = chunks.flat_map(
            move |r: Result<(Vec<Computed>, Option<OwnedSemaphorePermit>)>| {
                let items: Box<dyn Iterator<Item = Result<RecordBatch>> + Send> = match r {
                    Ok((chunks, permit)) => {
                        let (schema, columns) = (schema.clone(), columns.clone());
                        // The permit goes with the rows: the next setup is computed only once
                        // these are read (or dropped).
                        Box::new(chunks.into_iter().map(move |(c, weights)| {
                            let _held = &permit;
                            batch_with(&schema, &columns, c, weights.filter(|_| weighted))
                        }))
                    }
                    Err(e) => Box::new(std::iter::once(Err(e))),
                };
                futures::stream::iter(items)
            },
        );
        Box::pin(RecordBatchStreamAdapter::new(out, batches))
    }
}

/// The columns of the `setups` table, with their meanings.
pub const SETUP_COLUMNS: [(&str, &str); 7] = [
    (
        "setup",
        "the setup's name as `stats` prints it: 'none' or the square of the T",
    ),
    (
        "t_square",
        "the square of the T, 0-15 row by row; null without a T",
    ),
    ("boards", "reachable boards"),
    ("x_won", "reachable boards that X has won"),
    ("o_won", "reachable boards that O has won"),
    ("draw", "reachable full boards without a line"),
    ("not_completed", "reachable boards where the game goes on"),
];

/// The `setups` table: one row per selected setup, counted when a query reads it.
#[derive(Debug)]
pub struct SetupsTable {
    geometry: Geometry,
    setups: Vec<u16>,
}

impl SetupsTable {
    /// The table over `setups` of geometry `g`.
    pub fn new(g: &Geometry, setups: &[u16]) -> SetupsTable {
        SetupsTable {
            geometry: g.clone(),
            setups: setups.to_vec(),
        }
    }
}

fn setups_schema() -> SchemaRef {
    let fields: Vec<Field> = SETUP_COLUMNS
        .iter()
        .map(|&(name, _)| match name {
            "setup" => Field::new(name, DataType::Utf8, false),
            "t_square" => Field::new(name, DataType::Int32, true),
            _ => Field::new(name, DataType::Int64, false),
        })
        .collect();
    Arc::new(Schema::new(fields))
}

#[async_trait]
impl TableProvider for SetupsTable {
    fn schema(&self) -> SchemaRef {
        setups_schema()
    }

    fn table_type(&self) -> TableType {
        TableType::View
    }

    async fn scan(
        &self,
        _state: &dyn Session,
        projection: Option<&Vec<usize>>,
        _filters: &[Expr],
        _limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let partition = Arc::new(SetupsPartition {
            geometry: self.geometry.clone(),
            setups: self.setups.clone(),
            schema: setups_schema(),
        });
        Ok(Arc::new(StreamingTableExec::try_new(
            setups_schema(),
            vec![partition],
            projection,
            None,
            false,
            None,
        )?))
    }
}

#[derive(Debug)]
struct SetupsPartition {
    geometry: Geometry,
    setups: Vec<u16>,
    schema: SchemaRef,
}

impl PartitionStream for SetupsPartition {
    fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    fn execute(&self, _ctx: Arc<TaskContext>) -> SendableRecordBatchStream {
        let (g, setups, schema) = (
            self.geometry.clone(),
            self.setups.clone(),
            self.schema.clone(),
        );
        let out = schema.clone();
        let batch = futures::stream::once(async move {
            let counts = tokio::task::spawn_blocking(move || {
                use rayon::prelude::*;
                setups
                    .par_iter()
                    .map(|&t| (t, ByStatus::sum(&count_setup(&g, t))))
                    .collect::<Vec<_>>()
            })
            .await
            .map_err(panic_or_error)?;
            let long = |f: &dyn Fn(&ByStatus<u64>) -> u64| -> ArrayRef {
                Arc::new(Int64Array::from_iter_values(
                    counts.iter().map(|(_, c)| f(c) as i64),
                ))
            };
            let arrays: Vec<ArrayRef> = vec![
                Arc::new(StringArray::from_iter_values(
                    counts.iter().map(|&(t, _)| setup_name(t)),
                )),
                Arc::new(Int32Array::from_iter(
                    counts
                        .iter()
                        .map(|&(t, _)| (t != 0).then(|| t.trailing_zeros() as i32)),
                )),
                long(&|c| c.total()),
                long(&|c| c.x_won),
                long(&|c| c.o_won),
                long(&|c| c.draw),
                long(&|c| c.open),
            ];
            Ok(RecordBatch::try_new(schema, arrays)?)
        });
        Box::pin(RecordBatchStreamAdapter::new(out, batch))
    }
}
