//! Aggregates over the columns that counts describe, answered from the counts.
//!
//! A query such as `SELECT status, ply, count(*) FROM boards GROUP BY status, ply` reads only
//! columns fixed by a board's setup, ply and status. Its rows then come in runs of equal rows,
//! one run per setup, ply and status, so an aggregate over them can read one row per run with
//! the run's length as a weight: `count(*)` becomes the sum of the weights, `count(x)` the sum
//! of the weights where `x` is not null, `sum(x)` the sum of `x` times the weight, and `min`,
//! `max` and every `DISTINCT` aggregate read the runs as they are, since repeating a row does
//! not change them. Filters and projections between the aggregate and the table act row by
//! row, so they act on runs alike, as long as they are not volatile.
//!
//! The same holds for any columns with few values ([`TableColumn::small`]: numbers, words,
//! truth values), whose equal rows the scan collapses into runs as it computes them. The other
//! columns (texts and counts) take too many values to be collapsed on, but an aggregate that
//! only takes their `min`, `max`, `sum` or `count` can be answered from runs all the same: the
//! scan folds them over each run (`max(board)` becomes the `max` of each run's largest board,
//! `sum(games_x)` the `sum` of each run's sum), so 61 million rows reach the engine as a few
//! thousand.
//!
//! [`RunsRule`] rewrites such plans before they run; any plan it does not recognise it leaves
//! alone, to be answered row by row.

use crate::sql::tables::{BoardsTable, fold_name};
use crate::tictactoe::table::{Column as TableColumn, Fold};
use datafusion::common::tree_node::{Transformed, TreeNode, TreeNodeRecursion};
use datafusion::common::{Column, Result};
use datafusion::datasource::{provider_as_source, source_as_provider};
use datafusion::functions_aggregate::sum::sum;
use datafusion::logical_expr::{
    Aggregate, Expr, ExprSchemable, Filter, LogicalPlan, Projection, SubqueryAlias,
    TableScanBuilder, lit, when,
};
use datafusion::optimizer::{ApplyOrder, OptimizerConfig, OptimizerRule};
use std::sync::Arc;

/// The name of the weight column of a scan of runs: the number of equal rows a row stands for.
pub const WEIGHT: &str = "__tomek_run_length";

/// The optimizer rule that answers aggregates over counted columns from runs.
#[derive(Debug, Default)]
pub struct RunsRule;

impl OptimizerRule for RunsRule {
    fn name(&self) -> &str {
        "tomek_aggregate_runs"
    }

    fn apply_order(&self) -> Option<ApplyOrder> {
        Some(ApplyOrder::TopDown)
    }

    fn rewrite(
        &self,
        plan: LogicalPlan,
        _config: &dyn OptimizerConfig,
    ) -> Result<Transformed<LogicalPlan>> {
        let LogicalPlan::Aggregate(aggregate) = &plan else {
            return Ok(Transformed::no(plan));
        };
        // A plan the rule cannot rebuild is answered row by row, never refused.
        match on_runs(aggregate) {
            Some(rewritten) => Ok(Transformed::yes(rewritten)),
            None => Ok(Transformed::no(plan)),
        }
    }
}

/// Whether an expression may be evaluated once per run instead of once per row.
fn row_wise(e: &Expr) -> bool {
    if e.is_volatile() {
        return false;
    }
    let mut plain = true;
    let _ = e.apply(|e| {
        if matches!(
            e,
            Expr::ScalarSubquery(_) | Expr::Exists(_) | Expr::InSubquery(_)
        ) {
            plain = false;
            return Ok(TreeNodeRecursion::Stop);
        }
        Ok(TreeNodeRecursion::Continue)
    });
    plain
}

/// The column of `boards` a name stands for, when it is one that is folded rather than
/// collapsed on.
fn large(name: &str) -> Option<TableColumn> {
    TableColumn::from_name(name).filter(|c| !c.small())
}

/// Whether an expression reads a column named as one in `folds`.
fn reads_folded(e: &Expr, folds: &[(TableColumn, Fold)]) -> bool {
    e.column_refs()
        .iter()
        .any(|c| folds.iter().any(|&(f, _)| f.name() == c.name))
}

