// ---- The input validator, in Polygon's convention ----
//
// testlib hands over the input byte for byte and the layout is read as the Kattis validator
// reads it (read_input above), not with testlib's own readers: their end-of-line accepts a
// CR before the newline, which the layout forbids. An input out of place ends the program
// through testlib with the line, the case and the reason; a valid one reaches readEof.

int main(int argc, char* argv[]) {
    registerValidation(argc, argv);
    build_lines();
    std::string text;
    while (!inf.eof()) text.push_back(inf.readChar());
    try {
        read_input(text);
    } catch (const Rejected& r) {
        quitf(_fail, "%s", r.why.c_str());
    }
    inf.readEof();
}
