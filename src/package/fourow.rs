//! The Four in a row package: the statement's sample, a seeded mix of every verdict, sets of
//! one kind of game each (draws and full boards, long runs and double lines, overflows,
//! moves after a win), wins of every direction touching every edge of the grid, the input
//! validator in Python, references in C++ and Python, and a catalogue of realistic wrong
//! solutions as Python programs.

use super::format::{Case, Problem, Submission, Timing};
use super::{Package, PackageError, WrongSolution, apply_catalogue, desc, label_python};
use crate::fourow::generate::{self, GeneratedFile, Recipe};
use crate::fourow::input::{MAX_GAMES, write_game};
use crate::fourow::position::{HEIGHT, Position, WIDTH, cell, column};
use crate::fourow::{Verdict, answers, input, judge};
use crate::outcome::Player;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The reference solution in Python; the wrong solutions are made from it.
pub const SOLUTION_PY: &str = include_str!("assets/fourow/solution.py");
/// The reference solution in C++.
pub const SOLUTION_CPP: &str = include_str!("assets/fourow/solution.cpp");
/// The input validator (Python 3, standard library only).
pub const VALIDATOR_PY: &str = include_str!("assets/fourow/validate.py");
/// The catalogue of wrong solutions as changes to [`SOLUTION_PY`].
pub const WRONG_PATCH: &str = include_str!("assets/fourow/wrong.patch");
/// The answer validator of the 2025-09 package (Python 3, standard library only).
pub const ANSWER_VALIDATOR_PY: &str = include_str!("assets/fourow/validate_answer.py");
/// Polygon's input validator (C++17 against testlib).
pub const POLYGON_VALIDATOR_CPP: &str = include_str!("assets/fourow/polygon_validate.cpp");
/// Polygon's checker (C++17 against testlib).
pub const POLYGON_CHECKER_CPP: &str = include_str!("assets/fourow/polygon_check.cpp");
const STATEMENT: &str = include_str!("assets/fourow/problem.en.tex");
const SAMPLE_IN: &[u8] = include_bytes!("../../tests/data/fourow-sample.in");
const SAMPLE_OUT: &[u8] = include_bytes!("../../tests/data/fourow-sample.out");

/// A solution written apart from the package's references (on bitboards), for the jury.
pub const INDEPENDENT_PY: &str = include_str!("../../tests/fixtures/package/fourow_alt.py");
/// A wrong solution written apart from the package (no diagonals).
pub const NO_DIAGONALS_PY: &str =
    include_str!("../../tests/fixtures/package/fourow_no_diagonals.py");

/// The test group of each secret file: the kind of game it holds.
fn kind_of(name: &str) -> &'static str {
    match name {
        "01-mixed" => "mixed",
        "02-full-boards" => "full-boards",
        "03-long-runs" => "long-runs",
        "04-overflow" => "overflow",
        "05-after-win" => "after-win",
        _ => "edge-wins",
    }
}

/// Where each wrong solution must fail, whatever the seed: the case (by file name) built to
/// hold the games its bug gets wrong. `None` for a solution not in the catalogue.
pub fn target_of(id: &str) -> Option<&'static str> {
    Some(match id {
        // Every direction of win touching the top row, for each player.
        "diagonal-top-row-missed" => "06-edge-wins",
        // Draws, and wins with the 42nd move.
        "full-board-not-draw" | "draw-before-win" => "02-full-boards",
        // Runs of five or more and two lines at once.
        "only-one-four-capitalized" => "03-long-runs",
        "overflow-ignored" => "04-overflow",
        "play-after-win" => "05-after-win",
        // The sample already has a win, empty rows and rows with trailing spaces.
        "winning-four-lower-case"
        | "empty-rows-printed"
        | "trailing-spaces-dropped"
        | "grid-upside-down"
        | "players-swapped" => "1",
        _ => return None,
    })
}

/// What to put in the package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Seed of every generated set.
    pub seed: u64,
    /// Games of the mixed file (1 to 99).
    pub games: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: generate::DEFAULT_SEED,
            games: MAX_GAMES,
        }
    }
}

/// The catalogue of wrong solutions, each a Python program with one bug.
pub fn wrong_solutions() -> Result<Vec<WrongSolution>, PackageError> {
    let mut wrong = apply_catalogue(SOLUTION_PY, WRONG_PATCH, |_| None)?;
    for w in &mut wrong {
        w.source = label_python(&w.source, &w.bug);
    }
    Ok(wrong)
}

/// The directions of [`Position::winning_runs`], named.
const DIRECTION_NAMES: [&str; 4] = [
    "vertical",
    "horizontal",
    "rising diagonal",
    "falling diagonal",
];

