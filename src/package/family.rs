//! The package of any problem of the family ([`crate::problem`]) but Code Jam's, which keeps
//! its own ([`super::tictactoe`]): test data drawn from the description, and judge programs
//! generated from it, so that a judge runs the problem without tomek.
//!
//! The judge programs are C++17 with the standard library only, built from templates under
//! `assets/family/`: a block of constants written from the description (board, symbols,
//! layout, datasets, verdict rules), the board's rules shared by every program (`core.cpp`),
//! then the program's own part. The input validator reads the layout to the letter
//! (`read.cpp`), as [`crate::problem::layout::read`] does in strict mode, and answers in the
//! Kattis convention (`validate.cpp`) or, for Polygon, through testlib
//! (`polygon_validate.cpp`); the reference solution (`solution.cpp`) computes the facts the
//! rules read and answers with the first rule that holds; each wrong solution is the
//! reference with one bug of the catalogue ([`crate::problem::mutants::Mutant`]) put in
//! (`wrong.patch`), and only those that fail on the data go in the package, each with the
//! files it fails. Polygon's checker (`polygon_check.cpp`, testlib) compares the output's
//! words with the answer's, as the other formats' default output validator does.

use super::format::{Case, Invalid, Submission, Timing, Verdict};
use super::nearmiss::OutputCase;
use super::{PackageError, desc};
use crate::problem::layout::{self, Input};
use crate::problem::mutants::{Catalogue, Mutant, killer_set};
use crate::problem::rules::Conditions;
use crate::problem::sample::{Profile, contest, draw};
use crate::problem::{BoardLayout, Cases, Dataset, InputSpace, Problem, Separator, judge};
use crate::tictactoe::board::Board;
use crate::tictactoe::codejam::Strictness;
use std::fmt::Write as _;

/// The board's rules shared by the validator and the solutions.
pub const CORE_CPP: &str = include_str!("assets/family/core.cpp");
/// The facts of a position and perfect play, shared by the validators (for the input's filter)
/// and the solutions (for the verdicts).
pub const FACTS_CPP: &str = include_str!("assets/family/facts.cpp");
/// Perfect play (a memoized search), for the programs that read it.
pub const PLAY_CPP: &str = include_str!("assets/family/play.cpp");
/// What the programs that read no perfect play have in its place.
pub const NO_PLAY_CPP: &str = include_str!("assets/family/no_play.cpp");
/// Reading an input to the letter of the layout, shared by both validators.
pub const READ_CPP: &str = include_str!("assets/family/read.cpp");
/// The Kattis validator's own part.
pub const VALIDATE_CPP: &str = include_str!("assets/family/validate.cpp");
/// The Polygon validator's own part (testlib).
pub const POLYGON_VALIDATE_CPP: &str = include_str!("assets/family/polygon_validate.cpp");
/// The Polygon checker, the same for every problem (testlib).
pub const POLYGON_CHECK_CPP: &str = include_str!("assets/family/polygon_check.cpp");
/// The reference solution's own part.
pub const SOLUTION_CPP: &str = include_str!("assets/family/solution.cpp");
/// The catalogue of wrong solutions as changes to the reference solution.
pub const WRONG_PATCH: &str = include_str!("assets/family/wrong.patch");

/// The built-in problems' statement samples (the files of `tests/data/problems/`), in the
/// statement's order: a problem of one case per file has one file per sample.
const SAMPLES: [(&str, &[u8], &[u8]); 9] = [
    (
        "cf3c",
        include_bytes!("../../tests/data/problems/cf3c-sample.in"),
        include_bytes!("../../tests/data/problems/cf3c-sample.ans"),
    ),
    (
        "toe1",
        include_bytes!("../../tests/data/problems/toe1-sample.in"),
        include_bytes!("../../tests/data/problems/toe1-sample.ans"),
    ),
    (
        "toe2",
        include_bytes!("../../tests/data/problems/toe2-sample.in"),
        include_bytes!("../../tests/data/problems/toe2-sample.ans"),
    ),
    (
        "ccc-hk-2008-j4",
        include_bytes!("../../tests/data/problems/ccc-hk-2008-j4-sample.in"),
        include_bytes!("../../tests/data/problems/ccc-hk-2008-j4-sample.ans"),
    ),
    (
        "cf754b",
        include_bytes!("../../tests/data/problems/cf754b-sample-1.in"),
        include_bytes!("../../tests/data/problems/cf754b-sample-1.ans"),
    ),
    (
        "cf754b",
        include_bytes!("../../tests/data/problems/cf754b-sample-2.in"),
        include_bytes!("../../tests/data/problems/cf754b-sample-2.ans"),
    ),
    (
        "cf754b",
        include_bytes!("../../tests/data/problems/cf754b-sample-3.in"),
        include_bytes!("../../tests/data/problems/cf754b-sample-3.ans"),
    ),
    (
        "cf754b",
        include_bytes!("../../tests/data/problems/cf754b-sample-4.in"),
        include_bytes!("../../tests/data/problems/cf754b-sample-4.ans"),
    ),
    (
        "uva10111",
        include_bytes!("../../tests/data/problems/uva10111-sample.in"),
        include_bytes!("../../tests/data/problems/uva10111-sample.ans"),
    ),
];

/// Test files with one case each (for `cases = "single"`) drawn by the contest and uniform
/// profiles.
const SINGLE_FILES: u64 = 10;
/// The most cases of the contest file (the largest dataset's bound when smaller).
const CONTEST_CASES: u64 = 1000;
/// The most cases of the uniform file (the largest dataset's bound when smaller).
const UNIFORM_CASES: u64 = 10_000;

