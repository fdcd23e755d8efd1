//! Running one solver process on one chunk: the command through the platform's shell (`sh -c`
//! on Unix, `cmd /S /C` on Windows), with everything it starts held in one unit that is killed
//! as a whole: a process group on Unix, a job object on Windows (both from `process-wrap`).
//!
//! The solver reads its input from a file and writes its answers straight into another file,
//! with no pipe to tomek: a solver that flushes every line pays one write per line and wakes
//! nobody. A watch loop looks at the run at growing intervals (from a millisecond up to
//! [`TICK`], so a short run is not charged a whole tick): it hands what the output file has
//! gained to the checker, which can reject broken output at once; it stops a solver whose
//! output passes the limit; it enforces the deadline and sees a request to stop. Standard error
//! stays a pipe, drained by a thread of its own, of which the end is kept for the report.
//!
//! The unit is killed on a timeout, a stop, broken output, and after every run, to take stray
//! background processes with it; on Windows the job is also killed when tomek exits, however
//! it exits, since its handle closes. On Unix the group is killed right after its leader has
//! been reaped: the group id can only name another group if every member has gone and the
//! system has handed out all other process ids since, which cannot happen in the microseconds
//! between the two calls.

use process_wrap::std::{ChildWrapper, CommandWrap};
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Longest wait of the watch loop before it looks at the run again.
const TICK: Duration = Duration::from_millis(20);
/// First wait of the watch loop; each next one is half as long again, up to [`TICK`].
const FIRST_WAIT: Duration = Duration::from_millis(1);
/// Bytes of the solver's standard error kept for the report: the end, where a traceback or an
/// assertion message is.
const STDERR_TAIL: usize = 4096;
/// How long the rest of standard error is waited for once the solver is gone: a process of
/// another group may hold the pipe open forever.
const STDERR_GRACE: Duration = Duration::from_millis(200);
/// Bytes asked per read of the solver's output.
pub const READ_BYTES: usize = 1 << 20;

/// How a run ended.
#[derive(Debug)]
pub enum Ending {
    /// The solver exited with this status code.
    Exited(i32),
    /// The solver was killed by this signal (not by us); Unix only.
    Signalled(i32),
    /// The deadline passed first; the process tree was killed.
    TimedOut,
    /// The output consumer found the output broken; the process tree was killed.
    Rejected,
    /// The output grew past the limit; the process tree was killed.
    Flooded,
    /// A stop was requested (the audit has enough failures, or Ctrl-C); the tree was killed.
    Stopped,
    /// The solver could not be started, or a file failed.
    Failed(io::Error),
}

/// What a run produced besides its output.
#[derive(Debug)]
pub struct Finished {
    /// How the run ended.
    pub ending: Ending,
    /// The last bytes the solver wrote to standard error.
    pub stderr: Vec<u8>,
}

/// One run of a solver.
pub struct Run<'a> {
    /// The shell command.
    pub command: &'a str,
    /// The file given as standard input; without it, standard input is empty.
    pub stdin: Option<&'a Path>,
    /// The file standard output is written to (created or emptied first).
    pub stdout: &'a Path,
    /// Bytes of output after which the solver is stopped as flooding.
    pub limit: u64,
    /// When the run is killed as hanging.
    pub deadline: Instant,
}

