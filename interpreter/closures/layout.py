"""The layout of a program's instructions: the contract between the back ends.

The closure back end lays each step out as VM instructions (closures/steps.py) and notes
here, in one typed record per step, where they lie: the step's span (its first pc and the
pc after its last) and each pc that another back end must know by name (a loop's top, a
turn's end, the return from a decision).  The generated back end (generated/) writes the same
instructions as Python and reads only these records: it never counts instructions itself.

Each record says which VM instruction (runtime/vm.py) stands at each of its pcs, and checks
that every pc lies in its span as it is made; `Layout.verify` checks the instructions
against the code once it is laid out, so a change to one back end's layout that the other
does not follow fails at build time, not as a divergence in random play.

Adding a control-flow step kind: its record here (its pcs and their instructions), made by
its `lay_` method in closures/steps.py, read by its writer in generated/control.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, ClassVar, NamedTuple

from ..lang import ir
from ..lang.types import NUM, STR, elem_of, is_map


class Span(NamedTuple):
    """The pcs a step's instructions take: start..end-1 (end: the pc after the step)."""
    start: int
    end: int


@dataclass(frozen=True)
class StepLayout:
    """Where one step's instructions lie.  `PCS`: the fields that are pcs inside the span, each
    with the names of the VM instructions that may stand there; `EXITS`: pcs that may also be
    the span's end (where the flow goes on after the step); `LEAVES`: whether running the step
    may return to the run loop (None: as its parts do)."""
    span: Span
    PCS: ClassVar[dict] = {}
    EXITS: ClassVar[tuple] = ()
    LEAVES: ClassVar[bool | None] = False

    def __post_init__(self):
        start, end = self.span
        for name in self.PCS:
            pc = getattr(self, name)
            if pc is not None and not start <= pc < end:
                raise AssertionError(f"{type(self).__name__}.{name} = {pc} outside {self.span}")
        for name in self.EXITS:
            pc = getattr(self, name)
            if pc is not None and not start <= pc <= end:
                raise AssertionError(f"{type(self).__name__}.{name} = {pc} outside {self.span}")

    def leaves(self) -> bool | None:
        return self.LEAVES


@dataclass(frozen=True)
class EffectLayout(StepLayout):
    """A plain effect: the instruction that runs its batch, and its index in the batch."""
    pc: int = 0
    index: int = 0
    PCS: ClassVar[dict] = {"pc": ("run_effects",)}


@dataclass(frozen=True)
class IfLayout(StepLayout):
    """An `if`, or a trigger's `when`: the test (None when an option fixed the branch), and the
    jump over the `else` at the end of the `then` (None: no `else`)."""
    test: int | None = None
    skip_else: int | None = None
    PCS: ClassVar[dict] = {"test": ("jump_unless",), "skip_else": ("jump",)}
    LEAVES: ClassVar[bool | None] = None


@dataclass(frozen=True)
class ExitLayout(StepLayout):
    pc: int = 0
    PCS: ClassVar[dict] = {"pc": ("exit_to",)}
    LEAVES: ClassVar[bool | None] = True


@dataclass(frozen=True)
class RepeatLayout(StepLayout):
    """`repeat … until`: the body from `top`, then the test that jumps back to it."""
    top: int = 0
    until: int = 0
    PCS: ClassVar[dict] = {"until": ("jump_unless",)}
    EXITS: ClassVar[tuple] = ("top",)
    LEAVES: ClassVar[bool | None] = None


@dataclass(frozen=True)
class WhileLayout(StepLayout):
    """`while`: the test at the top, the body, a jump back to the test."""
    test: int = 0
    back: int = 0
    PCS: ClassVar[dict] = {"test": ("jump_unless",), "back": ("jump",)}
    LEAVES: ClassVar[bool | None] = None


@dataclass(frozen=True)
class ForEachLayout(StepLayout):
    """`for_each`: the list taken (`start`), then at `next` the cursor (the local `key`)
    moves on and the body runs, then the jump `back` to it, until the list is done."""
    start: int = 0
    next: int = 0
    back: int = 0
    key: str = ""
    PCS: ClassVar[dict] = {"start": ("iter_start",), "next": ("iter_next",), "back": ("jump",)}
    LEAVES: ClassVar[bool | None] = None


