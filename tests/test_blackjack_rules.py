"""blackjack, rule by rule (R.. and C.. of docs/games/blackjack.md).

With one player, the stack is the order the cards leave the shoe: the player's first card,
the dealer's up card, the player's second card, the hole card, then the cards drawn.
"""
from __future__ import annotations

from conftest import Table


def bj(*stack, players=1, **options) -> Table:
    options.setdefault("insurance", "none")
    return Table("blackjack", stack=list(stack), options=options, players=players)


def test_the_shoe_holds_the_decks_in_play():                                    # R2, C1
    t = bj()
    assert len(t.zone("shoe")) == 6 * 52 and len(t.zone("unused")) == 2 * 52
    assert t.zone("shoe").count("Q♥") == 6
    t = bj(decks=1)
    assert len(t.zone("shoe")) == 52 and sorted(set(t.zone("shoe"))) == sorted(t.zone("shoe"))


def test_bets_are_a_range_of_chips_taken_from_the_bankroll():                 # R4, C4, C5
    t = bj()
    assert t.legal() == [f"bet {n}" for n in range(1, 11)]
    assert bj(bankroll=7).legal() == [f"bet {n}" for n in range(1, 8)]
    assert bj(max_bet=25).legal()[-1] == "bet 25"
    t = bj("10♣", "6♠", "5♦", "9♥").play("bet 5")
    assert t.pvar("bankroll", 0) == 95 and t.pvar("bet", 0) == 5


def test_two_cards_each_and_the_dealer_one_up_one_in_the_hole():              # R5
    t = bj("10♣", "6♠", "5♦", "9♥").play("bet 5")
    assert t.zone("hand", 0) == ["10♣", "5♦"] and t.zone("dealer") == ["6♠"] and t.zone("hole") == ["9♥"]
    assert "Player 1 holds 10♣ 5♦: 15" in t.text() and "the dealer shows 6♠" in t.text()


def test_an_ace_counts_eleven_unless_that_busts_the_hand():                    # R3
    t = bj("A♣", "6♠", "6♦", "9♥", "K♦").play("bet 5")
    assert "Player 1 holds A♣ 6♦: 17" in t.text()
    t.play("hit")
    assert "Player 1 gets K♦: 17" in t.text()


def test_hit_or_stand_and_a_bust_loses_at_once():                              # R7, R8, R9
    t = bj("10♣", "6♠", "5♦", "9♥", "K♦").play("bet 5")
    assert t.legal() == ["hit", "stand", "double down (another 5)"]
    t.play("hit")
    assert "Player 1 busts" in t.text() and "Player 1 went bust: loses 5" in t.text()
    assert "the dealer draws" not in t.text()                  # no hand left for the dealer to beat
    assert t.pvar("bankroll", 0) == 95


def test_the_dealer_hits_sixteen_and_stands_on_seventeen():                   # R13, R14
    t = bj("10♣", "6♠", "5♦", "9♥", "2♣", "K♦").play("bet 5", "stand")
    assert "the dealer turns up the hole card: 6♠ 9♥, 15" in t.text()
    assert "the dealer draws 2♣: 17" in t.text() and "the dealer stands on 17" in t.text()
    assert "Player 1 with 15 loses 5" in t.text() and t.pvar("bankroll", 0) == 95


def test_the_dealer_on_a_soft_seventeen():                                      # R13, C6
    t = bj("10♣", "6♠", "8♦", "A♥", "3♣").play("bet 5", "stand")
    assert "the dealer stands on 17" in t.text() and t.pvar("bankroll", 0) == 105
    t = bj("10♣", "6♠", "8♦", "A♥", "3♣", soft17="hit").play("bet 5", "stand")
    assert "the dealer draws 3♣: 20" in t.text() and t.pvar("bankroll", 0) == 95


def test_a_push_returns_the_bet():                                               # R14
    t = bj("10♣", "7♠", "7♦", "K♥").play("bet 5", "stand")
    assert "Player 1 with 17 ties: a push, the bet is returned" in t.text() and t.pvar("bankroll", 0) == 100


