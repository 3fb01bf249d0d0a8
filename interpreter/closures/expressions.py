"""The closure back end: the typed IR of an expression (check/expressions) becomes a Python
closure `fn(state, locals)`.

Names were resolved by the checker; here a card attribute becomes a lookup in its table, a
variable a dictionary read.  The common shapes get closures of their own (a card attribute
of a local, `card.attr == constant`, the current player's variable), so that most parts cost
one call.  A null where a value is needed stops the game with a RulesFault naming the part
of the expression that was null (`Fault`), worked out only on the way to stopping.

A call of a ruleset's function is a call: its body is compiled once, into a closure that
reads its parameters from a fresh locals frame.  A fault inside the body that names a
parameter is turned, by each call on the way out, into one naming the argument.
"""
from __future__ import annotations

from dataclasses import dataclass

from lark import Tree

from ..errors import RulesFault
from ..lang.expr_ir import NOCONST, Node, draws_random, element_names, null_test
from ..lang.syntax import free_names, unparse
from ..lang.types import ANY, elem_of
from ..lang.values import NULL_REASONS, divide, floordiv, mod
from ..limits import MAX_WORK
from ..runtime.effects import too_much_work
from ..runtime import piles
from ..runtime.state import next_seat, partners_of, team_of
from .functions import BUILTINS


@dataclass
class Code:
    """A compiled part: its closure, and what lets a parent specialise on it."""
    fn: object
    const: object = NOCONST
    local: str | None = None        # the value is this local name
    current: bool = False           # the value is the current player
    card_attr: tuple | None = None  # (table, local name, fault) for `local.attribute` of a card


