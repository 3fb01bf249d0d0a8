"""Many seeded games between bots, summed up: what a house rule changes, how a bot fares.

A library function, so that a designer can call it from Python as the command does:

    from interpreter import load_program
    from interpreter.lab.simulation import simulate
    report = simulate(load_program("rulesets/gnav2.yaml"), games=1000, jobs=4)

Game k is played with seed `seed + k` and bots seeded from that number alone, so the
games are independent of one another and of the process that plays them: `jobs`
worker processes share them out, and the parent sums their results in game order,
which makes the report the same, to the bit, for any number of jobs.
"""
from __future__ import annotations

import multiprocessing
import signal
import time

from ..playing.agents import Seating
from ..errors import InterpreterError, UsageError
from ..limits import MAX_JOBS, MAX_NUMBER
from ..runtime.tally import game_values
from .statistics import summary, team_shares
from ..playing.table import play

CHUNKS_PER_JOB = 8      # blocks of games per worker: small enough to even out slow games, few enough to cost little
MAX_BLOCK = 100         # games in a block at most: results (and the progress bar, and Ctrl-C's report) come often

_program = None         # the program the forked workers play: set just before the pool starts (a Program holds closures, it cannot be pickled)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or a SIGTERM) during a simulation: `report` sums the games played until then."""

    def __init__(self, report: dict, rows: list):
        super().__init__()
        self.report, self.rows = report, rows


def simulate(program, games: int, players: int | None = None, seed: int = 0, mc_seats=(),
             playouts: int = 20, jobs: int = 1, on_row=None, cluster=None, ismcts_seats=(),
             iterations: int = 400) -> dict:
    """The report (see report()) of `games` games with seeds seed, seed + 1, ...;
    `mc_seats` (1-based) are played by the mc bot, `ismcts_seats` by the ISMCTS bot, the
    others by random bots.
    `on_row(row)` sees each game's row (game_row) as it comes, in seed order.

    With `jobs` > 1 the games are played by that many worker processes, forked so that
    they inherit the program; where the platform cannot fork (Windows) they are played
    in this process, as with jobs=1.  Every field of the report is the same whatever
    `jobs` is, but the two that say how the run went: games_per_s and jobs (the worker
    processes used: at most one a game, 1 where the platform cannot fork).  `cluster`: a
    connected Ray module (cluster.connect) that plays the games instead, with the same
    report.  Ctrl-C raises Interrupted, which holds the report of the games played so far."""
    seating = Seating(tuple(mc_seats), playouts, tuple(ismcts_seats), iterations)
    n, jobs = checked_run(program, games, players, seed, seating, jobs)
    rows = []
    played = played_rows(program, n, games, seed, seating, jobs, cluster)
    start = time.perf_counter()
    try:
        for row in played:
            rows.append(row)
            if on_row is not None:
                on_row(row)
    except KeyboardInterrupt:
        played.close()                      # its workers stop before anything is printed
        raise Interrupted(report(program, n, rows, seed, seating, jobs,
                                 played.seconds(start), games), rows) from None
    return report(program, n, rows, seed, seating, jobs, played.seconds(start), games)


def checked_run(program, games, players, seed, seating: Seating, jobs) -> tuple[int, int]:
    """(players, jobs) of a run, or a UsageError saying what is wrong with its settings."""
    n = program.player_count(players)
    if games < 1:
        raise UsageError("--games must be at least 1")
    if not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs must be 1 to {MAX_JOBS}, not {jobs}")
    if seed + games > MAX_NUMBER:
        raise UsageError(f"--seed plus --games must stay below {MAX_NUMBER} (a record must hold each seed)")
    for flag, seats in (("--mc-seats", seating.mc_seats), ("--ismcts-seats", seating.ismcts_seats)):
        for seat in seats:
            if not 1 <= seat <= n:
                raise UsageError(f"{flag} {seat}: seats are numbered 1 to {n}")
    both = set(seating.mc_seats) & set(seating.ismcts_seats)
    if both:
        raise UsageError(f"seat {min(both)} is named by both --mc-seats and --ismcts-seats")
    return n, (min(jobs, games) if _can_fork() else 1)


class Played:
    """The rows of a run, in seed order, as they come; `compiling`: the seconds spent
    meanwhile compiling a native kernel, which are not the games' time."""

    def __init__(self, make):
        self.compiling = 0.0
        self.rows = make(self)

    def __iter__(self):
        return self.rows

    def close(self):
        getattr(self.rows, "close", lambda: None)()

    def seconds(self, start: float) -> float:
        """The seconds the games took since `start`."""
        return max(0.0, time.perf_counter() - start - self.compiling)


