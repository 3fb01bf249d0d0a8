"""Any ruleset as an OpenSpiel game (the `openspiel` extra: open_spiel, numpy).

    from interpreter.envs.openspiel import register
    import pyspiel
    name = register("rulesets/my_game.yaml")    # "cardgame_my_game"
    game = pyspiel.load_game(name)

or `openspiel_game("rulesets/my_game.yaml")` for the game object itself.  OpenSpiel's algorithms
and tests then run on it (tests/test_openspiel.py runs its random simulation test and its
MCTS bot on every shipped ruleset).

The game starts with the deal: eight chance nodes, each a byte of the 64-bit seed the deal
and every later shuffle follow from (each of the 256 outcomes as likely), so that no seat
can find the seed by trying the deals against its first observation.  A chance outcome is
a byte of the seed and names no card; no seat's observation or information state holds
one, but the history does: it is the referee's record (docs/api.md, OpenSpiel, says what
each part of a state tells).  Actions are the game's fixed action ids (interpreter.api).
Observations are the seat's vector (`observation_tensor`) and its view as JSON
(`observation_string`); the information state is the observation with the seat's own
actions so far, which is what the seat remembers.  A game longer than `max_actions`
actions ends there: a draw (each seat an equal share of the win), or the scores so far.
"""
from __future__ import annotations

import json

try:
    import numpy as np
    import pyspiel
except ImportError as e:          # the extra is not installed
    raise ImportError(f"{e}: this environment needs the 'openspiel' extra: "
                      "pip install 'card-interpreter[openspiel]'") from e

from ..api import Game, load_game
from ..errors import UsageError

SEED_BYTES = 8                  # the deal's chance nodes: a 64-bit seed, the engine's whole Rng state
BYTE = [(b, 1 / 256) for b in range(256)]   # each node's outcomes, as likely


def seed_outcomes(seed: int) -> list[int]:
    """The deal's chance outcomes that deal `seed` (as `Game.new_state(seed)` does), to replay
    a game of the API here: `for a in seed_outcomes(seed): state.apply_action(a)`."""
    return list((seed % 2 ** (8 * SEED_BYTES)).to_bytes(SEED_BYTES, "little"))


def openspiel_game(ruleset: str, options: dict | None = None, players: int | None = None,
                   reward: str = "win", max_actions: int = 100_000) -> "CardGame":
    """The OpenSpiel game of a ruleset (a shipped game's name, a file or an overlay),
    registered with pyspiel under a name of its own (OpenSpiel copies a game by its name)."""
    return pyspiel.load_game(register(ruleset, options, players, reward, max_actions))


_REGISTERED: dict = {}          # name -> what it was registered with


def register(ruleset: str, options: dict | None = None, players: int | None = None, reward: str = "win",
             max_actions: int = 100_000, short_name: str | None = None) -> str:
    """Register the ruleset with pyspiel, so that pyspiel.load_game(name) makes it; the name:
    `cardgame_NAME`, with what differs from the defaults after it."""
    g = load_game(ruleset, options, players, reward)
    asked = (ruleset, tuple(sorted((options or {}).items())), g.num_players, reward, max_actions)
    name = short_name or _name(g, options, players, reward, max_actions)
    if name in _REGISTERED:
        if _REGISTERED[name] != asked:
            raise UsageError(f"an OpenSpiel game '{name}' is registered already, with other settings")
        return name
    def made(self, params=None):
        CardGame.__init__(self, g, max_actions, name)
    # a class, not a function: pyspiel keeps what it registers past the interpreter's end,
    # and a function it held would be freed then, without the lock Python needs
    pyspiel.register_game(_game_type(g, name), type(f"CardGame_{len(_REGISTERED)}", (CardGame,), {"__init__": made}))
    _REGISTERED[name] = asked
    return name


def _name(g: Game, options, players, reward, max_actions) -> str:
    parts = [f"cardgame_{g.name}"]
    parts += [f"{k}={v}" for k, v in sorted((options or {}).items())]
    if players is not None:
        parts.append(f"players={players}")
    if reward != "win":
        parts.append(f"reward={reward}")
    if max_actions != 100_000:
        parts.append(f"max_actions={max_actions}")
    return "_".join(parts)


def _game_type(g: Game, name: str):
    win = g.reward == "win"
    return pyspiel.GameType(
        short_name=name, long_name=f"{g.program.title or g.name} (rules as data)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM if win else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL if win else pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=g.num_players, min_num_players=g.num_players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={})


class Settings:
    """What a registered game is made of (pyspiel may rebuild a game object without calling
    its constructor, so states find these by the game's name)."""

    def __init__(self, game: Game, max_actions: int):
        self.game, self.max_actions = game, max_actions

    def __deepcopy__(self, memo):
        return self             # the compiled rules are shared, never copied


_SETTINGS: dict = {}


def _settings(game) -> Settings:
    return _SETTINGS[game.get_type().short_name]


class CardGame(pyspiel.Game):
    def __init__(self, game: Game, max_actions: int = 100_000, name: str | None = None):
        name = name or f"cardgame_{game.name}"
        _SETTINGS[name] = Settings(game, max_actions)
        win = game.reward == "win"
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions, max_chance_outcomes=len(BYTE),
            num_players=game.num_players,
            min_utility=0.0 if win else -1e9, max_utility=1.0 if win else 1e9,
            utility_sum=1.0 if win else None, max_game_length=max_actions)
        super().__init__(_game_type(game, name), info, {})

    def new_initial_state(self):
        return CardState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return CardObserver(_settings(self).game, iig_obs_type)


