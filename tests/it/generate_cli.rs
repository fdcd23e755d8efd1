//! `tomek generate` end to end: same bytes with one and two threads, standard output equal to
//! the file, datasets, the committed files rebuilt, and valid output for every profile.

use crate::harness::*;
use std::fs;

#[test]
fn same_bytes_on_one_and_two_threads_and_on_stdout() {
    let dir = tempfile::tempdir().unwrap();
    for threads in ["1", "2"] {
        tomek()
            .env("RAYON_NUM_THREADS", threads)
            .args(["generate", "-n", "150000", "--seed", "4", "-o"])
            .arg(dir.path().join(format!("t{threads}")))
            .assert()
            .success();
    }
    let read = |n: &str| fs::read(dir.path().join(n)).unwrap();
    assert!(read("t1.in") == read("t2.in"));
    assert!(read("t1.out") == read("t2.out"));
    let stdout = tomek()
        .args(["generate", "-n", "150000", "--seed", "4"])
        .output()
        .unwrap();
    assert!(stdout.status.success());
    assert!(stdout.stdout == read("t1.in"));
    // The answers are what the solver says, and the file is valid.
    let solved = tomek()
        .arg("solve")
        .arg(dir.path().join("t1.in"))
        .output()
        .unwrap();
    assert!(solved.stdout == read("t1.out"));
    tomek()
        .arg("validate")
        .arg(dir.path().join("t1.in"))
        .assert()
        .success();
}

#[test]
fn datasets_and_committed_files() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("small");
    tomek()
        .args([
            "generate",
            "--profile",
            "official",
            "--dataset",
            "small",
            "-o",
        ])
        .arg(&prefix)
        .assert()
        .success();
    assert!(
        fs::read(dir.path().join("small.in")).unwrap() == fs::read("generated/small.in").unwrap()
    );
    assert!(
        fs::read(dir.path().join("small.out")).unwrap() == fs::read("generated/small.out").unwrap()
    );
    let out = tomek()
        .args(["generate", "--dataset", "small", "--cases", "11"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("outside the small dataset's bounds"));
    assert_eq!(
        tomek()
            .args(["generate", "--cases", "0"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        tomek()
            .args(["generate", "--setup", "16"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn every_profile_writes_a_valid_file() {
    let dir = tempfile::tempdir().unwrap();
    for (profile, setup) in [
        ("uniform", "none"),
        ("balanced", "all"),
        ("official", "3,none"),
        ("edge", "all"),
        ("killer", "all"),
        ("exhaustive", "5"),
    ] {
        let prefix = dir.path().join(profile);
        tomek()
            .args([
                "generate",
                "--profile",
                profile,
                "--setup",
                setup,
                "-n",
                "300",
                "-o",
            ])
            .arg(&prefix)
            .assert()
            .success();
        let input = dir.path().join(format!("{profile}.in"));
        let answers = dir.path().join(format!("{profile}.out"));
        tomek().arg("validate").arg(&input).assert().success();
        tomek()
            .arg("check")
            .args([&input, &answers, &answers])
            .assert()
            .success();
    }
}

/// A dataset's default data is a contest's: every status, every catalogued bug caught, and
/// within the dataset's bounds.
#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn datasets_default_to_the_contest_profile() {
    let n = tomek::tictactoe::mutants::Mutant::ALL.len();
    for dataset in ["small", "large"] {
        let input = stdout_of(&["generate", "--dataset", dataset]);
        let explicit = stdout_of(&["generate", "--dataset", dataset, "--profile", "contest"]);
        assert!(input == explicit, "{dataset}: the default is not contest");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.in");
        fs::write(&path, &input).unwrap();
        let report = stdout_of(&[
            "validate",
            "--dataset",
            dataset,
            "--mutants",
            path.to_str().unwrap(),
        ]);
        assert!(
            report.contains(&format!("mutants killed: {n} of {n}")),
            "{dataset}: {report}"
        );
        for status in ["X won", "O won", "Draw", "Game has not completed"] {
            let row = report
                .lines()
                .find(|l| l.starts_with(status))
                .unwrap_or_else(|| panic!("{dataset}: no {status} row: {report}"));
            let count: u64 = row[status.len()..]
                .split_whitespace()
                .next()
                .unwrap()
                .replace(',', "")
                .parse()
                .unwrap();
            assert!(count > 0, "{dataset}: no {status} case");
        }
    }
}
