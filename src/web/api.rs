//! The JSON API. Every answer is JSON; every refusal is `{"error": "..."}` with status 400
//! (bad parameters), 404, 413/414 (too large) or 503 (too much work right now).

use super::{MAX_QUERY, REQUEST_TIMEOUT, SEARCH_TIMEOUT, SEARCH_WAIT, Shared, Solution};
use crate::fourow;
use crate::fourow::bdd::saved::LookupError;
use crate::fourow::bdd::values::Value;
use crate::fourow::solve::{self as perfect, Board, Outcome, Shape};
use crate::outcome::Player;
use crate::tictactoe::explain;
use crate::tictactoe::rules::Geometry;
use crate::tictactoe::stats::{self, Sections};
use crate::tictactoe::symmetry::Symmetry;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::sync::Arc;

/// The largest board whose positions per ply are counted (cells).
pub const MAX_COUNT_CELLS: u32 = 20;
/// The most empty cells a position may have for its columns to be searched. On 7×6, positions
/// of random games with 30 empty cells took 49 ms at the median and at most 1 s (100 of them,
/// one thread, on two busy cores); with 32 empty cells the slowest of 30 took 2.2 s on idle
/// cores, too close to [`super::SEARCH_TIMEOUT`]. A strong solution of the board answers
/// positions with more, with outcomes rather than scores.
pub const MAX_SEARCH_EMPTY: u32 = 30;
/// Transposition table of one search, in bytes. A search of a position with few empty cells
/// visits few positions, and the table's pages, written before the search starts, cost more
/// than they save beyond this size (16 MiB took about 8 ms more a search than 2 MiB).
const SEARCH_TABLE: usize = 2 << 20;
/// The positions per ply of the 7×6 board, counted by `tomek fourow count --plot` (rebuilt by
/// `scripts/regenerate.sh --full`, its first plies checked afresh by `scripts/regenerate.sh`):
/// far too many to count per request.
const STANDARD_COUNTS: &str = include_str!("../../generated/fourow-space.csv");

/// A refusal: a status and the message sent as `{"error": message}`.
pub(crate) struct ApiError(StatusCode, String);

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.1 }).to_string() + "\n";
        json_response(self.0, body)
    }
}

fn json_response(status: StatusCode, body: String) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

fn ok(body: String) -> Response {
    json_response(StatusCode::OK, body)
}

fn pretty(v: &impl serde::Serialize) -> Result<String, ApiError> {
    serde_json::to_string_pretty(v)
        .map(|s| s + "\n")
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

/// Refuses long query strings, bodies and other methods before any handler runs.
pub(crate) async fn bounds(req: Request, next: Next) -> Response {
    if req.method() != axum::http::Method::GET && req.method() != axum::http::Method::HEAD {
        return ApiError(
            StatusCode::METHOD_NOT_ALLOWED,
            "only GET requests are served".into(),
        )
        .into_response();
    }
    if req.uri().query().is_some_and(|q| q.len() > MAX_QUERY) {
        return ApiError(
            StatusCode::URI_TOO_LONG,
            format!("the query string is longer than {MAX_QUERY} bytes"),
        )
        .into_response();
    }
    match tokio::time::timeout(REQUEST_TIMEOUT, next.run(req)).await {
        Ok(r) => r,
        Err(_) => ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "the answer took too long; try again later".into(),
        )
        .into_response(),
    }
}

pub(crate) async fn not_found() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, "no such page or endpoint".into())
}

type Params = Result<Query<Vec<(String, String)>>, axum::extract::rejection::QueryRejection>;

/// The parameters of a request, each allowed name at most once and no other names.
struct Args(HashMap<String, String>);

