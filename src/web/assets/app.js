"use strict";
// Both pages: the Tomek board and the Four in a row board. Everything shown comes from the
// JSON API of the same server.

function $(id) { return document.getElementById(id); }

async function getJson(url) {
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || ("HTTP " + r.status));
  return body;
}

function showError(message) {
  const e = $("error");
  e.textContent = message || "";
  e.hidden = !message;
}

// A history of states with undo and redo.
function History(initial) {
  this.past = [];
  this.future = [];
  this.now = initial;
}
History.prototype.push = function (s) { this.past.push(this.now); this.now = s; this.future = []; };
History.prototype.undo = function () { if (this.past.length) { this.future.push(this.now); this.now = this.past.pop(); } };
History.prototype.redo = function () { if (this.future.length) { this.past.push(this.now); this.now = this.future.pop(); } };

// ---- Tic-Tac-Toe-Tomek ----

function tomekPage() {
  const params = new URLSearchParams(location.search);
  const start = normalize(params.get("board") || "") || ".".repeat(16);
  const h = new History(start);
  let request = 0;

  function normalize(text) {
    const t = text.replace(/\//g, "").replace(/\s/g, "").toUpperCase();
    return /^[XOT.]{16}$/.test(t) ? t : null;
  }

  function nextPlayer(b) {
    const x = (b.match(/X/g) || []).length, o = (b.match(/O/g) || []).length;
    return x > o ? "O" : "X";
  }

  const cells = [];
  for (let i = 0; i < 16; i++) {
    const c = document.createElement("button");
    c.type = "button";
    c.className = "sq";
    c.id = "sq" + i;
    c.dataset.square = i;
    c.addEventListener("click", () => click(i));
    $("board").appendChild(c);
    cells.push(c);
  }

  function click(i) {
    const b = h.now;
    const mode = $("mode").value;
    let put;
    if (mode === "play") {
      if (b[i] !== ".") return;
      put = nextPlayer(b);
    } else {
      put = mode;
    }
    if (put === "T" && b[i] !== "T") {
      // One T: placing it moves it.
      const without = b.replace(/T/g, ".");
      h.push(without.slice(0, i) + "T" + without.slice(i + 1));
    } else {
      h.push(b.slice(0, i) + put + b.slice(i + 1));
    }
    render();
  }

  $("undo").addEventListener("click", () => { h.undo(); render(); });
  $("redo").addEventListener("click", () => { h.redo(); render(); });
  $("clear").addEventListener("click", () => { h.push(".".repeat(16)); render(); });
  $("paste").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const b = normalize($("boardtext").value);
    if (!b) { showError("a board is 16 symbols X, O, T or . (rows may be joined by /)"); return; }
    h.push(b);
    render();
  });

  function word(v) { return v.outcome + " in " + v.distance + (v.distance === 1 ? " ply" : " plies"); }

  async function render() {
    const b = h.now;
    const url = "?board=" + b;
    history.replaceState(null, "", url);
    $("share").href = url;
    $("boardtext").value = b;
    $("undo").disabled = !h.past.length;
    $("redo").disabled = !h.future.length;
    for (let i = 0; i < 16; i++) {
      const c = cells[i];
      c.className = "sq";
      c.textContent = b[i] === "." ? "" : b[i];
      c.removeAttribute("data-value");
      c.removeAttribute("data-distance");
    }
    const mine = ++request;
    let e;
    try {
      e = await getJson("/api/tomek/explain?board=" + encodeURIComponent(b));
    } catch (err) {
      if (mine === request) showError(err.message);
      return;
    }
    if (mine !== request) return;
    showError("");
    document.body.dataset.board = e.board;
    $("status").textContent = e.agree ? e.evaluators[0].status : "the evaluators disagree";
    $("evaluators").textContent = e.evaluators.map((v) => v.evaluator + ": " + v.status).join("; ");
    $("setup").textContent = e.setup === null ? "none: more than one T" : e.setup === "none" ? "no T" : "T on square " + e.setup;
    $("tomove").textContent = e.to_move || "nobody";
    $("reachable").textContent = e.reachable ? "yes" : "no";
    const reasons = $("reasons");
    reasons.textContent = "";
    for (const r of e.reasons) {
      const li = document.createElement("li");
      li.textContent = r;
      reasons.appendChild(li);
    }
    if (e.play) {
      $("value").textContent = word(e.play.value) + " for " + (e.to_move || "X");
      $("value").dataset.outcome = e.play.value.outcome;
      $("value").dataset.distance = e.play.value.distance;
      $("sequences").textContent = e.play.sequences.toLocaleString("en");
      const g = e.play.games;
      $("games").textContent = (g.x_won + g.o_won + g.draw).toLocaleString("en") + ": X won " +
        g.x_won.toLocaleString("en") + ", O won " + g.o_won.toLocaleString("en") + ", drawn " +
        g.draw.toLocaleString("en");
      for (const m of e.play.moves) {
        const c = cells[m.square];
        c.classList.add(m.value.outcome);
        c.dataset.value = m.value.outcome;
        c.dataset.distance = m.value.distance;
        c.title = "move here: " + word(m.value) + " for " + e.to_move;
        const d = document.createElement("span");
        d.className = "d";
        d.textContent = m.value.distance;
        c.appendChild(d);
      }
    } else {
      $("value").textContent = "none (not reachable)";
      delete $("value").dataset.outcome;
      delete $("value").dataset.distance;
      $("sequences").textContent = "";
      $("games").textContent = "";
    }
    $("orbit").textContent = e.orbit.size + " boards under the " + e.orbit.group_order +
      " symmetries; smallest " + e.orbit.smallest;
  }

  render();
}