@dataclass(frozen=True)
class TurnsLayout(StepLayout):
    """`turns`: the order set up (`start`), the test for another turn (`check`, the top of the
    loop), the turn_start triggers' call, the body, the turn's end (`turn_end`, where
    end_turn goes: its scope closed), the turn_end triggers' call, and the move to the next
    player (`next`), back to `check`.  The local `key` holds the turns' cursor."""
    start: int = 0
    check: int = 0
    start_call: int | None = None
    turn_end: int = 0
    end_call: int | None = None
    next: int = 0
    key: str = ""
    PCS: ClassVar[dict] = {"start": ("iter_start", "turns_start"), "check": ("turns_order_check", "turns_check"),
                           "start_call": ("call",), "turn_end": ("pop_scope",), "end_call": ("call",),
                           "next": ("turns_again", "turns_next")}
    LEAVES: ClassVar[bool | None] = True


@dataclass(frozen=True)
class ChoiceLayout(StepLayout):
    """`choose`: the decision asked at `ask` (choice `cid`), the game going on at `resume`."""
    ask: int = 0
    resume: int = 0
    cid: int = 0
    PCS: ClassVar[dict] = {"ask": ("choose",)}
    EXITS: ClassVar[tuple] = ("resume",)
    LEAVES: ClassVar[bool | None] = True

    def __post_init__(self):
        super().__post_init__()
        _require(self.resume == self.ask + 1, "vm.choose goes on at the instruction after it")


@dataclass(frozen=True)
class AmongLayout(StepLayout):
    """A choice among kinds: the decision at `ask`, then at `pick` the option's names bound
    and a jump to its kind's steps, each ending in a jump past the others (`jumps`, by kind:
    None for a kind with no steps).  `options`: fn(state, locals) -> the legal options."""
    ask: int = 0
    pick: int = 0
    cid: int = 0
    options: Callable | None = field(default=None, compare=False)
    jumps: tuple = ()
    PCS: ClassVar[dict] = {"ask": ("choose",), "pick": ("pick",)}
    LEAVES: ClassVar[bool | None] = True

    def __post_init__(self):
        super().__post_init__()
        for pc in self.jumps:
            _require(pc is None or self.span.start <= pc < self.span.end, f"AmongLayout.jumps: {pc} outside {self.span}")
        _require(self.pick == self.ask + 1, "vm.choose goes on at the instruction after it")


@dataclass(frozen=True)
class EmitLayout(StepLayout):
    """`emit`: the call of the event's dispatcher (None: no trigger answers it, no instruction);
    a call returns to the instruction after it (vm.call)."""
    call: int | None = None
    PCS: ClassVar[dict] = {"call": ("call",)}

    def leaves(self) -> bool:
        return self.call is not None


@dataclass(frozen=True)
class RequestLayout(StepLayout):
    """`request`: opened (`start`), asked (`ask`: the event's triggers called), its answer
    checked (`check`), the answer's steps, the request closed (`done`), and `end`, after it."""
    start: int = 0
    ask: int = 0
    check: int = 0
    done: int = 0
    end: int = 0
    PCS: ClassVar[dict] = {"start": ("request_start",), "ask": ("request_ask",), "check": ("request_check",),
                           "done": ("request_done",)}
    EXITS: ClassVar[tuple] = ("end",)
    LEAVES: ClassVar[bool | None] = True

    def __post_init__(self):
        super().__post_init__()
        _require(self.check == self.ask + 1, "vm.request_ask's triggers return to the instruction after it")


@dataclass(frozen=True)
class CallLayout(StepLayout):
    """`call`: the procedure called at `call` (it returns to the instruction after it)."""
    call: int = 0
    PCS: ClassVar[dict] = {"call": ("call",)}
    LEAVES: ClassVar[bool | None] = True


