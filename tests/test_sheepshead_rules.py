"""sheepshead, rule by rule (R.. and C.. of docs/games/sheepshead.md).

`sh(p1, ..., p5, blind=...)` stacks the deck with Player 1 dealing: the deal starts with
Player 2, one card at a time, six each, then the two cards of the blind; a hand given is filled
up to six cards from the rest of the deck.
"""
from __future__ import annotations

from conftest import Table
from interpreter import apply
from interpreter.runtime.engine import option_named, refusal

RANKS = "7 8 9 10 J Q K A".split()
DECK = [r + s for s in "♣♠♥♦" for r in RANKS]


def stack(hands, blind):
    hands = [h.split() for h in hands]
    blind = blind.split()
    rest = [c for c in DECK if not any(c in h for h in hands) and c not in blind]
    for h in hands:
        while len(h) < 6:
            h.append(rest.pop(0))
    while len(blind) < 2:
        blind.append(rest.pop(0))
    order = hands[1:] + hands[:1]                                  # Player 2 is dealt first
    return [h[i] for i in range(6) for h in order] + blind[::-1]


def named(t: Table, *answers: str) -> Table:
    """Make each move by naming it as a person would: a label, or its cards ('J♥ J♦')."""
    for answer in answers:
        i = option_named(t.program, t.state, answer)
        assert i is not None, f"{answer!r} names no move; legal: {t.legal()}"
        apply(t.program, t.state, i)
    return t


def sh(p1="", p2="", p3="", p4="", p5="", blind="", **options) -> Table:
    options.setdefault("dealer", "seat_1")
    options.setdefault("hands", 1)
    return Table("sheepshead", stack=stack([p1, p2, p3, p4, p5], blind), options=options)


def test_the_deal_and_the_blind():                                        # R1, R3
    t = sh()
    assert [len(t.zone("hand", s)) for s in range(5)] == [6] * 5 and len(t.zone("blind")) == 2
    assert t.deciding == 1 and t.legal() == ["pick up the blind", "pass"]


def test_picking_goes_round_from_the_dealers_left():                      # R4
    t = sh().play("pass", "pass", "pick up the blind")
    assert t.var("picker") == 3 and len(t.zone("hand", 3)) == 8
    assert t.legal()[0].startswith("bury ") and len(t.legal()) == 28


def test_the_picker_buries_two_cards_that_count_for_them():               # R4
    t = sh(p2="A♣ 10♣ 7♥ 8♥ 9♥ 7♠", blind="A♠ 10♠").play("pick up the blind"); named(t, "A♣ 10♣")
    assert sorted(t.zone("buried")) == ["10♣", "A♣"]
    assert t.legal() == ["call A♥"]                                      # holds spades' ace now; hearts held


def test_the_picker_calls_an_ace_of_a_suit_held(): # R5
    t = sh(p2="7♣ 8♣ 7♥ 9♠ Q♣ J♣", blind="8♠ 7♦")
    t.play("pick up the blind"); named(t, "7♦ Q♣")
    assert set(t.legal()) == {"call A♣", "call A♥", "call A♠"}


def test_a_picker_who_can_call_no_ace_plays_alone():                      # R5
    t = sh(p2="Q♣ Q♠ Q♥ Q♦ J♣ J♠", blind="J♥ J♦").play("pick up the blind"); named(t, "J♥ J♦")
    assert t.var("called_id") == "" and "can call no ace and plays alone" in t.text()
    assert t.legal()[0].startswith("lead")


def test_trumps_rank_queens_jacks_then_diamonds():                         # R2, R7
    t = sh(p2="Q♦ 7♣ 8♣ 9♣ 10♣ K♣", p3="J♣ 7♠ 8♠ 9♠ 10♠ K♠", p4="A♦", p5="10♦", p1="Q♣",
           blind="8♥ 9♥").play("pick up the blind"); named(t, "8♥ 9♥", "call A♣")
    t.play("lead Q♦")
    assert t.legal() == ["play J♣"]                                       # trumps are followed with trumps
    t.play("play J♣", "play A♦", "play 10♦", "play Q♣")
    assert "Player 1 takes the trick with Q♣" in t.text()


def test_queens_and_jacks_are_not_of_their_suit():                        # R2, R7
    t = sh(p2="7♣ 8♣ 9♣ 10♣ K♣ 7♦", p3="Q♣ A♥ 8♥ 9♥ 10♥ K♥", blind="8♦ 9♦")
    t.play("pick up the blind"); named(t, "8♦ 9♦", "call A♣", "lead 7♣")
    assert "play Q♣" in t.legal()                                         # no club: Q♣ is a trump
    assert "you must follow suit" not in (refusal(t.program, t.state, "play A♥") or ("", ""))[1]


