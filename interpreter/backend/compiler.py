"""Stage 3: compile a checked ruleset into a Program the engine runs.

Every expression is checked (check/expressions) and becomes a closure (backend/expressions),
every list of steps becomes
instructions of a small virtual machine: closures `ins(state) -> next pc`, with
jumps resolved here.  Because the program counter, call frames and scopes live
in the state, a game can pause at any decision and be copied or resumed.
"""
from __future__ import annotations

from lark import Tree

from ..runtime import effects

from . import texts
from ..check import texts as text_check

from ..runtime import vm
from ..check.deck import build_deck, localize
from ..errors import Problem, RulesetError, UsageError, did_you_mean
from ..lang.syntax import ExprError, parse
from ..check.expressions import ExprChecker
from ..lang import expr_ir as ir
from ..lang.symbols import FunctionDef, Symbols
from ..lang.types import ANY, BOOL, CARD, NULL, NUM, PLAYER, STR, ZONE, elem_of, list_of, type_of_value
from ..lang.values import shower
from .expressions import Closures
from ..source.loader import Source
from ..messages import msg
from ..runtime.program import DEFAULT_MAX_STEPS, ChoiceSpec, Program, ZoneSpec, player_range, resolve_options

BUILTIN_EVENTS = ("round_start", "round_end", "turn_start", "turn_end")
EXITS = ("end_turn", "end_round", "end_game")
WORD_EFFECTS = ("refuse", "clear_journal", "undo_journal")


class _Code:
    """Instructions under construction: factories linked to closures once labels are placed."""

    def __init__(self):
        self.factories = []
        self.paths = []
        self.labels = {}
        self.batches = {}            # pc -> the path of each effect run by that instruction

    def emit(self, factory, path, effect_paths=None) -> int:
        self.factories.append(factory)
        self.paths.append(path)
        if effect_paths:
            self.batches[len(self.factories) - 1] = effect_paths
        return len(self.factories) - 1

    def label(self):
        return object()

    def place(self, label):
        self.labels[label] = len(self.factories)

    def link(self):
        def at(label):
            return self.labels[label]
        return [f(pc, at) for pc, f in enumerate(self.factories)]


def compile_ruleset(data: dict, source: Source, options: dict | None = None,
                    lang: str | None = None) -> Program:
    """Compile loaded ruleset data; raise RulesetError listing every problem found."""
    return _Compiler(data, source).program(options or {}, lang)


