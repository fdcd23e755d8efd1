//! `tomek problem` (the built-in descriptions) and `--problem NAME|FILE`: every command's path
//! for a problem of the family other than Code Jam's, which keeps its own specialised path.

use anyhow::Context;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tomek::output::{AtomicFile, Format, Table, grouped};
use tomek::problem::facts::Values;
use tomek::problem::mutants::{self, Catalogue, Mutant};
use tomek::problem::sample::{self, Profile};
use tomek::problem::{BUILTIN, Cases, Problem, judge, layout};
use tomek::tictactoe::check::Verdict;
use tomek::tictactoe::codejam::Strictness;
use tomek::tictactoe::solver::process::{self, Ending, Limits, Run};

/// `--problem`: which problem of the family a command works on.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ProblemArg {
    /// The problem: a built-in name (`tomek problem list`) or a description file (TOML).
    /// Code Jam's Tic-Tac-Toe-Tomek (`tomek`) without it.
    #[arg(long, value_name = "NAME|FILE", global = false)]
    pub problem: Option<String>,
}

impl ProblemArg {
    /// The problem asked for, unless it is Code Jam's (served by the command's own path).
    pub fn family(&self) -> anyhow::Result<Option<Problem>> {
        let Some(name) = &self.problem else {
            return Ok(None);
        };
        let p = Problem::load(name)?;
        Ok((!p.is_tomek()).then_some(p))
    }
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Sub,
}

#[derive(clap::Subcommand, Debug)]
pub enum Sub {
    /// List the built-in problems.
    List {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Print a problem's description (a built-in's, to start a description of your own).
    Show {
        /// A built-in name or a description file.
        name: String,
    },
    /// Check a description: its fields, and its verdicts against the whole input space.
    Check {
        /// A description file.
        file: String,
    },
}

