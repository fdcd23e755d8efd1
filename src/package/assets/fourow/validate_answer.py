#!/usr/bin/env python3
# Answer validator for Four in a row (ICPC package format 2025-09): the input file's path is
# the first argument, the answer is on standard input; exit 42 when the answer has the output's
# exact form, 43 with the reason on standard error when not.
#
# The form, for each game n of the input in order: the line `Game #n ` and one of the five
# sentences; after a won game's (`is over. The ... player won.`) the grid: a line of seven
# dashes, one to six rows of seven characters from ` xoXO` (the rows that hold a chip), seven
# dashes again. Every line is ended by one LF, and nothing follows the last game. (Which answer is right is the reference
# solutions' business.)
import re
import sys

SENTENCES = {
    b"is invalid.": False,
    b"is not over, yet.": False,
    b"is over. There is no winner.": False,
    b"is over. The first player won.": True,
    b"is over. The second player won.": True,
}
ROW = re.compile(rb"[ xoXO]{7}")


def reject(line, why):
    sys.stderr.write("line %d: %s\n" % (line, why))
    sys.exit(43)


def main():
    with open(sys.argv[1], "rb") as f:
        games = int(f.readline())
    data = sys.stdin.buffer.read()
    if not data.endswith(b"\n"):
        reject(data.count(b"\n") + 1, "the answer does not end with a newline")
    lines = data[:-1].split(b"\n")
    at = 0
    for n in range(1, games + 1):
        if at >= len(lines):
            reject(at + 1, "the answer ends before game %d" % n)
        prefix = b"Game #%d " % n
        line = lines[at]
        if not line.startswith(prefix) or line[len(prefix):] not in SENTENCES:
            reject(at + 1, "expected `Game #%d ` and a sentence" % n)
        at += 1
        if SENTENCES[line[len(prefix):]]:
            if lines[at:at + 1] != [b"-------"]:
                reject(at + 1, "expected the grid, opened by seven dashes")
            rows = 0
            at += 1
            while at < len(lines) and lines[at] != b"-------":
                if rows == 6 or not ROW.fullmatch(lines[at]):
                    reject(at + 1, "expected at most six rows of seven of ` xoXO`")
                rows += 1
                at += 1
            if at == len(lines) or rows == 0:
                reject(at + 1, "expected one to six rows, then seven dashes")
            at += 1
    if at != len(lines):
        reject(at + 1, "text after the last game")
    sys.exit(42)


main()
