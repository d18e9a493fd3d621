// dicelens board: draws a game's decisions (dice, sheets, options valued), follows options
// (what-if), and plays or enters games, all through the server's JSON API. `window.board`
// holds the state shown, for tests and curious users.
"use strict";

const board = {
  mode: "list", // list | game | session
  game: null, // the game view (GET /api/games/:id)
  decision: null, // index of the decision shown
  view: null, // the decision or session view shown
  session: null, // the session view shown
  dice: [],
  kept: [],
  options: [],
  error: null,
  panel: null, // the panel last shown (null until one is), so the start never overrides a choice
  ready: false, // the start is done: the list of games drawn, or its error shown
};
window.board = board;

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers["Content-Type"] = typeof body === "string" ? "text/plain" : "application/json";
  }
  const response = await fetch(path, init);
  const json = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    throw new Error(json.error || response.statusText);
  }
  return json;
}

function show(error) {
  board.error = error ? String(error.message || error) : null;
  $("status").textContent = board.error || "";
  $("status").className = board.error ? "error" : "";
}

function panel(name) {
  board.panel = name;
  $("games-panel").hidden = name !== "games";
  $("play-panel").hidden = name !== "play";
  $("board").hidden = name !== "board";
}

function number(x, unit) {
  if (x === null || x === undefined) return "";
  return x.toFixed(unit === "match points" ? 4 : 2);
}

// ---- drawing -------------------------------------------------------------------------------

const PIPS = {
  1: [[2, 2]],
  2: [[1, 1], [3, 3]],
  3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};

function die(value, kept) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 48 48");
  svg.setAttribute("data-die", "");
  svg.setAttribute("data-value", String(value));
  svg.setAttribute("data-kept", kept ? "true" : "false");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `die ${value}${kept ? " kept" : ""}`);
  const rect = document.createElementNS(SVG, "rect");
  for (const [k, v] of Object.entries({ x: 2, y: 2, width: 44, height: 44, rx: 8, fill: "#fff", stroke: "#333", "stroke-width": 2 })) {
    rect.setAttribute(k, v);
  }
  svg.appendChild(rect);
  for (const [px, py] of PIPS[value] || []) {
    const pip = document.createElementNS(SVG, "circle");
    pip.setAttribute("cx", 12 * px);
    pip.setAttribute("cy", 12 * py);
    pip.setAttribute("r", 4.5);
    pip.setAttribute("fill", "#1d2330");
    svg.appendChild(pip);
  }
  return svg;
}

function drawDice(dice, kept) {
  board.dice = dice.slice();
  board.kept = kept.slice();
  const box = $("dice");
  box.replaceChildren(...dice.map((v, i) => die(v, !!kept[i])));
}

function cell(tag, text, attrs) {
  const el = document.createElement(tag);
  el.textContent = text;
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  return el;
}

function points(b) {
  return b.points === null || b.points === undefined ? "" : String(b.points);
}

function boxCell(b) {
  return cell("td", points(b), { "data-box": b.code, "data-points": points(b), class: "num" });
}