impl Args {
    fn new(q: Params, allowed: &[&str]) -> Result<Args, ApiError> {
        let Query(pairs) = q.map_err(|e| bad(format!("cannot read the query string: {e}")))?;
        let mut map = HashMap::with_capacity(pairs.len());
        for (k, v) in pairs {
            let name = || k.chars().take(32).collect::<String>();
            if !allowed.contains(&k.as_str()) {
                return Err(bad(format!(
                    "unknown parameter `{}` (this endpoint takes {})",
                    name(),
                    if allowed.is_empty() {
                        "none".to_string()
                    } else {
                        allowed.join(", ")
                    }
                )));
            }
            // Two values of one name are ambiguous: neither is taken.
            if map.contains_key(&k) {
                return Err(bad(format!(
                    "the parameter `{}` is given more than once",
                    name()
                )));
            }
            map.insert(k, v);
        }
        Ok(Args(map))
    }

    fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.0
            .get(name)
            .map(String::as_str)
            .ok_or_else(|| bad(format!("the parameter `{name}` is missing")))
    }

    fn number(&self, name: &str, default: u32, min: u32, max: u32) -> Result<u32, ApiError> {
        let Some(text) = self.0.get(name) else {
            return Ok(default);
        };
        match text.parse::<u32>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(bad(format!(
                "`{name}` must be a whole number from {min} to {max}"
            ))),
        }
    }

    fn shape(&self) -> Result<Shape, ApiError> {
        let cols = self.number("cols", 7, 1, 9)?;
        let rows = self.number("rows", 6, 1, 63)?;
        Shape::new(cols, rows).map_err(|e| bad(e.to_string()))
    }

    fn moves(&self, allow_empty: bool) -> Result<&str, ApiError> {
        let moves = match self.0.get("moves") {
            Some(m) => m.as_str(),
            None if allow_empty => "",
            None => return Err(bad("the parameter `moves` is missing")),
        };
        if moves.len() > 64 {
            return Err(bad("`moves` holds more than 64 moves"));
        }
        if let Some((i, c)) = moves.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
            return Err(bad(format!(
                "`moves` must be column digits; move {} is `{}`",
                i + 1,
                c.escape_default()
            )));
        }
        Ok(moves)
    }
}

/// Runs `work` on a blocking thread.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

/// `GET /api/tomek/explain?board=B`: exactly what `tomek explain --format json B` prints.
pub(crate) async fn tomek_explain(q: Params) -> Result<Response, ApiError> {
    let args = Args::new(q, &["board"])?;
    let text = args.required("board")?;
    if text.len() > 64 {
        return Err(bad("`board` is longer than 64 characters"));
    }
    let board = explain::parse_board(text).map_err(|e| bad(e.to_string()))?;
    let e = blocking(move || explain::explain(board)).await?;
    Ok(ok(pretty(&e)?))
}

/// One problem of the family, as `GET /api/problems` lists it.
#[derive(serde::Serialize)]
struct ProblemEntry<'a> {
    name: &'a str,
    title: &'a str,
    source: &'a str,
    rows: u32,
    cols: u32,
    symbols: String,
    answers: Vec<&'a str>,
}

/// `GET /api/problems`: the problems of the family the server answers, in order.
pub(crate) async fn problems(
    State(shared): State<Arc<Shared>>,
    q: Params,
) -> Result<Response, ApiError> {
    Args::new(q, &[])?;
    let list: Vec<ProblemEntry> = shared
        .problems
        .iter()
        .map(|p| {
            let s = p.symbols;
            let mut symbols: String = [s.first, s.second, s.empty]
                .iter()
                .map(|&c| c as char)
                .collect();
            symbols.extend(s.joker.map(|c| c as char));
            ProblemEntry {
                name: &p.name,
                title: &p.title,
                source: &p.source,
                rows: p.geometry.rows,
                cols: p.geometry.cols,
                symbols,
                answers: p.answers(),
            }
        })
        .collect();
    Ok(ok(pretty(&list)?))
}

