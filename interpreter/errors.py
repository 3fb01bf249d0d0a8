"""Every error the interpreter reports is a Problem with a source position.

Problems are collected, never printed where they are found: the CLI formats them
all at once, in one place (`format_problem`).
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

# Characters that would break a message's one line or drive the terminal (newlines, escapes).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int          # 1-based; 0 when the position is unknown
    col: int           # 1-based
    message: str
    source: str = field(default="", compare=False)   # the text of that line, shown with a caret

    def __str__(self) -> str:
        return format_problem(self)


def format_problem(p: Problem) -> str:
    """`file:line:col: message`, then the line of the file with a caret under the column
    when it is known; control characters quoted from a file are shown escaped."""
    file, message = _printable(str(p.file)), _printable(p.message)
    if not p.line:
        return f"{file}: {message}"
    head = f"{file}:{p.line}:{p.col}: {message}"
    if not p.source:
        return head
    return head + "\n" + _with_caret(p.source, p.col)


def _with_caret(line: str, col: int, width: int = 100) -> str:
    """The source line (at most `width` characters around the column) and a caret under it."""
    line = line.expandtabs(1).rstrip()
    start = max(0, min(col - 1 - width // 2, len(line) - width))
    shown = line[start:start + width]
    before = _printable(shown[:max(0, col - 1 - start)])
    return f"    {_printable(shown)}\n    {' ' * len(before)}^"


def _printable(text: str) -> str:
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


class InterpreterError(Exception):
    """Base of every error this package raises on purpose."""


class RulesetError(InterpreterError):
    """A ruleset (or other input file) has one or more problems."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))
        super().__init__("\n".join(map(format_problem, self.problems)))


class RulesError(InterpreterError):
    """A game reached a state its ruleset does not cover (e.g. a choice with no option)."""


# Python errors the rules can cause (a null where a value is needed, a number too large
# to convert, ...): each is reported as a rules error at the step that caused it.
RUN_TIME_FAULTS = (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError,
                   OverflowError, RecursionError, MemoryError, StopIteration)


def words(e) -> str:
    """What went wrong, in the rules' words where Python's would mislead."""
    if isinstance(e, RulesError):
        return str(e)
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, (OverflowError, MemoryError)):
        return "a number or list grew too large"
    if isinstance(e, RecursionError):
        return "the rules nest too deeply"
    if "NoneType" in str(e) or "None" in str(e):
        return f"a value was null (nobody, or no card) where one was needed ({e})"
    return str(e)


class UsageError(InterpreterError):
    """Bad command-line input: an unknown option, player count or seat."""


def did_you_mean(name: str, known) -> str:
    """A ' (did you mean X?)' suffix, or '' when nothing is close."""
    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
