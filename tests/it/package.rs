//! The Kattis problem packages: their data against tomek's own files, their judge programs
//! (built with the machine's g++ and run with python3, as a judge would) against tomek's
//! validators and evaluators, and `tomek package` from the command line.

use crate::harness::*;
use assert_cmd::cargo::cargo_bin_cmd;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use tomek::fourow;
use tomek::package::{self, Package};
use tomek::tictactoe::board::Board;
use tomek::tictactoe::codejam;
use tomek::tictactoe::eval::Evaluator;
use tomek::tictactoe::mutants::Mutant;

/// A scratch directory for the judge programs (compiled once), shared by every test process: a
/// static is never dropped, so it lives in cargo's directory for test files rather than the
/// system's temporary directory. What it holds is named by its source (see `keyed`), so runs
/// and test processes side by side (as under cargo-nextest) share it safely.
fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("package-scratch");
        std::fs::create_dir_all(&dir).expect("scratch directory");
        dir
    })
}

/// `name` with a hash of everything that makes the file (`parts`) before its extension: an
/// edited source gets a file of its own, and an unchanged one is built once.
fn keyed(name: &str, parts: &[&[u8]]) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    parts.hash(&mut h);
    match name.rsplit_once('.') {
        Some((stem, ext)) => format!("{stem}-{:016x}.{ext}", h.finish()),
        None => format!("{name}-{:016x}", h.finish()),
    }
}

/// Makes `path` with `make` unless it is there. The tests of a process take turns, and the
/// file is made under a name of this process's own and renamed into place, so that test
/// processes side by side never see half of one.
fn made(path: &Path, make: impl FnOnce(&Path)) {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    if path.exists() {
        return;
    }
    let mut name = path.file_name().unwrap().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(name);
    make(&tmp);
    std::fs::rename(&tmp, path).unwrap();
}

/// Compiles `source` with g++ and `flags` into `bin`, once.
fn gxx(bin: &Path, source: &str, flags: &[&str]) {
    made(bin, |out| {
        let src = out.with_extension("cpp");
        std::fs::write(&src, source).unwrap();
        let status = Command::new("g++")
            .args(flags)
            .arg("-o")
            .arg(out)
            .arg(&src)
            .status()
            .expect("g++ runs");
        let _ = std::fs::remove_file(&src);
        assert!(status.success(), "{} does not compile", bin.display());
    });
}

/// The Tomek package with a small uniform file, built once.
fn tomek_package() -> &'static Package {
    static P: OnceLock<Package> = OnceLock::new();
    P.get_or_init(|| {
        package::tictactoe::build(&package::tictactoe::Options {
            seed: 2013,
            large_cases: 3000,
        })
        .expect("the Tomek package builds")
    })
}

/// The Four in a row package with default options, built once.
fn fourow_package() -> &'static Package {
    static P: OnceLock<Package> = OnceLock::new();
    P.get_or_init(|| {
        package::fourow::build(&package::fourow::Options::default())
            .expect("the Four in a row package builds")
    })
}

/// Compiles a C++ program once and returns the binary's path.
fn compile_cpp(name: &str, source: &str) -> PathBuf {
    let bin = scratch().join(keyed(name, &[source.as_bytes()]));
    gxx(&bin, source, &["-O2", "-std=c++17", "-Wall", "-Werror"]);
    bin
}

