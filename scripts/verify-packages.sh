#!/usr/bin/env bash
# Builds both problem packages in every format and has outside tools verify them, as judges
# would (and the packages of every built-in problem of the family, FAMILY below, in every
# format too): the legacy packages with Kattis problemtools (below), the 2025-09 ones with
# BAPCtools (verify_2025_09), the Polygon ones converted by p2d and then problemtools (polygon), the
# DOMjudge ZIPs against the import's layout (domjudge), and the validators over every reachable
# Tomek board and every near miss (validators).
#
# Usage: scripts/verify-packages.sh [PART...]   (legacy, 2025-09, polygon, domjudge, validators; all by default)
#        TOMEK_BIN=PATH builds the packages with that binary rather than a release build made here.
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
# The tools' virtual environments: under target/, or under TOMEK_TOOLS when set (.ci/run keeps
# them in a cache outside the clone, so that a machine installs them once, not on every run).
TOOLS="${TOMEK_TOOLS:-$ROOT/target}"
VENV="$TOOLS/problemtools-venv"
BT_VENV="$TOOLS/bapctools-venv"
P2D_VERSION="0.4.0"
P2D_VENV="$TOOLS/p2d-venv"
CONFIG="$ROOT/target/problemtools-config"
OUT="$ROOT/target/packages"
# The binary that builds the packages: TOMEK_BIN, or the release build made here.
TOMEK="${TOMEK_BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/tomek}"
FIXTURES="$ROOT/tests/fixtures/package"

# install_venv, shared with .ci/run.
source "$ROOT/scripts/tools-venv.sh"

install_problemtools() {
    install_venv "$VENV" problemtools "$PROBLEMTOOLS_VERSION" verifyproblem
}

# BAPCtools, in a virtual environment of its own (its dependencies are not problemtools').
install_bapctools() {
    install_venv "$BT_VENV" bapctools "$BAPCTOOLS_VERSION" bt
}

