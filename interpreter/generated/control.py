"""The control-flow writers: `if`, the loops, turns and calls as Python, laid out as the
closure back end lays them out (closures/layout.py gives every pc by name)."""
from __future__ import annotations

from ..closures.layout import (CallLayout, EffectLayout, EmitLayout, ExitLayout, ForEachLayout, IfLayout, RepeatLayout,
                              TurnsLayout, WhileLayout)
from ..lang import ir
from .writer import CALLS_WRITTEN_IN, FN_LINES, Special


class ControlWriter:
    """The part of the Generator (generated/generator.py) that writes control flow: `write_<Kind>`
    returns True when every path through the step has returned.  Each instruction written is
    counted with its pc (`fn.count(pc)`), read from the step's layout record."""

    def write_If(self, step, rest, fn) -> bool:
        if step.fixed is not None:
            live = step.then if step.fixed else step.else_
            return self.steps(live or (), 0, rest, fn)
        place = self.laid(step, IfLayout)
        pc, skip = place.test, place.skip_else
        fn.count(pc)
        if step.cond.is_const:          # an option folded it: the test is a step, the branch is known
            if not step.cond.const:
                return self.steps(step.else_ or (), 0, rest, fn)
            if step.else_ is None:
                return self.steps(step.then, 0, rest, fn)
            then_rest = Special(lambda f: (f.count(skip), rest.emit(self, f)))
            done = self.steps(step.then, 0, then_rest, fn)
            if not done:
                fn.count(skip)          # the jump over the else
            return done
        cond = self.value(fn, step.cond, pc)
        fn.flush()
        fn.add(f"if {cond}:")
        before = fn.budget          # each branch may write in what the other does
        with fn.block():            # after the then-branch, a jump over the else (if any) counts
            then_rest = rest if step.else_ is None else Special(lambda f: (f.count(skip), rest.emit(self, f)))
            done_then = self.steps(step.then, 0, then_rest, fn)
            if step.else_ is not None and not done_then:
                fn.count(skip)      # the jump over the else
        after_then = fn.budget
        fn.budget = before
        done_else = False
        if step.else_ is not None:
            fn.add("else:")
            with fn.block():
                done_else = self.steps(step.else_, 0, rest, fn)
        after_else = fn.budget
        if done_then:               # what follows runs after the else only
            fn.budget = after_else
        elif not done_else:
            fn.budget = tuple(map(max, after_then, after_else))
        else:
            fn.budget = after_then
        return done_then and done_else

    def write_Exit(self, step, rest, fn) -> bool:
        pc = self.laid(step, ExitLayout).pc
        self.at(fn, pc)
        fn.count(pc)
        fn.leave(f"_exit_to(s, {step.to!r})", self.exits[step.to])
        return True

    def write_While(self, step, rest, fn) -> bool:
        place = self.laid(step, WhileLayout)
        if self.leaves(step):
            top = place.test
            self.entry(top, lambda f: self.while_top(step, rest, f))
            self.while_top(step, rest, fn)
            return True
        fn.flush()
        fn.add("while True:")
        with fn.block():
            fn.count(place.test)
            fn.flush()
            fn.add(f"if not {self.expr(fn, step.cond, place.test)}: break")
            self.steps(step.body, 0, None, fn)
            fn.count(place.back)
            self.bail(fn, place.test)
        return False

    def bail(self, fn, top):
        """At the end of a turn of a loop written in: past the threshold (engine: the point
        from which a game goes on step by step, so that the step limit stops it where the
        closures stop it), the loop's cursors are set as the instructions keep them, and the
        function returns the loop's top."""
        fn.flush()
        fn.add("if s.steps + n > _T:")
        for cursor, index in self.cursors:
            fn.add(f"    {cursor}[1] = {index} + 1")
        fn.add("    s.steps += n")
        fn.add(f"    return {top}")
        fn.leaves_to(top)

    def while_top(self, step, rest, fn):
        place = self.laid(step, WhileLayout)
        top = place.test
        fn.count(top)
        cond = self.expr(fn, step.cond, top)
        fn.flush()
        fn.add(f"if not {cond}:")
        with fn.block(tail=True):
            rest.emit(self, fn)
        back = Special(lambda f: (f.count(place.back), self.jump(f, top, lambda g: self.while_top(step, rest, g))))
        self.tail(step.body, 0, back, fn)

    def write_Repeat(self, step, rest, fn) -> bool:
        place = self.laid(step, RepeatLayout)
        if self.leaves(step):
            top = place.top
            after = Special(lambda f: self.repeat_until(step, rest, f))
            self.entry(top, lambda f: self.tail(step.body, 0, after, f))
            self.tail(step.body, 0, after, fn)
            return True
        fn.flush()
        fn.add("while True:")
        with fn.block():
            self.steps(step.body, 0, None, fn)
            fn.count(place.until)
            fn.flush()
            fn.add(f"if {self.expr(fn, step.until, place.until)}: break")
            self.bail(fn, place.top)
        return False

    def repeat_until(self, step, rest, fn):
        place = self.laid(step, RepeatLayout)
        fn.count(place.until)
        until = self.expr(fn, step.until, place.until)
        fn.flush()
        fn.add(f"if not {until}:")
        with fn.block(tail=True):
            after = Special(lambda f: self.repeat_until(step, rest, f))
            self.jump(fn, place.top, lambda f: self.tail(step.body, 0, after, f))
        rest.emit(self, fn)

    def write_ForEach(self, step, rest, fn) -> bool:
        place = self.laid(step, ForEachLayout)
        key, var = place.key, step.var
        fn.count(place.start)
        items = self.expr(fn, step.items, place.start)
        if self.leaves(step):
            fn.add(f"l[{key!r}] = [list({items}), 0]")
            top = place.next
            self.entry(top, lambda f: self.for_each_top(step, rest, f))
            self.for_each_top(step, rest, fn)
            return True
        it, x, cursor, i = self.fresh("_it"), self.fresh("_x"), self.fresh("_c"), self.fresh("_i")
        fn.add(f"{it} = list({items})")
        fn.add(f"{cursor} = l[{key!r}] = [{it}, len({it})]")     # as the last iter_next leaves it
        fn.flush()
        logs_only = step.body and all(isinstance(st, ir.Log) for st in step.body)
        if logs_only:       # with no account kept, only its steps are left: counted at once
            per = 2 + len({self.laid(st, EffectLayout).pc for st in step.body})   # iter_next, the logs' batches, jump top
            fn.add(f"if s.log is None and s.steps + n + {per} * len({it}) <= _T:")
            fn.add(f"    n += {per} * len({it})")
            fn.add(f"    if {it}: l[{var!r}] = {it}[-1]")
            fn.add("else:")
            fn.depth += 1
        fn.add(f"for {i}, {x} in enumerate({it}):")
        with fn.block():
            fn.count(place.next)
            fn.add(f"l[{var!r}] = {x}")
            self.cursors.append((cursor, i))
            try:
                self.steps(step.body, 0, None, fn)
                fn.count(place.back)
                self.bail(fn, place.next)
            finally:
                self.cursors.pop()
        if logs_only:
            fn.depth -= 1
        fn.count(place.next)                    # the last iter_next
        return False

    def for_each_top(self, step, rest, fn):
        place = self.laid(step, ForEachLayout)
        top = place.next
        fn.count(top)
        self.at(fn, top)
        fn.add(f"_cur = l[{place.key!r}]")
        fn.add("_items, _i = _cur")
        fn.flush()
        fn.add("if _i >= len(_items):")
        with fn.block(tail=True):
            rest.emit(self, fn)
        fn.add(f"l[{step.var!r}] = _items[_i]")
        fn.add("_cur[1] = _i + 1")
        back = Special(lambda f: (f.count(place.back), self.jump(f, top, lambda g: self.for_each_top(step, rest, g))))
        self.tail(step.body, 0, back, fn)

    def write_Turns(self, step, rest, fn) -> bool:
        place = self.laid(step, TurnsLayout)
        pc, key, top = place.start, place.key, place.check
        fn.count(pc)
        self.at(fn, pc)
        if step.order is not None:
            fn.add(f"l[{key!r}] = [list({self.expr(fn, step.order, pc)}), 0]")
        else:
            if step.first is not None:
                fn.add(f"s.current = {self.expr(fn, step.first, pc)}")
            else:
                fn.add("if s.current is None or s.out[s.current]:")
                fn.add("    s.current = next((_p for _p in s.players if not s.out[_p]), None)")
            count = f"int({self.expr(fn, step.count, pc)})" if step.count is not None else "-1"
            fn.add(f"l[{key!r}] = [0, {count}]")
        self.entry(top, lambda f: self.turns_top(step, rest, f))
        self.entry(place.turn_end, lambda f: self.turn_end(step, rest, f))
        self.turns_top(step, rest, fn)
        return True

    def turns_top(self, step, rest, fn):
        place = self.laid(step, TurnsLayout)
        pc, key = place.check, place.key
        fn.count(pc)
        self.at(fn, pc)
        fn.add(f"_cur = l[{key!r}]")
        if step.order is not None:
            fn.add("_items = _cur[0]")
            fn.add("while _cur[1] < len(_items) and s.out[_items[_cur[1]]]: _cur[1] += 1")
            test = "_cur[1] >= len(_items)"
            if step.until is not None:
                test += f" or {self.expr(fn, step.until, pc)}"
        else:
            test = "_cur[0] == _cur[1] or s.current is None"
            if step.until is not None:
                test = f"{self.expr(fn, step.until, pc)} or " + test
        fn.flush()
        fn.add(f"if {test}:")
        with fn.block(tail=True):
            rest.emit(self, fn)
        if step.order is not None:
            fn.add("s.current = _items[_cur[1]]")
            fn.add("_cur[1] += 1")
        else:
            fn.add("_cur[0] += 1")
        fn.add(f"s.scopes.append(('turn', len(s.frames), {place.turn_end}, len(s.requests)))")
        body = Special(lambda f: self.turn_end(step, rest, f))
        call = place.start_call
        if call is not None:
            self.call(fn, call, self.layout.dispatch["turn_start"], "{}",
                      lambda f: self.tail(step.body, 0, body, f))
            return
        self.tail(step.body, 0, body, fn)

    def turn_end(self, step, rest, fn):
        place = self.laid(step, TurnsLayout)
        fn.count(place.turn_end)
        fn.add("s.scopes.pop()")
        call = place.end_call
        if call is not None:
            self.call(fn, call, self.layout.dispatch["turn_end"], "{}", lambda f: self.turn_next(step, rest, f))
            return
        self.turn_next(step, rest, fn)

    def turn_next(self, step, rest, fn):
        place = self.laid(step, TurnsLayout)
        fn.count(place.next)
        top = place.check
        self.at(fn, place.next)
        fn.flush()
        fn.add("if l.pop('#restart', False):")            # restart_turns: from the turns' start again
        with fn.block(tail=True):
            self.goto(fn, place.start, lambda f: self.write_Turns(step, rest, f))
        if step.order is None:
            if step.next is not None:
                fn.add(f"s.current = {self.expr(fn, step.next, place.next)}")
            else:                       # state.next_seat, its first step written in
                fn.add("_q = s.current + 1")
                fn.add("if _q == len(s.out): _q = 0")
                fn.add("s.current = _q if not s.out[_q] else _next_seat(s, s.current)")
        self.jump(fn, top, lambda f: self.turns_top(step, rest, f))

    def call(self, fn, pc, target, payload, write_return, items=()):
        """A call instruction at `pc`: a frame returning to pc + 1, as vm.call's does (written by
        write_return); the payload's `items` (name, node) are computed first, in order, as the
        instruction does."""
        fn.count(pc)
        if items:
            fn.add("_pay = {}")
            for k, node in items:
                fn.add(f"_pay[{k!r}] = {self.expr(fn, node, pc)}")
            payload = "_pay"
        fn.add(f"s.frames.append(({pc + 1}, l))")
        self.entry(pc + 1, write_return)
        if fn.calls < CALLS_WRITTEN_IN and len(fn.lines) < FN_LINES:   # the callee's code written in,
            fn.calls += 1                       # on its own locals; its return goes on at pc + 1
            fn.add(f"s.locals = l = {payload}")
            self.special += 1
            try:
                self.tail(self.bodies[target], 0, Special(lambda f: self.return_to(f, write_return, target)), fn)
            finally:
                self.special -= 1
            return
        fn.add(f"s.locals = {payload}")
        fn.leave(target)

    def write_Call(self, step, rest, fn) -> bool:
        pc = self.laid(step, CallLayout).call
        self.call(fn, pc, self.layout.procs[step.procedure], "{}", rest.emit_fn(self), step.args)
        return True

    def write_Emit(self, step, rest, fn) -> bool:
        pc = self.laid(step, EmitLayout).call
        if pc is None:
            return False
        self.call(fn, pc, self.layout.dispatch[step.event], "{}", rest.emit_fn(self), step.payload)
        return True

