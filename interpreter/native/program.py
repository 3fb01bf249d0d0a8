"""The native back end: the generated Python's Program, which plays every game a person or
a planning bot is in, and beside it a kernel that plays whole games between random bots,
compiled by Numba (the optional extra `native`), for simulate, compare and bench.

`build_native(ruleset)` never fails for want of Numba or of coverage: the program's
`native` is then None and `native_reason` says why in one line, and simulations play the
generated Python.  A game the kernel gives up on (BAIL: a fault, a budget passed) is
played again by the generated Python from its seed, so that it fails, or ends, exactly as
it does there."""
from __future__ import annotations

import gc
import os
import time

from ..generated.program import build_generated
from ..lang.values import divide
from .cache import Entry
from .expressions import Fractional, Uncovered
from .prelude import PRELUDE
from .resume import STOPPED
from .steps import FLOAT_INEXACT, KernelWriter, stat_columns

MAX_ROUNDS = 1024       # per-round statistics the kernel keeps of a game; a longer one is played in Python
MAX_KERNEL_LINES = 4000  # a longer kernel takes minutes to compile (Numba's typing grows with its square)
APART_LINES = 2200      # a longer one is written apart: compiled in a fraction of the time, played a little slower
BLOCK = 512             # games a call of the kernel plays


def native_installed() -> bool:
    """Whether Numba can be imported (without importing it)."""
    import importlib.util
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        return False


def build_native(ruleset):
    """The generated Program, with its kernel (`program.native`) where Numba is installed and
    the kernel covers the ruleset."""
    program = build_generated(ruleset)
    program.backend = "native"
    program.native, program.native_reason, program.native_playouts = None, None, None
    if not native_installed():
        program.native_reason = "Numba is not installed (pip install 'card-interpreter[native]')"
        return program
    try:
        source = kernel_source(ruleset)
    except Uncovered as e:
        program.native_reason = f"the native kernel does not cover {e}"
        return program
    except Exception as e:      # a bug of the kernel's writer: the games are still played, in Python
        program.native_reason = f"the native kernel could not be written ({type(e).__name__}: a bug of ours)"
        return program
    program.native = Kernel(source, ruleset)
    layout = getattr(program, "layout", None)
    program.native_playouts = Playouts(ruleset, layout) if layout is not None else None
    return program


def kernel_source(ruleset, layout=None, apart: bool = False) -> str:
    """The kernel's whole source: the prelude and the ruleset's game (Uncovered if the kernel
    does not cover it); with the closure back end's `layout`, the variant that resumes a game
    at a decision (native/resume.py), and the writer's plan of where it reads a state.  A
    kernel that would take over a minute to compile is written again with its procedures
    and functions apart (native/apart.py; `apart`: so written whatever its length): skat's,
    for one, compiles in a fraction of the time and plays its games a little slower."""
    try:
        writer = KernelWriter(ruleset, ruleset.players[1], layout, apart=apart)
        source = writer.source()
    except Fractional:          # a number that is not whole: numbers held as floats, where Python's may be
        writer = KernelWriter(ruleset, ruleset.players[1], layout, apart=apart, fractions=True)
        source = writer.source()
    if not writer.apart and source.count("\n") > APART_LINES:     # apart: each compiled once
        writer = KernelWriter(ruleset, ruleset.players[1], layout, apart=True, fractions=writer.fractions)
        source = writer.source()
    lines = longest_function(source) if writer.apart else source.count("\n")
    if lines > MAX_KERNEL_LINES:
        what = "a kernel function" if writer.apart else "a kernel"
        raise Uncovered(f"a ruleset this large ({what} of {lines:,} lines would take minutes to compile)")
    return (PRELUDE + "\n" + source, writer.plan_) if layout is not None else PRELUDE + "\n" + source


def longest_function(source: str) -> int:
    """The lines of the source's longest function (Numba types each apart)."""
    return max(part.count("\n") for part in source.split("@njit"))


