// Four in a row: a reference solution. After each move only the lines through the new chip
// can have become four in a row, so the chip's four directions are walked both ways; a run
// of four or more ends the game and its cells are remembered for the capitals.
#include <cstdio>
#include <iostream>
#include <string>

namespace {

const int kWidth = 7, kHeight = 6;
const int kDirections[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};  // (column, row) steps

struct Game {
    char cell[kHeight][kWidth];  // row 0 at the bottom; ' ' when empty
    bool capital[kHeight][kWidth];
    int height[kWidth];

    Game() {
        for (int r = 0; r < kHeight; ++r) {
            for (int c = 0; c < kWidth; ++c) {
                cell[r][c] = ' ';
                capital[r][c] = false;
            }
        }
        for (int c = 0; c < kWidth; ++c) height[c] = 0;
    }

    bool mine(int c, int r, char who) const {
        return c >= 0 && c < kWidth && r >= 0 && r < kHeight && cell[r][c] == who;
    }

    // Whether the chip at (c, r) makes four or more in a row; marks the runs that do.
    bool wins_at(int c, int r) {
        const char who = cell[r][c];
        bool any = false;
        for (const auto& d : kDirections) {
            int back = 0, ahead = 0;
            while (mine(c - (back + 1) * d[0], r - (back + 1) * d[1], who)) ++back;
            while (mine(c + (ahead + 1) * d[0], r + (ahead + 1) * d[1], who)) ++ahead;
            if (back + ahead + 1 >= 4) {
                any = true;
                for (int k = -back; k <= ahead; ++k) capital[r + k * d[1]][c + k * d[0]] = true;
            }
        }
        return any;
    }
};

std::string judge(int number, const std::string& moves) {
    Game g;
    int winner = -1;
    for (size_t i = 0; i < moves.size(); ++i) {
        const int c = moves[i] - '1';
        if (winner >= 0 || g.height[c] == kHeight) {
            return "Game #" + std::to_string(number) + " is invalid.\n";
        }
        const int r = g.height[c]++;
        g.cell[r][c] = i % 2 == 0 ? 'x' : 'o';
        if (g.wins_at(c, r)) winner = int(i % 2);
    }
    std::string out = "Game #" + std::to_string(number);
    if (winner < 0) {
        if (moves.size() == size_t(kWidth * kHeight)) return out + " is over. There is no winner.\n";
        return out + " is not over, yet.\n";
    }
    out += winner == 0 ? " is over. The first player won.\n" : " is over. The second player won.\n";
    out += "-------\n";
    for (int r = kHeight - 1; r >= 0; --r) {
        std::string row;
        bool chips = false;
        for (int c = 0; c < kWidth; ++c) {
            char ch = g.cell[r][c];
            if (ch != ' ') chips = true;
            if (g.capital[r][c]) ch = char(ch - 'a' + 'A');
            row += ch;
        }
        if (chips) out += row + "\n";
    }
    return out + "-------\n";
}

}  // namespace

int main() {
    std::string line;
    std::getline(std::cin, line);
    const int games = std::stoi(line);
    std::string out;
    for (int n = 1; n <= games; ++n) {
        std::getline(std::cin, line);
        std::string moves;
        const size_t colon = line.find(':');
        for (size_t i = colon + 1; i < line.size(); ++i) {
            if (line[i] >= '1' && line[i] <= '7') moves += line[i];
        }
        out += judge(n, moves);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
