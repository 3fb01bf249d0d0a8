"""What a seat is sent: the `state` frame (docs/server.md), built from that seat's view alone.

A person's seat sees what `engine.view` shows it; a spectator sees what every seat may see and
no more: the view of a seat no player holds (`PUBLIC`; `engine.view(..., None)` is the view of
the game as a whole, which no one at a live table gets).  The account is the entries a seat may
read (`engine.entry_for`), numbered for that seat only, so that their numbers do not count the
entries hidden from it."""
from __future__ import annotations

from ..messages import msg
from ..playing.results import plain_number, result_words
from ..playing.table_view import Groups, layout
from ..runtime.engine import entry_for, known_cards, labels, prompt, view

LEAVES = (str, int, float, type(None))     # what plain() keeps as it is
PUBLIC = -1         # the spectator's seat in the engine's views: no one's, so only what all may see


class Account:
    """The account as one seat reads it: its lines so far (the texts it may read), and the groups
    of cards (which cards arrived together) that its table is drawn with: noted from every move,
    as the terminal's table notes them, and drawn only for the cards its view shows."""

    def __init__(self, program, seat: int):
        self.program, self.seat = program, seat
        self.lines = []                 # texts, in order: line k is entry n = k + 1
        self.groups = Groups(program.deck.ids)
        self.read = 0                   # entries of the state's log read so far
        self.round_no = 0

    def catch_up(self, log: list) -> None:
        lang = self.program.lang
        for e in log[self.read:]:
            self.groups.note([e])       # which cards arrived together: drawn only where the view shows them
            shown = entry_for(e, self.seat)
            if shown is None or shown["type"] == "move":
                continue
            if shown["type"] == "round":
                self.round_no = shown["number"]
                self.lines.append(f"-- {self.program.round_name or msg(lang, 'round')} {self.round_no} --")
                continue
            text = shown.get("text")
            if text:
                if shown.get("to") is not None:
                    text = msg(lang, "to_you") + " " + text
                self.lines.append(text)
        self.read = len(log)

    def since(self, n: int) -> list:
        return [{"n": k + 1, "text": t} for k, t in enumerate(self.lines) if k + 1 > n]


def state_frame(table, seat: int | None, account: Account, since: int) -> dict:
    """The `state` frame to `seat` (None: a spectator), with the account entries after `since`."""
    program, s = table.program, table.state
    eye = PUBLIC if seat is None else seat
    account.catch_up(s.log)
    seen = view(program, s, eye)
    lay = layout(program, seen, eye, s.names, account.groups, account.round_no)
    deciding = s.pending[0] if s.pending and not table.over else None
    mine = deciding is not None and deciding == seat
    return {"type": "state", "table": table.id, "seat": seat, "decisions": s.decisions, "lang": program.lang,
            "title": program.title, "seats": table.seat_list(),
            "view": plain(lay), "to_play": deciding,
            "prompt": prompt(program, s) if mine else None,
            "moves": moves(program, s, seat) if mine else [],
            "account": account.since(since), "over": table.over, "result": table_result(table)}


def plain(value):
    """A layout as plain data, as dataclasses.asdict gives it but without its deep copy of every
    text and number (a layout's leaves are never changed): asdict was a third of the server's
    time under load (docs/server.md, "Load").  A dataclass's fields are its __dict__ (the
    layout's classes keep nothing else there: tests/test_server_frames.py compares with asdict)."""
    if isinstance(value, list):
        return [v if isinstance(v, LEAVES) else plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(v if isinstance(v, LEAVES) else plain(v) for v in value)
    if isinstance(value, dict):
        return {k: v if isinstance(v, LEAVES) else plain(v) for k, v in value.items()}
    return {k: v if isinstance(v, LEAVES) else plain(v) for k, v in vars(value).items()}


def moves(program, s, seat: int) -> list:
    """The deciding seat's legal moves; a move that is one card the seat can see has it drawn."""
    _, options, cid = s.pending
    spec = program.choices[cid]
    known = known_cards(program, s, seat) if spec.cards else set()
    color = program.deck.attrs.get("color", (None, None))[1]
    out = []
    for i, label in enumerate(labels(program, s)):
        card = None
        if spec.cards and isinstance(options[i], int) and options[i] in known:
            c = options[i]
            card = {"text": program.deck.display[c], "color": color[c] if color else None}
        out.append({"index": i, "label": label, "card": card})
    return out


def table_result(table) -> dict | None:
    """The game's result, or that it was abandoned (and by whom)."""
    if table.abandoned is not None:
        name = table.state.names[table.abandoned]
        return {"text": msg(table.program.lang, "abandoned", name=name), "winners": [], "scores": [],
                "abandoned": name}
    return result(table.program, table.state)


def result(program, s) -> dict | None:
    """The result once the game is over: who won and the scores, in words and as data (the seed
    is left out: the record, downloaded, gives it)."""
    if not s.over or s.result is None:
        return None
    names, winners, scores = s.names, s.result["winners"], s.result["scores"]
    return {"text": result_words(program, s, program.lang), "winners": [names[w] for w in winners],
            "scores": [] if scores is None else [{"name": names[p], "score": plain_number(v)} for p, v in enumerate(scores)]}