/// `plan` reading runs instead of rows, with the column holding each row's weight; `None`
/// unless `plan` is filters, projections and aliases over a scan of small `boards` columns and
/// of the large columns in `folds`, which nothing but the folds may read (projections pass
/// them on untouched).
fn weigh(plan: &LogicalPlan, folds: &[(TableColumn, Fold)]) -> Option<(LogicalPlan, Column)> {
    match plan {
        LogicalPlan::TableScan(scan) => {
            let provider = source_as_provider(&scan.source).ok()?;
            let table = provider.downcast_ref::<BoardsTable>()?;
            if table.runs() || scan.fetch.is_some() || !scan.filters.iter().all(row_wise) {
                return None;
            }
            if scan.filters.iter().any(|f| reads_folded(f, folds)) {
                return None;
            }
            let all = TableColumn::ALL.len();
            let read = scan.projection.clone().unwrap_or((0..all).collect());
            let (small, large): (Vec<usize>, Vec<usize>) =
                read.into_iter().partition(|&i| TableColumn::ALL[i].small());
            // Every large column read is folded, and every fold reads a column the scan reads.
            if !large
                .iter()
                .all(|&i| folds.iter().any(|&(c, _)| c == TableColumn::ALL[i]))
                || !folds
                    .iter()
                    .all(|(c, _)| large.iter().any(|&i| TableColumn::ALL[i] == *c))
            {
                return None;
            }
            let mut projection = small;
            projection.extend((0..=folds.len()).map(|i| all + i));
            let source = provider_as_source(Arc::new(table.of_runs(folds)));
            let runs = TableScanBuilder::new(scan.table_name.clone(), source)
                .with_projection(Some(projection))
                .with_filters(scan.filters.clone())
                .build()
                .ok()?;
            let weight = Column::new(Some(scan.table_name.clone()), WEIGHT);
            Some((LogicalPlan::TableScan(runs), weight))
        }
        LogicalPlan::Filter(f) => {
            if !row_wise(&f.predicate) || reads_folded(&f.predicate, folds) {
                return None;
            }
            let (input, weight) = weigh(&f.input, folds)?;
            let filter = Filter::try_new(f.predicate.clone(), Arc::new(input)).ok()?;
            Some((LogicalPlan::Filter(filter), weight))
        }
        LogicalPlan::Projection(p) => {
            // A folded column may only pass through, under its own name.
            let passed = |e: &Expr| !reads_folded(e, folds) || matches!(e, Expr::Column(_));
            if !p.expr.iter().all(|e| row_wise(e) && passed(e)) {
                return None;
            }
            let (input, weight) = weigh(&p.input, folds)?;
            // A folded column passes on as its folds.
            let mut exprs = Vec::with_capacity(p.expr.len() + folds.len());
            for e in &p.expr {
                match e {
                    Expr::Column(c) if reads_folded(e, folds) => {
                        exprs.extend(folds.iter().filter(|(f, _)| f.name() == c.name).map(
                            |&(f, fold)| {
                                Expr::Column(Column::new(c.relation.clone(), fold_name(f, fold)))
                            },
                        ))
                    }
                    other => exprs.push(other.clone()),
                }
            }
            exprs.push(Expr::Column(weight.clone()));
            let projection = Projection::try_new(exprs, Arc::new(input)).ok()?;
            Some((LogicalPlan::Projection(projection), weight))
        }
        LogicalPlan::SubqueryAlias(a) => {
            let (input, _) = weigh(&a.input, folds)?;
            let alias = SubqueryAlias::try_new(Arc::new(input), a.alias.clone()).ok()?;
            let weight = Column::new(Some(a.alias.clone()), WEIGHT);
            Some((LogicalPlan::SubqueryAlias(alias), weight))
        }
        _ => None,
    }
}

/// What an aggregate folds: `Some(None)` when it reads no large column, `Some(Some(fold))`
/// when it is `min`, `max`, `sum` or `count` of one large column (a `count` is marked as a
/// `min`: any fold makes the scan read the column), and `None` when it reads a large column
/// any other way.
fn folded(e: &Expr) -> Option<Option<(TableColumn, Fold)>> {
    let inner = match e {
        Expr::Alias(a) => a.expr.as_ref(),
        other => other,
    };
    if !e.column_refs().iter().any(|c| large(&c.name).is_some()) {
        return Some(None);
    }
    let Expr::AggregateFunction(f) = inner else {
        return None;
    };
    let params = &f.params;
    if params.distinct || params.filter.is_some() || !params.order_by.is_empty() {
        return None;
    }
    let [Expr::Column(col)] = params.args.as_slice() else {
        return None;
    };
    let c = large(&col.name)?;
    let fold = match f.func.name() {
        "min" | "count" => Fold::Min,
        "max" => Fold::Max,
        "sum" if c.kind() == crate::tictactoe::table::Kind::Long => Fold::Sum,
        _ => return None,
    };
    Some(Some((c, fold)))
}

