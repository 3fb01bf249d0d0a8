"""What a ruleset's statistics measure (its `statistics:` section): values read off a state
when a round ends or the game is over, for simulate and compare to sum up.

Measuring must not change the game: a value is computed on the state as it stands, with
the work it costs given back to the budget, and a value the rules cannot compute there
(a null where a card was wanted) is recorded as None, which the reports leave out.
"""
from __future__ import annotations

from ..errors import rules_caused


def measured(fn, s):
    """fn's value on state s, or None where it cannot be computed; the work is given back,
    and so is any number random() drew (the game goes on as if nothing was measured)."""
    work, rng = s.work, s.rng.state
    try:
        return fn(s, {})
    except Exception as e:
        if not rules_caused(e):
            raise
        return None
    finally:
        s.work, s.rng.state = work, rng


def round_recorder(fns):
    """The hook run when a round ends: one row of the per-round values, when the state keeps
    a tally (a simulation asked for one), else nothing."""
    def record(s):
        if s.tally is not None:
            s.tally.append([measured(fn, s) for fn in fns])
    return record


def game_values(program, s) -> dict:
    """Each statistic's values in a game that is over, in declared order: {name: value} for
    per-game ones, {name: [value per round]} for per-round ones (empty if the state kept no
    tally).  A last round cut short by the end of the game (end_game) is measured as the
    game ends."""
    per_round = [st for st in program.statistics if st.per == "round"]
    rows = list(s.tally or [])
    if s.tally is not None and per_round and len(rows) < s.rounds:
        rows.append([measured(st.fn, s) for st in per_round])
    column = {st.name: i for i, st in enumerate(per_round)}
    return {st.name: [row[column[st.name]] for row in rows] if st.per == "round" else measured(st.fn, s)
            for st in program.statistics}
