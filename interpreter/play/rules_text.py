"""The rules as a player reads them: what the data of a ruleset says (players, the options
in force and what they mean, cards and what tells them apart, the zones and who sees them),
then the prose of its rules file.  `interpret rules RULESET` prints it all; '?' at the table
shows the short part."""
from __future__ import annotations

import re

from ..check.options import explained
from ..shown import printable

VISIBILITY = {"hidden": "nobody sees it", "owner": "each player sees their own", "public": "everyone sees it",
              "top": "everyone sees the top card"}
PLAIN_ATTRS = ("id", "display", "symbol", "color")   # how a card is named or drawn, not what it does
_REFERENCE = re.compile(r"\s*\([^()]*\.md\)\s*$")     # "(convention A7 in docs/games/hearts2.md)": for the rules page


def summary_lines(program) -> list[str]:
    """The game in a few lines ('?' at the table): what it is, who plays, the standing facts
    and what each table convention in force means."""
    data = program.rules[0] if program.rules else {}
    lo, hi, default = program.players
    players = f"{lo}" if lo == hi else f"{lo} to {hi} (default {default})"
    lines = [f"{program.title}" + (f": {data.get('description')}" if isinstance(data.get("description"), str) else ""),
             f"Players: {players}"]
    lines += [f"  {fact}" for fact in program.facts]
    if program.option_specs:
        lines.append("Table conventions in force (interpret options lists the choices):")
        for name, spec in program.option_specs.items():
            value = program.options[name]
            question = _REFERENCE.sub("", spec.get("description", ""))
            meaning = explained(spec, value)
            lines.append(f"  {question} {meaning} ({name}={value})" if meaning else f"  {name} = {value}: {question}")
    return [printable(line) for line in lines]      # a ruleset's text stays on its line


def data_lines(program) -> list[str]:
    """What the data says of the cards and zones: each attribute that tells cards apart."""
    ids, shown = program.deck.ids, program.deck.display
    lines = [f"Cards ({len(ids)}): {' '.join(shown)}"]
    for name, (kind, values) in program.deck.attrs.items():
        if name in PLAIN_ATTRS or kind not in ("number", "bool") or len(set(values)) < 2:
            continue                    # (texts such as a suit's name say what the card's name says)
        lines.append(f"  {name}: {_attribute(kind, values, shown)}")
    lines.append("Zones: " + "; ".join(f"{z.label or z.name} ({'one per player, ' if z.per_player else ''}"
                                        f"{VISIBILITY.get(z.visibility, z.visibility)})"
                                        for z in program.zones.values()))
    return [printable(line) for line in lines]


def _attribute(kind: str, values: tuple, shown: tuple) -> str:
    """A card attribute as the cards that share each value: 'true: 2♥ 4♥ ...', or a ranking
    from the highest value down."""
    groups = {}
    for card, value in zip(shown, values):
        groups.setdefault(value, []).append(card)
    if len(groups) > 24:
        return f"{len(groups)} values"
    order = sorted(groups, key=lambda v: (v is None, v if isinstance(v, (int, float)) else str(v)), reverse=True) \
        if kind in ("number", "bool") else list(groups)
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


def rules_lines(program) -> list[str]:
    """The summary, then the prose of the rules file (if the ruleset names one)."""
    lines = summary_lines(program) + data_lines(program)
    if program.rules_text:
        lines += ["", program.rules_text.rstrip()]
    else:
        lines += ["", "(this ruleset has no rules_file: the lines above are what its data says)"]
    return lines
