"""Maps (docs/language.md, "Maps"): a variable from texts to numbers, texts, players or
yes/no values: who first named each strain, how often each rank was asked for.  Each rule
with a small ruleset, under both back ends."""
from __future__ import annotations

import pytest

from interpreter.errors import RulesetError
from interpreter.pipeline import load_program_text
from interpreter.runtime.engine import apply, new_game, view

BACKENDS = ["closures", "generated"]

NAMING = """
name: naming
players: {min: 2, max: 4, default: 3}
teams: {of: "(seat - 1) % 2 + 1 if seats == 4 else seat"}
deck: {cards: [a], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  first_named: {type: "map[player]"}
  times: {type: "map[number]", initial: {N: 0}}
  note: {type: "map[string]", initial: "{'C': 'clubs', 'D': 'diamonds'}"}
player_variables:
  named: {type: "map[bool]"}
team_variables:
  side: {type: "map[number]"}
flow:
  round:
    - turns:
        count: 4
        do:
          - choose: [C, D, N]
            as: strain
            label: "name {strain}"
          - if: "strain not in first_named"
            then: [set: {"first_named[strain]": current}]
          - add: {"times[strain]": 1, "current.side[strain]": 1}
          - set: {"current.named[strain]": true}
          - log: "{current} names {strain}; first {first_named[strain]}; {times}"
    - set: {"times['N']": null, "note['C']": "'trefle'"}
  until: "true"
result:
  winners: "filter(players, p => count(p.named) == 1)"
"""


def game(backend="generated", players=3, text=NAMING):
    p = load_program_text(text, backend=backend)
    return p, new_game(p, seed=1, players=players)


def name(p, s, *strains):
    for strain in strains:
        apply(p, s, ["C", "D", "N"].index(strain))


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_entry_is_set_by_its_key_and_read_by_it(backend):
    p, s = game(backend)
    name(p, s, "D", "C", "D")
    assert s.vars["first_named"] == {"D": 0, "C": 1}
    assert "Player 3 names D; first Player 1; N: 0, D: 2, C: 1" in [e.get("text") for e in s.log]


@pytest.mark.parametrize("backend", BACKENDS)
def test_add_to_an_entry_the_map_lacks_adds_to_zero(backend):
    p, s = game(backend)
    name(p, s, "C", "C")
    assert s.vars["times"] == {"N": 0, "C": 2}


@pytest.mark.parametrize("backend", BACKENDS)
def test_setting_an_entry_to_null_removes_it(backend):
    p, s = game(backend)
    name(p, s, "C", "C", "D", "N")
    assert s.over and s.vars["times"] == {"C": 2, "D": 1}
    assert s.vars["note"] == {"C": "trefle", "D": "diamonds"}


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_map_of_a_player_and_of_a_team(backend):
    p, s = game(backend, players=4)
    name(p, s, "C", "D", "N", "C")
    assert s.pvars["named"] == [{"C": True}, {"D": True}, {"N": True}, {"C": True}]
    assert s.pvars["side"][0] == s.pvars["side"][2] == {"C": 1, "N": 1}
    assert s.pvars["side"][1] == s.pvars["side"][3] == {"D": 1, "C": 1}


def test_a_copy_of_the_game_keeps_its_own_maps():
    p, s = game()
    name(p, s, "C")
    c = s.copy()
    name(p, c, "D")
    assert s.vars["first_named"] == {"C": 0} and c.vars["first_named"] == {"C": 0, "D": 1}


def test_a_map_in_a_seats_view_and_the_api():
    pytest.importorskip("lark")
    from interpreter.api import Game
    p, s = game()
    name(p, s, "C")
    assert view(p, s, 1)["vars"]["first_named"] == {"C": 0}
    g = Game(p)
    state = g.new_state(1)
    assert state.observation(0)["vars"]["times"] == {"N": 0}
    assert len(state.observation_vector(0)) == g.observation_size


@pytest.mark.parametrize("text, message", [
    ("- set: {\"first_named['C']\": 3}", "expected a player"),
    ("- add: {\"note['C']\": 1}", "'add' needs a map of numbers"),
    ("- set: {\"total[1]\": 1}", "not a map"),
    ("- log: \"{note + note}\"", "'+' does not join maps"),
    ("- log: \"{note[1]}\"", "expected a string"),
    ("- set: {note: \"{'a': top(stock)}\"}", "a map holds numbers, texts, players or yes/no values"),
])
def test_the_checker_refuses_what_a_map_cannot_do(text, message):
    ruleset = NAMING.replace("variables:\n", "variables:\n  total: 0\n", 1).replace(
        "    - set: {\"times['N']\": null", f"    {text}\n    - set: {{\"times['N']\": null")
    with pytest.raises(RulesetError) as e:
        load_program_text(ruleset)
    assert message in str(e.value)


def test_reading_an_entry_warns_that_it_may_be_missing_unless_tested():
    p = load_program_text(NAMING.replace("first {first_named[strain]}", "first {first_named[strain].name}"))
    assert any("may have no such key" in w.message for w in p.warnings)
    tested = NAMING.replace("first {first_named[strain]}",
                            "first {first_named[strain].name if strain in first_named else 'nobody'}")
    assert not any("no such key" in w.message for w in load_program_text(tested).warnings)
