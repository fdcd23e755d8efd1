//! `tomek check` end to end: each testlib exit code on an output built for it.

use assert_cmd::Command;
use std::fs;

/// Runs the checker on the official sample with `output` as the contestant's file and
/// `answers` as the jury's; returns the exit code and the message.
fn check(answers: &str, output: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("ans"), answers).unwrap();
    fs::write(dir.path().join("out"), output).unwrap();
    let out = Command::cargo_bin("tomek")
        .unwrap()
        .arg("check")
        .arg(fs::canonicalize("generated/sample.in").unwrap())
        .args(["ans", "out"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr)
            .unwrap()
            .trim_end()
            .to_string(),
    )
}

#[test]
fn every_exit_code() {
    let one: String = fs::read_to_string("generated/sample.out")
        .unwrap()
        .lines()
        .take(1)
        .map(|l| format!("{l}\n"))
        .collect();
    let right = fs::read_to_string("generated/sample.out").unwrap();
    let (code, msg) = check(&one, &right);
    assert_eq!(code, 3);
    assert!(msg.contains("ends after 1 answer, "), "{msg}");
    let right = fs::read_to_string("generated/sample.out").unwrap();
    assert_eq!(check(&right, &right), (0, "ok 6 cases".into()));
    // Tolerated: trailing blanks, CRLF, no final newline, empty lines at the end.
    assert_eq!(check(&right, &right.replace('\n', "\t\r\n")).0, 0);
    assert_eq!(check(&right, right.trim_end()).0, 0);
    assert_eq!(check(&right, &format!("{right}\n\n")).0, 0);
    // Wrong answer: the words differ (a digit zero for O is a wrong claim, not a typo).
    assert_eq!(
        check(&right, &right.replace("#5: O won", "#5: 0 won")),
        (
            1,
            "wrong answer: out:5: case 5: expected \"O won\", found \"0 won\"".into()
        )
    );
    assert_eq!(
        check(
            &right,
            &right.replace("#2: Draw", "#2: Game has not completed")
        )
        .0,
        1
    );
    // Presentation errors.
    let (code, msg) = check(&right, &right.replace("Case #3", "case #3"));
    assert_eq!(code, 2, "{msg}");
    assert_eq!(
        msg,
        "presentation error: out:3: case 3: expected a line starting with \"Case #3:\", \
         found \"case #3: Game has not completed\""
    );
    // The whitespace rule the audit shares: blanks between the words and blank lines do not
    // matter; a word run into the colon does.
    assert_eq!(check(&right, &right.replace("#3: ", "#3:  ")).0, 0);
    assert_eq!(check(&right, &right.replacen('\n', "\n\n", 1)).0, 0);
    assert_eq!(check(&right, &right.replace("#3: ", "#3:")).0, 2);
    let five: String = right.lines().take(5).map(|l| format!("{l}\n")).collect();
    assert_eq!(
        check(&right, &five),
        (
            2,
            "presentation error: out: the output ends after 5 of 6 cases".into()
        )
    );
    assert_eq!(check(&right, &format!("{right}Case #7: X won\n")).0, 2);
    // Checker failures: the jury's answers are broken.
    assert_eq!(check(&five, &right).0, 3);
    let (code, msg) = check(&right.replace("#2: Draw", "#2: X won"), &right);
    assert_eq!(code, 3);
    assert!(
        msg.contains("the answers say \"X won\" but the board is \"Draw\""),
        "{msg}"
    );
    let out = Command::cargo_bin("tomek")
        .unwrap()
        .args([
            "check",
            "generated/sample.in",
            "generated/sample.out",
            "missing.out",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
}