// A single-column scorecard per player, side by side; a Jamb slip with its columns.
function drawSheets(sheets, mover) {
  const out = [];
  if (sheets.length && sheets[0].family === "jamb") {
    sheets.forEach((sheet, seat) => {
      const table = document.createElement("table");
      table.className = "sheet jamb";
      const head = document.createElement("tr");
      head.appendChild(cell("th", sheet.player, { class: seat === mover ? "mover" : "" }));
      sheet.columns.forEach((c) => head.appendChild(cell("th", c)));
      table.appendChild(head);
      // Rows in the slip's order; the sums after the last upper box (1-6) and the last middle
      // box (MAX, MIN), wherever the rule set puts them.
      const names = [...new Set(sheet.boxes.map((b) => b.name))];
      const lastUpper = names.filter((n) => /^[1-6]$/.test(n)).pop();
      const lastMiddle = names.filter((n) => n === "MAX" || n === "MIN").pop();
      const sumRow = (label, key) => {
        const row = cell("tr", "", { class: "sum" });
        row.appendChild(cell("th", label));
        sheet.column_sums.forEach((c) => row.appendChild(cell("td", String(c[key]), { class: "num" })));
        table.appendChild(row);
      };
      for (const name of names) {
        const row = document.createElement("tr");
        row.appendChild(cell("th", name));
        for (const c of sheet.columns) {
          const b = sheet.boxes.find((x) => x.name === name && x.column === c);
          row.appendChild(b ? boxCell(b) : cell("td", ""));
        }
        table.appendChild(row);
        if (name === lastUpper) { sumRow("upper sum", "upper"); sumRow("bonus", "bonus"); }
        if (name === lastMiddle) sumRow("middle", "middle");
      }
      sumRow("lower", "lower");
      sumRow("column", "total");
      const total = cell("tr", "", { class: "sum" });
      total.appendChild(cell("th", "total"));
      total.appendChild(cell("td", String(sheet.total), { colspan: sheet.columns.length, class: "num", "data-total": String(sheet.total) }));
      table.appendChild(total);
      out.push(table);
    });
  } else if (sheets.length) {
    const table = document.createElement("table");
    table.className = "sheet column";
    const head = document.createElement("tr");
    head.appendChild(cell("th", "box"));
    sheets.forEach((s, seat) => head.appendChild(cell("th", s.player, { class: seat === mover ? "mover" : "" })));
    table.appendChild(head);
    const codes = sheets[0].boxes.map((b) => b.code);
    const upperCount = codes.filter((c) => /^[1-6]$/.test(c)).length;
    codes.forEach((code, i) => {
      const row = document.createElement("tr");
      row.appendChild(cell("th", code));
      sheets.forEach((s) => row.appendChild(boxCell(s.boxes[i])));
      table.appendChild(row);
      if (i === upperCount - 1) {
        for (const [label, key] of [["upper sum", "upper"], ["bonus", "bonus"]]) {
          const sum = cell("tr", "", { class: "sum" });
          sum.appendChild(cell("th", label));
          sheets.forEach((s) => sum.appendChild(cell("td", String(s[key]), { class: "num" })));
          table.appendChild(sum);
        }
      }
    });
    const total = cell("tr", "", { class: "sum" });
    total.appendChild(cell("th", "total"));
    sheets.forEach((s) => total.appendChild(cell("td", String(s.total), { class: "num", "data-total": String(s.total) })));
    table.appendChild(total);
    out.push(table);
  }
  $("sheets").replaceChildren(...out);
}

function drawOptions(valued, onPick) {
  const body = $("options").tBodies[0];
  board.options = valued ? valued.options : [];
  $("unit").textContent = valued ? `(${valued.unit})` : "";
  const several = board.options.some((o) => o.solitaire !== null && o.solitaire !== undefined);
  document.querySelectorAll("#options .solitaire").forEach((el) => (el.hidden = !several));
  const rows = board.options.map((o, i) => {
    const row = cell("tr", "", {
      class: "option" + (i === 0 ? " best" : ""),
      "data-option": o.option,
      "data-value": String(o.value),
      "data-loss": String(o.loss),
    });
    if (o.chosen) row.setAttribute("data-chosen", "true");
    row.appendChild(cell("td", o.option));
    row.appendChild(cell("td", number(o.value, valued.unit), { class: "num" }));
    row.appendChild(cell("td", number(o.loss, valued.unit), { class: "num" }));
    const sol = cell("td", number(o.solitaire, "points"), { class: "num solitaire" });
    sol.hidden = !several;
    row.appendChild(sol);
    row.addEventListener("click", () => onPick(o.option));
    return row;
  });
  if (!valued) {
    rows.push(cell("tr", "", {}));
    rows[0].appendChild(cell("td", "the options come with the dice: roll them", { colspan: 4, class: "note" }));
  }
  if (valued && valued.error) {
    rows.push(cell("tr", "", {}));
    rows[rows.length - 1].appendChild(cell("td", valued.error, { colspan: 4, class: "note" }));
  }
  body.replaceChildren(...rows);
}

