"""Built-ins that build the choices of melding and capturing games without going through
every subset (docs/language.md, "Expressions"): groups (sets of a rank), runs (straights) and
sums (cards adding up to a total), alike under both back ends."""
from __future__ import annotations

import pytest

from interpreter.errors import RulesFault
from interpreter.pipeline import load_program_text
from interpreter.playing.agents import Decision
from interpreter.runtime.engine import new_game

HAND = """
name: built
players: 1
deck:
  cards: [{id: a, value: 1, suit: C}, {id: b, value: 2, suit: C}, {id: c, value: 3, suit: C},
          {id: d, value: 5, suit: C}, {id: e, value: 2, suit: H}, {id: f, value: 3, suit: H}]
  zone: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
flow:
  setup:
    - move: {from: stock, to: "player(0).hand"}
  round:
    - turns:
        count: 1
        do:
          - choose: "CHOICES"
            as: cards
            label: "{text(cards, ' ')}"
  until: "true"
result: {winners: "[]"}
"""


def offered(choices, backend):
    p = load_program_text(HAND.replace("CHOICES", choices), "built.yaml", backend=backend)
    s = new_game(p, seed=0)
    return Decision(p, s).labels


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_groups_puts_the_elements_of_one_key_together_in_the_order_they_come(backend):
    assert offered("groups(current.hand, c => c.value)", backend)[:3] == ["f c", "e b", "d"]


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_runs_lists_every_straight_of_at_least_the_length_by_start_then_length(backend):
    assert offered("runs(filter(current.hand, c => c.suit == 'C'), c => c.value, 2)", backend) == \
        ["a b", "a b c", "b c"]


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_sums_lists_every_choice_adding_up_to_the_total(backend):
    assert offered("sums(current.hand, c => c.value, 5)", backend) == ["f e", "f b", "e c", "e b a", "d", "c b"]


def test_a_sum_past_the_limit_of_choices_is_a_rules_error():
    text = HAND.replace("CHOICES", "sums(all_cards + all_cards, c => 0, 0)")
    p = load_program_text(text.replace("- move: {from: stock", "- move: {from: stock").replace(
        "cards: [{id: a", "copies: 3\n  cards: [{id: a"), "built.yaml", backend="closures")
    with pytest.raises(RulesFault, match="would make more than|too much work"):
        new_game(p, seed=0)
