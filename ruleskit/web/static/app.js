// The ruleskit page: play at a seat (/seat/TOKEN), host a table hot-seat (/host/TOKEN), or replay a log (/replay).
// Everything shown is set as text (textContent), never parsed as HTML, so a pack's names cannot inject markup,
// and through shown(), so a character that would not show cannot make one name look like another.
"use strict";

const PALETTE = ["#e0b422", "#3a9a5b", "#2f6fd0", "#c8412f", "#8e44ad", "#e07b22", "#16a0a0", "#7a7a7a"];
const POLL_MS = 1500;

const page = {
  mode: "none",      // seat, host, replay
  token: "",          // the seat's or the host's token
  seatToken: "",      // the token used to act (host mode: the seat on screen)
  payload: null,
  atScreen: null,     // host mode: the seat whose screen is shown
  busy: false,
  pollTimer: null,
  replay: { step: 0, steps: 0, seat: "all", names: [] },
};

// ------------------------------------------------------------------ small helpers

// shown: control characters and characters that take no room on screen or reorder the text around them
// (zero-width spaces and joiners, bidirectional controls, line separators) are shown as their code, `<U+200B>`,
// as the terminal shows them (ruleskit/safetext.py): `Al\u200bice` looked the same as `Alice`. A joiner between
// two symbols (an emoji) stays; a tab and a newline are spaces.
const MARKED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0]/u;
const EMOJI_TAIL = /[\ufe0e\ufe0f\u{1F3FB}-\u{1F3FF}]/u;
const SYMBOL = /^\p{So}$/u;

function joinsSymbols(chars, at) {
  let before = at - 1;
  while (before >= 0 && EMOJI_TAIL.test(chars[before])) before -= 1;
  return before >= 0 && at + 1 < chars.length && SYMBOL.test(chars[before]) && SYMBOL.test(chars[at + 1]);
}

function shown(text) {
  const chars = Array.from(String(text));
  return chars.map((char, at) => {
    if (char === "\n" || char === "\t") return " ";
    if (!MARKED.test(char) || (char === "\u200d" && joinsSymbols(chars, at))) return char;
    return `<U+${char.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}>`;
  }).join("");
}
// end of shown

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = shown(value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(shown(child)));
  }
  return node;
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") node.textContent = shown(value);
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

function $(id) { return document.getElementById(id); }

function seatColour(seat, named) {
  if (named && window.CSS && CSS.supports("color", named)) return named;
  return PALETTE[seat % PALETTE.length];
}

function notice(text, kind) {
  const box = $("notice");
  if (!text) { box.hidden = true; return; }
  box.textContent = shown(text);
  box.className = kind || "";
  box.hidden = false;
}