// The chart: the value of the option taken at every decision (expected final score, or the
// mover's expected match points), one colour per seat; a click jumps to the decision.
function drawChart(game) {
  const box = $("chart");
  const points = game.decisions.map((d, i) => ({ i, seat: d.seat, v: d.value })).filter((p) => p.v !== null && p.v !== undefined);
  if (!points.length) {
    box.replaceChildren(cell("p", game.note || "no values to chart", { class: "note" }));
    return;
  }
  const width = Math.max(box.clientWidth || 1000, 400), height = 160, left = 60, bottom = 22;
  const lo = Math.min(...points.map((p) => p.v)), hi = Math.max(...points.map((p) => p.v));
  const span = hi - lo || 1;
  const n = Math.max(game.decisions.length - 1, 1);
  const x = (i) => left + ((width - left - 10) * i) / n;
  const y = (v) => 24 + (height - bottom - 34) * (1 - (v - lo) / span);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("id", "chart-svg");
  const colors = ["#2b6cb0", "#c05621", "#2f855a", "#805ad5", "#b83280", "#718096"];
  const label = (text, lx, ly, anchor) => {
    const t = document.createElementNS(SVG, "text");
    t.textContent = text;
    t.setAttribute("x", lx);
    t.setAttribute("y", ly);
    t.setAttribute("font-size", "12");
    t.setAttribute("text-anchor", anchor);
    svg.appendChild(t);
  };
  label(number(hi, game.unit), left - 4, y(hi) + 4, "end");
  label(number(lo, game.unit), left - 4, y(lo) + 4, "end");
  label(game.unit === "points" ? "expected final score after each decision" : "mover's expected match points after each decision", width / 2, height - 6, "middle");
  const seats = [...new Set(points.map((p) => p.seat))];
  for (const seat of seats) {
    const mine = points.filter((p) => p.seat === seat);
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", mine.map((p) => `${x(p.i)},${y(p.v)}`).join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", colors[seat % colors.length]);
    svg.appendChild(line);
    for (const p of mine) {
      const dot = document.createElementNS(SVG, "circle");
      dot.setAttribute("cx", x(p.i));
      dot.setAttribute("cy", y(p.v));
      // Dots shrink as decisions crowd (a Jamb game has hundreds); the current one stays large.
      dot.setAttribute("r", p.i === board.decision ? 5 : n > 120 ? 2 : 4);
      dot.setAttribute("fill", colors[seat % colors.length]);
      dot.setAttribute("data-decision", String(p.i));
      if (p.i === board.decision) dot.setAttribute("class", "current");
      const title = document.createElementNS(SVG, "title");
      const d = game.decisions[p.i];
      title.textContent = `#${p.i + 1} ${game.game.players[d.seat]} round ${d.round} roll ${d.roll}: ${d.chosen} (${number(p.v, game.unit)})`;
      dot.appendChild(title);
      dot.addEventListener("click", () => showDecision(p.i));
      svg.appendChild(dot);
    }
  }
  // A legend: each seat's colour and player, top right.
  seats.forEach((seat, k) => {
    const lx = width - 10 - (seats.length - k) * 150;
    const swatch = document.createElementNS(SVG, "rect");
    swatch.setAttribute("x", lx);
    swatch.setAttribute("y", 4);
    swatch.setAttribute("width", 12);
    swatch.setAttribute("height", 12);
    swatch.setAttribute("fill", colors[seat % colors.length]);
    svg.appendChild(swatch);
    label(game.game.players[seat] || `seat ${seat + 1}`, lx + 16, 14, "start");
  });
  box.replaceChildren(svg);
}

// ---- a game, decision by decision -----------------------------------------------------------

