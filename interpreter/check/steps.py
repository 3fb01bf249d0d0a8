"""Check lists of steps: each step's shape, names and types, into the nodes of lang/ir.py.

A scope (local name -> type) follows the steps, growing as choices and loops bind
names.  Problems go to the ruleset checker's `report`; a step with a problem gives no
node (None), which is harmless because a ruleset with a problem is never built.
"""
from __future__ import annotations

from dataclasses import replace

from contextlib import nullcontext as _nothing

from lark import Tree

from ..errors import did_you_mean
from ..lang import expr_ir, ir
from ..lang.syntax import ExprError, parse, unparse
from ..lang.expr_ir import cards_of
from ..lang.types import (ANY, BOOL, CARD, NUM, PILE, PLAYER, STR, ZONE, Unsettled, a_ as _a, elem_of, holds_cards,
                          is_map, list_of, value_of)
from .nulls import element_type
from .phases import PHASE_VARIABLES
from ..messages import msg
from .expr_seam import constant

EXITS = ("end_turn", "end_round", "end_game")
WORD_EFFECTS = ("refuse", "clear_journal", "undo_journal", "restart_turns")
EFFECTS = ("move", "draw", "deal", "shuffle", "sort", "gather", "set", "add", "reveal", "eliminate", "log", "swap",
           "new_pile", "undo_journal", "clear_journal", "restart_turns", "refuse", "redirect")
CONTROL = (
    ("if", ("if",), {"if", "then", "else"}),
    ("repeat", ("repeat", "until"), {"repeat", "until"}),
    ("while", ("while", "do"), {"while", "do"}),
    ("for_each", ("for_each", "in", "do"), {"for_each", "in", "do"}),
    ("turns", ("turns",), {"turns"}),
    ("choose", ("choose",), {"choose", "as", "where", "by", "prompt", "label", "refusal", "otherwise", "together",
                             "do"}),
    ("emit", ("emit",), {"emit", "with"}),
    ("call", ("call",), {"call", "with"}),
    ("request", ("request", "from", "to"), {"request", "from", "to", "piece", "answer", "as"}),
)
_NOT_AN_EFFECT = object()


def _exits(steps, turn_inside=False):
    """The paths of the steps among `steps` (and the steps inside them) that end the turn,
    round or game: an `end_turn` inside a `turns` of their own ends that turn only."""
    for st in steps:
        if isinstance(st, ir.Exit):
            if not (turn_inside and st.to == "turn"):
                yield st.path
            continue
        inner_turns = turn_inside or isinstance(st, ir.Turns)
        for value in vars(st).values():
            if isinstance(value, tuple) and value and all(hasattr(x, "path") for x in value):
                yield from _exits(value, inner_turns)      # steps, or kinds of option (their `body`)


def _decisions(steps):
    """The paths of the choices and requests among `steps` and the steps inside them."""
    for st in steps:
        if isinstance(st, (ir.Choose, ir.ChooseAmong, ir.Request)):
            yield st.path
            continue
        for value in vars(st).values():
            if isinstance(value, tuple) and value and all(hasattr(x, "path") for x in value):
                yield from _decisions(value)


def holding(scope: dict) -> frozenset:
    """The local names of `scope` that may hold cards."""
    return frozenset(n for n, typ in scope.items() if holds_cards(typ))


