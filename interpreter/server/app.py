"""The web application (aiohttp): the pages, the lobby's HTTP API and the websocket of
docs/server.md.  A connection says `hello` with its table and token, then moves; everything it
is sent is that seat's frame (frames.py)."""
from __future__ import annotations

import asyncio
import json
import pathlib
import re
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from ..errors import InterpreterError
from ..limits import (MAX_CONNECTIONS_PER_TABLE, MAX_FILE_BYTES, MAX_FRAME_BYTES, MAX_MESSAGE_BURST,
                      MAX_MESSAGES_PER_SECOND, MAX_RATE_ERRORS, MAX_REQUEST_BYTES)
from .games import BadUpload, described
from .protocol import Refused, RateLimit, error_frame, read_message
from .tables import BadRequest, Hall

STATIC = pathlib.Path(__file__).resolve().parent / "static"
STATIC_NAME = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$")
TYPES = {".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
         ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon", ".json": "application/json",
         ".woff2": "font/woff2", ".txt": "text/plain"}
HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                      "style-src 'self'; script-src 'self'; frame-ancestors 'none'"}
HALL = web.AppKey("hall", Hall)
RATE = web.AppKey("rate", tuple)
LISTED = web.AppKey("listed", asyncio.Future)
LISTING = web.AppKey("listing", asyncio.TimerHandle)


def make_app(hall: Hall, rate: tuple = (MAX_MESSAGES_PER_SECOND, MAX_MESSAGE_BURST)) -> web.Application:
    """The application; `rate`: a connection's messages a second and at once (the documented
    limits; a test's server that plays games as fast as it can raises them)."""
    app = web.Application(client_max_size=MAX_REQUEST_BYTES)
    app[HALL] = hall
    app[RATE] = rate
    app.add_routes([web.get("/", lobby_page), web.get("/table/{id}", table_page),
                    web.get("/static/{name}", static_file), web.get("/api/games", games),
                    web.post("/api/games", upload),
                    web.post("/api/tables", new_table), web.get("/api/tables/{id}/record", record),
                    web.get("/ws", websocket)])
    app.on_startup.append(_list_games)
    app.on_shutdown.append(_close_sockets)
    app.on_cleanup.append(_stop_listing)
    return app


# -- pages and files ------------------------------------------------------------------------
def _file(name: str) -> web.StreamResponse:
    path = STATIC / name
    if not STATIC_NAME.match(name) or not path.is_file():
        return web.Response(status=404, text="not found\n", headers=HEADERS)
    kind = TYPES.get(path.suffix, "application/octet-stream")
    return web.Response(body=path.read_bytes(), content_type=kind, charset="utf-8" if kind.startswith("text") else None,
                        headers={**HEADERS, "Cache-Control": "no-cache"})


async def lobby_page(request):
    return _file("lobby.html")


async def table_page(request):
    return _file("table.html")


async def static_file(request):
    return _file(request.match_info["name"])


# -- the lobby's API ------------------------------------------------------------------------
def _json(data, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers=HEADERS, dumps=lambda d: json.dumps(d, ensure_ascii=False))


LIST_AFTER = 0.5        # seconds after the start: a server that cannot listen (a port in use) stops at once


async def _list_games(app) -> None:
    """The lobby's list, begun as the server starts: each game's program is built once (a fifth
    of a second each), in a thread, so that neither the first visitor nor the tables being
    played wait for it.  It begins a moment after the start, once the server listens: a server
    that cannot (a port in use) says so at once instead of after every program is built."""
    loop = asyncio.get_running_loop()
    offered = list(app[HALL].games.values())        # those of the command line: uploads are listed apart
    listed = app[LISTED] = loop.create_future()

    def begin():
        if not listed.done():
            loop.run_in_executor(None, _described, offered).add_done_callback(lambda built: _pass_on(built, listed))
    app[LISTING] = loop.call_later(LIST_AFTER, begin)


