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
//!
//! A run is held to a judge's limits ([`Limits`]): on Unix as resource limits set in the child
//! before it becomes the shell (address space, CPU time, file size, no core files), inherited by
//! everything it starts; on Windows as the limits of a job object of our own, which holds the
//! whole tree. What the run used ([`Usage`]) is read when it ends: on Unix from `wait4` on the
//! leader, which counts the leader and every process it waited for; on Windows from the job's
//! accounting.

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

/// The limits a judge puts on each run; `None` leaves a resource as tomek itself has it. Core
/// files are always off.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Memory in bytes: the address space of each process on Unix, the committed memory of the
    /// whole tree on Windows.
    pub memory: Option<u64>,
    /// CPU time: of each process on Unix (whole seconds, rounded up), user time of the whole
    /// tree on Windows. A run whose measured CPU time passes it is over the limit either way.
    pub cpu: Option<Duration>,
    /// Bytes any file the solver writes may reach (Unix only: Windows has no such limit).
    pub file: Option<u64>,
}

/// What a run used, as far as the system tells.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Usage {
    /// Peak memory in bytes: the largest resident set of any process of the run on Unix, the
    /// peak committed memory of the whole job on Windows. Unknown on Unix when no larger than
    /// tomek's own, which the count may hold instead (see `usage_of`).
    pub peak_memory: Option<u64>,
    /// CPU time, user and system, of the run's processes.
    pub cpu: Option<Duration>,
}

