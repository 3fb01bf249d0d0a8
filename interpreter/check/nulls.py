"""Null in the type system: which values may be null, which tests rule it out, and what the
checker says when a value that may be null is used where a value is needed.

A node's `maybe_null` is set where it is built (check/expressions.py): the `null` literal,
the top or bottom of a zone, first(), min(), max(), min_by(), max_by(), random(), an index,
a branch that may be null, a call of a function whose body may be null, and a local name
whose type is `Nullable` (lang/types.py).  A variable declared `initial: null` is not: the
flow sets it before it is read, and the run-time message covers a mistake.

A fact is what a condition tells where it holds: ("value", TEXT), the expression written
TEXT is not null (`X != null`, or `k in m` for `m[k]`); ("items", TEXT), the list or zone written TEXT is not empty, so its top,
bottom, first, min, max (and [0], [-1]) are not null.  `players` and a constant list
with elements are never empty.  Expressions are compared by their
text: a fact about `top(pile)` says nothing about `top(current.hand)`.
"""
from __future__ import annotations

from ..lang import expr_ir
from ..lang.types import BOOL, NUM, STR, Nullable, is_map
from ..lang.values import NULL_REASONS

NO_FACTS = frozenset()
UNREACHABLE_FACT = ("unreachable",)        # in a set of facts: the code there never runs (see facts)
UNREACHABLE = frozenset({UNREACHABLE_FACT})
# Calls of these on a list or zone that is not empty are not null (first() only without a test).
_OF_ITEMS = {"top", "bottom", "min", "max", "min_by", "max_by", "random"}
_EMPTY_ELSE = {NUM: "0", BOOL: "false", STR: "''"}
# Nodes written without an operator: `X != null` needs no brackets round them.
_OPERANDS = (expr_ir.Const, expr_ir.Local, expr_ir.GlobalVar, expr_ir.BuiltinCall, expr_ir.UserCall, expr_ir.ZoneProp, expr_ir.Index, expr_ir.MapGet, expr_ir.CardAttr,
             expr_ir.PlayerProp, expr_ir.PlayerVar, expr_ir.PlayerZone, expr_ir.SharedZone, expr_ir.ListLit)


def may_be_null(node, facts) -> bool:
    """Whether `node` may be null where `facts` hold."""
    return node.maybe_null and not known(node, facts)


def known(node, facts) -> bool:
    """Whether `facts` rule out null for `node` (texts are made only when there are facts)."""
    if facts and (("value", node.text) in facts or UNREACHABLE_FACT in facts):
        return True
    coll = _collection_of(node)
    if coll is None or holds_null(coll):        # a list with null in it: its top may be null
        return False
    return _never_empty(coll) or bool(facts) and ("items", coll.text) in facts


def _never_empty(coll) -> bool:
    """`players`, or a constant list with elements, none of them null."""
    if isinstance(coll, expr_ir.Players):
        return True
    return coll.is_const and isinstance(coll.const, (list, tuple)) and len(coll.const) > 0 \
        and all(v is not None for v in coll.const)


def _collection_of(node):
    """The list or zone `node` is an element of, when its not being empty makes `node` not null."""
    if isinstance(node, expr_ir.ZoneProp) and node.name in ("top", "bottom"):
        return node.obj
    if isinstance(node, expr_ir.BuiltinCall) and (node.name in _OF_ITEMS or node.name == "first" and node.body is None):
        return node.args[0]
    if isinstance(node, expr_ir.Index) and node.index.is_const and node.index.const in (0, -1):
        return node.coll
    return None


def holds_null(node) -> bool:
    """Whether a list may hold null among its elements (as `filter(xs, ...) + [null]`)."""
    if node.is_const:
        return isinstance(node.const, (list, tuple)) and any(v is None for v in node.const)
    if isinstance(node, expr_ir.ListLit):
        return any(i.maybe_null for i in node.items)
    if isinstance(node, (expr_ir.Join, expr_ir.IfElse)):
        return holds_null(node.a if isinstance(node, expr_ir.Join) else node.yes) or \
            holds_null(node.b if isinstance(node, expr_ir.Join) else node.no)
    if isinstance(node, expr_ir.BuiltinCall) and node.name == "filter":
        return holds_null(node.args[0])
    if isinstance(node, expr_ir.BuiltinCall) and node.name == "map":
        return node.body.maybe_null
    return False


def element_type(typ: str, coll) -> str:
    """The type of an element of `coll`: Nullable if the list may hold null."""
    return Nullable(typ) if holds_null(coll) else typ