async function api(path, options) {
  const response = await fetch(path, Object.assign({ cache: "no-store" }, options || {}));
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const error = new Error((data && data.error) || `the server answered ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function post(path, body) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

// ------------------------------------------------------------------ drawing a table

function drawTable(table, me, deciders) {
  $("title").textContent = shown(table.title);
  document.title = shown(table.title) + " · ruleskit";
  drawStatus(table.header);
  drawResult(table.result);
  drawBoard(table.board, table.players);
  drawPairs($("game-box"), $("game"), table.game);
  drawPlayers(table.players, me, deciders);
  drawPairs($("pieces-box"), $("pieces"), table.pieces);
}

function drawStatus(header) {
  const parts = [`Turn ${header.turn}`, `round ${header.round}`, header.phase];
  if (header.stage) parts.push(header.stage);
  const status = $("status");
  status.replaceChildren(parts.join(" · "));
  if (header.deciders.length) {
    status.append(" — ", el("span", { class: "deciders", text: header.deciders.join(", ") }), " to decide");
  }
}

function drawResult(result) {
  const box = $("result");
  if (!result) { box.hidden = true; return; }
  const rows = result.rows.map(r => el("tr", { class: r.winner ? "winner" : "" },
    el("td", { text: r.place }), el("td", { text: r.name }), el("td", { text: r.score })));
  box.replaceChildren(el("h2", { text: `Game over: ${result.reason}` }),
    el("table", {}, el("tr", {}, el("th", { text: "place" }), el("th", { text: "player" }), el("th", { text: "score" })), rows));
  box.hidden = false;
}

function drawCards(zone) {
  const cards = el("div", { class: "cards" });
  if (zone.type === "hidden") {
    for (const card of zone.cards) cards.append(el("span", { class: "card", text: card.text + " (top)" }));
    cards.append(el("span", { class: "card back", title: "hidden", text: `${zone.count} hidden` }));
    return cards;
  }
  if (zone.unlimited) return el("span", { class: "none", text: "unlimited" });
  if (!zone.cards.length) return el("span", { class: "none", text: "—" });
  for (const card of zone.cards) {
    if (card.empty) { cards.append(el("span", { class: "card empty", text: "·" })); continue; }
    const node = el("span", { class: "card", text: card.text });
    if (card.count !== undefined && card.count !== 1) node.append(el("span", { class: "count", text: `×${card.count}` }));
    if (card.owner !== null && card.owner !== undefined) node.style.borderColor = seatColour(card.owner);
    cards.append(node);
  }
  return cards;
}

function drawPairs(box, target, rows) {
  box.hidden = !rows.length;
  const grid = el("div", { class: "pairs" });
  for (const row of rows) {
    grid.append(el("div", { class: "label", text: row.label }));
    grid.append(row.zone ? drawCards(row.zone) : el("div", { class: row.secret ? "secret" : "", text: row.value }));
  }
  target.replaceChildren(grid);
}

function drawPlayers(players, me, deciders) {
  const list = players.map(player => {
    const box = el("div", { class: "player" + (player.seat === me ? " me" : "") + (deciders.includes(player.seat) ? " deciding" : "") });
    box.style.setProperty("--seat", seatColour(player.seat, player.colour));
    box.append(el("h3", { text: player.name + (player.seat === me ? " (you)" : "") }));
    const grid = el("div", { class: "pairs" });
    for (const row of player.rows) {
      grid.append(el("div", { class: "label", text: row.label }));
      grid.append(el("div", { class: row.secret ? "secret" : "", text: row.value }));
    }
    box.append(grid);
    for (const zone of player.zones) {
      box.append(el("div", { class: "zone" }, el("div", { class: "zone-label", text: zone.label }), drawCards(zone)));
    }
    return box;
  });
  $("players").replaceChildren(...list);
}

function drawBoard(board, players) {
  const box = $("board-box");
  if (!board) { box.hidden = true; return; }
  box.hidden = false;
  const width = 1000, pad = 90;
  const height = Math.round(width * board.aspect) + 2 * 40;
  const place = node => [pad + node.x * (width - 2 * pad), 70 + node.y * (height - 140)];
  const colours = {};
  for (const p of players) colours[p.seat] = seatColour(p.seat, p.colour);
  const at = {};
  for (const node of board.nodes) at[node.id] = place(node);
  const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "board" });
  for (const edge of board.edges) {
    const [x1, y1] = at[edge.a], [x2, y2] = at[edge.b];
    picture.append(svg("line", { class: "edge" + (edge.blocked ? " blocked" : ""), x1, y1, x2, y2 }));
  }
  for (const node of board.nodes) {
    const [x, y] = at[node.id];
    const lines = [node.name, ...node.facts];
    const piecesWide = node.pieces.reduce((sum, p) => sum + 18 + 9 * [...p.text].length, 0);
    const w = Math.max(90, 9 * Math.max(...lines.map(l => l.length)) + 16, piecesWide + 12);
    const h = 24 + 17 * node.facts.length + (node.pieces.length ? 30 : 0);
    const group = svg("g", { class: "node", "data-id": node.id });
    group.append(svg("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: 10 }));
    group.append(svg("text", { class: "node-name", x, y: y - h / 2 + 18, "text-anchor": "middle", text: node.name }));
    node.facts.forEach((fact, i) => group.append(svg("text", { class: "node-fact", x, y: y - h / 2 + 35 + 17 * i, "text-anchor": "middle", text: fact })));
    const widths = node.pieces.map(piece => 14 + 9 * [...piece.text].length);
    let px = x - (widths.reduce((a, b) => a + b, 0) + 4 * (widths.length - 1)) / 2;
    node.pieces.forEach((piece, i) => {
      const py = y + h / 2 - 16;
      const fill = piece.owner === null ? "#ddd" : colours[piece.owner] || seatColour(piece.owner);
      group.append(svg("g", { class: "piece" }, svg("rect", { x: px, y: py - 11, width: widths[i], height: 22, rx: 11, fill: "#fff", stroke: fill }),
        svg("text", { x: px + widths[i] / 2, y: py + 4, "text-anchor": "middle", text: piece.text })));
      px += widths[i] + 4;
    });
    picture.append(group);
  }
  $("board").replaceChildren(picture);
}

function drawFeed(feed) {
  const list = $("feed");
  list.replaceChildren(...feed.map(e => el("li", { class: e.kind, text: e.text })));
  list.scrollTop = list.scrollHeight;
}

// ------------------------------------------------------------------ a seat's screen

function drawSeat(payload) {
  page.payload = payload;
  drawTable(payload.table, payload.seat, payload.deciders);
  drawFeed(payload.feed);
  drawActions(payload);
  const undo = $("undo");
  if (undo) undo.disabled = !payload.canUndo;
}

function drawActions(payload) {
  const box = $("actions");
  $("actions-title").textContent = shown(payload.over ? "Game over" : (payload.deciding ? `Your move, ${payload.name}` : payload.name));
  if (payload.over) { box.replaceChildren(el("p", { class: "waiting", text: "The game has ended." })); return; }
  if (!payload.deciding) {
    const parts = [el("p", { class: "waiting", text: `Waiting for ${payload.waitingFor.join(", ")}…` })];
    if (payload.myPick) parts.push(el("p", { text: `Your secret choice: ${payload.myPick}` }));
    const anytime = payload.outOfTurn || [];
    if (anytime.length) parts.push(el("div", { class: "prompt", text: "Meanwhile, you may:" }), ...actionGroups(anytime, null));
    box.replaceChildren(...parts);
    return;
  }
  const parts = [];
  if (payload.prompt) parts.push(el("div", { class: "prompt", text: payload.prompt }));
  parts.push(...actionGroups(payload.actions, payload.prompt));
  box.replaceChildren(...parts);
}

function actionGroups(groups, prompt) {
  return groups.map(group => {
    const options = el("div", { class: "options" });
    for (const option of group.options) {
      options.append(el("button", { type: "button", "data-action": option.id, text: option.label, onclick: () => act(option.id) }));
    }
    const title = group.title === prompt ? null : el("div", { class: "group-title", text: group.title });
    return el("div", { class: "group" }, title, options);
  });
}

async function act(actionId) {
  if (page.busy) return;
  page.busy = true;
  for (const b of document.querySelectorAll("#actions button")) b.disabled = true;
  try {
    await post(`/api/seat/${page.seatToken}/act`, { action: actionId, version: page.payload.version });
    notice("");
  } catch (error) {
    notice(error.message);
  }
  page.busy = false;
  await refresh();
}

async function undo() {
  if (page.busy || !page.payload) return;
  page.busy = true;
  try {
    await post(`/api/seat/${page.seatToken}/undo`, { version: page.payload.version });
    notice("Undone.", "info");
  } catch (error) {
    notice(error.message);
  }
  page.busy = false;
  await refresh();
}

async function refresh() {
  try {
    if (page.mode === "seat") {
      show(await api(`/api/seat/${page.token}`));
    } else if (page.mode === "host") {
      const at = page.atScreen === null ? "" : `?at=${page.atScreen}`;
      show(await api(`/api/host/${page.token}/screen${at}`));
    }
  } catch (error) {
    notice(error.message);
  }
}

function show(payload) {
  const changed = !page.payload || payload.version !== page.payload.version || payload.seat !== page.payload.seat;
  if (page.mode === "host") {
    page.seatToken = payload.token;
    if (payload.hotSeat && payload.deciding && payload.seat !== page.atScreen) {
      handOver(payload);
      return;
    }
    page.atScreen = payload.seat;
  }
  if (changed) drawSeat(payload);
  schedulePoll(payload);
}

function handOver(payload) {
  // Clear the last player's screen before asking for the next one.
  for (const id of ["board", "game", "players", "pieces", "actions", "feed"]) $(id).replaceChildren();
  $("result").hidden = true;
  $("handover-text").textContent = shown(`Pass the screen to ${payload.name}.`);
  const button = $("handover-button");
  button.textContent = shown(`I am ${payload.name}: show my screen`);
  button.onclick = () => {
    $("handover").hidden = true;
    page.atScreen = payload.seat;
    page.payload = null;
    show(payload);
  };
  $("handover").hidden = false;
  page.payload = null;
}

function schedulePoll(payload) {
  clearTimeout(page.pollTimer);
  if (!payload.deciding && !payload.over) page.pollTimer = setTimeout(refresh, POLL_MS);
}

// ------------------------------------------------------------------ the host's tools

function hostTools() {
  const tools = $("tools");
  tools.replaceChildren(
    el("button", { id: "undo", type: "button", text: "Undo", onclick: undo }),
    el("button", { type: "button", text: "New game…", onclick: openNewGame }),
    el("button", { type: "button", text: "Seats…", onclick: openSeats }),
    el("a", { class: "button", href: `/api/host/${page.token}/save`, download: "", text: "Save" }),
    el("label", {}, "Load ", el("input", { type: "file", accept: ".json,application/json", onchange: loadSave })),
    el("a", { class: "button", href: `/api/host/${page.token}/log`, download: "", text: "Log (.jsonl)" }),
  );
}

function closePanel() {
  const panel = $("panel");
  panel.hidden = true;
  panel.replaceChildren();
}

async function openNewGame() {
  const info = await api(`/api/host/${page.token}`);
  const panel = $("panel");
  const seatsBox = el("div", { class: "row" });
  const players = el("input", { type: "number", id: "new-players", min: info.minPlayers, max: info.maxPlayers, value: info.defaults.players, disabled: info.scenario ? true : null });
  // Left empty, the server draws a seed nobody can guess (a known seed deals the same hidden cards again).
  const seed = el("input", { type: "number", id: "new-seed", min: 0, placeholder: "random" });
  const drawSeats = () => {
    const count = Math.max(info.minPlayers, Math.min(info.maxPlayers, Number(players.value) || info.minPlayers));
    const old = [...seatsBox.querySelectorAll("select")].map(s => s.value);
    seatsBox.replaceChildren(...Array.from({ length: count }, (_, i) => {
      const select = el("select", { "data-seat": i }, info.seatKinds.map(k => el("option", { value: k, text: k })));
      select.value = old[i] || info.defaults.seats[i] || (i === 0 ? "human" : "random");
      return el("label", {}, `${info.seatNames[i]} `, select);
    }));
  };
  players.addEventListener("input", drawSeats);
  drawSeats();
  const start = async () => {
    const seats = [...seatsBox.querySelectorAll("select")].map(s => s.value);
    try {
      await post(`/api/host/${page.token}/new`, { players: Number(players.value), seats, seed: seed.value === "" ? null : Number(seed.value) });
      closePanel();
      page.atScreen = null;
      page.payload = null;
      notice("New game started.", "info");
      await refresh();
    } catch (error) { notice(error.message); }
  };
  panel.replaceChildren(
    el("h2", { text: `New game of ${info.title}` + (info.scenario ? ` from scenario ${info.scenario}` : "") }),
    el("div", { class: "row" }, el("label", {}, "Players ", players), el("label", {}, "Seed ", seed)),
    seatsBox,
    el("div", { class: "row" }, el("button", { type: "button", id: "start", text: "Start", onclick: start }),
      el("button", { type: "button", text: "Cancel", onclick: closePanel })),
  );
  panel.hidden = false;
}

async function openSeats() {
  const info = await api(`/api/host/${page.token}`);
  const panel = $("panel");
  const items = (info.game ? info.game.seats : []).map(s => el("li", {},
    `${s.name}: ${s.kind} `, s.link ? el("a", { href: s.link, target: "_blank", text: location.origin + s.link }) : ""));
  panel.replaceChildren(
    el("h2", { text: "Seats" }),
    el("p", { text: "This screen plays every human seat, handing over between them. A player at another screen opens their own seat's address, which shows only what that seat may see." }),
    el("ul", { class: "links" }, items),
    el("button", { type: "button", text: "Close", onclick: closePanel }),
  );
  panel.hidden = false;
}

async function loadSave(event) {
  const file = event.target.files[0];
  if (!file) return;
  try {
    await api(`/api/host/${page.token}/load?name=${encodeURIComponent(file.name)}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: await file.text() });
    page.atScreen = null;
    page.payload = null;
    notice(`Loaded ${file.name}.`, "info");
    await refresh();
  } catch (error) { notice(error.message); }
  event.target.value = "";
}

