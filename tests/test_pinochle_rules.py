"""pinochle, rule by rule (R.. and C.. of docs/games/pinochle.md).

`pin(hands)` stacks the deck with Player 1 (seat 0) dealing: twelve cards each, three at a time
from Player 2, on the dealer's left, who calls first.  `won(t)` plays the auction the tests
mostly use: Player 2 bids 250, Players 3 and 4 pass, Player 1 bids 260 and Player 2 passes;
Player 1 names spades.  `last_trick(...)` jumps to the last trick of the hand with the
counters and tricks each side has taken."""
from __future__ import annotations

from conftest import Table
from interpreter.runtime.engine import refusal

SUITS = "♠♥♣♦"
RANKS = ["9", "J", "Q", "K", "10", "A"]
DECK = [r + s for s in SUITS for r in RANKS for _ in range(2)]

# With spades trumps: Player 1 a run, a second K Q of spades (a royal marriage), the dix, aces
# around and a pinochle (340); Player 2 the dix, a marriage and aces around (130); Player 3
# three marriages (60); Player 4 two marriages (40).  Players 3 and 4 hold no spade.
P = ["A♠ 10♠ K♠ Q♠ J♠ K♠ Q♠ 9♠ A♥ A♣ A♦ J♦",
     "A♠ 10♠ J♠ 9♠ A♥ 10♥ K♥ Q♥ A♣ 10♣ A♦ 10♦",
     "10♥ K♥ Q♥ J♥ 9♥ K♣ Q♣ J♣ 9♣ K♦ Q♦ J♦",
     "J♥ 9♥ 10♣ K♣ Q♣ J♣ 9♣ 10♦ K♦ Q♦ 9♦ 9♦"]


def deal(hs):
    hs = [h.split() for h in hs]
    assert sorted(sum(hs, [])) == sorted(DECK)
    return [c for k in range(4) for seat in (1, 2, 3, 0) for c in hs[seat][3 * k:3 * k + 3]]


