"""The closures of the built-in functions: each takes the back end and a checked
BuiltinCall node and returns fn(state, locals); the table at the end maps names to them.

Functions of each element (`c => ...`) bind the element in the locals while they run:
collections are finite, so every call ends.  Every function that goes through a
collection charges its length to the work budget (`State.work`, at most MAX_WORK between
two decisions; see runtime/effects.too_much_work), once per call and written out in each
closure, so that functions of each element nested in one another cannot run for hours.
A null where a value is needed stops the game with a RulesFault naming the expression
that was null (Closures.fault).
"""
from __future__ import annotations

from ..lang.expr_ir import text_separator
from ..lang.types import ANY, elem_of
from ..lang.values import list_slice, number_range, shower, subsets_of, sum_in_order
from ..errors import RulesFault
from ..limits import MAX_LIST, MAX_WORK
from ..runtime.effects import too_much_work


def _nothing(c, node, cf):
    return c.fault([node.args[0]], f"so {node.name}() has nothing to go through", [cf])


def _count(c, node):
    cf = c.fn(node.args[0])
    fault = _nothing(c, node, cf)
    if node.body is None:
        def size(s, l):
            try:
                return len(cf(s, l))
            except TypeError:
                fault(s, l)
                raise
        return size
    var, pf = node.var, c.each(node.var, node.body)

    def count(s, l):
        xs = cf(s, l)
        try:
            w = s.work = s.work + len(xs)
        except TypeError:
            fault(s, l)
            raise
        if w > MAX_WORK:
            too_much_work()
        n = 0
        for x in xs:
            l[var] = x
            if pf(s, l):
                n += 1
        return n
    return count


def _any_all(c, node):
    cf = c.fn(node.args[0])
    fault = _nothing(c, node, cf)
    if node.body is None:
        agg = any if node.name == "any" else all

        def truth(s, l):
            xs = cf(s, l)
            try:
                w = s.work = s.work + len(xs)
            except TypeError:
                fault(s, l)
                raise
            if w > MAX_WORK:
                too_much_work()
            return agg(xs)
        return truth
    var, pf = node.var, c.each(node.var, node.body)
    if node.name == "any":
        def fn(s, l):
            xs = cf(s, l)
            try:
                w = s.work = s.work + len(xs)
            except TypeError:
                fault(s, l)
                raise
            if w > MAX_WORK:
                too_much_work()
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
            except TypeError:
                fault(s, l)
                raise
            if w > MAX_WORK:
                too_much_work()
            for x in xs:
                l[var] = x
                if not pf(s, l):
                    return False
            return True
    return fn


def _values(c, node):
    """fn(s, l) -> the values agg(coll[, x => f]) works on, charged to the budget."""
    cf = c.fn(node.args[0])
    fault = _nothing(c, node, cf)
    if node.body is None:
        def values(s, l):
            xs = cf(s, l)
            try:
                w = s.work = s.work + len(xs)
            except TypeError:
                fault(s, l)
                raise
            if w > MAX_WORK:
                too_much_work()
            return xs
        return values
    var, bf = node.var, c.each(node.var, node.body)

    def mapped(s, l):
        xs = cf(s, l)
        try:
            w = s.work = s.work + len(xs)
        except TypeError:
            fault(s, l)
            raise
        if w > MAX_WORK:
            too_much_work()
        out = []
        for x in xs:
            l[var] = x
            out.append(bf(s, l))
        return out
    return mapped


def _sum(c, node):
    vf = _values(c, node)
    null = c.complaint(_last_arg(node), "is null for some element, so sum() cannot add it")
    big = c.complaint(node, "goes beyond the numbers the rules can compute with (about 1e308)")

    def total(s, l):
        v = vf(s, l)
        try:
            return sum_in_order(v)
        except TypeError:
            if None in v:
                null()
            raise
        except OverflowError:
            big()
    return total


def _last_arg(node):
    """The last argument as written (`c => c.points`, or the list): what a message names."""
    return node.tree.children[1].children[-1]


def _min_max(c, node):
    vf = _values(c, node)
    agg = min if node.name == "min" else max
    null = c.complaint(_last_arg(node), f"is null for some element, so {node.name}() cannot compare it")

    def extreme(s, l):
        v = vf(s, l)
        try:
            return agg(v) if v else None
        except TypeError:
            if None in v:
                null()
            raise
    return extreme


def _by(c, node):
    cf = c.fn(node.args[0])
    var, kf = node.var, c.each(node.var, node.body)
    better = (lambda a, b: a > b) if node.name == "max_by" else (lambda a, b: a < b)
    fault = _nothing(c, node, cf)
    null = c.complaint(_last_arg(node), f"is null for some element, so {node.name}() cannot compare it")

    def best(s, l):
        xs = cf(s, l)
        try:
            w = s.work = s.work + len(xs)
        except TypeError:
            fault(s, l)
            raise
        if w > MAX_WORK:
            too_much_work()
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
    return best


