"""cribbage, rule by rule (R.. and C.. of docs/games/cribbage.md).

`deal(p1, p2, starter)` stacks the deck with Player 1 dealing: Player 2, the non-dealer, gets
the first card; the thirteenth card is the starter.  Hands are sorted by rank, so the crib
choices read in that order.  `peg_out()` plays the first legal card until the play is over.
"""
from __future__ import annotations

import re

from conftest import Table
from interpreter.runtime.engine import prompt, refusal


def deal(p1, p2, starter, rest=""):
    p1, p2 = p1.split(), p2.split()
    return [c for pair in zip(p2, p1) for c in pair] + [starter] + rest.split()


def crib(p1, p2, starter, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("cribbage", stack=deal(p1, p2, starter), options=options, players=2)


def peg_out(t: Table) -> Table:
    while not t.over and t.legal()[0].startswith("play"):
        t.play(t.legal()[0])
    return t


# The perfect hand: Player 1 (the dealer) keeps 5♣ 5♦ 5♥ J♠ and the starter is 5♠.
P1_29, P2_29 = "5♣ 5♦ 5♥ J♠ Q♥ K♥", "A♠ 2♠ 3♠ 4♠ 9♥ 10♥"
# A play full of runs: Player 2 keeps 4♣ 5♣ 7♣ K♣, Player 1 keeps 3♦ 6♦ 9♦ K♦.
P1_RUN, P2_RUN = "A♠ 2♠ 3♦ 6♦ 9♦ K♦", "A♥ 2♥ 4♣ 5♣ 7♣ K♣"


def run_deal(**options) -> Table:
    t = crib(P1_RUN, P2_RUN, "Q♥", **options)
    return t.play("put A♥ 2♥ in the crib", "put A♠ 2♠ in the crib")


def show(t: Table, whose: str) -> str:
    line = next(x for x in t.text().splitlines() if x.startswith(whose))
    return line.split(": ", 1)[1]


def test_two_players_three_or_four_and_a_52_card_pack_with_face_cards_worth_ten():  # R1, R2
    t = crib(P1_29, P2_29, "5♠")
    assert t.program.players == (2, 4, 2) and len(t.program.deck.display) == 52
    values = dict(zip(t.program.deck.display, t.program.deck.attrs["value"][1]))
    assert [values[c] for c in ["A♠", "9♠", "10♠", "J♠", "Q♠", "K♠"]] == [1, 9, 10, 10, 10, 10]


def test_six_cards_each_and_the_deal_alternates():                              # R3, C3
    t = crib(P1_29, P2_29, "5♠")
    assert t.zone("hand", 0) == P1_29.split() and t.zone("hand", 1) == P2_29.split()
    assert "Player 1 deals; the crib is Player 1's" in t.text()
    t.play("put 9♥ 10♥ in the crib", "put Q♥ K♥ in the crib")
    peg_out(t)
    assert "Player 2 deals; the crib is Player 2's" in t.text()


def test_each_player_lays_two_cards_away_to_the_dealers_crib():               # R4, R15
    t = crib(P1_29, P2_29, "5♠")
    assert t.deciding == 1 and len(t.legal()) == 15             # every pair of six cards
    t.play("put 9♥ 10♥ in the crib")
    assert t.deciding == 0 and t.zone("hand", 1) == "A♠ 2♠ 3♠ 4♠".split()
    t.play("put Q♥ K♥ in the crib")
    assert sorted(t.zone("crib")) == sorted("9♥ 10♥ Q♥ K♥".split())
    from interpreter import view
    assert view(t.program, t.state, 0)["zones"]["crib"].count(None) == 4    # face down, even to the dealer


def test_both_may_lay_away_at_once_neither_seeing_the_others_cards():         # R4, C4
    t = crib(P1_29, P2_29, "5♠", lay_away="together")
    assert t.deciding == 0 and len(t.legal()) == 15             # Player 1 is asked first, dealer or not
    assert prompt(t.program, t.state) == "Lay two cards away to your own crib"
    t.play("put Q♥ K♥ in the crib")
    assert t.deciding == 1 and t.zone("hand", 0) == P1_29.split()   # nothing moves before both chose
    assert prompt(t.program, t.state) == "Lay two cards away to Player 1's crib"
    t.play("put 9♥ 10♥ in the crib")
    assert sorted(t.zone("crib")) == sorted("9♥ 10♥ Q♥ K♥".split())
    assert t.zone("hand", 0) == "5♣ 5♦ 5♥ J♠".split() and t.zone("starter") == ["5♠"]
    assert t.deciding == 1 and "Player 2 lays two cards away to the crib" in t.text()
    peg_out(t)                                                   # next hand: Player 2 deals, Player 1 still first
    assert "Player 2 deals; the crib is Player 2's" in t.text() and t.deciding == 0


def test_the_question_says_whose_crib_the_cards_go_to():                       # R4
    t = crib(P1_29, P2_29, "5♠")
    assert prompt(t.program, t.state) == "Lay two cards away to Player 1's crib"
    t.play("put 9♥ 10♥ in the crib")
    assert prompt(t.program, t.state) == "Lay two cards away to your own crib"


def test_the_starter_is_turned_and_a_jack_gives_the_dealer_his_heels():       # R5
    t = crib(P1_29, P2_29, "J♦").play("put 9♥ 10♥ in the crib", "put Q♥ K♥ in the crib")
    assert t.zone("starter") == ["J♦"]
    assert "Player 1 pegs 2 for his heels (2)" in t.text() and t.pvar("score", 0) == 2
    t = crib(P1_29, P2_29, "5♠").play("put 9♥ 10♥ in the crib", "put Q♥ K♥ in the crib")
    assert t.pvar("score", 0) == 0


def test_the_non_dealer_leads_and_the_count_may_not_pass_31():                  # R6
    t = run_deal()
    assert t.deciding == 1 and t.legal() == ["play 4♣", "play 5♣", "play 7♣", "play K♣"]
    t.play("play 4♣", "play 6♦", "play 5♣", "play 3♦", "play 7♣")
    assert "Player 2 plays 7♣: 25" in t.text()
    assert "Player 1 says go" in t.text()                        # 9♦ and K♦ would pass 31


def test_a_card_that_would_pass_31_is_refused_with_the_reason():                # R6
    t = run_deal().play("play 4♣", "play 6♦", "play 5♣", "play 9♦")
    assert t.var("total") == 24 and t.deciding == 1
    assert t.legal() == ["play 7♣"]
    assert refusal(t.program, t.state, "K♣") == ("play K♣", "K♣ would take the count past 31 (24 + 10)")
    assert prompt(t.program, t.state) == "The count is 24: play a card without passing 31"


def test_a_player_who_cannot_play_says_go_and_the_other_plays_on():           # R7
    t = crib("A♠ 2♠ 3♦ 6♦ 9♦ K♦", "A♥ 2♥ 4♣ 5♣ 2♣ A♣", "Q♥")
    t.play("put A♥ 2♥ in the crib", "put A♠ 2♠ in the crib")
    t.play("play 5♣", "play K♦", "play 4♣", "play 9♦")      # 28: Player 2 holds A♣ 2♣
    assert t.var("total") == 28 and t.deciding == 1
    t.play("play 2♣")                                        # 30: Player 1 cannot play
    assert "Player 1 says go" in t.text()
    assert t.deciding == 1 and t.legal() == ["play A♣"]      # Player 2 plays on
    t.play("play A♣")
    assert "Player 2 pegs 2 for thirty-one (2)" in t.text() and "for the go" not in t.text()


def test_the_last_to_play_pegs_one_for_the_go_and_the_other_leads_again():    # R8
    t = run_deal().play("play 4♣", "play 6♦", "play 5♣", "play 3♦", "play 7♣")
    assert "Player 2 pegs 1 for the go" in t.text()
    assert t.var("total") == 0 and t.deciding == 0 and t.legal() == ["play 9♦", "play K♦"]


def test_fifteens_pairs_and_runs_in_the_play():                                 # R9
    t = run_deal().play("play 4♣", "play 6♦", "play 5♣")
    assert "Player 2 pegs 2 for fifteen (2)" in t.text() and "Player 2 pegs 3 for a run of 3 (5)" in t.text()
    t.play("play 3♦")
    assert "Player 1 pegs 4 for a run of 4 (4)" in t.text()      # 4 6 5 3: a run in any order
    t.play("play 7♣")
    assert "Player 2 pegs 5 for a run of 5 (10)" in t.text()


def test_pairs_royal_and_double_pairs_royal_in_the_play():                      # R9
    t = crib("6♥ 6♠ 9♦ 10♦ J♦ Q♦", "6♣ 6♦ 2♥ 3♥ 4♥ 5♥", "K♠")
    t.play("put 4♥ 5♥ in the crib", "put J♦ Q♦ in the crib")
    t.play("play 6♣", "play 6♥")
    assert "Player 1 pegs 2 for a pair (2)" in t.text()
    t.play("play 6♦")
    assert "Player 2 pegs 6 for a pair royal (6)" in t.text()
    t.play("play 6♠")
    assert "Player 1 pegs 12 for a double pair royal (14)" in t.text()


def test_thirty_one_pegs_two_and_the_last_card_one():                           # R10
    t = crib("8♦ 8♠ 3♦ 4♦ K♠ Q♠", "7♣ 8♥ A♣ 2♣ K♥ Q♥", "9♥")
    t.play("put Q♥ K♥ in the crib", "put Q♠ K♠ in the crib")
    t.play("play 7♣", "play 8♦", "play 8♥", "play 8♠")
    text = t.text()
    assert "Player 1 pegs 2 for fifteen (2)" in text and "Player 1 pegs 6 for a pair royal (8)" in text
    assert "Player 1 pegs 2 for thirty-one (10)" in text and t.var("total") == 0
    assert "Player 1 pegs 1 for the go" not in text               # 31 takes the place of the go
    t.play("play A♣", "play 3♦", "play 2♣", "play 4♦")            # A 3 2 4: a run of four, 10
    assert "Player 1 pegs 4 for a run of 4 (14)" in t.text()
    assert "Player 1 pegs 1 for the last card (15)" in t.text()


def test_the_non_dealer_shows_first_then_the_dealer_then_the_crib():           # R11, R15
    t = crib(P1_29, P2_29, "5♠").play("put 9♥ 10♥ in the crib", "put Q♥ K♥ in the crib")
    lines = peg_out(t).text().splitlines()
    order = [i for i, x in enumerate(lines) if re.match(r"Player \d's (hand|crib):", x)]
    assert [lines[i].split(":")[0] for i in order] == ["Player 2's hand", "Player 1's hand", "Player 1's crib"]


def test_the_perfect_hand_counts_29():                                          # R12, R14
    t = crib(P1_29, P2_29, "5♠").play("put 9♥ 10♥ in the crib", "put Q♥ K♥ in the crib")
    peg_out(t)
    assert show(t, "Player 1's hand").endswith("fifteens 16, pairs 12, runs 0, flush 0, his nobs 1: 29")
    assert "Player 1 pegs 29 for the hand" in t.text()


def test_a_five_card_run_and_a_flush_with_the_starter():                        # R12, R13
    t = crib(P1_29, P2_29, "5♠").play("put 9♥ 10♥ in the crib", "put Q♥ K♥ in the crib")
    peg_out(t)
    assert show(t, "Player 2's hand").endswith("fifteens 2, pairs 0, runs 5, flush 5, his nobs 0: 12")


def test_a_four_card_flush_counts_in_the_hand_but_not_in_the_crib():           # R13, C2
    t = crib(P1_29, P2_29, "6♦").play("put 9♥ 10♥ in the crib", "put Q♥ K♥ in the crib")
    peg_out(t)
    assert show(t, "Player 2's hand").endswith("fifteens 2, pairs 0, runs 4, flush 4, his nobs 0: 10")
    assert show(t, "Player 1's crib").endswith("fifteens 2, pairs 0, runs 0, flush 0, his nobs 0: 2")
    t = crib(P1_29, P2_29, "6♦", crib_flush="four_too").play("put 9♥ 10♥ in the crib", "put Q♥ K♥ in the crib")
    peg_out(t)
    assert show(t, "Player 1's crib").endswith("fifteens 2, pairs 0, runs 0, flush 4, his nobs 0: 6")


def test_double_runs_count_each_run():                                          # R12
    t = crib("7♣ 7♦ 8♥ 9♠ K♦ Q♦", "A♠ 2♠ 3♠ 4♠ 9♥ 10♥", "2♦")
    t.play("put 9♥ 10♥ in the crib", "put Q♦ K♦ in the crib")
    peg_out(t)
    # 7 7 8 9 and 2: 7+8 twice and 2+... none: fifteens 4, a pair 2, two runs of three 6
    assert show(t, "Player 1's hand").endswith("fifteens 4, pairs 2, runs 6, flush 0, his nobs 0: 12")


def test_the_game_ends_the_moment_a_player_reaches_121_even_in_the_play():    # R16
    t = run_deal()
    t.state.pvars["score"][:] = [100, 119]
    t.play("play 4♣", "play 6♦", "play 5♣")                   # fifteen for Player 2: 121
    assert t.over and t.winners == [1] and t.scores == [100, 121]
    assert "Player 2 pegs 2 for fifteen and goes out with 121: Player 2 wins" in t.text()
    assert len(t.zone("hand", 1)) == 2                          # the hand is not finished


def test_the_non_dealer_counts_first_and_may_go_out_before_the_dealer():       # R11, R16
    t = crib(P1_29, P2_29, "5♠").play("put 9♥ 10♥ in the crib", "put Q♥ K♥ in the crib")
    t.state.pvars["score"][:] = [110, 105]
    peg_out(t)                                                  # Player 2 pegs 4, then shows 12
    assert t.over and t.winners == [1]
    assert "Player 1's hand" not in t.text()                    # the 29 is never counted


def test_a_short_game_to_61():                                                  # C1
    t = run_deal(target_score=61)
    t.state.pvars["score"][:] = [30, 59]
    t.play("play 4♣", "play 6♦", "play 5♣")
    assert t.over and t.scores == [30, 61]
    t = run_deal()
    t.state.pvars["score"][:] = [30, 59]
    t.play("play 4♣", "play 6♦", "play 5♣")
    assert not t.over and t.pvar("score", 1) == 64


def many(hands, extra, players, **options) -> Table:
    """Player 1 deals to `players`: the cards one at a time from Player 2 on, then `extra`
    (with three, the crib's card from the pack; then the starter)."""
    hands = [h.split() for h in hands]
    order = hands[1:] + hands[:1]
    stack = [c for cards in zip(*order) for c in cards] + extra.split()
    options.setdefault("dealer", "seat_1")
    return Table("cribbage", stack=stack, options=options, players=players)


# Three players: each keeps K, two 5-and-more cards; Player 1 also holds the A♥.
THREE = ["K♥ A♥ 5♥ 6♥ 8♥", "K♣ 5♣ 6♣ 7♣ 8♣", "K♦ 5♦ 6♦ 7♦ 8♦"]


def test_three_players_five_cards_each_one_laid_away_and_one_from_the_pack():  # R17
    t = many(THREE, "9♠ 2♠", 3)
    assert [len(t.zone("hand", s)) for s in range(3)] == [5, 5, 5] and t.zone("crib") == ["9♠"]
    assert t.deciding == 1 and t.legal() == ["put 5♣ in the crib", "put 6♣ in the crib", "put 7♣ in the crib",
                                             "put 8♣ in the crib", "put K♣ in the crib"]
    assert prompt(t.program, t.state) == "Lay a card away to Player 1's crib"
    t.play("put 8♣ in the crib", "put 8♦ in the crib", "put 8♥ in the crib")
    assert sorted(t.zone("crib")) == sorted("9♠ 8♣ 8♦ 8♥".split()) and t.zone("starter") == ["2♠"]
    assert "Player 3 cuts and Player 1 turns up the starter: 2♠" in t.text()    # the dealer's right
    assert t.deciding == 1                                       # the dealer's left leads


def test_with_three_the_next_who_can_play_plays_on_after_a_go():               # R17, R7, R10
    t = many(THREE, "9♠ 2♠", 3).play("put 8♣ in the crib", "put 8♦ in the crib", "put 8♥ in the crib")
    t.play("play K♣", "play K♦", "play K♥")                      # 30: pair, pair royal
    assert "Player 3 pegs 2 for a pair (2)" in t.text() and "Player 1 pegs 6 for a pair royal (6)" in t.text()
    assert "Player 2 says go\nPlayer 3 says go" in t.text()     # neither can play: each says go
    assert t.deciding == 0 and t.legal() == ["play A♥"]
    t.play("play A♥")
    assert "Player 1 pegs 2 for thirty-one (8)" in t.text() and t.deciding == 1


def test_with_three_the_hands_are_shown_from_the_dealers_left():               # R17, R11
    t = many(THREE, "9♠ 2♠", 3).play("put 8♣ in the crib", "put 8♦ in the crib", "put 8♥ in the crib")
    lines = peg_out(t).text().splitlines()
    order = [x.split(":")[0] for x in lines if re.match(r"Player \d's (hand|crib):", x)]
    assert order == ["Player 2's hand", "Player 3's hand", "Player 1's hand", "Player 1's crib"]


FOUR = ["K♥ 2♥ 3♥ 4♥ 9♠", "5♣ 2♣ 3♣ 4♣ 9♣", "10♦ 2♦ 3♦ 4♦ 9♦", "A♠ 2♠ 3♠ 4♠ 9♥"]


def test_with_four_partners_peg_on_one_score_and_win_together():               # R17
    t = many(FOUR, "Q♠", 4)
    assert [len(t.zone("hand", s)) for s in range(4)] == [5] * 4 and t.zone("crib") == []
    t.play("put 9♣ in the crib", "put 9♦ in the crib", "put 9♥ in the crib", "put 9♠ in the crib")
    t.play("play 5♣", "play 10♦")                                # Player 3's fifteen
    assert "Player 3 pegs 2 for fifteen (2)" in t.text()
    assert [t.pvar("score", s) for s in range(4)] == [2, 0, 2, 0]    # Player 1 and Player 3 alike
    t = many(FOUR, "Q♠", 4, target_score=2)
    t.play("put 9♣ in the crib", "put 9♦ in the crib", "put 9♥ in the crib", "put 9♠ in the crib")
    t.play("play 5♣", "play 10♦")
    assert t.over and t.winners == [0, 2] and t.scores == [2, 0, 2, 0]
