"""A seat sees only what it may see (design rule 3): in views, logs, the terminal, records
shown in play, and what bots imagine."""
from __future__ import annotations

import importlib
import io
import json
import math
import pathlib

import pytest

from conftest import Table
from test_gnav2_rules import gnav2

from interpreter import apply, load_program_text, new_game, view
from interpreter.playing.agents import MonteCarloAgent, RandomAgent
from interpreter.playing.ismcts import ISMCTSAgent
from interpreter.cli import run
from interpreter.runtime.engine import determinize
from interpreter.runtime.state import Rng
from interpreter.playing.table import play

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


# The guesses below offer the seat cards it cannot see, numbers or players; each ruleset hides
# where the secret lies, so a bot that guessed better than chance would see more than its seat.
TEN = """
deck:
  product:
    rank: [{id: "1", value: 1}, {id: "2", value: 2}, {id: "3", value: 3}, {id: "4", value: 4},
           {id: "5", value: 5}, {id: "6", value: 6}, {id: "7", value: 7}, {id: "8", value: 8},
           {id: "9", value: 9}, {id: "10", value: 10}]
  zone: stock
"""

# Seat 1 names one of the ten face-down cards (the stock, sorted: the options are the cards
# in order of value, whatever was on top); it wins if it names the card that was on top.
NAME_CARD = "name: name_card\nplayers: 2\n" + TEN + """
zones:
  stock: {visibility: hidden}
variables:
  secret: {type: card, initial: null}
  right: {type: "list[player]", initial: "[]"}
flow:
  round:
    - shuffle: stock
    - set: {secret: "top(stock)"}
    - sort: {zone: stock, by: "card.value"}
    - turns:
        count: 1
        do:
          - choose: stock
            as: pick
          - if: "pick == secret"
            then: [set: {right: "[current]"}]
    - end_game
result:
  winners: right
"""

# ... names the place of that card in the sorted stock, a number
NAME_PLACE = NAME_CARD.replace("name: name_card", "name: name_place") \
    .replace("- choose: stock", '- choose: "range(0, 10)"').replace("pick == secret", "stock[pick] == secret")

# ... or the player who holds it (three others hold three cards each)
NAME_PLAYER = "name: name_player\nplayers: 4\n" + TEN.replace(', {id: "10", value: 10}', "") + """
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
variables:
  secret: {type: card, initial: null}
  right: {type: "list[player]", initial: "[]"}
flow:
  round:
    - shuffle: stock
    - set: {secret: "random(stock)"}
    - deal: {from: stock, to: hand, count: 3, players: "[players[1], players[2], players[3]]"}
    - turns:
        count: 1
        do:
          - choose: "filter(players, p => p != current)"
            as: who
          - if: "secret in who.hand"
            then: [set: {right: "[current]"}]
    - end_game
result:
  winners: right
"""

# ... the card kept by a step's local name instead of a variable
NAME_PLAYER_LOCAL = "name: name_player_local\nplayers: 4\n" + TEN.replace(', {id: "10", value: 10}', "") + """
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
variables:
  right: {type: "list[player]", initial: "[]"}
flow:
  round:
    - shuffle: stock
    - for_each: secret
      in: "[random(stock)]"
      do:
        - deal: {from: stock, to: hand, count: 3, players: "[players[1], players[2], players[3]]"}
        - turns:
            count: 1
            do:
              - choose: "filter(players, p => p != current)"
                as: who
              - if: "secret in who.hand"
                then: [set: {right: "[current]"}]
    - end_game
result:
  winners: right
"""

GUESSES = [(GUESS, 0.1), (GUESS_NUMBER, 0.1), (GUESS_OWNER, 0.1), (GUESS_ZONE, 0.1),
           (NAME_CARD, 0.1), (NAME_PLACE, 0.1), (NAME_PLAYER, 1 / 3), (NAME_PLAYER_LOCAL, 1 / 3)]
GUESS_IDS = ["number, of a card", "number, hidden", "number, owner's", "number, a local naming the other's hand",
             "card", "number, the card's place", "player", "player, of a local card"]
