#!/usr/bin/env bash
# Wall-clock benchmarks of the release build on large generated inputs.
#
# Usage: scripts/bench.sh [SECTION...]     (default: every section)
#
# Each section is a function `section_NAME` that measures something and adds rows to the
# summary with `record`; new benchmarks are new sections. Timings are the best of $RUNS runs,
# with the input already in the page cache, so they compare work rather than disk speed; rows
# marked "(median)" are medians of commands alternated round by round (see median_pair).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOMEK="${CARGO_TARGET_DIR:-$ROOT/target}/release/tomek"
RUNS="${RUNS:-5}"
# 6 × 1,666,667 sample cases: just over ten million.
REPEATS="${REPEATS:-1666667}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/tomek-bench.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

SUMMARY=()

# record NAME SECONDS BASELINE_SECONDS: one summary row, with the ratio to the baseline.
record() {
    local ratio
    ratio="$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
    SUMMARY+=("$(printf '%-44s %9s s %9s s %7s×' "$1" "$2" "$3" "$ratio")")
    printf '%-44s %9s s   (baseline %s s, ratio %s)\n' "$1" "$2" "$3" "$ratio"
}

# best_time CMD...: the fastest wall time of $RUNS runs, in seconds; output goes to /dev/null
# unless the command redirects it itself.
best_time() {
    best_time_fresh "" "$@"
}

# best_time_fresh "FILE..." CMD...: best_time, with the files removed before each run (outside
# the timing). A command that replaces an existing file also pays for the filesystem's deletion
# of the old one, which on this kind of disk (mounted with `discard`) waits for the device to
# trim its blocks: tens of milliseconds per hundred megabytes, charged to whichever command
# happens to replace it. Writing to new files compares the commands' own work.
best_time_fresh() {
    local files="$1" best="" start end t
    shift
    for _ in $(seq "$RUNS"); do
        # shellcheck disable=SC2086 # the list is split on purpose
        [[ -z "$files" ]] || rm -rf $files
        start="$(date +%s%N)"
        "$@" >/dev/null
        end="$(date +%s%N)"
        t=$((end - start))
        if [[ -z "$best" || "$t" -lt "$best" ]]; then best="$t"; fi
    done
    awk -v ns="$best" 'BEGIN { printf "%.3f", ns / 1e9 }'
}

# Extra flags for the build. The default features serve every section but `query`, which adds
# the SQL engine (`--features sql`, a build of a quarter of an hour) when it is asked for.
BUILD_FLAGS="${BUILD_FLAGS:-}"

build() {
    echo "== building the release binary"
    # shellcheck disable=SC2086 # the flags are split on purpose
    (cd "$ROOT" && cargo build --release --quiet $BUILD_FLAGS)
}

# alternated ROUNDS REDUCE A B: runs the shell functions A and B in turn for ROUNDS rounds
# (`A B A B ...`), output to /dev/null, and prints REDUCE (median_s or min_s) of each one's wall
# times, in seconds. Alternating them makes both see the same load on a shared machine, so their
# ratio means more than either time.
alternated() {
    local rounds="$1" reduce="$2" ta=() tb=() start end
    for _ in $(seq "$rounds"); do
        start="$(date +%s%N)"
        "$3" >/dev/null
        end="$(date +%s%N)"
        ta+=($((end - start)))
        start="$(date +%s%N)"
        "$4" >/dev/null
        end="$(date +%s%N)"
        tb+=($((end - start)))
    done
    printf '%s %s\n' "$("$reduce" "${ta[@]}")" "$("$reduce" "${tb[@]}")"
}

# median_pair A B: the medians of A's and B's times over $MEDIAN_RUNS alternated rounds
# (default 7); medians rather than bests, as a load that comes and goes is not the work measured.
median_pair() { alternated "${MEDIAN_RUNS:-7}" median_s "$1" "$2"; }

# best_pair A B: the best of A's and B's times over $RUNS alternated rounds: for commands whose
# speed is steady but whose machine is not.
best_pair() { alternated "$RUNS" min_s "$1" "$2"; }

# min_s NS...: the least of nanosecond counts, in seconds.
min_s() {
    printf '%s\n' "$@" | sort -n | awk 'NR == 1 { printf "%.3f", $1 / 1e9 }'
}

# median_s NS...: the median of nanosecond counts, in seconds.
median_s() {
    printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
        m = (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); printf "%.3f", m / 1e9 }'
}

# make_big_input FILE: the official sample's six cases repeated $REPEATS times, with the
# count line to match. Deterministic, and every answer is known: case n answers like sample
# case ((n - 1) mod 6) + 1.
make_big_input() {
    local file="$1" block
    # $(...) drops the final empty line; `yes` adds one newline back, so add the other.
    block="$(tail -n +2 "$ROOT/generated/sample.in")"$'\n'
    {
        echo $((6 * REPEATS))
        # `yes` ends on SIGPIPE once `head` has enough, which is the plan, not a failure.
        (yes "$block" || true) | head -n $((30 * REPEATS))
    } >"$file"
}