/// `GET /api/problem/explain?problem=NAME&board=B`: exactly what `tomek explain --problem NAME
/// --format json B` prints.
pub(crate) async fn problem_explain(
    State(shared): State<Arc<Shared>>,
    q: Params,
) -> Result<Response, ApiError> {
    let args = Args::new(q, &["problem", "board"])?;
    let name = args.required("problem")?;
    let text = args.required("board")?.to_string();
    if text.len() > 64 {
        return Err(bad("`board` is longer than 64 characters"));
    }
    let Some(p) = shared.problems.iter().find(|p| p.name == name) else {
        return Err(bad("no such problem: see /api/problems"));
    };
    let p = p.clone();
    let e = blocking(move || crate::problem::judge::explain(&p, &text))
        .await?
        .map_err(bad)?;
    Ok(ok(pretty(&e)?))
}

fn compute_stats() -> String {
    let g = Geometry::tomek();
    let sections = Sections {
        games: true,
        values: true,
        symmetry: Some(Symmetry::Full),
    };
    let s = stats::analyze(g, &g.setups(), sections);
    serde_json::to_string_pretty(&s).unwrap_or_else(|e| {
        serde_json::json!({ "error": format!("cannot write the statistics: {e}") }).to_string()
    }) + "\n"
}

/// `GET /api/tomek/stats`: the statistics of every reachable board, computed on the first
/// request and kept.
pub(crate) async fn tomek_stats(
    State(shared): State<Arc<Shared>>,
    q: Params,
) -> Result<Response, ApiError> {
    Args::new(q, &[])?;
    if let Some(s) = shared.stats.get() {
        return Ok(ok(s.as_str().to_owned()));
    }
    // The computation runs in a task of its own, so that a request that gives up does not
    // cancel it; requests that come meanwhile wait for the same computation.
    let task = tokio::spawn(async move {
        shared
            .stats
            .get_or_init(|| async {
                Arc::new(
                    tokio::task::spawn_blocking(compute_stats)
                        .await
                        .unwrap_or_default(),
                )
            })
            .await
            .clone()
    });
    let s = task
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(ok(s.as_str().to_owned()))
}

fn player_word(p: Player) -> &'static str {
    match p {
        Player::X => "first",
        Player::O => "second",
    }
}

/// `GET /api/fourow/judge?moves=M[&cols=C&rows=R]`: the judge's verdict on a game.
pub(crate) async fn fourow_judge(q: Params) -> Result<Response, ApiError> {
    let args = Args::new(q, &["moves", "cols", "rows"])?;
    let shape = args.shape()?;
    let moves = args.moves(true)?;
    let (verdict, invalid_at, played) = if shape == Shape::STANDARD {
        if let Some((i, c)) = moves
            .char_indices()
            .find(|&(_, c)| !('1'..='7').contains(&c))
        {
            return Err(bad(format!(
                "move {} (`{c}`) names no column of a board with 7 columns",
                i + 1
            )));
        }
        let cols: Vec<u8> = moves.bytes().map(|c| c - b'1').collect();
        let j = fourow::judge(&cols);
        let at = match j.verdict {
            fourow::judge::Verdict::Invalid(
                fourow::judge::Invalid::Overflow { at }
                | fourow::judge::Invalid::AfterWin { at }
                | fourow::judge::Invalid::NoSuchSlot { at },
            ) => Some(at + 1),
            _ => None,
        };
        (j.verdict, at, at.map_or(moves.len(), |a| a - 1))
    } else {
        match perfect::parse_moves(moves, shape) {
            Ok(b) => (b.verdict(), None, moves.len()),
            Err(
                e
                @ (perfect::MoveError::NotADigit { .. } | perfect::MoveError::NoSuchColumn { .. }),
            ) => return Err(bad(e.to_string())),
            Err(e) => (
                fourow::judge::Verdict::Invalid(fourow::judge::Invalid::Overflow { at: e.at() }),
                Some(e.at()),
                e.at() - 1,
            ),
        }
    };
    use fourow::judge::Verdict as V;
    let (result, winner) = match verdict {
        V::Invalid(_) => ("invalid", None),
        V::NoWinner => ("draw", None),
        V::Won(p) => ("won", Some(player_word(p))),
        V::NotOver => ("open", None),
    };
    let to_move = (result == "open").then_some(if played % 2 == 0 { "first" } else { "second" });
    let doc = serde_json::json!({
        "moves": moves,
        "columns": shape.cols(),
        "rows": shape.rows(),
        "verdict": verdict.sentence(),
        "result": result,
        "winner": winner,
        "invalid_at": invalid_at,
        "to_move": to_move,
    });
    Ok(ok(pretty(&doc)?))
}

