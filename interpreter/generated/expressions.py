"""Expressions as Python source: an expression node becomes the text of one Python
expression in terms of `s` (the state) and `l` (the locals), compiled once into
`lambda s, l: ...`.

A second back end beside the closure back end (closures/expressions.py), computing the same
values at the same cost to the work budget, with one evaluation instead of a call per part:
constants are folded into the text, card tables and other values are names of a namespace
this class keeps, functions of each element become generator expressions, and a small
function's body is written in at its call where the closure back end compiles it in.

Faults: the generated code does not work out which part was null.  On an exception it
re-runs the closure back end's function for the same node on the same state and locals
(expressions are pure, bar random(), and the work charged is put back first), which raises
the message the closure back end raises, or computes what it computes (a float index).  A
node that draws random() is the closure back end's function: computing it twice would draw
twice.

A built-in with no writer here (`_b_<name>`) is the closure back end's built-in
(closures/functions.py), handed the parts it computes as written here (`_closure_builtin`),
as an effect with no writer is the closure back end's effect (generated/steps.py).
"""
from __future__ import annotations

import itertools
import re

from . import cache
from ..errors import RulesFault
from ..lang.expr_ir import draws_random, null_test, text_separator
from ..lang.types import ANY, BOOL, CARD, NULL, NUM, PILE, PLAYER, STR, elem_of
from ..lang.values import divide, list_slice, number_range, shower, subsets_of, sum_in_order
from ..limits import MAX_WORK
from ..runtime.effects import too_much_work
from ..runtime.state import next_seat, partners_of, team_of
from ..closures.expressions import INLINE_SIZE, Closures, compiles_in, hoistable, names_in
from ..closures.functions import BUILTINS as CLOSURE_BUILTINS


# -- helpers the generated code calls (the namespace's fixed names) --------------------------
def _map_lit(*pairs) -> dict:
    """A map written {key: value, ...}; a null key fails, for the closure back end to tell."""
    m = dict(pairs)
    if None in m:
        raise KeyError(None)
    return m


def _charged(s, xs):
    """xs, its length charged to the work budget (as each collection built-in does)."""
    w = s.work = s.work + len(xs)
    if w > MAX_WORK:
        too_much_work()
    return xs


def _charged_list(s, xs):
    """xs, the length of a list compared element by element charged (null counts none)."""
    w = s.work = s.work + len(xs or ())
    if w > MAX_WORK:
        too_much_work()
    return xs


def _index(c, i):
    if i.__class__ is float:            # a whole float indexes as the closure back end's does
        if not i.is_integer():
            raise TypeError("not a whole number")
        i = int(i)
    return c[i] if -len(c) <= i < len(c) else None


def _put(memo, key, value):
    memo[key] = value
    return value


def _kept(s, memo, key, work, value):
    """A call computed the first time in an evaluation: its value kept with the work it
    charged (s.work read before the call), for the same call again (see Source._again)."""
    memo[key] = (value, s.work - work)
    return value


def _again(s, kept):
    """A call computed before in the same evaluation: its value (a list copied, as a call
    makes a new one) and its work charged again, as computing it again would charge it."""
    value, work = kept
    w = s.work = s.work + work
    if w > MAX_WORK:
        too_much_work()
    return value[:] if value.__class__ is list else value


def _best(xs, key, better):
    """max_by / min_by: the first element whose key no later one beats (closures/functions._by)."""
    found, best_key = None, None
    for x in xs:
        k = key(x)
        if found is None or better(k, best_key):
            found, best_key = x, k
    return found


def _first_seat(s, p, test):
    """first(clockwise(p), test): the seats still in the game from p on, walked until one
    passes, charged as functions._first_clockwise charges: every seat."""
    n = len(s.players)
    _charged(s, s.players)
    p + 0
    out = s.out
    for i in range(n):
        q = (p + i) % n
        if not out[q] and test(q):
            return q
    return None


def _clockwise(s, p):
    n, out = len(s.players), s.out
    return [q for i in range(n) if not out[q := (p + i) % n]]


def _random(s, items):
    return items[s.rng.below(len(items))] if items else None