/// A C++ character literal.
fn cpp_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_string(),
        b'\\' => "'\\\\'".to_string(),
        0 => "'\\0'".to_string(),
        c => format!("'{}'", c as char),
    }
}

/// A C++ string literal (the description's texts are one line each).
fn cpp_str(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '?' => out.push_str("\\?"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The dataset whose bounds the generated files follow: the one allowing most cases.
fn widest(p: &Problem) -> &Dataset {
    p.datasets
        .iter()
        .max_by_key(|d| (d.max, std::cmp::Reverse(d.min)))
        .expect("a description has a dataset (checked when read)")
}

/// The constants of a program, written from the description, with the program's purpose on
/// top. `rules` adds the verdicts (the solutions read them, the validators do not); `local`
/// is the program's own include lines after the standard library's (testlib for Polygon's).
fn header(p: &Problem, what: &str, rules: bool, local: &str) -> String {
    let g = &p.geometry;
    let s = &p.symbols;
    let mut h = format!(
        "// {title}: {what}.\n\
         // Generated by tomek from the problem's description ({origin}); C++17, {libraries}\n\
         // only. X and O below stand for the first and the second player, whatever their symbols.\n\
         #include <algorithm>\n\
         #include <cctype>\n\
         #include <cstdio>\n\
         #include <cstdlib>\n\
         #include <string>\n\
         #include <vector>\n\
         {local}\n\
         // ---- The problem, from its description ----\n\
         const int kRows = {rows}, kCols = {cols}, kLine = {line};\n\
         const bool kJoker = {joker};\n\
         const char kFirst = {first}, kSecond = {second}, kEmpty = {empty}, kJokerSymbol = {js};\n\
         // Every grid over the symbols is input, or only positions that arise in play.\n\
         const bool kReachableOnly = {reach};\n\
         // How the cases come: a line with their number first, one per file, or until a line.\n\
         enum {{ kCount, kSingle, kUntil }};\n\
         const int kCases = {cases};\n\
         const char kTerminator[] = {term};\n\
         // Lines per board: one per row, or the rows one after another on one line.\n\
         const int kRowLines = {row_lines};\n\
         // Where empty lines go: nowhere, between two cases, after every case.\n\
         enum {{ kNone, kBetween, kAfter }};\n\
         const int kBlank = {blank};\n\
         // Each answer's prefix; {{n}} is the case number from 1.\n\
         const char kPrefix[] = {prefix};\n\
         // The datasets' bounds on the number of cases: a valid file fits one of them.\n\
         const long long kDatasets[][2] = {{{datasets}}};\n",
        title = p.title,
        origin = p.origin,
        libraries = if local.is_empty() {
            "standard library"
        } else {
            "standard library and testlib"
        },
        rows = g.rows,
        cols = g.cols,
        line = g.line,
        joker = g.joker,
        first = cpp_char(s.first),
        second = cpp_char(s.second),
        empty = cpp_char(s.empty),
        js = cpp_char(s.joker.unwrap_or(0)),
        reach = p.space == InputSpace::Reachable,
        cases = match p.layout.cases {
            Cases::Count => "kCount",
            Cases::Single => "kSingle",
            Cases::Until(_) => "kUntil",
        },
        term = cpp_str(match &p.layout.cases {
            Cases::Until(w) => w,
            _ => "",
        }),
        row_lines = match p.layout.board {
            BoardLayout::Rows => g.rows,
            BoardLayout::Line => 1,
        },
        blank = match p.layout.blank {
            Separator::None => "kNone",
            Separator::Between => "kBetween",
            Separator::After => "kAfter",
        },
        prefix = cpp_str(&p.layout.prefix),
        datasets = p
            .datasets
            .iter()
            .map(|d| format!("{{{}, {}}}", d.min, d.max))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let conditions = |c: &Conditions| {
        let flag = |v: Option<bool>| v.map_or("-1".to_string(), |b| u8::from(b).to_string());
        let set = |v: Option<u32>| v.map_or("kAny".to_string(), |s| format!("{s:#x}"));
        format!(
            "{{{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}}}",
            flag(c.reachable),
            set(c.line),
            flag(c.full),
            set(c.next),
            flag(c.over),
            set(c.ply),
            set(c.value),
            set(c.winner),
            flag(c.wins_now),
            flag(c.forced_win),
            set(c.distance),
        )
    };
    h.push_str(
        "// Conditions on a position's facts. Each is a value (-1: any), or a set of values as\n\
         // bits (kAny: any): line 0 nobody, 1 X, 2 O, 3 both; next 0 X, 1 O, 2 neither; ply the\n\
         // number of stones; value (for the side to move, with perfect play) 0 lost, 1 drawn,\n\
         // 2 won; winner (with perfect play) 0 X, 1 O, 2 nobody; wins_now: the side to move\n\
         // completes a line with one move; forced_win: the side to move forces a win; distance:\n\
         // plies to the end with perfect play.\n\
         const unsigned kAny = ~0u;\n\
         struct Conditions {\n\
         \x20   int reachable;\n\
         \x20   unsigned line;\n\
         \x20   int full;\n\
         \x20   unsigned next;\n\
         \x20   int over;\n\
         \x20   unsigned ply;\n\
         \x20   unsigned value;\n\
         \x20   unsigned winner;\n\
         \x20   int wins_now;\n\
         \x20   int forced_win;\n\
         \x20   unsigned distance;\n\
         };\n",
    );
    let _ = writeln!(
        h,
        "// The input: positions with at least kMinPly stones whose facts meet kFilter (when\n\
         // kHasFilter), each board after a line kMarker (when kHasMarker).\n\
         const int kMinPly = {};\n\
         const bool kHasFilter = {};\n\
         const Conditions kFilter = {};\n\
         const char kFilterWords[] = {};\n\
         const bool kHasMarker = {};\n\
         const char kMarker[] = {};",
        p.min_ply,
        !p.filter.is_empty(),
        conditions(&p.filter),
        cpp_str(&p.filter.describe()),
        p.layout.marker.is_some(),
        cpp_str(p.layout.marker.as_deref().unwrap_or("")),
    );
    // What of perfect play this program reads: the verdicts' for the solutions, the filter's
    // for the validators.
    let read: Vec<&Conditions> = if rules {
        p.verdicts.iter().map(|r| &r.when).collect()
    } else {
        vec![&p.filter]
    };
    let _ = writeln!(
        h,
        "// Whether the program reads perfect play (a search), the plies to the end (every move\n\
         // searched) and the first forced win.\n\
         const bool kNeedsValues = {};\n\
         const bool kNeedsDistance = {};\n\
         const bool kNeedsForcedWin = {};",
        read.iter().any(|c| c.needs_values()),
        read.iter().any(|c| c.needs_distance()),
        read.iter().any(|c| c.forced_win.is_some()),
    );
    if rules {
        h.push_str(
            "// The verdicts, first match wins; an answer with `{row}` and `{col}` is a template\n\
             // filled in with the forced win's square.\n\
             struct Rule {\n\
             \x20   const char* answer;\n\
             \x20   bool is_template;\n\
             \x20   Conditions when;\n\
             };\n\
             const Rule kRules[] = {\n",
        );
        for r in &p.verdicts {
            let _ = writeln!(
                h,
                "    {{{}, {}, {}}},  // {}",
                cpp_str(&r.answer),
                r.is_template(),
                conditions(&r.when),
                r.when.describe()
            );
        }
        h.push_str("};\n");
    }
    h.push('\n');
    h
}

/// The part on perfect play of a program: the search when the program reads it, else a
/// stand-in that leaves its facts unknown.
fn play(needed: bool) -> &'static str {
    if needed { PLAY_CPP } else { NO_PLAY_CPP }
}

/// The input validator, in the Kattis convention (exit 42 valid, 43 with the reason on
/// standard error).
pub fn validator(p: &Problem) -> String {
    let what = "input validator (exit 42 when standard input is a valid input, 43 with the \
                reason on standard error when not)";
    format!(
        "{}{CORE_CPP}\n{FACTS_CPP}\n{}\n{READ_CPP}\n{VALIDATE_CPP}",
        header(p, what, false, ""),
        play(p.filter.needs_values())
    )
}

/// The input validator in Polygon's convention, written against testlib (exit 0 when the
/// input is valid, testlib's failure with the line, the case and the reason when not): the
/// layout read by the same code as [`validator`]'s.
pub fn polygon_validator(p: &Problem) -> String {
    let what = "input validator in Polygon's convention, written against testlib (exit 0 \
                when standard input is a valid input, testlib's failure with the reason when not)";
    format!(
        "{}{CORE_CPP}\n{FACTS_CPP}\n{}\n{READ_CPP}\n{POLYGON_VALIDATE_CPP}",
        header(p, what, false, "\n#include \"testlib.h\"\n"),
        play(p.filter.needs_values())
    )
}

/// The output checker in Polygon's convention, written against testlib. It reads no constant
/// of the description: the answer file says what each case must hold.
pub fn polygon_checker(p: &Problem) -> String {
    format!(
        "// {}: output checker in Polygon's convention, written against testlib.\n\
         // Generated by tomek for the problem's description ({}).\n\
         //\n\
         {POLYGON_CHECK_CPP}",
        p.title, p.origin
    )
}

/// The reference solution.
pub fn solution(p: &Problem) -> String {
    let what = "reference solution (the input on standard input, the answers on standard output)";
    format!(
        "{}{CORE_CPP}\n{FACTS_CPP}\n{}\n{SOLUTION_CPP}",
        header(p, what, true, ""),
        play(p.verdicts.iter().any(|r| r.when.needs_values()))
    )
}

/// One wrong solution of the catalogue: the reference with the mutant's changes, labelled.
pub fn wrong_solution(p: &Problem, m: Mutant) -> Result<String, PackageError> {
    let reference = solution(p);
    let catalogue = Catalogue::new(p);
    let id = catalogue.id(m);
    let section = WRONG_PATCH
        .split("\n@@ ")
        .skip(1)
        .find(|s| s.lines().next().map(str::trim) == Some(id.as_str()))
        .ok_or_else(|| PackageError::Patch(id.clone()))?;
    let mut source = reference;
    for hunk in section.split("\n~~\n") {
        let (mut old, mut new) = (String::new(), String::new());
        for l in hunk.lines() {
            if let Some(rest) = l.strip_prefix('-') {
                old.push_str(rest);
                old.push('\n');
            } else if let Some(rest) = l.strip_prefix('+') {
                new.push_str(rest);
                new.push('\n');
            }
        }
        if old.is_empty() || source.matches(&old).count() != 1 {
            return Err(PackageError::Patch(id.clone()));
        }
        source = source.replacen(&old, &new, 1);
    }
    let (first, rest) = source.split_once('\n').unwrap_or((&source, ""));
    Ok(format!(
        "{first}\n// WRONG ANSWER on purpose: {}.\n{rest}",
        catalogue.description(m)
    ))
}

/// A statement's text in LaTeX: special characters escaped.
fn tex(s: &str) -> String {
    let mut out = String::new();
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '#' | '$' | '%' | '&' | '_' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            c => out.push(c),
        }
    }
    out
}

