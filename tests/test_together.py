"""Choices made together (docs/language.md, "Choices made together"): sealed bids, cards
passed at once, a race to call.  Each player chooses on the same state without learning what
the others chose; nothing they chose has an effect, or is shown, before everyone has chosen.
Each rule with a small ruleset, under both back ends."""
from __future__ import annotations

import pytest

from interpreter.errors import RulesetError
from interpreter.pipeline import load_program_text
from interpreter.playing.agents import MonteCarloAgent, RandomAgent
from interpreter.playing.table import play
from interpreter.runtime.engine import apply, determinize, entry_for, new_game, view, window_seats
from interpreter.runtime.state import Rng

BACKENDS = ["closures", "generated"]

BIDS = """
name: bids
players: {min: 2, max: 4}
deck:
  cards: [{id: A, value: 1}, {id: B, value: 2}, {id: C, value: 3}, {id: D, value: 4}]
  zone: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  bids: {visibility: public}
variables:
  shown: {type: "list[number]", initial: "[]"}
  before: {type: player}
player_variables:
  bid: {type: number, initial: 0}
  bids_seen: {type: number, initial: -1}
flow:
  setup:
    - deal: {from: stock, to: hand, count: 1}
  round:
    - turns:
        count: 1
        do:
          - set: {before: current}
          - choose: "[1, 2, 3]"
            as: amount
            together: players
            where: "amount != 2 or current != player(2)"
            label: "bid {amount}"
            do:
              - set: {current.bid: amount, current.bids_seen: "count(bids)", shown: "shown + [amount]"}
              - move: {cards: current.hand, from: current.hand, to: bids}
              - log: "{current} bids {amount}"
          - set: {before: "current"}
  until: "true"
result:
  winners: "filter(players, p => p.bid == max(players, q => q.bid))"
"""


def program(text=BIDS, backend="generated"):
    return load_program_text(text, backend=backend)


def game(backend="generated", players=3, seed=1, text=BIDS):
    p = program(text, backend)
    return p, new_game(p, seed=seed, players=players)


@pytest.mark.parametrize("backend", BACKENDS)
def test_each_player_chooses_on_the_state_as_it_was_before_anyone_chose(backend):
    p, s = game(backend)
    apply(p, s, 2)                          # Player 1 bids 3
    assert s.pending[0] == 1
    assert s.pvars["bid"] == [0, 0, 0]      # nothing has happened yet
    assert len(s.zones["bids"]) == 0
    apply(p, s, 0)                          # Player 2 bids 1
    assert s.pending[0] == 2 and s.pending[1] == [1, 3]     # Player 3 may not bid 2 (its own `where`)