def _filter(c, node):
    cf = c.fn(node.args[0])
    var, pf = node.var, c.each(node.var, node.body)
    fault = _nothing(c, node, cf)

    def keep(s, l):
        xs = cf(s, l)
        try:
            w = s.work = s.work + len(xs)
        except TypeError:
            fault(s, l)
            raise
        if w > MAX_WORK:
            too_much_work()
        out = []
        for x in xs:
            l[var] = x
            if pf(s, l):
                out.append(x)
        return out
    return keep


def _first(c, node):
    arg = node.args[0]
    if node.body is not None and type(arg).__name__ == "BuiltinCall" and arg.name == "clockwise":
        return _first_clockwise(c, node, arg)
    cf = c.fn(arg)
    if node.body is None:
        return lambda s, l: (v[0] if (v := cf(s, l)) else None)
    var, pf = node.var, c.each(node.var, node.body)
    fault = _nothing(c, node, cf)

    def first(s, l):
        xs = cf(s, l)
        try:
            w = s.work = s.work + len(xs)
        except TypeError:
            fault(s, l)
            raise
        if w > MAX_WORK:
            too_much_work()
        for x in xs:
            l[var] = x
            if pf(s, l):
                return x
        return None
    return first


def _first_clockwise(c, node, clockwise):
    """first(clockwise(p), q => ...): the seats are walked from p until one matches, not
    listed first (finding the next seat that may play costs the seats passed, not all)."""
    f = c.fn(clockwise.args[0])
    fault = c.fault(clockwise.args, "so clockwise() has no player to start from", [f])
    var, pf = node.var, c.each(node.var, node.body)

    def first(s, l):
        p = f(s, l)
        out = s.out
        n = len(s.players)
        w = s.work = s.work + n
        if w > MAX_WORK:
            too_much_work()
        try:
            p + 0
        except TypeError:
            fault(s, l)
            raise
        for i in range(n):
            q = (p + i) % n
            if not out[q]:
                l[var] = q
                if pf(s, l):
                    return q
        return None
    return first


def _top(c, node):
    cf = c.fn(node.args[0])
    return lambda s, l: (z[-1] if (z := cf(s, l)) else None)


def _bottom(c, node):
    cf = c.fn(node.args[0])
    return lambda s, l: (z[0] if (z := cf(s, l)) else None)


def _abs(c, node):
    f = c.fn(node.args[0])
    fault = c.fault(node.args, "so abs() has no number", [f])

    def abs_(s, l):
        try:
            return abs(f(s, l))
        except TypeError:
            fault(s, l)
            raise
    return abs_


def _player(c, node):
    f = c.fn(node.args[0])
    fault = c.fault(node.args, "so player() has no seat number", [f])
    odd = c.complaint(node.args[0], "is not a finite number, so player() has no seat")

    def player(s, l):
        try:
            return s.players[int(f(s, l)) % len(s.players)]
        except TypeError:
            fault(s, l)
            raise
        except (OverflowError, ValueError):
            odd()
    return player


def _random(c, node):
    cf = c.fn(node.args[0])

    def pick(s, l):
        items = cf(s, l)
        return items[s.rng.below(len(items))] if items else None
    return pick


def _clockwise(c, node):
    f = c.fn(node.args[0])
    fault = c.fault(node.args, "so clockwise() has no player to start from", [f])

    def clockwise(s, l):
        p = f(s, l)
        n = len(s.players)
        try:
            return [q for q in ((p + i) % n for i in range(n)) if not s.out[q]]
        except TypeError:
            fault(s, l)
            raise
    return clockwise


def _text(c, node):
    """A value as a player reads it: a card's display, a player's name, a plain number."""
    a = node.args[0]
    f = c.fn(a)
    show = shower(a.type, c.display, text_separator(node.args))
    if elem_of(a.type) is not None and a.type != ANY:      # a list is joined: count its length
        def text(s, l):
            v = f(s, l)
            w = s.work = s.work + len(v or ())
            if w > MAX_WORK:
                too_much_work()
            return show(s, v)
        return text
    return lambda s, l: show(s, f(s, l))


def _charged_list_of(make):
    """A built-in that makes a list from its arguments (range, a slice), the list's length
    charged to the work budget."""
    def build(c, node):
        fs = [c.fn(a) for a in node.args]

        def made(s, l):
            xs = make(*(f(s, l) for f in fs))
            w = s.work = s.work + len(xs)
            if w > MAX_WORK:
                too_much_work()
            return xs
        return made
    return build


_slice = _charged_list_of(list_slice)
_range = _charged_list_of(number_range)
_subsets = _charged_list_of(subsets_of)


