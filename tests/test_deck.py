"""The deck (docs/language.md, "The deck"): a product and listed cards together, copies per
item and from an option, a display that names a derived attribute."""
from __future__ import annotations

import pytest

from interpreter.errors import RulesetError
from interpreter.pipeline import load_program_text

UNOISH = """
name: unoish
players: 2
options:
  decks: {description: "how many decks", choices: [1, 2], default: 1}
deck:
  product:
    colour: [{id: R, name: red}, {id: G, name: green}]
    value:
      - {id: "0", copies: 1, points: 0}
      - {id: "1", copies: 2, points: 1}
      - {id: skip, copies: 2, points: 20}
  cards:
    - {id: wild, copies: 2, points: 50}
    - {id: wild4, display: "Wild +4", points: 50}
  copies: "options.decks"
  id: "{value}{colour}"
  display: "{shown}"
  attributes:
    shown: "card.value + ' ' + card.name if card.name != null else 'Wild'"
  zone: stock
zones:
  stock: {visibility: hidden}
flow:
  round: []
  until: "true"
result: {winners: "[]"}
"""


def deck(text=UNOISH, **options):
    return load_program_text(text, "unoish.yaml", options=options).deck


def test_a_product_and_listed_cards_make_one_deck_the_listed_cards_last():
    d = deck()
    assert d.ids[:5] == ("0R", "1R", "1R", "skipR", "skipR") and d.ids[-3:] == ("wild", "wild", "wild4")


def test_an_items_copies_make_that_many_of_each_card_it_is_in():
    d = deck()
    assert d.ids.count("0G") == 1 and d.ids.count("1G") == 2 and d.ids.count("wild") == 2 and len(d.ids) == 13


def test_the_decks_copies_may_come_from_an_option_and_multiply_the_items():
    d = deck(decks=2)
    assert len(d.ids) == 26 and d.ids.count("1R") == 4 and d.ids.count("wild4") == 2


def test_a_display_may_name_a_derived_attribute_and_a_listed_card_keep_its_own():
    d = deck()
    assert d.display[0] == "0 red" and d.display[-3:] == ("Wild", "Wild", "Wild +4")
    assert d.attrs["points"][1][-1] == 50


def test_copies_that_read_more_than_the_options_are_refused_at_the_copies():
    with pytest.raises(RulesetError) as e:
        deck(UNOISH.replace('copies: "options.decks"', 'copies: "options.decks * 200"'))
    assert "the deck's copies must come to a whole number from 1 to 100 under the options in force" in str(e.value)
    assert ":16:" in str(e.value)


LISTS = """
name: lists
players: 2
deck: {cards: [a, b, c, d], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  bids: {type: "list[number]", initial: "[]", show: true}
  named: {type: "list[string]", initial: "[]"}
player_variables:
  seen: {type: "list[string]", initial: "[]"}
flow:
  round:
    - turns:
        count: 4
        do:
          - choose: [1, 2, 3]
            as: bid
          - set: {bids: "bids + [bid]", current.seen: "current.seen + [text(bid)]"}
          - if: "text(bid) not in named"
            then: [set: {named: "named + [text(bid)]"}]
  until: "true"
result:
  winners: "filter(players, p => count(p.seen) == 2)"
  score: "sum(bids, b => b) + len(named)"
"""


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_a_variable_holds_a_list_of_numbers_or_of_texts(backend):
    from interpreter.runtime.engine import apply, new_game, view
    p = load_program_text(LISTS, "lists.yaml", backend=backend)
    s = new_game(p, seed=0)
    for choice in (2, 0, 2, 1):
        apply(p, s, choice)
    assert s.vars["bids"] == [3, 1, 3, 2] and s.vars["named"] == ["3", "1", "2"]
    assert s.pvars["seen"] == [["3", "3"], ["1", "2"]]
    assert s.result["scores"] == [12, 12] and view(p, s, 1)["vars"]["bids"] == [3, 1, 3, 2]


def test_a_list_of_numbers_takes_no_text():
    with pytest.raises(RulesetError, match="'[+]' joins lists of one kind, not a list of numbers and a list of strings"):
        load_program_text(LISTS.replace('"bids + [bid]"', '"bids + [text(bid)]"'), "lists.yaml")
