"""big_two, rule by rule (R.. and C.. of docs/games/big_two.md).

`arrange` sets the hands outright (every other card is among the played cards) and gives the
lead to a seat, as a hand's first play (the opening card must be led) or as a later lead.
"""
from __future__ import annotations

from conftest import Table
from interpreter import apply
from interpreter.runtime.engine import option_named, prompt, refusal


def bt(players=4, **options) -> Table:
    return Table("big_two", options=options, players=players)


def arrange(t: Table, *hands: str, leader=0, opening=None) -> Table:
    """Player i holds exactly hands[i]; every other card has been played. `leader` is to lead;
    `opening` (a card shown as '3♦') must be in the first play."""
    deck = t.program.deck.display
    z = t.state.zones
    held = [[deck.index(c) for c in h.split()] for h in hands]
    everything = [c for zone in (z["stock"], z["pile"], z["played"], z["out"], *z["hand"]) for c in zone]
    for zone in (z["stock"], z["pile"], z["out"], *z["hand"]):
        zone.clear()
    strength = t.program.deck.attrs["strength"][1]
    for seat, cards in enumerate(held):
        z["hand"][seat][:] = sorted(cards, key=lambda c: strength[c])
    z["played"][:] = [c for c in everything if not any(c in h for h in held)]
    t.state.vars["opening"] = None if opening is None else deck.index(opening)
    t.state.vars["leader"] = leader
    t.state.current = leader
    return t.refresh()


def test_the_deal_gives_thirteen_each_at_four_and_seventeen_at_three():     # R1, R2
    t = bt()
    assert [len(t.zone("hand", s)) for s in range(4)] == [13] * 4
    t = bt(players=3)
    sizes = [len(t.zone("hand", s)) for s in range(3)]
    holder = next(s for s in range(3) if "3♦" in t.zone("hand", s))
    assert sizes[holder] == 18 and sum(sizes) == 52
    t = bt(players=2)
    assert [len(t.zone("hand", s)) for s in range(2)] == [13, 13] and len(t.zone("out")) == 26


def test_the_holder_of_the_three_of_diamonds_leads_it():                     # R5
    for seed in range(5):
        t = Table("big_two", seed=seed)
        holder = next(s for s in range(4) if "3♦" in t.zone("hand", s))
        assert t.deciding == holder and "pass" not in t.legal()
        assert all("3♦" in label for label in t.legal())
    t = arrange(bt(), "3♦ 3♠ 9♠", "5♦", "6♦", "7♦", opening="3♦")
    assert t.legal() == ["lead 3♦", "lead 3♦ 3♠"]
    assert "the first play of the hand must include 3♦" in refusal(t.program, t.state, "lead 9♠")[1]


def test_at_two_players_the_lowest_card_dealt_opens():                       # R2, R5
    for seed in range(6):
        t = Table("big_two", seed=seed, players=2)
        lowest = min((c for s in range(2) for c in t.state.zones["hand"][s]),
                     key=lambda c: t.program.deck.attrs["strength"][1][c])
        assert t.var("opening") == lowest


def test_suits_rank_diamonds_clubs_hearts_spades():                          # R1, R4
    t = arrange(bt(), "9♣ 4♦", "9♦ 9♥ 8♠", "9♠", "3♣")
    t.play("lead 9♣")
    assert t.legal() == ["play 9♥", "pass"]                                   # not 9♦, not 8♠


def test_twos_are_the_highest_rank():                                        # R1
    t = arrange(bt(), "A♠ 4♦", "2♦ K♠", "3♣", "3♦")
    t.play("lead A♠")
    assert t.legal() == ["play 2♦", "pass"]


def test_a_pair_beats_by_rank_then_by_its_higher_suit():                     # R3, R4
    t = arrange(bt(), "9♣ 9♥ 4♦", "9♦ 9♠ 8♥ 8♠ 10♦ 10♣", "3♣", "3♦")
    t.play("lead 9♣ 9♥")
    assert t.legal() == ["play 9♦ 9♠", "play 10♦ 10♣", "pass"]
    assert refusal(t.program, t.state, "8h 8s")[1].startswith("that does not beat pair")


