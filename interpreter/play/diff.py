"""What differs between two rulesets, at the level of the rules: options and their defaults,
players, cards and their attributes, zones, variables, functions, procedures, steps,
triggers, result and statistics, each said so that a player can read it (not a diff of
the YAML's lines: comments, quoting and layout do not count).

A step is shown as one line of its own (its kind and what it says); a changed list of
steps is shown as the steps removed and added, with the step before them for context.
"""
from __future__ import annotations

import difflib

import yaml

from ..lang.syntax import parse, unparse

SECTIONS = ("variables", "player_variables", "functions", "procedures", "events", "statistics")


class _Text(str):
    """A text of the rules that compares by what it means: an expression by its canonical
    spelling (spaces and brackets do not count), other text with its whitespace folded;
    it still reads as it was written."""

    def __new__(cls, text):
        self = super().__new__(cls, text)
        try:
            self.key = unparse(parse(text))
        except Exception:       # not an expression: a text, a name
            self.key = " ".join(text.split())
        return self

    def __eq__(self, other):
        return self.key == (other.key if isinstance(other, _Text) else other)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.key)


def canonical(value):
    """The data with each text a _Text (compared by meaning)."""
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    if isinstance(value, str):
        return _Text(value)
    return value


def _plain(value, keys: bool = False):
    """The data with plain strings again (`keys`: each text as it compares, for matching)."""
    if isinstance(value, dict):
        return {k: _plain(v, keys) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v, keys) for v in value]
    if isinstance(value, _Text) and keys:
        return value.key
    return str.__str__(value) if isinstance(value, str) else value


def rules_diff(a: dict, b: dict, deck_a, deck_b) -> list[str]:
    """The differences from ruleset data `a` to `b` (both valid rulesets), as lines; `deck_a`
    and `deck_b` are their built decks (ids and attribute tables), for the cards."""
    a, b = canonical(a), canonical(b)
    out = []
    for key in ("name", "title", "players"):
        if a.get(key) != b.get(key):
            out.append(f"{key}: {_short(a.get(key))} -> {_short(b.get(key))}")
    out += _options(a.get("options") or {}, b.get("options") or {})
    out += _deck(deck_a, deck_b)
    attrs_a = (a.get("deck") or {}).get("attributes") or {}
    attrs_b = (b.get("deck") or {}).get("attributes") or {}
    for name in attrs_b:
        if name in attrs_a and attrs_a[name] != attrs_b[name]:
            out.append(f"card attribute {name} reads: {_short(attrs_a[name])} -> {_short(attrs_b[name])}")
    out += _named("zones", a.get("zones") or {}, b.get("zones") or {})
    for section in SECTIONS:
        out += _named(section, a.get(section) or {}, b.get(section) or {})
    flow_a, flow_b = a.get("flow") or {}, b.get("flow") or {}
    for part in ("setup", "round", "end"):
        out += _steps(f"flow {part}", flow_a.get(part) or [], flow_b.get(part) or [])
    for key in ("until", "max_steps"):
        if flow_a.get(key) != flow_b.get(key):
            out.append(f"flow {key}: {_short(flow_a.get(key))} -> {_short(flow_b.get(key))}")
    out += _triggers(a.get("triggers") or [], b.get("triggers") or [])
    ra, rb = a.get("result") or {}, b.get("result") or {}
    for key in sorted(set(ra) | set(rb)):
        if ra.get(key) != rb.get(key):
            out.append(f"result {key}: {_short(ra.get(key))} -> {_short(rb.get(key))}")
    return out


def _short(value, width: int = 400) -> str:
    """A value on one line: YAML's flow style, folded whitespace."""
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        text = " ".join(str.__str__(value).split())
        return text if len(text) <= width else text[:width - 3] + "..."
    text = yaml.safe_dump(_plain(value), default_flow_style=True, allow_unicode=True, sort_keys=False, width=10 ** 6)
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 3] + "..."


def _options(a: dict, b: dict) -> list[str]:
    out = []
    for name in a:
        if name not in b:
            out.append(f"option {name} removed (was {_short(a[name].get('default'))})")
    for name, spec in b.items():
        if name not in a:
            out.append(f"option {name} added: {_short(spec.get('choices'))}, default {_short(spec.get('default'))}")
            continue
        old = a[name]
        if old.get("default") != spec.get("default"):
            out.append(f"option {name}: default {_short(old.get('default'))} -> {_short(spec.get('default'))}")
        for key in ("choices", "type", "min", "max"):
            if old.get(key) != spec.get(key):
                out.append(f"option {name}: {key} {_short(old.get(key))} -> {_short(spec.get(key))}")
    return out