/// Runs a program with `input` on standard input: its exit code and standard output.
pub(crate) fn run(program: &mut Command, input: &[u8]) -> (i32, Vec<u8>) {
    use std::io::Write;
    let mut child = program
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("program starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (out.status.code().unwrap_or(-1), out.stdout)
}

fn python(source: &str, name: &str) -> PathBuf {
    let path = scratch().join(keyed(name, &[source.as_bytes()]));
    made(&path, |out| std::fs::write(out, source).unwrap());
    path
}

/// The secret and sample test cases of a package: (name, input, answer).
fn cases(p: &Package) -> Vec<(String, &[u8], &[u8])> {
    p.files
        .keys()
        .filter_map(|k| k.strip_suffix(".in"))
        .map(|stem| {
            (
                stem.to_string(),
                p.get(&format!("{stem}.in")).unwrap(),
                p.get(&format!("{stem}.ans")).unwrap(),
            )
        })
        .collect()
}

/// tomek validate's verdict on bytes: valid or not.
fn tomek_valid(bytes: &[u8]) -> bool {
    tomek::tictactoe::validate::validate(bytes, "input", None, |_| {}).is_ok()
}

fn tomek_validator() -> PathBuf {
    compile_cpp("tomek_validate", package::tictactoe::VALIDATOR_CPP)
}

/// The C++ validator's verdict: true for 42, false for 43, a panic for anything else.
fn cpp_valid(bytes: &[u8]) -> bool {
    match run(&mut Command::new(tomek_validator()), bytes).0 {
        42 => true,
        43 => false,
        code => panic!("the validator exited with {code}"),
    }
}

#[test]
fn tomek_package_data_is_tomeks_own() {
    let p = tomek_package();
    assert_eq!(
        p.get("data/sample/1.in").unwrap(),
        std::fs::read(project("../shared/problems/tomek-sample.in"))
            .unwrap_or_else(|_| std::fs::read(project("generated/sample.in")).unwrap())
    );
    assert_eq!(
        p.get("data/sample/1.ans").unwrap(),
        std::fs::read(project("generated/sample.out")).unwrap()
    );
    // With the default seed the sets are the files of generated/, byte for byte.
    for (set, file) in [
        ("01-small", "small"),
        ("02-large", "large"),
        ("03-edge", "edge"),
        ("04-killer", "killer"),
    ] {
        for (ext, theirs) in [("in", "in"), ("ans", "out")] {
            assert_eq!(
                p.get(&format!("data/secret/{set}.{ext}")).unwrap(),
                std::fs::read(project(&format!("generated/{file}.{theirs}"))).unwrap(),
                "{set}.{ext}"
            );
        }
    }
    let uniform = p.get("data/secret/05-uniform.in").unwrap();
    assert!(uniform.starts_with(b"3000\n"));
    let mut answers = Vec::new();
    for case in codejam::CaseReader::new(uniform, "u", codejam::Strictness::Strict) {
        let (n, b) = case.unwrap();
        let status =
            tomek::tictactoe::reach::check(tomek::tictactoe::rules::Geometry::tomek(), b).unwrap();
        codejam::push_answer(&mut answers, n, status);
    }
    assert_eq!(answers, p.get("data/secret/05-uniform.ans").unwrap());
    // Every case has a description with a command to rebuild it.
    for (name, _, _) in cases(p) {
        let desc = std::str::from_utf8(p.get(&format!("{name}.desc")).unwrap()).unwrap();
        assert!(desc.contains("Rebuild: "), "{name}.desc: {desc}");
    }
    assert!(
        std::str::from_utf8(p.get("data/secret/05-uniform.desc").unwrap())
            .unwrap()
            .contains("tomek generate --profile uniform --cases 3000 --seed 2013 -o 05-uniform")
    );
}

#[test]
fn fourow_package_data_is_right() {
    let p = fourow_package();
    assert_eq!(
        p.get("data/sample/1.in").unwrap(),
        std::fs::read(project("tests/data/fourow-sample.in")).unwrap()
    );
    assert_eq!(
        p.get("data/sample/1.ans").unwrap(),
        std::fs::read(project("tests/data/fourow-sample.out")).unwrap()
    );
    // The mixed file is `tomek fourow generate --games 99 --seed 1`: generated/fourow-mixed.
    assert_eq!(
        p.get("data/secret/01-mixed.in").unwrap(),
        std::fs::read(project("generated/fourow-mixed.in")).unwrap()
    );
    for (name, input, answer) in cases(p) {
        let games = fourow::input::parse(input, &name, fourow::Mode::Strict)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(fourow::answers(&games).as_bytes(), answer, "{name}");
    }
    // The edge wins: each player, direction and edge of the grid.
    let edge = p.get("data/secret/06-edge-wins.in").unwrap();
    let games = fourow::input::parse(edge, "edge", fourow::Mode::Strict).unwrap();
    assert_eq!(games.len(), 32);
    for g in &games {
        assert!(matches!(
            fourow::judge(&g.moves).verdict,
            fourow::Verdict::Won(_)
        ));
    }
}

#[test]
fn same_options_same_bytes() {
    let again = package::fourow::build(&package::fourow::Options::default()).unwrap();
    assert_eq!(&again, fourow_package());
    assert_eq!(again.zip().unwrap(), fourow_package().zip().unwrap());
    let other = package::fourow::build(&package::fourow::Options { seed: 2, games: 99 }).unwrap();
    assert_ne!(
        other.get("data/secret/06-edge-wins.in"),
        fourow_package().get("data/secret/06-edge-wins.in")
    );
}

#[test]
fn zip_holds_the_files_at_its_root() {
    let p = fourow_package();
    let bytes = p.zip().unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut seen = 0;
    for i in 0..archive.len() {
        use std::io::Read;
        let mut f = archive.by_index(i).unwrap();
        if f.is_dir() {
            continue;
        }
        let mut content = Vec::new();
        f.read_to_end(&mut content).unwrap();
        let name = f.name().unwrap().to_string();
        assert_eq!(p.get(&name), Some(&content[..]), "{name}");
        seen += 1;
    }
    assert_eq!(seen, p.files.len());
    assert!(archive.by_name("problem.yaml").is_ok());
}

/// Every Tomek input of generated/, and the package's own.
fn tomek_inputs() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = ["sample", "small", "large", "edge", "killer"]
        .iter()
        .map(|f| {
            let path = format!("generated/{f}.in");
            (path.clone(), std::fs::read(project(&path)).unwrap())
        })
        .collect();
    for (name, input, _) in cases(tomek_package()) {
        out.push((name, input.to_vec()));
    }
    out
}

#[test]
fn tomek_validator_agrees_on_every_generated_file() {
    for (name, bytes) in tomek_inputs() {
        assert!(tomek_valid(&bytes), "{name}");
        assert!(cpp_valid(&bytes), "{name}");
    }
}

/// A one-case input of the board given as 16 symbols.
fn one_case(symbols: &str) -> Vec<u8> {
    let mut s = String::from("1\n");
    for row in symbols.as_bytes().chunks(4) {
        s.push_str(std::str::from_utf8(row).unwrap());
        s.push('\n');
    }
    s.push('\n');
    s.into_bytes()
}

