#!/usr/bin/env python3
# Input validator for Four in a row, in the Kattis convention: the input on standard input,
# exit code 42 when it is valid, 43 with the reason on standard error when not.
#
# Valid means the statement's format to the letter:
#   - the first line is the number of games t, 1 <= t <= 99, digits only, no leading zero;
#   - then exactly t lines, line n being `Game #n:` followed by nothing, or by one space and
#     up to 42 moves, each a digit from 1 to 7;
#   - every line ends with a single LF (no carriage return), the last included, and nothing
#     follows the last game.
# Whether the games are legal (overflowing slots, moves after a win) is the problem itself,
# not a property of the input, so any sequence of moves is valid input.
#
# The program stands alone (Python 3, standard library only), so a judge can run it.
import re
import sys

COUNT = re.compile(rb"[1-9][0-9]?")
GAME = re.compile(rb"Game #([1-9][0-9]*):(?: ([1-7]{0,42}))?")


def reject(line, why):
    sys.stderr.write("line %d: %s\n" % (line, why))
    sys.exit(43)


def main():
    data = sys.stdin.buffer.read()
    if not data:
        reject(1, "the input is empty")
    if not data.endswith(b"\n"):
        reject(data.count(b"\n") + 1, "the last line does not end with a newline")
    lines = data[:-1].split(b"\n")
    for number, line in enumerate(lines, 1):
        if line.endswith(b"\r"):
            reject(number, "the line ends with a carriage return")
    if not COUNT.fullmatch(lines[0]):
        reject(1, "expected the number of games, 1 to 99, without leading zeros")
    games = int(lines[0])
    if len(lines) < games + 1:
        reject(len(lines) + 1, "%d games announced, only %d given" % (games, len(lines) - 1))
    if len(lines) > games + 1:
        reject(games + 2, "text after the last game")
    for n in range(1, games + 1):
        found = GAME.fullmatch(lines[n])
        if not found:
            reject(n + 1, "expected `Game #%d: ` and up to 42 moves from 1 to 7" % n)
        if int(found.group(1)) != n:
            reject(n + 1, "games must be numbered 1, 2, 3, ... in order")
    sys.exit(42)


main()