@pytest.mark.parametrize("backend", BACKENDS)
def test_do_runs_for_each_chooser_in_order_once_everyone_has_chosen(backend):
    p, s = game(backend)
    for index in (2, 0, 1):
        apply(p, s, index)
    assert s.over
    assert s.pvars["bid"] == [3, 1, 3]
    assert s.vars["shown"] == [3, 1, 3]
    assert s.pvars["bids_seen"] == [0, 1, 2]    # each do ran after the ones before it, in order
    assert [e["text"] for e in s.log if e.get("type") == "log"][-3:] == [
        "Player 1 bids 3", "Player 2 bids 1", "Player 3 bids 3"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_player_whose_turn_it_is_is_current_again_after_the_choice(backend):
    p, s = game(backend)
    for index in (0, 0, 0):
        apply(p, s, index)
    assert s.vars["before"] == 0            # set after the choice: the turn's player, not the last chooser


def test_a_player_with_no_legal_option_is_left_out_of_do():
    text = BIDS.replace('where: "amount != 2 or current != player(2)"', 'where: "current != player(2)"')
    p, s = game(text=text)
    apply(p, s, 0)
    apply(p, s, 1)
    assert s.over
    assert s.pvars["bid"] == [1, 2, 0]


def test_another_seats_choice_is_not_shown_before_or_after():
    p, s = game()
    apply(p, s, 2)
    seen = view(p, s, 1)
    assert seen["players"]["bid"] == [0, 0, 0] and seen["zones"]["bids"] == []
    assert seen["deciding"] == 1 and seen["options"] == ["bid 1", "bid 2", "bid 3"]
    assert window_seats(p, s) == [1, 2]
    entry = [e for e in s.log if e.get("type") == "decision"][-1]
    assert entry_for(entry, 1) == {"type": "decision", "player": 0}     # who chose, not what
    assert entry_for(entry, 0)["label"] == "bid 3"


def test_an_imagined_deal_asks_the_other_seats_again():
    p, s = game()
    apply(p, s, 2)                          # Player 1's sealed 3
    imagined = determinize(p, s, 1, Rng(5))
    assert imagined.pending[0] == 1
    apply(p, imagined, 0)
    assert imagined.pending[0] == 0         # Player 1 is asked again: seat 2 cannot know its bid
    apply(p, imagined, 0)
    apply(p, imagined, 0)                   # Player 3
    assert imagined.pvars["bid"] == [1, 1, 1]
    own = determinize(p, s, 0, Rng(5))      # Player 1 knows its own
    apply(p, own, 0)
    apply(p, own, 0)
    assert own.over and own.pvars["bid"] == [3, 1, 1]


PENNIES = """
name: pennies
players: 2
deck: {cards: [a], zone: stock}
zones: {stock: {visibility: hidden}}
player_variables:
  side: {type: string, initial: ""}
flow:
  round:
    - choose: [heads, tails]
      as: side
      together: players
      do: [set: {current.side: side}]
  until: "true"
result:
  winners: "[player(1)] if player(0).side == player(1).side else [player(0)]"
"""


def test_a_planning_bot_second_to_choose_cannot_read_the_first_choice():
    """Matching pennies: the second player wins on a match.  Reading the first choice would
    win every game; sealed, the mc bot wins about half."""
    p = program(PENNIES)
    wins = sum(1 in play(p, [RandomAgent(seed), MonteCarloAgent(seed, playouts=8)], seed=seed, log=False).result["winners"]
               for seed in range(120))
    assert 35 <= wins <= 85


@pytest.mark.parametrize("step, message", [
    ('choose: "[1, 2]"\n      as: x\n      do: [log: hi]', "'do' belongs to a choice made together"),
    ('choose: "[1, 2]"\n      as: x\n      together: players\n      by: current', "has no 'by'"),
    ('choose: "[1, 2]"\n      as: x\n      together: players\n      do: [end_round]',
     "cannot end the turn, round or game"),
    ('choose: [{option: a}, {option: b}]\n      together: players', "not as kinds of option"),
    ('choose: "[1, 2]"\n      as: x\n      together: current', "list of players"),
])
def test_the_checker_refuses_what_a_choice_made_together_cannot_do(step, message):
    text = f"""
name: t
players: 2
deck: {{cards: [a], zone: stock}}
zones: {{stock: {{}}}}
flow:
  round:
    - {step}
  until: "true"
result: {{winners: "[]"}}
"""
    with pytest.raises(RulesetError) as e:
        program(text)
    assert message in str(e.value)


def test_the_parallel_api_asks_every_seat_of_the_choice_at_once():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import parallel_api_test

    from interpreter.envs.pettingzoo import parallel_env
    e = parallel_env(game=_api_game(PENNIES))
    obs, _ = e.reset(seed=3)
    masks = {a: o["action_mask"].nonzero()[0].tolist() for a, o in obs.items()}
    names = e.game.action_names
    assert {a: [names[i] for i in m] for a, m in masks.items()} == {
        "player_0": ["text:heads", "text:tails"], "player_1": ["text:heads", "text:tails"]}
    heads, tails = names.index("text:heads"), names.index("text:tails")
    _, rewards, terminations, _, _ = e.step({"player_0": heads, "player_1": tails})
    assert all(terminations.values()) and rewards == {"player_0": 1.0, "player_1": 0.0}
    parallel_api_test(parallel_env(game=_api_game(BIDS, players=3)), num_cycles=50)
    parallel_api_test(parallel_env("hearts"), num_cycles=200)     # one seat at a time elsewhere


def _api_game(text, players=None):
    from interpreter.api import Game
    return Game(program(text), players=players)


def test_a_player_listed_twice_chooses_once():
    text = BIDS.replace("together: players", "together: \"players + players\"")
    p, s = game(text=text, players=2)
    apply(p, s, 0)
    apply(p, s, 1)
    assert s.over and s.pvars["bid"] == [1, 2] and s.pvars["bids_seen"] == [0, 1]
