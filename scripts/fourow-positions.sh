#!/usr/bin/env bash
# Rebuilds the Four in a row test sets under tests/data/fourow/: positions of seeded random
# play on 7x6 in the solver benchmarks' format (`MOVES SCORE`), scored by `tomek fourow
# score`, in the three bands of the field: end (more than 28 chips), middle (14 to 28) and
# begin (fewer than 14). The same seeds give the same files on every machine.
#
# Each band is also split by how far the game is from its end under perfect play (the plies
# left, which the score fixes: to the winning chip, or to the full board for a draw): easy
# (fewer than 14), medium (14 to 27) and hard (28 or more). Random play mostly gives end-easy,
# middle-easy and begin-hard positions; the bands it gives seldom have sets of their own,
# made by scoring more positions of random play and keeping the first ones of the band:
# begin-easy.txt, begin-medium.txt and middle-medium.txt.
#
# Every recorded score is then checked by a second search written apart from tomek's
# (tests/it/fourow_reference.rs): the end, middle, middle-medium and begin-easy sets in seconds
# (the default tests do the same), the begin and begin-medium sets in about a minute and a
# half. `--check` checks the committed files without rebuilding them.
#
# Usage: scripts/fourow-positions.sh [--check]
# Environment:
#   END=200 MIDDLE=100 BEGIN=20   positions in each band
#   BEGIN_EASY=20 BEGIN_MEDIUM=20 MIDDLE_MEDIUM=40
set -euo pipefail

if [ $# -gt 1 ] || { [ $# -eq 1 ] && [ "$1" != "--check" ]; }; then
    echo "usage: scripts/fourow-positions.sh [--check]" >&2
    exit 2
fi
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$root"
cargo build --release --quiet
tomek=${CARGO_TARGET_DIR:-$root/target}/release/tomek
out=tests/data/fourow
mkdir -p "$out"

# band NAME COUNT STONES SEED
band() {
    "$tomek" --quiet fourow score --random "$2" --stones "$3" --seed "$4" > "$out/$1.txt.tmp"
    mv "$out/$1.txt.tmp" "$out/$1.txt"
    echo "$out/$1.txt: $2 positions of $3 chips"
}

# filtered NAME COUNT STONES SEED DRAWN LEFT_LO LEFT_HI: the first COUNT positions of DRAWN
# scored ones whose plies left are LEFT_LO to LEFT_HI.
filtered() {
    "$tomek" --quiet fourow score --random "$5" --stones "$3" --seed "$4" |
        awk -v want="$2" -v lo="$6" -v hi="$7" "$(cat scripts/plies-left.awk)"'
            { l = left(length($1), $2) }
            l >= lo && l <= hi && kept < want { print; kept++ }' >"$out/$1.txt.tmp"
    local kept
    kept=$(wc -l <"$out/$1.txt.tmp")
    if [ "$kept" -lt "$2" ]; then
        echo "$1: only $kept of $5 positions in the band; draw more" >&2
        rm "$out/$1.txt.tmp"
        exit 1
    fi
    mv "$out/$1.txt.tmp" "$out/$1.txt"
    echo "$out/$1.txt: $2 positions of $3 chips, $6 to $7 plies left"
}

if [ "${1:-}" != "--check" ]; then
    band end "${END:-200}" 29-41 1
    band middle "${MIDDLE:-100}" 14-28 2
    band begin "${BEGIN:-20}" 6-13 3
    filtered begin-easy "${BEGIN_EASY:-20}" 6-13 4 $((5 * ${BEGIN_EASY:-20})) 0 13
    filtered begin-medium "${BEGIN_MEDIUM:-20}" 6-13 5 $((4 * ${BEGIN_MEDIUM:-20})) 14 27
    filtered middle-medium "${MIDDLE_MEDIUM:-40}" 14-28 6 $((8 * ${MIDDLE_MEDIUM:-40})) 14 27
fi
cargo test --release --quiet --test it fourow_reference -- --include-ignored --nocapture
