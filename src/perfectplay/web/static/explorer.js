// perfectplay explorer: the position after the moves in the URL (?moves=M1,M2,...), every
// move coloured by its value for the player making it, and the value history of the game.
"use strict";

const state = { moves: [], redo: [], view: null, clicked: null, blind: false };

function movesFromUrl() {
  const text = new URLSearchParams(window.location.search).get("moves") || "";
  return text.split(",").filter((m) => m.trim() !== "");
}

function urlFor(moves) {
  return moves.length ? "?moves=" + moves.map(encodeURIComponent).join(",") : window.location.pathname;
}

// The colour class of a value: a word (win, loss, tie, draw) or a score (its sign).
function kind(value) {
  if (typeof value === "number") return value > 0 ? "win" : value < 0 ? "loss" : "tie";
  if (value === "+inf") return "win";
  if (value === "-inf") return "loss";
  return value;
}

function plies(count) {
  return `${count} ${count === 1 ? "ply" : "plies"}`;
}

function isScore(value) {
  return typeof value === "number" || value === "+inf" || value === "-inf";
}

function signed(value) {
  if (typeof value !== "number") return value;
  return value > 0 ? `+${value}` : `${value}`;
}

// A value in words: "win in 5", "draw", or for a scored game "score +2, 8 plies left".
function describe(value, remoteness) {
  if (value === "draw") return "draw";
  if (isScore(value)) {
    const left = remoteness === null ? "" : `, ${plies(remoteness)} left`;
    return `score ${signed(value)}${left}`;
  }
  const inPlies = remoteness === null ? "" : ` in ${remoteness}`;
  return `${value}${inPlies}`;
}

async function load(moves, push) {
  const query = moves.map(encodeURIComponent).join(",");
  const response = await fetch(`api/position?moves=${query}`);
  const data = await response.json();
  if (!response.ok) {
    document.getElementById("error").textContent = data.error;
    return false;
  }
  document.getElementById("error").textContent = "";
  state.moves = data.played;
  state.view = data;
  if (push) window.history.pushState({ moves: state.moves }, "", urlFor(state.moves));
  render(data);
  return true;
}

function render(view) {
  const board = document.getElementById("board");
  board.innerHTML = view.svg;
  const byMove = new Map(view.moves.map((m) => [m.move, m]));
  for (const element of board.querySelectorAll("[data-move]")) {
    const move = byMove.get(element.getAttribute("data-move"));
    if (!move) continue;
    element.classList.add(kind(move.value));
    const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
    title.textContent = state.blind ? move.move : `${move.move}: ${describe(move.value, move.remoteness)}`;
    element.appendChild(title);
    element.addEventListener("click", () => play(move.move));
  }
  const summary = document.getElementById("summary");
  const grundy = view.grundy === null ? "" : `, Grundy value ${view.grundy}`;
  const mover = view.to_move === null ? `the ${view.mover} player` : view.to_move;
  summary.innerHTML = "";
  const line = document.createElement("span");
  line.className = kind(view.value);
  line.id = "value";
  if (state.blind) {
    line.className = "";
    line.textContent = view.over ? "game over" : `${mover} to move`;
  } else {
    line.textContent = view.over
      ? `game over: ${describe(view.value, view.remoteness)} for ${mover}`
      : `${mover} to move: ${describe(view.value, view.remoteness)}${grundy}`;
  }
  summary.appendChild(line);
  const notes = [];
  if (view.last !== null) notes.push(`last move: ${view.last}`);
  if (view.taken !== null) {
    notes.push(`points so far: first player ${view.taken.first}, second player ${view.taken.second}`);
  }
  if (notes.length) {
    const more = document.createElement("div");
    more.id = "notes";
    more.textContent = notes.join("; ");
    summary.appendChild(more);
  }
  const list = document.getElementById("moves");
  list.innerHTML = "";
  for (const move of view.moves) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = `move ${kind(move.value)}`;
    button.dataset.move = move.move;
    const delta = move.delta === null || move.delta === 0 ? "" : ` (${move.delta > 0 ? "+" : ""}${move.delta})`;
    button.textContent = state.blind
      ? move.move
      : `${move.move}: ${describe(move.value, move.remoteness)}${delta}${move.best ? " ★" : ""}`;
    button.addEventListener("click", () => play(move.move));
    item.appendChild(button);
    list.appendChild(item);
  }
  chart(view.history);
  document.getElementById("undo").disabled = state.moves.length === 0;
  document.getElementById("redo").disabled = state.redo.length === 0;
  if (state.clicked !== null) {
    const ms = performance.now() - state.clicked;
    state.clicked = null;
    window.lastMoveMs = ms;
    document.getElementById("timing").textContent = `last move answered in ${ms.toFixed(1)} ms`;
  }
  document.body.dataset.plies = String(state.moves.length);
  perfectMove();
}

