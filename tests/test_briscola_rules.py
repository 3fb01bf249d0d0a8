"""briscola, rule by rule (R.. and C.. of docs/games/briscola.md).

`briscola(p1, p2, up, rest)` stacks the deck for two players with Player 1 dealing: Player 2,
after the dealer, gets the first card and leads first; then the turned-up card `up`, then the
stock in the order it is drawn (`rest`, the trick's winner drawing first).  `place()` sets up
the last trick of a deal by hand: one card each, the points taken so far, an empty stock.
"""
from __future__ import annotations

from conftest import Table
from interpreter.runtime.engine import option_named

SUITS = "♦♥♠♣"
RANKS = ["A", "3", "K", "C", "F", "7", "6", "5", "4", "2"]
ALL = [r + s for s in SUITS for r in RANKS]


def deal(hands, up, rest=""):
    """Three cards each, one at a time from the seat after Player 1 (the dealer)."""
    hs = [h.split() for h in hands]
    n = len(hs)
    return [hs[(1 + j) % n][i] for i in range(3) for j in range(n)] + [up] + rest.split()


def briscola(p1="A♦ 2♣ 4♠", p2="3♦ K♣ 5♥", up="7♣", rest="C♦ F♦", players=2, hands=None, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    options.setdefault("deals_to_win", 1)
    return Table("briscola", stack=deal(hands or [p1, p2], up, rest), options=options, players=players)


def place(t: Table, hands, points) -> Table:
    """The last trick: seat i holds hands[i] and its side has taken points[i]."""
    ix = {d: i for i, d in enumerate(t.program.deck.display)}
    z = t.state.zones
    for seat, h in enumerate(hands):
        z["hand"][seat][:] = [ix[h]]
        z["taken"][seat][:] = []
    z["taken"][0][:] = [i for c, i in ix.items() if c not in hands and i not in z["aside"]]
    z["stock"][:] = []
    z["briscola"][:] = []
    t.state.pvars["points"][:] = list(points)
    t.state.vars.update(trick_no=len(ALL) // len(hands) - 1)
    return t.refresh()



def test_two_players_by_default_three_or_four_allowed():                       # R1
    t = briscola()
    assert t.program.players == (2, 4, 2)


def test_three_players_put_the_two_of_batons_aside():                          # R1
    t = briscola(hands=["A♦ 2♥ 4♠", "3♦ K♣ 5♥", "C♥ F♠ 6♦"], players=3)
    assert t.zone("aside") == ["2♣"]
    assert len(t.zone("stock")) == 29 and all(len(t.zone("hand", s)) == 3 for s in range(3))
    t.play_out()
    assert t.var("trick_no") == 13 and sum(t.scores) == 120


def test_four_players_partners_opposite_pool_their_tricks():                   # R1
    t = briscola(hands=["A♦ 2♥ 4♠", "3♦ K♣ 5♥", "C♥ F♠ 6♦", "7♠ 6♠ 5♠"], players=4)
    t.play("lead 3♦", "play C♥", "play 7♠", "play A♦")          # Player 1 takes 11 + 10 + 3
    assert "Player 1 takes the trick (3♦ C♥ 7♠ A♦): 24 points" in t.text()
    assert t.pvar("points", 0) == t.pvar("points", 2) == 24 and t.pvar("points", 1) == 0
    t.play_out()
    assert t.scores[0] == t.scores[2] and t.scores[1] == t.scores[3]
    assert t.scores[0] + t.scores[1] == 120


def test_forty_cards_ranked_ace_three_king_cavallo_fante_seven_to_two():        # R2
    t = briscola()
    assert sorted(t.program.deck.display) == sorted(ALL)
    power = dict(zip(t.program.deck.display, t.program.deck.attrs["power"][1]))
    assert sorted(RANKS, key=lambda r: -power[r + "♥"]) == RANKS


def test_a_card_is_typed_by_the_suit_it_is_drawn_with():                       # R2
    t = briscola()
    ids = dict(zip(t.program.deck.display, t.program.deck.ids))
    assert [ids[c] for c in ["3♦", "K♣", "C♣", "F♠"]] == ["3D", "KC", "CC", "FS"]
    i = option_named(t.program, t.state, "5h")
    assert t.legal()[i] == "lead 5♥"


def test_card_points_ace_11_three_10_king_4_cavallo_3_fante_2_make_120():      # R3
    t = briscola()
    points = dict(zip(t.program.deck.display, t.program.deck.attrs["points"][1]))
    assert [points[r + "♠"] for r in RANKS] == [11, 10, 4, 3, 2, 0, 0, 0, 0, 0]
    assert sum(points.values()) == 120


def test_three_cards_each_and_the_next_turned_up_as_briscola():               # R4
    t = briscola()
    assert sorted(t.zone("hand", 0)) == sorted("A♦ 2♣ 4♠".split())
    assert sorted(t.zone("hand", 1)) == sorted("3♦ K♣ 5♥".split())
    assert t.zone("briscola") == ["7♣"] and t.var("trump") == "C"
    assert len(t.zone("stock")) == 33
    assert "Player 1 turns up 7♣: ♣ batons are briscola" in t.text()


def test_the_player_after_the_dealer_leads_any_card_and_no_suit_need_be_followed():   # R5, C4
    t = briscola()
    assert t.deciding == 1 and sorted(t.legal()) == ["lead 3♦", "lead 5♥", "lead K♣"]
    t.play("lead 3♦")
    assert sorted(t.legal()) == ["play 2♣", "play 4♠", "play A♦"]     # a diamond is held: any card


def test_the_highest_card_of_the_suit_led_takes_the_trick():                   # R6
    t = briscola().play("lead 3♦", "play A♦")
    assert "Player 1 takes the trick (3♦ A♦): 21 points" in t.text() and t.pvar("points", 0) == 21
    assert t.deciding == 0                                           # the winner leads


def test_a_card_of_another_suit_never_wins():                                   # R6
    t = briscola().play("lead 5♥", "play A♦")
    assert "Player 2 takes the trick (5♥ A♦): 11 points" in t.text() and t.pvar("points", 1) == 11


def test_the_lowest_briscola_beats_the_highest_card_of_the_suit_led():          # R6
    t = briscola().play("lead 3♦", "play 2♣")
    assert "Player 1 takes the trick (3♦ 2♣): 10 points" in t.text()


def test_the_higher_briscola_wins_among_briscole():                              # R6
    t = briscola().play("lead K♣", "play 2♣")
    assert "Player 2 takes the trick (K♣ 2♣): 4 points" in t.text()


def test_the_winner_draws_first_then_the_other():                               # R7
    t = briscola(rest="C♦ F♦").play("lead 3♦", "play A♦")
    assert "C♦" in t.zone("hand", 0) and "F♦" in t.zone("hand", 1)
    assert len(t.zone("stock")) == 31


def test_the_last_card_drawn_is_the_turned_up_briscola():                      # R7
    t = briscola().play_until(lambda t: len(t.zone("stock")) == 1 and not t.zone("played", 0) and not t.zone("played", 1))
    t.play(t.legal()[0])
    t.play(t.legal()[0])
    winner = t.deciding                                             # the winner leads the next trick
    loser = 1 - winner
    assert t.zone("briscola") == [] and t.zone("stock") == []
    assert "7♣" in t.zone("hand", loser) and "7♣" not in t.zone("hand", winner)
    assert f"Player {loser + 1} takes the turned-up briscola 7♣" in t.text()
    assert "the stock is gone: the last tricks are played with the cards in hand" in t.text()


def test_the_deal_is_played_until_the_cards_run_out():                          # R8
    t = briscola().play_out()
    assert t.var("trick_no") == 20
    assert all(t.zone("hand", s) == [] for s in range(2)) and sum(t.scores) == 120


def test_more_than_sixty_points_wins_the_deal():                               # R9
    t = place(briscola(), ["2♦", "F♦"], [59, 59])
    t.play("lead F♦", "play 2♦")
    assert t.over and t.winners == [1] and t.scores == [59, 61]
    assert "Player 2 wins the deal with 61 points" in t.text()


def test_sixty_each_is_a_draw():                                               # R9
    t = place(briscola(), ["2♦", "F♦"], [60, 58])
    t.play("lead F♦", "play 2♦")
    assert t.over and t.winners == [] and t.scores == [60, 60]
    assert "the deal is drawn: 60 points each at the top" in t.text()


def test_with_three_players_the_most_points_win():                              # R9
    t = briscola(hands=["A♦ 2♥ 4♠", "3♦ K♣ 5♥", "C♥ F♠ 6♦"], players=3)
    t = place(t, ["2♦", "F♦", "4♦"], [50, 20, 48])
    t.play("lead F♦", "play 4♦", "play 2♦")
    assert t.winners == [0]
    assert t.scores == [50, 22, 48]


def test_a_match_is_the_best_of_three_deals():                                  # R10, C1
    t = place(briscola(deals_to_win=2), ["2♦", "F♦"], [30, 88])
    t.play("lead F♦", "play 2♦")
    assert not t.over and t.pvar("wins", 1) == 1 and t.var("deal_no") == 2
    assert t.deciding == 0                                        # Player 2 deals the second deal
    t = place(t, ["2♦", "F♦"], [30, 88])
    t.play("lead 2♦", "play F♦")
    assert t.over and t.winners == [1] and t.scores == [0, 2]


def test_a_drawn_deal_counts_for_nobody_in_a_match():                           # R10
    t = place(briscola(deals_to_win=2), ["2♦", "F♦"], [60, 58])
    t.play("lead F♦", "play 2♦")
    assert not t.over and t.pvar("wins", 0) == t.pvar("wins", 1) == 0 and t.var("deal_no") == 2


def test_the_two_of_briscola_may_be_exchanged_for_the_turned_card():            # C2
    t = briscola(trump_exchange="two").play("lead 3♦")
    assert "exchange your 2 of briscola for 7♣" in t.legal()
    t.play("exchange your 2 of briscola for 7♣")
    assert t.zone("briscola") == ["2♣"] and "7♣" in t.zone("hand", 0) and "2♣" not in t.zone("hand", 0)
    assert "Player 1 exchanges 2♣ for the turned-up 7♣" in t.text()
    assert sorted(t.legal()) == ["play 4♠", "play 7♣", "play A♦"]     # and then plays a card
    t.play("play 7♣")
    assert "Player 1 takes the trick (3♦ 7♣): 10 points" in t.text()


def test_the_seven_of_briscola_is_exchanged_only_for_a_higher_card():         # C2
    t = briscola(p1="A♦ 7♣ 4♠", p2="3♦ 5♣ 5♥", up="K♣", trump_exchange="seven").play("lead 3♦")
    assert "exchange your 7 of briscola for K♣" in t.legal()
    t = briscola(p1="A♦ 7♣ 4♠", p2="3♦ 5♣ 5♥", up="6♣", trump_exchange="seven").play("lead 3♦")
    assert not any(m.startswith("exchange") for m in t.legal())


def test_no_exchange_by_default():                                              # C2
    t = briscola().play("lead 3♦")
    assert not any(m.startswith("exchange") for m in t.legal())


def test_partners_see_each_others_cards_once_the_stock_is_gone():               # C3
    hands = ["A♦ 2♥ 4♠", "3♦ K♣ 5♥", "C♥ F♠ 6♦", "7♠ 6♠ 5♠"]
    t = briscola(hands=hands, players=4).play_until(lambda t: len(t.zone("briscola")) == 0)
    lines = [e for e in t.state.log if "shows you their cards" in (e.get("text") or "")]
    assert len(lines) == 4
    t = briscola(hands=hands, players=4, partners_look="never").play_until(lambda t: len(t.zone("briscola")) == 0)
    assert "shows you their cards" not in t.text()


def test_the_first_dealer_is_random_by_default():                              # C4
    dealers = {Table("briscola", seed=s).text().split("\n")[0] for s in range(8)}
    assert dealers == {"deal 1: Player 1 deals", "deal 1: Player 2 deals"}