/// Runs `run.command`, handing its standard output to `output` as it arrives. `output`
/// returns `false` to reject the output, which ends the run at once. `buf` is scratch space
/// for reads, kept by the caller across runs so that short runs do not each pay for a fresh
/// megabyte.
pub fn run(
    run: &Run,
    stop: &dyn Fn() -> bool,
    output: &mut dyn FnMut(&[u8]) -> bool,
    buf: &mut Vec<u8>,
) -> Finished {
    let failed = |e: io::Error, what: &str, path: &Path| Finished {
        ending: Ending::Failed(io::Error::new(
            e.kind(),
            format!("cannot {what} {}: {e}", path.display()),
        )),
        stderr: Vec::new(),
    };
    let out = match File::create(run.stdout) {
        Ok(f) => f,
        Err(e) => return failed(e, "create", run.stdout),
    };
    // A handle of our own, with its own position, to read what the solver writes.
    let mut reader = match File::open(run.stdout) {
        Ok(f) => f,
        Err(e) => return failed(e, "read", run.stdout),
    };
    let stdin = match run.stdin {
        Some(p) => match File::open(p) {
            Ok(f) => Stdio::from(f),
            Err(e) => return failed(e, "read", p),
        },
        None => Stdio::null(),
    };
    let mut cmd = shell(run.command);
    cmd.command_mut()
        .stdin(stdin)
        .stdout(Stdio::from(out))
        .stderr(Stdio::piped());
    let spawned = cmd.spawn();
    // Our copies of the solver's files are closed with the command.
    drop(cmd);
    let mut tree = match spawned {
        Ok(child) => Tree {
            child,
            killed: false,
            reaped: false,
        },
        Err(e) => {
            return Finished {
                ending: Ending::Failed(e),
                stderr: Vec::new(),
            };
        }
    };
    let stderr = tree.child.stderr().take().map(Drain::start);
    if buf.len() < READ_BYTES {
        buf.resize(READ_BYTES, 0);
    }
    let mut read = 0u64;
    let mut wait = FIRST_WAIT;
    let ending = loop {
        if let Err(e) = pump(&mut reader, buf, output, &mut read, run.limit) {
            break e;
        }
        match tree.child.try_wait() {
            Ok(Some(status)) => {
                // Strays still writing are stopped before the last of the output is read.
                tree.kill();
                break match pump(&mut reader, buf, output, &mut read, run.limit) {
                    Err(e) => e,
                    Ok(()) => ending_of(status),
                };
            }
            Ok(None) => {}
            Err(e) => break Ending::Failed(e),
        }
        if stop() {
            break Ending::Stopped;
        }
        let now = Instant::now();
        if now >= run.deadline {
            break Ending::TimedOut;
        }
        std::thread::sleep(wait.min(run.deadline - now));
        wait = (wait * 3 / 2).min(TICK);
    };
    // Whatever happened, nothing of this run outlives it.
    tree.kill();
    let _ = tree.child.wait();
    tree.reaped = true;
    let stderr = stderr.map(Drain::finish).unwrap_or_default();
    Finished { ending, stderr }
}

/// The command as the platform's shell runs it.
#[cfg(unix)]
fn shell(command: &str) -> CommandWrap {
    let mut cmd = CommandWrap::with_new("sh", |c| {
        c.arg("-c").arg(command);
    });
    cmd.wrap(process_wrap::std::ProcessGroup::leader());
    cmd
}

/// The command as the platform's shell runs it: `cmd /S /C "COMMAND"`, passed verbatim, so that
/// `cmd` strips the outer quotes and runs the rest exactly as typed.
#[cfg(windows)]
fn shell(command: &str) -> CommandWrap {
    use std::os::windows::process::CommandExt;
    let mut cmd = CommandWrap::with_new("cmd", |c| {
        c.raw_arg(format!("/S /C \"{command}\""));
    });
    cmd.wrap(process_wrap::std::JobObject);
    cmd
}

/// The solver's process tree, killed when dropped unless the run has already finished with it
/// (a panic on the way must not leave solvers behind).
struct Tree {
    child: Box<dyn ChildWrapper>,
    /// Killed once, and only once: see the module comment.
    killed: bool,
    reaped: bool,
}

impl Tree {
    fn kill(&mut self) {
        if !self.killed {
            self.killed = true;
            // An error means the tree is already gone.
            let _ = self.child.start_kill();
        }
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        if !self.reaped {
            self.kill();
            let _ = self.child.wait();
        }
    }
}

/// How the solver's exit status reads.
#[cfg(unix)]
fn ending_of(status: ExitStatus) -> Ending {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => Ending::Exited(code),
        (None, Some(sig)) => Ending::Signalled(sig),
        (None, None) => Ending::Failed(io::Error::other("unknown exit status")),
    }
}

/// How the solver's exit status reads: on Windows a crash is an exit code too.
#[cfg(windows)]
fn ending_of(status: ExitStatus) -> Ending {
    match status.code() {
        Some(code) => Ending::Exited(code),
        None => Ending::Failed(io::Error::other("unknown exit status")),
    }
}

