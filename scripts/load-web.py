#!/usr/bin/env python3
"""A bounded load test of `tomek serve` on loopback, which checks what it measures.

It starts the server on a free loopback port, warms it up (not timed: one Tomek explanation of
an empty board per setup, so that the server's per-setup tables are ready, the statistics of
the whole space and the positions per ply of the sizes asked for), then sends REQUESTS requests from CLIENTS
concurrent clients (keep-alive connections), about half of them malformed:

  valid       Tomek boards as clicks make them, Four in a row verdicts, positions per ply,
              column scores near the end of a game and with 22 to 24 empty cells, the pages,
              the statistics;
  malformed   bad boards and moves, unknown, out-of-range and repeated parameters (400), query
              strings of 600 bytes, 10 KB and 100 KB (414), POST, PUT and DELETE (405), each
              with its one expected status; and truncated requests on raw sockets (the request
              line cut short, or the headers without their final blank line, then the client
              closes), which must be closed by the server or refused with a 4xx.

Meanwhile STALLED connections each send half a request and then nothing: the server must
close them (or refuse them with a 4xx) within STALL_LIMIT seconds, never hang.

It fails (exit 1) unless: no valid request failed; every malformed request got its expected
status or, when truncated, a close; every stalled connection was closed in time; the server's
resident memory after the load exceeds the one after warm-up by at most RSS_MARGIN_MB; p99 of
the valid requests is at most P99_LIMIT_MS; the server is still alive at the end, answers, and
exits 0 when asked to stop. Everything goes to 127.0.0.1; the warm-up is bounded by
WARM_UP_LIMIT seconds and the rest of the run by DEADLINE seconds.

Usage: scripts/load-web.py [TOMEK] [REQUESTS] [CLIENTS]
       (defaults: target/release/tomek, 10000, 32)
"""

import asyncio
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

TOMEK = sys.argv[1] if len(sys.argv) > 1 else "target/release/tomek"
REQUESTS = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
CLIENTS = int(sys.argv[3]) if len(sys.argv) > 3 else 32
STALLED = 4
# The server closes a connection silent for 15 s.
STALL_LIMIT = 25.0
RSS_MARGIN_MB = 16.0
P99_LIMIT_MS = 50.0
DEADLINE = 300.0
TIMEOUT = 30.0
# The warm-up's bound, 503 answers asked again included (the 17 setups' tables take about 22 s
# on two idle cores, and more beside other work).
WARM_UP_LIMIT = 300.0

# Kinds of requests: (name, weight, malformed).
VALID, MALFORMED, TRUNCATED = "valid", "malformed", "truncated"


MIDGAME = [
    "36376766517472612134", "451521624327742771", "554221712722723356", "63133734632446213167",
    "1574345714162521727", "34261155412653734642", "617437226526741243", "4214752647321435757",
]


def tomek_board(rng):
    """A board as clicks make it: a setup, then alternating X and O."""
    cells = ["."] * 16
    t = rng.randrange(17)
    if t < 16:
        cells[t] = "T"
    free = [i for i in range(16) if cells[i] == "."]
    rng.shuffle(free)
    for ply in range(rng.randrange(len(free) + 1)):
        cells[free[ply]] = "XO"[ply % 2]
    return "".join(cells)


def get(path):
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()


def closing(method, path, body=b""):
    """A request on a connection of its own, closed after the answer."""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if body:
        head += f"Content-Length: {len(body)}\r\n"
    return (head + "\r\n").encode() + body


