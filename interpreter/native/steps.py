"""Steps (lang/ir.py) written as the kernel's source: one function `game` that plays a
whole game from its seed, the random bots inside (each seat's own SplitMix64, seeded as
playing/agents.Seating seeds it), and `batch`, which plays many and fills arrays.

Control flow is written as Python's own: a `turns` is a while loop, a choice computes its
legal options into an array and the seat's bot picks one, a procedure or trigger is
written in where it is called, with locals of its own.  `end_turn`, `end_round` and
`end_game` set EX, which every step after one that may end something tests.

The kernel keeps count of decisions, of steps (never fewer than the VM counts) and of the
built-ins' work; whatever it cannot do as Python would (a null where a value is needed, a
card not in the zone it should leave, a budget passed) ends the game with BAIL, and the
Python back end plays it again from its seed."""
from __future__ import annotations

import dataclasses

from ..lang import ir
from ..lang import expr_ir as E
from ..lang.expr_ir import ListLit, draws_random
from ..lang.types import BOOL, NUM, PILE, PLAYER, STR, ZONE, elem_of, is_map, value_of
from contextlib import contextmanager

from ..closures.layout import unset_names
from .apart import GAME_ARRAYS, GAME_SCALARS, RESUMING_ARRAYS, RESUMING_SCALARS, apart
from .expressions import BAIL, EXACT, INEXACT, SCALARS, Exprs, Out, Uncovered, is_list, nestable, of_lists, window_name
from .resume import HEADER, MAP_ENTRIES, SHOWN, STOPPED, Plan, Resumes, Window

EXITS = {"turn": 1, "round": 2, "game": 3}
JOURNAL, JOURNAL_CARDS = 4096, 16384        # entries and the cards they move (a game with more: BAIL)
MAX_REQUESTS = 64                           # requests open at once (one inside another's answer)
MAX_OPTIONS = 10000                         # options of one choice (the rows of OPT and OL)
OPEN, REFUSED, REDIRECTED = 0, 1, 2
MAX_INLINE_DEPTH = 12
# A kernel holding fractions (expressions.Fractional) says so by this line: -(1 << 62) + 1 is
# not a float64, and would read as NULL once a statistic's value is one.
FLOAT_INEXACT = "INEXACT = -(1 << 61)    # a statistic the kernel cannot compute exactly (of floats)"


