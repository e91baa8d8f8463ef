// perfectplay's home page: every game with its rules in a line and its parameters in
// fields; "Explore" solves it on the server (or finds its book) and opens its explorer.
"use strict";

function card(game) {
  const section = document.createElement("article");
  section.className = "game";
  section.dataset.game = game.name;
  const title = document.createElement("h2");
  title.textContent = game.name;
  const rules = document.createElement("p");
  rules.className = "rules";
  rules.textContent = game.summary;
  const form = document.createElement("form");
  for (const param of game.parameters) {
    const label = document.createElement("label");
    label.textContent = `${param.name} (${param.type}) `;
    const input = document.createElement("input");
    input.name = param.name;
    input.value = param.default === null ? "" : param.default;
    input.placeholder = param.default === null ? "required" : "";
    label.appendChild(input);
    form.appendChild(label);
  }
  const button = document.createElement("button");
  button.type = "submit";
  button.textContent = "Explore";
  form.appendChild(button);
  const error = document.createElement("p");
  error.className = "error";
  error.setAttribute("role", "alert");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    button.disabled = true;
    button.textContent = "Solving...";
    const query = new URLSearchParams({ game: game.name });
    for (const input of form.querySelectorAll("input")) {
      if (input.value.trim() !== "") query.append("p", `${input.name}=${input.value.trim()}`);
    }
    const response = await fetch(`/api/open?${query}`);
    const data = await response.json();
    button.disabled = false;
    button.textContent = "Explore";
    if (!response.ok) {
      error.textContent = data.error;
      return;
    }
    window.location.href = data.url;
  });
  section.append(title, rules, form, error);
  return section;
}

fetch("/api/games")
  .then((r) => r.json())
  .then((data) => {
    const list = document.getElementById("games");
    for (const game of data.games) list.appendChild(card(game));
    document.body.dataset.ready = "yes";
  });
