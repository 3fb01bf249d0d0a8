"""Texts with {expression} parts (logs, labels): checked into a Template of literal parts
and expression nodes.  random() is refused in them: the game would otherwise depend on
whether its account is kept."""
from __future__ import annotations

import re

from ..lang import expr_ir
from ..lang.syntax import ExprError, free_names
from ..lang.types import NUM, PLAYER, elem_of
from ..lang.values import shower
from ..limits import MAX_NAME_PARTS

TEMPLATE_PART = re.compile(r"\{([^{}]+)\}")
SURROGATE = re.compile("[\ud800-\udfff]")


def template(checker, text: str, scope: dict, report, warned=None) -> expr_ir.Template:
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
            parts.append(checker.check_tree(checker.parsed(m.group(1)), scope))
        except ExprError as e:
            report(e.message, m.start(1) + e.offset)
            parts.append("?")
        finally:
            checker.in_text = False
            if warned is not None:
                warned(m.start(1))
        pos = m.end()
    parts.append(text[pos:])
    return expr_ir.Template(parts)


def seat_names(checker, text: str, seats: int, report) -> tuple:
    """The name of each seat 1..`seats` by the text `text` (a ruleset's `player_name`), made
    now: a name is fixed before the game begins, so each part may use `seat` (the seat's
    number), the options and constants, and must give a value for every seat the ruleset
    allows (a list indexed past its end is refused here, at the index, not at the table).
    `report(message, offset)` as for template(); () when a part is refused."""
    def said(message, offset):
        report(message + (f"; {NAME_USES}" if message.startswith("unknown name") else ""), offset)
    checked = template(checker, text, {"seat": NUM}, said)
    if any(p == "?" for p in checked.parts):
        return ()
    parts = [(m.start(1), checker.parsed(m.group(1))) for m in TEMPLATE_PART.finditer(text)]
    if len(parts) > MAX_NAME_PARTS:
        report(f"a player's name may have at most {MAX_NAME_PARTS} {{...}} parts", parts[MAX_NAME_PARTS][0])
        return ()
    literals, names, alike = TEMPLATE_PART.split(text)[::2], [], {}     # alike: the parts without seat
    for seat in range(1, seats + 1):
        filled = list(literals)
        for k, (offset, tree) in enumerate(parts):
            shown = alike.get(k)
            if shown is None:
                shown = _fixed_part(checker, tree, seat, seats, lambda message, at: report(message, offset + at))
                if shown is None:
                    return ()
                if "seat" not in free_names(tree):
                    alike[k] = shown
            filled[k] += shown
        names.append("".join(filled))
    return tuple(names)


NAME_USES = "a player's name is made before the game begins: it may use seat (the seat's number), the options and constants"


def _fixed_part(checker, tree, seat, seats, report):
    """The text of one {part} of a player's name for seat `seat`, or None, reported."""
    where = f"for seat {seat}" + (f" (of up to {seats} players)" if seat > 1 else "")
    checker.in_text = checker.before_play = True
    try:
        node = checker.check_tree(tree, {"seat": NUM}, consts={"seat": seat})
    except ExprError as e:
        report(f"{where}: {e.message}", e.offset)
        return None
    finally:
        checker.in_text = checker.before_play = False
    a_player = PLAYER in (node.type, elem_of(node.type))    # named by the names being made
    if node.is_const and node.const is not None and not a_player:
        return shower(node.type, checker.sym.display)(None, node.const)
    held = sorted(free_names(tree) - {"seat", "options"})
    if held and not node.is_const or a_player:
        report(f"{NAME_USES}, not {', '.join(held) if held and not node.is_const else 'a player'}", 0)
    elif not node.is_const:
        report(f"{where}: this part cannot be worked out before the game begins; {NAME_USES}", 0)
    else:
        report(f"{where}: this part is null, so that seat would have no name", 0)
    return None
