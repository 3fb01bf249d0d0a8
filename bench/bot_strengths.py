"""How long a decision of the server's bots takes at each strength (interpreter/server/games.py,
STRENGTHS), so that the numbers of a strength can be chosen to keep every decision short: a
bot thinking holds its own table up (never another: it thinks in a worker process).

    python bench/bot_strengths.py [--games hearts2 gin_rummy] [--bots mc ismcts] [--decisions 30] [--json FILE]

Random games are played from a few seeds, and every seventh decision with more than one
option is kept (one game in, a few hands on); at as many of them as --decisions asks for,
spread across the games, each bot at each strength makes the decision once, timed alone
(wall clock: a time bound is wall clock).  It reports the mean, median and longest decision.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from interpreter import apply, load_program, new_game  # noqa: E402
from interpreter.playing.agents import Decision, bot_named  # noqa: E402
from interpreter.runtime.state import Rng  # noqa: E402
from interpreter.server.games import STRENGTHS  # noqa: E402
from interpreter.source.shipped import resolve  # noqa: E402

SEEDS = (100, 101, 102)
EVERY = 7                   # keep every seventh decision of a random game
MOST = 400                  # decisions of a random game looked at


def decision_points(program, players) -> list:
    """(seed, decisions made before it) of the decisions kept."""
    points = []
    for seed in SEEDS:
        s, rng = new_game(program, seed=seed, players=players, log=False), Rng(seed)
        for n in range(MOST):
            if s.over:
                break
            if len(s.pending[1]) > 1 and n % EVERY == 0:
                points.append((seed, n))
            apply(program, s, rng.below(len(s.pending[1])))
    return points


def state_at(program, players, seed: int, n: int):
    s, rng = new_game(program, seed=seed, players=players, log=False), Rng(seed)
    for _ in range(n):
        apply(program, s, rng.below(len(s.pending[1])))
    return s


def timed(program, players, points, spec: dict) -> list[float]:
    times = []
    for seed, n in points:
        s = state_at(program, players, seed, n)
        agent = bot_named(spec, 7)
        start = time.perf_counter()
        agent.choose(Decision(program, s))
        times.append(time.perf_counter() - start)
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["hearts2", "gin_rummy"])
    parser.add_argument("--decisions", type=int, default=30, help="decisions timed per game (default 30)")
    parser.add_argument("--bots", nargs="+", default=list(STRENGTHS), choices=list(STRENGTHS))
    parser.add_argument("--json", help="write the figures to this file too")
    args = parser.parse_args(argv)
    rows = []
    for game in args.games:
        program = load_program(resolve(game), {}, None)
        players = program.players[2]
        points = decision_points(program, players)
        points = points[::max(1, len(points) // args.decisions)][:args.decisions]
        for kind in args.bots:
            for strength, spec in STRENGTHS[kind].items():
                times = timed(program, players, points, spec)
                rows.append({"game": game, "bot": kind, "strength": strength, "decisions": len(times),
                             "mean": statistics.mean(times), "median": statistics.median(times), "max": max(times)})
                r = rows[-1]
                print(f"{game:12} {kind:7} {strength:7} {r['decisions']:3} decisions  mean {r['mean']:.3f} s  "
                      f"median {r['median']:.3f} s  longest {r['max']:.3f} s", flush=True)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