section_solve() {
    local input="$WORK/big.in" out="$WORK/big.out" cases wc_s solve_s file_s
    echo "== solve: $((6 * REPEATS)) cases, then every reachable board"
    make_big_input "$input"
    cases="$(head -n 1 "$input")"
    echo "   input: $(du -h "$input" | cut -f1), $(wc -l <"$input") lines"
    cat "$input" >/dev/null # warm the page cache

    wc_s="$(best_time wc -l "$input")"
    solve_s="$(best_time "$TOMEK" solve "$input")"
    file_s="$(best_time_fresh "$out" "$TOMEK" solve "$input" -o "$out")"

    # The answers must be right, not just fast.
    local last_want
    last_want="$(sed -n "$(((cases - 1) % 6 + 1))p" "$ROOT/generated/sample.out" |
        sed "s/^Case #[0-9]*:/Case #$cases:/")"
    if [[ "$(wc -l <"$out")" != "$cases" || "$(tail -n 1 "$out")" != "$last_want" ]]; then
        echo "bench: wrong answers in $out" >&2
        exit 1
    fi

    record "wc -l" "$wc_s" "$wc_s"
    record "tomek solve > /dev/null" "$solve_s" "$wc_s"
    record "tomek solve -o FILE" "$file_s" "$wc_s"

    solve_every_board
}

# Where the file of every reachable board is kept between runs (1.3 GB, and its answers
# 2.3 GB): outside the checkout, and not in $WORK, which goes at the end of every run.
CACHE="${BENCH_CACHE:-${TMPDIR:-/tmp}/tomek-bench-cache}"

