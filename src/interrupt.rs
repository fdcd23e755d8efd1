//! Ctrl-C, `kill` and a closed terminal (on Windows: Ctrl-C, Ctrl-Break and a closed console).
//!
//! A process has a single handler for these, so every command shares this one. By default an
//! interrupt removes the temporary files of writes still in progress (see
//! [`crate::output::AtomicFile`]) and ends the process with the shell's status for the
//! signal: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP. A command that must stop work of
//! its own first (the solver audit kills its solvers, which run in process groups of their
//! own) calls [`poll`] instead, and then watches [`requested`].

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by an interrupt once [`install`] has run.
pub static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Whether the running command watches [`REQUESTED`] itself instead of being ended.
static POLLED: AtomicBool = AtomicBool::new(false);

/// Routes the interrupts to the shared handler; later calls change nothing.
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Fails only when a handler is already installed by someone else, whose behaviour
        // then stays in place.
        if ctrlc::set_handler(on_interrupt).is_ok() {
            #[cfg(unix)]
            signal::record();
        }
    });
}

/// From now on an interrupt only sets [`REQUESTED`]: the caller stops its work and cleans up.
pub fn poll() {
    install();
    POLLED.store(true, Ordering::SeqCst);
}

/// Whether a stop was requested by an interrupt.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

fn on_interrupt() {
    REQUESTED.store(true, Ordering::SeqCst);
    if POLLED.load(Ordering::SeqCst) {
        return;
    }
    crate::output::remove_temporaries_and_exit(exit_status());
}

/// The status a shell gives a process ended by the signal that arrived.
fn exit_status() -> i32 {
    #[cfg(unix)]
    {
        128 + signal::last().unwrap_or(libc::SIGINT)
    }
    #[cfg(not(unix))]
    {
        130
    }
}

/// Which signal arrived: the handler that `ctrlc` installs does not say, so a small handler
/// placed in front of it writes the number down and then passes the signal on.
#[cfg(unix)]
mod signal {
    use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    /// The last signal received, 0 before any.
    static LAST: AtomicI32 = AtomicI32::new(0);

    /// The handler that was in place for each of [`SIGNALS`], 0 when there was none to call.
    static NEXT: [AtomicUsize; 3] = [
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    ];

    pub fn last() -> Option<i32> {
        match LAST.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s),
        }
    }

    extern "C" fn note(sig: libc::c_int) {
        LAST.store(sig, Ordering::SeqCst);
        if let Some(i) = SIGNALS.iter().position(|&s| s == sig) {
            let next = NEXT[i].load(Ordering::SeqCst);
            if next != 0 {
                // SAFETY: `next` was read from the signal's disposition in `record`, where it
                // was checked to be a plain one-argument handler (not SIG_DFL, SIG_IGN or an
                // SA_SIGINFO handler); calling it is what the kernel would have done.
                let next: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(next) };
                next(sig);
            }
        }
    }

    /// Puts [`note`] in front of the handler now in place for each signal.
    pub fn record() {
        for (i, &sig) in SIGNALS.iter().enumerate() {
            // SAFETY: `sigaction` reads and writes the `sigaction` structures passed, which
            // live on this stack; the new disposition keeps the old flags and mask and only
            // swaps in a handler that is async-signal-safe (an atomic store and a call).
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 {
                    continue;
                }
                let plain = old.sa_flags & libc::SA_SIGINFO == 0;
                if !plain || old.sa_sigaction == libc::SIG_DFL || old.sa_sigaction == libc::SIG_IGN
                {
                    continue;
                }
                NEXT[i].store(old.sa_sigaction, Ordering::SeqCst);
                let mut new = old;
                new.sa_sigaction = note as extern "C" fn(libc::c_int) as usize;
                libc::sigaction(sig, &new, std::ptr::null_mut());
            }
        }
    }
}
