"""Load on the game server (issue 28): N tables at once, two scripted websocket clients at each,
playing random legal moves as fast as they can over loopback.

    python bench/server_load.py [--tables 200] [--game hearts2] [--seconds 20 | --moves M]
                                [--json FILE] [--profile FILE]

`interpret serve` is started as a process of its own on a free loopback port, with its
database in a temporary folder.  One table is made and played a move first (so that the
game's program, built once for every table, is not counted per table); then the N tables are
made through the HTTP API, each with two person seats, and every seat opens its websocket.
The clients, all in this process, then play: at each table, the seat whose decision it is
sends a random legal move and waits until both seats have the state with the new decision
count; then the next move.  The clients keep to the protocol's rate limit (docs/limits.md).

It reports moves/s, the latency of a move (from the move sent to the moment every seat of
its table has the frame with the new decision count: p50, p99, max), the server's memory per
table (its RSS from /proc: after the tables are made, and after they are played, less the
RSS before, divided by N) and the CPU both processes used, so that a client process that is
the bottleneck shows (its CPU near one core's), and how long the server was ready to run but
waited for a CPU (other work on the machine).  `--profile FILE` runs the server under
cProfile and writes its statistics to FILE when it stops (read them with `python -m pstats`).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]          # the package and the tests' scripted client

import aiohttp  # noqa: E402

from interpreter.errors import InterpreterError  # noqa: E402
from interpreter.limits import MAX_MESSAGE_BURST, MAX_MESSAGES_PER_SECOND  # noqa: E402
from interpreter.server.protocol import RateLimit  # noqa: E402
from interpreter.source.shipped import resolve  # noqa: E402
from interpreter.targets import Output, check_outputs, write_file  # noqa: E402
from server_client import Seat, new_table  # noqa: E402

PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
SERVE = "import sys; sys.argv[0] = 'interpret'; from interpreter.cli import main; main()"
PROFILED = ("import cProfile, sys; sys.argv[0] = 'interpret'; from interpreter.cli import main; "
            "cProfile.run('main()', sys.argv.pop(1))")
STUCK_SECONDS = 15                      # no state this long after a move: the table is stuck (said in the report)
TICKS = os.sysconf("SC_CLK_TCK")


# -- the server process --------------------------------------------------------------------------
def start_server(folder: str, profile: str | None, db: str | None = None) -> tuple:
    """(process, url) of `interpret serve --port 0` with its db (`db`: a PostgreSQL database's
    address, else a SQLite file) and records in `folder`."""
    env = {**os.environ, "CARD_INTERPRETER_RECORDS": os.path.join(folder, "records"), "PYTHONPATH": str(ROOT)}
    code = [PROFILED, os.path.abspath(profile)] if profile else [SERVE]
    err = open(os.path.join(folder, "server.err"), "w")
    process = subprocess.Popen([sys.executable, "-c", *code, "serve", "--port", "0",
                                "--db", db or os.path.join(folder, "tables.sqlite3")],
                               cwd=folder, env=env, stdout=subprocess.PIPE, stderr=err, text=True)
    line = process.stdout.readline()
    if not line.startswith("interpret serve: http://"):
        process.kill()
        raise SystemExit(f"server_load: the server did not start: {line.strip()} "
                         f"{open(os.path.join(folder, 'server.err')).read()[-2000:]}")
    return process, line.split()[2].rstrip("/")


def stop_server(process) -> None:
    """Ctrl-C, as a person stops it (a profiled server writes its statistics then)."""
    process.send_signal(2)
    try:
        process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process (its own, not its children's)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def cpu_wait_seconds(pid: int) -> float:
    """Time a process was ready to run but waited for a CPU (/proc/PID/schedstat; 0 without it):
    on a machine shared with other work, what the server's figures lost to it."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


# -- the clients ---------------------------------------------------------------------------------
class Run:
    """What the clients have done so far, and when they stop."""

    def __init__(self, seconds: float | None, moves: int | None):
        self.seconds, self.most = seconds, moves
        self.latencies = []             # seconds, one per move
        self.paced = 0                  # moves held back by the protocol's rate limit
        self.finished = 0               # tables whose game ended
        self.stuck = 0                  # tables that got no state in time (an error frame, a closed socket)
        self.errors = {}                # code -> error frames the server answered a move with
        self.start = None

    def going(self) -> bool:
        if self.most is not None and len(self.latencies) >= self.most:
            return False
        return self.seconds is None or time.perf_counter() - self.start < self.seconds


