//! The family's packages (`tomek package --problem`): their judge programs, generated from the
//! descriptions, built with the machine's g++ and held to tomek's own judgement on every
//! built-in: the validator accepts every file of the package and every grid of the input
//! space, and rejects the grids outside it and the near misses; the reference solution answers
//! every data file and every position as `tomek solve --problem` does; each wrong solution
//! fails exactly the files the package says it fails. A 4×4 board has 43 million grids and
//! millions of positions: there the grids and the positions are a sample, evenly spread. The Polygon package's testlib programs are held to the same
//! verdicts when a testlib.h is at hand ([`testlib`]): the validator on the files and the near
//! misses, the checker on the reference answers and every wrong solution's outputs.
//!
//! The validator judges every grid, thousands of inputs: a small driver (below) calls its
//! `validate` on each in one process rather than starting a process each time.

use crate::harness::tomek;
use std::path::{Path, PathBuf};
use std::process::Command;
use tomek::package::Format;
use tomek::package::family;
use tomek::package::format::{Problem as Package, Verdict};
use tomek::problem::{Cases, Problem, judge, layout};
use tomek::tictactoe::codejam::Strictness;

/// The built-ins, the slowest to check first.
const BUILTINS: [&str; 7] = [
    "uva10111",
    "cf754b",
    "cf3c",
    "perfect-play",
    "toe1",
    "toe2",
    "ccc-hk-2008-j4",
];

/// About how many grids, and positions, the test takes of a board with more than this many:
/// every one of a 3×3 board.
const SAMPLE: u64 = 20_000;
const ALL_UP_TO: u64 = 20_000;

const SEED: u64 = 2013;

/// Runs the validator's `validate` (the validator compiled with `main` renamed) on each input
/// of standard input (each as a decimal length, a newline and the bytes); prints the results,
/// one per line. Its reasons go nowhere.
const DRIVER: &str = r#"
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
void build_lines();
int validate(const std::string& text);
int main() {
    std::string all;
    char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, stdin)) > 0) all.append(buf, got);
    if (!freopen("/dev/null", "w", stderr)) return 1;
    build_lines();
    size_t at = 0;
    while (at < all.size()) {
        size_t nl = all.find('\n', at);
        size_t len = std::strtoull(all.c_str() + at, nullptr, 10);
        printf("%d\n", validate(all.substr(nl + 1, len)));
        at = nl + 1 + len;
    }
    return 0;
}
"#;

