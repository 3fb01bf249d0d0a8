// The table page: one seat's view of one game, drawn from the server's `state` frames.
//
// The page decides nothing: the moves it offers are the `moves` of the last frame, a move is
// sent as the index of one of them with the decision count it was offered at, and the server
// answers with the next state (or an error, which changes nothing).  The seat's secret is the
// address's fragment, which the browser never sends in a request; it goes only in the hello.

import { el, fill, cardFace, cardBacks, ourLink } from "./dom.js";
import { Connection, socketAddress } from "./protocol.js";
import { cardsIn, sayAll, wordsFor } from "./words.js";

const $ = (id) => document.getElementById(id);
const KEPT_ENTRIES = 1000;          // the account keeps this many lines on the page

const ERRORS = new Set(["stale", "not_your_turn", "bad_option", "over", "rate_limited", "bad_token", "too_large"]);

const page = {
  table: null,
  token: "",
  last: null,             // the last state frame
  lastEntry: -1,          // the highest account entry number shown (its `n`)
  sent: null,             // the decision count a move was sent at, while its answer is awaited
  shownOver: false,       // the result has been announced
  connection: null,
  lang: null,             // the table's language, once a frame gave it
  status: null,           // [the connection's status, its delay], as last shown
  say: wordsFor(navigator.language),      // the page's words: the browser's language until the table's is known
};

function start() {
  const match = location.pathname.match(/^\/table\/([A-Za-z0-9_-]+)\/?$/);
  page.table = match ? match[1] : null;
  page.token = fragment();
  if (!page.table || !page.token) {
    sayAll(document, page.say);
    notice(page.say("no_secret"));
    fill($("connection"), page.say("not_connected"));
    return;
  }
  sayAll(document, page.say);
  $("hint-button").addEventListener("click", () => ask("hint", page.say("hint")));
  $("rules-button").addEventListener("click", () => ask("rules", page.say("rules")));
  $("panel-close").addEventListener("click", () => { $("panel").hidden = true; $("hint-button").focus(); });
  $("rematch-button").addEventListener("click", rematch);
  $("abandon-button").addEventListener("click", () => confirmAbandon(true));
  $("abandon-no").addEventListener("click", () => confirmAbandon(false));
  $("abandon-yes").addEventListener("click", abandon);
  document.addEventListener("keydown", digitPicksMove);
  page.connection = new Connection(socketAddress(), hello, onFrame, showConnection);
  page.connection.open();
}

/** The seat's secret: the address's fragment (base64url; a copy that escaped it is read back). */
function fragment() {
  const raw = location.hash.slice(1);
  try { return decodeURIComponent(raw); } catch (e) { return raw; }
}

/** The hello frame: the table, the secret, and the account entries the page already has. */
function hello() {
  const frame = { type: "hello", table: page.table, token: page.token };
  if (page.lastEntry >= 0) frame.since = page.lastEntry;
  return frame;
}

function onFrame(frame) {
  switch (frame.type) {
    case "state": return frame.table === page.table ? drawState(frame) : undefined;
    case "error": return showError(frame);
    case "hint": return showPanel(page.say("hint"), frame.text);
    case "rules": return showPanel(page.say("rules"), frame.text);
    case "rematch": return showRematch(frame);
    default: return;             // pong, and anything newer than this page
  }
}

function showConnection(status, delay) {
  page.status = [status, delay];
  drawConnection();
  if (status === "open") page.sent = null;      // a move whose answer was lost with the connection: the hello's state says where the table is
  document.body.classList.toggle("offline", status !== "open");
}

function drawConnection() {
  const [status, delay] = page.status;
  const say = page.say;
  const words = {
    connecting: say("connecting"),
    open: say("connected"),
    waiting: say("lost", { s: Math.max(1, Math.round((delay || 0) / 1000)) }),
    stopped: say("not_connected"),
  }[status];
  const line = $("connection");
  if (line.textContent !== words) fill(line, words);
  line.dataset.status = status;
}

// ---- the state ------------------------------------------------------------------------------