def _player(s, v):
    return s.players[int(v) % len(s.players)]


HELPERS = {
    "_charged": _charged, "_map_lit": _map_lit, "_charged_list": _charged_list, "_index": _index, "_best": _best,
    "_first_seat": _first_seat, "_clockwise": _clockwise, "_random": _random, "_player": _player, "_range": number_range, "_slice": list_slice, "_subsets": subsets_of,
    "_divide": divide, "_total": sum_in_order, "_next_seat": next_seat, "_team_of": team_of, "_partners_of": partners_of, "_put": _put, "_kept": _kept, "_again": _again, "RulesFault": RulesFault, "_gt": lambda a, b: a > b, "_lt": lambda a, b: a < b,
}

_PLAIN_CONSTS = (bool, int, str, type(None))
_SCALARS = (NUM, BOOL, STR, CARD, PLAYER, NULL, PILE)
_CALL = re.compile("\0([0-9]+)\1")                 # a call's place in an expression's text (_UserCall)
_VARYING = re.compile(r"\b_[ebv][0-9]+\b")      # names an evaluation binds again and again (_name)
_WALKS = re.compile(r"\b(_charged|_c[0-9]+|_f[0-9]+)\(s\b")   # a collection walked, a built-in's search, a body called


def _keepable(t) -> bool:
    """A value of type `t` kept for a call made again (_again): one nobody can change, or a
    list of such (copied for each call)."""
    return t in _SCALARS or (t.startswith("list[") and t[5:-1] in _SCALARS)


def _bare(text: str) -> str:
    """An argument's text without the brackets around it (written in at different depths)."""
    while text.startswith("(") and text.endswith(")") and _closes_at_end(text):
        text = text[1:-1]
    return text


