"""The game server (docs/server.md): whole games played through the protocol alone, nothing a
seat may not see in any frame it gets, nothing lost when the server is killed, bad input
answered and refused, the lobby's HTTP API."""
from __future__ import annotations

import asyncio
import json
import random

import pytest

pytest.importorskip("aiohttp")
pytestmark = pytest.mark.extras

import aiohttp  # noqa: E402

from server_client import LiveServer, Seat, new_table, play_to_the_end, table_of, token_of  # noqa: E402

from interpreter.cli import run as interpret  # noqa: E402
from interpreter.limits import deep_enough_stack  # noqa: E402

deep_enough_stack()     # as the checker raises it when the server builds a game: before hypothesis notes it


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("server") / "tables.sqlite3")
    yield live
    live.close()


PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
AGAINST_A_BOT = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]


async def seated(server, game, seats, **more):
    status, made = await new_table(server.session, server.url, game, seats, **more)
    assert status == 201, made
    links = [s["link"] for s in made["seats"] if s["kind"] == "person"]
    return made, [await Seat.open(server.session, server.url, link) for link in links]


# -- whole games through the protocol -----------------------------------------------------------
@pytest.mark.parametrize("game", ["hearts2", "gnav2"])
@pytest.mark.parametrize("seats", [PEOPLE, AGAINST_A_BOT], ids=["two people", "a person and a bot"])
def test_a_whole_game_is_played_to_its_end_through_the_protocol(server, game, seats):
    async def game_played():
        made, clients = await seated(server, game, seats)
        last = await play_to_the_end(clients, random.Random(1))
        for c in clients:
            await c.close()
        return made, last
    made, last = server.run(game_played())
    assert last["over"] and last["result"]["text"]
    assert server.hall.live[made["table"]].state.over
    assert len(server.run(server.hall.store.decisions(made["table"]))) == last["decisions"]


def test_each_seat_gets_the_state_after_every_decision_and_only_its_own_moves(server):
    async def one_move():
        _, (ann, bo) = await seated(server, "hearts2", PEOPLE)
        first = ann if ann.state["moves"] else bo
        other = bo if first is ann else ann
        assert not other.state["moves"] and other.state["prompt"] is None
        n = first.state["decisions"]
        await first.send({"type": "move", "decision": n, "option": 0})
        seen = [await c.next_state(n) for c in (ann, bo)]
        await ann.close(), await bo.close()
        return n, seen
    n, seen = server.run(one_move())
    assert [s["decisions"] for s in seen] == [n + 1, n + 1]


# -- nothing leaked --------------------------------------------------------------------------------
def cards_in(data) -> list:
    """Every card drawn in a frame's view or moves (a {'text', 'color'} pair)."""
    found = []
    if isinstance(data, dict):
        if set(data) == {"text", "color"}:
            found.append(data["text"])
        for v in data.values():
            found += cards_in(v)
    elif isinstance(data, list):
        for v in data:
            found += cards_in(v)
    return found


def hidden_displays(program, s, seat):
    """The displays of the cards `seat` cannot see where they lie (None: a spectator, who sees
    only what every seat sees), less any that a visible copy shows."""
    from interpreter import view
    seats = list(s.players) if seat is None else [seat]
    display = dict(zip(program.deck.ids, program.deck.display))
    hidden, shown = set(), set()
    for k in seats:
        v = view(program, s, k)
        for z in program.zones.values():
            real = s.zones[z.name] if not z.per_player else [c for cards in s.zones[z.name] for c in cards]
            seen = v["zones"][z.name] if not z.per_player else [c for cards in v["zones"][z.name] for c in cards]
            for c, id_ in zip(real, seen):
                (hidden if id_ is None else shown).add(program.deck.display[c])
        shown |= {display[i] for i in _ids_shown(v)}
    return hidden - shown if seat is not None else hidden


def _ids_shown(v):
    for z in v["zones"].values():
        for c in (z if not z or not isinstance(z[0], list) else [c for cards in z for c in cards]):
            if c is not None:
                yield c


SPIED = [("hearts2", 2), ("gnav2", 2), ("ninety_nine", 2), ("go_fish", 3)]


