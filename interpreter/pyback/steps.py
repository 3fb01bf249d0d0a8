"""Steps as Python source: the generated back end's instructions.

The closure back end lays a ruleset out as VM instructions (backend/steps.py), one
closure per instruction, and the run loop calls one per step.  This module writes the
same instructions as Python functions, each running as far as it can: from an *entry*
(a point the run loop may continue at: the start, the return from a decision, from a
procedure or a trigger, the top of a loop that waits for a decision inside, the end of a
scope that end_turn / end_round / end_game jumps to) through plain Python `if`s, loops and
inlined expressions, up to the next point where the game waits or control moves
elsewhere, where it returns the next pc as an instruction does.

The layout is the closure back end's, instruction for instruction: the same pcs, the same
locals (loop cursors included), frames, scopes and requests, and the same count of steps
(each function adds the number of instructions it stood for), so that a state is the same
plain data under either back end, and a game paused under one can continue under the other.

What is written in where: a loop's top and a called procedure or trigger dispatcher are
written into the function once per path (JUMPS_WRITTEN_IN, CALLS_WRITTEN_IN), a procedure
called from one place returns straight there, and what follows a loop or a decision is
written in until a function grows long (INLINE_LINES), after which it is reached by a return;
past TOTAL_LINES in all the ruleset is left to the closure back end (code size stays linear).

A fault: nothing is noted as the code runs.  Each line of the generated module has a place
(Generator.places: the pc and effect, the expression computed there, the steps counted but
not yet added); on an exception `fault` finds the place by the innermost generated line the
exception went through, counts the steps to it, and for an expression computes it again with
the closure back end (the random generator restored first), which says what was null.

The step limit: from Program.switch_at on (the limit less the most steps a function runs
between two checks) the run loop goes on with the closure instructions of the same layout,
step by step, so that a game stops at the very step where the closures stop it.
"""
from __future__ import annotations

from typing import NamedTuple

from ..errors import InterpreterError, RulesError
from ..lang import ir
from ..backend.steps import _kind, unset_names
from ..limits import MAX_LIST, MAX_NUMBER, MAX_STRING, MAX_WORK
from ..runtime import effects, vm
from ..runtime.state import next_seat
from ..lang.expr_ir import draws_random
from . import cache
from .expressions import TOO_BIG_FOR_PYTHON, Source, _charged


# -- helpers the generated code calls ----------------------------------------------------------
def _no_option():
    raise RulesError("no legal option for this choice, and the step has no 'otherwise'")


def _nobody(by):
    raise RulesError("nobody is to make this choice: outside 'turns' a choice needs 'by'"
                     if not by else "'by' names nobody (null) here")


def _not_in_zone():
    raise RulesError("the card to move is not in the zone it should leave")


HELPERS = {"_exit_to": vm.unwind, "_no_option": _no_option, "_nobody": _nobody, "_not_in_zone": _not_in_zone,
           "_too_big": effects._too_big, "_MAXN": MAX_NUMBER,
           "_checks": effects._CHECKS, "_MAXW": MAX_WORK, "_nobody_owns": effects.nobody_owns, "_current_nobody": effects.current_nobody, "_charge": effects.charge, "_moved": effects.moved, "_dealt": effects.dealt, "_charged": _charged, "RulesError": RulesError, "_next_seat": next_seat}


JUMPS_WRITTEN_IN = 2     # loop tops written in, on each path through a function (more: more code, fewer returns)
CALLS_WRITTEN_IN = 2     # callees' code written in at a call, on each path through a function
FN_LINES = 3000          # past this many lines, a function writes no loop top or callee in
INLINE_LINES = 300       # past this many, it goes on to what follows a loop or a decision by a return
TOTAL_LINES = 200_000    # past this many in all, the ruleset is left to the closure back end


class Place(NamedTuple):
    """Where a line of generated code is: what a fault there needs to be told as the closure
    back end tells it (see Generator.at and Generator.fault)."""
    pc: int
    index: int | None               # the effect within the instruction's run of effects
    node: object = None             # the expression computed there (computed again on a fault)
    binds: dict | None = None       # Python names -> local names that expression reads
    pending: int = 0                # instructions counted but not yet added to `n`
    redraws: bool = False           # it draws random numbers: `_rs` holds the generator before
    cursors: tuple = ()             # (cursor, index) of the for_each loops written in around it


class TooMuchCode(InterpreterError):
    """The generated code would be too large: the closure back end runs the ruleset instead
    (pyback/program.py catches it; nobody else sees it)."""


