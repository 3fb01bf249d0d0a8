"""House rules as small files: an overlay names its base (`extends:`) and says only what
differs; this module combines the two into the data of one ruleset, whose every value
remembers the file and position it came from.

    extends: base_game               # a path relative to this file, or a shipped ruleset's name
    name: my_house_rule              # top-level values replace the base's
    deck:
      attributes:                    # named entries: added, or replacing the base's entry
        points: "10 if card.id == 'X1' else 1"
    variables: {counter: 0}
    set: {options.target.default: 60, flow.until: "..."}      # any value by its path
    remove: [statistics.unwanted]    # entries by path
    steps:                           # edits at steps that carry an `id`
      - after: deal                  # or before: / replace: / remove:
        insert: [log: "a house rule"]
    triggers: [...]                  # added after the base's triggers

Steps may carry `id: NAME` in any ruleset (base or overlay) so that an overlay can point at
them; ids are taken out of the data here (the checker never sees them) and must be unique.
An overlay may extend an overlay.  Every problem of the combination is reported at its
line in the file that caused it; what the overlay asked that could not be done (an unknown
path, a missing id) is left undone and kept in `CombinedSource.problems`, reported with the
problems that the checks find in the rest.
"""
from __future__ import annotations

import os
import pathlib
from dataclasses import dataclass, field

from ..errors import Problem, RulesetError, did_you_mean
from .loader import FileRefused, Source, decode, load_file, load_named, load_text, read_bytes
from .shipped import shipped_names, shipped_path

NAMED = ("options", "zones", "variables", "player_variables", "team_variables", "functions", "procedures", "events", "statistics",
         "texts", "table")
MERGED = ("result", "flow", "deck")             # mappings whose keys an overlay replaces one by one
OVERLAY_ONLY = ("extends", "set", "remove", "steps")
NESTED_STEPS = ("then", "else", "do", "otherwise", "answer", "repeat")
MAX_DEPTH = 16                                  # overlays extending overlays, at most


def is_overlay(data) -> bool:
    return isinstance(data, dict) and "extends" in data


@dataclass
class CombinedSource(Source):
    """The Source of combined data: the lines of every file involved, one after another, so
    that a position is one line number; problems and run-time errors name the real file
    and line (`real`)."""
    parts: list = field(default_factory=list)    # (first virtual line, file, line count)
    problems: list = field(default_factory=list)  # what the overlay asked that could not be done

    def real(self, line: int) -> tuple[str, int]:
        for first, file, count in self.parts:
            if first <= line < first + count:
                return file, line - first + 1
        return self.file, line

    def problem(self, path, message, key=False, offset=None, end=None, hint=None) -> Problem:
        p = Source.problem(self, path, message, key, offset, end, hint)
        file, line = self.real(p.line) if p.line else (self.file, 0)
        return Problem(file, line, p.col, p.message, p.source, end=p.end, hint=p.hint or self.note(file),
                       path=p.path)

    def problem_at(self, line, col, message) -> Problem:
        file, real = self.real(line)
        return Problem(file, real, col, message, self.line_text(line), hint=self.note(file))

    def note(self, file: str) -> str | None:
        """Which overlay changed a base where a problem shows in the base."""
        return None if file == self.file else f"in {file} as {self.file} changes it"


def combine(data, source: Source, keep_ids: bool = True) -> tuple[dict, Source]:
    """The data and Source of the ruleset an overlay stands for (a plain ruleset: itself),
    its triggers' ids taken out.  Each step keeps its `id` (checked once, given once), a
    name a scenario may stop the rules at; `keep_ids` False takes them out too.  Each base
    is a file the overlay names, read by `load_named`: nothing of a base that is not a
    ruleset is quoted."""
    out, src, ids = _combined(data, source, 0)
    triggers = out.get("triggers") if isinstance(out, dict) else None
    for t in triggers if isinstance(triggers, list) else ():
        if isinstance(t, dict):
            t.pop("#id", None)
    if keep_ids:
        for sid, (_, step) in ids.items():
            step["id"] = sid
    return out, src


def _combined(data, source, depth) -> tuple:
    """(data, Source, ids): ids maps each step id to (the list holding the step, the step)."""
    ids, problems = {}, []
    if not is_overlay(data):
        _take_ids(data, source, problems, ids, triggers={})
        if problems:
            raise RulesetError(problems)
        return data, source, ids
    return _Combination(data, source, depth).result()