// ---- Four in a row ----

function fourowPage() {
  const params = new URLSearchParams(location.search);
  const clampInt = (v, lo, hi, d) => { const n = parseInt(v, 10); return n >= lo && n <= hi ? n : d; };
  $("cols").value = clampInt(params.get("cols"), 1, 9, 7);
  $("rows").value = clampInt(params.get("rows"), 1, 9, 6);
  const h = new History(/^[1-9]*$/.test(params.get("moves") || "") ? (params.get("moves") || "") : "");
  let request = 0;
  let over = false;

  function size() { return [clampInt($("cols").value, 1, 9, 7), clampInt($("rows").value, 1, 9, 6)]; }

  $("undo").addEventListener("click", () => { h.undo(); render(); });
  $("redo").addEventListener("click", () => { h.redo(); render(); });
  $("clear").addEventListener("click", () => { h.push(""); render(); });
  $("cols").addEventListener("change", () => { h.push(""); render(); counts(); });
  $("rows").addEventListener("change", () => { h.push(""); render(); counts(); });

  function heights(moves, cols) {
    const hs = new Array(cols).fill(0);
    for (const ch of moves) hs[parseInt(ch, 10) - 1]++;
    return hs;
  }

  function drop(col) {
    const [cols, rows] = size();
    if (over) return;
    if (heights(h.now, cols)[col] >= rows) return;
    h.push(h.now + (col + 1));
    render();
  }

  function draw() {
    const [cols, rows] = size();
    const board = $("cboard");
    board.textContent = "";
    board.style.gridTemplateColumns = "repeat(" + cols + ", 2.6em)";
    const grid = [];
    const hs = new Array(cols).fill(0);
    [...h.now].forEach((ch, i) => {
      const c = parseInt(ch, 10) - 1;
      grid[hs[c] * cols + c] = i % 2 === 0 ? "first" : "second";
      hs[c]++;
    });
    for (let r = rows - 1; r >= 0; r--) {
      for (let c = 0; c < cols; c++) {
        const cell = document.createElement("button");
        cell.type = "button";
        cell.className = "cell" + (grid[r * cols + c] ? " " + grid[r * cols + c] : "");
        cell.dataset.col = c + 1;
        cell.id = "c" + (c + 1) + "r" + (r + 1);
        cell.addEventListener("click", () => drop(c));
        board.appendChild(cell);
      }
    }
    for (let c = 0; c < cols; c++) {
      const s = document.createElement("div");
      s.className = "colscore";
      s.id = "score" + (c + 1);
      board.appendChild(s);
    }
  }

  async function render() {
    const [cols, rows] = size();
    const moves = h.now;
    const q = "moves=" + moves + "&cols=" + cols + "&rows=" + rows;
    history.replaceState(null, "", "?" + q);
    $("share").href = "?" + q;
    $("moves").textContent = moves || "(none)";
    $("undo").disabled = !h.past.length;
    $("redo").disabled = !h.future.length;
    draw();
    const mine = ++request;
    let j;
    try {
      j = await getJson("/api/fourow/judge?" + q);
    } catch (err) {
      if (mine === request) showError(err.message);
      return;
    }
    if (mine !== request) return;
    showError("");
    over = j.result !== "open";
    $("verdict").textContent = "Game " + j.verdict;
    $("verdict").dataset.result = j.result;
    $("tomove").textContent = j.to_move ? j.to_move + " player" : "nobody";
    $("score").textContent = "";
    $("variation").textContent = "";
    if (over) return;
    try {
      const e = await getJson("/api/fourow/explain?" + q);
      if (mine !== request) return;
      $("score").textContent = e.outcome + " in " + e.distance + " plies for the " + e.to_move + " player (score " + e.score + ")";
      $("variation").textContent = e.variation;
      for (const m of e.moves) {
        const s = $("score" + m.column);
        s.textContent = m.score;
        s.className = "colscore " + m.outcome;
        s.title = m.outcome + " in " + m.distance + " plies";
      }
    } catch (err) {
      if (mine === request) $("score").textContent = "not scored: " + err.message;
    }
  }

  async function counts() {
    let [cols, rows] = size();
    let note = "";
    if (cols * rows > 20) {
      note = " (the " + cols + "×" + rows + " board is counted by `tomek fourow count`; here boards of at most 20 cells)";
      cols = 4;
      rows = 4;
    }
    const body = $("counts").querySelector("tbody");
    body.textContent = "";
    try {
      const c = await getJson("/api/fourow/counts?cols=" + cols + "&rows=" + rows);
      $("countnote").textContent = c.total.toLocaleString("en") + " positions on the " + cols + "×" + rows + " board" + note + ".";
      for (const p of c.plies) {
        const tr = document.createElement("tr");
        for (const v of [p.ply, p.positions, p.first_won, p.second_won, p.draw, p.open]) {
          const td = document.createElement("td");
          td.textContent = v.toLocaleString("en");
          tr.appendChild(td);
        }
        body.appendChild(tr);
      }
    } catch (err) {
      $("countnote").textContent = err.message;
    }
  }

  render();
  counts();
}

if (document.body.dataset.page === "tomek") tomekPage();
if (document.body.dataset.page === "fourow") fourowPage();
