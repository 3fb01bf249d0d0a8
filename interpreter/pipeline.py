"""The pipeline from a file to a Program: load (source) -> check (schema, then names,
types and steps, into the typed form of lang/ir.py) -> back end (closures and VM
instructions) -> a Program the run-time stage runs.

The functions here are the ones the package exports; the stages themselves never
import this module."""
from __future__ import annotations

from .closures.expressions import Closures
from .closures.program import build_program
from .generated.program import build_generated
from .native.program import build_native, native_installed
from .check.expressions import ExprChecker
from .check.ruleset import check_ruleset
from .check.schema import findings
from .errors import Problem, RulesetError, UsageError
from .lang.ir import Ruleset
from .limits import MAX_PLAYERS
from .check.options import resolve_options
from .runtime.program import Program
from .source.loader import FileRefused, load_named
from .source.overlay import combine, load_rules, load_rules_text


# The back ends: the generated one (Python source, the fastest) runs games unless asked
# otherwise; the closure back end is the reference it is tested against.  The choice is
# a parameter of every function that builds a program, passed down from where the user
# makes it (`--backend`, `backend=`): no setting of the process decides it, so programs of
# both back ends can be built side by side, and a forked or remote worker plays the back
# end of the program it is given.
# `native` is the generated Program with a Numba kernel beside it that plays whole games
# between random bots (simulate, compare, bench): where Numba is installed it is what
# simulate and compare use unless told otherwise (docs/native.md).
BACKENDS = {"generated": build_generated, "closures": build_program, "native": build_native}
DEFAULT_BACKEND = "generated"


def simulation_backend() -> str:
    """The back end simulate and compare use when --backend is not given."""
    return "native" if native_installed() else DEFAULT_BACKEND


def build(ruleset: Ruleset, backend: str = DEFAULT_BACKEND) -> Program:
    """The Program of a checked ruleset, from the back end named `backend`."""
    return BACKENDS[known_backend(backend)](ruleset)


def known_backend(backend: str) -> str:
    """`backend` if it names a back end; else a UsageError that lists them."""
    if backend not in tuple(BACKENDS):
        raise UsageError(f"no back end {backend!r}; choose one of: {', '.join(BACKENDS)}")
    return backend


def load_program(path: str, options: dict | None = None, lang: str | None = None,
                 backend: str = DEFAULT_BACKEND) -> Program:
    """Load, check and build a ruleset file (or an overlay of one); raise RulesetError with
    every problem."""
    data, source = load_rules(path)
    return _built(_checked(data, source, options, lang), backend, data, source)


def load_program_text(text: str, file: str = "<string>", options=None, lang=None,
                      backend: str = DEFAULT_BACKEND, shipped_bases: bool = False) -> Program:
    data, source = load_rules_text(text, file, shipped_bases)
    return _built(_checked(data, source, options, lang), backend, data, source)


def compile_ruleset(data: dict, source, options: dict | None = None, lang: str | None = None,
                    backend: str = DEFAULT_BACKEND) -> Program:
    """The Program of loaded ruleset data that the schema accepts: check, then build."""
    return _built(check_ruleset(data, source, options, lang), backend, data, source)


def _built(ruleset: Ruleset, backend, data, source) -> Program:
    """The Program of a checked ruleset, with the data it came from and its warnings."""
    program = build(ruleset, backend)
    program.rules, program.warnings = (data, source), ruleset.warnings
    return program


def _checked(data, source, options, lang) -> Ruleset:
    _check_schema(data, source)
    return check_ruleset(data, source, options, lang)


def _check_schema(data, source) -> None:
    """Raise RulesetError with the schema's problems, and the checker's, found in what the
    schema did not find wrong, so that a file shows every problem at once (none twice on
    a line)."""
    problems, wrong = findings(data, source)
    problems = list(getattr(source, "problems", ())) + problems     # an overlay's own, first
    if problems:
        lines = {p.line for p in problems}
        raise RulesetError(problems + [p for p in _checker_problems(data, source, wrong) if p.line not in lines],
                           first=source.file)


def _checker_problems(data, source, wrong: frozenset) -> list[Problem]:
    try:
        check_ruleset(data, source, skip=wrong)
    except RulesetError as e:
        return e.problems
    return []


def load_named_program(path: str, shown: str, src, where: tuple, options: dict | None = None,
                       lang: str | None = None, at: tuple = (), backend: str = DEFAULT_BACKEND) -> Program:
    """The ruleset that a scenario or a record names, compiled with its options.

    That file is not one of ours until it loads as a ruleset (`load_named`): a file that
    is missing, not a regular file or too large, or that is not a YAML mapping of a
    ruleset's keys, is one problem at `where` in the naming file (`src`), and nothing of
    its content is quoted.  Options and language are checked one by one, each a problem
    at its own key (`at` + ("options", name) or ("lang",)) of the naming file; `backend`
    is the caller's choice, not the file's, and is checked before the file is read."""
    known_backend(backend)
    try:
        data, source = load_named(path)
    except FileRefused as e:
        raise RulesetError([src.problem(where, e.about(shown), hint=e.hint)]) from None
    data, source = combine(data, source)
    _check_schema(data, source)
    options = {str(k): str(v) for k, v in (options or {}).items()}
    wrong = []
    for name, value in options.items():
        try:
            resolve_options(data, {name: value})
        except UsageError as e:
            wrong.append(src.problem(at + ("options", name), str(e), key=name not in (data.get("options") or {})))
    languages = data.get("languages") or ["en"]
    if lang is not None and lang not in languages:
        wrong.append(src.problem(at + ("lang",), f"{data.get('name')} has no language '{lang}'; choose one of: "
                                                 f"{', '.join(map(str, languages))}"))
    if wrong:
        raise RulesetError(wrong)
    try:
        return compile_ruleset(data, source, options, lang, backend)
    except UsageError as e:
        raise RulesetError([src.problem(where, str(e))]) from None


def check_players(n, program: Program, src, where: tuple) -> list[Problem]:
    """A player count a scenario or record gives, against the ruleset's range and MAX_PLAYERS."""
    lo, hi, _ = program.players
    if n is None:
        return []
    if not isinstance(n, int) or isinstance(n, bool) or not lo <= n <= min(hi, MAX_PLAYERS):
        allowed = str(lo) if lo == hi else f"{lo} to {min(hi, MAX_PLAYERS)}"
        return [src.problem(where, f"{program.name} is for {allowed} players, not {n}")]
    return []


def check_ruleset_data(data, source, options=None) -> list[Problem]:
    """Every problem of a loaded ruleset, its warnings included (empty when it is valid and
    nothing is warned of), found by the checker alone: no run-time code is built.
    `options`: values of options (text, as typed) to check it under."""
    try:
        ruleset = _checked(data, source, options, None)
    except RulesetError as e:
        return e.problems
    except UsageError as e:
        return [Problem(source.file, 0, 0, str(e))]
    return list(ruleset.warnings)


def compile_expression(symbols, text, scope=None, want=None, strict: bool = False):
    """Check and compile one expression (for tests and tools): the IR node, with `.fn` and
    `.warnings` (ExprErrors, each with the function whose body it is in, or None, as
    `.function`).  A mistake in a function's body that the expression calls is raised too;
    `strict`: a warning is raised as an error."""
    checker = ExprChecker(symbols)
    checker.strict = strict
    node = checker.check(text, scope, want)
    for name, e in checker.errors.items():
        e.function = name
        raise e
    node.warnings = []
    for name, e in checker.take_warnings():
        e.function = name
        node.warnings.append(e)
    node.fn = Closures(symbols).fn(node)
    return node
