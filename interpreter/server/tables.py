"""The server's tables: each live table (program, state, seats, connections), made from a
lobby's request or rebuilt from the store, and what happens at it: a move checked and stored
before it is applied and told, the bots' moves, each seat's frame, hint and rules.

Design rule 3: a table's state is its seed and its decisions; the store keeps both, so a
table is rebuilt after a restart by replaying them (playing/records.replay).

Several server processes may share one store (PostgreSQL): each keeps its own live copy of a
table, the database takes each decision number once (a second process's is `Taken`: it catches
up and its move is stale), and the store tells the other processes of every decision (`heard`),
which catch up and tell their own connections."""
from __future__ import annotations

import asyncio
import base64
import secrets
from collections import OrderedDict
from concurrent.futures.process import BrokenProcessPool

from ..authoring.rules_text import rules_lines
from ..errors import InterpreterError, RulesFault
from ..limits import MAX_LIVE_TABLES, MAX_NAME_CHARS, MAX_NUMBER, MAX_UPLOADED_GAMES
from ..messages import msg
from ..playing import records
from ..runtime.engine import apply, labels
from ..source.overlay import text_hash
from . import bots
from .frames import PUBLIC, Account, state_frame
from .games import BOTS, DEFAULT_STRENGTH, STRENGTHS, BadUpload, GameSource, program_of, source_of_row, uploaded_source
from .protocol import Refused
from .store import Taken, token_hash


def new_id(nbytes: int) -> str:
    """A random id or token, base64url without padding (16 bytes: a table; 24: a token)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(nbytes)).rstrip(b"=").decode("ascii")


ABANDONED = "abandoned:"    # a table's status once a person abandoned it: "abandoned:SEAT"


def abandoned_by(status: str):
    """The seat a table's stored status says abandoned it, or None."""
    if status.startswith(ABANDONED) and status[len(ABANDONED):].isdigit():
        return int(status[len(ABANDONED):])
    return None


class BadRequest(InterpreterError):
    """A lobby request the server cannot make a table of; its words say why."""


