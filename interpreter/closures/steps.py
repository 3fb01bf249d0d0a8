"""Turn checked steps (lang/ir.py) into instructions of the virtual machine.

An instruction is a closure `ins(state) -> next pc` (runtime/vm.py); jumps go to
labels, placed as the code grows and resolved at the end (Code.link).  Plain effects
in a row become one instruction (runtime/effects.py), but for a step with an id (a point
a scenario may stop at), which is an instruction of its own.  The steps are checked: nothing
here can fail, and nothing is reported.
"""
from __future__ import annotations

from ..lang import ir
from ..lang.types import CARD, holds_cards, list_of
from ..runtime import effects, vm, windows
from ..runtime.program import ChoiceSpec
from ..lang.values import shower
from .expressions import Closures
from .layout import (AmongLayout, CallLayout, ChoiceLayout, EffectLayout, EmitLayout, ExitLayout, ForEachLayout,
                     IfLayout, Layout, RepeatLayout, RequestLayout, Span, TurnsLayout, WhileLayout, size_check,
                     unset_names)
from .texts import bound_text, template

CARD_TYPES = (CARD, list_of(CARD))
TURN_BEGUN, TURN_OVER = "#turn begun", "#turn over"     # points: a turn's player is current; its end is over
PICK = "#pick"          # the local a choice among kinds leaves its option in, for the pick after it


class Code:
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


