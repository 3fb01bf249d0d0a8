"""Stage 2b: check a loaded ruleset's names, types and steps, into the typed form of
lang/ir.py.  Every problem is reported (RulesetError lists them all); no run-time code
is made here: expressions are checked into lang/expr_ir.py nodes (see expr_seam.py).

After a schema error the checker still looks at the rest, so that a file shows every
problem at once: `skip` holds the paths the schema found wrong, and the checker leaves
them (and whatever else has the wrong shape) alone.
"""
from __future__ import annotations

import os
from dataclasses import replace

from ..errors import WARNING, Problem, RulesetError, UsageError, did_you_mean
from ..lang import ir
from ..lang.types import ANY, BOOL, CARD, NULL, NUM, PLAYER, STR, a_, is_map, list_of, type_of_value
from ..messages import msg
from ..limits import DEFAULT_MAX_STEPS
from .options import allowed, choice_key, of_type, option_values, player_range, resolve_options, within
from ..source.loader import PROSE, FileRefused, Source, is_prose, read_prose
from ..source.shipped import shipped_docs
from .deck import build_deck, localize
from .expr_seam import ExprSeam, constant, stand_in, stand_in_text, symbols
from .phases import declare, flow_round, flow_until, phases_of
from .steps import StepChecker

BUILTIN_EVENTS = ("round_start", "round_end", "turn_start", "turn_end")


def check_ruleset(data: dict, source: Source, options: dict | None = None, lang: str | None = None,
                  skip: frozenset = frozenset()) -> ir.Ruleset:
    """The checked form of loaded ruleset data; raise RulesetError listing every problem,
    or UsageError for options or a language the ruleset does not have."""
    return _Checker(data, source, skip).ruleset(options or {}, lang)


def _mapping(value) -> dict:
    return value if isinstance(value, dict) else {}


