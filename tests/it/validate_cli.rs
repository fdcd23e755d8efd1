//! `tomek validate` end to end: every committed input passes, each kind of unreachable board
//! and each format fault is refused with its file, line, case and reason, and the exit codes
//! follow the documented convention (0 valid, 1 invalid, 2 usage error).

use crate::harness::*;
use std::fs;

/// Validates `text` (written to a file named `t.in`); returns the exit code and stderr.
fn validate(text: &str, extra: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.in");
    fs::write(&path, text).unwrap();
    let out = tomek()
        .current_dir(dir.path())
        .arg("validate")
        .arg("t.in")
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn committed_inputs_are_valid_and_the_killer_kills_everything() {
    for (name, dataset) in [
        ("sample", Some("small")),
        ("small", Some("small")),
        ("large", Some("large")),
        ("edge", None),
        ("killer", None),
    ] {
        let mut cmd = tomek();
        cmd.args(["validate", &format!("generated/{name}.in"), "--mutants"]);
        if let Some(d) = dataset {
            cmd.args(["--dataset", d]);
        }
        let out = cmd.output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}: {stdout}");
        assert!(stdout.contains(": valid, "), "{stdout}");
        if name == "killer" {
            let n = tomek::tictactoe::mutants::Mutant::ALL.len();
            assert!(
                stdout.contains(&format!("mutants killed: {n} of {n}")),
                "{stdout}"
            );
            // No row of the mutant table says `no` in its `killed` column.
            assert!(
                !stdout
                    .lines()
                    .any(|l| l.split_whitespace().nth(1) == Some("no")),
                "{stdout}"
            );
        }
    }
}

/// A file of boards given as 16-symbol strings.
fn file(boards: &[&str]) -> String {
    let mut s = format!("{}\n", boards.len());
    for b in boards {
        for r in 0..4 {
            s.push_str(&b[4 * r..4 * r + 4]);
            s.push('\n');
        }
        s.push('\n');
    }
    s
}

#[test]
fn unreachable_boards_are_refused_with_their_reason() {
    let ok = "XXXTOO..........";
    // Overlapping symbols cannot be written in the text format at all; a second T is a
    // format fault the reader refuses (checked below).
    for (board, reason) in [
        (
            "XXX.............",
            "stone counts do not fit the turn order: 3 X and 0 O",
        ),
        ("XXXXOOOO........", "both players have a line"),
        (
            "XXXXOOO.O.......",
            "X has a line but O moved last: the line would have ended the game earlier",
        ),
        (
            "XXXTOOO.XXXXOOO.",
            "no X stone lies on every X line, so no last move can have completed them all",
        ),
    ] {
        let (code, _, err) = validate(&file(&[ok, board]), &[]);
        assert_eq!(code, 1, "{board}");
        assert!(
            err.starts_with("t.in:7: case 2: unreachable board: "),
            "{board}: {err}"
        );
        assert!(err.contains(reason), "{board}: {err}");
    }
    let (code, _, err) = validate(&file(&[ok, "XXTTOO.........."]), &[]);
    assert_eq!(code, 1);
    assert!(err.starts_with("t.in:7: case 2: more than one T"), "{err}");
}

#[test]
fn format_faults_name_line_and_case() {
    let good = file(&["XXXTOO..........", "................"]);
    let cases = [
        (
            good.replacen("XXXT\n", "XXXT\r\n", 1),
            "t.in:2: case 1: ",
            "CRLF",
        ),
        (
            good.replacen("OO..\n", "OO.. \n", 1),
            "t.in:3: case 1: ",
            "trailing",
        ),
        (
            good[..good.len() - 1].to_string(),
            "t.in:11: case 2: ",
            "missing the empty line",
        ),
        (format!("{good}\n"), "t.in:12: ", "text after the last case"),
        (
            good.replacen("\n\n", "\n\n\n", 1),
            "t.in:7: case 2: ",
            "empty line",
        ),
        (good.replacen("2\n", "02\n", 1), "t.in:1: ", "leading zero"),
        (good.replacen("2\n", "0\n", 1), "t.in:1: ", "at least 1"),
        (
            good.replacen("OO..", "OO.x", 1),
            "t.in:3: case 1: ",
            "invalid character 'x'",
        ),
        (
            good.replacen("OO..", "OO...", 1),
            "t.in:3: case 1: ",
            "5 symbols",
        ),
        (
            good.replacen("2\n", "3\n", 1),
            "t.in:12: case 3: ",
            "missing",
        ),
    ];
    for (text, place, what) in cases {
        let (code, _, err) = validate(&text, &[]);
        assert_eq!(code, 1, "{text:?}");
        assert!(err.starts_with(place), "{what}: {err}");
        assert!(err.contains(what), "{what}: {err}");
    }
}

#[test]
fn dataset_bounds_and_usage_errors() {
    let eleven = file(&["................"; 11]);
    let (code, _, err) = validate(&eleven, &["--dataset", "small"]);
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        "t.in:1: 11 cases; the small dataset allows 1 to 10"
    );
    assert_eq!(validate(&eleven, &["--dataset", "large"]).0, 0);
    assert_eq!(validate(&eleven, &[]).0, 0);
    assert_eq!(validate(&eleven, &["--dataset", "huge"]).0, 2);
    let out = tomek()
        .args(["validate", "no/such/file.in"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open no/such/file.in"));
    let dir = tempfile::tempdir().unwrap();
    let out = tomek().arg("validate").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "a directory cannot be read");
}

#[test]
fn summary_reports_coverage_as_json() {
    let (code, out, _) = validate(
        &file(&["XXXTOO..........", "XO..XT..XO...O.."]),
        &["--format", "json"],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["cases"], 2);
    assert_eq!(v["statuses"], serde_json::json!([1, 1, 0, 0]));
    // X on row 1 through the T; O on column 2 through the T.
    assert_eq!(v["lines"][0][0], 1);
    assert_eq!(v["lines"][1][5], 1);
    assert_eq!(v["through_t"], serde_json::json!([1, 1]));
    let n = tomek::tictactoe::mutants::Mutant::ALL.len();
    assert_eq!(v["mutants_total"], n);
    assert_eq!(v["mutants"].as_array().unwrap().len(), n);
}

/// A reader that stops early (`tomek validate F | head -n 1`) ends a report command with
/// success and no panic, as it does for `solve`.
#[test]
fn reports_end_quietly_when_the_reader_goes_away() {
    use std::process::{Command as Std, Stdio};
    let root = env!("CARGO_MANIFEST_DIR");
    for args in [
        vec!["validate", "generated/large.in", "--mutants"],
        vec!["stats", "--setup", "none", "--only", "counts", "--by-ply"],
    ] {
        let mut child = Std::new(env!("CARGO_BIN_EXE_tomek"))
            .args(&args)
            .current_dir(root)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Closed before the command has computed anything to print.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    }
}
