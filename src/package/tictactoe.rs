//! The Tic-Tac-Toe-Tomek package: the official sample, the generated sets of `generated/`
//! (small and large shaped like 2013, edge, killer) rebuilt from the package's seed, one big
//! uniform file, the input validator in C++, references in C++ and Python, and every mutant
//! of [`crate::tictactoe::mutants`] as a Python program.

use super::format::{Case, Problem, Submission, Timing};
use super::{Package, PackageError, WrongSolution, apply_catalogue, desc, label_python};
use crate::tictactoe::codejam::{CaseReader, Strictness};
use crate::tictactoe::eval::Evaluator;
use crate::tictactoe::mutants::Mutant;
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::sample::{Generator, Profile, Spec};
use crate::tictactoe::space::Space;
use std::sync::Arc;

/// The reference solution in Python; the wrong solutions are made from it.
pub const SOLUTION_PY: &str = include_str!("assets/tomek/solution.py");
/// The reference solution in C++.
pub const SOLUTION_CPP: &str = include_str!("assets/tomek/solution.cpp");
/// The input validator (C++17, standard library only).
pub const VALIDATOR_CPP: &str = include_str!("assets/tomek/validate.cpp");
/// The mutant catalogue as changes to [`SOLUTION_PY`].
pub const WRONG_PATCH: &str = include_str!("assets/tomek/wrong.patch");
/// The answer validator of the 2025-09 package (Python 3, standard library only).
pub const ANSWER_VALIDATOR_PY: &str = include_str!("assets/tomek/validate_answer.py");
/// Polygon's input validator (C++17 against testlib).
pub const POLYGON_VALIDATOR_CPP: &str = include_str!("assets/tomek/polygon_validate.cpp");
/// Polygon's checker (C++17 against testlib).
pub const POLYGON_CHECKER_CPP: &str = include_str!("assets/tomek/polygon_check.cpp");
const STATEMENT: &str = include_str!("assets/tomek/problem.en.tex");
/// A solution written apart from the package's references (on strings), for the jury.
pub const INDEPENDENT_CPP: &str = include_str!("../../tests/fixtures/package/tomek_alt.cpp");
/// A wrong solution written apart from the package (no win with fewer than 7 stones).
pub const FEW_STONES_CPP: &str = include_str!("../../tests/fixtures/package/tomek_few_stones.cpp");
const SAMPLE_IN: &[u8] = include_bytes!("../../generated/sample.in");
const SAMPLE_OUT: &[u8] = include_bytes!("../../generated/sample.out");

/// The most cases the package's statement and validator allow in one file.
pub const MAX_CASES: u64 = 1_000_000;
/// Cases in the big uniform file by default.
pub const DEFAULT_LARGE_CASES: u64 = 50_000;

/// What to put in the package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Seed of every generated set.
    pub seed: u64,
    /// Cases of the big uniform file (1 to [`MAX_CASES`]).
    pub large_cases: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: crate::tictactoe::sample::DEFAULT_SEED,
            large_cases: DEFAULT_LARGE_CASES,
        }
    }
}

/// Every mutant of the catalogue as a Python program, in [`Mutant::ALL`] order.
pub fn wrong_solutions() -> Result<Vec<WrongSolution>, PackageError> {
    let mut wrong = apply_catalogue(SOLUTION_PY, WRONG_PATCH, |id| {
        Mutant::ALL
            .iter()
            .find(|m| m.id() == id)
            .map(|m| m.description().to_string())
    })?;
    // The catalogue of programs and the catalogue of evaluators must be the same list.
    for m in Mutant::ALL {
        if !wrong.iter().any(|w| w.id == m.id()) {
            return Err(PackageError::Patch(m.id().to_string()));
        }
    }
    for w in &mut wrong {
        if !Mutant::ALL.iter().any(|m| m.id() == w.id) {
            return Err(PackageError::Patch(w.id.clone()));
        }
        w.source = label_python(&w.source, &w.bug);
    }
    Ok(wrong)
}

