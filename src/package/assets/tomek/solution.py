#!/usr/bin/env python3
# Tic-Tac-Toe-Tomek: a reference solution. Every board's ten lines (four rows, four
# columns, two diagonals) are scanned; a line belongs to a player when each of its squares
# holds the player's symbol or the T.
import sys

ROWS = [[4 * r + c for c in range(4)] for r in range(4)]
COLUMNS = [[4 * r + c for r in range(4)] for c in range(4)]
DIAGONALS = [[0, 5, 10, 15], [3, 6, 9, 12]]
LINES = ROWS + COLUMNS + DIAGONALS


def owns(board, line, player):
    return all(board[i] == player or board[i] == "T" for i in line)


def wins(board, player):
    return any(owns(board, line, player) for line in LINES)


def status(board):
    if wins(board, "X"):
        return "X won"
    if wins(board, "O"):
        return "O won"
    if "." not in board:
        return "Draw"
    return "Game has not completed"


def main():
    words = sys.stdin.read().split()
    cases = int(words[0])
    out = []
    for n in range(cases):
        board = "".join(words[1 + 4 * n : 5 + 4 * n])
        out.append("Case #%d: %s" % (n + 1, status(board)))
    sys.stdout.write("\n".join(out) + "\n")


main()
