"""Seat agents at a table and play one game to its end."""
from __future__ import annotations

from .agents import Decision
from ..runtime.engine import apply, new_game
from ..errors import RulesError


def play(program, agents, seed: int = 0, players: int | None = None, stacks=None,
         log: bool = True, on_log=None, on_decision=None, prefix=()):
    """Play a whole game; `agents[seat]` decides for each seat. Returns the final state.

    `prefix` holds option indexes already decided (a resumed game): they are applied
    before any agent is asked.  `on_log(entries)` gets each batch of new log entries
    as the game goes, so an account can be shown while a person plays;
    `on_decision(state)` runs after every decision, so a record can be saved.
    """
    try:
        s = new_game(program, seed=seed, players=players, stacks=stacks, log=log)
    except RulesError as e:
        if on_log and getattr(e, "state", None) is not None and e.state.log:
            on_log(e.state.log)
        raise
    shown = 0
    pending = list(prefix)
    try:
        while not s.over:
            if on_log and s.log is not None and len(s.log) > shown:
                on_log(s.log[shown:])
                shown = len(s.log)
            if pending:
                apply(program, s, pending.pop(0))
                continue
            decision = Decision(program, s)
            apply(program, s, agents[decision.seat].choose(decision))
            if on_decision:
                on_decision(s)
    finally:        # the account up to the end, or up to a rules error
        if on_log and s.log is not None and len(s.log) > shown:
            on_log(s.log[shown:])
    return s
