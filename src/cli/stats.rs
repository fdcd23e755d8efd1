use super::{GeometryArgs, SetupFilter};
use std::process::ExitCode;
use tomek::outcome::Status;
use tomek::output::{Format, Table, grouped};
use tomek::tictactoe::stats::{self, Sections, Stats};
use tomek::tictactoe::symmetry::Symmetry;

/// Which parts of the statistics to compute.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Part {
    /// Reachable boards by setup, status and ply (always computed).
    Counts,
    /// Complete games (move sequences) by outcome and length.
    Games,
    /// Values under perfect play.
    Values,
    /// Boards up to symmetry.
    Symmetry,
}

/// Which table CSV output holds (JSON holds them all).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum View {
    /// One row per setup.
    Setups,
    /// One row per ply, over the selected setups.
    Plies,
    /// One row per status, counted up to symmetry.
    Orbits,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub problem: super::problem::ProblemArg,
    #[command(flatten)]
    pub setup: SetupFilter,
    /// Show only this status: x, o, draw or open.
    #[arg(long, value_parser = super::parse_status)]
    pub status: Option<Status>,
    /// Compute only these parts (comma-separated); all by default.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub only: Vec<Part>,
    /// Which symmetries identify boards in the orbit counts.
    #[arg(long, value_enum, default_value_t = Symmetry::Full)]
    pub symmetry: Symmetry,
    /// Also print the tables by ply.
    #[arg(long)]
    pub by_ply: bool,
    /// With --problem: also run the catalogue of wrong solutions over the whole input space
    /// (how many positions each one fails on) and find the killer set. Seconds on a 3×3 board,
    /// minutes on a 4×4 space of perfect play.
    #[arg(long)]
    pub mutants: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// The table written as CSV.
    #[arg(long, value_enum, default_value_t = View::Setups)]
    pub view: View,
    #[command(flatten)]
    pub geometry: GeometryArgs,
    /// Also draw the counts by ply (stacked by status) and the perfect-play values by ply as
    /// an SVG figure into this file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(p) = args.problem.family()? {
        return super::problem::stats(&p, args.format, args.mutants);
    }
    let g = args.geometry.build()?;
    let setups = args.setup.setups(&g)?;
    let wants = |p: Part| args.only.is_empty() || args.only.contains(&p);
    let sections = Sections {
        games: wants(Part::Games),
        values: wants(Part::Values),
        symmetry: wants(Part::Symmetry).then_some(args.symmetry),
    };
    if args.format == Format::Csv && args.view == View::Orbits && sections.symmetry.is_none() {
        anyhow::bail!("--view orbits is the symmetry table: --only must include symmetry");
    }
    if args.plot.is_some() && !sections.values {
        anyhow::bail!("--plot draws the values by ply: --only must include values");
    }
    let pb = super::progress::bar(setups.len() as u64, "setups");
    let stats = stats::analyze_with(&g, &setups, sections, |n| pb.inc(n));
    pb.finish_and_clear();
    if let Some(path) = &args.plot {
        let names: Vec<String> = setups.iter().map(|&t| stats::setup_name(t)).collect();
        let which = if setups == g.setups() {
            format!("all {} setups", setups.len())
        } else if let [one] = names.as_slice() {
            format!("setup {one}")
        } else {
            format!("setups {}", names.join(", "))
        };
        super::plot::write(path, &super::plot::stats_svg(&stats, &which)?)?;
    }
    let statuses: Vec<Status> = match args.status {
        Some(s) => vec![s],
        None => Status::ALL.to_vec(),
    };
    let tables = Tables::build(&stats, &statuses);
    let out = match args.format {
        Format::Table => tables.render(&stats, &statuses, args.by_ply),
        Format::Csv => match args.view {
            View::Setups => tables.setups.csv(),
            View::Plies => tables.plies.csv(),
            View::Orbits => tables
                .orbits
                .as_ref()
                .map(Table::csv)
                .expect("the symmetry part is computed for --view orbits"),
        },
        Format::Json => tables.json(&stats)?,
    };
    out!("{out}");
    Ok(ExitCode::SUCCESS)
}

