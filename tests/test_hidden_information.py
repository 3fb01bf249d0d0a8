"""A seat sees only what it may see (design rule 3): in views, logs, the terminal, records
shown in play, and what bots imagine."""
from __future__ import annotations

import io
import json
import math
import pathlib

import pytest

from conftest import Table
from test_gnav2_rules import gnav2

from interpreter import apply, load_program_text, new_game, view
from interpreter.play.agents import MonteCarloAgent, RandomAgent
from interpreter.cli import run
from interpreter.runtime.engine import determinize
from interpreter.runtime.state import Rng
from interpreter.play.table import play

ROOT = pathlib.Path(__file__).resolve().parent.parent

# -- variables holding cards ----------------------------------------------------------


def drawn_and_undecided() -> Table:
    """gnav2: Player 1 cannot play, draws the 6♦ into the hidden hand and must decide."""
    t = gnav2(p1="3♣ 4♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 8♦", draws="6♦")
    assert t.legal() == ["play 6♦", "keep it"]
    return t


def test_a_card_variable_shows_a_hidden_card_only_to_who_can_see_it():
    t = drawn_and_undecided()
    assert view(t.program, t.state, 0)["vars"]["drawn"] == "6D"
    assert view(t.program, t.state, 1)["vars"]["drawn"] is None
    assert view(t.program, t.state, None)["vars"]["drawn"] == "6D"


def test_a_variable_naming_a_card_hidden_from_the_seat_names_one_drawn_afresh():
    """The opponent cannot see which card was drawn nor where it lies: in its imagined deals
    the variable names a card it cannot see, and not the card at the real card's place."""
    t = drawn_and_undecided()
    place = t.state.zones["hand"][0].index(t.state.vars["drawn"])
    deals = [determinize(t.program, t.state, 1, Rng(k)) for k in range(200)]
    unseen = set(t.state.zones["stock"]) | set(t.state.zones["hand"][0])
    assert all(c.vars["drawn"] in unseen for c in deals)
    assert len({c.vars["drawn"] for c in deals}) > 20           # it does not know which card it is
    at_place = sum(c.vars["drawn"] == c.zones["hand"][0][place] for c in deals)
    assert at_place < 20                        # nor where: 1 in len(unseen), not every deal
    mine = determinize(t.program, t.state, 0, Rng(1))
    assert mine.vars["drawn"] == t.state.vars["drawn"]      # the drawer does


def test_an_imagined_deal_leaves_the_real_game_untouched():
    t = drawn_and_undecided()
    before = json.dumps(t.state.to_dict(), sort_keys=True)
    for k in range(5):
        determinize(t.program, t.state, 1, Rng(k))
    assert json.dumps(t.state.to_dict(), sort_keys=True) == before


VISIBILITY = """
name: visibility
players: 2
deck:
  cards: [{id: a}, {id: b}, {id: c}, {id: d}]
  zone: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
variables:
  open_card: {type: card, initial: null, visibility: public}
  secret_card: {type: card, initial: null, visibility: hidden}
  derived: {type: card, initial: null}
  count: {initial: 0, visibility: hidden}
player_variables:
  mine: {type: card, initial: null, visibility: owner}
  bid: {initial: 0, visibility: owner}
flow:
  round:
    - shuffle: stock
    - deal: {from: stock, to: hand, count: 2}
    - set: {open_card: "top(players[1].hand)", secret_card: "bottom(players[1].hand)",
            derived: "bottom(players[1].hand)", count: 7}
    - for_each: p
      in: players
      do:
        - set: {p.mine: "top(p.hand)", p.bid: "p.index + 5"}
    - turns:
        count: 1
        do:
          - choose: current.hand
            as: card
result:
  winners: "[]"
"""


def test_declared_visibility_public_hidden_owner_and_derived():
    program = load_program_text(VISIBILITY)
    from interpreter import new_game
    s = new_game(program, seed=3)
    ids = program.deck.ids
    top1, bottom1, top0 = s.zones["hand"][1][-1], s.zones["hand"][1][0], s.zones["hand"][0][-1]
    seat0, seat1 = view(program, s, 0), view(program, s, 1)
    assert seat0["vars"]["open_card"] == ids[top1]          # public: everyone sees it
    assert seat0["vars"]["secret_card"] is None             # hidden: nobody
    assert seat1["vars"]["secret_card"] is None
    assert seat0["vars"]["derived"] is None                 # derived: where the seat sees the card
    assert seat1["vars"]["derived"] == ids[bottom1]
    assert seat0["vars"]["count"] is None and seat1["vars"]["count"] is None
    assert seat0["players"]["mine"] == [ids[top0], None]    # owner: only its player
    assert seat0["players"]["bid"] == [5, None] and seat1["players"]["bid"] == [None, 6]
    everything = view(program, s, None)
    assert everything["vars"]["secret_card"] == ids[bottom1] and everything["vars"]["count"] == 7
    # a public variable tells seat 0 a card of seat 1's hand: imagined deals keep it there
    for k in range(10):
        c = determinize(program, s, 0, Rng(k))
        assert c.zones["hand"][1][-1] == top1 and c.vars["open_card"] == top1


