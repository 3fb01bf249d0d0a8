"""Players: bots and people at the terminal.

An agent sees a Decision: whose it is, how many options, and (on demand) the
labels of the options and the view of the state that its seat may see.  It
returns the index of its choice.  Nothing else of the state reaches it.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ..runtime.engine import apply, determinize, labels as option_labels, view as seat_view, prompt as choice_prompt
from ..runtime.engine import example_card, option_named, options_numbered, refusal as why_not
from ..errors import RulesFault
from ..messages import msg
from ..runtime.state import Rng
from .answers import read_answer, rule_of_answers
from .ismcts import ISMCTSAgent, ended_now, native_play_out


class Decision:
    """One pending decision, shown through the deciding seat's eyes."""
    __slots__ = ("_program", "_state", "seat", "count")

    def __init__(self, program, state):
        self._program = program
        self._state = state
        self.seat = state.pending[0]
        self.count = len(state.pending[1])

    @property
    def labels(self) -> list[str]:
        return option_labels(self._program, self._state)

    @property
    def prompt(self) -> str:
        return choice_prompt(self._program, self._state)

    @property
    def view(self) -> dict:
        return seat_view(self._program, self._state, self.seat)

    def imagine(self, rng):
        """A copy of the game as this seat might imagine it, for planning: made of its view and
        of fresh chance from `rng` alone (engine.determinize)."""
        return determinize(self._program, self._state, self.seat, rng)

    @property
    def program(self):
        return self._program

    @property
    def of_cards(self) -> bool:
        """Are the options cards (or sets of cards), which a person may name by typing them?"""
        spec = self._program.choices[self._state.pending[2]]
        return spec.cards or spec.card_lists or any(k in ("card", "cards") for kinds in spec.slots or () for k in kinds)

    def named(self, answer: str) -> int | None:
        """The legal option `answer` names outright (engine.option_named), if exactly one."""
        return option_named(self._program, self._state, answer)

    def refusal(self, answer: str):
        """(label, why) when `answer` names an option the rules do not allow now (engine.refusal)."""
        return why_not(self._program, self._state, answer)

    def numbered(self, number: str) -> list[int]:
        """The legal options a bare number could name besides the move of that number: a word
        of its label, or a card of that rank the seat can see (engine.options_numbered)."""
        return options_numbered(self._program, self._state, number)

    @property
    def example_card(self) -> str | None:
        """A card that an option is, as a person types it ('7s'), for the prompt (engine.example_card)."""
        return example_card(self._program, self._state)


class RandomAgent:
    """Picks uniformly at random, from its own seeded generator."""
    catches_up = True       # resumed, it sees the recorded decisions again: it is as it was, at once

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, decision: Decision) -> int:
        return self.rng.below(decision.count)


class FirstAgent:
    """Always takes the first legal option: handy for predictable tests."""

    def choose(self, decision: Decision) -> int:
        return 0


LONG_LIST = 40          # more options than this are not all listed at once (type 'list')
SHORT_LIST = 10         # ... but the first few are


class HumanAgent:
    """A person at the terminal: shows their view and numbered options, asks until the answer is valid.

    What they type is read by playing/answers.py: a move's number, a card's name or a word of a
    move, or a command in English or the table's language (messages.command): `?` for help,
    `view` to see the table again, `hint` for the planning bot's suggestion, `rules` for the
    whole rules, `list` for every option.
    """

    def __init__(self, show_view, ask, say, hint=None, lang: str = "en", rules=None, ask_forced: bool = False):
        self.show_view = show_view   # fn(decision) -> None
        self.ask = ask               # fn(prompt) -> str (raises EOFError at end of input)
        self.say = say               # fn(text) -> None
        self.hint = hint             # fn(decision) -> index, or None
        self.lang = lang
        self.rules = rules           # fn(full: bool) -> list of lines: what the rules say, or None
        self.ask_forced = ask_forced  # ask even when there is only one legal move

    def choose(self, decision: Decision) -> int:
        labels = decision.labels
        if len(labels) == 1 and not self.ask_forced:        # a forced move is played for the person
            self.say(msg(self.lang, "forced", label=labels[0]))
            return 0
        self.show_view(decision)
        self._list(labels, cards=decision.of_cards)
        commands = {"help", "view", "list"} | ({"rules"} if self.rules is not None else set()) | \
            ({"hint"} if self.hint is not None else set())
        prompt = f"{decision.prompt} [{rule_of_answers(decision, labels, self.lang)}]: "
        while True:
            kind, value = read_answer(self.ask(prompt), decision, labels, self.lang, commands)
            if kind == "move":
                return value
            if kind == "command":
                self._command(value, decision, labels)
                continue
            for line in value:
                self.say(line)

    def _command(self, name: str, decision: Decision, labels: list) -> None:
        """What '?', 'rules', 'view', 'list' and 'hint' show."""
        if name == "help":
            self.say(msg(self.lang, "help"))
            if self.rules is not None:
                for line in self.rules(False):
                    self.say(line)
                self.say(msg(self.lang, "rules_more"))
        elif name == "rules":
            for line in self.rules(True):
                self.say(line)
        elif name == "view":
            self.show_view(decision)
            self._list(labels, cards=decision.of_cards)
        elif name == "list":
            self._list(labels, whole=True, cards=decision.of_cards)
        elif name == "hint":
            self.say(msg(self.lang, "hint", label=labels[self.hint(decision)]))

    def _list(self, labels, whole=False, cards=True):
        """The options, numbered; past LONG_LIST of them (every pair of a hand, every set of
        cards to pass, every bid) the first few and how to name one: its cards (`cards`: the
        options are cards), or a word of it."""
        shown = labels if whole or len(labels) <= LONG_LIST else labels[:SHORT_LIST]
        for i, label in enumerate(shown, 1):
            self.say(f"  {i}. {label}")
        if len(shown) < len(labels):
            self.say("  " + msg(self.lang, "more", n=len(labels) - len(shown)))
            self.say(msg(self.lang, "many" if cards else "many_words", n=len(labels), example=labels[0]))


