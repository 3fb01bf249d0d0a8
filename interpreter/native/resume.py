"""Resuming the kernel at a decision: the planning bots' play-outs (playing/agents.py and
playing/ismcts.py play a game out at random from an imagined state, many times a decision).

The resumable kernel (steps.KernelWriter with the closure back end's layout) numbers each
choice it can resume at: its place is the chain of calls the VM's frames hold (their return
pcs) and the pc its decision waits at, the same place in both back ends (closures/layout.py).
`Resumes` is what the writer notes of those places as it writes them: each choice's frames
(the kernel's prefixes of the locals the VM's frames hold) and the loops it lies in, whose
cursors the VM keeps among the locals.  `Plan` is what the kernel reads, in order: a header,
the players put out, the zones, the variables, the locals and the loops' cursors, numbers in
one array `IN` and lists as (start, length) of another, `POOL`.

`encode` turns a State into those arrays, or says None where the kernel cannot take it
(a place it does not resume at, an open request, a value it does not hold): the
play-out is then the generated Python's.  A play-out the kernel gives up on is played again
by the Python, from the same state and the same random numbers, so that a bot plays the same
moves whichever plays its play-outs.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from functools import cached_property

from ..errors import InterpreterError
from ..limits import MAX_NUMBER
from ..lang.types import NUM, STR, ZONE, elem_of, is_map

NULL = -(1 << 62)
NUMTEXT = 1 << 61       # the id of the text of number v the kernel does not know: NUMTEXT + v (expressions.numtext)
WHOLE = re.compile(r"-?[1-9][0-9]*|0")      # the text of a whole number, as str() writes it
HEADER = 8              # RES, CUR, ROUNDS, STEPS, DEC, horizon, most decisions, 0 (the seed game() is given)
STEPS_MARGIN = 64       # steps counted on beyond the state's: the kernel gives up first near max_steps
MAP_ENTRIES = 64        # entries of a map variable the kernel holds (one with more: BAIL)
STOPPED = 2             # the kernel's answer for a play-out stopped short (the horizon, the decisions)
SHOWN = "shown"         # the type of a text only the table shows: kept as null or not (0)
MASK = (1 << 64) - 1


@dataclass
class Resumes:
    """What the writer notes of the places it can resume at, as it writes them."""
    count: int = 0                                  # choices numbered so far (RES 1..count)
    targets: dict = field(default_factory=dict)     # (return pcs, pc) -> RES
    frames: dict = field(default_factory=dict)      # RES -> the kernel prefix of each frame's locals
    loops: dict = field(default_factory=dict)       # RES -> the loops it lies in: (kind, slot, frame, key)
    chain: list = field(default_factory=list)       # return pcs of the calls being written in
    prefixes: list = field(default_factory=list)    # the prefixes of their frames (one more: the flow's)
    active: list = field(default_factory=list)      # the loops being written
    blocked: int = 0                                # > 0: inside steps the kernel does not resume in
    slots: int = 0                                  # the loops' cursors' places in IN (from LB)

    def target(self, pc: int) -> int | None:
        """The number of the choice being written, waiting at `pc`, if it can be resumed at."""
        if self.blocked:
            return None
        self.count += 1
        rid = self.count
        self.targets[(tuple(self.chain), pc)] = rid
        self.frames[rid] = tuple(self.prefixes)
        self.loops[rid] = tuple(self.active)
        return rid

    def slot(self, size: int) -> int:
        at = self.slots
        self.slots += size
        return at

    def enter(self, inner: Resumes, ret: int | None) -> int | None:
        """Number here the choices of a procedure written apart (`inner`: numbered from 1 in
        its function, their chains and frames from its own) for a call written here returning
        to `ret`: their places under this call's chain, their frames and loops under its
        frames.  The number before the first (the call passes RES less it), or None where no
        play-out resumes inside this call."""
        if self.blocked or ret is None or inner.count == 0:
            return None
        base, depth = self.count, len(self.prefixes)
        for (chain, pc), rid in inner.targets.items():
            self.targets[(tuple(self.chain) + (ret,) + chain, pc)] = base + rid
            self.frames[base + rid] = tuple(self.prefixes) + inner.frames[rid]
            self.loops[base + rid] = tuple(self.active) + tuple(
                (kind, slot, frame + depth, key, typ) for kind, slot, frame, key, typ in inner.loops[rid])
        self.count += inner.count
        return base


@dataclass(frozen=True)
class Window:
    """A choice made together resumed at (runtime/windows.py): where the kernel keeps its record
    (its names' prefix, the frame's, and its arrays), the VM's local holding it, the types of
    the names the choice binds."""
    kernel: str
    prefix: str
    key: str
    types: tuple
    buffers: tuple              # the arrays of the players in order, their entries, the values kept


@dataclass
class Plan:
    """Where the kernel reads each part of a state (the writer's, once the kernel is written)."""
    rows: dict                  # zone name -> its first row of Z
    per_player: frozenset       # the zones each player has one of
    n_rows: int
    max_players: int
    texts: dict                 # text -> its number in the kernel
    globals_: tuple             # (name, type) of each variable, in the order read
    players_: tuple             # (name, type) of each player variable
    locals_: tuple              # (kernel name, type, whether a list) of each local
    targets: dict
    frames: dict
    loops: dict
    slots: int
    journal: bool = False       # the kernel keeps a journal: its entries are read too
    windows: dict = field(default_factory=dict)     # RES -> the Window it waits in
    piles: tuple = ()           # (zone name, its first row) of each zone of piles, in the order PK counts them
    pile_rows: int = 0          # the rows each has (a pile a row)
    maps: tuple = ()            # ("G" or "P", name, its values' type) of each map variable the kernel holds
    fractions: bool = False     # numbers held as float64 (expressions.Fractional): IN holds their bits
    _sources: dict = field(default_factory=dict, compare=False)

    @cached_property
    def global_kinds(self) -> tuple:
        return tuple((name, typ, _listed(typ)) for name, typ in self.globals_)

    @cached_property
    def blank(self) -> tuple:
        """IN's locals, all null (an empty list: start 0, length 0; a number of a kernel holding
        fractions: NULL's float bits)."""
        null = {NUM: _bits(None)} if self.fractions else {}
        return tuple(x for _, typ, listed in self.locals_ for x in ((0, 0) if listed else (null.get(typ, NULL), 0)))

    def sources(self, rid: int) -> list:
        """(its place among the locals, the VM frame it is read from, its name there, its type,
        whether a list) of each local of the frames choice `rid` waits in."""
        known = self._sources.get(rid)
        if known is None:
            at = {prefix: depth for depth, prefix in enumerate(self.frames[rid])}
            known = self._sources[rid] = []
            for i, (kernel_name, typ, listed) in enumerate(self.locals_):
                prefix, _, name = kernel_name.partition("_")
                depth = at.get(prefix + "_")
                if depth is not None:
                    known.append((i, depth, name, typ, listed))
        return known

    @property
    def zone_base(self) -> int:
        return HEADER + self.max_players

    @property
    def globals_base(self) -> int:
        return self.zone_base + 2 * self.n_rows

    @property
    def journal_base(self) -> int:
        return self.loops_base + self.slots

    @property
    def windows_base(self) -> int:
        """Where the record of a choice made together starts in IN (one at a time)."""
        return self.journal_base + (4 if self.journal else 0)

    @cached_property
    def window_width(self) -> int:
        """IN's part of a choice made together's record (read at every play-out: worked out once)."""
        return 5 + max(len(x.types) for x in self.windows.values()) if self.windows else 0

    @cached_property
    def piled(self) -> frozenset:
        """The zones of piles (read at every play-out: worked out once)."""
        return frozenset(name for name, _ in self.piles)

    @property
    def piles_base(self) -> int:
        """Where the piles start in IN: the piles made so far, then each zone's piles and where
        their numbers and owners start in POOL."""
        return self.windows_base + self.window_width

    @property
    def maps_base(self) -> int:
        """Where the map variables start in IN: for each (and each player's, of a player
        variable) how many entries, and where their keys, then their values, start in POOL."""
        return self.piles_base + (1 + 2 * len(self.piles) if self.piles else 0)

    @property
    def locals_base(self) -> int:
        """Where the locals start in IN, after the variables and each player's."""
        width = sum(self.max_players * (2 if _listed(typ) else 1) for _, typ in self.players_)
        return self.globals_base + 2 * len(self.globals_) + width

    @property
    def loops_base(self) -> int:
        """LB: where the loops' cursors start in IN."""
        return self.locals_base + 2 * len(self.locals_)


class NotResumable(InterpreterError):
    """A state the kernel cannot take: its play-out is the Python's."""


def encode(plan: Plan, state, horizon: int | None, most: int) -> tuple:
    """(IN, POOL) of `state`, waiting at a decision, for a play-out of at most `most`
    decisions that stops at the first decision past round `horizon` (None: none)."""
    if plan.fractions and plan.windows:
        raise NotResumable("a choice made together beside numbers that are not whole")
    if state.requests or state.stacks or state.journal and not plan.journal:
        raise NotResumable("an open request, a stacked deck or a journal")
    rid = plan.targets.get((tuple(ret for ret, _ in state.frames), state.pc))
    if rid is None:
        raise NotResumable("a place the kernel does not resume at")
    frames = [loc for _, loc in state.frames] + [state.locals]
    if len(plan.frames[rid]) != len(frames):
        raise NotResumable("frames the kernel does not hold")
    if any("#restart" in loc for loc in frames):
        raise NotResumable("turns to start again (restart_turns) once the turn is over")
    n = len(state.players)
    pool: list = []
    head = [rid, _number(state.current), state.rounds, state.steps + STEPS_MARGIN, state.decisions,
            -1 if horizon is None else horizon, state.decisions + most, 0]
    head += [1 if o else 0 for o in state.out] + [0] * (plan.max_players - n)
    zones = [0, 0] * plan.n_rows
    piled = plan.piled
    for name, base in plan.rows.items():
        z = state.zones[name]
        if name in piled and len(z) > plan.pile_rows:
            raise NotResumable("more piles than the kernel holds")
        for owner, cards in (enumerate(z) if name in plan.per_player or name in piled else ((0, z),)):
            row = 2 * (base + owner)
            zones[row], zones[row + 1] = len(pool), len(cards)
            pool.extend(cards)
    values = []
    for name, typ, listed in plan.global_kinds:
        values += _held(plan, state.vars.get(name), typ, pool, listed)
    for name, typ in plan.players_:
        column = state.pvars[name]
        if _listed(typ):            # each player's list: (start, length) in POOL
            for v in column:
                values += _held(plan, v, typ, pool, True)
            values += [0, 0] * (plan.max_players - len(column))
            continue
        if plan.fractions and typ == NUM:
            values += [_bits(v) for v in column] + [0] * (plan.max_players - len(column))
            continue
        values += _ints(plan, column, typ) + [0] * (plan.max_players - len(column))
    locals_ = list(plan.blank)
    for i, frame, name, typ, listed in plan.sources(rid):
        loc = frames[frame]
        if name in loc:
            locals_[2 * i:2 * i + 2] = _held(plan, loc[name], typ, pool, listed)
    cursors = [0] * plan.slots
    for kind, slot, frame, key, typ in plan.loops[rid]:
        cursor = frames[frame].get(key)
        if cursor is None:
            raise NotResumable("a loop's cursor missing")
        if kind == "turns":
            cursors[slot], cursors[slot + 1] = cursor[0], cursor[1]
        else:                           # for_each, or turns in a fixed order: [items, next index]
            items, i = cursor
            cursors[slot], cursors[slot + 1], cursors[slot + 2] = len(pool), len(items), i
            pool.extend(_ints(plan, items, typ))
    journal = _journal(plan, state.journal, pool) if plan.journal else []
    window = _window(plan, plan.windows.get(rid), rid, frames, pool) if plan.windows else []
    piles = _piles(plan, state, pool) if plan.piles else []
    maps = _maps(plan, state, pool) if plan.maps else []
    np = _np()
    return np.array(head + zones + values + locals_ + cursors + journal + window + piles + maps, dtype=np.int64), \
        np.array(pool or [0], dtype=np.int64)


def _piles(plan: Plan, state, pool: list) -> list:
    """IN's part of the piles (runtime/piles.py): how many were made, then for each zone of
    piles how many rows it has and where their [number, owner] pairs start in POOL."""
    part = [state.made_piles]
    for name, _ in plan.piles:
        part += [len(state.piles[name]), len(pool)]
        for number, owner in state.piles[name]:
            pool += [number, _number(owner)]
    return part


def _maps(plan: Plan, state, pool: list) -> list:
    """IN's part of the map variables (steps.KernelWriter.maps): each row's entries, in the
    order the dict holds them, their keys (texts) then their values in POOL."""
    part = []
    for kind, name, typ in plan.maps:
        rows = [state.vars.get(name)] if kind == "G" else list(state.pvars[name])
        if kind == "P":
            rows += [{}] * (plan.max_players - len(rows))       # (seats the game does not have)
        for m in rows:
            if not isinstance(m, dict):
                raise NotResumable("a map variable that is null")
            if len(m) > MAP_ENTRIES:
                raise NotResumable("a map of more entries than the kernel holds")
            part += [len(m), len(pool)]
            pool.extend(_scalar(plan, k, STR) for k in m)
            pool.extend(_scalar(plan, v, typ) for v in m.values())
    return part


def _window(plan: Plan, w, rid: int, frames: list, pool: list) -> list:
    """IN's part of a choice made together's record (runtime/windows.py: [order, entries,
    current before, index asked, cards, names' values before]): whether there is one, how many
    choose, the index asked, the player current before, where the players, their entries (-1
    to choose, 0 done, 1 kept) and the values kept start in POOL; the names' values before."""
    width = plan.window_width
    if w is None:
        return [0] * width
    depth = plan.frames[rid].index(w.prefix)
    rec = frames[depth].get(w.key)
    if rec is None:
        raise NotResumable("a choice made together without its record")
    order, entries, before, asked, _, saved = rec
    start = len(pool)
    pool.extend(order)
    pool.extend(-1 if e is None else 1 if e.__class__ is list else 0 for e in entries)
    for e in entries:
        pool.extend(_scalar(plan, v, t) for v, t in zip(e, w.types)) if e.__class__ is list else \
            pool.extend([0] * len(w.types))
    block = [1, len(order), asked, _number(before), start] + [_scalar(plan, v, t) for v, t in zip(saved, w.types)]
    return block + [0] * (width - len(block))


def _journal(plan: Plan, entries: list, pool: list) -> list:
    """IN's part of the journal: how many entries and cards, where their rows start in POOL
    (kind 0 swap or 1 move, zone a, zone b, tag, first card, cards), where the cards start."""
    rows, cards = [], []
    for e in entries:
        if e[0] == "swap":
            rows += [0, _row(plan, e[1]), _row(plan, e[2]), _tag(plan, e[3]), 0, 0]
        else:
            rows += [1, _row(plan, e[2]), _row(plan, e[3]), _tag(plan, e[4]), len(cards), len(e[1])]
            cards += _ints(plan, e[1], None)
    at = len(pool)
    pool.extend(rows)
    pool.extend(cards)
    return [len(entries), len(cards), at, at + len(rows)]


def _row(plan: Plan, ref) -> int:
    name, owner = ref
    return plan.rows[name] + (owner or 0)


def _tag(plan: Plan, tag) -> int:
    return _scalar(plan, tag, STR if isinstance(tag, str) else None)


def _np():
    import numpy
    return numpy


def _listed(typ) -> bool:
    return typ is not None and elem_of(typ) is not None and typ != ZONE and not is_map(typ)


def _bits(v) -> int:
    """A number of a kernel holding fractions, as IN holds it: its float64's bits (null as the
    kernel's NULL, a float)."""
    x = float(NULL if v is None else v)
    if x != x or abs(x) == float("inf") or type(v) is int and abs(v) > (1 << 53):
        raise NotResumable("a number the kernel does not hold exactly")
    return struct.unpack("<q", struct.pack("<d", x))[0]


def _held(plan: Plan, value, typ, pool: list, listed: bool) -> list:
    """A value as IN holds it: a number, or a list's (start, length) in POOL, and a pad."""
    if plan.fractions and typ == NUM and not listed:
        return [_bits(value), 0]
    if type(value) is int and not listed:      # (the most of them: a card, a seat, a number)
        return [value, 0]
    if listed:
        if not isinstance(value, list) and value is not None:
            raise NotResumable("a value the kernel does not hold")
        if value is None:
            return [len(pool), 0]
        start = len(pool)
        if _listed(elem_of(typ)):       # a list of lists: as the kernel holds it
            pool.extend(_encoded(plan, value, typ))
            return [start, len(pool) - start]
        pool.extend(_ints(plan, value, elem_of(typ) if typ is not None else None))
        return [start, len(value)]
    return [_scalar(plan, value, typ), 0]


def _encoded(plan: Plan, value: list, typ) -> list:
    """A list of lists as the kernel holds it (expressions.nested): its count, then each
    element's length and the element, itself so held if a list of lists."""
    elem, out = elem_of(typ), [len(value)]
    for v in value:
        if not isinstance(v, list):
            raise NotResumable("a value the kernel does not hold")
        e = _encoded(plan, v, elem) if _listed(elem_of(elem)) else _ints(plan, v, elem_of(elem))
        out += [len(e)] + list(e)
    return out


PLAIN = frozenset((int, bool))


def _ints(plan: Plan, values: list, typ) -> list:
    """Values as the kernel holds them: a list of cards, seats or whole numbers as it is."""
    if typ != STR and typ != ZONE and typ != SHOWN and set(map(type, values)) <= PLAIN:
        return values
    return [_scalar(plan, v, typ) for v in values]


def _scalar(plan: Plan, v, typ) -> int:
    if v is None:
        return NULL
    if typ == SHOWN:
        return 0
    if typ == STR:
        k = plan.texts.get(v)
        if k is None:
            if WHOLE.fullmatch(v) and -MAX_NUMBER < int(v) < MAX_NUMBER:      # (text() of a number: numtext)
                return NUMTEXT + int(v)
            raise NotResumable("a text the kernel does not know")
        return k
    if typ == ZONE:             # (a zone held in a name is its list itself, in Python: not read here)
        raise NotResumable("a zone held in a name")
    if isinstance(v, bool):
        return 1 if v else 0
    if isinstance(v, int) and -(1 << 61) < v < (1 << 61):
        return v
    if plan.fractions and isinstance(v, float) and v.is_integer() and abs(v) <= (1 << 53):
        return int(v)           # (a whole float, in a list: the kernel's lists hold whole numbers)
    raise NotResumable("a value the kernel does not hold")


def _number(v) -> int:
    return NULL if v is None else v
