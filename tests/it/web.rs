//! `tomek serve`: every endpoint over real HTTP on a loopback port, the refusals, the pages,
//! and a clean stop on Ctrl-C.

use crate::harness::{TOMEK, stdout_of, stdout_of_command, tomek};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A data directory that holds nothing, so that no strong solution saved on the machine in the
/// default place changes what the server or a command answers.
pub(crate) const NO_DATA: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/no-tomek-data");

/// A running `tomek serve` on a free loopback port, ended when dropped.
pub(crate) struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    pub(crate) fn start() -> Server {
        Server::start_with(&[], None)
    }

    /// `tomek serve` on a free loopback port with `extra` arguments, and `path` as `PATH`.
    pub(crate) fn start_with(extra: &[&str], path: Option<&std::ffi::OsStr>) -> Server {
        let mut command = Command::new(TOMEK);
        command
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(extra)
            .env("TOMEK_DATA_DIR", NO_DATA);
        if let Some(path) = path {
            command.env("PATH", path);
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tomek serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped"))
            .read_line(&mut line)
            .expect("tomek serve prints its address");
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("first line names the address: {line:?}"))
            .parse()
            .expect("a socket address");
        Server { child, addr }
    }

    /// Status, content type and body of `GET path`.
    pub(crate) fn get(&self, path: &str) -> (u16, String, String) {
        self.request(&format!(
            "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        ))
    }

    fn request(&self, raw: &str) -> (u16, String, String) {
        let mut s = TcpStream::connect(self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.write_all(raw.as_bytes()).expect("send");
        let mut text = String::new();
        s.read_to_string(&mut text).expect("read the answer");
        let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .expect("a status code");
        let kind = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-type: ")
                    .map(str::to_string)
            })
            .unwrap_or_default();
        (status, kind, body.to_string())
    }

    pub(crate) fn json(&self, path: &str) -> serde_json::Value {
        let (status, kind, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        assert_eq!(kind, "application/json", "{path}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
    }

    /// Asserts that `path` is refused with `status` and a JSON message.
    pub(crate) fn refused(&self, path: &str, status: u16) -> String {
        let (got, kind, body) = self.get(path);
        assert_eq!(got, status, "{path}: {body}");
        assert_eq!(kind, "application/json", "{path}");
        let v: serde_json::Value = serde_json::from_str(&body).expect("JSON");
        let message = v["error"].as_str().expect("an error message").to_string();
        assert!(!message.is_empty(), "{path}");
        message
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn web_tomek_explain_is_the_commands_json() {
    let server = Server::start();
    for board in [
        "................",
        "XXXT..O.........",
        "XOX./OXO./..../...T",
        "XXXOOOXO........",
        "XOXOXOXOOXOXOXOX",
        "TTXO............",
    ] {
        let (status, kind, body) = server.get(&format!(
            "/api/tomek/explain?board={}",
            board.replace('/', "%2F")
        ));
        assert_eq!(
            (status, kind.as_str()),
            (200, "application/json"),
            "{board}"
        );
        assert_eq!(
            body,
            stdout_of(&["explain", "--format", "json", board]),
            "{board}"
        );
    }
}

#[test]
fn web_every_endpoint_answers() {
    let server = Server::start();
    let j = server.json("/api/fourow/judge?moves=1212121");
    assert_eq!(j["verdict"], "is over. The first player won.");
    assert_eq!(j["winner"], "first");
    let j = server.json("/api/fourow/judge?moves=12121212");
    assert_eq!(j["verdict"], "is invalid.");
    assert_eq!(j["invalid_at"], 8);
    let j = server.json("/api/fourow/judge?moves=44");
    assert_eq!(j["verdict"], "is not over, yet.");
    assert_eq!(j["to_move"], "first");
    let j = server.json("/api/fourow/judge?moves=");
    assert_eq!(j["result"], "open");
    let j = server.json("/api/fourow/judge?moves=1111222233344434&cols=4&rows=4");
    assert_eq!(j["verdict"], "is over. There is no winner.");

    // Connect Four on 4×4: 1, 4, 16, 52, ... positions (OEIS A212693 starts so).
    let c = server.json("/api/fourow/counts?cols=4&rows=4");
    let per_ply: Vec<u64> = c["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["positions"].as_u64().unwrap())
        .collect();
    assert_eq!(per_ply.len(), 17);
    assert_eq!(&per_ply[..4], &[1, 4, 16, 52]);
    assert_eq!(c["total"].as_u64(), Some(per_ply.iter().sum()));

    // 7×6, from the kept count: 1, 7, 49, 238, 1120, ... positions (OEIS A212693), and
    // 4,531,985,219,092 in all (Tromp's count); the last ply holds the drawn full boards.
    let c = server.json("/api/fourow/counts?cols=7&rows=6");
    let plies = c["plies"].as_array().unwrap();
    let per_ply: Vec<u64> = plies
        .iter()
        .map(|p| p["positions"].as_u64().unwrap())
        .collect();
    assert_eq!(per_ply.len(), 43);
    assert_eq!(&per_ply[..6], &[1, 7, 49, 238, 1120, 4263]);
    assert_eq!(c["total"].as_u64(), Some(4_531_985_219_092));
    assert_eq!(c["total"].as_u64(), Some(per_ply.iter().sum()));
    for p in plies {
        let parts: u64 = ["first_won", "second_won", "draw", "open"]
            .iter()
            .map(|k| p[k].as_u64().unwrap())
            .sum();
        assert_eq!(Some(parts), p["positions"].as_u64(), "{p}");
    }
    assert_eq!(plies[42]["open"], 0);
    assert!(plies[42]["draw"].as_u64().unwrap() > 0);
    assert_eq!(plies[6]["first_won"], 0);
    assert!(plies[7]["first_won"].as_u64().unwrap() > 0);

    // Three in the first column and three in the second: the first player wins at once.
    let e = server.json("/api/fourow/explain?moves=121212&cols=4&rows=4");
    assert_eq!(e["outcome"], "win");
    assert_eq!(e["distance"], 1);
    let first = &e["moves"].as_array().unwrap()[0];
    assert_eq!(
        (first["column"].as_u64(), first["outcome"].as_str()),
        (Some(1), Some("win"))
    );
    let e = server.json("/api/fourow/explain?moves=444444333333222222");
    assert_eq!(e["to_move"], "first");
    assert_eq!(e["outcome"], "win");

    // The first request computes the statistics, which may take longer than a request may
    // wait on a busy machine: the server then answers 503 and goes on computing.
    let start = std::time::Instant::now();
    while server.get("/api/tomek/stats").0 == 503 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no statistics after 120 s"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    let s = server.json("/api/tomek/stats");
    assert_eq!(s["rows"], 4);
    assert_eq!(s["setups"].as_array().map(Vec::len), Some(17));
    assert!(s["total"]["boards"]["open"].as_u64().unwrap() > 0);
    // The second request is served from the kept copy.
    assert_eq!(server.json("/api/tomek/stats"), s);

    for (page, marker) in [
        ("/", "data-page=\"index\""),
        ("/tomek", "data-page=\"tomek\""),
        ("/fourow", "data-page=\"fourow\""),
        ("/app.js", "tomekPage"),
        ("/style.css", ".tboard"),
    ] {
        let (status, _, body) = server.get(page);
        assert_eq!(status, 200, "{page}");
        assert!(body.contains(marker), "{page}");
    }
}

#[test]
fn web_bad_parameters_are_refused() {
    let server = Server::start();
    for path in [
        "/api/tomek/explain",
        "/api/tomek/explain?board=XXX",
        "/api/tomek/explain?board=XXXA............",
        "/api/tomek/explain?board=XXXT..O.........&x=1",
        "/api/tomek/explain?board=%FF%FE",
        "/api/tomek/stats?refresh=1",
        "/api/fourow/judge?moves=18",
        "/api/fourow/judge?moves=1a",
        "/api/fourow/judge?moves=0",
        "/api/fourow/judge?moves=1&cols=x",
        "/api/fourow/judge?moves=1&cols=0",
        "/api/fourow/judge?moves=1&rows=99999999999",
        "/api/fourow/judge?moves=1&cols=9&rows=9",
        "/api/fourow/judge?moves=55&cols=4&rows=4",
        "/api/fourow/judge?moves=1&cols=10",
        "/api/fourow/judge?moves=1&rows=x",
        "/api/fourow/judge?moves=1&rows=0",
        "/api/fourow/judge?moves=1&rows=64",
        "/api/fourow/judge?moves=1&col=7",
        "/api/fourow/judge?move=1",
        "/api/fourow/counts?cols=8&rows=6",
        "/api/fourow/counts?cols=5&rows=5",
        "/api/fourow/counts?cols=-1",
        "/api/fourow/counts?cols=x",
        "/api/fourow/counts?cols=0",
        "/api/fourow/counts?cols=21&rows=1",
        "/api/fourow/counts?rows=x",
        "/api/fourow/counts?rows=0",
        "/api/fourow/counts?rows=-4",
        "/api/fourow/counts?rows=21",
        "/api/fourow/counts?cols=1&rows=21",
        "/api/fourow/counts?size=3",
        "/api/fourow/counts?cols=4&rows=4&moves=1",
        "/api/fourow/explain",
        "/api/fourow/explain?moves=",
        "/api/fourow/explain?moves=1234567",
        "/api/fourow/explain?moves=4455443322",
        "/api/fourow/explain?moves=1111111",
        "/api/fourow/explain?moves=1x",
        "/api/fourow/explain?moves=121212&cols=x&rows=4",
        "/api/fourow/explain?moves=121212&cols=0&rows=4",
        "/api/fourow/explain?moves=121212&cols=10&rows=4",
        "/api/fourow/explain?moves=121212&cols=9&rows=7",
        "/api/fourow/explain?moves=121212&cols=4&rows=x",
        "/api/fourow/explain?moves=121212&cols=4&rows=0",
        "/api/fourow/explain?moves=121212&cols=4&rows=64",
        "/api/fourow/explain?moves=121212&cols=4&rows=-1",
        "/api/fourow/explain?moves=121212&column=4",
        "/api/fourow/explain?moves=121212&cols=4&rows=4&depth=3",
        "/api/fourow/explain?moves=5&cols=4&rows=4",
    ] {
        server.refused(path, 400);
    }
    let message = server.refused("/api/fourow/explain?moves=", 400);
    assert!(message.contains("empty cells"), "{message}");
    let message = server.refused("/api/fourow/counts?cols=4&rows=4&moves=1", 400);
    assert!(message.contains("unknown parameter `moves`"), "{message}");

    // Boards and move lists of 65 characters up to the longest query string.
    for len in [65, 66, 100, 200, 300, 400, 505, 506] {
        let board = "X.O.".repeat(len / 4 + 1)[..len].to_string();
        let message = server.refused(&format!("/api/tomek/explain?board={board}"), 400);
        assert!(message.contains("longer than 64"), "{len}: {message}");
        let moves = "1234567".repeat(len / 7 + 1)[..len].to_string();
        for endpoint in ["judge", "explain"] {
            let message = server.refused(&format!("/api/fourow/{endpoint}?moves={moves}"), 400);
            assert!(message.contains("more than 64 moves"), "{len}: {message}");
        }
    }
    for len in [507, 512, 600, 10_000] {
        server.refused(
            &format!("/api/tomek/explain?board={}", "X".repeat(len)),
            414,
        );
        server.refused(&format!("/api/fourow/judge?moves={}", "1".repeat(len)), 414);
    }

    // A name given twice is ambiguous, even with the same value twice.
    for path in [
        "/api/tomek/explain?board=XO..............&board=OX..............",
        "/api/tomek/explain?board=XO..............&board=XO..............",
        "/api/fourow/judge?moves=12&moves=34",
        "/api/fourow/judge?moves=12&cols=7&cols=6",
        "/api/fourow/counts?cols=4&cols=4&rows=4",
        "/api/fourow/counts?cols=4&rows=3&rows=4",
        "/api/fourow/explain?moves=121212&cols=4&rows=4&rows=4",
        "/api/fourow/explain?moves=121212&moves=121212&cols=4&rows=4",
    ] {
        let message = server.refused(path, 400);
        assert!(message.contains("more than once"), "{path}: {message}");
    }
    server.refused("/api/tomek/stats?x=1&x=1", 400);
    server.refused("/api/nothing", 404);
}

#[test]
fn web_methods_other_than_get_are_refused() {
    let server = Server::start();
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
        for path in [
            "/",
            "/tomek",
            "/app.js",
            "/api/tomek/explain?board=................",
            "/api/tomek/stats",
            "/api/fourow/judge?moves=44",
            "/api/fourow/counts?cols=4&rows=4",
            "/api/fourow/explain?moves=121212&cols=4&rows=4",
        ] {
            let (status, kind, body) = server.request(&format!(
                "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\
                 Connection: close\r\n\r\n{{}}"
            ));
            assert_eq!(status, 405, "{method} {path}: {body}");
            assert_eq!(kind, "application/json", "{method} {path}");
            assert!(body.contains("only GET"), "{method} {path}: {body}");
        }
    }
    // The same server still answers.
    assert_eq!(server.get("/api/fourow/judge?moves=44").0, 200);
}

#[test]
fn web_fourow_explain_is_the_commands_json() {
    let server = Server::start();
    for (moves, cols, rows) in [
        ("444444333333222222", 7, 6),
        ("12561117736217", 7, 6),
        ("444444333333", 7, 6),
        ("123456712345", 7, 6),
        ("", 4, 4),
        ("121212", 4, 4),
        ("1234", 5, 4),
    ] {
        let (status, kind, body) = server.get(&format!(
            "/api/fourow/explain?moves={moves}&cols={cols}&rows={rows}"
        ));
        assert_eq!(
            (status, kind.as_str()),
            (200, "application/json"),
            "{moves}"
        );
        let command = explain_json(cols, rows, moves);
        assert_eq!(body, command, "{moves} on {cols}×{rows}");
    }
}

/// What `tomek fourow explain` prints for a position as the page asks for it: JSON, from a
/// search on one thread with the server's table size, with no strong solution.
pub(crate) fn explain_json(cols: impl ToString, rows: impl ToString, moves: &str) -> String {
    command_json(&[
        "fourow",
        "explain",
        "--format",
        "json",
        "--threads",
        "1",
        "--table",
        "2",
        "--cols",
        &cols.to_string(),
        "--rows",
        &rows.to_string(),
        "--",
        moves,
    ])
}

/// What `tomek --quiet ARGS` prints, with no strong solution in the default place.
pub(crate) fn command_json(args: &[&str]) -> String {
    stdout_of_command(
        tomek()
            .env("TOMEK_DATA_DIR", NO_DATA)
            .arg("--quiet")
            .args(args),
    )
}

/// The first line `tomek serve --addr ADDR` writes to standard error, then the first to
/// standard output; the server is ended at once, having been sent nothing.
fn first_lines(addr: &str) -> (String, String) {
    let mut child = Command::new(TOMEK)
        .args(["serve", "--addr", addr])
        .env("TOMEK_DATA_DIR", NO_DATA)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tomek serve starts");
    let mut err = String::new();
    BufReader::new(child.stderr.take().expect("stderr is piped"))
        .read_line(&mut err)
        .expect("tomek serve writes to standard error");
    let mut out = String::new();
    BufReader::new(child.stdout.take().expect("stdout is piped"))
        .read_line(&mut out)
        .expect("tomek serve prints its address");
    let _ = child.kill();
    let _ = child.wait();
    (err, out)
}

/// Another address than loopback is served, with a warning on start.
#[test]
fn web_other_address_warns_on_start() {
    let (warning, line) = first_lines("0.0.0.0:0");
    assert!(line.starts_with("listening on http://0.0.0.0:"), "{line}");
    assert!(
        warning.contains("warning") && warning.contains("not a loopback address"),
        "{warning}"
    );
}

#[test]
fn web_loopback_does_not_warn() {
    let (first, line) = first_lines("127.0.0.1:0");
    assert!(line.starts_with("listening on http://127.0.0.1:"), "{line}");
    assert!(
        first.contains("computing the perfect-play tables"),
        "{first}"
    );
    assert!(!first.contains("warning"), "{first}");
}

#[test]
#[cfg(unix)]
fn web_ctrl_c_stops_the_server_cleanly() {
    let mut server = Server::start();
    assert_eq!(server.get("/").0, 200);
    let pid = libc::pid_t::try_from(server.child.id()).expect("a pid");
    // SAFETY: signals the server this test started and still owns.
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let status = server.child.wait().expect("the server ends");
    assert!(status.success(), "{status}");
}

#[test]
fn web_bad_address_is_a_usage_error() {
    let out = Command::new(TOMEK)
        .args(["serve", "--addr", "localhost"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
}

/// `--open` hands the server's address to the desktop's opener (`xdg-open` here), replaced by
/// a script that writes down what it was given.
#[cfg(target_os = "linux")]
#[test]
fn web_open_hands_the_address_to_the_browser() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let opener = dir.path().join("xdg-open");
    std::fs::write(
        &opener,
        "#!/bin/sh\nprintf '%s' \"$1\" > \"$(dirname \"$0\")/opened.tmp\"\n\
         mv \"$(dirname \"$0\")/opened.tmp\" \"$(dirname \"$0\")/opened\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut path = std::ffi::OsString::from(dir.path());
    if let Some(rest) = std::env::var_os("PATH") {
        path.push(":");
        path.push(rest);
    }
    let server = Server::start_with(&["--open"], Some(&path));
    let opened = dir.path().join("opened");
    let start = std::time::Instant::now();
    while !opened.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the browser was never asked to open"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let url = std::fs::read_to_string(&opened).unwrap();
    assert_eq!(url, format!("http://{}/", server.addr));
    // The address it was given is the server's own.
    let (status, kind, _) = server.get("/");
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/html"), "{kind}");
}

/// Requests cut short: the server closes the connection or refuses the request, and one that
/// stalls half sent is closed once silent for the server's idle limit (15 s).
#[test]
fn web_truncated_and_stalled_requests_are_closed() {
    use std::net::Shutdown;
    let server = Server::start();
    // What the server sends back before it closes, read to the end.
    let answer = |s: &mut TcpStream| {
        let mut got = Vec::new();
        match s.read_to_end(&mut got) {
            Ok(_) => String::from_utf8_lossy(&got).into_owned(),
            // A reset is a close too.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => String::new(),
            Err(e) => panic!("the server neither answered nor closed: {e}"),
        }
    };
    for part in [
        "GET /api/tomek/expl",
        "GET /api/fourow/judge?moves=44 HTTP/1.1\r\nHost: loc",
        "GET /api/fourow/judge?moves=44 HTTP/1.1\r\nHost: localhost\r\n",
        "GARBAGE\r\n\r\n",
    ] {
        let mut s = TcpStream::connect(server.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(part.as_bytes()).unwrap();
        s.shutdown(Shutdown::Write).unwrap();
        let got = answer(&mut s);
        assert!(
            got.is_empty() || got.starts_with("HTTP/1.1 4"),
            "{part:?}: {got}"
        );
    }
    let start = std::time::Instant::now();
    let mut s = TcpStream::connect(server.addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(40))).unwrap();
    s.write_all(b"GET /api/fourow/judge?moves=44 HTTP/1.1\r\nHost: localhost\r\n")
        .unwrap();
    let got = answer(&mut s);
    let waited = start.elapsed();
    assert!(got.is_empty() || got.starts_with("HTTP/1.1 4"), "{got}");
    assert!(
        (Duration::from_secs(14)..Duration::from_secs(30)).contains(&waited),
        "closed after {waited:?}"
    );
    // The server still answers.
    assert_eq!(server.get("/api/fourow/judge?moves=44").0, 200);
}
