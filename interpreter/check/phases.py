"""Phases: named stages of a game, each with its own round, end condition and successor,
written into the flow's round as plain steps (no back end knows of them).

A ruleset with `flow.phases` gets two public variables: `phase` (the name of the phase in
play; null once the last one has ended) and `phase_round` (the rounds played in it so far,
counting the one under way).  Each round runs, in order:

    the `begin` steps of the phase, in its first round   (if phase_round == 0)
    phase_round + 1
    the phase's own `round`, or the flow's
    if the phase's `until` holds: its `end` steps, then phase = its `then`, phase_round = 0

and the game ends when `phase` is null (the flow's `until`).  `then` is a phase's name, or
an expression giving one; without it, the next phase in the order written follows, and the
last one ends the game.
"""
from __future__ import annotations

from ..errors import did_you_mean
from ..lang import ir
from ..lang.types import BOOL, NUM, STR
from .expr_seam import constant

PHASE_VARIABLES = {"phase": STR, "phase_round": NUM}


def phases_of(flow: dict) -> dict:
    phases = flow.get("phases") if isinstance(flow, dict) else None
    return phases if isinstance(phases, dict) and phases else {}


def declare(ck, phases: dict, variables: dict) -> None:
    """Enter `phase` and `phase_round` among the variables (a ruleset may not declare them)."""
    first = next(iter(phases))
    for name, typ in PHASE_VARIABLES.items():
        if name in variables or name in ck.zones:
            ck.report(("variables", name), f"'{name}' is the variable phases keep: choose another name", key=True)
        ck.sym.global_vars[name] = typ
    variables["phase"] = ir.Variable("phase", STR, constant(STR, first), "public", None)
    variables["phase_round"] = ir.Variable("phase_round", NUM, constant(NUM, 0), "public", None)


def flow_round(ck, steps, phases: dict, shared_round: tuple) -> tuple:
    """The flow's round with the phases written in (see the module's docstring)."""
    names = list(phases)
    at = ("flow", "phases")

    def test(text, path):
        return ck.expr(text, path, {}, BOOL, condition=True)

    def chain(parts, otherwise=None):
        """if phase == a: A elif phase == b: B ... else otherwise, for the (name, steps) given."""
        out = otherwise
        for name, body in reversed(parts):
            out = (ir.If(at + (name,), test(f"phase == {name!r}", at + (name,)), body, out),)
        return out or ()

    begins, rounds, transitions = [], [], []
    for i, name in enumerate(names):
        phase = phases[name] if isinstance(phases[name], dict) else {}
        p = at + (name,)
        if phase.get("begin"):
            begins.append((name, steps(phase["begin"], p + ("begin",), {})))
        if "round" in phase:
            rounds.append((name, steps(phase["round"], p + ("round",), {})))
        until = test(phase["until"], p + ("until",)) if "until" in phase else constant(BOOL, True)
        end = steps(phase.get("end") or [], p + ("end",), {})
        successor = _successor(ck, phase, names, i, p)
        moved = ir.Set(p, (ir.Assign(ir.GlobalTarget("phase", STR), successor),
                           ir.Assign(ir.GlobalTarget("phase_round", NUM), constant(NUM, 0))))
        transitions.append((name, (ir.If(p + ("until",), until, end + (moved,), None),)))
    first_round = test("phase_round == 0", at)
    count = ir.Set(at, (ir.Assign(ir.GlobalTarget("phase_round", NUM), constant(NUM, 1)),), add=True)
    out = (ir.If(at, first_round, chain(begins), None),) if begins else ()
    return out + (count,) + chain(rounds, shared_round) + chain(transitions)


def _successor(ck, phase, names, i, path):
    """The node of the phase that follows: `then` (a name, an expression, or null), or the next
    one written (null after the last: the game ends)."""
    if "then" not in phase:
        return constant(STR, names[i + 1] if i + 1 < len(names) else None)
    raw = phase["then"]
    if raw is None or raw in names:
        return constant(STR, raw)
    if isinstance(raw, str) and raw.isidentifier() and raw not in ck.sym.global_vars:
        ck.report(path + ("then",), f"no phase '{raw}'{did_you_mean(raw, names)}")
        return constant(STR, None)
    node = ck.expr(raw, path + ("then",), {}, STR)
    if node.is_const and node.const is not None and node.const not in names:
        ck.report(path + ("then",), f"no phase '{node.const}'{did_you_mean(str(node.const), names)}")
    return node


def flow_until(ck):
    """The game ends once the last phase has ended (phase is null)."""
    return ck.expr("phase == null", ("flow", "phases"), {}, BOOL, condition=True)
