"""Stage 3a: type-check an expression tree and turn it into a Python closure.

Every closure has the signature `fn(state, locals)`.  Names are resolved once,
here: a card attribute becomes an index into a precomputed table, a variable a
dictionary read, an option a constant.  Constant sub-expressions are folded.
The language has no loops but bounded ones over finite collections, no user
recursion and no access to Python objects, so evaluation always ends.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from lark import Token, Tree

from .errors import did_you_mean
from .expr import ExprError, offset_of, parse

NUM, BOOL, STR, CARD, PLAYER, ZONE, NULL, ANY = (
    "number", "bool", "string", "card", "player", "zone", "null", "any")
NOCONST = object()
MAX_DEPTH = 60


def list_of(t: str) -> str:
    return f"list[{t}]"


def elem_of(t: str):
    """Element type of a collection type, or None if `t` is not a collection."""
    if t == ZONE:
        return CARD
    if t.startswith("list["):
        return t[5:-1]
    if t == ANY:
        return ANY
    return None


def compatible(a: str, b: str) -> bool:
    if a == b or ANY in (a, b) or NULL in (a, b):
        return True
    ea, eb = elem_of(a), elem_of(b)
    return ea is not None and eb is not None and compatible(ea, eb)


@dataclass
class Compiled:
    type: str
    fn: Callable
    const: object = NOCONST
    local: str | None = None        # set when the value is a local name, for cheaper access
    current: bool = False           # set when the value is the `current` player
    card_attr: tuple | None = None  # (table, local name) for `local.attribute` of a card

    @property
    def is_const(self) -> bool:
        return self.const is not NOCONST


def const(t: str, value) -> Compiled:
    return Compiled(t, lambda s, l, v=value: v, value)


@dataclass
class FunctionDef:
    """A ruleset-defined function: a named expression with parameters, inlined at each call."""
    name: str
    params: list
    tree: Tree


@dataclass
class Symbols:
    """Every name an expression may use, as declared by the ruleset."""
    options: dict = field(default_factory=dict)
    card_attrs: dict = field(default_factory=dict)      # name -> (type, table indexed by card)
    global_vars: dict = field(default_factory=dict)     # name -> type
    player_vars: dict = field(default_factory=dict)     # name -> type
    shared_zones: set = field(default_factory=set)
    player_zones: set = field(default_factory=set)
    functions: dict = field(default_factory=dict)       # name -> FunctionDef
    all_cards: tuple = ()


PLAYER_BUILTINS = {"index": NUM, "seat": NUM, "name": STR, "left": PLAYER, "right": PLAYER,
                   "eliminated": BOOL}
ZONE_BUILTINS = {"top": CARD, "bottom": CARD, "size": NUM}
GLOBAL_BUILTINS = {"current": PLAYER, "players": list_of(PLAYER), "active": list_of(PLAYER),
                   "num_players": NUM, "all_cards": list_of(CARD), "options": "options"}


def next_seat(s, p: int, step: int = 1) -> int:
    """The next seat from p in direction `step` that is still in the game."""
    n = len(s.out)
    q = p
    for _ in range(n):
        q = (q + step) % n
        if not s.out[q]:
            return q
    return p


class ExprCompiler:
    """Compiles expression text against a Symbols table and a scope of local names."""

    def __init__(self, symbols: Symbols, lenient: bool = False):
        self.sym = symbols
        self._calls: list[str] = []
        # Lenient: a value of unknown type ('any', e.g. an untyped function parameter) may
        # have any attribute.  Used to check a function's body once, before its calls
        # check it again with the real argument types.
        self.lenient = lenient
        self._hoist = None              # the option name of a `where` being compiled
        self._variant: list[set] = []   # per function body: names whose value changes per option
        self.hoisted = 0                # calls memoised in the last compile

    def compile_condition(self, text, scope: dict, option: str) -> Compiled:
        """Compile a choice's `where`, evaluated once per option.

        Calls to functions that do not depend on the option (nor on an enclosing
        element) give the same value for every option: they are computed once per
        choice and memoised in the locals slot '#memo', which the choice sets up.
        """
        self._hoist, self.hoisted, self._variant = option, 0, [{option}]
        try:
            return self.compile(text, scope, BOOL)
        finally:
            self._hoist, self._variant = None, []

    # -- entry points -------------------------------------------------------
    def compile(self, text, scope: dict | None = None, want: str | None = None) -> Compiled:
        """Compile `text` with local names `scope` (name -> type); raise ExprError."""
        tree = parse(text)
        c = self.node(tree, dict(scope or {}), {}, 0)
        if want is not None and not compatible(c.type, want):
            raise ExprError(f"expected {_a(want)} here, but this is {_a(c.type)}", 0)
        return c

    # -- dispatch -----------------------------------------------------------
    def node(self, t, scope, params, depth) -> Compiled:
        if depth > MAX_DEPTH:
            raise ExprError("expression is nested too deeply", offset_of(t))
        if isinstance(t, Token):
            raise ExprError(f"unexpected {t.value!r}", offset_of(t))
        method = getattr(self, "_" + t.data.rstrip("_"), None)
        return method(t, scope, params, depth + 1)

    def sub(self, t, scope, params, depth, want=None) -> Compiled:
        c = self.node(t, scope, params, depth)
        if want is not None and not compatible(c.type, want):
            raise ExprError(f"expected {_a(want)} here, but this is {_a(c.type)}", offset_of(t))
        return c

    # -- literals -----------------------------------------------------------
    def _literal(self, t, *_):
        v = t.children[0]
        return const(BOOL if isinstance(v, bool) else NULL if v is None else NUM, v)

    def _number(self, t, *_):
        text = t.children[0].value
        return const(NUM, float(text) if "." in text else int(text))

    def _string(self, t, *_):
        raw = t.children[0].value[1:-1]
        return const(STR, raw.encode("utf-8").decode("unicode_escape") if "\\" in raw else raw)

    def _true(self, *_):
        return const(BOOL, True)

    def _false(self, *_):
        return const(BOOL, False)

    def _null(self, *_):
        return const(NULL, None)

    def _list(self, t, scope, params, depth):
        items = [self.sub(a, scope, params, depth) for a in _args(t.children[0])]
        et = NULL
        for it, a in zip(items, _args(t.children[0])):
            if et == NULL:
                et = it.type
            elif not compatible(et, it.type):
                raise ExprError(f"a list mixes {_a(et)} and {_a(it.type)}", offset_of(a))
        t_ = list_of(ANY if et == NULL else et)
        if all(i.is_const for i in items):
            return const(t_, [i.const for i in items])
        fns = tuple(i.fn for i in items)
        return Compiled(t_, lambda s, l: [f(s, l) for f in fns])

    # -- names --------------------------------------------------------------
    def _name(self, t, scope, params, depth):
        name = t.children[0].value
        off = offset_of(t)
        if name in params:
            return params[name]
        if name in scope:
            typ = scope[name]
            return Compiled(typ, lambda s, l: l[name], local=name)
        sym = self.sym
        if name in GLOBAL_BUILTINS:
            return self._builtin_name(name, off)
        if name in sym.global_vars:
            return Compiled(sym.global_vars[name], lambda s, l: s.vars[name])
        if name in sym.shared_zones:
            return Compiled(ZONE, lambda s, l: s.zones[name])
        if name in sym.player_zones:
            raise ExprError(f"'{name}' is a zone each player has: say whose, e.g. current.{name}", off)
        if name in sym.player_vars:
            raise ExprError(f"'{name}' is a variable each player has: say whose, e.g. current.{name}", off)
        known = list(scope) + list(params) + list(GLOBAL_BUILTINS) + list(sym.global_vars) + list(sym.shared_zones)
        raise ExprError(f"unknown name '{name}'{did_you_mean(name, known)}", off)

    def _builtin_name(self, name, off):
        if name == "current":
            return Compiled(PLAYER, lambda s, l: s.current, current=True)
        if name == "players":
            return Compiled(list_of(PLAYER), lambda s, l: s.players)
        if name == "active":
            return Compiled(list_of(PLAYER), lambda s, l: [p for p in s.players if not s.out[p]])
        if name == "num_players":
            return Compiled(NUM, lambda s, l: len(s.players))
        if name == "all_cards":
            return const(list_of(CARD), self.sym.all_cards)
        raise ExprError("'options' needs an option name, e.g. options.some_option", off)

    # -- attribute access -----------------------------------------------------
    def _attr(self, t, scope, params, depth):
        obj_t, name_tok = t.children
        name = name_tok.value
        off = offset_of(name_tok)
        if isinstance(obj_t, Tree) and obj_t.data == "name" and obj_t.children[0].value == "options" \
                and "options" not in scope and "options" not in params:
            if name not in self.sym.options:
                raise ExprError(f"unknown option '{name}'{did_you_mean(name, self.sym.options)}", off)
            v = self.sym.options[name]
            return const(_type_of_value(v), v)
        obj = self.sub(obj_t, scope, params, depth)
        f = obj.fn
        if obj.type == CARD:
            if name not in self.sym.card_attrs:
                raise ExprError(f"cards have no attribute '{name}'{did_you_mean(name, self.sym.card_attrs)}", off)
            typ, table = self.sym.card_attrs[name]
            if obj.is_const:
                return const(typ, table[obj.const])
            if obj.local:
                var = obj.local
                return Compiled(typ, lambda s, l: table[l[var]], card_attr=(table, var))
            return Compiled(typ, lambda s, l: table[f(s, l)])
        if obj.type == PLAYER:
            return self._player_attr(obj, name, off)
        if obj.type == ZONE:
            if name == "top":
                return Compiled(CARD, lambda s, l: (z[-1] if (z := f(s, l)) else None))
            if name == "bottom":
                return Compiled(CARD, lambda s, l: (z[0] if (z := f(s, l)) else None))
            if name == "size":
                return Compiled(NUM, lambda s, l: len(f(s, l)))
            raise ExprError(f"zones have no attribute '{name}'{did_you_mean(name, ZONE_BUILTINS)} "
                            f"(zones have: {', '.join(ZONE_BUILTINS)})", off)
        if obj.type == ANY and self.lenient:
            return Compiled(ANY, lambda s, l: None)
        raise ExprError(f"{_a(obj.type)} has no attributes (looking for '{name}')", off)

    def _player_attr(self, obj, name, off):
        sym = self.sym
        f = obj.fn
        if name in sym.player_vars:
            if obj.current:
                return Compiled(sym.player_vars[name], lambda s, l: s.pvars[name][s.current])
            if obj.local:
                var = obj.local
                return Compiled(sym.player_vars[name], lambda s, l: s.pvars[name][l[var]])
            return Compiled(sym.player_vars[name], lambda s, l: s.pvars[name][f(s, l)])
        if name in sym.player_zones:
            if obj.current:
                return Compiled(ZONE, lambda s, l: s.zones[name][s.current])
            if obj.local:
                var = obj.local
                return Compiled(ZONE, lambda s, l: s.zones[name][l[var]])
            return Compiled(ZONE, lambda s, l: s.zones[name][f(s, l)])
        if name == "index":
            return Compiled(NUM, f)
        if name == "seat":
            return Compiled(NUM, lambda s, l: f(s, l) + 1)
        if name == "name":
            return Compiled(STR, lambda s, l: s.names[f(s, l)])
        if name == "left":
            return Compiled(PLAYER, lambda s, l: next_seat(s, f(s, l), 1))
        if name == "right":
            return Compiled(PLAYER, lambda s, l: next_seat(s, f(s, l), -1))
        if name == "eliminated":
            return Compiled(BOOL, lambda s, l: s.out[f(s, l)])
        known = list(sym.player_vars) + list(sym.player_zones) + list(PLAYER_BUILTINS)
        raise ExprError(f"players have no attribute '{name}'{did_you_mean(name, known)}", off)

    def _index(self, t, scope, params, depth):
        coll_t, idx_t = t.children
        coll = self.sub(coll_t, scope, params, depth)
        et = elem_of(coll.type)
        if et is None:
            raise ExprError(f"cannot index {_a(coll.type)}", offset_of(coll_t))
        idx = self.sub(idx_t, scope, params, depth, NUM)
        cf, xf = coll.fn, idx.fn

        def index(s, l):
            c = cf(s, l)
            i = xf(s, l)
            return c[i] if -len(c) <= i < len(c) else None
        return Compiled(et, index)

    # -- operators ----------------------------------------------------------
    def _neg(self, t, scope, params, depth):
        a = self.sub(t.children[0], scope, params, depth, NUM)
        return self._fold(NUM, lambda s, l, f=a.fn: -f(s, l), [a])

    def _not(self, t, scope, params, depth):
        a = self.sub(t.children[0], scope, params, depth, BOOL)
        return self._fold(BOOL, lambda s, l, f=a.fn: not f(s, l), [a])

    def _and(self, t, scope, params, depth):
        a, b = (self.sub(c, scope, params, depth, BOOL) for c in t.children)
        if a.is_const:
            return b if a.const else const(BOOL, False)
        if b.is_const:          # the left side runs anyway: expressions have no side effects
            return a if b.const else const(BOOL, False)
        fa, fb = a.fn, b.fn
        return Compiled(BOOL, lambda s, l: fa(s, l) and fb(s, l))

    def _or(self, t, scope, params, depth):
        a, b = (self.sub(c, scope, params, depth, BOOL) for c in t.children)
        if a.is_const:
            return const(BOOL, True) if a.const else b
        if b.is_const:
            return const(BOOL, True) if b.const else a
        fa, fb = a.fn, b.fn
        return Compiled(BOOL, lambda s, l: fa(s, l) or fb(s, l))

    def _ifelse(self, t, scope, params, depth):
        yes_t, cond_t, no_t = t.children
        cond = self.sub(cond_t, scope, params, depth, BOOL)
        yes = self.sub(yes_t, scope, params, depth)
        no = self.sub(no_t, scope, params, depth)
        if not compatible(yes.type, no.type):
            raise ExprError(f"the two branches differ: {_a(yes.type)} and {_a(no.type)}", offset_of(no_t))
        typ = no.type if yes.type == NULL else yes.type
        if cond.is_const:
            return yes if cond.const else no
        fc, fy, fn = cond.fn, yes.fn, no.fn
        return Compiled(typ, lambda s, l: fy(s, l) if fc(s, l) else fn(s, l))

    def _arith(self, t, scope, params, depth):
        a_t, op_tok, b_t = t.children
        op = op_tok.value
        a = self.sub(a_t, scope, params, depth)
        b = self.sub(b_t, scope, params, depth)
        if op == "+" and elem_of(a.type) and elem_of(b.type) and a.type != ANY:
            fa, fb = a.fn, b.fn
            return self._fold(a.type if a.type != ZONE else list_of(CARD),
                              lambda s, l: list(fa(s, l)) + list(fb(s, l)), [a, b])
        if op == "+" and STR in (a.type, b.type) and {a.type, b.type} <= {STR, ANY}:
            fa, fb = a.fn, b.fn
            return self._fold(STR, lambda s, l: fa(s, l) + fb(s, l), [a, b])
        for c, ct in ((a, a_t), (b, b_t)):
            if not compatible(c.type, NUM):
                raise ExprError(f"'{op}' needs numbers, but this is {_a(c.type)}", offset_of(ct))
        fa, fb = a.fn, b.fn
        fn = {
            "+": lambda s, l: fa(s, l) + fb(s, l),
            "-": lambda s, l: fa(s, l) - fb(s, l),
            "*": lambda s, l: fa(s, l) * fb(s, l),
            "/": lambda s, l: _divide(fa(s, l), fb(s, l)),
            "//": lambda s, l: _floordiv(fa(s, l), fb(s, l)),
            "%": lambda s, l: _mod(fa(s, l), fb(s, l)),
        }[op]
        return self._fold(NUM, fn, [a, b])

    def _compare(self, t, scope, params, depth):
        a_t, op_tok, b_t = t.children
        op = " ".join(op_tok.value.split())
        a = self.sub(a_t, scope, params, depth)
        b = self.sub(b_t, scope, params, depth)
        fa, fb = a.fn, b.fn
        if op in ("in", "not in"):
            et = elem_of(b.type)
            if et is None:
                raise ExprError(f"'{op}' needs a list or zone on its right, but this is {_a(b.type)}", offset_of(b_t))
            if not compatible(a.type, et):
                raise ExprError(f"looking for {_a(a.type)} among {_a(et)} values", offset_of(a_t))
            fn = (lambda s, l: fa(s, l) in fb(s, l)) if op == "in" else (lambda s, l: fa(s, l) not in fb(s, l))
            return self._fold(BOOL, fn, [a, b])
        if not compatible(a.type, b.type):
            raise ExprError(f"cannot compare {_a(a.type)} with {_a(b.type)}", offset_of(op_tok))
        if op in ("<", ">", "<=", ">=") and a.type not in (NUM, STR, ANY, NULL):
            raise ExprError(f"'{op}' compares numbers or strings, not {a.type}s", offset_of(op_tok))
        if b.is_const and a.card_attr is not None:      # e.g. card.suit == 'H': one closure, not two
            (table, var), v = a.card_attr, b.const
            return Compiled(BOOL, {
                "==": lambda s, l: table[l[var]] == v,
                "!=": lambda s, l: table[l[var]] != v,
                "<": lambda s, l: table[l[var]] < v,
                ">": lambda s, l: table[l[var]] > v,
                "<=": lambda s, l: table[l[var]] <= v,
                ">=": lambda s, l: table[l[var]] >= v,
            }[op])
        if b.is_const and not a.is_const:
            v = b.const
            return Compiled(BOOL, {
                "==": lambda s, l: fa(s, l) == v,
                "!=": lambda s, l: fa(s, l) != v,
                "<": lambda s, l: fa(s, l) < v,
                ">": lambda s, l: fa(s, l) > v,
                "<=": lambda s, l: fa(s, l) <= v,
                ">=": lambda s, l: fa(s, l) >= v,
            }[op])
        fn = {
            "==": lambda s, l: fa(s, l) == fb(s, l),
            "!=": lambda s, l: fa(s, l) != fb(s, l),
            "<": lambda s, l: fa(s, l) < fb(s, l),
            ">": lambda s, l: fa(s, l) > fb(s, l),
            "<=": lambda s, l: fa(s, l) <= fb(s, l),
            ">=": lambda s, l: fa(s, l) >= fb(s, l),
        }[op]
        return self._fold(BOOL, fn, [a, b])

    def _fold(self, typ, fn, parts) -> Compiled:
        if all(p.is_const for p in parts):
            try:
                return const(typ, fn(None, None))
            except (ArithmeticError, TypeError):
                pass
        return Compiled(typ, fn)

    # -- calls --------------------------------------------------------------
    def _lambda(self, t, *_):
        raise ExprError("'x => ...' may only be an argument of a function such as count or filter",
                        offset_of(t))

    def _call(self, t, scope, params, depth):
        name_tok, args_t = t.children
        name = name_tok.value
        args = _args(args_t)
        hoisting = self._hoist is not None
        if name in self.sym.functions:
            c = self._user_call(self.sym.functions[name], args, t, scope, params, depth)
        else:
            from .expr_functions import BUILTIN_FUNCTIONS
            spec = BUILTIN_FUNCTIONS.get(name)
            if spec is None:
                known = list(BUILTIN_FUNCTIONS) + list(self.sym.functions)
                raise ExprError(f"unknown function '{name}'{did_you_mean(name, known)}", offset_of(name_tok))
            c = spec(self, name, args, t, scope, params, depth)
        if hoisting and not c.is_const and name != "random" and free_names(t).isdisjoint(self._variant[-1]):
            c = self._memoised(c)
        return c

    def _memoised(self, c: Compiled) -> Compiled:
        key = self.hoisted = self.hoisted + 1
        f = c.fn

        def memo(s, l):
            m = l["#memo"]
            if key in m:
                return m[key]
            v = m[key] = f(s, l)
            return v
        return Compiled(c.type, memo)

    def _user_call(self, fdef, args, t, scope, params, depth):
        if len(args) != len(fdef.params):
            raise ExprError(f"{fdef.name}() takes {len(fdef.params)} argument(s), got {len(args)}", offset_of(t))
        if fdef.name in self._calls:
            raise ExprError(f"function '{fdef.name}' calls itself; functions may not be recursive", offset_of(t))
        bound = {p: self.sub(a, scope, params, depth) for p, a in zip(fdef.params, args)}
        self._calls.append(fdef.name)
        if self._hoist is not None:       # inside the body, a parameter varies if its argument does
            self._variant.append({p for p, a in zip(fdef.params, args)
                                  if not free_names(a).isdisjoint(self._variant[-1])})
        try:
            return self.node(fdef.tree, {}, bound, depth)
        except ExprError as e:
            raise ExprError(f"in function {fdef.name}(): {e.message}", offset_of(t)) from None
        finally:
            self._calls.pop()
            if self._hoist is not None:
                self._variant.pop()

    def collection(self, a_t, scope, params, depth):
        c = self.sub(a_t, scope, params, depth)
        et = elem_of(c.type)
        if et is None:
            raise ExprError(f"expected a list or zone, but this is {_a(c.type)}", offset_of(a_t))
        return c, et

    def lambda_(self, a_t, elem_type, scope, params, depth, want=None):
        """Compile `x => body` with x bound to each element; return (var, body)."""
        if not (isinstance(a_t, Tree) and a_t.data == "lambda_"):
            raise ExprError("expected a function of each element here, such as c => c.points", offset_of(a_t))
        var_tok, body_t = a_t.children
        var = var_tok.value
        if var in scope or var in params:
            raise ExprError(f"'{var}' is already a name here; choose another name for the element",
                            offset_of(var_tok))
        inner = dict(scope)
        inner[var] = elem_type
        if self._hoist is not None:       # the element varies within the function of each element
            self._variant[-1].add(var)
        try:
            return var, self.sub(body_t, inner, params, depth, want)
        finally:
            if self._hoist is not None:
                self._variant[-1].discard(var)


def free_names(t) -> set:
    """The names an expression tree reads, less those its own `x => ...` bind."""
    if not isinstance(t, Tree):
        return set()
    if t.data == "name":
        return {t.children[0].value}
    if t.data == "lambda_":
        return free_names(t.children[1]) - {t.children[0].value}
    if t.data == "attr":
        return free_names(t.children[0])
    if t.data == "call":
        return free_names(t.children[1])
    out = set()
    for child in t.children:
        out |= free_names(child)
    return out


def _arity(name, args, t, lo, hi):
    if not lo <= len(args) <= hi:
        want = str(lo) if lo == hi else f"{lo} or {hi}"
        raise ExprError(f"{name}() takes {want} argument(s), got {len(args)}", offset_of(t))


def _args(args_t) -> list:
    if args_t is None:
        return []
    return list(args_t.children)


def _a(t: str) -> str:
    if t.startswith("list["):
        return f"a list of {elem_of(t)}s"
    return {"any": "a value", "null": "null", "options": "the options table"}.get(
        t, ("an " if t[0] in "aeiou" else "a ") + t)


def _type_of_value(v) -> str:
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, (int, float)):
        return NUM
    if v is None:
        return NULL
    if isinstance(v, str):
        return STR
    if isinstance(v, (list, tuple)):
        return list_of(_type_of_value(v[0]) if v else ANY)
    return ANY


type_of_value = _type_of_value


def _divide(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    r = a / b
    return int(r) if r == int(r) else r


def _floordiv(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a // b


def _mod(a, b):
    if b == 0:
        raise ZeroDivisionError("modulo by zero")
    return a % b
