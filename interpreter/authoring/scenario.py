"""Scenarios: a position, scripted decisions, and expectations checked along the way.

A scenario names a ruleset and its options, sets up a position (a stacked deck,
and/or the contents of zones and starting values), makes decisions by their labels
and checks expectations written in the expression language after any decision.
`interpret scenario FILE...` reports pass or fail for each expectation.
"""
from __future__ import annotations

import json
import os

from ..pipeline import DEFAULT_BACKEND, check_players, load_named_program
from ..playing.agents import Decision, FirstAgent, RandomAgent
from ..runtime.engine import apply, comes_from, labels, new_game, refresh, run, run_to
from ..errors import (InterpreterError, Problem, RulesFault, RulesetError, brief, did_you_mean, rules_caused,
                     format_problem, words)
from ..lang.syntax import ExprError
from ..shown import printable
from ..closures.expressions import Closures
from ..check.expressions import ExprChecker
from ..lang import expr_ir
from ..lang.types import PLAYER, STR
from ..lang.values import shower
from ..source.loader import load_file
from ..check.schema import check


def run_scenarios(files, out, backend: str = DEFAULT_BACKEND) -> int:
    """Run each scenario file on the back end named `backend`, print its report; 1 if any failed."""
    failed = 0
    for path in files:
        try:
            report = run_file(path, backend)
        except RulesetError as e:
            failed += 1
            for p in e.problems:
                print(format_problem(p), file=out)
            continue
        failed += not report.passed
        report.show(out)
    return 1 if failed else 0


class Report:
    def __init__(self, path, name):
        self.path, self.name = path, name
        self.results = []          # (passed, text)
        self.account = ""

    @property
    def passed(self) -> bool:
        return all(ok for ok, _ in self.results)

    def show(self, out):
        status = "PASS" if self.passed else "FAIL"
        print(printable(f"{status} {self.path}: {self.name} ({sum(ok for ok, _ in self.results)}/"
                        f"{len(self.results)} expectations)"), file=out)
        for ok, text in self.results:
            print(printable(f"  {'ok  ' if ok else 'FAIL'} {text}"), file=out)
        if not self.passed:
            print("  account of the game:", file=out)
            for line in self.account.splitlines():
                print(f"    {line}", file=out)


def run_file(path: str, backend: str = DEFAULT_BACKEND) -> Report:
    data, source = load_file(path)
    problems = check(data, source, "scenario")
    if problems:
        raise RulesetError(problems)
    return _Run(path, data, source, backend).run()


def is_scenario(data) -> bool:
    return isinstance(data, dict) and "expect" in data and "ruleset" in data


def check_file(path: str) -> list[Problem]:
    """The problems of a scenario file, found without playing its decisions."""
    try:
        data, source = load_file(path)
        problems = check(data, source, "scenario")
        if problems:
            return problems
        _Run(path, data, source).prepare()
    except RulesetError as e:
        return e.problems
    except InterpreterError as e:
        return [Problem(path, 0, 0, brief(e))]
    return []


