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
    csv_rows(&stdout_of(&full))
}

/// The rows of a CSV text, its header line left out.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
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
    // Six setups keep the run to seconds: no T, the T in a corner, on an edge and inside.
    let setups = ["--setup", "none,0,1,5,6,15"];
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
            setups[0],
            setups[1],
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

/// A seeded stream of pseudo-random words (xorshift), the same on every machine.
fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// The 4×4 board after `moves` random moves from the empty board of setup `t` (fewer if the
/// game ends first), played by the library's rules: every such board is reachable.
fn random_board(t: u16, moves: u32, next: &mut impl FnMut() -> u64) -> String {
    use tomek::outcome::{Player, Status};
    use tomek::tictactoe::board::Board;
    let g = Geometry::tomek();
    let mut b = Board::empty(t);
    let mut p = Player::X;
    for _ in 0..moves {
        let free: Vec<u32> = (0..16).filter(|&i| b.filled() & (1 << i) == 0).collect();
        let Some(&square) = free.get(next() as usize % free.len().max(1)) else {
            break;
        };
        let (after, status) = g.play(b, p, square);
        b = after;
        if status != Status::Open {
            break;
        }
        p = if p == Player::X { Player::O } else { Player::X };
    }
    b.to_line()
}

/// The 10 lines of the 4×4 board, as squares.
fn lines() -> Vec<[usize; 4]> {
    let mut out = Vec::new();
    for i in 0..4 {
        out.push([4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3]);
        out.push([i, i + 4, i + 8, i + 12]);
    }
    out.push([0, 5, 10, 15]);
    out.push([3, 6, 9, 12]);
    out
}

/// Where a symmetry of the square sends row and column.
type Symmetry = fn(usize, usize) -> (usize, usize);

/// The smallest text of a board under the 8 rotations and reflections of the square.
fn dihedral_orbit(board: &str) -> String {
    let cells: Vec<char> = board.chars().collect();
    let maps: [Symmetry; 8] = [
        |r, c| (r, c),
        |r, c| (c, 3 - r),
        |r, c| (3 - r, 3 - c),
        |r, c| (3 - c, r),
        |r, c| (r, 3 - c),
        |r, c| (3 - r, c),
        |r, c| (c, r),
        |r, c| (3 - c, 3 - r),
    ];
    maps.iter()
        .map(|m| {
            let mut out = vec!['.'; 16];
            for r in 0..4 {
                for c in 0..4 {
                    let (r2, c2) = m(r, c);
                    out[4 * r2 + c2] = cells[4 * r + c];
                }
            }
            out.into_iter().collect::<String>()
        })
        .min()
        .unwrap()
}

