// Output checker for Tic-Tac-Toe-Tomek, written against testlib: the answer's words one by
// one, with their letter case, whatever the whitespace between them (the rule of Polygon's
// standard word checker and of the Kattis packages' default output validator with
// case_sensitive). A missing word, a different one or a word after the last is a wrong answer.
#include <string>

#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long n = 0;
    while (!ans.seekEof()) {
        const std::string expected = ans.readWord();
        ++n;
        if (ouf.seekEof()) quitf(_wa, "the output ends at word %lld, `%s` expected", n,
                                 expected.c_str());
        const std::string got = ouf.readWord();
        if (got != expected) {
            quitf(_wa, "word %lld is `%s`, `%s` expected", n, got.c_str(), expected.c_str());
        }
    }
    if (!ouf.seekEof()) quitf(_wa, "more output after the %lld words of the answer", n);
    quitf(_ok, "%lld words", n);
}
