"""durak, rule by rule (R.. and C.. of docs/games/durak.md).

`deal(hands, trump, rest)` stacks the deck with Player 1 dealing (option dealer=seat_1): the
deal goes round from Player 2, six cards each; then `trump` is turned up (spades with the
default Q♠) and `rest` is the top of the stock, in the order it is drawn.
"""
from __future__ import annotations

from conftest import Table
from interpreter.runtime.engine import refusal


def deal(hands, trump, rest=""):
    hands = [h.split() for h in hands]
    order = list(range(1, len(hands))) + [0]
    return [hands[p][r] for r in range(6) for p in order] + [trump] + rest.split()


THREE = ["6♣ 7♣ 10♣ 9♦ 10♦ A♠",          # Player 1
         "6♦ 7♦ K♣ 10♥ 6♥ 8♠",           # Player 2
         "7♥ 8♥ 9♣ Q♣ J♦ 7♠"]            # Player 3 holds the lowest trump, 7♠


def durak(hands=THREE, trump="Q♠", rest="", **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("durak", stack=deal(hands, trump, rest), options=options, players=len(hands))


def empty_stock(t):
    """Put the stock and the trump card out of play (with the discards): the end game."""
    z = t.state.zones
    z["beaten"].extend(z["stock"] + z["trump_card"])
    z["stock"].clear()
    z["trump_card"].clear()


def out_of_hand(t, seat, cards):
    """Set a player's hand to `cards` (the rest go to the discards)."""
    z, display = t.state.zones, t.program.deck.display
    keep = [c for c in z["hand"][seat] if display[c] in cards.split()]
    z["beaten"].extend(c for c in z["hand"][seat] if c not in keep)
    z["hand"][seat][:] = keep


def test_the_deck_is_thirty_six_cards_six_to_ace():                            # R2
    t = durak()
    assert len(t.program.deck.ids) == 36
    assert {d[:-1] for d in t.program.deck.display} == {"6", "7", "8", "9", "10", "J", "Q", "K", "A"}


def test_six_cards_each_and_the_turned_up_card_makes_trumps():                # R3
    t = durak()
    assert [sorted(t.zone("hand", p)) for p in range(3)] == [sorted(h.split()) for h in THREE]
    assert t.zone("trump_card") == ["Q♠"] and t.var("trump") == "S" and len(t.zone("stock")) == 17
    assert "spades are trumps" in t.text()


def test_the_lowest_trump_attacks_first():                                     # R4, C5
    t = durak()
    assert "Player 3 shows the lowest trump, 7♠, and attacks first" in t.text()
    assert t.deciding == 2 and t.var("defender") == 0
    assert durak(first_attacker="dealer_left").deciding == 1


def test_the_attacker_leads_any_card():                                        # R5
    t = durak()
    assert t.legal() == ["lead " + c for c in t.zone("hand", 2)]


def test_a_card_is_beaten_by_a_higher_card_of_its_suit_or_a_trump():          # R6
    t = durak().play("lead 9♣")
    assert t.deciding == 0
    assert t.legal() == ["beat 9♣ with 10♣", "beat 9♣ with A♠", "take the cards"]
    label, why = refusal(t.program, t.state, "6♣")
    assert "6♣ does not beat 9♣: play a higher club or a trump" in why
    t = durak().play("lead 7♠")                                 # a trump: only a higher trump
    assert t.legal() == ["beat 7♠ with A♠", "take the cards"]
    label, why = refusal(t.program, t.state, "10♣")
    assert "10♣ does not beat 7♠: only a higher trump beats a trump" in why


def test_others_throw_in_cards_of_the_ranks_on_the_table():                   # R7
    t = durak().play("lead 9♣", "beat 9♣ with 10♣")
    # Player 3 (the attacker) has no 9 or 10 and is not asked; Player 2 has the 10♥
    assert t.deciding == 1 and t.legal() == ["throw in 10♥", "throw in nothing"]
    t.play("throw in 10♥")
    assert t.deciding == 0 and t.legal() == ["beat 10♥ with A♠", "take the cards"]


def test_the_first_bout_holds_five_cards_at_most():                           # R8, C3
    hands = ["7♠ 8♣ 8♦ 8♥ 9♣ 9♦", "6♣ 6♦ 6♥ 7♣ 7♦ 7♥"]
    moves = ["lead 6♣", "beat 6♣ with 7♠", "throw in 6♦", "beat 6♦ with 8♦", "throw in 6♥",
             "beat 6♥ with 8♥", "throw in 7♣", "beat 7♣ with 8♣", "throw in 7♦", "beat 7♦ with 9♦"]
    t = durak(hands, first_attacker="dealer_left").play(*moves)
    assert "Player 1 has beaten off the attack: 10 cards go to the discards" in t.text()
    assert "7♥" in t.zone("hand", 1)
    t = durak(hands, first_attacker="dealer_left", first_bout_limit="six").play(*moves)
    assert t.deciding == 1 and t.legal() == ["throw in 7♥", "throw in nothing"]


def test_no_more_cards_than_the_defender_holds():                              # R8
    t = durak(["7♠ 8♣ 8♦ 8♥ 9♣ 9♦", "6♣ 6♦ 6♥ 7♣ 7♦ 7♥"], first_attacker="dealer_left")
    out_of_hand(t, 0, "8♣ 9♣")
    t.refresh().play("lead 6♣", "take the cards", "throw in 6♦")
    assert "Player 1 takes the cards: 6♣ 6♦" in t.text()         # two cards held: two cards at most


def test_the_defender_who_takes_gets_everything_and_loses_the_attack():      # R9, C6
    t = durak().play("lead 9♣", "beat 9♣ with 10♣", "throw in 10♥", "take the cards")
    # Player 1 declared taking: Player 2 (who holds no other 9 or 10) is not asked; it is over
    assert "Player 1 takes the cards: 9♣ 10♥ 10♣" in t.text()
    assert sorted(t.zone("hand", 0)) == sorted("6♣ 7♣ 9♦ 10♦ A♠ 9♣ 10♥ 10♣".split())
    assert t.var("attacker") == 1 and t.deciding == 1            # the defender's left attacks next


def test_throwing_in_after_the_take():                                          # R9, C6
    t = durak().play("lead 7♥", "take the cards")
    assert t.deciding == 2 and t.legal() == ["throw in 7♠", "throw in nothing"]     # the attacker first
    t.play("throw in nothing")
    assert t.deciding == 1 and t.legal() == ["throw in 7♦", "throw in nothing"]
    t.play("throw in 7♦")
    assert t.deciding == 2                                       # asked again: a card came in
    t = durak(throw_after_take="no").play("lead 7♥", "take the cards")
    assert "Player 1 takes the cards: 7♥" in t.text() and t.var("attacker") == 1


def test_beaten_cards_are_discarded_the_defender_attacks_next_and_all_refill():  # R10
    t = durak(rest="J♣ Q♦").play("lead 9♣", "beat 9♣ with 10♣", "throw in nothing")
    assert sorted(t.zone("beaten")) == ["10♣", "9♣"]
    assert t.var("attacker") == 0 and t.deciding == 0           # Player 1 beat it off: attacks
    assert "J♣" in t.zone("hand", 2) and len(t.zone("hand", 2)) == 6   # the attacker drew first
    assert "Q♦" in t.zone("hand", 0) and len(t.zone("hand", 0)) == 6


def test_the_trump_card_is_drawn_last():                                       # R3, R10
    t = durak(rest="J♣")
    z = t.state.zones
    z["beaten"].extend(z["stock"][:-1])                          # only J♣ is left on the stock
    del z["stock"][:-1]
    t.refresh().play("lead 9♣", "beat 9♣ with 10♣", "throw in nothing")
    assert "J♣" in t.zone("hand", 2) and "Q♠" in t.zone("hand", 0)
    assert "Player 1 takes the trump card Q♠" in t.text()


def test_the_last_player_holding_cards_is_the_durak():                         # R11, R12
    t = durak(["7♣ 8♦ 9♥ 10♥ J♥ Q♥", "6♣ 6♦ 6♥ 7♦ 7♥ 8♥"], first_attacker="dealer_left")
    empty_stock(t)
    out_of_hand(t, 0, "7♣ 8♦")
    out_of_hand(t, 1, "6♣")
    t.refresh().play("lead 6♣", "beat 6♣ with 7♣")
    assert "Player 2 is out of the game" in t.text()
    assert "Player 1 is left holding cards: Player 1 is the durak!" in t.text()
    assert t.over and t.winners == [1] and t.scores == [0, 1]


def test_going_out_together_is_a_draw():                                        # R12
    t = durak(["7♣ 8♦ 9♥ 10♥ J♥ Q♥", "6♣ 6♦ 6♥ 7♦ 7♥ 8♥"], first_attacker="dealer_left")
    empty_stock(t)
    out_of_hand(t, 0, "7♣")
    out_of_hand(t, 1, "6♣")
    t.refresh().play("lead 6♣", "beat 6♣ with 7♣")
    assert "nobody is the durak, the game is drawn" in t.text()
    assert t.over and t.winners == []


def test_the_attack_goes_on_round_the_players_still_in():                     # R13
    t = durak()
    empty_stock(t)
    out_of_hand(t, 0, "10♣")
    t.refresh().play("lead 9♣", "beat 9♣ with 10♣")
    assert "Player 1 is out of the game" in t.text()
    assert t.var("attacker") == 1 and t.var("defender") == 2     # Player 1 is out: Player 2 attacks


def test_passing_the_attack_on():                                               # C1
    assert "pass on with 9♦" not in durak().play("lead 9♣").legal()
    t = durak(variant="perevodnoy").play("lead 9♣")
    assert "pass on with 9♦" in t.legal()
    t.play("pass on with 9♦")
    assert "Player 1 adds 9♦ and passes the attack on to Player 2" in t.text()
    assert t.var("attacker") == 0 and t.var("defender") == 1 and t.deciding == 1
    assert t.legal() == ["beat 9♣ with K♣", "beat 9♣ with 8♠", "take the cards"]


def test_throw_in_by_the_neighbours_only():                                    # C2
    four = ["6♣ 7♣ 10♣ 8♦ 10♦ K♠", "6♦ 7♦ K♣ 10♥ 9♦ 8♠", "7♥ 8♥ 9♣ Q♣ J♦ 7♠", "10♠ 9♥ J♣ K♦ A♦ A♣"]
    # Player 3 attacks Player 4; Player 2 sits opposite the defender and holds the 9♦
    t = durak(four).play("lead 9♣", "beat 9♣ with A♣")
    assert t.deciding == 1 and t.legal() == ["throw in 9♦", "throw in nothing"]
    t = durak(four, throw_in="neighbours").play("lead 9♣", "beat 9♣ with A♣")
    assert "Player 4 has beaten off the attack" in t.text() and t.deciding == 3


def test_leading_several_cards_of_one_rank():                                   # C4
    t = durak(lead="same_rank").play("lead 7♥")
    assert t.deciding == 2 and t.legal() == ["lead 7♠ too", "lead no more"]
    t.play("lead 7♠ too")
    assert t.deciding == 0 and t.zone("attack") == ["7♥", "7♠"]
    assert durak().play("lead 7♥").deciding == 0
