"""leduc_poker, rule by rule (R.. and C.. of docs/games/leduc_poker.md).  The deck is stacked
top first: Player 1's card, Player 2's card, then the board card."""
from __future__ import annotations

from conftest import Table

DECK = ["J♠", "Q♠", "K♠", "J♥", "Q♥", "K♥"]


def leduc(p1, p2, board, **options) -> Table:
    rest = [c for c in DECK if c not in (p1, p2, board)]
    return Table("leduc_poker", stack=[p1, p2, board] + rest, options=options)


def test_each_player_antes_one_and_player_1_acts_first():                     # R1, R2, R3
    t = leduc("K♠", "J♥", "Q♠")
    assert t.var("pot") == 2 and t.deciding == 0 and t.legal() == ["check", "bet 2"]


def test_facing_a_bet_a_player_calls_raises_or_folds():                        # R3
    t = leduc("K♠", "J♥", "Q♠").play("bet 2")
    assert t.legal() == ["fold", "call 2", "raise 2"]


def test_at_most_two_bets_and_raises_a_round():                                # R3
    t = leduc("K♠", "J♥", "Q♠").play("bet 2", "raise 2")
    assert t.legal() == ["fold", "call 2"]


def test_the_board_card_comes_after_the_first_round_and_bets_are_4_then():     # R4, R5
    t = leduc("K♠", "J♥", "Q♠").play("check", "check")
    assert t.zone("board") == ["Q♠"] and t.deciding == 0 and t.legal() == ["check", "bet 4"]


def test_a_fold_leaves_the_pot_to_the_other():                                 # R6
    t = leduc("J♠", "K♥", "Q♠").play("bet 2", "fold")
    assert t.over and t.scores == [1, -1]


def test_a_pair_with_the_board_beats_a_higher_card():                          # R7
    t = leduc("J♠", "K♥", "J♥").play("check", "check", "bet 4", "call 4")
    assert t.scores == [5, -5]


def test_the_higher_card_wins_without_a_pair_and_equal_ranks_split():          # R7, R8
    assert leduc("Q♠", "K♥", "J♥").play("check", "check", "check", "check").scores == [-1, 1]
    t = leduc("K♠", "K♥", "J♥").play("check", "check", "check", "check")
    assert t.scores == [0, 0] and "split the pot of 2" in t.text()


def test_more_hands_add_up_and_the_first_player_changes():                     # C1
    t = Table("leduc_poker", options={"hands": 2}, stacks=[["K♠", "J♥", "Q♠"], ["K♠", "J♥", "Q♠"]])
    t.play("bet 2", "fold")
    assert not t.over and t.deciding == 1