@pytest.mark.parametrize("game,players", SPIED)
def test_no_frame_to_a_seat_holds_what_that_seat_may_not_see(server, game, players):
    """A spy records every frame to every seat and to a spectator over several games; each is
    checked against the state at its decision, replayed from the store."""
    from interpreter import apply, new_game
    seats = [{"kind": "person", "name": f"P{i}"} for i in range(players - 1)] + [{"kind": "bot", "bot": "random"}]

    async def spied(k):
        made, clients = await seated(server, game, seats, players=players)
        spectator = await Seat.open(server.session, server.url, made["spectator"])
        await play_to_the_end(clients, random.Random(k))
        await spectator.next_state(10 ** 9)
        for c in clients + [spectator]:
            await c.close()
        return made, clients, spectator

    for k in range(3):
        made, clients, spectator = server.run(spied(k))
        table = server.hall.live[made["table"]]
        program, secrets = table.program, [str(table.row["seed"])]
        secrets += [token_of(s["link"]) for s in made["seats"] if "link" in s] + [token_of(made["spectator"])]
        by_seat = [(c.state["seat"], c.frames) for c in clients] + [(None, spectator.frames)]
        s = new_game(program, seed=table.row["seed"], players=players, names=table.names)
        decisions = server.run(server.hall.store.decisions(table.id))
        checked = 0
        for n in range(len(decisions) + 1):
            for seat, frames in by_seat:
                hidden = hidden_displays(program, s, seat)
                for frame in frames:
                    if frame["type"] != "state" or frame["decisions"] != n:
                        continue
                    text = json.dumps(frame, ensure_ascii=False)
                    assert not any(secret in text for secret in secrets[:1] if not s.over), "the seed"
                    assert not any(secret in text for secret in secrets[1:]), "a token"
                    assert not set(cards_in(frame["view"])) & hidden, (game, n, seat)
                    assert not set(cards_in(frame["moves"])) & hidden
                    if seat is None or not s.pending or s.pending[0] != seat:
                        assert frame["moves"] == [] and frame["prompt"] is None
                    checked += 1
            if n < len(decisions):
                apply(program, s, decisions[n]["index"])
        assert checked >= len(decisions)
        for seat, frames in by_seat:
            assert not told_to_others(s.log, seat) & set(account_texts(frames)), (game, seat)


def told_to_others(log, seat) -> set:
    """The texts of the account said to a seat other than `seat` alone (to a spectator: to any
    seat), less those said openly too."""
    private = {e["text"] for e in log if e.get("text") and isinstance(e.get("to"), int) and e["to"] != seat}
    return private - {e["text"] for e in log if e.get("text") and e.get("to") is None}


def account_texts(frames):
    return [entry["text"].removeprefix("(to you) ") for f in frames if f["type"] == "state" for entry in f["account"]]


# -- bad input ------------------------------------------------------------------------------------
async def refused(seat, message) -> dict:
    """Send `message` (a text, or data as JSON); the error frame it gets, checked to have changed
    nothing: the connection still answers and the table is at the same decision."""
    before = seat.state["decisions"]
    await seat.ws.send_str(message if isinstance(message, str) else json.dumps(message))
    error = await seat.next_frame("error")
    await seat.send({"type": "ping"})
    await seat.next_frame("pong")
    assert seat.state["decisions"] == before
    return error


def bad_input(server, messages, whose="deciding"):
    async def sent():
        _, (ann, bo) = await seated(server, "hearts2", PEOPLE)
        deciding, waiting = (ann, bo) if ann.state["moves"] else (bo, ann)
        seat = deciding if whose == "deciding" else waiting
        codes = [(await refused(seat, m(deciding.state) if callable(m) else m))["code"] for m in messages]
        table = server.hall.live[table_of(ann.link)]
        await ann.close(), await bo.close()
        return codes, table
    return server.run(sent())


@pytest.mark.parametrize("message,code", [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_json"),
    ({"type": "shuffle"}, "unknown_type"),
    ({"no": "type"}, "bad_field"),
    ({"type": "move", "decision": 0}, "bad_field"),
    ({"type": "move", "decision": "0", "option": 0}, "bad_field"),
    ({"type": "move", "decision": 0, "option": -1}, "bad_field"),
    ({"type": "move", "decision": 0, "option": True}, "bad_field"),
    ({"type": "ping", "extra": 1}, "bad_field"),
])
def test_a_malformed_message_gets_an_error_frame_and_changes_nothing(server, message, code):
    codes, table = bad_input(server, [message])
    assert codes == [code]
    assert table.state.decisions == 0


def test_a_stale_move_an_out_of_turn_move_and_a_bad_option_are_refused(server):
    stale = lambda st: {"type": "move", "decision": st["decisions"] + 5, "option": 0}          # noqa: E731
    bad_option = lambda st: {"type": "move", "decision": st["decisions"], "option": 999}       # noqa: E731
    assert bad_input(server, [stale, bad_option])[0] == ["stale", "bad_option"]
    out_of_turn = lambda st: {"type": "move", "decision": st["decisions"], "option": 0}        # noqa: E731
    assert bad_input(server, [out_of_turn], whose="waiting")[0] == ["not_your_turn"]


