"""What a seat observes: a dict of what it may see, and the same as numbers of fixed length.

Both are made from the engine's view of the seat (runtime.engine.view), which holds no
card, variable or log entry the seat may not see; variables the ruleset declares hidden
are left out altogether.  The vector's layout depends only on the ruleset, its options and
the number of players, so that a network's input has one size for the whole game.
"""
from __future__ import annotations

from ..runtime.engine import view
from ..runtime.program import Program


def observation(program: Program, state, seat: int) -> dict:
    """The seat's view: zones (card ids, None where face down), the variables it may see,
    whose turn it is and who decides."""
    v = view(program, state, seat)
    out = {"seat": seat, "current": v["current"], "deciding": v["deciding"], "over": v["over"],
           "eliminated": v["eliminated"], "zones": v["zones"],
           "vars": {k: x for k, x in v["vars"].items() if program.var_visibility.get(k) != "hidden"},
           "players": {k: x for k, x in v["players"].items() if program.pvar_visibility.get(k) != "hidden"}}
    if "table" in v:
        out["table"] = v["table"]
    if "piles" in v:
        out["piles"] = v["piles"]       # zone of piles -> [number, owner] of each pile in zones
    return out


class VectorLayout:
    """Where each part of an observation lies in the vector; `parts` names them for people."""

    def __init__(self, program: Program, players: int, texts: list):
        self.program, self.n = program, players
        ids = list(dict.fromkeys(program.deck.ids))
        self.card_at = {c: i for i, c in enumerate(ids)}
        self.cards = len(ids)
        self.text_at = {t: i for i, t in enumerate(texts)}
        self.texts = len(texts)
        sym = program.symbols
        n = players
        parts = [("seat", n), ("current", n + 1), ("deciding", n + 1), ("eliminated", n), ("over", 1)]
        for z in program.zones.values():
            for owner in (range(n) if z.per_player else [None]):
                parts.append((_name("zone", z.name, owner), self.cards + 1))
        self.gvars = [(k, t) for k, t in (sym.global_vars.items() if sym else ())
                      if program.var_visibility.get(k) != "hidden" and self._size(t)]
        self.pvars = [(k, t) for k, t in (sym.player_vars.items() if sym else ())
                      if program.pvar_visibility.get(k) != "hidden" and self._size(t)]
        parts += [(_name("var", k, None), self._size(t)) for k, t in self.gvars]
        parts += [(_name("var", k, p), self._size(t)) for k, t in self.pvars for p in range(n)]
        self.table = [(t.name, t.type, t.per_player) for t in program.table if self._size(t.type)]
        for name, typ, per in self.table:
            parts += [(_name("table", name, p), self._size(typ)) for p in (range(n) if per else [None])]
        self.parts = parts
        self.size = sum(size for _, size in parts)

    def _size(self, typ) -> int:
        if typ in ("number", "bool"):
            return 1
        if typ == "player":
            return self.n + 1
        if typ == "card":
            return self.cards + 1
        if typ == "string":
            return self.texts + 1
        if isinstance(typ, str) and typ.startswith("list["):
            return self.cards + 1 if typ == "list[card]" else 1
        if isinstance(typ, str) and typ.startswith("map["):
            return 1                    # how many entries (the dict observation holds them)
        return 0

    def vector(self, obs: dict) -> list[float]:
        out = []
        n = self.n
        out += _one_hot(obs["seat"], n)
        out += _one_hot(obs["current"], n + 1, n)
        out += _one_hot(obs["deciding"], n + 1, n)
        out += [1.0 if e else 0.0 for e in obs["eliminated"]]
        out.append(1.0 if obs["over"] else 0.0)
        for z in self.program.zones.values():
            content = obs["zones"][z.name]
            if z.piles:                 # a zone of piles counts as one place: its piles come and go
                content = [[c for pile in content for c in pile]]
            for cards in (content if z.per_player or z.piles else [content]):
                out += self._cards(cards)
        for k, t in self.gvars:
            out += self._value(t, obs["vars"].get(k))
        for k, t in self.pvars:
            for value in obs["players"][k]:
                out += self._value(t, value)
        table = obs.get("table", {})
        for name, typ, per in self.table:
            for value in (table[name] if per else [table[name]]):
                out += self._value(typ, value)
        return out

    def _cards(self, cards) -> list[float]:
        """How many of each card the seat sees there, and how many cards lie there."""
        counts = [0.0] * (self.cards + 1)
        for c in cards:
            if c is not None:
                counts[self.card_at[c]] += 1.0
        counts[-1] = float(len(cards))
        return counts

    def _value(self, typ, value) -> list[float]:
        if typ in ("number", "bool"):
            return [float(value) if isinstance(value, (int, float)) else 0.0]
        if typ == "player":
            return _one_hot(value, self.n + 1, self.n)
        if typ == "card":
            return _one_hot(self.card_at.get(value), self.cards + 1, self.cards)
        if typ == "string":
            return _one_hot(self.text_at.get(value, self.texts) if value is not None else None,
                            self.texts + 1, self.texts)
        if typ == "list[card]":
            return self._cards(value or [])
        return [float(len(value)) if isinstance(value, (list, dict)) else 0.0]


def _one_hot(i, size: int, none: int | None = None) -> list[float]:
    out = [0.0] * size
    at = none if i is None or isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < size else i
    if at is not None:
        out[at] = 1.0
    return out


def _name(section: str, name: str, owner) -> str:
    """A part's name: 'zone/trick', 'var/points[2]' (each player's, by seat from 0)."""
    return section + "/" + name + ("" if owner is None else f"[{owner}]")
