//! The Tic-Tac-Toe-Tomek package: the official sample, the generated sets of `generated/`
//! (small and large shaped like 2013, edge, killer) rebuilt from the package's seed, one big
//! uniform file, the input validator in C++, references in C++ and Python, and every mutant
//! of [`crate::tictactoe::mutants`] as a Python program.

use super::{Package, PackageError, WrongSolution, apply_catalogue, desc, label_python};
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
const STATEMENT: &str = include_str!("assets/tomek/problem.en.tex");
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

/// Builds the whole package in memory.
pub fn build(options: &Options) -> Result<Package, PackageError> {
    if !(1..=MAX_CASES).contains(&options.large_cases) {
        return Err(PackageError::Data(format!(
            "the big file holds 1 to {MAX_CASES} cases, not {}",
            options.large_cases
        )));
    }
    let seed = options.seed;
    let space = Space::explore(Arc::new(Geometry::tomek().clone()));
    let mut p = Package::default();
    p.add("problem.yaml", problem_yaml());
    p.add("problem_statement/problem.en.tex", STATEMENT);
    p.add_case(
        "sample",
        "1",
        SAMPLE_IN,
        SAMPLE_OUT,
        &desc(
            "The official sample of Code Jam 2013, Qualification Round, problem A, byte for byte.",
            "the file generated/sample.in of tomek (answers: tomek solve generated/sample.in)",
        ),
    );
    let rebuild = |name: &str, args: &str| {
        format!("tomek generate {args} --seed {seed} -o {name} && mv {name}.out {name}.ans")
    };
    let sets: [(&str, Profile, u64, String, String); 5] = [
        (
            "01-small",
            Profile::Official,
            10,
            "The small dataset shaped like the real 2013 input: 10 boards, about 37% won by X, \
             24% by O, 6% drawn, 33% not completed, half with a T."
                .to_string(),
            rebuild("01-small", "--profile official --dataset small"),
        ),
        (
            "02-large",
            Profile::Official,
            1000,
            "The large dataset shaped like the real 2013 input: 1000 boards with the same shares \
             as the small one, stone counts spread over every ply from the empty board to the full one."
                .to_string(),
            rebuild("02-large", "--profile official --dataset large"),
        ),
        (
            "03-edge",
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
    for (name, profile, cases, what, how) in sets {
        let (input, answers) = generate(&space, profile, cases, seed)?;
        p.add_case("secret", name, &input, &answers, &desc(&what, &how));
    }
    p.add_programs(
        ("validate.cpp", VALIDATOR_CPP),
        [("solution.cpp", SOLUTION_CPP), ("solution.py", SOLUTION_PY)],
        wrong_solutions()?,
    );
    Ok(p)
}

fn problem_yaml() -> String {
    format!(
        "# Written by tomek. The problem comes from Google Code Jam 2013; its rights stay with\n\
         # their owner: set license and rights_owner once you have the right to use it.\n\
         name: {}\n\
         source: {}\n\
         uuid: 2050f6dd-0366-4f13-8daf-6ac809db5d76\n\
         license: unknown\n\
         limits:\n\
         \x20 memory: 1024\n\
         # The answers are whole words: compare them with their letter case.\n\
         validator_flags: case_sensitive\n",
        super::yaml_string("Tic-Tac-Toe-Tomek"),
        super::yaml_string("Google Code Jam 2013, Qualification Round, problem A"),
    )
}