/// What a run produced besides its output.
#[derive(Debug)]
pub struct Finished {
    /// How the run ended.
    pub ending: Ending,
    /// The last bytes the solver wrote to standard error.
    pub stderr: Vec<u8>,
    /// What the run used.
    pub usage: Usage,
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
    /// The judge's limits on the run.
    pub limits: Limits,
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
        usage: Usage::default(),
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
    limit(&mut cmd, &run.limits);
    #[cfg(unix)]
    let inherited = own_peak();
    let spawned = cmd.spawn();
    #[cfg(windows)]
    let job = job::taken(&cmd);
    // Our copies of the solver's files are closed with the command.
    drop(cmd);
    let mut tree = match spawned {
        Ok(child) => Tree {
            child,
            #[cfg(windows)]
            job,
            #[cfg(unix)]
            inherited,
            killed: false,
            reaped: false,
        },
        Err(e) => {
            return Finished {
                ending: Ending::Failed(e),
                stderr: Vec::new(),
                usage: Usage::default(),
            };
        }
    };
    let stderr = tree.child.stderr().take().map(Drain::start);
    if buf.len() < READ_BYTES {
        buf.resize(READ_BYTES, 0);
    }
    let mut read = 0u64;
    let mut wait = FIRST_WAIT;
    let mut usage = Usage::default();
    let ending = loop {
        if let Err(e) = pump(&mut reader, buf, output, &mut read, run.limit) {
            break e;
        }
        match tree.reap(false) {
            Ok(Some((status, used))) => {
                usage = used;
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
    if !tree.reaped
        && let Ok(Some((_, used))) = tree.reap(true)
    {
        usage = used;
    }
    tree.reaped = true;
    let stderr = stderr.map(Drain::finish).unwrap_or_default();
    Finished {
        ending,
        stderr,
        usage,
    }
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

/// Sets the judge's limits in the child, between `fork` and `exec`: they hold the shell and,
/// inherited, everything it starts. Each hard limit is the soft one (the CPU time's one second
/// more, so that a solver that ignores `SIGXCPU` is killed), so that the solver cannot raise
/// them; none is set above tomek's own hard limit, which would fail.
#[cfg(unix)]
fn limit(cmd: &mut CommandWrap, limits: &Limits) {
    use std::os::unix::process::CommandExt;
    let cpu = limits.cpu.map(|d| {
        let secs = d.as_secs() + u64::from(d.subsec_nanos() > 0);
        (secs.max(1), secs.max(1) + 1)
    });
    let wanted = [
        (libc::RLIMIT_AS, limits.memory.map(|m| (m, m))),
        (libc::RLIMIT_CPU, cpu),
        (libc::RLIMIT_FSIZE, limits.file.map(|f| (f, f))),
        // No core files: a crashing solver would write one per run into the working directory.
        (libc::RLIMIT_CORE, Some((0, 0))),
    ];
    let set = wanted.map(|(resource, want)| {
        let (soft, hard) = want?;
        let mut now = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes only the struct it is given.
        if unsafe { libc::getrlimit(resource, &mut now) } != 0 {
            return None;
        }
        let cap = |v: u64| (v as libc::rlim_t).min(now.rlim_max);
        Some((
            resource,
            libc::rlimit {
                rlim_cur: cap(soft),
                rlim_max: cap(hard),
            },
        ))
    });
    // SAFETY: the hook runs in the child between fork and exec, where only async-signal-safe
    // calls are allowed: it calls setrlimit alone, on values computed beforehand, and
    // allocates nothing.
    unsafe {
        cmd.command_mut().pre_exec(move || {
            for (resource, rlimit) in set.iter().flatten() {
                if libc::setrlimit(*resource, rlimit) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
}

/// Puts the child in a job object of our own that carries the judge's limits (see [`job`]).
#[cfg(windows)]
fn limit(cmd: &mut CommandWrap, limits: &Limits) {
    cmd.wrap(job::Limited::new(*limits));
}

/// The solver's process tree, killed when dropped unless the run has already finished with it
/// (a panic on the way must not leave solvers behind).
struct Tree {
    child: Box<dyn ChildWrapper>,
    /// The job object that holds the limits, closed (which kills what is left in it) with the
    /// tree.
    #[cfg(windows)]
    job: Option<job::Handle>,
    /// Tomek's own peak memory when the run began (see [`usage_of`]).
    #[cfg(unix)]
    inherited: u64,
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

    /// The leader's exit status and what the run used, once the leader has exited; `block`
    /// waits for it. The leader is reaped here with `wait4`, not through `process-wrap`, for
    /// its resource usage: it is our only child in its group (what it starts is its own
    /// children), so nothing else of the group is left for us to reap.
    #[cfg(unix)]
    fn reap(&mut self, block: bool) -> io::Result<Option<(ExitStatus, Usage)>> {
        use std::os::unix::process::ExitStatusExt;
        let pid = self.child.id() as libc::pid_t;
        let flags = if block { 0 } else { libc::WNOHANG };
        loop {
            let mut status = 0;
            // SAFETY: an all-zero rusage is a valid value of the plain C struct.
            let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: wait4 writes only the status and the rusage it is given.
            match unsafe { libc::wait4(pid, &mut status, flags, &mut ru) } {
                0 => return Ok(None),
                -1 => {
                    let e = io::Error::last_os_error();
                    if e.kind() != io::ErrorKind::Interrupted {
                        return Err(e);
                    }
                }
                _ => {
                    self.reaped = true;
                    return Ok(Some((
                        ExitStatus::from_raw(status),
                        usage_of(&ru, self.inherited),
                    )));
                }
            }
        }
    }

    /// The leader's exit status and what the job used, once the leader has exited; `block`
    /// waits for the whole job.
    #[cfg(windows)]
    fn reap(&mut self, block: bool) -> io::Result<Option<(ExitStatus, Usage)>> {
        let status = if block {
            Some(self.child.wait()?)
        } else {
            self.child.try_wait()?
        };
        Ok(status.map(|s| {
            self.reaped = true;
            (
                s,
                self.job
                    .as_ref()
                    .map(job::Handle::usage)
                    .unwrap_or_default(),
            )
        }))
    }
}

/// What `wait4` says a run used. `ru_maxrss` (kilobytes on Linux, bytes on macOS) counts the
/// leader from before its `exec`, when it was a copy of tomek: Linux keeps the peak of the
/// memory it had then. A peak no larger than `inherited` (tomek's own peak when the run began)
/// may be tomek's and not the solver's, so it is not taken as the solver's.
#[cfg(unix)]
fn usage_of(ru: &libc::rusage, inherited: u64) -> Usage {
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let unit = if cfg!(target_vendor = "apple") {
        1
    } else {
        1024
    };
    let peak = (ru.ru_maxrss.max(0) as u64).saturating_mul(unit);
    Usage {
        peak_memory: (peak > inherited).then_some(peak),
        cpu: Some(time(ru.ru_utime) + time(ru.ru_stime)),
    }
}

/// Tomek's own peak resident memory: on Linux that of its memory now (`VmHWM`), which is what
/// a child copies; elsewhere what `getrusage` says, which may count more, never less.
#[cfg(unix)]
fn own_peak() -> u64 {
    #[cfg(target_os = "linux")]
    if let Some(kb) = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
            line.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
    {
        return kb << 10;
    }
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes only the struct it is given.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) } != 0 {
        return u64::MAX;
    }
    let unit = if cfg!(target_vendor = "apple") {
        1
    } else {
        1024
    };
    (ru.ru_maxrss.max(0) as u64).saturating_mul(unit)
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

/// The job object that holds a run's limits on Windows.
///
/// `process-wrap` puts the child in a job of its own, to kill and wait for the tree, but keeps
/// that job's handle to itself. So the child goes first into a job of ours: `process-wrap`
/// starts it suspended and resumes it only once it has its own job, and `post_spawn` runs in
/// between, so the solver runs no instruction outside our limits. Its own job then nests in
/// ours (Windows 8 and later), and our limits hold everything in both.
#[cfg(windows)]
mod job {
    use super::{Limits, Usage};
    use process_wrap::std::{CommandWrap, CommandWrapper};
    use std::io;
    use std::os::windows::io::AsRawHandle;
    use std::process::{Child, Command};
    use std::sync::Mutex;
    use std::time::Duration;
    use windows_sys::Win32::Foundation::{CloseHandle, HANDLE};
    use windows_sys::Win32::System::JobObjects::{
        AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION,
        JOB_OBJECT_LIMIT_JOB_MEMORY, JOB_OBJECT_LIMIT_JOB_TIME, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
        JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
        JobObjectBasicAccountingInformation, JobObjectExtendedLimitInformation,
        QueryInformationJobObject, SetInformationJobObject,
    };

    /// Job times are counted in units of 100 ns.
    const TICKS_PER_SECOND: u128 = 10_000_000;

    /// A job object handle, closed when dropped; the job kills what it holds when closed.
    #[derive(Debug)]
    pub struct Handle(usize);

    impl Handle {
        fn raw(&self) -> HANDLE {
            self.0 as HANDLE
        }

        /// A new job with `limits`; the job kills everything in it when its last handle
        /// closes, and a crash ends a process at once instead of opening an error dialog.
        fn new(limits: &Limits) -> io::Result<Handle> {
            // SAFETY: no security attributes and no name: a private job.
            let raw = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
            if raw.is_null() {
                return Err(io::Error::last_os_error());
            }
            let job = Handle(raw as usize);
            let mut info = JOBOBJECT_EXTENDED_LIMIT_INFORMATION::default();
            let basic = &mut info.BasicLimitInformation;
            basic.LimitFlags =
                JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
            if let Some(cpu) = limits.cpu {
                basic.LimitFlags |= JOB_OBJECT_LIMIT_JOB_TIME;
                let ticks = cpu.as_nanos() * TICKS_PER_SECOND / 1_000_000_000;
                basic.PerJobUserTimeLimit = ticks.clamp(1, i64::MAX as u128) as i64;
            }
            if let Some(memory) = limits.memory {
                info.BasicLimitInformation.LimitFlags |= JOB_OBJECT_LIMIT_JOB_MEMORY;
                info.JobMemoryLimit = usize::try_from(memory).unwrap_or(usize::MAX);
            }
            // SAFETY: the job is ours and open; the struct is the one its class names, with
            // its size.
            let ok = unsafe {
                SetInformationJobObject(
                    job.raw(),
                    JobObjectExtendedLimitInformation,
                    (&info as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast(),
                    std::mem::size_of_val(&info) as u32,
                )
            };
            if ok == 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(job)
        }

        /// Reads one information class of the job into `T`.
        fn query<T: Default>(&self, class: i32) -> Option<T> {
            let mut info = T::default();
            // SAFETY: the job is open; the struct is the one the class names, with its size.
            let ok = unsafe {
                QueryInformationJobObject(
                    self.raw(),
                    class,
                    (&mut info as *mut T).cast(),
                    std::mem::size_of::<T>() as u32,
                    std::ptr::null_mut(),
                )
            };
            (ok != 0).then_some(info)
        }

        /// The job's peak committed memory and its processes' CPU time so far.
        pub fn usage(&self) -> Usage {
            let limits: Option<JOBOBJECT_EXTENDED_LIMIT_INFORMATION> =
                self.query(JobObjectExtendedLimitInformation);
            let times: Option<JOBOBJECT_BASIC_ACCOUNTING_INFORMATION> =
                self.query(JobObjectBasicAccountingInformation);
            let time = |t: i64| {
                let t = t.max(0) as u128;
                Duration::new(
                    (t / TICKS_PER_SECOND) as u64,
                    (t % TICKS_PER_SECOND * 100) as u32,
                )
            };
            Usage {
                peak_memory: limits.map(|l| l.PeakJobMemoryUsed as u64),
                cpu: times.map(|t| time(t.TotalUserTime) + time(t.TotalKernelTime)),
            }
        }
    }

    impl Drop for Handle {
        fn drop(&mut self) {
            // SAFETY: the handle is ours and closed once, here.
            unsafe { CloseHandle(self.raw()) };
        }
    }

    /// The wrapper that puts the suspended child into a job with the limits.
    #[derive(Debug)]
    pub struct Limited {
        limits: Limits,
        job: Mutex<Option<Handle>>,
    }

    impl Limited {
        pub fn new(limits: Limits) -> Limited {
            Limited {
                limits,
                job: Mutex::new(None),
            }
        }
    }

    impl CommandWrapper for Limited {
        fn post_spawn(
            &mut self,
            _command: &mut Command,
            child: &mut Child,
            _core: &CommandWrap,
        ) -> io::Result<()> {
            let assigned = Handle::new(&self.limits).and_then(|job| {
                // SAFETY: both handles are open: the job is ours, the process is the child's.
                let ok =
                    unsafe { AssignProcessToJobObject(job.raw(), child.as_raw_handle() as HANDLE) };
                if ok == 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(job)
            });
            match assigned {
                Ok(job) => {
                    *self.job.lock().unwrap_or_else(|e| e.into_inner()) = Some(job);
                    Ok(())
                }
                Err(e) => {
                    // Still suspended, and in no job that would end it: end it here.
                    let _ = child.kill();
                    let _ = child.wait();
                    Err(e)
                }
            }
        }
    }

    /// The job of the command just spawned, taken from its wrapper.
    pub fn taken(cmd: &CommandWrap) -> Option<Handle> {
        let limited = cmd.get_wrap::<Limited>()?;
        limited.job.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// The process's one interrupt handler, which the audit polls (see [`crate::interrupt`]).
pub use crate::interrupt;

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn quick(cmd: &str, input: &[u8], secs: f64) -> (Finished, Vec<u8>) {
        limited(cmd, input, secs, Limits::default())
    }

    fn limited(cmd: &str, input: &[u8], secs: f64, limits: Limits) -> (Finished, Vec<u8>) {
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
                limits,
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
                limits: Limits::default(),
            },
            &|| false,
            &mut |_| true,
            &mut Vec::new(),
        );
        assert!(matches!(f.ending, Ending::Flooded), "{:?}", f.ending);
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn the_limits_are_set_in_the_solver() {
        let limits = Limits {
            memory: Some(256 << 20),
            cpu: Some(Duration::from_millis(2500)),
            file: Some(1 << 20),
        };
        let (f, out) = limited(
            "ulimit -v; ulimit -t; ulimit -f; ulimit -c",
            b"",
            10.0,
            limits,
        );
        assert!(matches!(f.ending, Ending::Exited(0)), "{:?}", f.ending);
        // `ulimit` counts kilobytes, and 512-byte blocks for files; CPU seconds round up.
        assert_eq!(String::from_utf8(out).unwrap(), "262144\n3\n2048\n0\n");
    }

    #[test]
    fn usage_is_measured() {
        let (f, _) = quick(
            "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done",
            b"",
            30.0,
        );
        assert!(matches!(f.ending, Ending::Exited(0)), "{:?}", f.ending);
        let cpu = f.usage.cpu.unwrap();
        assert!(cpu > Duration::from_millis(10), "{cpu:?}");
        // A run far larger than the tests' own process: its peak is its own.
        let big =
            "exec awk 'BEGIN { s = \"x\"; for (i = 0; i < 27; i++) s = s s; print length(s) }'";
        let (f, out) = quick(big, b"", 30.0);
        assert_eq!(out, b"134217728\n");
        let peak = f.usage.peak_memory.unwrap();
        assert!(peak > 128 << 20 && peak < 2 << 30, "{peak}");
    }

    #[test]
    fn the_cpu_limit_stops_a_spin() {
        let start = Instant::now();
        let limits = Limits {
            cpu: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        let (f, _) = limited("while :; do :; done", b"", 30.0, limits);
        assert!(
            matches!(f.ending, Ending::Signalled(libc::SIGXCPU)),
            "{:?}",
            f.ending
        );
        assert!(f.usage.cpu.unwrap() > Duration::from_millis(500));
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_file_past_the_limit_is_refused() {
        let limits = Limits {
            file: Some(64 << 10),
            ..Limits::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let cmd = format!(
            "exec head -c 1000000 /dev/zero > '{}'",
            dir.path().join("big").display()
        );
        let (f, _) = limited(&cmd, b"", 30.0, limits);
        assert!(
            matches!(f.ending, Ending::Signalled(libc::SIGXFSZ)),
            "{:?}",
            f.ending
        );
    }
}
