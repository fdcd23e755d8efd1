//! A reader that closes standard output at once (`tomek … | head -0`) ends every subcommand
//! that prints quietly with exit 0: the policy lives in `main`, and this holds every printing
//! subcommand to it.

use crate::harness::*;
use std::process::{Command, Stdio};

/// Every subcommand that prints on standard output, with small inputs.
const PRINTING: &[&[&str]] = &[
    &["solve", "generated/sample.in"],
    &["stats", "--setup", "none", "--only", "counts"],
    &[
        "stats", "--setup", "none", "--only", "counts", "--format", "json",
    ],
    &["enumerate", "--setup", "none", "--ply", "0-6"],
    &["audit", "--setup", "none"],
    &["generate", "-n", "20000"],
    &["validate", "generated/large.in"],
    &["validate", "generated/large.in", "--format", "json"],
    &["fourow", "solve", "generated/fourow-mixed.in"],
    &["fourow", "validate", "generated/fourow-mixed.in"],
    &["fourow", "count", "--plies", "6"],
    &["fourow", "count", "--plies", "6", "--format", "csv"],
    // The whole game takes minutes: its rows are streamed, and the first failed write ends it.
    &[
        "fourow", "count", "--method", "bdd", "--plies", "42", "--format", "csv",
    ],
    &["fourow", "generate", "--seed", "1"],
    &["explain", "XX../.TO./OO.X/...."],
    &["explain", "XXXT..O.........", "--format", "json"],
    &["completions", "bash"],
    &["query", "--schema"],
    &[
        "query",
        "--setup",
        "none",
        "--format",
        "csv",
        "SELECT board FROM boards",
    ],
    &[
        "query",
        "--setup",
        "none",
        "--format",
        "json",
        "SELECT board FROM boards",
    ],
    &[
        "query",
        "SELECT status, count(*) FROM boards GROUP BY status",
    ],
];

#[test]
fn every_printing_subcommand_ends_quietly_into_a_closed_pipe() {
    for args in PRINTING {
        // Without the SQL engine, `query` only says how to build it (checked by .ci/run).
        if cfg!(not(feature = "sql")) && args[0] == "query" {
            continue;
        }
        let mut child = Command::new(TOMEK)
            .args(*args)
            .current_dir(project(""))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before the command has printed anything.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?} printed on stderr: {stderr}");
    }
}
