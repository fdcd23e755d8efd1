// Input validator for Four in a row in Polygon's convention, written against testlib: the
// rules of input_validators/validate.py in the Kattis packages. The first line is the number
// of games t, 1 <= t <= 99; then line n is `Game #n:` followed by nothing, or by one space and
// up to 42 moves, each a digit from 1 to 7; LF line endings, the last line included, nothing
// after the last game. Any sequence of moves is valid input: judging it is the problem.
#include <string>

#include "testlib.h"

int main(int argc, char* argv[]) {
    registerValidation(argc, argv);
    const int games = inf.readInt(1, 99, "t");
    inf.readEoln();
    for (int n = 1; n <= games; ++n) {
        const std::string line = inf.readLine();
        const std::string head = "Game #" + std::to_string(n) + ":";
        ensuref(line.compare(0, head.size(), head) == 0, "line %d must start with `%s`", n + 1,
                head.c_str());
        if (line.size() == head.size()) continue;
        const std::string moves = line.substr(head.size() + 1);
        ensuref(line[head.size()] == ' ', "line %d: one space after `%s`, then the moves", n + 1,
                head.c_str());
        ensuref(moves.size() <= 42, "line %d: more than 42 moves", n + 1);
        for (char m : moves) {
            ensuref(m >= '1' && m <= '7', "line %d: a move other than 1 to 7", n + 1);
        }
    }
    inf.readEof();
}