class Fn:
    """The lines of one generated function, and the instructions counted but not yet added to
    `n` (added at once where control may branch or leave)."""

    def __init__(self, name, renote):
        self.name = name
        self.renote = renote            # Generator.renote
        self.lines = []
        self.depth = 2
        self.k = 0
        self.jumps = 0                  # loop tops written in (see Generator.jump)
        self.calls = 0                  # procedures and triggers written in (see Generator.call)
        self.total = 0                  # instructions written: the most it runs between two checks
        self.current = None             # the place the lines written now are at

    def add(self, line):
        self.lines.append("    " * self.depth + line)

    def count(self, k=1):
        self.k += k
        self.total += k

    def flush(self):
        if self.k:
            self.add(f"n += {self.k}")
            self.k = 0
            self.renote(self)           # the place goes on, with nothing pending

    def leave(self, value):
        """Return `value` (a pc) to the run loop, with the steps counted."""
        self.flush()
        self.add("s.steps += n")
        self.add(f"return {value}")

    def block(self, tail=False):
        """An indented block; `tail`: one that always returns, so the code after it runs on the
        other path only and keeps the budgets it had (see Generator.jump)."""
        return _Block(self, tail)

    @property
    def budget(self):
        return self.jumps, self.calls

    @budget.setter
    def budget(self, value):
        self.jumps, self.calls = value

    def place(self, w):
        """The place (Generator.places) that the lines from here on are at."""
        self.lines.append(w)
        self.current = w

    def text(self, first: int, places: dict) -> str:
        """The function's source, its first line being line `first` of the module; `places`
        gets the place of each line (a fault is found by its line: nothing is noted as it runs)."""
        head = [f"def {self.name}(s):", "    l = s.locals", "    n = 0", "    try:"]
        tail = ["    except Exception as e:", "        raise _fault(e, s, l, locals())"]
        body, w = [], 0
        for line in self.lines:
            if isinstance(line, int):
                w = line
                continue
            places[first + len(head) + len(body)] = w
            body.append(line)
        return "\n".join(head + (body or ["        pass"]) + tail)


class _Block:
    """An indented block: counts flushed on the way in and out, `pass` if it stays empty."""

    def __init__(self, fn, tail):
        self.fn, self.tail = fn, tail

    def __enter__(self):
        self.fn.flush()
        self.fn.depth += 1
        self.start = len(self.fn.lines)
        self.budget = self.fn.budget
        self.place = self.fn.current

    def __exit__(self, *exc):
        self.fn.flush()
        if not any(isinstance(line, str) for line in self.fn.lines[self.start:]):
            self.fn.add("pass")
        self.fn.depth -= 1
        if self.tail:
            self.fn.budget = self.budget
        self.fn.renote(self.fn, self.place)    # after the block: the place before it, nothing pending


# -- what comes after a list of steps ends: a chain of contexts --------------------------------
class Context:
    """What follows a list of steps once it ends (a chain of these)."""

    def emit_fn(self, g):
        return lambda fn: self.emit(g, fn)


class After(Context):
    """Continue a list at `index`, then whatever follows it."""

    def __init__(self, steps, index, then):
        self.steps, self.index, self.then = steps, index, then

    def emit(self, g, fn):
        if len(fn.lines) > INLINE_LINES and self.index < len(self.steps) \
                and ("start", id(self.steps[self.index])) in g.marks:          # a long function: go there
            start = g.marks[("start", id(self.steps[self.index]))]
            g.goto(fn, start, lambda f: g.tail(self.steps, self.index, self.then, f))
            return
        g.tail(self.steps, self.index, self.then, fn)


class Special(Context):
    """Code written by a function of the generator: `write(fn)` ends in a return."""

    def __init__(self, write):
        self.write = write

    def emit(self, g, fn):
        self.write(fn)


