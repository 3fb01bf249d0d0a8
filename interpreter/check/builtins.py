"""The typing of the built-in functions: each takes the checker and the argument trees and
returns a node (mostly a BuiltinCall whose `var` and `body` are its function of each
element, `c => ...`, if it has one); the table at the end maps the language's names to them."""
from __future__ import annotations

from ..errors import did_you_mean
from ..lang import expr_ir
from ..lang.expr_ir import text_separator
from ..lang.syntax import ExprError, offset_of
from ..lang.types import ANY, BOOL, NUM, PILE, PLAYER, STR, ZONE, a_, compatible, elem_of, is_map, list_of
from ..lang.values import number_range, shower, subsets_of


RANDOM_IN_TEXT = ("random() cannot be used in a text or in whom a log is for: the game would then "
                  "depend on whether its account is kept")


def arity(name, args, t, lo, hi):
    if not lo <= len(args) <= hi:
        want = str(lo) if lo == hi else f"{lo} or {hi}" if hi == lo + 1 else f"{lo} to {hi}"
        raise ExprError(f"{name}() takes {want} argument(s), got {len(args)}", offset_of(t))


# Their value is null where the list is empty (or nothing matches): see check/nulls.py.
MAY_BE_NULL = frozenset({"top", "bottom", "first", "min", "max", "min_by", "max_by", "random"})


def _call(t, name, typ, args, var=None, body=None):
    return expr_ir.BuiltinCall(type=typ, tree=t, name=name, args=args, var=var, body=body,
                          maybe_null=name in MAY_BE_NULL)


def _count(c, name, args, t, scope, depth):
    arity("count", args, t, 1, 2)           # len() is another name for it
    coll, et = c.collection(args[0], scope, depth, t)
    if len(args) == 1:
        return _call(t, "count", NUM, [coll])
    var, pred = c.each(args[1], et, scope, depth, BOOL)
    return _call(t, "count", NUM, [coll], var, pred)


def _any_all(c, name, args, t, scope, depth):
    arity(name, args, t, 1, 2)
    coll, et = c.collection(args[0], scope, depth, t)
    if len(args) == 1:
        if not compatible(et, BOOL):
            raise ExprError(f"{name}() of a list needs true/false values", offset_of(args[0]))
        return _call(t, name, BOOL, [coll])
    var, pred = c.each(args[1], et, scope, depth, BOOL)
    return _call(t, name, BOOL, [coll], var, pred)


def _values(c, name, args, t, scope, depth, want=None):
    """(collection, var, body, type of the values) for agg(coll[, x => f])."""
    arity(name, args, t, 1, 2)
    coll, et = c.collection(args[0], scope, depth, t)
    if len(args) == 1:
        return coll, None, None, et
    var, body = c.each(args[1], et, scope, depth, want)
    return coll, var, body, body.type


def _sum(c, name, args, t, scope, depth):
    coll, var, body, rt = _values(c, name, args, t, scope, depth, NUM)
    if not compatible(rt, NUM):
        raise ExprError("sum() adds numbers; give a function such as c => c.points", offset_of(t))
    return _call(t, name, NUM, [coll], var, body)


def _min_max(c, name, args, t, scope, depth):
    coll, var, body, rt = _values(c, name, args, t, scope, depth)
    if rt not in (NUM, STR, ANY):
        raise ExprError(f"{name}() needs numbers or strings; give a function such as c => c.value", offset_of(t))
    return _call(t, name, rt, [coll], var, body)


def _by(c, name, args, t, scope, depth):
    arity(name, args, t, 2, 2)
    coll, et = c.collection(args[0], scope, depth, t)
    var, key = c.each(args[1], et, scope, depth)
    if key.type not in (NUM, STR, ANY):
        raise ExprError(f"{name}() needs a key that is a number or string", offset_of(args[1]))
    return _call(t, name, et, [coll], var, key)


def _filter(c, name, args, t, scope, depth):
    arity(name, args, t, 2, 2)
    coll, et = c.collection(args[0], scope, depth, t)
    var, pred = c.each(args[1], et, scope, depth, BOOL)
    return _call(t, name, list_of(et), [coll], var, pred)


def _map(c, name, args, t, scope, depth):
    arity(name, args, t, 2, 2)
    coll, var, body, rt = _values(c, name, args, t, scope, depth)
    return _call(t, name, list_of(rt), [coll], var, body)


def _first(c, name, args, t, scope, depth):
    arity(name, args, t, 1, 2)
    coll, et = c.collection(args[0], scope, depth, t)
    if len(args) == 1:
        return _call(t, name, et, [coll])
    var, pred = c.each(args[1], et, scope, depth, BOOL)
    return _call(t, name, et, [coll], var, pred)


def _top_bottom(c, name, args, t, scope, depth):
    arity(name, args, t, 1, 1)
    coll, et = c.collection(args[0], scope, depth, t)
    return _call(t, name, et, [coll])


def _abs(c, name, args, t, scope, depth):
    arity(name, args, t, 1, 1)
    a = c.value(args[0], scope, depth, NUM, t)
    return c.fold(_call(t, name, NUM, [a]), abs, a)


