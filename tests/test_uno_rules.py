"""uno, rule by rule (R.. and C.. of docs/games/uno.md).

`uno(hands, turn, stock)` stacks the deck with Player 1 (seat 0) dealing: seven cards each, one
at a time from the dealer's left, then the card turned up, then the top of the draw pile.
Cards are named by id: `R7` red 7, `GS` green skip, `BR` blue reverse, `YD` yellow draw two,
`W` wild, `W4` wild draw four.
"""
from __future__ import annotations

from collections import Counter

from conftest import Table

P1 = "R1 R2 Y3 G4 B5 W GS"
P2 = "R7 Y7 G7 B7 RD W4 YS"
NO_BLUE = "R7 Y7 G7 Y2 RD W4 YS"


def uno(hands=(P1, P2), turn="R9", stock=(), **options) -> Table:
    options.setdefault("dealer", "seat_1")
    hs = [h.split() for h in hands]
    n = len(hs)
    order = list(range(1, n)) + [0]
    stack = [hs[s][i] for i in range(7) for s in order] + [turn] + list(stock)
    return Table("uno", stack=stack, options=options, players=n)


def hand(t, seat):
    return sorted(t.program.deck.ids[c] for c in t.state.zones["hand"][seat])


def top(t):
    return t.program.deck.ids[t.state.zones["discard"][-1]]


def test_the_deck_is_108_cards():                                                # R1
    t = uno()
    ids = Counter(t.program.deck.ids)
    assert len(t.program.deck.ids) == 108
    for c in "RYGB":
        assert ids[c + "0"] == 1 and all(ids[c + f] == 2 for f in "123456789SRD")
    assert ids["W"] == 4 and ids["W4"] == 4


def test_seven_cards_each_and_a_card_turned_up():                                # R2
    t = uno()
    assert hand(t, 0) == sorted(P1.split()) and hand(t, 1) == sorted(P2.split())
    assert top(t) == "R9" and len(t.state.zones["stock"]) == 108 - 15
    assert "Player 1 turns up red 9" in t.text()


def test_a_wild_draw_four_turned_up_goes_back():                                 # R2
    t = uno(turn="W4")
    assert "wild draw four is turned up and goes back into the draw pile" in t.text() and top(t) != "W4"


def test_play_starts_on_the_dealers_left():                                      # R3
    t = uno()
    assert t.deciding == 1


def test_a_skip_turned_up_skips_the_first_player():                              # R3
    t = uno(turn="RS")
    assert "Player 2 is skipped" in t.text() and t.deciding == 0


def test_a_draw_two_turned_up_makes_the_first_player_draw_and_miss():            # R3
    t = uno(turn="RD", stock=["B1", "B2"])
    assert hand(t, 1) == sorted(P2.split() + ["B1", "B2"]) and t.deciding == 0


def test_a_reverse_turned_up_lets_the_dealer_play_first_to_the_right():          # R3
    t = uno(hands=(P1, P2, "B1 B2 B3 B4 B6 B8 B9"), turn="RR")
    assert t.deciding == 0 and t.var("direction") == -1
    t.play("play red 1")
    assert t.deciding == 2


def test_a_wild_turned_up_lets_the_first_player_name_the_colour():               # R3
    t = uno(turn="W")
    assert t.deciding == 1 and t.legal() == ["name red", "name yellow", "name green", "name blue"]
    t.play("name green")
    assert t.var("colour") == "G" and t.deciding == 1 and "play green 7" in t.legal()


def test_play_a_card_of_the_colour_number_or_symbol_or_draw():                   # R4
    t = uno()
    assert t.legal() == ["play red 7", "play red draw two", "draw a card"]
    t = uno(turn="B7")
    assert t.legal() == ["play red 7", "play yellow 7", "play green 7", "play blue 7", "draw a card"]


def test_a_card_drawn_may_be_played_at_once():                                   # R4
    t = uno(stock=["R5"]).play("draw a card")
    assert t.deciding == 1 and t.legal() == ["play red 5", "keep it"]
    t.play("play red 5")
    assert top(t) == "R5" and t.deciding == 0


def test_a_card_drawn_that_cannot_be_played_ends_the_turn():                     # R4
    t = uno(stock=["B3"]).play("draw a card")
    assert t.deciding == 0 and "B3" in hand(t, 1)