class _Run:
    def __init__(self, path, data, source, backend: str = DEFAULT_BACKEND):
        self.path, self.data, self.src, self.backend = path, data, source, backend
        self.report = Report(path, data.get("name", os.path.basename(path)))

    def fail(self, where, message):
        raise RulesetError([self.src.problem(where, message)])

    def at(self, where, message: str) -> str:
        """A report line about the scenario's key `where`: `file:line:col: message`."""
        line, col = self.src.at(where)
        return format_problem(Problem(self.path, line, col, message))

    def run(self) -> Report:
        checks = self.prepare()
        return self.play(checks)

    def prepare(self):
        """Everything up to the first decision: ruleset, position, starting values, expectations."""
        d = self.data
        ruleset = os.path.join(os.path.dirname(os.path.abspath(self.path)), d["ruleset"])
        self.program = load_named_program(ruleset, d["ruleset"], self.src, ("ruleset",), d.get("options"),
                                          d.get("lang"), backend=self.backend)
        problems = check_players(d.get("players"), self.program, self.src, ("players",))
        if problems:
            raise RulesetError(problems)
        self.checker, self.asserts = ExprChecker(self.program.symbols), ExprChecker(self.program.symbols)
        for checker in (self.checker, self.asserts):
            checker.seats = d.get("players") or self.program.players[2]   # players[i] of a seat is not null
        self.asserts.nulls_fail = True      # an expectation on a null fails, with the error said
        self.closures = Closures(self.program.symbols)
        checks, problems = self._expectations()
        self.checks = checks
        self.checked, self.placed, self.reached, self.cut = set(), False, {}, None
        self.points = self._stops(checks, problems)
        self.spans = {pc: [span for _, span in found] for pc, found in self.points.items()}   # run_to's form
        if "at" in d:
            problems += self._position_problems()     # the position is placed as play() runs
        if problems:
            raise RulesetError(problems)
        stacks = d.get("stacks") or ([d["stack"]] if "stack" in d else None)
        try:
            self.s = new_game(self.program, seed=d.get("seed", 0), players=d.get("players"), stacks=stacks,
                              start=False)
        except RulesFault as e:
            self.fail(("ruleset",), brief(e))
        except InterpreterError as e:
            self.fail(("stack",) if "stack" in d else ("players",), brief(e))
        if "at" in d:
            return checks
        try:
            self._start()
        except RulesFault as e:
            self.fail(("stack",) if "stack" in d else ("players",), brief(e))
        self._place_position()
        try:
            refresh(self.program, self.s)
        except RulesFault as e:
            first = str(e).partition("\n")[0]          # the ruleset's line and caret follow
            self.fail(("zones",) if "zones" in d else ("set",),
                      f"the rules cannot go on from this position: {first}. Variables computed from the deal "
                      f"may need values under 'set', or place the position earlier with 'at' (turn_start, "
                      f"round_start, before: STEP_ID) for the rules to compute them from it")
        return checks

    def _place_position(self):
        self._place_zones(self.s)
        self._set_values(self.s)
        if self.s.log is not None and (self.data.get("zones") or self.data.get("set")):
            self.s.log.append({"type": "log", "text": POSITION_MARK})
        self.placed = True

    def _position_problems(self) -> list:
        """The position's problems (names, cards, values that do not compile), found before the
        game starts: the position itself is placed when the flow comes to `at`."""
        try:
            scratch = new_game(self.program, seed=0, players=self.data.get("players"), start=False)
        except InterpreterError:
            return []           # the game's own start says what is wrong
        problems = []
        for place in (self._place_zones, lambda s: self._set_values(s, compute=False)):
            try:
                place(scratch)
            except RulesetError as e:
                problems += e.problems
        return problems

    # -- where the rules stop -------------------------------------------------------------
    def _stops(self, checks, problems) -> dict:
        """pc -> [(what happens there, span)]: "at" (the position is placed) or ("on", point)
        (the expectations on that point are checked), when the flow comes from `span`
        (Program.points); the points the rules do not have are added to `problems`."""
        tags = [("at", self.data["at"], ("at",))] if "at" in self.data else []
        for i, at, exp, _ in checks:
            if isinstance(at, tuple):
                tags.append((("on", at[1]), exp["at"], ("expect", i, "at")))
        stops = {}
        for tag, point, where in tags:
            for pc, span in self._point_pcs(point, where, problems):
                if (tag, span) not in stops.get(pc, ()):
                    stops.setdefault(pc, []).append((tag, span))
        return stops

    def _point_pcs(self, point, where, problems) -> tuple:
        """The pcs of a point of the flow, as a scenario names it; a problem when the rules
        have no such point (or never come to it)."""
        points = self.program.points
        key = _point_key(point)
        if key is None:
            problems.append(self.src.problem(where, "a point of the flow is a name (game_start, round_start, "
                                                    "turn_start, turn_end, round_end, or an event of the ruleset) "
                                                    "or {before: STEP_ID} or {after: STEP_ID}"))
            return ()
        if key in points and points[key]:
            return points[key]
        if isinstance(key, tuple):
            ids = sorted({k[1] for k in points if isinstance(k, tuple)})
            hint = did_you_mean(key[1], ids) or (f": '{key[1]}' is a point of its own (at: {key[1]})"
                                                 if key[1] in points else
                                                 f"; the ids here: {', '.join(ids)}" if ids else "")
            problems.append(self.src.problem(where + (key[0],), f"no step has the id '{key[1]}' in these rules (an "
                                                                 f"overlay may have replaced it, or the options in "
                                                                 f"force leave it out){hint}"))
        elif key in points:
            why = ": they have no turns" if key in ("turn_start", "turn_end") else \
                " (an event is a point where a trigger answers it)"
            problems.append(self.src.problem(where, f"the rules never come to '{key}'{why}"))
        else:
            side, _, sid = key.partition(":")
            names = [k for k in points if isinstance(k, str)]
            hint = f": write {{{side}: {sid.strip()}}}" if side in ("before", "after") and sid.strip() else \
                did_you_mean(key, names)
            problems.append(self.src.problem(where, f"unknown point '{key}'{hint}; points are {', '.join(names)}, "
                                                    f"or {{before: STEP_ID}}, {{after: STEP_ID}}"))
        return ()

    def _start(self):
        if 0 in self.points:
            self._reach(0, None)
        self._go()

    def _go(self, index=None):
        """Play on (the pending player choosing option `index`) to the next decision or the end,
        placing the position and checking expectations where the flow comes to their points."""
        p, s, spans = self.program, self.s, self.spans
        if index is not None:
            came = apply(p, s, index, spans or None)
        elif spans:
            came = run_to(p, s, spans)
        else:
            run(p, s)
        while spans and s.pending is None and not s.over:
            self._reach(s.pc, came)
            came = run_to(p, s, spans)

    def _reach(self, pc, came):
        if not self.placed and "at" not in self.data and (self.data.get("zones") or self.data.get("set")):
            return      # the position comes at the first decision: what comes before is not the scenario's
        for tag, span in self.points[pc]:
            if not comes_from(span, came):
                continue
            if tag == "at":
                if not self.placed:
                    self._place_position()
                continue
            n = self.reached[tag] = self.reached.get(tag, 0) + 1
            self._check(self.checks, ("on", tag[1], n))

    def play(self, checks) -> Report:
        d = self.data
        where = ("decisions",) if d.get("decisions") else ()
        try:
            if "at" in d:
                where = ("at",)
                self._start()
                where = ("decisions",) if d.get("decisions") else ()
            self._check(checks, 0)
            for n, label in enumerate(d.get("decisions") or [], 1):
                where = ("decisions", n - 1)
                if self.s.over:
                    self.fail(where, f"decision {n} '{label}': the game is already over")
                legal = labels(self.program, self.s)
                if label not in legal:
                    self.fail(where, f"decision {n} '{label}' is not legal here{did_you_mean(label, legal)}; "
                                     f"legal: {', '.join(legal)}")
                self._go(legal.index(label))
                self._check(checks, n)
            if "finish" in d:
                where = ("finish",)
            self._finish()
            self._check(checks, "end")
        except RulesFault as e:                    # the rules broke down: what was not checked fails
            first, _, quoted = str(e).partition("\n")    # the ruleset's line and caret follow
            self.report.results.append((False, self.at(where, f"the rules cannot go on: {first}")
                                        + ("\n" + quoted if quoted else "")))
        if "at" in d and not self.placed:
            self.report.results.append((False, self.at(("at",), f"the position was never set: {self._stopped()} "
                                                                f"before the rules came to "
                                                                f"{_point_text(_point_key(d['at']))}")))
        self._never_checked(checks)
        self.report.account = self._account()
        return self.report

    def _lines(self) -> list[str]:
        """Every line of the account so far."""
        return [e["text"] for e in self.s.log if e.get("text")]

    def _texts(self, upto: int | None = None) -> list[str]:
        """The lines of the account that expectations read and a failure shows: from where
        the scenario set its position on (not the random deal it replaced); of its first
        `upto` lines (all: None)."""
        texts = self._lines()[:upto]
        return texts[texts.index(POSITION_MARK) + 1:] if POSITION_MARK in texts else texts

    def _account(self) -> str:
        """The account a failure shows: the position the scenario set (if it had set it by
        then), then what happened up to the first expectation that failed."""
        after = self._texts(self.cut)
        rest = len(self._texts()) - len(after) if self.cut is not None else 0
        if rest > 0:
            after = after + [f"... ({rest} more line{'s' if rest > 1 else ''} up to where the scenario stopped)"]
        if POSITION_MARK not in self._lines()[:self.cut]:
            return "\n".join(after)
        at = f" ({_point_text(_point_key(self.data['at']))})" if "at" in self.data else ""
        lines = [f"the position the scenario set{at}:"]
        for name, content in (self.data.get("zones") or {}).items():
            if self.program.zones[name].per_player:
                shown = " | ".join(f"Player {i + 1}: {_shown_zone(c)}" for i, c in enumerate(content))
            else:
                shown = _shown_zone(content)
            lines.append(f"  {name}: {shown}")
        for name, value in (self.data.get("set") or {}).items():
            lines.append(f"  {name}: {value}")
        return "\n".join(lines + ["then:"] + [f"  {x}" for x in after])

    def _never_checked(self, checks):
        """An expectation the scenario never came to check fails: it was not shown to hold."""
        for i, at, exp, compiled in checks:
            if i not in self.checked:
                where = ("expect", i, "after") if "after" in exp else ("expect", i)
                point = _when_text(at)
                self.report.results.append((False, self.at(where, f"{point}: never checked: "
                                                                  f"{self._stopped()} before it got there")))

    def _stopped(self) -> str:
        """Why the scenario came no further."""
        if self.s.over:
            return "the game ended"
        if self.s.pending is not None and self.data.get("finish", "none") == "none":
            return "the scenario stopped (its decisions ran out; 'finish' plays on)"
        return "the scenario stopped"

    def _finish(self):
        how = self.data.get("finish", "none")
        if how == "none":
            return
        agent = FirstAgent() if how == "first" else RandomAgent(self.data.get("seed", 0))
        while not self.s.over:
            self._go(agent.choose(Decision(self.program, self.s)))

    # -- position ---------------------------------------------------------------------
    def _place_zones(self, s):
        p = self.program
        claimed = set()
        for name, content in (self.data.get("zones") or {}).items():
            where = ("zones", name)
            if name not in p.zones:
                self.fail(where, f"unknown zone '{name}'{did_you_mean(name, p.zones)}")
            if p.zones[name].piles:
                self.fail(where, f"'{name}' is a zone of piles: its piles are made during play (new_pile), and a "
                                 "scenario cannot lay them out; play up to them with decisions, or stop at a point")
            if p.zones[name].per_player:
                if not isinstance(content, list) or len(content) != len(s.players) or \
                        not all(isinstance(x, (list, dict)) for x in content):
                    self.fail(where, f"'{name}' is a zone each player has: give one list (or top/bottom) per seat "
                                     f"({len(s.players)})")
                for seat, cards in enumerate(content):
                    self._place_any(s, s.zones[name][seat], cards, claimed, where + (seat,))
            else:
                self._place_any(s, s.zones[name], content, claimed, where)

    def _place_any(self, s, target, content, claimed, where):
        if isinstance(content, dict):
            self._place_part(s, target, content, claimed, where)
        else:
            self._place(s, target, content, claimed, where)

    def _cards_named(self, notations, claimed, where) -> list:
        cards = []
        for i, n in enumerate(notations):
            try:
                c = self.program.card(str(n), skip=claimed)
            except InterpreterError as e:
                self.fail(where + (i,), brief(e))
            claimed.add(c)
            cards.append(c)
        return cards

    def _place_part(self, s, target, part, claimed, where):
        """Cards on top of a zone and/or at its bottom (each listed from the top down), the
        rest of the zone kept in its order.  A card taken from another zone leaves a place
        there, which the card of this zone it displaces fills (the highest one left for
        `top`, the lowest for `bottom`), so that every zone keeps its size."""
        top = self._cards_named(part.get("top") or [], claimed, where + ("top",))
        bottom = self._cards_named(part.get("bottom") or [], claimed, where + ("bottom",))
        holes = []
        for c in top + bottom:
            zone = _zone_holding(s, c)
            at = zone.index(c)
            if zone is target:
                zone.pop(at)
            else:
                zone[at] = None                 # a place to fill once this zone is laid out
                holes.append(zone)
        rest = list(target)
        given = [rest.pop() if top else rest.pop(0) for _ in holes if rest]
        target[:] = bottom[::-1] + rest + top[::-1]
        _fill(holes, given)

    def _place(self, s, target, notations, claimed, where):
        """The whole zone: the cards named, bottom first.  A card taken from another zone
        leaves its place there to a card the zone held before (in order); cards left over
        go to the deck's zone, places left over close up."""
        cards = self._cards_named(notations, claimed, where)
        holes = []
        for c in cards:
            zone = _zone_holding(s, c)
            if zone is not target:
                zone[zone.index(c)] = None
                holes.append(zone)
        extras = [c for c in target if c not in cards]
        target[:] = cards
        _fill(holes, extras)
        s.zones[self.program.start_zone].extend(extras)

    def _set_values(self, s, compute=True):
        """The starting values under `set` (with `compute` False: only checked)."""
        sym = self.program.symbols
        for name, value in (self.data.get("set") or {}).items():
            where = ("set", name)
            if name == "current":
                s.current = self._value(s, value, PLAYER, where, compute)
            elif name in sym.global_vars:
                s.vars[name] = self._value(s, value, sym.global_vars[name], where, compute)
            elif name in sym.player_vars:
                if not isinstance(value, list) or len(value) != len(s.players):
                    self.fail(where, f"'{name}' is a player variable: give one value per seat ({len(s.players)})")
                s.pvars[name] = [self._value(s, v, sym.player_vars[name], where + (i,), compute)
                                 for i, v in enumerate(value)]
                if name in sym.team_vars and compute:
                    self._shared_by_teams(s, name, where)
            else:
                known = ["current", *sym.global_vars, *sym.player_vars]
                self.fail(where, f"unknown variable '{name}'{did_you_mean(name, known)}")

    def _shared_by_teams(self, s, name, where):
        """A team variable's starting values: the same for the players of a team."""
        teams = self.program.teams[len(s.players)]
        for p, q in ((p, q) for p in s.players for q in s.players if p < q and teams[p] == teams[q]):
            if s.pvars[name][p] != s.pvars[name][q]:
                self.fail(where + (q,), f"'{name}' is a team variable: {s.names[p]} and {s.names[q]} play together, "
                                        f"so give them the same value")

    def _value(self, s, value, typ, where, compute=True):
        """A starting value: an expression, or a plain value checked against the variable's type
        (a plain text stays a text for a text variable)."""
        if isinstance(value, str) and typ == "string" and not _looks_like_expression(value):
            return value
        text = value if isinstance(value, str) else _as_expression(value)
        if text is None:
            self.fail(where, f"a starting value is an expression or a plain value, not {_kind_of(value)}")
        try:
            node = self.checker.check_whole(text, want=typ)
        except ExprError as e:
            raise RulesetError([self.src.problem(where, e.message, offset=e.offset if isinstance(value, str) else None,
                                                 end=e.end)]) from None
        if not compute:
            return None
        try:
            return self.closures.fn(node)(s, {})
        except Exception as e:
            if not rules_caused(e):
                raise
            raise RulesetError([self.src.problem(where, f"this starting value cannot be computed: {words(e)}")]) \
                from None

    # -- expectations -------------------------------------------------------------------
    def _expectations(self):
        """The compiled expectations; every problem of theirs at once (an 'after' no decision
        reaches, an expression that does not compile)."""
        checks, problems = [], []
        n = len(self.data.get("decisions") or [])
        for i, exp in enumerate(self.data["expect"]):
            when = exp.get("after", "end")
            if "at" in exp:
                key = _point_key(exp["at"])
                when = ("on", key, exp.get("nth", 1)) if key is not None else "end"
                if "after" in exp:
                    problems.append(self.src.problem(("expect", i, "after"), "an expectation is checked 'after' a "
                                                                             "number of decisions or 'at' a point "
                                                                             "of the flow, not both", key=True))
            elif "nth" in exp:
                problems.append(self.src.problem(("expect", i, "nth"), "'nth' counts the times the flow comes to "
                                                                       "the point of 'at'; give 'at'", key=True))
            elif when != "end" and (not isinstance(when, int) or isinstance(when, bool)):
                hint = f" (a point of the flow: at: {when})" if isinstance(when, str) and when in self.program.points \
                    else ""
                problems.append(self.src.problem(("expect", i, "after"), f"'after' is a number of decisions, or "
                                                                         f"'end'{hint}"))
            elif when != "end" and not 0 <= when <= n:
                problems.append(self.src.problem(
                    ("expect", i, "after"), f"'after: {when}' is never reached: the scenario makes {n} "
                                            f"decision{'' if n == 1 else 's'}, so 'after' is 0 to {n}, or 'end'"))
            compiled = []
            for j, text in enumerate(exp.get("that") or []):
                try:
                    node = self.asserts.check_whole(text, self._result_names(), want="bool")
                except ExprError as e:
                    problems.append(self.src.problem(("expect", i, "that", j), e.message,
                                                     offset=e.offset if isinstance(text, str) else None, end=e.end))
                    continue
                compiled.append((j, text, self.closures.fn(node), self._sides(node)))
            checks.append((i, when, exp, compiled))
        return checks, problems

    def _sides(self, node) -> list:
        """(text, fn, type) of each side of a comparison that is not a constant: a failed
        expectation says what they were ('total == 84 (total is 85)')."""
        if not isinstance(node, (expr_ir.Compare, expr_ir.Member)):
            return []
        return [(side.text, self.closures.fn(side), side.type) for side in (node.a, node.b) if not side.is_const]

    def _values_of(self, sides, result) -> str:
        shown = []
        for text, fn, typ in sides:
            try:
                shown.append(f"{text} is {_value_text(self.s, fn(self.s, result), typ, self.program.deck.display)}")
            except Exception as e:
                if not rules_caused(e):
                    raise
                shown.append(f"{text}: {words(e)}")
        return f" ({'; '.join(shown)})" if shown else ""

    def _result_names(self) -> dict:
        """The names of the result an expectation may read once the game is over: `winners`
        and `scores` (each player's), unless the ruleset has a variable of that name."""
        sym = self.program.symbols
        names = {"winners": "list[player]", "scores": "list[number]"}
        return {k: t for k, t in names.items() if k not in sym.global_vars and k not in sym.functions}

    def _result_values(self) -> dict:
        """The values of _result_names: the game's result when it is over; before, reading
        one is an error that says so."""
        if self.s.over and self.s.result:
            return {"winners": list(self.s.result["winners"]), "scores": list(self.s.result["scores"] or [])}
        return _NotOver()

    def _check(self, checks, when):
        """The expectations checked `when`; the account a failure shows stops at the first
        that fails."""
        known = len(self.report.results)
        self._check_each(checks, when)
        if self.cut is None and not all(ok for ok, _ in self.report.results[known:]):
            self.cut = len(self._lines())

    def _check_each(self, checks, when):
        for i, at, exp, compiled in checks:
            if at != when:
                continue
            self.checked.add(i)
            def at(key, message, i=i):
                return self.at(("expect", i) + key, message)
            point = _when_text(when)
            result = self._result_values()
            for j, text, fn, sides in compiled:
                try:
                    ok = bool(fn(self.s, result))
                    detail = "" if ok else self._values_of(sides, result)
                except Exception as e:
                    if not rules_caused(e):
                        raise
                    ok, detail = False, f" (error: {words(e)})"
                self.report.results.append((ok, at(("that", j), f"{point}: {text}{detail}")))
            if "winners" in exp:
                got = [w + 1 for w in self.s.result["winners"]] if self.s.over and self.s.result else None
                ok = got is not None and sorted(got) == sorted(exp["winners"])
                shown = (f"the winners are {_seats(exp['winners'])}" if ok else
                         "the game is not over: no one has won yet" if got is None else
                         f"the winners are {_seats(got)}, expected {_seats(exp['winners'])}")
                self.report.results.append((ok, at(("winners",), f"{point}: {shown}")))
            if "legal" in exp:
                got = labels(self.program, self.s)
                ok = sorted(got) == sorted(exp["legal"])
                shown = f"legal moves {exp['legal']}" if ok else f"legal moves are {got}, expected {exp['legal']}"
                self.report.results.append((ok, at(("legal",), f"{point}: {shown}")))
            if "deciding" in exp:
                got = self.s.pending[0] + 1 if self.s.pending else None
                ok = got == exp["deciding"]
                shown = f"Player {got} decides" + ("" if ok else f", expected Player {exp['deciding']}")
                self.report.results.append((ok, at(("deciding",), f"{point}: {shown}")))
            if "over" in exp:
                self.report.results.append((self.s.over == exp["over"], at(("over",), f"{point}: the game is "
                                                                   f"{'over' if self.s.over else 'not over'}")))
            account = "\n".join(self._texts())
            for k, text in enumerate(exp.get("log") or []):
                ok = text in account
                self.report.results.append((ok, at(("log", k), f"{point}: the account "
                                                               f"{'says' if ok else 'lacks'} '{text}'")))
            for k, text in enumerate(exp.get("not_log") or []):
                ok = text not in account
                self.report.results.append((ok, at(("not_log", k), f"{point}: the account "
                                                                   f"{'does not say' if ok else 'says'} '{text}'")))
            if exp.get("log_order"):
                self.report.results.append(self._in_order(account, exp["log_order"], at, point))
            if "journal" in exp:
                lines = self._journal_lines()
                for k, text in enumerate(exp["journal"]):
                    ok = any(text in line for line in lines)
                    shown = (f"the journal notes '{text}'" if ok else
                             f"the journal does not note '{text}'; it holds: " + ("; ".join(lines) or "nothing"))
                    self.report.results.append((ok, at(("journal", k), f"{point}: {shown}")))


    def _journal_lines(self) -> list[str]:
        """The journal (the register of moves and swaps a ruleset notes to undo them) as
        lines: 'swap hand of Player 2 and hand of Player 4', 'move 7♠ from hand of Player 1 to bag'."""
        display = self.program.deck.display

        def zone(ref):
            name, owner = ref
            label = self.program.zones[name].label or name
            return label if owner is None else f"{label} of {self.s.names[owner]}"
        lines = []
        for entry in self.s.journal:
            if entry[0] == "swap":
                lines.append(f"swap {zone(entry[1])} and {zone(entry[2])}")
            elif entry[0] == "move":
                cards = " ".join(display[c] for c in entry[1])
                lines.append(f"move {cards} from {zone(entry[2])} to {zone(entry[3])}")
        return lines

    def _in_order(self, account: str, texts: list, at, point: str) -> tuple:
        """Whether the account says each text, each after the one before."""
        start = 0
        for k, text in enumerate(texts):
            found = account.find(text, start)
            if found < 0:
                said = f"the account says '{text}' only before '{texts[k - 1]}'" if text in account else \
                    f"the account lacks '{text}'"
                return False, at(("log_order", k), f"{point}: {said}")
            start = found + len(text)
        return True, at(("log_order",), f"{point}: the account says, in this order: "
                                        + ", ".join(f"'{x}'" for x in texts))


