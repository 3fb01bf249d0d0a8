"""What planning and simulation cost: a state's copy, an imagined deal, the planning bot's
decisions per second, and simulate's speed-up from 1 to 2 jobs.

    python bench/costs.py [--backend generated|closures] [--quick]

Each figure is the best of a few repeats (CPU time for the single-process ones), so that a
busy machine disturbs it less; simulate's speed-up is wall-clock time, 1 job against 2.
"""
from __future__ import annotations

import argparse
import sys
import time

from interpreter import apply, load_program, new_game
from interpreter.playing.agents import Decision, MonteCarloAgent
from interpreter.lab.simulation import simulate
from interpreter.runtime.engine import determinize
from interpreter.runtime.state import Rng

GAMES = [("hearts2", None), ("gnav", 6), ("gnav", 20)]


def mid_game(program, players, seed=1, decisions=10):
    s = new_game(program, seed=seed, players=players, log=False)
    rng = Rng(seed)
    for _ in range(decisions):
        if s.over:
            break
        apply(program, s, rng.below(len(s.pending[1])))
    return s


def best_of(fn, repeats=5, number=2000) -> float:
    """µs per call of fn, the best of `repeats` runs of `number` calls (CPU time)."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        for _ in range(number):
            fn()
        best = min(best, time.process_time() - t0)
    return best / number * 1e6


def mc_decisions_per_s(program, players, playouts, games) -> float:
    """Decisions per second of the planning bot (one seat) against random bots."""
    decided, spent = 0, 0.0
    for seed in range(games):
        s = new_game(program, seed=seed, players=players, log=False)
        bot, rng = MonteCarloAgent(seed, playouts=playouts), Rng(seed + 99)
        while not s.over:
            seat = s.pending[0]
            if seat == 0:
                t0 = time.process_time()
                choice = bot.choose(Decision(program, s))
                spent += time.process_time() - t0
                decided += 1
            else:
                choice = rng.below(len(s.pending[1]))
            apply(program, s, choice)
    return decided / spent if spent else 0.0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backend", choices=["generated", "closures"], default="generated")
    p.add_argument("--quick", action="store_true", help="fewer games and repeats")
    args = p.parse_args(argv)
    q = args.quick
    print(f"{'game':<12}{'copy us':>9}{'imagine us':>12}{'mc dec/s':>10}")
    for name, players in GAMES:
        program = load_program(f"rulesets/{name}.yaml", backend=args.backend)
        s = mid_game(program, players)
        rng = Rng(7)
        copy = best_of(s.copy, 3 if q else 5)
        imagine = best_of(lambda: determinize(program, s, s.pending[0], rng), 3 if q else 5)
        mc = mc_decisions_per_s(program, players, playouts=20, games=1 if q else 3)
        label = name + (f" {players}p" if players else "")
        print(f"{label:<12}{copy:>9.1f}{imagine:>12.1f}{mc:>10.1f}")
    program = load_program("rulesets/gnav2.yaml", backend=args.backend)
    games = 2000 if q else 10000
    t = {}
    for jobs in (1, 2):
        t0 = time.perf_counter()
        simulate(program, games, jobs=jobs)
        t[jobs] = time.perf_counter() - t0
    print(f"simulate gnav2 {games} games: 1 job {t[1]:.2f} s, 2 jobs {t[2]:.2f} s, speed-up {t[1] / t[2]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
