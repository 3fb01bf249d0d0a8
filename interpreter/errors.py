"""Every error the interpreter reports is a Problem with a source position.

Problems are collected, never printed where they are found: the CLI formats them
all at once, in one place (`format_problem`).  Every error this package raises on
purpose derives from `InterpreterError`; a run-time `RulesFault` carries the same
`Problem` as a load-time one once the engine knows the step it happened at.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace

from .shown import printable

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int          # 1-based; 0 when the position is unknown
    col: int           # 1-based
    message: str
    source: str = field(default="", compare=False)   # the text of that line, shown with a caret
    # The column just past the problem's last character on the same line (a span drawn ^~~~),
    # or None: the caret marks one character.
    end: int | None = field(default=None, compare=False)
    hint: str | None = field(default=None, compare=False)   # a short suggestion, on its own line
    path: tuple | None = field(default=None, compare=False)  # where in the YAML data it was reported (not printed)
    # ERROR, or WARNING: what the checker cannot prove (a value that may be null); the file
    # still loads and plays, `validate --strict` counts it as an error (docs/language.md,
    # "Compatibility").
    severity: str = field(default="error", compare=False)

    @property
    def is_warning(self) -> bool:
        return self.severity == WARNING

    def __str__(self) -> str:
        return format_problem(self)


def format_problem(p: Problem) -> str:
    """`file:line:col: message`, then the line of the file with a caret under the column
    (`^~~~` under the span up to `end`, when it is known), then `hint: ...` when there is
    one; control characters quoted from a file are shown escaped.  A warning says so:
    `file:line:col: warning: message`.

    This is the one place where a position and a message become text: every error and
    report line that names a place in a file is a Problem formatted here."""
    file, message = printable(str(p.file)), printable(p.message)
    if p.severity == WARNING:
        message = f"{WARNING}: {message}"
    if not p.line:
        text = f"{file}: {message}"
    else:
        text = f"{file}:{p.line}:{p.col}: {message}"
        if p.source:
            text += "\n" + _with_caret(p.source, p.col, p.end)
    if p.hint:
        text += f"\n    hint: {printable(p.hint)}"
    return text


def _with_caret(line: str, col: int, end: int | None = None, width: int = 100) -> str:
    """The source line (at most `width` characters around the column) and a caret under it,
    followed by `~` up to the column before `end` when the span is longer than one character."""
    line = line.expandtabs(1).rstrip()
    start = max(0, min(col - 1 - width // 2, len(line) - width))
    shown = line[start:start + width]
    before = printable(shown[:max(0, col - 1 - start)])
    mark = "^"
    if end is not None and end > col + 1:
        span = printable(shown[max(0, col - 1 - start):max(0, end - 1 - start)])
        mark += "~" * (len(span) - 1)
    return f"    {printable(shown)}\n    {' ' * len(before)}{mark}"


class InterpreterError(Exception):
    """Base of every error this package raises on purpose: `except InterpreterError` catches
    them all (ruleset problems, rules errors at run time, usage errors, expression errors,
    replay divergences, refused files).  `problem` is the positioned Problem, when there is one."""

    problem: Problem | None = None


class RulesetError(InterpreterError):
    """A ruleset (or other input file) has one or more problems, in the order of their
    files and lines; `first`: the file whose problems come first (an overlay's, before
    those it causes in its bases).  Its warnings may be listed with its errors; a file with
    warnings only loads."""

    def __init__(self, problems: list[Problem], first: str | None = None):
        self.problems = sorted(set(problems), key=lambda p: (p.file != first, p))
        super().__init__("\n".join(map(format_problem, self.problems)))


class RulesFault(InterpreterError):
    """A fault of the rules met while a game runs: it reached a state its ruleset does not
    cover (e.g. a choice with no option); a RulesetError is a file the checker refuses.

    Raised with a message where it happens; the engine raises it again with a Problem
    (the ruleset's file, the line and column of the step, the source line), and then
    `str(error)` is `format_problem(error.problem)`."""

    def __init__(self, what: str | Problem):
        super().__init__(what)
        if isinstance(what, Problem):
            self.problem, self.message = what, what.message
        else:
            self.message = str(what)

    def __str__(self) -> str:
        return format_problem(self.problem) if self.problem is not None else self.message


RulesError = RulesFault     # its name until issue 27, kept so that code catching it goes on working


# The Python errors that the rules themselves can cause while a game runs: a number or a list
# grown too large, expressions nested too deeply, a division by zero (the generated back end
# divides inline), a null where a value is needed (TypeError), a count that is not a number
# (int() of NaN).  See rules_caused.
GROWN_TOO_LARGE = (OverflowError, MemoryError, RecursionError)
NOT_A_NUMBER = "cannot convert float NaN to integer"


def rules_caused(e: BaseException) -> bool:
    """Whether exception `e`, raised while a game runs, is the rules' doing (reported as a
    rules error at the step that caused it, or as a text that cannot be shown) rather than a
    bug of the interpreter, which must surface as one (every other exception: a KeyError,
    an AttributeError, a TypeError that is not about a null, ...).  Asked only once an
    exception has been raised: the run loop pays nothing for it."""
    if isinstance(e, (RulesFault, ZeroDivisionError) + GROWN_TOO_LARGE):
        return True
    if type(e) is TypeError:                # a null where a value is needed; not a call of nothing
        text = str(e)
        return "NoneType" in text and "callable" not in text
    return type(e) is ValueError and str(e) == NOT_A_NUMBER


def words(e) -> str:
    """What went wrong, in the rules' words where Python's would mislead."""
    if isinstance(e, RulesFault):
        return brief(e)
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, (OverflowError, MemoryError)):
        return "a number or list grew too large"
    if isinstance(e, RecursionError):
        return "the rules nest too deeply"
    if isinstance(e, ValueError) and str(e) == NOT_A_NUMBER:
        return "this value is not a number (0/0?)"
    if "NoneType" in str(e) or "None" in str(e):
        return f"a value was null (nobody, or no card) where one was needed ({e})"
    return str(e)


def brief(e: BaseException) -> str:
    """An error on one line: its position and message when it has a Problem (without the
    quoted source line), else its text; for a message inside another message."""
    problem = getattr(e, "problem", None)
    if isinstance(problem, Problem):
        return format_problem(replace(problem, source="", hint=None))
    return str(e)


class UsageError(InterpreterError):
    """Bad command-line input: an unknown option, player count or seat."""


def errors_only(problems) -> list:
    """The problems that are errors, not warnings."""
    return [p for p in problems if not p.is_warning]


def as_errors(problems) -> list:
    """The problems with every warning made an error (`validate --strict`)."""
    return [replace(p, severity=ERROR) for p in problems]


def did_you_mean(name: str, known) -> str:
    """A ' (did you mean X?)' suffix, or '' when nothing is close."""
    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