class Table:
    """One live table."""

    def __init__(self, hall, row: dict, seats: list, decisions: list):
        self.hall, self.row, self.id = hall, row, row["id"]
        self.source = source_of_row(row)
        self.program = program_of(self.source, row["options"], row["lang"])
        self.seats = seats
        self.names = [s["name"] for s in seats]
        record = {"seed": row["seed"], "players": row["players"], "decisions": decisions}
        self.state = records.replay(record, self.program, names=self.names)
        self.indexes = [d["index"] for d in decisions]
        self.connections = {}           # websocket -> Connection
        self.accounts = {}              # seat (None: spectators) -> frames.Account
        self.lock = asyncio.Lock()
        self.bot_task = None
        self.fault = None               # a rules error met while playing: the game stops there
        self.rematch = None             # {seat: link} once a rematch is made
        self.elsewhere = {}             # another server process -> the seats connected there
        self.abandoned = abandoned_by(row["status"])     # the seat that abandoned the game, or None

    # -- what a seat is told --------------------------------------------------------------
    def seat_list(self) -> list:
        present = {c.seat for c in self.connections.values()}.union(*self.elsewhere.values())
        return [{"seat": s["seat"], "name": s["name"], "kind": s["kind"],
                 "connected": s["kind"] == "bot" or s["seat"] in present, "out": bool(self.state.out[s["seat"]])}
                for s in self.seats]

    def frame(self, seat, since: int) -> dict:
        account = self.accounts.get(seat)
        if account is None:
            account = self.accounts[seat] = Account(self.program, PUBLIC if seat is None else seat)
        return state_frame(self, seat, account, since)

    @property
    def over(self) -> bool:
        return self.state.over or self.fault is not None or self.abandoned is not None

    async def tell_all(self) -> None:
        """Each connection its own frame, with the account entries it has not had."""
        for connection in list(self.connections.values()):
            await connection.send_state()

    # -- moves ---------------------------------------------------------------------------------
    def check_move(self, seat, decision: int, option: int) -> None:
        s = self.state
        if self.over:
            raise Refused("over", "the game is over")
        if decision != s.decisions:
            raise Refused("stale", f"decision {decision} has been made; the table is at decision {s.decisions}")
        if seat is None or s.pending is None or s.pending[0] != seat:
            raise Refused("not_your_turn", "it is not your decision")
        if option >= len(s.pending[1]):
            raise Refused("bad_option", f"there are {len(s.pending[1])} moves: 0 to {len(s.pending[1]) - 1}")

    async def move(self, seat, decision: int, option: int) -> None:
        """A person's move: checked, stored, applied, told to every seat; then the bots play."""
        async with self.lock:
            self.check_move(seat, decision, option)
            made = await self.commit(option)
        await self.tell_all()
        if not made:
            raise Refused("stale", f"decision {decision} was made at another of the server's processes")
        self.start_bots()

    async def commit(self, index: int) -> bool:
        """Store decision n, then apply it: it is on disk before anyone hears of it (the table's
        lock is held meanwhile; the other tables go on, their decisions joining the same commit).
        False if another server process made decision n first: the table has caught up."""
        s = self.state
        seat, label = s.pending[0], labels(self.program, s)[index]
        try:
            await self.hall.store.add_decision(self.id, s.decisions + 1, seat, index, label)
        except Taken:
            await self.catch_up_locked()
            return False
        await self.advance(index)
        return True

    async def advance(self, index: int) -> None:
        """Apply a stored decision to the live state."""
        s = self.state
        self.indexes.append(index)
        try:
            apply(self.program, s, index)
        except RulesFault as e:          # the rules cannot go on: the table stops at this decision
            self.fault = str(e)
            await self.hall.store.set_status(self.id, "fault")
            return
        if s.over:
            await self.hall.store.set_status(self.id, "over")

    def is_next(self, n, index) -> bool:
        """Is decision n, option `index`, the one this table takes next?"""
        s = self.state
        return (n == s.decisions + 1 and not self.over and s.pending is not None and isinstance(index, int)
                and 0 <= index < len(s.pending[1]))

    async def catch_up(self) -> bool:
        """The decisions other server processes stored since this copy's last, applied; True
        if there were any."""
        async with self.lock:
            return await self.catch_up_locked()

    async def catch_up_locked(self) -> bool:
        if not self.hall.store.shared:
            return False
        newer = await self.hall.store.decisions(self.id, after=self.state.decisions)
        for d in newer:
            if self.over or d["n"] != self.state.decisions + 1:
                break
            await self.advance(d["index"])
        return bool(newer)

    def bot_to_play(self):
        s = self.state
        if self.over or s.pending is None:
            return None
        seat = self.seats[s.pending[0]]
        return seat if seat["kind"] == "bot" else None

    def start_bots(self) -> None:
        if self.bot_to_play() is not None and (self.bot_task is None or self.bot_task.done()):
            self.bot_task = asyncio.get_running_loop().create_task(self.play_bots())
            self.hall.tasks.add(self.bot_task)
            self.bot_task.add_done_callback(self.hall.tasks.discard)

    async def tell_rematch(self) -> None:
        for connection in list(self.connections.values()):
            if connection.seat in self.rematch:
                await connection.send({"type": "rematch", "link": self.rematch[connection.seat]})

    async def play_bots(self) -> None:
        """Bots' moves until a person is to play or the game is over: a random bot's at once, a
        planning bot's from a worker process; each stored and told like a person's."""
        while (seat := self.bot_to_play()) is not None:
            n, count = self.state.decisions, len(self.state.pending[1])
            if seat["bot"]["kind"] == "random":
                index = bots.random_choice(self.row["seed"], seat["seat"], n, count)
                await asyncio.sleep(0)           # the other tables go on between two moves
            else:
                try:
                    index = await self.hall.think(self, seat["bot"], seat["seat"])
                except BrokenProcessPool:       # a worker died (killed, out of memory): a new pool, a random move
                    self.hall.workers.close()
                    index = bots.random_choice(self.row["seed"], seat["seat"], n, count)
            async with self.lock:
                if self.state.decisions != n or self.over:
                    continue
                await self.commit(index)        # made here or at another process: told alike
            await self.tell_all()

    async def abandon(self, seat) -> None:
        """A person ends the game before its end: kept (the table is over for every seat and
        every server process, its record can be downloaded), told to all."""
        async with self.lock:
            if seat is None:
                raise Refused("not_your_turn", "a spectator cannot abandon the game")
            if self.over:
                raise Refused("over", "the game is over")
            self.abandoned = seat
            await self.hall.store.set_status(self.id, f"{ABANDONED}{seat}")
        await self.hall.store.tell({"kind": "abandoned", "table": self.id, "seat": seat})
        await self.tell_all()

    # -- what a person may ask -----------------------------------------------------------------
    async def hint(self, seat) -> str:
        s = self.state
        if self.over:
            raise Refused("over", "the game is over")
        if seat is None or s.pending is None or s.pending[0] != seat:
            raise Refused("not_your_turn", "a hint is given for your own decision")
        n = s.decisions
        index = await self.hall.think(self, bots.HINT_BOT, seat)
        if self.state.decisions != n:
            raise Refused("stale", "the table has moved on")
        return msg(self.program.lang, "hint", label=labels(self.program, self.state)[index])

    def rules(self) -> str:
        return "\n".join(rules_lines(self.program, None))

    async def record(self) -> dict:
        """The game's record (the JSON `interpret replay` plays)."""
        agents = ["human" if s["kind"] == "person" else "bot" for s in self.seats]
        bot = next((s["bot"] for s in self.seats if s["kind"] == "bot"), None)
        record = records.new_record(self.program, self.source.path, self.row["seed"], self.row["players"], agents,
                                    bot=bot)
        if self.source.text is not None:        # the rules it was played with, not the file as it is now
            record["ruleset"]["sha256"] = text_hash(self.source.text, self.source.path, self.source.uploaded)
        if self.source.uploaded:                # the uploader's file, by its name: replayed beside it
            record["ruleset"]["file"] = self.source.path
        for d in await self.hall.store.decisions(self.id):
            records.note_decision(record, d["player"], d["index"], d["label"])
        if self.state.over:
            records.note_result(record, self.state)
        return record


