"""The built-in functions of the expression language.

Each takes the compiler and the argument trees and returns a Compiled value; the
table at the end maps the language's names to them.  Functions of each element
(`c => ...`) bind the element in the locals while they run: collections are
finite, so every call ends.
"""
from __future__ import annotations

from .errors import did_you_mean
from .expr import ExprError, offset_of
from .expr_compile import (ANY, BOOL, NUM, PLAYER, STR, ZONE, Compiled, _arity, compatible, list_of)


def _fn_count(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 2)
    coll, et = c.collection(args[0], scope, params, depth)
    cf = coll.fn
    if len(args) == 1:
        return Compiled(NUM, lambda s, l: len(cf(s, l)))
    var, pred = c.lambda_(args[1], et, scope, params, depth, BOOL)
    pf = pred.fn

    def count(s, l):
        n = 0
        for x in cf(s, l):
            l[var] = x
            if pf(s, l):
                n += 1
        return n
    return Compiled(NUM, count)


def _fn_any_all(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 2)
    coll, et = c.collection(args[0], scope, params, depth)
    cf = coll.fn
    agg = any if name == "any" else all
    if len(args) == 1:
        if not compatible(et, BOOL):
            raise ExprError(f"{name}() of a list needs true/false values", offset_of(args[0]))
        return Compiled(BOOL, lambda s, l: agg(cf(s, l)))
    var, pred = c.lambda_(args[1], et, scope, params, depth, BOOL)
    pf = pred.fn
    if name == "any":
        def fn(s, l):
            for x in cf(s, l):
                l[var] = x
                if pf(s, l):
                    return True
            return False
    else:
        def fn(s, l):
            for x in cf(s, l):
                l[var] = x
                if not pf(s, l):
                    return False
            return True
    return Compiled(BOOL, fn)


def _mapped(c, name, args, t, scope, params, depth, want=None):
    """(collection fn, element type, per-element fn, result type) for agg(coll[, x => f])."""
    _arity(name, args, t, 1, 2)
    coll, et = c.collection(args[0], scope, params, depth)
    if len(args) == 1:
        return coll.fn, None, et
    var, body = c.lambda_(args[1], et, scope, params, depth, want)
    bf = body.fn
    return coll.fn, (var, bf), body.type


def _each(cf, mapper):
    if mapper is None:
        return cf
    var, bf = mapper

    def values(s, l):
        out = []
        for x in cf(s, l):
            l[var] = x
            out.append(bf(s, l))
        return out
    return values


def _fn_sum(c, name, args, t, scope, params, depth):
    cf, mapper, rt = _mapped(c, name, args, t, scope, params, depth, NUM)
    if not compatible(rt, NUM):
        raise ExprError("sum() adds numbers; give a function such as c => c.points", offset_of(t))
    vf = _each(cf, mapper)
    return Compiled(NUM, lambda s, l: sum(vf(s, l)))


def _fn_min_max(c, name, args, t, scope, params, depth):
    cf, mapper, rt = _mapped(c, name, args, t, scope, params, depth)
    if rt not in (NUM, STR, ANY):
        raise ExprError(f"{name}() needs numbers or strings; give a function such as c => c.value", offset_of(t))
    vf = _each(cf, mapper)
    agg = min if name == "min" else max
    return Compiled(rt, lambda s, l: agg(v) if (v := vf(s, l)) else None)


def _fn_by(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 2, 2)
    coll, et = c.collection(args[0], scope, params, depth)
    var, key = c.lambda_(args[1], et, scope, params, depth)
    if key.type not in (NUM, STR, ANY):
        raise ExprError(f"{name}() needs a key that is a number or string", offset_of(args[1]))
    cf, kf = coll.fn, key.fn
    better = (lambda a, b: a > b) if name == "max_by" else (lambda a, b: a < b)

    def best(s, l):
        found, best_key = None, None
        for x in cf(s, l):
            l[var] = x
            k = kf(s, l)
            if found is None or better(k, best_key):
                found, best_key = x, k
        return found
    return Compiled(et, best)


def _fn_filter(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 2, 2)
    coll, et = c.collection(args[0], scope, params, depth)
    var, pred = c.lambda_(args[1], et, scope, params, depth, BOOL)
    cf, pf = coll.fn, pred.fn

    def keep(s, l):
        out = []
        for x in cf(s, l):
            l[var] = x
            if pf(s, l):
                out.append(x)
        return out
    return Compiled(list_of(et), keep)


def _fn_map(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 2, 2)
    cf, mapper, rt = _mapped(c, name, args, t, scope, params, depth)
    return Compiled(list_of(rt), _each(cf, mapper))


def _fn_first(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 2)
    coll, et = c.collection(args[0], scope, params, depth)
    cf = coll.fn
    if len(args) == 1:
        return Compiled(et, lambda s, l: (v[0] if (v := cf(s, l)) else None))
    var, pred = c.lambda_(args[1], et, scope, params, depth, BOOL)
    pf = pred.fn

    def first(s, l):
        for x in cf(s, l):
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
    return c._fold(NUM, lambda s, l, f=a.fn: abs(f(s, l)), [a])


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
            return Compiled(ZONE, lambda s, l: s.zones[zname][of(s, l)])
    known = sym.shared_zones | sym.player_zones
    raise ExprError(f"unknown zone '{zname}'{did_you_mean(zname, known)}", offset_of(args[0]))


def _fn_player(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 1)
    a = c.sub(args[0], scope, params, depth, NUM)
    f = a.fn
    return Compiled(PLAYER, lambda s, l: s.players[int(f(s, l)) % len(s.players)])


def _fn_len_alias(c, name, args, t, scope, params, depth):
    return _fn_count(c, "count", args, t, scope, params, depth)


def _fn_random(c, name, args, t, scope, params, depth):
    _arity(name, args, t, 1, 1)
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

    def clockwise(s, l):
        p = f(s, l)
        n = len(s.players)
        return [q for q in ((p + i) % n for i in range(n)) if not s.out[q]]
    return Compiled(list_of(PLAYER), clockwise)


def _fn_text(c, name, args, t, scope, params, depth):
    """A value as a player reads it: a card's display, a player's name, a plain number."""
    _arity(name, args, t, 1, 1)
    a = c.sub(args[0], scope, params, depth)
    f = a.fn
    from .texts import shower
    show = shower(a.type, c.sym.card_attrs.get("display", (STR, ()))[1])
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


