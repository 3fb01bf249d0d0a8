"""The typed intermediate form of a ruleset: what the checker hands the back ends.

The checker (check/ruleset.py) resolves every name, checks every type and shape,
and reports every problem; what it returns is this plain data, which a back end
turns into run-time code without checking anything again.  Each node keeps the
`path` of its YAML value, so that a back end can say where each instruction came
from (Program.where).  Expressions are nodes of the typed form of expressions
(lang/expr_ir.py): a step node holds no code of its own.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Union

from . import expr_ir

Path = tuple            # keys and indexes into the loaded YAML
Expr = expr_ir.Node     # a checked expression
Steps = tuple           # of step nodes, in order


@dataclass
class Deck:
    """The cards: each card is a number; each attribute a tuple indexed by it."""
    ids: tuple          # card -> notation (e.g. "Q♠" or "QS")
    display: tuple      # card -> text shown in the account
    attrs: dict         # name -> (type, tuple)



# -- what steps name ---------------------------------------------------------------
@dataclass(frozen=True)
class ZoneRef:
    """A zone named outright: a shared zone (`owner` None) or a per-player zone and whose."""
    name: str
    owner: Expr | None = None


@dataclass(frozen=True)
class GlobalTarget:
    name: str
    type: str


@dataclass(frozen=True)
class PlayerTarget:
    name: str
    type: str
    owner: Expr
    team: bool = False                  # a team variable: set for the owner's partners too


@dataclass(frozen=True)
class CurrentTarget:
    """`current` as the target of `set`: the turn passes to that player (the next turn
    follows from them)."""
    type: str = "player"


@dataclass(frozen=True)
class EntryTarget:
    """`m[key]` as the target of `set` or `add`: one entry of a map variable (a global or a
    player's, `var`); setting null removes it, `add` to an entry it lacks adds to 0."""
    var: Union[GlobalTarget, PlayerTarget]
    key: Expr
    type: str                           # the type of the map's values


Target = Union[GlobalTarget, PlayerTarget, CurrentTarget, EntryTarget]


@dataclass(frozen=True)
class Text:
    """A text with {expression} parts, in the chosen language; a text of the ruleset's `texts`
    catalogue comes with the values its `with` gives (computed first, then bound by name)."""
    path: Path
    text: str
    parts: expr_ir.Template
    binds: tuple = ()                   # ((name, Expr), ...) of `{say: KEY, with: {...}}`


# -- effects: steps that run one after another without a decision ----------------------
class Effect:
    """Marker of the steps a back end may run together, as one instruction."""


@dataclass(frozen=True)
class Move(Effect):
    path: Path
    src: Expr
    dst: Expr
    card: Expr | None = None
    cards: Expr | None = None
    count: Expr | None = None           # None: one card (when neither card nor cards)
    bottom: bool = False


@dataclass(frozen=True)
class JournalMove(Effect):
    """A move of given cards kept in the journal, so that `undo_journal` can take it back."""
    path: Path
    cards: Expr
    many: bool                          # `cards` is a list
    src: ZoneRef
    dst: ZoneRef
    tag: Expr | None                    # None: a plain entry (`journal: true`)


@dataclass(frozen=True)
class Draw(Effect):
    path: Path
    src: Expr
    dst: Expr
    count: Expr


@dataclass(frozen=True)
class Deal(Effect):
    path: Path
    src: Expr
    zone: str                           # a per-player zone
    count: Expr
    first: Expr | None
    players: Expr | None


@dataclass(frozen=True)
class Shuffle(Effect):
    path: Path
    zone: Expr


@dataclass(frozen=True)
class Sort(Effect):
    path: Path
    zone: Expr
    key: Expr                           # with `var` bound to each card
    var: str = "card"


@dataclass(frozen=True)
class Gather(Effect):
    path: Path
    dst: Expr
    zones: tuple                        # (name, per_player, piles) of each zone gathered


@dataclass(frozen=True)
class NewPile(Effect):
    """A new, empty pile of a zone of piles, its number bound to `var` for the steps after."""
    path: Path
    zone: str
    owner: Expr | None
    var: str


@dataclass(frozen=True)
class Assign:
    target: Target
    value: Expr


@dataclass(frozen=True)
class Set(Effect):
    path: Path
    items: tuple                        # Assign, in the order written
    add: bool = False                   # `add:` adds each value instead of setting it


@dataclass(frozen=True)
class Reveal(Effect):
    path: Path
    cards: Expr
    many: bool


@dataclass(frozen=True)
class Eliminate(Effect):
    path: Path
    player: Expr
    announce: str                       # the account's line, with {name}


@dataclass(frozen=True)
class Log(Effect):
    path: Path
    text: Text
    to: Expr | None                     # None: for everyone


@dataclass(frozen=True)
class Swap(Effect):
    path: Path
    a: ZoneRef
    b: ZoneRef
    journal: bool
    tag: Expr | None


@dataclass(frozen=True)
class UndoJournal(Effect):
    path: Path
    tag: Expr | None


@dataclass(frozen=True)
class ClearJournal(Effect):
    path: Path


@dataclass(frozen=True)
class RestartTurns(Effect):
    """Once the turn ends, the turns it is one of start again (their `first` or `order`)."""
    path: Path


@dataclass(frozen=True)
class Seal(Effect):
    """One part of a choice made together (`choose` with `together`), which the checker writes
    as plain steps around one choice (check/steps.py): `open` the window (the players to
    choose, in order), `enter` (the next of them to choose is current), `keep` the choice made
    (the names it binds), `skip` (nothing was legal), `reveal` the next choice kept (its player
    current, its names bound), `again` (after its `do`: another to reveal?), `close` (the
    player current before is again).  `key` is the local holding the window's
    record (runtime/windows.py), `key + '?'` and `key + '!'` whether some are still to choose
    and to be revealed."""
    path: Path
    key: str
    op: str
    names: tuple = ()                   # the names the choice binds, kept and bound again
    cards: tuple = ()                   # per name: whether it may hold cards (a planning bot renames them)
    players: Expr | None = None         # `open`: who chooses, in order


@dataclass(frozen=True)
class Refuse(Effect):
    path: Path


@dataclass(frozen=True)
class Redirect(Effect):
    path: Path
    to: Expr


# -- control flow ---------------------------------------------------------------------
# `holding`: the local names that may hold cards where the game can wait inside a step
# (a decision, or a call's return), so that a planning bot can rename hidden cards.

@dataclass(frozen=True)
class Exit:
    path: Path
    to: str                             # turn, round or game


@dataclass(frozen=True)
class If:
    path: Path
    cond: Expr
    then: Steps
    else_: Steps | None                 # None: no `else`
    fixed: bool | None = None           # the condition's value, when the options fix it


@dataclass(frozen=True)
class Repeat:
    path: Path
    body: Steps
    until: Expr


@dataclass(frozen=True)
class While:
    path: Path
    cond: Expr
    body: Steps


@dataclass(frozen=True)
class ForEach:
    path: Path
    var: str
    items: Expr
    elem_type: str
    body: Steps


@dataclass(frozen=True)
class Turns:
    path: Path                          # of the `turns` mapping
    first: Expr | None
    next: Expr | None
    until: Expr | None
    count: Expr | None
    order: Expr | None                  # the whole turn order, instead of first, next and count
    body: Steps
    holding: frozenset


@dataclass(frozen=True)
class Choose:
    path: Path
    var: str
    options: Expr                       # an expression, or the options written out in YAML
    elem_type: str
    where: Expr | None                  # evaluated once per option bound to `var`
    by: Expr | None
    label: Text | None
    prompt: Text
    otherwise: Steps | None
    holding: frozenset
    refusal: Text | None = None     # why an option of the list is not legal now, told to a person
    window: str | None = None       # a choice made together: the local of its window's record (Seal)


@dataclass(frozen=True)
class Alternative:
    """One kind of option of a ChooseAmong: a fixed word (`option: pass`), or one option per
    element of a list, or of each combination of several lists (`from: {who: ..., rank: ...}`),
    each bound to its names."""
    path: Path
    word: str | None                    # a single option, named by this word
    names: tuple                        # ((name, Expr of its list, element type), ...); () for a word
    when: Expr | None                   # the kind is offered only when this holds
    where: Expr | None                  # an option is legal only when this holds (its names bound)
    label: Text | None
    refusal: Text | None
    body: Steps | None                  # run when an option of this kind is picked (None: nothing)


@dataclass(frozen=True)
class ChooseAmong:
    """A decision among options of different kinds, or of several names each (one option per
    combination): one list, so that a player picking at random is uniform per move.  The
    option picked is [kind index, value, ...]."""
    path: Path
    alternatives: tuple                 # of Alternative
    by: Expr | None
    prompt: Text
    otherwise: Steps | None
    holding: frozenset                  # names holding cards while the decision waits
    window: str | None = None           # a choice made together: the local of its window's record (Seal)


@dataclass(frozen=True)
class Emit:
    path: Path
    event: str
    payload: tuple                      # (name, Expr) in the event's declared order
    holding: frozenset


@dataclass(frozen=True)
class Request:
    path: Path
    event: str
    src: Expr
    dst: Expr
    piece: Expr | None
    piece_type: str
    var: str
    answer: Steps
    holding: frozenset


@dataclass(frozen=True)
class Call:
    path: Path
    procedure: str
    holding: frozenset
    args: tuple = ()                    # (name, Expr) of the procedure's parameters, in declared order


# -- the ruleset ----------------------------------------------------------------------
@dataclass(frozen=True)
class Zone:
    name: str
    per_player: bool
    visibility: str
    label: str
    piles: bool = False                 # a zone of piles made during play (new_pile), each with an owner


@dataclass(frozen=True)
class Variable:
    name: str
    type: str
    initial: Expr                       # an expression, or the value written in YAML
    visibility: str
    shown: str | None                   # the label people read, when the variable is shown


@dataclass(frozen=True)
class Trigger:
    path: Path
    when: Expr | None
    body: Steps


@dataclass(frozen=True)
class Flow:
    setup: Steps
    round: Steps
    until: Expr
    end: Steps
    max_steps: int


@dataclass(frozen=True)
class Result:
    winners: Expr
    score: Expr | None
    standing: Expr | None


@dataclass(frozen=True)
class TableValue:
    """A value the table shows (the `table:` section): computed from the state as it stands,
    once (`per_player` False) or for each player p."""
    name: str
    value: Expr
    per_player: bool
    label: str


@dataclass(frozen=True)
class Statistic:
    """A measure simulate reports: `value` (a number or bool) once the game is over, or at
    the end of every round (`per` "round")."""
    name: str
    value: Expr
    per: str
    label: str


@dataclass
class Ruleset:
    """Everything a back end needs, checked and resolved."""
    name: str
    title: str
    file: str
    lines: list
    at: Callable                        # path -> (line, col) in the file
    lang: str
    languages: list
    options: dict                       # the options in force
    option_specs: dict
    players: tuple                      # (min, max, default)
    deck: Deck
    start_zone: str
    zones: dict                         # name -> Zone
    variables: dict                     # name -> Variable
    player_variables: dict              # name -> Variable
    symbols: object                     # the names expressions may use
    events: dict                        # name -> {payload name: type}
    flow: Flow
    procedures: dict                    # name -> Steps, in declared order
    triggers: dict                      # event -> [Trigger], events in order of first trigger
    result: Result
    seat_names: tuple                   # each seat's name, seat 1 up to the most players allowed
    teams: tuple = ()                   # ((players, (team of seat 1, ...)), ...): teams 1, 2, ... (teams.of)
    team_names: tuple = ()              # each team's name, team 1 up; () for its players' names
    statistics: tuple = ()              # (Statistic, ...) in declared order
    real: Callable | None = None        # line -> (file, line) where the rules are an overlay on other files
    rules_text: str = ""                # the rules in prose (rules_file), in the chosen language
    rules_path: str = ""                # the file they were read from ("" if none)
    facts: tuple = ()                   # standing facts of the options in force (options' at_table texts)
    table: tuple = ()                   # TableValue: values the table shows besides shown variables
    round_name: str = ""                # what players call a round ("hand"); "" for the default
    procedure_params: tuple = ()        # (procedure, parameter, type) of every procedure's parameters
    step_ids: dict = field(default_factory=dict)    # a step's id -> its node
    guide: dict = field(default_factory=dict)       # what a player reads: description, play, goal, rules, notes (its path)
    warnings: tuple = ()                # Problems of severity WARNING: what the checker cannot prove