@dataclass(frozen=True)
class FlowLayout(StepLayout):
    """The game's frame: its scope opened at `start` (pc 0), the setup, the round's top (its
    scope opened, the round counted), the round_start triggers' call, the round, its end
    (`round_end`: its scope closed), the round_end triggers' call, the test of `until`
    (after the round's hook), the game's end (`end`: its scope closed), the end steps, `halt`."""
    start: int = 0
    round_top: int = 0
    start_call: int | None = None
    round_end: int = 0
    end_call: int | None = None
    until: int = 0
    end: int = 0
    halt: int = 0
    PCS: ClassVar[dict] = {"start": ("push_scope",), "round_top": ("push_scope",), "start_call": ("call",),
                           "round_end": ("pop_scope",), "end_call": ("call",), "until": ("jump_unless_after",),
                           "end": ("pop_scope",), "halt": ("halt",)}


@dataclass
class Layout:
    """The records of a whole program: each step's (by the step's identity: the checked
    steps are shared by both back ends), the flow's, where procedures and trigger
    dispatchers start, every call, the points a scenario may stop at, and the round's hooks
    (events.round_started and round_ended, which both back ends call)."""
    steps: dict = field(default_factory=dict)       # id(step) -> StepLayout
    triggers: dict = field(default_factory=dict)    # id(trigger) -> IfLayout of its `when`
    flow: FlowLayout | None = None
    procs: dict = field(default_factory=dict)       # procedure -> its first pc
    dispatch: dict = field(default_factory=dict)    # event -> its dispatcher's first pc
    returns: dict = field(default_factory=dict)     # first pc of a procedure or dispatcher -> its `ret`
    calls: list = field(default_factory=list)       # (pc of a call, pc it calls)
    points: dict = field(default_factory=dict)      # name -> [(pc, span)] (see StepBuilder.point)
    round_started: Callable | None = None
    round_ended: Callable | None = None

    def note(self, step, record: StepLayout) -> StepLayout:
        self.steps[id(step)] = record
        return record

    def of(self, step, kind: type | None = None):
        """The record of `step` (None for a step an option rules out), checked to be of `kind`."""
        record = self.steps.get(id(step))
        if kind is not None and record is not None and not isinstance(record, kind):
            raise AssertionError(f"{type(step).__name__} laid out as {type(record).__name__}, read as {kind.__name__}")
        return record

    def verify(self, factories: list) -> None:
        """Every record's pcs hold the instructions it names (the factories of runtime/vm.py),
        every procedure and dispatcher ends in its `ret`, each kind's jump is a jump."""
        records = [*self.steps.values(), *self.triggers.values(), self.flow]
        for body, ret in self.returns.items():
            _holds(factories, ret, ("ret",), f"the body at {body} returns at")
        for record in records:
            for name, kinds in record.PCS.items():
                _holds(factories, getattr(record, name), kinds, f"{type(record).__name__}.{name}:")
            for pc in getattr(record, "jumps", ()):
                _holds(factories, pc, ("jump",), "AmongLayout.jumps:")


def _holds(factories: list, pc: int | None, kinds: tuple, what: str) -> None:
    """`pc` (if any) holds an instruction made by one of `kinds`, else the disagreement said."""
    if pc is not None:
        made_by = factories[pc].__qualname__.split(".")[0]
        _require(made_by in kinds, f"{what} pc {pc} holds {made_by}, not {' or '.join(kinds)}")


def _require(holds: bool, message: str) -> None:
    """An AssertionError where the back ends disagree on where an instruction is: a bug of
    ours, found at build time (never skipped, as an `assert` is under python -O)."""
    if not holds:
        raise AssertionError(message)


def unset_names(s: ir.ChooseAmong) -> tuple:
    """The names a choice among kinds binds for the steps after it (a choice of one kind with
    no steps of its own): null where no option is legal and `otherwise` runs."""
    kinds = s.alternatives
    return tuple(n for n, _, _ in kinds[0].names) if len(kinds) == 1 and kinds[0].body is None else ()


def size_check(typ) -> str | None:
    """Which size check a stored value of type `typ` needs (see limits.py)."""
    if typ == NUM:
        return "number"
    if typ == STR:
        return "string"
    if elem_of(typ) is not None and not is_map(typ):    # (a map's entries are checked as they are set)
        return "list"
    return None