#[test]
fn tomek_validator_agrees_on_every_kind_of_unreachable_board() {
    let g = tomek::tictactoe::rules::Geometry::tomek();
    // One board per reason of reach::check, and reachable neighbours of each.
    let boards = [
        ("XXX.............", false), // X three ahead
        ("OO..............", false), // O ahead
        ("XXXXOOOO........", false), // both have a line
        ("XXXXOOO.O.......", false), // X has a line, O moved last
        ("OOOOXXX.X.X.....", false), // O has a line, X moved last
        ("XXXTOOO.XXXXOOO.", false), // two X lines with no common stone
        ("OOOTXXX.OOOOXXXX", false), // the same for O
        ("XXXXXOO.XOO.XOO.", true),  // row and column through one corner
        ("XXXTOO..........", true),  // a win through the T
        ("OOOTXX..X.......", true),  // O wins through the T
        ("XOXOXOXOOXOXOXOX", true),  // a full board: a draw
        ("T...............", true),  // the lone T
        ("................", true),
    ];
    for (symbols, reachable) in boards {
        let b = Board::from_symbols(symbols.as_bytes()).unwrap();
        assert_eq!(
            tomek::tictactoe::reach::check(g, b).is_ok(),
            reachable,
            "{symbols}"
        );
        let file = one_case(symbols);
        assert_eq!(tomek_valid(&file), reachable, "{symbols}");
        assert_eq!(cpp_valid(&file), reachable, "{symbols}");
    }
    // Two T: refused by both.
    let file = one_case("TT..............");
    assert!(!tomek_valid(&file) && !cpp_valid(&file));
    // Boards of six stones from each of four setups: the reachable ones together in one file
    // (both must accept it whole), a spread of the unreachable ones one by one.
    let (mut reachable, mut unreachable) = (Vec::new(), 0);
    for t in [0u16, 1, 1 << 5, 1 << 15] {
        for bits in 0u32..(1 << 12) {
            // Six squares of the first 12 get X or O from `bits`; the T's square is skipped.
            let (mut x, mut o) = (0u16, 0u16);
            for sq in 0..6 {
                let bit = 1u16 << (sq * 2 + (bits >> (sq + 6) & 1));
                if bit & t != 0 {
                    continue;
                }
                if bits >> sq & 1 == 1 {
                    x |= bit;
                } else {
                    o |= bit;
                }
            }
            let b = Board { x, o, t };
            if tomek::tictactoe::reach::check(g, b).is_ok() {
                reachable.push(b);
            } else {
                unreachable += 1;
                if unreachable % 17 == 0 {
                    let file = one_case(&b.to_line());
                    assert!(!tomek_valid(&file), "{}", b.to_line());
                    assert!(!cpp_valid(&file), "{}", b.to_line());
                }
            }
        }
    }
    assert!(reachable.len() > 1000 && unreachable > 1000);
    let mut file = Vec::new();
    codejam::write_input(&mut file, &reachable).unwrap();
    assert!(tomek_valid(&file) && cpp_valid(&file));
}

/// One random change to a valid input: mostly a symbol of a board swapped for another (which
/// may or may not stay reachable), otherwise a fault of format.
fn mutate(rng: &mut ChaCha8Rng, bytes: &[u8], symbols: &[u8], noise: &[u8]) -> Vec<u8> {
    let mut v = bytes.to_vec();
    let at = rng.random_range(0..v.len());
    match rng.random_range(0..10) {
        0..=4 => {
            // A symbol of a board (never a newline) becomes another symbol.
            let spots: Vec<usize> = (0..v.len()).filter(|&i| symbols.contains(&v[i])).collect();
            if !spots.is_empty() {
                let i = spots[rng.random_range(0..spots.len())];
                v[i] = symbols[rng.random_range(0..symbols.len())];
            }
        }
        5 => v[at] = noise[rng.random_range(0..noise.len())],
        6 => {
            v.remove(at);
        }
        7 => v.insert(at, noise[rng.random_range(0..noise.len())]),
        8 => {
            // A whole line doubled or dropped.
            let starts: Vec<usize> = std::iter::once(0)
                .chain((0..v.len()).filter(|&i| v[i] == b'\n').map(|i| i + 1))
                .filter(|&i| i < v.len())
                .collect();
            let s = starts[rng.random_range(0..starts.len())];
            let e = v[s..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(v.len(), |k| s + k + 1);
            let line = v[s..e].to_vec();
            if rng.random_range(0..2) == 0 {
                v.splice(s..s, line);
            } else {
                v.drain(s..e);
            }
        }
        _ => {
            // The count changed.
            let end = v.iter().position(|&b| b == b'\n').unwrap_or(v.len());
            let n: u64 = std::str::from_utf8(&v[..end])
                .unwrap_or("1")
                .parse()
                .unwrap_or(1);
            let new = match rng.random_range(0..4) {
                0 => n + 1,
                1 => n.saturating_sub(1),
                2 => 0,
                _ => n * 10,
            };
            v.splice(..end, new.to_string().into_bytes());
        }
    }
    v
}

#[test]
fn tomek_validator_agrees_on_random_mutations() {
    let bases: Vec<Vec<u8>> = ["sample", "killer", "small", "edge"]
        .iter()
        .map(|f| std::fs::read(project(&format!("generated/{f}.in"))).unwrap())
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let (mut valid, mut invalid) = (0, 0);
    for i in 0..3000 {
        let base = &bases[i % bases.len()];
        let mut file = mutate(&mut rng, base, b"XOT.", b"XOT.\n\r \t0123456789x");
        if rng.random_range(0..4) == 0 {
            file = mutate(&mut rng, &file, b"XOT.", b"XOT.\n\r \t0123456789x");
        }
        let want = tomek_valid(&file);
        assert_eq!(
            cpp_valid(&file),
            want,
            "mutation {i}:\n{}",
            String::from_utf8_lossy(&file)
        );
        if want {
            valid += 1;
        } else {
            invalid += 1;
        }
    }
    // Both verdicts must be well represented for the agreement to mean something.
    assert!(
        valid > 300 && invalid > 1000,
        "{valid} valid, {invalid} invalid"
    );
}

/// The Python validator's verdicts on many files, in one python3 process.
fn python_verdicts(validator: &str, files: &[Vec<u8>]) -> Vec<bool> {
    let dir = tempfile::tempdir().unwrap();
    let mut list = String::new();
    for (i, f) in files.iter().enumerate() {
        let path = dir.path().join(format!("{i}.in"));
        std::fs::write(&path, f).unwrap();
        list.push_str(&format!("{}\n", path.display()));
    }
    let list_path = dir.path().join("list");
    std::fs::write(&list_path, list).unwrap();
    let v = dir.path().join("validate.py");
    std::fs::write(&v, validator).unwrap();
    let out = Command::new("python3")
        .arg(project("tests/fixtures/package/run_validator_many.py"))
        .arg(&v)
        .arg(&list_path)
        .output()
        .expect("python3 runs");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| match l {
            "42" => true,
            "43" => false,
            other => panic!("the validator exited with {other}"),
        })
        .collect()
}

