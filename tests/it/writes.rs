//! Writes that never leave debris: a failed write, an interrupted one and a pair of files that
//! cannot both be written all leave the directory as it was; a missing directory on the way to
//! the output is created.

use crate::harness::*;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Runs `tomek ARGS` in `dir` and returns its exit code and standard error.
fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = tomek()
        .current_dir(dir)
        .arg("--quiet")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_output_that_is_a_directory_leaves_no_temporary_file() {
    let sample = generated("sample.in");
    let sample = sample.to_str().unwrap();
    let fourow = generated("fourow-sample.in");
    let fourow = fourow.to_str().unwrap();
    let commands: [&[&str]; 4] = [
        &["solve", sample, "-o", "d"],
        &["fourow", "solve", fourow, "-o", "d"],
        &["enumerate", "--ply", "1", "--format", "lines", "-o", "d"],
        &["stats", "--plot", "d"],
    ];
    for args in commands {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("d")).unwrap();
        let (code, err) = run_in(dir.path(), args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.contains("directory"), "{args:?}: {err}");
        assert_eq!(
            err.matches("irectory").count(),
            1,
            "{args:?}: the system's error is said once: {err}"
        );
        assert_eq!(names(dir.path()), ["d"], "{args:?} left debris");
    }
}

#[test]
fn the_system_error_is_not_repeated() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("d")).unwrap();
    let (code, err) = run_in(
        dir.path(),
        &["solve", generated("sample.in").to_str().unwrap(), "-o", "d"],
    );
    assert_eq!(code, Some(2));
    assert_eq!(err, "tomek: cannot create d: it is a directory\n");
    // A package whose directory cannot be created: the path and the system's error once.
    fs::write(dir.path().join("f"), "").unwrap();
    let (code, err) = run_in(dir.path(), &["package", "-o", "f/pkg"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.matches("(os error").count(), 1, "{err}");
    assert_eq!(names(dir.path()), ["d", "f"]);
}

#[test]
fn an_input_and_its_answers_are_written_both_or_neither() {
    let commands: [&[&str]; 4] = [
        &["generate", "-n", "5", "-o", "e"],
        &["enumerate", "--ply", "1", "-o", "e"],
        &["fourow", "generate", "--games", "5", "-o", "e"],
        &[
            "fourow", "generate", "--games", "5", "--files", "3", "-o", "e",
        ],
    ];
    for args in commands {
        let dir = tempfile::tempdir().unwrap();
        let out = if args.contains(&"--files") {
            "e-2.out"
        } else {
            "e.out"
        };
        fs::create_dir(dir.path().join(out)).unwrap();
        let (code, err) = run_in(dir.path(), args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(out), "{args:?}: names the file: {err}");
        assert_eq!(names(dir.path()), [out], "{args:?} wrote part of the set");
    }
}

#[test]
fn missing_directories_on_the_way_to_an_output_are_created() {
    let sample = generated("sample.in");
    let sample = sample.to_str().unwrap();
    let fourow = generated("fourow-sample.in");
    let fourow = fourow.to_str().unwrap();
    let commands: [(&[&str], &[&str]); 8] = [
        (&["solve", sample, "-o", "a/b/c"], &["a/b/c"]),
        (
            &["generate", "-n", "3", "-o", "a/b/c"],
            &["a/b/c.in", "a/b/c.out"],
        ),
        (
            &[
                "enumerate",
                "--ply",
                "1",
                "--format",
                "lines",
                "-o",
                "a/b/c",
            ],
            &["a/b/c"],
        ),
        (&["stats", "--plot", "a/b/c.svg"], &["a/b/c.svg"]),
        (&["fourow", "solve", fourow, "-o", "a/b/c"], &["a/b/c"]),
        (
            &["fourow", "generate", "--games", "3", "-o", "a/b/c"],
            &["a/b/c.in", "a/b/c.out"],
        ),
        (
            &["package", "-o", "a/b/c", "--zip"],
            &["a/b/c/problem.yaml", "a/b/c.zip"],
        ),
        (
            &["fourow", "package", "-o", "a/b/c"],
            &["a/b/c/problem.yaml"],
        ),
    ];
    for (args, made) in commands {
        let dir = tempfile::tempdir().unwrap();
        let (code, err) = run_in(dir.path(), args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        for m in made {
            assert!(dir.path().join(m).is_file(), "{args:?}: no {m}");
        }
        assert_eq!(names(&dir.path().join("a/b")).len(), made.len(), "{args:?}");
    }
}

/// Sends `signal` to `child` once a temporary file in `dir` holds a few megabytes, and returns
/// the child's exit code.
fn interrupt_when_writing(mut child: Child, dir: &Path, signal: i32) -> Option<i32> {
    let start = Instant::now();
    loop {
        let big = fs::read_dir(dir).unwrap().any(|e| {
            let e = e.unwrap();
            e.file_name().to_string_lossy().ends_with(".tmp")
                && e.metadata().is_ok_and(|m| m.len() > 4 << 20)
        });
        if big {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the command ended before writing much"
        );
        assert!(start.elapsed() < Duration::from_secs(60), "no large write");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: `kill` only sends a signal, to the child started above, which is not yet reaped.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    child.wait().unwrap().code()
}

#[test]
fn a_signal_during_a_large_write_leaves_nothing() {
    for (signal, status) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        // generate: an input and its answers, hundreds of megabytes each.
        let dir = tempfile::tempdir().unwrap();
        let child = Command::new(TOMEK)
            .current_dir(dir.path())
            .args(["--quiet", "generate", "--cases", "100000000", "-o", "big"])
            .spawn()
            .unwrap();
        assert_eq!(
            interrupt_when_writing(child, dir.path(), signal),
            Some(status),
            "generate, signal {signal}"
        );
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));

        // solve -o: answers to an endless input.
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(TOMEK)
            .current_dir(dir.path())
            .args(["--quiet", "solve", "-", "-o", "answers"])
            .stdin(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let feeder = std::thread::spawn(move || {
            let board = b"\nXXXT\n....\nOO..\n....\n".repeat(10_000);
            if stdin.write_all(b"1000000000\n").is_err() {
                return;
            }
            while stdin.write_all(&board).is_ok() {}
        });
        assert_eq!(
            interrupt_when_writing(child, dir.path(), signal),
            Some(status),
            "solve -o, signal {signal}"
        );
        feeder.join().unwrap();
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
    }
}