def played_rows(program, n, games, seed, seating: Seating, jobs, cluster=None) -> Played:
    """Each game's row, in seed order, played here, by `jobs` forked workers or on a cluster."""
    if cluster is not None:
        from .cluster import rows
        return Played(lambda _: iter(rows(cluster, program, n, games, seed, seating, game_row)))
    return Played(lambda played: _rows_here(played, program, n, games, seed, seating, jobs))


NATIVE_GAMES = 1000     # games from which a kernel not yet compiled may pay its compiling (docs/native.md)
PROBE_SECONDS = 1.0     # the generated Python's time on a run's first games, to tell whether it would
NATIVE_PAYS = 2.0       # ... : the kernel is compiled if the rest would take this many times its compiling


def _rows_here(played, program, n, games, seed, seating, jobs):
    """The rows played in this process or by forked workers: by the native kernel where it
    plays these games (native_kernel) and pays its compiling, which is never timed."""
    kernel, done = native_kernel(program, seating, games) or native_playouts(program, seating), 0
    if kernel is not None and not (kernel.asked or kernel.cached()):
        start = time.perf_counter()         # the first games, in Python: is the rest worth a compile?
        while done < games and time.perf_counter() - start < PROBE_SECONDS:
            yield game_row(program, n, seed + done, seating)
            done += 1
        rest = (time.perf_counter() - start) / done * (games - done) / jobs
        if rest < NATIVE_PAYS * kernel.compile_estimate():
            kernel = None
    if kernel is not None:
        start = time.perf_counter()
        kernel = compiled(program, kernel)  # before any worker is forked: they inherit it
        played.compiling += time.perf_counter() - start
    if kernel is not None and not kernel.plays_games:      # the bots' play-outs: the games are Python's
        kernel = None
    games, seed = games - done, seed + done
    if games == 0:
        return
    if jobs == 1:
        if kernel is not None:
            yield from _native_rows(program, kernel, n, games, seed, seating)
        else:
            yield from (game_row(program, n, seed + k, seating) for k in range(games))
        return
    yield from _rows_from_workers(program, n, games, seed, seating, min(jobs, games), kernel is not None)


def compiled(program, kernel):
    """The kernel, compiled; None where Numba cannot compile it (a bug of ours, never the
    user's): the generated Python plays, and `program.native_failed` says why."""
    try:
        kernel.compiled()
    except Exception as e:
        program.native_failed = f"the native kernel could not be compiled ({type(e).__name__}: a bug of ours)"
        return None
    return kernel


def native_kernel(program, seating: Seating, games: int):
    """The native kernel that may play these games (program.native: the native back end where
    it covers the ruleset), or None: only random bots use it, and only for a run of
    NATIVE_GAMES games or more, or when asked for by name, or when it is in the cache."""
    kernel = getattr(program, "native", None)
    if kernel is None or seating.mc_seats or seating.ismcts_seats:
        return None
    return kernel if kernel.asked or games >= NATIVE_GAMES or kernel.cached() else None


def native_playouts(program, seating: Seating):
    """The planning bots' play-outs in the native kernel (program.native_playouts), for a run
    with mc or ISMCTS seats, where the native back end covers the ruleset: the same play-outs
    as the Python's, so the same games; compiled where it pays, as the kernel of whole games."""
    playouts = getattr(program, "native_playouts", None)
    if playouts is None or not (seating.mc_seats or seating.ismcts_seats) or not playouts.written():
        return None
    return playouts


def _native_rows(program, kernel, n, games, seed, seating):
    """The rows of game_row, played by the kernel in blocks; a game it gave up on is played
    by the generated Python (which raises its error, or plays it to its end)."""
    for start in range(0, games, MAX_BLOCK * 10):
        count = min(MAX_BLOCK * 10, games - start)
        for k, row in enumerate(kernel.play(seed + start, count, n)):
            yield row if row is not None else game_row(program, n, seed + start + k, seating)


