"""rummy_500, rule by rule (docs/games/rummy_500.md).

`deal(p1, p2, up, rest)` stacks the deck for two players with Player 1 dealing (option
dealer=seat_1): Player 2 gets the first card and plays first; `up` starts the discard pile and
`rest` is the top of the stock, in the order it is drawn.
"""
from __future__ import annotations

from conftest import Table

P1 = "2♦ 3♦ 4♦ 6♦ K♠ Q♠ J♣ 10♣ 7♠ 6♠ 10♦ 5♣ 2♠"
P2 = "5♥ 6♥ 7♥ 9♦ 9♥ 9♠ 2♣ 3♣ 4♣ K♦ A♥ Q♥ 8♣"


def deal(p1, p2, up, rest):
    p1, p2 = p1.split(), p2.split()
    return [c for pair in zip(p2, p1) for c in pair] + [up] + rest.split()


def rum(p1=P1, p2=P2, up="J♦", rest="K♥ A♠ 3♠", **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("rummy_500", stack=deal(p1, p2, up, rest), options=options, players=2)


def test_thirteen_cards_each_to_two_players_and_one_starts_the_discard_pile():
    t = rum()
    assert sorted(t.zone("hand", 0)) == sorted(P1.split()) and len(t.zone("hand", 1)) == 13
    assert t.zone("discard") == ["J♦"] and t.deciding == 1
    assert t.legal()[0] == "draw from the stock"


def test_seven_cards_each_to_three_or_four_players():
    for n in (3, 4):
        t = Table("rummy_500", options={"dealer": "seat_1"}, players=n)
        assert all(len(t.zone("hand", i)) == 7 for i in range(n))


def test_a_discard_card_may_be_taken_only_if_it_can_be_melded_at_once():
    t = rum()          # J♦ melds with nothing of Player 2's
    assert "take J♦ from the discard pile" not in t.legal()
    t = rum(up="9♣")   # 9♣ makes a set with 9♦ 9♥ 9♠
    assert "take 9♣ from the discard pile" in t.legal()


def test_the_deepest_card_taken_must_be_melded_first():
    t = rum(up="9♣").play("take 9♣ from the discard pile")
    assert not any(x.startswith("discard") for x in t.legal())
    assert t.legal() and all("9♣" in x for x in t.legal())
    t.play(next(x for x in t.legal() if x.startswith("meld") and "9♣" in x))
    assert any(x.startswith("discard") for x in t.legal())


def test_the_top_card_may_be_taken_freely_as_an_option():
    assert "take J♦ from the discard pile" in rum(discard_take="top_free").legal()
    assert "take J♦ from the discard pile" in rum(discard_take="free").legal()


def test_a_card_deep_in_the_spread_pile_is_taken_with_all_above_it():
    t = rum(up="9♣", rest="K♥ A♠ 3♠").play("draw from the stock", "discard K♥")
    t.play("draw from the stock", "discard A♠")          # the pile: 9♣ K♥ A♠
    assert t.zone("discard") == ["9♣", "K♥", "A♠"]
    t.play("take 9♣ K♥ A♠ from the discard pile")
    assert t.zone("discard") == [] and "K♥" in t.zone("hand", 1) and "A♠" in t.zone("hand", 1)


def test_a_meld_is_a_pile_on_the_table_owned_by_its_maker_and_scores_for_them():
    t = rum().play("draw from the stock", "meld 5♥ 6♥ 7♥")
    assert t.pvar("laid", 1) == 18
    assert t.state.piles["melds"][0][1] == 1


def test_any_player_may_lay_off_on_anyones_meld_and_scores_the_card():
    t = rum(rest="K♥ 8♥ 3♠").play("draw from the stock", "meld 5♥ 6♥ 7♥", "discard K♥")
    t.play("draw from the stock")                          # Player 1 draws 8♥
    laid = [x for x in t.legal() if x.startswith("lay 8♥ off")]
    assert laid == ["lay 8♥ off on 5♥ 6♥ 7♥"] and not any(x.startswith("lay 5♣") for x in t.legal())
    t.play(laid[0])
    assert t.pvar("laid", 0) == 8 and t.pvar("laid", 1) == 18
    assert t.state.piles["melds"][0][1] == 1               # still Player 2's meld


def test_a_set_takes_a_fourth_card_but_no_fifth():
    t = rum(rest="K♥ 9♣ 3♠").play("draw from the stock", "meld 9♦ 9♥ 9♠", "discard K♥")
    t.play("draw from the stock")
    assert "lay 9♣ off on 9♦ 9♥ 9♠" in t.legal()


def test_the_ace_is_high_or_low_in_runs_and_a_low_ace_scores_one():
    t = rum(p2="A♥ 2♥ 3♥ Q♦ K♦ 9♥ 9♠ 2♣ 3♣ 4♣ K♣ Q♣ 8♣", rest="A♦ 5♠ 3♠")
    t.play("draw from the stock")
    assert "meld Q♦ K♦ A♦" in t.legal() or "meld A♦ Q♦ K♦" in t.legal()
    t.play("meld A♥ 2♥ 3♥")
    assert t.pvar("laid", 1) == 1 + 2 + 3
    t2 = rum(p2="A♥ 2♥ 3♥ Q♦ K♦ 9♥ 9♠ 2♣ 3♣ 4♣ K♣ Q♣ 8♣", rest="A♦ 5♠ 3♠", ace_runs="low")
    t2.play("draw from the stock")
    assert not any(x.startswith("meld") and "Q♦" in x and "A♦" in x for x in t2.legal())
    t.play(next(x for x in t.legal() if x.startswith("meld") and "Q♦" in x and "A♦" in x))
    assert t.pvar("laid", 1) == 6 + 10 + 10 + 15


def test_several_melds_may_be_laid_in_one_turn_each_tallied_for_the_player():
    t = rum()
    t.play("draw from the stock", "meld 5♥ 6♥ 7♥", "meld 9♦ 9♥ 9♠", "meld 2♣ 3♣ 4♣")
    left = t.zone("hand", 1)
    assert len(left) == 5
    assert t.pvar("laid", 1) == 18 + 27 + 9


def test_a_random_game_runs_to_the_target_score():
    t = rum().play("draw from the stock", "meld 5♥ 6♥ 7♥", "discard K♥")
    t.play_out()
    assert t.over and max(t.scores) >= 500
