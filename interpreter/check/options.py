"""What a ruleset's data says before it is checked: the options in force (defaults, then
the choices given on the command line or by a scenario or record) and its player range."""
from __future__ import annotations

import math

from ..errors import UsageError, did_you_mean
from ..lang.values import number_from_text
from ..limits import MAX_NUMBER

TYPE_WORDS = {"integer": "a whole number", "number": "a number", "boolean": "true or false"}


def resolve_options(data: dict, overrides: dict) -> dict:
    """The options in force: defaults, then `overrides` (strings from the command line, or
    values from a record or scenario): a listed choice, or a free value of the option's type."""
    specs = data.get("options", {}) or {}
    values = {name: spec.get("default") for name, spec in specs.items()}
    for name, raw in overrides.items():
        if name not in specs:
            known = ", ".join(specs) or "none"
            raise UsageError(f"unknown option '{name}'{did_you_mean(name, specs)}; options of "
                             f"{data.get('name')}: {known}")
        values[name] = option_value(name, specs[name], raw)
    return values


def option_values(specs: dict) -> dict:
    """name -> the values an option can take, for each option that is one of its listed
    choices (an option with a `type` takes free values, and has no entry)."""
    return {name: tuple(spec["choices"]) for name, spec in specs.items()
            if isinstance(spec, dict) and spec.get("type") is None and isinstance(spec.get("choices"), list)}


def option_value(name: str, spec: dict, raw):
    """`raw` as a value of option `name`: one of its choices, or, for an option with a
    `type`, any value of that type within its min and max; a UsageError says what is allowed."""
    choices = spec.get("choices", [])
    match = [c for c in choices if str(c).lower() == str(raw).lower()]
    if match:
        return match[0]
    kind = spec.get("type")
    if kind is None:
        raise UsageError(f"option '{name}' cannot be '{raw}'{did_you_mean(str(raw), [str(c) for c in choices])}; "
                         f"choose one of: {', '.join(map(str, choices))}")
    value = free_value(kind, raw)
    if value is None or not within(spec, value):
        raise UsageError(f"option '{name}' must be {allowed(spec)}, not '{raw}'")
    return value


def free_value(kind: str, raw):
    """raw read as a value of type `kind`, or None when it is not one."""
    text = str(raw).strip().lower()
    if kind == "boolean":
        return {"true": True, "yes": True, "false": False, "no": False}.get(text)
    number = number_from_text(text, whole=kind == "integer")
    if number is None or not math.isfinite(number) or not -MAX_NUMBER < number < MAX_NUMBER:
        return None
    return int(number) if float(number).is_integer() else number


def within(spec: dict, value) -> bool:
    if isinstance(value, bool):
        return True
    lo, hi = spec.get("min"), spec.get("max")
    return (lo is None or value >= lo) and (hi is None or value <= hi)


def allowed(spec: dict) -> str:
    """What an option's free values may be, as a person reads it: 'a whole number from 1 to
    1000', 'a number of at least 0', 'true or false'."""
    kind, lo, hi = spec["type"], spec.get("min"), spec.get("max")
    words = TYPE_WORDS[kind]
    if kind == "boolean":
        return words
    if lo is not None and hi is not None:
        return f"{words} from {lo} to {hi}"
    if lo is not None:
        return f"{words} of at least {lo}"
    if hi is not None:
        return f"{words} of at most {hi}"
    return words


def of_type(kind: str, value) -> bool:
    if kind == "boolean":
        return isinstance(value, bool)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return kind == "number" or float(value).is_integer()


def player_range(data: dict) -> tuple:
    p = data.get("players", 2)
    if isinstance(p, int):
        return (p, p, p)
    return (p["min"], p["max"], p.get("default", p["min"]))


def choice_key(value) -> str:
    """An option's choice as a key of its explain / at_table map: true, 1, 2.5, none."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def explained(spec: dict, value) -> str | None:
    """The explain line of `value` among the option's choices, if it has one."""
    lines = {choice_key(k): v for k, v in (spec.get("explain") or {}).items()} \
        if isinstance(spec.get("explain"), dict) else {}
    return lines.get(choice_key(value))
