#!/usr/bin/env bash
# Times `tomek fourow count` (positions of Four in a row up to a ply, OEIS A212693) against the
# C yardstick in ../shared/baselines/c4_count.c when it is there: wall time, the ratio
# tomek / C, and peak memory (maximum resident set size) of each run.
#
# Usage: scripts/bench-fourow.sh
# Environment:
#   PLIES=14       the ply counted by every program in the comparison
#   RUNS=1         runs of each program; the fastest is reported (use 2 or more when the
#                  machine is busy)
#   DEEP=1         also count deeper with tomek alone, once each: both methods to DEEP_MEMO,
#                  the tree method to DEEP_TREE, every ply checked against A212693
#   DEEP_MEMO=16   deepest ply for the memo method in the deep section
#   DEEP_TREE=18   deepest ply for the tree method in the deep section (ply 18 takes about
#                  2.5 minutes and 4.3 GB on two cores)
#   BDD=1          also count 7x6 symbolically (--method bdd) to BDD_PLIES, once: wall time and
#                  peak memory per ply and of the whole run, every ply checked against
#                  A212693, and the per-ply time against the tree method to BDD_TREE
#   BDD_PLIES=42   deepest ply of the symbolic count (42 is the whole game)
#   BDD_TREE=16    deepest ply of the tree method in that comparison
#   BDD_SPLIT=24   deepest ply of a symbolic count run twice, on one thread and on all of
#                  them, for the speed-up of sharing the store between cores (0 skips it)
#   LIBS=1         also count 7x6 symbolically to LIBS_PLIES, once each, with tomek (--method
#                  bdd) and with maintained decision-diagram crates on the same encoding
#                  (scripts/bdd-compare, built in target/bdd-compare): oxidd (plain BDDs, on
#                  every core) and biodivine-lib-bdd (one core); every ply checked against
#                  A212693. Wall time, peak memory and the ratio to tomek of each run, the
#                  time of the last ply and the nodes of its diagram of open positions, then
#                  the time of every ply and its ratio to tomek's
#   LIBS_PLIES=20  deepest ply of that comparison (about 20 s for tomek, 1.5 minutes for
#                  oxidd and 3 for biodivine-lib-bdd on two cores)
#   SEARCH=1       also time the search for exact scores (`fourow score`) on the test sets of
#                  tests/data/fourow (scripts/fourow-positions.sh): per set, the mean time and
#                  nodes per position on one thread, and the wall time on one thread and on
#                  every core; every score checked against the set's; then per band (chips
#                  on the board crossed with plies left, as in scripts/fourow-positions.sh) the
#                  mean time and nodes per position on one thread beside the C yardstick
#                  ../shared/baselines/c4_search.c (the classic search, one thread) when it is
#                  there, their ratio, and whether it meets the target (at most TARGET times
#                  the yardstick's time; the yardstick takes about 1.2 times Pons' solver's
#                  time, so 0.6 here is 0.5 of Pons'); then the three
#                  slowest early positions, each alone on every core
#   EMPTY=1        with SEARCH=1: also solve the empty 7x6 board once, on every core (every
#                  thread on the one position), then on one thread (about a minute each)
#   BASE=PATH      with EMPTY=1: also solve it with the tomek binary at PATH (an older build,
#                  e.g. of commit 49ec3b6), right after each of tomek's runs, for the ratio
#   TABLE=64       MiB of transposition table for the search
#   TARGET=0.6     with SEARCH=1: the most tomek's time may be, per band, over the yardstick's
#   STRONG=1       also solve the small boards strongly (`fourow count --method bdd --values`),
#                  4x4 to 6x4, 5x5 and 4x6, once each: wall time, peak memory, the slowest ply,
#                  who wins the empty board and the won, drawn and lost positions over all
#                  plies; the positions of every ply checked against the symbolic count; then
#                  the slow cross-check of the search against the strong solution of 5x5
#                  (`cargo test -- --ignored`)
#   STRONG_BIG=1   with STRONG=1: also 7x4, 4x7, 6x5 and 5x6 (several minutes each on two
#                  cores, about 3 GB)
#   SOLVE=1        strong solutions saved to disk (`--values --save`), for the boards of
#                  SOLVE_BOARDS (default 6x4 5x5 4x6; 6x5 and 5x6 take minutes, 6x6, 7x5, 5x7
#                  and 7x6 hours), into SOLVE_DIR (default: a temporary directory; a solution
#                  found there is resumed): each ply's row (times, nodes, store memory), the
#                  wall time, CPU time and peak memory of the run, the nodes of the largest won
#                  and lost diagrams, the size of the files, and the time to answer from them
#                  from a fresh process, the mean over 20 random positions: the outcomes of the
#                  position and its columns (`explain --no-search`) and the exact scores
#                  (`explain --solution`)
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$root"
baseline="$root/../shared/baselines/c4_count.c"
plies=${PLIES:-14}
runs=${RUNS:-1}