fn tt(s: &str) -> String {
    format!("\\texttt{{{}}}", tex(s))
}

/// A rule's conditions in words, for the statement.
fn conditions_in_words(p: &Problem, r: &Conditions) -> String {
    let parts = condition_words(p, r);
    if parts.is_empty() {
        "in every other case".to_string()
    } else {
        format!("when {}", parts.join(", and "))
    }
}

/// Each condition of `r` in words, in the order of the description's fields.
fn condition_words(p: &Problem, r: &Conditions) -> Vec<String> {
    let (x, o) = (
        tt(&(p.symbols.first as char).to_string()),
        tt(&(p.symbols.second as char).to_string()),
    );
    let pick = |set: u32, words: &[String]| -> String {
        let w: Vec<String> = (0..words.len())
            .filter(|&i| set >> i & 1 == 1)
            .map(|i| words[i].clone())
            .collect();
        w.join(" or ")
    };
    let mut parts = Vec::new();
    match r.reachable {
        Some(true) => parts.push("the grid arises in a game played by the rules".to_string()),
        Some(false) => parts.push("the grid arises in no game played by the rules".to_string()),
        None => {}
    }
    if let Some(s) = r.line {
        let words = [
            "nobody has a line".to_string(),
            format!("only {x} has a line"),
            format!("only {o} has a line"),
            "both players have a line".to_string(),
        ];
        parts.push(pick(s, &words));
    }
    match r.full {
        Some(true) => parts.push("no square is empty".to_string()),
        Some(false) => parts.push("some square is empty".to_string()),
        None => {}
    }
    if let Some(s) = r.next {
        let words = [
            format!("{x} and {o} have as many symbols ({x} is to move)"),
            format!("{x} has one symbol more than {o} ({o} is to move)"),
            "the numbers of symbols fit no game".to_string(),
        ];
        parts.push(pick(s, &words));
    }
    match r.over {
        Some(true) => parts.push("the game is over (a line, or no square empty)".to_string()),
        Some(false) => parts.push("the game is not over".to_string()),
        None => {}
    }
    if let Some(s) = r.ply {
        let n: Vec<String> = (0..17)
            .filter(|&i| s >> i & 1 == 1)
            .map(|i| i.to_string())
            .collect();
        parts.push(format!(
            "the grid holds {} symbols of the players",
            n.join(" or ")
        ));
    }
    if let Some(s) = r.value {
        let words = [
            "the player to move loses with best play on both sides".to_string(),
            "the game is drawn with best play on both sides".to_string(),
            "the player to move wins with best play on both sides".to_string(),
        ];
        parts.push(pick(s, &words));
    }
    if let Some(s) = r.winner {
        let words = [
            format!("{x} wins with best play on both sides (or has won)"),
            format!("{o} wins with best play on both sides (or has won)"),
            "nobody wins with best play on both sides (or the game ended drawn)".to_string(),
        ];
        parts.push(pick(s, &words));
    }
    match r.wins_now {
        Some(true) => parts.push(
            "the game is not over and the player to move can complete a line with their next \
             move"
                .to_string(),
        ),
        Some(false) => parts.push(
            "the player to move cannot complete a line with their next move (or the game is \
             over, or the numbers of symbols fit no game)"
                .to_string(),
        ),
        None => {}
    }
    // Perfect play's facts exist only for grids that arise in play.
    let played = if p.space == InputSpace::EveryGrid {
        "the grid arises in a game played by the rules, "
    } else {
        ""
    };
    match r.forced_win {
        Some(true) => parts.push(format!(
            "{played}the game is not over and the player to move can force a win, whatever the \
             opponent plays"
        )),
        Some(false) => parts.push(format!(
            "{played}the game is not over and the player to move cannot force a win (the \
             opponent can hold a draw or win)"
        )),
        None => {}
    }
    if let Some(s) = r.distance {
        let n: Vec<String> = (0..17)
            .filter(|&i| s >> i & 1 == 1)
            .map(|i| i.to_string())
            .collect();
        parts.push(format!(
            "{played}with best play the game ends after {} more moves (0 when it is over; the winner \
             wins as fast as it can, the loser holds out as long as it can, and a drawn game \
             fills the board)",
            n.join(" or ")
        ));
    }
    parts
}