# solve_every_board: `tomek solve` over every reachable board against `wc -l` on the same
# file, alternated round by round (see median_pair), with pass or fail against the target of
# 3×. The file is made once by `tomek enumerate` and kept in $CACHE; the answers must match
# the ones enumerate wrote beside it, byte for byte.
solve_every_board() {
    local all="$CACHE/every-board" wc_s solve_s times ratio verdict line
    mkdir -p "$CACHE"
    if [[ ! -f "$all.in" || ! -f "$all.out" ]]; then
        echo "   making $all.in with tomek enumerate (kept for later runs)"
        # Both files are written under a temporary prefix and renamed once complete, so an
        # interrupted run leaves no half file behind to be taken for the whole.
        "$TOMEK" --quiet enumerate -o "$all.tmp"
        mv "$all.tmp.out" "$all.out"
        mv "$all.tmp.in" "$all.in"
    fi
    echo "   every reachable board: $(head -n 1 "$all.in") cases, $(du -h "$all.in" | cut -f1)"
    cat "$all.in" >/dev/null # warm the page cache
    if ! "$TOMEK" solve "$all.in" | cmp -s - "$all.out"; then
        echo "bench: tomek solve answers $all.in differently from tomek enumerate" >&2
        exit 1
    fi

    every_wc() { wc -l "$all.in"; }
    every_solve() { "$TOMEK" solve "$all.in"; }
    echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    times="$(median_pair every_wc every_solve)"
    wc_s="${times% *}"
    solve_s="${times#* }"
    echo "   load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    ratio="$(awk -v a="$solve_s" -v b="$wc_s" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
    verdict="$(awk -v r="$ratio" 'BEGIN { print (r + 0 <= 3 ? "pass" : "FAIL") }')"
    record "wc -l, every board (median)" "$wc_s" "$wc_s"
    record "tomek solve, every board (median)" "$solve_s" "$wc_s"
    line="$(printf '%-44s %9s×  target ≤ 3×  %s' "solve / wc -l, every reachable board" "$ratio" "$verdict")"
    SUMMARY+=("$line")
    echo "   $line"
}

# The C yardstick of the state-space benchmarks: a single-threaded depth-first count of every
# reachable board of the 17 setups. Kept outside the repository, next to it.
BASELINES="${BASELINES:-$ROOT/../shared/baselines}"

section_stats() {
    local src="$BASELINES/tomek_dfs.c" c_bin="$WORK/tomek_dfs" want got c_s counts_s full_s audit_s peak
    echo "== stats: every reachable board of the 17 setups, against the C yardstick"
    if [[ ! -f "$src" ]]; then
        echo "   skipped: no $src (set BASELINES to the folder holding tomek_dfs.c)"
        return
    fi
    gcc -O2 -march=native -o "$c_bin" "$src"

    # Both must count the same boards before their times mean anything.
    want="$("$c_bin")"
    got="$("$TOMEK" stats -q --only counts --format csv | awk -F, '$1 == "all" { print $NF }')"
    if [[ "$want" != "$got" ]]; then
        echo "bench: tomek counts $got boards, the C yardstick $want" >&2
        exit 1
    fi
    "$TOMEK" audit -q >/dev/null || {
        echo "bench: tomek audit found mismatches" >&2
        exit 1
    }
    echo "   $got reachable boards; $(nproc) cores"

    # Back to back, so that both see the same machine.
    c_s="$(best_time "$c_bin")"
    counts_s="$(best_time "$TOMEK" stats -q --only counts)"
    full_s="$(best_time "$TOMEK" stats -q)"
    audit_s="$(best_time "$TOMEK" audit -q)"

    record "C yardstick (tomek_dfs.c, one thread)" "$c_s" "$c_s"
    record "tomek stats --only counts (target 0.60×)" "$counts_s" "$c_s"
    record "tomek stats (target 3×)" "$full_s" "$c_s"
    record "tomek audit (target 2×)" "$audit_s" "$c_s"

    if [[ -x /usr/bin/time ]]; then
        peak="$(/usr/bin/time -f %M "$TOMEK" stats -q --only counts 2>&1 >/dev/null | tail -n 1)"
        echo "   peak memory of tomek stats --only counts: $((peak / 1024)) MiB (target < 1024 MiB)"
        SUMMARY+=("$(printf '%-44s %9s MiB' "peak memory, stats --only counts" "$((peak / 1024))")")
    else
        echo "   peak memory: skipped (no GNU time at /usr/bin/time)"
    fi
}

# The audit of an external solver against the plain pipeline it replaces: `tomek solve` run by
# `tomek audit --solver` over every reachable board of every setup, beside `tomek enumerate |
# tomek solve > /dev/null` on the same boards. Both explore the state space and move the same
# input through a pipe to the same solver; the audit also reads, checks and counts every
# answer. It runs the solver on chunks of $AUDIT_CHUNK cases (default 1,000,000: at the Code Jam
# limit of 1,000 a run per chunk would be 61,090 process starts, about a minute of spawning
# alone), with one solver per core.
section_audit_solver() {
    local chunk="${AUDIT_CHUNK:-1000000}" report="$WORK/audit.txt" pipe_s audit_s
    echo "== audit --solver: every reachable board, chunks of $chunk"
    pipe_s="$(best_time sh -c "'$TOMEK' enumerate --quiet | '$TOMEK' solve > /dev/null")"
    audit_s="$(best_time sh -c "'$TOMEK' audit --quiet --solver '$TOMEK solve' --chunk $chunk > '$report'")"
    # The audit must have passed, on every board.
    if ! grep -q "answered all 61,089,795 boards right" "$report"; then
        echo "bench: the audit of tomek solve did not pass:" >&2
        cat "$report" >&2
        exit 1
    fi
    record "enumerate | solve > /dev/null" "$pipe_s" "$pipe_s"
    record "audit --solver 'tomek solve' --chunk $chunk" "$audit_s" "$pipe_s"
}

# A plain Python 3 solution, as a contestant writes it (it reads standard input and prints with
# `print`), audited with the default options against running it once over the same boards:
# the boards of setup $AUDIT_SETUP (default 5: 3,181,881 boards). Twice: with Python's
# buffered output, and with PYTHONUNBUFFERED=1, where every line is a write of its own (as
# with `endl` in C++ or `flush=True`). The solver alone writes to a file; the audit runs it
# on chunks fitted to its speed, one solver per core. Targets: 0.7× (buffered) and 0.8×
# (flushing every line) on 2 cores. Each timing is the best of $AUDIT_PY_RUNS runs (default
# 1: a run takes about a minute).
section_audit_python() {
    local setup="${AUDIT_SETUP:-5}" sol="$WORK/sol.py" boards="$WORK/setup" report="$WORK/audit-py.txt"
    local runs="${AUDIT_PY_RUNS:-1}" alone_s audit_s alone_u_s audit_u_s count
    cat >"$sol" <<'PY'
import sys


def status(rows):
    lines = rows + ["".join(r[c] for r in rows) for c in range(4)]
    lines.append("".join(rows[i][i] for i in range(4)))
    lines.append("".join(rows[i][3 - i] for i in range(4)))
    for p in "XO":
        for line in lines:
            if all(ch == p or ch == "T" for ch in line):
                return p + " won"
    for r in rows:
        if "." in r:
            return "Game has not completed"
    return "Draw"


words = sys.stdin.read().split()
for case in range(1, int(words[0]) + 1):
    print("Case #%d: %s" % (case, status(words[4 * case - 3:4 * case + 1])))
PY
    "$TOMEK" --quiet enumerate --setup "$setup" -o "$boards"
    count="$(head -n 1 "$boards.in")"
    echo "== audit_python: a plain Python solver, alone and audited, on the $count boards of setup $setup"
    cat "$boards.in" >/dev/null # warm the page cache
    # (The audits below check that the solver is right: they must pass.)

    # Buffered: whatever the environment says (PYTHONUNBUFFERED may be set globally).
    alone_s="$(RUNS="$runs" best_time_fresh "$WORK/py.out" env -u PYTHONUNBUFFERED sh -c "python3 '$sol' < '$boards.in' > '$WORK/py.out'")"
    audit_s="$(RUNS="$runs" best_time env -u PYTHONUNBUFFERED sh -c "'$TOMEK' audit --quiet --solver \"python3 '$sol'\" --setup $setup > '$report'")"
    grep -q "answered all .* boards right" "$report" || { cat "$report" >&2; exit 1; }
    sed -n 's/^  checked.*  in /   buffered: /p' "$report"
    alone_u_s="$(RUNS="$runs" best_time_fresh "$WORK/py.out" sh -c "PYTHONUNBUFFERED=1 python3 '$sol' < '$boards.in' > '$WORK/py.out'")"
    audit_u_s="$(RUNS="$runs" best_time sh -c "PYTHONUNBUFFERED=1 '$TOMEK' audit --quiet --solver \"python3 '$sol'\" --setup $setup > '$report'")"
    grep -q "answered all .* boards right" "$report" || { cat "$report" >&2; exit 1; }
    sed -n 's/^  checked.*  in /   line by line: /p' "$report"

    record "python3 sol.py > file (buffered)" "$alone_s" "$alone_s"
    record "audit --solver, buffered (target 0.7×)" "$audit_s" "$alone_s"
    record "python3 sol.py > file (line by line)" "$alone_u_s" "$alone_u_s"
    record "audit --solver, line by line (target 0.8×)" "$audit_u_s" "$alone_u_s"
}