def test_a_play_is_named_by_typing_its_cards():                              # R3
    t = arrange(bt(), "4♣ 4♦ 4♥ 9♠", "5♦", "6♦", "7♦")
    labels = t.legal()
    assert labels[:4] == ["lead 4♦", "lead 4♣", "lead 4♥", "lead 9♠"]
    assert "lead 4♦ 4♣" in labels and "lead 4♦ 4♥" in labels and "lead 4♦ 4♣ 4♥" in labels

    def named(answer):
        i = option_named(t.program, t.state, answer)
        return None if i is None else t.legal()[i]
    assert named("4d 4h") == "lead 4♦ 4♥" and named("4h 4c 4d") == "lead 4♦ 4♣ 4♥" and named("9s") == "lead 9♠"


def test_a_triple_beats_a_lower_triple():                                    # R3, R4
    t = arrange(bt(), "8♣ 8♥ 8♠ 4♦", "7♦ 7♣ 7♥ 9♦ 9♣ 9♥", "3♣", "3♦")
    t.play("lead 8♣ 8♥ 8♠")
    assert t.legal() == ["play 9♦ 9♣ 9♥", "pass"]


def test_the_five_card_hands_offered_on_a_lead():                            # R3
    t = arrange(bt(), "3♦ 4♣ 5♥ 6♠ 7♦ 7♣", "8♦", "9♦", "10♦")
    assert "lead 3♦ 4♣ 5♥ 6♠ 7♦ (straight)" in t.legal()
    assert "lead 3♦ 4♣ 5♥ 6♠ 7♣ (straight)" in t.legal()
    t = arrange(bt(), "3♥ 5♥ 9♥ J♥ K♥ 2♥", "8♦", "9♦", "10♦")
    assert sum(label.endswith("(flush)") for label in t.legal()) == 6
    t = arrange(bt(), "4♦ 4♣ 4♥ 6♦ 6♠ K♣", "8♦", "9♦", "10♦")
    assert "lead 4♦ 4♣ 4♥ 6♦ 6♠ (full house)" in t.legal()
    t = arrange(bt(), "4♦ 4♣ 4♥ 4♠ K♣", "8♦", "9♦", "10♦")
    assert "lead 4♦ 4♣ 4♥ 4♠ K♣ (four of a kind)" in t.legal()
    t = arrange(bt(), "5♠ 6♠ 7♠ 8♠ 9♠", "8♦", "9♦", "10♦")
    assert "lead 5♠ 6♠ 7♠ 8♠ 9♠ (straight flush)" in t.legal()
    assert not any(label.endswith("(flush)") for label in t.legal())         # not also a flush


def test_five_card_hands_rank_straight_flush_full_house_four_straight_flush():   # R4
    t = arrange(bt(), "3♦ 4♣ 5♥ 6♠ 7♦ 8♦", "5♣ 9♣ J♣ Q♣ K♣ 3♠ 3♥", "8♣", "9♦")
    t.play("lead 3♦ 4♣ 5♥ 6♠ 7♦ (straight)")
    assert "play 5♣ 9♣ J♣ Q♣ K♣ (flush)" in t.legal()
    t.play("play 5♣ 9♣ J♣ Q♣ K♣ (flush)")
    t = arrange(bt(), "J♦ J♣ J♥ 4♦ 4♣ 2♠", "6♦ 6♣ 6♥ 6♠ 3♦ 8♥ 9♥ 10♥ J♠ Q♥", "8♣", "9♦")
    t.play("lead J♦ J♣ J♥ 4♦ 4♣ (full house)")
    legal = t.legal()
    assert "play 6♦ 6♣ 6♥ 6♠ 3♦ (four of a kind)" in legal
    assert not any("(straight)" in label or "(flush)" in label or "(full house)" in label for label in legal)


def test_straights_go_by_their_highest_card_and_its_suit():                  # R4
    t = arrange(bt(), "5♦ 6♦ 7♦ 8♦ 9♠ 3♣", "5♣ 6♣ 7♣ 8♣ 9♦ 10♦", "8♣", "9♥")
    t.play("lead 5♦ 6♦ 7♦ 8♦ 9♠ (straight)")
    legal = t.legal()
    assert "play 6♣ 7♣ 8♣ 9♦ 10♦ (straight)" in legal
    assert "play 5♣ 6♣ 7♣ 8♣ 9♦ (straight)" not in legal                      # 9♦ under 9♠