/// The statement, in the Kattis LaTeX form (`\problemname`, then the sections).
pub fn statement(p: &Problem) -> String {
    let g = &p.geometry;
    let s = &p.symbols;
    let sym = |c: u8| tt(&(c as char).to_string());
    let (x, o) = (sym(s.first), sym(s.second));
    let mut t = format!("\\problemname{{{}}}\n\n", tex(&p.title));
    let _ = write!(
        t,
        "Two players, {x} and {o}, play on a board of ${} \\times {}$ squares, {x} first; each \
         in turn writes their symbol on an empty square. A line is {} squares in a row along a \
         row, a column or a diagonal. As soon as a move gives the mover a line, the mover has \
         won and nothing more is played; when no square is empty and nobody has a line, the \
         game is a draw.",
        g.rows, g.cols, g.line
    );
    if let Some(j) = s.joker {
        let _ = write!(
            t,
            " Before play, at most one square may be given the symbol {}: nobody plays on it, \
             and it counts for both players' lines.",
            sym(j)
        );
    }
    let _ = write!(
        t,
        "\n\nYou are given grids; an empty square is {}. Tell for each grid what the answer \
         below is.\n\n(Source: {}.)\n\n\\section*{{Input}}\n\n",
        sym(s.empty),
        tex(&p.source)
    );
    let board = match p.layout.board {
        BoardLayout::Rows => format!("{} lines of {} characters", g.rows, g.cols),
        BoardLayout::Line => format!(
            "one line of {} characters, the rows one after another",
            g.cells()
        ),
    };
    let mut symbols = vec![x.clone(), o.clone(), sym(s.empty)];
    symbols.extend(s.joker.map(sym));
    let ds = widest(p);
    let bounds = format!("${} \\le N \\le {}$", ds.min, ds.max);
    match &p.layout.cases {
        Cases::Count => {
            let _ = write!(
                t,
                "The first line holds the number of grids $N$ ({bounds}). Then each grid follows \
                 as {board}"
            );
        }
        Cases::Single => {
            let _ = write!(t, "The input is one grid, as {board}");
        }
        Cases::Until(w) => {
            let _ = write!(
                t,
                "The input holds $N$ grids ({bounds}), then a line {}. Each grid is written as \
                 {board}",
                tt(w)
            );
        }
    }
    let _ = write!(t, ", each character one of {}.", symbols.join(", "));
    match p.layout.blank {
        Separator::None => {}
        Separator::Between => t.push_str(" One empty line separates two grids."),
        Separator::After => t.push_str(" Each grid is followed by one empty line."),
    }
    if let Some(m) = &p.layout.marker {
        let _ = write!(t, " A line {} comes before each grid.", tt(m));
    }
    if s.joker.is_some() {
        t.push_str(" A grid holds the joker at most once.");
    }
    match p.space {
        InputSpace::Reachable => t.push_str(" Every grid arises in a game played by the rules."),
        InputSpace::EveryGrid => {
            t.push_str(" A grid need not arise in a game: any grid of these symbols may be given.")
        }
    }
    if p.min_ply > 0 {
        let _ = write!(
            t,
            " Every grid holds at least {} symbols of the players.",
            p.min_ply
        );
    }
    if !p.filter.is_empty() {
        let _ = write!(
            t,
            " Only grids of this kind are given: {}.",
            condition_words(p, &p.filter).join(", and ")
        );
    }
    t.push_str("\n\n\\section*{Output}\n\n");
    let each = if p.layout.cases == Cases::Single {
        "Print one line"
    } else {
        "For each grid, in order, print one line"
    };
    if p.layout.prefix.is_empty() {
        let _ = writeln!(
            t,
            "{each} with the answer: the first of these that applies."
        );
    } else {
        let shown = tex(&p.layout.prefix).replace("\\{n\\}", "$x$");
        let _ = writeln!(
            t,
            "{each} \\texttt{{{shown}$y$}}, where {}$y$ is the answer: the first of these \
             that applies.",
            if p.layout.prefix.contains("{n}") {
                "$x$ is the grid's number counting from 1 and "
            } else {
                ""
            }
        );
    }
    t.push_str("\\begin{itemize}\n");
    for (i, r) in p.verdicts.iter().enumerate() {
        let end = if i + 1 == p.verdicts.len() { '.' } else { ';' };
        // A template's placeholders become the row and column, in mathematics.
        let answer = tt(&r.answer)
            .replace("\\{row\\}", "$r$")
            .replace("\\{col\\}", "$c$");
        let _ = writeln!(
            t,
            "  \\item {answer} {}{end}",
            conditions_in_words(p, &r.when)
        );
    }
    t.push_str("\\end{itemize}\n");
    if p.verdicts.iter().any(|r| r.is_template()) {
        t.push_str(
            "\nIn an answer with $r$ and $c$, they are the row and the column, numbered from 0 \
             at the top left, of the first square in reading order (row by row from the top, \
             each row from the left) where the player to move starts a forced win: a move that \
             completes a line, or after which the opponent loses whatever they play.\n",
        );
    }
    t
}

