//! `tomek serve --solution DIR`: with a strong solution of a board saved, the Four in a row API
//! gives the outcome of every column of that board at any number of empty cells, each the one
//! the search finds, and where it searches the same exact scores as without the solution; a
//! solution that cannot be used stops the server with exit code 2 before it listens.

use crate::harness::TOMEK;
use crate::web::{NO_DATA, Server, explain_json};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tomek::fourow::bdd::values::{self, Disk};
use tomek::fourow::solve::{Outcome, Shape, Solver, parse_moves, random_open_game};

const COLS: u32 = 5;
const ROWS: u32 = 4;

/// Saves the strong solution of 5×4 into `dir`.
fn save(dir: &Path) {
    let disk = Disk { dir, resume: false };
    values::save(COLS, ROWS, 1 << 30, disk, |_, _| {}).expect("5×4 is solved and saved");
}

/// Positions of 5×4 from the empty board to a few empty cells, and one won.
fn positions() -> Vec<String> {
    let shape = Shape::new(COLS, ROWS).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(54);
    let mut out: Vec<String> = ["", "3", "33", "1", "15", "3322", "1212121"]
        .map(String::from)
        .to_vec();
    for stones in 2..=14 {
        out.push(random_open_game(shape, stones, &mut rng));
    }
    out
}

/// What the search says of `moves`: the outcome of the position for the player to move, and
/// the exact score of every legal column (1-based), left to right.
fn searched(solver: &mut Solver, moves: &str) -> (Outcome, Vec<(u64, i64)>) {
    let b = parse_moves(moves, Shape::new(COLS, ROWS).unwrap()).unwrap();
    if b.last_mover_won() || b.is_full() {
        return (solver.solve(b).outcome(), Vec::new());
    }
    let scores: Vec<_> = (0..COLS)
        .filter(|&c| b.can_play(c))
        .map(|c| (c, solver.score_move(b, c)))
        .collect();
    let best = scores.iter().map(|&(_, s)| s).max().unwrap();
    let columns = scores
        .iter()
        .map(|&(c, s)| (u64::from(c) + 1, i64::from(s.0)))
        .collect();
    (best.outcome(), columns)
}

fn outcome_of(score: i64) -> String {
    match score {
        0 => "draw",
        s if s > 0 => "win",
        _ => "loss",
    }
    .to_string()
}

