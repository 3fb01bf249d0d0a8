"""kuhn_poker, rule by rule (R.. and C.. of docs/games/kuhn_poker.md).  The deck is stacked
top first: Player 1 gets the first card, Player 2 the second."""
from __future__ import annotations

from conftest import Table


def kuhn(p1, p2, **options) -> Table:
    rest = [c for c in "JQK" if c not in (p1, p2)]
    return Table("kuhn_poker", stack=[p1, p2] + rest, options=options)


def test_each_player_antes_one_and_holds_one_card():                            # R1, R2
    t = kuhn("K", "J")
    assert t.zone("hand", 0) == ["K"] and t.zone("hand", 1) == ["J"]
    assert t.var("pot") == 2 and t.pvar("chips", 0) == -1 and t.deciding == 0


def test_player_1_checks_or_bets_first():                                     # R3
    assert kuhn("K", "J").legal() == ["check", "bet 1"]


def test_two_checks_go_to_the_showdown_and_the_higher_card_takes_the_ante():    # R4, R6
    t = kuhn("J", "Q").play("check", "check")
    assert t.over and t.scores == [-1, 1] and t.winners == [1]


def test_a_bet_is_called_or_folded():                                          # R4
    t = kuhn("K", "J").play("bet 1")
    assert t.legal() == ["call 1", "fold"]
    t.play("call 1")
    assert t.scores == [2, -2]


def test_a_fold_leaves_the_pot_to_the_other_without_a_showdown():              # R4, R6
    t = kuhn("J", "K").play("bet 1", "fold")
    assert t.scores == [1, -1] and "shows" not in t.text()


def test_after_a_check_and_a_bet_player_1_calls_or_folds():                   # R5
    t = kuhn("Q", "K").play("check", "bet 1")
    assert t.deciding == 0 and t.legal() == ["call 1", "fold"]
    t.play("call 1")
    assert t.scores == [-2, 2]


def test_more_hands_add_up_and_the_first_player_changes():                     # C1
    t = Table("kuhn_poker", options={"hands": 2}, stacks=[["K", "J", "Q"], ["K", "J", "Q"]])
    t.play("check", "check")
    assert not t.over and t.deciding == 1
    t.play("check", "check")
    assert t.over and t.scores == [0, 0]