POSITION_MARK = "-- the scenario sets the position here --"


def _point_key(point):
    """The key of Program.points for a point as a scenario names it: a name, or
    ("before", id) / ("after", id) for {before: id} / {after: id}; None for neither."""
    if isinstance(point, str):
        return point
    if isinstance(point, dict) and len(point) == 1:
        (side, sid), = point.items()
        if side in ("before", "after") and isinstance(sid, str):
            return side, sid
    return None


def _point_text(key) -> str:
    """A point of the flow in a report line: 'turn_end', 'before step 'reveal''."""
    return f"{key[0]} step '{key[1]}'" if isinstance(key, tuple) else str(key)


def _when_text(when) -> str:
    """When an expectation is checked, in a report line: 'at the end', 'after 2 decision(s)',
    'on turn_end (time 3)', 'after step 'reveal''."""
    if when == "end":
        return "at the end"
    if isinstance(when, tuple):
        _, key, n = when
        return ("" if isinstance(key, tuple) else "at ") + _point_text(key) + (f" (the {_nth(n)} time)" if n != 1 else "")
    return f"after {when} decision(s)"


class _NotOver(dict):
    """The locals of an expectation before the game is over: reading the result is an error."""

    def __missing__(self, name):
        raise RulesFault(f"'{name}' is known only once the game is over")


