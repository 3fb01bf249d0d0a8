"""The built-in functions of the expression language.

Each takes the compiler and the argument trees and returns a Compiled value; the
table at the end maps the language's names to them.  Functions of each element
(`c => ...`) bind the element in the locals while they run: collections are
finite, so every call ends.

Every function that goes through a collection charges its length to the work budget
(`State.work`, at most MAX_WORK between two decisions; see expr_compile.too_much_work),
once per call and written out in each closure, so that functions of each element nested
in one another cannot run for hours.  A null where a value is needed stops the game with
a RulesError naming the expression that was null (ExprCompiler.fault).
"""
from __future__ import annotations

from ..errors import did_you_mean
from ..lang.syntax import ExprError, offset_of
from .expressions import (ANY, BOOL, NUM, PLAYER, STR, ZONE, Compiled, _arity, compatible, elem_of, list_of,
                           stateless_work, too_much_work)
from ..limits import MAX_WORK


def _nothing(c, coll_t, name, cf):
    return c.fault([coll_t], f"so {name}() has nothing to go through", [cf])


def _fn_count(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 2)
    coll, et = c.collection(args[0], scope, params, depth)
    cf = coll.fn
    fault = _nothing(c, args[0], name, cf)
    if len(args) == 1:
        def size(s, l):
            try:
                return len(cf(s, l))
            except TypeError:
                fault(s, l)
                raise
        return Compiled(NUM, size)
    var, pred = c.lambda_(args[1], et, scope, params, depth, BOOL)
    pf = pred.fn

    def count(s, l):
        xs = cf(s, l)
        try:
            w = s.work = s.work + len(xs)
        except AttributeError:      # no game state: a card attribute, at load time
            w = stateless_work(len(xs))
        except TypeError:
            fault(s, l)
            raise
        if w > MAX_WORK:
            too_much_work(s)
        n = 0
        for x in xs:
            l[var] = x
            if pf(s, l):
                n += 1
        return n
    return Compiled(NUM, count)


def _fn_any_all(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 2)
    coll, et = c.collection(args[0], scope, params, depth)
    cf = coll.fn
    fault = _nothing(c, args[0], name, cf)
    if len(args) == 1:
        if not compatible(et, BOOL):
            raise ExprError(f"{name}() of a list needs true/false values", offset_of(args[0]))
        agg = any if name == "any" else all

        def truth(s, l):
            xs = cf(s, l)
            try:
                w = s.work = s.work + len(xs)
            except AttributeError:
                w = stateless_work(len(xs))
            except TypeError:
                fault(s, l)
                raise
            if w > MAX_WORK:
                too_much_work(s)
            return agg(xs)
        return Compiled(BOOL, truth)
    var, pred = c.lambda_(args[1], et, scope, params, depth, BOOL)
    pf = pred.fn
    if name == "any":
        def fn(s, l):
            xs = cf(s, l)
            try:
                w = s.work = s.work + len(xs)
            except AttributeError:
                w = stateless_work(len(xs))
            except TypeError:
                fault(s, l)
                raise
            if w > MAX_WORK:
                too_much_work(s)
            for x in xs:
                l[var] = x
                if pf(s, l):
                    return True
            return False
    else:
        def fn(s, l):
            xs = cf(s, l)
            try:
                w = s.work = s.work + len(xs)
            except AttributeError:
                w = stateless_work(len(xs))
            except TypeError:
                fault(s, l)
                raise
            if w > MAX_WORK:
                too_much_work(s)
            for x in xs:
                l[var] = x
                if not pf(s, l):
                    return False
            return True
    return Compiled(BOOL, fn)


def _values(c, name, args, t, scope, params, depth, want=None):
    """(fn(s, l) -> the values, result type) for agg(coll[, x => f]), charged to the budget."""
    _arity(name, args, t, 1, 2)
    coll, et = c.collection(args[0], scope, params, depth)
    cf = coll.fn
    fault = _nothing(c, args[0], name, cf)
    if len(args) == 1:
        def values(s, l):
            xs = cf(s, l)
            try:
                w = s.work = s.work + len(xs)
            except AttributeError:
                w = stateless_work(len(xs))
            except TypeError:
                fault(s, l)
                raise
            if w > MAX_WORK:
                too_much_work(s)
            return xs
        return values, et
    var, body = c.lambda_(args[1], et, scope, params, depth, want)
    bf = body.fn

    def mapped(s, l):
        xs = cf(s, l)
        try:
            w = s.work = s.work + len(xs)
        except AttributeError:
            w = stateless_work(len(xs))
        except TypeError:
            fault(s, l)
            raise
        if w > MAX_WORK:
            too_much_work(s)
        out = []
        for x in xs:
            l[var] = x
            out.append(bf(s, l))
        return out
    return mapped, body.type


