//! Problem packages in the Kattis problem package format (legacy version), the format Kattis
//! installs and DOMjudge imports: metadata, statement, sample and secret data, an input
//! validator, accepted and wrong submissions.
//!
//! A package is first built whole in memory ([`Package`]: relative path to bytes), then
//! written in one step, so nothing half-written is ever left behind:
//! - [`Package::write_dir`] writes a temporary sibling directory and renames it into place
//!   (an existing package is replaced only with `force`, and a non-empty directory that is
//!   not a package is never touched);
//! - [`Package::zip`] gives the same files as a ZIP archive with the files at its root, the
//!   layout DOMjudge's problem import expects, with fixed timestamps so that the same package
//!   always gives the same bytes.
//!
//! The two problems live in [`tictactoe`] and [`fourow`]; their judge programs are files under
//! `src/package/assets/`, embedded in the binary, so a package needs nothing but `tomek`. Any
//! other problem of the family ([`crate::problem`]) gets its package from [`family`], its
//! judge programs generated from its description.

pub mod family;
pub mod format;
pub mod fourow;
pub mod nearmiss;
pub mod polygon;
pub mod tictactoe;

pub use format::Format;

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Why a package could not be built or written.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// The target exists, is not empty and holds no `problem.yaml` (nor Polygon's
    /// `problem.xml`): it is not ours to replace.
    #[error(
        "{0} exists and is not a problem package (no problem.yaml or problem.xml); refusing to \
         replace it"
    )]
    NotAPackage(PathBuf),
    /// The target is a package already and replacing it was not asked for.
    #[error("{0} already holds a problem package; use --force to replace it")]
    Exists(PathBuf),
    /// The target exists and is not a directory.
    #[error("{0} exists and is not a directory")]
    NotADirectory(PathBuf),
    /// The directory's name is not a valid short name for the format.
    #[error(
        "`{0}` is not a valid package name: Kattis asks for a short name of lower-case letters \
         (a-z) and digits only, such as `tictactoetomek`"
    )]
    BadName(String),
    /// A file system operation failed.
    #[error("cannot write {}", .path.display())]
    Io {
        /// The path the operation was about.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The data could not be generated.
    #[error("cannot generate the test data: {0}")]
    Data(String),
    /// A catalogue of wrong solutions does not fit its reference solution (a build bug).
    #[error("the wrong solution `{0}` does not apply to the reference solution")]
    Patch(String),
}

/// Attaches a path to an I/O error.
fn io_at(path: &Path) -> impl FnOnce(io::Error) -> PackageError + '_ {
    move |source| PackageError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A problem package held in memory: each file's path inside the package (with `/`
/// separators) and its bytes, in path order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Package {
    /// The files, by path.
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Package {
    /// Adds (or replaces) a file.
    pub fn add(&mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.files.insert(path.into(), bytes.into());
    }

    /// Adds the judge's programs: the input validator, the accepted references (C++ and
    /// Python 3) and one wrong_answer program per wrong solution.
    pub fn add_programs(
        &mut self,
        validator: (&str, &str),
        accepted: [(&str, &str); 2],
        wrong: Vec<WrongSolution>,
    ) {
        self.add(format!("input_validators/{}", validator.0), validator.1);
        for (name, source) in accepted {
            self.add(format!("submissions/accepted/{name}"), source);
        }
        for w in wrong {
            self.add(format!("submissions/wrong_answer/{}.py", w.id), w.source);
        }
    }

    /// Adds a test case: `NAME.in`, `NAME.ans` and `NAME.desc` under `data/GROUP/`.
    pub fn add_case(&mut self, group: &str, name: &str, input: &[u8], answer: &[u8], desc: &str) {
        self.add(format!("data/{group}/{name}.in"), input);
        self.add(format!("data/{group}/{name}.ans"), answer);
        self.add(format!("data/{group}/{name}.desc"), desc);
    }

    /// The file at `path`, if any.
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).map(Vec::as_slice)
    }

    /// Writes the package as the directory `dir`, atomically: the files go to a temporary
    /// sibling, which is then renamed to `dir`. An existing package at `dir` is replaced only
    /// when `force` is set; an existing non-empty directory without `problem.yaml` is refused.
    /// On any failure `dir` is left as it was and the temporary directory is removed.
    pub fn write_dir(&self, dir: &Path, force: bool) -> Result<(), PackageError> {
        let existing = check_target(dir, force)?;
        let out = crate::output::AtomicDir::create(dir, matches!(existing, Existing::Replace))
            .map_err(io_at(dir))?;
        for (path, bytes) in &self.files {
            let target = out.path().join(path);
            if let Some(d) = target.parent() {
                fs::create_dir_all(d).map_err(io_at(d))?;
            }
            let mut f = fs::File::create(&target).map_err(io_at(&target))?;
            f.write_all(bytes).map_err(io_at(&target))?;
            f.sync_all().map_err(io_at(&target))?;
        }
        out.commit().map_err(io_at(dir))
    }

    /// The package as a ZIP archive with its files at the root (`problem.yaml`, `data/`, ...),
    /// as DOMjudge imports it. Entries are in path order with a fixed timestamp and mode, so
    /// the same package always gives the same bytes.
    pub fn zip(&self) -> Result<Vec<u8>, PackageError> {
        use zip::write::SimpleFileOptions;
        let zip_error = |e: zip::result::ZipError| PackageError::Io {
            path: PathBuf::from("<zip>"),
            source: io::Error::other(e),
        };
        let options = SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .last_modified_time(zip::DateTime::default())
            .unix_permissions(0o644);
        let mut w = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        let mut dirs = std::collections::BTreeSet::new();
        for path in self.files.keys() {
            let mut at = 0;
            while let Some(i) = path[at..].find('/') {
                dirs.insert(path[..at + i + 1].to_string());
                at += i + 1;
            }
        }
        for d in &dirs {
            w.add_directory(d.as_str(), options.unix_permissions(0o755))
                .map_err(zip_error)?;
        }
        for (path, bytes) in &self.files {
            w.start_file(path.as_str(), options).map_err(zip_error)?;
            w.write_all(bytes).map_err(io_at(Path::new(path)))?;
        }
        Ok(w.finish().map_err(zip_error)?.into_inner())
    }
}