class _Compiler:
    def __init__(self, data: dict, source: Source):
        self.data = data
        self.src = source
        self.problems: list[Problem] = []

    # -- reporting ------------------------------------------------------------
    def report(self, path, message, offset=None, key=False):
        self.problems.append(self.src.problem(tuple(path), message, key=key, offset=offset))

    def expr(self, text, path, scope=None, want=None):
        """Check one expression and compile it (its node, with `.fn`); on error report it and
        return a harmless stand-in."""
        try:
            node = self.checker.check(text, scope, want)
        except ExprError as e:
            self.report(path, e.message, e.offset if isinstance(text, str) else None)
            node = ir.Missing(type=want or ANY)
        return self.built(node)

    def built(self, node):
        node.fn = self.closures.fn(node)
        return node

    # -- the whole program ------------------------------------------------------
    def program(self, overrides: dict, lang) -> Program:
        d = self.data
        self._check_options()
        options = resolve_options(d, overrides)
        languages = d.get("languages") or ["en"]
        lang = lang or languages[0]
        if lang not in languages:
            raise UsageError(f"{d.get('name')} has no language '{lang}'; choose one of: {', '.join(languages)}")
        self.lang, self.languages = lang, languages
        self.shown = []
        deck = build_deck(d["deck"], lang, languages, options, self.report)
        if deck is None:
            raise RulesetError(self.problems)
        zones = self._zones()
        if d["deck"]["zone"] not in zones:
            self.report(("deck", "zone"), f"unknown zone '{d['deck']['zone']}'{did_you_mean(d['deck']['zone'], zones)}")
        self.sym = Symbols(options=options, card_attrs=deck.attrs, all_cards=tuple(range(len(deck.ids))),
                           shared_zones={n for n, z in zones.items() if not z.per_player},
                           player_zones={n for n, z in zones.items() if z.per_player})
        self.checker = ExprChecker(self.sym)
        self.closures = Closures(self.sym)
        self.deck = deck
        self.zones = zones
        self.visibility = {"variables": {}, "player_variables": {}}
        self.card_locals, self.card_cursors, self.card_scopes = set(), set(), {}
        var_init = self._variables("variables", self.sym.global_vars)
        pvar_init = self._variables("player_variables", self.sym.player_vars)
        self._functions()
        self.events = self._events()
        self.choices: list[ChoiceSpec] = []
        code = self._flow()
        winners, score, standing = self._result()
        for name, e in self.checker.finish().items():
            self.report(("functions", name, "expr"), e.message, e.offset)
        if self.problems:
            raise RulesetError(self.problems)
        instructions = code.link()
        where = [self.src.at(p) for p in code.paths]
        effect_where = {pc: [self.src.at(p) for p in paths] for pc, paths in code.batches.items()}
        min_p, max_p, default_p = player_range(d)
        return Program(
            name=d["name"], title=str(localize(d.get("title", d["name"]), lang, languages)),
            file=self.src.file, lang=lang, languages=languages, options=options,
            option_specs=d.get("options", {}) or {}, players=(min_p, max_p, default_p), deck=deck,
            start_zone=d["deck"]["zone"], zones=zones, var_init=var_init, pvar_init=pvar_init,
            code=instructions, where=where, effect_where=effect_where, lines=self.src.lines, choices=self.choices, winners=winners, score=score,
            max_steps=d["flow"].get("max_steps", DEFAULT_MAX_STEPS), shown=self.shown,
            symbols=self.sym, standing=standing, var_visibility=self.visibility["variables"],
            pvar_visibility=self.visibility["player_variables"], card_locals=frozenset(self.card_locals),
            card_cursors=frozenset(self.card_cursors), card_scopes=self.card_scopes,
            player_name=str(localize(d.get("player_name"), lang, languages) or msg(lang, "player", seat="{seat}")))

    def _check_options(self):
        for name, spec in (self.data.get("options") or {}).items():
            if spec.get("default") not in spec.get("choices", []):
                self.report(("options", name, "default"),
                            f"default {spec.get('default')!r} of option '{name}' is not one of its choices")
            for key in spec.get("explain", {}) or {}:
                if key not in [str(c) for c in spec.get("choices", [])]:
                    self.report(("options", name, "explain", key), f"'{key}' is not a choice of option '{name}'", key=True)
        p = self.data.get("players")
        if isinstance(p, dict):
            lo, hi = p["min"], p["max"]
            if lo > hi or not lo <= p.get("default", lo) <= hi:
                self.report(("players",), "players: need min <= default <= max")

    def _zones(self) -> dict:
        zones = {}
        for name, spec in self.data["zones"].items():
            spec = spec or {}
            zones[name] = ZoneSpec(name, bool(spec.get("per_player")), spec.get("visibility", "hidden"),
                                   str(localize(spec.get("label", name), self.lang, self.languages)))
        return zones

    def _variables(self, section, types: dict) -> dict:
        init = {}
        decls = self.data.get(section) or {}
        for name, decl in decls.items():
            if name in types or name in self.zones:
                self.report((section, name), f"'{name}' is already the name of a zone or variable", key=True)
            if isinstance(decl, dict):
                if decl.get("show"):
                    label = str(localize(decl.get("label", name), self.lang, self.languages))
                    self.shown.append((section, name, label))
                types[name] = decl.get("type") or type_of_value(decl.get("initial"))
                if types[name] == NULL:
                    self.report((section, name), f"variable '{name}' starts as null: give its type", key=True)
                init[name] = decl.get("initial")
            else:
                types[name] = type_of_value(decl)
                init[name] = decl
            self.visibility[section][name] = self._visibility(section, name, decl, types[name])
        compiled = {}
        for name, value in init.items():
            path = (section, name, "initial") if isinstance(decls[name], dict) else (section, name)
            scope = {"p": PLAYER} if section == "player_variables" else {}
            c = self.expr(value, path, scope, types[name]) if isinstance(value, str) and types[name] != STR \
                else self.built(ir.Const(type=types[name], const=value))
            compiled[name] = c.fn
        return compiled

    def _visibility(self, section, name, decl, typ) -> str:
        """Who sees a variable: declared, or derived from the cards it holds ('cards': a seat
        sees each card only where it could see the card itself)."""
        declared = decl.get("visibility") if isinstance(decl, dict) else None
        if declared == "owner" and section != "player_variables":
            self.report((section, name, "visibility"), "only a player variable has an owner: "
                                                        "use public or hidden")
        if declared is not None:
            return declared
        return "cards" if typ in (CARD, list_of(CARD)) else "public"

    def bind(self, scope, name, typ):
        """Bind a local name; names that may hold cards are noted, so that a planning bot's
        imagined deal can rename the hidden cards they hold."""
        scope[name] = typ
        if typ in (CARD, list_of(CARD)):         # not a zone: a local naming a zone is the zone itself
            self.card_locals.add(name)

    def _functions(self):
        for name, spec in (self.data.get("functions") or {}).items():
            try:
                tree = parse(spec["expr"])
            except ExprError as e:
                self.report(("functions", name, "expr"), e.message, e.offset)
                tree = parse("null")
            self.sym.functions[name] = FunctionDef(name, list(spec.get("params", [])), tree)

    def _events(self) -> dict:
        events = {name: {} for name in BUILTIN_EVENTS}
        for name, spec in (self.data.get("events") or {}).items():
            events[name] = dict((spec or {}).get("with", {}) or {})
            for k, typ in events[name].items():
                self.bind({}, k, typ)
        return events

    # -- flow -----------------------------------------------------------------
    def _flow(self) -> _Code:
        code = _Code()
        flow = self.data["flow"]
        self.code = code
        self.dispatch = {}           # event -> label of its trigger dispatcher
        self.procs = {}              # procedure -> label
        self.triggers_on = {}
        for i, t in enumerate(self.data.get("triggers") or []):
            if t["on"] not in self.events:
                self.report(("triggers", i, "on"), f"unknown event '{t['on']}'{did_you_mean(t['on'], self.events)}")
                continue
            self.triggers_on.setdefault(t["on"], []).append((i, t))
        for name in self.triggers_on:
            self.dispatch[name] = code.label()
        for name in self.data.get("procedures") or {}:
            self.procs[name] = code.label()

        end, round_top, round_end = code.label(), code.label(), code.label()
        code.emit(vm.push_scope("game", end), ("flow",))
        self.steps(flow.get("setup") or [], ("flow", "setup"), {})
        code.place(round_top)
        code.emit(vm.push_scope("round", round_end), ("flow", "round"))
        self._emit_event("round_start", {}, ("flow", "round"))
        self.steps(flow["round"], ("flow", "round"), {})
        code.place(round_end)
        code.emit(vm.pop_scope(), ("flow", "round"))
        self._emit_event("round_end", {}, ("flow", "round"))
        until = self.expr(flow.get("until", True), ("flow", "until"), {}, BOOL)
        code.emit(vm.jump_unless(until.fn, round_top), ("flow", "until"))
        code.place(end)
        code.emit(vm.pop_scope(), ("flow",))
        self.steps(flow.get("end") or [], ("flow", "end"), {})
        code.emit(vm.halt(), ("flow",))
        for name, label in self.procs.items():
            code.place(label)
            self.steps(self.data["procedures"][name], ("procedures", name), {})
            code.emit(vm.ret(), ("procedures", name))
        for name, label in self.dispatch.items():
            code.place(label)
            for i, t in self.triggers_on[name]:
                scope = dict(self.events[name])
                skip = code.label()
                if "when" in t:
                    cond = self.expr(t["when"], ("triggers", i, "when"), scope, BOOL)
                    code.emit(vm.jump_unless(cond.fn, skip), ("triggers", i, "when"))
                self.steps(t["do"], ("triggers", i, "do"), scope)
                code.place(skip)
            code.emit(vm.ret(), ("triggers",))
        return code

    def _emit_event(self, name, payload: dict, path, scope=None):
        if name in self.dispatch:
            pc = self.code.emit(vm.call(self.dispatch[name], payload), path)
            self._note_card_scope(pc + 1, scope or {})

    def _note_card_scope(self, pc, scope):
        """The local names that hold cards when the game waits at `pc` (a decision, or the
        return from a call): a planning bot's imagined deal renames the hidden cards they hold."""
        names = frozenset(n for n, typ in scope.items() if typ in (CARD, list_of(CARD), ZONE))
        if names:
            self.card_scopes[pc] = names

    def steps(self, steps, path, scope):
        """Compile a list of steps; `scope` (local name -> type) grows as choices bind names."""
        batch = []
        for i, step in enumerate(steps):
            p = path + (i,)
            simple = self._simple(step, p, scope)
            if simple is not None:
                batch.append(simple)
                continue
            self._flush(batch, path)
            batch = []
            self._control(step, p, scope)
        self._flush(batch, path)

    def _flush(self, batch, path):
        if batch:
            self.code.emit(vm.run_effects(batch), batch[0][1], [p for _, p in batch])

    # -- steps that are plain effects -------------------------------------------
    def _simple(self, step, path, scope):
        """(fn, path) for a step that is a plain effect, or None for control flow."""
        if isinstance(step, str) and step in WORD_EFFECTS:
            step = {step: True}
        if isinstance(step, str) or not isinstance(step, dict):
            return None
        kinds = [k for k in step if k in EFFECTS]
        if len(kinds) != 1 or len(step) != 1:
            return None
        kind = kinds[0]
        fn = getattr(self, "_fx_" + kind)(step[kind], path + (kind,), scope)
        return (fn, path + (kind,))

    def _zone(self, text, path, scope):
        c = self.expr(text, path, scope, ZONE)
        if c.type not in (ZONE, ANY):
            self.report(path, "expected a zone here")
        return c.fn

    def _zone_ref(self, text, path, scope):
        """fn(state, locals) -> (zone name, owner or None), for effects that must name a zone."""
        self._zone(text, path, scope)
        try:
            tree = parse(text)
        except ExprError:
            return lambda s, l: None
        if isinstance(tree, Tree) and tree.data == "name" and tree.children[0].value in self.sym.shared_zones:
            ref = (tree.children[0].value, None)
            return lambda s, l: ref
        if isinstance(tree, Tree) and tree.data == "attr" and tree.children[1].value in self.sym.player_zones:
            name = tree.children[1].value
            try:
                owner = self.built(self.checker.check_tree(tree.children[0], scope, PLAYER)).fn
            except ExprError:
                return lambda s, l: None
            return lambda s, l: (name, owner(s, l))
        self.report(path, "name the zone itself here, e.g. stock or current.hand")
        return lambda s, l: None

    def _tag(self, value, path, scope):
        """The journal tag of a move or swap: `true` for a plain entry, or an expression."""
        if value is True:
            return lambda s, l: None
        return self.expr(value, path, scope).fn

    def _fx_swap(self, a, path, scope):
        ra = self._zone_ref(a["a"], path + ("a",), scope)
        rb = self._zone_ref(a["b"], path + ("b",), scope)
        tag = self._tag(a["journal"], path + ("journal",), scope) if a.get("journal", False) is not False else None
        return effects.swap(ra, rb, tag)

    def _fx_undo_journal(self, a, path, scope):
        if isinstance(a, dict) and "tag" in a:
            return effects.undo_journal(self.expr(a["tag"], path + ("tag",), scope).fn)
        return effects.undo_journal(None)

    def _fx_clear_journal(self, a, path, scope):
        return effects.clear_journal

    def _fx_refuse(self, a, path, scope):
        return effects.refuse

    def _fx_redirect(self, a, path, scope):
        return effects.redirect(self.expr(a, path, scope, PLAYER).fn)

    def _fx_move(self, a, path, scope):
        if a.get("journal", False) is not False and "from" in a and ("card" in a or "cards" in a):
            is_list = "cards" in a
            cards = self.expr(a["cards" if is_list else "card"], path + ("cards" if is_list else "card",), scope,
                              list_of(CARD) if is_list else CARD)
            return effects.journal_move(cards.fn, self._zone_ref(a["from"], path + ("from",), scope),
                                        self._zone_ref(a["to"], path + ("to",), scope),
                                        self._tag(a["journal"], path + ("journal",), scope), is_list)
        if a.get("journal", False) is not False:
            self.report(path + ("journal",), "only a move of given cards (card or cards) with 'from' can be journalled",
                        key=True)
        bottom = a.get("position") == "bottom"
        dst = self._zone(a["to"], path + ("to",), scope)
        kinds = [k for k in ("card", "cards", "count") if k in a]
        if "from" not in a:
            self.report(path, "move needs 'from': the zone the cards leave", key=True)
            return _noop
        src = self._zone(a["from"], path + ("from",), scope)
        if len(kinds) > 1:
            self.report(path, "move takes only one of 'card', 'cards' or 'count'")
        if "card" in a:
            card = self.expr(a["card"], path + ("card",), scope, CARD)
            return effects.move_card(card.fn, src, dst, bottom)
        if "cards" in a:
            cards = self.expr(a["cards"], path + ("cards",), scope, list_of(CARD))
            return effects.move_cards(cards.fn, src, dst, bottom)
        count = self.expr(a["count"], path + ("count",), scope, NUM).fn if "count" in a else None
        return effects.move_top(src, dst, count, bottom)

    def _fx_draw(self, a, path, scope):
        src = self._zone(a["from"], path + ("from",), scope)
        dst = self._zone(a["to"], path + ("to",), scope)
        count = self.expr(a.get("count", 1), path + ("count",), scope, NUM).fn
        return effects.move_top(src, dst, count, False)

    def _fx_deal(self, a, path, scope):
        src = self._zone(a["from"], path + ("from",), scope)
        name = a["to"]
        if name not in self.sym.player_zones:
            self.report(path + ("to",), f"'{name}' is not a per-player zone"
                                        f"{did_you_mean(name, self.sym.player_zones)}")
        count = self.expr(a["count"], path + ("count",), scope, NUM).fn
        first = self.expr(a["first"], path + ("first",), scope, PLAYER).fn if "first" in a else None
        players = self.expr(a["players"], path + ("players",), scope, list_of(PLAYER)).fn if "players" in a else None
        return effects.deal(src, name, count, first, players)

    def _fx_sort(self, a, path, scope):
        zone = self._zone(a["zone"], path + ("zone",), scope)
        inner = dict(scope)
        if "card" in inner:
            self.report(path + ("by",), "'card' is already a name here; sort binds each card to 'card'")
        self.bind(inner, "card", CARD)
        key = self.expr(a["by"], path + ("by",), inner)
        if key.type not in (NUM, STR, ANY):
            self.report(path + ("by",), "a sort key must be a number or a text")
        return effects.sort(zone, key.fn)

    def _fx_shuffle(self, a, path, scope):
        return effects.shuffle(self._zone(a, path, scope))

    def _fx_gather(self, a, path, scope):
        dst = self._zone(a["to"], path + ("to",), scope)
        names = a.get("from") or list(self.zones)
        getters = []
        for n in names:
            if n not in self.zones:
                self.report(path + ("from",), f"unknown zone '{n}'{did_you_mean(n, self.zones)}")
            elif self.zones[n].per_player:
                getters.append(lambda s, n=n: s.zones[n])
            else:
                getters.append(lambda s, n=n: (s.zones[n],))
        return effects.gather(getters, dst)

    def _fx_set(self, a, path, scope, add=False):
        fns = []
        for target, value in a.items():
            fns.append(self._assign(target, value, path + (target,), scope, add))
        return fns[0] if len(fns) == 1 else _sequence(fns)

    def _fx_add(self, a, path, scope):
        return self._fx_set(a, path, scope, add=True)

    def _assign(self, target, value, path, scope, add):
        try:
            tree = parse(str(target))
        except ExprError as e:
            self.report(path, f"cannot assign to '{target}': {e.message}", key=True)
            return _noop
        if isinstance(tree, Tree) and tree.data == "name":
            name = tree.children[0].value
            if name not in self.sym.global_vars:
                known = list(self.sym.global_vars)
                hint = f" (it is a player variable: write current.{name})" if name in self.sym.player_vars \
                    else did_you_mean(name, known)
                self.report(path, f"unknown variable '{name}'{hint}", key=True)
                return _noop
            typ = self.sym.global_vars[name]
            v = self._value(value, path, scope, typ, add)
            return effects.add_global(name, v) if add else effects.set_global(name, v, _kind(typ))
        if isinstance(tree, Tree) and tree.data == "attr":
            owner_t, name_tok = tree.children
            name = name_tok.value
            if name not in self.sym.player_vars:
                self.report(path, f"unknown player variable '{name}'{did_you_mean(name, self.sym.player_vars)}", key=True)
                return _noop
            try:
                owner = self.built(self.checker.check_tree(owner_t, scope, PLAYER))
            except ExprError as e:
                self.report(path, e.message, key=True)
                return _noop
            typ = self.sym.player_vars[name]
            v = self._value(value, path, scope, typ, add)
            return effects.add_player(name, owner.fn, v) if add else effects.set_player(name, owner.fn, v, _kind(typ))
        self.report(path, f"cannot assign to '{target}': name a variable, e.g. total or current.score", key=True)
        return _noop

    def _value(self, value, path, scope, typ, add):
        if add and typ != NUM:
            self.report(path, f"'add' needs a number variable, but this one holds {typ} values", key=True)
        return self.expr(value, path, scope, typ).fn

    def _fx_reveal(self, a, path, scope):
        c = self.expr(a, path, scope)
        is_list = elem_of(c.type) == CARD
        if c.type != CARD and not is_list and c.type != ANY:
            self.report(path, "reveal needs a card or a list of cards")
        return effects.reveal(c.fn, is_list)

    def _fx_eliminate(self, a, path, scope):
        return effects.eliminate(self.expr(a, path, scope, PLAYER).fn, msg(self.lang, "out", name="{name}"))

    def _fx_log(self, a, path, scope):
        if isinstance(a, dict) and "text" in a:
            render = self.template(a["text"], path + ("text",), scope)
            self.checker.in_text = True     # whom a log is for is part of the account: no random()
            try:
                to = self.expr(a["to"], path + ("to",), scope, PLAYER).fn if "to" in a else None
            finally:
                self.checker.in_text = False
        else:
            render, to = self.template(a, path, scope), None
        return effects.log(render, to)

    # -- texts ----------------------------------------------------------------
    def template(self, text, path, scope):
        """fn(state, locals) -> str for a text with {expression} parts."""
        text = str(localize(text, self.lang, self.languages))
        tpl = text_check.template(self.checker, text, scope, lambda message, offset: self.report(path, message, offset))
        return texts.template(self.closures, tpl)

    def shower(self, typ):
        return shower(typ, self.deck.display)

    # -- control flow -----------------------------------------------------------
    def _control(self, step, path, scope):
        code = self.code
        if isinstance(step, str):
            if step in EXITS:
                code.emit(vm.exit_to(step[4:]), path)
            else:
                self.report(path, f"unknown step '{step}'{did_you_mean(step, EXITS + WORD_EFFECTS)}")
            return
        keys = set(step)
        for kind, needed, allowed in CONTROL:
            if kind in keys:
                extra = keys - allowed
                if extra:
                    for k in sorted(extra):
                        self.report(path + (k,), f"'{k}' does not belong in a '{kind}' step"
                                                 f"{did_you_mean(k, allowed)}", key=True)
                    return
                missing = [k for k in needed if k not in keys]
                if missing:
                    self.report(path, f"a '{kind}' step needs '{missing[0]}'", key=True)
                    return
                getattr(self, "_cf_" + kind)(step, path, scope)
                return
        effects_here = [k for k in step if k in EFFECTS]
        if len(effects_here) > 1:
            self.report(path, f"one step per list item: this item has {', '.join(effects_here)}")
        else:
            self.report(path, f"a step needs one of: {', '.join(sorted(set(EFFECTS) | {c[0] for c in CONTROL}))}")

    def _cf_if(self, step, path, scope):
        code = self.code
        cond = self.expr(step["if"], path + ("if",), scope, BOOL)
        then_scope, else_scope = dict(scope), dict(scope)
        if cond.is_const:
            keep, drop = ("then", "else") if cond.const else ("else", "then")
            self._dead(step.get(drop) or [], path + (drop,), scope)
            kept = dict(scope)
            self.steps(step.get(keep) or [], path + (keep,), kept)
            scope.update(kept)
            return
        other, end = code.label(), code.label()
        code.emit(vm.jump_unless(cond.fn, other), path + ("if",))
        self.steps(step.get("then") or [], path + ("then",), then_scope)
        if "else" in step:
            code.emit(vm.jump(end), path)
        code.place(other)
        if "else" in step:
            self.steps(step["else"], path + ("else",), else_scope)
        code.place(end)
        for name, typ in then_scope.items():   # names both branches bind stay bound after the if
            if name not in scope and else_scope.get(name) == typ:
                scope[name] = typ

    def _dead(self, steps, path, scope):
        """Check steps an option rules out, without keeping their code."""
        real = self.code
        self.code = _Code()
        try:
            self.steps(steps, path, dict(scope))
        finally:
            self.code = real

    def _cf_repeat(self, step, path, scope):
        top = self.code.label()
        self.code.place(top)
        inner = dict(scope)
        self.steps(step["repeat"], path + ("repeat",), inner)
        until = self.expr(step["until"], path + ("until",), inner, BOOL)
        self.code.emit(vm.jump_unless(until.fn, top), path + ("until",))

    def _cf_while(self, step, path, scope):
        code = self.code
        top, end = code.label(), code.label()
        code.place(top)
        cond = self.expr(step["while"], path + ("while",), scope, BOOL)
        code.emit(vm.jump_unless(cond.fn, end), path + ("while",))
        self.steps(step["do"], path + ("do",), dict(scope))
        code.emit(vm.jump(top), path)
        code.place(end)

    def _cf_for_each(self, step, path, scope):
        code = self.code
        var = step["for_each"]
        coll = self.expr(step["in"], path + ("in",), scope)
        et = elem_of(coll.type)
        if et is None:
            self.report(path + ("in",), "for_each needs a list or zone to walk through")
            et = ANY
        top, end = code.label(), code.label()
        key = f"#{len(code.factories)}"
        if et == CARD:
            self.card_cursors.add(key)
        code.emit(vm.iter_start(key, coll.fn), path + ("in",))
        code.place(top)
        code.emit(vm.iter_next(key, var, end), path + ("for_each",))
        inner = dict(scope)
        self.bind(inner, var, et)
        self.steps(step["do"], path + ("do",), inner)
        code.emit(vm.jump(top), path)
        code.place(end)

    def _cf_turns(self, step, path, scope):
        code = self.code
        t = step["turns"]
        p = path + ("turns",)
        first = self.expr(t["first"], p + ("first",), scope, PLAYER).fn if "first" in t else None
        nxt = self.expr(t["next"], p + ("next",), scope, PLAYER).fn if "next" in t else None
        until = self.expr(t["until"], p + ("until",), scope, BOOL).fn if "until" in t else None
        count = self.expr(t["count"], p + ("count",), scope, NUM).fn if "count" in t else None
        top, turn_end, end = code.label(), code.label(), code.label()
        key = f"#{len(code.factories)}"
        if "order" in t:
            if first or nxt or count:
                self.report(p + ("order",), "'order' gives the whole turn order: leave out first, next and count",
                            key=True)
            order = self.expr(t["order"], p + ("order",), scope, list_of(PLAYER)).fn
            code.emit(vm.iter_start(key, order), p)
            code.place(top)
            code.emit(vm.turns_order_check(key, until, end, turn_end), p)
            self._turn_body(t, p, scope, turn_end, None, top, end)
            return
        code.emit(vm.turns_start(key, first, count), p)
        code.place(top)
        code.emit(vm.turns_check(key, until, end, turn_end), p)
        self._turn_body(t, p, scope, turn_end, nxt, top, end)

    def _turn_body(self, t, p, scope, turn_end, nxt, top, end):
        code = self.code
        self._emit_event("turn_start", {}, p, scope)
        self.steps(t["do"], p + ("do",), dict(scope))
        code.place(turn_end)
        code.emit(vm.pop_scope(), p)
        self._emit_event("turn_end", {}, p, scope)
        if "order" in t:
            code.emit(vm.jump(top), p)
        else:
            code.emit(vm.turns_next(nxt, top), p)
        code.place(end)

    def _cf_choose(self, step, path, scope):
        code = self.code
        var = step.get("as", "choice")
        raw = step["choose"]
        if isinstance(raw, list):
            options = self.built(ir.Const(type=list_of(self._literal_type(raw, path + ("choose",))),
                                          const=tuple(raw)))
        else:
            options = self.expr(raw, path + ("choose",), scope)
        et = elem_of(options.type)
        if et is None:
            self.report(path + ("choose",), "choose needs a list or zone of options")
            et = ANY
        inner = dict(scope)
        self.bind(inner, var, et)
        where, memo = None, False
        if "where" in step:
            try:
                where, memo = self.closures.condition(self.checker.check(step["where"], inner, BOOL), var)
            except ExprError as e:
                self.report(path + ("where",), e.message, e.offset if isinstance(step["where"], str) else None)
        by = self.expr(step["by"], path + ("by",), scope, PLAYER).fn if "by" in step else None
        label = self.template(step["label"], path + ("label",), inner) if "label" in step else None
        show = self.shower(et)
        if label is None:
            label_fn = lambda s, l, v: show(s, v)
        else:
            def label_fn(s, l, v, label=label, var=var):
                saved = l.get(var)
                l[var] = v
                try:
                    return label(s, l)
                finally:
                    l[var] = saved
        prompt = str(localize(step.get("prompt", "Choose"), self.lang, self.languages))
        cid = len(self.choices)
        self.choices.append(ChoiceSpec(var, label_fn, prompt, path, cards=et == CARD))
        otherwise = code.label()
        end = code.label()
        pc = code.emit(vm.choose(cid, options.fn, var, where, by, otherwise if "otherwise" in step else None, memo),
                       path)
        self._note_card_scope(pc + 1, inner)
        if "otherwise" in step:
            code.emit(vm.jump(end), path)
            code.place(otherwise)
            self.steps(step["otherwise"], path + ("otherwise",), dict(scope))
            code.place(end)
        self.bind(scope, var, et)

    def _literal_type(self, items, path) -> str:
        """The element type of a list of options written out in YAML: all texts or all numbers."""
        if all(isinstance(x, str) for x in items):
            return STR
        if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in items):
            return NUM
        self.report(path, "the options of a choice written as a list must be all texts or all numbers")
        return STR

    def _cf_emit(self, step, path, scope):
        name = step["emit"]
        if name not in self.events:
            self.report(path + ("emit",), f"unknown event '{name}'{did_you_mean(name, self.events)} "
                                          f"(declare it under 'events')")
            return
        declared = self.events[name]
        given = step.get("with") or {}
        payload = {}
        for k, typ in declared.items():
            if k not in given:
                self.report(path, f"event '{name}' carries '{k}': give it under 'with'", key=True)
                continue
            payload[k] = self.expr(given[k], path + ("with", k), scope, typ).fn
        for k in given:
            if k not in declared:
                self.report(path + ("with", k), f"event '{name}' carries no '{k}'{did_you_mean(k, declared)}", key=True)
        self._emit_event(name, payload, path, scope)

    def _cf_request(self, step, path, scope):
        """A request from one seat to another (or to nobody: a zone such as a bag).

        The event named by `request` is raised with from, to and piece; its triggers
        may `refuse` or `redirect` it.  If none does, the `answer` steps run.  The
        outcome ('answered', 'refused' or 'lapsed', when a redirect comes back to the
        asker) is bound to the `as` name.
        """
        code = self.code
        name = step["request"]
        if name not in self.events:
            self.report(path + ("request",), f"unknown event '{name}'{did_you_mean(name, self.events)} "
                                             f"(declare it under 'events' with from, to and piece)")
            return
        declared = self.events[name]
        for k in ("from", "to") + (("piece",) if "piece" in step else ()):
            if k not in declared:
                self.report(path + ("request",), f"event '{name}' must carry '{k}' to be a request")
        frm = self.expr(step["from"], path + ("from",), scope, PLAYER).fn
        to = self.expr(step["to"], path + ("to",), scope, PLAYER).fn
        inner = dict(scope)
        inner.update({"from": PLAYER, "to": PLAYER})
        piece = None
        if "piece" in step:
            piece = self.expr(step["piece"], path + ("piece",), {"from": PLAYER, "to": PLAYER},
                              declared.get("piece")).fn
            self.bind(inner, "piece", declared.get("piece", ANY))
        var = step.get("as", "outcome")
        top, answer, end = code.label(), code.label(), code.label()
        code.emit(vm.request_start(frm, to), path)
        code.place(top)
        pc = code.emit(vm.request_ask(self.dispatch.get(name), piece), path)
        self._note_card_scope(pc + 1, inner)
        code.emit(vm.request_check(var, answer, top, end), path)
        code.place(answer)
        self.steps(step.get("answer") or [], path + ("answer",), inner)
        code.emit(vm.request_done(var), path)
        code.place(end)
        scope[var] = STR

    def _cf_call(self, step, path, scope):
        name = step["call"]
        if name not in self.procs:
            self.report(path + ("call",), f"unknown procedure '{name}'{did_you_mean(name, self.procs)}")
            return
        pc = self.code.emit(vm.call(self.procs[name], {}), path)
        self._note_card_scope(pc + 1, scope)

    # -- result -----------------------------------------------------------------
    def _result(self):
        r = self.data["result"]
        winners = self.expr(r["winners"], ("result", "winners"), {}, list_of(PLAYER))
        score = self.expr(r["score"], ("result", "score"), {"p": PLAYER}, NUM) if "score" in r else None
        standing = self.expr(r["standing"], ("result", "standing"), {"p": PLAYER}, NUM) if "standing" in r else None
        return winners.fn, (score.fn if score else None), (standing.fn if standing else None)


EFFECTS = ("move", "draw", "deal", "shuffle", "sort", "gather", "set", "add", "reveal", "eliminate", "log", "swap",
           "undo_journal", "clear_journal", "refuse", "redirect")
CONTROL = (
    ("if", ("if",), {"if", "then", "else"}),
    ("repeat", ("repeat", "until"), {"repeat", "until"}),
    ("while", ("while", "do"), {"while", "do"}),
    ("for_each", ("for_each", "in", "do"), {"for_each", "in", "do"}),
    ("turns", ("turns",), {"turns"}),
    ("choose", ("choose",), {"choose", "as", "where", "by", "prompt", "label", "otherwise"}),
    ("emit", ("emit",), {"emit", "with"}),
    ("call", ("call",), {"call"}),
    ("request", ("request", "from", "to"), {"request", "from", "to", "piece", "answer", "as"}),
)


def _kind(typ) -> str | None:
    """Which size check a stored value of type `typ` needs (see limits.py)."""
    if typ == NUM:
        return "number"
    if typ == STR:
        return "string"
    if elem_of(typ) is not None:
        return "list"
    return None


def _noop(s, l):
    return None


def _sequence(fns):
    def run(s, l):
        for f in fns:
            f(s, l)
    return run
