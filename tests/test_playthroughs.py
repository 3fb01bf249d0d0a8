"""Golden playthroughs: the whole account of a few seeded games, kept in tests/playthroughs/.

Any change in how a game plays out shows up here as a diff.  After a deliberate change
to a ruleset or the engine, regenerate with UPDATE_GOLDEN=1 and read the diff.
"""
from __future__ import annotations

import io
import os
import pathlib

import pytest

from interpreter.cli import run

ROOT = pathlib.Path(__file__).parent.parent
GOLDEN = pathlib.Path(__file__).parent / "playthroughs"
CASES = [("hearts2", 1, None), ("ninety_nine", 1, None), ("ninety_nine", 2, "total_model=per_player"),
         ("gnav", 1, None), ("gnav", 2, "skip_chain=to_bag"), ("gnav2", 1, None),
         ("gnav2", 2, "wild_card_destination=captured")]


@pytest.mark.parametrize("game,seed,option", CASES, ids=[f"{g}-{s}-{o or 'default'}" for g, s, o in CASES])
def test_playthrough_matches_its_golden_account(game, seed, option, monkeypatch):
    monkeypatch.chdir(ROOT)
    argv = [f"rulesets/{game}.yaml", "--seed", str(seed)] + (["--option", option] if option else [])
    if game == "gnav":
        argv += ["--players", "5"]
    out = io.StringIO()
    assert run(argv, stdout=out, stderr=io.StringIO()) == 0
    name = f"{game}-{seed}-{(option or 'default').replace('=', '-')}.txt"
    golden = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(out.getvalue(), encoding="utf-8")
    assert golden.exists(), f"no golden account {name}: run with UPDATE_GOLDEN=1 and review it"
    assert out.getvalue() == golden.read_text(encoding="utf-8")
