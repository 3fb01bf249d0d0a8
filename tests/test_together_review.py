"""Choices made together (docs/language.md, "Choices made together"), as a review found
them wanting: names bound before the choice, exits and decisions from procedures and
triggers `do` runs, the parallel API when a seat has no legal option, a scenario stopping
after the step, a player put out by an earlier `do`.  Each test failed before its fix."""
from __future__ import annotations


import pytest

from interpreter.authoring.scenario import run_file
from interpreter.errors import RulesFault, RulesetError
from interpreter.pipeline import load_program_text
from interpreter.runtime.engine import apply, new_game, view

BACKENDS = ["closures", "generated"]


def program(text, backend="generated"):
    return load_program_text(text, backend=backend)


def game(text, backend="generated", players=3, seed=1):
    p = program(text, backend)
    return p, new_game(p, seed=seed, players=players)


BIDS = """
name: bids
players: {min: 2, max: 4}
deck: {cards: [a], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  ended: {type: number, initial: 0}
player_variables:
  bid: {type: number, initial: 0}
  after: {type: number, initial: 0}
procedures:
  finish:
    - end_turn
flow:
  round:
    - turns:
        count: 1
        do:
          - choose: "[1, 2, 3]"
            as: amount
            together: players
            WHERE
            label: "bid {amount}"
            do:
              - set: {current.bid: amount}
              DO
          - set: {ended: 1}
  until: "true"
result:
  winners: "filter(players, p => p.bid == max(players, q => q.bid))"
"""


def bids(where="", do=""):
    return BIDS.replace("WHERE", where).replace("DO", do)


# --- the checker lets `do` end the turn through a procedure or a trigger --------------------

@pytest.mark.parametrize("backend", BACKENDS)
def test_end_turn_in_a_procedure_called_from_do_stops_the_game_with_a_rules_error(backend):
    """docs: "the steps of `do` cannot end the turn, round or game".  The checker sees the
    steps written in `do`; one in a procedure they call is said when it runs (vm.unwind):
    otherwise the others' choices would be lost and `current` never restored."""
    text = bids(do="- if: \"current == player(0)\"\n                then: [call: finish]")
    p, s = game(text, backend)
    apply(p, s, 2)
    apply(p, s, 2)
    with pytest.raises(RulesFault, match="end_turn inside the steps of a choice made together"):
        apply(p, s, 2)


TRIGGERED = """
name: trig
players: 3
deck: {cards: [a], zone: stock}
zones: {stock: {visibility: hidden}}
events:
  bid_made: {}
player_variables:
  bid: {type: number, initial: 0}
triggers:
  - on: bid_made
    do: [end_turn]
flow:
  round:
    - turns:
        count: 1
        do:
          - choose: "[1, 2, 3]"
            as: amount
            together: players
            do:
              - set: {current.bid: amount}
              - if: "current == player(0)"
                then: [emit: bid_made]
  until: "true"
result:
  winners: "[]"
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_end_turn_in_a_trigger_of_an_event_emitted_in_do_stops_the_game_with_a_rules_error(backend):
    p, s = game(TRIGGERED, backend)
    apply(p, s, 1)
    apply(p, s, 1)
    with pytest.raises(RulesFault, match="end_turn inside the steps of a choice made together"):
        apply(p, s, 1)


# --- the parallel API at a choice where a seat has no legal option --------------------------

def test_acting_players_leaves_out_a_seat_with_no_legal_option():
    """window_seats counts every seat whose entry is still None, a seat that will be skipped
    (nothing legal) included; legal_actions_for(that seat) then plays on past the window."""
    from interpreter.api import Game
    g = Game(program(bids(where='where: "current != player(1)"')), players=3)
    st = g.new_state(1)
    assert st.acting_players() == [0, 2]


def test_the_parallel_env_runs_a_choice_where_a_seat_has_no_legal_option():
    pytest.importorskip("pettingzoo")
    from interpreter.api import Game
    from interpreter.envs.pettingzoo import parallel_env
    e = parallel_env(game=Game(program(bids(where='where: "current != player(1)"')), players=3))
    obs, _ = e.reset(seed=1)
    actions = {a: o["action_mask"].nonzero()[0][0] for a, o in obs.items() if o["action_mask"].any()}
    assert sorted(actions) == ["player_0", "player_2"]
    e.step(actions)


# --- a bot's imagined deal during a decision in `do` holds the later seats' sealed choices ---

CONFIRM = """
name: confirm
players: 3
deck: {cards: [a], zone: stock}
zones: {stock: {visibility: hidden}}
player_variables:
  bid: {type: number, initial: 0}
flow:
  round:
    - choose: "[1, 2, 3]"
      as: amount
      together: players
      label: "bid {amount}"
      do:
        - choose: [keep, withdraw]
          as: answer
        - if: "answer == 'keep'"
          then: [set: {current.bid: amount}]
  until: "true"
result:
  winners: "filter(players, p => p.bid == max(players, q => q.bid))"