/// `GET /api/fourow/counts?cols=C&rows=R`: positions per ply of a small board, counted on the
/// first request for the size and kept.
pub(crate) async fn fourow_counts(
    State(shared): State<Arc<Shared>>,
    q: Params,
) -> Result<Response, ApiError> {
    let args = Args::new(q, &["cols", "rows"])?;
    let cols = args.number("cols", 4, 1, MAX_COUNT_CELLS)?;
    let rows = args.number("rows", 4, 1, MAX_COUNT_CELLS)?;
    let standard = (cols, rows) == (Shape::STANDARD.cols(), Shape::STANDARD.rows());
    if cols * rows > MAX_COUNT_CELLS && !standard {
        return Err(bad(format!(
            "a board of {cols}×{rows} has {} cells; positions are counted here for at most \
             {MAX_COUNT_CELLS} cells, and for 7×6 (the command `tomek fourow count` does other \
             sizes)",
            cols * rows
        )));
    }
    let kept = shared
        .counts
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&(cols, rows))
        .cloned();
    if let Some(body) = kept {
        return Ok(ok(body.as_str().to_owned()));
    }
    let plies = if standard {
        standard_counts().map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
    } else {
        blocking(move || fourow::sized::count(cols, rows, cols * rows, |_| {}))
            .await?
            .map_err(|e| bad(e.to_string()))?
            .iter()
            .map(|p| {
                [
                    p.ply.into(),
                    p.positions(),
                    p.x_won,
                    p.o_won,
                    p.draw,
                    p.open,
                ]
            })
            .collect()
    };
    let rows_json: Vec<_> = plies
        .iter()
        .map(|&[ply, positions, first_won, second_won, draw, open]| {
            serde_json::json!({
                "ply": ply,
                "positions": positions,
                "first_won": first_won,
                "second_won": second_won,
                "draw": draw,
                "open": open,
            })
        })
        .collect();
    let total: u64 = plies.iter().map(|p| p[1]).sum();
    let doc = serde_json::json!({
        "columns": cols,
        "rows": rows,
        "total": total,
        "plies": rows_json,
    });
    let body = pretty(&doc)?;
    shared
        .counts
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry((cols, rows))
        .or_insert_with(|| Arc::new(body.clone()));
    Ok(ok(body))
}

/// The rows of [`STANDARD_COUNTS`] (ply, positions, first won, second won, draws, open),
/// checked: the plies in order from 0, each row's positions the sum of its statuses, and the
/// file's total line the sum of the rows.
fn standard_counts() -> Result<Vec<[u64; 6]>, String> {
    let mut lines = STANDARD_COUNTS.lines();
    let header = "ply,positions,first_player_won,second_player_won,draws,open";
    if lines.next() != Some(header) {
        return Err("the kept 7×6 counts do not start with their header".into());
    }
    let mut plies: Vec<[u64; 6]> = Vec::new();
    let mut total = None;
    for line in lines {
        let mut fields = line.split(',');
        let first = fields.next().unwrap_or_default();
        let numbers: Vec<u64> = fields
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|e| {
                format!("the kept 7×6 counts hold a line that is not numbers ({e}): {line}")
            })?;
        let [positions, a, b, c, d] = numbers[..] else {
            return Err(format!("the kept 7×6 counts hold a short line: {line}"));
        };
        if positions != a + b + c + d {
            return Err(format!("the kept 7×6 counts do not add up: {line}"));
        }
        if first == "total" {
            total = Some([positions, a, b, c, d]);
        } else if first.parse::<usize>() == Ok(plies.len()) {
            plies.push([plies.len() as u64, positions, a, b, c, d]);
        } else {
            return Err(format!("the kept 7×6 counts skip a ply: {line}"));
        }
    }
    let mut sum = [0u64; 5];
    for p in &plies {
        for (s, v) in sum.iter_mut().zip(&p[1..]) {
            *s += v;
        }
    }
    if total != Some(sum) || plies.len() != 43 {
        return Err("the kept 7×6 counts do not match their total line".into());
    }
    Ok(plies)
}

