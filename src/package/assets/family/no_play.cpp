// ---- Perfect play: read by no rule here, so never searched ----

void add_play(Facts&, const Board&, bool) {}