def _deck(a, b) -> list[str]:
    out = []
    gone = [c for c in a.ids if c not in b.ids]
    new = [c for c in b.ids if c not in a.ids]
    if gone:
        out.append(f"cards removed: {', '.join(gone)}")
    if new:
        out.append(f"cards added: {', '.join(new)}")
    if len(a.ids) != len(b.ids) and not gone and not new:
        out.append(f"cards: {len(a.ids)} -> {len(b.ids)} (copies)")
    shared = [c for c in b.ids if c in a.ids]
    for attr in sorted(set(a.attrs) | set(b.attrs)):
        if attr in ("id",):
            continue
        if attr not in a.attrs:
            out.append(f"card attribute {attr} added")
            continue
        if attr not in b.attrs:
            out.append(f"card attribute {attr} removed")
            continue
        ta, tb = a.attrs[attr][1], b.attrs[attr][1]          # (type, values per card)
        changed = [(c, ta[a.ids.index(c)], tb[b.ids.index(c)]) for c in shared
                   if ta[a.ids.index(c)] != tb[b.ids.index(c)]]
        if changed:
            shown = ", ".join(f"{c} {_short(x)} -> {_short(y)}" for c, x, y in changed[:12])
            more = f" (and {len(changed) - 12} more)" if len(changed) > 12 else ""
            out.append(f"card attribute {attr}: {shown}{more}")
    return out


def _named(section: str, a: dict, b: dict) -> list[str]:
    """Entries of a section added, removed or changed; a changed procedure as its steps."""
    out = []
    what = section.rstrip("s").replace("_", " ")
    for name in a:
        if name not in b:
            out.append(f"{what} {name} removed")
    for name, value in b.items():
        if name not in a:
            out.append(f"{what} {name} added: {_short(value)}")
        elif a[name] != value:
            if section == "procedures" and isinstance(value, list) and isinstance(a[name], list):
                out += _steps(f"procedure {name}", a[name], value)
            elif isinstance(value, dict) and isinstance(a[name], dict):
                for key in list(a[name]) + [k for k in value if k not in a[name]]:
                    if a[name].get(key) != value.get(key):
                        out.append(f"{what} {name} {key}: {_short(a[name].get(key))} -> {_short(value.get(key))}")
            else:
                out.append(f"{what} {name}: {_short(a[name])} -> {_short(value)}")
    return out


def step_lines(steps, depth: int = 0) -> list[str]:
    """Each step as a line (nested steps indented beneath the step that holds them)."""
    out = []
    for step in steps:
        if isinstance(step, dict):
            nested = {k: v for k, v in step.items() if k in ("then", "else", "do", "answer", "steps")
                      and isinstance(v, list)}
            head = {k: v for k, v in step.items() if k not in nested}
            out.append("  " * depth + _short(head if head else step))
            for key, inner in nested.items():
                out.append("  " * (depth + 1) + f"{key}:")
                out += step_lines(inner, depth + 2)
        else:
            out.append("  " * depth + _short(step))
    return out


def _steps(where: str, a: list, b: list) -> list[str]:
    """Steps removed and added (matched by what they mean, shown as they are written)."""
    if a == b:
        return []
    la, lb = step_lines(a), step_lines(b)
    ka, kb = step_lines(_plain(a, keys=True)), step_lines(_plain(b, keys=True))
    out = [f"{where}:"]
    matcher = difflib.SequenceMatcher(a=ka, b=kb, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        context = la[i1 - 1].strip() if i1 > 0 else "(the start)"
        out.append(f"  after {context}")
        out += [f"  - {line}" for line in la[i1:i2]]
        out += [f"  + {line}" for line in lb[j1:j2]]
    return out


def _triggers(a: list, b: list) -> list[str]:
    """Triggers by their event and condition: added, removed, or with other steps."""
    def key(t):
        return (t.get("on"), t.get("when")) if isinstance(t, dict) else (None, None)
    ka, kb = {key(t): t for t in a}, {key(t): t for t in b}
    out = []
    for k, t in ka.items():
        if k not in kb:
            out.append(f"trigger on {k[0]}" + (f" when {_short(k[1])}" if k[1] else "") + " removed")
    for k, t in kb.items():
        name = f"trigger on {k[0]}" + (f" when {_short(k[1])}" if k[1] else "")
        if k not in ka:
            out.append(f"{name} added:")
            out += [f"  + {line}" for line in step_lines(t.get("do") or [])]
        elif ka[k] != t:
            out += _steps(name, ka[k].get("do") or [], t.get("do") or [])
    return out
