"""Every node of the expression IR and every built-in the checker hands on has a writer in
both back ends (issue 27): a node or built-in added on one side only fails here, not as a
divergence in random play."""
from __future__ import annotations

import inspect

from interpreter.closures import functions as closure_builtins
from interpreter.closures.expressions import Closures
from interpreter.check import builtins as checked_builtins
from interpreter.lang import expr_ir
from interpreter.generated.expressions import Source

NODES = [v for v in vars(expr_ir).values()
         if inspect.isclass(v) and issubclass(v, expr_ir.Node) and v not in (expr_ir.Node, expr_ir.Const)]
# built-ins the checker turns into other nodes (zone('x') is a zone, len is count), and the one
# it makes of a slice xs[a:b]
LOWERED = {"zone": None, "len": "count"}
MADE = {"slice"}


def test_every_expression_node_has_a_writer_in_both_back_ends():
    """(A constant, folded, is written before any dispatch.)"""
    assert len(NODES) > 20
    for back_end in (Closures, Source):
        assert not [n.__name__ for n in NODES if not hasattr(back_end, "_" + n.__name__)], back_end.__name__


def test_every_built_in_the_checker_knows_runs_in_both_back_ends():
    handed_on = {LOWERED.get(name, name) for name in checked_builtins.BUILTINS} - {None} | MADE
    assert handed_on == set(closure_builtins.BUILTINS)
    assert not [name for name in closure_builtins.BUILTINS if not hasattr(Source, "_b_" + name)]