def test_must_play_alternative():                                                # C4
    t = uno(draw_instead="must_play")
    assert "draw a card" not in t.legal()
    t = uno(turn="G1", hands=(P1, "R7 Y7 R3 B7 RD Y4 YS"), draw_instead="must_play")
    assert t.legal() == ["draw a card"]


def test_a_skip_makes_the_next_player_lose_a_turn():                             # R5
    t = uno(hands=(P1, "R7 RS G7 B7 RD W4 YS", "B1 B2 B3 B4 B6 B8 B9"))
    t.play("play red skip")
    assert t.deciding == 0


def test_a_reverse_changes_the_direction():                                      # R6
    t = uno(hands=(P1, "R7 RR G7 B7 RD W4 YS", "B1 B2 B3 B4 B6 B8 B9"))
    t.play("play red reverse")
    assert t.deciding == 0 and t.var("direction") == -1
    t.play("play red 1")
    assert t.deciding == 2


def test_with_two_players_a_reverse_acts_as_a_skip():                            # R6
    t = uno(hands=(P1, "R7 RR G7 B7 RD W4 YS"))
    t.play("play red reverse")
    assert t.deciding == 1


def test_a_draw_two_makes_the_next_player_draw_two_and_miss():                   # R7
    t = uno(stock=["B1", "B2"]).play("play red draw two")
    assert hand(t, 0) == sorted(P1.split() + ["B1", "B2"]) and t.deciding == 1


def test_a_wild_names_the_colour():                                              # R8
    t = uno(hands=(P1, "R7 W G7 B7 RD W4 YS"))
    t.play("play wild")
    assert t.legal() == ["name red", "name yellow", "name green", "name blue"]
    t.play("name blue")
    assert t.var("colour") == "B" and t.deciding == 0 and t.legal()[0] == "play blue 5"


def test_a_wild_draw_four_only_without_a_card_of_the_colour():                   # R9, C3
    t = uno()
    assert "play wild draw four" not in t.legal()
    t = uno(hands=(P1, NO_BLUE), turn="B9", stock=["Y1", "Y2", "Y5", "Y6"])
    assert t.legal() == ["play wild draw four", "draw a card"]
    t.play("play wild draw four", "name green")
    assert hand(t, 0) == sorted(P1.split() + ["Y1", "Y2", "Y5", "Y6"]) and t.deciding == 1


def test_the_challenge_of_a_guilty_wild_draw_four():                             # C3
    t = uno(wild_draw_four="challenge", stock=["Y1", "Y2", "Y5", "Y6"])
    t.play("play wild draw four", "name green")
    assert t.deciding == 0 and t.legal() == ["draw four", "challenge"]
    t.play("challenge")
    assert "the challenge holds" in t.text() and len(hand(t, 1)) == 6 + 4 and t.deciding == 0


def test_the_challenge_of_an_innocent_wild_draw_four():                          # C3
    t = uno(hands=(P1, NO_BLUE), turn="B9", wild_draw_four="challenge", stock=["Y1", "Y2", "Y5", "Y6", "Y8", "Y9"])
    t.play("play wild draw four", "name green", "challenge")
    assert "the challenge fails" in t.text() and len(hand(t, 0)) == 7 + 6 and t.deciding == 1


def test_an_empty_draw_pile_is_made_from_the_discards():                         # R11
    t = uno()
    t.state.zones["discard"][:0] = t.state.zones["stock"][:]
    t.state.zones["stock"][:] = []
    t.refresh().play("draw a card")
    assert "the discard pile is shuffled into a new draw pile" in t.text()
    assert top(t) == "R9" or t.deciding == 1


def test_going_out_wins_the_hand_and_scores_the_cards_left():                    # R12, R13
    t = uno(match="one_hand")
    ix = t.program.deck.ids
    t.state.zones["hand"][1][:] = [c for c in t.state.zones["hand"][1] if ix[c] == "R7"]
    t.refresh().play("play red 7")
    assert t.over and t.winners == [1]
    assert t.scores == [0, 1 + 2 + 3 + 4 + 5 + 50 + 20]
    assert "Player 2 plays their last card and wins the hand" in t.text()


def test_a_draw_two_played_last_is_still_drawn():                                # R12
    t = uno(match="one_hand", stock=["B1", "B2"])
    ix = t.program.deck.ids
    t.state.zones["hand"][1][:] = [c for c in t.state.zones["hand"][1] if ix[c] == "RD"]
    t.refresh().play("play red draw two")
    assert t.over and t.scores == [0, 1 + 2 + 3 + 4 + 5 + 50 + 20 + 1 + 2]