def facts(cond) -> tuple:
    """(facts where `cond` holds, facts where it does not).  Where a constant condition (an
    option folded it) cannot hold, nothing runs: every fact holds there (UNREACHABLE)."""
    if cond.is_const and isinstance(cond.const, bool):
        return (NO_FACTS, UNREACHABLE) if cond.const else (UNREACHABLE, NO_FACTS)
    if isinstance(cond, expr_ir.Not):
        yes, no = facts(cond.a)
        return no, yes
    if isinstance(cond, (expr_ir.And, expr_ir.Or)):
        (ya, na), (yb, nb) = facts(cond.a), facts(cond.b)
        return (ya | yb, na & nb) if isinstance(cond, expr_ir.And) else (ya & yb, na | nb)
    if isinstance(cond, expr_ir.Compare):
        return _null_test(cond) or _size_test(cond) or (NO_FACTS, NO_FACTS)
    if isinstance(cond, expr_ir.Member) and is_map(cond.b.type):      # `k in m`: m[k] is not null
        fact = frozenset({("value", f"{cond.b.text}[{cond.a.text}]")})
        return (fact, NO_FACTS) if cond.op == "in" else (NO_FACTS, fact)
    return NO_FACTS, NO_FACTS


def _null_test(cond):
    """The facts of `X != null` and `X == null` (either way round; see expr_ir.null_test)."""
    tested = expr_ir.null_test(cond)
    if tested is None:
        return None
    fact = frozenset({("value", tested[0].text)})
    return (NO_FACTS, fact) if tested[1] else (fact, NO_FACTS)


_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


def _size_test(cond):
    """The facts of `count(Z) > 0`, `Z.size != 0`, `count(Z) == 0`, `0 < len(Z)`, ..."""
    for size, k, op in ((cond.a, cond.b, cond.op), (cond.b, cond.a, _FLIP[cond.op])):
        coll = _sized(size)
        if coll is None or not k.is_const or isinstance(k.const, bool) or not isinstance(k.const, (int, float)):
            continue
        n = k.const
        fact = frozenset({("items", coll.text)})
        if op == ">" and n >= 0 or op == ">=" and n >= 1 or op == "!=" and n == 0 or op == "==" and n >= 1:
            return fact, NO_FACTS
        if op == "==" and n == 0 or op == "<" and n <= 1 or op == "<=" and n < 1:
            return NO_FACTS, fact
    return None


def _sized(node):
    """The list or zone whose number of elements `node` is, or None."""
    if isinstance(node, expr_ir.BuiltinCall) and node.name == "count" and node.body is None:
        return node.args[0]
    if isinstance(node, expr_ir.ZoneProp) and node.name == "size":
        return node.obj
    return None


def why(node) -> str:
    """Why `node` may be null, as a message says it: ' (top of an empty zone)', or ''."""
    if isinstance(node, (expr_ir.ZoneProp, expr_ir.BuiltinCall)) and node.name in NULL_REASONS:
        return f" ({NULL_REASONS[node.name]})"
    if isinstance(node, expr_ir.Index):
        return " (past the end of the list)"
    if isinstance(node, expr_ir.MapGet):
        return " (the map may have no such key)"
    if isinstance(node, expr_ir.IfElse) and getattr(node.tree, "data", None) == "safe_attr":
        return " (?. gives null where its left side is null)"
    if isinstance(node, expr_ir.IfElse):
        return why(node.yes if node.yes.maybe_null else node.no)
    if isinstance(node, expr_ir.UserCall):
        inner = why(node.function.body)
        return f" ({node.function.name}() may give null{': ' + inner[2:-1] if inner else ''})"
    if isinstance(node, expr_ir.Local):
        return " (it may be bound to null)"
    return ""


# A part named in a warning longer than this is shortened: a hint never repeats a whole expression.
BRIEF = 40


def brief(text: str, most: int = BRIEF) -> str:
    """`text`, or its start and '…' when it is longer than `most` characters."""
    return text if len(text) <= most else text[:most - 1] + "…"


def message(node) -> str:
    """What the checker says of `node`, which may be null where its value is needed: a
    warning (the run time stops the game with a positioned error if it is null), except for
    the literal null, which is an error."""
    if node.is_const and node.const is None:
        return "null has no value: it cannot be used here"
    return f"'{brief(node.text)}' may be null here{why(node)}"


def hint(node, attribute: str | None, typ: str) -> str:
    """A short way to say it safely: `X?.attribute ?? default` (or `X ?? default`) or a test
    of `X != null`, with X the part that may be null (a long one is not written out)."""
    text = node.text
    if len(text) > BRIEF:
        return "use ?. or ?? on it (see docs/language.md, 'Null'), or test that it is not null first"
    part = text if isinstance(node, _OPERANDS) or getattr(node.tree, "data", None) == "safe_attr" else f"({text})"
    default = _default(typ)
    safe = f"{part}?.{attribute}" if attribute is not None else part if default else None
    if safe is not None and default:
        safe += f" ?? {default}"
    test = f"test `{part} != null` first"
    return f"write `{safe}`, or {test}" if safe else test[0].upper() + test[1:]


def _default(typ: str) -> str | None:
    """A value of `typ` to put instead of null, as it is written, or None."""
    if typ in _EMPTY_ELSE:
        return _EMPTY_ELSE[typ]
    return "[]" if typ.startswith("list[") else None