def test_the_highest_card_of_the_suit_led_wins_without_trumps():          # R7
    t = sh(p2="7♠ 8♥ 9♥ 10♥ K♥ 8♣", p3="A♠", p4="10♠", p5="K♠", p1="9♠", blind="7♥ 7♣")
    t.play("pick up the blind"); named(t, "7♥ 8♥", "call A♣", "lead 7♠")
    t.play("play A♠", "play 10♠", "play K♠", "play 9♠")
    assert "Player 3 takes the trick with A♠" in t.text()


def test_the_called_ace_must_be_played_when_its_suit_is_led():            # R6
    t = sh(p2="7♥ Q♣ Q♠ Q♥ Q♦ J♣", p3="A♥ 8♥ 7♠ 8♠ 9♠ 10♠", blind="J♠ J♥")
    t.play("pick up the blind"); named(t, "J♠ J♥", "call A♥", "lead 7♥")
    assert t.legal() == ["play A♥"]
    assert "the called ace must be played to its suit" in refusal(t.program, t.state, "play 8♥")[1]


def test_the_called_ace_is_not_thrown_away():                              # R6
    t = sh(p2="7♥ Q♣ Q♠ Q♥ Q♦ J♣", p3="A♥ 8♥ 7♠ 8♠ 9♠ 10♠", blind="J♠ J♥")
    t.play("pick up the blind"); named(t, "J♠ J♥", "call A♥", "lead Q♣")
    assert "play A♥" not in t.legal()                                    # no trump: anything but the ace


def test_the_picker_keeps_a_card_of_the_called_suit():                     # R6
    t = sh(p3="7♥ Q♣ Q♠ Q♥ Q♦ J♣", p2="7♠ 8♠ 9♠ 10♠ K♠ A♠", blind="J♠ J♥")
    t.play("pass", "pick up the blind")
    named(t, "J♠ J♥", "call A♥", "lead 7♠")
    assert "play 7♥" not in t.legal()                                    # the last heart is kept
    assert refusal(t.program, t.state, "play 7♥")[1] == "you must keep a card of the called suit until it is led"
    t = sh(p2="7♥ Q♣ Q♠ Q♥ Q♦ J♣", blind="J♠ J♥").play("pick up the blind")
    named(t, "J♠ J♥", "call A♥")
    assert "lead 7♥" in t.legal()                                        # leading it is leading the suit


def test_the_partner_is_known_when_the_called_ace_falls():                  # R5
    t = sh(p2="7♥ Q♣ Q♠ Q♥ Q♦ J♣", p3="A♥ 8♥ 7♠ 8♠ 9♠ 10♠", blind="J♠ J♥")
    t.play("pick up the blind"); named(t, "J♠ J♥", "call A♥")
    from interpreter import view
    assert view(t.program, t.state, 0)["table"]["partner_is"] == "unknown"
    t.play("lead Q♣", "play 7♠")
    while t.var("revealed") is None:
        apply(t.program, t.state, 0)
    assert t.var("revealed") == 2 and "Player 3 plays the called A♥: the partner of Player 2" in t.text()
    assert view(t.program, t.state, 0)["table"]["partner_is"] == "Player 3"


def _play_out(t):
    while not t.over:
        apply(t.program, t.state, 0)
    return t


def test_the_pickers_side_needs_61_and_scores_two_and_one():               # R8, R9
    t = _play_out(sh().play("pick up the blind"))
    side = [1, t.var("revealed")] if t.var("called_id") != "" else [1]
    scores = t.scores
    assert sum(scores) == 0
    unit = t.var("unit")
    for s in range(5):
        if s == 1:
            assert scores[s] == unit * (2 if len(side) == 2 else 4)
        elif s in side:
            assert scores[s] == unit
        else:
            assert scores[s] == -unit


def test_schwarz_when_the_losers_take_no_trick():                          # R9
    t = sh(p2="Q♣ Q♠ Q♥ Q♦ J♣ J♠", blind="J♥ J♦").play("pick up the blind"); named(t, "J♥ J♦")
    _play_out(t)
    assert t.var("called_id") == "" and t.pvar("tricks", 1) == 6
    assert t.scores == [-3, 12, -3, -3, -3] and "schwarz" in t.text()


def test_jack_of_diamonds_partner():                                      # C1
    t = sh(p2="7♥ Q♣ Q♠ Q♥ Q♦ J♣", p4="J♦", blind="J♠ J♥", partner="jack_of_diamonds")
    t.play("pick up the blind"); named(t, "J♠ J♥")
    assert t.var("called_id") != "" and "the holder of J♦ is Player 2's partner" in t.text()
    assert t.legal()[0].startswith("lead")


def test_a_leaster_when_everyone_passes():                                # C2
    t = sh().play("pass", "pass", "pass", "pass", "pass")
    assert t.var("leaster") and "everyone passes: a leaster" in t.text()
    _play_out(t)
    assert sum(t.scores) == 0 and max(t.scores) > 0


def test_a_doubler_when_everyone_passes():                                 # C2, C3
    t = sh(all_pass="doubler", hands=2).play("pass", "pass", "pass", "pass", "pass")
    assert t.var("hand_no") == 2 and t.var("stake") == 2
    assert "the next hand counts double" in t.text()
