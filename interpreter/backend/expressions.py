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

from ..errors import RulesError, did_you_mean
from ..lang.syntax import ExprError, offset_of, parse, unparse
from ..runtime.state import next_seat
from ..lang.types import (ANY, BOOL, CARD, NULL, NUM, PLAYER, STR, ZONE, a_ as _a, compatible, elem_of,
                          list_of, type_of_value)
from ..limits import MAX_EXPR_DEPTH, MAX_EXPR_NODES, MAX_EXPR_NUMBER, MAX_NUMBER_TEXT, MAX_WORK

NOCONST = object()


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
        self._nodes = 0                 # nodes compiled for the current expression (MAX_EXPR_NODES)
        # per function body being inlined: parameter -> (argument tree, the caller's map), so
        # that a message at run time can show the argument's text for a parameter
        self._pmaps: list[dict] = [{}]

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
        _STATELESS[0] = 0
        c = self.node(tree, dict(scope or {}), {}, 0)
        if want is not None and not compatible(c.type, want):
            raise ExprError(f"expected {_a(want)} here, but this is {_a(c.type)}", 0)
        return c

    # -- dispatch -----------------------------------------------------------
    def node(self, t, scope, params, depth) -> Compiled:
        if depth == 0:                  # a new expression
            self._nodes = 0
            self._pmaps = [{}]
        elif depth > MAX_EXPR_DEPTH:
            raise ExprError(f"expression is nested too deeply (more than {MAX_EXPR_DEPTH} levels, "
                            "counting the bodies of the functions it calls)", offset_of(t), wrap=False)
        self._nodes += 1
        if self._nodes > MAX_EXPR_NODES:
            raise ExprError(f"expression is too large: more than {MAX_EXPR_NODES} parts once the functions it "
                            "calls are copied in (each call copies its function's body)", offset_of(t), wrap=False)
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
        if isinstance(v, (int, float)) and not isinstance(v, bool) and not -MAX_EXPR_NUMBER < v < MAX_EXPR_NUMBER:
            raise ExprError(f"number {v!r} is out of range: numbers must lie strictly between "
                            f"-{MAX_EXPR_NUMBER:.0e} and {MAX_EXPR_NUMBER:.0e}", offset_of(t))
        return const(BOOL if isinstance(v, bool) else NULL if v is None else NUM, v)

    def _number(self, t, *_):
        tok = t.children[0]
        text = tok.value
        if len(text) > MAX_NUMBER_TEXT:
            raise ExprError(f"number is {len(text)} characters long; the limit is {MAX_NUMBER_TEXT}", offset_of(tok))
        v = float(text) if "." in text else int(text)
        if not v < MAX_EXPR_NUMBER:
            raise ExprError(f"number {text} is too large: numbers must lie strictly between "
                            f"-{MAX_EXPR_NUMBER:.0e} and {MAX_EXPR_NUMBER:.0e}", offset_of(tok))
        return const(NUM, v)

    def _string(self, t, *_):
        tok = t.children[0]
        return const(STR, unescape(tok.value[1:-1], offset_of(tok) + 1))

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
            return const(type_of_value(v), v)
        obj = self.sub(obj_t, scope, params, depth)
        f = obj.fn
        if obj.type == CARD:
            if name not in self.sym.card_attrs:
                raise ExprError(f"cards have no attribute '{name}'{did_you_mean(name, self.sym.card_attrs)}", off)
            typ, table = self.sym.card_attrs[name]
            if obj.is_const:
                if obj.const is None:
                    raise ExprError(f"null has no attribute '{name}'", off)
                return const(typ, table[obj.const])
            fault = self.fault([obj_t], f"so '.{name}' has no value", [f])
            if obj.local:
                var = obj.local

                def card_local(s, l):
                    try:
                        return table[l[var]]
                    except TypeError:
                        fault(s, l)
                        raise
                return Compiled(typ, card_local, card_attr=(table, var, fault))

            def card_attr(s, l):
                try:
                    return table[f(s, l)]
                except TypeError:
                    fault(s, l)
                    raise
            return Compiled(typ, card_attr)
        if obj.type == PLAYER:
            return self._player_attr(obj, name, off, self.fault([obj_t], f"so '.{name}' has no value", [f]))
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

    def _player_attr(self, obj, name, off, fault):
        """A player's attribute; `fault(s, l)` raises the RulesError for a null player."""
        sym = self.sym
        f = obj.fn
        if obj.is_const and obj.const is None:
            raise ExprError(f"null has no attribute '{name}'", off)
        if name in sym.player_vars or name in sym.player_zones:
            typ = sym.player_vars[name] if name in sym.player_vars else ZONE
            kind = "pvars" if name in sym.player_vars else "zones"
            if obj.current:
                if kind == "pvars":
                    def current_attr(s, l):
                        try:
                            return s.pvars[name][s.current]
                        except TypeError:
                            fault(s, l)
                            raise
                else:
                    def current_attr(s, l):
                        try:
                            return s.zones[name][s.current]
                        except TypeError:
                            fault(s, l)
                            raise
                return Compiled(typ, current_attr)
            if obj.local:
                var = obj.local
                if kind == "pvars":
                    def local_attr(s, l):
                        try:
                            return s.pvars[name][l[var]]
                        except TypeError:
                            fault(s, l)
                            raise
                else:
                    def local_attr(s, l):
                        try:
                            return s.zones[name][l[var]]
                        except TypeError:
                            fault(s, l)
                            raise
                return Compiled(typ, local_attr)
            if kind == "pvars":
                def player_attr(s, l):
                    try:
                        return s.pvars[name][f(s, l)]
                    except TypeError:
                        fault(s, l)
                        raise
            else:
                def player_attr(s, l):
                    try:
                        return s.zones[name][f(s, l)]
                    except TypeError:
                        fault(s, l)
                        raise
            return Compiled(typ, player_attr)
        if name == "index":
            return Compiled(NUM, f)
        if name == "seat":
            def seat(s, l):
                try:
                    return f(s, l) + 1
                except TypeError:
                    fault(s, l)
                    raise
            return Compiled(NUM, seat)
        if name == "name":
            def name_(s, l):
                try:
                    return s.names[f(s, l)]
                except TypeError:
                    fault(s, l)
                    raise
            return Compiled(STR, name_)
        if name in ("left", "right"):
            step = 1 if name == "left" else -1

            def neighbour(s, l):
                try:
                    return next_seat(s, f(s, l), step)
                except TypeError:
                    fault(s, l)
                    raise
            return Compiled(PLAYER, neighbour)
        if name == "eliminated":
            def eliminated(s, l):
                try:
                    return s.out[f(s, l)]
                except TypeError:
                    fault(s, l)
                    raise
            return Compiled(BOOL, eliminated)
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
        fault = self.fault([coll_t, idx_t], f"so '{unparse(t)}' has no value", [cf, xf])
        whole = self.complaint(idx_t, "is not a whole number, so it cannot index a list")

        def index(s, l):
            c = cf(s, l)
            i = xf(s, l)
            try:
                return c[i] if -len(c) <= i < len(c) else None
            except TypeError:
                fault(s, l)
                if isinstance(i, float):
                    if not i.is_integer():
                        whole()
                    return c[int(i)] if -len(c) <= i < len(c) else None
                raise
        return Compiled(et, index)

    # -- operators ----------------------------------------------------------
    def _neg(self, t, scope, params, depth):
        a = self.sub(t.children[0], scope, params, depth, NUM)
        f = a.fn
        fault = self.fault([t.children[0]], "so it cannot be negated", [f])

        def neg(s, l):
            try:
                return -f(s, l)
            except TypeError:
                fault(s, l)
                raise
        return self._fold(NUM, neg, [a])

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
        fa, fb = a.fn, b.fn
        fault = self.fault([a_t, b_t], f"so '{op}' has nothing to work on", [fa, fb])
        if op == "+" and elem_of(a.type) and elem_of(b.type) and a.type != ANY:
            def join(s, l):
                try:
                    r = [*fa(s, l), *fb(s, l)]
                except TypeError:
                    fault(s, l)
                    raise
                try:            # the built-ins' work budget (see too_much_work)
                    w = s.work = s.work + len(r)
                except AttributeError:
                    w = stateless_work(len(r))
                if w > MAX_WORK:
                    too_much_work(s)
                return r
            return self._fold(a.type if a.type != ZONE else list_of(CARD), join, [a, b])
        if op == "+" and STR in (a.type, b.type) and {a.type, b.type} <= {STR, ANY}:
            def concat(s, l):
                try:
                    r = fa(s, l) + fb(s, l)
                except TypeError:
                    fault(s, l)
                    raise
                try:
                    w = s.work = s.work + len(r)
                except AttributeError:
                    w = stateless_work(len(r))
                if w > MAX_WORK:
                    too_much_work(s)
                return r
            return self._fold(STR, concat, [a, b])
        for c, ct in ((a, a_t), (b, b_t)):
            if not compatible(c.type, NUM):
                raise ExprError(f"'{op}' needs numbers, but this is {_a(c.type)}", offset_of(ct))
        big = self.complaint(t, "goes beyond the numbers the rules can compute with (about 1e308)")
        if op == "+":
            def fn(s, l):
                try:
                    return fa(s, l) + fb(s, l)
                except TypeError:
                    fault(s, l)
                    raise
                except OverflowError:
                    big()
        elif op == "-":
            def fn(s, l):
                try:
                    return fa(s, l) - fb(s, l)
                except TypeError:
                    fault(s, l)
                    raise
                except OverflowError:
                    big()
        elif op == "*":
            def fn(s, l):
                try:
                    return fa(s, l) * fb(s, l)
                except TypeError:
                    fault(s, l)
                    raise
                except OverflowError:
                    big()
        else:
            helper = {"/": _divide, "//": _floordiv, "%": _mod}[op]

            def fn(s, l):
                try:
                    return helper(fa(s, l), fb(s, l))
                except TypeError:
                    fault(s, l)
                    raise
                except OverflowError:
                    big()
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
            fault = self.fault([b_t], f"so '{op}' has nothing to look in", [fb])
            if b.is_const:    # bounded by the expression's text: no work to count
                if op == "in":
                    def member(s, l):
                        try:
                            return fa(s, l) in fb(s, l)
                        except TypeError:
                            fault(s, l)
                            raise
                else:
                    def member(s, l):
                        try:
                            return fa(s, l) not in fb(s, l)
                        except TypeError:
                            fault(s, l)
                            raise
            else:
                negate = op == "not in"

                def member(s, l):
                    x = fa(s, l)
                    c = fb(s, l)
                    try:
                        try:
                            w = s.work = s.work + len(c)
                        except AttributeError:
                            w = stateless_work(len(c))
                        if w > MAX_WORK:
                            too_much_work(s)
                        return (x not in c) if negate else (x in c)
                    except TypeError:
                        fault(s, l)
                        raise
            return self._fold(BOOL, member, [a, b])
        if not compatible(a.type, b.type):
            raise ExprError(f"cannot compare {_a(a.type)} with {_a(b.type)}", offset_of(op_tok))
        if op in ("<", ">", "<=", ">=") and a.type not in (NUM, STR, ANY, NULL):
            raise ExprError(f"'{op}' compares numbers or strings, not {a.type}s", offset_of(op_tok))
        fault = self.fault([a_t, b_t], f"so '{op}' cannot compare it", [fa, fb])
        if b.is_const and a.card_attr is not None:      # e.g. card.suit == 'H': one closure, not two
            (table, var, afault), v = a.card_attr, b.const
            return Compiled(BOOL, _card_compare(op, table, var, v, afault, fault))
        if b.is_const and not a.is_const:
            v = b.const
            return Compiled(BOOL, _const_compare(op, fa, v, fault))
        if elem_of(a.type) is not None and a.type != ANY:     # lists compare element by element
            return self._fold(BOOL, _charged(_compare_fn(op, fa, fb, fault), fa), [a, b])
        return self._fold(BOOL, _compare_fn(op, fa, fb, fault), [a, b])

    def _fold(self, typ, fn, parts) -> Compiled:
        if all(p.is_const for p in parts):
            try:
                value = fn(None, None)
            except (ArithmeticError, TypeError, ValueError, RulesError):
                return Compiled(typ, fn)    # left to fail at run time, at the step that runs it
            if typ == NUM and isinstance(value, (int, float)) and not -MAX_EXPR_NUMBER < value < MAX_EXPR_NUMBER:
                raise ExprError(f"this computes a number beyond the limit of {MAX_EXPR_NUMBER:.0e}")
            return const(typ, value)
        return Compiled(typ, fn)

    # -- messages at run time -------------------------------------------------
    def fault(self, trees, then, fns):
        """fn(s, l) for an `except TypeError:` branch: raises a RulesError naming the first of
        `trees` (whose closures are `fns`) that is null now, or returns if none is.

        It evaluates them again: only on the way to stopping the game with the error, so
        the closures that run in the normal case pay nothing but a `try`.
        """
        pmap = self._pmaps[-1]

        def fault(s, l):
            for tree, f in zip(trees, fns):
                if f(s, l) is None:
                    raise RulesError(f"'{_text(tree, pmap)}' is null here{_why_null(tree, pmap)}, {then}") from None
        return fault

    def complaint(self, tree, what):
        """fn() raising a RulesError that `tree` (its text) `what`."""
        pmap = self._pmaps[-1]

        def complaint():
            raise RulesError(f"'{_text(tree, pmap)}' {what}") from None
        return complaint

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
            from .functions import BUILTIN_FUNCTIONS
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
        caller = self._pmaps[-1]
        self._pmaps.append({p: (a, caller) for p, a in zip(fdef.params, args)})
        if self._hoist is not None:       # inside the body, a parameter varies if its argument does
            self._variant.append({p for p, a in zip(fdef.params, args)
                                  if not free_names(a).isdisjoint(self._variant[-1])})
        try:
            return self.node(fdef.tree, {}, bound, depth)
        except ExprError as e:
            if not e.wrap:                # a limit of the whole expression: say it at the call
                raise ExprError(e.message, offset_of(t), wrap=False) from None
            raise ExprError(_in_function(fdef.name, e.message), offset_of(t)) from None
        finally:
            self._calls.pop()
            self._pmaps.pop()
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


