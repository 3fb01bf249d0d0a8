"""Where the server keeps its tables: one SQLite file (WAL, synchronous=FULL), in the records
folder by default.

A table is kept as what rebuilds it (the game: a shipped name or a file's text and name; its
options, players, language and seed), its seats (a token's sha256, never the token) and its
decisions in order: the state is the seed and the decisions (design rule 3), so a table is
rebuilt by replaying them.  Every write is committed before it returns: a decision is on disk
before any seat is told of it.

A commit with synchronous=FULL waits for the disk (an fsync, some milliseconds), so the
decisions are committed in groups: those of every table that arrive within one turn of the
server's loop are written in one transaction, one fsync for all, and each move waits for its
group (`await add_decision`).  Under load a group holds the moves that came while the last one
was being written.

The same methods, async, are kept by postgres.PostgresStore (`--db postgresql://...`), which
several server processes share; databases.open_store picks one by the `--db` given."""
from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
import time

from ..errors import InterpreterError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, shipped TEXT, file TEXT, text TEXT,
    options TEXT NOT NULL, players INTEGER NOT NULL, lang TEXT NOT NULL, seed INTEGER NOT NULL,
    created REAL NOT NULL, status TEXT NOT NULL, spectator TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
    bot TEXT, token TEXT, PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS decisions (
    table_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, option INTEGER NOT NULL,
    label TEXT NOT NULL, time REAL NOT NULL, PRIMARY KEY (table_id, n));
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, file TEXT NOT NULL, text TEXT NOT NULL, created REAL NOT NULL);
CREATE INDEX IF NOT EXISTS seat_tokens ON seats (token);
CREATE INDEX IF NOT EXISTS spectator_tokens ON tables (spectator);
"""
ADD_DECISION = "INSERT INTO decisions VALUES (?,?,?,?,?,?)"


def token_hash(token: str) -> str:
    """What the store keeps of a token: its sha256, so a copy of the database opens no seat."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def default_path(records_dir: str) -> str:
    return os.path.join(records_dir, "server.sqlite3")


class Taken(InterpreterError):
    """Decision n of a table is in the store already: another server process made it first
    (the database serialises a table's moves); the table catches up and the move is stale."""


class StoreUnavailable(InterpreterError):
    """The database `--db` names cannot be used (not reachable, refused, no driver): its words say why."""


