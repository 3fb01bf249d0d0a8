// The lobby: the games this server offers, and a form that makes a table of one of them.
// The server checks everything the form sends (the form offers only what /api/games lists,
// but a request can say anything); a refusal is shown in the server's words.

import { el, fill, ourLink, copyText } from "./dom.js";
import { startUploads } from "./upload.js";
import { ourLanguage, sayAll, wordsFor } from "./words.js";

const $ = (id) => document.getElementById(id);
const LANG = ourLanguage(navigator.language);     // the lobby speaks the browser's language, where it is one of ours
const say = wordsFor(LANG);
const BOTS_SAID = new Set(["random", "mc", "ismcts"]);

const lobby = { games: [], seats: [] };     // seats: what each seat's controls hold, kept across redraws

async function start() {
  document.documentElement.lang = LANG;
  document.title = `${say("lobby_title")} — card-interpreter`;
  sayAll(document, say);
  let answer;
  try {
    const response = await fetch("/api/games", { headers: { Accept: "application/json" } });
    answer = await response.json();
    if (!response.ok) throw new Error(answer.error || say("answered", { status: response.status }));
  } catch (e) {
    $("games-loading").hidden = true;
    problem($("problem"), say("not_loaded", { why: e.message }));
    return;
  }
  lobby.games = Array.isArray(answer.games) ? answer.games : [];
  $("games-loading").hidden = true;
  drawGames();
  startUploads(answer.uploads, offered, say);
  if (!lobby.games.length) {
    problem($("problem"), say("no_games"));
    return;
  }
  showForm();
  drawForm();
}

/** The form, its game choice listing the games offered (once: its listeners are added then). */
function showForm() {
  fill($("game"), lobby.games.map((g) => el("option", { value: g.id }, g.title || g.id)));
  if (!$("table-form").hidden) return;
  problem($("problem"), null);
  $("game").addEventListener("change", drawForm);
  $("players").addEventListener("change", drawSeats);
  $("table-form").addEventListener("submit", makeTable);
  $("table-form").hidden = false;
}

/** A game just uploaded: listed, in the form's choice, and chosen. */
function offered(game) {
  lobby.games = lobby.games.filter((g) => g.id !== game.id).concat([game]);
  drawGames();
  showForm();
  $("game").value = game.id;
  drawForm();
}

function playersWords(players) {
  if (!players) return "";
  return players.min === players.max ? say("n_players", { n: players.min })
    : say("range_players", { min: players.min, max: players.max });
}

function drawGames() {
  fill($("games"), lobby.games.map((game) => el("li", { class: "game" },
    el("h3", {}, game.title || game.id),
    el("p", { class: "players" }, playersWords(game.players)),
    el("p", { class: "description" }, game.description || ""),
    el("button", { type: "button", class: "choose", "aria-label": say("choose_game", { game: game.title || game.id }),
      onclick: () => choose(game.id) }, say("choose")))));
}

function choose(id) {
  $("game").value = id;
  drawForm();
  $("game").focus();
}

function chosen() {
  return lobby.games.find((g) => g.id === $("game").value) || lobby.games[0];
}

function drawForm() {
  const game = chosen();
  fill($("game-description"), game.description || "");
  const players = game.players || { min: 2, max: 2, default: 2 };
  const counts = [];
  for (let n = players.min; n <= players.max; n++) counts.push(n);
  fill($("players"), counts.map((n) => el("option", { value: n, selected: n === players.default }, String(n))));
  const languages = game.languages && game.languages.length ? game.languages : ["en"];
  const wanted = LANG;
  fill($("lang"), languages.map((code) => el("option", { value: code, selected: code === wanted }, languageName(code))));
  drawOptions(game.options || []);
  drawSeats();
}