/// What a strong solution says of a position and of each of its legal columns (0-based), for
/// the player to move.
struct Known {
    position: Option<Outcome>,
    columns: Vec<(u32, Outcome)>,
}

/// The solution the server holds of `shape`'s board, if any.
fn solution_of(shared: &Shared, shape: Shape) -> Option<&Solution> {
    shared
        .solution
        .as_ref()
        .filter(|s| (s.layout.cols, s.layout.rows) == (shape.cols(), shape.rows()))
}

/// The outcomes of the position `moves` (1-based column digits, a game of `b`'s board) and of
/// its columns from `solution`, with no search; `Ok(None)` when the position's plies are not
/// solved there yet (a run still saving it), so that the request is answered as without a
/// solution.
fn look_up(solution: &Solution, moves: &str, b: Board) -> Result<Option<Known>, ApiError> {
    let cols: Vec<u8> = moves.bytes().map(|c| c - b'1').collect();
    let playable: Vec<u32> = if b.last_mover_won() || b.is_full() {
        Vec::new()
    } else {
        (0..b.shape().cols()).filter(|&c| b.can_play(c)).collect()
    };
    let mut asked = vec![cols.clone()];
    asked.extend(playable.iter().map(|&c| {
        let mut next = cols.clone();
        next.push(c as u8);
        next
    }));
    let values = match solution.values(&asked) {
        Ok(values) => values,
        Err(LookupError::Unsolved { .. }) => return Ok(None),
        Err(e) => {
            return Err(ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the saved solution cannot answer: {e}"),
            ));
        }
    };
    let position = values[0].map(Value::outcome);
    // A child's value is for the opponent, who moves there; a move that makes four ends the
    // game in a position lost for the opponent.
    let columns: Vec<(u32, Outcome)> = playable
        .iter()
        .zip(&values[1..])
        .map(|(&c, v)| {
            let outcome = match v {
                Some(Value::Won) => Outcome::Loss,
                Some(Value::Drawn) => Outcome::Draw,
                Some(Value::Lost) | None => Outcome::Win,
            };
            (c, outcome)
        })
        .collect();
    // The best column decides the position when the solution does not.
    let best = columns.iter().map(|&(_, o)| o).min_by_key(|&o| match o {
        Outcome::Win => 0,
        Outcome::Draw => 1,
        Outcome::Loss => 2,
    });
    Ok(Some(Known {
        position: position.or(best),
        columns,
    }))
}

