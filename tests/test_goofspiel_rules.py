"""goofspiel, rule by rule (R.. and C.. of docs/games/goofspiel.md).  The prizes are stacked
top first (the first shuffle: the prizes'); the bids of one prize are a choice made together,
Player 1's then Player 2's."""
from __future__ import annotations

from conftest import Table


def goofspiel(*prizes, players=None, **options) -> Table:
    options.setdefault("cards", 4)
    return Table("goofspiel", stack=list(prizes), options=options, players=players)


def test_each_player_holds_a_suit_of_their_own_and_the_diamonds_are_the_prizes():   # R1, R2
    t = goofspiel("3D", players=3)
    assert t.zone("hand", 0) == ["A♣", "2♣", "3♣", "4♣"]
    assert t.zone("hand", 1) == ["A♥", "2♥", "3♥", "4♥"]
    assert t.zone("hand", 2) == ["A♠", "2♠", "3♠", "4♠"]
    assert t.zone("prize") == ["3♦"] and len(t.state.zones["prizes"]) == 3


def test_every_player_bids_before_any_bid_is_shown():                              # R3
    t = goofspiel("3D").play("bid 4♣")
    assert t.deciding == 1 and t.legal() == ["bid A♥", "bid 2♥", "bid 3♥", "bid 4♥"]
    assert t.zone("bid", 0) == [] and t.zone("hand", 0) == ["A♣", "2♣", "3♣", "4♣"]
    assert "4♣" not in t.text()


def test_the_highest_bid_takes_the_prize_worth_its_number():                       # R4
    t = goofspiel("3D", "AD").play("bid 2♣", "bid 4♥")
    assert t.pvar("points", 1) == 3 and t.zone("won", 1) == ["3♦"]
    assert "Player 2 takes 3♦ with 4♥" in t.text()


def test_a_tied_highest_bid_sets_the_prize_aside():                                # R4, C3
    t = goofspiel("3D", "AD", players=3).play("bid 4♣", "bid 4♥", "bid A♠")
    assert [t.pvar("points", p) for p in range(3)] == [0, 0, 0]
    assert t.zone("set_aside") == ["3♦"] and t.zone("prize") == ["A♦"]


def test_a_tied_prize_carried_goes_with_the_next():                                # C3
    t = goofspiel("3D", "AD", tie="carried").play("bid 4♣", "bid 4♥")
    assert t.zone("prize") == ["3♦", "A♦"]
    t.play("bid A♣", "bid 3♥")
    assert t.pvar("points", 1) == 4


def test_bids_are_spent_face_up():                                                 # R5
    t = goofspiel("3D", "AD").play("bid 2♣", "bid 4♥")
    assert t.zone("spent", 0) == ["2♣"] and t.zone("spent", 1) == ["4♥"]
    assert t.legal() == ["bid A♣", "bid 3♣", "bid 4♣"]


def test_the_most_points_wins_when_the_prizes_are_gone():                          # R6
    t = goofspiel("4D", "3D", "2D", "AD").play(
        "bid 4♣", "bid A♥", "bid 3♣", "bid 2♥", "bid 2♣", "bid 3♥", "bid A♣", "bid 4♥")
    assert t.over and t.scores == [7, 3] and t.winners == [0]


def test_the_prizes_may_come_in_order():                                           # C2
    t = Table("goofspiel", options={"cards": 4, "prize_order": "ascending"})
    assert t.zone("prize") == ["A♦"]
    t = Table("goofspiel", options={"cards": 4, "prize_order": "descending"})
    assert t.zone("prize") == ["4♦"]


def test_thirteen_cards_a_suit_by_default():                                       # C1
    t = Table("goofspiel")
    assert len(t.zone("hand", 0)) == 13 and len(t.state.zones["prizes"]) == 12
