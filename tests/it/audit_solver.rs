//! `tomek audit --solver` end to end, on the deliberately wrong solvers of
//! `tests/fixtures/solvers` (one bug each), a correct one, and `tomek solve` itself.
//!
//! Every wrong answer the audit reports is checked against a model of the fixture's bug written
//! here, and every smallest counterexample against a scan of the whole selection: no board of
//! that kind of failure has fewer stones, and none with as few comes earlier.

use crate::harness::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tomek::outcome::Status;
use tomek::tictactoe::board::Board;
use tomek::tictactoe::enumerate::{self, Selection};
use tomek::tictactoe::rules::Geometry;
use tomek::tictactoe::solver::order;
use tomek::tictactoe::space::Space;

fn fixture(name: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/solvers");
    format!("python3 {}", dir.join(name).display())
}

fn audit_cmd(args: &[&str]) -> Command {
    let mut c = Command::new(TOMEK);
    c.args(["--quiet", "audit"]).args(args);
    // The fixtures import a shared module; keep its bytecode out of the source tree.
    c.env("PYTHONDONTWRITEBYTECODE", "1");
    c
}

/// Runs an audit with `--format json`; returns its exit code and report.
fn audit(args: &[&str]) -> (i32, Value) {
    let out = audit_cmd(args).args(["--format", "json"]).output().unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), report)
}

/// The selected boards in the audit's case order.
fn cases(setups: &[u16], plies: &[u32], statuses: &[Status]) -> Vec<(Board, Status)> {
    let g = Arc::new(Geometry::tomek().clone());
    let space = Space::explore_setups(g, setups);
    let sel = Selection::setups(setups.to_vec())
        .with_plies(plies)
        .with_statuses(statuses);
    let mut all = Vec::new();
    order::walk(&space, &sel, &mut |block| {
        all.extend_from_slice(block);
        true
    });
    all
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn the_audit_meets_each_board_once_and_the_telling_ones_first() {
    let setups = [0u16, 1, 1 << 5];
    let g = Arc::new(Geometry::tomek().clone());
    let space = Space::explore_setups(g, &setups);
    let sel = Selection::setups(setups.to_vec());
    let walked = cases(&setups, &[], &[]);
    // Each board once: the same boards as enumeration order, none twice.
    let mut listed = Vec::new();
    enumerate::stream(
        &space,
        &sel,
        |block, _| block.to_vec(),
        |block, _| {
            listed.extend(block);
            Ok::<(), ()>(())
        },
    )
    .unwrap();
    assert_eq!(walked.len() as u64, sel.count(&space));
    let key = |&(b, s): &(Board, Status)| (b.pack(), s.index());
    let mut a: Vec<_> = walked.iter().map(key).collect();
    let mut b: Vec<_> = listed.iter().map(key).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert!(a == b, "the audit order is a permutation of the selection");
    // The killer set first, then the edge set.
    let killer = tomek::tictactoe::sample::killer_boards(&space, &setups).boards;
    assert_eq!(&walked[..killer.len()], &killer[..]);
    let edge = tomek::tictactoe::sample::edge_boards(&space, &setups);
    let front = killer.len() + edge.len();
    for e in &edge {
        assert!(
            walked[..front].contains(e),
            "edge board {} late",
            e.0.to_line()
        );
    }
    // Within the first 2% of the stream, every setup at every ply has been met.
    let early = &walked[..walked.len() / 50];
    for &t in &setups {
        for ply in 0..=16 - t.count_ones() {
            assert!(
                early.iter().any(|(b, _)| b.t == t && b.ply() == ply),
                "setup {t:#x}, ply {ply} not met early"
            );
        }
    }
}

#[test]
fn a_t_bug_surfaces_at_once_in_a_full_audit() {
    // Every board of every setup: the enumeration order would meet the first board with a T
    // after the 9.7 million boards of the setup without one.
    let (code, r) = audit(&["--solver", &fixture("t_ignored.py"), "--max-failures", "1"]);
    assert_eq!(code, 1, "{r:#}");
    let first = r["failures"][0]["case"].as_u64().unwrap();
    assert!(first <= 10, "the first failure is case {first}");
}

/// Rows, columns and both diagonals of the 4×4 board as masks.
fn lines(diagonals: bool) -> Vec<u16> {
    let mut l = Vec::new();
    for i in 0..4 {
        l.push(0xF << (4 * i));
        l.push(0x1111 << i);
    }
    if diagonals {
        l.push(0x8421);
        l.push(0x1248);
    }
    l
}

/// What each fixture answers, modelled independently of the audit.
fn model(bug: &str, b: Board) -> &'static str {
    let has = |squares: u16, diagonals: bool| lines(diagonals).iter().any(|&l| l & !squares == 0);
    let full = (b.x | b.o | b.t) == 0xFFFF;
    let open = "Game has not completed";
    match bug {
        "t_ignored" => {
            if has(b.x, true) {
                "X won"
            } else if has(b.o, true) {
                "O won"
            } else if full {
                "Draw"
            } else {
                open
            }
        }
        "no_diagonals" | "draw_first" | "zero_won" => {
            let diagonals = bug != "no_diagonals";
            if bug == "draw_first" && full {
                "Draw"
            } else if has(b.x | b.t, diagonals) {
                "X won"
            } else if has(b.o | b.t, diagonals) {
                if bug == "zero_won" { "0 won" } else { "O won" }
            } else if full {
                "Draw"
            } else {
                open
            }
        }
        _ => unreachable!("no model for {bug}"),
    }
}

