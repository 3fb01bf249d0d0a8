"""Rulesets uploaded from a browser (docs/server.md, "Uploading a ruleset"): off unless the
server was started with --allow-uploads; then checked as the command line checks a file, with
every limit, kept across restarts, offered in the lobby and played like any other game.  An
uploaded house rule extends shipped rulesets only: it reads no file of the server's machine."""
from __future__ import annotations

import random

import pytest

pytest.importorskip("aiohttp")
pytestmark = pytest.mark.extras

from server_client import LiveServer, Seat, new_table, play_to_the_end  # noqa: E402

from interpreter.limits import MAX_FILE_BYTES, MAX_UPLOADED_GAMES  # noqa: E402

SHORT = b"""extends: hearts2
name: hearts2_short
title: Short hearts
"""
PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]


@pytest.fixture
def server(tmp_path):
    live = LiveServer(tmp_path / "tables.sqlite3", uploads=True)
    yield live
    live.close()


async def uploaded(server, name, body: bytes):
    async with server.session.post(f"{server.url}/api/games", params={"name": name}, data=body,
                                   headers={"Content-Type": "application/yaml"}) as r:
        return r.status, await r.json()


async def listed(server):
    async with server.session.get(f"{server.url}/api/games") as r:
        return await r.json()


def test_a_server_takes_no_upload_unless_started_with_allow_uploads(tmp_path):
    closed = LiveServer(tmp_path / "tables.sqlite3")
    try:
        status, answer = closed.run(uploaded(closed, "short.yaml", SHORT))
        games = closed.run(listed(closed))
    finally:
        closed.close()
    assert status == 403 and "--allow-uploads" in answer["error"]
    assert games["uploads"]["allowed"] is False and "short" not in {g["id"] for g in games["games"]}


def test_an_uploaded_house_rule_is_offered_in_the_lobby_and_played_to_its_end(server):
    async def made_and_played():
        status, answer = await uploaded(server, "short.yaml", SHORT)
        games = await listed(server)
        status2, made = await new_table(server.session, server.url, answer["game"]["id"], PEOPLE)
        seats = [await Seat.open(server.session, server.url, s["link"]) for s in made["seats"]]
        last = await play_to_the_end(seats, random.Random(1))
        for s in seats:
            await s.close()
        return status, answer, games, status2, last
    status, answer, games, status2, last = server.run(made_and_played())
    assert status == 201 and answer["game"]["id"] == "short" and answer["game"]["title"] == "Short hearts"
    assert answer["game"]["uploaded"] is True
    entry = next(g for g in games["games"] if g["id"] == "short")
    assert entry["title"] == "Short hearts" and games["uploads"] == {"allowed": True, "max_bytes": MAX_FILE_BYTES}
    assert status2 == 201 and last["over"] and last["title"] == "Short hearts"


@pytest.mark.parametrize("body,words", [
    (b"extends: ../../etc/passwd\n", "no shipped ruleset '../../etc/passwd': an uploaded house rule extends one"),
    (b"extends: /etc/hostname\n", "no shipped ruleset '/etc/hostname'"),
    (b"extends: heartz\n", "(did you mean 'hearts'?)"),
    (b"name: [\n", "short.yaml:2:1: YAML syntax error"),
    (b"\xff\xfe", "short.yaml:1:1: the file is not UTF-8 text"),
    (b"a: &x [*x]\n", "short.yaml:1:"),
    (b"name: x\n", "missing required key 'deck'"),
], ids=["a path outside", "an absolute path", "a misspelt base", "bad YAML", "not UTF-8", "a looping alias",
        "no deck"])
def test_an_upload_with_problems_is_refused_with_each_problem_as_validate_says_it(server, body, words):
    status, answer = server.run(uploaded(server, "short.yaml", body))
    assert status == 400 and answer["error"] == "short.yaml has problems"
    assert any(words in p for p in answer["problems"]), answer["problems"]
    assert "short" not in {g["id"] for g in server.run(listed(server))["games"]}


def test_an_uploaded_house_rule_never_reads_a_file_beside_the_server(server, tmp_path, monkeypatch):
    (tmp_path / "hearts2.yaml").write_text("this would be read if the base were looked for here\n")
    monkeypatch.chdir(tmp_path)
    status, answer = server.run(uploaded(server, "short.yaml", SHORT))
    assert status == 201 and answer["game"]["title"] == "Short hearts"      # the shipped hearts2 underneath


def test_a_file_sent_as_a_form_is_refused_saying_how_to_send_it(server):
    form = b"--xyz\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nname: x\r\n--xyz--\r\n"
    status, answer = server.run(uploaded(server, "short.yaml", form))
    assert status == 400 and "not a form (curl --data-binary @FILE)" in answer["error"]


