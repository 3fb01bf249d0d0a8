"""scopa, rule by rule (R.. and C.. of docs/games/scopa.md).

`deal(p1, p2, table, rest)` stacks the deck for two players with Player 1 dealing: Player 2,
on the dealer's left, gets the first card and plays first; the four table cards follow, then
the next deals (`rest`, Player 2's card first each time).  `place()` sets up the end of a hand
by hand: what each player holds and has taken, the table, and an empty stock.
"""
from __future__ import annotations

from conftest import Table
from interpreter.runtime.engine import option_named, refusal


def deal(p1, p2, table, rest=""):
    p1, p2 = p1.split(), p2.split()
    return [c for pair in zip(p2, p1) for c in pair] + table.split() + rest.split()


def scopa(p1="3♦ F♦ R♥", p2="C♠ 2♠ 7♥", table="A♦ 4♦ 4♠ 5♠", rest="", players=2, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    if players == 2:
        stack = deal(p1, p2, table, rest)
    else:
        stack = p1.split() + table.split() + rest.split()    # the caller gives the whole order
    return Table("scopa", stack=stack, options=options, players=players)


def place(t: Table, hands, taken, table=""):
    """Every card where it is said; the cards not named go to the last player's pile."""
    deck = t.program.deck.display
    ix = {d: i for i, d in enumerate(deck)}
    named = set()
    z = t.state.zones
    for seat, h in enumerate(hands):
        z["hand"][seat][:] = [ix[c] for c in h.split()]
        named |= set(h.split())
    for seat, tk in enumerate(taken):
        z["taken"][seat][:] = [ix[c] for c in tk.split()]
        named |= set(tk.split())
    z["table"][:] = [ix[c] for c in table.split()]
    named |= set(table.split())
    z["stock"][:] = []
    z["taken"][len(hands) - 1].extend(ix[c] for c in deck if c not in named)
    return t.refresh()


ALL = [r + s for s in "♦♥♠♣" for r in ["A", "2", "3", "4", "5", "6", "7", "F", "C", "R"]]


def test_partners_sitting_opposite_pool_their_captures_and_score_as_one_side():   # R1
    t = Table("scopa", options={"dealer": "seat_1"}, players=4, seed=3).play_out()
    assert t.scores[0] == t.scores[2] and t.scores[1] == t.scores[3]
    assert t.winners in ([0, 2], [1, 3])


def test_forty_cards_ace_to_king_worth_one_to_ten():                             # R2
    t = scopa()
    assert sorted(t.program.deck.display) == sorted(ALL)
    values = dict(zip(t.program.deck.display, t.program.deck.attrs["value"][1]))
    assert [values[r + "♥"] for r in ["A", "2", "7", "F", "C", "R"]] == [1, 2, 7, 8, 9, 10]


def test_a_card_is_typed_by_the_suit_it_is_drawn_with():                     # R2
    t = scopa(p2="C♠ 2♥ 5♣")
    ids = dict(zip(t.program.deck.display, t.program.deck.ids))
    assert [ids[c] for c in ["7♦", "2♥", "F♠", "C♣"]] == ["7D", "2H", "FS", "CC"]

    def named(answer):
        i = option_named(t.program, t.state, answer)
        return None if i is None else t.legal()[i]
    assert named("2h") == "lay 2♥"
    assert named("5c 5s") == "play 5♣ to take 5♠"
    assert named("cs 4d 5s") == "play C♠ to take 4♦ 5♠"


def test_three_cards_each_and_four_face_up_on_the_table():                      # R3
    t = scopa()
    assert sorted(t.zone("hand", 0)) == sorted("3♦ F♦ R♥".split())
    assert sorted(t.zone("hand", 1)) == sorted("C♠ 2♠ 7♥".split())
    assert t.zone("table") == "A♦ 4♦ 4♠ 5♠".split()
    assert len(t.zone("stock")) == 30


def test_the_player_on_the_dealers_left_plays_first():                          # R4, C5
    t = scopa()
    assert t.deciding == 1 and "Player 1 deals; the table shows A♦ 4♦ 4♠ 5♠" in t.text()


def test_a_card_captures_a_card_of_its_value_or_cards_adding_up_to_it():        # R5
    t = scopa(p2="C♠ 2♠ 5♥")
    assert t.legal() == ["play 5♥ to take 5♠", "play C♠ to take 4♦ 5♠", "play C♠ to take 4♠ 5♠",
                         "play C♠ to take A♦ 4♦ 4♠", "lay 2♠"]
    t.play("play C♠ to take A♦ 4♦ 4♠")
    assert t.zone("table") == ["5♠"] and sorted(t.zone("taken", 1)) == sorted("C♠ A♦ 4♦ 4♠".split())
    assert "Player 2 plays C♠ and takes A♦ 4♦ 4♠" in t.text()


def test_a_card_of_the_same_value_must_be_taken_before_any_sum():               # R6
    t = scopa(p2="C♠ 2♠ 5♥")
    legal = t.legal()
    assert [m for m in legal if m.startswith("play 5♥")] == ["play 5♥ to take 5♠"]
    label, why = refusal(t.program, t.state, "play 5♥ to take A♦ 4♦")
    assert why == "a card of the same value lies on the table: it must be taken, alone"


def test_a_card_that_captures_nothing_is_laid_and_one_that_can_must_capture():  # R7
    t = scopa(p2="C♠ 2♠ 5♥")
    assert "lay 2♠" in t.legal() and "lay 5♥" not in t.legal()
    assert refusal(t.program, t.state, "lay 5♥")[1] == \
        "5♥ can capture, and a card that can capture must capture: play 5♥ to take 5♠"
    assert refusal(t.program, t.state, "5h") == refusal(t.program, t.state, "lay 5♥")   # the card typed alone
    t.play("lay 2♠")
    assert t.zone("table")[-1] == "2♠" and "Player 2 lays 2♠ on the table" in t.text()


def test_sweeping_the_table_is_a_scopa_worth_a_point():                         # R8, R14
    t = scopa(table="A♦ 2♦ 3♠ 2♣", p2="F♠ 6♥ 5♥")
    t.play("play F♠ to take A♦ 2♦ 3♠ 2♣")
    assert t.zone("table") == [] and t.pvar("scope", 1) == 1
    assert "scopa! Player 2 sweeps the table" in t.text()
    assert t.legal() == ["lay 3♦", "lay F♦", "lay R♥"]            # nothing to take: a card is laid


def test_three_more_cards_each_when_the_hands_are_empty():                      # R9
    t = scopa(p1="3♦ F♦ R♥", p2="C♠ 2♠ 7♥", table="A♥ 4♦ 4♠ 5♠", rest="6♦ 6♥ 6♠ 6♣ 7♠ 7♣")
    t.play("lay 2♠", "play 3♦ to take A♥ 2♠", "lay 7♥", "play F♦ to take 4♦ 4♠", "lay C♠", "lay R♥")
    assert sorted(t.zone("hand", 1)) == sorted("6♦ 6♠ 7♠".split())
    assert sorted(t.zone("hand", 0)) == sorted("6♥ 6♣ 7♣".split())
    assert len(t.zone("stock")) == 24 and t.deciding == 1


def test_the_last_taker_takes_the_cards_left_on_the_table():                   # R10
    t = place(scopa(), hands=["A♠", "2♣"], taken=["7♦ 6♦ 3♦", ""], table="A♣ 5♣")
    t.play("lay 2♣", "play A♠ to take A♣")
    assert "Player 1 took last and takes the rest: 5♣ 2♣" in t.text()
    assert "scopa!" not in t.text() and "Player 1: 7 cards, 3 coins, primiera 0, 0 scope" in t.text()


def test_most_cards_and_most_coins_score_a_point_each_and_a_tie_scores_nobody():  # R11
    mine = "A♦ 2♦ 3♦ 4♦ 5♦ 6♦ A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ F♥ C♥ R♥ 2♠"   # 17, and 3 more to come
    t = place(scopa(), hands=["A♠", "2♣"], taken=[mine, ""], table="A♣")
    t.play("lay 2♣", "play A♠ to take A♣")
    text = t.text()
    assert "Player 1: 20 cards, 6 coins, primiera 71, 0 scope" in text
    assert "Player 1: 1 for the most coins (6)" in text
    assert "most cards" not in text                # 20 against 20


def test_the_seven_of_coins_scores_a_point():                                   # R12
    t = place(scopa(), hands=["A♠", "2♣"], taken=["7♦", ""], table="A♣")
    t.play("lay 2♣", "play A♠ to take A♣")
    assert "Player 1: 1 for the settebello" in t.text()


def test_the_primiera_adds_the_best_card_of_each_suit():                        # R13
    p1 = "7♦ 7♥ 7♠ 6♣"                          # 21 + 21 + 21 + 18 = 81
    t = place(scopa(), hands=["A♠", "2♣"], taken=[p1, ""], table="A♣")
    t.play("lay 2♣", "play A♠ to take A♣")
    assert "primiera 81" in t.text() and "Player 1: 1 for the primiera (81)" in t.text()


def test_a_side_lacking_a_suit_cannot_win_the_primiera():                       # R13
    t = place(scopa(), hands=["A♠", "2♥"], taken=["7♦ 7♥ 7♠", "C♣"], table="A♦")  # Player 1: no club
    t.play("lay 2♥", "play A♠ to take A♦")
    lines = t.text().splitlines()
    assert "Player 1: 6 cards, 2 coins, primiera 0, 0 scope" in lines
    assert "Player 2: 1 for the primiera (75)" in lines      # 6♦ 18 + 6♥ 18 + 6♠ 18 + 7♣ 21
    assert not any(line.startswith("Player 1: 1 for the primiera") for line in lines)


def test_scopa_points_add_up_and_the_game_is_won_at_eleven_with_the_lead():    # R14, C1
    t = place(scopa(), hands=["A♠", "2♣"], taken=["7♦", ""], table="A♣")
    t.state.pvars["score"][:] = [10, 5]
    t.state.pvars["scope"][:] = [2, 0]
    t.play("lay 2♣", "play A♠ to take A♣")
    assert t.over and t.winners == [0]
    assert "Player 1: 2 for scope" in t.text() and t.scores == [13, 8]


def test_a_longer_game_goes_on_past_eleven():                                   # C1
    t = place(scopa(target_score=21), hands=["A♠", "2♣"], taken=["7♦", ""], table="A♣")
    t.state.pvars["score"][:] = [10, 5]
    t.play("lay 2♣", "play A♠ to take A♣")
    assert not t.over and t.pvar("score", 0) == 11


def test_sides_tied_at_the_top_play_another_hand():                             # R14
    # Player 1 ends with 20 cards, 5 coins, the settebello, no heart; Player 2 with 20 cards,
    # 5 coins, no spade, and a scopa: one point each, 12 all, and nobody has won yet.
    p1 = "7♦ 2♦ 3♦ 4♦ 5♦ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ F♠ C♠ R♠ 3♣ 4♣ 5♣"
    t = place(scopa(), hands=["A♠", "2♣"], taken=[p1, ""], table="A♣")
    t.state.pvars["score"][:] = [11, 11]
    t.state.pvars["scope"][:] = [0, 1]
    t.play("lay 2♣", "play A♠ to take A♣")
    assert t.pvar("score", 0) == t.pvar("score", 1) == 12
    assert not t.over and "the leaders are tied at 12: another hand is played" in t.text()


def test_most_sevens_primiera_counts_sevens_then_sixes():                      # C2
    t = place(scopa(primiera="most_sevens"), hands=["A♠", "2♣"], taken=["7♦ 7♥ 6♠", ""], table="A♣")
    t.play("lay 2♣", "play A♠ to take A♣")
    # Player 2 holds the other two sevens and three sixes: equal sevens, Player 2 more sixes
    assert any(line.startswith("Player 2: 1 for the primiera") for line in t.text().splitlines())
    t = place(scopa(primiera="most_sevens"), hands=["A♠", "2♣"], taken=["7♦ 7♥ 7♠", ""], table="A♣")
    t.play("lay 2♣", "play A♠ to take A♣")
    assert "Player 1: 1 for the primiera (3 sevens)" in t.text()


def test_three_kings_on_the_table_mean_a_new_deal():                            # C3
    first = deal("3♦ F♦ 2♥", "C♠ 2♠ 7♥", "R♦ R♥ R♠ 5♠")
    again = deal("3♦ F♦ 2♥", "C♠ 2♠ 7♥", "A♦ 4♦ 4♠ 5♠")
    t = Table("scopa", stacks=[first, again], options={"dealer": "seat_1"}, players=2)
    assert "3 kings on the table (R♦ R♥ R♠ 5♠): the hand is dealt again" in t.text()
    assert t.zone("table") == "A♦ 4♦ 4♠ 5♠".split()
    t = Table("scopa", stacks=[first, again], options={"dealer": "seat_1", "kings": "play_on"}, players=2)
    assert t.zone("table") == "R♦ R♥ R♠ 5♠".split()


def test_a_sweep_with_the_last_card_of_the_hand_is_no_scopa():                 # C4
    t = place(scopa(), hands=["3♠", "2♣"], taken=["", ""], table="A♣")
    t.play("lay 2♣", "play 3♠ to take A♣ 2♣")
    assert "Player 1 sweeps the table with the last card of the hand: no scopa" in t.text()
    assert "Player 1: 3 cards, 0 coins, primiera 0, 0 scope" in t.text()
    t = place(scopa(last_sweep="scopa"), hands=["3♠", "2♣"], taken=["", ""], table="A♣")
    t.play("lay 2♣", "play 3♠ to take A♣ 2♣")
    assert "scopa! Player 1 sweeps the table" in t.text() and "Player 1: 1 for scope" in t.text()
