"""Turn checked steps (lang/ir.py) into instructions of the virtual machine.

An instruction is a closure `ins(state) -> next pc` (runtime/vm.py); jumps go to
labels, placed as the code grows and resolved at the end (Code.link).  Plain effects
in a row become one instruction (runtime/effects.py), but for a step with an id (a point
a scenario may stop at), which is an instruction of its own.  The steps are checked: nothing
here can fail, and nothing is reported.
"""
from __future__ import annotations

from ..lang import ir
from ..lang.types import CARD, NUM, STR, elem_of, holds_cards, list_of
from ..runtime import effects, vm
from ..runtime.program import ChoiceSpec
from ..lang.values import shower
from .expressions import Closures
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


def unset_names(s: ir.ChooseAmong) -> tuple:
    """The names a choice among kinds binds for the steps after it (a choice of one kind with
    no steps of its own): null where no option is legal and `otherwise` runs."""
    kinds = s.alternatives
    return tuple(n for n, _, _ in kinds[0].names) if len(kinds) == 1 and kinds[0].body is None else ()


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
        self.marks = {}                 # id(step) -> where its instructions are (for pyback/)
        self.named = {id(node): sid for sid, node in (step_ids or {}).items()}    # id(step) -> its id

    def steps(self, steps):
        batch = []
        for step in steps:
            sid = self.named.get(id(step))
            if sid is not None:         # a step with an id starts and ends an instruction of its own
                self._flush(batch)
                batch = []
            self.marks[("start", id(step))] = len(self.code.factories)
            if isinstance(step, ir.Effect):
                self.marks[id(step)] = (len(self.code.factories), len(batch))
                batch.append((getattr(self, "_fx_" + type(step).__name__)(step), step.path))
            else:
                self._flush(batch)
                batch = []
                getattr(self, "_cf_" + type(step).__name__)(step)
            if sid is not None:
                self._flush(batch)
                batch = []
                start, end = self.marks[("start", id(step))], len(self.code.factories)
                inside = (start, end, True) if end > start else None     # (a step the options leave empty)
                self.point(("before", sid), start, (start, end, False) if end > start else None)
                self.point(("after", sid), end, inside)
        self._flush(batch)

    def point(self, name, pc, span=None):
        """Note that the flow is at point `name` when it comes to `pc` through `span`
        (engine.comes_from): a scenario may stop the rules there (engine.run_to).  Steps an
        option rules out note nothing."""
        self.marks.setdefault("points", {}).setdefault(name, []).append((pc, span))

    def _flush(self, batch):
        if batch:
            self.code.emit(vm.run_effects(batch), batch[0][1], [p for _, p in batch])

    def fn_of(self, node):
        """fn(state, locals) computing the checked expression `node`."""
        return self.closures.fn(node)

    def fn(self, node):
        """The closure of an optional expression (None for none)."""
        return None if node is None else self.closures.fn(node)

    def text(self, t: ir.Template):
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
            self.marks.setdefault("calls", []).append((pc, self.dispatch[name]))
            self._note_card_scope(pc + 1, holding)
            return pc
        return None

    def _note_card_scope(self, pc, holding):
        """The local names that hold cards when the game waits at `pc` (a decision, or the
        return from a call)."""
        if holding:
            self.card_scopes[pc] = holding

    # -- plain effects ----------------------------------------------------------------
    def _fx_Move(self, s: ir.Move):
        if s.card is not None:
            return effects.move_card(self.fn_of(s.card), self.fn_of(s.src), self.fn_of(s.dst), s.bottom)
        if s.cards is not None:
            return effects.move_cards(self.fn_of(s.cards), self.fn_of(s.src), self.fn_of(s.dst), s.bottom)
        return effects.move_top(self.fn_of(s.src), self.fn_of(s.dst), self.fn(s.count), s.bottom)

    def _fx_JournalMove(self, s: ir.JournalMove):
        return effects.journal_move(self.fn_of(s.cards), self._ref(s.src), self._ref(s.dst), self._tag(s.tag), s.many)

    def _fx_Draw(self, s: ir.Draw):
        return effects.move_top(self.fn_of(s.src), self.fn_of(s.dst), self.fn_of(s.count), False)

    def _fx_Deal(self, s: ir.Deal):
        return effects.deal(self.fn_of(s.src), s.zone, self.fn_of(s.count), self.fn(s.first), self.fn(s.players))

    def _fx_Shuffle(self, s: ir.Shuffle):
        return effects.shuffle(self.fn_of(s.zone))

    def _fx_Sort(self, s: ir.Sort):
        self.bind("card", CARD)
        return effects.sort(self.fn_of(s.zone), self.fn_of(s.key))

    def _fx_Gather(self, g: ir.Gather):
        getters = [(lambda s, n=n: s.zones[n]) if per_player else (lambda s, n=n: (s.zones[n],))
                   for n, per_player in g.zones]
        return effects.gather(getters, self.fn_of(g.dst))

    def _fx_Set(self, s: ir.Set):
        fns = [self._assignment(a, s.add) for a in s.items]
        return fns[0] if len(fns) == 1 else _sequence(fns)

    def _fx_Reveal(self, s: ir.Reveal):
        return effects.reveal(self.fn_of(s.cards), s.many)

    def _fx_Eliminate(self, s: ir.Eliminate):
        return effects.eliminate(self.fn_of(s.player), s.announce)

    def _fx_Log(self, s: ir.Log):
        return effects.log(self.text(s.text), self.fn(s.to))

    def _fx_Swap(self, s: ir.Swap):
        return effects.swap(self._ref(s.a), self._ref(s.b), self._tag(s.tag) if s.journal else None)

    def _fx_UndoJournal(self, s: ir.UndoJournal):
        return effects.undo_journal(self.fn(s.tag))

    def _fx_ClearJournal(self, s):
        return effects.clear_journal

    def _fx_RestartTurns(self, s):
        return effects.restart_turns

    def _fx_Refuse(self, s):
        return effects.refuse

    def _fx_Redirect(self, s: ir.Redirect):
        return effects.redirect(self.fn_of(s.to))

    # -- control flow -----------------------------------------------------------------
    def _cf_Exit(self, s: ir.Exit):
        self.marks[id(s)] = {"pc": self.code.emit(vm.exit_to(s.to), s.path)}

    def _cf_If(self, s: ir.If):
        code = self.code
        if s.fixed is not None:
            live, dead = (s.then, s.else_) if s.fixed else (s.else_, s.then)
            self._dead(dead or ())
            self.steps(live or ())
            return
        other, end = code.label(), code.label()
        self.marks[id(s)] = {"pc": code.emit(vm.jump_unless(self.fn_of(s.cond), other), s.path + ("if",))}
        self.steps(s.then)
        if s.else_ is not None:
            code.emit(vm.jump(end), s.path)
        code.place(other)
        if s.else_ is not None:
            self.steps(s.else_)
        code.place(end)

    def _dead(self, steps):
        """Steps an option rules out are built apart and thrown away, as they always were:
        their choices keep their numbers, and what they note of cards stays noted."""
        real, marks = self.code, self.marks
        self.code, self.marks = Code(), {}      # nor do they mark anything (calls included)
        try:
            self.steps(steps)
        finally:
            self.code, self.marks = real, marks

    def _cf_Repeat(self, s: ir.Repeat):
        top = self.code.label()
        self.code.place(top)
        self.steps(s.body)
        pc = self.code.emit(vm.jump_unless(self.fn_of(s.until), top), s.path + ("until",))
        self.marks[id(s)] = {"top": top, "pc": pc}

    def _cf_While(self, s: ir.While):
        code = self.code
        top, end = code.label(), code.label()
        code.place(top)
        pc = code.emit(vm.jump_unless(self.fn_of(s.cond), end), s.path + ("while",))
        self.marks[id(s)] = {"top": top, "pc": pc}
        self.steps(s.body)
        code.emit(vm.jump(top), s.path)
        code.place(end)

    def _cf_ForEach(self, s: ir.ForEach):
        code = self.code
        top, end = code.label(), code.label()
        key = f"#{len(code.factories)}"
        if holds_cards(s.elem_type):
            self.card_cursors.add(key)
        start = code.emit(vm.iter_start(key, self.fn_of(s.items)), s.path + ("in",))
        code.place(top)
        code.emit(vm.iter_next(key, s.var, end), s.path + ("for_each",))
        self.marks[id(s)] = {"top": top, "pc": start, "key": key}
        self.bind(s.var, s.elem_type)
        self.steps(s.body)
        code.emit(vm.jump(top), s.path)
        code.place(end)

    def _cf_Turns(self, s: ir.Turns):
        code = self.code
        p = s.path
        start, top, turn_end, end = code.label(), code.label(), code.label(), code.label()
        code.place(start)
        key = f"#{len(code.factories)}"
        m = self.marks[id(s)] = {"top": top, "turn_end": turn_end, "key": key, "pc": len(code.factories)}
        if s.order is not None:
            code.emit(vm.iter_start(key, self.fn_of(s.order)), p)
            code.place(top)
            code.emit(vm.turns_order_check(key, self.fn(s.until), end, turn_end), p)
        else:
            code.emit(vm.turns_start(key, self.fn(s.first), self.fn(s.count)), p)
            code.place(top)
            code.emit(vm.turns_check(key, self.fn(s.until), end, turn_end), p)
        self.point(TURN_BEGUN, len(code.factories))
        m["start_call"] = self.emit_event("turn_start", {}, p, s.holding)
        self.steps(s.body)
        code.place(turn_end)
        code.emit(vm.pop_scope(), p)
        m["end_call"] = self.emit_event("turn_end", {}, p, s.holding)
        self.point(TURN_OVER, len(code.factories))
        if s.order is not None:
            code.emit(vm.turns_again(start, top), p)
        else:
            code.emit(vm.turns_next(self.fn(s.next), top, start), p)
        code.place(end)

    def _cf_Choose(self, s: ir.Choose):
        code = self.code
        self.bind(s.var, s.elem_type)
        cid = len(self.choices)
        self.choices.append(ChoiceSpec(s.var, self._label(s), self.text(s.prompt), s.path, cards=s.elem_type == CARD,
                                       card_lists=s.elem_type == list_of(CARD), types=(s.elem_type,),
                                       candidates=self.fn_of(s.options),
                                       refusal=self._bound_text(s.refusal, s.var) if s.refusal is not None else None))
        otherwise, end = code.label(), code.label()
        where, memo = self.closures.condition(s.where, s.var) if s.where is not None else (None, False)
        pc = code.emit(vm.choose(cid, self.fn_of(s.options), s.var, where, self.fn(s.by),
                                 otherwise if s.otherwise is not None else None, memo, (s.var,)), s.path)
        self.marks[id(s)] = {"pc": pc, "cid": cid}
        self._note_card_scope(pc + 1, s.holding)
        if s.otherwise is not None:
            code.emit(vm.jump(end), s.path)
            code.place(otherwise)
            self.steps(s.otherwise)
            code.place(end)

    def _cf_ChooseAmong(self, s: ir.ChooseAmong):
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
        self.marks[id(s)] = {"pc": pc, "cid": cid, "options": options}
        self._note_card_scope(pc + 1, s.holding)
        starts = [code.label() if a.body is not None else end for a in kinds]
        code.emit(vm.pick(PICK, [([n for n, _, _ in a.names], at) for a, at in zip(kinds, starts)]), s.path)
        for a, at in zip(kinds, starts):
            if a.body is not None:
                code.place(at)
                self.steps(a.body)
                code.emit(vm.jump(end), a.path)
        if s.otherwise is not None:
            code.place(otherwise)
            self.steps(s.otherwise)
        code.place(end)

    def among_options(self, s: ir.ChooseAmong, legal_only=True):
        """fn(state, locals) -> the options of a choice among kinds (shared with pyback/)."""
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
                                      for a in kinds))

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

    def _cf_Emit(self, s: ir.Emit):
        self.marks[id(s)] = {"pc": self.emit_event(s.event, {k: self.fn_of(e) for k, e in s.payload}, s.path, s.holding)}

    def _cf_Request(self, s: ir.Request):
        code = self.code
        if s.piece is not None:
            self.bind("piece", s.piece_type)
        top, answer, end = code.label(), code.label(), code.label()
        start = code.emit(vm.request_start(self.fn_of(s.src), self.fn_of(s.dst)), s.path)
        code.place(top)
        pc = code.emit(vm.request_ask(self.dispatch.get(s.event), self.fn(s.piece)), s.path)
        if s.event in self.dispatch:
            self.marks.setdefault("calls", []).append((pc, self.dispatch[s.event]))
            self.point(s.event, pc + 1, (pc, pc + 1, True))     # once its triggers have answered
        self.marks[id(s)] = {"pc": start, "top": top, "end": end}
        self._note_card_scope(pc + 1, s.holding)
        code.emit(vm.request_check(s.var, answer, top, end), s.path)
        code.place(answer)
        self.steps(s.answer)
        code.emit(vm.request_done(s.var), s.path)
        code.place(end)

    def _cf_Call(self, s: ir.Call):
        pc = self.code.emit(vm.call(self.procs[s.procedure], {k: self.fn_of(e) for k, e in s.args}), s.path)
        self.marks[id(s)] = {"pc": pc}
        self.marks.setdefault("calls", []).append((pc, self.procs[s.procedure]))
        self._note_card_scope(pc + 1, s.holding)


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
        if isinstance(t, ir.Current):
            return effects.set_current(v)
        if isinstance(t, ir.GlobalVar):
            return effects.add_global(t.name, v) if add else effects.set_global(t.name, v, _kind(t.type))
        owner = self.fn_of(t.owner)
        return effects.add_player(t.name, owner, v) if add else effects.set_player(t.name, owner, v, _kind(t.type))


def _kind(typ) -> str | None:
    """Which size check a stored value of type `typ` needs (see limits.py)."""
    if typ == NUM:
        return "number"
    if typ == STR:
        return "string"
    if elem_of(typ) is not None:
        return "list"
    return None


def _sequence(fns):
    def run(s, l):
        for f in fns:
            f(s, l)
    return run