/// The aggregate over runs, under a projection that gives back the aggregate's own schema.
fn on_runs(aggregate: &Aggregate) -> Option<LogicalPlan> {
    if !aggregate
        .group_expr
        .iter()
        .all(|e| row_wise(e) && !matches!(e, Expr::GroupingSet(_)))
    {
        return None;
    }
    // The large columns the aggregates fold, each fold once.
    let mut folds: Vec<(TableColumn, Fold)> = Vec::new();
    for e in &aggregate.aggr_expr {
        if let Some(fold) = folded(e)?
            && !folds.contains(&fold)
        {
            folds.push(fold);
        }
    }
    if aggregate
        .group_expr
        .iter()
        .any(|e| e.column_refs().iter().any(|c| large(&c.name).is_some()))
    {
        return None;
    }
    let (input, weight) = weigh(&aggregate.input, &folds)?;
    let w = Expr::Column(weight);
    let input_schema = input.schema().clone();
    // Per aggregate: its expression over runs, and whether an empty input must read 0.
    let mut over_runs = Vec::with_capacity(aggregate.aggr_expr.len());
    for e in &aggregate.aggr_expr {
        let inner = match e {
            Expr::Alias(a) => a.expr.as_ref(),
            other => other,
        };
        let Expr::AggregateFunction(f) = inner else {
            return None;
        };
        let params = &f.params;
        if params.filter.is_some() || !params.order_by.is_empty() {
            return None;
        }
        let name = f.func.name();
        let rewritten = if let Some((c, fold)) = folded(e)? {
            let [Expr::Column(col)] = params.args.as_slice() else {
                unreachable!("a fold reads one column");
            };
            if name == "count" {
                // A large column is never null: its count is the rows'.
                (sum(w.clone()), true)
            } else {
                let mut over = f.clone();
                over.params.args = vec![Expr::Column(Column::new(
                    col.relation.clone(),
                    fold_name(c, fold),
                ))];
                (Expr::AggregateFunction(over), false)
            }
        } else if params.distinct || matches!(name, "min" | "max") {
            (inner.clone(), false)
        } else {
            let [arg] = params.args.as_slice() else {
                return None;
            };
            match name {
                "count" => {
                    let counted = match arg {
                        Expr::Literal(v, _) if !v.is_null() => w.clone(),
                        _ => when(arg.clone().is_null(), lit(0i64))
                            .otherwise(w.clone())
                            .ok()?,
                    };
                    (sum(counted), true)
                }
                "sum" => {
                    let ty = arg.get_type(input_schema.as_ref()).ok()?;
                    if !ty.is_integer() {
                        return None;
                    }
                    (sum(arg.clone() * w.clone()), false)
                }
                _ => return None,
            }
        };
        over_runs.push(rewritten);
    }
    let groups = aggregate.group_expr.len();
    let inner_names: Vec<String> = (0..over_runs.len())
        .map(|i| format!("__tomek_aggregate_{i}"))
        .collect();
    let aggr_expr = over_runs
        .iter()
        .zip(&inner_names)
        .map(|((e, _), name)| e.clone().alias(name))
        .collect();
    let inner =
        Aggregate::try_new(Arc::new(input), aggregate.group_expr.clone(), aggr_expr).ok()?;
    let inner_schema = inner.schema.clone();
    let mut exprs = Vec::with_capacity(groups + over_runs.len());
    for i in 0..groups {
        exprs.push(Expr::Column(Column::from(inner_schema.qualified_field(i))));
    }
    for (i, (_, zero_when_empty)) in over_runs.iter().enumerate() {
        let value = Expr::Column(Column::from(inner_schema.qualified_field(groups + i)));
        let value = if *zero_when_empty {
            when(value.clone().is_null(), lit(0i64))
                .otherwise(value)
                .ok()?
        } else {
            value
        };
        let (qualifier, field) = aggregate.schema.qualified_field(groups + i);
        exprs.push(value.alias_qualified(qualifier.cloned(), field.name()));
    }
    let projection = Projection::try_new(exprs, Arc::new(LogicalPlan::Aggregate(inner))).ok()?;
    Some(LogicalPlan::Projection(projection))
}
