// The lobby's upload box, shown only when the server was started with --allow-uploads: a
// ruleset or house rule file sent as it is (POST /api/games?name=FILE), checked by the server
// as `interpret validate` checks a file; its problems are shown as the server words them
// (text, never markup), and a game it accepts is offered in the lobby at once.

import { el, fill } from "./dom.js";

const $ = (id) => document.getElementById(id);

/** `uploads`: /api/games's {allowed, max_bytes}; `offered(game)`: the lobby takes a new game;
 *  `say`: the lobby's words. */
export function startUploads(uploads, offered, say) {
  if (!uploads || uploads.allowed !== true) return;
  const most = Number(uploads.max_bytes) || 0;
  fill($("upload-explain"), say("upload_explain", { most: most ? say("at_most", { size: kib(most) }) : "" }));
  $("upload-box").hidden = false;
  $("upload-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send($("upload-file").files[0], most, offered, say);
  });
}

function kib(bytes) {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MiB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

async function send(file, most, offered, say) {
  const status = $("upload-status");
  show([]);
  if (!file) { fill(status, say("choose_file")); return; }
  if (most && file.size > most) { fill(status, say("too_big", { file: file.name, size: kib(most) })); return; }
  const button = $("upload-send");
  button.disabled = true;
  fill(status, say("checking", { file: file.name }));
  try {
    const response = await fetch(`/api/games?name=${encodeURIComponent(file.name)}`, {
      method: "POST", headers: { "Content-Type": "application/yaml", Accept: "application/json" }, body: file,
    });
    let answer = {};
    try { answer = await response.json(); } catch (e) { /* said below */ }
    if (response.status === 201 && answer.game) {
      fill(status, say("offered", { game: answer.game.title || answer.game.id }));
      offered(answer.game);
      return;
    }
    fill(status, typeof answer.error === "string" ? say("not_offered", { why: answer.error })
      : say("not_offered_status", { status: response.status }));
    show(Array.isArray(answer.problems) ? answer.problems.filter((p) => typeof p === "string") : []);
  } catch (e) {
    fill(status, say("unreachable"));
  } finally {
    button.disabled = false;
  }
}

function show(problems) {
  const box = $("upload-problems");
  box.hidden = !problems.length;
  fill(box, problems.map((p) => el("li", {}, el("pre", {}, p))));
}
