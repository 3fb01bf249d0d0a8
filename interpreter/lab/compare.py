"""Compare variants of a ruleset: each played on the same seeds by the same bots (common
random numbers), so that the difference a rule makes shows game by game.

    from interpreter.lab.compare import compare
    result = compare([("base", base_program), ("reshuffle", variant_program)], games=1000)

The first run is the base; `differences` holds, for each other run, every figure of the
report as a difference with its 95% interval (statistics.differences).
"""
from __future__ import annotations

import time

from ..errors import UsageError
from ..playing.agents import Seating
from .simulation import Interrupted, checked_run, played_rows, report
from .statistics import differences


def compare(variants: list, games: int, players: int | None = None, seed: int = 0, mc_seats=(),
            playouts: int = 20, jobs: int = 1, on_row=None, cluster=None, ismcts_seats=(),
            iterations: int = 400) -> dict:
    """`variants`: [(name, Program)], the base first.  `on_row(index, row)` sees each game
    as it comes; `cluster` as in simulation.simulate.  Ctrl-C raises simulation.Interrupted holding the comparison of the games
    that every variant had played by then."""
    if len(variants) < 2:
        raise UsageError("compare needs a base and at least one variant")
    seating = Seating(tuple(mc_seats), playouts, tuple(ismcts_seats), iterations)
    settings = [checked_run(program, games, players, seed, seating, jobs) for _, program in variants]
    n = settings[0][0]
    if any(k != n for k, _ in settings):
        raise UsageError("the variants are not all for the same number of players; give --players")
    jobs = settings[0][1]
    runs = []
    for index, (name, program) in enumerate(variants):
        rows = []
        runs.append([name, program, rows, 0.0])
        played = played_rows(program, n, games, seed, seating, jobs, cluster)
        start = time.perf_counter()
        try:
            for row in played:
                rows.append(row)
                if on_row is not None:
                    on_row(index, row)
        except KeyboardInterrupt:
            played.close()                  # its workers stop before anything is printed
            runs[-1][3] = played.seconds(start)
            raise Interrupted(_comparison(runs, n, games, seed, seating, jobs, len(variants)),
                              []) from None
        runs[-1][3] = played.seconds(start)
    return _comparison(runs, n, games, seed, seating, jobs, len(variants))


def _comparison(runs, n, games, seed, seating, jobs, wanted) -> dict:
    """The comparison of the runs, over the games that every one of them has played."""
    common = min((len(rows) for _, _, rows, _ in runs), default=0)
    if len(runs) < 2 or common == 0:
        common = 0
    out_runs = []
    for name, program, rows, elapsed in runs:
        r = report(program, n, rows[:common], seed, seating, jobs, elapsed, games)
        out_runs.append({"variant": name, "report": r})
    base_rows = runs[0][2][:common]
    base_pers = {st.name: st.per for st in runs[0][1].statistics}
    diffs = []
    for name, program, rows, _ in runs[1:]:
        specs = [(st.name, st.label, st.per) for st in program.statistics]
        d = differences(base_rows, rows[:common], n, specs, base_pers) if common else None
        if d is not None:
            diffs.append({"variant": name, **d})
    return {"games": common, "complete": common == games and len(runs) == wanted,
            "players": n, "seeds": [seed, seed + common - 1], "runs": out_runs, "differences": diffs}
