"""gnav2, rule by rule (R..: the rule numbers of the digest it was written from, outside this repository; A..: the conventions, as docs/games/gnav2.md names them).

`gnav2(p1, p2, starter, draws)` stacks the deal: Player 1 (seat 0) goes first and is dealt
first; then the starter is turned up; `draws` are the next cards of the draw pile.
"""
from __future__ import annotations

from conftest import Table

P1 = "3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦"
P2 = "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 3♠ 4♠ 5♠"


def gnav2(p1=P1, p2=P2, starter="6♠", draws="", **options) -> Table:
    options.setdefault("first_player", "seat_1")
    a, b = p1.split(), p2.split()
    order = [c for pair in zip(a, b) for c in pair] + [starter] + draws.split()
    return Table("gnav2", stack=order, options=options)


def cards(t, zone, seat=None):
    return t.zone(zone, seat)


def test_only_number_cards_2_to_10_36_cards():                            # R3, R4
    t = gnav2()
    assert len(t.program.deck.ids) == 36
    assert {d[:-1] for d in t.program.deck.display} == {str(v) for v in range(2, 11)}


def test_every_2_and_10_is_wild():                                        # R5
    t = gnav2()
    wild = dict(zip(t.program.deck.display, t.program.deck.attrs["wild"][1]))
    assert [d for d, w in wild.items() if w and d.endswith("♠")] == ["2♠", "10♠"]


def test_ten_cards_each_sixteen_left_and_one_turned_up():               # R6-R9
    t = gnav2()
    assert len(cards(t, "hand", 0)) == 10 and len(cards(t, "hand", 1)) == 10
    assert cards(t, "discard") == ["6♠"] and len(cards(t, "stock")) == 15


def test_player_one_goes_first_then_they_alternate():                    # R10
    t = gnav2()
    assert t.deciding == 0
    t.play("play 6♣", "stop")
    assert t.deciding == 1


def test_a_player_must_play_a_matching_or_wild_card():                    # R11
    t = gnav2(p1="6♣ 2♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 3♣")
    assert sorted(t.legal()) == sorted(["play 6♣", "play 2♣"])


def test_a_matching_play_captures_both_cards():                           # R12
    t = gnav2().play("play 6♣")
    assert sorted(cards(t, "captured", 0)) == sorted(["6♣", "6♠"])


def test_a_wild_play_captures_only_the_top_card_and_stays():              # R13, A2
    t = gnav2(p1="2♣ 4♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 3♣", draws="10♥")
    t.play("play 2♣")
    assert cards(t, "captured", 0) == ["6♠"] and cards(t, "discard") == ["2♣"]
    assert "wild_card_destination=stays" in t.text()


def test_wild_captured_alternative():                                     # A2 alternative
    t = gnav2(p1="2♣ 4♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 3♣", wild_card_destination="captured")
    t.play("play 2♣")
    assert sorted(cards(t, "captured", 0)) == sorted(["6♠", "2♣"])


def test_wild_leaves_play_alternative():                                  # A2 alternative
    t = gnav2(p1="2♣ 4♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 3♣", wild_card_destination="leaves_play")
    t.play("play 2♣")
    assert cards(t, "out") == ["2♣"] and cards(t, "captured", 0) == ["6♠"]


def test_a_2_on_a_2_is_a_match():                                          # A3
    t = gnav2(p1="2♣ 4♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 3♣", starter="2♠").play("play 2♣")
    assert sorted(cards(t, "captured", 0)) == sorted(["2♣", "2♠"])


def test_same_wild_as_wild_alternative():                                  # A3 alternative
    t = gnav2(p1="2♣ 4♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 3♣", starter="2♠", wild_on_same_value="wild").play("play 2♣")
    assert cards(t, "captured", 0) == ["2♠"] and cards(t, "discard") == ["2♣"]


def test_same_wild_player_chooses_alternative():                           # A3 alternative
    t = gnav2(p1="2♣ 4♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 3♣", starter="2♠", wild_on_same_value="choose").play("play 2♣")
    assert t.legal() == ["capture both cards (match)", "capture the top card only (wild)"]


def test_after_playing_draw_back_up_to_ten():                             # R14, A6
    t = gnav2(draws="10♥ 10♠").play("play 6♣")
    assert len(cards(t, "hand", 0)) == 10 and "10♥" in cards(t, "hand", 0)


def test_refill_one_card_alternative_after_a_drawn_play():                # A6 alternative
    p1 = "3♣ 4♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 8♦"
    t = gnav2(p1=p1, draws="6♦ 10♥", refill_rule="one_card")
    t.play("play 6♦")                                  # drawn and played
    assert len(cards(t, "hand", 0)) == 11


