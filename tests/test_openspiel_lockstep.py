"""Shipped trick-taking games in lockstep with OpenSpiel's own implementations of them
(open_spiel/games/<game>/<game>.cc), in the manner of tests/test_openspiel_bridge.py.

Our engine deals; each hand's deal is fed to a fresh OpenSpiel state as its chance actions
(OpenSpiel plays one hand per game).  Then a seeded random agent decides in our engine and,
at every decision, the deciding seat (mapped to OpenSpiel's player) and the legal set (our
option labels mapped to OpenSpiel's action ids, compared as sets) must be OpenSpiel's.  When
our hand ends, OpenSpiel's state must be terminal and its returns must be what our hand's
points give.  One adapter per game says how seats, deals, labels and returns correspond;
`lockstep` is the shared loop.

Cards: OpenSpiel's id of a card is rank * 4 + suit, suits ♣ ♦ ♥ ♠ = 0..3, ranks 2..A = 0..12
(hearts; oh_hell orders its suits ♣ ♦ ♠ ♥); spades.cc's is suit * 13 + rank; euchre has its
own 24-card numbering and skat.cc suit * 8 + rank, ranks 7 8 9 Q K 10 A J (see each adapter); kuhn_poker's cards are J, Q, K = 0, 1, 2, leduc_poker's rank * 2 + suit,
cribbage.cc's suit * 13 + rank, ranks A 2 .. K;
go_fish.cc knows only ranks, A..K = 0..12, and every card drawn from its pool is a chance action
too (`after` feeds it ours, `check` says when one side draws and the other not).  Cribbage is
one OpenSpiel game a whole game of ours (hand after hand to 121, its chance actions fed between
decisions), and its adapter's `check` compares both scores after every decision as well.
Hold'em plays against `universal_poker` (the ACPC server's rules): fixed limit with 2 to 4
players (HoldemAdapter), and all-ins and side pots, 2 to 9 players, against its no-limit game
with our stacks and raise sizes (HoldemSidePotAdapter); its cards are rank * 4 + suit too.
Goofspiel, a simultaneous game there, has a loop of its own (goofspiel_lockstep): our bids are
a choice made together, given to OpenSpiel as one joint action.

Where OpenSpiel's rule is a convention, an option of ours gives it (spades'
partnership_bid_cap=thirteen, crazy_eights' may_draw_anyway=keep_drawing with
draw_rule=up_to_limit and draw_limit=5, blackjack's twenty_one=may_hit, go_fish's
hand_size=pagat for initial_cards=-1, empty_hand=draw_and_pass for ask_after_empty_draw=false,
game_end=first_out for end_on_first_out=true, winner=first_out for most_books_wins=false,
holdem's raise_all_in=no, cribbage's lay_away=together and crib_flush=four_too) and the adapter
sets it.  Where it is OpenSpiel's bug, the difference
is set aside in the adapter (named there) and shown by a strict xfail test: spades' spades that
are never broken, crazy_eights' card values, go_fish's book dealt (more cards dealt) and its
returns of -1/(N-1) to all when nobody is out, universal_poker's pots split in fractions of a
chip, its limit games without stacks (nobody all-in) and its limit games of five players or
more, which it cannot load, cribbage's winner by player number when both pass 121 in one show.
Cribbage's game also ends otherwise than ours (after the action that reaches 121, points past
it counted): the adapter plays ours to target_score=1000 and says 121 itself, and a second
adapter (CribbageAt121Adapter) compares our own target's end, the winner and the points up to it.
Blackjack, one player against the dealer with chance between decisions, has a loop of its own
(blackjack_lockstep).  gin_rummy has one too (gin_lockstep): OpenSpiel's knock is two
actions (knock, then the discard) where ours is one option, so each of our options is a
sequence of OpenSpiel actions compared level by level; its players lay down their melds one
at a time (185 meld actions), which is our melding=one_by_one, and OpenSpiel's forced
one-action steps are applied to it alone."""
from __future__ import annotations

import random
import re

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytestmark = pytest.mark.extras

from conftest import ruleset  # noqa: E402
from interpreter import apply, labels, load_program, new_game  # noqa: E402

SUITS = "♣♦♥♠"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def card_id(display: str) -> int:
    """'10♦' -> OpenSpiel's card id (rank * 4 + suit)."""
    return RANKS.index(display[:-1]) * 4 + SUITS.index(display[-1])


def suit_major_id(display: str) -> int:
    """'10♦' -> spades.cc's card id (suit * 13 + rank)."""
    return SUITS.index(display[-1]) * 13 + RANKS.index(display[:-1])


def label_card(label: str) -> str:
    """'lead 10♦', 'play 2♣', 'pass Q♠' -> '10♦'."""
    return label.split()[1]


class Adapter:
    """How one of our games corresponds to OpenSpiel's: subclasses say the rest."""
    name = ""
    players = 4
    hands_per_game = 99      # hands of one of our games played in lockstep, each a new OpenSpiel game

    def __init__(self, options: dict):
        self.options = options
        self.program = load_program(ruleset(self.name), options)

    def new_game(self, seed: int):
        return new_game(self.program, seed=seed, players=self.players)

    card_id = staticmethod(card_id)

    def cards(self, state, seat: int) -> list[int]:
        deck = self.program.deck.display
        return [self.card_id(deck[c]) for c in state.zones["hand"][seat]]

    # --- to be given by each game ---
    def hand_key(self, state):
        """What changes when our engine starts a new hand (a new OpenSpiel game)."""
        return (state.vars["hand_no"],)

    def deal(self, state):
        """A new OpenSpiel state for the hand our engine has just dealt."""
        raise NotImplementedError

    def os_player(self, state, seat: int) -> int:
        raise NotImplementedError

    def action(self, state, label: str) -> int:
        raise NotImplementedError

    def returns(self, state) -> list[float]:
        """OpenSpiel's returns, by its players, from our state at the end of a hand."""
        raise NotImplementedError

    def choose(self, rng: random.Random, options: list[str]) -> int:
        return rng.randrange(len(options))

    merged = False           # may two of our options be one OpenSpiel action (see EuchreAdapter)?

    def after(self, state, os_state, label: str) -> None:
        """After a decision: apply OpenSpiel's decisions that ours made with it (see EuchreAdapter)."""

    def check(self, state, os_state) -> str | None:
        """After a decision (and `after`): what differs between the two states, if anything
        (see CribbageAdapter, which compares the scores so)."""
        return None

    def allowed(self, state, options: list[str]) -> list[int]:
        """Which of our options are compared (and may be chosen): all of them, unless a
        known difference of rules is set aside (see SpadesAdapter)."""
        return list(range(len(options)))


def lockstep(adapter: Adapter, deals: int, first_seed: int = 0):
    """Play games until `deals` hands have been played; the list of (seed, hand, decision,
    what differed) and the number of hands played."""
    disagreements, hands = [], 0
    seed = first_seed
    while hands < deals:
        rng = random.Random(seed)
        state = adapter.new_game(seed)
        os_state, key, n, in_game = adapter.deal(state), adapter.hand_key(state), 0, 0
        why = None
        while why is None:
            seat = state.pending[0]
            if os_state.is_terminal():
                why = "OpenSpiel's hand is over, not ours"
                break
            if adapter.os_player(state, seat) != os_state.current_player():
                why = (f"seat {seat} (OpenSpiel's player {adapter.os_player(state, seat)}) decides, "
                       f"OpenSpiel's player {os_state.current_player()}")
                break
            options = labels(adapter.program, state)
            allowed = adapter.allowed(state, options)
            ours = [adapter.action(state, options[j]) for j in allowed]
            if (len(set(ours)) != len(ours) and not adapter.merged) or sorted(set(ours)) != sorted(os_state.legal_actions()):
                why = f"legal {sorted(ours)} {[options[j] for j in allowed]}, OpenSpiel {os_state.legal_actions()}"
                break
            k = adapter.choose(rng, [options[j] for j in allowed])
            i, action = allowed[k], ours[k]
            apply(adapter.program, state, i)
            os_state.apply_action(action)
            adapter.after(state, os_state, options[i])
            n += 1
            why = adapter.check(state, os_state)
            if why:
                break
            if state.over or adapter.hand_key(state) != key:
                hands += 1
                in_game += 1
                if not os_state.is_terminal():
                    why = "our hand is over, not OpenSpiel's"
                elif adapter.returns(state) != list(os_state.returns()):
                    why = f"hand's returns {adapter.returns(state)}, OpenSpiel {os_state.returns()}"
                if why or state.over or hands >= deals or in_game >= adapter.hands_per_game:
                    break
                os_state, key, n = adapter.deal(state), adapter.hand_key(state), 0
        if why:
            disagreements.append((seed, in_game, n, why))
            hands += not (state.over or adapter.hand_key(state) != key)    # the hand cut short
        seed += 1
    return disagreements, hands


# ---------------------------------------------------------------- hearts


