// Output checker for Four in a row, written against testlib: the output must be the answer
// byte for byte, spaces, letter case, line ends and the final newline included (the grid keeps
// the trailing spaces of its rows; the rule of the Kattis packages' default output validator
// with case_sensitive space_change_sensitive). testlib's line reading would pass a CR before
// a line's end and a missing final newline, so the bytes are read one by one.
#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long line = 1, column = 1;
    while (!ans.eof()) {
        const int expected = static_cast<unsigned char>(ans.readChar());
        if (ouf.eof()) {
            quitf(_wa, "the output ends at line %lld, column %lld", line, column);
        }
        const int got = static_cast<unsigned char>(ouf.readChar());
        if (got != expected) {
            quitf(_wa, "line %lld, column %lld: byte %d, %d expected", line, column, got,
                  expected);
        }
        if (expected == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    if (!ouf.eof()) quitf(_wa, "more output after the %lld lines of the answer", line - 1);
    quitf(_ok, "%lld lines", line - 1);
}
