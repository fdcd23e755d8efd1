//! The web server behind `tomek serve`: a JSON API over the library and two pages built into
//! the binary (nothing is fetched from the network, nothing a request sends reaches the file
//! system).
//!
//! Every request is bounded: the query string is short, the body is refused, at most
//! [`MAX_CONCURRENT`] requests are handled at once, each search has a time limit, and no more
//! Four in a row searches run at a time than there are cores; the others wait their turn for
//! at most [`SEARCH_WAIT`].

mod api;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OnceCell, Semaphore};

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

/// What the handlers share: the statistics once computed, the position counts of each board
/// size once computed (at most one per size of at most [`api::MAX_COUNT_CELLS`] cells, a few
/// KB each), and the search permit.
pub(crate) struct Shared {
    stats: OnceCell<Arc<String>>,
    counts: Mutex<HashMap<(u32, u32), Arc<String>>>,
    search: Arc<Semaphore>,
}

impl Shared {
    fn new() -> Shared {
        Shared {
            stats: OnceCell::new(),
            counts: Mutex::new(HashMap::new()),
            search: Arc::new(Semaphore::new(
                std::thread::available_parallelism().map_or(1, |n| n.get()),
            )),
        }
    }
}

/// The whole site: pages, static files and the API.
pub fn router() -> Router {
    let shared = Arc::new(Shared::new());
    Router::new()
        .route("/", get(index))
        .route("/tomek", get(tomek_page))
        .route("/fourow", get(fourow_page))
        .route("/app.js", get(app_js))
        .route("/style.css", get(style_css))
        .route("/api/tomek/explain", get(api::tomek_explain))
        .route("/api/tomek/stats", get(api::tomek_stats))
        .route("/api/fourow/judge", get(api::fourow_judge))
        .route("/api/fourow/counts", get(api::fourow_counts))
        .route("/api/fourow/explain", get(api::fourow_explain))
        .fallback(api::not_found)
        .with_state(shared)
        .layer(axum::middleware::from_fn(api::bounds))
        .layer(DefaultBodyLimit::max(1024))
        .layer(tower::limit::ConcurrencyLimitLayer::new(MAX_CONCURRENT))
}

/// Serves the site on `listener` until `shutdown` completes, then finishes the requests in
/// flight.
///
/// Tomek explanations of the first plies read per-setup tables computed once
/// ([`crate::tictactoe::subtree`]); [`crate::tictactoe::subtree::prepare`] computes them ahead,
/// as `tomek serve` does on a thread of its own while the server starts.
pub async fn serve(
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router())
        .with_graceful_shutdown(shutdown)
        .await
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

async fn app_js() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    )
}

async fn style_css() -> Response {
    asset("text/css; charset=utf-8", include_str!("assets/style.css"))
}
