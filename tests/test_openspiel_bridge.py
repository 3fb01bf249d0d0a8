"""rulesets/bridge.yaml in lockstep with OpenSpiel's own bridge
(`bridge(use_double_dummy_result=false)`, open_spiel/games/bridge/bridge.cc).

Our engine deals; its hands are fed to OpenSpiel as its 52 chance actions (the k-th dealt
card goes to player k % 4, North first; a card's id is rank * 4 + suit, suits ♣ ♦ ♥ ♠ = 0..3,
ranks 2..A = 0..12).  Then a seeded random agent decides in our engine, and at every decision
the deciding seat and the legal set, mapped to OpenSpiel's action ids (cards 0..51; 52 pass,
53 double, 54 redouble, 55 + 5 * (level - 1) + strain for a bid, strains ♣ ♦ ♥ ♠ NT = 0..4),
must be OpenSpiel's.  When the dummy plays, OpenSpiel's current player is the declarer, as
ours is (`by: declarer`).  At the end each seat's score is OpenSpiel's return.  Seats:
our seat index 0..3 is North, East, South, West, OpenSpiel's players 0..3.

In the auction the agent passes 55% of the time, doubles or redoubles when it may 10%, else
makes one of the three lowest bids, so that contracts are low enough to be made, doubled now
and then, and deals are passed out; in the play it picks a legal card uniformly."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytestmark = pytest.mark.extras

from conftest import ruleset  # noqa: E402
from interpreter import apply, labels, load_program, new_game  # noqa: E402

SUITS = "♣♦♥♠"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
STRAINS = ["♣", "♦", "♥", "♠", "NT"]
SEATS = ["north", "east", "south", "west"]
VULNERABLE = {  # ours -> OpenSpiel's (dealer_vul, non_dealer_vul), by the dealer's side
    "none": lambda d: (False, False), "both": lambda d: (True, True),
    "north_south": lambda d: (d % 2 == 0, d % 2 == 1), "east_west": lambda d: (d % 2 == 1, d % 2 == 0)}


def card_action(display: str) -> int:
    return RANKS.index(display[:-1]) * 4 + SUITS.index(display[-1])


def call_action(label: str) -> int:
    if label in ("pass", "double", "redouble"):
        return 52 + ["pass", "double", "redouble"].index(label)
    level, strain = int(label[0]), label[1:]
    return 55 + 5 * (level - 1) + STRAINS.index(strain)


def option_action(label: str) -> int:
    """'lead 10♦', 'play 2♦ from dummy', '3NT', 'pass' -> OpenSpiel's action id."""
    words = label.split()
    if words[0] in ("lead", "play"):
        return card_action(words[1])
    return call_action(label)


class Lockstep:
    def __init__(self, seed: int, dealer: str, vulnerable: str):
        self.program = load_program(ruleset("bridge"), {"dealer": dealer, "vulnerable": vulnerable})
        self.state = new_game(self.program, seed=seed, players=4)
        d = SEATS.index(dealer)
        dv, nv = VULNERABLE[vulnerable](d)
        self.game = pyspiel.load_game("bridge", {"use_double_dummy_result": False, "dealer": d,
                                                 "dealer_vul": dv, "non_dealer_vul": nv})
        self.os = self.game.new_initial_state()
        deck = self.program.deck.display
        hands = [[card_action(deck[c]) for c in self.state.zones["hand"][seat]] for seat in range(4)]
        assert sorted(sum(hands, [])) == list(range(52))
        for k in range(52):
            self.os.apply_action(hands[k % 4][k // 4])
        assert not self.os.is_chance_node()

    def mismatch(self) -> str | None:
        if self.state.over or self.os.is_terminal():
            if not (self.state.over and self.os.is_terminal()):
                return f"one is over, not the other: ours {self.state.over}, OpenSpiel {self.os.is_terminal()}"
            ours = [float(x) for x in self.state.result["scores"]]
            if ours != list(self.os.returns()):
                return f"scores {ours} but OpenSpiel returns {self.os.returns()}"
            return None
        seat = self.state.pending[0]
        if seat != self.os.current_player():
            return f"seat {seat} decides, OpenSpiel's player {self.os.current_player()}"
        ours = [option_action(label) for label in labels(self.program, self.state)]
        if len(set(ours)) != len(ours) or sorted(ours) != self.os.legal_actions():
            return f"legal {ours}, OpenSpiel {self.os.legal_actions()}"
        return None

    def step(self, rng: random.Random) -> None:
        options = labels(self.program, self.state)
        if "pass" in options:          # the auction: pass, double or redouble, or a low bid
            r = rng.random()
            doubles = [j for j, o in enumerate(options) if o in ("double", "redouble")]
            bids = [j for j, o in enumerate(options) if o[0].isdigit()]
            if r < 0.55 or not (doubles or bids):
                i = options.index("pass")
            elif doubles and (r < 0.65 or not bids):
                i = rng.choice(doubles)
            else:
                i = rng.choice(bids[:3])
        else:
            i = rng.randrange(len(options))
        action = option_action(options[i])
        apply(self.program, self.state, i)
        self.os.apply_action(action)


def lockstep(deals: int, first_seed: int = 0):
    """Play `deals` deals; the list of (seed, decision, what differed) and what was seen."""
    disagreements, seen = [], {"passed out": 0, "made": 0, "down": 0, "doubled": 0, "redoubled": 0}
    for seed in range(first_seed, first_seed + deals):
        rng = random.Random(seed)
        dealer, vulnerable = SEATS[seed % 4], list(VULNERABLE)[(seed // 4) % 4]
        t = Lockstep(seed, dealer, vulnerable)
        n = 0
        while True:
            why = t.mismatch()
            if why:
                disagreements.append((seed, n, why))
                break
            if t.state.over:
                break
            t.step(rng)
            n += 1
        v = t.state.vars
        if v["high"] < 0:
            seen["passed out"] += 1
        else:
            seen["made" if v["points"] > 0 else "down"] += 1
            seen["doubled"] += v["doubled"] == 1
            seen["redoubled"] += v["doubled"] == 2
    return disagreements, seen


def test_bridge_agrees_with_openspiel_deal_by_deal():
    disagreements, seen = lockstep(300)
    assert disagreements == []
    assert all(seen.values()), seen


@pytest.mark.slow
def test_bridge_agrees_with_openspiel_over_thousands_of_deals():
    disagreements, seen = lockstep(3000, first_seed=1000)
    assert disagreements == []
    assert all(seen.values()), seen
