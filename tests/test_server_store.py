"""The server's store commits decisions in groups (docs/server.md, "Where the data lives"): the
decisions of the tables that move together cost one fsync'd commit, and each is on disk before
its move is told."""
from __future__ import annotations

import asyncio
import sqlite3

import pytest

pytest.importorskip("aiohttp")
pytestmark = pytest.mark.extras

from interpreter.server.store import Store, Taken  # noqa: E402


def counting_commits(store: Store) -> list:
    """The store's connection traced: one entry per transaction it makes durable (a COMMIT, or a
    write outside a transaction, which SQLite commits by itself)."""
    commits = []

    def traced(statement: str) -> None:
        word = statement.split(None, 1)[0].upper()
        if word == "COMMIT" or (word in ("INSERT", "UPDATE") and not store.db.in_transaction):
            commits.append(statement)
    store.db.set_trace_callback(traced)
    return commits


def on_disk(path, table_id: str) -> list:
    """The decisions of a table as another connection reads them: only what is committed."""
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT n, option FROM decisions WHERE table_id=? ORDER BY n", (table_id,)).fetchall()
    finally:
        db.close()


def test_the_decisions_of_tables_that_move_together_are_committed_in_one_transaction(tmp_path):
    store = Store(str(tmp_path / "tables.sqlite3"))
    commits = counting_commits(store)

    async def moves_at_once():
        await asyncio.gather(*(store.add_decision(f"table{i}", 1, 0, i, "lead 2♣") for i in range(5)))
    asyncio.run(moves_at_once())
    assert len(commits) == 1
    assert [on_disk(store.path, f"table{i}") for i in range(5)] == [[(1, i)] for i in range(5)]
    asyncio.run(store.close())


def test_a_move_is_told_only_once_its_decision_is_on_disk(tmp_path):
    store = Store(str(tmp_path / "tables.sqlite3"))

    async def move_then_look():
        await store.add_decision("t", 1, 0, 3, "lead 2♣")
        return on_disk(store.path, "t")         # what a seat would be told now
    assert asyncio.run(move_then_look()) == [(1, 3)]
    asyncio.run(store.close())


def test_a_write_that_fails_fails_its_own_move_only_and_a_decision_is_stored_once(tmp_path):
    store = Store(str(tmp_path / "tables.sqlite3"))

    async def a_bad_one_among_good_ones():
        await store.add_decision("t", 1, 0, 0, "lead 2♣")
        return await asyncio.gather(store.add_decision("a", 1, 0, 1, "x"), store.add_decision("t", 1, 0, 9, "again"),
                                    store.add_decision("b", 1, 0, 2, "y"), return_exceptions=True)
    a, again, b = asyncio.run(a_bad_one_among_good_ones())
    assert a is None and b is None and isinstance(again, Taken)
    assert on_disk(store.path, "a") == [(1, 1)] and on_disk(store.path, "b") == [(1, 2)]
    assert on_disk(store.path, "t") == [(1, 0)]
    asyncio.run(store.close())


@pytest.mark.parametrize("db", ["postgressql://ci:secret@127.0.0.1:5432/x", "postgresql:/ci@127.0.0.1/x",
                                "mysql://ci@127.0.0.1/x"])
def test_a_db_address_that_is_not_postgresql_is_refused_not_made_a_file(db, tmp_path, monkeypatch):
    from interpreter.server.databases import open_store
    from interpreter.server.store import StoreUnavailable
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreUnavailable) as e:
        asyncio.run(open_store(db, str(tmp_path)))
    assert "is not a database this server knows" in str(e.value) and "secret" not in str(e.value)
    assert list(tmp_path.iterdir()) == []
