#!/usr/bin/env bash
# Rebuilds the files under generated/ with the release binary. Every file is a pure function of
# the sources and of the arguments below, so running this again must leave `git status` clean.
#
# Usage: scripts/regenerate.sh [--full] [SET...]
#        (default: every set but fourow-space, which counts the whole 7×6 game in about a quarter
#        of an hour; --full adds it. Sets: fourow fourow-space fourow-space-check tomek docs)
#
# Without --full, fourow-space-check stands in for the whole count: it counts a prefix of the
# plies afresh and compares them with generated/fourow-space.csv, and checks the file against
# the checksum the last full run stored beside it.
set -euo pipefail

cd "$(dirname "$0")/.."
# Every feature: the man pages document the SQL commands in full, not as a build without them
# shows them.
cargo build --release --quiet --all-features
tomek=target/release/tomek
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
all_sets=(fourow fourow-space fourow-space-check tomek docs)
default_sets=(fourow fourow-space-check tomek docs)

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
        sets=(fourow fourow-space tomek docs)
    fi
fi
for set in "${sets[@]}"; do
    case " ${all_sets[*]} " in
        *" $set "*) "$set" ;;
        *) echo "regenerate.sh: unknown set '$set' (known: ${all_sets[*]})" >&2; exit 2 ;;
    esac
    echo "regenerated: $set"
done
