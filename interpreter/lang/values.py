"""Pure helpers on the language's values, shared by the checker (which folds constants)
and the back ends (which compute at run time): arithmetic that refuses a zero divisor, and
how a value reads as text in the account."""
from __future__ import annotations

import itertools
import math
import re

from ..errors import RulesFault
from ..limits import MAX_LIST, MAX_NUMBER, MAX_NUMBER_TEXT
from .types import ANY, BOOL, CARD, PLAYER, ZONE, elem_of, list_of


WHOLE_TEXT = re.compile(r"[-+]?[0-9]+")
NUMBER_TEXT = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def number_from_text(text: str, whole: bool = False):
    """The number a person wrote (an option on the command line, a seed), or None.  Only
    ASCII digits with an optional sign (and, unless `whole`, a point and an exponent):
    Python's int() and float() would also take '1_0', other scripts' digits and spaces,
    which nobody means as a number here."""
    text = str(text).strip()
    if len(text) > MAX_NUMBER_TEXT or not (WHOLE_TEXT if whole else NUMBER_TEXT).fullmatch(text):
        return None
    return int(text) if whole else float(text)


def divide(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    r = a / b
    return int(r) if r.is_integer() else r


def sum_in_order(xs):
    """sum() of numbers as Python 3.11 adds them, left to right: from 3.12, sum() compensates
    the rounding of floats, so the same seed would give a different game with another Python
    (and another than the native kernel's, which adds as 3.11 does)."""
    t = sum(xs)
    if type(t) is float:
        t = 0
        for x in xs:
            t = t + x
    return t


def floordiv(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a // b


def mod(a, b):
    if b == 0:
        raise ZeroDivisionError("modulo by zero")
    return a % b


def number_range(lo, hi=None) -> list:
    """range(hi) or range(lo, hi): the whole numbers from lo (default 0) up to hi, not
    included; at most limits.MAX_LIST of them."""
    if hi is None:
        lo, hi = 0, lo
    if lo is None or hi is None:
        raise RulesFault("range() needs two numbers, but one is null")
    if not (float(lo).is_integer() and float(hi).is_integer()):
        raise RulesFault(f"range() counts in whole numbers, not {lo if not float(lo).is_integer() else hi}")
    lo, hi = int(lo), int(hi)
    if hi - lo > MAX_LIST:
        raise RulesFault(f"range({lo}, {hi}) would hold more than {MAX_LIST} numbers")
    return list(range(lo, hi))


def subsets_of(xs, lo=1, hi=None) -> list:
    """Every choice of lo to hi elements of xs (default: 1 to all), each in xs's order, the
    smaller first: subsets([a, b, c], 2) is [[a, b], [a, c], [b, c], [a, b, c]]; at most
    limits.MAX_LIST of them."""
    if xs is None:
        raise RulesFault("subsets() needs a list or zone, but this is null")
    n = len(xs)
    for v in (lo, hi):
        if v is not None and not float(v).is_integer():
            raise RulesFault(f"subsets() counts in whole numbers, not {v}")
    lo = max(0, int(lo if lo is not None else 1))
    hi = min(n, int(hi) if hi is not None else n)
    if sum(math.comb(n, k) for k in range(lo, hi + 1)) > MAX_LIST:
        raise RulesFault(f"subsets() of {n} elements would make more than {MAX_LIST} choices: "
                         "narrow it (fewer elements, or a smaller size)")
    return [list(c) for k in range(lo, hi + 1) for c in itertools.combinations(xs, k)]


def list_slice(xs, lo, hi) -> list:
    """xs[lo:hi] as Python slices it (negative counts from the end, null: that end)."""
    if xs is None:
        raise RulesFault("a slice needs a list or zone, but this is null")
    for v in (lo, hi):
        if v is not None and not float(v).is_integer():
            raise RulesFault(f"a slice counts in whole numbers, not {v}")
    return list(xs[None if lo is None else int(lo):None if hi is None else int(hi)])


def plain(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float) and v.is_integer():     # not for inf and nan, which int() refuses
        v = int(v)
    if isinstance(v, int) and not -MAX_NUMBER < v < MAX_NUMBER:
        raise RulesFault(f"a number beyond the limit of {MAX_NUMBER:.0e} cannot be shown")
    return "—" if v is None else str(v)


def shower(typ: str, display, sep: str | None = None):
    """fn(state, value) -> str for values of type `typ`; `display` is the card display table.
    Only players need the state (their names), so constants of other types show without one.
    A list is joined by `sep` (text(xs, ' or ')); by default cards by a space, the rest by ', '."""
    if typ == CARD:
        return lambda s, v: "—" if v is None else display[v]
    if typ == PLAYER:
        return lambda s, v: "nobody" if v is None else s.names[v]
    if typ in (ZONE, list_of(CARD)):
        by = " " if sep is None else sep
        return lambda s, v: by.join("—" if x is None else display[x] for x in v) if v else "—"
    by = ", " if sep is None else sep
    if isinstance(typ, str) and typ.startswith("map["):        # C: Player 1, D: nobody
        value = shower(typ[4:-1], display)
        return lambda s, v: by.join(f"{k}: {value(s, x)}" for k, x in v.items()) if v else "—"
    if typ == list_of(PLAYER):
        return lambda s, v: by.join("nobody" if x is None else s.names[x] for x in v) if v else "nobody"
    if typ == BOOL:
        return lambda s, v: "yes" if v else "no"
    inner = elem_of(typ)
    if inner not in (None, ANY) and elem_of(inner) is not None:   # lists of lists: each shown as its type says
        show = shower(inner, display)
        return lambda s, v: by.join("—" if x is None else show(s, x) for x in v) if v else "—"
    if inner is not None:
        return lambda s, v: by.join(plain(x) for x in v) if v else "—"
    return lambda s, v: plain(v)


# Why a value may be null, by the built-in or zone attribute that gave it: the checker says
# it when it refuses an untested value, the run time when a null stops the game.
NULL_REASONS = {"top": "top of an empty zone", "bottom": "bottom of an empty zone", "first": "no element matched",
                "max_by": "an empty list", "min_by": "an empty list", "min": "an empty list",
                "max": "an empty list", "random": "an empty list"}
