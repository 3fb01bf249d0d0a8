"""The rules as a player reads them, in the table's language: what the game is, what you do
and how you win (`how_to_play`), the whole rules, the table conventions in force (each in
words: the question and the choice in force), the cards and zones.  `interpret rules
RULESET` prints it all; '?' at the table shows the short part.  A ruleset without
`how_to_play` shows what its data says and the prose of its `rules_file`, as before.

Where the rules come from and how the original rules were read is for designers: the
ruleset's `notes_file` (docs/games/*.md) holds it, and is named here, never shown.  Every
line is reflowed to the reader's width, never breaking a word (`wrapped`)."""
from __future__ import annotations

import re
import textwrap

from ..check.options import explained
from ..messages import msg
from ..shown import printable

PLAIN_ATTRS = ("id", "display", "symbol", "color")   # how a card is named or drawn, not what it does
_REFERENCE = re.compile(r"\s*\([^()]*\.md\)\s*$")     # "(convention A7 in docs/games/hearts2.md)": for designers
_ITEM = re.compile(r"^(\s*)(- |\* |\d+[.)] )")         # a line that starts an item of a list


def summary_lines(program, width: int | None = None) -> list[str]:
    """The game in short ('?' at the table): what it is, what you do, how you win, who plays,
    the standing facts and the house rules in force (the conventions changed from their
    defaults); `rules` says the rest."""
    lang, guide = program.lang, program.guide or {}
    lines = [printable(program.title) if guide.get("play") else _title(program)]    # play says what the description says
    if guide.get("play"):
        lines += _prose(guide["play"])
    if guide.get("goal"):
        lines.append(f"{msg(lang, 'how_to_win')}: {' '.join(_prose(guide['goal']))}")
    lines.append(_players(program))
    lines += [f"  {fact}" for fact in program.facts]
    changed = [name for name, spec in program.option_specs.items() if program.options[name] != spec.get("default")]
    if changed:
        lines.append(msg(lang, "house_rules_in_force"))
        lines += [f"- {_convention(program, name)}" for name in changed]
    return wrapped(lines, width)


def rules_lines(program, width: int | None = None) -> list[str]:
    """The whole rules (`interpret rules`, 'rules' at the table): with how_to_play, what you
    do, how you win, the rules, the conventions in force, cards and zones, and where the
    designer notes lie, then the prose of a rules_file if the ruleset (or an overlay of it) names
    one; without how_to_play, what the data says and the prose of the rules_file."""
    lang, guide = program.lang, program.guide or {}
    if not (guide.get("play") or guide.get("goal")):
        return _data_rules(program, width)
    lines = [_title(program), _players(program)]
    for key, part in (("how_to_play", "play"), ("how_to_win", "goal"), ("the_rules", "rules")):
        if guide.get(part):
            lines += ["", msg(lang, key)] + _prose(guide[part])
    lines += [""] + _conventions(program) + [""] + _cards_and_zones(program)
    if guide.get("notes"):
        lines += ["", msg(lang, "notes", path=guide["notes"])]
    return wrapped(lines, width) + _prose_file(program)


def _prose_file(program) -> list[str]:
    """The prose of the rules_file (a house rule's own page, say), line by line as it is written."""
    if not program.rules_text:
        return []
    return [""] + [printable(line) for line in program.rules_text.rstrip().splitlines()]


def _data_rules(program, width) -> list[str]:
    """A ruleset without how_to_play: what its data says, then its rules_file's prose as written."""
    lines = [_title(program), _players(program)] + [f"  {fact}" for fact in program.facts]
    lines += _conventions(program) + _cards_and_zones(program) + _attribute_lines(program)
    return wrapped(lines, width) + (_prose_file(program) or ["", msg(program.lang, "no_prose")])


def _title(program) -> str:
    description = (program.guide or {}).get("description")
    return printable(f"{program.title}: {description}" if description else program.title)


def _players(program) -> str:
    lo, hi, default = program.players
    players = f"{lo}" if lo == hi else msg(program.lang, "players_range", lo=lo, hi=hi, default=default)
    return msg(program.lang, "players", players=players)


