#!/usr/bin/env bash
# Rebuilds the files under generated/ with the release binary. Every file is a pure function of
# the sources and of the arguments below, so running this again must leave `git status` clean.
#
# Usage: scripts/regenerate.sh [SET...]   (default: every set; sets: fourow)
set -euo pipefail

cd "$(dirname "$0")/.."
cargo build --release --quiet
tomek=target/release/tomek
mkdir -p generated

# Four in a row (SPOJ FOUROW): the statement's sample, kept in tests/data and copied here with
# the solver's answer (which must equal the statement's), and a seeded mix of every verdict.
fourow() {
    install -m 644 tests/data/fourow-sample.in generated/fourow-sample.in
    "$tomek" --quiet fourow solve generated/fourow-sample.in -o generated/fourow-sample.out
    cmp generated/fourow-sample.out tests/data/fourow-sample.out
    "$tomek" --quiet fourow generate -o generated/fourow-mixed --games 99 --seed 1 >/dev/null
    "$tomek" --quiet fourow validate generated/fourow-mixed.in >/dev/null
}

# Each set is one function above; add new ones to this list.
all_sets=(fourow)

sets=("$@")
if [ ${#sets[@]} -eq 0 ]; then
    sets=("${all_sets[@]}")
fi
for set in "${sets[@]}"; do
    case " ${all_sets[*]} " in
        *" $set "*) "$set" ;;
        *) echo "regenerate.sh: unknown set '$set' (known: ${all_sets[*]})" >&2; exit 2 ;;
    esac
    echo "regenerated: $set"
done
