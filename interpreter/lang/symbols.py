"""The names an expression may use, as a ruleset declares them: the checker's input."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class FunctionDef:
    """A ruleset-defined function as written: a named expression with parameters."""
    name: str
    params: list | None     # None: the function's shape is wrong (reported where it is written)
    tree: object        # its parsed body (a lark tree)


@dataclass
class Symbols:
    """Every name an expression may use, as declared by the ruleset."""
    options: dict = field(default_factory=dict)
    option_values: dict = field(default_factory=dict)   # name -> every value an option of listed choices can take
    misshapen_options: frozenset = frozenset()  # options declared in a shape the schema refused (not a mapping)
    card_attrs: dict = field(default_factory=dict)      # name -> (type, table indexed by card)
    global_vars: dict = field(default_factory=dict)     # name -> type
    player_vars: dict = field(default_factory=dict)     # name -> type
    shared_zones: set = field(default_factory=set)
    player_zones: set = field(default_factory=set)
    pile_zones: set = field(default_factory=set)
    team_vars: set = field(default_factory=set)         # the player variables a team's players share (team_variables)        # zones of piles made during play (`piles: true`)
    functions: dict = field(default_factory=dict)       # name -> FunctionDef
    all_cards: tuple = ()
    seats: int = 0                  # the fewest players a game has: players[i] below it is never null
    teams: dict | None = None       # players -> (team of seat 1, ...) when the ruleset has teams, else None

    @property
    def display(self):
        """The card display table (card -> text), empty before the deck has one."""
        return self.card_attrs.get("display", (None, ()))[1]
