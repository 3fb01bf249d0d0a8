"""What differs between two rulesets, at the level of the rules: options and their defaults,
players, cards and their attributes, zones, variables, functions, procedures, steps,
triggers, result and statistics, each said so that a player can read it (not a diff of
the YAML's lines: comments, quoting and layout do not count).

A step is shown as one line of its own (its kind and what it says), the steps it holds
(`then`, `repeat`, `turns.do`, ...) indented beneath it.  Every step removed, added or
changed is shown, however deep it sits: under the steps that hold it (`in repeat > turns
(trick) > do`) and after the step before it in its list.  A step's id changes nothing in
play, and no difference is made of it.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass

import yaml

from ..lang.syntax import parse, unparse

SECTIONS = ("variables", "player_variables", "team_variables", "functions", "procedures", "events", "statistics")


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
    out += _phases(flow_a.get("phases") or {}, flow_b.get("phases") or {})
    for key in ("until", "max_steps"):
        if flow_a.get(key) != flow_b.get(key):
            out.append(f"flow {key}: {_short(flow_a.get(key))} -> {_short(flow_b.get(key))}")
    out += _triggers(a.get("triggers") or [], b.get("triggers") or [])
    ra, rb = a.get("result") or {}, b.get("result") or {}
    for key in sorted(set(ra) | set(rb)):
        if ra.get(key) != rb.get(key):
            out.append(f"result {key}: {_short(ra.get(key))} -> {_short(rb.get(key))}")
    return out


class _Shown(yaml.SafeDumper):
    """YAML as a person wrote it: an expression holding quotes ('' or 'H') in double quotes,
    not YAML's doubled single quotes (), which no one writes."""


def _quoted(dumper, text):
    plain = dumper.analyze_scalar(text).allow_flow_plain if text else False
    style = '"' if not plain and "'" in text and '"' not in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Shown.add_representer(str, _quoted)


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
    text = yaml.dump(_plain(value), Dumper=_Shown, default_flow_style=True, allow_unicode=True, sort_keys=False,
                     width=10 ** 6)
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


def _keys(what: str, a: dict, b: dict, steps=()) -> list[str]:
    """The keys of one entry that differ; those named in `steps` hold steps, shown as steps."""
    out = []
    for key in list(a) + [k for k in b if k not in a]:
        if a.get(key) == b.get(key):
            continue
        if key in steps and isinstance(a.get(key), list) and isinstance(b.get(key), list):
            out += _steps(f"{what} {key}", a[key], b[key])
        else:
            out.append(f"{what} {key}: {_short(a.get(key))} -> {_short(b.get(key))}")
    return out


def _procedure(name: str, a, b) -> list[str]:
    """A procedure's parameters and steps (a plain list of steps, or `do` with `params`)."""
    def parts(spec):
        return (spec.get("params"), spec.get("do") or []) if isinstance(spec, dict) else (None, spec or [])
    (params_a, steps_a), (params_b, steps_b) = parts(a), parts(b)
    out = [] if params_a == params_b else [f"procedure {name} params: {_short(params_a)} -> {_short(params_b)}"]
    return out + _steps(f"procedure {name}", steps_a, steps_b)


def _phases(a: dict, b: dict) -> list[str]:
    """The flow's phases added, removed, or with other steps (`begin`, `end`) or conditions."""
    out = [f"phase {name} removed" for name in a if name not in b]
    for name, spec in b.items():
        if name not in a:
            out.append(f"phase {name} added: {_short(spec)}")
        elif isinstance(spec, dict) and isinstance(a[name], dict):
            out += _keys(f"phase {name}", a[name], spec, steps=("begin", "end"))
        elif spec != a[name]:
            out.append(f"phase {name}: {_short(a[name])} -> {_short(spec)}")
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
            if section == "procedures":
                out += _procedure(name, a[name], value)
            elif isinstance(value, dict) and isinstance(a[name], dict):
                out += _keys(f"{what} {name}", a[name], value)
            else:
                out.append(f"{what} {name}: {_short(a[name])} -> {_short(value)}")
    return out


NESTED = ("then", "else", "do", "otherwise", "answer", "repeat", "steps")    # a step's keys that hold steps


@dataclass
class _Line:
    """One step as a line of a diff: its own keys (`shown`, and `key` as it compares), the
    steps it holds below it.  `at` is where it sits (indices and keys from the list's
    root), `within` says so as a person reads it (`repeat > turns (trick) > do`), and
    `before` is the step before it in its list (None: the first)."""
    depth: int
    key: str
    shown: str
    at: tuple
    within: str
    before: str | None
    place_key: tuple = ()   # `within` and `before` as they compare (without the steps' ids)