#[test]
fn random_boards_agree_with_explain() {
    // 30 boards of five setups, from seeded random play.
    let setups: [(u16, &str); 5] = [
        (0, "none"),
        (1, "0"),
        (1 << 5, "5"),
        (1 << 10, "10"),
        (1 << 15, "15"),
    ];
    let mut next = xorshift(0x00C0_FFEE);
    let mut boards = Vec::new();
    for i in 0..30 {
        let (t, _) = setups[i % setups.len()];
        let moves = (next() % 17) as u32;
        boards.push(random_board(t, moves, &mut next));
    }
    boards.sort();
    boards.dedup();
    assert!(boards.len() >= 25, "{boards:?}");
    let list: Vec<String> = boards.iter().map(|b| format!("'{b}'")).collect();
    let sql = format!(
        "SELECT board, value, distance, orders, games_x, games_o, games_draw, orbit, \
         orbit_dihedral, win_lines, t_in_win, status, to_move, winner, ply, x_stones, o_stones, \
         t_square FROM boards WHERE board IN ({}) ORDER BY board",
        list.join(", ")
    );
    let names: Vec<&str> = setups.iter().map(|s| s.1).collect();
    let joined = names.join(",");
    let got = rows(&[&sql, "--setup", &joined]);
    let found: Vec<&String> = got.iter().map(|r| &r[0]).collect();
    assert_eq!(found, boards.iter().collect::<Vec<_>>());
    for r in &got {
        let board = &r[0];
        let e: Value =
            serde_json::from_str(&stdout_of(&["explain", board, "--format", "json"])).unwrap();
        let play = &e["play"];
        let status = e["status"].as_str().unwrap();
        assert_eq!(r[1], play["value"]["outcome"].as_str().unwrap(), "{board}");
        assert_eq!(r[2], play["value"]["distance"].to_string(), "{board}");
        assert_eq!(r[3], play["sequences"].to_string(), "{board}");
        assert_eq!(r[4], play["games"]["x_won"].to_string(), "{board}");
        assert_eq!(r[5], play["games"]["o_won"].to_string(), "{board}");
        assert_eq!(r[6], play["games"]["draw"].to_string(), "{board}");
        assert_eq!(r[7], e["orbit"]["smallest"].as_str().unwrap(), "{board}");
        assert_eq!(r[8], dihedral_orbit(board), "{board}");
        assert_eq!(r[11], status, "{board}");
        let over = status != "Game has not completed";
        let to_move = if over {
            ""
        } else {
            e["to_move"].as_str().unwrap()
        };
        assert_eq!(r[12], to_move, "{board}");
        let winner = match status {
            "X won" => "X",
            "O won" => "O",
            _ => "",
        };
        assert_eq!(r[13], winner, "{board}");
        assert_eq!(r[14], e["ply"].to_string(), "{board}");
        assert_eq!(r[15], e["x_stones"].to_string(), "{board}");
        assert_eq!(r[16], e["o_stones"].to_string(), "{board}");
        let t = board.find('T');
        assert_eq!(
            r[17],
            t.map(|i| i.to_string()).unwrap_or_default(),
            "{board}"
        );
        // The winner's lines, counted on the text: the T counts for either player.
        let cells: Vec<char> = board.chars().collect();
        let won: Vec<[usize; 4]> = lines()
            .into_iter()
            .filter(|l| match winner {
                "X" => l.iter().all(|&i| cells[i] == 'X' || cells[i] == 'T'),
                "O" => l.iter().all(|&i| cells[i] == 'O' || cells[i] == 'T'),
                _ => false,
            })
            .collect();
        assert_eq!(r[9], won.len().to_string(), "{board}");
        let t_in_win = t.is_some_and(|t| won.iter().any(|l| l.contains(&t)));
        assert_eq!(r[10], t_in_win.to_string(), "{board}");
    }
    // Finished and open boards, several plies, and both kinds of setup are among them.
    assert!(got.iter().any(|r| r[11] != "Game has not completed"));
    assert!(got.iter().any(|r| r[11] == "Game has not completed"));
    assert!(got.iter().any(|r| r[17].is_empty()) && got.iter().any(|r| !r[17].is_empty()));
}

#[test]
fn the_setups_table_is_that_of_stats() {
    let got = rows(&[
        "SELECT setup, t_square, boards, x_won, o_won, draw, not_completed FROM setups \
         ORDER BY setup",
    ]);
    let stats = stats_json(&["--only", "counts"]);
    let mut expected: Vec<Vec<String>> = Vec::new();
    for s in stats["setups"].as_array().unwrap() {
        let name = match &s["setup"] {
            Value::String(n) if n == "all" => continue,
            Value::String(n) => n.clone(),
            other => other.to_string(),
        };
        let t = if name == "none" {
            String::new()
        } else {
            name.clone()
        };
        let mut row = vec![name, t];
        for key in ["total", "x_won", "o_won", "draw", "open"] {
            row.push(s[format!("boards_{key}")].to_string());
        }
        expected.push(row);
    }
    expected.sort();
    assert_eq!(expected.len(), 17);
    assert_eq!(got, expected);
}