#[test]
fn fourow_validator_agrees_with_tomek_fourow_validate() {
    let strict = |b: &[u8]| fourow::input::parse(b, "f", fourow::Mode::Strict).is_ok();
    let mut files: Vec<Vec<u8>> = vec![
        std::fs::read(project("generated/fourow-sample.in")).unwrap(),
        std::fs::read(project("generated/fourow-mixed.in")).unwrap(),
        b"1\nGame #1:\n".to_vec(),
        b"1\nGame #1: \n".to_vec(),
        b"1\nGame #1: 1\r\n".to_vec(),
        b"1\nGame #1: 1".to_vec(),
        b"01\nGame #1: 1\n".to_vec(),
        b"1\nGame #01: 1\n".to_vec(),
        b"1\nGame #1:1\n".to_vec(),
        b"1\nGame #1:  1\n".to_vec(),
        b"1\nGame #1: 8\n".to_vec(),
        b"1\nGame #1: 1\n\n".to_vec(),
        b"100\n".to_vec(),
        b"".to_vec(),
        format!("1\nGame #1: {}\n", "1234567".repeat(6)).into_bytes(),
        format!("1\nGame #1: {}\n", "1234567".repeat(6) + "1").into_bytes(),
    ];
    for (_, input, _) in cases(fourow_package()) {
        files.push(input.to_vec());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let bases: Vec<Vec<u8>> = files[..2].to_vec();
    for i in 0..3000 {
        let base = &bases[i % 2];
        files.push(mutate(
            &mut rng,
            base,
            b"1234567",
            b"0123456789 #:Gamex\r\n\t",
        ));
    }
    let theirs = python_verdicts(package::fourow::VALIDATOR_PY, &files);
    assert_eq!(theirs.len(), files.len());
    let mut valid = 0;
    for (f, v) in files.iter().zip(&theirs) {
        assert_eq!(*v, strict(f), "{}", String::from_utf8_lossy(f));
        valid += usize::from(*v);
    }
    assert!(valid > 1000 && files.len() - valid > 1000, "{valid} valid");
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn tomek_references_and_an_independent_solution_pass_and_a_wrong_one_fails() {
    let p = tomek_package();
    let cpp = compile_cpp("tomek_solution", package::tictactoe::SOLUTION_CPP);
    let alt = compile_cpp(
        "tomek_alt",
        &std::fs::read_to_string(project("tests/fixtures/package/tomek_alt.cpp")).unwrap(),
    );
    let few = compile_cpp(
        "tomek_few_stones",
        &std::fs::read_to_string(project("tests/fixtures/package/tomek_few_stones.cpp")).unwrap(),
    );
    let py = python(package::tictactoe::SOLUTION_PY, "tomek_solution.py");
    let mut few_caught = false;
    for (name, input, answer) in cases(p) {
        for program in [&cpp, &alt] {
            assert_eq!(run(&mut Command::new(program), input).1, answer, "{name}");
        }
        assert_eq!(
            run(Command::new("python3").arg(&py), input).1,
            answer,
            "{name}"
        );
        few_caught |= run(&mut Command::new(&few), input).1 != answer;
    }
    assert!(
        few_caught,
        "the data lets a solution that ignores 5- and 6-stone wins pass"
    );
}

#[test]
fn tomek_wrong_programs_are_the_mutants() {
    let wrong = package::tictactoe::wrong_solutions().unwrap();
    let ids: Vec<&str> = wrong.iter().map(|w| w.id.as_str()).collect();
    let mut all: Vec<&str> = Mutant::ALL.iter().map(|m| m.id()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    all.sort();
    assert_eq!(sorted, all, "one program per mutant");
    // Boards of every kind: the edge and killer sets and the small uniform file.
    let mut boards = Vec::new();
    for set in ["03-edge", "04-killer", "05-uniform"] {
        let input = tomek_package()
            .get(&format!("data/secret/{set}.in"))
            .unwrap();
        for case in codejam::CaseReader::new(input, set, codejam::Strictness::Strict) {
            boards.push(case.unwrap().1);
        }
    }
    let mut input = Vec::new();
    codejam::write_input(&mut input, &boards).unwrap();
    // The killer set's boards, which every program must answer wrongly somewhere.
    let killer: Vec<_> = codejam::CaseReader::new(
        tomek_package().get("data/secret/04-killer.in").unwrap(),
        "04-killer",
        codejam::Strictness::Strict,
    )
    .map(|c| c.unwrap().1)
    .collect();
    let g = tomek::tictactoe::rules::Geometry::tomek();
    let statuses: Vec<_> = killer
        .iter()
        .map(|&b| tomek::tictactoe::reach::check(g, b).unwrap())
        .collect();
    for s in tomek::outcome::Status::ALL {
        assert!(statuses.contains(&s), "the killer set has no {s:?} board");
    }
    let p = tomek_package();
    for w in &wrong {
        let m = Mutant::ALL.iter().find(|m| m.id() == w.id).unwrap();
        assert_eq!(
            p.get(&format!("submissions/wrong_answer/{}.py", w.id)),
            Some(w.source.as_bytes())
        );
        let path = python(&w.source, &format!("{}.py", w.id));
        let (code, out) = run(Command::new("python3").arg(&path), &input);
        assert_eq!(code, 0, "{}", w.id);
        let out = String::from_utf8(out).unwrap();
        let answers: Vec<&str> = out.lines().collect();
        assert_eq!(answers.len(), boards.len(), "{}", w.id);
        let mut wrong_somewhere = false;
        let mut wrong_on_killer = false;
        for (i, (b, line)) in boards.iter().zip(&answers).enumerate() {
            let expected = format!("Case #{}: {}", i + 1, m.status(*b).answer());
            assert_eq!(*line, expected, "{} on {}", w.id, b.to_line());
            let right =
                tomek::tictactoe::reach::check(tomek::tictactoe::rules::Geometry::tomek(), *b)
                    .unwrap();
            wrong_somewhere |= m.status(*b) != right;
            // The program's own answer, not the model's, against the right status.
            wrong_on_killer |=
                killer.contains(b) && *line != format!("Case #{}: {}", i + 1, right.answer());
        }
        assert!(wrong_somewhere, "{} is never wrong", w.id);
        assert!(wrong_on_killer, "{} passes the killer set", w.id);
    }
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn fourow_references_pass_and_every_wrong_solution_fails() {
    let p = fourow_package();
    let cpp = compile_cpp("fourow_solution", package::fourow::SOLUTION_CPP);
    let py = python(package::fourow::SOLUTION_PY, "fourow_solution.py");
    let alt = project("tests/fixtures/package/fourow_alt.py");
    let no_diagonals = project("tests/fixtures/package/fourow_no_diagonals.py");
    let wrong = package::fourow::wrong_solutions().unwrap();
    assert!(wrong.len() >= 10);
    let mut caught = vec![false; wrong.len()];
    let mut external_caught = false;
    for (name, input, answer) in cases(p) {
        assert_eq!(run(&mut Command::new(&cpp), input).1, answer, "{name}");
        assert_eq!(
            run(Command::new("python3").arg(&py), input).1,
            answer,
            "{name}"
        );
        assert_eq!(
            run(Command::new("python3").arg(&alt), input).1,
            answer,
            "{name}"
        );
        external_caught |= run(Command::new("python3").arg(&no_diagonals), input).1 != answer;
        for (w, c) in wrong.iter().zip(caught.iter_mut()) {
            if !*c {
                let path = python(&w.source, &format!("fourow-{}.py", w.id));
                let (code, out) = run(Command::new("python3").arg(&path), input);
                assert_eq!(code, 0, "{} crashed on {name}", w.id);
                *c = out != answer;
            }
        }
    }
    for (w, c) in wrong.iter().zip(&caught) {
        assert!(*c, "no test case catches {} ({})", w.id, w.bug);
    }
    assert!(
        external_caught,
        "the data lets a solution without diagonals pass"
    );
}

// ---- the command line ----

#[test]
fn cli_writes_refuses_and_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("fourow");
    cargo_bin_cmd!("tomek")
        .args(["fourow", "package", "--zip", "-o"])
        .arg(&target)
        .assert()
        .success();
    assert!(target.join("problem.yaml").is_file());
    assert!(
        target
            .join("submissions/wrong_answer/play-after-win.py")
            .is_file()
    );
    let zip1 = std::fs::read(dir.path().join("fourow.zip")).unwrap();
    assert_eq!(zip1, fourow_package().zip().unwrap());

    // An existing package is kept unless --force.
    let out = cargo_bin_cmd!("tomek")
        .args(["fourow", "package", "-o"])
        .arg(&target)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("already holds a problem package"), "{err}");
    cargo_bin_cmd!("tomek")
        .args(["fourow", "package", "--seed", "5", "--zip", "--force", "-o"])
        .arg(&target)
        .assert()
        .success();
    assert_ne!(std::fs::read(dir.path().join("fourow.zip")).unwrap(), zip1);
    // Nothing but the package and its zip is left beside it.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["fourow", "fourow.zip"]);

    // A directory that is not a package is never touched, even with --force.
    let other = dir.path().join("notes");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("keep.txt"), "mine").unwrap();
    let out = cargo_bin_cmd!("tomek")
        .args(["package", "--force", "-o"])
        .arg(&other)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("not a problem package"), "{err}");
    assert_eq!(
        std::fs::read_to_string(other.join("keep.txt")).unwrap(),
        "mine"
    );
    assert_eq!(std::fs::read_dir(&other).unwrap().count(), 1);
}

