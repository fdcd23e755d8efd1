// Input validator for Tic-Tac-Toe-Tomek in Polygon's convention, written against testlib:
// testlib reads the input and exits non-zero with a message at the first byte out of place.
// The rules are those of input_validators/validate.cpp in the Kattis packages: the exact
// format (T from 1 to 1000000, each case four rows of four symbols from X, O, T and '.' and
// one empty line, LF line endings, nothing after the last case), at most one T per board, and
// boards that play can reach.
#include <cstdint>
#include <string>

#include "testlib.h"

namespace {

const uint16_t kLines[10] = {
    0x000F, 0x00F0, 0x0F00, 0xF000,  // rows
    0x1111, 0x2222, 0x4444, 0x8888,  // columns
    0x8421, 0x1248,                  // diagonals
};

// The intersection of the lines inside `mine` (all squares when there are none).
uint16_t common_squares(uint16_t mine, int& count) {
    uint16_t common = 0xFFFF;
    count = 0;
    for (uint16_t l : kLines) {
        if ((l & mine) == l) {
            common &= l;
            ++count;
        }
    }
    return common;
}

void check_reachable(uint16_t x, uint16_t o, uint16_t t, int kase) {
    const int nx = __builtin_popcount(x), no = __builtin_popcount(o);
    ensuref(nx == no || nx == no + 1, "case %d: %d X and %d O do not fit the turn order", kase,
            nx, no);
    int x_lines = 0, o_lines = 0;
    const uint16_t x_core = common_squares(x | t, x_lines);
    const uint16_t o_core = common_squares(o | t, o_lines);
    ensuref(x_lines == 0 || o_lines == 0, "case %d: both players have a line", kase);
    if (x_lines == 0 && o_lines == 0) return;
    const bool x_won = x_lines > 0;
    ensuref(x_won == (nx > no), "case %d: the player with a line did not move last", kase);
    const uint16_t core = x_won ? x_core : o_core;
    const uint16_t stones = x_won ? x : o;
    ensuref((core & stones) != 0,
            "case %d: no stone of the winner lies on all of the winner's lines", kase);
}

}  // namespace

int main(int argc, char* argv[]) {
    registerValidation(argc, argv);
    const int cases = inf.readInt(1, 1000000, "T");
    inf.readEoln();
    for (int kase = 1; kase <= cases; ++kase) {
        uint16_t x = 0, o = 0, t = 0;
        for (int r = 0; r < 4; ++r) {
            const std::string row = inf.readToken("[XOT.]{4}", "row");
            inf.readEoln();
            for (int c = 0; c < 4; ++c) {
                const uint16_t bit = uint16_t(1u << (4 * r + c));
                if (row[c] == 'X') x |= bit;
                if (row[c] == 'O') o |= bit;
                if (row[c] == 'T') {
                    ensuref(t == 0, "case %d: more than one T", kase);
                    t = bit;
                }
            }
        }
        inf.readEoln();
        check_reachable(x, o, t, kase);
    }
    inf.readEof();
}
