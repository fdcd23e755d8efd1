//! The family of board-status problems: every 3×3 grid's verdict held to the statements, read
//! by replaying every legal game; the statements' samples; the killer sets against wrong
//! solutions written here; Tomek's description against the Code Jam path; wrong descriptions.

use crate::harness::{generated, project, read, stdout_of, tomek};
use crate::published::TIC_TAC_TOE;
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};
use tomek::problem::facts::Values;
use tomek::problem::mutants::{Bits, Catalogue, Mutant, killer_set};
use tomek::problem::{BUILTIN, Problem, judge, layout};
use tomek::tictactoe::board::Board;
use tomek::tictactoe::codejam::Strictness;

/// The 3×3 grid as nine cells: 0 empty, 1 X (first), 2 O (second).
type Grid = [u8; 9];

/// The eight lines of the 3×3 board, written out.
pub(crate) const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn has_line(g: &Grid, p: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&s| g[s] == p))
}

/// Every legal game played out from the empty grid, X first, each stopping at the first line
/// or a full grid: every grid met, the final ones, and who wins each grid under perfect play
/// (1 X, 2 O, 0 draw), by plain minimax over the same games.
struct Replay {
    seen: HashSet<Grid>,
    finals: HashSet<Grid>,
    winner: HashMap<Grid, u8>,
}

impl Replay {
    fn new() -> Replay {
        let mut r = Replay {
            seen: HashSet::new(),
            finals: HashSet::new(),
            winner: HashMap::new(),
        };
        r.play([0; 9], 1);
        r
    }

    fn play(&mut self, g: Grid, mover: u8) -> u8 {
        if let Some(&w) = self.winner.get(&g) {
            return w;
        }
        self.seen.insert(g);
        let other = 3 - mover;
        let result = if has_line(&g, other) {
            self.finals.insert(g);
            other
        } else if g.iter().all(|&c| c != 0) {
            self.finals.insert(g);
            0
        } else {
            let mut results = Vec::new();
            for s in 0..9 {
                if g[s] == 0 {
                    let mut child = g;
                    child[s] = mover;
                    results.push(self.play(child, other));
                }
            }
            if results.contains(&mover) {
                mover
            } else if results.contains(&0) {
                0
            } else {
                other
            }
        };
        self.winner.insert(g, result);
        result
    }
}

fn board_of(g: &Grid) -> Board {
    let mut b = Board::default();
    for (s, &c) in g.iter().enumerate() {
        match c {
            1 => b.x |= 1 << s,
            2 => b.o |= 1 << s,
            _ => {}
        }
    }
    b
}

fn every_grid() -> Vec<Grid> {
    (0..19_683u32)
        .map(|mut code| {
            let mut g = [0u8; 9];
            for c in &mut g {
                *c = (code % 3) as u8;
                code /= 3;
            }
            g
        })
        .collect()
}

/// What each statement answers, read directly from it, given the replay.
fn statement_answer(problem: &str, g: &Grid, r: &Replay) -> Option<String> {
    let legal = r.seen.contains(g);
    let count = |p: u8| g.iter().filter(|&&c| c == p).count();
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
    Some(match problem {
        "cf3c" => {
            if !legal {
                "illegal".into()
            } else if has_line(g, 1) {
                "the first player won".into()
            } else if has_line(g, 2) {
                "the second player won".into()
            } else if count(0) == 0 {
                "draw".into()
            } else if count(1) == count(2) {
                "first".into()
            } else {
                "second".into()
            }
        }
        "toe1" | "ccc-hk-2008-j4" => yes_no(legal),
        "toe2" => if r.finals.contains(g) {
            "valid"
        } else {
            "invalid"
        }
        .into(),
        "perfect-play" => match r.winner.get(g)? {
            1 => "X".into(),
            2 => "O".into(),
            _ => "draw".into(),
        },
        other => panic!("no statement for {other}"),
    })
}

const THREE_BY_THREE: [&str; 5] = ["cf3c", "toe1", "toe2", "ccc-hk-2008-j4", "perfect-play"];