def test_owner_visibility_is_for_player_variables_only():
    import pytest
    from interpreter import RulesetError
    with pytest.raises(RulesetError, match="only a player variable has an owner"):
        load_program_text(VISIBILITY.replace("count: {initial: 0, visibility: hidden}",
                                             "count: {initial: 0, visibility: owner}"))


# -- the planning bot sees no card kept in a variable ------------------------------------

GUESS = """
name: guess
players: 2
deck:
  product:
    rank: [{id: "1", value: 1}, {id: "2", value: 2}, {id: "3", value: 3}, {id: "4", value: 4},
           {id: "5", value: 5}, {id: "6", value: 6}, {id: "7", value: 7}, {id: "8", value: 8},
           {id: "9", value: 9}, {id: "10", value: 10}]
  zone: stock
zones:
  stock: {visibility: hidden}
variables:
  secret: {type: card, initial: null}
  right: {type: "list[player]", initial: "[]"}
flow:
  round:
    - shuffle: stock
    - set: {secret: "top(stock)"}
    - turns:
        count: 1
        do:
          - choose: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
            as: guess
            label: "guess {guess}"
          - if: "guess == secret.value"
            then: [set: {right: "[current]"}]
    - end_game
result:
  winners: right
"""


GUESS_NUMBER = GUESS.replace("  secret: {type: card, initial: null}", "  secret: {initial: 0, visibility: hidden}") \
    .replace('set: {secret: "top(stock)"}', 'set: {secret: "top(stock).value if count(stock) > 0 else 0"}') \
    .replace("secret.value", "secret")
GUESS_OWNER = GUESS.replace("  secret: {type: card, initial: null}\n", "") \
    .replace("flow:", "player_variables:\n  holds: {initial: 0, visibility: owner}\nflow:", 1) \
    .replace('set: {secret: "top(stock)"}', 'set: {"players[1].holds": "top(stock).value if count(stock) > 0 else 0"}') \
    .replace("secret.value", "players[1].holds")


GUESS_ZONE = GUESS.replace("  stock: {visibility: hidden}",
                           "  stock: {visibility: hidden}\n  hand: {per_player: true, visibility: owner}") \
    .replace('    - set: {secret: "top(stock)"}\n    - turns:\n        count: 1\n        do:',
             '    - deal: {from: stock, to: hand, count: 1}\n    - for_each: z\n'
             '      in: "[players[1].hand]"\n      do:') \
    .replace("secret.value", "(top(z).value if count(z) > 0 else 0)").replace("[current]", "[players[0]]") \
    .replace("            as: guess\n", '            as: guess\n            by: "players[0]"\n')


@pytest.mark.parametrize("text", [GUESS, GUESS_NUMBER, GUESS_OWNER, GUESS_ZONE],
                         ids=["card", "hidden number", "owner's number", "a local naming the other's hand"])
def test_the_planning_bot_does_no_better_than_chance_at_a_value_kept_from_it(text):
    program = load_program_text(text)
    games = 200
    wins = 0
    for seed in range(games):
        s = play(program, [MonteCarloAgent(seed, playouts=3), RandomAgent(seed)], seed=seed, log=False)
        wins += s.result["winners"] == [0]
    # chance is 1 in 10; a bot that saw the secret would win every game
    bound = games * 0.1 + 3 * math.sqrt(games * 0.1 * 0.9)
    assert wins <= bound, f"the bot won {wins} of {games}: it sees the hidden card"


# -- a person at the table --------------------------------------------------------------


def test_a_game_with_a_person_does_not_show_its_seed_while_it_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("CARD_INTERPRETER_RECORDS", str(tmp_path))
    out = io.StringIO()
    code = run([str(ROOT / "rulesets/gnav2.yaml"), "--human", "1"], stdin=io.StringIO(""), stdout=out)
    assert code == 2                                       # input ended at the first decision
    header = out.getvalue().splitlines()[0]
    assert "seed" not in header
    [record] = list(tmp_path.iterdir())
    assert "seed" not in record.name
    seed = json.loads(record.read_text(encoding="utf-8"))["seed"]
    assert seed >= 2 ** 40          # far too many seeds to try each against the hand shown
    assert run(["resume", str(record)], stdin=io.StringIO(""), stdout=io.StringIO()) == 2


