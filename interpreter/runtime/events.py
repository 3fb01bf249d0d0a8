"""The account as data: what happened (cards moved, rounds begun and ended, shown
values changed) noted as typed entries while the account is kept, and each entry as a
seat may see it.

Noting costs nothing when the account is not kept (simulations, play-outs): every
caller tests `s.log is not None` first.  Entries hold the state's own numbers (card
indexes, players from 0); `event_for` turns them into what a reader gets: card ids and
names, seats numbered from 1 (the convention of the command line, JSON results and logs).
"""
from __future__ import annotations

from .effects import note


# -- noting (while the game runs; moves are noted by effects.moved) ----------------------------------
def round_started(shown):
    """The hook run as a round begins: its number, and the shown values at its start (the
    round's end says what changed)."""
    def start(s):
        if s.log is not None:
            note(s, {"type": "round", "number": s.rounds, "values": _values(s, shown)})
    return start


def round_ended(shown, record=None):
    """The hook run when a round is over (after its round_end triggers): the changes of the
    shown values since the round began, then the round's end; `record` keeps the round's
    statistics (runtime/tally.py)."""
    def end(s):
        if record is not None:
            record(s)
        if s.log is not None:
            before = next((e["values"] for e in reversed(s.log) if e["type"] == "round"), None)
            if before is not None:
                for entry in _changes(before, _values(s, shown)):
                    note(s, entry)
            note(s, {"type": "round_end", "number": s.rounds})
    return end


def game_over(program, s) -> None:
    """The game is over: a round that `end_game` cut short is ended in the account too (its
    changes and its end), as the rounds before it were."""
    last = next((e for e in reversed(s.log) if e["type"] in ("round", "round_end")), None)
    if last is not None and last["type"] == "round":
        for entry in _changes(last["values"], _values(s, [(sec, name) for sec, name, _ in program.shown])):
            note(s, entry)
        note(s, {"type": "round_end", "number": last["number"]})


def _values(s, shown) -> list:
    """[section, name, value] of each shown variable (a player variable: its list of values)."""
    return [[section, name, list(s.pvars[name]) if section == "player_variables" else s.vars[name]]
            for section, name in shown]


def _changes(before: list, after: list):
    for (section, name, was), (_, _, now) in zip(before, after):
        if section == "player_variables":
            for p, (a, b) in enumerate(zip(was, now)):
                if a != b:
                    yield {"type": "score", "variable": name, "player": p, "before": a, "after": b}
        elif was != now:
            yield {"type": "score", "variable": name, "before": was, "after": now}


# -- reading (what a seat may see) ------------------------------------------------------------
def event_for(program, entry: dict, seat: int | None):
    """The typed event a reader gets for `entry`, as `seat` may see it (None: everything);
    None when it is hidden from that seat."""
    kind = entry["type"]
    to = entry.get("to") if kind == "log" else None
    if seat is not None and to is not None and to != seat:
        return None
    if kind == "log":
        out = {"type": "say", "text": entry["text"]}
        if to is not None:
            out["to"] = to + 1
        return out
    if kind == "decision":
        if seat is not None and entry["player"] != seat:
            return {"type": "decision", "seat": entry["player"] + 1}
        return {"type": "decision", "seat": entry["player"] + 1, "option": entry["index"] + 1, "label": entry["label"]}
    if kind == "move":
        return _move_for(program, entry, seat)
    if kind == "reveal":
        return {"type": "reveal", **_cards(program, entry["cards"])}
    if kind == "eliminated":
        return {"type": "eliminate", "seat": entry["player"] + 1, "text": entry["text"]}
    if kind == "score":
        return _score_for(program, entry, seat)
    if kind == "round":
        return {"type": "round", "number": entry["number"]}
    return {k: v for k, v in entry.items() if k != "values"}


def _move_for(program, entry, seat):
    src, dst = entry["from"], entry["to"]
    out = {"type": "move", "from": _place(src), "to": _place(dst), "count": len(entry["cards"])}
    if seat is None or _sees(program, src, seat) or _sees(program, dst, seat):
        out.update(_cards(program, entry["cards"]))
    return out


def _place(ref) -> dict:
    name, owner = ref
    return {"zone": name} if owner is None else {"zone": name, "seat": owner + 1}


def _sees(program, ref, seat) -> bool:
    """Whether `seat` sees the cards of the zone `ref` (a zone whose top is shown counts as
    unseen: which of the moved cards lies on top is not worth the risk)."""
    name, owner = ref
    z = program.zones.get(name)
    if z is None:
        return False
    return z.visibility == "public" or (z.visibility == "owner" and owner == seat)


def _cards(program, cards) -> dict:
    ids, display = program.deck.ids, program.deck.display
    return {"cards": [ids[c] for c in cards], "names": [display[c] for c in cards]}


def _score_for(program, entry, seat):
    player = entry.get("player")
    visibility = (program.pvar_visibility if player is not None else program.var_visibility).get(entry["variable"], "public")
    if seat is not None and not (visibility == "public" or (visibility == "owner" and player == seat)):
        return None
    types = program.symbols.player_vars if player is not None else program.symbols.global_vars
    typ = types.get(entry["variable"]) if program.symbols else None
    out = {"type": "score", "variable": entry["variable"]}
    if player is not None:
        out["seat"] = player + 1
    out["before"], out["after"] = (public_value(program, entry[k], typ) for k in ("before", "after"))
    if typ == "number" and isinstance(entry["before"], (int, float)) and isinstance(entry["after"], (int, float)):
        out["change"] = entry["after"] - entry["before"]
    return out


def public_value(program, value, typ):
    """A value as a reader gets it: a player as their seat (from 1), a card as its id, a list
    of either likewise; anything else as it is."""
    if value is None:
        return None
    if isinstance(value, list):
        inner = typ[5:-1] if isinstance(typ, str) and typ.startswith("list[") else None
        return [public_value(program, v, inner) for v in value]
    if typ == "player" and isinstance(value, int):
        return value + 1
    if typ == "card" and isinstance(value, int):
        return program.deck.ids[value]
    return value