class Generator:
    """Writes every entry of a program as a Python function (see the module's docstring)."""

    def __init__(self, ruleset: ir.Ruleset, program, builder, code, source: Source):
        self.r = ruleset
        self.program = program
        self.marks = builder.marks
        self.labels = code.labels
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
        self.returns = {}                   # pc of a procedure or dispatcher -> where its calls return
        self.effect_names = {}              # id(step) -> name of its effect's closure
        self.pieces = {}                    # id(request step) -> name of its piece's function
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

    def pc(self, label):
        return label if isinstance(label, int) else self.labels[label]

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
        r, m = self.r, self.marks["flow"]
        self.entry(0, self.write_start)
        self.entry(self.pc(m["round_top"]), self.write_round_top)
        self.entry(self.pc(m["round_end"]), self.write_round_end)
        self.entry(self.pc(m["end"]), self.write_game_end)
        for name, pc in self.marks["procs"].items():
            self.bodies[pc] = r.procedures[name]
        for name, pc in self.marks["dispatch"].items():
            self.bodies[pc] = self.trigger_steps(name)
        for call, label in self.marks.get("calls", ()):
            self.returns.setdefault(self.pc(label), set()).add(call + 1)
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
        self.ns["_fault"] = self.fault
        self.file = f"<generated {self.r.name}>"
        try:
            exec(cache.compiled(source, self.file), self.ns)
        except TOO_BIG_FOR_PYTHON:
            self.compile_each(texts, firsts)
        most = max((fn.total for fn in self.entries.values()), default=0)
        limit = self.program.max_steps
        self.ns["_T"] = self.switch_at = limit - most if limit > most else -1
        return {pc: self.ns[f"_at{pc}"] for pc in self.entries if f"_at{pc}" in self.ns}, source

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
            if t.when is not None:
                self.marks[id(step)] = {"pc": self.marks[id(t)]}
            out.append(step)
        self.dispatchers[event] = tuple(out)        # the marks are by id: kept alive here
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
        if isinstance(step, (ir.Choose, ir.ChooseAmong, ir.Exit, ir.Call, ir.Request, ir.Turns)):
            return True
        if isinstance(step, ir.Emit):
            return self.marks[id(step)]["pc"] is not None
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
                j, pc = i, self.marks[id(step)][0]
                while j < len(steps) and isinstance(steps[j], ir.Effect) and self.marks[id(steps[j])][0] == pc:
                    j += 1                  # (a step with an id is a batch of its own: backend/steps.py)
                fn.count()                  # one instruction runs the whole batch
                for e in steps[i:j]:
                    self.effect(fn, e)
                i = j
                continue
            rest = After(steps, i + 1, then)
            if getattr(self, "step_" + type(step).__name__)(step, rest, fn):
                return True
            i += 1
        return False

    # -- effects ---------------------------------------------------------------------------------
    def effect(self, fn, step):
        pc, index = self.marks[id(step)]
        write = getattr(self, "fx_" + type(step).__name__, None)
        if write is not None:
            write(fn, step, pc, index)
            return
        name = self.effect_fn(step)
        self.at(fn, pc, index)
        if isinstance(step, ir.Log):
            fn.add(f"if s.log is not None: {name}(s, l)")
        else:
            fn.add(f"{name}(s, l)")

    def effect_fn(self, step) -> str:
        """The name of the closure back end's effect for `step` (built once: a step's code may
        be written into several functions)."""
        if id(step) not in self.effect_names:
            built = getattr(self.effect_fns, "_fx_" + type(step).__name__)(step)
            self.effect_names[id(step)] = self.const(built, "_fx")
        return self.effect_names[id(step)]

    def fx_Set(self, fn, step, pc, index):
        for a in step.items:
            t = a.target
            if isinstance(t, ir.Current):
                fn.add(f"_v = {self.value(fn, a.value, pc, index)}")
                fn.add("if _v is None: _current_nobody()")
                fn.add("s.current = _v")
                continue
            if isinstance(t, ir.GlobalVar):
                target = f"s.vars[{t.name!r}]"
                if step.add:
                    v = self.expr(fn, a.value, pc, index)
                    fn.add(f"_v = {target} + {v}")
                    fn.add("if not -_MAXN < _v < _MAXN: _too_big(_v)")
                    fn.add(f"{target} = _v")
                    continue
            else:
                values = f"s.pvars[{t.name!r}]"
                if step.add:
                    owner = self.expr(fn, t.owner, pc, index)
                    fn.add(f"_p = {owner}")
                    self.at(fn, pc, index)              # the player's value, before the value added
                    fn.add(f"_b = {values}[_p]")
                    v = self.expr(fn, a.value, pc, index)
                    fn.add(f"_v = _b + {v}")
                    fn.add("if not -_MAXN < _v < _MAXN: _too_big(_v)")
                    fn.add(f"{values}[_p] = _v")
                    continue
                fn.add(f"_v = {self.checked(self.expr(fn, a.value, pc, index), t.type, a.value)}")
                fn.add(f"{values}[{self.expr(fn, t.owner, pc, index)}] = _v")    # the owner after the value
                continue
            fn.add(f"{target} = {self.checked(self.value(fn, a.value, pc, index), t.type, a.value)}")

    def value(self, fn, node, pc, index=None) -> str:
        """The text of `node`, as `expr`; a function of each element at the top (any, all,
        count, under a `not` or not) is first computed by a loop of statements, which Python
        runs faster than a generator."""
        negate = type(node).__name__ == "Not" and not node.is_const
        inner = node.a if negate else node
        parts = self.src.loop_parts(inner)
        if parts is None:
            return self.expr(fn, node, pc, index)
        self.at(fn, pc, index, node)
        name, xs, x, body = parts
        r = self.fresh("_a")
        if name == "first":
            fn.add(f"{r} = None")
            if isinstance(xs, tuple):           # clockwise from a seat: walked, every seat charged
                fn.add(f"_p = {xs[1]}")           # the seat first, as an argument is
                fn.add("_n = len(s.players)")
                fn.add("_charged(s, s.players)")
                fn.add("_p = _p + 0")
                fn.add("for _i in range(_n):")
                fn.add(f"    {x} = (_p + _i) % _n")
                fn.add(f"    if not s.out[{x}] and ({body}): {r} = {x}; break")
            else:
                fn.add(f"for {x} in {xs}:")
                fn.add(f"    if {body}: {r} = {x}; break")
        elif name == "count":
            fn.add(f"{r} = 0")
            fn.add(f"for {x} in {xs}:")
            fn.add(f"    if {body}: {r} += 1")
        else:
            stop = "True" if name == "any" else "False"
            fn.add(f"{r} = {'False' if name == 'any' else 'True'}")
            fn.add(f"for {x} in {xs}:")
            fn.add(f"    if {'' if name == 'any' else 'not '}({body}): {r} = {stop}; break")
        return f"(not {r})" if negate else r

    def checked(self, text, typ, node=None):
        """`text`, through the size check of its kind (limits.py) unless the value cannot
        break it (a constant, or a card attribute whose every value is within the limit)."""
        kind = _kind(typ)
        if kind is None or (node is not None and self.bounded(node)):
            return text
        return f"_checks[{kind!r}]({text})"

    def bounded(self, node) -> bool:
        if node.is_const:
            v = node.const
            return v is None or isinstance(v, bool) or not isinstance(v, (int, float, str, list)) or \
                (isinstance(v, (int, float)) and -MAX_NUMBER < v < MAX_NUMBER) or \
                (isinstance(v, (str, list)) and len(v) <= MAX_STRING and len(v) <= MAX_LIST)
        if type(node).__name__ == "CardAttr":
            table = self.src.symbols.card_attrs[node.name][1]
            return all(v is None or isinstance(v, bool) or (isinstance(v, str) and len(v) <= MAX_STRING)
                       or (isinstance(v, (int, float)) and -MAX_NUMBER < v < MAX_NUMBER) for v in table)
        return False

    def fx_Move(self, fn, step, pc, index):
        if step.cards is not None:
            name = self.effect_fn(step)
            self.at(fn, pc, index)
            fn.add(f"{name}(s, l)")
            return
        if step.card is None:
            self.move_top(fn, step, pc, index, step.count, step.bottom)
            return
        fn.add(f"_c = {self.expr(fn, step.card, pc, index)}")
        fn.add(f"_z = {self.expr(fn, step.src, pc, index)}")
        fn.add("try: _z.remove(_c)")
        fn.add("except ValueError: _not_in_zone()")
        fn.add(f"_d = {self.expr(fn, step.dst, pc, index)}")
        fn.add("_d.insert(0, _c)" if step.bottom else "_d.append(_c)")
        fn.add("if s.log is not None: _moved(s, _z, _d, [_c])")

    def fx_Draw(self, fn, step, pc, index):
        self.move_top(fn, step, pc, index, step.count, False)

    def move_top(self, fn, step, pc, index, count, bottom):
        """effects.move_top: the top `count` cards (every card when None), one at a time."""
        fn.add(f"_z = {self.expr(fn, step.src, pc, index)}")
        fn.add(f"_d = {self.expr(fn, step.dst, pc, index)}")
        if count is None:
            fn.add("_k = len(_z)")
        else:
            fn.add(f"_k = max(0, min(int({self.expr(fn, count, pc, index)}), len(_z)))")
        self.at(fn, pc, index)
        fn.add("_charge(s, _k)")
        fn.add("if _k:")
        if bottom:                      # each card in turn under the pile: they keep their order
            fn.add("    _mv = _z[-_k:]; del _z[-_k:]; _d[:0] = _mv")
            fn.add("    if s.log is not None and _z is not _d: _moved(s, _z, _d, _mv[::-1])")
        else:                           # each card in turn on top: reversed (onto itself: unchanged)
            fn.add("    if _z is not _d:")
            fn.add("        _mv = _z[-_k:]; del _z[-_k:]; _mv.reverse(); _d.extend(_mv)")
            fn.add("        if s.log is not None: _moved(s, _z, _d, _mv)")

    def fx_Swap(self, fn, step, pc, index):
        """effects.swap: the two zones' contents exchanged; noted in the journal if asked."""
        refs = []
        for ref, z in ((step.a, "_za"), (step.b, "_zb")):
            if ref.owner is None:
                refs.append(f"[{ref.name!r}, None]")
                fn.add(f"{z} = s.zones[{ref.name!r}]")
            else:
                o = z.replace("_z", "_o")
                fn.add(f"{o} = {self.expr(fn, ref.owner, pc, index)}")
                self.at(fn, pc, index)
                fn.add(f"if {o} is None: _nobody_owns({ref.name!r})")
                refs.append(f"[{ref.name!r}, {o}]")
        for ref, z in ((step.a, "_za"), (step.b, "_zb")):
            if ref.owner is not None:
                self.at(fn, pc, index)
                fn.add(f"{z} = s.zones[{ref.name!r}][{z.replace('_z', '_o')}]")
        self.at(fn, pc, index)
        fn.add("_charge(s, len(_za) + len(_zb))")
        fn.add("if s.log is not None and _za is not _zb: _moved(s, _za, _zb, _za); _moved(s, _zb, _za, _zb)")
        fn.add("_za[:], _zb[:] = list(_zb), list(_za)")
        if step.journal:
            tag = "None" if step.tag is None else self.expr(fn, step.tag, pc, index)
            fn.add(f"s.journal.append(['swap', {refs[0]}, {refs[1]}, {tag}])")

    def fx_Gather(self, fn, step, pc, index):
        """effects.gather: every card of the zones (each player's, for a per-player zone) onto
        the destination, each zone charged as it is gathered."""
        fn.add(f"_d = {self.expr(fn, step.dst, pc, index)}")
        self.at(fn, pc, index)
        for name, per_player in step.zones:
            fn.add(f"for _z in s.zones[{name!r}]:" if per_player else f"for _z in (s.zones[{name!r}],):")
            fn.add("    s.work += len(_z)")
            fn.add("    if s.work > _MAXW: _charge(s, 0)")
            fn.add("    if _z is not _d:")
            fn.add("        if s.log is not None: _moved(s, _z, _d, _z)")
            fn.add("        _d.extend(_z); del _z[:]")

    def fx_Deal(self, fn, step, pc, index):
        """effects.deal: `count` cards each, one at a time round the seats from `first`, while
        the source lasts."""
        fn.add(f"_z = {self.expr(fn, step.src, pc, index)}")
        if step.players is not None:
            fn.add(f"_seats = list({self.expr(fn, step.players, pc, index)})")
        else:
            fn.add("_seats = [_p for _p in s.players if not s.out[_p]]")
        fn.flush()
        fn.add("if _seats:")
        with fn.block():
            if step.first is not None:
                fn.add(f"_st = {self.expr(fn, step.first, pc, index)}")
            else:
                fn.add("_st = _seats[0]")
            fn.add("if _st in _seats: _i = _seats.index(_st); _seats = _seats[_i:] + _seats[:_i]")
            fn.add(f"_hands = s.zones[{step.zone!r}]")
            fn.add(f"_k = max(0, min(int({self.expr(fn, step.count, pc, index)}), len(_z)))")
            self.at(fn, pc, index)
            fn.add("_left = min(_k * len(_seats), len(_z))")
            fn.add("_charge(s, _left)")
            fn.add("_m2 = len(_seats)")
            fn.add("for _j in range(_left): _hands[_seats[_j % _m2]].append(_z.pop())")
            fn.add("if s.log is not None: _dealt(s, _z, _hands, _seats, _left)")

    def fx_Sort(self, fn, step, pc, index):
        fn.add(f"_z = {self.expr(fn, step.zone, pc, index)}")
        self.at(fn, pc, index)
        fn.add("_charge(s, len(_z) * 4)")
        self.at(fn, pc, index, step.key, {"_z": ("card",)})
        fn.add("if _z:")
        fn.add("    _last = _z[-1]")
        fn.add(f"    _z.sort(key=lambda _card: {self.src.bound(step.key, 'card', '_card')})")
        fn.add("    l['card'] = _last")            # the closure back end's key leaves the last card there

    # -- control flow ----------------------------------------------------------------------------
    def step_If(self, step, rest, fn) -> bool:
        if step.fixed is not None:
            live = step.then if step.fixed else step.else_
            return self.steps(live or (), 0, rest, fn)
        pc = self.marks[id(step)]["pc"]
        fn.count()
        if step.cond.is_const:          # an option folded it: the test is a step, the branch is known
            if not step.cond.const:
                return self.steps(step.else_ or (), 0, rest, fn)
            if step.else_ is None:
                return self.steps(step.then, 0, rest, fn)
            then_rest = Special(lambda f: (f.count(), rest.emit(self, f)))
            done = self.steps(step.then, 0, then_rest, fn)
            if not done:
                fn.count()              # the jump over the else
            return done
        cond = self.value(fn, step.cond, pc)
        fn.flush()
        fn.add(f"if {cond}:")
        before = fn.budget          # each branch may write in what the other does
        with fn.block():            # after the then-branch, a jump over the else (if any) counts
            then_rest = rest if step.else_ is None else Special(lambda f: (f.count(), rest.emit(self, f)))
            done_then = self.steps(step.then, 0, then_rest, fn)
            if step.else_ is not None and not done_then:
                fn.count()          # the jump over the else
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

    def step_Exit(self, step, rest, fn) -> bool:
        self.at(fn, self.marks[id(step)]["pc"])
        fn.count()
        fn.leave(f"_exit_to(s, {step.to!r})")
        return True

    def step_While(self, step, rest, fn) -> bool:
        m = self.marks[id(step)]
        if self.leaves(step):
            top = self.pc(m["top"])
            self.entry(top, lambda f: self.while_top(step, rest, f))
            self.while_top(step, rest, fn)
            return True
        fn.flush()
        fn.add("while True:")
        with fn.block():
            fn.count()
            fn.flush()
            fn.add(f"if not {self.expr(fn, step.cond, m['pc'])}: break")
            self.steps(step.body, 0, None, fn)
            fn.count()
            self.bail(fn, self.pc(m["top"]))
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

    def while_top(self, step, rest, fn):
        m = self.marks[id(step)]
        top = self.pc(m["top"])
        fn.count()
        cond = self.expr(fn, step.cond, m["pc"])
        fn.flush()
        fn.add(f"if not {cond}:")
        with fn.block(tail=True):
            rest.emit(self, fn)
        back = Special(lambda f: (f.count(), self.jump(f, top, lambda g: self.while_top(step, rest, g))))
        self.tail(step.body, 0, back, fn)

    def step_Repeat(self, step, rest, fn) -> bool:
        m = self.marks[id(step)]
        if self.leaves(step):
            top = self.pc(m["top"])
            after = Special(lambda f: self.repeat_until(step, rest, f))
            self.entry(top, lambda f: self.tail(step.body, 0, after, f))
            self.tail(step.body, 0, after, fn)
            return True
        fn.flush()
        fn.add("while True:")
        with fn.block():
            self.steps(step.body, 0, None, fn)
            fn.count()
            fn.flush()
            fn.add(f"if {self.expr(fn, step.until, m['pc'])}: break")
            self.bail(fn, self.pc(m["top"]))
        return False

    def repeat_until(self, step, rest, fn):
        m = self.marks[id(step)]
        fn.count()
        until = self.expr(fn, step.until, m["pc"])
        fn.flush()
        fn.add(f"if not {until}:")
        with fn.block(tail=True):
            after = Special(lambda f: self.repeat_until(step, rest, f))
            self.jump(fn, self.pc(m["top"]), lambda f: self.tail(step.body, 0, after, f))
        rest.emit(self, fn)

    def step_ForEach(self, step, rest, fn) -> bool:
        m = self.marks[id(step)]
        key, var = m["key"], step.var
        fn.count()                              # iter_start
        items = self.expr(fn, step.items, m["pc"])
        if self.leaves(step):
            fn.add(f"l[{key!r}] = [list({items}), 0]")
            top = self.pc(m["top"])
            self.entry(top, lambda f: self.for_each_top(step, rest, f))
            self.for_each_top(step, rest, fn)
            return True
        it, x, cursor, i = self.fresh("_it"), self.fresh("_x"), self.fresh("_c"), self.fresh("_i")
        fn.add(f"{it} = list({items})")
        fn.add(f"{cursor} = l[{key!r}] = [{it}, len({it})]")     # as the last iter_next leaves it
        fn.flush()
        logs_only = step.body and all(isinstance(st, ir.Log) for st in step.body)
        if logs_only:       # with no account kept, only its steps are left: counted at once
            per = 2 + len({self.marks[id(st)][0] for st in step.body})   # iter_next, the batches of logs, jump top
            fn.add(f"if s.log is None and s.steps + n + {per} * len({it}) <= _T:")
            fn.add(f"    n += {per} * len({it})")
            fn.add(f"    if {it}: l[{var!r}] = {it}[-1]")
            fn.add("else:")
            fn.depth += 1
        fn.add(f"for {i}, {x} in enumerate({it}):")
        with fn.block():
            fn.count()                          # iter_next
            fn.add(f"l[{var!r}] = {x}")
            self.cursors.append((cursor, i))
            try:
                self.steps(step.body, 0, None, fn)
                fn.count()                      # jump top
                self.bail(fn, self.pc(m["top"]))
            finally:
                self.cursors.pop()
        if logs_only:
            fn.depth -= 1
        fn.count()                              # the last iter_next
        return False

    def for_each_top(self, step, rest, fn):
        m = self.marks[id(step)]
        top = self.pc(m["top"])
        fn.count()
        self.at(fn, top)
        fn.add(f"_cur = l[{m['key']!r}]")
        fn.add("_items, _i = _cur")
        fn.flush()
        fn.add("if _i >= len(_items):")
        with fn.block(tail=True):
            rest.emit(self, fn)
        fn.add(f"l[{step.var!r}] = _items[_i]")
        fn.add("_cur[1] = _i + 1")
        back = Special(lambda f: (f.count(), self.jump(f, top, lambda g: self.for_each_top(step, rest, g))))
        self.tail(step.body, 0, back, fn)

    def step_Turns(self, step, rest, fn) -> bool:
        m = self.marks[id(step)]
        pc, key = m["pc"], m["key"]
        top = self.pc(m["top"])
        fn.count()
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
        self.entry(self.pc(m["turn_end"]), lambda f: self.turn_end(step, rest, f))
        self.turns_top(step, rest, fn)
        return True

    def turns_top(self, step, rest, fn):
        m = self.marks[id(step)]
        pc, key = m["pc"] + 1, m["key"]
        fn.count()
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
        turn_end = self.pc(m["turn_end"])
        fn.add(f"s.scopes.append(('turn', len(s.frames), {turn_end}, len(s.requests)))")
        body = Special(lambda f: self.turn_end(step, rest, f))
        call = m["start_call"]
        if call is not None:
            self.call(fn, call, self.marks["dispatch"]["turn_start"], "{}",
                      lambda f: self.tail(step.body, 0, body, f))
            return
        self.tail(step.body, 0, body, fn)

    def turn_end(self, step, rest, fn):
        m = self.marks[id(step)]
        fn.count()
        fn.add("s.scopes.pop()")
        call = m["end_call"]
        if call is not None:
            self.call(fn, call, self.marks["dispatch"]["turn_end"], "{}", lambda f: self.turn_next(step, rest, f))
            return
        self.turn_next(step, rest, fn)

    def turn_next(self, step, rest, fn):
        m = self.marks[id(step)]
        fn.count()
        top = self.pc(m["top"])
        self.at(fn, self.pc(m["turn_end"]) + (2 if m["end_call"] is not None else 1))
        fn.flush()
        fn.add("if l.pop('#restart', False):")            # restart_turns: from the turns' start again
        with fn.block(tail=True):
            self.goto(fn, m["pc"], lambda f: self.step_Turns(step, rest, f))
        if step.order is None:
            if step.next is not None:
                at = self.pc(m["turn_end"]) + (2 if m["end_call"] is not None else 1)
                fn.add(f"s.current = {self.expr(fn, step.next, at)}")
            else:                       # state.next_seat, its first step written in
                fn.add("_q = s.current + 1")
                fn.add("if _q == len(s.out): _q = 0")
                fn.add("s.current = _q if not s.out[_q] else _next_seat(s, s.current)")
        self.jump(fn, top, lambda f: self.turns_top(step, rest, f))

    def call(self, fn, pc, target, payload, write_return, items=()):
        """A call instruction at `pc`: a frame returning to pc + 1 (written by write_return); the
        payload's `items` (name, node) are computed first, in order, as the instruction does."""
        fn.count()
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
                self.tail(self.bodies[target], 0, Special(lambda f: self.return_to(f, write_return)), fn)
            finally:
                self.special -= 1
            return
        fn.add(f"s.locals = {payload}")
        fn.leave(target)

    def step_Call(self, step, rest, fn) -> bool:
        pc = self.marks[id(step)]["pc"]
        self.call(fn, pc, self.marks["procs"][step.procedure], "{}", rest.emit_fn(self), step.args)
        return True

    def step_Emit(self, step, rest, fn) -> bool:
        pc = self.marks[id(step)]["pc"]
        if pc is None:
            return False
        self.call(fn, pc, self.marks["dispatch"][step.event], "{}", rest.emit_fn(self), step.payload)
        return True

    def step_Choose(self, step, rest, fn) -> bool:
        m = self.marks[id(step)]
        pc, cid = m["pc"], m["cid"]
        resume = rest if step.otherwise is None else Special(lambda f: (f.count(), rest.emit(self, f)))
        self.entry(pc + 1, resume.emit_fn(self))
        self.entry(pc, lambda f: self.step_Choose(step, rest, f))
        fn.count()
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
        return self.pend(step, rest, fn, pc, cid, (step.var,))

    def step_ChooseAmong(self, step, rest, fn) -> bool:
        """The choice as the closure back end computes its options (kinds, combinations, their
        `where`), then, on return from the decision, the pick written as an if per kind."""
        m = self.marks[id(step)]
        pc, cid = m["pc"], m["cid"]
        if "options_name" not in m:
            m["options_name"] = self.const(m["options"], "_among")
        self.entry(pc + 1, lambda f: self.write_pick(step, rest, f))
        self.entry(pc, lambda f: self.step_ChooseAmong(step, rest, f))
        fn.count()
        self.at(fn, pc)
        fn.add(f"_opts = {m['options_name']}(s, l)")
        return self.pend(step, rest, fn, pc, cid, unset_names(step))

    def pend(self, step, rest, fn, pc: int, cid: int, unset) -> bool:
        """A choice's options (in _opts) made the pending decision: none is the step's
        `otherwise` (its names `unset` set to null) or a rules error; then who decides."""
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
        fn.add(f"s.pc = {pc + 1}")
        fn.leave(-1)
        return True

    def write_pick(self, step, rest, fn):
        """The pick after a choice among kinds: the option's names bound, its kind's steps (each
        ending in a jump past the others), then what follows the choice."""
        pc = self.marks[id(step)]["pc"] + 1
        fn.count()
        self.at(fn, pc)
        fn.add("_o = l.pop('#pick')")
        fn.flush()
        after = Special(lambda f: (f.count(), rest.emit(self, f)))      # a kind's steps end in a jump
        before, budgets, word = fn.budget, [], "if"
        for k, a in enumerate(step.alternatives):
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
                    fn.count()          # the jump past the other kinds
                    budgets.append(fn.budget)
        live = [b for b in budgets if b is not None]
        fn.budget = tuple(map(max, *live, before)) if live else before
        rest.emit(self, fn)

    def step_Request(self, step, rest, fn) -> bool:
        m = self.marks[id(step)]
        pc = m["pc"]
        fn.count()
        src, dst = self.expr(fn, step.src, pc), None
        fn.add(f"_a = {src}")
        dst = self.expr(fn, step.dst, pc)
        fn.add(f"s.requests.append([_a, {dst}, 'open', None, None])")
        top = self.pc(m["top"])
        self.entry(top, lambda f: self.request_ask(step, rest, f))
        self.entry(self.pc(m["end"]), rest.emit_fn(self))
        self.request_ask(step, rest, fn)
        return True

    def request_ask(self, step, rest, fn):
        m = self.marks[id(step)]
        ask = self.pc(m["top"])
        fn.count()
        fn.add("_rec = s.requests[-1]")
        fn.add("_pay = {'from': _rec[0], 'to': _rec[1]}")
        if step.piece is not None:
            piece = self.piece_fn(step)
            self.at(fn, ask)
            fn.add(f"_rec[4] = _pay['piece'] = {piece}(s, _pay)")
        target = self.marks["dispatch"].get(step.event)
        if target is not None:
            self.entry(ask + 1, lambda f: self.request_check(step, rest, f))
            fn.add(f"s.frames.append(({ask + 1}, l))")
            fn.add("s.locals = _pay")
            fn.leave(target)
            return
        self.request_check(step, rest, fn)

    def piece_fn(self, step) -> str:
        if id(step) not in self.pieces:
            self.pieces[id(step)] = self.const(self.src.fn(step.piece), "_pf")
        return self.pieces[id(step)]

    def request_check(self, step, rest, fn):
        m = self.marks[id(step)]
        ask, end = self.pc(m["top"]), self.pc(m["end"])
        fn.count()
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
            f.count()
            f.add("s.requests.pop()")
            f.add(f"l[{step.var!r}] = 'answered'")
            rest.emit(self, f)
        self.tail(step.answer, 0, Special(done), fn)

    # -- the game's frame: setup, rounds, end ------------------------------------------------------
    def write_start(self, fn):
        m = self.marks["flow"]
        fn.count()
        fn.add(f"s.scopes.append(('game', len(s.frames), {self.pc(m['end'])}, len(s.requests)))")
        self.tail(self.r.flow.setup, 0, Special(self.write_round_top), fn)

    def write_round_top(self, fn):
        m = self.marks["flow"]
        fn.count()
        fn.add(f"s.scopes.append(('round', len(s.frames), {self.pc(m['round_end'])}, len(s.requests)))")
        fn.add("s.rounds += 1")
        fn.add(f"if s.log is not None: {self.const(self.marks['round_start_hook'], '_round')}(s)")
        body = lambda f: self.tail(self.r.flow.round, 0, Special(self.write_round_end), f)  # noqa: E731
        if m["start_call"] is not None:
            self.call(fn, m["start_call"], self.marks["dispatch"]["round_start"], "{}", body)
            return
        body(fn)

    def write_round_end(self, fn):
        m = self.marks["flow"]
        fn.count()
        fn.add("s.scopes.pop()")
        if m["end_call"] is not None:
            self.call(fn, m["end_call"], self.marks["dispatch"]["round_end"], "{}", self.write_until)
            return
        self.write_until(fn)

    def write_until(self, fn):
        m = self.marks["flow"]
        fn.count()
        fn.add(f"{self.const(self.marks['round_end_hook'], '_round_end')}(s)")   # statistics, account
        until = self.expr(fn, self.r.flow.until, m["until"])
        fn.flush()
        fn.add(f"if not {until}:")
        with fn.block(tail=True):
            fn.leave(self.pc(m["round_top"]))
        self.write_game_end(fn)

    def write_game_end(self, fn):
        fn.count()
        fn.add("s.scopes.pop()")
        self.tail(self.r.flow.end, 0, Special(self.write_halt), fn)

    def write_halt(self, fn):
        fn.count()
        fn.add("s.over = True")
        fn.add(f"s.pc = {self.marks['flow']['halt']}")
        fn.leave(-1)

    def return_to(self, fn, write_return):
        """The return of a callee written in at its call: the frame it pushed is popped, and the
        caller's code goes on here (as general code again: its entries are the caller's)."""
        fn.count()
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
        fn.count()
        returns = self.returns.get(body, ())
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
        fn.leave("_ret")

    # -- faults ------------------------------------------------------------------------------------
    def fault(self, e, s, l, names):
        """The exception to raise for `e`: it carries the pc and effect index of its place (found
        by the innermost line of generated code it went through); an expression's fault is the
        closure back end's (computed again: expressions are pure)."""
        w, tb = 0, e.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.file:
                w = self.line_places.get(tb.tb_lineno, w)
            tb = tb.tb_next
        pc, index, node, binds, pending, redraws, cursors = self.places[w]
        if getattr(e, "at_pc", None) is not None:
            return e
        s.steps += names.get("n", 0) + pending      # each instruction is counted as it starts
        for cursor, i in cursors:                   # loops written in: their cursors as the instructions keep them
            if cursor in names and i in names:
                names[cursor][1] = names[i] + 1
        if redraws and "_rs" in names:
            s.rng.state = names["_rs"]
        if node is not None and not isinstance(e, RulesError):
            local = dict(l)
            each = [()]
            for py, name in (binds or {}).items():
                if isinstance(name, tuple):     # a choice's `where` (a sort's key): for each option
                    if names.get(py) is None:       # the options themselves were null
                        if "_m" in names:
                            l["#memo"] = {}
                        node = None
                        break
                    each = [(name[0], o) for o in names[py]]
                elif py in names:
                    local[name] = names[py]
        if node is not None and not isinstance(e, RulesError):
            f = self.src.closures.fn(node)
            work = s.work
            try:
                for bound in each:
                    if bound:
                        local[bound[0]] = bound[1]
                    s.work = 0
                    f(s, local)
            except Exception as again:          # the closure back end's own account of it
                e = again
                if bound:                       # where the closures leave the option they were at
                    l[bound[0]] = bound[1]
                    if "_m" in names:
                        l["#memo"] = dict(names["_m"])
            s.work = work
        if getattr(e, "at_pc", None) is None:
            e.at_pc, e.at_effect = pc, index
        return e

