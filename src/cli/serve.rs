use std::io::Write as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use tomek::fourow::bdd::encoding::Layout;
use tomek::fourow::bdd::saved::{self, LookupError, Saved};
use tomek::web::Solution;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Address to listen on; port 0 picks a free port. Any address other than loopback makes
    /// the server reachable from other machines, and is said so on start.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Open the site in the default browser once listening.
    #[arg(long)]
    pub open: bool,
    /// A strong solution saved by `tomek fourow count --method bdd --values --save DIR`: the
    /// Four in a row page then shows the win, draw or loss of every column of its board from
    /// the empty board on (the exact scores still once at most 30 cells are empty, found
    /// faster). Without it, a solution of 7×6 saved in the default place is used when there
    /// is one.
    #[arg(long, value_name = "DIR")]
    pub solution: Option<PathBuf>,
    /// The most empty cells a position may have for its columns to be searched (at most the
    /// default): lower, a small board shows what a large one gets from its solution.
    #[arg(long, value_name = "N", hide = true, default_value_t = tomek::web::MAX_SEARCH_EMPTY,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(tomek::web::MAX_SEARCH_EMPTY)))]
    pub search_empty: u32,
    /// A problem description (TOML) the problem page answers too, beside the built-in ones
    /// (a built-in of the same name gives way to it).
    #[arg(long, value_name = "NAME|FILE")]
    pub problem: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // A solution that cannot be read stops the server before it listens, rather than failing
    // every request of its board.
    let mut problems = tomek::web::Options::default().problems;
    if let Some(name) = &args.problem {
        let p = tomek::problem::Problem::load(name)?;
        super::problem::warn_if_shadowing(&p);
        problems.retain(|b| b.name != p.name);
        problems.insert(0, p);
    }
    let options = tomek::web::Options {
        solution: open_solution(args.solution.as_deref())?,
        search_empty: args.search_empty,
        problems,
    };
    // Ctrl-C and `kill` only ask for a stop: the server finishes the requests in flight.
    tomek::interrupt::poll();
    // glibc raises its mmap threshold to the size of large blocks freed, up to 32 MB, after
    // which blocks of that size come from the arenas of the threads that asked for them and
    // stay resident when freed: the pass behind the tables at start and the Four in a row
    // searches would leave the server tens of MB larger. A fixed threshold keeps large blocks
    // mapped on their own and given back when freed.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes a setting of the allocator; it is called before the
    // server's threads start.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 10);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(8)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", args.addr))?;
        let bound = listener.local_addr()?;
        let url = format!("http://{bound}/");
        // The first line of standard output is the address, for scripts that ask for port 0.
        {
            let mut out = std::io::stdout().lock();
            writeln!(out, "listening on {url}")?;
            out.flush()?;
        }
        if !bound.ip().is_loopback() {
            eprintln!(
                "tomek: warning: serving on {bound}, which is not a loopback address: other \
                 machines can reach this server"
            );
        }
        if args.open {
            open_browser(&url);
        }
        // The tables that Tomek explanations of the first plies read, computed now rather than
        // on the first clicks; a click that needs one not yet computed waits for it or, from
        // ply 2 on, is answered by a pass of its own.
        std::thread::Builder::new()
            .name("tomek-tables".into())
            .spawn(|| {
                let setups = tomek::tictactoe::rules::Geometry::tomek().setups().len();
                eprintln!(
                    "tomek: computing the perfect-play tables of {setups} setups in the background"
                );
                let start = std::time::Instant::now();
                let bytes = tomek::tictactoe::subtree::prepare();
                eprintln!(
                    "tomek: tables ready in {:.1} s ({:.1} MB kept)",
                    start.elapsed().as_secs_f64(),
                    bytes as f64 / 1e6
                );
            })?;
        let shutdown = async {
            while !tomek::interrupt::requested() {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            eprintln!("tomek: stopping");
        };
        tomek::web::serve(listener, options, shutdown).await?;
        Ok(ExitCode::SUCCESS)
    })
}

/// The strong solution in `dir`, or else the one of 7×6 saved in the default place, if any.
/// The empty board is looked up at once, so that a damaged first ply is found before the
/// server listens; a solution still being saved (its first plies are saved last) answers the
/// plies it has.
fn open_solution(dir: Option<&Path>) -> anyhow::Result<Option<Solution>> {
    let standard = Layout { cols: 7, rows: 6 };
    let (dir, named) = match dir {
        Some(dir) => (dir.to_path_buf(), true),
        None => match saved::default_dir(standard) {
            Some(dir) if saved::has_manifest(&dir) => (dir, false),
            _ => return Ok(None),
        },
    };
    let unusable = |e: &dyn std::fmt::Display| {
        anyhow::anyhow!("cannot use the strong solution in {}: {e}", dir.display())
    };
    let solution = Solution::open(&dir).map_err(|e| unusable(&e))?;
    let Layout { cols, rows } = solution.layout();
    // The default place is that of 7×6; a directory named may hold any board.
    if !named && solution.layout() != standard {
        return Err(unusable(&format!(
            "it solves the {cols}×{rows} board, not 7×6"
        )));
    }
    match Saved::open(&dir)
        .map_err(LookupError::from)
        .and_then(|mut s| s.value(&[]))
    {
        Ok(_) => eprintln!(
            "tomek: Four in a row on {cols}×{rows} is answered from the strong solution in {}",
            dir.display()
        ),
        Err(e @ LookupError::Unsolved { .. }) => eprintln!(
            "tomek: warning: the strong solution in {} is not complete ({e}); positions of the \
             plies not saved yet are searched as without it",
            dir.display()
        ),
        Err(e) => return Err(unusable(&e)),
    }
    Ok(Some(solution))
}

/// Opens `url` in the default browser; a failure is reported and otherwise ignored.
fn open_browser(url: &str) {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    match command.spawn() {
        Ok(mut child) => {
            let url = url.to_string();
            std::thread::spawn(move || {
                if let Ok(status) = child.wait()
                    && !status.success()
                {
                    eprintln!("tomek: could not open a browser ({status}); open {url} yourself");
                }
            });
        }
        Err(e) => eprintln!("tomek: could not open a browser ({e}); open {url} yourself"),
    }
}
