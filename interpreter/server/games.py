"""The games a server offers: the shipped rulesets and the files named on the command line, each
as what rebuilds its program anywhere (a shipped name, or a file's name and text), and as the
lobby lists it."""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

from ..check.options import explained
from ..limits import MAX_BOT_SECONDS
from ..pipeline import load_program, load_program_text
from ..playing.agents import TABLE_BOT
from ..source.loader import decode, read_bytes
from ..source.shipped import resolve, shipped_names

BOTS = ("random", "mc", "ismcts")

# How hard a planning bot thinks, by its strength: each bounded in time per decision, so that
# a bot never holds its table up for long (mc's seconds, new with strengths, bound a game whose
# play-outs are long: go_fish's 20 play-outs an option took half a minute; bench/bot_strengths.py
# measures them).  "normal" has the numbers every table had before strengths were offered (a
# request without one gets it); random has none.
STRENGTHS = {
    "mc": {"quick": {"kind": "mc", "playouts": 5, "seconds": 0.25},
           "normal": {"kind": "mc", "playouts": 20, "seconds": 1.0},
           "strong": {"kind": "mc", "playouts": 100, "seconds": MAX_BOT_SECONDS}},
    "ismcts": {"quick": {"kind": "ismcts", "iterations": 100, "seconds": 0.2},
               "normal": dict(TABLE_BOT),
               "strong": {"kind": "ismcts", "iterations": 2000, "seconds": MAX_BOT_SECONDS}},
}
DEFAULT_STRENGTH = "normal"


@dataclass(frozen=True)
class GameSource:
    """What rebuilds a game's program: `shipped` (a name of ours) or `file` and `text` (a file
    named on the command line, kept as it was read: the program of a table does not change when
    the file does)."""
    id: str
    shipped: str | None = None
    file: str | None = None
    text: str | None = None

    @property
    def path(self) -> str:
        """The ruleset's file, as a record names it."""
        return self.file if self.file else resolve(self.shipped)

    def as_row(self) -> dict:
        return {"game": self.id, "shipped": self.shipped, "file": self.file, "text": self.text}


def source_of_row(row: dict) -> GameSource:
    return GameSource(row["game"], row.get("shipped"), row.get("file"), row.get("text"))


def program_of(source: GameSource, options: dict | None = None, lang: str | None = None):
    """The program of a game with these options and language (cached: a table's program is built
    once however many tables play it)."""
    return _program(source, tuple(sorted((options or {}).items())), lang)


@lru_cache(maxsize=256)
def _program(source: GameSource, options: tuple, lang: str | None):
    if source.shipped:
        return load_program(resolve(source.shipped), dict(options), lang)
    return load_program_text(source.text, source.file, dict(options), lang)


def file_source(path: str, taken: set) -> GameSource:
    """A file named on the command line (checked already, as `interpret validate` checks it),
    under its name without '.yaml', made unique among `taken`."""
    text = decode(read_bytes(path), path)
    base = os.path.splitext(os.path.basename(path))[0]
    name, k = base, 2
    while name in taken:
        name, k = f"{base}-{k}", k + 1
    return GameSource(name, file=os.path.abspath(path), text=text)


def shipped_sources() -> list[GameSource]:
    return [GameSource(name, shipped=name) for name in shipped_names()]


def described(source: GameSource) -> dict:
    """The lobby's entry of a game (GET /api/games)."""
    p = program_of(source)
    lo, hi, default = p.players
    return {"id": source.id, "title": p.title, "description": p.guide.get("description", ""),
            "players": {"min": lo, "max": hi, "default": default}, "languages": list(p.languages),
            "options": [{"name": name, "explain": spec.get("description", ""),
                         "choices": [str(c) for c in spec["choices"]], "default": str(spec["default"]),
                         "explain_choices": [explained(spec, c) or "" for c in spec["choices"]]}
                        for name, spec in p.option_specs.items()],
            "bots": list(BOTS), "strengths": strengths_described()}


def strengths_described() -> dict:
    """Each planning bot's strengths as the lobby offers them: the choices, the default, and
    what each costs in words."""
    return {kind: {"choices": list(specs), "default": DEFAULT_STRENGTH,
                   "explain_choices": [spec_words(spec) for spec in specs.values()]}
            for kind, specs in STRENGTHS.items()}


def spec_words(spec: dict) -> str:
    """What a bot's spec makes it do at a decision, in words: its play-outs or its search."""
    if spec["kind"] == "mc":
        return f"{spec['playouts']} play-outs per move, at most {spec['seconds']:g} s a move"
    return f"at most {spec['iterations']:,} iterations or {spec['seconds']:g} s a move"