class _Combination:
    """One overlay put onto its base.  Positions follow the values themselves: each mapping
    and list of either file is known by identity with its place in its file, so that steps
    moved by an insertion keep theirs; the items of a list that was edited keep theirs in
    `items`."""

    def __init__(self, data, source, depth):
        self.data, self.src, self.depth = data, source, depth
        self.problems = []
        self.places = {}                # id(mapping or list) -> (Source, path in it)
        self.items = {}                 # id(list of steps edited) -> [(Source, path)] of its items
        self.keep = []                  # what the ids refer to, kept alive
        self.scalars = {}               # (id(mapping), key) -> (Source, path) of a plain value the overlay put there
        self.ids = {}                   # step id -> (the list holding the step, the step), as merged

    def report(self, path, message, key=False):
        self.problems.append(self.src.problem(path, message, key=key))

    def result(self):
        base, base_src, ids = self.base()
        self.note(base, base_src)
        self.note(self.data, self.src)
        out = self.merged(base, ids)
        source = self.source_of(out, base_src)
        source.problems = self.problems + (base_src.problems if isinstance(base_src, CombinedSource) else [])
        return out, source, ids

    def note(self, data, src, path=()):
        if isinstance(data, (dict, list)):
            self.places[id(data)] = (src, path)
            self.keep.append(data)
            children = data.items() if isinstance(data, dict) else enumerate(data)
            for k, v in children:
                self.note(v, src, path + (k,))

    # -- the base ---------------------------------------------------------------------------------
    def base(self):
        target = self.data.get("extends")
        if not isinstance(target, str) or not target.strip():
            raise RulesetError([self.src.problem(("extends",), "extends: name the ruleset this one changes "
                                                               "(a path, or the name of a shipped ruleset)")])
        if self.depth >= MAX_DEPTH:
            raise RulesetError([self.src.problem(("extends",), f"overlays extend each other more than {MAX_DEPTH} "
                                                               "deep (do two extend each other?)")])
        if self.src.shipped_bases:              # a file that came from elsewhere reads no file of this machine
            path = shipped_path(target)        # a bare name: no path, no file beside it
            if path is None:
                raise RulesetError([self.src.problem(("extends",), f"no shipped ruleset '{target}': an uploaded "
                                                                   f"house rule extends one of the shipped rulesets"
                                                                   f"{did_you_mean(target, shipped_names())}")])
        else:
            path = find_base(target, self.src.file)
        if path is None:
            raise RulesetError([self.src.problem(("extends",), f"no ruleset '{target}' here or among the shipped ones"
                                                               f"{did_you_mean(target, shipped_names())}")])
        try:
            data, source = load_named(path)
        except FileRefused as e:
            raise RulesetError([self.src.problem(("extends",), e.about(target), hint=e.hint)]) from None
        return _combined(data, source, self.depth + 1)

    # -- the combination ----------------------------------------------------------------------------
    def merged(self, base, ids):
        self.ids = ids
        out = dict(base)
        self.places[id(out)] = self.places[id(base)]
        self.keep.append(out)
        ov = self.data
        for key, value in ov.items():
            if key in OVERLAY_ONLY:
                continue
            if key in NAMED or key in MERGED:
                if not isinstance(value, dict):
                    self.report((key,), f"{key}: give a mapping of what changes")
                    continue
                target = self.own(out, key)
                for name, entry in value.items():
                    if key == "deck" and name == "attributes" and isinstance(entry, dict):
                        attrs = self.own(target, "attributes")
                        for attr, attr_value in self.with_ids(entry, ids).items():
                            self.put(attrs, attr, attr_value, (key, name, attr))
                        continue
                    self.put(target, name, self.with_ids(entry, ids), (key, name))
            elif key == "triggers":
                if not isinstance(value, list):
                    self.report((key,), "triggers: give a list of triggers to add")
                    continue
                mine = self.own(out, "triggers", list)
                for t in value:
                    tid = t.get("id") if isinstance(t, dict) else None
                    placed = self.with_ids(t, ids)
                    at = next((j for j, old in enumerate(mine) if isinstance(old, dict) and tid is not None
                               and old.get("#id") == tid), None)
                    if at is None:
                        mine.append(placed)         # its position: its own, by identity
                    else:
                        mine[at] = placed           # the base's trigger of that id, replaced
                    if tid is not None and isinstance(placed, dict):
                        placed.pop("id", None)
                        placed["#id"] = tid
            else:
                self.put(out, key, self.with_ids(value, ids), (key,))
        for dotted, value in self.mapping("set").items():
            self.set_path(out, dotted, value, ids)
        for i, dotted in enumerate(self.listed("remove")):
            self.remove_path(out, dotted, ("remove", i))
        for i, edit in enumerate(self.listed("steps")):
            self.edit_steps(ids, edit, ("steps", i))
        return out

    def own(self, parent, key, kind=dict):
        """parent[key] as a new container of this combination (the base's stays as it was),
        placed where the base's was, or where the overlay gives it."""
        old = parent.get(key)
        new = kind(old) if isinstance(old, kind) else kind()
        self.places[id(new)] = self.places.get(id(old), self.places[id(parent)])
        self.keep.append(new)
        if isinstance(old, list) and id(old) in self.items:
            self.items[id(new)] = list(self.items[id(old)])
        if isinstance(old, list):       # a list of steps copied: its steps' ids point into the copy
            for sid, (steps, step) in list(self.ids.items()):
                if steps is old:
                    self.ids[sid] = (new, step)
        if isinstance(old, dict):
            for k in old:
                if (id(old), k) in self.scalars:
                    self.scalars[id(new), k] = self.scalars[id(old), k]
        parent[key] = new
        return new

    def put(self, parent, key, value, where):
        """parent[key] = value, a value the overlay gives at `where`: a plain value (a number,
        a text) keeps that position, as a mapping or list keeps its own by identity."""
        parent[key] = value
        if isinstance(parent, dict) and not isinstance(value, (dict, list)):
            self.scalars[id(parent), key] = (self.src, where)
        elif isinstance(parent, list) and not isinstance(value, (dict, list)):
            self.items.setdefault(id(parent), self.item_places(parent))[key] = (self.src, where)

    def with_ids(self, value, ids):
        """A value of the overlay, its steps' ids taken out and added to `ids`."""
        wrapper = {"flow": {"round": value}} if isinstance(value, list) else \
            {"triggers": [value]} if isinstance(value, dict) and "on" in value else {"procedures": {"x": value}}
        _take_ids(wrapper, self.src, self.problems, ids, self.places)
        return value

    def mapping(self, key) -> dict:
        value = self.data.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.report((key,), f"{key}: give a mapping of paths to values")
            return {}
        return value

    def listed(self, key) -> list:
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.report((key,), f"{key}: give a list")
            return []
        return value

    def set_path(self, out, dotted, value, ids):
        where = ("set", dotted)
        parts = _split(dotted)
        parent = self.walk(out, parts[:-1], where, dotted, key=True)
        if parent is None:
            return
        last = parts[-1]
        if isinstance(parent, list) and not (isinstance(last, int) and 0 <= last < len(parent)):
            self.report(where, f"'{dotted}': there is no item {last} there", key=True)
        elif not isinstance(parent, (dict, list)):
            self.report(where, f"'{dotted}': there is no value to set there", key=True)
        else:
            self.put(parent, last, self.with_ids(value, ids), where)

    def remove_path(self, out, dotted, where):
        if not isinstance(dotted, str):
            self.report(where, "remove: give paths such as zones.dead or statistics.moons")
            return
        parts = _split(dotted)
        parent = self.walk(out, parts[:-1], where, dotted)
        if parent is None:
            return
        last = parts[-1]
        if parts[:1] == ["triggers"] and len(parts) == 2 and isinstance(parent, list):
            at = next((j for j, t in enumerate(parent) if isinstance(t, dict) and t.get("#id") == last), None)
            if at is None:
                known = [t.get("#id") for t in parent if isinstance(t, dict) and t.get("#id")]
                self.report(where, f"'{dotted}': no trigger has the id '{last}'{did_you_mean(str(last), known)}")
            else:
                del parent[at]
                if id(parent) in self.items:
                    del self.items[id(parent)][at]
            return
        if isinstance(parent, dict) and last in parent:
            del parent[last]
        elif isinstance(parent, list):
            self.report(where, f"'{dotted}': remove a step by its id (steps: - remove: ID)")
        else:
            known = list(parent) if isinstance(parent, dict) else []
            self.report(where, f"'{dotted}': nothing to remove there{did_you_mean(str(last), known)}")

    def walk(self, out, parts, where, dotted, key=False):
        """The container at `parts`, each mapping on the way made the combination's own."""
        node = out
        for i, part in enumerate(parts):
            if isinstance(node, dict) and part in node:
                if isinstance(node[part], (dict, list)):
                    node = self.own(node, part, type(node[part]))
                else:
                    node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
            else:
                known = list(node) if isinstance(node, dict) else []
                self.report(where, f"'{dotted}': the base has no '{'.'.join(map(str, parts[:i + 1]))}'"
                                   f"{did_you_mean(str(part), known)}", key=key)
                return None
        return node

    # -- steps by id ----------------------------------------------------------------------------------
    def edit_steps(self, ids, edit, where):
        if not isinstance(edit, dict):
            self.report(where, "a step edit is a mapping: {after: ID, insert: [...]}, {before: ID, ...}, "
                               "{replace: ID, insert: [...]} or {remove: ID}")
            return
        kinds = [k for k in ("after", "before", "replace", "remove") if k in edit]
        extra = [k for k in edit if k not in ("after", "before", "replace", "remove", "insert")]
        if len(kinds) != 1 or extra:
            self.report(where, "a step edit names one of after, before, replace or remove, and insert"
                        + (f" (not {', '.join(map(str, extra))})" if extra else ""))
            return
        kind = kinds[0]
        target = edit[kind]
        if not isinstance(target, str):
            self.report(where + (kind,), f"{kind}: name the step by its id (a name such as deal)")
            return
        if target not in ids:
            self.report(where + (kind,), f"no step has the id '{target}'{did_you_mean(str(target), ids)}")
            return
        steps, step = ids[target]
        i = next((j for j, s in enumerate(steps) if s is step), None)
        if i is None:                   # a path set: replaced the step
            self.report(where + (kind,), f"no step has the id '{target}' any more: a path in set: replaced it")
            return
        items = self.items.setdefault(id(steps), self.item_places(steps))
        if kind == "remove":
            if "insert" in edit:
                self.report(where + ("insert",), "remove takes no insert (use replace)")
            del steps[i], items[i]
            del ids[target]
            return
        new = edit.get("insert")
        if not isinstance(new, list) or not new:
            self.report(where, f"{kind}: give the steps to put there as insert: [...]")
            return
        self.with_ids(new, ids)
        at = i + 1 if kind == "after" else i
        if kind == "replace":
            del steps[i], items[i]
            del ids[target]
        steps[at:at] = new
        items[at:at] = [(self.src, where + ("insert", j)) for j in range(len(new))]
        for sid, (lst, s) in list(ids.items()):            # steps inserted here may carry ids
            if lst is new:
                ids[sid] = (steps, s)

    def item_places(self, steps) -> list:
        src, path = self.places[id(steps)]
        return [(src, path + (j,)) for j in range(len(steps))]

    # -- positions ---------------------------------------------------------------------------------------
    def source_of(self, combined, base_src) -> CombinedSource:
        """A Source for the combined data: the overlay's lines, then the base's (its own parts
        kept), each value at its position in the file it came from."""
        ov_lines = len(self.src.lines)
        parts = [(1, self.src.file, ov_lines)]
        base_parts = base_src.parts if isinstance(base_src, CombinedSource) else \
            [(1, base_src.file, len(base_src.lines))]
        parts += [(first + ov_lines, file, count) for first, file, count in base_parts]
        out = CombinedSource(file=self.src.file, lines=list(self.src.lines) + list(base_src.lines), parts=parts)
        self.shift = {id(self.src): 0, id(base_src): ov_lines}
        self.place_all(out, combined, (), self.places[id(combined)])
        return out

    def place_all(self, out, value, path, place):
        """Note the position of `value` (at `path` of the combined data), found at `place`
        (Source, path) of its file, and of everything in it."""
        src, sp = place
        shift = self.shift[id(src)]
        if sp in src.values:
            line, col, style = src.values[sp]
            out.values[path] = (line + shift, col, style)
        if sp in src.keys:
            line, col = src.keys[sp]
            out.keys[path] = (line + shift, col)
        if isinstance(value, dict):
            for k, v in value.items():
                here = self.scalars.get((id(value), k), (src, sp + (k,)))
                self.place_all(out, v, path + (k,), self.places.get(id(v), here))
        elif isinstance(value, list):
            items = self.items.get(id(value))
            for j, v in enumerate(value):
                here = items[j] if items is not None and j < len(items) else (src, sp + (j,))
                self.place_all(out, v, path + (j,), self.places.get(id(v), here))