def requests_to_send(rng):
    """(kind, label, raw request, expected statuses, a connection of its own)."""
    out = []
    for _ in range(REQUESTS):
        k = rng.randrange(100)
        if k < 22:
            out.append((VALID, "tomek explain", get("/api/tomek/explain?board=" + tomek_board(rng)), {200}, False))
        elif k < 30:
            moves = "".join(rng.choice("1234567") for _ in range(rng.randrange(43)))
            out.append((VALID, "fourow judge", get("/api/fourow/judge?moves=" + moves), {200}, False))
        elif k < 35:
            size = rng.choice(["cols=4&rows=3", "cols=4&rows=4", "cols=7&rows=6", "cols=5&rows=4"])
            out.append((VALID, "fourow counts", get("/api/fourow/counts?" + size), {200}, False))
        elif k < 40:
            # Near the end of a game: scored at once, after waiting its turn for a core.
            out.append((VALID, "fourow explain", get("/api/fourow/explain?moves=444444333333222222"), {200}, False))
        elif k < 41:
            # Positions of random games with 22 to 24 empty cells: a search of 6 to 17 ms alone.
            moves = rng.choice(MIDGAME)
            out.append((VALID, "fourow explain midgame", get("/api/fourow/explain?moves=" + moves), {200}, False))
        elif k < 45:
            page = rng.choice(["/", "/tomek", "/fourow", "/app.js", "/style.css"])
            out.append((VALID, "page", get(page), {200}, False))
        elif k < 46:
            out.append((VALID, "tomek stats", get("/api/tomek/stats"), {200}, False))
        elif k < 54:
            board = rng.choice(["XXX", "ABCD" * 4, "%FF", "X" * 65, "XO." * 100, "XXXT..O..........."])
            out.append((MALFORMED, "bad board", get("/api/tomek/explain?board=" + board), {400}, False))
        elif k < 62:
            path = rng.choice([
                "/api/fourow/judge?moves=8",
                "/api/fourow/judge?moves=1x",
                "/api/fourow/judge?moves=" + "1" * 65,
                "/api/fourow/counts?cols=x",
                "/api/fourow/counts?cols=99",
                "/api/fourow/counts?cols=5&rows=5",
                "/api/fourow/explain?moves=",
                "/api/fourow/explain?moves=4455443322",
                "/api/fourow/explain?moves=12&cols=0",
                "/api/fourow/explain?moves=12&rows=64",
                "/api/tomek/stats?refresh=1",
                "/api/tomek/explain?board=................&depth=2",
            ])
            out.append((MALFORMED, "bad parameter", get(path), {400}, False))
        elif k < 66:
            path = rng.choice([
                "/api/tomek/explain?board=XO..............&board=OX..............",
                "/api/fourow/judge?moves=44&moves=45",
                "/api/fourow/counts?cols=4&rows=4&cols=4",
            ])
            out.append((MALFORMED, "repeated parameter", get(path), {400}, False))
        elif k < 71:
            size = rng.choice([600, 10_000, 100_000])
            path = "/api/fourow/judge?moves=" + "1" * size
            out.append((MALFORMED, f"query of {size} B", closing("GET", path), {414}, True))
        elif k < 80:
            method = rng.choice(["POST", "PUT", "DELETE"])
            path = rng.choice(["/api/tomek/explain?board=................", "/api/fourow/judge?moves=44", "/tomek"])
            body = b"" if method == "DELETE" else b'{"board": "XO"}'
            out.append((MALFORMED, method, closing(method, path, body), {405}, True))
        elif k < 90:
            part = rng.choice([
                b"GET /api/tomek/expl",
                b"GET /api/fourow/judge?moves=44 HTT",
            ])
            out.append((TRUNCATED, "request line cut short", part, set(), True))
        else:
            part = get("/api/fourow/judge?moves=44")[:-2]
            out.append((TRUNCATED, "headers unfinished", part, set(), True))
    return out