"""


def test_a_decision_in_do_is_refused_where_it_is_written():
    """A bot deciding inside `do` would imagine the choices not yet revealed as they are:
    `do` may not ask for a decision."""
    with pytest.raises(RulesetError, match="cannot ask for a decision"):
        load_program_text(CONFIRM)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_decision_in_a_procedure_called_from_do_stops_the_game_with_a_rules_error(backend):
    text = CONFIRM.replace("""      do:
        - choose: [keep, withdraw]
          as: answer
        - if: "answer == 'keep'"
          then: [set: {current.bid: amount}]""", """      do: [call: confirm]""").replace("flow:\n", """procedures:
  confirm:
    - choose: [keep, withdraw]
      as: answer
flow:
""", 1)
    p = load_program_text(text, backend=backend)
    s = new_game(p, seed=1)
    apply(p, s, 0)
    apply(p, s, 1)
    with pytest.raises(RulesFault, match="a decision inside the steps of a choice made together"):
        apply(p, s, 2)


# --- a player put out by an earlier do still acts in its own -------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
def test_a_player_put_out_by_an_earlier_do_is_left_out_of_its_own(backend):
    text = bids(do="- if: \"current == player(0)\"\n                then: [eliminate: player(1)]")
    p, s = game(text, backend)
    for _ in range(3):
        apply(p, s, 2)
    assert s.out[1]
    assert s.pvars["bid"] == [3, 0, 3]      # Player 2, out, does not bid


# --- a scenario's `after: ID` of a choice made together ---------------------------------------

PASS = """
name: pass
players: 3
deck:
  cards: [a1, a2, b1, b2, c1, c2]
  zone: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  got: {per_player: true, visibility: owner}
flow:
  setup:
    - shuffle: stock
    - deal: {from: stock, to: hand, count: 2}
  round:
    - id: pass
      choose: current.hand
      as: card
      together: players
      label: "pass {card}"
      do:
        - move: {card: card, from: current.hand, to: current.left.got}
    - id: after_pass
      log: "passed"
  until: "true"
result:
  winners: "[]"
"""


def test_a_scenario_stopping_after_a_choice_made_together_stops_after_its_do(tmp_path):
    """ck.step_ids[id] is the window's first part (`open`): `at: {after: pass}` is checked
    before anyone has chosen, not after the choice."""
    (tmp_path / "pass.yaml").write_text(PASS)
    sc = tmp_path / "s.yaml"
    sc.write_text("""
ruleset: pass.yaml
players: 3
stack: [a1, b1, c1, a2, b2, c2]
decisions: ["pass a1", "pass b1", "pass c1"]
expect:
  - at: {after: pass}
    that: ["count(player(1).got) == 1"]
  - at: {before: after_pass}
    that: ["count(player(1).got) == 1"]
""")
    report = run_file(str(sc))
    assert report.passed, [text for ok, text in report.results if not ok]


# --- the window writes its names into the locals: a name bound before it is clobbered -------

OPENING = BIDS.replace("WHERE", 'prompt: "the opening was {amount}: your bid?"').replace("DO", "").replace(
    """          - choose: "[1, 2, 3]"
            as: amount
            together""", """          - choose: "[7, 8]"
            as: amount
          - choose: "[1, 2, 3, amount]"
            as: amount
            together""").replace("- set: {ended: 1}", "- set: {ended: amount}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_later_chooser_options_do_not_show_an_earlier_chooser_sealed_choice(backend):
    """`amount` is bound before the window (the opening, 7), so the checker lets the window's
    options and prompt read it; but `keep` leaves each chooser's sealed value in the local
    `amount`, so the next chooser's options and prompt are computed from it."""
    p, s = game(OPENING, backend)
    apply(p, s, 0)                          # the opening: 7
    assert view(p, s, 0)["options"] == ["bid 1", "bid 2", "bid 3", "bid 7"]
    apply(p, s, 1)                          # Player 1's sealed bid: 2
    assert view(p, s, 1)["options"] == ["bid 1", "bid 2", "bid 3", "bid 7"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_later_chooser_prompt_does_not_show_an_earlier_chooser_sealed_choice(backend):
    from interpreter.runtime.engine import prompt
    p, s = game(OPENING, backend)
    apply(p, s, 0)                          # the opening: 7
    assert prompt(p, s) == "the opening was 7: your bid?"
    apply(p, s, 1)                          # Player 1's sealed bid: 2
    assert prompt(p, s) == "the opening was 7: your bid?"     # (it says 2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_name_bound_before_the_window_keeps_its_value_after_it(backend):
    """After the window the checker types `amount` as the opening's (the window's own names
    are not bound after it), but at run time it holds the last chooser's bid."""
    p, s = game(OPENING, backend)
    for index in (0, 2, 1, 0):              # opening 7; bids 3, 2, 1
        apply(p, s, index)
    assert s.over and s.vars["ended"] == 7
