"""Train a small agent on a card game through the PettingZoo environment, and watch its
win rate against random players rise.

    pip install '.[envs]'
    python examples/learning/train_reinforce.py                 # gnav2, 10,000 games: about a minute
    python examples/learning/train_reinforce.py --game hearts2 --episodes 3000

The agent is a linear softmax policy over the legal actions (numpy only), trained by
REINFORCE with a running baseline: after each game it makes the moves of a won game more
likely and those of a lost one less.  It sits in every seat in turn; the others are
random players.  Every `--every` games it is measured greedily on the same evaluation deals.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from interpreter.envs.pettingzoo import env as card_env


class LinearPolicy:
    def __init__(self, observations: int, actions: int, seed: int):
        self.rng = np.random.default_rng(seed)
        self.w = np.zeros((observations, actions))
        self.b = np.zeros(actions)

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = x @ self.w + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        e = np.exp(logits - logits[mask > 0].max())
        return e / e.sum()

    def act(self, x, mask, greedy: bool = False) -> int:
        p = self.probabilities(x, mask)
        return int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))

    def learn(self, steps: list, advantage: float, rate: float) -> None:
        """One REINFORCE step: the gradient of log pi(a|x) is x (onehot(a) - pi)."""
        for x, mask, a in steps:
            p = self.probabilities(x, mask)
            g = -p
            g[a] += 1.0
            self.w += rate * advantage * np.outer(x, g)
            self.b += rate * advantage * g


def features(obs: np.ndarray) -> np.ndarray:
    """The observation squashed into (-1, 1): scores and totals of any size stay comparable."""
    return obs / (1.0 + np.abs(obs))


def play(e, policy, seat: int, seed: int, greedy: bool, rng) -> tuple[float, list]:
    """One game with the policy in `seat`: what it won, and its (x, mask, action) steps."""
    me = e.possible_agents[seat]
    e.reset(seed=seed)
    steps, won = [], 0.0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if agent == me:
            won += reward
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        if agent == me:
            x = features(obs["observation"])
            a = policy.act(x, mask, greedy)
            steps.append((x, mask, a))
        else:
            a = int(rng.choice(np.flatnonzero(mask)))
        e.step(a)
    return won, steps


def win_rate(e, policy, games: int, rng) -> float:
    n = len(e.possible_agents)
    return sum(play(e, policy, k % n, 10_000_000 + k, True, rng)[0] for k in range(games)) / games


def train(game: str = "gnav2", episodes: int = 10000, every: int = 2000, evaluation: int = 300,
          rate: float = 0.05, seed: int = 0, say=print) -> list[tuple[int, float]]:
    """Train, and return (games trained, greedy win rate) at each evaluation."""
    e = card_env(game, max_actions=2000)
    e.reset(seed=seed)
    policy = LinearPolicy(e.game.observation_size, e.game.num_actions, seed)
    rng = np.random.default_rng(seed + 1)
    n = len(e.possible_agents)
    baseline = 1.0 / n
    curve = [(0, win_rate(e, policy, evaluation, rng))]
    say(f"{game}: {n} players, {e.game.num_actions} actions, observation of {e.game.observation_size}")
    say(f"  after {0:5d} games: wins {curve[-1][1]:.3f} of its games against random players (chance: {1 / n:.3f})")
    start = time.perf_counter()
    for k in range(1, episodes + 1):
        won, steps = play(e, policy, k % n, seed * 1_000_000 + k, False, rng)
        policy.learn(steps, won - baseline, rate)
        baseline += 0.01 * (won - baseline)
        if k % every == 0:
            curve.append((k, win_rate(e, policy, evaluation, rng)))
            say(f"  after {k:5d} games: wins {curve[-1][1]:.3f}  ({time.perf_counter() - start:.0f} s)")
    return curve


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="gnav2")
    p.add_argument("--episodes", type=int, default=10000)
    p.add_argument("--every", type=int, default=2000)
    p.add_argument("--evaluation", type=int, default=300, help="games of each evaluation")
    p.add_argument("--rate", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    train(a.game, a.episodes, a.every, a.evaluation, a.rate, a.seed)


if __name__ == "__main__":
    main()