#[test]
fn every_3x3_grid_gets_the_answer_its_statement_gives() {
    let r = Replay::new();
    assert_eq!(r.seen.len() as u64, TIC_TAC_TOE.boards);
    let terminal: u64 = TIC_TAC_TOE.boards_by_status[..3].iter().sum();
    assert_eq!(r.finals.len() as u64, terminal);
    // The empty grid is a draw under perfect play.
    assert_eq!(r.winner[&[0; 9]], 0);
    for name in THREE_BY_THREE {
        let p = Problem::builtin(name).unwrap();
        let mut values = Values::new();
        let mut checked = 0;
        for g in every_grid() {
            let b = board_of(&g);
            let want = statement_answer(name, &g, &r);
            assert_eq!(p.in_space(b), want.is_some(), "{name}: {}", p.grid_text(b));
            if let Some(want) = want {
                let got = &p.verdicts[p.verdict(b, &mut values)].answer;
                assert_eq!(got, &want, "{name}: {}", p.grid_text(b));
                checked += 1;
            }
        }
        let expected = if name == "perfect-play" {
            5_478
        } else {
            19_683
        };
        assert_eq!(checked, expected, "{name}");
    }
}

#[test]
fn each_statement_sample_is_answered_validated_and_checked() {
    for name in ["cf3c", "toe1", "toe2", "ccc-hk-2008-j4"] {
        let input = project(&format!("tests/data/problems/{name}-sample.in"));
        let answers = project(&format!("tests/data/problems/{name}-sample.ans"));
        let input_s = input.to_str().unwrap();
        let got = stdout_of(&["solve", "--problem", name, input_s]);
        assert_eq!(got.as_bytes(), read(&answers), "{name}");
        tomek()
            .args(["validate", "--problem", name, input_s])
            .assert()
            .success();
        tomek()
            .args(["check", "--problem", name, input_s])
            .arg(&answers)
            .arg(&answers)
            .assert()
            .code(0);
    }
}

#[test]
fn an_output_in_the_wrong_layout_is_a_wrong_answer_naming_the_case() {
    let dir = tempfile::tempdir().unwrap();
    let input = project("tests/data/problems/toe2-sample.in");
    let answers = project("tests/data/problems/toe2-sample.ans");
    let cases = [
        ("invalid\nvalid\ninvalid\nvalid\nvalid\ninvalid\n", "case 7"),
        (
            "invalid\nvalid\ninvalid\nValid\nvalid\ninvalid\ninvalid\n",
            "case 4",
        ),
        (
            "invalid valid invalid valid valid invalid invalid extra\n",
            "after the last case",
        ),
    ];
    for (text, says) in cases {
        let out = dir.path().join("out");
        std::fs::write(&out, text).unwrap();
        let a = tomek()
            .args(["check", "--problem", "toe2"])
            .arg(&input)
            .arg(&answers)
            .arg(&out)
            .assert()
            .code(1);
        let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
        assert!(err.contains(says), "{err}");
    }
    // Words split over lines with other spacing read as the judge reads them: accepted.
    let out = dir.path().join("spaced");
    std::fs::write(
        &out,
        "invalid  valid\ninvalid valid\n valid invalid\n\ninvalid",
    )
    .unwrap();
    tomek()
        .args(["check", "--problem", "toe2"])
        .arg(&input)
        .arg(&answers)
        .arg(&out)
        .assert()
        .code(0);
}

/// Wrong solutions people write, written here without tomek's catalogue: each must fail on
/// its problem's killer set.
fn wrong_solutions(name: &str, g: &Grid, r: &Replay) -> Vec<(&'static str, String)> {
    let right = statement_answer(name, g, r).unwrap();
    let count = |p: u8| g.iter().filter(|&&c| c == p).count();
    let (x, o) = (count(1), count(2));
    let counts_ok = x == o || x == o + 1;
    let (xl, ol) = (has_line(g, 1), has_line(g, 2));
    // Legal by counts and "not both lines" only: forgets who moved last.
    let naive_legal = counts_ok && !(xl && ol);
    let mut v = Vec::new();
    match name {
        "cf3c" => {
            let naive = if !naive_legal {
                "illegal".to_string()
            } else if xl {
                "the first player won".into()
            } else if ol {
                "the second player won".into()
            } else if count(0) == 0 {
                "draw".into()
            } else if x == o {
                "first".into()
            } else {
                "second".into()
            };
            v.push(("forgets who moved last", naive));
            // Draw before lines: a full grid with X's line answered as a draw.
            let draw_first = if right == "the first player won" && count(0) == 0 {
                "draw".to_string()
            } else {
                right.clone()
            };
            v.push(("full grid read as a draw first", draw_first));
        }
        "toe1" | "ccc-hk-2008-j4" => {
            v.push((
                "forgets who moved last",
                if naive_legal { "yes" } else { "no" }.into(),
            ));
            v.push((
                "only checks the counts",
                if counts_ok { "yes" } else { "no" }.into(),
            ));
        }
        "toe2" => {
            let over = xl || ol || count(0) == 0;
            v.push((
                "forgets who moved last",
                if naive_legal && over {
                    "valid"
                } else {
                    "invalid"
                }
                .into(),
            ));
        }
        _ => {}
    }
    v
}

