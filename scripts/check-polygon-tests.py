#!/usr/bin/env python3
"""Runs a Polygon package's validator and checker on their own tests, as Polygon does.

Usage: scripts/check-polygon-tests.py PACKAGE_DIR VALIDATOR CHECKER [ANSWER...]

VALIDATOR and CHECKER are the package's files/validate.cpp and files/check.cpp, compiled
against a testlib.h. ANSWER...: for a problem of the family (tomek package --problem), the
answers its description names (its [[verdict]] answers), the status words a line of its
answers ends with; Tic-Tac-Toe-Tomek and Four in a row need none. The validator reads standard input and exits 0 when the input is valid
(testlib's convention). The checker is run the way the Kattis and DOMjudge judges run an output
validator, `CHECKER input answer feedback_dir < output`, exit 42 accepted and 43 rejected (the
testlib.h that p2d ships builds checkers for that convention, and so do the judges that p2d
converts for).

Checks, from problem.xml:
- every validator test gets its verdict (valid or invalid);
- every test of the testset is valid;
- every checker test gets its verdict (ok or wrong-answer).

Then proves the checker on outputs drawn from the tests' answers (every test of at most
MAX_LINES lines: the sample and the edge, killer and small sets): the right answer, and near
misses varied at lines spread over the whole file (first, middle, last and every eighth of the
way): each other status word in place of a line's, the line in lower, upper and swapped case,
a CR before its end, a space after or before it, a space doubled or made a tab, a NUL byte at
its end, the line cut in half, repeated, removed, or an empty line before it; and over the
whole file CRLF line ends, no final newline, the second half missing, an empty line or junk
bytes after the end, and no output. The right verdict comes from the rule the package states,
not from the checker: for Tic-Tac-Toe-Tomek and the family the output's words must be the
answer's, with their case, whatever the whitespace; for Four in a row the output must be the
answer byte for byte.

Prints one summary line per part and exits 0, or prints every disagreement and exits 1.
"""
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

MAX_LINES = 2000
# Per problem (problem.xml's short-name): how an output is judged right, and the status words
# a line of the answer may end with.
RULES = {
    "tictactoetomek": ("words", [b"X won", b"O won", b"Draw", b"Game has not completed"]),
    "fourinarow": ("bytes", [b"is invalid.", b"is not over, yet.", b"is over. There is no winner.",
                             b"is over. The first player won.", b"is over. The second player won."]),
}