class _Checker:
    def __init__(self, data, source: Source, skip):
        self.data = data
        self.src = source
        self.skip = skip
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []   # what the checker cannot prove (check/nulls.py): the ruleset loads
        self.step_ids: dict = {}         # a step's id -> its node (where a scenario may stop the rules)

    # -- reporting ------------------------------------------------------------
    def report(self, path, message, offset=None, key=False):
        self.problems.append(self.src.problem(tuple(path), message, key=key, offset=offset))

    def warn(self, path, message, offset=None, end=None, hint=None):
        problem = self.src.problem(tuple(path), message, offset=offset, end=end, hint=hint)
        self.warnings.append(replace(problem, severity=WARNING))

    def skipped(self, path) -> bool:
        """Whether the schema found the value at `path` wrong."""
        return path in self.skip

    def clean(self, path) -> bool:
        """Whether the schema found nothing wrong at `path` or inside it."""
        n = len(path)
        return not any(p[:n] == path for p in self.skip)

    def _stop(self):
        return RulesetError(self.problems + self.warnings, first=self.src.file)

    # -- what steps use: expressions and texts ---------------------------------
    def expr(self, text, path, scope=None, want=None, in_text=False, condition=False):
        if self.skipped(path):
            return stand_in(want)
        return self.seam.expr(text, path, scope, want, in_text, condition)

    def template(self, text, path, scope) -> ir.Text:
        if not self.clean(path):
            return ir.Text(path, "", stand_in_text())
        if _said(text):
            return self._said(text, path, scope)
        return self._each_language(text, path, lambda version, at: ir.Text(
            path, version, self.seam.template(version, at, scope)))

    def _each_language(self, value, path, check):
        """`check(text, path)` of each language's version of a text at `path` (each at its own
        path, so that a mistake in any language is found, at its place), the chosen
        language's first; what it gives for the chosen one."""
        if not isinstance(value, dict):
            return check(str(value), path)
        picked = self._language_in(value)
        chosen = check(str(value[picked]), path + (picked,))
        for code, version in value.items():
            if code != picked:
                check(str(version), path + (code,))
        return chosen

    def _said(self, value, path, scope) -> ir.Text:
        """`{say: KEY, with: {NAME: EXPR}}`: the catalogue's text KEY in the chosen language,
        its names the values given (each computed once, whatever the language says)."""
        key = value["say"]
        given = value.get("with") or {}
        if not isinstance(key, str) or not isinstance(given, dict):     # (read as a text per language)
            if not isinstance(key, str):
                self.report(path + ("say",), "'say' names a text of the ruleset's texts by its key")
            else:
                self.report(path + ("with",), "'with' gives each name of the text its value: {NAME: expression}")
            return ir.Text(path, "", stand_in_text())
        binds, inner = [], dict(scope)
        for name, expr in given.items():
            node = self.expr(expr, path + ("with", name), scope)
            binds.append((name, node))
            inner[name] = node.type
        if key not in self.texts:
            if not self._misshapen_text(key):
                self.report(path + ("say",), f"no text '{key}' in the ruleset's texts{did_you_mean(key, self.texts)}")
            return ir.Text(path, "", stand_in_text())
        return self._each_language(self.texts[key], ("texts", key), lambda text, at: ir.Text(
            path, text, self.seam.template(text, at, inner), tuple(binds)))

    def _misshapen_text(self, key) -> bool:
        """Whether the text KEY is one the schema found wrong (and said so where it is
        written), or all texts are: its uses add no problem."""
        texts = self.data.get("texts")
        return key in texts if isinstance(texts, dict) else texts is not None

    def _language_in(self, entry: dict) -> str:
        """The key of the text `localize` picks from a text per language."""
        for code in (self.lang, *self.languages):
            if code in entry:
                return code
        return next(iter(entry))

    def localized(self, value, path, default=None) -> str:
        """The text of `value` (at `path`) in the chosen language; `default` where the schema
        found it wrong.  A text of the catalogue (`say`) is taken as it is written there."""
        if _said(value) and self.clean(path):
            if value["say"] not in self.texts:
                if not self._misshapen_text(value["say"]):
                    self.report(path + ("say",), f"no text '{value['say']}' in the ruleset's texts"
                                                 f"{did_you_mean(value['say'], self.texts)}")
                return str(default or "")
            value = self.texts[value["say"]]
        return str(localize(value if self.clean(path) else default, self.lang, self.languages))

    # -- the whole ruleset ------------------------------------------------------
    def ruleset(self, overrides: dict, lang) -> ir.Ruleset:
        d = self.data
        if not isinstance(d, dict) or self.skipped(()):
            raise self._stop()          # not a ruleset at all: the schema says why
        self._check_options()
        options = resolve_options({"name": d.get("name"), "options": self._option_specs()}, overrides)
        self.languages = languages = self._languages()
        self.texts = {k: v for k, v in _mapping(d.get("texts")).items() if self.clean(("texts", k))}
        self.lang = lang = lang or languages[0]
        if lang not in languages:
            raise UsageError(f"{d.get('name')} has no language '{lang}'; choose one of: {', '.join(languages)}")
        values = option_values(self._option_specs())
        misshapen = frozenset(_mapping(d.get("options"))) - set(self._option_specs())
        deck = build_deck(d["deck"], lang, languages, options, self.report, values, misshapen) \
            if self.clean(("deck",)) else None
        if deck is None:
            raise self._stop()
        self.zones = zones = self._zones()
        if d["deck"]["zone"] not in zones:
            self.report(("deck", "zone"), f"unknown zone '{d['deck']['zone']}'{did_you_mean(d['deck']['zone'], zones)}")
        misshapen_zones = {n for n in zones if not self.clean(("zones", n))}    # of either kind: said once
        self.sym = symbols(options, deck.attrs, tuple(range(len(deck.ids))),
                           {n for n, z in zones.items() if not z.per_player and not z.piles} | misshapen_zones,
                           {n for n, z in zones.items() if z.per_player} | misshapen_zones, values)
        self.sym.pile_zones = {n for n, z in zones.items() if z.piles}
        if d["deck"]["zone"] in self.sym.pile_zones:
            self.report(("deck", "zone"), f"the cards cannot start in '{d['deck']['zone']}': it is a zone of piles, "
                                          "and its piles are made during play (new_pile)")
        self.sym.misshapen_options = misshapen
        if self.clean(("players",)):
            self.sym.seats = player_range(d)[0]
        self.seam = ExprSeam(self.sym, self.report, self.warn)
        teams, team_names = self._teams()
        if "teams" in d:                # declared: p.team and p.partners may be read (a faulty one said once)
            self.sym.teams = dict(teams)
        variables = self._variables("variables", self.sym.global_vars)
        player_variables = self._variables("player_variables", self.sym.player_vars)
        team_variables = self._variables("team_variables", self.sym.player_vars)
        if team_variables and "teams" not in d:
            self.report(("team_variables",), "team variables are shared by the players of a team: declare "
                                             "the teams (teams: {of: ...})", key=True)
        self.sym.team_vars = set(team_variables)
        player_variables.update(team_variables)
        self.phases = phases_of(d.get("flow")) if self.clean(("flow",)) else {}
        if self.phases:
            declare(self, self.phases, variables)
        functions = self._functions()
        self.seam.define_functions(functions)
        self.seam.define_misshapen(n for n in _mapping(d.get("functions")) if n not in functions)
        self.events = self._events()
        self.procedures = self._procedure_params()
        flow, procedures, triggers = self._flow()
        result = self._result()
        statistics = self._statistics()
        rules_text, rules_path = self._rules_text()
        guide = self._guide()
        facts = self._facts(options)
        table = self._table()
        seat_names = self._seat_names()
        self.seam.finish()
        if self.problems or self.skip:
            raise self._stop()          # a ruleset the schema found wrong is never built
        return ir.Ruleset(
            name=d["name"], title=self.localized(d.get("title", d["name"]), ("title",)),
            file=self.src.file, lines=self.src.lines, at=self.src.at, lang=lang, languages=languages,
            options=options, option_specs=self._shown_option_specs(), players=player_range(d), deck=deck,
            start_zone=d["deck"]["zone"], zones=zones, variables=variables, player_variables=player_variables,
            symbols=self.sym, events=self.events, flow=flow, procedures=procedures, triggers=triggers,
            result=result, statistics=statistics, real=getattr(self.src, "real", None), rules_text=rules_text, rules_path=rules_path,
            facts=facts, table=table, step_ids=self.step_ids, guide=guide, warnings=tuple(sorted(set(self.warnings))),
            procedure_params=tuple((p, k, typ) for p, params in self.procedures.items() for k, typ in params.items()),
            round_name=self.localized(d.get("round_name"), ("round_name",)) if d.get("round_name") else "",
            seat_names=seat_names, teams=teams, team_names=team_names)

    def _seat_names(self) -> tuple:
        """Each seat's name in the chosen language, by `player_name` (its text in every
        language checked, for every seat the ruleset allows), made before any game."""
        value, path = self.data.get("player_name"), ("player_name",)
        seats = player_range(self.data)[1] if self.clean(("players",)) else 1
        if value is None or not self.clean(path):
            return tuple(msg(self.lang, "player", seat=seat) for seat in range(1, seats + 1))
        if _said(value):
            if value["say"] not in self.texts:
                self.localized(value, path)         # which says that it is not there
                return ()
            value, path = self.texts[value["say"]], ("texts", value["say"])
        return self._each_language(value, path, lambda text, at: self.seam.seat_names(text, at, seats))

    def _teams(self) -> tuple:
        """(each seat's team for each number of players, each team's name in the chosen
        language or () for the default: its players' names), by `teams`, made before any game."""
        spec = self.data.get("teams")
        if not isinstance(spec, dict) or not self.clean(("teams",)) or not self.clean(("players",)):
            return (), ()
        lo, hi, _ = player_range(self.data)
        teams = self.seam.team_numbers(spec.get("of"), ("teams", "of"), lo, hi)
        value, path = spec.get("name"), ("teams", "name")
        if not teams or value is None:
            return teams, ()
        if _said(value):
            if value["say"] not in self.texts:
                self.localized(value, path)         # which says that it is not there
                return teams, ()
            value, path = self.texts[value["say"]], ("texts", value["say"])
        most = max(max(row) for _, row in teams)
        return teams, self._each_language(value, path, lambda text, at: self.seam.team_names(text, at, most))

    def _option_specs(self) -> dict:
        """The options declared as mappings."""
        return {name: spec for name, spec in _mapping(self.data.get("options")).items() if isinstance(spec, dict)}

    def _check_free_option(self, name, spec, kind):
        """An option with a type: its min and max, default and listed choices agree with it."""
        lo, hi = spec.get("min"), spec.get("max")
        if any(v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))) for v in (lo, hi)):
            return                      # the schema has said that min and max are numbers
        if kind == "boolean" and (lo is not None or hi is not None):
            self.report(("options", name, "type"), f"option '{name}' is true or false: it has no min or max")
        elif lo is not None and hi is not None and lo > hi:
            self.report(("options", name, "min"), f"option '{name}': min {lo} is above max {hi}")
        values = [("default", spec.get("default"))] + [(("choices", i), c) for i, c in enumerate(spec.get("choices", []))]
        for where, value in values:
            path = ("options", name) + (where if isinstance(where, tuple) else (where,))
            if not of_type(kind, value) or not within(spec, value):
                self.report(path, f"{value!r} is not {allowed(spec)}, as option '{name}' asks")

    def _check_options(self):
        for name, spec in self._option_specs().items():
            if not isinstance(spec.get("choices", []), list) or not isinstance(spec.get("explain", {}) or {}, dict):
                continue                # the schema has said what is wrong with it
            kind = spec.get("type")
            if kind is not None:
                self._check_free_option(name, spec, kind)
            elif spec.get("default") not in spec.get("choices", []):
                self.report(("options", name, "default"),
                            f"default {spec.get('default')!r} of option '{name}' is not one of its choices")
            for part in ("explain", "at_table"):
                for key in spec.get(part, {}) or {}:
                    if choice_key(key) not in [choice_key(c) for c in spec.get("choices", [])]:
                        self.report(("options", name, part, key), f"'{key}' is not a choice of option '{name}'",
                                    key=True)
        p = self.data.get("players")
        if isinstance(p, dict) and self.clean(("players",)):
            lo, hi = p["min"], p["max"]
            if lo > hi or not lo <= p.get("default", lo) <= hi:
                self.report(("players",), "players: need min <= default <= max")

    def _languages(self) -> list:
        languages = self.data.get("languages")
        return languages if languages and isinstance(languages, list) and self.clean(("languages",)) else ["en"]

    def _zones(self) -> dict:
        zones = {}
        for name, spec in _mapping(self.data.get("zones")).items():
            spec = _mapping(spec)
            piles = bool(spec.get("piles"))
            if piles and spec.get("per_player"):
                self.report(("zones", name, "piles"), "a zone of piles is shared: give each pile its owner where "
                                                      "it is made (new_pile: {zone: ..., owner: current, as: ...})",
                            key=True)
            zones[name] = ir.Zone(name, bool(spec.get("per_player")) and not piles, spec.get("visibility", "hidden"),
                                  self.localized(spec.get("label", name), ("zones", name, "label"), name), piles)
        return zones

    def _variables(self, section, types: dict) -> dict:
        """name -> ir.Variable of one section; `types` (the names' table) gets their types."""
        decls = _mapping(self.data.get(section))
        initial, shown, visibility = {}, {}, {}
        for name, decl in decls.items():
            if name in types or name in self.zones:
                self.report((section, name), f"'{name}' is already the name of a zone or variable", key=True)
            if isinstance(decl, dict):
                if decl.get("show"):
                    shown[name] = self.localized(decl.get("label", name), (section, name, "label"), name)
                declared = decl.get("type") if isinstance(decl.get("type"), str) else None
                types[name] = declared or type_of_value(decl.get("initial"))
                if types[name] == NULL:
                    self.report((section, name), f"variable '{name}' starts as null: give its type", key=True)
                initial[name] = decl.get("initial", {} if is_map(types[name]) else None)    # a map: {}
            else:
                types[name] = type_of_value(decl)
                initial[name] = decl
            if not self.clean((section, name)):
                types[name] = ANY       # its type unknown (the schema has said why): its uses add no problem
            visibility[name] = self._visibility(section, name, decl, types[name])
        variables = {}
        order = list(initial)
        for name, value in initial.items():
            path = (section, name, "initial") if isinstance(decls[name], dict) else (section, name)
            scope = {"p": PLAYER} if section != "variables" else {}
            if not isinstance(value, str) and value is not None and not _fits(value, types[name]):
                self.report(path, f"'{name}' is {a_(types[name])}, but its initial value {value!r} is "
                                  f"{a_(type_of_value(value))}: write an expression in quotes, or another type")
            node = self.expr(value, path, scope, types[name]) if isinstance(value, str) and types[name] != STR \
                else constant(types[name], value)
            for read in _variables_read(node, section):
                if read in order and order.index(read) >= order.index(name):
                    self.report(path, f"the initial value of '{name}' reads '{read}', which is set after it "
                                      f"(initial values are set in the order written): declare '{read}' above '{name}'")
            variables[name] = ir.Variable(name, types[name], node, visibility[name], shown.get(name))
        return variables

    def _visibility(self, section, name, decl, typ) -> str:
        """Who sees a variable: declared, or derived from the cards it holds ('cards': a seat
        sees each card only where it could see the card itself)."""
        declared = decl.get("visibility") if isinstance(decl, dict) else None
        if declared == "owner" and section == "variables":
            self.report((section, name, "visibility"), "only a player variable has an owner: "
                                                        "use public or hidden")
        if declared is not None:
            return declared
        return "cards" if typ in (CARD, list_of(CARD)) else "public"

    def _functions(self) -> dict:
        """The declared functions whose shape allows a look at their body."""
        return {name: spec for name, spec in _mapping(self.data.get("functions")).items()
                if isinstance(spec, dict) and "expr" in spec and self.clean(("functions", name, "params"))}

    def _procedure_params(self) -> dict:
        """name -> {parameter: type} of each procedure (empty for a plain list of steps)."""
        out = {}
        for name, spec in _mapping(self.data.get("procedures")).items():
            params = _mapping(spec.get("params")) if isinstance(spec, dict) else {}
            out[name] = {}
            for k, typ in params.items():
                if typ not in VALUE_TYPES:
                    self.report(("procedures", name, "params", k), f"'{typ}' is not a type a parameter can have: "
                                f"one of {', '.join(VALUE_TYPES)}{did_you_mean(typ, VALUE_TYPES)}")
                out[name][k] = typ if typ in VALUE_TYPES else ANY
        return out

    def _events(self) -> dict:
        """event -> {name: type} of what it carries; `misshapen_events`: those the schema
        refused (what they carry unknown: the steps that raise them, and their triggers, are
        left unchecked rather than reported against a guess)."""
        events = {name: {} for name in BUILTIN_EVENTS}
        self.misshapen_events = {n for n in _mapping(self.data.get("events")) if not self.clean(("events", n))}
        for name, spec in _mapping(self.data.get("events")).items():
            carried = _mapping(_mapping(spec).get("with", {}))
            events[name] = {k: typ if isinstance(typ, str) else ANY for k, typ in carried.items()}
        return events

    # -- flow, procedures and triggers --------------------------------------------
    def _flow(self):
        """(flow, procedures, triggers), checked in the order their problems are listed."""
        steps = StepChecker(self).steps
        triggers_on = self._triggers_on()
        flow = _mapping(self.data.get("flow"))
        setup = steps(flow.get("setup") or [], ("flow", "setup"), {})
        round_ = steps(flow.get("round") or [], ("flow", "round"), {})
        if self.phases:
            if "until" in flow:
                self.report(("flow", "until"), "with phases, each phase's 'until' says when it ends, and the game "
                                               "ends with the last: leave out the flow's 'until'", key=True)
            round_ = flow_round(self, steps, self.phases, round_)
            until = flow_until(self)
        else:
            until = self.expr(flow.get("until", True), ("flow", "until"), {}, BOOL, condition=True)
        end = steps(flow.get("end") or [], ("flow", "end"), {})
        procedures = {name: steps(*_procedure_body(body, name), dict(self.procedures[name]))
                      for name, body in _mapping(self.data.get("procedures")).items()}
        triggers = {}
        for name, found in triggers_on.items():
            triggers[name] = []
            for i, t in found if name not in self.misshapen_events else ():
                scope = dict(self.events[name])
                when = self.expr(t["when"], ("triggers", i, "when"), scope, BOOL, condition=True) \
                    if "when" in t else None
                with self.seam.facts(when or stand_in(), True):     # the body runs where `when` holds
                    body = steps(t.get("do"), ("triggers", i, "do"), scope)
                triggers[name].append(ir.Trigger(("triggers", i), when, body))
        max_steps = flow.get("max_steps", DEFAULT_MAX_STEPS)
        return ir.Flow(setup, round_, until, end, max_steps), procedures, triggers

    def _triggers_on(self) -> dict:
        """event -> [(index, trigger)], events in the order of their first trigger."""
        found = {}
        triggers = self.data.get("triggers") or []
        for i, t in enumerate(triggers if isinstance(triggers, list) else []):
            if not isinstance(t, dict) or self.skipped(("triggers", i)) or not isinstance(t.get("on"), str):
                continue
            if t["on"] not in self.events:
                self.report(("triggers", i, "on"), f"unknown event '{t['on']}'{did_you_mean(t['on'], self.events)}")
                continue
            found.setdefault(t["on"], []).append((i, t))
        return found

    def _facts(self, options: dict) -> tuple:
        """The standing facts of the options in force (their `at_table` texts), in declared order."""
        facts = []
        for name, spec in self._option_specs().items():
            texts = {choice_key(k): (k, v) for k, v in (spec.get("at_table") or {}).items()} \
                if isinstance(spec.get("at_table"), dict) else {}
            if choice_key(options.get(name)) in texts:
                key, text = texts[choice_key(options.get(name))]
                facts.append(self.localized(text, ("options", name, "at_table", key)))
        return tuple(facts)

    def _shown_option_specs(self) -> dict:
        """The options as declared, their description and explanations in the chosen language
        (what `interpret options`, `rules` and '?' show)."""
        out = {}
        for name, spec in (self.data.get("options", {}) or {}).items():
            if not isinstance(spec, dict):
                out[name] = spec
                continue
            path = ("options", name)
            shown = dict(spec, description=self.localized(spec.get("description", ""), path + ("description",), ""))
            if isinstance(spec.get("explain"), dict):
                shown["explain"] = {k: self.localized(v, path + ("explain", k), "") for k, v in spec["explain"].items()}
            out[name] = shown
        return out

    def _guide(self) -> dict:
        """What a player reads of the game besides the options, in the chosen language (English,
        or the first language, where a text lacks it): the description and how_to_play's play,
        goal and rules; and where the designer notes lie (notes_file, named, never read)."""
        d = self.data
        guide = {"description": self.localized(d["description"], ("description",), "") if d.get("description") else ""}
        how = d.get("how_to_play") if self.clean(("how_to_play",)) else None
        for part in ("play", "goal", "rules"):
            value = how.get(part) if isinstance(how, dict) else None
            guide[part] = self.localized(value, ("how_to_play", part), "") if value is not None else ""
        guide["notes"] = self._notes_path(d["notes_file"]) if isinstance(d.get("notes_file"), str) else ""
        return guide

    def _notes_path(self, name: str) -> str:
        """Where the designer notes lie, as a reader finds them from here: relative to the file
        that names them (an overlay's base names its own), shown from the current folder
        where that is shorter."""
        line = self.src.at(("notes_file",))[0]
        origin = self.src.real(line)[0] if hasattr(self.src, "real") else self.src.file
        path = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(origin)), name))
        try:
            near = os.path.relpath(path)
        except ValueError:              # another drive
            return path
        return near if not near.startswith("..") else path

    def _rules_text(self) -> tuple[str, str]:
        """The prose of `rules_file` in the chosen language, found relative to the file that
        names it (an overlay's base names its own), else among the docs that ship with the
        package (a ruleset copied elsewhere still has its rules); read within the limits of
        any input file.  Rules that cannot be found are a note, not a problem: the game plays.
        The path it was read from comes second: no output may replace it."""
        if "rules_file" not in self.data or not self.clean(("rules_file",)):
            return "", ""
        name = str(self.localized(self.data["rules_file"], ("rules_file",)))
        line = self.src.at(("rules_file",))[0]
        origin = self.src.real(line)[0] if hasattr(self.src, "real") else self.src.file
        if not is_prose(name):
            return f"(the rules file '{name}' is not shown: it is not a Markdown or text file ({', '.join(PROSE)}))", ""
        for path in [os.path.join(os.path.dirname(os.path.abspath(origin)), name)] + shipped_docs(name):
            try:
                return read_prose(path), path
            except (FileRefused, RulesetError):
                continue
        return f"(the rules file '{name}' cannot be found from {origin})", ""

    def _table(self) -> tuple:
        """The table section: values shown to every seat, each a number, true/false or a text."""
        out = []
        for name, spec in _mapping(self.data.get("table")).items():
            path = ("table", name)
            if not isinstance(spec, dict) or self.skipped(path):
                continue                # the schema has said what is wrong with it
            if ("value" in spec) == ("per_player" in spec):
                self.report(path, f"table value '{name}' needs one of value (for the table) or per_player "
                                  "(for each player p)", key=True)
                continue
            if name in self.sym.global_vars or name in self.sym.player_vars:
                self.report(path, f"'{name}' is already the name of a variable: give the table value another",
                            key=True)
            per_player = "per_player" in spec
            key = "per_player" if per_player else "value"
            node = self.expr(spec[key], path + (key,), {"p": PLAYER} if per_player else {})
            if self.clean(path + (key,)) and node.type not in (NUM, BOOL, STR, PLAYER, NULL, ANY):
                self.report(path + (key,), f"the table shows a number, true/false, a text or a player, "
                                           f"but this is {a_(node.type)}")
            label = self.localized(spec.get("label", name), path + ("label",), name)
            out.append(ir.TableValue(name, node, per_player, label))
        return tuple(out)

    def _statistics(self) -> tuple:
        """The statistics section: each value a number or true/false, with no local names
        (it is computed on the state alone, when the game or a round is over)."""
        out = []
        for name, spec in _mapping(self.data.get("statistics")).items():
            path = ("statistics", name)
            if not isinstance(spec, dict) or "value" not in spec or self.skipped(path):
                continue                # the schema has said what is wrong with it
            node = self.expr(spec["value"], path + ("value",), {})
            if self.clean(path + ("value",)) and node.type not in (NUM, BOOL, NULL, ANY):
                self.report(path + ("value",), f"a statistic is a number or true/false, but this is {a_(node.type)}")
            label = self.localized(spec.get("label", name), path + ("label",), name)
            out.append(ir.Statistic(name, node, spec.get("per", "game"), label))
        return tuple(out)

    def _result(self) -> ir.Result | None:
        r = self.data.get("result")
        if not isinstance(r, dict) or "winners" not in r:
            return None                 # the schema has said what is wrong with it
        winners = self.expr(r["winners"], ("result", "winners"), {}, list_of(PLAYER))
        score = self.expr(r["score"], ("result", "score"), {"p": PLAYER}, NUM) if "score" in r else None
        standing = self.expr(r["standing"], ("result", "standing"), {"p": PLAYER}, NUM) if "standing" in r else None
        return ir.Result(winners, score, standing)


