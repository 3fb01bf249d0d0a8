"""What a back end hands the engine: a Program, with its card tables, zones, initial
values, instructions and choices."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..errors import UsageError, did_you_mean
from ..limits import DEFAULT_MAX_STEPS
from . import piles

@dataclass
class ZoneSpec:
    name: str
    per_player: bool
    visibility: str
    label: str = ""             # how people read the zone's name, in the chosen language
    piles: bool = False         # a zone of piles made during play (runtime/piles.py)


@dataclass
class ChoiceSpec:
    """What the engine needs to describe one `choose` step to agents and people."""
    var: str
    label: object        # fn(state, locals, option) -> str
    prompt: object       # fn(state, locals) -> what a person is asked
    where: tuple
    cards: bool = False  # the options are cards
    card_lists: bool = False    # the options are lists of cards (a choice of several cards at once)
    candidates: object = None   # fn(state, locals) -> every option of the list, legal or not
    refusal: object = None      # fn(state, locals, option) -> why that option is not legal now, or None
    slots: tuple | None = None  # a choice among kinds: per kind, what each value of an option
    #                             [kind, value, ...] is ('card', 'cards' or None); None otherwise
    types: tuple = ()           # the options' type ('card', 'number', ...); among kinds: per kind, a
    #                             tuple of its values' types
    kinds: tuple = ()           # among kinds: per kind its name (its word, or its names joined by '+')
    window: str | None = None   # a choice made together (`together`): the local holding its window's record
    #                             (runtime/windows.py)


def option_cards(spec: ChoiceSpec, option, s=None) -> list:
    """The cards an option of the choice holds (a planning bot's imagined deal renames them;
    a seat that cannot see one of them reads the option face down); with the state `s`, the
    cards of the piles it names too (a pile is named by its number, which nothing renames)."""
    held = _cards_held(spec, option)
    if s is not None and offers_piles(spec):
        held = held + [c for pile in _piles_named(spec, option) for c in piles.cards_of(s, pile)]
    return held


PILE = "pile"           # the type of a pile (lang/types.py: the run time does not import the language)


def offers_piles(spec: ChoiceSpec) -> bool:
    """Whether an option of the choice may name a pile."""
    return PILE in spec.types or any(isinstance(t, tuple) and PILE in t for t in spec.types)


def _piles_named(spec: ChoiceSpec, option) -> list:
    if spec.slots is None:
        return [option] if spec.types and spec.types[0] == PILE and option is not None else []
    return [v for t, v in zip(spec.types[option[0]], option[1:]) if t == PILE and v is not None]


def _cards_held(spec: ChoiceSpec, option) -> list:
    if spec.cards:
        return [option] if isinstance(option, int) else []
    if spec.card_lists:
        return list(option) if isinstance(option, list) else []
    if spec.slots is None:
        return []
    out = []
    for kind, value in zip(spec.slots[option[0]], option[1:]):
        if kind == "card" and isinstance(value, int):
            out.append(value)
        elif kind == "cards" and isinstance(value, list):
            out.extend(value)
    return out


def option_card(spec: ChoiceSpec, option):
    """The card an option is, for a person naming it by the card's id or name; else None."""
    if spec.cards:
        return option if isinstance(option, int) else None
    if spec.slots is not None and spec.slots[option[0]] == ("card",) and isinstance(option[1], int):
        return option[1]
    return None


def renamed_option(spec: ChoiceSpec, option, one):
    """The option with each card it holds renamed by `one` (an imagined deal)."""
    if spec.cards:
        return one(option)
    if spec.card_lists:
        return [one(c) for c in option] if isinstance(option, list) else option
    if spec.slots is None:
        return option
    out = [option[0]]
    for kind, value in zip(spec.slots[option[0]], option[1:]):
        if kind == "card":
            value = one(value)
        elif kind == "cards" and isinstance(value, list):
            value = [one(c) for c in value]
        out.append(value)
    return out


