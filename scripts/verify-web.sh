#!/usr/bin/env bash
# Checks the pages of `tomek serve` in a real browser: plays a Tomek game by clicking and holds
# the page's status, value and per-square colours to `tomek explain --format json`, opens the
# page's shared link, plays a Four in a row game to a win and checks the verdict, and saves
# screenshots web-tomek.png and web-fourow.png into generated/ (or $WEB_SCREENSHOTS); then runs
# the load test (scripts/load-web.py: 10,000 requests from 32 clients, half of them malformed,
# with its checks of statuses, p99, memory and the server's survival).
#
# Installs Debian's chromium and chromium-driver (apt-get, so as root) and Python's selenium in
# a virtual environment under target/, or under TOMEK_TOOLS when set. The server listens on a
# free loopback port only.
#
# Usage: scripts/verify-web.sh   (TOMEK_BIN=PATH checks that binary rather than building one)
set -euo pipefail

cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver python3-venv
fi
venv="${TOMEK_TOOLS:-target}/verify-web-venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check selenium
tomek="${TOMEK_BIN:-}"
if [ -z "$tomek" ]; then
    # The web server is a feature of its own, not in the default build.
    cargo build --release --quiet --features web
    tomek="${CARGO_TARGET_DIR:-target}/release/tomek"
fi
mkdir -p generated
"$venv/bin/python" scripts/verify-web.py "$tomek"
python3 scripts/load-web.py "$tomek"
