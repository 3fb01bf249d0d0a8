"""One seat of any ruleset as a Gymnasium environment; the other seats are played by a bot
(the `envs` extra).

    from interpreter.envs.gymnasium import SeatEnv
    e = SeatEnv("rulesets/my_game.yaml", seat=0, opponents="random")
    obs, info = e.reset(seed=1)
    while True:
        action = e.action_space.sample(obs["action_mask"])
        obs, reward, terminated, truncated, info = e.step(action)
        if terminated or truncated:
            break

The observation is {"observation": the seat's vector, "action_mask": its legal actions};
the reward is what the seat gained since its last action (the game's reward: a share of
the win by default, or its score or standing), the other seats' moves included.  An action
the mask does not allow is an error (gymnasium's check_env, which tries unmasked actions,
does not apply); a game over before the seat's first turn gives it one step, `end`.
`render()` draws the table as the seat sees it, never a card it may not see.
"""
from __future__ import annotations

try:
    import numpy as np
    import gymnasium
    from gymnasium import spaces
except ImportError as e:          # the extra is not installed
    raise ImportError(f"{e}: this environment needs the 'envs' extra: "
                      "pip install 'card-interpreter[envs]'") from e

from ..api import Game, load_game
from ..api.actions import END
from ..api.game import table_text
from ..errors import UsageError
from ..playing.agents import Decision, FirstAgent, MonteCarloAgent, RandomAgent

BOTS = ("random", "first", "mc")


def bot(name: str, seed: int):
    """A bot of playing/agents.py by name: 'random', 'first' or 'mc' (Monte Carlo play-outs)."""
    if name == "random":
        return RandomAgent(seed)
    if name == "first":
        return FirstAgent()
    if name == "mc":
        return MonteCarloAgent(seed, playouts=10)
    raise ValueError(f"no bot '{name}'; choose one of: {', '.join(BOTS)}")


class SeatEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, ruleset: str | None = None, seat: int = 0, opponents="random", options: dict | None = None,
                 players: int | None = None, reward: str = "win", max_actions: int = 100_000,
                 render_mode: str | None = None, game: Game | None = None):
        if game is None and ruleset is None:
            raise UsageError("give a ruleset (a file, an overlay or a shipped game's name) or a game")
        self.game = game if game is not None else load_game(ruleset, options, players, reward)
        if not 0 <= seat < self.game.num_players:
            raise ValueError(f"{self.game.name} has seats 0 to {self.game.num_players - 1}, not {seat}")
        self.seat = seat
        self.opponents = opponents          # a bot's name, or an object with choose(Decision) -> index
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.game.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8)})
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state = None

    def reset(self, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.state = self.game.new_state(int(self.np_random.integers(2 ** 64, dtype=np.uint64)))
        self._bots = (bot(self.opponents, int(self.np_random.integers(2 ** 31)))
                      if isinstance(self.opponents, str) else self.opponents)
        self._actions = 0
        self._others_play()
        self._idle = self.state.is_terminal()   # over before the seat acts: one step to end it
        return self._observe(), self._info()

    def step(self, action):
        if self._idle:
            if int(action) != self.game.actions.index[END]:
                raise UsageError(f"action {action} is not legal: the game is over, the only action is 'end'")
            self._idle = False
            return self._observe(), float(self.state.returns()[self.seat]), True, False, self._info()
        before = self.state.returns()[self.seat]
        self.state.apply(int(action))
        self._actions += 1
        self._others_play()
        reward = self.state.returns()[self.seat] - before
        terminated = self.state.is_terminal()
        truncated = not terminated and self._actions >= self.max_actions
        return self._observe(), float(reward), terminated, truncated, self._info()

    def _others_play(self) -> None:
        """The other seats decide, with the bot, until it is this seat's turn or the end."""
        s = self.state
        while not s.is_terminal() and s.current_player != self.seat:
            s.apply_option(self._bots.choose(Decision(self.game.program, s.state)))

    def _observe(self) -> dict:
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if self._idle:
            mask[self.game.actions.index[END]] = 1
        elif not self.state.is_terminal():
            mask[self.state.legal_actions()] = 1
        return {"observation": np.asarray(self.state.observation_vector(self.seat), dtype=np.float32),
                "action_mask": mask}

    def _info(self) -> dict:
        return {"options": self.state.options() if self.state.current_player == self.seat else [],
                "returns": self.state.returns()}

    def render(self):
        """The table as this seat sees it: the seat's own program may draw it."""
        return "" if self.state is None else table_text(self.state, self.seat)
