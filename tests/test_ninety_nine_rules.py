"""ninety_nine, rule by rule (R..: the rule numbers of the digest it was written from, outside this repository; A..: the conventions, as docs/games/ninety_nine.md names them).

`deal(p1, p2, starter, draws)` stacks the deck in dealing order, Player 1 (seat 0) first.
"""
from __future__ import annotations

from conftest import Table


def deal(p1, p2, starter, draws=""):
    p1, p2 = p1.split(), p2.split()
    order = [c for pair in zip(p1, p2) for c in pair]
    return order + [starter] + draws.split()


def nn(p1="2♣ 3♣ 4♣ 5♣ 6♣", p2="2♦ 3♦ 4♦ 5♦ 6♦", starter="7♠", draws="", **options) -> Table:
    options.setdefault("first_player", "seat_1")
    return Table("ninety_nine", stack=deal(p1, p2, starter, draws), options=options)


def test_deck_is_ace_to_ten_in_four_suits_40_cards():                  # R3
    t = nn()
    assert len(t.program.deck.ids) == 40
    assert {d[:-1] for d in t.program.deck.display} == {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10"}


def test_number_cards_count_their_face_value_and_aces_one():           # R4, R5
    t = nn()
    values = dict(zip(t.program.deck.display, t.program.deck.attrs["value"][1]))
    assert values["A♠"] == 1 and values["7♥"] == 7 and values["10♣"] == 10


def test_five_cards_each_and_the_rest_face_down():                      # R6, R7
    t = nn()
    assert t.zone("hand", 0) == ["2♣", "3♣", "4♣", "5♣", "6♣"]
    assert t.zone("hand", 1) == ["2♦", "3♦", "4♦", "5♦", "6♦"]
    assert len(t.zone("stock")) == 29


def test_player_one_turns_up_the_starter_and_it_counts():              # R10, A3
    t = nn()
    assert t.zone("pile") == ["7♠"]
    assert t.var("total") == 7


def test_starter_as_marker_alternative_starts_at_zero():                 # A3 (b)
    assert nn(starter_card="marker").var("total") == 0


def test_starter_played_alternative_a_nine_resets():                     # A3 (c)
    assert nn(starter="9♠", starter_card="played").var("total") == 0
    assert nn(starter="10♠", starter_card="played").var("total") == -10


def test_player_one_takes_the_first_turn():                              # R11, A4
    assert nn().deciding == 0


def test_starter_is_turn_alternative_player_two_plays_first():         # A4 alternative
    assert nn(starter_is_turn="first_turn").deciding == 1


def test_each_move_says_the_total_its_card_makes():                       # R14, R17, R18
    t = nn(p1="9♣ 10♣ 2♣ 3♣ 4♣")                          # the starter 7♠ makes the total 7
    assert t.legal() == ["play 2♣ (total 9)", "play 3♣ (total 10)", "play 4♣ (total 11)",
                         "play 9♣ (total 0)", "play 10♣ (total -3)"]


def test_each_move_says_the_total_its_card_makes_in_danish():
    from conftest import ruleset
    from interpreter import labels, load_program, new_game
    program = load_program(ruleset("ninety_nine"), {"first_player": "seat_1"}, "da")
    s = new_game(program, seed=0, stacks=[deal("9♣ 10♣ 2♣ 3♣ 4♣", "2♦ 3♦ 4♦ 5♦ 6♦", "7♠")])
    assert labels(program, s) == ["spil 2♣ (sum 9)", "spil 3♣ (sum 10)", "spil 4♣ (sum 11)",
                                  "spil 9♣ (sum 0)", "spil 10♣ (sum -3)"]


def test_a_card_that_may_count_two_ways_names_both_totals():             # A5 alternative
    t = nn(p1="10♣ 3♣ 2♣ 4♣ 6♣", ten_value="choose")
    assert "play 10♣ (total 17 or -3)" in t.legal()


def test_players_alternate():                                            # R12
    t = nn().play("play 2♣ (total 9)")
    assert t.deciding == 1


def test_a_card_raises_the_total_by_its_value():                         # R13, R14
    t = nn().play("play 3♣ (total 10)")
    assert t.var("total") == 10


def test_after_playing_draw_back_to_five():                              # R16
    t = nn(draws="8♥ 8♦").play("play 3♣ (total 10)")
    assert len(t.zone("hand", 0)) == 5 and "8♥" in t.zone("hand", 0)


def test_nine_resets_the_total_to_zero():                                # R17
    t = nn(p1="9♣ 3♣ 4♣ 5♣ 6♣").play("play 9♣ (total 0)")
    assert t.var("total") == 0
    assert 'says "reset"' in t.text()


def test_ten_subtracts_ten():                                           # R18, R14 example
    t = nn(p1="10♣ 3♣ 4♣ 5♣ 6♣", starter="9♠", starter_card="counts").play("play 10♣ (total -1)")
    assert t.var("total") == -1
    assert 'says "subtract 10"' in t.text()


def test_total_may_go_negative():                                        # A6
    t = nn(p1="10♣ 3♣ 4♣ 5♣ 6♣", starter="4♠").play("play 10♣ (total -6)")
    assert t.var("total") == -6


def test_floor_zero_alternative():                                       # A6 alternative
    t = nn(p1="10♣ 3♣ 4♣ 5♣ 6♣", starter="4♠", negative_total="floor_zero").play("play 10♣ (total 0)")
    assert t.var("total") == 0


def _at_total(t, total):
    t.state.vars["total"] = total
    t.refresh()
    return t


def test_reaching_99_loses_at_once():                                    # R19, R20, A1, A11
    t = _at_total(nn(p1="5♣ 3♣ 9♣ 10♣ 6♣"), 94).play("play 5♣ (total 99)")
    assert t.over and t.winners == [1]
    assert "reaches 99 and loses" in t.text()


def test_exceed_alternative_allows_exactly_99():                          # A1 alternative
    t = _at_total(nn(p1="5♣ 3♣ 9♣ 10♣ 6♣", loss_threshold="exceed"), 94).play("play 5♣ (total 99)")
    assert t.var("total") == 99 and "reaches 99" not in t.text()
    assert t.winners == [0]          # P2 then holds no card that keeps the total at 99 or less


def test_player_without_a_safe_card_is_eliminated():                    # R15, A11
    t = nn(p1="5♣ 6♣ 7♣ 8♣ 4♣", p2="2♦ 3♦ 4♦ 5♦ 6♦")
    t = _at_total(t, 94)
    t.play("play 5♣ (total 99)")          # P1 loses by playing into 99
    assert t.over
    t = _at_total(nn(p1="5♣ 6♣ 7♣ 8♣ 4♣", p2="7♦ 8♦ 6♦ 5♦ 7♥", draws="8♥"), 90)
    t.play("play 4♣ (total 94)")          # 94: P2 holds only 5+ cards
    assert t.over and t.winners == [0]
    assert "cannot play without reaching" in t.text()


def test_a_losing_card_may_be_played_deliberately():                     # A8
    t = _at_total(nn(p1="5♣ 3♣ 2♣ 4♣ 6♣"), 94)
    assert "play 5♣ (total 99)" in t.legal()


def test_losing_move_forbidden_alternative():                            # A8 alternative
    t = _at_total(nn(p1="5♣ 3♣ 2♣ 4♣ 6♣", losing_move="forbidden"), 94)
    assert "play 5♣ (total 99)" not in t.legal() and "play 4♣ (total 98)" in t.legal()


def test_ten_choose_alternative_offers_plus_or_minus():                  # A5 alternative
    t = nn(p1="10♣ 3♣ 2♣ 4♣ 6♣", ten_value="choose").play("play 10♣ (total 17 or -3)")
    assert t.legal() == ["10♣ as plus (total 17)", "10♣ as minus (total -3)"]
    t.play("10♣ as plus (total 17)")
    assert t.var("total") == 17


def test_any_card_minus_alternative():                                   # A5 alternative
    t = nn(ten_value="any_card_minus").play("play 3♣ (total 10 or -3)")
    assert t.legal() == ["3♣ as plus (total 10)", "3♣ as minus (total -3)"]


def test_nine_choose_alternative():                                      # A7 alternative
    t = nn(p1="9♣ 3♣ 2♣ 4♣ 6♣", nine_value="choose").play("play 9♣ (total 16 or 0)")
    t.play("9♣ as plus (total 16)")
    assert t.var("total") == 16


def test_empty_draw_pile_skips_the_draw():                                # A9
    t = nn()
    t.state.zones["stock"].clear()
    t.refresh()
    t.play("play 3♣ (total 10)")
    assert len(t.zone("hand", 0)) == 4 and "does not draw" in t.text()


def test_empty_draw_pile_reshuffle_alternative():                         # A9 (b)
    t = nn(empty_draw_pile="reshuffle")
    t.state.zones["stock"].clear()
    t.refresh()
    t.play("play 3♣ (total 10)")
    assert len(t.zone("hand", 0)) == 5 and t.zone("pile") == ["3♣"]


def test_empty_draw_pile_draw_game_alternative():                         # A9 (c)
    t = nn(empty_draw_pile="draw_game")
    t.state.zones["stock"].clear()
    t.state.zones["hand"][1][:] = []
    t.play("play 3♣ (total 10)")
    assert t.over and t.winners == []


def test_per_player_totals_alternative():                                # A2 alternative
    t = nn(total_model="per_player").play("play 3♣ (total 10)")
    assert t.pvar("own_total", 0) == 10 and t.pvar("own_total", 1) == 7


def test_game_ends_with_one_winner():                                    # R19, R20, R21
    for seed in range(10):
        t = Table("ninety_nine", seed=seed).play_out()
        assert t.over and len(t.winners) == 1


def test_the_account_in_danish():
    import io
    from conftest import ruleset
    from interpreter.cli import run
    out = io.StringIO()
    assert run([ruleset("ninety_nine"), "--seed", "3", "--lang", "da"], stdout=out) == 0
    text = out.getvalue()
    assert "Spiller 1" in text and "summen er" in text and "Resultat:" in text
    assert "Player" not in text and "the total" not in text and "Result:" not in text