/// One generated set: input and answers.
fn generate(
    space: &Space,
    profile: Profile,
    cases: u64,
    seed: u64,
) -> Result<(Vec<u8>, Vec<u8>), PackageError> {
    let spec = Spec {
        profile,
        cases,
        seed,
        setups: Geometry::tomek().setups(),
    };
    let generator =
        Generator::new(Some(space), &spec).map_err(|e| PackageError::Data(e.to_string()))?;
    let (mut input, mut answers) = (Vec::new(), Vec::new());
    generator
        .write(&mut input, Some(&mut answers), |_| {})
        .map_err(|e| PackageError::Data(e.to_string()))?;
    Ok((input, answers))
}

/// Builds the whole package in memory, in the legacy format.
pub fn build(options: &Options) -> Result<Package, PackageError> {
    Ok(problem(options)?.render(super::Format::Legacy))
}

/// The whole problem, format-free.
pub fn problem(options: &Options) -> Result<Problem, PackageError> {
    if !(1..=MAX_CASES).contains(&options.large_cases) {
        return Err(PackageError::Data(format!(
            "the big file holds 1 to {MAX_CASES} cases, not {}",
            options.large_cases
        )));
    }
    let seed = options.seed;
    let space = Space::explore(Arc::new(Geometry::tomek().clone()));
    let mut cases = vec![Case {
        group: "sample",
        kind: "",
        name: "1".to_string(),
        input: SAMPLE_IN.to_vec(),
        answer: SAMPLE_OUT.to_vec(),
        desc: desc(
            "The official sample of Code Jam 2013, Qualification Round, problem A, byte for byte.",
            "the file generated/sample.in of tomek (answers: tomek solve generated/sample.in)",
        ),
    }];
    let rebuild = |name: &str, args: &str| {
        format!("tomek generate {args} --seed {seed} -o {name} && mv {name}.out {name}.ans")
    };
    let sets: [(&str, &str, Profile, u64, String, String); 5] = [
        (
            "01-small",
            "official",
            Profile::Official,
            10,
            "The small dataset shaped like the real 2013 input: 10 boards, about 37% won by X, \
             24% by O, 6% drawn, 33% not completed, half with a T."
                .to_string(),
            rebuild("01-small", "--profile official --dataset small"),
        ),
        (
            "02-large",
            "official",
            Profile::Official,
            1000,
            "The large dataset shaped like the real 2013 input: 1000 boards with the same shares \
             as the small one, stone counts spread over every ply from the empty board to the full one."
                .to_string(),
            rebuild("02-large", "--profile official --dataset large"),
        ),
        (
            "03-edge",
            "edge",
            Profile::Edge,
            0,
            "Edge cases: each of the 10 lines won by each player with and without the T on it, \
             full-board wins, two lines made by one move, draws with and without a T, nearly full \
             open boards, the empty board and the lone T."
                .to_string(),
            rebuild("03-edge", "--profile edge"),
        ),
        (
            "04-killer",
            "killer",
            Profile::Killer,
            0,
            format!(
                "The smallest set of reachable boards on which every one of the {} wrong solutions \
                 of the mutant catalogue (tomek's src/tictactoe/mutants.rs) answers at least one \
                 board wrongly and every status appears: an exact set cover over every reachable \
                 board, proven smallest.",
                Mutant::ALL.len()
            ),
            rebuild("04-killer", "--profile killer"),
        ),
        (
            "05-uniform",
            "uniform",
            Profile::Uniform,
            options.large_cases,
            format!(
                "{} boards drawn uniformly from every reachable board of the 17 setups (no T, or \
                 the T on one of the 16 squares), for speed and breadth.",
                options.large_cases
            ),
            rebuild(
                "05-uniform",
                &format!("--profile uniform --cases {}", options.large_cases),
            ),
        ),
    ];
    for (name, kind, profile, n, what, how) in sets {
        let (input, answer) = generate(&space, profile, n, seed)?;
        cases.push(Case {
            group: "secret",
            kind,
            name: name.to_string(),
            input,
            answer,
            desc: desc(&what, &how),
        });
    }
    let mut submissions = vec![
        Submission::accepted("solution.cpp", SOLUTION_CPP),
        Submission::accepted("solution.py", SOLUTION_PY),
    ];
    let failures = failures(&cases)?;
    for w in wrong_solutions()? {
        let fails_on = failures
            .iter()
            .filter(|(_, ids)| ids.contains(&w.id.as_str()))
            .map(|(path, _)| path.clone())
            .collect();
        submissions.push(Submission::wrong(w, fails_on, true));
    }
    Ok(Problem {
        short_name: "tictactoetomek".into(),
        name: NAME.into(),
        source: SOURCE.into(),
        uuid: UUID.into(),
        header: HEADER.into(),
        legacy_yaml: problem_yaml(),
        statement: STATEMENT.into(),
        memory: Some(1024),
        output_args: &["case_sensitive"],
        validator: ("validate.cpp".into(), VALIDATOR_CPP.into()),
        answer_validator: ("validate.py".into(), ANSWER_VALIDATOR_PY.into()),
        cases,
        invalid_inputs: super::nearmiss::tomek_invalid(SAMPLE_IN),
        outputs: super::nearmiss::tomek_outputs(SAMPLE_IN, SAMPLE_OUT),
        polygon_validator: POLYGON_VALIDATOR_CPP.into(),
        polygon_checker: POLYGON_CHECKER_CPP.into(),
        submissions,
        independent: vec![
            Submission::accepted("outside-strings.cpp", INDEPENDENT_CPP),
            Submission::wrong_program("outside-few-stones.cpp", FEW_STONES_CPP),
        ],
        timing: timing(options.large_cases),
    })
}

