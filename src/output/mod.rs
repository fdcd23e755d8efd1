//! Writing results: files replaced atomically, and the three output formats (aligned tables for
//! people, JSON and CSV for machines). [`escape`] makes input text safe to echo on a terminal.

pub mod escape;

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// How a command prints what it found.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// An aligned table for people.
    #[default]
    Table,
    /// One JSON document.
    Json,
    /// Comma-separated values with a header line.
    Csv,
}

/// A file being written: bytes go to a temporary file beside the target, which replaces the
/// target only when [`AtomicFile::commit`] is called. Dropped without a commit, or when the
/// commit fails, the temporary file is removed and the target is left as it was, so a failed
/// run never leaves half a file; an interrupt removes it too (see [`crate::interrupt`]).
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    out: Option<BufWriter<File>>,
    /// Whether the temporary file still exists under its own name.
    pending: bool,
    /// Bytes handed to the writer so far.
    written: u64,
    /// Bytes whose writeback to disk has been started.
    queued: u64,
}

/// How many bytes reach the file between two requests to start writing them to disk.
const WRITEBACK_STEP: u64 = 16 << 20;

/// Writes at least this long skip the buffer and go straight to the file.
const DIRECT_AT: usize = 256 << 10;

impl AtomicFile {
    /// Starts writing `target`, creating the directories that lead to it. A target that is a
    /// directory is refused at once, before any work goes into the file.
    pub fn create(target: impl AsRef<Path>) -> io::Result<AtomicFile> {
        let target = target.as_ref().to_path_buf();
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file path"))?;
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".{}.tmp", std::process::id()));
        let temp = target.with_file_name(temp_name);
        create_parent(&target)?;
        refuse_directory(&target)?;
        let file = create_temporary(&temp, |p| File::create(p))?;
        Ok(AtomicFile {
            target,
            temp,
            out: Some(BufWriter::with_capacity(1 << 20, file)),
            pending: true,
            written: 0,
            queued: 0,
        })
    }

    /// The path that will be replaced.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes, syncs and renames the temporary file over the target. On an error the
    /// temporary file is removed.
    pub fn commit(mut self) -> io::Result<()> {
        self.finish()?;
        self.replace()
    }

    /// Flushes and syncs the temporary file; the writer is gone afterwards.
    fn finish(&mut self) -> io::Result<()> {
        if let Some(out) = self.out.take() {
            let file = out.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
        }
        Ok(())
    }

    /// Fails when the target cannot be replaced by a file, before anything is renamed.
    fn check_target(&self) -> io::Result<()> {
        refuse_directory(&self.target)
    }

    /// Renames the finished temporary file over the target.
    fn replace(&mut self) -> io::Result<()> {
        self.check_target()?;
        fs::rename(&self.temp, &self.target)?;
        self.pending = false;
        forget_temporary(&self.temp);
        Ok(())
    }
}

/// A directory cannot be replaced by a file (the rename would fail after all the work).
fn refuse_directory(target: &Path) -> io::Result<()> {
    match fs::symlink_metadata(target) {
        Ok(m) if m.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a directory",
        )),
        _ => Ok(()),
    }
}

/// Why [`commit_all`] failed: the file concerned and the system's error.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}", .target.display())]
pub struct CommitError {
    /// The file that could not be written.
    pub target: PathBuf,
    /// What the system said.
    #[source]
    pub source: io::Error,
}

/// Commits files that belong together (a Code Jam input and its answers), all or none: every
/// file is flushed and synced (at the same time, since on big files the syncs are most of the
/// time left), and every target is checked before the first one is replaced. When anything
/// fails, every temporary file is removed and no target is touched.
pub fn commit_all(mut files: Vec<AtomicFile>) -> Result<(), CommitError> {
    let fail = |f: &AtomicFile, source| CommitError {
        target: f.target.clone(),
        source,
    };
    let mut finished: Vec<io::Result<()>> = Vec::with_capacity(files.len());
    for group in files.chunks_mut(8) {
        std::thread::scope(|s| {
            let handles: Vec<_> = group
                .iter_mut()
                .map(|f| s.spawn(move || f.finish()))
                .collect();
            finished.extend(
                handles
                    .into_iter()
                    .map(|h| h.join().expect("syncing a file does not panic")),
            );
        });
    }
    for (f, r) in files.iter().zip(finished) {
        r.map_err(|e| fail(f, e))?;
    }
    for f in &files {
        f.check_target().map_err(|e| fail(f, e))?;
    }
    for f in &mut files {
        let r = f.replace();
        r.map_err(|e| fail(f, e))?;
    }
    Ok(())
}

/// Creates the directories that lead to `target`, so that `-o a/b/c` works on a fresh tree.
pub fn create_parent(target: &Path) -> io::Result<()> {
    match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => fs::create_dir_all(p),
        _ => Ok(()),
    }
}