def _pass_on(built, listed) -> None:
    """The list built (or its failure) to the future the lobby's requests wait for."""
    if listed.done():
        return
    if built.cancelled():
        listed.cancel()
    elif built.exception() is not None:
        listed.set_exception(built.exception())
    else:
        listed.set_result(built.result())


async def _stop_listing(app) -> None:
    if LISTING in app:
        app[LISTING].cancel()


async def games(request):
    hall = request.app[HALL]
    listed = await asyncio.shield(request.app[LISTED])
    await hall.load_uploads()
    uploaded = await asyncio.get_running_loop().run_in_executor(None, _described_uploads, list(hall.uploaded.values()))
    return _json({"games": listed + uploaded,
                  "uploads": {"allowed": hall.uploads, "max_bytes": MAX_FILE_BYTES}})


def _described(sources: list) -> list:
    return [described(source) for source in sources]


def _described_uploads(sources: list) -> list:
    return [{**entry, "uploaded": True} for entry in _described(sources)]


async def upload(request):
    """POST /api/games?name=FILE.yaml, the file's bytes as the body: a ruleset or house rule
    offered from then on, if the server takes uploads and the file passes every check."""
    hall = request.app[HALL]
    if not hall.uploads:
        return _json({"error": "this server takes no uploaded rulesets (start it with --allow-uploads)"}, 403)
    raw = await _body(request, MAX_FILE_BYTES)
    if raw is None:
        return _json({"error": f"a ruleset may hold at most {MAX_FILE_BYTES} bytes"}, 400)
    try:
        source = await hall.upload(request.query.get("name", ""), raw)
    except BadUpload as e:
        return _json({"error": str(e), "problems": e.problems}, 400)
    entry = await asyncio.get_running_loop().run_in_executor(None, described, source)
    return _json({"game": {**entry, "uploaded": True}}, 201)


async def _body(request, most: int) -> bytes | None:
    """The request's body, or None past `most` bytes (read no further)."""
    chunks, size = [], 0
    while True:
        chunk = await request.content.readany()
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > most:
            return None
        chunks.append(chunk)


async def new_table(request):
    hall = request.app[HALL]
    try:
        body = await request.read()
    except web.HTTPRequestEntityTooLarge:
        return _json({"error": f"the request may hold at most {MAX_REQUEST_BYTES} bytes"}, 400)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return _json({"error": "the request is not JSON"}, 400)
    if isinstance(data, dict) and data.get("game") not in hall.games:
        await hall.load_uploads()                   # uploaded at another server process, perhaps
    await asyncio.get_running_loop().run_in_executor(None, hall.prepare, data)   # the program built, in a thread
    try:
        return _json(await hall.new_table(data), 201)
    except BadRequest as e:
        return _json({"error": str(e)}, 400)


async def record(request):
    hall = request.app[HALL]
    token = request.query.get("token", "")
    try:
        table = await hall.table(request.match_info["id"]) if len(token) <= 64 else None
        if table is None:
            raise Refused("bad_token", "")
        await hall.seat_of(table.id, token)
    except Refused:
        return _json({"error": "no such table, or the link is not one of its seats"}, 404)
    if not table.over:
        return _json({"error": "the game is not over: its record holds the seed, which gives every hidden card"}, 409)
    return web.Response(text=json.dumps(await table.record(), ensure_ascii=False, indent=1), content_type="application/json",
                        headers={**HEADERS, "Content-Disposition": f'attachment; filename="{table.program.name}.json"'})


