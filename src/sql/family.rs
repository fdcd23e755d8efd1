//! The `boards` table of a problem of the family other than Code Jam's (`--problem`): one row
//! per position of the problem's input space, with the facts its verdict rules read and the
//! verdict they give. Code Jam's own problem keeps the table of [`super::tables`], which its
//! specialised path computes.
//!
//! The grids are walked in the order of [`Problem::positions`], cut into steps of [`STEP`]
//! grids. A step is computed on a blocking thread when it is read and handed out as one batch,
//! so a scan holds one batch per partition however large the space: a 4×4 board has 43 million
//! grids, and its ten million reachable positions pass through a few batches at a time.

use crate::problem::Problem;
use crate::problem::description::VALUE_WORDS;
use crate::problem::facts::{self, Facts, Line, Next, Values, Winner};
use crate::tictactoe::board::Board;
use crate::tictactoe::reach::Checks;
use async_trait::async_trait;
use datafusion::arrow::array::{
    ArrayRef, BooleanArray, DictionaryArray, Int32Array, PrimitiveArray, RecordBatch,
    RecordBatchOptions, StringArray,
};
use datafusion::arrow::datatypes::{
    ArrowDictionaryKeyType, DataType, Field, Int8Type, Int16Type, Schema, SchemaRef,
};
use datafusion::catalog::Session;
use datafusion::datasource::{TableProvider, TableType};
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::logical_expr::Expr;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::streaming::{PartitionStream, StreamingTableExec};
use std::sync::{Arc, Mutex};

/// Grids per step: a whole 3×3 setup (3⁹), a 2,187th of a 4×4 one.
pub const STEP: u64 = 19_683;

/// A column of a problem's `boards` table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FamilyColumn {
    /// The position in the problem's symbols.
    Board,
    /// The joker's square (problems with a joker only).
    TSquare,
    /// Whether play reaches the position.
    Reachable,
    /// Who has a line.
    Line,
    /// Whether the board is full.
    Full,
    /// Who moves next by the counts.
    Next,
    /// Whether someone has a line or the board is full.
    Over,
    /// Stones on the board.
    Ply,
    /// Perfect play for the side to move.
    Value,
    /// Who wins under perfect play.
    Winner,
    /// The problem's answer.
    Verdict,
}

impl FamilyColumn {
    /// Every column, in the table's order.
    pub const ALL: [FamilyColumn; 11] = [
        FamilyColumn::Board,
        FamilyColumn::TSquare,
        FamilyColumn::Reachable,
        FamilyColumn::Line,
        FamilyColumn::Full,
        FamilyColumn::Next,
        FamilyColumn::Over,
        FamilyColumn::Ply,
        FamilyColumn::Value,
        FamilyColumn::Winner,
        FamilyColumn::Verdict,
    ];

    /// The columns of `p`'s table, in order: `t_square` only where the board has a joker.
    pub fn of(p: &Problem) -> Vec<FamilyColumn> {
        FamilyColumn::ALL
            .into_iter()
            .filter(|&c| c != FamilyColumn::TSquare || p.geometry.joker)
            .collect()
    }