class KernelWriter(Exprs):
    """The kernel's writer; with the closure back end's `layout` (closures/layout.py), the
    variant that can also resume a game at a decision (native/resume.py): each choice it can
    resume at numbered, the steps before it on its way skipped while RES holds its number."""

    def __init__(self, ruleset, max_players: int, layout=None, apart: bool = False, fractions: bool = False):
        super().__init__(ruleset, Out(indent=1))
        r = ruleset
        self.fractions = fractions      # (expressions.Fractional)
        self.apart = apart              # functions that make lists, and procedures, written apart (native/apart.py)
        self.apart_locals = {}          # a procedure apart's name -> its rules' locals (resumable: read from IN there)
        self.apart_lists = set()        # those of them that hold lists
        self.procedures = {}            # a procedure's name -> its Apart (None: written in at each call)
        self.procedures_src = []        # their sources
        self.xs = {}                    # a game's scalar -> its place in XS, where calls pass it
        self.maxp = max_players
        self.layout = layout
        self.resumable = layout is not None
        self.resume = Resumes()
        self.zone_rows, row = {}, 0
        self.pile_zones = {}            # a zone of piles -> its number (PK's index): its piles are its rows
        for z in r.zones.values():
            self.zone_rows[z.name] = row
            if z.piles:                 # a row per pile, at most one per card and the one being made
                self.pile_zones[z.name] = len(self.pile_zones)
                row += len(r.deck.ids) + 1
            else:
                row += max_players if z.per_player else 1
        self.rows = row
        self.frames = 0
        self.depth = 0
        self.revealing = 0              # > 0: writing the `do` of a choice made together (no exit, no decision)
        self.windows = {}               # RES -> the Window of the choice made together it resumes at
        self.window_buffers = {}
        self.asked_before = 0
        self.exits_memo = {}
        self.stats_src = []             # (function name, its lines, its value) of each statistic
        self.stat_locals = {}
        self.stat_list_locals = {}
        self.stat_buffers = {}
        self.opt_width = 1              # the widest row of a choice among kinds' options (OPT)
        self.among = False
        self.list_options = False       # a choice among lists: OL, OLN
        self.ol_width = "NC"            # OL's rows: NC, or OLW where an option is a list of lists
        self.journal = False            # the journal's arrays are made (JR entries, JC their cards)
        self.requests = False           # the open requests' stack is made (RQ: from, to, status, target, piece)
        self.shown = shown_only(r)     # ("G" or "P", name) of the texts only the table reads: kept as null or not
        self.maps = {}                  # ("G" or "P", name) of a map variable -> its values' type (map_rows)
        for kind, section in (("G", r.variables), ("P", r.player_variables)):
            for name, v in section.items():
                if is_map(v.type) and value_of(v.type) in SCALARS and name not in r.symbols.team_vars:
                    if fractions and value_of(v.type) == NUM:
                        raise Uncovered("a map of numbers beside numbers that are not whole")
                    self.maps[(kind, name)] = value_of(v.type)
        self.variables = {name: v for name, v in r.variables.items() if ("G", name) not in self.maps}
        self.player_variables = {name: v for name, v in r.player_variables.items() if ("P", name) not in self.maps}
        for name, v in self.variables.items():
            if v.type not in SCALARS + (ZONE,) and not (is_list(v.type) and elem_of(v.type) in SCALARS):
                raise Uncovered(f"a variable of type {v.type} ('{name}')")
        for name, v in self.player_variables.items():
            listed = is_list(v.type) and elem_of(v.type) in SCALARS and name not in r.symbols.team_vars
            if v.type not in SCALARS + (ZONE,) and not listed:
                raise Uncovered(f"a player variable of type {v.type} ('{name}')")
        self.team_vars = r.symbols.team_vars
        self.restarts = restarts_turns(r, (r.flow, r.procedures, r.triggers))    # a `restart_turns` anywhere
        self.turn_frames = []           # the restart flags of the turns being written, innermost last

    def numbers(self, typ) -> str:
        """The dtype of an array of values of type `typ`: float64 for numbers in a kernel
        holding fractions (expressions.Fractional)."""
        return "np.float64" if self.fractions and typ == NUM else "np.int64"

    # -- the source ---------------------------------------------------------------------
    def source(self) -> str:
        r = self.r
        body = self.out
        env = self.frame()
        flow = self.layout.flow if self.resumable else None
        self.resume.prefixes.append(env["#frame"])
        top = []
        with self.section(top):
            body.line("# setup")
            self.steps(r.flow.setup, env)
        with self.section(top), body.block("while EX == 0:"):
            with self.unless_resuming():
                body.line("ROUNDS += 1")
                body.line("STEPS += 5")
            parts = []
            with self.section(parts):
                self.dispatch("round_start", ret=_after(flow.start_call) if flow else None)
            with self.section(parts):
                self.steps(r.flow.round, env)
            body.line("if EX == 2: EX = 0")
            with body.block("if EX == 0:"):
                with self.section(parts):
                    self.dispatch("round_end", ret=_after(flow.end_call) if flow else None)
                self.close(parts)
                self.round_tally()
                with body.block("if EX == 0:"):
                    u = self.emit(r.flow.until, env)
                    body.line(f"if {u} != 0 and {u} != NULL: break")
            body.line("if EX == 3: break")
            body.line("if EX != 0: " + BAIL)
        body.line("EX = 0")
        with self.section(top):
            self.steps(r.flow.end, env)
        self.close(top)
        body.line("if EX != 0: " + BAIL)
        self.result()
        if self.journal and self.pile_zones:
            raise Uncovered("a journal beside zones of piles")
        standing = self.standing_source() if self.resumable else []
        head = self.head()
        if self.resumable:
            self.procedures_src = [[y for x in f for y in (self.apart_loads(self.plan_, x.split()[1])
                                                              if x.startswith("    #LOADS ") else [x])]
                                   for f in self.procedures_src]
        return "\n".join(self.tables_source() + self.piles_source() + [x for f in self.functions_src for x in f]
                         + [x for f in self.procedures_src for x in f]
                         + self.stats_source() + standing
                         + head + body.lines + ["    return 0", ""] + self.batch_source())

    def tables_source(self) -> list:
        teams = dict(self.r.teams)
        of = [list(teams.get(k, ())) + [0] * (self.maxp - len(teams.get(k, ()))) for k in range(self.maxp + 1)]
        return self.concat_tables() + self.numtext_source() + self.nests_source() + \
            [f"{name} = np.array({list(values)!r}, dtype=np.int64)" for name, values in self.tables.items()] + \
            ["BAIL = 1", FLOAT_INEXACT if self.fractions else "INEXACT = -(1 << 62) + 1    # a statistic the kernel cannot compute exactly", f"NC = {len(self.r.deck.ids)}", f"ROWS = {self.rows}",
             f"TEAMS = np.array({of!r}, dtype=np.int64)    # players -> the team of each seat",
             f"KP = np.array({(self.pool or [0])!r}, dtype=np.int64)    # constant lists read in place (spans)"] + \
            ([f"LB = {self.plan_.loops_base}    # where the loops' cursors start in IN (native/resume.py)"] if self.resumable else []) + \
            (["PCAP = max(NC, 64)    # the longest list a player variable holds (a longer one: BAIL)"]
             if any(is_list(v.type) for v in self.player_variables.values()) else []) + \
            (["OLW = max(NC, 256)    # the longest option that is a list of lists (a longer one: BAIL)"]
             if self.ol_width == "OLW" else []) + [""]

    def piles_source(self) -> list:
        """`pile_row`: the row of Z holding pile number p (its zone's rows in the order its piles
        were made, PK of them), or -1 where it is not on the table (runtime/piles.py)."""
        if not self.pile_zones:
            return []
        lines = ["", "@njit(cache=False)", "def pile_row(PNUM, PK, p):"]
        for name, k in self.pile_zones.items():
            base = self.zone_rows[name]
            lines += [f"    for i in range(PK[{k}]):", f"        if PNUM[{base} + i] == p: return {base} + i"]
        return lines + ["    return -1", ""]

    def stats_source(self) -> list:
        """One function per statistic: its value, or NULL where the rules cannot compute it."""
        lines = []
        for fn, body, value in self.stats_src:
            lines += ["", "@njit(cache=False)", f"def {fn}({self.shared_args()}):", "    W = 0"]
            lines += [f"    {name} = NULL" for name in sorted(self.stat_locals.get(fn, ()))]
            lines += [f"    {name} = np.empty(0, np.int64)" for name in sorted(self.stat_list_locals.get(fn, ()))]
            lines += [f"    {name} = np.empty({capacity}, np.int64)" for name, capacity in self.stat_buffers[fn]]
            lines += [x.replace(INEXACT, "return INEXACT").replace(BAIL, "return NULL") for x in body]
            lines.append(f"    return {value}")
        return lines

    def head(self) -> list:
        r = self.r
        lines = ["    R[0] = seeded(seed)",
                 "    for p in range(n):",
                 "        R[p + 1] = seeded(seed * 1000 + p + 1)",
                 "    ZN[:] = 0",
                 f"    for c in range(NC): Z[{self.zone_rows[r.start_zone]}, c] = c",
                 f"    ZN[{self.zone_rows[r.start_zone]}] = NC",
                 "    OUT[:] = 0",
                 "    TM = TEAMS[n]",
                 "    CUR = NULL", "    EX = 0", "    W = 0", "    STEPS = 0", "    DEC = 0", "    ROUNDS = 0",
                 "    NR = 0"]
        scratch = [("R", "np.empty(n + 1, np.uint64)"), ("Z", "np.empty((ROWS, NC), np.int64)"),
                   ("ZN", "np.zeros(ROWS, np.int64)"), ("OUT", "np.zeros(n, np.int64)"),
                   ("SB", "np.empty(NC + 1, np.int64)")]
        for (kind, name) in self.maps:  # a map's keys (texts), values and entries, a row per player (one: a global's)
            rows = "n" if kind == "P" else "1"
            scratch += [(f"MK_{kind}_{name}", f"np.empty(({rows}, {MAP_ENTRIES}), np.int64)"),
                        (f"MV_{kind}_{name}", f"np.empty(({rows}, {MAP_ENTRIES}), np.int64)"),
                        (f"MN_{kind}_{name}", f"np.zeros({rows}, np.int64)")]
        if self.pile_zones:             # each pile's number and owner by row, the piles of each zone
            scratch += [("PNUM", "np.empty(ROWS, np.int64)"), ("POWN", "np.empty(ROWS, np.int64)"),
                        ("PK", f"np.zeros({len(self.pile_zones)}, np.int64)")]
            lines += ["    PK[:] = 0", "    MADE = 0"]
        init = Out(indent=1)
        init.count = self.out.count         # its names are not the body's
        keep, self.out = self.out, init
        try:
            env = {"#frame": "I_"}
            for (kind, name), typ in self.maps.items():
                self._map_initial(kind, name, typ, (r.variables if kind == "G" else r.player_variables)[name])
            for name, v in self.variables.items():
                if is_list(v.type):
                    init.line(f"G_{name} = {self.array(v.initial, env)}.copy()")
                elif ("G", name) in self.shown:
                    init.line(f"G_{name} = {self.nullness(v.initial, env)}")
                else:
                    init.line(f"G_{name} = {self.emit(v.initial, env)}")
            for name, v in self.player_variables.items():
                if is_list(v.type):     # a row each, as long as PL says
                    init.line(f"P_{name} = np.empty((n, PCAP), np.int64); PL_{name} = np.zeros(n, np.int64)")
                    p = init.fresh("p")
                    with init.block(f"for {p} in range(n):"):
                        self._set_row(name, p, self.array(v.initial, {'#frame': 'I_', 'p': p}))
                    continue
                init.line(f"P_{name} = np.empty(n, {self.numbers(v.type)})")
                p = init.fresh("p")
                with init.block(f"for {p} in range(n):"):
                    lead = p
                    if name in self.team_vars:      # computed for the team's first player, and shared
                        lead, q = init.fresh("q"), init.fresh("q")
                        init.line(f"{lead} = {p}")
                        with init.block(f"for {q} in range({p}):"):
                            init.line(f"if TM[{q}] == TM[{p}]: {lead} = {q}; break")
                    value = self.nullness if ("P", name) in self.shown else self.emit
                    init.line(f"P_{name}[{p}] = {value(v.initial, {'#frame': 'I_', 'p': lead})}")
        finally:
            self.out = keep
        for name in sorted(self.locals):
            lines.append(f"    {name} = NULL")
        for name in sorted(self.list_locals):
            lines.append(f"    {name} = np.empty(0, np.int64)")
        for name, capacity in self.buffers:     # (those of the initial values too)
            scratch.append((name, f"np.empty({capacity}, np.int64)"))
        if self.xs:
            scratch.append(("XS", f"np.empty({len(self.xs)}, {self.numbers(NUM)})"))
        if self.among:
            scratch.append(("OPT", f"np.empty(({MAX_OPTIONS}, {self.opt_width}), np.int64)"))
        if self.list_options:
            scratch += [("OL", f"np.empty(({MAX_OPTIONS}, {self.ol_width}), np.int64)"),
                        ("OLN", f"np.empty({MAX_OPTIONS}, np.int64)")]
        if self.requests:
            scratch.append(("RQ", f"np.empty(({MAX_REQUESTS}, 5), np.int64)"))
            lines.append("    RQN = 0")
        if self.journal:
            scratch += [("JR", f"np.empty(({JOURNAL}, 6), np.int64)"), ("JC", f"np.empty({JOURNAL_CARDS}, np.int64)")]
            lines += ["    JN = 0", "    JCN = 0"]
        if not self.resumable:
            self.scratch = scratch
            names = ", ".join(name for name, _ in scratch)
            return ["", "", "@njit(cache=False)", f"def game(seed, n, WIN, SCORE, GSTAT, RSTAT, info, {names}):"] + \
                lines + init.lines
        scratch.append(("BOT", "np.empty(n, np.int64)"))
        self.scratch = scratch
        names = ", ".join(name for name, _ in scratch)
        starting, common = lines[:7], lines[7:]
        self.plan_ = self.plan()
        return ["", "", "@njit(cache=False)", f"def game(seed, n, WIN, SCORE, GSTAT, RSTAT, info, {names}, IN, POOL, RI):"] + \
            common + ["    RES = IN[0]", "    PO = RES != 0", "    HZ = IN[5]", "    DMAX = IN[6]", "    if RES == 0:",
                      "        for p in range(n): BOT[p] = p + 1"] + \
            ["    " + x for x in starting + init.lines] + ["    else:"] + ["    " + x for x in self.loads(self.plan_)]

    def plan(self) -> Plan:
        """Where the resumable kernel reads each part of a state (native/resume.py)."""
        r = self.r
        listed = self.list_locals | self.apart_lists
        names = sorted(self.locals | listed | set().union(*self.apart_locals.values()))
        players = tuple((name, SHOWN if ("P", name) in self.shown else v.type) for name, v in self.player_variables.items())
        return Plan(rows=dict(self.zone_rows), per_player=frozenset(z.name for z in r.zones.values() if z.per_player),
                    n_rows=self.rows, max_players=self.maxp, texts=self.texts,     # (complete once the tables are written)
                    globals_=tuple((name, SHOWN if ("G", name) in self.shown else v.type) for name, v in self.variables.items()),
                    players_=players,
                    locals_=tuple((name, self.local_types.get(name), name in listed) for name in names),
                    targets=dict(self.resume.targets), frames=dict(self.resume.frames),
                    loops=dict(self.resume.loops), slots=self.resume.slots, journal=self.journal,
                    windows=dict(self.windows),
                    piles=tuple((name, self.zone_rows[name]) for name in self.pile_zones), pile_rows=len(r.deck.ids) + 1,
                    maps=tuple((kind, name, typ) for (kind, name), typ in self.maps.items()), fractions=self.fractions)

    def apart_loads(self, plan: Plan, name: str) -> list:
        """The lines of procedure apart `name` that read its locals out of IN and POOL where a
        play-out resumes inside it (the game reads the others: loads)."""
        own = self.apart_locals[name]
        lines = [self.read(x, listed, typ, plan.locals_base + 2 * i, 2)
                 for i, (x, typ, listed) in enumerate(plan.locals_) if x in own]
        return ["    if RES != 0:"] + lines if lines else []

    def read(self, name: str, listed: bool, typ, at: int, indent: int = 1) -> str:
        """The line that reads value `name` (of `typ`, a list or not) from IN[at] (and POOL)."""
        pad = "    " * indent
        if listed:
            return f"{pad}{name} = POOL[IN[{at}]:IN[{at}] + IN[{at + 1}]].copy()"
        if self.fractions and typ == NUM:     # (its float64's bits: resume._bits)
            return f"{pad}{name} = IN[{at}:{at} + 1].view(np.float64)[0]"
        return f"{pad}{name} = IN[{at}]"

    def loads(self, plan: Plan) -> list:
        """The lines that read a state out of IN and POOL (Plan's order)."""
        lines = ["    CUR = IN[1]; ROUNDS = IN[2]; STEPS = IN[3]; DEC = IN[4]",
                 "    R[0] = RI[0]; R[1] = RI[1]",
                 "    for p in range(n):",
                 f"        OUT[p] = IN[{HEADER} + p]; BOT[p] = 1",
                 "    for r in range(ROWS):",
                 f"        ZN[r] = IN[{plan.zone_base} + 2 * r + 1]",
                 f"        Z[r, :ZN[r]] = POOL[IN[{plan.zone_base} + 2 * r]:IN[{plan.zone_base} + 2 * r] + ZN[r]]"]
        at = plan.globals_base
        for name, typ in plan.globals_:
            lines.append(self.read(f"G_{name}", is_list(typ), typ, at))
            at += 2
        for name, typ in plan.players_:
            if is_list(typ):        # each player's row, as long as PL says (resume.encode)
                lines += [f"    P_{name} = np.empty((n, PCAP), np.int64); PL_{name} = np.zeros(n, np.int64)",
                          "    for p in range(n):",
                          f"        PL_{name}[p] = IN[{at} + 2 * p + 1]; st = IN[{at} + 2 * p]",
                          f"        if PL_{name}[p] > PCAP: " + BAIL,
                          f"        P_{name}[p, :PL_{name}[p]] = POOL[st:st + PL_{name}[p]]"]
                at += 2 * plan.max_players
                continue
            floats = plan.fractions and typ == NUM
            lines.append(f"    P_{name} = np.empty(n, {self.numbers(typ)}); "
                         f"P_{name}[:] = IN[{at}:{at} + n]{'.view(np.float64)' if floats else ''}")
            at += plan.max_players
        assert at == plan.locals_base
        for name, typ, listed in plan.locals_:
            if name in self.locals or name in self.list_locals:     # (a procedure apart reads its own)
                lines.append(self.read(name, listed, typ, at))
            at += 2
        assert at == plan.loops_base
        if plan.journal:            # its entries (JR's rows) and the cards its moves moved (JC), as the journal holds them
            jb = plan.journal_base
            lines += [f"    JN = IN[{jb}]; JCN = IN[{jb + 1}]",
                      f"    if JN > {JOURNAL} or JCN > {JOURNAL_CARDS}: " + BAIL,
                      "    for j in range(JN):",
                      f"        JR[j, :] = POOL[IN[{jb + 2}] + 6 * j:IN[{jb + 2}] + 6 * j + 6]",
                      f"    JC[:JCN] = POOL[IN[{jb + 3}]:IN[{jb + 3}] + JCN]"]
        wb = plan.windows_base
        for rid, w in plan.windows.items():     # the record of the choice made together resumed in
            k, (order, entry, values), j = w.kernel, w.buffers, len(w.types)
            lines += [f"    if RES == {rid}:",
                      f"        {k}_o = {order}; {k}_e = {entry}; {k}_v = {values}",
                      f"        {k}_m = IN[{wb + 1}]; {k}_i = IN[{wb + 2}]; {k}_b = IN[{wb + 3}]; st = IN[{wb + 4}]",
                      f"        {k}_o[:{k}_m] = POOL[st:st + {k}_m]; {k}_e[:{k}_m] = POOL[st + {k}_m:st + 2 * {k}_m]",
                      f"        {k}_v[:{k}_m * {j}] = POOL[st + 2 * {k}_m:st + 2 * {k}_m + {k}_m * {j}]"]
            lines += [f"        {k}_p{i} = IN[{wb + 5 + i}]" for i in range(j)]
        if plan.piles:              # each pile's number and owner by row (resume._piles)
            pb = plan.piles_base
            lines.append(f"    MADE = IN[{pb}]")
            for k, (_, base) in enumerate(plan.piles):
                lines += [f"    PK[{k}] = IN[{pb + 1 + 2 * k}]; st = IN[{pb + 2 + 2 * k}]",
                          f"    for i in range(PK[{k}]):",
                          f"        PNUM[{base} + i] = POOL[st + 2 * i]; POWN[{base} + i] = POOL[st + 2 * i + 1]"]
        at = plan.maps_base
        for kind, name, _ in plan.maps:     # each row's entries (resume._maps)
            m = f"{kind}_{name}"
            lines += [f"    for r in range({'n' if kind == 'P' else 1}):",
                      f"        MN_{m}[r] = IN[{at} + 2 * r]; st = IN[{at} + 2 * r + 1]",
                      f"        MK_{m}[r, :MN_{m}[r]] = POOL[st:st + MN_{m}[r]]",
                      f"        MV_{m}[r, :MN_{m}[r]] = POOL[st + MN_{m}[r]:st + 2 * MN_{m}[r]]"]
            at += 2 * (plan.max_players if kind == "P" else 1)
        return lines

    def batch_source(self) -> list:
        """The games of a batch, the arrays every game works in made once for them all (each
        game sets what it reads before reading it)."""
        names = ", ".join(name for name, _ in self.scratch)
        more = ", IN, POOL, RI" if self.resumable else ""
        lines = ["", "",
                 "@njit(cache=False)",
                 "def batch(seed0, games, n, WIN, SCORE, GSTAT, RSTAT, INFO):"] + \
            [f"    {name} = {alloc}" for name, alloc in self.scratch] + \
            (["    IN = np.zeros(8, np.int64)", "    POOL = np.zeros(1, np.int64)", "    RI = np.zeros(2, np.uint64)"]
             if self.resumable else []) + \
            ["    for g in range(games):",
             f"        INFO[g, 0] = game(seed0 + g, n, WIN[g], SCORE[g], GSTAT[g], RSTAT[g], INFO[g], {names}{more})",
             "    return games", ""]
        if self.resumable:
            lines += self.playout_source()
        return lines

    def playout_source(self) -> list:
        """`scratch(n)`: the arrays a game works in, made once by the caller; `playout(...)`:
        one game resumed from IN and POOL (the bot's and the game's generators in RI), to its
        end or its stop; the bot's generator as it is left, in RO."""
        names = ", ".join(name for name, _ in self.scratch)
        allocs = ", ".join(alloc for _, alloc in self.scratch)
        return ["", "@njit(cache=False)", "def scratch(n):", f"    return ({allocs},)", "",
                "@njit(cache=False)",
                f"def playout(n, IN, POOL, RI, WIN, SCORE, GSTAT, RSTAT, INFO, RO, {names}):",
                f"    INFO[0] = game(IN[7], n, WIN, SCORE, GSTAT, RSTAT, INFO, {names}, IN, POOL, RI)",      # (no literal: the one compiled game)
                "    RO[0] = R[1]",
                "    return INFO[0]", ""]

    def standing_source(self) -> list:
        """`stop_here`: where a play-out stops short, each player's standing (SCORE), or BAIL
        where the rules cannot compute it (Python plays the play-out then)."""
        shared = self.shared_args()
        lines = ["", "@njit(cache=False)", f"def stop_here(SCORE, {shared}):", "    W = 0"]
        st = self.r.result.standing
        if st is None:
            return lines + [f"    return {STOPPED}"]
        inner = Out(indent=2)
        keep, self.out = self.out, inner
        before, before_lists, buffers = set(self.locals), set(self.list_locals), len(self.buffers)
        try:
            v = self.emit(st, {**self.frame(), "p": "p"})
        finally:
            self.out = keep
        lines += [f"    {name} = NULL" for name in sorted(self.locals - before)]
        lines += [f"    {name} = np.empty(0, np.int64)" for name in sorted(self.list_locals - before_lists)]
        lines += [f"    {name} = np.empty({capacity}, np.int64)" for name, capacity in self.buffers[buffers:]]
        del self.buffers[buffers:]
        self.locals, self.list_locals = before, before_lists
        return lines + ["    for p in range(n):"] + inner.lines + \
            [f"        SCORE[p] = {v}", "        if SCORE[p] == NULL: return BAIL", f"    return {STOPPED}"]

    # -- frames ---------------------------------------------------------------------------
    def frame(self) -> dict:
        """A fresh set of locals (the flow's, a procedure's, a trigger dispatch's)."""
        self.frames += 1
        return {"#frame": f"L{self.frames}_"}

    # -- what ends the game --------------------------------------------------------------
    def result(self):
        r, out = self.r, self.out
        out.line("# the result")
        env = self.frame()
        k = out.fresh("k")
        out.line(f"{k} = 0")

        def winner(e):
            self.not_null(e)
            out.line(f"if {k} >= len(WIN): " + BAIL)
            out.line(f"WIN[{k}] = {e}")
            out.line(f"{k} += 1")
        self.each(r.result.winners, env, winner, charge=False)
        out.line(f"info[4] = {k}")
        if r.result.score is not None:
            if r.result.score.type not in (NUM, BOOL):
                raise Uncovered(f"scores of type {r.result.score.type}")
            p = out.fresh("p")
            with out.block(f"for {p} in range(n):"):
                v = self.emit(r.result.score, {**env, "p": p})
                out.line(f"SCORE[{p}] = {v}")
        out.line("W = 0")
        with self.measuring():
            self._stat_row("GSTAT[{}]", [st for st in r.statistics if st.per != "round"])
            if any(st.per == "round" for st in r.statistics):     # a last round cut short by end_game
                with out.block("if NR < ROUNDS:"):
                    self._tally_row()
        out.line("info[1] = DEC")
        out.line("info[2] = ROUNDS")
        out.line("info[3] = NR")

    def _stat_row(self, cell: str, statistics) -> None:
        """The statistics' values into their columns (`cell`: where column {} is): a fraction's
        two parts, a column each."""
        for st, col, fraction in stat_columns(statistics):
            parts = (st.value.a, st.value.b) if fraction else (st.value,)
            for i, part in enumerate(parts):
                self.out.line(f"{cell.format(col + i)} = {self.statistic(part)}")

    def statistic(self, value) -> str:
        """A statistic's value (or a part of a fraction), or NULL where it cannot be computed
        (tally.measured)."""
        if value.type not in (NUM, BOOL):
            raise Uncovered(f"a statistic of type {value.type}")
        if draws_random(value):
            raise Uncovered("a statistic that draws random numbers")
        t = self.out.fresh("s")
        inner = Out(indent=1)
        keep, self.out = self.out, inner
        before, before_lists, buffers = set(self.locals), set(self.list_locals), len(self.buffers)
        self.in_statistic = True
        try:
            v = self.emit(value, self.frame())
        finally:
            self.out = keep
            self.in_statistic = False
        fn = f"stat{len(self.stats_src)}"
        self.stat_locals[fn] = self.locals - before
        self.stat_list_locals[fn] = self.list_locals - before_lists
        self.list_locals = before_lists
        self.stat_buffers[fn] = self.buffers[buffers:]
        del self.buffers[buffers:]
        self.locals = before
        self.stats_src.append((fn, inner.lines, v))
        keep.line(f"{t} = {fn}({self.shared_args()})")
        keep.line(f"if {t} == INEXACT: " + BAIL)
        return t

    def round_tally(self):
        if any(st.per == "round" for st in self.r.statistics):
            with self.measuring():
                self._tally_row()

    def measuring(self):
        """The statistics: not measured in a play-out (nor in Python: no tally is kept there)."""
        return self.resumable_only("not PO")

    @contextmanager
    def resumable_only(self, test: str):
        """What follows, under `test` in the resumable variant (as it is in the other)."""
        if not self.resumable:
            yield
            return
        with self.out.block(f"if {test}:"):
            self.out.line("pass")
            yield

    def _tally_row(self):
        out = self.out
        per = [st for st in self.r.statistics if st.per == "round"]
        if not per:
            return
        out.line("if NR >= RSTAT.shape[0]: " + BAIL)
        self._stat_row("RSTAT[NR, {}]", per)
        out.line("NR += 1")

    def state_args(self) -> str:
        names = [f"G_{v}" for v in self.variables] + [f"P_{v}" for v in self.player_variables] + \
            [f"PL_{name}" for name, v in self.player_variables.items() if is_list(v.type)] + \
            [f"M{x}_{kind}_{name}" for kind, name in self.maps for x in "KVN"] + \
            (["PNUM", "POWN", "PK"] if self.pile_zones else [])
        return ", ".join(names) if names else "0"

    # -- steps -----------------------------------------------------------------------------
    def steps(self, steps, env) -> None:
        out = self.out
        opened = 0
        sections = []
        for step in steps:
            with self.section(sections):
                self.step(step, env)
            if self.may_exit(step):
                out.line("if EX == 0:")
                out.indent += 1
                opened += 1
                out.line("pass")
        self.close(sections)
        out.indent -= opened

    # -- resuming (the resumable variant only) -----------------------------------------------
    @contextmanager
    def section(self, sections: list):
        """Steps a resumed game skips unless the choice it resumes at lies in them: their guard
        is written once they are (close), from the choices numbered inside."""
        if not self.resumable:
            yield
            return
        out = self.out
        sections.append([len(out.lines), out.indent, self.resume.count + 1, None])
        out.line("#")
        out.indent += 1
        out.line("pass")
        yield
        out.indent -= 1
        sections[-1][3] = self.resume.count

    def close(self, sections: list) -> None:
        """Each section's guard: up to the last that holds a choice resumed at, skipped while
        resuming elsewhere; after it, none (the resumed choice has been reached by then)."""
        last = max((i for i, (_, _, lo, hi) in enumerate(sections) if hi >= lo), default=-1)
        for i, (at, indent, lo, hi) in enumerate(sections):
            test = "True" if i > last else f"RES == 0 or {lo} <= RES <= {hi}" if hi >= lo else "RES == 0"
            self.out.lines[at] = "    " * indent + f"if {test}:"

    def unless_resuming(self):
        """What a resumed game does not do again (the values a call passes, a loop's start)."""
        return self.resumable_only("RES == 0")

    def when(self, cond, env, then, pad: bool = True) -> None:
        """`then()` written under the test `cond` (an `if`, a trigger's `when`); resumed inside,
        taken where the resumed choice lies in it, the test not computed."""
        out = self.out
        if self.resumable:
            flag = out.fresh("c")
            with out.block("if RES == 0:"):
                c = self.emit(cond, env)
                out.line(f"{flag} = {c} != 0 and {c} != NULL")
            self.holds(flag, then)
            return
        c = self.emit(cond, env)
        with out.block(f"if {c} != 0 and {c} != NULL:"):
            if pad:
                out.line("pass")
            then()

    def holds(self, flag: str, then):
        """`flag` = whether the steps `then` writes are taken: the condition already set in
        flag while playing; while resuming, whether the resumed choice lies in them."""
        out = self.out
        with out.block("else:"):
            at = len(out.lines)
            out.line("#")
        lo = self.resume.count + 1
        with out.block(f"if {flag}:"):
            out.line("pass")
            then()
        hi = self.resume.count
        out.lines[at] = "    " * (out.indent + 1) + f"{flag} = {f'{lo} <= RES <= {hi}' if hi >= lo else 'False'}"

    def record(self, step, kind=None):
        """The closure layout's record of `step` (resumable variant), None otherwise."""
        return self.layout.of(step, kind) if self.resumable else None

    @contextmanager
    def blocked(self, really=True):
        """Steps no play-out resumes inside (their choices are not numbered)."""
        self.resume.blocked += 1 if really else 0
        try:
            yield
        finally:
            self.resume.blocked -= 1 if really else 0

    @contextmanager
    def called(self, ret: int | None, prefix: str):
        """A procedure's or a dispatch's steps, written in at a call returning to `ret`."""
        r = self.resume
        r.chain.append(ret)
        r.prefixes.append(prefix)
        with self.blocked(ret is None):
            yield
        r.chain.pop()
        r.prefixes.pop()

    def target(self, s) -> None:
        """A choice a play-out may resume at: numbered, and where it is resumed, RES cleared.
        The kernel computes its options again there, as the Python computed them for the state
        it resumes (a bot's play-out starts after a move, on the imagined deal); a choice whose
        options, legality, chooser or kinds draw random numbers is not resumed at (drawn again,
        they would take the game's next numbers)."""
        if not self.resumable:
            return
        rec = self.layout.of(s)
        if rec is None or any(e is not None and draws_random(e) for e in _choice_parts(s)):
            return
        rid = self.resume.target(rec.ask + 1)
        if rid is not None:
            self.out.line(f"if RES == {rid}: RES = 0")

    def stop_check(self) -> None:
        """A play-out stops at the first decision past its round (with a standing) or past its
        number of decisions: the standing computed there (stop_here)."""
        if self.resumable:
            self.out.line(f"if PO and ((HZ >= 0 and ROUNDS != HZ) or DEC >= DMAX): return stop_here(SCORE, {self.shared_args()})")

    def bot(self, who: str) -> str:
        """The generator of the seat's bot: its own, or in a play-out the planning bot's."""
        return f"BOT[{who}]" if self.resumable else f"{who} + 1"

    def may_exit(self, step) -> bool:
        key = id(step)
        if key in self.exits_memo:
            return self.exits_memo[key]
        self.exits_memo[key] = False        # (a procedure calling itself: written in, refused below)
        found = False
        if isinstance(step, ir.Exit):
            found = True
        elif isinstance(step, ir.Call):
            found = any(self.may_exit(s) for s in self.r.procedures[step.procedure])
        elif isinstance(step, ir.Emit):
            found = any(self.may_exit(s) for t in self.r.triggers.get(step.event, ()) for s in t.body)
        elif isinstance(step, ir.Turns):
            found = any(self.may_exit(s) for s in step.body) or self._triggers_exit("turn_start", "turn_end")
        elif not isinstance(step, ir.Effect):
            for value in vars(step).values():
                if isinstance(value, (list, tuple)):
                    for s in value:
                        if not isinstance(s, (ir.Alternative,)) and hasattr(s, "path") and self.may_exit(s):
                            found = True
                        if isinstance(s, ir.Alternative) and s.body and any(self.may_exit(x) for x in s.body):
                            found = True
        self.exits_memo[key] = found
        return found

    def _triggers_exit(self, *events) -> bool:
        return any(self.may_exit(s) for e in events for t in self.r.triggers.get(e, ()) for s in t.body)

    def step(self, step, env) -> None:
        method = getattr(self, "s_" + type(step).__name__, None)
        if method is None:
            raise Uncovered(f"the step {type(step).__name__}")
        self.out.line("STEPS += 2")
        method(step, env)

    def dispatch(self, event, payload=None, ret=None) -> None:
        """The event's triggers written in, with a frame of their own: `payload()` gives the
        values it carries (computed first, in the caller's frame), `ret` the pc the VM's call of
        its dispatcher returns to (None: no play-out resumes inside)."""
        triggers = self.r.triggers.get(event)
        if not triggers:
            return
        self.inline_depth()
        env = self.frame()
        out = self.out
        with self.unless_resuming():
            for name, (v, typ) in (payload() if payload else {}).items():
                local = self.local(env["#frame"] + name, typ)
                out.line(f"{local} = {v}")
            out.line("STEPS += 2")
        opened = 0
        sections = []
        with self.called(ret, env["#frame"]):
            for t in triggers:
                with self.section(sections):
                    self._trigger(t, env)
                if any(self.may_exit(s) for s in t.body):
                    out.line("if EX == 0:")
                    out.indent += 1
                    opened += 1
                    out.line("pass")
            self.close(sections)
        out.indent -= opened
        self.frame_left(env)
        self.depth -= 1

    def frame_left(self, env) -> None:
        """A frame of a call or a dispatch left: its restart flag, if its turns have one, put
        down (the VM's frame, and its `#restart`, is gone; the kernel's is met again at the
        next call from the same place)."""
        flag = restart_flag(env)
        if flag in self.locals:
            self.out.line(f"{flag} = NULL")

    def _trigger(self, t, env) -> None:
        if t.when is None:
            self.steps(t.body, env)
        else:
            self.when(t.when, env, lambda: self.steps(t.body, env), pad=False)

    def inline_depth(self):
        self.depth += 1
        if self.depth > MAX_INLINE_DEPTH:
            raise Uncovered("procedures or triggers calling one another too deeply")

    # effects
    def s_Log(self, s, env):
        pass

    def s_Reveal(self, s, env):
        pass

    def s_Shuffle(self, s, env):
        z = self.emit(s.zone, env)
        self.charge(f"ZN[{z}]")
        self.out.line(f"shuffle(R, Z, ZN, {z})")

    def s_Sort(self, s, env):
        out = self.out
        z = self.emit(s.zone, env)
        self.charge(f"ZN[{z}] * 4")
        i = out.fresh("i")
        if s.key.type == STR:
            raise Uncovered("a sort by texts")
        with out.block(f"for {i} in range(ZN[{z}]):"):
            v = self.emit(s.key, {**env, s.var: f"Z[{z}, {i}]"})
            out.line(f"SB[{i}] = {self.whole(v, s.key.type)}")
            out.line(f"if SB[{i}] == NULL and ZN[{z}] > 1: " + BAIL)
        out.line(f"sort_zone(Z, ZN, {z}, SB)")

    def s_Move(self, s, env):
        out = self.out
        if s.card is not None:
            c = self.emit(s.card, env)
            src = self.emit(s.src, env)
            out.line(f"if not take_out(Z, ZN, {src}, {c}): " + BAIL)
            dst = self.emit(s.dst, env)
            out.line(f"put(Z, ZN, {dst}, {c}, {s.bottom})")
            return
        if s.cards is not None:
            cards = self.array(s.cards, env)
            src = self.emit(s.src, env)
            dst = self.emit(s.dst, env)
            self.charge(f"len({cards}) * (ZN[{src}] + 1)")
            e = out.fresh("e")
            with out.block(f"for {e} in {cards}:"):
                out.line(f"if not take_out(Z, ZN, {src}, {e}): " + BAIL)
                out.line(f"put(Z, ZN, {dst}, {e}, {s.bottom})")
            return
        self._move_top(s.src, s.dst, s.count, s.bottom, env)

    def s_Draw(self, s, env):
        self._move_top(s.src, s.dst, s.count, False, env)

    def _move_top(self, src_node, dst_node, count, bottom, env):
        out = self.out
        src = self.emit(src_node, env)
        dst = self.emit(dst_node, env)
        k = out.fresh("k")
        if count is None:
            out.line(f"{k} = ZN[{src}]")
        else:
            c = self.emit(count, env)
            self.not_null(c)
            out.line(f"{k} = max(0, min({self.cut(c)}, ZN[{src}]))")
        self.charge(k)
        with out.block(f"for _ in range({k}):"):
            out.line(f"ZN[{src}] -= 1")
            out.line(f"put(Z, ZN, {dst}, Z[{src}, ZN[{src}]], {bottom})")

    def s_Deal(self, s, env):
        out = self.out
        src = self.emit(s.src, env)
        seats, k = self.buffer("n"), out.fresh("k")
        out.line(f"{k} = 0")
        if s.players is not None:
            arr = self.array(s.players, env)
            e = out.fresh("e")
            with out.block(f"for {e} in {arr}:"):
                out.line(f"if {k} >= n: " + BAIL)
                out.line(f"{seats}[{k}] = {e}; {k} += 1")
        else:
            p = out.fresh("p")
            with out.block(f"for {p} in range(n):"):
                out.line(f"if not OUT[{p}]: {seats}[{k}] = {p}; {k} += 1")
        with out.block(f"if {k} > 0:"):
            first = self.emit(s.first, env) if s.first is not None else f"{seats}[0]"
            i = out.fresh("i")
            out.line(f"{i} = 0")
            p = out.fresh("p")
            with out.block(f"for {p} in range({k}):"):
                out.line(f"if {seats}[{p}] == {first}: {i} = {p}; break")
            c = self.emit(s.count, env)
            self.not_null(c)
            m, total = out.fresh("k"), out.fresh("k")
            out.line(f"{m} = max(0, min({self.cut(c)}, ZN[{src}]))")
            out.line(f"{total} = min({m} * {k}, ZN[{src}])")
            self.charge(total)
            j = out.fresh("j")
            with out.block(f"for {j} in range({total}):"):
                out.line(f"ZN[{src}] -= 1")
                out.line(f"put(Z, ZN, {self.zone_rows[s.zone]} + {seats}[({i} + {j}) % {k}], Z[{src}, ZN[{src}]], False)")

    def s_Gather(self, g, env):
        out = self.out
        d = self.emit(g.dst, env)
        for name, per_player, piles in g.zones:
            if piles:
                self._gather_piles(name, d)
                continue
            base = self.zone_rows[name]
            rows = [f"{base} + q" for q in ["__"]] if per_player else [str(base)]
            if per_player:
                q = out.fresh("q")
                with out.block(f"for {q} in range(n):"):
                    self._gather_row(f"{base} + {q}", d)
            else:
                self._gather_row(rows[0], d)

    def _gather_piles(self, name, d):
        """effects.gather of a zone of piles: each pile's cards in the order they were made, the
        piles then taken away (unless gathered into one of them)."""
        out = self.out
        k, base, q = self.pile_zones[name], self.zone_rows[name], out.fresh("q")
        with out.block(f"for {q} in range(PK[{k}]):"):
            self._gather_row(f"{base} + {q}", d)
        out.line(f"if not ({base} <= {d} < {base} + PK[{k}]): PK[{k}] = 0")

    def s_NewPile(self, s, env):
        """piles.new_pile: the zone's empty piles cleared away first (the rows after moved up),
        then a new empty one, numbered on from every pile made so far."""
        out = self.out
        k, base = self.pile_zones[s.zone], self.zone_rows[s.zone]
        owner = self.emit(s.owner, env) if s.owner is not None else "NULL"
        var = self.local(env["#frame"] + s.var, PILE)
        i, m, a, b = out.fresh("i"), out.fresh("m"), out.fresh("r"), out.fresh("r")
        out.line(f"{m} = 0")
        with out.block(f"for {i} in range(PK[{k}]):"):
            out.line(f"{a} = {base} + {i}; {b} = {base} + {m}")
            with out.block(f"if ZN[{a}] > 0:"):
                with out.block(f"if {a} != {b}:"):
                    out.line(f"Z[{b}, :ZN[{a}]] = Z[{a}, :ZN[{a}]]; ZN[{b}] = ZN[{a}]; ZN[{a}] = 0")
                    out.line(f"PNUM[{b}] = PNUM[{a}]; POWN[{b}] = POWN[{a}]")
                out.line(f"{m} += 1")
        out.line(f"if {m} > NC: " + BAIL)
        out.line("MADE += 1")
        out.line(f"PNUM[{base} + {m}] = MADE; POWN[{base} + {m}] = {owner}; ZN[{base} + {m}] = 0; PK[{k}] = {m} + 1")
        out.line(f"{var} = MADE")

    def _gather_row(self, row, d):
        out = self.out
        z = out.fresh("z")
        out.line(f"{z} = {row}")
        self.charge(f"ZN[{z}]")
        with out.block(f"if {z} != {d}:"):
            i = out.fresh("i")
            with out.block(f"for {i} in range(ZN[{z}]):"):
                out.line(f"Z[{d}, ZN[{d}]] = Z[{z}, {i}]; ZN[{d}] += 1")
            out.line(f"ZN[{z}] = 0")

    def zone_ref(self, ref, env) -> str:
        return self.zone_row(ref.name, ref.owner, env)

    def note(self, kind, a, b, tag, env, start="0", count="0"):
        """An entry of the journal: [kind (0 swap, 1 move), zone a, zone b, tag, first card, cards]."""
        out = self.out
        self.journal = True
        t = "NULL" if tag is None else self.emit(tag, env)
        out.line(f"if JN >= {JOURNAL}: " + BAIL)
        out.line(f"JR[JN, 0] = {kind}; JR[JN, 1] = {a}; JR[JN, 2] = {b}; JR[JN, 3] = {t}; "
                 f"JR[JN, 4] = {start}; JR[JN, 5] = {count}")
        out.line("JN += 1")

    def s_Swap(self, s, env):
        a, b = self.zone_ref(s.a, env), self.zone_ref(s.b, env)
        self.charge(f"ZN[{a}] + ZN[{b}]")
        self.out.line(f"if {a} != {b}: swap_rows(Z, ZN, {a}, {b})")
        if s.journal:
            self.note(0, a, b, s.tag, env)

    def s_JournalMove(self, s, env):
        out = self.out
        if s.many:
            cards = self.array(s.cards, env)
        else:
            c = self.emit(s.cards, env)
            self.not_null(c)
            cards = self.buffer("1")
            out.line(f"{cards}[0] = {c}")
        src, dst = self.zone_ref(s.src, env), self.zone_ref(s.dst, env)
        self.charge(f"len({cards}) * (ZN[{src}] + 1)")
        out.line(f"if JCN + len({cards}) > {JOURNAL_CARDS}: " + BAIL)
        start = self.tmp("JCN")
        e = out.fresh("e")
        with out.block(f"for {e} in {cards}:"):
            out.line(f"if not take_out(Z, ZN, {src}, {e}): " + BAIL)
            out.line(f"put(Z, ZN, {dst}, {e}, False)")
            out.line(f"JC[JCN] = {e}; JCN += 1")
        self.note(1, src, dst, s.tag, env, start, f"len({cards})")

    def s_UndoJournal(self, s, env):
        self.journal = True
        want = "NULL" if s.tag is None else self.emit(s.tag, env)
        w = self.out.fresh("w")
        self.out.line(f"JN, {w} = undo_journal(Z, ZN, JR, JC, JN, {0 if s.tag is not None else 1}, {want})")
        self.charge(w)
        self.out.line("if JN == 0: JCN = 0")

    def s_RestartTurns(self, s, env):
        """The innermost turn's frame flagged: its turns start again once the turn is over.
        Outside any turn it is a rules fault: the Python plays the game and reports it."""
        if not self.turn_frames:
            self.out.line(BAIL)
            return
        self.out.line(f"{self.turn_frames[-1]} = 1")

    def s_ClearJournal(self, s, env):
        self.journal = True
        self.out.line("JN = 0; JCN = 0")

    def s_Set(self, s, env):
        for a in s.items:
            self.assign(a, s.add, env)

    def assign(self, a, add, env):
        out, t = self.out, a.target
        if isinstance(t, ir.EntryTarget):
            self._set_entry(a, add, env)
            return
        if is_map(t.type):
            self._set_map(a, env)
            return
        if is_list(t.type) and isinstance(t, ir.PlayerTarget) and not add and not t.team:
            owner = self.emit(t.owner, env)
            self.not_null(owner)
            self._set_row(t.name, owner, self.array(a.value, env))
            return
        if is_list(t.type):
            if not isinstance(t, ir.GlobalTarget) or add:
                raise Uncovered("a player variable holding a list")
            out.line(f"G_{t.name} = {self.value(a.value, env, t.type)}")
            return
        shown = isinstance(t, (ir.GlobalTarget, ir.PlayerTarget)) and (_kind(t), t.name) in self.shown
        v = self.nullness(a.value, env) if shown else self.emit(a.value, env)   # (a text only the table shows)
        if isinstance(t, ir.CurrentTarget):
            self.not_null(v)
            out.line(f"CUR = {v}")
            return
        if isinstance(t, ir.GlobalTarget):
            place = f"G_{t.name}"
        else:
            owner = self.emit(t.owner, env)
            self.not_null(owner)
            place = f"P_{t.name}[{owner}]"
        if add:
            self.not_null(v)
            cur = self.tmp(place)
            self.not_null(cur)
            v = self.tmp(f"{cur} + {v}")
        if self.fractions and (t.type == NUM or add):      # (XS holds it exactly)
            out.line(f"if {v} != NULL and not -{EXACT} <= {v} <= {EXACT}: " + INEXACT)
        elif t.type == NUM or add:
            out.line(f"if {v} != NULL and not (-1000000000000000000 < {v} < 1000000000000000000): " + BAIL)
        out.line(f"{place} = {v}")
        if isinstance(t, ir.PlayerTarget) and t.team:       # the owner's partners alike
            q = out.fresh("q")
            with out.block(f"for {q} in range(n):"):
                out.line(f"if TM[{q}] == TM[{owner}]: P_{t.name}[{q}] = {v}")

    def s_Seal(self, s, env):
        """A part of a choice made together (runtime/windows.py): the window's record in arrays
        of its own (the players in order, each one's entry: -1 to choose, 0 done, 1 kept, and
        the values its names were bound to), its flags the locals the checker's loops read; a
        play-out resumed at its choice reads the record in (loads, resume.Window)."""
        out, r = self.out, self.resume
        k = env["#frame"] + window_name(s.key)
        names = [env["#frame"] + name for name in s.names]     # (the choice declares them)
        if s.op == "open":
            self._seal_open(s, env, k, names)
            return
        order, entry, values, m = f"{k}_o", f"{k}_e", f"{k}_v", f"{k}_m"
        i = out.fresh("i")
        if s.op == "enter":
            self.asked_before = r.count
            out.line(f"{k}_i = -1")
            with out.block(f"for {i} in range({m}):"):
                out.line(f"if {entry}[{i}] == -1: {k}_i = {i}; break")
            out.line(f"CUR = {order}[{k}_i]")
        elif s.op == "keep":
            types = tuple(self.local_types.get(name) for name in names)
            if any(t not in SCALARS for t in types):
                raise Uncovered(f"a choice made together binding a {[t for t in types if t not in SCALARS][0]}")
            if r.count == self.asked_before + 1:        # the choice is resumed at: the record read in there
                self.windows[r.count] = Window(k, env["#frame"], s.key, types, self.window_buffers[k])
            with out.block(f"if {entry}[{k}_i] == -1:"):
                out.line(f"{entry}[{k}_i] = 1")
                for j, name in enumerate(names):
                    out.line(f"{values}[{k}_i * {len(names)} + {j}] = {name}")
            self._seal_restore(k, names)
            self._seal_flags(k)
        elif s.op == "skip":
            out.line(f"{entry}[{k}_i] = 0")
            self._seal_flags(k)
        elif s.op == "reveal":
            out.line(f"{k}_i = -1")
            with out.block(f"for {i} in range({m}):"):
                out.line(f"if {entry}[{i}] == 1 and not OUT[{order}[{i}]]: {k}_i = {i}; break")
            out.line(f"CUR = {order}[{k}_i]")
            for j, name in enumerate(names):
                out.line(f"{name} = {values}[{k}_i * {len(names)} + {j}]")
            out.line(f"{entry}[{k}_i] = 0")
            self._seal_flags(k)
            self.revealing += 1
        elif s.op == "again":
            self.revealing -= 1
            self._seal_flags(k)
        else:                           # close
            out.line(f"CUR = {k}_b")
            self._seal_restore(k, names)

    def _seal_open(self, s, env, k, names) -> None:
        out = self.out
        order, entry, m = self.buffer("n"), self.buffer("n"), f"{k}_m"
        self.window_buffers[k] = (order, entry, self.buffer(f"n * {max(1, len(names))}"))
        out.line(f"{k}_o = {order}; {k}_e = {entry}; {k}_v = {self.window_buffers[k][2]}")
        for name in (f"{k}_m", f"{k}_i", f"{k}_b", f"{k}_more", f"{k}_shown") + tuple(f"{k}_p{j}" for j in range(len(names))):
            self.locals.add(name)
        self.list_locals |= {f"{k}_o", f"{k}_e", f"{k}_v"}
        out.line(f"{m} = 0")
        q = out.fresh("q")

        def join(e):                    # each player once, in order, none put out
            with out.block(f"if not OUT[{e}]:"):
                with out.block(f"for {q} in range({m} + 1):"):
                    out.line(f"if {q} == {m}: {order}[{m}] = {e}; {entry}[{m}] = -1; {m} += 1; break")
                    out.line(f"if {order}[{q}] == {e}: break")
        self.each(s.players, env, join)      # (charged: never less work than the VM counts)
        out.line(f"{k}_b = CUR")
        for j, name in enumerate(names):
            out.line(f"{k}_p{j} = {name}")
        self._seal_flags(k)

    def _seal_restore(self, k, names) -> None:
        for j, name in enumerate(names):
            self.out.line(f"{name} = {k}_p{j}")

    def _seal_flags(self, k) -> None:
        """KEY? (some still to choose) and KEY! (some kept, of a player not put out since)."""
        out = self.out
        i = out.fresh("i")
        out.line(f"{k}_more = 0; {k}_shown = 0")
        with out.block(f"for {i} in range({k}_m):"):
            out.line(f"if {k}_e[{i}] == -1: {k}_more = 1")
            out.line(f"if {k}_e[{i}] == 1 and not OUT[{k}_o[{i}]]: {k}_shown = 1")

    def _map_initial(self, kind, name, typ, v) -> None:
        """A map variable's entries as the game starts: a constant map's, in its order."""
        value = v.initial.const if v.initial.is_const else None
        if not isinstance(value, dict) or len(value) > MAP_ENTRIES:
            raise Uncovered("a map variable whose initial value is not a constant map")
        m = f"{kind}_{name}"
        self.out.line(f"MN_{m}[:] = {len(value)}")
        for i, (key, x) in enumerate(value.items()):
            self.out.line(f"MK_{m}[:, {i}] = {self.scalar(key, STR)}; MV_{m}[:, {i}] = {self.scalar(x, typ)}")

    def _set_entry(self, a, add, env) -> None:
        """effects.set_entry: the key, then the value, then whose; null removes the entry, `add`
        to an entry the map lacks adds to 0; a map past MAP_ENTRIES gives the game up."""
        out, t = self.out, a.target
        var = t.var
        kind = "G" if isinstance(var, ir.GlobalTarget) else "P"
        if (kind, var.name) not in self.maps:
            raise Uncovered("maps")
        key = self.whole(self.emit(t.key, env), t.key.type)
        self.not_null(key)
        v = self.emit(a.value, env)
        row = "0"
        if kind == "P":
            row = self.emit(var.owner, env)
            self.not_null(row)
        m = f"{kind}_{var.name}"
        i, j = self.map_find(m, row, key), out.fresh("j")
        if add:
            self.not_null(v)
            v = self.tmp(f"({f'MV_{m}[{row}, {i}]'} if {i} >= 0 else 0) + {v}")
        if add or t.type == NUM:
            out.line(f"if {v} != NULL and not (-1000000000000000000 < {v} < 1000000000000000000): " + BAIL)
        with out.block(f"if {v} == NULL:"):
            with out.block(f"if {i} >= 0:"):
                with out.block(f"for {j} in range({i}, MN_{m}[{row}] - 1):"):
                    out.line(f"MK_{m}[{row}, {j}] = MK_{m}[{row}, {j} + 1]; MV_{m}[{row}, {j}] = MV_{m}[{row}, {j} + 1]")
                out.line(f"MN_{m}[{row}] -= 1")
        with out.block(f"elif {i} >= 0:"):
            out.line(f"MV_{m}[{row}, {i}] = {v}")
        with out.block("else:"):
            out.line(f"if MN_{m}[{row}] >= {MAP_ENTRIES}: " + BAIL)
            out.line(f"MK_{m}[{row}, MN_{m}[{row}]] = {key}; MV_{m}[{row}, MN_{m}[{row}]] = {v}; MN_{m}[{row}] += 1")

    def _set_map(self, a, env) -> None:
        """A map variable set whole, to a constant map."""
        t = a.target
        kind = "G" if isinstance(t, ir.GlobalTarget) else "P"
        value = a.value.const if a.value.is_const else None
        if (kind, t.name) not in self.maps or t.team or not isinstance(value, dict) or len(value) > MAP_ENTRIES:
            raise Uncovered("a map variable set to a map that is not constant")
        row = "0"
        if kind == "P":
            row = self.emit(t.owner, env)
            self.not_null(row)
        m = f"{kind}_{t.name}"
        self.out.line(f"MN_{m}[{row}] = {len(value)}")
        for i, (key, x) in enumerate(value.items()):
            self.out.line(f"MK_{m}[{row}, {i}] = {self.scalar(key, STR)}; MV_{m}[{row}, {i}] = {self.scalar(x, self.maps[(kind, t.name)])}")

    def _set_row(self, name: str, owner: str, arr: str) -> None:
        """Player variable `name` of `owner`, a list, set to array `arr` (its row and length)."""
        self.out.line(f"if len({arr}) > PCAP: " + BAIL)
        self.out.line(f"P_{name}[{owner}, :len({arr})] = {arr}; PL_{name}[{owner}] = len({arr})")

    def s_Eliminate(self, s, env):
        p = self.emit(s.player, env)
        self.not_null(p)
        self.out.line(f"OUT[{p}] = 1")

    # control flow
    def s_Exit(self, s, env):
        if self.revealing:              # leaving a choice made together's `do`: the rules error vm.unwind gives
            self.out.line(BAIL)
            return
        self.out.line(f"EX = {EXITS[s.to]}")

    def s_If(self, s, env):
        out = self.out
        if s.fixed is not None:
            live = s.then if s.fixed else s.else_
            self.steps(live or (), env)
            return
        self.when(s.cond, env, lambda: self.steps(s.then, env))
        if s.else_:
            with out.block("else:"):
                out.line("pass")
                self.steps(s.else_, env)

    def s_Repeat(self, s, env):
        out = self.out
        with out.block("while True:"):
            self.steps(s.body, env)
            out.line("if EX != 0: break")
            out.line("STEPS += 1")
            u = self.emit(s.until, env)
            out.line(f"if {u} != 0 and {u} != NULL: break")
            self.limits()

    def _for_each_list(self, s, env):
        """A for_each over lists (groups of a hand): the lists gone through, never made, each
        bound to the name in turn; no play-out resumes inside (its choices are Python's)."""
        var = self.local(env["#frame"] + s.var, s.elem_type)

        def each(e):
            self.out.line(f"{var} = {e}")
            self.out.line("STEPS += 2")
            self.steps(s.body, env)
        with self.blocked(self.resumable):
            self.each(s.items, env, each, charge=False, stop="EX != 0")

    def s_While(self, s, env):
        out = self.out
        with out.block("while True:"):
            with self.unless_resuming():
                c = self.emit(s.cond, env)
                out.line("STEPS += 2")
                out.line(f"if not ({c} != 0 and {c} != NULL): break")
            self.steps(s.body, env)
            out.line("if EX != 0: break")
            self.limits()

    def limits(self):
        self.out.line(f"if STEPS > {self.r.flow.max_steps} or W > 5000000: " + BAIL)

    def s_ForEach(self, s, env):
        out = self.out
        if nestable(s.elem_type):
            self._for_each_list(s, env)
            return
        if s.elem_type not in SCALARS:
            raise Uncovered(f"for_each over elements of type {s.elem_type}")
        var = env["#frame"] + s.var
        self.locals.add(var)
        self.local_types[var] = s.elem_type
        rec = self.record(s)
        if rec is None:
            arr = "range(n)" if isinstance(s.items, E.Players) else self.array(s.items, env)
            with self.blocked(self.resumable), out.block(f"for {var} in {arr}:"):
                out.line("STEPS += 2")
                self.steps(s.body, env)
                out.line("if EX != 0: break")
            return
        items, i = out.fresh("a"), out.fresh("i")     # resumable: the list and its cursor restored
        slot = self.resume.slot(3)
        with out.block("if RES == 0:"):
            arr = "np.arange(n)" if isinstance(s.items, E.Players) else self.array(s.items, env) + ".copy()"
            out.line(f"{items} = {arr}")
            out.line(f"{i} = 0")
        with out.block("else:"):
            out.line(f"{items} = POOL[IN[LB + {slot}]:IN[LB + {slot}] + IN[LB + {slot + 1}]].copy()")
            out.line(f"{i} = IN[LB + {slot + 2}]")
        self.resume.active.append(("each", slot, len(self.resume.prefixes) - 1, rec.key, s.elem_type))
        with out.block("while True:"):
            with self.unless_resuming():
                out.line(f"if {i} >= len({items}): break")
                out.line(f"{var} = {items}[{i}]; {i} += 1")
                out.line("STEPS += 2")
            self.steps(s.body, env)
            out.line("if EX != 0: break")
        self.resume.active.pop()

    def s_Turns(self, s, env):
        rec = self.record(s)
        with self.blocked(self.resumable and rec is None):
            if s.order is not None:
                self._turns_in_order(s, env, rec)
            else:
                self._turns(s, env, rec)

    def _turns(self, s, env, rec):
        out = self.out
        with self.restartable(env) as again:
            with self.unless_resuming():
                if s.first is not None:
                    f = self.emit(s.first, env)
                    out.line(f"CUR = {f}")
                else:
                    p = out.fresh("p")
                    with out.block("if CUR == NULL or OUT[CUR]:"):
                        out.line("CUR = NULL")
                        with out.block(f"for {p} in range(n):"):
                            out.line(f"if not OUT[{p}]: CUR = {p}; break")
                cnt, lim = out.fresh("k"), out.fresh("k")
                out.line(f"{cnt} = 0")
                if s.count is not None:
                    c = self.emit(s.count, env)
                    self.not_null(c)
                    out.line(f"{lim} = {self.cut(c)}")
                else:
                    out.line(f"{lim} = -1")
            if rec is not None:         # resumed: the turns' count and limit restored
                slot = self.resume.slot(2)
                with out.block("else:"):
                    out.line(f"{cnt} = IN[LB + {slot}]; {lim} = IN[LB + {slot + 1}]")
                self.resume.active.append(("turns", slot, len(self.resume.prefixes) - 1, rec.key, None))
            with out.block("while True:"):
                with self.unless_resuming():
                    out.line("STEPS += 4")
                    self.limits()
                    self._until(s, env)
                    out.line(f"if {cnt} == {lim} or CUR == NULL: break")
                    out.line(f"{cnt} += 1")
                self._turn(s, env, rec)
                again()
                if s.next is not None:
                    nx = self.emit(s.next, env)
                    out.line(f"CUR = {nx}")
                else:
                    out.line("CUR = next_seat(OUT, n, CUR, 1)")
            if rec is not None:
                self.resume.active.pop()

    def _turns_in_order(self, s, env, rec):
        """A turn for each player of `order` (computed once) still in the game, in its order."""
        out = self.out
        with self.restartable(env) as again:
            if rec is None:
                items, i = self.value(s.order, env), out.fresh("k")
                out.line(f"{i} = 0")
            else:
                i = out.fresh("k")                       # resumable: the order and its cursor restored
                items = out.fresh("a")
                slot = self.resume.slot(3)
                with out.block("if RES == 0:"):
                    out.line(f"{items} = {self.value(s.order, env)}")
                    out.line(f"{i} = 0")
                with out.block("else:"):
                    out.line(f"{items} = POOL[IN[LB + {slot}]:IN[LB + {slot}] + IN[LB + {slot + 1}]].copy()")
                    out.line(f"{i} = IN[LB + {slot + 2}]")
                self.resume.active.append(("order", slot, len(self.resume.prefixes) - 1, rec.key, PLAYER))
            with out.block("while True:"):
                with self.unless_resuming():
                    out.line("STEPS += 4")
                    self.limits()
                    out.line(f"while {i} < len({items}) and OUT[{items}[{i}]]: {i} += 1")
                    out.line(f"if {i} >= len({items}): break")
                    self._until(s, env)
                    out.line(f"CUR = {items}[{i}]")
                    out.line(f"{i} += 1")
                self._turn(s, env, rec)
                again()
            if rec is not None:
                self.resume.active.pop()

    @contextmanager
    def restartable(self, env):
        """Turns that a `restart_turns` may start again (from their `first` or `order`) once
        the turn ends: written inside a loop that runs them again while the flag of their frame
        is up when a turn is over; `again()` writes that test.  As the VM's `#restart`, the flag
        is the frame's, not the turns': the next turns in the same frame find it still up (after
        an end_round, say).  Only in a ruleset with a `restart_turns`, so that no other kernel
        changes."""
        if not self.restarts:
            yield lambda: None
            return
        out = self.out
        flag, loop = restart_flag(env), out.fresh("k")
        self.locals.add(flag)
        out.line(f"{loop} = 1")
        with out.block(f"while {loop}:"):
            out.line(f"{loop} = 0")
            yield lambda: out.line(f"if {flag} == 1: {flag} = NULL; {loop} = 1; STEPS += 2; break")

    def _until(self, s, env):
        """The turns end where their `until` holds (tested before each turn)."""
        if s.until is not None:
            u = self.emit(s.until, env)
            self.out.line(f"if {u} != 0 and {u} != NULL: break")

    def _turn(self, s, env, rec=None):
        out = self.out
        parts = []
        self.turn_frames.append(restart_flag(env))     # (the turn's scope is closed before turn_end: the VM's)
        with self.section(parts):
            self.dispatch("turn_start", ret=_after(rec.start_call) if rec else None)
        with self.section(parts), out.block("if EX == 0:"):
            out.line("pass")
            self.steps(s.body, env)
        self.turn_frames.pop()
        out.line("if EX == 1: EX = 0")
        out.line("if EX != 0: break")
        with self.section(parts):
            self.dispatch("turn_end", ret=_after(rec.end_call) if rec else None)
        self.close(parts)
        out.line("if EX == 1: EX = 0")
        out.line("if EX != 0: break")

    def s_Choose(self, s, env):
        out = self.out
        if self.revealing:              # a decision while the choices made together are revealed: a rules error
            out.line(BAIL)
            return
        if nestable(s.elem_type):
            return self._choose_list(s, env)
        if s.elem_type not in SCALARS:
            raise Uncovered(f"a choice among values of type {s.elem_type}")
        var = env["#frame"] + s.var
        self.locals.add(var)
        self.local_types[var] = s.elem_type
        self.target(s)
        options, capacity = s.options, self.option_capacity(s.options, env)
        if capacity is None:            # a list held in a name, or made from one: made first
            options = E.Local(name="#options", type=s.options.type)
            src = self.array(s.options, env)
            env = {**env, "#options": src}
            opts = self.tmp(f"np.empty(len({src}), np.int64)")
        else:
            opts = self.buffer(capacity)
        k = out.fresh("k")
        out.line(f"{k} = 0")

        def consider(e):
            e = self.whole(e, s.elem_type)
            if s.where is None:
                out.line(f"{opts}[{k}] = {e}; {k} += 1")
                return
            w = self.emit(s.where, {**env, s.var: e})
            out.line(f"if {w} != 0 and {w} != NULL: {opts}[{k}] = {e}; {k} += 1")
        self.each(options, env, consider, charge=False)
        with out.block(f"if {k} == 0:"):
            if s.otherwise is None:
                out.line(BAIL)
            else:
                out.line(f"{var} = NULL")
                with self.blocked():
                    self.steps(s.otherwise, env)
        with out.block("else:"):
            who = self.emit(s.by, env) if s.by is not None else "CUR"
            self.not_null(who)
            self.stop_check()
            out.line("DEC += 1")
            out.line(f"{var} = {opts}[below(R, {self.bot(who)}, {k})]")
            out.line("W = 0")

    def _choose_list(self, s, env):
        """A choice among lists (sets of cards to lay away, a capture): each option a row of OL
        with its length in OLN, the one picked copied into the choice's own array."""
        out = self.out
        if s.otherwise is not None:
            raise Uncovered("a choice among lists with an otherwise")
        var = env["#frame"] + s.var
        self.list_options = True
        if of_lists(s.elem_type):       # (an option a list of lists: longer rows)
            self.ol_width = "OLW"
        self.local_types[var] = s.elem_type
        self.target(s)
        k = out.fresh("k")
        out.line(f"{k} = 0")

        def consider(e):
            if s.where is None:
                self._option_list(k, e)
                return
            w = self.emit(s.where, {**env, s.var: e})
            with out.block(f"if {w} != 0 and {w} != NULL:"):
                self._option_list(k, e)
        self.each(s.options, env, consider, charge=False)
        out.line(f"if {k} == 0: " + BAIL)
        who = self.emit(s.by, env) if s.by is not None else "CUR"
        self.not_null(who)
        self.stop_check()
        out.line("DEC += 1")
        row = out.fresh("r")
        out.line(f"{row} = below(R, {self.bot(who)}, {k})")
        out.line("W = 0")
        self._picked_list(row, var)

    def _option_list(self, row: str, v: str) -> None:
        """List `v` kept as row `row` of OL (its length in OLN), the row counted."""
        self.out.line(f"if {row} >= {MAX_OPTIONS} or len({v}) > {self.ol_width}: " + BAIL)
        self.out.line(f"OL[{row}, :len({v})] = {v}; OLN[{row}] = len({v}); {row} += 1")

    def _picked_list(self, row: str, local: str) -> None:
        """The list of OL's row `row` copied into an array of the choice's own, held in `local`."""
        buf = self.buffer(self.ol_width)
        self.list_locals.add(local)
        self.out.line(f"{buf}[:OLN[{row}]] = OL[{row}, :OLN[{row}]]")
        self.out.line(f"{local} = {buf}[:OLN[{row}]]")

    def option_capacity(self, node, env=None) -> str:
        if node.is_const:
            return str(max(1, len(node.const)))
        if isinstance(node, ListLit):
            return str(max(1, len(node.items)))
        return self.capacity(node, env)

    def s_ChooseAmong(self, s, env):
        """vm.among_options then vm.pick: each kind's options (the combinations of its names'
        lists, where `when` and `where` hold) as rows [kind, value, ...] of OPT, one picked by the
        seat's bot, its names bound, its kind's steps run."""
        out = self.out
        if self.revealing:              # a decision while the choices made together are revealed: a rules error
            out.line(BAIL)
            return
        for a in s.alternatives:
            for name, _, typ in a.names:
                if of_lists(typ):
                    self.ol_width = "OLW"
                if typ not in SCALARS and not nestable(typ):
                    raise Uncovered(f"a choice among kinds with values of type {typ}")
        self.opt_width = max(self.opt_width, 1 + max(len(a.names) for a in s.alternatives))
        self.among = True
        self.target(s)
        if not self.resumable:
            self._among(s, env, None)
            return
        sel = out.fresh("s")        # resumable: the kind picked, or (resumed) the kind whose steps hold the choice
        out.line(f"{sel} = -1")
        with out.block("if RES == 0:"):
            self._among(s, env, sel)
        with out.block("else:"):
            at = len(out.lines)
            out.line("#")
        ranges = []
        for index, a in enumerate(s.alternatives):
            if a.body is not None:
                lo = self.resume.count + 1
                with out.block(f"if {sel} == {index}:"):
                    out.line("pass")
                    self.steps(a.body, env)
                ranges.append((index, lo, self.resume.count))
        held = [f"{index} if {lo} <= RES <= {hi} else " for index, lo, hi in ranges if hi >= lo]
        out.lines[at] = "    " * (out.indent + 1) + f"{sel} = {''.join(held)}-1"

    def _among(self, s, env, sel):
        """The options, the pick and its names bound; the kind's steps too (sel None), or the
        kind picked kept in `sel` for the steps written after (the resumable variant)."""
        out = self.out
        k, ol = out.fresh("k"), out.fresh("ol")
        out.line(f"{k} = 0")
        out.line(f"{ol} = 0")           # rows of OL: the lists the options hold
        for index, a in enumerate(s.alternatives):
            def kind(index=index, a=a):
                self._combinations(a, index, list(a.names), dict(env), [], (k, ol))
            if a.when is not None:
                w = self.emit(a.when, env)
                with out.block(f"if {w} != 0 and {w} != NULL:"):
                    kind()
            else:
                kind()
        with out.block(f"if {k} == 0:"):
            if s.otherwise is None:
                out.line(BAIL)
            else:
                for name in unset_names(s):
                    local = env["#frame"] + name
                    self.locals.add(local)
                    out.line(f"{local} = NULL")
                with self.blocked():
                    self.steps(s.otherwise, env)
        with out.block("else:"):
            who = self.emit(s.by, env) if s.by is not None else "CUR"
            self.not_null(who)
            self.stop_check()
            out.line("DEC += 1")
            row = out.fresh("r")
            out.line(f"{row} = below(R, {self.bot(who)}, {k})")
            out.line("W = 0")
            if sel is not None:
                out.line(f"{sel} = OPT[{row}, 0]")
            for index, a in enumerate(s.alternatives):
                with out.block(f"{'if' if index == 0 else 'elif'} OPT[{row}, 0] == {index}:"):
                    for i, (name, _, typ) in enumerate(a.names):
                        local = env["#frame"] + name
                        self.local_types[local] = typ
                        if is_list(typ):        # copied out of OL into the choice's own array
                            self._picked_list(self.tmp(f"OPT[{row}, {i + 1}]"), local)
                            continue
                        self.locals.add(local)
                        out.line(f"{local} = OPT[{row}, {i + 1}]")
                    out.line("pass")
                    if a.body is not None and sel is None:
                        self.steps(a.body, env)

    def _combinations(self, a, index, names, env, bound, counters):
        out = self.out
        k, ol = counters
        if not names:
            self.charge("1")
            if a.where is not None:
                w = self.emit(a.where, env)
                head = f"if {w} != 0 and {w} != NULL:"
            else:
                head = "if True:"
            with out.block(head):
                out.line(f"if {k} >= {MAX_OPTIONS}: " + BAIL)
                out.line(f"OPT[{k}, 0] = {index}")
                for i, (v, (_, _, typ)) in enumerate(zip(bound, a.names)):
                    if is_list(typ):
                        self.list_options = True
                        out.line(f"OPT[{k}, {i + 1}] = {ol}")
                        self._option_list(ol, v)
                    else:
                        out.line(f"OPT[{k}, {i + 1}] = {v}")
                out.line(f"{k} += 1")
            return
        (name, lst, _), rest = names[0], names[1:]

        def each(e):
            inner = dict(env)
            inner[name] = e
            self._combinations(a, index, rest, inner, bound + [e], counters)
        self.each(lst, env, each, charge=False)

    def s_Request(self, s, env):
        """vm.request_start, _ask, _check and _done: the request's event raised (with from, to
        and piece) until its triggers neither refuse nor pass it on, then the answer, `var`
        saying how it ended; an end_turn/round/game inside closes it (no play-out resumes
        inside one)."""
        with self.blocked():
            self._request(s, env)

    def _request(self, s, env):
        out = self.out
        self.requests = True
        if s.piece is not None and s.piece_type not in SCALARS:
            raise Uncovered(f"a request's piece of type {s.piece_type}")
        a = self.emit(s.src, env)
        b = self.emit(s.dst, env)
        base = self.tmp("RQN")
        out.line(f"if RQN >= {MAX_REQUESTS}: " + BAIL)
        out.line(f"RQ[RQN, 0] = {a}; RQ[RQN, 1] = {b}; RQ[RQN, 2] = {OPEN}; RQ[RQN, 3] = NULL; RQ[RQN, 4] = NULL")
        out.line("RQN += 1")
        var = self.local(env["#frame"] + s.var, STR)
        with out.block("while True:"):
            out.line("STEPS += 4")
            self.limits()
            frm, to = self.tmp(f"RQ[{base}, 0]"), self.tmp(f"RQ[{base}, 1]")
            payload = {"from": (frm, PLAYER), "to": (to, PLAYER)}
            if s.piece is not None:
                pv = self.whole(self.emit(s.piece, {"#frame": "Q_", "from": frm, "to": to}), s.piece_type)
                out.line(f"RQ[{base}, 4] = {pv}")
                payload["piece"] = (self.tmp(f"RQ[{base}, 4]"), s.piece_type)
            self.dispatch(s.event, lambda: payload)
            out.line("if EX != 0: break")
            with out.block(f"if RQ[{base}, 2] == {REFUSED}:"):
                out.line(f"RQN = {base}; {var} = {self.text_id('refused')}; break")
            with out.block(f"if RQ[{base}, 2] == {REDIRECTED}:"):
                out.line(f"RQ[{base}, 1] = RQ[{base}, 3]; RQ[{base}, 2] = {OPEN}; RQ[{base}, 3] = NULL")
                out.line(f"if RQ[{base}, 1] == RQ[{base}, 0]: RQN = {base}; {var} = {self.text_id('lapsed')}; break")
                out.line("continue")
            for name, col in (("from", 0), ("to", 1), ("piece", 4)):
                local = self.local(env["#frame"] + name, s.piece_type if name == "piece" else PLAYER)
                out.line(f"{local} = RQ[{base}, {col}]")
            self.steps(s.answer, env)
            out.line(f"if EX == 0: RQN = {base}; {var} = {self.text_id('answered')}")
            out.line("break")
        out.line(f"if EX != 0: RQN = {base}")

    def _open_request(self) -> str:
        self.requests = True
        self.out.line("if RQN == 0: " + BAIL)
        return "RQ[RQN - 1"

    def s_Refuse(self, s, env):
        rec = self._open_request()
        self.out.line(f"{rec}, 2] = {REFUSED}")

    def s_Redirect(self, s, env):
        to = self.emit(s.to, env)            # (null: the request goes to nobody, e.g. a draw pile)
        rec = self._open_request()
        self.out.line(f"{rec}, 2] = {REDIRECTED}; {rec}, 3] = {to}")

    def s_Call(self, s, env):
        called = self.procedure(s.procedure) if self.apart else None
        if called is not None:
            self._call_apart(s, env, called)
            return
        self.inline_depth()
        inner = self.frame()
        out = self.out
        body = self.r.procedures[s.procedure]
        with self.unless_resuming():
            values = []
            declared = {(proc, param): typ for proc, param, typ in self.r.procedure_params}
            for name, e in s.args:
                if e.type == STR and not reads_name(body, name):    # a text only the account reads:
                    self.discard(e, env)                           # computed for its faults alone
                else:
                    typ = _held_as(e.type, declared.get((s.procedure, name)))
                    values.append((name, self.value(e, env, typ), typ))
            for name, v, typ in values:
                local = self.local(inner["#frame"] + name, typ)
                out.line(f"{local} = {v}")
            out.line("STEPS += 2")
        rec = self.record(s)
        with self.called(_after(rec.call) if rec else None, inner["#frame"]):
            self.steps(body, inner)
        self.frame_left(inner)
        self.depth -= 1

    def _call_apart(self, s, env, called) -> None:
        """A call of a procedure written apart: its arguments, the scalars it touches put in
        XS, and those it changes taken back.  In the resumable kernel the arguments are kept
        in the frame's locals (read from IN where a play-out resumes inside the call, as they
        are where written in), and the call passes RES less the number before its choices
        (Resumes.enter): 0 but where the choice resumed at lies inside."""
        out = self.out
        declared = {param: typ for proc, param, typ in self.r.procedure_params if proc == s.procedure}
        values = {}
        with self.unless_resuming():
            for name, e in s.args:                      # in the call's order, as written in
                if name in called.params:
                    values[name] = self.value(e, env, _held_as(e.type, declared.get(name)))
                else:                                   # a text only the account reads
                    self.discard(e, env)
            if self.resumable:
                for name, kernel in zip(called.params, called.kernel_params):
                    out.line(f"{self.local(kernel, self.local_types[kernel])} = {values[name]}")
                values = dict(zip(called.params, called.kernel_params))
            out.line("STEPS += 2")
        base = None
        if self.resumable:
            rec = self.record(s)
            base = self.resume.enter(called.resumes, _after(rec.call) if rec else None)
        inside = None if base is None else f"{base} < RES <= {base + called.resumes.count}"   # resumed in this call
        for x in called.touched:
            if x == "RES":
                out.line(f"XS[{self.xs[x]}] = " + ("0" if inside is None else f"RES - {base} if {inside} else 0"))
            else:
                out.line(f"XS[{self.xs[x]}] = {x}")
        st = out.fresh("st")
        out.line(f"{st} = {called.name}({', '.join(['XS'] + [values[p] for p in called.params] + called.arrays)})")
        out.line(f"if {st} != 0: " + ("return " + st if self.resumable else BAIL))     # (a play-out stopped: STOPPED)
        for x in called.changed:
            if x != "RES":
                out.line(f"{x} = {self.loaded(x)}")
        if inside is not None:                          # the choice resumed at was reached inside
            out.line(f"if {inside}: RES = 0")

    def procedure(self, name):
        """The Apart of procedure `name`, its function written the first time it is called;
        None where it is written in instead (it calls itself, or cannot be apart)."""
        if name in self.procedures:
            return self.procedures[name]
        self.procedures[name] = None        # (called again while written: written in there)
        body = self.r.procedures[name]
        if self.restarts and restarts_turns(self.r, body):     # it flags its caller's turns (even turns
            return None                                         # of its own: written in, to be simple)
        declared = [(param, typ) for proc, param, typ in self.r.procedure_params if proc == name]
        env = self.frame()
        keep = self.out, self.locals, self.list_locals, self.turn_frames, self.resume, dict(self.windows)
        self.out, self.locals, self.list_locals = Out(indent=1), set(), set()
        self.turn_frames = []           # (a restart_turns met all the same gives the game up)
        self.resume = Resumes(slots=keep[4].slots, prefixes=[env["#frame"]])   # its choices numbered from 1
        self.out.count = keep[0].count
        try:
            params = [self.local(env["#frame"] + p, typ) for p, typ in declared
                      if not (typ == STR and not reads_name(body, p))]
            self.inline_depth()
            if self.resumable:          # (resumed inside: its chain and frames put under each call's)
                self.steps(body, env)
            else:
                with self.called(None, env["#frame"]):
                    self.steps(body, env)
            self.depth -= 1
            lines, own, own_lists = self.out.lines, self.locals - set(params), self.list_locals - set(params)
            keep[0].count = self.out.count
            inner, windows = self.resume, len(self.windows) != len(keep[5])
        finally:
            self.out, self.locals, self.list_locals, self.turn_frames = keep[:4]
            keep[4].slots, self.resume, self.windows = self.resume.slots, keep[4], keep[5]
        called = apart(f"pf{len(self.procedures_src) + 1}", lines, params, self.game_scalars(), self.game_arrays(),
                       self.locals | self.list_locals)
        if called is None or windows:   # (a choice made together's record is kept by its RES: written in)
            return None
        called.params, called.kernel_params, called.resumes = [p[len(env["#frame"]):] for p in params], params, inner
        loads = []
        if self.resumable and (own or own_lists):   # its locals, where a play-out resumes inside it (source())
            self.apart_locals[called.name] = own | own_lists
            self.apart_lists |= own_lists
            loads = [f"    #LOADS {called.name}"]
            called.arrays = sorted(set(called.arrays) | {"IN", "POOL"})
            called.touched = sorted(set(called.touched) | {"RES"})
        for x in called.touched:
            self.xs.setdefault(x, len(self.xs))
        self.procedures_src.append(
            ["", "@njit(cache=False)", f"def {called.name}({', '.join(['XS'] + params + called.arrays)}):"]
            + [f"    {x} = {self.loaded(x)}" for x in called.touched]
            + [f"    {x} = NULL" for x in sorted(own)] + [f"    {x} = np.empty(0, np.int64)" for x in sorted(own_lists)]
            + loads + lines + [f"    XS[{self.xs[x]}] = {x}" for x in called.changed] + ["    return 0"])
        self.procedures[name] = called
        return called

    def loaded(self, x: str) -> str:
        """Scalar x as XS holds it: of floats where the kernel holds fractions, x a whole
        number unless it is a number variable."""
        held = f"XS[{self.xs[x]}]"
        whole = not (x.startswith("G_") and self.r.variables[x[2:]].type == NUM)
        return f"int({held})" if self.fractions and whole else held

    def game_scalars(self) -> set:
        """The game's scalars a procedure apart may touch: XS passes them."""
        return set(GAME_SCALARS) | {f"G_{name}" for name, v in self.variables.items() if not is_list(v.type)} | \
            (RESUMING_SCALARS if self.resumable else set())

    def game_arrays(self) -> set:
        """The game's arrays (and read-only values) a procedure apart is given as they are."""
        return set(GAME_ARRAYS) | (RESUMING_ARRAYS if self.resumable else set()) | \
            {f"G_{name}" for name, v in self.variables.items() if is_list(v.type)} | \
            {f"P_{name}" for name in self.player_variables} | {f"PL_{name}" for name in self.player_variables} | \
            {f"M{x}_{kind}_{name}" for kind, name in self.maps for x in "KVN"} | {name for name, _ in self.buffers}

    def s_Emit(self, s, env):
        rec = self.record(s)
        declared = self.r.events.get(s.event, {})
        self.dispatch(s.event, lambda: {name: (self.value(e, env, _held_as(e.type, declared.get(name))),
                                               _held_as(e.type, declared.get(name))) for name, e in s.payload},
                      ret=_after(rec.call) if rec else None)

    def value(self, node, env, want=None) -> str:
        """A value to keep in a name (of type `want`: a zone's cards where a list is wanted): a
        list is copied out of the array it was made in."""
        if is_list(node.type) or node.type == ZONE and want is not None and is_list(want):
            return self.tmp(f"{self.array(node, env)}.copy()")
        return self.emit(node, env)