def _divide(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    r = a / b
    return int(r) if r.is_integer() else r


def _floordiv(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a // b


def _mod(a, b):
    if b == 0:
        raise ZeroDivisionError("modulo by zero")
    return a % b


# -- the built-ins' work budget ----------------------------------------------------------
# Each built-in that goes through a collection (count, sum, filter, `in` a list, list + list,
# ...) adds the collection's length to `State.work`, which engine.run sets to 0 before it
# runs to the next decision, and stops the game past MAX_WORK: one add and one compare per
# call, none per element.  The code is written out in each closure (no call layer):
#
#     try:
#         w = s.work = s.work + len(xs)
#     except AttributeError:          # no game state: a card attribute or a constant, at load time
#         w = stateless_work(len(xs))
#     if w > MAX_WORK:
#         too_much_work(s)

_STATELESS = [0]        # work done without a game state, since the last ExprCompiler.compile


def stateless_work(n: int) -> int:
    w = _STATELESS[0] = _STATELESS[0] + n
    return w


def _charged(fn, coll):
    """fn, charging the length of the list `coll` gives (lists compared element by element)."""
    def charged(s, l):
        try:
            w = s.work = s.work + len(coll(s, l) or ())
        except AttributeError:
            w = stateless_work(0)
        if w > MAX_WORK:
            too_much_work(s)
        return fn(s, l)
    return charged


def too_much_work(s):
    message = (f"the rules did more than {MAX_WORK:,} units of work between two decisions "
               "(elements visited by count, sum, filter, map, any, in, ...): do functions of "
               "each element nest too deeply?")
    if s is None:
        raise ExprError(message)
    raise RulesError(message)


# -- comparisons, written out so that the common case is one closure ------------------------
def _card_compare(op, table, var, v, card_fault, fault):
    """`card.attr OP constant` with `card` a local name."""
    if op == "==":
        def cmp(s, l):
            try:
                return table[l[var]] == v
            except TypeError:
                card_fault(s, l)
                raise
    elif op == "!=":
        def cmp(s, l):
            try:
                return table[l[var]] != v
            except TypeError:
                card_fault(s, l)
                raise
    elif op == "<":
        def cmp(s, l):
            try:
                return table[l[var]] < v
            except TypeError:
                card_fault(s, l)
                fault(s, l)
                raise
    elif op == ">":
        def cmp(s, l):
            try:
                return table[l[var]] > v
            except TypeError:
                card_fault(s, l)
                fault(s, l)
                raise
    elif op == "<=":
        def cmp(s, l):
            try:
                return table[l[var]] <= v
            except TypeError:
                card_fault(s, l)
                fault(s, l)
                raise
    else:
        def cmp(s, l):
            try:
                return table[l[var]] >= v
            except TypeError:
                card_fault(s, l)
                fault(s, l)
                raise
    return cmp


def _const_compare(op, fa, v, fault):
    """`expression OP constant`."""
    if op == "==":
        return lambda s, l: fa(s, l) == v
    if op == "!=":
        return lambda s, l: fa(s, l) != v
    if op == "<":
        def cmp(s, l):
            try:
                return fa(s, l) < v
            except TypeError:
                fault(s, l)
                raise
    elif op == ">":
        def cmp(s, l):
            try:
                return fa(s, l) > v
            except TypeError:
                fault(s, l)
                raise
    elif op == "<=":
        def cmp(s, l):
            try:
                return fa(s, l) <= v
            except TypeError:
                fault(s, l)
                raise
    else:
        def cmp(s, l):
            try:
                return fa(s, l) >= v
            except TypeError:
                fault(s, l)
                raise
    return cmp


def _compare_fn(op, fa, fb, fault):
    """`expression OP expression`."""
    if op == "==":
        return lambda s, l: fa(s, l) == fb(s, l)
    if op == "!=":
        return lambda s, l: fa(s, l) != fb(s, l)
    if op == "<":
        def cmp(s, l):
            try:
                return fa(s, l) < fb(s, l)
            except TypeError:
                fault(s, l)
                raise
    elif op == ">":
        def cmp(s, l):
            try:
                return fa(s, l) > fb(s, l)
            except TypeError:
                fault(s, l)
                raise
    elif op == "<=":
        def cmp(s, l):
            try:
                return fa(s, l) <= fb(s, l)
            except TypeError:
                fault(s, l)
                raise
    else:
        def cmp(s, l):
            try:
                return fa(s, l) >= fb(s, l)
            except TypeError:
                fault(s, l)
                raise
    return cmp


# -- messages ------------------------------------------------------------------------------
def _resolve(t, pmap):
    """A function's parameter stands for its argument: (tree, map) of what `t` reads."""
    while isinstance(t, Tree) and t.data == "name" and t.children[0].value in pmap:
        t, pmap = pmap[t.children[0].value]
    return t, pmap


def _text(t, pmap) -> str:
    """The text of tree `t`, the arguments written in for a function's parameters."""
    t, pmap = _resolve(t, pmap)
    text = unparse(t, {p: _text(a, outer) for p, (a, outer) in pmap.items()})
    return text if len(text) <= 80 else text[:77] + "..."


_NULL_HINTS = {"top": " (top of an empty zone?)", "bottom": " (bottom of an empty zone?)",
               "first": " (no element matched?)", "max_by": " (an empty list?)", "min_by": " (an empty list?)",
               "min": " (an empty list?)", "max": " (an empty list?)", "random": " (an empty list?)"}


def _why_null(t, pmap) -> str:
    t, pmap = _resolve(t, pmap)
    if not isinstance(t, Tree):
        return ""
    if t.data == "call":
        return _NULL_HINTS.get(t.children[0].value, "")
    if t.data == "attr":
        if t.children[1].value == "index":      # a player's index is the player
            return _why_null(t.children[0], pmap)
        return _NULL_HINTS.get(t.children[1].value, "") if t.children[1].value in ("top", "bottom") else ""
    if t.data == "index":
        return " (past the end of the list?)"
    if t.data == "name":
        return " (before anyone's turn?)" if t.children[0].value == "current" else " (not set yet?)"
    return ""


def _in_function(name: str, message: str) -> str:
    """'in function f(): message', a chain of calls shortened: 'in function f() → g() → … → h(): ...'."""
    chain = [name]
    while message.startswith("in function "):
        head, sep, rest = message.partition(": ")
        if not sep:
            break
        chain.extend(x.strip() for x in head[len("in function "):].split("→"))
        message = rest
    names = [c if c.endswith("()") or c == "…" else c + "()" for c in chain]
    if len(names) > 4 or "…" in names[2:-1]:
        names = names[:2] + ["…"] + names[-1:]
    return f"in function {' → '.join(names)}: {message}"


_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t", "r": "\r"}
_HEX = {"x": 2, "u": 4, "U": 8}


def unescape(raw: str, offset: int) -> str:
    """The value of a string literal's text (without its quotes), which starts at `offset`.

    Escapes: \\\\ \\' \\" \\n \\t \\r \\xHH \\uHHHH \\UHHHHHHHH; a code point must be a
    character (not a surrogate, at most 10FFFF).  Anything else is an ExprError there.
    """
    for i, ch in enumerate(raw):
        if "\ud800" <= ch <= "\udfff":
            raise ExprError(f"a string holds an unpaired surrogate U+{ord(ch):04X}, which is not a character",
                            offset + i)
    if "\\" not in raw:
        return raw
    out = []
    i = 0
    n = len(raw)
    while i < n:
        ch = raw[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        kind = raw[i + 1] if i + 1 < n else ""
        if kind in _ESCAPES:
            out.append(_ESCAPES[kind])
            i += 2
            continue
        if kind in _HEX:
            digits = raw[i + 2:i + 2 + _HEX[kind]]
            if len(digits) != _HEX[kind] or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise ExprError(f"'\\{kind}' needs {_HEX[kind]} hexadecimal digits, e.g. "
                                f"'\\{kind}{'0041'[-_HEX[kind]:] if _HEX[kind] <= 4 else '00000041'}'", offset + i)
            code = int(digits, 16)
            if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
                raise ExprError(f"'\\{kind}{digits}' is not a character "
                                f"({'an unpaired surrogate' if code <= 0xDFFF else 'beyond U+10FFFF'})", offset + i)
            out.append(chr(code))
            i += 2 + _HEX[kind]
            continue
        shown = repr(kind)[1:-1] if kind else ""
        raise ExprError(f"unknown escape '\\{shown}' in a string; the escapes are "
                        "\\\\ \\' \\\" \\n \\t \\r \\xHH \\uHHHH \\UHHHHHHHH", offset + i)
    return "".join(out)