class Closures:
    """Compiles IR nodes against a deck's card tables."""

    def __init__(self, symbols):
        self.attrs = symbols.card_attrs
        self.teams = symbols.teams
        self.display = symbols.display
        self._bodies = {}               # Function -> its body's closure, compiled once
        self._frames = ()               # inlined bodies: {parameter: argument tree}, innermost first
        self._params = [{}]             # inlined bodies: parameter -> the argument's Code
        self._plain_params = [set()]    # inlined bodies: the parameters whose argument is plain
        self._variant = None            # in a `where`: per body, the names that vary per option
        self.hoisted = 0                # calls memoised in the last condition
        self._shared = {}               # text -> Code of a value tested not null (see _tested)

    def fn(self, node):
        """fn(state, locals) computing `node`."""
        return self.code(node).fn

    def condition(self, node, option: str):
        """(fn, memoised) for a choice's `where`, evaluated once per option.

        Calls that depend neither on the option nor on an enclosing element give the same
        value for every option: they are computed once per choice and memoised in the
        locals slot '#memo', which the choice sets up.  To tell them apart inside the
        functions the condition calls, their bodies are compiled in at each call here (as
        the checker's size limit allows) where that computes the same as a call (see
        INLINE_SIZE), and called otherwise: a memoised call inside a body shared by several
        callers would mix up their values.  A call that draws random() is never memoised.
        """
        self._variant, self.hoisted = [{option}], 0
        try:
            return self.fn(node), self.hoisted > 0
        finally:
            self._variant = None

    def code(self, node) -> Code:
        if node.is_const:
            v = node.const
            return Code(lambda s, l: v, v)
        if self._shared and node.text in self._shared:
            return self._shared[node.text]
        c = getattr(self, "_" + type(node).__name__)(node)
        if self._variant is not None and hoistable(node, self._variant[-1]):
            c = self._memoised(c)
        return c

    def _memoised(self, c: Code) -> Code:
        key = self.hoisted = self.hoisted + 1
        f = c.fn

        def memo(s, l):
            m = l["#memo"]
            if key in m:
                return m[key]
            v = m[key] = f(s, l)
            return v
        return Code(memo)

    # -- messages at run time -------------------------------------------------
    def fault(self, nodes, then, fns):
        """fn(s, l) for an `except TypeError:` branch: raises a Fault naming the first of
        `nodes` (whose closures are `fns`) that is null now, or returns if none is.

        It evaluates them again: only on the way to stopping the game with the error, so
        the closures that run in the normal case pay nothing but a `try`.
        """
        frames = self._frames
        trees = [n.tree for n in nodes]

        def fault(s, l):
            for tree, f in zip(trees, fns):
                if f(s, l) is None:
                    raise Fault(tree, then, True, frames) from None
        return fault

    def complaint(self, part, what):
        """fn() raising a Fault that `part` (a node or a lark tree; its text) `what`."""
        frames, tree = self._frames, getattr(part, "tree", part)

        def complaint():
            raise Fault(tree, what, False, frames) from None
        return complaint

    # -- leaves ---------------------------------------------------------------
    def _Missing(self, node):
        return Code(lambda s, l: None)

    def _ListLit(self, node):
        fns = tuple(self.fn(i) for i in node.items)
        return Code(lambda s, l: [f(s, l) for f in fns])

    def _MapLit(self, node):
        pairs = tuple((self.fn(k), self.fn(v)) for k, v in zip(node.keys, node.values))
        nokey = self.fault(list(node.keys), "so it cannot be a map's key", [k for k, _ in pairs])

        def map_lit(s, l):
            m = {kf(s, l): vf(s, l) for kf, vf in pairs}
            if None in m:
                nokey(s, l)
            return m
        return Code(map_lit)

    def _MapGet(self, node):
        cf, kf = self.fn(node.coll), self.fn(node.key)
        fault = self.fault([node.coll], f"so '{node.text}' has no value", [cf])

        def get(s, l):
            c = cf(s, l)
            try:
                return c.get(kf(s, l))
            except AttributeError:
                fault(s, l)
                raise
        return Code(get)

    def _Local(self, node):
        name = node.name
        if name in self._params[-1]:
            return self._params[-1][name]
        return Code(lambda s, l: l[name], local=name)

    def _GlobalVar(self, node):
        name = node.name
        return Code(lambda s, l: s.vars[name])

    def _SharedZone(self, node):
        name = node.name
        return Code(lambda s, l: s.zones[name])

    def _PileList(self, node):
        name, listed = node.name, piles.listed
        return Code(lambda s, l: listed(s, name))

    def _PileCards(self, node):
        f, cards_of = self.fn(node.obj), piles.cards_of
        return Code(lambda s, l: cards_of(s, f(s, l)))

    def _PileOwner(self, node):
        f, owner_of = self.fn(node.obj), piles.owner_of
        return Code(lambda s, l: owner_of(s, f(s, l)))

    def _Current(self, node):
        return Code(lambda s, l: s.current, current=True)

    def _Players(self, node):
        return Code(lambda s, l: s.players)

    def _Active(self, node):
        return Code(lambda s, l: [p for p in s.players if not s.out[p]])

    def _NumPlayers(self, node):
        return Code(lambda s, l: len(s.players))

    # -- attributes -------------------------------------------------------------
    def _CardAttr(self, node):
        table = self.attrs[node.name][1]
        obj = self.code(node.obj)
        f = obj.fn
        fault = self.fault([node.obj], f"so '.{node.name}' has no value", [f])
        if obj.local:
            var = obj.local

            def card_local(s, l):
                try:
                    return table[l[var]]
                except TypeError:
                    fault(s, l)
                    raise
            return Code(card_local, card_attr=(table, var, fault))

        def card_attr(s, l):
            try:
                return table[f(s, l)]
            except TypeError:
                fault(s, l)
                raise
        return Code(card_attr)

    def _PlayerVar(self, node):
        return self._of_player(node, "pvars")

    def _PlayerZone(self, node):
        return self._of_player(node, "zones")

    def _of_player(self, node, kind):
        """A player's variable or zone: s.pvars[name][player] or s.zones[name][player]."""
        name, owner = node.name, self.code(node.owner)
        f = owner.fn
        if node.tree is not None and node.tree.data == "call":      # zone('hand', p)
            then = f"so it has no zone '{name}'"
        else:
            then = f"so '.{name}' has no value"
        fault = self.fault([node.owner], then, [f])
        if owner.current:
            return Code(_of_current(kind, name, fault))
        if owner.local:
            return Code(_of_local(kind, name, owner.local, fault))
        return Code(_of_owner(kind, name, f, fault))

    def _PlayerProp(self, node):
        name, f = node.name, self.fn(node.obj)
        fault = self.fault([node.obj], f"so '.{name}' has no value", [f])
        if name == "index":
            return Code(f)
        if name == "seat":
            def seat(s, l):
                try:
                    return f(s, l) + 1
                except TypeError:
                    fault(s, l)
                    raise
            return Code(seat)
        if name == "name":
            def name_(s, l):
                try:
                    return s.names[f(s, l)]
                except TypeError:
                    fault(s, l)
                    raise
            return Code(name_)
        if name in ("left", "right"):
            step = 1 if name == "left" else -1

            def neighbour(s, l):
                try:
                    return next_seat(s, f(s, l), step)
                except TypeError:
                    fault(s, l)
                    raise
            return Code(neighbour)

        if name in ("team", "partners"):
            teams, of = self.teams, team_of if name == "team" else partners_of

            def team(s, l):
                try:
                    return of(teams, s, f(s, l))
                except TypeError:
                    fault(s, l)
                    raise
            return Code(team)

        def eliminated(s, l):
            try:
                return s.out[f(s, l)]
            except TypeError:
                fault(s, l)
                raise
        return Code(eliminated)

    def _ZoneProp(self, node):
        f = self.fn(node.obj)
        if node.name == "top":
            return Code(lambda s, l: (z[-1] if (z := f(s, l)) else None))
        if node.name == "bottom":
            return Code(lambda s, l: (z[0] if (z := f(s, l)) else None))
        return Code(lambda s, l: len(f(s, l)))

    def _Index(self, node):
        cf, xf = self.fn(node.coll), self.fn(node.index)
        fault = self.fault([node.coll, node.index], f"so '{node.text}' has no value", [cf, xf])
        whole = self.complaint(node.index, "is not a whole number, so it cannot index a list")

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
        return Code(index)

    # -- operators ----------------------------------------------------------------
    def _Neg(self, node):
        f = self.fn(node.a)
        fault = self.fault([node.a], "so it cannot be negated", [f])

        def neg(s, l):
            try:
                return -f(s, l)
            except TypeError:
                fault(s, l)
                raise
        return Code(neg)

    def _Not(self, node):
        f = self.fn(node.a)
        return Code(lambda s, l: not f(s, l))

    def _And(self, node):
        tested = null_test(node.a)
        if tested is not None and not tested[1]:         # X != null and ... X ...
            fx, fv, cell = self._tested(tested[0], node.b)

            def tested_and(s, l):
                v = cell[0] = fx(s, l)
                return v is not None and fv(s, l)
            return Code(tested_and)
        fa, fb = self.fn(node.a), self.fn(node.b)
        return Code(lambda s, l: fa(s, l) and fb(s, l))

    def _Or(self, node):
        tested = null_test(node.a)
        if tested is not None and tested[1]:             # X == null or ... X ...
            fx, fv, cell = self._tested(tested[0], node.b)

            def tested_or(s, l):
                v = cell[0] = fx(s, l)
                return v is None or fv(s, l)
            return Code(tested_or)
        fa, fb = self.fn(node.a), self.fn(node.b)
        return Code(lambda s, l: fa(s, l) or fb(s, l))

    def _IfElse(self, node):
        tested = null_test(node.cond)
        if tested is not None:
            subject, is_null = tested
            with_value, without = (node.no, node.yes) if is_null else (node.yes, node.no)
            fx, fv, cell = self._tested(subject, with_value)
            fw = self.fn(without)

            def tested_ifelse(s, l):
                v = cell[0] = fx(s, l)
                return fw(s, l) if v is None else fv(s, l)
            return Code(tested_ifelse)
        fc, fy, fn = self.fn(node.cond), self.fn(node.yes), self.fn(node.no)
        return Code(lambda s, l: fy(s, l) if fc(s, l) else fn(s, l))

    def _tested(self, subject, where):
        """(fx, fv, cell) for a value X tested not null and the part `where` that reads it
        there (`... X ... if X != null else ...`, `X != null and ... X ...`, and the forms with
        `X == null`): X is computed once, by fx into the cell, and fv reads that value where it
        reads X.  No evaluation of the closure can start again before it ends (functions do
        not recurse), so one cell serves."""
        cell = [None]
        fx = self.fn(subject)
        read = Code(lambda s, l: cell[0])
        self._shared = {**self._shared, subject.text: read}
        try:
            fv = self.fn(where)
        finally:
            self._shared = {k: v for k, v in self._shared.items() if k != subject.text}
        return fx, fv, cell

    def _Join(self, node):
        fa, fb = self.fn(node.a), self.fn(node.b)
        fault = self.fault([node.a, node.b], "so '+' has nothing to work on", [fa, fb])

        def join(s, l):
            try:
                r = [*fa(s, l), *fb(s, l)]
            except TypeError:
                fault(s, l)
                raise
            w = s.work = s.work + len(r)        # the built-ins' work budget (see too_much_work)
            if w > MAX_WORK:
                too_much_work()
            return r
        return Code(join)

    def _Concat(self, node):
        fa, fb = self.fn(node.a), self.fn(node.b)
        fault = self.fault([node.a, node.b], "so '+' has nothing to work on", [fa, fb])

        def concat(s, l):
            try:
                r = fa(s, l) + fb(s, l)
            except TypeError:
                fault(s, l)
                raise
            w = s.work = s.work + len(r)
            if w > MAX_WORK:
                too_much_work()
            return r
        return Code(concat)

    def _Arith(self, node):
        op = node.op
        fa, fb = self.fn(node.a), self.fn(node.b)
        fault = self.fault([node.a, node.b], f"so '{op}' has nothing to work on", [fa, fb])
        big = self.complaint(node, "goes beyond the numbers the rules can compute with (about 1e308)")
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
            helper = {"/": divide, "//": floordiv, "%": mod}[op]

            def fn(s, l):
                try:
                    return helper(fa(s, l), fb(s, l))
                except TypeError:
                    fault(s, l)
                    raise
                except OverflowError:
                    big()
        return Code(fn)

    def _Member(self, node):
        fa, fb = self.fn(node.a), self.fn(node.b)
        fault = self.fault([node.b], f"so '{node.op}' has nothing to look in", [fb])
        negate = node.op == "not in"
        if node.b.is_const:         # bounded by the expression's text: no work to count
            if not negate:
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
            return Code(member)

        def member(s, l):
            x = fa(s, l)
            c = fb(s, l)
            try:
                w = s.work = s.work + len(c)
                if w > MAX_WORK:
                    too_much_work()
                return (x not in c) if negate else (x in c)
            except TypeError:
                fault(s, l)
                raise
        return Code(member)

    def _Compare(self, node):
        op = node.op
        a, b = self.code(node.a), self.code(node.b)
        fa, fb = a.fn, b.fn
        fault = self.fault([node.a, node.b], f"so '{op}' cannot compare it", [fa, fb])
        if b.const is not NOCONST and a.card_attr is not None:    # e.g. card.suit == 'H': one closure
            (table, var, afault), v = a.card_attr, b.const
            return Code(_card_compare(op, table, var, v, afault, fault))
        if b.const is not NOCONST:
            return Code(_const_compare(op, fa, b.const, fault))
        if elem_of(node.a.type) is not None and node.a.type != ANY:     # lists compare element by element
            return Code(_compare_fn(op, _charging(fa), fb, fault))
        return Code(_compare_fn(op, fa, fb, fault))

    # -- calls ------------------------------------------------------------------
    def _BuiltinCall(self, node):
        c = Code(BUILTINS[node.name](self, node))
        return c if node.body is None else _keeping(c, (node.var,))

    def _UserCall(self, node):
        f = node.function
        params = [p for p, _ in f.params]
        if self._inlinable(f, params, node.args):
            return self._inlined(node, params)
        body = self._body(f)
        fns = [self.fn(a) for a in node.args]
        frame = {p: a.tree for p, a in zip(params, node.args)}
        if len(fns) == 1:
            (p0,), (f0,) = params, fns

            def call(s, l):
                try:
                    return body(s, {p0: f0(s, l)})
                except Fault as e:
                    raise e.through(frame) from None
        elif len(fns) == 2:
            (p0, p1), (f0, f1) = params, fns

            def call(s, l):
                try:
                    return body(s, {p0: f0(s, l), p1: f1(s, l)})
                except Fault as e:
                    raise e.through(frame) from None
        else:
            pairs = tuple(zip(params, fns))

            def call(s, l):
                try:
                    return body(s, {p: g(s, l) for p, g in pairs})
                except Fault as e:
                    raise e.through(frame) from None
        return Code(call)

    def _inlinable(self, f, params, args) -> bool:
        """Whether compiling the body in at this call computes what a call computes (see
        INLINE_SIZE); in a `where` any size will do, so that calls inside can be memoised."""
        return compiles_in(f, params, args, self._plain, any_size=self._variant is not None)

    def _plain(self, node) -> bool:
        """A value read, not computed (a constant, a variable, the current player, a local
        name): reading it again costs nothing and gives the same.  A parameter of a body being
        compiled in stands for its argument: plain if that is."""
        if node.is_const or type(node).__name__ in ("GlobalVar", "Current"):
            return True
        if type(node).__name__ != "Local":
            return False
        return node.name not in self._params[-1] or node.name in self._plain_params[-1]

    def _body(self, f):
        """The closure of a function's body, compiled once, outside any inlining."""
        if f not in self._bodies:
            saved = self._frames, self._params, self._plain_params, self._variant, self._shared
            self._frames, self._params, self._plain_params, self._variant, self._shared = (), [{}], [set()], None, {}
            try:
                self._bodies[f] = self.fn(f.body)
            finally:
                self._frames, self._params, self._plain_params, self._variant, self._shared = saved
        return self._bodies[f]

    def _inlined(self, node, params):
        """The body compiled in at this call, its parameters standing for the arguments."""
        args = {p: self.code(a) for p, a in zip(params, node.args)}
        plain = {p for p, a in zip(params, node.args) if self._plain(a)}
        if self._variant is not None:
            variant = self._variant[-1]
            self._variant.append({p for p, a in zip(params, node.args) if not names_in(a).isdisjoint(variant)})
        self._frames = ({p: a.tree for p, a in zip(params, node.args)},) + self._frames
        self._params.append(args)
        self._plain_params.append(plain)
        shared, self._shared = self._shared, {}     # the body's texts are its own
        try:
            return self.code(node.function.body)
        finally:
            if self._variant is not None:
                self._variant.pop()
            self._frames = self._frames[1:]
            self._params.pop()
            self._plain_params.pop()
            self._shared = shared

    def each(self, var, body):
        """The closure of a function of each element, its element `var` varying per option."""
        if self._variant is None:
            return self.fn(body)
        self._variant[-1].add(var)
        try:
            return self.fn(body)
        finally:
            self._variant[-1].discard(var)