BOTS = {"mc": lambda seed: MonteCarloAgent(seed, playouts=3), "ismcts": lambda seed: ISMCTSAgent(seed, iterations=40)}


def wins_of(program, bot, games=200) -> int:
    """How many of `games` the bot in seat 1 wins against random bots."""
    n = len(new_game(program, seed=0).players)
    wins = 0
    for seed in range(games):
        agents = [BOTS[bot](seed)] + [RandomAgent(seed * 10 + k) for k in range(1, n)]
        wins += play(program, agents, seed=seed, log=False).result["winners"] == [0]
    return wins


@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize("text,chance", GUESSES, ids=GUESS_IDS)
def test_a_planning_bot_guesses_a_secret_no_better_than_chance(text, chance, bot):
    games = 200
    wins = wins_of(load_program_text(text), bot, games)
    # a bot that saw the secret would win every game; one that guesses, 200 * chance give or take
    spread = 4 * math.sqrt(games * chance * (1 - chance))
    assert games * chance - spread <= wins <= games * chance + spread, \
        f"the {bot} bot won {wins} of {games}: it sees the secret"


# The options of `choose: stock` are the stock's cards in its order, the top one last: a
# seat may know that, and the bots use it as a person could.
GUESS_TOP = NAME_CARD.replace("    - sort: {zone: stock, by: \"card.value\"}\n", "").replace("pick == secret", "pick == top(stock)")


class LastAgent:
    def choose(self, decision):
        return decision.count - 1


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_a_planning_bot_knows_what_the_seat_may_know_of_an_option_it_cannot_see(bot):
    program = load_program_text(GUESS_TOP)
    assert all(play(program, [LastAgent(), RandomAgent(seed)], seed=seed, log=False).result["winners"] == [0]
               for seed in range(20))
    assert wins_of(program, bot, 50) >= 45


def at_decision(text, seed=1):
    program = load_program_text(text)
    return program, new_game(program, seed=seed)


def chi_square(counts, total) -> float:
    expected = total / len(counts)
    return sum((n - expected) ** 2 / expected for n in counts)


CHI2_9 = 27.88          # 9 degrees of freedom: exceeded by chance once in a thousand


def test_an_imagined_deal_puts_each_unseen_card_anywhere_the_seat_cannot_see():
    """Over many imagined deals (fixed seeds), the card at a hidden place, the place of the
    card a variable names and the option naming that card are each uniform."""
    program, s = at_decision(NAME_CARD)
    deals = 2000
    at_bottom, secret_at, option_of = [0] * 10, [0] * 10, [0] * 10
    for k in range(deals):
        c = determinize(program, s, 0, Rng(k))
        stock, options = c.zones["stock"], c.pending[1]
        at_bottom[stock[0]] += 1
        secret_at[stock.index(c.vars["secret"])] += 1
        option_of[options.index(c.vars["secret"])] += 1
    for counts in (at_bottom, secret_at, option_of):
        assert chi_square(counts, deals) < CHI2_9, counts


def told_apart_by_no_seat(program, s, seat, seed):
    """Another real game `seat` cannot tell from `s`: the cards it cannot see lie otherwise,
    the variable names another of them, the generator and the seed differ."""
    from interpreter.runtime.engine import known_cards, refresh
    other = s.copy()
    known = known_cards(program, s, seat)
    places = [(cards, i) for z in program.zones.values()
              for cards in (other.zones[z.name] if z.per_player else [other.zones[z.name]])
              for i, card in enumerate(cards) if card not in known]
    cards = [cards[i] for cards, i in places]
    rng = Rng(seed)
    rng.shuffle(cards)
    for (zone, i), card in zip(places, cards):
        zone[i] = card
    other.vars["secret"] = cards[0]
    other.rng, other.seed = Rng(seed + 1), seed + 2
    refresh(program, other)
    other.steps, other.work = s.steps, s.work
    assert view(program, other, seat) == view(program, s, seat)
    assert other.to_dict() != s.to_dict()
    return other