fn board_of(v: &Value) -> String {
    v.as_str().unwrap().to_string()
}

/// Audits a fixture with a wrong-answer bug on one setup and checks the report against the
/// model and a scan of the whole selection.
fn check_wrong_answers(bug: &str, setup: u16, plies: &[u32], ply_arg: &str, chunk: &str) {
    let square = setup.trailing_zeros().to_string();
    let setup_arg = if setup == 0 { "none" } else { square.as_str() };
    let (code, r) = audit(&[
        "--solver",
        &fixture(&format!("{bug}.py")),
        "--setup",
        setup_arg,
        "--ply",
        ply_arg,
        "--chunk",
        chunk,
    ]);
    assert_eq!(code, 1, "{r:#}");
    let all = cases(&[setup], plies, &[]);
    assert_eq!(r["boards"].as_u64().unwrap(), all.len() as u64);
    assert!(r["problems"].as_array().unwrap().is_empty(), "{r:#}");
    let failing: Vec<(u64, Board, Status, &str)> = all
        .iter()
        .enumerate()
        .filter_map(|(i, &(b, s))| {
            let got = model(bug, b);
            (got != s.answer()).then_some((i as u64 + 1, b, s, got))
        })
        .collect();
    assert!(!failing.is_empty(), "the bug shows in the selection");

    // The listed failures are exactly the first ten, in case order.
    let listed = r["failures"].as_array().unwrap();
    assert_eq!(listed.len(), 10.min(failing.len()));
    for (f, &(case, b, s, got)) in listed.iter().zip(&failing) {
        assert_eq!(f["case"].as_u64().unwrap(), case);
        assert_eq!(board_of(&f["board"]), b.to_line());
        assert_eq!(f["expected"], s.answer());
        assert_eq!(f["received"], got);
    }
    assert!(r["wrong"].as_u64().unwrap() >= listed.len() as u64);

    // Each kind's smallest board: nothing of that kind in the whole selection has fewer
    // stones, and nothing with as few comes earlier.
    for k in r["kinds"].as_array().unwrap() {
        let of_kind: Vec<_> = failing
            .iter()
            .filter(|f| f.2.answer() == k["expected"] && f.3 == k["received"])
            .collect();
        let fewest = of_kind.iter().map(|f| f.1.ply()).min().unwrap();
        let first = of_kind.iter().find(|f| f.1.ply() == fewest).unwrap();
        let m = &k["minimal"];
        assert_eq!(m["stones"].as_u64().unwrap(), fewest as u64, "{k:#}");
        assert_eq!(m["case"].as_u64().unwrap(), first.0, "{k:#}");
        assert_eq!(board_of(&m["board"]), first.1.to_line());
    }
}

#[test]
fn t_ignored_is_caught_with_its_smallest_board() {
    // With the T on square 5, X wins through it from 5 stones on.
    check_wrong_answers("t_ignored", 1 << 5, &[0, 1, 2, 3, 4, 5, 6], "0-6", "2000");
}