_GONE = object()


def _keeping(c: Code, names) -> Code:
    """A function of each element binds its element (`p => ...`) in the locals, where a step may
    hold a name of its own that is the same (a for_each `p`, when the function is a body compiled
    in at a call): it puts back what it found, so that no element outlives its function."""
    if not names:
        return c
    names, f = tuple(sorted(names)), c.fn

    def kept(s, l):
        saved = [l.get(n, _GONE) for n in names]
        try:
            return f(s, l)
        finally:
            for n, v in zip(names, saved):
                if v is _GONE:
                    l.pop(n, None)
                else:
                    l[n] = v
    return Code(kept)


# A call of a small function is compiled in at the call (no frame to build, one closure
# fewer per level) when that computes the same as a call, at the same cost: each argument is
# then computed where the body reads it, which is the same as computing it once for a plain
# value (a local name, a variable, a constant, the current player, a parameter standing for
# one of these) or for an argument the body reads at most once (not in a function of each
# element) and that draws no random().  (An argument the body does not read on the path taken
# is then not computed at all: a fault or a charge in it does not happen.)  Bounded by the
# function's expanded size (the bodies it calls counted in), so the code at each call is at
# most INLINE_SIZE parts: it grows linearly with the calls.  In a `where` the size does not
# matter (see condition), the rest does.
INLINE_SIZE = 64


