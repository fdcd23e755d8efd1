//! The documentation's examples, run: every ```` ```console ```` block of README.md and of the
//! book (`docs/src/**/*.md`) is a test, so that the docs cannot drift from the program.
//!
//! The conventions (also in the book, `docs/src/design/docs-tests.md`):
//!
//! - A line `$ COMMAND` is a command, run by `sh` with `tomek` on the `PATH` as the binary
//!   under test and standard error joined to standard output; the lines after it, up to the
//!   next command or the end of the block, are its output.
//! - The commands of a block run one after another in a fresh directory of their own, which
//!   holds `generated/` and `tests/data/` and `tests/fixtures/` of the project (links, to be
//!   read), the files of `tests/data/docs/` (copied), and nothing else: what a command writes
//!   stays there and goes with it.
//! - The output is compared line by line, blanks at the ends of lines and empty lines at the
//!   end left out. A line `...` stands for any number of lines (none too); `[..]` within a
//!   line for any text on it. The exit status is not compared: the output says what happened.
//! - The info string may add `feature=NAME` (run only when the build has that feature, else
//!   skipped) or `skip=REASON`, one of [`REASONS`], for a block the tests never run. A block
//!   with no command must say why with `skip=`. README's first block, the two commands of a
//!   fresh clone that CI itself runs, is the one exception.

#![cfg(unix)]

use super::harness::{TOMEK, project};
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Why a block may be left out of the tests, with what each reason means.
pub const REASONS: &[(&str, &str)] = &[
    ("slow", "it runs for more than about 10 s"),
    (
        "tools",
        "it needs tools the tests do not install (problemtools, BAPCtools, p2d, a browser)",
    ),
    ("build", "it builds or installs tomek with cargo"),
    ("server", "it starts a server that runs until it is stopped"),
    (
        "yours",
        "it stands for commands of the reader's, with files of theirs (a solver, a solution)",
    ),
];

/// The features a block can ask for with `feature=`, and whether this build has each.
const FEATURES: &[(&str, bool)] = &[
    ("sql", cfg!(feature = "sql")),
    ("web", cfg!(feature = "web")),
];

/// How long one command may run before the test gives up on it.
const TIMEOUT: Duration = Duration::from_secs(600);

/// One `console` block: where it is, what its info string says, and its commands.
#[derive(Debug)]
struct Block {
    file: String,
    line: usize,
    skip: Option<String>,
    feature: Option<String>,
    commands: Vec<Example>,
}

/// A command and the output shown under it.
#[derive(Debug)]
struct Example {
    line: usize,
    command: String,
    output: Vec<String>,
}

/// The `console` blocks of one markdown file.
fn blocks(file: &str, text: &str) -> Result<Vec<Block>, String> {
    let mut found = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let indent = line.len() - line.trim_start().len();
        let Some(info) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        let mut words = info.split_whitespace();
        let console = words.next() == Some("console");
        let mut block = Block {
            file: file.to_string(),
            line: i + 1,
            skip: None,
            feature: None,
            commands: Vec::new(),
        };
        for word in words {
            match word.split_once('=') {
                Some(("skip", reason)) if REASONS.iter().any(|(r, _)| *r == reason) => {
                    block.skip = Some(reason.to_string())
                }
                Some(("feature", name)) if FEATURES.iter().any(|(f, _)| *f == name) => {
                    block.feature = Some(name.to_string())
                }
                _ if console => {
                    return Err(format!(
                        "{file}:{}: unknown word `{word}` after ```console (skip=REASON, \
                         feature=NAME)",
                        i + 1
                    ));
                }
                _ => {}
            }
        }
        let mut closed = false;
        for (j, body) in lines.by_ref() {
            if body.trim_start().starts_with("```") {
                closed = true;
                break;
            }
            if !console {
                continue;
            }
            // Inside a list item the block is indented; its lines lose that indent.
            let body = body.get(indent.min(body.len() - body.trim_start().len())..);
            let body = body.unwrap_or("");
            if let Some(command) = body.strip_prefix("$ ") {
                block.commands.push(Example {
                    line: j + 1,
                    command: command.to_string(),
                    output: Vec::new(),
                });
            } else if let Some(example) = block.commands.last_mut() {
                example.output.push(body.to_string());
            } else if !body.trim().is_empty() && block.skip.is_none() {
                // Text before the first command is only allowed where nothing runs.
                block.commands.push(Example {
                    line: j + 1,
                    command: String::new(),
                    output: vec![body.to_string()],
                });
            }
        }
        if !closed {
            return Err(format!("{file}:{}: a code block never closed", i + 1));
        }
        if console {
            found.push(block);
        }
    }
    Ok(found)
}

