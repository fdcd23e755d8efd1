#!/usr/bin/env bash
# Builds both problem packages and has Kattis problemtools verify them, as a judge would.
#
# Usage: scripts/verify-packages.sh [PART...]   (legacy, 2025-09, domjudge, validators; all by default)
#
# - Installs problemtools (pinned, from the Python package index) into a virtual environment
#   under target/, once. Its wheel ships its own judging helpers (the default output
#   validator among them); the rest it needs is what the machine already has for this project:
#   g++ for C++ programs (problemtools links them with -static, which Debian's g++ and libc6-dev
#   support) and python3.
# - Python programs: problemtools' own language table runs Python 3 with PyPy (`pypy3`). We
#   give it a table of our own instead (target/problemtools-config, via XDG_CONFIG_HOME) that
#   runs them with the machine's CPython, the Python 3 every judge has; nothing else to install.
# - Builds the packages with the release binary into target/packages/, adds a solution and a
#   wrong solution written apart from the package (tests/fixtures/package/) to each, to show
#   that the data is not tuned to our own programs, and runs verifyproblem on the parts config,
#   data, validators, graders and submissions, and statement when lualatex is installed
#   (VERIFY_STATEMENT=1 installs Debian's LaTeX for it first: about 150 MB).
# - Fails unless each package has 0 errors, every accepted submission gets AC and every
#   wrong_answer submission WA. The summary of each run is kept in target/packages/*.log.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PROBLEMTOOLS_VERSION="1.20260907"
BAPCTOOLS_VERSION="2026.10.0"
VENV="$ROOT/target/problemtools-venv"
BT_VENV="$ROOT/target/bapctools-venv"
CONFIG="$ROOT/target/problemtools-config"
OUT="$ROOT/target/packages"
FIXTURES="$ROOT/tests/fixtures/package"

install_problemtools() {
    if [[ -x "$VENV/bin/verifyproblem" ]] &&
        [[ "$("$VENV/bin/python" -m pip show problemtools 2>/dev/null)" == *"Version: $PROBLEMTOOLS_VERSION"* ]]; then
        return
    fi
    echo "== installing problemtools $PROBLEMTOOLS_VERSION into $VENV"
    rm -rf "$VENV"
    if ! python3 -m venv "$VENV" 2>/dev/null; then
        # Debian's own python3 keeps venv in a package of its own.
        apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$VENV"
    fi
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        "problemtools==$PROBLEMTOOLS_VERSION"
}

# BAPCtools, in a virtual environment of its own (its dependencies are not problemtools').
install_bapctools() {
    if [[ -x "$BT_VENV/bin/bt" ]] &&
        [[ "$("$BT_VENV/bin/python" -m pip show bapctools 2>/dev/null)" == *"Version: $BAPCTOOLS_VERSION"* ]]; then
        return
    fi
    echo "== installing BAPCtools $BAPCTOOLS_VERSION into $BT_VENV"
    rm -rf "$BT_VENV"
    python3 -m venv "$BT_VENV"
    "$BT_VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        "bapctools==$BAPCTOOLS_VERSION"
}

# The statement check compiles the LaTeX statement (lualatex) and converts it to HTML (plasTeX,
# which finds files through TeX's kpathsea; tidy and dvisvgm tidy it up).
install_latex() {
    if [[ "${VERIFY_STATEMENT:-0}" == 1 ]] && ! command -v lualatex >/dev/null; then
        echo "== installing LaTeX for the statement check"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            texlive-luatex texlive-latex-recommended texlive-latex-extra \
            texlive-fonts-recommended texlive-plain-generic tidy dvisvgm >/dev/null
    fi
}