#[test]
fn missing_diagonals_are_caught_with_the_smallest_board() {
    check_wrong_answers(
        "no_diagonals",
        1 << 0,
        &[0, 1, 2, 3, 4, 5, 6],
        "0-6",
        "3000",
    );
}

#[test]
fn draw_before_wins_is_caught_on_full_boards() {
    check_wrong_answers("draw_first", 0, &[16], "16", "1000");
}

#[test]
fn zero_won_is_its_own_kind() {
    check_wrong_answers("zero_won", 1 << 10, &[0, 1, 2, 3, 4, 5, 6], "0-6", "3000");
}

#[test]
fn the_correct_fixture_passes_a_large_subset() {
    let plies: Vec<u32> = (0..=5).chain([15, 16]).collect();
    let (code, r) = audit(&[
        "--solver",
        &fixture("correct.py"),
        "--setup",
        "6",
        "--ply",
        "0-5,15-16",
        "--chunk",
        "5000",
    ]);
    assert_eq!(code, 0, "{r:#}");
    let n = cases(&[1 << 6], &plies, &[]).len() as u64;
    assert!(n > 20_000, "{n} boards");
    assert_eq!(r["boards"].as_u64().unwrap(), n);
    assert_eq!(r["checked"].as_u64().unwrap(), n);
    assert_eq!(r["wrong"].as_u64().unwrap(), 0);
    assert_eq!(r["unchecked"].as_u64().unwrap(), 0);
}

#[test]
fn a_crash_names_the_board_it_died_on() {
    let (code, r) = audit(&[
        "--solver",
        &fixture("crash.py"),
        "--setup",
        "none",
        "--ply",
        "7",
        "--max-failures",
        "2",
    ]);
    assert_eq!(code, 1);
    let problems = r["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 2, "{r:#}");
    let all = cases(&[0], &[7], &[]);
    let xxxx = |b: Board| (0..4).any(|row| (b.x >> (4 * row)) & 0xF == 0xF);
    for p in problems {
        assert_eq!(p["kind"], "exit");
        assert_eq!(p["what"], "exited with status 1");
        assert!(p["stderr"].as_str().unwrap().contains("KeyError"));
        // The case it stopped at is the chunk's first board with a row of four X.
        let first = p["first_case"].as_u64().unwrap() as usize;
        let case = p["case"].as_u64().unwrap() as usize;
        assert!(xxxx(all[case - 1].0));
        assert!(!all[first - 1..case - 1].iter().any(|c| xxxx(c.0)));
        assert_eq!(p["answered"].as_u64().unwrap() as usize, case - first);
        assert_eq!(board_of(&p["board"]), all[case - 1].0.to_line());
    }
}

#[test]
fn a_hang_is_killed_with_everything_it_started() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    // The wall-clock limit is far above the solver's start-up, on a busy machine too: the
    // solver hangs (and writes its process ids) long before the limit trips.
    let start = Instant::now();
    let out = audit_cmd(&[
        "--solver",
        &fixture("hang.py"),
        "--setup",
        "none",
        "--ply",
        "16",
        "--timeout",
        "10",
        "--max-failures",
        "2",
    ])
    .env("TOMEK_FIXTURE_PIDS", &pids)
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(start.elapsed() < Duration::from_secs(120));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("still running after 10 s: killed"), "{text}");
    assert!(text.contains("chunk 1 (cases 1-1,000)"), "{text}");
    assert_all_gone(&pids);
}

