"""euchre, rule by rule (R.. and C.. of docs/games/euchre.md).

`deal(hands, up, dealer)` stacks one hand: `hands` lists the four seats' cards, the deal goes
one card at a time from the dealer's left, and `up` is the card turned up. Player 1 (seat 0)
deals unless a test says otherwise, so Player 2 speaks and leads first. Players 1 and 3 are
partners against Players 2 and 4.
"""
from __future__ import annotations

from conftest import Table
from interpreter.runtime.engine import prompt, refusal


def deal(hands, up, dealer=0):
    hands = [h.split() for h in hands]
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    return [hands[seat][k] for k in range(5) for seat in order] + [up]


def euchre(*stacks, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("euchre", stacks=[list(s) for s in stacks], options=options, players=4)


def finish_hand(t: Table) -> Table:
    """Play the first legal move until the hand is scored."""
    done = t.text().count("\nscore: ")
    while t.text().count("\nscore: ") == done and not t.over:
        t.play(t.legal()[0])
    return t


def scores(t):
    return [t.pvar("score", s) for s in range(4)]


# Hearts turned up; Player 2 holds the five top hearts, the others one suit each.
H = deal(["9♣ 10♣ Q♣ K♣ A♣", "J♥ J♦ A♥ K♥ Q♥", "9♠ 10♠ Q♠ K♠ A♠", "9♦ 10♦ Q♦ K♦ A♦"], "9♥")
# Hearts turned up; Player 2 holds nothing, the dealer (Player 1) the top hearts.
E = deal(["J♥ J♦ A♥ K♥ Q♥", "9♣ 10♣ 9♠ 10♠ 9♦", "Q♣ K♣ A♣ Q♠ K♠", "A♠ 10♦ Q♦ K♦ A♦"], "9♥")


def test_24_cards_nine_to_ace():                                             # R2
    t = euchre(H)
    assert len(t.program.deck.display) == 24
    assert sorted({d[:-1] for d in t.program.deck.display}) == sorted(["9", "10", "J", "Q", "K", "A"])


def test_five_cards_each_and_the_next_card_turned_up():                    # R4
    t = euchre(H)
    assert [len(t.zone("hand", s)) for s in range(4)] == [5, 5, 5, 5]
    assert sorted(t.zone("hand", 1)) == sorted("J♥ J♦ A♥ K♥ Q♥".split())
    assert t.zone("upcard") == ["9♥"] and len(t.zone("stock")) == 3
    assert "Player 1 turns up 9♥" in t.text()


def test_first_round_order_up_or_pass_from_the_dealers_left():             # R5
    t = euchre(H)
    assert t.deciding == 1
    assert t.legal() == ["order up 9♥", "order up 9♥ and go alone", "pass"]
    assert prompt(t.program, t.state) == "Player 1 turned up 9♥: order it up, making ♥ hearts trumps, or pass?"
    t.play("pass", "pass", "pass")
    assert t.deciding == 0 and t.legal() == ["pick up 9♥", "pick up 9♥ and go alone", "pass"]
    assert prompt(t.program, t.state) == "Player 1 turned up 9♥: pick it up, making ♥ hearts trumps, or pass?"


def test_the_dealer_picks_up_the_card_and_discards_one():                  # R6, C7
    t = euchre(H).play("pass", "order up 9♥")
    assert t.var("maker") == 2 and t.var("trump") == "H"
    assert t.deciding == 0 and len(t.legal()) == 6 and "discard 9♥" in t.legal()
    t.play("discard 9♣")
    assert "9♥" in t.zone("hand", 0) and "9♣" not in t.zone("hand", 0)
    assert len(t.zone("stock")) == 4 and t.zone("upcard") == []
    t = euchre(H, upcard_discard="forbidden").play("pass", "order up 9♥")
    assert "discard 9♥" not in t.legal() and len(t.legal()) == 5
    label, why = refusal(t.program, t.state, "9♥")
    assert "you must keep the card you picked up (9♥)" in why


def test_second_round_names_another_suit_never_the_one_turned_down():      # R7
    t = euchre(H).play("pass", "pass", "pass", "pass")
    assert "everybody passes: 9♥ is turned down" in t.text() and t.zone("upcard") == []
    assert t.deciding == 1
    assert t.legal() == ["name ♣ clubs", "name ♦ diamonds", "name ♠ spades",
                         "name ♣ clubs and go alone", "name ♦ diamonds and go alone",
                         "name ♠ spades and go alone", "pass"]
    t.play("pass", "name ♠ spades")
    assert t.var("trump") == "S" and t.var("maker") == 2
    assert t.deciding == 1 and len(t.zone("hand", 0)) == 5                # no exchange: P2 leads


def test_all_pass_twice_the_hand_is_thrown_in_unless_the_dealer_is_stuck():  # R8, C1
    second = deal(["9♣ 10♣ Q♣ K♣ A♣", "J♥ J♦ A♥ K♥ Q♥", "9♠ 10♠ Q♠ K♠ A♠", "9♦ 10♦ Q♦ K♦ A♦"], "10♥", dealer=1)
    t = euchre(H, second).play(*["pass"] * 8)
    assert "everybody passes again: the hand is thrown in" in t.text()
    assert t.var("dealer") == 1 and t.zone("upcard") == ["10♥"] and t.deciding == 2
    t = euchre(H, stick_the_dealer="yes").play(*["pass"] * 7)
    assert t.deciding == 0 and "pass" not in t.legal() and len(t.legal()) == 6
    assert prompt(t.program, t.state) == "Name trumps (not ♥ hearts, turned down): the dealer may not pass"
    # The option's words once answered its question backwards ("no": "yes: ... thrown in").
    spec = t.program.option_specs["stick_the_dealer"]
    assert spec["description"].startswith("Stick the dealer: must the dealer name trumps")
    assert spec["explain"]["no"].startswith("no:") and "thrown in" in spec["explain"]["no"]
    assert spec["explain"]["yes"].startswith("yes:")


def test_the_left_bower_is_a_trump_and_the_right_bower_the_highest():      # R3, R11, R12
    t = euchre(deal(["A♥ K♥ Q♥ Q♠ A♠", "J♦ 9♣ 10♣ 9♠ 10♠", "J♥ A♦ K♦ Q♣ K♣", "10♦ Q♦ 9♦ A♣ K♠"], "9♥"))
    t.play("order up 9♥", "discard Q♠")
    t.play("lead J♦")                                                          # J♦ leads trumps
    assert t.var("led") == "H"
    assert t.legal() == ["play J♥"]                                            # P3's only trump
    t.play("play J♥")
    assert len(t.legal()) == 5                                                 # P4 holds no trump
    t.play("play 10♦")
    assert sorted(t.legal()) == sorted(["play 9♥", "play Q♥", "play K♥", "play A♥"])
    t.play("play A♥")
    assert "Player 3 takes the trick with J♥" in t.text()                     # right over left over ace


def test_the_left_bower_does_not_follow_its_printed_suit():                # R3, R11
    t = euchre(deal(["A♥ K♥ Q♥ Q♠ A♠", "A♦ 9♣ 10♣ 9♠ 10♠", "J♦ Q♣ K♣ 9♥ 10♥", "10♦ Q♦ 9♦ A♣ K♠"], "J♥"))
    t.play("order up J♥", "discard Q♠", "lead A♦")
    assert len(t.legal()) == 5                                                 # J♦ is a heart: no diamond
    t.play("play J♦")
    assert t.legal() == ["play 9♦", "play 10♦", "play Q♦"]                   # P4 must follow diamonds
    t.play("play 9♦", "play A♠")
    assert "Player 3 takes the trick with J♦" in t.text()                     # the left bower trumps


def test_the_maker_may_go_alone_and_the_partner_sits_out():                # R9, C3
    t = euchre(H).play("order up 9♥ and go alone", "discard 9♣")
    assert t.var("alone") is True and t.var("out") == [3]
    assert "Player 4 sits out this hand" in t.text()
    seen = set()
    while t.var("trick_no") <= 1 and not t.over:
        seen.add(t.deciding)
        t.play(t.legal()[0])
    assert seen == {0, 1, 2}
    t = euchre(H, going_alone="not_allowed")
    assert t.legal() == ["order up 9♥", "pass"]


def test_the_canadian_loner():                                              # C4
    t = euchre(H, partner_order_up="must_go_alone").play("pass")
    assert t.deciding == 2 and t.legal() == ["order up 9♥ and go alone", "pass"]
    t = euchre(H).play("pass")
    assert t.legal() == ["order up 9♥", "order up 9♥ and go alone", "pass"]


def test_the_first_lead_skips_a_player_who_sits_out():                     # R10, C6
    t = euchre(H).play("pass")
    assert t.deciding == 2
    t = euchre(H).play("pass", "pass", "order up 9♥ and go alone", "discard 9♣")
    assert t.var("out") == [1] and t.deciding == 2                             # P2 sits out: P3 leads
    t = euchre(H, alone_lead="lone_left").play("pass", "pass", "order up 9♥ and go alone", "discard 9♣")
    assert t.deciding == 0                                                     # left of the lone P4
    # P2 goes alone and P1, on P2's right, defends alone: P3 (P2's left) and P4 sit out, so
    # under lone_left P1 leads (the lead once fell back to the dealer's left: P2 led).
    t = euchre(E, defend_alone="yes", alone_lead="lone_left").play(
        "order up 9♥ and go alone", "discard 9♥", "defend with partner", "defend alone")
    assert t.var("out") == [3, 2] and t.deciding == 0


def test_the_makers_score_1_for_three_or_four_tricks():                    # R13
    t = euchre(deal(["A♣ K♣ A♠ K♠ A♦", "J♥ J♦ A♥ 9♣ 9♠", "Q♣ Q♠ K♦ K♥ Q♥", "10♣ 10♠ 9♦ 10♦ Q♦"], "9♥"))
    finish_hand(t.play("order up 9♥"))
    assert ("Player 2's side takes 3 tricks, and scores 1" in t.text()
            or "Player 2's side takes 4 tricks, and scores 1" in t.text())
    assert scores(t) == [0, 1, 0, 1]


def test_a_march_scores_2_or_4_alone():                                    # R14
    t = finish_hand(euchre(H).play("order up 9♥"))
    assert "Player 2's side takes 5 tricks: a march, and scores 2" in t.text()
    assert scores(t) == [0, 2, 0, 2]
    t = finish_hand(euchre(H).play("order up 9♥ and go alone"))
    assert scores(t) == [0, 4, 0, 4]


def test_euchred_makers_give_the_defenders_2():                            # R15, C9
    t = finish_hand(euchre(E).play("order up 9♥"))
    assert "euchred! The defenders score 2" in t.text() and scores(t) == [2, 0, 2, 0]
    t = finish_hand(euchre(E).play("order up 9♥ and go alone"))
    assert scores(t) == [2, 0, 2, 0]
    t = finish_hand(euchre(E, euchre_points="two_or_four_alone").play("order up 9♥ and go alone"))
    assert scores(t) == [4, 0, 4, 0]


def test_a_lone_defender_who_euchres_scores_4():                            # C5
    t = euchre(E, defend_alone="yes").play("order up 9♥ and go alone", "discard 9♥")
    assert t.deciding == 2 and t.legal() == ["defend alone", "defend with partner"]
    t.play("defend with partner", "defend alone")
    assert t.var("out") == [3, 2] and t.var("defender") == 0
    finish_hand(t)
    assert scores(t) == [4, 0, 4, 0]


def test_the_first_side_to_10_wins():                                      # R16, C2, R1
    t = euchre(E)
    t.state.pvars["score"][:] = [8, 3, 8, 3]
    finish_hand(t.play("order up 9♥"))
    assert t.over and t.winners == [0, 2] and t.scores == [10, 3, 10, 3]
    t = euchre(E, target_score=11)
    t.state.pvars["score"][:] = [8, 3, 8, 3]
    finish_hand(t.play("order up 9♥"))
    assert not t.over and scores(t) == [10, 3, 10, 3]