#[test]
fn parquet_output_reads_back_as_the_csv_output() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("by_ply.parquet");
    let sql = "SELECT ply, status, count(*) AS n, min(board) AS first FROM boards \
               GROUP BY ply, status ORDER BY ply, status";
    let geometry = ["--rows", "3", "--cols", "3", "--line", "3"];
    let mut args = vec!["query", "--quiet", "--format", "parquet", "-o"];
    args.push(file.to_str().unwrap());
    args.extend_from_slice(&geometry);
    args.push(sql);
    tomek().args(&args).assert().success();
    let mut csv_args = geometry.to_vec();
    csv_args.push(sql);
    let expected = rows(&csv_args);
    use datafusion::arrow::util::display::{ArrayFormatter, FormatOptions};
    use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&file).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let mut got = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        let names: Vec<&str> = batch
            .schema_ref()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        assert_eq!(names, ["ply", "status", "n", "first"]);
        let options = FormatOptions::default();
        let cols: Vec<ArrayFormatter> = batch
            .columns()
            .iter()
            .map(|a| ArrayFormatter::try_new(a.as_ref(), &options).unwrap())
            .collect();
        for i in 0..batch.num_rows() {
            got.push(
                cols.iter()
                    .map(|f| f.value(i).to_string())
                    .collect::<Vec<_>>(),
            );
        }
    }
    assert_eq!(got, expected);
    let total: u64 = got.iter().map(|r| r[2].parse::<u64>().unwrap()).sum();
    let classic: u64 = stats_json(&[
        "--only", "counts", "--rows", "3", "--cols", "3", "--line", "3",
    ])["setups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["setup"] == "all")
        .unwrap()["boards_total"]
        .as_u64()
        .unwrap();
    assert_eq!(total, classic);
}

#[test]
fn export_of_one_setup_writes_only_its_partition() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("four");
    // Classic tic-tac-toe with the T on the centre square.
    let selection = ["--rows", "3", "--cols", "3", "--line", "3", "--setup", "4"];
    let target = ["--format", "csv", "-o", out.to_str().unwrap()];
    let report = stdout_of(&[&["export"][..], &selection, &target].concat());
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["setup=4"]);
    let counted = &rows(&[&selection[..], &["SELECT count(*) FROM boards"]].concat())[0][0];
    let line = report.lines().nth(1).unwrap();
    assert_eq!(
        line,
        format!(
            "setup=4,{counted},{}",
            std::fs::metadata(out.join("setup=4/boards.parquet"))
                .unwrap()
                .len()
        )
    );
    use datafusion::parquet::file::reader::{FileReader, SerializedFileReader};
    let file = std::fs::File::open(out.join("setup=4/boards.parquet")).unwrap();
    let meta = SerializedFileReader::new(file).unwrap();
    assert_eq!(
        meta.metadata().file_metadata().num_rows().to_string(),
        *counted
    );
}