fn scratch(problem: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("package-family")
        .join(problem);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles C++ sources (and objects) into `out` with the warnings as errors.
fn gxx(dir: &Path, out: &str, sources: &[(&str, &str)], flags: &[&str]) -> PathBuf {
    let mut cmd = Command::new("g++");
    cmd.args(["-O1", "-std=c++17", "-Wall", "-Werror"])
        .args(flags);
    for (name, source) in sources {
        let path = dir.join(name);
        std::fs::write(&path, source).unwrap();
        cmd.arg(path);
    }
    let bin = dir.join(out);
    cmd.arg("-o").arg(&bin);
    let status = cmd.status().expect("g++ runs");
    assert!(
        status.success(),
        "{out} does not compile in {}",
        dir.display()
    );
    bin
}

/// The validator as the package has it, built once.
fn validator_program(dir: &Path, source: &str) -> PathBuf {
    let bin = dir.join("validate");
    if !bin.is_file() {
        gxx(dir, "validate", &[("validate-main.cpp", source)], &[]);
    }
    bin
}

/// Writes `bytes` to a file of `dir` named `name`, whose path it returns.
fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Every `step`-th of `count` things, `step` chosen so that about [`SAMPLE`] are taken: every
/// one when there are at most [`ALL_UP_TO`].
fn stride(count: u64) -> u64 {
    if count <= ALL_UP_TO {
        1
    } else {
        count.div_ceil(SAMPLE)
    }
}

/// The grids the validator is held to: every grid of the board, or of a 4×4 one every
/// so-many-th grid and every so-many-th position of play (which the minimum ply and the filter
/// sort out, where a grid drawn at random is mostly out of play).
fn grids(p: &Problem) -> Vec<tomek::tictactoe::board::Board> {
    let mut out = Vec::new();
    let all = 3u64.pow(p.geometry.cells());
    let step = stride(all);
    let mut i = 0u64;
    p.for_each_grid(|b| {
        if i.is_multiple_of(step) {
            out.push(b);
        }
        i += 1;
    });
    if step > 1 {
        let reach = p.reachable();
        let step = stride(reach.len());
        let mut i = 0u64;
        reach.for_each(&p.geometry, |b| {
            if i.is_multiple_of(step) {
                out.push(b);
            }
            i += 1;
        });
    }
    out
}

/// The positions the solution is held to: every position of the input space, or every
/// so-many-th of a large one.
fn positions(p: &Problem) -> Vec<tomek::tictactoe::board::Board> {
    let mut all = Vec::new();
    p.for_each_position(|b| all.push(b));
    let step = stride(all.len() as u64) as usize;
    all.into_iter().step_by(step).collect()
}

/// The validator as a driver that judges many inputs.
fn validator_driver(dir: &Path, source: &str) -> PathBuf {
    gxx(
        dir,
        "validate.o",
        &[("validate.cpp", source)],
        &["-c", "-Dmain=validator_main"],
    );
    let mut cmd = Command::new("g++");
    let driver = dir.join("driver.cpp");
    std::fs::write(&driver, DRIVER).unwrap();
    let bin = dir.join("validate-many");
    let status = cmd
        .args(["-O1", "-std=c++17"])
        .arg(&driver)
        .arg(dir.join("validate.o"))
        .arg("-o")
        .arg(&bin)
        .status()
        .expect("g++ runs");
    assert!(status.success());
    bin
}

/// Several whole programs as one: each in a namespace of its own, its `main` renamed, the
/// includes put first once, and a `main` that runs the program whose index is its argument.
/// One compilation instead of one per program, where the headers dominate.
fn bundle(programs: &[&str]) -> String {
    let mut includes = std::collections::BTreeSet::new();
    let mut body = String::new();
    for (i, source) in programs.iter().enumerate() {
        let mut rest = String::new();
        for line in source.lines() {
            if line.starts_with("#include") {
                includes.insert(line.to_string());
            } else {
                rest.push_str(line);
                rest.push('\n');
            }
        }
        assert_eq!(rest.matches("int main() {").count(), 1);
        let rest = rest.replace("int main() {", "int run() {");
        body.push_str(&format!("namespace program{i} {{\n{rest}}}\n"));
    }
    let mut out: String = includes.into_iter().map(|l| l + "\n").collect();
    out.push_str(&body);
    out.push_str("int main(int argc, char** argv) {\n    const int k = argc > 1 ? std::atoi(argv[1]) : -1;\n");
    for i in 0..programs.len() {
        out.push_str(&format!("    if (k == {i}) return program{i}::run();\n"));
    }
    out.push_str("    return 2;\n}\n");
    out
}

/// Runs a program with `args` and `input` on standard input: its exit code and standard
/// output.
fn run_with(program: &Path, args: &[&str], input: &[u8]) -> (i32, Vec<u8>) {
    crate::package::run(Command::new(program).args(args), input)
}

/// The validator's exit code on each input.
fn validate_all(driver: &Path, inputs: &[Vec<u8>]) -> Vec<i32> {
    let mut all = Vec::new();
    for i in inputs {
        all.extend_from_slice(format!("{}\n", i.len()).as_bytes());
        all.extend_from_slice(i);
    }
    let (code, out) = run_with(driver, &[], &all);
    assert_eq!(code, 0);
    let codes: Vec<i32> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(codes.len(), inputs.len());
    codes
}

fn words(b: &[u8]) -> Vec<&[u8]> {
    b.split(|c| c.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The testlib.h the Polygon programs are built against: the file `TOMEK_TESTLIB` names, else
/// the one in p2d's wheel where `scripts/verify-packages.sh` installs p2d (`p2d-venv` under
/// `TOMEK_TOOLS`, else under `target/`). `None` when there is none: no registry ships testlib
/// on its own, and the tests download nothing.
fn testlib() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("TOMEK_TESTLIB") {
        let path = PathBuf::from(path);
        assert!(
            path.is_file(),
            "TOMEK_TESTLIB: {} is not a file",
            path.display()
        );
        return Some(path);
    }
    let tools = std::env::var_os("TOMEK_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    std::fs::read_dir(tools.join("p2d-venv/lib"))
        .ok()?
        .flatten()
        .map(|e| e.path().join("site-packages/p2d/testlib/testlib.h"))
        .find(|p| p.is_file())
}

/// Compiles a Polygon program against `testlib` (copied beside it as `testlib.h`).
fn gxx_testlib(dir: &Path, testlib: &Path, out: &str, source: &str) -> PathBuf {
    std::fs::copy(testlib, dir.join("testlib.h")).unwrap();
    gxx(dir, out, &[(&format!("{out}.cpp"), source)], &[])
}

/// What the Polygon programs are held to, gathered by [`check_problem`] from the other
/// programs' verdicts.
struct PolygonProof<'a> {
    /// Inputs every validator accepts.
    valid: Vec<&'a [u8]>,
    /// Inputs every validator rejects, by name.
    invalid: Vec<(&'a str, &'a [u8])>,
    /// Outputs to judge: the case's index in the package and the output.
    outputs: Vec<(usize, Vec<u8>)>,
}

/// The Polygon validator accepts every valid input and rejects every invalid one (testlib's
/// convention: exit 0 when valid); the checker, built against p2d's testlib.h, which gives
/// checkers the Kattis convention (`check input answer feedback_dir < output`, exit 42 or 43),
/// accepts exactly the outputs whose words are the answer's.
fn check_polygon(name: &str, pkg: &Package, dir: &Path, testlib: &Path, proof: &PolygonProof) {
    let validator = gxx_testlib(dir, testlib, "polygon_validate", &pkg.polygon_validator);
    for input in &proof.valid {
        let (code, _) = run_with(&validator, &[], input);
        assert_eq!(
            code, 0,
            "{name}: the Polygon validator rejects a valid input"
        );
    }
    for (kind, input) in &proof.invalid {
        let (code, _) = run_with(&validator, &[], input);
        assert!(
            code > 0,
            "{name}: the Polygon validator accepts the near miss {kind} (exit {code})"
        );
    }
    let checker = gxx_testlib(dir, testlib, "polygon_check", &pkg.polygon_checker);
    let feedback = dir.join("feedback");
    std::fs::create_dir_all(&feedback).unwrap();
    let (mut accepted, mut rejected) = (0, 0);
    for (i, output) in &proof.outputs {
        let c = &pkg.cases[*i];
        let (input, answer) = (dir.join("check.in"), dir.join("check.ans"));
        std::fs::write(&input, &c.input).unwrap();
        std::fs::write(&answer, &c.answer).unwrap();
        let args = [input.as_path(), answer.as_path(), feedback.as_path()].map(Path::as_os_str);
        let (code, _) = crate::package::run(Command::new(&checker).args(args), output);
        let right = words(output) == words(&c.answer);
        assert_eq!(
            code,
            if right { 42 } else { 43 },
            "{name}: the Polygon checker on an output of {}",
            c.path()
        );
        if right {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    assert!(accepted >= pkg.cases.len() && rejected > 0, "{name}");
}

/// Everything the test asks of one built-in's package; the Polygon programs too when
/// `testlib` is given.
fn check_problem(name: &str, testlib: Option<&Path>) {
    let p = Problem::builtin(name).unwrap();
    let pkg: Package = family::problem(&p, SEED).unwrap();
    let dir = scratch(name);

    // The validator: every file of the package, every grid of the input space as a one-case
    // file, no grid outside it, no near miss.
    let driver = validator_driver(&dir, &pkg.validator.1);
    let files: Vec<Vec<u8>> = pkg.cases.iter().map(|c| c.input.clone()).collect();
    for (c, code) in pkg.cases.iter().zip(validate_all(&driver, &files)) {
        assert_eq!(code, 42, "{name}: the validator rejects {}", c.path());
    }
    let (mut inside, mut outside) = (Vec::new(), Vec::new());
    for b in grids(&p) {
        let text = layout::input_text(&p, &[b]);
        if p.in_space(b) {
            inside.push(text);
        } else {
            outside.push(text);
        }
    }
    assert!(!inside.is_empty(), "{name}");
    let codes = validate_all(&driver, &inside);
    assert!(
        codes.iter().all(|&c| c == 42),
        "{name}: the validator rejects a grid of the input space"
    );
    let codes = validate_all(&driver, &outside);
    assert!(
        codes.iter().all(|&c| c == 43),
        "{name}: the validator accepts a grid outside the input space"
    );
    let mut misses: Vec<(String, Vec<u8>)> = pkg
        .invalid_inputs
        .iter()
        .map(|i| (i.name.clone(), i.input.clone()))
        .collect();
    let kinds: Vec<&str> = misses.iter().map(|(n, _)| n.as_str()).collect();
    for kind in [
        "bad-symbol",
        "cases-out-of-bounds",
        "crlf",
        "no-final-newline",
    ] {
        assert!(kinds.contains(&kind), "{name}: no near miss {kind}");
    }
    if p.layout.blank != tomek::problem::Separator::None {
        assert!(kinds.contains(&"blank-line-missing"), "{name}");
    }
    let sample = &pkg.cases[0].input;
    if p.layout.cases == Cases::Count {
        let nl = sample.iter().position(|&c| c == b'\n').unwrap();
        let n: u64 = std::str::from_utf8(&sample[..nl]).unwrap().parse().unwrap();
        for (tag, count) in [("count-plus-one", n + 1), ("count-zero", 0)] {
            let mut v = format!("{count}").into_bytes();
            v.extend_from_slice(&sample[nl..]);
            misses.push((tag.to_string(), v));
        }
        let mut v = b"0".to_vec();
        v.extend_from_slice(sample);
        misses.push(("count-leading-zero".to_string(), v));
    }
    let mut trailing = sample.clone();
    trailing.insert(sample.iter().position(|&c| c == b'\n').unwrap(), b' ');
    misses.push(("trailing-blank".to_string(), trailing));
    let mut extra = sample.clone();
    extra.extend_from_slice(b"\n");
    misses.push(("extra-empty-line".to_string(), extra));
    if let Some(m) = &p.layout.marker {
        let text = String::from_utf8(sample.clone()).unwrap();
        let other = text.replacen(&format!("{m}\n"), &format!("{m}{m}\n"), 1);
        misses.push(("marker-wrong".to_string(), other.into_bytes()));
    }
    // Grids outside the input space as one-case files, for the Polygon validator, which
    // starts a process for each input: the first few.
    let few_outside: Vec<(String, Vec<u8>)> = outside
        .iter()
        .take(8)
        .map(|t| ("outside-the-space".to_string(), t.clone()))
        .collect();
    let inputs: Vec<Vec<u8>> = misses.iter().map(|(_, v)| v.clone()).collect();
    for ((kind, input), code) in misses.iter().zip(validate_all(&driver, &inputs)) {
        assert!(
            judge::validate(&p, kind, input, None).is_err(),
            "{name}: {kind} is valid to tomek"
        );
        assert_eq!(
            code, 43,
            "{name}: the validator accepts the near miss {kind}"
        );
    }

    // The solutions, all in one program (`bundle`): the reference is program 0, and it answers
    // every file as `tomek solve --problem` does.
    let solution = &pkg.submissions[0];
    assert_eq!(solution.verdict, Verdict::Accepted);
    let sources: Vec<&str> = pkg.submissions.iter().map(|s| s.source.as_str()).collect();
    let bin = gxx(
        &dir,
        "solutions",
        &[("solutions.cpp", &bundle(&sources))],
        &[],
    );
    let run_program = |k: usize, input: &[u8]| run_with(&bin, &[&k.to_string()], input);
    for c in &pkg.cases {
        let read = layout::read(&p, &c.name, &c.input, Strictness::Lenient).unwrap();
        assert_eq!(c.answer, judge::answers(&p, &read), "{name}: {}", c.path());
        let (code, out) = run_program(0, &c.input);
        assert_eq!(code, 0);
        assert_eq!(out, c.answer, "{name}: the solution on {}", c.path());
    }
    // And every position of the input space (a sample of a 4×4 one), in files within the
    // bounds; one file a position when the problem has one case a file (a few hundred of them).
    let positions = positions(&p);
    let mut values = p.values();
    let single = p.layout.cases == Cases::Single;
    let step = if single {
        positions.len().div_ceil(300)
    } else {
        1
    };
    let chunk = if single { 1 } else { 1000 };
    let taken: Vec<_> = positions.iter().copied().step_by(step).collect();
    for boards in taken.chunks(chunk) {
        let input = layout::input_text(&p, boards);
        let (_, out) = run_program(0, &input);
        let mut want = Vec::new();
        for (i, &b) in boards.iter().enumerate() {
            layout::push_answer(&p, i as u64 + 1, &p.answer(b, &mut values), &mut want);
        }
        assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&want),
            "{name}: the solution on the positions of the input space"
        );
    }

    // The validator's reasons for the boards the minimum ply and the filter keep out are
    // tomek's own.
    for kind in ["below-min-ply", "outside-filter"] {
        let Some(miss) = pkg.invalid_inputs.iter().find(|i| i.name == kind) else {
            continue;
        };
        let why = judge::validate(&p, kind, &miss.input, None)
            .expect_err("a near miss is invalid")
            .to_string();
        let reason = why.rsplit(": ").next().unwrap().to_string();
        let out = Command::new(validator_program(&dir, &pkg.validator.1))
            .stdin(std::fs::File::open(write(&dir, kind, &miss.input)).unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(43), "{name}: {kind}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.trim_end().ends_with(&reason),
            "{name}: {kind}: the validator says `{said}`, tomek `{why}`"
        );
    }

    // Each wrong solution fails exactly the files the package says.
    assert!(
        pkg.submissions.len() >= 4,
        "{name}: too few wrong solutions"
    );
    // The outputs the Polygon checker judges: every answer, the package's own outputs of the
    // sample (which say their verdict) and every output of every wrong solution below.
    let mut outputs: Vec<(usize, Vec<u8>)> = (0..pkg.cases.len())
        .map(|k| (k, pkg.cases[k].answer.clone()))
        .collect();
    for o in &pkg.outputs {
        assert_eq!(o.input, pkg.cases[0].input, "{name}: {}", o.name);
        assert_eq!(
            o.accepted,
            words(&o.output) == words(&pkg.cases[0].answer),
            "{name}: {}",
            o.name
        );
        outputs.push((0, o.output.clone()));
    }
    for (i, s) in pkg.submissions.iter().enumerate().skip(1) {
        assert_eq!(s.verdict, Verdict::WrongAnswer);
        assert!(!s.fails_on.is_empty());
        let mut failed = Vec::new();
        for (k, c) in pkg.cases.iter().enumerate() {
            let (code, out) = run_program(i, &c.input);
            if code != 0 || words(&out) != words(&c.answer) {
                failed.push(c.path());
            }
            outputs.push((k, out));
        }
        assert_eq!(failed, s.fails_on, "{name}: {} fails elsewhere", s.file);
    }

    if let Some(testlib) = testlib {
        let proof = PolygonProof {
            valid: pkg.cases.iter().map(|c| c.input.as_slice()).collect(),
            invalid: misses
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_slice()))
                .chain(few_outside.iter().map(|(n, v)| (n.as_str(), v.as_slice())))
                .collect(),
            outputs,
        };
        check_polygon(name, &pkg, &dir, testlib, &proof);
    }
}