/// The cells of the top row, the bottom row, the left and the right slot.
fn edges() -> [(&'static str, u64); 4] {
    let row = |r| (0..WIDTH).fold(0, |m, c| m | cell(c, r));
    [
        ("the top row", row(HEIGHT - 1)),
        ("the bottom row", row(0)),
        ("the left slot", column(0)),
        ("the right slot", column(WIDTH - 1)),
    ]
}

/// Wins by each player in each direction with the winning run touching each edge of the grid:
/// 32 games found by seeded random play (the first random game of each shape is kept).
pub fn edge_wins(seed: u64) -> Result<Vec<Vec<u8>>, PackageError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let edges = edges();
    // Slot [player][direction][edge], filled as random games happen to match.
    let mut found: Vec<Option<Vec<u8>>> = vec![None; 2 * 4 * 4];
    let mut missing = found.len();
    for _ in 0..2_000_000u32 {
        if missing == 0 {
            break;
        }
        let mut p = Position::new();
        let mut moves = Vec::new();
        while !p.is_full() && !p.last_mover_won() {
            let open: Vec<u32> = (0..WIDTH).filter(|&c| p.can_play(c)).collect();
            let c = open[rng.random_range(0..open.len())];
            p = p.play(c);
            moves.push(c as u8);
        }
        let j = judge(&moves);
        let Verdict::Won(winner) = j.verdict else {
            continue;
        };
        let runs = Position::winning_runs(j.position.chips(winner));
        for (d, &run) in runs.iter().enumerate() {
            for (e, &(_, edge)) in edges.iter().enumerate() {
                let slot = (winner as usize) * 16 + d * 4 + e;
                if run & edge != 0 && found[slot].is_none() {
                    found[slot] = Some(moves.clone());
                    missing -= 1;
                }
            }
        }
    }
    found
        .into_iter()
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| PackageError::Data("no random game gave every shape of win".into()))
}

/// A file of the given games, with their answers.
fn file_of(games: &[Vec<u8>]) -> GeneratedFile {
    let mut text = format!("{}\n", games.len());
    for (i, moves) in games.iter().enumerate() {
        write_game(&mut text, i + 1, moves, true);
    }
    let parsed = input::parse(text.as_bytes(), "edge-wins", input::Mode::Strict)
        .expect("written games parse");
    GeneratedFile {
        output: answers(&parsed),
        summary: crate::fourow::summarize(&parsed),
        input: text,
    }
}

/// `n` copies of each recipe.
fn times(n: usize, recipes: &[Recipe]) -> Vec<Recipe> {
    recipes
        .iter()
        .flat_map(|&r| std::iter::repeat_n(r, n))
        .collect()
}

/// Builds the whole package in memory, in the legacy format.
pub fn build(options: &Options) -> Result<Package, PackageError> {
    Ok(problem(options)?.render(super::Format::Legacy))
}

