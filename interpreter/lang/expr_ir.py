"""The typed intermediate form of expressions: what the checker produces and the back ends
consume.

One small class per kind of node, names already resolved.  Every node has its `type` (a
type string of lang/types.py), `const` (the folded value, or NOCONST), `maybe_null` (the
value may be null where it is computed: see check/nulls.py) and the lark `tree` it was
checked from: its `offset` in the expression text, and its `text` for messages at run
time, are read from the tree when they are needed (never for the common case).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .types import PILE, ZONE, elem_of

NOCONST = object()


@dataclass(eq=False, kw_only=True)
class Node:
    type: str
    tree: object = None
    const: object = NOCONST
    maybe_null: bool = False

    @property
    def is_const(self) -> bool:
        return self.const is not NOCONST

    @property
    def offset(self) -> int:
        from .syntax import offset_of       # lark, only when a message needs it
        return offset_of(self.tree)

    @property
    def text(self) -> str:
        from .syntax import unparse
        return unparse(self.tree) if self.tree is not None else repr(self.const)


def ir(name, *fields):
    """A node class with `fields` (besides type, tree and const)."""
    ns = {"__annotations__": {f: object for f in fields}}
    return dataclass(eq=False, kw_only=True)(type(name, (Node,), ns))


Const = ir("Const")                         # a folded value: `const`
Missing = ir("Missing")                     # no value: a stand-in after a reported error
ListLit = ir("ListLit", "items")
Local = ir("Local", "name")                 # a local name, or a function's parameter
GlobalVar = ir("GlobalVar", "name")
SharedZone = ir("SharedZone", "name")
PlayerZone = ir("PlayerZone", "owner", "name")
PlayerVar = ir("PlayerVar", "owner", "name")
PileList = ir("PileList", "name")          # the piles of a zone of piles that hold cards, by number
PileCards = ir("PileCards", "obj")         # a pile (its number) read as the zone of its cards
PileOwner = ir("PileOwner", "obj")         # the player a pile was made for, or null
Current = ir("Current")
Players = ir("Players")
Active = ir("Active")
NumPlayers = ir("NumPlayers")
CardAttr = ir("CardAttr", "obj", "name")    # the back end finds the table by name
PlayerProp = ir("PlayerProp", "obj", "name")    # index, seat, name, left, right, eliminated
ZoneProp = ir("ZoneProp", "obj", "name")    # top, bottom, size
Index = ir("Index", "coll", "index")
MapLit = ir("MapLit", "keys", "values")     # {'C': 0, key: value}: texts to values
MapGet = ir("MapGet", "coll", "key")        # m[key]: null where the map has no such key
Neg = ir("Neg", "a")
Not = ir("Not", "a")
And = ir("And", "a", "b")
Or = ir("Or", "a", "b")
IfElse = ir("IfElse", "cond", "yes", "no")
Arith = ir("Arith", "op", "a", "b")         # + - * / // % on numbers
Concat = ir("Concat", "a", "b")             # string + string
Join = ir("Join", "a", "b")                 # list + list
Compare = ir("Compare", "op", "a", "b")
Member = ir("Member", "op", "a", "b")       # a in b, a not in b
BuiltinCall = ir("BuiltinCall", "name", "args", "var", "body")  # body: of each element `var`, or None
UserCall = ir("UserCall", "function", "args")


def cards_of(node):
    """A pile where its cards are meant (counted, gone through, moved from or to): the node
    that reads its cards, as a zone.  Elsewhere a pile stays a pile (its number): compared,
    bound to a name, chosen, kept across decisions."""
    if node.type == PILE:
        return PileCards(type=ZONE, tree=node.tree, obj=node)
    return node


def read_as(node, want):
    """`node` as a value of type `want`: a pile where a zone or a list of cards is wanted is read
    as its cards."""
    if want is not None and node.type == PILE and want != PILE and elem_of(want) is not None:
        return cards_of(node)
    return node


def draws_random(node) -> bool:
    """Whether computing `node` draws from the game's random numbers: random(), directly or
    in a function it calls.  Computing it twice is then not the same as computing it once."""
    if isinstance(node, BuiltinCall) and node.name == "random":
        return True
    if isinstance(node, UserCall) and node.function.random_via is not None:
        return True
    for value in vars(node).values():
        for part in (value if isinstance(value, (list, tuple)) else (value,)):
            if isinstance(part, Node) and draws_random(part):
                return True
    return False


def null_test(cond):
    """(X, is_null) for a condition `X != null` (is_null False) or `X == null` (True), either
    way round, whose X draws no random number (so that X computed again is X), or None: the
    checker narrows X where such a test holds, a back end computes X once."""
    if not isinstance(cond, Compare) or cond.op not in ("==", "!="):
        return None
    for x, other in ((cond.a, cond.b), (cond.b, cond.a)):
        if other.is_const and other.const is None and not x.is_const and not draws_random(x):
            return x, cond.op == "=="
    return None


def element_names(node) -> set:
    """The names `x => ...` binds anywhere in computing `node`, the bodies of the functions it
    calls included: a back end that compiles a body in at a call, its arguments read where
    the body reads them, must not let such a name hide one the arguments read."""
    names = set()
    if isinstance(node, BuiltinCall) and node.var is not None:
        names.add(node.var)
    if isinstance(node, UserCall) and node.function.body is not None:
        names |= element_names(node.function.body)
    for value in vars(node).values():
        for part in (value if isinstance(value, (list, tuple)) else (value,)):
            if isinstance(part, Node):
                names |= element_names(part)
    return names


@dataclass(eq=False)
class Function:
    """A ruleset's function, checked once: its parameters' types, its body, and what a call
    costs once its body (and the bodies it calls) are counted in: `size` parts, `depth` levels.
    `random_via` is the chain of calls by which it uses random(), or None."""
    name: str
    params: list                    # [(name, type)]
    body: Node = field(default=None, repr=False)
    size: int = 0
    depth: int = 0
    random_via: list | None = None

    @property
    def type(self) -> str:
        return self.body.type


@dataclass(eq=False)
class Template:
    """A text with {expression} parts: literal strings and nodes, in order."""
    parts: list = field(default_factory=list)


def text_separator(args) -> str | None:
    """What text(xs, sep) joins a list by: its constant second argument, if it has one."""
    return args[1].const if len(args) > 1 else None