# p2d, which converts Polygon packages for DOMjudge and Kattis, and ships the testlib.h it
# builds their checkers with.
install_p2d() {
    install_venv "$P2D_VENV" p2d "$P2D_VERSION" p2d
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

# verify NAME [DIR]: runs verifyproblem on DIR (target/packages/NAME by default, its base name
# NAME) and checks its verdicts.
verify() {
    local name="$1" dir="${2:-$OUT/$1}" parts=(config data validators graders submissions)
    local log="$dir.log"
    name="$(basename "$dir")"
    if command -v lualatex >/dev/null; then
        parts+=(statement)
    fi
    echo "== verifyproblem $name (parts: ${parts[*]})"
    local status=0 fixed=()
    # The limit the package states (.timelimit), which the legacy problem.yaml cannot hold.
    if [[ -f "$dir/.timelimit" ]]; then
        fixed=(--fixed_timelim "$(cat "$dir/.timelimit")")
    fi
    XDG_CONFIG_HOME="$CONFIG" "$VENV/bin/verifyproblem" "${fixed[@]}" -p "${parts[@]}" -- "$dir" >"$log" 2>&1 || status=$?
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
    grep -E "^(WARNING|ERROR)|Slowest AC runtime|Solutions give timelim|tested:" "$log"
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
    "$TOMEK" package -o "$OUT/tomek" --zip
    "$TOMEK" fourow package -o "$OUT/fourow" --zip
    # Programs written apart from the packages: one right, one wrong, for each problem.
    add_outside "$OUT"
    verify tomek
    verify fourow
    echo "verify-packages: both legacy packages verified: 0 errors, every accepted AC, every wrong_answer WA"
    family_legacy
}

# The family's packages (tomek package --problem), whose judge programs are generated from the
# descriptions: every built-in but Code Jam's (which has the packages above). One case per
# file (cf3c), a count and empty lines between the cases (toe1), a terminator line and the rows
# on one line (toe2), a count and an empty line after each case (ccc-hk-2008-j4), answers by
# perfect play (perfect-play), on 4×4 a filter on the input and the move that completes a line
# (cf754b, one case per file), a marker line before each board, a minimum ply and the first
# forced win by a template (uva10111).
FAMILY=(cf3c toe1 toe2 ccc-hk-2008-j4 perfect-play cf754b uva10111)

# The short name of a family problem, its package directory's name.
family_dir() {
    echo "${1//[^a-z0-9]/}"
}

# The answers a family problem's description names, one a line: the status words that
# check-polygon-tests.py varies in the answers. A template (`({row},{col})`) stands for its
# answer on every square, in reading order.
family_answers() {
    "$TOMEK" problem show "$1" | python3 -c 'import sys, tomllib
d = tomllib.loads(sys.stdin.read())
rows, cols = d["board"]["rows"], d["board"]["cols"]
for v in d["verdict"]:
    a = v["answer"]
    if "{row}" in a or "{col}" in a:
        for s in range(rows * cols):
            print(a.replace("{row}", str(s // cols)).replace("{col}", str(s % cols)))
    else:
        print(a)'
}

family_legacy() {
    local name dir
    rm -rf "$OUT/family"
    for name in "${FAMILY[@]}"; do
        dir="$OUT/family/$(family_dir "$name")"
        "$TOMEK" package --problem "$name" -o "$dir"
        verify "$(basename "$dir")" "$dir"
    done
    touch "$OUT/family/.built-by-this-run"
    echo "verify-packages: the family's legacy packages (${FAMILY[*]}) verified: 0 errors, every accepted AC, every wrong_answer WA"
}

v2025_09() {
    install_bapctools
    rm -rf "$OUT/2025-09"
    "$TOMEK" package --format 2025-09 -o "$OUT/2025-09/tomek"
    "$TOMEK" fourow package --format 2025-09 -o "$OUT/2025-09/fourow"
    add_outside "$OUT/2025-09"
    verify_2025_09 tomek
    # Four in a row's format itself has a space before a line's end (`Game #1: ` with no moves,
    # the grid's rows): BAPCtools' generic whitespace warnings are turned off for it.
    verify_2025_09 fourow --no-test-case-sanity-checks
    echo "verify-packages: both 2025-09 packages verified by BAPCtools: every validator and submission as expected"
    local name
    for name in "${FAMILY[@]}"; do
        "$TOMEK" package --problem "$name" --format 2025-09 -o "$OUT/2025-09/$(family_dir "$name")"
        verify_2025_09 "$(family_dir "$name")"
    done
    echo "verify-packages: the family's 2025-09 packages (${FAMILY[*]}) verified by BAPCtools"
}

# The DOMjudge ZIPs, checked against what DOMjudge's problem import reads
# (scripts/check-domjudge-zip.py), and their jury programs against the legacy packages', which
# problemtools judged: the same programs but for the @EXPECTED_RESULTS@ line.
domjudge() {
    echo "== DOMjudge ZIPs"
    rm -rf "$OUT/domjudge"
    "$TOMEK" package --format domjudge -o "$OUT/domjudge/tomek" >/dev/null
    "$TOMEK" fourow package --format domjudge -o "$OUT/domjudge/fourow" >/dev/null
    "$TOMEK" package -o "$OUT/domjudge/legacy/tomek" >/dev/null
    "$TOMEK" fourow package -o "$OUT/domjudge/legacy/fourow" >/dev/null
    # The programs the ZIPs give the jury outside the verdict folders, in the folders whose
    # verdicts problemtools gave them (legacy part).
    add_outside "$OUT/domjudge/legacy"
    python3 "$ROOT/scripts/check-domjudge-zip.py" "$OUT/domjudge/tomek.zip" "$OUT/domjudge/legacy/tomek"
    python3 "$ROOT/scripts/check-domjudge-zip.py" "$OUT/domjudge/fourow.zip" "$OUT/domjudge/legacy/fourow"
    local name short legacy
    for name in "${FAMILY[@]}"; do
        short="$(family_dir "$name")"
        "$TOMEK" package --problem "$name" --format domjudge -o "$OUT/domjudge/$short" >/dev/null
        # The legacy package the legacy part built and problemtools judged, with the same
        # binary in this run; built here when that part did not run.
        legacy="$OUT/family/$short"
        if [[ ! -f "$OUT/family/.built-by-this-run" ]]; then
            legacy="$OUT/domjudge/legacy/$short"
            "$TOMEK" package --problem "$name" -o "$legacy" >/dev/null
        fi
        python3 "$ROOT/scripts/check-domjudge-zip.py" "$OUT/domjudge/$short.zip" "$legacy"
    done
}

# The testlib.h inside p2d's wheel.
testlib_path() {
    "$P2D_VENV/bin/python" -c 'import os, p2d; print(os.path.join(os.path.dirname(p2d.__file__), "testlib", "testlib.h"))'
}

# The Polygon packages. testlib.h comes from p2d's wheel (Polygon gives it to every problem).
# 1. What Polygon checks itself: the validator and the checker on their own tests, every test
#    file valid; then the checker proved on near misses of the answers of every test but the
#    biggest, varied at lines throughout (scripts/check-polygon-tests.py).
# 2. p2d converts each package to a Kattis/DOMjudge package. It leaves out what it does not
#    convert: the statement (it takes only a PDF) and the input validator; both are put in from
#    the Polygon package, the statement assembled from its sections (problem-properties.json)
#    in the Kattis form, the validator as a program that runs the Polygon validator (exit 0)
#    and answers in the Kattis convention (42). The checker is p2d's: it copies files/check.cpp
#    with its testlib.h as the custom output validator.
# 3. problemtools' verifyproblem judges the result, with the programs written apart from the
#    packages added (Tomek's and Four in a row's): 0 errors, every accepted AC, every
#    wrong_answer WA.
# The family's Polygon packages (FAMILY) go the same way; their checker is proved by the words
# rule on the answers their descriptions name.
polygon() {
    install_p2d
    install_problemtools
    install_latex
    local testlib
    testlib="$(testlib_path)"
    rm -rf "$OUT/polygon"
    mkdir -p "$OUT/polygon/kattis"
    "$TOMEK" package --format polygon -o "$OUT/polygon/tomek"
    "$TOMEK" fourow package --format polygon -o "$OUT/polygon/fourow"
    local name short dir kattis answers=()
    for name in "${FAMILY[@]}"; do
        "$TOMEK" package --problem "$name" --format polygon -o "$OUT/polygon/$(family_dir "$name")" >/dev/null
    done
    for name in tomek fourow "${FAMILY[@]}"; do
        answers=()
        if [[ "$name" != tomek && "$name" != fourow ]]; then
            mapfile -t answers < <(family_answers "$name")
            name="$(family_dir "$name")"
        fi
        dir="$OUT/polygon/$name"
        short="$(python3 -c 'import sys, xml.etree.ElementTree as E; print(E.parse(sys.argv[1]).getroot().attrib["short-name"])' "$dir/problem.xml")"
        cp "$testlib" "$dir/files/testlib.h"
        g++ -O2 -std=gnu++17 -o "$dir.validate" "$dir/files/validate.cpp"
        g++ -O2 -std=gnu++17 -o "$dir.check" "$dir/files/check.cpp"
        python3 "$ROOT/scripts/check-polygon-tests.py" "$dir" "$dir.validate" "$dir.check" "${answers[@]}"
        echo "== p2d $name -> $short"
        "$P2D_VENV/bin/p2d" --code "$short" --yes -o "$OUT/polygon/$short.zip" "$dir" >"$dir.p2d.log" 2>&1 || {
            cat "$dir.p2d.log" >&2
            exit 1
        }
        kattis="$OUT/polygon/kattis/$short"
        mkdir -p "$kattis"
        (cd "$kattis" && python3 -m zipfile -e "$OUT/polygon/$short.zip" .)
        mkdir -p "$kattis/problem_statement" "$kattis/input_validators/polygon"
        python3 - "$dir/statements/english/problem-properties.json" >"$kattis/problem_statement/problem.en.tex" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1], encoding="utf-8"))
sys.stdout.write("\\problemname{%s}\n\n%s\n\\section*{Input}\n\n%s\n\\section*{Output}\n\n%s"
                 % (p["name"], p["legend"], p["input"], p["output"]))
EOF
        cp "$dir/files/validate.cpp" "$testlib" "$kattis/input_validators/polygon/"
        printf '#!/bin/sh\ng++ -O2 -std=gnu++17 -o validate validate.cpp\n' >"$kattis/input_validators/polygon/build"
        printf '#!/bin/sh\nif "$(dirname "$0")/validate" "$@"; then exit 42; else exit 43; fi\n' >"$kattis/input_validators/polygon/run"
        chmod +x "$kattis/input_validators/polygon/build" "$kattis/input_validators/polygon/run"
    done
    mkdir -p "$OUT/polygon/outside"
    ln -sfn "$OUT/polygon/kattis/tictactoetomek" "$OUT/polygon/outside/tomek"
    ln -sfn "$OUT/polygon/kattis/fourinarow" "$OUT/polygon/outside/fourow"
    add_outside "$OUT/polygon/outside"
    verify tictactoetomek "$OUT/polygon/kattis/tictactoetomek"
    verify fourinarow "$OUT/polygon/kattis/fourinarow"
    echo "verify-packages: both Polygon packages converted by p2d and verified by problemtools: 0 errors, every accepted AC, every wrong_answer WA"
    for name in "${FAMILY[@]}"; do
        short="$(family_dir "$name")"
        verify "$short" "$OUT/polygon/kattis/$short"
    done
    echo "verify-packages: the family's Polygon packages (${FAMILY[*]}) converted by p2d and verified by problemtools: 0 errors, every accepted AC, every wrong_answer WA"
}

# The validator proofs in full: the C++ Tomek validator and the Polygon one (built against
# p2d's testlib.h) over every reachable board (61,089,795 boards in 62 files of at most
# 1,000,000, the statement's bound; the default test run feeds the C++ one every 61st board),
# and the Polygon validators of both problems over every near-miss kind (the default test run
# holds the Kattis validators and `tomek validate` to them).
validators() {
    install_p2d
    echo "== the validators proved"
    # The features CI's tests are built with (TOMEK_TEST_FEATURES), so that after them nothing
    # is rebuilt; every feature otherwise.
    local features=(--all-features)
    if [ -n "${TOMEK_TEST_FEATURES:-}" ]; then
        features=(--features "$TOMEK_TEST_FEATURES")
    fi
    (cd "$ROOT" && TOMEK_TESTLIB="$(testlib_path)" cargo test --release "${features[@]}" --quiet --test it -- \
        --ignored --nocapture --test-threads=1 \
        package::tomek_validator_accepts_every_reachable_board \
        package::polygon_validators_reject_every_near_miss_kind 2>&1) |
        grep -oE "(the C\+\+ validator|the Polygon validators|near-miss kinds|test result).*"
}

# What to check: the arguments (legacy, 2025-09, polygon, domjudge, validators), all by default.
main() {
    local formats=("$@")
    if [[ ${#formats[@]} -eq 0 ]]; then
        formats=(legacy 2025-09 polygon domjudge validators)
    fi
    write_language_table
    # Set by the legacy part once it has built and judged the family's packages in this run.
    rm -f "$OUT/family/.built-by-this-run"
    echo "== building the packages"
    if [[ -z "${TOMEK_BIN:-}" ]]; then
        (cd "$ROOT" && cargo build --release --quiet)
    fi
    mkdir -p "$OUT"
    local f
    for f in "${formats[@]}"; do
        case "$f" in
            legacy) legacy ;;
            2025-09) v2025_09 ;;
            polygon) polygon ;;
            domjudge) domjudge ;;
            validators) validators ;;
            *)
                echo "verify-packages: unknown part $f (legacy, 2025-09, polygon, domjudge, validators)" >&2
                exit 2
                ;;
        esac
    done
}

main "$@"
