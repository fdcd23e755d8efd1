// ---- The board's rules, the same for every problem of the family ----
//
// A square is a bit (row by row from the top left); a player's squares are a mask. A line is
// `kLine` squares in a row along a row, a column, a diagonal (down-right) or an anti-diagonal
// (down-left); the joker, when the board has one, counts for both players.

typedef unsigned Mask;

const Mask kFull = (1u << (kRows * kCols)) - 1;

// The directions of a line, in this order: along a row, down a column, down-right, down-left.
const int kDirections = 4;

std::vector<Mask> gLines;

// Every line of the board, direction by direction.
void build_lines() {
    const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    for (int d = 0; d < kDirections; ++d) {
        for (int r = 0; r < kRows; ++r) {
            for (int c = 0; c < kCols; ++c) {
                Mask m = 0;
                bool inside = true;
                for (int k = 0; k < kLine; ++k) {
                    const int rr = r + k * dr[d], cc = c + k * dc[d];
                    if (rr < 0 || cc < 0 || rr >= kRows || cc >= kCols) {
                        inside = false;
                        break;
                    }
                    m |= 1u << (rr * kCols + cc);
                }
                if (inside) gLines.push_back(m);
            }
        }
    }
}

int count_lines(Mask mine) {
    int n = 0;
    for (Mask l : gLines) n += (l & mine) == l;
    return n;
}

bool has_line(Mask mine) { return count_lines(mine) > 0; }

// The squares outside `mine` that would each complete a line of `mine`: the one square a line
// lacks, for every line that lacks exactly one.
Mask completing(Mask mine) {
    Mask out = 0;
    for (Mask l : gLines) {
        const Mask lacking = l & ~mine;
        if (lacking != 0 && (lacking & (lacking - 1)) == 0) out |= lacking;
    }
    return out;
}

// The squares shared by every line inside `mine` (all squares when there is none).
Mask line_core(Mask mine) {
    Mask core = kFull;
    for (Mask l : gLines) {
        if ((l & mine) == l) core &= l;
    }
    return core;
}

struct Board {
    Mask x, o, t;  // the first player's stones, the second's, the joker
};

int stones(Mask m) { return __builtin_popcount(m); }

// Why a board cannot arise in play (X moves first, play stops at the first line), or nullptr
// when it can. X stands for the first player, O for the second.
const char* unreachable(const Board& b) {
    const int nx = stones(b.x), no = stones(b.o);
    if (nx != no && nx != no + 1) return "the stone counts do not fit the turn order";
    const bool xl = has_line(b.x | b.t), ol = has_line(b.o | b.t);
    if (xl && ol) return "both players have a line";
    if (!xl && !ol) return nullptr;
    const bool x_won = xl;
    if (x_won != (nx > no)) return "the player with a line did not move last";
    const Mask mine = x_won ? b.x : b.o;
    if ((line_core(mine | b.t) & mine) == 0) return "no stone of the winner lies on all its lines";
    return nullptr;
}