def rss_mb(pid):
    """The resident set of process `pid` in MB, or None where /proc does not say."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def warm_up(base):
    """Asks once for a board of each setup's first ply (no T, then a T on each square), the
    statistics and the 7×6 counts, so that what the server keeps is ready before the
    measured requests. While the server is still computing a setup's tables it may answer 503
    ("try again later", once a request has waited REQUEST_TIMEOUT): the warm-up asks again, as
    the page does, until WARM_UP_LIMIT seconds have passed."""
    deadline = time.perf_counter() + WARM_UP_LIMIT
    paths = []
    for t in [None] + list(range(16)):
        cells = ["."] * 16
        if t is not None:
            cells[t] = "T"
        paths.append("/api/tomek/explain?board=" + "".join(cells))
    paths.append("/api/tomek/stats")
    paths += ["/api/fourow/counts?" + size for size in ["cols=4&rows=3", "cols=4&rows=4", "cols=7&rows=6", "cols=5&rows=4"]]
    retries = 0
    for path in paths:
        while True:
            try:
                with urllib.request.urlopen(base + path, timeout=120) as r:
                    r.read()
                break
            except urllib.error.HTTPError as e:
                if e.code != 503 or time.perf_counter() > deadline:
                    raise
                retries += 1
                time.sleep(0.5)
    return retries


async def read_answer(reader):
    """(status, closing) of one answer, its body read; None if the server closed first."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    length, close = None, False
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value.strip())
        elif name == "connection" and value.strip().lower() == "close":
            close = True
    if length is None:
        await reader.read()
        close = True
    else:
        await reader.readexactly(length)
    return status, close