def _zone(c, name, args, t, scope, depth):
    arity(name, args, t, 1, 2)
    zn = c.sub(args[0], scope, depth, STR)
    if not zn.is_const:
        raise ExprError("zone() needs the zone's name as a quoted string", offset_of(args[0]))
    zname = zn.const
    sym = c.sym
    if len(args) == 1:
        if zname in sym.shared_zones:
            return expr_ir.SharedZone(type=ZONE, tree=t, name=zname)
        if zname in sym.pile_zones:
            return expr_ir.PileList(type=list_of(PILE), tree=t, name=zname)
        if zname in sym.player_zones:
            raise ExprError(f"'{zname}' is a zone each player has: use zone('{zname}', player)", offset_of(args[0]))
    else:
        owner = c.value(args[1], scope, depth, PLAYER, t)
        if zname in sym.player_zones:
            return expr_ir.PlayerZone(type=ZONE, tree=t, owner=owner, name=zname)
    known = sym.shared_zones | sym.player_zones | sym.pile_zones
    raise ExprError(f"unknown zone '{zname}'{did_you_mean(zname, known)}", offset_of(args[0]))


def _player(c, name, args, t, scope, depth):
    arity(name, args, t, 1, 1)
    return _call(t, name, PLAYER, [c.value(args[0], scope, depth, NUM, t)])


def _random(c, name, args, t, scope, depth):
    arity(name, args, t, 1, 1)
    if c.in_text:
        raise ExprError(RANDOM_IN_TEXT, offset_of(t))
    coll, et = c.collection(args[0], scope, depth, t)
    if c._random is None:
        c._random = []
    return _call(t, name, et, [coll])


def _clockwise(c, name, args, t, scope, depth):
    arity(name, args, t, 1, 1)
    return _call(t, name, list_of(PLAYER), [c.value(args[0], scope, depth, PLAYER, t)])


def _text(c, name, args, t, scope, depth):
    """A value as a player reads it: a card's display, a player's name, a plain number; a
    list joined by its second argument, a text written in the rules (text(totals, ' or '))."""
    arity(name, args, t, 1, 2)
    a = expr_ir.cards_of(c.sub(args[0], scope, depth))
    parts = [a]
    if len(args) == 2:
        sep = c.sub(args[1], scope, depth, STR)
        if not sep.is_const:
            raise ExprError("text()'s second argument, what joins a list, must be a text written "
                            "in the rules, such as ' or '", offset_of(args[1]))
        parts.append(sep)
    show = shower(a.type, c.sym.display, text_separator(parts))

    def text(v, *_):
        if elem_of(a.type) is not None and a.type != ANY:      # a list is joined: count its length
            c.charge(len(v or ()))
        return show(None, v)
    return c.fold(_call(t, name, STR, parts), text, *parts)


def _range(c, name, args, t, scope, depth):
    """range(n) or range(a, b): the whole numbers from a (default 0) up to b, not included."""
    arity(name, args, t, 1, 2)
    parts = [c.value(a, scope, depth, NUM, t) for a in args]
    return c.fold(_call(t, name, list_of(NUM), parts), number_range, *parts)


def _subsets(c, name, args, t, scope, depth):
    """subsets(xs[, min[, max]]): every choice of min to max elements of xs, in xs's order."""
    arity(name, args, t, 1, 3)
    coll, et = c.collection(args[0], scope, depth, t)
    sizes = [c.value(a, scope, depth, NUM, t) for a in args[1:]]
    return c.fold(_call(t, name, list_of(list_of(et)), [coll, *sizes]), subsets_of, coll, *sizes)


def _groups(c, name, args, t, scope, depth):
    """groups(xs, x => key): the elements with equal keys together (sets of a rank)."""
    arity(name, args, t, 2, 2)
    coll, et = c.collection(args[0], scope, depth, t)
    var, key = c.each(args[1], et, scope, depth)
    if key.type not in (NUM, STR, BOOL, ANY):
        raise ExprError("groups() needs a key that is a number, a text or true/false", offset_of(args[1]))
    return _call(t, name, list_of(list_of(et)), [coll], var, key)


def _runs(c, name, args, t, scope, depth):
    """runs(xs, x => n[, min]): every run of elements whose numbers follow one another (straights)."""
    arity(name, args, t, 2, 3)
    coll, et = c.collection(args[0], scope, depth, t)
    var, key = c.each(args[1], et, scope, depth, NUM)
    size = [c.value(args[2], scope, depth, NUM, t)] if len(args) == 3 else []
    return _call(t, name, list_of(list_of(et)), [coll, *size], var, key)


def _sums(c, name, args, t, scope, depth):
    """sums(xs, x => n, total): every choice of elements whose numbers add up to total."""
    arity(name, args, t, 3, 3)
    coll, et = c.collection(args[0], scope, depth, t)
    var, key = c.each(args[1], et, scope, depth, NUM)
    total = c.value(args[2], scope, depth, NUM, t)
    return _call(t, name, list_of(list_of(et)), [coll, total], var, key)


def _keys(c, name, args, t, scope, depth):
    """keys(m): a map's keys, in the order they were first set."""
    arity(name, args, t, 1, 1)
    m = c.value(args[0], scope, depth, None, t)
    if not is_map(m.type) and m.type != ANY:
        raise ExprError(f"keys() takes a map, not {a_(m.type)}", offset_of(args[0]))
    return c.fold(_call(t, "keys", list_of(STR), [m]), lambda v: list(v), m)


BUILTINS = {
    "count": _count, "len": _count,
    "any": _any_all, "all": _any_all,
    "sum": _sum, "min": _min_max, "max": _min_max,
    "max_by": _by, "min_by": _by,
    "filter": _filter, "map": _map, "first": _first,
    "top": _top_bottom, "bottom": _top_bottom,
    "abs": _abs, "zone": _zone, "player": _player, "random": _random,
    "clockwise": _clockwise, "text": _text, "range": _range, "subsets": _subsets,
    "groups": _groups, "runs": _runs, "sums": _sums, "keys": _keys,
}
