// The lobby's upload box, shown only when the server was started with --allow-uploads: a
// ruleset or house rule file sent as it is (POST /api/games?name=FILE), checked by the server
// as `interpret validate` checks a file; its problems are shown as the server words them
// (text, never markup), and a game it accepts is offered in the lobby at once.

import { el, fill } from "./dom.js";

const $ = (id) => document.getElementById(id);

/** `uploads`: /api/games's {allowed, max_bytes}; `offered(game)`: the lobby takes a new game. */
export function startUploads(uploads, offered) {
  if (!uploads || uploads.allowed !== true) return;
  const most = Number(uploads.max_bytes) || 0;
  fill($("upload-limit"), most ? `at most ${kib(most)}` : "");
  $("upload-box").hidden = false;
  $("upload-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send($("upload-file").files[0], most, offered);
  });
}

function kib(bytes) {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MiB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

async function send(file, most, offered) {
  const status = $("upload-status");
  show([]);
  if (!file) { fill(status, "Choose a file first."); return; }
  if (most && file.size > most) { fill(status, `${file.name} is larger than ${kib(most)}: it was not sent.`); return; }
  const button = $("upload-send");
  button.disabled = true;
  fill(status, `Checking ${file.name}…`);
  try {
    const response = await fetch(`/api/games?name=${encodeURIComponent(file.name)}`, {
      method: "POST", headers: { "Content-Type": "application/yaml", Accept: "application/json" }, body: file,
    });
    let answer = {};
    try { answer = await response.json(); } catch (e) { /* said below */ }
    if (response.status === 201 && answer.game) {
      fill(status, `${answer.game.title || answer.game.id} is offered now: choose it below to make a table.`);
      offered(answer.game);
      return;
    }
    fill(status, typeof answer.error === "string" ? `Not offered: ${answer.error}.` : `Not offered (the server answered ${response.status}).`);
    show(Array.isArray(answer.problems) ? answer.problems.filter((p) => typeof p === "string") : []);
  } catch (e) {
    fill(status, "The server could not be reached. Check that it is still running, then try again.");
  } finally {
    button.disabled = false;
  }
}

function show(problems) {
  const box = $("upload-problems");
  box.hidden = !problems.length;
  fill(box, problems.map((p) => el("li", {}, el("pre", {}, p))));
}
