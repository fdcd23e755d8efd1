//! Progress bars that show on a terminal and stay silent when output is piped or `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

static QUIET: AtomicBool = AtomicBool::new(false);

/// Silences every progress bar made from now on.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether bars are drawn: stderr is a terminal and `--quiet` was not given.
pub fn enabled() -> bool {
    !QUIET.load(Ordering::Relaxed) && std::io::stderr().is_terminal()
}

/// A bar over `len` units of work, labelled `what`; hidden when bars are disabled.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    if !enabled() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template(
            "{msg:>12} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({eta} left)",
        )
        .expect("static template is valid"),
    );
    pb.set_message(what.to_string());
    pb
}

/// A spinner for work of unknown length (streams), counting units as they pass.
pub fn counter(what: &str) -> ProgressBar {
    if !enabled() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template(
            "{msg:>12} [{elapsed_precise}] {spinner} {human_pos} ({per_sec})",
        )
        .expect("static template is valid"),
    );
    pb.set_message(what.to_string());
    pb
}
