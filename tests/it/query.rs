//! `tomek query` and `tomek export`: SQL answers held to `stats` and `explain`, which compute
//! the same figures another way; bad statements refused with exit 2; fuzzed statements never
//! panic; the export readable as one table.

use crate::harness::{stdout_of, tomek};
use serde_json::Value;
use std::collections::BTreeMap;
use tomek::sql::{Limits, Session};
use tomek::tictactoe::rules::Geometry;

/// CSV rows of a query, header left out.
fn rows(args: &[&str]) -> Vec<Vec<String>> {
    let mut full = vec!["query", "--quiet", "--format", "csv"];
    full.extend_from_slice(args);
    stdout_of(&full)
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

fn stats_json(args: &[&str]) -> Value {
    let mut full = vec!["stats", "--quiet", "--format", "json"];
    full.extend_from_slice(args);
    serde_json::from_str(&stdout_of(&full)).unwrap()
}

/// Sums a query's last column by the other columns.
fn keyed(rows: &[Vec<String>]) -> BTreeMap<Vec<String>, u64> {
    let mut out = BTreeMap::new();
    for r in rows {
        let (value, key) = r.split_last().unwrap();
        *out.entry(key.to_vec()).or_insert(0) += value.parse::<u64>().unwrap();
    }
    out
}

const WORDS: [(&str, &str); 4] = [
    ("x_won", "X won"),
    ("o_won", "O won"),
    ("draw", "Draw"),
    ("open", "Game has not completed"),
];

#[test]
fn counts_by_setup_ply_and_status_are_those_of_stats() {
    let by_setup = keyed(&rows(&[
        "SELECT coalesce(CAST(t_square AS VARCHAR), 'none'), status, count(*) \
         FROM boards GROUP BY 1, 2",
    ]));
    let by_ply = keyed(&rows(&[
        "SELECT ply, status, count(*) FROM boards GROUP BY ply, status",
    ]));
    let stats = stats_json(&["--only", "counts", "--by-ply"]);
    let mut setups = BTreeMap::new();
    for s in stats["setups"].as_array().unwrap() {
        // `none`, a square number, or `all` for the total row.
        let name = match &s["setup"] {
            Value::String(n) if n == "all" => continue,
            Value::String(n) => n.clone(),
            other => other.to_string(),
        };
        for (key, word) in WORDS {
            let n = s[format!("boards_{key}")].as_u64().unwrap();
            if n > 0 {
                setups.insert(vec![name.clone(), word.to_string()], n);
            }
        }
    }
    let mut plies = BTreeMap::new();
    for p in stats["plies"].as_array().unwrap() {
        for (key, word) in WORDS {
            let n = p[format!("boards_{key}")].as_u64().unwrap();
            if n > 0 {
                plies.insert(vec![p["ply"].to_string(), word.to_string()], n);
            }
        }
    }
    assert_eq!(by_setup, setups);
    assert_eq!(by_ply, plies);
    assert_eq!(by_ply.values().sum::<u64>(), 61_089_795);
}

#[test]
fn values_games_and_orbits_are_those_of_stats() {
    // Three setups keep the run short: no T, the T in a corner, the T inside.
    let setups = ["--setup", "none,0,5"];
    let stats = stats_json(&setups);
    let total = |key: &str| -> u64 {
        stats["setups"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["setup"] != "all")
            .map(|s| s[key].as_u64().unwrap())
            .sum()
    };
    let mut args = vec![
        "SELECT value, count(*), sum(CASE WHEN ply = 0 THEN games_x ELSE 0 END), \
         sum(CASE WHEN ply = 0 THEN games_o ELSE 0 END), \
         sum(CASE WHEN ply = 0 THEN games_draw ELSE 0 END) \
         FROM boards GROUP BY value ORDER BY value",
    ];
    args.extend_from_slice(&setups);
    let got = rows(&args);
    let by_value: BTreeMap<&str, &Vec<String>> = got.iter().map(|r| (r[0].as_str(), r)).collect();
    for (word, key) in [
        ("win", "to_move_wins"),
        ("draw", "to_move_draws"),
        ("loss", "to_move_loses"),
    ] {
        assert_eq!(by_value[word][1], total(key).to_string(), "{word}");
    }
    // The games through the empty boards are every game.
    let sum = |col: usize| -> u64 { got.iter().map(|r| r[col].parse::<u64>().unwrap()).sum() };
    assert_eq!(sum(2), total("games_x_won"));
    assert_eq!(sum(3), total("games_o_won"));
    assert_eq!(sum(4), total("games_draw"));
    // Orbits under both groups.
    for (column, group) in [("orbit", "full"), ("orbit_dihedral", "dihedral")] {
        let sql = format!("SELECT count(DISTINCT {column}) FROM boards");
        let mut args = vec![sql.as_str()];
        args.extend_from_slice(&setups);
        let classes = &rows(&args)[0][0];
        let orbits = stats_json(&[
            "--setup",
            "none,0,5",
            "--only",
            "symmetry",
            "--symmetry",
            group,
        ]);
        let expected = orbits["symmetry"]["by_status"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["status"] == "total")
            .unwrap()["orbits"]
            .as_u64()
            .unwrap();
        assert_eq!(classes, &expected.to_string(), "{column}");
    }
}

#[test]
fn rows_agree_with_explain() {
    // A few boards of several setups and plies, chosen by the query itself.
    let got = rows(&[
        "SELECT board, value, distance, orders, games_x, games_o, games_draw, orbit, status, \
         win_lines, t_in_win FROM boards \
         WHERE (ply = 5 AND t_square = 6) OR (ply = 11 AND t_square IS NULL) \
            OR (ply = 10 AND t_square = 15 AND status = 'O won') \
         ORDER BY board LIMIT 3 OFFSET 40",
        "--setup",
        "none,6,15",
    ]);
    assert_eq!(got.len(), 3);
    let got2 = rows(&[
        "SELECT board, value, distance, orders, games_x, games_o, games_draw, orbit, status, \
         win_lines, t_in_win FROM boards WHERE ply = 10 AND t_square = 15 AND status = 'O won' \
         ORDER BY win_lines DESC, board DESC LIMIT 2",
        "--setup",
        "15",
    ]);
    assert_eq!(got2.len(), 2);
    for r in got.iter().chain(&got2) {
        let e: Value =
            serde_json::from_str(&stdout_of(&["explain", &r[0], "--format", "json"])).unwrap();
        let play = &e["play"];
        assert_eq!(r[1], play["value"]["outcome"].as_str().unwrap(), "{}", r[0]);
        assert_eq!(r[2], play["value"]["distance"].to_string(), "{}", r[0]);
        assert_eq!(r[3], play["sequences"].to_string(), "{}", r[0]);
        assert_eq!(r[4], play["games"]["x_won"].to_string(), "{}", r[0]);
        assert_eq!(r[5], play["games"]["o_won"].to_string(), "{}", r[0]);
        assert_eq!(r[6], play["games"]["draw"].to_string(), "{}", r[0]);
        assert_eq!(r[7], e["orbit"]["smallest"].as_str().unwrap(), "{}", r[0]);
        assert_eq!(r[8], e["status"].as_str().unwrap(), "{}", r[0]);
    }
}

/// Aggregates over columns that counts describe are answered from runs of equal rows; the
/// same aggregates over a table that also reads `board` go row by row. Both must agree, and
/// the plans must show that each went its own way.
#[test]
fn aggregates_over_runs_equal_aggregates_over_rows() {
    let by_rows = "(SELECT * FROM boards WHERE board <> 'none') AS boards";
    let queries = [
        "SELECT count(*) FROM {T} WHERE status = 'Draw'",
        "SELECT status, ply, count(*), sum(x_stones), min(o_stones), max(t_square), \
         count(to_move), count(winner), count(DISTINCT ply), sum(DISTINCT ply) \
         FROM {T} GROUP BY status, ply",
        "SELECT count(*), count(1), sum(ply), min(ply) FROM {T} WHERE t_square IS NULL AND ply > 20",
        "SELECT to_move, count(*) FROM (SELECT * FROM {T} WHERE ply % 3 = 1) AS x GROUP BY to_move",
        "SELECT winner, sum(ply * 2 + 1), count(t_square) FROM {T} GROUP BY winner",
        "SELECT t_square, count(*) FROM {T} WHERE t_square IN (0, 5) OR t_square IS NULL \
         GROUP BY t_square",
    ];
    for geometry in [
        &["--setup", "none,0,5"][..],
        &["--rows", "3", "--cols", "3", "--line", "3", "--no-joker"],
    ] {
        for q in queries {
            let run = |table: &str| {
                let mut args = geometry.to_vec();
                let sql = q.replace("{T}", table);
                args.push(&sql);
                let mut rows = rows(&args);
                rows.sort();
                let mut explain = geometry.to_vec();
                let plan = format!("EXPLAIN {sql}");
                explain.push(&plan);
                let explain =
                    stdout_of(&[&["query", "--quiet", "--format", "csv"][..], &explain].concat());
                (rows, explain.contains("__tomek_run_length"))
            };
            let (fast, on_runs) = run("boards");
            let (slow, slow_on_runs) = run(by_rows);
            assert!(on_runs, "{q} should be answered from runs");
            assert!(!slow_on_runs, "{q} over rows should go row by row");
            assert!(!fast.is_empty(), "{q}");
            assert_eq!(fast, slow, "{q} on {geometry:?}");
        }
    }
}

#[test]
fn classic_tic_tac_toe_by_status() {
    let out = stdout_of(&[
        "query",
        "--rows",
        "3",
        "--cols",
        "3",
        "--line",
        "3",
        "--no-joker",
        "SELECT status, count(*) AS boards FROM boards GROUP BY status ORDER BY status",
    ]);
    assert_eq!(
        out,
        "status                  boards\n\
         Draw                        16\n\
         Game has not completed    4520\n\
         O won                      316\n\
         X won                      626\n"
    );
}

#[test]
fn bad_statements_exit_2_with_the_engines_message() {
    let cases: [(&str, &str); 8] = [
        ("SELEC 1", "SQL"),
        ("SELECT nope FROM boards", "nope"),
        ("SELECT * FROM nowhere", "nowhere"),
        ("CREATE TABLE t (a INT)", "DDL"),
        ("INSERT INTO boards VALUES (1)", ""),
        ("   ;  ", "empty"),
        ("SELECT 1; SELECT 2", ""),
        ("SET datafusion.execution.batch_size = 1", ""),
    ];
    for (sql, needle) in cases {
        let out = tomek()
            .args(["query", "--setup", "none", sql])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{sql}: {err}");
        assert!(err.starts_with("tomek: "), "{sql}: {err}");
        assert!(err.contains(needle), "{sql}: {err}");
        assert!(!err.contains("panicked"), "{sql}: {err}");
    }
    let huge = format!("SELECT 1 {}", " ".repeat(70_000));
    let out = tomek().args(["query", &huge]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most"));
    // A result too large to hold as a table stops with a message.
    let out = tomek()
        .args(["query", "--setup", "none", "SELECT ply FROM boards"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("too many for a table"));
    // An aggregation over the memory limit stops instead of swapping.
    let out = tomek()
        .args([
            "query",
            "--setup",
            "none",
            "--memory",
            "16M",
            "SELECT board, count(*) FROM boards GROUP BY board ORDER BY board LIMIT 1",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let err = err.to_lowercase();
    assert!(err.contains("exhausted") || err.contains("memory"), "{err}");
}

/// A small generator of statements: pieces of valid SQL over the table's columns, spliced,
/// cut and corrupted.
fn fuzzed(seed: u64, n: usize) -> Vec<String> {
    let pieces = [
        "SELECT",
        "FROM",
        "boards",
        "setups",
        "WHERE",
        "GROUP BY",
        "ORDER BY",
        "LIMIT",
        "count(*)",
        "sum(games_x)",
        "board",
        "status",
        "'Draw'",
        "value",
        "ply",
        "t_square",
        "orbit",
        "=",
        "<",
        "AND",
        "OR",
        "NOT",
        "(",
        ")",
        ",",
        "*",
        "1",
        "-1",
        "NULL",
        "IS NULL",
        "IN (0, 3)",
        "JOIN",
        "ON",
        "AS",
        "DISTINCT",
        "HAVING",
        "UNION ALL",
        "CASE WHEN",
        "THEN",
        "ELSE",
        "END",
        "substr(board, 1, 4)",
        "max(distance)",
        "/",
        "0",
        "';",
        "\"",
        "--",
        "\u{0}",
        "é",
        "99999999999999999999",
        "CAST(ply AS VARCHAR)",
        "OFFSET",
        "win_lines",
        "x_stones",
    ];
    let seeds = [
        "SELECT status, count(*) FROM boards GROUP BY status",
        "SELECT ply, value, count(*) FROM boards WHERE t_square IS NULL GROUP BY ply, value",
        "SELECT board FROM boards WHERE ply = 3 ORDER BY board LIMIT 5",
        "SELECT setup, boards FROM setups ORDER BY boards DESC",
        "SELECT max(distance), min(orders) FROM boards WHERE value = 'win'",
    ];
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..n)
        .map(|_| {
            let base = seeds[next() as usize % seeds.len()];
            let mut words: Vec<String> = base.split(' ').map(str::to_string).collect();
            for _ in 0..1 + next() % 4 {
                let i = next() as usize % (words.len() + 1);
                match next() % 4 {
                    0 if i < words.len() => {
                        words.remove(i);
                    }
                    1 => words.insert(i, pieces[next() as usize % pieces.len()].to_string()),
                    2 if i < words.len() => {
                        words[i] = pieces[next() as usize % pieces.len()].to_string()
                    }
                    _ => {
                        let s = words.join(" ");
                        let cut = next() as usize % (s.len() + 1);
                        let cut = (0..=cut).rev().find(|&c| s.is_char_boundary(c)).unwrap();
                        words = vec![s[..cut].to_string()];
                    }
                }
            }
            words.join(" ")
        })
        .collect()
}

#[test]
fn ten_thousand_fuzzed_statements_never_panic() {
    // Classic tic-tac-toe keeps each statement fast; the planner and the parser are the same.
    let g = Geometry::new(3, 3, 3, false).unwrap();
    let session = Session::new(&g, &g.setups(), Limits { memory: 256 << 20 }).unwrap();
    let mut ran = 0;
    let mut refused = 0;
    for sql in fuzzed(0x5EED, 10_000) {
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match session.query(&sql) {
                Ok(mut rows) => {
                    let mut failed = false;
                    while let Some(b) = rows.next_batch() {
                        if b.is_err() {
                            failed = true;
                            break;
                        }
                    }
                    !failed
                }
                Err(e) => {
                    assert!(!e.to_string().is_empty());
                    false
                }
            }));
        match result {
            Ok(true) => ran += 1,
            Ok(false) => refused += 1,
            Err(_) => panic!("the statement {sql:?} panicked"),
        }
    }
    assert_eq!(ran + refused, 10_000);
    assert!(ran > 100 && refused > 100, "ran {ran}, refused {refused}");
}

#[test]
fn export_writes_one_table_in_the_hive_layout() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("deep/boards");
    let args = [
        "export",
        "--quiet",
        "--rows",
        "3",
        "--cols",
        "3",
        "--line",
        "3",
        "--format",
        "csv",
        "--columns",
        "board,status,value",
        "-o",
    ];
    let report = stdout_of(&[&args[..], &[out.to_str().unwrap()]].concat());
    assert_eq!(
        report.lines().nth(1).unwrap().split(',').nth(1),
        Some("5478")
    );
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 10, "{names:?}");
    assert!(names.contains(&"setup=none".to_string()));
    assert!(out.join("setup=4/boards.parquet").is_file());
    // Read back by the Parquet reader: every board once, the right statuses.
    use datafusion::arrow::array::{Array, AsArray};
    use datafusion::arrow::datatypes::Int8Type;
    use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let file = std::fs::File::open(out.join("setup=none/boards.parquet")).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut boards = std::collections::HashSet::new();
    let mut draws = 0;
    for batch in reader {
        let batch = batch.unwrap();
        let b = batch.column(0).as_string::<i32>();
        let status = batch.column(1).as_dictionary::<Int8Type>();
        let words = status.values().as_string::<i32>();
        for i in 0..batch.num_rows() {
            boards.insert(b.value(i).to_string());
            if words.value(status.keys().value(i) as usize) == "Draw" {
                draws += 1;
            }
        }
        assert_eq!(b.null_count(), 0);
    }
    assert_eq!((boards.len(), draws), (5478, 16));
    // A second export needs --force; a directory that is not an export is never replaced.
    let again = tomek()
        .args([
            "export", "--quiet", "--rows", "3", "--cols", "3", "--line", "3", "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("keep.txt"), "mine").unwrap();
    let refused = tomek()
        .args([
            "export",
            "--quiet",
            "--force",
            "--no-joker",
            "--rows",
            "3",
            "--cols",
            "3",
        ])
        .args(["--line", "3", "-o"])
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(other.join("keep.txt")).unwrap(),
        "mine"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