write_language_table() {
    mkdir -p "$CONFIG/problemtools"
    cat >"$CONFIG/problemtools/languages.yaml" <<'EOF'
# Python 3 programs run with CPython instead of problemtools' default PyPy.
python3:
    name: 'Python 3 (CPython)'
    compile: 'python3 -m py_compile {files}'
    run: 'python3 "{mainfile}"'
EOF
    # The same for BAPCtools, whose table also runs Python 3 with PyPy by default.
    mkdir -p "$CONFIG/bapctools"
    cp "$CONFIG/problemtools/languages.yaml" "$CONFIG/bapctools/languages.yaml"
}

# verify NAME: runs verifyproblem on target/packages/NAME and checks its verdicts.
verify() {
    local name="$1" dir="$OUT/$1" log="$OUT/$1.log" parts=(config data validators graders submissions)
    if command -v lualatex >/dev/null; then
        parts+=(statement)
    fi
    echo "== verifyproblem $name (parts: ${parts[*]})"
    local status=0
    XDG_CONFIG_HOME="$CONFIG" "$VENV/bin/verifyproblem" -p "${parts[@]}" -- "$dir" >"$log" 2>&1 || status=$?
    local failed=0
    if [[ "$status" -ne 0 ]]; then
        echo "verify-packages: verifyproblem exited with $status on $name" >&2
        failed=1
    fi
    if ! grep -q "^$name tested: 0 errors" "$log"; then
        echo "verify-packages: $name has errors" >&2
        failed=1
    fi
    local kind verdict sub
    for kind in accepted wrong_answer; do
        verdict=AC
        [[ "$kind" == wrong_answer ]] && verdict=WA
        for sub in "$dir/submissions/$kind"/*; do
            sub="$(basename "$sub")"
            if ! grep -qE "^ +$kind/$sub \(.*\) OK: $verdict" "$log"; then
                echo "verify-packages: $name: $kind/$sub did not get $verdict" >&2
                failed=1
            fi
        done
    done
    # The summary: the warnings and errors, the time limit and the table of submissions.
    grep -E "^(WARNING|ERROR)|Slowest AC runtime|tested:" "$log"
    sed -n '/^Submission results:/,/tested:/p' "$log" | sed '$d'
    if [[ "$failed" -ne 0 ]]; then
        echo "verify-packages: $name failed; the whole log is $log" >&2
        exit 1
    fi
}

# verify_2025_09 NAME [BT_FLAGS...]: `bt validate` and `bt run --all` on
# target/packages/2025-09/NAME. bt exits non-zero on any error or warning, on a validator
# that accepts an invalid input or rejects a valid one, and on a submission that breaks what
# submissions.yaml (or its folder) says it must get on any case.
verify_2025_09() {
    local name="$1" dir="$OUT/2025-09/$1" log="$OUT/2025-09/$1.log"
    shift
    echo "== bt validate, bt run --all: 2025-09/$name"
    local failed=0
    (cd "$dir" && XDG_CONFIG_HOME="$CONFIG" "$BT_VENV/bin/bt" validate --no-bar "$@") >"$log" 2>&1 || failed=1
    (cd "$dir" && XDG_CONFIG_HOME="$CONFIG" "$BT_VENV/bin/bt" run --no-bar --all "$@") >>"$log" 2>&1 || failed=1
    grep -vE '^\s*$' "$log"
    if [[ "$failed" -ne 0 ]]; then
        echo "verify-packages: 2025-09/$name failed; the whole log is $log" >&2
        exit 1
    fi
}

# add_outside DIR: programs written apart from the packages, one right and one wrong for each
# problem, into DIR/tomek and DIR/fourow.
add_outside() {
    cp "$FIXTURES/tomek_alt.cpp" "$1/tomek/submissions/accepted/outside-strings.cpp"
    cp "$FIXTURES/tomek_few_stones.cpp" "$1/tomek/submissions/wrong_answer/outside-few-stones.cpp"
    cp "$FIXTURES/fourow_alt.py" "$1/fourow/submissions/accepted/outside-bitboard.py"
    cp "$FIXTURES/fourow_no_diagonals.py" "$1/fourow/submissions/wrong_answer/outside-no-diagonals.py"
}

legacy() {
    install_problemtools
    install_latex
    rm -rf "$OUT/tomek" "$OUT/fourow" "$OUT/tomek.zip" "$OUT/fourow.zip"
    "$ROOT/target/release/tomek" package -o "$OUT/tomek" --zip
    "$ROOT/target/release/tomek" fourow package -o "$OUT/fourow" --zip
    # Programs written apart from the packages: one right, one wrong, for each problem.
    add_outside "$OUT"
    verify tomek
    verify fourow
    echo "verify-packages: both legacy packages verified: 0 errors, every accepted AC, every wrong_answer WA"
}

v2025_09() {
    install_bapctools
    rm -rf "$OUT/2025-09"
    "$ROOT/target/release/tomek" package --format 2025-09 -o "$OUT/2025-09/tomek"
    "$ROOT/target/release/tomek" fourow package --format 2025-09 -o "$OUT/2025-09/fourow"
    add_outside "$OUT/2025-09"
    verify_2025_09 tomek
    # Four in a row's format itself has a space before a line's end (`Game #1: ` with no moves,
    # the grid's rows): BAPCtools' generic whitespace warnings are turned off for it.
    verify_2025_09 fourow --no-test-case-sanity-checks
    echo "verify-packages: both 2025-09 packages verified by BAPCtools: every validator and submission as expected"
}

# The DOMjudge ZIPs, checked against what DOMjudge's problem import reads
# (scripts/check-domjudge-zip.py), and their jury programs against the legacy packages', which
# problemtools judged: the same programs but for the @EXPECTED_RESULTS@ line.
domjudge() {
    echo "== DOMjudge ZIPs"
    rm -rf "$OUT/domjudge"
    "$ROOT/target/release/tomek" package --format domjudge -o "$OUT/domjudge/tomek" >/dev/null
    "$ROOT/target/release/tomek" fourow package --format domjudge -o "$OUT/domjudge/fourow" >/dev/null
    "$ROOT/target/release/tomek" package -o "$OUT/domjudge/legacy/tomek" >/dev/null
    "$ROOT/target/release/tomek" fourow package -o "$OUT/domjudge/legacy/fourow" >/dev/null
    python3 "$ROOT/scripts/check-domjudge-zip.py" "$OUT/domjudge/tomek.zip" "$OUT/domjudge/legacy/tomek"
    python3 "$ROOT/scripts/check-domjudge-zip.py" "$OUT/domjudge/fourow.zip" "$OUT/domjudge/legacy/fourow"
}

# The validator proofs in full: the C++ Tomek validator over every reachable board (61,089,795
# boards in 62 files of at most 1,000,000, the statement's bound; the default test run feeds it
# every 61st board), and both validators over every near-miss kind.
validators() {
    echo "== the validators proved"
    (cd "$ROOT" && cargo test --release --quiet --test it -- --include-ignored --nocapture \
        package::tomek_validator_accepts_every_reachable_board \
        package::validators_reject_every_near_miss_kind 2>&1) |
        grep -E "^(the C\+\+ validator|near-miss kinds|test result)"
}

# Which formats to check: the arguments (legacy, 2025-09), all of them by default.
main() {
    local formats=("$@")
    if [[ ${#formats[@]} -eq 0 ]]; then
        formats=(legacy 2025-09 domjudge validators)
    fi
    write_language_table
    echo "== building the packages"
    (cd "$ROOT" && cargo build --release --quiet)
    mkdir -p "$OUT"
    local f
    for f in "${formats[@]}"; do
        case "$f" in
            legacy) legacy ;;
            2025-09) v2025_09 ;;
            domjudge) domjudge ;;
            validators) validators ;;
            *)
                echo "verify-packages: unknown part $f (legacy, 2025-09, domjudge, validators)" >&2
                exit 2
                ;;
        esac
    done
}

main "$@"
