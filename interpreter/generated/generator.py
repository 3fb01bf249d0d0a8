"""The generator: every entry of a program as a Python function, the generated back end's
instructions.

The closure back end lays a ruleset out as VM instructions (closures/steps.py), one
closure per instruction, and the run loop calls one per step.  This module writes the
same instructions as Python functions, each running as far as it can: from an *entry*
(a point the run loop may continue at: the start, the return from a decision, from a
procedure or a trigger, the top of a loop that waits for a decision inside, the end of a
scope that end_turn / end_round / end_game jumps to) through plain Python `if`s, loops and
inlined expressions, up to the next point where the game waits or control moves
elsewhere, where it returns the next pc as an instruction does.

The layout is the closure back end's, instruction for instruction (read from its records,
closures/layout.py, never counted here): the same pcs, the same
locals (loop cursors included), frames, scopes and requests, and the same count of steps
(each function adds the number of instructions it stood for), so that a state is the same
plain data under either back end, and a game paused under one can continue under the other.

What is written in where: a loop's top and a called procedure or trigger dispatcher are
written into the function once per path (JUMPS_WRITTEN_IN, CALLS_WRITTEN_IN), a procedure
called from one place returns straight there, and what follows a loop or a decision is
written in until a function grows long (INLINE_LINES), after which it is reached by a return;
past TOTAL_LINES in all the ruleset is left to the closure back end (code size stays linear).

The parts: writer.py (a function's lines, blocks, places; what follows a list of steps),
control.py (if, loops, turns, calls), decisions.py (choices, requests), effects.py (plain
effects), faults.py (a fault told as the closure back end tells it), names.py (what
generated code calls).  Each line of the generated module has a place (Generator.places),
by which faults.py finds where a fault happened: nothing is noted as the code runs.

The step limit: from Program.switch_at on (the limit less the most steps a function runs
between two checks) the run loop goes on with the closure instructions of the same layout,
step by step, so that a game stops at the very step where the closures stop it.
"""
from __future__ import annotations

from ..closures.layout import EffectLayout, Layout, TurnsLayout
from ..lang import ir
from ..lang.expr_ir import draws_random
from . import cache
from .control import ControlWriter
from .decisions import DecisionWriter
from .effects import EffectWriter
from .expressions import TOO_BIG_FOR_PYTHON, Source
from .faults import Faults
from .names import HELPERS
from .writer import FN_LINES, JUMPS_WRITTEN_IN, TOTAL_LINES, After, Fn, Place, Special, TooMuchCode


