"""Many seeded games between bots, summed up: what a house rule changes, how a bot fares.

A library function, so that a designer can call it from Python as the command does:

    from interpreter import load_program
    from interpreter.play.simulation import simulate
    report = simulate(load_program("rulesets/gnav2.yaml"), games=1000)
"""
from __future__ import annotations

import time

from .agents import MonteCarloAgent, RandomAgent
from ..errors import UsageError
from ..limits import MAX_NUMBER
from .table import play


def simulate(program, games: int, players: int | None = None, seed: int = 0, mc_seats=(),
             playouts: int = 20) -> dict:
    """Win shares per seat, draws, mean scores and length over `games` games with seeds
    seed, seed + 1, ...; `mc_seats` (1-based) are played by the planning bot."""
    n = program.player_count(players)
    if games < 1:
        raise UsageError("--games must be at least 1")
    if seed + games > MAX_NUMBER:
        raise UsageError(f"--seed plus --games must stay below {MAX_NUMBER} (a record must hold each seed)")
    for seat in mc_seats:
        if not 1 <= seat <= n:
            raise UsageError(f"--mc-seats {seat}: seats are numbered 1 to {n}")
    wins, draws, totals, decisions = [0.0] * n, 0, [0.0] * n, 0
    start = time.perf_counter()
    for k in range(games):
        s = play(program, _agents(n, seed + k, mc_seats, playouts), seed=seed + k, players=n, log=False)
        winners = s.result["winners"]
        if not winners:
            draws += 1
        for w in winners:
            wins[w] += 1 / len(winners)
        for p, v in enumerate(s.result["scores"] or []):
            totals[p] += v
        decisions += s.decisions
    elapsed = time.perf_counter() - start
    return {"ruleset": program.name, "players": n, "games": games, "seeds": [seed, seed + games - 1],
            "options": {k: v for k, v in program.options.items() if v != program.option_specs[k]["default"]},
            "mc_seats": sorted(mc_seats),
            "win_share": [round(w / games, 4) for w in wins], "draws": round(draws / games, 4),
            "mean_score": [round(t / games, 2) for t in totals] if program.score else None,
            "decisions_per_game": round(decisions / games, 1), "games_per_s": round(games / elapsed, 1)}


def _agents(n: int, seed: int, mc_seats, playouts: int) -> list:
    return [MonteCarloAgent(seed * 1000 + seat + 1, playouts=max(1, playouts)) if seat + 1 in mc_seats
            else RandomAgent(seed * 1000 + seat + 1) for seat in range(n)]


def report_lines(report: dict) -> list[str]:
    """The report as a person reads it."""
    g, n, first = report["games"], report["players"], report["seeds"][0]
    mc = report["mc_seats"]
    bots = "random bots" + (f", mc bot in seat(s) {', '.join(map(str, mc))}" if mc else "")
    lines = [f"{report['ruleset']}: {g} games between {bots}, {n} players, seeds {first}-{report['seeds'][1]}"
             + (f", house rules {report['options']}" if report["options"] else "")]
    for p in range(n):
        score = f", mean score {report['mean_score'][p]}" if report["mean_score"] else ""
        lines.append(f"  Player {p + 1}: wins {100 * report['win_share'][p]:.1f}%{score}")
    lines.append(f"  draws {100 * report['draws']:.1f}%, {report['decisions_per_game']} decisions a game, "
                 f"{report['games_per_s']} games/s")
    return lines
