"""Which store `--db` names: a PostgreSQL server's address (postgres.py, the extra
'postgres') or a SQLite file (store.py, by default in the records folder)."""
from __future__ import annotations

from .store import Store, StoreUnavailable, default_path


def is_postgres(db: str | None) -> bool:
    return bool(db) and db.startswith(("postgresql://", "postgres://"))


async def open_store(db: str | None, records: str):
    if is_postgres(db):
        try:
            from .postgres import PostgresStore
        except ImportError:
            raise StoreUnavailable("a PostgreSQL database needs the optional extra 'postgres' (asyncpg): "
                                   "pip install 'card-interpreter[postgres]'") from None
        return await PostgresStore.connect(db)
    return Store(db or default_path(records))
