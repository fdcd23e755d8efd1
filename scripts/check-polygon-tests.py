#!/usr/bin/env python3
"""Runs a Polygon package's validator and checker on their own tests, as Polygon does.

Usage: scripts/check-polygon-tests.py PACKAGE_DIR VALIDATOR CHECKER

VALIDATOR and CHECKER are the package's files/validate.cpp and files/check.cpp, compiled
against a testlib.h. The validator reads standard input and exits 0 when the input is valid
(testlib's convention). The checker is run the way the Kattis and DOMjudge judges run an output
validator, `CHECKER input answer feedback_dir < output`, exit 42 accepted and 43 rejected (the
testlib.h that p2d ships builds checkers for that convention, and so do the judges that p2d
converts for).

Checks, from problem.xml:
- every validator test gets its verdict (valid or invalid);
- every test of the testset is valid;
- every checker test gets its verdict (ok or wrong-answer).
Prints one summary line and exits 0, or prints every disagreement and exits 1.
"""
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def main():
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    pkg, validator, checker = sys.argv[1:]
    root = ET.parse(os.path.join(pkg, "problem.xml")).getroot()
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
    if wrong:
        for w in wrong:
            print("check-polygon-tests: %s: %s" % (pkg, w), file=sys.stderr)
        return 1
    print("%s: validator %d tests (%d invalid) and %d test files, checker %d tests (%d to "
          "reject): every verdict as problem.xml says"
          % (root.attrib["short-name"], len(verdicts), verdicts.count("invalid"), len(tests),
             len(cverdicts), len(cverdicts) - cverdicts.count("ok")))
    return 0


sys.exit(main())
