//! The judge's tools for a problem of the family: answering an input, validating it to the
//! letter, and judging a contestant's output.

use super::Problem;
use super::layout::{self, Input};
use crate::tictactoe::check::Verdict;
use crate::tictactoe::codejam::{ParseError, Strictness};

/// The answers to an input, one line per case, in the problem's layout.
pub fn answers(problem: &Problem, input: &Input) -> Vec<u8> {
    let mut values = problem.values();
    let answers = problem.answers();
    let mut out = Vec::new();
    for (i, &b) in input.boards.iter().enumerate() {
        let f = problem.facts(b, &mut values);
        let k = problem
            .answer_index(&f)
            .expect("the rules cover the input space (checked when the description is read)");
        layout::push_answer(problem, i as u64 + 1, answers[k], &mut out);
    }
    out
}

/// What a valid input holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Validation {
    /// Cases read.
    pub cases: u64,
    /// Cases per answer, in the order of [`Problem::answers`].
    pub per_answer: Vec<(String, u64)>,
    /// The datasets whose bounds the number of cases fits.
    pub datasets: Vec<String>,
}

/// Validates an input to the letter of the layout, in the input space, and within the bounds
/// of `dataset` (or of some dataset when none is named).
pub fn validate(
    problem: &Problem,
    file: &str,
    text: &[u8],
    dataset: Option<&str>,
) -> Result<Validation, ParseError> {
    let input = layout::read(problem, file, text, Strictness::Strict)?;
    let cases = input.boards.len() as u64;
    let fits: Vec<String> = problem
        .datasets
        .iter()
        .filter(|d| (d.min..=d.max).contains(&cases))
        .map(|d| d.name.clone())
        .collect();
    let bounds_error = |message: String| ParseError {
        file: file.to_string(),
        line: 1,
        case: None,
        message,
    };
    match dataset {
        Some(name) => {
            let Some(d) = problem.datasets.iter().find(|d| d.name == name) else {
                let names: Vec<&str> = problem.datasets.iter().map(|d| d.name.as_str()).collect();
                return Err(bounds_error(format!(
                    "no dataset `{name}` in {}: {}",
                    problem.name,
                    names.join(", ")
                )));
            };
            if !(d.min..=d.max).contains(&cases) {
                return Err(bounds_error(format!(
                    "{cases} cases, outside the {} dataset's {} to {}",
                    d.name, d.min, d.max
                )));
            }
        }
        None if fits.is_empty() => {
            let bounds: Vec<String> = problem
                .datasets
                .iter()
                .map(|d| format!("{} {} to {}", d.name, d.min, d.max))
                .collect();
            return Err(bounds_error(format!(
                "{cases} cases fit no dataset ({})",
                bounds.join(", ")
            )));
        }
        None => {}
    }
    let mut values = problem.values();
    let answers = problem.answers();
    let mut per_answer: Vec<(String, u64)> = answers.iter().map(|a| (a.to_string(), 0)).collect();
    for &b in &input.boards {
        let a = problem.answer(b, &mut values);
        if let Some(slot) = per_answer.iter_mut().find(|(x, _)| *x == a) {
            slot.1 += 1;
        }
    }
    Ok(Validation {
        cases,
        per_answer,
        datasets: fits,
    })
}

/// One word of a text, with the line it is on.
struct Word<'a> {
    text: &'a [u8],
    line: u64,
}

fn words(text: &[u8]) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    for (i, line) in text.split(|&c| c == b'\n').enumerate() {
        for w in line
            .split(|c| c.is_ascii_whitespace())
            .filter(|w| !w.is_empty())
        {
            out.push(Word {
                text: w,
                line: i as u64 + 1,
            });
        }
    }
    out
}