def _nested(step: dict) -> list:
    """(key, steps) of each list of steps a step holds, `turns` as `turns.do`."""
    out = [(k, v) for k, v in step.items() if k in NESTED and isinstance(v, list)]
    turns = step.get("turns")
    if isinstance(turns, dict) and isinstance(turns.get("do"), list):
        out.append(("turns.do", turns["do"]))
    return out


def _head(step: dict) -> dict:
    """A step without the steps it holds."""
    head = {k: v for k, v in step.items() if not (k in NESTED and isinstance(v, list))}
    if isinstance(head.get("turns"), dict) and isinstance(head["turns"].get("do"), list):
        head["turns"] = {k: v for k, v in head["turns"].items() if k != "do"}
    return head


def _label(step: dict, key: str, with_id: bool = True) -> str:
    """How the way into a step's `key` reads: `repeat`, `turns (trick) > do`, `if COND > then`
    (`with_id` False: as it compares, an id changing nothing in play)."""
    kind = next((k for k in step if k != "id"), "step")
    value = step.get(kind)
    name = f"{kind} {_short(value, 60)}" if isinstance(value, (str, int, float)) and not isinstance(value, bool) \
        else kind
    if isinstance(step.get("id"), str) and with_id:
        name += f" ({step['id']})"
    part = key.split(".")[-1]
    return name if part == kind else f"{name} > {part}"


def _lines(steps, depth=0, at=(), within="", within_key="") -> list:
    """Each step of `steps` (and of the steps it holds, indented beneath it) as a _Line."""
    out, before, before_key = [], None, None
    for i, step in enumerate(steps):
        head = _head(step) if isinstance(step, dict) else step
        shown = _short(_plain(head) if head else step)
        key = "  " * depth + _short(_plain(_without_id(head), keys=True), 10 ** 9)     # an id changes nothing in play
        out.append(_Line(depth, key, shown, at + (i,), within, before, (within_key, before_key)))
        for part, inner in _nested(step) if isinstance(step, dict) else ():
            label, bare = _label(step, part), _label(_plain(step, keys=True), part, with_id=False)
            out += _lines(inner, depth + 1, at + (i, part), f"{within} > {label}" if within else label,
                          f"{within_key} > {bare}")
        before, before_key = shown, key
    return out


def _without_id(head):
    return {k: v for k, v in head.items() if k != "id"} if isinstance(head, dict) else head


def step_lines(steps) -> list[str]:
    """Each step as a line (nested steps indented beneath the step that holds them)."""
    return ["  " * line.depth + line.shown for line in _lines(steps)]


def _steps(where: str, a: list, b: list) -> list[str]:
    """Every step removed, added or changed, at any depth (matched by what they mean, shown
    as they are written): each change under the place it is at, `in` the steps that hold it
    (when it is not at the top of the list) and `after` the step before it."""
    if a == b:
        return []
    la, lb = _lines(a), _lines(b)
    out = [f"{where}:"]
    matcher = difflib.SequenceMatcher(a=[x.key for x in la], b=[x.key for x in lb], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        places = {}                     # the place of each run -> (as it reads, its lines)
        for place, key, lines in _changed("-", la[i1:i2]) + _changed("+", lb[j1:j2]):
            places.setdefault(key, (place, []))[1].extend(lines)    # steps changed in place: the place said once
        for place, lines in places.values():
            out += [f"  {place}"] + lines
    return out if len(out) > 1 else []


def _changed(sign: str, lines: list) -> list[tuple[str, tuple, list[str]]]:
    """One side of a change as (place, the place as it compares, lines): a run of steps one
    after another in one list, each with the steps it holds indented beneath it."""
    groups, top, last = [], None, None
    for line in lines:
        if top is not None and line.at[:len(top.at)] == top.at and line.depth > top.depth:
            groups[-1][2].append(f"  {sign} {'  ' * (line.depth - top.depth)}{line.shown}")   # held by the step above
            continue
        follows = last is not None and line.at[:-1] == last.at[:-1] and line.at[-1] == last.at[-1] + 1
        if not follows:
            place = (f"in {line.within}, " if line.within else "") + \
                (f"after {line.before}" if line.before is not None else "at the start")
            groups.append((place, line.place_key, []))
        groups[-1][2].append(f"  {sign} {line.shown}")
        top = last = line
    return groups


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