/// Aggregates over small columns, and `min`, `max`, `sum` and `count` of large ones, are
/// answered from runs of equal rows; the same aggregates over a table filtered on `board` go
/// row by row. Both must agree, and the plans must show that each went its own way.
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
        // Large columns folded over runs of the small ones.
        "SELECT status, value, count(*), max(board), min(board), sum(orders), min(games_x), \
         max(games_o), sum(games_draw), max(orbit), min(orbit_dihedral), count(board), \
         sum(distance), sum(CASE WHEN t_in_win THEN 1 ELSE 0 END), sum(win_lines) \
         FROM {T} GROUP BY status, value",
        "SELECT ply, max(orbit), sum(games_x) FROM {T} WHERE distance > 2 GROUP BY ply",
        "SELECT count(*), min(board), max(board), max(orders) FROM {T}",
        "SELECT t_in_win, win_lines, max(board), count(orbit) FROM {T} WHERE winner = 'X' \
         GROUP BY t_in_win, win_lines",
        "SELECT value, distance % 2, min(orbit) FROM {T} WHERE value <> 'draw' \
         GROUP BY value, distance % 2",
        // Nothing left to fold: the maximum is null and the count 0.
        "SELECT max(board), count(board), sum(games_x) FROM {T} WHERE ply > 20",
    ];
    // Aggregates the runs cannot answer: they must go row by row, and still be right.
    let row_by_row = [
        "SELECT max(board) FROM (SELECT ply AS board FROM {T}) AS b",
        "SELECT max(x) FROM (SELECT board AS x FROM {T}) AS b",
        "SELECT max(board), count(DISTINCT board) FROM {T} WHERE ply = 3",
        "SELECT avg(games_x), sum(orders * 2) FROM {T}",
        "SELECT ply, max(board) FILTER (WHERE value = 'win') FROM {T} GROUP BY ply",
        "SELECT max(orbit) FROM {T} GROUP BY orbit_dihedral ORDER BY 1 LIMIT 3",
    ];
    // One session per geometry, as `tomek query --setup none,0,5` and `tomek query --rows 3
    // --cols 3 --line 3 --no-joker` open them: the statements are the engine's to answer, and
    // a process per statement would cost more than every answer.
    let classic = Geometry::new(3, 3, 3, false).unwrap();
    let geometries = [
        (Geometry::tomek(), vec![0, 1, 1 << 5]),
        (&classic, classic.setups()),
    ];
    for (geometry, setups) in geometries {
        let session = Session::new(geometry, &setups, Limits::default()).unwrap();
        let csv = |sql: &str| {
            let mut out = Vec::new();
            let mut rows = session.query(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
            tomek::sql::output::csv(&mut rows, &mut out).unwrap_or_else(|e| panic!("{sql}: {e}"));
            String::from_utf8(out).unwrap()
        };
        for q in queries.into_iter().chain(row_by_row) {
            let run = |table: &str| {
                let sql = q.replace("{T}", table);
                let mut rows = csv_rows(&csv(&sql));
                rows.sort();
                let explain = csv(&format!("EXPLAIN {sql}"));
                (rows, explain.contains("__tomek_"))
            };
            let (fast, on_runs) = run("boards");
            let (slow, slow_on_runs) = run(by_rows);
            assert_eq!(
                on_runs,
                queries.contains(&q),
                "{q}: answered from runs or not?"
            );
            assert!(!slow_on_runs, "{q} over rows should go row by row");
            assert!(!fast.is_empty(), "{q}");
            assert_eq!(fast, slow, "{q} on {setups:?}");
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
    let cases: [(&str, &str); 11] = [
        ("SELEC 1", "SQL"),
        ("SELECT nope FROM boards", "nope"),
        ("SELECT * FROM nowhere", "nowhere"),
        ("CREATE TABLE t (a INT)", "DDL not supported"),
        ("INSERT INTO boards VALUES (1)", "the statement writes"),
        ("DELETE FROM boards", "the statement writes"),
        ("UPDATE boards SET ply = 1", "the statement writes"),
        ("   ;  ", "empty"),
        ("SELECT 1; SELECT 2", "single SQL statement"),
        (
            "SET datafusion.execution.batch_size = 1",
            "not supported: SetVariable",
        ),
        ("COPY boards TO 'x.csv'", "DML not supported"),
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
    // Statements deep or wide enough to overflow a stack, each within the length bound: refused
    // with a message, or answered, but never a crash.
    // `n` terms made by `term`, joined by `sep`.
    let chain = |n: usize, term: &dyn Fn(usize) -> String, sep: &str| {
        (0..n).map(term).collect::<Vec<_>>().join(sep)
    };
    let deep: [(String, &str); 9] = [
        (format!("SELECT 1{}", "+1".repeat(32_000)), "levels deep"),
        (
            format!(
                "SELECT count(*) FROM boards WHERE {}",
                chain(5000, &|i| format!("ply={i}"), " OR ")
            ),
            "levels deep",
        ),
        (
            format!(
                "SELECT count(*) FROM boards WHERE {}",
                chain(4500, &|i| format!("ply<>{i}"), " AND ")
            ),
            "levels deep",
        ),
        (
            format!("SELECT board{} FROM boards", " || board".repeat(6000)),
            "levels deep",
        ),
        (
            format!("SELECT {}1{}", "(".repeat(20_000), ")".repeat(20_000)),
            "Recursion",
        ),
        (
            format!("SELECT {}1{}", "(SELECT ".repeat(3000), ")".repeat(3000)),
            "Recursion",
        ),
        (vec!["SELECT 1"; 3400].join(" UNION ALL "), "SELECTs"),
        (
            format!(
                "SELECT count(*) FROM setups a0 {}",
                chain(1999, &|i| format!("JOIN setups a{} ON true", i + 1), " ")
            ),
            "tables",
        ),
        (
            format!(
                "SELECT CASE {} END FROM boards LIMIT 1",
                chain(2500, &|i| format!("WHEN ply={i} THEN {i}"), " ")
            ),
            "",
        ),
    ];
    for (sql, needle) in &deep {
        assert!(sql.len() <= tomek::sql::MAX_STATEMENT, "{}", sql.len());
        let out = tomek()
            .args(["query", "--setup", "none", "--format", "csv", sql])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let head = &sql[..40];
        assert!(
            !err.contains("panicked") && !err.contains("overflow"),
            "{head}: {err}"
        );
        if needle.is_empty() {
            assert_eq!(out.status.code(), Some(0), "{head}: {err}");
        } else {
            assert_eq!(out.status.code(), Some(2), "{head}: {err}");
            assert!(
                err.starts_with("tomek: ") && err.contains(needle),
                "{head}: {err}"
            );
        }
    }
    // Just under the bounds, the same shapes run.
    let out = stdout_of(&[
        "query",
        "--setup",
        "none",
        "--format",
        "csv",
        &format!("SELECT 1{}", "+1".repeat(998)),
    ]);
    assert_eq!(
        out,
        format!(
            "{}\n999\n",
            (0..999).map(|_| "Int64(1)").collect::<Vec<_>>().join(" + ")
        )
    );
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
    let mut next = xorshift(seed);
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

/// `n` statements of random bytes (as text, invalid UTF-8 replaced), of random lengths.
fn random_bytes(seed: u64, n: usize) -> Vec<Vec<u8>> {
    let mut next = xorshift(seed);
    (0..n)
        .map(|_| {
            let len = (next() % 200) as usize;
            // Half the statements keep to printable ASCII, where the parser gets further.
            let printable = next().is_multiple_of(2);
            (0..len)
                .map(|_| {
                    let b = next() as u8;
                    if printable { b' ' + b % 95 } else { b }
                })
                .collect()
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
    let statements = fuzzed(0x5EED, 10_000).into_iter().chain(
        random_bytes(0xB17E5, 1000)
            .into_iter()
            .map(|b| String::from_utf8_lossy(&b).into_owned()),
    );
    for sql in statements {
        // A panic anywhere, the table's own blocking tasks included, comes back here as a panic
        // and fails the test; only the engine's errors count as refusals.
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match session.query(&sql) {
                Ok(mut rows) => {
                    let mut failed = false;
                    while let Some(b) = rows.next_batch() {
                        if let Err(e) = b {
                            assert!(!e.to_string().contains("panicked"), "{sql:?}: {e}");
                            failed = true;
                            break;
                        }
                    }
                    !failed
                }
                Err(e) => {
                    let message = e.to_string();
                    assert!(!message.is_empty());
                    assert!(!message.contains("panicked"), "{sql:?}: {message}");
                    false
                }
            }));
        match result {
            Ok(true) => ran += 1,
            Ok(false) => refused += 1,
            Err(_) => panic!("the statement {sql:?} panicked"),
        }
    }
    assert_eq!(ran + refused, 11_000);
    assert!(ran > 100 && refused > 100, "ran {ran}, refused {refused}");
}

/// Mutated and random statements through the binary itself, as a user would send them: each
/// exits 0, or 2 with a message, and never panics.
#[test]
fn fuzzed_statements_through_the_binary_exit_0_or_2() {
    let mut inputs: Vec<Vec<u8>> = fuzzed(0xF00D, 300)
        .into_iter()
        .map(String::into_bytes)
        .collect();
    inputs.extend(random_bytes(0xFACE, 100));
    let codes = std::sync::Mutex::new([0usize; 2]);
    std::thread::scope(|scope| {
        for part in inputs.chunks(inputs.len().div_ceil(4)) {
            let codes = &codes;
            scope.spawn(move || {
                for sql in part {
                    let out = tomek()
                        .args([
                            "query", "--quiet", "--rows", "3", "--cols", "3", "--line", "3",
                        ])
                        .args(["--no-joker", "--format", "csv", "-"])
                        .write_stdin(sql.clone())
                        .output()
                        .unwrap();
                    let err = String::from_utf8_lossy(&out.stderr);
                    let shown = String::from_utf8_lossy(sql);
                    assert!(!err.contains("panicked"), "{shown:?}: {err}");
                    match out.status.code() {
                        Some(0) => codes.lock().unwrap()[0] += 1,
                        Some(2) => {
                            assert!(err.starts_with("tomek: "), "{shown:?}: {err}");
                            codes.lock().unwrap()[1] += 1;
                        }
                        other => panic!("{shown:?} exited with {other:?}: {err}"),
                    }
                }
            });
        }
    });
    let [ok, refused] = *codes.lock().unwrap();
    assert_eq!(ok + refused, 400);
    assert!(ok > 5 && refused > 100, "ran {ok}, refused {refused}");
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
