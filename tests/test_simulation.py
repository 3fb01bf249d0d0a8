"""Every ruleset under rulesets/ played to the end for many seeds (one generic test).

A new ruleset is picked up automatically.  Each game must end without error, keep
every card exactly once, and replay identically from its seed and decisions.
"""
from __future__ import annotations

import pathlib

import pytest

from interpreter import apply, load_program, new_game
from interpreter.play.agents import Decision, RandomAgent

RULESETS = sorted((pathlib.Path(__file__).parent.parent / "rulesets").glob("*.yaml"))
SEEDS = range(40)


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
        for seed in SEEDS:
            s, _ = random_game(program, seed, n, check=lambda s: _same(all_cards(s), deck))
            assert s.over and s.result is not None
            assert all(0 <= w < n for w in s.result["winners"])
            assert all_cards(s) == deck


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


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_every_option_value_plays_to_the_end(path):
    program = load_program(str(path))
    for name, spec in program.option_specs.items():
        for choice in spec["choices"]:
            variant = load_program(str(path), {name: str(choice)})
            for seed in range(3):
                s, _ = random_game(variant, seed)
                assert s.over, (name, choice)


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_ruleset_starts_with_the_schema_line_for_editors(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schema/ruleset.schema.json"