def test_a_replayed_move_is_stale(server):
    async def replayed():
        _, (ann, bo) = await seated(server, "hearts2", PEOPLE)
        seat = ann if ann.state["moves"] else bo
        move = {"type": "move", "decision": seat.state["decisions"], "option": 0}
        await seat.send(move)
        await seat.next_state(move["decision"])
        error = await refused(seat, move)
        await ann.close(), await bo.close()
        return error
    assert server.run(replayed())["code"] == "stale"


def test_messages_before_hello_and_wrong_tokens_are_refused(server):
    async def strangers():
        made, (ann, bo) = await seated(server, "hearts2", PEOPLE)
        other, _ = await seated(server, "gnav2", PEOPLE)
        ws = await server.session.ws_connect(f"{server.url}/ws")
        answers = []
        for message in ({"type": "move", "decision": 0, "option": 0}, {"type": "rules"},
                        {"type": "hello", "table": made["table"], "token": "x" * 32},
                        {"type": "hello", "table": made["table"], "token": token_of(other["seats"][0]["link"])},
                        {"type": "hello", "table": "nope", "token": token_of(ann.link)}):
            await ws.send_str(json.dumps(message))
            answers.append(json.loads((await ws.receive()).data)["code"])
        await ws.close(), await ann.close(), await bo.close()
        return answers
    assert server.run(strangers()) == ["no_hello", "no_hello", "bad_token", "bad_token", "bad_token"]


def test_an_oversized_message_is_refused_and_the_connection_closed(server):
    from interpreter.limits import MAX_FRAME_BYTES

    async def oversized():
        _, (ann, bo) = await seated(server, "hearts2", PEOPLE)
        await ann.ws.send_str(json.dumps({"type": "ping", "pad": "x" * MAX_FRAME_BYTES}))
        error = await ann.next_frame("error")
        await asyncio.wait_for(ann.reader, 5)           # the server closed it
        await bo.close()
        return error
    assert server.run(oversized())["code"] == "too_large"


def test_a_flood_of_messages_is_rate_limited_then_closed(tmp_path):
    """The documented limits, on a server that keeps them (the module's server raises them)."""
    from interpreter.limits import MAX_MESSAGE_BURST, MAX_RATE_ERRORS
    live = LiveServer(tmp_path / "db.sqlite3", games=("gnav2",), rate=(0.001, MAX_MESSAGE_BURST))
    try:
        async def flood():
            ws = await live.session.ws_connect(f"{live.url}/ws")
            for _ in range(MAX_MESSAGE_BURST + MAX_RATE_ERRORS + 5):
                await ws.send_str('{"type": "ping"}')
            got = []
            async for message in ws:
                got.append(json.loads(message.data))
            return got
        got = live.run(flood())
    finally:
        live.close()
    assert [f["type"] for f in got[:MAX_MESSAGE_BURST]] == ["pong"] * MAX_MESSAGE_BURST
    assert [f.get("code") for f in got[MAX_MESSAGE_BURST:]] == ["rate_limited"] * MAX_RATE_ERRORS


def test_the_rate_limit_lets_a_burst_through_then_the_average():
    from interpreter.server.protocol import RateLimit
    now = [0.0]
    limit = RateLimit(rate=2, burst=3, clock=lambda: now[0])
    assert [limit.allow() for _ in range(4)] == [True, True, True, False]
    now[0] += 1.0
    assert [limit.allow() for _ in range(3)] == [True, True, False]


def test_a_browser_from_another_origin_is_refused(server):
    async def origins():
        statuses = []
        for origin in ("http://evil.example", f"http://127.0.0.1:{server.port + 1}", "null"):
            try:
                ws = await server.session.ws_connect(f"{server.url}/ws", headers={"Origin": origin})
                await ws.close()
                statuses.append(101)
            except aiohttp.WSServerHandshakeError as e:
                statuses.append(e.status)
        ws = await server.session.ws_connect(f"{server.url}/ws", headers={"Origin": f"http://127.0.0.1:{server.port}"})
        await ws.close()
        return statuses
    assert server.run(origins()) == [403, 403, 403]


# -- fuzzing ------------------------------------------------------------------------------------
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from conftest import fuzz_examples  # noqa: E402

fields = st.dictionaries(st.sampled_from(["type", "decision", "option", "table", "token", "since", "x"]),
                         st.one_of(st.sampled_from(["move", "hello", "hint", "rules", "ping", "rematch", "nope"]),
                                   st.integers(-3, 10 ** 10), st.booleans(), st.none(), st.text(max_size=80),
                                   st.lists(st.integers(), max_size=3)), max_size=5)
