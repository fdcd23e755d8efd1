// Output checker for Four in a row, written against testlib: the output must be the answer
// line for line and byte for byte, spaces and letter case included (the grid keeps the
// trailing spaces of its rows; the rule of Polygon's standard file checker and of the Kattis
// packages' default output validator with case_sensitive space_change_sensitive).
#include <string>

#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long n = 0;
    while (!ans.eof()) {
        const std::string expected = ans.readLine();
        ++n;
        if (ouf.eof()) quitf(_wa, "the output ends before line %lld", n);
        const std::string got = ouf.readLine();
        if (got != expected) {
            quitf(_wa, "line %lld is `%s`, `%s` expected", n, got.c_str(), expected.c_str());
        }
    }
    if (!ouf.eof()) quitf(_wa, "more output after the %lld lines of the answer", n);
    quitf(_ok, "%lld lines", n);
}
