// ---- Perfect play ----
//
// Every open board met is remembered by its grid: a byte per grid, in pages allocated on
// first write. A search below a 4×4 position meets millions of grids; an array read costs a
// fraction of a hash table's look-up, and only the pages the search touches take memory.

const int kCells = kRows * kCols;

// 3 to the power k, for k up to the number of squares.
unsigned long long pow3(int k) {
    unsigned long long p = 1;
    while (k-- > 0) p *= 3;
    return p;
}

// The squares of a byte's mask read as the digits (0 or 1) of a number in base 3.
std::vector<unsigned> base3_table() {
    std::vector<unsigned> t(256);
    for (unsigned m = 0; m < 256; ++m) {
        unsigned v = 0, p = 1;
        for (int i = 0; i < 8; ++i, p *= 3) {
            if (m >> i & 1) v += p;
        }
        t[m] = v;
    }
    return t;
}

const std::vector<unsigned> gBase3 = base3_table();

unsigned long long base3(Mask m) {
    return gBase3[m & 0xff] + 6561ull * gBase3[m >> 8 & 0xff];
}

// A grid's number: without the joker, its squares in base 3 (empty 0, first player 1, second
// 2); with it, past those, one block for each square of the joker, the other squares in base 3.
unsigned long long grid_index(const Board& b) {
    if (b.t == 0) return base3(b.x) + 2 * base3(b.o);
    const Mask below = b.t - 1;
    // The squares after the joker's moved down one, so that the joker's square is skipped.
    auto squeeze = [below](Mask m) { return (m & below) | (m >> 1 & ~below); };
    return pow3(kCells) + (unsigned long long)__builtin_ctz(b.t) * pow3(kCells - 1) +
           base3(squeeze(b.x)) + 2 * base3(squeeze(b.o));
}

struct Paged {
    static const int kPageBits = 14;
    std::vector<std::vector<unsigned char> > pages;

    unsigned char get(unsigned long long i) const {
        const size_t page = i >> kPageBits;
        if (page >= pages.size() || pages[page].empty()) return 0;
        return pages[page][i & ((1u << kPageBits) - 1)];
    }

    void set(unsigned long long i, unsigned char v) {
        const size_t page = i >> kPageBits;
        if (page >= pages.size()) pages.resize(page + 1);
        if (pages[page].empty()) pages[page].assign(1u << kPageBits, 0);
        pages[page][i & ((1u << kPageBits) - 1)] = v;
    }
};

// A board's value byte: 0 unknown, else kKnown | outcome << 5 | plies to the end (kNoDistance
// when the search did not find them). Outcomes: 0 lost, 1 drawn, 2 won, for the side to move.
const unsigned char kKnown = 0x80, kNoDistance = 31;
// A board's proof bits: whether the side to move forces a win, and at least a draw.
const unsigned char kWinKnown = 1, kWin = 2, kHoldKnown = 4, kHold = 8;

Paged gValues, gProofs;

Board played(const Board& b, bool x_moves, int square) {
    Board child = b;
    (x_moves ? child.x : child.o) |= 1u << square;
    return child;
}

// Whether the side to move forces a win (`win`) or at least a draw (not `win`) on the open
// board `b`. Either holds when a move completes a line. Otherwise only some moves are worth
// trying: when the opponent threatens to complete a line on one square, that square (any
// other move loses); on two, none (one is left whatever is played, and two empty squares mean
// the move does not fill the board). A win then needs a move after which the opponent cannot
// hold a draw; a draw, a move that fills the board or after which the opponent cannot win.
// Each question is searched only as far as its answer needs.
bool proves(const Board& b, bool x_moves, bool win) {
    const unsigned long long i = grid_index(b);
    const unsigned char code = gValues.get(i);
    if (code != 0) {
        const int v = code >> 5 & 3;
        return win ? v == 2 : v != 0;
    }
    const unsigned char known = win ? kWinKnown : kHoldKnown, yes = win ? kWin : kHold;
    const unsigned char proof = gProofs.get(i);
    if (proof & known) return (proof & yes) != 0;
    const Mask empty = empty_of(b);
    bool proved = (empty & completing(mine_of(b, x_moves))) != 0;
    Mask left = 0;
    if (!proved) {
        const Mask threats = empty & completing(mine_of(b, !x_moves));
        const int n = stones(threats);
        left = n == 0 ? empty : n == 1 ? threats : 0;
    }
    while (left != 0 && !proved) {
        const int square = __builtin_ctz(left);
        left &= left - 1;
        const Board child = played(b, x_moves, square);
        if (empty_of(child) == 0) {
            proved = !win;  // no move completes a line here: a full board is a draw
        } else {
            proved = !proves(child, !x_moves, !win);
        }
    }
    gProofs.set(i, gProofs.get(i) | known | (proved ? yes : 0));
    return proved;
}

