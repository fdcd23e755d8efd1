//! The conventions every command shares: `-` for standard input, a default seed for every
//! generator, an error (exit 2) for a request that selects nothing or a solver that cannot
//! start, one whitespace rule for the audit and the checker, bounded memory on long lines, and
//! the wording of messages.

use crate::harness::*;
use std::time::{Duration, Instant};

/// Runs `tomek --quiet ARGS` with `stdin`; returns the exit code, standard output and error.
fn run(args: &[&str], stdin: &[u8]) -> (Option<i32>, String, String) {
    let out = tomek()
        .arg("--quiet")
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn path(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_dash_reads_standard_input_everywhere() {
    let sample_in = generated("sample.in");
    let sample_out = generated("sample.out");
    let (si, so) = (read(&sample_in), read(&sample_out));
    let (i, o) = (path(&sample_in), path(&sample_out));
    let fourow_in = read(generated("fourow-sample.in"));

    let (code, out, err) = run(&["validate", "-"], &si);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.is_empty(), "{out}");
    for args in [
        ["check", "-", o, o],
        ["check", i, "-", o],
        ["check", i, o, "-"],
    ] {
        let stdin = if args[1] == "-" { &si } else { &so };
        let (code, _, err) = run(&args, stdin);
        assert_eq!(code, Some(0), "{args:?}: {err}");
    }
    let (code, _, err) = run(&["check", "-", "-", o], &si);
    assert_eq!(
        code,
        Some(3),
        "two files cannot both be standard input: {err}"
    );
    assert!(err.contains("standard input"), "{err}");
    let (code, out, err) = run(&["explain", "--input", "-", "--case", "1"], &si);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.is_empty());
    let (code, out, err) = run(&["solve", "-"], &si);
    assert_eq!((code, out.as_bytes()), (Some(0), so.as_slice()), "{err}");
    let (code, out, err) = run(&["fourow", "solve", "-"], &fourow_in);
    assert_eq!(
        (code, out.as_bytes()),
        (Some(0), read(generated("fourow-sample.out")).as_slice()),
        "{err}"
    );
    let (code, _, err) = run(&["fourow", "validate", "-"], &fourow_in);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn every_generator_has_a_default_seed() {
    let (code, fourow, err) = run(&["fourow", "generate"], b"");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(fourow, stdout_of(&["fourow", "generate", "--seed", "1"]));
    assert_eq!(
        stdout_of(&["generate", "-n", "5"]),
        stdout_of(&[
            "generate",
            "-n",
            "5",
            "--seed",
            &tomek::tictactoe::sample::DEFAULT_SEED.to_string()
        ])
    );
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["package", "-o", path(&dir.path().join("a"))][..],
        &["fourow", "package", "-o", path(&dir.path().join("b"))][..],
    ] {
        let (code, _, err) = run(args, b"");
        assert_eq!(code, Some(0), "{args:?}: {err}");
    }
}