async def seated(session, urls: list, game: str, k: int = 0) -> list:
    """A new table with two person seats, each seat's websocket open and greeted; with several
    servers, table k is made at server k and its second seat plays at the next one."""
    url = urls[k % len(urls)]
    status, made = await new_table(session, url, game, PEOPLE)
    if status != 201:
        raise SystemExit(f"server_load: the server refused the table: {made}")
    return [await Seat.open(session, urls[(k + i) % len(urls)], s["link"]) for i, s in enumerate(made["seats"])]


def client_limit() -> RateLimit:
    """A seat's own pacing, a little inside the server's limit (the hello spent one message; the
    server counts a message when it arrives, which may bunch them)."""
    limit = RateLimit(0.9 * MAX_MESSAGES_PER_SECOND, MAX_MESSAGE_BURST - 4)
    limit.allow()                       # the hello
    return limit


async def play(seats: list, run: Run, rng: random.Random) -> None:
    """One table: a random legal move, then wait until every seat has its new state; again."""
    limits = {id(s): client_limit() for s in seats}
    while run.going():
        mover = next((s for s in seats if s.state["moves"] and not s.state["over"]), None)
        if mover is None:
            run.finished += 1
            return
        while not limits[id(mover)].allow():
            run.paced += 1
            await asyncio.sleep(1 / MAX_MESSAGES_PER_SECOND)
        n = mover.state["decisions"]
        sent = time.perf_counter()
        await mover.send({"type": "move", "decision": n, "option": rng.randrange(len(mover.state["moves"]))})
        try:
            await asyncio.gather(*(s.next_state(n, timeout=STUCK_SECONDS) for s in seats))
        except (asyncio.TimeoutError, ConnectionError):
            run.stuck += 1
            for f in mover.frames:
                if f["type"] == "error":
                    run.errors[f["code"]] = run.errors.get(f["code"], 0) + 1
            return
        run.latencies.append(max(s.state_at for s in seats) - sent)
        for s in seats:
            s.frames.clear()            # only the last state is used: memory stays flat however long it runs


async def in_batches(make, count: int, size: int = 50) -> list:
    out = []
    for first in range(0, count, size):
        out += await asyncio.gather(*(make(first + k) for k in range(min(size, count - first))))
    return out


async def load(urls: list, pids: list, args) -> dict:
    """The figures of one run; with several servers, their memory and CPU summed."""
    def total(measure):
        return sum(measure(pid) for pid in pids)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        for url in urls:                    # the lobby's list built (every game's program): not counted per table
            async with session.get(f"{url}/api/games") as r:
                await r.read()
        warm = [await seated(session, urls, args.game, k) for k in range(len(urls))]    # each server's program built
        for seats in warm:
            await play(seats, Run(None, 1), random.Random(-1))
        before = total(rss_kib)
        t0 = time.perf_counter()
        tables = await in_batches(lambda k: seated(session, urls, args.game, k), args.tables)
        made_in = time.perf_counter() - t0
        made = total(rss_kib)
        run = Run(args.seconds, args.moves)
        cpu0, mine0, wait0 = total(cpu_seconds), time.process_time(), total(cpu_wait_seconds)
        run.start = time.perf_counter()
        await asyncio.gather(*(play(seats, run, random.Random(i)) for i, seats in enumerate(tables)))
        wall = time.perf_counter() - run.start
        cpu, mine = total(cpu_seconds) - cpu0, time.process_time() - mine0
        waited = total(cpu_wait_seconds) - wait0
        played = total(rss_kib)
        for seats in [*warm, *tables]:
            for s in seats:
                await s.close()
    return report(args, run, wall, made_in, (before, made, played), cpu, mine, waited)


def percentile(sorted_values: list, q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))] if sorted_values else 0.0


