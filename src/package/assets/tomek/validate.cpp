// Input validator for Tic-Tac-Toe-Tomek, in the Kattis convention: the input on standard
// input, exit code 42 when it is valid, 43 with the reason on standard error when not.
//
// Valid means the exact format and boards that play can reach:
//   - the first line is the number of cases T, 1 <= T <= 1000000, digits only, no leading zero;
//   - then T cases, each four rows of exactly four symbols from X, O, T and '.', then one
//     empty line (the last case included); LF line endings only; nothing after the last case;
//   - at most one T per board;
//   - X moves first and the players alternate, so X has as many stones as O or one more;
//   - the game stops at the first line: both players never have one, the player with a line
//     moved last, and one of that player's stones lies on every line of theirs (it was the
//     move that ended the game).
// A line belongs to a player when each of its four squares holds the player's symbol or T.
//
// The program stands alone (C++17, standard library only), so a judge can build it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>

namespace {

const long long kMaxCases = 1000000;

const uint16_t kLines[10] = {
    0x000F, 0x00F0, 0x0F00, 0xF000,  // rows
    0x1111, 0x2222, 0x4444, 0x8888,  // columns
    0x8421, 0x1248,                  // diagonals
};

[[noreturn]] void reject(long long line, long long kase, const std::string& why) {
    std::cerr << "line " << line;
    if (kase > 0) std::cerr << ", case " << kase;
    std::cerr << ": " << why << "\n";
    std::exit(43);
}

// The input, read whole, and a cursor over its lines.
struct Input {
    std::string text;
    size_t pos = 0;
    long long line = 0;

    // The next line without its newline; false at the end of the input. `newline` tells
    // whether the line was ended by one.
    bool next(std::string& out, bool& newline) {
        if (pos >= text.size()) return false;
        size_t end = text.find('\n', pos);
        newline = end != std::string::npos;
        if (!newline) end = text.size();
        out.assign(text, pos, end - pos);
        pos = newline ? end + 1 : end;
        ++line;
        return true;
    }
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

void check_reachable(uint16_t x, uint16_t o, uint16_t t, long long line, long long kase) {
    const int nx = __builtin_popcount(x), no = __builtin_popcount(o);
    if (nx != no && nx != no + 1) {
        reject(line, kase,
               "stone counts do not fit the turn order: " + std::to_string(nx) + " X and " +
                   std::to_string(no) + " O");
    }
    int x_lines = 0, o_lines = 0;
    const uint16_t x_core = common_squares(x | t, x_lines);
    const uint16_t o_core = common_squares(o | t, o_lines);
    if (x_lines > 0 && o_lines > 0) reject(line, kase, "both players have a line");
    if (x_lines == 0 && o_lines == 0) return;
    const bool x_won = x_lines > 0;
    const bool x_moved_last = nx > no;
    if (x_won != x_moved_last) {
        reject(line, kase,
               std::string(x_won ? "X" : "O") + " has a line but did not move last");
    }
    const uint16_t core = x_won ? x_core : o_core;
    const uint16_t stones = x_won ? x : o;
    if ((core & stones) == 0) {
        reject(line, kase,
               "no stone of the winner lies on all of the winner's lines: the game was over "
               "before the last move");
    }
}

}  // namespace

int main() {
    Input in;
    in.text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    std::string line;
    bool newline = false;
    if (!in.next(line, newline)) reject(1, 0, "the input is empty");
    if (line.empty() || line.size() > 7) reject(1, 0, "expected the number of cases");
    for (char ch : line) {
        if (ch < '0' || ch > '9') reject(1, 0, "the number of cases must be digits only");
    }
    if (line[0] == '0') reject(1, 0, "the number of cases is 0 or has a leading zero");
    const long long cases = std::stoll(line);
    if (cases > kMaxCases) reject(1, 0, "more than 1000000 cases");
    if (!newline) reject(1, 0, "the first line has no newline");

    for (long long kase = 1; kase <= cases; ++kase) {
        uint16_t x = 0, o = 0, t = 0;
        for (int r = 0; r < 4; ++r) {
            if (!in.next(line, newline)) reject(in.line + 1, kase, "the input ends inside a case");
            if (line.size() != 4) reject(in.line, kase, "a row must be exactly four symbols");
            if (!newline) reject(in.line, kase, "the row has no newline");
            for (int c = 0; c < 4; ++c) {
                const uint16_t bit = uint16_t(1u << (4 * r + c));
                switch (line[c]) {
                    case 'X': x |= bit; break;
                    case 'O': o |= bit; break;
                    case '.': break;
                    case 'T':
                        if (t != 0) reject(in.line, kase, "more than one T");
                        t = bit;
                        break;
                    default: reject(in.line, kase, "a symbol other than X, O, T and '.'");
                }
            }
        }
        if (!in.next(line, newline) || !line.empty() || !newline) {
            reject(in.line, kase, "every case must end with one empty line");
        }
        check_reachable(x, o, t, in.line - 4, kase);
    }
    if (in.next(line, newline)) reject(in.line, 0, "text after the last case");
    return 42;
}
