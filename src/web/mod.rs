//! The web server behind `tomek serve`: a JSON API over the library and two pages built into
//! the binary (nothing is fetched from the network, nothing a request sends reaches the file
//! system).
//!
//! Every request is bounded: the query string is short, the body is refused, at most
//! [`MAX_CONCURRENT`] requests are handled at once, each search has a time limit, and no more
//! Four in a row searches run at a time than there are cores; the others wait their turn for
//! at most [`SEARCH_WAIT`]. Every connection is bounded too: at most [`MAX_CONNECTIONS`] are
//! open at once, and one silent for [`IDLE_TIMEOUT`] (idle, or a request stalled half sent) is
//! closed.
//!
//! A search is bounded by the empty cells of its position ([`MAX_SEARCH_EMPTY`]); a strong
//! solution of a board ([`Options::solution`]) gives the win, draw or loss of every column of
//! that board with no search, from the empty board on, and narrows the searches that find the
//! exact scores within the bound.

mod api;

pub use api::MAX_SEARCH_EMPTY;

use crate::fourow::bdd::encoding::Layout;
use crate::fourow::bdd::saved::{self, LookupError, Saved};
use crate::fourow::bdd::values::Value;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OnceCell, OwnedSemaphorePermit, Semaphore};

/// Requests handled at once; more wait their turn.
pub const MAX_CONCURRENT: usize = 64;
/// The longest query string accepted, in bytes.
pub const MAX_QUERY: usize = 512;
/// How long a request may wait for its answer before it is told to come back.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a Four in a row search may run.
pub const SEARCH_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a Four in a row search may wait for a core before it is told to come back.
pub const SEARCH_WAIT: Duration = Duration::from_secs(2);
/// Connections open at once; more wait to be accepted.
pub const MAX_CONNECTIONS: usize = 256;
/// How long a connection may send and receive nothing before it is closed: longer than any
/// answer may take ([`REQUEST_TIMEOUT`]), so that only idle connections and requests stalled
/// half sent are closed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(15);

/// How the server answers Four in a row positions.
pub struct Options {
    /// A strong solution of one board: positions of that board are answered from it at any
    /// number of empty cells, where a search could not finish in time.
    pub solution: Option<Solution>,
    /// The most empty cells a position may have for its columns to be searched; beyond, only a
    /// solution answers. [`MAX_SEARCH_EMPTY`] keeps searches within [`SEARCH_TIMEOUT`]; less
    /// lets a small board show the answers a large one gets from its solution.
    pub search_empty: u32,
    /// The problems of the family the problem page answers: the built-in ones, and any
    /// description given to `tomek serve --problem`.
    pub problems: Vec<crate::problem::Problem>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            solution: None,
            search_empty: MAX_SEARCH_EMPTY,
            problems: crate::problem::BUILTIN
                .iter()
                .filter_map(|(n, _)| crate::problem::Problem::builtin(n))
                .collect(),
        }
    }
}

/// A strong solution saved by [`crate::fourow::bdd::values::save`], as the server answers from
/// it. Each look-up opens the files it reads afresh and closes them: a solution of 7×6 has some
/// 1,500 files, which a server kept open for days would otherwise come to hold open at once,
/// beyond the limit of many systems; and a solution still being saved answers from the plies
/// saved by then. Look-ups take turns, so that no more of its files are open at a time than
/// one look-up reads.
pub struct Solution {
    dir: PathBuf,
    layout: Layout,
    turn: Mutex<()>,
}

impl Solution {
    /// The solution in `dir`, whose manifest says which board it solves.
    pub fn open(dir: &Path) -> Result<Solution, saved::Error> {
        Ok(Solution {
            dir: dir.to_path_buf(),
            layout: saved::read_manifest(dir)?.layout,
            turn: Mutex::new(()),
        })
    }

    /// The board solved.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// [`Saved::value`] of each of `moves` (0-based columns), in order, from the files as
    /// they are now.
    pub(crate) fn values(&self, moves: &[Vec<u8>]) -> Result<Vec<Option<Value>>, LookupError> {
        let _turn = self.turn.lock().unwrap_or_else(|e| e.into_inner());
        let mut saved = Saved::open(&self.dir)?;
        moves.iter().map(|m| saved.value(m)).collect()
    }
}

/// What the handlers share: the statistics once computed, the position counts of each board
/// size once computed (at most one per size of at most [`api::MAX_COUNT_CELLS`] cells, a few
/// KB each), the search permit, and what [`Options`] gave.
pub(crate) struct Shared {
    stats: OnceCell<Arc<String>>,
    counts: Mutex<HashMap<(u32, u32), Arc<String>>>,
    search: Arc<Semaphore>,
    solution: Option<Solution>,
    search_empty: u32,
    problems: Vec<crate::problem::Problem>,
}

