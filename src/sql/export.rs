//! The `boards` table as Parquet files in the Hive layout: one directory per setup,
//! `DIR/setup=none/`, `DIR/setup=0/`, …, each holding one file. DuckDB, Polars, pyarrow and
//! Spark read the directory as one table (with `setup` as a column from the paths), and so
//! does any engine that reads a partitioned data set. A problem of the family other than Code
//! Jam's is exported the same way, its own `boards` table ([`export_problem`]).
//!
//! The directory is written whole or not at all: the files go to a temporary sibling that is
//! renamed into place at the end.

use crate::output::AtomicDir;
use crate::problem::Problem;
use crate::problem::facts::Values;
use crate::sql::family::{self, FamilyColumn};
use crate::sql::output::parquet_properties;
use crate::sql::tables::{batch, boards_schema};
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::stats::setup_name;
use crate::tictactoe::table::{Column, TableSpec};
use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::parquet::arrow::ArrowWriter;
use rayon::prelude::*;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The name of each setup's file inside its directory.
pub const FILE_NAME: &str = "boards.parquet";

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The target holds something else than an export.
    #[error("{0} exists and is not an export (only setup=… directories); refusing to replace it")]
    NotAnExport(PathBuf),
    /// The target is an export and replacing was not asked for.
    #[error("{0} exists; use --force to replace it")]
    Exists(PathBuf),
    /// A file could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The Parquet writer or the Arrow arrays failed.
    #[error("{path}: {message}")]
    Encode {
        /// The file.
        path: PathBuf,
        /// The encoder's message.
        message: String,
    },
}

/// What an export wrote: per setup its directory name, rows and bytes.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Exported {
    /// The directory written.
    pub dir: PathBuf,
    /// `(partition directory, rows, bytes)` per setup, in setup order.
    pub parts: Vec<(String, u64, u64)>,
}

impl Exported {
    /// Rows over every setup.
    pub fn rows(&self) -> u64 {
        self.parts.iter().map(|p| p.1).sum()
    }

    /// Bytes over every file.
    pub fn bytes(&self) -> u64 {
        self.parts.iter().map(|p| p.2).sum()
    }
}

/// Whether `dir` may receive an export, and whether one is there to replace.
fn check_target(dir: &Path, force: bool) -> Result<bool, ExportError> {
    let at = |source| ExportError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(at(e)),
    };
    let mut any = false;
    for entry in entries {
        let entry = entry.map_err(at)?;
        any = true;
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with("setup=") || !entry.path().is_dir() {
            return Err(ExportError::NotAnExport(dir.to_path_buf()));
        }
    }
    if any && !force {
        return Err(ExportError::Exists(dir.to_path_buf()));
    }
    Ok(any)
}

/// Writes `columns` of the `boards` table of `setups` to `dir`; `done(rows)` is called as each
/// setup is written (from any thread). An export already at `dir` is replaced only with
/// `force`.
pub fn export(
    g: &Geometry,
    setups: &[u16],
    columns: &[Column],
    dir: &Path,
    force: bool,
    done: impl Fn(u64) + Sync,
) -> Result<Exported, ExportError> {
    let spec = TableSpec::new(g, columns);
    let schema = boards_schema(columns);
    write_setups(dir, force, setups, &schema, done, |t, write| {
        for chunk in spec.setup(t) {
            write(batch(&schema, columns, chunk).map_err(|e| e.to_string())?)?;
        }
        Ok(())
    })
}

/// [`export`] for a problem of the family other than Code Jam's: `columns` of its `boards`
/// table ([`family`]), one partition per setup (`setup=none` alone without a joker). The
/// steps of a setup are computed a few at a time in parallel and written in order, so the
/// rows held stay a few batches however large the input space.
pub fn export_problem(
    p: &Problem,
    setups: &[u16],
    columns: &[FamilyColumn],
    dir: &Path,
    force: bool,
    done: impl Fn(u64) + Sync,
) -> Result<Exported, ExportError> {
    let schema = family::schema(columns);
    let values = family::needs_values(p, columns).then(|| Mutex::new(Values::new()));
    let window = rayon::current_num_threads().max(1);
    write_setups(dir, force, setups, &schema, done, |t, write| {
        for steps in family::steps(p, t).chunks(window) {
            let batches = steps
                .par_iter()
                .map(|&step| {
                    let rows = family::rows(p, step, values.as_ref())?;
                    family::batch(p, &schema, columns, &rows).map_err(|e| e.to_string())
                })
                .collect::<Result<Vec<_>, String>>()?;
            for b in batches.into_iter().filter(|b| b.num_rows() > 0) {
                write(b)?;
            }
        }
        Ok(())
    })
}

/// Writes one file of `schema` per setup into `dir` (replaced only with `force`), its batches
/// from `fill(t, write)`; the directory appears whole at the end or not at all.
fn write_setups(
    dir: &Path,
    force: bool,
    setups: &[u16],
    schema: &SchemaRef,
    done: impl Fn(u64) + Sync,
    fill: impl Fn(u16, &mut dyn FnMut(RecordBatch) -> Result<(), String>) -> Result<(), String> + Sync,
) -> Result<Exported, ExportError> {
    let replace = check_target(dir, force)?;
    let out = AtomicDir::create(dir, replace).map_err(|source| ExportError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    // Two setups at a time at most: each holds its rows until written, and the threads are
    // kept busy inside a setup as well.
    let parts = setups
        .par_iter()
        .with_max_len(1)
        .map(|&t| {
            let name = format!("setup={}", setup_name(t));
            let part = out.path().join(&name);
            let path = part.join(FILE_NAME);
            let io_at = |p: &Path| {
                let p = p.to_path_buf();
                move |source| ExportError::Io { path: p, source }
            };
            let encode = |e: &dyn std::fmt::Display| ExportError::Encode {
                path: dir.join(&name).join(FILE_NAME),
                message: e.to_string(),
            };
            fs::create_dir(&part).map_err(io_at(&part))?;
            let file = fs::File::create(&path).map_err(io_at(&path))?;
            let mut writer = ArrowWriter::try_new(
                io::BufWriter::with_capacity(1 << 20, file),
                schema.clone(),
                Some(parquet_properties()),
            )
            .map_err(|e| encode(&e))?;
            let mut rows = 0u64;
            fill(t, &mut |b: RecordBatch| {
                rows += b.num_rows() as u64;
                writer.write(&b).map_err(|e| e.to_string())
            })
            .map_err(|e| encode(&e))?;
            let file = writer
                .into_inner()
                .map_err(|e| encode(&e))?
                .into_inner()
                .map_err(|e| io_at(&path)(e.into_error()))?;
            file.sync_all().map_err(io_at(&path))?;
            let bytes = file.metadata().map_err(io_at(&path))?.len();
            done(rows);
            Ok((name, rows, bytes))
        })
        .collect::<Result<Vec<_>, ExportError>>()?;
    out.commit().map_err(|source| ExportError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    Ok(Exported {
        dir: dir.to_path_buf(),
        parts,
    })
}