class StepBuilder:
    """Emits steps into `code`; collects the choices and what a planning bot needs to know
    about the names that hold cards (card_locals, card_cursors, card_scopes)."""

    def __init__(self, code: Code, closures: Closures, dispatch: dict, procs: dict, step_ids: dict | None = None):
        self.code = code
        self.closures = closures        # the expressions' back end
        self.display = closures.display     # the cards as people read them, for choice labels
        self.dispatch = dispatch        # event -> label of its trigger dispatcher
        self.procs = procs              # procedure -> label
        self.choices: list[ChoiceSpec] = []
        self.card_locals, self.card_cursors, self.card_scopes = set(), set(), {}
        self.layout = Layout()          # where each step's instructions lie (closures/layout.py)
        self.call_labels = []           # (pc of a call, label of what it calls)
        self.named, self.named_last = {}, {}    # id(step) -> its id; of a step written as several: first, last
        for sid, node in (step_ids or {}).items():
            if isinstance(node, tuple):
                self.named[id(node[0])], self.named_last[id(node[-1])] = sid, sid
            else:
                self.named[id(node)] = sid
        self.named_from = {}            # the id of a step written as several -> the pc it begins at

    def steps(self, steps):
        batch = []
        for step in steps:
            sid = self.named.get(id(step))
            if sid is not None:         # a step with an id starts and ends an instruction of its own
                self._flush(batch)
                batch = []
            start = len(self.code.factories)
            if isinstance(step, ir.Effect):
                self.layout.note(step, EffectLayout(Span(start, start + 1), start, len(batch)))
                batch.append((getattr(self, "effect_" + type(step).__name__)(step), step.path))
            else:
                self._flush(batch)
                batch = []
                start = len(self.code.factories)
                self.layout.note(step, getattr(self, "lay_" + type(step).__name__)(step, start))
            if sid is not None and id(step) not in self.named_last and sid in self.named_last.values():
                self.named_from[sid] = start    # the first of several: the points come after the last
                continue
            sid = self.named_last.get(id(step), sid)
            if sid is not None:
                self._flush(batch)
                batch = []
                start = self.named_from.pop(sid, start)
                end = len(self.code.factories)
                inside = (start, end, True) if end > start else None     # (a step the options leave empty)
                self.point(("before", sid), start, (start, end, False) if end > start else None)
                self.point(("after", sid), end, inside)
        self._flush(batch)

    def point(self, name, pc, span=None):
        """Note that the flow is at point `name` when it comes to `pc` through `span`
        (engine.comes_from): a scenario may stop the rules there (engine.run_to).  Steps an
        option rules out note nothing."""
        self.layout.points.setdefault(name, []).append((pc, span))

    def _flush(self, batch):
        if batch:
            self.code.emit(vm.run_effects(batch), batch[0][1], [p for _, p in batch])

    def fn_of(self, node):
        """fn(state, locals) computing the checked expression `node`."""
        return self.closures.fn(node)

    def fn(self, node):
        """The closure of an optional expression (None for none)."""
        return None if node is None else self.closures.fn(node)

    def text(self, t: ir.Text):
        """fn(state, locals) -> str of a checked text (with its catalogue values bound)."""
        fn = template(self.closures, t.parts)
        if not t.binds:
            return fn
        return bound_text(fn, [(name, self.fn_of(e)) for name, e in t.binds])

    def bind(self, name, typ):
        """A local name that may hold cards is noted, so that a planning bot's imagined deal
        can rename the hidden cards it holds (a zone's too: a copied state holds its cards)."""
        if holds_cards(typ):
            self.card_locals.add(name)

    def emit_event(self, name, payload: dict, path, holding=frozenset()):
        """The pc of the call of the event's dispatcher (None: no trigger answers it)."""
        if name in self.dispatch:
            at = len(self.code.factories)
            self.point(name, at + 1, (at, at + 1, True))        # once its triggers have answered
            pc = self.code.emit(vm.call(self.dispatch[name], payload), path)
            self.call_labels.append((pc, self.dispatch[name]))
            self._note_card_scope(pc + 1, holding)
            return pc
        return None

    def _note_card_scope(self, pc, holding):
        """The local names that hold cards when the game waits at `pc` (a decision, or the
        return from a call)."""
        if holding:
            self.card_scopes[pc] = holding

    # -- plain effects ----------------------------------------------------------------
    def effect_Move(self, s: ir.Move):
        if s.card is not None:
            return effects.move_card(self.fn_of(s.card), self.fn_of(s.src), self.fn_of(s.dst), s.bottom)
        if s.cards is not None:
            return effects.move_cards(self.fn_of(s.cards), self.fn_of(s.src), self.fn_of(s.dst), s.bottom)
        return effects.move_top(self.fn_of(s.src), self.fn_of(s.dst), self.fn(s.count), s.bottom)

    def effect_JournalMove(self, s: ir.JournalMove):
        return effects.journal_move(self.fn_of(s.cards), self._ref(s.src), self._ref(s.dst), self._tag(s.tag), s.many)

    def effect_Draw(self, s: ir.Draw):
        return effects.move_top(self.fn_of(s.src), self.fn_of(s.dst), self.fn_of(s.count), False)

    def effect_Deal(self, s: ir.Deal):
        return effects.deal(self.fn_of(s.src), s.zone, self.fn_of(s.count), self.fn(s.first), self.fn(s.players))

    def effect_Shuffle(self, s: ir.Shuffle):
        return effects.shuffle(self.fn_of(s.zone))

    def effect_Sort(self, s: ir.Sort):
        self.bind(s.var, CARD)
        return effects.sort(self.fn_of(s.zone), self.fn_of(s.key), s.var)

    def effect_Gather(self, g: ir.Gather):
        getters = [(lambda s, n=n: s.zones[n]) if per_player or piles else (lambda s, n=n: (s.zones[n],))
                   for n, per_player, piles in g.zones]
        return effects.gather(getters, self.fn_of(g.dst), tuple(n for n, _, piles in g.zones if piles))

    def effect_NewPile(self, s: ir.NewPile):
        return effects.new_pile(s.zone, self.fn(s.owner), s.var)

    def effect_Set(self, s: ir.Set):
        fns = [self._assignment(a, s.add) for a in s.items]
        return fns[0] if len(fns) == 1 else _sequence(fns)

    def effect_Reveal(self, s: ir.Reveal):
        return effects.reveal(self.fn_of(s.cards), s.many)

    def effect_Eliminate(self, s: ir.Eliminate):
        return effects.eliminate(self.fn_of(s.player), s.announce)

    def effect_Log(self, s: ir.Log):
        return effects.log(self.text(s.text), self.fn(s.to))

    def effect_Swap(self, s: ir.Swap):
        return effects.swap(self._ref(s.a), self._ref(s.b), self._tag(s.tag) if s.journal else None)

    def effect_UndoJournal(self, s: ir.UndoJournal):
        return effects.undo_journal(self.fn(s.tag))

    def effect_ClearJournal(self, s):
        return effects.clear_journal

    def effect_RestartTurns(self, s):
        return effects.restart_turns

    def effect_Refuse(self, s):
        return effects.refuse

    def effect_Seal(self, s: ir.Seal):
        k = s.key
        if s.op == "open":
            return windows.open_window(k, self.fn_of(s.players), s.cards, s.names)
        if s.op in ("keep", "reveal", "close"):
            return getattr(windows, s.op)(k, s.names)
        return getattr(windows, s.op)(k)

    def effect_Redirect(self, s: ir.Redirect):
        return effects.redirect(self.fn_of(s.to))

    # -- control flow: each method lays its step out from pc `start` and returns its record ------
    def _span(self, start) -> Span:
        return Span(start, len(self.code.factories))

    def lay_Exit(self, s: ir.Exit, start):
        pc = self.code.emit(vm.exit_to(s.to), s.path)
        return ExitLayout(self._span(start), pc)

    def lay_If(self, s: ir.If, start):
        code = self.code
        if s.fixed is not None:
            live, dead = (s.then, s.else_) if s.fixed else (s.else_, s.then)
            self._dead(dead or ())
            self.steps(live or ())
            return IfLayout(self._span(start), None)
        other, end = code.label(), code.label()
        test = code.emit(vm.jump_unless(self.fn_of(s.cond), other), s.path + ("if",))
        self.steps(s.then)
        skip = code.emit(vm.jump(end), s.path) if s.else_ is not None else None
        code.place(other)
        if s.else_ is not None:
            self.steps(s.else_)
        code.place(end)
        return IfLayout(self._span(start), test, skip)

    def _dead(self, steps):
        """Steps an option rules out are built apart and thrown away, as they always were:
        their choices keep their numbers, and what they note of cards stays noted."""
        real, layout, calls = self.code, self.layout, self.call_labels
        self.code, self.layout, self.call_labels = Code(), Layout(), []     # nor are they laid out (calls included)
        try:
            self.steps(steps)
        finally:
            self.code, self.layout, self.call_labels = real, layout, calls

    def lay_Repeat(self, s: ir.Repeat, start):
        top = self.code.label()
        self.code.place(top)
        self.steps(s.body)
        until = self.code.emit(vm.jump_unless(self.fn_of(s.until), top), s.path + ("until",))
        return RepeatLayout(self._span(start), self.code.labels[top], until)

    def lay_While(self, s: ir.While, start):
        code = self.code
        top, end = code.label(), code.label()
        code.place(top)
        test = code.emit(vm.jump_unless(self.fn_of(s.cond), end), s.path + ("while",))
        self.steps(s.body)
        back = code.emit(vm.jump(top), s.path)
        code.place(end)
        return WhileLayout(self._span(start), test, back)

    def lay_ForEach(self, s: ir.ForEach, start):
        code = self.code
        top, end = code.label(), code.label()
        key = f"#{len(code.factories)}"
        if holds_cards(s.elem_type):
            self.card_cursors.add(key)
        first = code.emit(vm.iter_start(key, self.fn_of(s.items)), s.path + ("in",))
        code.place(top)
        nxt = code.emit(vm.iter_next(key, s.var, end), s.path + ("for_each",))
        self.bind(s.var, s.elem_type)
        self.steps(s.body)
        back = code.emit(vm.jump(top), s.path)
        code.place(end)
        return ForEachLayout(self._span(start), first, nxt, back, key)

    def lay_Turns(self, s: ir.Turns, start):
        code = self.code
        p = s.path
        begin, top, turn_end, end = code.label(), code.label(), code.label(), code.label()
        code.place(begin)
        key = f"#{len(code.factories)}"
        if s.order is not None:
            first = code.emit(vm.iter_start(key, self.fn_of(s.order)), p)
            code.place(top)
            check = code.emit(vm.turns_order_check(key, self.fn(s.until), end, turn_end), p)
        else:
            first = code.emit(vm.turns_start(key, self.fn(s.first), self.fn(s.count)), p)
            code.place(top)
            check = code.emit(vm.turns_check(key, self.fn(s.until), end, turn_end), p)
        self.point(TURN_BEGUN, len(code.factories))
        start_call = self.emit_event("turn_start", {}, p, s.holding)
        self.steps(s.body)
        code.place(turn_end)
        ended = code.emit(vm.pop_scope(), p)
        end_call = self.emit_event("turn_end", {}, p, s.holding)
        self.point(TURN_OVER, len(code.factories))
        if s.order is not None:
            nxt = code.emit(vm.turns_again(begin, top), p)
        else:
            nxt = code.emit(vm.turns_next(self.fn(s.next), top, begin), p)
        code.place(end)
        return TurnsLayout(self._span(start), first, check, start_call, ended, end_call, nxt, key)

    def lay_Choose(self, s: ir.Choose, start):
        code = self.code
        self.bind(s.var, s.elem_type)
        cid = len(self.choices)
        self.choices.append(ChoiceSpec(s.var, self._label(s), self.text(s.prompt), s.path, cards=s.elem_type == CARD,
                                       card_lists=s.elem_type == list_of(CARD), types=(s.elem_type,),
                                       candidates=self.fn_of(s.options),
                                       refusal=self._bound_text(s.refusal, s.var) if s.refusal is not None else None,
                                       window=s.window))
        otherwise, end = code.label(), code.label()
        where, memo = self.closures.condition(s.where, s.var) if s.where is not None else (None, False)
        pc = code.emit(vm.choose(cid, self.fn_of(s.options), s.var, where, self.fn(s.by),
                                 otherwise if s.otherwise is not None else None, memo, (s.var,)), s.path)
        self._note_card_scope(pc + 1, s.holding)
        if s.otherwise is not None:
            code.emit(vm.jump(end), s.path)
            code.place(otherwise)
            self.steps(s.otherwise)
            code.place(end)
        return ChoiceLayout(self._span(start), pc, pc + 1, cid)

    def lay_ChooseAmong(self, s: ir.ChooseAmong, start):
        """The choice (its options [kind, value, ...] in the local PICK), then the pick: the
        option's names bound, a jump to its kind's steps; each kind's steps end in a jump
        past the others."""
        code = self.code
        kinds = s.alternatives
        for a in kinds:
            for name, _, typ in a.names:
                self.bind(name, typ)
        cid = len(self.choices)
        self.choices.append(self.among_spec(s))
        otherwise, end = code.label(), code.label()
        options = self.among_options(s)
        pc = code.emit(vm.choose(cid, options, PICK, None, self.fn(s.by),
                                 otherwise if s.otherwise is not None else None, unset=unset_names(s)), s.path)
        self._note_card_scope(pc + 1, s.holding)
        starts = [code.label() if a.body is not None else end for a in kinds]
        pick = code.emit(vm.pick(PICK, [([n for n, _, _ in a.names], at) for a, at in zip(kinds, starts)]), s.path)
        jumps = []
        for a, at in zip(kinds, starts):
            if a.body is not None:
                code.place(at)
                self.steps(a.body)
            jumps.append(code.emit(vm.jump(end), a.path) if a.body is not None else None)
        if s.otherwise is not None:
            code.place(otherwise)
            self.steps(s.otherwise)
        code.place(end)
        return AmongLayout(self._span(start), pc, pick, cid, options, tuple(jumps))

    def among_options(self, s: ir.ChooseAmong, legal_only=True):
        """fn(state, locals) -> the options of a choice among kinds (shared with generated/)."""
        return vm.among_options([(self.fn(a.when), tuple((n, self.fn_of(e)) for n, e, _ in a.names),
                                  self.fn(a.where)) for a in s.alternatives], legal_only)

    def among_spec(self, s: ir.ChooseAmong) -> ChoiceSpec:
        """The ChoiceSpec of a choice among kinds: labels and refusals by the option's kind."""
        kinds = s.alternatives
        names = [[n for n, _, _ in a.names] for a in kinds]
        shows = [[shower(t, self.display) for _, _, t in a.names] for a in kinds]

        def default_label(state, option):
            a = kinds[option[0]]
            if a.word is not None:
                return a.word
            return " ".join(show(state, v) for show, v in zip(shows[option[0]], option[1:]))
        label = vm.among_text([(n, self.text(a.label) if a.label is not None else None)
                               for n, a in zip(names, kinds)], default_label)
        refusal = vm.among_text([(n, self.text(a.refusal) if a.refusal is not None else None)
                                 for n, a in zip(names, kinds)], lambda state, option: None)
        slots = tuple(tuple("card" if t == CARD else "cards" if t == list_of(CARD) else None
                            for _, _, t in a.names) for a in kinds)
        return ChoiceSpec(PICK, label, self.text(s.prompt), s.path, candidates=self.among_options(s, legal_only=False),
                          refusal=refusal, slots=slots, types=tuple(tuple(t for _, _, t in a.names) for a in kinds),
                          kinds=tuple(a.word if a.word is not None else "+".join(n for n, _, _ in a.names)
                                      for a in kinds), window=s.window)

    def _bound_text(self, template, var):
        """fn(state, locals, option) -> a text with the option bound to `var`."""
        def text_fn(s, l, v, text=self.text(template)):
            saved = l.get(var)
            l[var] = v
            try:
                return text(s, l)
            finally:
                l[var] = saved
        return text_fn

    def _label(self, s: ir.Choose):
        """fn(state, locals, option) -> how an option of a choice reads."""
        if s.label is None:
            show = shower(s.elem_type, self.display)
            return lambda s, l, v: show(s, v)
        return self._bound_text(s.label, s.var)

    def lay_Emit(self, s: ir.Emit, start):
        call = self.emit_event(s.event, {k: self.fn_of(e) for k, e in s.payload}, s.path, s.holding)
        return EmitLayout(self._span(start), call)

    def lay_Request(self, s: ir.Request, start):
        code = self.code
        if s.piece is not None:
            self.bind("piece", s.piece_type)
        top, answer, end = code.label(), code.label(), code.label()
        first = code.emit(vm.request_start(self.fn_of(s.src), self.fn_of(s.dst)), s.path)
        code.place(top)
        ask = code.emit(vm.request_ask(self.dispatch.get(s.event), self.fn(s.piece)), s.path)
        if s.event in self.dispatch:
            self.call_labels.append((ask, self.dispatch[s.event]))
            self.point(s.event, ask + 1, (ask, ask + 1, True))     # once its triggers have answered
        self._note_card_scope(ask + 1, s.holding)
        check = code.emit(vm.request_check(s.var, answer, top, end), s.path)
        code.place(answer)
        self.steps(s.answer)
        done = code.emit(vm.request_done(s.var), s.path)
        code.place(end)
        return RequestLayout(self._span(start), first, ask, check, done, code.labels[end])

    def lay_Call(self, s: ir.Call, start):
        pc = self.code.emit(vm.call(self.procs[s.procedure], {k: self.fn_of(e) for k, e in s.args}), s.path)
        self.call_labels.append((pc, self.procs[s.procedure]))
        self._note_card_scope(pc + 1, s.holding)
        return CallLayout(self._span(start), pc)

    def _ref(self, ref: ir.ZoneRef):
        """fn(state, locals) -> (zone name, owner or None)."""
        if ref.owner is None:
            named = (ref.name, None)
            return lambda s, l: named
        name, owner = ref.name, self.fn_of(ref.owner)

        def owned(s, l):
            who = owner(s, l)
            if who is None:
                effects.nobody_owns(name)
            return name, who
        return owned


    def _tag(self, tag):
        """The journal tag's closure: a plain entry's tag is None."""
        if tag is None:
            return lambda s, l: None
        return self.fn_of(tag)


    def _assignment(self, a: ir.Assign, add: bool):
        t = a.target
        v = self.fn_of(a.value)
        if isinstance(t, ir.CurrentTarget):
            return effects.set_current(v)
        if isinstance(t, ir.EntryTarget):
            var = t.var
            owner = self.fn_of(var.owner) if isinstance(var, ir.PlayerTarget) else None
            teams = self.closures.teams if isinstance(var, ir.PlayerTarget) and var.team else None
            return effects.set_entry(var.name, owner, teams, self.fn_of(t.key), v, add, size_check(t.type))
        if isinstance(t, ir.GlobalTarget):
            return effects.add_global(t.name, v) if add else effects.set_global(t.name, v, size_check(t.type))
        owner = self.fn_of(t.owner)
        if t.team:
            teams = self.closures.teams
            return effects.add_team(t.name, owner, v, teams) if add else \
                effects.set_team(t.name, owner, v, teams, size_check(t.type))
        return effects.add_player(t.name, owner, v) if add else effects.set_player(t.name, owner, v, size_check(t.type))


def _sequence(fns):
    def run(s, l):
        for f in fns:
            f(s, l)
    return run