#[test]
fn a_request_that_selects_nothing_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("none");
    let solver = format!("{TOMEK} solve");
    for args in [
        &[
            "stats", "--format", "csv", "--view", "orbits", "--only", "counts",
        ][..],
        &["enumerate", "--status", "draw", "--ply", "3"][..],
        &[
            "enumerate",
            "--status",
            "draw",
            "--ply",
            "3",
            "-o",
            path(&prefix),
        ][..],
        &[
            "audit", "--status", "draw", "--ply", "3", "--solver", &solver,
        ][..],
    ] {
        let (code, out, err) = run(args, b"");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("--only must include symmetry") || err.contains("no reachable board"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_solver_that_cannot_start_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let not_executable = dir.path().join("solver.py");
    std::fs::write(&not_executable, "print(1)\n").unwrap();
    for solver in [
        "./no-such-solver",
        "no-such-solver {}",
        path(&not_executable),
    ] {
        let start = Instant::now();
        let (code, out, err) = run(&["audit", "--solver", solver], b"");
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{solver}: at once"
        );
        assert_eq!(code, Some(2), "{solver}: {err}");
        assert!(out.is_empty(), "{solver}: {out}");
        assert_eq!(err.lines().count(), 1, "{solver}: one line: {err}");
        assert!(err.contains("cannot start"), "{solver}: {err}");
    }
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn checker_and_audit_share_one_whitespace_rule() {
    let sample_in = generated("sample.in");
    let sample_out = generated("sample.out");
    let dir = tempfile::tempdir().unwrap();
    // Each layout is a sed script applied to right answers: to the sample's for `check`, to
    // `tomek solve`'s for the audit (over the edge profile, which has every status).
    for (script, accepted) in [
        ("s/: /:  /", true),
        ("s/: /:\t/", true),
        ("s/$/ \r/", true),
        ("s/$/\\n/", true),
        ("s/^/  /", true),
        ("s/X won/X  won/", true),
        ("s/: /:/", false),
        ("s/Case #/Case # /", false),
        ("s/Case/case/", false),
        ("s/X won/x won/", false),
    ] {
        let out_file = dir.path().join("out");
        let sed = std::process::Command::new("sed")
            .arg(script)
            .arg(&sample_out)
            .output()
            .unwrap();
        std::fs::write(&out_file, &sed.stdout).unwrap();
        let (code, _, err) = run(
            &[
                "check",
                path(&sample_in),
                path(&sample_out),
                path(&out_file),
            ],
            b"",
        );
        assert_eq!(code == Some(0), accepted, "check, {script}: {err}");
        let solver = format!("{TOMEK} solve | sed '{script}'");
        let (code, out, err) = run(
            &[
                "audit",
                "--solver",
                &solver,
                "--profile",
                "edge",
                "--jobs",
                "1",
            ],
            b"",
        );
        assert_eq!(code == Some(0), accepted, "audit, {script}: {out}{err}");
    }
}

#[test]
fn messages_speak_plainly() {
    // Plurals.
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.out");
    std::fs::write(&one, "Case #1: X won\n").unwrap();
    let (code, _, err) = run(
        &[
            "check",
            path(&generated("sample.in")),
            path(&one),
            path(&generated("sample.out")),
        ],
        b"",
    );
    assert_eq!(code, Some(3));
    assert!(
        err.contains("ends after 1 answer, the input has 6 cases"),
        "{err}"
    );
    let empty = stdout_of(&["explain", "................"]);
    assert!(
        empty.contains("1 move order from the empty board reaches it"),
        "{empty}"
    );
    // Bounds in words, not Rust ranges.
    for (args, bounds) in [
        (&["fourow", "generate", "--games", "0"][..], "from 1 to 99"),
        (
            &["package", "-o", "x", "--large-cases", "0"][..],
            "from 1 to 1,000,000",
        ),
        (&["explain", "--input", "-", "--case", "0"][..], "from 1 up"),
        (
            &["audit", "--solver", "x", "--chunk", "0"][..],
            "from 1 to 100,000,000",
        ),
    ] {
        let (code, _, err) = run(args, b"");
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.contains(bounds), "{args:?}: {err}");
        assert!(!err.contains(".."), "{args:?}: {err}");
    }
    // The heading says which setups the numbers are about.
    let none = stdout_of(&["stats", "--setup", "none", "--only", "counts"]);
    assert!(
        none.starts_with("4×4 board, 4 in a row, setup none (no T)\n"),
        "{none}"
    );
    let all = stdout_of(&["stats", "--only", "counts"]);
    assert!(
        all.starts_with("4×4 board, 4 in a row, with the T setups\n"),
        "{all}"
    );
    // The audit's summary names the solver.
    let help = stdout_of(&["audit", "--help"]);
    assert!(help.lines().next().unwrap().contains("--solver"), "{help}");
}

#[test]
fn a_package_name_must_follow_the_format() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["MyProb", "my-prob", "my_prob", "prob.v2"] {
        let (code, out, err) = run(&["package", "-o", path(&dir.path().join(name))], b"");
        assert_eq!(code, Some(2), "{name}: {err}");
        assert!(out.is_empty());
        assert!(err.contains("lower-case letters"), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn the_guide_gives_the_package_sizes_tomek_prints() {
    let chapter = String::from_utf8(read(project("docs/src/package/index.md"))).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (args, name) in [
        (&["package", "--zip", "-o", "tomek"][..], "tomek"),
        (
            &["fourow", "package", "--zip", "-o", "fourow"][..],
            "fourow",
        ),
    ] {
        let out = tomek()
            .current_dir(dir.path())
            .arg("--quiet")
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success());
        let first = String::from_utf8(out.stdout).unwrap();
        let first = first.lines().next().unwrap().to_string();
        assert!(first.starts_with(&format!("{name}: ")), "{first}");
        assert!(
            chapter.lines().any(|l| l == first),
            "docs/src/package/index.md should show `{first}`"
        );
    }
}

#[test]
fn fourow_reads_a_huge_line_in_bounded_memory() {
    // 35 MB of moves on one line: judged whole (its length, or the first bad byte with its
    // column) while the reader holds a few kilobytes of it.
    let n = 35 << 20;
    let mut input = b"2\nGame #1: 4\nGame #2: ".to_vec();
    input.extend((0..n).map(|i| b'1' + (i % 7) as u8));
    input.push(b'\n');
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("huge.in");
    std::fs::write(&file, &input).unwrap();
    let name = path(&file);
    let (code, out, err) = run(&["fourow", "solve", name], b"");
    assert_eq!(code, Some(2));
    assert!(out.is_empty());
    assert_eq!(err, format!("{name}:3: {n} moves; a game has at most 42\n"));
    let (code, _, err) = run(&["fourow", "validate", "-"], &input);
    assert_eq!(code, Some(1));
    assert!(
        err.starts_with(&format!("<stdin>:3: {n} moves; a game has at most 42\n")),
        "{err}"
    );
    let at = input.len() - 2;
    input[at] = b'9';
    let (code, _, err) = run(&["fourow", "validate", "-"], &input);
    assert_eq!(code, Some(1));
    let column = n + "Game #2: ".len();
    assert!(
        err.starts_with(&format!(
            "<stdin>:3: column {column}: move `9` names no slot; slots are numbered 1 to 7\n"
        )),
        "{err}"
    );
}
