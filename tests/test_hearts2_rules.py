"""hearts2, rule by rule (R..: the rule numbers of the digest it was written from, outside this repository; A..: the conventions, as docs/games/hearts2.md names them).

Every hand is stacked: `deal(p1, p2, dead)` puts the cards in the order they are dealt,
with Player 1 (seat 0) as dealer, so Player 2 receives the first card.
"""
from __future__ import annotations

import re

import pytest

from conftest import Table

SUITS = "♣♦♠♥"
RANKS = ["2", "4", "6", "8", "10", "Q", "A"]
ALL = [r + s for s in SUITS for r in RANKS]


def deal(p1, p2, dead):
    p1, p2 = p1.split(), p2.split()
    assert len(p1) == len(p2) == 13 and len(dead) == 2
    order = [dead[0]]
    for a, b in zip(p2, p1):
        order += [b for b in (a, b)]
    return order + [dead[1]]


# A standard hand: P1 holds 2♣ and the low cards, P2 the high ones; 8♥ and 8♦ are dead.
P1 = "2♣ 4♣ 6♣ 2♦ 4♦ 6♦ 2♠ 4♠ 6♠ 2♥ 4♥ 6♥ Q♠"
P2 = "8♣ 10♣ Q♣ A♣ 10♦ Q♦ A♦ 8♠ 10♠ A♠ 10♥ Q♥ A♥"
DEAD = ["8♥", "8♦"]


