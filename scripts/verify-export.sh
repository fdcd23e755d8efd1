#!/usr/bin/env bash
# Exports every reachable board as Parquet (tomek export) and runs the questions of the guide's
# chapter on SQL (docs/src/sql.md) three ways: tomek's own SQL over the tables it computes,
# DuckDB over the exported files, and Polars over them; its questions about a problem of the
# family (`--problem`) likewise, over that problem's own export (a few thousand rows, written
# beside the state space's). Fails on any difference, and when the chapter shows an output that
# tomek does not print. DuckDB and Polars come from PyPI, in a
# virtual environment under target/, or under TOMEK_TOOLS when set. TOMEK_BIN=PATH checks that
# binary (built with the sql feature) rather than building one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

work=target/verify-export
venv="${TOMEK_TOOLS:-target}/verify-export-venv"
mkdir -p "$work"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check duckdb polars

tomek="${TOMEK_BIN:-}"
if [ -z "$tomek" ]; then
    cargo build --release --quiet --features sql
    tomek="${CARGO_TARGET_DIR:-target}/release/tomek"
fi

start=$(date +%s%N)
"$tomek" export --quiet --force -o "$work/boards"
end=$(date +%s%N)
bytes=$(du -sb "$work/boards" | cut -f1)
echo "export: $(((end - start) / 1000000)) ms, $bytes bytes in" \
    "$(find "$work/boards" -name '*.parquet' | wc -l) files"

"$venv/bin/python" scripts/verify_export.py "$tomek" "$work/boards" docs/src/sql.md