#[test]
fn each_killer_set_catches_every_wrong_solution_and_shows_every_answer() {
    let r = Replay::new();
    for name in THREE_BY_THREE {
        let p = Problem::builtin(name).unwrap();
        let k = killer_set(&p);
        let mut values = Values::new();
        let answers: HashSet<String> = k
            .boards
            .iter()
            .map(|&b| p.verdicts[p.verdict(b, &mut values)].answer.clone())
            .collect();
        assert_eq!(answers.len(), p.answers().len(), "{name}: every answer");
        // Every mutant of the catalogue that fails anywhere fails on the set.
        let mut cat = Catalogue::new(&p);
        let mut caught = Bits::new(cat.mutants.len());
        for &b in &k.boards {
            let right = p.verdicts[p.verdict(b, &mut values)].answer.clone();
            caught.union_with(&cat.kills(b, &right));
        }
        assert_eq!(caught, k.killable, "{name}");
        // The wrong solutions written above fail on it too.
        let grids: Vec<Grid> = k
            .boards
            .iter()
            .map(|b| {
                let mut g = [0u8; 9];
                for (s, c) in g.iter_mut().enumerate() {
                    *c = if b.x >> s & 1 == 1 {
                        1
                    } else if b.o >> s & 1 == 1 {
                        2
                    } else {
                        0
                    };
                }
                g
            })
            .collect();
        let kinds = wrong_solutions(name, &grids[0], &r).len();
        for i in 0..kinds {
            let fails = grids.iter().any(|g| {
                let right = statement_answer(name, g, &r).unwrap();
                wrong_solutions(name, g, &r)[i].1 != right
            });
            assert!(
                fails,
                "{name}: `{}` passes the killer set",
                wrong_solutions(name, &grids[0], &r)[i].0
            );
        }
    }
    // The double line of one player is caught in CF 3C.
    let p = Problem::builtin("cf3c").unwrap();
    let k = killer_set(&p);
    let cat = Catalogue::new(&p);
    let both = cat.mutants.iter().position(|&m| m == Mutant::NoBothCheck);
    assert!(k.killable.has(both.unwrap()));
}

#[test]
fn tomek_through_its_description_answers_every_generated_file_byte_for_byte() {
    let p = Problem::tomek();
    assert!(p.is_tomek());
    for name in ["sample", "small", "large", "edge", "killer"] {
        let input = read(generated(&format!("{name}.in")));
        let parsed =
            layout::read(&p, name, &input, Strictness::Strict).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            judge::answers(&p, &parsed),
            read(generated(&format!("{name}.out"))),
            "{name}"
        );
        assert_eq!(layout::input_text(&p, &parsed.boards), input, "{name}");
    }
}

#[test]
fn a_copy_of_tomeks_description_takes_the_code_jam_path() {
    let dir = tempfile::tempdir().unwrap();
    let text = stdout_of(&["problem", "show", "tomek"]);
    let copy = dir.path().join("mine.toml");
    std::fs::write(&copy, text.replace("name = \"tomek\"", "name = \"mine\"")).unwrap();
    let large = generated("large.in");
    let plain = stdout_of(&["solve", large.to_str().unwrap()]);
    let via = stdout_of(&[
        "solve",
        "--problem",
        copy.to_str().unwrap(),
        large.to_str().unwrap(),
    ]);
    assert_eq!(plain, via);
    let stats = stdout_of(&["stats", "--only", "counts"]);
    let stats_via = stdout_of(&["stats", "--only", "counts", "--problem", "tomek"]);
    assert_eq!(stats, stats_via);
}

fn description_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.toml");
    std::fs::write(&f, text).unwrap();
    let a = tomek()
        .args(["solve", "--problem"])
        .arg(&f)
        .write_stdin("")
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    let prefix = format!("{}:", f.display());
    assert!(err.contains(&prefix), "{err}");
    err
}

