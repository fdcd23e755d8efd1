/*
 * The plain yardstick for `scripts/bench.sh family`: a single-threaded C program that plays
 * out every game of k in a row on the 4×4 board (X first, play stopping at the first line or
 * a full board) with a memo over the 3^16 grids, one byte a grid, and counts what a problem
 * of the family counts:
 *
 *   yardstick K perfect   reachable positions by who wins under perfect play (X, O, draw)
 *   yardstick K every     every grid by whether play reaches it (yes, no)
 *
 * It is what a setter would write first: no bitboard tricks beyond line masks, no threads,
 * no symmetry. Build: gcc -O2 -o yardstick yardstick.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELLS 16
#define GRIDS 43046721u /* 3^16 */

static unsigned short lines[64];
static int nlines;
static unsigned pow3[CELLS + 1];
/* 0: not met; else 1 + the winner under perfect play (0 draw, 1 X, 2 O). */
static unsigned char *memo;

static int has_line(unsigned short m) {
    for (int i = 0; i < nlines; i++)
        if ((m & lines[i]) == lines[i]) return 1;
    return 0;
}

/* The winner under perfect play (0 draw, 1 X, 2 O) of the grid `code` with stones x and o,
 * `mover` (1 X, 2 O) to play. */
static int play(unsigned code, unsigned short x, unsigned short o, int mover) {
    if (memo[code]) return memo[code] - 1;
    int result;
    if (has_line(x)) result = 1;
    else if (has_line(o)) result = 2;
    else if ((x | o) == 0xFFFF) result = 0;
    else {
        int best = 3 - mover; /* the opponent, until something better is found */
        for (int s = 0; s < CELLS; s++) {
            unsigned short bit = 1u << s;
            if ((x | o) & bit) continue;
            int r = mover == 1 ? play(code + pow3[s], x | bit, o, 2)
                               : play(code + 2 * pow3[s], x, o | bit, 1);
            if (r == mover) { best = mover; }
            else if (r == 0 && best != mover) best = 0;
            /* No early stop: every game is played, so that every reachable grid is met. */
        }
        result = best;
    }
    memo[code] = (unsigned char)(result + 1);
    return result;
}

int main(int argc, char **argv) {
    if (argc != 3 || (atoi(argv[1]) != 3 && atoi(argv[1]) != 4) ||
        (strcmp(argv[2], "perfect") && strcmp(argv[2], "every"))) {
        fprintf(stderr, "usage: yardstick 3|4 perfect|every\n");
        return 2;
    }
    int k = atoi(argv[1]);
    int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            for (int d = 0; d < 4; d++) {
                int er = r + dirs[d][0] * (k - 1), ec = c + dirs[d][1] * (k - 1);
                if (er < 0 || er > 3 || ec < 0 || ec > 3) continue;
                unsigned short m = 0;
                for (int i = 0; i < k; i++)
                    m |= 1u << ((r + dirs[d][0] * i) * 4 + c + dirs[d][1] * i);
                lines[nlines++] = m;
            }
    pow3[0] = 1;
    for (int i = 1; i <= CELLS; i++) pow3[i] = pow3[i - 1] * 3;
    memo = calloc(GRIDS, 1);
    if (!memo) return 1;
    play(0, 0, 0, 1);
    unsigned long long count[3] = {0, 0, 0}, reached = 0;
    for (unsigned i = 0; i < GRIDS; i++)
        if (memo[i]) { reached++; count[memo[i] - 1]++; }
    if (!strcmp(argv[2], "perfect"))
        printf("positions %llu X %llu O %llu draw %llu\n", reached, count[1], count[2], count[0]);
    else
        printf("grids %u yes %llu no %llu\n", GRIDS, reached, GRIDS - reached);
    return 0;
}
