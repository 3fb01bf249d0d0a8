"""`interpret new FILE --from RULESET`: the text of a starter overlay, with an editor schema
line that works where the file is, its own name, and comments on how to go on."""
from __future__ import annotations

import os
import pathlib

from ..errors import UsageError
from ..source.shipped import resolve, shipped_names
from ..pipeline import load_program

SCHEMA = pathlib.Path(__file__).resolve().parent.parent / "data" / "overlay.schema.json"


def starter_overlay(file: str, base: str) -> str:
    """The starter text for `file` on `base` (a shipped name or a path, checked first)."""
    here = os.path.dirname(os.path.abspath(file))
    shipped = not os.path.exists(base) and base in shipped_names()
    path = resolve(base)
    if not os.path.isfile(path):
        raise UsageError(f"no ruleset '{base}' here or among the shipped ones ({', '.join(shipped_names())})")
    program = load_program(path)                     # a broken base is reported now, not later
    extends = base if shipped else _relative(path, here)
    name = pathlib.Path(file).stem.replace("-", "_")
    schema = _relative(str(SCHEMA), here)
    options = list(program.option_specs)
    example_option = options[0] if options else None
    return "\n".join([
        f"# yaml-language-server: $schema={schema}",
        f"# A house rule on {program.name}: this file says only what differs from it.",
        "#",
        "# What you can write here (docs/overlays.md):",
        "#   name, title, ...: replace the base's",
        "#   options / zones / variables / player_variables / functions / procedures / statistics:",
        "#       an entry added, or replacing the base's entry of that name",
        "#   deck: {attributes: {points: \"...\"}}: a card attribute added or replaced",
        "#   set: {options.NAME.default: VALUE, flow.until: \"...\"}: any value by its path",
        "#   remove: [zones.NAME, statistics.NAME]: entries taken out",
        "#   steps: [{after: ID, insert: [...]}]: steps put before, after or instead of a step with that id",
        "#       (or {remove: ID}); give a step of the base an id with `id: NAME` if it has none",
        "#   triggers: [...]: triggers added",
        "#",
        "# Then:",
        f"#   interpret validate {file}",
        f"#   interpret diff {_relative(path, os.getcwd())} {file}      # what it changes, rule by rule",
        f"#   interpret compare {_relative(path, os.getcwd())} {file}   # what it does to the game",
        f"extends: {extends}",
        f"name: {name}",
        f"title: {program.title} ({name.replace('_', ' ')})",
        "",
        "set:",
        (f"  # options.{example_option}.default: {program.options[example_option]}   # a convention's default"
         if example_option else "  # flow.until: \"...\""),
        "",
    ])


def _relative(target: str, start: str) -> str:
    try:
        return os.path.relpath(target, start)
    except ValueError:              # another drive (Windows): the whole path
        return os.path.abspath(target)