#[test]
fn package_family_judge_programs_hold_to_tomek_on_every_builtin() {
    let testlib = testlib();
    match &testlib {
        Some(t) => println!("the Polygon programs built against {}", t.display()),
        None => println!(
            "no testlib.h (TOMEK_TESTLIB, or p2d's wheel from scripts/verify-packages.sh \
             polygon): the Polygon programs are left to scripts/verify-packages.sh polygon"
        ),
    }
    // As many workers as cores, each taking the next problem: the 4×4 ones first, whose
    // packages take longest to build (their killer sets), so that the others fill the other
    // cores meanwhile rather than share them with it.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers.min(BUILTINS.len()) {
            let (next, testlib) = (&next, testlib.as_deref());
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(name) = BUILTINS.get(i) else { break };
                    let started = std::time::Instant::now();
                    check_problem(name, testlib);
                    println!("{name}: {:.1} s", started.elapsed().as_secs_f64());
                }
            });
        }
    });
}

#[test]
fn package_family_cli_writes_every_format() {
    let dir = scratch("cli");
    for format in ["legacy", "2025-09", "domjudge", "polygon"] {
        let out = dir.join(format!("toe{}", format.replace('-', "")));
        let _ = std::fs::remove_dir_all(&out);
        tomek()
            .args([
                "package",
                "--problem",
                "toe1",
                "--force",
                "--format",
                format,
                "-o",
            ])
            .arg(&out)
            .assert()
            .success();
        if format == "polygon" {
            assert!(out.join("problem.xml").is_file());
            assert!(out.join("solutions/solution.cpp").is_file());
            assert!(out.join("files/validate.cpp").is_file());
            assert!(out.join("files/check.cpp").is_file());
            assert!(out.join("statement-sections/english/legend.tex").is_file());
            continue;
        }
        assert!(out.join("problem.yaml").is_file(), "{format}");
        assert!(out.join("submissions/accepted/solution.cpp").is_file());
        assert!(out.join("input_validators/validate.cpp").is_file());
    }
    let legacy = dir.join("toelegacy");
    let statement =
        std::fs::read_to_string(legacy.join("problem_statement/problem.en.tex")).unwrap();
    assert!(statement.starts_with("\\problemname{Tic-Tac-Toe (I)}"));
    assert!(legacy.join("data/sample/1.in").is_file());
    // The built package is the library's, byte for byte.
    let p = Problem::builtin("toe1").unwrap();
    let pkg = family::problem(&p, tomek::tictactoe::sample::DEFAULT_SEED)
        .unwrap()
        .render(Format::Legacy);
    for (path, bytes) in &pkg.files {
        assert_eq!(&std::fs::read(legacy.join(path)).unwrap(), bytes, "{path}");
    }
    // A wrong name and Code Jam's --large-cases are errors: exit 2.
    for args in [
        ["--problem", "nosuch", "--format", "legacy"],
        ["--problem", "toe1", "--large-cases", "7"],
    ] {
        tomek()
            .arg("package")
            .args(args)
            .arg("-o")
            .arg(dir.join("refused"))
            .assert()
            .code(2);
    }
    assert!(!dir.join("refused").exists());
}
