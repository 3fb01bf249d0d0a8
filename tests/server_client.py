"""A scripted client of the game server, using only what docs/server.md documents: the HTTP
API to make a table, then one websocket per seat (hello, move, state frames), and a server run
in a thread of the test process so that tests can talk to it from plain (not async) code."""
from __future__ import annotations

import asyncio
import json
import random
import threading
import time

import aiohttp
from aiohttp import web

from interpreter.server.app import make_app
from interpreter.server.bots import Workers
from interpreter.server.games import GameSource
from interpreter.server.databases import open_store
from interpreter.server.tables import Hall

GAMES = ("hearts2", "gnav2", "ninety_nine", "go_fish")


class LiveServer:
    """The server on a free loopback port, its loop in a thread of its own; `run(coro)` runs a
    coroutine of the test in that loop and returns its result."""

    def __init__(self, db, games=GAMES, rate=(10_000, 10_000), uploads=False):
        """`db`: a SQLite file's path, or a PostgreSQL database's address; `uploads`: as
        `interpret serve --allow-uploads`."""
        self.rate = rate
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        store = self.run(open_store(str(db), ""))
        self.hall = Hall(store, {g: GameSource(g, shipped=g) for g in games}, Workers(1), uploads)
        self.runner = None
        self.port = self.run(self._start())
        self.url = f"http://127.0.0.1:{self.port}"

    async def _start(self):
        self.runner = web.AppRunner(make_app(self.hall, self.rate), handle_signals=False, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.session = aiohttp.ClientSession()
        return self.runner.addresses[0][1]

    def run(self, coro, timeout: float = 120):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self):
        async def stop():
            await self.session.close()
            await self.runner.cleanup()
            await self.hall.store.close()
        self.run(stop())
        self.hall.workers.close()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


async def new_table(session, url, game, seats, **more):
    """POST /api/tables: (status, answer)."""
    async with session.post(f"{url}/api/tables", json={"game": game, "seats": seats, **more}) as r:
        return r.status, await r.json()


def token_of(link: str) -> str:
    return link.split("#", 1)[1]


def table_of(link: str) -> str:
    return link.split("/table/", 1)[1].split("#", 1)[0]


class Seat:
    """One websocket to a table: every frame it gets is kept (`frames`), the last state too."""

    def __init__(self, ws, link):
        self.ws, self.link = ws, link
        self.frames = []
        self.state = None
        self.state_at = None            # time.perf_counter() when the last state arrived (bench/server_load.py)
        self.changed = asyncio.Event()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, session, url, link, since=None, **options):
        ws = await session.ws_connect(f"{url}/ws", **options)
        seat = cls(ws, link)
        hello = {"type": "hello", "table": table_of(link), "token": token_of(link)}
        if since is not None:
            hello["since"] = since
        await seat.send(hello)
        await seat.next_state(-1)
        return seat

    async def _read(self):
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(message.data)
            self.frames.append(frame)
            if frame["type"] == "state":
                self.state, self.state_at = frame, time.perf_counter()
            self.changed.set()

    async def send(self, message):
        await self.ws.send_str(json.dumps(message))

    async def next_frame(self, kind, timeout=10):
        """The next frame of `kind` after those had so far."""
        start = len(self.frames)
        while True:
            for frame in self.frames[start:]:
                if frame["type"] == kind:
                    return frame
            start = len(self.frames)
            await self._wait(timeout)

    async def next_state(self, after: int, timeout=10):
        """The first state with more decisions than `after` (or over)."""
        while self.state is None or (self.state["decisions"] <= after and not self.state["over"]):
            await self._wait(timeout)
        return self.state

    async def _wait(self, timeout):
        self.changed.clear()
        if self.reader.done():
            raise ConnectionError("the server closed the connection")
        await asyncio.wait_for(self.changed.wait(), timeout)

    async def close(self):
        await self.ws.close()
        await self.reader


async def play_to_the_end(seats: list, rng: random.Random, most: int = 5000, pause: float = 0.0) -> dict:
    """Every seat plays a random legal move when its state offers moves, to the end; the last
    state.  `pause`: seconds between two moves (a real server's rate limit is 20 a second)."""
    for _ in range(most):
        states = [s.state for s in seats]
        if all(st["over"] for st in states):
            return states[0]
        mine = [s for s in seats if s.state["moves"] and not s.state["over"]]
        if not mine:                    # a bot is to play, or a frame is on its way
            waits = [asyncio.ensure_future(s.changed.wait()) for s in seats]
            await asyncio.wait(waits, timeout=10, return_when=asyncio.FIRST_COMPLETED)
            for w in waits:
                w.cancel()
            for s in seats:
                s.changed.clear()
            continue
        seat = mine[0]
        st = seat.state
        await seat.send({"type": "move", "decision": st["decisions"], "option": rng.randrange(len(st["moves"]))})
        await seat.next_state(st["decisions"])
        await asyncio.sleep(pause)
    raise AssertionError("the game did not end")
