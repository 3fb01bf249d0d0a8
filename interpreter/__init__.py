"""A rules-as-data card-game interpreter.

The package is laid out by stage, in the order a ruleset goes through them:

    source/   read a YAML file, keeping the position of every value
    lang/     the expression language (grammar, syntax trees, types) and the typed
              intermediate form of a ruleset (ir.py)
    check/    the JSON Schema, the deck, names, types and steps (the checker), into ir.py
    closures/ turn a checked ruleset (ir.py) into closures and VM instructions
    generated/ ... or the same instructions written as Python source (the default)
    runtime/  the Program, the game state, the VM, effects, views (plain data)
    playing/  bots and people at a table, one game to its end, records
    lab/      simulation, comparison, statistics, reports, plots, outputs, cluster
    authoring/ scenarios, diff, starter overlays, validation, the rules as text
    cli/      the `interpret` command and what a person reads at a terminal
    api/      a ruleset as a game for learning and search code (docs/api.md)
    envs/     PettingZoo, Gymnasium and OpenSpiel environments (optional extras)

`pipeline` ties the stages together.  The names below are loaded on first use, so
that `import interpreter.runtime` loads neither the parser nor the schema checker.
"""
from __future__ import annotations

import importlib

_EXPORTS = {
    "load_program": "pipeline", "load_program_text": "pipeline", "load_named_program": "pipeline",
    "check_file": "authoring.validation", "check_players": "pipeline",
    "Program": "runtime.program",
    "new_game": "runtime.engine", "apply": "runtime.engine", "labels": "runtime.engine",
    "result": "runtime.engine", "view": "runtime.engine",
    "Problem": "errors", "InterpreterError": "errors", "RulesFault": "errors", "RulesetError": "errors",
    "UsageError": "errors",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
