//! Running one solver process on one chunk: `sh -c CMD` in a process group of its own, its
//! input written and its output and errors read by a single `poll` loop.
//!
//! One loop over non-blocking pipes, rather than a thread per pipe, means no state in which the
//! solver waits for us to read while we wait for it to read: whatever the solver does, the
//! loop moves whichever bytes can move. It also never blocks for longer than a tick, so a
//! deadline or a request to stop is seen within [`TICK`], even when the solver or something
//! it started keeps a pipe open forever.
//!
//! The solver and everything it starts share one process group, which is killed as a whole
//! (`kill(-pgid, SIGKILL)`) on a timeout, a stop, broken output, and after every run to take
//! stray background processes with it. The group is always killed before the solver itself is
//! reaped: while the leader is unreaped its id cannot be reused, so the kill can never reach
//! an unrelated process.

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longest wait in `poll` before deadlines and stop requests are looked at again.
const TICK: Duration = Duration::from_millis(50);
/// Bytes of the solver's standard error kept for the report: the end, where a traceback or an
/// assertion message is.
const STDERR_TAIL: usize = 4096;
/// Bytes asked per read of the solver's output.
pub const READ_BYTES: usize = 1 << 20;

/// How a run ended.
#[derive(Debug)]
pub enum Ending {
    /// The solver closed its output and exited with this status code.
    Exited(i32),
    /// The solver was killed by this signal (not by us).
    Signalled(i32),
    /// The deadline passed first; the group was killed.
    TimedOut,
    /// The output consumer found the output broken; the group was killed.
    Rejected,
    /// A stop was requested (the audit has enough failures, or Ctrl-C); the group was killed.
    Stopped,
    /// The solver could not be started, or a pipe failed.
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

/// Runs `sh -c command`, writing `input` (if any; otherwise standard input is empty) to its
/// standard input and handing its standard output to `output` as it arrives. `output`
/// returns `false` to reject the output, which ends the run at once. `buf` is scratch space
/// for reads, kept by the caller across runs so that short runs do not each pay for a fresh
/// megabyte.
pub fn run(
    command: &str,
    input: Option<&[u8]>,
    deadline: Instant,
    stop: &dyn Fn() -> bool,
    output: &mut dyn FnMut(&[u8]) -> bool,
    buf: &mut Vec<u8>,
) -> Finished {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .process_group(0)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Finished {
                ending: Ending::Failed(e),
                stderr: Vec::new(),
            };
        }
    };
    let mut stderr = Vec::new();
    if buf.len() < READ_BYTES {
        buf.resize(READ_BYTES, 0);
    }
    let ending = drive(&mut child, input, deadline, stop, output, buf, &mut stderr);
    // Whatever happened, nothing of this run outlives it.
    kill_group(&child);
    let status = child.wait();
    let ending = match (ending, status) {
        (Some(e), _) => e,
        (None, Err(e)) => Ending::Failed(e),
        (None, Ok(s)) => match (s.code(), s.signal()) {
            (Some(code), _) => Ending::Exited(code),
            (None, Some(sig)) => Ending::Signalled(sig),
            (None, None) => Ending::Failed(io::Error::other("unknown exit status")),
        },
    };
    Finished { ending, stderr }
}

