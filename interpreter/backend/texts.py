"""How values read in the account: cards by their display, players by name, numbers plainly;
and templates, texts with {expression} parts compiled once into closures."""
from __future__ import annotations

import re

from ..errors import RulesError
from ..lang.syntax import ExprError
from ..limits import MAX_NUMBER
from .expressions import BOOL, CARD, PLAYER, ZONE, elem_of, list_of

TEMPLATE_PART = re.compile(r"\{([^{}]+)\}")
SURROGATE = re.compile("[\ud800-\udfff]")


def plain(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float) and v.is_integer():     # not for inf and nan, which int() refuses
        v = int(v)
    if isinstance(v, int) and not -MAX_NUMBER < v < MAX_NUMBER:
        raise RulesError(f"a number beyond the limit of {MAX_NUMBER:.0e} cannot be shown")
    return "—" if v is None else str(v)


def shower(typ: str, display):
    """fn(state, value) -> str for values of type `typ`; `display` is the card display table."""
    if typ == CARD:
        return lambda s, v: "—" if v is None else display[v]
    if typ == PLAYER:
        return lambda s, v: "nobody" if v is None else s.names[v]
    if typ in (ZONE, list_of(CARD)):
        return lambda s, v: " ".join("—" if x is None else display[x] for x in v) if v else "—"
    if typ == list_of(PLAYER):
        return lambda s, v: ", ".join("nobody" if x is None else s.names[x] for x in v) if v else "nobody"
    if typ == BOOL:
        return lambda s, v: "yes" if v else "no"
    if elem_of(typ) is not None:
        return lambda s, v: ", ".join(plain(x) for x in v) if v else "—"
    return lambda s, v: plain(v)


def template(ec, text: str, scope: dict, display, report):
    """fn(state, locals) -> str; each {expression} is compiled by `ec` and shown by type.

    `report(message, offset)` receives each faulty expression with its offset in `text`.
    """
    parts = []
    pos = 0
    literal = TEMPLATE_PART.sub(lambda m: " " * len(m.group()), text)
    for m in SURROGATE.finditer(literal):   # it could not be printed
        report(f"the text holds an unpaired surrogate U+{ord(m.group()):04X}, which is not a character",
               m.start())
    for m in TEMPLATE_PART.finditer(text):
        parts.append(text[pos:m.start()])
        try:
            ec.in_text = True
            c = ec.compile(m.group(1), scope)
            show, f = shower(c.type, display), c.fn
            parts.append(lambda s, l, show=show, f=f: show(s, f(s, l)))
        except ExprError as e:
            report(e.message, m.start(1) + e.offset)
            parts.append("?")
        finally:
            ec.in_text = False
        pos = m.end()
    parts.append(text[pos:])
    if all(isinstance(p, str) for p in parts):
        joined = "".join(parts)
        return lambda s, l: joined
    return lambda s, l: "".join(p if isinstance(p, str) else p(s, l) for p in parts)
