"""spades, rule by rule (R.. and C.. of docs/games/spades.md).

`deal(hands)` stacks the deck with Player 1 (seat 0) dealing: the cards go one at a time round
the table from Player 2, on the dealer's left, who bids and leads first.  `last_trick(...)`
jumps from the first lead to the last trick of the hand, with the tricks each player has won.
"""
from __future__ import annotations

from conftest import Table
from interpreter import view
from interpreter.runtime.engine import prompt, refusal

SUITS = "♣♦♥♠"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in SUITS for r in RANKS]

# Player 3 (seat 2) has no club; Player 2 (seat 1) a single spade.
P = ["2♣ 3♣ 4♣ 5♣ 2♦ 3♦ 4♦ 2♥ 3♥ 4♥ 2♠ 3♠ 4♠",
     "6♣ 7♣ 8♣ 9♣ 10♣ J♣ 5♦ 6♦ 7♦ 5♥ 6♥ 7♥ 5♠",
     "8♦ 9♦ 10♦ J♦ 8♥ 9♥ 10♥ 6♠ 7♠ 8♠ 9♠ 10♠ J♠",
     "Q♣ K♣ A♣ Q♦ K♦ A♦ J♥ Q♥ K♥ A♥ Q♠ K♠ A♠"]


def deal(hs):
    hs = [h.split() for h in hs]
    return [hs[(1 + j) % 4][i] for i in range(13) for j in range(4)]


