// The answer file holds one line per case; the output must hold the same words in the same
// order, with their letter case, whatever the whitespace between them: the rule of the
// Kattis packages' default output validator with case_sensitive, which judges the family's
// other formats. A word out of place is a wrong answer naming its case.
#include <string>
#include <vector>

#include "testlib.h"

// The words of a line: its runs of characters other than space, tab and CR.
std::vector<std::string> words_of(const std::string& line) {
    std::vector<std::string> out;
    std::string word;
    for (const char c : line + ' ') {
        if (c == ' ' || c == '\t' || c == '\r') {
            if (!word.empty()) out.push_back(word);
            word.clear();
        } else {
            word.push_back(c);
        }
    }
    return out;
}

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long kase = 0;
    while (!ans.seekEof()) {
        const std::vector<std::string> expected = words_of(ans.readLine());
        if (expected.empty()) continue;
        ++kase;
        for (size_t i = 0; i < expected.size(); ++i) {
            if (ouf.seekEof()) {
                quitf(_wa, "case %lld: the output ends where `%s` (word %zu) is expected", kase,
                      expected[i].c_str(), i + 1);
            }
            const std::string got = ouf.readWord();
            if (got != expected[i]) {
                quitf(_wa, "case %lld: word %zu is `%s`, `%s` expected", kase, i + 1,
                      got.c_str(), expected[i].c_str());
            }
        }
    }
    if (!ouf.seekEof()) quitf(_wa, "more output after the answers of the %lld cases", kase);
    quitf(_ok, "%lld cases", kase);
}
