"""Zones of piles made during play (docs/language.md, "Piles"): melds on the table that any
player may add to, split hands.  Each rule with a small ruleset, under both back ends."""
from __future__ import annotations

import json

import pytest

from interpreter.errors import RulesFault, RulesetError
from interpreter.pipeline import load_program_text
from interpreter.playing.agents import Decision, RandomAgent
from interpreter.playing.table_view import Groups, layout
from interpreter.runtime.engine import apply, determinize, new_game, view
from interpreter.runtime.state import Rng, State

BACKENDS = ["closures", "generated"]

MELDS = """
name: melds
players: 2
deck:
  product:
    suit: [{id: C, symbol: "♣"}, {id: H, symbol: "♥"}]
    rank: [{id: "2", value: 2}, {id: "3", value: 3}, {id: "4", value: 4}]
  id: "{rank}{suit}"
  display: "{rank}{symbol}"
  zone: stock
zones:
  stock: {}
  hand: {per_player: true, visibility: owner}
  melds: {piles: true, visibility: VISIBILITY}
  discard: {visibility: public}
player_variables:
  laid: 0
flow:
  setup:
    - shuffle: stock
    - deal: {from: stock, to: hand, count: 3}
  round:
    - turns:
        count: 6
        do:
          - choose:
              - option: new
                when: "count(current.hand) > 0"
                label: "start a pile with {top(current.hand)}"
                do:
                  - new_pile: {zone: melds, owner: current, as: m}
                  - move: {card: "top(current.hand)", from: current.hand, to: m}
              - from: {card: current.hand, pile: melds}
                label: "put {card} on {pile}"
                do:
                  - move: {card: card, from: current.hand, to: pile}
                  - add: {current.laid: "pile.size"}
              - option: take
                when: "count(melds) > 0"
                label: "take back {melds[0]}"
                do:
                  - move: {from: "melds[0]", to: current.hand}
              - option: pass
  until: "true"
result:
  winners: "[max_by(players, p => p.laid)]"
  score: "count(filter(melds, m => m.owner == p))"
"""


def program(backend="generated", visibility="public", text=MELDS):
    return load_program_text(text.replace("VISIBILITY", visibility), "melds.yaml", backend=backend)


def dealt(p):
    """Player 1 holds 4♥ 3♥ 2♥ and Player 2 4♣ 3♣ 2♣, the last on top (the top card is the one
    a new pile starts with)."""
    return new_game(p, seed=0, stacks=[["4♥", "4♣", "3♥", "3♣", "2♥", "2♣"]])


def pick(p, s, label):
    labels = Decision(p, s).labels
    assert label in labels, labels
    apply(p, s, labels.index(label))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_new_pile_is_on_the_table_once_a_card_lies_on_it(backend):
    p = program(backend)
    s = dealt(p)
    assert s.piles == {"melds": []} and s.zones["melds"] == []
    pick(p, s, "start a pile with 2♥")
    assert s.zones["melds"] == [[p.deck.ids.index("2H")]] and s.piles["melds"] == [[1, 0]]
    assert "take back 2♥" in Decision(p, s).labels


@pytest.mark.parametrize("backend", BACKENDS)
def test_any_player_adds_to_a_pile_made_for_another_and_it_stays_its_owners(backend):
    p = program(backend)
    s = dealt(p)
    pick(p, s, "start a pile with 2♥")
    pick(p, s, "put 2♣ on 2♥")                  # Player 2 lays on Player 1's pile
    assert s.pvars["laid"] == [0, 2]
    assert [p.deck.display[c] for c in s.zones["melds"][0]] == ["2♥", "2♣"]
    assert s.piles["melds"][0][1] == 0          # still Player 1's


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pile_whose_last_card_leaves_it_is_gone(backend):
    p = program(backend)
    s = dealt(p)
    pick(p, s, "start a pile with 2♥")
    pick(p, s, "take back 2♥")
    assert "take back 2♥" not in Decision(p, s).labels and not any(
        label.startswith("put") for label in Decision(p, s).labels)
    pick(p, s, "start a pile with 3♥")           # the empty pile is cleared away
    assert s.piles["melds"] == [[2, 0]] and len(s.zones["melds"]) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pile_read_after_it_was_cleared_away_is_a_rules_error(backend):
    text = MELDS.replace("""                  - move: {from: "melds[0]", to: current.hand}""",
                         """                  - for_each: gone
                    in: "[melds[0]]"
                    do:
                      - move: {from: gone, to: current.hand}
                      - new_pile: {zone: melds, as: fresh}
                      - add: {current.laid: "gone.size"}
""".rstrip())
    p = program(backend, text=text)
    s = dealt(p)
    pick(p, s, "start a pile with 2♥")
    with pytest.raises(RulesFault, match="that pile is not on the table any more: its last card left it"):
        pick(p, s, "take back 2♥")