def compiles_in(f, params, args, plain, any_size=False) -> bool:
    """Whether a call of `f` with `args` may be compiled in at the call (see INLINE_SIZE);
    `plain(node)` says whether an argument is a value read, not computed."""
    if not any_size and f.size > INLINE_SIZE:
        return False
    if not set().union(*map(names_in, args)).isdisjoint(element_names(f.body)):
        return False            # the body's `x => ...` would hide a name an argument reads
    return all(plain(a) or (_reads(f.body, p) <= 1 and not draws_random(a)) for p, a in zip(params, args))


def _reads(node, name) -> int:
    """How many times computing `node` may read the local name `name`: a read inside a
    function of each element counts as many (2); a branch folded away by the checker as none."""
    if type(node).__name__ == "Local":
        return int(node.name == name)
    n = 0
    for key, value in vars(node).items():
        for part in (value if isinstance(value, (list, tuple)) else (value,)):
            if isinstance(part, Node):
                r = _reads(part, name)
                n += 2 * r if key == "body" and type(node).__name__ == "BuiltinCall" else r
    return n


def names_in(node) -> set:
    """The local names an expression node reads (its syntax tree's free names)."""
    return free_names(node.tree) if node.tree is not None else set()


def hoistable(node, variant) -> bool:
    """A call that gives the same value for every option of a choice (see condition)."""
    t = node.tree
    return (t is not None and getattr(t, "data", None) == "call" and not draws_random(node)
            and names_in(node).isdisjoint(variant))


