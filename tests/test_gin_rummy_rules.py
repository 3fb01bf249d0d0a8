"""gin_rummy, rule by rule (R.. and C.. of docs/games/gin_rummy.md).

`deal(p1, p2, upcard, rest)` stacks the deck with Player 1 dealing (option dealer=seat_1):
Player 2, the non-dealer, gets the first card and the first option on the upcard; `rest`
is the top of the stock, in the order it is drawn.
"""
from __future__ import annotations

from conftest import Table
from interpreter.runtime.engine import refusal


def deal(p1, p2, upcard, rest=""):
    p1, p2 = p1.split(), p2.split()
    return [c for pair in zip(p2, p1) for c in pair] + [upcard] + rest.split()


P1 = "2♦ 3♦ 4♦ 8♥ K♠ Q♠ J♣ 10♣ 7♠ 6♠"          # one run (2-3-4♦), 61 deadwood
P2 = "5♥ 6♥ 7♥ 9♣ 9♦ 9♠ 2♣ 3♣ 4♣ K♦"          # three melds and the K♦


def gin(p1=P1, p2=P2, upcard="A♠", rest="", **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("gin_rummy", stack=deal(p1, p2, upcard, rest), options=options, players=2)


def test_the_deck_and_the_card_values():                                         # R1, R2
    t = gin()
    points = dict(zip(t.program.deck.display, t.program.deck.attrs["points"][1]))
    assert len(points) == 52
    assert points["A♣"] == 1 and points["7♦"] == 7 and points["10♥"] == 10 and points["K♠"] == 10


def test_ten_cards_each_an_upcard_and_the_non_dealer_speaks_first():            # R4, R5
    t = gin()
    assert sorted(t.zone("hand", 0)) == sorted(P1.split()) and sorted(t.zone("hand", 1)) == sorted(P2.split())
    assert t.zone("discard") == ["A♠"] and len(t.zone("stock")) == 31
    assert t.deciding == 1 and t.legal() == ["take A♠", "pass the upcard"]


def test_both_pass_the_upcard_and_the_non_dealer_draws_from_the_stock():       # R5
    t = gin(rest="Q♥").play("pass the upcard")
    assert t.deciding == 0 and t.legal() == ["take A♠", "pass the upcard"]
    t.play("pass the upcard")
    assert t.deciding == 1 and "Q♥" in t.zone("hand", 1) and len(t.zone("hand", 1)) == 11
    assert "discard Q♥" in t.legal() and "take A♠" not in t.legal()


def test_a_turn_is_draw_from_the_stock_or_take_the_discard_then_discard():     # R6, R7
    t = gin(rest="Q♥ J♥").play("pass the upcard", "take A♠", "discard K♠")
    assert t.deciding == 1 and t.legal() == ["draw from the stock", "take K♠"]
    t.play("draw from the stock")
    assert len(t.zone("hand", 1)) == 11 and len([x for x in t.legal() if x.startswith("discard")]) == 11
    t.play("discard Q♥")
    assert t.zone("discard")[-1] == "Q♥" and t.deciding == 0


def test_the_card_just_taken_may_not_be_thrown_back():                          # R7, C4
    t = gin().play("take A♠")
    assert "discard A♠" not in t.legal() and len([x for x in t.legal() if x.startswith("discard")]) == 10
    label, why = refusal(t.program, t.state, "A♠")
    assert "you took A♠ from the discard pile this turn" in why
    assert "discard A♠" in gin(discard_taken="allowed").play("take A♠").legal()


def test_a_player_may_knock_with_ten_or_less_deadwood_after_the_discard():      # R3, R9
    t = gin().play("take A♠")
    knocks = [x for x in t.legal() if x.startswith("knock")]
    assert knocks == ["knock, discarding K♦"]                  # A♠ is the card just taken
    assert [x for x in gin(discard_taken="allowed").play("take A♠").legal() if x.startswith("knock")] == \
        ["knock, discarding K♦", "knock, discarding A♠"]       # leaves K♦: 10 deadwood, still enough


def test_the_best_arrangement_of_overlapping_melds_counts():                   # R3
    # 7♥ is in the run 5-6-7♥ and in the set of sevens: the run and 7♣ 7♦ 7♠ leaves only the K♦
    # (the four sevens as one set would leave 5♥ 6♥ and the 9♠: 20)
    t = gin(p1="2♦ 3♦ 4♦ 8♥ K♠ Q♠ J♣ 10♣ 6♠ 5♠", p2="5♥ 6♥ 7♥ 7♣ 7♦ 7♠ 2♣ 3♣ 4♣ K♦", upcard="Q♦", rest="9♠")
    t.play("pass the upcard", "pass the upcard")               # Player 2 draws the 9♠
    assert [x for x in t.legal() if not x.startswith("discard")] == ["knock, discarding K♦", "knock, discarding 9♠"]


def test_gin_is_all_ten_cards_melded_after_the_discard():                      # R10
    t = gin(p2="5♥ 6♥ 7♥ 9♣ 9♦ 9♠ 2♣ 3♣ 4♣ 5♣", upcard="K♦", rest="Q♥")
    t.play("pass the upcard", "pass the upcard")
    assert "go gin, discarding Q♥" in t.legal() and "knock, discarding Q♥" not in t.legal()
    assert "knock, discarding 2♣" in t.legal()                   # 3-4-5♣ stays a run; the Q♥ is 10


def test_the_knocker_lays_down_and_the_defender_lays_off():                     # R11, R12, R13
    t = gin().play("take A♠", "knock, discarding K♦")
    assert "Player 2 discards K♦ face down and knocks" in t.text()
    assert sorted(t.zone("runs")) == sorted("5♥ 6♥ 7♥ 2♣ 3♣ 4♣".split()) and sorted(t.zone("sets")) == ["9♠", "9♣", "9♦"]
    assert t.deciding == 0 and t.legal() == ["lay off 8♥", "lay off no more cards"]
    t.play("lay off 8♥")
    assert "Player 1 lays off 8♥" in t.text() and "Player 1 counts 53 deadwood" in t.text()
    assert "Player 2 scores the difference, 53 - 1 = 52" in t.text()
    assert t.pvar("score", 1) == 52 and t.pvar("boxes", 1) == 1 and t.pvar("score", 0) == 0


def test_a_lay_off_may_extend_a_run_already_extended():                          # R12
    t = gin(p1="8♥ 9♥ 2♦ 3♦ 4♦ K♠ Q♠ 10♣ 7♠ 6♦", p2="5♥ 6♥ 7♥ J♣ J♦ J♠ 2♣ 3♣ 4♣ K♦")
    t.play("take A♠", "knock, discarding K♦")
    assert t.legal() == ["lay off 8♥", "lay off no more cards"]
    t.play("lay off 8♥")
    assert t.legal() == ["lay off 9♥", "lay off no more cards"]


def test_an_equal_or_lower_count_undercuts_the_knocker():                       # R13, C5
    p1 = "A♣ 2♦ 3♦ 4♦ J♠ Q♠ K♠ 8♥ 8♣ 8♦"                       # 1 deadwood, or none after laying off A♣
    t = gin(p1=p1).play("take A♠", "knock, discarding K♦", "lay off no more cards")
    assert "Player 1 undercuts the knocker (1 against 1) and scores 25" in t.text()
    assert t.pvar("score", 0) == 25 and t.pvar("score", 1) == 0
    t = gin(p1=p1, undercut_bonus=10).play("take A♠", "knock, discarding K♦", "lay off A♣")
    assert t.legal() == ["lay off 8♥", "lay off no more cards"]  # 8♥ fits the run, but it is one of three 8s
    t.play("lay off no more cards")
    assert t.pvar("score", 0) == 11                              # 1 - 0 + 10


def test_gin_scores_the_bonus_and_forbids_laying_off():                         # R10, R13, C6
    t = gin(p2="5♥ 6♥ 7♥ 9♣ 9♦ 9♠ 2♣ 3♣ 4♣ 5♣", upcard="K♦", rest="Q♥")
    t.play("pass the upcard", "pass the upcard", "go gin, discarding Q♥")
    assert "Player 1 may not lay off on a gin hand" in t.text()
    assert t.pvar("score", 1) == 25 + 61 and "Player 1 lays off" not in t.text()
    t = gin(p2="5♥ 6♥ 7♥ 9♣ 9♦ 9♠ 2♣ 3♣ 4♣ 5♣", upcard="K♦", rest="Q♥", gin_bonus=20)
    t.play("pass the upcard", "pass the upcard", "go gin, discarding Q♥")
    assert t.pvar("score", 1) == 20 + 61


def test_big_gin_is_an_option():                                                # C7
    p2 = "5♥ 6♥ 7♥ 9♣ 9♦ 9♠ 2♣ 3♣ 4♣ 5♣"
    t = gin(p2=p2, upcard="K♦", rest="4♥")
    t.play("pass the upcard", "pass the upcard")
    assert "go big gin with all eleven cards" not in t.legal() and "go gin, discarding 4♥" in t.legal()
    t = gin(p2=p2, upcard="K♦", rest="4♥", big_gin_bonus=31)
    t.play("pass the upcard", "pass the upcard", "go big gin with all eleven cards")
    assert "Player 2 goes big gin: all eleven cards meld" in t.text()
    assert t.pvar("score", 1) == 31 + 61


def test_knock_limit_option():                                                  # C3
    assert "knock, discarding K♦" in gin(upcard="7♦").play("take 7♦").legal()  # 7 deadwood
    assert not [x for x in gin(upcard="7♦", knock_limit=5).play("take 7♦").legal() if x.startswith("knock")]


def _draw_and_throw_back(t):
    """Each player draws from the stock and discards the card drawn, until the hand ends."""
    hand = t.state.rounds
    while t.state.rounds == hand and not t.over:
        if "draw from the stock" in t.legal():
            t.play("draw from the stock")
            drawn = t.program.deck.display[t.state.zones["hand"][t.deciding][-1]]
            t.play("discard " + drawn) if ("discard " + drawn) in t.legal() else t.play(
                next(x for x in t.legal() if x.startswith("discard")))
        else:
            t.play(t.legal()[-1])


def test_the_hand_is_drawn_when_two_cards_are_left_in_the_stock():             # R8, C2
    t = gin(p1="K♠ Q♠ J♣ 9♣ 7♠ 5♠ 3♠ A♦ 8♦ 10♥", p2="K♦ Q♦ J♦ 9♦ 7♦ 5♦ 3♦ A♠ 8♠ 10♠", upcard="K♥")
    dealer = t.var("dealer")
    _draw_and_throw_back(t)
    assert "only two cards are left in the stock and nobody knocked: the hand is drawn" in t.text()
    assert t.pvar("score", 0) == 0 and t.pvar("score", 1) == 0
    assert t.var("dealer") == dealer                              # the same dealer deals again


def test_the_deal_alternates_or_follows_the_winner():                           # C2
    t = gin().play("take A♠", "knock, discarding K♦", "lay off no more cards")
    assert t.var("dealer") == 1 and t.deciding == 0               # Player 2 deals, Player 1 speaks first
    t = gin(next_dealer="loser").play("take A♠", "knock, discarding K♦", "lay off no more cards")
    assert t.var("dealer") == 0 and t.deciding == 1


def test_the_game_ends_at_the_target_with_box_game_and_shutout_bonuses():      # R14, C8-C11
    t = gin(target_score=50).play("take A♠", "knock, discarding K♦", "lay off no more cards")
    assert t.over and t.winners == [1]
    # 60 for the hand, 25 for the box, 200 for the game: Player 1 scored nothing (shutout)
    assert t.scores == [0, 60 + 25 + 200]
    t = gin(target_score=50, shutout="none", box_bonus=20).play("take A♠", "knock, discarding K♦", "lay off no more cards")
    assert t.scores == [0, 60 + 20 + 100]
    t = gin(target_score=50, shutout="double_total", game_bonus=100).play("take A♠", "knock, discarding K♦", "lay off no more cards")
    assert t.scores == [0, (60 + 25 + 100) * 2]
    t = gin(target_score=100).play("take A♠", "knock, discarding K♦", "lay off no more cards")
    assert not t.over


def test_the_knocker_chooses_between_equally_good_arrangements():             # R11, R12
    # 4-5-6-7♥ with 7♣ 7♦ 7♠, or 4-5-6♥ with four sevens: both meld every card
    t = gin(p1="2♦ 3♦ 4♦ 8♥ K♥ Q♠ J♣ 10♣ 6♠ 5♠", p2="4♥ 5♥ 6♥ 7♥ 7♣ 7♦ 7♠ 2♣ 3♣ 4♣", upcard="Q♦", rest="K♠")
    t.play("pass the upcard", "pass the upcard", "go gin, discarding K♠")
    assert t.deciding == 1 and t.legal() == ["lay down 7♣ 7♦ 7♠, 2♣ 3♣ 4♣, 4♥ 5♥ 6♥ 7♥",
                                             "lay down 7♣ 7♦ 7♥ 7♠, 2♣ 3♣ 4♣, 4♥ 5♥ 6♥"]
    # which one the knocker lays down decides whether the defender's 8♥ may be laid off
    hands = dict(p1="2♦ 3♦ 4♦ 8♥ K♥ Q♠ J♣ 10♣ 6♠ 5♠", p2="4♥ 5♥ 6♥ 7♥ 7♣ 7♦ 7♠ 2♣ 3♣ 4♣", upcard="Q♦", rest="3♥")
    t = gin(**hands).play("pass the upcard", "pass the upcard", "knock, discarding 2♣")  # 3♣ 4♣: 7 left
    assert t.legal() == ["lay down 7♣ 7♦ 7♠, 3♥ 4♥ 5♥ 6♥ 7♥", "lay down 7♣ 7♦ 7♥ 7♠, 3♥ 4♥ 5♥ 6♥"]
    t.play("lay down 7♣ 7♦ 7♠, 3♥ 4♥ 5♥ 6♥ 7♥")
    assert t.deciding == 0 and t.legal() == ["lay off 8♥", "lay off no more cards"]
    t = gin(**hands).play("pass the upcard", "pass the upcard", "knock, discarding 2♣")
    t.play("lay down 7♣ 7♦ 7♥ 7♠, 3♥ 4♥ 5♥ 6♥")
    assert "Player 1 lays off" not in t.text() and t.pvar("score", 1) == 59 - 7


def test_melds_laid_down_one_at_a_time_and_what_is_left_counts():              # C12
    t = gin(melding="one_by_one").play("take A♠", "knock, discarding K♦")
    assert t.deciding == 1 and t.legal() == ["lay down 9♣ 9♦ 9♠", "lay down 2♣ 3♣ 4♣", "lay down 5♥ 6♥ 7♥"]
    t.play("lay down 9♣ 9♦ 9♠")
    assert "lay down no more melds" not in t.legal()              # 2♣ 3♣ 4♣ 5♥ 6♥ 7♥ A♠ count 28: more than 10
    t.play("lay down 5♥ 6♥ 7♥")
    assert t.legal() == ["lay down 2♣ 3♣ 4♣", "lay down no more melds"]
    t.play("lay down no more melds")                              # 10 left: enough, though 1 was possible
    assert "Player 2 counts 10 deadwood (2♣ 3♣ 4♣ A♠)" in t.text()
    assert t.deciding == 0 and t.legal() == ["lay off 8♥", "lay off no more cards"]
    t.play("lay off 8♥")
    assert t.legal() == ["lay down 2♦ 3♦ 4♦", "lay down no more melds"]   # the defender's own melds, if they like
    t.play("lay down 2♦ 3♦ 4♦")
    assert "Player 1 counts 53 deadwood" in t.text() and t.pvar("score", 1) == 43


def test_one_at_a_time_a_knocker_may_not_stop_above_the_limit():               # C12
    t = gin(melding="one_by_one").play("take A♠")
    assert "knock, discarding K♦" in t.legal() and not [x for x in t.legal() if x.startswith("go gin")]
    t.play("knock, discarding K♦", "lay down 2♣ 3♣ 4♣")
    assert t.legal() == ["lay down 9♣ 9♦ 9♠", "lay down 5♥ 6♥ 7♥"]       # 46 left: no stopping yet


def test_one_at_a_time_gin_is_all_ten_melded():                                 # C12, R10
    t = gin(p2="5♥ 6♥ 7♥ 9♣ 9♦ 9♠ 2♣ 3♣ 4♣ 5♣", upcard="K♦", rest="Q♥", melding="one_by_one")
    t.play("pass the upcard", "pass the upcard", "knock, discarding Q♥",
           "lay down 9♣ 9♦ 9♠", "lay down 2♣ 3♣ 4♣ 5♣", "lay down 5♥ 6♥ 7♥")
    assert "Player 2 has melded all ten cards: gin" in t.text() and "Player 1 may not lay off on a gin hand" in t.text()
    t.play("lay down 2♦ 3♦ 4♦")
    assert t.pvar("score", 1) == 25 + 61


FIFTIETH = dict(p1="A♣ 2♣ 3♣ 4♦ 5♦ 6♦ 7♥ 8♥ K♠ Q♠", p2="K♦ Q♦ J♦ 9♦ 7♦ 3♦ A♠ 8♠ 10♠ 6♣", upcard="K♥")


def _to_the_wall(**options):
    """Both players draw from the stock and throw the card back; the 29th card drawn, by
    Player 2, is the 9♥ that lets Player 1 knock."""
    return _wall(FIFTIETH, "9♥", **options)


def _wall(hands: dict, fiftieth: str, **options):
    """_to_the_wall with these hands (and upcard), the 29th card drawn `fiftieth`."""
    held = set((hands["p1"] + " " + hands["p2"] + " " + hands["upcard"]).split())
    rest = [c for c in (r + s for s in "♣♦♥♠" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()) if c not in held and c != fiftieth]
    t = gin(rest=" ".join(rest[:28] + [fiftieth] + rest[28:]), **hands, **options)
    t.play("pass the upcard", "pass the upcard")
    while t.state.rounds == 1 and not any(x.endswith("and knock") for x in t.legal()):
        if "draw from the stock" in t.legal():
            t.play("draw from the stock")
        drawn = [x[len("you draw "):] for x in t.text().splitlines() if x.startswith("you draw ")][-1]
        t.play("discard " + drawn)
    return t


def test_the_fiftieth_card_may_be_taken_only_to_knock():                        # C13, R8
    t = _to_the_wall()
    assert t.state.rounds == 2 and "the hand is drawn" in t.text()          # by default the hand is drawn at once
    t = _to_the_wall(fiftieth_card="may_knock")
    assert len(t.zone("stock")) == 2 and t.deciding == 0
    assert t.legal() == ["take 9♥ and knock", "leave it: the hand is drawn"]
    t.play("take 9♥ and knock")
    assert all(x.startswith("knock") for x in t.legal()) and "knock, discarding K♠" in t.legal()
    t.play("knock, discarding K♠", "lay off no more cards")
    assert "Player 1 takes 9♥, the fiftieth card, to knock" in t.text() and t.pvar("score", 0) > 0
    t = _to_the_wall(fiftieth_card="may_knock").play("leave it: the hand is drawn")
    assert t.state.rounds == 2 and t.pvar("score", 0) == t.pvar("score", 1) == 0


def test_the_fiftieth_card_is_not_offered_where_only_throwing_it_back_would_knock():      # C13, C4
    """Player 1's 2♥ 3♠ are unmelded: with the K♠ the only knock is to discard the K♠ again,
    which C4 forbids, so it does not let them knock and the hand is drawn (it was offered, and
    then no discard was legal: a rules error)."""
    hands = dict(p1="A♣ 2♣ 3♣ 4♣ 5♦ 6♦ 7♦ 8♦ 2♥ 3♠", p2="K♦ Q♦ J♦ 9♦ 10♣ 3♦ A♠ 8♠ 10♠ 6♣", upcard="K♥")
    t = _wall(hands, "K♠", fiftieth_card="may_knock")
    assert t.state.rounds == 2 and "the hand is drawn" in t.text()
    t = _wall(hands, "K♠", fiftieth_card="may_knock", discard_taken="allowed")
    assert "take K♠ and knock" in t.legal()


def test_oklahoma_the_upcard_sets_the_knock_limit():                            # C14
    assert not [x for x in gin(oklahoma="upcard").play("take A♠").legal() if x.startswith("knock")]   # an ace: gin only
    assert "Player 1 deals; the upcard is A♠: gin only" in gin(oklahoma="upcard").text()
    t = gin(upcard="7♦", oklahoma="upcard", knock_limit=5).play("take 7♦")      # 7 left: the 7♦ allows it
    assert "knock, discarding K♦" in t.legal() and "knock with 7 or less" in t.text()
    t = gin(upcard="6♦", oklahoma="upcard").play("take 6♦")                     # 6 left: the 6♦ allows it
    assert "knock, discarding K♦" in t.legal()


def test_oklahoma_a_spade_upcard_doubles_the_hand():                            # C14
    p1 = "2♦ 3♦ 4♦ 8♥ K♣ Q♣ J♣ 10♣ 8♣ 6♣"
    t = gin(p1=p1, upcard="7♠", oklahoma="upcard_spades_double").play("take 7♠", "knock, discarding K♦")
    t.play("lay off 8♥")
    assert "the upcard was a spade (7♠): the hand scores double" in t.text()
    assert t.pvar("score", 1) == 2 * (14 - 7)                      # 8♣ 6♣ against the 7♠