@pytest.mark.parametrize("backend", BACKENDS)
def test_gathering_a_zone_of_piles_takes_its_piles_away(backend):
    text = MELDS.replace("  until: \"true\"", "    - gather: {to: discard, from: [melds]}\n  until: \"true\"")
    p = program(backend, text=text)
    s = dealt(p)
    pick(p, s, "start a pile with 2♥")
    pick(p, s, "start a pile with 2♣")
    for _ in range(4):
        pick(p, s, "pass")
    assert s.over and s.zones["melds"] == [] and s.piles["melds"] == [] and s.made_piles == 2
    assert len(s.zones["discard"]) == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pile_of_visibility_owner_is_seen_by_its_owner_only(backend):
    p = program(backend, visibility="owner")
    s = dealt(p)
    pick(p, s, "start a pile with 2♥")
    assert view(p, s, 0)["zones"]["melds"] == [["2H"]]
    assert view(p, s, 1)["zones"]["melds"] == [[None]]
    assert view(p, s, 1)["piles"] == {"melds": [[1, 0]]}     # the pile and its owner are no secret
    imagined = determinize(p, s, 1, Rng(5))
    assert len(imagined.zones["melds"][0]) == 1 and imagined.piles == s.piles


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pile_chosen_in_one_decision_is_the_same_pile_after_a_copy_and_a_json_round_trip(backend):
    p = program(backend)
    s = dealt(p)
    pick(p, s, "start a pile with 2♥")
    pick(p, s, "start a pile with 2♣")
    for again in (s.copy(), State.from_dict(json.loads(json.dumps(s.to_dict())))):
        pick(p, again, "put 3♥ on 2♣")
        assert [p.deck.display[c] for c in again.zones["melds"][1]] == ["2♣", "3♥"]
        assert s.zones["melds"][1] == [p.deck.ids.index("2C")]      # the original untouched


def test_random_games_with_piles_are_the_same_under_both_back_ends():
    ends = {}
    for backend in BACKENDS:
        p = program(backend)
        games = []
        for seed in range(200):
            s = new_game(p, seed=seed)
            agent = RandomAgent(seed)
            while not s.over:
                apply(p, s, agent.choose(Decision(p, s)))
            games.append((s.zones, s.piles, s.result, s.log))
        ends[backend] = games
    assert ends["closures"] == ends["generated"]


def test_the_table_shows_each_pile_as_a_group_in_its_owners_row():
    text = MELDS.replace("""                  - new_pile: {zone: melds, owner: current, as: m}""",
                         """                  - new_pile: {zone: melds, owner: "current if count(current.hand) > 2 else null", as: m}""")
    p = program(text=text)
    s = dealt(p)
    pick(p, s, "start a pile with 2♥")          # Player 1's
    pick(p, s, "put 2♣ on 2♥")
    pick(p, s, "start a pile with 3♥")          # nobody's: Player 1 holds two cards
    board = layout(p, view(p, s, 1), 1, s.names, Groups(p.deck.ids), 1)
    mine = [pile for pile in board.rows[0].piles if pile.label == "melds"]
    assert [[c.text for c in g] for g in mine[0].groups] == [["2♥", "2♣"]]
    assert [[[c.text for c in g] for g in pile.groups] for pile in board.shared if pile.label == "melds"] == [[["3♥"]]]


def test_a_pile_in_a_text_reads_as_its_cards():
    p = program()
    s = dealt(p)
    pick(p, s, "start a pile with 2♥")
    assert "put 2♣ on 2♥" in Decision(p, s).labels


@pytest.mark.parametrize("old, new, message", [
    ("{piles: true,", "{piles: true, per_player: true,", "a zone of piles is shared"),
    ("new_pile: {zone: melds,", "new_pile: {zone: discard,", "'discard' is not a zone of piles"),
    ('"pile.size"', '"pile.sizee"', "piles have no attribute 'sizee' (did you mean 'size'?)"),
    ("  zone: stock", "  zone: melds", "it is a zone of piles, and its piles are made during play"),
])
def test_a_zone_of_piles_misused_is_said_where_it_is_written(old, new, message):
    assert old in MELDS
    with pytest.raises(RulesetError) as e:
        program(text=MELDS.replace(old, new))
    assert message in str(e.value)


def test_a_scenario_cannot_lay_out_a_zone_of_piles(tmp_path):
    from interpreter.authoring.scenario import run_file
    rules = tmp_path / "melds.yaml"
    rules.write_text(MELDS.replace("VISIBILITY", "public"), encoding="utf-8")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"name: s\nruleset: {rules}\nzones:\n  melds: [2♥]\nexpect: [{{that: [\"true\"]}}]\n", encoding="utf-8")
    with pytest.raises(Exception) as e:
        run_file(str(scenario))
    assert "'melds' is a zone of piles" in str(e.value)


SORTED = """
name: sorted
players: 2
deck:
  cards: [{id: a, value: 3}, {id: b, value: 1}, {id: c, value: 2}, {id: d, value: 4}]
  zone: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
flow:
  setup:
    - deal: {from: stock, to: hand, count: 2}
  round:
    - turns:
        count: 1
        do:
          - choose: current.hand
            as: card
          - sort: {zone: current.hand, by: "-each.value", as: each}
          - log: "kept {card}"
  until: "true"
result: {winners: "[]"}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_sort_binds_each_card_to_the_name_as_gives_beside_a_chosen_card(backend):
    """(The issue's smaller item: `sort` always bound `card`, which clashed with `choose ... as: card`.)"""
    p = load_program_text(SORTED, "sorted.yaml", backend=backend)
    s = new_game(p, seed=0)
    chosen = s.pending[1][0]
    apply(p, s, 0)
    values = [p.deck.attrs["value"][1][c] for c in s.zones["hand"][0]]
    assert values == sorted(values, reverse=True)
    assert [e["text"] for e in s.log if e["type"] == "log"] == [f"kept {p.deck.display[chosen]}"]


def test_sort_without_as_beside_a_chosen_card_says_to_name_it():
    with pytest.raises(RulesetError, match="'card' is already a name here; sort binds each card to 'card': "
                                           "give it another name with as:"):
        load_program_text(SORTED.replace(', as: each}', '}').replace("-each.value", "-card.value"), "sorted.yaml")
