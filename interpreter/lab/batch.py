"""Many random games as arrays, for researchers' tools: a ruleset played N times between
random bots, each game's winners, scores, decisions, rounds and statistics in NumPy arrays
(docs/api.md, "Batches of games").

The games are simulate's: game k is dealt from seed + k and played by the same seeded random
bots, so a batch's numbers are a simulation's, row for row, whichever back end plays.  The
native kernel plays where it covers the ruleset (and compiles once, cached); a game it gives
up on, and every game where it does not cover the ruleset, is played by the generated Python."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError
from ..limits import MAX_NUMBER
from ..pipeline import load_program, simulation_backend
from ..playing.agents import Seating
from ..source.shipped import resolve
from .simulation import compiled, game_row

NULL = -(1 << 62)     # the kernel's null (native/prelude.py)
MAX_BATCH = 10 ** 8      # games one call may ask for (a row is about 100 bytes of arrays)


@dataclass
class Playouts:
    """A batch's games, one row each, in seed order.  A null (no score, a statistic that could
    not be computed) is NaN in the float arrays."""
    ruleset: str
    players: int
    seeds: object           # int64 (games,)
    winners: object         # bool (games, players): several True for a shared win
    scores: object          # float64 (games, players), or None where the ruleset gives no score
    decisions: object       # int64 (games,)
    rounds: object          # int64 (games,)
    stats: dict = field(default_factory=dict)   # name -> float64 (games,), or (games, most rounds) per round
    backend: str = "generated"      # "native": the kernel played (all but `replayed` of) the games
    reason: str | None = None       # why the kernel did not play, when it did not
    replayed: int = 0               # games the kernel gave up on, played by the generated Python

    def __len__(self) -> int:
        return len(self.seeds)


def playouts(ruleset, games: int, seed: int = 0, players: int | None = None,
             options: dict | None = None, backend: str | None = None) -> Playouts:
    """`games` random games of `ruleset` (a file, a shipped game's name, an overlay, or a
    Program already built), from `seed`.  `backend`: "native" (the default where Numba is
    installed), "generated" or "closures"."""
    import numpy as np
    if not isinstance(games, int) or isinstance(games, bool) or not 0 < games <= MAX_BATCH:
        raise UsageError(f"games must be a whole number from 1 to {MAX_BATCH:,}")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_NUMBER - games:
        raise UsageError(f"seed must be a whole number from 0 to {MAX_NUMBER:.0e}")
    program = ruleset if hasattr(ruleset, "statistics") else load_program(
        resolve(str(ruleset)), {k: str(v) for k, v in (options or {}).items()},
        backend=backend or simulation_backend())
    n = program.player_count(players)
    out = _empty(np, program, n, games, seed)
    kernel = getattr(program, "native", None)
    out.reason = getattr(program, "native_reason", None) if kernel is None else None
    if kernel is not None and compiled(program, kernel) is None:     # (a bug of ours: Python plays)
        kernel, out.reason = None, program.native_failed
    if kernel is not None:
        out.backend = "native"
        _from_kernel(np, out, program, kernel, n, seed, games)
    else:
        for k in range(games):
            _put(out, k, game_row(program, n, seed + k, Seating()))
    out.stats = {name: _rounds_array(np, v) if isinstance(v, list) else v for name, v in out.stats.items()}
    return out


def _empty(np, program, n, games, seed) -> Playouts:
    """The batch's arrays, to be filled; a per-round statistic is a list of rows until the end."""
    return Playouts(
        ruleset=program.name, players=n, seeds=np.arange(seed, seed + games, dtype=np.int64),
        winners=np.zeros((games, n), bool),
        scores=np.full((games, n), np.nan) if program.score is not None else None,
        decisions=np.zeros(games, np.int64), rounds=np.zeros(games, np.int64),
        stats={st.name: [None] * games if st.per == "round" else np.full(games, np.nan)
               for st in program.statistics})


def _from_kernel(np, out, program, kernel, n, seed, games) -> None:
    """The kernel's blocks copied into the batch, a game it gave up on played in Python."""
    for start, g, (win, score, gstat, rstat, info) in kernel.blocks(seed, games, n):
        rows = slice(start, start + g)
        status, nw = info[:g, 0], info[:g, 4]
        out.decisions[rows], out.rounds[rows] = info[:g, 1], info[:g, 2]
        for w in range(int(nw.max(initial=0))):
            has = nw > w
            out.winners[start + np.flatnonzero(has), win[:g, w][has]] = True
        if out.scores is not None:
            out.scores[rows] = _nan_for_null(np, score[:g])
        for name, by_round, i, _, fraction in kernel.columns:
            if not by_round:
                out.stats[name][rows] = _column(np, gstat[:g], i, fraction)
                continue
            for k in range(g):
                out.stats[name][start + k] = _column(np, rstat[k, :info[k, 3]], i, fraction)
        for k in np.flatnonzero(status != 0):
            out.replayed += 1
            out.winners[start + k] = False
            _put(out, start + int(k), game_row(program, n, seed + start + int(k), Seating()))


def _column(np, table, i: int, fraction: bool):
    """A statistic's column of the kernel's rows as floats (a fraction: its two parts divided,
    NaN where a part is null or the divisor 0)."""
    v = _nan_for_null(np, table[:, i])
    if not fraction:
        return v
    d = _nan_for_null(np, table[:, i + 1])
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(d == 0, np.nan, v / d)


def _nan_for_null(np, a):
    return np.where(a == NULL, np.nan, a.astype(np.float64))


def _put(out: Playouts, k: int, row: dict) -> None:
    """One game's row (lab.simulation.game_row's) written into the batch at `k`."""
    out.winners[k, row["winners"]] = True
    if out.scores is not None:
        out.scores[k] = [float("nan") if v is None else float(v) for v in row["scores"]]
    out.decisions[k], out.rounds[k] = row["decisions"], row["rounds"]
    for name, v in row["stats"].items():
        if isinstance(out.stats[name], list):
            out.stats[name][k] = [float("nan") if x is None else float(x) for x in v]
        else:
            out.stats[name][k] = float("nan") if v is None else float(v)


def _rounds_array(np, rows: list):
    """A per-round statistic's rows as one array (games, most rounds), NaN past a game's end."""
    width = max((len(r) for r in rows), default=0)
    table = np.full((len(rows), width), np.nan)
    for k, r in enumerate(rows):
        table[k, :len(r)] = r
    return table