#[test]
fn cli_bad_arguments_and_unwritable_places_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["package", "--large-cases", "0"],
        vec!["package", "--large-cases", "1000001"],
        vec!["fourow", "package", "--games", "100"],
        vec!["package"],
    ] {
        cargo_bin_cmd!("tomek")
            .args(&args)
            .args(if args.len() > 1 {
                vec!["-o", "x"]
            } else {
                vec![]
            })
            .current_dir(dir.path())
            .assert()
            .code(2);
    }
    // Under a file: no directory can be made there.
    let file = dir.path().join("file");
    std::fs::write(&file, "").unwrap();
    let out = cargo_bin_cmd!("tomek")
        .args(["fourow", "package", "--zip", "-o"])
        .arg(file.join("pkg"))
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("cannot write"), "{err}");
    // A read-only parent (root ignores permissions, so only checked for other users).
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(ro.join("probe"), "").is_err() {
        let out = cargo_bin_cmd!("tomek")
            .args(["fourow", "package", "-o"])
            .arg(ro.join("pkg"))
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(err.contains("cannot write"), "{err}");
        assert_eq!(std::fs::read_dir(&ro).unwrap().count(), 0);
    }
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["file", "ro"]);
}

// ---- the other formats ----

#[test]
fn formats_lay_out_the_same_problem() {
    use package::Format;
    let problem = package::fourow::problem(&package::fourow::Options::default()).unwrap();
    assert_eq!(&problem.render(Format::Legacy), fourow_package());
    // The legacy package states the limit the other formats state (1 s here).
    assert_eq!(fourow_package().get(".timelimit"), Some(&b"1\n"[..]));
    let v = problem.render(Format::V2025_09);
    let yaml = String::from_utf8(v.get("problem.yaml").unwrap().to_vec()).unwrap();
    for line in [
        "problem_format_version: 2025-09",
        "type: pass-fail",
        "uuid: 49099656-2b4c-4207-8ec0-b5174d32a46f",
        "    ac_to_time_limit: 2.0",
        "  time_limit: 1",
    ] {
        assert!(yaml.lines().any(|l| l == line), "{line} in\n{yaml}");
    }
    assert!(v.get("statement/problem.en.tex").is_some());
    assert!(v.get("data/sample/1.yaml").is_some());
    assert!(v.get("data/secret/01-mixed.desc").is_none());
    assert!(v.get("data/secret/mixed/01-mixed.in").is_some());
    assert!(v.get("data/secret/overflow/04-overflow.ans").is_some());
    assert_eq!(
        v.get("data/test_group.yaml").unwrap(),
        b"# The answers are compared by the default output validator with these flags.\n\
          output_validator_args: [case_sensitive, space_change_sensitive]\n"
    );
    let subs = String::from_utf8(v.get("submissions/submissions.yaml").unwrap().to_vec()).unwrap();
    assert!(
        subs.contains(
            "wrong_answer/play-after-win.py:\n  permitted: [AC, WA]\n  required: [WA]\n  \
             secret/after-win/05-after-win:\n    permitted: [WA]\n"
        ),
        "{subs}"
    );
    // Every wrong solution is told where it must fail, and nowhere else.
    for w in package::fourow::wrong_solutions().unwrap() {
        let at = subs.find(&format!("wrong_answer/{}.py:\n", w.id)).unwrap();
        let entry = subs[at..].split("\n# ").next().unwrap();
        assert_eq!(entry.matches("permitted: [WA]").count(), 1, "{entry}");
        assert_eq!(entry.matches("permitted: [AC]").count(), 0, "{entry}");
    }
    assert_eq!(
        v.get("data/invalid_input/format-crlf.in").unwrap(),
        String::from_utf8_lossy(&problem.cases[0].input)
            .replace('\n', "\r\n")
            .as_bytes()
    );
    assert!(v.get("data/valid_output/right.out").is_some());
    assert!(
        v.get("data/invalid_output/trailing-space-dropped.out")
            .is_some()
    );
    assert!(v.get("answer_validators/validate.py").is_some());
    let pg = problem.render(Format::Polygon);
    let xml = String::from_utf8(pg.get("problem.xml").unwrap().to_vec()).unwrap();
    for part in [
        "<problem revision=\"1\" short-name=\"fourinarow\">",
        "<time-limit>1000</time-limit>",
        "<test-count>7</test-count>",
        "<test method=\"manual\" description=\"The sample of SPOJ FOUROW's statement, byte for byte.\" group=\"samples\" points=\"0.0\" sample=\"true\"/>",
        "<source path=\"solutions/solution.cpp\" type=\"cpp.g++17\"/>",
        "<group feedback-policy=\"complete\" name=\"samples\" points=\"0.0\" points-policy=\"each-test\"/>",
        "<group feedback-policy=\"icpc\" name=\"edge-wins\" points=\"0.0\" points-policy=\"complete-group\"/>",
    ] {
        assert!(xml.contains(part), "{part}");
    }
    assert_eq!(xml.matches("<group ").count(), 7);
    assert_eq!(
        pg.get("statement-sections/english/name.tex").unwrap(),
        b"Four in a Row\n"
    );
    let legend = String::from_utf8(
        pg.get("statement-sections/english/legend.tex")
            .unwrap()
            .to_vec(),
    )
    .unwrap();
    assert!(legend.starts_with("Four in a row is played") && !legend.contains("section"));
    let input = String::from_utf8(
        pg.get("statement-sections/english/input.tex")
            .unwrap()
            .to_vec(),
    )
    .unwrap();
    assert!(
        input.starts_with("The first line holds the number of games"),
        "{input}"
    );
    let output = String::from_utf8(
        pg.get("statement-sections/english/output.tex")
            .unwrap()
            .to_vec(),
    )
    .unwrap();
    assert!(!output.contains("section") && !output.is_empty());
    assert_eq!(
        pg.get("statement-sections/english/example.01").unwrap(),
        problem.cases[0].input.as_slice()
    );
    let tex =
        String::from_utf8(pg.get("statements/english/problem.tex").unwrap().to_vec()).unwrap();
    assert!(tex.starts_with("\\begin{problem}{Four in a Row}{standard input}{standard output}{1 second}{256 megabytes}"), "{tex}");
    assert!(tex.contains("\\InputFile\n\nThe first line holds"));
    let props = String::from_utf8(
        pg.get("statements/english/problem-properties.json")
            .unwrap()
            .to_vec(),
    )
    .unwrap();
    assert!(
        props.contains("\"timeLimit\": 1000,") && props.contains("\"name\": \"Four in a Row\","),
        "{props}"
    );
    assert_eq!(xml.matches("<solution tag=\"main\">").count(), 1);
    assert_eq!(xml.matches("<solution tag=\"wrong-answer\">").count(), 11);
    assert_eq!(xml.matches("<test verdict=\"invalid\"/>").count(), 16);
    assert_eq!(
        pg.get("tests/01").unwrap(),
        problem.cases[0].input.as_slice()
    );
    assert_eq!(
        pg.get("tests/07.a").unwrap(),
        problem.cases[6].answer.as_slice()
    );
    assert!(pg.get("files/check.cpp").is_some() && pg.get("files/validate.cpp").is_some());
    let d = problem.render(Format::Domjudge);
    let ini = String::from_utf8(d.get("domjudge-problem.ini").unwrap().to_vec()).unwrap();
    for line in [
        "externalid = fourinarow",
        "short-name = fourinarow",
        "name = Four in a Row",
        "timelimit = 1",
    ] {
        assert!(ini.lines().any(|l| l == line), "{line} in\n{ini}");
    }
    assert!(!ini.contains("probid"));
    let independent = |file: &str| {
        String::from_utf8(
            d.get(&format!("submissions/independent/{file}"))
                .unwrap()
                .to_vec(),
        )
        .unwrap()
    };
    let right = independent("outside-bitboard.py");
    assert!(right.starts_with("#!/usr/bin/env python3\n# @EXPECTED_RESULTS@: CORRECT\n"));
    assert_eq!(
        right.replacen("# @EXPECTED_RESULTS@: CORRECT\n", "", 1),
        String::from_utf8(read(project("tests/fixtures/package/fourow_alt.py"))).unwrap()
    );
    assert!(
        independent("outside-no-diagonals.py").contains("\n# @EXPECTED_RESULTS@: WRONG-ANSWER\n")
    );
    for (path, bytes) in &d.files {
        if let Some(rest) = path.strip_prefix("submissions/")
            && !rest.starts_with("independent/")
        {
            let tag = if rest.starts_with("accepted/") {
                "@EXPECTED_RESULTS@: CORRECT"
            } else {
                "@EXPECTED_RESULTS@: WRONG-ANSWER"
            };
            let text = String::from_utf8_lossy(bytes);
            assert!(text.lines().take(2).any(|l| l.ends_with(tag)), "{path}");
        }
    }
}