/// The columns of an answer: column, score (`None` when null) and outcome.
fn columns_of(e: &serde_json::Value) -> Vec<(u64, Option<i64>, String)> {
    e["moves"]
        .as_array()
        .expect("a list of columns")
        .iter()
        .map(|m| {
            (
                m["column"].as_u64().unwrap(),
                m["score"].as_i64(),
                m["outcome"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Beyond the empty cells the server searches (10 here), every column's outcome comes from
/// the solution and is the sign of the search's score; within them, the answer is the
/// command's, scores and line of play, and says it was searched.
#[test]
fn web_solution_gives_every_columns_outcome_as_the_search() {
    let dir = tempfile::tempdir().unwrap();
    save(dir.path());
    let server = Server::start_with(
        &[
            "--solution",
            dir.path().to_str().unwrap(),
            "--search-empty",
            "10",
        ],
        None,
    );
    let mut solver = Solver::new(16 << 20);
    let (mut looked_up, mut searched_here) = (0, 0);
    for moves in positions() {
        let e = server.json(&format!(
            "/api/fourow/explain?moves={moves}&cols={COLS}&rows={ROWS}"
        ));
        let (outcome, want) = searched(&mut solver, &moves);
        let got = columns_of(&e);
        assert_eq!(e["outcome"], outcome.to_string(), "{moves}: {e}");
        assert_eq!(
            got.iter()
                .map(|(c, _, o)| (*c, o.clone()))
                .collect::<Vec<_>>(),
            want.iter()
                .map(|&(c, s)| (c, outcome_of(s)))
                .collect::<Vec<_>>(),
            "{moves}: {e}"
        );
        let empty = COLS * ROWS - moves.len() as u32;
        if empty > 10 {
            looked_up += 1;
            assert_eq!(e["source"], "solution", "{moves}: {e}");
            assert!(
                e["score"].is_null() && e["distance"].is_null(),
                "{moves}: {e}"
            );
            assert_eq!(e["variation"], "", "{moves}: {e}");
            for m in e["moves"].as_array().unwrap() {
                assert!(
                    m["score"].is_null() && m["distance"].is_null(),
                    "{moves}: {m}"
                );
            }
        } else {
            searched_here += 1;
            assert_eq!(e["source"], "search", "{moves}: {e}");
            assert_eq!(
                got.iter()
                    .map(|&(c, s, _)| (c, s.unwrap()))
                    .collect::<Vec<_>>(),
                want,
                "{moves}: {e}"
            );
            let mut without = e.clone();
            without.as_object_mut().unwrap().remove("source");
            let command: serde_json::Value =
                serde_json::from_str(&explain_json(COLS, ROWS, &moves)).unwrap();
            assert_eq!(without, command, "{moves}");
        }
    }
    assert!(
        looked_up >= 10 && searched_here >= 3,
        "{looked_up} {searched_here}"
    );
}

/// With the solution and the server's own limit, the empty 5×4 board is searched, its scores
/// those of the search; other boards are answered as without a solution, and 7×6 positions
/// with many empty cells are still refused.
#[test]
fn web_solution_keeps_the_searched_scores() {
    let dir = tempfile::tempdir().unwrap();
    save(dir.path());
    let server = Server::start_with(&["--solution", dir.path().to_str().unwrap()], None);
    let mut solver = Solver::new(16 << 20);
    for moves in ["", "3", "1234"] {
        let e = server.json(&format!(
            "/api/fourow/explain?moves={moves}&cols={COLS}&rows={ROWS}"
        ));
        assert_eq!(e["source"], "search", "{moves}: {e}");
        let (outcome, want) = searched(&mut solver, moves);
        assert_eq!(e["outcome"], outcome.to_string(), "{moves}: {e}");
        let got: Vec<_> = columns_of(&e)
            .into_iter()
            .map(|(c, s, _)| (c, s.expect("a score")))
            .collect();
        assert_eq!(got, want, "{moves}: {e}");
    }
    let (status, _, body) = server.get("/api/fourow/explain?moves=121212&cols=4&rows=4");
    assert_eq!(status, 200, "{body}");
    let command = explain_json(4, 4, "121212");
    assert_eq!(
        body, command,
        "another board is answered as without a solution"
    );
    let message = server.refused("/api/fourow/explain?moves=", 400);
    assert!(message.contains("at most 30 empty cells"), "{message}");
}

/// `tomek serve ARGS` with `data` as the default data directory: its exit code and standard
/// error, once it has stopped (within 30 s).
fn serve_fails(args: &[&str], data: &Path) -> (Option<i32>, String) {
    let mut child = Command::new(TOMEK)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(args)
        .env("TOMEK_DATA_DIR", data)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tomek serve starts");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tomek serve {args:?} is still running after 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A directory that is no solution, a damaged solution, and a solution of another board in
/// the default place of 7×6 stop the server with exit code 2, naming where.
#[test]
fn web_solution_that_cannot_be_used_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let nowhere = Path::new(NO_DATA);
    let missing = dir.path().join("missing");
    let (code, err) = serve_fails(&["--solution", missing.to_str().unwrap()], nowhere);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(missing.to_str().unwrap()), "{err}");

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (code, err) = serve_fails(&["--solution", empty.to_str().unwrap()], nowhere);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(empty.to_str().unwrap()), "{err}");

    let damaged = dir.path().join("damaged");
    save(&damaged);
    let first = damaged.join("open-00.bdd");
    let bytes = std::fs::read(&first).unwrap();
    std::fs::write(&first, &bytes[..bytes.len() - 1]).unwrap();
    let (code, err) = serve_fails(&["--solution", damaged.to_str().unwrap()], nowhere);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(first.to_str().unwrap()), "{err}");

    // The default place is looked in for 7×6 only, and what is there must be of 7×6.
    let data = dir.path().join("data");
    save(&data.join("fourow-solution-7x6"));
    let (code, err) = serve_fails(&[], &data);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("fourow-solution-7x6"), "{err}");
}