class Generator(ControlWriter, DecisionWriter, EffectWriter):
    """Writes every entry of a program as a Python function (see the module's docstring)."""

    def __init__(self, ruleset: ir.Ruleset, program, builder, source: Source):
        self.r = ruleset
        self.program = program
        self.layout: Layout = builder.layout    # where the closure back end put each instruction
        self.src = source
        self.ns = source.ns
        self.ns.update(HELPERS)
        self.effect_fns = builder           # builds the effects not written out (closures over generated parts)
        self.entries = {}                   # pc -> Fn
        self.todo = []                      # (pc, write) of entries to write
        self.todo_callees = []              # ... of procedures and dispatchers: written last
        self.places = [Place(0, None)]       # see at()
        self.uid = 0
        self.leaves_memo = {}
        self.special = 0                    # > 0: writing a callee in at its call (see call)
        self.cursors = []                   # (cursor, index) of the for_each loops written in around
        self.bodies = {}                    # pc of a procedure or dispatcher -> its steps
        self.call_returns = {}              # pc of a procedure or dispatcher -> where its calls return
        self.effect_names = {}              # id(step) -> name of its effect's closure
        self.pieces = {}                    # id(request step) -> name of its piece's function
        self.among_names = {}               # id(choice among kinds) -> name of its options' function
        self.trigger_ifs = {}               # id(a trigger as an `if`) -> the layout of its `when`
        flow = self.layout.flow             # where end_turn, end_round and end_game may go on (vm.unwind)
        self.exits = {"game": (flow.end,), "round": (flow.round_end,),
                      "turn": tuple(r.turn_end for r in self.layout.steps.values() if isinstance(r, TurnsLayout))}
        self.texts = {}                     # id(node) -> its text (a step's expressions, outside any context)
        self.writers = {}                   # pc -> what writes its entry
        self.line_places = {}               # line of the generated module -> place
        self.dispatchers = {}               # event -> its triggers as steps
        self.left_out = 0                   # functions Python would not compile (see compile_each)

    # -- names and places ----------------------------------------------------------------------
    def fresh(self, prefix):
        self.uid += 1
        return f"{prefix}{self.uid}"

    def const(self, value, prefix="_x"):
        name = self.fresh(prefix)
        self.ns[name] = value
        return name

    def at(self, fn, pc, index=None, node=None, binds=None):
        """Note the place the next lines are at: its pc and effect, the expression computed there
        (to say what failed), the instructions counted but not yet added to `n` (the steps a
        fault has taken), and whether it draws random numbers (the generator's state is kept
        first, so that the expression computed again draws the same)."""
        redraws = node is not None and draws_random(node)
        if redraws:
            fn.add("_rs = s.rng.state")
        self.places.append(Place(pc, index, node, binds, fn.k, redraws, tuple(self.cursors)))
        fn.place(len(self.places) - 1)

    def renote(self, fn, w=None):
        """Note place `w` (default: the current one) again, with no instruction pending."""
        w = fn.current if w is None else w
        if w is None:
            return
        if self.places[w].pending == 0 and w == fn.current:
            return
        self.places.append(self.places[w]._replace(pending=0))
        fn.place(len(self.places) - 1)

    def expr(self, fn, node, pc, index=None) -> str:
        """The text of `node`, its place noted (a fault in it is computed again by the closures);
        written once per node (a step's code may be written into several functions)."""
        self.at(fn, pc, index, node)
        if id(node) not in self.texts:
            self.texts[id(node)] = self.src.text(node)
        return self.texts[id(node)]

    def laid(self, step, kind=None):
        """Where the closure back end laid `step` out (closures/layout.py), of the `kind` read."""
        record = self.trigger_ifs.get(id(step)) or self.layout.of(step, kind)
        assert record is not None, f"{type(step).__name__} at {step.path} was not laid out"
        return record

    # -- entries ---------------------------------------------------------------------------------
    def entry(self, pc, write):
        """Make `pc` an entry (once): a function whose code `write(fn)` writes, ending in a return."""
        if pc not in self.writers and not self.special:     # written in at a call: not the general case
            self.writers[pc] = write
            (self.todo_callees if pc in self.bodies else self.todo).append((pc, write))
        return pc

    def goto(self, fn, pc, write):
        self.entry(pc, write)
        fn.leave(pc)

    def jump(self, fn, pc, write):
        """Go back to a loop's top: its code is written in once per function (the game goes on
        from a decision straight into the next turn), and reached through the run loop after that."""
        self.entry(pc, write)
        if fn.jumps < JUMPS_WRITTEN_IN and len(fn.lines) < FN_LINES:
            fn.jumps += 1
            write(fn)
        else:
            fn.leave(pc)

    def build(self):
        """Every entry's function, compiled: {pc: fn}, and the source of them all."""
        r, flow = self.r, self.layout.flow
        self.entry(flow.start, self.write_start)
        self.entry(flow.round_top, self.write_round_top)
        self.entry(flow.round_end, self.write_round_end)
        self.entry(flow.end, self.write_game_end)
        for name, pc in self.layout.procs.items():
            self.bodies[pc] = r.procedures[name]
        for name, pc in self.layout.dispatch.items():
            self.bodies[pc] = self.trigger_steps(name)
        for call, target in self.layout.calls:
            self.call_returns.setdefault(target, set()).add(call + 1)      # a call returns after itself (vm.call)
        for pc, steps in self.bodies.items():
            self.entry(pc, lambda fn, steps=steps, pc=pc: self.tail(steps, 0, Special(lambda f: self.write_ret(f, pc)), fn))
        total = 0
        while self.todo or self.todo_callees:   # callees last: the returns of their calls are known by then
            pc, write = (self.todo or self.todo_callees).pop(0)
            fn = self.entries[pc] = Fn(f"_at{pc}", self.renote)
            write(fn)
            total += len(fn.lines)
            if total > TOTAL_LINES:
                raise TooMuchCode(f"more than {TOTAL_LINES} lines")
        texts, line, firsts = [], 1, {}
        for pc in sorted(self.entries):
            text = self.entries[pc].text(line, self.line_places)
            texts.append(text)
            firsts[pc] = line
            line += text.count("\n") + 4           # three blank lines between functions
        source = "\n\n\n\n".join(texts) + "\n"
        self.file = f"<generated {self.r.name}>"
        self.ns["_fault"] = Faults(self.file, self.places, self.line_places, self.src.closures)
        try:
            exec(cache.compiled(source, self.file), self.ns)
        except TOO_BIG_FOR_PYTHON:
            self.compile_each(texts, firsts)
        most = max((fn.total for fn in self.entries.values()), default=0)
        limit = self.program.max_steps
        self.ns["_T"] = self.switch_at = limit - most if limit > most else -1
        compiled = {pc: self.ns[f"_at{pc}"] for pc in self.entries if f"_at{pc}" in self.ns}
        self.reach = {pc: frozenset(self.entries[pc].pcs | self.entries[pc].targets) for pc in compiled}
        return compiled, source

    def compile_each(self, texts, firsts):
        """Compile the functions one by one, leaving out any that nests deeper than Python
        allows: the run loop then runs the closure back end's instructions from that pc on
        (they keep the same state), until it reaches the next generated entry."""
        for pc, text in zip(sorted(self.entries), texts):
            try:
                exec(compile("\n" * (firsts[pc] - 1) + text, self.file, "exec"), self.ns)
            except TOO_BIG_FOR_PYTHON:
                self.left_out += 1      # tests hold this at 0 for every ruleset that is not hostile

    def trigger_steps(self, event):
        """A dispatcher's triggers as steps: each an `if` on its `when` (laid out as one),
        or its body alone (a fixed `if`: its own run of effects)."""
        if event in self.dispatchers:
            return self.dispatchers[event]
        out = []
        for t in self.r.triggers[event]:
            step = ir.If(t.path, t.when, t.body, None, None if t.when is not None else True)
            self.trigger_ifs[id(step)] = self.layout.triggers[id(t)]
            out.append(step)
        self.dispatchers[event] = tuple(out)        # known by id: kept alive here
        return self.dispatchers[event]

    # -- what may wait or jump away ------------------------------------------------------------
    def leaves(self, step) -> bool:
        """Whether running `step` may return to the run loop (a decision, a call, an exit)."""
        key = id(step)
        if key not in self.leaves_memo:
            self.leaves_memo[key] = self._leaves(step)
        return self.leaves_memo[key]

    def _leaves(self, step) -> bool:
        if isinstance(step, ir.Effect):
            return False
        leaves = self.laid(step).leaves()
        if leaves is not None:
            return leaves
        if isinstance(step, ir.If):
            live = (step.then, step.else_) if step.fixed is None else \
                ((step.then,) if step.fixed else (step.else_,))
            return any(self.leaves(x) for part in live for x in (part or ()))
        return any(self.leaves(x) for x in step.body)

    # -- lists of steps --------------------------------------------------------------------------
    def tail(self, steps, index, then, fn):
        """Write steps[index:] and then what follows them: ends in a return."""
        if not self.steps(steps, index, then, fn):
            then.emit(self, fn)

    def steps(self, steps, index, then, fn) -> bool:
        """Write steps[index:] falling through at the end; `then` is what follows them (for the
        entries inside).  True when every path has returned."""
        i = index
        while i < len(steps):
            step = steps[i]
            if isinstance(step, ir.Effect):
                j, pc = i, self.laid(step, EffectLayout).pc
                while j < len(steps) and isinstance(steps[j], ir.Effect) and self.laid(steps[j]).pc == pc:
                    j += 1                  # (a step with an id is a batch of its own: closures/steps.py)
                fn.count(pc)                # one instruction runs the whole batch
                for e in steps[i:j]:
                    self.effect(fn, e)
                i = j
                continue
            rest = After(steps, i + 1, then)
            if getattr(self, "write_" + type(step).__name__)(step, rest, fn):
                return True
            i += 1
        return False

    # -- the game's frame: setup, rounds, end ------------------------------------------------------
    def write_start(self, fn):
        fn.count(self.layout.flow.start)
        fn.add(f"s.scopes.append(('game', len(s.frames), {self.layout.flow.end}, len(s.requests)))")
        self.tail(self.r.flow.setup, 0, Special(self.write_round_top), fn)

    def write_round_top(self, fn):
        flow = self.layout.flow
        fn.count(flow.round_top)
        fn.add(f"s.scopes.append(('round', len(s.frames), {flow.round_end}, len(s.requests)))")
        fn.add("s.rounds += 1")
        fn.add(f"if s.log is not None: {self.const(self.layout.round_started, '_round')}(s)")
        body = lambda f: self.tail(self.r.flow.round, 0, Special(self.write_round_end), f)  # noqa: E731
        if flow.start_call is not None:
            self.call(fn, flow.start_call, self.layout.dispatch["round_start"], "{}", body)
            return
        body(fn)

    def write_round_end(self, fn):
        flow = self.layout.flow
        fn.count(flow.round_end)
        fn.add("s.scopes.pop()")
        if flow.end_call is not None:
            self.call(fn, flow.end_call, self.layout.dispatch["round_end"], "{}", self.write_until)
            return
        self.write_until(fn)

    def write_until(self, fn):
        flow = self.layout.flow
        fn.count(flow.until)
        fn.add(f"{self.const(self.layout.round_ended, '_round_end')}(s)")   # statistics, account
        until = self.expr(fn, self.r.flow.until, flow.until)
        fn.flush()
        fn.add(f"if not {until}:")
        with fn.block(tail=True):
            fn.leave(flow.round_top)
        self.write_game_end(fn)

    def write_game_end(self, fn):
        fn.count(self.layout.flow.end)
        fn.add("s.scopes.pop()")
        self.tail(self.r.flow.end, 0, Special(self.write_halt), fn)

    def write_halt(self, fn):
        fn.count(self.layout.flow.halt)
        fn.add("s.over = True")
        fn.add(f"s.pc = {self.layout.flow.halt}")
        fn.leave(-1)

    def return_to(self, fn, write_return, body):
        """The return of a callee written in at its call (`body`: the callee's first pc): the
        frame it pushed is popped, and the caller's code goes on here (as general code again:
        its entries are the caller's)."""
        fn.count(self.layout.returns[body])
        fn.add("_ret, l = s.frames.pop()")
        fn.add("s.locals = l")
        saved = self.special
        self.special = saved - 1        # back in the caller's code (itself written in at a call, or not)
        try:
            write_return(fn)
        finally:
            self.special = saved

    def write_ret(self, fn, body=None):
        """The return from a procedure or trigger dispatcher; called from one place only, it
        goes on there (written in, once per function, as a loop's top)."""
        fn.count(self.layout.returns[body])
        returns = self.call_returns.get(body, ())
        if len(returns) == 1 and not self.special:
            (back,) = returns
            fn.add("_ret, l = s.frames.pop()")
            fn.add("s.locals = l")
            if back in self.writers:
                self.jump(fn, back, self.writers[back])
            else:
                fn.leave(back)
            return
        fn.add("_ret, s.locals = s.frames.pop()")
        fn.leave("_ret", returns)