def pin(hs=P, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("pinochle", stack=deal(hs), options=options, players=4)


def won(t, trumps="name ♠ spades") -> Table:
    return t.play("bid 250", "pass", "pass", "bid 260", "pass", trumps)


def hold(t, hands) -> Table:
    """Each seat holds only the cards of hands[i] (the rest go to the stock)."""
    ix = {d: [] for d in t.program.deck.display}
    for i, d in enumerate(t.program.deck.display):
        ix[d].append(i)
    z = t.state.zones
    for seat in range(4):
        z["hand"][seat][:] = [ix[c].pop() for c in hands[seat].split()]
    z["stock"][:] = [c for cs in ix.values() for c in cs]
    return t.refresh()


def last_trick(t, last, counters, tricks, scores=(0, 0)) -> Table:
    """The last trick: seat i holds only last[i]; the side of Players 1 & 3 has taken
    counters[0] in tricks[0] tricks, the other side the rest of the eleven."""
    ix = {d: [] for d in t.program.deck.display}
    for i, d in enumerate(t.program.deck.display):
        ix[d].append(i)
    z = t.state.zones
    for seat in range(4):
        z["hand"][seat][:] = [ix[last[seat]].pop()]
        z["taken"][seat][:] = []
    z["stock"][:] = [c for cs in ix.values() for c in cs]
    for name, pair in (("counters", counters), ("tricks", tricks), ("score", scores)):
        t.state.pvars[name] = [pair[0], pair[1], pair[0], pair[1]]
    t.state.vars.update(trick_no=12)
    return t.refresh()


def test_two_partnerships_share_a_score():                                       # R1
    t = Table("pinochle", options={"dealer": "seat_1"}, players=4, seed=3).play_out()
    assert t.scores[0] == t.scores[2] and t.scores[1] == t.scores[3]
    assert t.winners in ([0, 2], [1, 3])


def test_the_deck_is_48_cards_two_of_each():                                     # R2
    t = pin()
    assert len(t.program.deck.display) == 48
    assert sorted(t.program.deck.display) == sorted(DECK)


def test_twelve_cards_each_three_at_a_time_from_the_dealers_left():              # R3
    t = pin()
    assert [sorted(t.zone("hand", s)) for s in range(4)] == [sorted(h.split()) for h in P]
    assert t.deciding == 1


def test_the_auction_starts_at_the_minimum_and_goes_up_by_ten():                 # R4, C2
    t = pin()
    assert t.legal() == ["pass", "bid 250", "bid more than 250"]
    t.play("bid more than 250")
    assert t.legal()[0] == "bid 260" and t.legal()[-1] == "bid 450"
    t.play("bid 300")
    assert t.legal() == ["pass", "bid 310", "bid more than 310"]
    assert pin(min_bid=200).legal()[1] == "bid 200"


def test_a_pass_is_final_and_the_last_bidder_wins():                             # R4
    t = pin().play("bid 250", "pass", "bid 260")
    assert t.deciding == 0                               # Player 3 passed: skipped from now on
    t.play("pass", "bid 270", "pass")                   # Player 1 passes, Player 2 bids, Player 4 passes
    assert t.deciding == 1 and t.var("bidder") == 1 and t.var("high") == 270
    assert [t.pvar("last_call", s) for s in range(4)] == ["pass", "bid 270", "pass", "pass"]
    assert "Player 2 wins the auction at 270" in t.text()


def test_the_dealer_is_stuck_when_three_pass():                                  # R4, C3
    t = pin().play("pass", "pass", "pass")
    assert t.deciding == 0 and t.legal() == ["bid 250", "bid more than 250"]
    t = pin(all_pass="redeal").play("pass", "pass", "pass")
    assert t.legal()[0] == "pass"
    t.play("pass")
    assert "all four pass: the cards are thrown in and the next dealer deals" in t.text()
    assert t.var("dealer") == 1 and t.var("hands") == 0


def test_the_bidder_names_trumps():                                              # R5
    t = pin().play("bid 250", "pass", "pass", "bid 260", "pass")
    assert t.deciding == 0 and len(t.legal()) == 4
    t.play("name ♥ hearts")
    assert t.var("trump") == "H" and "Player 1 names ♥ hearts trumps" in t.text()


def test_melds_are_scored_and_shown():                                           # R6
    t = won(pin())
    assert [t.pvar("meld", s) for s in range(4)] == [340, 130, 60, 40]
    assert t.pvar("side_meld", 0) == t.pvar("side_meld", 2) == 400
    text = t.text()
    assert ("Player 1 melds 340: a run 150, a royal marriage 40, the dix 10, aces around 100, "
            "pinochle 40") in text
    assert "Player 2 melds 130: a marriage 20, the dix 10, aces around 100" in text
    assert "Player 3 melds 60: 3 marriages 60" in text


def test_meld_cards_are_shown_and_the_rest_stay_hidden():                         # R6
    t = won(pin())
    shown = [t.program.deck.display[c] for c in t.state.revealed]
    assert shown.count("K♠") == 2 and shown.count("A♠") == 2 and shown.count("9♠") == 2
    assert "9♥" not in shown and "10♣" not in shown and shown.count("J♦") == 1


def test_the_double_melds():                                                     # R6
    hs = ["A♠ A♠ A♥ A♥ A♣ A♣ A♦ A♦ Q♠ Q♠ J♦ J♦",
          "10♠ 10♠ K♠ K♠ J♠ J♠ 9♠ 9♠ 10♥ 10♥ K♥ K♥",
          "Q♥ Q♥ J♥ J♥ 9♥ 9♥ 10♣ 10♣ K♣ K♣ Q♣ Q♣",
          "J♣ J♣ 9♣ 9♣ 10♦ 10♦ K♦ K♦ Q♦ Q♦ 9♦ 9♦"]
    t = won(pin(hs), "name ♦ diamonds")
    assert t.pvar("meld", 0) == 1000 + 300                 # double aces, double pinochle
    assert "Player 1 melds 1300: double aces 1000, double pinochle 300" in t.text()
    assert t.pvar("meld", 3) == 80 + 20                    # two royal marriages, both dix
    assert t.pvar("meld", 2) == 40                         # two marriages of clubs


def test_a_double_run():                                                         # R6
    hs = ["A♠ A♠ 10♠ 10♠ K♠ K♠ Q♠ Q♠ J♠ J♠ 9♠ 9♥",
          "A♥ 10♥ K♥ Q♥ J♥ 9♠ A♣ 10♣ K♣ Q♣ J♣ 9♣",
          "A♥ 10♥ K♥ Q♥ J♥ 9♥ A♣ 10♣ K♣ Q♣ J♣ 9♣",
          "A♦ A♦ 10♦ 10♦ K♦ K♦ Q♦ Q♦ J♦ J♦ 9♦ 9♦"]
    t = won(pin(hs))
    assert t.pvar("meld", 0) == 1500 + 10                 # the run twice, no royal marriage besides
    assert t.pvar("meld", 3) == 40                          # two marriages of diamonds, not trumps


def test_the_bidder_leads_first():                                               # R7, C4
    t = won(pin())
    assert t.deciding == 0 and t.legal()[0].startswith("lead ")
    t = won(pin(first_lead="dealer_left"))
    assert t.deciding == 1


def test_follow_suit_and_head_the_trick():                                       # R8, C7
    t = won(pin()).play("lead 9♠")
    assert sorted(t.legal()) == ["play 10♠", "play A♠", "play J♠"]
    assert refusal(t.program, t.state, "play 9♠")[1].startswith("you must follow suit, higher")
    t = won(pin(head_the_trick="need_not")).play("lead 9♠")
    assert sorted(t.legal()) == ["play 10♠", "play 9♠", "play A♠", "play J♠"]


def test_a_player_who_cannot_head_plays_any_card_of_the_suit():                 # R8
    t = won(pin()).play("lead A♥")
    assert sorted(t.legal()) == ["play 10♥", "play A♥", "play K♥", "play Q♥"]


def test_without_the_suit_trump_and_over_trump():                                # R8
    t = hold(won(pin()), ["K♥ Q♣", "9♠ Q♠ J♣", "A♥ 9♥ 9♣", "10♠ J♠ 9♦"]).play("lead K♥")
    assert sorted(t.legal()) == ["play 9♠", "play Q♠"]                 # no heart: trump
    assert refusal(t.program, t.state, "play J♣")[1].startswith("you must trump")
    t.play("play Q♠")
    assert sorted(t.legal()) == ["play 9♥", "play A♥"]                 # trumped: any heart
    t.play("play 9♥")
    assert t.legal() == ["play 10♠"]                                   # over-trump the Q♠
    t = hold(won(pin()), ["K♥ Q♣", "A♠ Q♠ J♣", "A♥ 9♥ 9♣", "10♠ J♠ 9♦"]).play("lead K♥", "play A♠", "play 9♥")
    assert sorted(t.legal()) == ["play 10♠", "play J♠"]                # cannot over-trump: still trump


def test_the_first_of_two_identical_cards_wins():                                # R9
    t = won(pin()).play("lead A♠", "play A♠", "play 9♥", "play 9♥")
    assert "Player 1 takes the trick with A♠" in t.text() and t.deciding == 0


def test_counters_and_the_last_trick_make_250():                                  # R10, C5
    t = won(pin()).play_out()
    text = t.text()
    import re
    hand1 = text.split("-- end of hand")[0] if "-- end of hand" in text else text
    m = re.findall(r"counters (\d+)\)", hand1)
    assert len(m) >= 2 and int(m[0]) + int(m[1]) == 250


def test_a_side_without_a_trick_loses_its_meld():                                 # R11, C6
    t = last_trick(won(pin()), ["A♠", "9♠", "9♥", "9♦"], counters=(240, 0), tricks=(11, 0))
    t.play("lead A♠", "play 9♠", "play 9♥", "play 9♦")
    assert "Players 2 & 4 take no trick: their meld of 170 does not count" in t.text()
    assert t.pvar("score", 1) == 0 and t.pvar("score", 0) == 400 + 260
    t = last_trick(won(pin(save_meld="nothing")), ["A♠", "9♠", "9♥", "9♦"], counters=(240, 0), tricks=(11, 0))
    t.play("lead A♠", "play 9♠", "play 9♥", "play 9♦")
    assert t.pvar("score", 1) == 170


def test_a_bid_made_scores_all_and_a_bid_missed_is_set_back():                   # R12
    t = last_trick(won(pin()), ["A♠", "9♠", "9♥", "9♦"], counters=(0, 240), tricks=(1, 10))
    t.play("lead A♠", "play 9♠", "play 9♥", "play 9♦")            # 400 meld + 10 + 10 = 420 >= 260
    assert t.pvar("score", 0) == 420 and t.pvar("score", 1) == 170 + 240
    hs = list(P)
    t = pin(hs).play("bid 250", "pass", "pass", "bid more than 260", "bid 450", "pass", "name ♠ spades")
    t = last_trick(t, ["9♠", "A♠", "9♥", "9♦"], counters=(0, 230), tricks=(1, 10))
    t.play("lead 9♠", "play A♠", "play 9♥", "play 9♦")            # 400 + 0 < 450: set back
    assert t.pvar("score", 0) == -450 and "they are set back 450" in t.text()
    assert t.pvar("score", 1) == 170 + 230 + 10 + 10


def test_reaching_1500_wins_and_the_bidders_count_first():                       # R13, C1, C8
    t = last_trick(won(pin()), ["A♠", "9♠", "9♥", "9♦"], counters=(0, 230), tricks=(1, 10), scores=(1200, 1400))
    t.play("lead A♠", "play 9♠", "play 9♥", "play 9♦")
    assert t.over and t.winners == [0, 2]                           # both past 1500: the bidders win
    t = last_trick(won(pin(both_reach="higher_score")), ["A♠", "9♠", "9♥", "9♦"], counters=(0, 230),
                   tricks=(1, 10), scores=(1200, 1400))
    t.play("lead A♠", "play 9♠", "play 9♥", "play 9♦")
    assert t.over and t.winners == [1, 3]                           # 1800 against 1620


def test_falling_to_minus_1500_loses():                                          # R13, C9
    t = pin().play("bid 250", "pass", "pass", "bid more than 260", "bid 450", "pass", "name ♠ spades")
    t = last_trick(t, ["9♠", "A♠", "9♥", "9♦"], counters=(0, 230), tricks=(1, 10), scores=(-1200, 0))
    t.play("lead 9♠", "play A♠", "play 9♥", "play 9♦")
    assert t.over and t.winners == [1, 3] and t.scores[0] == -1650


def test_counting_alternatives_also_make_250():                                  # C5
    for counting in ("fives", "traditional"):
        t = Table("pinochle", options={"dealer": "seat_1", "counting": counting}, players=4)
        assert sum(t.program.deck.attrs["counter"][1]) == 240


def test_the_partners_exchange_cards_alternative():                              # C12
    t = won(pin(passing="four"))
    assert t.deciding == 2 and t.legal()[0].startswith("pass ")       # Player 3, the partner, first
    t.play("pass 10♥", "pass K♥", "pass Q♥", "pass J♥")
    assert len(t.zone("hand", 0)) == 16 and t.deciding == 0
    t.play("pass 9♠", "pass A♥", "pass A♣", "pass A♦")
    assert [len(t.zone("hand", s)) for s in range(4)] == [12] * 4
    assert "Player 1 melds" in t.text() and t.legal()[0].startswith("lead ")
    assert t.pvar("meld", 0) == 150 + 40 + 40 + 20              # run, royal marriage, pinochle, marriage of hearts


def test_the_bidder_may_throw_in_the_hand_alternative():                         # C13
    t = won(pin(concede="yes"))
    assert t.deciding == 0 and t.legal() == ["play the hand", "throw in the hand (set back 260)"]
    t.play("throw in the hand (set back 260)")
    assert t.pvar("score", 0) == -260 and t.pvar("score", 1) == 170
    assert t.var("dealer") == 1


def test_a_side_must_take_a_counter_to_keep_its_meld_alternative():             # C6
    t = last_trick(won(pin(save_meld="a_counter")), ["9♠", "A♠", "9♥", "9♦"], counters=(0, 240), tricks=(1, 10))
    t.play("lead 9♠", "play A♠", "play 9♥", "play 9♦")            # a trick, but no counter in it
    assert "Players 1 & 3 take no trick with a counter: their meld of 400 does not count" in t.text()
    assert t.pvar("score", 0) == -260


def test_a_jump_may_go_up_to_largest_jump_above_the_least_bid():                  # C11
    t = pin(largest_jump=500).play("bid more than 250")
    assert t.legal()[-1] == "bid 750" and len(t.legal()) == 50


def test_the_target_1000_alternative():                                          # C1
    t = last_trick(won(pin(target_score=1000)), ["A♠", "9♠", "9♥", "9♦"], counters=(0, 230), tricks=(1, 10),
                   scores=(600, 0))
    t.play("lead A♠", "play 9♠", "play 9♥", "play 9♦")
    assert t.over and t.winners == [0, 2] and t.scores[0] == 600 + 420


def test_the_deal_passes_to_the_left():                                           # R3
    t = last_trick(won(pin()), ["A♠", "9♠", "9♥", "9♦"], counters=(0, 230), tricks=(1, 10))
    t.play("lead A♠", "play 9♠", "play 9♥", "play 9♦")
    assert not t.over and t.var("dealer") == 1 and t.deciding == 2      # Player 3 calls first
