use std::path::PathBuf;
use std::process::ExitCode;
use tomek::output::{Format, Table, grouped, plural};
use tomek::tictactoe::board::Board;
use tomek::tictactoe::codejam::{CaseReader, Strictness};
use tomek::tictactoe::explain::{self, Explanation};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The board: 16 symbols in reading order (`XXXT..O.........`) or 4 rows joined by `/`
    /// (`XXXT/..O./..../....`); symbols X, O, T and `.`.
    #[arg(required_unless_present = "input", conflicts_with = "input")]
    pub board: Option<String>,
    /// Take the board from this Code Jam input instead (`-` for standard input).
    #[arg(long, requires = "case")]
    pub input: Option<PathBuf>,
    /// The case of `--input` to explain (1-based).
    #[arg(long, requires = "input", value_parser = super::number::<u64>(1, None))]
    pub case: Option<u64>,
    /// Output format (CSV holds the table of moves).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    #[command(flatten)]
    pub problem: super::problem::ProblemArg,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(p) = args.problem.family_for_one()? {
        let Some(board) = &args.board else {
            anyhow::bail!(
                "--problem {}: give the BOARD in the problem's symbols",
                p.name
            );
        };
        return super::problem::explain(&p, board, args.format);
    }
    let board = match (&args.board, &args.input, args.case) {
        (Some(text), _, _) => explain::parse_board(text)?,
        (None, Some(path), Some(case)) => read_case(path, case)?,
        _ => anyhow::bail!("give a BOARD, or --input FILE --case N"),
    };
    let e = explain::explain(board);
    let out = match args.format {
        Format::Table => render(&e),
        Format::Json => serde_json::to_string_pretty(&e)? + "\n",
        Format::Csv => moves_table(&e, false).csv(),
    };
    out!("{out}");
    Ok(ExitCode::SUCCESS)
}

/// Case `case` of a Code Jam input (read leniently, as `solve` does).
fn read_case(path: &std::path::Path, case: u64) -> anyhow::Result<Board> {
    let (file, name) = super::open_input(path)
        .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", path.display()))?;
    let mut reader = CaseReader::new(file, name.clone(), Strictness::Lenient);
    let count = reader.case_count()?;
    if case > count {
        anyhow::bail!("{name}: --case {case}, but the file holds {count} cases");
    }
    while let Some((n, b)) = reader.next_case()? {
        if n == case {
            return Ok(b);
        }
    }
    anyhow::bail!("{name}: the file ends before case {case}")
}

/// The moves of a reachable open board as a table, best first.
fn moves_table(e: &Explanation, human: bool) -> Table {
    let mut t = Table::new(["square", "row", "col", "result", "plies", "status", "board"]);
    for m in e.play.iter().flat_map(|p| &p.moves) {
        t.push([
            m.square.to_string(),
            m.row.to_string(),
            m.col.to_string(),
            m.value.outcome.word().to_string(),
            m.value.distance.to_string(),
            if human {
                m.status.answer().to_string()
            } else {
                m.status.short().to_string()
            },
            if human {
                explain::rows_text(m.board)
            } else {
                explain::line_text(m.board)
            },
        ]);
    }
    t
}

/// The explanation for people: the board drawn, then one aligned line per fact.
fn render(e: &Explanation) -> String {
    let mut out = String::new();
    let line = explain::line_text(e.board);
    out.push_str(&format!(
        "Board {line} ({})\n\n",
        explain::rows_text(e.board)
    ));
    out.push_str("    1 2 3 4\n");
    for r in 0..4 {
        let row: Vec<String> = line[r * 4..r * 4 + 4].chars().map(String::from).collect();
        out.push_str(&format!("  {} {}\n", r + 1, row.join(" ")));
    }
    out.push('\n');
    let mut facts: Vec<(&str, String)> = Vec::new();
    let names: Vec<&str> = e.evaluators.iter().map(|v| v.evaluator).collect();
    facts.push((
        "status",
        if e.agree {
            format!(
                "{} (all four evaluators: {})",
                e.evaluators[0].status,
                names.join(", ")
            )
        } else {
            let each: Vec<String> = e
                .evaluators
                .iter()
                .map(|v| format!("{}: {}", v.evaluator, v.status))
                .collect();
            format!("{} (the evaluators disagree)", each.join("; "))
        },
    ));
    facts.push((
        "setup",
        match e.setup.as_deref() {
            Some("none") => "no T".to_string(),
            Some(s) => {
                let sq: u32 = s.parse().unwrap_or(0);
                format!(
                    "T on square {s} (row {}, column {})",
                    sq / 4 + 1,
                    sq % 4 + 1
                )
            }
            None => "none: more than one T".to_string(),
        },
    ));
    facts.push((
        "ply",
        format!("{} ({} X, {} O)", e.ply, e.x_stones, e.o_stones),
    ));
    let over = e.status.is_some_and(|s| s.is_over());
    facts.push((
        "to move",
        match e.to_move {
            Some(p) if over => format!("{p} (but the game is over)"),
            Some(p) => p.to_string(),
            None => "nobody: the stone counts fit no turn order".to_string(),
        },
    ));
    if e.reachable {
        facts.push(("reachable", "yes".to_string()));
    } else {
        facts.push(("reachable", "no".to_string()));
        for (i, r) in e.reasons.iter().enumerate() {
            facts.push((if i == 0 { "why" } else { "" }, r.clone()));
        }
    }
    if let Some(p) = &e.play {
        let mover = e.to_move.unwrap_or('X');
        facts.push((
            "value",
            if over {
                format!(
                    "{} for {mover}: the game is over ({})",
                    p.value.outcome.word(),
                    e.status.map(|s| s.answer()).unwrap_or_default()
                )
            } else {
                format!(
                    "{} for {mover}: the game ends in {} under perfect play",
                    p.value.outcome.word(),
                    plural(p.value.distance as u64, "ply", "plies")
                )
            },
        ));
        facts.push((
            "sequences",
            format!(
                "{} from the empty board {}",
                plural(p.sequences, "move order", "move orders"),
                if p.sequences == 1 {
                    "reaches it"
                } else {
                    "reach it"
                }
            ),
        ));
        facts.push((
            "games",
            format!(
                "{} through it: {} X won, {} O won, {} drawn",
                plural(
                    p.games.total(),
                    "complete game passes",
                    "complete games pass"
                ),
                grouped(p.games.x_won as u128),
                grouped(p.games.o_won as u128),
                grouped(p.games.draw as u128)
            ),
        ));
    }
    facts.push((
        "orbit",
        format!(
            "{} under the {} symmetries of the lines; smallest {}",
            plural(e.orbit.size as u64, "board", "boards"),
            e.orbit.group_order,
            explain::rows_text(e.orbit.smallest)
        ),
    ));
    let width = facts.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    for (k, v) in &facts {
        out.push_str(&format!("{k:<width$}  {v}\n"));
    }
    if let Some(p) = &e.play
        && !p.moves.is_empty()
    {
        out.push_str(&format!(
            "\nMoves for {}, best first (result for the mover, plies to the end):\n",
            e.to_move.unwrap_or('X')
        ));
        out.push_str(&moves_table(e, true).render());
    }
    out
}
