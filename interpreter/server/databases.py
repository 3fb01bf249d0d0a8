"""Which store `--db` names: a PostgreSQL server's address (postgres.py, the extra
'postgres') or a SQLite file (store.py, by default in the records folder)."""
from __future__ import annotations

from .store import Store, StoreUnavailable, default_path


import re

SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):/")      # two letters at least: C:/ is a drive


def is_postgres(db: str | None) -> bool:
    return bool(db) and db.lower().startswith(("postgresql://", "postgres://"))


async def open_store(db: str | None, records: str):
    scheme = SCHEME.match(db or "")
    if scheme and not is_postgres(db):      # a mistyped address is not a file to make
        word = scheme.group(1)
        shown = f"'{word}:'" if len(word) <= 20 else "its scheme"
        raise StoreUnavailable(f"--db {shown} is not a database this server knows: give a PostgreSQL database "
                               f"(postgresql://USER@HOST/DB) or a SQLite file's path")
    if is_postgres(db):
        try:
            from .postgres import PostgresStore
        except ImportError:
            raise StoreUnavailable("a PostgreSQL database needs the optional extra 'postgres' (asyncpg): "
                                   "pip install 'card-interpreter[postgres]'") from None
        return await PostgresStore.connect(db)
    return Store(db or default_path(records))