def _conventions(program) -> list[str]:
    """A line for each table convention: its question and the choice in force, in words."""
    if not program.option_specs:
        return []
    return [msg(program.lang, "conventions", name=program.name)] + \
        [f"- {_convention(program, name)}" for name in program.option_specs]


def _convention(program, name: str) -> str:
    """'How many points win the game? 10 points (most common)': the choice in force in the
    words of its explanation, or its value where the option explains none."""
    spec, value = program.option_specs[name], program.options[name]
    question = _REFERENCE.sub("", str(spec.get("description", ""))).strip()
    meaning = explained(spec, value)
    if not meaning:
        meaning = msg(program.lang, "yes" if value else "no") if isinstance(value, bool) else str(value)
    if not question:
        return printable(meaning)
    return printable(f"{question}{' ' if question.endswith(('?', ':', ';')) else ': '}{meaning}")


def _cards_and_zones(program) -> list[str]:
    lang = program.lang
    ids, shown = program.deck.ids, program.deck.display
    zones = []
    for z in program.zones.values():
        seen = msg(lang, f"vis_{z.visibility}") if f"vis_{z.visibility}" in _VISIBILITIES else z.visibility
        kind = msg(lang, "one_per_player") + ", " if z.per_player else msg(lang, "piles_made") + ", " if z.piles else ""
        zones.append(f"{z.label or z.name} ({kind}{seen})")
    return [printable(msg(lang, "cards_of_deck", n=len(ids), cards=" ".join(shown))),
            printable(f"{msg(lang, 'zones')}: " + "; ".join(zones))]


_VISIBILITIES = ("vis_hidden", "vis_owner", "vis_public", "vis_top")


def _attribute_lines(program) -> list[str]:
    """Each attribute that tells cards apart (a ruleset that has no rules of its own to say it)."""
    shown = program.deck.display
    lines = []
    for name, (kind, values) in program.deck.attrs.items():
        if name in PLAIN_ATTRS or kind not in ("number", "bool") or len(set(values)) < 2:
            continue                    # (texts such as a suit's name say what the card's name says)
        lines.append(printable(f"  {name}: {_attribute(kind, values, shown)}"))
    return [msg(program.lang, "card_data")] + lines if lines else []


def _attribute(kind: str, values: tuple, shown: tuple) -> str:
    """A card attribute as the cards that share each value: 'true: 2♥ 4♥ ...', or a ranking
    from the highest value down."""
    groups = {}
    for card, value in zip(shown, values):
        groups.setdefault(value, []).append(card)
    if len(groups) > 24:
        return f"{len(groups)} values"
    order = sorted(groups, key=lambda v: (v is None, v if isinstance(v, (int, float)) else str(v)), reverse=True)
    parts = []
    for value in order:
        cards = groups[value]
        many = len(cards) > 8 and len(cards) >= len(values) / 2
        text = f"the other {len(cards)}" if many else " ".join(cards)
        parts.append(f"{_value(value)}: {text}")
    return "; ".join(parts)


def _value(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return "none" if v is None else str(v)


def _prose(text: str) -> list[str]:
    """A text of the ruleset as lines to wrap: a paragraph each (parted by a blank line), an
    item each where a line starts one ('- ', '1. '); the line breaks of the file are spaces.
    Blank lines part the paragraphs."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n", printable(str(text), newlines=True).strip()):
        current = None
        for line in paragraph.splitlines():
            if current is None or _ITEM.match(line):
                if current is not None:
                    out.append(current)
                current = line.rstrip()
            else:
                current += " " + line.strip()
        if current is not None:
            out.append(current)
        out.append("")
    return out[:-1]


def wrapped(lines: list[str], width: int | None) -> list[str]:
    """`lines` wrapped to `width` at spaces, never inside a word (a word longer than the line
    stands alone on its line); a wrapped line goes on under its own indent, an item's under
    its text.  No width: the lines as they are."""
    if not width:
        return list(lines)
    out = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        item = _ITEM.match(line)
        indent = " " * (item.end() if item else len(line) - len(line.lstrip(" ")))
        out += textwrap.wrap(line, width=max(width, len(indent) + 10), subsequent_indent=indent,
                             break_long_words=False, break_on_hyphens=False) or [line]
    return out
