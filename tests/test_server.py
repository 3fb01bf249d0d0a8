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
    assert len(server.hall.store.decisions(made["table"])) == last["decisions"]


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
    from interpreter.server.games import program_of
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
        decisions = server.hall.store.decisions(table.id)
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
