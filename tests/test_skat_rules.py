"""skat, rule by rule (R.. and C.. of docs/games/skat.md).

`skat(cards, skat_cards)` stacks the deck with Player 1 dealing: Player 2 is forehand, Player 3
middlehand, Player 1 rearhand.  `cards` gives each seat's ten cards (Player 1, 2, 3), dealt one at
a time from forehand round: three each, the two skat cards, four each, three each."""
from __future__ import annotations

import random
import re

from conftest import Table
from interpreter.runtime.engine import refusal

ORDER = [1, 2, 0]            # forehand first: Player 1 deals

HANDS = ["K♥ Q♥ 9♥ 8♥ 7♥ A♦ 10♦ K♦ Q♦ 9♦",          # Player 1, rearhand (the dealer)
         "J♣ J♠ J♥ J♦ A♣ 10♣ K♣ Q♣ 9♣ 8♣",          # Player 2, forehand
         "7♣ A♠ 10♠ K♠ Q♠ 9♠ 8♠ 7♠ A♥ 10♥"]         # Player 3, middlehand
SKAT = "8♦ 7♦"


def stack(hands, skat_cards):
    h = [x.split() for x in hands]
    s = []
    for lo, hi in ((0, 3), (3, 7), (7, 10)):
        for k in range(lo, hi):
            for seat in ORDER:
                s.append(h[seat][k])
        if lo == 0:
            s += skat_cards.split()
    return s


