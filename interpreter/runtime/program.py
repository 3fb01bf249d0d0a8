"""What the compiler hands the engine: a Program, with its card tables, zones,
initial values, instructions and choices; plus the options and player counts
read from a ruleset before it is compiled."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError, did_you_mean

DEFAULT_MAX_STEPS = 1_000_000


@dataclass
class Deck:
    ids: tuple          # card -> notation (e.g. "Q♠" or "QS")
    display: tuple      # card -> text shown in the account
    attrs: dict         # name -> (type, tuple)


@dataclass
class ZoneSpec:
    name: str
    per_player: bool
    visibility: str
    label: str = ""             # how people read the zone's name, in the chosen language


@dataclass
class ChoiceSpec:
    """What the engine needs to describe one `choose` step to agents and people."""
    var: str
    label: object        # fn(state, locals, option) -> str
    prompt: str
    where: tuple
    cards: bool = False  # the options are cards


@dataclass
class Program:
    name: str
    title: str
    file: str
    lang: str
    languages: list
    options: dict
    option_specs: dict
    players: tuple                     # (min, max, default)
    deck: Deck
    start_zone: str
    zones: dict                        # name -> ZoneSpec
    var_init: dict                     # name -> fn(state)
    pvar_init: dict                    # name -> fn(state, player)
    code: list = field(default_factory=list)
    where: list = field(default_factory=list)     # pc -> (line, col)
    effect_where: dict = field(default_factory=dict)  # pc -> [(line, col)] of each effect it runs
    lines: list = field(default_factory=list)     # the ruleset's lines, to show where a rules error is
    choices: list = field(default_factory=list)   # ChoiceSpec by id
    winners: object = None
    score: object = None
    max_steps: int = DEFAULT_MAX_STEPS
    shown: list = field(default_factory=list)     # (section, name, label) of variables shown to people
    symbols: object = None                         # the names expressions may use, for later compiles
    standing: object = None                        # fn(state, {p}) -> number: how well p stands
    player_name: str = "Player {seat}"             # how seats are named, in the chosen language
    var_visibility: dict = field(default_factory=dict)    # name -> public, hidden or cards
    pvar_visibility: dict = field(default_factory=dict)   # name -> public, owner, hidden or cards
    card_locals: frozenset = frozenset()           # local names that may hold cards somewhere
    card_scopes: dict = field(default_factory=dict)  # pc -> local names holding cards when waiting there
    card_cursors: frozenset = frozenset()          # for_each cursors over cards

    def player_count(self, n: int | None) -> int:
        """`n`, or the default when None; a UsageError when the ruleset is not for n players."""
        lo, hi, default = self.players
        n = default if n is None else n
        if not lo <= n <= hi:
            allowed = str(lo) if lo == hi else f"{lo} to {hi}"
            raise UsageError(f"{self.name} is for {allowed} players, not {n}")
        return n

    def card(self, notation: str, skip=()) -> int:
        """The first card (not in `skip`) whose id or display is `notation`."""
        for i, (a, b) in enumerate(zip(self.deck.ids, self.deck.display)):
            if notation in (a, b) and i not in skip:
                return i
        if any(notation in (a, b) for a, b in zip(self.deck.ids, self.deck.display)):
            raise UsageError(f"{self.name} has no more copies of '{notation}'")
        raise UsageError(f"{self.name} has no card '{notation}'{did_you_mean(notation, self.deck.ids)}")


def resolve_options(data: dict, overrides: dict) -> dict:
    """The options in force: defaults, then `overrides` (strings from the command line)."""
    specs = data.get("options", {}) or {}
    values = {name: spec.get("default") for name, spec in specs.items()}
    for name, raw in overrides.items():
        if name not in specs:
            known = ", ".join(specs) or "none"
            raise UsageError(f"unknown option '{name}'{did_you_mean(name, specs)}; options of "
                             f"{data.get('name')}: {known}")
        choices = specs[name].get("choices", [])
        match = [c for c in choices if str(c).lower() == str(raw).lower()]
        if not match:
            raise UsageError(f"option '{name}' cannot be '{raw}'; choose one of: "
                             f"{', '.join(map(str, choices))}")
        values[name] = match[0]
    return values


def player_range(data: dict) -> tuple:
    p = data.get("players", 2)
    if isinstance(p, int):
        return (p, p, p)
    return (p["min"], p["max"], p.get("default", p["min"]))