@pytest.mark.parametrize("text,seat", [(NAME_CARD, 0), (NAME_PLAYER, 0), (NAME_PLAYER, 2)],
                         ids=["a choice of unseen cards", "a choice of players", "another seat's choice"])
def test_an_imagined_deal_is_the_same_from_every_real_game_the_seat_cannot_tell_apart(text, seat):
    program, s = at_decision(text)
    for k in range(5):
        other = told_apart_by_no_seat(program, s, seat, seed=k)
        for j in range(3):
            mine, theirs = determinize(program, s, seat, Rng(j)), determinize(program, other, seat, Rng(j))
            assert mine.to_dict() == theirs.to_dict()


def test_an_imagined_deal_carries_neither_the_seed_nor_the_generator_nor_the_account():
    program, s = at_decision(NAME_CARD)
    c = determinize(program, s, 0, Rng(7))
    assert c.seed is None and c.log is None and c.rng.state != s.rng.state
    assert determinize(program, s, 0, Rng(7)).rng.state == c.rng.state     # the bot's own chance


# Seat 1 takes a card of value above 5 from the face-down stock: how many it is offered tells
# it something, and every imagined deal offers as many (the other seat holds two cards).
ABOVE_FIVE = NAME_CARD.replace("name: name_card", "name: above_five") \
    .replace("  stock: {visibility: hidden}", "  stock: {visibility: hidden}\n  hand: {per_player: true, visibility: owner}") \
    .replace('    - set: {secret: "top(stock)"}\n', '    - deal: {from: stock, to: hand, count: 2, players: "[players[1]]"}\n') \
    .replace("- choose: stock", '- choose: "filter(stock, c => c.value > 5)"')


def test_an_imagined_deal_offers_the_options_the_seat_was_shown():
    program = load_program_text(ABOVE_FIVE)
    for seed in range(5):
        s = new_game(program, seed=seed)
        for k in range(20):
            c = determinize(program, s, 0, Rng(k))
            assert len(c.pending[1]) == len(s.pending[1])
            assert all(program.deck.attrs["value"][1][card] > 5 for card in c.pending[1])


# -- a person at the table --------------------------------------------------------------


def test_a_game_with_a_person_does_not_show_its_seed_while_it_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("CARD_INTERPRETER_RECORDS", str(tmp_path))
    # The seed drawn, pinned to one whose deal gives the person a decision: some deals leave
    # player 1 nothing to choose all game (every card forced), and the game then ends with 0.
    monkeypatch.setattr(importlib.import_module("interpreter.cli.main").secrets, "randbelow", lambda bound: bound // 3)
    out = io.StringIO()
    code = run([str(ROOT / "rulesets/gnav2.yaml"), "--human", "1", "--bot", "random"], stdin=io.StringIO(""), stdout=out)
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
    run([str(ROOT / "rulesets/gnav2.yaml"), "--human", "1", "--bot", "random", "--seed", "2", "--log", str(log)],
        stdin=io.StringIO(""), stdout=io.StringIO())
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert entries and all(e.get("to") in (None, 1) for e in entries if e["type"] == "say")


def test_a_log_of_a_bots_view_is_refused_beside_a_person(tmp_path):
    err = io.StringIO()
    code = run([str(ROOT / "rulesets/gnav2.yaml"), "--human", "1", "--bot", "random", "--log", str(tmp_path / "x.jsonl"),
                "--view", "2"], stdin=io.StringIO(""), stdout=io.StringIO(), stderr=err)
    assert code == 2 and "only what a person may see" in err.getvalue()


def test_a_person_sees_a_shown_variable_only_as_far_as_its_visibility_allows(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(VISIBILITY.replace("bid: {initial: 0, visibility: owner}",
                                       "bid: {initial: 0, visibility: owner, show: true}"), encoding="utf-8")
    out = io.StringIO()
    run([str(path), "--human", "1", "--bot", "random", "--seed", "1"], stdin=io.StringIO(""), stdout=out)
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
