"""What a person at the terminal reads: the view of the table at each decision, the
result line, cards by their display and values as a seat may see them."""
from __future__ import annotations

import argparse
import os

from ..errors import WARNING, Problem, format_problem
from ..lang.values import number_from_text
from ..messages import msg
from ..playing.results import result_words
from ..playing.table_view import shown_value


def whole_number(text: str) -> int:
    """A whole number given on the command line (--seed, --games, ...): ASCII digits with
    an optional sign, as everywhere a person writes one ('1_0' and other scripts' digits are
    refused, though Python's int() takes them)."""
    n = number_from_text(text, whole=True)
    if n is None:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number (write it with the digits 0-9)")
    return n


def width_of(stream) -> int:
    """How wide a line may be: $COLUMNS where it is set, else the terminal's width where
    `stream` is a terminal, else 80 (a file or a pipe: the reflowed prose reads in any viewer)."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(getattr(stream, "raw", stream).fileno()).columns
    except (AttributeError, ValueError, OSError):
        return 80


def result_line(program, s) -> str:
    """The result in words (playing/results.py), then the seed and the decisions."""
    lang = program.lang
    return result_words(program, s, lang) + " " + msg(lang, "seed_decisions", seed=s.seed, n=s.decisions)


def view_printer(program, say):
    lang = program.lang

    def name(seat):
        return program.seat_name(seat)

    def show(decision):
        v = decision.view
        seat = decision.seat
        say("")
        say(msg(lang, "your_turn", name=name(seat)))
        for section, var, label in program.shown:
            if section == "variables":
                typ = program.symbols.global_vars.get(var)
                say(f"  {label}: {shown_value(program, v['vars'][var], typ)}")
            else:
                typ = program.symbols.player_vars.get(var)
                values = v["players"][var]
                say(f"  {label}: " + ", ".join(f"{name(i)} {shown_value(program, x, typ)}"
                                               for i, x in enumerate(values)))
        for t in program.table:
            value = v["table"][t.name]
            say(f"  {t.label}: " + (", ".join(f"{name(i)} {shown_value(program, x, t.type)}" for i, x in enumerate(value))
                                    if t.per_player else shown_value(program, value, t.type)))
        for zname, content in v["zones"].items():
            z = program.zones[zname]
            label = z.label or zname
            if z.piles:
                owners = [who for _, who in v.get("piles", {}).get(zname, [])]
                made = [cards_text(program, cards) + (f" ({name(who)})" if who is not None else "")
                        for cards, who in zip(content, owners)]
                if made:
                    say(f"  {label}: {' | '.join(made)}")
                continue
            if not z.per_player:
                if content and any(c is not None for c in content):
                    say(f"  {label}: {cards_text(program, content)}")
                continue
            for owner, cards in enumerate(content):
                if owner == seat and cards:
                    say(f"  {msg(lang, 'your_zone', zone=label)}: {cards_text(program, cards)}")
                elif owner != seat and cards and z.visibility == "public":     # public: every card, always
                    say(f"  {msg(lang, 'their_zone', name=name(owner), zone=label)}: {cards_text(program, cards)}")
    return show


def cards_text(program, ids) -> str:
    display = dict(zip(program.deck.ids, program.deck.display))
    shown = [display[c] for c in ids if c is not None]
    hidden = sum(1 for c in ids if c is None)
    return " ".join(shown) + (" " + msg(program.lang, "face_down", n=hidden) if hidden else "")


def warnings_note(program, path: str) -> str | None:
    """One line for play and simulate when the ruleset has warnings (values the checker cannot
    show are never null), or None: the game plays, a null stops it with its position, and
    `validate` lists them.  Said once, to stderr, so that neither the table nor --json output
    is disturbed by what only the ruleset's author can act on."""
    n = len(program.warnings)
    if not n:
        return None
    what = f"{n} value{'s' * (n > 1)} the checker cannot show {'are' if n > 1 else 'is'} never null"
    return format_problem(Problem(path, 0, 0, f"{what} (the game stops there if one is); "
                                              f"'interpret validate {path}' lists them", severity=WARNING))

