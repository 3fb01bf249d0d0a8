"""The tables in a PostgreSQL database (`interpret serve --db postgresql://...`), shared by several
server processes, behind any load balancer.

The database serialises each table's moves: decision n of a table is a row with the primary key
(table, n), so of two processes that store it at once one succeeds and the other is told
`Taken` (it catches up and its move is stale).  Each decision is committed, with a NOTIFY on
one channel, before its move is told; every process LISTENs on that channel and catches up the
tables it holds live, so a person at one process sees another's move at once.  The presence of
seats and the links of a rematch go over the same channel; they are not kept.

The extra `postgres` installs asyncpg, the driver."""
from __future__ import annotations

import asyncio
import json
import time
import uuid
from urllib.parse import urlsplit

import asyncpg

from .store import StoreUnavailable, Taken

CHANNEL = "card_interpreter"
SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, shipped TEXT, file TEXT, text TEXT,
    options TEXT NOT NULL, players INTEGER NOT NULL, lang TEXT NOT NULL, seed BIGINT NOT NULL,
    created DOUBLE PRECISION NOT NULL, status TEXT NOT NULL, spectator TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
    bot TEXT, token TEXT, PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS decisions (
    table_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, option INTEGER NOT NULL,
    label TEXT NOT NULL, time DOUBLE PRECISION NOT NULL, PRIMARY KEY (table_id, n));
CREATE TABLE IF NOT EXISTS rematches (table_id TEXT PRIMARY KEY, new_table TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, file TEXT NOT NULL, text TEXT NOT NULL, created DOUBLE PRECISION NOT NULL);
CREATE INDEX IF NOT EXISTS seat_tokens ON seats (token);
CREATE INDEX IF NOT EXISTS spectator_tokens ON tables (spectator);
"""
SCHEMA_LOCK = 0x6361726473          # an advisory lock: two processes starting at once make the schema once
CONNECT_SECONDS = 10
RECONNECT_SECONDS = (0.5, 1, 2, 5)  # the listener's waits before it tries again, the last repeated
MAX_POOL = 10


def shown_address(dsn: str) -> str:
    """The database's address as the server prints it: no password."""
    try:
        parts = urlsplit(dsn)
        host = parts.hostname or "localhost"
        return f"postgresql://{parts.username + '@' if parts.username else ''}{host}" \
               f"{':' + str(parts.port) if parts.port else ''}{parts.path}"
    except ValueError:
        return "postgresql://(an address that does not parse)"