def _held_as(typ, declared):
    """The type a name given a value of type `typ` holds it as: its declared list type where the
    value is a zone (its cards) or `[]` (a list of anything)."""
    if declared is not None and is_list(declared) and (typ == ZONE or is_list(typ) and elem_of(typ) not in SCALARS):
        return declared
    return typ


def _choice_parts(s) -> list:
    """The expressions a choice computes before its decision: options, legality, chooser."""
    if isinstance(s, ir.ChooseAmong):
        return [s.by] + [e for a in s.alternatives for e in (a.when, a.where, *(lst for _, lst, _ in a.names))]
    return [s.options, s.where, s.by]


def _after(pc: int | None) -> int | None:
    """The pc a call at `pc` returns to (None: no call, no trigger answers there)."""
    return None if pc is None else pc + 1


def is_fraction(st) -> bool:
    """Whether statistic `st` is a quotient `a / b`: the kernel computes a and b, and the rows
    divide them as values.divide does (a share is mostly not a whole number)."""
    return isinstance(st.value, E.Arith) and st.value.op == "/"


def stat_columns(statistics) -> list:
    """(statistic, its first column, whether a fraction) of each of `statistics` in order: a
    fraction takes two columns."""
    out, col = [], 0
    for st in statistics:
        out.append((st, col, is_fraction(st)))
        col += 2 if is_fraction(st) else 1
    return out