# -- helpers ---------------------------------------------------------------------------------------------
def _split(dotted) -> list:
    """'options.target_score.default' -> ['options', 'target_score', 'default']; numbers index lists."""
    return [int(p) if p.isdigit() else p for p in str(dotted).split(".")]


def _step_lists(data):
    """(path, list) of every list of steps in ruleset data."""
    flow = data.get("flow") if isinstance(data.get("flow"), dict) else {}
    roots = [(("flow", k), flow.get(k)) for k in ("setup", "round", "end")]
    procedures = data.get("procedures")
    roots += [(("procedures", n) + (("do",) if isinstance(s, dict) else ()), s.get("do") if isinstance(s, dict) else s)
              for n, s in (procedures.items() if isinstance(procedures, dict) else ())]
    triggers = data.get("triggers")
    roots += [(("triggers", i, "do"), t.get("do")) for i, t in enumerate(triggers if isinstance(triggers, list) else [])
              if isinstance(t, dict)]
    todo = [(p, s) for p, s in roots if isinstance(s, list)]
    while todo:
        path, steps = todo.pop()
        yield path, steps
        for i, step in enumerate(steps):
            if not isinstance(step, dict):
                continue
            for key in NESTED_STEPS:
                if isinstance(step.get(key), list):
                    todo.append((path + (i, key), step[key]))
            turns = step.get("turns")
            if isinstance(turns, dict) and isinstance(turns.get("do"), list):
                todo.append((path + (i, "turns", "do"), turns["do"]))


