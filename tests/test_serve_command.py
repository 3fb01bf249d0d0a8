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
