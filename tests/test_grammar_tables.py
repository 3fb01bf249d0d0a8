"""The expression grammar's saved parse tables: made from the grammar as it is, read back
into a parser that parses every expression as the grammar built afresh does."""
from __future__ import annotations

import json
import pathlib

import yaml
from lark import Lark
from lark.exceptions import UnexpectedInput

from interpreter.lang import tables
from interpreter.lang.syntax import parser

CASES = pathlib.Path(__file__).parent / "expr_cases.yaml"


def test_the_saved_tables_are_made_from_the_grammar_as_it_is():
    """(Lark numbers its states differently from one build to the next, so the tables are
    compared by what they parse, below.)  After changing data/expr.lark:
    python -m interpreter.lang.tables"""
    assert tables._saved(tables.GRAMMAR.read_text(encoding="utf-8")) is not None, \
        "the saved tables are stale: python -m interpreter.lang.tables"


def test_the_saved_parser_parses_every_expression_as_the_grammar_does():
    built = Lark(tables.GRAMMAR.read_text(encoding="utf-8"), **tables.OPTIONS)
    for case in yaml.safe_load(CASES.read_text(encoding="utf-8")):
        text = case["expr"]
        if not isinstance(text, str):
            continue
        assert _parsed(parser(), text) == _parsed(built, text), text


def test_tables_of_another_grammar_or_lark_are_not_used(monkeypatch, tmp_path):
    stale = tmp_path / "expr.tables.json"
    stale.write_text(json.dumps({"grammar": "0" * 64, "tables": {}}), encoding="utf-8")
    monkeypatch.setattr(tables, "TABLES", stale)
    assert tables._saved(tables.GRAMMAR.read_text(encoding="utf-8")) is None
    assert tables.expression_parser().parse("1 + 2").data == parser().parse("1 + 2").data


def _parsed(p, text):
    try:
        tree = p.parse(text)
    except UnexpectedInput as e:
        return ("error", type(e).__name__, e.pos_in_stream)
    return (tree, [(t.meta.start_pos, t.meta.end_pos) for t in tree.iter_subtrees() if not t.meta.empty])