def test_twos_in_straights():                                                # C1
    t = arrange(bt(), "J♦ Q♣ K♥ A♠ 2♦", "8♦", "9♦", "10♦")
    assert "lead J♦ Q♣ K♥ A♠ 2♦ (straight)" in t.legal()
    t = arrange(bt(twos_in_straights="none"), "J♦ Q♣ K♥ A♠ 2♦", "8♦", "9♦", "10♦")
    assert not any("straight" in label for label in t.legal())
    t = arrange(bt(twos_in_straights="none"), "J♦ Q♦ K♦ A♦ 2♦", "8♦", "9♦", "10♣")
    assert "lead J♦ Q♦ K♦ A♦ 2♦ (flush)" in t.legal()


def test_flushes_compare_by_their_cards_then_suit():                         # C3
    t = arrange(bt(), "3♠ 5♠ 7♠ 9♠ K♠ 4♦", "4♥ 5♥ 7♥ 9♥ K♥ 8♣", "8♦", "9♦")
    t.play("lead 3♠ 5♠ 7♠ 9♠ K♠ (flush)")
    assert "play 4♥ 5♥ 7♥ 9♥ K♥ (flush)" in t.legal()                         # 4 over 3 at the bottom
    t = arrange(bt(flush_order="by_suit"), "3♠ 5♠ 7♠ 9♠ K♠ 4♦", "4♥ 5♥ 7♥ 9♥ K♥ 8♣", "8♦", "9♦")
    t.play("lead 3♠ 5♠ 7♠ 9♠ K♠ (flush)")
    assert not any("(flush)" in label for label in t.legal())


def test_the_question_says_what_to_beat():                                   # R6
    t = arrange(bt(), "9♣ 9♥ 4♦", "10♦ 10♣", "3♣", "3♦")
    t.play("lead 9♣ 9♥")
    assert prompt(t.program, t.state) == "Beat Player 1's pair 9♣ 9♥ with a higher pair, or pass"
    assert refusal(t.program, t.state, "play 10♦") is None                    # no single is offered at all


def test_when_everyone_else_passes_the_last_to_play_leads():                 # R7
    t = arrange(bt(), "4♦ 8♦", "5♦ 9♦", "6♦ 10♦", "3♣ 7♦", leader=0)
    t.play("lead 4♦", "play 5♦", "play 6♦", "play 7♦", "pass", "pass", "pass")
    assert "everyone else passes: Player 4 leads" in t.text()
    assert t.deciding == 3 and "pass" not in t.legal() and t.zone("pile") == []


def test_a_player_who_passed_may_play_again_in_the_round():                  # R6, C2
    t = arrange(bt(), "4♦ 8♦ K♠", "5♦ 9♦", "6♦ 10♦", "3♣ 7♦", leader=0)
    t.play("lead 4♦", "pass", "play 6♦", "play 7♦", "play 8♦")
    assert t.deciding == 1 and "play 9♦" in t.legal()
    t = arrange(bt(passing="out_of_round"), "4♦ 8♦ K♠", "5♦ 9♦", "6♦ 10♦", "3♣ 7♦", leader=0)
    t.play("lead 4♦", "pass", "play 6♦", "play 7♦", "play 8♦")
    assert t.deciding == 2                                                   # Player 2 sits out


def test_the_first_out_wins_and_the_others_pay_for_their_cards():            # R8, R9
    t = arrange(bt(), "2♠", "3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦", "3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣",
                "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 2♥")
    t.play("lead 2♠")
    assert t.over and t.winners == [0]
    assert t.scores == [9 + 20 + 39, -9, -20, -39]
    assert "Player 1 has played every card and wins the hand" in t.text()


def test_flat_penalty():                                                     # C4
    t = arrange(bt(penalty="flat"), "2♠", "3♦ 4♦", "3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣", "3♥")
    t.play("lead 2♠")
    assert t.scores == [13, -2, -10, -1]


def test_a_match_to_a_target_goes_on_until_a_player_has_lost_it():           # C5, C6, C7
    t = arrange(bt(match="to_target", target_score=50, later_lead="winner"), "2♠", "3♦", "3♣", "3♥")
    t.play("lead 2♠")
    assert not t.over and t.var("hand_no") == 2
    assert t.deciding == 0 and "pass" not in t.legal()
    assert not all("3♦" in label for label in t.legal())                     # the winner leads anything
    while not t.over:
        apply(t.program, t.state, 0)
    assert min(t.pvar("score", s) for s in range(4)) <= -50