    /// Its name in SQL and in the exported files: the fact's name in a description.
    pub fn name(self) -> &'static str {
        match self {
            FamilyColumn::Board => "board",
            FamilyColumn::TSquare => "t_square",
            FamilyColumn::Reachable => "reachable",
            FamilyColumn::Line => "line",
            FamilyColumn::Full => "full",
            FamilyColumn::Next => "next",
            FamilyColumn::Over => "over",
            FamilyColumn::Ply => "ply",
            FamilyColumn::Value => "value",
            FamilyColumn::Winner => "winner",
            FamilyColumn::Verdict => "verdict",
        }
    }

    /// The column of a name.
    pub fn from_name(name: &str) -> Option<FamilyColumn> {
        FamilyColumn::ALL.into_iter().find(|c| c.name() == name)
    }

    /// What it means for `p`, in one line.
    pub fn meaning(self, p: &Problem) -> String {
        let quoted = |words: &[&str]| {
            let w: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
            w.join(", ")
        };
        match self {
            FamilyColumn::Board => {
                let s = p.symbols;
                let mut symbols = vec![s.first, s.second, s.empty];
                symbols.extend(s.joker);
                let symbols: Vec<String> =
                    symbols.iter().map(|&c| (c as char).to_string()).collect();
                format!(
                    "the position in the problem's symbols ({}), rows joined by '/'",
                    symbols.join(" ")
                )
            }
            FamilyColumn::TSquare => {
                "the square of the joker, 0 up row by row; null without the joker".to_string()
            }
            FamilyColumn::Reachable => {
                "whether play reaches the position (the first player first, play stopping at \
                 the first line)"
                    .to_string()
            }
            FamilyColumn::Line => format!(
                "who has a whole line, the joker counting for both: {}",
                quoted(&Line::WORDS.map(|(w, _)| w))
            ),
            FamilyColumn::Full => "whether every square holds a stone or the joker".to_string(),
            FamilyColumn::Next => format!(
                "who moves next by the stone counts: {}",
                quoted(&Next::WORDS.map(|(w, _)| w))
            ),
            FamilyColumn::Over => "whether someone has a line or the board is full".to_string(),
            FamilyColumn::Ply => "stones on the board (both players')".to_string(),
            FamilyColumn::Value => format!(
                "perfect play for the side to move: {}; null unless reachable and not over",
                quoted(&VALUE_WORDS.map(|(w, _)| w))
            ),
            FamilyColumn::Winner => format!(
                "who wins under perfect play (who won, once over): {}; null unless reachable",
                quoted(&Winner::WORDS.map(|(w, _)| w))
            ),
            FamilyColumn::Verdict => format!(
                "the answer the problem's rules give: {}",
                quoted(&p.answers())
            ),
        }
    }

    /// The Arrow type: words as dictionaries of a few strings (the verdicts, of as many as a
    /// description has answers), the ply as a 32-bit integer as Code Jam's table has it.
    pub fn data_type(self) -> DataType {
        let words = |key: DataType| DataType::Dictionary(Box::new(key), Box::new(DataType::Utf8));
        match self {
            FamilyColumn::Board => DataType::Utf8,
            FamilyColumn::TSquare | FamilyColumn::Ply => DataType::Int32,
            FamilyColumn::Reachable | FamilyColumn::Full | FamilyColumn::Over => DataType::Boolean,
            FamilyColumn::Line
            | FamilyColumn::Next
            | FamilyColumn::Value
            | FamilyColumn::Winner => words(DataType::Int8),
            FamilyColumn::Verdict => words(DataType::Int16),
        }
    }

    /// Whether it may be null.
    pub fn nullable(self) -> bool {
        matches!(
            self,
            FamilyColumn::TSquare | FamilyColumn::Value | FamilyColumn::Winner
        )
    }

    /// Whether computing it searches perfect play.
    fn needs_values(self) -> bool {
        matches!(self, FamilyColumn::Value | FamilyColumn::Winner)
    }
}

/// The schema of `columns`.
pub fn schema(columns: &[FamilyColumn]) -> SchemaRef {
    Arc::new(Schema::new(
        columns
            .iter()
            .map(|&c| Field::new(c.name(), c.data_type(), c.nullable()))
            .collect::<Vec<_>>(),
    ))
}

/// Grids `start..end` of one setup, numbered as [`Problem::positions`] numbers them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The joker's mask, 0 without it.
    pub t: u16,
    /// The first grid.
    pub start: u64,
    /// One past the last grid.
    pub end: u64,
}

/// The steps of setup `t` of `p`, in order.
pub fn steps(p: &Problem, t: u16) -> Vec<Step> {
    let free = p.geometry.cells() - t.count_ones();
    let total = 3u64.pow(free);
    (0..total.div_ceil(STEP))
        .map(|i| Step {
            t,
            start: i * STEP,
            end: ((i + 1) * STEP).min(total),
        })
        .collect()
}

/// The grid numbered `code` of setup `t`: base 3 over the squares without the joker, the
/// first square the lowest digit (0 empty, 1 first player, 2 second player).
fn grid(cells: u32, t: u16, mut code: u64) -> Board {
    let mut b = Board::empty(t);
    for s in (0..cells).filter(|&s| t >> s & 1 == 0) {
        match code % 3 {
            1 => b.x |= 1 << s,
            2 => b.o |= 1 << s,
            _ => {}
        }
        code /= 3;
    }
    b
}

/// A position of the input space with its facts and the index of its verdict rule.
pub type Row = (Board, Facts, usize);

