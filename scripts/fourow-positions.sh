#!/usr/bin/env bash
# Rebuilds the Four in a row test sets under tests/data/fourow/: positions of seeded random
# play on 7x6 in the solver benchmarks' format (`MOVES SCORE`), scored by `tomek fourow
# score`, in the three bands of the field: end (more than 28 chips), middle (14 to 28) and
# begin (fewer than 14). The same seeds give the same files on every machine.
#
# Every recorded score is then checked by a second search written apart from tomek's
# (tests/it/fourow_reference.rs): the end and middle sets in seconds (the default tests do the
# same), the begin set in about a minute. `--check` checks the committed files without rebuilding them.
#
# Usage: scripts/fourow-positions.sh [--check]
# Environment:
#   END=200 MIDDLE=100 BEGIN=20   positions in each band
set -euo pipefail

if [ $# -gt 1 ] || { [ $# -eq 1 ] && [ "$1" != "--check" ]; }; then
    echo "usage: scripts/fourow-positions.sh [--check]" >&2
    exit 2
fi
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$root"
cargo build --release --quiet
tomek=$root/target/release/tomek
out=tests/data/fourow
mkdir -p "$out"

# band NAME COUNT STONES SEED
band() {
    "$tomek" --quiet fourow score --random "$2" --stones "$3" --seed "$4" > "$out/$1.txt.tmp"
    mv "$out/$1.txt.tmp" "$out/$1.txt"
    echo "$out/$1.txt: $2 positions of $3 chips"
}

if [ "${1:-}" != "--check" ]; then
    band end "${END:-200}" 29-41 1
    band middle "${MIDDLE:-100}" 14-28 2
    band begin "${BEGIN:-20}" 6-13 3
fi
cargo test --release --quiet --test it fourow_reference -- --include-ignored --nocapture