/// Whether `actual` is what `expected` shows: line by line, `...` for any lines, `[..]` for
/// any text within a line.
fn matches(expected: &[String], actual: &[String]) -> bool {
    let expected = trimmed(expected);
    let actual = trimmed(actual);
    // ok[i][j]: expected[i..] matches actual[j..].
    let (n, m) = (expected.len(), actual.len());
    let mut ok = vec![vec![false; m + 1]; n + 1];
    ok[n][m] = true;
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            ok[i][j] = if expected[i] == "..." {
                ok[i + 1][j] || (j < m && ok[i][j + 1])
            } else {
                j < m && line_matches(expected[i], actual[j]) && ok[i + 1][j + 1]
            };
        }
    }
    ok[0][0]
}

/// The lines without their trailing blanks, and without empty lines at the end.
fn trimmed(lines: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = lines.iter().map(|l| l.trim_end()).collect();
    while out.last() == Some(&"") {
        out.pop();
    }
    out
}

/// One line against its pattern, where `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    if !line.ends_with(last) {
        return false;
    }
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// README.md and every chapter of the book, as paths relative to the project.
fn documents() -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                let rel = path.strip_prefix(root).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let root = project("");
    let mut out = vec!["README.md".to_string()];
    walk(&project("docs/src"), &root, &mut out);
    out
}

/// A fresh directory for one block's commands, laid out as the module's comment says.
fn workdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let link = |from: &str, to: &Path| {
        std::os::unix::fs::symlink(project(from), to).unwrap();
    };
    link("generated", &dir.path().join("generated"));
    std::fs::create_dir(dir.path().join("tests")).unwrap();
    link("tests/data", &dir.path().join("tests/data"));
    link("tests/fixtures", &dir.path().join("tests/fixtures"));
    for entry in std::fs::read_dir(project("tests/data/docs")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    dir
}

/// Runs one command in `dir` with `bin` first on the `PATH`; its output, or why it failed.
fn run(command: &str, dir: &Path, bin: &Path) -> Result<Vec<String>, String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let out_file = tempfile::NamedTempFile::new().unwrap();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(dir)
        .env("PATH", std::env::join_paths(paths).unwrap())
        .env("TOMEK_DATA_DIR", bin.join("data"))
        .env("HOME", dir)
        .stdin(Stdio::null())
        .stdout(out_file.reopen().unwrap())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start sh: {e}"))?;
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > TIMEOUT {
            // The whole group: the shell and whatever it started.
            // SAFETY: kill(2) with a process group id of our own child is a plain syscall.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            return Err(format!("still running after {} s", TIMEOUT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let bytes = std::fs::read(out_file.path()).unwrap();
    Ok(String::from_utf8_lossy(&bytes)
        .lines()
        .map(str::to_string)
        .collect())
}

/// Runs every command of a block; the failures, each described.
fn check(block: &Block, bin: &Path) -> Vec<String> {
    let dir = workdir();
    let mut failures = Vec::new();
    for example in &block.commands {
        let at = format!("{}:{}", block.file, example.line);
        match run(&example.command, dir.path(), bin) {
            Err(why) => failures.push(format!("{at}: `{}`: {why}", example.command)),
            Ok(actual) if !matches(&example.output, &actual) => failures.push(format!(
                "{at}: `{}` printed another output.\n--- shown:\n{}\n--- printed:\n{}",
                example.command,
                example.output.join("\n"),
                actual.join("\n")
            )),
            Ok(_) => {}
        }
    }
    failures
}

