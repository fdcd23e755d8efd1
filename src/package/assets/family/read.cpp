// ---- Reading the input to the letter of the layout ----

std::vector<std::string> gText;  // the input's lines, without their newlines
size_t gAt = 0;                  // the next line to read
long long gCase = 0;             // the case being read (0 before the first)

// Thrown by reject, caught by the validator's main part: an input found invalid, and where.
struct Rejected {
    std::string why;
};

[[noreturn]] void reject(const std::string& why) {
    std::string where = "line " + std::to_string(gAt);
    if (gCase > 0) where += ", case " + std::to_string(gCase);
    throw Rejected{where + ": " + why};
}

const std::string& next_line(const char* what) {
    if (gAt >= gText.size()) {
        ++gAt;
        reject(std::string("the input ends where ") + what + " should be");
    }
    return gText[gAt++];
}

void empty_line() {
    if (!next_line("an empty line").empty()) reject("an empty line is expected here");
}

Board read_board() {
    Board b = {0, 0, 0};
    const int width = kRowLines == 1 ? kRows * kCols : kCols;
    for (int r = 0; r < kRowLines; ++r) {
        const std::string& row = next_line("a row of the board");
        if ((int)row.size() != width) {
            reject("a row of " + std::to_string(width) + " symbols is expected, not " +
                   std::to_string(row.size()) + " characters");
        }
        for (int c = 0; c < width; ++c) {
            const char ch = row[c];
            const Mask bit = 1u << (r * width + c);
            if (ch == kFirst) {
                b.x |= bit;
            } else if (ch == kSecond) {
                b.o |= bit;
            } else if (ch == kEmpty) {
            } else if (kJoker && ch == kJokerSymbol) {
                if (b.t != 0) reject("a second joker on the board");
                b.t = bit;
            } else {
                reject("column " + std::to_string(c + 1) + " holds a character that is not a symbol of the board");
            }
        }
    }
    return b;
}

// The board as tomek's messages show it: the rows, separated by `/`.
std::string grid_text(const Board& b) {
    std::string out;
    for (int s = 0; s < kRows * kCols; ++s) {
        if (s > 0 && s % kCols == 0) out += '/';
        const Mask bit = 1u << s;
        out += (b.x & bit) ? kFirst : (b.o & bit) ? kSecond : (b.t & bit) ? kJokerSymbol : kEmpty;
    }
    return out;
}

// Why a board of the base space is not input, or "" when it is: fewer stones than the minimum
// ply, or facts outside the input's filter (read as the solution reads them).
std::string outside_because(const Board& b) {
    const int ply = stones(b.x) + stones(b.o);
    if (ply < kMinPly) {
        return std::to_string(ply) + " stones, fewer than min_ply = " + std::to_string(kMinPly);
    }
    if (kHasFilter && !holds(kFilter, facts_of(b))) {
        return std::string("the input has only positions with ") + kFilterWords;
    }
    return "";
}

// Reads one whole input (build_lines first); throws Rejected at the first thing out of place.
void read_input(const std::string& text) {
    gText.clear();
    gAt = 0;
    gCase = 0;
    if (!text.empty() && text.back() != '\n') reject("no newline at the end of the input");
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find('\n', start);
        gText.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    for (size_t i = 0; i < gText.size(); ++i) {
        const std::string& l = gText[i];
        gAt = i + 1;
        if (!l.empty() && l.back() == '\r') reject("a CR before the newline (LF endings only)");
        if (!l.empty() && (l.back() == ' ' || l.back() == '\t')) reject("blanks at the end of the line");
    }
    gAt = 0;
    long long count = -1;
    if (kCases == kCount) {
        const std::string& l = next_line("the number of cases");
        bool digits = !l.empty() && l.size() <= 18 && !(l.size() > 1 && l[0] == '0');
        for (char c : l) digits = digits && c >= '0' && c <= '9';
        if (!digits) reject("the number of cases is expected, digits without a leading zero");
        count = std::atoll(l.c_str());
    } else if (kCases == kSingle) {
        count = 1;
    }
    long long cases = 0;
    for (;;) {
        if (count >= 0 && cases == count) break;
        gCase = cases + 1;
        if (kCases == kUntil) {
            if (gAt < gText.size() && gText[gAt] == kTerminator) {
                ++gAt;
                break;
            }
            if (gAt >= gText.size()) reject(std::string("no `") + kTerminator + "` line at the end");
        }
        if (kBlank == kBetween && gCase > 1) empty_line();
        const size_t board_line = gAt;
        if (kHasMarker && next_line((std::string("a `") + kMarker + "` line").c_str()) != kMarker) {
            reject(std::string("a `") + kMarker + "` line is expected before each board");
        }
        const Board b = read_board();
        if (kReachableOnly) {
            if (const char* why = unreachable(b)) {
                gAt = board_line + 1;
                reject("the board " + grid_text(b) + " cannot arise in play: " + why);
            }
        }
        const std::string why = outside_because(b);
        if (!why.empty()) {
            gAt = board_line + 1;
            reject("the board " + grid_text(b) + " is not in the input space: " + why);
        }
        if (kBlank == kAfter) empty_line();
        ++cases;
    }
    gCase = 0;
    if (gAt < gText.size()) {
        ++gAt;
        reject("text after the last case");
    }
    bool fits = false;
    for (const auto& d : kDatasets) fits = fits || (d[0] <= cases && cases <= d[1]);
    if (!fits) reject(std::to_string(cases) + " cases fit no dataset's bounds");
}