class CardState(pyspiel.State):
    def __init__(self, game: CardGame):
        super().__init__(game)
        self._game = _settings(game)
        self.inner = None               # the API's GameState, once dealt
        self._seed = []                 # the seed's bytes drawn so far, until the deal (then the seed is inner's)
        self._mine = [[] for _ in range(self._game.game.num_players)]    # each seat's own actions
        self._count = 0
        self._rewards = [0.0] * self._game.game.num_players

    def __deepcopy__(self, memo):
        """A copy of the game, sharing the compiled rules (OpenSpiel clones states often)."""
        c = CardState.__new__(CardState)
        pyspiel.State.__init__(c, self.get_game())
        c._game, c._count, c._seed = self._game, self._count, list(self._seed)
        c.inner = self.inner.clone() if self.inner is not None else None
        c._mine = [list(m) for m in self._mine]
        c._rewards = list(self._rewards)
        return c

    def resample_from_infostate(self, player, sampler):
        """A state `player` cannot tell from this one: the cards it cannot see dealt at random
        (OpenSpiel's ISMCTS bot searches on these)."""
        c = self.__deepcopy__({})
        c._seed = [int(sampler() * 256) for _ in self._seed]     # mid-deal: bytes no seat has seen
        # the others' own actions may name cards `player` never saw (a card laid face down)
        c._mine = [list(m) if p == player else [] for p, m in enumerate(self._mine)]
        if c.inner is not None:
            imagined = int(sampler() * 2 ** 53)
            c.inner = self.inner.resample(player, seed=imagined)
            c.inner.state.seed = imagined       # the imagined world records its own seed, not the real one
        return c

    def current_player(self):
        if self.inner is None:
            return pyspiel.PlayerId.CHANCE
        if self._ended():
            return pyspiel.PlayerId.TERMINAL
        return self.inner.current_player

    def _ended(self) -> bool:
        return self.inner.is_terminal() or self._count >= self._game.max_actions

    def chance_outcomes(self):
        return list(BYTE)

    def _legal_actions(self, player):
        return self.inner.legal_actions()

    def _apply_action(self, action):
        if self.inner is None:
            self._seed.append(int(action))
            if len(self._seed) == SEED_BYTES:
                self.inner = self._game.game.new_state(int.from_bytes(bytes(self._seed), "little"))
                self._seed = []
                self._rewards = self.inner.returns()    # a deal may end the game (war plays itself)
            return
        self._mine[self.inner.current_player].append(int(action))
        self.inner.apply(int(action))
        self._count += 1
        self._rewards = self.inner.rewards()
        if self._ended() and not self.inner.is_terminal():     # cut short: what the end gives, now
            self._rewards = [r + end - now for r, end, now in zip(self._rewards, self.returns(), self.inner.returns())]

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return self._game.game.action_names[action]

    def is_terminal(self):
        return self.inner is not None and self._ended()

    def returns(self):
        n = self._game.game.num_players
        if self.inner is None:
            return [0.0] * n
        if self._count >= self._game.max_actions and not self.inner.is_terminal():
            return [1.0 / n] * n if self._game.game.reward == "win" else self.inner.returns()
        return self.inner.returns()

    def rewards(self):
        if self.inner is None:
            return [0.0] * self._game.game.num_players
        return list(self._rewards)

    def information_state_string(self, player=None):
        player = self.current_player() if player is None else player
        return self.observation_string(player) + " mine: " + " ".join(map(str, self._mine[player]))

    def observation_string(self, player=None):
        player = self.current_player() if player is None else player
        if self.inner is None:
            return "not dealt"
        return json.dumps(self.inner.observation(player), sort_keys=True, ensure_ascii=False)

    def observation_tensor(self, player=None):
        player = self.current_player() if player is None else player
        if self.inner is None:
            return [0.0] * self._game.game.observation_size
        return self.inner.observation_vector(player)

    def __str__(self):
        return "not dealt" if self.inner is None else str(self.inner)


class CardObserver:
    """OpenSpiel's observer interface: a tensor (the seat's vector) and a string (its view)."""

    def __init__(self, game: Game, iig_obs_type=None):
        self.tensor = np.zeros(game.observation_size, np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)

    def set_from(self, state: CardState, player: int):
        self.tensor[:] = state.observation_tensor(player)

    def string_from(self, state: CardState, player: int):
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)