#[test]
fn every_console_block_runs_as_shown() {
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(TOMEK, bin.path().join("tomek")).unwrap();
    let mut errors = Vec::new();
    let mut to_run = Vec::new();
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    for file in documents() {
        let text = std::fs::read_to_string(project(&file)).unwrap();
        let found = match blocks(&file, &text) {
            Ok(found) => found,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        for (k, block) in found.into_iter().enumerate() {
            if file == "README.md" && k == 0 {
                // The two commands of a fresh clone: CI runs them itself.
                continue;
            }
            if let Some(reason) = &block.skip {
                *skipped.entry(format!("skip={reason}")).or_default() += 1;
            } else if let Some(feature) = &block.feature
                && !FEATURES.iter().any(|(f, on)| f == feature && *on)
            {
                *skipped
                    .entry(format!("feature={feature} (not in this build)"))
                    .or_default() += 1;
            } else if block.commands.is_empty() || block.commands[0].command.is_empty() {
                errors.push(format!(
                    "{}:{}: a console block with no `$ ` command must say why with skip=REASON",
                    block.file, block.line
                ));
            } else {
                to_run.push(block);
            }
        }
    }
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let times = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some(block) = to_run.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let t0 = Instant::now();
                    let found = check(block, bin.path());
                    let at = format!("{}:{}", block.file, block.line);
                    times.lock().unwrap().push((t0.elapsed(), at));
                    failures.lock().unwrap().extend(found);
                }
            });
        }
    });
    let commands: usize = to_run.iter().map(|b| b.commands.len()).sum();
    eprintln!(
        "docs: {} console blocks run ({commands} commands) in {:.1} s; skipped: {:?}",
        to_run.len(),
        start.elapsed().as_secs_f64(),
        skipped
    );
    let mut times = times.into_inner().unwrap();
    times.sort();
    for (took, at) in times.iter().rev().take(5) {
        eprintln!("docs: {:5.1} s  {at}", took.as_secs_f64());
    }
    errors.extend(failures.into_inner().unwrap());
    assert!(errors.is_empty(), "\n{}", errors.join("\n\n"));
}

#[test]
fn the_matcher_elides_lines_and_text() {
    let v = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(matches(&v("a\n...\nd"), &v("a\nb\nc\nd")));
    assert!(matches(&v("a\n...\nd"), &v("a\nd")));
    assert!(matches(&v("...\nd"), &v("a\nd\n\n")));
    assert!(!matches(&v("a\n...\nd"), &v("a\nb")));
    assert!(matches(&v("took [..] s"), &v("took 0.3 s  ")));
    assert!(matches(&v("[..] of [..]"), &v("x of y of z")));
    assert!(!matches(&v("took [..] s"), &v("took 0.3 ms!")));
    assert!(!matches(&v("ab[..]ba"), &v("aba")));
    assert!(!matches(&v("a"), &v("a\nb")));
}

#[test]
fn a_block_says_why_it_is_skipped_in_known_words() {
    let text = "```console skip=slow\n$ tomek x\n```\n```console skip=later\n```\n";
    let err = blocks("t.md", text).unwrap_err();
    assert!(
        err.contains("t.md:4") && err.contains("skip=later"),
        "{err}"
    );
    let found = blocks("t.md", "```console skip=tools\n$ a\nb\n```\n").unwrap();
    assert_eq!(found[0].skip.as_deref(), Some("tools"));
    assert_eq!(found[0].commands[0].output, ["b"]);
    // Blocks of other languages are not examples; an indented block loses its indent.
    let found = blocks(
        "t.md",
        "```text\n$ no\n```\n  ```console\n  $ tomek\n  out\n  ```\n",
    );
    let found = found.unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].commands[0].command, "tomek");
    assert_eq!(found[0].commands[0].output, ["out"]);
}

#[test]
fn the_readme_is_short_and_opens_with_the_two_commands() {
    let readme = std::fs::read_to_string(project("README.md")).unwrap();
    assert!(
        readme.starts_with(
            "# tomek\n\n```console\ncargo run --release -- stats\ncargo test --release\n```\n"
        ),
        "README.md must open with the two commands of a fresh clone"
    );
    let lines = readme.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines; the guide takes the rest"
    );
}