def _shown_zone(content) -> str:
    """A zone as a scenario gave it: its cards, or its top and bottom."""
    if isinstance(content, dict):
        return "; ".join(f"{k}: {' '.join(map(str, content[k])) or '—'}" for k in ("top", "bottom") if k in content)
    return " ".join(map(str, content)) or "—"


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _value_text(s, value, typ, display) -> str:
    """A value in a report line: texts quoted, lists in brackets, null as null."""
    if value is None:
        return "null"
    if value == []:
        return "[]"
    if typ == STR:
        return repr(value)
    shown = shower(typ, display)(s, value)
    return f"[{shown}]" if isinstance(value, list) else shown


def _seats(seats) -> str:
    return ", ".join(f"Player {s}" for s in seats) if seats else "no one"


def _fill(holes, cards):
    """Each place left in a zone (a None, one per entry of `holes`) takes the next of `cards`
    (taken from the list); places left over close up."""
    for zone in holes:
        at = zone.index(None)
        if cards:
            zone[at] = cards.pop(0)
        else:
            zone.pop(at)


def _zone_holding(s, card):
    for z in s.zones.values():
        if z and isinstance(z[0], list):
            for part in z:
                if card in part:
                    return part
        elif card in z:
            return z
    raise RulesFault("a card is in no zone")


def _as_expression(value):
    """A plain YAML value (number, true/false, null, a list of those or of texts) as an expression."""
    if value is None or isinstance(value, (bool, int, float)):
        return json.dumps(value)
    if isinstance(value, list):
        items = [_as_expression(v) if not isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in value]
        return None if None in items else "[" + ", ".join(items) + "]"
    return None


def _kind_of(value) -> str:
    return {dict: "a mapping", list: "a list of lists or mappings"}.get(type(value), type(value).__name__)


def _looks_like_expression(text: str) -> bool:
    return text.startswith("'") or text.startswith('"')