class Hall:
    """Every table of a server: the store, the games offered, the tables live in memory (loaded
    from the store when first asked for), the bots' workers."""

    def __init__(self, store, games: dict, workers: bots.Workers, uploads: bool = False):
        self.store, self.games, self.workers = store, games, workers
        self.uploads = uploads                  # may a browser upload a ruleset (serve --allow-uploads)?
        self.uploaded = {}                      # id -> GameSource of the games uploaded (kept in the store)
        self.live = OrderedDict()               # table id -> Table, the least recently opened first
        self.most_live = MAX_LIVE_TABLES
        self.tasks = set()
        self.rebuilding = {}                   # table id -> the task rebuilding it
        store.listen(self.heard)

    async def table(self, table_id: str) -> Table | None:
        """The live table, rebuilt from the store if it is not in memory (after a restart, or a
        table made at another server process); caught up with the store if it is shared."""
        if table_id in self.live:
            table = self.live[table_id]
            self.live.move_to_end(table_id)
            if await table.catch_up():
                await table.tell_all()
            return table
        if table_id not in self.rebuilding:    # two connections at once: one rebuild
            self.rebuilding[table_id] = asyncio.get_running_loop().create_task(self._rebuilt(table_id))
        try:
            return await asyncio.shield(self.rebuilding[table_id])
        finally:
            self.rebuilding.pop(table_id, None)

    async def _rebuilt(self, table_id: str) -> Table | None:
        row = await self.store.table(table_id)
        if row is None:
            return None
        table = Table(self, row, await self.store.seats(table_id), await self.store.decisions(table_id))
        self.live[table_id] = table
        self._drop_idle(table_id)
        table.start_bots()
        return table

    def _drop_idle(self, opened: str) -> None:
        """Past `most_live` tables in memory, drop the least recently opened that nobody is at
        and no bot is playing (not the one just `opened`): the store has all of it, and opening
        it again rebuilds it."""
        for table_id in list(self.live):
            if len(self.live) <= self.most_live or table_id == opened:
                return
            table = self.live[table_id]
            if not table.connections and (table.bot_task is None or table.bot_task.done()) and not table.lock.locked():
                del self.live[table_id]

    async def seat_of(self, table_id: str, token: str):
        """The seat (None: a spectator) a token opens at that table; Refused otherwise."""
        found = await self.store.table_of_token(token_hash(token))
        if found is None or found[0] != table_id:
            raise Refused("bad_token", "this link opens no seat at this table")
        return found[1]

    # -- what other server processes tell ---------------------------------------------------------
    def heard(self, news: dict) -> None:
        """News from another server process sharing the store (called in the loop)."""
        if news.get("kind") == "missed":       # the store was away: news may have been lost
            for table in list(self.live.values()):
                self.later(self._caught_up(table))
            return
        if news.get("table") not in self.live:
            return
        table = self.live[news["table"]]
        kind = news.get("kind")
        if kind == "decision":
            self.later(self._caught_up(table, news))
        elif kind == "here":
            table.elsewhere[news["from"]] = set(news.get("seats", ()))
            self.later(table.tell_all())
        elif kind == "abandoned" and isinstance(news.get("seat"), int) and 0 <= news["seat"] < len(table.seats):
            table.abandoned = news["seat"]
            self.later(table.tell_all())
        elif kind == "rematch" and table.rematch is None and isinstance(news.get("links"), dict):
            table.rematch = {int(seat): link for seat, link in news["links"].items() if str(seat).isdigit()}
            self.later(table.tell_rematch())

    async def _caught_up(self, table: Table, news: dict | None = None) -> None:
        """The table caught up: with the decision the news carries if it is the next one (no
        query), else from the store."""
        async with table.lock:
            if news is not None and table.is_next(news.get("n"), news.get("index")):
                await table.advance(news["index"])
                moved = True
            else:
                moved = await table.catch_up_locked()
        if moved:
            await table.tell_all()
            table.start_bots()                 # a bot's turn, if the process that was to play it is gone

    async def tell_presence(self, table: Table) -> None:
        """The seats connected here, for the other processes' seat lists."""
        seats = sorted({c.seat for c in table.connections.values() if c.seat is not None})
        await self.store.tell({"kind": "here", "table": table.id, "seats": seats})

    def later(self, coro) -> None:
        """A task of the hall's, cancelled when the server stops."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def think(self, table: Table, bot: dict, seat: int) -> int:
        row = table.row
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.workers.executor(), bots.think, table.id, table.source.as_row(), row["options"], row["lang"],
            row["seed"], row["players"], list(table.indexes), bot, seat)

    # -- uploaded games -------------------------------------------------------------------------
    async def load_uploads(self) -> None:
        """The games uploaded so far (at this process or another sharing the store), offered."""
        for game, file, text in await self.store.uploaded_games():
            if game not in self.games:
                self.uploaded[game] = self.games[game] = GameSource(game, file=file, text=text)

    async def upload(self, name, raw: bytes) -> GameSource:
        """A ruleset from a browser, checked in a thread (as the command line checks a file),
        kept and offered; BadUpload says why not."""
        if not self.uploads:
            raise BadUpload("this server takes no uploaded rulesets (start it with --allow-uploads)")
        await self.load_uploads()
        if len(self.uploaded) >= MAX_UPLOADED_GAMES:
            raise BadUpload(f"this server holds {MAX_UPLOADED_GAMES} uploaded rulesets already")
        loop = asyncio.get_running_loop()
        for _ in range(3):                      # another process may take the same name meanwhile
            source = await loop.run_in_executor(None, uploaded_source, name, raw, set(self.games))
            if await self.store.add_game(source.id, source.file, source.text):
                self.uploaded[source.id] = self.games[source.id] = source
                return source
            await self.load_uploads()
        raise BadUpload("the server is busy taking other uploads; try again")

    # -- new tables -----------------------------------------------------------------------------
    async def new_table(self, request: dict) -> dict:
        """Make a table from a lobby's request (POST /api/tables); BadRequest says what is wrong."""
        source, program, n, lang, options = self._game(request)
        seats = self._seats(request.get("seats"), program, n)
        return await self.make(source, options, n, lang, seats)

    def prepare(self, request) -> None:
        """Build the program a request asks for (cached), so that making its table then takes no
        time of the server's loop; a bad request is left for new_table to say what is wrong."""
        try:
            self._game(request)
        except (BadRequest, InterpreterError):
            pass

    async def make(self, source, options: dict, n: int, lang: str, seats: list, table_id: str | None = None) -> dict:
        table_id, spectator = table_id or new_id(16), new_id(24)
        tokens = {}
        for s in seats:
            if s["kind"] == "person":
                tokens[s["seat"]] = new_id(24)
                s["token"] = token_hash(tokens[s["seat"]])
        row = {"id": table_id, **source.as_row(), "options": options, "players": n, "lang": lang,
               "seed": secrets.randbelow(MAX_NUMBER)}
        await self.store.add_table(row, seats, token_hash(spectator))
        table = await self.table(table_id)
        return {"table": table_id,
                "seats": [{"seat": s["seat"], "name": s["name"], "kind": s["kind"],
                           **({"link": f"/table/{table_id}#{tokens[s['seat']]}"} if s["kind"] == "person" else {})}
                          for s in table.seats],
                "spectator": f"/table/{table_id}#{spectator}"}

    async def rematch(self, table: Table) -> None:
        """The same game, options and seats at a new table, a new seed and new tokens, each
        person told their link.  One rematch per table: the table's lock makes it in one process,
        the store's claim among several (the others hear of its links)."""
        async with table.lock:
            if table.rematch is None:
                new = new_id(16)
                if not await self.store.claim_rematch(table.id, new):
                    return                     # another process is making it: its links will be heard
                seats = [{k: v for k, v in s.items() if k != "token"} for s in table.seats]
                made = await self.make(table.source, table.row["options"], table.row["players"], table.row["lang"],
                                       seats, new)
                table.rematch = {s["seat"]: s["link"] for s in made["seats"] if "link" in s}
                await self.store.tell({"kind": "rematch", "table": table.id, "links": table.rematch})
        await table.tell_rematch()

    def _game(self, request):
        if not isinstance(request, dict):
            raise BadRequest("the request must be a JSON object")
        game = request.get("game")
        if not isinstance(game, str) or game not in self.games:
            raise BadRequest(f"no game {_shown(game)} here; the games are: {', '.join(self.games)}")
        source = self.games[game]
        options = request.get("options") or {}
        if not isinstance(options, dict) or not all(isinstance(k, str) and isinstance(v, (str, int)) and
                                                    not isinstance(v, bool) for k, v in options.items()):
            raise BadRequest("'options' must map each option's name to its value")
        options = {k: str(v) for k, v in options.items()}
        lang = request.get("lang")
        if lang is not None and not isinstance(lang, str):
            raise BadRequest("'lang' must be a language's code, e.g. en")
        base = program_of(source)
        unknown = [k for k in options if k not in base.option_specs]
        if unknown:
            raise BadRequest(f"{game} has no option {_shown(unknown[0])}; its options are: "
                             f"{', '.join(base.option_specs) or 'none'}")
        if lang is not None and lang not in base.languages:
            raise BadRequest(f"{game} has no language {_shown(lang)}; choose one of: {', '.join(base.languages)}")
        try:
            program = program_of(source, options, lang)
        except InterpreterError as e:
            raise BadRequest(str(e)) from None
        lo, hi, default = program.players
        n = request.get("players", default)
        if not isinstance(n, int) or isinstance(n, bool) or not lo <= n <= hi:
            raise BadRequest(f"{game} is for {lo} players" if lo == hi else f"{game} is for {lo} to {hi} players")
        return source, program, n, program.lang, options

    def _seats(self, seats, program, n: int) -> list:
        if not isinstance(seats, list) or len(seats) != n:
            raise BadRequest(f"'seats' must list the {n} seats, each a person or a bot")
        out = []
        for i, seat in enumerate(seats):
            if not isinstance(seat, dict) or seat.get("kind") not in ("person", "bot"):
                raise BadRequest(f"seat {i + 1}: 'kind' must be 'person' or 'bot'")
            if seat["kind"] == "bot":
                out.append(_bot_seat(i, seat, program))
                continue
            name = seat.get("name") or program.seat_name(i)
            if not isinstance(name, str) or not name.strip() or not name.isprintable() or len(name) > MAX_NAME_CHARS:
                raise BadRequest(f"seat {i + 1}: a name is 1 to {MAX_NAME_CHARS} printable characters")
            out.append({"seat": i, "name": name.strip(), "kind": "person", "bot": None})
        names = [s["name"] for s in out]
        if len(set(names)) != len(names):
            raise BadRequest("two seats have the same name")
        return out