# OEIS A212693: distinct positions after 0, 1, 2, ... plies.
a212693=(1 7 49 238 1120 4263 16422 54859 184275 558186 1662623 4568683 12236101 30929111
    75437595 176541259 394591391 858218743 1763883894 3568259802 6746155945 12673345045
    22010823988 38263228189 60830813459 97266114959 140728569039 205289508055 268057611944
    352626845666 410378505447 479206477733 488906447183 496636890702 433471730336
    370947887723 266313901222 183615682381 104004465349 55156010773 22695896495 7811825938
    1459332899)

if ! [ -x /usr/bin/time ]; then
    echo "bench-fourow.sh: /usr/bin/time (GNU time) is needed for peak memory" >&2
    exit 2
fi

cargo build --release --quiet
tomek=${CARGO_TARGET_DIR:-$root/target}/release/tomek
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure NAME CMD...: runs CMD $runs times (output to $tmp/NAME.out, errors to $tmp/NAME.err,
# shown if it fails) and sets $secs and $peak_kb to the fastest run's wall time and that run's
# peak memory.
measure() {
    local name=$1
    shift
    secs=""
    peak_kb=""
    local i s m
    for ((i = 0; i < runs; i++)); do
        if ! /usr/bin/time -f "%e %M" -o "$tmp/$name.time" "$@" >"$tmp/$name.out" \
            2>"$tmp/$name.err"; then
            cat "$tmp/$name.err" >&2
            exit 1
        fi
        read -r s m <"$tmp/$name.time"
        if [ -z "$secs" ] || awk -v a="$s" -v b="$secs" 'BEGIN { exit !(a < b) }'; then
            secs=$s
            peak_kb=$m
        fi
    done
}

# check NAME PLY: the CSV in $tmp/NAME.out must list A212693's count for every ply to PLY.
check() {
    local name=$1 last=$2 ply
    for ((ply = 0; ply <= last && ply < ${#a212693[@]}; ply++)); do
        if ! grep -qx "$ply,${a212693[$ply]},.*" "$tmp/$name.out"; then
            echo "bench-fourow.sh: $name: ply $ply is not ${a212693[$ply]} (A212693)" >&2
            exit 1
        fi
    done
}

mb() { awk -v k="$1" 'BEGIN { printf "%.0f MB", k / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
row() { printf '%-34s %10s %12s %10s\n' "$@"; }

echo "Four in a row, positions to ply $plies; $(nproc) cores; best of $runs run(s)"
echo
row program "wall (s)" "peak memory" "vs C"

c_secs=""
if [ -f "$baseline" ]; then
    gcc -O2 -march=native -o "$tmp/c4_count" "$baseline"
    measure c "$tmp/c4_count" "$plies"
    c_secs=$secs
    row "C baseline (gcc -O2 -march=native)" "$secs" "$(mb "$peak_kb")" "1.00"
else
    echo "(no C baseline at $baseline: skipped)"
fi

for method in memo tree; do
    measure "$method" "$tomek" --quiet fourow count --plies "$plies" --method "$method" \
        --format csv
    check "$method" "$plies"
    vs=-
    if [ -n "$c_secs" ]; then
        vs=$(ratio "$secs" "$c_secs")
    fi
    row "tomek --method $method" "$secs" "$(mb "$peak_kb")" "$vs"
done
if [ -n "$c_secs" ]; then
    echo
    echo "target for the memo method: at most 0.50 of the C time"
fi

if [ "${DEEP:-0}" = 1 ]; then
    deep_memo=${DEEP_MEMO:-16}
    deep_tree=${DEEP_TREE:-18}
    echo
    echo "Deep counts (tomek only; every ply checked against A212693 where known)"
    echo
    row run "wall (s)" "peak memory" "last ply"
    specs=("memo $deep_memo" "tree $deep_memo")
    if [ "$deep_tree" != "$deep_memo" ]; then
        specs+=("tree $deep_tree")
    fi
    runs=1 # deep runs are long enough not to need repeating
    for spec in "${specs[@]}"; do
        read -r method ply <<<"$spec"
        measure "deep-$method-$ply" "$tomek" --quiet fourow count --plies "$ply" \
            --method "$method" --format csv
        check "deep-$method-$ply" "$ply"
        last=$(grep "^$ply," "$tmp/deep-$method-$ply.out" | cut -d, -f2)
        row "tomek --method $method --plies $ply" "$secs" "$(mb "$peak_kb")" "$last"
    done
fi

if [ "${BDD:-0}" = 1 ]; then
    bdd_plies=${BDD_PLIES:-42}
    bdd_tree=${BDD_TREE:-16}
    runs=1
    echo
    echo "Symbolic count of 7x6 to ply $bdd_plies (--method bdd), every ply checked against A212693"
    measure bdd "$tomek" --quiet fourow count --plies "$bdd_plies" --method bdd
    bdd_secs=$secs
    bdd_peak=$peak_kb
    # The table: ply, positions, the four statuses, time (s), nodes, memory (MiB).
    awk '$1 ~ /^[0-9]+$/ { gsub(",", "", $2); print $1 "," $2 "," }' "$tmp/bdd.out" \
        >"$tmp/bdd-csv.out"
    check bdd-csv "$bdd_plies"
    measure tree-cmp "$tomek" --quiet fourow count --plies "$bdd_tree" --method tree
    echo
    printf '%-5s %18s %10s %14s %12s %12s\n' ply positions "bdd (s)" "nodes" "memory" \
        "bdd / tree"
    awk 'NR == FNR { if ($1 ~ /^[0-9]+$/) tree[$1] = $7; next }
         $1 ~ /^[0-9]+$/ {
             ratio = ($1 in tree && tree[$1] > 0) ? sprintf("%.2f", $7 / tree[$1]) : "-"
             printf "%-5s %18s %10s %14s %9s MiB %12s\n", $1, $2, $7, $8, $9, ratio
         }' "$tmp/tree-cmp.out" "$tmp/bdd.out"
    total=$(awk '$1 == "total" { print $2 }' "$tmp/bdd.out")
    echo
    echo "whole run: $bdd_secs s wall, $(mb "$bdd_peak") peak; $total positions in all"
    echo "target for the whole game: at most 3600 s and 20 GiB"
    bdd_split=${BDD_SPLIT:-24}
    if [ "$bdd_split" -gt 0 ]; then
        echo
        echo "Symbolic count to ply $bdd_split on one thread and on $(nproc)"
        echo
        row run "wall (s)" "peak memory" "vs 1 thread"
        export RAYON_NUM_THREADS=1
        measure split-1 "$tomek" --quiet fourow count --plies "$bdd_split" --method bdd \
            --format csv
        unset RAYON_NUM_THREADS
        check split-1 "$bdd_split"
        one=$secs
        row "1 thread" "$secs" "$(mb "$peak_kb")" "1.00"
        measure split-n "$tomek" --quiet fourow count --plies "$bdd_split" --method bdd \
            --format csv
        check split-n "$bdd_split"
        row "$(nproc) threads" "$secs" "$(mb "$peak_kb")" "$(ratio "$secs" "$one")"
    fi
fi

if [ "${LIBS:-0}" = 1 ]; then
    libs_plies=${LIBS_PLIES:-20}
    runs=1
    CARGO_TARGET_DIR="$root/target/bdd-compare" cargo build --release --quiet \
        --manifest-path "$root/scripts/bdd-compare/Cargo.toml"
    compare=$root/target/bdd-compare/release/bdd-compare
    echo
    echo "Symbolic count of 7x6 to ply $libs_plies: tomek's store against decision-diagram crates on"
    echo "the same encoding (scripts/bdd-compare), every ply checked against A212693; nodes: the"
    echo "diagram of the last ply's open positions"
    echo
    lrow() { printf '%-28s %9s %12s %9s %13s %11s\n' "$@"; }
    lrow program "wall (s)" "peak memory" "vs tomek" "last ply (s)" nodes
    libs=(tomek oxidd biodivine)
    for lib in "${libs[@]}"; do
        if [ "$lib" = tomek ]; then
            # tomek's table (the default format) has the time and the nodes of every ply,
            # which its CSV has not: its rows are turned into bdd-compare's CSV
            # (ply,positions,nodes,seconds).
            label="tomek --method bdd"
            measure libs-tomek-table "$tomek" --quiet fourow count --plies "$libs_plies" \
                --method bdd
            awk '$1 ~ /^[0-9]+$/ {
                     gsub(",", "", $2); gsub(",", "", $8); print $1 "," $2 "," $8 "," $7
                 }' "$tmp/libs-tomek-table.out" >"$tmp/libs-tomek.out"
            tomek_secs=$secs
        else
            label="bdd-compare --lib $lib"
            measure "libs-$lib" "$compare" --lib "$lib" --plies "$libs_plies"
        fi
        check "libs-$lib" "$libs_plies"
        read -r last nodes < <(awk -F, -v p="$libs_plies" '$1 == p { print $4, $3 }' \
            "$tmp/libs-$lib.out")
        lrow "$label" "$secs" "$(mb "$peak_kb")" "$(ratio "$secs" "$tomek_secs")" "$last" \
            "$nodes"
    done
    echo
    echo "Time of each ply (s) and its ratio to tomek's"
    echo
    printf '%-5s %10s %10s %8s %10s %8s\n' ply tomek oxidd ratio biodivine ratio
    awk -F, 'FNR == 1 { file++ }
             $1 ~ /^[0-9]+$/ { t[file, $1] = $4; if ($1 > last) last = $1 }
             function r(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
             END {
                 for (p = 0; p <= last; p++)
                     printf "%-5s %10s %10s %8s %10s %8s\n", p, t[1, p], t[2, p],
                         r(t[2, p], t[1, p]), t[3, p], r(t[3, p], t[1, p])
             }' "$tmp/libs-tomek.out" "$tmp/libs-oxidd.out" "$tmp/libs-biodivine.out"
fi

if [ "${SEARCH:-0}" = 1 ]; then
    table=${TABLE:-64}
    target=${TARGET:-0.6}
    echo
    echo "Exact scores by search (fourow score, table $table MiB): mean per position on one"
    echo "thread, and wall time on 1 and $(nproc) threads"
    echo
    printf '%-14s %9s %12s %12s %10s %10s\n' set positions "mean (us)" "mean nodes" \
        "1 thr (s)" "all (s)"
    sets=(end middle middle-medium begin-easy begin-medium begin)
    for band in "${sets[@]}"; do
        set_file=tests/data/fourow/$band.txt
        [ -f "$set_file" ] || continue
        # The summary line is on standard error: "N positions, M mismatches, mean T µs
        # and K nodes per position (...)".
        /usr/bin/time -f "%e" -o "$tmp/search-$band-1.time" "$tomek" --quiet fourow score \
            "$set_file" --threads 1 --table "$table" --timing >"$tmp/search-$band-1.out" \
            2>"$tmp/search-$band-1.err"
        one=$(cat "$tmp/search-$band-1.time")
        read -r n mean nodes < <(awk '/positions,/ {
                gsub(",", "", $9); print $1, $6, $9 }' "$tmp/search-$band-1.err")
        measure "search-$band-all" "$tomek" --quiet fourow score "$set_file" --table "$table"
        printf '%-14s %9s %12s %12s %10s %10s\n' "$band" "$n" "$mean" "$nodes" "$one" "$secs"
    done
    # Per band, tomek on one thread beside the C yardstick, position by position: the lines of
    # "BAND MOVES SCORE NODES MICROSECONDS" of each program, in the same order.
    search_baseline="$root/../shared/baselines/c4_search.c"
    # The band of each line of a set: chips (end above 28, middle 14 to 28, begin below) and
    # plies left under perfect play (easy below 14, medium 14 to 27, hard 28 or more).
    banded() {
        awk "$(cat "$root/scripts/plies-left.awk")"'
             {
                 m = length($1); l = left(m, $2)
                 chips = m > 28 ? "end" : m >= 14 ? "middle" : "begin"
                 plies = l < 14 ? "easy" : l < 28 ? "medium" : "hard"
                 print chips "-" plies, $0
             }' "$@"
    }
    echo
    if [ -f "$search_baseline" ]; then
        gcc -O2 -o "$tmp/c4_search" "$search_baseline"
        : >"$tmp/bands-tomek"
        : >"$tmp/bands-c"
        for band in "${sets[@]}"; do
            [ -f "$tmp/search-$band-1.out" ] || continue
            if ! "$tmp/c4_search" <"tests/data/fourow/$band.txt" >"$tmp/search-$band-c.out" \
                2>"$tmp/search-$band-c.err"; then
                cat "$tmp/search-$band-c.err" >&2
                echo "bench-fourow.sh: the yardstick's scores differ from $band.txt" >&2
                exit 1
            fi
            banded "$tmp/search-$band-1.out" >>"$tmp/bands-tomek"
            banded "$tmp/search-$band-c.out" >>"$tmp/bands-c"
        done
        echo "Per band, one thread each, mean per position: tomek against the C yardstick"
        echo "$(basename "$search_baseline") (gcc -O2; bitboards, a table of upper bounds, threat"
        echo "ordering, probes bisecting towards 0); load $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "pass: tomek's time at most $target of the yardstick's"
        echo
        paste -d' ' "$tmp/bands-tomek" "$tmp/bands-c" | awk -v target="$target" '
            $2 != $7 || $3 != $8 {
                print "bench-fourow.sh: the yardstick scored other lines" >"/dev/stderr"
                exit 1
            }
            { n[$1]++; tn[$1] += $4; tt[$1] += $5; cn[$1] += $9; ct[$1] += $10 }
            END {
                printf "%-14s %9s %12s %12s %12s %12s %7s %5s\n", "band", "positions", \
                    "tomek (us)", "C (us)", "tomek nodes", "C nodes", "ratio", ""
                split("end-easy end-medium end-hard middle-easy middle-medium middle-hard " \
                    "begin-easy begin-medium begin-hard", all, " ")
                for (i = 1; i <= 9; i++) {
                    b = all[i]
                    if (!(b in n)) continue
                    r = ct[b] > 0 ? tt[b] / ct[b] : 0
                    printf "%-14s %9d %12.1f %12.1f %12.0f %12.0f %7.2f %5s\n", b, n[b], \
                        tt[b] / n[b], ct[b] / n[b], tn[b] / n[b], cn[b] / n[b], r, \
                        tt[b] <= target * ct[b] ? "pass" : "FAIL"
                }
            }'
    else
        echo "(no C yardstick at $search_baseline: the per-band comparison is skipped)"
    fi
    if [ -f "$tmp/search-begin-1.out" ]; then
        # The three slowest early positions on one thread, each alone on every core.
        echo
        echo "The slowest early positions: one thread, then every thread on the one position"
        sort -k4,4n "$tmp/search-begin-1.out" | tail -n 3 | while read -r moves score _ us; do
            echo "$moves" >"$tmp/hard.txt"
            measure search-hard "$tomek" --quiet fourow score "$tmp/hard.txt" --table "$table"
            awk -v m="$moves" -v s="$score" -v us="$us" -v all="$secs" 'BEGIN {
                printf "%-10s score %3s   1 thread %7.2f s   all %7.2f s\n", m, s, us / 1e6, all }'
        done
    fi
    if [ "${EMPTY:-0}" = 1 ]; then
        echo "" >"$tmp/empty.txt"
        echo
        for threads in "$(nproc)" 1; do
            measure "search-empty-$threads" "$tomek" --quiet fourow score "$tmp/empty.txt" \
                --timing --threads "$threads" --table "$table"
            # The line is " SCORE NODES MICROSECONDS" (no moves): read drops the blank.
            read -r score nodes _ <"$tmp/search-empty-$threads.out"
            echo "empty 7x6 board, $threads thread(s): score $score, $nodes nodes, $secs s," \
                "$(mb "$peak_kb")"
            if [ -n "${BASE:-}" ]; then
                ours=$secs
                measure "search-empty-base-$threads" "$BASE" --quiet fourow score \
                    "$tmp/empty.txt" --timing --threads "$threads" --table "$table"
                read -r score nodes _ <"$tmp/search-empty-base-$threads.out"
                echo "  $BASE: score $score, $nodes nodes, $secs s, $(mb "$peak_kb");" \
                    "ratio $(ratio "$ours" "$secs")"
            fi
        done
    fi
fi

if [ "${STRONG:-0}" = 1 ]; then
    boards="4x4 5x4 4x5 6x4 5x5 4x6"
    if [ "${STRONG_BIG:-0}" = 1 ]; then
        boards="$boards 7x4 4x7 6x5 5x6"
    fi
    echo
    echo "Strong solutions (fourow count --method bdd --values): won, drawn and lost for the"
    echo "side to move over all plies"
    echo
    srow() { printf '%-6s %9s %12s %15s %12s %14s %14s %14s\n' "$@"; }
    srow board "wall (s)" "peak memory" "slowest ply (s)" "empty" won drawn lost
    for board in $boards; do
        cols=${board%x*}
        rows=${board#*x}
        measure "strong-$board" "$tomek" --quiet fourow count --method bdd --values \
            --cols "$cols" --rows "$rows" --format csv
        "$tomek" --quiet fourow count --method bdd --cols "$cols" --rows "$rows" \
            --plies $((cols * rows)) --format csv >"$tmp/count-$board.out"
        if ! diff <(cut -d, -f1,2 "$tmp/strong-$board.out") \
            <(cut -d, -f1,2 "$tmp/count-$board.out") >/dev/null; then
            echo "bench-fourow.sh: $board: the positions differ from the symbolic count" >&2
            exit 1
        fi
        # The slowest ply, from the table of a second run (times are not in the CSV).
        "$tomek" --quiet fourow count --method bdd --values --cols "$cols" --rows "$rows" \
            >"$tmp/strong-$board.table"
        # Columns 7 and 8 are the forward and the backward time of the ply.
        slowest=$(awk '$1 ~ /^[0-9]+$/ && $7 + $8 > m { m = $7 + $8 } END { print m }' \
            "$tmp/strong-$board.table")
        empty=$(awk -F, '$1 == 0 { print ($3 == 1) ? "first wins" : \
            ($4 == 1) ? "draw" : "second wins" }' "$tmp/strong-$board.out")
        read -r won drawn lost < <(awk -F, '$1 == "total" { print $3, $4, $5 }' \
            "$tmp/strong-$board.out")
        srow "$board" "$secs" "$(mb "$peak_kb")" "$slowest" "$empty" "$won" "$drawn" "$lost"
    done
    echo
    echo "The search against the strong solution of 5x5 on random positions:"
    cargo test --release --quiet --test it -- --ignored \
        the_search_agrees_with_the_strong_solution_on_random_positions_of_5x5 2>&1 |
        grep -E "^test result"
fi

if [ "${SOLVE:-0}" = 1 ]; then
    solve_dir=${SOLVE_DIR:-$tmp/solutions}
    mkdir -p "$solve_dir"
    echo
    echo "Strong solutions saved to disk (fourow count --method bdd --values --save)"
    for board in ${SOLVE_BOARDS:-6x4 5x5 4x6}; do
        cols=${board%x*}
        rows=${board#*x}
        dir=$solve_dir/fourow-solution-$board
        flag=--save
        if [ -f "$dir/manifest.txt" ]; then
            flag=--resume
        fi
        echo
        /usr/bin/time -f '%e %U %S %M' -o "$tmp/solve-$board.time" "$tomek" --quiet fourow count \
            --method bdd --values --cols "$cols" --rows "$rows" "$flag" "$dir" \
            | tee "$tmp/solve-$board.table"
        read -r wall user sys peak_kb <"$tmp/solve-$board.time"
        # Column 10 of the table: the nodes of the ply's won and lost diagrams.
        largest=$(awk '$1 ~ /^[0-9]+$/ { n = $10; gsub(",", "", n); if (n + 0 > m) { m = n + 0; p = $1 } }
            END { print m " (ply " p ")" }' "$tmp/solve-$board.table")
        bytes=$(du -sb "$dir" | cut -f1)
        "$tomek" --quiet fourow score --random 20 --stones "0-$((cols * rows - 1))" --seed 7 \
            --cols "$cols" --rows "$rows" --solution "$dir" | cut -d' ' -f1 >"$tmp/solve-$board.pos"
        look=0
        exact=0
        n=0
        while read -r moves; do
            t0=$(date +%s%N)
            "$tomek" --quiet fourow explain "$moves" --cols "$cols" --rows "$rows" \
                --solution "$dir" --no-search >/dev/null 2>&1
            t1=$(date +%s%N)
            "$tomek" --quiet fourow explain "$moves" --cols "$cols" --rows "$rows" \
                --solution "$dir" >/dev/null 2>&1
            t2=$(date +%s%N)
            look=$((look + t1 - t0))
            exact=$((exact + t2 - t1))
            n=$((n + 1))
        done <"$tmp/solve-$board.pos"
        echo "$board: wall ${wall} s, CPU $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s," \
            "peak $(mb "$peak_kb"), largest won+lost diagrams $largest nodes," \
            "$(awk -v b="$bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }') on disk;" \
            "from a fresh process, mean of $n positions: outcomes" \
            "$(awk -v t="$look" -v n="$n" 'BEGIN { printf "%.1f ms", t / n / 1e6 }'), exact scores" \
            "$(awk -v t="$exact" -v n="$n" 'BEGIN { printf "%.1f ms", t / n / 1e6 }')"
    done
fi
