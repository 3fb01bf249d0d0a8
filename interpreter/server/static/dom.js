// Small helpers shared by the lobby and the table.
//
// Every text that comes from a game or from the server (titles, names, card faces, the
// account, errors) is put into the page as text, never as markup: a ruleset may name a card
// '<img onerror=...>' and it is shown as written.  Nothing here sets innerHTML.

/** An element with attributes and children (strings become text nodes, null is skipped). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

// A deck's `color` attribute names a colour for the terminal (rich's names: "red", "default",
// "bright_blue", or "#rrggbb").  On a white card face each name is given a shade that reads
// well (a class of style.css, so the server's Content-Security-Policy, which allows no inline
// style, has nothing to refuse); a name the page does not know leaves the card in its text colour.
const SHADES = new Set(["red", "black", "blue", "green", "yellow", "magenta", "cyan", "white", "purple", "orange"]);

/** The class of a card's `color` ("shade-red"), or "" for the card's ordinary text colour. */
export function shadeOf(color) {
  if (typeof color !== "string") return "";
  const name = color.trim().toLowerCase().replace(/^(bright_|dark_)/, "");
  return SHADES.has(name) ? `shade-${name}` : "";
}

/** A card face: its text, in its colour.  `label` is what a screen reader says, when the
 *  face alone would not do (a move's 'play Q♠'). */
export function cardFace(card, label = null) {
  const face = el("span", { class: "card", "aria-label": label }, card.text);
  const shade = shadeOf(card.color);
  if (shade) face.classList.add(shade);
  if ([...card.text].length > 3) face.classList.add("wide");
  return face;
}

/** The back of `n` cards that cannot be seen: one back with the count on it. */
export function cardBacks(n, words) {
  return el("span", { class: "backs", role: "img", "aria-label": words },
    el("span", { class: "card back", "aria-hidden": "true" }),
    el("span", { class: "count", "aria-hidden": "true" }, `×${n}`));
}

/** "1 card" or "n cards". */
export function cardsWord(n) {
  return n === 1 ? "1 card" : `${n} cards`;
}

/** A link the server gave (a path on this server) as an absolute address, or null when it
 *  is not one of ours: a link to another site is never shown or followed. */
export function ourLink(path, prefix = "/table/") {
  if (typeof path !== "string" || !path.startsWith(prefix) || path.startsWith("//")) return null;
  const url = new URL(path, location.origin);
  return url.origin === location.origin ? url.href : null;
}

/** Copy `text`, through the clipboard where the page may use it (localhost, https), else by
 *  selecting the field and the older copy command.  Says whether it worked. */
export async function copyText(text, field) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (e) { /* fall back below */ }
  if (!field) return false;
  field.focus();
  field.select();
  try { return document.execCommand("copy"); } catch (e) { return false; }
}
