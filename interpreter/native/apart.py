"""Procedures written apart: a procedure's steps as a kernel function of their own, called
where the rules call it, instead of written in at every call.  Numba's typing grows with the
square of a function's length, so a ruleset whose procedures are written in many times (a
betting round at every street) makes a kernel too long to compile in minutes; apart, each
is compiled once.

The game's scalars (the current player, the exit, the counters, the variables) are locals of
the game function, which another function cannot change: a call stores those the procedure
touches in the array XS, the procedure loads them, and stores back those it changes, which
the caller loads again.  Arrays (zones, player variables, buffers) are passed as they are.

In the resumable kernel a play-out may resume inside a procedure apart: its choices are
numbered from 1 in its function and again at every call (resume.Resumes.enter), the call
passes RES less the number before them, and the function reads its frame's locals from IN
where it resumes (steps.KernelWriter.apart_loads)."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from .resume import Resumes

# The game's scalars besides the rules' variables (steps.KernelWriter.head sets them up).
GAME_SCALARS = frozenset({"CUR", "EX", "W", "STEPS", "DEC", "ROUNDS", "NR", "MADE", "RQN", "JN", "JCN"})
# The game's arrays and read-only arguments besides the variables' (the scratch of head()).
GAME_ARRAYS = frozenset({"seed", "n", "WIN", "SCORE", "GSTAT", "RSTAT", "info", "TM", "R", "Z", "ZN", "OUT",
                         "SB", "OPT", "OL", "OLN", "RQ", "JR", "JC", "PNUM", "POWN", "PK", "XS"})
# The resumable kernel's besides (steps.KernelWriter.head): the choice resumed at, whether
# this is a play-out, its horizon and last decision; the state read in, the bots' generators.
RESUMING_SCALARS = frozenset({"RES", "PO", "HZ", "DMAX"})
RESUMING_ARRAYS = frozenset({"IN", "POOL", "BOT"})
# A caller's name: a temporary (t12, st3; not a kernel function, uf2, pf1) or a rules' local
# (L3_x, I_p, F_x, a choice made together's Wseal1).
_LOCAL = re.compile(r"(?!uf|pf)[a-z]{1,2}[0-9]+|L[0-9]+_.*|[IF]_.*|Wseal.*")


@dataclass
class Apart:
    """A procedure's kernel function: its name, the kernel names of its parameters (passed
    first, after XS), the arrays it is given, the game's scalars it touches (loaded from XS
    on entry) and those it changes (stored in XS on return)."""
    name: str
    params: list
    arrays: list
    touched: list
    changed: list
    kernel_params: list = field(default_factory=list)   # the parameters' kernel names (a frame's locals)
    resumes: Resumes | None = None      # a resumable kernel's: the choices inside, numbered from 1


def names_in(lines: list) -> tuple:
    """(names read, names set) in lines of a function's body (an augmented assignment both)."""
    tree = ast.parse("def f():\n" + "\n".join(lines) + "\n    pass")
    read, written = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (written if isinstance(node.ctx, ast.Store) else read).add(node.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            read.add(node.target.id)
    return read, written


def apart(name: str, lines: list, params: list, scalars: set, arrays: set, outer: set):
    """What the function of a procedure whose body is `lines` is given and gives back; None
    where it cannot be written apart: it sets one of the game's arrays anew (a list variable),
    or reads a name that is neither the game's state nor its own nor the module's (a local
    of a caller, which it cannot see)."""
    read, written = names_in(lines)
    own = written - scalars - arrays
    if written & arrays:
        return None
    free = read - own - set(params)
    for x in free - scalars - arrays:
        if x in outer or _LOCAL.fullmatch(x):
            return None
    touched = sorted((read | written) & scalars)
    return Apart(name, list(params), sorted(free & arrays - {"XS"}), touched, sorted(written & scalars))