# -- a player's variable or zone, written out for each kind of owner: one closure ------------
def _of_current(kind, name, fault):
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
    return current_attr


def _of_local(kind, name, var, fault):
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
    return local_attr


def _of_owner(kind, name, f, fault):
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
    return player_attr


# -- the built-ins' work budget ----------------------------------------------------------
# Each built-in that goes through a collection (count, sum, filter, `in` a list, list + list,
# ...) adds the collection's length to `State.work`, which engine.run sets to 0 before it
# runs to the next decision, and stops the game past MAX_WORK: one add and one compare per
# call, none per element.  The code is written out in each closure (no call layer):
#
#     w = s.work = s.work + len(xs)
#     if w > MAX_WORK:
#         too_much_work()

def _charging(fa):
    """fa, its list's length charged (lists compared element by element), computed once."""
    def charged(s, l):
        a = fa(s, l)
        w = s.work = s.work + len(a or ())
        if w > MAX_WORK:
            too_much_work()
        return a
    return charged


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


_NULL_HINTS = {name: f" ({reason}?)" for name, reason in NULL_REASONS.items()}


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
        return " (a key the map lacks?)" if getattr(t, "map_key", False) else " (past the end of the list?)"
    if t.data == "name":
        return " (before anyone's turn?)" if t.children[0].value == "current" else " (not set yet?)"
    return ""


class Fault(RulesFault):
    """A fault at run time about one part of an expression (its lark tree): null where a
    value is needed, or `words` about it.  Inside a function's body the part may be, or
    read, a parameter: each call on the way out adds its frame {parameter: argument tree},
    so that the message shows what the caller wrote."""

    def __init__(self, tree, words, null, frames=()):
        self.tree, self.words, self.null, self.frames = tree, words, null, frames
        pmap = {}
        for frame in reversed(frames):          # outermost first: its arguments read no parameter
            pmap = {p: (a, pmap) for p, a in frame.items()}
        text = _text(tree, pmap)
        super().__init__(f"'{text}' is null here{_why_null(tree, pmap)}, {words}" if null else f"'{text}' {words}")

    def through(self, frame) -> "Fault":
        return Fault(self.tree, self.words, self.null, self.frames + (frame,))
