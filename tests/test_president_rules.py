"""president, rule by rule (R.. and C.. of docs/games/president.md).

`deal4(p1, p2, p3, p4)` stacks the deck for four players with Player 1 dealing: the deal starts
with Player 2, on the dealer's left; each hand is filled up to 13 cards from the rest of the
deck.  `arrange` sets the hands outright (every other card is among the played cards), for
positions late in a hand.
"""
from __future__ import annotations

from conftest import Table
from interpreter import apply, view
from interpreter.runtime.engine import option_named, prompt, refusal

RANKS = "3 4 5 6 7 8 9 10 J Q K A 2".split()
DECK = [r + s for r in RANKS for s in "♣♦♥♠"]


def deal4(p1="", p2="", p3="", p4=""):
    hands = [h.split() for h in (p2, p3, p4, p1)]                 # in the order the deal goes
    rest = [c for c in DECK if not any(c in h for h in hands)]
    for h in hands:
        while len(h) < 13:
            h.append(rest.pop(0))
    return [h[i] for i in range(13) for h in hands]


def pres(p1="", p2="", p3="", p4="", players=4, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("president", stack=deal4(p1, p2, p3, p4) if players == 4 else (), options=options,
                 players=players)


def arrange(t: Table, *hands: str, leader=None) -> Table:
    """Player i holds exactly hands[i]; every other card has been played. With `leader`, that
    seat is to lead."""
    deck = t.program.deck.display
    z = t.state.zones
    held = [[deck.index(c) for c in h.split()] for h in hands]
    everything = [c for zone in (z["stock"], z["pile"], z["played"], *z["hand"]) for c in zone]
    for zone in (z["stock"], z["pile"], *z["hand"]):
        zone.clear()
    for seat, cards in enumerate(held):
        z["hand"][seat][:] = sorted(cards, key=lambda c: everything.index(c))
    z["played"][:] = [c for c in everything if not any(c in h for h in held)]
    for seat, cards in enumerate(held):
        z["hand"][seat].sort(key=lambda c: (t.program.deck.attrs["power"][1][c], c))
    if leader is not None:
        t.state.current = leader
        t.state.vars["leader"] = leader
    return t.refresh()


def first_moves_until(t: Table, done) -> Table:
    """Make the first legal move until `done(t)` holds."""
    while not done(t):
        apply(t.program, t.state, 0)
    return t


def test_the_whole_deck_is_dealt_from_the_dealers_left():                     # R1, R2
    t = pres()
    assert [len(t.zone("hand", s)) for s in range(4)] == [13, 13, 13, 13]
    t = pres(players=5)
    assert [len(t.zone("hand", s)) for s in range(5)] == [10, 11, 11, 10, 10]
    assert t.zone("stock") == []


def test_a_play_is_named_by_typing_its_cards():                               # R3
    t = arrange(pres(first_lead="dealer_left"), "4♣ 4♦ 4♥ 9♠", "5♦ 5♠ 6♣", "K♦", "3♣ 7♦", leader=0)
    assert t.legal() == ["lead 4♣", "lead 4♦", "lead 4♥", "lead 9♠", "lead 4♣ 4♦", "lead 4♣ 4♦ 4♥"]

    def named(answer):
        i = option_named(t.program, t.state, answer)
        return None if i is None else t.legal()[i]
    assert named("4d") == "lead 4♦" and named("9S") == "lead 9♠"
    assert named("4c 4d") == "lead 4♣ 4♦" and named("4♣ 4♦ 4♥") == "lead 4♣ 4♦ 4♥"
    assert named("4♦") is None                                 # the single or the pair: ask again
    t.play("lead 4♦")
    assert t.zone("hand", 0) == ["4♣", "4♥", "9♠"] and "Player 1 leads 4♦" in t.text()
    assert t.legal() == ["play 5♦", "play 5♠", "play 6♣", "pass"]
    assert refusal(t.program, t.state, "5d 5s") == ("play 5♦ 5♠", "this trick is played with 1 card at a time")


def test_the_holder_of_the_three_of_clubs_leads_it_first():                   # R4, C5
    t = pres(p3="3♣ 3♥ 4♦ 5♠ 6♣ 7♦ 8♥ 9♠ 10♣ J♦ Q♥ K♠ A♣")
    assert t.deciding == 2
    assert t.legal() == ["lead 3♣", "lead 3♣ 3♥"]
    assert "the first lead of the game must include 3♣" in refusal(t.program, t.state, "lead 9♠")[1]
    t = pres(p3="3♣ 3♥ 9♠", first_lead="dealer_left")
    assert t.deciding == 1 and "pass" not in t.legal() and len(t.legal()) >= 10


def test_a_play_must_be_as_many_cards_of_a_higher_rank():                     # R5, C3
    t = pres(p3="3♣ 3♥", p4="4♦ 5♦ 5♠ 6♣ 6♦ 6♥ 2♠ 7♣ 8♣ 9♣ 10♦ J♣ Q♠",
             p1="3♦ 3♠ 4♣ 5♣ 7♦ 8♦ 9♦ 10♣ J♦ Q♦ K♦ A♦ 2♦").play("lead 3♣ 3♥")
    assert t.deciding == 3
    assert t.legal() == ["play 5♦ 5♠", "play 6♣ 6♦", "pass"]
    assert "this trick is played with 2 cards at a time" in refusal(t.program, t.state, "play 2♠")[1]
    t.play("play 5♦ 5♠")
    assert t.deciding == 0 and t.legal() == ["pass"]                           # 3♦ 3♠ do not beat 5s
    assert "3s do not beat 5s: play higher" in refusal(t.program, t.state, "play 3♦ 3♠")[1]


def test_equal_rank_alternative():                                            # C3
    t = pres(p3="3♣ 9♥", p4="3♦ 4♦", equal_rank="equal_allowed").play("lead 3♣")
    assert t.legal()[:2] == ["play 3♦", "play 4♦"]


def test_the_question_says_what_to_beat():                                    # R4, R5
    t = pres(p3="3♣ 3♥", p4="4♦ 5♦ 5♠ 6♣ 6♦ 6♥ 2♠ 7♣ 8♣ 9♣ 10♦ J♣ Q♠")
    assert prompt(t.program, t.state) == "Lead a card, or several of one rank: the first lead must include 3♣"
    t.play("lead 3♣ 3♥")
    assert prompt(t.program, t.state) == "Beat Player 3's 3♣ 3♥ with two higher cards of one rank, or pass"
    t = pres(p3="3♣", equal_rank="equal_allowed").play("lead 3♣")
    assert prompt(t.program, t.state) == "Beat Player 3's 3♣ with an equal or higher card, or pass"


def test_the_last_hands_play_is_not_left_to_beat_in_the_next():               # R4, R6
    t = arrange(pres(first_lead="dealer_left", hands=2), "8♦ 3♣", "4♦", "5♦", "6♦ 7♦", leader=1)
    assert view(t.program, t.state, 1)["table"]["to_beat"] == "nothing: lead"
    t.play("lead 4♦", "play 5♦", "play 6♦", "play 8♦", "pass", "lead 3♣")
    assert t.legal()[0].startswith("give back")                                # the exchange of hand 2
    assert view(t.program, t.state, 1)["table"]["to_beat"] == "—"
    first_moves_until(t, lambda t: t.legal()[0].startswith("lead"))
    assert view(t.program, t.state, 3)["table"]["to_beat"] == "nothing: lead"


def test_when_everyone_else_passes_the_last_to_play_leads():                  # R6
    t = pres(p3="3♣", p4="4♦").play("lead 3♣", "play 4♦", "pass", "pass", "pass")
    assert "everyone passes: Player 4 leads" in t.text()
    assert t.deciding == 3 and "pass" not in t.legal()
    assert t.zone("pile") == [] and len(t.zone("played")) == 2


def test_a_player_who_passed_may_play_again_later_in_the_trick():            # R6, C4
    t = pres(p3="3♣", p4="4♦ 6♦", p1="5♦", p2="7♦ 8♦")
    t.play("lead 3♣", "pass", "play 5♦", "play 7♦", "pass")
    assert t.deciding == 3                                                    # Player 4 passed, and plays again
    t.play("pass")
    assert t.deciding == 0
    t = pres(p3="3♣", p4="4♦ 6♦", p1="5♦", p2="7♦ 8♦", passing="out_of_trick")
    t.play("lead 3♣", "pass", "play 5♦", "play 7♦", "pass")
    assert t.deciding == 0                                                    # Player 4 sat out the trick


def test_a_player_who_passed_sits_out_under_out_of_trick():                   # C4
    t = pres(p3="3♣", p4="4♦ 6♦", p1="5♦ 7♠", p2="7♦ 8♦", passing="out_of_trick")
    t.play("lead 3♣", "pass", "play 5♦", "play 7♦")
    assert t.deciding == 2                                                    # Player 3, then not Player 4
    t.play("pass")
    assert t.deciding == 0
    t.play("pass")
    assert "everyone passes: Player 2 leads" in t.text()


def test_going_out_and_the_finishing_order_and_titles():                      # R7, R8, R11, C8
    t = arrange(pres(first_lead="dealer_left"), "8♦ 3♣", "4♦", "5♦", "6♦ 7♦", leader=1)
    t.play("lead 4♦")
    assert "Player 2 is out of cards and finishes first" in t.text()
    t.play("play 5♦")                                                         # Player 3 out second
    t.play("play 6♦", "play 8♦")
    assert t.deciding == 3 and t.legal() == ["pass"]
    t.play("pass")
    assert "everyone passes: Player 1 leads" in t.text()
    t.play("lead 3♣")
    assert "Player 1 is out of cards and finishes third" in t.text()
    assert "Player 2 is President" in t.text() and "Player 4 is Scum" in t.text()
    assert "Player 3 is Vice-President" in t.text() and "Player 1 is Vice-Scum" in t.text()
    assert [t.pvar("score", s) for s in range(4)] == [1, 3, 2, 0]


def test_when_the_last_player_goes_out_unbeaten_the_next_on_the_left_leads():  # R7
    t = arrange(pres(first_lead="dealer_left"), "3♣ 9♦", "4♦", "5♦ 6♠", "6♦ 7♦", leader=1)
    t.play("lead 4♦", "play 5♦", "play 6♦", "pass", "pass")
    assert "everyone passes: Player 4 leads" in t.text()
    t = arrange(pres(first_lead="dealer_left"), "3♣ 9♦", "4♦ 5♠", "5♦ 6♠", "6♦", leader=1)
    t.play("lead 4♦", "play 5♦", "play 6♦", "pass", "pass", "pass")
    assert "everyone passes, and Player 4 is out: Player 1 leads" in t.text()


def test_titles_scoring_alternative():                                        # C8
    t = arrange(pres(first_lead="dealer_left", scoring="titles"), "8♦ 3♣", "4♦", "5♦", "6♦ 7♦", leader=1)
    t.play("lead 4♦", "play 5♦", "play 6♦", "play 8♦", "pass", "lead 3♣")
    assert [t.pvar("score", s) for s in range(4)] == [-1, 2, 1, -2]


def test_twos_low_alternative():                                              # C2
    t = pres(twos="low", p2="2♣ 2♦ A♠")
    assert t.deciding == 1 and t.legal() == ["lead 2♣", "lead 2♣ 2♦"]


def test_the_scum_gives_the_best_two_cards_and_gets_any_two_back():          # R9, R10, C6, C7
    t = arrange(pres(first_lead="dealer_left", hands=2), "8♦ 3♣", "4♦", "5♦", "6♦ 7♦", leader=1)
    t.play("lead 4♦", "play 5♦", "play 6♦", "play 8♦", "pass", "lead 3♣")
    assert t.var("hand_no") == 2 and t.var("dealer") == 3                      # the Scum deals
    scum_gave = "Player 4 (Scum) gives Player 2 (President) their two best cards"
    assert scum_gave in t.text()
    assert t.deciding == 1 and len(t.legal()) == 105                           # any 2 of 15 cards
    assert all(label.startswith("give back ") for label in t.legal())
    t.play(t.legal()[0])
    assert "Player 2 gives Player 4 two cards back" in t.text()
    assert "Player 1 (Vice-Scum) gives Player 3 (Vice-President) their best card" in t.text()
    assert t.deciding == 2 and len(t.legal()) == 14
    t.play(t.legal()[0])
    assert [len(t.zone("hand", s)) for s in range(4)] == [13, 13, 13, 13]
    assert t.deciding == 3                                                     # the Scum leads
    assert "Player 4 leads" in t.text()


def test_the_scums_best_cards_are_the_highest():                               # R10
    t = arrange(pres(first_lead="dealer_left", hands=2), "8♦ 3♣", "4♦", "5♦", "6♦ 7♦", leader=1)
    t.play("lead 4♦", "play 5♦", "play 6♦", "play 8♦", "pass", "lead 3♣")
    scum_hand_before = [e["text"] for e in t.state.log if e.get("to") == 3 and e["text"].startswith("you are dealt")][-1]
    dealt = scum_hand_before.removeprefix("you are dealt ").split()
    gave = [e["text"] for e in t.state.log if e.get("to") == 3 and e["text"].startswith("you give")][-1]
    assert gave == f"you give Player 2 {dealt[-2]} {dealt[-1]}"


def test_the_cards_given_back_are_named_by_typing_them():                     # R10
    t = arrange(pres(first_lead="dealer_left", hands=2), "8♦ 3♣", "4♦", "5♦", "6♦ 7♦", leader=1)
    t.play("lead 4♦", "play 5♦", "play 6♦", "play 8♦", "pass", "lead 3♣")
    got = [e["text"] for e in t.state.log if e.get("to") == 1 and e["text"].startswith("Player 4 gives you")][-1]
    assert prompt(t.program, t.state) == got.replace("Player 4 gives you", "Player 4 gave you") + ": give them any two cards back"
    ids = [t.program.deck.ids[c].lower() for c in t.state.zones["hand"][1]]
    assert option_named(t.program, t.state, f"{ids[1]} {ids[0]}") == 0          # "give back" the two lowest
    t.play(t.legal()[0])
    assert prompt(t.program, t.state).endswith(": give them any card back")     # the Vice-President's one
    ids = [t.program.deck.ids[c].lower() for c in t.state.zones["hand"][2]]
    assert option_named(t.program, t.state, ids[3]) == 3


def test_one_card_exchange_and_no_exchange_alternatives():                    # C7
    t = arrange(pres(first_lead="dealer_left", hands=2, exchange="one"), "8♦ 3♣", "4♦", "5♦", "6♦ 7♦", leader=1)
    t.play("lead 4♦", "play 5♦", "play 6♦", "play 8♦", "pass", "lead 3♣")
    assert "their best card" in t.text() and t.deciding == 1 and len(t.legal()) == 14
    t.play(t.legal()[0])
    assert "(Vice-Scum) gives" not in t.text() and t.deciding == 3
    t = arrange(pres(first_lead="dealer_left", hands=2, exchange="none"), "8♦ 3♣", "4♦", "5♦", "6♦ 7♦", leader=1)
    t.play("lead 4♦", "play 5♦", "play 6♦", "play 8♦", "pass", "lead 3♣")
    assert "gives" not in t.text() and t.deciding == 3 and t.legal()[0].startswith("lead")


def test_later_hands_led_by_the_president_alternative():                      # C6
    t = arrange(pres(first_lead="dealer_left", hands=2, exchange="none", later_lead="president"),
                "8♦ 3♣", "4♦", "5♦", "6♦ 7♦", leader=1)
    t.play("lead 4♦", "play 5♦", "play 6♦", "play 8♦", "pass", "lead 3♣")
    assert t.deciding == 1 and "Player 2 leads" in t.text()


def test_after_the_last_hand_the_highest_total_wins():                        # R12, C1
    t = arrange(pres(first_lead="dealer_left", hands=1), "8♦ 3♣", "4♦", "5♦", "6♦ 7♦", leader=1)
    t.play("lead 4♦", "play 5♦", "play 6♦", "play 8♦", "pass", "lead 3♣")
    assert t.over and t.winners == [1] and t.scores == [1, 3, 2, 0]
    t = first_moves_until(pres(hands=3), lambda t: t.over)
    assert t.var("hand_no") == 3 and t.winners == [p for p in range(4) if t.scores[p] == max(t.scores)]


def test_the_first_dealer_is_random_and_the_player_on_their_left_is_dealt_first():   # R2, C9
    dealers = set()
    for seed in range(6):
        t = Table("president", seed=seed, players=5, options={"first_lead": "dealer_left"})
        dealer = t.var("dealer")
        dealers.add(dealer)
        assert t.deciding == (dealer + 1) % 5
        assert len(t.zone("hand", (dealer + 1) % 5)) == 11 and len(t.zone("hand", dealer)) == 10
    assert len(dealers) > 1


def test_later_hands_led_from_the_dealers_left_alternative():                 # C6
    t = arrange(pres(first_lead="dealer_left", hands=2, exchange="none", later_lead="dealer_left"),
                "8♦ 3♣", "4♦", "5♦", "6♦ 7♦", leader=1)
    t.play("lead 4♦", "play 5♦", "play 6♦", "play 8♦", "pass", "lead 3♣")
    assert t.var("dealer") == 3 and t.deciding == 0                            # the Scum deals, Player 1 leads
