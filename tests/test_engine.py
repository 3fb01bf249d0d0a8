"""Engine properties: plain-data state, copies, views per seat, card conservation."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from conftest import Table, ruleset
import pytest

from interpreter import apply, load_program, new_game, view
from interpreter.playing.agents import Decision, RandomAgent
from test_simulation import all_cards


def test_state_is_plain_data_and_serialises_to_json():
    t = Table("hearts2", seed=1)
    text = json.dumps(t.state.to_dict())
    assert '"zones"' in text


def test_a_copied_state_plays_on_exactly_like_the_original():
    t = Table("ninety_nine", seed=3)
    program, s = t.program, t.state
    apply(program, s, 0)
    c = s.copy()
    agent_a, agent_b = RandomAgent(9), RandomAgent(9)
    while not s.over:
        apply(program, s, agent_a.choose(Decision(program, s)))
    while not c.over:
        apply(program, c, agent_b.choose(Decision(program, c)))
    assert c.log == s.log and c.result == s.result


def test_copy_is_independent():
    t = Table("hearts2", seed=1)
    c = t.state.copy()
    c.zones["hand"][0].clear()
    assert t.state.zones["hand"][0]


def test_view_hides_the_other_players_hand_but_keeps_its_size():
    t = Table("hearts2", seed=1)
    v = view(t.program, t.state, 0)
    assert all(c is not None for c in v["zones"]["hand"][0])
    assert v["zones"]["hand"][1] == [None] * 13
    assert v["zones"]["stock"] == [] and v["zones"]["dead"] == [None, None]


def test_options_are_in_the_view_only_for_the_deciding_seat():
    t = Table("hearts2", seed=1)
    seat = t.deciding
    assert "options" in view(t.program, t.state, seat)
    assert "options" not in view(t.program, t.state, 1 - seat)


def test_no_view_during_a_game_holds_another_seats_hidden_card():
    t = Table("ninety_nine", seed=4)
    program, s = t.program, t.state
    agent = RandomAgent(4)
    while not s.over:
        for seat in (0, 1):
            other = s.zones["hand"][1 - seat]
            assert view(program, s, seat)["zones"]["hand"][1 - seat] == [None] * len(other)
        apply(program, s, agent.choose(Decision(program, s)))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), choices=st.lists(st.integers(0, 1000), max_size=400),
       game=st.sampled_from(["hearts2", "ninety_nine"]))
def test_no_card_is_ever_lost_or_duplicated(seed, choices, game):
    program = _program(game)
    deck = list(range(len(program.deck.ids)))
    s = new_game(program, seed=seed, log=False)
    for c in choices:
        if s.over:
            break
        apply(program, s, c % len(s.pending[1]))
        assert all_cards(s) == deck


_PROGRAMS = {}


def _program(name):
    if name not in _PROGRAMS:
        _PROGRAMS[name] = load_program(ruleset(name))
    return _PROGRAMS[name]


def test_a_rules_error_names_the_step_and_never_shows_a_traceback(tmp_path):
    from interpreter import RulesFault
    bad = tmp_path / "bad.yaml"
    bad.write_text(open(ruleset("ninety_nine"), encoding="utf-8").read().replace(
        "- move: {card: card, from: current.hand, to: pile}", "- move: {card: card, from: pile, to: pile}"),
        encoding="utf-8")
    program = load_program(str(bad))
    s = new_game(program, seed=1)
    try:
        apply(program, s, 0)
    except RulesFault as e:
        assert "bad.yaml:" in str(e) and "not in the zone" in str(e)
    else:
        raise AssertionError("expected a rules error")


def _continue(program, s, seed):
    agent = RandomAgent(seed)
    while not s.over:
        apply(program, s, agent.choose(Decision(program, s)))
    return s


@settings(max_examples=12, deadline=None)
@given(game=st.sampled_from(["hearts2", "ninety_nine", "gnav", "gnav2"]), seed=st.integers(0, 10**6),
       stop=st.integers(0, 60))
def test_a_state_serialised_to_json_and_back_plays_on_identically(game, seed, stop):
    from interpreter.runtime.state import State
    program = _program(game)
    s = new_game(program, seed=seed)
    agent = RandomAgent(seed + 1)
    for _ in range(stop):
        if s.over:
            break
        apply(program, s, agent.choose(Decision(program, s)))
    snapshot = State.from_dict(json.loads(json.dumps(s.to_dict())))
    copy = s.copy()
    a, b, c = _continue(program, s, 5), _continue(program, snapshot, 5), _continue(program, copy, 5)
    assert a.log == b.log == c.log and a.result == b.result == c.result


def test_option_invariant_calls_in_where_are_computed_once_per_choice(tmp_path):
    """A naive `where` (re-checking the whole hand for every option) plays exactly like the
    hand-optimised one, and the compiler memoises the call that does not depend on the option."""
    from interpreter.closures.expressions import Closures
    from interpreter.check.expressions import ExprChecker
    from interpreter.lang.types import BOOL, CARD
    text = open(ruleset("hearts2"), encoding="utf-8").read()
    naive = text.replace("      if not void\n", "      if any(p.hand, x => x.suit == led_suit)\n")
    assert naive != text
    path = tmp_path / "naive.yaml"
    path.write_text(naive, encoding="utf-8")
    fast, slow = _program("hearts2"), load_program(str(path))
    for seed in range(3):
        a = _continue(fast, new_game(fast, seed=seed), seed)
        b = _continue(slow, new_game(slow, seed=seed), seed)
        assert a.log == b.log
    # (with hearts restricted in play, so that the last `or` of may_follow does not fold away)
    symbols = load_program(str(path), {"hearts_restriction": "play"}).symbols
    ec = Closures(symbols)
    ec.condition(ExprChecker(symbols).check("may_follow(current, card) and count(current.hand) > 0",
                                                 {"card": CARD}, BOOL), "card")
    # any(p.hand, ...) and only_hearts(p) (with the all(...) in it) inside may_follow, and count(...)
    assert ec.hoisted == 4


def test_an_imagined_game_keeps_what_the_seat_sees_and_deals_the_rest_at_random():
    from interpreter.runtime.engine import determinize
    from interpreter.runtime.state import Rng
    t = Table("hearts2", seed=2)
    s, p = t.state, t.program
    seat = t.deciding
    c = determinize(p, s, seat, Rng(1))
    assert c.zones["hand"][seat] == s.zones["hand"][seat]                      # its own hand
    assert len(c.zones["hand"][1 - seat]) == len(s.zones["hand"][1 - seat])    # sizes kept
    assert sorted(c.zones["hand"][1 - seat] + c.zones["dead"]) == sorted(s.zones["hand"][1 - seat] + s.zones["dead"])
    assert c.zones["hand"][1 - seat] != s.zones["hand"][1 - seat]              # but not where they were
    assert all_cards(c) == all_cards(s)


def test_the_mc_bot_avoids_an_obviously_losing_card():
    from interpreter.playing.agents import Decision, MonteCarloAgent
    from test_ninety_nine_rules import nn
    t = nn(p1="5♣ 2♣ 3♣ 4♣ 6♣")
    t.state.vars["total"] = 94
    t.refresh()
    labels = t.legal()
    choice = MonteCarloAgent(seed=1, playouts=8).choose(Decision(t.program, t.state))
    assert labels[choice] != "play 5♣ (total 99)"       # 5 reaches 99 and loses at once


def test_with_a_standing_the_mc_bot_plans_to_the_end_of_the_hand_and_wins_hearts2():
    from interpreter.playing.agents import MonteCarloAgent
    from interpreter.playing.table import play
    program = load_program(ruleset("hearts2"), {"target_score": "50"})
    wins = 0
    for seed in range(3):
        s = play(program, [MonteCarloAgent(seed, playouts=4), RandomAgent(seed)], seed=seed, log=False)
        wins += s.result["winners"] == [0]
    assert wins >= 2


def test_the_mc_bot_takes_the_least_bad_option_when_every_option_scores_below_zero():
    from interpreter.playing.agents import MonteCarloAgent

    class Scored(MonteCarloAgent):
        def value(self, decision, option, until=None):
            return [-9.0, -4.0, -7.0][option]

    class Three:
        count = 3
    assert Scored().choose(Three()) == 1


def test_the_mc_bot_given_seconds_decides_within_them_whatever_its_play_outs():
    """A time bound keeps a decision short however many play-outs are asked for (a game whose
    play-outs are long, go_fish, took half a minute at 20 an option): each option stops at its
    share of the time, after one play-out."""
    import time
    from interpreter.playing.agents import MonteCarloAgent
    program = load_program(ruleset("hearts2"))
    s = new_game(program, seed=3, players=2, log=False)
    while len(s.pending[1]) < 3:
        apply(program, s, 0)
    start = time.perf_counter()
    choice = MonteCarloAgent(seed=1, playouts=100_000, seconds=0.3).choose(Decision(program, s))
    assert time.perf_counter() - start < 2 and 0 <= choice < len(s.pending[1])


ALIAS = """name: alias
players: 2
deck: {cards: [a, b, c, d], zone: stock}
zones: {stock: {visibility: public}, pile: {visibility: public}}
variables:
  y: {type: "list[card]", initial: "stock"}
  z: {type: "list[card]", initial: "[]"}
flow:
  round:
    - set: {z: stock}
    - move: {from: stock, to: pile, count: 2}
    - choose: [1, 2]
      by: player(0)
    - end_game
result: {winners: "[]"}
"""


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_a_list_variable_set_from_a_zone_keeps_the_cards_as_they_were(backend):
    from interpreter import pipeline
    program = pipeline.load_program_text(ALIAS, "alias.yaml", backend=backend)
    s = new_game(program, seed=1)
    assert len(s.vars["y"]) == 4 and len(s.vars["z"]) == 4 and len(s.zones["stock"]) == 2
    copy = s.copy()
    copy.zones["stock"].pop()
    assert len(copy.vars["z"]) == 4