/// The lower-case letters and digits of the name: Kattis's, DOMjudge's and Polygon's id.
pub fn short_name(p: &Problem) -> String {
    let s: String = p
        .name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if s.is_empty() {
        "problem".to_string()
    } else {
        s
    }
}

/// A fixed uuid for the description: the same text always gives the same package.
fn uuid(p: &Problem) -> String {
    let hash = |seed: u64| {
        p.text.bytes().fold(seed, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    };
    let (a, b) = (hash(0xcbf2_9ce4_8422_2325), hash(0x8422_2325_cbf2_9ce4));
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        b >> 52,
        b & 0xffff_ffff_ffff
    )
}

/// The statement's samples of a built-in problem, when the description is the built-in's
/// (and every sample is valid input of it, which the tests hold).
fn builtin_samples(p: &Problem) -> Vec<(&'static [u8], &'static [u8])> {
    let Some(builtin) = Problem::builtin(&p.name) else {
        return Vec::new();
    };
    if !builtin.same_judgement(p) {
        return Vec::new();
    }
    let samples: Vec<(&[u8], &[u8])> = SAMPLES
        .iter()
        .filter(|(n, _, _)| *n == p.name)
        .map(|&(_, input, answer)| (input, answer))
        .collect();
    if samples
        .iter()
        .any(|(input, _)| judge::validate(p, "sample", input, None).is_err())
    {
        return Vec::new();
    }
    samples
}

/// Splits boards into files within the widest dataset's bounds: at most its maximum per
/// file, and a short last file topped up with uniform draws up to its minimum.
fn files(p: &Problem, boards: Vec<Board>, seed: u64) -> Vec<Vec<Board>> {
    let d = widest(p);
    let mut out: Vec<Vec<Board>> = boards
        .chunks(d.max as usize)
        .map(<[Board]>::to_vec)
        .collect();
    if let Some(last) = out.last_mut()
        && (last.len() as u64) < d.min
    {
        let more = d.min - last.len() as u64;
        last.extend(draw(p, Profile::Uniform, more, seed));
    }
    out
}