/// Checks, before any work, that [`Package::write_dir`] may write `dir`: an error for a
/// non-empty directory that is not a package, a package without `force`, or a file.
pub fn check_dir(dir: &Path, force: bool) -> Result<(), PackageError> {
    check_target(dir, force).map(|_| ())
}

/// Refuses a directory whose name is not a problem short name (lower-case letters and digits,
/// as the Kattis format requires), since judges take the problem's name from it.
pub fn check_name(dir: &Path) -> Result<(), PackageError> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let valid = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if valid {
        Ok(())
    } else {
        Err(PackageError::BadName(name))
    }
}

/// What is at a package's target path.
enum Existing {
    /// Nothing, or an empty directory (removed by the rename).
    Nothing,
    /// A package to replace.
    Replace,
}

/// Decides whether `dir` may receive a package.
fn check_target(dir: &Path, force: bool) -> Result<Existing, PackageError> {
    check_name(dir)?;
    let meta = match fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Existing::Nothing),
        Err(e) => return Err(io_at(dir)(e)),
    };
    if !meta.is_dir() {
        return Err(PackageError::NotADirectory(dir.to_path_buf()));
    }
    let empty = fs::read_dir(dir).map_err(io_at(dir))?.next().is_none();
    if empty {
        // rename(2) replaces an empty directory in one step.
        return Ok(Existing::Nothing);
    }
    if !dir.join("problem.yaml").is_file() && !dir.join("problem.xml").is_file() {
        return Err(PackageError::NotAPackage(dir.to_path_buf()));
    }
    if !force {
        return Err(PackageError::Exists(dir.to_path_buf()));
    }
    Ok(Existing::Replace)
}

/// A YAML double-quoted string (the values written here are plain text): YAML's double
/// quotes take JSON's escapes.
pub fn yaml_string(s: &str) -> String {
    quoted(s)
}

/// A JSON string: quotes, backslashes and control characters escaped.
pub(crate) fn quoted(s: &str) -> String {
    use std::fmt::Write;
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The text of a `.desc` file: what the case holds, then how to rebuild it.
pub fn desc(what: &str, rebuild: &str) -> String {
    format!("{what}\nRebuild: {rebuild}\n")
}

/// One wrong solution: its name, its bug in words and its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongSolution {
    /// A short name, used as the file name.
    pub id: String,
    /// The bug, in words.
    pub bug: String,
    /// The whole program.
    pub source: String,
}

/// Applies a catalogue of one-spot changes to a reference program.
///
/// The catalogue is a text of sections: `@@ NAME` starts one, `# ...` lines right after it
/// describe the bug, and `-` and `+` lines give the text to replace and its replacement (each
/// without the leading character). The text to replace must occur exactly once in the
/// reference, so each wrong program differs from it in one place. Lines before the first
/// section are comments. `describe` names the bug of a section without a description.
pub fn apply_catalogue(
    reference: &str,
    catalogue: &str,
    describe: impl Fn(&str) -> Option<String>,
) -> Result<Vec<WrongSolution>, PackageError> {
    let mut out = Vec::new();
    for section in catalogue.split("\n@@ ").skip(1) {
        let mut lines = section.lines();
        let id = lines.next().unwrap_or_default().trim().to_string();
        let (mut old, mut new, mut bug) = (String::new(), String::new(), String::new());
        for l in lines {
            if let Some(rest) = l.strip_prefix('-') {
                old.push_str(rest);
                old.push('\n');
            } else if let Some(rest) = l.strip_prefix('+') {
                new.push_str(rest);
                new.push('\n');
            } else if let Some(rest) = l.strip_prefix("# ") {
                bug = rest.to_string();
            }
        }
        if bug.is_empty() {
            bug = describe(&id).ok_or_else(|| PackageError::Patch(id.clone()))?;
        }
        if old.is_empty() || reference.matches(&old).count() != 1 {
            return Err(PackageError::Patch(id));
        }
        out.push(WrongSolution {
            source: reference.replacen(&old, &new, 1),
            id,
            bug,
        });
    }
    Ok(out)
}

/// `source` with a comment naming its bug inserted after the first line (the `#!` line of a
/// Python program, which must stay first).
pub fn label_python(source: &str, bug: &str) -> String {
    let (first, rest) = source.split_once('\n').unwrap_or((source, ""));
    format!("{first}\n# WRONG ANSWER on purpose: {bug}.\n{rest}")
}
