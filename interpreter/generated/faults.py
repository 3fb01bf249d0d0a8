"""Fault recovery: what a fault in generated code is, told as the closure back end tells it.

Nothing is noted as generated code runs.  Each line of the generated module has a place
(writer.Place: the pc and effect, the expression computed there, the steps counted but not
yet added); on an exception, the innermost generated line the exception went through gives
the place, the steps to it are counted, and an expression is computed again by the closure
back end (the random generator restored first), which says what was null.
"""
from __future__ import annotations

from ..errors import RulesFault


class Faults:
    """`_fault` of the generated module: called by every generated function's handler."""

    def __init__(self, file: str, places: list, line_places: dict, closures):
        self.file = file                    # the generated module's file name
        self.places = places                # writer.Place, by number
        self.line_places = line_places      # line of the generated module -> number of its place
        self.closures = closures            # the closure back end's expressions

    def __call__(self, e, s, l, names):
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
        if node is not None and not isinstance(e, RulesFault):
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
        if node is not None and not isinstance(e, RulesFault):
            f = self.closures.fn(node)
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
    
