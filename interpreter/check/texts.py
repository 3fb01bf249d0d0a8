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
            parts.append(expr_ir.cards_of(checker.check_tree(checker.parsed(m.group(1)), scope)))     # a pile: its cards
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


def seat_names(checker, text: str, seats: int, report, numbered: str = "seat") -> tuple:
    """The name of each seat 1..`seats` by the text `text` (a ruleset's `player_name`), made
    now: a name is fixed before the game begins, so each part may use `seat` (the seat's
    number), the options and constants, and must give a value for every seat the ruleset
    allows (a list indexed past its end is refused here, at the index, not at the table).
    `report(message, offset)` as for template(); () when a part is refused.  `numbered`:
    the name of the number (a team's name: `team`, 1 up to `seats` teams)."""
    uses = name_uses(numbered)

    def said(message, offset):
        report(message + (f"; {uses}" if message.startswith("unknown name") else ""), offset)
    checked = template(checker, text, {numbered: NUM}, said)
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
                shown = _fixed_part(checker, tree, seat, seats, lambda message, at: report(message, offset + at),
                                    numbered)
                if shown is None:
                    return ()
                if numbered not in free_names(tree):
                    alike[k] = shown
            filled[k] += shown
        names.append("".join(filled))
    return tuple(names)


NAME_USES = "a player's name is made before the game begins: it may use seat (the seat's number), the options and constants"


def name_uses(numbered: str) -> str:
    """What a name made before the game begins may use."""
    if numbered == "seat":
        return NAME_USES
    return f"a {numbered}'s name is made before the game begins: it may use {numbered} (its number), the options and constants"


def _fixed_part(checker, tree, seat, seats, report, numbered="seat"):
    """The text of one {part} of a player's (or a team's) name for number `seat`, or None, reported."""
    kinds = "players" if numbered == "seat" else f"{numbered}s"
    where = f"for {numbered} {seat}" + (f" (of up to {seats} {kinds})" if seat > 1 else "")
    uses = name_uses(numbered)
    checker.in_text = checker.before_play = True
    try:
        node = checker.check_tree(tree, {numbered: NUM}, consts={numbered: seat})
    except ExprError as e:
        report(f"{where}: {e.message}", e.offset)
        return None
    finally:
        checker.in_text = checker.before_play = False
    a_player = PLAYER in (node.type, elem_of(node.type))    # named by the names being made
    if node.is_const and node.const is not None and not a_player:
        return shower(node.type, checker.sym.display)(None, node.const)
    held = sorted(free_names(tree) - {numbered, "options"})
    if held and not node.is_const or a_player:
        report(f"{uses}, not {', '.join(held) if held and not node.is_const else 'a player'}", 0)
    elif not node.is_const:
        report(f"{where}: this part cannot be worked out before the game begins; {uses}", 0)
    else:
        report(f"{where}: this part is null, so that {numbered} would have no name", 0)
    return None


TEAM_USES = "a seat's team is worked out before the game begins: it may use seat (the seat's number), seats (how many play), the options and constants"


def team_numbers(checker, text, lo: int, hi: int, report) -> tuple:
    """Each seat's team (1, 2, ...) by the expression `text` (a ruleset's `teams.of`), for each
    number of players lo..hi: ((players, (team of seat 1, ...)), ...), worked out now, or ()
    when it cannot be (`report(message, offset)` says why).  The teams of a game are numbered
    1, 2, ... with none left out, so that each has its name."""
    try:
        tree = checker.parsed(text) if isinstance(text, str) else None
    except ExprError as e:
        report(e.message, e.offset)
        return ()
    out = []
    for n in range(lo, hi + 1):
        row = []
        for seat in range(1, n + 1):
            where = f"for seat {seat} of {n} players"
            if tree is None:
                value = text
            else:
                checker.before_play = True
                try:
                    node = checker.check_tree(tree, {"seat": NUM, "seats": NUM}, NUM, consts={"seat": seat, "seats": n})
                except ExprError as e:
                    report(f"{where}: {e.message}" + (f"; {TEAM_USES}" if e.message.startswith("unknown name") else ""),
                           e.offset)
                    return ()
                finally:
                    checker.before_play = False
                if not node.is_const:
                    report(f"{where}: the team cannot be worked out before the game begins; {TEAM_USES}", 0)
                    return ()
                value = node.const
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or value < 1:
                report(f"{where}: the team is {value!r}, not a team's number (1, 2, ...)", 0)
                return ()
            row.append(int(value))
        used = sorted(set(row))
        if used != list(range(1, len(used) + 1)):
            report(f"for {n} players the teams are {', '.join(map(str, used))}: number them 1, 2, ... with none "
                   f"left out", 0)
            return ()
        out.append((n, tuple(row)))
    return tuple(out)
