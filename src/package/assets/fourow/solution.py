#!/usr/bin/env python3
# Four in a row: a reference solution. The grid is a list of rows, row 0 at the bottom. A
# window is four cells in a line; a player has four in a row when one window holds only the
# player's chips, and the chips of a winning row (of any length) are exactly the union of
# the player's full windows.
import sys

WIDTH, HEIGHT = 7, 6

WINDOWS = []
for r in range(HEIGHT):
    for c in range(WIDTH - 3):
        WINDOWS.append([(r, c + k) for k in range(4)])
for r in range(HEIGHT - 3):
    for c in range(WIDTH):
        WINDOWS.append([(r + k, c) for k in range(4)])
for r in range(HEIGHT - 3):
    for c in range(WIDTH - 3):
        WINDOWS.append([(r + k, c + k) for k in range(4)])
for r in range(3, HEIGHT):
    for c in range(WIDTH - 3):
        WINDOWS.append([(r - k, c + k) for k in range(4)])


def full(grid, window, player):
    return all(grid[r][c] == player for r, c in window)


def won(grid, player):
    return any(full(grid, w, player) for w in WINDOWS)


def play(moves):
    """The verdict sentence and, for a win, the grid and the winner's letter."""
    grid = [[" "] * WIDTH for _ in range(HEIGHT)]
    heights = [0] * WIDTH
    winner = None
    for i, digit in enumerate(moves):
        if winner is not None:
            return "is invalid.", None, None  # a move after the game was won
        c = int(digit) - 1
        if heights[c] == HEIGHT:
            return "is invalid.", None, None  # a seventh chip in the slot
        player = "x" if i % 2 == 0 else "o"
        grid[heights[c]][c] = player
        heights[c] += 1
        if won(grid, player):
            winner = player
    if winner is not None:
        who = "first" if winner == "x" else "second"
        return "is over. The %s player won." % who, grid, winner
    if len(moves) == WIDTH * HEIGHT:
        return "is over. There is no winner.", None, None
    return "is not over, yet.", None, None


def picture(grid, winner):
    capitals = set(cell for w in WINDOWS if full(grid, w, winner) for cell in w)
    lines = []
    for r in reversed(range(HEIGHT)):
        row = "".join(
            grid[r][c].upper() if (r, c) in capitals else grid[r][c] for c in range(WIDTH)
        )
        if row.strip():
            lines.append(row)
    return lines


def main():
    text = sys.stdin.read().split("\n")
    games = int(text[0])
    out = []
    for n in range(1, games + 1):
        moves = text[n].partition(":")[2].strip()
        sentence, grid, winner = play(moves)
        out.append("Game #%d %s" % (n, sentence))
        if grid is not None:
            out.append("-------")
            out.extend(picture(grid, winner))
            out.append("-------")
    sys.stdout.write("\n".join(out) + "\n")


main()