#[derive(Serialize)]
struct ListRow {
    name: String,
    title: String,
    source: String,
    board: String,
    input: &'static str,
    answers: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Sub::List { format } => {
            let rows: Vec<ListRow> = BUILTIN
                .iter()
                .map(|(n, _)| {
                    let p = Problem::builtin(n).expect("built in");
                    let g = &p.geometry;
                    ListRow {
                        name: p.name.clone(),
                        title: p.title.clone(),
                        source: p.source.clone(),
                        board: format!(
                            "{}×{}, {} in a row{}",
                            g.rows,
                            g.cols,
                            g.line,
                            if g.joker { ", joker" } else { "" }
                        ),
                        input: match p.space {
                            tomek::problem::InputSpace::Reachable => "reachable",
                            tomek::problem::InputSpace::EveryGrid => "every grid",
                        },
                        answers: p.answers().iter().map(|s| s.to_string()).collect(),
                    }
                })
                .collect();
            match format {
                Format::Json => outln!("{}", serde_json::to_string_pretty(&rows)?),
                Format::Csv => {
                    outln!("name,title,source,board,input,answers");
                    for r in &rows {
                        outln!(
                            "{},{},{},{},{},{}",
                            csv(&r.name),
                            csv(&r.title),
                            csv(&r.source),
                            csv(&r.board),
                            r.input,
                            csv(&r.answers.join(" | "))
                        );
                    }
                }
                Format::Table => {
                    let mut t = Table::new(["name", "problem", "board", "input", "answers"]);
                    for r in &rows {
                        t.push([
                            r.name.clone(),
                            format!("{} ({})", r.title, r.source),
                            r.board.clone(),
                            r.input.to_string(),
                            r.answers.join(" | "),
                        ]);
                    }
                    out!("{}", t.render());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Sub::Show { name } => {
            let p = Problem::load(&name)?;
            out!("{}", p.text);
            Ok(ExitCode::SUCCESS)
        }
        Sub::Check { file } => {
            let text =
                std::fs::read_to_string(&file).with_context(|| format!("cannot read {file}"))?;
            // A file is checked in full even when it equals a built-in.
            let p = tomek::problem::description::parse(&file, &text)?;
            p.check_rules()?;
            outln!(
                "{file}: {} ({}): {} verdicts over {} positions",
                p.name,
                p.title,
                p.verdicts.len(),
                grouped(p.positions().len() as u128)
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn csv(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Reads a whole input, naming it.
fn read_all(path: &Path) -> anyhow::Result<(Vec<u8>, String)> {
    let (mut r, name) =
        super::open_input(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut buf = Vec::new();
    r.read_to_end(&mut buf)
        .with_context(|| format!("cannot read {name}"))?;
    Ok((buf, name))
}

use std::io::Read;

/// Writes `bytes` to `path` atomically.
fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut f =
        AtomicFile::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    f.write_all(bytes)?;
    f.commit()?;
    Ok(())
}

/// `tomek solve --problem`: the answers to an input.
pub fn solve(p: &Problem, input: Option<&Path>, output: Option<&Path>) -> anyhow::Result<ExitCode> {
    let path = input.unwrap_or(Path::new("-"));
    let (text, name) = read_all(path)?;
    let parsed = match layout::read(p, &name, &text, Strictness::Lenient) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("{e}");
            return Ok(ExitCode::from(2));
        }
    };
    let answers = judge::answers(p, &parsed);
    match output {
        Some(o) => write_file(o, &answers)?,
        None => {
            use std::io::Write;
            std::io::stdout().lock().write_all(&answers)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `tomek validate --problem`: exit 0 valid, 1 invalid.
pub fn validate(
    p: &Problem,
    path: &Path,
    dataset: Option<&str>,
    format: Format,
) -> anyhow::Result<ExitCode> {
    let (text, name) = read_all(path)?;
    match judge::validate(p, &name, &text, dataset) {
        Ok(v) => {
            match format {
                Format::Json => outln!(
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({
                        "file": name,
                        "problem": p.name,
                        "valid": true,
                        "cases": v.cases,
                        "datasets": v.datasets,
                        "answers": v.per_answer.iter().map(|(a, n)| serde_json::json!({"answer": a, "cases": n})).collect::<Vec<_>>(),
                    }))?
                ),
                Format::Csv => {
                    outln!("answer,cases");
                    for (a, n) in &v.per_answer {
                        outln!("{},{n}", csv(a));
                    }
                }
                Format::Table => {
                    outln!(
                        "{name}: valid {} input, {} cases (datasets: {})",
                        p.name,
                        grouped(v.cases as u128),
                        v.datasets.join(", ")
                    );
                    let mut t = Table::new(["answer", "cases"]);
                    for (a, n) in &v.per_answer {
                        t.push([a.clone(), grouped(*n as u128)]);
                    }
                    out!("{}", t.render());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("{e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// `tomek check --problem`: judges an output (testlib exit codes).
pub fn check(p: &Problem, input: &Path, answers: &Path, output: &Path) -> anyhow::Result<ExitCode> {
    let read = |path: &Path| -> Result<(Vec<u8>, String), String> {
        read_all(path).map_err(|e| format!("{e:#}"))
    };
    let verdict = match (read(input), read(answers), read(output)) {
        (Ok((i, ni)), Ok((a, na)), Ok((o, no))) => {
            judge::check(p, (&ni, &i), Some((&na, &a)), (&no, &o))
        }
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Verdict::Fail(e),
    };
    eprintln!("{verdict}");
    Ok(ExitCode::from(verdict.code()))
}

/// The generic profile a Code Jam profile name stands for.
pub fn profile(name: tomek::tictactoe::sample::Profile) -> anyhow::Result<Profile> {
    use tomek::tictactoe::sample::Profile as P;
    Ok(match name {
        P::Uniform => Profile::Uniform,
        P::Balanced => Profile::Balanced,
        P::Killer => Profile::Killer,
        P::Exhaustive => Profile::All,
        P::Contest => Profile::Contest,
        other => anyhow::bail!(
            "--profile {}: Code Jam's only; a problem of the family has uniform, balanced, \
             killer, contest and exhaustive",
            other.name()
        ),
    })
}

/// `tomek generate --problem`: a test file (or, for one case per file, a file per case) and
/// its answers.
pub fn generate(
    p: &Problem,
    profile: Profile,
    cases: Option<u64>,
    dataset: Option<&str>,
    seed: u64,
    output: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let bound = match dataset {
        Some(name) => Some(
            p.datasets
                .iter()
                .find(|d| d.name == name)
                .with_context(|| format!("--dataset: {} has no dataset `{name}`", p.name))?,
        ),
        None => None,
    };
    let single = p.layout.cases == Cases::Single;
    let max = p.datasets.iter().map(|d| d.max).max().unwrap_or(1);
    let n = cases
        .or(bound.map(|d| d.max))
        .unwrap_or(if single { 1 } else { 10.min(max) });
    // The family's files are made whole in memory: ten million cases is far past any judge's.
    const MAX_CASES: u64 = 10_000_000;
    if !(1..=MAX_CASES).contains(&n) {
        anyhow::bail!("--cases: give a whole number from 1 to {MAX_CASES}");
    }
    let boards = sample::draw(p, profile, n, seed);
    if single {
        let Some(prefix) = output else {
            if boards.len() != 1 {
                anyhow::bail!(
                    "{} has one case per file: give -o PREFIX to write PREFIX.N.in and \
                     PREFIX.N.ans for each of the {} cases",
                    p.name,
                    boards.len()
                );
            }
            out!(
                "{}",
                String::from_utf8_lossy(&layout::input_text(p, &boards))
            );
            return Ok(ExitCode::SUCCESS);
        };
        let mut values = Values::new();
        let width = boards.len().to_string().len();
        for (i, &b) in boards.iter().enumerate() {
            let stem = format!("{}.{:0width$}", prefix.display(), i + 1);
            let mut ans = Vec::new();
            let v = p.verdict(b, &mut values);
            layout::push_answer(p, 1, &p.verdicts[v].answer, &mut ans);
            write_file(
                &PathBuf::from(format!("{stem}.in")),
                &layout::input_text(p, &[b]),
            )?;
            write_file(&PathBuf::from(format!("{stem}.ans")), &ans)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let count = boards.len() as u64;
    if let Some(d) = bound
        && !(d.min..=d.max).contains(&count)
    {
        anyhow::bail!(
            "{count} cases are outside the {} dataset's bounds ({} to {})",
            d.name,
            d.min,
            d.max
        );
    }
    let input = layout::input_text(p, &boards);
    match output {
        Some(prefix) => {
            let parsed = layout::read(p, "generated", &input, Strictness::Strict).map_err(|e| {
                anyhow::anyhow!("internal: the generated input does not read back: {e}")
            })?;
            let answers = judge::answers(p, &parsed);
            let with = |ext: &str| {
                let mut s = prefix.as_os_str().to_owned();
                s.push(ext);
                PathBuf::from(s)
            };
            write_file(&with(".in"), &input)?;
            write_file(&with(".ans"), &answers)?;
        }
        None => {
            use std::io::Write;
            std::io::stdout().lock().write_all(&input)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct Stats {
    problem: String,
    positions: u64,
    answers: Vec<AnswerCount>,
    by_ply: Vec<PlyRow>,
    killer_set: usize,
    mutants: Vec<MutantRow>,
}

#[derive(Serialize)]
struct AnswerCount {
    answer: String,
    positions: u64,
}

#[derive(Serialize)]
struct PlyRow {
    ply: u32,
    positions: u64,
    answers: Vec<u64>,
}

#[derive(Serialize)]
struct MutantRow {
    mutant: &'static str,
    bug: &'static str,
    positions_failed: u64,
}

/// `tomek stats --problem`: the input space by answer and by ply, and the catalogue's reach.
pub fn stats(p: &Problem, format: Format) -> anyhow::Result<ExitCode> {
    let answers: Vec<String> = p.answers().iter().map(|s| s.to_string()).collect();
    let mut values = Values::new();
    let mut catalogue = Catalogue::new(p);
    let mut per_answer = vec![0u64; answers.len()];
    let mut by_ply: Vec<PlyRow> = Vec::new();
    let mut failed = [0u64; Mutant::ALL.len()];
    let positions = p.positions();
    for &b in &positions {
        let v = p.verdict(b, &mut values);
        let a = &p.verdicts[v].answer;
        let k = answers.iter().position(|x| x == a).expect("an answer");
        per_answer[k] += 1;
        let ply = b.ply();
        while by_ply.len() <= ply as usize {
            let ply = by_ply.len() as u32;
            by_ply.push(PlyRow {
                ply,
                positions: 0,
                answers: vec![0; answers.len()],
            });
        }
        by_ply[ply as usize].positions += 1;
        by_ply[ply as usize].answers[k] += 1;
        let kills = catalogue.kills(b, a);
        for (i, f) in failed.iter_mut().enumerate() {
            *f += u64::from(kills >> i & 1);
        }
    }
    let killer = mutants::killer_set(p);
    let stats = Stats {
        problem: p.name.clone(),
        positions: positions.len() as u64,
        answers: answers
            .iter()
            .zip(&per_answer)
            .map(|(a, &n)| AnswerCount {
                answer: a.clone(),
                positions: n,
            })
            .collect(),
        by_ply,
        killer_set: killer.boards.len(),
        mutants: Mutant::ALL
            .iter()
            .zip(failed)
            .map(|(m, n)| MutantRow {
                mutant: m.id(),
                bug: m.description(),
                positions_failed: n,
            })
            .collect(),
    };
    match format {
        Format::Json => outln!("{}", serde_json::to_string_pretty(&stats)?),
        Format::Csv => {
            outln!(
                "ply,positions,{}",
                answers.iter().map(|a| csv(a)).collect::<Vec<_>>().join(",")
            );
            for r in &stats.by_ply {
                let cols: Vec<String> = r.answers.iter().map(u64::to_string).collect();
                outln!("{},{},{}", r.ply, r.positions, cols.join(","));
            }
        }
        Format::Table => {
            outln!(
                "{} ({}): {} positions in the input space",
                p.name,
                p.title,
                grouped(stats.positions as u128)
            );
            outln!();
            let mut header = vec!["ply".to_string(), "positions".to_string()];
            header.extend(answers.iter().cloned());
            let mut t = Table::new(header);
            for r in &stats.by_ply {
                let mut row = vec![r.ply.to_string(), grouped(r.positions as u128)];
                row.extend(r.answers.iter().map(|&n| grouped(n as u128)));
                t.push(row);
            }
            let mut total = vec!["all".to_string(), grouped(stats.positions as u128)];
            total.extend(per_answer.iter().map(|&n| grouped(n as u128)));
            t.push(total);
            out!("{}", t.render());
            outln!();
            let mut t = Table::new(["wrong solution", "bug", "positions it fails"]);
            for m in &stats.mutants {
                t.push([
                    m.mutant.to_string(),
                    m.bug.to_string(),
                    grouped(m.positions_failed as u128),
                ]);
            }
            out!("{}", t.render());
            outln!();
            outln!(
                "killer set: {} positions catch every wrong solution that fails anywhere \
                 (`tomek generate --problem {} --profile killer`)",
                stats.killer_set,
                p.name
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `tomek explain --problem`: the facts and the answer of one board, given in the problem's
/// symbols (rows joined by `/`, or all squares in reading order).
pub fn explain(p: &Problem, board: &str, format: Format) -> anyhow::Result<ExitCode> {
    let e = judge::explain(p, board).map_err(|e| anyhow::anyhow!("{e}"))?;
    match format {
        Format::Json | Format::Csv => outln!("{}", serde_json::to_string_pretty(&e)?),
        Format::Table => {
            outln!("{} ({})", p.name, p.title);
            for row in e.board.split('/') {
                outln!("  {row}");
            }
            outln!("facts: {}", e.facts);
            if let Some(r) = &e.unreachable_because {
                outln!("unreachable: {r}");
            }
            match &e.answer {
                Some(a) => outln!("answer: {a}"),
                None => outln!("answer: none (not in the input space: the validator rejects it)"),
            }
            for w in &e.wrong_solutions_failing {
                outln!("  caught: {} answers {}", w.mutant, w.answers);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `tomek audit --problem` without a solver: each wrong solution of the catalogue against the
/// right answers over the whole input space, and the killer set that catches them.
pub fn audit(p: &Problem, format: Format) -> anyhow::Result<ExitCode> {
    stats(p, format)
}

/// `tomek audit --problem --solver`: runs a solver program on every position of the input
/// space, in files of the problem's layout (one case per run for one-case problems), under the
/// judge's limits, and judges each output as the judge would.
pub fn audit_solver(
    p: &Problem,
    command: &str,
    limits: Limits,
    timeout: Duration,
    max_failures: u64,
) -> anyhow::Result<ExitCode> {
    use rayon::prelude::*;
    let positions = p.positions();
    let chunk = if p.layout.cases == Cases::Single {
        1
    } else {
        p.datasets.iter().map(|d| d.max).max().unwrap_or(1) as usize
    };
    let dir = tempdir()?;
    let chunks: Vec<&[tomek::tictactoe::board::Board]> = positions.chunks(chunk).collect();
    // From here on Ctrl-C stops the solvers and the audit rather than this process alone.
    tomek::interrupt::poll();
    let stop = tomek::interrupt::requested;
    let failures: Vec<(usize, String)> = chunks
        .par_iter()
        .enumerate()
        .filter_map(|(i, boards)| {
            let input = layout::input_text(p, boards);
            let in_path = dir.join(format!("run{i}.in"));
            let out_path = dir.join(format!("run{i}.out"));
            if let Err(e) = std::fs::write(&in_path, &input) {
                return Some((i, format!("cannot write {}: {e}", in_path.display())));
            }
            let mut output = Vec::new();
            let mut buf = Vec::new();
            let run = Run {
                command,
                stdin: Some(&in_path),
                stdout: &out_path,
                limit: 64 << 20,
                deadline: Instant::now() + timeout,
                limits,
            };
            let finished = process::run(
                &run,
                &stop,
                &mut |bytes| {
                    output.extend_from_slice(bytes);
                    true
                },
                &mut buf,
            );
            let _ = std::fs::remove_file(&in_path);
            let _ = std::fs::remove_file(&out_path);
            match finished.ending {
                Ending::Exited(0) => {}
                Ending::Exited(code) => {
                    return Some((i, format!("the solver exited with code {code}")));
                }
                Ending::TimedOut => {
                    return Some((
                        i,
                        format!("over the time limit ({} s)", timeout.as_secs_f64()),
                    ));
                }
                other => return Some((i, format!("the run ended: {other:?}"))),
            }
            match judge::check(p, ("input", &input), None, ("output", &output)) {
                Verdict::Accepted(_) => None,
                v => {
                    let msg = v.to_string();
                    // Name the board of the case the verdict names.
                    let n: Option<usize> = msg
                        .split_once("case ")
                        .and_then(|(_, r)| r.split(':').next())
                        .and_then(|d| d.parse().ok());
                    let board = match n.and_then(|n| boards.get(n - 1)) {
                        Some(&b) => format!(" [board {}]", p.grid_text(b)),
                        None => String::new(),
                    };
                    Some((i, format!("{msg}{board}")))
                }
            }
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    let total = positions.len();
    if failures.is_empty() {
        outln!(
            "{command}: accepted on all {} positions of {} ({} runs)",
            grouped(total as u128),
            p.name,
            chunks.len()
        );
        Ok(ExitCode::SUCCESS)
    } else {
        outln!(
            "{command}: {} of {} runs failed on {}",
            failures.len(),
            chunks.len(),
            p.name
        );
        for (i, msg) in failures.iter().take(max_failures as usize) {
            outln!(
                "  run {} (cases {}-{}): {msg}",
                i + 1,
                i * chunk + 1,
                ((i + 1) * chunk).min(total)
            );
        }
        Ok(ExitCode::from(1))
    }
}

fn tempdir() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("tomek-audit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(dir)
}
