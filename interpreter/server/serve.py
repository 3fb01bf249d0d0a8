"""`interpret serve`: the server started, its address printed (nothing secret), served until
Ctrl-C or SIGTERM, then stopped cleanly (the store is closed; every decision is on disk)."""
from __future__ import annotations

import asyncio
import os

from aiohttp import web

from ..playing.records import records_dir
from .app import make_app
from .bots import Workers
from .games import file_source, shipped_sources
from .databases import open_store
from .tables import Hall


def offered_games(paths: list) -> dict:
    """id -> GameSource: the shipped games, then each file named (checked before) that is not
    one of them (`interpret serve hearts2` offers hearts2 once)."""
    games = {g.id: g for g in shipped_sources()}
    shipped = {os.path.realpath(g.path) for g in games.values()}
    for path in paths:
        if os.path.realpath(path) in shipped:
            continue
        source = file_source(path, set(games))
        games[source.id] = source
    return games


def network_address() -> str | None:
    """This machine's address on its network, as friends reach it (the one a packet to the
    outside would leave from: nothing is sent), or None without a network."""
    import socket
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))         # TEST-NET-1: routed nowhere, no packet sent
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def serve(paths: list, host: str, port: int, db: str | None, say, workers: int = 2, uploads: bool = False) -> int:
    games = offered_games(paths)
    try:
        asyncio.run(_serve(games, host, port, db, say, workers, uploads))
    except KeyboardInterrupt:
        pass
    say("interpret serve: stopped")
    return 0


async def _serve(games: dict, host: str, port: int, db: str | None, say, workers: int, uploads: bool) -> None:
    store = await open_store(db, records_dir())
    hall = Hall(store, games, Workers(workers), uploads)
    runner = web.AppRunner(make_app(hall), handle_signals=False, access_log=None)
    try:
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = runner.addresses[0][1] if runner.addresses else port      # --port 0: the port the system chose
        shown = f"[{host}]" if ":" in host else host
        say(f"interpret serve: http://{shown}:{bound}/ (tables kept in {store.where}; Ctrl-C stops it)")
        if host in ("0.0.0.0", "::", ""):
            outward = network_address()
            if outward:
                say(f"interpret serve: on your network, open http://{outward}:{bound}/ (the links a table "
                    f"gives are made from the address its lobby was opened at)")
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        hall.workers.close()
        await store.close()
