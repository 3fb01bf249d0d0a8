"""Every ruleset under rulesets/ played to the end for many seeds (one generic test), and
simulate(): many games summed up, the same report for any number of worker processes.

A new ruleset is picked up automatically.  Each game must end without error, keep
every card exactly once, and replay identically from its seed and decisions.
"""
from __future__ import annotations

import pathlib
import signal

import pytest

from interpreter import apply, load_program, new_game
from interpreter.playing.agents import Decision, RandomAgent
from conftest import option_variants

RULESETS = sorted((pathlib.Path(__file__).parent.parent / "rulesets").glob("*.yaml"))
SEEDS = range(40)
DECISIONS = 20_000      # per player count: fewer seeds for a game of many decisions


def all_cards(s) -> list:
    cards = []
    for z in s.zones.values():
        if z and isinstance(z[0], list):
            for part in z:
                cards.extend(part)
        else:
            cards.extend(z)
    return sorted(cards)


def random_game(program, seed, players=None, check=None):
    s = new_game(program, seed=seed, players=players)
    agent = RandomAgent(seed)
    choices = []
    while not s.over:
        if check:
            check(s)
        i = agent.choose(Decision(program, s))
        choices.append(i)
        apply(program, s, i)
    return s, choices


def player_counts(program):
    lo, hi, _ = program.players
    return sorted({lo, hi, (lo + hi) // 2})


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_random_games_end_cleanly_and_keep_every_card(path):
    program = load_program(str(path))
    deck = list(range(len(program.deck.ids)))
    for n in player_counts(program):
        decisions = 0
        for seed in SEEDS:
            s, choices = random_game(program, seed, n, check=lambda s: _same(all_cards(s), deck))
            assert s.over and s.result is not None
            assert all(0 <= w < n for w in s.result["winners"])
            assert all_cards(s) == deck
            decisions += len(choices)
            if decisions > DECISIONS and seed >= 2:     # long games: enough decisions checked
                break


def _same(a, b):
    assert a == b, "a card was lost or duplicated"


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_same_seed_same_game(path):
    program = load_program(str(path))
    a, choices = random_game(program, 7)
    b = new_game(program, seed=7)
    for i in choices:
        apply(program, b, i)
    assert b.over and b.log == a.log and b.result == a.result


HEAVY = {"gin_rummy", "blackjack", "scopa"}         # their option values take 8 to 15 s: -m slow


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.stem in HEAVY else p for p in RULESETS],
                         ids=lambda p: p.stem)
def test_every_option_value_plays_to_the_end(path):
    _every_option_value_plays(path, range(1))


@pytest.mark.slow
@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_every_option_value_plays_to_the_end_on_more_seeds(path):
    _every_option_value_plays(path, range(1, 3))


def _every_option_value_plays(path, seeds):
    for name, choice, variant in option_variants(path):
        for seed in seeds:
            s, _ = random_game(variant, seed)
            assert s.over, (name, choice)


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_ruleset_starts_with_the_schema_line_for_editors(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schema/ruleset.schema.json"


def _played(report: dict) -> dict:
    """A simulation report without the fields that say how the run went rather than what the games did."""
    return {k: v for k, v in report.items() if k not in ("games_per_s", "jobs")}


@pytest.mark.parametrize("name, kw", [("hearts2", dict(games=12)),
                                      ("gnav", dict(games=40, players=5)),
                                      ("gnav", dict(games=5, players=3, mc_seats=[2], playouts=2))],
                         ids=["hearts2", "gnav-5", "gnav-mc"])
def test_simulate_reports_the_same_for_any_number_of_jobs(name, kw):
    from interpreter.lab.simulation import simulate
    program = load_program(str(RULESETS[0].parent / f"{name}.yaml"))
    one = simulate(program, jobs=1, **kw)
    assert one["jobs"] == 1
    for jobs in (2, 3):
        many = simulate(program, jobs=jobs, **kw)
        assert _played(many) == _played(one)
        if "fork" in __import__("multiprocessing").get_all_start_methods():
            assert many["jobs"] == jobs


def test_simulate_uses_no_more_processes_than_games():
    from interpreter.lab.simulation import simulate
    report = simulate(load_program(str(RULESETS[0].parent / "gnav2.yaml")), games=1, jobs=4)
    assert report["jobs"] == 1 and report["games"] == 1


def test_simulate_command_takes_jobs_and_refuses_none_or_too_many():
    import io
    import json

    from interpreter.cli.main import run
    from interpreter.limits import MAX_JOBS
    path = str(RULESETS[0].parent / "gnav2.yaml")
    reports = []
    for jobs in ("1", "2"):
        out = io.StringIO()
        assert run(["simulate", path, "--games", "10", "--jobs", jobs, "--json"], stdout=out) == 0
        reports.append(json.loads(out.getvalue()))
    assert _played(reports[0]) == _played(reports[1])
    for bad in ("0", str(MAX_JOBS + 1), "-1"):
        err = io.StringIO()
        assert run(["simulate", path, "--games", "1", "--jobs", bad], stdout=io.StringIO(), stderr=err) == 2
        assert "--jobs must be 1 to" in err.getvalue()


def test_a_game_that_fails_in_a_worker_raises_its_error_as_with_one_job(monkeypatch):
    from interpreter.errors import RulesFault
    from interpreter.lab import simulation
    real = simulation.play

    def play(program, agents, seed, **kw):
        if seed == 5:
            raise RulesFault(f"game {seed} went wrong")
        return real(program, agents, seed=seed, **kw)
    monkeypatch.setattr(simulation, "play", play)      # the forked workers inherit it
    program = load_program(str(RULESETS[0].parent / "gnav2.yaml"))
    for jobs in (1, 2):
        with pytest.raises(RulesFault, match="game 5 went wrong"):
            simulation.simulate(program, games=12, jobs=jobs)


@pytest.mark.slow
@pytest.mark.skipif(not pathlib.Path("/proc/self").exists(), reason="Linux: pgrep and /proc")
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_interrupting_simulate_stops_its_workers_quietly(sig):
    import os
    import subprocess
    import sys
    import time
    p = subprocess.Popen([sys.executable, "-c", "from interpreter.cli.main import main; main()", "simulate", str(RULESETS[0].parent / "hearts2.yaml"),
                          "--games", "100000", "--jobs", "2", "--backend", "generated"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True, text=True)
    time.sleep(1.5)
    workers = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
    os.killpg(p.pid, getattr(signal, sig))         # Ctrl-C reaches the whole process group
    _, err = p.communicate(timeout=30)
    assert p.returncode == 130 and err.strip() == "interrupted" and len(workers) == 2
    time.sleep(0.2)
    assert not [w for w in workers if os.path.exists(f"/proc/{w}")]


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_a_game_plays_to_its_end_at_every_allowed_player_count(path):
    program = load_program(str(path))
    lo, hi, _ = program.players
    for n in range(lo, hi + 1):
        s, _ = random_game(program, seed=n, players=n)
        assert s.over and s.result is not None and len(s.players) == n
