"""Stage 2a: check a loaded ruleset against the JSON Schema (data/ruleset.schema.json).

jsonschema gives every violation with its path; we turn each into a Problem at
the YAML position of that path, phrased for a person writing YAML.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

import jsonschema

from ..errors import Problem, did_you_mean
from ..source.loader import Source

SCHEMAS = {"ruleset": "ruleset.schema.json", "record": "record.schema.json", "scenario": "scenario.schema.json"}


@lru_cache(maxsize=None)
def load_schema(kind: str = "ruleset") -> dict:
    text = resources.files("interpreter").joinpath("data", SCHEMAS[kind]).read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=None)
def _whole_text(pattern: str) -> re.Pattern:
    """A schema's pattern as Python must read it: the schemas are written for editors too
    (ECMA-262, where `$` is the very end), but Python's `$` also matches before a final
    newline, so that `name: "mini\\n"` would pass; a closing `$` is read as `\\Z`."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern)


def _pattern(validator, pattern, instance, schema):
    if validator.is_type(instance, "string") and not _whole_text(pattern).search(instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


# A whole number is an int, never a float such as 2.0 (JSON Schema would accept it); a
# pattern matches the whole text.
_Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    validators={"pattern": _pattern},
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda checker, x: isinstance(x, int) and not isinstance(x, bool)))


@lru_cache(maxsize=None)
def _validator(kind: str):
    return _Validator(load_schema(kind))


def check(data, source: Source, kind: str = "ruleset") -> list[Problem]:
    """Every schema violation in `data`, as problems at their YAML positions (each once)."""
    return findings(data, source, kind)[0]


def findings(data, source: Source, kind: str = "ruleset") -> tuple[list[Problem], frozenset]:
    """(problems, paths): every schema violation (each once), and the paths of the values
    found wrong, which later checks leave alone: where each problem is, and a value that
    fits none of the forms it may take (anyOf), wherever its problem is shown."""
    problems, paths = [], set()
    for error in _validator(kind).iter_errors(data):
        deepest = _deepest(error)
        if deepest is not error:
            paths.add(tuple(error.absolute_path))
        for path, problem in _problems(deepest, source, _steps(kind)):
            paths.add(path)
            if problem not in problems:
                problems.append(problem)
    return problems, frozenset(paths)


class _Steps:
    """What the schema says about steps, for messages: the kinds (the keys of `step_kinds`),
    the words, and which definition is a kind's step or the value of its key."""

    def __init__(self, root: dict):
        defs = root.get("$defs", {})
        self.kinds = list(defs.get("step_kinds", {}).get("properties", {}))
        self.words = list(defs.get("word_step", {}).get("enum", []))
        self.no_kind = defs.get("step_kinds")
        self.step_of = {}           # id(definition of a kind's step) -> kind
        self.value_of = {}          # id(an object schema inside a kind's key) -> kind
        self.keys = {}              # kind -> every key its step takes
        for k in self.kinds:
            step = defs.get(f"{k}_step", {})
            self.step_of[id(step)] = k
            self.keys[k] = list(step.get("properties", {}))
            for node in _objects(step.get("properties", {}).get(k)):
                self.value_of[id(node)] = k

    def owners(self, key) -> list[str]:
        """The kinds whose steps take `key` beside their own."""
        return [k for k in self.kinds if key != k and key in self.keys[k]]


def _objects(node):
    """Every schema object within `node` (not through $ref)."""
    if isinstance(node, dict):
        yield node
        for sub in node.values():
            yield from _objects(sub)
    elif isinstance(node, list):
        for sub in node:
            yield from _objects(sub)


@lru_cache(maxsize=None)
def _steps(kind: str) -> _Steps:
    return _Steps(load_schema(kind))


def _deepest(error):
    """For anyOf/oneOf failures, the sub-error of the branch that fits the value's type best."""
    while error.context:
        fitting = [e for e in error.context if e.validator != "type" and not _type_mismatch(e)]
        pool = fitting or error.context
        best = max(pool, key=lambda e: (len(e.absolute_path), e.validator != "enum"))
        if best.validator in ("anyOf", "oneOf") and best.context:
            error = best
            continue
        if not fitting:
            return error
        return best
    return error


def _type_mismatch(e) -> bool:
    return any(sub.validator == "type" and not sub.path for sub in (e.context or [])) and not e.path


