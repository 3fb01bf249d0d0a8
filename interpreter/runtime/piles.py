"""Zones of piles made during play (`piles: true`): melds on the table, split hands.

`s.zones[name]` holds the piles' cards, a list per pile (as a per-player zone holds one per
seat, so whatever goes through every card of the game goes through them alike);
`s.piles[name]` holds, pile for pile, `[number, owner]`.  A pile is named by its number,
never by its list: a number is plain data, the same in a copy of the state, after a JSON
round trip and in an imagined deal.  A pile whose last card has left it is not on the table
any more: it is listed nowhere, and it is cleared away when the next pile of its zone is made
or the zone is gathered (a name that still holds it may read it until then: its cards are none).
"""
from __future__ import annotations

from ..errors import RulesFault


def listed(s, name: str) -> list:
    """The numbers of the piles of zone `name` that hold cards, in the order they were made."""
    return [entry[0] for entry, cards in zip(s.piles[name], s.zones[name]) if cards]


def _place(s, pile):
    """(zone name, index) of pile number `pile`."""
    if pile is None:
        raise RulesFault("no pile here: the value is null")
    for name, entries in s.piles.items():
        for i, entry in enumerate(entries):
            if entry[0] == pile:
                return name, i
    raise RulesFault("that pile is not on the table any more: its last card left it")


def cards_of(s, pile) -> list:
    """The list of pile number `pile`'s cards (moved to and from as a zone's)."""
    name, i = _place(s, pile)
    return s.zones[name][i]


def owner_of(s, pile):
    """The player pile number `pile` was made for, or None."""
    name, i = _place(s, pile)
    return s.piles[name][i][1]


def new_pile(s, name: str, owner) -> int:
    """A new, empty pile of zone `name` for `owner` (or nobody): its number.  The zone's
    empty piles are cleared away first."""
    entries, cards = s.piles[name], s.zones[name]
    if not all(cards):
        kept = [i for i, c in enumerate(cards) if c]
        entries[:] = [entries[i] for i in kept]
        cards[:] = [cards[i] for i in kept]
    s.made_piles += 1
    entries.append([s.made_piles, owner])
    cards.append([])
    return s.made_piles


def cleared(s, name: str) -> None:
    """Every pile of zone `name` taken away (gathered)."""
    del s.zones[name][:]
    del s.piles[name][:]


def owners(zone, s) -> list:
    """(owner, cards) of each place of `zone` (a ZoneSpec): one per seat of a per-player zone,
    one per pile that holds cards of a zone of piles (its owner, or None), else the one zone."""
    content = s.zones[zone.name]
    if zone.per_player:
        return list(enumerate(content))
    if zone.piles:
        return [(entry[1], cards) for entry, cards in zip(s.piles[zone.name], content) if cards]
    return [(None, content)]