/// Hands what the output file holds past what was read to `output`; an ending when the output
/// is rejected, passes `limit`, or cannot be read.
fn pump(
    file: &mut File,
    buf: &mut [u8],
    output: &mut dyn FnMut(&[u8]) -> bool,
    read: &mut u64,
    limit: u64,
) -> Result<(), Ending> {
    loop {
        match file.read(buf) {
            Ok(0) => return Ok(()),
            Ok(k) => {
                *read += k as u64;
                if !output(&buf[..k]) {
                    return Err(Ending::Rejected);
                }
                if *read > limit {
                    return Err(Ending::Flooded);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Ending::Failed(e)),
        }
    }
}

/// A thread reading the solver's standard error, keeping its end.
struct Drain {
    tail: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Receiver<()>,
}

impl Drain {
    fn start(mut pipe: impl Read + Send + 'static) -> Drain {
        let tail = Arc::new(Mutex::new(Vec::new()));
        let (tx, done) = mpsc::channel();
        let kept = Arc::clone(&tail);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                match pipe.read(&mut buf) {
                    Ok(0) => break,
                    Ok(k) => {
                        let mut t = kept.lock().unwrap_or_else(|e| e.into_inner());
                        t.extend_from_slice(&buf[..k]);
                        if t.len() > STDERR_TAIL {
                            let cut = t.len() - STDERR_TAIL;
                            t.drain(..cut);
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let _ = tx.send(());
        });
        Drain { tail, done }
    }

    /// What was kept, once the pipe is closed or after a short grace.
    fn finish(self) -> Vec<u8> {
        let _ = self.done.recv_timeout(STDERR_GRACE);
        std::mem::take(&mut *self.tail.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// The process's one interrupt handler, which the audit polls (see [`crate::interrupt`]).
pub use crate::interrupt;

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn quick(cmd: &str, input: &[u8], secs: f64) -> (Finished, Vec<u8>) {
        let dir = tempfile::tempdir().unwrap();
        let (inp, outp) = (dir.path().join("in"), dir.path().join("out"));
        std::fs::write(&inp, input).unwrap();
        let mut out = Vec::new();
        let f = run(
            &Run {
                command: cmd,
                stdin: Some(&inp),
                stdout: &outp,
                limit: 1 << 30,
                deadline: Instant::now() + Duration::from_secs_f64(secs),
            },
            &|| false,
            &mut |b| {
                out.extend_from_slice(b);
                true
            },
            &mut Vec::new(),
        );
        (f, out)
    }

    #[test]
    fn large_input_and_output_pass_whole() {
        let input = vec![b'x'; 8 << 20];
        let (f, out) = quick("cat", &input, 30.0);
        assert!(matches!(f.ending, Ending::Exited(0)), "{:?}", f.ending);
        assert_eq!(out.len(), input.len());
    }

    #[test]
    fn exit_codes_signals_and_stderr_are_reported() {
        let (f, _) = quick("echo oops >&2; exit 3", b"", 10.0);
        assert!(matches!(f.ending, Ending::Exited(3)), "{:?}", f.ending);
        assert_eq!(f.stderr, b"oops\n");
        let (f, _) = quick("kill -SEGV $$", b"", 10.0);
        assert!(matches!(f.ending, Ending::Signalled(11)), "{:?}", f.ending);
    }

    #[test]
    fn a_stray_holding_the_output_does_not_hold_the_run() {
        let start = Instant::now();
        let (f, out) = quick("sleep 30 & echo done", b"", 20.0);
        assert!(matches!(f.ending, Ending::Exited(0)), "{:?}", f.ending);
        assert_eq!(out, b"done\n");
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_hang_is_killed_with_its_group() {
        let start = Instant::now();
        // A background process holding the output open, and a foreground one ignoring input.
        let (f, _) = quick("sleep 30 & sleep 30", b"data", 0.3);
        assert!(matches!(f.ending, Ending::TimedOut), "{:?}", f.ending);
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_flood_is_stopped_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let outp = dir.path().join("out");
        let start = Instant::now();
        let f = run(
            &Run {
                command: "yes ''",
                stdin: None,
                stdout: &outp,
                limit: 1 << 20,
                deadline: Instant::now() + Duration::from_secs(20),
            },
            &|| false,
            &mut |_| true,
            &mut Vec::new(),
        );
        assert!(matches!(f.ending, Ending::Flooded), "{:?}", f.ending);
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}