class Store:
    """The tables, seats and decisions in one SQLite file, used from one thread (the server's
    event loop)."""

    shared = False              # one server process: no other makes moves at its tables

    def __init__(self, path: str):
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)   # autocommit; one thread at a time (the loop)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)
        self.waiting = []               # (row, future) of the decisions of the next group commit
        self.groups = 0                 # group commits made (a test's measure of the grouping)
        try:
            os.chmod(path, 0o600)       # it holds seeds: every deal of every game
        except OSError:
            pass

    @property
    def where(self) -> str:
        return os.path.abspath(self.path)

    async def close(self) -> None:
        self.db.close()

    def listen(self, heard) -> None:
        """No other process tells of moves: nothing to listen to."""

    async def tell(self, news: dict) -> None:
        """No other process to tell."""

    async def claim_rematch(self, table_id: str, new_id: str) -> bool:
        return True             # one process: its table's lock already makes one rematch

    async def add_table(self, table: dict, seats: list, spectator_hash: str) -> None:
        """A new table and its seats, in one transaction."""
        with self._transaction():
            self.db.execute(
                "INSERT INTO tables VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (table["id"], table["game"], table.get("shipped"), table.get("file"), table.get("text"),
                 json.dumps(table["options"]), table["players"], table["lang"], table["seed"],
                 time.time(), "playing", spectator_hash))
            self.db.executemany("INSERT INTO seats VALUES (?,?,?,?,?,?)",
                                [(table["id"], s["seat"], s["name"], s["kind"],
                                  json.dumps(s["bot"]) if s.get("bot") else None, s.get("token"))
                                 for s in seats])

    async def add_decision(self, table_id: str, n: int, seat: int, option: int, label: str) -> None:
        """Decision `n` (1, 2, ...) of a table, committed (fsynced) before this returns, together
        with the decisions of the other tables that came in the same turn of the loop."""
        loop = asyncio.get_running_loop()
        if not self.waiting:
            loop.call_soon(self._commit_group)     # after every move already at hand has joined
        done = loop.create_future()
        self.waiting.append(((table_id, n, seat, option, label, time.time()), done))
        await done

    def _commit_group(self) -> None:
        """The waiting decisions in one transaction; if it fails, each in its own, so that one
        table's failed write (a full disk aside) is no other table's."""
        group, self.waiting = self.waiting, []
        self.groups += 1
        try:
            with self._transaction():
                self.db.executemany(ADD_DECISION, [row for row, _ in group])
        except sqlite3.Error:
            for row, done in group:
                try:
                    self.db.execute(ADD_DECISION, row)
                except sqlite3.IntegrityError:
                    _settle(done, Taken(row[0], row[1]))
                except sqlite3.Error as e:
                    _settle(done, e)
                else:
                    _settle(done)
            return
        for _, done in group:
            _settle(done)

    async def add_game(self, game: str, file: str, text: str) -> bool:
        """An uploaded game kept, so that the lobby offers it after a restart; False if its id is taken."""
        try:
            self.db.execute("INSERT INTO games VALUES (?,?,?,?)", (game, file, text, time.time()))
        except sqlite3.IntegrityError:
            return False
        return True

    async def uploaded_games(self) -> list:
        """(id, file, text) of every uploaded game, oldest first."""
        return self.db.execute("SELECT id, file, text FROM games ORDER BY created").fetchall()

    async def set_status(self, table_id: str, status: str) -> None:
        self.db.execute("UPDATE tables SET status=? WHERE id=?", (status, table_id))

    async def table(self, table_id: str) -> dict | None:
        row = self.db.execute("SELECT id, game, shipped, file, text, options, players, lang, seed, created, "
                              "status, spectator FROM tables WHERE id=?", (table_id,)).fetchone()
        if row is None:
            return None
        keys = ("id", "game", "shipped", "file", "text", "options", "players", "lang", "seed", "created",
                "status", "spectator")
        out = dict(zip(keys, row))
        out["options"] = json.loads(out["options"])
        return out

    async def seats(self, table_id: str) -> list:
        rows = self.db.execute("SELECT seat, name, kind, bot, token FROM seats WHERE table_id=? ORDER BY seat",
                               (table_id,)).fetchall()
        return [{"seat": seat, "name": name, "kind": kind, "bot": json.loads(bot) if bot else None, "token": token}
                for seat, name, kind, bot, token in rows]

    async def decisions(self, table_id: str, after: int = 0) -> list:
        """The decisions of a table after the first `after`, in order."""
        rows = self.db.execute("SELECT n, seat, option, label FROM decisions WHERE table_id=? AND n>? ORDER BY n",
                               (table_id, after)).fetchall()
        return [{"n": n, "player": seat, "index": option, "label": label} for n, seat, option, label in rows]

    async def table_of_token(self, hashed: str):
        """(table id, seat) of a person's token, (table id, None) of a spectator's, or None."""
        row = self.db.execute("SELECT table_id, seat FROM seats WHERE token=?", (hashed,)).fetchone()
        if row:
            return row[0], row[1]
        row = self.db.execute("SELECT id FROM tables WHERE spectator=?", (hashed,)).fetchone()
        return (row[0], None) if row else None

    def _transaction(self):
        return _Transaction(self.db)


def _settle(done, error: Exception | None = None) -> None:
    """Wake a move waiting for its commit (unless it was cancelled meanwhile: a server stopping)."""
    if not done.done():
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)


class _Transaction:
    def __init__(self, db):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, *rest):
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        return False