def test_double_down_doubles_the_bet_for_one_card():                           # R10, C9
    t = bj("5♣", "6♠", "6♦", "9♥", "K♦", "2♣").play("bet 5", "double down (another 5)")
    assert "Player 1 doubles down to 10" in t.text() and "Player 1 gets K♦: 21" in t.text()
    assert "Player 1 with 21 wins 10" in t.text() and t.pvar("bankroll", 0) == 110
    assert "double down (another 5)" in bj("5♣", "6♠", "4♦", "9♥", double="nine_to_eleven").play("bet 5").legal()
    assert bj("5♣", "6♠", "4♦", "9♥", double="ten_eleven").play("bet 5").legal() == ["hit", "stand"]


def test_a_hand_reaching_21_stands():                                           # R12
    t = bj("5♣", "6♠", "6♦", "9♥", "K♦", "2♣").play("bet 5", "hit")
    assert "Player 1 gets K♦: 21" in t.text() and "Player 1 with 21 wins 5" in t.text()


def test_a_hand_of_21_may_be_hit_alternative():                               # R12, C15
    t = bj("5♣", "6♠", "6♦", "9♥", "K♦", "2♣", twenty_one="may_hit").play("bet 5", "hit")
    assert "Player 1 gets K♦: 21" in t.text() and t.legal() == ["hit", "stand"]
    t.play("hit")
    assert "Player 1 gets 2♣: 23" in t.text() and "Player 1 busts" in t.text() and t.pvar("bankroll", 0) == 95
    t = bj("5♣", "6♠", "6♦", "9♥", "K♦", "2♣", twenty_one="may_hit").play("bet 5", "hit", "stand")
    assert "Player 1 stands on 21" in t.text() and "Player 1 with 21 wins 5" in t.text()
    t = bj("A♣", "6♠", "A♦", "9♥", "K♣", "K♦", "2♣", twenty_one="may_hit").play("bet 5", "split (another 5)")
    assert "Player 1 (hand 1) with 21 wins 5" in t.text() and t.pvar("bankroll", 0) == 110   # split aces: one card


def test_a_pair_may_be_split_into_two_hands():                                  # R11
    t = bj("8♣", "6♠", "8♦", "9♥", "3♣", "K♦", "2♣").play("bet 5")
    assert t.legal() == ["hit", "stand", "double down (another 5)", "split (another 5)"]
    t.play("split (another 5)")
    assert "Player 1 splits 8♣ 8♦ into two hands" in t.text() and "Player 1 (hand 1) gets 3♣: 11" in t.text()
    t.play("stand")
    assert "Player 1 (hand 2) gets K♦: 18" in t.text()
    t.play("stand")
    assert "Player 1 (hand 1) with 11 loses 5" in t.text() and "Player 1 (hand 2) with 18 wins 5" in t.text()
    assert t.pvar("bankroll", 0) == 100


def test_split_aces_take_one_card_each_and_21_is_not_a_blackjack():           # R3, R11
    t = bj("A♣", "6♠", "A♦", "9♥", "K♣", "K♦", "2♣").play("bet 5", "split (another 5)")
    assert "Player 1 (hand 1) with 21 wins 5" in t.text() and "Player 1 (hand 2) with 21 wins 5" in t.text()
    assert t.pvar("bankroll", 0) == 110                      # 1 to 1, not 3 to 2


def test_re_splitting_up_to_the_limit():                                       # C11
    t = bj("8♣", "6♠", "8♦", "9♥", "8♥", "K♦").play("bet 5", "split (another 5)")
    assert "split (another 5)" in t.legal()
    t = bj("8♣", "6♠", "8♦", "9♥", "8♥", "K♦", max_hands=2).play("bet 5", "split (another 5)")
    assert "split (another 5)" not in t.legal()


def test_ten_cards_of_different_ranks_make_a_pair():                          # C12
    assert "split (another 5)" in bj("K♣", "6♠", "Q♦", "9♥").play("bet 5").legal()
    assert "split (another 5)" not in bj("K♣", "6♠", "Q♦", "9♥", split_tens="same_rank").play("bet 5").legal()