impl AtomicFile {
    /// Asks the kernel to start writing to disk what the file holds so far, without waiting.
    /// A large file then streams to disk while it is produced, and the sync in
    /// [`AtomicFile::commit`] only waits for the tail instead of the whole file.
    fn start_writeback(&mut self) {
        let out = self.out.as_ref().expect("writer present until commit");
        let in_file = self.written - out.buffer().len() as u64;
        if in_file - self.queued < WRITEBACK_STEP {
            return;
        }
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: the descriptor belongs to the open file held by `out`, and the range lies
            // inside what was written; the call only starts writeback, and its failure is
            // harmless (the commit's sync still writes everything).
            unsafe {
                libc::sync_file_range(
                    out.get_ref().as_raw_fd(),
                    self.queued as libc::off64_t,
                    (in_file - self.queued) as libc::off64_t,
                    libc::SYNC_FILE_RANGE_WRITE,
                );
            }
        }
        self.queued = in_file;
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self
            .out
            .as_mut()
            .expect("writer present until commit")
            .write(buf)?;
        self.written += n as u64;
        self.start_writeback();
        Ok(n)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let out = self.out.as_mut().expect("writer present until commit");
        if buf.len() >= DIRECT_AT {
            // Copying a large buffer into the writer's would only delay it: send it as it is.
            out.flush()?;
            out.get_mut().write_all(buf)?;
        } else {
            out.write_all(buf)?;
        }
        self.written += buf.len() as u64;
        self.start_writeback();
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out
            .as_mut()
            .expect("writer present until commit")
            .flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        self.out = None;
        if self.pending {
            let _ = fs::remove_file(&self.temp);
            forget_temporary(&self.temp);
        }
    }
}

/// A directory being written: its files go to a temporary sibling, which takes the target's
/// place only when [`AtomicDir::commit`] is called. Dropped without a commit, the temporary
/// directory is removed and the target is left as it was; an interrupt removes it too.
pub struct AtomicDir {
    target: PathBuf,
    temp: PathBuf,
    /// Where an existing directory steps aside during the commit.
    old: PathBuf,
    /// Whether an existing directory at the target is to be replaced.
    replace: bool,
    pending: bool,
}

impl AtomicDir {
    /// Starts writing directory `target`, creating the directories that lead to it. With
    /// `replace`, a directory already there is replaced at the commit; without, the commit
    /// fails unless the target is missing or empty.
    pub fn create(target: &Path, replace: bool) -> io::Result<AtomicDir> {
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a directory path"))?
            .to_string_lossy()
            .into_owned();
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let pid = std::process::id();
        let temp = parent.join(format!(".{name}.tmp-{pid}"));
        let old = parent.join(format!(".{name}.old-{pid}"));
        if temp.exists() {
            fs::remove_dir_all(&temp)?;
        }
        create_parent(target)?;
        create_temporary(&temp, |p| fs::create_dir(p))?;
        Ok(AtomicDir {
            target: target.to_path_buf(),
            temp,
            old,
            replace,
            pending: true,
        })
    }

    /// Where the files go until the commit.
    pub fn path(&self) -> &Path {
        &self.temp
    }

    /// The directory that will be replaced.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Puts the directory in place. An existing one steps aside first and is removed after;
    /// if the new one cannot take its place, the old one comes back.
    pub fn commit(mut self) -> io::Result<()> {
        let occupied = fs::read_dir(&self.target).is_ok_and(|mut d| d.next().is_some());
        if occupied && self.replace {
            fs::rename(&self.target, &self.old)?;
            if let Err(e) = fs::rename(&self.temp, &self.target) {
                let _ = fs::rename(&self.old, &self.target);
                return Err(e);
            }
            fs::remove_dir_all(&self.old)?;
        } else {
            // rename(2) replaces a missing or empty directory in one step.
            fs::rename(&self.temp, &self.target)?;
        }
        self.pending = false;
        forget_temporary(&self.temp);
        Ok(())
    }
}

impl Drop for AtomicDir {
    fn drop(&mut self) {
        if self.pending {
            let _ = fs::remove_dir_all(&self.temp);
            forget_temporary(&self.temp);
        }
    }
}

/// Writes a whole file atomically.
pub fn write_atomic(target: impl AsRef<Path>, bytes: &[u8]) -> io::Result<()> {
    let mut f = AtomicFile::create(target)?;
    f.write_all(bytes)?;
    f.commit()
}

/// Temporary files and directories of writes in progress, for an interrupt to remove.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temporaries() -> MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Creates the temporary `path` with `create` and records it. Both happen under the
/// registry's lock, so an interrupt either finds the temporary or comes before it exists.
pub(crate) fn create_temporary<T>(
    path: &Path,
    create: impl FnOnce(&Path) -> io::Result<T>,
) -> io::Result<T> {
    let mut live = temporaries();
    let made = create(path)?;
    live.push(path.to_path_buf());
    Ok(made)
}

/// Forgets a temporary that was renamed or removed.
pub(crate) fn forget_temporary(path: &Path) {
    let mut live = temporaries();
    if let Some(i) = live.iter().position(|p| p == path) {
        live.swap_remove(i);
    }
}