/// Kills the process group of `child`, whose leader has not been reaped yet.
fn kill_group(child: &Child) {
    let pgid = child.id() as libc::pid_t;
    // SAFETY: plain system call; the group id is ours (see the module comment).
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

/// Moves bytes until the output is closed and the solver has exited (`None`: the exit status
/// decides), or something ends the run early (`Some`).
fn drive(
    child: &mut Child,
    input: Option<&[u8]>,
    deadline: Instant,
    stop: &dyn Fn() -> bool,
    output: &mut dyn FnMut(&[u8]) -> bool,
    buf: &mut [u8],
    stderr_tail: &mut Vec<u8>,
) -> Option<Ending> {
    let mut stdin = child.stdin.take();
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let mut input = input.unwrap_or(&[]);
    for fd in [
        stdin.as_ref().map(|p| p.as_raw_fd()),
        stdout.as_ref().map(|p| p.as_raw_fd()),
        stderr.as_ref().map(|p| p.as_raw_fd()),
    ]
    .into_iter()
    .flatten()
    {
        if let Err(e) = prepare(fd) {
            return Some(Ending::Failed(e));
        }
    }
    if input.is_empty() {
        stdin = None;
    }
    let exit = ExitWatch::new(child.id());
    let mut exited = false;
    loop {
        if stop() {
            return Some(Ending::Stopped);
        }
        let now = Instant::now();
        if now >= deadline {
            return Some(Ending::TimedOut);
        }
        if !exited && stdout.is_none() {
            exited = exit.exited_now();
        }
        if exited && let Some(pipe) = stdout.as_mut() {
            // The solver has exited, so everything it wrote is in the pipe; whatever still
            // holds the pipe open is a stray it left running (killed with its group). Read
            // what is there and stop, rather than wait for an end that may never come.
            loop {
                match pipe.read(buf) {
                    Ok(0) => break,
                    Ok(k) => {
                        if !output(&buf[..k]) {
                            return Some(Ending::Rejected);
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            stdout = None;
        }
        if exited && stdout.is_none() {
            if let Some(e) = stderr.as_mut() {
                read_tail(e, buf, stderr_tail);
            }
            return None;
        }
        let mut fds = Vec::with_capacity(4);
        let mut slot = |fd: Option<RawFd>, events: libc::c_short| {
            fd.map(|fd| {
                fds.push(libc::pollfd {
                    fd,
                    events,
                    revents: 0,
                });
                fds.len() - 1
            })
        };
        let i_in = slot(stdin.as_ref().map(|p| p.as_raw_fd()), libc::POLLOUT);
        let i_out = slot(stdout.as_ref().map(|p| p.as_raw_fd()), libc::POLLIN);
        let i_err = slot(stderr.as_ref().map(|p| p.as_raw_fd()), libc::POLLIN);
        let i_exit = slot(if exited { None } else { exit.fd() }, libc::POLLIN);
        // Without a descriptor for the exit, look again soon once the output is closed.
        let wait = if stdout.is_none() && exit.fd().is_none() {
            Duration::from_millis(2)
        } else {
            TICK
        };
        let wait = wait.min(deadline - now);
        let ms = wait.as_millis().max(1) as libc::c_int;
        // SAFETY: `fds` is a valid array of `fds.len()` entries for the duration of the call.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Some(Ending::Failed(e));
        }
        let ready = |i: Option<usize>| i.is_some_and(|i| fds[i].revents != 0);
        if ready(i_in)
            && let Some(pipe) = stdin.as_mut()
        {
            match pipe.write(input) {
                Ok(k) => input = &input[k..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // The solver stopped reading (it exited, or answers without reading all):
                // its output says whether that was right.
                Err(_) => input = &[],
            }
            if input.is_empty() {
                stdin = None;
            }
        }
        if ready(i_out)
            && let Some(pipe) = stdout.as_mut()
        {
            match pipe.read(buf) {
                Ok(0) => stdout = None,
                Ok(k) => {
                    if !output(&buf[..k]) {
                        return Some(Ending::Rejected);
                    }
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                    ) => {}
                Err(e) => return Some(Ending::Failed(e)),
            }
        }
        if ready(i_err)
            && let Some(pipe) = stderr.as_mut()
            && !read_tail(pipe, buf, stderr_tail)
        {
            stderr = None;
        }
        if ready(i_exit) {
            exited = true;
        }
    }
}

/// Makes a pipe non-blocking and, on Linux, widens it to 1 MiB so that large chunks move in
/// few system calls (a failure to widen is harmless).
fn prepare(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
        #[cfg(target_os = "linux")]
        libc::fcntl(fd, libc::F_SETPIPE_SZ, 1 << 20);
    }
    Ok(())
}

/// Reads what is available from a non-blocking pipe into the tail of `tail`; `false` at the
/// end of the stream or on an error.
fn read_tail(pipe: &mut impl Read, buf: &mut [u8], tail: &mut Vec<u8>) -> bool {
    loop {
        match pipe.read(buf) {
            Ok(0) => return false,
            Ok(k) => {
                tail.extend_from_slice(&buf[..k]);
                if tail.len() > STDERR_TAIL {
                    tail.drain(..tail.len() - STDERR_TAIL);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return e.kind() == io::ErrorKind::WouldBlock,
        }
    }
}

/// Tells when a child has exited without reaping it, so its process group id stays reserved
/// until the group has been killed.
struct ExitWatch {
    pid: libc::pid_t,
    /// A pidfd (Linux 5.3+): readable once the process has exited, so `poll` wakes at once.
    fd: Option<std::os::fd::OwnedFd>,
}

impl ExitWatch {
    fn new(pid: u32) -> ExitWatch {
        let pid = pid as libc::pid_t;
        #[cfg(target_os = "linux")]
        let fd = {
            use std::os::fd::FromRawFd;
            // SAFETY: pidfd_open on our own unreaped child; the returned descriptor is owned.
            let raw = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
            // SAFETY: a non-negative result is a new descriptor that nothing else owns, so
            // handing it to an OwnedFd makes it closed exactly once.
            (raw >= 0).then(|| unsafe { std::os::fd::OwnedFd::from_raw_fd(raw as RawFd) })
        };
        #[cfg(not(target_os = "linux"))]
        let fd = None;
        ExitWatch { pid, fd }
    }

    fn fd(&self) -> Option<RawFd> {
        self.fd.as_ref().map(|f| f.as_raw_fd())
    }

    /// Whether the child has exited, leaving it unreaped.
    fn exited_now(&self) -> bool {
        // SAFETY: waitid with WNOWAIT only inspects our own child; `info` is plain data.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PID,
                self.pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            r == 0 && info.si_pid() != 0
        }
    }
}

/// Ctrl-C, `kill` and a closed terminal: they set a flag the audit polls, so that it can kill
/// every solver group (which, in groups of their own, do not receive the terminal's signal)
/// and remove its temporary files before exiting.
pub mod interrupt {
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Set by SIGINT, SIGTERM or SIGHUP once [`install`] has run.
    pub static REQUESTED: AtomicBool = AtomicBool::new(false);

    extern "C" fn note(_: libc::c_int) {
        REQUESTED.store(true, Ordering::SeqCst);
    }

    /// Routes SIGINT, SIGTERM and SIGHUP to [`REQUESTED`].
    pub fn install() {
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = note as *const () as usize;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(sig, &action, std::ptr::null_mut());
            }
        }
    }

    /// Whether a stop was requested by a signal.
    pub fn requested() -> bool {
        REQUESTED.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick(cmd: &str, input: &[u8], secs: f64) -> (Finished, Vec<u8>) {
        let mut out = Vec::new();
        let f = run(
            cmd,
            Some(input),
            Instant::now() + Duration::from_secs_f64(secs),
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
    fn large_input_and_output_do_not_deadlock() {
        // `cat` writes as it reads: with blocking pipes and one thread this would stall once
        // both pipe buffers were full.
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
}
