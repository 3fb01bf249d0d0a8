"""Any ruleset as a PettingZoo AEC environment (the `envs` extra: pettingzoo, gymnasium, numpy).

    from interpreter.envs.pettingzoo import env
    e = env("rulesets/my_game.yaml", options={"target_score": "50"})   # or a shipped game's name
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Each agent observes {"observation": its fixed-size vector, "action_mask": the actions it
may take now (all zero when it is not its turn)}; actions are the game's fixed action ids
(interpreter.api).  An agent may act several times in a row: a player whose move takes
several tokens, or whose turn comes again.  A game that needs no decision at all (war
plays itself) gives the first agent one step whose only legal action is `end`, so that the
protocol holds: agents act, then learn the result.

`parallel_env(...)` is the same game under PettingZoo's parallel API: each step takes the
actions of every agent that acts now, which is one agent, or at a simultaneous choice
(docs/language.md, "Choices made together") every seat still to choose there, all at once.
The others' masks are all zero and their actions are ignored.
"""
from __future__ import annotations

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
except ImportError as e:          # the extra is not installed
    raise ImportError(f"{e}: this environment needs the 'envs' extra: "
                      "pip install 'card-interpreter[envs]'") from e

from ..api import Game, load_game
from ..api.actions import END
from ..errors import UsageError


def env(ruleset: str, **kwargs) -> "CardGameEnv":
    """The environment of a ruleset (a shipped game's name, a file or an overlay)."""
    return CardGameEnv(ruleset, **kwargs)


class CardGameEnv(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "card_game_v0", "is_parallelizable": False}

    def __init__(self, ruleset: str | None = None, options: dict | None = None, players: int | None = None,
                 reward: str = "win", max_actions: int = 100_000, render_mode: str | None = None,
                 game: Game | None = None):
        super().__init__()
        if game is None and ruleset is None:
            raise UsageError("give a ruleset (a file, an overlay or a shipped game's name) or a game")
        self.game = game if game is not None else load_game(ruleset, options, players, reward)
        self.metadata = dict(self.metadata, name=f"{self.game.name}_v0")
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        vector = spaces.Box(-np.inf, np.inf, (self.game.observation_size,), np.float32)
        mask = spaces.Box(0, 1, (self.game.num_actions,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": vector, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self.render_mode = render_mode
        self.max_actions = max_actions
        self._seeds = np.random.default_rng()
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.state = self.game.new_state(int(self._seeds.integers(2 ** 64, dtype=np.uint64)))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._actions = 0
        self._idle = self.state.is_terminal()     # the game played itself: one step to end it
        self.agent_selection = self.agents[0 if self._idle else self.state.current_player]

    def observe(self, agent):
        seat = self._seat[agent]
        vector = np.asarray(self.state.observation_vector(seat), dtype=np.float32)
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            for a in self._legal():
                mask[a] = 1
        return {"observation": vector, "action_mask": mask}

    def _legal(self) -> list[int]:
        return [self.game.actions.index[END]] if self._idle else self.state.legal_actions()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._idle:
            if int(action) not in self._legal():
                raise ValueError(f"action {action} is not legal: the game is over, the only action is 'end'")
            self._idle = False
            gained = self.state.returns()
        else:
            self.state.apply(int(action))
            gained = self.state.rewards()
        self._actions += 1
        for a in self.agents:
            self.rewards[a] = float(gained[self._seat[a]])
        if self.state.is_terminal():
            self.terminations = {a: True for a in self.agents}
        elif self._actions >= self.max_actions:
            self.truncations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[self.state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        text = str(self.state) if self.state is not None else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def parallel_env(ruleset: str | None = None, **kwargs) -> "CardGameParallelEnv":
    """The environment of a ruleset under the parallel API: the seats of a simultaneous
    choice act in one step."""
    return CardGameParallelEnv(ruleset, **kwargs)


class CardGameParallelEnv(ParallelEnv):
    """Agents, spaces and observations as CardGameEnv's.  A move of several tokens is one
    token per step; the actions of the seats after it in a simultaneous choice wait, given,
    until it is complete (their masks are zero meanwhile)."""
    metadata = {"render_modes": ["ansi", "human"], "name": "card_game_parallel_v0"}

    def __init__(self, ruleset: str | None = None, options: dict | None = None, players: int | None = None,
                 reward: str = "win", max_actions: int = 100_000, render_mode: str | None = None,
                 game: Game | None = None):
        self._aec = CardGameEnv(ruleset, options, players, reward, max_actions, render_mode, game)
        self.game = self._aec.game
        self.metadata = dict(self.metadata, name=f"{self.game.name}_parallel_v0")
        self.possible_agents = self._aec.possible_agents
        self.observation_spaces, self.action_spaces = self._aec.observation_spaces, self._aec.action_spaces
        self.render_mode = render_mode
        self.max_actions = max_actions
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._aec.reset(seed, options)
        self.state = self._aec.state
        self.agents = list(self.possible_agents)
        self._idle = self.state.is_terminal()     # the game played itself: one step to end it
        self._held = []                           # (seat, action) given, to apply once the seats before them are done
        self._actions = 0
        return self._observations(), {a: {} for a in self.agents}

    def _acting(self) -> list[int]:
        if self._idle:
            return [0]
        if self._held:
            return [self.state.current_player]      # finishing a move of several tokens
        return self.state.acting_players()

    def _observations(self) -> dict:
        acting = self._acting()
        out = {}
        for agent in self.agents:
            seat = self._aec._seat[agent]
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
            if seat in acting:
                legal = [self.game.actions.index[END]] if self._idle else self.state.legal_actions_for(seat)
                mask[legal] = 1
            out[agent] = {"observation": np.asarray(self.state.observation_vector(seat), dtype=np.float32),
                          "action_mask": mask}
        return out

    def step(self, actions: dict):
        acting = self._acting()
        missing = [self.possible_agents[p] for p in acting if self.possible_agents[p] not in actions]
        if missing:
            raise ValueError(f"{', '.join(missing)} act now: give an action for each")
        queue = [(p, int(actions[self.possible_agents[p]])) for p in acting] + self._held
        gained = [0.0] * self.game.num_players
        if self._idle:
            self._idle, queue = False, []
            gained = self.state.returns()
        while queue and not self.state.is_terminal():
            seat, action = queue.pop(0)
            if action not in self.state.legal_actions():
                raise ValueError(f"action {action} is not legal for {self.possible_agents[seat]} now")
            self.state.apply(action)
            self._actions += 1
            gained = [g + r for g, r in zip(gained, self.state.rewards())]
            if self.state.current_player == seat and queue and queue[0][0] != seat:
                break                               # its move takes another token: the others wait
        self._held = queue
        rewards = {a: float(gained[self._aec._seat[a]]) for a in self.agents}
        over = self.state.is_terminal()
        truncated = not over and self._actions >= self.max_actions
        terminations = {a: over for a in self.agents}
        truncations = {a: truncated for a in self.agents}
        observations = self._observations()
        infos = {a: {} for a in self.agents}
        if over or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self):
        return self._aec.render()

    def close(self) -> None:
        pass
