//! `tomek serve`: every endpoint over real HTTP on a loopback port, the refusals, the pages,
//! and a clean stop on Ctrl-C.

use crate::harness::{TOMEK, stdout_of};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `tomek serve` on a free loopback port, ended when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[], None)
    }

    /// `tomek serve` on a free loopback port with `extra` arguments, and `path` as `PATH`.
    fn start_with(extra: &[&str], path: Option<&std::ffi::OsStr>) -> Server {
        let mut command = Command::new(TOMEK);
        command.args(["serve", "--addr", "127.0.0.1:0"]).args(extra);
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
    fn get(&self, path: &str) -> (u16, String, String) {
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

    fn json(&self, path: &str) -> serde_json::Value {
        let (status, kind, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        assert_eq!(kind, "application/json", "{path}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
    }

    /// Asserts that `path` is refused with `status` and a JSON message.
    fn refused(&self, path: &str, status: u16) -> String {
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

    let s = server.json("/api/tomek/stats");
    assert_eq!(s["rows"], 4);
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
        "/api/fourow/counts?cols=7&rows=6",
        "/api/fourow/counts?cols=-1",
        "/api/fourow/counts?size=3",
        "/api/fourow/explain",
        "/api/fourow/explain?moves=",
        "/api/fourow/explain?moves=4455443322",
        "/api/fourow/explain?moves=1111111",
        "/api/fourow/explain?moves=1x",
    ] {
        server.refused(path, 400);
    }
    let message = server.refused("/api/fourow/explain?moves=", 400);
    assert!(message.contains("empty cells"), "{message}");
    server.refused("/api/nothing", 404);
    server.refused(&format!("/api/fourow/judge?moves={}", "1".repeat(600)), 414);
    let (status, _, body) = server.request(
        "POST /api/fourow/judge HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    );
    assert_eq!(status, 405, "{body}");
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
