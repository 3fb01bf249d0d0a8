"""Many seeded games between bots, summed up: what a house rule changes, how a bot fares.

A library function, so that a designer can call it from Python as the command does:

    from interpreter import load_program
    from interpreter.play.simulation import simulate
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

from .agents import MonteCarloAgent, RandomAgent
from ..errors import InterpreterError, UsageError
from ..limits import MAX_JOBS, MAX_NUMBER
from .table import play

CHUNKS_PER_JOB = 8      # blocks of games per worker: small enough to even out slow games, few enough to cost little

_program = None         # the program the forked workers play: set just before the pool starts (a Program holds closures, it cannot be pickled)


def simulate(program, games: int, players: int | None = None, seed: int = 0, mc_seats=(),
             playouts: int = 20, jobs: int = 1) -> dict:
    """Win shares per seat, draws, mean scores and length over `games` games with seeds
    seed, seed + 1, ...; `mc_seats` (1-based) are played by the planning bot.

    With `jobs` > 1 the games are played by that many worker processes, forked so that
    they inherit the program; where the platform cannot fork (Windows) they are played
    in this process, as with jobs=1.  Every field of the report is the same whatever
    `jobs` is, but the two that say how the run went: games_per_s and jobs (the worker
    processes used: at most one a game, 1 where the platform cannot fork)."""
    n = program.player_count(players)
    if games < 1:
        raise UsageError("--games must be at least 1")
    if not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs must be 1 to {MAX_JOBS}, not {jobs}")
    if seed + games > MAX_NUMBER:
        raise UsageError(f"--seed plus --games must stay below {MAX_NUMBER} (a record must hold each seed)")
    for seat in mc_seats:
        if not 1 <= seat <= n:
            raise UsageError(f"--mc-seats {seat}: seats are numbered 1 to {n}")
    jobs = min(jobs, games) if _can_fork() else 1
    start = time.perf_counter()
    if jobs == 1:
        results = (_game(program, n, seed + k, mc_seats, playouts) for k in range(games))
        totals = _summed(results, n)
    else:
        totals = _summed_in_workers(program, n, games, seed, mc_seats, playouts, jobs)
    elapsed = time.perf_counter() - start
    wins, draws, scores, decisions = totals
    return {"ruleset": program.name, "players": n, "games": games, "seeds": [seed, seed + games - 1],
            "options": {k: v for k, v in program.options.items() if v != program.option_specs[k]["default"]},
            "mc_seats": sorted(mc_seats),
            "win_share": [round(w / games, 4) for w in wins], "draws": round(draws / games, 4),
            "mean_score": [round(t / games, 2) for t in scores] if program.score else None,
            "decisions_per_game": round(decisions / games, 1), "games_per_s": round(games / elapsed, 1),
            "jobs": jobs}


def _can_fork() -> bool:
    """Whether workers can inherit the program: only a forked process can, as it is not picklable."""
    return "fork" in multiprocessing.get_all_start_methods()


def _game(program, n: int, seed: int, mc_seats, playouts: int) -> tuple:
    """One game's winners, scores and decisions: all that the report sums, small to send back."""
    s = play(program, _agents(n, seed, mc_seats, playouts), seed=seed, players=n, log=False)
    return s.result["winners"], s.result["scores"] or [], s.decisions


def _summed(results, n: int) -> tuple:
    """Wins (a shared win split evenly), draws, score totals and decisions, added up in the
    order the games come: floating-point sums depend on the order, and the report must not."""
    wins, draws, totals, decisions = [0.0] * n, 0, [0.0] * n, 0
    for winners, scores, d in results:
        if not winners:
            draws += 1
        for w in winners:
            wins[w] += 1 / len(winners)
        for p, v in enumerate(scores):
            totals[p] += v
        decisions += d
    return wins, draws, totals, decisions


def _summed_in_workers(program, n, games, seed, mc_seats, playouts, jobs) -> tuple:
    """The sums of _summed over games played by `jobs` forked workers, in contiguous blocks
    taken back in game order.  A game that fails in a worker is played again here, so that
    its error is raised as it would be with one job (an error need not survive pickling)."""
    global _program
    size = -(-games // (jobs * CHUNKS_PER_JOB))
    blocks = [(seed + k, min(size, games - k), n, tuple(mc_seats), playouts) for k in range(0, games, size)]
    jobs = min(jobs, len(blocks))
    _program = program
    workers = []
    try:
        workers = _started(jobs, blocks)
        played = (r for i in range(len(blocks)) for r in _received(workers[i % jobs][1]))
        return _summed((r if r is not None else _game(program, n, seed + k, mc_seats, playouts)
                        for k, r in enumerate(played)), n)
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
    first, count, n, mc_seats, playouts = block
    return [_game_or_none(first + i, n, mc_seats, playouts) for i in range(count)]


def _game_or_none(seed: int, n: int, mc_seats, playouts: int):
    """A worker's game: its result, or None if it failed (the parent plays it again to raise the error)."""
    try:
        return _game(_program, n, seed, mc_seats, playouts)
    except Exception:
        return None


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
    jobs = report.get("jobs", 1)
    lines.append(f"  draws {100 * report['draws']:.1f}%, {report['decisions_per_game']} decisions a game, "
                 f"{report['games_per_s']} games/s" + (f" ({jobs} processes)" if jobs > 1 else ""))
    return lines
