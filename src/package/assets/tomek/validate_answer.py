#!/usr/bin/env python3
# Answer validator for Tic-Tac-Toe-Tomek (ICPC package format 2025-09): the input file's path
# is the first argument, the answer is on standard input; exit 42 when the answer has the
# output's exact form, 43 with the reason on standard error when not.
#
# The form: one line per board, `Case #i: ` then one of `X won`, `O won`, `Draw` and
# `Game has not completed`, for i = 1 to the number of cases the input announces, each line
# ended by one LF, nothing else. (Which status is right is the reference solutions' business.)
import sys

STATUSES = {b"X won", b"O won", b"Draw", b"Game has not completed"}


def reject(why):
    sys.stderr.write(why + "\n")
    sys.exit(43)


def main():
    with open(sys.argv[1], "rb") as f:
        cases = int(f.readline())
    data = sys.stdin.buffer.read()
    if not data.endswith(b"\n"):
        reject("the answer does not end with a newline")
    lines = data[:-1].split(b"\n")
    if len(lines) != cases:
        reject("%d lines for %d cases" % (len(lines), cases))
    for i, line in enumerate(lines, 1):
        prefix = b"Case #%d: " % i
        if not line.startswith(prefix) or line[len(prefix):] not in STATUSES:
            reject("line %d is not `Case #%d: ` and a status" % (i, i))
    sys.exit(42)


main()