messages = st.one_of(fields.map(json.dumps), st.text(max_size=200), st.binary(max_size=50).map(repr))


@pytest.mark.fuzz
@settings(max_examples=fuzz_examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(messages, min_size=1, max_size=8))
def test_no_message_crashes_the_server_or_moves_the_game_but_a_legal_move(server, sent):
    async def fuzzed():
        _, (ann, bo) = await seated(server, "gnav2", PEOPLE)
        table = server.hall.live[table_of(ann.link)]
        for text in sent:
            before = table.state.decisions
            legal = None
            try:
                data = json.loads(text)
                legal = isinstance(data, dict) and set(data) == {"type", "decision", "option"} and \
                    data["type"] == "move" and data["decision"] == before
            except ValueError:
                pass
            await ann.ws.send_str(text)
            await ann.send({"type": "ping"})
            await ann.next_frame("pong")
            assert table.state.decisions == before or legal
        await ann.close(), await bo.close()
    server.run(fuzzed())


# -- the lobby's HTTP API -----------------------------------------------------------------------
def test_the_games_offered_are_listed_with_their_options_and_bots(server):
    async def listed():
        async with server.session.get(f"{server.url}/api/games") as r:
            return r.status, await r.json()
    status, data = server.run(listed())
    assert status == 200
    games = {g["id"]: g for g in data["games"]}
    assert set(games) == {"hearts2", "gnav2", "ninety_nine", "go_fish"}
    hearts = games["hearts2"]
    assert hearts["players"] == {"min": 2, "max": 2, "default": 2} and hearts["bots"] == ["random", "mc", "ismcts"]
    queen = next(o for o in hearts["options"] if o["name"] == "special_queen")
    assert queen["choices"] == ["spades", "clubs"] and queen["default"] == "spades" and queen["explain"]
    assert games["go_fish"]["players"]["max"] == 6


def test_the_games_offered_list_each_planning_bots_strengths_and_the_default(server):
    async def listed():
        async with server.session.get(f"{server.url}/api/games") as r:
            return await r.json()
    hearts = next(g for g in server.run(listed())["games"] if g["id"] == "hearts2")
    assert set(hearts["strengths"]) == {"mc", "ismcts"}          # random has none
    for bot in ("mc", "ismcts"):
        offered = hearts["strengths"][bot]
        assert offered["choices"] == ["quick", "normal", "strong"] and offered["default"] == "normal"
        assert len(offered["explain_choices"]) == 3 and all(offered["explain_choices"])
    assert "2,000 iterations or 1.5 s" in hearts["strengths"]["ismcts"]["explain_choices"][2]


@pytest.mark.parametrize("body,words", [
    ({"game": "chess", "seats": []}, "no game 'chess'"),
    ({"game": "hearts2", "seats": [{"kind": "person"}]}, "'seats' must list the 2 seats"),
    ({"game": "hearts2", "players": 5, "seats": PEOPLE}, "hearts2 is for 2 players"),
    ({"game": "hearts2", "seats": PEOPLE, "options": {"special_queen": "hearts"}}, "special_queen"),
    ({"game": "hearts2", "seats": PEOPLE, "options": {"colour": "red"}}, "no option 'colour'"),
    ({"game": "hearts2", "seats": PEOPLE, "lang": "xx"}, "no language 'xx'"),
    ({"game": "hearts2", "seats": [{"kind": "bot", "bot": "genius"}, PEOPLE[0]]}, "no bot 'genius'"),
    ({"game": "hearts2", "seats": [{"kind": "dog"}, PEOPLE[0]]}, "'kind' must be 'person' or 'bot'"),
    ({"game": "hearts2", "seats": [PEOPLE[0], {"kind": "bot", "bot": "mc", "strength": "genius"}]},
     "seat 2: the mc bot has no strength 'genius'; choose one of: quick, normal, strong"),
    ({"game": "hearts2", "seats": [PEOPLE[0], {"kind": "bot", "bot": "ismcts", "strength": 3}]},
     "seat 2: 'strength' must be a text, one of: quick, normal, strong"),
    ({"game": "hearts2", "seats": [PEOPLE[0], {"kind": "bot", "bot": "random", "strength": "strong"}]},
     "seat 2: the random bot has no strength"),
    ({"game": "hearts2", "seats": [{"kind": "person", "name": "x" * 41}, PEOPLE[0]]}, "a name is 1 to 40"),
    ({"game": "hearts2", "seats": [PEOPLE[0], PEOPLE[0]]}, "the same name"),
    ([1, 2], "must be a JSON object"),
])
def test_a_bad_request_for_a_table_is_answered_400_in_words(server, body, words):
    async def asked():
        async with server.session.post(f"{server.url}/api/tables", json=body) as r:
            return r.status, await r.json()
    status, answer = server.run(asked())
    assert status == 400 and words in answer["error"], answer