function languageName(code) {
  try {
    const name = new Intl.DisplayNames([code], { type: "language" }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch (e) {
    return code;
  }
}

function drawOptions(options) {
  $("options-box").hidden = !options.length;
  fill($("options"), options.map((option, i) => {
    const id = `option-${i}`;
    const explain = option.explain ? el("p", { class: "explain", id: `${id}-explain` }, option.explain) : null;
    const said = Array.isArray(option.explain_choices) ? option.explain_choices : [];   // a choice's own words, where the server gives them
    const choices = (option.choices || []).map((c, k) => el("option", { value: c, selected: c === option.default },
      typeof said[k] === "string" && said[k] ? `${c} — ${said[k]}` : String(c)));
    return el("div", { class: "field option" },
      el("label", { for: id }, option.name),
      el("select", { id, "data-option": option.name, "aria-describedby": explain ? `${id}-explain` : null }, choices),
      explain);
  }));
}

function drawSeats() {
  const game = chosen();
  const count = Number($("players").value);
  const bots = game.bots && game.bots.length ? game.bots : ["random"];
  const strengths = strengthsOf(game);
  const items = [];
  for (let i = 0; i < count; i++) {
    const kept = lobby.seats[i] || { kind: i === 0 ? "person" : "bot", name: "", bot: bots[0], strengths: {} };
    if (!bots.includes(kept.bot)) kept.bot = bots[0];
    lobby.seats[i] = kept;
    items.push(seatChoice(i, kept, bots, strengths));
  }
  fill($("seats"), items);
}

/** Each bot's strengths as /api/games gives them ({choices, default, explain_choices}); a bot
 *  that is not there (random) has none, and is sent without one. */
function strengthsOf(game) {
  const out = {};
  const given = game.strengths && typeof game.strengths === "object" ? game.strengths : {};
  for (const [bot, s] of Object.entries(given)) {
    if (s && Array.isArray(s.choices) && s.choices.length) out[bot] = s;
  }
  return out;
}

function strengthChoice(i, kept, strengths) {
  const select = el("select", { id: `seat-${i}-strength`, "aria-label": say("seat_strength", { n: i + 1 }) });
  const draw = () => {
    const offered = strengths[kept.bot];
    if (!offered) { fill(select, []); return; }
    const wanted = offered.choices.includes(kept.strengths[kept.bot]) ? kept.strengths[kept.bot] : offered.default;
    const said = Array.isArray(offered.explain_choices) ? offered.explain_choices : [];
    fill(select, offered.choices.map((c, k) => el("option", { value: c, selected: c === wanted },
      typeof said[k] === "string" && said[k] ? `${c} — ${said[k]}` : String(c))));
    select.value = wanted;
    kept.strengths[kept.bot] = select.value;
  };
  select.addEventListener("change", () => { kept.strengths[kept.bot] = select.value; });
  return { select, draw };
}

function seatChoice(i, kept, bots, strengths) {
  const kind = el("select", { id: `seat-${i}-kind`, "aria-label": say("seat_who", { n: i + 1 }) },
    el("option", { value: "person", selected: kept.kind === "person" }, say("a_person")),
    el("option", { value: "bot", selected: kept.kind === "bot" }, say("a_bot")));
  const name = el("input", { id: `seat-${i}-name`, type: "text", maxlength: 40, value: kept.name,
    placeholder: say("player_n", { n: i + 1 }), autocomplete: "off", "aria-label": say("seat_name", { n: i + 1 }) });
  const bot = el("select", { id: `seat-${i}-bot`, "aria-label": say("seat_bot", { n: i + 1 }) },
    bots.map((b) => el("option", { value: b, selected: b === kept.bot }, BOTS_SAID.has(b) ? say(`bot_${b}`) : b)));
  const strength = strengthChoice(i, kept, strengths);
  const show = () => {
    name.hidden = kind.value !== "person";
    bot.hidden = kind.value !== "bot";
    strength.select.hidden = kind.value !== "bot" || !strengths[kept.bot];
  };
  kind.addEventListener("change", () => { kept.kind = kind.value; show(); });
  name.addEventListener("input", () => { kept.name = name.value; });
  bot.addEventListener("change", () => { kept.bot = bot.value; strength.draw(); show(); });
  strength.draw();
  show();
  return el("li", { class: "seat-choice" }, el("span", { class: "seat-number" }, say("seat_label", { n: i + 1 })), kind, name, bot,
    strength.select);
}

/** What the form asks for, as POST /api/tables takes it. */
function request() {
  const options = {};
  for (const select of $("options").querySelectorAll("select[data-option]")) options[select.dataset.option] = select.value;
  const count = Number($("players").value);
  const strengths = strengthsOf(chosen());
  const seats = lobby.seats.slice(0, count).map((s, i) => s.kind === "person"
    ? { kind: "person", name: s.name.trim() || say("player_n", { n: i + 1 }) }
    : strengths[s.bot] ? { kind: "bot", bot: s.bot, strength: s.strengths[s.bot] } : { kind: "bot", bot: s.bot });
  return { game: chosen().id, players: count, options, lang: $("lang").value, seats };
}

async function makeTable(event) {
  event.preventDefault();
  const button = $("make");
  problem($("form-error"), null);
  button.disabled = true;
  try {
    const response = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(request()),
    });
    let answer = {};
    try { answer = await response.json(); } catch (e) { /* said below */ }
    if (response.status !== 201) {
      problem($("form-error"), typeof answer.error === "string" && answer.error
        ? say("not_made", { why: answer.error }) : say("not_made_status", { status: response.status }));
      return;
    }
    drawLinks(answer);
  } catch (e) {
    problem($("form-error"), say("unreachable"));
  } finally {
    button.disabled = false;
  }
}

function drawLinks(answer) {
  const items = (answer.seats || []).map((seat) => {
    const who = say("seat_who_name", { n: seat.seat + 1, name: seat.name });
    if (seat.kind !== "person") return el("li", { class: "link bot" }, el("strong", {}, who), say("bot_no_link"));
    return linkItem(who, seat.link, `seat-link-${seat.seat}`);
  });
  if (answer.spectator) items.push(linkItem(say("watchers"), answer.spectator, "spectator-link"));
  fill($("links"), items);
  $("made").hidden = false;
  $("made").focus();
}

function linkItem(who, path, id) {
  const link = ourLink(path);
  if (!link) return el("li", { class: "link" }, el("span", { class: "who" }, who), say("no_link"));
  const field = el("input", { id, type: "text", readonly: true, value: link, class: "link-field",
    "aria-label": say("link_of", { who }) });
  const said = el("span", { class: "copied", role: "status" });
  const copy = el("button", { type: "button", class: "copy", "aria-label": say("copy_for", { who }),
    onclick: async () => fill(said, say((await copyText(link, field)) ? "copied" : "copy_by_hand")) }, say("copy"));
  const open = el("a", { href: link, target: "_blank", rel: "noopener", class: "button-link" }, say("open"));
  return el("li", { class: "link" }, el("label", { for: id, class: "who" }, who),
    el("div", { class: "link-row" }, field, copy, open, said));
}

function problem(line, text) {
  line.hidden = !text;
  fill(line, text || "");
}

start();
