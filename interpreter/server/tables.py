"""The server's tables: each live table (program, state, seats, connections), made from a
lobby's request or rebuilt from the store, and what happens at it: a move checked and stored
before it is applied and told, the bots' moves, each seat's frame, hint and rules.

Design rule 3: a table's state is its seed and its decisions; the store keeps both, so a
table is rebuilt after a restart by replaying them (playing/records.replay)."""
from __future__ import annotations

import asyncio
import base64
import secrets
from concurrent.futures.process import BrokenProcessPool

from ..authoring.rules_text import rules_lines
from ..errors import InterpreterError, RulesFault
from ..limits import MAX_NAME_CHARS, MAX_NUMBER
from ..messages import msg
from ..playing import records
from ..runtime.engine import apply, labels
from . import bots
from .frames import PUBLIC, Account, state_frame
from .games import BOTS, DEFAULT_STRENGTH, STRENGTHS, program_of, source_of_row
from .protocol import Refused
from .store import token_hash


def new_id(nbytes: int) -> str:
    """A random id or token, base64url without padding (16 bytes: a table; 24: a token)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(nbytes)).rstrip(b"=").decode("ascii")


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

    # -- what a seat is told --------------------------------------------------------------
    def seat_list(self) -> list:
        present = {c.seat for c in self.connections.values()}
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
        return self.state.over or self.fault is not None

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
            await self.commit(option)
        await self.tell_all()
        self.start_bots()

    async def commit(self, index: int) -> None:
        """Store decision n, then apply it: it is on disk before anyone hears of it (the table's
        lock is held meanwhile; the other tables go on, their decisions joining the same commit)."""
        s = self.state
        seat, label = s.pending[0], labels(self.program, s)[index]
        await self.hall.store.add_decision(self.id, s.decisions + 1, seat, index, label)
        self.indexes.append(index)
        try:
            apply(self.program, s, index)
        except RulesFault as e:          # the rules cannot go on: the table stops at this decision
            self.fault = str(e)
            self.hall.store.set_status(self.id, "fault")
            return
        if s.over:
            self.hall.store.set_status(self.id, "over")

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
                await self.commit(index)
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

    def record(self) -> dict:
        """The game's record (the JSON `interpret replay` plays)."""
        agents = ["human" if s["kind"] == "person" else "bot" for s in self.seats]
        bot = next((s["bot"] for s in self.seats if s["kind"] == "bot"), None)
        record = records.new_record(self.program, self.source.path, self.row["seed"], self.row["players"], agents,
                                    bot=bot)
        for d in self.hall.store.decisions(self.id):
            records.note_decision(record, d["player"], d["index"], d["label"])
        if self.state.over:
            records.note_result(record, self.state)
        return record


class Hall:
    """Every table of a server: the store, the games offered, the tables live in memory (loaded
    from the store when first asked for), the bots' workers."""

    def __init__(self, store, games: dict, workers: bots.Workers):
        self.store, self.games, self.workers = store, games, workers
        self.live = {}
        self.tasks = set()

    def table(self, table_id: str) -> Table | None:
        """The live table, rebuilt from the store if it is not in memory (after a restart)."""
        if table_id in self.live:
            return self.live[table_id]
        row = self.store.table(table_id)
        if row is None:
            return None
        table = Table(self, row, self.store.seats(table_id), self.store.decisions(table_id))
        self.live[table_id] = table
        table.start_bots()
        return table

    def seat_of(self, table_id: str, token: str):
        """The seat (None: a spectator) a token opens at that table; Refused otherwise."""
        found = self.store.table_of_token(token_hash(token))
        if found is None or found[0] != table_id:
            raise Refused("bad_token", "this link opens no seat at this table")
        return found[1]

    async def think(self, table: Table, bot: dict, seat: int) -> int:
        row = table.row
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.workers.executor(), bots.think, table.id, table.source.as_row(), row["options"], row["lang"],
            row["seed"], row["players"], list(table.indexes), bot, seat)

    # -- new tables -----------------------------------------------------------------------------
    def new_table(self, request: dict) -> dict:
        """Make a table from a lobby's request (POST /api/tables); BadRequest says what is wrong."""
        source, program, n, lang, options = self._game(request)
        seats = self._seats(request.get("seats"), program, n)
        return self.make(source, options, n, lang, seats)

    def prepare(self, request) -> None:
        """Build the program a request asks for (cached), so that making its table then takes no
        time of the server's loop; a bad request is left for new_table to say what is wrong."""
        try:
            self._game(request)
        except (BadRequest, InterpreterError):
            pass

    def make(self, source, options: dict, n: int, lang: str, seats: list) -> dict:
        table_id, spectator = new_id(16), new_id(24)
        tokens = {}
        for s in seats:
            if s["kind"] == "person":
                tokens[s["seat"]] = new_id(24)
                s["token"] = token_hash(tokens[s["seat"]])
        row = {"id": table_id, **source.as_row(), "options": options, "players": n, "lang": lang,
               "seed": secrets.randbelow(MAX_NUMBER)}
        self.store.add_table(row, seats, token_hash(spectator))
        table = self.table(table_id)
        return {"table": table_id,
                "seats": [{"seat": s["seat"], "name": s["name"], "kind": s["kind"],
                           **({"link": f"/table/{table_id}#{tokens[s['seat']]}"} if s["kind"] == "person" else {})}
                          for s in table.seats],
                "spectator": f"/table/{table_id}#{spectator}"}

    def rematch(self, table: Table) -> dict:
        """The same game, options and seats at a new table, a new seed and new tokens: seat -> link."""
        if table.rematch is None:
            seats = [{k: v for k, v in s.items() if k != "token"} for s in table.seats]
            made = self.make(table.source, table.row["options"], table.row["players"], table.row["lang"], seats)
            table.rematch = {s["seat"]: s["link"] for s in made["seats"] if "link" in s}
        return table.rematch

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