function drawState(frame) {
  const previous = page.last;
  page.last = frame;
  if (page.sent !== null && frame.decisions !== page.sent) page.sent = null;
  if (previous && previous.decisions !== frame.decisions) notice(null);
  if (frame.lang && frame.lang !== page.lang) speak(frame.lang);
  const seated = frame.seat !== null && frame.seat !== undefined;
  $("watching").hidden = seated;
  $("abandon-button").hidden = !seated || frame.over;
  $("hint-button").hidden = !seated || frame.over;          // a hint is for one's own decision
  if (frame.over) $("abandon-confirm").hidden = true;
  const view = frame.view || {};
  drawHeader(frame, view);
  drawValues(view);
  drawShared(view);
  drawSeats(frame, view);
  drawTurn(frame, previous);
  drawHand(frame, view);
  addEntries(frame.account || []);
  drawResult(frame);
}

/** The page in the table's language: its own words, and the language screen readers use. */
function speak(lang) {
  page.lang = lang;
  page.say = wordsFor(lang);
  document.documentElement.lang = lang;
  sayAll(document, page.say);
  if (page.status) drawConnection();
}

function drawHeader(frame, view) {
  const title = view.title || frame.title || page.say("table");
  fill($("title"), title);
  fill($("round"), view.round_label || "");
  fill($("facts"), (view.facts || []).join(" · "));
  const mine = (frame.moves || []).length > 0;
  document.title = `${mine ? `${page.say("title_your_turn")} ` : ""}${title} — card-interpreter`;
}

function drawValues(view) {
  const values = view.values || [];
  fill($("values"), values.map(([label, text]) =>
    el("div", { class: "value" }, el("dt", {}, label), el("dd", {}, text))));
}

function drawShared(view) {
  fill($("shared"), (view.shared || []).map((pile) =>
    el("div", { class: "pile shared-pile" }, el("h3", {}, pile.label), pileContent(pile))));
}

/** A pile's cards in the groups they arrived in (a trick won stays a trick), and how many of
 *  its cards this seat cannot see, as the terminal draws them (cli/drawing.py pile_cell). */
function pileContent(pile) {
  const groups = pile.groups || [];
  const hidden = pile.hidden || 0;
  if (!groups.length && !hidden) return el("span", { class: "empty" }, "—");
  const bracket = groups.length > 1 || groups.some((g) => g.length > 1);
  const parts = groups.map((group) =>
    el("span", { class: bracket ? "group bracketed" : "group" }, group.map((card) => cardFace(card))));
  if (hidden) {
    const words = groups.length ? page.say("face_down", { n: hidden }) : cardsIn(page.say, hidden);
    parts.push(cardBacks(hidden, words));
  }
  return el("span", { class: "cards" }, parts);
}

function drawSeats(frame, view) {
  const seats = new Map((frame.seats || []).map((s) => [s.seat, s]));
  const rows = view.rows || [];
  const inHand = new Set((view.hand || []).map((pile) => pile.label));    // your own hand: drawn whole below
  fill($("seats"), rows.map((row) =>
    seatItem({ ...row, to_play: row.to_play && !frame.over }, seats.get(row.seat) || {}, inHand)));
}

/** Your own hand's pile in your row: how many cards, which "Your hand" shows face up below
 *  (the layout counts it there, as the terminal does), not card backs. */
function ownPile(pile) {
  return el("span", { class: "in-hand" }, page.say("shown_below", { cards: cardsIn(page.say, pile.hidden || 0) }));
}

function seatItem(row, seat, inHand = new Set()) {
  const classes = ["seat", row.to_play ? "to-play" : "", row.you ? "you" : "", row.out ? "out" : ""];
  const presence = seat.kind === "bot"
    ? el("span", { class: "kind" }, page.say("bot"))
    : el("span", { class: seat.connected ? "presence online" : "presence offline" },
      page.say(seat.connected ? "online" : "offline"));
  const head = el("div", { class: "seat-head" },
    el("span", { class: "marker", "aria-hidden": "true" }, row.to_play ? "▶" : ""),
    el("strong", { class: "name" }, row.name),
    row.you ? el("span", { class: "you-tag" }, page.say("you")) : null,
    row.to_play ? el("span", { class: "visually-hidden" }, page.say("to_play_mark")) : null,
    row.out ? el("span", { class: "out-tag" }, page.say("out")) : null,
    row.team ? el("span", { class: "team-tag" }, row.team) : null,
    presence);
  const values = el("dl", { class: "values small" }, (row.values || []).map(([label, text]) =>
    el("div", { class: "value" }, el("dt", {}, label), el("dd", {}, text))));
  const own = (pile) => row.you && inHand.has(pile.label) && !(pile.groups || []).length;
  const piles = el("div", { class: "seat-piles" }, (row.piles || []).map((pile) =>
    el("div", { class: "pile" }, el("span", { class: "pile-label" }, pile.label),
      own(pile) ? ownPile(pile) : pileContent(pile))));
  return el("li", { class: classes.filter(Boolean).join(" ") }, head, values, piles);
}