class StepChecker:
    """Checks steps with the names `ck` (the ruleset checker) has resolved: its report,
    expr, template, skipped and clean, its symbols, zones, events and procedures."""

    def __init__(self, ck):
        self.ck = ck
        self._again = False             # checking a loop's steps once more (see _same_next_time)
        self._rebinding = []            # per control step being checked: name -> the types its blocks bind it to
        self._windows = 0               # choices made together so far: each window's record has its own local
        self.report = ck.report
        self.expr = ck.expr
        self.sym = ck.sym

    def steps(self, raw, path, scope) -> tuple:
        """The nodes of a list of steps; `scope` grows as choices bind names."""
        if not isinstance(raw, list) or self.ck.skipped(path):
            return ()
        nodes = []
        for i, step in enumerate(raw):
            p = path + (i,)
            if self.ck.skipped(p):
                continue
            sid = None
            if isinstance(step, dict) and "id" in step:     # a name for overlays and scenarios
                sid = step["id"]
                step = {k: v for k, v in step.items() if k != "id"}
            node = self._effect(step, p, scope)
            if node is _NOT_AN_EFFECT:
                node = self._control(step, p, scope)
            if isinstance(node, tuple):         # a step written as several (a choice made together)
                nodes.extend(node)
                if isinstance(sid, str):
                    self.ck.step_ids[sid] = node     # its points: before the first, after the last
            elif node is not None:
                nodes.append(node)
                if isinstance(sid, str):
                    self.ck.step_ids[sid] = node
        return tuple(nodes)

    # -- steps that are plain effects -------------------------------------------
    def _effect(self, step, path, scope):
        """The node of a step that is a plain effect, or _NOT_AN_EFFECT for control flow."""
        if isinstance(step, str) and step in WORD_EFFECTS:
            step = {step: True}
        if isinstance(step, str) or not isinstance(step, dict):
            return _NOT_AN_EFFECT
        kinds = [k for k in step if k in EFFECTS]
        if len(kinds) != 1 or len(step) != 1:
            return _NOT_AN_EFFECT
        kind = kinds[0]
        if not self.ck.clean(path + (kind,)):
            return None                 # the schema has said what is wrong with it
        return getattr(self, "_check_effect_" + kind)(step[kind], path + (kind,), scope)

    def _zone(self, text, path, scope):
        c = self.expr(text, path, scope, ZONE)
        if c.type not in (ZONE, ANY):
            self.report(path, "expected a zone here")
        return c

    def _zone_ref(self, text, path, scope) -> ir.ZoneRef | None:
        """The zone an effect names outright, or None (with a problem reported)."""
        before = len(self.ck.problems)
        self._zone(text, path, scope)
        try:
            tree = parse(text)
        except ExprError:
            return None                 # reported by _zone
        if isinstance(tree, Tree) and tree.data == "name" and tree.children[0].value in self.sym.shared_zones:
            return ir.ZoneRef(tree.children[0].value)
        if isinstance(tree, Tree) and tree.data == "attr" and tree.children[1].value in self.sym.player_zones:
            try:
                owner = self.ck.seam.player_of(tree.children[0], scope)
            except ExprError as e:
                if len(self.ck.problems) == before:     # not already reported by _zone
                    self.report(path, e.message, e.offset)
                return None
            return ir.ZoneRef(tree.children[1].value, owner)
        self.report(path, "name the zone itself here, e.g. stock or current.hand")
        return None

    def _tag(self, value, path, scope):
        """The journal tag of a move or swap: None for a plain entry (`true`), or an expression."""
        if value is True:
            return None
        return self.expr(value, path, scope)

    def _check_effect_swap(self, a, path, scope):
        ra = self._zone_ref(a["a"], path + ("a",), scope)
        rb = self._zone_ref(a["b"], path + ("b",), scope)
        journal = a.get("journal", False) is not False
        tag = self._tag(a["journal"], path + ("journal",), scope) if journal else None
        return ir.Swap(path, ra, rb, journal, tag)

    def _check_effect_undo_journal(self, a, path, scope):
        if isinstance(a, dict) and "tag" in a:
            return ir.UndoJournal(path, self.expr(a["tag"], path + ("tag",), scope))
        return ir.UndoJournal(path, None)

    def _check_effect_clear_journal(self, a, path, scope):
        return ir.ClearJournal(path)

    def _check_effect_restart_turns(self, a, path, scope):
        return ir.RestartTurns(path)

    def _check_effect_refuse(self, a, path, scope):
        return ir.Refuse(path)

    def _check_effect_redirect(self, a, path, scope):
        return ir.Redirect(path, self.expr(a, path, scope, PLAYER))

    def _check_effect_move(self, a, path, scope):
        if a.get("journal", False) is not False and "from" in a and ("card" in a or "cards" in a):
            many = "cards" in a
            key = "cards" if many else "card"
            cards = self.expr(a[key], path + (key,), scope, list_of(CARD) if many else CARD)
            return ir.JournalMove(path, cards, many, self._zone_ref(a["from"], path + ("from",), scope),
                                  self._zone_ref(a["to"], path + ("to",), scope),
                                  self._tag(a["journal"], path + ("journal",), scope))
        if a.get("journal", False) is not False:
            self.report(path + ("journal",), "only a move of given cards (card or cards) with 'from' can be journalled",
                        key=True)
        bottom = a.get("position") == "bottom"
        dst = self._zone(a["to"], path + ("to",), scope)
        kinds = [k for k in ("card", "cards", "count") if k in a]
        if "from" not in a:
            self.report(path, "move needs 'from': the zone the cards leave", key=True)
            return None
        src = self._zone(a["from"], path + ("from",), scope)
        if len(kinds) > 1:
            self.report(path, "move takes only one of 'card', 'cards' or 'count'")
        if "card" in a:
            return ir.Move(path, src, dst, card=self.expr(a["card"], path + ("card",), scope, CARD), bottom=bottom)
        if "cards" in a:
            cards = self.expr(a["cards"], path + ("cards",), scope, list_of(CARD))
            return ir.Move(path, src, dst, cards=cards, bottom=bottom)
        count = self.expr(a["count"], path + ("count",), scope, NUM) if "count" in a else None
        return ir.Move(path, src, dst, count=count, bottom=bottom)

    def _check_effect_draw(self, a, path, scope):
        src = self._zone(a["from"], path + ("from",), scope)
        dst = self._zone(a["to"], path + ("to",), scope)
        return ir.Draw(path, src, dst, self.expr(a.get("count", 1), path + ("count",), scope, NUM))

    def _check_effect_deal(self, a, path, scope):
        src = self._zone(a["from"], path + ("from",), scope)
        name = a["to"]
        if name not in self.sym.player_zones:
            self.report(path + ("to",), f"'{name}' is not a per-player zone"
                                        f"{did_you_mean(name, self.sym.player_zones)}")
        count = self.expr(a["count"], path + ("count",), scope, NUM)
        first = self.expr(a["first"], path + ("first",), scope, PLAYER) if "first" in a else None
        players = self.expr(a["players"], path + ("players",), scope, list_of(PLAYER)) if "players" in a else None
        return ir.Deal(path, src, name, count, first, players)

    def _check_effect_sort(self, a, path, scope):
        zone = self._zone(a["zone"], path + ("zone",), scope)
        inner = dict(scope)
        var = a.get("as", "card")
        if var in inner:
            self.report(path + ("as",) if "as" in a else path + ("by",),
                        f"'{var}' is already a name here; sort binds each card to '{var}'"
                        + ("" if "as" in a else ": give it another name with as: (e.g. as: each)"))
        inner[var] = CARD
        key = self.expr(a["by"], path + ("by",), inner)
        if key.type not in (NUM, STR, ANY):
            self.report(path + ("by",), "a sort key must be a number or a text")
        return ir.Sort(path, zone, key, var)

    def _check_effect_shuffle(self, a, path, scope):
        return ir.Shuffle(path, self._zone(a, path, scope))

    def _check_effect_gather(self, a, path, scope):
        dst = self._zone(a["to"], path + ("to",), scope)
        zones = self.ck.zones
        gathered = []
        for n in a.get("from") or list(zones):
            if n not in zones:
                self.report(path + ("from",), f"unknown zone '{n}'{did_you_mean(n, zones)}")
            else:
                gathered.append((n, zones[n].per_player, zones[n].piles))
        return ir.Gather(path, dst, tuple(gathered))

    def _check_effect_new_pile(self, a, path, scope):
        name, var = a["zone"], a["as"]
        if name not in self.sym.pile_zones:
            self.report(path + ("zone",), f"'{name}' is not a zone of piles (declare it with piles: true)"
                                          f"{did_you_mean(name, self.sym.pile_zones)}")
        owner = self.expr(a["owner"], path + ("owner",), scope, PLAYER) if "owner" in a else None
        if scope.get(var, PILE) != PILE:
            self.report(path + ("as",), f"'{var}' is already a name here, of {_a(scope[var])}; "
                                        "name the new pile otherwise")
        scope[var] = PILE
        self._bound(var, PILE)
        return ir.NewPile(path, name, owner, var)

    def _check_effect_set(self, a, path, scope, add=False):
        items = [self._assign(target, value, path + (target,), scope, add) for target, value in a.items()]
        return ir.Set(path, tuple(items), add)

    def _check_effect_add(self, a, path, scope):
        return self._check_effect_set(a, path, scope, add=True)

    def _assign(self, target, value, path, scope, add) -> ir.Assign | None:
        try:
            tree = parse(str(target))
        except ExprError as e:
            self.report(path, f"cannot assign to '{target}': {e.message}", key=True)
            return None
        if isinstance(tree, Tree) and tree.data == "index":
            return self._assign_entry(tree, target, value, path, scope, add)
        if isinstance(tree, Tree) and tree.data == "name":
            name = tree.children[0].value
            if name in PHASE_VARIABLES and getattr(self.ck, "phases", None):
                self.report(path, f"'{name}' changes only as a phase ends (its 'until' and 'then')", key=True)
                return None
            if name == "current" and name not in self.sym.global_vars:
                if add:
                    self.report(path, "'current' is a player: set it, do not add to it", key=True)
                return ir.Assign(ir.CurrentTarget(), self.expr(value, path, scope, PLAYER))
            if name not in self.sym.global_vars:
                known = list(self.sym.global_vars)
                hint = f" (it is a player variable: write current.{name})" if name in self.sym.player_vars \
                    else did_you_mean(name, known)
                self.report(path, f"unknown variable '{name}'{hint}", key=True)
                return None
            typ = self.sym.global_vars[name]
            return ir.Assign(ir.GlobalTarget(name, typ), self._value(value, path, scope, typ, add))
        if isinstance(tree, Tree) and tree.data == "attr":
            owner_t, name_tok = tree.children
            name = name_tok.value
            if name not in self.sym.player_vars:
                self.report(path, f"unknown player variable '{name}'{did_you_mean(name, self.sym.player_vars)}",
                            key=True)
                return None
            try:
                owner = self.ck.seam.player_of(owner_t, scope)
            except ExprError as e:
                self.report(path, e.message, key=True)
                return None
            typ = self.sym.player_vars[name]
            return ir.Assign(ir.PlayerTarget(name, typ, owner, name in self.sym.team_vars),
                             self._value(value, path, scope, typ, add))
        self.report(path, f"cannot assign to '{target}': name a variable, e.g. total or current.score", key=True)
        return None

    def _assign_entry(self, tree, target, value, path, scope, add) -> ir.Assign | None:
        """`set: {"m[key]": value}`: one entry of a map variable (null removes it)."""
        var_t, key_t = tree.children
        inner = self._assign(unparse(var_t), None, path, scope, False) if isinstance(var_t, Tree) and \
            var_t.data in ("name", "attr") else None
        if inner is None or isinstance(inner.target, ir.CurrentTarget):
            if inner is not None or not isinstance(var_t, Tree) or var_t.data not in ("name", "attr"):
                self.report(path, f"cannot assign to '{target}': name an entry of a map variable, e.g. "
                                  "first_named[strain]", key=True)
            return None
        var = inner.target
        if not is_map(var.type):
            self.report(path, f"'{unparse(var_t)}' is {_a(var.type)}, not a map: only a map's entry is set "
                              f"by its key", key=True)
            return None
        key = self.expr(unparse(key_t), path, scope, STR)
        typ = value_of(var.type)
        if add and typ not in (NUM, ANY):
            self.report(path, f"'add' needs a map of numbers, but this one holds {typ} values", key=True)
        return ir.Assign(ir.EntryTarget(var, key, typ), self.expr(value, path, scope, typ))

    def _value(self, value, path, scope, typ, add):
        if add and typ not in (NUM, ANY):
            self.report(path, f"'add' needs a number variable, but this one holds {typ} values", key=True)
        return self.expr(value, path, scope, typ)

    def _check_effect_reveal(self, a, path, scope):
        c = self.expr(a, path, scope)
        many = elem_of(c.type) == CARD
        if c.type != CARD and not many and c.type != ANY:
            self.report(path, "reveal needs a card or a list of cards")
        return ir.Reveal(path, c, many)

    def _check_effect_eliminate(self, a, path, scope):
        return ir.Eliminate(path, self.expr(a, path, scope, PLAYER), msg(self.ck.lang, "out", name="{name}"))

    def _check_effect_log(self, a, path, scope):
        if isinstance(a, dict) and "text" in a:
            text = self.ck.template(a["text"], path + ("text",), scope)
            # whom a log is for is part of the account: no random()
            to = self.expr(a["to"], path + ("to",), scope, PLAYER, in_text=True) if "to" in a else None
            return ir.Log(path, text, to)
        return ir.Log(path, self.ck.template(a, path, scope), None)

    # -- control flow -----------------------------------------------------------
    def _control(self, step, path, scope):
        if isinstance(step, str):
            if step in EXITS:
                return ir.Exit(path, step[4:])
            self.report(path, f"unknown step '{step}'{did_you_mean(step, EXITS + WORD_EFFECTS)}")
            return None
        if not isinstance(step, dict):
            return None                 # the schema has said what is wrong with it
        keys = set(step)
        for kind, needed, allowed in CONTROL:
            if kind in keys:
                extra = keys - allowed
                if extra:
                    for k in sorted(extra):
                        self.report(path + (k,), f"'{k}' does not belong in a '{kind}' step"
                                                 f"{did_you_mean(k, allowed)}", key=True)
                    return None
                missing = [k for k in needed if k not in keys]
                if missing:
                    self.report(path, f"a '{kind}' step needs '{missing[0]}'", key=True)
                    return None
                return self._settled(kind, step, path, scope)
        effects_here = [k for k in step if k in EFFECTS]
        if len(effects_here) > 1:
            self.report(path, f"one step per list item: this item has {', '.join(effects_here)}")
        else:
            self.report(path, f"a step needs one of: {', '.join(sorted(set(EFFECTS) | {c[0] for c in CONTROL}))}")
        return None

    def _check_control_if(self, step, path, scope):
        cond = self.expr(step["if"], path + ("if",), scope, BOOL, condition=True)
        else_ = None
        if cond.is_const:
            # the branch an option rules out is checked first, as the one kept may bind names
            keep, drop = ("then", "else") if cond.const else ("else", "then")
            dropped = self.steps(step.get(drop) or [], path + (drop,), dict(scope))
            kept = dict(scope)
            branches = {drop: dropped, keep: self.steps(step.get(keep) or [], path + (keep,), kept)}
            scope.update(kept)
            return ir.If(path, cond, branches["then"], branches["else"] if "else" in step else None,
                         bool(cond.const))
        then_scope, else_scope = dict(scope), dict(scope)
        with self.ck.seam.facts(cond, True):
            then = self.steps(step.get("then") or [], path + ("then",), then_scope)
        if "else" in step:
            with self.ck.seam.facts(cond, False):
                else_ = self.steps(step["else"], path + ("else",), else_scope)
        for name, typ in then_scope.items():   # names both branches bind stay bound after the if
            if name not in scope and else_scope.get(name) == typ:
                scope[name] = typ
        return ir.If(path, cond, then, else_)

    def _check_control_repeat(self, step, path, scope):
        inner = dict(scope)
        body = self.steps(step["repeat"], path + ("repeat",), inner)
        self._same_next_time(scope, inner, step["repeat"], path + ("repeat",))
        return ir.Repeat(path, body, self.expr(step["until"], path + ("until",), inner, BOOL, condition=True))

    def _check_control_while(self, step, path, scope):
        cond = self.expr(step["while"], path + ("while",), scope, BOOL, condition=True)
        inner = dict(scope)
        body = self.steps(step["do"], path + ("do",), inner)
        self._same_next_time(scope, inner, step["do"], path + ("do",))
        return ir.While(path, cond, body)

    def _bound(self, name, typ) -> None:
        """Note that a step binds local `name` to `typ` (locals outlive the block they are bound in)."""
        if self._rebinding:
            self._rebinding[-1].setdefault(name, set()).add(typ)

    def _settled(self, kind, step, path, scope):
        """A control step's node; a name its blocks bind again with another type than it has here
        may hold either after the step (the block's binding outlives it): reading it is then a
        problem that says so (types.Unsettled)."""
        before = dict(scope)
        self._rebinding.append({})
        try:
            node = getattr(self, "_check_control_" + kind)(step, path, scope)
        finally:
            inside = self._rebinding.pop()
        for name, types in inside.items():
            if self._rebinding:
                self._rebinding[-1].setdefault(name, set()).update(types)
            was = before.get(name)
            if was is None or isinstance(scope.get(name), Unsettled) or scope.get(name) != was:
                continue
            other = sorted(t for t in types if t != was and ANY not in (t, was))
            if other:
                scope[name] = Unsettled(was, f"'{name}' may be {_a(was)} or {_a(other[0])} here: the "
                                             f"{kind} step before it makes it {_a(other[0])} on some paths; "
                                             f"give one of them another name")
        return node

    def _same_next_time(self, before, after, raw, path, fresh=()):
        """A name that a loop's steps bind again with another type than it had where the loop
        began is read the next time round as what it is now: the steps (`raw` at `path`) are
        checked once more with such names of their new types, and what that finds is a
        problem at its place (`fresh`: names the loop binds anew each time round, as for_each's
        own).  Only where a name changes type, and not inside such a second check."""
        changed = {name: after[name] for name, was in before.items()
                   if name not in fresh and after.get(name, was) != was and ANY not in (after[name], was)}
        if not changed or self._again:
            return
        ck = self.ck
        kept = ck.problems, ck.warnings, ck.step_ids
        ck.problems, ck.warnings, ck.step_ids = [], [], {}
        self._again = True
        try:
            self.steps(raw, path, dict(before, **changed))
            found = ck.problems
        finally:
            ck.problems, ck.warnings, ck.step_ids = kept
            self._again = False
        for problem in found[:1]:
            names = ", ".join(f"'{n}' {_a(t)}" for n, t in changed.items())
            ck.problems.append(replace(problem, message=f"{problem.message} (the next time round the loop comes "
                                                        f"here with {names}, as its steps leave it: give one "
                                                        f"of them another name)"))

    def _check_control_for_each(self, step, path, scope):
        var = step["for_each"]
        items = cards_of(self.expr(step["in"], path + ("in",), scope))
        et = elem_of(items.type)
        if et is None:
            self.report(path + ("in",), "for_each needs a list or zone to walk through")
            et = ANY
        et = element_type(et, items)
        inner = dict(scope)
        inner[var] = et
        self._bound(var, et)
        body = self.steps(step["do"], path + ("do",), inner)
        self._same_next_time(dict(scope, **{var: et}), inner, step["do"], path + ("do",), fresh=(var,))
        return ir.ForEach(path, var, items, et, body)

    def _check_control_turns(self, step, path, scope):
        t = step["turns"]
        p = path + ("turns",)
        if not isinstance(t, dict):
            return None                 # the schema has said what is wrong with it
        first = self.expr(t["first"], p + ("first",), scope, PLAYER) if "first" in t else None
        nxt = self.expr(t["next"], p + ("next",), scope, PLAYER) if "next" in t else None
        until = self.expr(t["until"], p + ("until",), scope, BOOL, condition=True) if "until" in t else None
        count = self.expr(t["count"], p + ("count",), scope, NUM) if "count" in t else None
        order = None
        if "order" in t:
            if first or nxt or count:
                self.report(p + ("order",), "'order' gives the whole turn order: leave out first, next and count",
                            key=True)
            order = self.expr(t["order"], p + ("order",), scope, list_of(PLAYER))
        inner = dict(scope)
        body = self.steps(t.get("do"), p + ("do",), inner)
        self._same_next_time(scope, inner, t.get("do"), p + ("do",))
        return ir.Turns(p, first, nxt, until, count, order, body, holding(scope))

    def _check_control_choose(self, step, path, scope):
        if "together" in step:
            return self._together(step, path, scope)
        if "do" in step:
            self.report(path + ("do",), "'do' belongs to a choice made together (with 'together: players'); "
                                        "here write the steps after the choice", key=True)
            return None
        raw = step["choose"]
        if isinstance(raw, dict) or isinstance(raw, list) and raw and all(isinstance(x, dict) for x in raw):
            return self._choose_among(step, path, scope)
        var = step.get("as", "choice")
        if isinstance(raw, list):
            options = constant(list_of(self._literal_type(raw, path + ("choose",))), tuple(raw))
        else:
            options = cards_of(self.expr(raw, path + ("choose",), scope))
        et = elem_of(options.type)
        if et is None:
            self.report(path + ("choose",), "choose needs a list or zone of options")
            et = ANY
        et = element_type(et, options)
        inner = dict(scope)
        inner[var] = et
        where = None
        if "where" in step and not self.ck.skipped(path + ("where",)):
            where = self.ck.seam.where(step["where"], path + ("where",), inner, var)
        by = self.expr(step["by"], path + ("by",), scope, PLAYER) if "by" in step else None
        label = self.ck.template(step["label"], path + ("label",), inner) if "label" in step else None
        refusal = self.ck.template(step["refusal"], path + ("refusal",), inner) if "refusal" in step else None
        prompt = self.ck.template(step.get("prompt", "Choose"), path + ("prompt",), scope)
        waiting = holding(inner)
        otherwise = self.steps(step["otherwise"], path + ("otherwise",), dict(scope)) if "otherwise" in step else None
        scope[var] = et
        self._bound(var, et)
        return ir.Choose(path, var, options, et, where, by, label, prompt, otherwise, waiting, refusal)

    def _together(self, step, path, scope):
        """A choice made together: each of the players chooses, on the same state and unseen by
        the others; then `do` runs for each in order, as current, with what they chose bound.
        Written as plain steps around one choice (runtime/windows.py): nothing the others chose
        is in a seat's view, its imagined deals or its options, and no choice has an effect
        before all are made."""
        players = self.expr(step["together"], path + ("together",), scope, list_of(PLAYER))
        raw = step["choose"]
        for k in ("by", "otherwise"):
            if k in step:
                self.report(path + (k,), f"a choice made together has no '{k}'"
                            + (": each of the 'together' players chooses" if k == "by"
                               else ": a player with no legal option is left out of its 'do'"), key=True)
        if isinstance(raw, list) and raw and all(isinstance(x, dict) for x in raw):
            self.report(path + ("choose",), "a choice made together gives its options as one list or as a mapping "
                                            "of names to lists, not as kinds of option with their own steps")
            return None
        inner = dict(scope)
        choice = self._check_control_choose({k: v for k, v in step.items() if k not in ("together", "do", "by",
                                                                                          "otherwise")},
                                            path, inner)
        body = self.steps(step.get("do") or [], path + ("do",), inner)
        for exit_path in _exits(body):
            self.report(exit_path, "the steps of a choice made together ('do') cannot end the turn, round or game: "
                                   "set a variable, and end it after the choice")
        for asked in _decisions(body):
            self.report(asked, "the steps of a choice made together ('do') cannot ask for a decision: a bot "
                               "deciding there would see the choices not yet revealed; ask after the choice")
        if choice is None:
            return None
        self._windows += 1
        key = f"#seal{self._windows}"
        if isinstance(choice, ir.Choose):
            names = (choice.var,)
        else:
            names = tuple(n for a in choice.alternatives for n, _, _ in a.names)
        cards = tuple(holds_cards(inner[n]) for n in names)
        choice = replace(choice, otherwise=(ir.Seal(path, key, "skip"),), window=key)
        more, unrevealed = (expr_ir.Local(name=key + flag, type=BOOL) for flag in "?!")
        return (ir.Seal(path + ("together",), key, "open", names, cards, players),
                ir.While(path, more, (ir.Seal(path, key, "enter"), choice, ir.Seal(path, key, "keep", names))),
                ir.While(path, unrevealed, (ir.Seal(path, key, "reveal", names),) + body
                         + (ir.Seal(path, key, "again"),)),
                ir.Seal(path, key, "close", names))

    def _choose_among(self, step, path, scope):
        """A choice whose options are of several kinds (`choose:` a list of alternatives, each
        with its own steps), or combine several names (`choose: {who: LIST, rank: LIST}`, one
        option per combination, the names bound for the steps that follow)."""
        raw = step["choose"]
        if isinstance(raw, dict):           # one kind: its where, label and refusal are the step's
            alt = dict(step, **{"from": raw})
            del alt["choose"]
            for k in ("by", "prompt", "otherwise", "as"):
                alt.pop(k, None)
            if "as" in step:
                self.report(path + ("as",), "the names of each option are the keys of 'choose': leave out 'as'",
                            key=True)
            alternatives = (self._alternative(alt, path, scope, after=scope, key="choose"),)
        else:
            for k in ("as", "where", "label", "refusal"):
                if k in step:
                    self.report(path + (k,), f"a choice among kinds of option gives '{k}' in each kind", key=True)
            alternatives, bound = [], []
            for i, alt in enumerate(raw):
                inner = dict(scope)
                alternatives.append(self._alternative(alt, path + ("choose", i), inner, after=None))
                bound.append(inner)
            for name, typ in bound[0].items() if bound else ():   # what every kind's steps bind stays bound
                if name not in scope and all(b.get(name) == typ for b in bound):
                    scope[name] = typ
            alternatives = tuple(a for a in alternatives if a is not None)
        by = self.expr(step["by"], path + ("by",), scope, PLAYER) if "by" in step else None
        prompt = self.ck.template(step.get("prompt", "Choose"), path + ("prompt",), scope)
        otherwise = self.steps(step["otherwise"], path + ("otherwise",), dict(scope)) if "otherwise" in step else None
        if None in alternatives:
            return None
        return ir.ChooseAmong(path, alternatives, by, prompt, otherwise, holding(scope))

    def _alternative(self, alt, path, scope, after, key="from"):
        """One kind of option of a choice.  `after`: the scope the names are bound in for the
        steps after the choice (a choice of one kind), else None (they are bound in its `do`);
        `key`: where its lists are written (`choose` for a choice of one kind)."""
        keys = {"option", "from", "as", "when", "where", "label", "refusal", "do"}
        for k in alt:
            if k not in keys:
                self.report(path + (k,), f"unknown key '{k}' in a kind of option{did_you_mean(k, keys)}", key=True)
        if ("option" in alt) == ("from" in alt):
            self.report(path, "a kind of option gives either 'option' (one option, a word) or 'from' (its list)",
                        key=True)
            return None
        when = self.expr(alt["when"], path + ("when",), scope, BOOL, condition=True) if "when" in alt else None
        word, names = alt.get("option"), []
        if word is not None and not isinstance(word, str):
            self.report(path + ("option",), "an option named by a word: give a text")
            return None
        src = alt.get("from")
        if isinstance(src, dict):
            if "as" in alt and after is None:
                self.report(path + ("as",), "the names of each option are the keys of 'from': leave out 'as'",
                            key=True)
            pairs = list(src.items())
        elif src is not None:
            pairs = [(alt.get("as", "choice"), src)]
        else:
            pairs = []
        inner = dict(scope)
        with self.ck.seam.facts(when, True) if when is not None else _nothing():
            for name, lst in pairs:         # each list may read the names before it: {card: hand, how: "modes(card)"}
                at = path + ((key, name) if isinstance(src, dict) else (key,))
                if not isinstance(name, str) or not name.isidentifier():
                    self.report(at, f"'{name}' cannot name an option: use letters, digits and _", key=True)
                    return None
                if isinstance(lst, list):
                    options = constant(list_of(self._literal_type(lst, at)), tuple(lst))
                else:
                    options = cards_of(self.expr(lst, at, inner))
                et = elem_of(options.type)
                if et is None:
                    self.report(at, "the options of a choice come from a list or zone")
                    et = ANY
                et = element_type(et, options)
                names.append((name, options, et))
                inner[name] = et
                self._bound(name, et)
        with self.ck.seam.facts(when, True) if when is not None else _nothing():
            where = self.ck.seam.where(alt["where"], path + ("where",), inner, None) \
                if "where" in alt and not self.ck.skipped(path + ("where",)) else None
            label = self.ck.template(alt["label"], path + ("label",), inner) if "label" in alt else None
            refusal = self.ck.template(alt["refusal"], path + ("refusal",), inner) if "refusal" in alt else None
            body = None
            if "do" in alt:
                body = self.steps(alt["do"], path + ("do",), inner)
        if after is not None:
            after.update(inner)
        else:
            scope.update(inner)
        return ir.Alternative(path, word, tuple(names), when, where, label, refusal, body)

    def _literal_type(self, items, path) -> str:
        """The element type of a list of options written out in YAML: all texts or all numbers."""
        if all(isinstance(x, str) for x in items):
            return STR
        if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in items):
            return NUM
        self.report(path, "the options of a choice written as a list must be all texts or all numbers")
        return STR

    def _check_control_emit(self, step, path, scope):
        name = step["emit"]
        events = self.ck.events
        if name not in events:
            self.report(path + ("emit",), f"unknown event '{name}'{did_you_mean(name, events)} "
                                          f"(declare it under 'events')")
            return None
        if name in self.ck.misshapen_events:
            return None                 # what it carries is unknown: the schema has said why
        declared = events[name]
        payload = self._given(step, path, scope, declared,
                              lambda k: f"event '{name}' carries '{k}': give it under 'with'",
                              lambda k: f"event '{name}' carries no '{k}'{did_you_mean(k, declared)}")
        return None if payload is None else ir.Emit(path, name, payload, holding(scope))

    def _given(self, step, path, scope, declared: dict, missing, unknown):
        """((name, Expr), ...) of the values a step gives under `with`, each of its declared
        type, in declared order; None when `with` is not a mapping (the schema said so).
        `missing(k)` / `unknown(k)`: the messages of a value not given / not declared."""
        given = step.get("with") or {}
        if not isinstance(given, dict):
            return None
        values = []
        for k, typ in declared.items():
            if k not in given:
                self.report(path, missing(k), key=True)
                continue
            values.append((k, self.expr(given[k], path + ("with", k), scope, typ)))
        for k in given:
            if k not in declared:
                self.report(path + ("with", k), unknown(k), key=True)
        return tuple(values)

    def _check_control_request(self, step, path, scope):
        """A request from one seat to another (or to nobody: a zone such as a bag).

        The event named by `request` is raised with from, to and piece; its triggers
        may `refuse` or `redirect` it.  If none does, the `answer` steps run.  The
        outcome ('answered', 'refused' or 'lapsed', when a redirect comes back to the
        asker) is bound to the `as` name.
        """
        name = step["request"]
        events = self.ck.events
        if name not in events:
            self.report(path + ("request",), f"unknown event '{name}'{did_you_mean(name, events)} "
                                             f"(declare it under 'events' with from, to and piece)")
            return None
        if name in self.ck.misshapen_events:
            return None                 # what it carries is unknown: the schema has said why
        declared = events[name]
        for k in ("from", "to") + (("piece",) if "piece" in step else ()):
            if k not in declared:
                self.report(path + ("request",), f"event '{name}' must carry '{k}' to be a request")
        src = self.expr(step["from"], path + ("from",), scope, PLAYER)
        dst = self.expr(step["to"], path + ("to",), scope, PLAYER)
        inner = dict(scope)
        inner.update({"from": PLAYER, "to": PLAYER})
        piece = None
        if "piece" in step:
            piece = self.expr(step["piece"], path + ("piece",), {"from": PLAYER, "to": PLAYER},
                              declared.get("piece"))
            inner["piece"] = declared.get("piece", ANY)
            self._bound("piece", inner["piece"])
        var = step.get("as", "outcome")
        waiting = holding(inner)
        answer = self.steps(step.get("answer") or [], path + ("answer",), inner)
        scope[var] = STR
        self._bound(var, STR)
        return ir.Request(path, name, src, dst, piece, declared.get("piece", ANY), var, answer, waiting)

    def _check_control_call(self, step, path, scope):
        name = step["call"]
        if name not in self.ck.procedures:
            self.report(path + ("call",), f"unknown procedure '{name}'{did_you_mean(name, self.ck.procedures)}")
            return None
        params = self.ck.procedures[name] or {}
        args = self._given(step, path, scope, params,
                           lambda k: f"procedure '{name}' takes '{k}': give it under 'with'",
                           lambda k: f"procedure '{name}' has no parameter '{k}'{did_you_mean(k, params)}")
        return None if args is None else ir.Call(path, name, holding(scope), args)