class Kernel:
    """A compiled kernel (compiled when first used) and what reading its arrays needs."""
    plays_games = True

    def __init__(self, source: str, ruleset):
        self.source = source
        self.columns = statistic_columns(ruleset.statistics)
        self.widths = tuple(sum(2 if c[4] else 1 for c in self.columns if c[1] == by_round) for by_round in (False, True))
        self.has_score = ruleset.result.score is not None
        self.has_standing = ruleset.result.standing is not None
        self.score_type = ruleset.result.score.type if self.has_score else None
        self.max_players, self.min_players = ruleset.players[1], ruleset.players[0]
        self.fractions = FLOAT_INEXACT in source    # scores and statistics as float64 (expressions.Fractional)
        self._batch = None
        self.compile_seconds = None
        self.asked = False          # --backend native: compiled whatever the number of games

    def compile_estimate(self) -> float:
        """About how many seconds compiling takes, from the source's length (Numba's typing
        grows with the square of a function's size; measured on a 2-core machine, where the
        generated Python a run is weighed against is measured too)."""
        lines = self.source.count("\n")
        return 1e-5 * lines * lines

    @property
    def is_compiled(self) -> bool:
        return self._batch is not None

    def cached(self) -> bool:
        """Whether the compiled kernel is at hand without compiling: here, or in the cache."""
        if self._batch is not None:
            return True
        entry = Entry(self.source.replace("cache=False", "cache=True"))
        return entry.usable and entry.sound()

    def compiled(self):
        """The kernel's `batch`, compiled: read from the cache (native/cache.py) where it is
        there and sound, else compiled (and kept there where the cache can be had)."""
        if self._batch is None:
            start = time.perf_counter()
            source = self.source.replace("cache=False", "cache=True")
            entry = Entry(source)
            try:
                sound = entry.warm() if entry.usable else False
            except OSError:         # (another process emptying the same folder meanwhile)
                entry.folder, sound = None, False
            if entry.usable:
                namespace = _module(entry, source).__dict__
            else:
                namespace = {"__name__": "card_kernel"}
                exec(compile(self.source, "<native kernel>", "exec"), namespace)     # our own text
            self._batch = namespace["batch"]
            self.namespace = namespace
            self._warm(namespace)
            if entry.usable and not sound:
                entry.seal()
            self.from_cache = sound
            self.compile_seconds = time.perf_counter() - start
        return self._batch

    def _warm(self, namespace):
        """Compile now (Numba compiles at the first call), on one game of the fewest players."""
        self.play(0, 1, self.min_players)

    def play(self, seed: int, games: int, n: int):
        """Each game's row as lab.simulation.game_row makes it, None for a game the kernel
        gave up on."""
        rows = []
        collecting = gc.isenabled()
        gc.disable()                # the rows hold no cycles: collecting while they are made only costs
        try:
            for start, g, arrays in self.blocks(seed, games, n):
                rows.extend(self._rows(seed + start, g, *arrays))
        finally:
            if collecting:
                gc.enable()
        return rows

    def blocks(self, seed: int, games: int, n: int):
        """(first game, games, its arrays) of each block of games played: the arrays (win,
        score, gstat, rstat, info) are the kernel's own, overwritten by the next block."""
        import numpy as np
        batch = self.compiled()
        g = min(BLOCK, games)
        values = np.float64 if self.fractions else np.int64
        arrays = (np.zeros((g, 2 * n + 2), np.int64), np.zeros((g, n), values),
                  np.zeros((g, max(1, self.widths[0])), values),
                  np.empty((g, MAX_ROUNDS, max(1, self.widths[1])), values), np.zeros((g, 5), np.int64))
        done = 0
        while done < games:
            g = min(BLOCK, games - done)
            batch(seed + done, g, n, *arrays)
            yield done, g, arrays
            done += g

    def _rows(self, seed, g, win, score, gstat, rstat, info):
        """The rows of a block, each statistic in the ruleset's order (game_values's)."""
        wins, infos = win[:g].tolist(), info[:g].tolist()
        scores = score[:g].tolist() if self.has_score else None
        gstats = gstat[:g].tolist()
        columns = self.columns
        per_round = any(c[1] for c in columns)
        score_bool = self.score_type == "bool"
        out = []
        for k in range(g):
            status, dec, rounds, nr, nw = infos[k]
            if status != 0:
                out.append(None)
                continue
            stats, row = {}, gstats[k]
            table = rstat[k, :nr].tolist() if per_round else ()
            for name, by_round, i, is_bool, fraction in columns:
                if by_round:
                    stats[name] = [cell(r, i, is_bool, fraction) for r in table]
                else:
                    stats[name] = cell(row, i, is_bool, fraction)
            out.append({"seed": seed + k, "winners": wins[k][:nw],
                        "scores": [None if v == NULL else bool(v) if score_bool else v for v in scores[k]]
                        if scores is not None else [],
                        "decisions": dec, "rounds": rounds, "stats": stats})
        return out


NULL = -(1 << 62)