def _kind(target) -> str:
    return "G" if isinstance(target, ir.GlobalTarget) else "P"


def shown_only(r) -> set:
    """("G" or "P", name) of each text variable that nothing the kernel runs reads: only the
    table shows it (the `table:` section, a log, a label or a prompt), or only what sets such a
    variable reads it (an auction's text made of the calls' texts), so that the kernel never
    keeps it (a text made at run time, `'bid ' + text(high)`, is none the kernel knows)."""
    texts = {("G", name) for name, v in r.variables.items() if v.type == STR} | \
        {("P", name) for name, v in r.player_variables.items() if v.type == STR}
    if not texts:
        return set()
    reads = {None: set()}           # what the kernel reads (None), and what the value set to each text reads
    seen = set()
    stack = [(None, x) for x in (r.flow, r.procedures, r.triggers, r.result, r.statistics)]
    while stack:
        into, x = stack.pop()
        if isinstance(x, (ir.Log, ir.Text, ir.GlobalTarget, str, int, bool, type(None))):
            continue
        if isinstance(x, ir.PlayerTarget):
            stack.append((into, x.owner))
            continue
        if isinstance(x, ir.Assign) and isinstance(x.target, (ir.GlobalTarget, ir.PlayerTarget)) \
                and (_kind(x.target), x.target.name) in texts:
            stack += [(into, x.target), ((_kind(x.target), x.target.name), x.value)]
            continue
        if isinstance(x, (E.GlobalVar, E.PlayerVar)):
            reads.setdefault(into, set()).add(("G" if isinstance(x, E.GlobalVar) else "P", x.name))
        if isinstance(x, E.UserCall) and (into, id(x.function)) not in seen:
            seen.add((into, id(x.function)))
            stack.append((into, x.function.body))
        stack.extend((into, y) for y in _parts(x))
    needed, todo = set(), [None]
    while todo:                     # what the kernel reads, and what is read to set it, and so on
        for v in reads.get(todo.pop(), ()):
            if v not in needed:
                needed.add(v)
                todo.append(v)
    return texts - needed