#[test]
fn tomek_2025_09_says_where_each_wrong_submission_fails() {
    let problem = package::tictactoe::problem(&package::tictactoe::Options {
        large_cases: 2000,
        ..Default::default()
    })
    .unwrap();
    let subs = problem.render(package::Format::V2025_09);
    let yaml =
        String::from_utf8(subs.get("submissions/submissions.yaml").unwrap().to_vec()).unwrap();
    // t-only-x passes the small set (no board there has a T in an X line) and fails the rest.
    assert!(
        yaml.contains(
            "wrong_answer/t-only-x.py:\n  permitted: [AC, WA]\n  required: [WA]\n  sample/1:\n    \
         permitted: [WA]\n  secret/official/01-small:\n    permitted: [AC]\n"
        ),
        "{yaml}"
    );
    for s in &problem.submissions {
        if s.verdict == package::format::Verdict::WrongAnswer {
            assert!(
                s.fails_on.contains(&"secret/killer/04-killer".to_string()),
                "{}",
                s.file
            );
        }
    }
}

#[test]
fn cli_formats_and_missing_parents() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("a/b/fourow");
    cargo_bin_cmd!("tomek")
        .args(["fourow", "package", "--format", "domjudge", "-o"])
        .arg(&target)
        .assert()
        .success();
    assert!(target.join("domjudge-problem.ini").is_file());
    assert!(dir.path().join("a/b/fourow.zip").is_file());
    let out = cargo_bin_cmd!("tomek")
        .args(["fourow", "package", "--format", "2023-07", "-o"])
        .arg(dir.path().join("x"))
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("possible values: legacy, 2025-09"), "{err}");
    assert!(!dir.path().join("x").exists());
}