def test_a_request_that_is_not_json_or_too_large_is_answered_400(server):
    async def asked(data):
        async with server.session.post(f"{server.url}/api/tables", data=data) as r:
            return r.status, await r.json()
    assert server.run(asked(b"{nope")) == (400, {"error": "the request is not JSON"})
    status, answer = server.run(asked(b" " * 20_000))
    assert status == 400 and "at most" in answer["error"]


def test_a_table_is_made_with_a_link_per_person_and_one_for_spectators(server):
    status, made = server.run(new_table(server.session, server.url, "hearts2", AGAINST_A_BOT))
    assert status == 201
    assert [(s["seat"], s["kind"], "link" in s) for s in made["seats"]] == [(0, "person", True), (1, "bot", False)]
    person, spectator = token_of(made["seats"][0]["link"]), token_of(made["spectator"])
    assert len(person) == len(spectator) == 32 and person != spectator      # 24 random bytes each
    assert len(made["table"]) == 22                                         # 16 random bytes
    assert person not in open(server.hall.store.path, "rb").read().decode("latin-1")   # only its sha256 is kept


@pytest.mark.parametrize("bot,strength", [("ismcts", "strong"), ("mc", "quick")])
def test_a_bot_seat_is_made_at_the_strength_asked_and_stored_with_its_numbers(server, bot, strength):
    from interpreter.server.games import STRENGTHS
    seats = [PEOPLE[0], {"kind": "bot", "bot": bot, "strength": strength}]
    status, made = server.run(new_table(server.session, server.url, "hearts2", seats))
    assert status == 201, made
    assert made["seats"][1]["name"] == f"Player 2 ({bot} bot, {strength})"
    assert server.hall.live[made["table"]].seats[1]["bot"] == STRENGTHS[bot][strength]    # as read back from the store


def test_a_bot_seat_without_a_strength_is_made_as_before_strengths(server):
    """A request of before (and a table stored then) has the numbers of then: "normal"."""
    from interpreter.playing.agents import TABLE_BOT
    seats = [{"kind": "bot", "bot": "ismcts"}, {"kind": "bot", "bot": "mc"}]
    status, made = server.run(new_table(server.session, server.url, "hearts2", seats))
    assert status == 201, made
    assert [s["name"] for s in made["seats"]] == ["Player 1 (ismcts bot)", "Player 2 (mc bot)"]
    stored = [s["bot"] for s in server.hall.live[made["table"]].seats]           # as read back from the store
    assert stored[0] == TABLE_BOT and stored[1]["playouts"] == 20


def test_a_planning_bot_thinks_with_the_numbers_of_its_strength(server):
    from interpreter.server.games import STRENGTHS
    asked, think = [], server.hall.think

    async def noted(table, bot, seat):
        asked.append(bot)
        return await think(table, bot, seat)

    async def played_once():
        _, (ann,) = await seated(server, "hearts2", [PEOPLE[0], {"kind": "bot", "bot": "ismcts", "strength": "quick"}])
        while not asked:
            if ann.state["moves"]:
                n = ann.state["decisions"]
                await ann.send({"type": "move", "decision": n, "option": 0})
            await ann.next_state(ann.state["decisions"])
        await ann.close()
    server.hall.think = noted
    try:
        server.run(played_once())
    finally:
        del server.hall.think
    assert asked[0] == STRENGTHS["ismcts"]["quick"]


def test_every_strength_of_a_tables_bot_is_bounded_in_time_a_decision():
    from interpreter.limits import MAX_BOT_SECONDS
    from interpreter.server.games import STRENGTHS
    specs = [spec for strengths in STRENGTHS.values() for spec in strengths.values()]
    assert all(0 < spec["seconds"] <= MAX_BOT_SECONDS for spec in specs)
    assert max(spec["seconds"] for spec in specs) == MAX_BOT_SECONDS


def test_a_bot_seats_name_says_its_strength_within_the_name_limit():
    from interpreter.limits import MAX_NAME_CHARS
    from interpreter.server.tables import _bot_name
    assert _bot_name("South", "ismcts", "strong") == "South (ismcts bot, strong)"
    assert _bot_name("South", "mc", "normal") == "South (mc bot)"
    long = _bot_name("The player in the north-east corner", "ismcts", "strong")
    assert len(long) == MAX_NAME_CHARS and long.endswith("… (ismcts bot, strong)")


