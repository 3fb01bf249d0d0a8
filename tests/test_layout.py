"""The layout contract between the back ends (interpreter/closures/layout.py): the closure
back end notes where each step's instructions lie, in one record per step, and the generated
back end reads only those records.  A layout that one side changes and the other does not
follow fails when the program is built, not as a divergence in random play."""
from __future__ import annotations

import dataclasses

import pytest

from conftest import RULESETS
from interpreter.closures import layout as lay
from interpreter.closures.program import build_layout
from interpreter.closures.steps import StepBuilder
from interpreter.check.ruleset import check_ruleset
from interpreter.lang import ir
from interpreter.pipeline import compile_ruleset
from interpreter.source.overlay import load_rules

SHIPPED = sorted(p.stem for p in RULESETS.glob("*.yaml"))


def _laid(name: str):
    data, source = load_rules(str(RULESETS / f"{name}.yaml"))
    ruleset = check_ruleset(data, source)
    program, builder, code = build_layout(ruleset)
    return ruleset, builder.layout, code


def _steps(steps):
    """Every step of a list, nested steps included, in order."""
    for step in steps or ():
        yield step
        if isinstance(step, ir.If):
            live = (step.then, step.else_) if step.fixed is None else ((step.then if step.fixed else step.else_),)
            for part in live:
                yield from _steps(part)
        elif isinstance(step, ir.Choose):
            yield from _steps(step.otherwise)
        elif isinstance(step, ir.ChooseAmong):
            for a in step.alternatives:
                yield from _steps(a.body)
            yield from _steps(step.otherwise)
        elif isinstance(step, ir.Request):
            yield from _steps(step.answer)
        elif hasattr(step, "body"):
            yield from _steps(step.body)


def _all_steps(r: ir.Ruleset):
    lists = [r.flow.setup, r.flow.round, r.flow.end, *r.procedures.values()]
    lists += [t.body for ts in r.triggers.values() for t in ts]
    for steps in lists:
        yield from _steps(steps)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_step_of_a_shipped_ruleset_is_laid_out_and_its_record_names_the_instructions_it_holds(name):
    r, layout, code = _laid(name)
    layout.verify(code.factories)
    for step in _all_steps(r):
        record = layout.of(step)
        assert record is not None, f"{type(step).__name__} at {step.path} has no record"
        kind = lay.EffectLayout if isinstance(step, ir.Effect) else getattr(lay, _record_name(step))
        assert isinstance(record, kind)
        start, end = record.span
        assert 0 <= start <= end <= len(code.factories)


def _record_name(step) -> str:
    return {"Choose": "ChoiceLayout", "ChooseAmong": "AmongLayout"}.get(type(step).__name__,
                                                                        type(step).__name__ + "Layout")


def test_a_step_nested_in_another_lies_within_its_span():
    r, layout, _ = _laid("gnav")
    for step in _all_steps(r):
        if isinstance(step, ir.Turns):
            outer = layout.of(step).span
            for inner in _steps(step.body):
                start, end = layout.of(inner).span
                assert outer.start <= start <= end <= outer.end


def test_a_pc_outside_its_steps_span_is_refused_as_the_record_is_made():
    with pytest.raises(AssertionError, match="TurnsLayout.next = 9 outside"):
        lay.TurnsLayout(lay.Span(0, 9), start=0, check=1, turn_end=5, next=9, key="#0")


def test_a_decision_goes_on_at_the_instruction_after_it():
    with pytest.raises(AssertionError, match="vm.choose"):
        lay.ChoiceLayout(lay.Span(0, 4), ask=0, resume=2, cid=0)


def test_reading_a_step_as_another_kind_is_refused():
    r, layout, _ = _laid("gnav")
    turns = next(s for s in _all_steps(r) if isinstance(s, ir.Turns))
    with pytest.raises(AssertionError, match="laid out as TurnsLayout, read as ChoiceLayout"):
        layout.of(turns, lay.ChoiceLayout)


def test_a_turns_layout_the_generated_back_end_does_not_follow_fails_at_build(monkeypatch):
    """The closure back end moving the turn's last instruction (what a change to lay_Turns
    could do) is caught by the record's named instruction, before any game is played."""
    made = StepBuilder.lay_Turns

    def moved(self, s, start):
        record = made(self, s, start)
        return dataclasses.replace(record, next=record.turn_end)       # `next` names a pop_scope now
    monkeypatch.setattr(StepBuilder, "lay_Turns", moved)
    with pytest.raises(AssertionError, match="TurnsLayout.next: pc .* holds pop_scope, not turns_again or turns_next"):
        compile_ruleset(*load_rules(str(RULESETS / "gnav2.yaml")), backend="generated")