def _bot_seat(i: int, seat: dict, program) -> dict:
    """Seat `i` played by the bot a request's seat names, at its strength (games.STRENGTHS;
    none given: the default, as before strengths were offered); a random bot has none."""
    kind = seat.get("bot", "random")
    if kind not in BOTS:
        raise BadRequest(f"seat {i + 1}: no bot {_shown(kind)}; the bots are: {', '.join(BOTS)}")
    strength = seat.get("strength")
    if strength is not None and kind not in STRENGTHS:
        raise BadRequest(f"seat {i + 1}: the {kind} bot has no strength; only {', '.join(STRENGTHS)} have one")
    choices = ", ".join(STRENGTHS.get(kind, ()))
    if strength is not None and not isinstance(strength, str):
        raise BadRequest(f"seat {i + 1}: 'strength' must be a text, one of: {choices}")
    if strength is not None and strength not in STRENGTHS[kind]:
        raise BadRequest(f"seat {i + 1}: the {kind} bot has no strength {_shown(strength)}; choose one of: {choices}")
    strength = strength or DEFAULT_STRENGTH
    return {"seat": i, "name": _bot_name(program.seat_name(i), kind, strength), "kind": "bot",
            "bot": bots.bot_spec(kind, strength)}


def _bot_name(seat_name: str, kind: str, strength: str) -> str:
    """A bot seat's shown name, "South (ismcts bot, strong)" (the default strength unsaid, as
    before strengths were offered), at most MAX_NAME_CHARS: a long seat name is cut short."""
    said = f" ({kind} bot)" if kind not in STRENGTHS or strength == DEFAULT_STRENGTH else f" ({kind} bot, {strength})"
    room = MAX_NAME_CHARS - len(said)
    return (seat_name if len(seat_name) <= room else seat_name[:room - 1] + "…") + said


def _shown(value) -> str:
    """A client's word quoted back to it: short and plain, or not at all."""
    text = str(value)
    return f"'{text}'" if isinstance(value, str) and 0 < len(text) <= 30 and text.isprintable() else "(not shown)"