# Generating ten million uniform cases with their answers, against solving the same input and
# against validating it (format and reachability of every board). Both ratios should stay
# under 2. The outputs are written to new files (see best_time_fresh); the same two commands
# replacing their previous outputs are timed too, for the record.
section_generate() {
    local prefix="$WORK/gen" solved="$WORK/gen.solved" cases="${GEN_CASES:-10000000}"
    local solve_s gen_s val_s solve_over_s gen_over_s
    echo "== generate: $cases uniform cases with answers; solve and validate the same input"
    "$TOMEK" --quiet generate --cases "$cases" -o "$prefix"
    cat "$prefix.in" "$prefix.out" >/dev/null # warm the page cache

    gen_s="$(best_time_fresh "$prefix.in $prefix.out" \
        "$TOMEK" --quiet generate --cases "$cases" -o "$prefix")"
    solve_s="$(best_time_fresh "$solved" "$TOMEK" solve "$prefix.in" -o "$solved")"
    val_s="$(best_time "$TOMEK" --quiet validate "$prefix.in")"
    gen_over_s="$(best_time "$TOMEK" --quiet generate --cases "$cases" -o "$prefix")"
    solve_over_s="$(best_time "$TOMEK" solve "$prefix.in" -o "$solved")"

    # The generator's answers must be the solver's, and the file valid.
    cmp "$prefix.out" "$solved"
    "$TOMEK" --quiet validate "$prefix.in" | head -n 1

    record "tomek solve -o FILE (uniform input)" "$solve_s" "$solve_s"
    record "tomek generate --cases N -o PREFIX" "$gen_s" "$solve_s"
    record "tomek validate FILE" "$val_s" "$solve_s"
    record "tomek solve -o FILE, replacing it" "$solve_over_s" "$solve_over_s"
    record "tomek generate -o PREFIX, replacing them" "$gen_over_s" "$solve_over_s"
}

# Building each problem package in every format with its default sizes (target: under 2 s
# each), written to a new directory every run; each row says pass or fail against the target.
# Then the run times the time limits are derived from (src/package/tictactoe.rs and fourow.rs,
# `timing`): every Python submission of the legacy packages, once each, on the biggest test
# file, against the figures the packages are built with.
section_package() {
    local dir="$WORK/pkg" f p t verdict failed=0
    echo "== package: both problems in every format, default sizes (target < 2 s each)"
    for f in legacy 2025-09 polygon domjudge; do
        for p in tomek fourow; do
            if [[ "$p" == tomek ]]; then
                t="$(best_time_fresh "$dir $dir.zip" "$TOMEK" package --format "$f" -o "$dir")"
            else
                t="$(best_time_fresh "$dir $dir.zip" "$TOMEK" fourow package --format "$f" -o "$dir")"
            fi
            verdict="$(awk -v t="$t" 'BEGIN { print (t < 2 ? "pass" : "FAIL") }')"
            [[ "$verdict" == pass ]] || failed=1
            record "package $p --format $f: $verdict (< 2 s)" "$t" 2
        done
    done
    [[ "$failed" -eq 0 ]] || echo "   some package took 2 s or more"
    package_timing
}