def test_a_blackjack_pays_three_to_two():                                       # R14, C7
    t = bj("A♣", "6♠", "K♦", "9♥").play("bet 10")
    assert "Player 1 holds A♣ K♦: blackjack!" in t.text() and "Player 1's blackjack wins 15" in t.text()
    assert t.pvar("bankroll", 0) == 115
    assert bj("A♣", "6♠", "K♦", "9♥", blackjack_pays="six_to_five").play("bet 10").pvar("bankroll", 0) == 112


def test_the_dealer_peeks_and_a_blackjack_ends_the_deal():                     # R6
    t = bj("10♣", "A♠", "9♦", "K♥").play("bet 5")
    assert "the dealer checks the hole card: blackjack!" in t.text()
    assert "Player 1 loses 5 to the dealer's blackjack" in t.text() and t.pvar("bankroll", 0) == 95
    t = bj("A♣", "K♠", "K♦", "A♥").play("bet 10")             # blackjack against blackjack
    assert "the bet of 10 is returned" in t.text() and t.pvar("bankroll", 0) == 100


def test_insurance_pays_two_to_one():                                           # C14
    t = bj("10♣", "A♠", "9♦", "K♥", insurance="offered").play("bet 10")
    assert t.legal() == ["take insurance (5)", "no insurance"]
    t.play("take insurance (5)")
    assert "Player 1's insurance pays 10" in t.text() and t.pvar("bankroll", 0) == 100
    t = bj("10♣", "A♠", "9♦", "7♥", "K♥", insurance="offered").play("bet 10", "take insurance (5)", "stand")
    assert "Player 1 loses the insurance bet of 5" in t.text() and t.pvar("bankroll", 0) == 95 + 10


def test_without_a_hole_card_a_dealer_blackjack_takes_doubles_too():          # C8
    t = bj("5♣", "A♠", "6♦", "K♦", "K♥", hole_card="no_hole_card").play("bet 5")
    assert t.zone("hole") == [] and t.zone("dealer") == ["A♠"]
    t.play("double down (another 5)")
    assert "the dealer draws K♥: A♠ K♥, 21" in t.text() and "Player 1 loses 10 to the dealer's blackjack" in t.text()
    assert t.pvar("bankroll", 0) == 90


def test_late_surrender_returns_half_the_bet():                                 # C13
    assert "surrender (get back 2.5)" not in bj("10♣", "6♠", "6♦", "9♥").play("bet 5").legal()
    t = bj("10♣", "6♠", "6♦", "9♥", surrender="late").play("bet 5", "surrender (get back 2.5)")
    assert "Player 1 surrendered: half the bet, 2.5, is returned" in t.text() and t.pvar("bankroll", 0) == 97.5


def test_the_shoe_is_reshuffled_when_it_runs_low():                            # R2, C2
    t = bj("10♣", "6♠", "6♦", "9♥", "2♣", decks=1).play("bet 5")
    z = t.state.zones
    z["discards"].extend(z["shoe"][5:])                       # only a few cards are left
    del z["shoe"][5:]
    t.refresh().play("stand")
    assert "the shoe is low: the discards are shuffled back in" in t.text()
    assert len(t.zone("shoe")) == 52


def test_the_session_lasts_a_number_of_deals_and_most_chips_wins():          # R15, C3
    t = bj("10♣", "6♠", "J♦", "9♥", "2♣", rounds=1).play("bet 5", "stand")
    assert t.over and t.winners == [0] and t.scores == [5]
    t = bj("10♣", "6♠", "5♦", "9♥", "K♦", bankroll=1).play("bet 1", "hit")
    assert "Player 1 is out of the game" in t.text() and t.over


def test_players_play_in_turn_from_the_first_seat():                           # R7
    t = bj("10♣", "5♣", "6♠", "7♦", "8♦", "9♥", "2♣", players=2).play("bet 5", "bet 3")
    assert t.deciding == 0 and "Player 1 holds 10♣ 7♦: 17" in t.text() and "Player 2 holds 5♣ 8♦: 13" in t.text()
    t.play("stand")
    assert t.deciding == 1
