"""`interpret list`: the shipped games and example house rules, read as plain data.

The files are the package's own, so their headers are read with libyaml's fast loader
where it is installed, without the positions, the checks or the building that a game
needs: the list is printed well within a second."""
from __future__ import annotations

import pathlib

import yaml

from ..source.shipped import house_rule_paths, resolve, shipped_names

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def catalogue_lines() -> list[str]:
    lines = ["games (play one with: interpret NAME):"]
    for name in shipped_names():
        data = _header(pathlib.Path(resolve(name)))
        lines.append(f"  {name:<14} {_title(data, name)} ({_players(data)}, {len(data.get('options') or {})} options)")
    rules = house_rule_paths()
    if rules:
        lines.append("house rules (play one with: interpret NAME; see what it changes with: interpret diff BASE NAME):")
        width = max(len(path.stem) for path in rules)
        for path in rules:
            data = _header(path)
            base = pathlib.Path(str(data.get("extends", ""))).stem
            lines.append(f"  {path.stem:<{width}}  {_title(data, path.stem)}" + (f" (on {base})" if base else ""))
    return lines


def _header(path: pathlib.Path) -> dict:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    return data if isinstance(data, dict) else {}


def _title(data: dict, name: str) -> str:
    title = data.get("title", name)
    if isinstance(title, dict):           # a title in several languages: the English one
        title = title.get("en", next(iter(title.values()), name))
    return str(title)


def _players(data: dict) -> str:
    players = data.get("players", 2)
    lo, hi = (players, players) if isinstance(players, int) else (players.get("min"), players.get("max"))
    return f"{lo} players" if lo == hi else f"{lo}-{hi} players"