// ------------------------------------------------------------------ replay

async function startReplay() {
  const summary = await api("/api/replay");
  page.replay.steps = summary.steps;
  page.replay.names = summary.names;
  const slider = el("input", { type: "range", id: "slider", min: 0, max: summary.steps, value: 0, "aria-label": "step" });
  const seat = el("select", { id: "viewer", "aria-label": "seen by" },
    el("option", { value: "all", text: "Everything" }), summary.names.map((n, i) => el("option", { value: i, text: `as ${n}` })));
  const go = step => { page.replay.step = Math.max(0, Math.min(summary.steps, step)); slider.value = page.replay.step; drawReplay(); };
  slider.addEventListener("input", () => go(Number(slider.value)));
  seat.addEventListener("change", () => { page.replay.seat = seat.value; drawReplay(); });
  $("tools").replaceChildren(el("div", { id: "replay-controls" },
    el("button", { type: "button", title: "first", text: "⏮", onclick: () => go(0) }),
    el("button", { type: "button", id: "back", title: "back", text: "◀", onclick: () => go(page.replay.step - 1) }),
    slider,
    el("button", { type: "button", id: "forward", title: "forward", text: "▶", onclick: () => go(page.replay.step + 1) }),
    el("button", { type: "button", title: "last", text: "⏭", onclick: () => go(summary.steps) }),
    el("span", { class: "step", id: "step" }), seat));
  document.addEventListener("keydown", e => {
    if (e.key === "ArrowRight") go(page.replay.step + 1);
    if (e.key === "ArrowLeft") go(page.replay.step - 1);
  });
  $("actions-title").textContent = shown(`Replay of ${summary.log}`);
  const start = Number(new URLSearchParams(location.search).get("step"));
  go(Number.isFinite(start) ? start : 0);
}