function drawTurn(frame, previous) {
  const moves = frame.moves || [];
  const names = new Map((frame.seats || []).map((s) => [s.seat, s.name]));
  let words = "";
  const say = page.say;
  if (moves.length) words = frame.prompt ? say("your_turn_prompt", { prompt: frame.prompt }) : say("your_turn");
  else if (!frame.over && frame.to_play !== null && frame.to_play !== undefined) {
    const name = names.get(frame.to_play) ?? say("seat_n", { n: frame.to_play + 1 });
    words = say(frame.seat === null || frame.seat === undefined ? "to_play" : "waiting_for", { name });
  }
  fill($("turn"), words);
  $("moves-section").hidden = Boolean(frame.over);
  $("moves-section").classList.toggle("mine", moves.length > 0);
  const wasMine = previous && (previous.moves || []).length > 0 && previous.decisions === frame.decisions;
  if (moves.length && !wasMine) fill($("announce"), words);
  const unique = new Set(moves.map((m) => m.card && m.card.text)).size === moves.length;
  const focused = $("moves-section").contains(document.activeElement);
  fill($("moves"), moves.map((move, i) => moveItem(move, i, unique)));
  // a keyboard's place is kept: the move just made is gone, so the next ones (or the box) get it
  if (focused) {
    const first = $("moves").querySelector("button");
    (first || $("moves-section")).focus();
  }
}

function moveItem(move, i, unique) {
  const content = [];
  if (i < 9) content.push(el("span", { class: "key", "aria-hidden": "true" }, String(i + 1)));
  if (move.card) {
    content.push(cardFace(move.card));
    if (!unique) content.push(el("span", { class: "caption" }, move.label));
  } else {
    content.push(el("span", { class: "label" }, move.label));
  }
  const button = el("button", {
    type: "button", class: move.card ? "move card-move" : "move", "aria-label": move.label,
    title: move.label, "aria-keyshortcuts": i < 9 ? String(i + 1) : null,
    "aria-disabled": page.sent !== null ? "true" : null,
    onclick: () => sendMove(move.index),
  }, content);
  return el("li", {}, button);
}

function drawHand(frame, view) {
  const hand = view.hand || [];
  const cards = hand.reduce((n, pile) => n + (pile.groups || []).flat().length, 0);
  $("hand-section").hidden = frame.seat === null || frame.seat === undefined || !hand.length || (frame.over && !cards);
  const playable = new Map();
  for (const move of frame.moves || []) {
    if (move.card && !playable.has(move.card.text)) playable.set(move.card.text, move.index);
  }
  fill($("hand-heading"), hand.length === 1 ? page.say("your_zone", { zone: hand[0].label }) : page.say("your_cards"));
  fill($("hand"), hand.map((pile) => el("div", { class: "pile hand-pile" },
    hand.length > 1 ? el("h3", {}, pile.label) : null,
    handCards(pile, playable))));
}

/** The seat's own cards; those it may play now are marked, and a click plays one (the moves
 *  above are the way there by keyboard, so these stay out of the Tab order). */
function handCards(pile, playable) {
  const cards = (pile.groups || []).flat();
  if (!cards.length) return el("span", { class: "empty" }, "—");
  return el("span", { class: "cards" }, cards.map((card) => {
    const face = cardFace(card);
    if (playable.has(card.text)) {
      face.classList.add("playable");
      face.addEventListener("click", () => sendMove(playable.get(card.text)));
    } else if (playable.size) {
      face.classList.add("idle");
    }
    return face;
  }));
}

function addEntries(entries) {
  const list = $("account");
  const box = list;
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  for (const entry of entries) {
    if (typeof entry.n === "number") {
      if (entry.n <= page.lastEntry) continue;     // already shown (a reconnect's overlap)
      page.lastEntry = entry.n;
    }
    const text = typeof entry.text === "string" ? entry.text : "";
    const round = text.match(/^-- (.+) --$/);       // the server's line at a round's start
    list.append(round ? el("li", { class: "round-start" }, round[1]) : el("li", {}, text));
  }
  while (list.children.length > KEPT_ENTRIES) list.firstElementChild.remove();
  list.setAttribute("aria-live", "polite");     // after the first frame: the history it brought is not read out
  if (atBottom || entries.length) box.scrollTop = box.scrollHeight;
}