/// `GET /api/fourow/explain?moves=M[&cols=C&rows=R]`: the score of every column, as
/// `tomek fourow explain --format json` gives it, for positions with few empty cells.
///
/// When the server holds a strong solution of the board, the answer says where it comes from
/// (`"source"`): with few empty cells, from a search that the solution's outcomes narrow
/// (`"search"`: the same scores, found faster); with more, from the solution alone
/// (`"solution"`: the outcome of the position and of every column, their scores and distances
/// `null` and no line of play, which only a search finds).
pub(crate) async fn fourow_explain(
    State(shared): State<Arc<Shared>>,
    q: Params,
) -> Result<Response, ApiError> {
    let args = Args::new(q, &["moves", "cols", "rows"])?;
    let shape = args.shape()?;
    let moves = args.moves(true)?.to_string();
    let b = perfect::parse_moves(&moves, shape).map_err(|e| bad(format!("`{moves}`: {e}")))?;
    let empty = shape.area() - b.moves();
    // The look-up reads files: it runs where blocking is allowed.
    let known = if solution_of(&shared, shape).is_some() {
        let shared = shared.clone();
        let moves = moves.clone();
        blocking(move || match solution_of(&shared, shape) {
            Some(solution) => look_up(solution, &moves, b),
            None => Ok(None),
        })
        .await??
    } else {
        None
    };
    let limit = shared.search_empty;
    if empty > limit && known.is_none() {
        return Err(bad(format!(
            "the position has {empty} empty cells; columns are scored here only with at most \
             {limit} empty cells (the command `tomek fourow explain` has no limit)"
        )));
    }
    let verdict = if shape == Shape::STANDARD {
        let cols: Vec<u8> = moves.bytes().map(|c| c - b'1').collect();
        fourow::judge(&cols).verdict
    } else {
        b.verdict()
    };
    if let Some(known) = known.as_ref().filter(|_| empty > limit) {
        let doc = serde_json::json!({
            "position": moves,
            "columns": shape.cols(),
            "rows": shape.rows(),
            "verdict": verdict.sentence(),
            "to_move": player_word(b.to_move()),
            "score": null,
            "outcome": known.position,
            "distance": null,
            "moves": known.columns.iter().map(|&(c, o)| serde_json::json!({
                "column": c + 1,
                "score": null,
                "outcome": o,
                "distance": null,
            })).collect::<Vec<_>>(),
            "variation": "",
            "source": "solution",
        });
        return Ok(ok(pretty(&doc)?));
    }
    // A search waits its turn for a while; only a queue longer than that is turned away.
    let Ok(Ok(permit)) =
        tokio::time::timeout(SEARCH_WAIT, shared.search.clone().acquire_owned()).await
    else {
        return Err(ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many searches are running; try again in a moment".into(),
        ));
    };
    let columns = known
        .as_ref()
        .map(|k| k.columns.clone())
        .unwrap_or_default();
    // The search holds the permit until it ends, even when its request has given up, so no
    // more searches run at a time than there are cores.
    let search = tokio::task::spawn_blocking(move || {
        let known = |c: u32| columns.iter().find(|&&(col, _)| col == c).map(|&(_, o)| o);
        let a = perfect::analyze_known(b, 1, SEARCH_TABLE, &|_, _| {}, &known);
        drop(permit);
        a
    });
    let a = match tokio::time::timeout(SEARCH_TIMEOUT, search).await {
        Ok(Ok(a)) => a,
        Ok(Err(e)) => return Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
        Err(_) => {
            return Err(ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the search took longer than {} s", SEARCH_TIMEOUT.as_secs()),
            ));
        }
    };
    let area = shape.area();
    let digits: String = a
        .variation
        .iter()
        .filter_map(|&c| char::from_digit(c + 1, 10))
        .collect();
    let mut doc = serde_json::json!({
        "position": moves,
        "columns": shape.cols(),
        "rows": shape.rows(),
        "verdict": verdict.sentence(),
        "to_move": player_word(b.to_move()),
        "score": a.score,
        "outcome": a.score.outcome(),
        "distance": a.score.distance(b.moves(), area),
        "moves": a.moves.iter().map(|&(c, s)| serde_json::json!({
            "column": c + 1,
            "score": s,
            "outcome": s.outcome(),
            "distance": s.distance(b.moves(), area),
        })).collect::<Vec<_>>(),
        "variation": digits,
    });
    // Without a solution the answer stays exactly the command's.
    if known.is_some() {
        doc["source"] = "search".into();
    }
    Ok(ok(pretty(&doc)?))
}
