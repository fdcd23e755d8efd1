#!/usr/bin/env python3
"""A bounded load test of `tomek serve` on loopback: starts the server on a free port, warms it
up (one Tomek explanation of an empty board per setup, waiting for the server's tables; not
timed), then sends REQUESTS requests from CLIENTS concurrent clients (keep-alive connections),
half of them malformed, checks every status against the one expected, and prints latency
percentiles and the server's resident memory (start, after warm-up, after the load).

Usage: scripts/load-web.py [TOMEK] [REQUESTS] [CLIENTS]
       (defaults: target/release/tomek, 10000, 32)
"""

import http.client
import random
import subprocess
import sys
import threading
import time

TOMEK = sys.argv[1] if len(sys.argv) > 1 else "target/release/tomek"
REQUESTS = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
CLIENTS = int(sys.argv[3]) if len(sys.argv) > 3 else 32


def requests_to_send(rng):
    """(path, the statuses that are right for it)."""
    out = []
    for _ in range(REQUESTS):
        kind = rng.randrange(10)
        if kind == 0:
            cells = list("XXXOOO" + "." * 10)
            rng.shuffle(cells)
            out.append(("/api/tomek/explain?board=" + "".join(cells), {200}))
        elif kind == 1:
            cells = list(rng.choice(["XXXXOOOT", "XO", "XXOOT"]) + "." * 16)[:16]
            rng.shuffle(cells)
            out.append(("/api/tomek/explain?board=" + "".join(cells), {200}))
        elif kind == 2:
            moves = "".join(rng.choice("1234567") for _ in range(rng.randrange(43)))
            out.append(("/api/fourow/judge?moves=" + moves, {200}))
        elif kind == 3:
            out.append(("/api/fourow/counts?cols=4&rows=3", {200}))
        elif kind == 4:
            # Near the end of a game: scored at once, after waiting its turn for a core.
            out.append(("/api/fourow/explain?moves=444444333333222222", {200}))
        elif kind == 5:
            out.append(("/api/tomek/explain?board=" + rng.choice(["XXX", "ABCD" * 4, "%FF"]), {400}))
        elif kind == 6:
            out.append(("/api/fourow/judge?moves=" + rng.choice(["8", "1x", "0", "-1"]), {400}))
        elif kind == 7:
            out.append(("/api/fourow/counts?cols=" + rng.choice(["7&rows=6", "x", "99"]), {400}))
        elif kind == 8:
            out.append(("/api/fourow/explain?moves=" + rng.choice(["", "12", "4455443322"]), {400}))
        else:
            out.append(("/api/fourow/judge?moves=" + "1" * 700, {414}))
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


def warm_up(host, port):
    """Asks once for a board of each setup's first ply (no T, then a T on each square), so that
    the server's per-setup tables are computed before the measured requests."""
    conn = http.client.HTTPConnection(host, port, timeout=120)
    for t in [None] + list(range(16)):
        cells = ["."] * 16
        if t is not None:
            cells[t] = "T"
        conn.request("GET", "/api/tomek/explain?board=" + "".join(cells))
        r = conn.getresponse()
        r.read()
        if r.status != 200:
            sys.exit(f"warm-up: status {r.status} for setup {t}")
    conn.close()


def main():
    server = subprocess.Popen([TOMEK, "serve", "--addr", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline().strip()
    host, port = line.removeprefix("listening on http://").rstrip("/").rsplit(":", 1)
    port = int(port)
    rss_start = rss_mb(server.pid)
    warm_started = time.perf_counter()
    warm_up(host, port)
    warm_time = time.perf_counter() - warm_started
    rss_warm = rss_mb(server.pid)
    work = requests_to_send(random.Random(1))
    lock = threading.Lock()
    latencies, failures, statuses = [], [], {}
    next_index = [0]

    def client():
        conn = http.client.HTTPConnection(host, port, timeout=30)
        while True:
            with lock:
                i = next_index[0]
                next_index[0] += 1
            if i >= len(work):
                break
            path, expected = work[i]
            t = time.perf_counter()
            try:
                conn.request("GET", path)
                r = conn.getresponse()
                r.read()
                status = r.status
            except (OSError, http.client.HTTPException) as e:
                conn.close()
                conn = http.client.HTTPConnection(host, port, timeout=30)
                status = f"error {type(e).__name__}"
            elapsed = time.perf_counter() - t
            with lock:
                latencies.append(elapsed)
                statuses[status] = statuses.get(status, 0) + 1
                if status not in expected:
                    failures.append((path[:60], status))
        conn.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    rss_end = rss_mb(server.pid)
    server.terminate()
    server.wait(timeout=20)
    latencies.sort()

    def pct(p):
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))] * 1000

    def mb(v):
        return "?" if v is None else f"{v:.1f} MB"

    print(f"warm-up {warm_time:.2f} s; server RSS: start {mb(rss_start)}, after warm-up {mb(rss_warm)}, after the load {mb(rss_end)}")
    print(f"{len(latencies)} requests, {CLIENTS} clients, {wall:.2f} s ({len(latencies) / wall:.0f}/s)")
    print(f"latency p50 {pct(50):.2f} ms, p99 {pct(99):.2f} ms, max {latencies[-1] * 1000:.2f} ms")
    print("statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str)))
    print(f"unexpected: {len(failures)}")
    for f in failures[:10]:
        print("  ", f)
    sys.exit(1 if failures else 0)


main()
