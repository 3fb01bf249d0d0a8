"""bridge, rule by rule (R.. and C.. of docs/games/bridge.md).

`bridge(hands)` stacks the deck with North (seat 0) dealing: the cards go one at a time round
the table from East.  `last_trick(...)` jumps from the opening lead to the last trick, with
the tricks each seat has won.  Seats: 0 North, 1 East, 2 South, 3 West.
"""
from __future__ import annotations

from conftest import Table
from interpreter import view

SUITS = "♣♦♥♠"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in SUITS for r in RANKS]

# North all the spades, East the hearts, South the diamonds, West the clubs.
SOLID = [" ".join(r + s for r in RANKS) for s in "♠♥♦♣"]
# Every seat some of each suit: North 2♣ 6♣ 10♣ A♣ 5♦ 9♦ K♦ 4♥ 8♥ Q♥ 3♠ 7♠ J♠, ...
MIXED = [" ".join(DECK[i::4]) for i in range(4)]


def deal(hs, dealer=0):
    hs = [h.split() for h in hs]
    return [hs[(dealer + 1 + j) % 4][i] for i in range(13) for j in range(4)]


def bridge(hs=MIXED, dealer="north", **options) -> Table:
    d = ["north", "east", "south", "west"].index(dealer)
    return Table("bridge", stack=deal(hs, d), options=dict(options, dealer=dealer), players=4)


def last_trick(t, last, tricks) -> Table:
    """The last trick: seat i holds only last[i] (the dummy's on the table), having won
    tricks[i] tricks (12 in all).  The seat whose turn it is leads."""
    assert sum(tricks) == 12
    ix = {d: i for i, d in enumerate(t.program.deck.display)}
    z = t.state.zones
    dummy = t.var("dummy")
    for seat in range(4):
        z["hand"][seat][:] = [] if seat == dummy else [ix[last[seat]]]
        z["exposed"][seat][:] = [ix[last[seat]]] if seat == dummy else []
        z["taken"][seat][:] = []
    z["stock"][:] = [ix[c] for c in DECK if c not in last]
    t.state.pvars["tricks"] = list(tricks)
    t.state.vars.update(trick_no=13)
    return t.refresh()