def near_misses(answer, statuses):
    """The right answer and its near misses, by name."""
    lines = answer.split(b"\n")[:-1]
    n = len(lines)

    def join(ls, end=b"\n"):
        return b"".join(line + end for line in ls)

    out = {"right": answer}
    picks = sorted(set([0, n // 2, n - 1] + list(range(0, n, max(1, n // 8)))))
    for i in picks:
        line = lines[i]
        variants = [("lower", line.lower()), ("upper", line.upper()), ("swapcase", line.swapcase()),
                    ("cr", line + b"\r"), ("trailing-space", line + b" "),
                    ("leading-space", b" " + line), ("double-space", line.replace(b" ", b"  ", 1)),
                    ("tab", line.replace(b" ", b"\t", 1)), ("nul", line + b"\x00"),
                    ("cut", line[:len(line) // 2])]
        own = [st for st in statuses if line.endswith(st)]
        for st in statuses:
            if own and st != own[0]:
                variants.append(("status-" + st.decode().replace(" ", "_"),
                                 line[:len(line) - len(own[0])] + st))
        for name, changed in variants:
            ls = list(lines)
            ls[i] = changed
            out["%s@%d" % (name, i + 1)] = join(ls)
        ls = list(lines)
        ls.insert(i, lines[i])
        out["repeated@%d" % (i + 1)] = join(ls)
        ls = list(lines)
        del ls[i]
        out["removed@%d" % (i + 1)] = join(ls)
        ls = list(lines)
        ls.insert(i, b"")
        out["empty-line@%d" % (i + 1)] = join(ls)
    out.update({
        "crlf": join(lines, b"\r\n"), "no-final-newline": answer[:-1],
        "truncated": join(lines[:n // 2]), "extra-empty-line": answer + b"\n",
        "junk-bytes": answer + b"\xff\xfe~", "empty": b"",
    })
    return out


def right(rule, answer, output):
    if rule == "words":
        return answer.split() == output.split()
    return answer == output


def main():
    if len(sys.argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    pkg, validator, checker = sys.argv[1:4]
    root = ET.parse(os.path.join(pkg, "problem.xml")).getroot()
    if len(sys.argv) > 4:
        rule, statuses = "words", [a.encode() for a in sys.argv[4:]]
    elif root.attrib["short-name"] in RULES:
        rule, statuses = RULES[root.attrib["short-name"]]
    else:
        sys.stderr.write("check-polygon-tests: %s: no rule for %s; name its answers\n"
                         % (pkg, root.attrib["short-name"]))
        return 2
    wrong = []

    def valid(path):
        with open(path, "rb") as f:
            return subprocess.run([validator], stdin=f, capture_output=True).returncode == 0

    vset = root.find("assets/validators/validator/testset")
    pattern = vset.find("input-path-pattern").text
    verdicts = [t.attrib["verdict"] for t in vset.findall("tests/test")]
    for i, verdict in enumerate(verdicts, 1):
        path = os.path.join(pkg, pattern % i)
        if valid(path) != (verdict == "valid"):
            wrong.append("validator test %d: not %s" % (i, verdict))
    tset = root.find("judging/testset")
    pattern = tset.find("input-path-pattern").text
    tests = tset.findall("tests/test")
    for i in range(1, len(tests) + 1):
        if not valid(os.path.join(pkg, pattern % i)):
            wrong.append("test %d: rejected by the validator" % i)
    cset = root.find("assets/checker/testset")
    pin = cset.find("input-path-pattern").text
    pout = cset.find("output-path-pattern").text
    pans = cset.find("answer-path-pattern").text
    cverdicts = [t.attrib["verdict"] for t in cset.findall("tests/test")]
    with tempfile.TemporaryDirectory() as feedback:
        for i, verdict in enumerate(cverdicts, 1):
            with open(os.path.join(pkg, pout % i), "rb") as out:
                code = subprocess.run(
                    [checker, os.path.join(pkg, pin % i), os.path.join(pkg, pans % i),
                     feedback], stdin=out, capture_output=True).returncode
            expected = 42 if verdict == "ok" else 43
            if code != expected:
                wrong.append("checker test %d: exit %d, %s expected" % (i, code, verdict))
    proved = {"accept": 0, "reject": 0}
    used = []
    with tempfile.TemporaryDirectory() as feedback:
        for i in range(1, len(tests) + 1):
            inp = os.path.join(pkg, pattern % i)
            ans = os.path.join(pkg, tset.find("answer-path-pattern").text % i)
            with open(ans, "rb") as f:
                answer = f.read()
            if answer.count(b"\n") > MAX_LINES:
                continue
            used.append("%d (%d lines)" % (i, answer.count(b"\n")))
            out_path = os.path.join(feedback, "output")
            for name, output in near_misses(answer, statuses).items():
                with open(out_path, "wb") as f:
                    f.write(output)
                with open(out_path, "rb") as out:
                    code = subprocess.run([checker, inp, ans, feedback], stdin=out,
                                          capture_output=True).returncode
                ok = right(rule, answer, output)
                proved["accept" if ok else "reject"] += 1
                if code != (42 if ok else 43):
                    wrong.append("checker on test %d, output %s: exit %d, %s expected"
                                 % (i, name, code, "accepted" if ok else "rejected"))
    if wrong:
        for w in wrong:
            print("check-polygon-tests: %s: %s" % (pkg, w), file=sys.stderr)
        return 1
    print("%s: validator %d tests (%d invalid) and %d test files, checker %d tests (%d to "
          "reject): every verdict as problem.xml says"
          % (root.attrib["short-name"], len(verdicts), verdicts.count("invalid"), len(tests),
             len(cverdicts), len(cverdicts) - cverdicts.count("ok")))
    print("%s: checker proved on %d outputs from tests %s (the %s rule): %d to accept, %d to "
          "reject, 0 wrong verdicts"
          % (root.attrib["short-name"], proved["accept"] + proved["reject"], ", ".join(used),
             rule, proved["accept"], proved["reject"]))
    return 0


sys.exit(main())
