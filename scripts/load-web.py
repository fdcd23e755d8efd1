#!/usr/bin/env python3
"""A bounded load test of `tomek serve` on loopback: starts the server on a free port, sends
REQUESTS requests from CLIENTS concurrent clients (keep-alive connections), half of them
malformed, checks every status against the one expected, and prints latency percentiles.

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
            # Near the end of a game: scored at once, or refused while another search runs.
            out.append(("/api/fourow/explain?moves=444444333333222222", {200, 503}))
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


def main():
    server = subprocess.Popen([TOMEK, "serve", "--addr", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline().strip()
    host, port = line.removeprefix("listening on http://").rstrip("/").rsplit(":", 1)
    port = int(port)
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
    server.terminate()
    server.wait(timeout=20)
    latencies.sort()

    def pct(p):
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))] * 1000

    print(f"{len(latencies)} requests, {CLIENTS} clients, {wall:.2f} s ({len(latencies) / wall:.0f}/s)")
    print(f"latency p50 {pct(50):.2f} ms, p99 {pct(99):.2f} ms, max {latencies[-1] * 1000:.2f} ms")
    print("statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str)))
    print(f"unexpected: {len(failures)}")
    for f in failures[:10]:
        print("  ", f)
    sys.exit(1 if failures else 0)


main()
