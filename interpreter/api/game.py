"""A game written as data, as researchers' tools expect a game: players, a fixed action
space with a mask, observations per seat, rewards, chance and copies (docs/api.md)."""
from __future__ import annotations

import random

from ..errors import UsageError
from ..pipeline import DEFAULT_BACKEND, load_program
from ..runtime import engine
from ..runtime.program import Program
from ..runtime.state import Rng
from ..source.shipped import resolve
from .actions import END, ActionSpace, _constants
from .observations import VectorLayout, observation

REWARDS = ("win", "score", "standing")


def load_game(ruleset: str, options: dict | None = None, players: int | None = None,
              reward: str = "win", backend: str = DEFAULT_BACKEND, lang: str | None = None,
              face_down: bool = False) -> "Game":
    """The game of a ruleset file, a shipped game's name or an overlay, with its options
    (`{"passing": "none"}`) and number of players (the ruleset's default when None), built
    by the back end named `backend` ("generated", or "closures", the reference)."""
    program = load_program(resolve(ruleset), options={k: str(v) for k, v in (options or {}).items()},
                           lang=lang, backend=backend)
    return Game(program, players, reward=reward, face_down=face_down)


class Game:
    """What does not change during a game: the rules, the number of players, the action
    space and the observation layout."""

    def __init__(self, program: Program, players: int | None = None, reward: str = "win",
                 face_down: bool = False):
        if reward not in REWARDS:
            raise UsageError(f"no reward '{reward}'; choose one of: {', '.join(REWARDS)}")
        if reward == "score" and program.score is None:
            raise UsageError(f"{program.name} gives no score: use reward='win'")
        if reward == "standing" and program.standing is None:
            raise UsageError(f"{program.name} says no standing: use reward='win' or 'score'")
        self.program = program
        self.num_players = program.player_count(players)
        self.reward = reward
        self.actions = ActionSpace(program, self.num_players, face_down)
        self.layout = VectorLayout(program, self.num_players, _constants(program)[1])

    @property
    def name(self) -> str:
        return self.program.name

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    @property
    def action_names(self) -> list[str]:
        return list(self.actions.names)

    @property
    def observation_size(self) -> int:
        return self.layout.size

    def action_id(self, name: str) -> int:
        """The id of the action named `name` ('card:Q♠', 'kind:draw', 'number:3')."""
        try:
            return self.actions.index[name]
        except KeyError:
            raise UsageError(f"{self.name} has no action '{name}'") from None

    def new_state(self, seed: int | None = None) -> "GameState":
        """A game dealt from `seed` (a random one when None): the deal and every later
        shuffle follow from it, so a seed and the actions replay a game."""
        if seed is None:
            seed = random.randrange(2 ** 64)      # the Rng's whole state: too many deals to try
        return GameState(self, engine.new_game(self.program, seed=seed, players=self.num_players, log=False))


