"""What a ruleset's statistics measure (its `statistics:` section): values read off a state
when a round ends or the game is over, for simulate and compare to sum up.

Measuring must not change the game: a value is computed on the state as it stands, with
the work it costs given back to the budget, and a value the rules cannot compute there
(a null where a card was wanted) is recorded as None, which the reports leave out.
"""
from __future__ import annotations

from ..errors import RUN_TIME_FAULTS, RulesError


def measured(fn, s):
    """fn's value on state s, or None where it cannot be computed; the work is given back."""
    work = s.work
    try:
        return fn(s, {})
    except (RulesError,) + RUN_TIME_FAULTS:
        return None
    finally:
        s.work = work


def round_recorder(fns):
    """The hook run when a round ends: one row of the per-round values, when the state keeps
    a tally (a simulation asked for one), else nothing."""
    def record(s):
        if s.tally is not None:
            s.tally.append([measured(fn, s) for fn in fns])
    return record


def game_values(program, s) -> dict:
    """Each statistic's values in a game that is over: {name: value} for per-game ones,
    {name: [value per round]} for per-round ones (empty if the state kept no tally)."""
    out, column = {}, 0
    rows = s.tally or []
    for stat in program.statistics:
        if stat.per == "round":
            out[stat.name] = [row[column] for row in rows]
            column += 1
        else:
            out[stat.name] = measured(stat.fn, s)
    return out