class PostgresStore:
    """Store's methods (store.py), on a pool of connections, and one more connection that listens."""

    shared = True

    def __init__(self, dsn: str, pool):
        self.dsn, self.pool = dsn, pool
        self.process = uuid.uuid4().hex     # what this process's notifications carry, to know its own
        self.heard = None
        self.listener = None
        self.closing = False
        self.reconnecting = None

    @classmethod
    async def connect(cls, dsn: str) -> PostgresStore:
        try:
            pool = await asyncpg.create_pool(dsn, min_size=1, max_size=MAX_POOL, timeout=CONNECT_SECONDS)
            async with pool.acquire() as c, c.transaction():
                await c.execute("SELECT pg_advisory_xact_lock($1)", SCHEMA_LOCK)
                await c.execute(SCHEMA)
        except (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as e:
            raise StoreUnavailable(f"cannot use the PostgreSQL database {shown_address(dsn)}: "
                                   f"{getattr(e, 'strerror', None) or e}") from None
        store = cls(dsn, pool)
        await store._listen()
        return store

    @property
    def where(self) -> str:
        return shown_address(self.dsn)

    async def close(self) -> None:
        self.closing = True
        if self.reconnecting is not None:
            self.reconnecting.cancel()
        if self.listener is not None and not self.listener.is_closed():
            await self.listener.close()
        await self.pool.close()

    # -- news between processes -----------------------------------------------------------------
    def listen(self, heard) -> None:
        """`heard(news)` is called with each other process's news (a dict)."""
        self.heard = heard

    async def tell(self, news: dict) -> None:
        """News for the other processes (presence, a rematch's links); lost if the database is
        away: it is only news."""
        try:
            await self.pool.execute("SELECT pg_notify($1, $2)", CHANNEL, self._stamped(news))
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            pass

    def _stamped(self, news: dict) -> str:
        return json.dumps({**news, "from": self.process}, ensure_ascii=False)

    async def _listen(self) -> None:
        self.listener = await asyncpg.connect(self.dsn, timeout=CONNECT_SECONDS)
        await self.listener.add_listener(CHANNEL, self._notified)
        self.listener.add_termination_listener(self._lost)

    def _notified(self, connection, pid, channel, payload: str) -> None:
        try:
            news = json.loads(payload)
        except ValueError:
            return
        if isinstance(news, dict) and news.get("from") != self.process and self.heard is not None:
            self.heard(news)

    def _lost(self, connection) -> None:
        """The listening connection is gone (the database restarted): listen again, then have
        every table caught up, since news may have been missed meanwhile."""
        if not self.closing and self.reconnecting is None:
            self.reconnecting = asyncio.get_running_loop().create_task(self._relisten())

    async def _relisten(self) -> None:
        for attempt in range(10 ** 9):
            await asyncio.sleep(RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)])
            try:
                await self._listen()
            except (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
                continue
            break
        self.reconnecting = None
        if self.heard is not None:
            self.heard({"kind": "missed"})

    # -- tables, seats, decisions ------------------------------------------------------------------
    async def add_table(self, table: dict, seats: list, spectator_hash: str) -> None:
        async with self.pool.acquire() as c, c.transaction():
            await c.execute(
                "INSERT INTO tables VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)",
                table["id"], table["game"], table.get("shipped"), table.get("file"), table.get("text"),
                json.dumps(table["options"]), table["players"], table["lang"], table["seed"],
                _now(), "playing", spectator_hash)
            await c.executemany("INSERT INTO seats VALUES ($1,$2,$3,$4,$5,$6)",
                                [(table["id"], s["seat"], s["name"], s["kind"],
                                  json.dumps(s["bot"]) if s.get("bot") else None, s.get("token"))
                                 for s in seats])

    async def add_decision(self, table_id: str, n: int, seat: int, option: int, label: str) -> None:
        """Decision n, committed with its notification; Taken if another process stored it first."""
        try:
            async with self.pool.acquire() as c, c.transaction():
                await c.execute("INSERT INTO decisions VALUES ($1,$2,$3,$4,$5,$6)",
                                table_id, n, seat, option, label, _now())
                await c.execute("SELECT pg_notify($1, $2)", CHANNEL,
                                self._stamped({"kind": "decision", "table": table_id, "n": n, "index": option}))
        except asyncpg.UniqueViolationError:
            raise Taken(table_id, n) from None

    async def claim_rematch(self, table_id: str, new_id: str) -> bool:
        """True for the one process that makes this table's rematch."""
        made = await self.pool.execute("INSERT INTO rematches VALUES ($1,$2) ON CONFLICT DO NOTHING",
                                       table_id, new_id)
        return made.endswith(" 1")

    async def add_game(self, game: str, file: str, text: str) -> bool:
        made = await self.pool.execute("INSERT INTO games VALUES ($1,$2,$3,$4) ON CONFLICT DO NOTHING",
                                       game, file, text, _now())
        return made.endswith(" 1")

    async def uploaded_games(self) -> list:
        return [tuple(r) for r in await self.pool.fetch("SELECT id, file, text FROM games ORDER BY created")]

    async def set_status(self, table_id: str, status: str) -> None:
        await self.pool.execute("UPDATE tables SET status=$1 WHERE id=$2", status, table_id)

    async def table(self, table_id: str) -> dict | None:
        row = await self.pool.fetchrow("SELECT id, game, shipped, file, text, options, players, lang, seed, created, "
                                       "status, spectator FROM tables WHERE id=$1", table_id)
        if row is None:
            return None
        out = dict(row)
        out["options"] = json.loads(out["options"])
        return out

    async def seats(self, table_id: str) -> list:
        rows = await self.pool.fetch("SELECT seat, name, kind, bot, token FROM seats WHERE table_id=$1 ORDER BY seat",
                                     table_id)
        return [{"seat": r["seat"], "name": r["name"], "kind": r["kind"],
                 "bot": json.loads(r["bot"]) if r["bot"] else None, "token": r["token"]} for r in rows]

    async def decisions(self, table_id: str, after: int = 0) -> list:
        rows = await self.pool.fetch("SELECT n, seat, option, label FROM decisions WHERE table_id=$1 AND n>$2 "
                                     "ORDER BY n", table_id, after)
        return [{"n": r["n"], "player": r["seat"], "index": r["option"], "label": r["label"]} for r in rows]

    async def table_of_token(self, hashed: str):
        row = await self.pool.fetchrow("SELECT table_id, seat FROM seats WHERE token=$1", hashed)
        if row:
            return row["table_id"], row["seat"]
        row = await self.pool.fetchrow("SELECT id FROM tables WHERE spectator=$1", hashed)
        return (row["id"], None) if row else None


def _now() -> float:
    return time.time()
