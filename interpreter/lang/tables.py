"""The expression grammar's parse tables, saved beside it as plain JSON data.

Building the LALR tables from data/expr.lark takes about 40 ms, at every start of every
command; reading them back takes a few.  They are saved as JSON, not with lark's own cache
(a pickle in the temp folder, which a file planted there would turn into code run as this
user), and they are used only when they were made from this very grammar text by this very
version of lark: otherwise the grammar is built as before.  After changing the grammar:

    python -m interpreter.lang.tables          # writes data/expr.tables.json
"""
from __future__ import annotations

import hashlib
import json
import pathlib

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}
DATA = pathlib.Path(__file__).resolve().parent.parent / "data"
GRAMMAR, TABLES = DATA / "expr.lark", DATA / "expr.tables.json"


def expression_parser() -> Lark:
    grammar = GRAMMAR.read_text(encoding="utf-8")
    saved = _saved(grammar)
    if saved is not None:
        return Lark._load_from_dict(saved["data"], saved["memo"])
    return Lark(grammar, **OPTIONS)


def saved_tables(grammar: str) -> str:
    """The JSON text of the tables built from `grammar`, stamped with what they were made from."""
    data, memo = Lark(grammar, **OPTIONS).memo_serialize([TerminalDef, Rule])
    return json.dumps({"grammar": _stamp(grammar), "tables": _plain({"data": data, "memo": memo})},
                      sort_keys=True, separators=(",", ":")) + "\n"


def _saved(grammar: str):
    try:
        saved = json.loads(TABLES.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(saved, dict) or saved.get("grammar") != _stamp(grammar):
        return None
    return _restored(saved["tables"])


def _stamp(grammar: str) -> str:
    return hashlib.sha256(f"{lark.__version__}\0{sorted(OPTIONS.items())}\0{grammar}".encode()).hexdigest()


def _plain(value):
    """JSON keeps neither tuples nor keys that are numbers: both are tagged."""
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("#") for k in value):
            return {k: _plain(v) for k, v in value.items()}
        return {"#pairs": [[_plain(k), _plain(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"#tuple": [_plain(v) for v in value]}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _restored(value):
    if isinstance(value, dict):
        if "#pairs" in value:
            return {_restored(k): _restored(v) for k, v in value["#pairs"]}
        if "#tuple" in value:
            return tuple(_restored(v) for v in value["#tuple"])
        return {k: _restored(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_restored(v) for v in value]
    return value


if __name__ == "__main__":
    TABLES.write_text(saved_tables(GRAMMAR.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {TABLES}")
