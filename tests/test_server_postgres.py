"""Several server processes on one PostgreSQL database (docs/server.md, "Beyond one machine"):
the database takes each decision of a table once, every process tells its own seats of the
others' moves at once (LISTEN/NOTIFY), and a person may play on at any of them.

The database: $CARD_INTERPRETER_TEST_POSTGRES (`.ci/run` starts one with `.ci/postgres`), or a
throwaway cluster this module starts when Debian's PostgreSQL is installed; otherwise these
tests skip.  Each test has a database of its own."""
from __future__ import annotations

import asyncio
import os
import pathlib
import random
import shutil
import signal
import subprocess
import sys
import uuid

import pytest

pytest.importorskip("aiohttp")
asyncpg = pytest.importorskip("asyncpg")
pytestmark = pytest.mark.extras

import aiohttp  # noqa: E402

from server_client import LiveServer, Seat, new_table, play_to_the_end  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]


@pytest.fixture(scope="session")
def postgres(tmp_path_factory):
    """The address of a PostgreSQL server whose databases the tests may make."""
    given = os.environ.get("CARD_INTERPRETER_TEST_POSTGRES")
    if given:
        yield given
        return
    if not any(pathlib.Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        pytest.skip("no PostgreSQL server: set CARD_INTERPRETER_TEST_POSTGRES or install Debian's postgresql")
    folder = tmp_path_factory.mktemp("postgres")
    started = subprocess.run([str(ROOT / ".ci" / "postgres"), "start", str(folder)], capture_output=True, text=True)
    if started.returncode:
        pytest.skip(f"PostgreSQL did not start here: {started.stderr.strip()[-300:]}")
    yield started.stdout.strip()
    subprocess.run([str(ROOT / ".ci" / "postgres"), "stop", str(folder)], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def database(postgres):
    """A fresh database on that server, dropped after the test."""
    name = f"t_{uuid.uuid4().hex[:12]}"

    async def run(sql):
        c = await asyncpg.connect(postgres)
        try:
            await c.execute(sql)
        finally:
            await c.close()
    asyncio.run(run(f"CREATE DATABASE {name}"))
    yield postgres.rsplit("/", 1)[0] + "/" + name
    asyncio.run(run(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


@pytest.fixture
def two_servers(database):
    """Two servers (each its own store, pool and listener, as two processes have) on one database."""
    servers = [LiveServer(database), LiveServer(database)]
    yield servers
    for s in servers:
        s.close()


async def stored(url: str, table_id: str) -> list:
    c = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await c.fetch("SELECT n, seat, option FROM decisions WHERE table_id=$1 ORDER BY n",
                                                table_id)]
    finally:
        await c.close()


async def one_seat_at_each(a, b, game: str) -> tuple:
    """A table of two people made at server a: Ann plays at a, Bo at b."""
    status, made = await new_table(a.session, a.url, game, PEOPLE)
    assert status == 201, made
    return made, await Seat.open(a.session, a.url, made["seats"][0]["link"]), \
        await Seat.open(a.session, b.url, made["seats"][1]["link"])


def test_two_people_at_two_server_processes_play_a_whole_game_each_seeing_every_move(two_servers, database):
    a, b = two_servers

    async def played():
        made, ann, bo = await one_seat_at_each(a, b, "hearts2")
        last = await play_to_the_end([ann, bo], random.Random(4))
        await bo.next_state(last["decisions"] - 1)
        for s in (ann, bo):
            await s.close()
        return made, last, ann, bo
    made, last, ann, bo = a.run(played())
    assert last["over"] and ann.state["decisions"] == bo.state["decisions"] == last["decisions"]
    assert ann.state["result"] == bo.state["result"]
    for seat in (ann, bo):      # every decision reached each seat, in order, none twice
        told = [f["decisions"] for f in seat.frames if f["type"] == "state"]
        assert told == sorted(told) and told[-1] == last["decisions"]
    rows = a.run(stored(database, made["table"]))
    assert [n for n, _, _ in rows] == list(range(1, last["decisions"] + 1))
    assert a.hall.live[made["table"]].indexes == b.hall.live[made["table"]].indexes == [o for _, _, o in rows]


def test_a_seat_connected_at_one_process_is_shown_connected_at_the_other(two_servers):
    a, b = two_servers

    async def seen():
        made, ann, bo = await one_seat_at_each(a, b, "hearts2")
        for _ in range(50):
            if all(s["connected"] for s in ann.state["seats"]):
                break
            await ann._wait(5)
        shown = [s["connected"] for s in ann.state["seats"]]
        await bo.close()
        for _ in range(50):
            if not ann.state["seats"][1]["connected"]:
                break
            await ann._wait(5)
        gone = ann.state["seats"][1]["connected"]
        await ann.close()
        return shown, gone
    shown, gone = a.run(seen())
    assert shown == [True, True] and gone is False


def test_the_same_decision_made_at_two_processes_at_once_is_taken_once_and_the_other_is_stale(two_servers, database):
    a, b = two_servers

    async def raced():
        status, made = await new_table(a.session, a.url, "hearts2", PEOPLE)
        link = next(s["link"] for s in made["seats"])
        first = await Seat.open(a.session, a.url, link)
        mover_link = link if first.state["moves"] else made["seats"][1]["link"]
        await first.close()
        here = await Seat.open(a.session, a.url, mover_link)        # the same seat, at both processes
        there = await Seat.open(a.session, b.url, mover_link)
        n = here.state["decisions"]
        count = len(here.state["moves"])
        await asyncio.gather(here.send({"type": "move", "decision": n, "option": 0}),
                             there.send({"type": "move", "decision": n, "option": count - 1}))
        await here.next_state(n)
        await there.next_state(n)
        await asyncio.sleep(0.3)            # a refusal, if any, has come
        errors = [f for s in (here, there) for f in s.frames if f["type"] == "error"]
        states = (here.state, there.state)
        for s in (here, there):
            await s.close()
        return made, n, errors, states
    made, n, errors, (here, there) = a.run(raced())
    rows = a.run(stored(database, made["table"]))
    assert [r[0] for r in rows] == [n + 1]
    assert here["decisions"] == there["decisions"] == n + 1 and here["view"] == there["view"]
    assert len(errors) <= 1 and all(e["code"] == "stale" for e in errors)


def test_a_bot_at_a_table_held_by_two_processes_plays_each_of_its_moves_once(two_servers, database):
    a, b = two_servers

    async def played():
        status, made = await new_table(a.session, a.url, "gnav2", [{"kind": "person", "name": "Ann"},
                                                                    {"kind": "bot", "bot": "random"}])
        watcher = await Seat.open(a.session, b.url, made["spectator"])     # b holds the table live too
        ann = await Seat.open(a.session, b.url, made["seats"][0]["link"])
        last = await play_to_the_end([ann], random.Random(2))
        await watcher.next_state(last["decisions"] - 1)
        for s in (ann, watcher):
            await s.close()
        return made, last
    made, last = a.run(played())
    rows = a.run(stored(database, made["table"]))
    assert last["over"] and [r[0] for r in rows] == list(range(1, last["decisions"] + 1))


def test_a_rematch_asked_for_at_two_processes_at_once_makes_one_table(two_servers):
    a, b = two_servers

    async def rematched():
        made, ann, bo = await one_seat_at_each(a, b, "gnav2")
        await play_to_the_end([ann, bo], random.Random(5))
        asked = [asyncio.ensure_future(s.next_frame("rematch")) for s in (ann, bo)]     # listening before asking
        await asyncio.sleep(0)
        await asyncio.gather(ann.send({"type": "rematch"}), bo.send({"type": "rematch"}))
        links = [frame["link"] for frame in await asyncio.gather(*asked)]
        for s in (ann, bo):
            await s.close()
        return links
    ann_link, bo_link = a.run(rematched())
    assert ann_link != bo_link and ann_link.split("#")[0] == bo_link.split("#")[0]


def test_a_game_abandoned_at_one_process_is_over_at_the_other(two_servers):
    a, b = two_servers

    async def abandoned():
        made, ann, bo = await one_seat_at_each(a, b, "gnav2")
        await ann.send({"type": "abandon"})
        while not bo.state["over"]:
            await bo._wait(10)
        for s in (ann, bo):
            await s.close()
        return bo.state
    state = a.run(abandoned())
    assert state["over"] and state["result"]["abandoned"] == "Ann" and state["moves"] == []


def test_a_ruleset_uploaded_at_one_process_is_offered_and_played_at_the_other(database):
    a, b = LiveServer(database, uploads=True), LiveServer(database, uploads=True)
    try:
        async def offered():
            async with a.session.post(f"{a.url}/api/games", params={"name": "short.yaml"},
                                      data=b"extends: gnav2\nname: gnav2_short\ntitle: Short gnav\n") as r:
                assert r.status == 201, await r.text()
            async with a.session.get(f"{b.url}/api/games") as r:
                games = await r.json()
            status, made = await new_table(a.session, b.url, "short", PEOPLE)
            return games, status
        games, status = a.run(offered())
    finally:
        a.close()
        b.close()
    assert "short" in {g["id"] for g in games["games"]} and status == 201


def test_serve_on_a_database_it_cannot_reach_says_so_in_one_line():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", "from interpreter.cli import main; main()", "serve", "--port", "0",
                           "--db", "postgresql://nobody:secret-word@127.0.0.1:1/nothing"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith("interpret: error: cannot use the PostgreSQL database "
                                  "postgresql://nobody@127.0.0.1:1/nothing: ")
    assert "secret-word" not in done.stderr and "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1


# -- two real server processes -------------------------------------------------------------------
def serving(database: str, tmp_path) -> tuple:
    env = {**os.environ, "CARD_INTERPRETER_RECORDS": str(tmp_path / "records"), "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-c", "from interpreter.cli import main; main()", "serve",
                                "--port", "0", "--db", database], cwd=str(tmp_path), env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    assert line.startswith("interpret serve: http://127.0.0.1:"), line + process.stderr.read()
    return process, line.split()[2].rstrip("/")


@pytest.mark.slow
def test_two_server_processes_share_the_games_and_a_killed_one_loses_nothing(database, tmp_path):
    first, first_url = serving(database, tmp_path)
    second, second_url = serving(database, tmp_path)
    try:
        async def played():
            async with aiohttp.ClientSession() as session:
                status, made = await new_table(session, first_url, "hearts2", PEOPLE)
                assert status == 201, made
                ann = await Seat.open(session, first_url, made["seats"][0]["link"])
                bo = await Seat.open(session, second_url, made["seats"][1]["link"])
                rng = random.Random(7)
                for _ in range(30):             # some tricks, each seat at its own process
                    mover = next(s for s in (ann, bo) if s.state["moves"])
                    n = mover.state["decisions"]
                    await mover.send({"type": "move", "decision": n, "option": rng.randrange(len(mover.state["moves"]))})
                    for s in (ann, bo):
                        await s.next_state(n)
                    await asyncio.sleep(0.06)
                before = ann.state["decisions"]
                first.kill()                    # kill -9 the first process: Ann comes back at the second
                first.wait(10)
                await ann.close()
                ann = await Seat.open(session, second_url, made["seats"][0]["link"])
                assert ann.state["decisions"] == before
                last = await play_to_the_end([ann, bo], rng, pause=0.06)     # inside the rate limit
                record_url = f"{second_url}/api/tables/{made['table']}/record?token={made['seats'][0]['link'].split('#')[1]}"
                async with session.get(record_url) as r:
                    record = await r.json()
                for s in (ann, bo):
                    await s.close()
                return made, last, record
        made, last, record = asyncio.run(played())
        assert last["over"] and len(record["decisions"]) == last["decisions"]
        rows = asyncio.run(stored(database, made["table"]))
        assert [r[0] for r in rows] == list(range(1, last["decisions"] + 1))
    finally:
        for p in (first, second):
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
                p.communicate(timeout=20)
    assert second.returncode == 0
