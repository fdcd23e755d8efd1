// Tic-Tac-Toe-Tomek: a reference solution. Each board becomes two 16-bit masks, the squares
// that count for X (X or T) and those that count for O (O or T); a player has won when one
// of the ten line masks lies inside the player's mask.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

namespace {

const uint16_t kLines[10] = {
    0x000F, 0x00F0, 0x0F00, 0xF000,  // rows
    0x1111, 0x2222, 0x4444, 0x8888,  // columns
    0x8421, 0x1248,                  // diagonals
};

bool has_line(uint16_t mine) {
    for (uint16_t line : kLines) {
        if ((line & mine) == line) return true;
    }
    return false;
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    long long cases = 0;
    std::cin >> cases;
    std::string out;
    for (long long n = 1; n <= cases; ++n) {
        uint16_t x = 0, o = 0;
        bool empty = false;
        for (int r = 0; r < 4; ++r) {
            std::string row;
            std::cin >> row;
            for (int c = 0; c < 4; ++c) {
                const uint16_t bit = uint16_t(1u << (4 * r + c));
                switch (row[c]) {
                    case 'X': x |= bit; break;
                    case 'O': o |= bit; break;
                    case 'T': x |= bit; o |= bit; break;
                    default: empty = true; break;
                }
            }
        }
        const char* status = has_line(x)   ? "X won"
                             : has_line(o) ? "O won"
                             : empty       ? "Game has not completed"
                                           : "Draw";
        out += "Case #" + std::to_string(n) + ": " + status + "\n";
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