def _variables_read(node, section: str) -> set:
    """The names of the variables of `section` an expression reads (global ones for
    'variables', player ones for 'player_variables')."""
    want = "GlobalVar" if section == "variables" else "PlayerVar"      # (team variables are player variables)
    found, stack = set(), [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if not hasattr(n, "__dataclass_fields__") or not hasattr(n, "is_const"):
            continue
        if type(n).__name__ == want:
            found.add(n.name)
        stack.extend(getattr(n, f) for f in n.__dataclass_fields__ if f not in ("type", "tree", "const", "maybe_null"))
    return found


def _fits(value, typ: str) -> bool:
    """Whether a value written in YAML (not an expression) has the declared type."""
    got = type_of_value(value)
    if isinstance(value, dict) and typ.startswith("map["):     # {} or {C: 0, D: 0}: texts to values of its type
        return all(isinstance(k, str) and _fits(v, typ[4:-1]) for k, v in value.items())
    return got == typ or (isinstance(value, list) and not value and typ.startswith("list["))


VALUE_TYPES = ("number", "bool", "string", "card", "player", "list[card]", "list[player]", "list[number]",
               "list[string]", "map[number]", "map[string]", "map[player]", "map[bool]")


def _procedure_body(spec, name):
    """(steps, path) of a procedure: a list of steps, or the `do` of one with parameters."""
    if isinstance(spec, dict):
        return spec.get("do"), ("procedures", name, "do")
    return spec, ("procedures", name)


def _said(value) -> bool:
    """Whether a text is `{say: KEY, ...}`, a text of the ruleset's catalogue."""
    return isinstance(value, dict) and "say" in value