def test_a_player_who_cannot_play_draws_and_may_play_it():                # R15
    p1 = "3♣ 4♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 8♦"
    t = gnav2(p1=p1, draws="6♦")
    assert t.legal() == ["play 6♦", "keep it"]
    t.play("play 6♦")
    assert sorted(cards(t, "captured", 0)) == sorted(["6♦", "6♠"])


def test_a_drawn_card_that_cannot_be_played_ends_the_turn():              # R15
    p1 = "3♣ 4♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 8♦"
    t = gnav2(p1=p1, draws="7♦")
    assert t.deciding == 1 and len(cards(t, "hand", 0)) == 11


def test_clearing_the_layout_lets_the_player_go_on_and_stop_at_will():    # R16, A4, A5
    t = gnav2().play("play 6♣")
    assert t.deciding == 0 and "stop" in t.legal()
    t.play("play 3♣")                                  # placed on the empty pile
    assert cards(t, "discard") == ["3♣"]
    t.play("play 3♦")                                  # captures it: cleared again
    t.play("stop")
    assert t.deciding == 1


def test_must_continue_alternative():                                     # A5 alternative
    t = gnav2(continue_after_clear="must_continue").play("play 6♣")
    assert "stop" not in t.legal()


def test_captures_only_continuation_alternative():                        # A5 alternative
    t = gnav2(continue_after_clear="captures_only").play("play 6♣")
    assert t.deciding == 1                             # nothing to capture on an empty pile


def test_no_continuation_after_a_drawn_play_alternative():                # A5 alternative
    p1 = "3♣ 4♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 8♦"
    t = gnav2(p1=p1, draws="6♦", continue_after_drawn_play="no_continue").play("play 6♦")
    assert t.deciding == 1


def test_flip_from_stock_alternative():                                   # A4 (b)
    t = gnav2(draws="9♠ 10♥", empty_layout="flip_from_stock").play("play 6♣")
    assert cards(t, "discard") == ["9♠"]


def test_no_play_on_an_empty_pile_alternative():                          # A4 (c)
    t = gnav2(empty_layout="no_play").play("play 6♣")
    # Nobody can ever play onto the empty pile again: both draw until the pile runs out.
    assert t.over and "cannot play and draws a card" in t.text()
    assert "neither player can make a valid play" in t.text()


def test_refill_at_end_of_turn_alternative():                             # A7 alternative
    t = gnav2(draws="10♥ 10♠ 10♣", refill_timing="end_of_turn").play("play 6♣", "play 3♣")
    assert len(cards(t, "hand", 0)) == 8
    t.play("stop")
    assert len(cards(t, "hand", 0)) == 10


def test_each_captured_card_scores_its_value_and_the_bonus():             # R17-R20, R22
    t = gnav2().play("play 6♣", "stop")
    assert t.pvar("points", 0) == 12
    t.play_out()
    s = t.scores
    caps = [t.state.zones["captured"][p] for p in (0, 1)]
    vals = [sum(t.program.deck.attrs["value"][1][c] for c in z) for z in caps]
    bonus = [10, 0] if len(caps[0]) > len(caps[1]) else [0, 10] if len(caps[1]) > len(caps[0]) else [5, 5]
    assert s == [vals[0] + bonus[0], vals[1] + bonus[1]]


def test_the_game_ends_and_the_higher_score_wins():                       # R21, R22, A11
    for seed in range(10):
        t = Table("gnav2", seed=seed).play_out()
        a, b = t.scores
        assert t.winners == ([0] if a > b else [1] if b > a else [])


def test_every_card_is_accounted_for_at_the_end():                        # issue: 36 cards
    from interpreter.playing.agents import RandomAgent
    for seed in range(30):
        t = Table("gnav2", seed=seed).play_out(RandomAgent(seed))
        s = t.state
        total = sum(len(z) for name in ("stock", "discard", "out") for z in [s.zones[name]])
        total += sum(len(z) for name in ("hand", "captured") for z in s.zones[name])
        assert total == 36
        assert sorted(c for z in [s.zones["stock"], s.zones["discard"], s.zones["out"], *s.zones["hand"],
                                  *s.zones["captured"]] for c in z) == list(range(36))


def test_stalemate_two_passes_alternative_plays_to_the_end():             # A9 alternative
    from interpreter.playing.agents import RandomAgent
    for seed in range(5):
        t = Table("gnav2", seed=seed, options={"stalemate_end": "two_passes"}).play_out(RandomAgent(seed))
        assert t.over


def test_drawn_card_stays_hidden_unless_played():                         # A13
    from interpreter import view
    p1 = "3♣ 4♣ 5♣ 7♣ 8♣ 9♣ 3♦ 4♦ 5♦ 8♦"
    t = gnav2(p1=p1, draws="7♦")
    assert view(t.program, t.state, 1)["zones"]["hand"][0] == [None] * 11
    assert "(to" not in t.text().split("draws a card")[1][:5]