/// Every process id written to `pids` is gone (or a zombie of another parent) soon: SIGKILL
/// takes effect when the process is next scheduled, which a busy machine may put off.
fn assert_all_gone(pids: &Path) {
    let listed = std::fs::read_to_string(pids).unwrap();
    let ids: Vec<u32> = listed
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect();
    assert!(!ids.is_empty());
    for id in ids {
        let start = Instant::now();
        loop {
            let stat = std::fs::read_to_string(format!("/proc/{id}/stat")).unwrap_or_default();
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            if stat.is_empty() || state.starts_with('Z') || state.starts_with('X') {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "process {id} still running: {stat}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn ctrl_c_stops_every_solver() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let mut child = audit_cmd(&[
        "--solver",
        &fixture("hang.py"),
        "--setup",
        "none",
        "--ply",
        "16",
        "--timeout",
        "300",
        "--jobs",
        "2",
    ])
    .env("TOMEK_FIXTURE_PIDS", &pids)
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // Wait until both solvers are hanging, each with its helper.
    let start = Instant::now();
    while std::fs::read_to_string(&pids).map_or(0, |s| s.lines().count()) < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the solvers never hung"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // SAFETY: a signal to our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let stopped = Instant::now();
    let status = child.wait().unwrap();
    assert!(stopped.elapsed() < Duration::from_secs(10));
    assert_eq!(status.code(), Some(130));
    assert_all_gone(&pids);
}

/// The single broken run of a one-chunk audit of `--setup none --ply 3` (1,680 boards).
fn broken_run(cmd: &str) -> Value {
    let (code, r) = audit(&[
        "--solver", cmd, "--setup", "none", "--ply", "3", "--chunk", "5000",
    ]);
    assert_eq!(code, 1, "{r:#}");
    let problems = r["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{r:#}");
    problems[0].clone()
}

#[test]
fn broken_output_is_reported_with_the_line_at_fault() {
    let p = broken_run(&fixture("one_short.py"));
    assert_eq!(p["kind"], "too-few");
    assert_eq!(p["what"], "printed 1,679 answers for 1,680 cases");
    assert_eq!(p["case"], 1680);

    let p = broken_run(&fixture("misnumbered.py"));
    assert_eq!(p["kind"], "misnumbered");
    assert_eq!(p["line"], 1);
    assert!(p["text"].as_str().unwrap().starts_with("Case #0: "));
    assert_eq!(p["case"], 1);

    let p = broken_run(&fixture("extra_line.py"));
    assert_eq!(p["kind"], "too-many");
    assert_eq!(
        (p["line"].as_u64(), p["text"].as_str()),
        (Some(1681), Some("1680 cases"))
    );

    let p = broken_run("cat");
    assert_eq!(
        (p["kind"].as_str(), p["text"].as_str()),
        (Some("garbage"), Some("1680"))
    );

    let p = broken_run("kill -SEGV $$");
    assert_eq!(p["kind"], "signal");
    assert_eq!(p["what"], "killed by signal 11 (SIGSEGV)");

    let p = broken_run("exec true");
    assert_eq!(p["kind"], "too-few");

    // A command that cannot start is not a broken run but a usage error, said at once.
    let out = audit_cmd(&["--solver", "no-such-solver-anywhere", "--status", "draw"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not found"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_debugging_line_is_garbage() {
    let (code, r) = audit(&[
        "--solver",
        &fixture("debug_print.py"),
        "--setup",
        "none",
        "--status",
        "draw",
        "--max-failures",
        "1",
    ]);
    assert_eq!(code, 1);
    let p = &r["problems"][0];
    assert_eq!(p["kind"], "garbage");
    assert_eq!(p["line"], 1);
    let all = cases(&[0], &[], &[Status::Draw]);
    let text = format!("full board: {}", all[0].0.to_line());
    assert_eq!(p["text"], text.as_str());
}

#[test]
fn tomek_solve_passes_a_whole_setup_through_stdin_and_files() {
    let solve = format!("{TOMEK} solve");
    let (code, r) = audit(&["--solver", &solve, "--setup", "7", "--chunk", "100000"]);
    assert_eq!(code, 0, "{r:#}");
    let n = cases(&[1 << 7], &[], &[]).len() as u64;
    assert!(n > 3_000_000);
    assert_eq!(r["checked"].as_u64(), Some(n));
    let with_file = format!("{TOMEK} solve {{}} --evaluator lines");
    let (code, r) = audit(&["--solver", &with_file, "--setup", "none", "--ply", "0-9"]);
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["unchecked"], 0);
}

/// The report without what depends on the machine: wall time and job count.
fn comparable(mut r: Value) -> Value {
    let o = r.as_object_mut().unwrap();
    o.remove("seconds");
    o.remove("jobs");
    r
}

#[test]
fn the_report_does_not_depend_on_scheduling() {
    // A solver wrong on every chunk but at different speeds, so that chunks finish out of
    // order: odd-numbered runs sleep first.
    let cmd = format!(
        "n=$(head -c 2 /dev/urandom | od -An -tu2); [ $((n % 2)) = 1 ] && sleep 0.05; {}",
        fixture("t_ignored.py")
    );
    let run = |jobs: &str| {
        audit(&[
            "--solver",
            &cmd,
            "--setup",
            "3",
            "--ply",
            "0-7",
            "--chunk",
            "700",
            "--jobs",
            jobs,
            "--max-failures",
            "25",
        ])
    };
    let (c1, one) = run("1");
    let (c4, four) = run("4");
    assert_eq!((c1, c4), (1, 1));
    assert_eq!(comparable(one), comparable(four));
}

#[test]
fn failures_are_saved_as_a_ready_to_run_input() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("fails");
    let out = audit_cmd(&[
        "--solver",
        &fixture("no_diagonals.py"),
        "--setup",
        "9",
        "--ply",
        "0-6",
        "--max-failures",
        "4",
        "--save-failures",
    ])
    .arg(&prefix)
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Saved 4 boards to"), "{text}");
    let input: PathBuf = dir.path().join("fails.in");
    // The saved answers are the right ones: `tomek solve` agrees; the buggy solver does not.
    let solved = Command::new(TOMEK)
        .arg("solve")
        .arg(&input)
        .output()
        .unwrap();
    let answers = std::fs::read(dir.path().join("fails.out")).unwrap();
    assert_eq!(solved.stdout, answers);
    let buggy = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{} < '{}'",
            fixture("no_diagonals.py"),
            input.display()
        ))
        .output()
        .unwrap();
    let wrong = String::from_utf8(buggy.stdout).unwrap();
    let right = String::from_utf8(answers).unwrap();
    assert_eq!(wrong.lines().count(), 4);
    assert!(wrong.lines().zip(right.lines()).all(|(w, r)| w != r));
}

