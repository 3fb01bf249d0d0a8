"""hearts, rule by rule (R.. and C.. of docs/games/hearts.md).

`deal(hands)` stacks the deck with Player 1 (seat 0) dealing: the cards go one at a time round
the table from Player 2, on the dealer's left.  `hands(...)` completes partial hands with the
cards nobody was given, in deck order.  `endgame(...)` jumps to the last trick of a hand.
"""
from __future__ import annotations

from conftest import Table
from interpreter import view
from interpreter.runtime.engine import prompt

SUITS = "♣♦♠♥"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in SUITS for r in RANKS]
LEFT_OUT = {3: ["2♦"], 4: [], 5: ["2♦", "2♣"], 6: ["2♦", "3♦", "3♣", "4♣"]}


def hands(*given, n=4):
    """Each seat's hand: the cards given, then the cards nobody holds, in deck order."""
    given = [g.split() for g in given] + [[] for _ in range(n - len(given))]
    pool = [c for c in DECK if c not in LEFT_OUT[n] and not any(c in g for g in given)]
    size = (52 - len(LEFT_OUT[n])) // n
    for g in given:
        while len(g) < size:
            g.append(pool.pop(0))
    return given


def deal(hs):
    n = len(hs)
    return [hs[(1 + j) % n][i] for i in range(len(hs[0])) for j in range(n)]


# No club with Player 3 (seat 2); Player 2 holds the 2♣.
P = ["3♣ 4♣ 5♣ 8♣ 9♣ 10♣ 2♦ 3♦ 4♦ 2♠ 3♠ 4♠ 2♥",
     "2♣ 6♣ 7♣ 5♦ 6♦ 7♦ 5♠ 6♠ 7♠ 3♥ 4♥ 5♥ 6♥",
     "8♦ 9♦ 10♦ J♦ 8♠ 9♠ 10♠ Q♠ 7♥ 8♥ 9♥ 10♥ J♥",
     "J♣ Q♣ K♣ A♣ Q♦ K♦ A♦ J♠ K♠ A♠ Q♥ K♥ A♥"]


