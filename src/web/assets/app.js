"use strict";
// Both pages: the Tomek board and the Four in a row board. Everything shown comes from the
// JSON API of the same server.

function $(id) { return document.getElementById(id); }

async function getJson(url) {
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) {
    const e = new Error(body.error || ("HTTP " + r.status));
    e.status = r.status;
    throw e;
  }
  return body;
}

// As getJson, asking again while the server answers 503 (still computing, or busy).
async function getJsonPatiently(url, tries) {
  for (let i = 1; ; i++) {
    try {
      return await getJson(url);
    } catch (err) {
      if (err.status !== 503 || i >= tries) throw err;
      await new Promise((done) => setTimeout(done, 2000));
    }
  }
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

// ---- Plots, drawn as inline SVG ----

const SVG = "http://www.w3.org/2000/svg";

function svgEl(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// A short form of a count for an axis: 1.5k, 12M, 3G, 4.5T.
function shortCount(v) {
  const units = [[1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"]];
  for (const [u, s] of units) {
    if (v >= u) return (v / u).toLocaleString("en", { maximumFractionDigits: 1 }) + s;
  }
  return v.toLocaleString("en");
}

// Draws stacked bars into `box`: one bar per entry of `bars` ({label, parts: {key: count}}),
// its parts in the order of `keys` ([key, name] pairs, coloured by the CSS class `key`). On
// the logarithmic scale a bar's height is its total and its parts share it in proportion.
function stackedBars(box, bars, keys, scale, title) {
  box.textContent = "";
  const W = 760, H = 300, left = 56, right = 10, top = 24, bottom = 34;
  const svg = svgEl("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img" });
  svg.appendChild(svgEl("title", {}, title));
  svg.appendChild(svgEl("text", { x: left, y: 14 }, title));
  const totals = bars.map((b) => keys.reduce((t, [k]) => t + (b.parts[k] || 0), 0));
  const most = Math.max(1, ...totals);
  const plotH = H - top - bottom, plotW = W - left - right;
  let y, ticks;
  if (scale === "log") {
    const top10 = Math.ceil(Math.log10(most));
    y = (v) => (v < 1 ? 0 : Math.log10(v) / Math.max(1, top10) * plotH);
    ticks = [];
    const step = Math.max(1, Math.ceil(top10 / 6));
    for (let p = 0; p <= top10; p += step) ticks.push(Math.pow(10, p));
  } else {
    const raw = most / 5, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
    const high = Math.ceil(most / step) * step;
    y = (v) => v / high * plotH;
    ticks = [];
    for (let v = 0; v <= high + step / 2; v += step) ticks.push(v);
  }
  for (const t of ticks) {
    const ty = top + plotH - y(t);
    svg.appendChild(svgEl("line", { x1: left, x2: W - right, y1: ty, y2: ty, class: "grid" }));
    svg.appendChild(svgEl("text", { x: left - 4, y: ty + 4, "text-anchor": "end" }, shortCount(t)));
  }
  const slot = plotW / Math.max(1, bars.length), width = Math.max(1, slot * 0.8);
  const labelEvery = Math.ceil(bars.length / 22);
  bars.forEach((b, i) => {
    const x = left + i * slot + (slot - width) / 2;
    const height = y(totals[i]);
    let base = top + plotH;
    for (const [k, name] of keys) {
      const v = b.parts[k] || 0;
      if (!v) continue;
      const h = scale === "log" ? height * v / totals[i] : y(v);
      base -= h;
      const r = svgEl("rect", { x: x, y: base, width: width, height: h, class: k });
      r.appendChild(svgEl("title", {}, "ply " + b.label + ": " + v.toLocaleString("en") + " " + name));
      svg.appendChild(r);
    }
    if (i % labelEvery === 0) {
      svg.appendChild(svgEl("text", { x: x + width / 2, y: top + plotH + 14, "text-anchor": "middle" }, b.label));
    }
  });
  svg.appendChild(svgEl("line", { x1: left, x2: W - right, y1: top + plotH, y2: top + plotH, class: "axis" }));
  svg.appendChild(svgEl("line", { x1: left, x2: left, y1: top, y2: top + plotH, class: "axis" }));
  svg.appendChild(svgEl("text", { x: left + plotW / 2, y: H - 4, "text-anchor": "middle" }, "ply (stones on the board)"));
  box.appendChild(svg);
  const key = document.createElement("p");
  key.className = "key";
  for (const [k, name] of keys) {
    const sw = document.createElement("span");
    sw.className = k;
    key.appendChild(sw);
    key.appendChild(document.createTextNode(name));
  }
  box.appendChild(key);
}

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

  // The board last explained, and whether its game is over.
  const shown = { board: null, over: false };

  function click(i) {
    const b = h.now;
    const mode = $("mode").value;
    let put;
    if (mode === "play") {
      if (b[i] !== ".") return;
      if (shown.board === b && shown.over) {
        showError("the game is over: undo, clear or start from a setup to play again");
        return;
      }
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
  const choice = $("setupchoice");
  for (let t = 0; t < 16; t++) {
    const o = document.createElement("option");
    o.value = String(t);
    o.textContent = "T on square " + t + " (row " + (Math.floor(t / 4) + 1) + ", column " + (t % 4 + 1) + ")";
    choice.appendChild(o);
  }
  $("startsetup").addEventListener("click", () => {
    const v = choice.value;
    const b = v === "none" ? ".".repeat(16) : ".".repeat(+v) + "T" + ".".repeat(15 - +v);
    $("mode").value = "play";
    h.push(b);
    render();
  });
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
      // Patiently: a board of the first plies waits for its setup's tables, which a server
      // just started may still be computing (503 after 10 s on a busy machine).
      e = await getJsonPatiently("/api/tomek/explain?board=" + encodeURIComponent(b), 30);
    } catch (err) {
      if (mine === request) showError(err.message);
      return;
    }
    if (mine !== request) return;
    showError("");
    const over = ["X won", "O won", "Draw"].includes(e.status);
    shown.board = e.board;
    shown.over = over;
    document.body.dataset.board = e.board;
    document.body.dataset.over = over;
    $("status").textContent = e.agree ? e.evaluators[0].status : "the evaluators disagree";
    $("evaluators").textContent = e.evaluators.map((v) => v.evaluator + ": " + v.status).join("; ");
    $("setup").textContent = e.setup === null ? "none: more than one T" : e.setup === "none" ? "no T" : "T on square " + e.setup;
    $("ply").textContent = e.ply;
    $("stones").textContent = "X " + e.x_stones + ", O " + e.o_stones + (e.board.includes("T") ? ", and the T" : "");
    $("tomove").textContent = over ? "nobody: the game is over" : (e.to_move || "nobody");
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
  tomekStats();
}

// The statistics of every reachable board: a plot of boards by ply and a table by setup.
async function tomekStats() {
  let s;
  try {
    s = await getJsonPatiently("/api/tomek/stats", 30);
  } catch (err) {
    $("statsnote").textContent = "The statistics are not available: " + err.message;
    return;
  }
  const STATUS = [["x_won", "X won"], ["o_won", "O won"], ["draw", "draw"], ["open", "open"]];
  const name = (setup) => setup === "all" ? "all 17 setups" : setup === "none" ? "no T" : "T on square " + setup;
  const n = (v) => v.toLocaleString("en");
  const sum = (o) => o.x_won + o.o_won + o.draw + o.open;
  $("statsnote").textContent = n(sum(s.total.boards)) + " reachable boards and " +
    n(s.total.games.x_won + s.total.games.o_won + s.total.games.draw) + " complete games over the " +
    s.setups.length + " setups of the " + s.rows + "×" + s.cols + " board.";

  function row(id, cells) {
    const tr = document.createElement("tr");
    tr.id = id;
    cells.forEach((c, i) => {
      const td = document.createElement("td");
      td.textContent = c;
      if (i === 0) td.className = "name";
      tr.appendChild(td);
    });
    return tr;
  }
  function boards(r, value) {
    const cells = [name(r.setup)];
    for (const [k] of STATUS) cells.push(n(r.boards[k]));
    cells.push(n(sum(r.boards)), value);
    for (const k of ["win", "draw", "loss"]) cells.push(r.side_to_move ? n(r.side_to_move[k]) : "");
    return row("setup-" + r.setup, cells);
  }
  function games(r) {
    const g = r.games;
    return row("games-" + r.setup,
      [name(r.setup), n(g.x_won), n(g.o_won), n(g.draw), n(g.x_won + g.o_won + g.draw)]);
  }
  for (const [table, make] of [["setups", (r) => boards(r, r.value || "")], ["gamecounts", games]]) {
    const body = $(table).querySelector("tbody");
    body.textContent = "";
    for (const r of s.setups) body.appendChild(make(r));
    const foot = $(table).querySelector("tfoot");
    foot.textContent = "";
    foot.appendChild(table === "setups" ? boards(s.total, "") : games(s.total));
  }
  if (s.orbits) {
    $("orbits").textContent = n(sum(s.orbits.boards)) + " orbits under the " + s.orbits.group_order +
      " symmetries of the square (" + STATUS.map(([k, w]) => n(s.orbits.boards[k]) + " " + w).join(", ") + ").";
  }

  const plotSetup = $("plotsetup");
  for (const r of s.setups) {
    const o = document.createElement("option");
    o.value = r.setup;
    o.textContent = name(r.setup);
    plotSetup.appendChild(o);
  }
  function plot() {
    const r = plotSetup.value === "all" ? s.total : s.setups.find((x) => x.setup === plotSetup.value);
    const bars = r.boards_by_ply.map((parts, ply) => ({ label: ply, parts: parts }));
    stackedBars($("plot"), bars, STATUS, $("plotscale").value,
      "Reachable boards by ply, " + name(r.setup) + " (" + n(sum(r.boards)) + " boards)");
  }
  plotSetup.addEventListener("change", plot);
  $("plotscale").addEventListener("change", plot);
  plot();
  $("statsbody").hidden = false;
  document.body.dataset.stats = "shown";
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
      // Beyond the positions a search can score in time, a saved solution gives the outcomes
      // alone: no score, distance or line of play.
      if (e.score === null) {
        $("score").textContent = (e.outcome || "unknown") + " for the " + e.to_move + " player (from the saved solution; scores once fewer cells are empty)";
      } else {
        $("score").textContent = e.outcome + " in " + e.distance + (e.distance === 1 ? " ply" : " plies") + " for the " + e.to_move + " player (score " + e.score + ")";
      }
      $("variation").textContent = e.variation || "";
      for (const m of e.moves) {
        const s = $("score" + m.column);
        s.className = "colscore " + m.outcome;
        if (m.score === null) {
          s.textContent = m.outcome;
          s.title = m.outcome + " (from the saved solution)";
        } else {
          s.textContent = m.score;
          s.title = m.outcome + " in " + m.distance + " plies";
        }
      }
    } catch (err) {
      if (mine === request) $("score").textContent = "not scored: " + err.message;
    }
  }

  let shownCounts = null;
  function plotCounts() {
    if (!shownCounts) return;
    const c = shownCounts;
    const bars = c.plies.map((p) => ({
      label: p.ply,
      parts: { x_won: p.first_won, o_won: p.second_won, draw: p.draw, open: p.open },
    }));
    stackedBars($("plot"), bars,
      [["x_won", "first player won"], ["o_won", "second player won"], ["draw", "draw"], ["open", "open"]],
      $("plotscale").value,
      "Positions per ply, " + c.columns + "×" + c.rows + " (" + c.total.toLocaleString("en") + " positions)");
  }
  $("plotscale").addEventListener("change", plotCounts);

  async function counts() {
    let [cols, rows] = size();
    let note = "";
    if (cols * rows > 20 && !(cols === 7 && rows === 6)) {
      note = " (the " + cols + "×" + rows + " board is counted by `tomek fourow count`; here boards of at most 20 cells and 7×6)";
      cols = 4;
      rows = 4;
    }
    const body = $("counts").querySelector("tbody");
    body.textContent = "";
    $("plot").textContent = "";
    shownCounts = null;
    try {
      const c = await getJson("/api/fourow/counts?cols=" + cols + "&rows=" + rows);
      $("countnote").textContent = c.total.toLocaleString("en") + " positions on the " + cols + "×" + rows + " board" + note + ".";
      shownCounts = c;
      plotCounts();
      document.body.dataset.counts = cols + "x" + rows;
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

// The problem page: pick a problem of the family, type a grid in its symbols, and read the
// answer the problem gives it, its facts, and the wrong solutions that answer otherwise.
async function problemPage() {
  let problems = [];
  try {
    problems = await getJson("/api/problems");
  } catch (err) {
    showError(err.message);
    return;
  }
  const select = $("problem");
  for (const p of problems) {
    const o = document.createElement("option");
    o.value = p.name;
    o.textContent = p.name + ": " + p.title;
    select.appendChild(o);
  }
  function current() { return problems.find((p) => p.name === select.value); }
  function describe() {
    const p = current();
    $("about").textContent = p.source + "; " + p.rows + "×" + p.cols + ", symbols " +
      p.symbols.split("").join(" ") + "; answers: " + p.answers.join(", ");
    const empty = p.symbols[2];
    const rows = [];
    for (let r = 0; r < p.rows; r++) rows.push(empty.repeat(p.cols));
    $("grid").value = rows.join("/");
  }
  async function render() {
    showError("");
    $("caught").textContent = "";
    try {
      const q = "/api/problem/explain?problem=" + encodeURIComponent(select.value) +
        "&board=" + encodeURIComponent($("grid").value);
      const e = await getJson(q);
      $("answer").textContent = e.answer === null ? "none: not valid input of this problem" : e.answer;
      $("facts").textContent = e.facts;
      $("why").textContent = e.unreachable_because ? "Unreachable: " + e.unreachable_because : "";
      for (const w of e.wrong_solutions_failing) {
        const li = document.createElement("li");
        li.textContent = w.mutant + " answers " + w.answers;
        $("caught").appendChild(li);
      }
    } catch (err) {
      $("answer").textContent = "";
      $("facts").textContent = "";
      $("why").textContent = "";
      showError(err.message);
    }
  }
  select.addEventListener("change", () => { describe(); render(); });
  $("grid").addEventListener("input", render);
  describe();
  render();
}

if (document.body.dataset.page === "tomek") tomekPage();
if (document.body.dataset.page === "problem") problemPage();
if (document.body.dataset.page === "fourow") fourowPage();
