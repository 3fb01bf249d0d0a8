"""The bots of the server's tables, and the hint: a planning bot thinks in a worker process
(concurrent.futures), so that a slow bot stalls no other table; a random bot picks at once, in
the server's process (it costs nothing).

A worker rebuilds a table's program from what the store keeps (games.GameSource) and its state
from the seed and the decisions, and keeps both per table, so a decision costs the new moves
only.  A bot's generator is seeded from the game's seed, its seat and the decision's number:
the same table played again from the store plays the same bot moves."""
from __future__ import annotations

import concurrent.futures
import multiprocessing
from collections import OrderedDict

from ..playing.agents import TABLE_BOT, Decision, bot_named
from ..runtime.engine import apply, new_game
from ..runtime.state import Rng
from .games import DEFAULT_STRENGTH, STRENGTHS, program_of, source_of_row

WORKER_TABLES = 64          # tables a worker keeps built (program and state); the oldest is dropped


def bot_spec(kind: str, strength: str = DEFAULT_STRENGTH) -> dict:
    """A seat's bot as a record keeps it: random, or mc or ismcts with the numbers of its
    strength (games.STRENGTHS; the record's `bot` holds the numbers, not the strength's name,
    so a record plays the same whatever the strengths become)."""
    if kind in STRENGTHS:
        return dict(STRENGTHS[kind][strength])
    return {"kind": "random"}


HINT_BOT = {**TABLE_BOT, "seconds": 2 * TABLE_BOT["seconds"]}     # asked for: it may take longer (as at the terminal)


def agent_seed(seed: int, seat: int, n: int) -> int:
    return (seed * 1000 + seat + 1) * 100_003 + n


def random_choice(seed: int, seat: int, n: int, count: int) -> int:
    """The random bot's pick among `count` options at decision `n`."""
    return Rng(agent_seed(seed, seat, n)).below(count)


_built: OrderedDict = OrderedDict()      # in a worker: table id -> (program, state, decisions applied)


def think(table_id: str, game: dict, options: dict, lang: str, seed: int, players: int, decisions: list,
          bot: dict, seat: int) -> int:
    """In a worker: the option index `bot` picks for `seat` after `decisions` (indexes)."""
    program = program_of(source_of_row(game), options, lang)
    held = _built.pop(table_id, None)
    if held and held[0] is program and held[2] == decisions[:len(held[2])]:
        s, done = held[1], held[2]
    else:
        s, done = new_game(program, seed=seed, players=players, log=False), []
    for index in decisions[len(done):]:
        apply(program, s, index)
    _built[table_id] = (program, s, list(decisions))
    while len(_built) > WORKER_TABLES:
        _built.popitem(last=False)
    agent = bot_named(bot, agent_seed(seed, seat, len(decisions)))
    return agent.choose(Decision(program, s))


class Workers:
    """The pool of bot workers, made when a planning bot first thinks."""

    def __init__(self, workers: int = 2):
        self.workers, self.pool = workers, None

    def executor(self):
        if self.pool is None:       # forkserver: no fork of a process whose threads may hold locks
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            self.pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        return self.pool

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