/// One test case of `boards`, checked by the library's own validator.
fn case(
    p: &Problem,
    group: &'static str,
    kind: &'static str,
    name: String,
    boards: &[Board],
    what: &str,
    rebuild: &str,
) -> Result<Case, PackageError> {
    let input = layout::input_text(p, boards);
    judge::validate(p, &name, &input, None).map_err(|e| PackageError::Data(e.to_string()))?;
    let answer = judge::answers(
        p,
        &Input {
            boards: boards.to_vec(),
            lines: Vec::new(),
        },
    );
    Ok(Case {
        group,
        kind,
        name,
        input,
        answer,
        desc: desc(what, rebuild),
    })
}

/// The test cases: the sample, the killer set, a contest file and a uniform file (for a
/// problem of one case per file, one file per case).
pub fn cases(p: &Problem, seed: u64) -> Result<Vec<Case>, PackageError> {
    let single = p.layout.cases == Cases::Single;
    let rebuild = format!(
        "tomek package --problem {arg} --seed {seed} (or tomek generate --problem {arg} with \
         the profile named above)",
        arg = p.command_arg()
    );
    let killer = killer_set(p);
    let (mutants, cells, killer_boards) = (killer.mutants, killer.cells.len(), killer.boards);
    let mut out = Vec::new();
    let samples = builtin_samples(p);
    for (i, &(input, answer)) in samples.iter().enumerate() {
        let which = if samples.len() == 1 {
            "The sample of the statement".to_string()
        } else {
            format!("Sample {} of the statement's {}", i + 1, samples.len())
        };
        out.push(Case {
            group: "sample",
            kind: "",
            name: (i + 1).to_string(),
            input: input.to_vec(),
            answer: answer.to_vec(),
            desc: desc(
                &format!("{which} ({}), byte for byte.", p.source),
                &format!(
                    "tests/data/problems/{}-sample{}.in of tomek",
                    p.name,
                    if samples.len() == 1 {
                        String::new()
                    } else {
                        format!("-{}", i + 1)
                    }
                ),
            ),
        });
    }
    if samples.is_empty() {
        let take = if single { 1 } else { 3 };
        let boards = files(p, draw(p, Profile::Balanced, take, seed), seed).remove(0);
        out.push(case(
            p,
            "sample",
            "",
            "1".to_string(),
            &boards,
            "A sample: positions drawn with each answer equally likely (profile balanced).",
            &rebuild,
        )?);
    }
    let d = widest(p);
    let killer_files = files(p, killer_boards.clone(), seed);
    let numbered = |stem: &str, i: usize, n: usize| {
        if n == 1 {
            stem.to_string()
        } else {
            format!("{stem}-{:02}", i + 1)
        }
    };
    let n = killer_files.len();
    for (i, f) in killer_files.iter().enumerate() {
        out.push(case(
            p,
            "secret",
            "killer",
            numbered("01-killer", i, n),
            f,
            &format!(
                "The killer set (profile killer): a smallest set of positions on which every \
                 wrong solution of tomek's catalogue ({mutants} bugs) that can fail does fail, \
                 and each of the {cells} feasible combinations of line, stone difference, full \
                 board and answer appears{}.",
                if n > 1 { ", one file per position" } else { "" }
            ),
            &rebuild,
        )?);
    }
    let drawn: [(&str, &str, Profile, u64, &str); 2] = [
        (
            "02-contest",
            "contest",
            Profile::Contest,
            CONTEST_CASES.min(d.max).max(d.min),
            "The killer set and the edge positions (the fewest stones, and every answer at every \
             ply where it occurs), then each answer equally often, in a seeded order (profile \
             contest)",
        ),
        (
            "03-uniform",
            "uniform",
            Profile::Uniform,
            UNIFORM_CASES.min(d.max).max(d.min),
            "Positions drawn uniformly from the input space (profile uniform)",
        ),
    ];
    // The killer set is found once: the contest profile starts from it.
    let draw = |profile: Profile, cases: u64| match profile {
        Profile::Contest => contest(p, killer_boards.clone(), cases, seed),
        _ => draw(p, profile, cases, seed),
    };
    for (stem, kind, profile, cases, what) in drawn {
        if single {
            // A position already in a file is left out: judges warn of identical inputs.
            let mut seen: Vec<Board> = Vec::new();
            for c in &out {
                seen.extend(
                    layout::read(p, &c.name, &c.input, Strictness::Strict)
                        .map_or_else(|_| Vec::new(), |i| i.boards),
                );
            }
            let boards: Vec<Board> = draw(profile, SINGLE_FILES)
                .into_iter()
                .filter(|b| !seen.contains(b))
                .collect();
            let mut kept: Vec<Board> = Vec::new();
            for b in boards {
                if kept.contains(&b) {
                    continue;
                }
                kept.push(b);
                out.push(case(
                    p,
                    "secret",
                    kind,
                    format!("{stem}-{:02}", kept.len()),
                    &[b],
                    &format!("{what}: one of the files of one position each."),
                    &rebuild,
                )?);
            }
        } else {
            let boards = draw(profile, cases);
            out.push(case(
                p,
                "secret",
                kind,
                stem.to_string(),
                &boards,
                &format!("{what}: {cases} positions."),
                &rebuild,
            )?);
        }
    }
    Ok(out)
}

/// For each case (by [`Case::path`]), the mutants that answer one of its boards wrongly.
fn failures(p: &Problem, cases: &[Case]) -> Result<Vec<(String, Vec<Mutant>)>, PackageError> {
    let mut catalogue = Catalogue::new(p);
    let mut values = p.values();
    let mut out = Vec::new();
    for c in cases {
        let input = layout::read(p, &c.name, &c.input, Strictness::Strict)
            .map_err(|e| PackageError::Data(e.to_string()))?;
        let mut wrong = Vec::new();
        for &b in &input.boards {
            let right = p.answer(b, &mut values);
            for m in Mutant::CLASSIC {
                if !wrong.contains(&m) && catalogue.answer(m, b).as_deref() != Some(right.as_str())
                {
                    wrong.push(m);
                }
            }
        }
        out.push((c.path(), wrong));
    }
    Ok(out)
}