def _problems(error, source: Source, steps: _Steps):
    """(path, problem) of one violation."""
    path = tuple(error.absolute_path)
    where = _where(path)
    v = error.validator
    if v == "additionalProperties":
        yield from _unknown_keys(error, path, source, steps)
        return
    if v == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        yield path, source.problem(path, f"missing required key '{missing}'{where}", key=bool(path))
        return
    if v == "type":
        want = error.validator_value
        want = " or ".join(want) if isinstance(want, list) else want
        yield path, source.problem(path, f"{_name(path)} should be {_article(want)}, not {_kind(error.instance)}")
        return
    if v == "enum":
        choices = ", ".join(map(repr, error.validator_value))
        yield path, source.problem(path, f"{_name(path)} is {error.instance!r}; it must be one of {choices}"
                                   f"{did_you_mean(error.instance, error.validator_value)}")
        return
    if v in ("anyOf", "oneOf") and error.context and all(e.validator == "type" for e in error.context):
        kinds = []
        for e in error.context:
            want = e.validator_value
            kinds += want if isinstance(want, list) else [want]
        wanted = " or ".join(dict.fromkeys(_article(k) for k in kinds))
        yield path, source.problem(path, f"{_name(path)} should be {wanted}, not {_kind(error.instance)}")
        return
    if v in ("anyOf", "oneOf"):
        title = error.schema.get("title", "value")
        yield path, source.problem(path, f"{_name(path)} is not a valid {title.lower()}: {error.schema.get('description', '')}")
        return
    if v == "minProperties" or v == "minItems":
        yield path, source.problem(path, f"{_name(path)} must not be empty")
        return
    if v == "pattern":
        yield path, source.problem(path, f"{_name(path)} {error.instance!r} is not a valid name (letters, digits, '_')")
        return
    yield path, source.problem(path, f"{_name(path)}: {error.message}")


def _unknown_keys(error, path, source: Source, steps: _Steps):
    """One problem per key the schema does not know; in a step, phrased for steps."""
    where = _where(path)
    allowed = list(error.schema.get("properties", {}))
    extra = [k for k in error.instance if k not in allowed] if isinstance(error.instance, dict) else []
    kind = steps.step_of.get(id(error.schema))
    kinds_here = [k for k in error.instance if k in steps.kinds] if isinstance(error.instance, dict) else []
    if kind and len(kinds_here) > 1:
        yield path, source.problem(path, f"one step per list item: this item has {', '.join(kinds_here)}")
        return
    instead = error.schema.get("x-instead", {})     # keys people write for another one
    for key in extra:
        hint = f" (did you mean '{instead[key]}'?)" if key in instead else did_you_mean(key, allowed) if allowed else ""
        message = f"unknown key '{key}'{where}{hint}"
        if error.schema is steps.no_kind:
            owners = steps.owners(key)
            if key in steps.words:
                message = f"'{key}' is a step by itself: write it alone, as a plain word ('- {key}')"
            elif owners:
                message = f"'{key}'{where} goes with {' or '.join(map(repr, owners))}, which this step lacks"
            elif not hint:
                message = f"unknown key '{key}'{where}: a step needs one of: {', '.join(sorted(steps.kinds))}"
        elif kind:
            message = f"'{key}' does not belong in {_a(kind)} step{where}" + (
                hint or f"; it takes {_keys(allowed)}")
        elif not hint and (id(error.schema) in steps.value_of or 0 < len(allowed) <= 5):
            message = f"unknown key '{key}'{where}; it takes {_keys(allowed)}"
        yield path + (key,), source.problem(path + (key,), message, key=True)


def _a(kind: str) -> str:
    return ("an '" if kind[:1] in "aeiou" else "a '") + kind + "'"


def _keys(names) -> str:
    names = [f"'{n}'" for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _name(path) -> str:
    if not path:
        return "the ruleset"
    last = path[-1]
    if isinstance(last, int):
        return f"item {last + 1} of '{_dotted(path[:-1])}'"
    return f"'{_dotted(path)}'"


def _where(path) -> str:
    return f" in '{_dotted(path)}'" if path else ""


def _dotted(path) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (("." if out else "") + str(p))
    return out


def _kind(value) -> str:
    return {bool: "true/false", int: "a number", float: "a number with a decimal point", str: "a string", list: "a list",
            dict: "a mapping", type(None): "empty"}.get(type(value), type(value).__name__)


def _article(word: str) -> str:
    return {"object": "a mapping", "array": "a list", "null": "empty", "boolean": "true or false",
            "integer": "a whole number"}.get(
        word, ("an " if word[:1] in "aeiou" else "a ") + word)
