"""war, rule by rule (R.. and C.. of docs/games/war.md).

War has no decision: the whole game is played out as the table is set up, so each test stacks
the whole deck and stops the game after a few battles with the `max_battles` option (C3).
`war(p1, p2)` lists the cards each player turns, in the order they turn them; the rest of the
deck fills both piles (at the bottom, turned last).
"""
from __future__ import annotations

from conftest import Table

RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()
DECK = [r + s for s in "♣♦♥♠" for r in RANKS]


def stack(p1, p2):
    """The deck, top first, so that the deal (one card at a time, Player 1 first, each card on
    top of the last) leaves each pile turning up the cards of p1 and p2 in order."""
    p1, p2 = p1.split(), p2.split()
    rest = [c for c in DECK if c not in p1 + p2]
    need = 26 - len(p1)
    p1, p2 = p1 + rest[:need], p2 + rest[need:]
    assert len(p1) == 26 and len(p2) == 26 and len(set(p1 + p2)) == 52
    return [c for pair in zip(reversed(p1), reversed(p2)) for c in pair]


def war(p1, p2, **options) -> Table:
    return Table("war", stack=stack(p1, p2), options=options)


def test_the_deck_is_dealt_out_26_cards_each_and_nobody_decides_anything():   # R1, R2
    t = war("K♠", "7♦", max_battles=1)
    assert t.over and t.state.result is not None
    assert "the deck is dealt: 26 cards each, face down" in t.text()
    assert len(t.zone("pile", 0)) + len(t.zone("pile", 1)) == 52
    assert "decision" not in t.text()


def test_the_higher_card_takes_both_to_the_bottom_of_its_pile():               # R3, R4, C4
    t = war("K♠ 2♣", "7♦ 3♣", max_battles=1)
    assert "Player 1 turns K♠, Player 2 turns 7♦" in t.text()
    assert "Player 1 takes 2 cards (Player 1 27, Player 2 25)" in t.text()
    assert t.zone("pile", 0)[:2] == ["7♦", "K♠"]          # bottom first: the winner's card is turned first
    assert t.zone("pile", 0)[-1] == "2♣" and t.zone("pile", 1)[-1] == "3♣"


def test_aces_are_high():                                                      # R4
    t = war("2♦", "A♣", max_battles=1)
    assert "Player 2 takes 2 cards" in t.text()


def test_a_tie_is_a_war_three_down_one_up_and_the_winner_takes_ten():          # R5, C1
    t = war("9♠ 2♣ 3♣ 4♣ K♥", "9♦ 2♦ 3♦ 4♦ 5♥", max_battles=1)
    assert "9♠ and 9♦ tie: war!" in t.text()
    assert "Player 1 lays 3 cards face down and turns K♥" in t.text()
    assert "Player 1 takes 10 cards (Player 1 31, Player 2 21)" in t.text()
    assert t.var("wars") == 1


def test_a_tie_in_the_war_is_another_war():                                    # R5
    t = war("9♠ 2♣ 3♣ 4♣ K♥ 5♣ 6♣ 7♣ 8♣", "9♦ 2♦ 3♦ 4♦ K♦ 5♦ 6♦ 8♦ 7♦", max_battles=1)
    assert t.var("wars") == 2 and t.var("stake") == 18


def test_one_card_face_down_alternative():                                     # C1
    t = war("9♠ 2♣ K♥", "9♦ 2♦ 5♥", max_battles=1, war_cards=1)
    assert "Player 1 lays 1 card face down and turns K♥" in t.text()
    assert "Player 1 takes 6 cards" in t.text()


def test_a_player_who_takes_every_card_wins():                                 # R6
    high = "A♠ A♥ A♦ A♣ K♠ K♥ K♦ K♣ Q♠ Q♥ Q♦ Q♣ J♠ J♥ J♦ J♣ 10♠ 10♥ 10♦ 10♣ 9♠ 9♥ 9♦ 9♣ 8♠ 8♥"
    low = "8♦ 8♣ 7♠ 7♥ 7♦ 7♣ 6♠ 6♥ 6♦ 6♣ 5♠ 5♥ 5♦ 5♣ 4♠ 4♥ 4♦ 4♣ 3♠ 3♥ 3♦ 3♣ 2♠ 2♥ 2♦ 2♣"
    t = war(high, low)
    assert t.winners == [0] and t.var("battles") == 26
    assert "Player 2 has no card left and loses" in t.text()
    assert t.scores == [52, 0]


