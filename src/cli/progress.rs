//! Progress bars for the command line: drawn on a terminal, silent when standard error is piped
//! or with `--quiet`. The library reports progress through callbacks; this module turns them
//! into bars.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::OnceLock;
use std::time::Duration;
use tomek::tictactoe::rules::Geometry;
use tomek::tictactoe::space::Space;

/// Whether bars are drawn, fixed once by `main` from `--quiet` and the terminal.
static ENABLED: OnceLock<bool> = OnceLock::new();

/// Decides once, at start-up, whether this run draws bars.
pub fn init(quiet: bool) {
    let _ = ENABLED.set(!quiet && std::io::stderr().is_terminal());
}

fn enabled() -> bool {
    ENABLED.get().copied().unwrap_or(false)
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

/// A spinner for work whose size is not known ahead, showing `what` and then a message that
/// the caller updates (for instance the size of a data structure as it grows).
pub fn status(what: &str) -> ProgressBar {
    if !enabled() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template("{prefix:>8} [{elapsed_precise}] {spinner} {msg}")
            .expect("static template is valid"),
    );
    pb.set_prefix(what.to_string());
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}

/// Explores the given setups with a bar over them.
pub fn explore_setups(geometry: Arc<Geometry>, setups: &[u16]) -> Space {
    let pb = bar(setups.len() as u64, "setups");
    let space = Space::explore_setups_with(geometry, setups, |n| pb.inc(n));
    pb.finish_and_clear();
    space
}