// ---- the validators proved: every reachable board accepted, every near miss rejected ----

/// The testlib.h the Polygon programs are built against: the file `TOMEK_TESTLIB` names
/// (`scripts/verify-packages.sh validators` passes the one in p2d's wheel; no registry ships
/// testlib on its own, and Polygon gives it to every problem).
fn testlib() -> PathBuf {
    let path = std::env::var_os("TOMEK_TESTLIB")
        .map(PathBuf::from)
        .expect("TOMEK_TESTLIB names a testlib.h (scripts/verify-packages.sh validators sets it)");
    assert!(path.is_file(), "{} is not a file", path.display());
    path
}

/// Compiles a Polygon program (written against testlib) once, as verify-packages.sh does.
fn compile_polygon(name: &str, source: &str) -> PathBuf {
    let testlib = std::fs::read(testlib()).unwrap();
    let dir = scratch().join(keyed("polygon", &[&testlib]));
    std::fs::create_dir_all(&dir).unwrap();
    made(&dir.join("testlib.h"), |out| {
        std::fs::write(out, &testlib).unwrap()
    });
    let bin = dir.join(keyed(name, &[source.as_bytes()]));
    gxx(&bin, source, &["-O2", "-std=gnu++17"]);
    bin
}

/// A testlib validator's verdict: exit 0 valid, any other exit invalid (a crash panics).
fn polygon_valid(validator: &Path, bytes: &[u8]) -> bool {
    match run(&mut Command::new(validator), bytes).0 {
        0 => true,
        -1 => panic!("{} crashed", validator.display()),
        _ => false,
    }
}

/// A validator and the exit code by which it accepts a file.
struct Judge<'a> {
    name: &'a str,
    program: PathBuf,
    accepts: i32,
}

/// Feeds every `step`-th reachable Tomek board (all 17 setups, each ply by ply) to each
/// validator, in files of at most 1,000,000 boards (the statement's bound), the validators
/// side by side on each file: every file must be accepted. Returns the number of boards and
/// of files.
fn validators_on_reachable_boards(step: usize, judges: &[Judge]) -> (u64, u64) {
    let space = tomek::tictactoe::space::Space::explore(std::sync::Arc::new(
        tomek::tictactoe::rules::Geometry::tomek().clone(),
    ));
    let (mut boards, mut files) = (0u64, 0u64);
    let mut chunk = Vec::with_capacity(1_000_000);
    let mut flush = |chunk: &mut Vec<Board>| {
        if chunk.is_empty() {
            return;
        }
        let mut input = Vec::new();
        codejam::write_input(&mut input, chunk).unwrap();
        std::thread::scope(|s| {
            for j in judges {
                let input = &input;
                s.spawn(move || {
                    let (code, _) = run(&mut Command::new(&j.program), input);
                    assert_eq!(
                        code, j.accepts,
                        "{}: file {files} of reachable boards rejected",
                        j.name
                    );
                });
            }
        });
        boards += chunk.len() as u64;
        files += 1;
        chunk.clear();
    };
    let all = space.setups.iter().flat_map(|s| s.boards()).step_by(step);
    for (b, _) in all {
        chunk.push(b);
        if chunk.len() == package::tictactoe::MAX_CASES as usize {
            flush(&mut chunk);
        }
    }
    flush(&mut chunk);
    (boards, files)
}

fn cpp_judge() -> Judge<'static> {
    Judge {
        name: "the C++ validator",
        program: tomek_validator(),
        accepts: 42,
    }
}

#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn tomek_validator_accepts_a_sample_of_every_reachable_board() {
    // Every 61st board: about 1,000,000 boards of every setup and ply, in one file.
    let (boards, files) = validators_on_reachable_boards(61, &[cpp_judge()]);
    assert_eq!((boards, files), (1_001_473, 2));
    println!("the C++ validator accepted {boards} reachable boards (every 61st) in {files} files");
}

