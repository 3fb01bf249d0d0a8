"""The one place where the step back end meets the expression back end.

The step back end never looks inside an expression node: it asks here for the
closure `fn(state, locals)` that computes it, and for how values of a type are
shown.  When expressions get a typed form of their own, this module is what changes.
"""
from __future__ import annotations

from . import texts


def fn_of(node):
    """fn(state, locals) computing the checked expression `node`."""
    return node.fn


def shower(typ: str, display):
    """fn(state, value) -> str for values of type `typ`; `display` is the card display table."""
    return texts.shower(typ, display)