/// The statistics as tables: the same rows feed the aligned text, CSV and JSON.
struct Tables {
    setups: Table,
    plies: Table,
    orbits: Option<Table>,
}

fn status_label(s: Status) -> &'static str {
    match s {
        Status::XWon => "x_won",
        Status::OWon => "o_won",
        Status::Draw => "draw",
        Status::Open => "open",
    }
}

impl Tables {
    fn build(stats: &Stats, statuses: &[Status]) -> Tables {
        let games_on = stats.total.games.is_some();
        let values_on = stats.total.side_to_move.is_some();
        let outcomes: Vec<Status> = statuses.iter().copied().filter(|s| s.is_over()).collect();
        let mut header = vec!["setup".to_string()];
        header.extend(
            statuses
                .iter()
                .map(|s| format!("boards_{}", status_label(*s))),
        );
        if statuses.len() > 1 {
            header.push("boards_total".into());
        }
        if games_on {
            header.extend(
                outcomes
                    .iter()
                    .map(|s| format!("games_{}", status_label(*s))),
            );
            if outcomes.len() > 1 {
                header.push("games_total".into());
            }
        }
        if values_on {
            header.extend(
                ["value", "to_move_wins", "to_move_draws", "to_move_loses"].map(String::from),
            );
        }
        let mut setups = Table::new(header);
        for s in stats.setups.iter().chain(std::iter::once(&stats.total)) {
            let mut row = vec![s.setup.clone()];
            row.extend(statuses.iter().map(|&st| s.boards[st].to_string()));
            if statuses.len() > 1 {
                row.push(s.boards.total().to_string());
            }
            if let Some(games) = s.games {
                row.extend(outcomes.iter().map(|&st| games[st].to_string()));
                if outcomes.len() > 1 {
                    row.push(games.total().to_string());
                }
            }
            if let Some(w) = s.side_to_move {
                row.push(s.value.clone().unwrap_or_else(|| "-".into()));
                row.extend([w.win, w.draw, w.loss].map(|v| v.to_string()));
            }
            setups.rows.push(row);
        }

        let mut header = vec!["ply".to_string()];
        header.extend(
            statuses
                .iter()
                .map(|s| format!("boards_{}", status_label(*s))),
        );
        if stats.total.games_by_ply.is_some() {
            header.extend(
                outcomes
                    .iter()
                    .map(|s| format!("games_{}", status_label(*s))),
            );
        }
        let mut plies = Table::new(header);
        for (ply, b) in stats.total.boards_by_ply.iter().enumerate() {
            if b.total() == 0 {
                continue;
            }
            let mut row = vec![ply.to_string()];
            row.extend(statuses.iter().map(|&st| b[st].to_string()));
            if let Some(g) = &stats.total.games_by_ply {
                row.extend(outcomes.iter().map(|&st| g[ply][st].to_string()));
            }
            plies.rows.push(row);
        }

        let orbits = stats.orbits.as_ref().map(|o| {
            let mut t = Table::new(["status", "boards", "orbits"]);
            let rows = statuses.iter().map(|&st| (status_label(st), st));
            for (name, st) in rows {
                t.push([
                    name.to_string(),
                    stats.total.boards[st].to_string(),
                    o.boards[st].to_string(),
                ]);
            }
            if statuses.len() > 1 {
                t.push([
                    "total".to_string(),
                    stats.total.boards.total().to_string(),
                    o.boards.total().to_string(),
                ]);
            }
            t
        });
        Tables {
            setups,
            plies,
            orbits,
        }
    }

