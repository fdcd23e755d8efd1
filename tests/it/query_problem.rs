//! `tomek query --problem` and `tomek export --problem`: a problem's `boards` table held to
//! `stats --problem`, to the published figures of tic-tac-toe and to Code Jam's own table of
//! the same board, computed by the specialised path; Code Jam's problem named with --problem
//! answering byte for byte as without it; bad descriptions refused with their position.

use crate::harness::{stdout_of, tomek};
use crate::published::TIC_TAC_TOE;
use serde_json::Value;
use std::collections::BTreeMap;
use tomek::problem::{BUILTIN, Problem};

/// The rows of a query over `problem`'s table, as JSON objects.
fn json_rows(problem: &str, sql: &str) -> Vec<Value> {
    let out = stdout_of(&[
        "query",
        "--quiet",
        "--format",
        "json",
        "--problem",
        problem,
        sql,
    ]);
    serde_json::from_str::<Value>(&out)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// A query's count per key: of its two columns, the text to the number.
fn counts(problem: &str, sql: &str) -> BTreeMap<String, u64> {
    json_rows(problem, sql)
        .iter()
        .map(|r| {
            let cells: Vec<&Value> = r.as_object().unwrap().values().collect();
            assert_eq!(cells.len(), 2, "{r}");
            let key = cells.iter().find_map(|c| c.as_str()).unwrap();
            let n = cells.iter().find_map(|c| c.as_u64()).unwrap();
            (key.to_string(), n)
        })
        .collect()
}

/// The positions per answer that `stats --problem` counts.
fn stats_counts(problem: &str) -> BTreeMap<String, u64> {
    let out = stdout_of(&["stats", "--quiet", "--format", "json", "--problem", problem]);
    let v: Value = serde_json::from_str(&out).unwrap();
    v["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["answer"].as_str().unwrap().to_string(),
                a["positions"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn map(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|&(k, n)| (k.to_string(), n)).collect()
}

#[test]
fn verdict_counts_are_those_of_stats_and_the_published_figures() {
    let [x_won, o_won, drawn, open] = TIC_TAC_TOE.boards_by_status;
    let legal = TIC_TAC_TOE.boards;
    let grids = 3u64.pow(9);
    let sql = "SELECT verdict, count(*) AS n FROM boards GROUP BY verdict";
    // The 3×3 problems: the 4×4 ones' input spaces are held to a reference in problems_4x4.
    for (name, _) in BUILTIN
        .iter()
        .filter(|(n, _)| !["tomek", "cf754b", "uva10111"].contains(n))
    {
        let by_sql = counts(name, sql);
        assert_eq!(by_sql, stats_counts(name), "{name}");
        let space = Problem::builtin(name).unwrap().positions().len() as u64;
        assert_eq!(by_sql.values().sum::<u64>(), space, "{name}");
        // The figures that follow from tic-tac-toe's published counts alone.
        let published = match *name {
            "cf3c" => Some(map(&[
                ("illegal", grids - legal),
                ("the first player won", x_won),
                ("the second player won", o_won),
                ("draw", drawn),
            ])),
            "toe1" | "ccc-hk-2008-j4" => Some(map(&[("yes", legal), ("no", grids - legal)])),
            "toe2" => Some(map(&[
                ("valid", x_won + o_won + drawn),
                ("invalid", grids - x_won - o_won - drawn),
            ])),
            _ => None,
        };
        if let Some(published) = published {
            for (answer, n) in published {
                assert_eq!(by_sql[&answer], n, "{name}: {answer}");
            }
        }
    }
    let cf3c = counts("cf3c", sql);
    assert_eq!(cf3c["first"] + cf3c["second"], open);
    assert_eq!(
        counts("perfect-play", sql),
        map(&[("X", 2_936), ("O", 1_474), ("draw", 1_068)])
    );
}

#[test]
fn facts_of_hand_checked_grids() {
    let rows = json_rows(
        "cf3c",
        "SELECT * FROM boards WHERE board IN ('XXX/00./...', '.../.../...', 'XXX/000/...', \
         'X0X/X0X/0X0', 'XX./00./...', '0../.../...') ORDER BY board",
    );
    let expected = [
        // The second player moved first.
        (
            "0../.../...",
            r#"{"board":"0../.../...","reachable":false,"line":"none","full":false,"next":"neither","over":false,"ply":1,"value":null,"winner":null,"verdict":"illegal"}"#,
        ),
        (
            ".../.../...",
            r#"{"board":".../.../...","reachable":true,"line":"none","full":false,"next":"first","over":false,"ply":0,"value":"drawn","winner":"nobody","verdict":"first"}"#,
        ),
        (
            "X0X/X0X/0X0",
            r#"{"board":"X0X/X0X/0X0","reachable":true,"line":"none","full":true,"next":"second","over":true,"ply":9,"value":null,"winner":"nobody","verdict":"draw"}"#,
        ),
        (
            "XX./00./...",
            r#"{"board":"XX./00./...","reachable":true,"line":"none","full":false,"next":"first","over":false,"ply":4,"value":"won","winner":"first","verdict":"first"}"#,
        ),
        (
            "XXX/00./...",
            r#"{"board":"XXX/00./...","reachable":true,"line":"first","full":false,"next":"second","over":true,"ply":5,"value":null,"winner":"first","verdict":"the first player won"}"#,
        ),
        (
            "XXX/000/...",
            r#"{"board":"XXX/000/...","reachable":false,"line":"both","full":false,"next":"first","over":true,"ply":6,"value":null,"winner":null,"verdict":"illegal"}"#,
        ),
    ];
    let mut expected: Vec<(&str, Value)> = expected
        .iter()
        .map(|(b, j)| (*b, serde_json::from_str(j).unwrap()))
        .collect();
    expected.sort_by_key(|(b, _)| *b);
    assert_eq!(rows.len(), expected.len());
    for (row, (board, want)) in rows.iter().zip(&expected) {
        assert_eq!(row, want, "{board}");
    }
}

/// Code Jam's table of classic tic-tac-toe (its status, side to move and value) against the
/// facts of `perfect-play`, position by position: the one comes from the specialised path's
/// backward pass, the other from the family's facts and memoised search.
#[test]
fn perfect_play_facts_are_code_jams_on_every_position() {
    let classic = stdout_of(&[
        "query",
        "--quiet",
        "--format",
        "csv",
        "--rows",
        "3",
        "--cols",
        "3",
        "--line",
        "3",
        "--no-joker",
        "SELECT board, ply, status, coalesce(to_move, '-'), value FROM boards",
    ]);
    let family = stdout_of(&[
        "query",
        "--quiet",
        "--format",
        "csv",
        "--problem",
        "perfect-play",
        "SELECT replace(board, '/', ''), ply, line, full, next, coalesce(value, '-'), \
         winner, verdict, reachable FROM boards",
    ]);
    let mut expected = BTreeMap::new();
    for l in classic.lines().skip(1) {
        let c: Vec<&str> = l.split(',').collect();
        let (ply, status, to_move, value) = (c[1], c[2], c[3], c[4]);
        let (line, full) = match status {
            "X won" => ("first", ply == "9"),
            "O won" => ("second", false),
            "Draw" => ("none", true),
            _ => ("none", false),
        };
        // Code Jam's value is the side to move's; a finished board has none in the facts.
        let (family_value, winner) = match status {
            "X won" => ("-", "first"),
            "O won" => ("-", "second"),
            "Draw" => ("-", "nobody"),
            _ => {
                let word = match value {
                    "win" => "won",
                    "loss" => "lost",
                    _ => "drawn",
                };
                let winner = match (value, to_move) {
                    ("draw", _) => "nobody",
                    ("win", "X") | ("loss", "O") => "first",
                    _ => "second",
                };
                (word, winner)
            }
        };
        let next = if ply.parse::<u32>().unwrap() % 2 == 0 {
            "first"
        } else {
            "second"
        };
        let verdict = match winner {
            "first" => "X",
            "second" => "O",
            _ => "draw",
        };
        let row = [
            ply,
            line,
            &full.to_string(),
            next,
            family_value,
            winner,
            verdict,
            "true",
        ]
        .join(",");
        expected.insert(c[0].to_string(), row);
    }
    let got: BTreeMap<String, String> = family
        .lines()
        .skip(1)
        .map(|l| {
            let (board, rest) = l.split_once(',').unwrap();
            (board.to_string(), rest.to_string())
        })
        .collect();
    assert_eq!(got.len() as u64, TIC_TAC_TOE.boards);
    assert_eq!(got, expected);
}

/// A 3×3 board with a joker, reachable positions only: each setup's rows are the reachable
/// boards of Code Jam's table of the same geometry, setup by setup.
#[test]
fn a_joker_problem_has_a_row_per_reachable_board_of_each_setup() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("joker.toml");
    let text = BUILTIN[0]
        .1
        .replace("name = \"tomek\"", "name = \"small-tomek\"")
        .replace("rows = 4", "rows = 3")
        .replace("cols = 4", "cols = 3")
        .replace("line = 4", "line = 3");
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().unwrap();
    let family = counts(
        file,
        "SELECT coalesce(CAST(t_square AS VARCHAR), 'none') AS setup, count(*) FROM boards \
         GROUP BY 1",
    );
    let classic = stdout_of(&[
        "query",
        "--quiet",
        "--format",
        "csv",
        "--rows",
        "3",
        "--cols",
        "3",
        "--line",
        "3",
        "SELECT coalesce(CAST(t_square AS VARCHAR), 'none'), count(*) FROM boards GROUP BY 1",
    ]);
    let classic: BTreeMap<String, u64> = classic
        .lines()
        .skip(1)
        .map(|l| {
            let (k, n) = l.split_once(',').unwrap();
            (k.to_string(), n.parse().unwrap())
        })
        .collect();
    assert_eq!(family.len(), 10);
    assert_eq!(family, classic);
    assert_eq!(family["none"], TIC_TAC_TOE.boards);
    // The verdicts are Code Jam's words, counted as its statuses.
    let verdicts = counts(
        file,
        "SELECT verdict, count(*) FROM boards WHERE t_square IS NULL GROUP BY verdict",
    );
    let [x_won, o_won, drawn, open] = TIC_TAC_TOE.boards_by_status;
    assert_eq!(
        verdicts,
        map(&[
            ("X won", x_won),
            ("O won", o_won),
            ("Draw", drawn),
            ("Game has not completed", open)
        ])
    );
}

/// `--problem tomek`, or a file equal to Code Jam's description, is the command without it.
#[test]
fn code_jams_problem_named_is_todays_output_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy.toml");
    std::fs::write(&copy, stdout_of(&["problem", "show", "tomek"])).unwrap();
    let copy = copy.to_str().unwrap();
    let small = ["--rows", "3", "--cols", "3", "--line", "3"];
    let queries: [&[&str]; 4] = [
        &["SELECT status, count(*) FROM boards GROUP BY status ORDER BY status"],
        &["--format", "csv", "SELECT * FROM setups ORDER BY boards"],
        &[
            "--format",
            "json",
            "SELECT board, value, orders FROM boards WHERE ply = 3 ORDER BY board LIMIT 5",
        ],
        &["--schema"],
    ];
    for q in queries {
        for geometry in [&[][..], &small[..]] {
            let plain = stdout_of(&[&["query", "--quiet"][..], geometry, q].concat());
            for named in ["tomek", copy] {
                let with = [&["query", "--quiet", "--problem", named][..], geometry, q].concat();
                assert_eq!(stdout_of(&with), plain, "{with:?}");
            }
        }
    }
    let export = |dir: &std::path::Path, named: Option<&str>| {
        let mut args = vec!["export", "--quiet", "-o", dir.to_str().unwrap()];
        args.extend_from_slice(&small);
        args.extend_from_slice(&["--setup", "none,4", "--columns", "board,status,value"]);
        args.extend(named.map(|n| ["--problem", n]).into_iter().flatten());
        let report = stdout_of(&args);
        let files: Vec<Vec<u8>> = ["setup=none", "setup=4"]
            .iter()
            .map(|p| std::fs::read(dir.join(p).join("boards.parquet")).unwrap())
            .collect();
        (report.replace(dir.to_str().unwrap(), "DIR"), files)
    };
    let plain = export(&dir.path().join("plain"), None);
    assert!(plain.0.contains("DIR: "), "{}", plain.0);
    for (i, named) in ["tomek", copy].into_iter().enumerate() {
        assert_eq!(export(&dir.path().join(i.to_string()), Some(named)), plain);
    }
}

#[test]
fn schema_lists_the_problems_columns() {
    let out = stdout_of(&["query", "--schema", "--format", "csv", "--problem", "cf3c"]);
    let columns: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(
        columns,
        [
            "board",
            "reachable",
            "line",
            "full",
            "next",
            "over",
            "ply",
            "value",
            "winner",
            "verdict"
        ]
    );
    let table = stdout_of(&["query", "--schema", "--problem", "cf3c"]);
    assert!(table.contains("(X 0 .)"), "{table}");
    assert!(
        table.contains("'illegal', 'the first player won'"),
        "{table}"
    );
    assert!(
        table.contains(
            "no setups table for cf3c: boards holds its whole input space; group it by verdict)"
        ),
        "{table}"
    );
    // A problem's table has no `setups`.
    tomek()
        .args(["query", "--problem", "cf3c", "SELECT * FROM setups"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("setups"));
}

#[test]
fn export_of_a_problem_reads_back_as_its_query() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cf3c");
    let report = stdout_of(&[
        "export",
        "--quiet",
        "--problem",
        "cf3c",
        "--format",
        "csv",
        "--columns",
        "verdict,board",
        "-o",
        out.to_str().unwrap(),
    ]);
    let line = report.lines().nth(1).unwrap();
    assert!(line.starts_with("setup=none,19683,"), "{report}");
    use datafusion::arrow::array::{Array, AsArray};
    use datafusion::arrow::datatypes::Int16Type;
    use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let file = std::fs::File::open(out.join("setup=none/boards.parquet")).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut per_verdict = BTreeMap::new();
    let mut boards = std::collections::BTreeSet::new();
    for batch in reader {
        let batch = batch.unwrap();
        let names: Vec<&str> = batch
            .schema_ref()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        // The table's order, whatever the order asked.
        assert_eq!(names, ["board", "verdict"]);
        let board = batch.column(0).as_string::<i32>();
        let verdict = batch.column(1).as_dictionary::<Int16Type>();
        let words = verdict.values().as_string::<i32>();
        for i in 0..batch.num_rows() {
            boards.insert(board.value(i).to_string());
            let w = words.value(verdict.keys().value(i) as usize).to_string();
            *per_verdict.entry(w).or_insert(0u64) += 1;
        }
        assert_eq!(verdict.null_count(), 0);
    }
    assert_eq!(boards.len(), 19_683);
    assert_eq!(per_verdict, stats_counts("cf3c"));
    // A column of Code Jam's table is not one of cf3c's.
    tomek()
        .args(["export", "--problem", "cf3c", "--columns", "status", "-o"])
        .arg(dir.path().join("no"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("`status` is not a column"));
}

#[test]
fn a_bad_description_exits_2_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    let text = stdout_of(&["problem", "show", "cf3c"]).replace("line = 3", "line = 9");
    std::fs::write(&file, &text).unwrap();
    let line = text.lines().position(|l| l == "line = 9").unwrap() + 1;
    let at = format!("{}:{line}:", file.display());
    let out = dir.path().join("out");
    for args in [
        vec!["query", "SELECT count(*) FROM boards"],
        vec!["query", "--schema"],
        vec!["export", "-o", out.to_str().unwrap()],
    ] {
        tomek()
            .args(&args)
            .args(["--problem", file.to_str().unwrap()])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::contains(at.clone()));
    }
    assert!(!out.exists());
}
