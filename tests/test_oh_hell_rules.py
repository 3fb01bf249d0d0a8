"""oh_hell, rule by rule (R.. and C.. of docs/games/oh_hell.md).

`deal(hands, turnup, dealer)` stacks one hand: `hands` lists each seat's cards, the deal goes
one card at a time from the dealer's left, and `turnup` is the next card. Most tests play
`hand_sequence=up_down` so that the first hand has one card each and the second two.
"""
from __future__ import annotations

from conftest import Table
from interpreter.playing.agents import FirstAgent
from interpreter.runtime.engine import prompt, refusal


def deal(hands, turnup=None, dealer=0):
    hands = [h.split() for h in hands]
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    cards = [hands[seat][k] for k in range(len(hands[0])) for seat in order]
    return cards + ([turnup] if turnup else [])


def oh(*stacks, players=4, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("oh_hell", stacks=[list(s) for s in stacks], options=options, players=players)


# One card each, Player 1 deals, hearts are trumps (2♥ turned): Player 2 bids and leads first.
ONE = deal(["5♦", "A♠", "K♠", "3♥"], "2♥")


def bids(t, *ns):
    for n in ns:
        t.play(f"bid {n}")
    return t


def test_three_to_seven_players_and_a_52_card_deck_ace_high():              # R1, R2
    t = oh(ONE, hand_sequence="up_down")
    assert t.program.players[:2] == (3, 7)
    assert len(t.program.deck.display) == 52
    order = dict(zip(t.program.deck.display, t.program.deck.attrs["order"][1]))
    assert order["A♠"] > order["K♠"] > order["2♠"]


def test_the_largest_hand_comes_first_then_one_card_fewer_each_hand():     # R3, C1, C2
    assert oh().var("size") == 13                                             # 4 players: 13 each
    assert oh(players=3).var("size") == 17
    assert oh(players=5).var("size") == 10
    assert oh(players=7).var("size") == 7
    assert "13 hands will be played" in oh().text()
    t = oh(players=7)
    t.play_out(FirstAgent())
    sizes = [line for line in t.text().splitlines() if " deals " in line]
    assert sizes[0].endswith("deals 7 cards each") and sizes[-1].endswith("deals 1 card each")
    assert len(sizes) == 7


def test_the_hand_sizes_options():                                           # C1, C2
    assert oh(max_hand="keep_a_trump").var("size") == 12
    assert oh(max_hand="ten").var("size") == 10
    assert oh(max_hand="ten", players=6).var("size") == 8
    assert "25 hands will be played" in oh(hand_sequence="down_up").text()
    assert oh(ONE, hand_sequence="up_down").var("size") == 1
    t = oh(players=7, hand_sequence="down_up")
    t.play_out(FirstAgent())
    sizes = [int(line.split(" deals ")[1].split()[0]) for line in t.text().splitlines() if " deals " in line]
    assert sizes == [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]


def test_the_deal_starts_on_the_dealers_left_and_the_next_card_names_trumps():  # R3, R4
    t = oh(ONE, hand_sequence="up_down")
    assert [t.zone("hand", s) for s in range(4)] == [["5♦"], ["A♠"], ["K♠"], ["3♥"]]
    assert t.zone("turnup") == ["2♥"] and t.var("trump") == "H"
    assert "Player 1 turns up 2♥: ♥ hearts are trumps" in t.text()


def test_no_card_left_to_turn_means_no_trumps():                             # R4, C6
    t = oh()                                                                  # 4 x 13 = 52
    assert t.zone("stock") == [] and t.zone("turnup") == [] and t.var("trump") == ""
    assert "no card is left to turn: this hand is played without trumps" in t.text()


def test_the_dealers_last_card_may_name_trumps():                           # C6
    t = Table("oh_hell", options={"dealer": "seat_1", "no_trump_hand": "dealer_last_card"}, players=4)
    last = t.state.zones["hand"][0]
    shown = [c for c in last if c in t.state.revealed]
    assert len(shown) == 1
    card = t.program.deck.display[shown[0]]
    assert t.var("trump") == {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}[card[-1]]
    assert f"Player 1 shows their last card, {card}" in t.text()


def test_bids_go_round_from_the_dealers_left_from_zero_to_the_hand_size():  # R5
    t = oh(ONE, hand_sequence="up_down")
    assert t.deciding == 1 and t.legal() == ["bid 0", "bid 1"]                # one card first (up_down)
    t = oh(hand_sequence="down")
    assert t.deciding == 1 and t.legal() == [f"bid {n}" for n in range(14)]
    bids(t, 3, 4, 2)
    assert t.pvar("bid", 1) == 3 and t.pvar("bid", 2) == 4 and t.pvar("bid", 3) == 2
    assert t.deciding == 0                                                    # the dealer bids last


def test_the_dealer_may_not_make_the_bids_add_up_to_the_tricks():          # R6, C3
    t = bids(oh(ONE, hand_sequence="up_down"), 0, 0, 0)
    assert t.deciding == 0 and t.legal() == ["bid 0"]
    label, why = refusal(t.program, t.state, "bid 1")
    assert "the dealer may not bid 1: the bids would add up to 1" in why
    t = bids(oh(hand_sequence="down"), 3, 4, 2)
    assert "bid 4" not in t.legal() and len(t.legal()) == 13
    t = bids(oh(ONE, hand_sequence="up_down", hook="none"), 0, 0, 0)
    assert t.legal() == ["bid 0", "bid 1"]


def test_the_bidding_prompt_and_the_total_of_the_bids():                    # R5, R6, C3
    t = bids(oh(ONE, hand_sequence="up_down"), 1)
    assert prompt(t.program, t.state) == "Bid the tricks you will take, 0 to 1 (the bids so far add up to 1)"
    t = bids(t, 0, 0)
    assert prompt(t.program, t.state).endswith("(the bids so far add up to 1; as dealer you may not bid 0)")
    t = bids(t, 1)
    assert "the bids add up to 2 for 1 trick: overbid by 1" in t.text()
    t = bids(oh(ONE, hand_sequence="up_down", hook="none"), 0, 0, 0, 1)   # once read "underbid by 0"
    assert "the bids add up to 1 for 1 trick: exactly as many as the tricks" in t.text()
    t = bids(oh(ONE, hand_sequence="up_down"), 0, 0, 0, 0)
    assert "the bids add up to 0 for 1 trick: underbid by 1" in t.text()


def test_the_player_on_the_dealers_left_leads_first():                      # R7
    t = bids(oh(ONE, hand_sequence="up_down"), 1, 0, 0, 1)
    assert t.deciding == 1 and t.legal() == ["lead A♠"]


def test_a_player_must_follow_suit_while_they_can():                       # R8
    hand2 = deal(["9♠ 2♥", "A♠ 4♦", "K♠ Q♣", "3♦ 5♦"], "2♣", dealer=1)
    t = oh(ONE, hand2, hand_sequence="up_down")
    bids(t, 1, 0, 0, 1).play("lead A♠", "play K♠", "play 3♥", "play 5♦")
    assert t.var("hand_no") == 2 and t.var("dealer") == 1 and t.deciding == 2   # the deal moved left
    bids(t, 0, 0, 1, 0).play("lead K♠")                                         # P3 leads, P4: no spade
    assert sorted(t.legal()) == ["play 3♦", "play 5♦"]
    t.play("play 3♦")
    assert t.legal() == ["play 9♠"]                                              # P1 holds a spade
    label, why = refusal(t.program, t.state, "2♥")
    assert "you must follow suit (♠ spades) while you can" in why


def test_the_highest_trump_wins_else_the_highest_card_of_the_suit_led():    # R9
    t = bids(oh(ONE, hand_sequence="up_down"), 1, 0, 0, 1)
    t.play("lead A♠", "play K♠", "play 3♥", "play 5♦")
    assert "Player 4 takes the trick with 3♥" in t.text()                       # a low trump wins
    assert [t.pvar("score", s) for s in range(4)] == [0, 0, 10, 0]           # P4 bid 0 and took it
    t = bids(oh(deal(["5♦", "A♠", "K♠", "A♥"], "2♣"), hand_sequence="up_down"), 1, 0, 0, 1)
    t.play("lead A♠", "play K♠", "play A♥", "play 5♦")
    assert "Player 2 takes the trick with A♠" in t.text()                       # no trump: suit led wins


def test_the_winner_of_a_trick_leads_the_next():                            # R10
    hand2 = deal(["9♠ 2♥", "A♠ 4♦", "K♠ Q♣", "3♦ 5♦"], "2♣", dealer=1)
    t = oh(ONE, hand2, hand_sequence="up_down")
    bids(t, 1, 0, 0, 1).play("lead A♠", "play K♠", "play 3♥", "play 5♦")
    bids(t, 0, 0, 1, 0).play("lead K♠", "play 3♦", "play 9♠", "play A♠")
    assert "Player 2 takes the trick with A♠" in t.text()
    assert t.deciding == 1 and t.legal() == ["lead 4♦"]


def _first_hand(**options):
    t = bids(oh(ONE, hand_sequence="up_down", **options), 1, 1, 0, 0)        # P2 1, P3 1, P4 0, P1 0
    t.play("lead A♠", "play K♠", "play 3♥", "play 5♦")                     # P4 takes the trick
    return [t.pvar("score", s) for s in range(4)]


def test_an_exact_bid_scores_ten_plus_the_bid_a_missed_bid_nothing():       # R11, C4
    assert _first_hand() == [10, 0, 0, 0]                         # P1 made 0; P2, P3 missed 1; P4 bid 0 took 1
    t = bids(oh(ONE, hand_sequence="up_down"), 0, 0, 1, 1)                   # the hook: P1 must bid 1
    t.play("lead A♠", "play K♠", "play 3♥", "play 5♦")
    assert [t.pvar("score", s) for s in range(4)] == [0, 10, 10, 11]
    assert "Player 4 bid 1 and took 1: made it, 11 points (11 in all)" in t.text()


def test_the_scoring_variants():                                            # C4, C5, C8
    assert _first_hand(scoring="trick_each_plus_bonus") == [10, 0, 0, 1]
    assert _first_hand(scoring="bonus_or_penalty") == [10, -1, -1, -1]
    assert _first_hand(bonus=5) == [5, 0, 0, 0]
    assert _first_hand(nil_bid="five") == [5, 0, 0, 0]


def test_after_the_last_hand_the_highest_total_wins():                     # R12
    t = oh(players=3, hand_sequence="down", max_hand="ten").play_out(FirstAgent())
    assert t.over and t.var("hand_no") == 10
    scores = [t.pvar("score", s) for s in range(3)]
    assert t.scores == scores
    assert t.winners == [s for s in range(3) if scores[s] == max(scores)]
