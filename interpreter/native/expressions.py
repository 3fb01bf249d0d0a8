"""Expressions (lang/expr_ir.py) written as kernel source: every value an int64 (a number, a
card or seat, a zone's row, 0/1 for a bool, a text by its number in the kernel's table of
texts; NULL for null), a list a one-dimensional int64 array.

An expression is written as statements before its use (`emit` returns the name or literal
holding its value), so that `and`, `or` and `if ... else` compute only what Python would
compute, and a null where a value is needed, a zero divisor or a budget passed ends the
game with BAIL: the Python back end then plays that game, and says what is wrong.  A
collection that is only gone through (count, any, sum, filter, ...) is not made: its
elements are walked in a loop (`each`), the work the built-ins charge counted as they go.
"""
from __future__ import annotations

import re
from contextlib import contextmanager

from ..errors import InterpreterError
from .resume import NUMTEXT, WHOLE
from ..lang import expr_ir as E
from ..lang.types import BOOL, CARD, NUM, PILE, PLAYER, STR, ZONE, elem_of, is_map
from ..limits import MAX_LIST

BAIL = "return BAIL"
EXACT = 9007199254740992      # 2**53: the whole numbers a float64 holds exactly
INEXACT = "return BAIL  # inexact"     # a value the kernel cannot hold (a fraction): Python plays the game
SCALARS = (NUM, BOOL, STR, CARD, PLAYER, PILE)
INLINE_SIZE = 16        # a ruleset function smaller than this (lang Function.size) is written in where called;
INLINE_BUDGET = 200     # a larger one too, until its calls written in come to this size: then it is called
APART_INLINE_BUDGET = 60  # in a kernel written apart (too long to compile written in): called sooner


def is_list(typ) -> bool:
    """A list (not a zone): held as a one-dimensional int64 array."""
    return elem_of(typ) is not None and typ != ZONE and not is_map(typ)


def of_lists(typ) -> bool:
    """A list whose elements are lists (subsets, groups): gone through where it can be, else
    made in one array (`nested`)."""
    return is_list(typ) and str(elem_of(typ)).startswith("list[")


def nestable(typ) -> bool:
    """A list of scalars, or of lists of them, however deep: what a list of lists made holds."""
    elem = elem_of(typ)
    return is_list(typ) and elem != typ and (elem in SCALARS or nestable(elem))


def window_name(key: str) -> str:
    """The kernel's name of a choice made together's record (its local, `#seal1`) or flag
    (`#seal1?`, `#seal1!`)."""
    return key.replace("#", "W").replace("?", "_more").replace("!", "_shown")


class Uncovered(InterpreterError):
    """What the kernel does not cover: the ruleset is played by the generated Python."""


class Fractional(Uncovered):
    """A number that is not whole: the kernel is written again holding numbers as floats
    (`fractions`), as Python holds them once a fraction is among them."""


class Out:
    """Lines of source at an indentation, and fresh names."""

    def __init__(self, indent=1):
        self.lines, self.indent, self.count = [], indent, 0

    def line(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)

    def fresh(self, prefix="t") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    @contextmanager
    def block(self, head: str):
        self.line(head)
        self.indent += 1
        yield
        self.indent -= 1