@dataclass
class TableSpec:
    """A value of the ruleset's table section: its name, how the table names it, whether it
    is one per player, fn(state, locals with p) and its type (number, bool, string, player)."""
    name: str
    label: str
    per_player: bool
    fn: object
    type: str


@dataclass(frozen=True)
class StatisticSpec:
    """A statistic of the ruleset: its name, when it is measured (game or round), how a report
    names it, and fn(state, locals) -> number, bool or None."""
    name: str
    per: str
    label: str
    fn: object


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
    deck: object                       # lang.ir.Deck: ids, display, attrs (card tables)
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
    seat_names: tuple = ()                         # each seat's name in the chosen language (player_name)
    teams: dict = field(default_factory=dict)      # players -> (team of seat 1, ...), teams numbered 1, 2, ...
    team_names: tuple = ()                         # each team's name (teams.name); () for its players' names
    team_vars: frozenset = frozenset()             # the player variables a team's players share
    var_visibility: dict = field(default_factory=dict)    # name -> public, hidden or cards
    pvar_visibility: dict = field(default_factory=dict)   # name -> public, owner, hidden or cards
    card_locals: frozenset = frozenset()           # local names that may hold cards somewhere
    card_scopes: dict = field(default_factory=dict)  # pc -> local names holding cards when waiting there
    card_cursors: frozenset = frozenset()          # for_each cursors over cards
    backend: str = "closures"                      # which back end built the code
    counted: bool = False                          # the code counts its own steps (generated)
    source: str = ""                               # the generated Python, when there is some
    reference: list = field(default_factory=list)  # generated code: the closure instructions of the same
                                                   # layout, run from switch_at steps on (engine.run)
    left_out: int = 0                              # generated code: functions left to the closures
    real: object = None                            # line -> (file, line) of an overlay's combined lines
    rules: object = None                           # (data, Source) it was built from: what a worker elsewhere needs
    rules_text: str = ""                           # the rules in prose, for people (interpret rules, '?')
    rules_path: str = ""                           # the file they were read from: no output replaces it
    warnings: tuple = ()                           # what the checker could not prove (Problems): it plays
    facts: tuple = ()                              # standing facts of the options in force, shown on the table
    guide: dict = field(default_factory=dict)      # what a player reads: description, play, goal, rules (how_to_play), notes
    table: tuple = ()                              # TableSpec of each value of the table section
    round_name: str = ""                           # what players call a round ("hand"); "" for the default
    statistics: list = field(default_factory=list)  # StatisticSpec, per-round ones in the order of a tally's row
    points: dict = field(default_factory=dict)     # where a scenario may stop the rules: name -> pcs
    switch_at: int = -1                            # generated code: steps from which the game goes on
                                                   # step by step (the limit less the most one function runs)
    reach: dict = field(default_factory=dict)      # generated code: entry pc -> every pc its function may
                                                   # run or return (engine.run_to runs it where no point is)
    unstopped: dict = field(default_factory=dict)  # engine.run_to's: points -> the entries that pass none

    def seat_name(self, seat: int) -> str:
        """The name of the seat at index `seat` (0 for seat 1), made by the checker."""
        return self.seat_names[seat] if 0 <= seat < len(self.seat_names) else f"#{seat + 1}"

    @cached_property
    def window_keys(self) -> frozenset:
        """The locals holding the records of the program's choices made together (runtime/windows.py)."""
        return frozenset(c.window for c in self.choices if c.window is not None)

    def sides(self, players: int, names=None) -> list:
        """The teams of a game of `players`: [(name, [seat, ...]), ...] in team order, or [] when
        the ruleset has none; a team's default name is its players' names (`names`: the game's)."""
        of = self.teams.get(players)
        if of is None:
            return []
        names = names or [self.seat_name(p) for p in range(players)]
        out = []
        for team in range(1, max(of) + 1):
            seats = [p for p, t in enumerate(of) if t == team]
            named = self.team_names[team - 1] if team <= len(self.team_names) else ""
            out.append((named or " & ".join(names[p] for p in seats), seats))
        return out

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