def hearts(p1=P1, p2=P2, dead=DEAD, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("hearts2", stack=deal(p1, p2, dead), options=options)


def test_deck_has_28_cards_2_4_6_8_10_q_a_of_each_suit():                 # R3
    t = hearts()
    assert sorted(t.program.deck.display) == sorted(ALL)


def test_ranks_run_2_4_6_8_10_q_a():                                      # R4
    t = hearts()
    order = t.program.deck.attrs["order"][1]
    spades = sorted((order[i], d) for i, d in enumerate(t.program.deck.display) if d.endswith("♠"))
    assert [d[:-1] for _, d in spades] == RANKS


def test_points_each_heart_1_and_queen_of_spades_13_total_20():          # R6, R17
    t = hearts()
    pts = dict(zip(t.program.deck.display, t.program.deck.attrs["points"][1]))
    assert pts["Q♠"] == 13 and pts["2♥"] == 1 and pts["A♥"] == 1 and pts["Q♣"] == 0
    assert sum(pts.values()) == 20


def test_one_dead_card_then_13_each_one_at_a_time_then_one_dead():      # R7, R8, R9, A11
    t = hearts()
    assert sorted(t.zone("dead")) == sorted(DEAD)
    assert sorted(t.zone("hand", 0)) == sorted(P1.split())
    assert sorted(t.zone("hand", 1)) == sorted(P2.split())
    assert t.zone("stock") == []


def test_dead_cards_stay_hidden_from_both_players():                      # A13
    from interpreter import view
    t = hearts()
    for seat in (0, 1):
        assert view(t.program, t.state, seat)["zones"]["dead"] == [None, None]


def test_two_of_clubs_holder_leads_and_must_play_it():                   # R10
    t = hearts()
    assert t.deciding == 0
    assert t.legal() == ["lead 2♣"]


def test_four_of_clubs_leads_when_two_of_clubs_is_dead():                 # R11, A5
    t = hearts(p1="8♥ 4♣ 6♣ 2♦ 4♦ 6♦ 2♠ 4♠ 6♠ 2♥ 4♥ 6♥ Q♠", dead=["2♣", "8♦"])
    assert t.legal() == ["lead 4♣"]


def test_six_of_clubs_leads_when_two_and_four_are_dead():                # R11
    t = hearts(p1="8♥ 8♦ 6♣ 2♦ 4♦ 6♦ 2♠ 4♠ 6♠ 2♥ 4♥ 6♥ Q♠", dead=["2♣", "4♣"])
    assert t.legal() == ["lead 6♣"]


def test_holder_of_the_opening_club_leads_even_as_dealer_or_not():       # R10
    t = hearts(p1=P2, p2=P1)
    assert t.deciding == 1 and t.legal() == ["lead 2♣"]


def test_first_lead_any_lets_the_4_of_clubs_holder_lead_another_card():  # A5 alternative
    t = hearts(p1="8♥ 4♣ 6♣ 2♦ 4♦ 6♦ 2♠ 4♠ 6♠ 2♥ 4♥ 6♥ Q♠", dead=["2♣", "8♦"], first_lead_card="any")
    assert "lead 2♦" in t.legal() and "lead 2♥" not in t.legal()


def test_second_player_must_foll_suit_when_able():                      # R12
    t = hearts().play("lead 2♣")
    assert t.legal() == ["play 8♣", "play 10♣", "play Q♣", "play A♣"]


def test_player_who_cannot_follow_may_play_any_card():                   # R12
    p1 = "2♣ 4♣ 6♣ 8♣ 10♣ Q♣ A♣ 2♦ 4♦ 6♦ 2♠ 4♠ 6♠"
    p2 = "8♦ 10♦ Q♦ A♦ 8♠ 10♠ Q♠ A♠ 2♥ 4♥ 6♥ 10♥ Q♥"
    t = hearts(p1=p1, p2=p2, dead=["8♥", "A♥"]).play("lead 2♣")
    assert sorted(t.legal()) == sorted("play " + c for c in p2.split())


def test_hearts_are_trumps_a_void_players_heart_wins():                 # R5, R13, A7
    p1 = "2♣ 4♣ 6♣ 2♦ 4♦ 6♦ 2♠ 4♠ 6♠ 2♥ 4♥ 6♥ Q♠"
    p2 = "8♠ 10♦ Q♦ A♦ 10♥ 8♦ A♠ 10♠ Q♥ A♥ 8♥ Q♣ A♣"
    t = hearts(p1=p1, p2=p2, dead=["8♣", "10♣"])
    t.play("lead 2♣", "play Q♣")
    assert t.var("leader") == 1                 # Q♣ beats 2♣
    t.play("lead A♣", "play 4♣")
    assert t.var("leader") == 1
    t.play("lead 8♠", "play Q♠")
    assert t.var("leader") == 0                 # Q♠ beats 8♠
    t.play("lead 6♣")                           # P2 has no clubs left
    assert "play 8♥" in t.legal()
    t.play("play 8♥")
    assert t.var("leader") == 1                 # the heart trumps the led club


def test_higher_card_of_the_led_suit_wins_without_hearts():             # R13
    t = hearts().play("lead 2♣", "play 8♣")
    assert t.var("leader") == 1
    assert sorted(t.zone("taken", 1)) == sorted(["2♣", "8♣"])


def test_trick_winner_leads_next():                                      # R15
    t = hearts().play("lead 2♣", "play 8♣")
    assert t.deciding == 1
    assert all(label.startswith("lead") for label in t.legal())


def test_hearts_cannot_be_led_until_broken():                            # R14, A4
    t = hearts().play("lead 2♣", "play 8♣")
    assert not any(label.endswith("♥") for label in t.legal())


def test_hearts_break_when_a_player_cannot_follow():                     # R14, A3 (void)
    p1 = "2♣ 4♣ 6♣ 2♦ 4♦ 6♦ 2♠ 4♠ 6♠ 2♥ 4♥ 6♥ Q♠"
    p2 = "8♠ 10♦ Q♦ A♦ 10♥ 8♦ A♠ 10♠ Q♥ A♥ 8♥ Q♣ A♣"
    t = hearts(p1=p1, p2=p2, dead=["8♣", "10♣"])
    t.play("lead 2♣", "play Q♣", "lead A♣", "play 4♣")
    assert not t.var("broken")
    t.play("lead 8♠", "play 2♠", "lead 10♠", "play 4♠", "lead A♠", "play 6♠")
    t.play("lead 10♦", "play 2♦", "lead Q♦", "play 4♦", "lead A♦", "play 6♦", "lead 8♦")
    assert t.var("broken")                      # P1 has no diamond left: hearts broken
    assert "play 2♥" in t.legal()               # and a heart may go on this very trick


def test_hearts_broken_by_heart_played_alternative():                   # A3 alternative
    p1 = "2♣ 4♣ 6♣ 2♦ 4♦ 6♦ 2♠ 4♠ 6♠ 2♥ 4♥ 6♥ Q♠"
    p2 = "8♠ 10♦ Q♦ A♦ 10♥ 8♦ A♠ 10♠ Q♥ A♥ 8♥ Q♣ A♣"
    t = hearts(p1=p1, p2=p2, dead=["8♣", "10♣"], hearts_broken_by="heart_played")
    t.play("lead 2♣", "play Q♣", "lead A♣", "play 4♣", "lead 8♠", "play Q♠")
    t.play("lead 6♣", "play 8♥")
    assert t.var("broken")


def test_leader_holding_only_hearts_may_lead_one():                       # A2
    p1 = "2♣ 4♣ 6♣ 2♦ 4♦ 6♦ 2♠ 4♠ 6♠ 2♥ 4♥ 6♥ Q♠"
    p2 = "8♣ 10♣ Q♣ A♣ 10♦ Q♦ A♦ 8♠ 10♠ A♠ 10♥ Q♥ A♥"
    t = hearts(p1=p1, p2=p2)
    t.play("lead 2♣", "play 8♣", "lead 10♣", "play 4♣", "lead Q♣", "play 6♣", "lead A♣")
    t.play("play 2♦")                            # P1 void in clubs: hearts broken
    t.play("lead 10♦", "play 4♦", "lead Q♦", "play 6♦", "lead A♦", "play Q♠")
    t.play("lead 8♠", "play 2♠", "lead 10♠", "play 4♠", "lead A♠", "play 6♠")
    assert t.zone("hand", 1) == ["10♥", "Q♥", "A♥"]
    assert t.legal() == ["lead 10♥", "lead Q♥", "lead A♥"]


def test_thirteen_tricks_make_a_hand():                                   # R16
    t = hearts(target_score=50)
    t.play_out()
    assert t.text().count("trick 13:") >= 1 and "trick 14:" not in t.text()


QUEEN_FOLLOWER = dict(p1="2♣ 4♣ 6♣ 2♦ 4♦ 6♦ 2♠ 4♠ 6♠ 2♥ 4♥ 6♥ A♠",
                      p2="8♣ 10♣ Q♣ A♣ 10♦ Q♦ A♦ 8♠ 10♠ Q♠ 10♥ Q♥ A♥")


def test_queen_of_spades_follows_suit_by_default():                       # A6
    t = hearts(**QUEEN_FOLLOWER).play("lead 2♣")
    assert "play Q♠" not in t.legal()


def test_queen_universal_discard_alternative():                           # A6 alternative
    t = hearts(**QUEEN_FOLLOWER, queen_any_time="universal_discard").play("lead 2♣")
    assert "play Q♠" in t.legal()


def test_score_one_per_heart_and_13_for_the_queen():                      # R18, R19
    t = hearts()
    t.play("lead 2♣", "play 8♣")
    for _ in range(12):                                 # leader: first legal card; follower: last
        t.play(t.legal()[0])
        t.play(t.legal()[-1])
    # 8♥ is dead, so 19 points were in play; both took some, so nobody shot the moon
    assert (t.pvar("hand_points", 0), t.pvar("hand_points", 1)) == (14, 5)
    assert (t.pvar("score", 0), t.pvar("score", 1)) == (14, 5)
    assert "Player 1 scores 14 this hand, 14 in all" in t.text()


def _finish_hand(t):
    """Play the current hand out with first-legal moves; stop at the next deal."""
    from interpreter import apply
    from interpreter.playing.agents import Decision, FirstAgent
    hand = t.var("trick_no")
    while not t.over and not (t.var("trick_no") == 1 and hand == 13):
        hand = t.var("trick_no")
        apply(t.program, t.state, FirstAgent().choose(Decision(t.program, t.state)))


def test_shooting_the_moon_scores_0_and_opponent_20():                    # R20
    # P2 holds every heart that is live and the Q♠ with top cards; P1 cannot win a trick.
    p2 = "A♣ Q♣ 10♣ A♦ Q♦ A♠ Q♠ 2♥ 4♥ 6♥ 10♥ Q♥ A♥"
    p1 = "2♣ 4♣ 6♣ 8♣ 2♦ 4♦ 6♦ 8♦ 2♠ 4♠ 6♠ 8♠ 10♠"
    t = hearts(p1=p1, p2=p2, dead=["10♦", "8♥"])
    _finish_hand(t)
    assert "Player 2 shoots the moon" in t.text()
    assert t.pvar("score", 1) == 0 and t.pvar("score", 0) == 20


def test_moon_with_dead_point_cards_means_every_point_card_in_play():   # R21, A8
    p2 = "A♣ Q♣ 10♣ A♦ Q♦ A♠ 8♥ 2♥ 4♥ 6♥ 10♥ Q♥ A♥"
    p1 = "2♣ 4♣ 6♣ 8♣ 2♦ 4♦ 6♦ 8♦ 2♠ 4♠ 6♠ 8♠ 10♠"
    t = hearts(p1=p1, p2=p2, dead=["10♦", "Q♠"])
    _finish_hand(t)
    assert "Player 2 shoots the moon" in t.text()
    assert (t.pvar("score", 0), t.pvar("score", 1)) == (20, 0)


def test_moon_award_points_in_play_alternative():                        # A8 alternative
    p2 = "A♣ Q♣ 10♣ A♦ Q♦ A♠ 8♥ 2♥ 4♥ 6♥ 10♥ Q♥ A♥"
    p1 = "2♣ 4♣ 6♣ 8♣ 2♦ 4♦ 6♦ 8♦ 2♠ 4♠ 6♠ 8♠ 10♠"
    t = hearts(p1=p1, p2=p2, dead=["10♦", "Q♠"], moon_award="points_in_play")
    _finish_hand(t)
    assert (t.pvar("score", 0), t.pvar("score", 1)) == (7, 0)


def test_special_queen_clubs_alternative_makes_q_clubs_worth_13():        # A1 alternative
    t = hearts(special_queen="clubs")
    pts = dict(zip(t.program.deck.display, t.program.deck.attrs["points"][1]))
    assert pts["Q♣"] == 13 and pts["Q♠"] == 0


def test_no_trumps_departure_lets_led_suit_win():                         # A7 departure
    p1 = "2♣ 4♣ 6♣ 2♦ 4♦ 6♦ 2♠ 4♠ 6♠ 2♥ 4♥ 6♥ Q♠"
    p2 = "8♠ 10♦ Q♦ A♦ 10♥ 8♦ A♠ 10♠ Q♥ A♥ 8♥ Q♣ A♣"
    t = hearts(p1=p1, p2=p2, dead=["8♣", "10♣"], trumps="none")
    t.play("lead 2♣", "play Q♣", "lead A♣", "play 4♣", "lead 8♠", "play Q♠", "lead 6♣", "play 8♥")
    assert t.var("leader") == 0


def _match(scores, **options):
    """The standard hand, played with first-legal moves from the given running scores.

    In it Player 2 takes every point card: Player 1 scores 20, Player 2 0.  A second
    hand (from a random deal) then gives Player 1 5 points and Player 2 15."""
    t = hearts(**options)
    t.state.pvars["score"] = list(scores)
    _finish_hand(t)
    return t


def test_scores_add_up_and_reaching_100_ends_the_match_lowest_wins():    # R22, R24, A9
    t = _match([95, 10])
    assert (t.pvar("score", 0), t.pvar("score", 1)) == (115, 10)
    assert t.over and t.winners == [1]


def test_match_goes_on_when_both_pass_100_in_the_same_hand():            # R23, A10 play_on
    t = _match([100, 100])
    assert not t.over and t.var("overtime")


def test_match_tie_lower_wins_decides_at_once():                          # A10 (b)
    t = _match([100, 100], match_tie="lower_wins")
    assert (t.pvar("score", 0), t.pvar("score", 1)) == (120, 100)
    assert t.over and t.winners == [1]


def test_match_tie_lower_wins_plays_on_when_exactly_equal():              # A10 (b)
    t = _match([100, 120], match_tie="lower_wins")
    assert (t.pvar("score", 0), t.pvar("score", 1)) == (120, 120)
    assert not t.over


def test_match_tie_sudden_death_next_hand_decides():                     # A10 (c)
    t = _match([100, 100], match_tie="sudden_death")
    assert not t.over and t.var("phase") == "sudden_death"


def test_target_score_option_shortens_the_match():
    t = Table("hearts2", options={"target_score": "50"}, seed=4).play_out()
    assert max(t.scores) >= 50


def test_lower_score_wins_the_match():                                    # R1, R24
    for seed in range(5):
        t = Table("hearts2", seed=seed).play_out()
        a, b = t.scores
        assert a != b and max(a, b) >= 100 and t.winners == [0 if a < b else 1]


def test_dead_cards_face_up_house_rule_reveals_them_at_the_deal():        # A13 alternative
    from interpreter import view
    t = hearts(dead_cards_visibility="face_up")
    assert sorted(view(t.program, t.state, 0)["zones"]["dead"]) == sorted(["8H", "8D"])


def test_after_a_tie_at_100_the_next_hand_with_different_scores_ends_it():   # R23, A10 play_on
    t = _match([100, 100])
    assert not t.over                                # 120 and 100: both passed 100 together
    _finish_hand(t)
    assert (t.pvar("score", 0), t.pvar("score", 1)) == (125, 115)
    assert t.over and t.winners == [1]


def test_sudden_death_winner_took_fewer_points_in_the_deciding_hand():       # A10 (c)
    t = _match([100, 100], match_tie="sudden_death")
    _finish_hand(t)
    assert (t.pvar("hand_points", 0), t.pvar("hand_points", 1)) == (5, 15)
    assert t.over and t.winners == [0]               # fewer points in that hand, though 125 to 115 overall


# -- shooting the moon: the shooter is found once, from the points taken, and the award made once --

# The shooter's hand wins every trick whatever either player chooses: the other hand can always
# follow the shooter's clubs, diamonds and spades with lower cards, and then has no heart at all.
MOON_ALL_LIVE = dict(shooter="A♣ Q♣ A♦ Q♦ A♠ Q♠ 2♥ 4♥ 6♥ 8♥ 10♥ Q♥ A♥",
                     other="2♣ 4♣ 6♣ 8♣ 10♣ 2♦ 4♦ 6♦ 8♦ 2♠ 4♠ 6♠ 8♠", dead=["10♦", "10♠"])    # 20 in play
MOON_QUEEN_DEAD = dict(shooter="A♣ Q♣ 10♣ A♦ Q♦ A♠ 8♥ 2♥ 4♥ 6♥ 10♥ Q♥ A♥",
                       other="2♣ 4♣ 6♣ 8♣ 2♦ 4♦ 6♦ 8♦ 2♠ 4♠ 6♠ 8♠ 10♠", dead=["10♦", "Q♠"])   # 7 in play


def _moon(seat, hand, **options):
    h = dict(hand)
    p1, p2 = (h["shooter"], h["other"]) if seat == 0 else (h["other"], h["shooter"])
    t = hearts(p1=p1, p2=p2, dead=h["dead"], **options)
    _finish_hand(t)
    return t


def _hand_text(t) -> str:
    """The account of the first hand, up to its scores."""
    return t.text().split(" deals")[1]


@pytest.mark.parametrize("moon_award", ["flat_20", "points_in_play"])
@pytest.mark.parametrize("hand,in_play", [(MOON_ALL_LIVE, 20), (MOON_QUEEN_DEAD, 7)], ids=["all_live", "queen_dead"])
@pytest.mark.parametrize("seat", [0, 1], ids=["seat_1_shoots", "seat_2_shoots"])
def test_the_shooter_is_found_once_and_the_award_made_once(seat, hand, in_play, moon_award):   # R20, R21, A8
    t = _moon(seat, hand, moon_award=moon_award)
    other = 1 - seat
    award = 20 if moon_award == "flat_20" else in_play
    assert t.var("in_play") == in_play
    assert t.pvar("hand_points", seat) == 0 and t.pvar("hand_points", other) == award
    assert t.pvar("score", seat) == 0 and t.pvar("score", other) == award
    text = _hand_text(t)
    assert text.count("shoots the moon") == 1 and f"Player {seat + 1} shoots the moon!" in text
    assert f"Player {other + 1} scores {award} this hand, {award} in all" in text


def test_seat_1_shoots_the_moon_with_every_point_live_scripted():         # R20 (was: the award swapped back)
    # P1 holds the top cards; every move is scripted.  P2 leads the 2♣ and never wins a trick.
    t = hearts(p1=MOON_ALL_LIVE["shooter"], p2=MOON_ALL_LIVE["other"], dead=MOON_ALL_LIVE["dead"])
    assert t.deciding == 1
    t.play("lead 2♣", "play A♣")
    for lead, follow in [("Q♣", "4♣"), ("A♦", "2♦"), ("Q♦", "4♦"), ("A♠", "2♠"), ("Q♠", "4♠")]:
        t.play("lead " + lead, "play " + follow)
    for lead, follow in zip("2♥ 4♥ 6♥ 8♥ 10♥ Q♥ A♥".split(), "6♣ 8♣ 10♣ 6♦ 8♦ 6♠ 8♠".split()):
        t.play("lead " + lead, "play " + follow)
    text = _hand_text(t)
    assert text.count("Player 1 takes the trick") == 13 and t.var("in_play") == 20      # every point
    assert (t.pvar("score", 0), t.pvar("score", 1)) == (0, 20)
    assert "Player 1 shoots the moon!" in text and "Player 2 shoots the moon!" not in text


def test_no_hand_of_random_matches_has_two_shooters():                    # R20: seen with --seed 8
    from interpreter.playing.agents import RandomAgent
    moons = 0
    for seed in range(12):
        t = Table("hearts2", seed=seed).play_out(RandomAgent(seed))
        for hand in t.text().split(" deals")[1:]:
            shooters = re.findall(r"(Player \d) shoots the moon!", hand)
            assert len(shooters) <= 1, (seed, shooters)
            if shooters:
                moons += 1
                assert f"{shooters[0]} scores 0 this hand" in hand
    assert moons > 0
