"""whist, rule by rule (R.. and C.. of docs/games/whist.md).

`deal(hands)` stacks the deck with Player 1 (seat 0) dealing: the cards go one at a time round
the table from Player 2, on the dealer's left, so the last card listed for Player 1 is the one
turned up (2♥: hearts are trumps).  `last_trick(...)` jumps from the first lead to the last
trick of the hand, with the tricks each player has won and the scores as given.
"""
from __future__ import annotations

from conftest import Table
from interpreter import view

SUITS = "♣♦♥♠"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in SUITS for r in RANKS]

# Players 1 & 3 hold A♥ K♥ Q♥ (three honours), Player 2 the J♥; Player 3 has no club.
P = ["2♣ 3♣ 4♣ 5♣ 2♦ 3♦ 4♦ 3♥ 4♥ A♥ 2♠ 3♠ 2♥",
     "6♣ 7♣ 8♣ 9♣ 10♣ J♣ 5♦ 6♦ 7♦ 5♥ J♥ 4♠ 5♠",
     "8♦ 9♦ 10♦ J♦ 6♥ 7♥ Q♥ K♥ 6♠ 7♠ 8♠ 9♠ 10♠",
     "Q♣ K♣ A♣ Q♦ K♦ A♦ 8♥ 9♥ 10♥ J♠ Q♠ K♠ A♠"]


def deal(hs):
    hs = [h.split() for h in hs]
    return [hs[(1 + j) % 4][i] for i in range(13) for j in range(4)]