def _fn_sum(c, name, args, t, scope, params, depth):
    vf, rt = _values(c, name, args, t, scope, params, depth, NUM)
    if not compatible(rt, NUM):
        raise ExprError("sum() adds numbers; give a function such as c => c.points", offset_of(t))
    null = c.complaint(args[-1], "is null for some element, so sum() cannot add it")
    big = c.complaint(t, "goes beyond the numbers the rules can compute with (about 1e308)")

    def total(s, l):
        v = vf(s, l)
        try:
            return sum(v)
        except TypeError:
            if None in v:
                null()
            raise
        except OverflowError:
            big()
    return Compiled(NUM, total)


def _fn_min_max(c, name, args, t, scope, params, depth):
    vf, rt = _values(c, name, args, t, scope, params, depth)
    if rt not in (NUM, STR, ANY):
        raise ExprError(f"{name}() needs numbers or strings; give a function such as c => c.value", offset_of(t))
    agg = min if name == "min" else max
    null = c.complaint(args[-1], f"is null for some element, so {name}() cannot compare it")

    def extreme(s, l):
        v = vf(s, l)
        try:
            return agg(v) if v else None
        except TypeError:
            if None in v:
                null()
            raise
    return Compiled(rt, extreme)


def _fn_by(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 2, 2)
    coll, et = c.collection(args[0], scope, params, depth)
    var, key = c.lambda_(args[1], et, scope, params, depth)
    if key.type not in (NUM, STR, ANY):
        raise ExprError(f"{name}() needs a key that is a number or string", offset_of(args[1]))
    cf, kf = coll.fn, key.fn
    better = (lambda a, b: a > b) if name == "max_by" else (lambda a, b: a < b)
    fault = _nothing(c, args[0], name, cf)
    null = c.complaint(args[1], f"is null for some element, so {name}() cannot compare it")

    def best(s, l):
        xs = cf(s, l)
        try:
            w = s.work = s.work + len(xs)
        except AttributeError:
            w = stateless_work(len(xs))
        except TypeError:
            fault(s, l)
            raise
        if w > MAX_WORK:
            too_much_work(s)
        found, best_key = None, None
        for x in xs:
            l[var] = x
            k = kf(s, l)
            try:
                if found is None or better(k, best_key):
                    found, best_key = x, k
            except TypeError:
                if k is None or best_key is None:
                    null()
                raise
        return found
    return Compiled(et, best)


def _fn_filter(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 2, 2)
    coll, et = c.collection(args[0], scope, params, depth)
    var, pred = c.lambda_(args[1], et, scope, params, depth, BOOL)
    cf, pf = coll.fn, pred.fn
    fault = _nothing(c, args[0], name, cf)

    def keep(s, l):
        xs = cf(s, l)
        try:
            w = s.work = s.work + len(xs)
        except AttributeError:
            w = stateless_work(len(xs))
        except TypeError:
            fault(s, l)
            raise
        if w > MAX_WORK:
            too_much_work(s)
        out = []
        for x in xs:
            l[var] = x
            if pf(s, l):
                out.append(x)
        return out
    return Compiled(list_of(et), keep)


def _fn_map(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 2, 2)
    vf, rt = _values(c, name, args, t, scope, params, depth)
    return Compiled(list_of(rt), vf)


def _fn_first(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 2)
    coll, et = c.collection(args[0], scope, params, depth)
    cf = coll.fn
    if len(args) == 1:
        return Compiled(et, lambda s, l: (v[0] if (v := cf(s, l)) else None))
    var, pred = c.lambda_(args[1], et, scope, params, depth, BOOL)
    pf = pred.fn
    fault = _nothing(c, args[0], name, cf)

    def first(s, l):
        xs = cf(s, l)
        try:
            w = s.work = s.work + len(xs)
        except AttributeError:
            w = stateless_work(len(xs))
        except TypeError:
            fault(s, l)
            raise
        if w > MAX_WORK:
            too_much_work(s)
        for x in xs:
            l[var] = x
            if pf(s, l):
                return x
        return None
    return Compiled(et, first)


def _fn_top_bottom(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 1)
    coll, et = c.collection(args[0], scope, params, depth)
    cf = coll.fn
    if name == "top":
        return Compiled(et, lambda s, l: (z[-1] if (z := cf(s, l)) else None))
    return Compiled(et, lambda s, l: (z[0] if (z := cf(s, l)) else None))


