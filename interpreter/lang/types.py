"""The types of the expression language, shared by the checker and the back ends.

A type is a string: a base type, `list[T]` for a list of T, or `map[T]` for a map from
texts to T (a collection of its keys: `for_each`, `in` and `count` read them, `m[key]` the
value).  `any` stands for a value whose type is not known (it is compatible with every
type); `null` is the type of `null`.
"""
from __future__ import annotations

NUM, BOOL, STR, CARD, PLAYER, ZONE, NULL, ANY = (
    "number", "bool", "string", "card", "player", "zone", "null", "any")
PILE = "pile"       # one pile of a zone of piles: its run-time value is the pile's number, not its cards


class Unsettled(str):
    """The type of a local name that a block before it bound again with another type on some
    paths (locals outlive their block): equal to the type it had, and reading it is a problem
    that `message` says (check/expressions.py)."""

    def __new__(cls, typ: str, message: str):
        t = super().__new__(cls, typ)
        t.message = message
        return t


class Nullable(str):
    """The type of a local name that may hold null (an element of a list with null in it, a
    parameter a call gave a value that may be null): equal to the type itself, so every test
    of types holds as before; only the null checks (check/nulls.py) look at the class."""
    __slots__ = ()


def list_of(t: str) -> str:
    return f"list[{t}]"


def map_of(t: str) -> str:
    return f"map[{t}]"


def is_map(t) -> bool:
    return isinstance(t, str) and t.startswith("map[")


def value_of(t: str) -> str:
    """The type of a map's values."""
    return t[4:-1]


MAP_VALUES = (NUM, STR, PLAYER, BOOL)     # what a map may hold (no cards: nothing for a bot to rename)


def elem_of(t: str):
    """Element type of a collection type, or None if `t` is not a collection (a map's
    elements are its keys)."""
    if t == ZONE:
        return CARD
    if t.startswith("list["):
        return t[5:-1]
    if t.startswith("map["):
        return STR
    if t == ANY:
        return ANY
    return None


def holds_cards(t: str) -> bool:
    """A card, a zone (a local holding one holds its cards), or a list (of lists ...) of
    them: a value whose cards an imagined deal must rename."""
    return t in (CARD, ZONE) or (isinstance(t, str) and t.startswith("list[") and holds_cards(t[5:-1]))


def compatible(a: str, b: str) -> bool:
    if a == b or ANY in (a, b) or NULL in (a, b):
        return True
    if is_map(a) or is_map(b):
        return is_map(a) and is_map(b) and compatible(value_of(a), value_of(b))
    ea, eb = elem_of(a), elem_of(b)
    return ea is not None and eb is not None and compatible(ea, eb)


def a_(t: str) -> str:
    """The type as a message says it: 'a card', 'a list of numbers'."""
    if t.startswith("list["):
        return f"a list of {elem_of(t)}s"
    if t.startswith("map["):
        return f"a map of {value_of(t)}s"
    return {"any": "a value", "null": "null", "options": "the options table"}.get(
        t, ("an " if t[0] in "aeiou" else "a ") + t)


def type_of_value(v) -> str:
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, (int, float)):
        return NUM
    if v is None:
        return NULL
    if isinstance(v, str):
        return STR
    if isinstance(v, (list, tuple)):
        return list_of(type_of_value(v[0]) if v else ANY)
    if isinstance(v, dict):
        return map_of(type_of_value(next(iter(v.values()))) if v else ANY)
    return ANY