def _take_ids(data, src, problems, ids, places=None, triggers=None):
    """Take each step's `id` out of `data` into `ids` (id -> (its list, the step)), each a name
    given once, and each trigger's into `triggers` (id -> the trigger).  With `places` (a
    value of an overlay, in a wrapper), problems are reported at the value's own position."""
    if triggers is not None:
        for i, t in enumerate(data.get("triggers") or [] if isinstance(data.get("triggers"), list) else []):
            if isinstance(t, dict) and "id" in t:
                tid = t.pop("id")
                where = _place_of(t, places, src, ("triggers", i))
                if not isinstance(tid, str) or not tid.replace("_", "").isalnum():
                    problems.append(where[0].problem(where[1] + ("id",), "a trigger's id is a name (letters, digits, _)"))
                elif tid in triggers and places is None:
                    problems.append(where[0].problem(where[1] + ("id",), f"the id '{tid}' is given to two triggers"))
                else:
                    t["#id"] = tid
                    triggers.setdefault(tid, t)
    for path, steps in list(_step_lists(data)):
        for i, step in enumerate(steps):
            if not isinstance(step, dict) or "id" not in step:
                continue
            sid = step.pop("id")
            where = _place_of(step, places, src, path + (i,))
            if not isinstance(sid, str) or not sid.replace("_", "").isalnum():
                problems.append(where[0].problem(where[1] + ("id",), "a step's id is a name (letters, digits, _)"))
            elif sid in ids:
                problems.append(where[0].problem(where[1] + ("id",), f"the id '{sid}' is given to two steps"))
            else:
                ids[sid] = (steps, step)


