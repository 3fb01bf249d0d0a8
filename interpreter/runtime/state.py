"""The state of one game: plain data only (lists, dicts, ints, strings).

Everything the engine needs to continue a game is here, including the program
counter, the call frames and the random generator's state, so a state can be
copied, serialised and resumed.  Cards and players are ints: a card is an index
into the program's card tables, a player a seat number.
"""
from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64: small, fast, and its whole state is one int."""
    __slots__ = ("state",)

    def __init__(self, seed: int = 0, state: int | None = None):
        self.state = ((seed * GOLDEN) ^ 0x5DEECE66D) & MASK if state is None else state

    def next(self) -> int:
        self.state = z = (self.state + GOLDEN) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, taking several indexes from each 64-bit draw (bias below 1e-6); the
        draws are next()'s, written in."""
        x = room = 0
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            if room < (n << 20):
                state = z = (state + GOLDEN) & MASK
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
                x, room = z ^ (z >> 31), 1 << 64
            j = x % n
            x //= n
            room //= n
            items[i], items[j] = items[j], items[i]
        self.state = state


FIELDS = ("zones", "vars", "pvars", "out", "players", "names", "current", "rng", "pc", "locals",
          "frames", "scopes", "pending", "log", "over", "revealed", "stacks", "steps", "decisions",
          "result", "seed", "journal", "requests", "rounds", "work", "logged", "tally", "piles", "made_piles")


class State:
    __slots__ = FIELDS

    def __init__(self, **values):
        for f in FIELDS:
            setattr(self, f, values.get(f))
        self.work = values.get("work") or 0     # elements the built-ins visited since the last decision
        self.logged = values.get("logged") or 0     # what the account has cost (effects.account_text)
        self.piles = values.get("piles") or {}      # zone of piles -> [number, owner] of each pile (runtime/piles.py)
        self.made_piles = values.get("made_piles") or 0     # piles made so far: the last one's number

    def copy(self) -> "State":
        """An independent copy, cheaper than deepcopy because the shape is known."""
        c = _blank()
        c.zones = {k: ([list(z) for z in v] if v and isinstance(v[0], list) else list(v))
                   for k, v in self.zones.items()}
        c.vars = {k: (list(v) if isinstance(v, list) else v) for k, v in self.vars.items()}
        c.pvars = {k: list(v) for k, v in self.pvars.items()}
        c.out = list(self.out)
        c.players = self.players
        c.names = self.names
        c.current = self.current
        c.rng = Rng(state=self.rng.state)
        c.pc = self.pc
        lmap = {id(self.locals): _copy_locals(self.locals)}
        for _, loc in self.frames:
            lmap.setdefault(id(loc), _copy_locals(loc))
        c.locals = lmap[id(self.locals)]
        c.frames = [(ret, lmap[id(loc)]) for ret, loc in self.frames]
        c.scopes = list(self.scopes)
        c.pending = None if self.pending is None else (self.pending[0], list(self.pending[1]), self.pending[2])
        c.log = None if self.log is None else list(self.log)
        c.over = self.over
        c.revealed = set(self.revealed)
        c.stacks = [list(x) for x in self.stacks]
        c.steps = self.steps
        c.decisions = self.decisions
        c.result = self.result
        c.seed = self.seed
        c.journal = list(self.journal)
        c.requests = [list(r) for r in self.requests]
        c.rounds = self.rounds
        c.work = self.work
        c.logged = self.logged
        c.tally = None if self.tally is None else [list(row) for row in self.tally]
        c.piles = {k: [list(e) for e in v] for k, v in self.piles.items()}
        c.made_piles = self.made_piles
        return c

    @classmethod
    def from_dict(cls, d: dict) -> "State":
        """The state a `to_dict()` snapshot (after a JSON round trip) describes."""
        s = cls(**d)
        s.rng = Rng(state=d["rng"])
        s.revealed = set(d["revealed"])
        s.frames = [(ret, loc) for ret, loc in d["frames"]]
        s.scopes = [tuple(x) for x in d["scopes"]]
        s.pending = None if d["pending"] is None else (d["pending"][0], d["pending"][1], d["pending"][2])
        s.players = tuple(d["players"])
        return s

    def to_dict(self) -> dict:
        """A JSON-ready snapshot."""
        d = {f: getattr(self, f) for f in FIELDS}
        d["rng"] = self.rng.state
        d["revealed"] = sorted(self.revealed)
        d["frames"] = [[ret, loc] for ret, loc in self.frames]
        d["pending"] = list(self.pending) if self.pending else None
        d["journal"] = [list(e) for e in self.journal]
        return d


def _blank() -> State:
    """A State whose fields the caller sets, every one (cheaper than State())."""
    return State.__new__(State)


def _copy_locals(loc: dict) -> dict:
    """Locals hold plain values, lists, and the [items, index] cursors of loops."""
    return {k: _copy_value(v) for k, v in loc.items()}


def _copy_value(v):
    return [_copy_value(x) for x in v] if isinstance(v, list) else v


def team_of(teams: dict, s, p: int) -> int:
    """Player p's team (1, 2, ...) by the ruleset's teams: players -> (team of seat 1, ...)."""
    return teams[len(s.names)][p]


def partners_of(teams: dict, s, p: int) -> list:
    """The other players of p's team, in seat order."""
    of = teams[len(s.names)]
    return [q for q, t in enumerate(of) if t == of[p] and q != p]


def next_seat(s, p: int, step: int = 1) -> int:
    """The next seat from p in direction `step` that is still in the game."""
    out = s.out
    n = len(out)
    q = (p + step) % n
    if not out[q]:
        return q
    q = p
    for _ in range(n):
        q = (q + step) % n
        if not s.out[q]:
            return q
    return p