def report(args, run: Run, wall: float, made_in: float, rss: tuple, cpu: float, mine: float, waited: float) -> dict:
    lat = sorted(run.latencies)
    before, made, played = rss
    ms = lambda x: round(x * 1000, 2)      # noqa: E731
    return {"game": args.game, "tables": args.tables, "servers": args.servers,
            "database": "postgresql" if args.db else "sqlite", "seconds": round(wall, 2), "moves": len(lat),
            "moves_per_s": round(len(lat) / wall, 1) if wall else 0.0,
            "latency_ms": {"p50": ms(percentile(lat, 0.5)), "p99": ms(percentile(lat, 0.99)),
                           "max": ms(lat[-1]) if lat else 0.0},
            "tables_made_per_s": round(args.tables / made_in, 1),
            "server_rss_kib": {"before": before, "made": made, "played": played},
            "kib_per_table": {"made": round((made - before) / args.tables, 1),
                              "played": round((played - before) / args.tables, 1)},
            "cpu_share": {"server": round(cpu / wall, 2) if wall else 0.0,
                          "clients": round(mine / wall, 2) if wall else 0.0,
                          "server_waiting_for_a_cpu": round(waited / wall, 2) if wall else 0.0},
            "paced_by_rate_limit": run.paced, "games_finished": run.finished, "tables_stuck": run.stuck,
            "errors": run.errors}


def shown(r: dict) -> str:
    lat, kib, cpu = r["latency_ms"], r["kib_per_table"], r["cpu_share"]
    return "\n".join([
        f"{r['tables']} tables of {r['game']}, two websocket clients each, {r['seconds']} s, "
        f"{r['servers']} server process{'es' if r['servers'] > 1 else ''} on {r['database']}",
        f"moves:    {r['moves']} ({r['moves_per_s']}/s)",
        f"latency:  p50 {lat['p50']} ms, p99 {lat['p99']} ms, max {lat['max']} ms (a move sent -> every seat has it)",
        f"memory:   {kib['made']} KiB per table made, {kib['played']} KiB per table played "
        f"(server RSS {r['server_rss_kib']['before']} -> {r['server_rss_kib']['played']} KiB)",
        f"CPU:      server {cpu['server']:.0%} of a core, clients {cpu['clients']:.0%}; "
        f"the server waited for a CPU {cpu['server_waiting_for_a_cpu']:.0%} of the time",
        f"tables:   {r['tables_made_per_s']} made/s; {r['games_finished']} games finished, {r['tables_stuck']} stuck; "
        f"{r['paced_by_rate_limit']} moves held back by the rate limit"
        + (f"; errors: {r['errors']}" if r["errors"] else "")])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=200, help="tables played at once (default 200)")
    p.add_argument("--game", default="hearts2", help="a shipped two-player game (default hearts2)")
    bound = p.add_mutually_exclusive_group()
    bound.add_argument("--seconds", type=float, help="play this long (default 20 s)")
    bound.add_argument("--moves", type=int, help="stop after this many moves in all")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON to FILE")
    p.add_argument("--profile", metavar="FILE", help="run the server under cProfile; its statistics to FILE")
    p.add_argument("--db", metavar="URL", help="a PostgreSQL database (postgresql://...) the servers share "
                                              "(default: a SQLite file in a temporary folder); its tables are "
                                              "added to, never cleared")
    p.add_argument("--servers", type=int, default=1, help="server processes (more than one needs --db); each "
                                                          "table's second seat plays at the next server")
    args = p.parse_args(argv)
    if args.servers < 1 or (args.servers > 1 and not args.db):
        p.error("--servers must be 1, or more with a PostgreSQL --db")
    if args.db and not args.db.startswith(("postgresql://", "postgres://")):
        p.error("--db names a PostgreSQL database: postgresql://USER@HOST:PORT/DB")
    if args.tables < 1 or (args.moves is not None and args.moves < 1) or (args.seconds is not None and args.seconds <= 0):
        p.error("--tables, --moves and --seconds must be positive")
    if args.seconds is None and args.moves is None:
        args.seconds = 20.0
    try:
        reads = [(resolve(args.game), "the ruleset this benchmark plays"), (__file__, "this script")]
    except InterpreterError as e:
        p.error(str(e))
    outputs = [Output(flag, path, what) for flag, path, what in
               (("--json", args.json, "the figures"), ("--profile", args.profile, "the profile")) if path]
    try:
        check_outputs(outputs, reads)
    except InterpreterError as e:
        print(f"server_load: {e}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="server-load-") as folder:
        servers = []
        try:
            for k in range(args.servers):
                servers.append(start_server(folder, args.profile if k == 0 else None, args.db))
            result = asyncio.run(load([url for _, url in servers], [process.pid for process, _ in servers], args))
        finally:
            for process, _ in servers:
                stop_server(process)
    print(shown(result))
    if args.json:
        try:
            write_file(outputs[0], lambda f: f.write(json.dumps(result, indent=1) + "\n"))
        except InterpreterError as e:
            print(f"server_load: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