/// Judges `output` on `input`, as the judges' default output validator does: the output's
/// whitespace-separated words must be the expected answers' words, case-sensitively; how much
/// whitespace separates them does not matter. Anything else is a wrong answer, naming the case
/// it falls in. When the jury's `answers` are given, they must be right (else the checker
/// fails).
pub fn check(
    problem: &Problem,
    input: (&str, &[u8]),
    answers_file: Option<(&str, &[u8])>,
    output: (&str, &[u8]),
) -> Verdict {
    let parsed = match layout::read(problem, input.0, input.1, Strictness::Lenient) {
        Ok(p) => p,
        Err(e) => return Verdict::Fail(format!("the input cannot be read: {e}")),
    };
    let expected = answers(problem, &parsed);
    if let Some((name, jury)) = answers_file {
        let a: Vec<&[u8]> = words(jury).iter().map(|w| w.text).collect();
        let b: Vec<&[u8]> = words(&expected).iter().map(|w| w.text).collect();
        if a != b {
            return Verdict::Fail(format!(
                "{name}: the jury's answers are not the answers to {}",
                input.0
            ));
        }
    }
    // The expected words, each with its case.
    let mut want: Vec<(&[u8], u64)> = Vec::new();
    for (i, line) in expected.split(|&c| c == b'\n').enumerate() {
        for w in line
            .split(|c| c.is_ascii_whitespace())
            .filter(|w| !w.is_empty())
        {
            want.push((w, i as u64 + 1));
        }
    }
    let got = words(output.1);
    let show = |w: &[u8]| crate::output::escape::excerpt(w, 40);
    for (k, &(w, case)) in want.iter().enumerate() {
        let Some(g) = got.get(k) else {
            return Verdict::WrongAnswer(format!(
                "case {case}: the output ends where `{}` is expected",
                show(w)
            ));
        };
        if g.text != w {
            return Verdict::WrongAnswer(format!(
                "case {case}: `{}` on line {} of {} where `{}` is expected",
                show(g.text),
                g.line,
                output.0,
                show(w)
            ));
        }
    }
    if let Some(extra) = got.get(want.len()) {
        return Verdict::WrongAnswer(format!(
            "text after the last case: `{}` on line {} of {}",
            show(extra.text),
            extra.line,
            output.0
        ));
    }
    Verdict::Accepted(parsed.boards.len() as u64)
}

/// Everything about one grid of a problem: its facts, whether it is valid input, its answer,
/// and the wrong solutions of the catalogue that answer it otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Explanation {
    /// The problem's name.
    pub problem: String,
    /// The grid, rows joined by `/`.
    pub board: String,
    /// The facts, in the description's words.
    pub facts: String,
    /// Whether the grid is valid input of the problem.
    pub in_input_space: bool,
    /// Why play never reaches the grid, if it does not.
    pub unreachable_because: Option<String>,
    /// Why a grid of the base space (every grid, or those play reaches) is left out by the
    /// input's filter or minimum ply, if it is.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub outside_because: Option<String>,
    /// The answer, for valid input.
    pub answer: Option<String>,
    /// The wrong solutions that answer otherwise, with what each answers.
    pub wrong_solutions_failing: Vec<WrongAnswer>,
}

/// What one wrong solution answers.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WrongAnswer {
    /// The wrong solution's name.
    pub mutant: String,
    /// Its answer (`(no answer)` where no rule matches what it computes).
    pub answers: String,
}

/// Explains a grid given in the problem's symbols: the rows joined by `/`, or every square in
/// reading order. Any grid over the symbols is explained, valid input or not.
pub fn explain(p: &Problem, board: &str) -> Result<Explanation, String> {
    use super::mutants::Catalogue;
    use super::{BoardLayout, Cases, InputSpace};
    let squares: Vec<char> = board.chars().filter(|&c| c != '/').collect();
    let cells = p.geometry.cells() as usize;
    if squares.len() != cells {
        return Err(format!(
            "a {}×{} board has {cells} squares, not {}",
            p.geometry.rows,
            p.geometry.cols,
            squares.len()
        ));
    }
    let text: String = squares.iter().collect::<String>() + "\n";
    // Read as a one-case input of an every-grid variant on one line, so that any grid can be
    // explained and its symbols are checked as the problem's reader checks them.
    let mut any = p.clone();
    any.space = InputSpace::EveryGrid;
    any.filter = Default::default();
    any.min_ply = 0;
    any.layout.marker = None;
    any.layout.cases = Cases::Single;
    any.layout.board = BoardLayout::Line;
    let b = layout::read(&any, "BOARD", text.as_bytes(), Strictness::Lenient)
        .map_err(|e| e.message)?
        .boards[0];
    let mut values = super::facts::Values::sparse();
    let f = p.facts(b, &mut values);
    let in_space = p.in_space_with(b, &mut values);
    if in_space && p.verdict_of(&f).is_none() {
        return Err(p.uncovered(b, &f).to_string());
    }
    let answer = p.answer_of(&f).filter(|_| in_space);
    let mut catalogue = Catalogue::at(p, b);
    let wrong = match &answer {
        Some(a) => (0..catalogue.mutants.len())
            .filter_map(|i| {
                let m = catalogue.mutants[i];
                let got = catalogue.answer(m, b);
                (got.as_deref() != Some(a.as_str())).then(|| WrongAnswer {
                    mutant: catalogue.id(m),
                    answers: got.unwrap_or_else(|| "(no answer)".into()),
                })
            })
            .collect(),
        None => Vec::new(),
    };
    Ok(Explanation {
        problem: p.name.clone(),
        board: p.grid_text(b),
        facts: super::rules::describe_facts(&f),
        in_input_space: in_space,
        unreachable_because: crate::tictactoe::reach::check(&p.geometry, b)
            .err()
            .map(|e| e.to_string()),
        outside_because: p.outside_because(b, &mut values),
        answer,
        wrong_solutions_failing: wrong,
    })
}