# package_timing: the slowest accepted and the slowest wrong Python run on Tomek's big uniform
# file (50,000 boards) and on every Four in a row file, as the limits' constants assume
# (Tomek: 0.1 s + 13 µs a board accepted, 0.1 s + 19 µs wrong: 0.75 s and 1.05 s; Four in a
# row: 0.2 s for every run). Each program runs once.
package_timing() {
    local pk="$WORK/timing" sub t ac wrong kind file case
    rm -rf "$pk"
    mkdir -p "$pk"
    "$TOMEK" package -o "$pk/tomek" >/dev/null
    "$TOMEK" fourow package -o "$pk/fourow" >/dev/null
    echo "== package: the run times behind the time limits (python3 on the biggest files)"
    for case in tomek/data/secret/05-uniform fourow/data/secret/01-mixed fourow/data/secret/02-full-boards; do
        ac=0
        wrong=0
        for kind in accepted wrong_answer; do
            for file in "$pk/${case%%/*}/submissions/$kind"/*.py; do
                t="$(RUNS=1 best_time bash -c 'python3 "$1" <"$2" >/dev/null' _ "$file" "$pk/$case.in")"
                if [[ "$kind" == accepted ]]; then
                    ac="$(awk -v a="$ac" -v t="$t" 'BEGIN { print (t > a ? t : a) }')"
                else
                    wrong="$(awk -v a="$wrong" -v t="$t" 'BEGIN { print (t > a ? t : a) }')"
                fi
            done
        done
        printf '   %-36s slowest accepted %s s, slowest wrong %s s\n' "$case" "$ac" "$wrong"
        if [[ "$case" == tomek/* ]]; then
            record "timing tomek accepted (assumed 0.75 s)" "$ac" 0.75
            record "timing tomek wrong (assumed 1.05 s)" "$wrong" 1.05
        else
            record "timing fourow ${case##*/} (assumed 0.2 s)" "$(awk -v a="$ac" -v w="$wrong" 'BEGIN { print (a > w ? a : w) }')" 0.2
        fi
    done
}

# SQL over the state space (tomek query), against the statistics it must agree with, and
# against DuckDB reading tomek's own Parquet export (from the virtual environment that
# scripts/verify-export.sh makes; skipped with a message when it is missing). Every target of
# the SQL work is printed with pass or fail:
#   a count over `status` within 1.5× `stats --only counts`;
#   GROUP BY value with games, and a GROUP BY that aggregates all 18 columns, within 2× `stats`;
#   the export within 20 s and 1.5 GB;
#   GROUP BY status, ply within 2× DuckDB on the exported files (DuckDB timed as a whole
#   process, and its query alone inside Python after the import);
#   peak memory under 1 GiB for a query over `status` (every row read) and under 8 GiB for the
#   query over every column.
section_query() {
    local dir="$WORK/export" py="${TOMEK_TOOLS:-$ROOT/target}/verify-export-venv/bin/python" counts_s full_s
    local draw_s value_s every_s export_s bytes group_s duck_s duck_q_s status_kb every_kb
    local every="SELECT status, value, count(*), max(board), max(t_square), sum(ply), \
sum(x_stones), sum(o_stones), count(to_move), count(winner), sum(win_lines), \
sum(CASE WHEN t_in_win THEN 1 ELSE 0 END), sum(distance), sum(orders), sum(games_x), \
sum(games_o), sum(games_draw), max(orbit), max(orbit_dihedral) FROM boards GROUP BY status, value"
    local group="SELECT status, ply, count(*) FROM boards GROUP BY status, ply"
    local verdicts=()
    # verdict WHAT VALUE LIMIT UNIT: one line, VALUE against LIMIT, pass when VALUE <= LIMIT.
    verdict() {
        local line
        line="$(awk -v w="$1" -v v="$2" -v l="$3" -v u="$4" 'BEGIN {
            printf "%-52s %10s %-3s  target ≤ %s %-3s  %s", w, v, u, l, u, (v + 0 <= l + 0 ? "pass" : "FAIL") }')"
        verdicts+=("$line")
        SUMMARY+=("$line")
        echo "   $line"
    }
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
    echo "== query: SQL over all 61,089,795 boards (load before: $(cut -d' ' -f1-3 /proc/loadavg))"
    counts_s="$(best_time "$TOMEK" stats --quiet --only counts)"
    draw_s="$(best_time "$TOMEK" query --quiet "SELECT count(*) FROM boards WHERE status = 'Draw'")"
    record "query count(*) WHERE status" "$draw_s" "$counts_s"
    verdict "count WHERE status / stats --only counts" "$(ratio "$draw_s" "$counts_s")" 1.5 "×"
    full_s="$(best_time "$TOMEK" stats --quiet)"
    value_s="$(best_time "$TOMEK" query --quiet \
        "SELECT value, count(*), sum(games_x) FROM boards GROUP BY value")"
    record "query value, games GROUP BY" "$value_s" "$full_s"
    verdict "GROUP BY value / full stats" "$(ratio "$value_s" "$full_s")" 2 "×"
    every_s="$(best_time "$TOMEK" query --quiet "$every")"
    record "query GROUP BY over all 18 columns" "$every_s" "$full_s"
    verdict "GROUP BY over all 18 columns / full stats" "$(ratio "$every_s" "$full_s")" 2 "×"
    export_s="$(RUNS=1 best_time_fresh "$dir" "$TOMEK" export --quiet -o "$dir")"
    bytes="$(du -sb "$dir" | cut -f1)"
    record "export, all columns" "$export_s" "20"
    verdict "export time" "$export_s" 20 "s"
    verdict "export size" "$(awk -v b="$bytes" 'BEGIN { printf "%.3f", b / 1e9 }')" 1.5 "GB"
    group_s="$(best_time "$TOMEK" query --quiet "$group")"
    if [[ -x "$py" ]] && "$py" -c 'import duckdb' 2>/dev/null; then
        local duck_sql="SELECT status, ply, count(*) FROM read_parquet('$dir/*/*.parquet') \
GROUP BY status, ply"
        duck_s="$(best_time "$py" -c "import duckdb; duckdb.sql(\"$duck_sql\").fetchall()")"
        # The query alone: best of $RUNS in one process, after the import and a first run.
        duck_q_s="$("$py" -c "
