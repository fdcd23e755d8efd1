//! `tomek problem` (the built-in descriptions) and `--problem NAME|FILE`: every command's path
//! for a problem of the family other than Code Jam's, which keeps its own specialised path.

use anyhow::Context;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tomek::output::{AtomicFile, Format, Table, grouped};
use tomek::problem::mutants::{self, Catalogue};
use tomek::problem::sample::{self, Profile};
use tomek::problem::{BUILTIN, Cases, Problem, judge, layout};
use tomek::tictactoe::check::Verdict;
use tomek::tictactoe::codejam::{AnswerWords, Strictness};

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
        self.family_by(Problem::load)
    }

    /// [`ProblemArg::family`] for work on one position: a description's rules are tried on
    /// that position only (`tomek problem check FILE` tries them on every one).
    pub fn family_for_one(&self) -> anyhow::Result<Option<Problem>> {
        self.family_by(Problem::load_unchecked)
    }

    /// Which path serves the problem asked for: Code Jam's, with the answer words of the
    /// description (Code Jam's own without `--problem`), for a description that judges as
    /// Code Jam's does but for its words ([`Problem::code_jam_words`]); the family's for any
    /// other.
    pub fn served(&self) -> anyhow::Result<Served> {
        let Some(name) = &self.problem else {
            return Ok(Served::CodeJam(AnswerWords::CODE_JAM));
        };
        let p = Problem::load(name)?;
        warn_if_shadowing(&p);
        Ok(match p.code_jam_words() {
            Some(words) => Served::CodeJam(words),
            None => Served::Family(Box::new(p)),
        })
    }

    fn family_by(
        &self,
        load: fn(&str) -> Result<Problem, tomek::problem::LoadError>,
    ) -> anyhow::Result<Option<Problem>> {
        let Some(name) = &self.problem else {
            return Ok(None);
        };
        let p = load(name)?;
        warn_if_shadowing(&p);
        Ok((!p.is_tomek()).then_some(p))
    }
}

/// Warns, on standard error, when a description file bears a built-in's name: `--problem
/// NAME` means the built-in, and the files made from the description say so.
pub fn warn_if_shadowing(p: &Problem) {
    if p.shadows_a_builtin() {
        eprintln!(
            "tomek: warning: {} is named {}, as a built-in problem is; `--problem {}` means the \
             built-in: give the file's path, or rename the problem (its `name`)",
            p.origin, p.name, p.name
        );
    }
}