def test_the_record_of_a_finished_game_is_downloaded_and_replayed(server, tmp_path):
    async def finished():
        made, clients = await seated(server, "gnav2", AGAINST_A_BOT)
        url = f"{server.url}/api/tables/{made['table']}/record?token={token_of(made['seats'][0]['link'])}"
        async with server.session.get(url) as r:
            early = r.status, await r.json()
        await play_to_the_end(clients, random.Random(3))
        async with server.session.get(url) as r:
            record = r.status, await r.text()
        async with server.session.get(url.replace(token_of(made["seats"][0]["link"]), "x" * 32)) as r:
            stranger = r.status
        for c in clients:
            await c.close()
        return early, record, stranger
    (early_status, early), (status, text), stranger = server.run(finished())
    assert early_status == 409 and "not over" in early["error"]
    assert status == 200 and stranger == 404
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    out = _StringIO()
    assert interpret(["replay", str(path)], stdout=out, stderr=out) == 0, out.getvalue()
    assert "replay ok" in out.getvalue() and "the same result" in out.getvalue()


def test_a_person_may_abandon_the_game_which_ends_it_for_every_seat_and_gives_its_record(server, tmp_path):
    async def abandoned():
        made, (ann, bo) = await seated(server, "hearts2", PEOPLE)
        spectator = await Seat.open(server.session, server.url, made["spectator"])
        for _ in range(6):
            mover = ann if ann.state["moves"] else bo
            n = mover.state["decisions"]
            await mover.send({"type": "move", "decision": n, "option": 0})
            await mover.next_state(n)
        await spectator.send({"type": "abandon"})
        refused = await spectator.next_frame("error")
        n = bo.state["decisions"]
        await bo.send({"type": "abandon"})
        for c in (ann, bo, spectator):
            while not c.state["over"]:
                await c._wait(10)
        mover = ann if ann.state["to_play"] == 0 else bo
        await mover.send({"type": "move", "decision": n, "option": 0})
        late = await mover.next_frame("error")
        url = f"{server.url}/api/tables/{made['table']}/record?token={token_of(made['seats'][0]['link'])}"
        async with server.session.get(url) as r:
            record = r.status, await r.text()
        states = [c.state for c in (ann, bo, spectator)]
        for c in (ann, bo, spectator):
            await c.close()
        return made, refused, late, record, states, n
    made, refused, late, (status, text), states, n = server.run(abandoned())
    assert refused["code"] == "not_your_turn" and "spectator" in refused["message"]
    assert late["code"] == "over"
    for told in states:
        assert told["over"] and told["moves"] == [] and told["to_play"] is None and told["decisions"] == n
        assert told["result"] == {"text": "Bo abandoned the game before its end.", "winners": [], "scores": [],
                                "abandoned": "Bo"}
    assert server.run(server.hall.store.table(made["table"]))["status"] == "abandoned:1"
    assert status == 200
    path = tmp_path / "abandoned.json"
    path.write_text(text, encoding="utf-8")
    assert len(json.loads(text)["decisions"]) == n
    out = _StringIO()
    assert interpret(["replay", str(path)], stdout=out, stderr=out) == 0, out.getvalue()


def test_an_abandoned_table_is_still_abandoned_after_a_restart(tmp_path):
    db = tmp_path / "tables.sqlite3"
    first = LiveServer(db)
    try:
        async def abandon():
            made, (ann, bo) = await seated(first, "gnav2", PEOPLE)
            await ann.send({"type": "abandon"})
            await ann.next_frame("state")
            await ann.close()
            await bo.close()
            return made
        made = first.run(abandon())
    finally:
        first.close()
    again = LiveServer(db)
    try:
        async def look():
            bo = await Seat.open(again.session, again.url, made["seats"][1]["link"])
            await bo.close()
            return bo.state
        state = again.run(look())
    finally:
        again.close()
    assert state["over"] and state["result"]["abandoned"] == "Ann"


def test_hint_rules_and_a_rematch_are_answered(server):
    async def asked():
        made, clients = await seated(server, "gnav2", AGAINST_A_BOT)
        ann = clients[0]
        while not ann.state["moves"]:
            await ann.next_state(ann.state["decisions"])
        await ann.send({"type": "hint"})
        hint = await ann.next_frame("hint", timeout=30)
        await ann.send({"type": "rules"})
        rules = await ann.next_frame("rules")
        await ann.send({"type": "rematch"})
        early = await ann.next_frame("error")
        await play_to_the_end(clients, random.Random(4))
        await ann.send({"type": "rematch"})
        rematch = await ann.next_frame("rematch")
        again = await Seat.open(server.session, server.url, rematch["link"])
        await again.close(), await ann.close()
        return hint, rules, early, rematch, again.state, made["table"]
    hint, rules, early, rematch, again, old = server.run(asked())
    assert hint["text"].startswith("hint: ")
    assert "Gnav" in rules["text"]
    assert early["code"] == "over"
    assert again["table"] != old and again["seat"] == 0 and not again["over"]
    assert [(s["name"], s["kind"]) for s in again["seats"]][0] == ("Ann", "person")


