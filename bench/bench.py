"""Random-playout throughput of every ruleset.

    python bench/bench.py [--games N] [--json] [RULESET...]

Plays N games of each ruleset between seeded random bots, with the account
switched off, and reports games/s, decisions per game and decisions/s.  A
decision is one choice by a player (forced single-option choices included);
shuffling and dealing are not decisions.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import random

from interpreter import apply, load_program, new_game

ROOT = pathlib.Path(__file__).resolve().parent.parent


def measure(path: str, games: int, players: int | None = None, backend: str = "generated") -> dict:
    program = load_program(path, backend=backend)
    if backend == "native":
        return measure_native(program, games, players)
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        s = new_game(program, seed=seed, players=players, log=False)
        pick = random.Random(seed).random     # the cheapest uniform bot: the engine is measured, not the bot
        while not s.over:
            apply(program, s, int(pick() * len(s.pending[1])))
        decisions += s.decisions
    elapsed = time.perf_counter() - start
    return {"ruleset": program.name, "players": players or program.players[2], "games": games,
            "seconds": round(elapsed, 3), "games_per_s": round(games / elapsed, 1),
            "decisions_per_game": round(decisions / games, 1),
            "decisions_per_s": round(decisions / elapsed),       # a game of no decisions (war): no time per one
            "us_per_decision": round(elapsed / decisions * 1e6, 1) if decisions else None}


def measure_native(program, games: int, players: int | None) -> dict:
    """Whole games played by the native kernel, its random bots inside (each seat's own
    generator, as simulate's): compiling (or reading the cache) is not timed, but reported."""
    if program.native is None:
        raise SystemExit(f"bench: {program.name}: {program.native_reason}")
    n = program.player_count(players)
    kernel = program.native
    kernel.compiled()
    start = time.perf_counter()
    rows = kernel.play(0, games, n)
    elapsed = time.perf_counter() - start
    done = [r for r in rows if r is not None]
    decisions = sum(r["decisions"] for r in done)
    return {"ruleset": program.name, "players": n, "games": games, "seconds": round(elapsed, 4),
            "games_per_s": round(games / elapsed, 1), "decisions_per_game": round(decisions / max(1, len(done)), 1),
            "decisions_per_s": round(decisions / elapsed),
            "us_per_decision": round(elapsed / decisions * 1e6, 3) if decisions else None,
            "gave_up": games - len(done), "compile_s": round(kernel.compile_seconds, 2),
            "from_cache": kernel.from_cache}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("rulesets", nargs="*", help="ruleset files (default: every file in rulesets/)")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--players", type=int)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--backend", choices=["generated", "closures", "native"], default="generated",
                   help="the back end (default: generated; native: whole games in the Numba kernel)")
    args = p.parse_args(argv)
    paths = args.rulesets or sorted(str(x) for x in (ROOT / "rulesets").glob("*.yaml"))
    rows = [measure(path, args.games, args.players, args.backend) for path in paths]
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'ruleset':<14}{'players':>8}{'games':>7}{'games/s':>10}{'dec/game':>10}{'dec/s':>10}{'us/dec':>8}")
    for r in rows:
        print(f"{r['ruleset']:<14}{r['players']:>8}{r['games']:>7}{r['games_per_s']:>10}"
              f"{r['decisions_per_game']:>10}{r['decisions_per_s']:>10}{r['us_per_decision'] or '-':>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