def report(program, n, rows, seed, seating: Seating, jobs, elapsed, asked) -> dict:
    """A run's report: what was played, then summary() of its rows (shares and means with
    their 95% intervals; docs/simulation.md documents the shape)."""
    played = len(rows)
    specs = [(st.name, st.label, st.per) for st in program.statistics]
    return {"ruleset": program.name, "round_name": program.round_name or "round", "players": n, "games": played,
            "complete": played == asked,
            "seeds": [seed, seed + played - 1],
            "options": {k: v for k, v in program.options.items() if v != program.option_specs[k]["default"]},
            "mc_seats": sorted(seating.mc_seats), "playouts": seating.playouts if seating.mc_seats else None,
            "ismcts_seats": sorted(seating.ismcts_seats),
            "iterations": seating.iterations if seating.ismcts_seats else None,
            **summary(rows, n, specs), "teams": team_shares(rows, program.sides(n)),
            "games_per_s": round(played / elapsed, 1) if elapsed > 0 else None, "jobs": jobs}


def _can_fork() -> bool:
    """Whether workers can inherit the program: only a forked process can, as it is not picklable."""
    return "fork" in multiprocessing.get_all_start_methods()


def game_row(program, n: int, seed: int, seating: Seating) -> dict:
    """One game, as the plain data a report sums (and --csv / --jsonl write): its seed,
    winners (seats from 0), scores, decisions, rounds and the values of its statistics."""
    s = play(program, seating.agents(n, seed), seed=seed, players=n, log=False, tally=True)
    return {"seed": seed, "winners": list(s.result["winners"]), "scores": list(s.result["scores"] or []),
            "decisions": s.decisions, "rounds": s.rounds, "stats": game_values(program, s)}


def _rows_from_workers(program, n, games, seed, seating, jobs, native=False):
    """The rows of game_row played by `jobs` forked workers, in contiguous blocks taken back
    in game order.  A game that fails in a worker is played again here, so that its error is
    raised as it would be with one job (an error need not survive pickling)."""
    global _program
    size = min(MAX_BLOCK, -(-games // (jobs * CHUNKS_PER_JOB)))
    blocks = [(seed + k, min(size, games - k), n, seating, native) for k in range(0, games, size)]
    jobs = min(jobs, len(blocks))
    _program = program
    workers = []
    try:
        workers = _started(jobs, blocks)
        k = 0
        for i in range(len(blocks)):
            for row in _received(workers[i % jobs][1]):
                yield row if row is not None else game_row(program, n, seed + k, seating)
                k += 1
    finally:                          # Ctrl-C, a signal or an error: no worker outlives the call
        _program = None
        for process, reader in workers:
            if process.is_alive():
                process.kill()
            process.join()
            reader.close()


_SIGNALS = [getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)]


def _started(jobs: int, blocks: list) -> list:
    """(process, reader) of each forked worker; worker i plays blocks i, i + jobs, ... and
    sends each block's results on its own pipe.  Each worker has a pipe of its own and no
    lock is shared, so a worker killed by a signal cannot leave the others or the parent
    waiting for ever (a multiprocessing.Pool can).  Signals are held while the workers are
    forked, so that none runs the parent's handlers before its own are set."""
    context = multiprocessing.get_context("fork")
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    workers = []
    try:
        for i in range(jobs):
            reader, writer = context.Pipe(duplex=False)
            process = context.Process(target=_work, args=(blocks[i::jobs], writer), daemon=True)
            process.start()
            writer.close()
            workers.append((process, reader))
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return workers


def _received(reader) -> list:
    """The next block of results a worker sends."""
    try:
        return reader.recv()
    except EOFError:
        raise InterpreterError("a simulation worker stopped before its games were played "
                               "(was it killed?)") from None


def _work(blocks, writer) -> None:
    """A worker: Ctrl-C is for the parent (the terminal sends it to the whole group); a
    SIGTERM or SIGHUP ends the worker at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in _SIGNALS[1:]:
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)
    try:
        for block in blocks:
            writer.send(_played_block(block))
    except (BrokenPipeError, EOFError):         # the parent has stopped
        pass
    finally:
        writer.close()


def _played_block(block) -> list:
    """The results of a block of consecutive games, None for a game that raised an error."""
    first, count, n, seating, native = block
    if native:                                  # (compiled before the workers were forked)
        return _program.native.play(first, count, n)     # None for a game it gave up on: the parent plays it
    return [_game_or_none(first + i, n, seating) for i in range(count)]


def _game_or_none(seed: int, n: int, seating):
    """A worker's game: its result, or None if it failed (the parent plays it again to raise the error)."""
    try:
        return game_row(_program, n, seed, seating)
    except Exception:
        return None


