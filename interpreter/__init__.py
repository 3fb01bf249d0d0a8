"""A rules-as-data card-game interpreter.

The pipeline, one module per stage: `loader` (YAML with positions) -> `schema`
(JSON Schema) -> `compiler` (names, types, closures, VM code) -> `engine` (run).
"""
from __future__ import annotations

from .compiler import Program, compile_ruleset
from .engine import apply, labels, new_game, result, view
from .errors import InterpreterError, Problem, RulesError, RulesetError, UsageError
from .loader import load_file, load_text
from .schema import check

__all__ = ["Program", "Problem", "InterpreterError", "RulesError", "RulesetError", "UsageError",
           "load_program", "load_program_text", "check_file", "new_game", "apply", "labels", "result", "view"]


def load_program(path: str, options: dict | None = None, lang: str | None = None) -> Program:
    """Load, validate and compile a ruleset file; raise RulesetError with every problem."""
    data, source = load_file(path)
    return _checked(data, source, options, lang)


def load_program_text(text: str, file: str = "<string>", options=None, lang=None) -> Program:
    data, source = load_text(text, file)
    return _checked(data, source, options, lang)


def _checked(data, source, options, lang) -> Program:
    problems = check(data, source)
    if problems:
        raise RulesetError(problems + _more_problems(data, source, problems))
    return compile_ruleset(data, source, options, lang)


def _more_problems(data, source, found) -> list:
    """Name and expression problems too, where the structure allows a look, so that a
    file with a schema error still shows every problem at once (none twice on a line)."""
    try:
        compile_ruleset(data, source)
    except RulesetError as e:
        lines = {p.line for p in found}
        return [p for p in e.problems if p.line not in lines]
    except Exception:       # the structure is too broken to compile: the schema errors say why
        return []
    return []


def check_file(path: str) -> list[Problem]:
    """Every problem of a ruleset or scenario file (empty when it is valid)."""
    try:
        data, source = load_file(path)
    except RulesetError as e:
        return e.problems
    from .scenario import check_file as check_scenario, is_scenario
    if is_scenario(data):
        return check_scenario(path)
    if isinstance(data, dict) and "format" in data and "decisions" in data:
        from .records import load as load_record
        try:
            load_record(path)
        except RulesetError as e:
            return e.problems
        return []
    try:
        _checked(data, source, None, None)
    except RulesetError as e:
        return e.problems
    except UsageError as e:
        return [Problem(path, 0, 0, str(e))]
    return []