# -- the websocket --------------------------------------------------------------------------
def same_origin(request) -> bool:
    """A browser's Origin must name this server (its Host); a client without one (a script) may come."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    try:
        return urlsplit(origin).netloc.lower() == request.host.lower() and urlsplit(origin).scheme in ("http", "https")
    except ValueError:
        return False


class Connection:
    """One websocket: its table and seat once it said hello, what of the account it has had."""

    def __init__(self, ws, hall: Hall, rate: tuple):
        self.ws, self.hall = ws, hall
        self.table = None
        self.seat = None
        self.had = 0            # account entries sent
        self.limit = RateLimit(*rate)

    async def send(self, frame: dict) -> None:
        if not self.ws.closed:
            try:
                await self.ws.send_str(json.dumps(frame, ensure_ascii=False))
            except (ConnectionError, RuntimeError):
                pass            # it went away: its close is handled by its own loop

    async def send_state(self) -> None:
        frame = self.table.frame(self.seat, self.had)
        if frame["account"]:
            self.had = frame["account"][-1]["n"]
        await self.send(frame)

    async def handle(self, data) -> bool:
        """Answer one message; False when the connection is to be closed."""
        if not self.limit.allow():
            await self.send(error_frame("rate_limited", "too many messages: wait a moment"))
            return self.limit.refusals < MAX_RATE_ERRORS
        try:
            message = read_message(data)
            await self.answer(message)
        except Refused as e:
            await self.send(error_frame(e.code, e.message))
            return e.code != "too_large"
        except InterpreterError as e:   # a table its rules no longer rebuild (they changed since): said, not a crash
            await self.send(error_frame("over", f"this table cannot be played any more: {e}"))
        return True

    async def answer(self, message: dict) -> None:
        kind = message["type"]
        if kind == "ping":
            return await self.send({"type": "pong"})
        if kind == "hello":
            return await self.hello(message)
        if self.table is None:
            raise Refused("no_hello", "say hello first, with your table and token")
        if kind == "move":
            await self.table.move(self.seat, message["decision"], message["option"])
        elif kind == "hint":
            await self.send({"type": "hint", "text": await self.table.hint(self.seat)})
        elif kind == "rules":
            await self.send({"type": "rules", "text": self.table.rules()})
        elif kind == "rematch":
            await self.rematch()
        elif kind == "abandon":
            await self.table.abandon(self.seat)

    async def hello(self, message: dict) -> None:
        table = await self.hall.table(message["table"])
        if table is None:
            raise Refused("bad_token", "this link opens no seat at this table")
        seat = await self.hall.seat_of(table.id, message["token"])
        if table is not self.table and len(table.connections) >= MAX_CONNECTIONS_PER_TABLE:
            raise Refused("rate_limited", "too many connections to this table")
        await self.leave()
        self.table, self.seat, self.had = table, seat, message.get("since", 0)
        table.connections[self.ws] = self
        await table.tell_all()          # this one its state; the others that this seat is here
        await self.hall.tell_presence(table)

    async def rematch(self) -> None:
        table = self.table
        if not table.over:
            raise Refused("over", "a rematch is made once the game is over")
        await self.hall.rematch(table)

    async def leave(self) -> None:
        """Gone from its table: the others told, here and at the other server processes."""
        table, self.table = self.table, None
        if table is not None and table.connections.pop(self.ws, None) is not None:
            await table.tell_all()
            await self.hall.tell_presence(table)


async def websocket(request):
    if not same_origin(request):
        return web.Response(status=403, text="this page's origin may not open a table here\n")
    ws = web.WebSocketResponse(max_msg_size=16 * MAX_FRAME_BYTES, heartbeat=30)
    await ws.prepare(request)
    connection = Connection(ws, request.app[HALL], request.app[RATE])
    try:
        async for frame in ws:
            if frame.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                if not await connection.handle(frame.data):
                    break
            elif frame.type == WSMsgType.ERROR:
                break
    finally:
        await ws.close()
        await connection.leave()
    return ws


async def _close_sockets(app) -> None:
    hall = app[HALL]
    for table in hall.live.values():
        for connection in list(table.connections.values()):
            await connection.ws.close(code=1001, message=b"server shutdown")
    for task in list(hall.tasks):
        task.cancel()
    await asyncio.sleep(0)