async function loadGames() {
  const games = await api("GET", "/api/games");
  const rows = games.map((g) => {
    const row = cell("tr", "", { "data-game": g.id });
    row.appendChild(cell("td", g.game_id));
    row.appendChild(cell("td", g.players.join(", ")));
    row.appendChild(cell("td", g.rules));
    row.appendChild(cell("td", g.result ? g.result.join(" ") : ""));
    row.appendChild(cell("td", g.source));
    row.addEventListener("click", () => openGame(g.id, 0).catch(show));
    return row;
  });
  $("games").tBodies[0].replaceChildren(...rows);
  return games;
}

async function openGame(id, decision) {
  show(null);
  board.game = await api("GET", `/api/games/${encodeURIComponent(id)}`);
  board.mode = "game";
  board.session = null;
  panel("board");
  if (board.game.note) show(board.game.note);
  await showDecision(Math.min(decision || 0, Math.max(board.game.decisions.length - 1, 0)));
}

async function showDecision(index) {
  const game = board.game;
  if (!game || index < 0 || index >= game.decisions.length) return;
  board.mode = "game";
  board.session = null;
  const view = await api("GET", `/api/games/${game.game.id}/decisions/${index}`);
  board.decision = index;
  board.view = view;
  $("board").setAttribute("data-decision", String(index));
  $("back").hidden = true;
  $("roll").hidden = true;
  $("dice-entry").hidden = true;
  $("dice-pad").hidden = true;
  $("prev").disabled = index === 0;
  $("next").disabled = index + 1 >= game.decisions.length;
  $("prev").hidden = $("next").hidden = false;
  const player = game.game.players[view.seat] || "";
  $("position").textContent = `decision ${index + 1} of ${view.of}: ${player}, round ${view.round}, roll ${view.roll} (${view.rolls_left} left); took ${view.chosen}`;
  drawDice(view.dice, view.kept);
  drawSheets(view.sheets, view.seat);
  drawOptions(view.valued, (option) => whatIf(option).catch(show));
  $("coach").textContent = "";
  $("log").replaceChildren();
  $("hint").textContent = "click an option to follow it (what-if)";
  drawChart(game);
}

async function whatIf(option) {
  const session = await api("POST", "/api/sessions", { mode: "whatif", game: board.game.game.id, decision: board.decision, option });
  showSession(session);
}

// ---- sessions: what-if, play, entry --------------------------------------------------------

function showSession(s) {
  board.mode = "session";
  board.session = s;
  board.view = s;
  panel("board");
  show(null);
  const whatIf = s.mode === "whatif";
  $("back").hidden = !whatIf || !board.game;
  $("prev").hidden = $("next").hidden = true;
  $("board").setAttribute("data-decision", "");
  const rolling = s.phase === "roll";
  $("roll").hidden = !rolling;
  $("dice-entry").hidden = !rolling || s.mode === "play";
  $("dice-pad").hidden = $("dice-entry").hidden;
  const player = s.players[s.seat] || "";
  const what = s.phase === "over" ? "game over" : `${player} to ${rolling ? "roll" : "choose"}, round ${s.round}, roll ${rolling ? s.roll + 1 : s.roll}`;
  const mode = { play: "play", entry: "entry", whatif: "what-if" }[s.mode] || s.mode;
  $("position").textContent = `${mode}${s.record ? ` (recorded in ${s.record})` : ""}: ${what}`;
  if (rolling) {
    drawDice(s.kept, s.kept.map(() => true));
  } else {
    drawDice(s.dice, s.dice_kept);
  }
  drawSheets(s.sheets, s.seat);
  drawOptions(s.valued, (option) => act(`/api/sessions/${s.id}/choose`, { option }));
  const flag = s.flags[s.flags.length - 1];
  $("coach").textContent = flag ? `coach: ${flag.player}'s ${flag.chosen} (round ${flag.round}, roll ${flag.roll}) cost ${number(flag.loss, flag.unit)} ${flag.unit}; best was ${flag.best}` : "";
  $("log").replaceChildren(...s.log.map((line) => cell("li", line)));
  $("hint").textContent = s.phase === "choose" ? "click an option to take it" : rolling && s.mode !== "play" ? "type the dice rolled, then roll" : "";
}