/// Near misses of a valid file the validator must reject (the 2025-09 package's
/// `invalid_input`).
fn invalid_inputs(p: &Problem, sample: &[u8], seed: u64) -> Vec<Invalid> {
    let mut out = Vec::new();
    let mut push = |name: &str, input: Vec<u8>, why: &str| {
        if judge::validate(p, name, &input, None).is_err() {
            out.push(Invalid {
                name: name.to_string(),
                input,
                why: why.to_string(),
            });
        }
    };
    if let Some(i) = sample.windows(2).position(|w| w == b"\n\n") {
        let mut v = sample.to_vec();
        v.remove(i);
        push(
            "blank-line-missing",
            v,
            "an empty line of the layout left out",
        );
    }
    let symbols = [
        Some(p.symbols.first),
        Some(p.symbols.second),
        Some(p.symbols.empty),
    ];
    let mut start = if p.layout.cases == Cases::Count {
        sample.iter().position(|&c| c == b'\n').map_or(0, |i| i + 1)
    } else {
        0
    };
    // The first board's first square: past the marker line, when boards have one.
    if let Some(m) = &p.layout.marker
        && sample[start..].starts_with(format!("{m}\n").as_bytes())
    {
        start += m.len() + 1;
    }
    if start < sample.len() {
        let bad = [b'?', b'#', b'x', b'o', b'Z']
            .into_iter()
            .find(|c| !symbols.contains(&Some(*c)) && Some(*c) != p.symbols.joker)
            .unwrap_or(b'?');
        let mut v = sample.to_vec();
        v[start] = bad;
        push(
            "bad-symbol",
            v,
            "a character that is no symbol of the board",
        );
    }
    let mut crlf = Vec::new();
    for &c in sample {
        if c == b'\n' {
            crlf.push(b'\r');
        }
        crlf.push(c);
    }
    push("crlf", crlf, "CRLF line endings");
    push(
        "no-final-newline",
        sample[..sample.len().saturating_sub(1)].to_vec(),
        "no newline at the end",
    );
    let d = widest(p);
    let too_many = draw(p, Profile::Uniform, d.max + 1, seed);
    push(
        "cases-out-of-bounds",
        layout::input_text(p, &too_many),
        "one case more than the datasets allow",
    );
    if let Some(m) = &p.layout.marker {
        let line = format!("{m}\n");
        let at = if sample.starts_with(line.as_bytes()) {
            Some(0)
        } else {
            let inner = format!("\n{m}\n");
            sample
                .windows(inner.len())
                .position(|w| w == inner.as_bytes())
                .map(|i| i + 1)
        };
        if let Some(at) = at {
            let mut v = sample.to_vec();
            v.drain(at..at + line.len());
            push("marker-missing", v, "a board without its marker line");
        }
    }
    // A file of the fewest cases, whose first board each near miss below replaces.
    let filler = draw(p, Profile::Uniform, d.min, seed);
    // Boards of the base space (every grid, or the reachable ones) that the minimum ply or
    // the filter keeps out, each in a file of otherwise valid cases.
    let mut few = None;
    let mut filtered = None;
    if p.min_ply > 0 || !p.filter.is_empty() {
        let mut values = p.values();
        let mut look = |b: Board| {
            if few.is_some() && filtered.is_some() {
                return;
            }
            if b.ply() < p.min_ply {
                few.get_or_insert(b);
            } else if filtered.is_none() && p.outside_because(b, &mut values).is_some() {
                filtered = Some(b);
            }
        };
        match p.space {
            InputSpace::Reachable => p.reachable().for_each(&p.geometry, &mut look),
            InputSpace::EveryGrid => p.for_each_grid(&mut look),
        }
    }
    for (name, board, why) in [
        (
            "below-min-ply",
            few,
            "a board with fewer stones than the minimum ply",
        ),
        (
            "outside-filter",
            filtered,
            "a board outside the input's filter",
        ),
    ] {
        if let Some(b) = board {
            let mut boards = filler.clone();
            boards[0] = b;
            push(name, layout::input_text(p, &boards), why);
        }
    }
    if p.space == InputSpace::Reachable {
        let mut outside = None;
        p.for_each_grid(|b| {
            if outside.is_none() && !crate::tictactoe::reach::is_reachable(&p.geometry, b) {
                outside = Some(b);
            }
        });
        if let Some(b) = outside {
            let mut boards = filler.clone();
            boards[0] = b;
            push(
                "unreachable-grid",
                layout::input_text(p, &boards),
                "a grid that arises in no game",
            );
        }
    }
    out
}

/// The 2025-09 answer validator: the answer file ends with a newline and each of its lines is
/// the prefix of its case and one of the problem's answers.
fn answer_validator(p: &Problem) -> String {
    let answers: Vec<String> = p.answers().iter().map(|a| super::quoted(a)).collect();
    format!(
        "#!/usr/bin/env python3\n\
         # Answer validator for {title}, generated by tomek: the answer file (standard input)\n\
         # ends with a newline, and each line is the prefix of its case and one of the answers.\n\
         import sys\n\
         \n\
         PREFIX = {prefix}\n\
         ANSWERS = [{answers}]\n\
         \n\
         text = sys.stdin.read()\n\
         if not text.endswith(\"\\n\"):\n\
         \x20   print(\"the answer does not end with a newline\", file=sys.stderr)\n\
         \x20   sys.exit(43)\n\
         lines = text[:-1].split(\"\\n\")\n\
         for n, line in enumerate(lines, 1):\n\
         \x20   head = PREFIX.replace(\"{{n}}\", str(n))\n\
         \x20   if not line.startswith(head) or line[len(head):] not in ANSWERS:\n\
         \x20       print(f\"line {{n}}: not an answer: {{line!r}}\", file=sys.stderr)\n\
         \x20       sys.exit(43)\n\
         sys.exit(42)\n",
        title = p.title,
        prefix = super::quoted(&p.layout.prefix),
        answers = answers.join(", "),
    )
}