def spades(hs=P, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("spades", stack=deal(hs), options=options, players=4)


def bid(t, *bids) -> Table:
    """Bids in seat order (Player 1, 2, 3, 4); they are made from Player 2 round."""
    for seat in (1, 2, 3, 0):
        b = bids[seat]
        t.play(b if isinstance(b, str) else "bid nil" if b == 0 else f"bid {b}")
    return t


def last_trick(t, last, tricks, scores=None, bags=None) -> Table:
    """The last trick: seat i holds only last[i] and has won tricks[i] tricks (12 in all).
    The seat whose turn it is leads."""
    assert sum(tricks) == 12
    ix = {d: i for i, d in enumerate(t.program.deck.display)}
    z = t.state.zones
    for seat in range(4):
        z["hand"][seat][:] = [ix[last[seat]]]
        z["taken"][seat][:] = []
    z["stock"][:] = [ix[c] for c in DECK if c not in last]
    t.state.pvars["tricks"] = list(tricks)
    if scores is not None:
        t.state.pvars["score"] = list(scores)
    if bags is not None:
        t.state.pvars["bags"] = list(bags)
    t.state.vars.update(trick_no=12, broken=True)
    return t.refresh()


LAST = ["2♣", "6♣", "8♦", "A♣"]          # Player 2 leads the 6♣, Player 4 takes it with the A♣


def end_hand(t):
    return t.play("lead 6♣", "play 8♦", "play A♣", "play 2♣")



def test_four_players_in_two_partnerships():                                # R1
    t = spades()
    assert t.program.players == (4, 4, 4)
    t = last_trick(bid(t, 3, 4, 3, 2), LAST, [3, 3, 3, 3])
    end_hand(t)
    assert t.pvar("score", 0) == t.pvar("score", 2) and t.pvar("score", 1) == t.pvar("score", 3)


def test_the_deck_is_52_cards_and_spades_are_trumps():                      # R2
    t = spades()
    assert sorted(t.program.deck.display) == sorted(DECK)
    trump = dict(zip(t.program.deck.display, t.program.deck.attrs["trump"][1]))
    assert [c for c in DECK if trump[c]] == [r + "♠" for r in RANKS]


def test_thirteen_cards_each_dealt_from_the_dealers_left():                 # R3
    t = spades()
    for seat in range(4):
        assert t.zone("hand", seat) == P[seat].split()
    assert t.zone("stock") == []


def test_each_player_bids_once_from_the_dealers_left_nil_to_thirteen():      # R4, R5
    t = spades()
    assert t.deciding == 1
    assert t.legal() == ["bid nil"] + [f"bid {n}" for n in range(1, 14)]
    assert prompt(t.program, t.state) == ("How many tricks will you take? "
                                          "(partner: not yet bid; opponents: not yet bid and not yet bid)")
    t.play("bid 4")
    assert t.deciding == 2 and "Player 2 bids 4" in t.text()
    assert prompt(t.program, t.state).endswith("(partner: not yet bid; opponents: not yet bid and 4)")
    t.play("bid nil", "bid 3", "bid 2")
    assert [t.pvar("bid", s) for s in range(4)] == [2, 4, 0, 3]
    assert "Players 1 & 3 bid 2 (2 and nil), Players 2 & 4 bid 7 (4 and 3)" in t.text()
    assert t.deciding == 1 and t.legal()[0].startswith("lead")


def test_a_partnership_bids_at_most_13_alternative():                         # C11
    t = spades(partnership_bid_cap="thirteen")
    assert t.legal() == ["bid nil"] + [f"bid {n}" for n in range(1, 14)]  # partner has not bid
    t.play("bid 9", "bid 12")                              # Player 2 bids 9, Player 3 12
    assert t.deciding == 3 and t.legal() == ["bid nil"] + [f"bid {n}" for n in range(1, 5)]
    t.play("bid 4")
    assert t.deciding == 0 and t.legal() == ["bid nil", "bid 1"]
    t = spades(partnership_bid_cap="thirteen")
    t.play("bid nil")                                      # a nil leaves partner all 13
    t.play("bid 5", "bid 13")
    assert t.deciding == 0 and t.legal() == ["bid nil"] + [f"bid {n}" for n in range(1, 9)]


def test_no_cap_on_a_partnerships_bids_by_default():                         # R4, C11
    t = spades()
    t.play("bid 9", "bid 12", "bid 13")
    assert t.deciding == 0 and t.legal() == ["bid nil"] + [f"bid {n}" for n in range(1, 14)]


def test_blind_nil_is_bid_before_looking_at_the_cards():                     # R6, C4
    t = spades(blind_nil="always")
    assert t.deciding == 1 and t.legal() == ["bid blind nil", "look at your cards"]
    assert view(t.program, t.state, 1)["zones"]["unseen"][1] == [None] * 13
    assert t.zone("hand", 1) == []
    t.play("look at your cards")
    assert sorted(t.zone("hand", 1)) == sorted(P[1].split())
    assert t.legal()[0] == "bid nil" and "Player 2 looks at their cards" in t.text()


def test_blind_nil_only_for_a_partnership_behind_by_100():                  # R6, C4
    t = spades(losing_score=-100000)
    assert t.legal()[0] == "bid nil"                       # level scores: nobody may bid blind
    t.state.pvars["score"] = [-600, 0, -600, 0]
    t.play_until(lambda t: t.var("hand_no") == 2)              # Player 2 deals hand 2
    assert t.pvar("score", 0) <= t.pvar("score", 1) - 100
    assert t.deciding == 2 and t.legal() == ["bid blind nil", "look at your cards"]
    t.play("look at your cards", "bid 3")
    assert t.deciding == 3 and t.legal()[0] == "bid nil"   # Players 2 & 4 are ahead


def test_blind_nil_never_alternative():                                      # C4
    t = spades(blind_nil="never", losing_score=-100000)
    t.state.pvars["score"] = [-600, 0, -600, 0]
    t.play_until(lambda t: t.var("hand_no") == 2)
    assert t.legal()[0] == "bid nil"


def test_a_blind_nil_bidder_exchanges_two_cards_with_partner():             # R7, C5
    t = spades(blind_nil="always")
    t.play("bid blind nil")
    for _ in range(3):
        t.play("look at your cards", "bid 3")
    assert t.deciding == 1 and t.legal()[0] == "pass 6♣ to your partner"
    t.play("pass 6♣ to your partner", "pass 5♠ to your partner")
    assert t.deciding == 3 and {"6♣", "5♠"} <= set(t.zone("hand", 3))
    t.play("pass Q♣ to your partner", "pass A♠ to your partner")
    assert {"Q♣", "A♠"} <= set(t.zone("hand", 1)) and "6♣" not in t.zone("hand", 1)
    assert len(t.zone("hand", 1)) == len(t.zone("hand", 3)) == 13
    assert "Player 2 and Player 4 exchange two cards" in t.text()
    assert t.deciding == 1 and t.legal()[0].startswith("lead")


def test_no_exchange_alternative():                                          # C5
    t = spades(blind_nil="always", blind_exchange="none")
    t.play("bid blind nil")
    for _ in range(3):
        t.play("look at your cards", "bid 3")
    assert t.deciding == 1 and t.legal()[0].startswith("lead")
    assert sorted(t.zone("hand", 1)) == sorted(P[1].split())


def test_dealers_left_leads_but_not_a_spade():                              # R8, R10
    t = bid(spades(), 3, 3, 3, 3)
    assert t.deciding == 1 and "lead 5♠" not in t.legal() and len(t.legal()) == 12
    assert refusal(t.program, t.state, "5♠")[1] == "spades may not be led until they are broken"


def test_two_of_clubs_leads_alternative():                                  # C6
    t = bid(spades(first_lead="two_of_clubs"), 3, 3, 3, 3)
    assert t.deciding == 0 and t.legal() == ["lead 2♣"]


def test_players_must_follow_suit():                                         # R9
    t = bid(spades(), 3, 3, 3, 3).play("lead 6♣", "play 6♠")
    assert t.legal() == ["play Q♣", "play K♣", "play A♣"]
    assert refusal(t.program, t.state, "A♠")[1] == "you must follow suit (clubs) while you can"


def test_a_spade_wins_over_the_suit_led_and_breaks_spades():                # R10, R11
    t = bid(spades(), 3, 3, 3, 3)
    t.play("lead 6♣")
    assert len(t.legal()) == 13                            # Player 3 has no club: anything
    t.play("play 6♠", "play A♣", "play 2♣")
    assert "spades are broken" in t.text()
    assert "Player 3 takes the trick (6♣ 6♠ A♣ 2♣)" in t.text()
    assert t.pvar("tricks", 2) == 1 and t.deciding == 2
    assert "lead J♠" in t.legal()                          # spades may now be led


def test_the_highest_card_of_the_suit_led_wins_without_spades():            # R11
    t = bid(spades(), 3, 3, 3, 3).play("lead 6♣", "play 8♦", "play K♣", "play 5♣")
    assert t.deciding == 3 and t.pvar("tricks", 3) == 1


def test_spades_led_any_time_alternative():                                 # C7
    t = bid(spades(spades_lead="any_time"), 3, 3, 3, 3)
    assert "lead 5♠" in t.legal()


def test_a_leader_with_only_spades_may_lead_one():                          # R10
    t = bid(spades(), 3, 3, 3, 3)
    ix = {d: i for i, d in enumerate(t.program.deck.display)}
    t.state.zones["hand"][1][:] = [ix["5♠"]]
    t.refresh()
    assert t.legal() == ["lead 5♠"]


def test_a_made_contract_scores_ten_a_trick_and_one_a_bag():                # R12, R14
    t = last_trick(bid(spades(), 3, 3, 3, 2), LAST, [4, 3, 2, 3])
    end_hand(t)                                            # 1&3: 6 of 6; 2&4: 7 of 5 (the A♣ trick)
    assert t.pvar("score", 0) == 60 and t.pvar("score", 1) == 52 and t.pvar("bags", 1) == 2
    assert "Players 1 & 3 bid 6 and take 6: they make it, 60 points" in t.text()
    assert "Players 2 & 4 take 2 bags: 2 points" in t.text()


def test_a_set_contract_loses_ten_a_trick():                                # R13
    t = last_trick(bid(spades(), 5, 3, 4, 2), LAST, [4, 3, 2, 3])
    end_hand(t)                                            # 1&3 bid 9, take 6
    assert t.pvar("score", 0) == -90 and t.pvar("bags", 0) == 0
    assert "Players 1 & 3 bid 9 but take only 6: they are set, -90 points" in t.text()


def test_ten_bags_cost_100_and_the_rest_carry_over():                       # R14, C1
    t = last_trick(bid(spades(), 3, 3, 3, 2), LAST, [4, 3, 2, 3], scores=[100, 100, 100, 100], bags=[0, 9, 0, 9])
    end_hand(t)
    assert t.pvar("score", 1) == 100 + 50 + 2 - 100 and t.pvar("bags", 1) == 1
    assert "Players 2 & 4 have collected 10 bags: 100 points off" in t.text()


def test_twenty_bags_cost_200():                                              # R14, C1
    # Both nil bidders of 2 & 4 fail and take all 13 tricks: 9 bags carried + 13 = 22, two
    # tens (the penalty was once taken only once, leaving 12 bags).
    t = last_trick(bid(spades(), 1, 0, 1, 0), LAST, [0, 6, 0, 6], bags=[0, 9, 0, 9])
    end_hand(t)
    assert t.pvar("bags", 1) == t.pvar("bags", 3) == 2
    assert t.pvar("score", 1) == -200 + 13 - 200
    assert t.text().count("Players 2 & 4 have collected 10 bags: 100 points off") == 2


def test_bags_without_penalty_alternative():                                 # C1
    t = last_trick(bid(spades(bags="no_penalty"), 3, 3, 3, 2), LAST, [4, 3, 2, 3], bags=[0, 9, 0, 9])
    end_hand(t)
    assert t.pvar("score", 1) == 52 and t.pvar("bags", 1) == 11


def test_nil_wins_or_loses_100_independently_of_partners_contract():        # R15
    t = last_trick(bid(spades(), 0, 3, 5, 2), LAST, [0, 3, 5, 4])
    end_hand(t)                                            # Player 1 nil made; Player 3 bid 5, took 5
    assert t.pvar("score", 0) == 100 + 50
    assert "Player 1 makes nil: 100 points" in t.text()
    t = last_trick(bid(spades(), 0, 3, 5, 2), LAST, [1, 3, 4, 4])
    end_hand(t)                                            # nil failed, and 4 of 5: set too;
    assert t.pvar("score", 0) == -100 - 50 + 1             # Player 1's trick is a bag (C2)
    assert "Player 1 bid nil but takes 1 trick: -100 points" in t.text()


def test_blind_nil_wins_or_loses_200():                                      # R15
    t = spades(blind_nil="always")
    t.play("bid blind nil")
    for _ in range(3):
        t.play("look at your cards", "bid 3")
    t.play("pass 6♣ to your partner", "pass 5♠ to your partner", "pass 6♣ to your partner", "pass 5♠ to your partner")
    t = last_trick(t, LAST, [3, 0, 3, 6])
    end_hand(t)                                            # Player 2 took no trick; Player 4 3 of 3 + bags
    assert t.pvar("score", 1) == 200 + 30 + 4


def test_failed_nil_tricks_count_as_bags_by_default():                      # C2
    t = last_trick(bid(spades(), 0, 3, 4, 2), LAST, [2, 3, 4, 3])
    end_hand(t)                                            # 1&3: Player 3 makes 4; Player 1's 2 are bags
    assert t.pvar("score", 0) == -100 + 40 + 2 and t.pvar("bags", 0) == 2


def test_failed_nil_tricks_ignored_alternative():                            # C2
    t = last_trick(bid(spades(nil_tricks="ignored"), 0, 3, 4, 2), LAST, [2, 3, 4, 3])
    end_hand(t)
    assert t.pvar("score", 0) == -100 + 40 and t.pvar("bags", 0) == 0


def test_failed_nil_tricks_count_for_the_contract_alternative():             # C2
    t = last_trick(bid(spades(nil_tricks="contract"), 0, 3, 5, 2), LAST, [2, 3, 3, 4])
    end_hand(t)                                            # Player 3 bid 5 and took 3, Player 1 2
    assert t.pvar("score", 0) == -100 + 50


def test_nil_value_50_alternative():                                        # C3
    t = last_trick(bid(spades(nil_value=50), 0, 3, 5, 2), LAST, [0, 3, 5, 4])
    end_hand(t)
    assert t.pvar("score", 0) == 50 + 50


def test_reaching_500_wins_the_game():                                      # R16, C8
    t = last_trick(bid(spades(), 3, 3, 3, 2), LAST, [4, 3, 2, 3], scores=[450, 300, 450, 300])
    end_hand(t)
    assert t.over and t.winners == [0, 2] and t.scores == [510, 352, 510, 352]


def test_both_over_500_the_higher_wins():                                   # R16
    t = last_trick(bid(spades(), 3, 3, 3, 2), LAST, [4, 3, 2, 3], scores=[480, 490, 480, 490])
    end_hand(t)
    assert t.over and t.winners == [1, 3]                  # 542 against 540


def test_a_tie_above_500_plays_on():                                         # R16
    t = last_trick(bid(spades(), 3, 3, 3, 2), LAST, [4, 3, 2, 3], scores=[492, 500, 492, 500])
    end_hand(t)
    assert not t.over and t.pvar("score", 0) == t.pvar("score", 1) == 552


def test_falling_to_minus_200_loses():                                      # R16, C9
    t = last_trick(bid(spades(), 5, 3, 4, 2), LAST, [4, 3, 2, 3], scores=[-150, 0, -150, 0])
    end_hand(t)
    assert t.over and t.winners == [1, 3] and t.pvar("score", 0) == -240
    t = last_trick(bid(spades(losing_score=-500), 5, 3, 4, 2), LAST, [4, 3, 2, 3], scores=[-150, 0, -150, 0])
    end_hand(t)
    assert not t.over


def test_target_250_alternative():                                          # C8
    t = last_trick(bid(spades(target_score=250), 3, 3, 3, 2), LAST, [4, 3, 2, 3], scores=[200, 0, 200, 0])
    end_hand(t)
    assert t.over and t.winners == [0, 2]


def test_the_deal_passes_to_the_left():                                      # R3, C10
    t = spades(losing_score=-100000)
    t.play_until(lambda t: t.var("hand_no") == 2)
    assert t.var("dealer") == 1 and "hand 2: Player 2 deals" in t.text()


def test_random_games_end_with_the_higher_partnership_winning():           # R16
    for seed in range(4):
        t = Table("spades", seed=seed).play_out()
        a, b = t.scores[0], t.scores[1]
        assert a != b and (max(a, b) >= 500 or min(a, b) <= -200)
        assert t.winners == ([0, 2] if a > b else [1, 3])
