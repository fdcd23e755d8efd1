#!/usr/bin/env bash
# Rebuilds the files under generated/ with the release binary. Every file is a pure function of
# the sources and of the arguments below, so running this again must leave `git status` clean.
#
# Usage: scripts/regenerate.sh [--full] [SET...]
#        (default: every set but fourow-space, which counts the whole 7×6 game in about a quarter
#        of an hour, and fourow-solutions, which solves boards strongly in hours; --full adds
#        them. Sets: fourow fourow-space fourow-space-check fourow-solutions
#        fourow-solutions-check tomek docs)
#
# Without --full, fourow-space-check stands in for the whole count: it counts a prefix of the
# plies afresh and compares them with generated/fourow-space.csv, and checks the file against
# the checksum the last full run stored beside it; fourow-solutions-check does the same for the
# strong solutions, and checks their first plies against the search.
set -euo pipefail

cd "$(dirname "$0")/.."
# Every feature: the man pages document the SQL commands in full, not as a build without them
# shows them (or TOMEK_TEST_FEATURES, the features .ci/run built the tests with: the binary is
# the same, as `deep-tests` changes the tests only).
if [ -n "${TOMEK_TEST_FEATURES:-}" ]; then
    cargo build --release --quiet --features "$TOMEK_TEST_FEATURES"
else
    cargo build --release --quiet --all-features
fi
tomek="${CARGO_TARGET_DIR:-target}/release/tomek"
mkdir -p generated

# Four in a row (SPOJ FOUROW): the statement's sample, kept in tests/data and copied here with
# the solver's answer (which must equal the statement's), a seeded mix of every verdict, and the
# plot of the positions by ply.
fourow() {
    install -m 644 tests/data/fourow-sample.in generated/fourow-sample.in
    "$tomek" --quiet fourow solve generated/fourow-sample.in -o generated/fourow-sample.out
    cmp generated/fourow-sample.out tests/data/fourow-sample.out
    "$tomek" --quiet fourow generate -o generated/fourow-mixed --games 99 --seed 1 >/dev/null
    "$tomek" --quiet fourow validate generated/fourow-mixed.in >/dev/null
    "$tomek" --quiet fourow count --plies 12 --plot generated/fourow-count.svg >/dev/null
}

# The whole Connect Four state space: the positions of every ply of the 7×6 game, won and open,
# counted symbolically (about 15 minutes and 12 GB on two cores), and their plot.
fourow-space() {
    "$tomek" --quiet fourow count --method bdd --plies 42 --format csv \
        --plot generated/fourow-space.svg >generated/.fourow-space.csv.tmp
    mv generated/.fourow-space.csv.tmp generated/fourow-space.csv
    (cd generated && sha256sum fourow-space.csv fourow-space.svg >fourow-space.sha256)
}

# The quick stand-in for fourow-space: plies 0 to CHECK_PLIES (default 20, about 15 seconds)
# counted afresh must equal the committed rows, and the committed files their checksums.
fourow-space-check() {
    local plies="${CHECK_PLIES:-20}"
    (cd generated && sha256sum --quiet -c fourow-space.sha256)
    if ! diff <("$tomek" --quiet fourow count --method bdd --plies "$plies" --format csv | grep -v '^total,') \
        <(head -n "$((plies + 2))" generated/fourow-space.csv); then
        echo "regenerate.sh: generated/fourow-space.csv differs from a fresh count of plies 0-$plies" >&2
        exit 1
    fi
}

# The strong solutions of the boards in SOLUTION_BOARDS (default: those solved so far, 6x6, 7x5
# and 5x7): per ply, the positions, how many are won, drawn and lost for the side to move, and
# how many of the lost ones are terminal (the previous move made a four). Each is solved from
# scratch (hours; --memory-limit SOLUTION_MEMORY, default 8G) into
# SOLUTION_DIR/fourow-solution-WxH, resumed when a run there stopped (default: a temporary
# directory, removed after).
fourow-solutions() {
    local board keep="${SOLUTION_DIR:-}" dir
    local place="${SOLUTION_DIR:-$(mktemp -d)}"
    for board in ${SOLUTION_BOARDS:-6x6 7x5 5x7}; do
        dir="$place/fourow-solution-$board"
        local flag=--save
        if [ -f "$dir/manifest.txt" ]; then
            flag=--resume
        fi
        "$tomek" --quiet fourow count --method bdd --values --cols "${board%x*}" \
            --rows "${board#*x}" --memory-limit "${SOLUTION_MEMORY:-8G}" "$flag" "$dir" \
            --format csv >"generated/.fourow-solution-$board.csv.tmp"
        mv "generated/.fourow-solution-$board.csv.tmp" "generated/fourow-solution-$board.csv"
        (cd generated && sha256sum "fourow-solution-$board.csv" >"fourow-solution-$board.sha256")
    done
    if [ -z "$keep" ]; then
        rm -rf "$place"
    fi
}