def short_of_cards(**options):
    """Player 2 has won 24 battles, then both turn a queen: Player 1 has one card left."""
    p1 = "2♠ 2♥ 2♦ 2♣ 3♠ 3♥ 3♦ 3♣ 4♠ 4♥ 4♦ 4♣ 5♠ 5♥ 5♦ 5♣ 6♠ 6♥ 6♦ 6♣ 7♠ 7♥ 7♦ 7♣ Q♠ 8♣"
    p2 = "A♠ A♥ A♦ A♣ K♠ K♥ K♦ K♣ J♠ J♥ J♦ J♣ 10♠ 10♥ 10♦ 10♣ 9♠ 9♥ 9♦ 9♣ 8♠ 8♥ 8♦ Q♣ Q♥ Q♦"
    return war(p1, p2, **options)


def test_a_player_who_cannot_finish_a_war_loses():                             # R7, C2
    t = short_of_cards()
    assert "Q♠ and Q♥ tie: war!" in t.text()
    assert "Player 1 has only 1 card and cannot finish the war: Player 1 loses" in t.text()
    assert t.winners == [1]


def test_last_card_face_up_alternative():                                      # C2
    t = short_of_cards(short_war="last_card_up")
    assert "Player 1 lays 0 cards face down and turns 8♣" in t.text()
    assert "Player 2 lays 3 cards face down and turns" in t.text()
    assert t.winners == [1] and "Player 1 has no card left and loses" in t.text()


def test_at_the_cap_more_cards_wins_and_equal_piles_draw():                    # R9, C3
    t = war("K♠ 2♣ 5♥", "7♦ 3♣ 4♥", max_battles=3)
    assert t.var("capped") and t.winners == [0]
    assert "3 battles: the game stops, and Player 1 wins with more cards (27 to 25)" in t.text()
    t = war("K♠ 2♣", "7♦ 3♣", max_battles=2)
    assert t.winners == [] and "2 battles: the game stops with 26 cards each, a draw" in t.text()


def test_shuffled_pickup_puts_the_cards_won_in_the_shuffled_order():           # C4
    s = stack("K♠ 2♣", "7♦ 3♣")
    t = Table("war", stacks=[s, ["K♠", "7♦"]], options={"max_battles": 1, "pickup": "shuffled"})
    assert t.zone("pile", 0)[:2] == ["K♠", "7♦"]          # the shuffle left K♠ on top: it goes lowest
    assert t.zone("spoils") == []
    t = Table("war", stacks=[s, ["7♦", "K♠"]], options={"max_battles": 1, "pickup": "shuffled"})
    assert t.zone("pile", 0)[:2] == ["7♦", "K♠"]


def test_a_side_pile_is_turned_over_when_the_pile_runs_out():                  # C5
    t = war("K♠", "7♦", max_battles=1, won_pile="side_pile")
    assert t.zone("won", 0) == ["K♠", "7♦"] and len(t.zone("pile", 0)) == 25
    high = "A♠ A♥ A♦ A♣ K♠ K♥ K♦ K♣ Q♠ Q♥ Q♦ Q♣ J♠ J♥ J♦ J♣ 10♠ 10♥ 10♦ 10♣ 9♠ 9♥ 9♦ 9♣ 8♠ 8♥"
    low = "8♦ 8♣ 7♠ 7♥ 7♦ 7♣ 6♠ 6♥ 6♦ 6♣ 5♠ 5♥ 5♦ 5♣ 4♠ 4♥ 4♦ 4♣ 3♠ 3♥ 3♦ 3♣ 2♠ 2♥ 2♦ 2♣"
    t = war(low, high, max_battles=27, won_pile="side_pile")
    assert "Player 2 shuffles their won pile and turns it over as a new pile" not in t.text()
    assert t.winners == [1] and t.var("battles") == 26