def test_an_upload_larger_than_a_ruleset_may_be_is_refused_unread(server):
    status, answer = server.run(uploaded(server, "big.yaml", b"#" * (MAX_FILE_BYTES + 1)))
    assert status == 400 and f"at most {MAX_FILE_BYTES} bytes" in answer["error"]


def test_an_uploaded_name_is_made_plain_and_never_takes_an_offered_games_place(server):
    a = server.run(uploaded(server, "../../hearts2.yaml", SHORT))
    b = server.run(uploaded(server, "<hearts2> & co.yml", SHORT))
    assert a[0] == b[0] == 201
    assert a[1]["game"]["id"] == "hearts2-2" and b[1]["game"]["id"] == "hearts2_co"
    hearts = next(g for g in server.run(listed(server))["games"] if g["id"] == "hearts2")
    assert "uploaded" not in hearts and hearts["title"] != "Short hearts"


def test_uploaded_games_and_their_tables_are_kept_across_a_restart(tmp_path, monkeypatch):
    first = LiveServer(tmp_path / "tables.sqlite3", uploads=True)
    try:
        async def made():
            await uploaded(first, "short.yaml", SHORT)
            status, made = await new_table(first.session, first.url, "short", PEOPLE)
            ann = await Seat.open(first.session, first.url, made["seats"][0]["link"])
            await ann.close()
            return made, ann.state
        made, before = first.run(made())
    finally:
        first.close()
    (tmp_path / "hearts2.yaml").write_text("not read: an upload's base is a shipped ruleset\n")
    monkeypatch.chdir(tmp_path)
    again = LiveServer(tmp_path / "tables.sqlite3", uploads=True)
    try:
        async def looked():
            ann = await Seat.open(again.session, again.url, made["seats"][0]["link"])
            await ann.close()
            return (await listed(again)), ann.state
        games, after = again.run(looked())
    finally:
        again.close()
    assert "short" in {g["id"] for g in games["games"]}
    assert after["title"] == "Short hearts" and after["view"] == before["view"]


def test_a_server_keeps_at_most_so_many_uploaded_games(server, monkeypatch):
    import interpreter.server.tables as tables
    monkeypatch.setattr(tables, "MAX_UPLOADED_GAMES", 2)
    answers = [server.run(uploaded(server, f"g{k}.yaml", SHORT)) for k in range(3)]
    assert [a[0] for a in answers] == [201, 201, 400]
    assert "holds 2 uploaded rulesets already" in answers[2][1]["error"]
    assert MAX_UPLOADED_GAMES == 100


def test_a_whole_ruleset_larger_than_a_lobby_request_uploads(server):
    """The largest shipped ruleset, as someone's own: more than POST /api/tables may hold."""
    from interpreter.limits import MAX_REQUEST_BYTES
    from interpreter.source.shipped import shipped_dirs
    largest = max((p for d in shipped_dirs() for p in d.glob("*.yaml")), key=lambda p: p.stat().st_size)
    body = largest.read_bytes()
    assert len(body) > MAX_REQUEST_BYTES
    status, answer = server.run(uploaded(server, largest.name, body))
    assert status == 201, answer


def test_the_record_of_an_uploaded_games_table_replays_beside_its_file(server, tmp_path, monkeypatch):
    import io
    import json

    from interpreter.cli import run as interpret

    async def abandoned():
        await uploaded(server, "short.yaml", SHORT)
        status, made = await new_table(server.session, server.url, "short", PEOPLE)
        ann, bo = [await Seat.open(server.session, server.url, s["link"]) for s in made["seats"]]
        mover = ann if ann.state["moves"] else bo
        await mover.send({"type": "move", "decision": mover.state["decisions"], "option": 0})
        await mover.next_state(mover.state["decisions"])
        await ann.send({"type": "abandon"})
        while not bo.state["over"]:
            await bo._wait(10)
        url = f"{server.url}/api/tables/{made['table']}/record?token={made['seats'][0]['link'].split('#')[1]}"
        async with server.session.get(url) as r:
            text = await r.text()
        for s in (ann, bo):
            await s.close()
        return text
    text = server.run(abandoned())
    assert json.loads(text)["ruleset"]["file"] == "short.yaml"
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "short.yaml").write_bytes(SHORT)
    (folder / "game.json").write_text(text, encoding="utf-8")
    monkeypatch.chdir(folder)
    out = io.StringIO()
    assert interpret(["replay", "game.json"], stdout=out, stderr=out) == 0, out.getvalue()
    assert "replay ok" in out.getvalue() and "changed" not in out.getvalue()