def test_the_first_to_500_wins():                                                # R14, C1
    t = uno()
    t.state.pvars["score"] = [0, 490]
    ix = t.program.deck.ids
    t.state.zones["hand"][1][:] = [c for c in t.state.zones["hand"][1] if ix[c] == "R7"]
    t.refresh().play("play red 7")
    assert t.over and t.winners == [1] and t.scores == [0, 490 + 85]


def test_below_the_target_another_hand_is_dealt():                               # R14, C2
    t = uno()
    ix = t.program.deck.ids
    t.state.zones["hand"][1][:] = [c for c in t.state.zones["hand"][1] if ix[c] == "R7"]
    t.refresh().play("play red 7")
    assert not t.over and t.var("hand_no") == 2 and "hand 2: Player 2 deals" in t.text()


# R10, C6: the call of "Uno", a choice made together.  Player 2 (seat 1) is left with two cards,
# red 7 and yellow 7, with Player 3 (blue only) to play after them.
THIRD = "B1 B2 B3 B4 B6 B8 B9"


def two_left(**options) -> Table:
    options.setdefault("uno_call", "race")
    t = uno(hands=(P1, P2, THIRD), stock=["B7", "Y8"], **options)
    ix = t.program.deck.ids
    t.state.zones["hand"][1][:] = [c for c in t.state.zones["hand"][1] if ix[c] in ("R7", "Y7")]
    return t.refresh().play("play red 7")


def test_by_default_nobody_calls_uno():                                          # R10, C6
    t = two_left(uno_call="none")
    assert t.deciding == 2 and t.legal() == ["draw a card"] and hand(t, 1) == ["Y7"]


def test_a_player_left_with_one_card_may_call_while_the_others_may_catch():     # R10, C6
    t = two_left()
    assert t.deciding == 1 and t.legal() == ["call Uno", "say nothing"]
    t.play("call Uno")
    assert t.deciding == 0 and t.legal() == ["catch Player 2", "say nothing"]
    assert "Player 2 calls Uno" not in t.text()              # sealed until everyone has chosen
    t.play("catch Player 2")
    assert t.deciding == 2 and t.legal() == ["catch Player 2", "say nothing"]


def test_a_player_who_calls_uno_keeps_one_card():                                # R10, C6
    t = two_left().play("call Uno", "say nothing", "say nothing")
    assert "Player 2 calls Uno" in t.text() and hand(t, 1) == ["Y7"]
    assert t.deciding == 2 and t.legal() == ["draw a card"]


def test_a_player_caught_without_calling_draws_two():                            # R10, C6
    t = two_left().play("say nothing", "say nothing", "catch Player 2")
    assert "Player 3 calls out Player 2" in t.text() and "Player 2 is caught without calling Uno" in t.text()
    assert hand(t, 1) == sorted(["Y7", "B7", "Y8"]) and t.deciding == 2


def test_a_player_who_forgets_and_is_not_caught_keeps_one_card():                # R10, C6
    t = two_left().play("say nothing", "say nothing", "say nothing")
    assert hand(t, 1) == ["Y7"] and "Player 2 does not call Uno, and nobody catches them" in t.text()
    assert "caught without" not in t.text() and t.deciding == 2


def test_a_call_and_a_catch_at_once_the_call_wins():                             # R10, C6
    t = two_left().play("call Uno", "catch Player 2", "catch Player 2")
    assert "Player 2 called Uno in time: no penalty" in t.text() and hand(t, 1) == ["Y7"]
    assert t.deciding == 2


def test_a_card_drawn_and_played_that_leaves_one_card_is_called_too():          # R10, C6
    t = uno(hands=(P1, P2, THIRD), stock=["R5"], uno_call="race")
    ix = t.program.deck.ids
    t.state.zones["hand"][1][:] = [c for c in t.state.zones["hand"][1] if ix[c] == "Y7"]
    t.refresh().play("draw a card", "play red 5")
    assert t.deciding == 1 and t.legal() == ["call Uno", "say nothing"]


def test_a_wild_names_its_colour_before_the_call():                              # R8, R10
    t = uno(hands=(P1, P2, THIRD), uno_call="race")
    ix = t.program.deck.ids
    t.state.zones["hand"][1][:] = [c for c in t.state.zones["hand"][1] if ix[c] in ("W4", "Y7")]
    t.refresh().play("play wild draw four", "name yellow")
    assert t.deciding == 1 and t.legal() == ["call Uno", "say nothing"]
