"""crazy_eights, rule by rule (R.. and C.. of docs/games/crazy_eights.md).

`deal(p1, p2, starter, rest)` stacks the deck for two players with Player 1 dealing: Player 2,
on the dealer's left, gets the first card and plays first.
"""
from __future__ import annotations

from conftest import Table
from interpreter.runtime.engine import prompt


def deal(p1, p2, starter, rest=""):
    p1, p2 = p1.split(), p2.split()
    return [c for pair in zip(p2, p1) for c in pair] + [starter] + rest.split()


P1 = "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 9♣"
P2 = "2♦ 3♦ 4♦ 5♦ 6♦ 8♥ K♠"


def c8(p1=P1, p2=P2, starter="7♦", rest="", **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("crazy_eights", stack=deal(p1, p2, starter, rest), options=options, players=2)


def test_two_to_seven_players_four_by_default():                               # R1
    assert Table("crazy_eights").program.players == (2, 7, 4)
    assert len(Table("crazy_eights").program.deck.display) == 52


def test_the_deal_starts_on_the_dealers_left_who_plays_first():                # R2, R5
    t = c8()
    assert sorted(t.zone("hand", 1)) == sorted(P2.split()) and t.deciding == 1


def test_three_or_more_players_get_five_cards_each():                          # R3, C1
    def dealt(**options):
        t = Table("crazy_eights", options={"dealer": "seat_1", **options}, players=3)
        return [len(e["text"].split()) - 3 for e in t.state.log if e.get("text", "").startswith("you are dealt")]
    assert dealt() == [5, 5, 5] and dealt(hand_size="seven") == [7, 7, 7]


def test_two_players_get_seven_cards_and_the_next_card_starts_the_pile():      # R3, R4, C1
    t = c8()
    assert len(t.zone("hand", 0)) == 7 and len(t.zone("hand", 1)) == 7
    assert t.zone("discard") == ["7♦"] and t.var("suit") == "D"


def test_a_card_of_the_suit_or_rank_or_an_eight_may_be_played():               # R5, R6
    t = c8()
    assert t.deciding == 1
    assert t.legal() == ["play 2♦", "play 3♦", "play 4♦", "play 5♦", "play 6♦", "play 8♥"]
    assert prompt(t.program, t.state) == "Play a card on 7♦ (diamonds to follow)"


def test_an_eight_names_the_suit_to_follow():                                   # R6
    t = c8().play("play 8♥")
    assert t.legal() == ["name clubs", "name diamonds", "name hearts", "name spades"]
    t.play("name clubs")
    assert t.var("suit") == "C" and t.deciding == 0
    assert "play 2♣" in t.legal()


def test_a_player_who_cannot_play_draws_until_they_can():                      # R7, C3
    t = c8(p1="3♠ 4♠ 5♠ 6♠ 7♠ 9♠ J♠", rest="K♥ Q♥ 10♣ 9♦").play("play 2♦")
    assert t.deciding == 0
    assert "9♦" in t.zone("hand", 0) and len(t.zone("hand", 0)) == 11
    assert t.legal() == ["play 9♦"]


def test_draw_one_then_pass_alternative():                                      # C3
    t = c8(p1="3♠ 4♠ 5♠ 6♠ 7♠ 9♠ J♠", rest="K♥ Q♥", draw_rule="one_then_pass").play("play 2♦")
    assert len(t.zone("hand", 0)) == 8 and t.deciding == 1
    assert "Player 1 cannot play and passes" in t.text()


def test_drawing_one_and_passing_does_not_block_the_hand_while_the_stock_lasts():   # R8, C3
    # Both players draw one card they cannot play and pass: the stock still holds cards, so
    # the hand goes on (it once ended here as "blocked", with 33 cards in the stock).
    t = c8(p1="3♣ 4♣ 5♣ 6♣ 7♣ 9♣ J♣", p2="2♦ 3♠ 4♠ 5♠ 6♠ 9♠ K♠", rest="K♥ Q♥",
           draw_rule="one_then_pass").play("play 2♦")
    assert "Player 1 cannot play and passes" in t.text() and "Player 2 cannot play and passes" in t.text()
    assert not t.over and "blocked" not in t.text() and len(t.zone("stock")) > 0


def test_a_player_may_draw_instead_of_playing_alternative():                    # C4
    t = c8(may_draw_anyway="may_draw")
    assert t.legal()[-1] == "draw a card and pass"
    t.play("draw a card and pass")
    assert len(t.zone("hand", 1)) == 8 and t.deciding == 0
    assert "Player 2 draws" in t.text() and "Player 2 ends the turn without playing" in t.text()


def test_a_player_who_had_to_draw_plays_and_may_not_draw_again():               # R7, C4
    t = c8(p1="3♠ 4♠ 5♠ 6♠ 7♠ 9♠ J♠", rest="K♥ Q♥ 10♣ 9♦", may_draw_anyway="may_draw").play("play 2♦")
    assert len(t.zone("hand", 0)) == 11 and t.legal() == ["play 9♦"]


def test_an_eight_turned_up_to_start_is_buried():                               # C2
    t = c8(starter="8♠", rest="5♥")
    assert "8♠ is turned up and buried in the stock" in t.text()
    assert t.zone("discard")[-1] != "8♠"
    assert c8(starter="8♠", starter_eight="stands").zone("discard") == ["8♠"]


def test_a_card_that_does_not_match_is_refused_with_the_reason():               # R5
    t = c8()
    from interpreter.runtime.engine import refusal
    label, why = refusal(t.program, t.state, "K♠")
    assert label == "play K♠" and "matches neither the suit to follow (diamonds) nor the rank of 7♦" in why


def test_the_first_to_shed_every_card_wins_and_scores_the_cards_left():        # R8, R9
    t = c8()
    hand, stock = t.state.zones["hand"][1], t.state.zones["stock"]
    keep = t.program.deck.display.index("6♦")
    stock.extend(c for c in hand if c != keep)
    hand[:] = [keep]
    t.refresh()
    t.play("play 6♦")
    assert t.state.over and t.state.result["winners"] == [1]
    assert "Player 2 plays their last card and wins the hand" in t.text()
    points = dict(zip(t.program.deck.display, t.program.deck.attrs["points"][1]))
    assert t.state.result["scores"] == [0, sum(points[c] for c in t.zone("hand", 0))]


def test_draw_up_to_a_limit_then_pass_alternative():                           # C3
    spades = "3♠ 4♠ 5♠ 6♠ 7♠ 9♠ J♠"
    t = c8(p1=spades, rest="K♥ Q♥ 10♣ 9♦", draw_rule="up_to_limit").play("play 2♦")
    assert len(t.zone("hand", 0)) == 10 and "9♦" not in t.zone("hand", 0)     # three drawn, none playable
    assert t.deciding == 1 and "Player 1 cannot play and passes" in t.text()
    t = c8(p1=spades, rest="K♥ Q♥ 10♣ 9♦", draw_rule="up_to_limit", draw_limit=5).play("play 2♦")
    assert len(t.zone("hand", 0)) == 11 and t.legal() == ["play 9♦"]          # the fourth card plays


def test_keep_drawing_card_by_card_instead_of_playing_alternative():          # C4
    t = c8(rest="K♥ Q♥ 10♣", may_draw_anyway="keep_drawing")
    assert t.legal() == ["play 2♦", "play 3♦", "play 4♦", "play 5♦", "play 6♦", "play 8♥", "draw a card"]
    t.play("draw a card", "draw a card")
    assert t.deciding == 1 and len(t.zone("hand", 1)) == 9                     # still Player 2's turn
    assert t.legal()[-1] == "draw a card" and "play Q♥" not in t.legal()
    t.play("play 3♦")
    assert t.deciding == 0 and t.zone("discard")[-1] == "3♦"


def test_keep_drawing_up_to_the_limit_then_play_or_pass_alternative():       # C3, C4
    t = c8(rest="K♥ Q♥ 10♣", may_draw_anyway="keep_drawing", draw_rule="up_to_limit", draw_limit=2)
    t.play("draw a card", "draw a card")
    assert t.deciding == 1 and t.legal() == ["play 2♦", "play 3♦", "play 4♦", "play 5♦", "play 6♦",
                                             "play 8♥", "pass"]
    t.play("pass")
    assert t.deciding == 0 and len(t.zone("hand", 1)) == 9 and "Player 2 passes" in t.text()


def test_keep_drawing_a_hand_is_blocked_when_the_first_to_pass_passes_again():   # R8, C4, C5
    t = c8(may_draw_anyway="keep_drawing")
    z = t.state.zones
    z["discard"][:0], z["stock"][:] = z["stock"], []          # the stock is used up
    t.refresh()
    assert t.legal()[-1] == "pass"                              # nothing to draw: pass, though 2♦ plays
    t.play("pass", "pass")                                      # Player 1 passes holding 7♣ too
    assert not t.over and t.deciding == 1
    t.play("pass")                                              # Player 2, having seen every player pass
    assert t.over and "nobody can play: the hand is blocked, and the lowest hand wins" in t.text()


def test_a_hand_is_blocked_when_every_player_passes_in_turn_by_default():    # R8
    t = c8(p1="3♠ 4♠ 5♠ 6♠ 7♠ 9♠ J♠", p2="2♦ 3♣ 4♣ 5♣ 6♣ 9♣ K♣")
    z = t.state.zones
    z["discard"][:0], z["stock"][:] = z["stock"], []
    t.refresh().play("play 2♦")                                 # then neither can play nor draw
    assert t.over and t.text().count("cannot play and passes") == 2 and "blocked" in t.text()