import time, duckdb
con = duckdb.connect()
con.sql(\"$duck_sql\").fetchall()
best = None
for _ in range($RUNS):
    t = time.perf_counter()
    con.sql(\"$duck_sql\").fetchall()
    t = time.perf_counter() - t
    best = t if best is None or t < best else best
print(f'{best:.3f}')")"
        record "query GROUP BY status, ply vs DuckDB process" "$group_s" "$duck_s"
        record "query GROUP BY status, ply vs DuckDB query" "$group_s" "$duck_q_s"
        verdict "GROUP BY status, ply / DuckDB as a process" "$(ratio "$group_s" "$duck_s")" 2 "×"
        verdict "GROUP BY status, ply / DuckDB's query alone" "$(ratio "$group_s" "$duck_q_s")" \
            2 "×"
    else
        echo "   DuckDB is not installed (run scripts/verify-export.sh first): skipped"
        record "query GROUP BY status, ply" "$group_s" "$group_s"
    fi
    status_kb="$( { /usr/bin/time -f %M "$TOMEK" query --quiet --format csv \
        "SELECT status FROM boards" >/dev/null; } 2>&1 | tail -1)"
    every_kb="$( { /usr/bin/time -f %M "$TOMEK" query --quiet "$every" >/dev/null; } 2>&1 \
        | tail -1)"
    verdict "peak memory, every row's status as CSV" \
        "$(awk -v k="$status_kb" 'BEGIN { printf "%.3f", k / 1048576 }')" 1 "GiB"
    verdict "peak memory, GROUP BY over all 18 columns" \
        "$(awk -v k="$every_kb" 'BEGIN { printf "%.3f", k / 1048576 }')" 8 "GiB"
    echo "== query targets (load after: $(cut -d' ' -f1-3 /proc/loadavg))"
    printf '   %s\n' "${verdicts[@]}"
}

# section_problem: Tic-Tac-Toe-Tomek through its description (`--problem tomek`, and a copy of
# the description as a file) against the plain commands, side by side: `solve` over every
# reachable board (medians of alternated runs) and `stats` (best of $RUNS), each with pass or
# fail against the target of 1.2×. The answers must be the same bytes.
section_problem() {
    local all="$CACHE/every-board" desc="$WORK/mine.toml" times plain_s via_s ratio
    echo "== problem: Tic-Tac-Toe-Tomek through its description"
    "$TOMEK" problem show tomek | sed 's/^name = "tomek"$/name = "mine"/' >"$desc"
    mkdir -p "$CACHE"
    if [[ ! -f "$all.in" || ! -f "$all.out" ]]; then
        "$TOMEK" --quiet enumerate -o "$all.tmp"
        mv "$all.tmp.out" "$all.out"
        mv "$all.tmp.in" "$all.in"
    fi
    cat "$all.in" >/dev/null # warm the page cache
    if ! "$TOMEK" solve --problem "$desc" "$all.in" | cmp -s - "$all.out"; then
        echo "bench: solve --problem answers $all.in differently" >&2
        exit 1
    fi
    plain_solve() { "$TOMEK" solve "$all.in"; }
    via_solve() { "$TOMEK" solve --problem "$desc" "$all.in"; }
    times="$(median_pair plain_solve via_solve)"
    plain_s="${times% *}"
    via_s="${times#* }"
    record "tomek solve, every board (median)" "$plain_s" "$plain_s"
    record "tomek solve --problem FILE (median)" "$via_s" "$plain_s"
    problem_verdict "solve --problem / solve" "$via_s" "$plain_s"
    plain_s="$(best_time "$TOMEK" stats -q)"
    via_s="$(best_time "$TOMEK" stats -q --problem tomek)"
    record "tomek stats" "$plain_s" "$plain_s"
    record "tomek stats --problem tomek" "$via_s" "$plain_s"
    problem_verdict "stats --problem / stats" "$via_s" "$plain_s"
}

# problem_verdict NAME SECONDS BASELINE: a summary row with the ratio and pass or fail at 1.2×.
problem_verdict() {
    local ratio verdict line
    ratio="$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
    verdict="$(awk -v r="$ratio" 'BEGIN { print (r + 0 <= 1.2 ? "pass" : "FAIL") }')"
    line="$(printf '%-44s %9s×  target ≤ 1.2×  %s' "$1" "$ratio" "$verdict")"
    SUMMARY+=("$line")
    echo "   $line"
}

# target_verdict NAME RATIO TARGET: a summary row with pass or fail against the target ratio.
target_verdict() {
    local verdict line
    verdict="$(awk -v r="$2" -v t="$3" 'BEGIN { print (r + 0 <= t + 0 ? "pass" : "FAIL") }')"
    line="$(printf '%-44s %9s×  target ≤ %s×  %s' "$1" "$2" "$3" "$verdict")"
    SUMMARY+=("$line")
    echo "   $line"
}

# peak_mb CMD...: the command's peak resident memory in MB (GNU time), output to /dev/null.
peak_mb() {
    /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1 | awk '{ printf "%.0f", $1 / 1024 }'
}

# section_family: the family's generic path on the 4×4 descriptions of tests/data/problems/bench
# against a plain single-threaded C program of ours (scripts/yardstick/yardstick.c: every game
# played once with a memo over the 3^16 grids), side by side: `problem check` (every position
# of the input space with its facts, one pass) and `stats --problem` (the same pass, counted by
# answer and ply), each with pass or fail against 0.5× of the C time and 300 MB; with
# FAMILY_STATS=1 also `stats --problem --mutants` (the catalogue of wrong solutions judged on
# every position, and the killer set: minutes on these spaces). Then `explain` of one position,
# and Tomek's description with `Draw` renamed `Tie` against `tomek` itself (target 1.2×):
# `stats`, `problem check`, `solve` of a 1,000-case file and of every reachable board, and
# `generate` of 1,000 uniform cases.
section_family() {
    local dir="$ROOT/tests/data/problems/bench" yard="$WORK/yardstick" c_s t_s ratio line
    echo "== family: 4×4 descriptions against a plain C enumeration"
    gcc -O2 -o "$yard" "$ROOT/scripts/yardstick/yardstick.c"
    local cases=("perfect-play-4x4-4:4 perfect" "perfect-play-4x4-3:3 perfect" "toe1-4x4-3:3 every")
    for c in "${cases[@]}"; do
        local name="${c%%:*}" args="${c#*:}"
        # shellcheck disable=SC2086 # the arguments are split on purpose
        c_s="$(best_time "$yard" $args)"
        record "C yardstick $args" "$c_s" "$c_s"
        local what
        for what in "problem check" "stats -q --problem"; do
            # shellcheck disable=SC2086 # the command's words are split on purpose
            t_s="$(best_time "$TOMEK" $what "$dir/$name.toml")"
            record "${what/ -q/} $name" "$t_s" "$c_s"
            ratio="$(awk -v a="$t_s" -v b="$c_s" 'BEGIN { printf "%.2f", a / b }')"
            target_verdict "${what/ -q/} $name / C" "$ratio" 0.5
            # shellcheck disable=SC2086
            memory_verdict "${what/ -q/} $name, peak" "$(peak_mb "$TOMEK" $what "$dir/$name.toml")"
        done
        if [[ "${FAMILY_STATS:-0}" == 1 ]]; then
            t_s="$(RUNS=1 best_time "$TOMEK" stats -q --problem "$dir/$name.toml" --mutants)"
            record "stats --problem $name --mutants" "$t_s" "$c_s"
        fi
    done
    # `explain` of one position (its own searches, the catalogue's mutants answering it):
    # under a second, for the empty board (the deepest search), a position of the opening and
    # one of the middle game, on each 4×4 description (symbols X and O) and the two 4×4
    # built-ins (x and o).
    local boards=("................" "X.O./.X../..O./...." "XOX./OXO./X.../O.X.")
    local problems=("$dir/perfect-play-4x4-4.toml" "$dir/perfect-play-4x4-3.toml"
        "$dir/toe1-4x4-3.toml" uva10111 cf754b)
    for prob in "${problems[@]}"; do
        for b in "${boards[@]}"; do
            [[ "$prob" == *.toml ]] || b="${b,,}"
            if ! "$TOMEK" explain --problem "$prob" "$b" >/dev/null; then
                echo "bench: explain --problem $prob $b failed" >&2
                exit 1
            fi
            t_s="$(best_time "$TOMEK" explain --problem "$prob" "$b")"
            line="$(printf '%-44s %9s s  target < 1 s  %s' "explain ${prob##*/} $b" "$t_s" \
                "$(awk -v t="$t_s" 'BEGIN { print (t + 0 < 1 ? "pass" : "FAIL") }')")"
            SUMMARY+=("$line")
            echo "   $line"
        done
    done
    section_family_tomek "$dir/tomek-tie.toml"
}

# section_family_tomek DESC: Tomek's description with other answer words against `tomek`.
section_family_tomek() {
    local tie="$1" plain_s via_s what all="$CACHE/every-board" small="$WORK/thousand"
    echo "== family: Tic-Tac-Toe-Tomek with \`Draw\` renamed \`Tie\` against tomek"
    plain_s="$(best_time "$TOMEK" stats -q)"
    record "tomek stats" "$plain_s" "$plain_s"
    for what in "stats -q --problem" "problem check"; do
        # shellcheck disable=SC2086 # the command's words are split on purpose
        via_s="$(best_time "$TOMEK" $what "$tie")"
        record "${what/ -q/} tomek-tie" "$via_s" "$plain_s"
        problem_verdict "${what/ -q/} tomek-tie / tomek stats" "$via_s" "$plain_s"
    done
    "$TOMEK" --quiet generate --profile uniform --cases 1000 --seed 7 -o "$small"
    # A run is a few milliseconds, most of it starting up: each time is of 20 runs.
    small_plain() { for _ in $(seq 20); do "$TOMEK" solve "$small.in"; done; }
    small_tie() { for _ in $(seq 20); do "$TOMEK" solve --problem "$tie" "$small.in"; done; }
    read -r plain_s via_s < <(best_pair small_plain small_tie)
    record "tomek solve, 1,000 cases, 20 runs" "$plain_s" "$plain_s"
    record "solve --problem tomek-tie, 1,000 cases, 20 runs" "$via_s" "$plain_s"
    line="$(printf '%-44s %9s s  target in ms  %s' "solve tomek-tie, 1,000 cases, one run" \
        "$(awk -v t="$via_s" 'BEGIN { printf "%.4f", t / 20 }')" \
        "$(awk -v t="$via_s" 'BEGIN { print (t / 20 < 0.05 ? "pass" : "FAIL") }')")"
    SUMMARY+=("$line")
    echo "   $line"
    plain_s="$(best_time "$TOMEK" --quiet generate --profile uniform --cases 1000 -o "$WORK/g1")"
    via_s="$(best_time "$TOMEK" --quiet generate --problem "$tie" --profile uniform \
        --cases 1000 -o "$WORK/g2")"
    record "tomek generate, 1,000 uniform" "$plain_s" "$plain_s"
    record "generate --problem tomek-tie, 1,000" "$via_s" "$plain_s"
    problem_verdict "generate tomek-tie / tomek" "$via_s" "$plain_s"
    if [[ -f "$all.in" ]]; then
        every_plain() { "$TOMEK" solve "$all.in"; }
        every_tie() { "$TOMEK" solve --problem "$tie" "$all.in"; }
        read -r plain_s via_s < <(best_pair every_plain every_tie)
        record "tomek solve, every board" "$plain_s" "$plain_s"
        record "solve --problem tomek-tie, every board" "$via_s" "$plain_s"
        problem_verdict "solve tomek-tie, every board / tomek" "$via_s" "$plain_s"
    else
        echo "   every reachable board's file is made by section problem: skipped"
    fi
    # The audit of a right solver over every reachable board, each in its own words.
    plain_s="$(RUNS=1 best_time "$TOMEK" --quiet audit --solver "$TOMEK solve" --chunk 1000000)"
    via_s="$(RUNS=1 best_time "$TOMEK" --quiet audit --problem "$tie" \
        --solver "$TOMEK solve --problem $tie" --chunk 1000000)"
    record "tomek audit --solver, every board" "$plain_s" "$plain_s"
    record "audit --problem tomek-tie --solver, every board" "$via_s" "$plain_s"
    problem_verdict "audit tomek-tie, every board / tomek" "$via_s" "$plain_s"
}

# memory_verdict NAME MB: a summary row with pass or fail against 300 MB.
memory_verdict() {
    local line
    line="$(printf '%-44s %8s MB  target ≤ 300 MB  %s' "$1" "$2" \
        "$([[ "$2" -le 300 ]] && echo pass || echo FAIL)")"
    SUMMARY+=("$line")
    echo "   $line"
}

main() {
    local sections=("$@")
    if [[ ${#sections[@]} -eq 0 ]]; then
        mapfile -t sections < <(declare -F | awk '{ print $3 }' | sed -n 's/^section_//p')
    fi
    if [[ " ${sections[*]} " == *" query "* && " $BUILD_FLAGS " != *" --features sql "* ]]; then
        BUILD_FLAGS="$BUILD_FLAGS --features sql"
    fi
    build
    for s in "${sections[@]}"; do
        "section_$s"
    done
    echo
    echo "== summary (best of $RUNS runs; ratio = time / baseline time)"
    printf '%-44s %11s %11s %8s\n' "what" "time" "baseline" "ratio"
    printf '%s\n' "${SUMMARY[@]}"
}

main "$@"