def score_of(contract_calls, tricks_ns, declarer_last=0, **options):
    """North declares (the calls from North, the dealer); North–South have won `tricks_ns` of
    the first 12 tricks and take the last too (North's A♠ over East's 2♠): North–South's score."""
    t = bridge(SOLID, **options).play(*contract_calls)
    assert t.var("declarer") == 0
    ns = tricks_ns
    t = last_trick(t, ["A♠", "2♠", "2♦", "3♠"], [ns - ns // 2, (12 - ns) - (12 - ns) // 2, ns // 2, (12 - ns) // 2])
    t.play("lead 2♠", "play 2♦ from dummy", "play 3♠", "play A♠")
    assert t.over
    return t.scores[0]


def test_four_players_north_east_south_west_in_two_partnerships():          # R1
    t = bridge()
    assert t.program.players == (4, 4, 4)
    assert list(t.program.seat_names[:4]) == ["North", "East", "South", "West"]
    assert list(t.program.team_names[:2]) == ["North–South", "East–West"]
    t.play("1♥", "pass", "pass", "pass")
    assert [t.state.vars["declarer"], t.state.vars["dummy"]] == [0, 2]


def test_the_deck_is_52_cards_dealt_13_each_from_the_dealers_left():        # R2
    t = bridge()
    assert sorted(t.program.deck.display) == sorted(DECK)
    for seat in range(4):
        assert sorted(t.zone("hand", seat)) == sorted(MIXED[seat].split())
    assert t.zone("stock") == []


def test_the_dealer_calls_first_and_the_calls_go_to_the_left():            # R3, C1
    t = bridge()
    assert t.deciding == 0
    t.play("1♣")
    assert t.deciding == 1
    t = bridge(dealer="west")
    assert t.deciding == 3 and sorted(t.zone("hand", 0)) == sorted(MIXED[0].split())
    t.play("pass")
    assert t.deciding == 0


def test_a_bid_must_be_higher_than_the_last():                             # R3
    t = bridge()
    assert t.legal() == ["pass"] + [f"{lv}{s}" for lv in range(1, 8) for s in ["♣", "♦", "♥", "♠", "NT"]]
    t.play("1♥")
    legal = t.legal()
    assert legal[:3] == ["pass", "double", "1♠"] and "1♥" not in legal and "1♣" not in legal
    t.play("pass", "3NT")
    assert t.legal()[:3] == ["pass", "double", "4♣"]
    t.play("7NT")
    assert t.legal() == ["pass", "double"]


def test_double_only_an_opponents_undoubled_bid():                          # R4
    t = bridge().play("1♥")
    assert "double" in t.legal()                      # East, an opponent
    t.play("pass")
    assert "double" not in t.legal()                  # South, partner
    t.play("pass")
    assert "double" in t.legal()                      # West, after two passes
    t.play("double")
    assert "double" not in t.legal()                  # doubled already


def test_redouble_only_an_opponents_double_of_your_sides_bid():             # R4
    t = bridge().play("1♥", "double")
    assert t.legal()[:2] == ["pass", "redouble"]      # South, partner of the bidder
    t.play("pass")
    assert "redouble" not in t.legal()                # West: their own side doubled
    t.play("pass")
    assert t.legal()[:2] == ["pass", "redouble"]      # North, the bidder
    t.play("redouble")
    assert "double" not in t.legal() and "redouble" not in t.legal()


def test_a_new_bid_cancels_the_double():                                   # R4
    t = bridge().play("1♥", "double", "2♥")
    assert t.var("doubled") == 0 and "double" in t.legal()
    t.play("pass", "pass", "pass")
    assert "the contract is 2♥ by North" in t.text()


def test_three_passes_after_a_bid_end_the_auction():                        # R5
    t = bridge().play("pass", "1♦", "pass", "pass")
    assert t.var("declarer") is None
    t.play("pass")
    assert t.var("declarer") == 1 and t.legal()[0].startswith("lead")
    t = bridge().play("1♦", "double", "pass", "pass", "pass")
    assert "the contract is 1♦ doubled by North" in t.text()


def test_four_passes_pass_the_deal_out_and_nobody_scores():                 # R5, R14
    t = bridge().play("pass", "pass", "pass", "pass")
    assert t.over and t.scores == [0, 0, 0, 0] and t.winners == []
    assert "all four pass: the deal is passed out, nobody scores" in t.text()


def test_the_declarer_first_named_the_strain_for_the_side():               # R6
    t = bridge().play("1♥", "pass", "2♥", "pass", "pass", "pass")
    assert t.var("declarer") == 0 and t.var("dummy") == 2      # North named hearts first
    t = bridge().play("1♣", "1♥", "2♣", "2♥", "pass", "pass", "pass")
    # hearts first named by East, though West bid them last; North's clubs do not count
    assert "2♥" in t.text() and t.var("declarer") == 1 and t.var("dummy") == 3
    t = bridge().play("1♥", "1♠", "2♦", "pass", "2♥", "pass", "pass", "pass")
    assert t.var("declarer") == 0                               # South bid 2♦, North named ♥


def test_the_opening_lead_from_the_declarers_left_then_the_dummy_is_shown():   # R7
    t = bridge().play("1♥", "pass", "pass", "pass")             # North declares, South dummy
    assert t.deciding == 1 and t.legal()[0].startswith("lead")
    assert view(t.program, t.state, 1)["zones"]["hand"][2] == [None] * 13
    t.play("lead 3♣")
    assert t.zone("hand", 2) == [] and sorted(t.zone("exposed", 2)) == sorted(MIXED[2].split())
    for seat in range(4):
        assert None not in view(t.program, t.state, seat)["zones"]["exposed"][2]
    assert "South, the dummy, lays down" in t.text()


def test_the_declarer_plays_the_dummys_cards():                             # R7
    t = bridge().play("1♥", "pass", "pass", "pass", "lead 3♣")
    assert t.deciding == 0                                      # North plays for South
    assert t.legal() == ["play 4♣ from dummy", "play 8♣ from dummy", "play Q♣ from dummy"] or \
        sorted(t.legal()) == sorted(["play 4♣ from dummy", "play 8♣ from dummy", "play Q♣ from dummy"])
    t.play("play Q♣ from dummy")
    assert t.deciding == 3 and "South plays Q♣" in t.text()


def test_follow_suit_while_you_can_else_any_card():                        # R8
    t = bridge().play("1♥", "pass", "pass", "pass", "lead 3♣", "play 4♣ from dummy")
    assert sorted(t.legal()) == sorted(["play 5♣", "play 9♣", "play K♣"])
    t = last_trick(bridge().play("1♥", "pass", "pass", "pass"), ["2♣", "3♦", "4♥", "5♠"], [3, 3, 3, 3])
    t.play("lead 3♦")
    assert t.legal() == ["play 4♥ from dummy"]                  # South has no diamond: any card


def test_the_highest_trump_wins_else_the_highest_of_the_suit_led():         # R9, R10
    t = last_trick(bridge().play("1♥", "pass", "pass", "pass"), ["2♣", "A♦", "4♥", "K♦"], [3, 3, 3, 3])
    t.play("lead A♦", "play 4♥ from dummy", "play K♦", "play 2♣")
    assert "South takes the trick" in t.text()                  # the 4♥ trumps the A♦
    t = last_trick(bridge().play("1NT", "pass", "pass", "pass"), ["2♣", "Q♦", "4♥", "K♦"], [3, 3, 3, 3])
    t.play("lead Q♦", "play 4♥ from dummy", "play K♦", "play 2♣")
    assert "West takes the trick" in t.text()                   # no trumps at NT


def test_the_winner_of_a_trick_leads_to_the_next():                         # R9
    t = bridge().play("1♥", "pass", "pass", "pass", "lead 3♣", "play Q♣ from dummy", "play K♣", "play A♣")
    assert "North takes the trick" in t.text() and t.deciding == 0 and t.legal()[0].startswith("lead")


def test_a_part_score_made_with_overtricks():                              # R11, R12
    assert score_of(["1♠", "pass", "pass", "pass"], 8) == 30 + 50 + 2 * 30     # 9 tricks: 2 over
    assert score_of(["2♣", "pass", "pass", "pass"], 8) == 40 + 50 + 20         # 8 tricks: 1 over
    assert score_of(["1NT", "pass", "pass", "pass"], 6) == 40 + 50


def test_a_game_scores_300_or_500_vulnerable():                             # R11, C2
    assert score_of(["3NT", "pass", "pass", "pass"], 8) == 100 + 300
    assert score_of(["4♠", "pass", "pass", "pass"], 9) == 120 + 300
    assert score_of(["4♠", "pass", "pass", "pass"], 9, vulnerable="north_south") == 120 + 500
    assert score_of(["4♠", "pass", "pass", "pass"], 9, vulnerable="east_west") == 120 + 300
    assert score_of(["5♣", "pass", "pass", "pass"], 10) == 100 + 300


def test_slams_add_their_bonus():                                           # R11
    assert score_of(["6♠", "pass", "pass", "pass"], 11) == 180 + 300 + 500
    assert score_of(["6♠", "pass", "pass", "pass"], 11, vulnerable="both") == 180 + 500 + 750
    assert score_of(["7NT", "pass", "pass", "pass"], 12) == 220 + 300 + 1000
    assert score_of(["7NT", "pass", "pass", "pass"], 12, vulnerable="both") == 220 + 500 + 1500


def test_doubled_and_redoubled_contracts_made():                            # R11, R12
    # 2♠ doubled: 120 of contract points, a game; 50 for the insult; overtricks 100 each
    assert score_of(["2♠", "double", "pass", "pass", "pass"], 7) == 120 + 300 + 50
    assert score_of(["2♠", "double", "pass", "pass", "pass"], 8) == 120 + 300 + 50 + 100
    assert score_of(["2♠", "double", "pass", "pass", "pass"], 8, vulnerable="north_south") == 120 + 500 + 50 + 200
    assert score_of(["1♣", "double", "redouble", "pass", "pass", "pass"], 7) == 80 + 50 + 100 + 200
    assert score_of(["1♣", "double", "redouble", "pass", "pass", "pass"], 7, vulnerable="both") == 80 + 50 + 100 + 400


def test_undertricks_score_for_the_defenders():                             # R13, R14
    # 4♠ down n: undoubled not vulnerable, vulnerable; doubled nv, v; redoubled nv, v
    down = {1: [-50, -100, -100, -200, -200, -400], 2: [-100, -200, -300, -500, -600, -1000],
            3: [-150, -300, -500, -800, -1000, -1600], 4: [-200, -400, -800, -1100, -1600, -2200]}
    auctions = [["4♠", "pass", "pass", "pass"], ["4♠", "double", "pass", "pass", "pass"],
                ["4♠", "double", "redouble", "pass", "pass", "pass"]]
    for n, expected in down.items():
        got = [score_of(calls, 9 - n, vulnerable=v) for calls in auctions for v in ("none", "north_south")]
        assert got == expected, n


def test_the_side_that_scores_wins_the_deal():                              # R14
    t = bridge(SOLID).play("7♠", "pass", "pass", "pass")
    while not t.over:
        t.play(t.legal()[0])
    assert t.scores == [1510, -1510, 1510, -1510] and t.winners == [0, 2]
    assert "North makes 7♠ with 13 tricks: 1510 points to North–South" in t.text()
