# left(m, s): the plies left, under perfect play, from a 7x6 Four in a row position of m chips
# whose score is s (the README's convention): the winner plays its last chip onto 42 - 2|s|
# chips or one more, whichever has its parity; a draw fills the board. Shared by
# scripts/fourow-positions.sh and scripts/bench-fourow.sh, which pass it to awk before their
# own program.
function left(m, s,   a, parity, before) {
    if (s == 0) return 42 - m
    a = s < 0 ? -s : s
    parity = (m + (s < 0)) % 2
    before = 42 - 2 * a
    if (before % 2 != parity) before++
    return before + 1 - m
}