class HeartsAdapter(Adapter):
    """rulesets/hearts.yaml and `hearts` (hearts.cc).  OpenSpiel's player 0 is the first to
    pass, the dealer's left: our seat s is its player (s - dealer - 1) % 4, and its 'left'
    (player + 1) is ours.  Its first chance action is the pass direction (0 none, 1 left,
    2 across, 3 right), taken from our `pass_dir`; the 52 cards follow, the k-th to player
    k % 4.  Returns: 26 minus the hand's points (our `hand_points`, the J♦'s -10 in them)."""
    name = "hearts"
    DIRS = {"hold": 0, "left": 1, "across": 2, "right": 3}

    def __init__(self, options: dict):
        super().__init__(options)
        self.game = pyspiel.load_game("hearts", {
            "pass_cards": options.get("passing", "left_right_across_hold") != "none",
            "no_pts_on_first_trick": options.get("first_trick_points", "forbidden") == "forbidden",
            "can_lead_any_club": False,
            "jd_bonus": options.get("jack_of_diamonds", "nothing") == "minus_10",
            "avoid_all_tricks_bonus": False,
            "must_break_hearts": options.get("hearts_lead", "after_broken") == "after_broken",
            "qs_breaks_hearts": options.get("queen_breaks_hearts", "heart_only") == "heart_or_queen",
            "can_lead_hearts_instead_of_qs": False})

    def os_player(self, state, seat):
        return (seat - state.vars["dealer"] - 1) % 4

    def deal(self, state):
        os_state = self.game.new_initial_state()
        os_state.apply_action(self.DIRS[state.vars["pass_dir"]])
        hands = [None] * 4
        for seat in range(4):
            hands[self.os_player(state, seat)] = self.cards(state, seat)
        assert sorted(sum(hands, [])) == list(range(52))
        for k in range(52):
            os_state.apply_action(hands[k % 4][k // 4])
        return os_state

    def hand_key(self, state):
        return (state.vars["hand_no"],)

    def action(self, state, label):
        return card_id(label_card(label))

    def returns(self, state):
        # the hand just scored: our dealer has moved on to the left since
        points = [0.0] * 4
        for seat in range(4):
            points[(seat - state.vars["dealer"]) % 4] = 26.0 - state.pvars["hand_points"][seat]
        return points


HEARTS_OPTIONS = [
    {},                                                      # left, right, across, hold
    {"queen_breaks_hearts": "heart_or_queen", "jack_of_diamonds": "minus_10"},
    {"hearts_lead": "any_time", "first_trick_points": "allowed", "passing": "left_right_across"},
    {"passing": "none"},
]


def _run(adapter_class, option_sets, deals, first_seed=0):
    results = []
    for k, options in enumerate(option_sets):
        disagreements, hands = lockstep(adapter_class(options), deals // len(option_sets),
                                        first_seed=first_seed + 100000 * k)
        results.append((options, hands, disagreements[:1]))
    return results


def test_hearts_agrees_with_openspiel_hand_by_hand():
    results = _run(HeartsAdapter, HEARTS_OPTIONS, 200)
    assert all(not d for _, _, d in results), results


@pytest.mark.slow
def test_hearts_agrees_with_openspiel_over_thousands_of_hands():
    results = _run(HeartsAdapter, HEARTS_OPTIONS, 4000, first_seed=7)
    assert all(not d for _, _, d in results), results


# ---------------------------------------------------------------- spades


class SpadesAdapter(Adapter):
    """rulesets/spades.yaml (blind_nil=never, nil_tricks=contract, first_lead=left_of_dealer,
    partnership_bid_cap=thirteen) and `spades(use_mercy_rule=false)` (spades.cc), which plays
    one hand: OpenSpiel's player 0 bids and leads first, the dealer's left, so our seat s is
    its player (s - dealer - 1) % 4 (partners stay partners).  Bids: 52 + n (nil = 52).
    Returns: each partnership's score for the hand (10 a trick bid, a bag 1, nil ±100, 100 off
    at 10 bags; OpenSpiel's bonus for reaching 500 cannot arise in one hand).  Only the first
    hand of each of our games is compared: OpenSpiel's game starts with no bags carried over.
    Cards: spades.cc numbers them suit * 13 + rank.

    OpenSpiel caps a partnership's bids at 13 in all (the second partner may bid at most 13
    minus the first one's bid): that is our partnership_bid_cap=thirteen (C11), a convention.
    One difference is OpenSpiel's bug, not a convention, and is set aside: spades.h declares
    `is_spades_broken_` and PlayLegalActions reads it, but nothing ever sets it, so a spade may
    never be led while the leader holds another suit, however many spades have been played.
    `allowed` sets those spade leads aside (neither compared nor chosen);
    test_spades_never_broken_differs shows the difference itself."""
    name = "spades"
    hands_per_game = 1
    card_id = staticmethod(suit_major_id)

    def __init__(self, options: dict, set_aside: tuple = ("never_broken",)):
        super().__init__({"blind_nil": "never", "nil_tricks": "contract",
                          "first_lead": "left_of_dealer", "bags": "ten_cost_100", "nil_value": 100,
                          "spades_lead": "after_broken", "partnership_bid_cap": "thirteen", **options})
        self.set_aside = set_aside
        self.game = pyspiel.load_game("spades", {"use_mercy_rule": False})

    def os_player(self, state, seat):
        return (seat - state.vars["dealer"] - 1) % 4

    def deal(self, state):
        os_state = self.game.new_initial_state()
        hands = [None] * 4
        for seat in range(4):
            hands[self.os_player(state, seat)] = self.cards(state, seat)
        assert sorted(sum(hands, [])) == list(range(52))
        for k in range(52):
            os_state.apply_action(hands[k % 4][k // 4])
        return os_state

    def action(self, state, label):
        if label.startswith("bid "):
            return 52 + (0 if label == "bid nil" else int(label.split()[1]))
        return self.card_id(label_card(label))

    def allowed(self, state, options):
        keep = list(range(len(options)))
        partner_bid = state.pvars["bid"][(state.pending[0] + 2) % 4]
        if "cap" in self.set_aside and partner_bid >= 0:
            keep = [j for j in keep if not options[j].startswith("bid ")
                    or self.action(state, options[j]) - 52 + partner_bid <= 13]
        if "never_broken" in self.set_aside and any(o.startswith("lead") and o[-1] != "♠" for o in options):
            keep = [j for j in keep if not (options[j].startswith("lead") and options[j][-1] == "♠")]
        return keep

    def choose(self, rng, options):
        if options[0].startswith("bid "):      # nil now and then, else a bid that can be made
            return 0 if rng.random() < 0.15 else rng.randrange(1, min(len(options), 6))
        return rng.randrange(len(options))

    def returns(self, state):
        # the hand just scored: our dealer has moved on to the left since; scores start at 0
        points = [0.0] * 4
        for seat in range(4):
            points[(seat - state.vars["dealer"]) % 4] = float(state.pvars["score"][seat])
        return points


def test_spades_agrees_with_openspiel_hand_by_hand():
    results = _run(SpadesAdapter, [{}, {"dealer": "seat_1"}], 200)
    assert all(not d for _, _, d in results), results


def test_spades_bid_cap_is_our_partnership_bid_cap():
    """With partnership_bid_cap=thirteen every bid is compared, none set aside; without it
    (each player 0..13) the lockstep finds OpenSpiel's cap."""
    results = _run(SpadesAdapter, [{}, {"dealer": "seat_1"}], 100)
    assert all(not d for _, _, d in results), results
    disagreements, _ = lockstep(SpadesAdapter({"partnership_bid_cap": "none"}), 50)
    assert disagreements and "legal" in disagreements[0][3]


@pytest.mark.xfail(strict=True, reason="spades: OpenSpiel never marks spades broken, a bug: spades.h declares "
                   "is_spades_broken_ and PlayLegalActions reads it, but nothing sets it, so a spade may never be "
                   "led while the leader holds another suit; no rule of Spades says so, and we give it no option")
def test_spades_never_broken_differs():
    disagreements, _ = lockstep(SpadesAdapter({}, set_aside=()), 50)
    assert disagreements == [], disagreements[:1]


@pytest.mark.slow
def test_spades_agrees_with_openspiel_over_thousands_of_hands():
    results = _run(SpadesAdapter, [{}], 3000, first_seed=7)
    assert all(not d for _, _, d in results), results


# ---------------------------------------------------------------- oh_hell


class OhHellAdapter(Adapter):
    """rulesets/oh_hell.yaml and `oh_hell(players=N)` (oh_hell.cc), one OpenSpiel game a hand:
    its chance actions are the hand's size (our `size`), the dealer (our dealer; seats are
    OpenSpiel's players), the cards (the k-th to player k % N) and the card turned for trumps.
    Cards: oh_hell.cc's suits are ♣ ♦ ♠ ♥ = 0..3 (kSuitChar "CDSH"), id rank * 4 + suit;
    bids 52 + n.  Returns: the hand's change to each of our scores.

    OpenSpiel always turns a card for trumps, so a hand takes at most (52 - 1) // N cards:
    with four players our max_hand=whole_deck (13 each, no trumps) has no counterpart, and
    keep_a_trump or ten is used.  Its scoring is 1 a trick plus 10 for an exact bid
    (off_bid_penalty=false: our scoring=trick_each_plus_bonus) or an exact bid's tricks plus
    10 and 1 off a trick over or under (off_bid_penalty=true: our bonus_or_penalty); our
    default bonus_plus_bid (10 + bid, a miss nothing) has no counterpart in OpenSpiel."""
    name = "oh_hell"
    SUITS = "♣♦♠♥"

    def __init__(self, options: dict, players: int = 4):
        self.players = players
        super().__init__({"max_hand": "keep_a_trump", "hook": "dealer", "bonus": 10,
                          "nil_bid": "as_any_bid", "no_trump_hand": "no_trump", **options})
        self.game = pyspiel.load_game("oh_hell", {
            "players": players, "num_suits": 4, "num_cards_per_suit": 13, "num_tricks_fixed": -1,
            "points_per_trick": 1,
            "off_bid_penalty": self.program.options["scoring"] == "bonus_or_penalty"})
        assert self.program.options["scoring"] in ("trick_each_plus_bonus", "bonus_or_penalty")

    def card_id(self, display):
        return RANKS.index(display[:-1]) * 4 + self.SUITS.index(display[-1])

    def os_player(self, state, seat):
        return seat

    def deal(self, state):
        os_state = self.game.new_initial_state()
        os_state.apply_action(state.vars["size"])
        os_state.apply_action(state.vars["dealer"])
        hands = [self.cards(state, seat) for seat in range(self.players)]
        for k in range(self.players * state.vars["size"]):
            os_state.apply_action(hands[k % self.players][k // self.players])
        os_state.apply_action(self.card_id(self.program.deck.display[state.zones["turnup"][-1]]))
        self.scores = list(state.pvars["score"])
        return os_state

    def action(self, state, label):
        if label.startswith("bid "):
            return 52 + int(label.split()[1])
        return self.card_id(label_card(label))

    def returns(self, state):
        return [float(now - before) for now, before in zip(state.pvars["score"], self.scores)]


OH_HELL_OPTIONS = [
    {"scoring": "trick_each_plus_bonus"},
    {"scoring": "bonus_or_penalty", "hand_sequence": "up_down"},
    {"scoring": "trick_each_plus_bonus", "max_hand": "ten", "hand_sequence": "down_up"},
]


def test_oh_hell_agrees_with_openspiel_hand_by_hand():
    results = _run(OhHellAdapter, OH_HELL_OPTIONS, 210)
    results += _run(lambda o: OhHellAdapter(o, players=3), [{"scoring": "bonus_or_penalty", "max_hand": "whole_deck"}], 60)
    results += _run(lambda o: OhHellAdapter(o, players=5), [{"scoring": "trick_each_plus_bonus"}], 60)
    assert all(not d for _, _, d in results), results


@pytest.mark.slow
def test_oh_hell_agrees_with_openspiel_over_thousands_of_hands():
    results = _run(OhHellAdapter, OH_HELL_OPTIONS, 3000, first_seed=7)
    for n in (3, 5, 6, 7):
        results += _run(lambda o: OhHellAdapter(o, players=n), [{"scoring": "bonus_or_penalty"}], 500, first_seed=7)
    assert all(not d for _, _, d in results), results


# ---------------------------------------------------------------- euchre


class EuchreAdapter(Adapter):
    """rulesets/euchre.yaml (going_alone=allowed, partner_order_up=free, defend_alone=no,
    alone_lead=dealer_left, upcard_discard=forbidden, euchre_points=two) and
    `euchre(allow_lone_defender=false, stick_the_dealer=...)` (euchre.cc), one OpenSpiel game
    a hand.  Seats are OpenSpiel's players; its chance actions are the dealer (ours), then the
    20 cards, the k-th to player (dealer + k) % 4, then the card turned up.  Cards: rank * 4 +
    suit, ranks 9 10 J Q K A = 0..5, suits ♣ ♦ ♥ ♠ = 0..3; 24 pass, 25 + suit to make trumps,
    29 go alone, 30 play with partner.

    Two decisions of ours are each two of OpenSpiel's: we order up (or name a suit) alone or
    not in one choice, where OpenSpiel asks whether to go alone after the bid (and after the
    dealer's discard), so our 'order up X' and 'order up X and go alone' are both OpenSpiel's
    25 + suit (`merged`), and `after` then makes OpenSpiel's go-alone decision as ours said.
    When the dealer's partner orders up alone, our dealer sits out and sets the card aside,
    while OpenSpiel's dealer still picks it up and discards (a card that is never played):
    `after` discards OpenSpiel's lowest.  A thrown-in hand (stick_the_dealer=no, eight passes)
    is OpenSpiel's terminal state with returns 0.  Returns: OpenSpiel's are zero-sum (the
    makers' points, or -2 when euchred, for each maker, their negative for each defender);
    ours give the points to the side that wins them, so a player's return is their side's
    gain this hand minus the other side's.

    Not reproducible with any option of ours: OpenSpiel's lone defender
    (allow_lone_defender=true) may defend alone even against makers playing together, where
    our defend_alone=yes is offered only against a lone maker; OpenSpiel forbids the dealer
    to discard the card picked up (our upcard_discard=allowed, the default, differs) and
    always offers to go alone (our going_alone=not_allowed differs)."""
    name = "euchre"
    merged = True
    RANKS = ["9", "10", "J", "Q", "K", "A"]

    def __init__(self, options: dict):
        super().__init__({"going_alone": "allowed", "partner_order_up": "free", "defend_alone": "no",
                          "alone_lead": "dealer_left", "upcard_discard": "forbidden",
                          "euchre_points": "two", **options})
        self.game = pyspiel.load_game("euchre", {
            "allow_lone_defender": False,
            "stick_the_dealer": self.program.options["stick_the_dealer"] == "yes"})
        self.queue = []

    def card_id(self, display):
        return self.RANKS.index(display[:-1]) * 4 + SUITS.index(display[-1])

    def os_player(self, state, seat):
        return seat

    def hand_key(self, state):
        return (state.rounds,)

    def deal(self, state):
        os_state = self.game.new_initial_state()
        dealer = state.vars["dealer"]
        os_state.apply_action(dealer)
        hands = [self.cards(state, seat) for seat in range(4)]
        for k in range(20):
            os_state.apply_action(hands[(dealer + k) % 4][k // 4])
        os_state.apply_action(self.card_id(self.program.deck.display[state.vars["turned"]]))
        self.scores = list(state.pvars["score"])
        self.queue = []
        return os_state

    def action(self, state, label):
        words = label.split()
        if label == "pass":
            return 24
        if words[0] in ("order", "pick"):
            return 25 + SUITS.index(self.program.deck.display[state.vars["turned"]][-1])
        if words[0] == "name":
            return 25 + SUITS.index(words[1])
        return self.card_id(words[1])

    def after(self, state, os_state, label):
        if label.split()[0] in ("order", "pick", "name"):
            self.queue = [29 if label.endswith("go alone") else 30]
            if label.split()[0] == "order" and state.vars["dealer"] in state.vars["out"]:
                self.queue.insert(0, None)         # OpenSpiel's sitting-out dealer discards
        while self.queue and not os_state.is_terminal():
            legal = os_state.legal_actions()
            if self.queue[0] is None and os_state.current_player() == state.vars["dealer"] and max(legal) < 24:
                os_state.apply_action(legal[0])
            elif self.queue[0] is not None and legal == [29, 30] and os_state.current_player() == state.vars["maker"]:
                os_state.apply_action(self.queue[0])
            else:
                break
            self.queue.pop(0)

    def choose(self, rng, options):
        if "pass" in options and rng.random() < 0.8:     # so that the second round and throw-ins come
            return options.index("pass")
        return rng.randrange(len(options))

    def returns(self, state):
        gain = [now - before for now, before in zip(state.pvars["score"], self.scores)]
        return [float(gain[p] - gain[(p + 1) % 4]) for p in range(4)]


EUCHRE_OPTIONS = [{}, {"stick_the_dealer": "yes"}, {"dealer": "seat_1", "target_score": 5}]


def test_euchre_agrees_with_openspiel_hand_by_hand():
    results = _run(EuchreAdapter, EUCHRE_OPTIONS, 210)
    assert all(not d for _, _, d in results), results


@pytest.mark.slow
def test_euchre_agrees_with_openspiel_over_thousands_of_hands():
    results = _run(EuchreAdapter, EUCHRE_OPTIONS, 3000, first_seed=7)
    assert all(not d for _, _, d in results), results


# ---------------------------------------------------------------- skat


class SkatAdapter(Adapter):
    """rulesets/skat.yaml (bidding=first_come, scoring=card_points, all_pass=thrown_in) and
    `skat` (skat.cc), one OpenSpiel game a hand.  OpenSpiel's player 0 is always forehand, the
    dealer's left: our seat s is its player (s - dealer - 1) % 3.  Its chance actions are the 32
    cards, the k-th to player 0 for k in 0-2, 11-14, 23-25, to player 1 for 3-5, 15-18, 26-28,
    to player 2 for 6-8, 19-22, 29-31 and to the skat for 9 and 10 (the 3-skat-4-3 deal); a
    card's id is suit * 8 + rank, suits ♦ ♥ ♠ ♣, ranks 7 8 9 Q K 10 A J.  It has no Reizen:
    forehand, middlehand, rearhand in turn pass (32) or name a game (33-36 the suits ♦ ♥ ♠ ♣,
    37 grand, 38 null), the first to name one is the declarer, takes up the skat and discards
    two cards one at a time (our two 'discard' decisions).  Returns: (points - 60) / 120 to the
    declarer, (60 - points) / 240 to each defender, a null ±30 / 120 and ∓30 / 240 (it ends at
    the declarer's first trick), 0 when all pass: our card_points scores are those times 240,
    read as the change of each score over the hand."""
    name = "skat"
    players = 3
    SUITS = "♦♥♠♣"
    RANKS = ["7", "8", "9", "Q", "K", "10", "A", "J"]
    GAMES = {"pass": 32, "play ♦ diamonds": 33, "play ♥ hearts": 34, "play ♠ spades": 35,
             "play ♣ clubs": 36, "play grand": 37, "play null": 38}
    TO = [0] * 3 + [1] * 3 + [2] * 3 + [None] * 2 + [0] * 4 + [1] * 4 + [2] * 4 + [0] * 3 + [1] * 3 + [2] * 3

    def __init__(self, options: dict):
        super().__init__({"bidding": "first_come", "scoring": "card_points", **options})
        self.game = pyspiel.load_game("skat")

    def card_id(self, display):
        return self.SUITS.index(display[-1]) * 8 + self.RANKS.index(display[:-1])

    def os_player(self, state, seat):
        return (seat - state.vars["dealer"] - 1) % 3

    def deal(self, state):
        os_state = self.game.new_initial_state()
        hands = [None] * 3
        for seat in range(3):
            hands[self.os_player(state, seat)] = self.cards(state, seat)
        deck = self.program.deck.display
        skat = [self.card_id(deck[c]) for c in state.zones["skat"]]
        assert sorted(sum(hands, []) + skat) == list(range(32))
        for to in self.TO:
            os_state.apply_action((hands[to] if to is not None else skat).pop())
        self.scores = list(state.pvars["score"])
        return os_state

    def action(self, state, label):
        if label in self.GAMES:
            return self.GAMES[label]
        return self.card_id(label_card(label))

    def choose(self, rng, options):
        if "pass" in options and rng.random() < 0.4:      # so that later seats declare, and all pass
            return options.index("pass")
        return rng.randrange(len(options))

    def returns(self, state):
        # the hand just scored: our dealer has moved on to the left since
        out = [0.0] * 3
        for seat in range(3):
            out[(seat - state.vars["dealer"]) % 3] = (state.pvars["score"][seat] - self.scores[seat]) / 240
        return out


def test_skat_agrees_with_openspiel_hand_by_hand():
    results = _run(SkatAdapter, [{}, {"dealer": "seat_1", "hands": 6}], 300)
    assert all(not d for _, _, d in results), results
    assert sum(hands for _, hands, _ in results) >= 300


@pytest.mark.slow
def test_skat_agrees_with_openspiel_over_thousands_of_hands():
    results = _run(SkatAdapter, [{}, {"dealer": "seat_1", "hands": 36}], 4000, first_seed=7)
    assert all(not d for _, _, d in results), results


@pytest.mark.parametrize("options", [{"scoring": "game_value"}, {"bidding": "reizen"}],
                         ids=["game_value", "reizen"])
def test_skat_lockstep_finds_our_own_rules(options):
    """As test_lockstep_finds_a_rule_set_differently (skat.cc has no parameters): our default
    scoring or bidding against OpenSpiel's disagrees at once."""
    disagreements, _ = lockstep(SkatAdapter(options), 20)
    assert disagreements


# ---------------------------------------------------------------- the loop itself


def _mismatched(adapter, game: str, params: dict):
    adapter.game = pyspiel.load_game(game, params)
    return adapter


# ---------------------------------------------------------------- kuhn poker


class KuhnAdapter(Adapter):
    """rulesets/kuhn_poker.yaml and `kuhn_poker` (kuhn_poker.cc): one hand, our seat s its
    player s; its chance actions are the cards of player 0 then 1 (0 J, 1 Q, 2 K); its
    action 0 is pass (our check or fold), 1 bet (our bet or call); returns: chips won."""
    name = "kuhn_poker"
    players = 2
    hands_per_game = 1

    def __init__(self, options: dict):
        super().__init__(options)
        self.game = pyspiel.load_game("kuhn_poker")

    def deal(self, state):
        os_state = self.game.new_initial_state()
        for seat in range(2):
            os_state.apply_action("JQK".index(self.program.deck.ids[state.zones["hand"][seat][0]]))
        return os_state

    def os_player(self, state, seat):
        return seat

    def action(self, state, label):
        return 0 if label in ("check", "fold") else 1

    def returns(self, state):
        return [float(x) for x in state.pvars["chips"]]


def test_kuhn_poker_agrees_with_openspiel_hand_by_hand():
    disagreements, hands = lockstep(KuhnAdapter({}), 2000)
    assert hands == 2000 and disagreements == []


# ---------------------------------------------------------------- leduc poker


class _Poker(Adapter):
    """What the poker adapters share: fold, check or call, raise as OpenSpiel's 0, 1, 2; a
    random player who folds one time in eight, so that hands reach the showdown."""

    def action(self, state, label):
        return {"fold": 0, "check": 1, "call": 1}.get(label.split()[0], 2)

    def choose(self, rng, options):
        """A fold one time in eight, so that hands reach the showdown; else any other option."""
        if options[0] == "fold" and rng.random() < 0.875:
            return rng.randrange(1, len(options))
        return rng.randrange(len(options))


class LeducAdapter(_Poker):
    """rulesets/leduc_poker.yaml and `leduc_poker` (leduc_poker.cc): one hand, our seat s its
    player s; a card's id is rank * 2 + suit (J, Q, K; ♠ ♥), dealt to player 0, then 1, and the
    board card as a chance action between the rounds; its actions are 0 fold, 1 call (our check
    or call), 2 raise (our bet or raise); returns: chips won."""
    name = "leduc_poker"
    players = 2
    hands_per_game = 1

    def __init__(self, options: dict):
        super().__init__(options)
        self.game = pyspiel.load_game("leduc_poker")

    def card(self, c: int) -> int:
        card_id = self.program.deck.ids[c]
        return "JQK".index(card_id[0]) * 2 + "SH".index(card_id[1])

    def deal(self, state):
        os_state = self.game.new_initial_state()
        for seat in range(2):
            os_state.apply_action(self.card(state.zones["hand"][seat][0]))
        return os_state

    def after(self, state, os_state, label):
        if os_state.is_chance_node() and state.zones["board"]:
            os_state.apply_action(self.card(state.zones["board"][0]))

    def os_player(self, state, seat):
        return seat

    def returns(self, state):
        return [float(x) for x in state.pvars["chips"]]


def test_leduc_poker_agrees_with_openspiel_hand_by_hand():
    disagreements, hands = lockstep(LeducAdapter({}), 2000)
    assert hands == 2000 and disagreements == []


# ---------------------------------------------------------------- hold'em (fixed limit)


class HoldemAdapter(_Poker):
    """rulesets/holdem.yaml and `universal_poker(betting=limit, ...)` (universal_poker.cc over
    the ACPC server's game.c), one OpenSpiel game a hand, 2 to 4 players.  OpenSpiel's player 0
    is the dealer's left, so our seat s is its player (s - dealer - 1) % N: heads-up that is
    the big blind (blind=2 1 with small_bet=2) and our dealer, who posts the small blind, is
    its player 1; with three or four, its players 0 and 1 post the blinds (blind=1 2 0 ...).
    firstPlayer (1-based) is 2 1 1 1 heads-up (the small blind first pre-flop, the big blind
    after) and 3 1 1 1 with more (left of the big blind, then the first still in left of the
    dealer; ACPC skips who has folded, as ours).  raiseSize is the small bet twice, then the
    big bet twice.  maxRaises counts the raises after the blinds, so our cap c is c-1 c c c
    (OpenSpiel's own heads-up limit hold'em, HulhGameString in canonical_game_strings.cc, is
    blind=10 5 ... raiseSize=10 10 20 20, maxRaises=3 4 4 4: our cap=4), and our
    heads_up_cap=yes with two players is no maxRaises at all.  bettingAbstraction is the
    default fcpa: its actions are 0 fold, 1 check or call, 2 bet or raise; ACPC's
    isValidAction refuses a fold when nothing is owed, so fold is never offered with a free
    check, as ours.  Chance actions: the hole cards, both of player 0's first, then player
    1's, ...; then the flop, turn and river as the betting reaches them (ours burn a card
    before each, OpenSpiel does not: only the cards turned up are fed, read from our log).
    Cards: rank * 4 + suit, ranks 2..A, suits ♣ ♦ ♥ ♠, as everywhere here.  Returns: each
    player's chips after the hand minus before.

    ACPC's limit games have no stacks (universal_poker.cc passes `stack` to ACPC under
    nolimit only, and game.c's default is INT32_MAX): nobody is ever all-in there.  So our
    chips are set so that nobody can run short in the game's 20 hands (21 times the most a
    hand can cost, 6 * cap * small_bet: 1008 at 2/4), and all-ins and side pots are compared
    by HoldemSidePotAdapter instead; test_holdem_stacks_differ shows the difference under
    our default 100 chips.  With five players or more OpenSpiel cannot load the limit game at
    all (test_holdem_five_players_can_be_loaded).  One difference is OpenSpiel's quirk and is
    set aside (`set_aside`): a pot split between equal hands is shared out in fractions of a
    chip (ACPC's valueOfState), where ours gives the odd chip to the first winner left of
    the dealer; with "odd_chip" set aside, `returns` gives the hand's winners (the players
    our log says win, of equal hands) the mean of their gains, OpenSpiel's share of the one
    pot that all of them paid the same into (test_holdem_odd_chip_differs)."""
    name = "holdem"
    SUITS, RANKS = "CDHS", "23456789TJQKA"

    def __init__(self, options: dict, players: int = 2, set_aside: tuple = ("odd_chip",)):
        self.players = players
        o = {"small_bet": 2, "cap": 4, "heads_up_cap": "no", **options}
        self.most = 6 * int(o["cap"]) * int(o["small_bet"])             # what one capped hand can cost
        super().__init__({"chips": min(100000, 21 * self.most * (3 if o["heads_up_cap"] == "yes" else 1)),
                          **options})
        self.set_aside = set_aside
        o = self.program.options
        small, cap = int(o["small_bet"]), int(o["cap"])
        params = {"betting": "limit", "numPlayers": players, "numRounds": 4,
                  "blind": (f"{small} {small // 2}" if players == 2
                            else " ".join([str(small // 2), str(small)] + ["0"] * (players - 2))),
                  "firstPlayer": "2 1 1 1" if players == 2 else "3 1 1 1",
                  "raiseSize": f"{small} {small} {2 * small} {2 * small}",
                  "numSuits": 4, "numRanks": 13, "numHoleCards": 2, "numBoardCards": "0 3 1 1"}
        if not (o["heads_up_cap"] == "yes" and players == 2):
            params["maxRaises"] = f"{cap - 1} {cap} {cap} {cap}"
        self.game = pyspiel.load_game("universal_poker", params)

    def card_id(self, c: int) -> int:
        card = self.program.deck.ids[c]
        return self.RANKS.index(card[0]) * 4 + self.SUITS.index(card[1])

    def hand_start(self, state) -> int:
        return max(i for i, e in enumerate(state.log) if e.get("type") == "round")

    def hand_events(self, state) -> list[dict]:
        """The events of the hand being compared (our state may be in the next one already)."""
        events = state.log[self.start + 1:]
        end = next((i for i, e in enumerate(events) if e.get("type") == "round"), len(events))
        return events[:end]

    @staticmethod
    def round_chips(event) -> list[int]:
        return next(v[2] for v in event["values"] if v[:2] == ["player_variables", "chips"])

    def new_state(self, state):
        """OpenSpiel's state for the hand our engine has just dealt (before the hole cards)."""
        assert self.program.options["chips"] < 21 * self.most or min(self.chips) >= self.most, \
            "a stack that can run short: OpenSpiel's limit game has none"
        return self.game.new_initial_state()

    def deal(self, state):
        self.dealer = state.vars["dealer"]
        self.start = self.hand_start(state)
        self.chips = self.round_chips(state.log[self.start])
        n = len(state.out)                  # OpenSpiel's players: ours still in, from the dealer's left
        self.order = [s for s in ((self.dealer + 1 + k) % n for k in range(n)) if not state.out[s]]
        self.os_state = self.new_state(state)
        for seat in self.order:
            for c in state.zones["hand"][seat]:
                self.os_state.apply_action(self.card_id(c))
        self.fed = 0
        return self.os_state

    def os_player(self, state, seat):
        return self.order.index(seat) if seat in self.order else -1

    def after(self, state, os_state, label):
        board = [c for e in self.hand_events(state) if e.get("type") == "move" and e["to"][0] == "board"
                 for c in e["cards"]]
        while os_state.is_chance_node() and self.fed < len(board):
            os_state.apply_action(self.card_id(board[self.fed]))
            self.fed += 1

    def returns(self, state):
        events = self.hand_events(state)
        after = state.log[self.start + 1 + len(events):]
        chips = self.round_chips(after[0]) if after else state.pvars["chips"]
        gain = [chips[s] - self.chips[s] for s in range(len(chips))]
        if "odd_chip" in self.set_aside:
            winners = [s for s in self.order if any(
                e.get("type") == "log" and e["text"].startswith(f"{state.names[s]} wins ") for e in events)]
            if len({state.pvars["best"][w] for w in winners}) == 1:        # one pot, shared
                share = sum(gain[w] for w in winners) / len(winners)
                theirs = self.os_state.returns() if self.os_state.is_terminal() else []
                for s in winners:       # ACPC adds the thirds level by level: equal to 1e-9
                    i = self.order.index(s)
                    gain[s] = theirs[i] if theirs and abs(theirs[i] - share) < 1e-9 else share
        return [float(gain[seat]) for seat in self.order]

class _RaiseToView:
    """OpenSpiel's no-limit state seen as a limit one: its raises to every amount from the
    least to the whole stack are shown as one action, the raise to what our rules raise to
    when that amount is among them (else the least of them, which ours then lacks)."""

    def __init__(self, os_state, adapter):
        self.os_state, self.adapter = os_state, adapter

    def __getattr__(self, name):
        return getattr(self.os_state, name)

    def legal_actions(self):
        legal = self.os_state.legal_actions()
        raises = [a for a in legal if a >= 2]
        to = self.adapter.raise_to
        return [a for a in legal if a < 2] + ([to if to in raises else raises[0]] if raises else [])


class HoldemSidePotAdapter(HoldemAdapter):
    """All-ins and side pots, which universal_poker's limit games cannot have: rulesets/holdem.yaml
    with our own stacks (chips 100, or 30 for many all-ins) and raise_all_in=no against
    `universal_poker(betting=nolimit, bettingAbstraction=fullgame, stack=...)`, 2 to 9
    players, each OpenSpiel player's stack the chips our player starts the hand with (its
    players are ours still in the game, from the dealer's left), blinds, first players and
    maxRaises as HoldemAdapter's.  ACPC applies maxRaises to no-limit games too, and its
    fullgame actions are 0 fold, 1 check or call, N a raise to N chips in all: a raise of
    ours is to the small or big bet above the highest stake, or to all the raiser has, and
    that amount must be among OpenSpiel's raises (_RaiseToView shows OpenSpiel's raises as
    that one).  Our raise sizes are always legal no-limit raises there (each at least the
    last raise), so what is compared is whose turn it is, whether fold, call and a raise are
    offered, when betting stops for all-ins, and the returns: ACPC's valueOfState shares the
    pots out level by level, as ours.  The fractional split of equal hands is set aside as
    in HoldemAdapter; where a split meets an all-in (side pots of several levels) the mean
    is not OpenSpiel's share, and of those hands' returns the winners' total and every
    other player's are compared (the hands counted in `uncompared`).  A game is compared up
    to a hand in which a player has fewer chips than the big blind (ACPC refuses a blind
    above the stack, and our player posts what they have)."""

    def __init__(self, options: dict, players: int = 2, set_aside: tuple = ("odd_chip",)):
        self.players = players
        Adapter.__init__(self, {"chips": 100, **options})
        self.set_aside, self.games, self.uncompared, self.raise_to, self.all_ins = set_aside, {}, 0, None, 0
        o = self.program.options
        self.small, self.cap = int(o["small_bet"]), int(o["cap"])

    def new_game(self, seed):
        self.hands_per_game = 99
        return super().new_game(seed)

    def new_state(self, state):
        stacks = [self.chips[s] for s in self.order]
        n = len(stacks)
        params = {"betting": "nolimit", "bettingAbstraction": "fullgame", "numPlayers": n, "numRounds": 4,
                  "blind": (f"{self.small} {self.small // 2}" if n == 2
                            else " ".join([str(self.small // 2), str(self.small)] + ["0"] * (n - 2))),
                  "firstPlayer": "2 1 1 1" if n == 2 else "3 1 1 1",
                  "numSuits": 4, "numRanks": 13, "numHoleCards": 2, "numBoardCards": "0 3 1 1",
                  "stack": " ".join(map(str, stacks)),
                  "maxRaises": f"{self.cap - 1} {self.cap} {self.cap} {self.cap}"}
        key = tuple(sorted(params.items()))
        if key not in self.games:
            self.games[key] = pyspiel.load_game("universal_poker", params)
        return self.games[key].new_initial_state()

    def deal(self, state):
        view = _RaiseToView(super().deal(state), self)
        self.all_in = any(state.pvars["chips"][s] == 0 for s in self.order)     # a blind took every chip
        return view

    def after(self, state, os_state, label):
        self.all_in |= "(all-in)" in label
        super().after(state, os_state, label)

    def action(self, state, label):
        if label.split()[0] in ("fold", "check", "call"):
            return super().action(state, label)
        seat, v, pv = state.pending[0], state.vars, state.pvars
        step = self.small if v["street"] in ("pre-flop", "flop") else 2 * self.small
        self.raise_to = pv["in_pot"][seat] + min(v["high"] - pv["put"][seat] + step, pv["chips"][seat])
        return self.raise_to

    def returns(self, state):
        if not state.over and any(c + p < self.small for c, p, out in
                                  zip(state.pvars["chips"], state.pvars["in_pot"], state.out) if not out):
            self.hands_per_game = 0          # a stack below the big blind next hand: the game ends here
        texts = [e["text"] for e in self.hand_events(state) if e.get("type") == "log"]
        best = [state.pvars["best"][s] for s in self.order if any(t.startswith(f"{state.names[s]} shows ") for t in texts)]
        self.all_ins += self.all_in
        if "odd_chip" in self.set_aside and len(set(best)) < len(best) and self.all_in:
            # equal hands and side pots: the winners' total and each other player's return compared
            self.uncompared += 1
            ours, theirs = HoldemAdapter.returns(self, state), list(self.os_state.returns())
            won = [i for i, s in enumerate(self.order) if any(t.startswith(f"{state.names[s]} wins ") for t in texts)]
            if abs(sum(ours[i] for i in won) - sum(theirs[i] for i in won)) < 1e-9:
                for i in won:
                    ours[i] = theirs[i]
            return ours
        return super().returns(state)


HOLDEM_OPTIONS = [{}, {"small_bet": 10}, {"cap": 3}, {"cap": 5, "small_bet": 4}]


def _holdem(players, **kwargs):
    return lambda options: HoldemAdapter(options, players=players, **kwargs)


def test_holdem_agrees_with_openspiel_hand_by_hand():
    results = _run(_holdem(2), HOLDEM_OPTIONS + [{"heads_up_cap": "yes"}], 500)
    for k, players in enumerate((3, 4)):
        results += _run(_holdem(players), HOLDEM_OPTIONS[:2], 100, first_seed=1000 * (k + 1))
    assert all(not d and hands for _, hands, d in results), results


def _side_pots(players, options=None):
    adapter = HoldemSidePotAdapter({"raise_all_in": "no", "chips": 30, **(options or {})}, players=players)
    return adapter, lockstep(adapter, 300, first_seed=100 * players)


@pytest.mark.parametrize("players", [2, 3, 5, 9])
def test_holdem_side_pots_agree_with_openspiel_no_limit(players):
    """HoldemSidePotAdapter: 30 chips each (all-ins in one hand of ten or so), side pots,
    against universal_poker's no-limit game with the stacks, maxRaises and our raise sizes;
    raise_all_in=no is ACPC's rule."""
    adapter, (disagreements, hands) = _side_pots(players)
    assert disagreements == [] and hands == 300, disagreements[:1]
    assert adapter.all_ins > 10


def test_holdem_raise_all_in_no_is_acpc_rule():
    """ACPC (raiseIsValid: 'last remaining player can't bet if there's no one left to call')
    offers no raise to a player whom everybody else still in has called all-in: our
    raise_all_in=no.  Under our default the lockstep finds the difference."""
    _, (disagreements, _) = _side_pots(4, {"raise_all_in": "yes"})
    assert disagreements and "legal" in disagreements[0][3], disagreements[:1]


@pytest.mark.slow
def test_holdem_side_pots_agree_over_thousands_of_hands():
    for players in range(2, 10):
        for chips in (30, 100):
            adapter = HoldemSidePotAdapter({"raise_all_in": "no", "chips": chips}, players=players)
            disagreements, hands = lockstep(adapter, 500, first_seed=7 + 100000 * players)
            assert disagreements == [], (players, chips, disagreements[:1])


@pytest.mark.slow
def test_holdem_agrees_with_openspiel_over_thousands_of_hands():
    results = _run(_holdem(2), HOLDEM_OPTIONS + [{"heads_up_cap": "yes"}], 2500, first_seed=7)
    for k, players in enumerate((3, 4)):
        results += _run(_holdem(players), HOLDEM_OPTIONS, 1000, first_seed=7 + 100000 * (k + 1))
    assert all(not d and hands for _, hands, d in results), results


@pytest.mark.xfail(strict=True, reason="holdem: universal_poker (ACPC valueOfState) splits a pot between equal "
                   "hands in fractions of a chip, where chips are whole and ours gives the odd chip to the first "
                   "winner left of the dealer; an expected value, no rule of the game, and we give it no option")
def test_holdem_odd_chip_differs():
    disagreements, _ = lockstep(HoldemAdapter({}, players=4, set_aside=()), 200)
    assert disagreements == [], disagreements[:1]


@pytest.mark.xfail(strict=True, reason="holdem: universal_poker's limit games have no stacks (universal_poker.cc "
                   "passes `stack` to ACPC under nolimit only): nobody is ever all-in, a player short of a call or "
                   "raise still makes it, and there are no side pots; ours plays the chips each player has")
def test_holdem_stacks_differ():
    disagreements, _ = lockstep(HoldemAdapter({"chips": 100}, players=3), 300)
    assert disagreements == [], disagreements[:1]


@pytest.mark.xfail(strict=True, reason="holdem: universal_poker cannot load a limit game of more than 4 players: "
                   "ACPC's readGame gives default stacks to MAX_ROUNDS (4) players, not MAX_PLAYERS, and refuses "
                   "the game ('only read 4 stack sizes, need 5'), which OpenSpiel does not check (a crash)")
def test_holdem_five_players_can_be_loaded():
    import subprocess
    import sys
    params = {**HoldemAdapter({}, players=4).game.get_parameters(), "numPlayers": 5,
              "blind": "1 2 0 0 0"}
    code = f"import pyspiel; pyspiel.load_game('universal_poker', {params!r})"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


@pytest.mark.parametrize("options, params", [({}, {"maxRaises": "2 3 3 3"}), ({"cap": 3}, {"maxRaises": "3 4 4 4"}),
                                             ({}, {"raiseSize": "2 2 2 2"})],
                         ids=["cap", "cap_3", "big_bet"])
def test_holdem_lockstep_finds_a_rule_set_differently(options, params):
    """As test_lockstep_finds_a_rule_set_differently: OpenSpiel's game with another cap or bet size."""
    adapter = HoldemAdapter(options)
    disagreements, _ = lockstep(_mismatched(adapter, "universal_poker", {**adapter.game.get_parameters(), **params}), 60)
    assert disagreements


def test_holdem_heads_up_cap_needs_two_players():
    """Our heads_up_cap=yes lifts the cap when two are left in the hand; ACPC's maxRaises is a
    number a round, so with three or more players it has no counterpart (above: two players,
    no maxRaises), and the lockstep finds it."""
    disagreements, _ = lockstep(HoldemAdapter({"heads_up_cap": "yes"}, players=3), 300)
    assert disagreements and "legal" in disagreements[0][3]


@pytest.mark.parametrize("adapter", [
    lambda: _mismatched(HeartsAdapter({}), "hearts", {"qs_breaks_hearts": True}),
    lambda: _mismatched(OhHellAdapter({"scoring": "trick_each_plus_bonus"}), "oh_hell", {"players": 4, "off_bid_penalty": True}),
    lambda: _mismatched(EuchreAdapter({}), "euchre", {"stick_the_dealer": True}),
    lambda: _mismatched(SpadesAdapter({}), "spades", {"use_mercy_rule": False, "win_threshold": 50}),
], ids=["hearts", "oh_hell", "euchre", "spades"])
def test_lockstep_finds_a_rule_set_differently(adapter):
    """The loop is not blind: OpenSpiel loaded with one parameter that our options do not
    match disagrees within a few dozen hands."""
    disagreements, _ = lockstep(adapter(), 40)
    assert disagreements


# ---------------------------------------------------------------- blackjack


BLACKJACK_OPTIONS = {"decks": 1, "reshuffle_at": 5, "rounds": 3, "insurance": "none", "surrender": "none",
                     "max_bet": 1, "hole_card": "peek", "soft17": "stand", "twenty_one": "may_hit"}


def blackjack_lockstep(deals: int, first_seed: int = 0, stand_on_21: bool = False, options: dict | None = None):
    """rulesets/blackjack.yaml (one player, BLACKJACK_OPTIONS) and `blackjack` (blackjack.cc),
    one OpenSpiel game a deal.  OpenSpiel's blackjack is hit or stand only, one deck, paid
    1 to 1: a two-card 21 is no blackjack there (its player still chooses to hit or stand)
    and the dealer has no peek, while ours settles a blackjack at once; and our double down
    and split cannot be switched off.  So deals with a blackjack (the player's, or the
    dealer's found by the peek) are left out (counted), and our 'double down' and 'split'
    options are set aside (neither compared nor chosen).  OpenSpiel lets a hand of 21 hit:
    that is our twenty_one=may_hit (C15), in BLACKJACK_OPTIONS; under our default, a hand
    that reaches 21 stands by itself, and `stand_on_21` makes OpenSpiel's stand for it there
    (test_blackjack_hit_on_21_is_our_twenty_one_may_hit).  The rest is compared: whose turn,
    hit and stand, when the player's turn ends (a bust), the dealer's drawing (stands on every
    17), and the deal's result (our bankroll's change with a 1-chip bet, OpenSpiel's return).
    Cards: suit * 13 + rank, suits ♣ ♦ ♥ ♠, ranks A 2 .. K; OpenSpiel deals the player's two
    cards, then the dealer's hole card and up card, then the draws; ours are fed to it so.
    Three deals a game from one deck, reshuffled only below 5%: no card comes twice."""
    program = load_program(ruleset("blackjack"), {**BLACKJACK_OPTIONS, **(options or {})})
    game = pyspiel.load_game("blackjack")
    deck = program.deck.display
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

    def os_card(c):
        return SUITS.index(deck[c][-1]) * 13 + ranks.index(deck[c][:-1])

    disagreements, played, naturals, seed = [], 0, 0, first_seed
    while played + naturals < deals:
        rng, state = random.Random(seed), new_game(program, seed=seed, players=1)
        why = None
        while not state.over and why is None and played + naturals < deals:
            assert labels(program, state) == ["bet 1"]
            before, deal_no = state.pvars["bankroll"][0], state.vars["deal_no"]
            apply(program, state, 0)
            if state.over or state.vars["deal_no"] != deal_no:
                naturals += 1                  # a blackjack settled at once: no decision
                continue
            hand = list(state.zones["hand"][0])
            os_state = game.new_initial_state()
            for c in hand + list(state.zones["hole"]) + list(state.zones["dealer"]):
                os_state.apply_action(os_card(c))
            n = 0
            while why is None:
                if not state.over and state.vars["deal_no"] == deal_no:          # our player decides
                    options = labels(program, state)
                    allowed = [j for j, o in enumerate(options) if o in ("hit", "stand")]
                    if os_state.current_player() != 0:
                        why = f"we decide {options}, OpenSpiel's player {os_state.current_player()}"
                    elif sorted(options[j] for j in allowed) != ["hit", "stand"] or os_state.legal_actions() != [0, 1]:
                        why = f"legal {options}, OpenSpiel {os_state.legal_actions()}"
                    if why:
                        break
                    i = rng.choice(allowed)
                    hit = options[i] == "hit"
                    apply(program, state, i)
                    os_state.apply_action(0 if hit else 1)
                    n += 1
                    if hit and not state.over and state.vars["deal_no"] == deal_no:
                        hand = list(state.zones["hand"][0])
                        os_state.apply_action(os_card(hand[-1]))
                    elif hit:
                        hand.append(None)          # the card that ended the turn: read below
                    continue
                # the deal is over in our engine: its cards are the last in the discards, the
                # player's hand then the dealer's (up card, hole card, draws), each zone reversed
                tray = state.zones["discards"]
                first = tray.index(hand[0])
                mine = list(reversed(tray[first - len(hand) + 1:first + 1]))
                theirs = list(reversed(tray[first + 1:]))
                if hand[-1] is None:               # the hit that ended our player's turn
                    os_state.apply_action(os_card(mine[-1]))
                    if stand_on_21 and os_state.current_player() == 0:
                        os_state.apply_action(1)   # at 21 ours stands by itself, OpenSpiel asks
                drawn = theirs[2:]
                while drawn and os_state.is_chance_node():
                    os_state.apply_action(os_card(drawn.pop(0)))
                ours = float(state.pvars["bankroll"][0] - before)
                if not os_state.is_terminal():
                    why = "our deal is over, not OpenSpiel's"
                elif drawn:
                    why = f"our dealer draws {[deck[c] for c in drawn]} more than OpenSpiel's"
                elif [ours] != list(os_state.returns()):
                    why = f"result {ours}, OpenSpiel {os_state.returns()}"
                played += 1
                break
            if why:
                disagreements.append((seed, state.vars["deal_no"], n, why))
        seed += 1
    return disagreements, played, naturals


def test_blackjack_agrees_with_openspiel_deal_by_deal():
    disagreements, played, naturals = blackjack_lockstep(300)
    assert disagreements == [], disagreements[:1]
    assert played > 200, (played, naturals)


def test_blackjack_hit_on_21_is_our_twenty_one_may_hit():
    """OpenSpiel offers a hit on 21 (blackjack.cc LegalActions is always hit and stand): our
    twenty_one=may_hit, which the lockstep above plays.  Under our default (a hand of 21 stands
    by itself) the lockstep finds the difference, unless it makes OpenSpiel's stand for it."""
    disagreements, played, _ = blackjack_lockstep(300)
    assert disagreements == [] and played > 200
    disagreements, _, _ = blackjack_lockstep(300, options={"twenty_one": "stands"})
    assert disagreements and "our deal is over, not OpenSpiel's" in disagreements[0][3], disagreements[:1]
    disagreements, _, _ = blackjack_lockstep(300, stand_on_21=True, options={"twenty_one": "stands"})
    assert disagreements == [], disagreements[:1]


@pytest.mark.slow
def test_blackjack_agrees_with_openspiel_over_thousands_of_deals():
    disagreements, played, naturals = blackjack_lockstep(5000, first_seed=7)
    assert disagreements == [], disagreements[:1]


def test_blackjack_lockstep_finds_a_dealer_who_hits_soft_17(monkeypatch):
    """As test_lockstep_finds_a_rule_set_differently: our soft17=hit against OpenSpiel's
    dealer, who stands on every 17."""
    monkeypatch.setitem(BLACKJACK_OPTIONS, "soft17", "hit")
    disagreements, _, _ = blackjack_lockstep(600)
    assert disagreements


# ---------------------------------------------------------------- crazy_eights


class CrazyEightsAdapter(Adapter):
    """rulesets/crazy_eights.yaml (may_draw_anyway=keep_drawing, draw_rule=up_to_limit,
    draw_limit=5, the other options their defaults) and `crazy_eights(players=N)`
    (crazy_eights.cc, its defaults: max_draw_cards=5, no special cards, no reshuffle), one
    hand, 2 to 5 players (OpenSpiel plays two decks above five).  Our seat s is its player s
    (both play to the left, +1); its first chance action is the dealer (52 + seat), then the
    dealt cards, one at a time from the dealer's left, then the card turned up (an eight turned
    up goes back into its deck and another comes: the one ours kept is fed).  Its actions: a
    card (rank * 4 + suit, ranks 2..A), 52 draw (then a chance action, the card drawn), 53
    pass, 54 + suit the suit named with an eight.  Our engine draws and passes by itself
    where no choice is left (no card to play); OpenSpiel makes a decision of it with one legal
    action (draw, or pass): `after` makes those for it, feeding the cards our engine drew
    (its moves from the stock, read from the state's events) in the order drawn.

    Returns: OpenSpiel's, each player minus the points left in their hand, with its card
    values: an eight 50, a J, Q, K or A 10, any other card its id + 2 (crazy_eights.cc
    ScoreUp), OpenSpiel's bug, where rank + 2 (the card's number) is meant, so that a 2♠
    costs 5 and a 10♠ 37.  `returns` reads them off our final hands so; ours score the
    winner the others' points (an ace 1) and are not compared (test_crazy_eights_card_values_differ
    shows the difference)."""
    name = "crazy_eights"
    hands_per_game = 1

    def __init__(self, options: dict, players: int = 4, openspiel_values: bool = True):
        super().__init__({"may_draw_anyway": "keep_drawing", "draw_rule": "up_to_limit", "draw_limit": 5, **options})
        self.players = players
        self.openspiel_values = openspiel_values
        self.game = pyspiel.load_game("crazy_eights", {"players": players})

    def hand_key(self, state):
        return ()

    def os_player(self, state, seat):
        return seat

    def drawn(self, state, since: int) -> list[int]:
        """The cards moved from the stock to a hand in the events from `since` on, in order."""
        return [c for e in state.log[since:] if e.get("type") == "move" and e["from"][0] == "stock"
                and e["to"][0] == "hand" for c in e["cards"]]

    def deal(self, state):
        os_state = self.game.new_initial_state()
        dealer = state.vars["dealer"]
        os_state.apply_action(52 + dealer)
        turned = next(i for i, e in enumerate(state.log) if e.get("type") == "move" and e["to"][0] == "discard")
        dealt = [[] for _ in range(self.players)]
        for e in state.log[:turned]:
            if e.get("type") == "move" and e["to"][0] == "hand":
                dealt[e["to"][1]] += e["cards"]
        deck = self.program.deck.display
        first = (dealer + 1) % self.players                     # the dealer's left
        size = len(dealt[0])
        for k in range(self.players * size):
            os_state.apply_action(self.card_id(deck[dealt[(first + k) % self.players][k // self.players]]))
        os_state.apply_action(self.card_id(deck[state.zones["discard"][0]]))
        self.queue, self.seen = self.drawn(state, turned), len(state.log)
        self.sync(state, os_state)
        return os_state

    def sync(self, state, os_state):
        """OpenSpiel's draws and passes that our engine made by itself, up to its next decision."""
        deck = self.program.deck.display
        while not os_state.is_terminal():
            if os_state.is_chance_node():
                if not self.queue:
                    return
                os_state.apply_action(self.card_id(deck[self.queue.pop(0)]))
            elif os_state.legal_actions() in ([52], [53]):
                os_state.apply_action(os_state.legal_actions()[0])
            else:
                return

    def after(self, state, os_state, label):
        self.queue += self.drawn(state, self.seen)
        self.seen = len(state.log)
        self.sync(state, os_state)

    def action(self, state, label):
        words = label.split()
        if label.startswith("draw"):
            return 52
        if label == "pass":
            return 53
        if words[0] == "name":
            return 54 + ["clubs", "diamonds", "hearts", "spades"].index(words[1])
        return self.card_id(words[1])

    def points(self, display: str) -> int:
        rank = display[:-1]
        if rank == "8":
            return 50
        if not self.openspiel_values:
            return {"A": 1, "J": 10, "Q": 10, "K": 10}.get(rank) or int(rank)
        return 10 if rank in ("J", "Q", "K", "A") else card_id(display) + 2

    def returns(self, state):
        deck = self.program.deck.display
        return [-float(sum(self.points(deck[c]) for c in state.zones["hand"][seat])) for seat in range(self.players)]


def _crazy_eights(players):
    return lambda options: CrazyEightsAdapter(options, players=players)


CRAZY_EIGHTS_PLAYERS = [2, 3, 4, 5]


def test_crazy_eights_agrees_with_openspiel_hand_by_hand():
    results = []
    for k, players in enumerate(CRAZY_EIGHTS_PLAYERS):
        results += _run(_crazy_eights(players), [{}, {"dealer": "seat_1"}], 100, first_seed=1000 * k)
    assert all(not d for _, _, d in results), results


@pytest.mark.slow
def test_crazy_eights_agrees_with_openspiel_over_thousands_of_hands():
    results = []
    for k, players in enumerate(CRAZY_EIGHTS_PLAYERS):
        results += _run(_crazy_eights(players), [{}], 1000, first_seed=7 + 100000 * k)
    assert all(not d for _, _, d in results), results


@pytest.mark.xfail(strict=True, reason="crazy_eights: OpenSpiel's ScoreUp counts a card 2..10 as its id + 2 "
                   "(rank * 4 + suit + 2) where its number is meant, a bug (a 2♠ costs 5, a 10♠ 37), and an ace 10; "
                   "our points are the usual ones (an ace 1, a card its number), and we give the bug no option")
def test_crazy_eights_card_values_differ():
    disagreements, _ = lockstep(CrazyEightsAdapter({}, openspiel_values=False), 50)
    assert disagreements == [], disagreements[:1]


@pytest.mark.parametrize("options", [{"draw_rule": "until_playable"}, {"may_draw_anyway": "must_play"},
                                     {"draw_limit": 3}])
def test_crazy_eights_lockstep_finds_another_drawing_rule(options):
    """As test_lockstep_finds_a_rule_set_differently: our other drawing rules against OpenSpiel's."""
    disagreements, _ = lockstep(CrazyEightsAdapter(options), 40)
    assert disagreements


# --- goofspiel: a simultaneous game, our choice made together -----------------------------
def goofspiel_lockstep(players: int, cards: int, games: int, first_seed: int = 0, options: dict | None = None):
    """rulesets/goofspiel.yaml and `goofspiel` (goofspiel.cc, its default points_order=random,
    returns_type=win_loss), one game each.  OpenSpiel's bids are one simultaneous node: ours
    are a choice made together, every seat in order, none seeing the others' bids; the joint
    action is given to OpenSpiel once all have chosen.  Our prize, turned up from our shuffled
    prizes, is OpenSpiel's chance outcome (its value - 1).  OpenSpiel plays the last prize by
    itself (one card each is left): ours are then forced decisions of one option.  At every
    bid the legal set (card value - 1) must agree; at the end, each player's points and the
    winners (the players OpenSpiel's returns rank first).  The list of what differed."""
    program = load_program(ruleset("goofspiel"), {"cards": str(cards), **(options or {})})
    game = pyspiel.load_game("goofspiel", {"players": players, "num_cards": cards})
    value = program.deck.attrs["value"]
    differed = []
    for seed in range(first_seed, first_seed + games):
        rng = random.Random(seed)
        state, os_state = new_game(program, seed=seed, players=players), game.new_initial_state()
        why = None
        while not state.over and why is None:
            if os_state.is_terminal():              # the last prize: OpenSpiel's is played already
                if len(state.pending[1]) != 1:
                    why = "OpenSpiel's game is over, ours offers a choice"
                apply(program, state, 0)
                continue
            if os_state.is_chance_node():
                prize = [value[1][c] if isinstance(value, tuple) else value[c] for c in state.zones["prize"]]
                if len(prize) != 1:
                    why = f"the prize is {len(prize)} cards, OpenSpiel's one"
                    break
                os_state.apply_action(prize[0] - 1)
            bids = []
            for p in range(players):
                seat, options = state.pending[0], labels(program, state)
                ours = sorted(_bid_value(program, label) - 1 for label in options)
                if seat != p or ours != sorted(os_state.legal_actions(p)):
                    why = f"seat {seat} offers {ours}, OpenSpiel's player {p} {sorted(os_state.legal_actions(p))}"
                    break
                k = rng.randrange(len(options))
                bids.append(_bid_value(program, options[k]) - 1)
                apply(program, state, k)
            if why is None:
                try:
                    os_state.apply_actions(bids)
                except pyspiel.SpielError as e:
                    why = f"OpenSpiel refuses the bids {bids}: {e}"
        if why is None:
            points = [int(x) for x in str(os_state).split("Points:")[1].split()]
            returns = os_state.returns()
            best = [p for p in range(players) if returns[p] == max(returns)]
            if points != state.pvars["points"]:
                why = f"points {state.pvars['points']}, OpenSpiel {points}"
            elif sorted(state.result["winners"]) != best and not (len(best) == players and returns[0] == 0):
                why = f"winners {state.result['winners']}, OpenSpiel's returns {returns}"
            elif len(state.result["winners"]) == players and any(returns):
                why = f"a draw, OpenSpiel's returns {returns}"
        if why is not None:
            differed.append((seed, why))
    return differed


def _bid_value(program, label: str) -> int:
    """'bid 10♣' -> 10."""
    rank = label.split()[1][:-1]
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank) or int(rank)


@pytest.mark.parametrize("players, cards, games", [(2, 13, 300), (2, 4, 300), (3, 6, 200)])
def test_goofspiel_agrees_with_openspiel_bid_by_bid(players, cards, games):
    assert goofspiel_lockstep(players, cards, games) == []


@pytest.mark.slow
def test_goofspiel_agrees_with_openspiel_over_thousands_of_games():
    assert goofspiel_lockstep(2, 13, 3000, first_seed=1000) == []
    assert goofspiel_lockstep(3, 13, 1000, first_seed=1000) == []


def test_goofspiel_lockstep_finds_a_prize_carried_over():
    """Under tie=carried a tied prize goes with the next: OpenSpiel sets it aside."""
    assert goofspiel_lockstep(2, 4, 100, options={"tie": "carried"}) != []


# ---------------------------------------------------------------- go_fish


class GoFishAdapter(Adapter):
    """rulesets/go_fish.yaml (hand_size=pagat unless said) and `go_fish(players=N, ...)`
    (go_fish.cc), one game each, 2 to 6 players (OpenSpiel allows 10, we 6).  OpenSpiel's player 0
    asks first, our dealer's left: our seat s is its player (s - dealer - 1) % N.  Only ranks
    count there: a card is its rank, A 2 .. K = 0..12, and every chance action is a rank: the
    deal, player 0's cards, then player 1's ..., and every card drawn from the pool, whether
    fishing or by a player with no cards (its EmptyDraw); `after` feeds it the ranks of our
    engine's moves from the stock, in the order drawn.  An ask is target * 13 + rank.

    Its parameters are conventions, and ours give them: initial_cards=-1 (7 each to two
    players, 5 to more) is our hand_size=pagat (7 and 5: seven and five); ask_after_empty_draw
    (true: our empty_hand=draw_one, false: draw_and_pass); end_on_first_out (false: our
    game_end=all_books, true: first_out, the game ends as soon as a player lays down a book and
    holds no card); most_books_wins (true: our winner=most_books, false: first_out, the player
    who went out).  The rest is the same rule on both sides: a player asks another who holds
    cards for a rank they hold, gets every card of it and asks again; a miss draws from the pool
    (none left: the turn passes), and the rank asked for asks again (our lucky_draw=again); a
    book of four is laid at once; a player with no cards draws one (none left: skipped), and a
    player who holds cards while nobody else does passes.  Returns: the winners (our result's)
    share +1, the others -1 (an all-way tie 0).

    OpenSpiel's bugs, set aside (`set_aside`) and shown by strict xfail tests: a player dealt a
    book (its deal counts the hand after books, `while (pc == initial_cards_)`) is dealt more
    cards until holding initial_cards, except the last player when the book is their last card:
    `new_game` skips our deals with a book in them (about 1 in 300 with seven cards, counted in
    `dealt_books`); and with most_books_wins=false and end_on_first_out=false nobody has gone
    out when the game ends, and every player's return is -1/(N-1), where ours give the win to the
    first player who went out."""
    name = "go_fish"
    hands_per_game = 1
    RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    PLURALS = {"aces": "A", "jacks": "J", "queens": "Q", "kings": "K"}

    def __init__(self, options: dict, players: int = 2, set_aside: tuple = ("dealt_book",)):
        self.players = players
        super().__init__({"hand_size": "pagat", **options})
        o = self.program.options
        assert o["ask_empty"] == "no" and o["lucky_draw"] == "again"
        assert o["empty_hand"] in ("draw_one", "draw_and_pass") and o["game_end"] in ("all_books", "first_out")
        size = {"seven": 7, "five": 5, "standard": 7 if players <= 3 else 5}.get(o["hand_size"], -1)
        self.params = {"players": players, "initial_cards": size,
                       "ask_after_empty_draw": o["empty_hand"] == "draw_one",
                       "end_on_first_out": o["game_end"] == "first_out",
                       "most_books_wins": o["winner"] == "most_books"}
        self.game = pyspiel.load_game("go_fish", self.params)
        self.set_aside = set_aside
        self.dealt_books = 0

    def new_game(self, seed):
        state = super().new_game(seed)
        while "dealt_book" in self.set_aside and any(state.zones["books"]):
            self.dealt_books += 1
            seed += 1_000_003
            state = super().new_game(seed)
        return state

    def hand_key(self, state):
        return ()

    def os_player(self, state, seat):
        return (seat - state.vars["dealer"] - 1) % self.players

    def rank(self, c: int) -> int:
        return self.RANKS.index(self.program.deck.display[c][:-1])

    def deal(self, state):
        os_state = self.game.new_initial_state()
        seats = sorted(range(self.players), key=lambda s: self.os_player(state, s))
        for seat in seats:                          # a book dealt first, so that OpenSpiel sees it early
            for c in list(state.zones["books"][seat]) + list(state.zones["hand"][seat]):
                os_state.apply_action(self.rank(c))
        self.seen = len(state.log)
        return os_state

    def after(self, state, os_state, label):
        drawn = [c for e in state.log[self.seen:] if e.get("type") == "move" and e["from"][0] == "stock"
                 for c in e["cards"]]
        self.seen = len(state.log)
        while drawn and os_state.is_chance_node():
            os_state.apply_action(self.rank(drawn.pop(0)))
        self.unfed = drawn

    def check(self, state, os_state):
        if self.unfed:
            return f"our engine drew {len(self.unfed)} cards more than OpenSpiel"
        if os_state.is_chance_node():
            return "OpenSpiel draws a card, our engine none"
        return None

    def action(self, state, label):
        who, rank = label.removeprefix("ask ").split(" for ")
        seat = int(who.split()[-1]) - 1
        rank = self.PLURALS.get(rank) or rank[:-1]
        return self.os_player(state, seat) * 13 + self.RANKS.index(rank)

    def returns(self, state):
        winners = [self.os_player(state, s) for s in state.result["winners"]]
        n, w = self.players, len(winners)
        if w == n:
            return [0.0] * n
        return [1.0 / w if p in winners else -1.0 / (n - w) for p in range(n)]


GO_FISH_SETTINGS = [          # (players, options): OpenSpiel's defaults first
    (2, {}),
    (2, {"empty_hand": "draw_and_pass"}),
    (2, {"game_end": "first_out", "winner": "first_out", "dealer": "seat_1"}),
    (3, {}),
    (3, {"game_end": "first_out", "empty_hand": "draw_and_pass"}),
    (4, {"hand_size": "standard"}),
    (5, {"winner": "first_out", "game_end": "first_out"}),
    (6, {"hand_size": "seven", "empty_hand": "draw_and_pass"}),
]


def _go_fish(settings, deals, first_seed=0):
    results = []
    for k, (players, options) in enumerate(settings):
        results += _run(lambda o: GoFishAdapter(o, players=players), [options], deals, first_seed=first_seed + 1000 * k)
    return results


def test_go_fish_agrees_with_openspiel_move_by_move():
    results = _go_fish(GO_FISH_SETTINGS, 40)
    assert all(not d for _, _, d in results), results
    assert sum(hands for _, hands, _ in results) == 40 * len(GO_FISH_SETTINGS)


@pytest.mark.slow
def test_go_fish_agrees_with_openspiel_over_thousands_of_games():
    results = _go_fish(GO_FISH_SETTINGS, 250, first_seed=7)
    assert all(not d for _, _, d in results), results


@pytest.mark.parametrize("options", [{"hand_size": "standard"}, {"lucky_draw": "ends_turn"}, {"ask_empty": "yes"},
                                     {"game_end": "first_empty"}, {"empty_hand": "draw_hand"}],
                         ids=["standard", "ends_turn", "ask_empty", "first_empty", "draw_hand"])
def test_go_fish_lockstep_finds_our_other_conventions(options):
    """As test_lockstep_finds_a_rule_set_differently: OpenSpiel at its defaults (three players)
    against our conventions that it does not have, or not at these parameters."""
    adapter = GoFishAdapter({}, players=3)
    adapter.program = load_program(ruleset("go_fish"), {"hand_size": "pagat", **options})
    disagreements, _ = lockstep(adapter, 20)
    assert disagreements


def _seed_with_a_dealt_book(adapter, players):
    return next(seed for seed in range(10000) if any(adapter.new_game(seed).zones["books"]))


@pytest.mark.xfail(strict=True, reason="go_fish: OpenSpiel's deal counts a player's hand after the books laid "
                   "(`while (pc == initial_cards_)` in DoApplyAction), so a player dealt a book of four is dealt "
                   "more cards until holding initial_cards, but the last player not when the book is their last "
                   "card; a book dealt is laid down and the hand is smaller, and we give the bug no option")
def test_go_fish_book_dealt_differs():
    adapter = GoFishAdapter({}, players=2, set_aside=())
    seed = _seed_with_a_dealt_book(adapter, 2)
    disagreements, _ = lockstep(adapter, 1, first_seed=seed)
    assert disagreements == [], disagreements[:1]


@pytest.mark.xfail(strict=True, reason="go_fish: with most_books_wins=false and end_on_first_out=false "
                   "OpenSpiel's Returns give every player -1/(N-1) (first_out_ is set only when the game ends on "
                   "a player going out), not zero-sum though its UtilitySum is 0; ours, winner=first_out, give "
                   "the win to the first player who went out, and we give the bug no option")
def test_go_fish_first_out_winner_without_ending_differs():
    disagreements, _ = lockstep(GoFishAdapter({"winner": "first_out"}), 20)
    assert disagreements == [], disagreements[:1]


# ---------------------------------------------------------------- cribbage


class CribbageAdapter(Adapter):
    """rulesets/cribbage.yaml (dealer=seat_1, lay_away=together, crib_flush=four_too,
    target_score=1000: see below) and `cribbage(players=N, winner_bonus_reward=1000)`
    (cribbage.cc), 2 to 4 players, one OpenSpiel game a whole game of ours: OpenSpiel plays
    hand after hand to 121.  Its player 0 deals first and the deal goes to the left: our seat
    s is its player (s - first dealer) % N.  Its chance actions are each hand's cards (six to
    player 0, then six to player 1; with three or four players five each, and with three one
    more for the crib) and, once all have laid away, the starter; ours are fed to it (`sync`).
    Cards: suit * 13 + rank, suits ♣ ♦ ♥ ♠, ranks A 2 .. K; laying away two cards is one
    action, 52 + 52 * a + b, a before b by rank then suit (one card: the card's id); 2756
    passes.  Our engine says go by itself where a player cannot play; OpenSpiel asks for a
    pass, the only legal action: `sync` makes it.  After every decision the scores must be
    OpenSpiel's (`check`; at four, partners' alike); at the end, its returns: the points plus
    the bonus to the winner (at four, half to each partner), the bonus taken from the losers
    in equal shares.

    Conventions, our options: OpenSpiel asks player 0, then 1 (2, 3), to lay away, whoever
    deals; the cards go face down, so that is our lay_away=together (C4), asking Player 1
    first (with dealer=seat_1, OpenSpiel's player 0).  Its crib counts a flush of four like a
    hand (ScoreCrib calls the hand's ScoreHand): our crib_flush=four_too (C2).

    Not a rule but how OpenSpiel ends: its game is over after the action in which a player
    reaches 121 (IsTerminal), the points of that action all counted (a fifteen and a pair
    with one card, the whole show with the pass that ends the play) and never capped; ours
    ends at the peg that reaches the target, the score set to it (R16).  So ours plays on to
    target_score=1000 and the adapter says 121 itself: the lockstep ends when a score reaches
    121 (`hand_key`), the winner is the first of ours to reach 121, and the points are ours
    up to the end of OpenSpiel's action, read from our pegs in order (`after`; a card played,
    a deal, the go, the last card and his heels begin a new action of OpenSpiel's).
    CribbageAt121Adapter plays our default target instead: the same game until then, and the
    same winner.

    OpenSpiel's bug, set aside: DetermineWinner gives the game to the lowest-numbered player
    with 121, so when two pass 121 in one show (or a 31 with the last card and the show),
    player 0 wins even where another counted first (the hands are counted from the dealer's
    left, the dealer's hand and crib last, R11, R16).  With "winner_by_index" set aside the
    adapter gives the bonus as OpenSpiel does in those games (counted in `index_wins`);
    test_cribbage_winner_by_index_differs shows the difference."""
    name = "cribbage"
    hands_per_game = 1
    RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    PASS = 2756
    GAME = 121
    ONE = ("the go", "the last card", "his heels")    # pegs of an OpenSpiel action of their own

    def __init__(self, options: dict, set_aside: tuple = ("winner_by_index",), bonus: float = 1000.0,
                 players: int = 2):
        self.players = players
        super().__init__({"dealer": "seat_1", "lay_away": "together", "crib_flush": "four_too",
                          "target_score": 1000, **options})
        self.set_aside = set_aside
        self.bonus = bonus
        self.index_wins = 0
        self.game = pyspiel.load_game("cribbage", {"players": players, "winner_bonus_reward": bonus})

    def card_id(self, display):
        return SUITS.index(display[-1]) * 13 + self.RANKS.index(display[:-1])

    def hand_key(self, state):
        return (max(state.pvars["score"]) >= self.GAME,)

    def os_player(self, state, seat):
        return (seat - self.first) % self.players

    def side(self, p: int) -> int:
        """Who wins with OpenSpiel's player p: at four, its partnership (p % 2)."""
        return p % 2 if self.players == 4 else p

    def deal(self, state):
        self.first = state.vars["dealer"]
        self.deals = self.starters = self.seen = 0
        self.reached = None                 # our seat that reached 121 first
        self.open_ = None                   # True in OpenSpiel's action that reached 121, False after it
        self.points = [0] * self.players    # our points, up to the end of that action
        os_state = self.game.new_initial_state()
        self.sync(state, os_state)
        return os_state

    def sync(self, state, os_state):
        """OpenSpiel's chance actions (a deal, the starter) and forced passes, up to its next
        decision that is also ours."""
        deck = self.program.deck.display
        while not os_state.is_terminal():
            if os_state.is_chance_node():
                if self.deals == self.starters:          # a new hand: ours is dealt already
                    assert state.vars["hands"] == self.deals + 1
                    hands = [None] * self.players
                    for seat in range(self.players):
                        hands[self.os_player(state, seat)] = self.cards(state, seat)
                    assert all(len(h) == (6 if self.players == 2 else 5) for h in hands), hands
                    extra = [self.card_id(deck[c]) for c in state.zones["crib"]]   # three: one from the pack
                    assert len(extra) == (self.players == 3)
                    for c in sum(hands, []) + extra:
                        os_state.apply_action(c)
                    self.deals += 1
                else:                                    # the starter, once all have laid away
                    (starter,) = state.zones["starter"]
                    os_state.apply_action(self.card_id(deck[starter]))
                    self.starters += 1
            elif os_state.legal_actions() == [self.PASS]:
                os_state.apply_action(self.PASS)
            else:
                return

    def after(self, state, os_state, label):
        self.sync(state, os_state)
        for e in state.log[self.seen:]:
            text = e["text"] if e.get("type") == "log" else ""
            peg = _PEG.match(text)
            if self.open_ is not None and (" plays " in text or " deals; " in text or peg and peg.group(3) in self.ONE):
                self.open_ = False                       # OpenSpiel's action that reached 121 is over
            if peg and self.open_ is not False:
                seat, total = int(peg.group(1)) - 1, int(peg.group(4))
                self.points[seat] = total
                if self.players == 4:
                    self.points[(seat + 2) % 4] = total
                if self.reached is None and total >= self.GAME:
                    self.reached, self.open_ = seat, True
        self.seen = len(state.log)

    def ours(self, values) -> list[float]:
        """Our seats' values by OpenSpiel's players."""
        out = [0.0] * self.players
        for seat in range(self.players):
            out[self.os_player(state=None, seat=seat)] = float(values[seat])
        return out

    def check(self, state, os_state):
        if os_state.is_terminal():
            return None
        ours = self.ours(state.pvars["score"])
        if ours != list(os_state.returns()):
            return f"scores {ours}, OpenSpiel {os_state.returns()}"
        return None

    def action(self, state, label):
        words = label.split()
        if words[0] == "put" and words[2] != "in":
            a, b = sorted((self.card_id(w) for w in words[1:3]), key=lambda c: (c % 13, c // 13))
            return 52 + 52 * a + b
        return self.card_id(words[1])

    def with_bonus(self, points: list[float], winner: int) -> list[float]:
        """OpenSpiel's returns: points, the bonus to the winner's side, taken from the others."""
        if self.players == 4:
            return [x + (self.bonus if self.side(p) == self.side(winner) else -self.bonus) / 2
                    for p, x in enumerate(points)]
        return [x + (self.bonus if p == winner else -self.bonus / (self.players - 1)) for p, x in enumerate(points)]

    def os_winner(self, points: list[float], winner: int) -> int:
        """Our winner, or OpenSpiel's lowest-numbered player with 121 where that is set aside."""
        first = min(p for p, x in enumerate(points) if x >= self.GAME)
        if "winner_by_index" in self.set_aside and self.side(first) != self.side(winner):
            self.index_wins += 1
            return first
        return winner

    def returns(self, state):
        points = self.ours(self.points)
        if self.reached is None:
            return points
        return self.with_bonus(points, self.os_winner(points, self.os_player(state, self.reached)))


_PEG = __import__("re").compile(r"^Player (\d+) pegs (\d+) for (.*) \((\d+)\)$")


class CribbageAt121Adapter(CribbageAdapter):
    """Our default target_score=121: ours ends at the peg that reaches 121, its score set to
    121, where OpenSpiel counts the rest of that action (see CribbageAdapter).  The game is
    compared as before up to there; at the end, our winner must be OpenSpiel's (the bug of
    winner_by_index set aside as before), our winner's 121 at most OpenSpiel's points for it,
    and the others' points at most OpenSpiel's (which may have counted their hands since)."""

    def __init__(self, options: dict, players: int = 2):
        super().__init__({"target_score": 121, **options}, players=players)
        self.ends = []

    def after(self, state, os_state, label):
        super().after(state, os_state, label)
        self.os_state = os_state

    def returns(self, state):
        points = self.ours(state.pvars["score"])
        os_points = [float(x) for x in str(self.os_state).split("Scores:")[1].split("\n")[0].split()]
        ours = self.os_player(state, state.vars["winner"])
        winner = self.os_winner(os_points, ours)
        self.ends.append((points, os_points))
        if points[ours] == self.GAME and all(mine <= os for mine, os in zip(points, os_points)):
            points = os_points                    # the same game, OpenSpiel counted on
        return self.with_bonus(points, winner)


CRIBBAGE_PLAYERS = [(2, 80), (3, 25), (4, 25)]


@pytest.mark.parametrize("players, games", CRIBBAGE_PLAYERS, ids=[f"{n}p" for n, _ in CRIBBAGE_PLAYERS])
def test_cribbage_agrees_with_openspiel_game_by_game(players, games):
    disagreements, played = lockstep(CribbageAdapter({}, players=players), games)
    assert played == games and disagreements == [], disagreements[:1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cribbage_stops_at_121(players):
    """Our default target: the same games up to the peg that reaches 121, the same winner."""
    adapter = CribbageAt121Adapter({}, players=players)
    disagreements, played = lockstep(adapter, 30 if players == 2 else 12)
    assert disagreements == [], disagreements[:1]
    assert any(ours != os for ours, os in adapter.ends)       # OpenSpiel counted on past 121


@pytest.mark.parametrize("options, why", [({"lay_away": "in_turn"}, "decides"),
                                          ({"crib_flush": "five_only"}, "scores")],
                         ids=["lay_away_in_turn", "crib_flush_five_only"])
def test_cribbage_lay_away_and_crib_flush_are_our_options(options, why):
    """OpenSpiel asks player 0 to lay away first, whoever deals: our lay_away=together (under
    our default in_turn the non-dealer, its player 1, is asked first, at once); its crib
    scores a four-card flush: our crib_flush=four_too (under our default five_only the
    scores part when such a crib comes)."""
    disagreements, _ = lockstep(CribbageAdapter(options), 30)
    assert disagreements and why in disagreements[0][3], disagreements[:1]


@pytest.mark.xfail(strict=True, reason="cribbage: OpenSpiel's DetermineWinner gives the game to the lowest-numbered "
                   "player with 121, a bug: when both pass 121 in one show, its player 0 wins even where player 1, "
                   "the non-dealer, counted out first (the hands are counted in order, the first to 121 wins); "
                   "we give the bug no option")
def test_cribbage_winner_by_index_differs():
    disagreements, _ = lockstep(CribbageAdapter({}, set_aside=()), 20)
    assert disagreements == [], disagreements[:1]


# ---------------------------------------------------------------- gin_rummy


GIN_OPTIONS = {"melding": "one_by_one", "fiftieth_card": "may_knock", "discard_taken": "allowed"}
GIN_SUITS = "♠♣♦♥"                  # gin_rummy_utils.cc: suit order "scdh", card = suit * 13 + rank
GIN_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
GIN_BUGS = ("min_deadwood", "layoff_chain", "tie")     # OpenSpiel's bugs, set aside (see gin_lockstep)
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD = 52, 53, 54, 55, 56


def gin_card(display: str) -> int:
    return GIN_SUITS.index(display[-1]) * 13 + GIN_RANKS.index(display[:-1])


def gin_meld_id(cards: list[int]) -> int:
    """gin_rummy_utils.cc's MeldToInt: sets by rank (5 a rank: the suit left out, or 4 for all
    four), then runs of 3, 4 and 5 by suit and lowest rank."""
    ranks, suits = sorted(c % 13 for c in cards), {c // 13 for c in cards}
    if len(set(ranks)) == 1:
        return ranks[0] * 5 + (4 if len(cards) == 4 else ({0, 1, 2, 3} - suits).pop())
    (suit,) = suits
    return {3: 65, 4: 109, 5: 149}[len(cards)] + suit * (14 - len(cards)) + ranks[0]


def gin_actions(label: str, must_knock: bool) -> tuple[int, ...]:
    """Our option -> the OpenSpiel actions it makes, in order: a knock is OpenSpiel's knock,
    then its discard; the rest is one action each."""
    cards = [gin_card(c) for c in re.findall(r"(?:10|[2-9AJQK])[♠♣♦♥]", label)]
    if label.startswith("take") and label.endswith("and knock"):
        return (KNOCK,)
    if label.startswith("take"):
        return (DRAW_UPCARD,)
    if label.startswith("go gin, discarding"):                 # melding=best only
        return (KNOCK, cards[0])
    if label.startswith("lay down ") and len(cards) > 5:       # a whole layout: melding=best only
        return (-1,)
    if label.startswith("knock, discarding"):
        return (cards[0],) if must_knock else (KNOCK, cards[0])
    if label.startswith("lay down ") and cards:
        return (MELD + gin_meld_id(cards),)
    if label.startswith(("discard", "lay off ")) and cards:
        return (cards[0],)
    return {"pass the upcard": (PASS,), "draw from the stock": (DRAW_STOCK,), "lay off no more cards": (PASS,),
            "lay down no more melds": (PASS,), "leave it: the hand is drawn": (PASS,)}[label]


def _layoff_depths(os_state, knocker: int) -> dict[int, int]:
    """How far each card laid off on a run is from the knocker's run: 1 next to it, 2 next to
    a card at 1, and so on."""
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    reach = {c for m in os_state.layed_melds()[knocker] if m >= 65 for c in utils.int_to_meld[m]}
    depth, laid = {}, set(os_state.layoffs())
    for d in range(1, 14):
        new = {c for c in laid - set(depth) if any(nb in reach for nb in _neighbours(c))}
        depth.update({c: d for c in new})
        reach = new
    return depth


def _neighbours(c: int) -> list[int]:
    return [c + k for k in (-1, 1) if 0 <= c % 13 + k < 13]


def gin_lockstep(deals: int, first_seed: int = 0, options: dict | None = None, os_params: dict | None = None,
                 set_aside: tuple = GIN_BUGS, smart: float = 0.8, knock: float = 0.9):
    """rulesets/gin_rummy.yaml with GIN_OPTIONS and `gin_rummy` (gin_rummy.cc), one OpenSpiel
    game a hand (OpenSpiel plays one hand; ours plays hands to 100, each fed to a new game).
    Returns (disagreements, hands played, what was set aside: {bug: times}, how the hands
    ended: {knocked, gin, undercut, drawn, fiftieth card taken, laid off: hands}).

    Seats: OpenSpiel's player 0 is our non-dealer (dealer.left), who has the first say on the
    upcard; the deal is fed as its chance actions, player 0's ten cards, player 1's, the
    upcard, and each card drawn from our stock when OpenSpiel's player draws from its.
    Cards: suit * 13 + rank, suits ♠ ♣ ♦ ♥, ranks A..K; melds: 56 + MeldToInt (gin_meld_id).

    Each of our options is a sequence of OpenSpiel actions (gin_actions): 'knock, discarding
    X' is OpenSpiel's knock (55) and then its discard X, everything else one action.  At every
    decision the deciding seat and the legal set are compared level by level: our options'
    first actions against OpenSpiel's legal actions, then, after the chosen first action, the
    second actions of the options that begin with it (the knock's discards) against OpenSpiel's
    legal actions there.  OpenSpiel has decisions of one forced action where ours has none:
    the non-dealer's draw from the stock after both passed the upcard (53), and 'pass' (54)
    when nothing may be laid off, when a player has no meld left to lay down, and at the wall
    when the fiftieth card cannot knock; those are applied to OpenSpiel alone, and only those.
    When our hand ends OpenSpiel's must be over, with the returns our scores give (the hand's
    points to its winner, minus to the other; 0 for a drawn hand).

    OpenSpiel's bugs, set aside when named in `set_aside` and counted (else they show as
    disagreements; see the xfail tests):
    - min_deadwood: with eleven cards OpenSpiel's MinDeadwood takes the arrangement melding
      the most and then drops its highest unmelded card, which is not always the least deadwood
      after a discard; it then refuses a knock that LegalDiscards itself would allow.  Our knock
      options are then set aside (not compared, not chosen).
    - layoff_chain: AllLayoffs extends a knocker's run by cards laid off on it only one deep
      (7♥ then 8♥ on 4-5-6♥, never 9♥ after them); a card extending a run past two laid-off
      cards is set aside.
    - tie: Returns gives a knocker whose deadwood equals the defender's 0, where the rules
      (R13) have the knocker undercut.

    OpenSpiel ends a hand drawn after 50 draws of the upcard, or when both players in turn take
    the upcard and throw it back; no rule of Gin Rummy says so (it keeps the game finite), so
    the agent never makes the 50th such draw or the second throw-back in a row."""
    program = load_program(ruleset("gin_rummy"), {**GIN_OPTIONS, **(options or {})})
    deck = program.deck.display
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    game = pyspiel.load_game("gin_rummy", os_params or {})
    disagreements, hands, seed, aside = [], 0, first_seed, {b: 0 for b in set_aside}
    seen = {"knocked": 0, "gin": 0, "undercut": 0, "drawn": 0, "fiftieth card taken": 0, "laid off": 0}
    forced_phases = {pyspiel.gin_rummy.Phase.KNOCK, pyspiel.gin_rummy.Phase.LAYOFF, pyspiel.gin_rummy.Phase.WALL}

    def hand_of(state, seat):
        return {gin_card(deck[c]) for c in state.zones["hand"][seat]}

    def new_hand(state):
        os_state = game.new_initial_state()
        nondealer = 1 - state.vars["dealer"]
        for seat in (nondealer, 1 - nondealer):
            for c in sorted(hand_of(state, seat)):
                os_state.apply_action(c)
        os_state.apply_action(gin_card(deck[state.vars["upcard"]]))
        return os_state, nondealer

    def forced(os_state, state, nondealer, drawer):
        """OpenSpiel's one-action decisions that ours do not have, and its draws from the stock."""
        while not os_state.is_terminal():
            if os_state.is_chance_node():
                new = hand_of(state, nondealer if drawer == 0 else 1 - nondealer) - set(os_state.hands()[drawer])
                if len(new) != 1:
                    return f"OpenSpiel's player {drawer} draws, ours holds {sorted(new)} new"
                os_state.apply_action(new.pop())
                continue
            legal = os_state.legal_actions()
            phase = os_state.current_phase()
            if legal == [DRAW_STOCK] and phase == pyspiel.gin_rummy.Phase.FIRST_UPCARD:
                drawer = os_state.current_player()
                os_state.apply_action(DRAW_STOCK)
            elif legal == [PASS] and phase in forced_phases and not ours_too(os_state, state, nondealer):
                os_state.apply_action(PASS)
            else:
                return None
        return None

    def ours_too(os_state, state, nondealer):
        """Does our engine ask the same player the same kind of question as OpenSpiel's forced pass?"""
        if state.over or state.rounds != rounds:
            return False
        seat = state.pending[0]
        if (0 if seat == nondealer else 1) != os_state.current_player():
            return False
        options = labels(program, state)
        phase = os_state.current_phase()
        if phase == pyspiel.gin_rummy.Phase.WALL:
            return "leave it: the hand is drawn" in options
        if phase == pyspiel.gin_rummy.Phase.LAYOFF and not os_state.finished_layoffs():
            return "lay off no more cards" in options
        return any(o.startswith("lay down ") for o in options)

    rounds = None
    while hands < deals:
        rng, state = random.Random(seed), new_game(program, seed=seed, players=2)
        why, n = None, 0
        while why is None and not state.over and hands < deals:
            os_state, nondealer = new_hand(state)
            rounds, scores = state.rounds, list(state.pvars["score"])
            upcard_draws, threw_back = 0, False
            took = None
            while why is None:
                why = forced(os_state, state, nondealer, -1)
                if why:
                    break
                seat = state.pending[0]
                player = 0 if seat == nondealer else 1
                if os_state.is_terminal() or os_state.current_player() != player:
                    why = f"seat {seat} (OpenSpiel's player {player}) decides, OpenSpiel's " + (
                        "hand is over" if os_state.is_terminal() else f"player {os_state.current_player()}")
                    break
                options = labels(program, state)
                must_knock = state.vars["must_knock"]
                seqs = [gin_actions(o, must_knock) for o in options]
                legal = os_state.legal_actions()
                allowed = list(range(len(options)))
                firsts = sorted({s[0] for s in seqs})
                held = sorted(hand_of(state, seat)) + ([os_state.upcard()] if must_knock is False
                                                       and state.vars["stage"] == "wall" else [])
                if "min_deadwood" in aside and KNOCK in firsts and KNOCK not in legal \
                        and utils.min_deadwood(held) > os_state.knock_card() \
                        and sorted(set(firsts) - {KNOCK}) == legal:
                    aside["min_deadwood"] += 1
                    allowed = [j for j in allowed if seqs[j][0] != KNOCK]
                if "layoff_chain" in aside and any(o.startswith("lay off ") and o != "lay off no more cards" for o in options):
                    depth = _layoff_depths(os_state, 1 - player)
                    extra = [j for j in allowed if seqs[j][0] < 52 and seqs[j][0] not in legal
                             and any(depth.get(nb, 0) >= 2 for nb in _neighbours(seqs[j][0]))
                             and not any(depth.get(nb, 0) == 1 for nb in _neighbours(seqs[j][0]))]
                    if extra:
                        aside["layoff_chain"] += 1
                        allowed = [j for j in allowed if j not in extra]
                firsts = sorted({seqs[j][0] for j in allowed})
                if firsts != legal or len({seqs[j] for j in allowed}) != len(allowed):
                    why = f"legal {firsts} {[options[j] for j in allowed]}, OpenSpiel {legal}"
                    break
                k = _gin_choice(rng, options, allowed, state, seat, utils, smart, knock, deck, took,
                                threw_back, upcard_draws)
                seq = seqs[k]
                os_state.apply_action(seq[0])
                for level in range(1, len(seq)):
                    below = sorted({seqs[j][level] for j in allowed if len(seqs[j]) > level and seqs[j][:level] == seq[:level]})
                    if below != os_state.legal_actions():
                        why = f"after {seq[:level]}: legal {below}, OpenSpiel {os_state.legal_actions()}"
                        break
                    os_state.apply_action(seq[level])
                if why:
                    break
                label = options[k]
                if label.startswith("take") and state.vars["stage"] == "play" and not label.endswith("knock"):
                    upcard_draws += 1
                if label.startswith("take"):
                    took = gin_card(label.split()[1])
                elif label.startswith("discard"):
                    threw_back, took = seq[0] == took, None
                elif label.startswith(("draw", "knock")):
                    took = None
                apply(program, state, k)
                n += 1
                if seq == (DRAW_STOCK,):
                    why = forced(os_state, state, nondealer, player)
                if state.over or state.rounds != rounds:
                    hands += 1
                    why = why or forced(os_state, state, nondealer, -1)
                    if why:
                        break
                    if not os_state.is_terminal():
                        why = "our hand is over, not OpenSpiel's"
                        break
                    gain = [state.pvars["score"][s] - scores[s] for s in range(2)]
                    ours = [float(gain[nondealer] - gain[1 - nondealer]), float(gain[1 - nondealer] - gain[nondealer])]
                    theirs = list(os_state.returns())
                    dw = list(os_state.deadwood())
                    knocker = os_state.knocked().index(True) if any(os_state.knocked()) else None
                    seen["drawn" if knocker is None else "knocked"] += 1
                    if knocker is not None:
                        seen["gin"] += dw[knocker] == 0
                        seen["undercut"] += dw[knocker] > 0 and dw[1 - knocker] <= dw[knocker]
                        seen["laid off"] += len(os_state.layoffs()) > 0
                        seen["fiftieth card taken"] += os_state.stock_size() == 2
                    if ours != theirs and "tie" in aside and theirs == [0.0, 0.0] and any(os_state.knocked()) \
                            and dw[0] == dw[1] and abs(ours[0]) == program.options["undercut_bonus"]:
                        aside["tie"] += 1
                    elif ours != theirs:
                        why = f"hand's returns {ours}, OpenSpiel {theirs} (deadwood {dw})"
                    break
        if why:
            disagreements.append((seed, state.rounds, n, why))
            hands += not (state.over or state.rounds != rounds)      # the hand cut short
        seed += 1
    return disagreements, hands, aside, seen


def _gin_choice(rng, options, allowed, state, seat, utils, smart, knock, deck, took, threw_back, upcard_draws):
    """A player who knocks, `knock` of the times it can, and, `smart` of the time, keeps the cards that meld:
    takes the upcard only when it lowers its deadwood, throws the card leaving the least.
    Never the 50th draw of the upcard nor a second throw-back in a row (see gin_lockstep)."""
    ok = [j for j in allowed
          if not (threw_back and options[j].startswith("discard") and gin_card(options[j].split()[1]) == took)
          and not (upcard_draws >= 49 and options[j].startswith("take") and not options[j].endswith("knock")
                   and state.vars["stage"] == "play")]
    knocks = [j for j in ok if options[j].startswith("knock") or options[j].endswith("and knock")]
    hand = sorted(gin_card(deck[c]) for c in state.zones["hand"][seat])
    gins = [j for j in knocks if options[j].startswith("knock")
            and utils.min_deadwood([c for c in hand if c != gin_card(options[j].split()[-1])]) == 0]
    if gins:
        return rng.choice(gins)
    if knocks and rng.random() < knock:
        return rng.choice(knocks)
    melds = [j for j in ok if options[j].startswith("lay down ") and options[j] != "lay down no more melds"]
    if melds and rng.random() < smart:
        return rng.choice(melds)
    if rng.random() < smart:
        discards = [j for j in ok if options[j].startswith("discard")]
        if discards:
            return min(discards, key=lambda j: (utils.min_deadwood([c for c in hand if c != gin_card(options[j].split()[1])]),
                                                rng.random()))
        takes = [j for j in ok if options[j].startswith("take") and not options[j].endswith("knock")]
        if takes and len(hand) == 10:
            upcard = gin_card(options[takes[0]].split()[1])
            if utils.min_deadwood(hand + [upcard]) < utils.min_deadwood(hand):
                return takes[0]
            rest = [j for j in ok if j not in takes]
            if rest:
                return rng.choice(rest)
    return rng.choice(ok)


GIN_PLAYERS = [(0.8, 0.9), (0.8, 0.1), (0.3, 0.5)]     # (smart, knock): quick knocks; patient, for gin; sloppy, to the wall


def test_gin_rummy_agrees_with_openspiel_hand_by_hand():
    seen = {}
    for k, (smart, knock) in enumerate(GIN_PLAYERS):
        disagreements, hands, aside, ends = gin_lockstep(120, first_seed=1000 * k, smart=smart, knock=knock)
        assert disagreements == [], disagreements[:3]
        assert hands >= 120
        seen = {e: seen.get(e, 0) + ends[e] for e in ends}
    assert all(seen.values()), seen             # gin, undercuts, drawn hands, the fiftieth card, lay-offs: all met


@pytest.mark.parametrize("options, params", [
    ({"oklahoma": "upcard"}, {"oklahoma": True}),
    ({"knock_limit": 7, "gin_bonus": 20, "undercut_bonus": 10}, {"knock_card": 7, "gin_bonus": 20, "undercut_bonus": 10}),
    ({"dealer": "seat_1", "knock_limit": 0}, {"knock_card": 0}),
], ids=["oklahoma", "knock_7_bonuses", "gin_only"])
def test_gin_rummy_parameters_are_our_options(options, params):
    """OpenSpiel's oklahoma (the upcard's value the knock limit, an ace gin only) is our
    oklahoma=upcard; its knock_card, gin_bonus and undercut_bonus our knock_limit, gin_bonus and
    undercut_bonus."""
    disagreements, hands, _, _ = gin_lockstep(80, first_seed=50, options=options, os_params=params, smart=0.8, knock=0.3)
    assert disagreements == [], disagreements[:3]


@pytest.mark.parametrize("options, params, what", [
    ({"melding": "best"}, {}, ""),
    ({"fiftieth_card": "drawn"}, {}, "our hand is over"),
    ({"discard_taken": "forbidden"}, {}, "legal"),
    ({}, {"knock_card": 9}, "legal"),
    ({}, {"undercut_bonus": 10}, "returns"),
], ids=["melding_best", "fiftieth_card_drawn", "discard_taken_forbidden", "knock_card_9", "undercut_10"])
def test_gin_rummy_lockstep_finds_another_rule(options, params, what):
    """The loop is not blind: our default readings (a best layout found for the players, a
    hand drawn at once at the wall, the card taken not thrown back) and OpenSpiel loaded with
    another knock card or undercut bonus disagree within a few dozen hands."""
    disagreements, _, _, _ = gin_lockstep(60, options=options, os_params=params, smart=0.8, knock=0.1)
    assert disagreements and what in disagreements[0][3], disagreements[:1]


@pytest.mark.xfail(strict=True, reason="gin_rummy: with eleven cards OpenSpiel's MinDeadwood melds the most it can and "
                   "then drops the highest unmelded card, not always the least deadwood after a discard: holding "
                   "5♣ 5♦ 5♥ 6♠ 6♣ 6♦ 6♥ 4♦ 7♦ 2♥ 4♥ a discard of 7♦ leaves 10 (the fives, the sixes, 4♦ 2♥ 4♥), "
                   "but it counts 11 and refuses the knock its own LegalDiscards would allow; we give the bug no option")
def test_gin_rummy_min_deadwood_differs():
    from conftest import Table
    p2 = "6♠ 5♣ 6♣ 4♦ 5♦ 6♦ 7♦ 4♥ 5♥ 6♥".split()              # the non-dealer's; the upcard 2♥ makes eleven
    p1 = "K♠ Q♠ J♣ 10♣ 9♠ 8♠ K♦ Q♦ 9♣ 8♣".split()
    t = Table("gin_rummy", stack=[c for pair in zip(p2, p1) for c in pair] + ["2♥"],
              options={**GIN_OPTIONS, "dealer": "seat_1"}, players=2)
    t.play("take 2♥")
    assert "knock, discarding 7♦" in t.legal()
    os_state = pyspiel.load_game("gin_rummy").new_initial_state()
    for c in p2 + p1 + ["2♥"]:
        os_state.apply_action(gin_card(c))
    os_state.apply_action(DRAW_UPCARD)
    assert KNOCK in os_state.legal_actions()


@pytest.mark.xfail(strict=True, reason="gin_rummy: OpenSpiel's AllLayoffs extends a knocker's run by the cards laid off "
                   "on it only one deep (7♥ then 8♥ on 4-5-6♥, never 9♥ after them), a bug: a card laid off may "
                   "itself be extended (R12); we give it no option")
def test_gin_rummy_layoff_chain_differs():
    disagreements, _, _, _ = gin_lockstep(2, first_seed=16, smart=0.8, knock=0.1, set_aside=("min_deadwood", "tie"))
    assert disagreements == [], disagreements[:1]


@pytest.mark.xfail(strict=True, reason="gin_rummy: OpenSpiel's Returns gives a knocker whose deadwood equals the "
                   "defender's 0 (neither scores), a bug: the rules (R13: Hoyle, Bicycle, Pagat) count a tie as an "
                   "undercut, and no source we know scores it nothing; we give it no option")
def test_gin_rummy_tie_differs():
    disagreements, _, _, _ = gin_lockstep(3, first_seed=23, smart=0.8, knock=0.9, set_aside=("min_deadwood", "layoff_chain"))
    assert disagreements == [], disagreements[:1]


@pytest.mark.slow
def test_cribbage_agrees_with_openspiel_over_thousands_of_games():
    for players, games in [(2, 1000), (3, 250), (4, 250)]:
        disagreements, _ = lockstep(CribbageAdapter({}, players=players), games, first_seed=7)
        assert disagreements == [], (players, disagreements[:1])
        disagreements, _ = lockstep(CribbageAt121Adapter({}, players=players), games // 4, first_seed=7)
        assert disagreements == [], (players, disagreements[:1])


@pytest.mark.slow
def test_gin_rummy_agrees_with_openspiel_over_thousands_of_hands():
    for k, (smart, knock) in enumerate(GIN_PLAYERS):
        disagreements, hands, _, _ = gin_lockstep(1000, first_seed=7 + 100000 * k, smart=smart, knock=knock)
        assert disagreements == [], disagreements[:3]