impl Shared {
    fn new(options: Options) -> Shared {
        Shared {
            stats: OnceCell::new(),
            counts: Mutex::new(HashMap::new()),
            search: Arc::new(Semaphore::new(
                std::thread::available_parallelism().map_or(1, |n| n.get()),
            )),
            solution: options.solution,
            search_empty: options.search_empty,
            problems: options.problems,
        }
    }
}

/// The whole site: pages, static files and the API.
pub fn router(options: Options) -> Router {
    let shared = Arc::new(Shared::new(options));
    Router::new()
        .route("/", get(index))
        .route("/tomek", get(tomek_page))
        .route("/fourow", get(fourow_page))
        .route("/problem", get(problem_page))
        .route("/app.js", get(app_js))
        .route("/style.css", get(style_css))
        .route("/api/tomek/explain", get(api::tomek_explain))
        .route("/api/tomek/stats", get(api::tomek_stats))
        .route("/api/fourow/judge", get(api::fourow_judge))
        .route("/api/fourow/counts", get(api::fourow_counts))
        .route("/api/fourow/explain", get(api::fourow_explain))
        .route("/api/problems", get(api::problems))
        .route("/api/problem/explain", get(api::problem_explain))
        .fallback(api::not_found)
        .with_state(shared)
        .layer(axum::middleware::from_fn(api::bounds))
        .layer(DefaultBodyLimit::max(1024))
        .layer(tower::limit::ConcurrencyLimitLayer::new(MAX_CONCURRENT))
}

/// Serves the site on `listener`, answering Four in a row as `options` say, until `shutdown`
/// completes, then finishes the requests in flight.
///
/// Tomek explanations of the first plies read per-setup tables computed once
/// ([`crate::tictactoe::subtree`]); [`crate::tictactoe::subtree::prepare`] computes them ahead,
/// as `tomek serve` does on a thread of its own while the server starts.
pub async fn serve(
    listener: TcpListener,
    options: Options,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let listener = Bounded {
        inner: listener,
        slots: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
    };
    axum::serve(listener, router(options))
        .with_graceful_shutdown(shutdown)
        .await
}

/// A listener that keeps at most [`MAX_CONNECTIONS`] connections open and closes the silent
/// ones.
struct Bounded {
    inner: TcpListener,
    slots: Arc<Semaphore>,
}

impl axum::serve::Listener for Bounded {
    type Io = Watched;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Watched, SocketAddr) {
        // The semaphore is never closed, so a slot always comes.
        let slot = self.slots.clone().acquire_owned().await.ok();
        let (stream, addr) = axum::serve::Listener::accept(&mut self.inner).await;
        let watched = Watched {
            stream,
            deadline: Box::pin(tokio::time::sleep(IDLE_TIMEOUT)),
            _slot: slot,
        };
        (watched, addr)
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// A connection that fails its reads and writes once nothing has gone through it for
/// [`IDLE_TIMEOUT`], and frees its slot when closed.
struct Watched {
    stream: TcpStream,
    deadline: Pin<Box<tokio::time::Sleep>>,
    _slot: Option<OwnedSemaphorePermit>,
}

impl Watched {
    fn active(&mut self) {
        self.deadline
            .as_mut()
            .reset(tokio::time::Instant::now() + IDLE_TIMEOUT);
    }

    /// A write's result: bytes written count as activity, and a pending write waits on the
    /// deadline.
    fn wrote(
        &mut self,
        cx: &mut Context<'_>,
        r: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match r {
            Poll::Ready(r) => {
                if matches!(r, Ok(n) if n > 0) {
                    self.active();
                }
                Poll::Ready(r)
            }
            Poll::Pending => self.pending(cx),
        }
    }

    /// What a pending read or write becomes: still pending, or an error once silent too long.
    fn pending<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the connection was silent too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(r) => {
                if buf.filled().len() > before {
                    this.active();
                }
                Poll::Ready(r)
            }
            Poll::Pending => this.pending(cx),
        }
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.stream).poll_write(cx, data);
        this.wrote(cx, written)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.wrote(cx, written)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.stream).poll_flush(cx) {
            Poll::Ready(r) => Poll::Ready(r),
            Poll::Pending => this.pending(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        body,
    )
        .into_response()
}

const HTML: &str = "text/html; charset=utf-8";

async fn index() -> Response {
    asset(HTML, include_str!("assets/index.html"))
}

async fn tomek_page() -> Response {
    asset(HTML, include_str!("assets/tomek.html"))
}

async fn fourow_page() -> Response {
    asset(HTML, include_str!("assets/fourow.html"))
}

async fn problem_page() -> Response {
    asset(HTML, include_str!("assets/problem.html"))
}

async fn app_js() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    )
}

async fn style_css() -> Response {
    asset("text/css; charset=utf-8", include_str!("assets/style.css"))
}
