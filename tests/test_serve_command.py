"""`interpret serve` at the command line: without its extra it says how to install it; the
files it is to offer are checked first, as `validate` checks them."""
from __future__ import annotations

import io
import sys

import pytest

from interpreter.cli import run


def test_serve_without_aiohttp_says_how_to_install_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "aiohttp", None)          # as if it were not installed
    err = io.StringIO()
    assert run(["serve", "--port", "0"], stdout=io.StringIO(), stderr=err) == 2
    assert "pip install 'card-interpreter[server]'" in err.getvalue()


@pytest.mark.extras
def test_serve_refuses_a_broken_file_with_its_problems_before_it_starts(tmp_path):
    pytest.importorskip("aiohttp")
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: broken\nplayers: 2\ndeck: {cards: [{id: a}], zone: nowhere}\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run(["serve", str(broken), "--port", "0", "--db", str(tmp_path / "db")], stdout=out, stderr=err) == 1
    assert f"{broken}:" in err.getvalue() and out.getvalue() == ""
    assert not (tmp_path / "db").exists()


@pytest.mark.extras
def test_serve_refuses_a_scenario_as_a_game_to_offer(tmp_path):
    pytest.importorskip("aiohttp")
    import pathlib
    scenario = pathlib.Path(__file__).resolve().parent.parent / "examples" / "house_rules" / "gnav2_big_bonus_scenario.yaml"
    err = io.StringIO()
    assert run(["serve", str(scenario), "--port", "0", "--db", str(tmp_path / "db")],
               stdout=io.StringIO(), stderr=err) == 1
    assert err.getvalue()


@pytest.mark.extras
def test_serve_on_a_port_in_use_says_so_at_once_not_after_building_every_game(tmp_path):
    pytest.importorskip("aiohttp")
    import socket
    import time
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    err = io.StringIO()
    start = time.monotonic()
    try:
        code = run(["serve", "--port", str(port), "--db", str(tmp_path / "db.sqlite3")], stdout=io.StringIO(), stderr=err)
    finally:
        taken.close()
    assert code == 1 and f"port {port}" in err.getvalue() and "address already in use" in err.getvalue()
    assert time.monotonic() - start < 4         # building every shipped game's program took 7 s


@pytest.mark.extras
def test_a_shipped_game_named_to_serve_is_offered_once():
    pytest.importorskip("aiohttp")
    from interpreter.server.serve import offered_games
    from interpreter.source.shipped import resolve
    games = offered_games([resolve("hearts2")])
    assert "hearts2" in games and "hearts2-2" not in games and games["hearts2"].shipped == "hearts2"


@pytest.mark.extras
def test_the_address_friends_open_is_this_machines_on_its_network_never_a_loopback(monkeypatch):
    pytest.importorskip("aiohttp")
    import socket

    from interpreter.server import serve

    class Probe:
        def __init__(self, *args):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *args):
            return False

        def connect(self, where):
            pass

        def getsockname(self):
            return (self.address, 0)
    monkeypatch.setattr(socket, "socket", Probe)
    Probe.address = "192.168.1.23"
    assert serve.network_address() == "192.168.1.23"
    Probe.address = "127.0.0.1"
    assert serve.network_address() is None