def test_a_seat_that_reconnects_gets_the_current_state_and_the_account_it_missed(server):
    async def reconnected():
        made, (ann, bo) = await seated(server, "hearts2", PEOPLE)
        had = max(e["n"] for f in ann.frames if f["type"] == "state" for e in f["account"])
        await ann.close()
        for _ in range(4):
            mover = bo if bo.state["moves"] else None
            if mover is None:               # Ann's turn: she plays from a fresh connection
                ann = await Seat.open(server.session, server.url, made["seats"][0]["link"])
                mover, closing = ann, True
            else:
                closing = False
            n = mover.state["decisions"]
            await mover.send({"type": "move", "decision": n, "option": 0})
            await mover.next_state(n)
            if closing:
                await ann.close()
        back = await Seat.open(server.session, server.url, made["seats"][0]["link"], since=had)
        await back.close(), await bo.close()
        return had, back.state, server.hall.live[made["table"]].state.decisions
    had, state, decisions = server.run(reconnected())
    assert state["decisions"] == decisions == 4
    assert state["account"][0]["n"] == had + 1


class _StringIO:
    def __init__(self):
        import io
        self.buffer = io.StringIO()

    def write(self, text):
        return self.buffer.write(text)

    def flush(self):
        pass

    def getvalue(self):
        return self.buffer.getvalue()


# -- nothing lost -------------------------------------------------------------------------------
ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