def _closes_at_end(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return i == len(text) - 1
    return False
INLINE_SIZE_HERE = 4 * INLINE_SIZE      # see closures/expressions.py: INLINE_SIZE
# What compiling generated code raises when it nests deeper than Python allows (200 brackets,
# 20 loops, 100 indents, the compiler's recursion): the closure back end does that part.
TOO_BIG_FOR_PYTHON = (SyntaxError, RecursionError, MemoryError, ValueError, OverflowError)


def _safe(node) -> bool:
    """Whether computing `node` can neither fail nor cost work (nor draw a random number): a
    constant, a variable, the current player, a shared zone, its size, its top or bottom card.
    (Not a player's zone or a card's attribute: the player or card may be null there, whatever
    the checker's types say of `current` or of a variable that starts as null.)"""
    kind = type(node).__name__
    if node.is_const or kind in ("GlobalVar", "Current", "SharedZone", "Players", "NumPlayers"):
        return True
    if kind == "BuiltinCall" and node.body is None and node.name in ("count", "top", "bottom"):
        return type(node.args[0]).__name__ == "SharedZone"
    return False


class _Slow:
    """The closure back end's function for a node, built the first time a generated one fails."""
    __slots__ = ("source", "node", "f")

    def __init__(self, source, node):
        self.source, self.node, self.f = source, node, None

    def __call__(self, s, l):
        if self.f is None:
            self.f = self.source.closures.fn(self.node)
        return self.f(s, l)


class _Parts:
    """The closure back end as a built-in of closures/functions.py sees it (Closures: fn, each,
    fault, complaint, display), for a built-in that has no writer here: each part the
    built-in asks for is noted in `asked` and read from its slot of the locals the generated
    call hands it, where the generated code has put the part's value (a function of each
    element: a Python function of the element).  A fault is not told here: the error goes
    on as generated code's own do, and the closure back end computes the whole expression
    again and tells it (see the module's docstring)."""

    def __init__(self, display):
        self.display, self.asked = display, []

    def fn(self, node):
        key = self._slot(None, node)
        return lambda s, l: l[key]

    def each(self, var, body):
        key = self._slot(var, body)
        return lambda s, l: l[key](l[var])

    def fault(self, nodes, then, fns):
        return _no_fault

    def complaint(self, part, what):
        return _told_by_the_closures

    def _slot(self, var, node) -> int:
        self.asked.append((var, node))
        return len(self.asked) - 1


def _no_fault(s, l):
    """Where a built-in looks for the null part, before it raises its TypeError again."""


class _ToldByTheClosures(Exception):
    """A built-in's complaint in generated code: not a RulesFault, so that the closure back
    end computes the expression again and raises its own words."""


def _told_by_the_closures():
    raise _ToldByTheClosures


class Source:
    """Writes expression nodes as Python source against a deck's card tables."""

    def __init__(self, symbols):
        self.symbols = symbols
        self.ns = dict(HELPERS)
        self._names = itertools.count()
        self._consts = {}               # id(value) -> name in ns
        self._tables = {}               # card attribute -> name in ns
        self._bodies = {}               # Function -> name in ns of its body's function
        self._params = {}               # inlined body: parameter -> (argument node, caller's context)
        self._plain_params = set()
        self._elems = {}                # element names of the functions of each element -> Python names
        self._shared = {}               # text of a value tested not null -> its Python name
        self._iterable = 0              # > 0: writing a comprehension's iterable (no `:=` there)
        self._closures = None
        self._variant = None            # in a `where`: the names that vary per option (see condition)
        self._reads = None              # in a `where`: variables read once (see condition)
        self.memos = 0                  # calls memoised in the last condition
        self._calls = None              # writing an expression: its calls that may repeat (see _again)

    # -- the public face ---------------------------------------------------------------
    def fn(self, node):
        """fn(state, locals) computing `node`: the generated function, falling back on the
        closure back end's function for the same node when it raises."""
        if draws_random(node):
            return self.closures.fn(node)
        text = self.text(node)
        name, slow = self._name("_g"), self._name("_s")
        self.ns[slow] = _Slow(self, node)
        source = (f"def {name}(s, l):\n    w = s.work\n    try:\n        return {text}\n"
                  f"    except RulesFault:\n        raise\n    except Exception:\n"
                  f"        s.work = w\n        return {slow}(s, l)\n")
        try:
            exec(cache.compiled(source, "<ruleset expression>"), self.ns)
        except TOO_BIG_FOR_PYTHON:          # nested deeper than Python's parser takes
            return self.closures.fn(node)
        f = self.ns.pop(name)
        f.source = f"lambda s, l: {text}"
        return f

    def condition(self, node, option: str, name: str):
        """(text, memoised, reads): a choice's `where` with its option read from the Python
        name `name`.  The calls the closure back end memoises (Closures.condition: those that
        give the same value for every option) are memoised here too, in the dict `_m` the
        caller sets up, so that the work charged is the same.  The variables it reads (which
        no option changes, and whose reading can neither fail nor cost work) are read once:
        `reads` is [(Python name, text)] for the caller to compute first."""
        saved = self._context()
        self._params, self._plain_params, self._elems, self._shared, self._variant = {}, set(), {option: name}, {}, {option}
        self.memos = 0
        self._reads = {}
        try:
            return self.text(node), self.memos > 0, [(v, k) for k, v in self._reads.items()]
        finally:
            self._set_context(saved)
            self._reads = None

    def _read(self, text) -> str:
        """A plain read: in a condition, read once before the options are tried."""
        if self._reads is None:
            return text
        if text not in self._reads:
            self._reads[text] = self._name("_r")
        return self._reads[text]

    def loop_parts(self, node):
        """(name, xs, x, body) of a function of each element (any, all, count), or of a call of
        a function whose body is one and that is compiled in here, for the caller to write as a
        loop: the built-in's name, the charged collection, the element's Python name and the
        body's text; None for another node."""
        if node.is_const:
            return None
        kind = type(node).__name__
        if kind == "UserCall":
            f = node.function
            params = [p for p, _ in f.params]
            if not self._inlinable(f, params, node.args):
                return None
            caller = self._context()
            plain = {p for p, a in zip(params, node.args) if self._plain(a)}
            self._set_context(({p: (a, caller) for p, a in zip(params, node.args)}, plain, {}, {}, None))
            try:
                return self.loop_parts(f.body)
            finally:
                self._set_context(caller)
        if kind != "BuiltinCall" or node.body is None or node.name not in ("any", "all", "count", "first") \
                or node.body.is_const or draws_random(node):
            return None
        arg = node.args[0]
        if node.name == "first" and type(arg).__name__ == "BuiltinCall" and arg.name == "clockwise":
            xs = ("clockwise", self.text(arg.args[0]))      # the seats from there (see _first_seat)
        else:
            xs = f"_charged(s, {self._iter(arg)})"
        x, body = self._element_body(node)
        return node.name, xs, x, body

    def bound(self, node, var: str, name: str) -> str:
        """The text of `node` with the local `var` read from the Python name `name` (a key
        function's card, say)."""
        saved = self._context()
        self._elems = {**self._elems, var: name}
        try:
            return self.text(node)
        finally:
            self._set_context(saved)

    def compiled(self, text):
        """The bare `lambda s, l: text`, compiled in the namespace (no fallback)."""
        source = f"lambda s, l: {text}"
        f = eval(cache.compiled(source, "<ruleset expression>", mode="eval"), self.ns)
        f.source = source
        return f

    @property
    def closures(self):
        if self._closures is None:
            self._closures = Closures(self.symbols)
        return self._closures

    def text(self, node) -> str:
        """A Python expression computing `node`, in terms of `s` and `l`; a call of a ruleset's
        function made again with the same arguments in one evaluation is computed once (_again)."""
        if self._calls is not None or self._variant is not None:
            return self._text(node)
        self._calls = []
        try:
            return self._once_per_call(self._text(node), self._calls)
        finally:
            self._calls = None

    def _text(self, node) -> str:
        if node.is_const:
            return self._const(node.const)
        if self._shared and node.text in self._shared:
            return self._shared[node.text]
        text = getattr(self, "_" + type(node).__name__)(node)
        if self._variant is not None and hoistable(node, self._variant):
            if self._reads is not None and _safe(node):
                return self._read(text)         # cannot fail nor cost work: read once, first
            self.memos += 1
            key = self.memos
            return f"(_m[{key}] if {key} in _m else _put(_m, {key}, {text}))"
        return text

    # -- names in the namespace ----------------------------------------------------------
    def _name(self, prefix="_v"):
        return f"{prefix}{next(self._names)}"

    def _const(self, v) -> str:
        if isinstance(v, _PLAIN_CONSTS) or (isinstance(v, float) and v == v and abs(v) != float("inf")):
            return f"({v!r})"
        if id(v) not in self._consts:
            name = self._consts[id(v)] = self._name("_k")
            self.ns[name] = v
        return self._consts[id(v)]

    def _table(self, attr) -> str:
        if attr not in self._tables:
            name = self._tables[attr] = self._name("_t")
            self.ns[name] = self.symbols.card_attrs[attr][1]
        return self._tables[attr]

    def _once(self, x, fmt) -> str:
        """`fmt` with the value of the text `x` computed once: `{first}` where it is first read
        (in the order Python evaluates), `{v}` where it is read again."""
        v = self._name()
        if self._iterable:          # `:=` is refused in a comprehension's iterable
            return f"(lambda {v}: {fmt.format(first=v, v=v)})({x})"
        return fmt.format(first=f"({v} := {x})", v=v)

    def _iter(self, node) -> str:
        self._iterable += 1
        try:
            return self.text(node)
        finally:
            self._iterable -= 1

    # -- leaves ------------------------------------------------------------------------
    def _Missing(self, node):
        return "None"

    def _ListLit(self, node):
        return "[" + ", ".join(self.text(i) for i in node.items) + "]"

    def _MapLit(self, node):          # (a null key: the closures' function tells it)
        return "_map_lit(" + ", ".join(f"({self.text(k)}, {self.text(v)})" for k, v in zip(node.keys, node.values)) + ")"

    def _MapGet(self, node):
        return f"({self.text(node.coll)}).get({self.text(node.key)})"

    def _Local(self, node):
        name = node.name
        if name in self._params:
            return self._argument(name)
        if name in self._elems:
            return self._elems[name]
        return f"l[{name!r}]"

    def _GlobalVar(self, node):
        return self._read(f"s.vars[{node.name!r}]")

    def _SharedZone(self, node):
        return f"s.zones[{node.name!r}]"

    def _PileList(self, node):
        return f"_piles_listed(s, {node.name!r})"

    def _PileCards(self, node):
        return f"_pile_cards(s, {self.text(node.obj)})"

    def _PileOwner(self, node):
        return f"_pile_owner(s, {self.text(node.obj)})"

    def _Current(self, node):
        return self._read("s.current")

    def _Players(self, node):
        return "s.players"

    def _Active(self, node):
        return "[_p for _p in s.players if not s.out[_p]]"

    def _NumPlayers(self, node):
        return "len(s.players)"

    # -- attributes --------------------------------------------------------------------
    def _CardAttr(self, node):
        return f"{self._table(node.name)}[{self.text(node.obj)}]"

    def _PlayerVar(self, node):
        return f"s.pvars[{node.name!r}][{self.text(node.owner)}]"

    def _PlayerZone(self, node):
        return f"s.zones[{node.name!r}][{self.text(node.owner)}]"

    def _PlayerProp(self, node):
        a = self.text(node.obj)
        if node.name in ("team", "partners"):
            self.ns["_teams"] = self.symbols.teams
            return f"{'_team_of' if node.name == 'team' else '_partners_of'}(_teams, s, {a})"
        return {"index": a, "seat": f"({a} + 1)", "name": f"s.names[{a}]", "left": f"_next_seat(s, {a}, 1)",
                "right": f"_next_seat(s, {a}, -1)"}.get(node.name, f"s.out[{a}]")

    def _ZoneProp(self, node):
        a = self.text(node.obj)
        if node.name == "size":
            return f"len({a})"
        return self._once(a, "({v}[-1] if {first} else None)" if node.name == "top" else "({v}[0] if {first} else None)")

    def _Index(self, node):
        return f"_index({self.text(node.coll)}, {self.text(node.index)})"

    # -- operators ---------------------------------------------------------------------
    def _Neg(self, node):
        return f"(-{self.text(node.a)})"

    def _Not(self, node):
        return f"(not {self.text(node.a)})"

    def _And(self, node):
        tested = null_test(node.a)
        if tested is not None and not tested[1]:         # X != null and ... X ...
            return self._tested(tested[0], node.b, "({first} is not None and {then})")
        return f"({self.text(node.a)} and {self.text(node.b)})"

    def _Or(self, node):
        tested = null_test(node.a)
        if tested is not None and tested[1]:             # X == null or ... X ...
            return self._tested(tested[0], node.b, "({first} is None or {then})")
        return f"({self.text(node.a)} or {self.text(node.b)})"

    def _IfElse(self, node):
        tested = null_test(node.cond)
        if tested is not None:
            subject, is_null = tested
            with_value, without = (node.no, node.yes) if is_null else (node.yes, node.no)
            other = self.text(without)
            return self._tested(subject, with_value, "({other} if {first} is None else {then})", other=other)
        return f"({self.text(node.yes)} if {self.text(node.cond)} else {self.text(node.no)})"

    def _tested(self, subject, where, fmt, **more):
        """A value X tested not null, computed once (as the closure back end's _tested does, so
        that what X charges to the work budget is charged once): `where` reads its name."""
        x = self.text(subject)
        v = self._name()
        saved = self._shared
        self._shared = {**saved, subject.text: v}
        try:
            then = self.text(where)
        finally:
            self._shared = saved
        if self._iterable:
            return f"(lambda {v}: {fmt.format(first=v, then=then, **more)})({x})"
        return fmt.format(first=f"({v} := {x})", then=then, **more)

    def _Join(self, node):
        return f"_charged(s, [*{self.text(node.a)}, *{self.text(node.b)}])"

    def _Concat(self, node):
        return f"_charged(s, {self.text(node.a)} + {self.text(node.b)})"

    def _Arith(self, node):
        a, b = self.text(node.a), self.text(node.b)
        if node.op == "/":
            return f"_divide({a}, {b})"
        return f"({a} {node.op} {b})"      # // and % by zero raise as divide's siblings do

    def _Member(self, node):
        a, b = self.text(node.a), self.text(node.b)
        if node.b.is_const:         # bounded by the expression's text: no work to count
            return f"({a} {node.op} {b})"
        return f"({a} {node.op} _charged(s, {b}))"

    def _Compare(self, node):
        a, b = self.text(node.a), self.text(node.b)
        if not node.b.is_const and elem_of(node.a.type) is not None and node.a.type != ANY:
            a = f"_charged_list(s, {a})"        # lists compare element by element
        return f"({a} {node.op} {b})"

    # -- calls -------------------------------------------------------------------------
    def _BuiltinCall(self, node):
        write = getattr(self, "_b_" + node.name, None)
        return write(node) if write is not None else self._closure_builtin(node)

    def _closure_builtin(self, node) -> str:
        """A call of a built-in that has no writer here: the closure back end's built-in
        (closures/functions.py), as effects without a writer are the closure back end's
        (generated/steps.py, effect).  The parts it computes are written here, in this
        expression's names (a `where`'s memoised calls included), and handed to it in a
        dict of their own; it charges the work it charges in the closure back end."""
        parts = _Parts(self.symbols.display)
        name = self._name("_c")
        self.ns[name] = CLOSURE_BUILTINS[node.name](parts, node)
        texts = [self.text(part) if var is None else self._element_fn(var, part) for var, part in parts.asked]
        return f"{name}(s, {{{', '.join(f'{i}: {text}' for i, text in enumerate(texts))}}})"

    def _element_fn(self, var, body) -> str:
        """A function of each element as a Python function of its element `var`."""
        x, text = self._bound_element(var, body)
        return f"(lambda {x}: {text})"

    def _each(self, node, fmt) -> str:
        """A comprehension over the first argument's elements, charged: `fmt` with {x} the
        element's Python name, {xs} the charged collection and {body} the body's text."""
        xs = f"_charged(s, {self._iter(node.args[0])})"
        if node.body is None:
            return fmt.format(xs=xs)
        x, body = self._element_body(node)
        return fmt.format(x=x, xs=xs, body=body)

    def _element_body(self, node):
        """(x, body): the Python name of a function of each element's element, and the body's
        text reading it there (the element varies per option, in a `where`)."""
        return self._bound_element(node.var, node.body)

    def _bound_element(self, var, body):
        x = self._name("_e")
        saved, variant = self._elems, self._variant
        self._elems = {**saved, var: x}
        if variant is not None:
            self._variant = variant | {var}
        try:
            return x, self.text(body)
        finally:
            self._elems, self._variant = saved, variant

    def _b_count(self, node):
        if node.body is None:
            if type(node.args[0]).__name__ == "Active":
                return "s.out.count(False)"         # the seats still in, with no list built
            return f"len({self.text(node.args[0])})"
        return self._each(node, "sum(1 for {x} in {xs} if {body})")

    def _b_any(self, node):
        if node.body is not None and node.body.is_const:      # an option folded the test away
            return self._each(node, "(len({xs}) > 0)" if node.body.const else "(len({xs}) < 0)")
        return self._each(node, "any({xs})" if node.body is None else "any({body} for {x} in {xs})")

    def _b_all(self, node):
        if node.body is not None and node.body.is_const:
            return self._each(node, "(len({xs}) >= 0)" if node.body.const else "(len({xs}) == 0)")
        return self._each(node, "all({xs})" if node.body is None else "all({body} for {x} in {xs})")

    def _b_map(self, node):
        return self._each(node, "{xs}" if node.body is None else "[{body} for {x} in {xs}]")

    def _b_sum(self, node):
        return self._each(node, "_total({xs})" if node.body is None else "_total([{body} for {x} in {xs}])")

    def _b_min(self, node):
        return self._each(node, "min({xs}, default=None)" if node.body is None
                          else "min([{body} for {x} in {xs}], default=None)")

    def _b_max(self, node):
        return self._each(node, "max({xs}, default=None)" if node.body is None
                          else "max([{body} for {x} in {xs}], default=None)")

    def _b_max_by(self, node):
        return self._each(node, "_best({xs}, lambda {x}: {body}, _gt)")

    def _b_min_by(self, node):
        return self._each(node, "_best({xs}, lambda {x}: {body}, _lt)")

    def _b_filter(self, node):
        return self._each(node, "[{x} for {x} in {xs} if {body}]")

    def _b_first(self, node):
        arg = node.args[0]
        if node.body is None:
            return self._once(self.text(arg), "({v}[0] if {first} else None)")
        if type(arg).__name__ == "BuiltinCall" and arg.name == "clockwise":
            # walked from the seat until one matches, charged every seat (functions._first_clockwise)
            start = self.text(arg.args[0])
            x, body = self._element_body(node)
            return f"_first_seat(s, {start}, lambda {x}: {body})"
        return self._each(node, "next(({x} for {x} in {xs} if {body}), None)")

    def _b_top(self, node):
        return self._once(self.text(node.args[0]), "({v}[-1] if {first} else None)")

    def _b_bottom(self, node):
        return self._once(self.text(node.args[0]), "({v}[0] if {first} else None)")

    def _b_abs(self, node):
        return f"abs({self.text(node.args[0])})"

    def _b_player(self, node):
        return f"_player(s, {self.text(node.args[0])})"

    def _b_random(self, node):
        return f"_random(s, {self.text(node.args[0])})"

    def _b_slice(self, node):
        return self._charged_list(node, "_slice")

    def _b_subsets(self, node):
        return self._charged_list(node, "_subsets")

    def _b_groups(self, node):          # groups, runs and sums: the closure back end's built-ins,
        return self._closure_builtin(node)      # their searches are no loop worth writing out

    _b_runs = _b_sums = _b_groups

    def _b_keys(self, node):
        return f"list(_charged(s, {self.text(node.args[0])}))"

    def _b_range(self, node):
        return self._charged_list(node, "_range")

    def _charged_list(self, node, helper: str) -> str:
        """A built-in that makes a list from its arguments (lang/values.py), its length charged."""
        return f"_charged(s, {helper}({', '.join(self.text(a) for a in node.args)}))"

    def _b_clockwise(self, node):
        return f"_clockwise(s, {self.text(node.args[0])})"

    def _b_text(self, node):
        a = node.args[0]
        show = self._const(shower(a.type, self.symbols.display, text_separator(node.args)))
        if elem_of(a.type) is not None and a.type != ANY:      # a list is joined: count its length
            return f"{show}(s, _charged_list(s, {self.text(a)}))"
        return f"{show}(s, {self.text(a)})"

    # -- a ruleset's functions ---------------------------------------------------------
    def _UserCall(self, node):
        key = self._call_key(node)
        text = self._user_call(node)
        if key is None or not _WALKS.search(self._written(text)):
            return text             # (a call that visits no collection costs less than keeping it)
        self._calls.append((key, text))
        return f"\0{len(self._calls) - 1}\1"

    def _call_key(self, node):
        """What tells a call of a ruleset's function from another in one evaluation: the function
        and its arguments' texts, where these read no name that varies within it (an element of
        a function of each element, an argument bound, a value tested not null) and the value is
        one a caller cannot change (a number, a text, a card, a player, a list of them); None for
        a call that is not to be kept."""
        if self._calls is None or draws_random(node) or not _keepable(node.type):
            return None
        args = tuple(_bare(self._written(self.text(a))) for a in node.args)
        if any(_VARYING.search(a) for a in args):
            return None
        return (id(node.function),) + args

    def _written(self, text) -> str:
        """`text` with the calls in it written in (to be read, not run: nothing is kept)."""
        return _CALL.sub(lambda m: self._written(self._calls[int(m.group(1))][1]), text)

    def _once_per_call(self, text, calls) -> str:
        """`text` with its calls written in: a call made more than once (the same key) kept the
        first time in the evaluation's dict `_m` and read there again, its work charged again;
        the expression is then a function of a fresh `_m`."""
        counts = {}

        def count(t):
            for m in _CALL.finditer(t):
                key, inner = calls[int(m.group(1))]
                counts[key] = counts.get(key, 0) + 1
                count(inner)
        count(text)
        slots = {key: i for i, key in enumerate(k for k, n in counts.items() if n > 1)}

        def written(m):
            key, inner = calls[int(m.group(1))]
            inner = _CALL.sub(written, inner)
            if key not in slots:
                return inner
            k = slots[key]
            return f"(_again(s, _m[{k}]) if {k} in _m else _kept(s, _m, {k}, s.work, {inner}))"
        text = _CALL.sub(written, text)
        return f"(lambda _m: {text})({{}})" if slots else text

    def _user_call(self, node):
        f = node.function
        params = [p for p, _ in f.params]
        if self._inlinable(f, params, node.args):
            return self._inlined(node, params)
        if f.size <= INLINE_SIZE_HERE and params:
            return self._bound(node, params)
        args = ", ".join(f"{p!r}: {self.text(a)}" for p, a in zip(params, node.args))
        return f"{self._body(f)}(s, {{{args}}})"

    def _bound(self, node, params):
        """The body written in with each argument computed once, first, into a Python name of
        its own: what a call computes, in the same order, at the same cost, without the call.
        (Inside, nothing is memoised, as in a body the closure back end calls.)"""
        args = [self.text(a) for a in node.args]
        names = [self._name("_b") for _ in params]
        caller = self._context()
        self._set_context(({}, set(), dict(zip(params, names)), {}, None))
        try:
            body = self.text(node.function.body)
        finally:
            self._set_context(caller)
        if self._iterable:          # no `:=` in a comprehension's iterable
            return f"(lambda {', '.join(names)}: {body})({', '.join(args)})"
        binds = ", ".join(f"({n} := {a})" for n, a in zip(names, args))
        return f"({binds}, {body})[-1]"

    def _inlinable(self, f, params, args) -> bool:
        """As the closure back end decides (Closures._inlinable), but up to INLINE_SIZE_HERE
        parts (any size in a `where`): Python compiles a larger body at no cost per call."""
        if self._variant is None and f.size > INLINE_SIZE_HERE:
            return False
        return compiles_in(f, params, args, self._plain, any_size=True)

    def _plain(self, node) -> bool:
        if node.is_const or type(node).__name__ in ("GlobalVar", "Current"):
            return True
        if type(node).__name__ != "Local":
            return False
        return node.name not in self._params or node.name in self._plain_params

    def _context(self):
        return self._params, self._plain_params, self._elems, self._shared, self._variant

    def _set_context(self, context):
        self._params, self._plain_params, self._elems, self._shared, self._variant = context

    def _argument(self, name) -> str:
        """A parameter of a body written in: its argument's text, written where it is read
        (in the caller's names), so that it is computed there, as the closure back end does."""
        arg, context = self._params[name]
        saved = self._context()
        self._set_context(context)
        try:
            return f"({self.text(arg)})"
        finally:
            self._set_context(saved)

    def _inlined(self, node, params):
        caller = self._context()
        plain = {p for p, a in zip(params, node.args) if self._plain(a)}
        variant = None if self._variant is None else \
            {p for p, a in zip(params, node.args) if not names_in(a).isdisjoint(self._variant)}
        self._set_context(({p: (a, caller) for p, a in zip(params, node.args)}, plain, {}, {}, variant))
        try:
            return self.text(node.function.body)
        finally:
            self._set_context(caller)

    def _body(self, f) -> str:
        """The name of a function's body as a function of (s, frame), generated once."""
        if f not in self._bodies:
            saved, iterable, reads, calls = self._context(), self._iterable, self._reads, self._calls
            self._set_context(({}, set(), {}, {}, None))
            self._iterable, self._reads, self._calls = 0, None, None
            try:
                body = self.compiled(self.text(f.body))
            except TOO_BIG_FOR_PYTHON:
                body = self.closures._body(f)
            finally:
                self._set_context(saved)
                self._iterable, self._reads, self._calls = iterable, reads, calls
            name = self._bodies[f] = self._name("_f")
            self.ns[name] = body
        return self._bodies[f]