def test_the_seed_is_shown_when_only_bots_play():
    out = io.StringIO()
    assert run([str(ROOT / "rulesets/gnav2.yaml"), "--seed", "5"], stdout=out) == 0
    assert "seed 5" in out.getvalue().splitlines()[0]


def test_a_log_beside_a_person_shows_only_that_persons_view(tmp_path):
    log = tmp_path / "events.jsonl"
    run([str(ROOT / "rulesets/gnav2.yaml"), "--human", "1", "--seed", "2", "--log", str(log)],
        stdin=io.StringIO(""), stdout=io.StringIO())
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert entries and all(e.get("to") in (None, 1) for e in entries if e["type"] == "say")


def test_a_log_of_a_bots_view_is_refused_beside_a_person(tmp_path):
    err = io.StringIO()
    code = run([str(ROOT / "rulesets/gnav2.yaml"), "--human", "1", "--log", str(tmp_path / "x.jsonl"),
                "--view", "2"], stdin=io.StringIO(""), stdout=io.StringIO(), stderr=err)
    assert code == 2 and "only what a person may see" in err.getvalue()


def test_a_person_sees_a_shown_variable_only_as_far_as_its_visibility_allows(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(VISIBILITY.replace("bid: {initial: 0, visibility: owner}",
                                       "bid: {initial: 0, visibility: owner, show: true}"), encoding="utf-8")
    out = io.StringIO()
    run([str(path), "--human", "1", "--seed", "1"], stdin=io.StringIO(""), stdout=out)
    assert "  bid: Player 1 5, Player 2 ?" in out.getvalue()


SCOPES = """
name: scopes
players: 2
deck:
  product:
    rank: [{id: "1", value: 1}, {id: "2", value: 2}, {id: "3", value: 3}, {id: "4", value: 4},
           {id: "5", value: 5}, {id: "6", value: 6}, {id: "7", value: 7}, {id: "8", value: 8}]
  zone: stock
zones:
  stock: {visibility: hidden}
  table: {visibility: public}
  gone: {visibility: hidden}
variables:
  target: {type: card, initial: null, visibility: hidden}
  secret: {type: number, initial: "100 // count(stock)", visibility: hidden}
flow:
  round:
    - shuffle: stock
    - for_each: n
      in: stock
      do: []
    - move: {from: stock, to: table, count: 2}
    - set: {target: "top(table)"}
    - move: {from: stock, to: table, count: 2}
    - move: {from: stock, to: gone}
    - turns:
        count: 1
        do:
          - choose: [1, 2, 3]
            as: n
          - choose: ["yes", "no"]
            as: again
    - end_game
result:
  winners: "[]"
"""


def test_an_imagined_deal_renames_only_the_locals_that_hold_cards_where_the_game_waits():
    program = load_program_text(SCOPES)
    from interpreter import apply, new_game
    s = new_game(program, seed=2)
    apply(program, s, 2)                       # n = 3, a number here (a card in the for_each above)
    assert 3 in s.zones["gone"] or 3 in s.zones["table"]
    for k in range(10):
        assert determinize(program, s, 0, Rng(k)).locals["n"] == 3


def test_an_imagined_deal_forgets_a_hidden_card_variable_even_where_the_card_is_seen():
    program = load_program_text(SCOPES)
    from interpreter import new_game
    s = new_game(program, seed=2)
    assert s.vars["target"] in s.zones["table"] and view(program, s, 0)["vars"]["target"] is None
    assert all(determinize(program, s, 0, Rng(k)).vars["target"] is None for k in range(5))


def test_an_initial_value_the_imagined_state_cannot_compute_is_null():
    program = load_program_text(SCOPES)
    from interpreter import new_game
    s = new_game(program, seed=2)             # the stock is empty now: 100 // count(stock) has no value
    assert determinize(program, s, 1, Rng(1)).vars["secret"] is None


def test_a_choice_among_face_down_cards_names_none_of_them():
    from interpreter.runtime.engine import labels
    from test_package import HIDDEN_CHOICE
    program = load_program_text(HIDDEN_CHOICE.replace("where: \"pick.id == 'a'\"", "where: 'true'"), "h.yaml")
    s = new_game(program, seed=1)
    assert labels(program, s) == ["face-down card 1", "face-down card 2", "face-down card 3"]
    apply(program, s, 1)
    decision = next(e for e in s.log if e["type"] == "decision")
    assert decision["label"] == "face-down card 2"