#[test]
fn usage_errors_exit_2() {
    let solve = format!("{TOMEK} solve");
    for args in [
        vec!["--solver", &solve, "--chunk", "0"],
        vec!["--solver", &solve, "--timeout", "-1"],
        vec!["--solver", &solve, "--jobs", "0"],
        vec!["--solver", &solve, "--memory-limit", "0"],
        vec!["--solver", &solve, "--memory-limit", "2X"],
        vec!["--solver", &solve, "--memory-limit", "512K"],
        vec!["--solver", &solve, "--cpu-limit", "-1"],
        vec!["--solver", &solve, "--file-limit", "big"],
        vec!["--memory-limit", "1G"],
        vec!["--solver", &solve, "--format", "csv"],
        vec!["--solver", &solve, "--evaluator", "lines"],
        vec!["--solver", ""],
        vec!["--status", "x"],
        vec!["--chunk", "10"],
    ] {
        let out: Output = audit_cmd(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn profiles_feed_the_audit() {
    let solve = format!("{TOMEK} solve");
    let (code, r) = audit(&[
        "--solver",
        &solve,
        "--profile",
        "official",
        "--cases",
        "30000",
        "--seed",
        "5",
    ]);
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["checked"], 30000);
    // The killer set is made to catch wrong evaluators: it catches each wrong-answer fixture.
    for bug in ["t_ignored", "no_diagonals", "draw_first", "zero_won"] {
        let (code, r) = audit(&[
            "--solver",
            &fixture(&format!("{bug}.py")),
            "--profile",
            "killer",
        ]);
        assert_eq!(code, 1, "{bug}: {r:#}");
        assert!(r["wrong"].as_u64().unwrap() > 0, "{bug}");
        assert_eq!(r["unchecked"], 0, "{bug}");
        for f in r["failures"].as_array().unwrap() {
            let b = Board::from_symbols(f["board"].as_str().unwrap().as_bytes()).unwrap();
            assert_eq!(f["received"], model(bug, b), "{bug}");
        }
    }
}

/// The report without what depends on the chunk sizes as well: how many runs there were and
/// how large.
fn size_free(r: Value) -> Value {
    let mut r = comparable(r);
    let o = r.as_object_mut().unwrap();
    for k in ["chunk", "smallest_chunk", "largest_chunk", "runs"] {
        o.remove(k);
    }
    r
}

#[test]
fn fitted_chunk_sizes_grow_and_do_not_change_the_findings() {
    // A fast, correct solver: the chunks grow from 1,000 cases while the runs pass (each
    // run of `tomek solve` takes milliseconds, far below the 1.5 s aimed at).
    let solve = format!("{TOMEK} solve");
    let (code, r) = audit(&["--solver", &solve, "--setup", "6", "--ply", "0-7"]);
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["chunk"], Value::Null);
    // The smallest is the first run's, or the last run's when the last chunk is short.
    assert!(r["smallest_chunk"].as_u64().unwrap() <= 1000, "{r:#}");
    let boards = r["boards"].as_u64().unwrap();
    let (largest, runs) = (
        r["largest_chunk"].as_u64().unwrap(),
        r["runs"].as_u64().unwrap(),
    );
    assert!(largest >= 16_000, "{r:#}");
    assert!(runs <= boards / 4000, "{r:#}");
    assert_eq!(r["checked"].as_u64(), Some(boards));

    // A wrong solver stopped at --max-failures: the same findings, to the case, with fitted
    // sizes as with fixed ones, although the runs differ.
    let run = |chunk: Option<&str>| {
        let mut args = vec![
            "--solver".to_string(),
            fixture("t_ignored.py"),
            "--setup".into(),
            "3".into(),
            "--ply".into(),
            "0-7".into(),
            "--max-failures".into(),
            "25".into(),
        ];
        if let Some(c) = chunk {
            args.extend(["--chunk".into(), c.into()]);
        }
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        audit(&args)
    };
    let (c0, fitted) = run(None);
    let (c1, small) = run(Some("700"));
    let (c2, large) = run(Some("20000"));
    assert_eq!((c0, c1, c2), (1, 1, 1));
    assert_eq!(fitted["wrong"], 25, "{fitted:#}");
    assert_ne!(small["runs"], large["runs"]);
    assert_eq!(size_free(fitted.clone()), size_free(small));
    assert_eq!(size_free(fitted), size_free(large));
}

#[test]
fn a_flood_of_blank_lines_is_stopped() {
    let start = Instant::now();
    let p = broken_run("yes ''");
    assert_eq!(p["kind"], "flood", "{p:#}");
    assert!(
        p["what"]
            .as_str()
            .unwrap()
            .ends_with("for 1,680 cases: killed")
    );
    assert!(start.elapsed() < Duration::from_secs(60));
}

#[test]
fn terminal_codes_in_the_output_are_echoed_escaped() {
    let args = [
        "--solver",
        &fixture("terminal_codes.py"),
        "--setup",
        "none",
        "--ply",
        "3",
    ];
    let out = audit_cmd(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\x1b') && !text.contains('\0'), "{text:?}");
    assert!(text.contains("    line: \\x1b[2J\\x00cleared\n"), "{text}");
    assert!(text.contains("    | \\x1b[2J\\x00 on stderr\n"), "{text}");
    let (_, r) = audit(&args);
    let p = &r["problems"][0];
    assert_eq!(
        (p["kind"].as_str(), p["line"].as_u64()),
        (Some("garbage"), Some(2))
    );
    assert_eq!(p["text"], "\\x1b[2J\\x00cleared");
}

/// The single broken run of a one-chunk audit of `--setup none --ply 3`, under `limits`.
fn broken_run_under(cmd: &str, limits: &[&str]) -> Value {
    let mut args = vec![
        "--solver", cmd, "--setup", "none", "--ply", "3", "--chunk", "5000",
    ];
    args.extend_from_slice(limits);
    let (code, r) = audit(&args);
    assert_eq!(code, 1, "{r:#}");
    let problems = r["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{r:#}");
    problems[0].clone()
}

/// Runs tomek with `args` to the end; returns its output and its own peak resident memory
/// (`VmHWM`, which counts no child), read from `/proc` until it exits.
fn with_own_peak(args: &[&str]) -> (Output, u64) {
    let child = audit_cmd(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let hwm = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watch = {
        let (hwm, done) = (hwm.clone(), done.clone());
        std::thread::spawn(move || {
            use std::sync::atomic::Ordering::Relaxed;
            while !done.load(Relaxed) {
                let text = std::fs::read_to_string(&status).unwrap_or_default();
                let kb = text
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
                if let Some(kb) = kb {
                    hwm.fetch_max(kb << 10, Relaxed);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let out = child.wait_with_output().unwrap();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    watch.join().unwrap();
    (out, hwm.load(std::sync::atomic::Ordering::Relaxed))
}

#[test]
fn a_solver_that_allocates_without_end_is_over_the_memory_limit() {
    // A string that doubles until an allocation fails, with the runtime's message thrown
    // away: the peak alone tells that the run failed at the limit.
    let hog = "awk 'BEGIN { s = \"x\"; while (1) s = s s }' 2>/dev/null";
    // (Well above tomek's own memory, which a child's count may hold: see
    // `process::usage_of`.)
    let p = broken_run_under(hog, &["--memory-limit", "256M"]);
    assert_eq!(p["kind"], "memory", "{p:#}");
    assert_eq!(p["verdict"], "memory limit exceeded");
    let peak = p["peak_memory"].as_u64().unwrap();
    assert!((128 << 20..=256 << 20).contains(&peak), "{p:#}");
    let what = p["what"].as_str().unwrap();
    assert!(what.ends_with("(limit 256 MiB)"), "{what}");
    // With the message kept, the failed allocation is named too.
    let p = broken_run_under(
        "awk 'BEGIN { s = \"x\"; while (1) s = s s }'",
        &["--memory-limit", "64M"],
    );
    assert_eq!(p["kind"], "memory", "{p:#}");
    assert!(
        p["what"]
            .as_str()
            .unwrap()
            .contains("after an allocation failed"),
        "{p:#}"
    );

    // The solver's memory is its own: tomek's peak is the same as with a solver that
    // allocates nothing, and the text report says it as a judge would.
    let args = |cmd: &'static str| {
        vec![
            "--solver",
            cmd,
            "--setup",
            "none",
            "--ply",
            "3",
            "--chunk",
            "5000",
            "--memory-limit",
            "256M",
        ]
    };
    let (out, hog_peak) = with_own_peak(&args(hog));
    let (_, idle_peak) = with_own_peak(&args("exec true"));
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "chunk 1 (cases 1-1,680): memory limit exceeded: exited with status 2, peak memory"
        ),
        "{text}"
    );
    assert!(
        text.contains("  limits       memory 256 MiB, CPU 60 s, wall 60 s, files 64 MiB\n"),
        "{text}"
    );
    assert!(
        idle_peak > 0 && hog_peak < idle_peak + (16 << 20),
        "{hog_peak} vs {idle_peak}"
    );
}

#[test]
fn a_spinning_solver_is_stopped_by_the_cpu_limit() {
    let start = Instant::now();
    let p = broken_run_under(
        "while :; do :; done",
        &["--cpu-limit", "1s", "--timeout", "120"],
    );
    assert_eq!(p["kind"], "cpu-time", "{p:#}");
    assert_eq!(p["verdict"], "time limit exceeded");
    let what = p["what"].as_str().unwrap();
    assert!(
        what.starts_with("killed by signal 24 (SIGXCPU), "),
        "{what}"
    );
    assert!(
        what.ends_with(" s of CPU time counted (limit 1 s)"),
        "{what}"
    );
    assert!(p["cpu_seconds"].as_f64().unwrap() > 0.5, "{p:#}");
    // Stopped by the CPU limit, not the wall-clock one (the probe spins too, for a second).
    assert!(start.elapsed() < Duration::from_secs(110));
}

#[test]
fn a_file_past_the_file_limit_is_over_the_output_limit() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = format!(
        "exec head -c 1000000 /dev/zero > '{}'",
        dir.path().join("big").display()
    );
    let p = broken_run_under(&cmd, &["--file-limit", "64K"]);
    assert_eq!(p["kind"], "file-size", "{p:#}");
    assert_eq!(p["verdict"], "output limit exceeded");
    assert_eq!(
        p["what"],
        "killed by signal 25 (SIGXFSZ): wrote a file past 64 KiB"
    );
}

#[test]
fn a_crash_far_below_the_memory_limit_is_a_run_time_error() {
    let p = broken_run_under("kill -ABRT $$", &["--memory-limit", "64M"]);
    assert_eq!(p["kind"], "signal", "{p:#}");
    assert_eq!(p["verdict"], "run-time error");
    assert_eq!(p["what"], "killed by signal 6 (SIGABRT)");
}