class GameState:
    """One game in progress.  `apply` takes an action id; the same player may act again
    while the tokens picked so far fit several options (actions.py)."""

    def __init__(self, game: Game, state, prefix: tuple = (), value=None):
        self.game = game
        self.state = state
        self._prefix = prefix
        self._spelled = None            # (decision count, the pending options' spellings)
        self._ahead = None              # (decision count, the seats a simultaneous choice asks: see _window_ahead)
        self._value = value if value is not None else self._measure()
        self._rewards = [0.0] * game.num_players

    # -- whose turn, what is legal ----------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return None if self.state.over else self.state.pending[0]

    def is_terminal(self) -> bool:
        return self.state.over

    def legal_actions(self) -> list[int]:
        """The action ids the player to act may take, in increasing order."""
        if self.state.over:
            return []
        depth = len(self._prefix)
        ahead = set()
        for seq in self._fitting():
            ahead.add(seq[depth] if len(seq) > depth else self.game.actions.index[END])
        return sorted(ahead)

    def acting_players(self) -> list[int]:
        """The seats that act now: the one to act or, at a simultaneous choice, every seat
        still to choose there, the one to act first (docs/api.md, "Simultaneous choices"); a
        seat with no legal option there is left out, as the choice leaves it out."""
        if self.state.over:
            return []
        return list(self._window_ahead())

    def legal_actions_for(self, seat: int) -> list[int]:
        """The actions `seat` may take now: the seat to act's, or, for another seat still to
        choose at a simultaneous choice, its first actions there (which nothing the seats
        before it choose can change: no choice has an effect before all are made)."""
        ahead = self._window_ahead().get(seat)
        return ahead.legal_actions() if ahead is not None else []

    def _window_ahead(self) -> dict:
        """seat -> the game as it is when that seat is asked, for the seat to act and each seat
        the simultaneous choice pending now asks after it (the seats before it choosing their
        first option: what they choose changes nothing there)."""
        s = self.state
        if self._ahead is not None and self._ahead[0] == s.decisions:
            return self._ahead[1]
        ahead = {self.current_player: self}
        program = self.game.program
        window = None if self._prefix else program.choices[s.pending[2]].window
        waiting = engine.window_seats(program, s)[1:] if window is not None else []
        if waiting:
            c = self.clone()
            while True:
                c.apply_option(0)
                p = c.state.pending
                if c.state.over or p is None or program.choices[p[2]].window != window or p[0] in ahead \
                        or p[0] not in waiting:
                    break
                ahead[p[0]] = c.clone()
        self._ahead = (s.decisions, ahead)
        return ahead

    def legal_action_mask(self) -> list[int]:
        mask = [0] * self.game.num_actions
        for a in self.legal_actions():
            mask[a] = 1
        return mask

    def action_name(self, action: int) -> str:
        return self.game.actions.names[action]

    def options(self) -> list[str]:
        """The moves of the pending decision, as the rules word them ('play Q♠')."""
        return engine.labels(self.game.program, self.state)

    def _spellings(self) -> list[tuple]:
        s = self.state
        if self._spelled is None or self._spelled[0] != s.decisions:
            seat, options, cid = s.pending
            self._spelled = (s.decisions, self.game.actions.spell(s, seat, cid, options))
        return self._spelled[1]

    def _fitting(self) -> list[tuple]:
        prefix, depth = self._prefix, len(self._prefix)
        return [seq for seq in self._spellings() if seq[:depth] == prefix]

    # -- acting ---------------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Take action `action` (an id from legal_actions)."""
        if action not in self.legal_actions():
            raise UsageError(f"action {action} ({self._named(action)}) is not legal now; "
                             f"legal: {', '.join(self.action_name(a) for a in self.legal_actions())}")
        end = action == self.game.actions.index[END]
        prefix = self._prefix if end else self._prefix + (action,)
        spellings = self._spellings()
        fits = [i for i, seq in enumerate(spellings) if seq[:len(prefix)] == prefix]
        exact = [i for i in fits if len(spellings[i]) == len(prefix)]
        if end or len(fits) == 1 or (exact and len(exact) == len(fits)):
            self.apply_option((exact or fits)[0])
        else:
            self._prefix = prefix
            self._rewards = [0.0] * self.game.num_players

    def _named(self, action) -> str:
        return self.action_name(action) if isinstance(action, int) and 0 <= action < self.game.num_actions else "no such action"

    def apply_option(self, index: int) -> None:
        """Take the pending decision's option `index` (as engine.labels lists them) at once."""
        self._prefix = ()
        engine.apply(self.game.program, self.state, index)
        value = self._measure()
        self._rewards = [new - old for new, old in zip(value, self._value)]
        self._value = value

    # -- rewards --------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Each seat's return so far; at the end, what the game gave it: a share of the win
        (1 split among the winners), its score, or its standing, as the game's reward says."""
        return list(self._value)

    def rewards(self) -> list[float]:
        """What each seat gained by the last action (their sum over a game is its returns)."""
        return list(self._rewards)

    def _measure(self) -> list[float]:
        program, s, n = self.game.program, self.state, self.game.num_players
        reward = self.game.reward
        if reward == "win":
            if not s.over:
                return [0.0] * n
            winners = s.result["winners"] if s.result else engine.result(program, s)["winners"]
            return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]
        if reward == "score":
            return [float(program.score(s, {"p": p}) or 0) for p in range(n)]
        return [float(v or 0) for v in engine.standing(program, s)]

    # -- what a seat sees -------------------------------------------------------------
    def observation(self, seat: int) -> dict:
        """What `seat` may see now, as a dict (observations.py)."""
        return observation(self.game.program, self.state, seat)

    def observation_vector(self, seat: int) -> list[float]:
        """The same, as game.observation_size numbers."""
        return self.game.layout.vector(self.observation(seat))

    def view(self, seat: int | None) -> dict:
        """The engine's view of the seat (None: everything), with the decision's options."""
        return engine.view(self.game.program, self.state, seat)

    # -- copies and chance ----------------------------------------------------------
    def clone(self) -> "GameState":
        c = GameState(self.game, self.state.copy(), self._prefix, list(self._value))
        c._rewards = list(self._rewards)
        return c

    def __deepcopy__(self, memo):
        return self.clone()     # the game (compiled rules) is shared; the state is copied

    def resample(self, seat: int, seed: int | None = None) -> "GameState":
        """A copy of the game as `seat` might imagine it, the bots' imagined deal
        (engine.determinize): made of the seat's view and fresh chance, no real seed.  The
        tokens of an action begun are kept only for the seat that began it, and only where
        the imagined options still fit them."""
        rng = Rng(seed if seed is not None else random.randrange(2 ** 31))
        own = self._prefix if self._prefix and self.current_player == seat else ()
        c = GameState(self.game, engine.determinize(self.game.program, self.state, seat, rng), own)
        c._value = list(self._value)
        if own and not c._fitting():
            c._prefix = ()
        return c

    @property
    def seed(self) -> int:
        return self.state.seed

    def __str__(self) -> str:
        return table_text(self)


def table_text(gs: GameState, seat: int | None = None) -> str:
    """The table as text, as `seat` sees it (a card it may not see is None; None: everything)."""
    v = gs.view(seat)
    who = "" if seat is None else f", as player {seat} sees it"
    lines = [f"{gs.game.name}: {'over' if v['over'] else f'player {gs.current_player} to act'}{who}"]
    for name, cards in v["zones"].items():
        lines.append(f"  {name}: {cards}")
    return "\n".join(lines)