#[test]
fn a_wrong_description_exits_2_with_its_line_and_column() {
    let toe1 = BUILTIN.iter().find(|(n, _)| *n == "toe1").unwrap().1;
    // An unknown field, at its line.
    let err = description_error(&toe1.replace("line = 3\n", "line = 3\ncolour = \"red\"\n"));
    assert!(err.contains("unknown field `colour`"), "{err}");
    let at = |err: &str| -> (usize, usize) {
        let rest = err.split(".toml:").nth(1).unwrap();
        let mut it = rest.split(':');
        (
            it.next().unwrap().parse().unwrap(),
            it.next().unwrap().parse().unwrap(),
        )
    };
    let line_of =
        |text: &str, needle: &str| text.lines().position(|l| l.starts_with(needle)).unwrap() + 1;
    let text = toe1.replace("line = 3\n", "line = 3\ncolour = \"red\"\n");
    assert_eq!(at(&err).0, line_of(&text, "colour"));
    // A board over 16 squares.
    let text = toe1.replace("rows = 3", "rows = 6");
    let err = description_error(&text);
    assert!(err.contains("1 to 16 squares"), "{err}");
    assert_eq!(at(&err), (line_of(&text, "rows = 6"), 8));
    // Two symbols the same.
    let text = toe1.replace("empty = \".\"", "empty = \"O\"");
    let err = description_error(&text);
    assert!(err.contains("already another symbol"), "{err}");
    assert_eq!(at(&err).0, line_of(&text, "empty = \"O\""));
    // A rule no position matches: everything is taken by the first.
    let text = toe1.replace("answer = \"yes\"\nreachable = true\n", "answer = \"yes\"\n");
    let err = description_error(&text);
    assert!(
        err.contains("no position of the input space gets the rule `no`"),
        "{err}"
    );
    // A position no rule matches.
    let text = toe1.replace(
        "[[verdict]]\nanswer = \"no\"\n",
        "[[verdict]]\nanswer = \"no\"\nply = [0, 1, 2]\n",
    );
    let err = description_error(&text);
    assert!(err.contains("no rule matches the position"), "{err}");
    // A fact word that does not exist.
    let text = toe1.replace("reachable = true", "line = \"third\"");
    let err = description_error(&text);
    assert!(err.contains("`line` is one of"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// Descriptions with bytes changed, lines dropped or repeated never panic: they are read
    /// or refused with a position.
    #[test]
    fn fuzzed_descriptions_never_panic(
        which in 0..BUILTIN.len(),
        edits in proptest::collection::vec((any::<u16>(), any::<u8>(), 0u8..3), 1..6),
    ) {
        let mut text: Vec<u8> = BUILTIN[which].1.as_bytes().to_vec();
        for (at, byte, kind) in edits {
            let i = at as usize % text.len().max(1);
            match kind {
                0 => text[i] = byte % 128,
                1 => { text.remove(i); }
                _ => {
                    let start = text[..i].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
                    let end = text[i..].iter().position(|&c| c == b'\n').map_or(text.len(), |p| i + p + 1);
                    let line = text[start..end].to_vec();
                    text.splice(end..end, line);
                }
            }
        }
        let text = String::from_utf8_lossy(&text).to_string();
        if let Err(e) = Problem::from_text("fuzz.toml", &text) {
            prop_assert!(e.line >= 1 && e.column >= 1);
        }
    }
}

#[test]
fn the_audit_accepts_a_right_solver_and_names_the_case_a_wrong_one_fails() {
    let me = crate::harness::TOMEK;
    let right = format!("{me} solve --problem toe1");
    let out = stdout_of(&["audit", "--problem", "toe1", "--solver", &right]);
    assert!(out.contains("accepted on all 19,683 positions"), "{out}");
    let wrong = format!("{me} solve --problem toe1 | tr a-z A-Z");
    let a = tomek()
        .args(["--quiet", "audit", "--problem", "toe1", "--solver", &wrong])
        .assert()
        .code(1);
    let out = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(
        out.contains("case 1:") && out.contains("where `yes` is expected"),
        "{out}"
    );
}

#[test]
fn generated_files_validate_and_their_answers_check() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["toe1", "toe2", "ccc-hk-2008-j4", "perfect-play"] {
        for profile in ["uniform", "balanced", "killer", "contest", "exhaustive"] {
            let prefix = dir.path().join(format!("{name}-{profile}"));
            let mut args = vec![
                "generate",
                "--problem",
                name,
                "--profile",
                profile,
                "--seed",
                "7",
            ];
            if profile != "exhaustive" && profile != "killer" {
                args.extend(["--cases", "300"]);
            }
            let p = prefix.to_str().unwrap().to_string();
            tomek().args(&args).args(["-o", &p]).assert().success();
            let input = format!("{p}.in");
            let answers = format!("{p}.out");
            tomek()
                .args(["check", "--problem", name, &input, &answers, &answers])
                .assert()
                .code(0);
            let again = dir.path().join("again");
            tomek()
                .args(&args)
                .args(["-o", again.to_str().unwrap()])
                .assert()
                .success();
            assert_eq!(
                read(&input),
                read(format!("{}.in", again.display())),
                "{name} {profile}: same seed, same bytes"
            );
        }
    }
    // One case per file: a file per case.
    let prefix = dir.path().join("cf3c");
    tomek()
        .args(["generate", "--problem", "cf3c", "--profile", "killer", "-o"])
        .arg(&prefix)
        .assert()
        .success();
    let first = format!("{}.01.in", prefix.display());
    tomek()
        .args(["validate", "--problem", "cf3c", &first])
        .assert()
        .success();
}

/// Tomek's description with other answer words (`Tie` for `Draw`, longer words for the
/// others) is served by Code Jam's path in its own words: `solve` agrees byte for byte with the
/// family's judge on the same files, and `generate` draws Code Jam's boards with the
/// description's answers.
#[test]
fn tomeks_description_with_other_words_answers_in_them_on_code_jams_path() {
    let dir = tempfile::tempdir().unwrap();
    let text = stdout_of(&["problem", "show", "tomek"])
        .replace("name = \"tomek\"", "name = \"tie\"")
        .replace("answer = \"Draw\"", "answer = \"Tie\"")
        .replace(
            "answer = \"X won\"",
            "answer = \"The first player, X, won\"",
        );
    let file = dir.path().join("tie.toml");
    std::fs::write(&file, &text).unwrap();
    let tie = Problem::load(file.to_str().unwrap()).unwrap();
    assert!(!tie.is_tomek());
    assert!(tie.code_jam_words().is_some());
    for name in ["sample", "large", "edge", "killer"] {
        let path = generated(&format!("{name}.in"));
        let input = read(&path);
        let parsed = layout::read(&tie, name, &input, Strictness::Strict).unwrap();
        let family = judge::answers(&tie, &parsed);
        let via = stdout_of(&[
            "solve",
            "--problem",
            file.to_str().unwrap(),
            path.to_str().unwrap(),
        ]);
        assert_eq!(via.as_bytes(), family, "{name}");
        assert!(via.contains(": Tie\n") && !via.contains("Draw"), "{name}");
    }
    let out = dir.path().join("g");
    for (prefix, problem) in [(out.join("tie"), Some(&file)), (out.join("cj"), None)] {
        std::fs::create_dir_all(&out).unwrap();
        let mut args = vec!["generate", "--cases", "2000", "--seed", "5", "-o"];
        args.push(prefix.to_str().unwrap());
        if let Some(f) = problem {
            args.extend(["--problem", f.to_str().unwrap()]);
        }
        stdout_of(&args);
    }
    let tie_in = read(out.join("tie.in"));
    assert_eq!(tie_in, read(out.join("cj.in")));
    let parsed = layout::read(&tie, "tie.in", &tie_in, Strictness::Strict).unwrap();
    assert_eq!(read(out.join("tie.out")), judge::answers(&tie, &parsed));
    // The audit expects the description's words: its own solve passes, Code Jam's fails on
    // every draw, naming the word it expected.
    let me = crate::harness::TOMEK;
    let desc = file.to_str().unwrap();
    let few = ["--status", "draw", "--ply", "16"];
    let right = format!("{me} solve --problem {desc}");
    let mut args = vec!["audit", "--problem", desc, "--solver", &right];
    args.extend(few);
    let out = stdout_of(&args);
    assert!(out.contains("answered all 5,356 boards right"), "{out}");
    let wrong = format!("{me} solve");
    let mut args = vec!["--quiet", "audit", "--problem", desc, "--solver", &wrong];
    args.extend(few);
    args.extend(["--max-failures", "1", "--format", "json"]);
    let a = tomek().args(&args).assert().code(1);
    let report: serde_json::Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    let failure = &report["failures"][0];
    assert_eq!(
        (&failure["expected"], &failure["received"]),
        (&"Tie".into(), &"Draw".into())
    );
    // A description whose words are too long for Code Jam's path takes the family's.
    let long = text.replace(
        "answer = \"Tie\"",
        &format!("answer = \"{}\"", "T".repeat(40)),
    );
    let long = Problem::from_text("long.toml", &long).unwrap();
    assert!(long.code_jam_words().is_none());
}

#[test]
fn tomeks_description_agrees_with_the_code_jam_path_on_every_reachable_board() {
    use rayon::prelude::*;
    use std::sync::Arc;
    use tomek::tictactoe::rules::Geometry;
    use tomek::tictactoe::space::Space;
    let p = Problem::tomek();
    let space = Space::explore(Arc::new(Geometry::tomek().clone()));
    let checked: u64 = Geometry::tomek()
        .setups()
        .par_iter()
        .map(|&t| {
            let mut values = Values::new();
            let mut n = 0;
            for (b, status) in space.setup(t).unwrap().boards() {
                assert!(p.in_space(b));
                let v = p.verdict(b, &mut values);
                assert_eq!(p.verdicts[v].answer, status.answer(), "{}", p.grid_text(b));
                n += 1;
            }
            n
        })
        .sum();
    assert_eq!(checked, space.len());
}

#[cfg(feature = "web")]
#[test]
fn the_problem_page_answers_as_the_command_does() {
    use crate::web::Server;
    let dir = tempfile::tempdir().unwrap();
    let text =
        stdout_of(&["problem", "show", "cf3c"]).replace("name = \"cf3c\"", "name = \"mine\"");
    let mine = dir.path().join("mine.toml");
    std::fs::write(&mine, text).unwrap();
    let server = Server::start_with(&["--problem", mine.to_str().unwrap()], None);
    let list = server.json("/api/problems");
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "mine",
            "tomek",
            "cf3c",
            "toe1",
            "toe2",
            "ccc-hk-2008-j4",
            "perfect-play",
            "cf754b",
            "uva10111"
        ]
    );
    for (problem, board) in [
        ("mine", "X0X/.0./.X."),
        ("cf3c", "XXX/000/..."),
        ("toe1", "XXX/OO./..."),
        ("perfect-play", "X../.O./..X"),
        ("perfect-play", "XXX/XXX/XXX"),
    ] {
        let (status, kind, body) = server.get(&format!(
            "/api/problem/explain?problem={problem}&board={}",
            board.replace('/', "%2F")
        ));
        if problem == "perfect-play" && board.starts_with("XXX") {
            // Not a grid of the input space: still explained, with no answer.
            assert_eq!(status, 200);
            assert!(body.contains("\"answer\": null"), "{body}");
        }
        assert_eq!(
            (status, kind.as_str()),
            (200, "application/json"),
            "{board}"
        );
        let problem_arg = if problem == "mine" {
            mine.to_str().unwrap()
        } else {
            problem
        };
        assert_eq!(
            body,
            stdout_of(&[
                "explain",
                "--problem",
                problem_arg,
                "--format",
                "json",
                board
            ]),
            "{problem} {board}"
        );
    }
    let (status, _, body) = server.get("/api/problem/explain?problem=cf3c&board=XX");
    assert_eq!(status, 400, "{body}");
    let (status, kind, _) = server.get("/problem");
    assert_eq!((status, kind.as_str()), (200, "text/html; charset=utf-8"));
}