// The value history: one point per position, the first player's value: above the middle
// line for a win, below for a loss, as far from it as the end is plies away (the y axis
// counts them); on it for a tie or a draw. The x axis counts plies and names each move.
function chart(history) {
  const left = 64, right = 12, top = 22, bottom = 40;
  const width = 360, height = 210, inner = height - top - bottom, middle = top + inner / 2;
  const most = Math.max(1, ...history.map((h) => h.remoteness || 0));
  const step = history.length > 1 ? (width - left - right) / (history.length - 1) : 0;
  const half = inner / 2 - 6;
  const yOf = (k, r) => (k === "win" ? middle - 6 - (r / most) * (half - 6)
    : k === "loss" ? middle + 6 + (r / most) * (half - 6) : middle);
  const points = history.map((h, i) => {
    const k = kind(h.value_for_first);
    return { x: left + i * step, y: yOf(k, h.remoteness || 0), k, h };
  });
  const line = points.map((p) => `${p.x},${p.y}`).join(" ");
  const dots = points
    .map((p) => `<circle class="point ${p.k}" data-ply="${p.h.ply}" data-value="${p.h.value_for_first}" cx="${p.x}" cy="${p.y}" r="5"><title>ply ${p.h.ply}${p.h.move ? ` (${p.h.move})` : ""}: ${describe(p.h.value_for_first, p.h.remoteness)} for the first player</title></circle>`)
    .join("");
  // Axis labels: the remoteness at the top and bottom of each half, the plies below.
  const yTicks = [
    `<text class="y-tick" x="${left - 4}" y="${middle - half + 4}" text-anchor="end">win in ${most}</text>`,
    `<text class="y-tick" x="${left - 4}" y="${middle + 3}" text-anchor="end">tie/draw</text>`,
    `<text class="y-tick" x="${left - 4}" y="${middle + half + 4}" text-anchor="end">loss in ${most}</text>`,
  ].join("");
  const every = Math.max(1, Math.ceil(history.length / 12));
  const xTicks = points
    .filter((p, i) => i % every === 0 || i === points.length - 1)
    .map((p) => `<text class="x-tick" x="${p.x}" y="${top + inner + 14}" text-anchor="middle">${p.h.ply}</text>` +
      (p.h.move ? `<text class="x-move" x="${p.x}" y="${top + inner + 26}" text-anchor="middle">${p.h.move}</text>` : ""))
    .join("");
  const legend = `<text x="${left}" y="12">first player's value: ` +
    `<tspan class="legend-win">● win</tspan> <tspan class="legend-tie">● tie or draw</tspan> ` +
    `<tspan class="legend-loss">● loss</tspan></text>`;
  document.getElementById("chart").innerHTML =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}">${legend}` +
    `<line class="axis" x1="${left}" y1="${top}" x2="${left}" y2="${top + inner}"/>` +
    `<line class="axis" x1="${left}" y1="${middle}" x2="${width - right}" y2="${middle}"/>${yTicks}${xTicks}` +
    `<text x="${(left + width) / 2}" y="${height - 2}" text-anchor="middle">ply (move played)</text>` +
    `<polyline fill="none" stroke="#555" points="${line}"/>${dots}</svg>`;
}

function play(move) {
  if (!state.view || state.view.over) return;
  state.clicked = performance.now();
  state.redo = [];
  load([...state.moves, move], true);
}

function perfectMove() {
  const side = document.getElementById("computer").value;
  const view = state.view;
  if (side === "none" || view.over || view.mover !== side || view.best.length === 0) return;
  setTimeout(() => {
    if (state.view === view) play(view.best[0]);
  }, 300);
}

document.getElementById("undo").addEventListener("click", () => {
  if (!state.moves.length) return;
  state.redo.push(state.moves[state.moves.length - 1]);
  load(state.moves.slice(0, -1), true);
});
document.getElementById("redo").addEventListener("click", () => {
  if (!state.redo.length) return;
  load([...state.moves, state.redo.pop()], true);
});
document.getElementById("restart").addEventListener("click", () => {
  state.redo = [];
  load([], true);
});
document.getElementById("computer").addEventListener("change", () => perfectMove());
document.getElementById("blind").addEventListener("change", (event) => {
  state.blind = event.target.checked;
  document.body.classList.toggle("blind", state.blind);
  if (state.view) render(state.view);
});
window.addEventListener("popstate", () => load(movesFromUrl(), false));

fetch("api/game")
  .then((r) => r.json())
  .then((game) => {
    document.getElementById("title").textContent = `perfectplay: ${game.game}`;
    document.getElementById("source").textContent = game.source;
    document.getElementById("home").hidden = !game.home;
  });
load(movesFromUrl(), false);
