"""holdem, rule by rule (docs/games/holdem.md).

With two players the first dealer is Player 1 (the small blind, acting first pre-flop); the
stack is the order cards leave the deck: Player 2, Player 1, Player 2, Player 1, then a burnt
card, the flop, a burnt card, the turn, a burnt card, the river.
"""
from __future__ import annotations

from conftest import Table


def he(*stack, players=2, **options) -> Table:
    options.setdefault("hands", 1)
    return Table("holdem", stack=list(stack), options=options, players=players)


def deal(p2, p1, board):
    """p2, p1: two cards each; board: five cards (burns filled in)."""
    used = {*p2, *p1, *board}
    b = [c for c in ["6♥", "9♣", "T♥", "5♥", "8♣"] if c not in used]
    return [p2[0], p1[0], p2[1], p1[1], b[0], *board[:3], b[1], board[3], b[2], board[4]]


def test_blinds_and_the_small_blind_acts_first_heads_up():
    t = he()
    assert t.pvar("chips", 0) == 99 and t.pvar("chips", 1) == 98
    assert t.legal() == ["fold", "call 1", "raise 2"]


def test_a_fold_gives_the_pot_to_the_last_player():
    t = he().play("fold")
    assert "Player 2 takes 3" in t.text()
    assert t.pvar("chips", 0) == 99 and t.pvar("chips", 1) == 101


def test_check_when_nothing_is_owed_and_the_flop_is_three_cards():
    t = he(*deal(["A♠", "A♥"], ["K♠", "K♥"], ["7♦", "8♦", "J♣", "Q♥", "5♠"])).play("call 1")
    assert t.legal() == ["check", "raise 2"]      # the big blind may raise its own blind
    t.play("check")
    assert t.zone("board") == ["7♦", "8♦", "J♣"] or sorted(t.zone("board")) == sorted(["7♦", "8♦", "J♣"])


def test_the_bet_cap_limits_raises_in_a_round():
    t = he(cap=4).play("raise 2", "raise 2", "raise 2")     # blind + 3 raises = 4 bets
    assert t.legal() == ["fold", "call 2"]


def test_the_turn_and_river_use_the_big_bet():
    t = he(*deal(["A♠", "A♥"], ["K♠", "K♥"], ["7♦", "8♦", "J♣", "Q♥", "5♠"]))
    t.play("call 1", "check", "check", "check")
    assert t.legal() == ["check", "bet 4"]


def test_showdown_best_hand_wins_by_kicker():
    t = he(*deal(["A♠", "3♥"], ["K♠", "4♥"], ["7♦", "7♣", "J♣", "Q♥", "2♠"]))
    t.play("call 1", "check", *["check"] * 6)
    assert "Player 2 wins 4" in t.text()
    assert t.pvar("chips", 1) == 102


def test_equal_hands_split_the_pot():
    t = he(*deal(["A♠", "3♥"], ["A♦", "4♥"], ["K♦", "K♣", "Q♣", "Q♥", "J♠"]))
    t.play("call 1", "check", *["check"] * 6)
    assert t.pvar("chips", 0) == 100 and t.pvar("chips", 1) == 100


def test_a_wheel_is_a_straight_and_a_flush_beats_it():
    t = he(*deal(["A♠", "2♥"], ["K♦", "9♦"], ["3♦", "4♦", "5♣", "8♦", "J♠"]))
    t.play("call 1", "check", *["check"] * 6)
    assert "Player 2 shows" in t.text() and "a straight" in t.text() and "a flush" in t.text()
    assert t.pvar("chips", 0) == 102


def test_full_house_beats_flush_and_quads_beat_full_house():
    t = he(*deal(["7♠", "7♥"], ["A♦", "9♦"], ["7♦", "4♦", "4♣", "8♦", "J♠"]))
    t.play("call 1", "check", *["check"] * 6)
    assert "a full house" in t.text() and t.pvar("chips", 1) == 102
    t = he(*deal(["7♠", "7♥"], ["4♥", "4♠"], ["7♦", "4♦", "4♣", "7♣", "J♠"]))
    t.play("call 1", "check", *["check"] * 6)
    assert "four of a kind" in t.text()


def test_all_in_then_the_board_is_dealt_out_without_betting():
    t = he(*deal(["A♠", "A♥"], ["K♠", "7♥"], ["7♦", "2♦", "J♣", "Q♥", "5♠"]), chips=4)
    assert t.legal() == ["fold", "call 1", "raise 2 (all-in)"]
    t.play("raise 2 (all-in)")
    assert t.legal() == ["fold", "call 2 (all-in)"]
    t.play("call 2 (all-in)")
    assert "the river" in t.text() and "Player 2 wins 8" in t.text()


def test_no_raise_when_everyone_else_is_all_in_under_raise_all_in_no():
    """Hand 1: Player 1 folds its small blind (5 and 7 chips); hand 2: Player 2 raises, the
    big blind re-raises all-in, and Player 2, the only one left with chips, may only call or
    fold under raise_all_in=no (the ACPC rule); by default a raise is still offered."""
    for option, legal in (("yes", ["fold", "call 1", "raise 2 (all-in)"]), ("no", ["fold", "call 1"])):
        t = he(chips=6, hands=2, raise_all_in=option).play("fold")
        assert t.pvar("chips", 0) == 5 - 2 and t.pvar("chips", 1) == 7 - 1
        t.play("raise 2").play("raise 2 (all-in)")
        assert t.legal() == legal