def _fn_abs(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 1)
    a = c.sub(args[0], scope, params, depth, NUM)
    f = a.fn
    fault = c.fault([args[0]], "so abs() has no number", [f])

    def abs_(s, l):
        try:
            return abs(f(s, l))
        except TypeError:
            fault(s, l)
            raise
    return c._fold(NUM, abs_, [a])


def _fn_zone(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 2)
    zn = c.sub(args[0], scope, params, depth, STR)
    if not zn.is_const:
        raise ExprError("zone() needs the zone's name as a quoted string", offset_of(args[0]))
    zname = zn.const
    sym = c.sym
    if len(args) == 1:
        if zname in sym.shared_zones:
            return Compiled(ZONE, lambda s, l: s.zones[zname])
        if zname in sym.player_zones:
            raise ExprError(f"'{zname}' is a zone each player has: use zone('{zname}', player)", offset_of(args[0]))
    else:
        owner = c.sub(args[1], scope, params, depth, PLAYER)
        if zname in sym.player_zones:
            of = owner.fn
            fault = c.fault([args[1]], f"so it has no zone '{zname}'", [of])

            def zone(s, l):
                try:
                    return s.zones[zname][of(s, l)]
                except TypeError:
                    fault(s, l)
                    raise
            return Compiled(ZONE, zone)
    known = sym.shared_zones | sym.player_zones
    raise ExprError(f"unknown zone '{zname}'{did_you_mean(zname, known)}", offset_of(args[0]))


def _fn_player(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 1)
    a = c.sub(args[0], scope, params, depth, NUM)
    f = a.fn
    fault = c.fault([args[0]], "so player() has no seat number", [f])
    odd = c.complaint(args[0], "is not a finite number, so player() has no seat")

    def player(s, l):
        try:
            return s.players[int(f(s, l)) % len(s.players)]
        except TypeError:
            fault(s, l)
            raise
        except (OverflowError, ValueError):
            odd()
    return Compiled(PLAYER, player)


def _fn_len_alias(c, name, args, t, scope, params, depth):
    return _fn_count(c, "count", args, t, scope, params, depth)


def _fn_random(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 1)
    if getattr(c, "in_text", False):
        raise ExprError("random() cannot be used in a text or in whom a log is for: the game would then "
                        "depend on whether its account is kept", offset_of(t))
    coll, et = c.collection(args[0], scope, params, depth)
    cf = coll.fn

    def pick(s, l):
        items = cf(s, l)
        return items[s.rng.below(len(items))] if items else None
    return Compiled(et, pick)


def _fn_clockwise(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 1)
    a = c.sub(args[0], scope, params, depth, PLAYER)
    f = a.fn
    fault = c.fault([args[0]], "so clockwise() has no player to start from", [f])

    def clockwise(s, l):
        p = f(s, l)
        n = len(s.players)
        try:
            return [q for q in ((p + i) % n for i in range(n)) if not s.out[q]]
        except TypeError:
            fault(s, l)
            raise
    return Compiled(list_of(PLAYER), clockwise)


def _fn_text(c, name, args, t, scope, params, depth):
    """A value as a player reads it: a card's display, a player's name, a plain number."""
    _arity(name, args, t, 1, 1)
    a = c.sub(args[0], scope, params, depth)
    f = a.fn
    from .texts import shower
    show = shower(a.type, c.sym.card_attrs.get("display", (STR, ()))[1])
    if elem_of(a.type) is not None and a.type != ANY:      # a list is joined: count its length
        def text(s, l):
            v = f(s, l)
            try:
                w = s.work = s.work + len(v or ())
            except AttributeError:
                w = stateless_work(0)
            if w > MAX_WORK:
                too_much_work(s)
            return show(s, v)
        return c._fold(STR, text, [a])
    return c._fold(STR, lambda s, l: show(s, f(s, l)), [a])


BUILTIN_FUNCTIONS = {
    "count": _fn_count, "len": _fn_len_alias,
    "any": _fn_any_all, "all": _fn_any_all,
    "sum": _fn_sum, "min": _fn_min_max, "max": _fn_min_max,
    "max_by": _fn_by, "min_by": _fn_by,
    "filter": _fn_filter, "map": _fn_map, "first": _fn_first,
    "top": _fn_top_bottom, "bottom": _fn_top_bottom,
    "abs": _fn_abs, "zone": _fn_zone, "player": _fn_player, "random": _fn_random,
    "clockwise": _fn_clockwise, "text": _fn_text,
}
