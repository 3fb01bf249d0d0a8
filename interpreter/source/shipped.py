"""The rulesets that ship with the package, found by name from any folder.

In an installed wheel they are `interpreter/rulesets/*.yaml` (pyproject.toml maps the
repository's `rulesets/` there, and `examples/` to `interpreter/examples/`); in a checkout
they are `rulesets/` beside the package."""
from __future__ import annotations

import os
import pathlib

from ..errors import UsageError, did_you_mean

PACKAGE = pathlib.Path(__file__).resolve().parent.parent


def shipped_dirs() -> list[pathlib.Path]:
    return [d for d in (PACKAGE / "rulesets", PACKAGE.parent / "rulesets") if d.is_dir()]


def examples_dirs() -> list[pathlib.Path]:
    return [d for d in (PACKAGE / "examples", PACKAGE.parent / "examples") if d.is_dir()]


def shipped_names() -> list[str]:
    return sorted({p.stem for d in shipped_dirs() for p in d.glob("*.yaml")})


def house_rule_paths() -> list[pathlib.Path]:
    """The example house rules (overlays), by name: examples/house_rules/NAME.yaml."""
    return sorted(p for d in examples_dirs() for p in (d / "house_rules").glob("*.yaml")
                  if not p.stem.endswith("_scenario"))


def shipped_path(name: str) -> str | None:
    """The file of the shipped ruleset or example house rule `name` (hearts2, hearts2.yaml,
    hearts2_to_60), or None."""
    stem = name[:-5] if name.endswith(".yaml") else name
    if not stem or "/" in stem or "\\" in stem:
        return None
    for d in shipped_dirs():
        if (d / f"{stem}.yaml").is_file():
            return str(d / f"{stem}.yaml")
    return next((str(p) for p in house_rule_paths() if p.stem == stem), None)


def resolve(name: str) -> str:
    """A ruleset's file: `name` itself when it exists, else the shipped ruleset (or example
    house rule) of that name.  A bare name that is neither is a usage error with the closest
    name; a path is left as it is (whoever opens it says that it does not exist)."""
    if os.path.exists(name):
        return name
    found = shipped_path(name)
    if found is not None:
        return found
    if name and not any(ch in name for ch in "/\\.") and shipped_dirs():
        known = shipped_names() + [p.stem for p in house_rule_paths()]
        raise UsageError(f"'{name}' is neither a file nor a shipped game{did_you_mean(name, known)}: "
                         "'interpret list' shows the games")
    return name


def shipped_docs(name: str) -> list[str]:
    """Where a ruleset's `rules_file` may lie among the shipped docs: the same file name
    under docs/games (in the wheel: interpreter/docs/games)."""
    base = os.path.basename(name)
    return [str(d / "games" / base) for d in (PACKAGE / "docs", PACKAGE.parent / "docs") if (d / "games").is_dir()]
