//! The audit report for people: counts, the wrong answers, the smallest failing board of each
//! kind, and the runs that went wrong, in aligned columns.

use super::{Report, size_text};
use crate::output::{Table, grouped};
use crate::tictactoe::board::Board;
use std::fmt::Write;

/// The report as aligned text.
pub fn render(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Audit of `{}`", r.command);
    let sizes = match r.chunk {
        Some(n) => format!("of up to {} cases", grouped(n as u128)),
        None if r.smallest_chunk == r.largest_chunk => {
            format!("of {} cases (adaptive)", grouped(r.largest_chunk as u128))
        }
        None => format!(
            "of {} to {} cases (adaptive)",
            grouped(r.smallest_chunk as u128),
            grouped(r.largest_chunk as u128)
        ),
    };
    let runs = format!(
        "in {} {} {sizes}, {} at a time",
        grouped(r.runs as u128),
        if r.runs == 1 { "run" } else { "runs" },
        r.jobs
    );
    let rows = [
        ("boards", grouped(r.boards as u128), String::new()),
        ("checked", grouped(r.checked as u128), runs),
        ("wrong", grouped(r.wrong as u128), String::new()),
        (
            "broken runs",
            grouped(r.problems.len() as u128),
            String::new(),
        ),
        ("unchecked", grouped(r.unchecked as u128), String::new()),
        ("time", format!("{:.1} s", r.seconds), String::new()),
    ];
    let l = &r.limits;
    let mut limits = Vec::new();
    if let Some(m) = l.memory {
        limits.push(format!("memory {}", size_text(m)));
    }
    if let Some(c) = l.cpu_seconds {
        limits.push(format!("CPU {} s", seconds(c)));
    }
    limits.push(format!("wall {} s", seconds(l.wall_seconds)));
    if let Some(f) = l.file {
        limits.push(format!("files {}", size_text(f)));
    }
    let _ = writeln!(s, "  {:<11}  {}", "limits", limits.join(", "));
    let width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    for (name, value, note) in rows {
        let line = format!("  {name:<11}  {value:>width$}  {note}");
        let _ = writeln!(s, "{}", line.trim_end());
    }

    if !r.failures.is_empty() {
        let shown = if r.failures.len() as u64 == r.wrong {
            "in case order".to_string()
        } else {
            format!(
                "the first {} of {}, in case order",
                r.failures.len(),
                r.wrong
            )
        };
        let _ = writeln!(s, "\nWrong answers ({shown}):");
        let mut t = Table::new(["case", "stones", "board", "expected", "received"]);
        for f in &r.failures {
            t.push([
                grouped(f.case as u128),
                f.stones.to_string(),
                f.board.to_line(),
                r.answer(f.expected),
                shown_text(&f.received),
            ]);
        }
        indent(&mut s, &t.render(), "  ");
    }

    if !r.kinds.is_empty() {
        let _ = writeln!(
            s,
            "\nSmallest failing board of each kind (fewest stones, then the earliest case):"
        );
        for k in &r.kinds {
            let m = &k.minimal;
            let _ = writeln!(
                s,
                "  expected `{}`, received `{}` ({}): case {}, {} stones",
                r.answer(k.expected),
                k.received,
                count(k.count, "board", "boards"),
                grouped(m.case as u128),
                m.stones
            );
            indent(&mut s, &grid(m.board), "    ");
        }
    }

    if !r.problems.is_empty() {
        let _ = writeln!(s, "\nRuns that went wrong:");
        for p in &r.problems {
            // How far the run got, unless the message says it already.
            let after = match p.kind {
                "too-few" | "too-many" => String::new(),
                _ => format!(", after {}", count(p.answered, "answer", "answers")),
            };
            let _ = writeln!(
                s,
                "  chunk {} (cases {}-{}): {}: {}{after}",
                grouped(p.chunk as u128),
                grouped(p.first_case as u128),
                grouped(p.last_case as u128),
                p.verdict,
                p.what,
            );
            if let Some(text) = &p.text {
                let _ = writeln!(s, "    line: {}", shown_text(text));
            }
            if let (Some(case), Some(b), Some(st)) = (p.case, p.board, p.expected) {
                let _ = writeln!(
                    s,
                    "    at case {} (case {} of the chunk, {} stones, expected `{}`):",
                    grouped(case as u128),
                    grouped((case + 1 - p.first_case) as u128),
                    b.ply(),
                    r.answer(st)
                );
                indent(&mut s, &grid(b), "      ");
            }
            let err = p.stderr.trim_end();
            if !err.is_empty() {
                let _ = writeln!(s, "    standard error (the end):");
                let lines: Vec<&str> = err.lines().collect();
                indent(
                    &mut s,
                    &lines[lines.len().saturating_sub(8)..].join("\n"),
                    "    | ",
                );
            }
        }
    }

    let _ = writeln!(s);
    if r.interrupted {
        let _ = writeln!(s, "Interrupted: every solver process was stopped.");
    } else if r.passed() {
        let _ = writeln!(
            s,
            "The solver answered all {} boards right.",
            grouped(r.boards as u128)
        );
    } else {
        let mut why = Vec::new();
        if r.wrong > 0 {
            why.push(count(r.wrong, "wrong answer", "wrong answers"));
        }
        if !r.problems.is_empty() {
            why.push(count(r.problems.len() as u64, "broken run", "broken runs"));
        }
        let stop = if r.stopped_early {
            " (stopped at --max-failures)"
        } else {
            ""
        };
        let _ = writeln!(s, "FAILED: {}{stop}.", why.join(", "));
    }
    s
}

/// Seconds without useless decimals.
fn seconds(s: f64) -> String {
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s}")
    }
}

/// `n` and the noun that goes with it.
fn count(n: u64, one: &str, many: &str) -> String {
    crate::output::plural(n, one, many)
}

/// A received text as shown: quoted when it has surrounding spaces or is empty.
fn shown_text(t: &str) -> String {
    if t.is_empty() {
        "(nothing)".to_string()
    } else {
        t.to_string()
    }
}

/// The board as four rows.
fn grid(b: Board) -> String {
    b.to_string()
}

fn indent(s: &mut String, text: &str, by: &str) {
    for line in text.lines() {
        let _ = writeln!(s, "{by}{line}");
    }
}