def _place_of(step, places, src, path):
    if places is not None and id(step) in places:
        return places[id(step)]
    return src, path


# -- where bases are found -------------------------------------------------------------------------------
def find_base(target: str, overlay_file: str) -> str | None:
    """The file an overlay's `extends` names: a path relative to the overlay, or a shipped name."""
    here = pathlib.Path(os.path.dirname(os.path.abspath(overlay_file))) if overlay_file else pathlib.Path.cwd()
    for candidate in (here / target, here / f"{target}.yaml"):
        if candidate.is_file():
            return str(candidate)
    return shipped_path(target)


# -- loading a ruleset that may be an overlay -------------------------------------------------------------
def load_rules(path: str) -> tuple:
    """(data, Source) of a ruleset file, an overlay combined with its bases."""
    data, source = load_file(path)
    return combine(data, source)


def load_rules_text(text: str, file: str = "<string>", shipped_bases: bool = False) -> tuple:
    """(data, Source) of a ruleset's text; `shipped_bases`: an overlay may extend shipped
    rulesets only (a file uploaded to the server names no file of the server's machine)."""
    data, source = load_text(text, file)
    source.shipped_bases = shipped_bases
    return combine(data, source)


def rules_hash(path: str) -> str:
    """SHA-256 of the rules a file stands for: the file's bytes for a ruleset, the combined
    rules for an overlay (so that a change to its base is noticed too); '' if unreadable."""
    try:
        raw = read_bytes(path)
    except FileRefused:
        return ""
    return _hash_of(raw, path)


def text_hash(text: str, file: str, shipped_bases: bool = False) -> str:
    """rules_hash of a ruleset's text as it was read (a server's table keeps it: its record
    names the rules it was played with, not the file as it is now)."""
    return _hash_of(text.encode("utf-8"), file, shipped_bases)


def _hash_of(raw: bytes, file: str, shipped_bases: bool = False) -> str:
    import hashlib
    import json
    try:
        data, source = load_text(decode(raw, file), file)
    except RulesetError:
        return ""
    if not is_overlay(data):
        return hashlib.sha256(raw).hexdigest()
    source.shipped_bases = shipped_bases
    try:
        combined, _ = combine(data, source, keep_ids=False)
    except RulesetError:
        return ""
    return hashlib.sha256(json.dumps(combined, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
