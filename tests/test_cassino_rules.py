"""cassino, rule by rule (R.. and C.. of docs/games/cassino.md).

`casino(p1, p2, table, rest)` stacks the deck for two players with Player 1 dealing: Player 2,
on the dealer's left, gets the first card and plays first; the four table cards follow, then
the next deals (`rest`, Player 2's card first each time).  `place()` sets up the end of a hand:
what each player holds and has taken, the table, and an empty stock.
"""
from __future__ import annotations

from conftest import Table
from interpreter.runtime.engine import refusal


def deal(p1, p2, table, rest=""):
    p1, p2 = p1.split(), p2.split()
    return [c for pair in zip(p2, p1) for c in pair] + table.split() + rest.split()


def casino(p1="3♦ 9♦ K♥ 2♣", p2="8♠ 2♠ 7♥ Q♣", table="A♦ 5♦ 3♠ 5♣", rest="", **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("cassino", stack=deal(p1, p2, table, rest), options=options, players=2)


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


def test_fifty_two_cards_aces_one_numbers_their_number_figures_nothing():       # R2
    t = casino()
    assert len(t.program.deck.display) == 52
    values = dict(zip(t.program.deck.display, t.program.deck.attrs["value"][1]))
    assert [values[r + "♥"] for r in ["A", "2", "9", "10", "J", "Q", "K"]] == [1, 2, 9, 10, 0, 0, 0]


def test_four_cards_each_and_four_face_up_on_the_table():                        # R3
    t = casino()
    assert sorted(t.zone("hand", 0)) == sorted("3♦ 9♦ K♥ 2♣".split())
    assert sorted(t.zone("hand", 1)) == sorted("8♠ 2♠ 7♥ Q♣".split())
    assert t.zone("table") == "A♦ 5♦ 3♠ 5♣".split() and t.deciding == 1


def test_a_card_takes_every_table_card_of_its_rank():                            # R4
    t = casino(p2="5♠ 2♠ 7♥ Q♣")
    assert "play 5♠ to take 5♦ 5♣" in t.legal()
    t.play("play 5♠ to take 5♦ 5♣")
    assert t.zone("table") == ["A♦", "3♠"] and sorted(t.zone("taken", 1)) == sorted("5♠ 5♦ 5♣".split())


def test_a_card_takes_a_set_adding_up_to_its_value_or_two_such_sets():           # R4
    t = casino(p2="8♠ 2♠ 7♥ Q♣", table="A♦ 5♦ 3♠ 3♣")
    legal = t.legal()
    assert "play 8♠ to take 5♦ 3♠" in legal and "play 8♠ to take 5♦ 3♣" in legal
    t = casino(p2="8♠ 2♠ 7♥ Q♣", table="7♦ 5♦ 3♠ A♣")
    assert "play 8♠ to take 5♦ 3♠ and 7♦ A♣" in t.legal()
    t.play("play 8♠ to take 5♦ 3♠ and 7♦ A♣")
    assert t.zone("table") == [] and len(t.zone("taken", 1)) == 5


def test_figures_are_taken_only_by_pairing():                                   # R2, R4
    t = casino(p2="Q♠ 2♠ 7♥ 4♣", table="Q♦ 5♦ 3♠ K♣")
    queens = [m for m in t.legal() if m.startswith("play Q♠")]
    assert queens == ["play Q♠ to take Q♦"]
    assert not any(m.startswith("build") and "K♣" in m for m in t.legal())


def test_a_build_needs_a_card_in_hand_to_take_it_and_is_its_builders():          # R5
    t = casino(p2="2♠ 8♠ 7♥ Q♣", table="A♦ 5♦ 3♠ 5♣")
    legal = t.legal()
    assert "build 2♠ on A♦ 5♦ for 8" in legal and not any(m.startswith("build 2♠ on 3♠ for") for m in legal)
    t.play("build 2♠ on A♦ 5♦ for 8")
    assert t.zone("table") == ["3♠", "5♣"]
    piles = t.state.piles["builds"]
    assert len(piles) == 1 and piles[0][1] == 1                 # Player 2's
    assert "Player 2 builds A♦ 5♦ 2♠ for 8" in t.text()
    assert "play 8♠ to take the build A♦ 5♦ 2♠" in [*t.play("trail K♥").legal()]


def test_a_build_of_the_same_value_makes_a_multiple_build_owned_by_the_last_builder():   # R6
    t = casino(p1="3♦ 8♦ K♥ 2♣", p2="2♠ 8♠ 7♥ Q♣", table="A♦ 5♦ 3♠ 5♣")
    t.play("build 2♠ on A♦ 5♦ for 8")
    assert "build 3♦ on 5♣ for 8" in t.legal()
    t.play("build 3♦ on 5♣ for 8")
    assert "Player 1 builds 5♣ 3♦ for 8" in t.text()
    legal = t.legal()                                           # Player 2 no longer owns it: may trail
    assert "trail 7♥" in legal
    assert not any(m.startswith("increase") for m in legal)     # a multiple build is not increased
    t.play("play 8♠ to take the build A♦ 5♦ 2♠ and 5♣ 3♦")
    assert sorted(t.zone("taken", 1)) == sorted("8♠ A♦ 5♦ 2♠ 5♣ 3♦".split())


def test_a_card_of_the_builds_value_added_from_hand_makes_it_multiple():         # R6
    t = casino(p1="3♦ 8♦ K♥ 8♣", p2="2♠ 8♠ 7♥ Q♣", table="A♦ 5♦ 3♠ 5♣")
    t.play("build 2♠ on A♦ 5♦ for 8")
    t.play("add 8♦ to the build A♦ 5♦ 2♠ for a multiple build of 8")
    assert t.state.piles["builds"][-1][1] == 0


def test_a_single_build_may_be_increased_by_a_card_from_hand_and_is_then_the_increasers():  # R7
    t = casino(p1="A♥ 9♦ K♥ 2♣", p2="2♠ 8♠ 7♥ Q♣", table="A♦ 5♦ 3♠ 5♣")
    t.play("build 2♠ on A♦ 5♦ for 8")
    assert "increase the build A♦ 5♦ 2♠ with A♥ to 9" in t.legal()
    t.play("increase the build A♦ 5♦ 2♠ with A♥ to 9")
    assert t.state.piles["builds"][-1][1] == 0 and "Player 1 increases the build to A♦ 5♦ 2♠ A♥ for 9" in t.text()


def test_a_player_who_owns_a_build_may_not_trail():                              # R8, C4
    t = casino(p2="2♠ 8♠ 7♥ Q♣", table="A♦ 5♦ 3♠ 5♣")
    t.play("build 2♠ on A♦ 5♦ for 8", "trail K♥")
    assert not any(m.startswith("trail") for m in t.legal())
    assert refusal(t.program, t.state, "trail 7♥")[1] == "you own a build: you must capture or build"
    t = casino(p2="2♠ 8♠ 7♥ Q♣", table="A♦ 5♦ 3♠ 5♣", trail_with_build="yes")
    t.play("build 2♠ on A♦ 5♦ for 8", "trail K♥")
    assert "trail 7♥" in t.legal()


def test_clearing_the_table_is_a_sweep():                                       # R9
    t = casino(p2="9♠ 2♠ 7♥ Q♣", table="A♦ 5♦ 3♠ 9♣")
    t.play("play 9♠ to take A♦ 5♦ 3♠ and 9♣")
    assert t.zone("table") == [] and t.pvar("sweeps", 1) == 1 and "sweep! Player 2 clears the table" in t.text()


def test_four_more_cards_each_when_the_hands_are_empty():                        # R3
    t = casino(rest="6♦ 6♥ 6♠ 6♣ 7♠ 7♣ 4♠ 4♥")
    for _ in range(8):
        t.play([m for m in t.legal() if m.startswith("trail")][0])
    assert sorted(t.zone("hand", 1)) == sorted("6♦ 6♠ 7♠ 4♠".split()) and len(t.zone("stock")) == 32


def test_the_last_taker_takes_the_rest_and_the_hand_is_scored():                 # R10, R11
    t = casino(game="one_deal")
    place(t, ["4♠", "3♥"], ["10♦ 2♠ A♠ A♥ A♣ 5♠ 6♠", ""], table="4♦ 9♥")
    t.play("trail 3♥", "play 4♠ to take 4♦")
    assert t.over
    # Player 1 (who took last, and so the 9♥ 3♥ left): 10♦ 2 + 2♠ 1 + aces 3; Player 2 (41 cards): cards 3,
    # spades 1 (10 of 13), the A♦ 1
    assert t.scores == [6, 5]
    assert "Player 1 took last and takes the rest: 9♥ 3♥" in t.text()


def test_sweeps_may_score_nothing():                                              # C2
    t = casino(p2="9♠ 2♠ 7♥ Q♣", table="A♦ 5♦ 3♠ 9♣", sweeps="no", game="one_deal")
    t.play("play 9♠ to take A♦ 5♦ 3♠ and 9♣")
    assert t.pvar("sweeps", 1) == 1
    t.play_out()
    assert "for sweeps" not in t.text()


def test_the_game_goes_to_21_or_is_one_hand():                                    # C1
    t = Table("cassino", options={"dealer": "seat_1"}, seed=4).play_out()
    assert max(t.scores) >= 21 and t.var("hands") >= 2
    t = Table("cassino", options={"dealer": "seat_1", "game": "one_deal"}, seed=4).play_out()
    assert t.var("hands") == 1 and sum(t.scores) >= 11 - 0