async function drawReplay() {
  const { step, seat } = page.replay;
  try {
    const payload = await api(`/api/replay/${step}?seat=${seat}`);
    if (payload.step !== page.replay.step) return;  // a later request has been drawn
    const me = seat === "all" ? null : Number(seat);
    drawTable(payload.table, me, payload.deciders);
    drawFeed(payload.feed);
    $("step").textContent = `step ${step} of ${payload.steps}`;
    $("actions").replaceChildren(el("p", { class: "waiting", text: step === 0 ? "The game as set up." : (payload.feed.filter(f => f.n === step).map(f => f.text).join(" · ")) }));
  } catch (error) { notice(error.message); }
}

// ------------------------------------------------------------------ start

function start() {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] === "seat" && parts[1]) {
    page.mode = "seat"; page.token = page.seatToken = parts[1];
    $("tools").replaceChildren(el("button", { id: "undo", type: "button", text: "Undo", onclick: undo }));
    refresh();
  } else if (parts[0] === "host" && parts[1]) {
    page.mode = "host"; page.token = parts[1];
    hostTools();
    refresh();
  } else if (parts[0] === "replay") {
    page.mode = "replay";
    startReplay().catch(error => notice(error.message));
  } else {
    notice("Open the address that 'ruleskit serve' printed: it carries the key to this table.", "info");
    $("main").hidden = true;
  }
}

start();
