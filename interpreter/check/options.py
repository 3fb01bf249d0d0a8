"""What a ruleset's data says before it is checked: the options in force (defaults, then
the choices given on the command line or by a scenario or record) and its player range."""
from __future__ import annotations

from ..errors import UsageError, did_you_mean


def resolve_options(data: dict, overrides: dict) -> dict:
    """The options in force: defaults, then `overrides` (strings from the command line)."""
    specs = data.get("options", {}) or {}
    values = {name: spec.get("default") for name, spec in specs.items()}
    for name, raw in overrides.items():
        if name not in specs:
            known = ", ".join(specs) or "none"
            raise UsageError(f"unknown option '{name}'{did_you_mean(name, specs)}; options of "
                             f"{data.get('name')}: {known}")
        choices = specs[name].get("choices", [])
        match = [c for c in choices if str(c).lower() == str(raw).lower()]
        if not match:
            raise UsageError(f"option '{name}' cannot be '{raw}'{did_you_mean(str(raw), [str(c) for c in choices])}; "
                             f"choose one of: {', '.join(map(str, choices))}")
        values[name] = match[0]
    return values


def player_range(data: dict) -> tuple:
    p = data.get("players", 2)
    if isinstance(p, int):
        return (p, p, p)
    return (p["min"], p["max"], p.get("default", p["min"]))
