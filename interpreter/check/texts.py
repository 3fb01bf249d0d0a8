"""Texts with {expression} parts (logs, labels): checked into a Template of literal parts
and expression nodes.  random() is refused in them: the game would otherwise depend on
whether its account is kept."""
from __future__ import annotations

import re

from ..lang import expr_ir as ir
from ..lang.syntax import ExprError

TEMPLATE_PART = re.compile(r"\{([^{}]+)\}")
SURROGATE = re.compile("[\ud800-\udfff]")


def template(checker, text: str, scope: dict, report, warned=None) -> ir.Template:
    """The Template of `text`; `report(message, offset)` receives each faulty part with its
    offset in `text` (that part then shows as '?'); `warned(offset)` is called after each
    part, at its offset, to report its warnings."""
    parts = []
    pos = 0
    literal = TEMPLATE_PART.sub(lambda m: " " * len(m.group()), text)
    for m in SURROGATE.finditer(literal):   # it could not be printed
        report(f"the text holds an unpaired surrogate U+{ord(m.group()):04X}, which is not a character",
               m.start())
    for m in TEMPLATE_PART.finditer(text):
        parts.append(text[pos:m.start()])
        checker.in_text = True
        try:
            parts.append(checker.check(m.group(1), scope))
        except ExprError as e:
            report(e.message, m.start(1) + e.offset)
            parts.append("?")
        finally:
            checker.in_text = False
            if warned is not None:
                warned(m.start(1))
        pos = m.end()
    parts.append(text[pos:])
    return ir.Template(parts)