def _elements_keyed(c, node):
    """fn(state, locals) -> (xs, the key of each) for a built-in of a list and a function of
    each element, xs charged to the work budget; a null key stops the game, said at the function."""
    cf = c.fn(node.args[0])
    var, kf = node.var, c.each(node.var, node.body)
    fault = _nothing(c, node, cf)
    null = c.complaint(node.tree.children[1].children[1], f"is null for some element, so {node.name}() cannot use it")

    def keyed(s, l):
        xs = cf(s, l)
        try:
            w = s.work = s.work + len(xs)
        except TypeError:
            fault(s, l)
            raise
        if w > MAX_WORK:
            too_much_work()
        keys = []
        for x in xs:
            l[var] = x
            k = kf(s, l)
            if k is None:
                null()
            keys.append(k)
        return xs, keys
    return keyed


def _made(s, out: list, name: str) -> list:
    """A list of choices a built-in made: bounded as subsets() is, its size charged."""
    if len(out) > MAX_LIST:
        raise RulesFault(f"{name}() would make more than {MAX_LIST} choices: narrow it")
    w = s.work = s.work + len(out)
    if w > MAX_WORK:
        too_much_work()
    return out


def _groups(c, node):
    keyed = _elements_keyed(c, node)

    def grouped(s, l):
        xs, keys = keyed(s, l)
        out = {}
        for x, k in zip(xs, keys):
            out.setdefault(k, []).append(x)
        return list(out.values())
    return grouped


def _runs(c, node):
    """Each run of consecutive whole numbers k, k+1, ... of at least `min` (default 3), one
    element per number (the first with it, in the list's order), by start and then length."""
    keyed = _elements_keyed(c, node)
    least = c.fn(node.args[1]) if len(node.args) > 1 else None

    def ran(s, l):
        xs, keys = keyed(s, l)
        n = 3 if least is None else least(s, l)
        if n is None or not float(n).is_integer() or any(not float(k).is_integer() for k in keys):
            raise RulesFault("runs() counts in whole numbers")
        first = {}
        for x, k in zip(xs, keys):
            first.setdefault(int(k), x)
        ordered = sorted(first)
        out, i = [], 0
        while i < len(ordered):
            j = i
            while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
                j += 1
            streak = [first[k] for k in ordered[i:j + 1]]
            out.extend(streak[a:b] for a in range(len(streak)) for b in range(a + max(1, int(n)), len(streak) + 1))
            i = j + 1
        return _made(s, out, "runs")
    return ran


def _sums(c, node):
    """Every choice of elements (each in the list's order) whose numbers add up to the total;
    where no number is negative, a branch that cannot reach the total is left at once.  Every
    step of the search is charged to the work budget."""
    keyed = _elements_keyed(c, node)
    tf = c.fn(node.args[1])

    def summed(s, l):
        xs, keys = keyed(s, l)
        total = tf(s, l)
        if total is None:
            raise RulesFault("sums() needs a total, but it is null")
        return _made(s, _adding_up(s, xs, keys, total), "sums")
    return summed


def _adding_up(s, xs, keys, total) -> list:
    n, pruned = len(keys), all(k >= 0 for k in keys)
    left = [0] * (n + 1)                # what the elements from i on add up to
    for i in range(n - 1, -1, -1):
        left[i] = left[i + 1] + keys[i]
    out, stack = [], [(0, 0, ())]       # (next element, sum so far, indexes taken): taking it first
    while stack:
        i, sum_, taken = stack.pop()
        s.work += 1
        if s.work > MAX_WORK:
            too_much_work()
        if pruned and (sum_ > total or sum_ + left[i] < total):
            continue
        if i == n:
            if sum_ == total and taken:
                out.append([xs[j] for j in taken])
                if len(out) > MAX_LIST:
                    raise RulesFault(f"sums() would make more than {MAX_LIST} choices: narrow it")
            continue
        stack.append((i + 1, sum_, taken))
        stack.append((i + 1, sum_ + keys[i], taken + (i,)))
    return out


def _keys(c, node):
    mf = c.fn(node.args[0])
    fault = _nothing(c, node, mf)

    def keys(s, l):
        m = mf(s, l)
        try:
            w = s.work = s.work + len(m)
        except TypeError:
            fault(s, l)
            raise
        if w > MAX_WORK:
            too_much_work()
        return list(m)
    return keys


BUILTINS = {
    "count": _count, "keys": _keys, "any": _any_all, "all": _any_all,
    "sum": _sum, "min": _min_max, "max": _min_max,
    "max_by": _by, "min_by": _by,
    "filter": _filter, "map": _values, "first": _first,
    "top": _top, "bottom": _bottom,
    "abs": _abs, "player": _player, "random": _random,
    "clockwise": _clockwise, "text": _text, "range": _range, "slice": _slice, "subsets": _subsets,
    "groups": _groups, "runs": _runs, "sums": _sums,
}