# The quick stand-in for fourow-solutions, for every solution in generated/: its checksum; every
# ply's won + drawn + lost equal to its positions; its positions of plies 0 to CHECK_PLIES (default
# 24) equal to a fresh count; and its first two plies equal to the search's outcomes of the empty
# board and of each first move (`fourow explain`, ten seconds on 6x6).
fourow-solutions-check() {
    local file board cols rows plies
    for file in generated/fourow-solution-*.csv; do
        [ -e "$file" ] || continue
        board="${file#generated/fourow-solution-}"
        board="${board%.csv}"
        cols="${board%x*}"
        rows="${board#*x}"
        plies="${CHECK_PLIES:-24}"
        plies=$((plies < cols * rows ? plies : cols * rows))
        (cd generated && sha256sum --quiet -c "fourow-solution-$board.sha256")
        awk -F, -v f="$file" 'NR > 1 && $1 != "total" && $3 + $4 + $5 != $2 {
            print "regenerate.sh: " f ", ply " $1 ": won + drawn + lost is not the positions" > "/dev/stderr"
            bad = 1 } END { exit bad }' "$file"
        if ! diff <("$tomek" --quiet fourow count --method bdd --cols "$cols" --rows "$rows" \
            --plies "$plies" --format csv | grep -v '^total,' | cut -d, -f2) \
            <(head -n "$((plies + 2))" "$file" | cut -d, -f2); then
            echo "regenerate.sh: the positions of $file differ from a fresh count of plies 0-$plies" >&2
            exit 1
        fi
        # The search's outcomes: the empty board's for the first player (its best column's), and
        # each first move's for the first player, which is the second player's position lost,
        # drawn or won.
        local searched
        searched="$("$tomek" --quiet fourow explain "" --cols "$cols" --rows "$rows" --format csv |
            awk -F, 'NR > 1 {
                if ($3 == "win" || best == "win") best = "win"
                else if ($3 == "draw" || best == "draw") best = "draw"
                else best = "loss"
                won += $3 == "loss"; drawn += $3 == "draw"; lost += $3 == "win"
            }
            END {
                print (best == "win") "," (best == "draw") "," (best == "loss")
                print won + 0 "," drawn + 0 "," lost + 0
            }')"
        if ! diff <(echo "$searched") <(sed -n '2,3p' "$file" | cut -d, -f3-5); then
            echo "regenerate.sh: plies 0 and 1 of $file differ from the search's outcomes" >&2
            exit 1
        fi
    done
}

# Tic-Tac-Toe-Tomek: the small and large datasets shaped like the 2013 inputs, the edge cases,
# the smallest file that every catalogued wrong solver fails, and the state-space statistics
# with their plot.
# Every input must pass the validator and its answers the checker; the killer file must kill
# every mutant.
tomek() {
    "$tomek" --quiet generate --profile official --dataset small -o generated/small
    "$tomek" --quiet generate --profile official --dataset large -o generated/large
    "$tomek" --quiet generate --profile edge -o generated/edge
    "$tomek" --quiet generate --profile killer -o generated/killer
    "$tomek" --quiet stats --format json --plot generated/stats.svg >generated/.stats.json.tmp
    mv generated/.stats.json.tmp generated/stats.json
    for name in sample small large edge killer; do
        local dataset=()
        case "$name" in
            sample | small) dataset=(--dataset small) ;;
            large) dataset=(--dataset large) ;;
        esac
        "$tomek" --quiet validate "${dataset[@]}" "generated/$name.in" >/dev/null
        "$tomek" --quiet check "generated/$name.in" "generated/$name.out" "generated/$name.out" 2>/dev/null
    done
    local killed total
    killed="$("$tomek" --quiet validate generated/killer.in | sed -n 's/^mutants killed: \([0-9]*\) of \([0-9]*\)$/\1 \2/p')"
    read -r killed total <<<"$killed"
    if [ "$killed" != "$total" ]; then
        echo "regenerate.sh: generated/killer.in kills only $killed of $total mutants" >&2
        exit 1
    fi
}

# Documentation made from the program itself: a man page per command, from the same clap
# definitions as the parser (pages carry no date, so reruns write the same bytes).
docs() {
    rm -rf generated/man
    "$tomek" --quiet man --dir generated/man >/dev/null
}

# Each set is one function above; add new ones to these lists.
all_sets=(fourow fourow-space fourow-space-check fourow-solutions fourow-solutions-check tomek docs)
default_sets=(fourow fourow-space-check fourow-solutions-check tomek docs)

full=0
sets=()
for arg in "$@"; do
    case "$arg" in
        --full) full=1 ;;
        *) sets+=("$arg") ;;
    esac
done
if [ ${#sets[@]} -eq 0 ]; then
    sets=("${default_sets[@]}")
    if [ "$full" = 1 ]; then
        sets=(fourow fourow-space fourow-solutions tomek docs)
    fi
fi
for set in "${sets[@]}"; do
    case " ${all_sets[*]} " in
        *" $set "*) "$set" ;;
        *) echo "regenerate.sh: unknown set '$set' (known: ${all_sets[*]})" >&2; exit 2 ;;
    esac
    echo "regenerated: $set"
done
