"""The writer's primitives: the lines of one generated function, its indented blocks, the
place each line is at (for faults), and the sizes that bound the code written.

A function counts the instructions it stands for as it is written (`count`) and adds them
to its local `n` where control may branch or leave (`flush`), so that the count of steps is
the closure back end's; `leave` returns a pc to the run loop with the steps added.
"""
from __future__ import annotations

from typing import NamedTuple

from ..errors import InterpreterError

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
    (generated/program.py catches it; nobody else sees it)."""


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
        self.pcs = set()                # the instructions it stands for: every pc it may run
        self.targets = set()            # every pc it may return to the run loop (-1: a decision, the end)

    def add(self, line):
        self.lines.append("    " * self.depth + line)

    def count(self, pc: int):
        """The instruction at `pc` is written here: one more step when it runs."""
        self.k += 1
        self.total += 1
        self.pcs.add(pc)

    def flush(self):
        if self.k:
            self.add(f"n += {self.k}")
            self.k = 0
            self.renote(self)           # the place goes on, with nothing pending

    def leave(self, value, targets=None):
        """Return `value` to the run loop, with the steps counted: a pc, or the text of one
        computed as it runs, then `targets` are the pcs it may be."""
        self.flush()
        self.add("s.steps += n")
        self.add(f"return {value}")
        self.leaves_to(*([value] if targets is None else targets))

    def leaves_to(self, *pcs):
        self.targets.update(pcs)

    def block(self, tail=False):
        """An indented block; `tail`: one that always returns, so the code after it runs on the
        other path only and keeps the budgets it had (see Generator.jump)."""
        return Block(self, tail)

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


class Block:
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
        if len(fn.lines) > INLINE_LINES and self.index < len(self.steps):     # a long function: go there
            place = g.layout.of(self.steps[self.index])
            if place is not None:
                g.goto(fn, place.span.start, lambda f: g.tail(self.steps, self.index, self.then, f))
                return
        g.tail(self.steps, self.index, self.then, fn)


class Special(Context):
    """Code written by a function of the generator: `write(fn)` ends in a return."""

    def __init__(self, write):
        self.write = write

    def emit(self, g, fn):
        self.write(fn)

