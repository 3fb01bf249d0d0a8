"""The table as one seat sees it, laid out as plain data for a screen to draw: the game's
standing facts, the shared zones and values, a row per player (their shown values and
zones, cards grouped as they arrived: a trick won stays a trick), and the seat's own
hand.  Built from the seat's view only, so it can hold nothing the seat may not see;
the groups come from the account's move entries, which say only which cards arrived
together, and are drawn only for cards the view shows.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..messages import msg


@dataclass
class Card:
    text: str                   # the card's display
    color: str | None = None    # the deck's `color` attribute, when it has one


@dataclass
class Pile:
    """A zone's content as a seat sees it: groups of cards, and how many it cannot see."""
    label: str
    groups: list = field(default_factory=list)      # lists of Card
    hidden: int = 0

    @property
    def empty(self) -> bool:
        return not self.groups and not self.hidden


@dataclass
class Row:
    seat: int
    name: str
    you: bool
    to_play: bool
    out: bool
    values: list                # (label, text) of the shown player variables
    piles: list                 # Pile of each per-player zone (the seat's own hidden ones too)
    team: str = ""              # the name of the seat's team (the ruleset's teams), or ""


@dataclass
class Layout:
    title: str
    round_label: str
    facts: list
    values: list                # (label, text) of the shown shared variables
    shared: list                # Pile of each shared zone with cards in it
    rows: list
    hand: list                  # Pile of the seat's own zones that only it sees


class Groups:
    """Which cards arrived together in each zone, from the account's move entries: moves
    into the same zone with nothing noted between them make one group.  Cards are kept by
    id (a deck with copies has several cards of one id: any of them stands for another)."""

    def __init__(self, ids):
        self.ids = ids          # the deck's ids, by card number
        self.groups = {}        # (zone, owner) -> list of lists of card ids
        self.last = None

    def note(self, entries) -> None:
        for e in entries:
            if e["type"] != "move":
                self.last = None
                continue
            src, dst = tuple(e["from"]), tuple(e["to"])
            cards = [self.ids[c] for c in e["cards"]]
            self.groups[src] = [g for g in _without(self.groups.get(src, []), cards) if g]
            dst_groups = self.groups.setdefault(dst, [])
            if self.last == dst and dst_groups:
                dst_groups[-1].extend(cards)
            else:
                dst_groups.append(cards)
            self.last = dst

    def of(self, ref, cards: list) -> list:
        """`cards` (a zone's content, by id) in the groups they arrived in; cards of no known
        group (placed by a scenario, or sorted in) come first, together."""
        left = Counter(cards)
        groups = []
        for g in self.groups.get(ref, []):
            kept = []
            for c in g:
                if left[c] > 0:
                    left[c] -= 1
                    kept.append(c)
            groups.append(kept)
        loose = []
        for c in cards:
            if left[c] > 0:
                left[c] -= 1
                loose.append(c)
        return [g for g in [loose] + groups if g]


def _without(groups, cards):
    gone = Counter(cards)
    for g in groups:
        kept = []
        for c in g:
            if gone[c] > 0:
                gone[c] -= 1
            else:
                kept.append(c)
        yield kept


def layout(program, view: dict, seat: int, names: list, groups: Groups, round_no: int) -> Layout:
    """What `seat` sees of the table, from its view (engine.view)."""
    lang = program.lang
    ids = {c: i for i, c in enumerate(program.deck.ids)}      # copies of an id look alike: any one will do
    color = program.deck.attrs.get("color", (None, None))[1]

    def card(card_id):
        i = ids[card_id]
        return Card(program.deck.display[i], color[i] if color else None)

    def pile(label, content, ref, grouped=True):
        shown = [c for c in content if c is not None]
        found = groups.of(ref, shown) if grouped else [shown] if shown else []
        cards = [[card(c) for c in g] for g in found]
        return Pile(label, cards, sum(1 for c in content if c is None))

    def piles_of(z, owner):
        """The piles of zone of piles `z` made for `owner` (None: nobody), a group each, or None."""
        made = [content for (_, who), content in zip(view.get("piles", {}).get(z.name, []), view["zones"][z.name])
                if who == owner]
        if not made:
            return None
        return Pile(z.label or z.name, [[card(c) for c in content if c is not None] for content in made],
                    sum(1 for content in made for c in content if c is None))

    vtypes, ptypes = program.symbols.global_vars, program.symbols.player_vars
    table = view.get("table", {})
    values = [(label, shown_value(program, view["vars"][var], vtypes.get(var)))
              for section, var, label in program.shown if section == "variables"]
    values += [(t.label, shown_value(program, table[t.name], t.type)) for t in program.table if not t.per_player]
    shared, rows, hand = [], [], []
    team_of = {p: team for team, seats in program.sides(len(names), list(names)) if len(seats) > 1 for p in seats}
    for z in program.zones.values():
        if z.piles:
            made = piles_of(z, None)
            if made is not None:
                shared.append(made)
        elif not z.per_player:
            content = view["zones"][z.name]
            if content:
                shared.append(pile(z.label or z.name, content, (z.name, None)))
    for p, name in enumerate(names):
        piles = []
        for z in program.zones.values():
            if z.piles and (made := piles_of(z, p)) is not None:
                piles.append(made)
            if not z.per_player:
                continue
            content = view["zones"][z.name][p]
            if p == seat and z.visibility == "owner":     # the seat's own hand: drawn whole below the rows
                hand.append(pile(z.label or z.name, content, (z.name, p), grouped=False))
                piles.append(Pile(z.label or z.name, [], len(content)))
            else:
                piles.append(pile(z.label or z.name, content, (z.name, p)))
        row_values = [(label, shown_value(program, view["players"][var][p], ptypes.get(var)))
                      for section, var, label in program.shown if section == "player_variables"]
        row_values += [(t.label, shown_value(program, table[t.name][p], t.type)) for t in program.table if t.per_player]
        deciding = view["deciding"] if view.get("deciding") is not None else view["current"]
        rows.append(Row(p, name, p == seat, deciding == p, bool(view["eliminated"][p]), row_values, piles,
                        team_of.get(p, "")))
    round_label = f"{program.round_name or msg(lang, 'round')} {round_no}" if round_no else ""
    return Layout(program.title, round_label, list(program.facts), values, shared, rows, hand)


def shown_value(program, value, typ) -> str:
    """A variable's value from a seat's view: '?' where the seat may not see it, cards
    (of a variable typed card or list[card]) by their display."""
    if value is None:
        return "?"
    if isinstance(value, list):
        return " ".join(shown_value(program, x, typ) for x in value) or "—"
    if typ in ("card", "list[card]"):
        return dict(zip(program.deck.ids, program.deck.display)).get(value, str(value))
    if typ in ("player", "list[player]") and isinstance(value, int):
        return program.seat_name(value)
    if isinstance(value, bool):
        return msg(program.lang, "yes" if value else "no")
    return str(int(value) if isinstance(value, float) and value == int(value) else value)