def whist(hs=P, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("whist", stack=deal(hs), options=options, players=4)


def last_trick(t, tricks, points=(0, 0, 0, 0), honours=3, games=None, game_points=None) -> Table:
    """The last trick: Player 2 leads 6♣, Player 3 plays 8♦, Player 4 takes it with the A♣,
    Player 1 plays 2♣.  Seat i has won tricks[i] tricks before it (12 in all)."""
    assert sum(tricks) == 12
    last = ["2♣", "6♣", "8♦", "A♣"]
    ix = {d: i for i, d in enumerate(t.program.deck.display)}
    z = t.state.zones
    for seat in range(4):
        z["hand"][seat][:] = [ix[last[seat]]]
        z["taken"][seat][:] = []
    z["turnup"][:] = []
    z["stock"][:] = [ix[c] for c in DECK if c not in last]
    t.state.pvars["tricks"] = list(tricks)
    t.state.pvars["points"] = list(points)
    t.state.pvars["began"] = list(points)
    if games is not None:
        t.state.pvars["games"] = list(games)
    if game_points is not None:
        t.state.pvars["game_points"] = list(game_points)
    t.state.vars.update(trick_no=13, honours_1=honours)
    return t.refresh()


def end_hand(t):
    return t.play("lead 6♣", "play 8♦", "play A♣", "play 2♣")


def test_four_players_in_two_partnerships_opposite():                            # R1
    t = whist()
    assert t.program.players == (4, 4, 4)
    end_hand(last_trick(t, [3, 3, 3, 3], honours=2))
    assert t.pvar("points", 1) == t.pvar("points", 3) == 1 and t.pvar("points", 0) == 0


def test_the_deck_is_52_cards_ace_high():                                        # R2
    t = whist()
    assert sorted(t.program.deck.display) == sorted(DECK)


def test_thirteen_cards_each_dealt_from_the_dealers_left():                      # R3
    t = whist()
    for seat in range(1, 4):
        assert t.zone("hand", seat) == P[seat].split()
    assert t.zone("hand", 0) == P[0].split()[:-1] and t.zone("stock") == []


def test_the_dealers_last_card_is_turned_up_for_trumps():                         # R4
    t = whist()
    assert t.var("trump") == "H" and t.zone("turnup") == ["2♥"]
    assert "Player 1 turns up 2♥: hearts are trumps" in t.text()
    assert view(t.program, t.state, 2)["zones"]["turnup"] == ["2H"]


def test_the_dealer_takes_the_trump_card_into_hand_at_the_first_trick():          # R4
    t = whist().play("lead 6♣", "play 6♥", "play A♣")
    assert t.deciding == 0 and t.zone("turnup") == [] and "2♥" in t.zone("hand", 0)
    assert "Player 1 takes the turned-up trump into hand" in t.text()


def test_the_player_on_the_dealers_left_leads_and_others_must_follow_suit():     # R5
    t = whist()
    assert t.deciding == 1 and len(t.legal()) == 13 and t.legal()[0].startswith("lead")
    t.play("lead 6♣")
    assert len(t.legal()) == 13                                 # Player 3 has no club: any card
    t.play("play 8♦")
    assert t.legal() == ["play Q♣", "play K♣", "play A♣"]


def test_the_highest_trump_wins_the_trick():                                     # R6
    t = whist().play("lead 6♣", "play 6♥", "play A♣", "play 2♣")
    assert "Player 3 takes the trick (6♣ 6♥ A♣ 2♣)" in t.text() and t.deciding == 2


def test_without_a_trump_the_highest_card_of_the_suit_led_wins():                 # R6
    t = whist().play("lead 6♣", "play 8♦", "play A♣", "play 2♣")
    assert "Player 4 takes the trick (6♣ 8♦ A♣ 2♣)" in t.text() and t.deciding == 3


def test_each_trick_over_six_scores_a_point():                                  # R7
    t = end_hand(last_trick(whist(), [3, 4, 2, 3], honours=2))
    assert "Players 2 & 4 take 8 tricks: 2 by cards" in t.text()
    assert [t.pvar("points", s) for s in range(4)] == [0, 2, 0, 2]


def test_six_tricks_each_score_nothing():                                        # R7
    t = end_hand(last_trick(whist(), [3, 3, 3, 3], honours=2))
    assert "honours are divided" in t.text() and [t.pvar("points", s) for s in range(4)] == [0, 1, 0, 1]


def test_honours_are_counted_from_the_deal():                                    # R8
    assert whist().var("honours_1") == 3


def test_three_honours_score_two_and_four_score_four():                          # R8
    t = end_hand(last_trick(whist(), [3, 3, 3, 3], honours=3))
    assert "Players 1 & 3 held three honours: 2 points" in t.text() and t.pvar("points", 0) == 2
    t = end_hand(last_trick(whist(), [3, 3, 3, 3], honours=0))
    assert "Players 2 & 4 held four honours: 4 points" in t.text() and t.pvar("games", 1) == 1


def test_no_honours_at_one_short_of_game():                                      # R8
    t = end_hand(last_trick(whist(), [3, 3, 3, 3], points=(4, 0, 4, 0), honours=4))
    assert "Players 1 & 3 held four honours, but at 4 they do not count" in t.text()
    assert t.pvar("points", 0) == 4


def test_tricks_are_scored_before_honours():                                     # R9
    t = end_hand(last_trick(whist(), [3, 3, 3, 3], points=(3, 4, 3, 4), honours=4))
    assert "Players 2 & 4 win game 1, 5 to 3: a single" in t.text()
    assert "held four honours" not in t.text()


def test_honours_may_win_the_game():                                             # R8, R10
    t = end_hand(last_trick(whist(), [3, 3, 3, 3], points=(3, 0, 3, 0), honours=3))
    assert "Players 1 & 3 win game 1, 5 to 1: a double" in t.text()


def test_a_game_is_five_points_and_the_next_begins_at_love():                    # R10
    t = end_hand(last_trick(whist(), [2, 5, 2, 3], points=(0, 3, 0, 3), honours=2))
    assert "Players 2 & 4 win game 1, 5 to 0: a treble" in t.text()       # 7 points: beyond 5 lost
    assert "game 2 begins at love" in t.text()
    assert [t.pvar("points", s) for s in range(4)] == [0, 0, 0, 0] and t.pvar("games", 1) == 1


def test_game_points_treble_double_single():                                     # R11
    for theirs, word in [(0, "treble"), (2, "double"), (3, "single")]:
        t = end_hand(last_trick(whist(), [3, 3, 3, 3], points=(theirs, 4, theirs, 4), honours=2))
        assert f"Players 2 & 4 win game 1, 5 to {theirs}: a {word}" in t.text()


def test_the_rubber_is_the_best_of_three_games_worth_two_more():                 # R12
    t = end_hand(last_trick(whist(), [3, 3, 3, 3], points=(0, 4, 0, 4), honours=2,
                            games=[1, 1, 1, 1], game_points=[2, 1, 2, 1]))
    assert t.over and t.winners == [1, 3]
    assert "Players 2 & 4 win the rubber: 4 points (4 in games and 2 for the rubber, less 2)" in t.text()
    assert t.scores == [-4, 4, -4, 4]


def test_two_games_straight_end_the_rubber():                                    # R12
    t = end_hand(last_trick(whist(), [3, 3, 3, 3], points=(0, 4, 0, 4), honours=2,
                            games=[0, 1, 0, 1], game_points=[0, 3, 0, 3]))
    assert t.over and t.winners == [1, 3] and t.scores == [-8, 8, -8, 8]


def test_long_whist_game_score_alternative():                                    # C1
    t = end_hand(last_trick(whist(game_score=10), [3, 3, 3, 3], points=(0, 4, 0, 4), honours=2))
    assert not t.over and t.pvar("points", 1) == 5 and "win game" not in t.text()
    t = end_hand(last_trick(whist(game_score=10), [3, 3, 3, 3], points=(9, 0, 9, 0), honours=3))
    assert "at 9 they do not count" in t.text()


def test_honours_not_counted_alternative():                                      # C2
    t = end_hand(last_trick(whist(honours="not_counted"), [3, 3, 3, 3], honours=4))
    assert "honours" not in t.text() and t.pvar("points", 0) == 0


def test_one_game_alternative():                                                 # C3
    t = end_hand(last_trick(whist(match="one_game"), [3, 3, 3, 3], points=(2, 4, 2, 4), honours=2))
    assert t.over and t.winners == [1, 3] and t.scores == [-2, 2, -2, 2]


def test_game_values_no_alternative():                                           # C4
    t = end_hand(last_trick(whist(game_values="no"), [3, 3, 3, 3], points=(0, 4, 0, 4), honours=2))
    assert "win game 1, 5 to 0: one game point" in t.text() and t.pvar("game_points", 1) == 1


def test_the_deal_passes_to_the_left():                                          # R3, C5
    t = end_hand(last_trick(whist(), [3, 3, 3, 3], honours=2))
    assert "hand 2: Player 2 deals" in t.text() and t.deciding == 2
