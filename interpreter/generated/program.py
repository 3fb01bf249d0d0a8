"""Stage 3, the generated back end: the Program of a checked ruleset with its steps written
as Python source (generated/generator.py) and its expressions as Python expressions
(generated/expressions.py), laid out exactly as the closure back end lays it out."""
from __future__ import annotations

import hashlib

from ..closures.program import build_layout, build_program
from ..lang import ir
from ..runtime.program import Program
from .expressions import Source
from .generator import Generator
from .writer import TooMuchCode


class _Parts:
    """What the closure back end's step builder asks of its expressions' back end, answered
    with generated expressions (the builder then makes the instructions and effects that the
    generated functions call or stand beside)."""

    def __init__(self, source: Source):
        self.source = source
        self.display = source.symbols.display
        self.teams = source.symbols.teams

    def fn(self, node):
        return self.source.fn(node)

    def condition(self, node, option):
        return self.source.closures.condition(node, option)


def build_generated(ruleset: ir.Ruleset) -> Program:
    """The Program of a checked ruleset, its code generated as Python; a ruleset whose code
    would be too large or too deep to write (a hostile one) gets the closure back end's."""
    try:
        return _generated(ruleset)
    except (TooMuchCode, RecursionError):
        return build_program(ruleset)


def _generated(ruleset: ir.Ruleset) -> Program:
    source = Source(ruleset.symbols)
    program, builder, code = build_layout(ruleset, _Parts(source))
    builder.layout.verify(code.factories)       # the layout's records name the instructions they hold
    generator = Generator(ruleset, program, builder, source)
    entries, text = generator.build()
    program.layout = builder.layout             # (the native back end resumes a game where the VM's pcs say)
    program.switch_at = generator.switch_at
    program.reach = generator.reach
    program.left_out = generator.left_out
    program.reference = program.code
    program.code = [entries.get(pc) or _counted(ins) for pc, ins in enumerate(program.code)]
    program.counted = True
    program.source = text
    program.backend = "generated"
    program.source_hash = hashlib.sha256(text.encode()).hexdigest()[:16]
    return program


def _counted(ins):
    """An instruction of the closure layout that no generated function stands for (the run
    loop may still land on it, e.g. when a scenario asks a question again): it counts its step."""
    def counted(s):
        s.steps += 1
        return ins(s)
    return counted
