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

/// A dataset's default data is a contest's: every status, as many catalogued bugs caught as its
/// cases allow, and within the dataset's bounds.
///
/// The large dataset (1000 cases) holds the whole killer set. The small one (10 cases) cannot:
/// each mutant that skips one line is caught only by a board whose single winning line is that
/// one, so no board catches two of them, and `never-draw` and `draw-ignores-empty` are caught
/// only by boards without a winner, one full and one not. Ten boards with `k` of the latter
/// catch at most `10 - k` of the ten line mutants and miss at least `2 - k` of the two others:
/// two mutants are missed whatever the choice, and the file must miss no more.
#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn datasets_default_to_the_contest_profile() {
    let all = tomek::tictactoe::mutants::Mutant::ALL;
    let n = all.len();
    let single_lines = [
        "row-1-missing",
        "row-2-missing",
        "row-3-missing",
        "last-row-missing",
        "column-1-missing",
        "column-2-missing",
        "column-3-missing",
        "last-column-missing",
        "no-main-diagonal",
        "no-anti-diagonal",
    ];
    for id in single_lines
        .iter()
        .chain(&["never-draw", "draw-ignores-empty"])
    {
        assert!(all.iter().any(|m| m.id() == *id), "{id} is not catalogued");
    }
    for (dataset, cases) in [("small", 10), ("large", 1000)] {
        let missed = (single_lines.len() + 2).saturating_sub(cases);
        let killed = n - missed;
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
            report.contains(&format!("mutants killed: {killed} of {n}")),
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
