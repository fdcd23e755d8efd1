// ---- The facts of a position, which the verdicts and the input's filter read ----

struct Facts {
    bool reachable;
    int line;       // who has a line: 0 nobody, 1 the first player, 2 the second, 3 both
    bool full;      // no square empty
    int next;       // who moves next by the counts: 0 the first player, 1 the second, 2 neither
    bool over;      // a line or a full board
    int ply;        // stones on the board
    bool wins_now;  // the side to move completes a line with one move (the game not over)
    int value;      // perfect play for the side to move: 0 lost, 1 drawn, 2 won; -1 when none
    int winner;     // who wins with perfect play: 0 the first, 1 the second, 2 nobody; -1 none
    int forced_win; // the first square where the side to move starts a forced win; -1 none
    int distance;   // plies to the end under perfect play; -1 when not known
};

Mask empty_of(const Board& b) { return kFull & ~(b.x | b.o | b.t); }

// The squares that count for the side to move (X when `x_moves`): its own and the joker.
Mask mine_of(const Board& b, bool x_moves) { return (x_moves ? b.x : b.o) | b.t; }

// The facts of perfect play (value, winner, forced win, distance) of a reachable position,
// where the side to move is X when `x_moves`: in the part on perfect play below, or nothing
// when no rule reads them.
void add_play(Facts& f, const Board& b, bool x_moves);

Facts facts_of(const Board& b) {
    Facts f;
    const int nx = stones(b.x), no = stones(b.o);
    const bool xl = has_line(b.x | b.t), ol = has_line(b.o | b.t);
    f.line = xl ? (ol ? 3 : 1) : (ol ? 2 : 0);
    f.full = (b.x | b.o | b.t) == kFull;
    f.next = nx == no ? 0 : nx == no + 1 ? 1 : 2;
    f.reachable = unreachable(b) == nullptr;
    f.over = f.line != 0 || f.full;
    f.ply = nx + no;
    // The side to move by the counts (the first player when they fit no game).
    const bool x_moves = f.next != 1;
    const Mask mover = mine_of(b, x_moves);
    f.wins_now = !f.over && f.next != 2 && (completing(mover) & empty_of(b)) != 0;
    f.value = f.winner = f.forced_win = f.distance = -1;
    if (kNeedsValues && f.reachable) add_play(f, b, x_moves);
    return f;
}

bool within(unsigned set, int v) { return v >= 0 && v < 32 && (set >> v & 1); }

// Whether a position with these facts meets every condition. Perfect play's conditions hold
// only where the position has the fact: a value and a forced win on reachable open positions,
// a winner and a distance on reachable ones.
bool holds(const Conditions& c, const Facts& f) {
    return (c.reachable < 0 || c.reachable == f.reachable) && within(c.line, f.line) &&
           (c.full < 0 || c.full == f.full) && within(c.next, f.next) &&
           (c.over < 0 || c.over == f.over) && within(c.ply, f.ply) &&
           (c.value == kAny || within(c.value, f.value)) &&
           (c.winner == kAny || within(c.winner, f.winner)) &&
           (c.wins_now < 0 || c.wins_now == f.wins_now) &&
           (c.forced_win < 0 || (f.value >= 0 && c.forced_win == (f.forced_win >= 0))) &&
           (c.distance == kAny || within(c.distance, f.distance));
}