#[test]
fn sizes_that_would_wrap_round_are_refused() {
    let toe1 = BUILTIN.iter().find(|(n, _)| *n == "toe1").unwrap().1;
    let text = toe1
        .replace("rows = 3", "rows = 65536")
        .replace("cols = 3", "cols = 65536");
    let err = Problem::from_text("big.toml", &text).unwrap_err();
    assert!(err.message.contains("1 to 16 squares"), "{}", err.message);
    let text = toe1.replace("line = 3", "line = 4294967295");
    assert!(Problem::from_text("long.toml", &text).is_err());
}

/// The built-in descriptions are not searched when loaded: their rules are checked here,
/// against every position of their input spaces.
#[test]
fn every_built_in_description_covers_its_input_space() {
    for (name, text) in BUILTIN.iter().filter(|(n, _)| *n != "tomek") {
        let p = tomek::problem::description::parse(name, text).unwrap();
        p.check_rules().unwrap_or_else(|e| panic!("{e}"));
    }
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("toe2.toml");
    std::fs::write(&f, stdout_of(&["problem", "show", "toe2"])).unwrap();
    let out = stdout_of(&["problem", "check", f.to_str().unwrap()]);
    assert!(out.contains("2 verdicts over 19,683 positions"), "{out}");
}

/// Tomek's description against its 61 million reachable boards, read from every grid of the
/// 17 setups.
#[test]
#[cfg_attr(
    not(feature = "deep-tests"),
    ignore = "deep: run by `cargo test --release --all-features`"
)]
fn tomeks_description_covers_its_input_space() {
    let (name, text) = BUILTIN[0];
    let p = tomek::problem::description::parse(name, text).unwrap();
    p.check_rules().unwrap_or_else(|e| panic!("{e}"));
}