async function act(path, body) {
  try {
    showSession(await api("POST", path, body));
  } catch (e) {
    show(e);
  }
}

async function startGame() {
  const players = $("new-players").value.split(",").map((p) => p.trim()).filter((p) => p);
  const oracleSeats = [];
  if ($("new-opponent").value === "oracle") {
    oracleSeats.push(players.length);
    players.push("oracle");
  }
  const threshold = parseFloat($("new-threshold").value);
  const request = {
    mode: $("new-mode").value,
    rules: $("new-rules").value,
    players,
    oracle_seats: oracleSeats,
    coach: $("new-coach").checked,
  };
  if (!isNaN(threshold)) request.threshold = threshold;
  try {
    board.game = null;
    showSession(await api("POST", "/api/sessions", request));
  } catch (e) {
    panel("play");
    show(e);
    $("play-panel").appendChild(cell("p", String(e.message || e), { class: "error" }));
  }
}

// ---- wiring -------------------------------------------------------------------------------

$("show-games").addEventListener("click", () => { panel("games"); loadGames().catch(show); });
$("hide-values").addEventListener("change", (e) => $("board").classList.toggle("no-values", e.target.checked));
$("show-play").addEventListener("click", () => panel("play"));
$("new-game").addEventListener("click", startGame);
$("prev").addEventListener("click", () => showDecision(board.decision - 1).catch(show));
$("next").addEventListener("click", () => showDecision(board.decision + 1).catch(show));
$("back").addEventListener("click", () => showDecision(board.decision).catch(show));
$("roll").addEventListener("click", () => {
  const s = board.session;
  if (!s) return;
  const typed = $("dice-entry").value.trim();
  act(`/api/sessions/${s.id}/roll`, typed ? { dice: typed } : {});
  $("dice-entry").value = "";
});
document.querySelectorAll("#dice-pad [data-face]").forEach((b) =>
  b.addEventListener("click", () => ($("dice-entry").value += b.dataset.face)));
$("dice-clear").addEventListener("click", () => ($("dice-entry").value = ""));
$("dice-entry").addEventListener("keydown", (e) => { if (e.key === "Enter") $("roll").click(); });
$("paste-open").addEventListener("click", async () => {
  try {
    const games = await api("POST", "/api/games", $("paste-text").value);
    await loadGames();
    if (games.length) await openGame(games[0].id, 0);
  } catch (e) {
    show(e);
    $("paste").appendChild(cell("p", String(e.message || e), { class: "error" }));
  }
});
document.addEventListener("keydown", (e) => {
  if (board.mode !== "game" || e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
  const last = board.game.decisions.length - 1;
  const to = { ArrowLeft: board.decision - 1, ArrowRight: board.decision + 1, Home: 0, End: last }[e.key];
  if (to !== undefined) {
    e.preventDefault();
    showDecision(to).catch(show);
  }
});

// The start: the list of games, then what the address asks for. A panel the person chose while
// the list was on its way (Play before the list came) stays shown.
(async () => {
  const params = new URLSearchParams(location.search);
  try {
    const games = await loadGames();
    if (board.panel !== null) return;
    const wanted = params.get("game");
    const session = params.get("session");
    if (session) {
      showSession(await api("GET", `/api/sessions/${encodeURIComponent(session)}`));
    } else if (wanted) {
      const hit = games.find((g) => g.id === wanted || g.game_id === wanted);
      if (!hit) throw new Error(`no game ${wanted} here`);
      await openGame(hit.id, parseInt(params.get("decision") || "0", 10));
    } else {
      panel("games");
    }
  } catch (e) {
    if (board.panel === null) panel("games");
    show(e);
    $("games-panel").prepend(cell("p", String(e.message || e), { class: "error" }));
  } finally {
    board.ready = true;
  }
})();