    /// Human tables: numbers grouped by thousands, headings in words.
    fn render(&self, stats: &Stats, statuses: &[Status], by_ply: bool) -> String {
        let mut out = format!(
            "{}×{} board, {} in a row, {}\n\n",
            stats.rows,
            stats.cols,
            stats.line,
            if !stats.joker {
                "no T"
            } else if stats.setups.iter().all(|s| s.t == 0) {
                "setup none (no T)"
            } else if stats.setups.iter().all(|s| s.t != 0) {
                "with a T"
            } else {
                "with the T setups"
            }
        );
        let sections: [(&str, &[&str]); 3] = [
            ("Reachable boards, by status:", &["boards_"]),
            ("Complete games (move sequences), by outcome:", &["games_"]),
            (
                "Perfect play: the game's value, and the reachable boards won, drawn or lost for the side to move:",
                &["value", "to_move_"],
            ),
        ];
        for (i, (title, prefixes)) in sections.into_iter().enumerate() {
            let part = columns(&self.setups, prefixes);
            if part.header.len() > 1 {
                if i > 0 {
                    out.push('\n');
                }
                out.push_str(title);
                out.push('\n');
                out.push_str(&human(&part).render());
            }
        }
        if by_ply {
            out.push_str("\nBy ply (stones placed), over the selected setups:\n");
            out.push_str(&human(&self.plies).render());
        }
        if let (Some(t), Some(o)) = (&self.orbits, &stats.orbits) {
            let group = match o.symmetry {
                Symmetry::Full => "all symmetries of the lines",
                Symmetry::Dihedral => "rotations and reflections",
            };
            out.push_str(&format!(
                "\nUp to symmetry ({group}: a group of {}):\n",
                o.group_order
            ));
            out.push_str(&human(t).render());
        }
        if let [only] = statuses {
            out.push_str(&format!(
                "\n{} reachable boards with status \"{}\" over the selected setups.\n",
                grouped(stats.total.boards[*only] as u128),
                only.answer()
            ));
        }
        out
    }

    fn json(&self, stats: &Stats) -> anyhow::Result<String> {
        let to_objects = |t: &Table| -> Vec<serde_json::Value> {
            t.rows
                .iter()
                .map(|row| {
                    let map = t.header.iter().zip(row).map(|(k, v)| {
                        let value = v
                            .parse::<u64>()
                            .map(serde_json::Value::from)
                            .unwrap_or_else(|_| serde_json::Value::from(v.clone()));
                        (k.clone(), value)
                    });
                    serde_json::Value::Object(map.collect())
                })
                .collect()
        };
        let mut doc = serde_json::json!({
            "geometry": { "rows": stats.rows, "cols": stats.cols, "line": stats.line, "joker": stats.joker },
            "setups": to_objects(&self.setups),
            "plies": to_objects(&self.plies),
        });
        if let (Some(t), Some(o)) = (&self.orbits, &stats.orbits) {
            doc["symmetry"] = serde_json::json!({
                "group": o.symmetry, "group_order": o.group_order, "by_status": to_objects(t)
            });
        }
        Ok(serde_json::to_string_pretty(&doc)? + "\n")
    }
}

/// The first column of a table and the columns whose names start with one of `prefixes`.
fn columns(t: &Table, prefixes: &[&str]) -> Table {
    let keep: Vec<usize> = (0..t.header.len())
        .filter(|&i| i == 0 || prefixes.iter().any(|p| t.header[i].starts_with(p)))
        .collect();
    Table {
        header: keep.iter().map(|&i| t.header[i].clone()).collect(),
        rows: t
            .rows
            .iter()
            .map(|r| keep.iter().map(|&i| r[i].clone()).collect())
            .collect(),
    }
}

/// A copy of a table for people: words in the header, thousands grouped.
fn human(t: &Table) -> Table {
    let header = t.header.iter().map(|h| h.replace('_', " ")).collect();
    let rows = t
        .rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| c.parse::<u128>().map(grouped).unwrap_or_else(|_| c.clone()))
                .collect()
        })
        .collect();
    Table { header, rows }
}