class Playouts:
    """The planning bots' play-outs from a state, in the resumable kernel (native/resume.py),
    written and compiled when first asked for; where it cannot take a state, or gives a
    play-out up, None says so and the bot plays it in Python."""

    plays_games = False         # (simulate: the games stay the Python's, their bots' play-outs are these)

    def __init__(self, ruleset, layout):
        self.ruleset, self.layout = ruleset, layout
        self.kernel, self.plan, self.reason = None, None, None
        self.asked = False          # --backend native: compiled whatever the number of games
        self._arrays = {}
        self._usable = None

    def written(self) -> bool:
        """Whether the resumable kernel could be written (its source made once)."""
        if self.kernel is None and self.reason is None:
            try:
                source, self.plan = kernel_source(self.ruleset, self.layout)
            except Exception as e:      # (Uncovered, or a bug of the writer: the play-outs stay Python's)
                self.reason = str(e) if isinstance(e, Uncovered) else f"a bug of ours ({type(e).__name__})"
                return False
            self.kernel = ResumableKernel(source, self.ruleset)
        return self.kernel is not None

    def cached(self) -> bool:
        """Whether the kernel is at hand without compiling it now (compiled, or in the cache)."""
        return self.written() and self.kernel.cached()

    def compile_estimate(self) -> float:
        return self.kernel.compile_estimate() if self.written() else 0.0

    def compiled(self) -> bool:
        """Compile it now (minutes for a large ruleset), and use it from now on; whether it can be."""
        if not self.written():
            return False
        try:
            self.kernel.compiled()
        except Exception as e:      # a kernel Numba cannot type is a bug of ours: the play-outs stay Python's
            self.reason = f"the resumable kernel could not be compiled ({type(e).__name__}: a bug of ours)"
            self.kernel, self._usable = None, False
            return False
        self._usable = True
        return True

    def usable(self) -> bool:
        """Whether the bots play their play-outs here: compiled, or asked for (compiled at the
        first), or in the cache; never compiled unasked in the middle of a game."""
        if self._usable is None:
            if self.asked:
                return True
            self._usable = self.cached()
        return self._usable

    def play(self, state, rng, horizon: int | None, most: int):
        """A random play-out of `state` (waiting at a decision) by one bot drawing from `rng`,
        for at most `most` decisions and, with a `horizon`, to the first decision past that
        round: (over, winners, None) or (False, None, standing of each player, or None),
        `rng` moved on as the Python play-out would move it; None where the kernel cannot
        play it (the Python then does, from the same state and generator)."""
        from .resume import NotResumable, encode
        if not self.written():
            return None
        try:
            IN, POOL = encode(self.plan, state, horizon, most)
        except NotResumable:
            return None
        if not self.kernel.is_compiled and not self.compiled():
            return None
        namespace = self.kernel.namespace
        n = len(state.players)
        arrays = self._arrays.get(n)
        if arrays is None:
            arrays = self._arrays[n] = playout_arrays(self.kernel, namespace, n)
        RI, WIN, SCORE, GSTAT, RSTAT, INFO, RO, scratch = arrays
        RI[0], RI[1] = state.rng.state, rng.state
        status = namespace["playout"](n, IN, POOL, RI, WIN, SCORE, GSTAT, RSTAT, INFO, RO, *scratch)
        if status not in (0, STOPPED):
            return None
        rng.state = int(RO[0])
        if status == 0:
            return True, WIN[:INFO[4]].tolist(), None
        return False, None, SCORE[:n].tolist() if self.kernel.has_standing else None


class ResumableKernel(Kernel):
    """The kernel that also resumes a game (native/resume.py): its `playout` compiled with it,
    so that the cache holds both."""

    def _warm(self, namespace):
        import numpy as np
        super()._warm(namespace)
        n = self.min_players
        RI, WIN, SCORE, GSTAT, RSTAT, INFO, RO, scratch = playout_arrays(self, namespace, n)
        namespace["playout"](n, np.zeros(8, np.int64), np.zeros(1, np.int64), RI, WIN, SCORE, GSTAT, RSTAT,
                             INFO, RO, *scratch)      # (IN[0] 0: one game from its start)


def playout_arrays(kernel, namespace, n: int) -> tuple:
    """The arrays a play-out of n players reads and fills, made once and used again."""
    import numpy as np
    values = np.float64 if kernel.fractions else np.int64
    return (np.zeros(2, np.uint64), np.zeros(2 * n + 2, np.int64), np.zeros(n, values),
            np.zeros(max(1, kernel.widths[0]), values), np.empty((MAX_ROUNDS, max(1, kernel.widths[1])), values),
            np.zeros(8, np.int64), np.zeros(1, np.uint64), namespace["scratch"](n))


def statistic_columns(statistics) -> list:
    """(name, per round, its column, bool, fraction) of each statistic in the ruleset's order;
    the columns of the per-game and of the per-round ones counted apart (steps.stat_columns)."""
    place = {}
    for by_round in (False, True):
        for st, col, fraction in stat_columns([st for st in statistics if (st.per == "round") == by_round]):
            place[st.name] = (st.name, by_round, col, st.value.type == "bool", fraction)
    return [place[st.name] for st in statistics]


def cell(row, i: int, is_bool: bool, fraction: bool):
    """A statistic's value from its column(s) of a row: null, a bool, a number, or a fraction's
    quotient as values.divide gives it (null where a part is null or the divisor 0, as
    tally.measured says for the error Python would raise)."""
    v = row[i]
    if v == NULL:
        return None
    if fraction:
        d = row[i + 1]
        return None if d == NULL or d == 0 else divide(v, d)
    return bool(v) if is_bool else v


def _module(entry, source: str):
    """The kernel as a module of its own (what Numba reads back from its cache names it),
    run from our own text: the file beside it was compared with that text (cache.Entry.warm)."""
    import sys
    import types
    name = "card_interpreter_kernel_" + os.path.basename(entry.folder)
    module = types.ModuleType(name)
    module.__file__ = entry.module
    sys.modules[name] = module
    exec(compile(source, entry.module, "exec"), module.__dict__)
    return module