def started(db, tmp_path):
    """`interpret serve` as a process of its own on a free port: (process, its address)."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "CARD_INTERPRETER_RECORDS": str(tmp_path / "records"), "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-c", "from interpreter.cli import main; main()", "serve",
                                "--port", "0", "--db", str(db)], cwd=str(tmp_path), env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    assert line.startswith("interpret serve: http://127.0.0.1:"), line + process.stderr.read()
    return process, line.split()[2].rstrip("/")


def test_a_server_killed_mid_game_comes_back_with_every_table_where_it_was(tmp_path):
    import signal
    db = tmp_path / "tables.sqlite3"
    process, url = started(db, tmp_path)
    try:
        async def before():
            async with aiohttp.ClientSession() as session:
                status, made = await new_table(session, url, "hearts2", PEOPLE)
                seats = [await Seat.open(session, url, s["link"]) for s in made["seats"]]
                for _ in range(10):
                    mover = next(s for s in seats if s.state["moves"])
                    n = mover.state["decisions"]
                    await mover.send({"type": "move", "decision": n, "option": len(mover.state["moves"]) - 1})
                    for s in seats:
                        await s.next_state(n)
                last = [s.state for s in seats]
                for s in seats:
                    await s.close()
                return made, last
        made, last = asyncio.run(before())
    finally:
        process.kill()                  # kill -9: no clean shutdown
        process.wait(10)
    assert process.returncode == -signal.SIGKILL
    process, url = started(db, tmp_path)
    try:
        async def after():
            async with aiohttp.ClientSession() as session:
                seats = [await Seat.open(session, url, s["link"]) for s in made["seats"]]
                again = [s.state for s in seats]
                mover = next(s for s in seats if s.state["moves"])
                await mover.send({"type": "move", "decision": 10, "option": 0})
                moved = await mover.next_state(10)
                for s in seats:
                    await s.close()
                return again, moved
        again, moved = asyncio.run(after())
        for was, now in zip(last, again):
            assert now["decisions"] == was["decisions"] == 10
            assert now["view"] == was["view"] and now["moves"] == was["moves"] and now["to_play"] == was["to_play"]
        assert moved["decisions"] == 11
    finally:
        process.send_signal(signal.SIGINT)      # Ctrl-C stops it cleanly
        out, err = process.communicate(timeout=20)
    assert process.returncode == 0, err
    assert "interpret serve: stopped" in out and "Traceback" not in err


def test_a_thinking_bot_stalls_no_other_table(server):
    """A planning bot thinks in a worker process: while it does, another table plays on."""
    async def side_by_side():
        made, (ann,) = await seated(server, "hearts2", [PEOPLE[0], {"kind": "bot", "bot": "ismcts"}])
        thinker = server.hall.live[made["table"]]
        thinker.seats[1]["bot"] = {"kind": "ismcts", "iterations": 10 ** 6, "seconds": 4}    # long enough to see
        while not ann.state["over"]:
            if not ann.state["moves"]:
                await ann.next_state(ann.state["decisions"])
                continue
            n = ann.state["decisions"]
            await ann.send({"type": "move", "decision": n, "option": 0})
            await ann.next_state(n)
            if thinker.bot_task is not None and not thinker.bot_task.done():
                break                   # the bot is thinking now
        _, others = await seated(server, "gnav2", PEOPLE)
        played = 0
        while played < 5 and not thinker.bot_task.done():
            mover = next(s for s in others if s.state["moves"])
            n = mover.state["decisions"]
            await mover.send({"type": "move", "decision": n, "option": 0})
            await mover.next_state(n)
            played += 1
        for c in others + [ann]:
            await c.close()
        return played
    assert server.run(side_by_side()) == 5


def test_the_pages_files_are_served_by_name_with_their_type_and_nothing_else(server, tmp_path, monkeypatch):
    from interpreter.server import app
    (tmp_path / "table.js").write_text("export const x = 1;\n", encoding="utf-8")
    (tmp_path / "lobby.html").write_text("<!doctype html><title>lobby</title>\n", encoding="utf-8")
    monkeypatch.setattr(app, "STATIC", tmp_path)

    async def fetched(path):
        async with server.session.get(f"{server.url}{path}") as r:
            return r.status, r.headers.get("Content-Type", ""), r.headers.get("Content-Security-Policy", "")
    assert server.run(fetched("/static/table.js"))[:2] == (200, "text/javascript; charset=utf-8")
    status, kind, policy = server.run(fetched("/"))
    assert (status, kind) == (200, "text/html; charset=utf-8") and "default-src 'self'" in policy
    for path in ("/static/..%2Fserver_client.py", "/static/.hidden", "/static/missing.css", "/table/x"):
        assert server.run(fetched(path))[0] == 404, path


def test_the_servers_limits_are_the_documented_ones():
    from interpreter import limits
    docs = {name: (ROOT / "docs" / name).read_text(encoding="utf-8") for name in ("limits.md", "server.md")}
    for value in (limits.MAX_FRAME_BYTES, limits.MAX_MESSAGES_PER_SECOND, limits.MAX_MESSAGE_BURST,
                  limits.MAX_RATE_ERRORS, limits.MAX_CONNECTIONS_PER_TABLE, limits.MAX_NAME_CHARS):
        for name, text in docs.items():
            assert f"{value:,}" in text, (name, value)
    assert f"{limits.MAX_REQUEST_BYTES:,} bytes" in docs["limits.md"] and "16 KiB" in docs["server.md"]


def test_the_lobbys_list_is_begun_as_the_server_starts_not_at_the_first_visit(server):
    """Building every game's program takes seconds: the first visitor of the lobby should not
    wait for it, so the list is begun as the server starts."""
    from interpreter.server.app import LISTED
    listed = server.runner.app[LISTED]
    server.run(asyncio.sleep(0))
    assert listed is server.runner.app[LISTED]      # one list, made once
    assert isinstance(listed, asyncio.Future)


def test_past_so_many_tables_in_memory_the_least_recently_opened_idle_one_is_dropped_and_rebuilt_when_opened(server):
    from interpreter import limits
    assert server.hall.most_live == limits.MAX_LIVE_TABLES == 1000

    async def many():
        kept = server.hall.most_live
        server.hall.most_live = 2            # the other tests' tables, idle, go first
        try:
            made = [(await seated(server, "gnav2", PEOPLE)) for _ in range(3)]
            (first, (ann, bo)) = made[0]
            n = ann.state["decisions"]
            mover = ann if ann.state["moves"] else bo
            await mover.send({"type": "move", "decision": n, "option": 0})
            await mover.next_state(n)
            view = ann.state["view"]
            for _, clients in made:
                for c in clients:
                    await c.close()
            while any(server.hall.live[m["table"]].connections for m, _ in made if m["table"] in server.hall.live):
                await asyncio.sleep(0.01)                    # the server has seen them go
            await seated(server, "gnav2", PEOPLE)            # one more: the first, idle now, goes
            dropped = first["table"] not in server.hall.live
            again = await Seat.open(server.session, server.url, first["seats"][0]["link"])
            await again.close()
            return dropped, view, again.state, n
        finally:
            server.hall.most_live = kept
    dropped, view, state, n = server.run(many())
    assert dropped and state["decisions"] == n + 1 and state["view"] == view
