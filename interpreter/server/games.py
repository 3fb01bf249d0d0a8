"""The games a server offers: the shipped rulesets and the files named on the command line, each
as what rebuilds its program anywhere (a shipped name, or a file's name and text), and as the
lobby lists it."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache

from ..check.options import explained
from ..errors import InterpreterError, RulesetError, format_problem
from ..limits import MAX_BOT_SECONDS, MAX_FILE_BYTES
from ..pipeline import load_program, load_program_text
from ..playing.agents import TABLE_BOT
from ..source.loader import decode, read_bytes
from ..source.shipped import resolve, shipped_names

BOTS = ("random", "mc", "ismcts")
UPLOADED = "uploaded:"      # a game source's `file` when it came from a browser: "uploaded:NAME.yaml"
UPLOAD_NAME = re.compile(r"[^A-Za-z0-9_.-]+")
MAX_UPLOAD_NAME = 40


class BadUpload(InterpreterError):
    """An uploaded ruleset the server will not offer: what is wrong, and each problem as
    `interpret validate` prints it."""

    def __init__(self, message: str, problems: list | None = None):
        super().__init__(message)
        self.problems = problems or []

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
    def uploaded(self) -> bool:
        """Did it come from a browser?  Then an overlay of it may extend shipped rulesets only."""
        return bool(self.file) and self.file.startswith(UPLOADED)

    @property
    def path(self) -> str:
        """The ruleset's file, as a record names it (an upload: its name, as the uploader had it)."""
        if self.uploaded:
            return self.file[len(UPLOADED):]
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
    return load_program_text(source.text, source.path, dict(options), lang, shipped_bases=source.uploaded)


def file_source(path: str, taken: set) -> GameSource:
    """A file named on the command line (checked already, as `interpret validate` checks it),
    under its name without '.yaml', made unique among `taken`."""
    text = decode(read_bytes(path), path)
    base = os.path.splitext(os.path.basename(path))[0]
    name, k = base, 2
    while name in taken:
        name, k = f"{base}-{k}", k + 1
    return GameSource(name, file=os.path.abspath(path), text=text)


def upload_name(name) -> str:
    """The name an uploaded file is known by: its base name in plain characters, ending in .yaml."""
    base = os.path.basename(str(name or "").replace("\\", "/"))
    stem = UPLOAD_NAME.sub("_", base[:-5] if base.endswith(".yaml") else base[:-4] if base.endswith(".yml") else base)
    stem = stem.strip("._")[:MAX_UPLOAD_NAME] or "uploaded"
    return f"{stem}.yaml"


def uploaded_source(name, raw: bytes, taken: set) -> GameSource:
    """A ruleset or house rule sent from a browser, checked as `interpret serve` checks a file
    named on its command line (every limit of the loader and the checker), or BadUpload with
    its problems in `validate`'s words.  An overlay may extend shipped rulesets only."""
    shown = upload_name(name)
    if raw.startswith(b"--") and b"content-disposition: form-data" in raw[:1000].lower():
        raise BadUpload(f"{shown}: send the file's bytes as the request's body, not a form "
                        f"(curl --data-binary @FILE)")
    if len(raw) > MAX_FILE_BYTES:
        raise BadUpload(f"{shown}: a ruleset may hold at most {MAX_FILE_BYTES} bytes")
    stem, k = shown[:-5], 2
    game = stem
    while game in taken:
        game, k = f"{stem}-{k}", k + 1
    try:
        source = GameSource(game, file=UPLOADED + shown, text=decode(raw, shown))
        program_of(source)          # loaded, checked (schema, then the checker) and built once
    except RulesetError as e:
        raise BadUpload(f"{shown} has problems", [format_problem(p) for p in e.problems]) from None
    except InterpreterError as e:
        raise BadUpload(f"{shown} has problems", [str(e)]) from None
    return source


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
