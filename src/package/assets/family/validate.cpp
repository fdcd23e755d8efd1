// ---- The input validator, in the Kattis convention ----

// Checks one whole input (build_lines first): 42 when it is valid, 43 with the reason on
// standard error when not. A function of its own, so that a test can call it on many inputs.
int validate(const std::string& text) {
    try {
        read_input(text);
        return 42;
    } catch (const Rejected& r) {
        std::fprintf(stderr, "%s\n", r.why.c_str());
        return 43;
    }
}

int main() {
    build_lines();
    std::string text;
    char buf[1 << 16];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, stdin)) > 0) text.append(buf, got);
    return validate(text);
}
