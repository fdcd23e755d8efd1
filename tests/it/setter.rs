//! The setter's path with a description of their own, copied from a built-in: the hints and
//! the files made from it name the file given, a file that keeps a built-in's name is warned
//! of, and `generate -o` writes its answers as `.out`.

use crate::harness::{read, stdout_of, tomek};
use std::path::Path;

/// The text of `builtin`'s description with its `name` set to `name`.
fn renamed(builtin: &str, name: &str) -> String {
    let text = stdout_of(&["problem", "show", builtin]);
    let from = format!("name = \"{builtin}\"\n");
    assert!(text.contains(&from), "{builtin}: a name line");
    text.replacen(&from, &format!("name = \"{name}\"\n"), 1)
}

/// `tomek ARGS`: exit code, standard output and standard error.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = tomek().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The command of the `stats --mutants` hint, as words.
fn killer_hint(stats: &str) -> Vec<String> {
    let start = stats.find("(`tomek generate").expect("a hint") + 2;
    let end = start + stats[start..].find('`').unwrap();
    let hint = &stats[start..end];
    // The words of the hint, single quotes taken as `sh` takes them.
    let mut words = vec![String::new()];
    let mut quoted = false;
    for c in hint.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => words.push(String::new()),
            c => words.last_mut().unwrap().push(c),
        }
    }
    words
}

/// A copy of a built-in keeps its name: every command that loads it warns, once, that
/// `--problem NAME` means the built-in; the hint and the package's rebuild line name the file,
/// and the hint, run as given, rebuilds the file's killer set.
#[test]
fn a_copy_that_keeps_a_builtin_name_is_warned_of_and_named_by_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("my toe1.toml");
    std::fs::write(&file, stdout_of(&["problem", "show", "toe1"])).unwrap();
    let path = file.to_str().unwrap();
    let (code, stats, err) = run(&["stats", "--problem", path, "--mutants"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(err.matches("tomek: warning:").count(), 1, "{err}");
    assert!(
        err.contains(&format!("{path} is named toe1, as a built-in problem is")),
        "{err}"
    );
    let words = killer_hint(&stats);
    assert_eq!(words[..3], ["tomek", "generate", "--problem"]);
    assert_eq!(words[3], path, "the hint names the file: {stats}");
    // The built-in's own name draws no warning.
    let (_, _, err) = run(&["stats", "--problem", "toe1"]);
    assert!(!err.contains("warning"), "{err}");
    // The hint, run as it stands, gives the file's killer set.
    let prefix = dir.path().join("k");
    let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    args.extend(["-o", prefix.to_str().unwrap()]);
    let (code, _, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(Path::new(&format!("{}.out", prefix.display())).exists());
}

/// Renamed, the copy is quiet; its hint and the package's rebuild line name the file, and
/// `generate -o P` writes `P.in` and `P.out` (the answers, as `solve` gives them).
#[test]
fn a_renamed_copy_is_named_by_its_path_in_hints_and_packages() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.toml");
    std::fs::write(&file, renamed("toe1", "mine")).unwrap();
    let path = file.to_str().unwrap();
    let (code, stats, err) = run(&["stats", "--problem", path, "--mutants"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("warning"), "{err}");
    assert_eq!(killer_hint(&stats)[3], path, "{stats}");
    // `--problem mine` is no problem's name: the hint must not say it.
    let (code, _, err) = run(&["stats", "--problem", "mine"]);
    assert_eq!(code, Some(2), "{err}");

    let prefix = dir.path().join("contest");
    let p = prefix.to_str().unwrap();
    let (code, _, err) = run(&[
        "generate",
        "--problem",
        path,
        "--profile",
        "contest",
        "--cases",
        "50",
        "-o",
        p,
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!Path::new(&format!("{p}.ans")).exists(), "no .ans");
    let solved = stdout_of(&["solve", "--problem", path, &format!("{p}.in")]);
    assert_eq!(read(format!("{p}.out")), solved.as_bytes());

    let package = dir.path().join("pkg");
    let (code, _, err) = run(&[
        "--quiet",
        "package",
        "--problem",
        path,
        "-o",
        package.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let desc = String::from_utf8(read(package.join("data/sample/1.desc"))).unwrap();
    assert!(
        desc.contains(&format!("tomek package --problem {path} --seed")),
        "{desc}"
    );
    assert!(!desc.contains("--problem mine "), "{desc}");
}

/// A problem of one case per file writes `PREFIX.N.in` and `PREFIX.N.out`.
#[test]
fn one_case_per_file_writes_each_answer_as_out() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("cf3c");
    let p = prefix.to_str().unwrap();
    let (code, _, err) = run(&[
        "generate",
        "--problem",
        "cf3c",
        "--profile",
        "uniform",
        "--cases",
        "3",
        "-o",
        p,
    ]);
    assert_eq!(code, Some(0), "{err}");
    for n in 1..=3 {
        let input = format!("{p}.{n}.in");
        let answer = read(format!("{p}.{n}.out"));
        let solved = stdout_of(&["solve", "--problem", "cf3c", &input]);
        assert_eq!(answer, solved.as_bytes(), "case {n}");
    }
}