/// The whole proof, run by scripts/verify-packages.sh (a few minutes): the C++ validator and
/// the Polygon one (built against the testlib.h named by `TOMEK_TESTLIB`) on every board.
#[test]
#[ignore]
fn tomek_validator_accepts_every_reachable_board() {
    let polygon = Judge {
        name: "the Polygon validator",
        program: compile_polygon("tomek_validate", package::tictactoe::POLYGON_VALIDATOR_CPP),
        accepts: 0,
    };
    let (boards, files) = validators_on_reachable_boards(1, &[cpp_judge(), polygon]);
    assert_eq!(boards, 61_089_795);
    println!(
        "the C++ validator and the Polygon validator each accepted all {boards} reachable boards \
         in {files} files"
    );
}

/// The Polygon validators (built against the testlib.h named by `TOMEK_TESTLIB`) accept the
/// samples and every test file, and reject every near-miss kind of both problems.
#[test]
#[ignore]
fn polygon_validators_reject_every_near_miss_kind() {
    let tomek = package::tictactoe::problem(&package::tictactoe::Options {
        large_cases: 10,
        ..Default::default()
    })
    .unwrap();
    let fourow = package::fourow::problem(&package::fourow::Options::default()).unwrap();
    let mut rejected = 0;
    for (name, problem, source) in [
        ("tomek", &tomek, package::tictactoe::POLYGON_VALIDATOR_CPP),
        ("fourow", &fourow, package::fourow::POLYGON_VALIDATOR_CPP),
    ] {
        let v = compile_polygon(&format!("{name}_validate"), source);
        for c in &problem.cases {
            assert!(polygon_valid(&v, &c.input), "{name}: {} rejected", c.path());
        }
        for i in &problem.invalid_inputs {
            assert!(!polygon_valid(&v, &i.input), "{name}: {} accepted", i.name);
            rejected += 1;
        }
    }
    assert_eq!(rejected, 17 + 16);
    println!(
        "the Polygon validators accepted every test file ({} and {}) and rejected all \
         {rejected} near-miss kinds (Tomek {}, Four in a row {})",
        tomek.cases.len(),
        fourow.cases.len(),
        tomek.invalid_inputs.len(),
        fourow.invalid_inputs.len()
    );
}

#[test]
fn tomek_near_misses_are_one_square_from_a_reachable_board() {
    use package::nearmiss::{BoardKind, board_misses};
    let g = tomek::tictactoe::rules::Geometry::tomek();
    let misses = board_misses();
    let kinds: Vec<BoardKind> = misses.iter().map(|m| m.kind).collect();
    assert_eq!(kinds, BoardKind::ALL, "one near miss of every kind");
    for m in &misses {
        assert!(
            tomek::tictactoe::reach::check(g, m.from).is_ok(),
            "{:?}",
            m.kind
        );
        assert!(
            tomek::tictactoe::reach::check(g, m.board).is_err(),
            "{:?}",
            m.kind
        );
        let differ = (0..16)
            .filter(|&i| m.from.symbol(i) != m.board.symbol(i))
            .collect::<Vec<u32>>();
        assert_eq!(differ, [m.square], "{:?}", m.kind);
        assert_eq!(BoardKind::of(m.board), Some(m.kind));
    }
}

#[test]
fn validators_reject_every_near_miss_kind() {
    let tomek = package::tictactoe::problem(&package::tictactoe::Options {
        large_cases: 10,
        ..Default::default()
    })
    .unwrap();
    let fourow = package::fourow::problem(&package::fourow::Options::default()).unwrap();
    // Each near miss comes from a valid file: the validator accepts the sample it is made from.
    assert!(cpp_valid(tomek.cases[0].input.as_slice()));
    let mut rejected = 0;
    for i in &tomek.invalid_inputs {
        assert!(!cpp_valid(&i.input), "the C++ validator accepts {}", i.name);
        assert!(!tomek_valid(&i.input), "tomek validate accepts {}", i.name);
        rejected += 1;
    }
    let files: Vec<Vec<u8>> = std::iter::once(fourow.cases[0].input.clone())
        .chain(fourow.invalid_inputs.iter().map(|i| i.input.clone()))
        .collect();
    let verdicts = python_verdicts(package::fourow::VALIDATOR_PY, &files);
    assert!(verdicts[0], "the Python validator rejects the sample");
    for (i, ok) in fourow.invalid_inputs.iter().zip(&verdicts[1..]) {
        assert!(!ok, "the Python validator accepts {}", i.name);
        rejected += 1;
    }
    let board_kinds = tomek
        .invalid_inputs
        .iter()
        .filter(|i| i.name.starts_with("board-"))
        .count();
    assert_eq!(board_kinds, 8);
    assert_eq!(tomek.invalid_inputs.len(), 17);
    assert_eq!(fourow.invalid_inputs.len(), 16);
    println!(
        "near-miss kinds: Tomek {} ({board_kinds} of boards, {} of format), Four in a row {}; \
         all {rejected} rejected",
        tomek.invalid_inputs.len(),
        tomek.invalid_inputs.len() - board_kinds,
        fourow.invalid_inputs.len()
    );
}

#[test]
fn tomek_output_near_misses_agree_with_tomek_check() {
    // The outputs the packages' checkers are tested on, judged by tomek's own checker: the
    // ones to accept get 0, the others 1 (wrong answer) or 2 (presentation error).
    let input = read(project("generated/sample.in"));
    let answer = read(project("generated/sample.out"));
    let outputs = package::nearmiss::tomek_outputs(&input, &answer);
    assert_eq!(outputs.len(), 14);
    let dir = tempfile::tempdir().unwrap();
    let (i, a) = (dir.path().join("in"), dir.path().join("ans"));
    std::fs::write(&i, &input).unwrap();
    std::fs::write(&a, &answer).unwrap();
    for o in &outputs {
        let out = dir.path().join(&o.name);
        std::fs::write(&out, &o.output).unwrap();
        let code = cargo_bin_cmd!("tomek")
            .args(["check", "-q"])
            .args([&i, &a, &out])
            .output()
            .unwrap()
            .status
            .code();
        if o.accepted {
            assert_eq!(code, Some(0), "{}", o.name);
        } else {
            assert!(matches!(code, Some(1 | 2)), "{}: {code:?}", o.name);
        }
    }
}