/// A description with a joker: Tic-Tac-Toe-Tomek's rules on 3×3 (three in a row, at most one
/// `T` counting for both).
fn tomek_three_by_three() -> Problem {
    let text = stdout_of(&["problem", "show", "tomek"])
        .replace("name = \"tomek\"", "name = \"tomek3\"")
        .replace("rows = 4", "rows = 3")
        .replace("cols = 4", "cols = 3")
        .replace("line = 4", "line = 3");
    Problem::from_text("tomek3.toml", &text).unwrap_or_else(|e| panic!("{e}"))
}

/// Whether `mask` of a 3×3 grid holds a row, a column or a diagonal: the eight lines written
/// out, apart from the engine's tables.
fn three_in_a_row(mask: u16) -> bool {
    const LINES: [u16; 8] = [
        0b000_000_111,
        0b000_111_000,
        0b111_000_000,
        0b001_001_001,
        0b010_010_010,
        0b100_100_100,
        0b100_010_001,
        0b001_010_100,
    ];
    for l in LINES {
        if mask & l == l {
            return true;
        }
    }
    false
}

#[test]
fn a_joker_counted_for_one_side_only_fails_on_the_killer_set() {
    let p = tomek_three_by_three();
    let k = killer_set(&p);
    let bit = Catalogue::new(&p)
        .mutants
        .iter()
        .position(|&m| m == Mutant::JokerOneSide)
        .unwrap();
    assert!(k.killable.has(bit), "the bug shows on some position");
    // Written apart from the catalogue: O's line read without the T. Some position of the set
    // has O winning through the T only, and the right answer says so.
    let mut values = Values::new();
    let caught = k.boards.iter().any(|&b| {
        let right = &p.verdicts[p.verdict(b, &mut values)].answer;
        b.t != 0 && three_in_a_row(b.o | b.t) && !three_in_a_row(b.o) && right == "O won"
    });
    assert!(
        caught,
        "no position of the killer set has O win through the T"
    );
    // Without a joker the bug is not in the catalogue.
    for name in THREE_BY_THREE {
        let p = Problem::builtin(name).unwrap();
        assert!(
            !Catalogue::new(&p).mutants.contains(&Mutant::JokerOneSide),
            "{name}"
        );
    }
    // The package's wrong solution for it is the reference with the change put in.
    let source = tomek::package::family::wrong_solution(&p, Mutant::JokerOneSide).unwrap();
    assert!(source.contains("ol = has_line(b.o);"));
    assert!(source.contains("the joker counted for the first player only"));
}

/// `stats --problem` counts the input space in one pass over it; `--mutants` adds the
/// catalogue's reach, from a second pass that judges every position one by one, and the two
/// passes give the same table.
#[test]
fn stats_mutants_adds_the_catalogue_to_the_same_table() {
    for name in ["cf3c", "toe2", "perfect-play"] {
        let json = |extra: &[&str]| -> serde_json::Value {
            let mut args = vec!["stats", "--quiet", "--format", "json", "--problem", name];
            args.extend_from_slice(extra);
            serde_json::from_str(&stdout_of(&args)).unwrap()
        };
        let (plain, with) = (json(&[]), json(&["--mutants"]));
        assert!(plain.get("mutants").is_none(), "{name}: {plain}");
        let rows = with["mutants"].as_array().unwrap();
        assert!(
            rows.iter()
                .any(|m| m["positions_failed"].as_u64() > Some(0))
        );
        assert!(with["killer_set"].as_u64() > Some(0), "{name}");
        for key in ["positions", "answers", "by_ply"] {
            assert_eq!(plain[key], with[key], "{name}: {key}");
        }
    }
}
