"""Python bytecodes run per decision, by function: a measure of the engine's work that no
other load on the machine disturbs (timings here are noisy; these counts repeat exactly).

    python bench/opcodes.py RULESET [--players N] [--games N] [--top N] [--reference FILE]

Plays seeded games with the cheapest uniform bot (as bench/bench.py does) under a tracer
that counts every opcode, and prints the count per decision, then the functions that run
the most.  `--reference FILE` counts a hand-coded game the same way (a module with
`play(seed[, players])` returning a dict with `decisions`, as ../shared/bench/ has), so
that the two can be set side by side.  Tracing is slow: a few dozen games are enough.
"""
from __future__ import annotations

import argparse
import collections
import importlib.util
import random
import sys

from interpreter import apply, load_program, new_game


def counted(play_all) -> tuple[int, collections.Counter]:
    """Decisions and opcodes by (function, file, first line) of a run of `play_all()`."""
    counts = collections.Counter()

    def per_opcode(frame, event, arg):
        if event == "opcode":
            code = frame.f_code
            counts[(code.co_name, code.co_filename, code.co_firstlineno)] += 1
        return per_opcode

    def per_call(frame, event, arg):
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        return per_opcode

    sys.settrace(per_call)
    try:
        decisions = play_all()
    finally:
        sys.settrace(None)
    return decisions, counts


def engine_games(path: str, players: int | None, games: int):
    program = load_program(path)

    def play_all():
        decisions = 0
        for seed in range(games):
            s = new_game(program, seed=seed, players=players, log=False)
            pick = random.Random(seed).random
            while not s.over:
                apply(program, s, int(pick() * len(s.pending[1])))
            decisions += s.decisions
        return decisions
    return play_all


def reference_games(path: str, players: int | None, games: int):
    spec = importlib.util.spec_from_file_location("reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    extra = [players] if players else []
    return lambda: sum(module.play(seed, *extra)["decisions"] for seed in range(games))


def report(title: str, decisions: int, counts: collections.Counter, top: int) -> list[str]:
    total = sum(counts.values())
    lines = [f"{title}: {decisions} decisions, {total / max(decisions, 1):.1f} opcodes a decision"]
    for (name, file, line), n in counts.most_common(top):
        lines.append(f"  {n / max(decisions, 1):8.1f}  {name}  ({file}:{line})")
    return lines


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ruleset")
    p.add_argument("--players", type=int)
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--top", type=int, default=15)
    p.add_argument("--reference", help="a hand-coded game to count the same way")
    args = p.parse_args(argv)
    runs = [(args.ruleset, engine_games(args.ruleset, args.players, args.games))]
    if args.reference:
        runs.append((args.reference, reference_games(args.reference, args.players, args.games)))
    for title, play_all in runs:
        print("\n".join(report(title, *counted(play_all), args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