async def one_shot(host, port, raw, truncated):
    """A request on a connection of its own: its status, or "closed" when the server closed
    it without an answer."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(raw)
        await writer.drain()
        if truncated:
            # The client gives up: the server sees the end of the stream mid-request.
            writer.write_eof()
        try:
            status, _ = await read_answer(reader)
            return status
        except (asyncio.IncompleteReadError, ConnectionResetError):
            return "closed"
    finally:
        writer.close()


async def load(host, port, work):
    results = []  # (kind, label, status, expected, seconds)
    queue = iter(range(len(work)))

    async def client():
        reader = writer = None
        for i in queue:
            kind, label, raw, expected, own = work[i]
            t = time.perf_counter()
            try:
                if own:
                    status = await asyncio.wait_for(one_shot(host, port, raw, kind == TRUNCATED), TIMEOUT)
                else:
                    if writer is None:
                        reader, writer = await asyncio.open_connection(host, port)
                    writer.write(raw)
                    await writer.drain()
                    status, close = await asyncio.wait_for(read_answer(reader), TIMEOUT)
                    if close:
                        writer.close()
                        reader = writer = None
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as e:
                status = f"error {type(e).__name__}"
                if writer is not None:
                    writer.close()
                reader = writer = None
            results.append((kind, label, status, expected, time.perf_counter() - t))
        if writer is not None:
            writer.close()

    await asyncio.gather(*(client() for _ in range(CLIENTS)))
    return results


def stall(host, port, out):
    """Half a request, then silence: how long until the server closes it, and what it said."""
    s = socket.create_connection((host, port), timeout=STALL_LIMIT + 10)
    t = time.perf_counter()
    s.sendall(b"GET /api/fourow/judge?moves=44 HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    got = b""
    try:
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
    except socket.timeout:
        got = None
    except ConnectionResetError:
        pass
    out.append((time.perf_counter() - t, got))
    s.close()


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))] * 1000


def main():
    run_started = time.perf_counter()
    failures = []
    server = subprocess.Popen([TOMEK, "serve", "--addr", "127.0.0.1:0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline().strip()
    if not line.startswith("listening on http://127.0.0.1:"):
        server.kill()
        sys.exit(f"load-web: tomek serve said {line!r}")
    base = line.removeprefix("listening on ").rstrip("/")
    host, port = base.removeprefix("http://").rsplit(":", 1)
    port = int(port)
    try:
        rss_start = rss_mb(server.pid)
        warm_started = time.perf_counter()
        warm_retries = warm_up(base)
        warm_time = time.perf_counter() - warm_started
        rss_warm = rss_mb(server.pid)

        stalls = []
        stallers = [threading.Thread(target=stall, args=(host, port, stalls)) for _ in range(STALLED)]
        for s in stallers:
            s.start()
        work = requests_to_send(random.Random(1))
        load_started = time.perf_counter()
        results = asyncio.run(asyncio.wait_for(load(host, port, work), DEADLINE))
        wall = time.perf_counter() - load_started
        for s in stallers:
            s.join()
        rss_end = rss_mb(server.pid)
        alive = server.poll() is None
        try:
            with urllib.request.urlopen(base + "/api/fourow/judge?moves=44", timeout=10) as r:
                answers = r.status == 200
        except OSError:
            answers = False
    finally:
        server.terminate()
        try:
            code = server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            code = "did not stop in 20 s"

    def mb(v):
        return "?" if v is None else f"{v:.1f} MB"

    by = {VALID: [], MALFORMED: [], TRUNCATED: []}
    statuses = {}
    for kind, label, status, expected, seconds in results:
        by[kind].append(seconds)
        key = (kind, label, status)
        statuses[key] = statuses.get(key, 0) + 1
        ok = status == "closed" or (isinstance(status, int) and 400 <= status < 500) if kind == TRUNCATED else status in expected
        if not ok:
            failures.append(f"{kind} {label}: {status}, expected {sorted(expected) or 'a close or 4xx'}")

    print(f"load-web: warm-up {warm_time:.2f} s ({warm_retries} answers of 503 asked again); server RSS: start {mb(rss_start)}, after warm-up {mb(rss_warm)}, after the load {mb(rss_end)}")
    print(f"load-web: {len(results)} requests from {CLIENTS} clients in {wall:.2f} s ({len(results) / wall:.0f}/s)")
    for kind in (VALID, MALFORMED, TRUNCATED):
        v = by[kind]
        print(f"load-web: {kind:9} {len(v):5} requests: p50 {pct(v, 50):.2f} ms, p99 {pct(v, 99):.2f} ms, max {max(v, default=0) * 1000:.2f} ms")
    for (kind, label, status), n in sorted(statuses.items(), key=str):
        print(f"load-web:   {kind:9} {label:24} {status}: {n}")
    for seconds, got in stalls:
        said = "no answer before the time limit" if got is None else (got.split(b"\r\n")[0].decode("latin-1") or "closed")
        print(f"load-web: stalled connection: {said} after {seconds:.1f} s")
        if got is None or seconds > STALL_LIMIT or (got and not got.startswith(b"HTTP/1.1 4")):
            failures.append(f"a stalled connection: {said} after {seconds:.1f} s")
    if len(stalls) != STALLED:
        failures.append(f"{STALLED - len(stalls)} stalled connections not checked")

    # The checks.
    if len(results) != len(work):
        failures.append(f"{len(work) - len(results)} requests never sent")
    p99 = pct(by[VALID], 99)
    if not p99 <= P99_LIMIT_MS:
        failures.append(f"p99 of the valid requests is {p99:.2f} ms, over {P99_LIMIT_MS:.0f} ms")
    if rss_warm is None or rss_end is None:
        failures.append("the server's resident memory cannot be read from /proc")
    elif rss_end > rss_warm + RSS_MARGIN_MB:
        failures.append(f"resident memory grew by {rss_end - rss_warm:.1f} MB after warm-up (at most {RSS_MARGIN_MB:.0f} MB)")
    if not alive:
        failures.append(f"the server died during the load (exit {server.returncode})")
    if not answers:
        failures.append("the server does not answer after the load")
    if code != 0:
        failures.append(f"the server did not stop cleanly: {code}")
    total = time.perf_counter() - run_started
    if total - warm_time > DEADLINE:
        failures.append(f"the run after its warm-up took {total - warm_time:.0f} s, over {DEADLINE:.0f} s")
    print(f"load-web: checks: every valid request 200, every malformed one its 4xx, truncated ones closed or 4xx, "
          f"stalled ones closed within {STALL_LIMIT:.0f} s, valid p99 <= {P99_LIMIT_MS:.0f} ms, RSS growth <= "
          f"{RSS_MARGIN_MB:.0f} MB after warm-up, the server alive, answering and stopping with 0 ({total:.1f} s in all)")
    if failures:
        print(f"load-web: FAILED: {len(failures)} failures")
        for f in failures[:20]:
            print("load-web:   " + f)
        sys.exit(1)
    print("load-web: all checks passed")


main()