function drawResult(frame) {
  const section = $("result-section");
  const ended = frame.over && !page.shownOver;
  section.hidden = !frame.over;
  if (!frame.over) return;
  page.shownOver = true;
  const result = frame.result || {};
  if (ended) fill($("announce"), page.say("over_announce", { text: result.text || "" }).trim());
  fill($("result-text"), result.text || "");
  const winners = result.winners || [];
  fill($("winners"), winners.length ? page.say(winners.length === 1 ? "winner" : "winners", { names: winners.join(", ") }) : "");
  const scores = result.scores || [];
  $("scores").hidden = !scores.length;
  fill($("scores").tBodies[0], scores.map((s) =>
    el("tr", { class: winners.includes(s.name) ? "winner" : "" }, el("th", { scope: "row" }, s.name), el("td", {}, String(s.score)))));
  $("rematch-button").hidden = frame.seat === null || frame.seat === undefined;
  $("record-link").href = `/api/tables/${encodeURIComponent(page.table)}/record?token=${encodeURIComponent(page.token)}`;
}

// ---- what the seat does ------------------------------------------------------------------

function sendMove(index) {
  const frame = page.last;
  if (!frame || page.sent !== null) return;
  if (!(frame.moves || []).some((m) => m.index === index)) return;
  if (!page.connection.send({ type: "move", decision: frame.decisions, option: index })) {
    notice(page.say("not_sent"));
    return;
  }
  page.sent = frame.decisions;
  for (const button of $("moves").querySelectorAll("button")) button.setAttribute("aria-disabled", "true");
}

/** Digits 1-9 pick the numbered move (not while typing in a field, nor with a modifier). */
function digitPicksMove(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
  if (!/^[1-9]$/.test(event.key)) return;
  const moves = (page.last && page.last.moves) || [];
  const move = moves[Number(event.key) - 1];
  if (!move) return;
  event.preventDefault();
  sendMove(move.index);
}

function ask(type, heading) {
  if (!page.connection.send({ type })) {
    notice(page.say("reconnecting"));
    return;
  }
  showPanel(heading, "…");
  $("panel-heading").focus();
  $("panel").scrollIntoView({ block: "nearest" });
}

/** Abandoning asks first: a second, explicit button, and focus back where it was on "no". */
function confirmAbandon(asking) {
  $("abandon-confirm").hidden = !asking;
  (asking ? $("abandon-no") : $("abandon-button")).focus();
}

function abandon() {
  $("abandon-confirm").hidden = true;
  if (!page.connection.send({ type: "abandon" })) {
    notice(page.say("reconnecting"));
  }
}

function rematch() {
  if (page.connection.send({ type: "rematch" })) {
    fill($("rematch"), page.say("asking_rematch"));
  } else {
    notice(page.say("reconnecting"));
  }
}

// ---- answers ------------------------------------------------------------------------------

function showPanel(heading, text) {
  fill($("panel-heading"), heading);
  fill($("panel-text"), typeof text === "string" ? text : "");
  $("panel").hidden = false;
}

function showRematch(frame) {
  const link = ourLink(frame.link);
  if (!link) return;
  fill($("rematch"), `${page.say("rematch_ready")} `, el("a", { href: link, class: "button-link" }, page.say("rematch_go")));
}

function showError(frame) {
  const words = ERRORS.has(frame.code) ? page.say(frame.code) : null;
  const message = typeof frame.message === "string" ? frame.message : "";
  // the server's own words first at an English table (they say the most); ours where it says
  // none, at a table in another language (the server's refusals are English), and for a link
  // that cannot work, which needs advice more than a reason
  const ours = frame.code === "bad_token" || (words && page.lang && page.lang !== "en");
  notice(ours ? words : message || words || page.say("refused"));
  if ($("panel-text").textContent === "…") $("panel").hidden = true;      // a hint or the rules refused
  if (page.sent !== null) {
    page.sent = null;
    for (const button of $("moves").querySelectorAll("button")) button.removeAttribute("aria-disabled");
  }
  if (frame.code === "bad_token") page.connection.stop();
}

/** A polite line above the table (null: take it away). */
function notice(text) {
  const line = $("notice");
  line.hidden = !text;
  fill(line, text || "");
}

start();
