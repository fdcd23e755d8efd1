use std::io::Write as _;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Address to listen on; port 0 picks a free port. Any address other than loopback makes
    /// the server reachable from other machines, and is said so on start.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Open the site in the default browser once listening.
    #[arg(long)]
    pub open: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
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
        tomek::web::serve(listener, shutdown).await?;
        Ok(ExitCode::SUCCESS)
    })
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