/// The positions of the input space among the grids of `step`, with their facts (perfect play
/// from `values` when given) and verdicts.
pub fn rows(p: &Problem, step: Step, values: Option<&Mutex<Values>>) -> Result<Vec<Row>, String> {
    let g = &p.geometry;
    let mut out = Vec::new();
    for code in step.start..step.end {
        let b = grid(g.cells(), step.t, code);
        if !p.in_space(b) {
            continue;
        }
        let f = match values {
            Some(v) => {
                let mut v = v.lock().unwrap_or_else(|e| e.into_inner());
                facts::facts_with(g, b, Checks::ALL, Some(&mut *v))
            }
            None => facts::facts_with(g, b, Checks::ALL, None),
        };
        let verdict = p.verdict_of(&f).ok_or_else(|| {
            format!(
                "{}: no rule matches the position {}",
                p.origin,
                p.grid_text(b)
            )
        })?;
        out.push((b, f, verdict));
    }
    Ok(out)
}

/// Whether reading `columns` of `p` searches perfect play: they hold it, or the rules read it.
pub fn needs_values(p: &Problem, columns: &[FamilyColumn]) -> bool {
    p.needs_values() || columns.iter().any(|c| c.needs_values())
}

/// Words as a dictionary array: `keys` index `words`, a missing key is a null.
fn words<K: ArrowDictionaryKeyType>(
    keys: impl Iterator<Item = Option<K::Native>>,
    words: &[&str],
) -> Result<ArrayRef> {
    let keys: PrimitiveArray<K> = keys.collect();
    let values = Arc::new(StringArray::from(words.to_vec()));
    Ok(Arc::new(DictionaryArray::<K>::try_new(keys, values)?))
}

/// One column of `rows` as an Arrow array.
fn array(p: &Problem, c: FamilyColumn, rows: &[Row]) -> Result<ArrayRef> {
    let facts = || rows.iter().map(|r| r.1);
    Ok(match c {
        FamilyColumn::Board => Arc::new(StringArray::from_iter_values(
            rows.iter().map(|r| p.grid_text(r.0)),
        )),
        FamilyColumn::TSquare => Arc::new(Int32Array::from_iter(
            rows.iter()
                .map(|r| (r.0.t != 0).then(|| r.0.t.trailing_zeros() as i32)),
        )),
        FamilyColumn::Reachable => {
            Arc::new(facts().map(|f| Some(f.reachable)).collect::<BooleanArray>())
        }
        FamilyColumn::Full => Arc::new(facts().map(|f| Some(f.full)).collect::<BooleanArray>()),
        FamilyColumn::Over => Arc::new(facts().map(|f| Some(f.over)).collect::<BooleanArray>()),
        FamilyColumn::Ply => Arc::new(Int32Array::from_iter_values(facts().map(|f| f.ply as i32))),
        FamilyColumn::Line => words::<Int8Type>(
            facts().map(|f| Some(f.line as i8)),
            &Line::WORDS.map(|(w, _)| w),
        )?,
        FamilyColumn::Next => words::<Int8Type>(
            facts().map(|f| Some(f.next as i8)),
            &Next::WORDS.map(|(w, _)| w),
        )?,
        FamilyColumn::Value => words::<Int8Type>(
            facts().map(|f| f.value.map(|v| v as i8)),
            &VALUE_WORDS.map(|(w, _)| w),
        )?,
        FamilyColumn::Winner => words::<Int8Type>(
            facts().map(|f| f.winner.map(|w| w as i8)),
            &Winner::WORDS.map(|(w, _)| w),
        )?,
        FamilyColumn::Verdict => {
            let answers = p.answers();
            // Each position's answer (a template filled in) as an index into the distinct
            // answers.
            let cols = p.geometry.cols;
            words::<Int16Type>(
                rows.iter().map(|r| {
                    let a = p.verdicts[r.2].render(&r.1, cols);
                    Some(answers.iter().position(|x| *x == a).unwrap_or(0) as i16)
                }),
                &answers,
            )?
        }
    })
}

/// `rows` as a batch of `schema`, which holds `columns` in order.
pub fn batch(
    p: &Problem,
    schema: &SchemaRef,
    columns: &[FamilyColumn],
    rows: &[Row],
) -> Result<RecordBatch> {
    let arrays = columns
        .iter()
        .map(|&c| array(p, c, rows))
        .collect::<Result<Vec<_>>>()?;
    Ok(RecordBatch::try_new_with_options(
        schema.clone(),
        arrays,
        &RecordBatchOptions::new().with_row_count(Some(rows.len())),
    )?)
}

/// A problem's `boards` table over a choice of its setups.
#[derive(Debug)]
pub struct FamilyBoards {
    problem: Arc<Problem>,
    setups: Vec<u16>,
}

