//! A query's rows written out: an aligned table for people (bounded, since it is held whole to
//! align it), CSV and JSON streamed a batch at a time, and Parquet.

use crate::output::{AtomicFile, Table};
use crate::sql::{QueryError, Rows};
use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::error::ArrowError;
use datafusion::arrow::util::display::{ArrayFormatter, FormatOptions};
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::basic::{Compression, ZstdLevel};
use datafusion::parquet::file::properties::WriterProperties;
use datafusion::parquet::schema::types::ColumnPath;
use std::io::Write;
use std::path::Path;

/// The most rows an aligned table holds; past it the query stops with a message.
pub const MAX_TABLE_ROWS: usize = 1_000_000;

/// Why writing the rows failed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The query failed while it ran.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// A row could not be encoded.
    #[error("{0}")]
    Arrow(#[from] ArrowError),
    /// The Parquet writer failed.
    #[error("{0}")]
    Parquet(#[from] datafusion::parquet::errors::ParquetError),
    /// The output could not be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Too many rows for a table.
    #[error(
        "the result has more than {MAX_TABLE_ROWS} rows, too many for a table: add LIMIT, or \
         write it with --format csv, json or parquet"
    )]
    TooManyRows,
}

/// The cells of a batch as text, `NULL` for nulls.
fn cells(batch: &RecordBatch, null: &str) -> Result<Vec<Vec<String>>, ArrowError> {
    let options = FormatOptions::default().with_null(null);
    let formatters = batch
        .columns()
        .iter()
        .map(|a| ArrayFormatter::try_new(a.as_ref(), &options))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((0..batch.num_rows())
        .map(|i| formatters.iter().map(|f| f.value(i).to_string()).collect())
        .collect())
}

/// Every row in an aligned table.
pub fn table(rows: &mut Rows<'_>) -> Result<Table, WriteError> {
    let schema = rows.schema();
    let mut table = Table::new(schema.fields().iter().map(|f| f.name().clone()));
    while let Some(batch) = rows.next_batch() {
        let batch = batch?;
        if table.rows.len() + batch.num_rows() > MAX_TABLE_ROWS {
            return Err(WriteError::TooManyRows);
        }
        table.rows.extend(cells(&batch, "NULL")?);
    }
    Ok(table)
}

/// Every row as CSV with a header line; returns the number of rows.
pub fn csv(rows: &mut Rows<'_>, out: impl Write) -> Result<u64, WriteError> {
    let mut writer = datafusion::arrow::csv::WriterBuilder::new()
        .with_header(true)
        .build(out);
    let mut n = 0;
    let mut wrote = false;
    while let Some(batch) = rows.next_batch() {
        let batch = batch?;
        n += batch.num_rows() as u64;
        writer.write(&batch)?;
        wrote = true;
    }
    if !wrote {
        // No batch came, so the header is written from the schema alone.
        writer.write(&RecordBatch::new_empty(rows.schema()))?;
    }
    Ok(n)
}

/// Every row as one JSON array of objects, nulls written out; returns the number of rows.
pub fn json(rows: &mut Rows<'_>, mut out: impl Write) -> Result<u64, WriteError> {
    let mut n = 0;
    {
        let mut writer = datafusion::arrow::json::WriterBuilder::new()
            .with_explicit_nulls(true)
            .build::<_, datafusion::arrow::json::writer::JsonArray>(&mut out);
        while let Some(batch) = rows.next_batch() {
            let batch = batch?;
            n += batch.num_rows() as u64;
            writer.write(&batch)?;
        }
        writer.finish()?;
    }
    out.write_all(b"\n")?;
    Ok(n)
}

/// The writer settings of every Parquet file tomek writes: zstd at its fastest level, which
/// shrinks the repetitive board texts several times at little cost. The board texts, nearly
/// all distinct, skip the dictionary encoding, which would only fill a dictionary to throw it
/// away; counts keep it, since few of their values are distinct.
pub fn parquet_properties() -> WriterProperties {
    let mut builder = WriterProperties::builder()
        .set_compression(Compression::ZSTD(
            ZstdLevel::try_new(1).expect("a valid level"),
        ))
        .set_created_by(format!("tomek {}", env!("CARGO_PKG_VERSION")));
    for column in ["board", "orbit", "orbit_dihedral"] {
        builder = builder.set_column_dictionary_enabled(ColumnPath::from(column), false);
    }
    builder.build()
}

/// Every row into a Parquet file, replaced atomically; returns the number of rows.
pub fn parquet(rows: &mut Rows<'_>, path: &Path) -> Result<u64, WriteError> {
    let file = AtomicFile::create(path)?;
    let mut writer = ArrowWriter::try_new(file, rows.schema(), Some(parquet_properties()))?;
    let mut n = 0;
    while let Some(batch) = rows.next_batch() {
        let batch = batch?;
        n += batch.num_rows() as u64;
        writer.write(&batch)?;
    }
    writer.into_inner()?.commit()?;
    Ok(n)
}