class MonteCarloAgent:
    """Plays each option out many times on imagined copies of the game and keeps the best.

    The copies come from Decision.imagine: made of its seat's view and fresh chance, so
    the bot plans with what its seat may know.  The play-outs use random
    bots.  Where the ruleset gives a `standing` (how well a player stands mid-game), a
    play-out stops at the end of the round and scores the seat's standing against the
    best other; a play-out that reaches the end of the game scores a win far above
    any standing.  `playouts` is per option.

    `seconds` (None: no bound) bounds a decision's time, for a game whose play-outs are long
    (go_fish: 20 play-outs an option can take half a minute): option k of n stops its
    play-outs once k/n of the time is spent (time an option leaves is the next one's), after
    at least one, and a play-out still going then stops there.  Without it, a seed's play is
    the same on every run; with it, only while the time is not reached.
    """
    WIN = 1000.0

    def __init__(self, seed: int = 0, playouts: int = 20, max_decisions: int = 2000, seconds: float | None = None):
        self.rng = Rng(seed)
        self.playouts = playouts
        self.max_decisions = max_decisions
        self.seconds = seconds

    def choose(self, decision: Decision) -> int:
        if decision.count == 1:
            return 0
        start, n = time.perf_counter(), decision.count
        values = [self.value(decision, option, start + self.seconds * (option + 1) / n if self.seconds else None)
                  for option in range(n)]
        return max(range(n), key=values.__getitem__)     # the first of the best

    def value(self, decision: Decision, option: int, until: float | None = None) -> float:
        """What `option` is worth to the deciding seat: the mean score of its play-outs (a
        standing can be negative: every option may score below zero), those begun before
        `until` (perf_counter; None: all of them) once one has ended.  A play-out the rules
        cannot continue counts for nothing; an option none of whose play-outs end is worth
        least of all."""
        program, seat = decision.program, decision.seat
        total, played = 0.0, 0
        for _ in range(self.playouts):
            if played and until is not None and time.perf_counter() >= until:
                break
            try:
                game = decision.imagine(self.rng)
                apply(program, game, option)
                total += self._playout(program, game, seat, until)
                played += 1
            except RulesFault:       # an imagined world the rules cannot continue
                pass
        return total / played if played else -math.inf

    def _playout(self, program, game, seat, until: float | None = None) -> float:
        """Random moves to the end (of the round, with a standing), at most max_decisions of
        them and none after `until`: a play-out stopped short scores the standing then (none:
        even), as ismcts's does.  Played in the native kernel where there is one at hand."""
        rng = self.rng
        horizon = game.rounds if program.standing is not None else None
        ended = native_play_out(program, game, rng, horizon, self.max_decisions)
        if ended is None:
            n = 0
            while not game.over and n < self.max_decisions and (horizon is None or game.rounds == horizon):
                apply(program, game, rng.below(len(game.pending[1])))
                n += 1
                if until is not None and time.perf_counter() > until:     # a go_fish move may take a fifth of a second
                    break
            ended = ended_now(program, game)
        over, winners, values, _ = ended
        if over:
            share = 1.0 / len(winners) if seat in winners else 0.0
            return share * self.WIN if horizon is not None else share
        if values is None:
            return 0.0
        others = [v for p, v in enumerate(values) if p != seat]
        return values[seat] - (max(others) if others else 0)


# The bots a person plays against (and that --watch shows): the ISMCTS bot, which plans
# better than the mc bot for the same time (README, "Bots"), at most 400 iterations and at
# most half a second a decision (a game whose play-outs are long, go_fish or president,
# reaches the time first).  simulate and a game no one watches keep random bots.
TABLE_BOT = {"kind": "ismcts", "iterations": 400, "seconds": 0.5}


def bot_named(spec: dict, seed: int):
    """The bot a record's `bot` (or the command line) names: random, mc with its play-outs
    per option (and at most its seconds a decision, if given), ismcts with its iterations
    and/or seconds a decision."""
    kind = spec.get("kind", "random")
    if kind == "mc":
        return MonteCarloAgent(seed, playouts=max(1, spec.get("playouts", 20)), seconds=spec.get("seconds"))
    if kind == "ismcts":
        return ISMCTSAgent(seed, iterations=spec.get("iterations"), seconds=spec.get("seconds"))
    return RandomAgent(seed)


@dataclass(frozen=True)
class Seating:
    """Who plays each seat of a simulated game: the mc bot in `mc_seats` (with `playouts`
    per option), the ISMCTS bot (playing/ismcts.py) in `ismcts_seats` (with `iterations` a
    decision), random bots elsewhere.  Seats are numbered from 1, as on the command line;
    each bot is seeded from the game's seed and its seat alone."""
    mc_seats: tuple = ()
    playouts: int = 20
    ismcts_seats: tuple = ()
    iterations: int = 400

    def agents(self, n: int, seed: int) -> list:
        out = []
        for seat in range(n):
            own = seed * 1000 + seat + 1
            if seat + 1 in self.ismcts_seats:
                out.append(ISMCTSAgent(own, iterations=max(1, self.iterations)))
            elif seat + 1 in self.mc_seats:
                out.append(MonteCarloAgent(own, playouts=max(1, self.playouts)))
            else:
                out.append(RandomAgent(own))
        return out
