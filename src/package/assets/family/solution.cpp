// ---- The answer ----

// A template's answer for the forced win on `square` (none: the template as it is): `{row}`
// and `{col}` become the square's row and column, numbered from 0 at the top left.
std::string filled_in(const std::string& answer, int square) {
    if (square < 0) return answer;
    std::string out = answer;
    const std::string names[2] = {"{row}", "{col}"};
    const int values[2] = {square / kCols, square % kCols};
    for (int k = 0; k < 2; ++k) {
        for (size_t at = out.find(names[k]); at != std::string::npos; at = out.find(names[k], at)) {
            const std::string v = std::to_string(values[k]);
            out.replace(at, names[k].size(), v);
            at += v.size();
        }
    }
    return out;
}

// The answer of the first rule that holds ("?" when none does, which no right solution prints).
std::string answer_of(const Board& b) {
    Facts f = facts_of(b);
    for (const Rule& r : kRules) {
        if (holds(r.when, f)) return r.is_template ? filled_in(r.answer, f.forced_win) : r.answer;
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
        // The marker line before a board is taken for what it should be, unread.
        if (kHasMarker && !next_line(line)) break;
        const Board b = parse_board(line);
        std::string a = answer_of(b);
        out += prefix(n) + a + "\n";
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