class Exprs:
    """The expression writer; `texts` numbers the texts, `tables` holds the module's constant
    arrays (card attributes, constant lists)."""

    def __init__(self, ruleset, out: Out):
        self.r = ruleset
        self.out = out
        self.texts: dict = {}
        self.tables: dict = {}          # name -> list of int
        self.attr_names: dict = {}
        self.locals: set = set()        # kernel names of the rules' locals, set to NULL at the start
        self.list_locals: set = set()   # those holding a list: an empty array at the start
        self.local_types: dict = {}     # a rules' local's kernel name -> its type (for resuming: native/resume.py)
        self.buffers: list = []         # (name, capacity) of the arrays made once a game, one per place
        self.functions: dict = {}       # a ruleset function's name -> its kernel function's name
        self.functions_src: list = []   # their sources
        self.writing: list = []         # the functions being written (one calling itself: not covered)
        self.function_count = 0
        self.in_statistic = False
        self.discarding = False         # writing a text no one reads: only its faults matter
        self.inlined: dict = {}         # a ruleset function's name -> the size written in so far
        self.reads: dict = {}           # a kernel function's name -> the parts of the state it reads (its arguments)
        self.given: dict = {}           # a kernel function's name -> the capacities of the arrays each call gives it
        self.apart = False              # functions that make lists written apart too (steps.py, native/apart.py)
        self.shared: dict = {}          # id of a value tested not null -> its name, while what reads it is written
        self.concats: list = []         # (table, constant, constant first) of each text joined to a constant
        self.numtexts = False           # text() of a number is written: numtext and its tables are
        self.pool: list = []            # KP: the constant lists a span (below) reads, end to end
        self.pooled: dict = {}          # a constant list -> where it starts in KP
        self.fractions = False          # numbers held as float64 where a fraction may be (Fractional)
        self.nests = False              # a list of lists is made (nested): its helpers are written
        self.null_lists: dict = {}      # a list first() may not find -> the name of its flag (found)
        self.zone_arrays: set = set()   # arrays bound to a function's zone parameter (given a list there)

    # -- values ------------------------------------------------------------------------
    def text_id(self, text: str) -> int:
        return self.texts.setdefault(text, len(self.texts))

    def scalar(self, value, typ=None) -> str:
        """A constant as kernel source."""
        if value is None:
            return "NULL"
        if isinstance(value, bool):
            return "1" if value else "0"
        if isinstance(value, int):
            return str(value)
        if isinstance(value, str):
            return str(self.text_id(value))
        if isinstance(value, float):
            if value.is_integer() and typ != NUM:
                return str(int(value))
            if self.fractions and typ == NUM:
                return repr(value)
            raise Fractional("numbers that are not whole")
        if isinstance(value, (list, tuple)):
            raise Uncovered("a list where one value is wanted")
        raise Uncovered(f"a constant of kind {type(value).__name__}")

    def number(self, value) -> int:
        """A constant as the int64 the kernel holds (a list's element: lists hold whole numbers)."""
        v = self.scalar(value)
        if not re.fullmatch(r"-?[0-9]+|NULL", v):
            raise Uncovered("a list holding numbers that are not whole")
        return -(1 << 62) if v == "NULL" else int(v)

    def table(self, values) -> str:
        """The name of a module-level constant array holding `values`."""
        key = tuple(values)
        for name, vals in self.tables.items():
            if vals == key:
                return name
        name = f"T{len(self.tables)}"
        self.tables[name] = key
        return name

    def attr_table(self, name: str) -> str:
        if name not in self.attr_names:
            typ, values = self.r.deck.attrs[name]
            if typ not in (NUM, BOOL, STR, CARD, PLAYER):
                raise Uncovered(f"a card attribute of type {typ}")
            if typ == NUM and any(isinstance(v, float) and not v.is_integer() for v in values):
                raise Uncovered("a card attribute that is not a whole number")
            self.attr_names[name] = self.table([self.number(v) for v in values])
        return self.attr_names[name]

    def buffer(self, capacity: str) -> str:
        """An array of its own for one place of the source, made as the game starts: a list
        made there is dead when the place is reached again (no list is kept in a name)."""
        name = f"B{len(self.buffers)}"
        self.buffers.append((name, capacity))
        return name

    def tmp(self, value: str) -> str:
        t = self.out.fresh()
        self.out.line(f"{t} = {value}")
        return t

    def not_null(self, v: str) -> None:
        if v != "NULL" and not v.lstrip("-").isdigit():
            with self.out.block(f"if {v} == NULL:"):
                self.out.line(BAIL)
        elif v == "NULL":
            self.out.line(BAIL)

    def whole(self, v: str, typ=NUM) -> str:
        """A number where the kernel needs a whole one (an index, a count, a list's element:
        arrays hold int64): as it is, except in a kernel holding fractions, where a fraction
        gives the game up (Python plays it: it holds the fraction, or says what is wrong)."""
        if not self.fractions or typ != NUM or v == "NULL" or v.lstrip("-").isdigit():
            return v
        t = self.out.fresh("h")
        self.out.line(f"{t} = int({v})")
        self.out.line(f"if {t} != {v}: " + INEXACT)
        return t

    def cut(self, v: str) -> str:
        """A count (move, deal, turns) as the VM takes it, int(): a fraction cut toward zero."""
        return f"int({v})" if self.fractions and not v.lstrip("-").isdigit() else v

    def charge(self, amount: str) -> None:
        self.out.line(f"W += {amount}")

    # -- one value ---------------------------------------------------------------------
    def emit(self, node, env: dict) -> str:
        """Source of the value of `node` (a name or a literal), its statements written."""
        if node.is_const:
            return self.scalar(node.const, node.type)
        if is_map(node.type):
            raise Uncovered("maps")
        if id(node) in self.shared:
            return self.shared[id(node)]
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise Uncovered(f"the expression {type(node).__name__}")
        return method(node, env)

    def _Local(self, node, env):
        if node.name in env:
            return env[node.name]
        if node.name.startswith("#seal"):       # a choice made together's flag (steps.s_Seal)
            return env["#frame"] + window_name(node.name)
        return self.local(env["#frame"] + node.name, node.type)

    def local(self, name: str, typ) -> str:
        """A rules' local by its kernel name, set up as the game starts (a list: an array)."""
        self.local_types[name] = typ
        if is_list(typ):
            if not nestable(typ):
                raise Uncovered(f"a local name holding a {typ}")
            self.list_locals.add(name)
        else:
            self.locals.add(name)
        return name

    def _GlobalVar(self, node, env):
        return "G_" + node.name

    def _SharedZone(self, node, env):
        return self.zone_row(node.name, None, env)

    def _PlayerZone(self, node, env):
        return self.zone_row(node.name, node.owner, env)

    def zone_row(self, name: str, owner, env) -> str:
        """The row of Z holding zone `name` (a per-player zone: `owner`'s)."""
        if owner is None:
            return str(self.zone_base(name))
        o = self.emit(owner, env)
        self.not_null(o)
        return self.tmp(f"{self.zone_base(name)} + {o}")

    def _PileCards(self, node, env):
        """A pile read as its cards: its row (steps.piles_source), the rules error Python gives
        where it is null or not on the table any more."""
        p = self.emit(node.obj, env)
        self.not_null(p)
        row = self.tmp(f"pile_row(PNUM, PK, {p})")
        self.out.line(f"if {row} < 0: " + BAIL)
        return row

    def _PileOwner(self, node, env):
        return self.tmp(f"POWN[{self._PileCards(node, env)}]")

    def _PlayerVar(self, node, env):
        if elem_of(node.type) is not None:
            raise Uncovered("a player variable holding a list")
        owner = self.emit(node.owner, env)
        self.not_null(owner)
        return self.tmp(f"P_{node.name}[{owner}]")

    def _Current(self, node, env):
        return "CUR"

    def _NumPlayers(self, node, env):
        return "n"

    def _CardAttr(self, node, env):
        c = self.emit(node.obj, env)
        self.not_null(c)
        return self.tmp(f"{self.attr_table(node.name)}[{c}]")

    def _PlayerProp(self, node, env):
        p = self.emit(node.obj, env)
        name = node.name
        if name == "name" and self.discarding:      # a name only shown: computed for its faults alone
            self.not_null(p)
            return "0"
        if name not in ("index", "seat", "left", "right", "eliminated", "team"):
            raise Uncovered(f"a player's {name}")
        self.not_null(p)
        if name == "index":
            return p
        if name == "team":
            return self.tmp(f"TM[{p}]")
        if name == "seat":
            return self.tmp(f"{p} + 1")
        if name == "eliminated":
            return self.tmp(f"OUT[{p}]")
        return self.tmp(f"next_seat(OUT, n, {p}, {1 if name == 'left' else -1})")

    def _ZoneProp(self, node, env):
        if self.listed_zone(node.obj, env):      # a list given for a zone: its length, its last or first
            a = self.emit(node.obj, env)
            if node.name == "size":
                return self.tmp(f"len({a})")
            return self.tmp(f"{a}[{'len(' + a + ') - 1' if node.name == 'top' else '0'}] if len({a}) > 0 else NULL")
        z = self.emit(node.obj, env)
        if node.name == "size":
            return self.tmp(f"ZN[{z}]")
        at = f"ZN[{z}] - 1" if node.name == "top" else "0"
        return self.tmp(f"Z[{z}, {at}] if ZN[{z}] > 0 else NULL")

    def _Neg(self, node, env):
        a = self.emit(node.a, env)
        self.not_null(a)
        return self.tmp(f"-{a}")

    def _Not(self, node, env):
        a = self.emit(node.a, env)
        return self.tmp(f"1 if ({a} == 0 or {a} == NULL) else 0")

    def _And(self, node, env):
        return self._short(node, env, "and")

    def _Or(self, node, env):
        return self._short(node, env, "or")

    def _short(self, node, env, op):
        t = self.out.fresh()
        tested = self.null_tested(node.a)
        if tested is not None and tested[1] == (op == "or"):     # X != null and ... X ...: X computed once
            x = self.emit(tested[0], env)
            self.out.line(f"{t} = {'1 if' if op == 'and' else '0 if'} {x} != NULL else {'0' if op == 'and' else '1'}")
        else:
            tested, x = None, None
            a = self.emit(node.a, env)
            self.out.line(f"{t} = {a}")
        test = f"{t} != 0 and {t} != NULL" if op == "and" else f"{t} == 0 or {t} == NULL"
        with self.out.block(f"if {test}:"), self.sharing(tested, x):
            b = self.emit(node.b, env)
            self.out.line(f"{t} = {b}")
        return t

    def _IfElse(self, node, env):
        t = self.out.fresh()
        tested = self.null_tested(node.cond)
        if tested is not None:              # X if X != null else Y: X computed once where it is one node
            subject, is_null = tested
            x = self.emit(subject, env)
            with_value, without = (node.no, node.yes) if is_null else (node.yes, node.no)
            with self.out.block(f"if {x} != NULL:"), self.sharing(tested, x):
                self.out.line(f"{t} = {self.emit(with_value, env)}")
            with self.out.block("else:"):
                self.out.line(f"{t} = {self.emit(without, env)}")
            return t
        c = self.emit(node.cond, env)
        with self.out.block(f"if {c} != 0 and {c} != NULL:"):
            self.out.line(f"{t} = {self.emit(node.yes, env)}")
        with self.out.block("else:"):
            self.out.line(f"{t} = {self.emit(node.no, env)}")
        return t

    @staticmethod
    def null_tested(cond):
        """(X, is_null) of a test `X != null` or `X == null` of a value (not a list) that
        draws no random number (expr_ir.null_test), else None.  Where what reads X is the same
        node, as the checker writes `X ?? Y` and `X?.a`, X is computed once and its work
        charged once, as in the Python back ends (which also share an X written out twice,
        `X + 1 if X != null else 0`: the kernel computes that one twice, never counting less)."""
        tested = E.null_test(cond)
        return tested if tested is not None and not is_list(tested[0].type) else None

    @contextmanager
    def sharing(self, tested, name):
        """While what reads X (tested not null) is written, X is `name` (no test: nothing shared)."""
        if tested is None:
            yield
            return
        key = id(tested[0])
        before = self.shared.get(key)
        self.shared[key] = name
        try:
            yield
        finally:
            if before is None:
                del self.shared[key]
            else:
                self.shared[key] = before

    def _Concat(self, node, env):
        """A constant text joined to a text: looked up in a table of the constant joined to each
        text the kernel knows (concat_tables); a text made at run time joined again gives up."""
        if self.discarding:
            for side in (node.a, node.b):
                self.not_null(self.emit(side, env))
            return "0"
        if node.a.is_const == node.b.is_const:
            raise Uncovered("texts joined where neither is a constant")
        lit, other = (node.a, node.b) if node.a.is_const else (node.b, node.a)
        v = self.emit(other, env)
        self.not_null(v)
        table = f"CT{len(self.concats)}"
        self.concats.append((table, lit.const, node.a.is_const))
        with self.out.block(f"if not 0 <= {v} < len({table}):"):
            self.out.line(BAIL)
        return self.tmp(f"{table}[{v}]")

    def numtext_source(self) -> list:
        """`numtext`: the id of the text of number v, that of a known text where one is its text
        (NTK, NTV: the known texts that are whole numbers), else NUMTEXT + v (resume._scalar
        numbers a text so too)."""
        if not self.numtexts:
            return []
        known = [(int(t), i) for t, i in self.texts.items() if WHOLE.fullmatch(t)]
        return [f"NTK = np.array({[k for k, _ in known] or [0]!r}, dtype=np.int64)",
                f"NTV = np.array({[i for _, i in known] or [-1]!r}, dtype=np.int64)",
                f"NUMTEXT = {NUMTEXT}", "", "", "@njit(cache=False)", "def numtext(NTK, NTV, v):",
                "    for i in range(len(NTK)):", "        if NTK[i] == v and NTV[i] >= 0: return NTV[i]",
                "    return NUMTEXT + v", ""]

    def concat_tables(self) -> list:
        """The source of each join's table (CTk[t]: the id of the text the constant joined to
        text t makes), for every text known once the kernel is written."""
        known = sorted(self.texts, key=self.texts.get)
        tables = []
        for table, lit, first in self.concats:
            ids = [self.text_id(lit + t if first else t + lit) for t in known]
            tables.append(f"{table} = np.array({ids!r}, dtype=np.int64)")
        return tables

    def _Arith(self, node, env):
        a = self.emit(node.a, env)
        b = self.emit(node.b, env)
        self.not_null(a)
        self.not_null(b)
        if node.op == "/" and self.in_statistic:     # a share, mostly a fraction: every game would be Python's
            raise Uncovered("a statistic that divides with '/' (its value a fraction)")
        if node.op == "/" and self.fractions:      # values.divide: its quotient, as a float holds it
            with self.out.block(f"if {b} == 0:"):
                self.out.line(BAIL)
            return self.tmp(f"{a} / {b}")
        if node.op == "/":          # values.divide: a whole quotient is a whole number; any other, Python's
            with self.out.block(f"if {b} == 0:"):
                self.out.line(BAIL)
            with self.out.block(f"if {a} % {b} != 0 or abs({a}) > 9007199254740992:"):
                self.out.line(INEXACT)
            return self.tmp(f"{a} // {b}")
        if node.op in ("//", "%"):
            with self.out.block(f"if {b} == 0:"):
                self.out.line(BAIL)
        t = self.tmp(f"{a} {node.op} {b}")
        if self.fractions and node.op in "+-*":
            self.exact(t)
        return t

    def exact(self, t: str) -> None:
        """Past 2**53 a float is not the whole number Python's int holds: Python plays the game."""
        self.out.line(f"if not -{EXACT} <= {t} <= {EXACT}: " + INEXACT)

    def _Compare(self, node, env):
        if elem_of(node.a.type) is not None and node.a.type != ZONE or elem_of(node.b.type) is not None and node.b.type != ZONE:
            return self._lists_compared(node, env)
        a = self.emit(node.a, env)
        b = self.emit(node.b, env)
        if node.op in ("==", "!="):
            return self.tmp(f"1 if {a} {node.op} {b} else 0")
        if STR in (node.a.type, node.b.type):
            raise Uncovered("texts compared by order")
        self.not_null(a)
        self.not_null(b)
        return self.tmp(f"1 if {a} {node.op} {b} else 0")

    def _lists_compared(self, node, env) -> str:
        """`==` or `!=` of two lists (of scalars, or lists of them: their arrays alike), element
        by element as Python compares them; a list first() did not find is null, equal only to
        another such."""
        if node.op not in ("==", "!=") or not (nestable(node.a.type) and nestable(node.b.type)) \
                or node.a.is_const and node.a.const is None or node.b.is_const and node.b.const is None:
            raise Uncovered("lists compared")
        a, b = self.list_value(node.a, env), self.list_value(node.b, env)
        if not node.b.is_const:         # (closures._charging: the left list's length)
            self.charge(f"({a}[0] if len({a}) > 0 else 0)" if of_lists(node.a.type) else f"len({a})")
        self.nests = True
        fa, fb = self.null_lists.get(a, "1"), self.null_lists.get(b, "1")
        same = f"(({fa}) == 0 and ({fb}) == 0) or (({fa}) != 0 and ({fb}) != 0 and same({a}, {b}))"
        return self.tmp(f"1 if ({same}) == {node.op == '=='} else 0")

    def list_value(self, node, env) -> str:
        """A list's array where a value is compared: first()'s answer (which may be null) or
        the list's array."""
        if isinstance(node, E.BuiltinCall) and node.name == "first":
            return self.emit(node, env)
        return self.array(node, env)

    def map_place(self, node, env) -> tuple:
        """(its arrays' suffix, its row) of a map variable read (steps: MK_, MV_, MN_)."""
        kind = "G" if isinstance(node, E.GlobalVar) else "P" if isinstance(node, E.PlayerVar) else None
        if kind is None or (kind, node.name) not in self.maps:
            raise Uncovered("maps")
        if kind == "G":
            return f"G_{node.name}", "0"
        row = self.emit(node.owner, env)
        self.not_null(row)
        return f"P_{node.name}", row

    def map_find(self, m: str, row: str, key: str) -> str:
        """The index of `key` among the entries of map m's row, or -1."""
        i, j = self.out.fresh("i"), self.out.fresh("j")
        self.out.line(f"{i} = -1")
        with self.out.block(f"for {j} in range(MN_{m}[{row}]):"):
            self.out.line(f"if MK_{m}[{row}, {j}] == {key}: {i} = {j}; break")
        self.charge(f"MN_{m}[{row}]")
        return i

    def _MapGet(self, node, env):
        m, row = self.map_place(node.coll, env)
        i = self.map_find(m, row, self.emit(node.key, env))
        return self.tmp(f"MV_{m}[{row}, {i}] if {i} >= 0 else NULL")

    def _Member(self, node, env):
        if is_map(node.b.type):         # a key of the map
            x = self.emit(node.a, env)
            m, row = self.map_place(node.b, env)
            i = self.map_find(m, row, x)
            return self.tmp(f"1 if ({i} >= 0) == {node.op == 'in'} else 0")
        if is_list(node.a.type):        # a list among lists: compared element by element
            x = self.list_value(node.a, env)
            self.nests = True
            flag = self.null_lists.get(x, "1")
            t = self.out.fresh()
            self.out.line(f"{t} = 0")
            self.each(node.b, env, lambda e: self.out.line(f"if ({flag}) != 0 and same({e}, {x}): {t} = 1"),
                      charge=not node.b.is_const)       # (every element charged, as Python charges)
            if node.op == "not in":
                self.out.line(f"{t} = 1 - {t}")
            return t
        x = self.emit(node.a, env)
        t = self.out.fresh()
        self.out.line(f"{t} = 0")
        charge = not node.b.is_const
        self.each(node.b, env, lambda e: self.out.line(f"if {e} == {x}: {t} = 1"), charge=charge, stop=f"{t} == 1")
        if node.op == "not in":
            self.out.line(f"{t} = 1 - {t}")
        return t

    def _Index(self, node, env):
        if not node.coll.is_const and self.spannable(node.coll):
            lo, hi = self.span(node.coll, env)
            i = self.whole(self.emit(node.index, env))
            self.not_null(i)
            return self.tmp(f"KP[{lo} + {i} if {i} >= 0 else {hi} + {i}] if {lo} - {hi} <= {i} < {hi} - {lo} else NULL")
        arr = self.array(node.coll, env)
        i = self.whole(self.emit(node.index, env))
        self.not_null(i)
        return self.tmp(f"{arr}[{i}] if -len({arr}) <= {i} < len({arr}) else NULL")

    def _UserCall(self, node, env):
        f = node.function
        if f.random_via is not None:
            raise Uncovered("a function that draws random numbers")
        if f.name in self.writing:
            raise Uncovered("a function that calls itself")
        args = self._args(node, env)
        budget = APART_INLINE_BUDGET if self.apart else INLINE_BUDGET
        inline = f.size < INLINE_SIZE or self.inlined.get(f.name, 0) + f.size <= budget
        fn = None if inline or self.lists_for_zones(node, env) else self.function(f)
        if fn is None:                      # written in where it is called: no call, no arrays made per call
            self.inlined[f.name] = self.inlined.get(f.name, 0) + f.size
            with self._written_in(f, args) as inner:
                return self.array(f.body, inner) if is_list(f.body.type) else self.emit(f.body, inner)
        out = self.out
        given = [self.buffer(capacity) for capacity in self.given.get(fn, ())]    # this call's own
        r, w, st = out.fresh("r"), out.fresh("w"), out.fresh("st")
        out.line(f"{r}, {w}, {st} = {fn}({', '.join(args + self.reads[fn] + given)})")
        out.line(f"W += {w}")
        out.line(f"if {st} == 2: " + INEXACT)
        out.line(f"if {st} != 0: " + BAIL)
        return r

    def _args(self, node, env) -> list:
        """The arguments of a call of a ruleset function, each in a name (a list: its array; a
        zone given where the function takes a list, as another call gives it one: its cards)."""
        names = []
        for arg, (_, typ) in zip(node.args, node.function.params):
            if typ == ZONE and (is_list(arg.type) or self.listed_zone(arg, env)):   # a list where the function takes a zone (Python:
                name = f"zl{len(self.zone_arrays)}"     # the same list): a name no other function has, marked
                self.out.line(f"{name} = {self.array(arg, env)}")
                self.zone_arrays.add(name)
                names.append(name)
            elif is_list(arg.type) or arg.type == ZONE and is_list(typ):
                names.append(self.array(arg, env))
            else:
                names.append(self.tmp(self.emit(arg, env)))
        return names

    def listed_zone(self, node, env) -> bool:
        """A zone parameter of a function given a list (an array) at this call."""
        return node.type == ZONE and isinstance(node, E.Local) and env.get(node.name) in self.zone_arrays

    def lists_for_zones(self, node, env) -> bool:
        """Whether a call gives a list where its function takes a zone: written in there (the
        function apart reads its zones as rows)."""
        return any(typ == ZONE and (is_list(arg.type) or self.listed_zone(arg, env))
                   for arg, (_, typ) in zip(node.args, node.function.params))

    @contextmanager
    def _written_in(self, f, args):
        """The names of function `f`'s body written in where it is called, `args` bound to its
        parameters (while it is written, a call of `f` in it is a call of itself)."""
        self.writing.append(f.name)
        try:
            yield {"#frame": "F_", **{p: a for (p, _), a in zip(f.params, args)}}
        finally:
            self.writing.pop()

    def function(self, f) -> str:
        """The kernel function of ruleset function `f`, written once (a function of its own, so
        that a function called in many places is compiled once): it returns its value, the work
        it charged and 1 where it gave up (0 else).  None for a function that makes a list
        (a list made per call would cost more than the call saves): it is written in.  Except
        in a kernel written apart (too long otherwise): there the arrays it makes its lists in
        are given it by each call, each call's own and made once a game, as written in; its
        answer, a list, is one of them or a list it was given (a list whose length is known
        only as it runs is made at each call, as it is where written in)."""
        if f.name in self.functions:
            return self.functions[f.name]
        listed = is_list(f.body.type)
        if listed and not self.apart:
            self.functions[f.name] = None
            return None
        gave_up = "return np.empty(0, np.int64), W, " if listed else "return 0, W, "
        self.function_count += 1
        name = f"uf{self.function_count}"
        self.writing.append(f.name)
        inner = Out(indent=1)
        keep, self.out = self.out, inner
        saved = self.locals, self.list_locals, self.buffers
        self.locals, self.list_locals, self.buffers = set(), set(), []
        try:
            params = [f"a_{p}" for p, _ in f.params]
            env = {"#frame": "F_", **{p: a for (p, _), a in zip(f.params, params)}}
            v = self.array(f.body, env) if listed else self.emit(f.body, env)
            given = list(self.buffers) if self.apart else []
            head = [f"    {x} = NULL" for x in sorted(self.locals)] + \
                [f"    {x} = np.empty(0, np.int64)" for x in sorted(self.list_locals)]
            body = [x.replace(INEXACT, gave_up + "2").replace(BAIL, gave_up + "1") for x in inner.lines]
            makes = not self.apart and (self.buffers or any("np." in x for x in body))
        finally:
            self.out = keep
            self.locals, self.list_locals, self.buffers = saved
            self.writing.pop()
        if makes:
            self.functions[f.name] = None
            return None
        self.functions[f.name] = name
        text = "\n".join(head + body) + v
        self.reads[name] = [a for a in self.shared_args().split(", ") if re.search(rf"\b{a}\b", text)]
        self.given[name] = [c for _, c in given]
        self.functions_src.append(["", "@njit(cache=False)",
                                   f"def {name}({', '.join(params + self.reads[name] + [x for x, _ in given])}):",
                                   "    W = 0"] + head + body + [f"    return {v}, W, 0"])
        return name

    def shared_args(self) -> str:
        """What a kernel function of the rules' expressions may read: the state."""
        return "n, Z, ZN, OUT, CUR, TM, " + self.state_args()

    def _BuiltinCall(self, node, env):
        name = node.name
        if name in ("slice", "filter", "map", "range", "clockwise") and is_list(node.type):
            return self.array(node, env)        # a list as a value: its array
        method = getattr(self, "b_" + name, None)
        if method is None:
            raise Uncovered(f"the built-in function {name}()")
        return method(node, env)

    # -- built-ins of one value ----------------------------------------------------------
    def _each_arg(self, node, env, body):
        """Go through the first argument, binding each element (to the body's name, if any)."""
        self.each(node.args[0], env, body)

    def _with(self, node, env, e):
        inner = dict(env)
        inner[node.var] = e
        return inner

    def b_count(self, node, env):
        t = self.out.fresh()
        self.out.line(f"{t} = 0")
        if node.body is None:
            self._each_arg(node, env, lambda e: self.out.line(f"{t} += 1"))
        else:
            def body(e):
                v = self.emit(node.body, self._with(node, env, e))
                self.out.line(f"if {v} != 0 and {v} != NULL: {t} += 1")
            self._each_arg(node, env, body)
        return t

    def b_any(self, node, env):
        return self._any_all(node, env, True)

    def b_all(self, node, env):
        return self._any_all(node, env, False)

    def _any_all(self, node, env, any_):
        t = self.out.fresh()
        self.out.line(f"{t} = {0 if any_ else 1}")

        def body(e):
            with self.out.block(f"if {t} == {0 if any_ else 1}:"):
                v = e if node.body is None else self.emit(node.body, self._with(node, env, e))
                truth = f"({v} != 0 and {v} != NULL)"
                self.out.line(f"if {truth if any_ else 'not ' + truth}: {t} = {1 if any_ else 0}")
        self.each(node.args[0], env, body, stop=f"{t} == {1 if any_ else 0}")
        return t

    def b_sum(self, node, env):
        t = self.out.fresh()
        self.out.line(f"{t} = 0")

        def body(e):
            v = e if node.body is None else self.emit(node.body, self._with(node, env, e))
            self.not_null(v)
            self.out.line(f"{t} += {v}")
        self._each_arg(node, env, body)
        return t

    def b_min(self, node, env):
        return self._extreme(node, env, "<")

    def b_max(self, node, env):
        return self._extreme(node, env, ">")

    def _extreme(self, node, env, better):
        if STR in (elem_of(node.args[0].type), getattr(node.body, "type", None)):
            raise Uncovered("texts compared by order")
        t = self.out.fresh()
        self.out.line(f"{t} = NULL")

        def body(e):
            v = e if node.body is None else self.emit(node.body, self._with(node, env, e))
            self.not_null(v)
            self.out.line(f"if {t} == NULL or {v} {better} {t}: {t} = {v}")
        self._each_arg(node, env, body)
        return t

    def b_min_by(self, node, env):
        return self._by(node, env, "<")

    def b_max_by(self, node, env):
        return self._by(node, env, ">")

    def _by(self, node, env, better):
        if node.body.type == STR:
            raise Uncovered("texts compared by order")
        t, k = self.out.fresh(), self.out.fresh("k")
        self.out.line(f"{t} = NULL")
        self.out.line(f"{k} = NULL")

        def body(e):
            v = self.emit(node.body, self._with(node, env, e))
            with self.out.block(f"if {t} == NULL:"):
                self.out.line(f"{t} = {e}")
                self.out.line(f"{k} = {v}")
            with self.out.block("else:"):
                self.not_null(v)
                self.not_null(k)
                self.out.line(f"if {v} {better} {k}: {t} = {e}; {k} = {v}")
        self._each_arg(node, env, body)
        return t

    def b_first(self, node, env):
        """The first element that matches, or null; of a list of lists, its array (empty where
        none matched) and whether one was found (null_lists: a list compared reads it)."""
        listed = is_list(node.type)
        t, done = self.out.fresh("a" if listed else "t"), self.out.fresh("d")
        self.out.line(f"{t} = {'np.empty(0, np.int64)' if listed else 'NULL'}")
        self.out.line(f"{done} = 0")

        def body(e):
            with self.out.block(f"if {done} == 0:"):
                if node.body is None:
                    self.out.line(f"{t} = {e}; {done} = 1")
                    return
                v = self.emit(node.body, self._with(node, env, e))
                self.out.line(f"if {v} != 0 and {v} != NULL: {t} = {e}; {done} = 1")
        self.each(node.args[0], env, body, charge=node.body is not None, stop=f"{done} == 1")
        if listed:
            self.null_lists[t] = done
        return t

    def b_top(self, node, env):
        return self._end(node, env, top=True)

    def b_bottom(self, node, env):
        return self._end(node, env, top=False)

    def _end(self, node, env, top):
        arg = node.args[0]
        if arg.type == ZONE and not self.listed_zone(arg, env):
            z = self.emit(arg, env)
            return self.tmp(f"Z[{z}, {'ZN[' + z + '] - 1' if top else '0'}] if ZN[{z}] > 0 else NULL")
        arr = self.array(arg, env)
        return self.tmp(f"{arr}[{'len(' + arr + ') - 1' if top else '0'}] if len({arr}) > 0 else NULL")

    def b_text(self, node, env):
        """text() of a number or a bool (values.plain), a text the kernel knows or, for a number
        whose text it does not know, NUMTEXT + the number (numtext); of anything else, only
        where the text is not read (discard): a value shown, computed for its faults."""
        arg = node.args[0]
        if not self.discarding and len(node.args) == 1 and arg.type in (NUM, BOOL):
            v = self.whole(self.emit(arg, env), arg.type)
            if arg.type == BOOL:
                return self.tmp(f"{self.text_id('—')} if {v} == NULL else {self.text_id('yes')} if {v} != 0 "
                                f"else {self.text_id('no')}")
            self.numtexts = True
            with self.out.block(f"if {v} != NULL and not -1000000000000000000 < {v} < 1000000000000000000:"):
                self.out.line(BAIL)         # (a number beyond the limit cannot be shown)
            return self.tmp(f"{self.text_id('—')} if {v} == NULL else numtext(NTK, NTV, {v})")
        if not self.discarding:
            raise Uncovered("the built-in function text() of a value that is not a number")
        for arg in node.args:
            if is_list(arg.type):
                self.charge(f"len({self.array(arg, env)})")
            else:
                self.emit(arg, env)
        return "0"

    def discard(self, node, env) -> str:
        """Write `node` for its faults alone: its value is read by nothing the kernel runs."""
        keep, self.discarding = self.discarding, True
        try:
            return self.emit(node, env)
        finally:
            self.discarding = keep

    def nullness(self, node, env) -> str:
        """A text only the table shows (steps.shown_only) as the kernel keeps it: NULL or 0,
        the text itself never made."""
        v = self.discard(node, env)
        return v if v in ("NULL", "0") else self.tmp(f"NULL if {v} == NULL else 0")

    def b_abs(self, node, env):
        v = self.emit(node.args[0], env)
        self.not_null(v)
        return self.tmp(f"abs({v})")

    def b_player(self, node, env):
        v = self.whole(self.emit(node.args[0], env))
        self.not_null(v)
        return self.tmp(f"{v} % n")

    def b_random(self, node, env):
        arg = node.args[0]
        if isinstance(arg, E.Players):
            return self.tmp("below(R, 0, n)")
        arr = self.array(arg, env)
        return self.tmp(f"{arr}[below(R, 0, len({arr}))] if len({arr}) > 0 else NULL")

    # -- collections ---------------------------------------------------------------------
    def each(self, node, env, body, charge=True, stop=None) -> None:
        """Write a loop over the elements of collection `node`, `body(element)` writing what is
        done with each; `charge`: count each element to the work budget; `stop`: a condition
        that ends the loop once it holds (any() has its answer: the body would do nothing
        more).  A loop that may stop is charged its whole length before it starts, as Python
        charges len() of what it looks in, whether or not it looks at every element."""
        out = self.out
        inner = body
        ahead = charge and stop is not None     # charged whole, before the loop
        each = charge and not ahead             # charged element by element
        if stop is not None:
            def body(e):
                inner(e)
                out.line(f"if {stop}: break")
        if not node.is_const and self.spannable(node):
            lo, hi = self.span(node, env)
            if ahead:
                self.charge(f"{hi} - {lo}")
            self._indexed(f"{lo}, {hi}", "KP[{}]", body, each)
            return
        if node.is_const and of_lists(node.type):       # a constant list of lists: its encoding, a table
            if ahead:
                self.charge(str(len(node.const)))
            self.walk(self.table(self.encoded(node.const, node.type)), body, each)
            return
        if node.is_const:
            values = node.const
            if not isinstance(values, (list, tuple)):
                raise Uncovered("a constant collection that is not a list")
            arr = self.table([self.number(v) for v in values])
            if ahead:
                self.charge(str(len(values)))
            e = out.fresh("e")
            with out.block(f"for {e} in {arr}:"):
                if each:
                    self.charge("1")
                body(e)
            return
        if isinstance(node, E.ListLit):
            for item in node.items:         # written out, no loop: the body's own guard stops it
                e = self.array(item, env) if of_lists(item.type) else self.tmp(self.emit(item, env))
                if charge:
                    self.charge("1")
                inner(e)
            return
        if node.type == ZONE and not self.listed_zone(node, env):
            z = self.emit(node, env)
            if ahead:
                self.charge(f"ZN[{z}]")
            self._indexed(f"ZN[{z}]", f"Z[{z}, {{}}]", body, each)
            return
        if is_map(node.type):
            raise Uncovered("maps")
        if ahead and isinstance(node, (E.Players, E.Active)):
            self.charge("n")        # the seats still playing, at most n: never less than Python counts
        if isinstance(node, E.Players):
            e = out.fresh("e")
            with out.block(f"for {e} in range(n):"):
                if each:
                    self.charge("1")
                body(e)
            return
        if isinstance(node, E.Active):
            e = out.fresh("e")
            with out.block(f"for {e} in range(n):"):
                with out.block(f"if not OUT[{e}]:"):
                    if each:
                        self.charge("1")
                    body(e)
            return
        if isinstance(node, E.BuiltinCall) and node.name in ("filter", "map"):
            # Python makes the whole list, computing the body for every element: a body that
            # charges work is computed to the end here too, the loop's own body no more once stopped
            whole = stop is not None and charges_work(node.body)

            def taken(e):
                if whole:
                    with out.block(f"if not ({stop}):"):
                        inner(e)
                else:
                    inner(e)

            def element(e):
                v = self.emit(node.body, self._with(node, env, e))
                if node.name == "map":
                    if charge:
                        self.charge("1")
                    taken(v)
                    return
                with out.block(f"if {v} != 0 and {v} != NULL:"):
                    if charge:
                        self.charge("1")
                    taken(e)
            self.each(node.args[0], env, element, stop=None if whole else stop)
            return
        if isinstance(node, E.BuiltinCall) and node.name == "subsets":
            self._subsets(node, env, body, stop)
            return
        if isinstance(node, E.BuiltinCall) and node.name == "groups":     # lists of lists: never made
            self._groups(node, env, inner, charge, stop)
            return
        if isinstance(node, E.UserCall) and of_lists(node.type):    # written in, its list gone through
            f = node.function
            if f.random_via is not None or f.name in self.writing:
                raise Uncovered("a function of lists of lists that draws random numbers or calls itself")
            with self._written_in(f, self._args(node, env)) as names:
                outside = self.writing[:-1]

                def element(e):         # what is done with each list is the caller's, not written in f
                    held, self.writing = self.writing, list(outside)
                    try:
                        inner(e)
                    finally:
                        self.writing = held
                self.each(f.body, names, element, charge, stop)
            return
        if isinstance(node, E.Join) and of_lists(node.type):     # lists of lists: never made
            self.each(node.a, env, inner, charge, stop)
            if stop is None:
                self.each(node.b, env, inner, charge)
                return
            with out.block(f"if not ({stop}):"):
                self.each(node.b, env, inner, charge, stop)
            return
        if isinstance(node, E.BuiltinCall) and node.name == "clockwise":
            p = self.emit(node.args[0], env)
            self.not_null(p)
            if ahead:
                self.charge("n")    # as first(clockwise(p), ...) charges in Python; others count fewer
            i, e = out.fresh("i"), out.fresh("e")
            with out.block(f"for {i} in range(n):"):
                out.line(f"{e} = ({p} + {i}) % n")
                with out.block(f"if not OUT[{e}]:"):
                    if each:
                        self.charge("1")
                    body(e)
            return
        arr = self.array(node, env)
        if of_lists(node.type):             # a list of lists held (or made): its encoding gone through
            if ahead:
                self.charge(f"({arr}[0] if len({arr}) > 0 else 0)")
            self.walk(arr, body, each)
            return
        if ahead:
            self.charge(f"len({arr})")
        e = out.fresh("e")
        with out.block(f"for {e} in {arr}:"):
            if each:
                self.charge("1")
            body(e)

    # -- lists of lists made -------------------------------------------------------------
    def encoded(self, value, typ) -> list:
        """A constant list of lists as `nested` holds it."""
        if not of_lists(typ):
            return [self.number(v) for v in value]
        out = [len(value)]
        for v in value:
            e = self.encoded(v, elem_of(typ))
            out += [len(e)] + e
        return out

    def nested(self, node, env) -> str:
        """A list of lists made: one array holding its count, then each element's length and
        the element (itself so held, if a list of lists).  It is made as the VM makes it, by
        going through what it is made from; an array of its own, as long as it needs."""
        if isinstance(node, E.BuiltinCall) and node.name not in ("filter", "map", "subsets", "groups"):
            raise Uncovered(f"the built-in function {node.name}() as a list of lists")
        if not isinstance(node, (E.BuiltinCall, E.Join, E.ListLit)):
            raise Uncovered(f"a list of lists made from {type(node).__name__}")
        self.nests = True
        out = self.out
        buf, k, m = out.fresh("a"), out.fresh("k"), out.fresh("m")
        out.line(f"{buf} = np.empty(64, np.int64)")
        out.line(f"{k} = 1")
        out.line(f"{m} = 0")

        self.each(node, env, lambda e: self.appended(buf, k, m, e), charge=False)
        out.line(f"{buf}[0] = {m}")
        return self.tmp(f"{buf}[:{k}]")

    def appended(self, buf: str, k: str, m: str, e: str) -> None:
        """Element e (an array) put at the end of list of lists `buf` (k long, m elements)."""
        self.out.line(f"{buf} = grown({buf}, {k} + 1 + len({e}))")
        self.out.line(f"{buf}[{k}] = len({e}); {buf}[{k} + 1:{k} + 1 + len({e})] = {e}")
        self.out.line(f"{k} += 1 + len({e}); {m} += 1")

    def walk(self, arr: str, body, charge: bool) -> None:
        """A loop over the elements of a list of lists held as `nested` holds it, each bound to
        its part of the array (an empty array, a name never set: none)."""
        out = self.out
        i, j, e, z = out.fresh("i"), out.fresh("j"), out.fresh("e"), out.fresh("z")
        out.line(f"{i} = 1")
        with out.block(f"for {j} in range({arr}[0] if len({arr}) > 0 else 0):"):
            out.line(f"{z} = {arr}[{i}]")
            out.line(f"{e} = {arr}[{i} + 1:{i} + 1 + {z}]")
            out.line(f"{i} += 1 + {z}")
            if charge:
                self.charge("1")
            body(e)

    def nested_value(self, node, env) -> str:
        """The array of a list of lists: one held in a name as it is, a function's answer, a
        slice of one, else one made (nested)."""
        if isinstance(node, (E.Local, E.GlobalVar)):
            return self.emit(node, env)
        if isinstance(node, E.UserCall):
            return self._UserCall(node, env)
        if isinstance(node, E.BuiltinCall) and node.name == "slice":
            return self._nested_slice(node, env)
        if isinstance(node, E.BuiltinCall) and node.name == "first":
            raise Uncovered("first() of a list of lists of lists")
        return self.nested(node, env)

    def _nested_slice(self, node, env) -> str:
        """values.list_slice of a list of lists: the elements from lo to hi as Python slices
        them (negative from the end, null: that end), made again."""
        out = self.out
        xs = self.array(node.args[0], env)
        n = self.tmp(f"{xs}[0] if len({xs}) > 0 else 0")
        ends = []
        for arg, default in zip(node.args[1:], ("0", n)):
            v = self.whole(self.emit(arg, env))
            t = self.tmp(f"{default} if {v} == NULL else {v}")
            out.line(f"if {t} < 0: {t} = max(0, {t} + {n})")
            out.line(f"if {t} > {n}: {t} = {n}")
            ends.append(t)
        self.nests = True
        buf, k, m, q = out.fresh("a"), out.fresh("k"), out.fresh("m"), out.fresh("q")
        out.line(f"{buf} = np.empty(64, np.int64)")
        out.line(f"{k} = 1")
        out.line(f"{m} = 0")
        out.line(f"{q} = 0")

        def keep(e):
            with out.block(f"if {ends[0]} <= {q} < {ends[1]}:"):
                self.appended(buf, k, m, e)
            out.line(f"{q} += 1")
        self.walk(xs, keep, charge=False)
        out.line(f"{buf}[0] = {m}")
        self.charge(m)
        return self.tmp(f"{buf}[:{k}]")

    def nests_source(self) -> list:
        """The helpers of lists of lists made (nested) and of lists compared."""
        if not self.nests:
            return []
        return ["", "@njit(cache=False)", "def grown(buf, need):",
                "    if need <= len(buf):", "        return buf",
                "    new = np.empty(max(need, 2 * len(buf)), np.int64)", "    new[:len(buf)] = buf", "    return new",
                "", "@njit(cache=False)", "def same(a, b):",
                "    if len(a) != len(b):", "        return False",
                "    for i in range(len(a)):", "        if a[i] != b[i]:", "            return False",
                "    return True", ""]

    def _indexed(self, bounds: str, element: str, body, charge: bool) -> None:
        """A loop over range(`bounds`), each element `element` with the index in its {}."""
        i, e = self.out.fresh("i"), self.out.fresh("e")
        with self.out.block(f"for {i} in range({bounds}):"):
            self.out.line(f"{e} = {element.format(i)}")
            if charge:
                self.charge("1")
            body(e)

    def _groups(self, node, env, body, charge, stop) -> None:
        """groups(xs, x => key) gone through: each group's elements made in one array in turn,
        the groups in the order their first elements come (a dict's, in Python); the elements
        charged as closures' keyed() charges them, a null key the rules error Python gives."""
        out = self.out
        if elem_of(elem_of(node.type)) not in SCALARS:
            raise Uncovered(f"groups of elements of type {elem_of(elem_of(node.type))}")
        xs = self.array(node.args[0], env)
        self.charge(f"len({xs})")
        capacity = self.capacity(node.args[0], env)
        if capacity is None:            # (a list held in a name: as long as it is)
            keys, done, made = (self.tmp(f"np.empty(len({xs}), np.int64)") for _ in range(3))
        else:
            keys, done, made = (self.buffer(capacity) for _ in range(3))
        i, j, m = out.fresh("i"), out.fresh("j"), out.fresh("m")
        with out.block(f"for {i} in range(len({xs})):"):
            k = self.emit(node.body, self._with(node, env, f"{xs}[{i}]"))
            self.not_null(k)
            out.line(f"{keys}[{i}] = {self.whole(k, node.body.type)}; {done}[{i}] = 0")
        with out.block(f"for {i} in range(len({xs})):"):
            out.line(f"if {done}[{i}]: continue")
            out.line(f"{m} = 0")
            with out.block(f"for {j} in range({i}, len({xs})):"):
                out.line(f"if {keys}[{j}] == {keys}[{i}]: {made}[{m}] = {xs}[{j}]; {m} += 1; {done}[{j}] = 1")
            if charge:
                self.charge("1")
            body(self.tmp(f"{made}[:{m}]"))
            if stop is not None:
                out.line(f"if {stop}: break")

    def _subsets(self, node, env, body, stop) -> None:
        """values.subsets_of as a loop: each choice of lo to hi elements, in its order (the
        smaller first, then itertools.combinations'), made in one array in turn; more than
        MAX_LIST of them is the rules error Python gives."""
        out = self.out
        elem = elem_of(node.args[0].type)
        if nestable(elem):
            self._subsets_of_lists(node, env, body, stop)
            return
        if elem not in SCALARS:
            raise Uncovered(f"subsets of elements of type {elem}")
        xs = self.array(node.args[0], env)
        ends = []
        for i, default in ((1, "1"), (2, f"len({xs})")):
            v = self.whole(self.emit(node.args[i], env)) if len(node.args) > i else "NULL"
            ends.append(self.tmp(f"{default} if {v} == NULL else {v}"))
        lo, hi = self.tmp(f"max(0, {ends[0]})"), self.tmp(f"min(len({xs}), {ends[1]})")
        with out.block(f"if subsets_count(len({xs}), {lo}, {hi}) > {MAX_LIST}:"):
            out.line(BAIL)
        if stop is not None:        # Python charges every subset it makes, though looking stops at one
            self.charge(f"subsets_count(len({xs}), {lo}, {hi})")
        capacity = self.capacity(node.args[0], env)
        if capacity is None and self.capacity(node.args[0]) == "NC":     # a list given for a zone: it may be longer
            out.line(f"if len({xs}) > NC: " + BAIL)
        capacity = capacity or "NC"
        idx, made = self.buffer(capacity), self.buffer(capacity)
        k, j, q = out.fresh("k"), out.fresh("j"), out.fresh("q")
        with out.block(f"for {k} in range({lo}, {hi} + 1):"):
            with out.block(f"for {j} in range({k}):"):
                out.line(f"{idx}[{j}] = {j}")
            with out.block("while True:"):
                with out.block(f"for {j} in range({k}):"):
                    out.line(f"{made}[{j}] = {xs}[{idx}[{j}]]")
                self.charge(k)
                body(self.tmp(f"{made}[:{k}]"))
                self.next_choice(idx, j, k, f"len({xs})", q)
            if stop is not None:
                out.line(f"if {stop}: break")

    def next_choice(self, idx: str, j: str, k: str, n: str, q: str) -> None:
        """The next choice of k of n (itertools.combinations' order) into idx, or out of the loop."""
        out = self.out
        out.line(f"{j} = {k} - 1")
        out.line(f"while {j} >= 0 and {idx}[{j}] == {n} - {k} + {j}: {j} -= 1")
        out.line(f"if {j} < 0: break")
        out.line(f"{idx}[{j}] += 1")
        with out.block(f"for {q} in range({j} + 1, {k}):"):
            out.line(f"{idx}[{q}] = {idx}[{q} - 1] + 1")

    def _subsets_of_lists(self, node, env, body, stop) -> None:
        """subsets() of a list of lists: as _subsets, each choice made as a list of lists
        (nested's array) from the elements' places in the list's array."""
        out = self.out
        self.nests = True
        xs = self.array(node.args[0], env)
        n = self.tmp(f"{xs}[0] if len({xs}) > 0 else 0")
        at, size = self.tmp(f"np.empty({n}, np.int64)"), self.tmp(f"np.empty({n}, np.int64)")
        q = out.fresh("q")
        out.line(f"{q} = 0")

        def place(e):
            out.line(f"{size}[{q}] = len({e})")
            out.line(f"{q} += 1")
        self.walk(xs, place, charge=False)
        i = out.fresh("i")
        out.line(f"{i} = 1")
        with out.block(f"for {q} in range({n}):"):      # where each element starts
            out.line(f"{at}[{q}] = {i} + 1; {i} += 1 + {size}[{q}]")
        ends = []
        for j, default in ((1, "1"), (2, n)):
            v = self.whole(self.emit(node.args[j], env)) if len(node.args) > j else "NULL"
            ends.append(self.tmp(f"{default} if {v} == NULL else {v}"))
        lo, hi = self.tmp(f"max(0, {ends[0]})"), self.tmp(f"min({n}, {ends[1]})")
        with out.block(f"if subsets_count({n}, {lo}, {hi}) > {MAX_LIST}:"):
            out.line(BAIL)
        if stop is not None:
            self.charge(f"subsets_count({n}, {lo}, {hi})")
        idx, made = self.tmp(f"np.empty(max(1, {n}), np.int64)"), self.tmp("np.empty(64, np.int64)")
        k, j, p, w = out.fresh("k"), out.fresh("j"), out.fresh("q"), out.fresh("k")
        with out.block(f"for {k} in range({lo}, {hi} + 1):"):
            with out.block(f"for {j} in range({k}):"):
                out.line(f"{idx}[{j}] = {j}")
            with out.block("while True:"):
                out.line(f"{made}[0] = {k}; {w} = 1")
                with out.block(f"for {j} in range({k}):"):
                    out.line(f"{p} = {idx}[{j}]")
                    out.line(f"{made} = grown({made}, {w} + 1 + {size}[{p}])")
                    out.line(f"{made}[{w}] = {size}[{p}]; {made}[{w} + 1:{w} + 1 + {size}[{p}]] = {xs}[{at}[{p}]:{at}[{p}] + {size}[{p}]]")
                    out.line(f"{w} += 1 + {size}[{p}]")
                self.charge(k)
                body(self.tmp(f"{made}[:{w}]"))
                self.next_choice(idx, j, k, n, p)
            if stop is not None:
                out.line(f"if {stop}: break")

    def array(self, node, env) -> str:
        """The name of a new array holding the elements of collection `node` (a copy: it does
        not change when the zone it came from does)."""
        out = self.out
        if of_lists(node.type):
            if not nestable(node.type):
                raise Uncovered(f"a list of type {node.type} made")
            if node.is_const:
                return self.tmp(f"{self.table(self.encoded(node.const, node.type))}.copy()")
            if not isinstance(node, E.IfElse):
                return self.nested_value(node, env)
        if node.is_const:                   # copied into an array of its own (a table is read-only)
            values = [self.number(v) for v in node.const]
            buf = self.buffer(str(max(1, len(values))))
            if values:
                out.line(f"{buf}[:{len(values)}] = {self.table(values)}")
            return self.tmp(f"{buf}[:{len(values)}]")
        if self.spannable(node):            # one of several constant lists: copied once, not at each step
            lo, hi = self.span(node, env)
            buf = self.buffer(self.capacity(node))
            out.line(f"{buf}[:{hi} - {lo}] = KP[{lo}:{hi}]")
            return self.tmp(f"{buf}[:{hi} - {lo}]")
        if node.type == ZONE and not self.listed_zone(node, env):
            z = self.emit(node, env)
            buf = self.buffer("NC")
            out.line(f"{buf}[:ZN[{z}]] = Z[{z}, :ZN[{z}]]")
            return self.tmp(f"{buf}[:ZN[{z}]]")
        if isinstance(node, E.PileList):        # piles.listed: those holding cards, in the order made
            k, base = self.pile_zones[node.name], self.zone_rows[node.name]
            buf, i, m = self.buffer("NC + 1"), out.fresh("i"), out.fresh("m")
            out.line(f"{m} = 0")
            with out.block(f"for {i} in range({base}, {base} + PK[{k}]):"):
                out.line(f"if ZN[{i}] > 0: {buf}[{m}] = PNUM[{i}]; {m} += 1")
            return self.tmp(f"{buf}[:{m}]")
        if isinstance(node, E.ListLit):
            items = [self.whole(self.emit(x, env), x.type) for x in node.items]
            buf = self.buffer(str(max(1, len(items))))
            for i, x in enumerate(items):
                out.line(f"{buf}[{i}] = {x}")
            return self.tmp(f"{buf}[:{len(items)}]")
        if isinstance(node, E.Join):
            a, b = self.array(node.a, env), self.array(node.b, env)
            self.charge(f"len({a}) + len({b})")
            capacity = self.capacity(node, env)
            if capacity is None:
                return self.tmp(f"np.concatenate(({a}, {b}))")
            buf = self.buffer(capacity)
            out.line(f"{buf}[:len({a})] = {a}")
            out.line(f"{buf}[len({a}):len({a}) + len({b})] = {b}")
            return self.tmp(f"{buf}[:len({a}) + len({b})]")
        if isinstance(node, E.BuiltinCall) and node.name == "range":
            args = [self.whole(self.emit(a, env)) for a in node.args]
            for a in args:
                self.not_null(a)
            lo, hi = (args[0], args[1]) if len(args) > 1 else ("0", args[0])
            with out.block(f"if {hi} - {lo} > 10000:"):
                out.line(INEXACT)
            t = self.tmp(f"np.arange({lo}, max({lo}, {hi}), dtype=np.int64)")
            self.charge(f"len({t})")
            return t
        if isinstance(node, E.BuiltinCall) and node.name == "slice":
            return self._slice(node, env)
        if isinstance(node, E.UserCall):
            return self._UserCall(node, env)
        if isinstance(node, (E.Local, E.GlobalVar)):
            return self.emit(node, env)
        if isinstance(node, E.PlayerVar):       # a list a player variable holds: its row
            o = self.emit(node.owner, env)
            self.not_null(o)
            return self.tmp(f"P_{node.name}[{o}, :PL_{node.name}[{o}]]")
        if isinstance(node, E.PlayerProp) and node.name == "partners":
            p = self.emit(node.obj, env)
            self.not_null(p)
            buf, k, q = self.buffer("n"), out.fresh("k"), out.fresh("q")
            out.line(f"{k} = 0")
            with out.block(f"for {q} in range(n):"):
                out.line(f"if {q} != {p} and TM[{q}] == TM[{p}]: {buf}[{k}] = {q}; {k} += 1")
            return self.tmp(f"{buf}[:{k}]")
        if isinstance(node, E.IfElse):
            t = out.fresh("a")
            c = self.emit(node.cond, env)
            with out.block(f"if {c} != 0 and {c} != NULL:"):
                out.line(f"{t} = {self.array(node.yes, env)}")
            with out.block("else:"):
                out.line(f"{t} = {self.array(node.no, env)}")
            return t
        if isinstance(node, (E.Players, E.Active, E.BuiltinCall)):
            if isinstance(node, E.BuiltinCall) and node.name not in ("filter", "map", "clockwise"):
                raise Uncovered(f"the built-in function {node.name}() as a list")
            capacity = self.capacity(node, env)
            if capacity is None:            # known only here: from the list it is made from
                return self._made_from(node, env)
            buf, k = self.buffer(capacity), out.fresh("k")
            out.line(f"{k} = 0")

            def keep(e):
                out.line(f"{buf}[{k}] = {self.whole(e, elem_of(node.type))}")
                out.line(f"{k} += 1")
            self.each(node, env, keep, charge=False)
            return self.tmp(f"{buf}[:{k}]")
        raise Uncovered(f"the list expression {type(node).__name__}")

    def spannable(self, node) -> bool:
        """Whether list `node` is always one of a few constant lists (a function's answer picked
        by conditions, or a constant joined to nothing): it is then read in place, a span
        (start, end) of KP, and no list is made."""
        if node.is_const:
            return isinstance(node.const, (list, tuple)) and all(not isinstance(v, (list, tuple, dict)) for v in node.const)
        if isinstance(node, E.IfElse):
            return self.spannable(node.yes) and self.spannable(node.no)
        if isinstance(node, E.Join):
            return (_empty(node.a) and self.spannable(node.b)) or (_empty(node.b) and self.spannable(node.a))
        if isinstance(node, E.UserCall):
            f = node.function
            return f.random_via is None and f.name not in self.writing and self.spannable(f.body)
        return False

    def span(self, node, env) -> tuple:
        """The names of (start, end) in KP of spannable list `node`."""
        out = self.out
        if node.is_const:
            values = tuple(self.number(v) for v in node.const)
            if values not in self.pooled:
                self.pooled[values] = len(self.pool)
                self.pool.extend(values)
            at = self.pooled[values]
            return str(at), str(at + len(values))
        if isinstance(node, E.Join):
            return self.span(node.b if _empty(node.a) else node.a, env)
        if isinstance(node, E.UserCall):
            with self._written_in(node.function, self._args(node, env)) as names:
                return self.span(node.function.body, names)
        lo, hi = out.fresh("lo"), out.fresh("hi")
        c = self.emit(node.cond, env)
        with out.block(f"if {c} != 0 and {c} != NULL:"):
            a, b = self.span(node.yes, env)
            out.line(f"{lo} = {a}; {hi} = {b}")
        with out.block("else:"):
            a, b = self.span(node.no, env)
            out.line(f"{lo} = {a}; {hi} = {b}")
        return lo, hi

    def _slice(self, node, env) -> str:
        """values.list_slice: xs[lo:hi] as Python slices it (null: that end); a view of the
        list's array (which nothing changes in place)."""
        xs = self.array(node.args[0], env)
        ends = []
        for arg, default in zip(node.args[1:], ("0", f"len({xs})")):
            v = self.whole(self.emit(arg, env))
            ends.append(self.tmp(f"{default} if {v} == NULL else {v}") if not v.lstrip("-").isdigit() else v)
        t = self.tmp(f"{xs}[{ends[0]}:{ends[1]}]")
        self.charge(f"len({t})")
        return t

    def _made_from(self, node, env) -> str:
        """filter or map of a list whose length is known only as the game runs: the list is
        made first, and an array as long as it."""
        out = self.out
        src = self.array(node.args[0], env)
        buf, k = out.fresh("a"), out.fresh("k")
        out.line(f"{buf} = np.empty({src}[0] if len({src}) > 0 else 0, np.int64)" if of_lists(node.args[0].type)
                 else f"{buf} = np.empty(len({src}), np.int64)")
        out.line(f"{k} = 0")

        def element(e):
            v = self.emit(node.body, self._with(node, env, e))
            if node.name == "filter":
                with out.block(f"if {v} != 0 and {v} != NULL:"):
                    out.line(f"{buf}[{k}] = {e}")
                    out.line(f"{k} += 1")
            else:
                out.line(f"{buf}[{k}] = {self.whole(v, node.body.type)}")
                out.line(f"{k} += 1")
        if of_lists(node.args[0].type):     # (a map of a list of lists: a value of each)
            self.walk(src, element, charge=True)
        else:
            e = out.fresh("e")
            with out.block(f"for {e} in {src}:"):
                self.charge("1")
                element(e)
        return self.tmp(f"{buf}[:{k}]")

    def capacity(self, node, env=None):
        """How many elements a made list may hold at most, as the game starts (None: known
        only as it runs, a list held in a name or made from one, or given for a zone: with
        `env`, listed_zone tells)."""
        if isinstance(node, (E.Players, E.Active)) or (isinstance(node, E.BuiltinCall) and node.name == "clockwise"):
            return "n"
        if isinstance(node, E.BuiltinCall) and node.name in ("filter", "map", "slice"):
            return self.capacity(node.args[0], env)
        if node.type == ZONE:
            return None if env is not None and self.listed_zone(node, env) else "NC"
        if node.is_const:
            return str(max(1, len(node.const)))
        if isinstance(node, E.ListLit):
            return str(max(1, len(node.items)))
        if isinstance(node, (E.GlobalVar, E.Local)) or isinstance(node, E.BuiltinCall) and node.name == "range":
            return None
        if isinstance(node, E.PlayerProp):      # (partners)
            return "n"
        if isinstance(node, E.PileList):
            return "NC + 1"
        if isinstance(node, E.PlayerVar):
            return "PCAP"
        if isinstance(node, E.UserCall):
            return None if env is not None and self.lists_for_zones(node, env) else self.capacity(node.function.body)
        if isinstance(node, (E.IfElse, E.Join)):
            a, b = (node.yes, node.no) if isinstance(node, E.IfElse) else (node.a, node.b)
            ca, cb = self.capacity(a, env), self.capacity(b, env)
            if ca is None or cb is None:
                return None
            return f"max({ca}, {cb})" if isinstance(node, E.IfElse) else f"{ca} + {cb}"
        if isinstance(node, E.BuiltinCall) and node.name in ("subsets", "groups"):
            return None                     # (lists of lists: as many as the game makes)
        if isinstance(node, E.BuiltinCall):
            raise Uncovered(f"a list made from the built-in function {node.name}()")
        raise Uncovered(f"a list made from {type(node).__name__}")

    def zone_base(self, name: str) -> int:
        return self.zone_rows[name]


def charges_work(node) -> bool:
    """Whether computing `node` may charge work to the budget (a built-in, a call of a
    function, `in`, a list compared or joined), anywhere inside it."""
    if node.is_const:
        return False
    if isinstance(node, (E.BuiltinCall, E.UserCall, E.Member, E.Join)) or \
            isinstance(node, E.Compare) and elem_of(node.a.type) is not None:
        return True
    for value in vars(node).values():
        for part in (value if isinstance(value, (list, tuple)) else (value,)):
            if isinstance(part, E.Node) and charges_work(part):
                return True
    return False


def _empty(node) -> bool:
    """Whether `node` is the empty list (an option's branch folded away)."""
    return node.is_const and isinstance(node.const, (list, tuple)) and len(node.const) == 0