/// The path a command takes for the problem asked for (see [`ProblemArg::served`]).
pub enum Served {
    /// Code Jam's specialised path, printing these answers.
    CodeJam(AnswerWords),
    /// The family's path.
    Family(Box<Problem>),
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
            let positions = p.check_rules()?;
            outln!(
                "{file}: {} ({}): {} verdicts over {} positions",
                p.name,
                p.title,
                p.verdicts.len(),
                grouped(positions as u128)
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
        P::Edge => Profile::Edge,
        P::Exhaustive => Profile::All,
        P::Contest => Profile::Contest,
        other => anyhow::bail!(
            "--profile {}: Code Jam's only; a problem of the family has uniform, balanced, \
             killer, edge, contest and exhaustive",
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
    let boards = drawn(p, profile, n, seed);
    if single {
        let Some(prefix) = output else {
            if boards.len() != 1 {
                anyhow::bail!(
                    "{} has one case per file: give -o PREFIX to write PREFIX.N.in and \
                     PREFIX.N.out for each of the {} cases",
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
        let mut values = p.values();
        let width = boards.len().to_string().len();
        for (i, &b) in boards.iter().enumerate() {
            let stem = format!("{}.{:0width$}", prefix.display(), i + 1);
            let mut ans = Vec::new();
            layout::push_answer(p, 1, &p.answer(b, &mut values), &mut ans);
            write_file(
                &PathBuf::from(format!("{stem}.in")),
                &layout::input_text(p, &[b]),
            )?;
            write_file(&PathBuf::from(format!("{stem}.out")), &ans)?;
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
            write_file(&with(".out"), &answers)?;
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
    /// The catalogue's reach, when asked for (`--mutants`).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    catalogue: Option<CatalogueReach>,
}

/// What the catalogue of wrong solutions does over the input space.
#[derive(Serialize)]
struct CatalogueReach {
    killer_set: usize,
    /// Mutants in the catalogue, and those some position catches.
    mutants_total: usize,
    mutants_killable: usize,
    /// Feasible combinations of facts the killer set shows.
    coverage_cells: usize,
    /// Guard coverage: (line, square off it, state of the square) where the line decides the
    /// answer, held by the killer set and feasible in the input space.
    guard_cells: usize,
    guard_cells_feasible: usize,
    /// The (answer, ply) pairs the set holds: each answer at its first, middle and last ply.
    answer_plies: usize,
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
    mutant: String,
    bug: String,
    positions_failed: u64,
}

/// [`sample::draw`] under a spinner on a terminal: a killer set over a 4×4 space takes
/// seconds.
fn drawn(
    p: &Problem,
    profile: Profile,
    cases: u64,
    seed: u64,
) -> Vec<tomek::tictactoe::board::Board> {
    let pb = super::progress::status("positions");
    pb.set_message(format!("choosing the test positions of {}", p.name));
    let boards = sample::draw(p, profile, cases, seed);
    pb.finish_and_clear();
    boards
}

/// `tomek stats --problem`: the input space by answer and by ply, from one pass over it; with
/// `mutants`, also the catalogue's reach (every wrong solution on every position) and the
/// killer set.
pub fn stats(p: &Problem, format: Format, mutants: bool) -> anyhow::Result<ExitCode> {
    let answers: Vec<String> = p.answers().iter().map(|s| s.to_string()).collect();
    let mut per_answer = vec![0u64; answers.len()];
    let mut by_ply: Vec<PlyRow> = Vec::new();
    let mut add = |ply: u32, k: usize, n: u64| {
        per_answer[k] += n;
        while by_ply.len() <= ply as usize {
            let ply = by_ply.len() as u32;
            by_ply.push(PlyRow {
                ply,
                positions: 0,
                answers: vec![0; answers.len()],
            });
        }
        by_ply[ply as usize].positions += n;
        by_ply[ply as usize].answers[k] += n;
    };
    let (positions, catalogue) = if mutants {
        let mut catalogue = Catalogue::new(p);
        let mut failed = vec![0u64; catalogue.mutants.len()];
        let killer = mutants::killer_set_with(p, &mut catalogue, |b, _, a, kills| {
            add(
                b.ply(),
                answers.iter().position(|x| x == a).expect("an answer"),
                1,
            );
            for i in kills.iter() {
                failed[i] += 1;
            }
        });
        let reach = CatalogueReach {
            killer_set: killer.boards.len(),
            mutants_total: killer.mutants,
            mutants_killable: killer.killable.len(),
            coverage_cells: killer.cells.len(),
            guard_cells: killer.guards.0,
            guard_cells_feasible: killer.guards.1,
            answer_plies: killer.spread.len(),
            mutants: catalogue
                .mutants
                .iter()
                .zip(failed)
                .map(|(&m, n)| MutantRow {
                    mutant: catalogue.id(m),
                    bug: catalogue.description(m),
                    positions_failed: n,
                })
                .collect(),
        };
        (killer.positions, Some(reach))
    } else {
        let census = p.census();
        for (f, n) in &census.classes {
            let k = p.answer_index(f).expect("the rules cover the input space");
            add(f.ply, k, *n);
        }
        (census.positions(), None)
    };
    let stats = Stats {
        problem: p.name.clone(),
        positions,
        answers: answers
            .iter()
            .zip(&per_answer)
            .map(|(a, &n)| AnswerCount {
                answer: a.clone(),
                positions: n,
            })
            .collect(),
        by_ply,
        catalogue,
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
            let Some(c) = &stats.catalogue else {
                return Ok(ExitCode::SUCCESS);
            };
            outln!();
            let mut t = Table::new(["wrong solution", "bug", "positions it fails"]);
            for m in &c.mutants {
                t.push([
                    m.mutant.clone(),
                    m.bug.clone(),
                    grouped(m.positions_failed as u128),
                ]);
            }
            out!("{}", t.render());
            outln!();
            outln!(
                "catalogue: {} wrong solutions, {} of them wrong somewhere in the input space",
                c.mutants_total,
                c.mutants_killable
            );
            outln!(
                "killer set: {} positions catch every wrong solution that fails anywhere and \
                 show all {} feasible combinations of line, stone difference, full board and \
                 answer, {} of the {} (line, square off it, state of the square) where the \
                 line decides the answer, and each answer at its first, middle and last ply ({} \
                 pairs of answer and ply) (`tomek generate --problem {} --profile killer`)",
                c.killer_set,
                c.coverage_cells,
                c.guard_cells,
                c.guard_cells_feasible,
                c.answer_plies,
                p.command_arg()
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
    stats(p, format, true)
}

/// `tomek audit --problem --solver`: runs a solver program on positions of the input space
/// (every one, the most telling first, or those a profile draws), in files of the problem's
/// layout, under the judge's limits, and judges each output as the judge would.
pub fn audit_solver(
    p: &Problem,
    opts: tomek::problem::audit::Options,
    profile: Option<(Profile, u64, u64)>,
    format: Format,
) -> anyhow::Result<ExitCode> {
    use tomek::tictactoe::solver::process::interrupt;
    if opts.command.trim().is_empty() {
        anyhow::bail!("--solver: the command is empty");
    }
    interrupt::poll();
    if let Some(why) = tomek::tictactoe::solver::probe::cannot_start(
        &opts.command,
        &opts.limits,
        &interrupt::requested,
    )
    .context("cannot run the audit")?
    {
        anyhow::bail!("--solver: cannot start `{}`: {why}", opts.command);
    }
    let boards = match profile {
        Some((profile, cases, seed)) => drawn(p, profile, cases, seed),
        None => telling_first(p),
    };
    let pb = super::progress::bar(boards.len() as u64, "positions");
    let report =
        tomek::problem::audit::audit(p, &boards, &opts, &interrupt::requested, &|n| pb.inc(n))
            .context("cannot run the audit")?;
    pb.finish_and_clear();
    if report.interrupted {
        eprintln!("tomek: interrupted; every solver process was stopped");
        return Ok(ExitCode::from(130));
    }
    match format {
        Format::Json => outln!("{}", serde_json::to_string_pretty(&report)?),
        _ => out!("{}", render_audit(&report)),
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Every position of the input space, the killer set and the edge positions first: a wrong
/// solver fails within the first run.
fn telling_first(p: &Problem) -> Vec<tomek::tictactoe::board::Board> {
    let mut boards = mutants::killer_set(p).boards;
    sample::add_edge(p, &mut boards);
    let front: std::collections::HashSet<_> = boards.iter().copied().collect();
    boards.extend(p.positions().into_iter().filter(|b| !front.contains(b)));
    boards
}

/// The audit's report for people.
fn render_audit(r: &tomek::problem::audit::Report) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let g = |n: u64| grouped(n as u128);
    if r.passed() {
        let _ = writeln!(
            s,
            "{}: accepted on all {} positions of {} ({}, {:.1} s)",
            r.command,
            g(r.positions),
            r.problem,
            tomek::output::plural(r.runs, "run", "runs"),
            r.seconds
        );
        return s;
    }
    let _ = writeln!(
        s,
        "{}: {} wrong answers and {} broken runs on {} ({} of {} positions checked{})",
        r.command,
        g(r.wrong),
        g(r.broken.len() as u64),
        r.problem,
        g(r.checked),
        g(r.positions),
        if r.stopped_early {
            ", stopped at --max-failures"
        } else {
            ""
        }
    );
    for b in &r.broken {
        let _ = write!(
            s,
            "  run {} (cases {}-{}): {}",
            g(b.run),
            g(b.first_case),
            g(b.last_case),
            b.what
        );
        if let (Some(board), Some(exp)) = (&b.board, &b.expected) {
            let _ = write!(s, " [board {board}, expected `{exp}`]");
        }
        let _ = writeln!(s);
        if !b.stderr.is_empty() {
            for l in b
                .stderr
                .lines()
                .rev()
                .take(3)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
            {
                let _ = writeln!(s, "    stderr: {l}");
            }
        }
    }
    for f in &r.failures {
        let _ = writeln!(
            s,
            "  case {}: `{}` where `{}` is expected [board {}]",
            g(f.case),
            f.received,
            f.expected,
            f.board
        );
    }
    if !r.kinds.is_empty() {
        let _ = writeln!(s, "kinds of wrong answer (the smallest position of each):");
        for k in &r.kinds {
            let _ = writeln!(
                s,
                "  `{}` for `{}`: {} positions, smallest case {} [board {}, {} stones]",
                k.received,
                k.expected,
                g(k.count),
                g(k.minimal.case),
                k.minimal.board,
                k.minimal.stones
            );
        }
    }
    s
}
