"""Simulation on a Ray cluster (the 'cluster' extra): a local Ray instance plays the same
games as this machine, to the bit, without the ruleset being installed where it runs."""
from __future__ import annotations

import pathlib

import pytest

from interpreter import pipeline
from interpreter.lab import simulation
from interpreter.lab.compare import compare

ray = pytest.importorskip("ray")
RULESETS = pathlib.Path(__file__).parent.parent / "rulesets"

pytestmark = [pytest.mark.slow, pytest.mark.extras, pytest.mark.xdist_group("ray")]   # one Ray at a time


@pytest.fixture(scope="module")
def cluster():
    from interpreter.lab.cluster import connect
    module = connect("local", 2)
    yield module
    module.shutdown()


def _played(report):
    return {k: v for k, v in report.items() if k not in ("games_per_s", "jobs")}


def test_a_cluster_reports_what_this_machine_reports(cluster):
    program = pipeline.load_program(str(RULESETS / "hearts2.yaml"))
    here = simulation.simulate(program, games=150, jobs=1)
    there = simulation.simulate(program, games=150, jobs=1, cluster=cluster)
    assert _played(there) == _played(here)


def test_a_ruleset_the_workers_never_saw_on_disk_is_shipped_to_them(cluster, tmp_path):
    text = (RULESETS / "ninety_nine.yaml").read_text().replace("name: ninety_nine", "name: my_house_rule")
    path = tmp_path / "elsewhere" / "house.yaml"
    path.parent.mkdir()
    path.write_text(text)
    base = pipeline.load_program(str(path))
    variant = pipeline.load_program(str(path), {"empty_draw_pile": "reshuffle"})
    path.unlink()                       # nothing on disk: the workers get the text itself
    here = compare([("base", base), ("reshuffle", variant)], games=70)
    there = compare([("base", base), ("reshuffle", variant)], games=70, cluster=cluster)
    assert [r["report"]["ruleset"] for r in there["runs"]] == ["my_house_rule", "my_house_rule"]
    assert [_played(r["report"]) for r in there["runs"]] == [_played(r["report"]) for r in here["runs"]]
    assert there["differences"] == here["differences"]


def test_a_game_that_fails_on_the_cluster_raises_its_error_here(cluster, monkeypatch):
    from interpreter.errors import RulesFault
    program = pipeline.load_program(str(RULESETS / "gnav2.yaml"))
    real = simulation.game_row

    def game_row(program, n, seed, *rest):
        if seed == 3:
            raise RulesFault("game 3 went wrong")
        return real(program, n, seed, *rest)
    monkeypatch.setattr(simulation, "game_row", game_row)      # here only: the workers play it fine,
    from interpreter.lab import cluster as cl                  # so make the worker's copy fail too
    monkeypatch.setattr(cl, "play_block", lambda spec, first, count, *a: [None] * count)    # sent by value
    with pytest.raises(RulesFault, match="game 3 went wrong"):
        simulation.simulate(program, games=5, cluster=cluster)