def restart_flag(env) -> str:
    """The kernel's name of a frame's restart flag (not a rules' name: resume reads none)."""
    return "RESTART_" + env["#frame"]


def restarts_turns(r, steps) -> bool:
    """Whether `steps` may run a `restart_turns`: in them, in the procedures they call, in the
    triggers of the events they emit or request (and of the turns' events)."""
    stack, seen = [steps], set()
    while stack:
        x = stack.pop()
        if isinstance(x, ir.RestartTurns):
            return True
        if isinstance(x, ir.If) and x.fixed is not None:      # (an option's branch not taken)
            stack.append(x.then if x.fixed else x.else_)
            continue
        if isinstance(x, ir.Call) and ("p", x.procedure) not in seen:
            seen.add(("p", x.procedure))
            stack.append(r.procedures[x.procedure])
        elif isinstance(x, (ir.Emit, ir.Request)) and ("e", x.event) not in seen:
            seen.add(("e", x.event))
            stack.append(r.triggers.get(x.event, ()))
        elif isinstance(x, ir.Turns) and ("e", "turn") not in seen:
            seen.add(("e", "turn"))
            stack += [r.triggers.get("turn_start", ()), r.triggers.get("turn_end", ())]
        stack.extend(_parts(x))
    return False


def _parts(x):
    """The parts of a node of the intermediate form (of a list of them, a map of them) that a
    walk through it goes into: not its text, its place in the file, its folded value."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return [getattr(x, f.name) for f in dataclasses.fields(x) if f.name not in ("tree", "path", "const")]
    if isinstance(x, (list, tuple)):
        return x
    if isinstance(x, dict):
        return x.values()
    return ()


def reads_name(steps, name: str) -> bool:
    """Whether the kernel reads local `name` in `steps`: anywhere but in what only the account
    shows (a log, a label, a prompt: no account is kept), the functions called aside (they read
    their parameters only)."""
    stack = [steps]
    while stack:
        x = stack.pop()
        if isinstance(x, (ir.Log, ir.Text)):
            continue
        if isinstance(x, E.Local):
            if x.name == name:
                return True
        elif isinstance(x, E.UserCall):
            stack.extend(x.args)
        else:
            stack.extend(_parts(x))
    return False