def skat(cards=HANDS, skat_cards=SKAT, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    options.setdefault("hands", 1)
    return Table("skat", stack=stack(cards, skat_cards), options=options, players=3)


def forehand_declares(t: Table) -> Table:
    """Middlehand and rearhand pass; forehand (Player 2) bids 18."""
    return t.play("pass", "pass", "bid 18")


def test_three_cards_each_the_skat_four_and_three():                                  # R2
    t = skat()
    assert sorted(t.zone("skat")) == sorted(SKAT.split())
    for seat in range(3):
        assert sorted(t.zone("hand", seat)) == sorted(HANDS[seat].split())


def test_middlehand_bids_to_forehand_then_rearhand_to_the_survivor():                 # R3
    t = skat()
    assert t.deciding == 2 and "bid 18" in t.legal() and "pass" in t.legal()
    t.play("bid 18")
    assert t.deciding == 1 and t.legal() == ["hold 18", "pass"]
    t.play("hold 18")
    assert t.deciding == 2 and t.legal()[:2] == ["pass", "bid 20"]
    t.play("pass")
    assert t.deciding == 0 and t.legal()[1] == "bid 20"                                # rearhand to forehand
    t.play("bid 22", "pass")
    assert t.var("declarer") == 0 and t.var("bid") == 22
    assert "Player 1 is the declarer at 22" in t.text()


def test_bids_are_the_game_values():                                                 # R3
    bids = [int(x.split()[1]) for x in skat().legal() if x.startswith("bid ")]
    assert bids[:20] == [18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60]
    assert bids[-1] == 264


def test_when_both_others_pass_forehand_may_bid_18():                                 # R3
    t = skat().play("pass", "pass")
    assert t.deciding == 1 and t.legal() == ["bid 18", "pass"]
    t.play("bid 18")
    assert t.var("declarer") == 1 and t.legal() == ["take up the skat", "play hand"]


def test_when_all_pass_the_hand_is_thrown_in():                                       # R3, C3
    t = skat(hands=3).play("pass", "pass", "pass")
    assert "everyone passes: the hand is thrown in" in t.text()
    assert t.var("hand_no") == 2 and t.var("dealer") == 1 and t.deciding == 0        # the next dealer deals
    assert [t.pvar("score", s) for s in range(3)] == [0, 0, 0]


def test_the_declarer_takes_up_the_skat_and_discards_two():                           # R4
    t = forehand_declares(skat()).play("take up the skat")
    assert len(t.zone("hand", 1)) == 12 and "8♦" in t.zone("hand", 1)
    assert t.deciding == 1 and all(x.startswith("discard ") for x in t.legal()) and len(t.legal()) == 12
    t.play("discard 9♣", "discard 8♣")
    assert sorted(t.zone("skat")) == ["8♣", "9♣"] and len(t.zone("hand", 1)) == 10


def test_a_hand_game_leaves_the_skat_and_may_announce_more():                         # R4, R5
    t = forehand_declares(skat()).play("play hand")
    assert sorted(t.zone("skat")) == sorted(SKAT.split())
    assert "announce null hand" in t.legal() and "announce null ouvert hand" in t.legal()
    t.play("announce ♣ clubs")
    assert t.legal() == ["no announcement", "announce schneider", "announce schwarz", "announce ouvert"]


def test_a_null_worth_less_than_the_bid_cannot_be_announced():                        # R5
    t = skat().play("bid 24", "pass", "pass", "take up the skat", "discard 8♦", "discard 7♦")
    assert "announce null" not in t.legal() and "announce null ouvert" in t.legal()
    assert t.legal()[:5] == ["announce ♦ diamonds", "announce ♥ hearts", "announce ♠ spades", "announce ♣ clubs", "announce grand"]


def test_a_trump_lead_calls_for_trumps_and_a_jack_is_not_its_suit():                  # R6, R7
    t = forehand_declares(skat()).play("play hand", "announce ♣ clubs", "no announcement")
    t.play("lead J♠")
    assert t.legal() == ["play 7♣"]                                                    # spades do not follow a jack
    assert refusal(t.program, t.state, "play A♠")[1] == "you must follow suit (trumps) while you can"
    t.play("play 7♣")
    assert len(t.legal()) == 10                                                        # Player 1: no trump, any card


def test_without_trumps_the_highest_of_the_suit_led_takes():                          # R6, R7
    t = forehand_declares(skat()).play("play hand", "announce grand", "no announcement")
    t.play("lead 8♣", "play 7♣", "play A♦")
    assert "Player 2 takes the trick with 8♣" in t.text() and t.deciding == 1


def test_the_highest_trump_takes_the_trick():                                         # R6, R7
    t = forehand_declares(skat()).play("play hand", "announce ♥ hearts", "no announcement")
    t.play("lead A♣", "play 7♣", "play 7♥")
    assert "Player 1 takes the trick with 7♥" in t.text() and t.deciding == 0


def test_a_null_has_no_trumps_and_ends_at_the_declarers_first_trick():                # R6, R9
    t = forehand_declares(skat()).play("take up the skat", "discard 8♦", "discard 7♦", "announce null")
    t.play("lead 8♣")
    assert t.legal() == ["play 7♣"]
    t.play("play 7♣", "play A♦")
    assert t.over and "Player 2 takes a trick: null is lost, worth 23" in t.text()
    assert t.scores == [0, -46, 0]


def test_game_value_matadors_hand_schneider_schwarz():                                # R8, R10, R11, R13
    t = forehand_declares(skat()).play("play hand", "announce ♣ clubs", "no announcement").play_out()
    assert "Player 2 takes 120 card points in 10 tricks (schneider) (schwarz)" in t.text()
    assert "♣ clubs hand with 10, 12 x 14 = 168, won" in t.text()                      # 10 + 1 + hand + schneider + schwarz
    assert t.scores == [0, 168, 0] and t.winners == [1]


def test_ouvert_lays_the_hand_open_and_counts_every_announcement():                   # R5, R11
    t = forehand_declares(skat()).play("play hand", "announce ♣ clubs", "announce ouvert")
    assert "Player 2 lays the hand open" in t.text()
    assert set(t.zone("hand", 1)) <= {t.program.deck.display[c] for c in t.state.revealed}
    t.play_out()
    assert "12 x 17 = 204, won" in t.text() and t.scores == [0, 204, 0]


def test_an_overbid_game_is_lost_at_the_next_multiple_of_its_base_value():            # R12, R13
    t = skat().play("bid 120", "pass", "pass", "take up the skat", "discard 8♦", "discard 7♦", "announce ♠ spades")
    t.play_out()
    assert re.search(r"♠ spades without 4, 11 x \d+ = \d+, overbid at 120: lost, worth 121", t.text())
    assert t.scores == [0, 0, -242]


def test_lost_game_single_costs_its_value_once():                                     # C4
    t = skat(lost_game="single").play("bid 120", "pass", "pass", "take up the skat", "discard 8♦", "discard 7♦",
                                      "announce ♠ spades").play_out()
    assert t.scores == [0, 0, -121]


def test_a_game_is_won_with_61_card_points():                                         # R8, R9, R13
    seen = set()
    for seed in range(40):
        t, rng = Table("skat", options={"dealer": "seat_1", "hands": 1}, players=3, seed=seed), random.Random(seed)
        while not t.over:                       # random play, passing often in the bidding
            legal = t.legal()
            t.play("pass" if "pass" in legal and rng.random() < 0.7 else rng.choice(legal))
        m = re.search(r"takes (\d+) card points in (\d+) tricks.*?: (.*?) (with|without) (\d+), (\d+) x (\d+) = (\d+)(, overbid.*?worth (\d+))?", t.text())
        if not m:
            continue
        points, value = int(m.group(1)), int(m.group(8))
        won = points >= 61 and not m.group(9) and "announced" not in m.group(3) and "ouvert" not in m.group(3)
        if won:
            assert max(t.scores) == value and ", won" in t.text()
        else:
            assert min(t.scores) == -2 * (int(m.group(10)) if m.group(9) else value)
        seen.add(won)
    assert seen == {True, False}


def test_ramsch_when_all_pass_the_most_points_lose_them():                            # C3
    cards = ["K♥ Q♥ 9♥ 8♥ J♣ A♦ 10♦ K♦ Q♦ 9♦", "7♥ J♠ J♥ J♦ A♣ 10♣ K♣ Q♣ 9♣ 8♣", HANDS[2]]
    t = skat(cards, all_pass="ramsch").play("pass", "pass", "pass").play_out()
    assert "only jacks are trumps" in t.text() and "takes the last trick and the skat" in t.text()
    m = re.search(r"(Player \d) takes the most card points, (\d+), and scores -\d+", t.text())
    assert m and min(t.scores) == -int(m.group(2)) and sorted(t.scores)[1:] == [0, 0]


def test_first_come_names_a_game_in_turn_and_always_takes_the_skat():                 # C1
    t = skat(bidding="first_come")
    assert t.deciding == 1
    assert t.legal() == ["pass", "play ♦ diamonds", "play ♥ hearts", "play ♠ spades", "play ♣ clubs", "play grand", "play null"]
    t.play("pass")
    assert t.deciding == 2
    t.play("play grand")
    assert t.var("declarer") == 2 and len(t.zone("hand", 2)) == 12 and len(t.legal()) == 12


def test_card_points_scoring_is_openspiels_times_240():                               # C2
    t = forehand_declares(skat(scoring="card_points")).play("play hand", "announce ♣ clubs", "no announcement")
    t.play_out()
    assert t.scores == [-60, 120, -60]


def test_the_deal_passes_to_the_left():                                               # R2, C6
    t = skat(hands=3).play("pass", "pass", "pass")
    assert t.var("dealer") == 1 and "Player 2 deals; Player 3 is forehand" in t.text()


def test_seeger_fabian_adds_50_and_gives_the_defenders_40_on_a_loss():                # C2
    t = forehand_declares(skat(scoring="seeger_fabian")).play("play hand", "announce ♣ clubs", "no announcement")
    assert t.play_out().scores == [0, 218, 0]
    t = skat(scoring="seeger_fabian").play("bid 120", "pass", "pass", "take up the skat", "discard 8♦", "discard 7♦",
                                           "announce ♠ spades").play_out()
    assert t.scores == [40, 40, -292]


def test_rearhand_bids_to_middlehand_when_forehand_passes():                         # R3
    t = skat().play("bid 18", "pass")                  # forehand passes: middlehand survives
    assert t.deciding == 0 and t.legal()[:2] == ["pass", "bid 20"]
    t.play("bid 20")
    assert t.deciding == 2 and t.legal() == ["hold 20", "pass"]
    t.play("hold 20", "pass")
    assert t.var("declarer") == 2 and t.var("bid") == 20