/// The whole problem, format-free.
pub fn problem(options: &Options) -> Result<Problem, PackageError> {
    let seed = options.seed;
    let data = |e: generate::GenerateError| PackageError::Data(e.to_string());
    let mut cases = vec![Case {
        group: "sample",
        kind: "",
        name: "1".to_string(),
        input: SAMPLE_IN.to_vec(),
        answer: SAMPLE_OUT.to_vec(),
        desc: desc(
            "The sample of SPOJ FOUROW's statement, byte for byte.",
            "the file tests/data/fourow-sample.in of tomek (answers: tomek fourow solve)",
        ),
    }];
    let package_cmd = format!(
        "tomek fourow package -o DIR --seed {seed} --games {} (this file is one of DIR's)",
        options.games
    );
    let mixed = generate::generate(options.games, seed, 1).map_err(data)?;
    let mut sets: Vec<(&str, GeneratedFile, String, String)> = vec![(
        "01-mixed",
        mixed.into_iter().next().expect("one file asked, one given"),
        format!(
            "{} games mixing every verdict: empty games (with and without the space), unfinished \
             and nearly full games, draws, wins by each player (two lines at once, runs of five \
             or more, a win on the 42nd move), overflowing slots and moves after a win.",
            options.games
        ),
        format!(
            "tomek fourow generate -o 01-mixed --games {} --seed {seed} && mv 01-mixed.out 01-mixed.ans",
            options.games
        ),
    )];
    let kinds: [(&str, Vec<Recipe>, &str); 4] = [
        (
            "02-full-boards",
            [
                times(30, &[Recipe::Draw]),
                times(10, &[Recipe::NearlyFull, Recipe::WinOnLastMove]),
            ]
            .concat(),
            "50 long games built by search: 30 draws (42 moves, no four), 10 games of 41 moves \
             with no four, 10 games won by the second player with the 42nd move.",
        ),
        (
            "03-long-runs",
            times(
                10,
                &[
                    Recipe::LongRun(Player::X),
                    Recipe::LongRun(Player::O),
                    Recipe::MultipleLines(Player::X),
                    Recipe::MultipleLines(Player::O),
                ],
            ),
            "40 wins whose capitals go beyond one four: runs of five or more and last moves that \
             make lines in two directions at once, 10 of each kind for each player.",
        ),
        (
            "04-overflow",
            [
                times(
                    15,
                    &[
                        Recipe::Overflow { tail: false },
                        Recipe::Overflow { tail: true },
                    ],
                ),
                times(7, &[Recipe::StraightOverflow]),
            ]
            .concat(),
            "37 invalid games with a seventh chip in a slot: after quiet play, followed by more \
             moves or not, and seven chips in one slot from the first move.",
        ),
        (
            "05-after-win",
            times(
                15,
                &[
                    Recipe::AfterWin {
                        overflow_tail: false,
                    },
                    Recipe::AfterWin {
                        overflow_tail: true,
                    },
                ],
            ),
            "30 invalid games with moves after a win, half of them with later moves that would \
             also overflow a slot.",
        ),
    ];
    for (k, (name, recipes, what)) in kinds.into_iter().enumerate() {
        let file =
            generate::generate_recipes(&recipes, seed.wrapping_add(k as u64 + 1)).map_err(data)?;
        sets.push((name, file, what.to_string(), package_cmd.clone()));
    }
    let shapes: Vec<String> = edges().iter().map(|(e, _)| e.to_string()).collect();
    sets.push((
        "06-edge-wins",
        file_of(&edge_wins(seed)?),
        format!(
            "32 wins from random play, one for each player, direction ({}) and edge of the grid \
             ({}) that the winning run touches.",
            DIRECTION_NAMES.join(", "),
            shapes.join(", ")
        ),
        package_cmd.clone(),
    ));
    for (name, file, what, how) in sets {
        cases.push(Case {
            group: "secret",
            kind: kind_of(name),
            name: name.to_string(),
            input: file.input.into_bytes(),
            answer: file.output.into_bytes(),
            desc: desc(&what, &how),
        });
    }
    let mut submissions = vec![
        Submission::accepted("solution.cpp", SOLUTION_CPP),
        Submission::accepted("solution.py", SOLUTION_PY),
    ];
    for w in wrong_solutions()? {
        let target = target_of(&w.id).ok_or_else(|| PackageError::Patch(w.id.clone()))?;
        let fails_on = cases
            .iter()
            .filter(|c| c.name == target)
            .map(|c| c.path())
            .collect();
        submissions.push(Submission::wrong(w, fails_on, false));
    }
    Ok(Problem {
        short_name: "fourinarow".into(),
        name: NAME.into(),
        source: SOURCE.into(),
        uuid: UUID.into(),
        header: HEADER.into(),
        legacy_yaml: problem_yaml(),
        statement: STATEMENT.into(),
        memory: None,
        output_args: &["case_sensitive", "space_change_sensitive"],
        validator: ("validate.py".into(), VALIDATOR_PY.into()),
        answer_validator: ("validate.py".into(), ANSWER_VALIDATOR_PY.into()),
        cases,
        invalid_inputs: super::nearmiss::fourow_invalid(SAMPLE_IN),
        outputs: super::nearmiss::fourow_outputs(SAMPLE_IN, SAMPLE_OUT),
        polygon_validator: POLYGON_VALIDATOR_CPP.into(),
        polygon_checker: POLYGON_CHECKER_CPP.into(),
        submissions,
        independent: vec![
            Submission::accepted("outside-bitboard.py", INDEPENDENT_PY),
            Submission::wrong_program("outside-no-diagonals.py", NO_DIAGONALS_PY),
        ],
        // The Python programs on the biggest file, start-up included: every one, right or
        // wrong, takes 0.16 s to 0.19 s, as `scripts/bench.sh package` (every Python
        // submission with python3 on 01-mixed and 02-full-boards) and BAPCtools measure;
        // constants, so that the same arguments always give the same package.
        timing: Timing {
            slowest_ac: 0.2,
            slowest_run: 0.2,
        },
    })
}

const NAME: &str = "Four in a Row";
const SOURCE: &str = "SPOJ, problem FOUROW";
const UUID: &str = "49099656-2b4c-4207-8ec0-b5174d32a46f";
const HEADER: &str = "# Written by tomek. The problem comes from SPOJ (FOUROW); its rights stay with their\n\
                      # owner: set license and rights_owner once you have the right to use it.\n";

fn problem_yaml() -> String {
    format!(
        "{HEADER}\
         name: {}\n\
         source: {}\n\
         uuid: {UUID}\n\
         license: unknown\n\
         limits:\n\
         \x20 # The time limit is fixed in .timelimit (seconds), as in the other formats; a judge\n\
         \x20 # that sets its own takes the slowest accepted run times time_multiplier, rounded\n\
         \x20 # up. A run is judged too slow only past time_safety_margin times the limit.\n\
         \x20 time_multiplier: 2\n\
         \x20 time_safety_margin: 1.5\n\
         # Every byte counts: letter case (the capitals of the winning chips) and spaces (the\n\
         # grid's rows keep their trailing spaces).\n\
         validator_flags: case_sensitive space_change_sensitive\n",
        super::yaml_string(NAME),
        super::yaml_string(SOURCE),
    )
}