/// Removes every recorded temporary and ends the process with `status`. The registry stays
/// locked until the end, so no write in progress can create a new temporary meanwhile.
pub(crate) fn remove_temporaries_and_exit(status: i32) -> ! {
    let live = temporaries();
    for p in live.iter() {
        match fs::symlink_metadata(p) {
            Ok(m) if m.is_dir() => {
                let _ = fs::remove_dir_all(p);
            }
            Ok(_) => {
                let _ = fs::remove_file(p);
            }
            Err(_) => {}
        }
    }
    std::process::exit(status)
}

/// A table of text cells rendered as aligned columns, CSV, or a JSON array of objects.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// The column names.
    pub header: Vec<String>,
    /// The rows, one cell a column.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column names and no rows.
    pub fn new<S: Into<String>>(header: impl IntoIterator<Item = S>) -> Table {
        Table {
            header: header.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    pub fn push<S: ToString>(&mut self, row: impl IntoIterator<Item = S>) {
        self.rows
            .push(row.into_iter().map(|c| c.to_string()).collect());
    }

    /// Aligned columns: text left-aligned, numbers right-aligned, two spaces apart.
    pub fn render(&self) -> String {
        let n = self.header.len();
        let mut width = vec![0; n];
        for row in std::iter::once(&self.header).chain(&self.rows) {
            for (i, cell) in row.iter().enumerate().take(n) {
                width[i] = width[i].max(cell.chars().count());
            }
        }
        let numeric: Vec<bool> = (0..n)
            .map(|i| {
                !self.rows.is_empty()
                    && self
                        .rows
                        .iter()
                        .all(|r| r.get(i).is_some_and(|c| looks_numeric(c)))
            })
            .collect();
        let mut s = String::new();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate().take(n) {
                if i > 0 {
                    line.push_str("  ");
                }
                let pad = width[i] - cell.chars().count();
                if numeric[i] {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            s.push_str(line.trim_end());
            s.push('\n');
        }
        s
    }

    /// CSV with a header line; cells holding commas or quotes are quoted.
    pub fn csv(&self) -> String {
        let mut s = String::new();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            s.push_str(&csv_line(row));
        }
        s
    }
}

/// One CSV line, ended by `\n`; cells holding commas or quotes are quoted.
pub fn csv_line<S: AsRef<str>>(cells: &[S]) -> String {
    let cells: Vec<String> = cells.iter().map(|c| csv_cell(c.as_ref())).collect();
    cells.join(",") + "\n"
}

fn looks_numeric(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | ',' | '%'))
}

fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `n` and the noun for one or for many, the number grouped by thousands: `1 case`,
/// `1,680 cases`.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", grouped(n as u128), if n == 1 { one } else { many })
}

/// Formats an integer with thousands separators: `15038733958272` → `15,038,733,958,272`.
pub fn grouped(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_file_is_all_or_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.txt");
        fs::write(&p, "old").unwrap();
        {
            let mut f = AtomicFile::create(&p).unwrap();
            f.write_all(b"half").unwrap();
            // dropped without commit
        }
        assert_eq!(fs::read_to_string(&p).unwrap(), "old");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "temporary file removed"
        );
        write_atomic(&p, b"new").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "new");
    }

    #[test]
    fn files_committed_together_are_all_or_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("x/e.in"), dir.path().join("x/e.out"));
        let mut fa = AtomicFile::create(&a).unwrap();
        let mut fb = AtomicFile::create(&b).unwrap();
        fa.write_all(b"in").unwrap();
        fb.write_all(b"out").unwrap();
        // The second target turns into a directory while the files are written.
        fs::create_dir(&b).unwrap();
        let e = commit_all(vec![fa, fb]).unwrap_err();
        assert_eq!(e.target, b);
        assert_eq!(e.to_string(), format!("cannot write {}", b.display()));
        let left: Vec<_> = fs::read_dir(dir.path().join("x"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["e.out"], "neither file, no temporary file");
        assert!(
            AtomicFile::create(&b).is_err(),
            "a directory is refused at once"
        );
        fs::remove_dir(&b).unwrap();
        let (mut fa, mut fb) = (
            AtomicFile::create(&a).unwrap(),
            AtomicFile::create(&b).unwrap(),
        );
        fa.write_all(b"in").unwrap();
        fb.write_all(b"out").unwrap();
        commit_all(vec![fa, fb]).unwrap();
        assert_eq!(fs::read(&a).unwrap(), b"in");
        assert_eq!(fs::read(&b).unwrap(), b"out");
    }

    #[test]
    fn table_aligns_numbers_right() {
        let mut t = Table::new(["setup", "boards"]);
        t.push(["none", "12"]);
        t.push(["T@0", "3"]);
        assert_eq!(t.render(), "setup  boards\nnone       12\nT@0         3\n");
        assert_eq!(t.csv(), "setup,boards\nnone,12\nT@0,3\n");
        assert_eq!(grouped(15038733958272), "15,038,733,958,272");
        assert_eq!(grouped(0), "0");
    }
}