/// Outputs the default output validator must judge (the 2025-09 package's `valid_output` and
/// `invalid_output`): the answer with other spacing, and a wrong answer.
fn outputs(p: &Problem, sample: &Case) -> Vec<OutputCase> {
    let mut out = Vec::new();
    let spaced: Vec<u8> = sample
        .answer
        .iter()
        .flat_map(|&c| {
            if c == b'\n' {
                vec![b' ', b'\n']
            } else {
                vec![c]
            }
        })
        .collect();
    out.push(OutputCase {
        name: "trailing-spaces".to_string(),
        input: sample.input.clone(),
        answer: sample.answer.clone(),
        output: spaced,
        accepted: true,
        why: "a space at the end of every line: spacing does not matter".to_string(),
    });
    let text = String::from_utf8_lossy(&sample.answer).into_owned();
    let answers = p.answers();
    if let Some(first) = text.lines().next() {
        let other = answers
            .iter()
            .find(|a| !first.ends_with(*a))
            .or(answers.first());
        if let Some(other) = other {
            let mut wrong = format!("{}{other}\n", layout::prefix(p, 1));
            for l in text.lines().skip(1) {
                wrong.push_str(l);
                wrong.push('\n');
            }
            if wrong.as_bytes() != sample.answer.as_slice() {
                out.push(OutputCase {
                    name: "wrong-first-answer".to_string(),
                    input: sample.input.clone(),
                    answer: sample.answer.clone(),
                    output: wrong.into_bytes(),
                    accepted: false,
                    why: "the first case's answer replaced by another".to_string(),
                });
            }
        }
    }
    out
}

/// The whole problem, format-free. Code Jam's own problem is refused: `tomek package`
/// without `--problem` builds its package.
pub fn problem(p: &Problem, seed: u64) -> Result<super::format::Problem, PackageError> {
    problem_with(p, seed, &mut |_| {})
}

/// [`problem`], telling `stage` what it does as it starts each long step: the words of a
/// progress line.
pub fn problem_with(
    p: &Problem,
    seed: u64,
    stage: &mut dyn FnMut(&str),
) -> Result<super::format::Problem, PackageError> {
    if p.is_tomek() {
        return Err(PackageError::Data(
            "Code Jam's Tic-Tac-Toe-Tomek has its own package: tomek package without --problem"
                .to_string(),
        ));
    }
    stage("choosing the test files' positions (killer set, edge, contest, uniform)");
    let cases = cases(p, seed)?;
    stage("running the wrong solutions on every test file");
    let failures = failures(p, &cases)?;
    stage("writing the package");
    let mut submissions = vec![Submission::accepted("solution.cpp", &solution(p))];
    let catalogue = Catalogue::new(p);
    for m in Mutant::CLASSIC {
        let fails_on: Vec<String> = failures
            .iter()
            .filter(|(_, ms)| ms.contains(&m))
            .map(|(path, _)| path.clone())
            .collect();
        if fails_on.is_empty() {
            continue;
        }
        submissions.push(Submission {
            file: format!("{}.cpp", catalogue.id(m)),
            source: wrong_solution(p, m)?,
            verdict: Verdict::WrongAnswer,
            bug: Some(catalogue.description(m)),
            fails_on,
            fails_only_there: true,
        });
    }
    let name = p.title.clone();
    let header = format!(
        "# Written by tomek from the description of `{}` ({}).\n\
         # The problem comes from {}: its rights stay with their owner;\n\
         # set license and rights_owner once you may use it.\n",
        p.name,
        p.origin,
        p.source.replace('\n', " ")
    );
    let legacy_yaml = format!(
        "{header}\
         name: {}\n\
         source: {}\n\
         uuid: {}\n\
         license: unknown\n\
         limits:\n\
         \x20 # The time limit is fixed in .timelimit (seconds), as in the other formats.\n\
         \x20 time_multiplier: 2\n\
         \x20 time_safety_margin: 1.5\n\
         # The answers are compared word by word with their letter case; spacing does not matter.\n\
         validator_flags: case_sensitive\n",
        super::yaml_string(&name),
        super::yaml_string(&p.source),
        uuid(p),
    );
    let invalid_inputs = invalid_inputs(p, &cases[0].input, seed);
    let outputs = outputs(p, &cases[0]);
    Ok(super::format::Problem {
        short_name: short_name(p).into(),
        name: name.into(),
        source: p.source.clone().into(),
        uuid: uuid(p).into(),
        header: header.into(),
        legacy_yaml,
        statement: statement(p).into(),
        memory: None,
        output_args: &["case_sensitive"],
        validator: ("validate.cpp".into(), validator(p).into()),
        answer_validator: ("validate.py".into(), answer_validator(p).into()),
        cases,
        invalid_inputs,
        outputs,
        polygon_validator: polygon_validator(p).into(),
        polygon_checker: polygon_checker(p).into(),
        submissions,
        independent: Vec::new(),
        // The C++ programs answer a file of the largest dataset in milliseconds; a second
        // clears them on any judge.
        timing: Timing {
            slowest_ac: 0.05,
            slowest_run: 0.05,
        },
    })
}
