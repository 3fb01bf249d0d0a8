"""Seat agents at a table and play one game to its end."""
from __future__ import annotations

from .agents import Decision
from .engine import apply, new_game


def play(program, agents, seed: int = 0, players: int | None = None, stacks=None,
         log: bool = True, on_log=None):
    """Play a whole game; `agents[seat]` decides for each seat. Returns the final state.

    `on_log(entries)` is called with each batch of new log entries as the game goes,
    so an account can be shown while a person plays.
    """
    s = new_game(program, seed=seed, players=players, stacks=stacks, log=log)
    shown = 0
    while not s.over:
        if on_log and s.log is not None and len(s.log) > shown:
            on_log(s.log[shown:])
            shown = len(s.log)
        decision = Decision(program, s)
        apply(program, s, agents[decision.seat].choose(decision))
    if on_log and s.log is not None and len(s.log) > shown:
        on_log(s.log[shown:])
    return s