/// For each case (by [`Case::path`]), the mutants that answer one of its boards wrongly.
fn failures(cases: &[Case]) -> Result<Vec<(String, Vec<&'static str>)>, PackageError> {
    let g = Geometry::tomek();
    let mut out = Vec::new();
    for c in cases {
        let mut wrong = vec![false; Mutant::ALL.len()];
        for read in CaseReader::new(c.input.as_slice(), &c.name, Strictness::Strict) {
            let (_, b) = read.map_err(|e| PackageError::Data(e.to_string()))?;
            let right = crate::tictactoe::reach::check(g, b)
                .map_err(|e| PackageError::Data(format!("{e:?}")))?;
            for (k, m) in Mutant::ALL.iter().enumerate() {
                wrong[k] |= m.status(b) != right;
            }
        }
        let ids = Mutant::ALL
            .iter()
            .zip(wrong)
            .filter(|(_, w)| *w)
            .map(|(m, _)| m.id())
            .collect();
        out.push((c.path(), ids));
    }
    Ok(out)
}

/// The Python programs on the big uniform file: about 0.1 s to start, then 13 µs a board for
/// the accepted one and up to 19 µs for the wrong ones, so 0.75 s and 1.05 s for the default
/// 50,000 boards. Measured by `scripts/bench.sh package` (every Python submission with
/// python3 on `data/secret/05-uniform.in`) and by BAPCtools (`scripts/verify-packages.sh
/// 2025-09`); kept as constants so that the same arguments always give the same package.
fn timing(large_cases: u64) -> Timing {
    Timing {
        slowest_ac: 0.1 + large_cases as f64 * 13e-6,
        slowest_run: 0.1 + large_cases as f64 * 19e-6,
    }
}

const NAME: &str = "Tic-Tac-Toe-Tomek";
const SOURCE: &str = "Google Code Jam 2013, Qualification Round, problem A";
const UUID: &str = "2050f6dd-0366-4f13-8daf-6ac809db5d76";
const HEADER: &str = "# Written by tomek. The problem comes from Google Code Jam 2013; its rights stay with\n\
                      # their owner: set license and rights_owner once you have the right to use it.\n";

fn problem_yaml() -> String {
    format!(
        "{HEADER}\
         name: {}\n\
         source: {}\n\
         uuid: {UUID}\n\
         license: unknown\n\
         limits:\n\
         \x20 memory: 1024\n\
         \x20 # The time limit is fixed in .timelimit (seconds), as in the other formats; a judge\n\
         \x20 # that sets its own takes the slowest accepted run times time_multiplier, rounded\n\
         \x20 # up. A run is judged too slow only past time_safety_margin times the limit.\n\
         \x20 time_multiplier: 2\n\
         \x20 time_safety_margin: 1.5\n\
         # The answers are whole words: compare them with their letter case.\n\
         validator_flags: case_sensitive\n",
        super::yaml_string(NAME),
        super::yaml_string(SOURCE),
    )
}
