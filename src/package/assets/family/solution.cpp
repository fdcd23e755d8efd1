// ---- The facts of a position, which the verdicts read ----

struct Facts {
    bool reachable;
    int line;    // who has a line: 0 nobody, 1 the first player, 2 the second, 3 both
    bool full;   // no square empty
    int next;    // who moves next by the counts: 0 the first player, 1 the second, 2 neither
    bool over;   // a line or a full board
    int ply;     // stones on the board
    int value;   // perfect play for the side to move: 0 lost, 1 drawn, 2 won; -1 when none
    int winner;  // who wins with perfect play: 0 the first, 1 the second, 2 nobody; -1 none
};

std::unordered_map<unsigned long long, int> gMemo;

// Perfect play for the side to move on an open board: won when some move wins at once or
// leaves the opponent lost, drawn when the best it reaches is a draw.
int outcome(const Board& b, bool x_moves) {
    const unsigned long long key =
        (unsigned long long)b.x << 32 | (unsigned long long)b.o << 16 | b.t;
    auto it = gMemo.find(key);
    if (it != gMemo.end()) return it->second;
    int best = 0;
    for (int s = 0; s < kRows * kCols && best < 2; ++s) {
        const Mask bit = 1u << s;
        if ((b.x | b.o | b.t) & bit) continue;
        Board child = b;
        (x_moves ? child.x : child.o) |= bit;
        int v;
        if (has_line((x_moves ? child.x : child.o) | child.t)) {
            v = 2;
        } else if ((child.x | child.o | child.t) == kFull) {
            v = 1;
        } else {
            v = 2 - outcome(child, !x_moves);
        }
        if (v > best) best = v;
    }
    gMemo[key] = best;
    return best;
}

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
    f.value = f.winner = -1;
    if (kNeedsValues && f.reachable) {
        if (f.over) {
            f.winner = f.line == 1 ? 0 : f.line == 2 ? 1 : 2;
        } else {
            const bool x_moves = f.next == 0;
            f.value = outcome(b, x_moves);
            f.winner = f.value == 1 ? 2 : (f.value == 2) == x_moves ? 0 : 1;
        }
    }
    return f;
}

bool within(unsigned set, int v) { return v >= 0 && (set >> v & 1); }

bool holds(const Rule& r, const Facts& f) {
    return (r.reachable < 0 || r.reachable == f.reachable) && within(r.line, f.line) &&
           (r.full < 0 || r.full == f.full) && within(r.next, f.next) &&
           (r.over < 0 || r.over == f.over) && within(r.ply, f.ply) &&
           (r.value == kAny || within(r.value, f.value)) &&
           (r.winner == kAny || within(r.winner, f.winner));
}

// The answer of the first rule that holds ("?" when none does, which no right solution prints).
std::string answer_of(const Board& b) {
    Facts f = facts_of(b);
    for (const Rule& r : kRules) {
        if (holds(r, f)) return r.answer;
    }
    return "?";
}

// ---- Reading the input (leniently: trailing blanks, CR and extra empty lines pass) ----

std::vector<std::string> gLinesOfInput;
size_t gAt = 0;

bool next_line(std::string& out) {
    while (gAt < gLinesOfInput.size()) {
        std::string l = gLinesOfInput[gAt++];
        while (!l.empty() && (l.back() == ' ' || l.back() == '\t' || l.back() == '\r')) l.pop_back();
        if (!l.empty()) {
            out = l;
            return true;
        }
    }
    return false;
}

Board parse_board(const std::string& first) {
    Board b = {0, 0, 0};
    std::string cells = first, row;
    for (int r = 1; r < kRowLines; ++r) {
        if (next_line(row)) cells += row;
    }
    for (size_t i = 0; i < cells.size() && i < (size_t)(kRows * kCols); ++i) {
        const char ch = cells[i];
        const Mask bit = 1u << i;
        if (ch == kFirst) b.x |= bit;
        else if (ch == kSecond) b.o |= bit;
        else if (kJoker && ch == kJokerSymbol) b.t |= bit;
    }
    return b;
}

std::string prefix(long long n) {
    std::string p = kPrefix;
    const size_t at = p.find("{n}");
    if (at != std::string::npos) p.replace(at, 3, std::to_string(n));
    return p;
}

int main() {
    build_lines();
    std::string text, line;
    char buf[1 << 16];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, stdin)) > 0) text.append(buf, got);
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        gLinesOfInput.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    long long cases = -1;
    if (kCases == kCount) {
        if (!next_line(line)) return 0;
        cases = std::atoll(line.c_str());
    } else if (kCases == kSingle) {
        cases = 1;
    }
    std::string out;
    for (long long n = 1; cases < 0 || n <= cases; ++n) {
        if (!next_line(line)) break;
        if (kCases == kUntil && line == kTerminator) break;
        const Board b = parse_board(line);
        std::string a = answer_of(b);
        out += prefix(n) + a + "\n";
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