def hearts(hs=P, players=4, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    options.setdefault("passing", "none")
    return Table("hearts", stack=deal([h.split() if isinstance(h, str) else h for h in hs]),
                 options=options, players=players)


def endgame(t, last, taken=(), scores=None) -> Table:
    """The last trick of the hand: seat i holds only last[i]; taken[i] are the tricks seat i
    has won so far; every other card is put away.  The seat whose turn it is leads."""
    ix = {d: i for i, d in enumerate(t.program.deck.display)}
    z = t.state.zones
    kept = set(last) | {c for cs in taken for c in cs.split()} | set(t.zone("out"))
    for seat, card in enumerate(last):
        z["hand"][seat][:] = [ix[card]]
    for seat in range(len(last)):
        z["taken"][seat][:] = [ix[c] for c in taken[seat].split()] if seat < len(taken) else []
    z["stock"][:] = [ix[c] for c in DECK if c not in kept]
    t.state.vars.update(trick_no=12, broken=True)
    if scores is not None:
        t.state.pvars["score"] = list(scores)
    return t.refresh()



def test_three_to_six_players_four_by_default():                              # R1
    assert Table("hearts").program.players == (3, 6, 4)


def test_four_players_get_thirteen_cards_each_from_the_dealers_left():        # R2
    t = hearts()
    for seat in range(4):
        assert t.zone("hand", seat) == P[seat].split()
    assert t.zone("out") == [] and t.zone("stock") == []


def test_low_cards_are_left_out_with_three_five_or_six_players():             # R2
    for n, size in ((3, 17), (5, 10), (6, 8)):
        t = hearts(hands(n=n), players=n)
        assert sorted(t.zone("out")) == sorted(LEFT_OUT[n])
        assert all(len(t.zone("hand", s)) == size for s in range(n))
        assert f"with {n} players" in t.text()


def test_passing_cycle_left_right_across_hold():                              # R3, C1
    t = hearts(passing="left_right_across_hold")
    seen = []
    for hand in (1, 2, 3, 4, 5):
        t.play_until(lambda t: t.var("hand_no") == hand)
        seen.append(t.var("pass_dir"))
    assert seen == ["left", "right", "across", "hold", "left"]
    assert "no cards are passed this hand" in t.text()


def test_with_three_players_passing_goes_left_then_right():                   # R3, C1
    t = hearts(hands(n=3), players=3, passing="left_right_across_hold")
    seen = []
    for hand in (1, 2, 3):
        t.play_until(lambda t: t.var("hand_no") == hand)
        seen.append(t.var("pass_dir"))
    assert seen == ["left", "right", "left"]


def test_three_cards_pass_to_the_left_unseen_until_everyone_has_passed():    # R4
    t = hearts(passing="left_right_across_hold")
    assert t.deciding == 1 and len(t.legal()) == 13 and t.legal()[0] == "pass 2♣"
    assert prompt(t.program, t.state) == "Choose a card to pass to Player 3 (3 of 3 still to choose)"
    t.play("pass 2♣", "pass 6♣")
    assert prompt(t.program, t.state) == "Choose a card to pass to Player 3 (1 of 3 still to choose)"
    t.play("pass 3♥")                                      # Player 2 passes to Player 3
    assert t.zone("passing", 1) == ["2♣", "6♣", "3♥"] and t.deciding == 2
    assert view(t.program, t.state, 2)["zones"]["passing"][1] == [None] * 3   # face down
    assert "2♣" not in t.zone("hand", 2)                   # Player 3 chooses without them
    for _ in range(9):                                     # Players 3, 4 and 1 pass in turn
        t.play(t.legal()[0])
    assert {"2♣", "6♣", "3♥"} <= set(t.zone("hand", 2))
    assert len(t.zone("hand", 2)) == 13
    assert t.deciding == 2 and t.legal() == ["lead 2♣"]    # the new holder of the 2♣ leads


def test_the_second_hand_passes_to_the_right():                               # R3, C1
    t = hearts(passing="left_right_across_hold")
    t.play_until(lambda t: t.var("hand_no") == 2)
    assert t.var("pass_dir") == "right" and "each player passes three cards to the right" in t.text()
    for _ in range(12):
        t.play(t.legal()[0])
    passed = [e["text"] for e in t.state.log if e.get("to") == 1 and e.get("text", "").startswith("you pass")]
    assert passed[-1].endswith("to Player 1")              # Player 2's right is Player 1


def test_the_holder_of_the_two_of_clubs_leads_it():                          # R5, C2
    t = hearts()
    assert t.deciding == 1 and t.legal() == ["lead 2♣"]
    assert "Player 2 holds 2♣ and leads it" in t.text()


def test_with_five_players_the_three_of_clubs_leads():                        # R5, R2
    t = hearts(hands("", "", "3♣", n=5), players=5)
    assert t.deciding == 2 and t.legal() == ["lead 3♣"]


def test_left_of_dealer_leads_any_card_alternative():                        # C2
    t = hearts(first_lead="left_of_dealer")
    assert t.deciding == 1
    assert t.legal() == ["lead " + c for c in "2♣ 6♣ 7♣ 5♦ 6♦ 7♦ 5♠ 6♠ 7♠".split()]


def test_players_must_follow_suit():                                          # R6
    t = hearts().play("lead 2♣")
    assert t.deciding == 2
    t.play("play 8♦")                                      # void in clubs: any clean card
    assert t.legal() == ["play J♣", "play Q♣", "play K♣", "play A♣"]
    from interpreter.runtime.engine import refusal
    assert refusal(t.program, t.state, "Q♦") == ("play Q♦", "you must follow suit (clubs) while you can")


def test_no_hearts_and_no_queen_on_the_first_trick():                        # R7, C3
    t = hearts().play("lead 2♣")
    assert t.legal() == ["play " + c for c in "8♦ 9♦ 10♦ J♦ 8♠ 9♠ 10♠".split()]
    from interpreter.runtime.engine import refusal
    assert refusal(t.program, t.state, "Q♠")[1] == "no hearts and no Q♠ on the first trick while you hold another card"


def test_a_hand_of_nothing_but_points_may_play_one_on_the_first_trick():     # R7
    hs = hands("", "2♣", "Q♠ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥")
    t = hearts([" ".join(h) for h in hs]).play("lead 2♣")
    assert len(t.legal()) == 13 and "play Q♠" in t.legal()


def test_points_allowed_on_the_first_trick_alternative():                    # C3
    t = hearts(first_trick_points="allowed").play("lead 2♣")
    assert len(t.legal()) == 13 and "play Q♠" in t.legal()


def _trick_one(t):
    return t.play("lead 2♣", "play 8♦", "play A♣", "play 10♣")     # Player 4 takes it


def test_highest_card_of_the_suit_led_takes_the_trick_and_leads_next():     # R9
    t = _trick_one(hearts())
    assert t.var("leader") == 3 and t.deciding == 3
    assert "Player 4 takes the trick (2♣ 8♦ A♣ 10♣)" in t.text()
    assert sorted(t.zone("taken", 3)) == sorted(["2♣", "8♦", "A♣", "10♣"])


def test_hearts_may_not_be_led_until_broken():                               # R8, C4
    t = _trick_one(hearts())
    assert not any(label.endswith("♥") for label in t.legal())
    from interpreter.runtime.engine import refusal
    assert refusal(t.program, t.state, "A♥")[1] == "hearts may not be led until they are broken"
    t.play("lead K♣", "play 3♣", "play 6♣", "play J♥")      # Player 3, void, discards a heart
    assert t.var("broken") and "hearts are broken" in t.text()
    assert t.deciding == 3 and "lead A♥" in t.legal()


def test_a_leader_with_nothing_but_hearts_may_lead_one():                    # R8
    t = hearts()
    t.state.vars.update(trick_no=5)
    ix = {d: i for i, d in enumerate(t.program.deck.display)}
    t.state.zones["hand"][1][:] = [ix["3♥"], ix["4♥"]]
    t.refresh()
    assert t.legal() == ["lead 3♥", "lead 4♥"]


def test_hearts_led_any_time_alternative():                                  # C4
    t = _trick_one(hearts(hearts_lead="any_time"))
    assert "lead A♥" in t.legal()


def test_the_queen_of_spades_breaks_hearts_alternative():                   # C5
    hs = hands("", "2♣ 6♠", "Q♠ 8♦", "A♣ 2♠")
    t = hearts([" ".join(h) for h in hs], queen_breaks_hearts="heart_or_queen")
    t.play("lead 2♣", "play 8♦", "play A♣", "play 3♣")     # Player 4 takes the first trick
    t.play("lead 2♠", "play 4♣", "play 6♠", "play Q♠")     # Player 1 has no spade
    assert t.var("broken")
    t = hearts([" ".join(h) for h in hs])
    t.play("lead 2♣", "play 8♦", "play A♣", "play 3♣")
    t.play("lead 2♠", "play 4♣", "play 6♠", "play Q♠")
    assert not t.var("broken")                             # by default only a heart breaks them


def test_a_hand_is_thirteen_tricks():                                        # R10
    t = hearts()
    t.play_until(lambda t: t.var("hand_no") == 2)
    assert "trick 13:" in t.text() and "trick 14:" not in t.text()
    assert sum(t.pvar("hand_points", s) for s in range(4)) == 26


def test_each_heart_scores_one_and_the_queen_thirteen():                    # R11, R13
    t = endgame(hearts(), ["2♠", "A♠", "3♠", "4♠"],
                taken=["2♥ 3♥", "Q♠ 4♥", "", "5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"], scores=[10, 20, 30, 40])
    t.play("lead A♠", "play 3♠", "play 4♠", "play 2♠")
    assert [t.pvar("hand_points", s) for s in range(4)] == [2, 14, 0, 10]
    assert [t.pvar("score", s) for s in range(4)] == [12, 34, 30, 50]
    assert "Player 2 scores 14 this hand, 34 in all" in t.text()


MOON = dict(last=["2♠", "A♠", "3♠", "4♠"],
            taken=["", "Q♠ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥", "", ""])


def test_shooting_the_moon_adds_26_to_every_other_player():                 # R12, C6
    t = endgame(hearts(), **MOON).play("lead A♠", "play 3♠", "play 4♠", "play 2♠")
    assert "Player 2 shoots the moon!" in t.text()
    assert [t.pvar("score", s) for s in range(4)] == [26, 0, 26, 26]


def test_moon_subtract_from_own_alternative():                              # C6
    t = endgame(hearts(moon="subtract_from_own"), scores=[5, 40, 5, 5], **MOON)
    t.play("lead A♠", "play 3♠", "play 4♠", "play 2♠")
    assert [t.pvar("score", s) for s in range(4)] == [5, 14, 5, 5]


def test_moon_shooter_chooses_alternative():                                # C6
    t = endgame(hearts(moon="shooter_chooses"), scores=[5, 40, 5, 5], **MOON)
    t.play("lead A♠", "play 3♠", "play 4♠", "play 2♠")
    assert t.deciding == 1
    assert t.legal() == ["add 26 to every other player", "take 26 off my score"]
    t.play("take 26 off my score")
    assert [t.pvar("score", s) for s in range(4)] == [5, 14, 5, 5]
    assert "Player 2 takes 26 off their own score" in t.text()     # the others learn the choice


def test_no_moon_alternative():                                             # C6
    t = endgame(hearts(moon="none"), **MOON).play("lead A♠", "play 3♠", "play 4♠", "play 2♠")
    assert [t.pvar("score", s) for s in range(4)] == [0, 26, 0, 0]


def test_jack_of_diamonds_takes_ten_off_alternative():                       # C7
    taken = ["J♦ 2♥", "Q♠", "", "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"]
    t = endgame(hearts(jack_of_diamonds="minus_10"), ["2♠", "A♠", "3♠", "4♠"], taken=taken)
    t.play("lead A♠", "play 3♠", "play 4♠", "play 2♠")
    assert [t.pvar("hand_points", s) for s in range(4)] == [-9, 13, 0, 12]
    t = endgame(hearts(), ["2♠", "A♠", "3♠", "4♠"], taken=taken)
    t.play("lead A♠", "play 3♠", "play 4♠", "play 2♠")
    assert [t.pvar("hand_points", s) for s in range(4)] == [1, 13, 0, 12]


def test_reaching_100_ends_the_game_and_the_lowest_score_wins():            # R14, R15, C8
    t = endgame(hearts(), ["2♠", "A♠", "3♠", "4♠"], taken=["2♥", "Q♠", "", "3♥"], scores=[50, 90, 60, 70])
    t.play("lead A♠", "play 3♠", "play 4♠", "play 2♠")
    assert t.over and t.winners == [0] and t.scores == [51, 103, 60, 71]


def test_below_the_target_play_goes_on():                                   # R14
    t = endgame(hearts(), ["2♠", "A♠", "3♠", "4♠"], taken=["2♥", "Q♠", "", "3♥"], scores=[50, 80, 60, 70])
    t.play("lead A♠", "play 3♠", "play 4♠", "play 2♠")
    assert not t.over and t.var("hand_no") == 2


def test_target_50_alternative():                                           # C8
    t = endgame(hearts(target_score=50), ["2♠", "A♠", "3♠", "4♠"], taken=["2♥", "Q♠", "", "3♥"],
                scores=[10, 40, 20, 30])
    t.play("lead A♠", "play 3♠", "play 4♠", "play 2♠")
    assert t.over and t.winners == [0]


def test_a_tie_for_lowest_shares_the_win_or_plays_on():                     # R15, C9
    last, taken, scores = ["2♠", "A♠", "3♠", "4♠"], ["", "Q♠", "", "3♥"], [50, 90, 50, 70]
    t = endgame(hearts(), last, taken=taken, scores=scores)
    t.play("lead A♠", "play 3♠", "play 4♠", "play 2♠")
    assert t.over and t.winners == [0, 2]
    t = endgame(hearts(tie="play_on"), last, taken=taken, scores=scores)
    t.play("lead A♠", "play 3♠", "play 4♠", "play 2♠")
    assert not t.over and "share the lowest score: play goes on" in t.text()


def test_the_deal_passes_to_the_left():                                      # R2, C10
    t = hearts()
    assert t.var("dealer") == 0
    t.play_until(lambda t: t.var("hand_no") == 2)
    assert t.var("dealer") == 1 and "hand 2: Player 2 deals" in t.text()


def test_random_games_end_with_the_lowest_score_winning():                  # R14, R15
    for n in (3, 4, 5, 6):
        t = Table("hearts", seed=n, players=n).play_out()
        assert max(t.scores) >= 100
        assert t.winners == [s for s in range(n) if t.scores[s] == min(t.scores)]
