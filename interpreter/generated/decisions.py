"""The decision writers: choices, choices among kinds and requests as Python, up to the
point where the game waits (s.pending) and from where it goes on."""
from __future__ import annotations

from ..closures.layout import AmongLayout, ChoiceLayout, RequestLayout, unset_names
from .writer import Special


class DecisionWriter:
    """The part of the Generator (generated/generator.py) that writes decisions: `step_<Kind>`."""

    def write_Choose(self, step, rest, fn) -> bool:
        place = self.laid(step, ChoiceLayout)
        pc = place.ask
        resume = rest if step.otherwise is None else Special(lambda f: (f.count(place.resume), rest.emit(self, f)))
        self.entry(place.resume, resume.emit_fn(self))      # (with an `otherwise`: the jump past it)
        self.entry(pc, lambda f: self.write_Choose(step, rest, f))
        fn.count(pc)
        fn.add(f"_opts = {self.expr(fn, step.options, pc)}")
        if step.where is not None and step.where.is_const:       # an option decided it
            fn.add("_opts = list(_opts)" if step.where.const else "_opts = []")
            fn.add(f"if {step.var!r} not in l: l[{step.var!r}] = None")
        elif step.where is not None:
            if id(step) not in self.texts:
                o = self.fresh("_o")
                self.texts[id(step)] = (o,) + self.src.condition(step.where, step.var, o)
            o, where, memo, reads = self.texts[id(step)]
            for name, text in reads:
                fn.add(f"{name} = {text}")
            if memo:
                fn.add("_m = {}")
            self.at(fn, pc, None, step.where, {"_opts": (step.var,)})
            fn.add(f"_opts = [{o} for {o} in _opts if {where}]")
            fn.add(f"if {step.var!r} not in l: l[{step.var!r}] = None")
        else:
            fn.add("_opts = list(_opts)")
        return self.pend(step, rest, fn, pc, place.resume, place.cid, (step.var,))

    def write_ChooseAmong(self, step, rest, fn) -> bool:
        """The choice as the closure back end computes its options (kinds, combinations, their
        `where`), then, on return from the decision, the pick written as an if per kind."""
        place = self.laid(step, AmongLayout)
        pc = place.ask
        if id(step) not in self.among_names:
            self.among_names[id(step)] = self.const(place.options, "_among")
        self.entry(place.pick, lambda f: self.write_pick(step, rest, f))
        self.entry(pc, lambda f: self.write_ChooseAmong(step, rest, f))
        fn.count(pc)
        if all(len(a.names) <= 1 for a in step.alternatives):
            self.among_options(step, fn, pc)
        else:
            self.at(fn, pc)
            fn.add(f"_opts = {self.among_names[id(step)]}(s, l)")
        return self.pend(step, rest, fn, pc, place.pick, place.cid, unset_names(step))

    def among_options(self, step, fn, pc):
        """The options of a choice among kinds of one name (or a word) each, written out as
        vm.among_options computes them (the same work charged, the same limits, each option's
        name left as it finds it or null), so that no call per option is made: a kind's `when`,
        its list, its options' `where` in one comprehension."""
        fn.flush()                  # the steps counted so far, before any `if` of a kind's `when`
        fn.add("_opts = []")
        for k, a in enumerate(step.alternatives):
            if a.when is None or a.when.is_const:
                if a.when is None or a.when.const:
                    self.among_kind(k, a, fn, pc)
                continue
            fn.add(f"if {self.expr(fn, a.when, pc)}:")
            with fn.block():
                self.among_kind(k, a, fn, pc)
        fn.add("if len(_opts) > _MAXL: _too_many_options()")

    def among_kind(self, k, a, fn, pc):
        where = a.where
        if not a.names:                                 # a word: one option
            fn.add("_charge(s, 1)")
            test = "" if where is None or where.is_const else f"if {self.expr(fn, where, pc)}: "
            if where is None or not where.is_const or where.const:
                fn.add(f"{test}_opts.append([{k}])")
            return
        name, lst, _ = a.names[0]
        fn.add(f"_xs = list({self.expr(fn, lst, pc)})")
        fn.add("if len(_xs) > _MAXL: _too_many_options()")
        fn.add("_charge(s, len(_xs))")
        if where is None or where.is_const:
            if where is None or where.const:
                fn.add(f"_opts += [[{k}, _o] for _o in _xs]")
        else:
            if id(a) not in self.texts:
                o = self.fresh("_o")
                self.texts[id(a)] = (o, self.src.bound(where, name, o))
            o, test = self.texts[id(a)]
            self.at(fn, pc, None, where, {"_xs": (name,)})
            fn.add(f"_opts += [[{k}, {o}] for {o} in _xs if {test}]")
        if where is not None:
            fn.add(f"if {name!r} not in l: l[{name!r}] = None")

    def pend(self, step, rest, fn, pc: int, resume: int, cid: int, unset) -> bool:
        """A choice's options (in _opts) made the pending decision, the game to go on at
        `resume`: none is the step's `otherwise` (its names `unset` set to null) or a rules
        error; then who decides."""
        fn.flush()
        fn.add("if not _opts:")
        with fn.block(tail=True):
            if step.otherwise is None:
                fn.add("_no_option()")
            else:
                for name in unset:
                    fn.add(f"l[{name!r}] = None")
                self.tail(step.otherwise, 0, rest, fn)
        if step.by is not None:
            fn.add(f"_who = {self.expr(fn, step.by, pc)}")
            fn.add("if _who is None: _nobody(True)")
        else:
            fn.add("_who = s.current")
            fn.add("if _who is None: _nobody(False)")
        fn.add(f"s.pending = (_who, _opts, {cid})")
        fn.add(f"s.pc = {resume}")
        fn.leave(-1)
        return True

    def write_pick(self, step, rest, fn):
        """The pick after a choice among kinds: the option's names bound, its kind's steps (each
        ending in a jump past the others), then what follows the choice."""
        place = self.laid(step, AmongLayout)
        pc = place.pick
        fn.count(pc)
        self.at(fn, pc)
        fn.add("_o = l.pop('#pick')")
        fn.flush()
        before, budgets, word = fn.budget, [], "if"
        for k, a in enumerate(step.alternatives):
            jump = place.jumps[k]           # a kind's steps end in a jump past the others
            after = Special(lambda f, jump=jump: (f.count(jump), rest.emit(self, f)))
            fn.add(f"{word} _o[0] == {k}:")
            word = "elif"
            with fn.block():
                for i, (name, _, _) in enumerate(a.names):
                    fn.add(f"l[{name!r}] = _o[{i + 1}]")
                if a.body is not None:
                    fn.budget = before
                    if self.steps(a.body, 0, after, fn):
                        budgets.append(None)
                        continue
                    fn.count(jump)
                    budgets.append(fn.budget)
        live = [b for b in budgets if b is not None]
        fn.budget = tuple(map(max, *live, before)) if live else before
        rest.emit(self, fn)

    def write_Request(self, step, rest, fn) -> bool:
        place = self.laid(step, RequestLayout)
        pc = place.start
        fn.count(pc)
        src, dst = self.expr(fn, step.src, pc), None
        fn.add(f"_a = {src}")
        dst = self.expr(fn, step.dst, pc)
        fn.add(f"s.requests.append([_a, {dst}, 'open', None, None])")
        self.entry(place.ask, lambda f: self.request_ask(step, rest, f))
        self.entry(place.end, rest.emit_fn(self))
        self.request_ask(step, rest, fn)
        return True

    def request_ask(self, step, rest, fn):
        place = self.laid(step, RequestLayout)
        ask = place.ask
        fn.count(ask)
        fn.add("_rec = s.requests[-1]")
        fn.add("_pay = {'from': _rec[0], 'to': _rec[1]}")
        if step.piece is not None:
            piece = self.piece_fn(step)
            self.at(fn, ask)
            fn.add(f"_rec[4] = _pay['piece'] = {piece}(s, _pay)")
        target = self.layout.dispatch.get(step.event)
        if target is not None:
            self.entry(place.check, lambda f: self.request_check(step, rest, f))
            fn.add(f"s.frames.append(({place.check}, l))")
            fn.add("s.locals = _pay")
            fn.leave(target)
            return
        self.request_check(step, rest, fn)

    def piece_fn(self, step) -> str:
        if id(step) not in self.pieces:
            self.pieces[id(step)] = self.const(self.src.fn(step.piece), "_pf")
        return self.pieces[id(step)]

    def request_check(self, step, rest, fn):
        place = self.laid(step, RequestLayout)
        ask, end = place.ask, place.end
        fn.count(place.check)
        fn.add("_rec = s.requests[-1]")
        fn.add("_st = _rec[2]")
        fn.flush()
        fn.add("if _st == 'refused':")
        with fn.block(tail=True):
            fn.add("s.requests.pop()")
            fn.add(f"l[{step.var!r}] = 'refused'")
            fn.leave(end)
        fn.add("if _st != 'open':")
        with fn.block(tail=True):
            fn.add("_rec[1], _rec[2], _rec[3] = _rec[3], 'open', None")
            fn.add("if _rec[1] == _rec[0]:")
            with fn.block(tail=True):
                fn.add("s.requests.pop()")
                fn.add(f"l[{step.var!r}] = 'lapsed'")
                fn.leave(end)
            fn.leave(ask)
        fn.add("l['from'], l['to'], l['piece'] = _rec[0], _rec[1], _rec[4]")

        def done(f):
            f.count(place.done)
            f.add("s.requests.pop()")
            f.add(f"l[{step.var!r}] = 'answered'")
            rest.emit(self, f)
        self.tail(step.answer, 0, Special(done), fn)