// Perfect play for the side to move on the open board `b`: 2 won when some move wins at once
// or leaves the opponent lost, 1 drawn when the best it reaches is a draw, 0 lost.
int outcome(const Board& b, bool x_moves) {
    const unsigned long long i = grid_index(b);
    const unsigned char code = gValues.get(i);
    if (code != 0) return code >> 5 & 3;
    const int v = proves(b, x_moves, true) ? 2 : proves(b, x_moves, false) ? 1 : 0;
    gValues.set(i, kKnown | v << 5 | kNoDistance);
    return v;
}

// The exact value of the open board `b` for the side to move and the plies to the end under
// perfect play, every move searched: a move that wins at once wins in 1; else the best move,
// the winner taking the fastest win and the loser the slowest loss, and a draw fills the
// board (as many plies as empty squares).
int search(const Board& b, bool x_moves, int& distance) {
    const unsigned long long i = grid_index(b);
    const unsigned char code = gValues.get(i);
    if (code != 0 && (code & kNoDistance) != kNoDistance) {
        distance = code & kNoDistance;
        return code >> 5 & 3;
    }
    const Mask empty = empty_of(b);
    int best = 0, win_in = 255, lose_in = 0;
    if (empty & completing(mine_of(b, x_moves))) {
        best = 2;
        win_in = 1;
    } else {
        for (Mask left = empty; left != 0; left &= left - 1) {
            const Board child = played(b, x_moves, __builtin_ctz(left));
            int v = 1, d = 1;  // a move that fills the board without a line: a draw
            if (empty_of(child) != 0) {
                v = 2 - search(child, !x_moves, d);
                d += 1;
            }
            if (v > best) best = v;
            if (v == 2 && d < win_in) win_in = d;
            if (v == 0 && d > lose_in) lose_in = d;
        }
    }
    distance = best == 2 ? win_in : best == 0 ? lose_in : stones(empty);
    gValues.set(i, kKnown | best << 5 | distance);
    return best;
}

// The first square in reading order where the side to move starts a forced win on the open
// board `b`: a move that wins at once, or after which the opponent is lost; -1 when none.
int first_forced_win(const Board& b, bool x_moves) {
    const Mask empty = empty_of(b);
    const Mask at_once = empty & completing(mine_of(b, x_moves));
    for (Mask left = empty; left != 0; left &= left - 1) {
        const int square = __builtin_ctz(left);
        if (at_once >> square & 1) return square;
        const Board child = played(b, x_moves, square);
        if (empty_of(child) != 0 && !proves(child, !x_moves, false)) return square;
    }
    return -1;
}

void add_play(Facts& f, const Board& b, bool x_moves) {
    if (f.over) {
        f.winner = f.line == 1 ? 0 : f.line == 2 ? 1 : 2;
        if (kNeedsDistance) f.distance = 0;
        return;
    }
    if (kNeedsDistance) {
        f.value = search(b, x_moves, f.distance);
    } else {
        f.value = outcome(b, x_moves);
    }
    f.winner = f.value == 1 ? 2 : (f.value == 2) == x_moves ? 0 : 1;
    if (kNeedsForcedWin && f.value == 2) f.forced_win = first_forced_win(b, x_moves);
}
