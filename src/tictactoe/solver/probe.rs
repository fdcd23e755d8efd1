//! One run of a solver on an empty input before the audit, to tell a command that cannot
//! start at all from a solver with bugs: otherwise every run fails the same way and the report
//! lists them all as broken runs.

use super::process::{self, Ending, Limits, Run};
use super::{TempDir, shell_quote};
use std::io;
use std::time::{Duration, Instant};

/// Exit statuses of a shell that could not start the program: 127 (not found) and 126 (not
/// executable) from `sh`, 9009 (not found) from `cmd`. A solver's own bugs do not give them.
const CANNOT_START: [i32; 3] = [126, 127, 9009];

/// How long the probe may run; a solver still running by then has started.
const PROBE_TIME: Duration = Duration::from_secs(5);

/// Why `command` cannot start (the shell's last line of error), or `None` when it started.
/// It runs under the audit's `limits`, so that limits too low for the shell to start are found
/// here too. `stop` ends the probe early, as in [`process::run`].
pub fn cannot_start(
    command: &str,
    limits: &Limits,
    stop: &dyn Fn() -> bool,
) -> io::Result<Option<String>> {
    let temp = TempDir::new()?;
    let input = temp.path.join("probe.in");
    std::fs::write(&input, b"")?;
    let output = temp.path.join("probe.out");
    let by_name = command.contains("{}");
    let command = if by_name {
        command.replace("{}", &shell_quote(&input))
    } else {
        command.to_string()
    };
    let finished = process::run(
        &Run {
            command: &command,
            stdin: (!by_name).then_some(input.as_path()),
            stdout: &output,
            limit: 1 << 20,
            deadline: Instant::now() + PROBE_TIME,
            limits: *limits,
        },
        stop,
        &mut |_| true,
        &mut Vec::new(),
    );
    Ok(match finished.ending {
        Ending::Exited(code) if CANNOT_START.contains(&code) => {
            let said = String::from_utf8_lossy(&finished.stderr);
            Some(match said.lines().rev().find(|l| !l.trim().is_empty()) {
                Some(line) => line.trim().to_string(),
                None => format!("the shell exited with status {code}"),
            })
        }
        Ending::Failed(e) => Some(e.to_string()),
        _ => None,
    })
}