impl FamilyBoards {
    /// The table of `setups` of `p` (the problem's setups: `[0]` without a joker).
    pub fn new(p: &Problem, setups: &[u16]) -> FamilyBoards {
        FamilyBoards {
            problem: Arc::new(p.clone()),
            setups: setups.to_vec(),
        }
    }
}

/// A blocking task's result as the engine's; a panic, which is a bug, goes on as a panic.
fn joined<T>(r: std::result::Result<T, tokio::task::JoinError>) -> Result<T> {
    r.map_err(|e| {
        if e.is_panic() {
            std::panic::resume_unwind(e.into_panic());
        }
        DataFusionError::External(Box::new(e))
    })
}

#[async_trait]
impl TableProvider for FamilyBoards {
    fn schema(&self) -> SchemaRef {
        schema(&FamilyColumn::of(&self.problem))
    }

    fn table_type(&self) -> TableType {
        TableType::View
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        _filters: &[Expr],
        _limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let all = FamilyColumn::of(&self.problem);
        let columns: Vec<FamilyColumn> = match projection {
            Some(p) => p.iter().map(|&i| all[i]).collect(),
            None => all,
        };
        let schema = schema(&columns);
        let steps: Vec<Step> = self
            .setups
            .iter()
            .flat_map(|&t| steps(&self.problem, t))
            .collect();
        if steps.is_empty() {
            return Ok(Arc::new(datafusion::physical_plan::empty::EmptyExec::new(
                schema,
            )));
        }
        let n = state.config().target_partitions().clamp(1, steps.len());
        // One search table for the scan: perfect play from a position is the same in every
        // partition, and a 3×3 board's whole game fits in a few thousand entries.
        let values =
            needs_values(&self.problem, &columns).then(|| Arc::new(Mutex::new(Values::new())));
        let shared = Arc::new(Scan {
            problem: self.problem.clone(),
            columns,
            schema: schema.clone(),
            values,
        });
        let partitions: Vec<Arc<dyn PartitionStream>> = (0..n)
            .map(|k| {
                Arc::new(StepsPartition {
                    scan: shared.clone(),
                    steps: steps
                        .iter()
                        .copied()
                        .skip(k)
                        .step_by(n)
                        .collect::<Vec<_>>()
                        .into(),
                }) as Arc<dyn PartitionStream>
            })
            .collect();
        Ok(Arc::new(StreamingTableExec::try_new(
            schema, partitions, None, None, false, None,
        )?))
    }
}

/// What every partition of a scan shares.
struct Scan {
    problem: Arc<Problem>,
    columns: Vec<FamilyColumn>,
    schema: SchemaRef,
    values: Option<Arc<Mutex<Values>>>,
}

impl std::fmt::Debug for Scan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Scan({}, {:?})", self.problem.name, self.columns)
    }
}

impl Scan {
    /// The batch of one step, `None` when none of its grids is in the input space.
    fn step(&self, step: Step) -> Result<Option<RecordBatch>> {
        let rows = rows(&self.problem, step, self.values.as_deref())
            .map_err(DataFusionError::Execution)?;
        if rows.is_empty() {
            return Ok(None);
        }
        batch(&self.problem, &self.schema, &self.columns, &rows).map(Some)
    }
}

/// Every `n`-th step of a scan, one batch each, computed as it is read.
#[derive(Debug)]
struct StepsPartition {
    scan: Arc<Scan>,
    steps: Arc<[Step]>,
}

impl PartitionStream for StepsPartition {
    fn schema(&self) -> &SchemaRef {
        &self.scan.schema
    }

    fn execute(&self, _ctx: Arc<TaskContext>) -> SendableRecordBatchStream {
        let (scan, steps) = (self.scan.clone(), self.steps.clone());
        let batches = futures::stream::unfold(0usize, move |mut next| {
            let (scan, steps) = (scan.clone(), steps.clone());
            async move {
                while next < steps.len() {
                    let (s, step) = (scan.clone(), steps[next]);
                    next += 1;
                    let computed = joined(tokio::task::spawn_blocking(move || s.step(step)).await);
                    match computed.and_then(|r| r) {
                        Ok(None) => continue,
                        Ok(Some(b)) => return Some((Ok(b), next)),
                        // The stream ends at its first error.
                        Err(e) => return Some((Err(e), steps.len())),
                    }
                }
                None
            }
        });
        Box::pin(RecordBatchStreamAdapter::new(
            self.scan.schema.clone(),
            batches,
        ))
    }
}
